/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Popcorn tracepoints (events/popcorn/ in tracefs): messages sent,
 * received and dropped, page faults by kind with their latency, page
 * revocations by the origin, waits on the DSM, adaptive placement's
 * judgements, and migrations.  Each costs a static
 * branch when its event is off.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM popcorn

#if !defined(_POPCORN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _POPCORN_TRACE_H

#include <linux/tracepoint.h>

#include "kmsg_internal.h"

/* The type's name is looked up only while the event is on. */
DECLARE_EVENT_CLASS(pcn_msg,
	TP_PROTO(int nid, u16 type, u32 size, int ret),
	TP_ARGS(nid, type, size, ret),
	TP_STRUCT__entry(
		__field(int, nid)
		__string(type, pcn_kmsg_type_name(type))
		__field(u32, size)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->nid = nid;
		__assign_str(type, pcn_kmsg_type_name(type));
		__entry->size = size;
		__entry->ret = ret;
	),
	TP_printk("node=%d type=%s size=%u ret=%d", __entry->nid,
		  __get_str(type), __entry->size, __entry->ret)
);

/* A message handed to the transport for @nid (ret: the send's). */
DEFINE_EVENT(pcn_msg, pcn_msg_sent,
	TP_PROTO(int nid, u16 type, u32 size, int ret),
	TP_ARGS(nid, type, size, ret));

/* A valid message from @nid, before its handler or waiter gets it. */
DEFINE_EVENT(pcn_msg, pcn_msg_received,
	TP_PROTO(int nid, u16 type, u32 size, int ret),
	TP_ARGS(nid, type, size, ret));

/* Input from @nid dropped, for @reason (dropped <reason> in the stats). */
TRACE_EVENT(pcn_msg_dropped,
	TP_PROTO(int nid, u32 type, size_t len, const char *reason),
	TP_ARGS(nid, type, len, reason),
	TP_STRUCT__entry(
		__field(int, nid)
		__field(u32, type)
		__field(size_t, len)
		__string(reason, reason)
	),
	TP_fast_assign(
		__entry->nid = nid;
		__entry->type = type;
		__entry->len = len;
		__assign_str(reason, reason);
	),
	TP_printk("node=%d type=%u len=%zu reason=%s", __entry->nid,
		  __entry->type, __entry->len, __get_str(reason))
);

/* One page-fault event of /proc/popcorn_stat's kind @kind. */
TRACE_EVENT(pcn_fault,
	TP_PROTO(const char *kind, u64 ns),
	TP_ARGS(kind, ns),
	TP_STRUCT__entry(
		__string(kind, kind)
		__field(u64, ns)
	),
	TP_fast_assign(
		__assign_str(kind, kind);
		__entry->ns = ns;
	),
	TP_printk("kind=%s ns=%llu", __get_str(kind), __entry->ns)
);

/*
 * Thread @tid waited @ns on the DSM: a page (@kind "fault") or a futex
 * hop; @shared if the wait comes from sharing (dsm_wait.c).
 */
TRACE_EVENT(pcn_dsm_wait,
	TP_PROTO(const char *kind, pid_t tid, u64 ns, bool shared),
	TP_ARGS(kind, tid, ns, shared),
	TP_STRUCT__entry(
		__string(kind, kind)
		__field(pid_t, tid)
		__field(u64, ns)
		__field(bool, shared)
	),
	TP_fast_assign(
		__assign_str(kind, kind);
		__entry->tid = tid;
		__entry->ns = ns;
		__entry->shared = shared;
	),
	TP_printk("kind=%s tid=%d ns=%llu shared=%d", __get_str(kind),
		  __entry->tid, __entry->ns, __entry->shared)
);

/*
 * Adaptive placement judged thread @tid of process @tgid, away at @nid,
 * on an interval in which it ran @run_ns and waited @wait_ns on the DSM
 * from sharing:
 * @strikes such intervals in a row, @home if it is called home for it.
 */
TRACE_EVENT(pcn_adapt,
	TP_PROTO(pid_t tgid, pid_t tid, int nid, u64 run_ns, u64 wait_ns,
		 unsigned int strikes, bool home),
	TP_ARGS(tgid, tid, nid, run_ns, wait_ns, strikes, home),
	TP_STRUCT__entry(
		__field(pid_t, tgid)
		__field(pid_t, tid)
		__field(int, nid)
		__field(u64, run_ns)
		__field(u64, wait_ns)
		__field(unsigned int, strikes)
		__field(bool, home)
	),
	TP_fast_assign(
		__entry->tgid = tgid;
		__entry->tid = tid;
		__entry->nid = nid;
		__entry->run_ns = run_ns;
		__entry->wait_ns = wait_ns;
		__entry->strikes = strikes;
		__entry->home = home;
	),
	TP_printk("tgid=%d tid=%d node=%d run_ns=%llu wait_ns=%llu strikes=%u home=%d",
		  __entry->tgid, __entry->tid, __entry->nid, __entry->run_ns,
		  __entry->wait_ns, __entry->strikes, __entry->home)
);

/* The origin asked @nid to drop its copy of @addr of process @tgid. */
TRACE_EVENT(pcn_page_revoke,
	TP_PROTO(pid_t tgid, int nid, unsigned long addr, bool want_data,
		 int ret, u64 ns),
	TP_ARGS(tgid, nid, addr, want_data, ret, ns),
	TP_STRUCT__entry(
		__field(pid_t, tgid)
		__field(int, nid)
		__field(unsigned long, addr)
		__field(bool, want_data)
		__field(int, ret)
		__field(u64, ns)
	),
	TP_fast_assign(
		__entry->tgid = tgid;
		__entry->nid = nid;
		__entry->addr = addr;
		__entry->want_data = want_data;
		__entry->ret = ret;
		__entry->ns = ns;
	),
	TP_printk("tgid=%d node=%d addr=0x%lx want_data=%d ret=%d ns=%llu",
		  __entry->tgid, __entry->nid, __entry->addr,
		  __entry->want_data, __entry->ret, __entry->ns)
);

/*
 * A step of a migration: "out" (a thread of the origin left for @nid,
 * @pid its shadow), "started" (a migrated thread @pid made here for
 * origin @nid), "back" (thread @pid went back to @nid); ret: 0 or why
 * the step failed.
 */
TRACE_EVENT(pcn_migrate,
	TP_PROTO(const char *step, int nid, pid_t pid, int ret),
	TP_ARGS(step, nid, pid, ret),
	TP_STRUCT__entry(
		__string(step, step)
		__field(int, nid)
		__field(pid_t, pid)
		__field(int, ret)
	),
	TP_fast_assign(
		__assign_str(step, step);
		__entry->nid = nid;
		__entry->pid = pid;
		__entry->ret = ret;
	),
	TP_printk("step=%s node=%d pid=%d ret=%d", __get_str(step),
		  __entry->nid, __entry->pid, __entry->ret)
);

#endif /* _POPCORN_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
