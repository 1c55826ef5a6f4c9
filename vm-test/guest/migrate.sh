#!/bin/sh
# Thread migration: node 0 runs the tests, node 1 is the
# destination, node 2 a second remote reached through the origin.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
rounds=$(cmdline_param pcn_rounds)
# The large buffer of test_migrate basic (MiB) and its pages.
big_mib=$(cmdline_param pcn_big_mib)
big_mib=${big_mib:-16}
big_pages=$((big_mib * 256))
workers=/sys/kernel/debug/popcorn/workers

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"

if [ "$nid" = 0 ]; then
	echo 1 > /proc/popcorn_stat
	# SIGKILL of the origin process while its thread runs at node 1.
	/bin/test_migrate spin 1 > /tmp/spin.out &
	victim=$!
	wait_until 30 grep -q '^# pid' /tmp/spin.out
	sleep 4
	kill -9 $victim
	wait $victim
	rc=$?
	[ $rc -eq 137 ] && [ ! -d /proc/$victim ]
	tap $? "origin process killed with SIGKILL while at node 1 (status $rc)"

	/bin/test_migrate basic 1 "${rounds:-500}" 2 "$big_mib"
	tap $? "test_migrate basic exited 0"
	grep '^fault ' /proc/popcorn_stat | sed 's/^/# /'
	stat_at_least 1 fault local && stat_at_least 1 fault remote_read &&
		stat_at_least $big_pages fault invalidation &&
		[ "$(awk '$1 == "fault" && $2 == "invalidation" { print $4 }' /proc/popcorn_stat)" -gt 0 ]
	tap $? "/proc/popcorn_stat counts the origin's faults by kind with a mean latency"

	# Tracepoints (kernel/popcorn/trace.h) over a short run of the same
	# test (2 rounds, 1 MiB, so that the ring buffer keeps it all).
	tr=/sys/kernel/tracing
	[ -d $tr/events ] || mount -t tracefs tracefs $tr
	echo 0 > $tr/tracing_on
	echo > $tr/trace
	echo 1 > $tr/events/popcorn/enable
	echo 1 > $tr/tracing_on
	/bin/test_migrate basic 1 2 -1 1 > /tmp/traced.out
	tap $? "test_migrate basic (traced) exited 0"
	echo 0 > $tr/events/popcorn/enable
	cat $tr/trace > /tmp/trace.out
	echo "# $(grep -c ': pcn_' /tmp/trace.out) popcorn events traced"
	for ev in "pcn_migrate: step=out node=1 pid=[0-9]* ret=0" \
		  "pcn_msg_sent: node=1 type=task_migrate size=[0-9]* ret=0" \
		  "pcn_msg_received: node=1 type=page_request size=[0-9]* ret=0" \
		  "pcn_msg_received: node=1 type=task_back size=[0-9]* ret=0" \
		  "pcn_fault: kind=local ns=[0-9]*" \
		  "pcn_fault: kind=invalidation ns=[1-9][0-9]*" \
		  "pcn_page_revoke: tgid=[0-9]* node=1 addr=0x[0-9a-f]* want_data=[01] ret=0 ns=[1-9]"; do
		grep -q "$ev" /tmp/trace.out
		tap $? "trace event: ${ev%%:*}: ${ev#*: }"
	done

	/bin/test_migrate exit 1 42
	rc=$?
	[ $rc -eq 42 ]
	tap $? "exit(42) at node 1 ends the process at the origin with status 42 (got $rc)"

	# Output of the thread while it is at node 1 comes out here, in order.
	# Calls that would act on the remote's own state are refused there.
	/bin/test_migrate syscalls 1
	tap $? "test_migrate syscalls exited 0"
	# The nodes booted at different times: the clocks a thread reads
	# at node 2 are still its origin's.
	/bin/test_clock 2
	tap $? "test_clock exited 0"
	/bin/test_calls 1
	tap $? "test_calls exited 0"
	# CPU time used at node 1 is the process's at home.
	/bin/test_cputime 1 2
	tap $? "test_cputime exited 0"
	# Job control: stop and continue a process spread over three nodes.
	/bin/test_jobctl 1 2
	tap $? "test_jobctl exited 0"
	# Debuggers: strace -f -p and gdb -p on a process with threads
	# computing at nodes 1 and 2.  Attached, its threads come home;
	# let go, they go back (jobctl.c).
	/bin/test_traced 1 2 > /tmp/traced.out 2>&1 &
	tp=$!
	wait_until 90 grep -q '^# ready' /tmp/traced.out
	tap $? "test_traced: threads at nodes 1 and 2 (${WAITED}s)"
	away_of() {	# away_of PID: its threads away from here
		awk -v p=$1 '$1 == "process" { on = $2 == p }
			on && $1 == "thread" && $4 != 0 { n++ }
			END { print n + 0 }' /proc/popcorn_ps
	}
	all_away() { [ "$(away_of $tp)" -ge 2 ]; }
	none_away() { [ "$(away_of $tp)" -eq 0 ]; }
	all_away
	tap $? "test_traced: 2 threads away before tracing ($(away_of $tp))"
	/usr/bin/strace -f -p $tp -e trace=getppid -o /tmp/strace.out 2> /tmp/strace.err &
	st=$!
	wait_until 30 none_away
	tap $? "strace -f -p: every thread home while traced (${WAITED}s)"
	sleep 3
	none_away
	tap $? "strace -f -p: the threads stay home while traced ($(away_of $tp) away after 3 s)"
	kill -INT $st
	wait $st
	rc=$?
	calls=$(grep -c 'getppid(' /tmp/strace.out)
	tids=$(grep 'getppid(' /tmp/strace.out | awk '{ print $1 }' | sort -u | wc -l)
	head -n 3 /tmp/strace.out | sed 's/^/# strace: /'
	sed 's/^/# strace stderr: /' /tmp/strace.err
	[ "$tids" -ge 2 ]
	tap $? "strace -f -p saw getppid() of both computing threads ($calls calls from $tids threads, exit $rc)"
	wait_until 30 all_away
	tap $? "strace detached: the threads went back to nodes 1 and 2 (${WAITED}s)"
	timeout 60 /usr/bin/gdb -p $tp -batch -ex 'print/x marker' \
		-ex 'set var poke = 4242' -ex 'print poke' -ex 'info threads' \
		> /tmp/gdb.out 2>&1
	rc=$?
	grep -v '^\[' /tmp/gdb.out | sed 's/^/# gdb: /'
	grep -q '^\$1 = 0x5eed0001$' /tmp/gdb.out
	tap $? "gdb -p reads a variable whose page node 1 holds (exit $rc)"
	[ "$(grep -Ec '^[ *] +[0-9]+ +(Thread|LWP) ' /tmp/gdb.out)" -eq 3 ]
	tap $? "gdb -p lists the 3 threads"
	wait $tp
	rc=$?
	cat /tmp/traced.out | sed 's/^/# /'
	[ $rc -eq 0 ] && grep -qx "poke 4242 seen at 1 2" /tmp/traced.out
	tap $? "gdb's write is seen by the threads, back at nodes 1 and 2 (exit $rc)"
	# A thread that dies at node 1 of a signal that dumps core, while
	# others compute at node 2 and block at node 1: the core is written
	# here with all their registers; the host's gdb reads it (suite.sh).
	echo "/tmp/core.%p" > /proc/sys/kernel/core_pattern
	for mode in segv abort; do
		/bin/test_core $mode 1 /tmp/core. 2 > /tmp/core.out 2>&1
		rc=$?
		cat /tmp/core.out
		tap $rc "test_core $mode exited 0 (exit $rc)"
		core=$(sed -n 's/^# core //p' /tmp/core.out)
		if [ -s "$core" ]; then
			echo "# core-b64 test_core $mode"
			gzip -c "$core" | base64
			echo "# core-end"
			rm -f "$core"
		fi
	done

	/bin/test_migrate print 1 > /tmp/print.out 2> /tmp/print.err
	tap $? "test_migrate print exited 0"
	grep '^ok\|^not ok' /tmp/print.out
	grep -v '^ok\|^not ok' /tmp/print.out | sed 's/^/# stdout: /'
	[ "$(grep -v '^ok\|^not ok' /tmp/print.out | tr '\n' '|')" = \
	  "line 1 from node 0|line 2 from node 1|line 3 from node 0|" ]
	tap $? "printf at node 1 goes to the origin's stdout, in order"
	grep -qx "stderr from node 1" /tmp/print.err
	tap $? "stderr written at node 1 goes to the origin's stderr"
	[ "$(stat_type file_write recv)" -ge 2 ]
	tap $? "/proc/popcorn_stat counts remote writes (file_write $(stat_type file_write recv))"

	/bin/test_migrate segv 1
	rc=$?
	[ $rc -eq 139 ]
	tap $? "an address with no VMA at the origin gives SIGSEGV at node 1 (status $rc)"

	for t in task_migrate task_migrated task_back vma_op vma_op_done; do
		echo "# $t sent $(stat_type $t sent) recv $(stat_type $t recv)"
	done
	[ "$(stat_type task_migrate sent)" -ge "${rounds:-500}" ] &&
		[ "$(stat_type task_back recv)" -ge "${rounds:-500}" ]
	tap $? "/proc/popcorn_stat counts the migrations (task_migrate $(stat_type task_migrate sent), task_back $(stat_type task_back recv))"
	[ "$(stat_type task_exit recv)" -ge 1 ]
	tap $? "/proc/popcorn_stat counts the remote exit (task_exit $(stat_type task_exit recv))"
	[ "$(stat_type vma_request recv)" -ge 1 ] &&
		[ "$(stat_type vma_op recv)" -ge 1 ]
	tap $? "/proc/popcorn_stat counts VMA messages (vma_request $(stat_type vma_request recv), vma_op $(stat_type vma_op recv))"
	[ "$(stat_type page_request recv)" -ge $big_pages ] &&
		[ "$(stat_type page_grant sent)" -ge $big_pages ] &&
		[ "$(stat_type page_invalidate sent)" -ge $big_pages ]
	tap $? "/proc/popcorn_stat counts page messages (page_request $(stat_type page_request recv), page_invalidate $(stat_type page_invalidate sent))"
	# A signal with a handler, sent to the origin pid, runs it remotely.
	/bin/test_migrate signal 1 > /tmp/signal.out &
	sigpid=$!
	wait_until 30 grep -q '^# pid' /tmp/signal.out
	sleep 3
	kill -USR1 $sigpid
	wait $sigpid
	tap $? "test_migrate signal exited 0"
	grep -v '^# pid' /tmp/signal.out
	[ "$(stat_type task_signal sent)" -ge 1 ]
	tap $? "/proc/popcorn_stat counts the forwarded signal (task_signal $(stat_type task_signal sent))"
	# Every program has ended: no context, shadow or pending request
	# is left here (a context ends just after its process).
	wait_until 30 sh -c '[ "$(awk '"'"'$1 == "live" { n += $3 } END { print n + 0 }'"'"' /proc/popcorn_stat)" -eq 0 ]'
	tap $? "nothing is left at the origin: /proc/popcorn_stat's live counts are 0 ($(grep '^live' /proc/popcorn_stat | tr '\n' ' '))"
elif [ "$nid" = 1 ]; then
	wait_until 60 sh -c "grep -q '^0 ' $workers"
	tap $? "a worker for node 0's first process appears"
	wait_until 30 sh -c "[ \$(ls /proc/\$(awk '{ print \$3; exit }' $workers)/task | wc -l) -ge 2 ]"
	tap $? "the migrated thread runs in the worker's thread group"
	wpid=$(awk '{ print $3; exit }' $workers)
	wait_until 60 sh -c "[ ! -d /proc/$wpid ]"
	tap $? "worker $wpid and its thread gone after the origin process was killed (${WAITED}s)"
	# The large buffer is changed here: a write fault per page at least.
	wait_until 600 stat_at_least $big_pages fault remote_write
	tap $? "/proc/popcorn_stat counts this node's remote write faults"
	grep '^fault ' /proc/popcorn_stat | sed 's/^/# /'
	# Read faults, or pages prefetched with one (page-server.rst).
	reads=$(($(stat_key fault remote_read) + $(stat_key fault prefetched)))
	[ "$reads" -ge "$big_pages" ] && [ "$(stat_key fault remote_read)" -gt 0 ] &&
		[ "$(awk '$1 == "fault" && $2 == "remote_read" { print $4 }' /proc/popcorn_stat)" -gt 0 ]
	tap $? "remote read faults and prefetched pages counted ($reads for $big_pages pages), with the faults' mean latency"
fi
