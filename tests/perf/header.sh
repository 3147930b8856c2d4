#!/bin/bash
# header.sh - "prof report --header-only" (and with -I) prints exactly what
# perf 6.1's "perf report --header-only" prints, byte for byte.
#
# Records a set of small workloads with the system perf (plain, -g, dwarf
# call graphs, -a, two events, a group, a tracepoint, -z, pipe mode,
# --switch-events, -k monotonic) and compares both tools on each file,
# then does the same for every shared fixture that perf 6.1 reads (perf
# exits 0).  "captured on" is the file's mtime: both tools read the same
# file, so it matches.  Fuzz-corpus files that prof refuses with an error
# are reported as skipped (the reader is stricter than perf there).
# run-all: cost 30
. "$(dirname "$0")/../lib.sh"

if ! command -v perf >/dev/null; then
	skip "header-only equals perf's" "perf not installed"
	exit 0
fi

# same NAME FILE [ARGS...]: perf and prof print the same bytes and status
# (perf's output and status are taken from $TMP/perf.out and $perf_rc if
# $perf_rc is set)
same()
{
	local name=$1 file=$2 rc_perf=${perf_rc:-} rc_prof pid

	shift 2
	if [ -z "$rc_perf" ]; then
		perf report --header-only "$@" -i "$file" >"$TMP/perf.out" 2>"$TMP/perf.err" &
		pid=$!
	fi
	timeout -k 5 10 "$PROF" report --header-only "$@" -i "$file" \
		>"$TMP/prof.out" 2>"$TMP/prof.err"
	rc_prof=$?
	if [ -z "$rc_perf" ]; then
		wait $pid
		rc_perf=$?
	fi
	judge "$name" "$rc_perf" "$rc_prof"
}

# both NAME FILE: compare without and with -I
both()
{
	same "$1: --header-only" "$2"
	perf_rc= same "$1: --header-only -I" "$2" -I
}

# recorded NAME [--pipe] PERF-RECORD-ARGS... [-- WORKLOAD]
recorded()
{
	local name=$1

	shift
	if [ "${1:-}" = --pipe ]; then
		shift
		record_workload --pipe "$name" "$@" || { not_ok "record $name"; return; }
	else
		record_workload "$name" "$@" || { not_ok "record $name"; return; }
	fi
	both "$name" "$TMP/$name.data"
}

cd "$TMP" || exit 1
recorded plain
recorded callgraph -g
recorded dwarf --call-graph dwarf
recorded system-wide -a -- sleep 0.1
recorded two-events -e cpu-clock -e task-clock
recorded group -e '{cpu-clock,task-clock}'
recorded tracepoint -e sched:sched_switch -a -- sleep 0.1
recorded compressed -z
recorded pipe --pipe
recorded pipe-callgraph --pipe -g
recorded switch-events --switch-events
recorded monotonic -k monotonic
recorded user-only -e cpu-clock:u
recorded many -e cpu-clock -e task-clock -e page-faults -e dummy -g -a -- sleep 0.1

if [ ! -d "$FIXTURES" ]; then
	skip "shared perf.data fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
	exit 0
fi
mkdir -p "$TMP/fx"
while IFS= read -r -d '' path; do
	rel=${path#"$FIXTURES"/}
	case $rel in
	*.txt | *README*) continue ;;
	esac
	# perf refuses files it does not own: work on a private copy
	copy=$TMP/fx/${rel##*/}
	install -m 600 "$path" "$copy"
	# (in a child shell: perf crashes on some fuzz files, and the shell
	# that sees the crash says so on its stderr); its output is the one
	# compared without -I
	if ! sh -c 'timeout 20 perf report --header-only -i "$1"; exit $?' sh "$copy" \
		</dev/null >"$TMP/perf.out" 2>"$TMP/perf.err"; then
		rm -f "$copy"
		continue	# perf 6.1 does not read it
	fi
	case $rel in
	google-perf_data_converter/fuzz-corpus/*)
		if ! run_prof "$TMP/out" "$TMP/err" report --header-only -i "$copy" </dev/null &&
			grep -q . "$TMP/err" && ! sanitizer_report "$TMP/err"; then
			skip "$rel" "prof refuses this malformed file: $(head -n 1 "$TMP/err")"
			rm -f "$copy"
			continue
		fi ;;
	esac
	perf_rc=0 both "$rel" "$copy" </dev/null
	rm -f "$copy"
done < <(find "$FIXTURES" -type f -print0 | sort -z)
