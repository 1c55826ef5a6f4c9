// SPDX-License-Identifier: GPL-2.0
/*
 * What a distributed process shares, as its origin sees it: how many
 * page requests of its remote threads the origin serves per second, and
 * the pages that move most (/proc/popcorn_ps, "share" and "hot" lines).
 *
 * Every page request granted goes through pcn_share_transfer().  The
 * rate, of ctx->faults_served (popcorn ps's remote_faults), is that of
 * the last whole second with requests (before the first one, of the
 * time so far): a process that stopped faulting reads as decaying
 * towards 0.  The pages are counted in a small table per process
 * (PCN_HOT_PAGES entries): a page not in it takes the place of the one
 * moved least, with a count of 1, so a count is a lower bound of the
 * page's moves since it entered.  Counts are kept for the current window
 * of PCN_HOT_WINDOW and the one before, so that a page that stopped
 * moving leaves the list after two windows.
 * One short spinlock per request: a request itself costs a round trip.
 */
#include <linux/bits.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <popcorn/nodes.h>

#include "context.h"

#define PCN_HOT_WINDOW	(10 * HZ)
#define PCN_HOT_SHOWN	8

void pcn_share_init(struct pcn_share *s)
{
	memset(&s->f, 0, sizeof(s->f));
	spin_lock_init(&s->lock);
	s->f.window = jiffies;
	s->f.rate_start = jiffies;
}

/* Under the lock: start a new window when the current one is over. */
static void pcn_share_roll(struct pcn_share_figures *s, unsigned long now)
{
	bool stale = time_after(now, s->window + 2 * PCN_HOT_WINDOW);
	unsigned int i;

	if (!time_after(now, s->window + PCN_HOT_WINDOW))
		return;
	for (i = 0; i < PCN_HOT_PAGES; i++) {
		s->hot[i].prev = stale ? 0 : s->hot[i].cur;
		s->hot[i].cur = 0;
	}
	s->window = now;
}

/**
 * pcn_share_transfer() - count a page request served for a remote
 * @ctx: the process's context, at its origin
 * @idx: the page's index (address >> PAGE_SHIFT)
 * @nid: the node the page went to
 */
void pcn_share_transfer(struct remote_context *ctx, unsigned long idx,
			int nid)
{
	struct pcn_share_figures *s = &ctx->share.f;
	u64 served = atomic64_read(&ctx->faults_served);
	unsigned long now = jiffies;
	unsigned int i, least = 0;

	spin_lock(&ctx->share.lock);
	if (time_after_eq(now, s->rate_start + HZ)) {
		s->per_s = div_u64((served - s->rate_mark) * HZ,
				   now - s->rate_start);
		s->rate_mark = served;
		s->rate_start = now;
	}
	pcn_share_roll(s, now);
	for (i = 0; i < PCN_HOT_PAGES; i++) {
		if (s->hot[i].idx == idx && s->hot[i].cur + s->hot[i].prev)
			break;
		if (s->hot[i].cur + s->hot[i].prev <
		    s->hot[least].cur + s->hot[least].prev)
			least = i;
	}
	if (i == PCN_HOT_PAGES) {
		i = least;
		s->hot[i].idx = idx;
		s->hot[i].cur = 0;
		s->hot[i].prev = 0;
		s->hot[i].nodes = 0;
	}
	s->hot[i].cur++;
	if (nid >= 0 && nid < BITS_PER_LONG)
		s->hot[i].nodes |= BIT(nid);
	spin_unlock(&ctx->share.lock);
}

static int pcn_hot_cmp(const void *a, const void *b)
{
	const struct pcn_hot_page *x = a, *y = b;
	u32 nx = x->cur + x->prev, ny = y->cur + y->prev;

	return nx == ny ? 0 : nx > ny ? -1 : 1;
}

/**
 * pcn_share_copy() - take a copy of a process's figures, for a reader
 * @ctx: the process's context, at its origin
 * @out: where to copy; out->per_s is the current rate, decayed
 */
void pcn_share_copy(struct remote_context *ctx,
		    struct pcn_share_figures *out)
{
	unsigned long now = jiffies, age;

	spin_lock(&ctx->share.lock);
	pcn_share_roll(&ctx->share.f, now);
	*out = ctx->share.f;
	spin_unlock(&ctx->share.lock);
	/*
	 * No whole second yet, or no request for over two seconds: what
	 * came since the last mark, over the time since (a tenth of a
	 * second at least, so that a first burst is not taken for a rate).
	 */
	age = max(now - out->rate_start, (unsigned long)HZ / 10);
	if (!out->per_s || age > 2 * HZ)
		out->per_s = div_u64((atomic64_read(&ctx->faults_served) -
				      out->rate_mark) * HZ, age);
	sort(out->hot, PCN_HOT_PAGES, sizeof(out->hot[0]), pcn_hot_cmp, NULL);
}

/**
 * pcn_share_show() - the "share" and "hot" lines of a process
 * @seq: /proc/popcorn_ps
 * @tgid: the process's id, as the reader sees it
 * @s: its figures, from pcn_share_copy()
 */
void pcn_share_show(struct seq_file *seq, pid_t tgid,
		    const struct pcn_share_figures *s)
{
	unsigned int i;

	seq_printf(seq, "share %d remote_faults_per_s %u window_s %u\n", tgid,
		   s->per_s, 2 * PCN_HOT_WINDOW / HZ);
	for (i = 0; i < PCN_HOT_SHOWN; i++) {
		if (!(s->hot[i].cur + s->hot[i].prev))
			break;
		seq_printf(seq, "hot %d %#lx transfers %u nodes %#lx\n", tgid,
			   s->hot[i].idx << PAGE_SHIFT,
			   s->hot[i].cur + s->hot[i].prev, s->hot[i].nodes);
	}
}
