#!/bin/bash
# bench/tracepoint.sh - how fast "prof script" prints the samples of a big
# recording of tracepoints, next to perf 6.1 on the same file.
#
# Input: bench/data/sched.data, recorded here once when missing: every
# sched:sched_switch of the machine (-a) while "perf bench sched pipe"
# bounces a byte between two tasks, enough rounds for >= 100 MB (each
# sample's fields printed from the event format: comm, pid, prio, state
# of both tasks).  On the page-cached file it times BENCH_REPS runs
# (default 5) of each of
#   perf/prof script
#   perf/prof script -F comm,tid,time,trace
# (stdout to /dev/null; perf and prof take turns) and prints the medians
# of wall time and peak RSS, and the ratios against the target of issue
# 20: prof >= 5x faster.  Before timing it checks that both tools print
# the same lines.  The status is 0 even when a target is missed (a
# measurement, not a test); non-zero when a command fails or tracepoints
# cannot be recorded.
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 5), BENCH_PIPE_LOOPS (rounds of the recording,
# default 800000).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=44 ratio_width=56
reps=${BENCH_REPS:-5}
loops=${BENCH_PIPE_LOOPS:-800000}

file=$data_dir/sched.data
if [ ! -f "$file" ]; then
	mkdir -p "$data_dir"
	echo "tracepoint.sh: recording $file (perf bench sched pipe -l $loops)"
	if ! perf record -q -e sched:sched_switch -a -o "$file" -- \
		perf bench sched pipe -l "$loops" >/dev/null 2>"$bench_tmp/err"; then
		echo "tracepoint.sh: perf record failed (tracefs, or the right to open tracepoints):" >&2
		head -n 5 "$bench_tmp/err" >&2
		rm -f "$file"
		exit 1
	fi
fi
size=$(stat -c %s "$file")
if [ "$size" -lt 100000000 ]; then
	echo "tracepoint.sh: warning: $file is only $((size / 1048576)) MB (raise BENCH_PIPE_LOOPS)" >&2
fi
cat "$file" >/dev/null

plain=""
fields="-F comm,tid,time,trace"

# same output first, so the timings compare like with like
for opts in "$plain" "$fields"; do
	perf script -i "$file" $opts 2>/dev/null >"$bench_tmp/perf.out"
	"$PROF" script -i "$file" $opts 2>/dev/null >"$bench_tmp/prof.out" || true
	if ! cmp -s "$bench_tmp/perf.out" "$bench_tmp/prof.out"; then
		echo "tracepoint.sh: warning: outputs differ for '$opts' ($(diff "$bench_tmp/perf.out" \
			"$bench_tmp/prof.out" | grep -c '^[<>]') lines)" >&2
	fi
done
samples=$(wc -l <"$bench_tmp/perf.out")

printf 'tracepoint script benchmark: %s\n  %.1f MB, %d samples, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$size" 'BEGIN { print s / 1048576 }')" "$samples" "$reps"
printf '  %-44s %10s %12s\n' command time "peak RSS"
measure perf_plain "perf script -i '$file'" "perf script" \
	prof_plain "'$PROF' script -i '$file'" "prof script"
measure perf_fields "perf script -i '$file' $fields" "perf script $fields" \
	prof_fields "'$PROF' script -i '$file' $fields" "prof script $fields"

echo
echo "ratios:"
ratio "$t_perf_plain" "$t_prof_plain" 5 ge "script: perf time / prof time"
ratio "$t_perf_fields" "$t_prof_fields" 5 ge "script $fields: perf time / prof time"
ratio "$m_perf_plain" "$m_prof_plain" 1 ge "script: perf RSS / prof RSS"
