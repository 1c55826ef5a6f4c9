// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the origin's check of a holder's answer to a
 * revocation (page_revoke.c): the answer comes from the network, so
 * every word, the count, the size and the data are checked before use,
 * and the pages of data are taken over from the message, not copied.
 *
 * The holder is node 20, never this node and never online in the test
 * guests: a reader's copy on an offline node counts as gone, so the
 * outcome that shows a check is the data page's (-EIO when refused).
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/slab.h>

#include "page.h"

#define HOLDER		20
#define ADDR_A		0x10000UL	/* a read copy */
#define ADDR_B		0x11000UL	/* the writer's page, data wanted */

struct revoke_fixture {
	struct remote_context ctx;
	struct pcn_revoke *r;
};

static struct revoke_fixture *setup(struct kunit *test)
{
	struct revoke_fixture *fx = kunit_kzalloc(test, sizeof(*fx),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fx);
	fx->ctx.id = 7;
	fx->ctx.tgid = 1;
	xa_init(&fx->ctx.grants);
	fx->r = pcn_revoke_alloc(&fx->ctx, 4);
	KUNIT_ASSERT_NOT_NULL(test, fx->r);
	KUNIT_ASSERT_TRUE(test, pcn_revoke_add(fx->r, ADDR_A, BIT(HOLDER), -1));
	KUNIT_ASSERT_TRUE(test, pcn_revoke_add(fx->r, ADDR_B, 0, HOLDER));
	return fx;
}

/*
 * Hand @fx an answer of @n words (+ @extra bytes) and @ndata pages of
 * 0xab, laid out as a transport receives it (pcn_kmsg_rx_alloc()).
 */
static void answer(struct kunit *test, struct revoke_fixture *fx,
		   const u64 *words, u32 n, u32 ndata, size_t extra)
{
	struct pcn_kmsg_hdr hdr = {
		.size = PCN_INVAL_ACK_SIZE(n, ndata) + extra,
		.npages = ndata,
	};
	struct pcn_page_inval_ack *ack;
	struct pcn_kmsg_hdr *msg;
	unsigned int i;

	msg = pcn_kmsg_rx_alloc(&hdr);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	ack = (struct pcn_page_inval_ack *)msg;
	ack->ctx_id = fx->ctx.id;
	ack->n = n;
	memcpy(ack->page, words, n * sizeof(u64));
	memset(&ack->page[n], 0, extra);
	for (i = 0; i < ndata; i++)
		memset_page(pcn_kmsg_page(msg, i), 0, 0xab, PAGE_SIZE);
	pcn_revoke_ack(fx->r, HOLDER, ack, hdr.size, 1000);
	pcn_kmsg_rx_free(msg);
}

/* The data page's outcome, and whether its data arrived. */
static void expect(struct kunit *test, struct revoke_fixture *fx, int error,
		   bool data)
{
	struct page *page = fx->r->page[1].page;
	u8 first, last;

	KUNIT_EXPECT_EQ(test, 0, fx->r->page[0].error);
	KUNIT_EXPECT_EQ(test, error, fx->r->page[1].error);
	KUNIT_EXPECT_EQ(test, data, !!page);
	if (page) {
		memcpy_from_page(&first, page, 0, 1);
		memcpy_from_page(&last, page, PAGE_SIZE - 1, 1);
		KUNIT_EXPECT_EQ(test, 0xab, first);
		KUNIT_EXPECT_EQ(test, 0xab, last);
	}
	pcn_revoke_free(fx->r);		/* puts the page */
}

static void pcn_revoke_ack_good(struct kunit *test)
{
	struct revoke_fixture *fx = setup(test);
	u64 w[] = { ADDR_A, ADDR_B | PCN_INVAL_HAS_DATA };

	answer(test, fx, w, 2, 1, 0);
	expect(test, fx, 0, true);
}

/* Answers whose data page must come out -EIO, with no data copied. */
struct bad_answer {
	const char *what;
	u64 w[2];
	u32 n, ndata;
	size_t extra;
};

static const struct bad_answer bad_answers[] = {
	{ "wrong address", { ADDR_A + PAGE_SIZE, ADDR_B | PCN_INVAL_HAS_DATA },
	  2, 1, 0 },
	{ "data not asked for",
	  { ADDR_A | PCN_INVAL_HAS_DATA, ADDR_B | PCN_INVAL_HAS_DATA }, 2, 2, 0 },
	{ "a byte too many", { ADDR_A, ADDR_B | PCN_INVAL_HAS_DATA }, 2, 1, 1 },
	{ "a word too few", { ADDR_A }, 1, 0, 0 },
	{ "no data", { ADDR_A, ADDR_B }, 2, 0, 0 },
	{ "refused", { ADDR_A, ADDR_B | PCN_INVAL_REFUSED }, 2, 0, 0 },
	{ "refused with data",
	  { ADDR_A, ADDR_B | PCN_INVAL_HAS_DATA | PCN_INVAL_REFUSED }, 2, 1, 0 },
	{ "an unknown flag", { ADDR_A | 0x80, ADDR_B | PCN_INVAL_HAS_DATA },
	  2, 1, 0 },
};

static void bad_answer_desc(const struct bad_answer *b, char *desc)
{
	strscpy(desc, b->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_answer, bad_answers, bad_answer_desc);

static void pcn_revoke_ack_bad(struct kunit *test)
{
	const struct bad_answer *b = test->param_value;
	struct revoke_fixture *fx = setup(test);

	answer(test, fx, b->w, b->n, b->ndata, b->extra);
	expect(test, fx, -EIO, false);
}

/* At most PCN_INVAL_DATA_MAX pages of data, PCN_INVAL_MAX pages. */
static void pcn_revoke_add_limits(struct kunit *test)
{
	struct remote_context *ctx = kunit_kzalloc(test, sizeof(*ctx),
						   GFP_KERNEL);
	struct pcn_revoke *r;
	unsigned long a = 0x100000;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	xa_init(&ctx->grants);
	r = pcn_revoke_alloc(ctx, PCN_INVAL_MAX);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < PCN_INVAL_DATA_MAX; i++, a += PAGE_SIZE)
		KUNIT_EXPECT_TRUE(test, pcn_revoke_add(r, a, 0, HOLDER));
	KUNIT_EXPECT_FALSE(test, pcn_revoke_add(r, a, 0, HOLDER));
	for (; r->n < PCN_INVAL_MAX; a += PAGE_SIZE)
		KUNIT_EXPECT_TRUE(test, pcn_revoke_add(r, a, BIT(HOLDER), -1));
	KUNIT_EXPECT_FALSE(test, pcn_revoke_add(r, a, BIT(HOLDER), -1));
	KUNIT_EXPECT_EQ(test, PCN_INVAL_DATA_MAX, r->ndata);
	pcn_revoke_free(r);
}

/* Batches sized to the transport's largest message. */
static void pcn_page_limits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (unsigned int)PCN_PREFETCH_MAX,
			pcn_grant_extra_limit(PCN_KMSG_MAX_SIZE));
	KUNIT_EXPECT_EQ(test, (unsigned int)PCN_INVAL_DATA_MAX,
			pcn_inval_data_limit(PCN_KMSG_MAX_SIZE));
	/* The smallest transport: still a page of data in each. */
	KUNIT_EXPECT_EQ(test, 1U, pcn_grant_extra_limit(PCN_KMSG_MIN_SIZE_LIMIT));
	KUNIT_EXPECT_EQ(test, 2U, pcn_inval_data_limit(PCN_KMSG_MIN_SIZE_LIMIT));
	KUNIT_EXPECT_LE(test, PCN_GRANT_SIZE(0), PCN_KMSG_MIN_SIZE_LIMIT);
	KUNIT_EXPECT_LE(test, PCN_INVAL_ACK_SIZE(PCN_INVAL_MAX, 1),
			PCN_KMSG_MIN_SIZE_LIMIT);
	KUNIT_EXPECT_LE(test, PCN_INVAL_SIZE(PCN_INVAL_MAX),
			PCN_KMSG_MIN_SIZE_LIMIT);
	/* Each limit is the largest that fits. */
	KUNIT_EXPECT_GT(test, PCN_GRANT_SIZE(2), PCN_KMSG_MIN_SIZE_LIMIT);
	KUNIT_EXPECT_GT(test, PCN_INVAL_ACK_SIZE(PCN_INVAL_MAX, 3),
			PCN_KMSG_MIN_SIZE_LIMIT);
}

static struct kunit_case pcn_revoke_cases[] = {
	KUNIT_CASE(pcn_revoke_ack_good),
	KUNIT_CASE_PARAM(pcn_revoke_ack_bad, bad_answer_gen_params),
	KUNIT_CASE(pcn_revoke_add_limits),
	KUNIT_CASE(pcn_page_limits),
	{}
};

static struct kunit_suite pcn_revoke_suite = {
	.name = "popcorn_revoke",
	.test_cases = pcn_revoke_cases,
};

kunit_test_suite(pcn_revoke_suite);
