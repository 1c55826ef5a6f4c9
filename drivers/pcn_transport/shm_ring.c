// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: the rings.  There is one ring per
 * ordered pair of slots, with one producer (the sending node, under its
 * peer's send_lock, or the handshake that owns the connection) and one
 * consumer (the receiving node's poll thread, or its handshake).
 *
 * Ordering.  The two ends are different machines sharing one memory:
 * - the producer copies the bytes into the data area, then publishes
 *   the new head with a store-release, so that a consumer that sees the
 *   head also sees every byte before it;
 * - the consumer reads the head with a load-acquire before it reads the
 *   data the head covers;
 * - the consumer copies the bytes out, then publishes the new tail with
 *   a store-release, and the producer reads the tail with a load-acquire
 *   before it writes over the bytes the tail freed: they were read.
 * The virt_ variants are used because the barrier is needed even in a
 * kernel built without SMP: the other end is another machine, as for
 * the rings of Xen and Hyper-V.  On x86 they are plain moves with a
 * compiler barrier (TSO), which QEMU keeps between x86 guests on an x86
 * host.
 *
 * Each end keeps its own index in private memory (->pos) and reads only
 * the other end's from the segment, once per use.  An index from the
 * segment is checked (head - tail above the ring's size is a broken
 * ring) and every offset is masked, so no access leaves the ring
 * whatever the segment holds.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include "shm.h"

/**
 * pcn_shm_ring_init() - this node's view of the ring from slot @from to
 *	slot @to
 * @r: the view
 * @from: the producer's slot
 * @to: the consumer's slot
 */
void pcn_shm_ring_init(struct pcn_shm_ring *r, int from, int to)
{
	const struct pcn_shm_header *l = &pcn_shm.layout;
	void *ctl = pcn_shm.base + l->ring_base +
		    ((u64)from * l->nslots + to) * l->ring_stride;

	r->ctl = ctl;
	r->data = ctl + PCN_SHM_CTL_SIZE;
	r->size = l->ring_bytes;
	r->pos = 0;
	r->seq = 0;
}

/* Copy @len bytes to ring position @at, wrapping around the end. */
static void pcn_shm_copy_in(struct pcn_shm_ring *r, u32 at, const void *buf,
			    size_t len)
{
	u32 off = at & (r->size - 1);
	size_t first = min_t(size_t, len, r->size - off);

	memcpy(r->data + off, buf, first);
	memcpy(r->data, buf + first, len - first);
}

static void pcn_shm_copy_out(struct pcn_shm_ring *r, u32 at, void *buf,
			     size_t len)
{
	u32 off = at & (r->size - 1);
	size_t first = min_t(size_t, len, r->size - off);

	memcpy(buf, r->data + off, first);
	memcpy(buf + first, r->data, len - first);
}

/**
 * pcn_shm_ring_room() - bytes the producer may write now
 * @r: a ring this node writes
 * @bad: set when the consumer's tail is impossible (the ring is broken)
 *
 * Return: the free bytes (0 when @bad).
 */
u32 pcn_shm_ring_room(struct pcn_shm_ring *r, bool *bad)
{
	/* Acquire: the consumer copied the bytes out before this tail. */
	u32 tail = virt_load_acquire(&r->ctl->tail);
	u32 used = r->pos - tail;

	*bad = used > r->size;
	return *bad ? 0 : r->size - used;
}

/* Append @len bytes (room checked by the caller); published later. */
void pcn_shm_ring_write(struct pcn_shm_ring *r, const void *buf, size_t len)
{
	pcn_shm_copy_in(r, r->pos, buf, len);
	r->pos += len;
}

/* Append a page of data, copied once, from the page to the ring. */
void pcn_shm_ring_write_page(struct pcn_shm_ring *r, struct page *page)
{
	void *kaddr = kmap_local_page(page);

	pcn_shm_ring_write(r, kaddr, PAGE_SIZE);
	kunmap_local(kaddr);
}

/* Make what was written visible to the consumer (see the top). */
void pcn_shm_ring_publish(struct pcn_shm_ring *r)
{
	/* Release: the bytes are in the ring before the head says so. */
	virt_store_release(&r->ctl->head, r->pos);
}

/**
 * pcn_shm_ring_avail() - bytes the consumer may read now
 * @r: a ring this node reads
 *
 * Return: the published bytes not read yet, or -EPROTO when the
 * producer's head is impossible (the ring is broken).
 */
long pcn_shm_ring_avail(struct pcn_shm_ring *r)
{
	/* Acquire: the bytes this head covers are read after it. */
	u32 head = virt_load_acquire(&r->ctl->head);
	u32 avail = head - r->pos;

	/* Not one ?: expression, which would make -EPROTO a u32. */
	if (avail > r->size)
		return -EPROTO;
	return avail;
}

/* Copy @len bytes from @off bytes past the consumer's position. */
void pcn_shm_ring_read(struct pcn_shm_ring *r, u32 off, void *buf, size_t len)
{
	pcn_shm_copy_out(r, r->pos + off, buf, len);
}

/* Release @len bytes read to the producer (see the top). */
void pcn_shm_ring_consume(struct pcn_shm_ring *r, u32 len)
{
	r->pos += len;
	/* Release: the bytes were copied out before they are freed. */
	virt_store_release(&r->ctl->tail, r->pos);
}
