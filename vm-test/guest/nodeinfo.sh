#!/bin/sh
# A refused Popcorn configuration: the node boots with Popcorn disabled.
# Command line: pcn_case=bogus_transport|bad_nodes|bad_nid|absent_transport
. /tests/lib.sh

nodes=$(cmdline_param pcn.nodes)
nr=$(echo "$nodes" | tr ',' '\n' | grep -c .)
nid=${pcn_expect_nid:-$(cmdline_param pcn.nid)}

case "$pcn_case" in
bogus_transport|bad_nodes|bad_nid|absent_transport)
	/bin/test_nodeinfo -1 0 ""
	tap $? "test_nodeinfo (Popcorn disabled) exited 0"
	case "$pcn_case" in
	bogus_transport) want="pcn.transport is not a transport name" ;;
	bad_nodes) want="pcn.nodes holds an entry the transport does not take" ;;
	bad_nid) want="pcn.nid is not a position in pcn.nodes" ;;
	absent_transport) want="transport loop: not built into this kernel" ;;
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
