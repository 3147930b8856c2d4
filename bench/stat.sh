#!/bin/bash
# bench/stat.sh - the per-run overhead of "prof stat" next to perf stat 6.1:
# each times "true" 200 times (-r 200), once with --null (timing only) and
# once with the default events (counters opened, read and closed per run).
#
# It times BENCH_REPS runs (default 3) of each of
#   perf/prof stat --null -r 200 -- true
#   perf/prof stat -r 200 -- true
# (reports to /dev/null), prints the medians of wall time and peak RSS and
# the wall time per run of "true" in milliseconds, then the ratios against
# issue 6's target: prof's overhead at most perf's (perf time / prof time
# >= 1).  The status is 0 even when the target is missed (a measurement,
# not a test); non-zero when a command fails.
#
# Environment: PROF (default ./prof), BENCH_REPS (default 3),
# BENCH_STAT_RUNS (default 200).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=40 ratio_width=44
reps=${BENCH_REPS:-3}
runs=${BENCH_STAT_RUNS:-200}

printf 'stat benchmark: -r %d of "true", %d runs each (medians)\n\n' "$runs" "$reps"
printf '  %-40s %10s %12s %12s\n' command time "peak RSS" "per run"
per_run()
{
	awk -v t="$1" -v n="$runs" 'BEGIN { printf "  %62s %8.3f ms\n", "", t / n * 1000 }'
}
measure perf_null "perf stat --null -r $runs -- true 2>/dev/null" "perf stat --null -r $runs -- true"
per_run "$t_perf_null"
measure prof_null "'$PROF' stat --null -r $runs -- true 2>/dev/null" "prof stat --null -r $runs -- true"
per_run "$t_prof_null"
measure perf_ev "perf stat -r $runs -- true 2>/dev/null" "perf stat -r $runs -- true"
per_run "$t_perf_ev"
measure prof_ev "'$PROF' stat -r $runs -- true 2>/dev/null" "prof stat -r $runs -- true"
per_run "$t_prof_ev"

echo
echo "ratios:"
ratio "$t_perf_null" "$t_prof_null" 1 ge "--null: perf time / prof time"
ratio "$t_perf_ev" "$t_prof_ev" 1 ge "default events: perf time / prof time"
ratio "$m_perf_ev" "$m_prof_ev" 1 ge "default events: perf RSS / prof RSS"
