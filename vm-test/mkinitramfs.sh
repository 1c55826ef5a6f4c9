#!/bin/bash
# Build the guest initramfs: static busybox, our static tools and the
# guest test scripts.  Usage: mkinitramfs.sh TOOLS_DIR OUTPUT.cpio
#
# Not compressed: a guest unpacks an uncompressed archive a second sooner,
# and the KASAN kernel, whose instrumented inflate is slow, over ten
# seconds sooner; QEMU reads it from the host's page cache anyway.
set -euo pipefail

tools=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$out")/initramfs

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,tests}
cp /bin/busybox "$root/bin/busybox"
for f in "$tools"/*; do
	[ -x "$f" ] && [ -f "$f" ] && cp "$f" "$root/bin/"
done
# The shared libraries and loader of a dynamic binary, at the paths it
# was linked for.
copy_libs() {	# copy_libs BINARY
	local lib
	for lib in $(ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
# iproute2's rdma tool, with which init creates the soft-RoCE device
# for pcn.transport=rdma.
rdma=$(command -v rdma || true)
if [ -z "$rdma" ]; then
	echo "mkinitramfs: iproute2's rdma tool is missing (make deps)" >&2
	exit 1
fi
cp "$rdma" "$root/bin/rdma"
copy_libs "$rdma"
# iproute2's tc, for netem (packet loss in the lossy-network checks); by path,
# as busybox has an applet of that name.
tc=$(PATH=$PATH:/usr/sbin:/sbin command -v tc || true)
if [ -z "$tc" ]; then
	echo "mkinitramfs: iproute2's tc is missing (make deps)" >&2
	exit 1
fi
mkdir -p "$root/usr/sbin"
cp "$tc" "$root/usr/sbin/tc"
copy_libs "$tc"
# The RDMA CM test client: librdmacm, libibverbs, and the verbs provider
# for rxe that libibverbs loads by its /etc/libibverbs.d entry.
if [ -x "$tools/pcn_rdma_garbage" ]; then
	copy_libs "$tools/pcn_rdma_garbage"
	provider=$(ls /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so)
	mkdir -p "$root$(dirname "$provider")" "$root/etc/libibverbs.d"
	cp -L "$provider" "$root$provider"
	copy_libs "$provider"
	cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
fi
# Unmodified multithreaded programs from Debian's packages, dynamically
# linked as shipped (the apps scenario): their libraries and loader
# come along.  In /usr/bin, as on Debian: busybox's shell runs its own
# applet for a bare "xz", so tests name them by path.  7z is a shell
# wrapper around p7zip's binary, which loads its codecs from 7z.so
# beside it.
mkdir -p "$root/usr/bin"
for prog in xz zstd pigz sysbench; do
	bin=$(command -v $prog || true)
	if [ -z "$bin" ]; then
		echo "mkinitramfs: $prog is missing (make deps)" >&2
		exit 1
	fi
	cp "$bin" "$root/usr/bin/$prog"
	copy_libs "$bin"
done
if [ ! -x /usr/lib/p7zip/7z ]; then
	echo "mkinitramfs: p7zip-full is missing (make deps)" >&2
	exit 1
fi
mkdir -p "$root/usr/lib/p7zip"
cp /usr/lib/p7zip/7z /usr/lib/p7zip/7z.so "$root/usr/lib/p7zip/"
copy_libs /usr/lib/p7zip/7z
copy_libs /usr/lib/p7zip/7z.so
cp /usr/bin/7z "$root/usr/bin/7z"
# Debian's tracers (strace, gdb as gdb-minimal ships it), attached to
# a distributed process in the migrate scenario.
for prog in strace gdb; do
	bin=$(command -v $prog || true)
	if [ -z "$bin" ] || { [ $prog = gdb ] && ldd "$bin" | grep -q libpython; }; then
		echo "mkinitramfs: $prog is missing or not gdb-minimal (make deps)" >&2
		exit 1
	fi
	cp "$bin" "$root/usr/bin/$prog"
	copy_libs "$bin"
done
cp "$here/guest/init" "$root/init"
# An unprivileged user for tests that must not run as root (run with
# as_user in guest/lib.sh): uid and gid 1000, no password, no groups.
cat > "$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
pcn:x:1000:1000:Popcorn unprivileged test user:/tmp:/bin/sh
EOF
cat > "$root/etc/group" <<'EOF'
root:x:0:
pcn:x:1000:
EOF
cp "$here"/guest/*.sh "$root/tests/"
chmod +x "$root/init" "$root"/tests/*.sh

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) \
	> "$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRD  $out"
