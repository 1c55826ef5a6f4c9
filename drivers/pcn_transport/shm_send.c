// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: sending.  A sender copies its
 * message, behind a record header, straight into the ring to the peer
 * under the peer's send_lock (the ring's one producer), page data
 * straight from its pages, and publishes it; the peer's poll thread
 * finds it.  A ring with no room is waited on for at most
 * PCN_SHM_SEND_TIMEOUT, after which the connection is given up.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include "shm.h"

/**
 * pcn_shm_wait_room() - wait until the ring to @peer has room for @len
 *	bytes
 * @peer: the peer, its ring owned by the caller (send_lock, or the
 *	handshake of a connection being set up)
 * @len: bytes to be written
 * @deadline: in jiffies
 *
 * The consumer is another machine, which frees room without telling:
 * poll, with short sleeps.
 *
 * Return: 0, -EHOSTDOWN when the connection is being dropped,
 * -EPROTO for a broken ring, -ETIMEDOUT past @deadline.
 */
int pcn_shm_wait_room(struct pcn_shm_peer *peer, size_t len,
		      unsigned long deadline)
{
	bool waited = false, bad;

	for (;;) {
		if (READ_ONCE(peer->dying))
			return -EHOSTDOWN;
		if (pcn_shm_ring_room(&peer->out, &bad) >= len)
			return 0;
		if (bad)
			return -EPROTO;
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		if (!waited) {
			pcn_shm_count(PCN_SHM_RING_FULL);
			waited = true;
		}
		usleep_range(20, 100);
	}
}

/* ->send_pages: the message's front part, then its pages, in one record. */
int pcn_shm_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
		       struct page **pages, unsigned int npages)
{
	size_t len = size + (size_t)npages * PAGE_SIZE;
	struct pcn_shm_peer *peer;
	struct pcn_shm_rec rec;
	unsigned int i;
	u32 session;
	int ret;

	if (!pcn_nid_valid(nid) || nid == pcn_my_nid())
		return -EINVAL;
	if (len > PCN_KMSG_MAX_SIZE)
		return -EMSGSIZE;
	peer = &pcn_shm_peers[nid];

	mutex_lock(&peer->send_lock);
	session = peer->session;
	/* -EHOSTDOWN: the connection is gone (see kmsg_vital.c). */
	if (peer->state != PCN_SHM_UP) {
		ret = -EHOSTDOWN;
		goto out;
	}
	ret = pcn_shm_wait_room(peer, sizeof(rec) + len,
				jiffies + PCN_SHM_SEND_TIMEOUT);
	/* A tail of the peer's next session is no broken ring. */
	if (ret == -EPROTO && pcn_shm_peer_left(peer, session)) {
		pcn_shm_drop(peer, PCN_SHM_LOST_BY_PEER, session);
		ret = -EHOSTDOWN;
	}
	if (ret)
		goto out;
	rec.len = len;
	rec.seq = peer->out.seq++;
	pcn_shm_ring_write(&peer->out, &rec, sizeof(rec));
	pcn_shm_ring_write(&peer->out, msg, size);
	for (i = 0; i < npages; i++)
		pcn_shm_ring_write_page(&peer->out, pages[i]);
	pcn_shm_ring_publish(&peer->out);
out:
	mutex_unlock(&peer->send_lock);

	if (ret) {
		pcn_shm_count(PCN_SHM_SEND_ERRORS);
		/* A peer that stopped reading, or broke its ring: give up. */
		if (ret == -EPROTO)
			pcn_shm_count(PCN_SHM_FRAME_ERRORS);
		if (ret == -ETIMEDOUT || ret == -EPROTO) {
			pr_warn_ratelimited("send to node %d failed (%d), dropping the connection\n",
					    nid, ret);
			pcn_shm_drop(peer, ret == -EPROTO ?
				     PCN_SHM_FRAME_ERRORS : PCN_SHM_SEND_ERRORS,
				     session);
		}
		return ret;
	}
	pcn_shm_count(PCN_SHM_MSGS_SENT);
	pcn_shm_count_add(PCN_SHM_BYTES_SENT, len);
	pcn_shm_count_add(PCN_SHM_PAGES_SENT, npages);
	/* An answer may follow soon: have this node's poll thread look. */
	pcn_shm_poll_kick();
	return 0;
}

/* ->send */
int pcn_shm_send(int nid, struct pcn_kmsg_hdr *msg, size_t size)
{
	return pcn_shm_send_pages(nid, msg, size, NULL, 0);
}
