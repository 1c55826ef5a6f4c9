#!/bin/sh
# Programs written for popcorn-kernel-lib: its API through
# migrate.h, and the system calls a migrated thread makes.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

if [ "$nid" != 0 ]; then
	# plib_intr (plib_sys NID intr): its thread here waits for a read()
	# made at the origin (state S, a thread of the worker): a signal
	# sent here must end that read.
	found=
	for i in $(seq 1 240); do
		for t in /proc/[0-9]*/task/[0-9]*; do
			[ "$(cat $t/comm 2>/dev/null)" = plib_intr ] || continue
			tid=${t##*/}
			pid=${t#/proc/}
			pid=${pid%%/*}
			[ "$tid" != "$pid" ] || continue
			grep -q "^State:.*S" $t/status 2>/dev/null || continue
			sleep 1
			grep -q "^State:.*S" $t/status 2>/dev/null || continue
			found=$tid
			break 2
		done
		sleep 0.5
	done
	[ -n "$found" ] && kill -USR1 "$found"
	tap $? "signalled the plib_intr thread $found that waits here"
	exit 0
fi

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

# A program that never calls Popcorn, moved from a shell and back.
rm -f /tmp/plain_loop.stop
/bin/plain_loop > /tmp/loop.out 2> /tmp/loop.err &
lp=$!
sleep 1
out=$(as_user popcorn migrate $lp 1 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "Operation not permitted"
tap $? "uid 1000 may not move root's thread $lp: $out"
out=$(popcorn migrate 999999 1 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "No such process"
tap $? "no thread 999999: $out"
sent=$(stat_type task_migrate sent)
popcorn migrate $lp 1
tap $? "popcorn migrate $lp 1"
wait_until 30 sh -c ". /tests/lib.sh; [ \$(stat_type task_migrate sent) -gt $sent ]"
tap $? "plain_loop left for node 1 by itself (${WAITED}s)"
sleep 2
state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$lp/status)
[ "$state" = S ]
tap $? "its thread here sleeps while it computes at node 1 (state $state)"
back=$(stat_type task_back recv)
popcorn migrate $lp 0
tap $? "popcorn migrate $lp 0"
wait_until 30 sh -c ". /tests/lib.sh; [ \$(stat_type task_back recv) -gt $back ]"
tap $? "plain_loop came back by itself (${WAITED}s)"
touch /tmp/plain_loop.stop
wait $lp
rc=$?
rounds=$(awk '{ print $2 }' /tmp/loop.out)
/bin/plain_loop "$rounds" > /tmp/loop.ref
[ $rc -eq 0 ] && [ -n "$rounds" ] && cmp -s /tmp/loop.out /tmp/loop.ref
tap $? "its output is that of a run that stayed here: $(cat /tmp/loop.out) / $(cat /tmp/loop.ref)"
sed 's/^/# /' /tmp/loop.err
rm -f /tmp/plain_loop.stop

# The whole CPU state: AVX registers, GS base, the register set.
/bin/test_xstate 1
tap $? "test_xstate exited 0"

# Identity changes at a remote: made at the origin, the ids follow.
/bin/plib_sys 1 setuid
tap $? "plib_sys 1 setuid exited 0"
rm -f /tmp/plib_sys_root.*
# A signal the thread blocks does not end a call made for it.
timeout 60 /bin/plib_sys 1 mask
tap $? "plib_sys 1 mask exited 0"
# Credentials a remote cannot take bring the thread home.
/bin/plib_sys 1 groups
tap $? "plib_sys 1 groups exited 0"
dmesg | grep -q "not migrated: it has too many supplementary groups"
tap $? "the refused credentials are logged"

# A signal sent at node 1 ends a read() the origin makes for the thread.
cp /bin/plib_sys /tmp/plib_intr
timeout 150 /tmp/plib_intr 1 intr
tap $? "plib_sys 1 intr exited 0"

# An unmodified busybox shell: its loop (a stat() each round, made at
# the origin while it is away) is moved to node 1 and back, then it
# computes a checksum that must equal a run that stayed here.
bb_script='while [ ! -e /tmp/bb.stop ]; do n=$((n + 1)); done
j=0; k=7; while [ $j -lt 3000 ]; do k=$(( (k * 31 + j) % 1000003 )); j=$((j + 1)); done
echo "checksum $k"'
rm -f /tmp/bb.stop
busybox sh -c "$bb_script" > /tmp/bb.out &
bp=$!
sleep 1
sent=$(stat_type task_migrate sent)
popcorn migrate $bp 1 > /dev/null
wait_until 30 sh -c ". /tests/lib.sh; [ \$(stat_type task_migrate sent) -gt $sent ]"
tap $? "busybox sh $bp moved to node 1 by popcorn migrate (${WAITED}s)"
sleep 1
back=$(stat_type task_back recv)
popcorn migrate $bp 0 > /dev/null
wait_until 30 sh -c ". /tests/lib.sh; [ \$(stat_type task_back recv) -gt $back ]"
tap $? "busybox sh $bp came back (${WAITED}s)"
touch /tmp/bb.stop
wait $bp
busybox sh -c "$bb_script" > /tmp/bb.ref
[ -s /tmp/bb.out ] && cmp -s /tmp/bb.out /tmp/bb.ref
tap $? "busybox sh output as if it had stayed: $(cat /tmp/bb.out) / $(cat /tmp/bb.ref)"
rm -f /tmp/bb.stop
