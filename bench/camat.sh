#!/bin/sh
# bench/camat.sh: rows per second of `sectorsim camat` (issue #14's target:
# at least 10 M on one core), end to end: reading the CSV, the sweep, the
# table.
#
#   bench/camat.sh BUILDDIR [RUNS]
#
# The timeline, 10 M rows of a GPU-like level (a load every 0-2 cycles,
# 40 % misses of 20-420 cycles after a 20-cycle lookup, hits of 28), is
# written once by awk into $SECTORSIM_CAMAT (default
# /tmp/sectorsim-camat-10m.csv, about 140 MB).  RUNS (default 5) timed runs
# after one warm-up; the median wall time and the largest peak memory.
# Needs GNU time (/usr/bin/time).  Run it on an otherwise idle machine.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [RUNS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
bin=$build/sectorsim
runs=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
timer=/usr/bin/time
csv=${SECTORSIM_CAMAT:-/tmp/sectorsim-camat-10m.csv}
rows=10000000
[ -x "$bin" ] || { echo "$0: $bin: no sectorsim there; build first" >&2; exit 2; }
[ -x "$timer" ] || { echo "$0: $timer: not found; apt-get install time" >&2; exit 2; }

if [ ! -s "$csv" ]; then
	echo "writing $rows rows into $csv ..." >&2
	awk -v n="$rows" 'BEGIN {
		srand(7); print "start,hit_cycles,miss_cycles"; t = 0
		for (i = 0; i < n; i++) {
			t += int(rand() * 3)
			m = rand() < 0.4 ? 20 + int(rand() * 400) : 0
			printf "%d,%d,%d\n", t, (m ? 20 : 28), m
		}
	}' >"$csv.part" && mv "$csv.part" "$csv"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sectorsim-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# shellcheck source=lib.sh
. "$src/bench/lib.sh"
program_of "$build"
"$bin" camat "$csv" >/dev/null
i=0
while [ "$i" -lt "$runs" ]; do
	timed "$tmp/one" "$bin" camat "$csv"
	cat "$tmp/one" >>"$tmp/times"
	i=$((i + 1))
done
sort -n "$tmp/times" | awk -v n="$runs" -v rows="$rows" '
	{ t[NR] = $1; if ($2 > peak) peak = $2 }
	END {
		m = t[int((n + 1) / 2)]
		printf "sectorsim camat, %d rows: %.2f s median of %d (%.1f M rows/s; target >= 10), peak %.0f MiB\n",
			rows, m, n, rows / m / 1e6, peak / 1024
	}'
