#!/bin/sh
# A level shared by several caches above is a plain sector_cache with
# several inputs (cpu_side[*]), merged as the L2 merges its L1s.  Each
# case builds one configuration twice from a stock one's --dump-config:
# its one-cache L2 as an l2_slice_set of one slice, and as a sector_cache
# fed by the 80 L1s; the results (--csv) must be the same, byte for byte,
# at 1, 2 and 3 threads:
#   - validation/titanv-ref.ini, whose L2 merges the L1s round-robin
#     (merge = rr, the reference's order);
#   - ablations/titanv-l2-unified.ini (merge = arrival);
#   - timing/titanv.ini with its 48 slices made one timed cache (answers
#     go back to the input each request came from).
# Then an L1.5 shared by pairs of SMs between titanv.ini's L1s and L2:
# each kernel's results have its own metrics (what it sent down is what
# the L2 looked up), and the app total sums them; the report's `levels`
# names or drops them.  Then what a shared sector_cache refuses: timing
# with merge = rr.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-shared-cache

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
[ $# -gt 1 ] || diag "../shared not found: the bundled sample only"

# variants NAME CONFIG [SED...]: $tmp/NAME-slice.ini and $tmp/NAME-sc.ini
# from CONFIG's dump, the second with its L2 a sector_cache; SED edits both
variants()
{
	_name=$1 _config=$2
	shift 2
	"$SECTORSIM" --dump-config "$cfg/$_config" > "$tmp/$_name.dump" || return 1
	# the keys of the L2's slicing, which a one-slice set need not say
	grep -v -E '^(slices|mapping|n_channels|n_sub|chip_shift|bank_mask|subpart_indexing) = ' \
		"$tmp/$_name.dump" | sed "$@" -e 's/^type = l2_slice_set$/type = L2TYPE/' \
		> "$tmp/$_name.base" || return 1
	sed -e 's/^type = L2TYPE$/type = l2_slice_set\nslices = 1\nmapping = single/' \
		-e 's/^from = l2\.mem_side$/from = l2.mem_side[0]/' \
		"$tmp/$_name.base" > "$tmp/$_name-slice.ini"
	sed -e 's/^type = L2TYPE$/type = sector_cache/' "$tmp/$_name.base" > "$tmp/$_name-sc.ini"
}

# rows CSV: the results without their provenance (which names the file)
rows() { grep -v '^#' "$1"; }

variants ref validation/titanv-ref.ini -e 's/^from = l2\.mem_side\[0\]$/from = l2.mem_side/'
ok $? "titanv-ref.ini: both variants made"
variants unified ablations/titanv-l2-unified.ini -e 's/^from = l2\.mem_side\[0\]$/from = l2.mem_side/'
ok $? "titanv-l2-unified.ini: both variants made"
# timing: 48 slices of 32 sets become one cache of 1536 (fib_double index)
variants timed timing/titanv.ini -e 's/^sets = 32$/sets = 1536/' \
	-e 's/^index = ipoly$/index = fib_double/' -e 's/^index_on = partition$/index_on = address/' \
	-e 's/^channels = 24$/channels = 1/' -e 's/^from = l2\.mem_side\[0\.\.47\]$/from = l2.mem_side/'
ok $? "timing/titanv.ini: both variants made"
grep -q '^merge = rr' "$tmp/ref-sc.ini" && grep -q '^merge = arrival' "$tmp/unified-sc.ini" &&
	grep -q '^timing = true' "$tmp/timed-sc.ini"
ok $? "the cases: merge = rr, merge = arrival, timed"

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for v in ref unified timed; do
		for n in 1 2 3; do
			key=$name-$v-$n
			"$SECTORSIM" -q --threads "$n" --csv "$tmp/$key-slice.csv" \
				"$tmp/$v-slice.ini" "$trace" > /dev/null 2> "$tmp/$key-slice.err"
			st_slice=$?
			"$SECTORSIM" -q --threads "$n" --csv "$tmp/$key-sc.csv" \
				"$tmp/$v-sc.ini" "$trace" > /dev/null 2> "$tmp/$key-sc.err"
			st_sc=$?
			is "$st_sc" "$st_slice" "$name, $v, --threads $n: the same exit status" ||
				diag "$(cat "$tmp/$key-sc.err")"
			if [ "$st_sc" = 0 ] && [ "$(rows "$tmp/$key-sc.csv")" = "$(rows "$tmp/$key-slice.csv")" ]; then
				ok 0 "$name, $v, --threads $n: a shared sector_cache gives the one-slice L2's results"
			else
				ok 1 "$name, $v, --threads $n: a shared sector_cache gives the one-slice L2's results"
				diag "$(diff "$tmp/$key-slice.csv" "$tmp/$key-sc.csv" | head -5)"
			fi
		done
	done
done

# ---- every cache level in the results: an L1.5 shared by pairs of SMs ------
cat > "$tmp/l15.ini" <<INI
[simulation]
include = $cfg/titanv.ini

[component l15]
type = sector_cache
count = 40
size = 256KiB
assoc = 16
write_miss = lazy_fetch
merge = arrival

[link l1_l2]
from = l1[*].mem_side
to = l15[*].cpu_side[*]

[link l15_l2]
from = l15[*].mem_side
to = l2.cpu_side[*]
INI
for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	"$SECTORSIM" -q --json "$tmp/l15-$name.json" --csv "$tmp/l15-$name.csv" "$tmp/l15.ini" "$trace" \
		> "$tmp/l15-$name.table" 2> "$tmp/l15-$name.err"
	is "$?" 0 "$name, an L1.5: exit 0" || diag "$(cat "$tmp/l15-$name.err")"
	# per kernel, from the JSON: what the L1.5 sent down is what the L2 looked up
	v=$(awk '
		/"l2_(read|write|atom|red)_sectors":/ { v = $2; gsub(/[^0-9]/, "", v); l2 += v }
		/"l15": \{/ {
			match($0, /"reads_down": [0-9]+/); rd = substr($0, RSTART + 14, RLENGTH - 14)
			match($0, /"writes_down": [0-9]+/); wr = substr($0, RSTART + 15, RLENGTH - 15)
			match($0, /"lookups": [0-9]+/); lk = substr($0, RSTART + 11, RLENGTH - 11)
			n++; if (rd + wr != l2) bad++; if (lk == "") bad++; lookups += lk; l2 = 0
		}
		END { printf "%d %d %d", n, bad + 0, lookups }' "$tmp/l15-$name.json")
	n=${v%% *}
	rest=${v#* }
	bad=${rest%% *}
	lookups=${rest#* }
	kernels=$(grep -c '"kernel_id"' "$tmp/l15-$name.json")
	is "$n" "$kernels" "$name: every kernel has the L1.5's metrics"
	is "$bad" 0 "$name: the L1.5 sent down what the L2 looked up, kernel by kernel"
	grep -q '^kernel_id,.*,blocks_traced,l15\.lookups,l15\.hits,l15\.hit_rate,' "$tmp/l15-$name.csv"
	ok $? "$name: the CSV has the L1.5's columns after blocks_traced"
	has "$(cat "$tmp/l15-$name.table")" "l15 10 MiB in all, 40 of 256 KiB" "$name: the table says the L1.5's capacity"
	if [ "$kernels" -gt 1 ]; then
		total=$(sed -n '/^app: total/,/^app: mean/p' "$tmp/l15-$name.table" | awk '$1 == "l15.lookups" { print $2 }')
		is "$total" "$lookups" "$name: the app total of the L1.5's lookups is the kernels'"
	fi
done
run -q -p report.levels=none --json "$tmp/none.json" "$tmp/l15.ini" "$top/traces/vectoradd-a100"
grep -q '"levels"' "$tmp/none.json"
ok $((! $?)) "report.levels = none: no other level"
run -q -p report.levels=l15 --json "$tmp/named.json" "$tmp/l15.ini" "$top/traces/vectoradd-a100"
grep -q '"l15": {"lookups": ' "$tmp/named.json"
ok $? "report.levels = l15: named"
run -q -p report.levels=l2 "$tmp/l15.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "report.levels = l2: exit 2"
has "$err" "levels: 'l2' is reported already" "report.levels = l2: said"
run -q -p report.levels=nosuch "$tmp/l15.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "report.levels = nosuch: exit 2"
has "$err" "levels: 'nosuch' has no counter global_load_accesses" "report.levels = nosuch: said"
# a sweep of the L2's ways: one pass of lanes cannot give the other
# levels' numbers, so the points run one by one, and say why
"$SECTORSIM" sweep "$tmp/l15.ini" "$top/traces/vectoradd-a100" -s l2.assoc=8,16 \
	--json "$tmp/l15-sweep.json" > /dev/null 2> "$tmp/l15-sweep.err"
is "$?" 0 "an L1.5, a sweep of l2.assoc: exit 0"
has "$(cat "$tmp/l15-sweep.err")" "run point by point, since one pass failed: " \
	"an L1.5, a sweep of l2.assoc: point by point"
has "$(cat "$tmp/l15-sweep.err")" "the report has other cache levels (l15)" "... and why"
"$SECTORSIM" -q -p l2.assoc=16 --json "$tmp/l15-16.json" "$tmp/l15.ini" "$top/traces/vectoradd-a100" > /dev/null 2>&1
kernels_of_run "$tmp/l15-16.json" > "$tmp/l15-16.k"
kernels_of_point "$tmp/l15-sweep.json" 1 > "$tmp/l15-sweep-1.k"
cmp -s "$tmp/l15-16.k" "$tmp/l15-sweep-1.k"
ok $? "an L1.5, a sweep of l2.assoc: point 1 is the run with -p l2.assoc=16"
# a sweep whose points fail on their own (max_ticks) says nothing of one
# pass: only the points' error
"$SECTORSIM" sweep "$cfg/titanv.ini" "$top/traces/vectoradd-a100" -s l2.assoc=8,16 \
	-p simulation.max_ticks=50 --threads 1 --csv "$tmp/mt.csv" > /dev/null 2> "$tmp/mt.err"
is "$?" 1 "a sweep stopped by max_ticks: exit 1"
has "$(cat "$tmp/mt.err")" "max_ticks = 50 stopped the run" "a sweep stopped by max_ticks: the points' error"
case $(cat "$tmp/mt.err") in
*"point by point"*) ok 1 "a sweep stopped by max_ticks: no word of one pass" ;;
*) ok 0 "a sweep stopped by max_ticks: no word of one pass" ;;
esac
# a functional level under a timed one: one line, not an abort
sed -e "s|^include = .*|include = $cfg/timing/titanv.ini|" "$tmp/l15.ini" > "$tmp/l15-untimed.ini"
run -q "$tmp/l15-untimed.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "a functional L1.5 under a timed L2: exit 2"
has "$err" "but this cache is functional; expected timing = true on every level between a timed one and the SMs" \
	"a functional L1.5 under a timed L2: one line says what it needs"
# a stock configuration has no other level: its results are as they were
run -q --json "$tmp/stock.json" "$cfg/titanv.ini" "$top/traces/vectoradd-a100"
grep -q '"levels"' "$tmp/stock.json"
ok $((! $?)) "titanv.ini: no other level"

# timing = true with several inputs needs merge = arrival
sed 's/^merge = arrival$/merge = rr/' "$tmp/timed-sc.ini" > "$tmp/timed-rr.ini"
run -q "$tmp/timed-rr.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "a timed sector_cache of 80 inputs with merge = rr: exit 2"
has "$err" "timing = true with 80 inputs needs merge = arrival" "the message says what it needs"

# one input, written bare as before cpu_side became a vector: unchanged
grep -q '^to = l1\[\*\]\.cpu_side$' "$tmp/ref-sc.ini"
ok $? "the L1s' one input is still written bare (element 0)"

done_testing
