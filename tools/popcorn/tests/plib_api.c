// SPDX-License-Identifier: GPL-2.0
/*
 * The popcorn-kernel-lib API, call by call: every function, helper
 * macro and return convention of its header (migrate.h), as its programs
 * use them.  Built with -I tools/popcorn only, like such a program.
 *
 *   plib_api NID        (run at the origin, node 0; NID another node)
 *   plib_api NID pending GO_FILE
 *                       (limits.sh: node NID refuses this process a
 *                        worker until the file GO_FILE exists)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "migrate.h"
#include "tap.h"

POPCORN_DEFINE_CONFIGS();

static int page_var ALIGN_TO_PAGE = 7;
static int cb_nid = -2, cb_runs;

static void where(void *arg)
{
	*(int *)arg = popcorn_current_nid();
	cb_runs++;
}

static void check_helpers(void)
{
	char *p;

	tap_check(PAGE_SIZE == sysconf(_SC_PAGESIZE) && PAGE_SHIFT == 12 &&
		  (PAGE_MASK & (PAGE_SIZE + 5)) == PAGE_SIZE,
		  "PAGE_SIZE %d, PAGE_SHIFT, PAGE_MASK", PAGE_SIZE);
	tap_check(((uintptr_t)&page_var & (PAGE_SIZE - 1)) == 0 && page_var == 7,
		  "ALIGN_TO_PAGE variable at %p", (void *)&page_var);
	tap_check(((uintptr_t)&__popcorn_config & (PAGE_SIZE - 1)) == 0 &&
		  sizeof(__popcorn_config) == PAGE_SIZE,
		  "POPCORN_DEFINE_CONFIGS: one page, page aligned");
	p = popcorn_malloc(100);
	tap_check(p && ((uintptr_t)p & (PAGE_SIZE - 1)) == 0,
		  "popcorn_malloc(100) page aligned (%p)", (void *)p);
	if (p) {
		memset(p, 0xab, PAGE_SIZE);	/* a whole page is usable */
		free(p);
	}
	popcorn_region_id(3);
}

static void check_status(int nid, int peer)
{
	struct popcorn_thread_status st;
	int ret;

	memset(&st, 0x5a, sizeof(st));
	ret = popcorn_get_status(&st);
	tap_check(ret == 0 && st.current_nid == nid && st.proposed_nid == -1 &&
		  st.peer_nid == peer,
		  "popcorn_get_status at node %d: current %d proposed %d peer %d/%d",
		  nid, st.current_nid, st.proposed_nid, st.peer_nid, st.peer_pid);
	tap_check(popcorn_current_nid() == nid,
		  "popcorn_current_nid() is %d", nid);
	tap_check(popcorn_gettid() == (int)syscall(SYS_gettid),
		  "popcorn_gettid() is gettid()");
}

static void check_node_info(int nid)
{
	struct popcorn_node_info info[MAX_POPCORN_NODES];
	int cur = -2, ret;

	memset(info, 0x5a, sizeof(info));
	ret = popcorn_get_node_info(&cur, info);
	tap_check(ret == 0 && cur == 0 && info[0].status == POPCORN_NODE_ONLINE &&
		  info[0].arch == POPCORN_NODE_X86 &&
		  info[nid].status == POPCORN_NODE_ONLINE &&
		  info[MAX_POPCORN_NODES - 1].status == POPCORN_NODE_OFFLINE &&
		  info[MAX_POPCORN_NODES - 1].arch == POPCORN_NODE_UNKNOWN,
		  "popcorn_get_node_info(&nid, info): %d, node %d, nodes 0 and %d online x86, last offline",
		  ret, cur, nid);
}

static void check_errors(int nid)
{
	int ret;

	errno = 1234;
	cb_runs = 0;
	ret = migrate(0, where, &cb_nid);
	tap_check(ret == EBUSY && errno == 1234 && !cb_runs,
		  "migrate() to its own node returns EBUSY, errno untouched, no callback (%d)",
		  ret);
	ret = migrate(MAX_POPCORN_NODES, where, &cb_nid);
	tap_check(ret == EINVAL && errno == 1234 && !cb_runs,
		  "migrate() to node %d returns EINVAL (%d)", MAX_POPCORN_NODES, ret);
	ret = migrate(-1, where, &cb_nid);
	tap_check(ret == EINVAL && !cb_runs,
		  "migrate(-1) with no proposed node returns EINVAL (%d)", ret);
	ret = popcorn_migrate(0);
	tap_check(ret == EBUSY, "popcorn_migrate() to its own node returns EBUSY (%d)",
		  ret);
	(void)nid;
}

struct spinner {
	volatile int tid, stop;
	int saw_proposed, where;
};

/* Calls the kernel all the time, never migrate(): moved from outside. */
static void *spin(void *arg)
{
	struct spinner *s = arg;
	struct popcorn_thread_status st;
	int i;

	s->tid = popcorn_gettid();
	for (i = 0; !s->stop && i < 2000000; i++) {
		if (popcorn_get_status(&st))
			break;
		if (st.proposed_nid >= 0)
			s->saw_proposed = st.proposed_nid;
		if (st.current_nid != 0)
			break;
	}
	s->where = popcorn_current_nid();
	migrate(0, NULL, NULL);
	return NULL;
}

struct blocked {
	volatile int tid;
	int fd, restart;	/* pipe end it reads; SA_RESTART or not */
	ssize_t n;
	int err, where, handled_at;
};

static volatile int handled_at = -1;

static void on_usr2(int sig __attribute__((unused)))
{
	handled_at = popcorn_current_nid();
}

/* Proposed while blocked in read(), then signalled: it moves after. */
static void *block(void *arg)
{
	struct blocked *b = arg;
	struct sigaction sa = { .sa_handler = on_usr2 };
	char c;

	sa.sa_flags = b->restart ? SA_RESTART : 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	b->tid = popcorn_gettid();
	b->n = read(b->fd, &c, 1);
	b->err = b->n < 0 ? errno : 0;
	b->where = popcorn_current_nid();
	migrate(0, NULL, NULL);
	return NULL;
}

/* Thread @tid of this process sleeps (state S). */
static int sleeping(int tid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * A signal ends the call of a thread that has a proposal: the call's
 * result is settled (EINTR, or the call restarted) before the move, not
 * carried away as a kernel-internal -ERESTART* value.
 */
static void check_proposal_signal(int nid, int restart)
{
	struct blocked b = { .restart = restart, .n = -2, .where = -1 };
	pthread_t t;
	int p[2], i, ret;

	if (pipe(p) || (b.fd = p[0], pthread_create(&t, NULL, block, &b))) {
		tap_check(0, "thread blocked in read(): %s", strerror(errno));
		return;
	}
	for (i = 0; i < 2000 && (!b.tid || !sleeping(b.tid)); i++)
		usleep(1000);
	handled_at = -1;
	ret = popcorn_propose_migration(b.tid, nid);
	usleep(100000);
	syscall(SYS_tgkill, getpid(), b.tid, SIGUSR2);
	if (restart) {
		/* The read starts again, at the remote: give it its byte. */
		for (i = 0; i < 3000 && handled_at < 0; i++)
			usleep(1000);
		usleep(100000);
		if (write(p[1], "x", 1) != 1)
			ret = -1;
	}
	pthread_join(t, NULL);
	close(p[0]);
	close(p[1]);
	if (restart)
		tap_check(!ret && b.n == 1 && b.where == nid && handled_at == nid,
			  "proposed while in read(), a SA_RESTART handler: it ran at node %d, the read restarted there and got its byte (%zd, errno %d, at %d, handler at %d)",
			  nid, b.n, b.err, b.where, handled_at);
	else
		tap_check(!ret && b.n == -1 && b.err == EINTR && b.where == nid &&
			  handled_at == nid,
			  "proposed while in read(), a handler without SA_RESTART: read() returns EINTR at node %d, handler ran there (%zd, errno %d, at %d, handler at %d)",
			  nid, b.n, b.err, b.where, handled_at);
}

static void check_proposals(int nid)
{
	struct spinner s = { .saw_proposed = -1, .where = -1 };
	pthread_t t;
	int ret;

	errno = 0;
	ret = popcorn_propose_migration(0, MAX_POPCORN_NODES);
	tap_check(ret == -1 && errno == EINVAL,
		  "popcorn_propose_migration() to node %d: EINVAL (%d, errno %d)",
		  MAX_POPCORN_NODES, ret, errno);
	ret = popcorn_propose_migration(999999, nid);
	tap_check(ret == -1 && errno == ESRCH,
		  "popcorn_propose_migration() of no thread: ESRCH (%d, errno %d)",
		  ret, errno);

	/* Itself: it moves on its way out of the call. */
	ret = popcorn_propose_migration(0, nid);
	tap_check(ret == 0 && popcorn_current_nid() == nid,
		  "popcorn_propose_migration(0, %d): the caller moved on return (%d, at %d)",
		  nid, ret, popcorn_current_nid());
	ret = migrate(0, NULL, NULL);
	tap_check(ret == 0 && popcorn_current_nid() == 0, "and came back (%d)", ret);

	/* Another thread of the process, which never asks. */
	if (pthread_create(&t, NULL, spin, &s)) {
		tap_check(0, "thread for a proposal: %s", strerror(errno));
		return;
	}
	while (!s.tid)
		usleep(1000);
	ret = popcorn_propose_migration(s.tid, nid);
	if (ret)
		s.stop = 1;
	pthread_join(t, NULL);
	tap_check(ret == 0 && s.where == nid &&
		  (s.saw_proposed == -1 || s.saw_proposed == nid),
		  "thread %d proposed to node %d moved there by itself (at %d; status said proposed %d)",
		  s.tid, nid, s.where, s.saw_proposed);

	/* Proposed from a remote: the tid is the thread's at the origin. */
	memset(&s, 0, sizeof(s));
	s.saw_proposed = -1;
	s.where = -1;
	if (pthread_create(&t, NULL, spin, &s)) {
		tap_check(0, "thread for a proposal: %s", strerror(errno));
		return;
	}
	while (!s.tid)
		usleep(1000);
	ret = migrate(nid, NULL, NULL);
	errno = 0;
	ret = ret ? ret : popcorn_propose_migration(s.tid, nid);
	tap_check(ret == 0 && popcorn_current_nid() == nid,
		  "at node %d, popcorn_propose_migration(%d, %d) of a thread at the origin (%d, errno %d)",
		  nid, s.tid, nid, ret, errno);
	migrate(0, NULL, NULL);
	if (ret)
		s.stop = 1;
	pthread_join(t, NULL);
	tap_check(ret == 0 && s.where == nid,
		  "and thread %d moved to node %d by itself (at %d)",
		  s.tid, nid, s.where);
}

struct pending {
	volatile int tid;
	int nid, home;		/* proposed node, where the thread starts */
	const char *go;		/* exists once @nid takes the process */
	int seen, at;		/* proposed_nid it saw, and where it was */
	int retry, still;	/* migrate(-1) while refused; proposed after */
	int moved, there, after;	/* migrate(-1) at last; status there */
	int back, home_after;	/* migrate(home); proposed_nid at home */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Proposed to a node that refuses it: the move on the way out fails, so
 * the proposal must stay visible, and migrate(-1) must act on it.
 */
static void *pend(void *arg)
{
	struct pending *p = arg;
	struct popcorn_thread_status st;
	double end;

	p->tid = popcorn_gettid();
	for (end = now() + 30; now() < end; ) {
		if (popcorn_get_status(&st))
			return NULL;
		if (st.proposed_nid >= 0) {
			p->seen = st.proposed_nid;
			break;
		}
	}
	p->at = popcorn_current_nid();
	if (p->seen < 0)
		return NULL;
	p->retry = migrate(-1, NULL, NULL);
	popcorn_get_status(&st);
	p->still = st.proposed_nid;
	printf("# pending: waiting for %s\n", p->go);
	fflush(stdout);
	for (end = now() + 240; now() < end && access(p->go, F_OK); )
		usleep(100000);
	/* The node frees this process's share of workers in its own time. */
	for (end = now() + 40; now() < end; usleep(200000)) {
		p->moved = migrate(-1, NULL, NULL);
		if (p->moved != EAGAIN)
			break;
	}
	if (p->moved)
		return NULL;
	popcorn_get_status(&st);
	p->there = st.current_nid;
	p->after = st.proposed_nid;
	p->back = migrate(p->home, NULL, NULL);
	popcorn_get_status(&st);
	p->home_after = st.proposed_nid;
	return NULL;
}

static int check_pending(int nid, const char *go)
{
	struct pending p = {
		.nid = nid, .home = popcorn_current_nid(), .go = go,
		.seen = -1, .at = -1, .retry = -1, .still = -1,
		.moved = -1, .there = -1, .after = -2,
		.back = -1, .home_after = -2,
	};
	pthread_t t;
	int ret;

	if (pthread_create(&t, NULL, pend, &p)) {
		tap_check(0, "thread for a proposal: %s", strerror(errno));
		return 1;
	}
	while (!p.tid)
		usleep(1000);
	ret = popcorn_propose_migration(p.tid, nid);
	tap_check(ret == 0, "popcorn_propose_migration(%d, %d) (%d, errno %d)",
		  p.tid, nid, ret, ret ? errno : 0);
	pthread_join(t, NULL);
	tap_check(p.seen == nid && p.at == p.home,
		  "node %d refused the move: the thread stays at node %d and popcorn_get_status() reports proposed_nid %d (at %d)",
		  nid, p.home, p.seen, p.at);
	tap_check(p.retry == EAGAIN && p.still == nid,
		  "migrate(-1) while node %d refuses: EAGAIN (%d), still proposed (%d)",
		  nid, p.retry, p.still);
	tap_check(p.moved == 0 && p.there == nid && p.after == -1,
		  "migrate(-1) once node %d takes it: there (%d, at %d), proposal done (%d)",
		  nid, p.moved, p.there, p.after);
	tap_check(p.back == 0 && p.home_after == -1,
		  "and back at node %d (%d), nothing proposed (%d)",
		  p.home, p.back, p.home_after);
	return tap_failed ? 1 : 0;
}

static void check_schedule(int nid)
{
	char name[] = "/tmp/plib_api.XXXXXX";
	FILE *f;
	int fd;

	fd = mkstemp(name);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		tap_check(0, "thread schedule file: %s", strerror(errno));
		return;
	}
	/* Region 7: thread 1 on @nid; default: everything on node 0. */
	fprintf(f, "7 2 0 %d\n-1 2 0 0\n", nid);
	fclose(f);
	setenv("POPCORN_THREAD_SCHEDULE", name, 1);
	cb_nid = -2;
	migrate_schedule(7, 1, where, &cb_nid);
	tap_check(cb_nid == nid && popcorn_current_nid() == nid,
		  "migrate_schedule(7, 1): moved to node %d by the schedule (callback at %d)",
		  nid, cb_nid);
	popcorn_migrate_schedule(9, 1);
	tap_check(popcorn_current_nid() == 0,
		  "popcorn_migrate_schedule(9, 1): default region, back at node 0");
	unlink(name);
}

int main(int argc, char *argv[])
{
	char *page;
	int nid, ret;

	if (argc == 4 && !strcmp(argv[2], "pending"))
		return check_pending(atoi(argv[1]), argv[3]);
	if (argc != 2) {
		fprintf(stderr, "usage: plib_api NID [pending GO_FILE]\n");
		return 2;
	}
	nid = atoi(argv[1]);
	check_helpers();
	check_status(0, 0);
	check_node_info(nid);
	check_errors(nid);

	/* There and back with a callback, as the library's programs do. */
	cb_runs = 0;
	ret = migrate(nid, where, &cb_nid);
	tap_check(ret == 0 && cb_nid == nid && cb_runs == 1,
		  "migrate(%d, callback) returns 0, callback ran once at node %d",
		  nid, cb_nid);
	check_status(nid, 0);
	page = popcorn_malloc(PAGE_SIZE);
	if (page)
		memset(page, 1, PAGE_SIZE);
	tap_check(page && popcorn_release_ownership(page, PAGE_SIZE) == 0 &&
		  page[10] == 1,
		  "popcorn_release_ownership() of a page written at node %d", nid);
	free(page);
	ret = migrate(0, NULL, NULL);
	tap_check(ret == 0 && popcorn_current_nid() == 0,
		  "migrate(0, NULL, NULL) brings it home (%d)", ret);

	/* The configuration block and the region macros. */
	POPCORN_CONFIG_CORES_PER_NODE = 2;
	POPCORN_CONFIG_NODES = 2;
	ret = POPCORN_MIGRATE_START(2 * nid + 1);
	tap_check(ret == 0 && popcorn_current_nid() == nid,
		  "POPCORN_MIGRATE_START(thread %d) with 2 cores per node: node %d",
		  2 * nid + 1, popcorn_current_nid());
	ret = POPCORN_MIGRATE_END();
	tap_check(ret == 0 && popcorn_current_nid() == 0,
		  "POPCORN_MIGRATE_END(): back at node 0");
	POPCORN_MIGRATE_REGION_START(2 * nid, 5);
	tap_check(popcorn_current_nid() == nid,
		  "POPCORN_MIGRATE_REGION_START: node %d", nid);
	POPCORN_MIGRATE_REGION_END();
	tap_check(popcorn_current_nid() == 0, "POPCORN_MIGRATE_REGION_END: node 0");

	check_schedule(nid);
	check_proposals(nid);
	check_proposal_signal(nid, 0);
	check_proposal_signal(nid, 1);
	return tap_failed ? 1 : 0;
}
