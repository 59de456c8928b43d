#!/bin/sh
# sectorsim camat: the two worked examples of C-AMAT (PC-AMAT with tag 2
# and data 3, SC-AMAT with tag 3 and data 3) as CSV timelines, alone and
# as two levels of one file, rows in any order; the JSON; the chart of
# --plot; every class of bad input, with its FILE:LINE message and exit 2.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-camat-tool

# the PC-AMAT example: cycles from 1, hit phases of 3 cycles
cat >"$tmp/pc.csv" <<EOF
start,hit_cycles,miss_cycles
1,3,0
2,3,0
3,3,4
4,3,1
5,3,0
EOF
run camat --json "$tmp/pc.json" "$tmp/pc.csv"
is "$st" 0 "PC-AMAT example: exit 0" || diag "$err"
is "$(cat "$tmp/pc.json")" '{"levels": {"all": {"accesses": 5, "hits": 3, "misses": 2, "overlap_hit_time": 7, "pure_misses": 1, "pure_miss_time": 2, "pure_miss_overlap_time": 2, "active_cycles": 9, "C_h": 2.1428571428571428, "C_m": 1, "pMR": 0.20000000000000001, "pAMP": 2, "mean_hit_time": 3, "camat": 1.8000000000000003, "amat": 4}}}' \
	"PC-AMAT example: every metric (C_h 15/7, pMR 1/5, pAMP 2, C_m 1, camat 9/5)"
has "$out" "  camat                                1.800000" "PC-AMAT example: the table"

# the SC-AMAT example and the PC one as two levels, interleaved, shuffled,
# with spaces, CRLF line ends and a column the tool does not use
printf '%s\r\n' "note, level ,start,hit_cycles,miss_cycles" \
	"a,sc,4,3,5" "b,pc,5,3,0" "c,sc,1,6,0" "d,pc,3,3,4" "e,sc, 2 ,3,8" \
	"f,pc,1,3,0" "g,sc,4,6,0" "h,pc,4,3,1" "i,sc,2,6,0" "j,pc,2,3,0" >"$tmp/two.csv"
run camat --json "$tmp/two.json" "$tmp/two.csv"
is "$st" 0 "two levels: exit 0" || diag "$err"
is "$(sed 's/.*"sc": {\([^}]*\)}.*/\1/' "$tmp/two.json")" \
	'"accesses": 5, "hits": 3, "misses": 2, "overlap_hit_time": 9, "pure_misses": 2, "pure_miss_time": 5, "pure_miss_overlap_time": 3, "active_cycles": 12, "C_h": 2.6666666666666665, "C_m": 1.6666666666666667, "pMR": 0.40000000000000002, "pAMP": 2.5, "mean_hit_time": 4.7999999999999998, "camat": 2.3999999999999999, "amat": 7.4000000000000004' \
	"SC-AMAT example: every metric (C_sh 8/3, SH 24/5, pMR 2/5, pAMP 5/2, C_m 5/3, camat 12/5)"
has "$(cat "$tmp/two.json")" '"pc": {"accesses": 5, "hits": 3, "misses": 2, "overlap_hit_time": 7,' \
	"the PC example as a level of its own, in any order"
is "$(printf '%s\n' "$out" | grep -c '^level ')" 2 "two levels: two tables"

# nothing but hits: ratios of nothing are null
printf 'start,hit_cycles,miss_cycles\n0,2,0\n1,2,0\n' >"$tmp/hits.csv"
run camat --json - "$tmp/hits.csv"
has "$out" '"C_m": null, "pMR": 0, "pAMP": null' "hits only: C_m and pAMP null, pMR 0"
has "$out" '"camat": 1.5' "hits only: camat = 3 active cycles / 2"

# the chart: five rows, their phases, access 3's two pure cycles
run camat --plot "$tmp/pc.svg" "$tmp/pc.csv"
is "$st" 0 "--plot: exit 0" || diag "$err"
is "$(grep -c 'class="mark hit"' "$tmp/pc.svg") $(grep -c 'class="mark miss"' "$tmp/pc.svg") $(grep -c 'class="mark pure"' "$tmp/pc.svg")" \
	"5 2 1" "--plot: 5 hit phases, 2 miss phases, 1 pure segment"
has "$(cat "$tmp/pc.svg")" "C-AMAT 1.8" "--plot: the totals in the caption"

# ---- bad input: one line naming FILE:LINE, exit 2 ---------------------------
bad() {
	# bad NAME CONTENT MESSAGE
	printf '%b' "$2" >"$tmp/$1.csv"
	run camat "$tmp/$1.csv"
	is "$st" 2 "$1: exit 2"
	is "$err" "$tmp/$1.csv:$3" "$1: the message"
}
bad missing-field 'start,hit_cycles,miss_cycles\n1,2,0\n3,4\n' \
	"3: 2 fields; expected at least 3 (the header's 3 columns, up to the last one read)"
bad negative 'start,hit_cycles,miss_cycles\n1,2,0\n3,-4,0\n' \
	"3: column hit_cycles is '-4'; expected a non-negative integer"
bad text 'start,hit_cycles,miss_cycles\n1x,2,0\n' \
	"2: column start is '1x'; expected a non-negative integer"
bad empty-value 'start,hit_cycles,miss_cycles\n1,2,\n' \
	"2: column miss_cycles is empty; expected a non-negative integer"
bad too-large 'start,hit_cycles,miss_cycles\n99999999999999999999,2,0\n' \
	"2: column start is '99999999999999999999'; expected a non-negative integer below 2^64"
bad overflow 'start,hit_cycles,miss_cycles\n18446744073709551615,2,0\n' \
	"2: start + hit_cycles + miss_cycles is above 2^64"
bad no-column 'start,hit,miss_cycles\n1,2,0\n' \
	"1: the header has no column hit_cycles; expected a header naming start, hit_cycles and miss_cycles (and optionally level)"
bad twice 'start,hit_cycles,miss_cycles,start\n1,2,0,1\n' \
	"1: column start appears twice in the header"
bad empty-file '' \
	"1: the file is empty; expected a header naming start, hit_cycles and miss_cycles"
bad cr-inside 'start,hit_cycles,miss_cycles\n1,2,0\rjunk\n' \
	"2: column miss_cycles is '0?junk'; expected a non-negative integer"
bad empty-level 'level,start,hit_cycles,miss_cycles\nL1,1,2,0\n,1,2,0\n' \
	"3: column level is empty; expected a level's name"
# what spreadsheets write: a byte order mark; blank lines of spaces
printf '\357\273\277start,hit_cycles,miss_cycles\r\n1,3,0\r\n   \r\n2,3,0\r\n' >"$tmp/bom.csv"
run camat --json - "$tmp/bom.csv"
is "$st" 0 "a byte order mark, CRLF and a line of spaces: exit 0" || diag "$err"
has "$out" '"accesses": 2,' "a byte order mark, CRLF and a line of spaces: both rows"
# a level column and no row: level all, empty, and a chart of nothing
printf 'level,start,hit_cycles,miss_cycles\n' >"$tmp/none.csv"
run camat --json - --plot "$tmp/none.svg" "$tmp/none.csv"
is "$st" 0 "a level column and no row: exit 0" || diag "$err"
has "$out" '"all": {"accesses": 0,' "a level column and no row: level all, no access"
run camat "$tmp/nonexistent.csv"
is "$st" 2 "a file that is not there: exit 2"
has "$err" "$tmp/nonexistent.csv: " "a file that is not there: named"
run camat
is "$st" 2 "no file: exit 2"
has "$err" "expected one TIMELINE.csv" "no file: why"

done_testing
