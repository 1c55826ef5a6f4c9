// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: its counters in /proc/popcorn_stat.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

static const char * const pcn_rdma_counter_names[PCN_RDMA_NR_COUNTERS] = {
	"rdma_connects", "rdma_accepts", "rdma_refused",
	"rdma_refused_handshake", "rdma_disconnects", "rdma_qp_errors",
	"rdma_credit_stalls", "rdma_sends", "rdma_bytes_sent", "rdma_recvs",
	"rdma_bytes_received", "rdma_pages_sent", "rdma_control_sent",
	"rdma_bad_messages", "rdma_registrations", "rdma_no_mr",
	"rdma_pages_written", "rdma_bytes_written", "rdma_pages_placed",
};

static atomic64_t pcn_rdma_counters[PCN_RDMA_NR_COUNTERS];

void pcn_rdma_count(enum pcn_rdma_counter c)
{
	atomic64_inc(&pcn_rdma_counters[c]);
}

void pcn_rdma_count_add(enum pcn_rdma_counter c, u64 n)
{
	atomic64_add(n, &pcn_rdma_counters[c]);
}

void pcn_rdma_show_stats(struct seq_file *seq)
{
	int i;

	for (i = 0; i < PCN_RDMA_NR_COUNTERS; i++)
		seq_printf(seq, "%s %lld\n", pcn_rdma_counter_names[i],
			   atomic64_read(&pcn_rdma_counters[i]));
	/* Per peer: connected, the credits we hold; for dialed peers, tries. */
	for (i = 0; i < pcn_nr_nodes(); i++) {
		struct pcn_rdma_peer *peer = &pcn_rdma_peers[i];
		struct pcn_rdma_conn *conn;
		int credits = 0;

		if (i == pcn_my_nid())
			continue;
		conn = pcn_rdma_conn_get_attached(peer);
		if (conn) {
			credits = atomic_read(&conn->credits);
			pcn_rdma_conn_put(conn);
		}
		seq_printf(seq, "rdma_peer %d connected %d credits %d dials %d last_error %d\n",
			   i, !!conn, credits, atomic_read(&peer->dials),
			   READ_ONCE(peer->last_error));
	}
}

void pcn_rdma_reset_stats(void)
{
	int i;

	for (i = 0; i < PCN_RDMA_NR_COUNTERS; i++)
		atomic64_set(&pcn_rdma_counters[i], 0);
}
