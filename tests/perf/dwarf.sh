#!/bin/bash
# tests/perf/dwarf.sh - DWARF call graphs (perf record --call-graph dwarf)
# of "prof report" and "prof script" against perf 6.1 on recordings made
# at test time.
#
# Files: a C program with a known call tree (a diamond, recursion whose
# frames outgrow the 8 KB stack copy, a qsort callback through libc)
# built with Debian's default flags (-O2 -g, no frame pointers) and at
# -O0; a C++ program (templates, virtual calls, std::sort); a shell
# workload of several processes running Debian binaries.
#
# Comparison: report stdout (--no-children, children, -g caller) with the
# tip line normalized, and each sample's chain from "perf script -F
# ip,sym" against "prof script -F ip,sym"; the share of samples whose
# chains are equal must be at least 99%.  perf runs with --no-inline:
# prof does not add inlined frames (from DWARF debug info) yet, and with
# Debian's libc6-dbg installed perf adds them to most chains
# (KNOWN-DIFFERENCES.md).

. "$(dirname "$0")/../lib.sh"
set -o pipefail

cat >"$TMP/tree.c" <<'EOF'
/* tree: ~0.3 s in a fixed call tree. */
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) void deep(int depth, unsigned long n)
{
	volatile char pad[700];

	pad[depth % 700] = (char)depth;
	if (depth > 0)
		deep(depth - 1, n);
	else
		leaf(n);
	sink += pad[depth % 700];
}

__attribute__((noinline)) void left(unsigned long n) { leaf(n); sink++; }
__attribute__((noinline)) void right(unsigned long n) { leaf(n / 2); sink++; }

__attribute__((noinline)) void diamond(unsigned long n)
{
	left(n);
	right(n);
	sink++;
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline)) void sorting(unsigned *v, int nr)
{
	for (int i = 0; i < nr; i++)
		v[i] = (unsigned)i * 2654435761u;
	qsort(v, nr, sizeof(*v), cmp);
}

int main(void)
{
	static unsigned v[20000];

	for (int k = 0; k < 150; k++) {
		diamond(1000000);
		deep(k % 16, 1000000);
		if (k % 10 == 0)
			sorting(v, 20000);
	}
	return sink == 1;
}
EOF

cat >"$TMP/shapes.cc" <<'EOF'
// shapes: virtual calls, templates and std::sort, ~0.3 s.
#include <algorithm>
#include <memory>
#include <vector>

namespace geo {
struct shape {
	virtual ~shape() {}
	virtual double area(int n) const = 0;
};
struct square : shape {
	double s;
	explicit square(double x) : s(x) {}
	double area(int n) const override;
};
struct circle : shape {
	double r;
	explicit circle(double x) : r(x) {}
	double area(int n) const override;
};
__attribute__((noinline)) double square::area(int n) const
{
	double a = 0;
	for (int i = 0; i < n; i++)
		a += s * s + i;
	return a;
}
__attribute__((noinline)) double circle::area(int n) const
{
	double a = 0;
	for (int i = 0; i < n; i++)
		a += 3.14159 * r * r + i;
	return a;
}
template <typename T> __attribute__((noinline)) T total(const std::vector<std::unique_ptr<shape>> &v, int n)
{
	T t = 0;
	for (auto &s : v)
		t += (T)s->area(n);
	return t;
}
} // namespace geo

int main()
{
	std::vector<std::unique_ptr<geo::shape>> v;
	std::vector<long> keys(200000);
	volatile double sink = 0;

	for (int i = 0; i < 64; i++) {
		if (i % 2)
			v.emplace_back(new geo::square(i));
		else
			v.emplace_back(new geo::circle(i));
	}
	for (int k = 0; k < 40; k++) {
		sink = sink + geo::total<double>(v, 2000) + geo::total<long>(v, 1000);
		for (size_t i = 0; i < keys.size(); i++)
			keys[i] = (long)((i * 2654435761u + k) % 100003);
		std::sort(keys.begin(), keys.end());
	}
	return sink < 0;
}
EOF

# perf's and prof's chain of each sample of FILE, one line per sample;
# prints "EQUAL TOTAL"
chain_parity()
{
	local file=$1

	perf script -i "$file" -F ip,sym --no-inline 2>/dev/null |
		awk 'BEGIN { RS = ""; ORS = "\n" } { gsub(/[ \t\n]+/, " "); print }' >"$TMP/chains.perf"
	"$PROF" script -i "$file" -F ip,sym 2>/dev/null |
		awk 'BEGIN { RS = ""; ORS = "\n" } { gsub(/[ \t\n]+/, " "); print }' >"$TMP/chains.prof"
	paste "$TMP/chains.perf" "$TMP/chains.prof" |
		awk -F '\t' '{ n++; if ($1 == $2) eq++ } END { print eq + 0, n + 0 }'
	[ "$(wc -l <"$TMP/chains.perf")" = "$(wc -l <"$TMP/chains.prof")" ]
}

# checks NAME FILE: the comparisons on one recording
checks()
{
	local name=$1 file=$2 parity eq total

	compare "dwarf $name --no-children" \
		"tipless perf report --stdio --no-inline -i '$file' --no-children 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$file' --no-children"
	compare "dwarf $name children" \
		"tipless perf report --stdio --no-inline -i '$file' 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$file'"
	compare "dwarf $name -g caller" \
		"tipless perf report --stdio --no-inline -i '$file' --no-children -g caller 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$file' --no-children -g caller"
	compare "dwarf $name --max-stack 3" \
		"tipless perf report --stdio --no-inline -i '$file' --no-children --max-stack 3 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$file' --no-children --max-stack 3"
	if ! parity=$(chain_parity "$file"); then
		not_ok "dwarf $name chains" "sample counts differ: $parity"
		return
	fi
	read -r eq total <<<"$parity"
	if [ "$total" -gt 0 ] && [ $((eq * 100)) -ge $((total * 99)) ]; then
		ok "dwarf $name chains ($eq of $total samples equal)"
	else
		not_ok "dwarf $name chains" "$eq of $total samples have perf's chain" \
			"$(diff "$TMP/chains.perf" "$TMP/chains.prof" | head -6)"
	fi
}

if ! cc -O2 -g -o "$TMP/tree-O2" "$TMP/tree.c" || ! cc -O0 -g -o "$TMP/tree-O0" "$TMP/tree.c"; then
	skip "dwarf" "no C compiler"
	exit 0
fi
for opt in O2 O0; do
	if perf record -q --call-graph dwarf -e cpu-clock -o "$TMP/tree-$opt.data" \
		"$TMP/tree-$opt" >/dev/null 2>&1; then
		checks "C -$opt" "$TMP/tree-$opt.data"
	else
		skip "dwarf C -$opt" "perf record --call-graph dwarf failed"
	fi
done

if c++ -O2 -g -o "$TMP/shapes" "$TMP/shapes.cc" 2>/dev/null &&
	perf record -q --call-graph dwarf -e cpu-clock -o "$TMP/shapes.data" "$TMP/shapes" >/dev/null 2>&1; then
	checks "C++" "$TMP/shapes.data"
else
	skip "dwarf C++" "no C++ compiler or perf record failed"
fi

# several processes, Debian's own binaries (no frame pointers)
if perf record -q --call-graph dwarf,4096 -e cpu-clock -o "$TMP/shell.data" -- sh -c \
	'for i in 1 2 3; do seq 1 150000 | sort -r | md5sum; gzip -c /usr/bin/perf >/dev/null; done' \
	>/dev/null 2>&1; then
	checks "shell" "$TMP/shell.data"
else
	skip "dwarf shell" "perf record failed"
fi
