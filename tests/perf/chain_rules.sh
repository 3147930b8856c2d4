#!/bin/bash
# tests/perf/chain_rules.sh - the call-chain cursor's rules (session/chain.h)
# where they meet: --max-stack and a context marker perf does not know.
#
# A synthetic file (build/tests/gen_chains markers, from
# tests/unit/gen_chains.c): user chains of 8 frames in a binary compiled
# here, a third of them with PERF_CONTEXT_GUEST_USER before frame 4 and a
# third starting with it (then one frame and PERF_CONTEXT_USER).  perf
# drops a chain at such a marker (add_callchain_ip()), but stops reading
# the recorded chain at --max-stack (thread__resolve_callchain_sample()),
# so a marker past the limit drops nothing: in callee order the second
# third keeps its first frames under --max-stack 3, in caller order (which
# starts in the cpumode of the last marker, find_prev_cpumode()) the third
# third keeps its outermost ones.  Compared: "report --stdio" in the main
# -g modes, with --max-stack 3 and without, and "script"; the callchain
# stats of "report --stats" against perf script's chains.
#
# prof's report runs with its threads and with --threads 1 (other paths).
# Comparison: stdout, trailing blanks ignored, and exit status; the tip
# line is normalized as in callgraph.sh.

# run-all: cost 5
. "$(dirname "$0")/../lib.sh"
set -o pipefail

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
	skip "chain rules" "gen_chains or the symbol binary could not be built"
	exit 0
fi
nm "$TMP/bin/syms" | awk '$2 == "T" && $3 ~ /^f[0-9]+$/ { print $1 }' >"$TMP/offsets"
if ! "$gen" "$TMP/markers.data" "$TMP/bin/syms" markers 30 8 <"$TMP/offsets" 2>"$TMP/gen.err"; then
	not_ok "chain rules: generate" "$(head -n 1 "$TMP/gen.err")"
	exit 0
fi

for m in "default|" "--no-children|--no-children" "-g caller|-g caller" \
	"-g caller --no-children|-g caller --no-children" "--max-stack 3|--max-stack 3" \
	"--max-stack 3 --no-children|--max-stack 3 --no-children" \
	"--max-stack 3 -g caller|--max-stack 3 -g caller" \
	"--max-stack 3 -g caller --no-children|--max-stack 3 -g caller --no-children" \
	"--max-stack 3 -s dso|--max-stack 3 -s dso" "--max-stack 0|--max-stack 0" \
	"--max-stack 3 -g none|--max-stack 3 -g none" \
	"--max-stack 3 -g none -s dso|--max-stack 3 -g none -s dso"; do
	read -r -a args <<<"${m#*|}"
	report_both "chain rules: report ${m%%|*}" "$TMP/markers.data" "${args[@]}"
	report_both --threads1 "chain rules: report --threads 1 ${m%%|*}" "$TMP/markers.data" \
		"${args[@]}"
done
for m in "" "--max-stack 3" "--max-stack 0"; do
	compare "chain rules: script $m" \
		"perf script -i '$TMP/markers.data' $m" \
		"'$PROF' script -i '$TMP/markers.data' $m"
done

# report --stats: the chains perf script prints, and only those (a dropped
# chain has no entries and no frames)
"$PROF" report --stats -i "$TMP/markers.data" >"$TMP/stats.out" 2>"$TMP/stats.err"
want=$(perf script -i "$TMP/markers.data" 2>/dev/null |
	awk '/^[^ \t]/ { s += n > 0; n = 0 } /^\t/ { n++; e++ } END { s += n > 0; print s + 0, e + 0 }')
got=$(awk '/with a callchain:/ { sub(/\)/, "", $NF); s = $NF }
	/callchain entries:/ { e = $3 } END { print s + 0, e + 0 }' "$TMP/stats.out")
check "chain rules: report --stats: samples with a callchain and entries as perf script's ($want)" \
	test "$got" = "$want"
want=$(perf script -i "$TMP/markers.data" 2>/dev/null | awk '/^\t/ { n++ } END { print n + 0 }')
got=$(awk '$NF == "(total)" { print $1 }' "$TMP/stats.out")
check "chain rules: report --stats: frames as perf script's lines ($want)" test "$got" = "$want"
