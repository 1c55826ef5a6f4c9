#!/bin/bash
# Check that the patch series is bisectable: for every prefix of
# patches/series, a fresh tree with our directories linked in configures
# and builds bzImage.  Before the last patch (the Kconfig entry) the
# Popcorn options of the config fragment do not exist yet: only the
# complete series must take all of them.  Slow (one full build per patch, ccache helps);
# run with `make check-series`, not part of `make test`.
# Usage: check-series.sh REPO_DIR WORK_DIR
set -euo pipefail

repo=$1
work=$2
mapfile -t series < <(grep -v '^#' "$repo/patches/series")

for ((k = 1; k <= ${#series[@]}; k++)); do
	tmp=$work/series-check
	rm -rf "$tmp" && mkdir -p "$tmp/patches"
	cp "$repo/configs" -r "$tmp/"
	for ((i = 0; i < k; i++)); do
		cp "$repo/patches/${series[$i]}" "$tmp/patches/"
		echo "${series[$i]}" >> "$tmp/patches/series"
	done
	for d in kernel include drivers; do ln -s "$repo/$d" "$tmp/$d"; done
	echo "== series check: first $k patch(es), up to ${series[$((k - 1))]}"
	lenient=
	[ $k -lt ${#series[@]} ] && lenient=1
	PCN_LENIENT_CONFIG=$lenient "$repo/scripts/prepare-tree.sh" "$tmp" "$tmp/linux" "$tmp/obj"
	make -s -C "$tmp/linux" O="$tmp/obj" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" bzImage
	echo "ok $k - builds after ${series[$((k - 1))]}"
done
rm -rf "$work/series-check"
