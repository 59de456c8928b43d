# bench/lib.sh: what the benchmark scripts share.  Sourced after they set
# runs (how many timed runs), timer (GNU time) and tmp (a scratch folder).
# shellcheck shell=sh

# program_of BUILDDIR: $bin, the sectorsim to time.  In a libtool build
# tree, BUILDDIR/sectorsim is a shell script that finds the build's
# libraries and then starts the program, .libs/sectorsim: the program is
# timed itself, started as an installed one is, with the libraries' folders
# in LD_LIBRARY_PATH as the script puts them there (its shell took about
# 10 ms of each run, 4 % of a native titanv-ref run on two threads).
program_of() {
	bin=$1/sectorsim
	if [ -x "$1/.libs/sectorsim" ] && [ "$(head -c 2 "$bin")" = "#!" ]; then
		bin=$1/.libs/sectorsim
		LD_LIBRARY_PATH=$1/kernel/.libs:$1/models/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
		export LD_LIBRARY_PATH
	fi
	"$bin" --version >/dev/null 2>&1 ||
		{ echo "$0: $bin does not start" >&2; exit 2; }
}

# timed OUT CMD...: runs CMD once, its output discarded, and writes "WALL
# RSS" to OUT: the wall time in seconds to the millisecond, from GNU
# date's nanoseconds (GNU time's %e gives hundredths, 4 % of a 0.25 s
# run), and the peak resident set in KiB, from GNU time.  Fails as CMD.
timed() {
	tout=$1
	shift
	t0=$(date +%s%N)
	"$timer" -f '%M' -o "$tout.rss" "$@" >/dev/null 2>&1 || return 1
	t1=$(date +%s%N)
	printf '%d.%03d %s\n' $(((t1 - t0) / 1000000000)) $(((t1 - t0) / 1000000 % 1000)) \
		"$(tail -n 1 "$tout.rss")" >"$tout"
}

# time_runs NAME CMD...: the warm-up, then RUNS timed runs; prints
# "NAME  median wall  peak RSS" and leaves the median in $median.
time_runs() {
	name=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$0: $name failed: $*" >&2; exit 1; }
	: >"$tmp/times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		timed "$tmp/one" "$@" || { echo "$0: $name failed: $*" >&2; exit 1; }
		cat "$tmp/one" >>"$tmp/times"
		i=$((i + 1))
	done
	median=$(sort -n "$tmp/times" | awk -v n="$runs" 'NR == int((n + 1) / 2) { print $1 }')
	peak=$(sort -n -k2 "$tmp/times" | tail -n 1 | awk '{ printf "%.1f", $2 / 1024 }')
	printf '%-40s %7s s   peak %6s MiB\n' "$name" "$median" "$peak"
}

# quote WORD: WORD as one shell word, for a command given as a string.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# command_pairs NAME CMD1 CMD2: the warm-up of each, then RUNS pairs of
# runs of the shell commands CMD1 and CMD2 (CMD1 first in every other
# pair), so that neither the machine's drift between blocks of runs (up
# to 1.5x here) nor the place in a pair can skew their ratio; prints
# each side's median wall, the median of the pairs' ratios CMD1 / CMD2
# and the peak RSS (of either, children included), and leaves them in
# $median1, $median2 and $ratio.
command_pairs() {
	name=$1
	cmd1=$2
	cmd2=$3
	for c in "$cmd1" "$cmd2"; do
		sh -c "$c" >/dev/null 2>&1 || { echo "$0: $name failed: $c" >&2; exit 1; }
	done
	: >"$tmp/pairs"
	i=0
	while [ "$i" -lt "$runs" ]; do
		# which goes first alternates: on this machine a pair's first
		# run differs from its second, which would skew every ratio
		if [ $((i % 2)) -eq 0 ]; then
			timed "$tmp/one1" sh -c "$cmd1" || { echo "$0: $name failed: $cmd1" >&2; exit 1; }
			timed "$tmp/one2" sh -c "$cmd2" || { echo "$0: $name failed: $cmd2" >&2; exit 1; }
		else
			timed "$tmp/one2" sh -c "$cmd2" || { echo "$0: $name failed: $cmd2" >&2; exit 1; }
			timed "$tmp/one1" sh -c "$cmd1" || { echo "$0: $name failed: $cmd1" >&2; exit 1; }
		fi
		printf '%s %s\n' "$(cat "$tmp/one1")" "$(cat "$tmp/one2")" >>"$tmp/pairs"
		i=$((i + 1))
	done
	mid=$(((runs + 1) / 2))
	median1=$(awk '{ print $1 }' "$tmp/pairs" | sort -n | sed -n "${mid}p")
	median2=$(awk '{ print $3 }' "$tmp/pairs" | sort -n | sed -n "${mid}p")
	ratio=$(awk '{ printf "%.4f\n", $1 / $3 }' "$tmp/pairs" | sort -n | sed -n "${mid}p")
	peak=$(awk '{ print ($2 > $4 ? $2 : $4) }' "$tmp/pairs" | sort -n | tail -n 1 |
		awk '{ printf "%.1f", $1 / 1024 }')
	printf '%-40s %7s s / %s s   %sx   peak %6s MiB\n' "$name" \
		"$median1" "$median2" "$ratio" "$peak"
}

# word_pairs NAME BIN A B ARGS...: command_pairs of "BIN -q A ARGS" and
# "BIN -q B ARGS".
word_pairs() {
	wname=$1
	wbin=$(quote "$2")
	wrest=""
	word1=$(quote "$3")
	word2=$(quote "$4")
	shift 4
	for a in "$@"; do
		wrest="$wrest $(quote "$a")"
	done
	command_pairs "$wname" "$wbin -q $word1$wrest" "$wbin -q $word2$wrest"
}

# thread_pairs NAME BIN ARGS...: word_pairs of BIN ARGS on one thread and
# on two; the speed-up of two threads is $ratio.
thread_pairs() {
	pname=$1
	pbin=$2
	shift 2
	word_pairs "$pname, 1 / 2 threads" "$pbin" --threads=1 --threads=2 "$@"
}
