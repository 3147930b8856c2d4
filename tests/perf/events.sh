#!/bin/bash
# tests/perf/events.sh - the -e event syntax (src/event/events.c) as prof
# record applies it, against perf record 6.1 with the same -e.
#
# For each -e: perf record and prof record record "true"; "perf evlist -v"
# on the two files prints the same (apart from ksymbol and bpf_event,
# which prof record does not set: see the README).  Covered: software
# events and their aliases, cache and hardware names that fall back on a
# machine without them (cycles:k), modifiers (u k h G H p ppp P D I e, and
# combinations), lists, a PMU event with terms and name=, tracepoints
# (sched:sched_switch alone, with :u, two of them from two systems), whose
# files perf script must then read.  Then errors: a bad event gives perf's
# "event syntax error" lines with the marker under the same character as
# perf's and status 129, for several kinds of mistake.

# run-all: cost 22
. "$(dirname "$0")/../lib.sh"

cd "$TMP" || exit 1

# evlists NAME EVENT: compares perf evlist -v of perf's and prof's files
evlists()
{
	local name=$1 ev=$2 rc prof_rc pid

	# (both record at once)
	perf record -q -o perf.data -e "$ev" -- true >/dev/null 2>perf.rec.err &
	pid=$!
	timeout 20 "$PROF" record -q -o prof.data -e "$ev" -- true >/dev/null 2>prof.rec.err
	prof_rc=$?
	wait $pid
	rc=$?
	if [ $rc -ne 0 ]; then
		skip "$name" "perf record -e '$ev' failed here (status $rc)"
		return
	fi
	rc=$prof_rc
	if [ $rc -ne 0 ]; then
		not_ok "$name" "prof record -e '$ev': status $rc" "$(failure_detail prof.rec.err)"
		return
	fi
	compare "$name" \
		"perf evlist -v -i perf.data 2>&1 | grep -v '^# Tip' | sed 's/, ksymbol: 1, bpf_event: 1//'" \
		"perf evlist -v -i prof.data 2>&1 | grep -v '^# Tip'"
}

for ev in cpu-clock task-clock page-faults faults minor-faults major-faults \
	context-switches cs cpu-migrations migrations alignment-faults \
	emulation-faults dummy cycles:k; do
	evlists "evlist: -e $ev" "$ev"
done
for ev in cpu-clock:u page-faults:k faults:h cpu-clock:ku cpu-clock:G cpu-clock:H \
	cpu-clock:kG cpu-clock:p cpu-clock:ppp cpu-clock:pG cpu-clock:P task-clock:D \
	cpu-clock:I cpu-clock:e dummy:ppp; do
	evlists "evlist: modifiers -e $ev" "$ev"
done
evlists "evlist: a list -e cpu-clock,task-clock:u,cs" "cpu-clock,task-clock:u,cs"
evlists "evlist: a PMU event with terms" "software/config=3/u"
evlists "evlist: a PMU event named by name=" "software/config=1,name=tc/"
evlists "evlist: tracepoint sched:sched_switch" "sched:sched_switch"
evlists "evlist: tracepoint with :u" "sched:sched_switch:u"
evlists "evlist: tracepoints of two systems" "sched:sched_switch,raw_syscalls:sys_enter"

# the tracepoint file's raw data decodes with the TRACING_DATA prof wrote
if "$PROF" record -q -o tp.data -e sched:sched_switch -- sleep 0.02 2>tp.err &&
	perf script -i tp.data 2>&1 | grep -q 'sched:sched_switch: prev_comm=sleep'; then
	ok "perf script decodes prof's sched:sched_switch samples"
else
	not_ok "perf script decodes prof's sched:sched_switch samples" "$(perf script -i tp.data 2>&1 | head -3)"
fi

# bad_event NAME EVENT: perf's and prof's complaints up to "Run 'perf
# list'..." (prof's marker line is 13 characters longer, for its
# "prof record: " prefix) and their exit status
bad_event()
{
	local name=$1 ev=$2 rc_perf rc_prof

	perf record -o x.data -e "$ev" -- true >/dev/null 2>perf.err
	rc_perf=$?
	"$PROF" record -o x.data -e "$ev" -- true >/dev/null 2>prof.err
	rc_prof=$?
	sed -n '1,/^Run /p' perf.err >perf.out
	sed -n '1,/^Run /p' prof.err | sed -e '1s/^prof record: //' -e '2s/^ \{13\}//' >prof.out
	judge "$name" "$rc_perf" "$rc_prof"
}

bad_event "error: an unknown event" bogus
bad_event "error: an unknown event after a good one" cpu-clock,bogus
bad_event "error: an unknown modifier" cpu-clock:x
bad_event "error: a repeated modifier" cpu-clock:uu
bad_event "error: four p" cpu-clock:pppp
bad_event "error: an unknown tracepoint" sched:no_such_tracepoint
bad_event "error: an unknown PMU" nosuchpmu/config=1/
bad_event "error: a trailing comma" cpu-clock,
bad_event "error: a bad modifier far right (the start cut)" software/config=1/x
bad_event "error: a colon after a PMU event" software/config=1/:u
bad_event "error: a repeated modifier after a PMU event" software/config=1/uu
bad_event "error: a long list (both ends cut)" \
	cpu-clock,task-clock,page-faults,minor-faults,major-faults,context-switches,cpu-migrations,bogus,dummy,cs,migrations,faults,alignment-faults
