#!/bin/sh
# `sectorsim sweep`: a grid of points, each exactly the run `sectorsim -p`
# gives (the JSON's kernels byte for byte, the CSV's rows), the same for any
# thread count; --points K/N and --merge give the single run's files; the
# Slurm scripts parse and their task runs here; bad grids are refused
# before any simulation; an interrupted sweep keeps its finished points and
# --resume finishes it.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

titanv=$top/configs/titanv.ini
sample=$top/traces/vectoradd-a100

tap_tmpdir test-sweep
mkdir "$tmp/w" && cd "$tmp/w" || exit 1

# ---- a grid ---------------------------------------------------------------------

run sweep "$titanv" "$sample" -s l2.assoc=4,24 -s l1.assoc=2,4,8 --json s.json --csv s.csv
is "$st" 0 "a 2 x 3 grid: exit 0"
has "$err" "decoding $sample once for the 6 points" "the text trace is decoded once"
is "$(ls)" "s.csv
s.json" "the results, and nothing else left"

is "$(grep -c '^    {"index": ' s.json)" 6 "the JSON has the 6 points"
has "$(cat s.json)" '{"index": 3, "params": {"l2.assoc": "24", "l1.assoc": "2"},' "each with its values (the last key fastest)"

i=0
for l2 in 4 24; do
	for l1 in 2 4 8; do
		"$SECTORSIM" --quiet --json one.json --csv one.csv -p l2.assoc=$l2 -p l1.assoc=$l1 "$titanv" "$sample" > /dev/null
		rm -f one.json.part one.csv.part
		kernels_of_run one.json > a
		kernels_of_point s.json $i > b
		cmp -s a b
		ok $? "point $i: its kernels are, byte for byte, those of sectorsim --json -p l2.assoc=$l2 -p l1.assoc=$l1"
		is "$(grep "^$i,$l2,$l1," s.csv | cut -d, -f4-)" "$(tail -n 1 one.csv)" "point $i: its CSV row is sectorsim --csv's"
		i=$((i + 1))
	done
done
has "$(cat s.csv)" "point,l2.assoc,l1.assoc,kernel_id,kernel_name," "the CSV's columns: the point, the keys, then the run's"

run sweep --quiet --threads 1 "$titanv" "$sample" -s l2.assoc=4,24 -s l1.assoc=2,4,8 --json t1.json --csv t1.csv
is "$st" 0 "one thread: exit 0"
cmp -s s.json t1.json && cmp -s s.csv t1.csv
ok $? "one thread: the same files"

run sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 -s l1.assoc=2,4,8 --csv pc.csv --plot charts
is "$st" 0 "--plot: exit 0"
is "$(ls charts | grep -c -- '-vs-.*svg$')" 10 "--plot: the 5 main metrics the report computes, each against the 2 keys"
is "$(grep -c 'class="mark' charts/pareto-capacity-dram.svg)" 6 "and a Pareto chart of capacity against DRAM sectors, a mark per point"
[ "$(grep -c 'class="mark front"' charts/pareto-capacity-dram.svg)" -ge 1 ]
ok $? "its frontier is marked"
is "$(grep -c 'class="mark"' charts/l2_hit_rate-vs-l1_assoc.svg)" 6 "a chart has a mark per point"
has "$(cat charts/dram_ld_trans-vs-l2_assoc.svg)" "l1.assoc=8" "a line per value of the other key, in the legend"
has "$(tail -n 1 charts/dram_ld_trans-vs-l2_assoc.svg)" "</svg>" "the chart is whole"

# ---- a [sweep] section ------------------------------------------------------------

printf '[simulation]\ninclude = %s\n\n[sweep]\nl2.assoc = 4, 24\nl1.assoc = 2,4,8\n' "$titanv" > grid.ini
run sweep --quiet grid.ini "$sample" --json g.json
is "$st" 0 "the grid from [sweep]: exit 0"
kernels_of_point s.json 5 > a
kernels_of_point g.json 5 > b
cmp -s a b
ok $? "the same points as -s gives"
run sweep --quiet grid.ini "$sample" -s l1.assoc=16 --json g2.json
has "$(cat g2.json)" '"axes": [{"key": "l2.assoc", "values": ["4", "24"]}, {"key": "l1.assoc", "values": ["16"]}]' "-s replaces the values [sweep] gives a key, in its place"
run --quiet grid.ini "$sample"
is "$st" 0 "a plain run ignores [sweep]"
run --dump-config grid.ini
has "$out" "[sweep]
l2.assoc = 4, 24" "--dump-config keeps [sweep]"
printf '[simulation]\ninclude = %s\n\n[sweep]\nassoc = 4\n' "$titanv" > badgrid.ini
run sweep --quiet badgrid.ini "$sample" --json bad.json
is "$st" 2 "a [sweep] key that names no parameter: exit 2"
has "$err" "badgrid.ini:5: [sweep] key 'assoc' is not valid; expected SECTION.KEY or SECTION[N].KEY" "the message names the file and line"

# ---- split over machines ------------------------------------------------------------

for k in 0 1 2; do
	run sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 -s l1.assoc=2,4,8 --points $k/3 --json p$k.json --csv p$k.csv
	is "$st" 0 "--points $k/3: exit 0"
done
run sweep --merge m.json p2.json p0.json p1.json
is "$st" 0 "--merge of the three JSON parts: exit 0"
cmp -s m.json s.json
ok $? "the merged JSON is the single run's"
run sweep --merge m.csv p1.csv p2.csv p0.csv
cmp -s m.csv s.csv
ok $? "the merged CSV is the single run's"
run sweep --merge m2.csv p1.csv p0.csv p2.csv p1.csv
is "$st" 2 "--merge with a CSV part twice: exit 2"
has "$err" "point 1 is in p1.csv too" "the message names the point and the file"
printf '# part: 0/2\npoint,x\n' > broken.csv
run sweep --merge m5.csv broken.csv
is "$st" 2 "--merge of a file with no sweep head: exit 2, no crash"
printf '{\n  "sweep": {"points": 4294967297},\n  "part": "0/2",\n  "points": [\n    {"index": 100000000, "params": {}}\n  ]\n}\n' > broken.json
run sweep --merge m6.json broken.json
is "$st" 2 "--merge of a file claiming 2^32 points: exit 2, no crash"
run sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 --points 3/4 --json e3.json --csv e3.csv
is "$st" 0 "--points 3/4 of a 2-point grid: exit 0, no point"
for k in 0 1 2; do
	"$SECTORSIM" sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 --points $k/4 --csv e$k.csv
done
"$SECTORSIM" sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 --csv e-all.csv
run sweep --merge e.csv e0.csv e1.csv e2.csv e3.csv
is "$st" 0 "--merge with a part without a point: exit 0"
cmp -s e.csv e-all.csv
ok $? "and the single run's file"
run sweep --merge m2.json p0.json p1.json
is "$st" 2 "--merge with a part missing: exit 2"
has "$err" "point 2 is in no partial file" "the message names the point"
run sweep --merge m3.json p0.json p0.json p1.json p2.json
is "$st" 2 "--merge with a part twice: exit 2"
run sweep --quiet "$titanv" "$sample" -s l2.assoc=4,8 --points 0/2 --json q.json
run sweep --merge m4.json p0.json q.json
is "$st" 2 "--merge of two sweeps' parts: exit 2"
has "$err" "another sweep than p0.json" "the message says so"

run sweep --quiet "$titanv" "$sample" -s l2.assoc=4,24 -s l1.assoc=2,4,8 --slurm slurm --tasks 3 --json out.json --csv out.csv
is "$st" 0 "--slurm: exit 0"
for f in sweep.sbatch merge.sbatch submit.sh; do
	bash -n "slurm/$f"
	ok $? "--slurm: $f parses (bash -n)"
done
has "$(cat slurm/sweep.sbatch)" "#SBATCH --array=0-2" "a job array of 3 tasks"
has "$(cat slurm/submit.sh)" "--dependency=afterok:" "the merge waits for the array"
SLURM_ARRAY_TASK_ID=1 bash slurm/sweep.sbatch
ok $? "task 1 runs here with SLURM_ARRAY_TASK_ID=1"
cmp -s slurm/part-1.json p1.json && cmp -s slurm/part-1.csv p1.csv
ok $? "and writes the partial files of --points 1/3"
SLURM_ARRAY_TASK_ID=0 bash slurm/sweep.sbatch && SLURM_ARRAY_TASK_ID=2 bash slurm/sweep.sbatch && bash slurm/merge.sbatch
ok $? "the other tasks and the merge job run"
cmp -s out.json s.json && cmp -s out.csv s.csv
ok $? "the merge job writes the single run's files"

# ---- over MPI ranks ---------------------------------------------------------------------

if ! "$SECTORSIM" sweep --help | grep -q "Built with MPI"; then
	skip "sectorsim is built without MPI (./configure --with-mpi, Debian's libopenmpi-dev)" 4
elif ! command -v mpirun >/dev/null 2>&1; then
	skip "no mpirun (Debian's openmpi-bin)" 4
else
	# Open MPI refuses root unless told; CI machines run as root.  Under
	# the sanitizers (README, "Sanitizers"), Open MPI 4.1 itself trips
	# two checks in every rank: LeakSanitizer, on what its plugins
	# allocate and it unloads at MPI_Finalize, and ThreadSanitizer's
	# lock-order check, on its TCP transport's own mutexes.  Those two
	# are off for these runs only; every other check stays on, and
	# without a sanitizer the options do nothing.
	mpi_asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	mpi_tsan="${TSAN_OPTIONS:+$TSAN_OPTIONS:}detect_deadlocks=0"
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	ASAN_OPTIONS=$mpi_asan TSAN_OPTIONS=$mpi_tsan \
		mpirun --oversubscribe -np 2 "$SECTORSIM" sweep --quiet "$titanv" "$sample" \
		-s l2.assoc=4,24 -s l1.assoc=2,4,8 --json mpi.json --csv mpi.csv > mpi.out 2>&1
	ok $? "mpirun -np 2: exit 0"
	cmp -s mpi.json s.json && cmp -s mpi.csv s.csv
	ok $? "mpirun -np 2: rank 0 writes the single run's files"
	[ ! -e mpi.json.points ]
	ok $? "mpirun -np 2: nothing left behind"
	# point 1, rank 1's, is refused: every rank stops, none waits
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	ASAN_OPTIONS=$mpi_asan TSAN_OPTIONS=$mpi_tsan \
		timeout 120 mpirun --oversubscribe -np 2 "$SECTORSIM" sweep --quiet "$titanv" "$sample" \
		-s l2.sets=32,5 --json mpibad.json > mpibad.out 2>&1
	st=$?
	[ "$st" -ne 0 ] && [ "$st" -ne 124 ]
	ok $? "mpirun -np 2 with a point one rank refuses: every rank stops (status $st, 124 is a hang)"
fi

# ---- bad grids: refused before any simulation -----------------------------------------

bad()
{
	desc=$1
	want=$2
	shift 2
	run sweep --quiet "$titanv" "$sample" "$@" --json bad.json
	is "$st" 2 "$desc: exit 2"
	has "$err" "$want" "$desc: the message"
	[ ! -e bad.json ] && [ ! -e bad.json.points ]
	ok $? "$desc: nothing written"
}

bad "an unknown key" "point 0 (l2.nosuch=1): command line -p l2.nosuch=1: component 'l2' (type l2_slice_set) has no parameter 'nosuch'" -s l2.nosuch=1,2
bad "a value the parameter refuses" "l2.assoc" -s l2.assoc=4,many
bad "an empty list" "an empty value" -s l2.assoc=
bad "an empty value" "an empty value" -s l2.assoc=4,,8
bad "a combination the component refuses" "point 0 (l2.size=64KiB): " -s l2.size=64KiB
bad "a key swept twice" "l2.assoc is swept twice" -s l2.assoc=4 -s l2.assoc=8
bad "a value twice" "value '4' twice; expected each value once" -s l2.assoc=4,8,4
run sweep --quiet "$srcdir/data/cli-cache.ini" -s l2.assoc=1,2 --csv norep.csv
is "$st" 2 "a configuration without a report: exit 2"
has "$err" "no component writes per-kernel results (a kernel_report)" "the message says what is missing"
[ ! -e norep.csv.points ]
ok $? "before any point ran"

big=$(seq -s, 1 400)
bad "too many points" "the grid has more than 100000 points" -s l2.assoc=$big -s l1.assoc=$big
run sweep --quiet "$titanv" "$sample" -s l2.assoc=4
is "$st" 2 "no output: exit 2"

# ---- interrupted, then resumed ---------------------------------------------------------

vals=$(seq -s, 1 200)
"$SECTORSIM" sweep --quiet --threads 1 "$titanv" "$sample" -s l2.assoc=$vals --json r.json > /dev/null 2> r.err &
interrupt_sweep $! r.json.points
st=$?
is "$st" 130 "interrupted: exit 130"
has "$(cat r.err)" "--resume runs the rest" "the message says how to finish"
kept=$(ls r.json.points | grep -cE 'point-[0-9]+\.json$')
[ "$kept" -ge 1 ] && [ "$kept" -lt 200 ]
ok $? "some points are kept ($kept)"
[ ! -e r.json ]
ok $? "no results file yet"
run sweep --quiet "$titanv" "$sample" -s l2.assoc=$vals --json r.json
is "$st" 2 "again without --resume: exit 2"
has "$err" "expected --resume to finish it" "the message says what to do"
run sweep --quiet --resume "$titanv" "$sample" -s l2.assoc=$(seq -s, 201 400) --json r.json
is "$st" 2 "--resume with another grid: exit 2"
has "$err" "made by another sweep (its parameters are not point 0's)" "the message says the folder is another sweep's"
run sweep --quiet --resume "$titanv" "$sample" -s l2.assoc=$vals --json r.json
is "$st" 0 "--resume: exit 0"
run sweep --quiet "$titanv" "$sample" -s l2.assoc=$vals --json whole.json
cmp -s r.json whole.json
ok $? "the resumed results are those of a sweep never interrupted"
[ ! -e r.json.points ]
ok $? "the kept points are gone"

# ---- a trc trace, read as it is -------------------------------------------------------

run sweep "$top/configs/validation/fermi-nugteren.ini" "$srcdir/data/nugteren/mshr" -s l1.mshr_lines=8,64 --csv n.csv
is "$st" 0 "the Nugteren configuration over its MSHRs: exit 0"
has "$err" "" "a trc trace is not converted"
is "$(grep -c '^[01],' n.csv)" 2 "a row per point"

done_testing
