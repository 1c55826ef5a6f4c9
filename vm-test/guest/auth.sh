#!/bin/sh
# Peer authentication, two clusters (pcn_case=):
#   key:   nodes 0 and 1 share the cluster key, node 2 has another one;
#          pcn.auth=required.  Node 1 also plays an unprivileged local
#          user posing as node 1 towards node 0, while node 0 runs a
#          distributed process on node 1.
#   nokey: no keys; nodes 0 and 1 run with the default pcn.auth (auto),
#          node 2 with pcn.auth=required.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
case=$(cmdline_param pcn_case)
# Round trips of the distributed process that runs during the attacks.
rounds=$(cmdline_param pcn_rounds)
big_mib=$(cmdline_param pcn_big_mib)
keyfile=/sys/firmware/qemu_fw_cfg/by_name/opt/popcorn/psk/raw
ATTACK_ROUNDS=4

# A node that must never come online here: give it 15 s after the
# others (every dialer retries at least every 2 s).
stays_offline() {	# stays_offline NID
	! wait_until 15 node_is_online "$1"
}

# On shm a local impostor would have to reach the shared segment: the
# ivshmem device's BAR, whose sysfs file only root may open.
shm_segment_private() {
	local dev

	dev=$(grep -l 0x1110 /sys/bus/pci/devices/*/device | head -n 1)
	dev=${dev%/device}
	[ -n "$dev" ] && [ -e "$dev/resource2" ] &&
		! as_user dd if="$dev/resource2" of=/dev/null bs=64 count=1 2>/dev/null &&
		! as_user dd if=/dev/zero of="$dev/resource2" bs=64 count=1 conv=notrunc 2>/dev/null
	tap $? "uid 1000 can neither read nor write the shared segment (${dev:-no device}/resource2)"
}

key_node0() {
	wait_until 90 node_is_online 1
	tap $? "node 1 (same key) online (after ${WAITED}s)"
	kunit_results popcorn_auth
	[ "$(stat_key auth_required)" = 1 ] && stat_at_least 1 auth_ok
	tap $? "popcorn_stat: auth_required 1, auth_ok $(stat_key auth_ok)"
	grep -q ' logon .*popcorn:psk' /proc/keys
	tap $? "the key is a logon key (never readable from user space) in the keyring"
	! as_user cat $keyfile >/dev/null 2>&1
	tap $? "the unprivileged user cannot read the key's fw_cfg file"
	# Node 2 dials us with the wrong key: it finds our proof wrong and
	# says so; it never comes online.
	wait_until 60 stat_at_least 1 auth_refused_by_peer
	tap $? "node 2 (wrong key) refused our proof (auth_refused_by_peer $(stat_key auth_refused_by_peer))"
	dmesg | grep -q "popcorn: node 2 refused this node"
	tap $? "kernel log: node 2 refused this node"
	stays_offline 2
	tap $? "node 2 (wrong key) never online"

	if [ "$PCN_TRANSPORT" = shm ]; then
		shm_segment_private
		popcorn ping 1 --count 10 >/dev/null
		tap $? "node 1 answers"
		return
	fi
	# A distributed process and a ping series run on node 1 while an
	# impostor attacks; node 1 starts attacking when pinged.
	accepts=$(stat_key "${PCN_TRANSPORT}_accepts")
	(
		while [ ! -e /tmp/attacks_over ]; do
			popcorn ping 1 --size 4096 --count 50 || exit 1
		done
	) > /tmp/ping.out 2>&1 &
	pingpid=$!
	/bin/test_migrate basic 1 "${rounds:-250}" -1 "${big_mib:-16}" > /tmp/migrate.out 2>&1 &
	migpid=$!
	wait_until 120 stat_at_least $((2 * ATTACK_ROUNDS)) auth_refused_proof &&
		wait_until 30 stat_at_least "$ATTACK_ROUNDS" auth_refused_policy
	tap $? "impostor refused: auth_refused_proof $(stat_key auth_refused_proof), auth_refused_policy $(stat_key auth_refused_policy)"
	touch /tmp/attacks_over
	dmesg | grep -q "popcorn: connection as node 1 did not prove the cluster key"
	tap $? "kernel log: the connection as node 1 did not prove the key"
	wait $migpid
	tap $? "distributed process on node 1 ran through the attacks: $(grep -c '^ok' /tmp/migrate.out) ok, $(grep -c '^not ok' /tmp/migrate.out) not ok"
	grep '^not ok' /tmp/migrate.out | sed 's/^/# /'
	wait $pingpid
	tap $? "ping series to node 1 ran through the attacks ($(grep -c 'payload verified' /tmp/ping.out) series of 50)"
	grep -v '^ping\|^latency\|^throughput\|^raw' /tmp/ping.out | sed 's/^/# /'
	! dmesg | grep -q "popcorn: node 1 offline" &&
		[ "$(stat_key "${PCN_TRANSPORT}_accepts")" -eq "$accepts" ] && node_is_online 1
	tap $? "the real connection of node 1 was never replaced nor lost"
	popcorn ping 1 --count 10 >/dev/null
	tap $? "node 1 still answers"
}

pinged_by_node0() {
	[ "$(stat_type ping_request recv)" -ge 1 ]
}

key_node1() {
	wait_until 90 node_is_online 0
	tap $? "node 0 (same key) online (after ${WAITED}s)"
	stays_offline 2
	tap $? "node 2 (wrong key) never online"
	if [ "$PCN_TRANSPORT" = shm ]; then
		shm_segment_private
		return
	fi
	# Node 0's ping series has started: attack, over this boot's
	# transport (pcn_impostor speaks TCP, pcn_rdma_garbage RDMA CM).
	if [ "$PCN_TRANSPORT" = rdma ]; then
		impostor="/bin/pcn_rdma_garbage MODE 10.77.0.1 30469 10.77.0.2 1"
	else
		impostor="/bin/pcn_impostor MODE 10.77.0.1 30467 10.77.0.2 1"
	fi
	wait_until 120 pinged_by_node0
	tap $? "node 0 started its traffic"
	for r in $(seq $ATTACK_ROUNDS); do
		for mode in badproof reflect noauth; do
			out=$(as_user $(echo "$impostor" | sed "s/MODE/$mode/"))
			tap $? "round $r: uid 1000 posing as node 1 ($mode) refused: $(echo $out | tr '\n' ' ')"
		done
	done
	node_is_online 0
	tap $? "node 0 still online here after the attacks"
}

key_node2() {
	stays_offline 0 && stays_offline 1
	tap $? "with the wrong key, nodes 0 and 1 never online"
	wait_until 30 stat_at_least 2 auth_refused_proof
	tap $? "nodes 0 and 1 did not prove our key (auth_refused_proof $(stat_key auth_refused_proof))"
	dmesg | grep -q "popcorn: connection as node 0 did not prove the cluster key"
	tap $? "kernel log: the connection as node 0 did not prove the key"
}

nokey_node0() {
	wait_until 90 node_is_online 1
	tap $? "without keys, node 1 online (pcn.auth default)"
	[ "$(stat_key auth_required)" = 0 ] && stat_at_least 1 auth_unauthenticated
	tap $? "popcorn_stat: auth_required 0, auth_unauthenticated $(stat_key auth_unauthenticated)"
	dmesg | grep -q "popcorn: node 1: connection is NOT AUTHENTICATED"
	tap $? "kernel log warns that the connection is not authenticated"
	stays_offline 2
	tap $? "node 2 (pcn.auth=required, no key) never online"
}

nokey_node1() {
	wait_until 90 node_is_online 0
	tap $? "without keys, node 0 online"
	dmesg | grep -q "popcorn: node 0: connection is NOT AUTHENTICATED"
	tap $? "kernel log warns that the connection is not authenticated"
}

nokey_node2() {
	[ "$(stat_key auth_required)" = 1 ]
	tap $? "popcorn_stat: auth_required 1"
	stays_offline 0 && stays_offline 1
	tap $? "pcn.auth=required without a key: no node online"
	dmesg | grep -q "waiting for the cluster key"
	tap $? "kernel log: waiting for the cluster key"
}

${case}_node$nid
