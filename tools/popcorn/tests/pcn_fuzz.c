// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzing peer: send COUNT random and mutated messages to node NID over
 * this node's authenticated connection, through the test hook
 * /sys/kernel/debug/popcorn/inject_raw.  Root only.
 *
 *   pcn_fuzz NID COUNT SEED
 *
 * (COUNT 0: only print what the seeds hold.)
 *
 * Seeds are the messages this node recorded in
 * /sys/kernel/debug/popcorn/msglog (real traffic with NID, captured
 * before); the registered types and their size limits come from
 * /sys/kernel/debug/popcorn/types.  The messages are, by kind:
 *
 *   random     a registered type, a size it allows, a random body
 *   mutated    a seed with 1-4 mutations of its body (bit flips, random
 *              bytes, boundary values, pieces of other seeds)
 *   replay     seeds sent again unchanged, singly or a burst of 2-8 in
 *              a random order
 *   header     a header field wrong: unknown or unregistered type, another
 *              node's id, pages of data (mostly more than the type or the
 *              size allows), a size the type does not allow (truncated or
 *              extended body)
 *   frame      a frame the transport cannot take (size field below a
 *              header, above the maximum, or not the bytes sent): the
 *              connection is reset; at most one per 5000 messages
 *
 * Ping types are never sent, so that the target can count this node's
 * real pings as a marker.  When the connection is down (after a frame
 * fault) writes fail with EAGAIN or EHOSTDOWN and are retried for up to
 * 60 s.
 * Prints the count of each kind; exit 0 when all COUNT were sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../popcorn.h"
#include "wire.h"

#define DBG		"/sys/kernel/debug/popcorn/"
#define HDR_SIZE	WIRE_HDR_SIZE
#define MAX_SIZE	(HDR_SIZE + 64 + 64 * 1024)	/* PCN_KMSG_MAX_SIZE */
#define MAX_TYPES	256
#define MAX_SEEDS	1024
#define FRAME_EVERY	5000

struct type_info {
	int registered;
	char name[32];
	uint32_t min, max;
};

struct seed {
	uint32_t len;
	uint8_t *data;
};

enum kind { RANDOM, MUTATED, REPLAY, HEADER, FRAME, NR_KINDS };
static const char * const kind_names[NR_KINDS] = {
	"random", "mutated", "replay", "header", "frame",
};

static struct type_info types[MAX_TYPES];
static unsigned int nr_types;		/* highest registered + 1 */
static struct seed seeds[MAX_SEEDS];
static unsigned int nr_seeds;
static unsigned long sent[NR_KINDS], retries;
static uint64_t rng;
static int inject_fd;
static uint32_t target;
static uint8_t my_nid;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static int is_ping(unsigned int type)
{
	return !strncmp(types[type].name, "ping_", 5);
}

static void read_types(void)
{
	char name[32], kind[16];
	unsigned int t, min, max;
	FILE *f = fopen(DBG "types", "r");

	if (!f) {
		perror(DBG "types");
		exit(1);
	}
	while (fscanf(f, "%u %31s %u %u %15s", &t, name, &min, &max,
		      kind) == 5) {
		if (t >= MAX_TYPES)
			continue;
		types[t].registered = 1;
		snprintf(types[t].name, sizeof(types[t].name), "%s", name);
		types[t].min = min;
		types[t].max = max;
		if (t + 1 > nr_types)
			nr_types = t + 1;
	}
	fclose(f);
}

/* Seeds: the recorded messages, pings left out. */
static void read_seeds(void)
{
	static uint8_t buf[MAX_SEEDS * (8 + 8192)];
	size_t len = 0, off = 0;
	ssize_t n;
	int fd = open(DBG "msglog", O_RDONLY);

	if (fd < 0) {
		perror(DBG "msglog");
		exit(1);
	}
	while ((n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(fd);
	while (off + 8 <= len && nr_seeds < MAX_SEEDS) {
		uint32_t l, dir;
		struct wire_hdr *h;

		memcpy(&l, buf + off, 4);
		memcpy(&dir, buf + off + 4, 4);
		off += 8;
		if (l < HDR_SIZE || off + l > len)
			break;
		h = (struct wire_hdr *)(buf + off);
		if (h->type < nr_types && !is_ping(h->type)) {
			seeds[nr_seeds].len = l;
			seeds[nr_seeds].data = malloc(l);
			if (!seeds[nr_seeds].data)
				exit(1);
			memcpy(seeds[nr_seeds].data, buf + off, l);
			nr_seeds++;
		}
		off += l;
	}
}

/* How many types the seeds have. */
static unsigned int seed_types(void)
{
	unsigned char seen[MAX_TYPES] = { 0 };
	unsigned int i, n = 0;

	for (i = 0; i < nr_seeds; i++) {
		unsigned int t = ((struct wire_hdr *)seeds[i].data)->type;

		if (!seen[t]++)
			n++;
	}
	return n;
}

/* A registered type other than ping, or -1. */
static int pick_type(void)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		unsigned int t = rnd_below(nr_types);

		if (types[t].registered && !is_ping(t))
			return t;
	}
	return -1;
}

static void send_raw(enum kind k, const void *msg, uint32_t len)
{
	static uint8_t buf[4 + MAX_SIZE + 64];
	time_t start = time(NULL);

	memcpy(buf, &target, 4);
	memcpy(buf + 4, msg, len);
	while (write(inject_fd, buf, 4 + len) < 0) {
		/* EAGAIN: no connection; EHOSTDOWN: it broke during the send. */
		if ((errno != EAGAIN && errno != EHOSTDOWN) ||
		    time(NULL) - start > 60) {
			fprintf(stderr, "pcn_fuzz: inject_raw: %s after %lu messages\n",
				strerror(errno), sent[RANDOM] + sent[MUTATED] +
				sent[REPLAY] + sent[HEADER] + sent[FRAME]);
			exit(1);
		}
		retries++;
		usleep(50000);
	}
	sent[k]++;
}

static void fix_header(uint8_t *m, uint32_t len)
{
	struct wire_hdr *h = (struct wire_hdr *)m;

	h->size = len;
	h->from_nid = my_nid;
	h->npages = 0;		/* a mutated body is no page data */
}

static const uint64_t boundary[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0x80000000,
	0xffffffff, 0x100000000ULL, 0x7ffffffff000ULL, 0x7fffffffffffULL,
	0x800000000000ULL, 0xffff800000000000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xffffffffffffffffULL, 4096, 65536, 65,
	(uint64_t)-4096,
};

static void fill_random(uint8_t *p, uint32_t len)
{
	uint32_t i;

	if (rnd_below(2)) {
		for (i = 0; i < len; i++)
			p[i] = rnd();
		return;
	}
	/* Small and boundary values word by word: closer to real fields. */
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t v = rnd_below(4) ? rnd_below(8) :
			     (uint32_t)boundary[rnd_below(sizeof(boundary) /
							  sizeof(boundary[0]))];
		memcpy(p + i, &v, 4);
	}
	for (; i < len; i++)
		p[i] = rnd();
}

static void mutate(uint8_t *m, uint32_t len)
{
	int n = 1 + rnd_below(4);

	if (len <= HDR_SIZE)
		return;
	while (n--) {
		uint32_t off = HDR_SIZE + rnd_below(len - HDR_SIZE);
		uint64_t v;

		switch (rnd_below(4)) {
		case 0:
			m[off] ^= 1 << rnd_below(8);
			break;
		case 1:
			m[off] = rnd();
			break;
		case 2:
			v = boundary[rnd_below(sizeof(boundary) /
					       sizeof(boundary[0]))];
			off &= ~3u;
			if (off < HDR_SIZE)
				off = HDR_SIZE;
			memcpy(m + off, &v, len - off < 8 ? len - off : 8);
			break;
		default: {
			struct seed *o = &seeds[rnd_below(nr_seeds)];
			uint32_t from, l;

			if (o->len <= HDR_SIZE)
				break;
			from = HDR_SIZE + rnd_below(o->len - HDR_SIZE);
			l = 1 + rnd_below(32);
			if (l > o->len - from)
				l = o->len - from;
			if (l > len - off)
				l = len - off;
			memcpy(m + off, o->data + from, l);
		}
		}
	}
}

static uint8_t msg[MAX_SIZE + 64];

static void send_random(void)
{
	int t = pick_type();
	uint32_t len;

	if (t < 0)
		return;
	len = types[t].min;
	if (types[t].max > types[t].min)
		len += rnd_below(rnd_below(4) ? 64 : types[t].max - types[t].min + 1);
	if (len > types[t].max)
		len = types[t].max;
	fill_random(msg, len);
	((struct wire_hdr *)msg)->type = t;
	fix_header(msg, len);
	send_raw(RANDOM, msg, len);
}

static void send_mutated(void)
{
	struct seed *s = &seeds[rnd_below(nr_seeds)];

	memcpy(msg, s->data, s->len);
	fix_header(msg, s->len);
	mutate(msg, s->len);
	send_raw(MUTATED, msg, s->len);
}

static void send_replay(void)
{
	unsigned int idx[8], n = 1, i, j, tmp;

	if (rnd_below(2)) {
		/* A burst of consecutive seeds, shuffled. */
		n = 2 + rnd_below(7);
		idx[0] = rnd_below(nr_seeds);
		for (i = 1; i < n; i++)
			idx[i] = (idx[0] + i) % nr_seeds;
		for (i = n - 1; i > 0; i--) {
			j = rnd_below(i + 1);
			tmp = idx[i];
			idx[i] = idx[j];
			idx[j] = tmp;
		}
	} else {
		idx[0] = rnd_below(nr_seeds);
	}
	for (i = 0; i < n; i++) {
		struct seed *s = &seeds[idx[i]];

		memcpy(msg, s->data, s->len);
		fix_header(msg, s->len);
		send_raw(REPLAY, msg, s->len);
	}
}

static void send_header(void)
{
	struct seed *s = &seeds[rnd_below(nr_seeds)];
	uint32_t len = s->len;
	struct wire_hdr *h = (struct wire_hdr *)msg;

	memcpy(msg, s->data, len);
	fix_header(msg, len);
	switch (rnd_below(5)) {
	case 0:		/* out of range or unregistered type */
		h->type = rnd_below(2) ? nr_types + rnd_below(65536 - nr_types) :
					 nr_types + rnd_below(4);
		break;
	case 1:		/* another node's id */
		do {
			h->from_nid = rnd_below(2) ? rnd_below(8) : rnd();
		} while (h->from_nid == my_nid);
		break;
	case 2:
		h->npages = 1 + rnd_below(255);
		break;
	case 3:		/* truncated: shorter than the type needs */
		if (types[h->type].min > HDR_SIZE) {
			len = HDR_SIZE + rnd_below(types[h->type].min - HDR_SIZE);
			h->size = len;
		}
		break;
	default:	/* extended: longer than the type allows */
		if (types[h->type].max + 64 <= MAX_SIZE) {
			len = types[h->type].max + 1 + rnd_below(64);
			fill_random(msg + s->len, len - s->len);
			h->size = len;
		}
		break;
	}
	send_raw(HEADER, msg, len);
}

/* Frames the transport cannot take: the link is reset. */
static void send_frame(void)
{
	struct wire_hdr *h = (struct wire_hdr *)msg;
	uint32_t len = HDR_SIZE + 16;

	fill_random(msg, len);
	fix_header(msg, len);
	h->type = 0xffff;
	switch (rnd_below(3)) {
	case 0:
		h->size = rnd_below(HDR_SIZE);
		break;
	case 1:
		h->size = MAX_SIZE + 1 + rnd_below(1 << 20);
		break;
	default:
		/* Claims less than it carries: the rest is read as a header. */
		h->size = HDR_SIZE;
		memset(msg + HDR_SIZE, 0xff, 16);
		break;
	}
	send_raw(FRAME, msg, len);
}

int main(int argc, char **argv)
{
	unsigned long count, i, total = 0;
	int k;

	if (argc != 4) {
		fprintf(stderr, "usage: pcn_fuzz NID COUNT SEED\n");
		return 2;
	}
	target = atoi(argv[1]);
	count = strtoul(argv[2], NULL, 0);
	rng = strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ULL + 1;
	my_nid = popcorn_current_nid();
	read_types();
	read_seeds();
	printf("# pcn_fuzz: %u types, %u seeds of %u types, seed %s, to node %u from node %u\n",
	       nr_types, nr_seeds, seed_types(), argv[3], target, my_nid);
	if (!nr_types || !nr_seeds) {
		fprintf(stderr, "pcn_fuzz: no types or no seeds\n");
		return 1;
	}
	if (!count)
		return 0;	/* only the counts above */
	inject_fd = open(DBG "inject_raw", O_WRONLY);
	if (inject_fd < 0) {
		perror(DBG "inject_raw");
		return 1;
	}
	for (i = 0; total < count; i++) {
		unsigned int r = rnd_below(100);

		if (i && i % FRAME_EVERY == 0)
			send_frame();
		else if (r < 25)
			send_random();
		else if (r < 60)
			send_mutated();
		else if (r < 75)
			send_replay();
		else
			send_header();
		for (total = 0, k = 0; k < NR_KINDS; k++)
			total += sent[k];
		/* Let the target's workers drain now and then. */
		if (i % 64 == 63)
			usleep(2000);
	}
	for (k = 0; k < NR_KINDS; k++)
		printf("# pcn_fuzz: %s %lu\n", kind_names[k], sent[k]);
	printf("# pcn_fuzz: sent %lu messages, %lu retries while the link was down\n",
	       total, retries);
	close(inject_fd);
	return 0;
}
