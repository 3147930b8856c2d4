#!/bin/bash
# tests/perf/plt.sh - samples in a binary's PLT are named as perf 6.1 names
# them.
#
# perf 6.1 inserts its synthesized "name@plt" symbols into the symbol tree
# after stretching the zero-size _init over .plt, and finds a symbol by
# descending the tree, so a PLT sample shows as "name@plt", "_init" or a
# bare address depending on the tree's shape.  Each workload here calls
# tiny libc functions (abs, labs) through the PLT in a hot loop, 10M
# times (about 5000 samples, some 2% of them in the PLT, 20% in abs and
# labs): a PIE, a non-PIE, both with
# IBT PLTs (.plt + .plt.sec, -z ibtplt), one linked -z now, and a shared
# library with a plain and with an IBT PLT.  Each file is recorded with the
# system perf at -F 20000 and compared (stdout and status) with
# --sort dso,sym and with the default keys, -g none --no-children.
#
# A check fails, too, when perf shows no sample in the workload's own
# binary outside its loop function: then the PLT was not exercised.

# run-all: cost 13
. "$(dirname "$0")/../lib.sh"

if ! command -v perf >/dev/null || ! command -v cc >/dev/null; then
	skip "plt" "perf or cc not installed"
	exit 0
fi

cat >"$TMP/loop.c" <<'EOF'
#include <stdlib.h>

volatile long sink;

long work(long n);

__attribute__((noinline)) long work(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++) {
		s += labs(i - 5);
		s += abs((int)i);
	}
	return s;
}

#ifndef LIBRARY
int main(void)
{
	sink = work(10000000);
	return 0;
}
#endif
EOF
cat >"$TMP/main.c" <<'EOF'
long work(long n);
volatile long sink;

int main(void)
{
	sink = work(10000000);
	return 0;
}
EOF

cflags="-O2 -fno-builtin -fno-inline"
ibt="-fcf-protection -Wl,-z,ibtplt"
build()
{
	local name=$1

	shift
	cc $cflags "$@" -o "$TMP/$name" 2>"$TMP/$name.cc.err"
}

# name: how it is built (the first word is the binary perf reports)
declare -A how=(
	[pie]="pie"
	[nopie]="nopie"
	[pie-ibt]="pie-ibt"
	[nopie-ibt]="nopie-ibt"
	[pie-ibt-now]="pie-ibt-now"
	[lib]="libplt.so"
	[lib-ibt]="libpltibt.so"
)
ok_build=1
build pie "$TMP/loop.c" -fPIE -pie || ok_build=0
build nopie "$TMP/loop.c" -fno-PIE -no-pie || ok_build=0
build pie-ibt "$TMP/loop.c" -fPIE -pie $ibt || ok_build=0
build nopie-ibt "$TMP/loop.c" -fno-PIE -no-pie $ibt || ok_build=0
build pie-ibt-now "$TMP/loop.c" -fPIE -pie $ibt -Wl,-z,now || ok_build=0
build libplt.so -DLIBRARY -shared -fPIC "$TMP/loop.c" || ok_build=0
build libpltibt.so -DLIBRARY -shared -fPIC $ibt "$TMP/loop.c" || ok_build=0
build lib "$TMP/main.c" -L"$TMP" -lplt -Wl,-rpath,"$TMP" || ok_build=0
build lib-ibt "$TMP/main.c" -L"$TMP" -lpltibt -Wl,-rpath,"$TMP" || ok_build=0
if [ $ok_build -eq 0 ]; then
	not_ok "plt workloads build" "$(cat "$TMP"/*.cc.err | head -n 5)"
	exit 1
fi

for w in pie nopie pie-ibt nopie-ibt pie-ibt-now lib lib-ibt; do
	record_workload "plt-$w" -F 20000 -e cpu-clock -- "$TMP/$w" || {
		not_ok "plt $w recorded"
		continue
	}
	data=$TMP/plt-$w.data
	dso=${how[$w]}
	outputs "perf report --stdio -q -i '$data' --no-children -g none --sort dso,sym" \
		"'$PROF' report --stdio -q -i '$data' --no-children -g none --sort dso,sym"
	# samples of the binary that holds the PLT, outside its loop (in
	# perf's report: the file has no call chains)
	n=$(awk -v d="$dso" '$2 == d && $NF != "work"' "$TMP/perf.out" | wc -l)
	if [ "$n" -eq 0 ]; then
		not_ok "plt $w: samples in $dso's PLT" "perf shows none: the PLT was not exercised"
	else
		ok "plt $w: samples in $dso's PLT"
	fi
	judge "plt $w --sort dso,sym" "$rc_perf" "$rc_prof"
	compare "plt $w default keys" \
		"perf report --stdio -q -i '$data' --no-children -g none 2>/dev/null" \
		"'$PROF' report --stdio -q -i '$data' --no-children -g none"
done
