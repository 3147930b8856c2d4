#!/bin/bash
# bench/dwarf.sh - how fast prof reads a --call-graph dwarf recording (user
# stacks unwound at report time), next to perf 6.1 on the same file
# (issue 8).
#
# Input: bench/data/dwarf.data, recorded once (kept; delete it to record
# again) with "perf record --call-graph dwarf -F 2000 -e cpu-clock" of two
# loops of gcc compiles (cc1 and the Debian libraries it uses have no
# frame pointers) until the file is over 150 MB.  On the page-cached file
# it times BENCH_REPS runs (default 1: perf takes minutes) of
#   perf/prof report --stdio --no-children
#   perf/prof script
#   perf/prof report --stdio --no-children --no-inline   (for comparison:
#                                            perf's cost without inlined
#                                            entries; no target)
# (stdout to /dev/null) and prints the medians of wall time and peak RSS
# and the ratios against the targets of issue 8: report --no-children
# >= 30x faster at <= half of perf's peak RSS, script >= 10x faster.
# Before timing it says whether both tools print the same report (tip
# line aside; both add inlined entries by default).  The status is 0 even
# when a target is missed (a measurement, not a test).
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 1).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=44 ratio_width=44
reps=${BENCH_REPS:-1}
file=$data_dir/dwarf.data

# record: two compile loops over prof's own sources for a fixed time
if [ ! -f "$file" ]; then
	mkdir -p "$data_dir"
	echo "dwarf.sh: recording $file"
	cat >"$bench_tmp/compile.sh" <<'EOS'
#!/bin/bash
# compile.sh ROOT SECONDS: gcc -O2 over ROOT's sources until SECONDS pass
end=$((SECONDS + $2))
while [ $SECONDS -lt $end ]; do
	for f in "$1"/src/*/*.c; do
		gcc -std=c11 -D_GNU_SOURCE -O2 -c -o /dev/null "$f" 2>/dev/null || true
		[ $SECONDS -lt $end ] || break
	done
done
EOS
	secs=6
	while :; do
		perf record -q --call-graph dwarf -F 2000 -e cpu-clock -o "$file" -- \
			bash -c "bash '$bench_tmp/compile.sh' '$root' $secs & bash '$bench_tmp/compile.sh' '$root' $secs; wait" \
			>/dev/null 2>&1
		[ "$(stat -c %s "$file")" -ge $((150 * 1048576)) ] && break
		secs=$((secs * 3 / 2))
		echo "dwarf.sh: under 150 MB, recording again for $secs s"
	done
fi
cat "$file" >/dev/null	# page-cache it

self="--stdio --no-children"
for opts in "$self"; do
	perf report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/perf.out"
	"$PROF" report -i "$file" $opts 2>/dev/null | sed '/^# (Tip:/d' >"$bench_tmp/prof.out" || true
	if cmp -s "$bench_tmp/perf.out" "$bench_tmp/prof.out"; then
		echo "dwarf.sh: '$opts': same report as perf"
	else
		ndiff=$(diff "$bench_tmp/perf.out" "$bench_tmp/prof.out" | grep -c '^[<>]' || true)
		echo "dwarf.sh: note: outputs differ for '$opts':" \
			"$ndiff of $(wc -l <"$bench_tmp/perf.out") lines" >&2
	fi
done
rm -f "$bench_tmp/perf.out" "$bench_tmp/prof.out"

printf '\ndwarf benchmark: %s\n  %.1f MB, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$(stat -c %s "$file")" 'BEGIN { print s / 1048576 }')" "$reps"
printf '  %-44s %10s %12s\n' command time "peak RSS"
measure perf_self "perf report -i '$file' $self" "perf report $self"
measure prof_self "'$PROF' report -i '$file' $self" "prof report $self"
measure perf_script "perf script -i '$file'" "perf script"
measure prof_script "'$PROF' script -i '$file'" "prof script"
measure perf_noinl "perf report -i '$file' $self --no-inline" "perf report $self --no-inline"
measure prof_noinl "'$PROF' report -i '$file' $self --no-inline" "prof report $self --no-inline"

echo
echo "ratios:"
ratio "$t_perf_self" "$t_prof_self" 30 ge "--no-children: perf time / prof time"
ratio "$m_perf_self" "$m_prof_self" 2 ge "--no-children: perf RSS / prof RSS"
ratio "$t_perf_script" "$t_prof_script" 10 ge "script: perf time / prof time"
awk -v a="$t_perf_noinl" -v b="$t_prof_noinl" -v w="$ratio_width" 'BEGIN {
	printf "  %-" w "s %7.2fx  (no target)\n", "--no-inline --no-children: perf / prof", a / (b > 0 ? b : 0.001)
}'
