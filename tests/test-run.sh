#!/bin/sh
# Running the GPU pipeline from the command line: the positional TRACE,
# --json and --csv, and every class of malformed trace (traces.md 6): each
# must exit 2 with its one-line message naming the file and the line.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

SECTORSIM=${SECTORSIM:-$srcdir/../sectorsim}
case $SECTORSIM in /*) ;; *) SECTORSIM=$PWD/$SECTORSIM ;; esac
top=$srcdir/..
titanv=$top/configs/titanv.ini
sample=$top/traces/vectoradd-a100
bad=$srcdir/data/trace

tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-run.XXXXXX") || {
	echo 'Bail out! cannot create a temporary folder'
	exit 1
}
trap 'rm -rf "$tmp"' EXIT

# run ARGS...: stdout in $out, stderr in $err, exit status in $st
run()
{
	"$SECTORSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# ---- the main job and TRACE -------------------------------------------------

run --quiet "$titanv"
is "$st" 0 "titanv.ini on its bundled sample: exit 0"
has "$out" "kernel 1  _Z9vectorAddPKfS0_Pfi" "the table names the kernel"
has "$out" "l2_hit_rate                 0.33333333333333337" "the table has the L2 hit rate"
has "$out" "dram__sectors_read.sum" "the table has the Nsight names"
is "$err" "" "--quiet: nothing on stderr"
default=$out

run --quiet "$titanv" "$sample"
is "$out" "$default" "TRACE = the sample folder: the same table"
run --quiet "$titanv" "$sample/kernelslist.g"
is "$out" "$default" "TRACE = a kernelslist.g: the same table"
run --quiet "$titanv" "$tmp/nothing-here"
is "$st" 2 "a TRACE that does not exist: exit 2"
has "$err" "nothing-here" "the message names it"
run --quiet "$titanv" "$sample" extra
is "$st" 2 "a third argument: exit 2"
has "$err" "unexpected argument 'extra'; expected CONFIG.ini [TRACE]" "the message says what is expected"

run --quiet --json "$tmp/r.json" --csv "$tmp/r.csv" "$top/configs/a100.ini"
is "$st" 0 "a100.ini with --json and --csv: exit 0"
has "$(cat "$tmp/r.json")" '"l1_cache_size": 196608' "the JSON has the A100's L1"
has "$(cat "$tmp/r.json")" '"lts__t_sector_hit_rate.pct": 33.333333333333336' "the JSON has the Nsight names"
is "$(head -c 35 "$tmp/r.csv")" "kernel_id,kernel_name,l1_cache_size" "the CSV starts with its header"
is "$(sed -n 2p "$tmp/r.csv" | cut -d, -f1-4)" "1,_Z9vectorAddPKfS0_Pfi,196608,1" "one CSV row per kernel"
is "$(ls "$tmp" | grep -c part)" 0 "no partial files left"

run --quiet --json "$tmp/no/such/dir/r.json" "$titanv"
is "$st" 2 "--json into a folder that does not exist: exit 2"
has "$err" "r.json: cannot write the results" "the message names the file"

run --quiet --stats json "$titanv"
is "$st" 0 "--stats json: exit 0"
has "$out" '"phase": "kernel 1"' "the raw statistics have a phase per kernel"
has "$out" '"l2.wb_flush": 6250' "and the counters of the kernel in it"

# ---- one SM's classification, worked out by hand --------------------------------
# tests/data/pipeline/sticky: one warp, lines LDL, ST.E (generic: takes the
# flags before it, a local load), STG, LD.E (a global store, sticky), ATOMG
# and RED (counted, dropped), LDG (hits the sector LDL brought in).  L1:
# loads 0x1000 miss, 0x2000 miss, 0x2020 sector miss, 0x1000 hit; stores
# 0x3000 miss then hit.  L2 (fix_l2): 3 read misses, 2 writes; the flush
# writes 0x3000 back.

run --quiet "$titanv" "$srcdir/data/pipeline/sticky"
is "$st" 0 "hand-worked kernel: exit 0"
while IFS='|' read -r metric value; do
	[ -n "$metric" ] || continue
	has "$out" "$(printf '  %-26s %20s' "$metric" "$value")" "hand-worked kernel: $metric = $value"
done <<'EOF'
l1_hit_rate|0.33333333333333331
l1_hit_rate_ld|0.25
l1_hit_rate_st|0.5
l1_hit_rate_g|0.75
l1_hit_rate_ldg|1
l1_hit_rate_stg|0.5
l2_hit_rate|0.40000000000000002
l2_hit_rate_ld|0
l2_hit_rate_st|1
gmem_ld_reqs|1
gmem_st_reqs|1
lmem_ld_reqs|1
lmem_st_reqs|0
umem_ld_reqs|2
umem_st_reqs|1
umem_ld_sectors|4
umem_st_sectors|2
gmem_tot_sectors_per_sm|2
l2_ld_trans|3
l2_st_trans|2
dram_ld_trans|3
dram_st_trans|1
write_evict|0
write_flush|1
atom_tot_reqs|1
red_tot_reqs|1
atom_red_tot_trans|2
EOF

# ---- the SDCM baseline's reuse-distance profile ---------------------------------
# The same kernel through the SDCM: the L1 sees 0x1000 0x2000 0x2020 0x3000
# 0x3000 0x1000 (distances -1 -1 -1 -1 0 3); the random filter keeps the
# final load back (p_hit(3) = 1), so the L2 sees the first five.  Cold
# accesses are counted at the largest distance + 1.

run --quiet --rd-profile "$tmp/rd.csv" "$top/configs/validation/titanv-sdcm-ref.ini" "$srcdir/data/pipeline/sticky"
is "$st" 0 "--rd-profile with the SDCM: exit 0"
is "$(cat "$tmp/rd.csv")" "cache,kernel,distance,count,csdd
l1[0],1,0,1,0.16666666666666666
l1[0],1,3,1,0.33333333333333331
l1[0],1,4,4,1
l2,1,0,1,0.20000000000000001
l2,1,1,4,1" "the histograms and CSDDs of the L1 and the L2"
run --quiet --rd-profile "$tmp/no/such/dir/rd.csv" "$top/configs/validation/titanv-sdcm-ref.ini" "$srcdir/data/pipeline/sticky"
is "$st" 2 "--rd-profile into a folder that does not exist: exit 2"
has "$err" "rd.csv: cannot write the reuse-distance profile" "the message names the file"

# ---- malformed traces ---------------------------------------------------------

while IFS='|' read -r dir message; do
	[ -n "$dir" ] || continue
	run --quiet "$titanv" "$bad/$dir"
	is "$st" 2 "$dir: exit 2"
	is "$(printf '%s' "$err" | tail -n 1)" "$message" "$dir: the message"
done <<'EOF'
bad-appconfig-syntax|app_config.py:4: found '8'; expected ':' after the key
bad-appconfig-undefined|app_config.py:14: kernel_3 listed in app_kernels_id but not defined
bad-appconfig-field|app_config.py:6: "grid_size" of kernel_1 is '"many"'; expected a positive 64-bit integer
bad-mem-hex|kernel_1_block_7.mem:3: address token 'zz12' is not hexadecimal
bad-kernelslist|kernelslist.g:5: kernel-4.traceg: no such file (also tried .gz, .xz)
bad-header|kernel-1.traceg: header lacks '-grid dim = (x,y,z)'
bad-header-line|kernel-1.traceg:12: unexpected line before #BEGIN_TB
bad-structure|kernel-1.traceg:12: thread block (2,0,0) is outside the grid (2,1,1)
bad-decode|kernel-1.traceg:15: cannot decode addresses: unknown mode 7
bad-deltas|kernel-1.traceg:15: mode 2 with 5 deltas for 3 active lanes
bad-trailing|kernel-1.traceg:15: expected 1 field after the operands (per '#traces format'), got 0
bad-compressed|kernel-1.traceg.xz: xz data is corrupt (at byte 320)
EOF

run --quiet "$titanv" "$bad/bad-appconfig-missing"
is "$st" 2 "a folder with no trace: exit 2"
has "$err" "neither app_config.py nor kernelslist.g found; expected a trace directory" "the message says what a trace folder holds"

done_testing
