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
 *   credits  the same, then an empty SEND announcing 1000 receive
 *            buffers (the node has 16 for us): disconnected
 *   badproof, reflect, noauth
 *            the same, then the handshake as pcn_impostor runs it over
 *            TCP (impostor.h), one SEND per message
 * Exit 0 when the node refused the peer (rejected it, disconnected, or
 * gave a non-zero verdict) within SECONDS (10 by default), 1 otherwise
 * (2: the attack could not be run); prints what happened and after how
 * long.  Dynamically linked (librdmacm, libibverbs and the
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
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "impostor.h"

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

static struct rdma_cm_id *id;
static struct ibv_cq *cq;
static struct ibv_mr *mr;
static char buf[(NRECV + 1) * SLOT];

static int post_recv(int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf + slot * SLOT,
		.length = SLOT, .lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = slot, .sg_list = &sge, .num_sge = 1,
	}, *bad;

	return ibv_post_recv(id->qp, &wr, &bad);
}

/*
 * Send @len bytes of @msg (at most SLOT) as one SEND, its immediate
 * data announcing @credits receive buffers: 0 or -1.
 */
static int send_msg_credits(const void *msg, size_t len, uint32_t credits)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = len, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = len ? 1 : 0,
		.opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htobe32(credits),
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	memcpy(buf, msg, len);
	return ibv_post_send(id->qp, &wr, &bad) ? -1 : 0;
}

static int send_msg(const void *msg, size_t len)
{
	return send_msg_credits(msg, len, 0);
}

/*
 * The next message by @deadline into @msg (@len bytes of it, and at
 * least that many): 0, or -1 when none came or the QP failed (the node
 * ended the connection: posted receives are flushed with an error).
 */
static int recv_msg(void *msg, size_t len, double deadline)
{
	struct ibv_wc wc;
	int n;

	while (now() < deadline) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return -1;
		if (!n) {
			usleep(1000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS)
			return -1;
		if (wc.opcode != IBV_WC_RECV)
			continue;
		if (wc.byte_len) {
			if (wc.byte_len < len)
				return -1;
			memcpy(msg, buf + wc.wr_id * SLOT, len);
		}
		post_recv(wc.wr_id);
		if (wc.byte_len)
			return 0;
		/* An empty SEND only announced credits: go on. */
	}
	return -1;
}

/* The handshake of impostor.h as node @nid: the exit status. */
static int impersonate(const char *mode, int nid, double deadline)
{
	struct hello_answer answer;
	struct hello_proof proof;
	struct hello h;
	uint32_t verdict;

	if (impostor_hello(&h, mode, nid))
		return 2;
	if (send_msg(&h, sizeof(h)) ||
	    recv_msg(&answer, sizeof(answer), deadline)) {
		printf("no answer to our hello as node %d\n", nid);
		return 2;
	}
	if (impostor_proof(&proof, mode, &answer))
		return 2;
	if (send_msg(&proof, sizeof(proof))) {
		printf("refused: closed before our proof\n");
		return 0;
	}
	if (recv_msg(&verdict, sizeof(verdict), deadline)) {
		printf("refused: closed without a verdict\n");
		return 0;
	}
	return impostor_verdict(verdict, nid);
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
	struct cm_priv priv;
	struct ibv_pd *pd;
	const char *mode;
	double t0, deadline, secs = 10;
	int i, ev, want_reject;

	if (argc < 6 || argc > 7) {
		fprintf(stderr, "usage: pcn_rdma_garbage nopriv|claim|garbage|silent|credits|badproof|reflect|noauth DST_IP PORT SRC_IP NID [SECONDS]\n");
		return 2;
	}
	mode = argv[1];
	want_reject = !strcmp(mode, "nopriv") || !strcmp(mode, "claim");
	if (!want_reject && strcmp(mode, "garbage") && strcmp(mode, "silent") &&
	    strcmp(mode, "credits") && !impostor_mode(mode))
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
	for (i = 1; i <= NRECV; i++)
		if (post_recv(i))
			return 1;
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
	if (impostor_mode(mode))
		return impersonate(mode, atoi(argv[5]), deadline);
	if (!strcmp(mode, "credits") && send_msg_credits(NULL, 0, 1000)) {
		perror("ibv_post_send");
		return 1;
	}
	if (!strcmp(mode, "garbage")) {
		char junk[64];

		memset(junk, 0xa5, sizeof(junk));
		if (send_msg(junk, sizeof(junk))) {
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
