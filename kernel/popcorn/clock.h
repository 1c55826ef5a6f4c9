/* SPDX-License-Identifier: GPL-2.0 */
/* One monotonic clock for a distributed process (clock.c). */
#ifndef _POPCORN_CLOCK_H
#define _POPCORN_CLOCK_H

#include <linux/types.h>

struct nsproxy;

/* The origin's clocks, in PROCESS_CREATE (nanoseconds since its boot). */
struct pcn_clock_sample {
	s64 mono_ns;
	s64 boot_ns;
} __packed;

/* What a remote adds to its clocks to read the origin's. */
struct pcn_clock_offsets {
	s64 mono_ns;
	s64 boot_ns;
};

void pcn_clock_sample(struct pcn_clock_sample *s);
int pcn_clock_offsets(const struct pcn_clock_sample *s,
		      struct pcn_clock_offsets *off);
/* NULL without CONFIG_TIME_NS: the worker keeps this node's clocks. */
struct nsproxy *pcn_clock_ns_new(const struct pcn_clock_offsets *off);
void pcn_clock_ns_enter(struct nsproxy *nsp);
void pcn_clock_ns_drop(struct nsproxy *nsp);

#endif /* _POPCORN_CLOCK_H */
