// SPDX-License-Identifier: GPL-2.0
/*
 * Guest test: the 32-bit system-call entry (int $0x80) of a migrated
 * thread is filtered like the 64-bit one.  Run at the origin:
 *
 *   test_int80 NID
 *
 * At the origin, int $0x80 open() and getuid32() work; at NID the same
 * open() and kill() fail with EOPNOTSUPP, getpid() gives the origin's
 * pid and getuid32() the thread's uid.  Needs a kernel with
 * IA32_EMULATION (without it int $0x80 is a fault, reported as such).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

/* i386 system-call numbers (arch/x86/entry/syscalls/syscall_32.tbl). */
#define NR32_OPEN	5
#define NR32_CLOSE	6
#define NR32_GETPID	20
#define NR32_KILL	37
#define NR32_GETUID32	199

/* Pointers passed to int $0x80 are truncated to 32 bits: a static. */
static char root_dir[] = "/";
static sigjmp_buf no_int80;

static long int80(long nr, long a, long b)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a"(ret)
		     : "a"(nr), "b"(a), "c"(b), "d"(0L)
		     : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

static void on_segv(int sig __attribute__((unused)))
{
	siglongjmp(no_int80, 1);
}

int main(int argc, char **argv)
{
	long o_open, o_uid, r_open, r_kill, r_pid, r_uid;
	int nid, there, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: test_int80 NID\n");
		return 2;
	}
	nid = atoi(argv[1]);
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(no_int80, 1)) {
		tap_check(0, "int80: int $0x80 works at the origin (the kernel has no IA32 emulation)");
		return 1;
	}
	o_open = int80(NR32_OPEN, (long)root_dir, O_RDONLY);
	if (o_open >= 0)
		int80(NR32_CLOSE, o_open, 0);
	o_uid = int80(NR32_GETUID32, 0, 0);
	tap_check(o_open >= 0 && o_uid == getuid(),
		  "int80: open() and getuid32() by int $0x80 at the origin (%ld, %ld)",
		  o_open, o_uid);

	ret = popcorn_migrate(nid);
	there = popcorn_current_nid();
	r_open = int80(NR32_OPEN, (long)root_dir, O_RDONLY);
	r_kill = int80(NR32_KILL, getpid(), 0);
	r_pid = int80(NR32_GETPID, 0, 0);
	r_uid = int80(NR32_GETUID32, 0, 0);
	ret |= popcorn_migrate(0);
	tap_check(!ret && there == nid, "int80: went to node %d and back", nid);
	tap_check(r_open == -EOPNOTSUPP,
		  "int80: open() by int $0x80 at node %d: EOPNOTSUPP (%ld)", nid,
		  r_open);
	tap_check(r_kill == -EOPNOTSUPP,
		  "int80: kill() by int $0x80 at node %d: EOPNOTSUPP (%ld)", nid,
		  r_kill);
	tap_check(r_pid == getpid(),
		  "int80: getpid() by int $0x80 at node %d is the origin's pid (%ld, %d)",
		  nid, r_pid, getpid());
	tap_check(r_uid == getuid(),
		  "int80: getuid32() by int $0x80 at node %d (%ld)", nid, r_uid);
	return tap_failed ? 1 : 0;
}
