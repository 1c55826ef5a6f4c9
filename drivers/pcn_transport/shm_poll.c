// SPDX-License-Identifier: GPL-2.0
/*
 * Popcorn shared-memory transport: the poll thread.  ivshmem-plain has
 * no interrupt between guests, so one thread per node polls: it reads
 * the rings of every connected peer, answers session requests, and at
 * each heartbeat counts up this node's heartbeat, checks the layout
 * header and watches the peers.
 *
 * Polling adapts: after a pass that found work the thread looks again
 * at once; after an idle pass it sleeps, pcn_shm.poll_min_us at first
 * and twice as long after each idle pass, up to pcn_shm.poll_max_us,
 * and once nothing came for PCN_SHM_IDLE_AFTER_MS, up to
 * pcn_shm.poll_idle_us.  A send from this node wakes it and resets the
 * sleep (its answer may follow soon).  The sleeps are idle sleeps
 * (TASK_IDLE): an idle node costs a wake-up per poll_idle_us, and
 * counts no load.  Documentation/popcorn/shm.rst has the measured
 * cost.
 */
#define pr_fmt(fmt) "pcn_shm: " fmt

#include "shm.h"

/* Records taken from one peer per pass: the others get their turn. */
#define PCN_SHM_RX_BATCH	16
/* Quiet this long, a node sleeps up to poll_idle_us between polls. */
#define PCN_SHM_IDLE_AFTER_MS	1000

/*
 * Take one message from @peer's ring and hand it to the core.
 * Return: 1 for a record taken, 0 for none, -ENOMEM to retry later,
 * -EPROTO for a broken ring.
 */
static int pcn_shm_rx_one(struct pcn_shm_peer *peer)
{
	struct pcn_shm_ring *r = &peer->in;
	struct pcn_kmsg_hdr hdr, *msg;
	struct pcn_shm_rec rec;
	unsigned int i, n;
	size_t front;
	long avail;

	avail = pcn_shm_ring_avail(r);
	if (avail <= 0)
		return avail;
	/* The producer publishes whole records only. */
	if (avail < sizeof(rec))
		return -EPROTO;
	pcn_shm_ring_read(r, 0, &rec, sizeof(rec));
	if (rec.seq != r->seq || rec.len > PCN_KMSG_MAX_SIZE ||
	    rec.len > avail - sizeof(rec))
		return -EPROTO;

	/* A well-framed record with a bad message: drop it, go on. */
	if (rec.len < sizeof(hdr)) {
		pcn_kmsg_count_drop(PCN_DROP_SHORT);
		goto skip;
	}
	/* The header is copied, then checked: the segment may change. */
	pcn_shm_ring_read(r, sizeof(rec), &hdr, sizeof(hdr));
	if (hdr.size != rec.len) {
		pcn_kmsg_count_drop(PCN_DROP_SIZE);
		goto skip;
	}
	msg = pcn_kmsg_rx_alloc(&hdr);
	if (!msg)
		return -ENOMEM;
	front = pcn_kmsg_front_size(&hdr);
	pcn_shm_ring_read(r, sizeof(rec) + sizeof(hdr), (void *)msg + sizeof(hdr),
			  front - sizeof(hdr));
	/* Page data: copied once, from the ring into the page it ends in. */
	n = pcn_kmsg_rx_npages(&hdr);
	for (i = 0; i < n; i++) {
		void *kaddr = kmap_local_page(pcn_kmsg_page(msg, i));

		pcn_shm_ring_read(r, sizeof(rec) + front + i * PAGE_SIZE,
				  kaddr, PAGE_SIZE);
		kunmap_local(kaddr);
	}
	r->seq++;
	pcn_shm_ring_consume(r, sizeof(rec) + rec.len);
	pcn_shm_count(PCN_SHM_MSGS_RECEIVED);
	pcn_shm_count_add(PCN_SHM_PAGES_RECEIVED, n);
	pcn_kmsg_process(peer->nid, msg, hdr.size);
	return 1;

skip:
	r->seq++;
	pcn_shm_ring_consume(r, sizeof(rec) + rec.len);
	return 1;
}

/* Receive a batch from @peer; true when there was anything. */
static bool pcn_shm_rx_peer(struct pcn_shm_peer *peer)
{
	int n = 0, ret = 0;
	u32 session;

	if (!READ_ONCE(peer->rx_on))
		return false;
	mutex_lock(&peer->rx_lock);
	session = READ_ONCE(peer->session);
	while (n < PCN_SHM_RX_BATCH && READ_ONCE(peer->rx_on)) {
		ret = pcn_shm_rx_one(peer);
		if (ret <= 0)
			break;
		n++;
	}
	if (ret == -EPROTO && pcn_shm_peer_left(peer, session)) {
		/* The peer reset the ring for a new session: not broken. */
		WRITE_ONCE(peer->rx_on, false);
		pcn_shm_drop(peer, PCN_SHM_LOST_BY_PEER, session);
	} else if (ret == -EPROTO) {
		/* Stop reading it now; the connection ends in a work item. */
		WRITE_ONCE(peer->rx_on, false);
		pcn_shm_count(PCN_SHM_FRAME_ERRORS);
		pcn_kmsg_count_drop(PCN_DROP_FRAME);
		pr_warn("ring from node %d is broken (index or record refused), dropping the connection\n",
			peer->nid);
		pcn_shm_drop(peer, PCN_SHM_FRAME_ERRORS, session);
	}
	mutex_unlock(&peer->rx_lock);
	return n > 0;
}

/*
 * Sleep @us (an idle sleep, no load counted), or less when this node
 * sends meanwhile: pcn_shm_poll_kick() wakes the thread, which
 * usleep_idle_range() would not let end its sleep early.
 */
static void pcn_shm_poll_sleep(unsigned int us)
{
	ktime_t t = ns_to_ktime((u64)us * NSEC_PER_USEC);

	pcn_shm_count(PCN_SHM_POLL_SLEEPS);
	set_current_state(TASK_IDLE);
	/* After the state: a kick from here on ends the sleep. */
	if (atomic_read(&pcn_shm.poll_hot) || kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	schedule_hrtimeout_range(&t, us / 4 + 1, HRTIMER_MODE_REL);
}

static int pcn_shm_poll_thread(void *arg)
{
	unsigned long next_beat = jiffies, last_work = jiffies;
	unsigned int sleep_us = 0, cap;
	int nid;

	while (!kthread_should_stop()) {
		bool busy = false;

		if (time_after_eq(jiffies, next_beat)) {
			pcn_shm_beat();
			pcn_shm_layout_check();
			pcn_shm_watch_peers();
			next_beat = jiffies + msecs_to_jiffies(PCN_SHM_BEAT_MS);
		}
		pcn_shm_check_requests();
		for (nid = 0; nid < pcn_nr_nodes(); nid++)
			if (nid != pcn_my_nid())
				busy |= pcn_shm_rx_peer(&pcn_shm_peers[nid]);
		if (atomic_xchg(&pcn_shm.poll_hot, 0) || busy) {
			sleep_us = 0;
			last_work = jiffies;
		}
		if (busy) {
			cond_resched();
			continue;
		}
		cap = time_after(jiffies, last_work +
				 msecs_to_jiffies(PCN_SHM_IDLE_AFTER_MS)) ?
		      pcn_shm_poll_idle_us : pcn_shm_poll_max_us;
		sleep_us = sleep_us ? min(2 * sleep_us, cap) :
				      pcn_shm_poll_min_us;
		pcn_shm_poll_sleep(sleep_us);
	}
	return 0;
}

/* This node sent something: poll fast for a while. */
void pcn_shm_poll_kick(void)
{
	struct task_struct *t;

	atomic_set(&pcn_shm.poll_hot, 1);
	/* Task structs are freed after a grace period. */
	rcu_read_lock();
	t = READ_ONCE(pcn_shm.poll_task);
	if (t)
		wake_up_process(t);
	rcu_read_unlock();
}

int pcn_shm_poll_start(void)
{
	struct task_struct *t;

	t = kthread_run(pcn_shm_poll_thread, NULL, "pcn_shm_poll");
	if (IS_ERR(t))
		return PTR_ERR(t);
	WRITE_ONCE(pcn_shm.poll_task, t);
	return 0;
}

void pcn_shm_poll_stop(void)
{
	struct task_struct *t = pcn_shm.poll_task;

	WRITE_ONCE(pcn_shm.poll_task, NULL);
	if (t)
		kthread_stop(t);
}

/* ->done: any context that may sleep. */
void pcn_shm_done(struct pcn_kmsg_hdr *msg)
{
	pcn_kmsg_rx_free(msg);
}
