#!/bin/bash
# make run: boot 2 nodes and print each node's view of the cluster.
# Usage: demo.sh BZIMAGE INITRD
set -uo pipefail

N=${NODES:-2}
. "$(dirname "$0")/cluster.sh" "$@"

demo_cmdline() {
	echo "$(base_cmdline "$1") pcn.nodes=$(node_list "$N") pcn.nid=$1" \
	     "pcn.transport=${PCN_TRANSPORT:-tcp} pcn_test=demo"
}

echo "Booting $N Popcorn nodes under QEMU (TCG)..."
cluster_boot demo "$N" "${NODE_TIMEOUT:-180}" demo_cmdline
rc=$?
for ((i = 0; i < N; i++)); do
	grep -v '^#' "$VMDIR/demo/node$i.results" | tr -d '\r'
	grep -h 'popcorn:' "$VMDIR/demo/node$i.console" | sed "s/^/  node$i kernel: /"
done
echo "Console logs: $VMDIR/demo/node*.console"
exit $rc
