// SPDX-License-Identifier: GPL-2.0
/*
 * An untrusted RDMA CM peer of a Popcorn node (pcn.transport=rdma), for
 * the guest tests: it asks for a connection the node must refuse, or
 * gets one and misbehaves on it, and checks that the node ends it.
 *
 *   pcn_rdma_garbage MODE DST_IP PORT SRC_IP NID [SECONDS]
 *
 * MODE:
 *   nopriv   a request without Popcorn's private data: rejected
 *   claim    a request naming node NID, which SRC_IP is not: rejected
 *   garbage  a request as node NID (from its address), then garbage
 *            instead of a hello: accepted, then disconnected
 *   silent   the same, saying nothing: disconnected at the node's
 *            handshake time-out
 * Exit 0 when the node refused the peer (rejected it, or disconnected)
 * within SECONDS (10 by default), 1 otherwise; prints what happened and
 * after how long.  Dynamically linked (librdmacm, libibverbs and the
 * rxe provider): Debian ships no static rdma-core libraries.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* drivers/pcn_transport/rdma.h: struct pcn_rdma_cm_priv */
#define PCN_RDMA_CM_MAGIC	0x50434e52
struct cm_priv {
	uint32_t magic;
	uint16_t nid;
	uint16_t reserved;
} __attribute__((packed));

#define NRECV	4
#define SLOT	1024

static struct rdma_event_channel *chan;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The next connection manager event by @deadline: its type, or -1. */
static int next_event(double deadline)
{
	struct pollfd p = { .fd = chan->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	double left = deadline - now();
	int type;

	if (poll(&p, 1, left > 0 ? (int)(left * 1000) : 0) <= 0)
		return -1;
	if (rdma_get_cm_event(chan, &ev))
		return -1;
	type = ev->event;
	rdma_ack_cm_event(ev);
	return type;
}

static const char *event_name(int ev)
{
	return ev < 0 ? "nothing" : rdma_event_str(ev);
}

static int expect(int want, double deadline)
{
	int ev = next_event(deadline);

	if (ev == want)
		return 0;
	printf("got %s, wanted %s\n", event_name(ev), event_name(want));
	return -1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = 4, .max_recv_wr = NRECV,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};
	struct rdma_conn_param param = {
		.responder_resources = 1,
		.initiator_depth = 1,
		.retry_count = 6,
		.rnr_retry_count = 6,
	};
	static char buf[(NRECV + 1) * SLOT];
	struct cm_priv priv;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	const char *mode;
	double t0, deadline, secs = 10;
	int i, ev, want_reject;

	if (argc < 6 || argc > 7) {
		fprintf(stderr, "usage: pcn_rdma_garbage nopriv|claim|garbage|silent DST_IP PORT SRC_IP NID [SECONDS]\n");
		return 2;
	}
	mode = argv[1];
	want_reject = !strcmp(mode, "nopriv") || !strcmp(mode, "claim");
	if (!want_reject && strcmp(mode, "garbage") && strcmp(mode, "silent"))
		return 2;
	if (inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[4], &src.sin_addr) != 1)
		return 2;
	dst.sin_port = htons(atoi(argv[3]));
	priv.magic = htole32(PCN_RDMA_CM_MAGIC);
	priv.nid = htole16(atoi(argv[5]));
	priv.reserved = 0;
	if (argc == 7 && atof(argv[6]) > 0)
		secs = atof(argv[6]);

	t0 = now();
	deadline = t0 + secs;
	chan = rdma_create_event_channel();
	if (!chan || rdma_create_id(chan, &id, NULL, RDMA_PS_TCP)) {
		perror("rdma_create_id");
		return 1;
	}
	if (rdma_resolve_addr(id, (struct sockaddr *)&src,
			      (struct sockaddr *)&dst, 2000) ||
	    expect(RDMA_CM_EVENT_ADDR_RESOLVED, deadline) ||
	    rdma_resolve_route(id, 2000) ||
	    expect(RDMA_CM_EVENT_ROUTE_RESOLVED, deadline)) {
		printf("could not resolve %s from %s\n", argv[2], argv[4]);
		return 1;
	}
	pd = ibv_alloc_pd(id->verbs);
	cq = pd ? ibv_create_cq(id->verbs, 16, NULL, NULL, 0) : NULL;
	qa.send_cq = cq;
	qa.recv_cq = cq;
	if (!cq || rdma_create_qp(id, pd, &qa)) {
		perror("rdma_create_qp");
		return 1;
	}
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		perror("ibv_reg_mr");
		return 1;
	}
	/* Room for whatever the node sends before it gives up on us. */
	for (i = 0; i < NRECV; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)buf + (i + 1) * SLOT,
			.length = SLOT, .lkey = mr->lkey,
		};
		struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

		if (ibv_post_recv(id->qp, &wr, &bad))
			return 1;
	}
	if (strcmp(mode, "nopriv")) {
		param.private_data = &priv;
		param.private_data_len = sizeof(priv);
	}
	if (rdma_connect(id, &param)) {
		perror("rdma_connect");
		return 1;
	}
	ev = next_event(deadline);
	if (want_reject) {
		if (ev == RDMA_CM_EVENT_REJECTED) {
			printf("rejected after %.1f s\n", now() - t0);
			return 0;
		}
		printf("not rejected: %s\n", event_name(ev));
		return 1;
	}
	if (ev != RDMA_CM_EVENT_ESTABLISHED) {
		printf("not accepted: %s\n", event_name(ev));
		return 1;
	}
	if (!strcmp(mode, "garbage")) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey,
		};
		struct ibv_send_wr wr = {
			.sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND_WITH_IMM, .imm_data = 0,
			.send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		memset(buf, 0xa5, 64);
		if (ibv_post_send(id->qp, &wr, &bad)) {
			perror("ibv_post_send");
			return 1;
		}
	}
	ev = next_event(deadline);
	if (ev == RDMA_CM_EVENT_DISCONNECTED) {
		printf("disconnected after %.1f s\n", now() - t0);
		return 0;
	}
	printf("still connected after %.1f s (%s)\n", now() - t0,
	       event_name(ev));
	return 1;
}
