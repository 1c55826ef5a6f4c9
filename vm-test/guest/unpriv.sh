#!/bin/sh
# Credentials at the remote (issue 11): node 0 is the origin, node 1 the
# remote.  test_creds checks ids, groups, rlimits, a privileged call and
# the refusal of a seccomp-filtered process from the migrated thread's
# side; test_int80 the 32-bit system-call entry; then an unprivileged
# user's process stays at node 1 while node 1 looks at its worker and
# thread in /proc.
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

	as_user /bin/test_migrate spin 1 > /tmp/spin.out &
	spinner=$!
	wait_until 30 grep -q '^# pid' /tmp/spin.out
	tap $? "uid 1000 process started and migrates to node 1"
	sleep 1
	# Tell node 1 to look, and wait until it has.
	popcorn ping 1 --count 1 >/dev/null
	wait_until 60 pinged 2
	tap $? "node 1 has looked at the thread"
	kill -9 $spinner
	wait $spinner
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
	popcorn ping 0 --count 1 >/dev/null
}

node$nid
