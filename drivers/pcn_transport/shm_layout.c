// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: the layout header, the node slots
 * and liveness.
 *
 * The layout follows from the segment's size and the number of nodes
 * (shm_layout.h), so every node computes the same header.  A node that
 * finds the magic 0 (a fresh, zeroed file) writes it, magic last; two
 * nodes doing so at once write the same bytes.  Every node then checks
 * at start and at each heartbeat that the header is exactly the one it
 * computed: a header that is not (another version, another cluster
 * size, or damage) is refused with a log line, and while it stays so
 * every connection is ended and no new one is made.  The node recovers
 * by itself once the header is right again.
 *
 * Each node counts up the heartbeat of its slot every PCN_SHM_BEAT_MS
 * and watches its peers' slots: a peer whose heartbeat has not moved
 * for pcn_shm.dead_ms, or whose slot shows a new boot id, is lost, and
 * so is one that cleared its lines of the session's rings.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include <linux/crc32.h>
#include <linux/log2.h>
#include <linux/random.h>

#include "shm.h"

static u32 pcn_shm_header_check(const struct pcn_shm_header *h)
{
	return crc32_le(~0, (const u8 *)h,
			offsetof(struct pcn_shm_header, check));
}

/* The header of a segment of @size bytes for @nslots nodes. */
static int pcn_shm_layout_compute(struct pcn_shm_header *l, size_t size,
				  unsigned int nslots)
{
	u64 per_ring;

	memset(l, 0, sizeof(*l));
	if (size < PCN_SHM_HEADER_SIZE)
		return -ENOSPC;
	per_ring = div_u64(size - PCN_SHM_HEADER_SIZE, nslots * nslots);
	if (per_ring < PCN_SHM_CTL_SIZE + PCN_SHM_RING_MIN)
		return -ENOSPC;
	l->magic = PCN_SHM_MAGIC;
	l->version = PCN_SHM_VERSION;
	l->nslots = nslots;
	l->ring_bytes = rounddown_pow_of_two(min_t(u64, per_ring - PCN_SHM_CTL_SIZE,
						   PCN_SHM_RING_MAX));
	l->ring_base = PCN_SHM_HEADER_SIZE;
	l->ring_stride = PCN_SHM_CTL_SIZE + l->ring_bytes;
	l->size = l->ring_base + (u64)nslots * nslots * l->ring_stride;
	l->check = pcn_shm_header_check(l);
	return 0;
}

/* Write the header into a fresh segment: every field, the magic last. */
static void pcn_shm_format(void)
{
	struct pcn_shm_header *h = pcn_shm.base;
	const struct pcn_shm_header *l = &pcn_shm.layout;
	size_t skip = sizeof(h->magic);

	/*
	 * Not the magic: another node formatting at the same time may
	 * have set it already, and must not see it go back to 0.
	 */
	memcpy((void *)h + skip, (const void *)l + skip, sizeof(*l) - skip);
	/* A node that sees the magic sees the fields: release. */
	virt_store_release(&h->magic, l->magic);
	pr_info("formatted the shared segment: %u slots, rings of %u bytes\n",
		l->nslots, l->ring_bytes);
}

/**
 * pcn_shm_layout_check() - whether the segment's header is the one this
 *	node computed, formatting a fresh segment
 *
 * On a change for the worse, logs it and drops every connection.
 *
 * Return: the new state of pcn_shm.layout_ok.
 */
bool pcn_shm_layout_check(void)
{
	struct pcn_shm_header h;
	bool ok;
	int nid;

	if (!READ_ONCE(((struct pcn_shm_header *)pcn_shm.base)->magic))
		pcn_shm_format();
	/* A private copy: the segment may change while it is looked at. */
	memcpy(&h, pcn_shm.base, sizeof(h));
	ok = !memcmp(&h, &pcn_shm.layout, sizeof(h));
	if (pcn_shm.layout_known && ok == READ_ONCE(pcn_shm.layout_ok))
		return ok;
	pcn_shm.layout_known = true;
	WRITE_ONCE(pcn_shm.layout_ok, ok);
	if (ok) {
		pr_info("layout header valid: connections may be made\n");
		/* Only under a valid header do this node's lines mean anything. */
		if (!pcn_shm.lines_cleared) {
			pcn_shm_clear_lines();
			pcn_shm.lines_cleared = true;
		}
		return ok;
	}
	pcn_shm_count(PCN_SHM_LAYOUT_ERRORS);
	pr_err("layout header refused (magic %#x version %u slots %u ring bytes %u check %#x%s): no connection until it is valid\n",
	       h.magic, h.version, h.nslots, h.ring_bytes, h.check,
	       pcn_shm_header_check(&h) == h.check ? "" : ", bad check");
	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];

		if (nid != pcn_my_nid())
			pcn_shm_drop(peer, PCN_SHM_LOST_LAYOUT,
				     READ_ONCE(peer->session));
	}
	return ok;
}

/* The boot id in node slot @slot. */
u64 pcn_shm_slot_boot(int slot)
{
	return READ_ONCE(pcn_shm.slots[slot].boot_id);
}

/* Count up this node's heartbeat: its slot has one writer, this node. */
void pcn_shm_beat(void)
{
	struct pcn_shm_slot *me = &pcn_shm.slots[pcn_shm.my_slot];

	WRITE_ONCE(me->boot_id, pcn_shm.boot_id);
	WRITE_ONCE(me->heartbeat, READ_ONCE(me->heartbeat) + 1);
}

/* The peer's heartbeat moved within the last pcn_shm.dead_ms. */
bool pcn_shm_peer_alive(struct pcn_shm_peer *peer)
{
	unsigned long seen = READ_ONCE(peer->beat_seen_at);

	return seen && time_before(jiffies, seen +
				   msecs_to_jiffies(pcn_shm_dead_ms));
}

/* Poll thread, each heartbeat: note the peers' slots, drop lost peers. */
void pcn_shm_watch_peers(void)
{
	int nid;
	u32 s;

	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];
		struct pcn_shm_slot *slot = &pcn_shm.slots[peer->slot];
		u64 boot = READ_ONCE(slot->boot_id);
		u64 beat = READ_ONCE(slot->heartbeat);

		if (nid == pcn_my_nid())
			continue;
		if (beat != peer->last_beat || boot != peer->last_boot) {
			peer->last_beat = beat;
			peer->last_boot = boot;
			WRITE_ONCE(peer->beat_seen_at, jiffies ?: 1);
		}
		if (READ_ONCE(peer->state) != PCN_SHM_UP ||
		    !READ_ONCE(peer->rx_on))
			continue;
		s = READ_ONCE(peer->session);
		if (!READ_ONCE(pcn_shm.layout_ok))
			pcn_shm_drop(peer, PCN_SHM_LOST_LAYOUT, s);
		else if (!pcn_shm_peer_alive(peer))
			pcn_shm_drop(peer, PCN_SHM_LOST_HEARTBEAT, s);
		else if (boot != peer->peer_boot)
			pcn_shm_drop(peer, PCN_SHM_LOST_REBOOT, s);
		else if (pcn_shm_peer_left(peer, s))
			pcn_shm_drop(peer, PCN_SHM_LOST_BY_PEER, s);
	}
}

/**
 * pcn_shm_layout_init() - compute the layout, take this node's slot
 *
 * Return: 0, or -errno when the segment cannot hold the cluster.
 */
int pcn_shm_layout_init(void)
{
	struct pcn_shm_slot *me;
	int nid, ret;

	ret = pcn_shm_layout_compute(&pcn_shm.layout, pcn_shm.size,
				     pcn_nr_nodes());
	if (ret) {
		pr_err("a shared segment of %zu bytes cannot hold rings for %d nodes (%d)\n",
		       pcn_shm.size, pcn_nr_nodes(), ret);
		return ret;
	}
	pcn_shm.slots = pcn_shm.base + PCN_SHM_SLOTS_OFFSET;
	pcn_shm.my_slot = pcn_shm_peers[pcn_my_nid()].slot;
	pcn_shm.boot_id = get_random_u64() | 1;

	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];
		struct pcn_shm_slot *slot = &pcn_shm.slots[peer->slot];

		if (nid == pcn_my_nid())
			continue;
		pcn_shm_ring_init(&peer->out, pcn_shm.my_slot, peer->slot);
		pcn_shm_ring_init(&peer->in, peer->slot, pcn_shm.my_slot);
		peer->last_beat = READ_ONCE(slot->heartbeat);
		peer->last_boot = READ_ONCE(slot->boot_id);
		/* Requests made for an earlier boot are ignored anyway. */
		peer->seen_session = READ_ONCE(peer->in.ctl->session);
	}
	if (!pcn_shm_layout_check())
		pr_err("staying offline until the layout header is valid\n");
	me = &pcn_shm.slots[pcn_shm.my_slot];
	WRITE_ONCE(me->boot_id, pcn_shm.boot_id);
	pcn_shm_beat();
	return 0;
}

/*
 * Sessions of an earlier boot of this node end: its lines of every ring
 * are cleared, once, when the header is first found valid (under
 * another layout the same offsets would be other rings').
 */
void pcn_shm_clear_lines(void)
{
	int nid;

	for (nid = 0; nid < pcn_nr_nodes(); nid++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[nid];

		if (nid == pcn_my_nid())
			continue;
		WRITE_ONCE(peer->out.ctl->session, 0);
		WRITE_ONCE(peer->in.ctl->session_ack, 0);
	}
}

#if IS_ENABLED(CONFIG_POPCORN_KUNIT_TEST)
#include "shm_test.c"
#endif
