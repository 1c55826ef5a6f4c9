#!/bin/sh
# Fuzzing: node 2, an authenticated peer, records its real
# traffic with node 0, then sends node 0 pcn_fuzz_count (20000) random
# and mutated messages (pcn_fuzz).  Meanwhile node 0 keeps migrating a
# process to node 1 and back.  Node 0 must reject and count the bad
# input, log no WARN, BUG, oops or KASAN report, keep its connection to
# node 1 and serve both peers afterwards.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
count=$(cmdline_param pcn_fuzz_count)
count=${count:-20000}
seed=$(cmdline_param pcn_fuzz_seed)
seed=${seed:-1}
dbg=/sys/kernel/debug/popcorn

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"

# The end marker: node 2's real pings (the fuzzer sends no ping type).
fuzz_done() {
	[ "$(stat_type ping_request recv)" -ge 3 ]
}

splats() {
	dmesg | grep -cE 'WARNING:|BUG:|KASAN|Oops|general protection|kernel BUG'
}

if [ "$nid" = 0 ]; then
	echo 1 > /proc/popcorn_stat
	runs=0
	bad=0
	start=$(date +%s)
	limit=$(cmdline_param pcn_fuzz_wait)
	# The real peer's work goes on until the fuzz is over (or 40 min).
	while ! fuzz_done && [ $(($(date +%s) - start)) -lt "${limit:-2400}" ]; do
		/bin/test_migrate basic 1 20 -1 2 > /tmp/real.out 2>&1 ||
			{ bad=$((bad + 1)); tail -n 5 /tmp/real.out | sed 's/^/# real: /'; }
		runs=$((runs + 1))
	done
	fuzz_done
	tap $? "node 2's end-of-fuzz pings came ($(($(date +%s) - start))s)" ||
		{ blocked_tasks_diag; cat /proc/popcorn_stat | sed 's/^/# /'; }
	[ "$runs" -ge 1 ] && [ "$bad" -eq 0 ]
	tap $? "$runs migrating processes with node 1 during the fuzz, $bad failed"
	[ "$(dmesg | grep -c 'popcorn: node 1 offline')" -eq 0 ]
	tap $? "the connection to node 1 never dropped"

	awk '$1 == "dropped" && $3 != 0 { print "# " $0 }' /proc/popcorn_stat
	total=$(awk '$1 == "dropped" { s += $3 } END { print s + 0 }' /proc/popcorn_stat)
	echo "# dropped in all: $total; received and accepted:" \
	     "$(awk '$1 == "total" { print $4 }' /proc/popcorn_stat)"
	[ "$total" -ge $((count / 10)) ]
	tap $? "rejected messages counted ($total)"
	# (unhandled_type needs a type below the maximum with no handler:
	# there is none.  Frames come once per 5000 messages: on TCP, a
	# stream, a bad frame ends the connection; on RDMA, where a SEND
	# is one message, it is dropped as size_mismatch.)
	whys="bad_type bad_size_for_type bad_from_nid bad_pages"
	if [ "$count" -gt 5000 ]; then
		[ "$PCN_TRANSPORT" = tcp ] && whys="$whys bad_frame" ||
			whys="$whys size_mismatch"
	fi
	for why in $whys; do
		[ "$(stat_key dropped $why)" -gt 0 ]
		tap $? "drops counted as $why ($(stat_key dropped $why))"
	done
	accepted=0
	for t in process_create process_exit task_migrate task_signal \
		 vma_request page_request page_invalidate vma_drop; do
		n=$(stat_type $t recv)
		accepted=$((accepted + n))
		echo "# accepted $t: $n"
	done
	[ "$accepted" -ge 1000 ]
	tap $? "fuzzed requests reached the handlers ($accepted of 8 types)"

	[ "$(splats)" -eq 0 ]
	tap $? "no WARN, BUG, oops or KASAN report"
	dmesg | grep -E 'WARNING:|BUG:|KASAN|Oops' | head -n 5 | sed 's/^/# /'
	# Both peers are still served.
	/bin/test_migrate basic 1 5 -1 1 > /tmp/real.out 2>&1
	tap $? "a migration to node 1 after the fuzz"
	popcorn ping 1 --count 5 > /dev/null
	tap $? "ping node 1 after the fuzz"
	wait_until 60 node_is_online 2
	popcorn ping 2 --count 5 > /dev/null
	tap $? "ping node 2 after the fuzz"
	grep MemFree /proc/meminfo | sed 's/^/# /'
elif [ "$nid" = 2 ]; then
	# Seeds: real traffic with node 0 of every kind this node can cause
	# (test_migrate checks results as if run at node 0: only the
	# traffic matters here, not its verdicts).
	echo 1000 > $dbg/msglog
	/bin/test_migrate basic 0 3 -1 1 > /tmp/seed.out 2>&1
	/bin/test_migrate exit 0 3
	/bin/test_migrate print 0 > /tmp/print.out 2>&1
	/bin/test_migrate signal 0 > /tmp/signal.out 2>&1 &
	sigpid=$!
	wait_until 60 grep -q '^# pid' /tmp/signal.out
	sleep 2
	kill -USR1 $sigpid
	wait $sigpid
	/bin/pcn_fuzz 0 0 0 > /tmp/seeds.out
	cat /tmp/seeds.out
	kinds=$(sed -n 's/.* seeds of \([0-9]*\) types.*/\1/p' /tmp/seeds.out)
	[ "${kinds:-0}" -ge 12 ]
	tap $? "seed traffic recorded: messages of ${kinds:-0} types"
	t0=$(date +%s)
	/bin/pcn_fuzz 0 "$count" "$seed"
	tap $? "pcn_fuzz sent $count messages to node 0, seed $seed ($(($(date +%s) - t0))s)"
	# Requests of this node past its receive queue at node 0 (4096
	# waiting) are dropped until node 0 has worked through the fuzz
	# (handlers that wait for a page grant that never comes take up to
	# 10 s each).
	wait_until 120 popcorn ping 0 --count 3 > /dev/null
	tap $? "node 0 answers this node's pings again after the fuzz (${WAITED}s)" ||
		{ blocked_tasks_diag; cat /proc/popcorn_stat | sed 's/^/# /'; }
	/bin/test_migrate exit 0 42
	rc=$?
	[ $rc -eq 42 ]
	tap $? "a migration to node 0 after the fuzz: exit(42) there gives 42 (got $rc)"
	[ "$(splats)" -eq 0 ]
	tap $? "no WARN, BUG, oops or KASAN report on the fuzzing node"
else
	# The remote of node 0's real work; done when node 0 pings.
	wait_until 2700 sh -c ". /tests/lib.sh; [ \$(stat_type ping_request recv) -ge 5 ]"
	tap $? "node 0 finished"
	[ "$(splats)" -eq 0 ]
	tap $? "no WARN, BUG, oops or KASAN report on node 1"
fi
