#!/bin/sh
# Longer runs of one process on three nodes: programs in the
# style of popcorn-kernel-lib's mt and rw, then threads migrating at
# random while they change shared pages; then random kills of a process
# spread over the three nodes (test_kill).
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
seconds=$(cmdline_param pcn_stress_seconds)
mt_rounds=$(cmdline_param pcn_mt_rounds)
mt_sleep=$(cmdline_param pcn_mt_sleep_ms)
kill_rounds=$(cmdline_param_or pcn_kill_rounds 70)

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"

# Every node compacts its memory every second while the programs run,
# so pages of the process are migrated under the page protocol's feet.
migrated() { awk '$1 == "pgmigrate_success" { print $2 }' /proc/vmstat; }
compact_for() {	# compact_for SECONDS
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ] && [ ! -e /tmp/stop-compaction ]; do
		echo 1 > /proc/sys/vm/compact_memory
		sleep 1
	done
}
before=$(migrated)

if [ "$nid" = 0 ]; then
	compact_for 100000 &
	compactor=$!
	start=$(date +%s)
	/bin/plib_mt 32 "${mt_rounds:-100}" "${mt_sleep:-100}" > /tmp/mt.out
	rc=$?
	grep '^ok\|^not ok' /tmp/mt.out
	tap $rc "plib_mt exited 0 ($(($(date +%s) - start))s)"

	start=$(date +%s)
	/bin/plib_rw 6 4 10 2 > /tmp/rw.out
	rc=$?
	grep '^ok\|^not ok' /tmp/rw.out
	tap $rc "plib_rw exited 0 ($(($(date +%s) - start))s)"

	start=$(date +%s)
	/bin/test_stress 3 "${seconds:-35}"
	tap $? "test_stress exited 0 ($(($(date +%s) - start))s)"
	touch /tmp/stop-compaction
	wait $compactor
	grep '^fault ' /proc/popcorn_stat | sed 's/^/# /'

	start=$(date +%s)
	seed=$(cmdline_param_or pcn_kill_seed $RANDOM)
	/bin/test_kill "$kill_rounds" "$seed"
	tap $? "test_kill exited 0 ($(($(date +%s) - start))s, seed $seed)"
else
	# test_kill --serve stops the compaction when node 0 is done with
	# the other programs and starts its kills.
	{ compact_for 100000; touch /tmp/compaction-stopped; } &
	compactor=$!
	/bin/test_kill --serve "$kill_rounds" > /tmp/kill.out 2>&1
	rc=$?
	touch /tmp/stop-compaction
	wait $compactor
	cat /tmp/kill.out
	tap $rc "test_kill --serve exited 0"
fi
n=$(($(migrated) - before))
if [ "$n" -gt 0 ]; then
	tap 0 "compaction migrated $n pages on this node during the tests"
else
	echo "ok - compaction migrated no page on this node # SKIP nothing to move"
fi
