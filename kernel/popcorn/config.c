// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn boot configuration parser.
 *
 *   pcn.nodes=IP0,IP1,...  IPv4 unicast addresses, position = node id
 *   pcn.nid=N              this node's id; without it, the node finds
 *                          its id by looking for one of its own
 *                          addresses in the list
 *   pcn.transport=NAME     a transport built into the kernel: tcp
 *                          (the default), rdma or shm; here only its
 *                          spelling is checked, the messaging core
 *                          looks it up among the registered ones
 *
 * Everything here is a pure function of its arguments; the caller
 * (nodes.c) applies the result or disables Popcorn with cfg->error.
 */
#include <linux/errno.h>
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/string.h>

#include "config.h"

#define PCN_TRANSPORT_DEFAULT	"tcp"

static bool pcn_addr_usable(__be32 addr)
{
	return !ipv4_is_zeronet(addr) && !ipv4_is_loopback(addr) &&
	       !ipv4_is_multicast(addr) && !ipv4_is_lbcast(addr);
}

static int pcn_parse_node_list(const char *list, struct pcn_config *cfg)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");
		const char *end;
		__be32 addr;
		int i;

		if (n == POPCORN_MAX_NODES) {
			cfg->error = "pcn.nodes lists more nodes than POPCORN_MAX_NODES";
			return -E2BIG;
		}
		if (!len || !in4_pton(p, len, (u8 *)&addr, -1, &end) ||
		    end != p + len) {
			cfg->error = "pcn.nodes is not a comma-separated list of IPv4 addresses";
			return -EINVAL;
		}
		if (!pcn_addr_usable(addr)) {
			cfg->error = "pcn.nodes holds an address that is not unicast";
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (cfg->addr[i] == addr) {
				cfg->error = "pcn.nodes lists an address twice";
				return -EINVAL;
			}
		}
		cfg->addr[n++] = addr;

		p += len;
		if (!*p)
			break;
		p++;	/* the comma */
	}
	cfg->nr_nodes = n;
	return 0;
}

static int pcn_parse_nid(const char *nid, pcn_addr_is_local_t is_local,
			 void *arg, struct pcn_config *cfg)
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
		if (!is_local || !is_local(cfg->addr[i], arg))
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

/* A transport's name: 1 to 15 lower-case letters, digits or '_'. */
static int pcn_parse_transport(const char *name, struct pcn_config *cfg)
{
	size_t len;

	if (!name || !*name)
		name = PCN_TRANSPORT_DEFAULT;
	len = strlen(name);
	if (len >= sizeof(cfg->transport) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != len) {
		cfg->error = "pcn.transport is not a transport name";
		return -EINVAL;
	}
	strscpy(cfg->transport, name, sizeof(cfg->transport));
	return 0;
}

/**
 * pcn_config_parse() - validate the Popcorn boot parameters
 * @nodes: value of pcn.nodes=, must not be empty
 * @nid: value of pcn.nid=, may be NULL or empty
 * @transport: value of pcn.transport=, may be NULL or empty (tcp)
 * @is_local: tells whether an address belongs to this node, used when
 *	@nid is not given; may be NULL
 * @arg: passed to @is_local
 * @cfg: filled in; on error cfg->error says why in one phrase
 *
 * Return: 0, or -EINVAL for malformed input, -E2BIG for too many nodes,
 * -ERANGE for a node id outside the list, -ENOENT when this node's id
 * cannot be found.
 */
int pcn_config_parse(const char *nodes, const char *nid,
		     const char *transport, pcn_addr_is_local_t is_local,
		     void *arg, struct pcn_config *cfg)
{
	int err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->my_nid = -1;

	if (!nodes || !*nodes) {
		cfg->error = "pcn.nodes is empty";
		return -EINVAL;
	}
	err = pcn_parse_transport(transport, cfg);
	if (!err)
		err = pcn_parse_node_list(nodes, cfg);
	if (!err)
		err = pcn_parse_nid(nid, is_local, arg, cfg);
	if (err) {
		cfg->nr_nodes = 0;
		cfg->my_nid = -1;
	}
	return err;
}
