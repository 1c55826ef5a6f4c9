// SPDX-License-Identifier: GPL-2.0
/*
 * Page hold time: a page two nodes write in turn stays with the node
 * that got it for a short while before another node may take it
 * (Mirage's time window), so that each node makes many accesses per
 * transfer instead of one.
 *
 * Only pages seen bouncing have a hold: an entry in ctx->holds is made
 * when the origin takes a page back from a remote writer.  From then on
 * each time the page becomes one node's alone (a write grant to a
 * remote, the origin taking it back or writing it) is recorded here, and
 * a request of another node within the holder's window is deferred: a
 * remote's is refused with -EAGAIN and the time left, which the remote
 * waits out before it asks again (page_client.c); an origin thread's
 * fault sleeps with no lock held and is retried (page_server.c).
 *
 * The window adapts per page.  When the page returns to the node that
 * last lost it, and that node asked for it again within pcn.page_hold_us
 * of losing it, the node was not done with it: the window doubles, from
 * a sixteenth of pcn.page_hold_us up to pcn.page_hold_us.  Any other
 * move halves it, and an entry whose window falls to nothing goes.  A
 * page that moves on with the work (a producer's buffer, a lock taken
 * rarely) so keeps no window; a page two nodes write in turn (false
 * sharing, a lock both take all the time) gets one, and the other node
 * waits at most that long, where without it each of its accesses would
 * have cost a round trip.
 *
 * A holder that sleeps is not using the page: a node with a thread
 * blocked in a futex wait at the origin (a barrier, a lock, a condition
 * variable: it waits for the very node it defers), or an origin thread
 * that took the page and is not running, holds nothing.  An origin
 * thread waits a deferral out in slices of at most PCN_HOLD_SLICE_US,
 * each followed by a new look, so that a holder that went to sleep
 * meanwhile lets go; a remote waits all of it, as each look would cost
 * it a round trip.
 *
 * Nobody is deferred more than pcn.page_hold_us in all: the first node
 * deferred is noted, and once it has waited that long, holds no longer
 * defer it until it has the page.  A shadow is never deferred by its
 * own thread's node: the thread waits for the shadow's call.  A process
 * has at most PCN_HOLD_MAX entries; when full, those with no window
 * (pages taken back once, and not since) go, at most once a second.
 *
 * An entry is changed only by the owner of its page's fault handle
 * (page_server.c), and is a hint: coherence never depends on it.  An
 * entry whose holder is no longer the page's owner in the directory (the
 * page was taken back by a munmap or an evacuation) defers nobody.
 * Entries are freed after RCU, as a munmap may drop them while a fault
 * on a new mapping of the same address looks at one.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/xarray.h>
#include <popcorn/nodes.h>

#include "context.h"
#include "page_hold.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "pcn."

static unsigned int pcn_page_hold_us = 20000;

static int pcn_hold_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || n > PCN_HOLD_LIMIT_MAX_US) {
		pr_err("%s=%s: not 0 to %u, keeping %u\n", kp->name, val,
		       PCN_HOLD_LIMIT_MAX_US, READ_ONCE(pcn_page_hold_us));
		return -EINVAL;
	}
	WRITE_ONCE(pcn_page_hold_us, n);
	return 0;
}

static const struct kernel_param_ops pcn_hold_param_ops = {
	.set = pcn_hold_param_set,
	.get = param_get_uint,
};
module_param_cb(page_hold_us, &pcn_hold_param_ops, &pcn_page_hold_us, 0644);
MODULE_PARM_DESC(page_hold_us, "longest time a page two nodes write in turn stays with the node that got it (0 to 50000 us, 0: off)");

struct pcn_page_hold {
	struct rcu_head rcu;
	u64 since;		/* ns: when @holder got the page alone */
	u64 lost;		/* ns: when @loser lost it */
	u64 asked;		/* ns: when @loser asked for it again, or 0 */
	u64 waited;		/* ns: since when @waiter is deferred */
	u32 window;		/* ns: how long @holder keeps it */
	pid_t task;		/* origin holder: the thread that took it */
	s8 holder;		/* the node that has it alone, -1: shared */
	s8 loser;		/* the one that had it before, -1: none */
	s8 waiter;		/* the first node deferred, -1: none */
};

/* pcn.page_hold_us in ns. */
u32 pcn_hold_limit(void)
{
	return READ_ONCE(pcn_page_hold_us) * NSEC_PER_USEC;
}

/* The holder sleeps (see above): its hold is void. */
static bool pcn_hold_asleep(struct remote_context *ctx,
			    struct pcn_page_hold *h)
{
	struct task_struct *p;

	if (h->holder != pcn_my_nid())
		return atomic_read(&ctx->dsm.futex_waiting[h->holder]) > 0;
	p = find_task_by_pid_ns(h->task, &init_pid_ns);
	return !p || READ_ONCE(p->__state) != TASK_RUNNING;
}

/**
 * pcn_hold_next - a page's window after it moved
 * @window: its window until now, ns
 * @gap: how long after losing the page its new holder asked for it, ns
 * @returned: whether the new holder is the node that last lost it
 * @limit: pcn.page_hold_us, ns
 *
 * Return: the window doubled (from @limit / 16, up to @limit) when the
 * page returned within @limit of leaving; else halved, or 0 once below
 * @limit / 16.
 */
u32 pcn_hold_next(u32 window, u64 gap, bool returned, u32 limit)
{
	u32 start = limit / 16;

	if (!limit)
		return 0;
	if (returned && gap < limit)
		return window < start ? start : min(window, limit / 2) * 2;
	window /= 2;
	return window < start ? 0 : window;
}

/**
 * pcn_hold_left - how long a page stays with its owner
 * @ctx: the origin's context
 * @idx: the page's index
 * @owner: the node the directory says has it alone, -1 when shared
 * @nid: the node that wants it
 * @now: ktime_get_ns()
 *
 * Called by the owner of the page's fault handle.  A request of the node
 * that last lost the page is noted: how soon it came back for the page
 * is what adapts the window.
 *
 * Return: the ns @nid must wait before the page is taken from @owner, 0
 * when it need not.
 */
u64 pcn_hold_left(struct remote_context *ctx, unsigned long idx, int owner,
		  int nid, u64 now)
{
	struct pcn_page_hold *h;
	u64 left = 0, end;

	if (owner < 0 || owner == nid || xa_empty(&ctx->holds) ||
	    !pcn_hold_limit())
		return 0;
	rcu_read_lock();
	h = xa_load(&ctx->holds, idx);
	if (h && h->holder == owner) {
		if (h->loser == nid && !h->asked)
			h->asked = now;
		end = h->since + min(h->window, pcn_hold_limit());
		if (end > now && !pcn_hold_asleep(ctx, h))
			left = end - now;
		/*
		 * Nobody waits more than pcn.page_hold_us in all, though
		 * the page goes from holder to holder meanwhile.
		 */
		if (left && h->waiter < 0) {
			h->waiter = nid;
			h->waited = now;
		} else if (left && h->waiter == nid &&
			   now - h->waited >= pcn_hold_limit()) {
			left = 0;
		}
	}
	rcu_read_unlock();
	return left;
}

static void pcn_hold_drop(struct remote_context *ctx, unsigned long idx,
			  struct pcn_page_hold *h)
{
	if (xa_cmpxchg(&ctx->holds, idx, h, NULL, 0) == h) {
		atomic_dec(&ctx->nr_holds);
		kfree_rcu(h, rcu);
	}
}

/*
 * Room for another entry: at most PCN_HOLD_MAX per process.  When full,
 * at most once a second, the entries with no window (pages taken back
 * once and not since) go.
 */
static bool pcn_hold_room(struct remote_context *ctx)
{
	struct pcn_page_hold *h;
	unsigned long idx;

	if (atomic_read(&ctx->nr_holds) < PCN_HOLD_MAX)
		return true;
	if (time_before(jiffies, READ_ONCE(ctx->holds_pruned) + HZ))
		return false;
	WRITE_ONCE(ctx->holds_pruned, jiffies);
	rcu_read_lock();
	xa_for_each(&ctx->holds, idx, h)
		if (!READ_ONCE(h->window))
			pcn_hold_drop(ctx, idx, h);
	rcu_read_unlock();
	return atomic_read(&ctx->nr_holds) < PCN_HOLD_MAX;
}

/* The origin takes a page in the fault of the thread that wants it. */
static pid_t pcn_hold_taker(int to)
{
	return to == pcn_my_nid() ? task_pid_nr(current) : 0;
}

/**
 * pcn_hold_moved - note that a page changed hands
 * @ctx: the origin's context
 * @idx: the page's index
 * @from: the node that had it alone, -1 when it was shared
 * @to: the node that has it alone now, -1 when it is shared now
 * @now: ktime_get_ns()
 * @bounced: the origin took it back from a remote writer: a page with
 *	no entry gets one
 *
 * Called by the owner of the page's fault handle once the directory says
 * so.  Without memory for an entry the page simply has no hold.
 */
void pcn_hold_moved(struct remote_context *ctx, unsigned long idx, int from,
		    int to, u64 now, bool bounced)
{
	u32 limit = pcn_hold_limit();
	struct pcn_page_hold *h;
	bool keep = false;

	if (xa_empty(&ctx->holds) && (!bounced || !limit))
		return;
	rcu_read_lock();
	h = xa_load(&ctx->holds, idx);
	if (h && to >= 0 && to == h->holder) {
		/* A read copy made writable where it is: no move. */
		h->task = pcn_hold_taker(to);
		h->since = now;
		keep = true;
	} else if (h) {
		u64 gap = (h->asked ? h->asked : now) - h->lost;

		h->window = pcn_hold_next(h->window, gap,
					  to >= 0 && to == h->loser, limit);
		h->task = pcn_hold_taker(to);
		h->holder = to;
		h->since = now;
		h->loser = from;
		h->lost = now;
		h->asked = 0;
		if (h->waiter == to)
			h->waiter = -1;
		keep = h->window || (bounced && limit);
		if (!keep)
			pcn_hold_drop(ctx, idx, h);
	}
	rcu_read_unlock();
	if (h || !bounced || !limit || !pcn_hold_room(ctx))
		return;
	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return;
	h->task = pcn_hold_taker(to);
	h->holder = to;
	h->since = now;
	h->loser = from;
	h->lost = now;
	h->waiter = -1;
	if (xa_insert(&ctx->holds, idx, h, GFP_KERNEL_ACCOUNT))
		kfree(h);
	else
		atomic_inc(&ctx->nr_holds);
}

/* A munmap at the origin: the range's pages have no hold any more. */
void pcn_holds_forget(struct remote_context *ctx, unsigned long start,
		      unsigned long end)
{
	XA_STATE(xas, &ctx->holds, start >> PAGE_SHIFT);
	struct pcn_page_hold *h;

	if (end <= start)
		return;
	xas_lock(&xas);
	xas_for_each(&xas, h, (end - 1) >> PAGE_SHIFT) {
		xas_store(&xas, NULL);
		atomic_dec(&ctx->nr_holds);
		kfree_rcu(h, rcu);
	}
	xas_unlock(&xas);
}

/* The context goes: nobody looks at its entries any more. */
void pcn_holds_release(struct remote_context *ctx)
{
	struct pcn_page_hold *h;
	unsigned long idx;

	xa_for_each(&ctx->holds, idx, h)
		kfree(h);
	xa_destroy(&ctx->holds);
}
