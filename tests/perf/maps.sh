#!/bin/bash
# tests/perf/maps.sh - maps that hold no address, beside normal ones.
#
# A synthetic file (build/tests/gen_chains wrap, from
# tests/unit/gen_chains.c): a binary compiled here mapped twice, with an
# MMAP2 whose start + len wraps past 2^64 made between the two maps and an
# empty one (len 0) inside the first, among its symbols.  perf 6.1 keeps
# such maps in its tree, where no lookup finds them (map__new() does not
# clamp the end; the empty one splits the map it falls in); the samples'
# frames fall in both normal maps, on both sides of the empty one, and on
# both sides of 2^64 in the wrapped map's range, where perf finds no map.  Compared: "report --stdio"
# (prof with its threads and with --threads 1), "script" and "report -D".
#
# Comparison: stdout, trailing blanks ignored, and exit status; the tip
# line is normalized as in callgraph.sh.

# run-all: cost 2
. "$(dirname "$0")/../lib.sh"
set -o pipefail

if ! command -v perf >/dev/null; then
	skip "maps" "perf not installed"
	exit 0
fi
gen=$ROOT/build/tests/gen_chains
if [ ! -x "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_chains >/dev/null 2>&1
fi
{
	echo 'static volatile int s;'
	for i in $(seq 0 7); do
		echo "__attribute__((noinline)) void f$i(void) { s += $i; s *= 3; s ^= 5; }"
	done
	echo 'int main(void) { return 0; }'
} >"$TMP/syms.c"
mkdir -p "$TMP/bin"
if [ ! -x "$gen" ] || ! cc -O0 -fno-omit-frame-pointer -o "$TMP/bin/syms" "$TMP/syms.c"; then
	skip "maps" "gen_chains or the symbol binary could not be built"
	exit 0
fi
nm "$TMP/bin/syms" | awk '$2 == "T" && $3 ~ /^f[0-9]+$/ { print $1 }' >"$TMP/offsets"
if ! "$gen" "$TMP/wrap.data" "$TMP/bin/syms" wrap 300 8 <"$TMP/offsets" 2>"$TMP/gen.err"; then
	not_ok "maps: generate" "$(head -n 1 "$TMP/gen.err")"
	exit 0
fi

for m in "default|" "--no-children|--no-children" "-g caller|-g caller" \
	"-s dso,sym|-s dso,sym" "-s dso -g none|-s dso -g none"; do
	read -r -a args <<<"${m#*|}"
	report_both "maps: wrapped and empty map: report ${m%%|*}" "$TMP/wrap.data" "${args[@]}"
	report_both --threads1 "maps: wrapped and empty map: report --threads 1 ${m%%|*}" \
		"$TMP/wrap.data" "${args[@]}"
done
compare "maps: wrapped and empty map: script" \
	"perf script -i '$TMP/wrap.data'" "'$PROF' script -i '$TMP/wrap.data'"
compare "maps: wrapped and empty map: report -D" \
	"perf report -D -i '$TMP/wrap.data'" "'$PROF' report -D -i '$TMP/wrap.data'"
