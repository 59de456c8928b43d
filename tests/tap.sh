# tap.sh: a tiny TAP producer for shell tests.  Source it, then call
#
#   ok STATUS DESC        "ok N - DESC" when STATUS is 0, else "not ok N - DESC"
#   is GOT WANT DESC      ok when the two strings are equal; shows both if not
#   has TEXT NEEDLE DESC  ok when TEXT contains NEEDLE (a fixed string)
#   skip REASON [COUNT]   COUNT (default 1) checks that cannot run here
#   diag TEXT...          "# TEXT" lines for the reader of the log
#   done_testing          print the plan "1..N"; exit 1 if any check failed
#   tap_tmpdir NAME       a new folder in $tmp, removed when the test exits
#   run ARGS...           $SECTORSIM ARGS: stdout in $out, stderr in $err,
#                         exit status in $st (a test may define its own)
#
# and sets the paths every test uses, from $srcdir (which the test sets
# before sourcing this file): SECTORSIM (absolute, since tests change
# folders; make check sets it), top (the source tree), cfg (its configs/)
# and shared (../shared, or $SECTORSIM_SHARED).
#
# Checks are counted as they run, so the plan comes last (TAP allows that).
# POSIX sh only: the automake TAP driver runs the tests with /bin/sh.

tap_n=0
tap_failed=0

diag()
{
	printf '%s\n' "$@" | sed 's/^/# /'
}

ok()
{
	tap_n=$((tap_n + 1))
	# A '#' in a description would start a TAP directive (# SKIP, # TODO).
	case $2 in
	*'#'*) set -- "$1" "$(printf '%s' "$2" | sed 's/#/\\#/g')" ;;
	esac
	if [ "$1" -eq 0 ]; then
		printf 'ok %d - %s\n' "$tap_n" "$2"
		return 0
	fi
	tap_failed=$((tap_failed + 1))
	printf 'not ok %d - %s\n' "$tap_n" "$2"
	return 1
}

is()
{
	[ "$1" = "$2" ]
	ok $? "$3" && return 0
	diag "got:  '$1'" "want: '$2'"
	return 1
}

has()
{
	case $1 in
	*"$2"*) ok 0 "$3" ;;
	*) ok 1 "$3" || diag "missing: '$2'" "in:" "$1"; return 1 ;;
	esac
}

skip()
{
	_n=${2:-1}
	while [ "$_n" -gt 0 ]; do
		tap_n=$((tap_n + 1))
		printf 'ok %d # SKIP %s\n' "$tap_n" "$1"
		_n=$((_n - 1))
	done
}

done_testing()
{
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ] || diag "$tap_failed of $tap_n checks failed"
	[ "$tap_failed" -eq 0 ]
	exit
}

# golden_traces: "NAME=PATH" lines for the Accel-Sim traces of
# ../shared/golden (every real app, synth, accelsim_features and
# conversion_example); nothing when ../shared is not there.  Take them
# with IFS set to a newline: IFS=$tap_nl; set -- "$@" $(golden_traces); unset IFS
tap_nl='
'
golden_traces()
{
	[ -d "$shared/golden/real" ] || return 0
	for d in "$shared"/golden/real/*/; do
		[ -f "$d/kernelslist.g" ] && printf '%s\n' "$(basename "$d")=${d%/}"
	done
	printf '%s\n' "synth=$shared/golden/synth/app" \
		"accelsim_features=$shared/golden/accelsim_features/accelsim" \
		"conversion_example=$shared/golden/conversion_example/accelsim"
}

# The kernels array of a results JSON, from its "[" on.
kernels_of_run()
{
	awk 'f { print } /^  "kernels": \[$/ { f = 1; print "[" }' "$1" | sed '$d'
}

# The kernels array of point $2 of a sweep's JSON.
kernels_of_point()
{
	awk -v i="$2" '
		index($0, "    {\"index\": " i ", ") == 1 { p = 1; next }
		p && /^    "kernels": \[$/ { k = 1; print "["; next }
		k && /^  \]}/ { print "  ]"; exit }
		k { print }' "$1"
}

# interrupt_sweep PID KEEP: wait (2 minutes at most) until sweep PID has
# kept a finished point in folder KEEP, then Ctrl-C it; $? is its status
interrupt_sweep()
{
	_n=0
	while [ "$_n" -lt 2400 ] && [ -z "$(ls "$2" 2>/dev/null | grep -E 'point-[0-9]+\.json$')" ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	kill -INT "$1"
	wait "$1"
}

tap_tmpdir()
{
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || {
		echo 'Bail out! cannot create a temporary folder'
		exit 1
	}
	# shellcheck disable=SC2064 # $tmp is fixed from here on
	trap "rm -rf '$tmp'" EXIT
}

run()
{
	"$SECTORSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# shellcheck disable=SC2034 # used by the tests that source this file
{
	SECTORSIM=${SECTORSIM:-$srcdir/../sectorsim}
	case $SECTORSIM in /*) ;; *) SECTORSIM=$PWD/$SECTORSIM ;; esac
	top=$srcdir/..
	cfg=$top/configs
	shared=${SECTORSIM_SHARED:-$top/../shared}
}
