#!/bin/bash
# tests/perf/tracepoint.sh - tracepoint and probe samples: "prof script",
# "prof report" and "prof diff" against perf's on files recorded at test
# time and on the shared fixtures with tracepoints.
#
# Files (recorded with the system perf): sched:sched_switch system-wide
# with call chains (-a -g) and without (-a); sched_switch alone on a
# workload, with and without -g (a file of tracepoints only: perf's report
# sorts it by "trace"); the process exec/fork/exit tracepoints on a
# forking workload; syscalls tracepoints (dynamic string fields); irq and
# timer tracepoints (kernel function pointers, %ps); cpu-clock mixed with
# sched_switch, -g; a uprobe with an argument (perf probe -x on a program
# built here; skipped where probes cannot be added); a pipe-mode stream;
# and prof record's own files
# (sched_switch -a -g, --filter: perf script on them as prof script, only
# the samples the filter passes; a filter the kernel refuses is one
# error line).  On each:
# perf script's default output and -F sets with "trace"; perf report's
# default (sorted by "trace" for a file of tracepoints only), --sort with
# trace and other keys, call graphs; perf diff.  Then the shared fixtures with tracepoints
# and probes that perf 6.1 reads.  Recording needs tracefs and the right
# to open tracepoints: without them the recorded files are skipped with
# the reason.
#
# Comparison: stdout byte for byte and the exit status (script); report
# and diff with trailing blanks and perf's tip line ignored.

# run-all: cost 30
. "$(dirname "$0")/../lib.sh"
set -o pipefail

# both NAME FILE ARGS...: "perf script" and "prof script" with ARGS on FILE
both()
{
	local name=$1 file=$2 rc_perf rc_prof pid

	shift 2
	perf script -i "$file" "$@" >"$TMP/perf.out" 2>"$TMP/perf.err" &
	pid=$!
	timeout -k 5 60 "$PROF" script -i "$file" "$@" >"$TMP/prof.out" 2>"$TMP/prof.err"
	rc_prof=$?
	wait $pid
	rc_perf=$?
	judge "script $name" "$rc_perf" "$rc_prof"
}

# record NAME PERF-RECORD-ARGS... [-- WORKLOAD]: record_workload or a
# failed check
record()
{
	if record_workload "$@"; then
		return 0
	fi
	not_ok "tracepoint $1: perf record"
	return 1
}

tracefs=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [ -r "$d/events/sched/sched_switch/format" ]; then
		tracefs=$d
		break
	fi
done
can_record=1
if [ -z "$tracefs" ]; then
	can_record=0
	why="tracefs is not readable (mount it, or run as root)"
elif ! perf record -q -e sched:sched_switch -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	can_record=0
	why="perf cannot record tracepoints here (kernel.perf_event_paranoid, or not root)"
fi

if [ $can_record -eq 1 ]; then
	# ---- sched_switch system-wide, with and without call chains ---------
	if record swg -e sched:sched_switch -a -g -- sleep 0.2; then
		f=$TMP/swg.data
		both swg "$f"
		both "swg -G" "$f" -G
		both "swg -F trace" "$f" -F trace
		both "swg -F comm,tid,time,event,trace,ip,sym" "$f" -F comm,tid,time,event,trace,ip,sym
		both "swg -F trace:trace,ip,dso" "$f" -F trace:trace,ip,dso
		both "swg -F +pid,+period" "$f" -F +pid,+period
		both "swg --ns -C 0" "$f" --ns -C 0
		report_both "swg report" "$f"
		report_both "swg report --sort trace" "$f" --sort trace
		report_both "swg report --sort comm,trace -g none" "$f" --sort comm,trace -g none
		report_both "swg report --sort trace,cpu -g none" "$f" --sort trace,cpu -g none
	fi
	if record sw -e sched:sched_switch -a -- sleep 0.2; then
		both sw "$TMP/sw.data"
		both "sw -F trace,cpu" "$TMP/sw.data" -F trace,cpu
		report_both "sw report" "$TMP/sw.data"
		report_both "sw report --sort trace" "$TMP/sw.data" --sort trace
		report_both "sw report --sort trace,comm" "$TMP/sw.data" --sort trace,comm
	fi

	# ---- a file of tracepoints only: perf's report sorts by trace -------
	if record only -e sched:sched_switch -- forks; then
		both only "$TMP/only.data"
		report_both "only report" "$TMP/only.data"
		report_both "only report --sort comm" "$TMP/only.data" --sort comm
		report_both "only report -n --sort trace,pid" "$TMP/only.data" -n --sort trace,pid
	fi
	if record onlyg -e sched:sched_switch -g -- forks; then
		both onlyg "$TMP/onlyg.data"
		report_both "onlyg report" "$TMP/onlyg.data"
		report_both "onlyg report --no-children" "$TMP/onlyg.data" --no-children
		report_both "onlyg report -g none" "$TMP/onlyg.data" -g none
		report_both "onlyg report -G" "$TMP/onlyg.data" -G
	fi

	# ---- exec, fork, exit on a forking workload --------------------------
	if record procs -e sched:sched_process_exec,sched:sched_process_fork,sched:sched_process_exit \
		-- forks; then
		both procs "$TMP/procs.data"
		both "procs -F event,trace" "$TMP/procs.data" -F event,trace
		report_both "procs report" "$TMP/procs.data"
	fi

	# ---- syscalls: string arguments --------------------------------------
	if [ -d "$tracefs/events/syscalls" ] &&
		record sys -e syscalls:sys_enter_openat,syscalls:sys_exit_openat -- forks; then
		both sys "$TMP/sys.data"
		report_both "sys report" "$TMP/sys.data"
		report_both "sys report --sort trace,comm" "$TMP/sys.data" --sort trace,comm
	fi

	# ---- irq and timer: kernel function pointers -------------------------
	if record irq -e 'timer:*' -a -- sleep 0.1; then
		both irq "$TMP/irq.data"
		report_both "irq report --sort trace" "$TMP/irq.data" --sort trace
	fi

	# ---- diff of two recordings of tracepoints ---------------------------
	if [ -f "$TMP/sw.data" ] && record sw2 -e sched:sched_switch -a -- sleep 0.1; then
		compare "diff sw sw2" "perf diff '$TMP/sw.data' '$TMP/sw2.data'" \
			"'$PROF' diff '$TMP/sw.data' '$TMP/sw2.data'"
		compare "diff --sort comm" "perf diff --sort comm '$TMP/sw.data' '$TMP/sw2.data'" \
			"'$PROF' diff --sort comm '$TMP/sw.data' '$TMP/sw2.data'"
	fi

	# ---- a hardware or software event mixed with a tracepoint ------------
	if record mix -e cpu-clock -e sched:sched_switch -g -- forks; then
		both mix "$TMP/mix.data"
		both "mix -F trace" "$TMP/mix.data" -F trace
		both "mix -F comm,event,trace,ip,sym" "$TMP/mix.data" -F comm,event,trace,ip,sym
		report_both "mix report" "$TMP/mix.data"
		report_both "mix report --sort trace -g none" "$TMP/mix.data" --sort trace -g none
	fi

	# ---- prof record: tracepoints, --filter; perf reads the files ---------
	if "$PROF" record -q -e sched:sched_switch -a -g -o "$TMP/prec.data" -- sleep 0.1 \
		>/dev/null 2>"$TMP/prec.err"; then
		both "prof record -a -g" "$TMP/prec.data"
		report_both "prof record -a -g: report --sort trace" "$TMP/prec.data" --sort trace
	else
		not_ok "prof record -e sched:sched_switch -a -g" "$(head -3 "$TMP/prec.err")"
	fi
	if "$PROF" record -q -e sched:sched_switch --filter 'prev_comm == "sleep"' \
		-o "$TMP/pfilt.data" -- sleep 0.1 >/dev/null 2>"$TMP/pfilt.err"; then
		both "prof record --filter" "$TMP/pfilt.data"
		n=$(perf script -i "$TMP/pfilt.data" -F trace 2>/dev/null | grep -c .)
		others=$(perf script -i "$TMP/pfilt.data" -F trace 2>/dev/null | grep -vc '^prev_comm=sleep ')
		if [ "$n" -gt 0 ] && [ "$others" -eq 0 ]; then
			ok "prof record --filter: only the samples the filter passes ($n)"
		else
			not_ok "prof record --filter: only the samples the filter passes" \
				"$n samples, $others of them with another prev_comm"
		fi
	else
		not_ok "prof record --filter" "$(head -3 "$TMP/pfilt.err")"
	fi
	"$PROF" record -q -e sched:sched_switch --filter 'nosuchfield == 0' -o "$TMP/pbad.data" \
		-- true >/dev/null 2>"$TMP/pbad.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(grep -c . "$TMP/pbad.err")" -eq 1 ] &&
		grep -q 'failed to set filter "nosuchfield == 0" on event sched:sched_switch' "$TMP/pbad.err"; then
		ok "prof record --filter the kernel refuses: one error line"
	else
		not_ok "prof record --filter the kernel refuses: one error line" "status $rc" \
			"$(head -3 "$TMP/pbad.err")"
	fi
	"$PROF" record -q -e cpu-clock --filter x -o "$TMP/pbad.data" -- true >/dev/null 2>&1
	rc=$?
	perf record -q -e cpu-clock --filter x -o "$TMP/pbad.data" -- true >/dev/null 2>&1
	check "prof record --filter after a non-tracepoint: status $rc as perf's" test $rc -eq $?

	# ---- a uprobe with an argument (perf probe -x), where allowed --------
	printf 'int work(int x) { return x * 2; }\nint main(void) { int s = 0;\n%s\n' \
		'for (int i = 0; i < 50; i++) s += work(i); return s == 0; }' >"$TMP/upbin.c"
	probe_sys=probe_upbin
	perf probe -q -d "$probe_sys:*" >/dev/null 2>&1
	if cc -O0 -g -o "$TMP/upbin" "$TMP/upbin.c" &&
		perf probe -q -x "$TMP/upbin" 'work x' >/dev/null 2>"$TMP/probe.err"; then
		if record up -e "$probe_sys:work" -- "$TMP/upbin"; then
			both up "$TMP/up.data"
			report_both "up report" "$TMP/up.data"
			report_both "up report --sort comm,trace" "$TMP/up.data" --sort comm,trace
		fi
		if "$PROF" record -q -e "$probe_sys:work" -o "$TMP/pup.data" -- "$TMP/upbin" \
			>/dev/null 2>"$TMP/pup.err"; then
			both "prof record of a uprobe" "$TMP/pup.data"
		else
			not_ok "prof record of a uprobe" "$(head -3 "$TMP/pup.err")"
		fi
		perf probe -q -d "$probe_sys:*" >/dev/null 2>&1
	else
		skip "uprobes" "perf probe -x cannot add one here: $(head -1 "$TMP/probe.err")"
	fi

	# ---- a pipe-mode stream ----------------------------------------------
	if record --pipe pipe -e sched:sched_switch -a -- sleep 0.1; then
		both pipe "$TMP/pipe.data"
		report_both "pipe report" "$TMP/pipe.data"
		report_both "pipe report --sort trace" "$TMP/pipe.data" --sort trace
	fi
else
	skip "tracepoint recordings" "$why"
fi

# ---- the shared fixtures with tracepoints and probes ---------------------------
if [ -d "$FIXTURES" ]; then
	for rel in kdab-perfparser/probe.data.file kdab-perfparser/probe.data.stream \
		kdab-perfparser/parallel_static_gcc_perf.data.zstd; do
		[ -f "$FIXTURES/$rel" ] || continue
		both "fixture $rel" "$FIXTURES/$rel"
		both "fixture $rel -F trace" "$FIXTURES/$rel" -F trace
		report_both "fixture $rel report" "$FIXTURES/$rel"
		report_both "fixture $rel report --no-children" "$FIXTURES/$rel" --no-children
		report_both "fixture $rel report --sort trace" "$FIXTURES/$rel" --sort trace
	done
else
	skip "tracepoint fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
fi
