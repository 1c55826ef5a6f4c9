/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-process state of a distributed process, shared by the process
 * server, the migration code and the page and VMA servers.
 *
 * At the origin a remote_context hangs off the process's mm from its
 * first migration on and holds the page directory.  At a remote the
 * worker's mm points to the context embedded in the worker.
 */
#ifndef _POPCORN_CONTEXT_H
#define _POPCORN_CONTEXT_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <popcorn/hooks.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

/* Sequential write streams a remote follows per process (page_client.c). */
#define PCN_WRITE_STREAMS	4

struct pcn_remote_worker;
struct seq_file;

/*
 * Origin: the page requests a process's remote threads make, per second,
 * and the pages that move most (share.c).
 */
#define PCN_HOT_PAGES	16

struct pcn_share_figures {
	u64 rate_mark;			/* faults_served at @rate_start */
	unsigned long rate_start;	/* jiffies */
	u32 per_s;			/* the last whole second's rate */
	unsigned long window;		/* jiffies the current window began */
	struct pcn_hot_page {
		unsigned long idx;	/* page index */
		u32 cur, prev;		/* moves this window, the one before */
		unsigned long nodes;	/* bit per node it went to */
	} hot[PCN_HOT_PAGES];
};

struct pcn_share {
	spinlock_t lock;		/* guards @f */
	struct pcn_share_figures f;
};

/*
 * Waits on the DSM (dsm_wait.c) and adaptive placement (adaptive.c).
 * @threads, pid -> each thread's wait: at a remote since it arrived, at
 * the origin at home.  Origin: the process's waits at home and away (as
 * reported), the part of the
 * waits at home each node caused (it held the page), the threads
 * adaptive placement called home, and until when (jiffies) its new
 * threads stay home, @hold the length of the next such hold.
 */
struct pcn_dsm {
	struct xarray threads;
	atomic64_t home_ns;
	atomic64_t away_ns;
	atomic64_t caused_ns[POPCORN_MAX_NODES];
	atomic_t called_home;
	atomic64_t pages_home;		/* brought home after a call home */
	atomic_t recorded;		/* origin: home threads' records made */
	/* Origin: threads of each node blocked in a futex wait here. */
	atomic_t futex_waiting[POPCORN_MAX_NODES];
	unsigned long hold_until;
	unsigned long hold;
};

/* Origin, in a shadow: adaptive placement's view of its thread. */
struct pcn_adapt {
	u64 run, wait, shared;		/* ns, at the last judgement */
	u64 caused;			/* its node's caused_ns, then */
	bool judged;			/* the marks are set */
	unsigned int strikes;		/* bad intervals in a row */
	bool called;			/* called home this stay */
};

struct remote_context {
	struct kref kref;
	struct rcu_head rcu;
	bool at_origin;
	u32 id;			/* unique at the origin, names the process */
	int origin_nid;
	pid_t tgid;		/* the process at the origin */
	struct mm_struct *mm;	/* pinned with mmgrab() */

	/* Origin: which nodes were asked for / hold a remote worker. */
	struct mutex lock;
	DECLARE_BITMAP(asked, POPCORN_MAX_NODES);
	DECLARE_BITMAP(workers, POPCORN_MAX_NODES);
	unsigned int gen[POPCORN_MAX_NODES];
	struct work_struct exit_work;
	/*
	 * Origin: when each node last failed a placed thread (jiffies, 0
	 * for never): placement skips it for a while (placement.c).
	 */
	unsigned long place_failed[POPCORN_MAX_NODES];

	/*
	 * Origin: held for writing over a VMA change (mmap, munmap, ...)
	 * from before its pages are taken back until every node dropped its
	 * old VMAs, and for reading by the page server over a grant, so
	 * that no remote gets a page of the range meanwhile.
	 */
	struct rw_semaphore vma_sem;
	/*
	 * Origin: held for reading by a thread migrating out from the
	 * check of its credentials until it runs there, for writing while
	 * a seccomp filter every thread got is announced to the nodes
	 * (seccomp.c).  Both: @filtered once the process has one.
	 */
	struct rw_semaphore filter_sem;
	bool filtered;
	/* Remote: VMA_DROPs handled, so a VMA fetched before one is not used. */
	atomic_t vma_drops;
	/* Remote: prefetch window, and where the next sequential read is. */
	unsigned int ra_window;
	unsigned long ra_next;
	/*
	 * Remote: sequential write streams (threads filling fresh memory),
	 * each where its next write fault is expected and how many
	 * untouched pages that fault asks for (page_client.c); @wa_rotor
	 * picks the stream a new one replaces.
	 */
	struct pcn_write_stream {
		unsigned long next;
		unsigned int window;
	} wa[PCN_WRITE_STREAMS];
	unsigned int wa_rotor;

	/*
	 * Page protocol.  Origin: @pages is the directory (page index ->
	 * holder mask, see page_server.c), @grants the version of the grant
	 * a writer got.  Remote: @pages holds the version of the last
	 * invalidation of a page, @grants that of the last grant received.
	 * Both: @faults the fault handle of each page being worked on
	 * (page.h), @wq wakes who waits for a handle to change.
	 */
	struct xarray pages;
	struct xarray grants;
	struct xarray faults;
	/*
	 * Remote: the grant version of each untouched page granted with a
	 * write fault and not mapped here yet: its data is zero.
	 */
	struct xarray untouched;
	/*
	 * Origin: the hold time of each page seen bouncing (page_hold.c),
	 * how many, and when they were last pruned (jiffies).
	 */
	struct xarray holds;
	atomic_t nr_holds;
	unsigned long holds_pruned;
	atomic64_t version;
	wait_queue_head_t wq;

	struct pcn_remote_worker *worker;	/* remote only */

	/* Origin: what it served its threads away (/proc/popcorn_ps). */
	atomic64_t faults_served;	/* page requests */
	atomic64_t syscalls_served;	/* forwarded system calls */
	struct pcn_share share;
	struct pcn_dsm dsm;
};

void pcn_share_init(struct pcn_share *s);
void pcn_share_transfer(struct remote_context *ctx, unsigned long idx,
			int nid);
void pcn_share_copy(struct remote_context *ctx,
		    struct pcn_share_figures *out);
void pcn_share_show(struct seq_file *seq, pid_t tgid,
		    const struct pcn_share_figures *f);

void pcn_dsm_init(struct pcn_dsm *d);
void pcn_dsm_release(struct pcn_dsm *d);
void pcn_dsm_wait_add(struct remote_context *ctx, const char *kind, u64 ns,
		      bool shared);
void pcn_dsm_thread_wait(struct remote_context *ctx, struct task_struct *t,
			 u64 *wait, u64 *shared);
void pcn_dsm_thread_end(struct remote_context *ctx);
void pcn_dsm_caused(struct remote_context *ctx, unsigned long nodes, u64 ns);

unsigned long pcn_adapt_interval(void);
bool pcn_adapt_judge(struct remote_context *ctx, struct pcn_adapt *a,
		     int nid, u64 run, u64 wait, u64 shared);
bool pcn_adapt_holding(struct remote_context *ctx);
void pcn_adapt_came_home(struct remote_context *ctx, int nid);
bool pcn_shadow_figures(pid_t tid, u64 *run, u64 *wait, u64 *shared);

/* Origin: current is a shadow, serving a thread that runs at a remote. */
static inline bool pcn_current_is_shadow(void)
{
	return current->peer_nid >= 0 && current->peer_nid != pcn_my_nid();
}

/* Origin: the context of @id with a reference, or NULL. */
struct remote_context *pcn_context_get(u32 id);
void pcn_context_put(struct remote_context *ctx);
/* Remote: the context of origin @nid's process @id, or NULL. */
struct remote_context *pcn_remote_context_get(int nid, u32 id);
/*
 * Origin: the next context from *@id on, with a reference, or NULL;
 * *@id is moved past it.  Remote: the same for the workers here that
 * take migrations (evacuate.c).
 */
struct remote_context *pcn_context_next(unsigned long *id);
struct remote_context *pcn_worker_next(unsigned long *key);
/* Remote: true once the origin asked this process to end here. */
bool pcn_remote_context_exiting(struct remote_context *ctx);

/* evacuate.c: this node takes no arriving thread or process. */
bool pcn_node_closed(void);

/*
 * What exists now, for /proc/popcorn_stat's "live" lines: distributed
 * processes originating here and workers of other nodes' processes
 * (process_server.c), shadows of threads away (migrate.c), threads of
 * other nodes' processes running here (evacuate.c).
 */
void pcn_process_live(unsigned int *contexts, unsigned int *workers);
unsigned int pcn_shadows_live(void);
unsigned int pcn_remote_threads_live(void);

/* Remote: create a migrated thread in the worker (TASK_MIGRATE). */
int pcn_worker_queue(struct remote_context *ctx, struct pcn_kmsg_hdr *msg);
/*
 * Origin: an error a remote answered, if it is one a remote may return
 * (never a kernel-internal code such as -ERESTARTSYS), else -EPROTO.
 */
int pcn_remote_error(s32 error);
/* Origin: forget the worker on @nid (it is gone). */
void pcn_process_forget_worker(struct remote_context *ctx, int nid);

/* page_client.c */
/*
 * Remote: [start, end) is being dropped by VMA_DROP @version (mmap_lock
 * held for writing); answers to requests made before that the origin
 * gave before the drop are never installed.
 */
void pcn_faults_drop(struct remote_context *ctx, unsigned long start,
		     unsigned long end, u64 version);

/* page_server.c */
/*
 * Origin: take back every remote copy of the pages in [start, end).
 * Returns how many pages came home, or an error.
 */
int pcn_pages_reclaim(struct remote_context *ctx, unsigned long start,
		      unsigned long end);
/*
 * Origin: forget who holds the pages of [start, end), which every node
 * has unmapped (vma_sem held for writing: no grant meanwhile).
 */
void pcn_pages_forget(struct remote_context *ctx, unsigned long start,
		      unsigned long end);
/*
 * Origin: bring home every page a remote writes (read copies stay), or
 * that node @nid writes unless it is -1.  -EIO if a writer could not
 * give its data back.
 */
int pcn_pages_reclaim_writers(struct remote_context *ctx, int nid);
/*
 * Origin: the pages node @nid writes, brought home as above, returning
 * how many came (or a negative error); those whose data did not come
 * back are not counted.  A fatal signal of the caller ends it between
 * two batches.
 */
int pcn_pages_writers_home(struct remote_context *ctx, int nid);
/*
 * Origin: "tgid address holders w|r" for each page some remote holds
 * (holders: a node mask; w: the one holder may write it).
 */
void pcn_pages_dump(struct seq_file *seq, struct remote_context *ctx);
/* page.c: the context ends; free what the page protocol kept. */
void pcn_pages_release(struct remote_context *ctx);

/* migrate.c */
/* Handler of every message type that is served by a shadow. */
void pcn_handle_shadow_msg(int nid, struct pcn_kmsg_hdr *msg);
/* SYSCALL_INTR: interrupt the system call a shadow makes. */
void pcn_handle_syscall_intr(int nid, struct pcn_kmsg_hdr *msg);
/*
 * A proposal for thread @t: sent to where it runs if @t is a shadow,
 * else -ENOENT.
 */
int pcn_shadow_propose(struct task_struct *t, int nid);
/* The calling thread's proposed move, from its task work (propose.c). */
int pcn_migrate_proposed(int nid);
/* Origin: call home @ctx's threads at @nid; how many are there. */
int pcn_migrate_call_home(struct remote_context *ctx, int nid);
/* How many threads of process @ctx run at @nid or are on their way. */
int pcn_migrate_threads_at(struct remote_context *ctx, int nid);
/* In a shadow: call its thread home if it must stop (jobctl.c). */
void pcn_shadow_home_check(void);

/* propose.c */
void pcn_proposal_add(struct task_struct *t, int nid);
void pcn_proposal_urgent(struct task_struct *t, int nid);
int pcn_proposed_nid(void);
void pcn_proposal_moved(void);
void pcn_migrate_node_offline(int nid);
int pcn_remote_thread_start(struct remote_context *ctx,
			    struct pcn_kmsg_hdr *msg, pid_t *pid);

/* signal_state.c: mask, alternate stack and actions of a migration. */
struct pcn_task_msg;
void pcn_sigstate_capture(struct pcn_task_msg *m, bool actions);
int pcn_sigactions_install(const struct pcn_task_msg *m);
void pcn_sigstate_load(const struct pcn_task_msg *m);

/* rseq_state.c: the thread's rseq registration, there and back. */
void pcn_rseq_capture(struct pcn_task_msg *m);
void pcn_rseq_load(const struct pcn_task_msg *m);

/*
 * cputime.c: the CPU time a thread used at a remote, for its shadow.
 * Figures are ns since the thread arrived there.
 */
struct pcn_cputime {
	u64 left;			/* ktime_get_ns() when it left */
	u64 utime, stime;		/* the last report taken */
	u64 utime_done, stime_done;	/* added to the shadow's times */
	u64 wait, shared;		/* its DSM wait, last report */
};

void pcn_cputime_start(struct pcn_cputime *c);
/* A report, if plausible (true): under the lock of its shadow. */
bool pcn_cputime_take(struct pcn_cputime *c, u64 utime, u64 stime);
/* The same for its wait on the DSM (dsm_wait.c). */
bool pcn_cputime_take_wait(struct pcn_cputime *c, u64 wait, u64 shared);
/* In the shadow: add the times reported up to @utime, @stime. */
void pcn_cputime_account(struct pcn_cputime *c, u64 utime, u64 stime);
/* Remote: @t's times since it arrived. */
void pcn_cputime_of(struct task_struct *t, u64 *utime, u64 *stime);
/* Remote, in the worker: report each thread of its process. */
void pcn_cputime_report(struct remote_context *ctx);

/*
 * coredump.c: a thread that dies at a remote of a signal that dumps core
 * goes home to die (pcn_migrate_back_core(), migrate.c, which does not
 * return unless it fails); its TASK_BACK carries the signal.
 */
int pcn_migrate_back_core(const kernel_siginfo_t *info);
bool pcn_core_signo_ok(u32 signo);
void pcn_core_capture(struct pcn_task_msg *m, const kernel_siginfo_t *info);
/* In the shadow, with the thread's registers loaded: signal it again. */
void pcn_core_signal(const struct pcn_task_msg *m);

/* signal.c: in the shadow, forward its pending signals to @remote_pid. */
int pcn_signal_forward(struct remote_context *ctx, int nid, pid_t remote_pid);
/* jobctl.c: a shadow whose thread must come home to stop */
void pcn_jobctl_kept(struct task_struct *t, sigset_t *kept);
bool pcn_jobctl_home_due(void);

/* remote_io.c: FILE_WRITE is served by the shadow of the writer. */
void pcn_file_write_serve(int nid, struct pcn_kmsg_hdr *msg);
void pcn_file_write_reply(int nid, struct pcn_kmsg_hdr *msg, ssize_t ret);

/* futex.c: FUTEX is served by the shadow of the waiting or waking thread. */
void pcn_futex_serve(int nid, struct pcn_kmsg_hdr *msg);
void pcn_futex_reply(int nid, struct pcn_kmsg_hdr *msg, long ret);

/* vma_mirror.c: a VMA change at the origin, mirrored on every node. */
struct pcn_vma_change;
struct pcn_vma_change *pcn_vma_change_begin(struct remote_context *ctx,
					    enum pcn_vma_op op,
					    const unsigned long *args);
/* After the call, with its result; node @except drops by itself. */
void pcn_vma_change_end(struct pcn_vma_change *ch, long ret, int except);
/* An origin thread's call: ended on its way back to user space. */
int pcn_vma_change_origin(struct remote_context *ctx, enum pcn_vma_op op,
			  const unsigned long *args);
/* madvise(MADV_RELEASE) at the origin: the range's pages come home. */
long pcn_vma_release(struct remote_context *ctx, const unsigned long *args);

/* vma_server.c: VMA_OP is served by the shadow of the calling thread. */
void pcn_vma_op_serve(int nid, struct pcn_kmsg_hdr *msg);
void pcn_vma_op_reply(int nid, struct pcn_kmsg_hdr *msg, long ret,
		      unsigned long old_brk);

#endif /* _POPCORN_CONTEXT_H */
