#!/bin/bash
# The QEMU test suite: boots the scenarios below, numbers and counts the
# TAP lines every guest reports, and ends with "N passed, N failed".
# Usage: suite.sh BZIMAGE INITRD
# Environment: TRANSPORTS (default "tcp"), VMDIR, NODE_TIMEOUT, DSM_TIMEOUT,
# MIGRATE_ROUNDS, MIGRATE_BIG_MIB, DSM_ITERS, STRESS_SECONDS, MT_ROUNDS, MT_SLEEP_MS,
# KILL_ROUNDS, KILL_SEED,
# FUZZ_COUNT, FUZZ_SEED, FUZZ_TIMEOUT, FUZZ_WAIT,
# SCENARIOS (names of the scenarios to run; default all).
set -uo pipefail

NODE_TIMEOUT=${NODE_TIMEOUT:-180}
# The guest tests' binaries, for gdb on the cores guests send.
TOOLS_DIR=${TOOLS_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build/tools}
. "$(dirname "$0")/cluster.sh" "$@"

passed=0 failed=0 skipped=0 num=0
mkdir -p "$VMDIR"
SPLATS_TOTAL=0


# report NAME N: count the results of every node of scenario NAME.
report() {
	local name=$1 n=$2 i line dir=$VMDIR/$1 bad desc
	for ((i = 0; i < n; i++)); do
		bad=0
		while IFS= read -r line; do
			line=${line%$'\r'}
			case "$line" in
			"ok - "*" # SKIP"*)
				num=$((num + 1)); skipped=$((skipped + 1))
				echo "ok $num - $name/node$i: ${line#ok - }" ;;
			"ok - "*)
				num=$((num + 1)); passed=$((passed + 1))
				echo "ok $num - $name/node$i: ${line#ok - }" ;;
			"not ok - "*)
				num=$((num + 1)); failed=$((failed + 1)); bad=1
				echo "not ok $num - $name/node$i: ${line#not ok - }" ;;
			"# view: "* | "# transport: "* | "# log: "* | \
			"# neigh: "* | "# link: "* | "# arping "* | "# gdb: "*)
				# A guest's diagnosis of a failed check.
				echo "  $line" ;;
			esac
		done < "$dir/node$i.results"
		num=$((num + 1))
		if grep -q '^# done' "$dir/node$i.results" && [ ! -e "$dir/node$i.results.host" ]; then
			passed=$((passed + 1))
			echo "ok $num - $name/node$i: guest ran its tests to the end"
		else
			failed=$((failed + 1)); bad=1
			echo "not ok $num - $name/node$i: guest ran its tests to the end"
			[ -e "$dir/node$i.results.host" ] && sed 's/^/  /' "$dir/node$i.results.host"
		fi
		num=$((num + 1))
		splats=$(grep -cE "$SPLAT_RE" "$dir/node$i.console")
		if [ "$splats" -eq 0 ]; then
			passed=$((passed + 1))
			echo "ok $num - $name/node$i: no panic, BUG, WARNING, oops, lockdep or KASAN report in the kernel log"
		else
			failed=$((failed + 1)); bad=1
			echo "not ok $num - $name/node$i: no panic, BUG, WARNING, oops, lockdep or KASAN report in the kernel log ($splats report lines)"
			grep -E "$SPLAT_RE" "$dir/node$i.console" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/  /'
			SPLATS_TOTAL=$((SPLATS_TOTAL + splats))
		fi
		if [ $bad -ne 0 ]; then
			echo "  --- tail of $dir/node$i.console ---"
			tail -n 40 "$dir/node$i.console" | sed 's/^/  | /'
			if [ -s "$dir/node$i.qemu.log" ]; then
				echo "  --- $dir/node$i.qemu.log ---"
				tail -n 10 "$dir/node$i.qemu.log" | sed 's/^/  | /'
			fi
		fi
	done
}

# core_checks NAME N: a guest that printed a core between "# core-b64
# PROG MODE" and "# core-end" (gzip, base64) gets it read by the host's
# gdb against the same binary (TOOLS_DIR/PROG, built with -g): the
# backtrace of the thread that died must name the functions it died in,
# as test_core calls them, and the threads away the functions they ran.
# TAP lines go to the guest's results.
core_checks() {
	local dir=$VMDIR/$1 n=$2 i k prog mode core bt want f ok
	for ((i = 0; i < n; i++)); do
		k=0
		while read -r prog mode; do
			k=$((k + 1))
			core=$dir/node$i.core$k
			tr -d '\r' < "$dir/node$i.results" |
				awk -v k=$k '/^# core-b64 /{n++; on=(n==k); next}
					/^# core-end/{on=0} on' |
				base64 -d 2>/dev/null | gunzip > "$core" 2>/dev/null
			gdb -batch -nx -ex 'thread apply all bt' \
				"$TOOLS_DIR/$prog" "$core" > "$core.gdb" 2>&1
			want="crash_here level2 level1 child spin_away block_away"
			[ "$mode" = abort ] && want="abort $want"
			ok=1
			for f in $want; do
				grep -q "in $f \|^#0  $f " "$core.gdb" || ok=0
			done
			if [ $ok -eq 1 ]; then
				echo "ok - gdb (host) on the $mode core: the threads' backtraces have $want" >> "$dir/node$i.results"
			else
				echo "not ok - gdb (host) on the $mode core: the threads' backtraces have $want" >> "$dir/node$i.results"
				sed 's/^/# gdb: /' "$core.gdb" | head -n 40 >> "$dir/node$i.results"
			fi
		done < <(tr -d '\r' < "$dir/node$i.results" | sed -n 's/^# core-b64 //p')
	done
}

run_scenario() {	# run_scenario NAME N CMDLINE_FN [shuffle]
	# SCENARIOS="a b": run only the scenarios named (for development).
	[ -n "${SCENARIOS:-}" ] && [[ " $SCENARIOS " != *" $1 "* ]] && return
	local t=$SECONDS
	echo "# scenario $1: $2 node(s)"
	cluster_boot "$1" "$2" "$NODE_TIMEOUT" "$3" "${4:-}"
	cat "$VMDIR/$1/boot-order" "$VMDIR/$1/events" 2>/dev/null
	core_checks "$1" "$2"
	report "$1" "$2"
	echo "# scenario $1: $((SECONDS - t)) s"
}

# --- scenarios --------------------------------------------------------

for transport in ${TRANSPORTS:-tcp}; do
	export PCN_TRANSPORT=$transport

	# Three nodes booted in a random order: membership, ping, stats,
	# hostile input, node loss.  Node 2 gets no pcn.nid=: it must find
	# its id from the address that ip= gave it (not on shm, where the
	# slot numbers of pcn.nodes= are no address a node can recognise).
	nodes3() {
		local nid="pcn.nid=$1"
		[ "$1" -eq 2 ] && [ "$PCN_TRANSPORT" != shm ] && nid=
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) $nid" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=messaging" \
		     "pcn_expect_nid=$1"
	}
	run_scenario "$transport-3nodes" 3 nodes3 shuffle

	# Peer authentication: nodes 0 and 1 share the cluster key, node 2
	# has another one; an unprivileged user of node 1 poses as node 1.
	auth_key() {	# auth_key I: the key file of node I
		local other=$VMDIR/$PCN_TRANSPORT-auth/psk-other

		if [ "$1" -eq 2 ]; then
			[ -f "$other" ] || (umask 077 && head -c 32 /dev/urandom > "$other")
			echo "$other"
		else
			echo "$VMDIR/$PCN_TRANSPORT-auth/psk"
		fi
	}
	auth3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=auth pcn_case=$AUTH_CASE" \
		     "pcn_rounds=$((${MIGRATE_ROUNDS:-500} / 2)) pcn_big_mib=${MIGRATE_BIG_MIB:-16}"
	}
	AUTH_CASE=key PCN_KEY_FN=auth_key run_scenario "$transport-auth" 3 auth3
	# No keys: nodes 0 and 1 with the default pcn.auth, node 2 requires.
	no_key() {
		echo none
	}
	auth3_nokey() {
		echo "$(auth3 "$1")$([ "$1" -eq 2 ] && echo " pcn.auth=required")"
	}
	AUTH_CASE=nokey PCN_KEY_FN=no_key PCN_AUTH= \
		run_scenario "$transport-auth-nokey" 3 auth3_nokey

	# Credentials: a migrated thread's ids, groups, capabilities and
	# rlimits at the remote.
	unpriv2() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=unpriv"
	}
	run_scenario "$transport-unpriv" 2 unpriv2

	# Lost messages: a TASK_EXIT, signal or PROCESS_EXIT that cannot be
	# sent ends the connection; nothing hangs, no worker is left.
	lost2() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=lost"
	}
	run_scenario "$transport-lost" 2 lost2

	# Fuzzing: FUZZ_COUNT (20000) random and mutated messages from an
	# authenticated peer; FUZZ_SEED (random, printed) reproduces a run.
	fuzz_seed=${FUZZ_SEED:-$((RANDOM * 32768 + RANDOM))}
	fuzz3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=fuzz" \
		     "pcn_fuzz_count=${FUZZ_COUNT:-20000} pcn_fuzz_seed=$fuzz_seed" \
		     "pcn_fuzz_wait=${FUZZ_WAIT:-2400}"
	}
	echo "# fuzz seed $fuzz_seed (FUZZ_SEED=$fuzz_seed reproduces it)"
	NODE_TIMEOUT=${FUZZ_TIMEOUT:-1800} run_scenario "$transport-fuzz" 3 fuzz3

	# Process server bounds: a worker share per origin, a worker's
	# queue of migrations.  Node 0 hosts 4 workers at most.
	limits3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=limits" \
		     "$([ "$1" -eq 0 ] && echo pcn.max_workers=4)"
	}
	run_scenario "$transport-limits" 3 limits3

	# Process server: remote worker lifetime.
	worker2() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=worker"
	}
	run_scenario "$transport-worker" 2 worker2

	# Thread migration: there and back, pages, VMAs, exit, SIGKILL.
	migrate3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=migrate" \
		     "pcn_rounds=${MIGRATE_ROUNDS:-500} pcn_big_mib=${MIGRATE_BIG_MIB:-16}"
	}
	run_scenario "$transport-migrate" 3 migrate3

	# Programs written for popcorn-kernel-lib: its API, and the system
	# calls of a migrated thread.
	unmodified2() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=unmodified"
	}
	run_scenario "$transport-unmodified" 2 unmodified2

	# Unmodified multithreaded Debian programs (xz, zstd, pigz,
	# sysbench) spread over 2 and 3 nodes by popcorn run: the same
	# output as on one node; the placement policy itself.
	apps3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=apps"
	}
	NODE_TIMEOUT=${APPS_TIMEOUT:-900} run_scenario "$transport-apps" 3 apps3

	# One multithreaded process on three nodes at once.
	dsm3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=dsm" \
		     "pcn_iters=${DSM_ITERS:-500}"
	}
	# Several minutes of cross-node contention: a longer time limit.
	NODE_TIMEOUT=${DSM_TIMEOUT:-900} run_scenario "$transport-dsm" 3 dsm3

	# popcorn-kernel-lib style mt and rw programs, random migration
	# under load for STRESS_SECONDS (15 by default), then KILL_ROUNDS
	# (70) random kills of a process on the three nodes (KILL_SEED
	# reproduces a run: the guest prints its seed).
	stress3() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 3) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=stress" \
		     "pcn_stress_seconds=${STRESS_SECONDS:-15}" \
		     "pcn_mt_rounds=${MT_ROUNDS:-100} pcn_mt_sleep_ms=${MT_SLEEP_MS:-100}" \
		     "pcn_kill_rounds=${KILL_ROUNDS:-70}${KILL_SEED:+ pcn_kill_seed=$KILL_SEED}"
	}
	NODE_TIMEOUT=$((${STRESS_SECONDS:-15} + ${DSM_TIMEOUT:-900})) \
		run_scenario "$transport-stress" 3 stress3

	# A short make bench: every figure comes and is sane (few samples;
	# the figures themselves are make bench's business).
	bench2() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=bench" \
		     "pcn_bench_samples=20 pcn_bench_pages=32 pcn_bench_seq_mib=1" \
		     "pcn_bench_rounds=2 pcn_bench_big_mib=8"
	}
	run_scenario "$transport-bench" 2 bench2

	# The largest cluster the harness is meant for: 8 nodes.
	mesh8() {
		echo "$(base_cmdline "$1") pcn.nodes=$(node_list 8) pcn.nid=$1" \
		     "pcn.transport=$PCN_TRANSPORT pcn_test=mesh"
	}
	# One vCPU each, boots 3 s apart: eight TCG guests booting at
	# once on a 2-core host starve some of them for minutes.
	VM_SMP=1 BOOT_STAGGER=3 run_scenario "$transport-8nodes" 8 mesh8 shuffle

	# Shared memory only: a damaged layout header or ring, written into
	# the segment through the host file.
	if [ "$transport" = shm ]; then
		segment2() {
			echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
			     "pcn.transport=shm pcn_test=segment"
		}
		run_scenario shm-segment 2 segment2
	fi
done
# The refused configurations below run on the default transport, tcp,
# with IPv4 addresses in pcn.nodes.
export PCN_TRANSPORT=tcp

# Refused configurations: the kernel boots with Popcorn disabled.
bogus_transport() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
	     "pcn.transport=TCP pcn_test=nodeinfo pcn_case=bogus_transport"
}
run_scenario bogus-transport 1 bogus_transport

bad_nodes() {
	echo "$(base_cmdline "$1") pcn.nodes=10.77.0.1,10.77.0.x pcn.nid=$1" \
	     "pcn_test=nodeinfo pcn_case=bad_nodes"
}
run_scenario bad-nodes 1 bad_nodes

bad_nid() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=7" \
	     "pcn_test=nodeinfo pcn_case=bad_nid"
}
run_scenario bad-nid 1 bad_nid

# A valid transport name whose driver is not built in: refused.
absent_transport() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
	     "pcn.transport=loop pcn_test=nodeinfo pcn_case=absent_transport"
}
run_scenario absent-transport 1 absent_transport

# The layering of Documentation/popcorn/messaging.rst, checked in the
# sources (no guest): scripts/check-layering.sh.
if [ -z "${SCENARIOS:-}" ] || [[ " $SCENARIOS " == *" layering "* ]]; then
	echo "# scenario layering: core, membership and transports, in the sources"
	while read -r status desc; do
		if [ "$status" = "#" ]; then
			echo "#   $desc"
			continue
		fi
		num=$((num + 1))
		if [ "$status" = 0 ]; then
			passed=$((passed + 1)); echo "ok $num - layering: $desc"
		else
			failed=$((failed + 1)); echo "not ok $num - layering: $desc"
		fi
	done < <("$(dirname "$0")/../scripts/check-layering.sh" "$(dirname "$0")/.." ||
		 echo "1 check-layering.sh ran")
fi

# Harness self-test: a guest that never powers off is killed after the
# timeout, reported, and leaves no QEMU or switch process behind.
host_check() {	# host_check STATUS DESCRIPTION
	num=$((num + 1))
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1)); echo "ok $num - harness: $2"
	else
		failed=$((failed + 1)); echo "not ok $num - harness: $2"
	fi
}
hang() {
	echo "$(base_cmdline "$1") pcn_test=hang"
}
if [ -z "${SCENARIOS:-}" ] || [[ " $SCENARIOS " == *" harness-timeout "* ]]; then
	echo "# scenario harness-timeout: 1 node that hangs, 15 s timeout"
	start=$SECONDS
	# With a shared-memory file when shm is tested: it must go too.
	shm_tested=
	[[ " ${TRANSPORTS:-tcp} " == *" shm "* ]] && shm_tested=1
	PCN_TRANSPORT=${shm_tested:+shm} cluster_boot harness-timeout 1 15 hang
	host_check $([ $? -ne 0 ]; echo $?) "cluster_boot reports a guest that did not finish"
	host_check $([ $((SECONDS - start)) -lt 40 ]; echo $?) "hung guest killed at the timeout ($((SECONDS - start)) s)"
	grep -q "killed" "$VMDIR/harness-timeout/node0.results.host" 2>/dev/null
	host_check $? "the kill is recorded for the report"
	host_check $(! pgrep -f "$VMDIR/harness-timeout/" >/dev/null; echo $?) "no QEMU or vde_switch process left"
	host_check $(! ip netns list 2>/dev/null | grep -q "^pcn-$$-"; echo $?) \
		"no network namespace of this run left"
	if [ -n "$shm_tested" ]; then
		grep -q "pcn_shm .*shared segment of" "$VMDIR/harness-timeout/node0.console"
		host_check $? "the guest had the cluster's shared-memory device"
		host_check $(! ls -d /dev/shm/pcn-shm-$$-* >/dev/null 2>&1; echo $?) \
			"no shared-memory file of this run left"
	fi
fi

[ "$SPLATS_TOTAL" -gt 0 ] && echo "# kernel report lines in all consoles: $SPLATS_TOTAL"
# For scripts/check.sh, which adds up make test and make test-debug.
echo "$passed $failed $skipped" > "$VMDIR/summary"
if [ $skipped -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
