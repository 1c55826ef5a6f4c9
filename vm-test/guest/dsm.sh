#!/bin/sh
# One process spread over three nodes: node 0 runs the
# multithreaded tests, nodes 1 and 2 host its threads.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
iters=$(cmdline_param pcn_iters)

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"

if [ "$nid" = 0 ]; then
	echo 1 > /proc/popcorn_stat
	# Address-space changes made on one node, seen on the others.
	/bin/test_vma semantics
	tap $? "test_vma semantics exited 0"
	[ "$(stat_type vma_drop sent)" -ge 1 ]
	tap $? "/proc/popcorn_stat counts VMA drops sent to other nodes (vma_drop $(stat_type vma_drop sent))"
	/bin/test_vma fork
	tap $? "test_vma fork exited 0"
	/bin/test_vma batch
	tap $? "test_vma batch exited 0"
	/bin/test_vma drop-race
	tap $? "test_vma drop-race exited 0"
	/bin/test_vma segv-munmap
	rc=$?
	[ $rc -eq 139 ]
	tap $? "a range unmapped at the origin gives SIGSEGV at node 1 (status $rc)"
	/bin/test_vma segv-mprotect
	rc=$?
	[ $rc -eq 139 ]
	tap $? "a range made read-only at node 1 gives SIGSEGV to a write at node 2 (status $rc)"

	# Fresh memory filled at a remote: untouched pages come in runs
	# (page-server.rst), whatever races with them.
	r0=$(stat_type page_request recv)
	g0=$(stat_key fault untouched_given)
	/bin/test_untouched 1 2048
	tap $? "test_untouched exited 0"
	r=$(($(stat_type page_request recv) - r0))
	g=$(($(stat_key fault untouched_given) - g0))
	[ "$g" -ge 1024 ] && [ "$r" -le 512 ]
	tap $? "2048 fresh pages filled at node 1: $r page requests, $g untouched pages given with them"

	# An origin that lies (test hook grant_lie): a write grant names its
	# last untouched page one page further than the page it gave.  Node
	# 1 refuses the grant and maps nothing of it: the thread's fault
	# fails, SIGBUS ends the process, and node 1 logs it (checked there
	# at this node's ping).  The next process is served as usual.
	echo "grant_lie 1" > /sys/kernel/debug/popcorn/fail
	/bin/test_untouched 1 256 > /tmp/lie.out 2>&1
	rc=$?
	[ $rc -eq 135 ] && dmesg | grep -q "test hook: grant_lie fails"
	tap $? "a write grant naming an untouched page not given is refused: the process ends by SIGBUS (status $rc)"
	popcorn ping 1 --count 1 > /dev/null
	/bin/test_untouched 1 256 > /dev/null
	tap $? "then test_untouched at node 1 passes again"

	start=$(date +%s)
	/bin/test_dsm 3 "${iters:-2000}" > /tmp/dsm.out
	tap $? "test_dsm exited 0 ($(($(date +%s) - start))s)"
	cat /tmp/dsm.out
	for n in 0 1 2; do
		eval "hello$n=$(grep -c "says hello from node $n\$" /tmp/dsm.out)"
	done
	[ "$hello0" -eq 3 ] && [ "$hello1" -eq 3 ] && [ "$hello2" -eq 2 ]
	tap $? "printf from threads on nodes 1 and 2 reaches the origin's stdout ($hello0/$hello1/$hello2 lines)"
	grep '^fault ' /proc/popcorn_stat | sed 's/^/# /'
	[ "$(stat_type futex recv)" -ge 1 ] &&
		[ "$(stat_type futex_done sent)" -ge 1 ]
	tap $? "/proc/popcorn_stat counts futex operations run for remote threads (futex $(stat_type futex recv))"
elif [ "$nid" = 1 ]; then
	wait_until 1200 sh -c '. /tests/lib.sh; [ $(stat_type ping_request recv) -ge 1 ]'
	tap $? "node 0 is past its lying grant (${WAITED}s)"
	dmesg | grep -q "popcorn: bad grant for page .* from node 0"
	tap $? "this node refused the lying grant and logged it"
fi
