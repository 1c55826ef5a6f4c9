#!/bin/sh
# Credentials at the remote: node 0 is the origin, node 1 the
# remote.  test_creds checks ids, groups, rlimits, a privileged call and
# the refusal of a seccomp-filtered process from the migrated thread's
# side; test_int80 the 32-bit system-call entry; then an unprivileged
# user's process stays at node 1 while node 1 looks at its worker and
# thread in /proc, and floods its shadow with requests.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
workers=/sys/kernel/debug/popcorn/workers

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

pinged() {	# pinged N: N pings reached this node
	[ "$(stat_type ping_request recv)" -ge "$1" ]
}

# The files test_migrate mapfile maps at node 0, as node 1 has them.
vma_files() {
	echo "popcorn vma file" > /tmp/vma_ok
	chmod 644 /tmp/vma_ok
	if [ "$nid" = 0 ]; then
		echo "readable at node 0" > /tmp/vma_secret
		chmod 644 /tmp/vma_secret
		echo "a regular file at node 0" > /tmp/vma_fifo
		chmod 644 /tmp/vma_fifo
	else
		echo "root only at node 1" > /tmp/vma_secret
		chmod 600 /tmp/vma_secret
		mkfifo -m 666 /tmp/vma_fifo
	fi
}
vma_files

node0() {
	/bin/test_creds 1
	tap $? "test_creds exited 0"
	# As the unprivileged user: the 32-bit entry is filtered too.
	as_user /bin/test_int80 1
	tap $? "test_int80 (as uid 1000) exited 0"

	# write() at node 1 is write(2) at the origin.
	as_user /bin/test_migrate writes 1
	tap $? "test_migrate writes (as uid 1000) exited 0"

	# VMA files at node 1 are opened as the thread, regular files only.
	wait_until 60 pinged 1
	tap $? "node 1 made its files"
	as_user /bin/test_migrate mapfile 1 /tmp/vma_ok
	tap $? "a file uid 1000 may read at node 1 is mapped there (its data is the origin's)"
	as_user /bin/test_migrate mapfile 1 /tmp/vma_secret
	rc=$?
	[ $rc -eq 139 ]
	tap $? "a file that is root-only at node 1 is not mapped there for uid 1000: SIGSEGV (status $rc)"
	as_user /bin/test_migrate mapfile 1 /tmp/vma_fifo
	rc=$?
	[ $rc -eq 139 ]
	tap $? "a FIFO at the file's path at node 1 is not opened: SIGSEGV (status $rc)"

	# The process's descriptor 3 is a full pipe nobody reads: a write
	# to it blocks its shadow, so node 1's flood of requests for that
	# shadow piles up here.
	mkfifo -m 666 /tmp/fullpipe
	(
		exec 3<>/tmp/fullpipe
		head -c 65536 /dev/zero >&3
		exec su -s /bin/sh -c 'exec "$0" "$@"' pcn -- /bin/test_migrate spin 1
	) > /tmp/spin.out &
	spinner=$!
	wait_until 30 grep -q '^# pid' /tmp/spin.out
	tap $? "uid 1000 process started and migrates to node 1"
	sleep 1
	backlog=$(stat_key dropped backlog_full)
	# Tell node 1 to look and to flood, and wait until it has.
	popcorn ping 1 --count 1 >/dev/null
	wait_until 60 pinged 2
	tap $? "node 1 has looked at the thread and flooded its shadow"
	refused=$(($(stat_key dropped backlog_full) - backlog))
	[ "$refused" -ge 30 ]
	tap $? "40 requests for a busy shadow: 8 queued, the rest refused and counted ($refused)"
	dmesg | grep -q "popcorn: node 1 floods the shadow of thread"
	tap $? "kernel log: node 1 floods the shadow"
	kill -9 $spinner
	wait $spinner
	rc=$?
	[ $rc -eq 137 ]
	tap $? "the process with a blocked, flooded shadow is killed (status $rc)"
	popcorn ping 1 --size 4096 --count 10 >/dev/null
	tap $? "node 0 still serves node 1"
}

# Every task of the workers here: uid and gid 1000, no capabilities.
check_tasks() {
	local n=0 bad=0 pid t s
	for pid in $(awk '{ print $3 }' $workers); do
		for t in /proc/$pid/task/*; do
			s=$t/status
			n=$((n + 1))
			grep -q "^Uid:[[:space:]]*1000[[:space:]]*1000[[:space:]]*1000[[:space:]]*1000$" $s &&
				grep -q "^Gid:[[:space:]]*1000[[:space:]]*1000[[:space:]]*1000[[:space:]]*1000$" $s &&
				grep -q "^CapEff:[[:space:]]*0000000000000000$" $s &&
				grep -q "^CapPrm:[[:space:]]*0000000000000000$" $s || {
				bad=1
				grep -E '^(Name|Uid|Gid|Groups|CapPrm|CapEff):' $s | tr '\n' ' ' | sed 's/^/# /'
				echo
			}
		done
	done
	echo "$n tasks"
	[ $n -ge 2 ] && [ $bad -eq 0 ]
}

node1() {
	# Our files are made: tell node 0.
	popcorn ping 0 --count 1 >/dev/null
	wait_until 120 pinged 1
	tap $? "node 0 says its uid 1000 thread is here"
	out=$(check_tasks)
	tap $? "remote worker and migrated thread run as uid 1000, gid 1000, no capabilities (${out##*
})"
	echo "$out" | grep '^#'
	# A hostile remote: one write to the full pipe blocks the shadow,
	# then 40 more requests for it.
	set -- $(awk '$1 == 0 { print $2, $4 }' $workers)
	/bin/pcn_flood 0 "$2" "$1" 3 1 >/dev/null && sleep 1 &&
		/bin/pcn_flood 0 "$2" "$1" 3 40
	tap $? "sent node 0 one blocking write and 40 more requests for the shadow of process $1"
	popcorn ping 0 --count 1 >/dev/null
}

node$nid
