#!/bin/sh
# The native trace format (doc/trace-format.md): `sectorsim convert TRACE
# OUT` writes any trace as a native file, which `sectorsim CONFIG.ini OUT`
# reads with no option and the same results as TRACE: the same CSV rows,
# the same table, the same warnings (which name OUT instead), the same
# exit status, under every stock and validation configuration.  Converting
# a native file gives the same bytes again.  A damaged native file (cut
# short, a wrong magic number, version or header size, a bad checksum, a
# payload that does not decompress, bytes after the end) is one line on
# standard error that names it, and exit status 2; so are convert's own
# errors, and a failed conversion leaves an existing OUT as it was.
#
# The traces: the bundled sample and the small paper-format and Accel-Sim
# traces of tests/data always; every golden app of ../shared/golden, in
# each format it comes in, when it is there.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

titanv=$cfg/titanv.ini

tap_tmpdir test-native

# ---- helpers ------------------------------------------------------------------

# sim TAG ARGS...: $SECTORSIM ARGS with stdout in $tmp/TAG.out, stderr in
# $tmp/TAG.err and the exit status in $tmp/TAG.st
sim() {
	_t=$1
	shift
	"$SECTORSIM" "$@" >"$tmp/$_t.out" 2>"$tmp/$_t.err"
	echo $? >"$tmp/$_t.st"
}

# rows CSV: the CSV without its provenance (comment lines), which names the
# trace and its digest
rows() { grep -v '^#' "$1"; }

# msgs TAG: the warnings of run TAG with the file they name taken out (a
# native file's reader names the file; the source's, a kernel file or folder)
# (a paper-format block file cut inside a line is convert's to report: the
# native file keeps its lines as read, not the doubt)
msgs() { grep -v ' inside a line, the first ' "$tmp/$1.err" |
	sed 's/^\(sectorsim: warning: \)[^:]*: /\1TRACE: /'; }

# one_line TEXT: whether TEXT is exactly one non-empty line
one_line() { [ -n "$1" ] && [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]; }

# byte FILE OFF: the byte at OFF in FILE, a decimal number
byte() { od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }

# u32 FILE OFF: the little-endian 32-bit integer at OFF in FILE
u32() {
	echo $(($(byte "$1" "$2") + 256 * $(byte "$1" $(($2 + 1))) +
		65536 * $(byte "$1" $(($2 + 2))) + 16777216 * $(byte "$1" $(($2 + 3)))))
}

# patch FILE OFF VALUE OUT: FILE with the byte at OFF set to VALUE (decimal)
patch() {
	{
		head -c "$2" "$1"
		# shellcheck disable=SC2059 # the format is the octal escape
		printf "\\$(printf '%03o' "$3")"
		tail -c +$(($2 + 2)) "$1"
	} >"$4"
}

# flip FILE OFF OUT: FILE with the low bit of the byte at OFF flipped
flip() { patch "$1" "$2" $(($(byte "$1" "$2") ^ 1)) "$3"; }

# ---- the traces ---------------------------------------------------------------

# sparse: the sample with a grid of 100000 blocks, of which it holds 196, so
# that a dispatcher skipping absent blocks (next_held) would show in the
# raw statistics (sched.blocks, sm.blocks)
mkdir "$tmp/sparse"
cp "$top/traces/vectoradd-a100/kernelslist.g" "$tmp/sparse/"
gzip -dc "$top/traces/vectoradd-a100/kernel-1.traceg.gz" |
	sed 's/^-grid dim = .*/-grid dim = (100000,1,1)/' >"$tmp/sparse/kernel-1.traceg"
set -- "sample=$top/traces/vectoradd-a100" "ppt=$srcdir/data/trace/ppt" \
	"accelsim=$srcdir/data/trace/accelsim" "sparse=$tmp/sparse"
bundled=$#
if [ -d "$shared/golden/real" ]; then
	for d in "$shared"/golden/real/*/; do
		[ -f "$d/kernelslist.g" ] && set -- "$@" "$(basename "$d")=${d%/}"
	done
	set -- "$@" "synth=$shared/golden/synth/app" \
		"accelsim_features-accelsim=$shared/golden/accelsim_features/accelsim" \
		"accelsim_features-ppt=$shared/golden/accelsim_features/ppt" \
		"conversion_example-accelsim=$shared/golden/conversion_example/accelsim" \
		"conversion_example-ppt=$shared/golden/conversion_example/ppt"
	have_shared=1
else
	have_shared=0
fi

# Every stock and validation configuration on the bundled traces; on the
# golden ones (a run is mostly start-up: the number of runs is the time),
# the four that read a trace differently: the reference's first wave of
# blocks on 80 SMs and on 108, and every block in the hardware-faithful
# order on each GPU.
configs="validation/titanv-ref.ini validation/a100-ref.ini
validation/titanv-sdcm-ref.ini titanv.ini a100.ini titanv-slices.ini
titanv-no-l1.ini"
golden_configs="validation/titanv-ref.ini validation/a100-ref.ini titanv.ini a100.ini"

# ---- round trip: the same results from the native file ------------------------

n=0
for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	sst=$tmp/$name.sst
	n=$((n + 1))
	these=$configs
	[ "$n" -le "$bundled" ] || these=$golden_configs
	sim "conv-$name" convert "$trace" "$sst"
	is "$(cat "$tmp/conv-$name.st")" 0 "$name: convert exits 0" ||
		diag "$(cat "$tmp/conv-$name.err")"
	# but for the fixture's block file cut inside a line, which it reports
	is "$(cat "$tmp/conv-$name.out" "$tmp/conv-$name.err" | grep -v ' inside a line, the first ')" "" \
		"$name: convert is silent"
	if [ "$name" = ppt ]; then
		has "$(cat "$tmp/conv-$name.err")" "sectorsim convert: warning: kernel 1 (copy<{int, float}>): 1 block file ends inside a line, the first kernel_1_block_2.mem: cut short? Their last lines were converted as they are" \
			"ppt: convert warns of the block file cut inside a line"
	fi
	# again from the native file: the same bytes
	sim "conv2-$name" convert "$sst" "$tmp/$name-2.sst"
	cmp -s "$sst" "$tmp/$name-2.sst"
	ok $? "$name: converting the native file gives the same bytes"
	for c in $these; do
		cn=$(basename "$c" .ini)
		a=$name-$cn-src
		b=$name-$cn-sst
		# the two runs side by side: two cores; the bundled traces' raw
		# statistics too (every counter of every component)
		stats_a= stats_b=
		if [ "$n" -le "$bundled" ]; then
			stats_a="--stats=csv --output=$tmp/$a.stats"
			stats_b="--stats=csv --output=$tmp/$b.stats"
		fi
		# shellcheck disable=SC2086 # two words or none
		sim "$a" -q --csv "$tmp/$a.csv" $stats_a "$cfg/$c" "$trace" &
		pid=$!
		# shellcheck disable=SC2086
		sim "$b" -q --csv "$tmp/$b.csv" $stats_b "$cfg/$c" "$sst"
		wait "$pid"
		sa=$(cat "$tmp/$a.st")
		is "$(cat "$tmp/$b.st")" "$sa" "$name under $c: the native file exits as the source ($sa)" ||
			diag "source: $(cat "$tmp/$a.err")" "native: $(cat "$tmp/$b.err")"
		if [ "$sa" != 0 ]; then
			skip "$name under $c: the source exits $sa, nothing to compare" 2
			continue
		fi
		if [ "$(rows "$tmp/$a.csv")" = "$(rows "$tmp/$b.csv")" ]; then
			ok 0 "$name under $c: the same CSV rows"
		else
			ok 1 "$name under $c: the same CSV rows"
			rows "$tmp/$a.csv" >"$tmp/$a.rows"
			rows "$tmp/$b.csv" >"$tmp/$b.rows"
			diag "$(diff "$tmp/$a.rows" "$tmp/$b.rows" | head -20)"
		fi
		if [ "$n" -le "$bundled" ]; then
			cmp -s "$tmp/$a.stats" "$tmp/$b.stats"
			ok $? "$name under $c: the same raw statistics" ||
				diag "$(diff "$tmp/$a.stats" "$tmp/$b.stats" | head -10)"
		fi
		if cmp -s "$tmp/$a.out" "$tmp/$b.out" &&
			[ "$(msgs "$a")" = "$(msgs "$b")" ]; then
			ok 0 "$name under $c: the same table and warnings"
		else
			ok 1 "$name under $c: the same table and warnings"
			msgs "$a" >"$tmp/$a.msgs"
			msgs "$b" >"$tmp/$b.msgs"
			diag "$(diff "$tmp/$a.out" "$tmp/$b.out" | head -10)" \
				"$(diff "$tmp/$a.msgs" "$tmp/$b.msgs" | head -10)"
		fi
	done
done
[ "$have_shared" = 1 ] ||
	skip "../shared/golden is not there (set SECTORSIM_SHARED): the golden traces" 1

# The warnings of a native file name it.
has "$(cat "$tmp/ppt-titanv-sst.err")" "sectorsim: warning: $tmp/ppt.sst: kernel 1 (copy<{int, float}>): the trace holds 2 of the grid's 3 thread blocks" \
	"ppt: a warning names the native file"

# ---- convert: other levels, standard output, formats ---------------------------

sample=$tmp/sample.sst
sim l19 convert --level 19 "$top/traces/vectoradd-a100" "$tmp/l19.sst"
is "$(cat "$tmp/l19.st")" 0 "convert --level 19: exit 0"
sim l19run -q --csv "$tmp/l19.csv" "$titanv" "$tmp/l19.sst"
[ "$(cat "$tmp/l19run.st")" = 0 ] &&
	[ "$(rows "$tmp/l19.csv")" = "$(rows "$tmp/sample-titanv-src.csv")" ]
ok $? "convert --level 19: the same results"
sim l19back convert "$tmp/l19.sst" "$tmp/l19-3.sst"
cmp -s "$tmp/l19-3.sst" "$sample"
ok $? "the --level 19 file converted at the default level: the default's bytes"
for level in -7 3; do
	sim "l$level" convert --level "$level" "$top/traces/vectoradd-a100" "$tmp/l$level.sst"
	sim "l${level}run" -q --csv "$tmp/l$level.csv" "$titanv" "$tmp/l$level.sst"
	[ "$(cat "$tmp/l$level.st")" = 0 ] && [ "$(cat "$tmp/l${level}run.st")" = 0 ] &&
		[ "$(rows "$tmp/l$level.csv")" = "$(rows "$tmp/sample-titanv-src.csv")" ] &&
		! cmp -s "$tmp/l$level.sst" "$sample"
	ok $? "convert --level $level: other bytes than the default's, the same results"
done

"$SECTORSIM" convert "$top/traces/vectoradd-a100" - >"$tmp/stdout.sst" 2>"$tmp/stdout.err"
st=$?
[ "$st" = 0 ] && cmp -s "$tmp/stdout.sst" "$sample"
ok $? "convert TRACE -: the same bytes on standard output"

sim fmt convert --format native "$sample" "$tmp/fmt.sst"
[ "$(cat "$tmp/fmt.st")" = 0 ] && cmp -s "$tmp/fmt.sst" "$sample"
ok $? "convert --format native: the same bytes"
sim fmt2 convert --format ppt "$srcdir/data/trace/ppt" "$tmp/fmt2.sst"
[ "$(cat "$tmp/fmt2.st")" = 0 ] && cmp -s "$tmp/fmt2.sst" "$tmp/ppt.sst"
ok $? "convert --format ppt: the bytes of auto"

# the format forced in the configuration reads it too
sim forced -q --csv "$tmp/forced.csv" -p trace.format=native "$titanv" "$sample"
[ "$(cat "$tmp/forced.st")" = 0 ] &&
	[ "$(rows "$tmp/forced.csv")" = "$(rows "$tmp/sample-titanv-src.csv")" ]
ok $? "trace.format = native: the same results"

# ---- damaged native files -------------------------------------------------------
# The sample's file: file header, then per chunk a 32-byte header
# {type, raw_len, stored_len, crc, a, b} and stored_len bytes; END is last.

size=$(wc -c <"$sample" | tr -d ' ')
blocks=16
blocks_stored=$(u32 "$sample" $((blocks + 8)))
pyset=$((blocks + 32 + blocks_stored))
pyset_stored=$(u32 "$sample" $((pyset + 8)))
kernel=$((pyset + 32 + pyset_stored))
kernel_stored=$(u32 "$sample" $((kernel + 8)))
end=$((kernel + 32 + kernel_stored))
is "$(u32 "$sample" $blocks) $(u32 "$sample" $pyset) $(u32 "$sample" $kernel) $(u32 "$sample" $end) $((end + 32))" \
	"1 4 2 3 $size" "the sample's file: a BLOCKS chunk, its PYSET chunk, a KERNEL chunk, an END chunk"

# bad TAG WANT DESC [ARGS...]: sectorsim ARGS (default: titanv.ini on
# $tmp/TAG.sst) exits 2 with one line that names TAG.sst and holds WANT
# (when WANT is not empty)
bad() {
	_tag=$1 _want=$2 _desc=$3
	shift 3
	# a100.ini: the sample's GPU, so that the error is all of standard error
	[ $# -gt 0 ] || set -- -q "$cfg/a100.ini" "$tmp/$_tag.sst"
	run "$@"
	is "$st" 2 "$_desc: exit 2"
	if one_line "$err"; then
		ok 0 "$_desc: one line"
	else
		ok 1 "$_desc: one line" || diag "$err"
	fi
	has "$err" "$_tag.sst" "$_desc: the message names the file"
	[ -z "$_want" ] || has "$err" "$_want" "$_desc: the message says '$_want'"
	is "$out" "" "$_desc: nothing on standard output"
}

# cut short: in the file header, in a chunk header, in a payload, at a
# chunk's end, just before the END chunk, in the END chunk
for cut in 12 $((blocks + 20)) $((blocks + 32 + blocks_stored / 2)) $kernel \
	$((kernel + 40)) $end $((size - 1)); do
	head -c "$cut" "$sample" >"$tmp/cut$cut.sst"
	bad "cut$cut" "truncated" "cut to $cut of $size bytes"
done

patch "$sample" 8 7 "$tmp/version.sst"
bad version "version 7" "version 7"
has "$err" "reads versions 1 to 5" "version 7: the message says which versions are read"

# a version-1 file (written by sectorsim before the binary version was
# kept) reads as before: the sample's results
run -q --csv "$tmp/v1.csv" "$titanv" "$srcdir/data/native-v1/vectoradd-a100.sst"
is "$st" 0 "a version-1 native file: exit 0" || diag "$err"
run -q --csv "$tmp/v1-text.csv" "$titanv" "$top/traces/vectoradd-a100"
is "$(rows "$tmp/v1.csv")" "$(rows "$tmp/v1-text.csv")" "a version-1 native file: the text trace's results"
# a version-2 file (every address a varint, the lanes as they are) too
run -q --csv "$tmp/v2.csv" "$titanv" "$srcdir/data/native-v2/vectoradd-a100.sst"
is "$st" 0 "a version-2 native file: exit 0" || diag "$err"
is "$(rows "$tmp/v2.csv")" "$(rows "$tmp/v1-text.csv")" "a version-2 native file: the text trace's results"
# A file of an earlier version (or this one's, kept): the text trace's
# results under titanv.ini, and under the reference's configuration.
old_version() {
	local v=$1 f="$srcdir/data/trace/native/vectoradd-a100-v$1.sst"

	run -q --csv "$tmp/v$v.csv" "$titanv" "$f"
	is "$st" 0 "a version-$v native file: exit 0" || diag "$err"
	is "$(rows "$tmp/v$v.csv")" "$(rows "$tmp/v1-text.csv")" "a version-$v native file: the text trace's results"
	run -q --csv "$tmp/v$v-ref.csv" "$cfg/validation/titanv-ref.ini" "$f"
	is "$(rows "$tmp/v$v-ref.csv")" "$(rows "$tmp/sample-titanv-ref-src.csv")" \
		"a version-$v native file under titanv-ref.ini: the text trace's results"
}
# version 3: no PYSET chunks, the reference's lines coalesced as they run
old_version 3
# version 4: no block's length, its blocks decoded whole as they load
old_version 4
# version 5: blocks streamed to the SMs, as this sectorsim writes them
old_version 5
is "$(od -A n -t u1 -j 8 -N 1 "$sample" | tr -d ' ')" 5 "convert writes version 5"
patch "$sample" 12 17 "$tmp/header.sst"
bad header "header of 17 bytes" "a header size of 17"
flip "$sample" $((blocks + 12)) "$tmp/crc.sst"
bad crc "checksum" "a bit flipped in the BLOCKS chunk's checksum"
has "$err" "chunk at byte $blocks: " "the checksum message: the chunk's offset"
flip "$sample" $((kernel + 12)) "$tmp/kcrc.sst"
bad kcrc "checksum" "a bit flipped in the KERNEL chunk's checksum"
bad crc "checksum" "the bad checksum under titanv-ref.ini" -q "$cfg/validation/titanv-ref.ini" "$tmp/crc.sst"
flip "$sample" $((blocks + 32 + blocks_stored / 2)) "$tmp/payload.sst"
bad payload "damaged" "a bit flipped in a payload"
flip "$sample" $((kernel + 32 + kernel_stored / 2)) "$tmp/kpayload.sst"
bad kpayload "damaged" "a bit flipped in the KERNEL chunk's payload"
patch "$sample" "$blocks" 9 "$tmp/type.sst"
bad type "unknown type 9" "a chunk of type 9"

# The PYSET chunk is read only by a configuration that keeps the sectors
# (trace.pyset_sectors = true, the reference's): damage there fails it,
# naming the PYSET chunk, and no other.
flip "$sample" $((pyset + 12)) "$tmp/pcrc.sst"
bad pcrc "chunk at byte $pyset: checksum" "a bit flipped in the PYSET chunk's checksum, kept" \
	-q "$cfg/validation/titanv-ref.ini" "$tmp/pcrc.sst"
run -q --csv "$tmp/pcrc.csv" "$titanv" "$tmp/pcrc.sst"
is "$st" 0 "the PYSET chunk's bad checksum, not kept (titanv.ini): exit 0" || diag "$err"
is "$(rows "$tmp/pcrc.csv")" "$(rows "$tmp/sample-titanv-src.csv")" \
	"the PYSET chunk's bad checksum, not kept (titanv.ini): the sample's results"
run -q --csv "$tmp/pcrc-off.csv" -p trace.pyset_sectors=false "$cfg/validation/titanv-ref.ini" "$tmp/pcrc.sst"
is "$(rows "$tmp/pcrc-off.csv")" "$(rows "$tmp/sample-titanv-ref-src.csv")" \
	"the PYSET chunk's bad checksum under titanv-ref.ini with trace.pyset_sectors = false: the sample's results"
# a BLOCKS chunk without its PYSET chunk (the writer leaves out one that
# would pass 64 MiB): its lines are coalesced, with the same results
{ head -c "$pyset" "$sample"; tail -c +$((kernel + 1)) "$sample"; } >"$tmp/nopyset.sst"
run -q --csv "$tmp/nopyset.csv" "$cfg/validation/titanv-ref.ini" "$tmp/nopyset.sst"
is "$st" 0 "a BLOCKS chunk without its PYSET chunk: exit 0" || diag "$err"
is "$(rows "$tmp/nopyset.csv")" "$(rows "$tmp/sample-titanv-ref-src.csv")" \
	"a BLOCKS chunk without its PYSET chunk, under titanv-ref.ini: the sample's results"
patch "$sample" $((pyset + 16)) 1 "$tmp/pwhere.sst"
bad pwhere "chunk at byte $pyset: a PYSET chunk not right after the BLOCKS chunk of its blocks" \
	"a PYSET chunk of other blocks than the BLOCKS chunk before it"
patch "$sample" "$pyset" 1 "$tmp/ptype.sst"
bad ptype "blocks out of order" "the PYSET chunk made a BLOCKS chunk"
# a reference interleaver that orders sectors otherwise coalesces itself
for order in ascending first_touch; do
	run -q --csv "$tmp/order-src.csv" -p "sm.sector_order=$order" "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100"
	run -q --csv "$tmp/order-sst.csv" -p "sm.sector_order=$order" "$cfg/validation/titanv-ref.ini" "$sample"
	[ "$st" = 0 ] && [ "$(rows "$tmp/order-src.csv")" = "$(rows "$tmp/order-sst.csv")" ]
	ok $? "titanv-ref.ini with sm.sector_order = $order: the native file's results are the source's"
done
patch "$sample" $((end + 16)) 2 "$tmp/count.sst"
bad count "damaged" "an END chunk that counts 2 kernels"
{ cat "$sample"; printf 'x'; } >"$tmp/trailing.sst"
bad trailing "bytes follow" "a byte after the END chunk"

# a wrong magic number or an empty file: with trace.format = native, not a
# native trace, or truncated; by default a file with one byte of the magic
# number damaged is still taken as native (its reader says what is wrong),
# and an empty file is read as an Accel-Sim kernelslist.g (an error all
# the same)
patch "$sample" 0 88 "$tmp/magic.sst"
bad magic "magic number" "a wrong magic number, trace.format = native" \
	-q -p trace.format=native "$titanv" "$tmp/magic.sst"
has "$err" "not a sectorsim native trace" "a wrong magic number: not a native trace"
bad magic "magic number" "a wrong magic number, the format by default"
: >"$tmp/empty.sst"
bad empty "truncated" "an empty file, trace.format = native" \
	-q -p trace.format=native "$titanv" "$tmp/empty.sst"
bad empty "" "an empty file, the format by default"

# damage in the second kernel: the first kernel runs (its warning comes),
# then the error
ppt=$tmp/ppt.sst
k1=16
k1=$((k1 + 32 + $(u32 "$ppt" $((k1 + 8)))))	# kernel 1's PYSET chunk
k1=$((k1 + 32 + $(u32 "$ppt" $((k1 + 8)))))	# kernel 1's KERNEL chunk
k2=$((k1 + 32 + $(u32 "$ppt" $((k1 + 8)))))	# kernel 2's BLOCKS chunk
k2=$((k2 + 32 + $(u32 "$ppt" $((k2 + 8)))))	# kernel 2's PYSET chunk
k2=$((k2 + 32 + $(u32 "$ppt" $((k2 + 8)))))	# kernel 2's KERNEL chunk
is "$(u32 "$ppt" $k1) $(u32 "$ppt" $k2)" "2 2" "ppt's file: two KERNEL chunks"
flip "$ppt" $((k2 + 12)) "$tmp/late.sst"
run -q --csv "$tmp/late.csv" "$titanv" "$tmp/late.sst"
is "$st" 2 "a bad checksum in kernel 2: exit 2"
errors=$(printf '%s\n' "$err" | grep -v '^sectorsim: warning: ')
one_line "$errors"
ok $? "a bad checksum in kernel 2: one line besides kernel 1's warning" || diag "$err"
has "$errors" "late.sst: chunk at byte $k2: checksum" "a bad checksum in kernel 2: the message"
[ -f "$tmp/late.csv.part" ] && [ ! -e "$tmp/late.csv" ] &&
	[ "$(rows "$tmp/late.csv.part" | sed -n 2p)" = "$(rows "$tmp/ppt-titanv-src.csv" | sed -n 2p)" ]
ok $? "a bad checksum in kernel 2: kernel 1's row kept in late.csv.part"

# A native trace is known by its headers (each holds its payload's CRC),
# not by all its bytes: one damaged in a payload only and then repaired
# is the same trace, and --resume finishes the run; one whose headers
# differ is another trace.
b2=$((k1 + 32 + $(u32 "$ppt" $((k1 + 8)))))	# kernel 2's BLOCKS chunk
flip "$ppt" $((b2 + 32 + 7)) "$tmp/pay.sst"
run -q --csv "$tmp/pay.csv" "$titanv" "$tmp/pay.sst"
is "$st" 2 "a damaged payload in kernel 2: exit 2"
cp "$ppt" "$tmp/pay.sst"
run -q --resume --csv "$tmp/pay.csv" "$titanv" "$tmp/pay.sst"
is "$st" 0 "the payload repaired: --resume exits 0" || diag "$err"
[ "$(rows "$tmp/pay.csv")" = "$(rows "$tmp/ppt-titanv-src.csv")" ]
ok $? "the payload repaired: --resume gives the whole run's rows"
cp "$ppt" "$tmp/late.sst"
run -q --resume --csv "$tmp/late.csv" "$titanv" "$tmp/late.sst"
is "$st" 2 "a header repaired (its CRC): --resume exits 2"
has "$err" "late.csv.part: made from another trace (kernel list digest " \
	"a header repaired: another trace"

# ---- convert's own errors --------------------------------------------------------

printf 'keep\n' >"$tmp/kept.sst"
cp "$tmp/kept.sst" "$tmp/kept.orig"

# cerr DESC ARGS...: sectorsim convert ARGS exits 2 with one line, nothing
# on standard output, and kept.sst as it was
cerr() {
	_desc=$1
	shift
	run convert "$@"
	is "$st" 2 "convert $_desc: exit 2"
	if one_line "$err"; then
		ok 0 "convert $_desc: one line"
	else
		ok 1 "convert $_desc: one line" || diag "$err"
	fi
	is "$out" "" "convert $_desc: nothing on standard output"
	cmp -s "$tmp/kept.sst" "$tmp/kept.orig" && [ ! -e "$tmp/kept.sst.part" ]
	ok $? "convert $_desc: an existing OUT is left as it was"
}

cerr "of a missing trace" "$tmp/missing" "$tmp/kept.sst"
has "$err" "$tmp/missing" "convert of a missing trace: the message names it"
cerr "of a damaged native file" "$tmp/crc.sst" "$tmp/kept.sst"
has "$err" "crc.sst: chunk at byte $blocks: checksum" "convert of a damaged native file: the message"
cerr "of a truncated native file" "$tmp/cut$kernel.sst" "$tmp/kept.sst"
has "$err" "truncated" "convert of a truncated native file: the message"
cerr "of a bad Accel-Sim trace" "$srcdir/data/trace/bad-kernelslist" "$tmp/kept.sst"
cerr "with no argument"
cerr "with one argument" "$sample"
has "$err" "1 argument; expected TRACE OUT" "convert with one argument: the message"
cerr "with three arguments" "$sample" "$tmp/kept.sst" "$tmp/x.sst"
cerr "--level 0" --level 0 "$sample" "$tmp/kept.sst"
has "$err" "--level 0; expected -7 to -1 or 1 to 19" "convert --level 0: the message"
cerr "--level 20" --level 20 "$sample" "$tmp/kept.sst"
cerr "--level -8" --level -8 "$sample" "$tmp/kept.sst"
cerr "--format bogus" --format bogus "$sample" "$tmp/kept.sst"
cerr "--format ppt of an Accel-Sim trace" --format ppt "$srcdir/data/trace/accelsim" "$tmp/kept.sst"
cerr "--bogus" --bogus "$sample" "$tmp/kept.sst"
run convert --level 0 "$sample" "$tmp/new.sst"
[ ! -e "$tmp/new.sst" ] && [ ! -e "$tmp/new.sst.part" ]
ok $? "convert --level 0: no OUT made"

# a conversion that succeeds replaces OUT
run convert "$sample" "$tmp/kept.sst"
is "$st" 0 "convert onto an existing file: exit 0"
cmp -s "$tmp/kept.sst" "$sample" && [ ! -e "$tmp/kept.sst.part" ]
ok $? "convert onto an existing file: replaced by the whole native file"

done_testing
