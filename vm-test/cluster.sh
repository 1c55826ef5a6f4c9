# Host side of the QEMU multi-node harness (sourced by suite.sh, demo.sh).
#
# cluster_boot NAME N TIMEOUT CMDLINE_FN
#   boots N guests (-accel tcg) on one private VDE hub; guest i gets
#   node id i, address 10.77.0.(i+1)/24 and the kernel command line that
#   CMDLINE_FN i prints.  Waits until every guest has powered off, or
#   TIMEOUT seconds; a guest still running then is killed.  Per guest,
#   $VMDIR/NAME/nodeI.console is the console log and nodeI.results its
#   TAP lines.  Returns non-zero if any guest timed out.
#
# All QEMU and switch processes are killed on exit, error or Ctrl-C.

: "${BZIMAGE:?}" "${INITRD:?}" "${VMDIR:?}"
VM_MEM=${VM_MEM:-256M}
VM_SMP=${VM_SMP:-2}

CLUSTER_PIDS=()

cluster_cleanup() {
	local p
	for p in "${CLUSTER_PIDS[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
	for p in "${CLUSTER_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	CLUSTER_PIDS=()
}

node_ip() {
	echo "10.77.0.$(($1 + 1))"
}

node_list() {	# node_list N: the pcn.nodes= value for N nodes
	local i list=
	for ((i = 0; i < $1; i++)); do
		list+="${list:+,}$(node_ip "$i")"
	done
	echo "$list"
}

# Kernel command line shared by all guests; ip= configures eth0 before
# Popcorn starts, so the kernel can check its own address.
base_cmdline() {	# base_cmdline I
	echo "console=ttyS0 panic=-1 oops=panic tsc=reliable" \
	     "ip=$(node_ip "$1")::::node$1:eth0:off"
}

cluster_boot() {
	local name=$1 n=$2 timeout=$3 cmdline_fn=$4
	local dir=$VMDIR/$name i deadline alive pid
	local -a pids=()

	rm -rf "$dir"
	mkdir -p "$dir"
	vde_switch --hub --sock "$dir/hub" --daemon --pidfile "$dir/hub.pid" \
		>"$dir/hub.log" 2>&1 || { echo "vde_switch failed" >&2; return 1; }
	CLUSTER_PIDS+=("$(cat "$dir/hub.pid")")

	for ((i = 0; i < n; i++)); do
		: > "$dir/node$i.results"
		qemu-system-x86_64 -accel tcg -cpu max -m "$VM_MEM" -smp "$VM_SMP" \
			-nodefaults -no-user-config -display none -no-reboot \
			-kernel "$BZIMAGE" -initrd "$INITRD" \
			-append "$($cmdline_fn "$i")" \
			-serial "file:$dir/node$i.console" \
			-serial "file:$dir/node$i.results" \
			-netdev "vde,id=net0,sock=$dir/hub" \
			-device "virtio-net-pci,netdev=net0,mac=52:54:00:77:00:$(printf %02x $((i + 1))),romfile=" \
			</dev/null >"$dir/node$i.qemu.log" 2>&1 &
		pids+=($!)
		CLUSTER_PIDS+=($!)
	done

	deadline=$((SECONDS + timeout))
	while :; do
		alive=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && break
		if [ $SECONDS -ge $deadline ]; then
			for ((i = 0; i < n; i++)); do
				if kill -0 "${pids[$i]}" 2>/dev/null; then
					echo "# $name: node$i still running after ${timeout}s, killed" \
						>>"$dir/node$i.results.host"
					kill -9 "${pids[$i]}" 2>/dev/null
				fi
			done
			break
		fi
		sleep 0.5
	done
	cluster_cleanup
	! ls "$dir"/node*.results.host >/dev/null 2>&1
}
