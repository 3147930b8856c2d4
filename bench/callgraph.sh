#!/bin/bash
# bench/callgraph.sh - how fast "prof report --stdio" prints call graphs of
# a big perf.data file, next to perf 6.1 with the same options (issue 4).
#
# Input: bench/data/sys-fp.data, the system-wide frame-pointer recording
# that bench/reader.sh makes (>= 150 MB, >= 2M samples); when it is missing,
# reader.sh is run first to record it.  On the page-cached file it times
# BENCH_REPS runs (default 3; perf takes about a minute per run here) of
#   perf/prof report --stdio                 (children + graph, the default)
#   perf/prof report --stdio -g caller
#   perf/prof report --stdio --no-children
#   taskset -c 0 prof report --stdio --threads 1   (one thread on one CPU)
# (stdout to /dev/null; perf and prof take turns) and prints the medians
# of wall time and peak RSS,
# and the ratios against the targets of issue 4: >= 20x, 20x and 10x faster,
# one thread still >= 10x, and at most a fifth of perf's peak RSS for the
# default.  Before timing it checks that both tools print the same report
# (tip line aside) and says how many lines differ if they do not.  The
# status is 0 even when a target is missed (a measurement, not a test).
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 3).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=44 ratio_width=44
reps=${BENCH_REPS:-3}
sys_fp_file

default="--stdio"
caller="--stdio -g caller"
self="--stdio --no-children"

for opts in "$default" "$caller" "$self"; do
	perf report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/perf.out"
	"$PROF" report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/prof.out" || true
	if ! cmp -s "$bench_tmp/perf.out" "$bench_tmp/prof.out"; then
		echo "callgraph.sh: note: outputs differ for '$opts': $(diff "$bench_tmp/perf.out" \
			"$bench_tmp/prof.out" | grep -c '^[<>]') of $(wc -l <"$bench_tmp/perf.out") lines" >&2
	fi
done
rm -f "$bench_tmp/perf.out" "$bench_tmp/prof.out"

printf 'call-graph benchmark: %s\n  %.1f MB, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$(stat -c %s "$file")" 'BEGIN { print s / 1048576 }')" "$reps"
printf '  %-44s %10s %12s\n' command time "peak RSS"
measure perf_def "perf report -i '$file' $default" "perf report $default" \
	prof_def "'$PROF' report -i '$file' $default" "prof report $default" \
	prof_one "taskset -c 0 '$PROF' report -i '$file' $default --threads 1" \
	"prof report $default --threads 1 (one CPU)"
measure perf_caller "perf report -i '$file' $caller" "perf report $caller" \
	prof_caller "'$PROF' report -i '$file' $caller" "prof report $caller"
measure perf_self "perf report -i '$file' $self" "perf report $self" \
	prof_self "'$PROF' report -i '$file' $self" "prof report $self"

echo
echo "ratios:"
ratio "$t_perf_def" "$t_prof_def" 20 ge "default: perf time / prof time"
ratio "$t_perf_def" "$t_prof_one" 10 ge "default, one thread: perf / prof"
ratio "$t_perf_caller" "$t_prof_caller" 20 ge "-g caller: perf time / prof time"
ratio "$t_perf_self" "$t_prof_self" 10 ge "--no-children: perf time / prof time"
ratio "$m_perf_def" "$m_prof_def" 5 ge "default: perf RSS / prof RSS"
