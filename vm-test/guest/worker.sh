#!/bin/sh
# Process server: a remote worker is made on the destination by the
# first migration of a process and ends with the process.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
workers=/sys/kernel/debug/popcorn/workers

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

if [ "$nid" = 0 ]; then
	echo 1 > /proc/popcorn_stat
	/bin/test_worker 1 4 > /tmp/worker.out
	tap $? "test_worker exited 0"
	grep -v '^# pid' /tmp/worker.out
	pid=$(sed -n 's/^# pid //p' /tmp/worker.out)
	echo "# origin pid $pid"
	[ "$(stat_type process_create sent)" -eq 1 ] &&
		[ "$(stat_type process_created recv)" -eq 1 ]
	tap $? "one process_create request and one answer for two trips"
	# The forked child must not have sent one of its own.
	# The exit is announced asynchronously, from a work item.
	wait_until 10 sh -c ". /tests/lib.sh; [ \$(stat_type process_exit sent) -ge 1 ]"
	sleep 1
	[ "$(stat_type process_exit sent)" -eq 1 ]
	tap $? "exactly one process_exit sent (the forked child is not distributed)"
	# Killed while distributed: the worker must go too.
	/bin/test_worker 1 30 > /tmp/worker2.out &
	victim=$!
	wait_until 20 grep -q '^# pid' /tmp/worker2.out
	sleep 3
	kill -9 $victim
	echo "# killed origin pid $victim"
	# Last: this node dies with a distributed process running.
	/bin/test_worker 1 600 > /tmp/worker3.out &
	wait_until 20 grep -q '^# pid' /tmp/worker3.out
	sleep 3
	echo "# kill node0"
else
	wait_until 60 sh -c "grep -q '^0 ' $workers"
	tap $? "remote worker for node 0's process appears ($(cat $workers))"
	first=$(awk '$1 == 0 { print $2; exit }' $workers)
	wpid=$(awk '$1 == 0 { print $3; exit }' $workers)
	grep -q test_worker "/proc/$wpid/comm" 2>/dev/null
	tap $? "worker task $wpid is named after the origin process ($(cat /proc/$wpid/comm 2>/dev/null))"
	wait_until 30 sh -c "! grep -q '^0 $first ' $workers"
	tap $? "worker gone after origin process $first exited (${WAITED}s)"
	[ ! -d "/proc/$wpid" ]
	tap $? "no task $wpid left on this node"
	# The next origin process is SIGKILLed while distributed.
	wait_until 60 sh -c "awk '\$1 == 0 && \$2 != $first' $workers | grep -q ."
	tap $? "worker of a second origin process appears"
	second=$(awk -v f="$first" '$1 == 0 && $2 != f { print $2; exit }' $workers)
	wait_until 60 sh -c "! grep -q '^0 $second ' $workers"
	tap $? "worker gone after origin process $second was killed (${WAITED}s)"
	# The origin node itself is lost while a process is distributed.
	wait_until 60 sh -c "awk '\$1 == 0 && \$2 != $first && \$2 != $second' $workers | grep -q ."
	tap $? "worker of a third origin process appears"
	wait_until 60 node_is_offline 0
	tap $? "origin node 0 seen offline after it was killed"
	wait_until 10 sh -c "[ -z \"\$(cat $workers)\" ]"
	tap $? "workers of the lost origin node ended (${WAITED}s after offline)"
	! ps | grep -v grep | grep -q test_worker
	tap $? "no task of the lost origin's process left"
fi
