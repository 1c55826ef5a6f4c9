// SPDX-License-Identifier: GPL-2.0
/*
 * System calls of a migrated thread: what a program that
 * migrates may call, checked at the remote against the origin's view.
 *
 *   plib_sys NID          the checks; run at the origin, node 0
 *   plib_sys NID exec     execve() at NID: the new program runs at home
 *   plib_sys NID intr     blocks at NID in a read() made at the origin
 *                         until a signal sent at NID (by the harness)
 *                         ends it
 *
 * Written against the popcorn-kernel-lib API (migrate.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#include "migrate.h"
#include "tap.h"

static int nid;
static char path[64];
static int to_origin[2], to_remote[2];
static volatile int handler_nid = -1, handler_sig;
static sigjmp_buf recover;
/* Unmapped: a store there faults (volatile: the compiler cannot see it). */
static volatile unsigned long bad_addr = 16;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* At the origin: answer each line of the remote with "pong". */
static void *origin_peer(void *arg)
{
	char buf[16];
	ssize_t n;

	(void)arg;
	n = read(to_origin[0], buf, sizeof(buf));
	if (n == 4 && !memcmp(buf, "ping", 4) && popcorn_current_nid() == 0)
		write(to_remote[1], "pong", 4);
	else
		write(to_remote[1], "bad!", 4);
	/* Later, for poll: one byte after a while. */
	usleep(700 * 1000);
	write(to_remote[1], "x", 1);
	return NULL;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	handler_sig = sig;
	handler_nid = popcorn_current_nid();
}

static void on_segv(int sig)
{
	handler_sig = sig;
	handler_nid = popcorn_current_nid();
	siglongjmp(recover, 1);
}

/* Signal state set at one end, seen at the other. */
static char stack_a[65536], stack_b[65536];
static volatile int fpe_nid = -1, fpe_on_stack = -1, zero, one = 1;

static void on_fpe(int sig)
{
	char here;

	(void)sig;
	fpe_nid = popcorn_current_nid();
	fpe_on_stack = &here >= stack_a && &here < stack_a + sizeof(stack_a);
	siglongjmp(recover, 1);
}

/* At the origin, before leaving. */
static void set_signal_state(void)
{
	struct sigaction fpe = { .sa_handler = on_fpe,
				 .sa_flags = SA_ONSTACK | SA_NODEFER };
	stack_t ss = { .ss_sp = stack_a, .ss_size = sizeof(stack_a) };
	sigset_t set;

	sigemptyset(&fpe.sa_mask);
	sigaction(SIGFPE, &fpe, NULL);
	sigaltstack(&ss, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* At the remote: what the origin set came along. */
static void check_signal_state(void)
{
	stack_t ss;
	sigset_t set;
	volatile int q = 0;

	tap_check(sigaltstack(NULL, &ss) == 0 && ss.ss_sp == stack_a &&
		  ss.ss_size == sizeof(stack_a),
		  "the alternate stack set at the origin is the thread's at node %d", nid);
	tap_check(sigprocmask(SIG_BLOCK, NULL, &set) == 0 &&
		  sigismember(&set, SIGWINCH) && !sigismember(&set, SIGURG),
		  "the signal mask set at the origin is the thread's at node %d", nid);
	if (!sigsetjmp(recover, 1))
		q = one / zero;	/* 1 / x would be folded to a compare */
	tap_check(!q && fpe_nid == nid && fpe_on_stack == 1,
		  "SIGFPE at node %d: the handler installed at the origin ran there, on its alternate stack (at %d, on stack %d)",
		  nid, fpe_nid, fpe_on_stack);
	/* Changed here, for the way back. */
	ss.ss_sp = stack_b;
	ss.ss_size = sizeof(stack_b);
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGURG);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Back at the origin. */
static void check_signal_state_back(void)
{
	stack_t ss;
	sigset_t set;

	tap_check(sigaltstack(NULL, &ss) == 0 && ss.ss_sp == stack_b,
		  "the alternate stack set at node %d is the thread's back home", nid);
	tap_check(sigprocmask(SIG_BLOCK, NULL, &set) == 0 &&
		  sigismember(&set, SIGWINCH) && sigismember(&set, SIGURG),
		  "the signal mask set at node %d is the thread's back home", nid);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void *child_thread(void *arg)
{
	*(int *)arg = popcorn_current_nid();
	return (void *)42L;
}

static void check_files(void)
{
	char buf[64] = "";
	struct stat st;
	int fd, ok;

	fd = open(path, O_RDWR);
	tap_check(fd >= 0, "open() at node %d of a file only the origin has: %s",
		  nid, fd >= 0 ? "ok" : strerror(errno));
	if (fd < 0)
		return;
	ok = read(fd, buf, 5) == 5 && !memcmp(buf, "hello", 5);
	tap_check(ok, "read() at node %d gives the origin's data", nid);
	tap_check(lseek(fd, 0, SEEK_END) == 13, "lseek(SEEK_END) at node %d", nid);
	tap_check(write(fd, "remote\n", 7) == 7, "write() at node %d", nid);
	tap_check(fstat(fd, &st) == 0 && st.st_size == 20,
		  "fstat() at node %d sees 20 bytes (%lld)", nid,
		  (long long)st.st_size);
	tap_check(close(fd) == 0 && close(fd) == -1 && errno == EBADF,
		  "close() at node %d, then EBADF", nid);
}

static void check_ids(pid_t pid, pid_t tid, pid_t ppid, uid_t uid)
{
	int r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);

	/* Made at the origin, strict mode would kill the shadow. */
	tap_check(r == -1 && errno == EOPNOTSUPP,
		  "prctl(PR_SET_SECCOMP) at node %d: EOPNOTSUPP (%d, errno %d)",
		  nid, r, errno);
	tap_check(getpid() == pid && syscall(SYS_gettid) == tid,
		  "getpid()/gettid() at node %d are the origin's %d/%d", nid,
		  pid, tid);
	tap_check(getppid() == ppid, "getppid() at node %d is the origin's %d",
		  nid, ppid);
	tap_check(getuid() == uid && geteuid() == uid,
		  "getuid() at node %d is %d", nid, uid);
}

static void check_pipes(void)
{
	char buf[64] = "";
	struct pollfd pfd;
	double t;
	FILE *w, *r;
	int p[2], n;

	tap_check(write(to_origin[1], "ping", 4) == 4 &&
		  read(to_remote[0], buf, 4) == 4 && !memcmp(buf, "pong", 4),
		  "pipe with a thread at the origin: ping at node %d, pong back",
		  nid);

	pfd.fd = to_remote[0];
	pfd.events = POLLIN;
	t = now_ms();
	n = poll(&pfd, 1, 200);
	t = now_ms() - t;
	tap_check(n == 0 && t >= 190, "poll() with a 200 ms timeout at node %d: %d after %.0f ms",
		  nid, n, t);
	n = poll(&pfd, 1, 5000);
	tap_check(n == 1 && (pfd.revents & POLLIN) && read(to_remote[0], buf, 1) == 1,
		  "poll() at node %d wakes when the origin thread writes", nid);

	if (pipe(p)) {
		tap_check(0, "pipe() at node %d: %s", nid, strerror(errno));
		return;
	}
	w = fdopen(p[1], "w");
	r = fdopen(p[0], "r");
	if (w && r) {
		fprintf(w, "line %d from node %d\n", 42, nid);
		fclose(w);
	}
	snprintf(buf, sizeof(buf), "line 42 from node %d\n", nid);
	{
		char got[64] = "";

		tap_check(r && fgets(got, sizeof(got), r) && !strcmp(got, buf) &&
			  !fgets(got, sizeof(got), r),
			  "fprintf() and fgets() on a pipe made at node %d, then EOF", nid);
	}
	if (r)
		fclose(r);
}

/* Sockets, epoll and select at a remote: made at the origin. */
static void check_sockets(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct timeval tv = { 0, 100 * 1000 };
	char buf[16] = "";
	int sv[2], ep, n;
	fd_set rd;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		tap_check(0, "socketpair() at node %d: %s", nid, strerror(errno));
		return;
	}
	tap_check(send(sv[0], "sock", 4, 0) == 4 && recv(sv[1], buf, 4, 0) == 4 &&
		  !memcmp(buf, "sock", 4),
		  "socketpair(), send() and recv() at node %d", nid);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = sv[1];
	n = ep >= 0 && !epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev) ?
	    epoll_wait(ep, &out, 1, 100) : -2;
	tap_check(n == 0, "epoll_wait() with a 100 ms timeout at node %d: %d", nid, n);
	send(sv[0], "x", 1, 0);
	n = epoll_wait(ep, &out, 1, 5000);
	tap_check(n == 1 && out.data.fd == sv[1],
		  "epoll_wait() at node %d wakes on data (%d)", nid, n);
	FD_ZERO(&rd);
	FD_SET(sv[1], &rd);
	n = select(sv[1] + 1, &rd, NULL, NULL, &tv);
	tap_check(n == 1 && FD_ISSET(sv[1], &rd), "select() at node %d (%d)", nid, n);
	close(ep);
	close(sv[0]);
	close(sv[1]);
}

static void check_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	struct sigaction segv = { .sa_handler = on_segv, .sa_flags = SA_NODEFER };
	char buf[8];
	ssize_t n;
	int e;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&segv.sa_mask);
	handler_nid = -1;
	n = sigaction(SIGUSR1, &sa, NULL) == 0 && raise(SIGUSR1) == 0;
	tap_check(n && handler_sig == SIGUSR1 && handler_nid == nid,
		  "raise(SIGUSR1) at node %d: the handler ran there (at %d)", nid,
		  handler_nid);

	handler_nid = -1;
	handler_sig = 0;
	sigaction(SIGSEGV, &segv, NULL);
	if (!sigsetjmp(recover, 1))
		*(volatile int *)bad_addr = 1;
	tap_check(handler_sig == SIGSEGV && handler_nid == nid &&
		  popcorn_current_nid() == nid,
		  "SIGSEGV at node %d: handler ran there, siglongjmp recovered", nid);

	/* A blocking read at the origin, ended by a signal: EINTR. */
	handler_nid = -1;
	sigaction(SIGUSR2, &sa, NULL);	/* no SA_RESTART */
	{
		pid_t tid = syscall(SYS_gettid), pid = getpid();

		if (fork() == 0) {	/* made at the origin */
			usleep(500 * 1000);
			syscall(SYS_tgkill, pid, tid, SIGUSR2);
			_exit(0);
		}
	}
	n = read(to_remote[0], buf, 1);
	e = errno;
	tap_check(n == -1 && e == EINTR && handler_sig == SIGUSR2 &&
		  handler_nid == nid,
		  "read() blocked at the origin, signalled: EINTR at node %d, handler ran there (%zd, errno %d, signal %d at %d)",
		  nid, n, e, handler_sig, handler_nid);
	while (waitpid(-1, NULL, 0) > 0)
		;
}

static void check_children(void)
{
	pthread_t t[16];
	void *ret = NULL;
	int where[16], status = 0, made = 1, i, first_bad = -1;
	pid_t pid;

	/* Each records where its first line of code runs. */
	for (i = 0; i < 16; i++) {
		where[i] = -2;
		made &= pthread_create(&t[i], NULL, child_thread, &where[i]) == 0;
	}
	for (i = 0; i < 16; i++) {
		made &= pthread_join(t[i], &ret) == 0 && ret == (void *)42L;
		if (where[i] != nid && first_bad < 0)
			first_bad = i;
	}
	tap_check(made && first_bad < 0,
		  "pthread_create() at node %d, 16 times: each thread's first code ran there (thread %d at node %d), joined",
		  nid, first_bad, first_bad < 0 ? nid : where[first_bad]);
	{
		FILE *p = popen("echo popen-ok", "r");
		char line[32] = "";

		made = p && fgets(line, sizeof(line), p) != NULL;
		tap_check(made && !strcmp(line, "popen-ok\n") && pclose(p) == 0,
			  "popen() at node %d: a shell ran at the origin (%s)", nid,
			  made ? line : "no line");
	}
	pid = fork();
	if (pid == 0)
		_exit(popcorn_current_nid() == 0 ? 7 : 8);
	made = pid > 0 && waitpid(pid, &status, 0) == pid;
	tap_check(made && WIFEXITED(status) && WEXITSTATUS(status) == 7,
		  "fork() and waitpid() at node %d: the child ran at the origin (status %d)",
		  nid, WEXITSTATUS(status));
}

static volatile pid_t mask_tid;
static volatile int mask_phase;
static int mask_pipe[2];

/* Phase @phase began: wait for the thread to be in its call, signal it. */
static void mask_kick_one(int phase, int sig)
{
	while (mask_phase != phase)
		usleep(1000);
	usleep(300000);
	syscall(SYS_tgkill, getpid(), mask_tid, sig);
}

/* At the origin: signal the remote thread (by its tid here), write... */
static void *mask_kick(void *arg)
{
	mask_kick_one(1, SIGUSR1);
	usleep(300000);
	if (write(mask_pipe[1], "x", 1) != 1)
		return arg;
	mask_kick_one(2, SIGUSR1);
	mask_kick_one(3, SIGUSR2);
	return NULL;
}

/*
 * A signal the thread blocks at the remote does not end the call its
 * shadow makes for it: the shadow makes it with the thread's mask.
 */
static int check_mask(void)
{
	struct sigaction sa = { .sa_sigaction = on_signal,
				.sa_flags = SA_SIGINFO };
	pthread_t kicker;
	sigset_t set;
	ssize_t n;
	char c;
	int i;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigaction(SIGUSR1, &sa, NULL) || pipe(mask_pipe) ||
	    pthread_create(&kicker, NULL, mask_kick, NULL) ||
	    migrate(nid, NULL, NULL))
		return 2;
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	handler_sig = 0;
	mask_tid = syscall(SYS_gettid);
	mask_phase = 1;
	n = read(mask_pipe[0], &c, 1);
	tap_check(n == 1 && handler_sig == 0,
		  "SIGUSR1 blocked at node %d and sent at the origin: the read() made there goes on and gets its byte (%zd, errno %d)",
		  nid, n, n < 0 ? errno : 0);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	for (i = 0; i < 2000 && !handler_sig; i++)
		usleep(1000);
	tap_check(handler_sig == SIGUSR1 && handler_nid == nid,
		  "unblocked, the handler runs at node %d (signal %d, at %d)",
		  nid, handler_sig, handler_nid);

	/* ppoll() with a mask of its own that lets SIGUSR1 in. */
	{
		struct pollfd pfd = { .fd = mask_pipe[0], .events = POLLIN };
		struct timespec ts = { .tv_sec = 20 };
		sigset_t during, after;
		int r;

		pthread_sigmask(SIG_BLOCK, &set, NULL);
		sigemptyset(&during);
		handler_sig = 0;
		mask_phase = 2;
		r = ppoll(&pfd, 1, &ts, &during);
		n = r < 0 ? errno : 0;
		pthread_sigmask(SIG_BLOCK, NULL, &after);
		tap_check(r == -1 && n == EINTR && handler_sig == SIGUSR1 &&
			  handler_nid == nid && sigismember(&after, SIGUSR1),
			  "ppoll() at node %d with a mask that lets SIGUSR1 in: EINTR, handler ran there, SIGUSR1 blocked again after (%d, errno %d, signal %d at %d)",
			  nid, r, (int)n, handler_sig, handler_nid);
	}

	/* Blocked here and sent to it: still pending when it is home. */
	{
		struct sigaction sa2 = { .sa_sigaction = on_signal,
					 .sa_flags = SA_SIGINFO };
		struct timespec ts = { .tv_nsec = 100000000 };
		sigset_t set2, pend;

		sigemptyset(&sa2.sa_mask);
		sigaction(SIGUSR2, &sa2, NULL);
		sigemptyset(&set2);
		sigaddset(&set2, SIGUSR2);
		pthread_sigmask(SIG_BLOCK, &set2, NULL);
		handler_sig = 0;
		mask_phase = 3;
		for (i = 0; i < 10; i++)
			nanosleep(&ts, NULL);
		migrate(0, NULL, NULL);
		sigpending(&pend);
		pthread_sigmask(SIG_UNBLOCK, &set2, NULL);
		tap_check(sigismember(&pend, SIGUSR2) && handler_sig == SIGUSR2 &&
			  handler_nid == 0,
			  "SIGUSR2 blocked at node %d and sent: pending at the origin once home, handled there (signal %d at %d)",
			  nid, handler_sig, handler_nid);
	}
	if (popcorn_current_nid() != 0)
		migrate(0, NULL, NULL);
	pthread_join(kicker, NULL);
	return tap_failed;
}

int main(int argc, char *argv[])
{
	pid_t pid = getpid(), tid = syscall(SYS_gettid), ppid = getppid();
	pthread_t peer;
	char buf[64] = "";
	int fd, ret;

	if (argc < 2)
		return 2;
	nid = atoi(argv[1]);
	if (argc > 2 && !strcmp(argv[2], "exec")) {
		ret = migrate(nid, NULL, NULL);
		execl("/proc/self/exe", argv[0], argv[1], "after-exec", NULL);
		tap_check(0, "execl() at node %d (%d): %s", nid, ret, strerror(errno));
		return 1;
	}
	if (argc > 2 && !strcmp(argv[2], "setuid")) {
		/* Root becomes uid 1000 at a remote: its credentials follow. */
		int fd;

		snprintf(path, sizeof(path), "/tmp/plib_sys_root.%d", pid);
		fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
		if (fd < 0 || close(fd) || migrate(nid, NULL, NULL))
			return 2;
		ret = setgroups(0, NULL) || setgid(1000) || setuid(1000);
		tap_check(!ret && getuid() == 1000 && geteuid() == 1000 &&
			  getgid() == 1000,
			  "setuid(1000) at node %d: made at the origin, the ids here follow (%d/%d)",
			  nid, getuid(), getgid());
		fd = open(path, O_RDONLY);
		tap_check(fd == -1 && errno == EACCES,
			  "then a root-only file of the origin is refused at node %d (%d, errno %d)",
			  nid, fd, errno);
		ret = migrate(0, NULL, NULL);
		tap_check(!ret && getuid() == 1000 && geteuid() == 1000,
			  "uid 1000 back home (%d)", getuid());
		return tap_failed;
	}
	if (argc > 2 && !strcmp(argv[2], "mask"))
		return check_mask();
	if (argc > 2 && !strcmp(argv[2], "groups")) {
		/* More groups than a remote takes: the thread comes home. */
		gid_t groups[40];
		int i, n;

		for (i = 0; i < 40; i++)
			groups[i] = 2000 + i;
		if (migrate(nid, NULL, NULL))
			return 2;
		ret = setgroups(40, groups);
		n = getgroups(0, NULL);
		tap_check(ret == 0 && popcorn_current_nid() == 0 && n == 40,
			  "setgroups() of 40 groups at node %d: made, and the thread came home with them (%d, at %d, %d groups)",
			  nid, ret, popcorn_current_nid(), n);
		ret = migrate(nid, NULL, NULL);
		tap_check(ret == EPERM && popcorn_current_nid() == 0,
			  "and it cannot migrate with them: EPERM (%d)", ret);
		return tap_failed;
	}
	if (argc > 2 && !strcmp(argv[2], "intr")) {
		struct sigaction sa = { .sa_sigaction = on_signal,
					.sa_flags = SA_SIGINFO };
		char c;
		ssize_t n;
		int p[2];

		sigemptyset(&sa.sa_mask);
		if (pipe(p) || sigaction(SIGUSR1, &sa, NULL) ||
		    migrate(nid, NULL, NULL))
			return 2;
		printf("# blocking in read() at node %d\n", nid);
		fflush(stdout);
		n = read(p[0], &c, 1);
		tap_check(n == -1 && errno == EINTR && handler_sig == SIGUSR1 &&
			  handler_nid == nid,
			  "read() made at the origin, a signal sent at node %d: EINTR, handler ran there (%zd, at %d)",
			  nid, n, handler_nid);
		migrate(0, NULL, NULL);
		return tap_failed;
	}
	if (argc > 2 && !strcmp(argv[2], "after-exec")) {
		tap_check(popcorn_current_nid() == 0 && getpid() == pid,
			  "execve() at node %d: the new program runs at the origin, same pid %d",
			  nid, pid);
		return tap_failed;
	}

	snprintf(path, sizeof(path), "/tmp/plib_sys.%d", pid);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || write(fd, "hello origin\n", 13) != 13 || close(fd))
		return 2;
	if (pipe(to_origin) || pipe(to_remote) ||
	    pthread_create(&peer, NULL, origin_peer, NULL))
		return 2;

	set_signal_state();
	ret = migrate(nid, NULL, NULL);
	tap_check(ret == 0 && popcorn_current_nid() == nid, "at node %d", nid);
	check_signal_state();
	check_files();
	check_ids(pid, tid, ppid, getuid());
	check_pipes();
	check_sockets();
	check_signals();
	check_children();
	ret = migrate(0, NULL, NULL);
	tap_check(ret == 0 && popcorn_current_nid() == 0, "back at node 0");
	check_signal_state_back();

	fd = open(path, O_RDONLY);
	tap_check(fd >= 0 && read(fd, buf, sizeof(buf)) == 20 &&
		  !memcmp(buf, "hello origin\nremote\n", 20),
		  "the file written at node %d, read at the origin", nid);
	close(fd);
	unlink(path);
	pthread_join(peer, NULL);
	return tap_failed ? 1 : 0;
}
