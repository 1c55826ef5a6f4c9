// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the checks rdma_place.c makes of the peer's input:
 * the tokens that follow its requests and its answers with placed
 * pages.  Included at the end of rdma_place.c (its types are private);
 * the connection is a fake one, without device or QP, which the paths
 * tested never touch.
 */
#include <kunit/test.h>

struct pcn_rdma_place_test {
	struct pcn_rdma_peer peer;
	struct pcn_rdma_conn conn;
};

static struct pcn_rdma_place_test *pcn_place_test_init(struct kunit *test)
{
	struct pcn_rdma_place_test *t = kunit_kzalloc(test, sizeof(*t),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->peer.nid = 1;
	xa_init(&t->peer.placing);
	init_waitqueue_head(&t->peer.wq);
	kref_init(&t->conn.ref);	/* never released: kunit frees it */
	t->conn.peer = &t->peer;
	spin_lock_init(&t->conn.place_lock);
	INIT_LIST_HEAD(&t->conn.deferred_places);
	return t;
}

static int token_in(struct pcn_rdma_conn *conn, u32 wait_id, u8 npages,
		    u16 slot, u32 len, size_t tok_len)
{
	struct pcn_kmsg_hdr hdr = { .wait_id = wait_id, .npages = npages };
	struct pcn_rdma_token tok = {
		.addr = cpu_to_le64(0x1000),
		.rkey = cpu_to_le32(0x1234),
		.len = cpu_to_le32(len),
		.slot = cpu_to_le16(slot),
	};

	return pcn_rdma_rx_token(conn, &hdr, &tok, tok_len);
}

static void pcn_rdma_token_checks(struct kunit *test)
{
	struct pcn_rdma_place_test *t = pcn_place_test_init(test);
	struct pcn_rdma_conn *conn = &t->conn;
	const size_t tl = sizeof(struct pcn_rdma_token);
	struct pcn_rdma_token got;

	KUNIT_EXPECT_EQ(test, 0, token_in(conn, 5, 0, 3, PAGE_SIZE, tl));
	KUNIT_EXPECT_EQ(test, conn->slots[3].peer_wait_id, 5);
	KUNIT_EXPECT_EQ(test, 0, token_in(conn, 6, 0, PCN_RDMA_NR_MRS - 1,
					  PCN_KMSG_MAX_PAGES * PAGE_SIZE, tl));

	/* Out of range, misshapen, or on a request that has no wait. */
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 7, 0, PCN_RDMA_NR_MRS,
						PAGE_SIZE, tl));
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 7, 0, 0, 0, tl));
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 7, 0, 0, PAGE_SIZE - 1,
						tl));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			token_in(conn, 7, 0, 0,
				 (PCN_KMSG_MAX_PAGES + 1) * PAGE_SIZE, tl));
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 0, 0, 0, PAGE_SIZE, tl));
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 7, 1, 0, PAGE_SIZE, tl));
	KUNIT_EXPECT_EQ(test, -EINVAL, token_in(conn, 7, 0, 0, PAGE_SIZE,
						tl - 1));
	KUNIT_EXPECT_EQ(test, conn->slots[0].peer_wait_id, 0);

	/* An answer takes its request's token once. */
	KUNIT_EXPECT_TRUE(test, pcn_rdma_take_token(conn, 5, &got));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(got.slot), 3);
	KUNIT_EXPECT_FALSE(test, pcn_rdma_take_token(conn, 5, &got));
	KUNIT_EXPECT_FALSE(test, pcn_rdma_take_token(conn, 0, &got));
	KUNIT_EXPECT_FALSE(test, pcn_rdma_take_token(conn, 99, &got));
}

/* A registration of one fresh page for wait @wait_id. */
static struct pcn_rdma_place *place_in(struct kunit *test,
				       struct pcn_rdma_place_test *t,
				       u32 wait_id, bool registered)
{
	struct pcn_rdma_place *place = kzalloc(sizeof(*place), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, place);
	kref_init(&place->ref);
	kref_get(&t->conn.ref);
	place->conn = &t->conn;
	place->slot = &t->conn.slots[0];
	place->wait_id = wait_id;
	place->npages = 1;
	place->pages[0] = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, place->pages[0]);
	place->registered = registered;
	KUNIT_ASSERT_EQ(test, 0, xa_insert(&t->peer.placing, wait_id, place,
					   GFP_KERNEL));
	return place;
}

static void place_out(struct pcn_rdma_place_test *t,
		      struct pcn_rdma_place *place)
{
	xa_erase(&t->peer.placing, place->wait_id);
	pcn_rdma_place_put(place);
}

/* A placed answer's front part: header and 32 bytes of fields. */
struct placed_msg {
	struct pcn_kmsg_hdr hdr;
	u8 fields[32];
};

static struct pcn_kmsg_hdr *placed_in(struct pcn_rdma_place_test *t,
				      struct placed_msg *m, u32 wait_id,
				      u8 npages, u32 len)
{
	memset(m, 0, sizeof(*m));
	m->hdr.size = sizeof(*m) + npages * PAGE_SIZE;
	m->hdr.npages = npages;
	m->hdr.wait_id = wait_id;
	m->fields[0] = 0x5a;
	return pcn_rdma_rx_placed(&t->conn, &m->hdr, len);
}

static void pcn_rdma_placed_checks(struct kunit *test)
{
	struct pcn_rdma_place_test *t = pcn_place_test_init(test);
	struct pcn_rdma_place *good, *unposted;
	struct pcn_kmsg_hdr *msg;
	struct placed_msg m;
	int refs;

	good = place_in(test, t, 11, true);
	unposted = place_in(test, t, 12, false);

	/* Misframed: no pages, or a length that is not the front part. */
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 11, 0, sizeof(m)));
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 11, 1, sizeof(m) + 1));
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 11, 1, PAGE_SIZE));
	/* More pages than registered, no registration, none posted. */
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 11, 2, sizeof(m)));
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 13, 1, sizeof(m)));
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 12, 1, sizeof(m)));

	/* The misframed ones did not count as the answer. */
	refs = page_ref_count(good->pages[0]);
	msg = placed_in(t, &m, 11, 1, sizeof(m));
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_PTR_EQ(test, pcn_kmsg_page(msg, 0), good->pages[0]);
	KUNIT_EXPECT_EQ(test, page_ref_count(good->pages[0]), refs + 1);
	KUNIT_EXPECT_EQ(test, ((struct placed_msg *)msg)->fields[0], 0x5a);
	KUNIT_EXPECT_EQ(test, msg->size, (u32)(sizeof(m) + PAGE_SIZE));

	/* A second answer to the same wait is refused. */
	KUNIT_EXPECT_NULL(test, placed_in(t, &m, 11, 1, sizeof(m)));

	pcn_kmsg_rx_free(msg);
	KUNIT_EXPECT_EQ(test, page_ref_count(good->pages[0]), refs);
	place_out(t, good);
	place_out(t, unposted);
	KUNIT_EXPECT_EQ(test, kref_read(&t->conn.ref), 1);
}

static struct kunit_case pcn_rdma_place_cases[] = {
	KUNIT_CASE(pcn_rdma_token_checks),
	KUNIT_CASE(pcn_rdma_placed_checks),
	{}
};

static struct kunit_suite pcn_rdma_place_suite = {
	.name = "popcorn_rdma_place",
	.test_cases = pcn_rdma_place_cases,
};

kunit_test_suite(pcn_rdma_place_suite);
