// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn peer handshake: identity, policy and mutual authentication.
 *
 * Both sides send a hello with a fresh 256-bit nonce.  When a key is
 * loaded, each side then proves it holds the key with
 * HMAC-SHA256(key, label | role | dialer's hello | listener's hello):
 * the proof covers both nonces (no replay), both node ids and flags (no
 * relay to another node, no downgrade) and the role (a proof is never
 * valid when reflected back).  The listener proves first; the dialer
 * only answers a listener that did.  Proofs are compared in constant
 * time.  The key is read from the keyring for each handshake and kept
 * on the stack only while it runs.
 *
 * The key is the logon key "popcorn:psk" (16 to 128 bytes), added by
 * root to root's user keyring: a logon key cannot be read back from
 * user space, not even by root, and never appears on the command line.
 * Handshakes run in kernel threads, whose credentials (uid 0, no session
 * keyring) search root's user session keyring, which links root's user
 * keyring: only root can put a key where they look.
 *
 * pcn.auth=required refuses every connection until both ends prove the
 * key; the default (auto) authenticates when a key is loaded and
 * otherwise connects unauthenticated with a warning on every connection.
 * A node with a key never talks to a node without one.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <keys/user-type.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <popcorn/nodes.h>

#include "auth_internal.h"

#define PCN_AUTH_KEY_DESC	"popcorn:psk"
#define PCN_AUTH_LABEL		"popcorn-auth-v1"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."

static bool pcn_auth_required;

/* Anything but "auto" or "required" fails safe: required. */
static int pcn_auth_param_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "required")) {
		pcn_auth_required = true;
	} else if (sysfs_streq(val, "auto")) {
		pcn_auth_required = false;
	} else {
		pr_err("pcn.auth=%s is neither auto nor required: requiring authentication\n",
		       val);
		pcn_auth_required = true;
	}
	return 0;
}

static int pcn_auth_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", pcn_auth_required ? "required" : "auto");
}

static const struct kernel_param_ops pcn_auth_param_ops = {
	.set = pcn_auth_param_set,
	.get = pcn_auth_param_get,
};
module_param_cb(auth, &pcn_auth_param_ops, NULL, 0444);
MODULE_PARM_DESC(auth, "auto (default): authenticate when a key is loaded; required");

enum pcn_auth_counter {
	PCN_AUTH_OK,			/* authenticated connections */
	PCN_AUTH_UNAUTHENTICATED,	/* connections made without a key */
	PCN_AUTH_REFUSED_PROOF,		/* the peer did not prove the key */
	PCN_AUTH_REFUSED_BY_PEER,	/* the peer refused us */
	PCN_AUTH_REFUSED_POLICY,	/* key on one side only, or none */
	PCN_AUTH_BAD_HELLO,		/* not a hello of the expected node */
	PCN_AUTH_NR_COUNTERS
};

static const char * const pcn_auth_counter_names[PCN_AUTH_NR_COUNTERS] = {
	"auth_ok", "auth_unauthenticated", "auth_refused_proof",
	"auth_refused_by_peer", "auth_refused_policy", "auth_bad_hello",
};

static atomic64_t pcn_auth_counters[PCN_AUTH_NR_COUNTERS];

static void pcn_auth_count(enum pcn_auth_counter c)
{
	atomic64_inc(&pcn_auth_counters[c]);
}

void pcn_auth_stat_show(struct seq_file *seq)
{
	int i;

	seq_printf(seq, "auth_required %d\n", pcn_auth_required);
	for (i = 0; i < PCN_AUTH_NR_COUNTERS; i++)
		seq_printf(seq, "%s %lld\n", pcn_auth_counter_names[i],
			   atomic64_read(&pcn_auth_counters[i]));
}

void pcn_auth_stat_reset(void)
{
	int i;

	for (i = 0; i < PCN_AUTH_NR_COUNTERS; i++)
		atomic64_set(&pcn_auth_counters[i], 0);
}

int pcn_auth_policy(bool required, bool have_key, bool peer_offers_auth)
{
	if (have_key && peer_offers_auth)
		return 1;
	if (have_key)
		return -EKEYREJECTED;	/* never talk in the clear with a key */
	if (peer_offers_auth || required)
		return -ENOKEY;
	return 0;
}

struct pcn_auth_key {
	u8 data[PCN_AUTH_KEY_MAX];
	unsigned int len;
};

/* 1 with the key in @k, 0 when none is loaded, -errno when unusable. */
static int pcn_auth_get_key(struct pcn_auth_key *k)
{
	const struct user_key_payload *p;
	struct key *key;
	int ret = 1;

	k->len = 0;
	/* No callout: absent is -ENOKEY, never an upcall to user space. */
	key = request_key(&key_type_logon, PCN_AUTH_KEY_DESC, NULL);
	if (IS_ERR(key))
		return PTR_ERR(key) == -ENOKEY ? 0 : PTR_ERR(key);
	down_read(&key->sem);
	p = user_key_payload_locked(key);
	if (!p) {
		ret = -EKEYREVOKED;
	} else if (p->datalen < PCN_AUTH_KEY_MIN ||
		   p->datalen > PCN_AUTH_KEY_MAX) {
		pr_err_ratelimited("key %s has %u bytes, not %d to %d: refusing connections\n",
				   PCN_AUTH_KEY_DESC, p->datalen,
				   PCN_AUTH_KEY_MIN, PCN_AUTH_KEY_MAX);
		ret = -EKEYREJECTED;
	} else {
		memcpy(k->data, p->data, p->datalen);
		k->len = p->datalen;
	}
	up_read(&key->sem);
	key_put(key);
	return ret;
}

bool pcn_auth_can_connect(void)
{
	struct pcn_auth_key k;
	int have;

	if (!pcn_auth_required)
		return true;
	have = pcn_auth_get_key(&k);
	memzero_explicit(&k, sizeof(k));
	return have > 0;
}

int pcn_auth_hmac(const u8 *key, unsigned int keylen, const void *data,
		  size_t len, u8 *mac)
{
	struct crypto_shash *tfm;
	int ret;

	/* Handshakes are rare: a transform each keeps no key in memory. */
	tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ret = crypto_shash_setkey(tfm, key, keylen);
	if (!ret)
		ret = crypto_shash_tfm_digest(tfm, data, len, mac);
	crypto_free_shash(tfm);
	return ret;
}

int pcn_auth_proof(const u8 *key, unsigned int keylen, u8 role,
		   const struct pcn_hello *dialer,
		   const struct pcn_hello *listener, u8 *mac)
{
	struct {
		char label[sizeof(PCN_AUTH_LABEL) - 1];
		u8 role;
		struct pcn_hello dialer, listener;
	} __packed msg;

	memcpy(msg.label, PCN_AUTH_LABEL, sizeof(msg.label));
	msg.role = role;
	msg.dialer = *dialer;
	msg.listener = *listener;
	return pcn_auth_hmac(key, keylen, &msg, sizeof(msg), mac);
}

static int pcn_hello_init(struct pcn_hello *h, bool auth)
{
	memset(h, 0, sizeof(*h));
	h->magic = cpu_to_le32(PCN_HELLO_MAGIC);
	h->version = cpu_to_le16(PCN_HELLO_VERSION);
	h->nid = cpu_to_le16(pcn_my_nid());
	h->arch = cpu_to_le32(POPCORN_ARCH_X86);
	h->flags = cpu_to_le32(auth ? PCN_HELLO_AUTH : 0);
	/*
	 * Handshakes start at boot: a nonce must not come from a CRNG that
	 * is not seeded yet (waits only then, the rare case).
	 */
	return get_random_bytes_wait(h->nonce, sizeof(h->nonce));
}

/* A hello of node @nid, of this protocol and architecture. */
static int pcn_hello_check(const struct pcn_hello *h, int nid)
{
	if (le32_to_cpu(h->magic) != PCN_HELLO_MAGIC ||
	    le16_to_cpu(h->version) != PCN_HELLO_VERSION ||
	    le16_to_cpu(h->nid) != nid ||
	    (s32)le32_to_cpu(h->arch) != POPCORN_ARCH_X86 ||
	    (le32_to_cpu(h->flags) & ~PCN_HELLO_AUTH)) {
		pcn_auth_count(PCN_AUTH_BAD_HELLO);
		return -EPROTO;
	}
	return 0;
}

static bool pcn_hello_offers_auth(const struct pcn_hello *h)
{
	return le32_to_cpu(h->flags) & PCN_HELLO_AUTH;
}

/* Statuses travel as positive errnos; anything else is a protocol error. */
static __le32 pcn_status_encode(int err)
{
	return cpu_to_le32(err < 0 ? -err : 0);
}

static int pcn_status_decode(__le32 status)
{
	u32 s = le32_to_cpu(status);

	return s < MAX_ERRNO ? -(int)s : -EPROTO;
}

static const char *pcn_policy_reason(int policy)
{
	switch (policy) {
	case -EKEYREJECTED:
		return "it has no key while this node has one";
	case -ENOKEY:
		return pcn_auth_required ? "no key is loaded here and pcn.auth=required" :
					   "it has a key while this node has none";
	default:
		return "policy";
	}
}

/*
 * Judge the peer by its hello (hs->policy) and, when authenticating, by
 * its proof @got as side @role over the hellos of dialer @d and listener
 * @l; a refusal sets hs->policy < 0, is counted and logged.  Return: 0,
 * or -errno when the proof cannot be computed.
 */
static int pcn_handshake_verify(struct pcn_handshake *hs,
				const struct pcn_auth_key *key, u8 role,
				const struct pcn_hello *d,
				const struct pcn_hello *l, const u8 *got)
{
	u8 mac[PCN_AUTH_MAC_LEN];
	int ret;

	if (hs->policy < 0) {
		pcn_auth_count(PCN_AUTH_REFUSED_POLICY);
		pr_warn_ratelimited("node %d refused: %s\n", hs->peer,
				    pcn_policy_reason(hs->policy));
		return 0;
	}
	if (hs->policy != 1)
		return 0;
	ret = pcn_auth_proof(key->data, key->len, role, d, l, mac);
	if (ret)
		return ret;
	if (crypto_memneq(mac, got, sizeof(mac))) {
		hs->policy = -EKEYREJECTED;
		pcn_auth_count(PCN_AUTH_REFUSED_PROOF);
		pr_warn_ratelimited("connection as node %d did not prove the cluster key (wrong key, or an impostor): refused\n",
				    hs->peer);
	}
	return 0;
}

/* A connection is made: count it, and make an unauthenticated one loud. */
static void pcn_handshake_done(struct pcn_handshake *hs)
{
	hs->arch = (s32)le32_to_cpu(hs->theirs.arch);
	hs->authenticated = hs->policy == 1;
	if (hs->authenticated) {
		pcn_auth_count(PCN_AUTH_OK);
		return;
	}
	pcn_auth_count(PCN_AUTH_UNAUTHENTICATED);
	pr_warn("node %d: connection is NOT AUTHENTICATED (no key %s loaded): any local user of a listed node can pose as a peer; see Documentation/popcorn/security.rst\n",
		hs->peer, PCN_AUTH_KEY_DESC);
}

/**
 * pcn_handshake_dial() - run the handshake on a connection this node made
 * @hs: ->peer, ->io and ->conn set; ->arch and ->authenticated filled in
 *
 * Sends our hello, checks the listener's hello and proof, sends our
 * proof and waits for the listener's verdict.  Runs in process context
 * and sleeps in the transport's operations.
 *
 * Return: 0 when the peer accepted this node (it may be attached), or
 * -errno: -EPROTO for a hello that is not the expected node's,
 * -EKEYREJECTED when a proof does not verify, -ENOKEY when keys are
 * missing, the peer's reason when it refused, or the transport's error.
 */
int pcn_handshake_dial(struct pcn_handshake *hs)
{
	const struct pcn_handshake_io *io = hs->io;
	struct pcn_hello_verdict verdict;
	struct pcn_hello_proof proof = {};
	struct pcn_hello_answer answer;
	struct pcn_auth_key key;
	int have, ret;

	have = pcn_auth_get_key(&key);
	if (have < 0)
		return have;
	ret = pcn_hello_init(&hs->mine, have);
	if (!ret)
		ret = io->send(hs->conn, &hs->mine, sizeof(hs->mine));
	if (!ret)
		ret = io->recv(hs->conn, &answer, sizeof(answer));
	if (!ret)
		ret = pcn_hello_check(&answer.hello, hs->peer);
	if (ret)
		goto out;
	hs->theirs = answer.hello;

	hs->policy = pcn_auth_policy(pcn_auth_required, have,
				     pcn_hello_offers_auth(&hs->theirs));
	ret = pcn_handshake_verify(hs, &key, PCN_AUTH_ROLE_LISTENER,
				   &hs->mine, &hs->theirs, answer.mac);
	if (!ret && hs->policy == 1)
		ret = pcn_auth_proof(key.data, key.len, PCN_AUTH_ROLE_DIALER,
				     &hs->mine, &hs->theirs, proof.mac);
	if (ret)
		goto out;

	/* Our verdict on the listener goes with our proof. */
	proof.status = pcn_status_encode(hs->policy);
	ret = io->send(hs->conn, &proof, sizeof(proof));
	if (hs->policy < 0) {
		ret = hs->policy;
		goto out;
	}
	if (!ret)
		ret = io->recv(hs->conn, &verdict, sizeof(verdict));
	if (ret)
		goto out;
	ret = pcn_status_decode(verdict.status);
	if (ret) {
		pcn_auth_count(PCN_AUTH_REFUSED_BY_PEER);
		pr_warn_ratelimited("node %d refused this node (%d)\n",
				    hs->peer, ret);
		goto out;
	}
	pcn_handshake_done(hs);
out:
	memzero_explicit(&key, sizeof(key));
	return ret;
}

/**
 * pcn_handshake_answer() - check the dialer of an accepted connection
 * @hs: ->peer (the node its address is listed for), ->io and ->conn set
 *
 * Receives the dialer's hello, answers with ours and our proof, and
 * checks the dialer's proof.  A refused dialer is told why before the
 * caller closes the connection.  Process context; sleeps.
 *
 * Return: 0 when the dialer may be attached (the caller then calls
 * pcn_handshake_accept()), or -errno as pcn_handshake_dial().
 */
int pcn_handshake_answer(struct pcn_handshake *hs)
{
	const struct pcn_handshake_io *io = hs->io;
	struct pcn_hello_answer answer = {};
	struct pcn_hello_proof proof;
	struct pcn_auth_key key;
	int have, ret;

	ret = io->recv(hs->conn, &hs->theirs, sizeof(hs->theirs));
	if (!ret)
		ret = pcn_hello_check(&hs->theirs, hs->peer);
	if (ret)
		return ret;
	have = pcn_auth_get_key(&key);
	if (have < 0)
		return have;

	hs->policy = pcn_auth_policy(pcn_auth_required, have,
				     pcn_hello_offers_auth(&hs->theirs));
	ret = pcn_hello_init(&hs->mine, have);
	if (ret)
		goto out;
	answer.hello = hs->mine;
	if (hs->policy == 1) {
		ret = pcn_auth_proof(key.data, key.len, PCN_AUTH_ROLE_LISTENER,
				     &hs->theirs, &hs->mine, answer.mac);
		if (ret)
			goto out;
	}
	ret = io->send(hs->conn, &answer, sizeof(answer));
	if (!ret)
		ret = io->recv(hs->conn, &proof, sizeof(proof));
	if (ret)
		goto out;

	ret = pcn_status_decode(proof.status);
	if (ret) {
		/* The dialer refused us (and said so): nothing to answer. */
		pcn_auth_count(PCN_AUTH_REFUSED_BY_PEER);
		pr_warn_ratelimited("node %d refused this node (%d)\n",
				    hs->peer, ret);
		goto out;
	}
	ret = pcn_handshake_verify(hs, &key, PCN_AUTH_ROLE_DIALER, &hs->theirs,
				   &hs->mine, proof.mac);
	if (ret)
		goto out;
	if (hs->policy < 0) {
		ret = hs->policy;
		/* Best effort: the connection is closed anyway. */
		pcn_handshake_accept(hs, ret);
	}
out:
	memzero_explicit(&key, sizeof(key));
	return ret;
}

/**
 * pcn_handshake_accept() - tell the dialer whether it is attached
 * @hs: a handshake pcn_handshake_answer() passed
 * @status: 0 when the transport attaches the connection, else why not
 *
 * Return: 0, or the transport's error sending the verdict.
 */
int pcn_handshake_accept(struct pcn_handshake *hs, int status)
{
	struct pcn_hello_verdict verdict = {
		.status = pcn_status_encode(status),
	};
	int ret = hs->io->send(hs->conn, &verdict, sizeof(verdict));

	if (!ret && !status)
		pcn_handshake_done(hs);
	return ret;
}
