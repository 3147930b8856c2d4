#!/bin/bash
# tests/perf/chainstats.sh - the "Callchain stats:" block of "prof report
# --stats" against independent facts about recordings made at test time.
#
# Files: a C program that recurses to a known depth (20 frames of rec()
# under main, then leaf()), built -O0 with frame pointers; the same
# program built -O2 without frame pointers, whose leaf keeps a data
# pointer in rbp as optimized code does (pinned with a register variable,
# so the test does not depend on the compiler's register choice): the
# kernel's frame-pointer walk then reads a data word as the return address.
#
# Checks: perf's part of the output equals "perf report --stats" and "-g
# none" prints that part only; samples equal perf's SAMPLE count; entries,
# samples with a callchain, average and maximum depth, distinct call paths
# and the tree's depth equal what "perf script" shows for the same file
# (callchain lines per sample; caller-first prefixes of "symbol (dso)",
# or "address (dso)" for [unknown]); the deepest chain holds the known 20
# rec() frames; frames and [unknown] frames per shared object equal perf
# script's; the program without frame pointers has short chains and about
# half its frames [unknown].  A file recorded without -g has no block.

# run-all: cost 8
. "$(dirname "$0")/../lib.sh"
set -o pipefail

if [ "$(uname -m)" != x86_64 ]; then
	skip "callchain stats" "the workload pins rbp: x86_64 only"
	exit 0
fi

cat >"$TMP/rec.c" <<'EOF'
/* rec: ~0.3 s in leaf() under DEPTH frames of rec() under main(). */
#include <time.h>

#define DEPTH 20

static volatile unsigned long sink;
static unsigned long data[64];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void leaf(void)
{
#ifdef NOFP
	register unsigned long *p asm("rbp") = data;
#else
	unsigned long *p = data;
#endif

	for (int r = 0; r < 1000; r++)
		for (int i = 0; i < 64; i++) {
			__asm__ volatile("" : "+r"(p));
			sink += p[i];
		}
}

__attribute__((noinline)) void rec(int n)
{
	if (n > 1)
		rec(n - 1);
	else
		leaf();
	sink++;
}

int main(void)
{
	double end;

	for (int i = 0; i < 64; i++)
		data[i] = i * 8 + 1;	/* no address anything maps */
	end = now() + 0.3;
	while (now() < end)
		rec(DEPTH);
	return 0;
}
EOF
mkdir -p "$TMP/bin"
cc -O0 -fno-omit-frame-pointer -o "$TMP/bin/rec" "$TMP/rec.c" &&
	cc -O2 -fomit-frame-pointer -DNOFP -o "$TMP/bin/rec-nofp" "$TMP/rec.c" || {
	not_ok "build the workloads"
	exit 1
}
record_workload fp -g -e cpu-clock -- "$TMP/bin/rec" || exit 1
record_workload nofp -g -e cpu-clock -- "$TMP/bin/rec-nofp" || exit 1
record_workload flat -e cpu-clock -- "$TMP/bin/rec" || exit 1

# field FILE LABEL: the first number after "LABEL:" in prof's block
field()
{
	sed -n "s/^ *$2: *\([0-9.]*\).*/\1/p" "$1" | head -n 1
}

# script_facts DATA [CUT]: from perf script, "samples with_chain entries
# max_depth paths tree_depth max_rec unknown" (see the header); the paths
# and tree depth from at most CUT frames (default 127) of each chain's
# caller end
script_facts()
{
	perf script -i "$1" 2>/dev/null | awk -v cut="${2:-127}" '
	function flush(   i, key, depth) {
		if (!in_sample)
			return
		if (n) {
			with_chain++
			entries += n
			if (n > max_depth)
				max_depth = n
		}
		if (r > max_rec)
			max_rec = r
		depth = n < cut ? n : cut
		if (depth > tree_depth)
			tree_depth = depth
		key = ""
		for (i = n; i >= 1 && n - i < cut; i--) {
			key = key ";" frame[i]
			if (!(key in seen)) {
				seen[key] = 1
				paths++
			}
		}
		in_sample = 0
	}
	/^[^ \t]/ { flush(); samples++; in_sample = 1; n = 0; r = 0; next }
	/^\t/ {
		dso = $NF
		sym = $2
		if (sym == "[unknown]") {
			sym = $1
			unknown++
		}
		sub(/\+0x[0-9a-f]+$/, "", sym)
		frame[++n] = sym " " dso
		if (sym == "rec")
			r++
		next
	}
	END {
		flush()
		print samples + 0, with_chain + 0, entries + 0, max_depth + 0,
			paths + 0, tree_depth + 0, max_rec + 0, unknown + 0
	}'
}

# script_dsos DATA: "name frames unknown" per shared object, by name
script_dsos()
{
	perf script -i "$1" 2>/dev/null | awk '
	/^\t/ {
		dso = $NF
		gsub(/^\(|\)$/, "", dso)
		if (dso !~ /^\[/)
			sub(/.*\//, "", dso)
		frames[dso]++
		if ($2 == "[unknown]")
			unknown[dso]++
	}
	END { for (d in frames) print d, frames[d], unknown[d] + 0 }' | sort
}

# prof_dsos OUT: the same from prof's table (names without blanks)
prof_dsos()
{
	sed -n '/^ *frames  *unknown  *share  *Shared Object$/,$p' "$1" |
		awk 'NR > 1 && $4 !~ /^\(/ { print $4, $1, $2 }' | sort
}

# perf_samples DATA: SAMPLE events in perf's aggregated stats
perf_samples()
{
	perf report --stats -i "$1" 2>/dev/null |
		awk '/^Aggregated stats/ { on = 1 }
		     on && $1 == "SAMPLE" { print $3; exit }'
}

# check_file NAME: the block of $TMP/NAME.data against perf script
check_file()
{
	local name=$1 data=$TMP/$1.data out=$TMP/$1.out got want
	local s wc e md p td mr u

	if ! "$PROF" report --stats -i "$data" >"$out" 2>"$TMP/$name.err"; then
		not_ok "$name: prof report --stats" "$(failure_detail "$TMP/$name.err")"
		return
	fi
	compare "$name: perf's part equals perf report --stats" \
		"perf report --stats -i '$data'" \
		"'$PROF' report --stats -i '$data' | strip_chainstats"
	compare "$name: -g none prints perf's part only" \
		"perf report --stats -g none -i '$data'" \
		"'$PROF' report --stats -g none -i '$data'"
	read -r s wc e md p td mr u < <(script_facts "$data")
	want=$(perf_samples "$data")
	got=$(field "$out" samples)
	check "$name: samples equal perf's SAMPLE events ($want)" test "$got" = "$want"
	check "$name: samples equal perf script's ($s)" test "$got" = "$s"
	got=$(sed -n 's/.*(with a callchain: \([0-9]*\)).*/\1/p' "$out")
	check "$name: samples with a callchain ($wc)" test "$got" = "$wc"
	check "$name: callchain entries = perf script's lines ($e)" \
		test "$(field "$out" "callchain entries")" = "$e"
	want=$(awk -v e="$e" -v n="$wc" 'BEGIN { printf "%.1f", n ? e / n : 0 }')
	check "$name: average depth ($want)" test "$(field "$out" "average depth")" = "$want"
	check "$name: maximum depth ($md)" test "$(field "$out" "maximum depth")" = "$md"
	check "$name: distinct call paths ($p)" test "$(field "$out" "distinct call paths")" = "$p"
	check "$name: tree max depth ($td)" test "$(field "$out" "tree max depth")" = "$td"
	got=$(awk '$NF == "(total)" { print $2 }' "$out")
	check "$name: [unknown] frames = perf script's ($u)" test "$got" = "$u"
	script_dsos "$data" >"$TMP/$name.want-dsos"
	prof_dsos "$out" >"$TMP/$name.got-dsos"
	if cmp -s "$TMP/$name.want-dsos" "$TMP/$name.got-dsos"; then
		ok "$name: frames and [unknown] frames per shared object"
	else
		not_ok "$name: frames and [unknown] frames per shared object" \
			"$(diff "$TMP/$name.want-dsos" "$TMP/$name.got-dsos" | head -n 10)"
	fi
	eval "${name}_max_rec=$mr"
}

check_file fp
check_file nofp

# --max-stack cuts the tree at the caller end
read -r _ _ _ _ p td _ < <(script_facts "$TMP/fp.data" 10)
"$PROF" report --stats --max-stack 10 -i "$TMP/fp.data" >"$TMP/fp10.out" 2>&1
check "fp: --max-stack 10: distinct call paths ($p)" \
	test "$(field "$TMP/fp10.out" "distinct call paths")" = "$p"
check "fp: --max-stack 10: tree max depth ($td)" \
	test "$(field "$TMP/fp10.out" "tree max depth")" = "$td"

# the recursion: 20 rec() frames (perf script's count), plus leaf and main
out=$TMP/fp.out
check "fp: perf script's deepest chain has the 20 rec() frames" test "$fp_max_rec" = 20
check "fp: maximum depth covers leaf, 20 rec() and main" \
	test "$(field "$out" "maximum depth")" -ge 22
# without frame pointers the walk stops after a data word: short chains,
# about half the frames [unknown]
nofp_avg=$(field "$TMP/nofp.out" "average depth")
check "nofp: chains are short (average $nofp_avg)" \
	awk -v a="$nofp_avg" 'BEGIN { exit !(a < 5) }'
share=$(awk '$NF == "(total)" { sub(/%/, "", $3); print $3 }' "$TMP/nofp.out")
check "nofp: a large share of frames is [unknown] ($share%)" \
	awk -v s="$share" 'BEGIN { exit !(s >= 30) }'
share=$(awk '$NF == "(total)" { sub(/%/, "", $3); print $3 }' "$TMP/fp.out")
check "fp: almost no frame is [unknown] ($share%)" \
	awk -v s="$share" 'BEGIN { exit !(s < 5) }'

# no call chains: perf's counts only
compare "no -g: perf's output only" \
	"perf report --stats -i '$TMP/flat.data'" \
	"'$PROF' report --stats -i '$TMP/flat.data'"
