/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page hold time (page_hold.c): how long a page two nodes write in turn
 * stays with the node that got it before another node may take it.
 */
#ifndef _POPCORN_PAGE_HOLD_H
#define _POPCORN_PAGE_HOLD_H

#include <linux/types.h>

struct remote_context;

/*
 * The largest pcn.page_hold_us; the longest sleep of a deferred origin
 * fault before it looks again; how often a remote waits one out.
 */
#define PCN_HOLD_LIMIT_MAX_US	50000
#define PCN_HOLD_SLICE_US	1000
#define PCN_HOLD_TRIES		16
/* Pages with a hold entry, per process, at most. */
#define PCN_HOLD_MAX		4096

u32 pcn_hold_limit(void);
u64 pcn_hold_left(struct remote_context *ctx, unsigned long idx, int owner,
		  int nid, u64 now);
void pcn_hold_moved(struct remote_context *ctx, unsigned long idx, int from,
		    int to, u64 now, bool bounced);
void pcn_holds_forget(struct remote_context *ctx, unsigned long start,
		      unsigned long end);
void pcn_holds_release(struct remote_context *ctx);
u32 pcn_hold_next(u32 window, u64 gap, bool returned, u32 limit);

#endif /* _POPCORN_PAGE_HOLD_H */
