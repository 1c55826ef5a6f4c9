#!/bin/bash
# Prepare the kernel tree in the ignored build directory:
#   unpack linux-source-6.1 (again whenever the patch series changes),
#   apply patches/ in the order of patches/series, link our source
#   directories into it, and (re)configure the object directory when
#   the config changes.  Objects never land in the source tree (nor, via
#   the links, in the repository): the kernel is built with O=OBJ_DIR.
# Usage: prepare-tree.sh REPO_DIR KERNEL_DIR OBJ_DIR [EXTRA_FRAGMENT]
# EXTRA_FRAGMENT (make test-debug: configs/debug.config) is merged after
# configs/guest.config (for an option set in both, the later value is
# the one checked); both object directories share one source tree.
set -euo pipefail

repo=$1
kdir=$2
odir=$3
tarball=/usr/src/linux-source-6.1.tar.xz
fragments=("$repo/configs/guest.config")
[ -n "${4:-}" ] && fragments+=("$4")

# Identity of the series: the order and the diffs themselves, so that
# rewording a commit message does not force a fresh tree.
series_id() {
	(cd "$repo/patches" && grep -v '^#' series &&
	 for p in $(grep -v '^#' series); do sed -n '/^diff /,$p' "$p"; done) |
		sha256sum | cut -d' ' -f1
}

want=$(series_id)
have=$(cat "$kdir/.pcn-series" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
	echo "  TREE    unpacking $tarball and applying patches/"
	rm -rf "$kdir" "$kdir.tmp"
	mkdir -p "$kdir.tmp"
	tar -C "$kdir.tmp" -xf "$tarball" --strip-components=1
	for p in $(grep -v '^#' "$repo/patches/series"); do
		echo "  PATCH   $p"
		patch -d "$kdir.tmp" -p1 --batch --quiet --forward < "$repo/patches/$p"
	done
	echo "$want" > "$kdir.tmp/.pcn-series"
	mv "$kdir.tmp" "$kdir"
fi

# Our sources stay in the repository: the tree links to them, so an edit
# is seen by kbuild at once and only what changed is recompiled.
link() {
	local target=$1 name=$2
	if [ "$(readlink "$kdir/$name" 2>/dev/null)" != "$target" ]; then
		rm -rf "${kdir:?}/$name"
		ln -s "$target" "$kdir/$name"
	fi
}
link "$repo/kernel/popcorn" kernel/popcorn
link "$repo/drivers/pcn_transport" drivers/pcn_transport
link "$repo/include/popcorn" include/popcorn
link "$repo/include/uapi/linux/popcorn.h" include/uapi/linux/popcorn.h

mkdir -p "$odir"
cfg_id=$( (cat "${fragments[@]}"; echo "$want") | sha256sum | cut -d' ' -f1)
if [ "$cfg_id" != "$(cat "$odir/.pcn-config" 2>/dev/null || true)" ] || [ ! -f "$odir/.config" ]; then
	echo "  CONFIG  tinyconfig + ${fragments[*]#"$repo/"}"
	make -s -C "$kdir" O="$odir" ARCH=x86_64 tinyconfig >/dev/null
	(cd "$odir" && ARCH=x86_64 "$kdir/scripts/kconfig/merge_config.sh" -m -O "$odir" .config "${fragments[@]}" >/dev/null)
	make -s -C "$kdir" O="$odir" ARCH=x86_64 olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$odir/.config" && { echo "config: $opt should be unset" >&2; bad=1; }
		elif ! grep -qx "$line" "$odir/.config"; then
			echo "config: $line did not stick (got: $(grep "^$opt=\|$opt is not set" "$odir/.config"))" >&2
			bad=1
		fi
	done < <(cat "${fragments[@]}" |
		 awk -F= '/^CONFIG_/ { if (!($1 in v)) k[n++] = $1; v[$1] = $0 }
			  END { for (i = 0; i < n; i++) print v[k[i]] }')
	# Prefixes of the series (check-series.sh) lack our Kconfig entries.
	[ $bad -eq 0 ] || [ -n "${PCN_LENIENT_CONFIG:-}" ] || exit 1
	echo "$cfg_id" > "$odir/.pcn-config"
fi
