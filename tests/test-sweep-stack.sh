#!/bin/sh
# `sectorsim sweep` over an L2's associativity, 1 to 32 ways, runs the
# points of each group in one LRU stack pass, and every point is, byte for
# byte, the JSON kernels `sectorsim -p l2.assoc=W` gives: on every trace
# (the bundled sample always; every golden trace with ../shared), under
# titanv.ini (48 slices, lazy_fetch, the dirty data left reported) and
# with the policies it does not use (write-allocate without a fetch and
# fetch-on-write, write-through, the kernel's end written back), and with
# a second axis; an interrupted one-pass sweep resumes to the same
# results; --points K/N keeps groups whole.  A grid no component can
# take in one pass (a FIFO L2) still gives every point, run one by one,
# and says so.
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

# interrupted after some groups, then resumed: the kept points of a
# group are each its own (their files say their parameters)
l1vals=$(seq -s, 1 40)
"$SECTORSIM" sweep --quiet --threads 1 --json r.json "$titanv" "$top/traces/vectoradd-a100" \
	-s l1.assoc=$l1vals -s l2.assoc=4,8,16 > /dev/null 2> r.err &
interrupt_sweep $! r.json.points
is "$?" 130 "a one-pass sweep interrupted: exit 130"
run sweep --quiet --threads 1 --resume --json r.json "$titanv" "$top/traces/vectoradd-a100" \
	-s l1.assoc=$l1vals -s l2.assoc=4,8,16
is "$st" 0 "--resume of a one-pass sweep: exit 0" || diag "$err"
run sweep --quiet --threads 1 --json whole.json "$titanv" "$top/traces/vectoradd-a100" \
	-s l1.assoc=$l1vals -s l2.assoc=4,8,16
cmp -s r.json whole.json
ok $? "the resumed one-pass sweep is the one never interrupted"

# split in parts, each group stays whole and runs in one pass
run sweep --threads 1 --points 0/4 --json part.json "$titanv" "$top/traces/vectoradd-a100" \
	-s l2.assoc=1,2,4,8,16,24,32,48
has "$err" "l2.assoc: 8 points in 1 runs of one LRU stack pass each" "--points 0/4: the one group is part 0's, whole"

# a sector of 64 bytes: the lanes' DRAM transactions are 32-byte ones
check "sample-sector64" "$top/traces/vectoradd-a100" -p l2.write_miss=allocate -p l2.sector_bytes=64

# an L3 between the L2 and DRAM, which keeps lines from kernel to kernel:
# the lanes' traffic is not DRAM's, the run says so, and the points run
# one by one, each its own
printf '%s\n' "[simulation]" "include = $cfg/ablations/titanv-l2-unified.ini" "" \
	"[component l2]" "size = 0" "sets = 1152" "" \
	"[component l3]" "type = sector_cache" "sets = 8192" "assoc = 16" \
	"write_miss = allocate" "at_kernel_end = keep" "" \
	"[link l2_dram]" "from = l2.mem_side[0]" "to   = l3.cpu_side" "" \
	"[link l3_dram]" "from = l3.mem_side" "to   = dram.req[0]" > l3.ini
# (a trace whose kernels meet in the L3: backprop's)
l3trace=$shared/golden/real/backprop-h100-v5
[ -d "$l3trace" ] || l3trace=$top/traces/vectoradd-a100
run sweep --threads 1 --json l3.json l3.ini "$l3trace" -s l2.assoc=4,8,16
is "$st" 0 "an L3 below the L2: exit 0"
if [ -d "$shared/golden/real/backprop-h100-v5" ]; then
	has "$err" "the associativities were run point by point" "an L3 below the L2: run point by point"
else
	skip "../shared not found: no trace whose kernels meet in the L3"
fi
"$SECTORSIM" --quiet --threads 1 --json one.json -p l2.assoc=16 l3.ini "$l3trace" > /dev/null 2>&1
kernels_of_run one.json > a
kernels_of_point l3.json 2 > b
cmp -s a b
ok $? "an L3 below the L2: the points are their own runs'"

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
