// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: page data placed by RDMA WRITE.
 *
 * A requester that will map the pages of the answer (a page fault's
 * grant) prepares them (pcn_kmsg_request_into()).  Here they are
 * registered for the peer to write into: a fast registration (REG_MR)
 * of one of the connection's PCN_RDMA_NR_MRS memory regions, with a
 * fresh key, is posted ahead of the request, and the request carries a
 * token (address, key, length, slot) after its bytes.  The responder
 * keeps the token by slot; its answer then writes the pages with one
 * RDMA WRITE into the registration and SENDs only the front part,
 * flagged as placed.  The reliable connection delivers the WRITE before
 * the SEND, so when the answer arrives its pages are in the requester's
 * pages, which become the message's page table: no copy on either
 * side.
 *
 * The registration ends when the wait does (->request_end): a LOCAL_INV,
 * waited for, after which the peer's writes fail.  A wait that ends
 * before its answer came (a killed requester) leaves the registration
 * in place, holding references to the pages, until the answer comes or
 * the connection ends: invalidating it earlier would make the peer's
 * WRITE a protection error that ends the connection.  Every answer to
 * one of our requests is flagged (PCN_RDMA_IMM_REPLY), so each ends its
 * registration, placed or not.  When no region is free, the request
 * goes without a token and the answer's pages come in the SEND.
 *
 * Every token and every placed answer is input from the peer: a token
 * names one of our slots and at most PCN_KMSG_MAX_PAGES pages, a placed
 * answer one of our registrations still waiting, with no more pages
 * than it has; anything else is dropped and counted.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include <linux/moduleparam.h>
#include <linux/scatterlist.h>

#include "rdma.h"

/* For comparison (make bench): answers' pages sent in the SEND instead. */
static bool pcn_rdma_place_pages = true;
module_param_named(place, pcn_rdma_place_pages, bool, 0644);
MODULE_PARM_DESC(place, "let answers write page data straight into the requester's pages (RDMA WRITE)");

/* A registration of a requester's pages, for one request. */
struct pcn_rdma_place {
	struct kref ref;
	struct pcn_rdma_conn *conn;	/* referenced */
	struct pcn_rdma_slot *slot;
	u32 wait_id;
	unsigned int npages;
	int nmapped;			/* sg entries DMA-mapped */
	struct scatterlist sg[PCN_KMSG_MAX_PAGES];
	struct page *pages[PCN_KMSG_MAX_PAGES];	/* referenced */
	/* Under the peer's placing lock. */
	bool registered;		/* the REG_MR was posted */
	bool answered;
	bool orphan;			/* its wait ended before the answer */
	/*
	 * Released only after the connection's MRs are deregistered
	 * (pcn_rdma_place_free()): its QP is dead, the key never ended.
	 */
	bool deferred;
	struct list_head deferred_entry;
	struct delayed_work retire_work;	/* an orphan's */
};

/* How long the invalidation of a live registration may take. */
#define PCN_RDMA_INV_TIMEOUT		(2 * HZ)
/* ... and, once its connection is ended, its flush. */
#define PCN_RDMA_INV_FLUSH_TIMEOUT	(10 * HZ)
/*
 * An orphan whose answer has not come by then is invalidated: a late
 * answer's WRITE then fails, which ends the connection.
 */
#define PCN_RDMA_ORPHAN_TIMEOUT		(30 * HZ)

/* What became of a registration's key. */
enum pcn_rdma_inv {
	PCN_RDMA_INV_DONE,		/* invalidated: the slot is free */
	PCN_RDMA_INV_QP_DEAD,		/* the QP is in the error state */
	PCN_RDMA_INV_UNKNOWN,		/* neither could be seen */
};

static void pcn_rdma_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct pcn_rdma_slot *slot = container_of(wc->wr_cqe,
						  struct pcn_rdma_slot,
						  reg_cqe);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		pcn_rdma_count(PCN_RDMA_QP_ERRORS);
		pcn_rdma_conn_lost(slot->conn, ib_wc_status_msg(wc->status));
	}
}

static void pcn_rdma_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct pcn_rdma_slot *slot = container_of(wc->wr_cqe,
						  struct pcn_rdma_slot,
						  inv_cqe);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		pcn_rdma_count(PCN_RDMA_QP_ERRORS);
		pcn_rdma_conn_lost(slot->conn, ib_wc_status_msg(wc->status));
	}
	slot->inv_status = wc->status;
	complete(&slot->inv_done);
}

/*
 * The memory regions of a new connection.  A device that has none (no
 * memory management extensions) or too few just places fewer answers.
 */
void pcn_rdma_place_setup(struct pcn_rdma_conn *conn)
{
	struct ib_device *dev = conn->cm_id->device;
	int i;

	if (!(dev->attrs.device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS))
		return;
	for (i = 0; i < PCN_RDMA_NR_MRS; i++) {
		struct pcn_rdma_slot *slot = &conn->slots[i];
		struct ib_mr *mr;

		mr = ib_alloc_mr(conn->pd, IB_MR_TYPE_MEM_REG,
				 PCN_KMSG_MAX_PAGES);
		if (IS_ERR(mr))
			break;
		slot->conn = conn;
		slot->mr = mr;
		slot->reg_cqe.done = pcn_rdma_reg_done;
		slot->inv_cqe.done = pcn_rdma_inv_done;
		init_completion(&slot->inv_done);
		__set_bit(i, &conn->mr_free);
	}
}

static void pcn_rdma_place_destroy(struct pcn_rdma_place *place)
{
	unsigned int i;

	if (place->nmapped)
		ib_dma_unmap_sg(place->conn->cm_id->device, place->sg,
				place->npages, DMA_FROM_DEVICE);
	for (i = 0; i < place->npages; i++)
		put_page(place->pages[i]);
	kfree(place);
}

static void pcn_rdma_place_release(struct kref *ref)
{
	struct pcn_rdma_place *place = container_of(ref, struct pcn_rdma_place,
						    ref);
	struct pcn_rdma_conn *conn = place->conn;

	if (place->deferred) {
		spin_lock(&conn->place_lock);
		list_add(&place->deferred_entry, &conn->deferred_places);
		spin_unlock(&conn->place_lock);
	} else {
		pcn_rdma_place_destroy(place);
	}
	pcn_rdma_conn_put(conn);
}

static void pcn_rdma_place_put(struct pcn_rdma_place *place)
{
	kref_put(&place->ref, pcn_rdma_place_release);
}

/* After the QP is drained: no work request of a slot can complete. */
void pcn_rdma_place_free(struct pcn_rdma_conn *conn)
{
	struct pcn_rdma_place *place, *next;
	int i;

	for (i = 0; i < PCN_RDMA_NR_MRS; i++)
		if (conn->slots[i].mr)
			ib_dereg_mr(conn->slots[i].mr);
	/* No key reaches their pages any more. */
	list_for_each_entry_safe(place, next, &conn->deferred_places,
				 deferred_entry)
		pcn_rdma_place_destroy(place);
}

/* Give a slot back: its MR holds no valid key any more. */
static void pcn_rdma_slot_free(struct pcn_rdma_conn *conn,
			       struct pcn_rdma_slot *slot)
{
	spin_lock(&conn->place_lock);
	__set_bit(slot - conn->slots, &conn->mr_free);
	spin_unlock(&conn->place_lock);
}

/* Invalidate @place's registration and wait until that is done. */
static enum pcn_rdma_inv pcn_rdma_invalidate(struct pcn_rdma_place *place)
{
	struct pcn_rdma_conn *conn = place->conn;
	struct pcn_rdma_slot *slot = place->slot;
	struct ib_send_wr wr = {
		.wr_cqe = &slot->inv_cqe,
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = slot->mr->rkey,
	};

	reinit_completion(&slot->inv_done);
	if (ib_post_send(conn->qp, &wr, NULL)) {
		/* The QP takes no work: ended, or about to be. */
		pcn_rdma_conn_lost(conn, "cannot post an invalidation");
		if (wait_event_timeout(conn->peer->wq,
				       READ_ONCE(conn->placing_closed),
				       PCN_RDMA_INV_FLUSH_TIMEOUT))
			return PCN_RDMA_INV_QP_DEAD;
		return PCN_RDMA_INV_UNKNOWN;
	}
	if (!wait_for_completion_timeout(&slot->inv_done,
					 PCN_RDMA_INV_TIMEOUT)) {
		/* Ending the connection flushes it. */
		pcn_rdma_conn_lost(conn, "an invalidation did not complete");
		if (!wait_for_completion_timeout(&slot->inv_done,
						 PCN_RDMA_INV_FLUSH_TIMEOUT))
			return PCN_RDMA_INV_UNKNOWN;
	}
	/* Any other outcome is an error completion: the QP is dead. */
	return slot->inv_status == IB_WC_SUCCESS ? PCN_RDMA_INV_DONE :
						   PCN_RDMA_INV_QP_DEAD;
}

/*
 * The end of a registration, once no wait can see its pages change:
 * invalidated, or (its QP dead) released after the MRs are.  Process
 * context.  Return: false when the peer may still write into the pages
 * (they, and the registration, are then leaked rather than reused).
 */
static bool pcn_rdma_place_retire(struct pcn_rdma_place *place, bool closed)
{
	struct pcn_rdma_conn *conn = place->conn;

	if (!place->registered) {
		pcn_rdma_slot_free(conn, place->slot);
		pcn_rdma_place_put(place);
		return true;
	}
	switch (closed ? PCN_RDMA_INV_QP_DEAD : pcn_rdma_invalidate(place)) {
	case PCN_RDMA_INV_DONE:
		pcn_rdma_slot_free(conn, place->slot);
		break;
	case PCN_RDMA_INV_QP_DEAD:
		place->deferred = true;
		break;
	default:
		pr_err("node %d: registration of %u pages not ended, pages leaked\n",
		       conn->peer->nid, place->npages);
		return false;
	}
	pcn_rdma_place_put(place);
	return true;
}

static void pcn_rdma_retire_work(struct work_struct *work)
{
	struct pcn_rdma_place *place = container_of(to_delayed_work(work),
						    struct pcn_rdma_place,
						    retire_work);
	struct pcn_rdma_peer *peer = place->conn->peer;
	bool closed;

	/* Its time is up, or it was taken out already (answered, closed). */
	xa_lock(&peer->placing);
	if (xa_load(&peer->placing, place->wait_id) == place)
		__xa_erase(&peer->placing, place->wait_id);
	closed = place->conn->placing_closed;
	xa_unlock(&peer->placing);
	pcn_rdma_place_retire(place, closed);
}

/* A registration of @pages in a free slot of @conn, not posted; or NULL. */
static struct pcn_rdma_place *pcn_rdma_place_alloc(struct pcn_rdma_conn *conn,
						   struct page **pages,
						   unsigned int npages,
						   struct ib_reg_wr *reg)
{
	struct ib_device *dev = conn->cm_id->device;
	struct pcn_rdma_place *place;
	struct pcn_rdma_slot *slot;
	unsigned int i, n;

	spin_lock(&conn->place_lock);
	n = find_first_bit(&conn->mr_free, PCN_RDMA_NR_MRS);
	if (n < PCN_RDMA_NR_MRS)
		__clear_bit(n, &conn->mr_free);
	spin_unlock(&conn->place_lock);
	if (n >= PCN_RDMA_NR_MRS) {
		pcn_rdma_count(PCN_RDMA_NO_MR);
		return NULL;
	}
	slot = &conn->slots[n];

	place = kzalloc(sizeof(*place), GFP_KERNEL);
	if (!place)
		goto out_slot;
	kref_init(&place->ref);
	kref_get(&conn->ref);
	place->conn = conn;
	place->slot = slot;
	place->npages = npages;
	INIT_DELAYED_WORK(&place->retire_work, pcn_rdma_retire_work);
	sg_init_table(place->sg, npages);
	for (i = 0; i < npages; i++) {
		/*
		 * The peer's WRITE cannot be checked to have covered the
		 * pages: what it did not write reads as zeros, not as
		 * someone's old data.
		 */
		clear_highpage(pages[i]);
		get_page(pages[i]);
		place->pages[i] = pages[i];
		sg_set_page(&place->sg[i], pages[i], PAGE_SIZE, 0);
	}
	place->nmapped = ib_dma_map_sg(dev, place->sg, npages,
				       DMA_FROM_DEVICE);
	if (!place->nmapped)
		goto out_place;
	/* A fresh key: tokens of the slot's earlier uses are void. */
	ib_update_fast_reg_key(slot->mr, ib_inc_rkey(slot->mr->rkey));
	if (ib_map_mr_sg(slot->mr, place->sg, place->nmapped, NULL,
			 PAGE_SIZE) != place->nmapped)
		goto out_place;

	*reg = (struct ib_reg_wr) {
		.wr = {
			.wr_cqe = &slot->reg_cqe,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = slot->mr,
		.key = slot->mr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	return place;

out_place:
	pcn_rdma_place_put(place);
out_slot:
	pcn_rdma_slot_free(conn, slot);
	return NULL;
}

/**
 * pcn_rdma_send_request() - the ->send_request op
 * @nid: the node
 * @msg: the request, its wait_id set
 * @size: its bytes
 * @pages: the requester's fresh pages for the answer's pages
 * @npages: how many, 1 to PCN_KMSG_MAX_PAGES
 *
 * Return: 0, or -errno as ->send; on error nothing stays registered.
 */
int pcn_rdma_send_request(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			  struct page **pages, unsigned int npages)
{
	struct pcn_rdma_peer *peer = &pcn_rdma_peers[nid];
	unsigned long deadline = jiffies + PCN_RDMA_SEND_TIMEOUT;
	struct pcn_rdma_post_extra x = { .imm_flags = PCN_RDMA_IMM_TOKEN };
	struct pcn_rdma_token token;
	struct pcn_rdma_place *place = NULL;
	struct pcn_rdma_conn *conn;
	struct ib_reg_wr reg;
	int ret;

	conn = pcn_rdma_conn_get_attached(peer);
	if (!conn)
		return -EAGAIN;
	if (npages && npages <= PCN_KMSG_MAX_PAGES && msg->wait_id &&
	    size + sizeof(token) <= PCN_RDMA_RX_SIZE &&
	    READ_ONCE(pcn_rdma_place_pages))
		place = pcn_rdma_place_alloc(conn, pages, npages, &reg);
	if (place)
		place->wait_id = msg->wait_id;
	if (place && xa_insert(&peer->placing, msg->wait_id, place,
			       GFP_KERNEL)) {
		pcn_rdma_place_retire(place, false);
		place = NULL;
	}
	if (!place) {
		ret = pcn_rdma_post_send(conn, msg, size, NULL, 0, deadline);
		goto out;
	}

	token = (struct pcn_rdma_token) {
		.addr = cpu_to_le64(place->slot->mr->iova),
		.rkey = cpu_to_le32(place->slot->mr->rkey),
		.len = cpu_to_le32(npages * PAGE_SIZE),
		.slot = cpu_to_le16(place->slot - conn->slots),
	};
	x.reg = &reg.wr;
	x.token = &token;
	ret = pcn_rdma_post_send_extra(conn, msg, size, NULL, 0, &x, deadline);
	xa_lock(&peer->placing);
	place->registered = x.reg_posted;
	xa_unlock(&peer->placing);
	if (ret) {
		xa_erase(&peer->placing, msg->wait_id);
		pcn_rdma_place_retire(place, false);
	} else {
		pcn_rdma_count(PCN_RDMA_REGISTRATIONS);
	}
out:
	pcn_rdma_conn_put(conn);
	if (ret == -ETIMEDOUT || ret == -ECONNRESET)
		ret = -EHOSTDOWN;
	return ret;
}

/**
 * pcn_rdma_request_end() - the ->request_end op
 * @nid: the node
 * @wait_id: the request's wait
 *
 * An answered registration is invalidated before this returns.  An
 * unanswered one stays, with references to its pages, until its answer,
 * the end of its connection or PCN_RDMA_ORPHAN_TIMEOUT.
 *
 * Return: false when an answer's pages may still be written to.
 */
bool pcn_rdma_request_end(int nid, u32 wait_id)
{
	struct pcn_rdma_peer *peer = &pcn_rdma_peers[nid];
	struct pcn_rdma_place *place;
	bool closed;

	xa_lock(&peer->placing);
	place = xa_load(&peer->placing, wait_id);
	if (!place) {
		xa_unlock(&peer->placing);
		return true;
	}
	closed = place->conn->placing_closed;
	if (!place->answered && !closed) {
		place->orphan = true;
		queue_delayed_work(pcn_rdma_wq, &place->retire_work,
				   PCN_RDMA_ORPHAN_TIMEOUT);
		xa_unlock(&peer->placing);
		return true;
	}
	__xa_erase(&peer->placing, wait_id);
	xa_unlock(&peer->placing);
	return pcn_rdma_place_retire(place, closed);
}

/*
 * The connection is lost and its QP in the error state: no write can
 * reach a registration of it any more.  Release those whose wait ended;
 * the others end with their waits, which fail now.
 */
void pcn_rdma_place_close(struct pcn_rdma_conn *conn)
{
	struct pcn_rdma_peer *peer = conn->peer;
	struct pcn_rdma_place *place;
	unsigned long id;

	xa_lock(&peer->placing);
	WRITE_ONCE(conn->placing_closed, true);
	xa_for_each(&peer->placing, id, place) {
		if (place->conn != conn || !place->orphan)
			continue;
		__xa_erase(&peer->placing, id);
		mod_delayed_work(pcn_rdma_wq, &place->retire_work, 0);
	}
	xa_unlock(&peer->placing);
	wake_up_all(&peer->wq);
}

/*
 * An answer to our request @wait_id came, with @npages pages placed (or
 * none): its registration may end.  An orphan's ends here (*@orphan
 * set).  Returns the place, referenced, when it is still waited for;
 * NULL also for pages it cannot have placed (not marked answered).
 */
static struct pcn_rdma_place *pcn_rdma_answered(struct pcn_rdma_conn *conn,
						u32 wait_id,
						unsigned int npages,
						bool *orphan)
{
	struct pcn_rdma_peer *peer = conn->peer;
	struct pcn_rdma_place *place;

	*orphan = false;
	xa_lock(&peer->placing);
	place = xa_load(&peer->placing, wait_id);
	/* Without a registration posted, nothing was written. */
	if (!place || place->conn != conn || place->answered ||
	    (npages && (npages > place->npages || !place->registered))) {
		xa_unlock(&peer->placing);
		return NULL;
	}
	place->answered = true;
	if (place->orphan) {
		__xa_erase(&peer->placing, wait_id);
		mod_delayed_work(pcn_rdma_wq, &place->retire_work, 0);
		xa_unlock(&peer->placing);
		*orphan = true;
		return NULL;
	}
	kref_get(&place->ref);
	xa_unlock(&peer->placing);
	return place;
}

/* A message flagged as answering one of our requests, not placed. */
void pcn_rdma_rx_reply(struct pcn_rdma_conn *conn, struct pcn_kmsg_hdr *hdr)
{
	struct pcn_rdma_place *place;
	bool orphan;

	place = pcn_rdma_answered(conn, hdr->wait_id, 0, &orphan);
	if (place)
		pcn_rdma_place_put(place);
}

/**
 * pcn_rdma_rx_placed() - an answer whose pages were written into ours
 * @conn: its connection
 * @hdr: the front part received (@len bytes)
 * @len: bytes received
 *
 * Return: the message, with the registration's pages as its page table,
 * or NULL when it was dropped (counted and logged).
 */
struct pcn_kmsg_hdr *pcn_rdma_rx_placed(struct pcn_rdma_conn *conn,
					struct pcn_kmsg_hdr *hdr, u32 len)
{
	unsigned int npages = pcn_kmsg_rx_npages(hdr);
	struct pcn_rdma_place *place;
	struct pcn_kmsg_hdr *msg;
	bool orphan;
	size_t front;

	if (!npages || npages != hdr->npages ||
	    pcn_kmsg_front_size(hdr) != len) {
		pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
		pcn_kmsg_count_drop(PCN_DROP_SIZE);
		pr_warn_ratelimited("node %d sent a placed answer of %u bytes framed as %u with %u pages, dropped\n",
				    conn->peer->nid, len, hdr->size,
				    hdr->npages);
		return NULL;
	}
	place = pcn_rdma_answered(conn, hdr->wait_id, npages, &orphan);
	if (orphan)
		return NULL;	/* its requester is gone: nothing amiss */
	if (!place) {
		pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
		pcn_kmsg_count_drop(PCN_DROP_WAIT);
		pr_warn_ratelimited("node %d placed %u pages for no registration of wait %u, dropped\n",
				    conn->peer->nid, npages, hdr->wait_id);
		return NULL;
	}
	msg = pcn_kmsg_rx_alloc_placed(hdr, place->pages);
	pcn_rdma_place_put(place);
	if (!msg) {
		pcn_rdma_conn_lost(conn, "out of memory for a message");
		return NULL;
	}
	front = pcn_kmsg_front_size(hdr);
	memcpy((void *)msg + sizeof(*hdr), (void *)hdr + sizeof(*hdr),
	       front - sizeof(*hdr));
	pcn_rdma_count_add(PCN_RDMA_PAGES_PLACED, npages);
	return msg;
}

/**
 * pcn_rdma_rx_token() - keep the token that follows a request
 * @conn: its connection
 * @hdr: the request
 * @tok: the token, unaligned
 * @len: its bytes
 *
 * Return: 0, or -EINVAL for a token that makes no sense (the request is
 * then dropped).
 */
int pcn_rdma_rx_token(struct pcn_rdma_conn *conn, struct pcn_kmsg_hdr *hdr,
		      const void *tok, size_t len)
{
	struct pcn_rdma_token t;
	u32 bytes;
	u16 n;

	if (len != sizeof(t))
		return -EINVAL;
	memcpy(&t, tok, sizeof(t));
	n = le16_to_cpu(t.slot);
	bytes = le32_to_cpu(t.len);
	if (n >= PCN_RDMA_NR_MRS || !hdr->wait_id || hdr->npages || !bytes ||
	    bytes % PAGE_SIZE || bytes > PCN_KMSG_MAX_PAGES * PAGE_SIZE)
		return -EINVAL;
	/* The peer reuses a slot only after it ended its last use. */
	spin_lock(&conn->place_lock);
	conn->slots[n].peer_tok = t;
	conn->slots[n].peer_wait_id = hdr->wait_id;
	spin_unlock(&conn->place_lock);
	return 0;
}

/* The token of the peer's request @wait_id, taken; false if none. */
static bool pcn_rdma_take_token(struct pcn_rdma_conn *conn, u32 wait_id,
				struct pcn_rdma_token *tok)
{
	bool found = false;
	int i;

	if (!wait_id)
		return false;
	spin_lock(&conn->place_lock);
	for (i = 0; i < PCN_RDMA_NR_MRS; i++) {
		if (conn->slots[i].peer_wait_id == wait_id) {
			*tok = conn->slots[i].peer_tok;
			conn->slots[i].peer_wait_id = 0;
			found = true;
			break;
		}
	}
	spin_unlock(&conn->place_lock);
	return found;
}

/**
 * pcn_rdma_reply_pages() - the ->reply_pages op
 * @nid: the requester
 * @msg: the answer's front part, its wait_id the request's
 * @size: bytes of the front part
 * @pages: pages of data that follow
 * @npages: how many, maybe 0
 *
 * With the request's token and room in it, the pages are written into
 * the requester's registration and only the front part is sent;
 * otherwise as ->send_pages.  Either way flagged as an answer.
 *
 * Return: 0, or -errno as ->send_pages.
 */
int pcn_rdma_reply_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			 struct page **pages, unsigned int npages)
{
	struct pcn_rdma_post_extra x = { .imm_flags = PCN_RDMA_IMM_REPLY };
	struct pcn_rdma_token tok;
	struct pcn_rdma_conn *conn;
	int ret;

	conn = pcn_rdma_conn_get_attached(&pcn_rdma_peers[nid]);
	if (!conn)
		return -EAGAIN;
	if (pcn_rdma_take_token(conn, msg->wait_id, &tok) && npages &&
	    npages * PAGE_SIZE <= le32_to_cpu(tok.len)) {
		x.write_to = &tok;
		x.imm_flags = PCN_RDMA_IMM_PLACED;
	}
	ret = pcn_rdma_post_send_extra(conn, msg, size, pages, npages, &x,
				       jiffies + PCN_RDMA_SEND_TIMEOUT);
	pcn_rdma_conn_put(conn);
	if (ret == -ETIMEDOUT || ret == -ECONNRESET)
		ret = -EHOSTDOWN;
	return ret;
}

#if IS_ENABLED(CONFIG_POPCORN_KUNIT_TEST)
#include "rdma_place_test.c"
#endif
