#!/bin/sh
# bench/big.sh: end-to-end figures on the large benchmark app of
# ../shared/bench (big_gen.py), with the floors timed in the same sitting.
#
#   bench/big.sh BUILDDIR [RUNS]
#
# BUILDDIR holds an ordinary (not sanitizer) build.  RUNS (default 5) runs
# of each command are timed after one warm-up; each figure is their median
# wall time, with the largest peak resident set of any run.  The app is
# generated once into $SECTORSIM_BIG (default /tmp/sectorsim-big/big),
# which takes a minute or two and about 300 MB; ../shared is found beside
# the source tree or through $SECTORSIM_SHARED.  Needs python3 (for the
# generator and the check of the numbers) and GNU time (/usr/bin/time,
# Debian's package "time").
#
# The figures, each against its target of issue #12 on a 2-core machine:
#   floors            cat of the paper-format tree; zcat of the .gz files
#   ppt titanv-ref    wall on one thread and on two (target <= 0.5 s), and
#                     the speed-up of two over one; numbers (default
#                     threads) checked against expected/big_titanv_simulator.json
#   ppt titanv        wall, on one thread and on two, and the speed-up
#                     (target >= 1.7x)
# A speed-up is the median of the ratios of RUNS pairs of runs, one thread
# and two (either first, in turn), which neither the machine's drift
# between blocks of runs nor the place in a pair can skew.
#   accelsim titanv   wall, and its ratio to zcat (target <= 1.2), on one
#                     thread (against the zcat floor's median) and on two
#                     (the target's, the median of RUNS pairs against zcat)
#   native titanv-ref L1 sector accesses per second (target >= 50 M), on
#                     one thread and on two; the native file is converted
#                     by BUILDDIR's sectorsim for each run of the script;
#                     and, from one more run on the default threads, the
#                     busiest partition and how long it ran (what bounds it)
#   peak RSS          of every sectorsim run, and of the native file under
#                     titanv-ref.ini and titanv.ini on 64 threads (target
#                     <= 256 MiB at any thread count)
# and, against its target of issue #13:
#   accelsim timing   configs/timing/titanv.ini: wall, and its ratio to
#                     titanv.ini's on the same .gz files with the default
#                     threads, the median of RUNS pairs (target <= 4)
# Run it on an otherwise idle machine.
set -eu

[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [RUNS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
runs=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
shared=${SECTORSIM_SHARED:-$src/../shared}
big=${SECTORSIM_BIG:-/tmp/sectorsim-big/big}
bin=$build/sectorsim
timer=/usr/bin/time

[ -x "$bin" ] || { echo "$0: $bin: no sectorsim there; build first" >&2; exit 2; }
[ -f "$shared/bench/big_gen.py" ] ||
	{ echo "$0: $shared/bench/big_gen.py: not found; set SECTORSIM_SHARED" >&2; exit 2; }
[ -x "$timer" ] || { echo "$0: $timer: not found; apt-get install time" >&2; exit 2; }
command -v python3 >/dev/null ||
	{ echo "$0: python3: not found; apt-get install python3" >&2; exit 2; }

if [ ! -f "$big/ppt/app_config.py" ] || [ ! -f "$big/accelsim/kernelslist.g" ]; then
	echo "generating the benchmark app into $big ..." >&2
	python3 "$shared/bench/big_gen.py" "$big" >&2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sectorsim-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# shellcheck source=lib.sh
. "$src/bench/lib.sh"
program_of "$build"

ref=$src/configs/validation/titanv-ref.ini
hw=$src/configs/titanv.ini

echo "sectorsim $("$bin" --version 2>/dev/null | head -n 1); $(nproc) cores; median of $runs runs"
time_runs "floor: cat ppt/ tree" sh -c "cat '$big'/ppt/memory_traces/* >/dev/null"
cat_s=$median
time_runs "floor: zcat accelsim/*.gz" sh -c "zcat '$big'/accelsim/*.gz >/dev/null"
zcat_s=$median
thread_pairs "ppt, titanv-ref.ini" "$bin" "$ref" "$big/ppt"
ref_s=$median1 ref2_s=$median2 ref_x=$ratio
thread_pairs "ppt, titanv.ini" "$bin" "$hw" "$big/ppt"
hw_s=$median1 hw2_s=$median2 hw_x=$ratio
time_runs "accelsim .gz, titanv.ini, --threads 1" "$bin" -q --threads 1 "$hw" "$big/accelsim"
as_s=$median
command_pairs "accelsim .gz, titanv.ini, 2 thr. / zcat" \
	"$(quote "$bin") -q --threads 2 $(quote "$hw") $(quote "$big/accelsim")" \
	"zcat $(quote "$big")/accelsim/*.gz"
as2_s=$median1 as2_x=$ratio
word_pairs "accelsim .gz, timing/titanv / titanv" "$bin" \
	"$src/configs/timing/titanv.ini" "$hw" "$big/accelsim"
tm_s=$median1 tm_x=$ratio
# the native format, converted by this build (not timed: half a second),
# so that the file is of the version it writes
"$bin" convert "$big/ppt" "$tmp/big.sst" ||
	{ echo "$0: convert failed" >&2; exit 1; }
time_runs "native, titanv-ref.ini, --threads 1" "$bin" -q --threads 1 "$ref" "$tmp/big.sst"
nat_s=$median
time_runs "native, titanv-ref.ini, --threads 2" "$bin" -q --threads 2 "$ref" "$tmp/big.sst"
nat2_s=$median
# one more run, not timed, for its summary lines: the accesses, and the
# partition that bounds a run on the default threads
"$bin" "$ref" "$tmp/big.sst" 2>"$tmp/native.err" >/dev/null
accesses=$(sed -n 's/.* kernels*, \([0-9]*\) L1 sector accesses.*/\1/p' "$tmp/native.err")
busiest=$(sed -n 's/^sectorsim: the busiest partition/the busiest partition/p' "$tmp/native.err")

# peak memory on many threads (a user's 64-core machine runs 64 by
# default): once each, not timed
many_peak=0
for cfg in "$ref" "$hw"; do
	timed "$tmp/one" "$bin" -q --threads 64 "$cfg" "$tmp/big.sst" ||
		{ echo "$0: native on 64 threads failed: $cfg" >&2; exit 1; }
	kib=$(awk '{ print $2 }' "$tmp/one")
	[ "$kib" -le "$many_peak" ] || many_peak=$kib
done

# the numbers: every integer equal, every other value within 1e-9
"$bin" -q --json "$tmp/ref.json" "$ref" "$big/ppt" >/dev/null
python3 - "$shared/bench/expected/big_titanv_simulator.json" "$tmp/ref.json" <<'EOF'
import json, sys
want = json.load(open(sys.argv[1]))
got = {k["kernel_id"]: k for k in json.load(open(sys.argv[2]))["kernels"]}
n = bad = 0
for k in want["kernels"]:
    g = got.get(k["kernel_id"])
    for part in ("metrics", "occupancy"):
        for key, w in k[part].items():
            if not isinstance(w, (int, float)) or isinstance(w, bool):
                continue
            n += 1
            v = None if g is None else g[part].get(key)
            exact = float(w).is_integer()
            if v is None or (v != w and (exact or abs(v - w) > 1e-9 * max(abs(v), abs(w)))):
                bad += 1
                print("  kernel %s %s: expected %r, got %r" % (k["kernel_id"], key, w, v))
print("numbers vs the paper's implementation: %d compared, %d differ" % (n, bad))
sys.exit(1 if bad else 0)
EOF

awk -v r="$ref_s" -v c="$cat_s" -v a="$as_s" -v z="$zcat_s" -v a2="$as2_s" \
    -v r2="$ref2_s" -v h="$hw_s" -v h2="$hw2_s" -v n="$nat_s" -v n2="$nat2_s" \
    -v rx="$ref_x" -v hx="$hw_x" -v acc="${accesses:-0}" -v t="$tm_s" -v tx="$tm_x" \
    -v a2x="$as2_x" 'BEGIN {
	printf "ppt titanv-ref: %.2f s on one thread, %.2f s on two (target <= 0.5 s; %.1fx the cat floor on two)\n", r, r2, r2 / c
	printf "ppt titanv-ref --threads 2: %.2fx one thread\n", rx
	printf "ppt titanv --threads 2: %.2fx one thread (target >= 1.7)\n", hx
	printf "accelsim .gz titanv: %.2fx zcat; --threads 2: %.2fx in pairs, %.2f s (target <= 1.2)\n", a / z, a2x, a2
	printf "native titanv-ref: %.1f M L1 sector accesses/s; --threads 2: %.1f M (target >= 50)\n", acc / n / 1e6, acc / n2 / 1e6
	printf "accelsim .gz timing/titanv: %.2f s, %.2fx titanv.ini (target <= 4)\n", t, tx
}'
[ -z "$busiest" ] || echo "native titanv-ref, default threads: $busiest"
awk -v k="$many_peak" 'BEGIN { printf "native titanv-ref and titanv.ini on 64 threads: peak %.1f MiB (target <= 256)\n", k / 1024 }'
