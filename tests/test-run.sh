#!/bin/sh
# Running the GPU pipeline from the command line: the positional TRACE,
# --json and --csv, and every class of malformed trace the reader refuses:
# each must exit 2 with its one-line message naming the file and the line.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

titanv=$top/configs/titanv.ini
ref=$top/configs/validation/titanv-ref.ini
sample=$top/traces/vectoradd-a100
bad=$srcdir/data/trace

tap_tmpdir test-run

# ---- the main job and TRACE -------------------------------------------------

run --quiet "$ref"
is "$st" 0 "titanv-ref.ini on the bundled sample: exit 0"
# the table demangles the name when built with libiberty; the files keep it
case $out in
*"kernel 1  vectorAdd(float const*, float const*, float*, int)"*|*"kernel 1  _Z9vectorAddPKfS0_Pfi"*)
	ok 0 "the table names the kernel (demangled, with libiberty)" ;;
*)
	ok 1 "the table names the kernel (demangled, with libiberty)" || diag "$out" ;;
esac
has "$out" "$(printf '  %-26s %20s' l2_hit_rate 0.3333)" "the table has the L2 hit rate, to 4 significant digits"
has "$out" "dram__sectors_read.sum" "the table has the Nsight names"
is "$err" "" "--quiet: nothing on stderr"
default=$out

run --quiet "$titanv"
is "$st" 0 "titanv.ini (hardware-faithful) on its bundled sample: exit 0"
has "$out" "  L1 128 KiB per SM, L2 4.5 MiB in all, 48 slices of 96 KiB" "each kernel says what its L1 and L2 hold, per slice too"
has "$out" "/configs/titanv.ini, 80 SMs" "the table starts with the configuration and its SMs"
has "$out" "all 196 blocks dispatched over 80 SMs" "every block runs"
has "$out" "l2_dirty_at_kernel_end                     6250" "the stores stay in the L2 as dirty data"
has "$out" "$(printf '%-57s %s' dram__sectors_write.sum 0)" "and are not the kernel's DRAM writes"

run --quiet "$ref" "$sample"
is "$out" "$default" "TRACE = the sample folder: the same table"
run --quiet "$ref" "$sample/kernelslist.g"
is "$out" "$default" "TRACE = a kernelslist.g: the same table"
run --quiet "$titanv" "$tmp/nothing-here"
is "$st" 2 "a TRACE that does not exist: exit 2"
has "$err" "nothing-here" "the message names it"
run --quiet "$titanv" "$sample" extra
is "$st" 2 "a third argument: exit 2"
has "$err" "unexpected argument 'extra'; expected CONFIG.ini [TRACE]" "the message says what is expected"

run --quiet --json "$tmp/r.json" --csv "$tmp/r.csv" "$top/configs/validation/a100-ref.ini"
is "$st" 0 "a100-ref.ini with --json and --csv: exit 0"
has "$(cat "$tmp/r.json")" '"l1_cache_size": 196608' "the JSON has the A100's L1"
has "$(cat "$tmp/r.json")" '"lts__t_sector_hit_rate.pct": 33.333333333333336' "the JSON has the Nsight names"
is "$(grep -v '^#' "$tmp/r.csv" | head -c 35)" "kernel_id,kernel_name,l1_cache_size" "the CSV's header follows its provenance"
is "$(grep -v '^#' "$tmp/r.csv" | sed -n 2p | cut -d, -f1-4)" "1,_Z9vectorAddPKfS0_Pfi,196608,1" "one CSV row per kernel"
is "$(ls "$tmp" | grep -c part)" 0 "no partial files left"

run --quiet --json "$tmp/no/such/dir/r.json" "$ref"
is "$st" 2 "--json into a folder that does not exist: exit 2"
has "$err" "r.json.part: cannot write the results" "the message names the file"

run --quiet --stats json "$ref"
is "$st" 0 "--stats json: exit 0"
has "$out" '"phase": "kernel 1"' "the raw statistics have a phase per kernel"
has "$out" '"l2.wb_flush": 6250' "and the counters of the kernel in it"
is "$(printf '%s\n' "$out" | head -n 1)" "{" "--stats json alone on standard output: it starts the JSON, no table before it"
is "$(printf '%s\n' "$out" | tail -n 1)" "}" "and ends it"
run --quiet --stats csv --stats-filter 'l2.*hit_rate' --stats-filter dram.reads "$ref"
is "$st" 0 "--stats-filter: exit 0"
is "$(printf '%s\n' "$out" | cut -d, -f2 | sort -u | tr '\n' ' ')" "dram.reads l2.hit_rate stat " \
	"--stats-filter: the statistics its patterns match, no other"

# ---- one SM's classification, worked out by hand --------------------------------
# tests/data/pipeline/sticky: one warp, lines LDL, ST.E (generic: takes the
# flags before it, a local load), STG, LD.E (a global store, sticky), ATOMG
# and RED (counted, dropped), LDG (hits the sector LDL brought in).  L1:
# loads 0x1000 miss, 0x2000 miss, 0x2020 sector miss, 0x1000 hit; stores
# 0x3000 miss then hit.  L2 (fix_l2): 3 read misses, 2 writes; the flush
# writes 0x3000 back.

run --quiet --json "$tmp/hand.json" "$ref" "$srcdir/data/pipeline/sticky"
is "$st" 0 "hand-worked kernel: exit 0"
hand=$(cat "$tmp/hand.json")
while IFS='|' read -r metric value; do
	[ -n "$metric" ] || continue
	has "$hand" "\"$metric\": $value" "hand-worked kernel: $metric = $value"
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

# The same kernel under the hardware-faithful titanv.ini.  No warp ids and
# no generic windows in this format: the block is one stream, generic LD/ST
# are global.  L1 (write-through, write-validate, 4-byte masks): LDL 0x1000
# misses; ST.E 0x2000 misses, 0x2020 sector-misses (same line), both written
# through; STG 0x3000 misses; LD.E 0x3000 sector-misses (4 bytes written:
# not readable) and fetches; ATOMG 0x4000 and RED 0x5000 bypass it (lookups
# that miss); LDG 0x1000 hits.  L2 (write-back, write-validate): reads
# 0x1000 (miss) and 0x3000 (sector miss: written, not readable), 3 writes
# that allocate without a fetch, the atomic and the reduction miss and
# fetch: 4 DRAM reads, no DRAM write, 5 dirty sectors left.

run --quiet --json "$tmp/hand.json" "$titanv" "$srcdir/data/pipeline/sticky"
is "$st" 0 "hand-worked kernel, hw: exit 0"
hand=$(cat "$tmp/hand.json")
table=$out
while IFS='|' read -r metric value; do
	[ -n "$metric" ] || continue
	has "$hand" "\"$metric\": $value" "hand-worked kernel, hw: $metric = $value"
done <<'EOF'
l1_hit_rate|0.125
l1_hit_rate_ld|0.33333333333333331
l1_hit_rate_st|0
l1_hit_rate_g|0.14285714285714285
l1_hit_rate_ldg|0.5
l2_hit_rate|0
gmem_ld_reqs|2
gmem_st_reqs|2
gmem_ld_sectors|2
gmem_st_sectors|3
lmem_ld_reqs|1
lmem_ld_sectors|1
umem_ld_sectors|3
umem_st_sectors|3
l2_read_sectors|2
l2_write_sectors|3
l2_atom_sectors|1
l2_red_sectors|1
l2_ld_trans|4
l2_st_trans|5
dram_ld_trans|4
dram_st_trans|0
l2_dirty_at_kernel_end|5
gmem_ld_sectors_hit|1
gmem_st_sectors_hit|0
atom_reqs|1
red_reqs|1
atom_sectors|1
red_sectors|1
atom_tot_reqs|1
red_tot_reqs|1
atom_red_tot_trans|2
EOF
# the table rounds, for people; the files keep every digit
has "$table" "$(printf '  %-26s %20s' l1_hit_rate_ld 0.3333)" "the table gives a rate to 4 significant digits"
has "$table" "l1tex__t_sector_hit_rate.pct" "and its Nsight percentage beside it"
has "$table" "$(printf '  %-26s %20s' gmem_ld_reqs 2)" "and counts whole"

# Blocks whose instructions are all dropped still count them, under dynamic
# dispatch too: block 0 has only an STS and an LDS (an empty block: done as
# it is dispatched), block 2 a generic LD.E inside the shared window.
run --quiet --stats json "$titanv" "$srcdir/data/pipeline/empty-blocks"
is "$st" 0 "dropped-only blocks, hw: exit 0"
has "$out" '"sm.shared_insts": 3' "the shared-memory instructions of every block are counted"
has "$out" '"sm.blocks": 3' "every block reached an SM"
has "$out" '"sm.gmem_ld_reqs": 1' "and the one global load is issued"

# Edges of the hw opcode table, which says where an access goes: with only
# the local window known, a generic LD.E is global (both bases or none);
# .STRONG.GPU bypasses the L1 on LDG only, not on a generic load; LDC is
# ignored, address or not.
run --quiet --stats json "$titanv" "$srcdir/data/pipeline/classify-edges"
is "$st" 0 "opcode-table edges, hw: exit 0"
has "$out" '"sm.gmem_ld_reqs": 2' "a generic load with one window known is global"
has "$out" '"sm.lmem_ld_reqs": 0' "not local"
has "$out" '"sm.bypassed_loads": 1' "only LDG.E.STRONG.GPU bypasses the L1"
has "$out" '"sm.dropped_insts": 0' "an LDC with an address is not an unknown instruction"

# A malformed line past the last block a kernel needs: the reader reaches
# it on the way to the next kernel, and the run still fails with it (no
# results file is kept).
run --quiet --json "$tmp/late.json" "$titanv" "$bad/late-stray"
is "$st" 2 "a malformed line past the blocks: exit 2"
is "$err" "kernel-1.traceg:25: line outside a thread block; expected #BEGIN_TB" "the message names the file and the line"
is "$(ls "$tmp" | grep -c late.json)" 0 "no results file"

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

# ---- interrupted runs and --resume ----------------------------------------------
# A trace of two kernels whose second kernel file is a named pipe nobody
# writes: the run finishes kernel 1, then waits on the pipe, where it is
# killed (or interrupted).  --resume on the same trace (the same folder:
# the results record its path) with a real second file must then give byte
# for byte the files of an uninterrupted run.

mkdir -p "$tmp/reg" "$tmp/sig"
gzip -dc "$sample/kernel-1.traceg.gz" >"$tmp/reg/kernel-1.traceg"
cp "$tmp/reg/kernel-1.traceg" "$tmp/reg/kernel-2.traceg"
printf 'kernel-1.traceg\nkernel-2.traceg\n' >"$tmp/reg/kernelslist.g"
cp "$tmp/reg"/* "$tmp/sig/"
"$SECTORSIM" --quiet --json "$tmp/full.json" --csv "$tmp/full.csv" "$titanv" "$tmp/sig" >/dev/null
ok $? "two kernels, uninterrupted"

# wait_part FILE: until FILE holds kernel 1 (at most 10 s)
wait_part()
{
	_i=0
	while [ $_i -lt 100 ]; do
		grep -q '"kernel_id": 1' "$1" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

for sig in KILL INT; do
	rm -f "$tmp"/r.* "$tmp/sig/kernel-2.traceg"
	mkfifo "$tmp/sig/kernel-2.traceg"
	"$SECTORSIM" --quiet --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/sig" >/dev/null 2>"$tmp/sig.err" &
	pid=$!
	wait_part "$tmp/r.json.part"
	ok $? "SIG$sig: kernel 1 is in r.json.part before the signal"
	sleep 0.2
	kill -s "$sig" "$pid"
	wait "$pid"
	st=$?
	if [ "$sig" = INT ]; then
		is "$st" 130 "SIGINT: exit 130"
		has "$(cat "$tmp/sig.err")" "interrupted after 1 kernels; the results so far are in $tmp/r.json.part and $tmp/r.csv.part; --resume finishes them" "SIGINT: the message says where the results are"
	fi
	[ ! -e "$tmp/r.json" ] && [ -e "$tmp/r.json.part" ] && [ -e "$tmp/r.csv.part" ]
	ok $? "SIG$sig: only the partial files are there"
	rm "$tmp/sig/kernel-2.traceg"
	cp "$tmp/reg/kernel-2.traceg" "$tmp/sig/"
	run --resume --json "$tmp/r.json" --csv "$tmp/r.csv" "$titanv" "$tmp/sig"
	is "$st" 0 "SIG$sig: --resume: exit 0"
	has "$err" "resuming: 1 kernels kept from the interrupted run" "SIG$sig: --resume keeps kernel 1"
	is "$(printf '%s\n' "$out" | grep -c '^kernel ')" 1 "SIG$sig: --resume runs only kernel 2"
	cmp -s "$tmp/r.json" "$tmp/full.json" && cmp -s "$tmp/r.csv" "$tmp/full.csv"
	ok $? "SIG$sig: the resumed files are those of the uninterrupted run, byte for byte"
	[ ! -e "$tmp/r.json.part" ] && [ ! -e "$tmp/r.csv.part" ]
	ok $? "SIG$sig: no partial file left"
done

# A SIGINT another process sends to one thread alone (tgkill): passed on
# like any Ctrl-C (only this process's own copies are not).  It goes to a
# thread that is not the one blocked opening the FIFO (wchan
# wait_for_partner), so that only passing it on can stop the run: the
# main thread, or else one of the pool's, asleep waiting for work
# (futex_do_wait; not a sanitizer's own thread, which blocks signals); a
# run still going 5 s later has hung.
if [ "$(uname -m)" = x86_64 ] && command -v python3 >/dev/null 2>&1; then
	for try in 1 2; do
		rm -f "$tmp"/r.* "$tmp/sig/kernel-2.traceg"
		mkfifo "$tmp/sig/kernel-2.traceg"
		"$SECTORSIM" --quiet --threads 2 --json "$tmp/r.json" "$titanv" "$tmp/sig" >/dev/null 2>"$tmp/sig.err" &
		pid=$!
		wait_part "$tmp/r.json.part"
		ok $? "tgkill (try $try): kernel 1 is in r.json.part before the signal"
		# the thread blocked on the FIFO, and another one (at most 5 s)
		blocked='' other=''
		_i=0
		while [ -z "$blocked" ] && [ $_i -lt 50 ]; do
			other=''
			for task in /proc/"$pid"/task/*; do
				case $(cat "$task/wchan" 2>/dev/null) in
				wait_for_partner) blocked=${task##*/} ;;
				futex_do_wait) [ -n "$other" ] || other=${task##*/} ;;
				esac
			done
			[ -n "$blocked" ] && [ "$blocked" != "$pid" ] && other=$pid
			[ -n "$blocked" ] || sleep 0.1
			_i=$((_i + 1))
		done
		if [ -z "$blocked" ] || [ -z "$other" ]; then
			kill -9 "$pid"
			wait "$pid"
			skip "tgkill (try $try): no thread seen blocked on the FIFO (/proc/PID/task/TID/wchan)" 2
		else
			# 234: tgkill on x86-64
			python3 -c "import ctypes, sys; sys.exit(ctypes.CDLL(None).syscall(234, $pid, $other, 2) != 0)"
			ok $? "tgkill (try $try): SIGINT sent to thread $other, not to $blocked, which waits on the FIFO"
			_i=0
			while kill -0 "$pid" 2>/dev/null && [ $_i -lt 50 ]; do
				sleep 0.1
				_i=$((_i + 1))
			done
			if kill -0 "$pid" 2>/dev/null; then
				kill -9 "$pid"
				wait "$pid"
				ok 1 "tgkill (try $try): the run stops" || diag "still running 5 s after the signal"
			else
				wait "$pid"
				is "$?" 130 "tgkill (try $try): exit 130"
			fi
		fi
		rm "$tmp/sig/kernel-2.traceg"
		cp "$tmp/reg/kernel-2.traceg" "$tmp/sig/"
	done
else
	skip "tgkill by syscall number: x86-64 and python3 only" 6
fi

# the summary line on stderr counts the kernels, in the singular for one
run "$titanv" "$tmp/reg"
has "$err" "sectorsim: 2 kernels, " "two kernels: the summary line counts them"
run "$titanv" "$top/traces/vectoradd-a100"
has "$err" "sectorsim: 1 kernel, " "one kernel: the summary line says so in the singular"
run --quiet "$titanv" "$tmp/reg"
has "$out" "app: mean over the 2 kernels simulated" "two kernels: the app summary closes the table"
has "$out" "$(printf '  %-26s %20s' gmem_ld_reqs 3126)" "the summary's mean of two equal kernels"
has "$(cat "$tmp/full.json")" '"lts__t_sectors_srcunit_tex_op_read.sum": 12500' "the JSON has the srcunit_tex names too"

# ---- the progress line: on a terminal only -----------------------------------------
if command -v script >/dev/null 2>&1; then
	script -qc "'$SECTORSIM' '$titanv' '$tmp/reg'" /dev/null >"$tmp/tty.out" 2>&1
	has "$(cat "$tmp/tty.out")" "sectorsim: kernel 1 of 2 (_Z9vectorAddPKfS0_Pfi)" "a terminal gets the progress line"
	# inside a kernel: the bytes of its trace read (all 196 blocks fill
	# the SMs at once, so its whole file: 1.1 MB for kernel 1, 2.2 for
	# kernel 2), every millisecond here.  A kernel lasts a few
	# milliseconds, and on a loaded machine the line may miss one (it
	# missed kernel 1 once in a parallel make check): either kernel's
	# will do, in one of three runs.
	inside=1
	for try in 1 2 3; do
		script -qc "'$SECTORSIM' -p report.progress_ms=1 '$titanv' '$tmp/reg'" /dev/null >"$tmp/tty1.out" 2>&1
		case $(cat "$tmp/tty1.out") in
		*"sectorsim: kernel 1 of 2 (_Z9vectorAddPKfS0_Pfi) running, 1.1 of 2.2 MB of trace read, "* | \
		*"sectorsim: kernel 2 of 2 (_Z9vectorAddPKfS0_Pfi) running, 2.2 of 2.2 MB of trace read, "*)
			inside=0
			break ;;
		esac
	done
	ok $inside "a terminal gets the progress line inside a kernel" ||
		diag "no 'kernel K of 2 (...) running, <its bytes> of 2.2 MB of trace read' in three runs; the last:" \
		     "$(cat "$tmp/tty1.out")"
	# a terminal changes nothing of the run: a stalled timed run still
	# ends with its error (the line comes from a thread of its own, not
	# from an event that would keep the run going)
	timeout 120 script -qec "'$SECTORSIM' -p report.progress_ms=1 -p dram.timing=false '$top/configs/timing/titanv.ini' '$sample'" \
		/dev/null >"$tmp/tty2.out" 2>&1
	is "$?" 2 "on a terminal, a run that stalls still stops with exit 2"
	has "$(cat "$tmp/tty2.out")" "kernel 1 never finished" "on a terminal, the stalled run says so"
	# a run stopped by max_ticks in mid-kernel: the progress thread ends
	# with the run (xstop), so the error is the last thing written
	timeout 120 script -qec "'$SECTORSIM' -p report.progress_ms=1 -p simulation.max_ticks=3000 '$titanv' '$tmp/reg' > /dev/null" \
		/dev/null >"$tmp/tty3.out" 2>&1
	is "$?" 1 "on a terminal, a run stopped by max_ticks: exit 1"
	last=$(tr '\r' '\n' < "$tmp/tty3.out" | sed 's/\x1b\[K//g' | grep -v '^ *$' | tail -n 1)
	case $last in
	"sectorsim: command line -p simulation.max_ticks=3000: max_ticks = 3000 stopped the run"*)
		ok 0 "on a terminal, the limit's error is the last line: no progress after it" ;;
	*) ok 1 "on a terminal, the limit's error is the last line: no progress after it" || diag "last line: $last" ;;
	esac
	run "$titanv" "$tmp/reg"
	case $err in
	*"kernel 1 of 2"*) ok 1 "a pipe gets no progress line" ;;
	*) ok 0 "a pipe gets no progress line" ;;
	esac
else
	skip "script(1) is not installed" 7
fi

# ---- a trace of another GPU: compute capability ----------------------------------
# The sample was traced on an A100 (binary version 80): titanv.ini (7.0)
# warns once per version, a100.ini not at all; an 8.0 kernel runs on an
# 8.6 GPU, not the other way round.
cc_warning="was compiled for compute capability 8.0, which the configuration's GPU (7.0, sched.compute_capability) cannot run"
run --quiet "$titanv" "$tmp/reg"
is "$st" 0 "an A100 trace on titanv.ini: exit 0"
is "$(printf '%s\n' "$err" | grep -c 'compiled for compute capability')" 1 \
	"an A100 trace of two kernels on titanv.ini: one warning"
has "$err" "sectorsim: warning: kernel-1.traceg: kernel 1 (_Z9vectorAddPKfS0_Pfi) $cc_warning" \
	"the warning names the file, the kernel and both versions"
run --quiet --strict "$titanv" "$tmp/reg"
is "$st" 2 "an A100 trace on titanv.ini, --strict: exit 2"
run --quiet "$top/configs/a100.ini" "$tmp/reg"
is "$st:$err" "0:" "an A100 trace on a100.ini: no warning"
run --quiet -p sched.compute_capability=86 "$top/configs/a100.ini" "$tmp/reg"
is "$st:$err" "0:" "an 8.0 kernel on an 8.6 GPU: no warning"
mkdir -p "$tmp/cc86" "$tmp/ccbad"
sed 's/^-binary version = 80$/-binary version = 86/' "$tmp/reg/kernel-1.traceg" > "$tmp/cc86/kernel-1.traceg"
sed 's/^-binary version = 80$/-binary version = eighty/' "$tmp/reg/kernel-1.traceg" > "$tmp/ccbad/kernel-1.traceg"
printf 'kernel-1.traceg\n' | tee "$tmp/cc86/kernelslist.g" > "$tmp/ccbad/kernelslist.g"
run --quiet "$top/configs/a100.ini" "$tmp/cc86"
has "$err" "was compiled for compute capability 8.6, which the configuration's GPU (8.0, sched.compute_capability) cannot run" \
	"an 8.6 kernel on an 8.0 GPU: a warning"
run --quiet -p sched.compute_capability=0 "$titanv" "$tmp/reg"
is "$st:$err" "0:" "compute_capability = 0: no check"
run --quiet "$titanv" "$tmp/ccbad"
is "$st" 2 "'-binary version = eighty': exit 2"
has "$err" "kernel-1.traceg:7: '-binary version = eighty' is malformed; expected a compute capability such as 70 or 90" \
	"a malformed binary version: the file, the line and what was expected"
"$SECTORSIM" convert "$tmp/reg" "$tmp/reg.sst" 2>/dev/null
run --quiet "$titanv" "$tmp/reg.sst"
has "$err" "reg.sst: kernel 1 (_Z9vectorAddPKfS0_Pfi) $cc_warning" \
	"the native format keeps the binary version"

h100=$shared/golden/real/atax-h100-v5
if [ -d "$h100" ]; then
	run --quiet "$top/configs/h100.ini" "$h100"
	is "$st:$err" "0:" "an H100 trace on h100.ini: no warning"
	has "$out" "L1 256 KiB per SM, L2 50 MiB in all, 80 slices of 640 KiB" "h100.ini: its capacities"
	run --quiet "$titanv" "$h100"
	has "$err" "was compiled for compute capability 9.0, which the configuration's GPU (7.0, sched.compute_capability) cannot run" \
		"an H100 trace on titanv.ini: the warning"
else
	skip "../shared not found" 3
fi

# ---- a report wired to components that are not there ----------------------------
run --quiet -p report.sm=smx "$ref"
is "$st" 2 "kernel_report naming no SM array: exit 2"
has "$err" "titanv-ref.ini:65: report (type kernel_report): init: sm = smx: no warp_interleaver array of that name" "the message names the section and the parameter"
run --quiet -p report.l2_model=sdcm "$ref"
is "$st" 2 "kernel_report told the L2 is an SDCM when it is not: exit 2"
has "$err" "'l2' has no counter ldl_accesses or hit_tot; expected an sdcm_cache" "the message says what was expected"

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
bad-header|kernel-1.traceg:10: the header ending here lacks '-grid dim = (x,y,z)'
bad-header-line|kernel-1.traceg:12: unexpected line before #BEGIN_TB
bad-structure|kernel-1.traceg:12: thread block (2,0,0) is outside the grid (2,1,1)
bad-decode|kernel-1.traceg:15: cannot decode addresses: unknown mode 7
bad-deltas|kernel-1.traceg:15: mode 2 with 5 deltas for 3 active lanes
bad-trailing|kernel-1.traceg:15: expected 1 field after the operands (per '#traces format'), got 0
bad-compressed|kernel-1.traceg.xz: xz data is corrupt (at byte 320)
bad-trc|bad-trc_00.trc:3: direction 2; expected 0 (a load) or 1 (a store)
EOF

run --quiet -p trace.loads_only=true "$titanv" "$bad/trc-stores-only"
is "$st" 2 "a trc trace whose first kernel has no load, read as loads only: exit 2"
has "$err" "no kernel to simulate: the first kernel has no load, and trace.loads_only ends the trace there" "the message says why no kernel runs"

run --quiet -p trace.loads_only=true "$titanv" "$srcdir/data/trace/ppt"
is "$st" 2 "loads_only on a trace of another format: exit 2"
has "$err" "trace: loads_only = true: ppt traces cannot be read as loads only; only trc traces (Nugteren et al.'s) can" "the message names the parameter and the format"

run --quiet "$titanv" "$bad/bad-appconfig-missing"
is "$st" 2 "a folder with no trace: exit 2"
has "$err" "neither app_config.py, kernelslist.g nor NAME_00.trc found; expected a trace directory" "the message says what a trace folder holds"

# ---- the Nugteren-compatible configuration's limits --------------------------

nug=$top/configs/validation/fermi-nugteren.ini
mkdir -p "$tmp/nug-mixed" "$tmp/nug-wide12" "$tmp/nug-empty"
{
	echo "blocksize: 32 1 1"
	for t in $(seq 0 31); do
		if [ "$t" -lt 16 ]; then echo "$t 0 $((4096 + 4 * t)) 4"; else echo "$t 0 $((8192 + 8 * t)) 8"; fi
	done
} > "$tmp/nug-mixed/nug-mixed_00.trc"
{
	echo "blocksize: 32 1 1"
	for t in $(seq 0 31); do echo "$t 0 $((4096 + 12 * t)) 12"; done
} > "$tmp/nug-wide12/nug-wide12_00.trc"
{
	echo "blocksize: 32 1 1"
	for t in $(seq 0 31) $(seq 64 95); do echo "$t 0 $((4096 + 4 * t)) 4"; done
} > "$tmp/nug-empty/nug-empty_00.trc"

run --quiet "$nug" "$tmp/nug-mixed"
is "$st" 2 "fermi-nugteren.ini, loads of two widths at one index: exit 2"
has "$err" "kernel 1 block 0 warp 0: the threads' loads at one index differ in width; issue = nugteren takes one width per index" "the message says what the issue takes"
# lanes 30 and 31 of a 12-byte load go in the visit after lane 0's last
# load, as the model's: 3 lines, each a miss (its numbers)
run --quiet --csv - "$nug" "$tmp/nug-wide12"
is "$st" 0 "fermi-nugteren.ini, 12-byte loads: exit 0"
has "$out" "1,nug-wide12_00,3,0,3,3,0,0,0,0,100," "the model's accesses, hits and misses"
run --quiet "$nug" "$tmp/nug-empty"
is "$st" 2 "fermi-nugteren.ini, a block without loads: exit 2"
has "$err" "kernel 1: a block without loads; issue = nugteren cannot give its warps the model's visits" "the message names the kernel"
run --quiet -p trace.loads_only=false "$nug" "$srcdir/data/nugteren/mixed"
is "$st" 2 "fermi-nugteren.ini with the stores read: exit 2"
has "$err" "issue = nugteren takes a loads-only trace with lanes (the trace source's loads_only = true)" "the message names the parameter"
run --quiet -p report.cases=l1,l1_full "$nug" "$srcdir/data/nugteren/first"
is "$st" 2 "mode = nugteren with two cases: exit 2"
has "$err" "cases = 'l1,l1_full': expected the 4 sdcm_caches" "the message says what cases lists"
run --quiet -p report.cases=l1,l1_full,l1_nolat,sm "$nug" "$srcdir/data/nugteren/first"
is "$st" 2 "mode = nugteren with a case that is no timed sdcm_cache: exit 2"
has "$err" "cases: 'sm' has no counter rd_cold; expected an sdcm_cache with timing = true" "the message names the component"


# ---- miss-ratio curves (--mrc) ---------------------------------------------------

run --quiet --mrc "$tmp/mrc.csv" "$titanv"
is "$st" 2 "--mrc with no cache keeping a curve: exit 2"
has "$err" "keeps a miss-ratio curve; expected mrc = true on a functional sector_cache or l2_slice_set" "the message says what to set"
[ ! -e "$tmp/mrc.csv" ] && [ ! -e "$tmp/mrc.csv.part" ]
ok $? "and nothing is written"
run --quiet --mrc "$tmp/mrc.csv" -p l2.mrc=true -p l1.mrc=true "$titanv"
is "$st" 0 "--mrc with the L1s' and the L2's curves: exit 0"
is "$(head -n 1 "$tmp/mrc.csv")" "cache,kernel,method,rate,accesses,capacity_lines,capacity_bytes,miss_ratio" "the CSV's columns"
has "$(cat "$tmp/mrc.csv")" "l2,1,exact,1,18750,1,128,0.25008" "the L2's: each line read 4 times by sector, written once: 1 in 4 cold"
is "$(grep -c '^l1\[' "$tmp/mrc.csv")" 80 "a curve per L1"
"$SECTORSIM" --quiet --threads 1 --mrc "$tmp/mrc1.csv" -p l1.mrc=true -p l2.mrc=true "$titanv" > /dev/null
"$SECTORSIM" --quiet --threads 3 --mrc "$tmp/mrc3.csv" -p l1.mrc=true -p l2.mrc=true "$titanv" > /dev/null
cmp -s "$tmp/mrc1.csv" "$tmp/mrc3.csv"
ok $? "--mrc: the same file on 1 thread and on 3"
run --quiet --mrc - -p l2.mrc=true -p l2.mrc_sampling=0.5 "$titanv"
has "$out" "l2,1,shards,0.5" "sampled: the method and the rate"
run --quiet --mrc - -p l2.mrc=true -p l2.mrc_sampling=0 "$titanv"
is "$st" 2 "mrc_sampling = 0: exit 2"
has "$err" "mrc_sampling = 0: expected a rate above 0 and at most 1" "the message names the parameter"
run --quiet --mrc - -p l2.mrc=true "$top/configs/timing/titanv.ini"
is "$st" 2 "mrc on a timed cache: exit 2"
has "$err" "mrc = true with timing = true: the curve is a functional cache's" "the message says why"
run --quiet --mrc - --json - -p l2.mrc=true "$titanv"
is "$st" 2 "--mrc - and --json -: exit 2"

done_testing
