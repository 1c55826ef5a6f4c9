/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn peer handshake and authentication, shared by every transport.
 *
 * A transport runs the handshake on a fresh connection before it
 * reports the peer online and before it accepts any message on it.  It
 * supplies two byte-stream operations (each bounded by the transport's
 * own deadline); the core does the rest: hellos with fresh nonces from
 * both sides, and, when a pre-shared key is loaded, an HMAC-SHA256 proof
 * from each side over the whole exchange.  The key is the logon key
 * "popcorn:psk" of root's user keyring (Documentation/popcorn/security.rst).
 *
 * Wire format (little-endian; dialer D, listener L):
 *   D -> L  struct pcn_hello          D's node id, flags, nonce
 *   L -> D  struct pcn_hello_answer   L's hello and L's proof
 *   D -> L  struct pcn_hello_proof    D's verdict on L, and D's proof
 *   L -> D  struct pcn_hello_verdict  L's verdict on D
 */
#ifndef _POPCORN_AUTH_H
#define _POPCORN_AUTH_H

#include <linux/types.h>

#define PCN_HELLO_MAGIC		0x50434e32	/* "PCN2" */
#define PCN_HELLO_VERSION	2
/* The sender has a key and will only talk after both proved it. */
#define PCN_HELLO_AUTH		0x1
#define PCN_AUTH_NONCE_LEN	32
#define PCN_AUTH_MAC_LEN	32		/* HMAC-SHA256 */

struct pcn_hello {
	__le32 magic;
	__le16 version;
	__le16 nid;
	__le32 arch;
	__le32 flags;
	u8 nonce[PCN_AUTH_NONCE_LEN];
} __packed;

struct pcn_hello_answer {
	struct pcn_hello hello;
	u8 mac[PCN_AUTH_MAC_LEN];	/* zero when not authenticating */
} __packed;

struct pcn_hello_proof {
	__le32 status;			/* 0, or why the dialer gives up */
	u8 mac[PCN_AUTH_MAC_LEN];
} __packed;

struct pcn_hello_verdict {
	__le32 status;			/* 0: accepted, else why not */
} __packed;

/* The transport's two operations on the connection being set up. */
struct pcn_handshake_io {
	/* Send or receive exactly @len bytes: 0, or -errno. */
	int (*send)(void *conn, const void *buf, size_t len);
	int (*recv)(void *conn, void *buf, size_t len);
};

struct pcn_handshake {
	/* Set by the transport before the handshake. */
	int peer;			/* the node id the connection must be */
	const struct pcn_handshake_io *io;
	void *conn;
	/* Results. */
	int arch;			/* the peer's architecture */
	bool authenticated;		/* both sides proved the key */
	/* Private to auth.c. */
	int policy;
	struct pcn_hello mine, theirs;
};

/* Dialer side: the whole exchange.  0 when the listener accepted us. */
int pcn_handshake_dial(struct pcn_handshake *hs);
/*
 * Listener side, in two steps: pcn_handshake_answer() takes the dialer's
 * hello and proof (0: the peer may be attached; on error the connection
 * must be closed), then the transport decides whether it attaches the
 * connection and tells the dialer with pcn_handshake_accept().
 */
int pcn_handshake_answer(struct pcn_handshake *hs);
int pcn_handshake_accept(struct pcn_handshake *hs, int status);
/*
 * False when pcn.auth=required and no key is loaded yet: a dialer then
 * waits rather than connect only to be refused.
 */
bool pcn_auth_can_connect(void);

#endif /* _POPCORN_AUTH_H */
