# bench/lib.sh: what the benchmark scripts share.  Sourced after they set
# runs (how many timed runs), timer (GNU time) and tmp (a scratch folder).
# shellcheck shell=sh

# time_runs NAME CMD...: the warm-up, then RUNS timed runs; prints
# "NAME  median wall  peak RSS" and leaves the median in $median.
time_runs() {
	name=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$0: $name failed: $*" >&2; exit 1; }
	: >"$tmp/times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		"$timer" -f '%e %M' -o "$tmp/one" "$@" >/dev/null 2>&1 ||
			{ echo "$0: $name failed: $*" >&2; exit 1; }
		tail -n 1 "$tmp/one" >>"$tmp/times"
		i=$((i + 1))
	done
	median=$(sort -n "$tmp/times" | awk -v n="$runs" 'NR == int((n + 1) / 2) { print $1 }')
	peak=$(sort -n -k2 "$tmp/times" | tail -n 1 | awk '{ printf "%.1f", $2 / 1024 }')
	printf '%-40s %7s s   peak %6s MiB\n' "$name" "$median" "$peak"
}
