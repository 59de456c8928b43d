#!/bin/sh
# The manual pages and bash completion.  sectorsim(1), as built for
# installation, and sectorsim-ini(5) format without a warning from groff
# or man; sectorsim(1) documents every option of `sectorsim --help` and of
# each command's --help, and names the installed folders; the worked
# example of sectorsim-ini(5) runs.  The completion (completion/sectorsim,
# sourced after Debian's bash-completion) completes options from --help,
# commands and component types from --list, configuration names from
# --list-configs and the folder's *.ini files, and option values.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR, G_TEST_BUILDDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-doc

# sectorsim(1) as `make` builds it; by hand, made here the same way
page1=${G_TEST_BUILDDIR:+$G_TEST_BUILDDIR/../doc/sectorsim.1}
if [ -z "$page1" ] || [ ! -f "$page1" ]; then
	page1=$tmp/sectorsim.1
	sh "$top/build-aux/fill-man" "$top/doc/sectorsim.1.in" /usr/share/sectorsim /usr/lib/sectorsim \
		> "$page1"
fi
page5=$top/doc/sectorsim-ini.5
# and as a deep prefix fills it (distcheck installs under its build folder):
# folders longer than a line
deep=/check/work/main/sectorsim-0.1/_build/sub/_inst/an-install-folder-deeper-than-that/_inst
sh "$top/build-aux/fill-man" "$top/doc/sectorsim.1.in" "$deep/share/sectorsim" "$deep/lib/sectorsim" \
	> "$tmp/deep.1"
for page in "$page1" "$tmp/deep.1" "$page5"; do
	name=${page##*/}
	if command -v groff > /dev/null 2>&1; then
		w=$(groff -man -ww -z "$page" 2>&1)
		is "$?:$w" "0:" "$name: groff -man -ww -z prints no warning"
	else
		skip "groff is not installed"
	fi
	if command -v man > /dev/null 2>&1; then
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 > /dev/null)
		is "$?:$w" "0:" "$name: man --warnings -l prints no warning"
	else
		skip "man is not installed"
	fi
done
grep -q '@pkg[a-z]*dir@' "$page1"
ok $((! $?)) "sectorsim(1): every folder filled in"

# ---- sectorsim(1) documents every option there is
# options HELP: the long options of a --help output, one a line
options()
{
	sed -n 's/^ \{1,\}\(-[A-Za-z], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' "$1" | sort -u
}
# the page's text with roff's \- as -
sed 's/\\-/-/g' "$page1" > "$tmp/page.txt"
"$SECTORSIM" --help > "$tmp/help.txt"
missing=
for o in $(options "$tmp/help.txt"); do
	grep -q -- "--$o\\b" "$tmp/page.txt" || missing="$missing --$o"
done
is "$missing" "" "sectorsim(1): every option of sectorsim --help"
commands=$("$SECTORSIM" --list | sed -n '/^commands/,$p' | sed -n 's/^\([a-z][a-z]*\)  .*/\1/p')
[ -n "$commands" ]
ok $? "sectorsim --list names the commands" || diag "$("$SECTORSIM" --list)"
for c in $commands; do
	grep -q "^\\.SS \"sectorsim $c " "$tmp/page.txt"
	ok $? "sectorsim(1): a section for sectorsim $c"
	"$SECTORSIM" "$c" --help > "$tmp/help-$c.txt" 2>&1
	missing=
	for o in $(options "$tmp/help-$c.txt"); do
		grep -q -- "--$o\\b" "$tmp/page.txt" || missing="$missing --$o"
	done
	is "$missing" "" "sectorsim(1): every option of sectorsim $c --help"
done

# ---- the worked example of sectorsim-ini(5) runs, on the bundled trace
awk '/^\.EX/ { on = 1; buf = ""; next }
     /^\.EE/ { on = 0; if (buf ~ /^; small\.ini/) printf "%s", buf; next }
     on      { buf = buf $0 "\n" }' "$page5" |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e "s|@pkgdatadir@|$top|g" > "$tmp/small.ini"
[ -s "$tmp/small.ini" ]
ok $? "sectorsim-ini(5): its EXAMPLE is found"
run -q --csv - "$tmp/small.ini"
is "$st" 0 "sectorsim-ini(5): the EXAMPLE configuration runs" || diag "$err"
has "$out" "_Z9vectorAddPKfS0_Pfi" "sectorsim-ini(5): the EXAMPLE simulates the sample kernel"

# ---- bash completion
bc=/usr/share/bash-completion/bash_completion
if ! command -v bash > /dev/null 2>&1 || [ ! -r "$bc" ]; then
	skip "bash-completion is not installed" 13
	done_testing
fi
mkdir -p "$tmp/bin" "$tmp/cfg/timing" "$tmp/work/tracedir"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$SECTORSIM" > "$tmp/bin/sectorsim"
chmod +x "$tmp/bin/sectorsim"
: > "$tmp/cfg/alpha.ini"
: > "$tmp/cfg/timing/beta.ini"
: > "$tmp/work/local.ini"
: > "$tmp/work/t.csv"
# comp WORD...: the completions of the last word, sorted, on one line
comp()
{
	(cd "$tmp/work" && PATH="$tmp/bin:$PATH" SECTORSIM_CONFIG_PATH="$tmp/cfg" \
		bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
		_sectorsim sectorsim "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$bc" "$top/completion/sectorsim" "$@" \
		2>&1) | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}
is "$(comp sectorsim --desc)" "--describe=" "completion: --desc gives --describe="
is "$(comp sectorsim --describe=sec)" "sector_cache" "completion: --describe=TYPE from --list"
is "$(comp sectorsim --describe sd)" "sdcm_cache" "completion: --describe TYPE as two words"
is "$(comp sectorsim --stats=)" "csv json text" "completion: --stats= formats"
is "$(comp sectorsim --dot=)" "full" "completion: --dot=full"
is "$(comp sectorsim --mr)" "--mrc=" "completion: long options parsed from --help"
is "$(comp sectorsim co)" "compare convert" "completion: command names from --list"
is "$(comp sectorsim '')" "alpha.ini camat compare convert local.ini sweep timing/beta.ini tracedir" \
	"completion: CONFIG from --list-configs and *.ini here, plus the commands"
is "$(comp sectorsim -p l2.assoc=8 alpha.ini tr)" "tracedir" \
	"completion: TRACE after CONFIG, options and their values skipped"
is "$(comp sectorsim sweep --p)" "--param= --plot= --points=" "completion: a command's options from NAME --help"
is "$(comp sectorsim convert --format=n)" "native" "completion: convert --format"
is "$(comp sectorsim camat '')" "t.csv tracedir" "completion: camat takes a CSV file"
is "$(comp sectorsim --json '')" "local.ini t.csv tracedir" "completion: --json FILE: the folder's files"

done_testing
