#!/bin/bash
# bench/reader.sh - how fast prof reads a big perf.data file, next to perf.
#
# Records (once, cached in bench/data/, git-ignored) a system-wide profile
# with frame-pointer call graphs of a busy machine: two loops of gcc
# compiles keep both cores busy with many short processes.  Recording
# repeats, longer each time, until the file is >= 150 MB and holds >= 1M
# samples.  Then, on the page-cached file, it times 5 runs each of
#   cat FILE > /dev/null
#   perf report --stats -g none  /  prof report --stats -g none
#   perf report -D > /dev/null  /  prof report -D > /dev/null
# and prints the medians of wall time and peak RSS, and the ratios against
# the targets: --stats >= 3x faster than perf and within 3x of cat; -D >= 5x
# faster than perf.  The status is 0 even when a target is missed (this is
# a measurement, not a test); it is non-zero when a command fails.
# "-g none" keeps prof to the record counts (without it prof also resolves
# every call chain for its call-chain statistics); perf ignores -g with
# --stats, but gets it too so both run the same command line.
#
# Environment: PROF (default ./prof), BENCH_DATA (default bench/data),
# BENCH_REPS (default 5).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=30 ratio_width=40
reps=${BENCH_REPS:-5}
file=$data_dir/sys-fp.data
min_bytes=$((150 * 1024 * 1024))
min_samples=1000000

mkdir -p "$data_dir"

# nr_samples FILE: SAMPLE events in perf's aggregated stats
nr_samples()
{
	perf report --stats -i "$1" 2>/dev/null |
		awk '/^Aggregated stats/ { on = 1 }
			on && / SAMPLE events:/ && !n { n = $3 }
			END { print n + 0 }'
}

# workload SECONDS: two loops of gcc compiles for SECONDS
workload()
{
	local secs=$1 dir

	dir=$(mktemp -d)
	cat >"$dir/small.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct item { char name[32]; int value; };
static int cmp(const void *a, const void *b)
{
	return ((const struct item *)a)->value - ((const struct item *)b)->value;
}
int main(int argc, char **argv)
{
	struct item items[64];
	for (int i = 0; i < 64; i++) {
		snprintf(items[i].name, sizeof(items[i].name), "item%d", i);
		items[i].value = (i * 7919) % 64;
	}
	qsort(items, 64, sizeof(items[0]), cmp);
	for (int i = 1; i < argc; i++)
		printf("%s %zu\n", argv[i], strlen(argv[i]));
	return items[0].value;
}
C
	for w in 1 2; do
		(
			end=$((SECONDS + secs))
			while [ $SECONDS -lt $end ]; do
				gcc -O2 -g -o "$dir/a$w.out" "$dir/small.c"
				"$dir/a$w.out" x y >/dev/null || true
			done
		) &
	done
	wait
	rm -rf "$dir"
}

if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" -lt $min_bytes ] ||
	[ "$(nr_samples "$file")" -lt $min_samples ]; then
	secs=40
	while :; do
		echo "recording $secs s of system-wide samples into $file"
		rm -f "$file.tmp"
		perf record -q -a -g -F 20000 -o "$file.tmp" -- \
			bash -c "$(declare -f workload); workload $secs" >/dev/null
		rm -f "$file.tmp.old"
		size=$(stat -c %s "$file.tmp")
		samples=$(nr_samples "$file.tmp")
		echo "  $((size / 1048576)) MB, $samples samples"
		if [ "$size" -ge $min_bytes ] && [ "$samples" -ge $min_samples ]; then
			mv "$file.tmp" "$file"
			break
		fi
		if [ $secs -ge 600 ]; then
			echo "reader.sh: cannot reach 150 MB / 1M samples in $secs s" >&2
			exit 1
		fi
		# scale the duration by what is missing, with a margin
		secs=$(awk -v t="$secs" -v s="$size" -v ms=$min_bytes \
			-v n="$samples" -v mn=$min_samples 'BEGIN {
			f = ms / s; if (n < 1) n = 1; if (mn / n > f) f = mn / n
			print int(t * f * 1.2) + 1 }')
	done
fi

size=$(stat -c %s "$file")
samples=$(nr_samples "$file")
cat "$file" >/dev/null	# page-cache it


printf 'reader benchmark: %s\n  %.1f MB, %s samples, %d runs each (medians)\n\n' \
	"$file" "$(awk -v s="$size" 'BEGIN { print s / 1048576 }')" "$samples" "$reps"
printf '  %-30s %10s %12s\n' command time "peak RSS"
measure cat "cat '$file' > /dev/null" "cat FILE > /dev/null"
measure perf_stats "perf report --stats -g none -i '$file' > /dev/null" "perf report --stats -g none"
measure prof_stats "'$PROF' report --stats -g none -i '$file' > /dev/null" "prof report --stats -g none"
measure perf_dump "perf report -D -i '$file' > /dev/null" "perf report -D"
measure prof_dump "'$PROF' report -D -i '$file' > /dev/null" "prof report -D"


echo
echo "ratios:"
ratio "$t_perf_stats" "$t_prof_stats" 3 ge "--stats: perf time / prof time"
ratio "$t_prof_stats" "$t_cat" 3 le "--stats: prof time / cat time"
ratio "$t_perf_dump" "$t_prof_dump" 5 ge "-D: perf time / prof time"
ratio "$m_perf_stats" "$m_prof_stats" 1 ge "--stats: perf RSS / prof RSS"
ratio "$m_perf_dump" "$m_prof_dump" 1 ge "-D: perf RSS / prof RSS"
