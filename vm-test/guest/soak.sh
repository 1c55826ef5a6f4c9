#!/bin/sh
# make soak: one boot of the 3-node cluster.  Every node must see every
# other node online and reach it with a ping; a failed wait prints this
# node's view down to its neighbour table (membership_diag).
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
n=$(cmdline_param pcn.nodes | tr ',' '\n' | grep -c .)

wait_all_online "$n" 120
tap $? "all $n nodes online (after ${WAITED}s)"
for peer in $(seq 0 $((n - 1))); do
	[ "$peer" -eq "$nid" ] && continue
	popcorn ping "$peer" --size 64 --count 3 >/dev/null
	tap $? "ping node $peer"
done
