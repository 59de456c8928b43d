#!/bin/sh
# Where the outputs go (--json, --csv, -o, --rd-profile, standard output):
# a regular file or a new path is replaced atomically (FILE.part, then a
# rename), a symbolic link's target likewise, and anything else (a device,
# a FIFO) is written directly and stays what it is; "-" is standard output.
# Every write error exits 1 with "write error on NAME: REASON".  An input
# error keeps the finished kernels in FILE.part for --resume.
#
# Safe as any user: the outputs are FIFOs and files in a temporary folder,
# and /dev/full and /dev/null, which a user cannot replace.  As root, who
# could (a broken sectorsim would rename its FILE.part over /dev/full), the
# devices are private nodes made with mknod in the temporary folder.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

titanv=$top/configs/titanv.ini
sdcm=$top/configs/validation/titanv-sdcm-ref.ini
sticky=$srcdir/data/pipeline/sticky
three=$srcdir/data/output/three
enospc="No space left on device"

tap_tmpdir test-output

full=/dev/full
null=/dev/null
if [ "$(id -u)" = 0 ]; then
	full=$tmp/full
	null=$tmp/null
	mknod -m 666 "$full" c 1 7 2>/dev/null || full=
	mknod -m 666 "$null" c 1 3 2>/dev/null || null=
fi

# The results of a plain run, to compare with.
run --quiet --json "$tmp/ok.json" --csv "$tmp/ok.csv" "$titanv" "$three"
is "$st" 0 "three kernels into regular files: exit 0"
run --quiet --stats csv -o "$tmp/ok.stats" "$titanv" "$three"
is "$st" 0 "-o into a regular file: exit 0"
run --quiet --rd-profile "$tmp/ok.rd" "$sdcm" "$sticky"
is "$st" 0 "--rd-profile into a regular file: exit 0"

# ---- (1) a device is written, never replaced ----------------------------------
if [ -n "$full" ] && [ -c "$full" ] && [ -w "$full" ]; then
	for opt in --json --csv -o --rd-profile; do
		case $opt in
		--rd-profile) run --quiet "$opt" "$full" "$sdcm" "$sticky" ;;
		-o) run --quiet --stats csv "$opt" "$full" "$titanv" "$three" ;;
		*) run --quiet "$opt" "$full" "$titanv" "$three" ;;
		esac
		is "$st" 1 "$opt $full: exit 1"
		has "$err" "sectorsim: write error on $full: $enospc" "$opt $full: the message names the device and the reason"
		[ -c "$full" ]
		ok $? "$opt $full: it is still a character device"
	done
	[ ! -e "$full.part" ]
	ok $? "no $full.part was made"

	# ---- (2) standard output is checked too -------------------------------
	"$SECTORSIM" --quiet "$titanv" "$three" >"$full" 2>"$tmp/err"
	is "$?" 1 "the table on a full standard output: exit 1"
	is "$(cat "$tmp/err")" "sectorsim: write error on standard output: $enospc" "the message says standard output"
	"$SECTORSIM" --quiet --stats json --json "$tmp/full.json" "$titanv" "$three" >"$full" 2>"$tmp/err"
	is "$?" 1 "raw statistics on a full standard output: exit 1"
	has "$(cat "$tmp/err")" "sectorsim: write error on standard output: $enospc" "the message says standard output"
	# the raw statistics are alone on standard output, written at the
	# end: the run itself finished, and its results are whole
	[ -s "$tmp/full.json" ] && [ ! -e "$tmp/full.json.part" ] &&
		tail -n 1 "$tmp/full.json" | grep -q '^}$'
	ok $? "the run's results, finished before the statistics failed, are kept whole"
	"$SECTORSIM" --list >"$full" 2>"$tmp/err"
	is "$?" 1 "--list on a full standard output: exit 1"
	has "$(cat "$tmp/err")" "write error on standard output: $enospc" "--list: the message"
	"$SECTORSIM" --quiet --csv - "$titanv" "$three" >"$full" 2>"$tmp/err"
	is "$?" 1 "--csv - on a full standard output: exit 1"
	has "$(cat "$tmp/err")" "write error on standard output: $enospc" "--csv -: the message"
	# GLib's option parser prints --help and exits itself
	for h in --help "convert --help"; do
		# shellcheck disable=SC2086 # the command and its option
		"$SECTORSIM" $h >"$full" 2>"$tmp/err"
		is "$?" 1 "$h on a full standard output: exit 1"
		is "$(cat "$tmp/err")" "sectorsim: write error on standard output: $enospc" "$h: the message"
	done
else
	skip "no writable /dev/full" 25
fi

# a folder as an output: refused before the run, and left as it was
mkdir "$tmp/adir"
run --quiet --json "$tmp/adir" "$titanv" "$three"
is "$st" 2 "a folder as --json: exit 2"
is "$err" "run: report (type kernel_report): start: $tmp/adir: cannot write the results: Is a directory" \
	"a folder as --json: one line naming it"
[ -d "$tmp/adir" ] && [ ! -e "$tmp/adir.part" ] && [ -z "$(ls -A "$tmp/adir")" ]
ok $? "a folder as --json: still an empty folder, no .part beside it"

if [ -n "$null" ] && [ -c "$null" ]; then
	run --quiet --json "$null" --csv "$null" "$titanv" "$three"
	is "$st" 0 "--json and --csv $null: exit 0"
	[ -c "$null" ] && [ ! -e "$null.part" ]
	ok $? "$null is still a character device, and no $null.part"
else
	skip "no /dev/null" 2
fi

# ---- (1) a FIFO is written, never replaced -----------------------------------------
# end_reader PID: the reader of the FIFO is done, or is stopped after 3 s
# (a sectorsim that never opened the FIFO leaves it waiting)
end_reader()
{
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 30 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.got" &
reader=$!
run --quiet --csv "$tmp/fifo" "$titanv" "$three"
end_reader "$reader"
is "$st" 0 "--csv FIFO: exit 0"
[ -p "$tmp/fifo" ] && [ ! -e "$tmp/fifo.part" ]
ok $? "--csv FIFO: the FIFO is still a FIFO, and no FIFO.part"
cmp -s "$tmp/fifo.got" "$tmp/ok.csv"
ok $? "--csv FIFO: the reader got the CSV of a regular file"

cat "$tmp/fifo" >"$tmp/fifo.got" &
reader=$!
run --quiet --stats csv -o "$tmp/fifo" "$titanv" "$three"
end_reader "$reader"
is "$st" 0 "-o FIFO: exit 0"
[ -p "$tmp/fifo" ]
ok $? "-o FIFO: the FIFO is still a FIFO"
cmp -s "$tmp/fifo.got" "$tmp/ok.stats"
ok $? "-o FIFO: the reader got the statistics"

# ---- (1) a symbolic link is followed: its target is replaced ---------------------
mkdir "$tmp/real"
echo old >"$tmp/real/r.json"
ln -s real/r.json "$tmp/link.json"
ln -s real/new.csv "$tmp/link.csv"	# dangling: the target is made
ln -s real/rd.csv "$tmp/link.rd"
run --quiet --json "$tmp/link.json" --csv "$tmp/link.csv" "$titanv" "$three"
is "$st" 0 "--json and --csv through symbolic links: exit 0"
[ -L "$tmp/link.json" ] && [ -L "$tmp/link.csv" ]
ok $? "the links are still links"
cmp -s "$tmp/real/r.json" "$tmp/ok.json" && cmp -s "$tmp/real/new.csv" "$tmp/ok.csv"
ok $? "their targets hold the results (a dangling link's target is made)"
is "$(ls "$tmp" "$tmp/real" | grep -c part)" 0 "no partial file left beside the links or the targets"
run --quiet --rd-profile "$tmp/link.rd" "$sdcm" "$sticky"
[ -L "$tmp/link.rd" ] && cmp -s "$tmp/real/rd.csv" "$tmp/ok.rd"
ok $? "--rd-profile through a link: the target holds the profile"

# ---- (1) "-" is standard output ---------------------------------------------------
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$SECTORSIM" --quiet --csv - "$titanv" "$three" >"$tmp/dash.out")
is "$?" 0 "--csv -: exit 0"
is "$(ls -A "$tmp/cwd")" "" "no file named '-' (nor '-.part') is made"
# the output alone, no table around it: a pipe reads what it asked for
is "$(cat "$tmp/dash.out")" "$(cat "$tmp/ok.csv")" "--csv -: the CSV alone on standard output"
(cd "$tmp/cwd" && "$SECTORSIM" --quiet --json - "$titanv" "$three" >"$tmp/dash.out")
is "$(grep -c '"kernel_id"' "$tmp/dash.out")" 3 "--json -: the JSON on standard output"
is "$(head -c 1 "$tmp/dash.out")$(tail -c 2 "$tmp/dash.out")" "{}" \
	"--json -: the JSON alone, from its { to its }"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys; json.load(sys.stdin)' <"$tmp/dash.out"
	ok $? "--json -: standard output parses as JSON"
fi
run --quiet --json - --csv - "$titanv" "$three"
is "$st" 2 "--json - --csv -: exit 2"
is "$err" "sectorsim: --json - and --csv -: both to standard output; expected one of them written to a file" \
	"--json - --csv -: one line says why"
run --quiet --json - --stats json "$titanv" "$three"
is "$st" 2 "--json - with the raw statistics on standard output: exit 2"
(cd "$tmp/cwd" && "$SECTORSIM" --quiet --stats csv -o - "$titanv" "$three" >"$tmp/dash.out")
has "$(cat "$tmp/dash.out")" "$(cat "$tmp/ok.stats")" "-o -: the statistics on standard output"
(cd "$tmp/cwd" && "$SECTORSIM" --quiet --rd-profile - "$sdcm" "$sticky" >"$tmp/dash.out")
has "$(cat "$tmp/dash.out")" "$(cat "$tmp/ok.rd")" "--rd-profile -: the profile on standard output"
is "$(ls -A "$tmp/cwd")" "" "still no file named '-'"
# a configuration that keeps no profile: refused before it runs, not a
# silent run (with -, one that would print nothing at all)
# (the message names the configuration as an absolute path without ..)
titanv_abs=$(cd "$top/configs" && pwd)/titanv.ini
for to in - "$tmp/none.rd"; do
	run --quiet --rd-profile "$to" "$titanv" "$three"
	is "$st" 2 "--rd-profile $to without an sdcm_cache: exit 2"
	is "$err" "sectorsim: --rd-profile $to: no component of $titanv_abs keeps reuse-distance profiles; expected a configuration with an sdcm_cache, or no --rd-profile" \
		"--rd-profile $to without an sdcm_cache: one line says why"
	is "$out" "" "--rd-profile $to without an sdcm_cache: nothing on standard output"
done
[ ! -e "$tmp/none.rd" ]
ok $? "--rd-profile FILE without an sdcm_cache: no file"

# ---- --resume needs a FILE.part ---------------------------------------------------
run --quiet --resume --json "$tmp/fifo" "$titanv" "$three"
is "$st" 2 "--resume with a FIFO as --json: exit 2"
is "$err" "sectorsim: --resume: --json $tmp/fifo is not a regular file, so there is no partial file to continue from" "one line says why"
(cd "$tmp/cwd" && "$SECTORSIM" --quiet --resume --csv - "$titanv" "$three" >/dev/null 2>&1)
is "$?" 2 "--resume with --csv -: exit 2"
[ -p "$tmp/fifo" ]
ok $? "the FIFO is untouched"

# ---- (4) an input error keeps the finished kernels ----------------------------------
mkdir "$tmp/t"
cp "$three"/* "$tmp/t/"
cp "$srcdir/data/output/kernel-3-bad.traceg" "$tmp/t/kernel-3.traceg"
run --quiet --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/t"
is "$st" 2 "kernel 3 malformed: exit 2"
is "$err" "kernel-3.traceg:23: cannot decode addresses: unknown mode 7" "one line names the file and the line"
[ ! -e "$tmp/r.json" ] && [ ! -e "$tmp/r.csv" ]
ok $? "no results file is made"
is "$(grep -c '"kernel_id"' "$tmp/r.json.part")" 2 "r.json.part holds kernels 1 and 2"
is "$(grep -v '^#' "$tmp/r.csv.part" | cut -d, -f1 | tr '\n' ' ')" "kernel_id 1 2 " "r.csv.part holds kernels 1 and 2"
cp "$three/kernel-3.traceg" "$tmp/t/kernel-3.traceg"

# ---- --resume continues only the run that made the partial files -------------------
# The JSON and the CSV record what produced them (sectorsim, the
# configuration's digest, the trace, -p); another configuration, -p or
# trace stops with one line, exit 2, and leaves the partial files as they
# were.
a100=$top/configs/a100.ini
cp "$tmp/r.json.part" "$tmp/keep.json"
cp "$tmp/r.csv.part" "$tmp/keep.csv"
started="run: report (type kernel_report): start: "
digest() { "$SECTORSIM" --dump-config "$@" | sha256sum | cut -c1-8; }
head -n 7 "$tmp/r.json.part" >"$tmp/head.json"
is "$(sed -n 2p "$tmp/head.json")" '  "schema": 1,' "the JSON starts with its provenance, schema 1"
has "$(cat "$tmp/head.json")" "/configs/titanv.ini\", \"digest\": \"$(digest "$titanv" "$tmp/t")" "the provenance has the configuration and the digest of --dump-config"
has "$(cat "$tmp/head.json")" "\"trace\": {\"path\": \"$tmp/t\"" "the provenance has the trace"
run --quiet --resume --json "$tmp/r.json" --csv "$tmp/r.csv" "$a100" "$tmp/t"
is "$st" 2 "--resume with another configuration: exit 2"
is "$err" "$started$tmp/r.json.part: made by another configuration (digest $(digest "$titanv" "$tmp/t")… ≠ $(digest "$a100" "$tmp/t")…); run without --resume to start afresh" "another configuration: one line says what differs"
run --quiet --resume -p sched.max_blocks=32 --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/t"
is "$st" 2 "--resume with another -p: exit 2"
is "$err" "$started$tmp/r.json.part: made with other -p settings ([] ≠ [\"sched.max_blocks=32\"]); run without --resume to start afresh" "another -p: one line says what differs"
mkdir "$tmp/t2"
cp "$tmp/t"/* "$tmp/t2/"
run --quiet --resume --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/t2"
is "$st" 2 "--resume with another trace: exit 2"
is "$err" "$started$tmp/r.json.part: made from another trace ($tmp/t ≠ $tmp/t2); run without --resume to start afresh" "another trace: one line says what differs"
mv "$tmp/t/kernelslist.g" "$tmp/list"
printf 'kernel-1.traceg\nkernel-2.traceg\n' >"$tmp/t/kernelslist.g"
run --quiet --resume --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/t"
is "$st" 2 "--resume with another kernel list at the same path: exit 2"
has "$err" "$tmp/r.json.part: made from another trace (kernel list digest " "another kernel list: one line says so"
mv "$tmp/list" "$tmp/t/kernelslist.g"
is "$(sed -n 1,2p "$tmp/r.csv.part")" "# sectorsim results
# schema: 1" "the CSV starts with its provenance, as comment lines"
has "$(sed -n 4p "$tmp/r.csv.part")" "/configs/titanv.ini\", \"digest\": \"$(digest "$titanv" "$tmp/t")" "the CSV's provenance has the configuration's digest"
run --quiet --resume --csv "$tmp/r.csv" "$a100" "$tmp/t"
is "$st" 2 "--resume with --csv alone and another configuration: exit 2"
is "$err" "$started$tmp/r.csv.part: made by another configuration (digest $(digest "$titanv" "$tmp/t")… ≠ $(digest "$a100" "$tmp/t")…); run without --resume to start afresh" "--csv alone: its own provenance says what differs"
cmp -s "$tmp/r.json.part" "$tmp/keep.json" && cmp -s "$tmp/r.csv.part" "$tmp/keep.csv" &&
	[ ! -e "$tmp/r.json" ] && [ ! -e "$tmp/r.csv" ]
ok $? "the refused --resume runs left the partial files untouched"

# an uninterrupted run of the repaired trace, to compare with
run --quiet --json "$tmp/okt.json" --csv "$tmp/okt.csv" "$titanv" "$tmp/t"
is "$st" 0 "the repaired trace, uninterrupted: exit 0"
grep -v '^#' "$tmp/okt.csv" >"$tmp/okt.rows" && grep -v '^#' "$tmp/ok.csv" >"$tmp/ok.rows" &&
	cmp -s "$tmp/okt.rows" "$tmp/ok.rows"
ok $? "its CSV is that of the original trace, but for the trace's path"
run --resume --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/t"
is "$st" 0 "the trace repaired, --resume: exit 0"
has "$err" "resuming: 2 kernels kept from the interrupted run" "--resume keeps kernels 1 and 2"
is "$(printf '%s\n' "$out" | grep -c '^kernel ')" 1 "--resume runs only kernel 3"
cmp -s "$tmp/r.json" "$tmp/okt.json" && cmp -s "$tmp/r.csv" "$tmp/okt.csv"
ok $? "the resumed files are those of an uninterrupted run, byte for byte"
[ ! -e "$tmp/r.json.part" ] && [ ! -e "$tmp/r.csv.part" ]
ok $? "no partial file left"

# a kernel file cut short: the same
rm -f "$tmp"/r.*
head -n 19 "$three/kernel-3.traceg" >"$tmp/t/kernel-3.traceg"
run --quiet --json "$tmp/r.json" "$titanv" "$tmp/t"
is "$st" 2 "kernel 3 cut short: exit 2"
is "$err" "kernel-3.traceg:19: file ends after #BEGIN_TB; expected 'thread block = x,y,z' and #END_TB" "kernel 3 cut short: the message"
is "$(grep -c '"kernel_id"' "$tmp/r.json.part" 2>/dev/null)" 2 "kernel 3 cut short: r.json.part holds kernels 1 and 2"
cp "$three/kernel-3.traceg" "$tmp/t/kernel-3.traceg"
run --quiet --resume --json "$tmp/r.json" "$titanv" "$tmp/t"
is "$st" 0 "repaired, --resume: exit 0"
cmp -s "$tmp/r.json" "$tmp/okt.json"
ok $? "the resumed JSON is that of an uninterrupted run"

# an existing results file survives a failed run
rm -f "$tmp"/r.*
echo previous >"$tmp/r.json"
cp "$srcdir/data/output/kernel-3-bad.traceg" "$tmp/t/kernel-3.traceg"
run --quiet --json "$tmp/r.json" "$titanv" "$tmp/t"
is "$(cat "$tmp/r.json")" previous "a run that fails leaves the existing file as it was"

done_testing
