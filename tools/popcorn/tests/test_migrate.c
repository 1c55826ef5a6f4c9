// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test of thread migration, run at the origin (node 0):
 *
 *   test_migrate basic NID ROUNDS [VIA [MIB]]
 *                                         status, errors, there-and-back
 *                                         loop, MIB (16) MiB buffer,
 *                                         malloc/mmap at NID; VIA: a
 *                                         second remote
 *   test_migrate offline NID              NID is offline: EAGAIN
 *   test_migrate exit NID CODE            exit(CODE) at NID
 *   test_migrate spin NID                 print "# pid N", loop at NID
 *   test_migrate print NID                printf and write at NID: the output
 *                                         goes to this process's stdout/stderr
 *   test_migrate syscalls NID             calls refused at NID (read, open,
 *                                         kill, fork) and allowed ones
 *   test_migrate segv NID                 touch an address the origin has
 *                                         no VMA for, at NID (SIGSEGV)
 *   test_migrate signal NID               print "# pid N", wait at NID for
 *                                         SIGUSR1 (sent to the origin pid)
 *   test_migrate mapfile NID PATH         map PATH privately, read its first
 *                                         byte at NID: exit 0 when it is the
 *                                         origin's (a refused file: SIGSEGV)
 *   test_migrate writes NID               write() at NID as write(2) at the
 *                                         origin: /dev/null, a read-only
 *                                         descriptor (EBADF), a file from a
 *                                         buffer written at NID
 *
 * Except in "print", results found while the thread is away are kept
 * in memory and reported once it is back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

/* The large buffer, in MiB: 16 unless the command line says (debug kernels). */
static size_t big_mib = 16;

static volatile int global_counter = 7;

static struct popcorn_thread_status status_at(void)
{
	struct popcorn_thread_status st;

	memset(&st, 0xff, sizeof(st));
	popcorn_get_status(&st);
	return st;
}

/*
 * Migrate with live values in callee-saved registers, SSE registers,
 * MXCSR and the x87 stack, all set right before the system call and
 * read right after it, on the other node.
 */
struct regcheck {
	uint64_t gpr_in[4], gpr_out[4];
	double x_in[3], x_out[3];
	long double f_in, f_out;
	uint32_t mxcsr_in, mxcsr_out, mxcsr_default;
};

static long migrate_with_live_regs(int nid, struct regcheck *c)
{
	register uint64_t r12 asm("r12") = c->gpr_in[0];
	register uint64_t r13 asm("r13") = c->gpr_in[1];
	register uint64_t r14 asm("r14") = c->gpr_in[2];
	register uint64_t r15 asm("r15") = c->gpr_in[3];
	long ret;

	asm volatile("movsd 0(%[xi]), %%xmm0\n\t"
		     "movsd 8(%[xi]), %%xmm1\n\t"
		     "movsd 16(%[xi]), %%xmm7\n\t"
		     "fldt %[fi]\n\t"
		     "ldmxcsr %[mi]\n\t"
		     "syscall\n\t"
		     "stmxcsr %[mo]\n\t"
		     "ldmxcsr %[md]\n\t"
		     "fstpt %[fo]\n\t"
		     "movsd %%xmm0, 0(%[xo])\n\t"
		     "movsd %%xmm1, 8(%[xo])\n\t"
		     "movsd %%xmm7, 16(%[xo])\n\t"
		     : "=a"(ret), "+r"(r12), "+r"(r13), "+r"(r14), "+r"(r15),
		       [mo] "=m"(c->mxcsr_out), [fo] "=m"(c->f_out)
		     : "a"((long)POPCORN_SYS_MIGRATE), "D"((long)nid),
		       "S"(0L), [xi] "r"(c->x_in), [xo] "r"(c->x_out),
		       [mi] "m"(c->mxcsr_in), [md] "m"(c->mxcsr_default),
		       [fi] "m"(c->f_in)
		     : "rcx", "r11", "xmm0", "xmm1", "xmm7", "memory");
	c->gpr_out[0] = r12;
	c->gpr_out[1] = r13;
	c->gpr_out[2] = r14;
	c->gpr_out[3] = r15;
	return ret;
}

static int regs_ok(const struct regcheck *c)
{
	return !memcmp(c->gpr_in, c->gpr_out, sizeof(c->gpr_in)) &&
	       !memcmp(c->x_in, c->x_out, sizeof(c->x_in)) &&
	       c->f_in == c->f_out && c->mxcsr_in == c->mxcsr_out;
}

static void regs_fill(struct regcheck *c, int round)
{
	int i;

	for (i = 0; i < 4; i++)
		c->gpr_in[i] = 0x1234567800000000ull + round * 16 + i;
	c->x_in[0] = 3.25 * round;
	c->x_in[1] = -1.0 / (round + 3);
	c->x_in[2] = 1e300 / (round + 1);
	c->f_in = 1.0L / 3 + round;
	/* Round toward zero, all exceptions masked: not the default. */
	c->mxcsr_in = 0x7f80;
	c->mxcsr_default = 0x1f80;
}

static void expect_error(int ret, int err, const char *what)
{
	int e = errno;

	tap_check(ret == -1 && e == err, "%s: %s (got %d, errno %d)", what,
		  strerrorname_np(err), ret, e);
}

static uint64_t sum64(const uint64_t *p, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

static void record_nid(void *arg)
{
	*(int *)arg = popcorn_current_nid();
}

static void basic(int nid, int rounds, int via)
{
	struct popcorn_thread_status st;
	int origin_tid = popcorn_gettid(), i, bad_round = -1, n;
	int stack_arr[64], *heap = malloc(4096 * sizeof(int));
	struct regcheck rc;
	double fp = 1.5;
	long ret;

	st = status_at();
	tap_check(st.current_nid == 0 && st.peer_nid == 0 &&
		  st.peer_pid == origin_tid,
		  "status at the origin before migrating: 0/0/%d (got %d/%d/%d)",
		  origin_tid, st.current_nid, st.peer_nid, st.peer_pid);
	expect_error(popcorn_sys_migrate(0, NULL), EBUSY, "migrate to self");
	expect_error(popcorn_sys_migrate(32, NULL), EINVAL, "migrate to node 32");
	expect_error(popcorn_sys_migrate(-1, NULL), EINVAL, "migrate to node -1");
	expect_error(popcorn_sys_migrate(nid, (void *)8), EFAULT,
		     "migrate with a bad uregs");

	/* One trip, looking at the status on the other side. */
	ret = popcorn_migrate(nid);
	{
		struct popcorn_thread_status there = status_at();
		int tid_there = popcorn_gettid();

		ret |= popcorn_migrate(0);
		tap_check(ret == 0, "migrate to node %d and back returns 0",
			  nid);
		tap_check(there.current_nid == nid && there.peer_nid == 0 &&
			  there.peer_pid == origin_tid,
			  "status at node %d: %d/0/%d (got %d/%d/%d)", nid, nid,
			  origin_tid, there.current_nid, there.peer_nid,
			  there.peer_pid);
		/* The process's ids are the origin's, wherever it runs. */
		tap_check(tid_there == origin_tid,
			  "gettid() at node %d gives its origin tid %d (got %d)",
			  nid, origin_tid, tid_there);
	}
	st = status_at();
	tap_check(st.current_nid == 0 && st.peer_nid == 0 &&
		  st.peer_pid == origin_tid && popcorn_gettid() == origin_tid,
		  "status back at the origin: 0/0/%d, same tid (got %d/%d/%d)",
		  origin_tid, st.current_nid, st.peer_nid, st.peer_pid);

	/* popcorn-kernel-lib's migrate(): the callback runs after the move. */
	{
		int cb_nid = -1, local = 1234;

		migrate(nid, record_nid, &cb_nid);
		local += popcorn_current_nid();
		migrate(0, NULL, NULL);
		tap_check(cb_nid == nid && local == 1234 + nid &&
			  popcorn_current_nid() == 0,
			  "libpopcorn migrate(%d, callback): callback ran at node %d, C code went on there and back",
			  nid, cb_nid);
	}

	/* There and back, checking stack, heap, globals and registers. */
	for (i = 0; i < 64; i++)
		stack_arr[i] = i * 3;
	for (i = 0; i < 4096; i++)
		heap[i] = -i;
	for (n = 0; n < rounds && bad_round < 0; n++) {
		int here_ok;

		regs_fill(&rc, n);
		if (migrate_with_live_regs(nid, &rc) != 0 || !regs_ok(&rc)) {
			bad_round = n;
			break;
		}
		st = status_at();
		here_ok = st.current_nid == nid;
		for (i = 0; i < 64; i++)
			here_ok &= stack_arr[i] == i * 3 + n;
		here_ok &= heap[n % 4096] == -(n % 4096) &&
			   global_counter == 7 + n && fp == 1.5 + n;
		/* Change them there; the origin must see it. */
		for (i = 0; i < 64; i++)
			stack_arr[i]++;
		heap[n % 4096] = n;
		global_counter++;
		fp += 1.0;
		regs_fill(&rc, n + 1000);
		if (migrate_with_live_regs(0, &rc) != 0 || !regs_ok(&rc) ||
		    !here_ok || heap[n % 4096] != n ||
		    status_at().current_nid != 0) {
			bad_round = n;
			break;
		}
		heap[n % 4096] = -(n % 4096);
	}
	tap_check(bad_round < 0 && n == rounds,
		  "%d round trips to node %d: stack, heap, global, FP, callee-saved, SSE, MXCSR and x87 values kept (first bad round %d)",
		  rounds, nid, bad_round);
	tap_check(global_counter == 7 + rounds,
		  "global changed at the remote seen at the origin (%d)",
		  global_counter);

	/* big_mib MiB: written here, read and changed there, read here. */
	{
		uint64_t *big = malloc(big_mib << 20), sum_origin, sum_remote,
			 sum_changed, sum_back;
		size_t words = (big_mib << 20) / 8, k;

		for (k = 0; k < words; k++)
			big[k] = k * 2654435761u ^ 0x5a5a;
		sum_origin = sum64(big, words);
		ret = popcorn_migrate(nid);
		sum_remote = sum64(big, words);
		for (k = 0; k < words; k++)
			big[k] += k;
		sum_changed = sum64(big, words);
		ret |= popcorn_migrate(0);
		sum_back = sum64(big, words);
		tap_check(ret == 0 && sum_remote == sum_origin,
			  "%zu MiB written at the origin read at node %d (checksum %llx)",
			  big_mib, nid, (unsigned long long)sum_remote);
		tap_check(sum_back == sum_changed && sum_back != sum_origin,
			  "%zu MiB changed at node %d read back at the origin (checksum %llx)",
			  big_mib, nid, (unsigned long long)sum_back);
		free(big);
	}

	/* malloc, mmap and munmap at the remote. */
	{
		char *small[16], *large, *map;
		int ok = 1, gone = 0;

		ret = popcorn_migrate(nid);
		for (i = 0; i < 16; i++) {
			small[i] = malloc(100 + i * 50);
			if (small[i])
				memset(small[i], 'a' + i, 100);
			else
				ok = 0;
		}
		large = malloc(1 << 20);	/* above the mmap threshold */
		if (large)
			memset(large, 'L', 1 << 20);
		map = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map != MAP_FAILED) {
			memset(map, 'M', 65536);
			ok &= map[65535] == 'M';
			gone = munmap(map, 65536) == 0;
		}
		ret |= popcorn_migrate(0);
		tap_check(ret == 0 && ok && large && map != MAP_FAILED,
			  "malloc and mmap at node %d", nid);
		for (i = 0; i < 16 && ok; i++)
			ok = small[i][0] == 'a' + i && small[i][99] == 'a' + i;
		tap_check(ok, "small blocks malloc'ed at node %d hold their data at the origin",
			  nid);
		tap_check(large && large[0] == 'L' && large[(1 << 20) - 1] == 'L',
			  "a 1 MiB block malloc'ed at node %d holds its data at the origin",
			  nid);
		tap_check(gone && msync(map, 4096, 0) == -1 && errno == ENOMEM,
			  "munmap at node %d unmapped the range at the origin",
			  nid);
		for (i = 0; i < 16; i++)
			free(small[i]);
		free(large);
	}

	if (via >= 0) {
		struct popcorn_thread_status s1, s2;

		ret = popcorn_migrate(nid);
		s1 = status_at();
		ret |= popcorn_migrate(via);
		s2 = status_at();
		global_counter++;
		ret |= popcorn_migrate(0);
		tap_check(ret == 0 && s1.current_nid == nid &&
			  s2.current_nid == via && s2.peer_nid == 0 &&
			  s2.peer_pid == origin_tid &&
			  global_counter == 8 + rounds,
			  "node %d -> node %d (through the origin) -> back: status %d then %d/%d/%d",
			  nid, via, s1.current_nid, s2.current_nid, s2.peer_nid,
			  s2.peer_pid);
	}
	free(heap);
}

static volatile sig_atomic_t got_signal;
static volatile int handler_nid = -1;

/*
 * System calls at a remote: files, signals and children are the
 * origin's (made there by the shadow), a few calls are refused, the
 * rest work where the thread runs.
 */
static void remote_syscalls(int nid)
{
	struct timespec nap = { 0, 1000000 };
	int there, e_ldt, pid_there, status = -1;
	int r_read = -1, r_open, r_kill, r_yield, r_sleep, r_ldt;
	pid_t r_fork, r_wait = -1;
	char buf[8] = "";

	if (popcorn_migrate(nid))
		return;
	there = popcorn_current_nid();
	r_open = open("/proc/self/status", O_RDONLY);
	if (r_open >= 0) {
		r_read = read(r_open, buf, 5);
		close(r_open);
	}
	r_kill = kill(getpid(), 0);
	r_fork = fork();
	if (!r_fork)
		_exit(popcorn_current_nid() == 0 ? 3 : 4);
	if (r_fork > 0)
		r_wait = waitpid(r_fork, &status, 0);
	r_ldt = syscall(SYS_modify_ldt, 0, buf, sizeof(buf));
	e_ldt = errno;
	pid_there = getpid();
	r_yield = sched_yield();
	r_sleep = nanosleep(&nap, NULL);
	popcorn_migrate(0);
	tap_check(there == nid, "syscalls: ran at node %d", there);
	tap_check(r_open >= 0 && r_read == 5 && !memcmp(buf, "Name:", 5),
		  "open() and read() at a remote, made at the origin (%d, %d)",
		  r_open, r_read);
	tap_check(r_kill == 0, "kill(getpid(), 0) at a remote (%d)", r_kill);
	tap_check(r_fork > 0 && r_wait == r_fork && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 3,
		  "fork() at a remote: the child runs at the origin, waitpid() gets it (%d, %d)",
		  r_fork, r_wait);
	tap_check(r_ldt == -1 && e_ldt == EOPNOTSUPP,
		  "modify_ldt() at a remote: EOPNOTSUPP (%d, errno %d)", r_ldt, e_ldt);
	tap_check(pid_there == getpid(),
		  "getpid() at a remote is the process id at the origin (%d, %d)",
		  pid_there, getpid());
	tap_check(!r_yield && !r_sleep,
		  "sched_yield() and nanosleep() work at a remote (%d, %d)",
		  r_yield, r_sleep);
}

/* write() at a remote behaves as write(2) at the origin. */
static void remote_writes(int nid)
{
	int devnull = open("/dev/null", O_WRONLY);
	int ro = open("/proc/version", O_RDONLY);
	int out = open("/tmp/test_migrate.writes", O_RDWR | O_CREAT | O_TRUNC,
		       0600);
	static char buf[3 * 4096];
	ssize_t r_null, r_ro, r_out;
	int e_ro, there, ret, ok;
	size_t i;
	char back[sizeof(buf)];

	if (devnull < 0 || ro < 0 || out < 0) {
		tap_check(0, "writes: open the test files (%s)", strerror(errno));
		return;
	}
	ret = popcorn_migrate(nid);
	there = popcorn_current_nid();
	/* Written here: the pages are this node's when write() runs. */
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = 'a' + (i * 7 + nid) % 26;
	r_null = write(devnull, buf, 100);
	r_ro = write(ro, buf, 1);
	e_ro = errno;
	r_out = write(out, buf, sizeof(buf));
	ret |= popcorn_migrate(0);
	tap_check(!ret && there == nid, "writes: went to node %d and back", nid);
	tap_check(r_null == 100,
		  "writes: write() at node %d to /dev/null (a character device with ->write and ->write_iter) returns 100 (%zd)",
		  nid, r_null);
	tap_check(r_ro == -1 && e_ro == EBADF,
		  "writes: write() at node %d to a read-only descriptor: EBADF (%zd, errno %d)",
		  nid, r_ro, e_ro);
	ok = r_out == (ssize_t)sizeof(buf) &&
	     pread(out, back, sizeof(back), 0) == (ssize_t)sizeof(back) &&
	     !memcmp(back, buf, sizeof(buf));
	tap_check(ok, "writes: %zu bytes written at node %d from its own pages reach the file intact (%zd)",
		  sizeof(buf), nid, r_out);
	close(devnull);
	close(ro);
	close(out);
}

static void on_usr1(int sig)
{
	got_signal = sig;
	handler_nid = popcorn_current_nid();
}

/* The handler must run at the remote, while the thread is there. */
static void wait_signal(int nid)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct timespec t0, t;
	int there, ret;

	sigaction(SIGUSR1, &sa, NULL);
	printf("# pid %d\n", getpid());
	fflush(stdout);
	ret = popcorn_migrate(nid);
	there = popcorn_current_nid();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!got_signal && t.tv_sec - t0.tv_sec < 60);
	ret |= popcorn_migrate(0);
	tap_check(ret == 0 && there == nid && got_signal == SIGUSR1 &&
		  handler_nid == nid,
		  "SIGUSR1 sent to the origin pid runs its handler at node %d (handler ran at %d)",
		  nid, handler_nid);
}

int main(int argc, char **argv)
{
	int nid;

	if (argc < 3) {
		fprintf(stderr, "usage: %s basic|offline|exit|spin NID ...\n",
			argv[0]);
		return 2;
	}
	nid = atoi(argv[2]);
	if (!strcmp(argv[1], "basic") && argc >= 4) {
		if (argc > 5 && atoi(argv[5]) > 0)
			big_mib = atoi(argv[5]);
		basic(nid, atoi(argv[3]), argc > 4 ? atoi(argv[4]) : -1);
	} else if (!strcmp(argv[1], "offline")) {
		expect_error(popcorn_sys_migrate(nid, NULL), EAGAIN,
			     "migrate to an offline node");
	} else if (!strcmp(argv[1], "exit") && argc == 4) {
		if (popcorn_migrate(nid))
			return 100;
		exit(atoi(argv[3]));
	} else if (!strcmp(argv[1], "signal")) {
		wait_signal(nid);
	} else if (!strcmp(argv[1], "print")) {
		int r, e, there;

		printf("line 1 from node %d\n", popcorn_current_nid());
		fflush(stdout);
		if (popcorn_migrate(nid))
			return 100;
		there = popcorn_current_nid();
		printf("line 2 from node %d\n", there);
		fflush(stdout);
		fprintf(stderr, "stderr from node %d\n", there);
		r = write(99, "x", 1);
		e = errno;
		popcorn_migrate(0);
		printf("line 3 from node %d\n", popcorn_current_nid());
		tap_check(there == nid && r == -1 && e == EBADF,
			  "write() at node %d to a descriptor the origin does not have: EBADF (%d, errno %d)",
			  nid, r, e);
	} else if (!strcmp(argv[1], "syscalls")) {
		remote_syscalls(nid);
	} else if (!strcmp(argv[1], "writes")) {
		remote_writes(nid);
	} else if (!strcmp(argv[1], "mapfile") && argc == 4) {
		int fd = open(argv[3], O_RDONLY);
		volatile char *p;
		char here, there;

		p = fd < 0 ? MAP_FAILED :
		    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			return 100;
		here = p[0];
		/* Not yet touched at NID: its VMA is fetched there. */
		if (popcorn_migrate(nid))
			return 100;
		there = p[0];
		popcorn_migrate(0);
		return there == here ? 0 : 102;
	} else if (!strcmp(argv[1], "segv")) {
		if (popcorn_migrate(nid))
			return 100;
		/* Far from any mapping of this process. */
		global_counter = *(volatile int *)0x7e0000000000ul;
		return 101;
	} else if (!strcmp(argv[1], "spin")) {
		printf("# pid %d\n", getpid());
		fflush(stdout);
		if (popcorn_migrate(nid))
			return 100;
		for (;;)
			global_counter++;
	} else {
		return 2;
	}
	return tap_failed ? 1 : 0;
}
