#!/bin/sh
# The timing configurations (configs/timing/) on every golden trace: with
# every latency 0 and no MSHR limit they give the results of the
# functional ones they extend, counter for counter; with their own
# latencies they run to the end, the same for any thread count; a seed
# gives the same half-normal latencies and another seed others; a full
# MSHR refuses requests that are sent again, each access counted once;
# a level that never answers, and timing where it cannot be, are errors.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-timing

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
have_shared=0
[ $# -gt 1 ] && have_shared=1

# what makes a timing configuration functional again
zero="-p l1.tag_latency=0 -p l2.tag_latency=0 -p dram.latency=0
-p dram.bytes_per_cycle=0 -p l1.mshr_entries=0 -p l1.mshr_targets=0
-p l2.mshr_entries=0 -p l2.mshr_targets=0 -p l1_l2.latency=0"

kernels() { sed -n '/^  "kernels": \[/,$p' "$1"; }
# ... without the timing metrics, which only timed runs report
timing_keys='"(mem_cycles|sm_mem_cycles_(min|max)|sm_refused|l[12]_(mean_load_latency|latency_misses|mshr_[a-z_]+|camat_[a-z]+|overlap_hit_time|pure_miss[a-z_]*|pure_misses|active_cycles|C_[hm]|pMR|pAMP|mean_hit_time|camat|amat)|dram_mean_(latency|queue_delay))": '
untimed() {
	kernels "$1" | grep -v -E "$timing_keys" |
		sed 's/^\( *"atom_red_tot_trans": [0-9.e+-]*\),$/\1/'
}

# stat NAME: its value in $tmp/stats (a --stats text dump)
stat() { awk -v k="$1" '$1 == k { print $2; exit }' "$tmp/stats"; }

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for g in titanv a100; do
		run --quiet --json "$tmp/f.json" "$cfg/$g.ini" "$trace"
		is "$st" 0 "$name: $g.ini exit 0" || diag "$err"
		# shellcheck disable=SC2086 # the overrides are words
		run --quiet --json "$tmp/z.json" $zero "$cfg/timing/$g.ini" "$trace"
		is "$st" 0 "$name: timing/$g.ini with no latency: exit 0" || diag "$err"
		is "$(untimed "$tmp/z.json")" "$(kernels "$tmp/f.json")" \
			"$name: timing/$g.ini with no latency and no MSHR limit gives $g.ini's results"
		run --quiet --json "$tmp/t1.json" --threads 1 "$cfg/timing/$g.ini" "$trace"
		is "$st" 0 "$name: timing/$g.ini: exit 0" || diag "$err"
		is "$(grep -c '"kernel": ' "$tmp/t1.json")" "$(grep -c '"kernel": ' "$tmp/f.json")" \
			"$name: timing/$g.ini: every kernel ends"
		run --quiet --json "$tmp/t3.json" --threads 3 "$cfg/timing/$g.ini" "$trace"
		is "$(kernels "$tmp/t3.json")" "$(kernels "$tmp/t1.json")" \
			"$name: timing/$g.ini: 3 threads give 1 thread's results"
	done
done
[ "$have_shared" = 1 ] || skip "../shared/golden is not there (set SECTORSIM_SHARED): the golden traces" 5

sample=$top/traces/vectoradd-a100

# ---- the timing results -----------------------------------------------------
run --quiet --json "$tmp/f.json" "$cfg/titanv.ini" "$sample"
is "$(grep -c -E "$timing_keys" "$tmp/f.json")" 0 "a functional run reports no timing metric"
run --quiet --json "$tmp/t.json" --csv "$tmp/t.csv" "$cfg/timing/titanv.ini" "$sample"
# 18, and 15 of C-AMAT per level but the L2's C_h: the stock L2's lookup
# time is on the link, so it has no hit cycle to divide by
is "$(grep -c -E "$timing_keys" "$tmp/t.json")" 47 "a timed run reports its 47 timing metrics"
is "$(grep -c '"l2_C_h"' "$tmp/t.json")" 0 "a level with no hit cycle has no C_h"
has "$(grep '^kernel_id,' "$tmp/t.csv")" ",mem_cycles,sm_mem_cycles_min,sm_mem_cycles_max," "and has their CSV columns"
mem=$(sed -n 's/^ *"mem_cycles": \([0-9]*\),$/\1/p' "$tmp/t.json")
lo=$(sed -n 's/^ *"sm_mem_cycles_min": \([0-9]*\),$/\1/p' "$tmp/t.json")
hi=$(sed -n 's/^ *"sm_mem_cycles_max": \([0-9]*\),$/\1/p' "$tmp/t.json")
[ "${lo:-0}" -gt 0 ] && [ "$lo" -le "$hi" ] && [ "$hi" -le "$mem" ]
ok $? "memory time: every SM's within the kernel's ($lo <= $hi <= $mem cycles)"
# a load that misses everywhere takes at least L1 20 + L2 160 + DRAM 100
l1lat=$(sed -n 's/^ *"l1_mean_load_latency": \([0-9.]*\),$/\1/p' "$tmp/t.json")
awk -v v="$l1lat" 'BEGIN { exit !(v >= 280) }'
ok $? "vectoradd's loads all miss: mean L1 load latency at least 280 cycles ($l1lat)"

# ---- seeds ------------------------------------------------------------------
noisy="-p dram.latency_sigma=40"
# shellcheck disable=SC2086
run --quiet --stats=text $noisy -p dram.seed=7 "$cfg/timing/titanv.ini" "$sample"
is "$st" 0 "half-normal latencies: exit 0" || diag "$err"
printf '%s\n' "$out" >"$tmp/stats"
seed7=$out
lat7=$(stat dram.latency_cycles)
# shellcheck disable=SC2086
run --quiet --stats=text $noisy -p dram.seed=7 "$cfg/timing/titanv.ini" "$sample"
is "$out" "$seed7" "the same seed gives the same run"
# shellcheck disable=SC2086
run --quiet --stats=text $noisy -p dram.seed=8 "$cfg/timing/titanv.ini" "$sample"
printf '%s\n' "$out" >"$tmp/stats"
lat8=$(stat dram.latency_cycles)
[ -n "$lat7" ] && [ -n "$lat8" ] && [ "$lat7" != "$lat8" ]
ok $? "another seed gives other latencies ($lat7, $lat8 cycles)"
# shellcheck disable=SC2086
run --quiet --stats=text -p dram.seed=8 -p dram.bytes_per_cycle=0 "$cfg/timing/titanv.ini" "$sample"
printf '%s\n' "$out" >"$tmp/stats"
is "$(stat dram.latency_cycles)" "$(( $(stat dram.answered) * 100 ))" \
	"without sigma and bandwidth every DRAM answer takes the latency"
is "$(stat dram.queued)" "" "without bandwidth, DRAM has no queue to count"
run --quiet --stats=text "$cfg/timing/titanv.ini" "$sample"
printf '%s\n' "$out" >"$tmp/stats"
[ "$(stat dram.queue_cycles)" -gt 0 ] && [ "$(stat dram.latency_cycles)" -gt "$(( $(stat dram.answered) * 100 ))" ]
ok $? "with TITAN V's bandwidth, requests queue and answers come later ($(stat dram.queue_cycles) cycles queued)"

# a cache's hits may be half-normal too (synth has L1 hits; the sample none)
synth=$shared/golden/synth/app
if [ -d "$synth" ]; then
	for sd in 1 1 2; do
		run --quiet --stats=text -p l1.latency_sigma=8 -p l1.seed=$sd "$cfg/timing/titanv.ini" "$synth"
		printf '%s\n' "$out" >"$tmp/stats"
		eval "hit_$sd=\$(stat l1.load_cycles)"
	done
	# shellcheck disable=SC2154 # set by the eval above
	[ -n "$hit_1" ] && [ "$hit_1" != "$hit_2" ]
	ok $? "half-normal hits: another seed, other latencies ($hit_1, $hit_2 cycles)"
	run --quiet --stats=text -p l1.latency_sigma=8 -p l1.seed=1 "$cfg/timing/titanv.ini" "$synth"
	printf '%s\n' "$out" >"$tmp/stats"
	is "$(stat l1.load_cycles)" "$hit_1" "half-normal hits: the same seed, the same latencies"
else
	skip "../shared/golden is not there: half-normal hits on synth" 2
fi
run --quiet -p l2.latency_sigma=-1 "$cfg/timing/titanv.ini" "$sample"
is "$st" 2 "a negative latency_sigma: exit 2"
has "$err" "latency_sigma = -1: expected a value from 0 to 1e+06" "a negative latency_sigma: why"
# a huge sigma would overflow the ticks: refused, not answers lost
run --quiet -p l1.latency_sigma=1e20 "$cfg/timing/titanv.ini" "$sample"
is "$st" 2 "latency_sigma = 1e20: exit 2"
run --quiet -p dram.latency_sigma=1e20 "$cfg/timing/titanv.ini" "$sample"
is "$st" 2 "DRAM latency_sigma = 1e20: exit 2"

# a resumed timed run gives the uninterrupted one's results, byte for
# byte: the DRAM's queue counts from each kernel's begin, whatever the
# tick the kernel starts at
if [ -d "$synth" ]; then
	run --quiet --csv "$tmp/full.csv" "$cfg/timing/titanv.ini" "$synth"
	head -n -1 "$tmp/full.csv" >"$tmp/res.csv.part"
	run --quiet --resume --csv "$tmp/res.csv" "$cfg/timing/titanv.ini" "$synth"
	is "$st" 0 "--resume of a timed run: exit 0" || diag "$err"
	is "$(cat "$tmp/res.csv")" "$(cat "$tmp/full.csv")" "--resume of a timed run: the uninterrupted results"
else
	skip "../shared/golden is not there: --resume of a timed run on synth" 2
fi

# the timing metrics are hw's: a ref report of a timed run shows none
run --quiet --json "$tmp/ref.json" -p report.mode=ref "$cfg/timing/titanv.ini" "$sample"
is "$(grep -c -E "$timing_keys" "$tmp/ref.json")" 0 "report.mode = ref on a timed run: no timing metric"

# ---- refusals -----------------------------------------------------------------
run --quiet --stats=text -p l1.mshr_entries=2 -p l1.mshr_targets=2 \
	-p l2.mshr_entries=1 "$cfg/timing/titanv.ini" "$sample"
is "$st" 0 "tiny MSHRs: exit 0" || diag "$err"
printf '%s\n' "$out" >"$tmp/stats"
refused=$(stat sm.refused)
[ "${refused:-0}" -gt 0 ]
ok $? "tiny MSHRs: the L1s refuse requests ($refused)"
is "$(( $(stat l1.mshr_refused_entries) + $(stat l1.mshr_refused_targets) ))" "$refused" \
	"every refusal of an L1 reaches its SM"
is "$(( $(stat l1.hits) + $(stat l1.sector_misses) + $(stat l1.line_misses) + $(stat l1.latency_misses) ))" \
	"$(stat l1.accesses)" "L1: every access is a hit, a miss or a latency miss, once"
is "$(( $(stat l2.hits) + $(stat l2.sector_misses) + $(stat l2.line_misses) + $(stat l2.latency_misses) ))" \
	"$(stat l2.accesses)" "L2: every access is a hit, a miss or a latency miss, once"
is "$(stat l1.accesses)" 18750 "refused requests are sent again, none lost: the sample's 18750 sector accesses"
is "$(stat l1.loads_answered)" 12500 "each of the 12500 loads answered once"

# ---- lines in flight, links with latency, the per-slice topology -----------------
run --quiet --stats=text "$cfg/timing/titanv.ini" "$sample"
printf '%s\n' "$out" >"$tmp/stats"
# each warp's four sectors of a line miss together: the first misses the
# line, the other three find it reserved (sector misses), as without time
is "$(stat l1.global_load_line_misses) $(stat l1.global_load_sector_misses)" "3126 9374" \
	"a line in flight is reserved: its other sectors are sector misses"
cat >"$tmp/links.ini" <<EOF
[simulation]
include = $cfg/timing/titanv.ini
[link sm_l1]
latency = 3
[link l1_l2]
latency = 7
[link l2_dram]
latency = 2
EOF
feat=$shared/golden/accelsim_features/accelsim
if [ -d "$feat" ]; then
	for k in l2.mshr_entries=1 l2.mshr_targets=1; do
		for th in 1 2; do
			run --quiet --threads $th --json "$tmp/l$th.json" -p l1.write_miss=fetch \
				-p l1.write_hit=write_back -p "$k" "$tmp/links.ini" "$feat"
			is "$st" 0 "links with latency, write fetches, $k, $th threads: exit 0" || diag "$err"
		done
		is "$(kernels "$tmp/l2.json")" "$(kernels "$tmp/l1.json")" "links with latency, $k: 2 threads give 1 thread's results"
	done
else
	skip "../shared/golden is not there: links with latency on accelsim_features" 6
fi
slices="-p sm.timing=true -p l1.timing=true -p l2s.timing=true -p xbar.timing=true
-p dram.timing=true -p l1.tag_latency=20 -p l2s.tag_latency=160 -p dram.latency=100
-p l1.mshr_entries=4 -p l2s.mshr_entries=2 -p l1.mshr_targets=8 -p l2s.mshr_targets=4"
# shellcheck disable=SC2086
run --quiet --json "$tmp/s.json" $slices "$cfg/titanv-slices.ini" "$sample"
is "$st" 0 "titanv-slices.ini in timing mode: exit 0" || diag "$err"
# (the ROP latency in the L2, not on the link; refusals, not a queue)
run --quiet --json "$tmp/t.json" -p l1.mshr_entries=4 -p l2.mshr_entries=2 \
	-p l1_l2.latency=0 -p l2.tag_latency=160 -p l2.mshr_queue=0 \
	-p dram.bytes_per_cycle=0 "$cfg/timing/titanv.ini" "$sample"
is "$(kernels "$tmp/s.json")" "$(kernels "$tmp/t.json")" \
	"in timing mode, the slices behind a router give the slice set's results"
# on 2 threads the L1s and the router are apart: the L1s' delayed sends
# must cross by the partitions' queues, not as calls (a race, which
# crashed about one run in eight)
crashed=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	# shellcheck disable=SC2086
	run --quiet --threads 2 $slices -p xbar.timing=false "$cfg/titanv-slices.ini" "$sample"
	[ "$st" = 2 ] || crashed=$((crashed + 1))
done
is "$crashed" 0 "timed slices behind a functional router, 10 runs on 2 threads: each exits 2"
has "$err" "expected timing = true on the router" "timed slices behind a functional router: why"

# ---- a queue in front of the L2, across a link with latency ---------------------
# one MSHR entry per slice: with a queue of 1 most requests are refused and
# sent again across the link; with one of 40960 none is, and they wait
for q in 1 40960; do
	for th in 1 2; do
		run --quiet --threads $th --stats=text -p l2.mshr_entries=1 -p l2.mshr_queue=$q \
			"$cfg/timing/titanv.ini" "$sample"
		is "$st" 0 "l2.mshr_queue = $q, $th threads: exit 0" || diag "$err"
		printf '%s\n' "$out" >"$tmp/q$q.$th"
	done
	is "$(cat "$tmp/q$q.2")" "$(cat "$tmp/q$q.1")" "l2.mshr_queue = $q: 2 threads give 1 thread's statistics"
	cp "$tmp/q$q.1" "$tmp/stats"
	is "$(( $(stat l2.hits) + $(stat l2.sector_misses) + $(stat l2.line_misses) + $(stat l2.latency_misses) ))" \
		"$(stat l2.accesses)" "l2.mshr_queue = $q: every L2 access is a hit, a miss or a latency miss, once"
	eval "refused_$q=\$(( \$(stat l2.mshr_refused_entries) + \$(stat l2.mshr_refused_targets) ))"
done
# shellcheck disable=SC2154 # set by the eval above
[ "$refused_1" -gt "$refused_40960" ] && [ "$refused_40960" -gt 0 ]
ok $? "a longer queue refuses fewer ($refused_40960 found the table full, against $refused_1 refusals)"

# ---- what cannot work -----------------------------------------------------------
run --quiet -p dram.timing=false "$cfg/timing/titanv.ini" "$sample"
is "$st" 2 "a DRAM that never answers: exit 2"
has "$err" "kernel 1 never finished" "a DRAM that never answers: the kernel never finished, not a hang"
run --quiet -p sm.timing=true "$cfg/validation/titanv-ref.ini" "$sample"
is "$st" 2 "timing with the reference's issue: exit 2"
has "$err" "timing = true needs classify = hw" "timing with the reference's issue: why"
run --quiet -p l2.timing=true "$cfg/validation/titanv-ref.ini" "$sample"
is "$st" 2 "timing with the round-robin L2 merge: exit 2"
has "$err" "needs merge = arrival" "timing with the round-robin L2 merge: why"
run --quiet -p sm.issue=latency_queue "$cfg/titanv.ini" "$sample"
is "$st" 2 "latency_queue without timing: exit 2"
has "$err" "it needs timing = true" "latency_queue without timing: why"

done_testing
