#!/bin/bash
# bench/report.sh - how fast "prof report --stdio" builds a flat profile of a
# big perf.data file, next to perf 6.1 with the same options.
#
# Input: bench/data/sys-fp.data, the system-wide recording with call graphs
# that bench/reader.sh makes (>= 150 MB, >= 1M samples); when it is missing,
# reader.sh is run first to record it.  On the page-cached file it times
# BENCH_REPS runs (default 5) of each of
#   perf/prof report --stdio --no-children -g none
#   perf/prof report --stdio --sort comm,dso -g none
# (stdout to /dev/null; perf and prof take turns) and prints the medians
# of wall time and peak RSS, and the ratios against the targets of issue 3: prof >= 10x faster, with
# at most a quarter of perf's peak RSS.  Before timing it checks that both
# tools print the same report (tip line aside).  The status is 0 even when
# a target is missed (a measurement, not a test); non-zero when a command
# fails.
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 5).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=48 ratio_width=48
reps=${BENCH_REPS:-5}
sys_fp_file



flat="--stdio --no-children -g none"
bydso="--stdio --sort comm,dso -g none"

# same output first, so the timings compare like with like
for opts in "$flat" "$bydso"; do
	perf report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/perf.out"
	"$PROF" report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/prof.out" || true
	if ! diff -q "$bench_tmp/perf.out" "$bench_tmp/prof.out" >/dev/null; then
		echo "report.sh: warning: outputs differ for '$opts' ($(diff "$bench_tmp/perf.out" \
			"$bench_tmp/prof.out" | grep -c '^[<>]') lines)" >&2
	fi
done

printf 'report benchmark: %s\n  %.1f MB, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$(stat -c %s "$file")" 'BEGIN { print s / 1048576 }')" "$reps"
printf '  %-48s %10s %12s\n' command time "peak RSS"
measure perf_flat "perf report -i '$file' $flat" "perf report $flat" \
	prof_flat "'$PROF' report -i '$file' $flat" "prof report $flat"
measure perf_dso "perf report -i '$file' $bydso" "perf report $bydso" \
	prof_dso "'$PROF' report -i '$file' $bydso" "prof report $bydso"

echo
echo "ratios:"
ratio "$t_perf_flat" "$t_prof_flat" 10 ge "--no-children -g none: perf time / prof time"
ratio "$t_perf_dso" "$t_prof_dso" 10 ge "--sort comm,dso: perf time / prof time"
ratio "$m_perf_flat" "$m_prof_flat" 4 ge "--no-children -g none: perf RSS / prof RSS"
ratio "$m_perf_dso" "$m_prof_dso" 4 ge "--sort comm,dso: perf RSS / prof RSS"
