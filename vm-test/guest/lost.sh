#!/bin/sh
# Lost messages: a TASK_EXIT, TASK_SIGNAL or PROCESS_EXIT
# that cannot be sent must not leave a shadow waiting or a worker alive.
# The test hook /sys/kernel/debug/popcorn/fail makes the next send of a
# type fail (as a transport that lost it) or the TASK_EXIT allocation
# fail.  Node 0 is the origin, node 1 the remote; each loss must end
# the connection, so that node 0 kills the process whose thread was
# away (status 137) and node 1 ends the worker, and then the nodes
# connect again.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
fail=/sys/kernel/debug/popcorn/fail
workers=/sys/kernel/debug/popcorn/workers

# Node 1 loses its first two TASK_EXITs: the first cannot be allocated,
# the second cannot be sent.  Armed before node 0 can migrate.
if [ "$nid" = 1 ]; then
	echo "exit_alloc 1" > $fail && echo "task_exit 1" > $fail
	tap $? "node 1: the exit_alloc and task_exit fail points are armed"
fi

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

offline_events() {	# how many times this node saw node $1 go offline
	dmesg | grep -c "popcorn: node $1 offline"
}

# run_lost NAME EXPECTED_RC COMMAND...: run COMMAND (a migrating
# process) with a 120 s limit; it must end with EXPECTED_RC, the
# connection must have ended once, and come back.
run_lost() {
	local name=$1 want=$2 before rc
	shift 2
	before=$(offline_events 1)
	timeout -s KILL 120 "$@" > /tmp/lost.out 2>&1
	rc=$?
	[ "$rc" -eq "$want" ]
	tap $? "$name: the process ends with status $want, no hang (got $rc)"
	[ "$(offline_events 1)" -gt "$before" ]
	tap $? "$name: the connection to node 1 ended"
	wait_all_online 2 60
	tap $? "$name: node 1 is back online (after ${WAITED}s)"
}

if [ "$nid" = 0 ]; then
	echo 1 > /proc/popcorn_stat
	# 1. node 1 cannot allocate the TASK_EXIT of exit(42).
	run_lost "remote exit, TASK_EXIT not allocated" 137 /bin/test_migrate exit 1 42
	dmesg | grep -q "popcorn: node 1 lost with thread"
	tap $? "the shadow's process was killed as its thread was lost"
	# 2. node 1 cannot send it.
	run_lost "remote exit, TASK_EXIT not sent" 137 /bin/test_migrate exit 1 42

	# 3. A signal for the thread at node 1 cannot be forwarded.
	echo "task_signal 1" > $fail
	/bin/test_migrate signal 1 > /tmp/signal.out 2>&1 &
	sigpid=$!
	wait_until 60 grep -q '^# pid' /tmp/signal.out
	tap $? "test_migrate signal is waiting at node 1"
	before=$(offline_events 1)
	sleep 2
	kill -USR1 $sigpid
	# The wait of a shell builtin has no time limit: poll instead.
	wait_until 60 sh -c "[ ! -d /proc/$sigpid ]"
	tap $? "signal lost: the process ended, no hang (${WAITED}s)"
	wait $sigpid
	rc=$?
	[ $rc -eq 137 ]
	tap $? "signal lost: the process was killed (status $rc)"
	[ "$(offline_events 1)" -gt "$before" ]
	tap $? "signal lost: the connection to node 1 ended"
	wait_all_online 2 60
	tap $? "signal lost: node 1 is back online (after ${WAITED}s)"

	# 4. The PROCESS_EXIT of a process that came home cannot be sent:
	# node 1 must still end the worker (checked there).
	echo "process_exit 1" > $fail
	before=$(offline_events 1)
	timeout -s KILL 120 /bin/test_worker 1 1 > /tmp/worker.out 2>&1
	rc=$?
	[ $rc -eq 0 ]
	tap $? "test_worker exited 0 (status $rc)"
	wait_until 30 sh -c "[ \$(dmesg | grep -c 'popcorn: node 1 offline') -gt $before ]"
	tap $? "process_exit lost: the connection to node 1 ended (${WAITED}s)"
	wait_all_online 2 60
	tap $? "process_exit lost: node 1 is back online (after ${WAITED}s)"

	# (The TASK_EXITs were lost at node 1: it checks their log lines.)
	for t in task_signal process_exit; do
		dmesg | grep -q "popcorn: lost a $t message to node 1"
		tap $? "the lost $t is logged"
	done
	[ "$(stat_key lost_vital)" -eq 2 ] && [ "$(stat_key lost_vital_resets)" -eq 2 ]
	tap $? "/proc/popcorn_stat: 2 lost messages here, 2 connections ended (lost_vital $(stat_key lost_vital), lost_vital_resets $(stat_key lost_vital_resets))"

	# Nothing is left broken: a migration and its exit code come through.
	/bin/test_migrate exit 1 42
	rc=$?
	[ $rc -eq 42 ]
	tap $? "afterwards exit(42) at node 1 gives status 42 at the origin (got $rc)"
	# Tells node 1 the test is over.
	popcorn ping 1 > /dev/null
	tap $? "ping node 1"
else
	# One worker per stage; each must be gone after its loss.
	stage=0
	for what in "TASK_EXIT not allocated" "TASK_EXIT not sent" \
		    "signal not forwarded" "PROCESS_EXIT not sent"; do
		stage=$((stage + 1))
		wait_until 200 sh -c "[ \$(dmesg | grep -c 'popcorn: node 0 offline') -ge $stage ]"
		tap $? "$what: the connection to node 0 ended (${WAITED}s)"
		wait_until 30 sh -c "! grep -q '^0 ' $workers"
		tap $? "$what: no worker of node 0 left ($(cat $workers | tr '\n' ' '))"
	done
	dmesg | grep -q "popcorn: test hook: exit_alloc fails" &&
		dmesg | grep -q "popcorn: lost a task_exit message to node 0 (-12)"
	tap $? "the unallocated TASK_EXIT is logged"
	dmesg | grep -q "popcorn: lost a task_exit message to node 0 (-5)"
	tap $? "the unsent TASK_EXIT is logged"
	[ "$(stat_key lost_vital)" -eq 2 ] && [ "$(stat_key lost_vital_resets)" -eq 2 ]
	tap $? "/proc/popcorn_stat: 2 lost messages here, 2 connections ended (lost_vital $(stat_key lost_vital), lost_vital_resets $(stat_key lost_vital_resets))"
	wait_until 200 sh -c ". /tests/lib.sh; [ \$(stat_type ping_request recv) -ge 1 ]"
	tap $? "node 0 finished"
	left=$(cat /proc/[0-9]*/comm 2>/dev/null | grep '^test_' | tr '\n' ' ')
	[ -z "$left" ]
	tap $? "no test process left on this node ($left)"
fi
