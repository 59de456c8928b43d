#!/bin/sh
# The hardware-faithful stock configurations on every golden trace:
# titanv.ini, a100.ini, the other TITAN V topologies and the paper's
# ablations all run; the per-slice topology (titanv-slices.ini) gives the
# results of titanv.ini counter for counter; hw results are integer counts
# with the hw-only keys.  Without ../shared, the bundled sample and the
# repository's own golden subset stand in, and the rest is skipped.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-hw

# The traces: the bundled sample always; the golden ones when ../shared is there.
IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
have_shared=0
[ $# -gt 1 ] && have_shared=1

configs="titanv.ini a100.ini titanv-slices.ini titanv-no-l1.ini
ablations/titanv-l1-nonsectored.ini ablations/titanv-l2-nonsectored.ini
ablations/titanv-l2-all.ini ablations/titanv-l1-fixed32k.ini
ablations/titanv-l2-unified.ini ablations/a100-l2-unified.ini"

# kernels FILE: the results of a --json FILE from its "kernels" on, without
# the provenance before them (which names the configuration)
kernels() { sed -n '/^  "kernels": \[/,$p' "$1"; }

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for c in $configs; do
		j=$tmp/$name-$(echo "$c" | tr / -).json
		run --quiet --json "$j" "$cfg/$c" "$trace"
		is "$st" 0 "$name under $c: exit 0" || diag "$err"
	done
	# counter for counter: every metric of every kernel, in the same order
	# (the kernels: the provenance before them names each configuration)
	is "$(kernels "$tmp/$name-titanv-slices.ini.json")" "$(kernels "$tmp/$name-titanv.ini.json")" \
		"$name: titanv-slices.ini gives titanv.ini's results"
	hw=$(cat "$tmp/$name-titanv.ini.json")
	has "$hw" '"l2_dirty_at_kernel_end": ' "$name: titanv.ini reports the dirty data left in the L2"
	has "$hw" '"scale": 1,' "$name: no scale factor"
	# counts are integers: a scaled count would print a fraction or '.0'
	bad=$(grep -E '"(gmem|lmem|l2|dram)_[a-z_]*(reqs|sectors|trans)": [0-9]+\.' "$tmp/$name-titanv.ini.json" | head -3)
	is "$bad" "" "$name: hw counts are integers"
	noL1=$(cat "$tmp/$name-titanv-no-l1.ini.json")
	case $noL1 in
	*'"l1_hit_rate"'*) ok 1 "$name: titanv-no-l1.ini has no L1 rates" ;;
	*) ok 0 "$name: titanv-no-l1.ini has no L1 rates" ;;
	esac
done
[ "$have_shared" = 1 ] || skip "../shared/golden is not there (set SECTORSIM_SHARED): the golden traces" 1

# ---- what the hw model must show on the sample ---------------------------------

# vectorAdd streams: every DRAM write of ref is its kernel-end flush
run --quiet --json "$tmp/ref.json" "$cfg/validation/titanv-ref.ini"
run --quiet --json "$tmp/hw.json" "$cfg/titanv.ini"
ref_w=$(sed -n 's/.*"dram_st_trans": \([0-9.]*\).*/\1/p' "$tmp/ref.json")
hw_w=$(sed -n 's/.*"dram_st_trans": \([0-9.]*\).*/\1/p' "$tmp/hw.json")
hw_d=$(sed -n 's/.*"l2_dirty_at_kernel_end": \([0-9]*\).*/\1/p' "$tmp/hw.json")
diag "sample: ref DRAM writes $ref_w; hw DRAM writes $hw_w, dirty at kernel end $hw_d"
is "$(awk -v r="$ref_w" -v w="$hw_w" -v d="$hw_d" 'BEGIN { print (w + d == r) ? "yes" : "no" }')" yes \
	"sample: hw DRAM writes + dirty at kernel end = ref's flushed writes"

done_testing
