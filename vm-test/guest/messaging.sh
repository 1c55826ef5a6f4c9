#!/bin/sh
# Messaging layer, the transport and membership on 3 nodes.
# Node 0 measures and checks; node 1 also plays the attacker; node 2 is
# killed by the harness on node 0's request.
. /tests/lib.sh

nid=${pcn_expect_nid:-$(cmdline_param pcn.nid)}
N=3
SIZES="64 4096 65536"
COUNT=20
PINGS_PER_PEER=$((COUNT * 3))

wait_all_online $N 120
tap $? "all $N nodes online (after ${WAITED}s)"
/bin/test_nodeinfo "$nid" "$N" "0,1,2"
tap $? "popcorn_get_node_info shows every node online, arch x86"
dmesg | grep -q "popcorn: node $nid of $N, transport $PCN_TRANSPORT\$"
tap $? "kernel log announces node $nid of $N, transport $PCN_TRANSPORT"
if [ -z "$(cmdline_param pcn.nid)" ]; then
	# The transport parsed pcn.nodes and found this node's address.
	dmesg | grep -q "pcn_$PCN_TRANSPORT: node $nid at $(cmdline_param ip | cut -d: -f1): listening"
	tap $? "without pcn.nid, node id $nid found from own address"
fi

# Node 1 and node 2 learn that node 0 has finished its pings when they
# have answered all of them.
pinged_by_node0() {	# pinged_by_node0 N
	[ "$(stat_type ping_request recv)" -ge "$1" ]
}

node0() {
	echo 1 > /proc/popcorn_stat
	[ "$(stat_type total sent)" -eq 0 ] && [ "$(stat_key dropped bad_type)" -eq 0 ]
	tap $? "writing /proc/popcorn_stat resets the counters"

	# The unprivileged user that the security tests run programs as.
	ids="$(as_user id -u) $(as_user id -g) $(as_user id -G)"
	[ "$ids" = "1000 1000 1000" ]
	tap $? "as_user runs a program as uid 1000, gid 1000, no other group (got $ids)"
	as_user popcorn nodes | grep -q "^$N node(s) online"
	tap $? "as_user runs popcorn nodes"
	for peer in 1 2; do
		for size in $SIZES; do
			s0=$(stat_type ping_request sent)
			b0=$(stat_type ping_request sent_bytes)
			r0=$(stat_type ping_response recv)
			out=$(popcorn ping "$peer" --size "$size" --count "$COUNT" 2>&1)
			tap $? "ping node $peer, $COUNT x $size bytes, payload verified"
			echo "$out" | sed 's/^/# /'
			if [ "$size" -eq 64 ]; then
				# On jiffies every round trip reads a multiple
				# of 4000 us (a jiffy, 4000.2 us at HZ=250).
				min=$(echo "$out" | sed -n 's/^latency us: min \([0-9.]*\) .*/\1/p')
				awk -v m="${min:-0}" 'BEGIN { r = m % 4000; exit !(m > 0 && r > 1 && r < 3999) }'
				tap $? "ping node $peer, 64 bytes: minimum round trip $min us, a microsecond figure"
			fi
			s1=$(stat_type ping_request sent)
			b1=$(stat_type ping_request sent_bytes)
			r1=$(stat_type ping_response recv)
			[ $((s1 - s0)) -eq "$COUNT" ] && [ $((r1 - r0)) -eq "$COUNT" ]
			tap $? "popcorn_stat: ping_request sent +$((s1 - s0)), ping_response recv +$((r1 - r0)) (want +$COUNT)"
			[ $((b1 - b0)) -eq $((COUNT * (24 + size))) ]
			tap $? "popcorn_stat: ping_request sent_bytes +$((b1 - b0)) (want $((COUNT * (24 + size))))"
		done
	done
	sent=$(stat_type ping_request sent)
	! as_user sh -c 'echo 1 > /proc/popcorn_stat' 2>/dev/null &&
		[ "$(stat_type ping_request sent)" -eq "$sent" ] && [ "$sent" -gt 0 ]
	tap $? "the unprivileged user cannot reset /proc/popcorn_stat"

	# Concurrent senders share one connection: 4 series at once.
	s0=$(stat_type ping_request sent)
	pids=
	for k in 1 2 3 4; do
		popcorn ping 1 --size $((16384 * k)) --count 10 >/tmp/cc$k 2>&1 &
		pids="$pids $!"
	done
	bad=0
	for p in $pids; do
		wait "$p" || bad=1
	done
	s1=$(stat_type ping_request sent)
	[ $bad -eq 0 ] && [ $((s1 - s0)) -eq 40 ]
	tap $? "4 concurrent ping series to node 1 all verified (+$((s1 - s0)) requests)"
	cat /tmp/cc* | grep -v '^ping\|^latency\|^throughput\|^raw' | sed 's/^/# /'

	! popcorn ping 1 --size 65537 --count 1 2>/dev/null
	tap $? "ping with a payload above 64 KiB is refused"
	! popcorn ping 0 --count 1 2>/dev/null
	tap $? "ping to self is refused"

	# Node 1 now attacks us; every kind of bad input must be counted.
	wait_until 60 stat_at_least 1 dropped bad_type
	tap $? "message of unknown type dropped and counted"
	wait_until 20 stat_at_least 1 dropped bad_size_for_type
	tap $? "message with a size wrong for its type dropped and counted"
	wait_until 20 stat_at_least 1 dropped bad_from_nid
	tap $? "message with a spoofed from_nid dropped and counted"
	if [ "$PCN_TRANSPORT" = tcp ]; then
		wait_until 30 stat_at_least 1 tcp_refused_handshake
		tap $? "garbage from a listed address refused at handshake and counted"
		wait_until 30 stat_at_least 1 tcp_refused_unlisted
		tap $? "connection from an unlisted address refused and counted"
		wait_until 30 stat_at_least 1 tcp_frame_errors
		tap $? "unframeable message ends the connection and is counted"
		wait_until 30 node_is_online 1
		tap $? "node 1 reconnected after the frame error (${WAITED}s)"
	elif [ "$PCN_TRANSPORT" = shm ]; then
		# Node 1 had the host write an impossible head index into
		# its ring to us: the ring is refused, the session ends.
		wait_until 30 stat_at_least 1 shm_frame_errors &&
			dmesg | grep -q "pcn_shm: ring from node 1 is broken"
		tap $? "ring with an impossible head (written through the host file) refused, counted and logged"
		wait_until 30 stat_at_least 1 dropped size_mismatch && node_is_online 1
		tap $? "message whose header size is not its record's length dropped as size_mismatch, node 1 online"
	else
		# Each SEND is one message: a size that is not the
		# message's own is dropped, the connection stays.
		wait_until 30 stat_at_least 1 rdma_refused_handshake
		tap $? "garbage from a listed address refused at handshake and counted"
		wait_until 30 stat_at_least 3 rdma_refused
		tap $? "requests without private data, naming another node or from an unlisted address refused and counted ($(stat_key rdma_refused))"
		wait_until 30 stat_at_least 1 rdma_bad_messages &&
			dmesg | grep -q "node 1 announced receive buffers it cannot have"
		tap $? "credits beyond the receive buffers refused, counted and logged"
		wait_until 30 stat_at_least 2 rdma_bad_messages
		tap $? "message whose header size is not its length dropped and counted"
		[ "$(stat_key dropped size_mismatch)" -ge 1 ] && node_is_online 1
		tap $? "counted as size_mismatch, node 1 still online"
	fi
	popcorn ping 1 --size 4096 --count 10 >/dev/null
	tap $? "node 0 still serves node 1 after the attacks"

	# Node loss: a ping series to node 2 is running when node 2 dies.
	popcorn ping 2 --size 64 --count 100000 >/tmp/ping2.out 2>&1 &
	pingpid=$!
	sleep 1
	echo "# kill node2"
	wait_until 30 node_is_offline 2
	tap $? "node 2 seen offline ${WAITED}s after its kill was requested"
	wait_until 15 sh -c "! kill -0 $pingpid 2>/dev/null"
	tap $? "ping in flight to the lost node ended (${WAITED}s after offline)"
	! wait $pingpid
	tap $? "ping in flight to the lost node failed: $(tail -n 1 /tmp/ping2.out)"
	! popcorn ping 2 --count 1 2>/dev/null
	tap $? "ping to an offline node fails at once"
	/bin/test_nodeinfo 0 "$N" "0,1"
	tap $? "syscalls show node 2 offline, migrate to it gives EAGAIN"
	popcorn ping 1 --size 4096 --count 10 >/dev/null
	tap $? "node 0 - node 1 traffic keeps working without node 2"

	# Node 2 boots again and rejoins.
	echo "# restart node2"
	wait_until 90 node_is_online 2
	tap $? "node 2 rejoined after a reboot (${WAITED}s)"
	popcorn ping 2 --size 4096 --count 10 >/dev/null
	tap $? "ping to the rebooted node 2"
	kunit_results popcorn_config
	kunit_results popcorn_ipv4_addr
	kunit_results popcorn_rdma_place
	kunit_results popcorn_shm
	kunit_results popcorn_kmsg
	kunit_results popcorn_membership
	kunit_results popcorn_revoke
	kunit_results popcorn_syscalls
	kunit_results popcorn_placement
	kunit_results popcorn_adaptive
	kunit_results popcorn_page_hold
	kunit_results popcorn_creds
}

node1() {
	# Node 0's series, then its 4 concurrent series of 10.
	wait_until 120 pinged_by_node0 $((PINGS_PER_PEER + 40))
	tap $? "answered node 0's $((PINGS_PER_PEER + 40)) pings"

	# Attacks on node 0 through the test hook, then from user space.
	inject=/sys/kernel/debug/popcorn/inject
	echo "0 999 64 1 64" > $inject
	tap $? "sent a message of unknown type to node 0"
	echo "0 1 20 1 20" > $inject
	tap $? "sent a ping_response too short for its type to node 0"
	echo "0 0 40 2 40" > $inject
	tap $? "sent a ping_request claiming to come from node 2 to node 0"
	case "$PCN_TRANSPORT" in
	tcp) tcp_attacks ;;
	shm) shm_attacks ;;
	*) rdma_attacks ;;
	esac
	echo "0 0 64 1 4294967295" > $inject
	tap $? "sent an unframeable message (size 4 GiB) to node 0"
	wait_until 30 node_is_online 0
	tap $? "connected to node 0 after it dropped the message (${WAITED}s)"

	# Node 0 asks for the kill when its own tests are done.
	wait_until 300 node_is_offline 2
	tap $? "node 2 seen offline after it was killed"
	popcorn ping 0 --size 4096 --count 10 >/dev/null
	tap $? "node 1 - node 0 traffic keeps working without node 2"
	wait_until 120 node_is_online 2
	tap $? "node 2 rejoined after a reboot"
	popcorn ping 2 --size 4096 --count 10 >/dev/null
	tap $? "ping to the rebooted node 2"
}

# silent_ended PREFIX DESCRIPTION PID...: the clients of silent
# connections (output in PREFIX*.out) all ended, each at about node 0's
# 3 s handshake time-out (measured here, from a little after node 0's
# clock started) and none after 6 s: the four waited side by side.
silent_ended() {
	local prefix=$1 desc=$2 p ok=0
	shift 2
	for p in "$@"; do wait "$p" || ok=1; done
	[ $ok -eq 0 ] && ! grep -qE "after ([01]\.|2\.[0-4]|[6-9]\.|[0-9]{2,}\.)" "$prefix"*.out
	tap $? "$desc: $(cat "$prefix"*.out | tr '\n' ' ')"
}

# RDMA CM connection requests to node 0, with pcn_rdma_garbage.
# The host writes, on our request, an impossible head index (2^31 - 1
# bytes published) into our ring to node 0 (shm_layout.h): node 0 must
# refuse the ring and end the session, and we connect again.
shm_attacks() {
	# shm_layout slots N ring_bytes R ring_base B ring_stride S ...
	set -- $(grep '^shm_layout ' /proc/popcorn_stat)
	off=$(($7 + (1 * $3 + 0) * $9))
	lost=$(stat_key shm_lost_by_peer)
	echo "# shm-write ring10head $off ffffff7f"
	wait_until 30 stat_at_least $((lost + 1)) shm_lost_by_peer
	tap $? "node 0 ended the session after our ring's head was broken (shm_lost_by_peer $(stat_key shm_lost_by_peer))"
	wait_until 30 node_is_online 0
	tap $? "connected to node 0 again after the broken ring (${WAITED}s)"
}

rdma_attacks() {
	g=/bin/pcn_rdma_garbage
	out=$($g nopriv 10.77.0.1 30469 10.77.0.2 1 2>&1)
	tap $? "node 0 rejected a connection request without Popcorn's private data: $out"
	out=$($g claim 10.77.0.1 30469 10.77.0.2 2 2>&1)
	tap $? "node 0 rejected a request naming node 2 from node 1's address: $out"
	out=$($g garbage 10.77.0.1 30469 10.77.0.2 1 2>&1)
	tap $? "node 0 ended a connection that sent garbage instead of a hello: $out"
	out=$($g credits 10.77.0.1 30469 10.77.0.2 1 2>&1)
	tap $? "node 0 ended a connection that announced 1000 receive buffers: $out"
	silent=
	for i in 1 2 3 4; do
		$g silent 10.77.0.1 30469 10.77.0.2 1 20 > /tmp/rsilent$i.out 2>&1 &
		silent="$silent $!"
	done
	sleep 1
	out=$($g garbage 10.77.0.1 30469 10.77.0.2 1 2 2>&1)
	tap $? "garbage refused within 2 s while four silent connections wait: $out"
	# (with the address and route resolution before the connection)
	silent_ended /tmp/rsilent "silent connections ended together at the handshake time-out" $silent
	ip addr add 10.77.0.99/24 dev eth0
	sleep 1
	out=$($g claim 10.77.0.1 30469 10.77.0.99 1 2>&1)
	tap $? "node 0 rejected a request as node 1 from an unlisted address: $out"
	ip addr del 10.77.0.99/24 dev eth0
	sleep 1
}

# Raw TCP connections to node 0's Popcorn port.
tcp_attacks() {
	/bin/pcn_garbage 10.77.0.1 30467
	tap $? "node 0 closed a connection that sent garbage instead of a hello"
	# Peers that connect and never say hello hold up nobody else: with
	# four of them waiting for their 3 s handshake time-out, garbage is
	# still refused at once.
	silent=
	for i in 1 2 3 4; do
		/bin/pcn_garbage -s -t 20 10.77.0.1 30467 > /tmp/silent$i.out &
		silent="$silent $!"
	done
	sleep 1
	/bin/pcn_garbage -t 2 10.77.0.1 30467 > /tmp/quick.out
	tap $? "garbage refused within 2 s while four silent connections wait: $(cat /tmp/quick.out)"
	silent_ended /tmp/silent "silent connections closed together at the handshake time-out" $silent
	ip addr add 10.77.0.99/24 dev eth0
	/bin/pcn_garbage 10.77.0.1 30467 10.77.0.99
	tap $? "node 0 closed a connection from an unlisted address"
	ip addr del 10.77.0.99/24 dev eth0
	sleep 1
}

node2() {
	if [ "$pcn_boot" = 2 ]; then
		# Rebooted: the checks above (all online, syscalls) were the test.
		return
	fi
	wait_until 120 pinged_by_node0 $PINGS_PER_PEER
	tap $? "answered node 0's $PINGS_PER_PEER pings"
}

node$nid
