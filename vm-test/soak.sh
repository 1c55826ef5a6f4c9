#!/bin/bash
# make soak: boot the 3-node cluster N times (default 100), the guests
# in a random order, alternately staggered as in the suite's 3-node
# scenario and all at once as in the others, and count the
# boots in which some node did not see, or could not reach, another one.
# A failed boot's logs are kept in $VMDIR/soak-fail-K.
# Usage: soak.sh BZIMAGE INITRD   Environment: N, NODES (default 3), PCN_NET.
set -uo pipefail

N=${N:-100}
NODES=${NODES:-3}
NODE_TIMEOUT=${NODE_TIMEOUT:-180}
. "$(dirname "$0")/cluster.sh" "$@"

soak_cmdline() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list "$NODES") pcn.nid=$1" \
	     "pcn.transport=${PCN_TRANSPORT:-tcp} pcn_test=soak"
}

# boot_ok DIR: every node ran to the end, every check passed, and the
# kernel logged no report (SPLAT_RE of cluster.sh).
boot_ok() {
	local dir=$1 i

	for ((i = 0; i < NODES; i++)); do
		grep -q '^# done' "$dir/node$i.results" || return 1
		grep -q '^not ok' "$dir/node$i.results" && return 1
		grep -q '^ok - high-resolution clocksource' "$dir/node$i.results" || return 1
		grep -qE "$SPLAT_RE" "$dir/node$i.console" && return 1
	done
	return 0
}

echo "# soak: $N boots of $NODES nodes on segment '$PCN_NET', host TSC $HOST_TSC_KHZ kHz"
passed=0 failed=0
start=$SECONDS
for ((k = 1; k <= N; k++)); do
	t=$SECONDS
	# Odd boots start the guests a random fraction of a second apart,
	# even boots all at once: the VDE hub lost a pair only when the
	# QEMU processes attached to it close together.
	mode=shuffle
	[ $((k % 2)) -eq 0 ] && mode=shuffle-now
	cluster_boot soak "$NODES" "$NODE_TIMEOUT" soak_cmdline $mode
	if boot_ok "$VMDIR/soak"; then
		passed=$((passed + 1))
		echo "ok $k - boot $k: $(sed "s/^# soak: //" "$VMDIR/soak/boot-order"), $mode ($((SECONDS - t)) s)"
	else
		failed=$((failed + 1))
		echo "not ok $k - boot $k: $(sed "s/^# soak: //" "$VMDIR/soak/boot-order"), $mode ($((SECONDS - t)) s)"
		rm -rf "$VMDIR/soak-fail-$k"
		cp -r "$VMDIR/soak" "$VMDIR/soak-fail-$k"
		for ((i = 0; i < NODES; i++)); do
			grep -E '^not ok|^# (view|transport|log|neigh|link|arping)' \
				"$VMDIR/soak/node$i.results" | sed "s/^/  node$i: /"
			[ -e "$VMDIR/soak/node$i.results.host" ] &&
				sed "s/^/  node$i: /" "$VMDIR/soak/node$i.results.host"
		done
		echo "  logs kept in $VMDIR/soak-fail-$k"
	fi
done
echo "# soak: $N boots in $((SECONDS - start)) s"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
