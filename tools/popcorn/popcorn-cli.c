// SPDX-License-Identifier: GPL-2.0
/*
 * popcorn: command-line view of a Popcorn node.
 *
 *   popcorn nodes    this node's id and every node's state
 *   popcorn status   migration status of the calling thread
 *   popcorn stat     print /proc/popcorn_stat ("stat reset" clears it)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "popcorn.h"

static int cmd_nodes(void)
{
	struct popcorn_node_info ni[MAX_POPCORN_NODES];
	int my_nid = popcorn_current_nid();
	int nid, online = 0;

	if (popcorn_get_node_info(ni)) {
		fprintf(stderr, "popcorn: get_node_info: %s\n", strerror(errno));
		return 1;
	}
	if (my_nid < 0) {
		printf("popcorn disabled on this node (see dmesg)\n");
		return 0;
	}
	printf("my_nid %d\n", my_nid);
	for (nid = 0; nid < MAX_POPCORN_NODES; nid++) {
		if (ni[nid].status != POPCORN_NODE_ONLINE)
			continue;
		online++;
		printf("node %d online arch %s%s\n", nid,
		       ni[nid].arch == POPCORN_NODE_X86 ? "x86_64" : "unknown",
		       nid == my_nid ? " (self)" : "");
	}
	printf("%d node(s) online\n", online);
	return 0;
}

static int cmd_status(void)
{
	struct popcorn_thread_status st;

	if (popcorn_get_status(&st)) {
		fprintf(stderr, "popcorn: get_thread_status: %s\n", strerror(errno));
		return 1;
	}
	printf("current_nid %d peer_nid %d peer_pid %d\n",
	       st.current_nid, st.peer_nid, st.peer_pid);
	return 0;
}

static int cmd_stat(int reset)
{
	const char *path = "/proc/popcorn_stat";
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, reset ? "w" : "r");

	if (!f) {
		fprintf(stderr, "popcorn: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (reset) {
		fputs("0\n", f);
	} else {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
	}
	return fclose(f) ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: popcorn nodes | status | stat [reset]\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return 2;
	}
	if (!strcmp(argv[1], "nodes"))
		return cmd_nodes();
	if (!strcmp(argv[1], "status"))
		return cmd_status();
	if (!strcmp(argv[1], "stat"))
		return cmd_stat(argc > 2 && !strcmp(argv[2], "reset"));
	usage();
	return 2;
}
