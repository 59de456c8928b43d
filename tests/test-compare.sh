#!/bin/sh
# sectorsim compare: scores against hand-written
# Nsight Compute files, worked out by hand; the levels, the corrected
# pairing, the JSON, the ncu CSV forms; every input error, with its exact
# message; the charts of --plot.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.
#
# The fixtures, in data/compare (three app instances, five kernels):
#   vectoradd.json     sectorsim --json of configs/titanv.ini on the bundled
#                      sample (1 kernel, _Z9vectorAddPKfS0_Pfi)
#   vectoradd-ncu.csv  --page raw, ==PROF== lines first, thousands
#                      separators, an unknown column, the loads-only
#                      divergence (.ratio), the L2 atomic/reduction terms
#   synth.json         sectorsim --json of titanv.ini on the golden synthetic
#                      app (2 kernels: stream_rw_reuse, local_atomic_generic)
#   synth-ncu.csv      --page raw, two profiling runs concatenated (header,
#                      units and ==PROF== lines again before the second)
#   tiled.csv          a --csv written by hand: kernels _ZN5tiled4copyEPKfPfi
#                      (nested mangled name) and transpose (plain)
#   tiled-ncu.csv      the long --metrics form (one row per kernel and
#                      metric), DRAM writes only as dram__bytes_write.sum
#                      in Kbyte, the L2 sectors only as srcunit_tex, and
#                      no L2 read hit rate for transpose
#   missing-ncu.csv    vectoradd without l1tex__t_sector_hit_rate.pct and
#                      dram__sectors_write.sum
#   err-*.csv          one input error each

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

data=$srcdir/data/compare

tap_tmpdir test-compare

# run ARGS...: `sectorsim compare ARGS...` in the fixture folder (so that
# messages name the files as short as the arguments); stdout in $out,
# stderr in $err, exit status in $st
run()
{
	(cd "$data" && "$SECTORSIM" compare "$@") >"$tmp/out" 2>"$tmp/err"
	st=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# line METRIC: the table's row of METRIC in $out
line()
{
	printf '%s\n' "$out" | grep "^$1 "
}

# points METRIC FILE: METRIC's object in a --json FILE, up to its last point
points()
{
	awk -v m="\"metric\": \"$1\"" 'index($0, m) { on = 1 } on { print } on && /\]\}/ { exit }' "$2"
}

all="vectoradd.json vectoradd-ncu.csv synth.json synth-ncu.csv tiled.csv tiled-ncu.csv"
header='metric                MAPE %  Pearson r     NRMSE  rows  h=0  missing'

# ---- app level, the paper's pairing, worked out by hand --------------------
#
# App level: per app, the mean over its kernels, sim and hardware apart;
# profiling runs are averaged first, per kernel and column.
#
# dram_ld_trans (dram__sectors_read.sum):
#   vectoradd  s = 12500                      h = 10,000 -> 10000
#   synth      s = (4036 + 32000) / 2 = 18018
#              h = ((2700 + 2820) / 2 + (29000 + 31000) / 2) / 2
#                = (2760 + 30000) / 2 = 16380
#   tiled      s = (3000 + 5000) / 2 = 4000   h = (4000 + 6000) / 2 = 5000
#   MAPE  = (2500/10000 + 1638/16380 + 1000/5000) / 3 = (.25 + .1 + .2) / 3
#         = 18.33 %
#   NRMSE = sqrt((2500^2 + 1638^2 + 1000^2) / 3) / ((10000 + 16380 + 5000) / 3)
#         = sqrt(9933044 / 3) / 10460 = 1819.62 / 10460 = 0.1740
#   r:  h mean 10460, s mean 11506; dh = (-460, 5920, -5460),
#       ds = (994, 6512, -7506); sum dh*ds = 79076560, sum dh^2 = 65069600,
#       sum ds^2 = 99734216; r = 79076560 / sqrt(65069600 * 99734216) = 0.9816
#
# l1_hit_rate (l1tex__t_sector_hit_rate.pct / 100):
#   vectoradd  s = 0, h = 0: left out of the MAPE only
#   synth      s = (0.5133928571 + 0.4375) / 2 = 213/448 = 0.4754464
#              h = ((49 + 51) / 2 + 40) / 2 / 100 = 0.45
#   tiled      s = (0.5 + 0.7) / 2 = 0.6      h = (60 + 60) / 2 / 100 = 0.6
#   MAPE  = (0.0254464 / 0.45 + 0) / 2 = 2.83 %
#   NRMSE = sqrt(0.0254464^2 / 3) / (1.05 / 3) = 0.0146915 / 0.35 = 0.0420
#   r:  h mean 0.35, s mean 0.3584821; sum dh*ds = 0.1975446,
#       sum dh^2 = 0.195, sum ds^2 = 0.2005210; r = 0.9990
#
# l1_hit_rate_stg, the paper's quirk: store sector hits over store requests
#   vectoradd  s = 0, h = 0 / 1563 = 0
#   synth      s = (0 + 1) / 2 = 0.5      h = (0/320 + 6400/1600) / 2 = 2
#   tiled      s = (0.5 + 0.4) / 2 = 0.45 h = (2000/1000 + 800/500) / 2 = 1.8
#   MAPE  = (1.5/2 + 1.35/1.8) / 2 = 75.00 %
#   r = 1: s = h / 4 in every row
#   NRMSE = sqrt((0 + 1.5^2 + 1.35^2) / 3) / (3.8 / 3) = 1.16512 / 1.26667 = 0.9198
#
# gmem_ld_diverg, the other quirk: our loads-only divergence against
# (ld + st sectors) / (ld + st requests):
#   vectoradd  s = 12500/3126 = 3.99872      h = 18750/4689 = 3.99872
#   synth      s = (8.66667 + 16) / 2 = 12.33333
#              h = (17920/2240 + 32000/3200) / 2 = (8 + 10) / 2 = 9
#   tiled      s = (4 + 16) / 2 = 10         h = (8000/2000 + 10000/1000) / 2 = 7
#   MAPE  = (0 + 3.33333/9 + 3/7) / 3 = (0.37037 + 0.42857) / 3 = 26.63 %
#
# l2_hit_rate_st: 1 everywhere on both sides: MAPE 0, NRMSE 0, and r is
# n/a, for zero variance.

run $all
is "$st" 0 "three app instances: exit 0"
is "$err" "" "nothing on stderr"
is "$(printf '%s\n' "$out" | sed -n 1p)" "app level: 3 app instances, 5 kernels, paper pairing" "the title"
is "$(printf '%s\n' "$out" | sed -n 2p)" "$header" "the columns of the paper's Table 4, and the counts"
is "$(printf '%s\n' "$out" | sed -n '3,$p' | cut -d' ' -f1 | tr '\n' ' ')" \
	"l1_hit_rate l1_hit_rate_g l1_hit_rate_ldg l1_hit_rate_stg l2_hit_rate l2_hit_rate_ld l2_hit_rate_st l2_ld_trans l2_st_trans l2_tot_trans dram_ld_trans dram_st_trans dram_tot_trans gmem_tot_reqs gmem_ld_sectors gmem_st_sectors gmem_tot_sectors gmem_ld_diverg " \
	"the metrics scored against Nsight Compute, in the order of the paper's Table 4"
is "$(line dram_ld_trans)" "dram_ld_trans          18.33     0.9816    0.1740     3    0        0" "dram_ld_trans by hand"
is "$(line l1_hit_rate)" "l1_hit_rate             2.83     0.9990    0.0420     3    1        0" "l1_hit_rate by hand: h = 0 left out of the MAPE only"
is "$(line l1_hit_rate_stg)" "l1_hit_rate_stg        75.00     1.0000    0.9198     3    1        0" "l1_hit_rate_stg by hand, over requests"
is "$(line gmem_ld_diverg)" "gmem_ld_diverg         26.63     0.9911    0.3884     3    0        0" "gmem_ld_diverg by hand, against the total divergence"
is "$(line l2_hit_rate_st)" "l2_hit_rate_st          0.00        n/a    0.0000     3    0        0" "no variance: r is n/a"
# counts of hand-written equal values (tiled's from srcunit_tex, vectoradd's
# with the atomic and reduction terms, which are 0)
is "$(line l2_tot_trans)" "l2_tot_trans            0.00     1.0000    0.0000     3    0        0" "L2 sectors equal on both sides"
is "$(line gmem_tot_reqs)" "gmem_tot_reqs           0.00     1.0000    0.0000     3    0        0" "requests equal on both sides"

# ---- kernel level ------------------------------------------------------------
# dram_ld_trans per kernel: s = (12500, 4036, 32000, 3000, 5000),
# h = (10000, 2760, 30000, 4000, 6000):
#   MAPE  = (.25 + 1276/2760 + 2000/30000 + .25 + 1000/6000) / 5
#         = (.25 + .46232 + .06667 + .25 + .16667) / 5 = 23.91 %
#   NRMSE = sqrt((2500^2 + 1276^2 + 2000^2 + 1000^2 + 1000^2) / 5) / (52760 / 5)
#         = sqrt(13878176 / 5) / 10552 = 0.1579
#   r:  h mean 10552, s mean 11307.2; sum dh*ds = 541571488,
#       sum dh^2 = 502894080, sum ds^2 = 591275436.8; r = 0.9932
# l2_hit_rate_ld: transpose has no lts__t_sector_op_read_hit_rate.pct, so
# one kernel is missing; at app level tiled keeps copy's value.

run --kernels $all
is "$st" 0 "--kernels: exit 0"
is "$(printf '%s\n' "$out" | sed -n 1p)" "kernel level: 5 kernels of 3 app instances, paper pairing" "--kernels: the title"
is "$(line dram_ld_trans)" "dram_ld_trans          23.91     0.9932    0.1579     5    0        0" "--kernels: dram_ld_trans by hand"
is "$(line l2_hit_rate_ld)" "l2_hit_rate_ld         33.89     0.9998    0.0353     4    1        1" "--kernels: a metric missing for one kernel is counted, not scored"

# ---- the corrected pairing ---------------------------------------------------
# l1_hit_rate_stg over store sectors: vectoradd 0/6250 = 0, synth (0/1280 +
# 6400/6400) / 2 = 0.5, tiled (2000/4000 + 800/2000) / 2 = 0.45: our values
# exactly.  gmem_ld_diverg against the loads' divergence: vectoradd's .ratio
# column, 4 (ours 3.99872: 0.032 % off, / 3 = 0.01 %); synth and tiled from
# ld sectors / ld requests, (16640/1920 + 25600/1600) / 2 = 12.33333 and
# (4000/1000 + 8000/500) / 2 = 10: ours exactly.

run --corrected $all
is "$st" 0 "--corrected: exit 0"
is "$(printf '%s\n' "$out" | sed -n 1p)" "app level: 3 app instances, 5 kernels, corrected pairing" "--corrected: the title"
is "$(line l1_hit_rate_stg)" "l1_hit_rate_stg         0.00     1.0000    0.0000     3    1        0" "--corrected: l1_hit_rate_stg over sectors"
is "$(line gmem_ld_diverg)" "gmem_ld_diverg          0.01     1.0000    0.0001     3    0        0" "--corrected: loads-only divergence"
is "$(line dram_ld_trans)" "dram_ld_trans          18.33     0.9816    0.1740     3    0        0" "--corrected: other metrics unchanged"

# ---- --json, and what each input form gave -----------------------------------

run --json "$tmp/app.json" $all
is "$st" 0 "--json: exit 0"
app=$(cat "$tmp/app.json")
has "$app" '"level": "app",' "--json: the level"
has "$app" '"pairing": "paper",' "--json: the pairing"
has "$app" '{"sim": "synth.json", "ncu": "synth-ncu.csv", "app": "synth", "kernels": 2, "runs": 2}' "--json: the inputs, two profiling runs found"
has "$app" '{"metric": "dram_ld_trans", "mape_pct": 18.333333333333336, "pearson": 0.98160465841726419, "nrmse": 0.17395978720060212, "rows": 3, "zero_hw_rows": 0, "missing": 0,' "--json: the scores, unrounded"
has "$app" '"pearson": null, "nrmse": 0, "rows": 3' "--json: n/a is null"
has "$(points dram_ld_trans "$tmp/app.json")" '{"row": "synth", "sim": 18018, "hw": 16380}' "--json: the app's values scored"
has "$app" '"notes": []' "--json: no notes"
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool "$tmp/app.json" >/dev/null
	ok $? "--json: valid JSON"
else
	skip "python3 not installed"
fi

run --kernels --json "$tmp/k.json" $all
is "$st" 0 "--kernels --json: exit 0"
has "$(cat "$tmp/k.json")" '"level": "kernel",' "--kernels --json: the level"
has "$(points dram_ld_trans "$tmp/k.json")" '{"row": "vectoradd:1:vectorAdd", "sim": 12500, "hw": 10000}' "thousands separators removed (\"10,000\")"
has "$(points dram_ld_trans "$tmp/k.json")" '{"row": "synth:1:stream_rw_reuse", "sim": 4036, "hw": 2760}' "two profiling runs averaged (2700, 2820)"
has "$(points l1_hit_rate "$tmp/k.json")" '{"row": "synth:1:stream_rw_reuse", "sim": 0.5133928571428571, "hw": 0.5}' "two runs averaged (49 %, 51 %)"
has "$(points dram_ld_trans "$tmp/k.json")" '{"row": "tiled:1:copy", "sim": 3000, "hw": 4000}' "the --metrics long form, transposed by ID"
has "$(points dram_st_trans "$tmp/k.json")" '{"row": "tiled:1:copy", "sim": 4000, "hw": 4000}' "dram__bytes_write.sum, 128 Kbyte = 4000 sectors"
has "$(points l2_ld_trans "$tmp/k.json")" '{"row": "tiled:2:transpose", "sim": 8000, "hw": 8000}' "the srcunit_tex L2 sectors when op_read is absent"
has "$(points l1_hit_rate_stg "$tmp/k.json")" '{"row": "synth:2:local_atomic_generic", "sim": 1, "hw": 4}' "paper: 6400 store hits / 1600 requests = 4"
has "$(points gmem_ld_diverg "$tmp/k.json")" '{"row": "synth:2:local_atomic_generic", "sim": 16, "hw": 10}' "paper: 32000 sectors / 3200 requests = 10"

run --kernels --corrected --json "$tmp/kc.json" $all
is "$st" 0 "--kernels --corrected --json: exit 0"
has "$(points l1_hit_rate_stg "$tmp/kc.json")" '{"row": "synth:2:local_atomic_generic", "sim": 1, "hw": 1}' "corrected: 6400 store hits / 6400 sectors = 1"
has "$(points gmem_ld_diverg "$tmp/kc.json")" '{"row": "synth:2:local_atomic_generic", "sim": 16, "hw": 16}' "corrected: 25600 load sectors / 1600 requests = 16"
has "$(points gmem_ld_diverg "$tmp/kc.json")" '{"row": "vectoradd:1:vectorAdd", "sim": 3.9987204094689699, "hw": 4}' "corrected: the .ratio column when there is one"

run --json "$tmp/no/such/dir/x.json" $all
is "$st" 2 "--json into a folder that does not exist: exit 2"
has "$err" "x.json.part: cannot write the scores" "the message names the file"

# ---- ncu's log lines, anywhere --------------------------------------------------
# vectoradd-ncu.csv starts with three ==PROF== lines and synth-ncu.csv has
# two more between its runs; without them, and with a ==WARNING== line
# amid the rows, the scores are the same.

run $all
want=$out
grep -v '^=' "$data/vectoradd-ncu.csv" >"$tmp/va.csv"
awk '{ print } NR == 8 { print "==WARNING== Found outstanding GPU clock reset" }' "$data/synth-ncu.csv" >"$tmp/sy.csv"
run vectoradd.json "$tmp/va.csv" synth.json "$tmp/sy.csv" tiled.csv tiled-ncu.csv
is "$st" 0 "log lines moved: exit 0"
is "$out" "$want" "log lines moved: the same table"

# ---- missing metrics: skipped per row, one note per metric -------------------

run vectoradd.json missing-ncu.csv
is "$st" 0 "columns missing: still exit 0"
is "$(line l1_hit_rate)" "l1_hit_rate              n/a        n/a       n/a     0    0        1" "a metric without its column: no rows, counted as missing"
is "$(line dram_tot_trans)" "dram_tot_trans           n/a        n/a       n/a     0    0        1" "nor the sum that needs it"
is "$(line dram_ld_trans)" "dram_ld_trans          25.00        n/a    0.2500     1    0        0" "one row: MAPE and NRMSE, no r"
is "$err" "sectorsim compare: note: no hardware value for l1_hit_rate: no ncu row has l1tex__t_sector_hit_rate.pct
sectorsim compare: note: no hardware value for dram_st_trans: no ncu row has dram__sectors_write.sum or dram__bytes_write.sum
sectorsim compare: note: no hardware value for dram_tot_trans: none for dram_st_trans" "one note per metric without a column"

# ---- errors --------------------------------------------------------------------

run vectoradd.json err-no-units.csv
is "$st" 2 "missing units row: exit 2"
is "$err" "err-no-units.csv:2: missing units row; expected the units of the header's columns, with an empty ID and Kernel Name, on the row after it" "missing units row: the message"

run vectoradd.json err-number.csv
is "$st" 2 "malformed number: exit 2"
is "$err" 'err-number.csv:3: malformed number "1O,000" in column dram__sectors_read.sum; expected a number' "malformed number: the message"

run synth.json vectoradd-ncu.csv
is "$st" 2 "kernel count mismatch: exit 2"
is "$err" "vectoradd-ncu.csv:6: 1 profiled kernel for the 2 kernels of synth.json; expected 2 or a multiple of 2 (each kernel once per profiling run)
  synth.json: stream_rw_reuse local_atomic_generic
  vectoradd-ncu.csv: vectorAdd" "kernel count mismatch: the message and both lists"

# err-name.csv: synth-ncu.csv with the second run's kernels swapped
run synth.json err-name.csv
is "$st" 2 "name mismatch: exit 2"
is "$err" "err-name.csv:11: profiled kernel 3 is local_atomic_generic; expected stream_rw_reuse, kernel 1 of synth.json (profiling run 2), as kernels pair in launch order
  synth.json: stream_rw_reuse local_atomic_generic
  err-name.csv: stream_rw_reuse local_atomic_generic local_atomic_generic stream_rw_reuse" "name mismatch: the message and both lists"

run vectoradd.json nothing-here.csv
is "$st" 2 "an unreadable file: exit 2"
is "$err" "nothing-here.csv: cannot read it (No such file or directory); expected a readable file" "an unreadable file: the message"

sed -n 1,10p "$data/synth.json" >"$tmp/cut.json"
run "$tmp/cut.json" synth-ncu.csv
is "$st" 2 "a cut JSON file: exit 2"
is "$err" "$tmp/cut.json:10: end of file; expected a member name in double quotes" "a cut JSON file: the message"

printf 'kernel_id,kernel_name\n' >"$tmp/none.csv"
run "$tmp/none.csv" vectoradd-ncu.csv
is "$st" 2 "no kernels: exit 2"
is "$err" "$tmp/none.csv:1: no kernels; expected at least one" "no kernels: the message"

run vectoradd.json
is "$st" 2 "a SIM without its NCU: exit 2"
is "$err" "sectorsim compare: 1 file; expected SIM NCU pairs (see --help)" "a SIM without its NCU: the message"

# ---- --plot ------------------------------------------------------------------------
# App level: every metric has an app with both values above 0, so 18
# scatter plots; a mark per app whose values log axes can show.  The bar
# charts: model and hardware for each of the 3 apps.

run --plot "$tmp/plots" $all
is "$st" 0 "--plot: exit 0"
is "$(ls "$tmp/plots" | wc -l | tr -d ' ')" 20 "--plot: 18 scatter plots and 2 bar charts"
marks()
{
	grep -o 'class="mark"' "$tmp/plots/$1" | wc -l | tr -d ' '
}
is "$(marks scatter-dram_ld_trans.svg)" 3 "scatter-dram_ld_trans.svg: a mark per app"
is "$(marks scatter-l1_hit_rate.svg)" 2 "scatter-l1_hit_rate.svg: vectoradd's 0 is left out"
is "$(marks scatter-l2_hit_rate_ld.svg)" 2 "scatter-l2_hit_rate_ld.svg: vectoradd's 0 is left out"
is "$(marks bars-l1_hit_rate.svg)" 6 "bars-l1_hit_rate.svg: model and hardware per app"
is "$(marks bars-l2_hit_rate.svg)" 6 "bars-l2_hit_rate.svg: model and hardware per app"

run --kernels --plot "$tmp/kplots" $all
is "$(marks ../kplots/scatter-dram_ld_trans.svg)" 5 "--kernels --plot: a mark per kernel"
is "$(marks ../kplots/bars-l2_hit_rate.svg)" 6 "--kernels --plot: the bar charts stay per app"

if command -v xmllint >/dev/null 2>&1; then
	bad=
	for f in "$tmp/plots"/*.svg "$tmp/kplots"/*.svg; do
		xmllint --noout "$f" 2>>"$tmp/xmllint" || bad="$bad $(basename "$f")"
	done
	is "$bad" "" "xmllint accepts every chart"
else
	skip "xmllint not installed"
fi

# vectoradd alone: its L1 rates are 0 on both sides, which log axes cannot show
run --plot "$tmp/va" vectoradd.json vectoradd-ncu.csv
is "$st" 0 "--plot, nothing to show for some metrics: exit 0"
test ! -e "$tmp/va/scatter-l1_hit_rate.svg"
ok $? "no scatter plot of l1_hit_rate"
has "$err" "sectorsim compare: note: no scatter plot of l1_hit_rate: no app instance with both values above 0" "a note says why"

# ---- outputs: as the run's (tests/test-output.sh) ---------------------------
run --json "$tmp/scores.json" vectoradd.json vectoradd-ncu.csv
cp "$tmp/scores.json" "$tmp/scores.want"
run --json - vectoradd.json vectoradd-ncu.csv
is "$st" 0 "--json -: exit 0"
has "$out" "$(cat "$tmp/scores.want")" "--json -: the scores on standard output, after the table"
test ! -e "$data/-"
ok $? "--json -: no file named -"
ln -s "$tmp/target.json" "$tmp/link.json"
run --json "$tmp/link.json" vectoradd.json vectoradd-ncu.csv
[ -L "$tmp/link.json" ] && cmp -s "$tmp/target.json" "$tmp/scores.want"
ok $? "--json LINK: the link stays, its target holds the scores"
run --json "$tmp/no/such/dir/s.json" vectoradd.json vectoradd-ncu.csv
is "$st" 2 "--json into a missing folder: exit 2"
is "$err" "$tmp/no/such/dir/s.json.part: cannot write the scores: No such file or directory" "--json into a missing folder: one line"
full=/dev/full
if [ "$(id -u)" = 0 ]; then
	# as root a broken build could replace /dev/full: a private node
	full=$tmp/full
	mknod -m 666 "$full" c 1 7 2>/dev/null || full=
fi
if [ -n "$full" ] && [ -c "$full" ] && [ -w "$full" ]; then
	run --json "$full" vectoradd.json vectoradd-ncu.csv
	is "$st" 1 "--json FULL-DEVICE: exit 1"
	is "$err" "write error on $full: No space left on device" "--json FULL-DEVICE: the message"
	[ -c "$full" ] && [ ! -e "$full.part" ]
	ok $? "--json FULL-DEVICE: still a device, no .part"
	(cd "$data" && "$SECTORSIM" compare vectoradd.json vectoradd-ncu.csv) >"$full" 2>"$tmp/err"
	is "$?" 1 "the table on a full standard output: exit 1"
	is "$(cat "$tmp/err")" "sectorsim compare: write error on standard output: No space left on device" "the table on a full standard output: one line"
else
	skip "no writable full device" 5
fi

done_testing
