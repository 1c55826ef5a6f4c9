#!/bin/bash
# Where a scenario's time goes: the guest's uptime precedes each TAP
# line (lib.sh tap), so the time between two results is the time the
# guest spent on the later one.  Lists the longest steps of every node.
# Usage: profile.sh SCENARIO_DIR [TOP]   (e.g. build/vm/tcp-dsm 15)
set -euo pipefail
dir=$1 top=${2:-15}
for f in "$dir"/node*.results; do
	echo "== ${f##*/}"
	tr -d '\r' < "$f" | awk '
		/^# at / { at = $3; next }
		/^(not )?ok - / && at != "" {
			if (prev != "") printf "%8.1f  %s\n", at - prev, $0
			else printf "%8.1f  %s\n", at, $0
			prev = at
		}' | sort -rn | head -n "$top"
done
