#!/bin/bash
# tests/perf/scale.sh - call graphs at scale: deep chains and hundreds of
# thousands of distinct call paths ("prof report --stdio" against "perf
# report --stdio").
#
#  1. A real recording (perf record -g) of a C program whose recursion
#     (two mutually recursive noinline functions, -O0, frame pointers)
#     goes 300 frames deep, past perf_event_max_stack (127 by default): the
#     kernel truncates the chains; compared over the main -g modes and
#     --max-stack below and above the kernel's limit.
#  2. A synthetic file (build/tests/gen_chains, from tests/unit/gen_chains.c)
#     whose samples carry 1000-frame user chains in a binary compiled here
#     (64 noinline functions, so symbols resolve): perf caps them at its
#     --max-stack (default kernel.perf_event_max_stack); prof must print
#     what perf prints, with --max-stack 1000 too.
#  3. Memory bounded by distinct paths, not samples: 250k samples with
#     250k distinct 5-frame chains against 250k samples over only 1000
#     chains; "prof report --stdio -g caller --percent-limit 5" must finish
#     and the second's peak RSS (/usr/bin/time %M) be under half the
#     first's (about 240 MB against 50 MB; 1M paths take 800 MB and prove
#     no more).
#     The same generator's output at 20000 samples is compared with perf.
#     Skipped when the generator or /usr/bin/time is missing.
#
# Comparison: stdout, trailing blanks ignored, and exit status; the tip
# line and perf's "[...] (inlined)" are normalized as in callgraph.sh.

# run-all: cost 15
. "$(dirname "$0")/../lib.sh"
set -o pipefail

# both NAME FILE ARGS...: perf and prof with ARGS on FILE
both() { report_both "scale $1" "${@:2}"; }



# --- 1. real recording, 300 frames of recursion --------------------------
cat >"$TMP/recurse.c" <<'EOF'
/* recurse: ~0.3 s at the bottom of a 300-frame mutual recursion. */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 5;
}

__attribute__((noinline)) void odd(int depth, unsigned long n);

__attribute__((noinline)) void even(int depth, unsigned long n)
{
	if (depth > 0)
		odd(depth - 1, n);
	else
		work(n);
}

__attribute__((noinline)) void odd(int depth, unsigned long n)
{
	if (depth > 0)
		even(depth - 1, n);
	else
		work(n / 2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double end = now() + 0.3;

	while (now() < end) {
		even(300, 200000);
		odd(299, 100000);
	}
	return 0;
}
EOF
mkdir -p "$TMP/bin"
if cc -O0 -fno-omit-frame-pointer -o "$TMP/bin/recurse" "$TMP/recurse.c" &&
	record_workload recurse -g -e cpu-clock -- "$TMP/bin/recurse"; then
	for m in "default|" "--no-children|--no-children" "-g caller|-g caller" "-G|-G" \
		"--max-stack 4|--max-stack 4" "--max-stack 200|--max-stack 200" \
		"--no-children -g caller|--no-children -g caller" "-g folded|-g folded"; do
		read -r -a args <<<"${m#*|}"
		both "recurse 300 ${m%%|*}" "$TMP/recurse.data" "${args[@]}"
	done
else
	not_ok "scale recurse 300: build or record"
fi

# --- the generator ----------------------------------------------------------
gen=$ROOT/build/tests/gen_chains
if [ ! -x "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_chains >/dev/null 2>&1
fi
{
	echo 'static volatile int s;'
	for i in $(seq 0 63); do
		echo "__attribute__((noinline)) void f$i(void) { s += $i; s *= 3; s ^= 5; }"
	done
	echo 'int main(void) { return 0; }'
} >"$TMP/syms.c"
if [ ! -x "$gen" ] || ! cc -O0 -fno-omit-frame-pointer -o "$TMP/bin/syms" "$TMP/syms.c"; then
	skip "scale synthetic chains" "gen_chains or the symbol binary could not be built"
	exit 0
fi
nm "$TMP/bin/syms" | awk '$2 == "T" && $3 ~ /^f[0-9]+$/ { print $1 }' >"$TMP/offsets"

# gen NAME ARGS...: writes $TMP/NAME.data; fails with a message
gen()
{
	local name=$1

	shift
	"$gen" "$TMP/$name.data" "$TMP/bin/syms" "$@" <"$TMP/offsets" 2>"$TMP/gen.err" && return 0
	echo "# gen_chains $name failed: $(head -n 1 "$TMP/gen.err")"
	rm -f "$TMP/$name.data"
	return 1
}

# --- 2. 1000-frame chains ----------------------------------------------------
if gen deep1000 deep 200 1000; then
	for m in "default|" "--no-children|--no-children" "-g caller|-g caller" "-G|-G" \
		"--max-stack 4|--max-stack 4" "--max-stack 127|--max-stack 127" \
		"-g folded|-g folded" "-g fractal --no-children|-g fractal --no-children"; do
		read -r -a args <<<"${m#*|}"
		both "deep1000 ${m%%|*}" "$TMP/deep1000.data" "${args[@]}"
	done
	both "deep1000 --max-stack 1000" "$TMP/deep1000.data" --max-stack 1000
	both "deep1000 --max-stack 1000 -g caller" "$TMP/deep1000.data" --max-stack 1000 -g caller
	both "deep1000 --max-stack 1000 --no-children" "$TMP/deep1000.data" \
		--max-stack 1000 --no-children
else
	not_ok "scale deep1000: generate"
fi

# chains longer than the pipe between report's threads takes in one item
# (about 7000 frames; a record holds at most about 8000): added on the
# reading thread, as perf reports them
if gen deep8000 deep 20 8000; then
	both "deep8000 --max-stack 8000 --no-children" "$TMP/deep8000.data" \
		--max-stack 8000 --no-children
	both "deep8000 --max-stack 8000" "$TMP/deep8000.data" --max-stack 8000
	rm -f "$TMP/deep8000.data"
else
	not_ok "scale deep8000: generate"
fi

# --- 3. many distinct paths -------------------------------------------------
if gen paths20k paths 20000 5 20000; then
	both "paths 20k distinct -g caller --percent-limit 5" "$TMP/paths20k.data" \
		-g caller --percent-limit 5
	both "paths 20k distinct --no-children" "$TMP/paths20k.data" --no-children
	rm -f "$TMP/paths20k.data"
else
	not_ok "scale paths20k: generate"
fi

# a report of more than 16384 entries with call graphs: its rows are
# formatted in two halves at once and written out between the graphs
# (at 0.05% the entries with graphs end before the second half starts).
# The binary's 20000 functions (7 bytes each, frame pointer set up) are
# written in assembly: gcc takes some 10 s of CPU over as many in C.
awk 'BEGIN {
	print "\t.text"
	for (i = 0; i < 20000; i++)
		printf "\t.globl g%d\n\t.type g%d, @function\ng%d:\n\tpushq %%rbp\n" \
			"\tmovq %%rsp, %%rbp\n\tnop\n\tpopq %%rbp\n\tret\n\t.size g%d, .-g%d\n", i, i, i, i, i
	print "\t.globl main\n\t.type main, @function\nmain:\n\txorl %eax, %eax\n\tret"
	print "\t.size main, .-main\n\t.section .note.GNU-stack,\"\",@progbits"
}' >"$TMP/wide.s"
if cc -o "$TMP/bin/wide" "$TMP/wide.s" &&
   nm "$TMP/bin/wide" | awk '$2 == "T" && $3 ~ /^g[0-9]+$/ { print $1 }' >"$TMP/wide.offsets" &&
   "$gen" "$TMP/wide.data" "$TMP/bin/wide" paths 20000 5 20000 <"$TMP/wide.offsets" 2>"$TMP/gen.err"; then
	entries=$("$PROF" report -i "$TMP/wide.data" --stdio -g none 2>/dev/null | grep -c '%')
	if [ "${entries:-0}" -gt 16384 ]; then
		ok "scale wide: $entries entries"
	else
		not_ok "scale wide: $entries entries, not over 16384"
	fi
	both "wide -g graph,0.05" "$TMP/wide.data" -g graph,0.05
	both "wide -g caller,0" "$TMP/wide.data" -g caller,0
	rm -f "$TMP/wide.data"
else
	not_ok "scale wide: generate ($(head -n 1 "$TMP/gen.err"))"
fi

# rss NAME: peak RSS in KB of the report on $TMP/NAME.data (empty on failure)
rss()
{
	/usr/bin/time -f %M -o "$TMP/$1.rss" timeout -k 5 60 "$PROF" report --stdio \
		-i "$TMP/$1.data" -g caller --percent-limit 5 >"$TMP/$1.out" 2>"$TMP/$1.err" &&
		cat "$TMP/$1.rss"
}

if [ ! -x /usr/bin/time ]; then
	skip "scale memory by distinct paths" "/usr/bin/time is missing"
elif gen m1 paths 250000 5 250000 && many=$(rss m1) && rm -f "$TMP/m1.data" &&
	gen m2 paths 250000 5 1000 && few=$(rss m2) && rm -f "$TMP/m2.data"; then
	if [ "$few" -lt $((many / 2)) ]; then
		ok "scale memory by distinct paths (250k paths: $many KB, 1000 paths: $few KB)"
	else
		not_ok "scale memory by distinct paths" \
			"250k samples, 250k paths: $many KB; 250k samples, 1000 paths: $few KB"
	fi
else
	skip "scale memory by distinct paths" "generating or reporting the 250k-sample files failed"
fi
