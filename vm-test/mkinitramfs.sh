#!/bin/bash
# Build the guest initramfs: static busybox, our static tools and the
# guest test scripts.  Usage: mkinitramfs.sh TOOLS_DIR OUTPUT.cpio.gz
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
# iproute2's rdma tool, with which init creates the soft-RoCE device
# for pcn.transport=rdma: a dynamic binary, so its shared libraries and
# the loader come along, at the paths it was linked for.
rdma=$(command -v rdma || true)
if [ -z "$rdma" ]; then
	echo "mkinitramfs: iproute2's rdma tool is missing (make deps)" >&2
	exit 1
fi
cp "$rdma" "$root/bin/rdma"
for lib in $(ldd "$rdma" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
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

(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) |
	gzip -9 -n > "$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRD  $out"
