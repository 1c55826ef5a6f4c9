#!/bin/sh
# make run: show this node's view of the cluster once every node is up.
. /tests/lib.sh

n=$(cmdline_param pcn.nodes | tr ',' '\n' | grep -c .)
wait_all_online $n 120
echo "== node $(cat /proc/sys/kernel/hostname): popcorn nodes (all $n online after ${WAITED}s)"
popcorn nodes
echo "== popcorn status"
popcorn status
if [ "$(cmdline_param pcn.nid)" = 0 ] && [ "$n" -gt 1 ]; then
	echo "== popcorn ping 1 --size 4096 --count 20"
	popcorn ping 1 --size 4096 --count 20
	echo 1 > /proc/popcorn_stat
	echo "== popcorn-demo 1: a thread migrates to node 1 and back"
	popcorn-demo 1
	echo "== /proc/popcorn_stat"
	cat /proc/popcorn_stat
fi
