#!/bin/bash
# make check (what .ci/run runs): make test, then make test-debug, and
# one closing "N passed, N failed" line for both.  Each suite run writes
# its counts to VMDIR/summary; a suite that did not get that far (a
# build failed) counts as one failure.
# Usage: check.sh REPO_DIR BUILD_DIR
set -uo pipefail

repo=$1
build=$2
passed=0 failed=0 skipped=0 rc=0

for run in test:vm test-debug:vm-debug; do	# target:results directory
	target=${run%%:*}
	summary=$build/${run#*:}/summary
	rm -f "$summary"
	start=$SECONDS
	${MAKE:-make} -C "$repo" --no-print-directory "$target" VMDIR="$(dirname "$summary")" || rc=1
	echo "# make $target: $((SECONDS - start)) s"
	if [ -s "$summary" ]; then
		read -r p f s < "$summary"
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	else
		echo "# make $target ended before its suite reported"
		failed=$((failed + 1))
		rc=1
	fi
done

if [ $skipped -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $rc -eq 0 ] && [ $failed -eq 0 ]
