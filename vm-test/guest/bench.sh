#!/bin/sh
# Benchmarks, node 0 against node 1, in one boot: the raw
# transport (a user-space TCP ping-pong over the same link) and popcorn
# ping at 64 B, 4 KiB and 64 KiB, then page faults and migrations
# (bench_fault).  Figures are "# bench NAME UNIT COUNT MEAN P50 P99"
# lines, read by vm-test/bench.sh; the TAP lines check that each came
# and is sane.  Parameters (kernel command line): pcn_bench_samples
# (round trips per size), pcn_bench_pages (pages per fault figure),
# pcn_bench_seq_mib, pcn_bench_rounds, pcn_bench_big_mib.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
param() {	# param NAME DEFAULT
	cmdline_param_or "pcn_bench_$1" "$2"
}
samples=$(param samples 200)
port=5001

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

# centis: the time since boot in hundredths of a second.
centis() {
	local up
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//;s/^$/0/'
}

# sane NAME: a figure came, with samples, a mean above 0, p50 <= p99.
sane() {
	grep "^# bench $1 " /tmp/bench.out | tail -n 1 |
		awk '{ ok = $5 > 0 && $6 > 0 && $7 > 0 && $7 + 0 <= $8 + 0 }
			END { exit !ok }'
}

# sane_leg LEG RTT: LEG's figure has samples, p50 <= p99 and a mean
# within twice RTT's mean, either way.
sane_leg() {
	local rtt
	rtt=$(grep "^# bench $2 " /tmp/bench.out | tail -n 1 | awk '{ print $6 }')
	grep "^# bench $1 " /tmp/bench.out | tail -n 1 |
		awk -v rtt="${rtt:-0}" '{ m = $6 < 0 ? -$6 : $6
			ok = $5 > 0 && rtt > 0 && m <= 2 * rtt && $7 + 0 <= $8 + 0 }
			END { exit !ok }'
}

if [ "$nid" = 0 ]; then
	peer=$(cmdline_param pcn.nodes | cut -d, -f2)
	# shm lists slots: the TCP ping-pong uses node 1's address on eth0.
	[ "$PCN_TRANSPORT" = shm ] &&
		peer=$(cmdline_param ip | cut -d: -f1 | sed 's/\.[0-9]*$/.2/')
	: > /tmp/bench.out
	for size in 64 4096 65536; do
		echo "# bench: round trips of $size bytes, $samples samples each" >&2
		/bin/bench_tcp client "$peer" $port $size "$samples" >> /tmp/bench.out
		tap $? "user-space TCP ping-pong, $size bytes"
		popcorn ping 1 --size $size --count "$samples" > /tmp/ping.out
		tap $? "popcorn ping, $size bytes"
		sed -n 's/^raw: nid [0-9]* size \([0-9]*\) count [0-9]* ok \([0-9]*\) min_ns [0-9]* mean_ns \([0-9]*\) p50_ns \([0-9]*\) p99_ns \([0-9]*\).*/# bench popcorn_rtt_\1 ns \2 \3 \4 \5/p' \
			/tmp/ping.out >> /tmp/bench.out
	done
	# How far node 1's own clock is ahead of this one's.  A migrated
	# thread reads this node's clock there (process-server.rst,
	# "Clocks"), behind by about a one-way delay, which the error of
	# the estimate bounds as well: the one-way migration times take
	# offset 0 with that error.
	offset=$(/bin/bench_tcp offset "$peer" $port 50)
	tap $? "node 1's own clock offset: ${offset:-?} (ns, error ns)"
	echo "# bench: page faults and migrations" >&2
	/bin/bench_fault 1 "$(param pages 256)" "$(param seq_mib 16)" \
		"$(param rounds 5)" "$(param big_mib 64)" 0 "${offset#* }" \
		>> /tmp/bench.out
	tap $? "bench_fault ran"
	cat /tmp/bench.out
	# Freeing a buffer a remote wrote: at most one message per 8 pages
	# (it was one invalidation per page).
	pages=$(($(param seq_mib 16) * 256))
	msgs=$(awk '$3 == "free_remote_written_msgs" { print int($7) }' /tmp/bench.out)
	[ -n "$msgs" ] && [ "$msgs" -le $((pages / 8)) ]
	tap $? "freeing $((pages / 256)) MiB a remote wrote: ${msgs:-?} messages for $pages pages"
	# Taking back with MADV_RELEASE what a remote wrote (the data comes
	# home) or read: batched, at most one message per 8 pages.
	for f in release_remote_written release_remote_read; do
		msgs=$(awk -v f="${f}_msgs" '$3 == f { print int($7) }' /tmp/bench.out)
		[ -n "$msgs" ] && [ "$msgs" -le $((pages / 8)) ]
		tap $? "$f: ${msgs:-?} messages for $pages pages"
	done
	# One copy of page data per side: every page of data
	# this node sent left from a page of its own, none was copied into
	# a message buffer, and the data that came home (MADV_RELEASE of
	# what the remote wrote) arrived straight into pages.
	ref=$(stat_key page_data_sent_by_reference)
	copied=$(stat_key page_data_sent_copied)
	into=$(stat_key page_data_received_into_pages)
	[ "$ref" -ge "$pages" ] && [ "$copied" -eq 0 ] && [ "$into" -ge "$pages" ]
	tap $? "page data by reference: $ref pages sent from pages, $copied copied, $into received into pages (at least $pages each)"
	# TCP: with sendpage; RDMA: gathered from the page by the SEND, or
	# written by RDMA WRITE straight into the requester's page.
	tpages=$(stat_key "${PCN_TRANSPORT}_pages_sent")
	if [ "$PCN_TRANSPORT" = rdma ]; then
		written=$(stat_key rdma_pages_written)
		# pcn_rdma.place=0 (make bench's rdma-copy): none written.
		if [ "$(cmdline_param pcn_rdma.place)" = 0 ]; then
			[ "$((tpages + written))" -eq "$ref" ] && [ "$written" -eq 0 ]
		else
			[ "$((tpages + written))" -eq "$ref" ] && [ "$written" -gt 0 ]
		fi
		tap $? "the transport sent each of them from its page (rdma_pages_sent $tpages + rdma_pages_written $written)"
	else
		[ "$tpages" -eq "$ref" ]
		tap $? "the transport sent each of them from its page (${PCN_TRANSPORT}_pages_sent $tpages)"
	fi
	# Prefetch: a sequential read at the remote with it is faster than
	# without (make bench's target is 3x; here, a margin for noise:
	# one short run each: 4x to 7x here, 1.9x once on a loaded host).
	on=$(awk '$3 == "seq_read_remote" { print $7 }' /tmp/bench.out)
	off=$(awk '$3 == "seq_read_remote_noprefetch" { print $7 }' /tmp/bench.out)
	awk -v a="${on:-0}" -v b="${off:-0}" 'BEGIN { exit !(b > 0 && a >= 1.5 * b) }'
	tap $? "sequential read at the remote: prefetch on at least 1.5x off (${on:-?} vs ${off:-?} MB/s)"
	# Each kind's latency histogram adds up to its count.
	grep '^fault' /proc/popcorn_stat | sed 's/^/# /'
	awk '$1 == "fault" { c[$2] = $3; nk++ }
	     $1 == "fault_hist" { s = 0; for (i = 3; i <= NF; i++) s += $i
				  h[$2] = s; n[$2] = NF - 2 }
	     END { for (k in c) if (c[k] != h[k] || n[k] != 32) bad = 1
		   exit bad || !nk }' /proc/popcorn_stat
	tap $? "fault_hist: 32 buckets per kind, adding up to the kind's count"
	# bench_share (make bench's sharing patterns), short: spread over
	# both nodes, each pattern's checksum is its one-node run's.
	for p in private readmostly prodcons false lock barrier; do
		one=$(/bin/bench_share $p 2 100 1000)
		two=$(popcorn run --nodes 0-1 -- /bin/bench_share $p 2 100 1000)
		[ -n "$one" ] && [ "$one" = "$two" ]
		tap $? "bench_share $p spread over nodes 0-1: the one-node checksum (${two##* })"
	done
	# popcorn ps while false sharing runs spread: the process's page
	# requests per second, and its counter page first of the pages that
	# move, sent to node 1 (share.c).
	popcorn run --nodes 0-1 --policy static -- \
		/bin/bench_share false 2 20000 20000 > /dev/null &
	sp=$!
	# Its worker at home, first (it is done sooner): CPU time, and
	# waits node 1 caused.
	wait_until 60 sh -c "grep -A 20 '^process $sp ' /proc/popcorn_ps | grep -q '^thread [0-9]* node 0 run_ms [1-9][0-9]* wait_ms [0-9]* shared_ms [1-9]'"
	home=$(grep -A 20 "^process $sp " /proc/popcorn_ps | grep -m 1 ' node 0 run_ms [1-9][0-9]* wait_ms [0-9]* shared_ms [1-9]')
	clihome=$(popcorn ps | grep -c 'node 0, ran [0-9]* ms, waited [0-9]* ms on the DSM')
	wait_until 60 sh -c "grep -q '^hot $sp .* transfers [0-9][0-9]' /proc/popcorn_ps"
	share=$(grep "^share $sp " /proc/popcorn_ps)
	hot=$(grep -m 1 "^hot $sp " /proc/popcorn_ps)
	# Its thread away: CPU time and DSM wait there (dsm_wait.c).
	wait_until 30 sh -c "grep -q '^dsm $sp .* wait_away_ms [1-9]' /proc/popcorn_ps"
	dsm=$(grep "^dsm $sp " /proc/popcorn_ps)
	away=$(grep -A 20 "^process $sp " /proc/popcorn_ps | grep -m 1 ' node 1 run_ms ')
	cli=$(popcorn ps | grep -c 'away), ran [0-9]* ms, waited [0-9]* ms on the DSM')
	grep -A 14 "^process $sp " /proc/popcorn_ps | sed 's/^/# /'
	wait $sp
	echo "$dsm" | grep -q "^dsm $sp policy static wait_home_ms [0-9]* wait_away_ms [1-9][0-9]* called_home 0 pages_home 0$" &&
		echo "$away" | grep -q "^thread [0-9]* node 1 run_ms [0-9]* wait_ms [1-9]" &&
		[ "$cli" -ge 1 ]
	tap $? "popcorn ps: false sharing spread statically shows its thread's CPU time and DSM wait at node 1 ($dsm; $away; $cli in popcorn ps)"
	echo "$home" | grep -q "^thread [0-9]* node 0 run_ms [1-9][0-9]* wait_ms [1-9][0-9]* shared_ms [1-9]" &&
		[ "$clihome" -ge 1 ]
	tap $? "popcorn ps: and its worker at home with CPU time and a DSM wait node 1 caused ($home; $clihome in popcorn ps)"
	# hot PID ADDR transfers N nodes MASK
	set -- $hot
	echo "$share" | awk '{ exit !($4 > 0) }' && [ "${5:-0}" -ge 10 ] &&
		[ $((${7:-0} & 2)) -ne 0 ]
	tap $? "popcorn ps: false sharing spread shows its requests per second and its page moving to node 1 ($share; $hot)"
	# Page hold time (page_hold.c): false sharing spread statically,
	# with the default hold against none, side by side.  With it the
	# page stays with each node for a while and requests are deferred
	# ("fault hold"); without, it moves at every access.
	hold_iters=$(param hold_iters 10000)
	hold_work=$(param hold_work 10000)
	hp=/sys/module/pcn/parameters/page_hold_us
	hold_def=$(cat $hp)
	one=$(/bin/bench_share false 2 $hold_iters $hold_work)
	for h in 0 $hold_def; do
		echo $h > $hp
		n0=$(stat_key fault hold)
		r0=$(stat_type page_request recv)
		p0=$(($(stat_key fault remote_write) + $(stat_key fault remote_read)))
		t0=$(centis)
		two=$(popcorn run --nodes 0-1 --policy static -- \
			/bin/bench_share false 2 $hold_iters $hold_work)
		t1=$(centis)
		n=$(($(stat_key fault hold) - n0))
		pb=$(($(stat_key fault remote_write) + $(stat_key fault remote_read) - p0))
		echo "# hold $h us: false sharing spread $((t1 - t0)) cs, $n requests deferred, $(($(stat_type page_request recv) - r0)) page requests served, $pb pages taken back"
		[ -n "$one" ] && [ "$one" = "$two" ]
		tap $? "hold $h us: false sharing spread statically gives the one-node checksum"
		eval "hold_cs_$h=$((t1 - t0)) hold_n_$h=$n hold_p_$h=$pb"
	done
	echo $hold_def > $hp
	# The page moves at most half as often, and the run is not slower
	# (25 % for noise: a one-second run; make bench measures the gain).
	eval "on=\$hold_cs_$hold_def non=\$hold_n_$hold_def onp=\$hold_p_$hold_def"
	[ "$hold_n_0" -eq 0 ] && [ "$non" -gt 0 ] &&
		[ $((2 * onp)) -le "$hold_p_0" ] &&
		[ $((4 * on)) -le $((5 * hold_cs_0)) ]
	tap $? "hold: false sharing spread statically takes its pages back at most half as often with holds ($onp, $non requests deferred, $on cs) as without ($hold_p_0, $hold_n_0 deferred, $hold_cs_0 cs), and is not slower"
	# Adaptive placement (adaptive.c), popcorn run's default: false
	# sharing and a lock-heavy loop spread over nodes 0-1 have their
	# thread away called home and finish within 1.25x of one node, the
	# pages it wrote there coming home with it; private data is not
	# called home.  Each against its one-node run
	# of the moment (times in centiseconds of /proc/uptime).
	# The bound is 1.25x on tcp and shm; soft-RoCE's software queues
	# share the host's two cores with both guests' vCPUs, and what a
	# call home leaves to move back costs more there: 1.5x on rdma.
	adapt_num=5 adapt_den=4 adapt_bound=1.25x
	if [ "$(cmdline_param pcn.transport)" = rdma ]; then
		adapt_num=3 adapt_den=2 adapt_bound=1.5x
	fi
	adapt_iters=$(param adapt_iters 10000)
	adapt_work=$(param adapt_work 100000)
	for p in false lock private; do
		t0=$(centis)
		one=$(/bin/bench_share $p 2 $adapt_iters $adapt_work)
		t1=$(centis)
		popcorn run --nodes 0-1 -- /bin/bench_share $p 2 \
			$adapt_iters $adapt_work > /tmp/adapt.out &
		ap=$!
		wait $ap
		t2=$(centis)
		two=$(cat /tmp/adapt.out)
		called=$(dmesg | grep -c "of process $ap waits on the DSM")
		echo "# adaptive $p: one node $((t1 - t0)) cs, spread $((t2 - t1)) cs, called home $called"
		[ -n "$one" ] && [ "$one" = "$two" ]
		tap $? "adaptive: bench_share $p spread over nodes 0-1 gives the one-node checksum"
		if [ $p = private ]; then
			[ "$called" -eq 0 ]
			tap $? "adaptive: private data is not called home ($called calls)"
		else
			[ "$called" -ge 1 ] &&
				[ $((adapt_den * (t2 - t1))) -le $((adapt_num * (t1 - t0))) ]
			tap $? "adaptive: $p is called home and finishes within $adapt_bound of one node ($((t2 - t1)) cs against $((t1 - t0)) cs, $called calls)"
			# What its thread wrote at node 1 came home with it.
			homed=$(dmesg | grep "process $ap: [0-9]* pages written at node 1 came home")
			[ -n "$homed" ]
			tap $? "adaptive: the pages $p's thread wrote at node 1 came home in batches with it (${homed:-no log line})"
		fi
	done
	for f in tcp_rtt_64 tcp_rtt_4096 tcp_rtt_65536 popcorn_rtt_64 \
		 popcorn_rtt_4096 popcorn_rtt_65536 fault_local \
		 fault_remote_read fault_remote_write fault_write_replicated \
		 fault_origin_remote_owned seq_read_remote \
		 seq_read_remote_noprefetch rand_read_remote \
		 rand_read_remote_noprefetch free_remote_written \
		 free_remote_written_msgs release_remote_written \
		 release_remote_written_msgs release_remote_read \
		 release_remote_read_msgs migrate_rtt_small migrate_rtt_big; do
		sane $f
		tap $? "figure $f: samples, mean > 0, p50 <= p99"
	done
	# A one-way leg is read with node 1's view of this node's clock,
	# which may lag by as much as the leg itself under TCG: "out" may
	# be near 0 or below and "back" longer by as much; neither is
	# beyond twice its round trip, either way.
	for f in out_small back_small out_big back_big; do
		sane_leg migrate_$f migrate_rtt_${f#*_}
		tap $? "figure migrate_$f: samples, p50 <= p99, within twice its round trip"
	done
	popcorn ping 1 --count 1 > /dev/null
else
	/bin/bench_tcp server $port &
	# Node 0 is done when it pings this node outside its benchmark.
	wait_until 3000 sh -c ". /tests/lib.sh; [ \$(stat_type ping_request recv) -gt $((3 * samples)) ]"
	tap $? "node 0 finished"
	# RDMA: this node's faults registered their pages, and node 0 wrote
	# the grants' pages straight into them (no copy on this side).
	if [ "$PCN_TRANSPORT" = rdma ] && [ "$(cmdline_param pcn_rdma.place)" != 0 ]; then
		regs=$(stat_key rdma_registrations)
		placed=$(stat_key rdma_pages_placed)
		[ "$regs" -gt 0 ] && [ "$placed" -gt 0 ]
		tap $? "grants placed by RDMA WRITE: $placed pages for $regs registered requests"
		grep '^rdma_' /proc/popcorn_stat | sed 's/^/# /'
	fi
fi
