// SPDX-License-Identifier: GPL-2.0
/*
 * popcorn: command-line view of a Popcorn node.
 *
 *   popcorn nodes    this node's id and every node's state
 *   popcorn status   migration status of the calling thread
 *   popcorn stat     print /proc/popcorn_stat ("stat reset" clears it)
 *   popcorn ping NID [--size BYTES] [--count N]
 *                    in-kernel message round trips to node NID
 *   popcorn key FILE load the cluster key (16 to 128 bytes) from FILE as
 *                    the logon key "popcorn:psk" of the user keyring
 *                    (root's, for the kernel to find it); the same as
 *                    keyctl padd logon popcorn:psk @u < FILE
 *   popcorn migrate TID NID
 *                    propose thread TID to move to node NID
 *   popcorn run [--nodes LIST] [--policy adaptive|static] -- CMD [ARGS...]
 *                    run CMD with its threads spread over the nodes of
 *                    LIST (default: all) as they are made; adaptive (the
 *                    default) calls home a thread that waits on the
 *                    shared memory more than it computes
 *   popcorn spread PID [--nodes LIST] [--policy P] [--main]
 *                    the same for running process PID, its existing
 *                    threads too (the main thread with --main)
 *   popcorn ps       the distributed processes of this node and where
 *                    their threads run (/proc/popcorn_ps)
 *
 * LIST: node ids and ranges, "0,2" or "0-2".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <stdlib.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "popcorn.h"

static int cmd_nodes(void)
{
	struct popcorn_node_info ni[MAX_POPCORN_NODES];
	int nid, my_nid, online = 0;

	if (popcorn_get_node_info(&my_nid, ni)) {
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

#define PING_FILE "/sys/kernel/debug/popcorn/ping"

static int cmd_ping(int argc, char **argv)
{
	unsigned long long v[10];
	char cmd[64], res[512];
	long size = 64, count = 100;
	int nid, fd, i;
	ssize_t n;

	if (argc < 1)
		return -1;
	nid = atoi(argv[0]);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--size"))
			size = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--count"))
			count = strtol(argv[i + 1], NULL, 0);
		else
			return -1;
	}
	if (i != argc)
		return -1;

	fd = open(PING_FILE, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "popcorn: %s: %s\n", PING_FILE, strerror(errno));
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "%d %ld %ld", nid, size, count);
	if (write(fd, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "popcorn: ping node %d: %s\n", nid, strerror(errno));
		close(fd);
		return 1;
	}
	n = read(fd, res, sizeof(res) - 1);
	close(fd);
	if (n <= 0) {
		fprintf(stderr, "popcorn: ping result: %s\n", strerror(errno));
		return 1;
	}
	res[n] = '\0';
	if (sscanf(res, "nid %llu size %llu count %llu ok %llu min_ns %llu mean_ns %llu p50_ns %llu p99_ns %llu total_ns %llu kbps %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) != 10) {
		fprintf(stderr, "popcorn: unexpected ping result: %s", res);
		return 1;
	}
	printf("ping node %llu: %llu/%llu round trips of %llu bytes, payload verified\n",
	       v[0], v[3], v[2], v[1]);
	printf("latency us: min %.1f mean %.1f p50 %.1f p99 %.1f\n",
	       v[4] / 1e3, v[5] / 1e3, v[6] / 1e3, v[7] / 1e3);
	printf("throughput: %.2f MB/s (payload both ways), %.1f round trips/s\n",
	       v[9] / 1e3, v[8] ? v[3] * 1e9 / v[8] : 0.0);
	printf("raw: %s", res);
	return 0;
}

/* Limits of the kernel side (kernel/popcorn/auth_internal.h). */
#define KEY_MIN 16
#define KEY_MAX 128

static int cmd_key(const char *path)
{
	unsigned char key[KEY_MAX + 1];
	ssize_t n, len = 0;
	long serial;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "popcorn: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (len < (ssize_t)sizeof(key) &&
	       (n = read(fd, key + len, sizeof(key) - len)) > 0)
		len += n;
	close(fd);
	if (len < KEY_MIN || len > KEY_MAX) {
		fprintf(stderr, "popcorn: %s: a key has %d to %d bytes\n", path,
			KEY_MIN, KEY_MAX);
		memset(key, 0, sizeof(key));
		return 1;
	}
	serial = syscall(SYS_add_key, "logon", "popcorn:psk", key, (size_t)len,
			 KEY_SPEC_USER_KEYRING);
	memset(key, 0, sizeof(key));
	if (serial < 0) {
		fprintf(stderr, "popcorn: add_key: %s\n", strerror(errno));
		return 1;
	}
	printf("key popcorn:psk loaded (%zd bytes, serial %ld)\n", len, serial);
	return 0;
}

/* Propose thread @tid to move to @nid: it goes on its own next exit. */
static int cmd_migrate(const char *tid, const char *nid)
{
	char *end1, *end2;
	long t = strtol(tid, &end1, 10), n = strtol(nid, &end2, 10);

	if (*end1 || *end2 || t <= 0 || t > INT_MAX || n < 0 ||
	    n >= MAX_POPCORN_NODES) {
		fprintf(stderr, "popcorn: migrate TID NID: a thread id and a node id\n");
		return 2;
	}
	if (popcorn_propose_migration(t, n)) {
		fprintf(stderr, "popcorn: migrate %ld to node %ld: %s\n", t, n,
			strerror(errno));
		return 1;
	}
	printf("thread %ld proposed to migrate to node %ld\n", t, n);
	return 0;
}

/* "0,2-3" -> a node mask; 0 with a message for a malformed list. */
static unsigned long parse_nodes(const char *list)
{
	unsigned long mask = 0;
	const char *p = list;
	long a, b;
	char *end;

	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p || a < 0)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		if (b >= MAX_POPCORN_NODES) {
			fprintf(stderr, "popcorn: --nodes %s: node %ld is beyond the largest node id, %d\n",
				list, b, MAX_POPCORN_NODES - 1);
			return 0;
		}
		for (; a <= b; a++)
			mask |= 1UL << a;
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (mask)
		return mask;
bad:
	fprintf(stderr, "popcorn: --nodes %s: expected node ids and ranges, as 0,2-3\n",
		list);
	return 0;
}

/* The kernel's refusal of a placement, said for a person. */
static void placement_error(const char *what, const char *list)
{
	int err = errno;

	if (err == EINVAL && list)
		fprintf(stderr, "popcorn: %s: --nodes %s names a node that is not in this cluster (pcn.nodes): %s\n",
			what, list, strerror(err));
	else if (err == EPERM)
		fprintf(stderr, "popcorn: %s: not allowed to trace that process: %s\n",
			what, strerror(err));
	else
		fprintf(stderr, "popcorn: %s: %s\n", what, strerror(err));
}

/* --policy adaptive|static: the flag it adds, or -1 (said why). */
static int parse_policy(const char *what, const char *name)
{
	if (!strcmp(name, "adaptive"))
		return POPCORN_PLACE_ADAPTIVE;
	if (!strcmp(name, "static"))
		return 0;
	fprintf(stderr, "popcorn: %s: --policy %s: adaptive or static\n",
		what, name);
	return -1;
}

/* popcorn run [--nodes LIST] [--policy P] -- CMD [ARGS...] */
static int cmd_run(int argc, char **argv)
{
	unsigned long nodes = POPCORN_PLACE_ALL;
	unsigned int flags = POPCORN_PLACE_ADAPTIVE;
	const char *list = NULL;
	int i = 0, f;

	while (i + 1 < argc && argv[i][0] == '-' && strcmp(argv[i], "--")) {
		if (!strcmp(argv[i], "--nodes")) {
			list = argv[i + 1];
			nodes = parse_nodes(list);
			if (!nodes)
				return 2;
		} else if (!strcmp(argv[i], "--policy")) {
			f = parse_policy("run", argv[i + 1]);
			if (f < 0)
				return 2;
			flags = f;
		} else {
			return -1;
		}
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc || argv[i][0] == '-')
		return -1;
	if (popcorn_set_placement(0, nodes, flags) < 0) {
		placement_error("run", list);
		return 1;
	}
	/* The policy is the process's: the program keeps it. */
	execvp(argv[i], argv + i);
	fprintf(stderr, "popcorn: run %s: %s\n", argv[i], strerror(errno));
	return 127;
}

/* popcorn spread PID [--nodes LIST] [--policy P] [--main] */
static int cmd_spread(int argc, char **argv)
{
	unsigned long nodes = POPCORN_PLACE_ALL;
	unsigned int flags = POPCORN_PLACE_NOW | POPCORN_PLACE_ADAPTIVE;
	const char *list = NULL;
	char *end;
	long pid;
	int i, n, f;

	if (argc < 1)
		return -1;
	pid = strtol(argv[0], &end, 10);
	if (*end || pid <= 0 || pid > INT_MAX) {
		fprintf(stderr, "popcorn: spread PID: a process id\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--main")) {
			flags |= POPCORN_PLACE_WITH_MAIN;
		} else if (!strcmp(argv[i], "--nodes") && i + 1 < argc) {
			list = argv[++i];
			nodes = parse_nodes(list);
			if (!nodes)
				return 2;
		} else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
			f = parse_policy("spread", argv[++i]);
			if (f < 0)
				return 2;
			flags = (flags & ~POPCORN_PLACE_ADAPTIVE) | f;
		} else {
			return -1;
		}
	}
	n = popcorn_set_placement(pid, nodes, flags);
	if (n < 0) {
		placement_error("spread", list);
		return 1;
	}
	printf("process %ld: %d thread(s) placed on other nodes\n", pid, n);
	return 0;
}

/* popcorn ps: /proc/popcorn_ps as a table. */
static int cmd_ps(void)
{
	const char *path = "/proc/popcorn_ps";
	unsigned int per_node[MAX_POPCORN_NODES];
	char line[512], place[32], comm[64], tids[8192], policy[16];
	long long faults = 0, calls = 0, home_ms, away_ms, pages;
	unsigned long long run_ms, wait_ms, shared_ms;
	int pid = 0, tid, nid, nid0 = -1, n, have = 0, id;
	unsigned long addr, mask;
	unsigned int count;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "popcorn: %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%7s %-10s %13s %9s  %-20s %s\n", "PID", "PLACEMENT",
	       "REMOTE_FAULTS", "SYSCALLS", "THREADS(node:n)", "COMMAND");
	for (;;) {
		char *ok = fgets(line, sizeof(line), f);

		if ((!ok || !strncmp(line, "process ", 8)) && have) {
			char counts[256] = "";
			size_t c = 0;

			for (n = 0; n < MAX_POPCORN_NODES; n++)
				if (per_node[n] && c < sizeof(counts))
					c += snprintf(counts + c,
						      sizeof(counts) - c,
						      "%s%d:%u", c ? " " : "",
						      n, per_node[n]);
			printf("%7d %-10s %13lld %9lld  %-20s %s\n%s", pid,
			       place, faults, calls, counts, comm, tids);
			have = 0;
		}
		if (!ok)
			break;
		if (sscanf(line, "popcorn_ps 1 node %d", &nid0) == 1)
			continue;
		pages = 0;	/* a kernel without the field: none */
		if (sscanf(line, "process %d placement %31s remote_faults %lld syscalls %lld comm %63[^\n]",
			   &pid, place, &faults, &calls, comm) == 5) {
			memset(per_node, 0, sizeof(per_node));
			tids[0] = '\0';
			len = 0;
			have = 1;
		} else if (have && sscanf(line, "share %d remote_faults_per_s %u",
					  &id, &count) == 2 && id == pid) {
			if (len < sizeof(tids))
				len += snprintf(tids + len, sizeof(tids) - len,
						"%7s remote faults per second %u\n",
						"", count);
		} else if (have && sscanf(line, "hot %d %lx transfers %u nodes %lx",
					  &id, &addr, &count, &mask) == 4 &&
			   id == pid) {
			if (len < sizeof(tids))
				len += snprintf(tids + len, sizeof(tids) - len,
						"%7s page %#lx moved %u times (to nodes %#lx)\n",
						"", addr, count, mask);
		} else if (have && sscanf(line, "dsm %d policy %15s wait_home_ms %lld wait_away_ms %lld called_home %u pages_home %lld",
					  &id, policy, &home_ms, &away_ms,
					  &count, &pages) >= 5 && id == pid) {
			if (len < sizeof(tids))
				len += snprintf(tids + len, sizeof(tids) - len,
						"%7s policy %s, DSM wait %lld ms at home, %lld ms away, %u thread(s) called home, %lld pages brought home after them\n",
						"", policy, home_ms, away_ms,
						count, pages);
		} else if (have && !strncmp(line, "thread ", 7)) {
			char use[96] = "";

			n = sscanf(line, "thread %d node %d run_ms %llu wait_ms %llu shared_ms %llu",
				   &tid, &nid, &run_ms, &wait_ms, &shared_ms);
			if (n < 2)
				continue;
			if (n == 5)
				snprintf(use, sizeof(use),
					 ", ran %llu ms, waited %llu ms on the DSM (%llu ms from sharing)",
					 run_ms, wait_ms, shared_ms);
			if (nid >= 0 && nid < MAX_POPCORN_NODES)
				per_node[nid]++;
			if (len < sizeof(tids))
				len += snprintf(tids + len, sizeof(tids) - len,
						"%7s tid %d node %d%s%s\n", "",
						tid, nid,
						nid == nid0 ? "" : " (away)",
						use);
		}
	}
	fclose(f);
	return 0;
}

/*
 * popcorn evacuate [NID|open]: send home what runs at node NID (this
 * node by default, which is then closed to arrivals), or open this node
 * again.  Blocks until done (/proc/popcorn_evacuate).
 */
static int cmd_evacuate(const char *arg)
{
	const char *path = "/proc/popcorn_evacuate";
	struct popcorn_thread_status st;
	char buf[32], line[128];
	FILE *f;
	long n;
	int fd;

	if (!arg) {
		if (popcorn_get_status(&st)) {
			fprintf(stderr, "popcorn: get_thread_status: %s\n",
				strerror(errno));
			return 1;
		}
		snprintf(buf, sizeof(buf), "%d", st.current_nid);
	} else if (!strcmp(arg, "open")) {
		snprintf(buf, sizeof(buf), "open");
	} else {
		char *end;

		n = strtol(arg, &end, 10);
		if (*end || end == arg || n < 0 || n >= MAX_POPCORN_NODES) {
			fprintf(stderr, "popcorn: evacuate [NID|open]: a node id\n");
			return 2;
		}
		snprintf(buf, sizeof(buf), "%ld", n);
	}
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, buf, strlen(buf)) < 0) {
		int err = errno;

		fprintf(stderr, "popcorn: evacuate %s: %s%s\n", buf,
			strerror(err), err == ETIMEDOUT ?
			" (threads or pages did not all come home; see the kernel log)" :
			"");
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		fclose(f);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: popcorn nodes | status | stat [reset] |\n"
			"               ping NID [--size BYTES] [--count N] | key FILE |\n"
			"               migrate TID NID | ps | evacuate [NID|open] |\n"
			"               run [--nodes LIST] [--policy adaptive|static] -- CMD [ARGS...] |\n"
			"               spread PID [--nodes LIST] [--policy adaptive|static] [--main]\n");
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
	if (!strcmp(argv[1], "key") && argc == 3)
		return cmd_key(argv[2]);
	if (!strcmp(argv[1], "migrate") && argc == 4)
		return cmd_migrate(argv[2], argv[3]);
	if (!strcmp(argv[1], "ps") && argc == 2)
		return cmd_ps();
	if (!strcmp(argv[1], "evacuate") && argc <= 3)
		return cmd_evacuate(argc == 3 ? argv[2] : NULL);
	if (!strcmp(argv[1], "run")) {
		int ret = cmd_run(argc - 2, argv + 2);

		if (ret >= 0)
			return ret;
	}
	if (!strcmp(argv[1], "spread")) {
		int ret = cmd_spread(argc - 2, argv + 2);

		if (ret >= 0)
			return ret;
	}
	if (!strcmp(argv[1], "ping")) {
		int ret = cmd_ping(argc - 2, argv + 2);

		if (ret >= 0)
			return ret;
	}
	usage();
	return 2;
}
