// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: sending, and credits.
 *
 * Every message is one SEND_WITH_IMM: the front part copied into a
 * buffer of the send (the caller keeps its own), then the pages of data
 * gathered from the sender's pages by reference, so page data is not
 * copied on this side.  The immediate data carries credits: how many
 * receive buffers the sender reposted since it last said so.
 *
 * Credits: a connection starts with one per receive buffer the peer
 * posted (PCN_RDMA_RX_DEPTH), each SEND takes one, and the peer gives
 * them back as it reposts; a sender without a credit waits (counted as
 * a stall), so a peer is never sent more than it has buffers for.
 * Messages of the core leave PCN_RDMA_CREDIT_RESERVE credits to control
 * messages (empty SENDs that only carry credits): the receiver can
 * always announce its buffers, and neither side waits for the other.
 * An idle connection sends a control message every PCN_RDMA_KEEPALIVE,
 * so a vanished peer fails its retransmissions and is noticed.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

struct pcn_rdma_tx {
	struct ib_cqe cqe;
	struct pcn_rdma_conn *conn;
	void *buf;
	unsigned int nsge;
	struct ib_sge sge[1 + PCN_KMSG_MAX_PAGES];
	struct page *pages[PCN_KMSG_MAX_PAGES];
	unsigned int npages;
};

/* Take a credit when more than @reserve are left. */
static bool pcn_rdma_take_credit(struct pcn_rdma_conn *conn, int reserve)
{
	int c = atomic_read(&conn->credits);

	do {
		if (c <= reserve)
			return false;
	} while (!atomic_try_cmpxchg(&conn->credits, &c, c - 1));
	return true;
}

/* For a message of the core: a credit taken, or nothing to wait for. */
static bool pcn_rdma_credit_or_dead(struct pcn_rdma_conn *conn)
{
	return pcn_rdma_conn_dead(conn) ||
	       pcn_rdma_take_credit(conn, PCN_RDMA_CREDIT_RESERVE);
}

static void pcn_rdma_tx_free(struct pcn_rdma_tx *tx)
{
	struct ib_device *dev = tx->conn->cm_id->device;
	unsigned int i = 0;

	if (tx->buf) {
		ib_dma_unmap_single(dev, tx->sge[0].addr, tx->sge[0].length,
				    DMA_TO_DEVICE);
		i = 1;
	}
	for (; i < tx->nsge; i++)
		ib_dma_unmap_page(dev, tx->sge[i].addr, PAGE_SIZE,
				  DMA_TO_DEVICE);
	for (i = 0; i < tx->npages; i++)
		put_page(tx->pages[i]);
	kfree(tx->buf);
	kfree(tx);
}

/* Completion handler of every send (workqueue context). */
static void pcn_rdma_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct pcn_rdma_tx *tx = container_of(wc->wr_cqe, struct pcn_rdma_tx,
					      cqe);
	struct pcn_rdma_conn *conn = tx->conn;

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		pcn_rdma_count(PCN_RDMA_QP_ERRORS);
		pcn_rdma_conn_lost(conn, ib_wc_status_msg(wc->status));
	}
	pcn_rdma_tx_free(tx);
	if (atomic_dec_and_test(&conn->tx_inflight))
		wake_up_all(&conn->credit_wq);
}

/*
 * A send with the front part (and @tlen bytes of trailer) copied and the
 * pages mapped, or NULL.
 */
static struct pcn_rdma_tx *pcn_rdma_tx_alloc(struct pcn_rdma_conn *conn,
					     const void *buf, size_t len,
					     const void *trailer, size_t tlen,
					     struct page **pages,
					     unsigned int npages)
{
	struct ib_device *dev = conn->cm_id->device;
	struct pcn_rdma_tx *tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	struct ib_sge *sge;
	unsigned int i;

	if (!tx)
		return NULL;
	tx->conn = conn;
	tx->cqe.done = pcn_rdma_send_done;
	if (len + tlen) {
		tx->buf = kmalloc(len + tlen, GFP_KERNEL);
		if (!tx->buf)
			goto fail;
		if (len)
			memcpy(tx->buf, buf, len);
		if (tlen)
			memcpy(tx->buf + len, trailer, tlen);
		sge = &tx->sge[0];
		sge->addr = ib_dma_map_single(dev, tx->buf, len + tlen,
					      DMA_TO_DEVICE);
		if (ib_dma_mapping_error(dev, sge->addr)) {
			kfree(tx->buf);
			tx->buf = NULL;
			goto fail;
		}
		sge->length = len + tlen;
		sge->lkey = conn->pd->local_dma_lkey;
		tx->nsge = 1;
	}
	for (i = 0; i < npages; i++) {
		sge = &tx->sge[tx->nsge];
		sge->addr = ib_dma_map_page(dev, pages[i], 0, PAGE_SIZE,
					    DMA_TO_DEVICE);
		if (ib_dma_mapping_error(dev, sge->addr))
			goto fail;
		sge->length = PAGE_SIZE;
		sge->lkey = conn->pd->local_dma_lkey;
		tx->nsge++;
		get_page(pages[i]);
		tx->pages[tx->npages++] = pages[i];
	}
	return tx;

fail:
	pcn_rdma_tx_free(tx);
	return NULL;
}

/*
 * Post @tx, with the credits there are to announce, after @x's
 * registration and @wtx's RDMA WRITE when given; 0 or -errno.  On
 * error @wtx is freed unless it was posted (its completion frees it).
 */
static int pcn_rdma_post(struct pcn_rdma_conn *conn, struct pcn_rdma_tx *tx,
			 struct pcn_rdma_tx *wtx,
			 struct pcn_rdma_post_extra *x)
{
	struct ib_send_wr wr = {
		.wr_cqe = &tx->cqe,
		.sg_list = tx->sge,
		.num_sge = tx->nsge,
		.opcode = IB_WR_SEND_WITH_IMM,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_rdma_wr wwr;
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr *first = &wr;
	u32 credits = atomic_xchg(&conn->credits_to_return, 0);
	int ret;

	wr.ex.imm_data = cpu_to_be32(credits | (x ? x->imm_flags : 0));
	if (wtx) {
		/* The reliable connection places it before the SEND. */
		wwr = (struct ib_rdma_wr) {
			.wr = {
				.next = first,
				.wr_cqe = &wtx->cqe,
				.sg_list = wtx->sge,
				.num_sge = wtx->nsge,
				.opcode = IB_WR_RDMA_WRITE,
				.send_flags = IB_SEND_SIGNALED,
			},
			.remote_addr = le64_to_cpu(x->write_to->addr),
			.rkey = le32_to_cpu(x->write_to->rkey),
		};
		first = &wwr.wr;
		atomic_inc(&conn->tx_inflight);
	}
	if (x && x->reg) {
		x->reg->next = first;
		first = x->reg;
	}
	atomic_inc(&conn->tx_inflight);
	ret = ib_post_send(conn->qp, first, &bad);
	if (ret) {
		/* What comes before @bad was posted. */
		if (x && x->reg)
			x->reg_posted = bad != x->reg;
		if (wtx && (bad == &wwr.wr || (x && x->reg && bad == x->reg))) {
			atomic_dec(&conn->tx_inflight);
			pcn_rdma_tx_free(wtx);
		}
		atomic_dec(&conn->tx_inflight);
		atomic_add(credits, &conn->credits_to_return);
		return ret;
	}
	if (x && x->reg)
		x->reg_posted = true;
	WRITE_ONCE(conn->last_send, jiffies);
	return 0;
}

/**
 * pcn_rdma_post_send() - send a message on a connection
 * @conn: the connection, referenced by the caller
 * @buf: the front part (copied)
 * @len: its bytes
 * @pages: pages of data that follow (sent from, by reference)
 * @npages: how many
 * @deadline: jiffies by which a credit must have come
 *
 * Process context, may sleep; a fatal signal ends the wait for a
 * credit.  Return: 0, -EMSGSIZE, -ENOMEM, -EINTR, -ETIMEDOUT (the
 * connection is then ended) or -ECONNRESET when it ended.
 */
int pcn_rdma_post_send(struct pcn_rdma_conn *conn, const void *buf,
		       size_t len, struct page **pages, unsigned int npages,
		       unsigned long deadline)
{
	return pcn_rdma_post_send_extra(conn, buf, len, pages, npages, NULL,
					deadline);
}

/**
 * pcn_rdma_post_send_extra() - pcn_rdma_post_send(), and more
 * @conn: the connection, referenced by the caller
 * @buf: the front part (copied)
 * @len: its bytes
 * @pages: pages of data that follow
 * @npages: how many
 * @x: NULL, or a registration to post first, a token to send after the
 *	front part (then no pages), the peer's token to write the pages
 *	to (then only the front part is sent), and the flags of the
 *	immediate data
 * @deadline: jiffies by which a credit must have come
 *
 * Return: as pcn_rdma_post_send().
 */
int pcn_rdma_post_send_extra(struct pcn_rdma_conn *conn, const void *buf,
			     size_t len, struct page **pages,
			     unsigned int npages,
			     struct pcn_rdma_post_extra *x,
			     unsigned long deadline)
{
	size_t tlen = x && x->token ? sizeof(*x->token) : 0;
	bool placed = x && x->write_to;
	struct pcn_rdma_tx *tx, *wtx = NULL;
	long left;
	int ret;

	if (len + tlen + (placed ? 0 : npages * PAGE_SIZE) > PCN_RDMA_RX_SIZE ||
	    npages > PCN_KMSG_MAX_PAGES || (tlen && npages))
		return -EMSGSIZE;
	tx = pcn_rdma_tx_alloc(conn, buf, len, tlen ? x->token : NULL, tlen,
			       placed ? NULL : pages, placed ? 0 : npages);
	if (!tx)
		return -ENOMEM;
	if (placed) {
		wtx = pcn_rdma_tx_alloc(conn, NULL, 0, NULL, 0, pages, npages);
		if (!wtx) {
			pcn_rdma_tx_free(tx);
			return -ENOMEM;
		}
	}

	if (!pcn_rdma_take_credit(conn, PCN_RDMA_CREDIT_RESERVE)) {
		pcn_rdma_count(PCN_RDMA_CREDIT_STALLS);
		left = (long)(deadline - jiffies);
		left = wait_event_killable_timeout(conn->credit_wq,
						   pcn_rdma_credit_or_dead(conn),
						   max(left, 1L));
		if (left <= 0) {
			pcn_rdma_tx_free(tx);
			if (wtx)
				pcn_rdma_tx_free(wtx);
			if (left < 0)
				return -EINTR;
			pcn_rdma_conn_lost(conn, "no credit came back");
			return -ETIMEDOUT;
		}
	}
	if (pcn_rdma_conn_dead(conn)) {
		pcn_rdma_tx_free(tx);
		if (wtx)
			pcn_rdma_tx_free(wtx);
		return -ECONNRESET;
	}
	ret = pcn_rdma_post(conn, tx, wtx, x);
	if (ret) {
		pcn_rdma_tx_free(tx);
		pcn_rdma_conn_lost(conn, "cannot post a send");
		return -ECONNRESET;
	}
	pcn_rdma_count(PCN_RDMA_SENDS);
	pcn_rdma_count_add(PCN_RDMA_BYTES_SENT, len + tlen);
	if (placed) {
		pcn_rdma_count_add(PCN_RDMA_PAGES_WRITTEN, npages);
		pcn_rdma_count_add(PCN_RDMA_BYTES_WRITTEN, npages * PAGE_SIZE);
	} else {
		pcn_rdma_count_add(PCN_RDMA_BYTES_SENT, npages * PAGE_SIZE);
		pcn_rdma_count_add(PCN_RDMA_PAGES_SENT, npages);
	}
	return 0;
}

/*
 * An empty message that announces the reposted receive buffers (and
 * keeps an idle connection checked).  It may take the last credit.
 */
void pcn_rdma_send_control(struct pcn_rdma_conn *conn)
{
	struct pcn_rdma_tx *tx;
	int reserve;

	/*
	 * Called from completion handlers, which hold no reference: none
	 * left means the QP is being drained, and nothing may be posted.
	 */
	if (pcn_rdma_conn_dead(conn) || !kref_get_unless_zero(&conn->ref))
		return;
	/* Only a message that announces credits may take the last one. */
	reserve = atomic_read(&conn->credits_to_return) ? 0 :
		  PCN_RDMA_CREDIT_RESERVE;
	if (!pcn_rdma_take_credit(conn, reserve))
		goto out;
	tx = pcn_rdma_tx_alloc(conn, NULL, 0, NULL, 0, NULL, 0);
	if (!tx || pcn_rdma_post(conn, tx, NULL, NULL)) {
		if (tx)
			pcn_rdma_tx_free(tx);
		atomic_inc(&conn->credits);
		wake_up_all(&conn->credit_wq);
		goto out;
	}
	pcn_rdma_count(PCN_RDMA_CONTROL_SENT);
out:
	pcn_rdma_conn_put(conn);
}

/*
 * Before a handshake's failure ends the connection: give its last
 * message (the verdict) time to leave, as ending the connection moves
 * the QP to the error state and flushes what it has not sent yet.
 */
void pcn_rdma_linger(struct pcn_rdma_conn *conn)
{
	wait_event_timeout(conn->credit_wq,
			   !atomic_read(&conn->tx_inflight) ||
			   pcn_rdma_conn_dead(conn), HZ / 2);
}

void pcn_rdma_keepalive(struct work_struct *work)
{
	struct pcn_rdma_conn *conn = container_of(to_delayed_work(work),
						  struct pcn_rdma_conn,
						  keepalive);

	if (pcn_rdma_conn_dead(conn))
		return;
	if (time_after_eq(jiffies, READ_ONCE(conn->last_send) +
			  PCN_RDMA_KEEPALIVE))
		pcn_rdma_send_control(conn);
	queue_delayed_work(pcn_rdma_wq, &conn->keepalive, PCN_RDMA_KEEPALIVE);
}

int pcn_rdma_send_pages(int nid, struct pcn_kmsg_hdr *msg, size_t size,
			struct page **pages, unsigned int npages)
{
	struct pcn_rdma_conn *conn;
	int ret;

	conn = pcn_rdma_conn_get_attached(&pcn_rdma_peers[nid]);
	if (!conn)
		return -EAGAIN;
	ret = pcn_rdma_post_send(conn, msg, size, pages, npages,
				 jiffies + PCN_RDMA_SEND_TIMEOUT);
	pcn_rdma_conn_put(conn);
	if (ret == -ETIMEDOUT || ret == -ECONNRESET)
		ret = -EHOSTDOWN;
	return ret;
}

int pcn_rdma_send(int nid, struct pcn_kmsg_hdr *msg, size_t size)
{
	return pcn_rdma_send_pages(nid, msg, size, NULL, 0);
}

/*
 * ->disconnect: the core lost a message that had to arrive, so end the
 * connection; both nodes see the peer go offline, and the dialer then
 * reconnects.
 */
void pcn_rdma_disconnect(int nid)
{
	struct pcn_rdma_conn *conn;

	conn = pcn_rdma_conn_get_attached(&pcn_rdma_peers[nid]);
	if (!conn)
		return;
	pr_warn("node %d: ending the connection at the core's request\n", nid);
	pcn_rdma_conn_lost(conn, "reset by the core");
	pcn_rdma_conn_put(conn);
}
