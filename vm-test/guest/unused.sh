#!/bin/sh
# Cost when unused: bench_unused on this kernel, built with
# Popcorn or without it (make bench boots both, in turn, and compares).
# Parameter: pcn_bench_samples (per figure).
. /tests/lib.sh

samples=$(cmdline_param pcn_bench_samples)
# Fixed addresses: with address-space randomisation the shape of the
# VMA tree, and so the instructions mmap() takes, differs from boot to
# boot, which is noise in a comparison between boots.
echo 0 > /proc/sys/kernel/randomize_va_space
if [ -e /proc/popcorn_stat ]; then
	echo "# kernel: popcorn"
else
	echo "# kernel: none"
fi
/bin/bench_unused "${samples:-15}" > /tmp/unused.out
tap $? "bench_unused ran"
cat /tmp/unused.out
for f in unused_fault unused_fork unused_mmap unused_syscall; do
	grep "^# bench $f " /tmp/unused.out |
		awk '{ exit !($5 > 0 && $7 > 0 && $7 + 0 <= $8 + 0) }'
	tap $? "figure $f: samples, p50 > 0, p50 <= p99"
done
