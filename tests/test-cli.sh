#!/bin/sh
# The sectorsim command line, end to end: every INI error class of
# tests/data/err-*.ini, -p overrides and their errors, --version, --help,
# --list, --describe, --dump-config (precedence and a byte-exact reload),
# --dot, statistics in text, JSON and CSV, and bad invocations.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR (tests/ in the
# source tree), SECTORSIM_PLUGIN_PATH (where token_plugin.so is built).
# Fixtures are only read from $G_TEST_SRCDIR and scratch files only written
# to a mktemp -d folder, so it also runs in a VPATH build (make distcheck).
#
# An error fixture's first line is "; expect: LINE: TEXT": running it must
# exit 2, and one line of stderr must name FILE:LINE (FILE being the fixture)
# and contain TEXT.  "; expect: OTHER.ini:LINE: TEXT" names another file,
# for an error that belongs to an included one.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

SECTORSIM_PLUGIN_PATH=${SECTORSIM_PLUGIN_PATH:-$srcdir/.libs}
export SECTORSIM_PLUGIN_PATH
data=$srcdir/data

tap_tmpdir test-cli
trap 'exit 1' HUP INT TERM
# Nothing may depend on the current folder: includes resolve relative to
# the including file, plugins come from the plugin path.
cd "$tmp" || exit 1

# run ARGS...: sectorsim's stdout in ./out, stderr in ./err, status in $rc
run()
{
	"$SECTORSIM" "$@" >out 2>err
	rc=$?
}

# status WANT DESC: the last run exited with WANT
status()
{
	is "$rc" "$1" "$2 (exit $1)" || diag "stderr:" "$(cat err)"
}

# err_line A B DESC: one line of stderr contains both A and B
err_line()
{
	grep -F -- "$1" err | grep -q -F -- "$2"
	ok $? "$3" || diag "want a line with '$1' and '$2'; stderr:" "$(cat err)"
}

# match FILE ERE DESC: a line of FILE matches the extended regex
match()
{
	grep -q -E -- "$2" "$1"
	ok $? "$3" || diag "no line of $1 matches /$2/; it holds:" "$(cat "$1")"
}

# section NAME FILE: the lines of "[NAME]" in an INI file, blank lines dropped
section()
{
	sed -n "/^\\[$1\\]\$/,/^\\[/p" "$2" | sed -e '1d' -e '/^\[/d' -e '/^$/d'
}

# has_line TEXT LINE DESC: TEXT has exactly this line
has_line()
{
	printf '%s\n' "$1" | grep -q -x -F -- "$2"
	ok $? "$3" || diag "want line: $2" "in:" "$1"
}

# stat NAME FILE: the value of a statistic in the text output
stat()
{
	awk -v n="$1" '$1 == n { print $2 }' "$2"
}

# ---- every INI error class ---------------------------------------------------

nfix=0
for f in "$data"/err-*.ini; do
	[ -f "$f" ] || continue
	nfix=$((nfix + 1))
	name=${f##*/}
	expect=$(sed -n '1s/^; expect: //p' "$f")
	where=${expect%%: *}
	what=${expect#*: }
	case $where in
	'' | *[!0-9]*) ;;		# OTHER.ini:LINE
	*) where=$name:$where ;;
	esac
	if [ -z "$expect" ] || [ "$what" = "$expect" ]; then
		ok 1 "$name: first line is '; expect: LINE: TEXT'"
		continue
	fi
	run --quiet "$f"
	status 2 "$name: refused"
	err_line "/$where: " "$what" "$name: $where: $what"
	# The format of every message, not only the expected one.
	grep -v -E '^[^:]+:[0-9]+: ' err >stray
	[ ! -s stray ]
	ok $? "$name: every message starts with FILE:LINE:" ||
		diag "without FILE:LINE:" "$(cat stray)"
done
[ "$nfix" -ge 40 ]
ok $? "found the error fixtures ($nfix of at least 40)"

# ---- -p overrides that are wrong ----------------------------------------------

good=$data/cli-good.ini

# p_error OVERRIDE TEXT DESC: -p OVERRIDE is refused with a message that
# names it and contains TEXT
p_error()
{
	run --dump-config -p "$1" "$good"
	status 2 "-p $1: $3"
	err_line "-p $1: " "$2" "-p $1: message names it and says '$2'"
	is "$(cat out)" "" "-p $1: nothing on stdout"
}

p_error 'scr.first=3' "no section named 'scr'; did you mean 'src'?" "unknown section"
p_error 'src.frist=3' "has no parameter 'frist'; did you mean 'first'?" "unknown parameter"
p_error 'src.first=ten' "expected an unsigned whole number" "bad value"
p_error 'sink.mode=acks' "expected one of count, ack; did you mean 'ack'?" "bad enum value"
p_error 'src.first' "expected SECTION.KEY=VALUE" "no '='"
p_error '.first=3' "expected SECTION.KEY=VALUE" "no section"
p_error 'src[4].first=3' "index 4 out of range" "index out of range"
p_error 'tokens[0].latency=3' "is not an array" "index on a link"
p_error 'slower.period=3' "is a template" "a template"
p_error 'simulation.max_tick=3' "did you mean 'max_ticks'?" "unknown [simulation] key"
p_error 'simulation.memory=lots' "expected the memory the run may use, a size such as 8GiB" "bad [simulation] memory"

# [simulation] memory: what the run may plan for, below the machine's
# memory (a job's share); a cache beyond it is refused when built
run -q -p simulation.memory=4MiB -p l2.size=256MiB "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100"
status 2 "a 256 MiB L2 under [simulation] memory = 4MiB: exit 2"
has "$(cat err)" "l2 (type l2_slice_set): create: " "the L2 is refused when built"
has "$(cat err)" "bytes, more than the 4194304 bytes of [simulation] memory" "naming [simulation] memory"
run -q -p simulation.memory=64MiB "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100"
status 0 "titanv-ref.ini within [simulation] memory = 64MiB: exit 0"

# ---- --version, --help, bad invocations ----------------------------------------

run --version
status 0 "--version"
match out '^sectorsim [0-9]+\.[0-9]+' "--version prints 'sectorsim X.Y'"

run --help
status 0 "--help"
has "$(cat out)" "CONFIG.ini" "--help shows the usage"
for opt in --list --describe --dump-config --dot --param --plugin --stats --output --quiet --version; do
	has "$(cat out)" "$opt" "--help lists $opt"
done

run
status 2 "no configuration"
has "$(cat err)" "no configuration given" "no configuration: says so"

run no-such.ini
status 2 "a configuration that does not exist"
has "$(cat err)" "no-such.ini: cannot read configuration" "missing file: named"

run "$good" trace extra
status 2 "an unexpected extra argument"
has "$(cat err)" "unexpected argument" "extra argument: named"

run --no-such-option "$good"
status 2 "an unknown option"
has "$(cat err)" "no-such-option" "unknown option: named"

run --stats xml "$good"
status 2 "--stats xml"
has "$(cat err)" "--stats xml: expected text, json or csv" "--stats xml: says what is expected"

run --plugin no_such_plugin --list
status 2 "--plugin of a missing plugin"
has "$(cat err)" "plugin 'no_such_plugin' not found" "missing plugin: named"

run --plugin old_abi_plugin --list
status 2 "--plugin of a plugin with another ABI"
has "$(cat err)" "old_abi_plugin.so was built for ABI" "old ABI: refused by name"

# ---- --list and --describe -------------------------------------------------------

run --plugin token_plugin --list
status 0 "--list"
match out '^token_source +Test: sends numbered tokens' "--list shows token_source with its summary"
match out '^token_sink +Test: counts tokens' "--list shows token_sink with its summary"
match out '^compare +score results' "--list shows the built-in commands"

run --list "$good"
status 0 "--list with a configuration"
match out '^token_sink ' "--list includes the types of the plugins the INI loads"

# a control byte in the argument is shown escaped, never raw
run --describe "$(printf 'a\001b')"
status 2 "--describe of a name holding byte 0x01"
err_line "unknown component type 'a\\x01b'" "" "--describe: the byte shown as \\x01"
[ "$(tr -d '\001' <err | wc -c)" -eq "$(wc -c <err)" ]
ok $? "--describe: no raw byte 0x01 on stderr"

# ... also in a warning quoting the trace (a kernel name holding 0x01, a
# grid of 2 blocks with 1 traced) and in convert's errors
mkdir ctl
printf 'kernel-1.traceg\n' >ctl/kernelslist.g
{
	printf -- '-kernel name = k\001x\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n'
	printf -- '-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n'
	printf -- '-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n'
	printf -- '-accelsim tracer version = 3\n\n'
	printf '#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n'
	printf '#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n'
	printf '0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0\n#END_TB\n'
} >ctl/kernel-1.traceg
run -q "$top/configs/titanv.ini" ctl
status 0 "a kernel name holding byte 0x01, one of its 2 blocks traced"
err_line "sectorsim: warning: " "kernel 1 (k\x01x): the trace holds 1 of the grid's 2 thread blocks" \
	"the warning shows the kernel name's byte as \x01"
[ "$(tr -d '\001' <err | wc -c)" -eq "$(wc -c <err)" ]
ok $? "the warning: no raw byte 0x01 on stderr"
run convert "$(printf 'no\001such')" ctl.sst
status 2 "convert of a missing trace whose name holds byte 0x01"
err_line "sectorsim convert: no\x01such" "" "convert: the byte shown as \x01"
[ "$(tr -d '\001' <err | wc -c)" -eq "$(wc -c <err)" ]
ok $? "convert: no raw byte 0x01 on stderr"

run --plugin token_plugin --describe token_source
status 0 "--describe token_source"
cp out source.txt
match source.txt '^token_source: Test: sends numbered tokens' "token_source: title"
match source.txt '^ +tokens +uint +default 10, 0\.\.1000000000$' "token_source: tokens, type, default, range"
match source.txt '^ +period +uint +default 1, 1\.\.1000000$' "token_source: period, type, default, range"
match source.txt '^ +first +uint +default 1$' "token_source: first, type, default"
match source.txt '^ +out +out +test\.token +required +scalar$' "token_source: port out (out, test.token, required)"
match source.txt '^ +ctl +out +test\.ctl +optional +scalar$' "token_source: port ctl (out, test.ctl, optional)"
match source.txt '^ +sent +counter$' "token_source: statistic sent"
match source.txt '^ +value_sum +counter$' "token_source: statistic value_sum"

run --plugin token_plugin --describe token_sink
status 0 "--describe token_sink"
cp out sink.txt
match sink.txt '^ +mode +enum\(count\|ack\) +default count$' "token_sink: mode, enum with choices, default"
match sink.txt '^ +label +string +default phase$' "token_sink: label, string, default"
match sink.txt '^ +in\[\] +in +test\.token +required +vector' "token_sink: port in[] (in, test.token, required vector)"
match sink.txt '^ +ctl\[\] +in +test\.ctl +optional +vector' "token_sink: port ctl[] (in, test.ctl, optional vector)"
match sink.txt '^ +mean_value +ratio value_sum / tokens$' "token_sink: ratio mean_value"
match sink.txt '^ +done +counter$' "token_sink: statistic done"

run --plugin token_plugin --describe token_sorce
status 2 "--describe of an unknown type"
has "$(cat err)" "unknown component type 'token_sorce'; did you mean 'token_source'?" "--describe unknown: did you mean"

# ---- --dump-config: includes, templates, precedence -------------------------------
#
# cli-good.ini includes inc-tokens.ini.  Precedence, lowest first:
#   default < template (farthest first) < section < indexed key < -p
# The -p options, kept in "$@" for the rest of the script.
set -- -p 'src[3].first=11' -p src.step=3 -p 'src.period[2..3]=16' \
	-p tokens.latency=3

run --dump-config "$@" "$good"
status 0 "--dump-config cli-good.ini with -p"
cp out dump.ini
sink=$(section "component sink" dump.ini)
src=$(section "component src" dump.ini)
has_line "$sink" "type = token_sink" "dump: [component sink] comes from the included file"
has_line "$sink" "mode = ack" "dump: the including file, read later, wins over the included one"
has_line "$sink" "; default: phase_every = 0" "dump: a default is shown, as a comment (phase_every = 0)"
has_line "$sink" "; default: label = phase" "dump: a string default is shown, as a comment (label = phase)"
has_line "$src" "start = 1" "dump: template of a template (slow via slower) beats the default"
has_line "$src" "period = 8" "dump: the nearer template (slower) beats the farther one (slow)"
has_line "$src" "tokens = 6" "dump: the section beats the template"
has_line "$src" "first = 50" "dump: the section beats the template (first)"
has_line "$src" "first[1] = 7" "dump: an indexed key beats the section"
has_line "$src" "first[2] = 9" "dump: a range key sets its instances"
has_line "$src" "first[3] = 11" "dump: -p src[3].first beats the range key"
has_line "$src" "step = 3" "dump: -p src.step beats the template"
has_line "$src" "period[2..3] = 16" "dump: -p src.period[2..3] sets a range"
has_line "$(section "link tokens" dump.ini)" "latency = 3" "dump: -p on a link key"
want="type = token_source
count = 4
tokens = 6
first = 50
first[1] = 7
first[2] = 9
first[3] = 11
step = 3
period = 8
period[2..3] = 16
start = 1
; default: payload = 4B
; default: enabled = true"
is "$src" "$want" "dump: [component src] exactly"
grep -q -E '^(\[template|extends|include)' dump.ini
[ $? -eq 1 ]
ok $? "dump: no templates, extends or include left"

# Loaded again, the dump must say the same; only the comment on line 1
# names the file it was read from.
run --dump-config dump.ini
status 0 "--dump-config of the dump"
tail -n +2 dump.ini >a
tail -n +2 out >b
cmp -s a b
ok $? "dump of the dump: the same but for the first line" || diag "$(diff a b)"
cp out dump.ini
run --dump-config dump.ini
cmp -s out dump.ini
ok $? "dump of the dump of the dump: byte for byte" || diag "$(diff dump.ini out)"

# ---- --dot ---------------------------------------------------------------------------

run --dot "$@" "$good"
status 0 "--dot"
cp out graph.dot
# an array is one node, and the connections of a pair of ports one edge
is "$(grep -c -e '->' graph.dot)" 2 "--dot: 2 edges, each for its 4 connections"
match graph.dot '^[[:space:]]+"src\[0\.\.3\]" -> "sink\[0\.\.0\]" \[label="out -> in\[\*\] x 4"\];$' \
	"--dot: src[0..3].out -> sink[0..0].in[*] x 4"
match graph.dot '^[[:space:]]+"src\[0\.\.3\]" \[label="src\[0\.\.3\]\\ntoken_source x 4", shape=box3d\];$' \
	"--dot: the array src, one node of 4"
run --dot=full "$@" "$good"
status 0 "--dot=full"
cp out graph.dot
run --dot=some "$@" "$good"
status 2 "--dot=some"
is "$(cat err)" "sectorsim: --dot=some: expected --dot or --dot=full" "--dot=some: one line saying what is expected"
is "$(sed -n 1p graph.dot)" "digraph sectorsim {" "--dot: a digraph"
is "$(sed -n '$p' graph.dot)" "}" "--dot: closed"
for i in 0 1 2 3; do
	match graph.dot "^[[:space:]]+\"src\\[$i\\]\" -> \"sink\\[0\\]\" \\[label=\"out -> in\\[$i\\]\"\\];\$" \
		"--dot=full: src[$i].out -> sink[0].in[$i]"
	match graph.dot "^[[:space:]]+\"src\\[$i\\]\" -> \"sink\\[0\\]\" \\[label=\"ctl -> ctl\\[$i\\]\"\\];\$" \
		"--dot=full: src[$i].ctl -> sink[0].ctl[$i]"
done
is "$(grep -c -e '->' graph.dot)" 8 "--dot=full: 8 edges"
is "$(grep -c 'label="[a-z]*\[[0-9]\]\\ntoken_' graph.dot)" 5 "--dot=full: 5 nodes"
if command -v dot >/dev/null 2>&1; then
	dot -Tsvg graph.dot >graph.svg 2>dot.err
	ok $? "dot -Tsvg accepts the graph" || diag "$(cat dot.err)"
else
	skip "dot (Graphviz) not installed"
fi

# ---- a run and its statistics -----------------------------------------------------------
#
# 4 sources, 6 tokens each, first = 50, 7, 9, 11, step 3: sums 345 + 87 + 99
# + 111 = 642.  mode = ack: every token acknowledged.  Latency 3 on each.

run --quiet "$@" "$good"
status 0 "run cli-good.ini"
cp out stats.txt
is "$(cat err)" "" "--quiet: nothing on stderr"
match stats.txt '^-+ run -+$' "text: a phase header"
is "$(stat src.sent stats.txt)" 24 "text: src.sent = 24"
is "$(stat 'src[3].value_sum' stats.txt)" 111 "text: src[3].value_sum = 111"
is "$(stat sink.value_sum stats.txt)" 642 "text: sink.value_sum = 642"
is "$(stat sink.latency_sum stats.txt)" 72 "text: sink.latency_sum = 24 * 3"
is "$(stat src.acks stats.txt)" 24 "text: src.acks = 24 (mode = ack from the including file)"
is "$(stat sink.done stats.txt)" 4 "text: sink.done = 4 (the optional ctl links)"

run "$@" "$good"
match err '^sectorsim: [0-9]+ events to tick [0-9]+ in ' "without --quiet: a summary on stderr"

run --quiet dump.ini
cmp -s out stats.txt
ok $? "the dump runs to the same statistics" || diag "$(diff stats.txt out)"

# Single instances are linked without an instance selector ("src.out").
run --quiet "$data/cli-scalar.ini"
status 0 "run cli-scalar.ini"
is "$(stat sink.tokens out)" 30 "single instances: sink.tokens = 3 sources * 10"
is "$(stat 'sink.from[0].tokens' out)" 10 "single instances: src.out -> sink.in[0]"
run --dot "$data/cli-scalar.ini"
match out '^[[:space:]]+"src" -> "sink" \[label="out -> in\[0\]"\];$' "--dot: single instances are named without [N]"

run --quiet --stats json "$@" "$good"
status 0 "--stats json"
cp out stats.json
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool stats.json >/dev/null 2>json.err
	ok $? "json: python3 -m json.tool accepts it" || diag "$(cat json.err)"
	v=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = d["phases"][0]
print(p["phase"], p["stats"]["sink.value_sum"], p["stats"]["src[1].sent"])' stats.json 2>&1)
	is "$v" "run 642 6" "json: phase run, sink.value_sum = 642, src[1].sent = 6"
else
	skip "python3 not installed" 2
fi

run --quiet --stats csv "$@" "$good"
status 0 "--stats csv"
cp out stats.csv
is "$(sed -n 1p stats.csv)" "phase,stat,value" "csv: header"
match stats.csv '^run,sink\.value_sum,642$' "csv: run,sink.value_sum,642"
is "$(awk -F, 'NF != 3' stats.csv)" "" "csv: three fields per row"
is "$(wc -l <stats.csv | tr -d ' ')" "$(($(grep -c -E '^[a-z]' stats.txt) + 1))" \
	"csv: one row per statistic of the text output"

run --quiet --stats csv --output written.csv "$@" "$good"
status 0 "--output FILE"
is "$(cat out)" "" "--output: nothing on stdout"
cmp -s written.csv stats.csv
ok $? "--output: the file holds what stdout would have"

run --quiet --output no-such-dir/x.csv "$good"
status 2 "--output into a missing folder"
has "$(cat err)" "no-such-dir/x.csv: cannot write statistics" "--output failure: names the file"

# ---- values that need quoting ---------------------------------------------------------------
#
# label = 'a,"b";c' names the phases: the dump must keep the value, the CSV
# must quote it (RFC 4180), the JSON must escape it.

quote=$data/cli-quote.ini
run --dump-config "$quote"
status 0 "--dump-config cli-quote.ini"
cp out q1.ini
run --dump-config q1.ini
tail -n +2 q1.ini >a
tail -n +2 out >b
cmp -s a b
ok $? "dump keeps a value holding '\"', ';' and ','" ||
	diag "first dump: $(grep '^label' q1.ini)" "its reload: $(grep '^label' out)"

if command -v python3 >/dev/null 2>&1; then
	run --quiet --stats json "$quote"
	v=$(python3 -c 'import json, sys
print(json.load(sys.stdin)["phases"][0]["phase"])' <out 2>&1)
	is "$v" 'a,"b";c 0' "json: the phase name is escaped"
	run --quiet --stats csv "$quote"
	v=$(python3 -c 'import csv, sys
rows = list(csv.reader(sys.stdin))
bad = [r for r in rows if len(r) != 3]
print(rows[1][0] if not bad else "rows without 3 fields: %r" % bad[:2])' <out 2>&1)
	is "$v" 'a,"b";c 0' "csv: the phase name is quoted"
else
	skip "python3 not installed" 2
fi

# ---- configurations by name ---------------------------------------------------------

# a name that is no file here: $SECTORSIM_CONFIG_PATH, then the installed ones
mkdir -p elsewhere
(cd elsewhere && SECTORSIM_CONFIG_PATH=/nonexistent:$cfg "$SECTORSIM" --quiet timing/titanv.ini \
	"$top/traces/vectoradd-a100" > ../byname.out 2> ../byname.err)
is "$?" 0 "timing/titanv.ini by name from another folder: exit 0" || diag "$(cat byname.err)"
grep -q '^kernel 1  .*vectorAdd' byname.out
ok $? "timing/titanv.ini by name: its table"
SECTORSIM_CONFIG_PATH=$cfg "$SECTORSIM" --list-configs > list.out
grep -q "^  validation/titanv-ref.ini\$" list.out && ! grep -q "parts/" list.out
ok $? "--list-configs: the configurations, not their parts"
(cd elsewhere && SECTORSIM_CONFIG_PATH=$cfg "$SECTORSIM" no-such.ini > /dev/null 2> ../nosuch.err)
is "$?" 2 "a name no folder holds: exit 2"
grep -q "no-such.ini" nosuch.err
ok $? "a name no folder holds: the message names it"

# ---- --json or --csv with nothing to write them: refused, not an empty exit 0 -------
for opt in --json --csv; do
	run --quiet "$opt" "$PWD/nothing.out" "$srcdir/data/cli-good.ini"
	status 2 "$opt without a kernel_report"
	# (the configuration by its canonical path: distcheck's srcdir has ..)
	err_line "sectorsim: $opt $PWD/nothing.out: no component of " \
		"cli-good.ini writes per-kernel results; expected a kernel_report" \
		"$opt without a kernel_report: the message says what is missing"
	[ ! -e nothing.out ]
	ok $? "$opt without a kernel_report: no file made"
done

# ---- -p on an array: [*] is every instance, as no index is --------------------------
ref_ini=$cfg/validation/titanv-ref.ini
"$SECTORSIM" -p 'l1.assoc=2' --csv all.csv "$ref_ini" "$top/traces/vectoradd-a100" > /dev/null 2>&1
for form in 'l1[*].assoc=2' 'l1.assoc[*]=2'; do
	"$SECTORSIM" -p "$form" --dump-config "$ref_ini" > star.dump 2> /dev/null
	[ "$(grep -c '^assoc = 2$' star.dump)" = 1 ] && ! grep -q '^assoc\[' star.dump
	ok $? "-p $form: every L1 gets it" || diag "$(grep '^assoc' star.dump)"
	"$SECTORSIM" -p "$form" --csv star.csv "$ref_ini" "$top/traces/vectoradd-a100" > /dev/null 2>&1
	is "$(grep -v '^#' star.csv)" "$(grep -v '^#' all.csv)" "-p $form: the results of -p l1.assoc=2"
done
run -p 'l2[*].assoc=8' --dump-config "$ref_ini"
status 2 "-p l2[*].assoc=8 on a component that is no array"
err_line "command line -p l2[*].assoc=8" "'l2' is not an array (no count =); expected l2.assoc=VALUE" \
	"-p l2[*].KEY on a component that is no array: refused as l2[0] is"
"$SECTORSIM" -p 'l1[3..5].assoc=2' --dump-config "$ref_ini" > range.dump 2> /dev/null
grep -q '^assoc\[3\.\.5\] = 2$' range.dump
ok $? "-p l1[3..5].assoc=2: those three only"

# ---- a configuration from standard input -----------------------------------------

# "-": its paths are relative to the working folder, as the file's are to its own
"$SECTORSIM" --quiet --csv file.csv "$cfg/titanv.ini" "$top/traces/vectoradd-a100" > /dev/null 2>&1
(cd "$cfg" && "$SECTORSIM" --quiet --csv "$OLDPWD/stdin.csv" - "$top/traces/vectoradd-a100" \
	< titanv.ini > "$OLDPWD/stdin.out" 2> "$OLDPWD/stdin.err")
is "$?" 0 "CONFIG -: read from standard input, exit 0" || diag "$(cat stdin.err)"
is "$(grep -v '^#' stdin.csv)" "$(grep -v '^#' file.csv)" "CONFIG -: the results of the file it holds"
grep -q '^configuration <stdin>, 80 SMs$' stdin.out
ok $? "CONFIG -: the table names standard input"
grep -q '^# config: {"path": "<stdin>", "digest": ' stdin.csv
ok $? "CONFIG -: the results' provenance names standard input"
printf '[simulation]\ninclude = no-such-part.ini\n' | "$SECTORSIM" - > /dev/null 2> stdin-bad.err
is "$?" 2 "CONFIG -, a missing include: exit 2"
has "$(cat stdin-bad.err)" "<stdin>:2: cannot read included file" "CONFIG -: the message names <stdin> and its line"
printf '[component l1\n' | "$SECTORSIM" - > /dev/null 2> stdin-bad.err
is "$?" 2 "CONFIG -, a bad header: exit 2"
has "$(cat stdin-bad.err)" "<stdin>:1: section header" "CONFIG -, a bad header: <stdin>:1"
(cd "$cfg" && "$SECTORSIM" --dump-config - < titanv.ini > "$OLDPWD/stdin.dump")
(cd "$cfg" && "$SECTORSIM" --dump-config titanv.ini > "$OLDPWD/file.dump")
is "$(sed 1d stdin.dump)" "$(sed 1d file.dump)" "CONFIG -: --dump-config expands it as the file"
"$SECTORSIM" sweep - -s l2.assoc=2,4 < "$cfg/titanv.ini" > /dev/null 2> stdin-sweep.err
is "$?" 2 "sweep CONFIG -: refused, exit 2"
has "$(cat stdin-sweep.err)" "expected a file" "sweep CONFIG -: the message says a file is needed"

done_testing
