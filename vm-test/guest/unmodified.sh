#!/bin/sh
# Programs written for popcorn-kernel-lib (issue 15): its API through
# migrate.h, and the system calls a migrated thread makes.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

[ "$nid" = 0 ] || exit 0

/bin/plib_api 1 > /tmp/plib_api.out 2>&1
rc=$?
cat /tmp/plib_api.out
tap $rc "plib_api exited 0"

# A minute; a hang shows where its tasks wait, then ends it.
/bin/plib_sys 1 &
pid=$!
wait_until 60 sh -c "! kill -0 $pid 2>/dev/null"
if kill -0 $pid 2>/dev/null; then
	echo "# plib_sys hangs"
	for t in /proc/$pid/task/*; do
		echo "# task $t $(sed -n 's/^State:\t//p' $t/status)"
		sed 's/^/#   /' $t/stack
	done
	grep -i "syscall\|drop" /proc/popcorn_stat | sed 's/^/# stat /'
	kill -9 $pid
fi
wait $pid
rc=$?
[ $rc -eq 0 ] || dmesg | tail -n 20 | sed 's/^/# /'
tap $rc "plib_sys exited 0 (exit $rc)"
timeout 60 /bin/plib_sys 1 exec > /tmp/plib_exec.out 2>&1
rc=$?
cat /tmp/plib_exec.out
grep -q "^ok - execve() at node 1" /tmp/plib_exec.out
tap $? "execve() at node 1 ran the new program (exit $rc)"
