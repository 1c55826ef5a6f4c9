# Helpers for guest test scripts (sourced).  Output is TAP: the host
# harness numbers the lines and counts them.

# Returns CONDITION_STATUS, so that "tap $? ... || diagnose" works.
# Each result is preceded by the guest's uptime, for vm-test/profile.sh.
tap() {	# tap CONDITION_STATUS DESCRIPTION
	local up
	read -r up _ < /proc/uptime
	echo "# at $up"
	if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi
	return "$1"
}

# as_user COMMAND [ARGS...]: run COMMAND as the unprivileged user pcn
# (uid 1000, gid 1000, no supplementary groups), with its arguments
# passed unchanged.  Root needs no password for su.  busybox su reads
# options anywhere on its command line: "--" keeps COMMAND's own.
as_user() {
	su -s /bin/sh -c 'exec "$0" "$@"' pcn -- "$@"
}

# Value of a key=value parameter on the kernel command line.
cmdline_param() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

# cmdline_param_or NAME DEFAULT: cmdline_param NAME, or DEFAULT if unset.
cmdline_param_or() {
	local v
	v=$(cmdline_param "$1")
	echo "${v:-$2}"
}

# The transport this boot uses (pcn.transport=, tcp by default).
PCN_TRANSPORT=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^pcn.transport=//p' | tail -n 1)
PCN_TRANSPORT=${PCN_TRANSPORT:-tcp}

# skip DESCRIPTION REASON: a check that does not apply to this boot.
skip() {
	echo "ok - $1 # SKIP $2"
}

# Re-emit the KUnit results of suite $1 (from debugfs) as TAP lines.
kunit_results() {
	local suite=$1 f=/sys/kernel/debug/kunit/$1/results
	if [ ! -r "$f" ]; then
		echo "not ok - kunit suite $suite ran"
		return
	fi
	local cases
	cases=$(grep -cE '^[[:space:]]+(not )?ok [0-9]+ ' "$f")
	tap $([ "$cases" -gt 0 ]; echo $?) "kunit suite $suite reported $cases cases"
	grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$f" |
		sed -E 's/^[[:space:]]+(not )?ok [0-9]+ (- )?/\1ok - kunit '"$suite"': /'
	grep -qE '^(not )?ok [0-9]+ (- )?'"$suite"'$' "$f" ||
		echo "not ok - kunit suite $suite has a result line"
}

# wait_until SECONDS COMMAND...: run COMMAND every 0.2 s until it
# succeeds (return 0) or SECONDS have passed (return 1).  WAITED holds
# the seconds it took.
wait_until() {
	local limit=$1 start now
	shift
	start=$(date +%s)
	while :; do
		if "$@"; then
			WAITED=$(($(date +%s) - start))
			return 0
		fi
		now=$(date +%s)
		if [ $((now - start)) -ge "$limit" ]; then
			WAITED=$((now - start))
			return 1
		fi
		sleep 0.2
	done
}

# Number of nodes this node sees online.
online_count() {
	popcorn nodes | grep -c '^node [0-9]* online'
}

# This node's view of the cluster and its transport's log, as TAP
# comments: printed when a membership wait fails, so that the harness
# output shows why.
membership_diag() {
	popcorn nodes | sed 's/^/# view: /'
	# Per-peer lines, and the counters that are not 0.
	awk -v t="$PCN_TRANSPORT" '$1 == t "_peer" ||
		(($1 ~ "^" t "_" || $1 == "dropped") && $NF != 0)' /proc/popcorn_stat |
		tr '\n' ' ' | sed 's/^/# transport: /'
	echo
	dmesg | grep -E "pcn_$PCN_TRANSPORT|popcorn: (node|transport)" | tail -n 25 |
		sed 's/^/# log: /'
	# Below Popcorn: neighbours, packet counts, and whether each listed
	# address answers ARP.
	ip neigh show | sed 's/^/# neigh: /'
	for c in rx_packets tx_packets rx_dropped tx_dropped rx_errors; do
		printf '%s %s ' $c "$(cat /sys/class/net/eth0/statistics/$c)"
	done | sed 's/^/# link: /'
	echo
	for ip in $(cmdline_param pcn.nodes | tr ',' ' '); do
		arping -c 2 -w 3 -I eth0 "$ip" 2>&1 | tail -n 1 |
			sed "s/^/# arping $ip: /"
	done
}

all_online() {	# all_online N: exactly N nodes online
	[ "$(online_count)" -eq "$1" ]
}

# wait_all_online N SECONDS: wait until N nodes (this one included) are
# online; on a time-out print membership_diag.  WAITED as wait_until.
wait_all_online() {
	wait_until "$2" all_online "$1" && return 0
	membership_diag
	return 1
}

node_is_online() {	# node_is_online NID
	popcorn nodes | grep -q "^node $1 online"
}

node_is_offline() {
	! node_is_online "$1"
}

# stat_type TYPE FIELD: a per-type counter of /proc/popcorn_stat;
# FIELD is sent, sent_bytes, recv or recv_bytes.
stat_type() {
	awk -v t="$1" -v f="$2" '
		$1 == "type" { for (i = 2; i <= NF; i++) col[$i] = i }
		$1 == t && (f in col) { print $col[f]; found = 1 }
		END { if (!found) print 0 }' /proc/popcorn_stat
}

# stat_key KEY: a "KEY VALUE" line of /proc/popcorn_stat (transport
# counters), or "dropped REASON" with two words.
stat_key() {
	if [ $# -eq 2 ]; then
		awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3; f = 1 } END { if (!f) print 0 }' /proc/popcorn_stat
	else
		awk -v a="$1" 'NF == 2 && $1 == a { print $2; f = 1 } END { if (!f) print 0 }' /proc/popcorn_stat
	fi
}

stat_at_least() {	# stat_at_least MIN KEY [KEY2]
	local min=$1
	shift
	[ "$(stat_key "$@")" -ge "$min" ]
}

# Tasks in uninterruptible sleep, and every kernel worker that is not
# idle, with their kernel stacks when the kernel has them (the debug
# kernel): TAP comments for a hang.
blocked_tasks_diag() {
	local p state comm
	for p in /proc/[0-9]*; do
		state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "$p/status" 2>/dev/null)
		comm=$(cat "$p/comm" 2>/dev/null)
		[ "$state" = D ] || { [ "$state" = S ] && case "$comm" in
			kworker*|pcn*|test_*|plib_*) true ;; *) false ;; esac; } || continue
		echo "# task ${p#/proc/} $comm state $state wchan $(cat "$p/wchan" 2>/dev/null)"
		[ "$state" = D ] || [ "${comm#kworker}" != "$comm" ] || continue
		sed 's/^/#   /' "$p/stack" 2>/dev/null | head -n 12
	done
}

# lossy_on: netem drops 1 % of the packets this guest sends.
lossy_on() {
	/usr/sbin/tc qdisc add dev eth0 root netem loss 1%
}

# lossy_off: ends lossy_on; prints how many packets it dropped.
lossy_off() {
	/usr/sbin/tc -s qdisc show dev eth0 |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p'
	/usr/sbin/tc qdisc del dev eth0 root
}
