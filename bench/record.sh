#!/bin/bash
# bench/record.sh - what recording a fork-heavy workload costs under
# "prof record", next to perf record 6.1 with the same options.
#
# Workload: a shell loop running BENCH_FORKS (default 2000) short processes
# (/bin/true), the kind of load a "make -j test" puts on a recorder: every
# exec maps libraries, every exit ends a task.  It is timed alone, then
# under each recorder with
#   record -F 4000 -g -- WORKLOAD          (the command and its children)
#   record -F 20000 -g -a -- WORKLOAD      (the whole machine meanwhile)
# BENCH_REPS runs (default 3) of each, and the medians are printed: the
# workload's wall time, the CPU time of the whole run (workload + recorder:
# the recorder's own share is this minus the workload's alone), and peak
# RSS (the largest process of the run: the recorder, as the workload's
# processes are tiny).  Then the ratios prof/perf against issue 5's bounds
# (wall time and CPU time <= perf's) and the samples each lost (from the
# closing warnings both print).  Last, the work after the command ends
# (build-ids, features, header): a 3 s shell loop recorded with
# --call-graph dwarf -F 8000 (about 100 MB), timed from the loop's last
# instruction to the recorder's exit, against the bound of 0.2 s.  The
# output files go to a temporary folder.
#
# The status is 0 even when a bound is missed (a measurement, not a test);
# non-zero when a command fails.  Shared machines: run it once, not in a
# loop.
#
# Environment: PROF (default ./prof), BENCH_REPS (default 3), BENCH_FORKS
# (default 2000).

set -eu
. "$(dirname "$0")/lib.bash"
label_width=40 ratio_width=48
reps=${BENCH_REPS:-3}
forks=${BENCH_FORKS:-2000}

workload="i=0; while [ \$i -lt $forks ]; do /bin/true; i=\$((i + 1)); done"

# run NAME CMD LABEL: like lib.bash's measure, and also the run's CPU time
# (t_NAME wall, c_NAME user+sys, m_NAME peak RSS KB, medians), and the
# recorder's stderr of the last run in $bench_tmp/NAME.err
run()
{
	local name=$1 cmd=$2 i t c m

	: >"$bench_tmp/runs"
	for ((i = 0; i < reps; i++)); do
		if ! /usr/bin/time -f '%e %U %S %M' -o "$bench_tmp/res" \
			bash -c "$cmd" >/dev/null 2>"$bench_tmp/$name.err"; then
			echo "$(basename "$0"): failed: $cmd" >&2
			head -n 5 "$bench_tmp/$name.err" >&2
			exit 1
		fi
		awk '{ print $1, $2 + $3, $4 }' "$bench_tmp/res" >>"$bench_tmp/runs"
	done
	t=$(sort -n -k1,1 "$bench_tmp/runs" | awk -v n="$reps" 'NR == int((n + 1) / 2) { print $1 }')
	c=$(sort -n -k2,2 "$bench_tmp/runs" | awk -v n="$reps" 'NR == int((n + 1) / 2) { print $2 }')
	m=$(sort -n -k3,3 "$bench_tmp/runs" | awk -v n="$reps" 'NR == int((n + 1) / 2) { print $3 }')
	printf -v "t_$name" '%s' "$t"
	printf -v "c_$name" '%s' "$c"
	printf -v "m_$name" '%s' "$m"
	printf "  %-${label_width}s %8.3f s %8.3f s %9.1f MB\n" "$3" "$t" "$c" \
		"$(echo "$m" | awk '{ print $1 / 1024 }')"
}

# lost NAME: the samples the closing warnings of NAME's last run call lost
lost()
{
	awk '/^Processed .* samples and lost/ { gsub(/[%!]/, "", $NF); print $NF "%"; found = 1 }
		/^Processed .* events and lost/ { print $(NF - 1) " chunks"; found = 1 }
		END { if (!found) print "none" }' "$bench_tmp/$1.err" | paste -sd' '
}

printf 'record benchmark: a shell loop of %d processes, %d runs each (medians)\n\n' "$forks" "$reps"
printf '  %-40s %10s %10s %12s\n' command "wall" "CPU" "peak RSS"
run alone "sh -c '$workload'" "workload alone"
for mode in cmd all; do
	if [ $mode = cmd ]; then
		opts="-F 4000 -g"
	else
		opts="-F 20000 -g -a"
	fi
	run perf_$mode "perf record $opts -o '$bench_tmp/perf.data' -- sh -c '$workload'" \
		"perf record $opts"
	run prof_$mode "'$PROF' record $opts -o '$bench_tmp/prof.data' -- sh -c '$workload'" \
		"prof record $opts"
done

echo
for mode in cmd all; do
	if [ $mode = cmd ]; then
		opts="-F 4000 -g"
	else
		opts="-F 20000 -g -a"
	fi
	eval "tp=\$t_perf_$mode tq=\$t_prof_$mode cp=\$c_perf_$mode cq=\$c_prof_$mode"
	eval "mp=\$m_perf_$mode mq=\$m_prof_$mode"
	echo "  $opts:"
	ratio "$tq" "$tp" 1 le "workload wall time, prof / perf"
	ratio "$cq" "$cp" 1 le "CPU time of the run, prof / perf"
	ratio "$mq" "$mp" 1 le "peak RSS, prof / perf"
	printf "  %-${ratio_width}s %s\n" "lost, perf (last run)" "$(lost perf_$mode)"
	printf "  %-${ratio_width}s %s\n" "lost, prof (last run)" "$(lost prof_$mode)"
done

# finish NAME RECORDER LABEL: seconds from the end of a 3 s loop recorded
# with dwarf call graphs at 8000 Hz to the recorder's exit (median), and
# the file size
finish()
{
	local name=$1 i start end f
	local loop='i=0; end=$(($(date +%s) + 3)); while [ $(date +%s) -lt $end ]; do i=$((i + 1)); done'

	: >"$bench_tmp/runs"
	for ((i = 0; i < reps; i++)); do
		f=$bench_tmp/$name.data
		$2 -q --call-graph dwarf -F 8000 -o "$f" -- sh -c "$loop; date +%s.%N >'$bench_tmp/end'" \
			>/dev/null 2>&1 || { echo "$(basename "$0"): failed: $2" >&2; exit 1; }
		end=$EPOCHREALTIME
		awk -v a="$(cat "$bench_tmp/end")" -v b="$end" -v s="$(stat -c %s "$f")" \
			'BEGIN { print b - a, s / 1048576 }' >>"$bench_tmp/runs"
		rm -f "$f"
	done
	sort -n -k1,1 "$bench_tmp/runs" | awk -v n="$reps" -v l="$3" -v w="$ratio_width" \
		'NR == int((n + 1) / 2) { printf "  %-" w "s %7.3f s  (%.0f MB; target <= 0.2 s) %s\n",
			l, $1, $2, $1 <= 0.2 ? "met" : "MISSED" }'
}

echo
echo "  after the command ends (dwarf, ~100 MB):"
finish perf_finish "perf record" "perf record: command end to exit"
finish prof_finish "$PROF record" "prof record: command end to exit"
