// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: its lines of /proc/popcorn_stat.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include "shm.h"

static const char * const pcn_shm_counter_names[PCN_SHM_NR_COUNTERS] = {
	"shm_connects", "shm_accepts", "shm_refused_handshake",
	"shm_lost_heartbeat", "shm_lost_reboot", "shm_lost_by_peer",
	"shm_lost_layout", "shm_frame_errors", "shm_layout_errors",
	"shm_send_errors", "shm_msgs_sent", "shm_msgs_received",
	"shm_bytes_sent", "shm_pages_sent", "shm_pages_received",
	"shm_ring_full", "shm_poll_sleeps",
};

static atomic64_t pcn_shm_counters[PCN_SHM_NR_COUNTERS];

void pcn_shm_count(enum pcn_shm_counter c)
{
	atomic64_inc(&pcn_shm_counters[c]);
}

void pcn_shm_count_add(enum pcn_shm_counter c, u64 n)
{
	atomic64_add(n, &pcn_shm_counters[c]);
}

static const char *pcn_shm_state_name(int state)
{
	switch (state) {
	case PCN_SHM_UP:
		return "up";
	case PCN_SHM_HANDSHAKE:
		return "handshake";
	default:
		return "down";
	}
}

void pcn_shm_show_stats(struct seq_file *seq)
{
	const struct pcn_shm_header *l = &pcn_shm.layout;
	int i;

	for (i = 0; i < PCN_SHM_NR_COUNTERS; i++)
		seq_printf(seq, "%s %lld\n", pcn_shm_counter_names[i],
			   atomic64_read(&pcn_shm_counters[i]));
	/* Where the rings are: the tests write into them from the host. */
	seq_printf(seq, "shm_layout slots %u ring_bytes %u ring_base %llu ring_stride %llu size %llu valid %d\n",
		   l->nslots, l->ring_bytes, l->ring_base, l->ring_stride,
		   l->size, READ_ONCE(pcn_shm.layout_ok));
	for (i = 0; i < pcn_nr_nodes(); i++) {
		struct pcn_shm_peer *peer = &pcn_shm_peers[i];

		if (i == pcn_my_nid())
			continue;
		seq_printf(seq, "shm_peer %d slot %d state %s alive %d dials %d last_error %d\n",
			   i, peer->slot,
			   pcn_shm_state_name(READ_ONCE(peer->state)),
			   pcn_shm_peer_alive(peer), atomic_read(&peer->dials),
			   READ_ONCE(peer->last_error));
	}
}

void pcn_shm_reset_stats(void)
{
	int i;

	for (i = 0; i < PCN_SHM_NR_COUNTERS; i++)
		atomic64_set(&pcn_shm_counters[i], 0);
}
