#!/bin/sh
# parallel = time: a cache simulated by segments on threads gives what it
# gives simulated request by request.  Each trace (the bundled sample
# always; every golden trace with ../shared) runs under configurations
# whose L2 is one cache (titanv-ref.ini, the unified L2), 48 slices
# (titanv.ini) and an A100 (a100.ini), plainly and with the L2's
# parallel = time at 2, 3 and 5 segments and batches of 64, 1000 and a
# million requests; once more with titanv-ref.ini's 80 L1s by segments,
# whose size each kernel sets.  The results (--csv) and every raw statistic
# (--stats csv) must be the same, but for the count of requests
# simulated again, which must be there and the same in a second run.
# Then the configurations it
# cannot run are refused with one line.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-timepar

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
[ $# -gt 1 ] || diag "../shared not found: the bundled sample only"

configs="validation/titanv-ref.ini ablations/titanv-l2-unified.ini titanv.ini a100.ini"

# outputs NAME CONFIG TRACE [-p ...]: the results and raw statistics of
# one run into $tmp/NAME.*, the count of requests simulated again taken
# out of the statistics into $tmp/NAME.replayed
outputs()
{
	o=$tmp/$1
	c=$2
	t=$3
	shift 3
	"$SECTORSIM" --threads 1 --csv "$o.csv" --stats csv -o "$o.raw" "$@" \
		"$cfg/$c" "$t" > /dev/null 2> "$o.err"
	echo $? > "$o.status"
	# the results' header names the -p given: the rows must be equal
	grep -v '^#' "$o.csv" > "$o.rows" 2> /dev/null
	grep -v 'time_parallel_replayed' "$o.raw" > "$o.stats" 2> /dev/null
	grep -c 'time_parallel_replayed' "$o.raw" > "$o.replayed" 2> /dev/null
}

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for c in $configs; do
		key=$name-$(echo "$c" | tr / -)
		outputs "$key-plain" "$c" "$trace"
		is "$(cat "$tmp/$key-plain.status")" 0 "$key: exits 0" ||
			diag "$(cat "$tmp/$key-plain.err")"
		for sb in 2:64 3:1000 5:1048576; do
			seg=${sb%:*}
			batch=${sb#*:}
			outputs "$key-$seg" "$c" "$trace" -p l2.parallel=time \
				-p "l2.segments=$seg" -p "l2.time_batch=$batch"
			same=0
			for f in status rows stats; do
				cmp -s "$tmp/$key-plain.$f" "$tmp/$key-$seg.$f" ||
					{ same=1; diag "$key: .$f differs with $seg segments of batches of $batch"; }
			done
			[ "$(cat "$tmp/$key-$seg.replayed")" -gt 0 ] ||
				{ same=1; diag "$key: no count of requests simulated again"; }
			ok $same "$key: the L2 in $seg segments of batches of $batch gives the same"
		done
	done
	# what is simulated again, counted every run alike (the unified L2)
	key=$name-ablations-titanv-l2-unified.ini
	outputs "$key-again" ablations/titanv-l2-unified.ini "$trace" -p l2.parallel=time \
		-p l2.segments=2 -p l2.time_batch=64
	cmp -s "$tmp/$key-2.raw" "$tmp/$key-again.raw"
	ok $? "$key: a second run counts the same requests simulated again"
	# the L1s, sized by each kernel: their copies follow (titanv-ref.ini:
	# its L2 merges their streams round-robin, whenever their requests
	# come, which a held batch does not change)
	key=$name-l1
	outputs "$key-plain" validation/titanv-ref.ini "$trace"
	outputs "$key-2" validation/titanv-ref.ini "$trace" \
		-p l1.parallel=time -p l1.time_batch=100
	same=0
	for f in status rows stats; do
		cmp -s "$tmp/$key-plain.$f" "$tmp/$key-2.$f" ||
			{ same=1; diag "$key: .$f differs"; }
	done
	ok $same "$key: titanv-ref.ini's L1s by segments give the same"
done

# what cannot be simulated by segments: one line naming it, exit 2
run -p l2.parallel=time -p l2.protect_dirty_pct=25 "$cfg/titanv.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "parallel = time with protect_dirty_pct: exit 2"
has "$err" "parallel = time: protect_dirty_pct ties the sets together" \
	"parallel = time with protect_dirty_pct: says why"
run -p l2.parallel=time "$cfg/timing/titanv.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "parallel = time in timing mode: exit 2"
has "$err" "parallel = time with timing = true" "parallel = time in timing mode: says why"
run -p l2.parallel=time -p l2.segments=1 "$cfg/titanv.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "one segment: exit 2"
has "$err" "segments" "one segment: names the key"

done_testing
