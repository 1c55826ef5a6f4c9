// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the classes of system calls of a migrated thread
 * (remote_syscalls.c) and for the check a shadow makes on a SYSCALL
 * message before it makes the call (syscall_forward.c): a peer may ask
 * the shadow only for a call a thread of its own would have forwarded.
 */
#include <kunit/test.h>
#include <linux/overflow.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <asm/unistd.h>

#include "messages.h"
#include "syscall_forward.h"

static void pcn_syscall_classes(struct kunit *test)
{
	unsigned int nr;

	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_openat), PCN_SYS_FORWARD);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_read), PCN_SYS_FORWARD);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_clone), PCN_SYS_FORWARD);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_kill), PCN_SYS_FORWARD);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_prctl), PCN_SYS_FORWARD);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_clock_gettime),
			PCN_SYS_LOCAL);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_futex), PCN_SYS_LOCAL);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_exit_group),
			PCN_SYS_LOCAL);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_rt_sigreturn),
			PCN_SYS_LOCAL);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_sched_setaffinity),
			PCN_SYS_SELF);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_getpid), PCN_SYS_GETPID);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_gettid), PCN_SYS_GETTID);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_execve), PCN_SYS_HOME);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_io_uring_setup),
			PCN_SYS_REFUSED);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(__NR_seccomp),
			PCN_SYS_REFUSED);
	for (nr = 451; nr <= 453; nr++)
		KUNIT_EXPECT_EQ_MSG(test, pcn_syscall_class(nr), PCN_SYS_LOCAL,
				    "Popcorn call %u", nr);
	/* A proposal for another thread names it by its tid at the origin. */
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(454), PCN_SYS_SELF);
	/* A placement policy is the process's, at the origin. */
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(455), PCN_SYS_FORWARD);
	/* Past the table, x32 numbers, -1 as unsigned. */
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(NR_syscalls), PCN_SYS_REFUSED);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(512 + 1), PCN_SYS_REFUSED);
	KUNIT_EXPECT_EQ(test, pcn_syscall_class(~0u), PCN_SYS_REFUSED);
}

static struct pcn_syscall_msg *msg(struct kunit *test, unsigned int nr)
{
	struct pcn_syscall_msg *m;

	m = kunit_kzalloc(test, struct_size(m, regs, 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	m->hdr.size = sizeof(*m);
	m->nr = nr;
	return m;
}

/* Only forwarded calls, with their arguments as a thread sends them. */
static void pcn_syscall_msg_checks(struct kunit *test)
{
	static const unsigned int never[] = {
		__NR_getpid, __NR_gettid, __NR_exit, __NR_exit_group,
		__NR_rt_sigreturn, __NR_execve, __NR_execveat,
		__NR_io_uring_enter, __NR_userfaultfd, __NR_iopl, __NR_futex,
		__NR_mmap, __NR_write, 451, 452, 453, 454, NR_syscalls,
		512 + 1, ~0u,
	};
	struct pcn_syscall_msg *m;
	unsigned int i;

	m = msg(test, __NR_openat);
	KUNIT_EXPECT_TRUE(test, pcn_syscall_msg_ok(m));
	m->flags = 0x80;
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m), "unknown flag");
	m->flags = PCN_SYSCALL_REGS;
	m->hdr.size = struct_size(m, regs, 1);
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m),
			       "registers for a call that takes none");
	m->flags = 0;
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m),
			       "a size that does not match the flags");

	for (i = 0; i < ARRAY_SIZE(never); i++)
		KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(msg(test, never[i])),
				       "call %u", never[i]);

	m = msg(test, __NR_prctl);
	m->args[0] = PR_SET_SECCOMP;
	KUNIT_EXPECT_FALSE(test, pcn_syscall_msg_ok(m));
	m->args[0] = PR_SET_NAME;
	KUNIT_EXPECT_TRUE(test, pcn_syscall_msg_ok(m));

	/* On itself (pid 0) a thread makes it locally: not for a peer. */
	m = msg(test, __NR_sched_setaffinity);
	KUNIT_EXPECT_FALSE(test, pcn_syscall_msg_ok(m));
	m->args[0] = 42;
	KUNIT_EXPECT_TRUE(test, pcn_syscall_msg_ok(m));
	m = msg(test, 454);
	m->args[0] = 42;
	KUNIT_EXPECT_TRUE(test, pcn_syscall_msg_ok(m));

	/* clone carries the thread's registers, which must be sane. */
	m = msg(test, __NR_clone);
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m), "no registers");
	m->flags = PCN_SYSCALL_REGS;
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m),
			       "the flag without the registers");
	m->hdr.size = struct_size(m, regs, 1);
	KUNIT_EXPECT_TRUE(test, pcn_syscall_msg_ok(m));
	m->regs[0].ip = TASK_SIZE_MAX;
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m), "kernel rip");
	m->regs[0].ip = 0;
	m->regs[0].fsbase = -1ULL;
	KUNIT_EXPECT_FALSE_MSG(test, pcn_syscall_msg_ok(m), "kernel fsbase");
}

static struct kunit_case pcn_syscall_class_cases[] = {
	KUNIT_CASE(pcn_syscall_classes),
	KUNIT_CASE(pcn_syscall_msg_checks),
	{}
};

static struct kunit_suite pcn_syscall_class_suite = {
	.name = "popcorn_syscalls",
	.test_cases = pcn_syscall_class_cases,
};

kunit_test_suite(pcn_syscall_class_suite);
