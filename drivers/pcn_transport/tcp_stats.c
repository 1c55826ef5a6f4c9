// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn TCP transport: its counters in /proc/popcorn_stat.
 */
#define pr_fmt(fmt) "pcn_tcp: " fmt

#include "tcp.h"

static const char * const pcn_tcp_counter_names[PCN_TCP_NR_COUNTERS] = {
	"tcp_connects", "tcp_accepts", "tcp_refused_unlisted",
	"tcp_refused_handshake", "tcp_frame_errors", "tcp_disconnects",
	"tcp_send_errors", "tcp_refused_stale", "tcp_pages_sent",
	"tcp_pages_received",
};

static atomic64_t pcn_tcp_counters[PCN_TCP_NR_COUNTERS];

void pcn_tcp_count(enum pcn_tcp_counter c)
{
	atomic64_inc(&pcn_tcp_counters[c]);
}

void pcn_tcp_show_stats(struct seq_file *seq)
{
	int i;

	for (i = 0; i < PCN_TCP_NR_COUNTERS; i++)
		seq_printf(seq, "%s %lld\n", pcn_tcp_counter_names[i],
			   atomic64_read(&pcn_tcp_counters[i]));
	/* Per peer: is a connection attached; for dialed peers, attempts. */
	for (i = 0; i < pcn_nr_nodes(); i++) {
		struct pcn_tcp_peer *peer = &pcn_tcp_peers[i];

		if (i == pcn_my_nid())
			continue;
		seq_printf(seq, "tcp_peer %d connected %d dials %d last_error %d\n",
			   i, !!READ_ONCE(peer->sock), atomic_read(&peer->dials),
			   READ_ONCE(peer->last_error));
	}
}

void pcn_tcp_reset_stats(void)
{
	int i;

	for (i = 0; i < PCN_TCP_NR_COUNTERS; i++)
		atomic64_set(&pcn_tcp_counters[i], 0);
}
