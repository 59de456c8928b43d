#!/bin/sh
# Damaged or empty input is never silent.  A kernel whose trace holds fewer
# thread blocks than its grid (an Accel-Sim file cut at a block boundary, a
# paper-format block file missing) runs with the missing blocks empty, gets
# one warning on standard error and "blocks_in_grid" / "blocks_traced" in
# its results; --strict makes it an error (exit 2) that keeps the finished
# kernels for --resume.  A run that simulates no kernel is an error (exit
# 2), and a [simulation] max_ticks that stops a run says so (exit 1),
# keeping the finished kernels too.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

titanv=$top/configs/titanv.ini
ref=$top/configs/validation/titanv-ref.ini
three=$srcdir/data/output/three
ppt=$srcdir/data/trace/ppt

tap_tmpdir test-damaged

# The line count of FILE up to and including its Nth "#END_TB".
nth_end() {
	grep -n '^#END_TB' "$1" | sed -n "$2p" | cut -d: -f1
}

# ---- an Accel-Sim file cut at a block boundary --------------------------------
# kernel-2.traceg holds the 3 blocks of its grid; keep the first 2.
cp -R "$three" "$tmp/cut"
n=$(nth_end "$three/kernel-2.traceg" 2)
head -n "$n" "$three/kernel-2.traceg" >"$tmp/cut/kernel-2.traceg"
cp -R "$tmp/cut" "$tmp/cut2"

run --quiet --json "$tmp/whole.json" --csv "$tmp/whole.csv" "$titanv" "$three"
is "$st" 0 "the whole trace: exit 0"
is "$err" "" "the whole trace: no warning"
has "$(cat "$tmp/whole.json")" '"blocks_in_grid": 3,
      "blocks_traced": 3,' "the whole trace: every block of kernel 2 traced"

run --quiet --json "$tmp/cut.json" --csv "$tmp/cut.csv" "$titanv" "$tmp/cut"
is "$st" 0 "the cut trace: exit 0 (a warning, not an error)"
is "$err" "sectorsim: warning: kernel-2.traceg: kernel 2 (second): the trace holds 2 of the grid's 3 thread blocks; the missing ones ran as empty blocks" \
	"one warning, naming the file, the kernel and the count"
has "$(cat "$tmp/cut.json")" '"blocks_in_grid": 3,
      "blocks_traced": 2,' "the JSON says 2 of 3 blocks traced"
has "$out" "only 2 blocks traced" "the table says so"
grep -v '^#' "$tmp/cut.csv" >"$tmp/cut.rows"
is "$(head -n 1 "$tmp/cut.rows" | awk -F, '{ print $(NF - 1) "," $NF }')" "blocks_in_grid,blocks_traced" \
	"the CSV ends with the pair"
is "$(sed -n 3p "$tmp/cut.rows" | awk -F, '{ print $(NF - 1) "," $NF }')" "3,2" "kernel 2's row: 3 in the grid, 2 traced"
is "$(sed -n 2p "$tmp/cut.rows" | awk -F, '{ print $(NF - 1) "," $NF }')" "2,2" "kernel 1's row: whole"

# The reference configuration reads only the blocks it simulates; the
# missing one is found all the same.
run --quiet "$ref" "$tmp/cut"
is "$st" 0 "the cut trace under titanv-ref.ini: exit 0"
has "$err" "kernel-2.traceg: kernel 2 (second): the trace holds 2 of the grid's 3 thread blocks" \
	"titanv-ref.ini: the same warning"

# --strict: an error, the finished kernel kept for --resume.
run --quiet --strict --json "$tmp/s.json" --csv "$tmp/s.csv" "$titanv" "$tmp/cut"
is "$st" 2 "--strict: exit 2"
is "$err" "kernel-2.traceg: kernel 2 (second): the trace holds 2 of the grid's 3 thread blocks; the missing ones ran as empty blocks (--strict)" \
	"--strict: one line"
[ -f "$tmp/s.json.part" ] && [ ! -e "$tmp/s.json" ]
ok $? "--strict: the results so far stay in s.json.part"
is "$(grep -c '"kernel_id"' "$tmp/s.json.part")" 1 "--strict: kernel 1 is in it, kernel 2 is not"
cp "$three/kernel-2.traceg" "$tmp/cut/kernel-2.traceg"
run --quiet --strict --resume --json "$tmp/s.json" --csv "$tmp/s.csv" "$titanv" "$tmp/cut"
is "$st" 0 "repaired, --resume --strict: exit 0"
[ ! -e "$tmp/s.json.part" ] && grep -v '"path"' "$tmp/s.json" >"$tmp/s.kernels" &&
	grep -v '"path"' "$tmp/whole.json" >"$tmp/whole.kernels" &&
	cmp -s "$tmp/s.kernels" "$tmp/whole.kernels"
ok $? "--resume: the JSON is that of the whole trace (the trace's path aside)"

# --resume with the CSV alone: its provenance is checked, its rows kept.
run --quiet --strict --csv "$tmp/c.csv" "$titanv" "$tmp/cut2"
is "$st" 2 "--strict, --csv alone: exit 2"
cp "$three/kernel-2.traceg" "$tmp/cut2/kernel-2.traceg"
run --resume --csv "$tmp/c.csv" "$titanv" "$tmp/cut2"
is "$st" 0 "repaired, --resume --csv alone: exit 0"
has "$err" "resuming: 1 kernels kept from the interrupted run" "--resume --csv alone keeps kernel 1"
grep -v '^#' "$tmp/c.csv" >"$tmp/c.rows" && grep -v '^#' "$tmp/whole.csv" >"$tmp/whole.rows" &&
	cmp -s "$tmp/c.rows" "$tmp/whole.rows"
ok $? "--resume --csv alone: the rows are those of the whole trace"

# ---- paper format: block files missing -----------------------------------------
# kernel 1 has a grid of 3 and files for blocks 0 and 2; kernel 2 a grid of
# 2 and a file for block 0.
run --quiet --json "$tmp/ppt.json" "$ref" "$ppt"
is "$st" 0 "paper format, files missing: exit 0"
is "$(printf '%s\n' "$err" | grep -c '^sectorsim: warning: .*the missing ones ran as empty blocks$')" 2 "one warning per kernel"
# block 2 of kernel 1 ends inside a line (no final line end): cut short?
has "$err" "/memory_traces: kernel 1 (copy<{int, float}>): 1 block file ends inside a line, the first kernel_1_block_2.mem: cut short? Their last lines were read as they are" \
	"a block file ending inside a line: a warning naming it"
has "$err" "memory_traces: kernel 1 (copy<{int, float}>): the trace holds 2 of the grid's 3 thread blocks" \
	"kernel 1's warning names the folder of its block files"
has "$(cat "$tmp/ppt.json")" '"blocks_in_grid": 3,
      "blocks_traced": 2,' "the JSON: 2 of kernel 1's 3 blocks traced"
has "$(cat "$tmp/ppt.json")" '"blocks_in_grid": 2,
      "blocks_traced": 1,' "the JSON: 1 of kernel 2's 2 blocks traced"

# ---- no kernel to simulate ------------------------------------------------------
run --quiet --json "$tmp/none.json" -p trace.kernels=99 "$titanv" "$three"
is "$st" 2 "kernels = 99 in a trace of kernels 1..3: exit 2"
# (the trace's path as the program resolves it: ../ steps gone)
has "$err" "/data/output/three: no kernel to simulate: trace.kernels selects none of the trace's 3 kernels" \
	"the message names the trace and the key"
is "$out" "" "nothing on standard output"
[ ! -e "$tmp/none.json" ] && [ ! -e "$tmp/none.json.part" ]
ok $? "no results file"

mkdir "$tmp/empty-app" "$tmp/empty-app/memory_traces"
printf 'app_kernels_id = []\n' >"$tmp/empty-app/app_config.py"
run --quiet "$ref" "$tmp/empty-app"
is "$st" 2 "app_kernels_id = []: exit 2"
is "$err" "$tmp/empty-app: no kernel to simulate: the trace lists none" "app_kernels_id = []: the message"

mkdir "$tmp/noise"
awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 255) + 1 }' >"$tmp/noise/kernelslist.g"
run --quiet "$titanv" "$tmp/noise"
is "$st" 2 "a kernelslist.g of random bytes: exit 2"
[ -n "$err" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
ok $? "a kernelslist.g of random bytes: one line"

# ---- a tick limit that stops the run --------------------------------------------
# With a tick between kernels, the three take 9 ticks; at 4, kernel 1 is
# done and kernel 2 is not.
printf '[simulation]\ninclude = %s\nmax_ticks = 4\n[component trace]\nlaunch_gap = 1\n' "$titanv" >"$tmp/limit.ini"
run --quiet --json "$tmp/l.json" "$tmp/limit.ini" "$three"
is "$st" 1 "max_ticks = 4: exit 1"
is "$err" "sectorsim: $tmp/limit.ini:3: max_ticks = 4 stopped the run before its end (3 events still to run); expected a larger max_ticks, or 0 for no limit" \
	"max_ticks: the message names the key"
[ -f "$tmp/l.json.part" ] && [ ! -e "$tmp/l.json" ]
ok $? "max_ticks: the finished kernels stay in l.json.part"
is "$(grep -c '"kernel_id"' "$tmp/l.json.part")" 1 "max_ticks: kernel 1 is in it"
# a limit before the first kernel ends: exit 1 too, not a run of nothing
run --quiet -p simulation.max_ticks=1 --json "$tmp/l1.json" "$titanv" "$three"
is "$st" 1 "max_ticks = 1, before kernel 1 ends: exit 1"
has "$err" "max_ticks = 1 stopped the run before its end (" "max_ticks = 1: it says so"
[ ! -e "$tmp/l1.json" ]
ok $? "max_ticks = 1: no results file claims a whole run"
# each resumed run goes as far as the limit lets it
run --quiet --resume --json "$tmp/l.json" "$tmp/limit.ini" "$three"
is "$st" 1 "max_ticks, --resume: exit 1 again"
is "$(grep -c '"kernel_id"' "$tmp/l.json.part")" 2 "max_ticks, --resume: kernel 2 added"
run --quiet --resume --json "$tmp/l.json" "$tmp/limit.ini" "$three"
is "$st" 0 "max_ticks, --resume until done: exit 0"
[ -f "$tmp/l.json" ] && [ ! -e "$tmp/l.json.part" ] && [ "$(grep -c '"kernel_id"' "$tmp/l.json")" = 3 ]
ok $? "max_ticks, --resume until done: all three kernels in l.json"

done_testing
