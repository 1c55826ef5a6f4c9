#!/bin/sh
# Unmodified multithreaded programs from Debian's packages, spread over
# the cluster by "popcorn run": the same output as on one node, threads
# that really ran away from the origin.  First the placement policy
# itself, with test_place (a program that only reads where it runs).
# Node 0 runs everything; nodes 1 and 2 host threads.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
T=3			# threads of each program
LIMIT=${APPS_LIMIT:-90}	# seconds a program may take (all take under 10)

wait_all_online 3 120
tap $? "all three nodes online (after ${WAITED}s)"
if [ "$nid" = 2 ]; then
	# At node 0's ping, stall the workers here: a placement to this
	# node then waits for an answer until node 0 has it killed.
	wait_until 1500 sh -c '. /tests/lib.sh; [ $(stat_type ping_request recv) -ge 1 ]'
	tap $? "node 0 is done with the programs (${WAITED}s)"
	echo "worker_stall 1" > /sys/kernel/debug/popcorn/fail
	tap $? "workers of node 2 stalled"
	popcorn ping 0 --count 1 > /dev/null
	tap $? "node 0 told that node 2 is stalled"
	exit 0
fi
if [ "$nid" = 1 ] && [ "$(cmdline_param pcn.transport)" != shm ]; then
	# Node 0's first ping starts the lossy phase here, its second ends it.
	wait_until 1500 sh -c '. /tests/lib.sh; [ $(stat_type ping_request recv) -ge 1 ]'
	tap $? "node 0 starts the lossy phase (${WAITED}s)"
	lossy_on
	tap $? "netem drops 1 % of node 1's packets"
	popcorn ping 0 --count 1 > /dev/null
	wait_until 600 sh -c '. /tests/lib.sh; [ $(stat_type ping_request recv) -ge 2 ]'
	tap $? "node 0 ends the lossy phase (${WAITED}s)"
	dropped=$(lossy_off)
	[ "${dropped:-0}" -gt 0 ]
	tap $? "netem dropped ${dropped:-no} of node 1's packets meanwhile"
fi
[ "$nid" != 0 ] && exit 0

migrations() {
	stat_type task_migrate sent
}

# --- placement ----------------------------------------------------------

out=$(popcorn run -- /bin/test_place 6 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "$out" | grep -qx "first 1 2 0 1 2 0"
tap $? "popcorn run: 6 threads placed 1 2 0 1 2 0 (fewest first, lowest id on a tie), each there before its first line"
echo "$out" | grep -qx "main 0"
tap $? "popcorn run: the main thread stays at the origin"

out=$(popcorn run --nodes 1-2 -- /bin/test_place 4 2>&1)
[ $? -eq 0 ] && echo "$out" | grep -qx "first 1 2 1 2"
tap $? "popcorn run --nodes 1-2: threads only on nodes 1 and 2 ($(echo "$out" | grep first))"

# Through a shell: a child process inherits the policy, exec keeps it.
# (A command after it, or busybox's sh execs it without a fork.)
out=$(popcorn run --nodes 0,2 -- sh -c '/bin/test_place 2; true' 2>&1)
[ $? -eq 0 ] && echo "$out" | grep -qx "first 2 0"
tap $? "the policy passes to a child process and through execve ($(echo "$out" | grep first))"

# Without a policy nothing moves.
out=$(/bin/test_place 3 2>&1)
echo "$out" | grep -qx "first 0 0 0"
tap $? "no policy: every thread at the origin ($(echo "$out" | grep first))"

# A privilege-changing exec drops the policy of its unprivileged caller.
cp /bin/test_place /tmp/test_place_suid
chmod 4755 /tmp/test_place_suid
out=$(as_user popcorn run -- /tmp/test_place_suid 2 2>&1)
echo "$out" | grep -qx "first 0 0"
tap $? "a setuid program run by uid 1000 under popcorn run is not placed ($(echo "$out" | grep first))"
out=$(as_user popcorn run -- /bin/test_place 2 2>&1)
echo "$out" | grep -qx "first 1 2"
tap $? "uid 1000's own program is placed ($(echo "$out" | grep first))"

# Bad input.
out=$(popcorn run --nodes 9 -- /bin/true 2>&1)
rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "not in this cluster"
tap $? "popcorn run --nodes 9 refused (exit $rc): $out"
dmesg | grep -q "names a node beyond pcn.nodes"
tap $? "the refusal of node 9 is logged"
out=$(popcorn run --nodes 1-x -- /bin/true 2>&1)
[ $? -eq 2 ]
tap $? "popcorn run --nodes 1-x: malformed list refused: $out"

# popcorn spread: a running process, existing threads too.
/bin/test_place 4 6000 > /tmp/spread.out 2>&1 &
sp=$!
sleep 1
out=$(as_user popcorn spread $sp 2>&1)
rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "Operation not permitted"
tap $? "uid 1000 may not spread root's process $sp: $out"
out=$(popcorn spread $sp 2>&1)
tap $? "popcorn spread $sp: $out"
echo "$out" | grep -q ": 3 thread(s) placed"
tap $? "spread places 3 of the 4 existing threads elsewhere (main and one stay)"
ps_out=$(popcorn ps)
echo "$ps_out" | sed 's/^/# ps: /'
echo "$ps_out" | grep -q "^ *$sp all .* test_place$"
tap $? "popcorn ps lists process $sp with its policy"
echo "$ps_out" | grep -q "tid .* node [12] (away)"
tap $? "popcorn ps shows threads away from the origin"
out=$(as_user popcorn ps)
rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^ *PID PLACEMENT" &&
	! echo "$out" | grep -q "^ *$sp "
tap $? "uid 1000 does not see root's process in popcorn ps (exit $rc)"
wait $sp
rc=$?
cat /tmp/spread.out | sed 's/^/# /'
[ $rc -eq 0 ] && grep -q "^last" /tmp/spread.out &&
	[ "$(grep '^last' /tmp/spread.out | tr ' ' '\n' | grep -c '^[12]$')" -eq 3 ]
tap $? "the spread threads ended on nodes 1 and 2 (exit $rc)"

# --- glibc's rseq ----------------------------------------------------------

timeout 120 /bin/test_rseq
tap $? "test_rseq exited 0"

# --- unmodified programs ------------------------------------------------

# About 1 MiB: text, a binary, more text; the same on every boot.
{ seq 1 40000; head -c 400000 /bin/busybox; seq 1 3 150000; } > /tmp/in
echo "# input: $(wc -c < /tmp/in) bytes"

# spread NODES CMD...: run CMD under popcorn run --nodes NODES; sets
# RC, MOVED (migrations made meanwhile) and SECS.
spread() {
	local nodes=$1 m0 t0
	shift
	m0=$(migrations)
	t0=$(date +%s)
	timeout $LIMIT popcorn run --nodes "$nodes" -- "$@"
	RC=$?
	SECS=$(($(date +%s) - t0))
	MOVED=$(($(migrations) - m0))
}

# hung NAME: true, with a failed check, when the last spread run was
# killed at the time limit (a thread slept on for ever: a lost wake-up).
hung() {
	[ $RC -eq 143 ] || [ $RC -eq 124 ] || return 1
	tap 1 "$1 on $n nodes: killed after ${SECS}s, a thread slept on for ever"
}

# compressor NAME DECOMPRESS CMD...: CMD (compressing /tmp/in to
# stdout) spread over $nodes against the same command on one node;
# DECOMPRESS reads the output on stdin.
compressor() {
	local name=$1 unpack=$2
	shift 2
	"$@" > /tmp/ref.$name
	spread $nodes "$@" > /tmp/out.$name
	hung $name && return
	tap $RC "$name on $n nodes exited 0 (exit $RC, ${SECS}s)"
	$unpack < /tmp/out.$name | cmp -s - /tmp/in
	tap $? "$name on $n nodes: decompresses to the input"
	cmp -s /tmp/out.$name /tmp/ref.$name
	tap $? "$name on $n nodes: byte-identical to the same command on one node"
	[ $MOVED -ge 1 ]
	tap $? "$name on $n nodes: threads ran away from the origin ($MOVED migrations)"
	rm -f /tmp/out.$name /tmp/ref.$name
}

# sysbench_spread TEST EVENTS WHAT ARGS...: sysbench TEST with $T threads
# spread over $nodes; it must report EVENTS events (WHAT says why).
sysbench_spread() {
	local test=$1 events=$2 what=$3
	shift 3
	spread $nodes /usr/bin/sysbench $test --threads=$T "$@" run \
		> /tmp/sb.out 2>&1
	hung "sysbench $test" && return
	tap $RC "sysbench $test on $n nodes exited 0 (exit $RC, ${SECS}s)"
	grep -q "total number of events: *$events$" /tmp/sb.out
	tap $? "sysbench $test on $n nodes: $what ($(grep 'total number of events' /tmp/sb.out))"
	[ $MOVED -ge 1 ]
	tap $? "sysbench $test on $n nodes: threads ran away from the origin ($MOVED migrations)"
	[ $RC -eq 0 ] || sed 's/^/# /' /tmp/sb.out
}

# Over two nodes and over three on tcp; over three on the other
# transports: the programs exercise the same core code on each, and
# a transport's own paths see the busier 3-node runs.
spans="0-1 0-2"
[ "$(cmdline_param pcn.transport)" = tcp ] || spans=0-2
for nodes in $spans; do
	n=$(( ${nodes#0-} + 1 ))
	# xz: small blocks so that every thread gets some.
	compressor xz "/usr/bin/xz -dc" /usr/bin/xz -T$T -1 --block-size=131072 -c /tmp/in
	compressor zstd "/usr/bin/zstd -q -dc" /usr/bin/zstd -q -T$T -3 -B524288 -c /tmp/in
	compressor pigz "/usr/bin/pigz -dc" /usr/bin/pigz -p $T -b 128 -c /tmp/in

	# 7-Zip's bzip2 encoder: a thread per block (100 kB at -mx1).
	/usr/bin/7z a -bd -tbzip2 -mmt$T -mx1 /tmp/ref.bz2 /tmp/in > /dev/null
	spread $nodes /usr/bin/7z a -bd -tbzip2 -mmt$T -mx1 /tmp/out.bz2 /tmp/in > /tmp/7z.out 2>&1
	hung 7z ||
	{
	tap $RC "7z a -tbzip2 -mmt$T on $n nodes exited 0 (exit $RC, ${SECS}s)"
	[ $RC -eq 0 ] || sed 's/^/# /' /tmp/7z.out
	/usr/bin/7z t /tmp/out.bz2 > /tmp/7z.out 2>&1 && grep -q "Everything is Ok" /tmp/7z.out
	tap $? "7z on $n nodes: the archive tests good"
	/usr/bin/7z x -so /tmp/out.bz2 2>/dev/null | cmp -s - /tmp/in
	tap $? "7z on $n nodes: extracts to the input"
	cmp -s /tmp/out.bz2 /tmp/ref.bz2
	tap $? "7z on $n nodes: byte-identical to the same command on one node"
	[ $MOVED -ge 1 ]
	tap $? "7z on $n nodes: threads ran away from the origin ($MOVED migrations)"
	}
	rm -f /tmp/out.bz2 /tmp/ref.bz2

	sysbench_spread cpu 60 "60 events, as asked" --events=60 --time=0 \
		--cpu-max-prime=2000

	# Cross-node locking: every lock is a futex at the origin and a
	# page that moves.  test_locks checks the pattern of sysbench's
	# mutex test: no lost write, no lost wake-up (a hang).
	spread $nodes /bin/test_locks $T 300 64 > /tmp/locks.out 2>&1
	hung test_locks ||
	{
	tap $RC "test_locks on $n nodes: every locked increment counted ($(cat /tmp/locks.out), ${SECS}s)"
	}
	# sysbench's unlock leaves garbage in the wake's unused arguments.
	sysbench_spread mutex $T "one event per thread" --mutex-num=64 \
		--mutex-locks=300 --mutex-loops=50
	sysbench_spread threads 30 "30 events, as asked" --events=30 \
		--time=0 --thread-yields=10 --thread-locks=4
done

# --- job control ---------------------------------------------------------

# Busybox sh with job control (set -m, the console as its controlling
# terminal) runs sysbench spread over the three nodes in the background:
# kill -TSTP %1 stops every thread (they come home to stop), bg takes it
# up where it was, and after a second stop fg waits for it in the
# foreground.  /tmp/jc.log gets what the shell saw, one "key value" a
# line; /proc/popcorn_ps says where each thread is.
cat > /tmp/jc.sh <<'EOF'
set -m
away() {
	awk -v p=$pid '$1 == "process" { on = $2 == p }
		on && $1 == "thread" && $4 != 0 { n++ } END { print n + 0 }' \
		/proc/popcorn_ps
}
states() {
	cat /proc/$pid/task/*/stat 2>/dev/null | sed 's/.*) //' | cut -c1 |
		sort | uniq -c | tr -s ' \n' ' '
}
# Until CMD... holds, 30 s at most.
until_() {
	local i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge 300 ] && return 1
		sleep 0.1
	done
}
spread_away() { [ "$(away)" -ge 2 ]; }
stopped() { grep -q '^State:.*T (stopped)' /proc/$pid/status; }
popcorn run --nodes 0-2 -- /usr/bin/sysbench cpu --threads=3 --time=16 \
	--events=0 --cpu-max-prime=2000 run > /tmp/jc.out 2>&1 &
pid=$!
until_ spread_away
echo "spread $(away)"
kill -TSTP %1
until_ stopped
echo "stopped1 $(grep '^State:' /proc/$pid/status | tr -d '\t')"
echo "states1 $(states)"
echo "away1 $(away)"
jobs %1 > /tmp/jc.jobs
echo "jobs1 $(cat /tmp/jc.jobs)"
bg %1
jobs %1 > /tmp/jc.jobs
echo "jobs2 $(cat /tmp/jc.jobs)"
until_ spread_away
echo "respread $(away)"
kill -TSTP %1
until_ stopped
echo "stopped2 $(grep '^State:' /proc/$pid/status | tr -d '\t')"
fg %1 > /dev/null
echo "fg $?"
EOF
t0=$(date +%s)
m0=$(migrations)
setsid -c sh /tmp/jc.sh < /dev/ttyS0 > /tmp/jc.log 2>&1
sed 's/^/# jc: /' /tmp/jc.log
jc() { sed -n "s/^$1 //p" /tmp/jc.log; }
[ "$(jc spread)" -ge 2 ]
tap $? "job control: sysbench in the background under popcorn run has threads away ($(jc spread))"
jc stopped1 | grep -q "T (stopped)"
tap $? "job control: kill -TSTP %1 stops it ($(jc stopped1))"
jc states1 | grep -Eqx " *[2-9] T *"
tap $? "job control: every thread stopped (count, state:$(jc states1))"
[ "$(jc away1)" = 0 ]
tap $? "job control: no thread away while stopped ($(jc away1) away)"
jc jobs1 | grep -q "Stopped"
tap $? "job control: jobs says Stopped ($(jc jobs1))"
jc jobs2 | grep -q "Running"
tap $? "job control: bg %1 runs it in the background ($(jc jobs2))"
[ "$(jc respread)" -ge 2 ]
tap $? "job control: after bg its threads are away again ($(jc respread))"
jc stopped2 | grep -q "T (stopped)"
tap $? "job control: stopped a second time ($(jc stopped2))"
[ "$(jc fg)" = 0 ] && grep -q "total number of events: *[1-9]" /tmp/jc.out
tap $? "job control: fg %1 waits for it; it exits 0 with its events ($(jc fg), $(grep 'total number of events' /tmp/jc.out | tr -s ' '), $(($(date +%s) - t0))s, $(($(migrations) - m0)) migrations)"

# --- a lossy link --------------------------------------------------------

# netem drops 1 % of the packets nodes 0 and 1 send: TCP and soft-RoCE
# (over UDP) retransmit them.  A DSM program over the two nodes gives
# exact results and no connection ends (soft-RoCE lost it when a retry
# ran a memory registration of node 1's page requests again).  shm has
# no network in its path.
if [ "$(cmdline_param pcn.transport)" != shm ]; then
	ended=$(dmesg | grep -c "popcorn: node 1 offline")
	lost=$(stat_key lost_vital)
	popcorn ping 1 --count 1 > /dev/null	# node 1: netem on
	lossy_on
	tap $? "netem drops 1 % of node 0's packets"
	wait_until 30 sh -c '. /tests/lib.sh; [ $(stat_type ping_request recv) -ge 1 ]'
	tap $? "node 1 drops 1 % of its packets too (${WAITED}s)"
	t0=$(date +%s)
	timeout $LIMIT /bin/test_dsm 2 300 > /tmp/dsm.out 2>&1
	rc=$?
	grep "not ok" /tmp/dsm.out | sed 's/^/# /'
	# Whether the lock went across nodes often is timing, not a result.
	[ $rc -le 1 ] && grep -q "^ok .*sum:" /tmp/dsm.out &&
		! grep "^not ok" /tmp/dsm.out | grep -qv "the lock went across"
	tap $? "test_dsm under loss: every result exact (exit $rc, $(($(date +%s) - t0))s)"
	dropped=$(lossy_off)
	[ "${dropped:-0}" -gt 0 ]
	tap $? "netem dropped ${dropped:-no} of node 0's packets meanwhile"
	popcorn ping 1 --count 1 > /dev/null	# node 1: netem off
	[ "$(dmesg | grep -c "popcorn: node 1 offline")" -eq "$ended" ] &&
		[ "$(stat_key lost_vital)" -eq "$lost" ]
	tap $? "under loss no connection ended and no message was lost"
fi

# --- a node lost while threads are being placed -------------------------

# Node 2 stalls its workers at this ping: two threads placed there wait
# for an answer; then node 2 is killed.  They go on at the origin.
pings=$(stat_type ping_request recv)
popcorn ping 2 --count 1 > /dev/null
wait_until 60 sh -c ". /tests/lib.sh; [ \$(stat_type ping_request recv) -gt $pings ]"
tap $? "node 2 stalled its workers (${WAITED}s)"
popcorn run --nodes 2 -- /bin/test_place 2 > /tmp/lost.out 2>&1 &
lp=$!
sleep 3
kill -0 $lp 2>/dev/null
tap $? "threads placed on a stalled node 2 wait for it"
echo "# kill node2"
wait_until 120 node_is_offline 2
tap $? "node 2 went offline (${WAITED}s)"
wait_until 60 sh -c "! kill -0 $lp 2>/dev/null"
wait $lp
rc=$?
sed 's/^/# /' /tmp/lost.out
[ $rc -eq 0 ] && grep -qx "first 0 0" /tmp/lost.out
tap $? "the threads whose node went offline during their placement ran at the origin, and the process finished (exit $rc)"
dmesg | grep -q "placement on node 2 failed"
tap $? "the failed placements are logged"
out=$(popcorn run -- /bin/test_place 4 2>&1)
[ $? -eq 0 ] && echo "$out" | grep -qx "first 1 0 1 0"
tap $? "with node 2 offline, popcorn run spreads over nodes 0 and 1 ($(echo "$out" | grep first))"
dmesg | grep -i "popcorn" | tail -n 20 | sed 's/^/# dmesg: /'
