#!/bin/sh
# fuzz/run.sh: seed the fuzz targets' corpora from tests/data and run them.
#
#   fuzz/run.sh BUILDDIR [SECONDS [TARGET...]]
#
# BUILDDIR was configured with CC=clang --enable-fuzzing and built (make).
# Each TARGET (default: all; names as ppt-app or fuzz-ppt-app) runs SECONDS
# (default 20) on BUILDDIR/fuzz/corpus/TARGET, which is made on the first
# run from the inputs of tests/data that the target's parser reads, and
# keeps growing from run to run.  A crash, leak or sanitizer report is saved
# as BUILDDIR/fuzz/crash-TARGET-*, leak-..., timeout-...; reproduce it with
#   BUILDDIR/fuzz/fuzz-TARGET FILE
# Prints one line per target (executions, exec/s, verdict); exits 1 when a
# target found something.  Extra libFuzzer options: FUZZ_ARGS.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [SECONDS [TARGET...]]" >&2; exit 2; }
build=$(cd "$1" && pwd)
secs=${2:-20}
shift
[ $# -eq 0 ] || shift
src=$(cd "$(dirname "$0")/.." && pwd)
all="ppt-app ppt-mem accelsim-list accelsim-trace native ini ncu-csv results-json trc"
[ $# -gt 0 ] || set -- $all

# The seeds of a target: files of tests/data (and configs/, for the INI).
seeds() {
	d=$src/tests/data
	case $1 in
	ppt-app) find "$d" -name app_config.py ;;
	ppt-mem) find "$d" -name '*.mem' ;;
	accelsim-list) find "$d" -name kernelslist.g ;;
	accelsim-trace) find "$d" -name '*.traceg' ;;
	trc) find "$d" -name '*.trc' -size -64k ;;
	native) find "$d" -name '*.sst' ;;
	ini) find "$d" "$src/configs" -name '*.ini' ;;
	ncu-csv) find "$d/compare" -name '*.csv' ;;
	results-json) find "$d" -name '*.json'; find "$d/compare" -name '*.csv' ;;
	*) echo "$0: unknown target $1; expected one of: $all" >&2; exit 2 ;;
	esac
}

status=0
for t in "$@"; do
	t=${t#fuzz-}
	prog=$build/fuzz/fuzz-$t
	[ -x "$prog" ] || { echo "$0: no $prog; configure with CC=clang --enable-fuzzing and make" >&2; exit 2; }
	corpus=$build/fuzz/corpus/$t
	if [ ! -d "$corpus" ]; then
		mkdir -p "$corpus"
		seeds "$t" | while read -r f; do
			# named after the path, so that equal names do not collide
			rel=${f#"$src"/}
			cp "$f" "$corpus/$(printf '%s' "$rel" | tr / _)"
		done
	fi
	log=$build/fuzz/$t.log
	rc=0
	# -close_fd_mask=3: the parsers' error messages are not printed (the
	# sanitizers' and libFuzzer's reports are); G_SLICE: see Makefile.am
	G_SLICE=always-malloc "$prog" -max_total_time="$secs" -timeout=25 \
		-close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz/" ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1 || rc=$?
	runs=$(awk '/stat::number_of_executed_units:/ { print $2 }' "$log")
	speed=$(awk '/stat::average_exec_per_sec:/ { print $2 }' "$log")
	if [ "$rc" -eq 0 ]; then
		verdict=ok
	else
		verdict="FOUND A BUG (status $rc; see $log and $build/fuzz/)"
		status=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 >&2 || true
	fi
	echo "fuzz-$t: ${runs:-?} executions, ${speed:-?} exec/s, $(ls "$corpus" | wc -l) corpus files: $verdict"
done
exit $status
