#!/bin/sh
# --dump-config reads back: for every configuration under configs/ (the
# parts aside), its dump dumps again to itself (the header line aside),
# and runs on the configuration's own trace to the same results, byte for
# byte.  The defaults are comments, so a key a component takes only with
# another (granularity with policy = first_wave, say) is not given in vain.
#
# Environment (set by make check): SECTORSIM, G_TEST_SRCDIR.

set -u
srcdir=${G_TEST_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source-path=SCRIPTDIR source=tap.sh
. "$srcdir/tap.sh"

tap_tmpdir test-dump-config
cd "$tmp" || exit 1

for c in $(cd "$cfg" && find . -name '*.ini' ! -path './parts/*' | sort); do
	name=$(echo "${c#./}" | tr / -)
	"$SECTORSIM" --dump-config "$cfg/$c" > "$name.d1" 2> "$name.err"
	is "$?" 0 "$c: dumps" || diag "$(cat "$name.err")"
	"$SECTORSIM" --dump-config "$name.d1" > "$name.d2" 2> "$name.err"
	is "$?" 0 "$c: its dump loads" || diag "$(cat "$name.err")"
	tail -n +2 "$name.d1" > a
	tail -n +2 "$name.d2" > b
	cmp -s a b
	ok $? "$c: its dump dumps to itself"
	grep -q '^; default: ' "$name.d1"
	ok $? "$c: the defaults are there, as comments"
	"$SECTORSIM" --quiet --threads 1 --json "$name.j1" "$cfg/$c" > /dev/null 2> "$name.err"
	st1=$?
	cp "$name.d1" "$name.ini"
	"$SECTORSIM" --quiet --threads 1 --json "$name.j2" "$name.ini" > /dev/null 2> "$name.err2"
	st2=$?
	is "$st1 $st2" "0 0" "$c: it and its dump run" || diag "$(cat "$name.err" "$name.err2")"
	kernels_of_run "$name.j1" > a
	kernels_of_run "$name.j2" > b
	[ -s a ] && cmp -s a b
	ok $? "$c: its dump gives its results, byte for byte"
done

done_testing
