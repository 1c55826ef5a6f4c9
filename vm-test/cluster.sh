# Host side of the QEMU multi-node harness, sourced by suite.sh and
# demo.sh as ". cluster.sh BZIMAGE INITRD".  Results go below $VMDIR
# (default: vm/ beside INITRD).
#
# cluster_boot NAME N TIMEOUT CMDLINE_FN [shuffle|shuffle-now]
#   boots N guests (-accel tcg) on one private L2 segment; guest i gets
#   node id i, address 10.77.0.(i+1)/24 and the kernel command line that
#   CMDLINE_FN i prints.  With "shuffle" the guests start in a random
#   order, a random fraction of a second apart; with "shuffle-now" in a
#   random order, all at once (as the unshuffled scenarios start).
#
#   The segment (PCN_NET): "bridge" (the default as root) is a Linux
#   bridge with one tap device per guest inside a network namespace made
#   for the cluster and deleted with it; the QEMU processes run in that
#   namespace, so the host's own network is never touched and nothing
#   the guests send can leave it.  "vde" (the default when no bridge
#   can be made: not root, or no /dev/net/tun) is a VDE hub whose socket
#   lives in a fresh directory under /tmp; a vde_switch bug can leave
#   two of three guests unable to hear each other
#   (Documentation/popcorn/testing.rst).
#
#   SPLAT_RE matches the first lines of every kind of kernel report.
#
#   Cluster key: each cluster gets a fresh random key ($VMDIR/NAME/psk,
#   mode 0600), handed to every guest through QEMU's fw_cfg (a root-only
#   file in the guest, never the command line); the guest's init loads
#   it into the keyring, and every guest boots with pcn.auth=required.
#   A scenario may set PCN_KEY_FN to a function that prints, for node I,
#   the key file to give it ("none": no key), and PCN_AUTH (default
#   "required"; empty: the kernel's default) for its command line.
#
#   Shared memory (PCN_TRANSPORT=shm): each cluster gets a fresh
#   directory under /dev/shm holding a zeroed file of PCN_SHM_SIZE bytes
#   (default 32M), given to every guest as an ivshmem-plain PCI device;
#   it is removed with the cluster (on exit, error or Ctrl-C too), and a
#   directory left by a harness killed outright is removed by the next
#   run.  Node I is in slot I: pcn.nodes= lists the slots.  A guest may
#   write into the file through the harness (tests of a damaged
#   segment): the line "# shm-write ID OFFSET HEX" writes the bytes HEX
#   (hex digits, at most 64 bytes) at byte OFFSET of the file, once per
#   ID (a word the guest makes unique).
#
#   Every guest gets tsc_early_khz=<the host's TSC rate>: a TCG guest
#   reads the host's TSC, and without the figure its kernel often fails
#   to calibrate against the emulated PIT and runs on jiffies.
#
#   A guest prints its TAP lines on its second serial port, then
#   "# done", then idles (so that it keeps serving its peers).  The
#   harness ends the cluster when every guest is done, or after TIMEOUT
#   seconds (a guest not done then is killed and reported).  A guest may
#   ask for another to be killed with the line "# kill nodeJ": node J is
#   killed as soon as it is done itself (node-loss tests); "# restart
#   nodeJ" boots node J again (once), with pcn_boot=2 on its command
#   line; it is done when it wrote "# done" once per boot.
#
#   Per guest, $VMDIR/NAME/nodeI.console is the console log and
#   nodeI.results its TAP lines; nodeI.results.host notes a timeout.
#   Returns non-zero if any guest timed out.
#
# All QEMU and switch processes are killed on exit, error or Ctrl-C.

export BZIMAGE=${1:?usage: . cluster.sh BZIMAGE INITRD} INITRD=${2:?}
export VMDIR=${VMDIR:-$(dirname "$INITRD")/vm}
VM_MEM=${VM_MEM:-384M}
VM_SMP=${VM_SMP:-2}
# VM_QEMU_EXTRA: more QEMU options for every guest (make bench's
# instruction-counted boots: -icount).
PCN_SHM_SIZE=${PCN_SHM_SIZE:-32M}

# bridge_works: root can make a namespace with a bridge and a tap here
# (not so in a container without /dev/net/tun or CAP_SYS_ADMIN).
bridge_works() {
	local ns=pcn-probe-$$ ok=1

	[ "$(id -u)" -eq 0 ] || return 1
	ip netns add "$ns" 2>/dev/null || return 1
	ip -n "$ns" link add br0 type bridge 2>/dev/null &&
		ip -n "$ns" tuntap add tap0 mode tap 2>/dev/null && ok=0
	ip netns del "$ns"
	return $ok
}
if [ -z "${PCN_NET:-}" ]; then
	if bridge_works; then
		PCN_NET=bridge
	else
		PCN_NET=vde
		[ "$(id -u)" -eq 0 ] &&
			echo "cluster.sh: cannot make a bridge and taps in a network namespace here; using a VDE hub" >&2
	fi
fi
# Namespaces of a harness run that was killed outright (SIGKILL leaves
# no trap to run): their owner's pid is in the name.
if [ "$PCN_NET" = bridge ]; then
	for _ns in $(ip netns list 2>/dev/null | sed -n 's/^\(pcn-[0-9]*-[0-9]*\).*/\1/p'); do
		_owner=${_ns#pcn-}
		_owner=${_owner%%-*}
		kill -0 "$_owner" 2>/dev/null && continue
		ip netns pids "$_ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$_ns" 2>/dev/null
	done
fi
# Shared segments of a harness run that was killed outright.
for _d in /dev/shm/pcn-shm-[0-9]*-*; do
	[ -d "$_d" ] || continue
	_owner=${_d#/dev/shm/pcn-shm-}
	_owner=${_owner%%-*}
	kill -0 "$_owner" 2>/dev/null || rm -rf "$_d"
done
case "$PCN_NET" in
bridge | vde) ;;
*) echo "cluster.sh: PCN_NET must be bridge or vde, not '$PCN_NET'" >&2; exit 2 ;;
esac

# The host's TSC rate, measured once per harness run.
HOST_TSC_KHZ=${HOST_TSC_KHZ:-}
if [ -z "$HOST_TSC_KHZ" ]; then
	_tsc_bin=$(dirname "$INITRD")/tsc-khz
	gcc -O2 -o "$_tsc_bin" "$(dirname "${BASH_SOURCE[0]}")/host/tsc-khz.c" &&
		HOST_TSC_KHZ=$("$_tsc_bin") ||
		{ echo "cluster.sh: cannot measure the host's TSC rate" >&2; exit 2; }
fi
export HOST_TSC_KHZ

# A kernel report of any kind: oops, BUG, WARN, and what the debug
# kernel of make test-debug adds (lockdep, KASAN, sleeping in atomic
# context, list corruption, RCU misuse).  Each first line is counted.
SPLAT_RE='Kernel panic|BUG:|WARNING:|Oops|general protection|Call Trace|'
SPLAT_RE+='possible (circular|recursive) locking|inconsistent lock state|'
SPLAT_RE+='DEBUG_LOCKS_WARN_ON|suspicious RCU usage|KASAN:|'
SPLAT_RE+='sleeping function called from invalid context|list_(add|del) corruption'

CLUSTER_PIDS=()
CLUSTER_HUB=	# the running cluster's switch socket (a short /tmp path)
CLUSTER_NS=	# the running cluster's network namespace (PCN_NET=bridge)
CLUSTER_SHM=	# the running cluster's shared-memory file (PCN_TRANSPORT=shm)
CLUSTER_SEQ=0	# clusters booted by this harness run (namespace names)
pids=()		# QEMU pid per node of the running cluster
boots=()	# boots per node of the running cluster

cluster_cleanup() {
	local p
	for p in "${CLUSTER_PIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for p in "${CLUSTER_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	CLUSTER_PIDS=()
	[ -n "$CLUSTER_HUB" ] && rm -rf "$(dirname "$CLUSTER_HUB")"
	CLUSTER_HUB=
	[ -n "$CLUSTER_SHM" ] && rm -rf "$(dirname "$CLUSTER_SHM")"
	CLUSTER_SHM=
	# Deleting the namespace takes its bridge and taps with it; a QEMU
	# that started but was not recorded yet (a signal in between) is
	# still found in it.
	if [ -n "$CLUSTER_NS" ]; then
		ip netns pids "$CLUSTER_NS" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$CLUSTER_NS" 2>/dev/null
	fi
	CLUSTER_NS=
}

# net_up DIR: make the cluster's L2 segment.
net_up() {
	local dir=$1

	if [ "$PCN_NET" = bridge ]; then
		CLUSTER_SEQ=$((CLUSTER_SEQ + 1))
		CLUSTER_NS=pcn-$$-$CLUSTER_SEQ
		ip netns add "$CLUSTER_NS" &&
			ip -n "$CLUSTER_NS" link add br0 type bridge stp_state 0 &&
			ip -n "$CLUSTER_NS" link set br0 up ||
			{ echo "cannot make network namespace $CLUSTER_NS" >&2; return 1; }
		echo "# segment: bridge in network namespace $CLUSTER_NS" > "$dir/segment"
		return 0
	fi
	# Socket paths are limited to 108 bytes and the switch cuts its
	# port sockets' names silently: keep them short, whatever the
	# checkout's path.
	CLUSTER_HUB=$(mktemp -d /tmp/pcn-vde.XXXXXX)/hub || return 1
	vde_switch --hub --sock "$CLUSTER_HUB" --daemon --pidfile "$dir/hub.pid" \
		>"$dir/hub.log" 2>&1 || { echo "vde_switch failed" >&2; return 1; }
	# The daemon may write its pid file just after it returns.
	for _ in $(seq 50); do
		[ -s "$dir/hub.pid" ] && break
		sleep 0.1
	done
	CLUSTER_PIDS+=("$(cat "$dir/hub.pid")")
	echo "# segment: VDE hub $CLUSTER_HUB" > "$dir/segment"
}

# net_args I: QEMU's -netdev option for guest I, after making its port.
# A tap made before QEMU opens it outlives QEMU, so a restarted guest
# finds its port again.
net_args() {
	local i=$1

	if [ "$PCN_NET" = bridge ]; then
		if ! ip -n "$CLUSTER_NS" link show "tap$i" >/dev/null 2>&1; then
			ip -n "$CLUSTER_NS" tuntap add "tap$i" mode tap &&
				ip -n "$CLUSTER_NS" link set "tap$i" master br0 &&
				ip -n "$CLUSTER_NS" link set "tap$i" up || return 1
		fi
		echo "tap,id=net0,ifname=tap$i,script=no,downscript=no"
	else
		echo "vde,id=net0,sock=$CLUSTER_HUB"
	fi
}

# net_exec: the command prefix that runs QEMU on the segment's side.
net_exec() {
	[ "$PCN_NET" = bridge ] && echo "ip netns exec $CLUSTER_NS"
}

node_ip() {
	echo "10.77.0.$(($1 + 1))"
}

node_list() {	# node_list N: the pcn.nodes= value for N nodes
	local i list=
	for ((i = 0; i < $1; i++)); do
		if [ "${PCN_TRANSPORT:-}" = shm ]; then
			list+="${list:+,}$i"	# slots
		else
			list+="${list:+,}$(node_ip "$i")"
		fi
	done
	echo "$list"
}

# Kernel command line shared by all guests; ip= configures eth0 before
# Popcorn starts, so the kernel can check its own address.
base_cmdline() {	# base_cmdline I
	local auth=${PCN_AUTH-required}

	echo "console=ttyS0 panic=-1 oops=panic tsc=reliable" \
	     "tsc_early_khz=$HOST_TSC_KHZ ${PCN_EXTRA_CMDLINE:-}" \
	     "ip=$(node_ip "$1")::::node$1:eth0:off" \
	     "qemu_fw_cfg.ioport=12@0x510:0:1:4${auth:+ pcn.auth=$auth}"
}

# The cluster's key file for node I (PCN_KEY_FN may choose another).
node_key() {	# node_key DIR I
	local key

	if [ -n "${PCN_KEY_FN:-}" ]; then
		key=$($PCN_KEY_FN "$2")
	else
		key=$1/psk
	fi
	[ "$key" != none ] && echo "$key"
}

# shm_up: make the cluster's shared-memory file (PCN_TRANSPORT=shm).
shm_up() {
	local d

	[ "${PCN_TRANSPORT:-}" = shm ] || return 0
	d=$(mktemp -d "/dev/shm/pcn-shm-$$-XXXXXX") || return 1
	CLUSTER_SHM=$d/segment
	truncate -s "$PCN_SHM_SIZE" "$CLUSTER_SHM" || return 1
}

# shm_args: QEMU's options for the shared segment, if the cluster has one.
shm_args() {
	[ -n "$CLUSTER_SHM" ] || return 0
	echo "-object memory-backend-file,id=pcnshm,mem-path=$CLUSTER_SHM,size=$PCN_SHM_SIZE,share=on" \
	     "-device ivshmem-plain,memdev=pcnshm"
}

# shm_write DIR LINE: carry out a guest's "# shm-write ID OFFSET HEX".
shm_write() {
	local dir=$1 off hex

	read -r _ _ _ off hex <<<"$2"
	if [ -z "$CLUSTER_SHM" ] || ! [[ $off =~ ^[0-9]+$ ]] ||
	   ! [[ $hex =~ ^([0-9a-fA-F]{2}){1,64}$ ]]; then
		echo "# refused: $2" >> "$dir/events"
		return
	fi
	# shellcheck disable=SC2059 # the format is made of the bytes, on purpose
	printf "$(echo "$hex" | sed 's/../\\x&/g')" |
		dd of="$CLUSTER_SHM" bs=1 seek="$off" conv=notrunc status=none
	echo "# $2 done at $SECONDS s" >> "$dir/events"
}

# A node is done when it wrote "# done" once per boot.
node_done() {	# node_done DIR I
	[ "$(grep -c '^# done' "$1/node$2.results" 2>/dev/null)" -ge "${boots[$2]}" ]
}

# start_node DIR I CMDLINE_FN: boot (or reboot) guest I; its TAP lines
# are appended to the same results file across boots.  The boot number
# is passed as pcn_boot= on the kernel command line.
start_node() {
	local dir=$1 i=$2 cmdline_fn=$3 netdev key
	local -a keyarg=()

	netdev=$(net_args "$i") || { echo "cannot make port $i of the segment" >&2; return 1; }
	key=$(node_key "$dir" "$i")
	[ -n "$key" ] && keyarg=(-fw_cfg "name=opt/popcorn/psk,file=$key")
	boots[i]=$((boots[i] + 1))
	# shellcheck disable=SC2086,SC2046 # VM_QEMU_EXTRA, shm_args: words, on purpose
	$(net_exec) qemu-system-x86_64 -accel tcg -cpu max -m "$VM_MEM" -smp "$VM_SMP" \
		${VM_QEMU_EXTRA:-} $(shm_args) -nodefaults -no-user-config -display none -no-reboot \
		-kernel "$BZIMAGE" -initrd "$INITRD" \
		-append "$($cmdline_fn "$i") pcn_boot=${boots[i]}" "${keyarg[@]}" \
		-chardev "file,id=con,path=$dir/node$i.console,append=on" \
		-chardev "file,id=res,path=$dir/node$i.results,append=on" \
		-serial chardev:con -serial chardev:res \
		-netdev "$netdev" \
		-device "virtio-net-pci,netdev=net0,mac=52:54:00:77:00:$(printf %02x $((i + 1))),romfile=" \
		</dev/null >>"$dir/node$i.qemu.log" 2>&1 &
	pids[i]=$!
	CLUSTER_PIDS+=($!)
}

cluster_boot() {
	local name=$1 n=$2 timeout=$3 cmdline_fn=$4 shuffle=${5:-}
	local dir=$VMDIR/$name i j deadline alldone alive order line
	local -a killed=() restarted=()
	local -A shm_done=()

	pids=()
	boots=()

	rm -rf "$dir"
	mkdir -p "$dir"
	(umask 077 && head -c 32 /dev/urandom > "$dir/psk") || return 1
	net_up "$dir" || { cluster_cleanup; return 1; }
	shm_up || { echo "cannot make the shared-memory file" >&2; cluster_cleanup; return 1; }

	order=$(seq 0 $((n - 1)))
	[ -n "$shuffle" ] && order=$(echo "$order" | shuf)
	echo "# $name: boot order $(echo $order)" > "$dir/boot-order"
	for i in $order; do
		: > "$dir/node$i.results"
		boots[i]=0
		start_node "$dir" "$i" "$cmdline_fn" || { cluster_cleanup; return 1; }
		[ "$shuffle" = shuffle ] && sleep "0.$((RANDOM % 10))"
		# Booting is the heaviest part for TCG: spread it out.
		sleep "${BOOT_STAGGER:-0}"
	done

	deadline=$((SECONDS + timeout))
	while :; do
		alldone=1
		alive=0
		for ((i = 0; i < n; i++)); do
			node_done "$dir" "$i" || alldone=0
			kill -0 "${pids[$i]}" 2>/dev/null && alive=1
		done
		[ $alldone -eq 1 ] && break
		[ $alive -eq 0 ] && break
		for j in $(cat "$dir"/node*.results | tr -d '\r' |
			   sed -n 's/^# kill node\([0-9]\+\)$/\1/p' | sort -u); do
			if [ "$j" -lt "$n" ] && [ -z "${killed[$j]:-}" ] && node_done "$dir" "$j"; then
				kill -9 "${pids[$j]}" 2>/dev/null
				killed[j]=1
				echo "# node$j killed on request at $((SECONDS + timeout - deadline)) s" \
					>> "$dir/events"
			fi
		done
		for j in $(cat "$dir"/node*.results | tr -d '\r' |
			   sed -n 's/^# restart node\([0-9]\+\)$/\1/p' | sort -u); do
			if [ "$j" -lt "$n" ] && [ -z "${restarted[$j]:-}" ] && node_done "$dir" "$j"; then
				kill -9 "${pids[$j]}" 2>/dev/null
				wait "${pids[$j]}" 2>/dev/null
				restarted[j]=1
				echo "# node$j restarted on request at $((SECONDS + timeout - deadline)) s" \
					>> "$dir/events"
				start_node "$dir" "$j" "$cmdline_fn" ||
					echo "# $name: node$j could not be restarted" \
						>>"$dir/node$j.results.host"
			fi
		done
		# Each write request once, in the order the guests wrote them.
		while IFS= read -r line; do
			[ -n "${shm_done[$line]:-}" ] && continue
			shm_done[$line]=1
			shm_write "$dir" "$line"
		done < <(cat "$dir"/node*.results | tr -d '\r' | grep '^# shm-write ')
		if [ $SECONDS -ge $deadline ]; then
			for ((i = 0; i < n; i++)); do
				if ! node_done "$dir" "$i"; then
					echo "# $name: node$i not done after ${timeout}s, killed" \
						>>"$dir/node$i.results.host"
				fi
			done
			break
		fi
		sleep 0.3
	done
	cluster_cleanup
	! ls "$dir"/node*.results.host >/dev/null 2>&1
}

trap 'cluster_cleanup; exit 130' INT TERM
trap 'cluster_cleanup' EXIT
