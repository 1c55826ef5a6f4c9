// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the handshake's policy and proofs (auth.c).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "auth_internal.h"

static void pcn_auth_policy_table(struct kunit *test)
{
	/* required, have_key, peer_offers_auth */
	KUNIT_EXPECT_EQ(test, 1, pcn_auth_policy(false, true, true));
	KUNIT_EXPECT_EQ(test, 1, pcn_auth_policy(true, true, true));
	/* A node with a key never talks in the clear. */
	KUNIT_EXPECT_EQ(test, -EKEYREJECTED, pcn_auth_policy(false, true, false));
	KUNIT_EXPECT_EQ(test, -EKEYREJECTED, pcn_auth_policy(true, true, false));
	/* Nor does a node without one talk to a node that has one. */
	KUNIT_EXPECT_EQ(test, -ENOKEY, pcn_auth_policy(false, false, true));
	KUNIT_EXPECT_EQ(test, -ENOKEY, pcn_auth_policy(true, false, false));
	/* Neither has a key: only allowed when not required. */
	KUNIT_EXPECT_EQ(test, 0, pcn_auth_policy(false, false, false));
}

/* RFC 4231, test case 2: the HMAC-SHA256 transform is the real one. */
static void pcn_auth_hmac_rfc4231(struct kunit *test)
{
	static const u8 want[PCN_AUTH_MAC_LEN] = {
		0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e,
		0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
		0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83,
		0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
	};
	static const char data[] = "what do ya want for nothing?";
	u8 mac[PCN_AUTH_MAC_LEN];

	KUNIT_ASSERT_EQ(test, 0, pcn_auth_hmac((const u8 *)"Jefe", 4, data,
					       strlen(data), mac));
	KUNIT_EXPECT_EQ(test, 0, memcmp(mac, want, sizeof(mac)));
}

static void pcn_auth_hellos(struct pcn_hello *d, struct pcn_hello *l)
{
	memset(d, 0, sizeof(*d));
	memset(l, 0, sizeof(*l));
	d->nid = cpu_to_le16(1);
	l->nid = cpu_to_le16(0);
	memset(d->nonce, 0xd, sizeof(d->nonce));
	memset(l->nonce, 0x1, sizeof(l->nonce));
}

/* Each proof binds the role, both hellos and the key. */
static void pcn_auth_proof_binds(struct kunit *test)
{
	static const u8 key[PCN_AUTH_KEY_MIN] = "0123456789abcdef";
	static const u8 other[PCN_AUTH_KEY_MIN] = "0123456789abcdeF";
	u8 ref[PCN_AUTH_MAC_LEN], mac[PCN_AUTH_MAC_LEN];
	struct pcn_hello d, l;

	pcn_auth_hellos(&d, &l);
	KUNIT_ASSERT_EQ(test, 0, pcn_auth_proof(key, sizeof(key),
						PCN_AUTH_ROLE_DIALER, &d, &l,
						ref));
	/* The same inputs give the same proof. */
	KUNIT_ASSERT_EQ(test, 0, pcn_auth_proof(key, sizeof(key),
						PCN_AUTH_ROLE_DIALER, &d, &l,
						mac));
	KUNIT_EXPECT_EQ(test, 0, memcmp(ref, mac, sizeof(mac)));
	/* A reflected proof (the other role) differs. */
	pcn_auth_proof(key, sizeof(key), PCN_AUTH_ROLE_LISTENER, &d, &l, mac);
	KUNIT_EXPECT_NE(test, 0, memcmp(ref, mac, sizeof(mac)));
	/* Swapped hellos differ. */
	pcn_auth_proof(key, sizeof(key), PCN_AUTH_ROLE_DIALER, &l, &d, mac);
	KUNIT_EXPECT_NE(test, 0, memcmp(ref, mac, sizeof(mac)));
	/* Another key differs. */
	pcn_auth_proof(other, sizeof(other), PCN_AUTH_ROLE_DIALER, &d, &l, mac);
	KUNIT_EXPECT_NE(test, 0, memcmp(ref, mac, sizeof(mac)));
	/* A replayed exchange with a fresh nonce differs. */
	l.nonce[PCN_AUTH_NONCE_LEN - 1] ^= 1;
	pcn_auth_proof(key, sizeof(key), PCN_AUTH_ROLE_DIALER, &d, &l, mac);
	KUNIT_EXPECT_NE(test, 0, memcmp(ref, mac, sizeof(mac)));
	/* So does a hello with its flags changed (no downgrade). */
	l.nonce[PCN_AUTH_NONCE_LEN - 1] ^= 1;
	d.flags = cpu_to_le32(PCN_HELLO_AUTH);
	pcn_auth_proof(key, sizeof(key), PCN_AUTH_ROLE_DIALER, &d, &l, mac);
	KUNIT_EXPECT_NE(test, 0, memcmp(ref, mac, sizeof(mac)));
}

static struct kunit_case pcn_auth_cases[] = {
	KUNIT_CASE(pcn_auth_policy_table),
	KUNIT_CASE(pcn_auth_hmac_rfc4231),
	KUNIT_CASE(pcn_auth_proof_binds),
	{}
};

static struct kunit_suite pcn_auth_suite = {
	.name = "popcorn_auth",
	.test_cases = pcn_auth_cases,
};
kunit_test_suite(pcn_auth_suite);
