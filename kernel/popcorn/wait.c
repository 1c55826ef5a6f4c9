// SPDX-License-Identifier: GPL-2.0
/*
 * Request/response waits.
 *
 * A request carries the id of a wait registered in an xarray; the
 * response echoes it.  A response is accepted only for a live wait of
 * the node it came from and of the type the wait expects, so a peer can
 * neither complete another node's wait nor complete one twice.  Every
 * wait is bounded by a timeout (or, for a request that stands for a
 * blocking system call, by a fatal signal) and ends with -EHOSTDOWN when
 * its node goes offline.
 */
#include <linux/completion.h>
#include <linux/init.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <popcorn/nodes.h>

#include "kmsg_internal.h"

/*
 * Wait ids start at 1: 0 in a header means "no wait".  They are handed
 * out cyclically, from a random start, so that a late response (after a
 * timeout, or from before a peer restarted) does not find a new wait
 * under the id it carries.
 */
static DEFINE_XARRAY_ALLOC1(pcn_waits);
static u32 pcn_wait_next;

/* Requests waiting for their answer now, for /proc/popcorn_stat. */
unsigned int pcn_kmsg_waits_live(void)
{
	unsigned long id;
	unsigned int n = 0;
	void *w;

	xa_lock(&pcn_waits);
	xa_for_each(&pcn_waits, id, w)
		n++;
	xa_unlock(&pcn_waits);
	return n;
}

/* See pcn_kmsg_request_begin(); @place, @nplace: as pcn_kmsg_request_into(). */
static int __pcn_kmsg_request_begin(struct pcn_kmsg_wait *w, int nid,
				    void *req, size_t size,
				    enum pcn_kmsg_type resp_type,
				    struct page **place, unsigned int nplace)
{
	struct pcn_kmsg_hdr *hdr = req;
	int ret;

	init_completion(&w->done);
	w->answered = false;
	w->nid = nid;
	w->resp_type = resp_type;
	w->error = 0;
	w->id = 0;
	w->resp = NULL;
	w->placing = false;
	if (!pcn_nid_valid(nid)) {
		w->error = -EINVAL;
		return w->error;
	}
	ret = xa_alloc_cyclic(&pcn_waits, &w->id, w, xa_limit_32b,
			      &pcn_wait_next, GFP_KERNEL);
	if (ret < 0) {
		w->id = 0;
		w->error = ret;
		return ret;
	}
	hdr->wait_id = w->id;
	/*
	 * The wait is registered before the online check inside the send:
	 * a node going offline after it is caught by pcn_kmsg_fail_waits().
	 */
	ret = __pcn_kmsg_send(nid, hdr, size, NULL, 0, place, nplace, false);
	if (ret) {
		/* A response may have come all the same: not leaked. */
		xa_lock(&pcn_waits);
		__xa_erase(&pcn_waits, w->id);
		xa_unlock(&pcn_waits);
		pcn_kmsg_done(w->resp);
		w->resp = NULL;
		w->id = 0;
		w->error = ret;
	}
	w->placing = !ret && nplace;
	return ret;
}

/**
 * pcn_kmsg_request_begin() - send a request without waiting for it
 * @w: the wait, owned by the caller until pcn_kmsg_request_end()
 * @nid: destination node
 * @req: the request; its header's wait_id is set here, the rest is the
 *	caller's (it is sent as a copy and may be reused at once)
 * @size: bytes of @req
 * @resp_type: the response type to accept
 *
 * Requests to several nodes can so be in flight at once, then ended one
 * after the other.  Every call must be paired with
 * pcn_kmsg_request_end(), also when it fails.  May sleep.
 *
 * Return: 0, or the error that pcn_kmsg_request_end() will return.
 */
int pcn_kmsg_request_begin(struct pcn_kmsg_wait *w, int nid, void *req,
			   size_t size, enum pcn_kmsg_type resp_type)
{
	return __pcn_kmsg_request_begin(w, nid, req, size, resp_type, NULL, 0);
}

/*
 * Wait for @w's response until jiffies @deadline (killable instead,
 * without a deadline, when @killable), then unregister it.
 */
static int __pcn_kmsg_request_end(struct pcn_kmsg_wait *w,
				  unsigned long deadline, bool killable,
				  struct pcn_kmsg_hdr **resp)
{
	bool placed_safe = true;
	long left;
	int ret = 0;

	*resp = NULL;
	if (!w->id)
		return w->error;
	if (killable) {
		if (!w->answered && wait_for_completion_killable(&w->done))
			ret = -EINTR;
	} else {
		left = (long)(deadline - jiffies);
		if (left <= 0 || !wait_for_completion_timeout(&w->done, left))
			ret = -ETIMEDOUT;
	}

	/*
	 * The peer may write into the pages prepared for the response
	 * until the transport says it cannot any more; the wait keeps its
	 * id meanwhile, so that no other request reuses it.
	 */
	if (w->placing) {
		struct pcn_kmsg_transport *t = pcn_kmsg_active_transport();

		placed_safe = t->request_end(w->nid, w->id);
		w->placing = false;
	}

	/* A response may race with the timeout: take it under the lock. */
	xa_lock(&pcn_waits);
	__xa_erase(&pcn_waits, w->id);
	xa_unlock(&pcn_waits);
	w->id = 0;

	if (w->resp && !placed_safe) {
		/* Its pages might still change: as if the node went away. */
		pcn_kmsg_done(w->resp);
		w->resp = NULL;
		return -EHOSTDOWN;
	}
	if (w->resp) {
		*resp = w->resp;
		return 0;
	}
	return w->error ? w->error : ret;
}

/**
 * pcn_kmsg_request_end() - wait for a request begun with
 *	pcn_kmsg_request_begin()
 * @w: its wait
 * @deadline: in jiffies; a response not in by then is -ETIMEDOUT
 * @resp: set to the response on success (release it with
 *	pcn_kmsg_done())
 *
 * Return: as pcn_kmsg_request().
 */
int pcn_kmsg_request_end(struct pcn_kmsg_wait *w, unsigned long deadline,
			 struct pcn_kmsg_hdr **resp)
{
	return __pcn_kmsg_request_end(w, deadline, false, resp);
}

/**
 * pcn_kmsg_request_end_killable() - pcn_kmsg_request_end() without a
 *	deadline, ended by a fatal signal with -EINTR
 * @w: its wait
 * @resp: set to the response on success
 *
 * Return: as pcn_kmsg_request_killable().
 */
int pcn_kmsg_request_end_killable(struct pcn_kmsg_wait *w,
				  struct pcn_kmsg_hdr **resp)
{
	return __pcn_kmsg_request_end(w, 0, true, resp);
}

/**
 * pcn_kmsg_request_wait_interruptible() - wait for a request begun with
 *	pcn_kmsg_request_begin() until it is answered or a signal comes
 * @w: its wait
 *
 * The wait stays registered: end it with pcn_kmsg_request_end() or
 * pcn_kmsg_request_end_killable() in every case.
 *
 * Return: 0 when the answer (or the error) is in, -ERESTARTSYS when a
 * signal is pending first.
 */
int pcn_kmsg_request_wait_interruptible(struct pcn_kmsg_wait *w)
{
	if (!w->id || w->answered)
		return 0;
	/* The completion is consumed: the end must not wait for it again. */
	if (wait_for_completion_interruptible(&w->done))
		return -ERESTARTSYS;
	w->answered = true;
	return 0;
}

int pcn_kmsg_request(int nid, void *req, size_t size,
		     enum pcn_kmsg_type resp_type, unsigned long timeout,
		     struct pcn_kmsg_hdr **resp)
{
	struct pcn_kmsg_wait w;

	pcn_kmsg_request_begin(&w, nid, req, size, resp_type);
	return __pcn_kmsg_request_end(&w, jiffies + timeout, false, resp);
}

int pcn_kmsg_request_killable(int nid, void *req, size_t size,
			      enum pcn_kmsg_type resp_type,
			      struct pcn_kmsg_hdr **resp)
{
	struct pcn_kmsg_wait w;

	pcn_kmsg_request_begin(&w, nid, req, size, resp_type);
	return __pcn_kmsg_request_end(&w, 0, true, resp);
}

/**
 * pcn_kmsg_request_nodes() - ask several nodes the same, and wait for
 *	every answer
 * @nodes: a bitmap of POPCORN_MAX_NODES bits, the nodes to ask
 * @req: the request (the caller keeps it; its wait_id is overwritten)
 * @size: bytes of @req
 * @resp_type: the response type to accept
 * @timeout: how long all the answers may take, in jiffies
 * @failed: called for each node that did not answer, with its error
 * @arg: for @failed
 *
 * All are asked at once, so the wait is one round trip, not one per
 * node; without memory for the waits, one after the other.  The answers
 * are released here: only whether they came counts.  May sleep.
 *
 * Return: how many nodes did not answer.
 */
int pcn_kmsg_request_nodes(const unsigned long *nodes, void *req,
			   size_t size, enum pcn_kmsg_type resp_type,
			   unsigned long timeout,
			   void (*failed)(int nid, int err, void *arg),
			   void *arg)
{
	unsigned long deadline = jiffies + timeout;
	struct pcn_kmsg_hdr *resp;
	struct pcn_kmsg_wait *w;
	int nid, err, lost = 0;

	w = kcalloc(POPCORN_MAX_NODES, sizeof(*w), GFP_KERNEL);
	for_each_set_bit(nid, nodes, POPCORN_MAX_NODES) {
		if (w) {
			pcn_kmsg_request_begin(&w[nid], nid, req, size,
					       resp_type);
			continue;
		}
		err = pcn_kmsg_request(nid, req, size, resp_type, timeout,
				       &resp);
		if (!err) {
			pcn_kmsg_done(resp);
		} else {
			lost++;
			failed(nid, err, arg);
		}
	}
	if (!w)
		return lost;
	for_each_set_bit(nid, nodes, POPCORN_MAX_NODES) {
		err = pcn_kmsg_request_end(&w[nid], deadline, &resp);
		if (!err) {
			pcn_kmsg_done(resp);
		} else {
			lost++;
			failed(nid, err, arg);
		}
	}
	kfree(w);
	return lost;
}

/**
 * pcn_kmsg_request_into() - pcn_kmsg_request_killable(), with the pages
 *	of the response placed where the caller wants them
 * @nid: destination node
 * @req: the request, which carries no pages itself
 * @size: bytes of @req
 * @resp_type: the response type to accept
 * @pages: fresh pages, the caller's, for the first @npages pages of
 *	data of the response
 * @npages: how many, at most PCN_KMSG_MAX_PAGES; 0 for none
 * @resp: set to the response on success
 *
 * A transport that can (pcn_kmsg_can_place()) has the peer write the
 * response's pages straight into @pages, and the response then has them
 * (with references of its own) in its page table: the data is not
 * copied on this side.  Otherwise, or when the peer's answer has no
 * pages, @pages are left as they were.  Either way, when this returns
 * the peer cannot write into them any more, and the caller still owns
 * its references.
 *
 * Return: as pcn_kmsg_request_killable().
 */
int pcn_kmsg_request_into(int nid, void *req, size_t size,
			  enum pcn_kmsg_type resp_type, struct page **pages,
			  unsigned int npages, struct pcn_kmsg_hdr **resp)
{
	struct pcn_kmsg_wait w;

	if (!pcn_kmsg_can_place() || npages > PCN_KMSG_MAX_PAGES)
		npages = 0;
	__pcn_kmsg_request_begin(&w, nid, req, size, resp_type, pages,
				 npages);
	return __pcn_kmsg_request_end(&w, 0, true, resp);
}

/* Hand @msg to the wait it answers; -ENOENT when there is none. */
int pcn_kmsg_wait_complete(int nid, struct pcn_kmsg_hdr *msg)
{
	struct pcn_kmsg_wait *w;
	int ret = -ENOENT;

	xa_lock(&pcn_waits);
	w = xa_load(&pcn_waits, msg->wait_id);
	if (w && w->nid == nid && w->resp_type == msg->type && !w->resp &&
	    !w->error) {
		w->resp = msg;
		complete(&w->done);
		ret = 0;
	}
	xa_unlock(&pcn_waits);
	return ret;
}

/* Node @nid went offline: end every wait for it with -EHOSTDOWN. */
void pcn_kmsg_fail_waits(int nid)
{
	struct pcn_kmsg_wait *w;
	unsigned long id;

	xa_lock(&pcn_waits);
	xa_for_each(&pcn_waits, id, w) {
		if (w->nid == nid && !w->resp && !w->error) {
			w->error = -EHOSTDOWN;
			complete(&w->done);
		}
	}
	xa_unlock(&pcn_waits);
}

static int __init pcn_wait_init(void)
{
	pcn_wait_next = get_random_u32();
	return 0;
}
late_initcall(pcn_wait_init);
