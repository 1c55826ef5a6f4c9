#!/bin/sh
# The process server's bounds.  Node 0 boots with
# pcn.max_workers=4: each of the two other nodes may have 2 workers
# there.  Node 1 takes its share and is refused a third; node 2 still
# gets one.  Then node 0 stalls its workers (test hook worker_stall)
# and 80 threads of one process of node 2 migrate there at once: 64
# wait in the worker's queue, the rest are refused with EAGAIN, and
# every thread either went and came back or was refused.  Those that
# got there each write a page of their own at once: node 2 gets a burst
# of page requests from node 0 larger than the number of handlers it
# runs at a time for one node, and must queue them, not drop them.
# A migration proposed to node 0 for a thread of node 1 while node 1's
# share is taken is refused on the way out and stays pending.
# The waits add up to less than the harness's 180 s, so that a hang
# shows its blocked tasks.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
pings() {	# pings N: N ping requests reached this node
	[ "$(stat_type ping_request recv)" -ge "$1" ]
}
rx_queue_ok() {	# the counter exists and no message was dropped
	grep -q '^dropped rx_queue_full ' /proc/popcorn_stat &&
		[ "$(stat_key dropped rx_queue_full)" -eq 0 ]
}

# one_thread "MIGRATED REFUSED" DESCRIPTION: a process whose one thread
# migrates to node 0 and back; check what happened.
one_thread() {
	/bin/test_crowd 0 1 0 > /tmp/one.out 2>&1
	grep '^# crowd' /tmp/one.out
	set -- $1 "$2"
	grep -q "^# crowd: migrated $1 refused $2 other 0" /tmp/one.out
	tap $? "$3"
}

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"

if [ "$nid" = 0 ]; then
	[ "$(cat /sys/module/pcn/parameters/max_workers)" = 4 ]
	tap $? "pcn.max_workers=4 taken"
	# Node 2 has checked its share: stall the workers for its crowd.
	wait_until 60 pings 1
	tap $? "node 2 is ready for the crowd (${WAITED}s)"
	echo "worker_stall 1" > /sys/kernel/debug/popcorn/fail
	popcorn ping 2 --count 1 > /dev/null
	wait_until 100 pings 2
	tap $? "node 2's crowd is over (${WAITED}s)" ||
		{ blocked_tasks_diag; dmesg | grep popcorn | tail -n 20; }
	rx_queue_ok
	tap $? "no message of the crowd was dropped for a full receive queue ($(stat_key dropped rx_queue_full))"
	dmesg | grep -q "popcorn: node 1 has 2 workers here, its share: no more"
	tap $? "node 1's third worker refused and logged"
	dmesg | grep -q "popcorn: node 2: 64 migrations queued for one worker: refused"
	tap $? "migrations past a worker's queue of 64 refused and logged"
	[ "$(stat_key dropped backlog_full)" -ge 2 ]
	tap $? "the refusals are counted (backlog_full $(stat_key dropped backlog_full))"
elif [ "$nid" = 1 ]; then
	# Two processes keep a worker each at node 0: this node's share.
	keepers=
	for k in 1 2; do
		/bin/test_crowd 0 1 120 > /tmp/keep$k.out 2>&1 &
		keepers="$keepers $!"
		wait_until 60 grep -q '^# pid' /tmp/keep$k.out
	done
	cat /tmp/keep1.out /tmp/keep2.out | grep '^# crowd'
	[ "$(cat /tmp/keep1.out /tmp/keep2.out |
	     grep -c '^# crowd: migrated 1 refused 0 other 0')" -eq 2 ]
	tap $? "two processes of node 1 migrated to node 0 and keep their workers"
	one_thread "0 1" "a third process is refused with EAGAIN: node 1's share of node 0 is 2 workers"
	# Placed threads of a third process, one after the other: node 0
	# refuses the first (its PROCESS_CREATE, for a worker), and the next
	# ones skip it for a while rather than each being refused in turn.
	asked() { echo $(($(stat_type process_create sent) + $(stat_type task_migrate sent))); }
	m0=$(asked)
	f0=$(dmesg | grep -c "placement on node 0 failed")
	out=$(popcorn run --nodes 0 -- /bin/test_place 4 0 serial 2>&1)
	rc=$?
	m=$(($(asked) - m0))
	f=$(($(dmesg | grep -c "placement on node 0 failed") - f0))
	echo "$out" | sed 's/^/# /'
	[ $rc -eq 0 ] && echo "$out" | grep -qx "first 1 1 1 1" &&
		[ $m -eq 1 ] && [ $f -eq 1 ]
	tap $? "4 threads placed on node 0 while it refuses: one asked and refused, 3 skipped it, all ran here (exit $rc, $m asked, $f logged)"
	# The skip lasts a second: a thread made later asks again.
	m0=$(asked)
	out=$(popcorn run --nodes 0 -- /bin/test_place 2 0 serial=1500 2>&1)
	rc=$?
	m=$(($(asked) - m0))
	echo "$out" | grep -qx "first 1 1" && [ $m -eq 2 ]
	tap $? "2 threads 1.5 s apart: each asked node 0 and was refused (exit $rc, $m asked)"
	# A migration proposed to node 0 for a thread of a third process:
	# refused on the way out, so the proposal stays pending until the
	# keepers are gone and the thread's migrate(-1) is taken.
	rm -f /tmp/pending.go
	/bin/plib_api 0 pending /tmp/pending.go > /tmp/pending.out 2>&1 &
	pend=$!
	wait_until 30 grep -q '^# pending: waiting' /tmp/pending.out
	tap $? "a thread proposed to node 0 sees its proposal pending (${WAITED}s)"
	dmesg | grep -q "proposed migration to node 0 failed: -11; still proposed"
	tap $? "the refused proposed move is logged"
	popcorn ping 2 --count 1 > /dev/null
	wait_until 150 pings 1
	tap $? "node 2 finished (${WAITED}s)"
	kill $keepers
	touch /tmp/pending.go
	wait_until 60 sh -c "! kill -0 $pend 2>/dev/null"
	kill -9 $pend 2>/dev/null
	wait $pend
	rc=$?
	cat /tmp/pending.out
	tap $rc "plib_api pending exited 0 (exit $rc)"
else
	wait_until 60 pings 1
	tap $? "node 1 has its share of node 0's workers (${WAITED}s)"
	one_thread "1 0" "node 2 still gets a worker at node 0"
	popcorn ping 0 --count 1 > /dev/null
	wait_until 30 pings 2
	tap $? "node 0 stalled its workers (${WAITED}s)"
	timeout -s KILL 60 /bin/test_crowd 0 80 0 > /tmp/crowd.out 2>&1 &
	crowd=$!
	wait_until 55 sh -c "! kill -0 $crowd 2>/dev/null" ||
		{ blocked_tasks_diag; dmesg | grep popcorn | tail -n 20; }
	wait $crowd
	rc=$?
	cat /tmp/crowd.out
	rx_queue_ok
	tap $? "no page request of the crowd was dropped for a full receive queue ($(stat_key dropped rx_queue_full))"
	set -- $(sed -n 's/^# crowd: migrated \([0-9]*\) refused \([0-9]*\) other \([0-9]*\).*/\1 \2 \3/p' /tmp/crowd.out)
	[ $rc -eq 0 ] && [ "${1:-0}" -ge 64 ] && [ "${2:-0}" -ge 1 ] &&
		[ "${3:-1}" -eq 0 ] && [ $(($1 + $2)) -eq 80 ]
	tap $? "80 threads at once: at least 64 went and came back, the rest refused with EAGAIN (migrated ${1:-?}, refused ${2:-?}, other ${3:-?})"
	popcorn ping 0 --count 1 > /dev/null
	popcorn ping 1 --count 1 > /dev/null
fi
