#!/bin/sh
# --threads: every output is the same for every thread count.  Each trace
# (the bundled sample always; every golden trace with ../shared) runs under
# every stock and validation configuration with --threads 1, 2, 3 and 8;
# the table, --json, --csv and the raw statistics (--stats json -o) must
# be byte-identical to --threads 1's, and so must --rd-profile, with
# which the SDCM baseline runs a second time (its instances, appending to
# the profile in one clock's order, as one partition).  Every other
# configuration must really run as several partitions (the summary line
# says how many), or this test would prove nothing: the reference ones
# freely, the hardware-faithful ones in time order.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, SECTORSIM_SHARED.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-threads

IFS=$tap_nl
# shellcheck disable=SC2046 # one trace per line
set -- "sample=$top/traces/vectoradd-a100" $(golden_traces)
unset IFS
[ $# -gt 1 ] || diag "../shared not found: the bundled sample only"

configs="validation/titanv-ref.ini validation/a100-ref.ini
validation/titanv-sdcm-ref.ini validation/titanv-sdcm-ref.ini+profile
titanv.ini a100.ini titanv-slices.ini titanv-no-l1.ini"

# outputs N NAME CONFIG TRACE: every output of one run into $tmp/NAME-N.*
outputs()
{
	o=$tmp/$2-$1
	prof=
	case $3 in
	*+profile) prof="--rd-profile $o.prof" ;;
	esac
	# shellcheck disable=SC2086
	"$SECTORSIM" --threads "$1" --json "$o.json" --csv "$o.csv" \
		--stats json -o "$o.stats" $prof "$cfg/${3%+profile}" "$4" \
		> "$o.table" 2> "$o.err"
	echo $? > "$o.status"
}

for app in "$@"; do
	name=${app%%=*}
	trace=${app#*=}
	for c in $configs; do
		key=$name-$(echo "$c" | tr / -)
		outputs 1 "$key" "$c" "$trace"
		is "$(cat "$tmp/$key-1.status")" 0 "$key: --threads 1 exits 0" ||
			diag "$(cat "$tmp/$key-1.err")"
		for n in 2 3 8; do
			outputs "$n" "$key" "$c" "$trace"
			same=0
			for f in status table json csv stats; do
				cmp -s "$tmp/$key-1.$f" "$tmp/$key-$n.$f" ||
					{ same=1; diag "$key: .$f differs with --threads $n"; }
			done
			case $c in
			*+profile) cmp -s "$tmp/$key-1.prof" "$tmp/$key-$n.prof" ||
					{ same=1; diag "$key: the profile differs with --threads $n"; } ;;
			esac
			ok $same "$key: --threads $n gives --threads 1's outputs"
		done
		# the summary's "N partitions on M threads"
		parts=$(sed -n 's/.* in [0-9.]* s, \([0-9]*\) partitions* on.*/\1/p' "$tmp/$key-8.err")
		case $c in
		*+profile)
			is "${parts:-?}" 1 "$key: runs as one partition" ;;
		*)
			[ "${parts:-1}" -gt 1 ]
			ok $? "$key: runs as several partitions (${parts:-?})" ;;
		esac
	done
done

# A failure in the SMs' partitions (every L1 refuses the kernel's size):
# the same exit status and the same error, naming one of the L1s (which
# one fails first is the scheduling's, so not always l1[0] as on one
# thread), and nothing written for the kernel it stopped.
sed -e 's/^assoc  *= 4$/sets = 4096/' -e 's/^size  *= 128KiB$/size = 512KiB/' \
	"$cfg/validation/titanv-ref.ini" > "$tmp/l1-fails.ini"
for n in 1 3 8; do
	run --threads "$n" --json "$tmp/fail-$n.json" "$tmp/l1-fails.ini" \
		"$top/traces/vectoradd-a100"
	is "$st" 2 "an L1 that cannot take the kernel's size, --threads $n: exit 2"
	case $err in
	"l1["[0-9]*"]: the kernel's L1 of 131072 bytes: 131072 bytes in 4096 sets of 128-byte lines make 0 ways; expected 1 to 1024")
		ok 0 "--threads $n: the L1's one-line error" ;;
	*) ok 1 "--threads $n: the L1's one-line error" || diag "$err" ;;
	esac
	[ ! -e "$tmp/fail-$n.json" ]
	ok $? "--threads $n: no results file for a run that stopped in its first kernel"
done

# The same in time order (titanv.ini, every L1 refusing the kernel's
# size): failures are ranked by the time of the failing event and the run
# goes on below it, so the error is the one one thread meets, l1[0]'s,
# for every thread count (each run three times: a race would show).  The
# sample is an A100 trace: its warning on a TITAN V is turned off.
for n in 1 2 3 8; do
	for k in 1 2 3; do
		run --threads "$n" -p l1.sets=4096 -p sched.compute_capability=0 \
			"$cfg/titanv.ini" "$top/traces/vectoradd-a100"
		is "$st" 2 "titanv.ini, every L1 refusing the kernel's size, --threads $n (run $k): exit 2"
		is "$err" "l1[0]: the kernel's L1 of 131072 bytes: 131072 bytes in 4096 sets of 128-byte lines make 0 ways; expected 1 to 1024" \
			"titanv.ini, every L1 refusing the kernel's size, --threads $n (run $k): l1[0]'s error, as on one thread"
	done
done

# not told: one thread per online core; --threads 0 one per core; a bad
# count is refused
"$SECTORSIM" "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100" \
	> "$tmp/default.table" 2> "$tmp/default.err"
is "$?" 0 "no --threads: exit 0"
cmp -s "$tmp/default.table" "$tmp/sample-validation-titanv-ref.ini-1.table"
ok $? "no --threads: --threads 1's table"
# (nproc would heed OMP_NUM_THREADS; the program does not)
cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
parts=$(sed -n 's/.*, \([0-9]*\) partitions* on \([0-9]*\) threads*$/\1/p' "$tmp/default.err")
threads=$(sed -n 's/.*, \([0-9]*\) partitions* on \([0-9]*\) threads*$/\2/p' "$tmp/default.err")
[ -n "$parts" ] && [ "$threads" -eq "$(( cores < parts ? cores : parts ))" ] &&
	{ [ "$cores" -eq 1 ] || [ "$parts" -gt 1 ]; }
ok $? "no --threads: a thread per online core ($cores), or per partition if fewer" ||
	diag "$(cat "$tmp/default.err")"
run --threads 0 "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100"
is "$st" 0 "--threads 0: exit 0"
is "$out" "$(cat "$tmp/sample-validation-titanv-ref.ini-1.table")" \
	"--threads 0: --threads 1's table"
run --threads -2 "$cfg/validation/titanv-ref.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "--threads -2: exit 2"
is "$err" "sectorsim: --threads -2: expected a number of threads, 1 or more (0: one per online core)" \
	"--threads -2: one line saying what is expected"

# thread_group: the stock L2 and DRAM are one; a group moves the reference
# configuration's L2 apart from the scheduler, with the same outputs; an
# empty name is refused.
run --dump-config "$cfg/titanv.ini"
case $out in
*"[component l2]"*"thread_group = l2"*"[component dram]"*"thread_group = l2"*) ok 0 "--dump-config shows the thread groups" ;;
*) ok 1 "--dump-config shows the thread groups" ;;
esac
printf '[simulation]\ninclude = %s\n[component l2]\nthread_group = mine\n' \
	"$cfg/validation/titanv-ref.ini" > "$tmp/group.ini"
run --threads 2 "$tmp/group.ini" "$top/traces/vectoradd-a100"
is "$st" 0 "a thread_group of the L2: exit 0"
# (the header names another configuration file)
is "$(printf '%s\n' "$out" | sed 1d)" "$(sed 1d "$tmp/sample-validation-titanv-ref.ini-1.table")" \
	"a thread_group of the L2: --threads 1's table"
case $err in
*", 4 partitions on 2 threads"*) ok 0 "a thread_group of the L2: its own partition" ;;
*) ok 1 "a thread_group of the L2: its own partition" || diag "$err" ;;
esac
# the busiest partition, named as the configuration names its components
# (which one it is depends on the threads' timing), within the run's time
busiest=$(printf '%s\n' "$err" | sed -n 's/^sectorsim: the busiest partition (\(.*\)) ran \([0-9.]*\) s of the threads'"'"' \([0-9.]*\) s$/\1|\2|\3/p')
case ${busiest%%|*} in
"trace, sched, dram, report" | l2 | "sm[0..39], l1[0..39]" | "sm[40..79], l1[40..79]")
	awk -v b="$busiest" 'BEGIN { split(b, f, "|"); exit !(f[2] <= f[3]) }'
	ok $? "a thread_group of the L2: the busiest partition ($busiest)" ;;
*) ok 1 "a thread_group of the L2: the busiest partition" || diag "$err" ;;
esac
run --threads 1 "$tmp/group.ini" "$top/traces/vectoradd-a100"
case $err in
*"busiest partition"*) ok 1 "one thread: no busiest partition" || diag "$err" ;;
*) ok 0 "one thread: no busiest partition" ;;
esac
printf '[simulation]\ninclude = %s\n[component l2]\nthread_group =\n' \
	"$cfg/validation/titanv-ref.ini" > "$tmp/group0.ini"
run "$tmp/group0.ini" "$top/traces/vectoradd-a100"
is "$st" 2 "an empty thread_group: exit 2"
is "$err" "$tmp/group0.ini:4: [component l2] thread_group is empty; expected a name its components share with those of other sections" \
	"an empty thread_group: one line naming the key"

# The paper tracer's format reads a kernel's blocks on every thread of the
# run at once (a file each): the same outputs, and for damaged blocks the
# error a single reader meets first, whichever thread read which block.
# Two kernels of 96 blocks, 4 warp instructions each, over opcodes the
# loaders intern on their own; blocks 30 to 37 of the second kernel have
# a bad address: block 30 on the last of 20000 lines, the others on their
# first, so that a loader of a later block meets its error first.
mkdir -p "$tmp/ppt/memory_traces"
{
	for k in 1 2; do
		printf 'kernel_%d = {\n"kernel_name": "k%d", "num_registers": 32,\n' "$k" "$k"
		printf '"shared_mem_bytes": 0, "grid_size": 96, "block_size": 64,\n'
		printf '"cuda_stream_id": 0\n}\n'
	done
	printf 'app_kernels_id = [1, 2]\n'
} > "$tmp/ppt/app_config.py"
b=0
while [ "$b" -lt 96 ]; do
	for k in 1 2; do
		awk -v k="$k" -v b="$b" 'BEGIN {
			split("LDG.E LDG.E.64 STG.E ATOMG.E.ADD", ops, " ")
			for (i = 0; i < 4; i++) {
				line = ops[(b + i) % 4 + 1]
				for (l = 0; l < 32; l++)
					line = line sprintf(" %x", 268435456 + ((b * 7 + i * 131 + k * 977) % 4096) * 128 + l * 4 * (1 + i % 2))
				print line
			}
		}' > "$tmp/ppt/memory_traces/kernel_${k}_block_$b.mem"
	done
	b=$((b + 1))
done
for c in validation/titanv-ref.ini titanv.ini; do
	for n in 1 2 3 8; do
		"$SECTORSIM" -q --threads "$n" --json "$tmp/ppt-$n.json" "$cfg/$c" \
			"$tmp/ppt" > "$tmp/ppt-$n.table" 2> "$tmp/ppt-$n.err"
		echo $? >> "$tmp/ppt-$n.table"
	done
	is "$(tail -n 1 "$tmp/ppt-1.table")" 0 "a paper-format app of 96-block kernels, $c: exit 0"
	for n in 2 3 8; do
		cmp -s "$tmp/ppt-1.table" "$tmp/ppt-$n.table" &&
			cmp -s "$tmp/ppt-1.json" "$tmp/ppt-$n.json"
		ok $? "the paper-format app, $c, --threads $n: --threads 1's table and JSON"
	done
done
f30=$tmp/ppt/memory_traces/kernel_2_block_30.mem
awk '{ for (i = 0; i < 5000; i++) print }' "$f30" > "$f30.long"
mv "$f30.long" "$f30"
sed -i '20000s/ / zz /' "$f30"
for b in 31 32 33 34 35 36 37; do
	sed -i '1s/ / zz /' "$tmp/ppt/memory_traces/kernel_2_block_$b.mem"
done
for n in 1 2 3 8 8 8; do
	rm -f "$tmp/bad.json.part"
	run --threads "$n" --json "$tmp/bad.json" "$cfg/titanv.ini" "$tmp/ppt"
	is "$st" 2 "blocks 30 to 37 damaged, --threads $n: exit 2"
	is "$err" "kernel_2_block_30.mem:20000: address token 'zz' is not hexadecimal" \
		"blocks 30 to 37 damaged, --threads $n: block 30's error, alone"
	[ -e "$tmp/bad.json.part" ]
	ok $? "blocks 30 to 37 damaged, --threads $n: the first kernel's results kept"
done

done_testing
