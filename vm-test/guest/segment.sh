#!/bin/sh
# Shared-memory transport: damage written into the shared
# segment through the host file.  Node 0 has the harness write a bad
# layout header (magic, version, then a field the check covers) and
# restore it; each time both nodes must refuse the header with a log
# line, stay offline while it is bad, and connect again once it is
# restored.  Then a consumer's tail beyond its ring: the producer must
# refuse the ring at its next send and reconnect.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"

# damage NAME OFFSET BAD GOOD LOG: have BAD written at OFFSET of the
# segment, then GOOD; LOG is how the refusal's log line starts.
damage() {
	local name=$1 off=$2 bad=$3 good=$4 want=$5 errs

	errs=$(stat_key shm_layout_errors)
	echo "# shm-write $name-bad $off $bad"
	wait_until 30 node_is_offline 1
	tap $? "$name: node 1 offline ${WAITED}s after the write"
	[ "$(stat_key shm_layout_errors)" -gt "$errs" ] &&
		dmesg | grep -q "pcn_shm: layout header refused ($want"
	tap $? "$name: header refused, counted and logged: $(dmesg | grep 'layout header refused' | tail -n 1 | cut -d']' -f2)"
	grep -q '^shm_layout .* valid 0$' /proc/popcorn_stat
	tap $? "$name: /proc/popcorn_stat shows the layout invalid"
	! popcorn ping 1 --count 1 >/dev/null 2>&1
	tap $? "$name: ping to node 1 fails while the header is bad"
	sleep 3
	node_is_offline 1
	tap $? "$name: node 1 still offline 3 s later"
	echo "# shm-write $name-good $off $good"
	wait_until 60 node_is_online 1
	tap $? "$name: node 1 online again ${WAITED}s after the header was restored"
	grep -q '^shm_layout .* valid 1$' /proc/popcorn_stat
	tap $? "$name: /proc/popcorn_stat shows the layout valid"
	popcorn ping 1 --size 65536 --count 5 >/dev/null
	tap $? "$name: ping node 1 with 64 KiB payloads, verified"
}

if [ "$nid" = 0 ]; then
	# struct pcn_shm_header: magic at 0, version at 4, reserved at 40.
	damage magic 0 efbeadde 50435348 "magic 0xdeadbeef"
	damage version 4 02000000 01000000 "magic 0x48534350 version 2"
	damage reserved 40 01000000 00000000 "magic 0x48534350 version 1 slots 2"
	dmesg | grep 'layout header refused' | tail -n 1 | grep -q 'bad check)'
	tap $? "a changed field is caught by the header's check value"

	# Node 1's tail in our ring to it: ring (0, 1), consumer line at
	# byte 64 of its control page.
	set -- $(grep '^shm_layout ' /proc/popcorn_stat)
	off=$(($7 + (0 * $3 + 1) * $9 + 64))
	frames=$(stat_key shm_frame_errors)
	echo "# shm-write tail01 $off ffffff7f"
	sleep 2
	! popcorn ping 1 --count 1 >/dev/null 2>&1
	tap $? "ping fails when node 1's tail is beyond the ring"
	[ "$(stat_key shm_frame_errors)" -gt "$frames" ] &&
		dmesg | grep -q "pcn_shm: send to node 1 failed (-71)"
	tap $? "the broken ring was refused, counted and logged"
	wait_until 60 node_is_online 1
	tap $? "node 1 online again ${WAITED}s later, on a new session"
	popcorn ping 1 --size 4096 --count 10 >/dev/null
	tap $? "ping node 1 after the reconnection"
	echo "# node 0 done"
else
	# Four recoveries (three headers, one ring) after the first
	# connection; node 0 pings after each.
	wait_until 400 sh -c "[ \$(dmesg | grep -c 'popcorn: node 0 online') -ge 5 ]"
	tap $? "node 0 came online 5 times (first connection and 4 recoveries)"
	[ "$(dmesg | grep -c 'pcn_shm: layout header refused')" -ge 3 ]
	tap $? "this node refused each of the 3 bad headers too"
	pinged() {
		[ "$(stat_type ping_request recv)" -ge 25 ]
	}
	wait_until 120 pinged
	tap $? "answered node 0's pings ($(stat_type ping_request recv))"
fi
