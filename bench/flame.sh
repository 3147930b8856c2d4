#!/bin/bash
# bench/flame.sh - how fast "prof flame" turns a big perf.data file into a
# flame graph, next to the usual route "perf script | stackcollapse-perf.pl
# | flamegraph.pl" (issue 7).
#
# Input: bench/data/sys-fp.data, the system-wide frame-pointer recording
# that bench/reader.sh makes (>= 150 MB, >= 2M samples); when it is missing,
# reader.sh is run first to record it.  On the page-cached file it times
# BENCH_REPS runs (default 3) of
#   perf script                  (stdout to /dev/null: the first step of the
#                                 Perl route alone, so a lower bound of it)
#   prof flame -o FILE.svg       (perf.data to the finished SVG)
#   prof flame --folded          (perf.data to folded stacks)
# and prints the medians of wall time and peak RSS, the SVG's size and
# frame count, and the ratio against the target of issue 7: prof flame
# at least 10x faster than perf script alone.  Before timing it checks
# that prof's folded stacks are perf's ("perf script -F
# comm,pid,tid,event,ip,sym,dso" folded by tests/perf/folded-ref.pl, the
# rules of stackcollapse-perf.pl) and says how many lines differ if they
# are not.  The status is 0 even when the target is missed (a measurement,
# not a test).
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 3), BENCH_CHECK (default 1; 0 skips the check,
# which takes about as long as the timed perf script runs).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=44 ratio_width=44
reps=${BENCH_REPS:-3}
sys_fp_file

if [ "${BENCH_CHECK:-1}" != 0 ]; then
	perf script -F comm,pid,tid,event,ip,sym,dso -i "$file" 2>/dev/null |
		perl "$root/tests/perf/folded-ref.pl" >"$bench_tmp/perf.folded"
	"$PROF" flame -q -i "$file" --folded | sort >"$bench_tmp/prof.folded"
	if ! cmp -s "$bench_tmp/perf.folded" "$bench_tmp/prof.folded"; then
		echo "flame.sh: warning: folded stacks differ ($(diff "$bench_tmp/perf.folded" \
			"$bench_tmp/prof.folded" | grep -c '^[<>]') of $(wc -l <"$bench_tmp/perf.folded") lines)" >&2
	else
		echo "folded stacks: prof's $(wc -l <"$bench_tmp/prof.folded") lines are perf's"
	fi
fi

printf 'flame graph benchmark: %s\n  %.1f MB, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$(stat -c %s "$file")" 'BEGIN { print s / 1048576 }')" "$reps"
printf '  %-44s %10s %12s\n' command time "peak RSS"
measure perf_script "perf script -i '$file'" "perf script (lower bound of the Perl route)"
measure prof_flame "'$PROF' flame -i '$file' -o '$bench_tmp/flame.svg'" "prof flame -o flame.svg"
measure prof_folded "'$PROF' flame -i '$file' --folded" "prof flame --folded"
printf '\n  the SVG: %.1f MB, %d frames\n' \
	"$(awk -v s="$(stat -c %s "$bench_tmp/flame.svg")" 'BEGIN { print s / 1048576 }')" \
	"$(grep -c '<g><title>' "$bench_tmp/flame.svg")"

echo
echo "ratios:"
ratio "$t_perf_script" "$t_prof_flame" 10 ge "perf script time / prof flame (SVG) time"
ratio "$t_perf_script" "$t_prof_folded" 10 ge "perf script time / prof flame --folded time"
ratio "$m_perf_script" "$m_prof_flame" 1 ge "perf script RSS / prof flame RSS"
