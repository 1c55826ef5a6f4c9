// SPDX-License-Identifier: GPL-2.0
/*
 * test_core MODE NID CORE_PREFIX [NID2]: a thread that dies at a remote
 * of a signal that dumps core leaves its process's core at the origin
 * (coredump.c), with every thread's registers as they were where it ran.
 *
 * A child process starts two threads: one migrates to NID2 (default NID)
 * and computes in spin_away(), one migrates to NID and blocks in a read()
 * from block_away().  Then the child's main thread migrates to NID,
 * writes a marker into a heap page there (a page then held by NID alone)
 * and, three calls deep, dies: MODE segv dereferences NULL in
 * crash_here(), abort calls abort().  The parent checks, with the
 * core_pattern CORE_PREFIX%p that the caller set and RLIMIT_CORE raised
 * here:
 *
 *  - waitpid(): killed by the signal, with a core dump (WCOREDUMP);
 *  - the core file CORE_PREFIX<pid> exists and holds the marker: the page
 *    came home from NID before the dump;
 *  - segv: the core's first thread (the one that dumped) has the signal
 *    and a rip inside crash_here(), as at NID when it faulted;
 *  - another thread of the core has its rip inside spin_away(), as at
 *    NID2: it came home for the dump.
 *
 * Prints "# core PATH" for the harness, which runs gdb on it, and one
 * TAP line per check; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <sys/reg.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../popcorn.h"
#include "tap.h"

#define noinline	__attribute__((noinline))	/* kept in backtraces */
#define MARKER		"popcorn core marker, written at node "
#define CRASH_SPAN	512	/* crash_here() is shorter than this */

static char *heap;
static int away_nid, away_nid2, ready, pipefd[2];

static noinline void spin_away(void)
{
	volatile unsigned long n = 0;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		n++;
}

static noinline void block_away(void)
{
	char c;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	/* The write end stays open: it blocks until the process dies. */
	while (read(pipefd[0], &c, 1) != 0)
		;
	asm("");
}

static void *spinner(void *arg)
{
	(void)arg;
	if (popcorn_migrate(away_nid2))
		_exit(5);
	spin_away();
	return NULL;
}

static void *blocker(void *arg)
{
	(void)arg;
	if (popcorn_migrate(away_nid))
		_exit(5);
	block_away();
	return NULL;
}

static noinline void crash_here(int segv)
{
	int *p = NULL;

	if (!segv)
		abort();
	asm("" : "+r" (p));	/* the compiler must not know it is NULL */
	*p = 42;
}

static noinline void level2(int segv)
{
	crash_here(segv);
	asm("");
}

static noinline void level1(int segv)
{
	level2(segv);
	asm("");
}

static void child(int segv, int nid)
{
	pthread_t t1, t2;
	int i;

	if (pipe(pipefd) || pthread_create(&t1, NULL, spinner, NULL) ||
	    pthread_create(&t2, NULL, blocker, NULL))
		_exit(6);
	for (i = 0; i < 3000 && __atomic_load_n(&ready, __ATOMIC_SEQ_CST) < 2;
	     i++)
		usleep(10000);
	if (i == 3000)
		_exit(7);
	usleep(200000);		/* the reader is in its read() */
	if (popcorn_migrate(nid))
		_exit(3);
	snprintf(heap, 4096, MARKER "%d", popcorn_current_nid());
	level1(segv);
	_exit(4);
}

static char *read_file(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || st.st_size <= 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size);
	*len = buf ? fread(buf, 1, st.st_size, f) : 0;
	fclose(f);
	return buf;
}

/*
 * The @n-th NT_PRSTATUS of an ELF core, from 0; the first is the thread
 * that dumped it.
 */
static const prstatus_t *nth_prstatus(const char *core, size_t len, int n)
{
	const Elf64_Ehdr *eh = (const void *)core;
	const Elf64_Phdr *ph;
	size_t off, end;
	int i;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_type != ET_CORE ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > len)
		return NULL;
	ph = (const void *)(core + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE || ph[i].p_offset + ph[i].p_filesz > len)
			continue;
		off = ph[i].p_offset;
		end = off + ph[i].p_filesz;
		while (off + sizeof(Elf64_Nhdr) <= end) {
			const Elf64_Nhdr *nh = (const void *)(core + off);
			size_t desc = off + sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);

			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_PRSTATUS &&
			    nh->n_descsz >= sizeof(prstatus_t) && !n--)
				return (const void *)(core + desc);
			off = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return NULL;
}

int main(int argc, char *argv[])
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	const prstatus_t *pr;
	char path[256], marker[64];
	int segv, nid, status = 0, sig;
	size_t len = 0;
	char *core;
	pid_t pid;

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[1], "segv") && strcmp(argv[1], "abort"))) {
		fprintf(stderr, "usage: test_core segv|abort NID CORE_PREFIX [NID2]\n");
		return 2;
	}
	segv = !strcmp(argv[1], "segv");
	sig = segv ? SIGSEGV : SIGABRT;
	nid = atoi(argv[2]);
	away_nid = nid;
	away_nid2 = argc == 5 ? atoi(argv[4]) : nid;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setrlimit(RLIMIT_CORE, &unlimited))
		perror("setrlimit RLIMIT_CORE");
	heap = malloc(4096);
	if (!heap)
		return 1;
	memset(heap, 0, 4096);
	pid = fork();
	if (pid == 0)
		child(segv, nid);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		tap_check(0, "fork and wait: %s", strerror(errno));
		return 1;
	}
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == sig &&
		  WCOREDUMP(status),
		  "%s at node %d: the process died of signal %d with a core dump (status 0x%x)",
		  argv[1], nid, sig, status);

	snprintf(path, sizeof(path), "%s%d", argv[3], pid);
	printf("# core %s\n", path);
	core = read_file(path, &len);
	tap_check(core != NULL, "%s written at the origin (%zu bytes)", path,
		  len);
	if (!core)
		return 1;
	snprintf(marker, sizeof(marker), MARKER "%d", nid);
	tap_check(memmem(core, len, marker, strlen(marker)) != NULL,
		  "the core holds the heap page written at node %d", nid);
	if (segv) {
		unsigned long rip, at = (unsigned long)crash_here;

		pr = nth_prstatus(core, len, 0);
		rip = pr ? pr->pr_reg[RIP] : 0;
		tap_check(pr && pr->pr_cursig == sig && rip >= at &&
			  rip < at + CRASH_SPAN,
			  "its dumping thread: signal %d, rip 0x%lx in crash_here() at 0x%lx",
			  pr ? pr->pr_cursig : -1, rip, at);
	}
	{
		unsigned long rip = 0, at = (unsigned long)spin_away;
		int i, found = 0;

		for (i = 1; (pr = nth_prstatus(core, len, i)); i++) {
			rip = pr->pr_reg[RIP];
			if (rip >= at && rip < at + CRASH_SPAN)
				found = 1;
		}
		tap_check(found,
			  "a thread of the core has its rip in spin_away() at 0x%lx, as at node %d (%d threads in the core)",
			  at, away_nid2, i);
	}
	free(core);
	return tap_failed ? 1 : 0;
}
