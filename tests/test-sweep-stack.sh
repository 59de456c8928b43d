#!/bin/sh
# `sectorsim sweep` over an L2's associativity, 1 to 32 ways, runs the
# points of each group in one LRU stack pass, and every point is, byte for
# byte, the JSON kernels `sectorsim -p l2.assoc=W` gives: on every trace
# (the bundled sample always; every golden trace with ../shared), under
# titanv.ini (48 slices, lazy_fetch, the dirty data left reported) and
# with the policies it does not use (write-allocate without a fetch and
# fetch-on-write, write-through, the kernel's end written back), and with
# a second axis.  A grid no component can take in one pass (a FIFO L2)
# still gives every point, run one by one, and says so.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-sweep-stack
cd "$tmp" || exit 1

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
[ $# -gt 1 ] || diag "../shared not found: the bundled sample only"

ways=$(seq -s, 1 32)
titanv=$cfg/titanv.ini

# check NAME TRACE [-p ...]: the sweep of 1..32 ways against a run per way
check()
{
	name=$1
	trace=$2
	shift 2
	"$SECTORSIM" sweep --threads 1 --json "$name.json" "$@" "$titanv" "$trace" \
		-s "l2.assoc=$ways" > /dev/null 2> "$name.err"
	st=$?
	is "$st" 0 "$name: the sweep exits 0" || diag "$(cat "$name.err")"
	has "$(cat "$name.err")" "l2.assoc: 32 points in 1 runs of one LRU stack pass each" \
		"$name: says the 32 points ran in one pass"
	same=0
	i=0
	for w in $(seq 1 32); do
		"$SECTORSIM" --quiet --threads 1 --json one.json "$@" -p "l2.assoc=$w" \
			"$titanv" "$trace" > /dev/null 2>&1
		kernels_of_run one.json > a
		kernels_of_point "$name.json" $i > b
		cmp -s a b || { same=1; diag "$name: $w ways differ from the run of their own"; }
		i=$((i + 1))
	done
	ok $same "$name: every point is its own run's, byte for byte"
}

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	check "$name" "$trace"
done
# the other policies, on the sample and one golden trace
for app in "sample=$top/traces/vectoradd-a100" ${2:+"$2"}; do
	name=${app%%=*}
	trace=${app#*=}
	check "$name-allocate-count" "$trace" -p l2.write_miss=allocate -p l2.final_writeback=count
	check "$name-fetch-through" "$trace" -p l2.write_miss=fetch -p l2.write_hit=write_through
done

# two axes: a group per value of the other
run sweep --threads 1 --json two.json "$titanv" "$top/traces/vectoradd-a100" \
	-s l2.assoc=4,8,24 -s l1.assoc=2,4
is "$st" 0 "two axes: exit 0"
has "$err" "l2.assoc: 6 points in 2 runs of one LRU stack pass each" "two axes: a pass per value of l1.assoc"
"$SECTORSIM" --quiet --threads 1 --json one.json -p l2.assoc=24 -p l1.assoc=4 \
	"$titanv" "$top/traces/vectoradd-a100" > /dev/null 2>&1
kernels_of_run one.json > a
kernels_of_point two.json 5 > b
cmp -s a b
ok $? "two axes: the last point is its own run's"

# what one pass cannot take runs point by point, and says so
run sweep --threads 1 --json fifo.json "$titanv" "$top/traces/vectoradd-a100" \
	-p l2.replacement=fifo -s l2.assoc=4,8
is "$st" 0 "a FIFO L2: exit 0"
has "$err" "the associativities were run point by point" "a FIFO L2: says the points ran one by one"
"$SECTORSIM" --quiet --threads 1 --json one.json -p l2.replacement=fifo -p l2.assoc=8 \
	"$titanv" "$top/traces/vectoradd-a100" > /dev/null 2>&1
kernels_of_run one.json > a
kernels_of_point fifo.json 1 > b
cmp -s a b
ok $? "a FIFO L2: its points are their own runs'"

done_testing
