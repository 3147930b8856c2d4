#!/bin/bash
# tests/perf/branch.sh - branch stacks: "prof report" in branch mode,
# "prof script -F brstack/brstacksym" and "prof diff" against perf 6.1.
#
# Inputs: private copies of the shared fixtures with branch stacks (perf
# refuses files it does not own), and synthetic files written by
# build/tests/gen_branches (tests/unit/gen_branches.c, through prof's
# writer) whose branches land in the functions of a program compiled
# here: resolved and unresolved ends, kernel-looking addresses no map
# holds, ties of equal counts, comms that change, every flag (mispredict,
# predicted, in_tx, abort, cycles, branch types), empty stacks.
#
# Checks: the report (default, --no-children, -g none, --sort with the
# branch keys perf 6.1 orders and does not crash on: dso_from, dso_to,
# cycles, comm, dso, sym, pid; -n; --percent-limit; --no-branch-stack),
# script (default fields and -F lists with brstack/brstacksym) and diff
# of two branch files.  perf 6.1 crashes with a --sort naming symbol_from
# or symbol_to, and its mispredict, in_tx and abort keys are no order
# (entries split, ties in tree order: KNOWN-DIFFERENCES.md): those are
# not compared.

# run-all: cost 6
. "$(dirname "$0")/../lib.sh"

gen=$ROOT/build/tests/gen_branches
if [ ! -x "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_branches >/dev/null 2>&1
fi
if [ ! -x "$gen" ]; then
	not_ok "branch: build/tests/gen_branches could not be built"
	exit 1
fi

files=()
for f in android-simpleperf/perf_b.data google-perf_data_converter/quipper/perf.data.branch-4.14 \
	google-perf_data_converter/quipper/perf.data.branch_stack_spec \
	google-perf_data_converter/quipper/perf.data.callgraph_and_branch-3.8; do
	if [ -f "$FIXTURES/$f" ]; then
		cp "$FIXTURES/$f" "$TMP/$(basename "$f")"
		files+=("$TMP/$(basename "$f")")
	else
		skip "branch: $f" "fixture missing"
	fi
done

# the synthetic files: branches into the functions of w
cat >"$TMP/w.c" <<'C'
int alpha(int x) { return x * 3 + 1; }
int beta(int x) { return x > 5 ? alpha(x) : x - 2; }
int gamma_fn(int x) { int s = 0; for (int i = 0; i < x; i++) s += beta(i); return s; }
int a_very_long_function_name_that_is_wider_than_the_columns_of_the_report(int x) { return gamma_fn(x) + 7; }
int main(int argc, char **argv) { return a_very_long_function_name_that_is_wider_than_the_columns_of_the_report(argc) & 1; }
C
if ! cc -O0 -o "$TMP/w" "$TMP/w.c"; then
	not_ok "branch: the test program does not compile"
	exit 1
fi
declare -A sym
while read -r addr type name; do
	sym[$name]=$((0x$addr))
done < <(nm "$TMP/w" | grep ' T ')
B=$((0x555555554000))
# a NAME [OFFSET]: the address of NAME + OFFSET in the mapped program
a() { printf '0x%x' $((B + ${sym[$1]} + ${2:-0})); }
w=$TMP/w
{
	echo "comm 100 100 worker"
	echo "mmap 100 $(printf 0x%x $B) 0x4000 $w"
	echo "comm 200 200 other"
	echo "mmap 200 $(printf 0x%x $B) 0x4000 $w"
	echo "sample 100 100 u $(a alpha 4) $(a beta 9)/$(a alpha)/0x2 $(a gamma_fn 12)/$(a beta)/0x1 $(a main 4)/$(a gamma_fn)/0x31"
	echo "sample 100 100 u $(a alpha 4) $(a beta 9)/$(a alpha)/0x2 $(a gamma_fn 12)/$(a beta)/0x4 0x0/0x0/0x0"
	echo "sample 100 100 u $(a alpha 4)"
	echo "sample 200 200 u $(a alpha 4) $(a main 2)/$(a a_very_long_function_name_that_is_wider_than_the_columns_of_the_report)/0x8 $(a beta 9)/$(a alpha)/0x2 0xffffffff81000000/$(a alpha)/0x100012 $(a alpha 0x8000)/$(a _start)/0x12340"
	echo "sample 200 201 k 0xffffffff81000010 0xffffffff81000010/0xffffffff81000020/0x0 $(a beta 9)/$(a alpha)/0x3"
	echo "comm 100 100 renamed"
	echo "sample 100 100 u $(a alpha 4) $(a beta 9)/$(a alpha)/0x2 $(a beta 9)/$(a alpha)/0x2 $(a beta 9)/$(a alpha)/0x400000"
	# every branch type, forward and backward, across 4K and 2M
	for t in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
		echo "sample 100 100 u $(a alpha) $(a gamma_fn 4)/$(a alpha 1)/$(printf 0x%x $((t << 20 | (t + 1) << 4 | (t & 1) << 1)))" \
			"$(a alpha 2)/$(a gamma_fn $t)/$(printf 0x%x $((t << 20 | t % 3)))" \
			"$(a alpha 2)/$(a alpha 0x1001)/$(printf 0x%x $((t << 20 | 0xc)))" \
			"$(a alpha 2)/$(a alpha 0x200001)/$(printf 0x%x $((t << 20)))"
	done
} >"$TMP/s1.txt"
# ties: four entries of every count from 1 to 4, over two threads
{
	echo "comm 300 300 tie"
	echo "mmap 300 $(printf 0x%x $B) 0x4000 $w"
	echo "comm 300 301 tie2"
	for n in 1 2 3 4; do
		for k in $(seq $n); do
			echo "sample 300 300 u $(a beta) $(a gamma_fn $n)/$(a beta $k)/0x2 $(a alpha $n)/$(a main $k)/0x1 $(a beta)/$(a alpha 0x6000)/0x$((n))0"
			echo "sample 300 301 u $(a beta) $(a main $n)/$(a alpha $k)/0x$((n))0 0xffffffffff600000/$(a beta $n)/0x2"
		done
	done
	echo "sample 300 301 u $(a beta)"
} >"$TMP/s2.txt"
for s in s1 s2; do
	if "$gen" "$TMP/$s.data" list <"$TMP/$s.txt" 2>"$TMP/gen.err"; then
		files+=("$TMP/$s.data")
	else
		not_ok "branch: gen_branches $s" "$(head -3 "$TMP/gen.err")"
	fi
done

for f in "${files[@]}"; do
	n=$(basename "$f")
	report_both "branch report $n" "$f"
	report_both "branch report $n --no-children" "$f" --no-children
	report_both "branch report $n -g none" "$f" -g none
	report_both "branch report $n -n --show-total-period" "$f" -n --show-total-period
	for s in comm,dso dso_from,dso_to cycles,comm pid,dso_from dso,sym sym,dso sym cycles,dso_to; do
		report_both "branch report $n --sort $s" "$f" --sort "$s"
	done
	report_both "branch report $n --percent-limit 5" "$f" --percent-limit 5
	report_both "branch report $n --no-branch-stack" "$f" --no-branch-stack
	report_both "branch report $n --no-branch-stack --no-children" "$f" --no-branch-stack --no-children
	compare "branch script $n" "perf script -i '$f'" "'$PROF' script -i '$f'"
	for F in ip,brstack,brstacksym comm,ip,sym,brstacksym comm,tid,ip,sym,dso,brstack \
		ip,sym,symoff,dso,brstacksym brstack,dso; do
		compare "branch script $n -F $F" "perf script -F $F -i '$f'" "'$PROF' script -F $F -i '$f'"
	done
done

# diff: perf diff's own sort (dso,symbol) over the samples, not branches
for pair in "0 1" "2 3" "4 5" "1 4"; do
	set -- $pair
	[ $# -eq 2 ] && [ -n "${files[$1]:-}" ] && [ -n "${files[$2]:-}" ] || continue
	f1=${files[$1]} f2=${files[$2]}
	compare "branch diff $(basename "$f1") $(basename "$f2")" \
		"perf diff '$f1' '$f2'" "'$PROF' diff '$f1' '$f2'"
done

# record -b, -j, --call-graph lbr: where the machine cannot sample branch
# stacks (a VM: no LBR) both refuse, prof in one line naming the event
for a in "-b" "-j any,u" "--call-graph lbr"; do
	if perf record -q $a -o "$TMP/rec.data" -- true >/dev/null 2>&1; then
		skip "branch record $a" "this machine samples branch stacks (compared by record.sh's rules only)"
		continue
	fi
	"$PROF" record -q $a -o "$TMP/rec2.data" -- true >/dev/null 2>"$TMP/rec.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/rec.err")" -eq 1 ] &&
		grep -q "doesn't support branch stack sampling" "$TMP/rec.err"; then
		ok "branch record $a refused"
	else
		not_ok "branch record $a refused" "status $rc" "$(head -3 "$TMP/rec.err")"
	fi
done
