#!/bin/sh
# Full mesh of N nodes (8 in the suite): all come online, syscalls agree,
# and each node pings the next one.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
n=$(cmdline_param pcn.nodes | tr ',' '\n' | grep -c .)
all=$(seq -s, 0 $((n - 1)))

wait_all_online $n 120
tap $? "all $n nodes online (after ${WAITED}s)"
/bin/test_nodeinfo "$nid" "$n" "$all" > /tmp/nodeinfo.out
tap $? "popcorn_get_node_info: node $nid sees nodes $all online"
next=$(((nid + 1) % n))
popcorn ping "$next" --size 4096 --count 10 >/dev/null
tap $? "ping node $next"
