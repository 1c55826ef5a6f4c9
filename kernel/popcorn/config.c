// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn boot configuration parser.
 *
 *   pcn.transport=NAME     a transport built into the kernel
 *                          (CONFIG_PCN_TRANSPORT_DEFAULT without it);
 *                          here only its spelling is checked, the
 *                          messaging core looks it up among the
 *                          registered ones
 *   pcn.nodes=A0,A1,...    the nodes' addresses, position = node id, in
 *                          the form of that transport, which parses
 *                          each one: the core knows node ids, not
 *                          address families
 *   pcn.nid=N              this node's id; without it, the node finds
 *                          its id by asking the transport which listed
 *                          address is its own
 *
 * Everything here is a pure function of its arguments; the caller
 * (nodes.c) applies the result or disables Popcorn with cfg->error.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/string.h>

#include "config.h"

/* Empty: no node, no id, no transport. */
void pcn_config_init(struct pcn_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->my_nid = -1;
}

static bool pcn_addr_equal(const struct pcn_node_addr *a,
			   const struct pcn_node_addr *b)
{
	return a->len == b->len && !memcmp(a->bytes, b->bytes, a->len);
}

static int pcn_parse_node_list(const char *list,
			       const struct pcn_kmsg_transport *t,
			       struct pcn_config *cfg)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");
		struct pcn_node_addr *addr = &cfg->addr[n];
		int i;

		if (n == POPCORN_MAX_NODES) {
			cfg->error = "pcn.nodes lists more nodes than POPCORN_MAX_NODES";
			return -E2BIG;
		}
		memset(addr, 0, sizeof(*addr));
		if (!len || t->parse_addr(p, len, addr) ||
		    !addr->len || addr->len > PCN_NODE_ADDR_MAX) {
			cfg->error = "pcn.nodes holds an entry the transport does not take";
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (pcn_addr_equal(&cfg->addr[i], addr)) {
				cfg->error = "pcn.nodes lists an address twice";
				return -EINVAL;
			}
		}
		n++;

		p += len;
		if (!*p)
			break;
		p++;	/* the comma */
	}
	cfg->nr_nodes = n;
	return 0;
}

static int pcn_parse_nid(const char *nid, const struct pcn_kmsg_transport *t,
			 struct pcn_config *cfg)
{
	int i;

	if (nid && *nid) {
		if (kstrtoint(nid, 10, &cfg->my_nid)) {
			cfg->error = "pcn.nid is not a number";
			return -EINVAL;
		}
		if (cfg->my_nid < 0 || cfg->my_nid >= cfg->nr_nodes) {
			cfg->error = "pcn.nid is not a position in pcn.nodes";
			return -ERANGE;
		}
		return 0;
	}

	cfg->my_nid = -1;
	for (i = 0; i < cfg->nr_nodes; i++) {
		if (!t->addr_is_local || !t->addr_is_local(&cfg->addr[i]))
			continue;
		if (cfg->my_nid >= 0) {
			cfg->error = "several addresses of pcn.nodes are local, give pcn.nid";
			return -EINVAL;
		}
		cfg->my_nid = i;
	}
	if (cfg->my_nid < 0) {
		cfg->error = "no address of pcn.nodes is configured here, give pcn.nid or ip=";
		return -ENOENT;
	}
	return 0;
}

/**
 * pcn_config_parse_transport() - check the spelling of pcn.transport=
 * @name: its value; NULL or empty for CONFIG_PCN_TRANSPORT_DEFAULT
 * @cfg: cfg->transport is set; on error cfg->error says why
 *
 * A transport's name is 1 to 15 lower-case letters, digits or '_'.
 *
 * Return: 0, or -EINVAL.
 */
int pcn_config_parse_transport(const char *name, struct pcn_config *cfg)
{
	size_t len;

	if (!name || !*name)
		name = CONFIG_PCN_TRANSPORT_DEFAULT;
	len = strlen(name);
	if (!len || len >= sizeof(cfg->transport) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != len) {
		cfg->error = "pcn.transport is not a transport name";
		return -EINVAL;
	}
	strscpy(cfg->transport, name, sizeof(cfg->transport));
	return 0;
}

/**
 * pcn_config_parse_nodes() - validate pcn.nodes= and pcn.nid=
 * @nodes: value of pcn.nodes=, must not be empty
 * @nid: value of pcn.nid=, may be NULL or empty
 * @t: the transport whose addresses pcn.nodes lists: its ->parse_addr
 *	reads each entry, its ->addr_is_local (if any) finds this node
 *	when @nid is not given
 * @cfg: filled in; on error cfg->error says why in one phrase, and
 *	no node is set
 *
 * Return: 0, or -EINVAL for malformed input, -E2BIG for too many nodes,
 * -ERANGE for a node id outside the list, -ENOENT when this node's id
 * cannot be found.
 */
int pcn_config_parse_nodes(const char *nodes, const char *nid,
			   const struct pcn_kmsg_transport *t,
			   struct pcn_config *cfg)
{
	int err;

	cfg->nr_nodes = 0;
	cfg->my_nid = -1;
	if (!nodes || !*nodes) {
		cfg->error = "pcn.nodes is empty";
		return -EINVAL;
	}
	err = pcn_parse_node_list(nodes, t, cfg);
	if (!err)
		err = pcn_parse_nid(nid, t, cfg);
	if (err) {
		cfg->nr_nodes = 0;
		cfg->my_nid = -1;
	}
	return err;
}
