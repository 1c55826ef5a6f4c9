/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Popcorn node's impostor: the handshake wire format of
 * include/popcorn/auth.h (little-endian, x86-64) and what the impostor
 * says in it, shared by pcn_impostor (TCP) and pcn_rdma_garbage (RDMA).
 *
 * MODE says what the impostor answers the node's proof with:
 *   badproof  a hello offering authentication, then a random proof
 *   reflect   the node's own proof sent back as ours
 *   noauth    a hello offering no authentication (a keyless node)
 */
#ifndef _PCN_TEST_IMPOSTOR_H
#define _PCN_TEST_IMPOSTOR_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <linux/popcorn.h>

#define HELLO_MAGIC	0x50434e32
#define HELLO_VERSION	2
#define HELLO_AUTH	0x1

struct hello {
	uint32_t magic;
	uint16_t version;
	uint16_t nid;
	int32_t arch;
	uint32_t flags;
	uint8_t nonce[32];
} __attribute__((packed));

struct hello_answer {
	struct hello hello;
	uint8_t mac[32];
} __attribute__((packed));

struct hello_proof {
	uint32_t status;
	uint8_t mac[32];
} __attribute__((packed));

static inline int impostor_mode(const char *mode)
{
	return !strcmp(mode, "badproof") || !strcmp(mode, "reflect") ||
	       !strcmp(mode, "noauth");
}

/* Our hello as node @nid: 0, or -1 without randomness. */
static inline int impostor_hello(struct hello *h, const char *mode, int nid)
{
	memset(h, 0, sizeof(*h));
	h->magic = HELLO_MAGIC;
	h->version = HELLO_VERSION;
	h->nid = nid;
	h->arch = POPCORN_ARCH_X86;
	h->flags = strcmp(mode, "noauth") ? HELLO_AUTH : 0;
	return getrandom(h->nonce, sizeof(h->nonce), 0) == sizeof(h->nonce) ?
	       0 : -1;
}

/* Our "proof", having read the node's answer: 0, or -1. */
static inline int impostor_proof(struct hello_proof *p, const char *mode,
				 const struct hello_answer *a)
{
	memset(p, 0, sizeof(*p));
	printf("answer: node %u, flags %#x\n", a->hello.nid, a->hello.flags);
	if (!strcmp(mode, "reflect"))
		memcpy(p->mac, a->mac, sizeof(p->mac));
	else if (!strcmp(mode, "badproof") &&
		 getrandom(p->mac, sizeof(p->mac), 0) != sizeof(p->mac))
		return -1;
	return 0;
}

/* The exit status for the node's verdict: 0 refused, 1 accepted. */
static inline int impostor_verdict(uint32_t verdict, int nid)
{
	if (verdict) {
		printf("refused: verdict %u (%s)\n", verdict, strerror(verdict));
		return 0;
	}
	printf("ACCEPTED as node %d\n", nid);
	return 1;
}

#endif /* _PCN_TEST_IMPOSTOR_H */
