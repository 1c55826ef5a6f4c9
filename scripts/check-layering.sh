#!/bin/bash
# The layering of Documentation/popcorn/messaging.rst, checked in the
# sources: the messaging core and membership reach a transport only
# through its ops table and know no address family or transport name;
# a transport calls only the core, membership and the handshake, never
# a server.  Prints one "STATUS DESCRIPTION" line per check (0 = holds),
# for vm-test/suite.sh; an offending line is printed after it with "#".
# Usage: check-layering.sh REPO_DIR
set -uo pipefail
cd "$1" || exit 1

# check DESCRIPTION COMMAND...: holds when COMMAND prints nothing.
check() {
	local desc=$1 out
	shift
	out=$("$@" 2>&1)
	if [ -z "$out" ]; then
		echo "0 $desc"
	else
		echo "1 $desc"
		echo "$out" | head -n 5 | sed 's/^/# /'
	fi
}

# Code lines only: C comments and the text of strings do not count.
code() {	# code FILE...: "file:line:text" without comments
	awk '
		FNR == 1 { inc = 0 }
		{
			line = $0
			if (inc) {
				if (sub(/.*\*\//, "", line)) inc = 0; else next
			}
			gsub(/\/\*.*\*\//, "", line)
			if (sub(/\/\*.*/, "", line)) inc = 1
			sub(/\/\/.*/, "", line)
			print FILENAME ":" FNR ":" line
		}' "$@"
}

core=$(ls kernel/popcorn/*.c kernel/popcorn/*.h include/popcorn/*.h | grep -v '_test\.c$')
transports=$(ls drivers/pcn_transport/*.c drivers/pcn_transport/*.h | grep -v '_test\.c$')

check "the core includes no transport header" \
	grep -nE '#include.*(pcn_transport|"(tcp|rdma|shm|ipv4_addr)\.h")' $core
check "the core calls no transport function" \
	sh -c "$(declare -f code); code $(echo $core) | grep -E '\\bpcn_(tcp|rdma|ipv4|shm)_[a-z0-9_]*[[:space:]]*\\('"
check "the core parses no IPv4 address" \
	sh -c "$(declare -f code); code $(echo $core) | grep -E 'in4_pton|in_aton|ipv4_is_|__be32|%pI4|sockaddr_in\\b'"
check "the core names no transport (it looks up what registered)" \
	sh -c "$(declare -f code); code $(echo $core) | grep -E '\"(tcp|rdma|shm)\"'"
check "membership and the messaging core call no server" \
	sh -c "$(declare -f code); code kernel/popcorn/nodes.c kernel/popcorn/membership.c kernel/popcorn/kmsg*.c kernel/popcorn/wait.c kernel/popcorn/config.c | grep -E '\\bpcn_(process|page|vma|migrate|futex|remote|revoke|fault|signal|file|worker|prefetch)_[a-z0-9_]*[[:space:]]*\\('"
check "transports include only the core's, membership's and the handshake's headers" \
	sh -c "grep -nE '#include <popcorn/' $(echo $transports) | grep -vE '<popcorn/(pcn_kmsg|nodes|auth)\\.h>'"

# Every pcn_ function a transport calls is its own or one those headers
# declare.
allowed=$(grep -ohE '\bpcn_[a-z0-9_]+[[:space:]]*\(' include/popcorn/pcn_kmsg.h \
	  include/popcorn/nodes.h include/popcorn/auth.h | tr -d '( \t' | sort -u)
foreign() {
	code $transports | grep -oE '\bpcn_[a-z0-9_]+[[:space:]]*\(' | tr -d '( \t' |
		sort -u | grep -vE '^pcn_(tcp|rdma|shm|ipv4)_' |
		grep -vxF -f <(echo "$allowed")
}
check "transports call only the core, membership and the handshake" foreign
