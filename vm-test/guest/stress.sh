#!/bin/sh
# Longer runs of one process on three nodes (issue 5): programs in the
# style of popcorn-kernel-lib's mt and rw, then threads migrating at
# random while they change shared pages.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
seconds=$(cmdline_param pcn_stress_seconds)
mt_rounds=$(cmdline_param pcn_mt_rounds)
mt_sleep=$(cmdline_param pcn_mt_sleep_ms)

wait_until 60 sh -c "[ \$(popcorn nodes | grep -c '^node [0-9]* online') -eq 3 ]"
tap $? "all three nodes online (after ${WAITED}s)"

if [ "$nid" = 0 ]; then
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
	/bin/test_stress 3 "${seconds:-90}"
	tap $? "test_stress exited 0 ($(($(date +%s) - start))s)"
	grep '^fault ' /proc/popcorn_stat | sed 's/^/# /'
fi
