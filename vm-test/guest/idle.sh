#!/bin/sh
# Idle cost (make bench): two connected nodes do nothing for
# pcn_idle_s seconds, between the markers "# idle start" and "# idle
# end" that node 0 prints; the host measures the CPU time its QEMU
# processes use meanwhile.  On shm the poll thread's sleeps are counted
# too.
. /tests/lib.sh

nid=$(cmdline_param pcn.nid)
secs=$(cmdline_param pcn_idle_s)
secs=${secs:-30}

wait_all_online 2 120
tap $? "both nodes online (after ${WAITED}s)"
# Let boot-time work (KUnit, key loading, the first heartbeats) settle.
sleep 5
if [ "$nid" = 0 ]; then
	s0=$(stat_key shm_poll_sleeps)
	m0=$(stat_type total sent)
	echo "# idle start"
	sleep "$secs"
	echo "# idle end"
	s1=$(stat_key shm_poll_sleeps)
	m1=$(stat_type total sent)
	[ $((m1 - m0)) -eq 0 ]
	tap $? "no Popcorn message sent while idle ($((m1 - m0)))"
	if [ "$PCN_TRANSPORT" = shm ]; then
		per_s=$(((s1 - s0) / secs))
		# poll_idle_us 10000: about 100 wake-ups a second.
		[ "$per_s" -gt 0 ] && [ "$per_s" -le 150 ]
		tap $? "the idle poll thread woke $per_s times a second"
		echo "# bench idle_poll_wakeups per_s 1 $per_s $per_s $per_s"
	fi
else
	sleep $((secs + 10))
fi
