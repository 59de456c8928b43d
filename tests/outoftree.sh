#!/bin/sh
# tests/outoftree.sh: prove that plugins build and run against an installed
# sectorsim, with nothing but the installed headers, libraries and
# sectorsim.pc.  Called by `make installcheck` (installcheck-local in
# Makefile.am), hence by `make distcheck`.
#
#   outoftree.sh SECTORSIM LIBDIR SRCDIR [IN-TREE-PLUGIN.so]
#
# SECTORSIM  the installed binary
# LIBDIR     the installed libdir (put on LD_LIBRARY_PATH, for DESTDIR installs)
# SRCDIR     the source tree: the plugins and INI files are read from its
#            tests/ folder, the trace from its traces/ folder
# IN-TREE-PLUGIN.so  optional: tests/.libs/token_plugin.so, whose dynamic
#            symbol table must export no function but sectorsim_plugin_register
#
# PKG_CONFIG_PATH must point at the installed pkgconfig folder (first entry);
# with DESTDIR set, that folder is taken to be inside DESTDIR.  Steps:
#   1. every installed header (sectorsim/, protocols/, models/) compiles
#      alone, twice in one unit, without config.h or any source folder
#   2. cc -shared -fPIC PLUGIN.c $(pkg-config --cflags --libs sectorsim) for
#      tests/token_plugin.c (kernel API only) and tests/space_cache_plugin.c
#      (a cache on the installed sector cache model, libsectorsim-models)
#   3. the installed sectorsim runs tests/data/outoftree.ini with
#      SECTORSIM_PLUGIN_PATH set to the plugins' folder; its statistics are
#      the values computed by hand in that file
#   4. it runs tests/data/outoftree-cache.ini on the bundled trace: the
#      plugin's space_cache counts what a stock sector_cache of the same
#      geometry counts, and passes everything by when told to cache the
#      local space
#   5. the run of 3 without SECTORSIM_PLUGIN_PATH from inside that folder
#      must fail: plugins are never loaded from the current directory
#   6. nm -D on every plugin: sectorsim_plugin_register is the only function
#      exported
#   7. the installed configurations found by name (titanv.ini) from another
#      folder, and listed by --list-configs (INSTALLED_CONFIGS: their
#      folder, for DESTDIR installs)
# Exit status 0 when every step passes, 1 otherwise.
set -u

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: $0 SECTORSIM LIBDIR SRCDIR [IN-TREE-PLUGIN.so]" >&2
	exit 1
fi
sectorsim=$1 libdir=$2 srcdir=$3 intree=${4:-}
cc=${CC:-cc}
failures=0

say() { printf 'outoftree: %s\n' "$*"; }
pass() { printf 'outoftree: ok: %s\n' "$*"; }
fail() { printf 'outoftree: FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }

# Absolute paths: the runs below change directory.
abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
[ -d "$srcdir/tests" ] || { echo "outoftree: $srcdir is not the source tree" >&2; exit 1; }
srcdir=$(cd "$srcdir" && pwd)
token_src=$srcdir/tests/token_plugin.c token_ini=$srcdir/tests/data/outoftree.ini
cache_src=$srcdir/tests/space_cache_plugin.c cache_ini=$srcdir/tests/data/outoftree-cache.ini
for f in "$token_src" "$token_ini" "$cache_src" "$cache_ini"; do
	[ -r "$f" ] || { echo "outoftree: cannot read $f" >&2; exit 1; }
done
[ -x "$sectorsim" ] || { echo "outoftree: $sectorsim is not an installed program" >&2; exit 1; }
sectorsim=$(abs "$sectorsim")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sectorsim-outoftree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# ---- the installed sectorsim.pc --------------------------------------------
say "PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}"
# A staged install (make install DESTDIR=...): the .pc names the final
# folders, so use a copy whose absolute folders point into DESTDIR.
if [ -n "${DESTDIR:-}" ]; then
	pcdir=${PKG_CONFIG_PATH%%:*}
	[ -r "$pcdir/sectorsim.pc" ] || { echo "outoftree: no $pcdir/sectorsim.pc" >&2; exit 1; }
	mkdir "$tmp/pkgconfig"
	awk -v d="$DESTDIR" '/^(prefix|exec_prefix|libdir|includedir)=\// {
		sub(/=/, "=" d) } { print }' \
		"$pcdir/sectorsim.pc" >"$tmp/pkgconfig/sectorsim.pc"
	PKG_CONFIG_PATH=$tmp/pkgconfig:$PKG_CONFIG_PATH
	export PKG_CONFIG_PATH
	say "DESTDIR=$DESTDIR: using a copy of sectorsim.pc relocated into it"
fi
if ! flags=$(pkg-config --cflags --libs sectorsim) ||
   ! cflags=$(pkg-config --cflags sectorsim) ||
   ! incdir=$(pkg-config --variable=includedir sectorsim); then
	echo "outoftree: pkg-config does not find sectorsim.pc" >&2
	exit 1
fi
say "pkg-config --cflags --libs sectorsim: $flags"
warn="-Wall -Wextra -Wno-unused-parameter -Werror"

# ---- 1. every installed header compiles alone -------------------------------
headers=$(cd "$incdir" && find sectorsim -name '*.h' | LC_ALL=C sort)
for need in sectorsim/sectorsim.h sectorsim/protocols/mem.h \
	    sectorsim/protocols/gpu.h sectorsim/models/sector_cache.h; do
	case " $(echo $headers) " in
	*" $need "*) ;;
	*) fail "$need is not installed under $incdir" ;;
	esac
done
n=0
for h in $headers; do
	n=$((n + 1))
	unit=$tmp/header$n.c
	printf '#include <%s>\n#include <%s>\nint header_unit_%d;\n' "$h" "$h" "$n" >"$unit"
	# shellcheck disable=SC2086
	if ! $cc -c $warn -o "$tmp/header$n.o" "$unit" $cflags 2>"$tmp/header$n.err"; then
		fail "<$h> does not compile alone against the installed headers:"
		sed 's/^/    /' "$tmp/header$n.err" >&2
	elif grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]config\.h[">]' "$incdir/$h"; then
		fail "<$h> includes config.h, which is not installed"
	fi
done
[ "$n" -gt 0 ] && say "$n installed headers checked one by one"

# ---- 2. build the plugins against the installed sectorsim.pc ----------------
mkdir "$tmp/plugins"
for src in "$token_src" "$cache_src"; do
	so=$tmp/plugins/$(basename "$src" .c).so
	# shellcheck disable=SC2086
	if $cc -shared -fPIC $warn -o "$so" "$src" $flags; then
		pass "built $(basename "$src") out of tree"
	else
		fail "$cc could not build $src against the installed headers"
		exit 1
	fi
done

ld_path=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# run NAME PHASE INI [OPTION...]: the installed binary, from /, statistics as
# CSV into $tmp/NAME.csv, of which the rows of PHASE are checked ("run" when
# nothing closes a phase, "kernel 1" for the first kernel of a trace)
run() {
	name=$1 ini=$3
	printf '%s\n' "$2" >"$tmp/$name.phase"
	shift 3
	if (cd / && SECTORSIM_PLUGIN_PATH=$tmp/plugins LD_LIBRARY_PATH=$ld_path \
		"$sectorsim" --quiet --stats csv --output "$tmp/$name.csv" "$@" "$ini" \
		>"$tmp/$name.out"); then
		pass "sectorsim ran $(basename "$ini")${*:+ $*} with plugins from SECTORSIM_PLUGIN_PATH"
	else
		fail "sectorsim failed on $ini${*:+ $*} (status $?)"
	fi
	[ -s "$tmp/$name.csv" ] || fail "$name: no statistics written"
}
# value NAME STAT: VALUE of the row "PHASE,STAT,VALUE" of $tmp/NAME.csv
value() {
	awk -F, -v p="$(cat "$tmp/$1.phase")" -v k="$2" \
		'$1 == p && $2 == k { print $3 }' "$tmp/$1.csv" 2>/dev/null
}
# expect NAME STAT VALUE
expect() {
	got=$(value "$1" "$2")
	if [ "$got" = "$3" ]; then
		pass "$1: $2 = $3"
	else
		fail "$1: $2 = '${got:-(missing)}', expected $3"
	fi
}
# same NAME STAT1 STAT2: two statistics of one run are equal, and not empty
same() {
	a=$(value "$1" "$2") b=$(value "$1" "$3")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass "$1: $2 = $3 = $a"
	else
		fail "$1: $2 = '${a:-(missing)}' but $3 = '${b:-(missing)}'"
	fi
}

# ---- 3. the token plugin -----------------------------------------------------
run tokens run "$token_ini"
expect tokens sink.tokens 7
expect tokens sink.value_sum 346
expect tokens sink.latency_sum 21
expect tokens 'sink.from[0].tokens' 4
expect tokens 'sink.from[1].tokens' 3
expect tokens sink.done 2
expect tokens src.sent 7
expect tokens src.acks 7
expect tokens src.value_sum 346
expect tokens sink.mean_value 49.428571

# ---- 4. a cache on the installed sector cache model --------------------------
# the values are worked out in the INI file's comment
run cache 'kernel 1' "$cache_ini"
for s in accesses hits sector_misses line_misses reads_down writes_down; do
	same cache obs.$s l1.$s
done
expect cache l1.accesses 18750
expect cache l1.hits 9375
expect cache l1.sector_misses 4686
expect cache l1.line_misses 4689
expect cache l1.reads_down 6250
expect cache l1.writes_down 3125
expect cache l1.passed 0
run local 'kernel 1' "$cache_ini" -p l1.space=local
expect local l1.accesses 0
expect local l1.writes_down 0
same local obs.accesses l1.passed

# A plugin type without SS_TYPE_PARTITION_SAFE (space_cache): the run
# keeps one thread unless --threads asks for more, though the same
# configuration splits into partitions when asked, with the same numbers.
# summary NAME [OPTION...]: the run's summary line into $tmp/NAME.err
summary() {
	name=$1
	shift
	(cd / && SECTORSIM_PLUGIN_PATH=$tmp/plugins LD_LIBRARY_PATH=$ld_path \
		"$sectorsim" --stats csv --output "$tmp/$name.csv" "$@" "$cache_ini" \
		>/dev/null 2>"$tmp/$name.err") || fail "sectorsim failed on $cache_ini $* (status $?)"
}
summary unsafe1
if grep -q ' 1 partition on 1 thread$' "$tmp/unsafe1.err"; then
	pass "space_cache lacks SS_TYPE_PARTITION_SAFE: one thread by default"
else
	fail "space_cache lacks SS_TYPE_PARTITION_SAFE, yet the run's summary says: $(tail -n 1 "$tmp/unsafe1.err")"
fi
summary unsafe2 --threads 2
if grep -q ' [2-9][0-9]* partitions on 2 threads$' "$tmp/unsafe2.err" &&
   cmp -s "$tmp/unsafe1.csv" "$tmp/unsafe2.csv"; then
	pass "with --threads 2 the same configuration runs split, with the same numbers"
else
	fail "with --threads 2: $(tail -n 1 "$tmp/unsafe2.err"), statistics $(cmp "$tmp/unsafe1.csv" "$tmp/unsafe2.csv" 2>&1 || :)"
fi

# ---- 5. never from the current directory -------------------------------------
err=$tmp/nocwd.err
(cd "$tmp/plugins" && unset SECTORSIM_PLUGIN_PATH &&
	LD_LIBRARY_PATH=$ld_path "$sectorsim" --quiet "$token_ini" >/dev/null 2>"$err")
status=$?
if [ "$status" -eq 2 ] && grep -q "plugin 'token_plugin' not found" "$err"; then
	pass "token_plugin.so in the current directory is not loaded (exit status 2)"
else
	fail "run from the plugins' folder without SECTORSIM_PLUGIN_PATH: status $status, expected 2 and 'not found'"
	cat "$err" >&2
fi

# ---- 6. exported functions -----------------------------------------------------
check_exports() {
	funcs=$(nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" || $2 == "i" { print $3 }' | sort | tr '\n' ' ')
	if [ "$funcs" = "sectorsim_plugin_register " ]; then
		pass "$2 exports only sectorsim_plugin_register"
	else
		fail "$2 exports functions: ${funcs:-(none)}; expected only sectorsim_plugin_register"
	fi
}
if command -v nm >/dev/null 2>&1; then
	for so in "$tmp"/plugins/*.so; do
		check_exports "$so" "the out-of-tree $(basename "$so")"
	done
	if [ -n "$intree" ]; then
		if [ -f "$intree" ]; then
			check_exports "$intree" "$intree"
		else
			fail "$intree does not exist"
		fi
	fi
else
	say "nm not found: export check skipped"
fi

# 7. the installed configurations are found by name from any folder, and
#    run the installed sample trace they name (with DESTDIR, the program's
#    own folder is not where they are: SECTORSIM_CONFIG_PATH says where)
if [ -n "${DESTDIR:-}" ] && [ -n "${INSTALLED_CONFIGS:-}" ]; then
	SECTORSIM_CONFIG_PATH=$INSTALLED_CONFIGS
	export SECTORSIM_CONFIG_PATH
fi
if out=$(cd "$tmp" && "$sectorsim" --quiet titanv.ini 2>&1) &&
   printf '%s\n' "$out" | grep -q '^kernel 1  .*vectorAdd'; then
	pass "titanv.ini by name, from another folder, on the installed sample trace"
else
	fail "titanv.ini by name: $out"
fi
if (cd "$tmp" && "$sectorsim" --list-configs) | grep -q '^  timing/titanv.ini$'; then
	pass "--list-configs lists the installed configurations"
else
	fail "--list-configs does not list timing/titanv.ini"
fi

if [ "$failures" -ne 0 ]; then
	say "$failures check(s) failed"
	exit 1
fi
say "all checks passed"
