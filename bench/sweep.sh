#!/bin/sh
# bench/sweep.sh: what `sectorsim sweep` saves over one run per point, on
# the Accel-Sim (.gz) copy of the large benchmark app (bench/big.sh makes
# it, into $SECTORSIM_BIG, default /tmp/sectorsim-big/big).
#
#   bench/sweep.sh BUILDDIR [RUNS] [POINTS]
#
# configs/titanv.ini over POINTS (default 16) values of the L2's
# associativity: one run of one point, with the default threads (the
# cost of a point run alone), then the sweep of all of them, each the
# median wall time of RUNS (default 3) runs after a warm-up, and their
# ratios: the sweep's time against a run's, and per point.  The sweep
# decodes the .gz text once into the native format and runs the
# associativities in one LRU stack pass.  Needs GNU time (/usr/bin/time).
# Run it on an idle machine.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [RUNS] [POINTS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
runs=${2:-3}
points=${3:-16}
src=$(cd "$(dirname "$0")/.." && pwd)
big=${SECTORSIM_BIG:-/tmp/sectorsim-big/big}
bin=$build/sectorsim
timer=/usr/bin/time

[ -x "$bin" ] || { echo "$0: $bin: no sectorsim there; build first" >&2; exit 2; }
[ -x "$timer" ] || { echo "$0: $timer: not found; apt-get install time" >&2; exit 2; }
[ -f "$big/accelsim/kernelslist.g" ] ||
	{ echo "$0: $big/accelsim: not there; run bench/big.sh first" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sectorsim-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# shellcheck source=lib.sh
. "$src/bench/lib.sh"
program_of "$build"

hw=$src/configs/titanv.ini
# 1..POINTS ways would change nothing but the tags' count; the L2's ways
# from 2 up, as an architect would try them
vals=$(seq -s, 2 2 $((2 * points)))

echo "sectorsim $("$bin" --version 2>/dev/null | head -n 1); $(nproc) cores; median of $runs runs"
time_runs "one point: titanv.ini, accelsim .gz" "$bin" -q "$hw" "$big/accelsim"
one=$median
time_runs "sweep of $points points (l2.assoc)" "$bin" sweep -q "$hw" "$big/accelsim" \
	-s "l2.assoc=$vals" --csv "$tmp/out.csv"
sweep=$median
awk -v one="$one" -v sw="$sweep" -v n="$points" 'BEGIN {
	printf "%d separate runs (estimated)                  %7.2f s\n", n, n * one
	printf "sweep per point                              %7.2f s  (%.2fx a run)\n", sw / n, sw / n / one
	printf "sweep against separate runs                  %7.2fx faster\n", n * one / sw
	printf "sweep against one run                        %7.2fx its time\n", sw / one
}'
