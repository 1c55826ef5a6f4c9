/* SPDX-License-Identifier: GPL-2.0 */
/* Pure pieces of auth.c, exposed for its KUnit suite. */
#ifndef _POPCORN_AUTH_INTERNAL_H
#define _POPCORN_AUTH_INTERNAL_H

#include <linux/types.h>
#include <popcorn/auth.h>

struct seq_file;

/* Keys shorter than 128 bits are refused. */
#define PCN_AUTH_KEY_MIN	16
#define PCN_AUTH_KEY_MAX	128

/* The role byte of each proof: a proof is never valid for the other side. */
#define PCN_AUTH_ROLE_DIALER	'D'
#define PCN_AUTH_ROLE_LISTENER	'L'

/*
 * What a side does given its configuration and the peer's hello:
 * 1 authenticate, 0 talk unauthenticated, or -errno to refuse.
 */
int pcn_auth_policy(bool required, bool have_key, bool peer_offers_auth);

/* HMAC-SHA256 over @len bytes at @data with @key: 0 or -errno. */
int pcn_auth_hmac(const u8 *key, unsigned int keylen, const void *data,
		  size_t len, u8 *mac);
/* The proof of side @role over the two hellos of a handshake. */
int pcn_auth_proof(const u8 *key, unsigned int keylen, u8 role,
		   const struct pcn_hello *dialer,
		   const struct pcn_hello *listener, u8 *mac);

void pcn_auth_stat_show(struct seq_file *seq);
void pcn_auth_stat_reset(void);

#endif /* _POPCORN_AUTH_INTERNAL_H */
