# Helpers for guest test scripts (sourced).  Output is TAP: the host
# harness numbers the lines and counts them.

tap() {	# tap CONDITION_STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then echo "ok - $2"; else echo "not ok - $2"; fi
}

# Value of a key=value parameter on the kernel command line.
cmdline_param() {
	tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1
}

# Re-emit the KUnit results of suite $1 (from debugfs) as TAP lines.
kunit_results() {
	local suite=$1 f=/sys/kernel/debug/kunit/$1/results
	if [ ! -r "$f" ]; then
		echo "not ok - kunit suite $suite ran"
		return
	fi
	local cases
	cases=$(grep -cE '^[[:space:]]+(not )?ok [0-9]+ ' "$f")
	tap $([ "$cases" -gt 0 ]; echo $?) "kunit suite $suite reported $cases cases"
	grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$f" |
		sed -E 's/^[[:space:]]+(not )?ok [0-9]+ (- )?/\1ok - kunit '"$suite"': /'
	grep -qE '^(not )?ok [0-9]+ (- )?'"$suite"'$' "$f" ||
		echo "not ok - kunit suite $suite has a result line"
}
