#!/bin/bash
# tests/perf/record_stress.sh - prof record again and again, under load,
# for a bounded time: hunts crashes and races that one run rarely shows.
#
# For PROF_STRESS_SECONDS seconds (default 30, as in make test; a longer
# hunt: PROF_STRESS_SECONDS=600 tests/run-all tests/perf/record_stress.sh,
# and CI may export it), and each mode once at least, with a busy loop on
# every CPU, runs prof record round-robin in these modes: -g on a forking
# workload; -g on the demo workload; --call-graph dwarf on 4 threads;
# -a -g; -F 10000 on forks; -z; -p of a running process; -g stopped by
# SIGTERM or SIGINT at a random moment from the file's creation on (the
# synthesis, the recording, the command's end); --call-graph dwarf stopped
# by SIGTERM; -a stopped by SIGINT.  Each run must end with the status it
# should (the command's 0, or 143/130 when it was stopped by the signal),
# print nothing (-q; so no sanitizer report: run it with PROF=./prof-asan
# too), and leave a file "perf report --header-only" reads.  One line per
# mode says how many runs it had; a failure shows the first bad run's
# status and stderr.

. "$(dirname "$0")/../lib.sh"

seconds=${PROF_STRESS_SECONDS:-30}
# the demo workload too (demo/workload.c, built as scripts/demo builds it):
# "prof record -q -g" of it once died of SIGSEGV on another machine
_lib_build_workloads && cc -O2 -g -fno-omit-frame-pointer -fstack-protector-all \
	-fno-optimize-sibling-calls -o "$TMP/bin/workload" "$ROOT/demo/workload.c" || {
	not_ok "build the workloads"
	exit 1
}

# the load: one busy shell loop per CPU, stopped when the script ends
loads=()
stress_exit()
{
	local rc=$?

	[ ${#loads[@]} -gt 0 ] && kill "${loads[@]}" 2>/dev/null
	wait 2>/dev/null
	(exit $rc)
	_lib_exit
}
trap stress_exit EXIT
for _ in $(seq "$(getconf _NPROCESSORS_ONLN)"); do
	(while :; do :; done) &
	loads+=($!)
done

# mode NAME SIGNAL ARGS... -- CMD...: a mode; SIGNAL is "-" for none
modes=(
	"-g forks|-|-g -- $TMP/bin/forks"
	"-g demo|-|-g -- $TMP/bin/workload slow 5"
	"dwarf threads|-|--call-graph dwarf -- $TMP/bin/threads"
	"-a -g|-|-a -g -- $TMP/bin/spin"
	"-F 10000 forks|-|-F 10000 -- $TMP/bin/forks"
	"-z -g threads|-|-z -g -- $TMP/bin/threads"
	"-p|-|-g --duration 0.3 -p PID"
	"-g SIGTERM|TERM|-g -- $TMP/bin/forks"
	"-g SIGINT|INT|-g -- $TMP/bin/spin"
	"dwarf SIGTERM|TERM|--call-graph dwarf -- $TMP/bin/threads"
	"-a SIGINT|INT|-a -- $TMP/bin/forks"
)
declare -A runs bad detail

# run_mode I: one run of mode I
run_mode()
{
	local name sig args spin_pid= pid rc want
	IFS='|' read -r name sig args <<<"${modes[$1]}"

	if [[ $args == *PID* ]]; then	# a target that outlives the recording
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$0"; done' "$TMP/bin/spin" &
		spin_pid=$!
		args=${args/PID/$spin_pid}
	fi
	rm -f "$TMP/s.data"
	# shellcheck disable=SC2086
	timeout -k 5 60 "$PROF" record -q -o "$TMP/s.data" $args >/dev/null 2>"$TMP/s.err" &
	pid=$!
	if [ "$sig" != - ]; then
		# once prof has made the file (what comes before its signal
		# handlers cannot be helped), anywhere from its start-up to past
		# the command's end
		for _ in $(seq 1000); do
			[ -e "$TMP/s.data" ] || ! kill -0 "$pid" 2>/dev/null && break
			sleep 0.01
		done
		sleep "0.$(printf '%03d' $((RANDOM % 300)))"
		kill -"$sig" "$pid" 2>/dev/null
	fi
	wait "$pid"
	rc=$?
	if [ -n "$spin_pid" ]; then
		kill "$spin_pid" 2>/dev/null
		wait "$spin_pid" 2>/dev/null
	fi
	case $sig in
	TERM) want="0 143" ;;
	INT) want="0 130" ;;
	*) want=0 ;;
	esac
	runs[$name]=$((${runs[$name]:-0} + 1))
	if [[ " $want " != *" $rc "* ]] || sanitizer_report "$TMP/s.err" || [ -s "$TMP/s.err" ] ||
		! perf report --header-only -i "$TMP/s.data" >/dev/null 2>&1; then
		bad[$name]=$((${bad[$name]:-0} + 1))
		[ -n "${detail[$name]}" ] ||
			detail[$name]="status $rc (want $want): $(failure_detail "$TMP/s.err")"
	fi
}

end=$((SECONDS + seconds))
i=0
while [ $SECONDS -lt $end ] || [ $i -lt ${#modes[@]} ]; do	# each mode once at least
	run_mode $((i % ${#modes[@]}))
	i=$((i + 1))
done

for m in "${modes[@]}"; do
	name=${m%%|*}
	if [ -z "${bad[$name]}" ]; then
		ok "$name: no crash, right status, a readable file (${runs[$name]} runs)"
	else
		not_ok "$name: no crash, right status, a readable file" \
			"${bad[$name]} of ${runs[$name]} runs failed; the first: ${detail[$name]}"
	fi
done
