#!/bin/sh
# The table's app total, checked against the kernels of the same run's
# --json: each count is the sum of the kernels'; a rate is the kernels'
# numerators summed over their denominators summed (a hit rate weighted by
# each kernel's lookups, sectors per request by its requests), never their
# mean; a peak is the greatest and a shortest time the least; a setting,
# a state at a kernel's end (the L1's size, the scale, the L2's dirty
# lines) or a mean per active SM has no total.  The rates this test
# cannot weight from the JSON must be there, between 0 and their largest
# kernel value where they are hit rates.  Every trace (the bundled sample always; every golden trace
# with ../shared) runs under a hardware-faithful, a reference, an SDCM and
# a timing configuration; a trace of three kernels under Nugteren et al.'s
# model; and a hand-worked case.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-app-total

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
[ $# -gt 1 ] || diag "../shared not found: the bundled sample only"

configs="titanv.ini validation/titanv-ref.ini validation/titanv-sdcm-ref.ini timing/titanv.ini"

# check_total JSON TABLE: "ok" or one line per metric that is wrong.
# The kernels' metrics come from the JSON (full precision); the total from
# the table (4 significant digits), so values agree to 1 part in 2000.
check_total()
{
	awk '
	# the rates weighted by a count the JSON has: rate -> its denominator
	BEGIN {
		den["gmem_ld_diverg"] = "gmem_ld_reqs"
		den["gmem_st_diverg"] = "gmem_st_reqs"
		den["gmem_tot_diverg"] = "gmem_tot_reqs"
		den["l1_hit_rate_ldg"] = "gmem_ld_sectors"
		den["l1_hit_rate_stg"] = "gmem_st_sectors"
		den["l1_pMR"] = "l1_camat_accesses"
		den["l2_pMR"] = "l2_camat_accesses"
		den["miss_rate_pct"] = "accesses"
		# hw counts L2 sectors by operation; ref its ld and st transactions
		den["l2_hit_rate_ld"] = "l2_read_sectors|l2_ld_trans"
		den["l2_hit_rate_st"] = "l2_write_sectors|l2_st_trans"
		# rates the JSON cannot weight: there, and hit rates within [0, 1]
		split("l1_hit_rate l1_hit_rate_ld l1_hit_rate_st l1_hit_rate_g " \
		      "l2_hit_rate l1_mean_load_latency " \
		      "l2_mean_load_latency dram_mean_latency dram_mean_queue_delay " \
		      "l1_C_h l1_C_m l1_pAMP l1_mean_hit_time l1_camat l1_amat " \
		      "l2_C_h l2_C_m l2_pAMP l2_mean_hit_time l2_camat l2_amat", r, " ")
		for (i in r) other[r[i]] = 1
		mx["l1_mshr_peak"] = mx["l2_mshr_peak"] = mx["sm_mem_cycles_max"] = 1
		mn["sm_mem_cycles_min"] = 1
		none["l1_cache_size"] = none["scale"] = 1
		none["l2_dirty_at_kernel_end"] = none["cache_capacity_bytes"] = 1
		none["gmem_tot_sectors_per_sm"] = none["atom_tot_reqs"] = 1
		none["red_tot_reqs"] = none["atom_red_tot_trans"] = 1
	}
	function kernel_done(   k, d, n, i, alt) {
		for (k in m) {
			seen[k]++
			sum[k] += m[k]
			if (!(k in big) || m[k] > big[k]) big[k] = m[k]
			if (!(k in small) || m[k] < small[k]) small[k] = m[k]
			if (k in den) {
				n = split(den[k], alt, "|")
				for (i = 1; i <= n; i++)
					if (alt[i] in m) {
						wnum[k] += m[k] * m[alt[i]]
						wden[k] += m[alt[i]]
						break
					}
			}
		}
		split("", m)
	}
	FILENAME == ARGV[1] {
		if ($0 ~ /^      "metrics": \{$/) { inm = 1; next }
		if (inm && $0 ~ /^      \}/) { inm = 0; kernel_done(); next }
		if (inm) {
			line = $0
			gsub(/[" ,]/, "", line)
			split(line, kv, ":")
			m[kv[1]] = kv[2] + 0
		}
		next
	}
	/^app: total over/ { intotal = 1; next }
	/^app: mean over/ { intotal = 0 }
	intotal && NF >= 2 { total[$1] = $2 + 0; ntotal++ }
	function near(a, b) {
		return (a == b) || (a - b <= 5e-4 * (a < 0 ? -a : a) + 1e-9 && \
			b - a <= 5e-4 * (a < 0 ? -a : a) + 1e-9)
	}
	END {
		bad = 0
		for (k in seen) {
			if (k in none) {
				if (k in total) { print k ": has a total"; bad++ }
				continue
			}
			if (!(k in total)) {
				# a C-AMAT ratio of nothing over the app is absent
				if (k ~ /_C_h$|_C_m$|_camat$/) continue
				print k ": no total"; bad++; continue
			}
			if (k in den)
				want = wden[k] ? wnum[k] / wden[k] : "any"
			else if (k in other)
				want = "any"
			else if (k in mx)
				want = big[k]
			else if (k in mn)
				want = small[k]
			else
				want = sum[k]
			if (want == "any") {
				if (k ~ /hit_rate/ && (total[k] < 0 || total[k] > 1)) {
					print k ": " total[k] " is no rate"; bad++
				}
				continue
			}
			if (!near(want, total[k])) {
				print k ": total " total[k] ", from the kernels " want; bad++
			}
		}
		for (k in total)
			if (!(k in seen)) { print k ": a total of no kernel metric"; bad++ }
		if (!ntotal) { print "no app total"; bad++ }
		if (!bad) print "ok"
	}' "$1" "$2"
}

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for c in $configs; do
		key=$name-$(echo "$c" | tr / -)
		"$SECTORSIM" -q --json "$tmp/$key.json" "$cfg/$c" "$trace" \
			> "$tmp/$key.table" 2> "$tmp/$key.err"
		st=$?
		if [ "$st" -ne 0 ]; then
			is "$st" 0 "$key: exits 0"
			diag "$(cat "$tmp/$key.err")"
			continue
		fi
		n=$(grep -c '"kernel_id"' "$tmp/$key.json")
		if [ "$n" -lt 2 ]; then
			# one kernel is its own total
			if grep -q '^app: total' "$tmp/$key.table"; then
				ok 1 "$key: one kernel, no app total"
			else
				ok 0 "$key: one kernel, no app total"
			fi
			continue
		fi
		has "$(cat "$tmp/$key.table")" "app: total over the $n kernels simulated" \
			"$key: the table closes with the app total of its $n kernels"
		is "$(check_total "$tmp/$key.json" "$tmp/$key.table")" ok \
			"$key: each total is what the kernels sum to"
	done
done

# Nugteren et al.'s model's numbers, on the bundled trace of three kernels
c=validation/fermi-nugteren.ini
"$SECTORSIM" -q --json "$tmp/nug.json" "$cfg/$c" "$srcdir/data/nugteren/multi" \
	> "$tmp/nug.table" 2> "$tmp/nug.err"
is "$?" 0 "$c: exits 0"
has "$(cat "$tmp/nug.table")" "app: total over the 3 kernels simulated" "$c: the app total of 3 kernels"
is "$(check_total "$tmp/nug.json" "$tmp/nug.table")" ok "$c: each total is what the kernels sum to"

# the hand-worked case: the sample's kernel, then its first quarter (49 of
# 196 blocks), the L2 kept between them (Nsight would flush it).  The
# first misses its 12500 load sectors in the L2; the second hits every
# sector it loads, since the first left them there.  Over the app, the L2's
# load hit rate is kernel 2's loads over both kernels' loads, 0.2;
# the mean of the kernels' rates, the paper's per-app figure, is 0.5.
two=$tmp/two
mkdir "$two"
gzip -dc "$top/traces/vectoradd-a100/kernel-1.traceg.gz" > "$two/kernel-1.traceg"
awk '/^-grid dim = / { print "-grid dim = (49,1,1)"; next }
	{ print }
	/^#END_TB/ && ++n == 49 { exit }' "$two/kernel-1.traceg" > "$two/kernel-2.traceg"
printf 'kernel-1.traceg\nkernel-2.traceg\n' > "$two/kernelslist.g"
run -q -p l2.at_kernel_end=keep "$cfg/titanv.ini" "$two"
is "$st" 0 "two kernels: exits 0"
value_of()
{
	printf '%s\n' "$out" | sed -n "/^$1/,/^\$/p" | awk -v k="$2" '$1 == k { print $2 }'
}
is "$(value_of 'kernel 1 ' l2_hit_rate_ld)" 0 "two kernels: the first misses every load in the L2"
is "$(value_of 'kernel 2 ' l2_hit_rate_ld)" 1 "two kernels: the second hits every load in the L2"
r1=$(value_of 'kernel 1 ' l2_read_sectors)
r2=$(value_of 'kernel 2 ' l2_read_sectors)
is "$r1" 12500 "two kernels: the first loads 12500 sectors"
is "$(value_of 'app: total' l2_read_sectors)" "$((r1 + r2))" "two kernels: the app's loads are both kernels'"
is "$(value_of 'app: total' l2_hit_rate_ld)" \
	"$(awk -v a="$r1" -v b="$r2" 'BEGIN { printf "%.4g", b / (a + b) }')" \
	"two kernels: the app's L2 load hit rate is its hits over its loads"
is "$(value_of 'app: mean' l2_hit_rate_ld)" 0.5 \
	"two kernels: the mean of the kernels' rates, the paper's per-app figure, follows"
is "$(value_of 'app: total' l2_dirty_at_kernel_end)" "" \
	"two kernels: a state at a kernel's end has no app total"

done_testing
