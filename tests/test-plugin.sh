#!/bin/sh
# The test plugin loaded by the sectorsim binary from an INI, wired with
# fan-in through a vector port; its statistics must match hand-computed
# values (see tests/data/plugin-fanin.ini).
set -u
: "${SECTORSIM:?set by make check}" "${G_TEST_SRCDIR:?set by make check}"
n=0
failed=0
check() {	# description, command...
	n=$((n + 1))
	desc=$1
	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=1
	fi
}

echo 1..21
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ini="$G_TEST_SRCDIR/data/plugin-fanin.ini"

check "run succeeds" "$SECTORSIM" --quiet --stats csv -o "$out/stats.csv" "$ini"
value() { grep "^run,$1," "$out/stats.csv" | cut -d, -f3; }
check "sink.tokens = 15" test "$(value sink.tokens)" = 15
check "sink.value_sum = 695" test "$(value sink.value_sum)" = 695
check "sink.mean_value = 46.333333" test "$(value sink.mean_value)" = 46.333333
check "sink.latency_sum = 45" test "$(value sink.latency_sum)" = 45
check "in[i] carries src[i]: 4, 5, 6 tokens" \
	test "$(value 'sink.from\[0\].tokens') $(value 'sink.from\[1\].tokens') $(value 'sink.from\[2\].tokens')" = "4 5 6"
check "src.sent sums the array" test "$(value src.sent)" = 15
"$SECTORSIM" "$ini" >/dev/null 2>"$out/err"
check "the summary line ends at tick 8" grep -q ' events to tick 8 in ' "$out/err"

# The built-in sector_cache between two test components, on the reference
# cache's 12-access unit vector (tests/data/cli-cache.ini).
cache="$G_TEST_SRCDIR/data/cli-cache.ini"
check "sector_cache run succeeds" "$SECTORSIM" --quiet --stats csv -o "$out/cache.csv" "$cache"
cvalue() { grep "^run,$1," "$out/cache.csv" | cut -d, -f3; }
check "7 loads, 6 missed, 5 of them line misses" \
	test "$(cvalue l2.global_load_accesses) $(cvalue l2.global_load_hits) $(cvalue l2.global_load_line_misses)" = "7 1 5"
check "5 stores, 4 missed" \
	test "$(cvalue l2.global_store_accesses) $(cvalue l2.global_store_hits)" = "5 1"
check "6 sector reads sent down" test "$(cvalue l2.reads_down)" = 6
check "4 dirty sectors written back on eviction" test "$(cvalue l2.wb_evict)" = 4
check "1 dirty sector written back by the flush" test "$(cvalue l2.wb_flush)" = 1
check "the level below saw 6 reads and 5 writes" \
	test "$(cvalue dram.reads) $(cvalue dram.writes)" = "6 5"
check "the flush was passed down after the write-back" test "$(cvalue dram.controls)" = 1
check "hit rate 2/12" test "$(cvalue l2.hit_rate)" = 0.166667

# Only the entry point may be visible: everything else stays private.
so="${SECTORSIM_PLUGIN_PATH%%:*}/token_plugin.so"
if command -v nm >/dev/null; then
	check "the plugin exports only sectorsim_plugin_register" \
		test "$(nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }')" = sectorsim_plugin_register
else
	n=$((n + 1))
	echo "ok $n # SKIP nm not installed"
fi
# plugin_path = . is the INI file's folder, whatever folder runs it and
# however the file is named (a relative name from elsewhere); a plugin not
# found names every folder searched
mkdir "$out/sub"
cp "$so" "$out/sub/"
printf '%s\n' "[simulation]" "plugin_path = .:nothere" "plugins = token_plugin" "" \
	"[component src]" "type = token_source" "" "[component sink]" "type = token_sink" "" \
	"[link t]" "from = src.out" "to = sink.in[0]" > "$out/sub/p.ini"
check "plugin_path = ., the INI named relatively from another folder" \
	sh -c "cd '$out' && SECTORSIM_PLUGIN_PATH= '$SECTORSIM' --quiet sub/p.ini"
sed 's/^plugins = token_plugin$/plugins = token_plugin, missing_one/' "$out/sub/p.ini" > "$out/sub/q.ini"
(cd "$out" && SECTORSIM_PLUGIN_PATH= "$SECTORSIM" sub/q.ini) > /dev/null 2> "$out/err"
check "a plugin not found: exit 2" test "$?" = 2
check "a plugin not found: every folder searched is named" \
	grep -q "not found as missing_one.so in: $out/sub, $out/sub/nothere, " "$out/err"
exit $failed
