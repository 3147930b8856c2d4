#!/bin/bash
# bench/branch.sh - how fast "prof report" builds perf's branch report
# (one entry per branch of every sample's branch stack) of a big file,
# next to perf 6.1 with the same options.
#
# Input: bench/data/branch.data, made once when missing by
# build/tests/gen_branches (tests/unit/gen_branches.c, prof's writer): a
# process with ./prof mapped (a PIE with thousands of symbols), samples of
# 32 branches each between its functions (hot loops, varied flags and
# cycles), enough for >= 100 MB (BENCH_BRANCH_SAMPLES, default 140000).
# This machine cannot record branch stacks (no LBR in a VM), hence the
# synthetic file.  On the page-cached file it times BENCH_REPS runs
# (default 3) of each of
#   perf/prof report --stdio                   (the default branch keys)
#   perf/prof report --stdio --sort dso_from,dso_to,cycles
# (stdout to /dev/null; perf and prof take turns) and prints the medians
# of wall time and peak RSS, and the ratios against the target of issue
# 20: prof >= 5x faster.  Before timing it checks that both tools print
# the same report (tip line aside).  The status is 0 even when a target
# is missed (a measurement, not a test); non-zero when a command fails.
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 3), BENCH_BRANCH_SAMPLES.

set -eu
. "$(dirname "$0")/lib.bash"
label_width=52 ratio_width=52
reps=${BENCH_REPS:-3}
nr_samples=${BENCH_BRANCH_SAMPLES:-140000}

file=$data_dir/branch.data
if [ ! -f "$file" ]; then
	make -s -C "$root" build/tests/gen_branches >/dev/null
	mkdir -p "$data_dir"
	echo "branch.sh: writing $file ($nr_samples samples of 32 branches)"
	nm "$PROF" | awk '$2 == "T" || $2 == "t" { print $1 }' | sort -u |
		"$root/build/tests/gen_branches" "$file" big "$PROF" "$nr_samples"
fi
cat "$file" >/dev/null

dflt="--stdio"
keys="--stdio --sort dso_from,dso_to,cycles"

# same output first, so the timings compare like with like
for opts in "$dflt" "$keys"; do
	perf report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/perf.out"
	"$PROF" report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/prof.out" || true
	if ! diff -q "$bench_tmp/perf.out" "$bench_tmp/prof.out" >/dev/null; then
		echo "branch.sh: warning: outputs differ for '$opts' ($(diff "$bench_tmp/perf.out" \
			"$bench_tmp/prof.out" | grep -c '^[<>]') lines)" >&2
	fi
done

printf 'branch report benchmark: %s\n  %.1f MB, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$(stat -c %s "$file")" 'BEGIN { print s / 1048576 }')" "$reps"
printf '  %-52s %10s %12s\n' command time "peak RSS"
measure perf_dflt "perf report -i '$file' $dflt" "perf report $dflt" \
	prof_dflt "'$PROF' report -i '$file' $dflt" "prof report $dflt" \
	perf_keys "perf report -i '$file' $keys" "perf report $keys" \
	prof_keys "'$PROF' report -i '$file' $keys" "prof report $keys"

echo
echo "ratios:"
ratio "$t_perf_dflt" "$t_prof_dflt" 5 ge "default branch keys: perf time / prof time"
ratio "$t_perf_keys" "$t_prof_keys" 5 ge "dso_from,dso_to,cycles: perf time / prof time"
