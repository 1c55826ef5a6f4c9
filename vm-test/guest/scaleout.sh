#!/bin/sh
# Scale-out (make bench): each unmodified Debian program alone on node 0
# (one vCPU) against the same command spread over nodes 0 and 1 (one
# vCPU each) by "popcorn run --nodes 0-1" (adaptive placement), then by
# "popcorn run --nodes 0-1 --policy static", then statically again with
# page holds off (pcn.page_hold_us=0), and, with pcn_scale_nodes=3,
# over nodes 0-2 adaptively and statically, in turn, pcn_scale_reps
# times, in one boot.  Two worker threads: placement puts one on each
# node, the main thread stays at the origin.  Every spread run's result
# is checked against the one-node run's.  First bench_spin, two threads
# that share nothing: the ceiling of these guests on this host.
#
# Figures ("# bench NAME UNIT COUNT MEAN P50 MAX", read by
# vm-test/bench.sh), per program P:
#   scale_P_1node, scale_P_2nodes   wall time, ms
#   scale_P_2nodes_static           wall time spread statically, ms
#   scale_P_2nodes_nohold           the same with no page hold, ms
#   scale_P_called_home             threads adaptive placement called
#                                   home in a spread run
#   scale_P_3nodes, scale_P_3nodes_static, scale_P_3nodes_called_home
#                                   the same over nodes 0-2 (both workers
#                                   away), when pcn_scale_nodes is 3
#   scale_P_faults                  remote faults served by node 0 in a
#                                   spread run (page_request received)
#   scale_P_syscalls                system calls forwarded to node 0
#   scale_P_futex                   futex operations forwarded to node 0
#   scale_P_msgs_per_s              messages node 0 sent and received,
#                                   per second of the spread run
#   scale_node1_fault_remote_read, scale_node1_fault_remote_write
#                                   (node 1's results) the count and mean
#                                   time of node 1's remote faults over
#                                   all spread runs
# 7-Zip's own benchmark ("7z b", program 7zb) runs for a time it sets
# itself and reports ratings (MIPS of its instruction model) it measures
# itself: its two figures are 1e6 / the total rating ("ms per GI"), a
# time-like figure, so that the ratio of the medians is its speedup too.
# Parameters (kernel command line): pcn_scale_reps (3), pcn_scale_kib
# (input of the compressors, 8192), pcn_scale_events (sysbench cpu
# events, 2000), pcn_scale_spin (bench_spin's iterations per thread,
# 1000000000: about 4 s on one node, so that placing a thread is a
# small part of it), pcn_scale_limit (seconds a run may take, 300),
# pcn_scale_progs (the programs, comma-separated; default all),
# pcn_scale_nodes (2, or 3 for the runs over three nodes too).
#
# Then bench_share's known patterns of sharing (programs share_PATTERN:
# private, readmostly, prodcons, false, lock, barrier), two threads,
# pcn_scale_share_iters (10000) shared accesses each with
# pcn_scale_share_work (50000) steps of computation between two: what
# spreading costs a program by the way its threads share data.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
param() {	# param NAME DEFAULT
	cmdline_param_or "pcn_scale_$1" "$2"
}
REPS=$(param reps 3)
KIB=$(param kib 8192)
EVENTS=$(param events 2000)
SPIN=$(param spin 1000000000)
LIMIT=$(param limit 300)
SHARE_ITERS=$(param share_iters 10000)
SHARE_WORK=$(param share_work 50000)
NODES=$(param nodes 2)
SHARES="private readmostly prodcons false lock barrier"
PROGS=" $(param progs spin,xz,zstd,pigz,7z,7zb,sysbench_cpu,sysbench_threads,$(echo $SHARES | sed 's/\([a-z]*\)/share_\1/g' | tr ' ' ,) | tr , ' ') "
want() { case $PROGS in *" $1 "*) return 0 ;; esac; return 1; }
HOLD=/sys/module/pcn/parameters/page_hold_us
HOLD_US=$(cat $HOLD)

wait_all_online $NODES 120
tap $? "all $NODES nodes online (after ${WAITED}s)"
if [ "$nid" != 0 ]; then
	# Until node 0 pings this node at its end (a slow poll: this node's
	# one vCPU runs half of every spread program meanwhile), then what
	# the remote faults of all the spread runs cost here.
	while [ "$(stat_type ping_request recv)" -lt 1 ]; do
		sleep 2
	done
	awk '$1 == "fault" && ($2 == "remote_read" || $2 == "remote_write") {
		printf "# bench scale_node%d_fault_%s ns %d %d %d %d\n", n, $2, $3, $4, $4, $4 }' n=$nid /proc/popcorn_stat
	exit 0
fi

# Compressible but not trivially: numbers, then a binary, repeated to
# the size asked; the same on every boot.
{ seq 1 60000; head -c 300000 /bin/busybox; seq 1 3 200000; } > /tmp/unit
: > /tmp/in
while [ "$(wc -c < /tmp/in)" -lt $((KIB * 1024)) ]; do
	cat /tmp/unit >> /tmp/in
done
head -c $((KIB * 1024)) /tmp/in > /tmp/in.cut && mv /tmp/in.cut /tmp/in
echo "# input: $(wc -c < /tmp/in) bytes; $REPS repetitions of each"

# Node 0's counters: a message type's received count, every message.
recv_of() { stat_type "$1" recv; }
# Threads adaptive placement called home so far (its log lines).
called_home() { dmesg | grep -c 'waits on the DSM at node'; }
all_msgs() {
	awk '$1 == "total" { print $2 + $4 }' /proc/popcorn_stat
}

# stats NAME UNIT FILE: the figure line of the values in FILE.
stats() {
	sort -n "$3" | awk -v n="$1" -v u="$2" '
		{ v[NR] = $1; s += $1 }
		END {
			if (!NR) exit 1
			med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "# bench %s %s %d %.1f %.1f %.1f\n", n, u, NR, s / NR, med, v[NR]
		}'
}

# timed FILE CMD...: run CMD (time limit LIMIT), append its wall time in
# ms to FILE; RC is its exit code.
timed() {
	local file=$1
	shift
	timeout $LIMIT /bin/bench_wall /tmp/wall "$@"
	RC=$?
	[ $RC -eq 0 ] || return $RC
	awk '{ printf "%.1f\n", $2 / 1e6 }' /tmp/wall >> "$file"
}

# With pcn_scale_trace=1, adaptive placement's verdicts in the adaptive
# spread runs (tracepoint pcn_adapt: each interval's CPU time and wait
# from sharing, its own and the one it caused at home) go to the results
# as "# verdict ..." lines, relative to the run's start.
TRACE=$(param trace 0)
TR=/sys/kernel/tracing
trace_on() {
	[ "$TRACE" = 1 ] || return 0
	[ -d $TR/events ] || mount -t tracefs tracefs $TR
	echo > $TR/trace
	echo 1 > $TR/events/popcorn/pcn_adapt/enable
}
trace_off() {
	[ "$TRACE" = 1 ] || return 0
	echo 0 > $TR/events/popcorn/pcn_adapt/enable
	grep ': pcn_adapt:' $TR/trace | awk '{
		for (i = 1; i < NF; i++)
			if ($(i + 1) == "pcn_adapt:")
				t = $i + 0
		if (!t0)
			t0 = t
		sub(/.*pcn_adapt: /, "")
		printf "# verdict %.2f %s\n", t - t0, $0 }'
}

# spread_again FILE SET LABEL NODES POLICY CMD...: bench()'s CMD spread
# once more over NODES under POLICY, its time appended to FILE and its
# result checked as SET (check_7zb); counts into bench()'s bad and hung.
spread_again() {
	local file=$1 set=$2 label=$3 nodes=$4 policy=$5
	shift 5
	echo "popcorn-bench: $name spread ($label)" > /dev/kmsg
	timed $file popcorn run --nodes $nodes --policy $policy -- "$@" \
		> /tmp/two.out 2>&1
	case $RC in
	0) SET=$set
	   $check /tmp/one.out /tmp/two.out || {
		echo "# $name spread ($label): wrong result"
		bad=$((bad + 1))
	   } ;;
	124|143)
		echo "# $name spread ($label): killed after ${LIMIT}s (a thread slept on)"
		hung=$((hung + 1)) ;;
	*)
		echo "# $name spread ($label): exit $RC"
		bad=$((bad + 1)) ;;
	esac
}

# bench NAME CHECK CMD...: REPS rounds of CMD on node 0, then spread
# over nodes 0-1.  CMD writes to stdout; CHECK (a shell function) gets
# the one-node output file and the spread output file and says whether
# the spread run's result is right.
bench() {
	local name=$1 check=$2 r=0 bad=0 hung=0 f0 p0 s0 m0
	shift 2
	rm -f /tmp/s.$name.*
	echo "# bench: $name" >&2
	while [ $r -lt "$REPS" ]; do
		r=$((r + 1))
		timed /tmp/s.$name.1 "$@" > /tmp/one.out 2>&1 || {
			echo "# $name on one node: exit $RC"
			bad=$((bad + 1))
			continue
		}
		f0=$(recv_of page_request)
		p0=$(recv_of syscall)
		s0=$(recv_of futex)
		m0=$(all_msgs)
		c0=$(called_home)
		# In the kernel log too: its lines of this run follow.
		echo "popcorn-bench: $name spread, adaptive" > /dev/kmsg
		trace_on
		timed /tmp/s.$name.2 popcorn run --nodes 0-1 -- "$@" > /tmp/two.out 2>&1
		trace_off
		case $RC in
		0) ;;
		124|143)
			echo "# $name spread: killed after ${LIMIT}s (a thread slept on)"
			hung=$((hung + 1))
			continue ;;
		*)
			echo "# $name spread: exit $RC"
			sed 's/^/# /' /tmp/two.out | tail -n 5
			bad=$((bad + 1))
			continue ;;
		esac
		SET=2
		$check /tmp/one.out /tmp/two.out || {
			echo "# $name spread: wrong result"
			bad=$((bad + 1))
		}
		echo $(($(recv_of page_request) - f0)) >> /tmp/s.$name.f
		echo $(($(recv_of syscall) - p0)) >> /tmp/s.$name.p
		echo $(($(recv_of futex) - s0)) >> /tmp/s.$name.s
		echo $(($(called_home) - c0)) >> /tmp/s.$name.c
		awk -v m=$(($(all_msgs) - m0)) '{ printf "%.0f\n", m / ($2 / 1e9) }' \
			/tmp/wall >> /tmp/s.$name.m
		# The same spread with today's static placement, then again
		# with no page hold (page_hold.c): what holds gain or cost.
		spread_again /tmp/s.$name.st 3 static 0-1 static "$@"
		echo 0 > $HOLD
		spread_again /tmp/s.$name.nh 4 "static, no hold" 0-1 static "$@"
		echo $HOLD_US > $HOLD
		# Over three nodes: both workers away, one at each.
		[ "$NODES" -ge 3 ] || continue
		c0=$(called_home)
		spread_again /tmp/s.$name.3a 5 "3 nodes" 0-2 adaptive "$@"
		echo $(($(called_home) - c0)) >> /tmp/s.$name.3c
		spread_again /tmp/s.$name.3s 6 "3 nodes, static" 0-2 static "$@"
	done
	tap $bad "$name: every run exited 0 and every spread run's result is right ($REPS rounds, $hung killed at the limit)"
	# A program that times itself: its check wrote the figures.
	if [ -s /tmp/s.$name.own1 ]; then
		mv /tmp/s.$name.own1 /tmp/s.$name.1
		mv /tmp/s.$name.own2 /tmp/s.$name.2
		mv /tmp/s.$name.own3 /tmp/s.$name.st
		mv /tmp/s.$name.own4 /tmp/s.$name.nh
		[ -s /tmp/s.$name.own5 ] && mv /tmp/s.$name.own5 /tmp/s.$name.3a
		[ -s /tmp/s.$name.own6 ] && mv /tmp/s.$name.own6 /tmp/s.$name.3s
	fi
	stats scale_${name}_1node ms /tmp/s.$name.1
	stats scale_${name}_2nodes ms /tmp/s.$name.2
	stats scale_${name}_2nodes_static ms /tmp/s.$name.st
	stats scale_${name}_2nodes_nohold ms /tmp/s.$name.nh
	stats scale_${name}_called_home count /tmp/s.$name.c
	if [ "$NODES" -ge 3 ]; then
		stats scale_${name}_3nodes ms /tmp/s.$name.3a
		stats scale_${name}_3nodes_static ms /tmp/s.$name.3s
		stats scale_${name}_3nodes_called_home count /tmp/s.$name.3c
	fi
	stats scale_${name}_faults count /tmp/s.$name.f
	stats scale_${name}_syscalls count /tmp/s.$name.p
	stats scale_${name}_futex count /tmp/s.$name.s
	stats scale_${name}_msgs_per_s 1/s /tmp/s.$name.m
	[ -s /tmp/s.$name.2 ]
	tap $? "$name: spread figures measured"
}

# Checks: compressed data identical to one node's and decompressing to
# the input; sysbench's events as asked.
same_xz() { cmp -s "$1" "$2" && /usr/bin/xz -dc < "$2" | cmp -s - /tmp/in; }
same_zstd() { cmp -s "$1" "$2" && /usr/bin/zstd -q -dc < "$2" | cmp -s - /tmp/in; }
same_pigz() { cmp -s "$1" "$2" && /usr/bin/pigz -dc < "$2" | cmp -s - /tmp/in; }
events() { grep -q "total number of events: *$EVENTS$" "$2"; }
events_threads() { grep -q "total number of events: *2000$" "$2"; }
# 7z writes an archive: a script runs it and prints the archive.
cat > /tmp/seven.sh <<'EOF7'
rm -f /tmp/7z.bz2
/usr/bin/7z a -bd -tbzip2 -mmt2 -mx7 /tmp/7z.bz2 /tmp/in > /dev/null && cat /tmp/7z.bz2
EOF7
same_7z() { cmp -s "$1" "$2" && /usr/bin/7z x -so /tmp/7z.bz2 2>/dev/null | cmp -s - /tmp/in; }

# 7z b checks what it decompresses itself (an error is printed and the
# exit code is not 0); "Tot:" has the total rating, whose inverse is
# the figure; "Avr:" has the ratings of compression (one LZMA encoder
# whose match finder is the second thread) and of decompression (a
# decoder per thread), figures 7zb_compress and 7zb_decompress.
# SET: 2 after the adaptive spread run, 3 after the static one, 4 after
# the static one without page holds, 5 and 6 after the adaptive and
# static runs over three nodes, whose one-node figures are already in.
check_7zb() {
	local f
	for f in "$1" "$2"; do
		grep -q '^Tot:' "$f" && ! grep -qi 'error' "$f" || return 1
	done
	if [ "$SET" = 2 ]; then
		awk '/^Tot:/ { printf "%.3f\n", 1e6 / $4 }' "$1" >> /tmp/s.7zb.own1
		awk '/^Avr:/ { printf "%.3f\n", 1e6 / $5 }' "$1" >> /tmp/7zb_compress.1
		awk '/^Avr:/ { printf "%.3f\n", 1e6 / $10 }' "$1" >> /tmp/7zb_decompress.1
	fi
	awk '/^Tot:/ { printf "%.3f\n", 1e6 / $4 }' "$2" >> /tmp/s.7zb.own$SET
	awk '/^Avr:/ { printf "%.3f\n", 1e6 / $5 }' "$2" >> /tmp/7zb_compress.$SET
	awk '/^Avr:/ { printf "%.3f\n", 1e6 / $10 }' "$2" >> /tmp/7zb_decompress.$SET
}

# The ceiling: two threads that share nothing.
same_out() { cmp -s "$1" "$2"; }
want spin && bench spin same_out /bin/bench_spin 2 $SPIN
want xz && bench xz same_xz /usr/bin/xz -T2 -3 --block-size=1048576 -c /tmp/in
want zstd && bench zstd same_zstd /usr/bin/zstd -q -T2 -9 -B1048576 -c /tmp/in
want pigz && bench pigz same_pigz /usr/bin/pigz -p 2 -9 -b 1024 -c /tmp/in
want 7z && bench 7z same_7z sh /tmp/seven.sh
if want 7zb; then
	rm -f /tmp/7zb_*
	bench 7zb check_7zb /usr/bin/7z b 1 -mmt2 -md22
	for k in compress decompress; do
		stats scale_7zb_${k}_1node ms /tmp/7zb_$k.1
		stats scale_7zb_${k}_2nodes ms /tmp/7zb_$k.2
		stats scale_7zb_${k}_2nodes_static ms /tmp/7zb_$k.3
		stats scale_7zb_${k}_2nodes_nohold ms /tmp/7zb_$k.4
		[ "$NODES" -ge 3 ] || continue
		stats scale_7zb_${k}_3nodes ms /tmp/7zb_$k.5
		stats scale_7zb_${k}_3nodes_static ms /tmp/7zb_$k.6
	done
fi
want sysbench_cpu && bench sysbench_cpu events /usr/bin/sysbench cpu \
	--threads=2 --events=$EVENTS --time=0 run
want sysbench_threads && bench sysbench_threads events_threads \
	/usr/bin/sysbench threads --threads=2 --events=2000 --time=0 \
	--thread-yields=10 --thread-locks=4 run
for p in $SHARES; do
	want share_$p && bench share_$p same_out /bin/bench_share $p 2 \
		"$SHARE_ITERS" "$SHARE_WORK"
done
n=1
while [ $n -lt "$NODES" ]; do
	popcorn ping $n --count 1 > /dev/null
	tap $? "node $n told that the runs are over"
	n=$((n + 1))
done
echo "# done scaleout"
