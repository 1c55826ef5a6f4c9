// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn RDMA transport: receiving.
 *
 * Each connection posts PCN_RDMA_RX_DEPTH buffers of the largest
 * message before it connects.  A receive completion (on the CQ's
 * workqueue) first takes the credits the peer announced, then:
 *  - until the handshake is over, queues the buffer for the handshake,
 *    which reads it as a byte stream and reposts it when read;
 *  - afterwards, copies the message into the layout of
 *    pcn_kmsg_rx_alloc() (page data straight into its fresh pages: one
 *    copy on this side, as with TCP), reposts the buffer at once and
 *    passes the message to the messaging core.
 * Whatever was queued when the handshake ended is passed on first, in
 * order, before any later message (pcn_rdma_rx_deliver_queued()).
 * Every reposted buffer is a credit to announce to the peer: with the
 * next message, or in a control message when half of them are pending.
 */
#define pr_fmt(fmt) "pcn_rdma: " fmt

#include "rdma.h"

static void pcn_rdma_recv_done(struct ib_cq *cq, struct ib_wc *wc);

int pcn_rdma_rx_init(struct pcn_rdma_conn *conn)
{
	struct ib_device *dev = conn->cm_id->device;
	int i, ret;

	for (i = 0; i < PCN_RDMA_RX_DEPTH; i++) {
		struct pcn_rdma_rx *rx = &conn->rx[i];

		rx->conn = conn;
		rx->cqe.done = pcn_rdma_recv_done;
		rx->buf = alloc_pages_exact(PCN_RDMA_RX_SIZE, GFP_KERNEL);
		if (!rx->buf)
			return -ENOMEM;
		rx->dma = ib_dma_map_single(dev, rx->buf, PCN_RDMA_RX_SIZE,
					    DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, rx->dma)) {
			free_pages_exact(rx->buf, PCN_RDMA_RX_SIZE);
			rx->buf = NULL;
			return -ENOMEM;
		}
		rx->sge.addr = rx->dma;
		rx->sge.length = PCN_RDMA_RX_SIZE;
		rx->sge.lkey = conn->pd->local_dma_lkey;
		rx->wr.wr_cqe = &rx->cqe;
		rx->wr.sg_list = &rx->sge;
		rx->wr.num_sge = 1;
		ret = ib_post_recv(conn->qp, &rx->wr, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* After the QP is drained: no buffer is posted any more. */
void pcn_rdma_rx_free_all(struct pcn_rdma_conn *conn)
{
	int i;

	for (i = 0; i < PCN_RDMA_RX_DEPTH; i++) {
		struct pcn_rdma_rx *rx = &conn->rx[i];

		if (!rx->buf)
			continue;
		ib_dma_unmap_single(conn->cm_id->device, rx->dma,
				    PCN_RDMA_RX_SIZE, DMA_FROM_DEVICE);
		free_pages_exact(rx->buf, PCN_RDMA_RX_SIZE);
		rx->buf = NULL;
	}
}

static void pcn_rdma_repost(struct pcn_rdma_rx *rx)
{
	struct pcn_rdma_conn *conn = rx->conn;

	if (pcn_rdma_conn_dead(conn))
		return;
	ib_dma_sync_single_for_device(conn->cm_id->device, rx->dma,
				      PCN_RDMA_RX_SIZE, DMA_FROM_DEVICE);
	if (ib_post_recv(conn->qp, &rx->wr, NULL)) {
		pcn_rdma_conn_lost(conn, "cannot repost a receive buffer");
		return;
	}
	if (atomic_inc_return(&conn->credits_to_return) >=
	    PCN_RDMA_CREDIT_BATCH)
		pcn_rdma_send_control(conn);
}

static void pcn_rdma_bad_token(struct pcn_rdma_conn *conn)
{
	pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
	pcn_kmsg_count_drop(PCN_DROP_SIZE);
	pr_warn_ratelimited("node %d sent a request with a bad token, dropped\n",
			    conn->peer->nid);
}

/*
 * Pass the message in @rx (@len bytes, its immediate data's @flags) to
 * the messaging core.
 */
static void pcn_rdma_deliver(struct pcn_rdma_rx *rx, u32 len, u32 flags)
{
	struct pcn_rdma_conn *conn = rx->conn;
	struct pcn_kmsg_hdr *hdr = rx->buf, *msg;
	unsigned int i, npages;
	const void *tok = NULL;
	size_t front;

	/* A token follows the request: where to write the answer's pages. */
	if (flags & PCN_RDMA_IMM_TOKEN) {
		if (flags != PCN_RDMA_IMM_TOKEN ||
		    len < sizeof(*hdr) + sizeof(struct pcn_rdma_token)) {
			pcn_rdma_bad_token(conn);
			return;
		}
		len -= sizeof(struct pcn_rdma_token);
		tok = rx->buf + len;
	}
	if (flags & PCN_RDMA_IMM_PLACED) {
		if (len < sizeof(*hdr) || (flags & ~PCN_RDMA_IMM_PLACED)) {
			pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
			pcn_kmsg_count_drop(PCN_DROP_SHORT);
			return;
		}
		msg = pcn_rdma_rx_placed(conn, hdr, len);
		if (msg) {
			pcn_rdma_count(PCN_RDMA_RECVS);
			pcn_rdma_count_add(PCN_RDMA_BYTES_RECEIVED, len);
			pcn_kmsg_process(conn->peer->nid, msg, msg->size);
		}
		return;
	}
	if (len < sizeof(*hdr) || hdr->size != len) {
		/* A SEND is a message: no resynchronising to do. */
		pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
		pcn_kmsg_count_drop(len < sizeof(*hdr) ? PCN_DROP_SHORT :
				    PCN_DROP_SIZE);
		pr_warn_ratelimited("node %d sent %u bytes framed as %u, dropped\n",
				    conn->peer->nid, len,
				    len < sizeof(*hdr) ? 0 : hdr->size);
		return;
	}
	if (tok && pcn_rdma_rx_token(conn, hdr, tok,
				     sizeof(struct pcn_rdma_token))) {
		pcn_rdma_bad_token(conn);
		return;
	}
	/* An answer to one of our requests ends its registration. */
	if (flags & PCN_RDMA_IMM_REPLY)
		pcn_rdma_rx_reply(conn, hdr);
	msg = pcn_kmsg_rx_alloc(hdr);
	if (!msg) {
		/* As a lost frame on TCP: the peers reconnect. */
		pcn_rdma_conn_lost(conn, "out of memory for a message");
		return;
	}
	front = pcn_kmsg_front_size(hdr);
	npages = pcn_kmsg_rx_npages(hdr);
	memcpy((void *)msg + sizeof(*hdr), rx->buf + sizeof(*hdr),
	       front - sizeof(*hdr));
	for (i = 0; i < npages; i++)
		memcpy_to_page(pcn_kmsg_page(msg, i), 0,
			       rx->buf + front + i * PAGE_SIZE, PAGE_SIZE);
	pcn_rdma_count(PCN_RDMA_RECVS);
	pcn_rdma_count_add(PCN_RDMA_BYTES_RECEIVED, len);
	pcn_kmsg_process(conn->peer->nid, msg, len);
}

static void pcn_rdma_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct pcn_rdma_rx *rx = container_of(wc->wr_cqe, struct pcn_rdma_rx,
					      cqe);
	struct pcn_rdma_conn *conn = rx->conn;
	u32 imm, credits;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			pcn_rdma_count(PCN_RDMA_QP_ERRORS);
			pcn_rdma_conn_lost(conn, ib_wc_status_msg(wc->status));
		}
		return;
	}
	if (pcn_rdma_conn_dead(conn))
		return;
	/*
	 * Every SEND of ours carries credits and flags; more credits than
	 * we have, or bits that mean nothing, are a lie.
	 */
	imm = (wc->wc_flags & IB_WC_WITH_IMM) ?
	      be32_to_cpu(wc->ex.imm_data) : U32_MAX;
	credits = imm & PCN_RDMA_IMM_CREDITS;
	if ((imm & ~(PCN_RDMA_IMM_CREDITS | PCN_RDMA_IMM_FLAGS)) ||
	    credits > PCN_RDMA_RX_DEPTH ||
	    atomic_add_return(credits, &conn->credits) > PCN_RDMA_RX_DEPTH) {
		pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
		pr_warn_ratelimited("node %d announced receive buffers it cannot have\n",
				    conn->peer->nid);
		pcn_rdma_conn_lost(conn, "bad credits");
		return;
	}
	if (credits)
		wake_up_all(&conn->credit_wq);

	ib_dma_sync_single_for_cpu(conn->cm_id->device, rx->dma, wc->byte_len,
				   DMA_FROM_DEVICE);
	if (!wc->byte_len) {
		pcn_rdma_repost(rx);	/* a control message */
		return;
	}
	spin_lock(&conn->rx_lock);
	if (conn->rx_mode != PCN_RDMA_RX_DELIVER) {
		rx->len = wc->byte_len;
		rx->flags = imm & PCN_RDMA_IMM_FLAGS;
		rx->off = 0;
		list_add_tail(&rx->hs_entry, &conn->hs_queue);
		spin_unlock(&conn->rx_lock);
		wake_up(&conn->hs_wq);
		return;
	}
	spin_unlock(&conn->rx_lock);
	pcn_rdma_deliver(rx, wc->byte_len, imm & PCN_RDMA_IMM_FLAGS);
	pcn_rdma_repost(rx);
}

/*
 * The handshake succeeded: pass on, in order, the messages that came
 * after it while it ended, and switch to passing each on as it comes.
 */
void pcn_rdma_rx_deliver_queued(struct pcn_rdma_conn *conn)
{
	struct pcn_rdma_rx *rx;

	for (;;) {
		spin_lock(&conn->rx_lock);
		rx = list_first_entry_or_null(&conn->hs_queue,
					      struct pcn_rdma_rx, hs_entry);
		if (!rx) {
			conn->rx_mode = PCN_RDMA_RX_DELIVER;
			spin_unlock(&conn->rx_lock);
			return;
		}
		list_del(&rx->hs_entry);
		spin_unlock(&conn->rx_lock);
		if (rx->off) {
			/* The rest of a handshake message nobody read. */
			pcn_rdma_count(PCN_RDMA_BAD_MESSAGES);
		} else {
			pcn_rdma_deliver(rx, rx->len, rx->flags);
		}
		pcn_rdma_repost(rx);
	}
}

static bool pcn_rdma_hs_ready(struct pcn_rdma_conn *conn)
{
	bool ready;

	spin_lock(&conn->rx_lock);
	ready = !list_empty(&conn->hs_queue);
	spin_unlock(&conn->rx_lock);
	return ready || pcn_rdma_conn_dead(conn);
}

/* The handshake's receive: @len bytes of the queued messages. */
int pcn_rdma_hs_recv(void *hs_conn, void *buf, size_t len)
{
	struct pcn_rdma_hs_conn *c = hs_conn;
	struct pcn_rdma_conn *conn = c->conn;
	struct pcn_rdma_rx *rx;
	bool used_up;
	size_t n;
	long left;

	while (len) {
		left = (long)(c->deadline - jiffies);
		if (left <= 0 ||
		    !wait_event_timeout(conn->hs_wq, pcn_rdma_hs_ready(conn),
					left))
			return -ETIMEDOUT;
		if (pcn_rdma_conn_dead(conn))
			return -ECONNRESET;
		spin_lock(&conn->rx_lock);
		rx = list_first_entry(&conn->hs_queue, struct pcn_rdma_rx,
				      hs_entry);
		n = min_t(size_t, len, rx->len - rx->off);
		memcpy(buf, rx->buf + rx->off, n);
		rx->off += n;
		used_up = rx->off == rx->len;
		if (used_up)
			list_del(&rx->hs_entry);
		spin_unlock(&conn->rx_lock);
		buf += n;
		len -= n;
		if (used_up)
			pcn_rdma_repost(rx);
	}
	return 0;
}

/* Any context that may sleep: a handler's, a waiter's, ours. */
void pcn_rdma_done(struct pcn_kmsg_hdr *msg)
{
	pcn_kmsg_rx_free(msg);
}
