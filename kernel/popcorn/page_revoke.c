// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn page revocation: the origin takes back the remote copies of
 * a set of pages, asking every holder at once with one message per node
 * (PAGE_INVALIDATE) for up to PCN_INVAL_MAX pages, the data of at most
 * PCN_INVAL_DATA_MAX of them (those a remote writes) coming back in the
 * answer.  A write fault on a page three nodes read so costs one round
 * trip, not three in a row, and MADV_RELEASE or fork of 16 MiB a remote
 * wrote one round trip per 15 pages, not per page.
 *
 * The caller owns the fault handle of every page it adds (page_server.c)
 * and changes the directory from the result; this file only talks to
 * the holders.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <popcorn/nodes.h>
#include <popcorn/pcn_kmsg.h>

#include "fault_stat.h"
#include "page.h"
#include "trace.h"

/**
 * pcn_revoke_alloc() - a revocation of up to @max pages of @ctx
 * @ctx: the process
 * @max: pages it may hold, at most PCN_INVAL_MAX
 *
 * Return: the revocation, or NULL without memory.
 */
struct pcn_revoke *pcn_revoke_alloc(struct remote_context *ctx,
				    unsigned int max)
{
	struct pcn_revoke *r;

	max = clamp(max, 1U, (unsigned int)PCN_INVAL_MAX);
	r = kvzalloc(struct_size(r, page, max), GFP_KERNEL);
	if (r) {
		r->ctx = ctx;
		r->max = max;
		r->max_data = pcn_inval_data_limit(pcn_kmsg_max_size());
	}
	return r;
}

/* Empty @r for the next set of pages: data not taken is dropped. */
void pcn_revoke_reset(struct pcn_revoke *r)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->page[i].page)
			put_page(r->page[i].page);
	r->n = 0;
	r->ndata = 0;
}

void pcn_revoke_free(struct pcn_revoke *r)
{
	if (r) {
		pcn_revoke_reset(r);
		kvfree(r);
	}
}

/**
 * pcn_revoke_add() - add a page to a revocation
 * @r: the revocation
 * @addr: the page's address
 * @holders: the nodes to ask to drop their copy (the origin is left out)
 * @data_nid: the holder whose data is wanted (a remote writer), or -1
 *
 * The data comes back as a page of the answer (its ->page), taken over
 * as it was received so that it can be mapped without a copy.
 *
 * Return: false when @r is full, or has as many pages of data as one
 * answer can carry.
 */
bool pcn_revoke_add(struct pcn_revoke *r, unsigned long addr,
		    unsigned long holders, int data_nid)
{
	struct remote_context *ctx = r->ctx;
	struct pcn_revoke_page *p;
	void *g;

	if (r->n == r->max || (data_nid >= 0 && r->ndata == r->max_data))
		return false;
	p = &r->page[r->n++];
	p->addr = addr;
	p->holders = holders & ~BIT(pcn_my_nid());
	p->data_nid = data_nid;
	p->page = NULL;
	p->grant = 0;
	p->error = 0;
	if (data_nid >= 0) {
		p->holders |= BIT(data_nid);
		r->ndata++;
		/* The writer's grant may still be on its way: it waits. */
		g = xa_load(&ctx->grants, addr >> PAGE_SHIFT);
		if (g)
			p->grant = xa_to_value(g);
	}
	p->version = atomic64_inc_return(&ctx->version);
	return true;
}

/* The request to @nid for its pages of @r; NULL without memory. */
static struct pcn_page_inval *pcn_revoke_msg(struct pcn_revoke *r, int nid,
					     size_t *size)
{
	struct pcn_page_inval *m;
	struct pcn_revoke_page *p;
	unsigned int cnt = 0, i;

	for (i = 0; i < r->n; i++)
		cnt += !!(r->page[i].holders & BIT(nid));
	*size = PCN_INVAL_SIZE(cnt);
	m = kvzalloc(*size, GFP_KERNEL);
	if (!m)
		return NULL;
	m->hdr.type = PCN_KMSG_TYPE_PAGE_INVALIDATE;
	m->ctx_id = r->ctx->id;
	m->n = cnt;
	cnt = 0;
	for (i = 0; i < r->n; i++) {
		p = &r->page[i];
		if (!(p->holders & BIT(nid)))
			continue;
		m->page[cnt].addr = p->addr;
		if (p->data_nid == nid)
			m->page[cnt].addr |= PCN_INVAL_WANT_DATA;
		m->page[cnt].version = p->version;
		m->page[cnt].grant = p->data_nid == nid ? p->grant : 0;
		cnt++;
	}
	return m;
}

/*
 * The outcome for page @p of @nid's answer @err: a holder that is
 * offline has lost its copy, but data that did not come back is lost.
 */
static void pcn_revoke_result(struct pcn_revoke *r, struct pcn_revoke_page *p,
			      int nid, int err, u64 ns)
{
	bool data = p->data_nid == nid;

	trace_pcn_page_revoke(r->ctx->tgid, nid, p->addr, data, err, ns);
	if (!err) {
		pcn_fault_account(PCN_FAULT_INVALIDATION, ns);
		return;
	}
	if (!data && !pcn_node_online(nid))
		return;
	if (!data || !(current->flags & PF_EXITING))
		pr_warn_ratelimited("page %lx of process %d: node %d did not %s: %d\n",
				    p->addr, r->ctx->tgid, nid,
				    data ? "give its data back" :
					   "drop its copy", err);
	if (!p->error)
		p->error = -EIO;
}

/**
 * pcn_revoke_ack() - take in a holder's answer to a revocation
 * @r: the revocation
 * @nid: the holder
 * @ack: its answer, untrusted
 * @size: bytes of @ack
 * @ns: the round trip, for the statistics
 *
 * Checks @ack against the pages asked of @nid and takes over the pages
 * of data that came back; each page's outcome is recorded.  Called by
 * pcn_revoke_run(), and by the KUnit tests.
 */
void pcn_revoke_ack(struct pcn_revoke *r, int nid,
		    struct pcn_page_inval_ack *ack, size_t size, u64 ns)
{
	unsigned int cnt = 0, ndata = 0, i, k;
	struct pcn_revoke_page *p;
	unsigned int page = 0;
	int err = 0;
	u64 w;

	for (i = 0; i < r->n; i++)
		cnt += !!(r->page[i].holders & BIT(nid));
	/* The words before the pages: exactly one per page asked. */
	if (size != ack->hdr.size ||
	    pcn_kmsg_front_size(&ack->hdr) != PCN_INVAL_ACK_FRONT(cnt) ||
	    ack->ctx_id != r->ctx->id || ack->n != cnt) {
		err = -EPROTO;
		goto out;
	}
	/* Every word names its page; data only where it was asked for. */
	for (i = 0, k = 0; i < r->n; i++) {
		p = &r->page[i];
		if (!(p->holders & BIT(nid)))
			continue;
		w = ack->page[k++];
		/* Its address, and at most one known flag. */
		if ((w & PAGE_MASK) != p->addr ||
		    (w & ~PAGE_MASK & ~(PCN_INVAL_HAS_DATA | PCN_INVAL_REFUSED)) ||
		    ((w & PCN_INVAL_HAS_DATA) && (w & PCN_INVAL_REFUSED)) ||
		    ((w & PCN_INVAL_HAS_DATA) && p->data_nid != nid)) {
			err = -EPROTO;
			goto out;
		}
		ndata += !!(w & PCN_INVAL_HAS_DATA);
	}
	if (size != PCN_INVAL_ACK_SIZE(cnt, ndata) ||
	    pcn_kmsg_rx_npages(&ack->hdr) != ndata) {
		err = -EPROTO;
		goto out;
	}
	for (i = 0, k = 0; i < r->n; i++) {
		p = &r->page[i];
		if (!(p->holders & BIT(nid)))
			continue;
		w = ack->page[k++];
		if (w & PCN_INVAL_REFUSED) {
			pcn_revoke_result(r, p, nid, -EPROTO, ns);
		} else if (w & PCN_INVAL_HAS_DATA) {
			p->page = pcn_kmsg_take_page(&ack->hdr, page++);
			pcn_revoke_result(r, p, nid, p->page ? 0 : -ENODATA,
					  ns);
		} else {
			pcn_revoke_result(r, p, nid,
					  p->data_nid == nid ? -ENODATA : 0,
					  ns);
		}
	}
	return;
out:
	for (i = 0; i < r->n; i++)
		if (r->page[i].holders & BIT(nid))
			pcn_revoke_result(r, &r->page[i], nid, err, ns);
}

/**
 * pcn_revoke_run() - ask every holder of @r's pages to drop its copies
 * @r: the revocation
 *
 * One request per holder, all in flight at once, each answered within
 * PCN_PAGE_TIMEOUT.  Afterwards each page's error is 0 when no online
 * node kept a copy and its wanted data came back (its ->page), or
 * -EIO.  May sleep; the caller owns the pages' fault handles.
 */
void pcn_revoke_run(struct pcn_revoke *r)
{
	unsigned long nodes = 0, deadline;
	int err[POPCORN_MAX_NODES];
	struct pcn_page_inval *m;
	struct pcn_kmsg_hdr *resp;
	unsigned int i;
	size_t size;
	u64 t0;
	int nid;

	for (i = 0; i < r->n; i++)
		nodes |= r->page[i].holders;
	t0 = ktime_get_ns();
	for_each_set_bit(nid, &nodes, POPCORN_MAX_NODES) {
		m = pcn_revoke_msg(r, nid, &size);
		err[nid] = -ENOMEM;
		if (!m)
			continue;
		err[nid] = pcn_kmsg_request_begin(&r->wait[nid], nid, m, size,
						  PCN_KMSG_TYPE_PAGE_INVALIDATED);
		kvfree(m);
	}
	deadline = jiffies + PCN_PAGE_TIMEOUT;
	for_each_set_bit(nid, &nodes, POPCORN_MAX_NODES) {
		if (!err[nid]) {
			err[nid] = pcn_kmsg_request_end(&r->wait[nid], deadline,
							&resp);
			if (!err[nid]) {
				pcn_revoke_ack(r, nid,
					       (struct pcn_page_inval_ack *)resp,
					       resp->size,
					       ktime_get_ns() - t0);
				pcn_kmsg_done(resp);
				continue;
			}
		}
		for (i = 0; i < r->n; i++)
			if (r->page[i].holders & BIT(nid))
				pcn_revoke_result(r, &r->page[i], nid, err[nid],
						  ktime_get_ns() - t0);
	}
}
