#!/bin/sh
# Node membership and syscall checks on one node (issue 2).
# Command line: pcn_case=valid|bogus_transport|bad_nodes|bad_nid
. /tests/lib.sh

nodes=$(cmdline_param pcn.nodes)
nr=$(echo "$nodes" | tr ',' '\n' | grep -c .)
nid=${pcn_expect_nid:-$(cmdline_param pcn.nid)}

case "$pcn_case" in
valid)
	/bin/test_nodeinfo "$nid" "$nr" "$nid"
	tap $? "test_nodeinfo exited 0"
	dmesg | grep -q "popcorn: node $nid of $nr "
	tap $? "kernel log announces node $nid of $nr"
	if [ -z "$(cmdline_param pcn.nid)" ]; then
		dmesg | grep -q "popcorn: node $nid of $nr ($(cmdline_param ip | cut -d: -f1))"
		tap $? "without pcn.nid, node id $nid found from own address"
	fi
	[ "$nid" = 0 ] && kunit_results popcorn_config
	;;
bogus_transport|bad_nodes|bad_nid)
	/bin/test_nodeinfo -1 0 ""
	tap $? "test_nodeinfo (Popcorn disabled) exited 0"
	case "$pcn_case" in
	bogus_transport) want="pcn.transport is not one of tcp, rdma, shm" ;;
	bad_nodes) want="pcn.nodes is not a comma-separated list of IPv4 addresses" ;;
	bad_nid) want="pcn.nid is not a position in pcn.nodes" ;;
	esac
	n=$(dmesg | grep -c "popcorn: $want .*Popcorn disabled")
	tap $([ "$n" -eq 1 ]; echo $?) "one log line refuses the configuration: $want"
	popcorn nodes | grep -q "popcorn disabled"
	tap $? "popcorn nodes reports Popcorn disabled"
	;;
*)
	echo "not ok - known pcn_case ($pcn_case)"
	;;
esac
