# bench/lib.bash - what the benchmark scripts share; sourced, not run.
#
# The script sets reps (runs per command), label_width and ratio_width (the
# label columns of measure's and ratio's rows) before calling them.  Scratch files go into a
# temporary folder removed on exit.

bench_tmp=$(mktemp -d)
trap 'rm -rf "$bench_tmp"' EXIT

# What every script runs with: root (the repository), PROF (default
# ./prof, made absolute), data_dir (BENCH_DATA, default bench/data).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROF=${PROF:-$root/prof}
case $PROF in /*) ;; *) PROF=$PWD/$PROF ;; esac
data_dir=${BENCH_DATA:-$root/bench/data}
export LC_ALL=C PAGER=cat PERF_PAGER=cat PROF

# sys_fp_file: sets file to the system-wide recording bench/reader.sh
# makes (running it first when the file is missing) and page-caches it
sys_fp_file()
{
	file=$data_dir/sys-fp.data
	if [ ! -f "$file" ]; then
		echo "$(basename "$0"): $file is missing: running bench/reader.sh to record it"
		BENCH_DATA=$data_dir bash "$root/bench/reader.sh"
	fi
	cat "$file" >/dev/null
}

# measure NAME CMD LABEL [NAME CMD LABEL ...]: runs each CMD (a shell
# string) $reps times, taking turns (one run of each per round, so a slow
# phase of a shared machine weighs on all of them alike), sets t_NAME /
# m_NAME to the median seconds and peak RSS in KB, prints a row for each
measure()
{
	local i k n=$(($# / 3)) start end t m args=("$@")

	for ((k = 0; k < n; k++)); do
		: >"$bench_tmp/times.$k"
	done
	for ((i = 0; i < reps; i++)); do
		for ((k = 0; k < n; k++)); do
			local cmd=${args[3 * k + 1]}

			start=$EPOCHREALTIME
			if ! /usr/bin/time -f '%M' -o "$bench_tmp/rss" \
				bash -c "$cmd" >/dev/null 2>"$bench_tmp/err"; then
				echo "$(basename "$0"): failed: $cmd" >&2
				head -n 5 "$bench_tmp/err" >&2
				exit 1
			fi
			end=$EPOCHREALTIME
			echo "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }') $(cat "$bench_tmp/rss")" \
				>>"$bench_tmp/times.$k"
		done
	done
	for ((k = 0; k < n; k++)); do
		# median of each column on its own
		t=$(sort -n -k1,1 "$bench_tmp/times.$k" | awk -v n="$reps" 'NR == int((n + 1) / 2) { print $1 }')
		m=$(sort -n -k2,2 "$bench_tmp/times.$k" | awk -v n="$reps" 'NR == int((n + 1) / 2) { print $2 }')
		printf -v "t_${args[3 * k]}" '%s' "$t"
		printf -v "m_${args[3 * k]}" '%s' "$m"
		printf "  %-${label_width}s %8.3f s %9.1f MB\n" "${args[3 * k + 2]}" "$t" \
			"$(echo "$m" | awk '{ print $1 / 1024 }')"
	done
}

# ratio A B TARGET OP LABEL: prints A/B against TARGET (OP: ge or le)
ratio()
{
	awk -v a="$1" -v b="$2" -v target="$3" -v op="$4" -v label="$5" -v w="$ratio_width" 'BEGIN {
		if (b <= 0) b = 0.001
		r = a / b
		met = (op == "ge") ? r >= target : r <= target
		printf "  %-" w "s %7.2fx  (target %s %gx) %s\n", label, r,
			op == "ge" ? ">=" : "<=", target, met ? "met" : "MISSED"
	}'
}
