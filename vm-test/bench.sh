#!/bin/bash
# make bench: boot two nodes once per transport, run the benchmark
# programs in the guests (guest/bench.sh), and print one table per
# transport with the ratios that matter, measured side by side in the
# same boot.  Writes $OUT/results.csv and $OUT/chart.png.
# Then the cost when unused: one guest on BZIMAGE and one on
# NOPCN_BZIMAGE (the same kernel built without CONFIG_POPCORN) booted in
# turn, BENCH_UNUSED_BOOTS times each, run bench_unused; the ratio of
# the medians of their p50s is printed with the noise (the spread of one
# kernel's p50s from boot to boot).
# Usage: bench.sh BZIMAGE INITRD OUT [NOPCN_BZIMAGE]
# Environment: TRANSPORTS (default "tcp"), BENCH_SAMPLES (round trips
# per size, 200), BENCH_PAGES (pages per fault figure, 512),
# BENCH_SEQ_MIB (16), BENCH_ROUNDS (5), BENCH_BIG_MIB (64),
# BENCH_UNUSED_BOOTS (3), BENCH_UNUSED_SAMPLES (31), BENCH_UNUSED_ICOUNT (1),
# BENCH_SCALE_REPS (3), BENCH_SCALE_KIB (8192), BENCH_SCALE_EVENTS (2000),
# BENCH_SCALE_SPIN (bench_spin's iterations), BENCH_SCALE_PROGS (the
# scale-out programs, comma-separated: spin,xz,zstd,pigz,7z,7zb,
# sysbench_cpu,sysbench_threads and bench_share's patterns share_private,
# share_readmostly, share_prodcons, share_false, share_lock,
# share_barrier, the default), BENCH_SHARE_ITERS (2000) and
# BENCH_SHARE_WORK (50000): bench_share's shared accesses per thread
# and the computation between two, BENCH_SCALE_NODES (3: the scale-out
# boot has three nodes and runs each program over 0-2 too; 2: not),
# BENCH_SCALE_TRACE (1: adaptive placement's verdicts in the results),
# BENCH_PARTS (which parts run: "fault scale idle unused", the default).
set -uo pipefail

OUT=${3:?usage: bench.sh BZIMAGE INITRD OUT [NOPCN_BZIMAGE]}
NOPCN_BZIMAGE=${4:-}
. "$(dirname "$0")/cluster.sh" "$1" "$2"
PCN_BZIMAGE=$BZIMAGE
mkdir -p "$OUT"
csv=$OUT/results.csv
echo "transport,figure,unit,count,mean,p50,p99" > "$csv"

bench_cmdline() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
	     "pcn.transport=$PCN_TRANSPORT pcn_test=bench" \
	     "pcn_bench_samples=${BENCH_SAMPLES:-200}" \
	     "pcn_bench_pages=${BENCH_PAGES:-512}" \
	     "pcn_bench_seq_mib=${BENCH_SEQ_MIB:-16}" \
	     "pcn_bench_rounds=${BENCH_ROUNDS:-5}" \
	     "pcn_bench_big_mib=${BENCH_BIG_MIB:-64}" $BENCH_EXTRA
}

# fig T NAME FIELD: a figure's p50 (or FIELD: mean, p99, count).
fig() {
	awk -F, -v t="$1" -v n="$2" -v f="${3:-p50}" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == t && $2 == n { print $col[f]; exit }' "$csv"
}

ratio() {	# ratio A B: A / B with two decimals, or "-"
	awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "-" }'
}

# part NAME: whether BENCH_PARTS asks for this part.
part() {
	[[ " ${BENCH_PARTS:-fault scale idle unused} " == *" $1 "* ]]
}

rc=0
for transport in ${TRANSPORTS:-tcp}; do
	part fault || continue
	# rdma-copy: rdma with the grants' pages sent, not written.
	BENCH_EXTRA=
	case $transport in
	*-copy) BENCH_EXTRA="pcn_rdma.place=0" ;;
	esac
	export PCN_TRANSPORT=${transport%-copy}
	name=bench-$transport
	echo "# bench: $transport: booting 2 nodes (TCG); the guests report as they go"
	VM_MEM=${VM_MEM:-512M} cluster_boot "$name" 2 "${BENCH_TIMEOUT:-3000}" bench_cmdline &
	boot=$!
	# Progress: the figures as node 0 prints them.
	seen=0
	while kill -0 $boot 2>/dev/null; do
		sleep 10
		n=$(grep -c '^# bench ' "$VMDIR/$name/node0.results" 2>/dev/null)
		if [ "${n:-0}" -gt "$seen" ]; then
			grep '^# bench ' "$VMDIR/$name/node0.results" | sed -n "$((seen + 1)),\$p" |
				awk '{ printf "#   %-28s p50 %s %s (%s samples)\n", $3, $7, $4, $5 }'
			seen=$n
		fi
	done
	wait $boot || rc=1
	if grep -q '^not ok' "$VMDIR/$name/node"*.results || ! grep -q '^# done' "$VMDIR/$name/node0.results"; then
		echo "# bench: $transport: a guest check failed:"
		grep -h '^not ok' "$VMDIR/$name/node"*.results | sed 's/^/#   /'
		tail -n 30 "$VMDIR/$name/node0.console" | sed 's/^/  | /'
		rc=1
	fi
	clock=$(grep -h 'clocksource' "$VMDIR/$name/node0.results" | head -n 1)
	grep '^# bench [a-z]' "$VMDIR/$name/node0.results" | tr -d '\r' |
		awk -v t="$transport" '{ printf "%s,%s,%s,%s,%s,%s,%s\n", t, $3, $4, $5, $6, $7, $8 }' >> "$csv"

	echo
	echo "== $transport (2 nodes, one boot; ${clock#ok - }) =="
	printf "%-28s %6s %12s %12s %12s  %s\n" figure count mean p50 p99 unit
	awk -F, -v t="$transport" '$1 == t {
		printf "%-28s %6s %12s %12s %12s  %s\n", $2, $4, $5, $6, $7, $3 }' "$csv"
	echo "ratios (p50 / p50, same boot):"
	for s in 64 4096 65536; do
		printf "  popcorn ping / TCP ping-pong, %5s B      %s\n" $s \
			"$(ratio "$(fig "$transport" popcorn_rtt_$s)" "$(fig "$transport" tcp_rtt_$s)")"
	done
	printf "  remote read fault / 4 KiB TCP round trip   %s\n" \
		"$(ratio "$(fig "$transport" fault_remote_read)" "$(fig "$transport" tcp_rtt_4096)")"
	printf "  remote write fault / 4 KiB TCP round trip  %s\n" \
		"$(ratio "$(fig "$transport" fault_remote_write)" "$(fig "$transport" tcp_rtt_4096)")"
	printf "  remote read fault / local fault            %s\n" \
		"$(ratio "$(fig "$transport" fault_remote_read)" "$(fig "$transport" fault_local)")"
	printf "  sequential remote read, prefetch on / off  %s\n" \
		"$(ratio "$(fig "$transport" seq_read_remote)" "$(fig "$transport" seq_read_remote_noprefetch)")"
	printf "  random remote read, prefetch on / off      %s\n" \
		"$(ratio "$(fig "$transport" rand_read_remote)" "$(fig "$transport" rand_read_remote_noprefetch)")"
	printf "  migration round trip, 64 MiB / small set   %s\n" \
		"$(ratio "$(fig "$transport" migrate_rtt_big)" "$(fig "$transport" migrate_rtt_small)")"
	printf "  migration one way, out / back (small set)  %s\n" \
		"$(ratio "$(fig "$transport" migrate_out_small)" "$(fig "$transport" migrate_back_small)")"
	printf "  MADV_RELEASE of what a remote wrote: messages / pages  %s\n" \
		"$(ratio "$(fig "$transport" release_remote_written_msgs)" $((${BENCH_SEQ_MIB:-16} * 256)))"
	if [ "$transport" != tcp ] && grep -q '^tcp,' "$csv"; then
		printf "  remote read fault, %s / tcp              %s\n" "$transport" \
			"$(ratio "$(fig "$transport" fault_remote_read)" "$(fig tcp fault_remote_read)")"
	fi
	if [ "$transport" = rdma-copy ] && grep -q '^rdma,' "$csv"; then
		for f in fault_remote_read fault_remote_write seq_read_remote; do
			printf "  %s, rdma placed / copied   %s\n" "$f" \
				"$(ratio "$(fig rdma $f)" "$(fig rdma-copy $f)")"
		done
	fi
done

# Across transports, in this run: remote read fault ratios.
have() { grep -q "^$1,fault_remote_read," "$csv"; }
if have shm || have rdma; then
	echo
	echo "== remote read fault across transports (p50, this run; one boot each) =="
	for t in tcp rdma shm; do
		have $t && printf "  %-6s %12s ns\n" $t "$(fig $t fault_remote_read)"
	done
	for pair in "shm tcp" "shm rdma" "rdma tcp"; do
		set -- $pair
		have "$1" && have "$2" &&
			printf "  remote read fault, %-4s / %-4s   %s\n" "$1" "$2" \
				"$(ratio "$(fig "$1" fault_remote_read)" "$(fig "$2" fault_remote_read)")"
	done
fi

# Scale-out: per transport, two nodes of one vCPU each, one boot
# (guest/scaleout.sh): each Debian program on node 0 alone against the
# same command spread over both nodes by popcorn run, in turn.  The
# speedup is the ratio of the medians of the wall times.
scale_cmdline() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list $SCALE_NODES) pcn.nid=$1" \
	     "pcn.transport=$PCN_TRANSPORT pcn_test=scaleout pcn_scale_nodes=$SCALE_NODES" \
	     "pcn_scale_reps=${BENCH_SCALE_REPS:-3}" \
	     "pcn_scale_kib=${BENCH_SCALE_KIB:-8192}" \
	     "pcn_scale_events=${BENCH_SCALE_EVENTS:-2000}" \
	     ${BENCH_SCALE_SPIN:+pcn_scale_spin=$BENCH_SCALE_SPIN} \
	     ${BENCH_SCALE_PROGS:+pcn_scale_progs=$BENCH_SCALE_PROGS} \
	     ${BENCH_SCALE_TRACE:+pcn_scale_trace=$BENCH_SCALE_TRACE} \
	     ${BENCH_SHARE_ITERS:+pcn_scale_share_iters=$BENCH_SHARE_ITERS} \
	     ${BENCH_SHARE_WORK:+pcn_scale_share_work=$BENCH_SHARE_WORK}
}
SCALE_NODES=${BENCH_SCALE_NODES:-3}
# speedup T P RUN SUFFIX: program P's one-node time over its time in
# RUN (2nodes, 2nodes_static, ...), printed and added to the CSV as
# scale_P_speedupSUFFIX.
speedup() {
	local r
	r=$(ratio "$(fig "$1" scale_${2}_1node)" "$(fig "$1" scale_${2}_$3)")
	[ "$r" = - ] || echo "$1,scale_${2}_speedup$4,x,1,$r,$r,$r" >> "$csv"
	echo "$r"
}
SHARE_PROGS=share_private,share_readmostly,share_prodcons,share_false,share_lock,share_barrier
SCALE_PROGS=$(echo "${BENCH_SCALE_PROGS:-spin,xz,zstd,pigz,7z,7zb,sysbench_cpu,sysbench_threads,$SHARE_PROGS}" |
	sed 's/\<7zb\>/7zb,7zb_compress,7zb_decompress/' | tr , ' ')
for transport in ${TRANSPORTS:-tcp}; do
	part scale || continue
	[ "${transport%-copy}" = "$transport" ] || continue
	export PCN_TRANSPORT=$transport
	name=scale-$transport
	echo
	echo "# bench: scale-out on $transport: $SCALE_NODES nodes of 1 vCPU, ${BENCH_SCALE_REPS:-3} rounds per program"
	VM_SMP=1 VM_MEM=${VM_MEM:-512M} cluster_boot "$name" $SCALE_NODES "${BENCH_SCALE_TIMEOUT:-5400}" scale_cmdline || rc=1
	res=$VMDIR/$name/node0.results
	if grep -q '^not ok' "$VMDIR/$name/node"*.results || ! grep -q '^# done scaleout' "$res"; then
		echo "# bench: $name: a guest check failed:"
		grep -h '^not ok' "$VMDIR/$name/node"*.results | sed 's/^/#   /'
		tail -n 30 "$VMDIR/$name/node0.console" | sed 's/^/  | /'
		rc=1
	fi
	grep -h '^# bench scale_' "$res" "$VMDIR/$name/node1.results" | tr -d '\r' |
		awk -v t="$transport" '{ printf "%s,%s,%s,%s,%s,%s,%s\n", t, $3, $4, $5, $6, $7, $8 }' >> "$csv"
	grep '^# .* spread: \|^# .* one node: ' "$res" | tr -d '\r' | sed 's/^#/#  /'
	clock=$(grep -h 'clocksource' "$res" | head -n 1 | tr -d '\r')
	echo
	echo "== scale-out on $transport: 1 node / 2 nodes of 1 vCPU (medians of ${BENCH_SCALE_REPS:-3} runs, one boot; ${clock#ok - }) =="
	echo "(2 nodes: adaptive placement, the default, its threads called home, static placement, static with no page hold)"
	printf "%-17s %10s %10s %8s %6s %10s %8s %8s %9s %9s %8s %9s\n" program "1 node ms" "2 nodes ms" speedup \
		called "static ms" "static x" "nohold x" "faults" "syscalls" "futex" "msgs/s"
	for p in $SCALE_PROGS; do
		sp=$(speedup "$transport" "$p" 2nodes "")
		st=$(speedup "$transport" "$p" 2nodes_static _static)
		nh=$(speedup "$transport" "$p" 2nodes_nohold _nohold)
		printf "%-17s %10s %10s %8s %6s %10s %8s %8s %9s %9s %8s %9s\n" "$p" \
			"$(fig "$transport" scale_${p}_1node)" "$(fig "$transport" scale_${p}_2nodes)" \
			"$sp" "$(fig "$transport" scale_${p}_called_home)" \
			"$(fig "$transport" scale_${p}_2nodes_static)" "$st" "$nh" \
			"$(fig "$transport" scale_${p}_faults)" \
			"$(fig "$transport" scale_${p}_syscalls)" \
			"$(fig "$transport" scale_${p}_futex)" \
			"$(fig "$transport" scale_${p}_msgs_per_s)"
	done
	if [ "$SCALE_NODES" -ge 3 ]; then
		echo
		echo "== scale-out on $transport: 1 node / 3 nodes of 1 vCPU (both workers away; same boot, medians) =="
		printf "%-17s %10s %10s %8s %6s %10s %8s\n" program "1 node ms" "3 nodes ms" speedup \
			called "static ms" "static x"
		for p in $SCALE_PROGS; do
			sp=$(speedup "$transport" "$p" 3nodes _3nodes)
			st=$(speedup "$transport" "$p" 3nodes_static _3nodes_static)
			printf "%-17s %10s %10s %8s %6s %10s %8s\n" "$p" \
				"$(fig "$transport" scale_${p}_1node)" "$(fig "$transport" scale_${p}_3nodes)" \
				"$sp" "$(fig "$transport" scale_${p}_3nodes_called_home)" \
				"$(fig "$transport" scale_${p}_3nodes_static)" "$st"
		done
	fi
	for k in read write; do
		printf "node 1's remote %s faults in the spread runs: %s, mean %s us\n" $k \
			"$(fig "$transport" scale_node1_fault_remote_$k count)" \
			"$(awk -v v="$(fig "$transport" scale_node1_fault_remote_$k mean)" 'BEGIN { printf "%.0f", v / 1000 }')"
	done
done

# Idle cost: two connected nodes that do nothing for BENCH_IDLE_S
# seconds (guest/idle.sh), per transport of IDLE_TRANSPORTS (default:
# tcp and shm when benchmarked); the host reads the user and system
# CPU time of their QEMU processes (/proc/PID/stat) at node 0's
# markers.  shm polls; tcp is the baseline of an idle guest.
idle_cmdline() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list 2) pcn.nid=$1" \
	     "pcn.transport=$PCN_TRANSPORT pcn_test=idle pcn_idle_s=${BENCH_IDLE_S:-30}"
}
qemu_ticks() {	# qemu_ticks DIR: CPU clock ticks of the cluster's QEMUs
	local pid sum=0 t

	for pid in $(pgrep -f -- "path=$1/node[0-9]*.console"); do
		t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || continue
		sum=$((sum + ${t:-0}))
	done
	echo $sum
}
wait_marker() {	# wait_marker FILE LINE PID: until FILE has LINE or PID ends
	while kill -0 "$3" 2>/dev/null; do
		[ -f "$1" ] && tr -d '\r' < "$1" | grep -qx "$2" && return 0
		sleep 0.2
	done
	return 1
}
idle_default=
for t in tcp shm; do
	[[ " ${TRANSPORTS:-tcp} " == *" $t "* ]] && idle_default+=" $t"
done
for t in ${IDLE_TRANSPORTS:-$idle_default}; do
	part idle || continue
	export PCN_TRANSPORT=$t
	name=idle-$t
	echo
	echo "# bench: idle cost on $t: 2 nodes idle for ${BENCH_IDLE_S:-30} s"
	cluster_boot "$name" 2 600 idle_cmdline &
	boot=$!
	res=$VMDIR/$name/node0.results
	if wait_marker "$res" "# idle start" $boot; then
		a=$(qemu_ticks "$VMDIR/$name")
		t0=$(date +%s.%N)
		wait_marker "$res" "# idle end" $boot
		b=$(qemu_ticks "$VMDIR/$name")
		t1=$(date +%s.%N)
	fi
	wait $boot || rc=1
	if grep -q '^not ok' "$VMDIR/$name/node"*.results || [ -z "${t1:-}" ]; then
		echo "# bench: idle-$t: a guest check failed:"
		grep -h '^not ok' "$VMDIR/$name/node"*.results | sed 's/^/#   /'
		tail -n 30 "$VMDIR/$name/node0.console" | sed 's/^/  | /'
		rc=1
		continue
	fi
	# Percent of one host CPU, per guest.
	pct=$(awk -v d=$((b - a)) -v hz="$(getconf CLK_TCK)" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.2f", 100 * d / hz / (t1 - t0) / 2 }')
	echo "$t,idle_cpu_per_guest,percent,2,$pct,$pct,$pct" >> "$csv"
	grep '^# bench idle_' "$res" | tr -d '\r' |
		awk -v t="$t" '{ printf "%s,%s,%s,%s,%s,%s,%s\n", t, $3, $4, $5, $6, $7, $8 }' >> "$csv"
	echo "  idle $t: $pct% of a host CPU per guest$(grep '^# bench idle_poll' "$res" |
		awk '{ printf ", poll thread %s wake-ups/s", $6 }')"
	unset t0 t1
done
if grep -q '^tcp,idle_cpu' "$csv" && grep -q '^shm,idle_cpu' "$csv"; then
	printf "  idle guest CPU, shm / tcp   %s\n" \
		"$(ratio "$(fig shm idle_cpu_per_guest)" "$(fig tcp idle_cpu_per_guest)")"
fi

# Cost when unused: boots alternate between the two kernels, so that a
# drift of the host's speed hits both alike.  They are instruction-
# counted (BENCH_UNUSED_ICOUNT, default 1): QEMU's -icount shift=0 makes
# the guest's clock advance 1 ns per instruction executed, on one vCPU,
# and the guest is told its TSC runs at 1 GHz, so each figure counts the
# instructions an operation takes, which host load does not change.
# BENCH_UNUSED_ICOUNT=0: wall-clock time, as any other figure.
unused_cmdline() {
	echo "$(base_cmdline "$1") pcn_test=unused" \
	     "pcn_bench_samples=${BENCH_UNUSED_SAMPLES:-31}"
}
no_key() { echo none; }
if [ -n "$NOPCN_BZIMAGE" ] && part unused; then
	# (not "boots": cluster.sh keeps its boot counts in that array)
	nboots=${BENCH_UNUSED_BOOTS:-3}
	echo
	echo "# bench: cost when unused: $nboots boots of each kernel, in turn"
	for ((b = 1; b <= nboots; b++)); do
		for k in popcorn none; do
			name=unused-$k-$b
			[ $k = popcorn ] && export BZIMAGE=$PCN_BZIMAGE || export BZIMAGE=$NOPCN_BZIMAGE
			if [ "${BENCH_UNUSED_ICOUNT:-1}" = 1 ]; then
				VM_SMP=1 VM_QEMU_EXTRA="-icount shift=0,sleep=off" \
				HOST_TSC_KHZ=1000000 PCN_AUTH= PCN_KEY_FN=no_key \
					cluster_boot "$name" 1 600 unused_cmdline || rc=1
			else
				PCN_AUTH= PCN_KEY_FN=no_key cluster_boot "$name" 1 600 unused_cmdline || rc=1
			fi
			r=$VMDIR/$name/node0.results
			if grep -q '^not ok' "$r" || ! tr -d '\r' < "$r" | grep -qx "# kernel: $k"; then
				echo "# bench: $name: a guest check failed, or not the kernel wanted:"
				grep -h '^not ok\|^# kernel' "$r" | sed 's/^/#   /'
				tail -n 30 "$VMDIR/$name/node0.console" | sed 's/^/  | /'
				rc=1
			fi
			grep '^# bench unused_' "$r" | tr -d '\r' |
				awk -v t="unused-$k" -v b="$b" '{ printf "%s,%s,%s,%s,%s,%s,%s\n", t, $3 "#" b, $4, $5, $6, $7, $8 }' >> "$csv"
		done
	done
	echo
	if [ "${BENCH_UNUSED_ICOUNT:-1}" = 1 ]; then
		unit="instruction-counted: 1 ns = 1 instruction, 1 vCPU"
	else
		unit="wall-clock time"
	fi
	echo "== cost when unused: kernel with Popcorn / without (p50 per operation, median of $nboots boots each; $unit) =="
	printf "%-16s %12s %12s %7s  %s\n" figure with without ratio "noise (boot-to-boot spread, with / without)"
	for f in unused_fault unused_fork unused_mmap unused_syscall; do
		awk -F, -v f="$f" '
			function med(a, n,   i, j, t) {
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
				return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			}
			function spread(a, n, m,   i, lo, hi) {
				lo = hi = a[1]
				for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
				return m > 0 ? 100 * (hi - lo) / m : 0
			}
			{ split($2, nb, "#") }
			nb[1] == f && $1 == "unused-popcorn" { w[++nw] = $6 }
			nb[1] == f && $1 == "unused-none" { o[++no] = $6 }
			END {
				if (!nw || !no) { printf "%-16s %12s\n", f, "-"; exit }
				mw = med(w, nw); mo = med(o, no)
				printf "%-16s %10.0fns %10.0fns %7.3f  %.1f%% / %.1f%%\n", f, mw, mo,
				       (mo > 0 ? mw / mo : 0), spread(w, nw, mw), spread(o, no, mo)
			}' "$csv"
	done
	export BZIMAGE=$PCN_BZIMAGE
fi

# The chart: p50 latencies (log scale) per figure, one bar per
# transport, drawn by bench_chart.py with Python's standard library.
if command -v python3 > /dev/null; then
	python3 "$(dirname "$0")/bench_chart.py" "$csv" "$OUT/chart.png" ||
		echo "# bench: the chart could not be drawn"
else
	echo "# bench: no python3: no chart"
fi
echo
echo "results: $csv"
[ -s "$OUT/chart.png" ] && echo "chart:   $OUT/chart.png"
exit $rc
