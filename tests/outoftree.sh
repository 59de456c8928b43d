#!/bin/sh
# tests/outoftree.sh: prove that a plugin builds and runs against an
# installed sectorsim.  Called by `make installcheck` (installcheck-local in
# Makefile.am), hence by `make distcheck`.
#
#   outoftree.sh PLUGIN.c SECTORSIM LIBDIR CONFIG.ini [IN-TREE-PLUGIN.so]
#
# PLUGIN.c   tests/token_plugin.c
# SECTORSIM  the installed binary
# LIBDIR     the installed libdir (put on LD_LIBRARY_PATH, for DESTDIR installs)
# CONFIG.ini tests/data/outoftree.ini
# IN-TREE-PLUGIN.so  optional: tests/.libs/token_plugin.so, whose dynamic
#            symbol table must export no function but sectorsim_plugin_register
#
# PKG_CONFIG_PATH must point at the installed pkgconfig folder (first entry);
# with DESTDIR set, that folder is taken to be inside DESTDIR.  Steps:
#   1. cc -shared -fPIC PLUGIN.c $(pkg-config --cflags --libs sectorsim)
#   2. run the installed sectorsim on CONFIG.ini with SECTORSIM_PLUGIN_PATH
#      set to the folder of the new plugin, and compare statistics with the
#      values computed by hand in CONFIG.ini
#   3. the same run without SECTORSIM_PLUGIN_PATH from inside that folder
#      must fail: plugins are never loaded from the current directory
#   4. nm -D on both plugins: sectorsim_plugin_register is the only function
#      exported
# Exit status 0 when every step passes, 1 otherwise.
set -u

if [ $# -lt 4 ] || [ $# -gt 5 ]; then
	echo "usage: $0 PLUGIN.c SECTORSIM LIBDIR CONFIG.ini [IN-TREE-PLUGIN.so]" >&2
	exit 1
fi
src=$1 sectorsim=$2 libdir=$3 ini=$4 intree=${5:-}
cc=${CC:-cc}
failures=0

say() { printf 'outoftree: %s\n' "$*"; }
pass() { printf 'outoftree: ok: %s\n' "$*"; }
fail() { printf 'outoftree: FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }

for f in "$src" "$ini"; do
	[ -r "$f" ] || { echo "outoftree: cannot read $f" >&2; exit 1; }
done
[ -x "$sectorsim" ] || { echo "outoftree: $sectorsim is not an installed program" >&2; exit 1; }

# Absolute paths: the runs below change directory.
abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
src=$(abs "$src") ini=$(abs "$ini") sectorsim=$(abs "$sectorsim")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sectorsim-outoftree.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# ---- 1. build against the installed sectorsim.pc --------------------------
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
if ! flags=$(pkg-config --cflags --libs sectorsim); then
	echo "outoftree: pkg-config does not find sectorsim.pc" >&2
	exit 1
fi
say "pkg-config --cflags --libs sectorsim: $flags"
plugin=$tmp/token_plugin.so
# shellcheck disable=SC2086
if $cc -shared -fPIC -Wall -Wextra -Wno-unused-parameter -Werror \
	-o "$plugin" "$src" $flags; then
	pass "built $(basename "$src") out of tree"
else
	fail "$cc could not build $src against the installed headers"
	exit 1
fi

# ---- 2. run it with the installed binary ----------------------------------
ld_path=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=$tmp/stats.csv
if (cd / && SECTORSIM_PLUGIN_PATH=$tmp LD_LIBRARY_PATH=$ld_path \
	"$sectorsim" --quiet --stats csv --output "$out" "$ini"); then
	pass "sectorsim ran $(basename "$ini") with the plugin from SECTORSIM_PLUGIN_PATH"
else
	fail "sectorsim failed on $ini (status $?)"
fi

# expect STAT VALUE: the row "run,STAT,VALUE" of the CSV output
expect() {
	got=$(awk -F, -v k="$1" '$1 == "run" && $2 == k { print $3 }' "$out" 2>/dev/null)
	if [ "$got" = "$2" ]; then
		pass "$1 = $2"
	else
		fail "$1 = '${got:-(missing)}', expected $2"
	fi
}
if [ -s "$out" ]; then
	expect sink.tokens 7
	expect sink.value_sum 346
	expect sink.latency_sum 21
	expect 'sink.from[0].tokens' 4
	expect 'sink.from[1].tokens' 3
	expect sink.done 2
	expect src.sent 7
	expect src.acks 7
	expect src.value_sum 346
	expect sink.mean_value 49.428571
else
	fail "no statistics written"
fi

# ---- 3. never from the current directory -----------------------------------
err=$tmp/nocwd.err
(cd "$tmp" && unset SECTORSIM_PLUGIN_PATH &&
	LD_LIBRARY_PATH=$ld_path "$sectorsim" --quiet "$ini" >/dev/null 2>"$err")
status=$?
if [ "$status" -eq 2 ] && grep -q "plugin 'token_plugin' not found" "$err"; then
	pass "token_plugin.so in the current directory is not loaded (exit status 2)"
else
	fail "run from the plugin's folder without SECTORSIM_PLUGIN_PATH: status $status, expected 2 and 'not found'"
	cat "$err" >&2
fi

# ---- 4. exported functions ---------------------------------------------------
check_exports() {
	funcs=$(nm -D --defined-only "$1" | awk '$2 == "T" || $2 == "W" || $2 == "i" { print $3 }' | sort | tr '\n' ' ')
	if [ "$funcs" = "sectorsim_plugin_register " ]; then
		pass "$2 exports only sectorsim_plugin_register"
	else
		fail "$2 exports functions: ${funcs:-(none)}; expected only sectorsim_plugin_register"
	fi
}
if command -v nm >/dev/null 2>&1; then
	check_exports "$plugin" "the out-of-tree plugin"
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

if [ "$failures" -ne 0 ]; then
	say "$failures check(s) failed"
	exit 1
fi
say "all checks passed"
