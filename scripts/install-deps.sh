#!/bin/bash
# Install the Debian 12 packages the build and the QEMU tests need,
# only those that are missing.  Needs root (apt-get) when any is missing.
set -euo pipefail

pkgs=(
	linux-source-6.1 xz-utils gcc make bc bison flex libelf-dev libssl-dev
	cpio gzip patch ccache perl kmod procps
	qemu-system-x86 busybox-static vde2 iproute2 rdma-core
	librdmacm-dev libibverbs-dev ibverbs-providers
	libc6-dev
	zstd pigz sysbench p7zip-full
	# The tracers the guests run, the host's core checks too: gdb
	# without Python (whose whole library it would need).
	strace gdb-minimal
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages and not root: ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
