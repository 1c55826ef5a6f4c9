// SPDX-License-Identifier: GPL-2.0
/*
 * Full CPU state across migration: all 16 AVX registers (upper halves
 * included), set just before the popcorn_migrate system call and read
 * just after it in one asm block, so no C code touches them between;
 * the GS base, there and back; a register set with a field the kernel
 * does not take is refused.
 *
 *   test_xstate NID
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define popcorn_thread_status	popcorn_kernel_thread_status
#define popcorn_node_info	popcorn_kernel_node_info
#include <linux/popcorn.h>
#undef popcorn_thread_status
#undef popcorn_node_info

#include "../popcorn.h"
#include "tap.h"

static unsigned char in[16][32] __attribute__((aligned(32)));
static unsigned char out[16][32] __attribute__((aligned(32)));

/* Load ymm0-15 from in, migrate to @nid, store them to out. */
__attribute__((target("avx2")))
static long migrate_with_ymm(int nid)
{
	long ret = POPCORN_SYS_MIGRATE;

	asm volatile(
		"vmovdqu   0(%[i]), %%ymm0\n\t"  "vmovdqu  32(%[i]), %%ymm1\n\t"
		"vmovdqu  64(%[i]), %%ymm2\n\t"  "vmovdqu  96(%[i]), %%ymm3\n\t"
		"vmovdqu 128(%[i]), %%ymm4\n\t"  "vmovdqu 160(%[i]), %%ymm5\n\t"
		"vmovdqu 192(%[i]), %%ymm6\n\t"  "vmovdqu 224(%[i]), %%ymm7\n\t"
		"vmovdqu 256(%[i]), %%ymm8\n\t"  "vmovdqu 288(%[i]), %%ymm9\n\t"
		"vmovdqu 320(%[i]), %%ymm10\n\t" "vmovdqu 352(%[i]), %%ymm11\n\t"
		"vmovdqu 384(%[i]), %%ymm12\n\t" "vmovdqu 416(%[i]), %%ymm13\n\t"
		"vmovdqu 448(%[i]), %%ymm14\n\t" "vmovdqu 480(%[i]), %%ymm15\n\t"
		"syscall\n\t"
		"vmovdqu %%ymm0,    0(%[o])\n\t" "vmovdqu %%ymm1,   32(%[o])\n\t"
		"vmovdqu %%ymm2,   64(%[o])\n\t" "vmovdqu %%ymm3,   96(%[o])\n\t"
		"vmovdqu %%ymm4,  128(%[o])\n\t" "vmovdqu %%ymm5,  160(%[o])\n\t"
		"vmovdqu %%ymm6,  192(%[o])\n\t" "vmovdqu %%ymm7,  224(%[o])\n\t"
		"vmovdqu %%ymm8,  256(%[o])\n\t" "vmovdqu %%ymm9,  288(%[o])\n\t"
		"vmovdqu %%ymm10, 320(%[o])\n\t" "vmovdqu %%ymm11, 352(%[o])\n\t"
		"vmovdqu %%ymm12, 384(%[o])\n\t" "vmovdqu %%ymm13, 416(%[o])\n\t"
		"vmovdqu %%ymm14, 448(%[o])\n\t" "vmovdqu %%ymm15, 480(%[o])\n\t"
		"vzeroupper"
		: "+a"(ret)
		: "D"((long)nid), "S"(0L), [i] "r"(in), [o] "r"(out)
		: "rcx", "r11", "memory", "xmm0", "xmm1", "xmm2", "xmm3",
		  "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
		  "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return ret;
}

static void fill(unsigned char seed)
{
	int r, b;

	for (r = 0; r < 16; r++)
		for (b = 0; b < 32; b++)
			in[r][b] = seed + r * 31 + b * 7;
	memset(out, 0, sizeof(out));
}

/* Registers whose lower or upper 128 bits differ: a bit each. */
static unsigned int lost(int upper)
{
	unsigned int mask = 0;
	int r;

	for (r = 0; r < 16; r++)
		if (memcmp(in[r] + 16 * upper, out[r] + 16 * upper, 16))
			mask |= 1u << r;
	return mask;
}

static void check_avx(int nid)
{
	long ret;

	if (!__builtin_cpu_supports("avx2")) {
		printf("ok - xstate: AVX registers across migration # SKIP this CPU has no AVX2\n");
		return;
	}
	fill(0x11);
	ret = migrate_with_ymm(nid);
	tap_check(ret == 0 && popcorn_current_nid() == nid,
		  "xstate: migrated to node %d with ymm0-15 set (%ld)", nid, ret);
	tap_check(!lost(0) && !lost(1),
		  "xstate: ymm0-15 intact at node %d (xmm differ %#x, upper halves differ %#x)",
		  nid, lost(0), lost(1));
	fill(0x5c);
	ret = migrate_with_ymm(0);
	tap_check(ret == 0 && popcorn_current_nid() == 0,
		  "xstate: back at node 0 with other ymm0-15 (%ld)", ret);
	tap_check(!lost(0) && !lost(1),
		  "xstate: ymm0-15 intact back home (xmm differ %#x, upper halves differ %#x)",
		  lost(0), lost(1));
}

static void check_gs(int nid)
{
	unsigned long gs_there = 0, gs_back = 0, base = 0x7f0000123000UL;
	unsigned long base2 = 0x7f0000456000UL;

	syscall(SYS_arch_prctl, ARCH_SET_GS, base);
	if (popcorn_sys_migrate(nid, NULL))
		return;
	syscall(SYS_arch_prctl, ARCH_GET_GS, &gs_there);
	syscall(SYS_arch_prctl, ARCH_SET_GS, base2);
	popcorn_sys_migrate(0, NULL);
	syscall(SYS_arch_prctl, ARCH_GET_GS, &gs_back);
	syscall(SYS_arch_prctl, ARCH_SET_GS, 0UL);
	tap_check(gs_there == base && gs_back == base2,
		  "xstate: GS base set at one end is the thread's at the other (%#lx, %#lx)",
		  gs_there, gs_back);
}

static void check_regset(int nid)
{
	struct popcorn_regset_x86_64 r;

	memset(&r, 0, sizeof(r));
	r.mmx[3] = 1;
	tap_check(popcorn_sys_migrate(nid, &r) == -1 && errno == EINVAL,
		  "xstate: a register set with mmx set is refused (EINVAL)");
	memset(&r, 0, sizeof(r));
	r.st[0][0] = 1;
	tap_check(popcorn_sys_migrate(nid, &r) == -1 && errno == EINVAL,
		  "xstate: a register set with st set is refused (EINVAL)");
	memset(&r, 0, sizeof(r));
	r.cs = 0x10;
	tap_check(popcorn_sys_migrate(nid, &r) == -1 && errno == EINVAL,
		  "xstate: a register set with a kernel cs is refused (EINVAL)");
	tap_check(popcorn_current_nid() == 0, "xstate: still at node 0");

	/* At a remote, going home: checked there, before it leaves. */
	if (popcorn_sys_migrate(nid, NULL)) {
		tap_check(0, "xstate: to node %d: %s", nid, strerror(errno));
		return;
	}
	memset(&r, 0, sizeof(r));
	r.rip = 0xffff800000001000UL;
	r.rsp = 0x7ff000000000UL;
	tap_check(popcorn_sys_migrate(0, &r) == -1 && errno == EINVAL &&
		  popcorn_current_nid() == nid,
		  "xstate: at node %d, a register set with a kernel rip is refused (EINVAL)",
		  nid);
	r.rip = 0x401000;
	r.rsp = 0xffff800000001000UL;
	tap_check(popcorn_sys_migrate(0, &r) == -1 && errno == EINVAL &&
		  popcorn_current_nid() == nid,
		  "xstate: at node %d, a register set with a kernel rsp is refused (EINVAL)",
		  nid);
	popcorn_sys_migrate(0, NULL);
	tap_check(popcorn_current_nid() == 0, "xstate: and back at node 0");
}

int main(int argc, char **argv)
{
	int nid;

	if (argc != 2)
		return 2;
	nid = atoi(argv[1]);
	check_regset(nid);
	check_avx(nid);
	check_gs(nid);
	return tap_failed ? 1 : 0;
}
