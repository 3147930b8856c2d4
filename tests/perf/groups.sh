#!/bin/bash
# tests/perf/groups.sh - event groups: prof report, script and diff against
# perf on files with groups, byte for byte.
#
# Files: recorded at test time with the system perf (software events, which
# any machine of ours can group): '{cpu-clock,task-clock}' (a flat file),
# '{task-clock,page-faults}:S' (leader sampling: the members' counts come
# from the leader's samples, PERF_SAMPLE_READ with PERF_FORMAT_GROUP),
# '{cpu-clock,page-faults}' with -g (children mode and call graphs), the
# same group to a pipe (the group in a HEADER_FEATURE record), two events
# not in a group (--group forces one); the shared fixture
# quipper/perf.data.group_desc-4.14 (GROUP_DESC of another machine).
# Matrix: report by default (one section per group, a column per member),
# --no-children, --sort comm,dso, --no-group, --group, -n and
# --show-total-period, --percent-limit, --percentage relative with a
# filter, -q, -g caller; script (default fields and a -F list); diff of two
# recordings of one group (default, -c ratio).
#
# Synthetic files (build/tests/gen_groups, tests/unit/gen_groups.c), in
# file and pipe mode: ties in the leader's counts broken by the members',
# keys only one member has, a group of three with a member missing on a
# key, a leader without samples (perf leaves the group out), a named group
# after another event and a second group, leader-sampling reads whose
# values do not grow, go back or have an id no event has; report (groups,
# --no-group, --group, -n, --sort dso and sym), --stats and script.
#
# Recording: prof record of the same groups (flat, :S, -g, a pipe): the
# attrs perf reads from prof's file (perf evlist -v) are those of perf's own
# recording of the same command (but ksymbol and bpf_event, which prof
# does not ask for), its "# group:" header line is perf's, perf's report
# of prof's file has the same section lines (numbers aside) as its report
# of its own, and prof's report of prof's file is perf's; a group the
# kernel refuses is refused in one line.
#
# Comparison: stdout (trailing blanks and perf's tip line ignored) and the
# exit status.

# run-all: cost 140
. "$(dirname "$0")/../lib.sh"

# group_rec NAME ARGS...: records ARGS into $TMP/NAME.data, or says why not
group_rec()
{
	local name=$1

	shift
	if ! record_workload "$name" "$@" 2>"$TMP/$name.why"; then
		skip "record $name" "perf record $* failed here: $(grep -v '^# perf record' "$TMP/$name.why" | head -1 | sed 's/^#  //')"
		return 1
	fi
	return 0
}

# reports NAME FILE: the report matrix on FILE
reports()
{
	local name=$1 file=$2

	report_both "$name default" "$file"
	report_both "$name --no-children" "$file" --no-children
	report_both "$name --sort comm,dso" "$file" --sort comm,dso
	report_both "$name --no-group" "$file" --no-group
	report_both "$name --group" "$file" --group
	report_both "$name -n --show-total-period" "$file" --no-children -n --show-total-period
	report_both "$name --percent-limit 1" "$file" --percent-limit 1
	report_both "$name --percentage relative -d" "$file" --percentage relative --dsos '[kernel.kallsyms]'
	report_both "$name -q" "$file" -q
}

# scripts NAME FILE: perf script against prof script on FILE
scripts()
{
	local name=$1 file=$2

	compare "$name script" "perf script -i '$file'" "'$PROF' script -i '$file'"
	compare "$name script -F" "perf script -i '$file' -F comm,tid,event,period,ip,sym" \
		"'$PROF' script -i '$file' -F comm,tid,event,period,ip,sym"
}

if group_rec flat -e '{cpu-clock,task-clock}'; then
	reports flat "$TMP/flat.data"
	scripts flat "$TMP/flat.data"
fi

if group_rec leader -e '{task-clock,page-faults}:S'; then
	reports leader "$TMP/leader.data"
	scripts leader "$TMP/leader.data"
fi

if group_rec graph -g -e '{cpu-clock,page-faults}'; then
	reports graph "$TMP/graph.data"
	report_both "graph -g caller --no-children" "$TMP/graph.data" -g caller --no-children
	report_both "graph --no-group -g" "$TMP/graph.data" --no-group --no-children -g
	scripts graph "$TMP/graph.data"
fi

if group_rec --pipe pipe -e '{cpu-clock,task-clock}'; then
	report_both "pipe default" "$TMP/pipe.data"
	report_both "pipe --no-group" "$TMP/pipe.data" --no-group
fi

if group_rec two -e cpu-clock,page-faults; then
	report_both "two events --group" "$TMP/two.data" --group
	report_both "two events --no-group" "$TMP/two.data" --no-group
	report_both "two events" "$TMP/two.data"
fi

# diff: two recordings of one group (of each kind)
if [ -s "$TMP/flat.data" ] && group_rec flat2 -e '{cpu-clock,task-clock}'; then
	compare "diff flat" "perf diff '$TMP/flat.data' '$TMP/flat2.data'" \
		"'$PROF' diff '$TMP/flat.data' '$TMP/flat2.data'"
	compare "diff flat -c ratio" "perf diff -c ratio '$TMP/flat.data' '$TMP/flat2.data'" \
		"'$PROF' diff -c ratio '$TMP/flat.data' '$TMP/flat2.data'"
fi
if [ -s "$TMP/leader.data" ] && group_rec leader2 -e '{task-clock,page-faults}:S'; then
	compare "diff leader" "perf diff '$TMP/leader.data' '$TMP/leader2.data'" \
		"'$PROF' diff '$TMP/leader.data' '$TMP/leader2.data'"
fi

fx=$FIXTURES/google-perf_data_converter/quipper/perf.data.group_desc-4.14
if [ -f "$fx" ]; then
	reports "group_desc-4.14" "$fx"
	scripts "group_desc-4.14" "$fx"
else
	skip "group_desc-4.14" "no fixture $fx"
fi

# ---- synthetic files -----------------------------------------------------------

gen=$ROOT/build/tests/gen_groups
if [ ! -x "$gen" ] || [ "$ROOT/tests/unit/gen_groups.c" -nt "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_groups >/dev/null 2>&1
fi

# synthetic NAME: the file of the lines on stdin, in file and pipe mode,
# and the checks on both
synthetic()
{
	local name=$1 mode

	cat >"$TMP/$name.txt"
	for mode in file pipe; do
		if ! "$gen" "$TMP/$name-$mode.data" $([ $mode = pipe ] && echo pipe) <"$TMP/$name.txt" 2>"$TMP/gen.err"; then
			not_ok "synthetic $name ($mode)" "$(cat "$TMP/gen.err")"
			continue
		fi
		report_both "synthetic $name ($mode)" "$TMP/$name-$mode.data"
		report_both "synthetic $name ($mode) --no-group" "$TMP/$name-$mode.data" --no-group
		report_both "synthetic $name ($mode) --group -n" "$TMP/$name-$mode.data" --group -n
		report_both "synthetic $name ($mode) --sort sym" "$TMP/$name-$mode.data" --sort sym
		report_both "synthetic $name ($mode) --sort dso" "$TMP/$name-$mode.data" --sort dso
		compare "synthetic $name ($mode) --stats" \
			"perf report --stats -i '$TMP/$name-$mode.data' 2>/dev/null" \
			"'$PROF' report --stats -i '$TMP/$name-$mode.data'"
		compare "synthetic $name ($mode) script" "perf script -i '$TMP/$name-$mode.data' 2>/dev/null" \
			"'$PROF' script -i '$TMP/$name-$mode.data'"
	done
}

if [ ! -x "$gen" ]; then
	not_ok "synthetic files: build/tests/gen_groups could not be built"
else
	synthetic ties <<-'EOF'
	event 0
	event 1
	event 2
	group 0 3
	comm 10 10 prog
	# two keys the leader ties on, the members break the tie
	sample 0 10 10 0x1000 5
	sample 0 10 10 0x2000 5
	sample 1 10 10 0x1000 1
	sample 1 10 10 0x2000 3
	sample 2 10 10 0x2000 1
	sample 2 10 10 0x1000 1
	# a key only the second member has, one only the first has
	sample 2 10 10 0x3000 7
	sample 1 10 10 0x4000 2
	# ties in the leader and the first member, the second decides
	sample 0 10 10 0x5000 4
	sample 0 10 10 0x6000 4
	sample 1 10 10 0x5000 2
	sample 1 10 10 0x6000 2
	sample 2 10 10 0x6000 9
	EOF
	synthetic noleader <<-'EOF'
	event 0
	event 1
	event 2
	group 1 2
	comm 10 10 prog
	sample 0 10 10 0x1000 5
	sample 2 10 10 0x2000 3
	sample 2 10 10 0x1000 1
	EOF
	synthetic named <<-'EOF'
	event 0
	event 1
	event 2
	event 3
	group 0 2 mygroup
	group 2 2
	comm 10 10 prog
	sample 3 10 10 0x1000 5
	sample 1 10 10 0x2000 3
	sample 0 10 10 0x1000 1
	sample 2 10 10 0x1000 1
	EOF
	synthetic reads <<-'EOF'
	event 1 read
	event 2 read
	group 0 2
	comm 10 10 prog
	read 0 10 10 0x1000 0=100 1=1
	# a member value that did not grow, one that went back
	read 0 10 10 0x2000 0=250 1=1
	read 0 10 10 0x1000 0=300 1=0
	# an id no event has, and the leader's value unchanged
	read 0 10 10 0x3000 0=300 0x999=5 1=4
	read 0 10 10 0x4000 0=400 1=6
	EOF
fi

# ---- prof record --------------------------------------------------------------

# attrs: perf evlist -v without what perf 6.1 adds and prof does not ask for
attrs()
{
	perf evlist -v -i "$1" 2>/dev/null | sed 's/, ksymbol: 1, bpf_event: 1//'
}

# shape: perf report's section lines with their numbers left out
shape()
{
	perf report --stdio -i "$1" "${@:2}" 2>/dev/null | grep -E '^# (Samples|Event count|  *Overhead|  *Children)' |
		sed -e 's/[0-9][0-9]*[ KMG] of /N of /' -e 's/[0-9][0-9]*/N/g' -e 's/ *$//'
}

# recorded NAME PERF-FILE ARGS...: prof record ARGS into $TMP/NAME-prof.data
# and the checks against perf's PERF-FILE of the same ARGS
recorded()
{
	local name=$1 theirs=$2 ours=$TMP/$1-prof.data pipe=0

	shift 2
	if [ "$1" = --pipe ]; then
		pipe=1
		shift
	fi
	if [ $pipe -eq 1 ]; then
		"$PROF" record -q -o - "$@" -- "$TMP/bin/spin" >"$ours" 2>"$TMP/rec.err"
	else
		"$PROF" record -q -o "$ours" "$@" -- "$TMP/bin/spin" >/dev/null 2>"$TMP/rec.err"
	fi
	if [ $? -ne 0 ]; then
		not_ok "prof record $name" "$(head -3 "$TMP/rec.err")"
		return
	fi
	ok "prof record $name"
	if [ $pipe -eq 0 ]; then
		if [ "$(attrs "$ours")" = "$(attrs "$theirs")" ]; then
			ok "prof record $name: attrs as perf's"
		else
			not_ok "prof record $name: attrs as perf's" "$(diff <(attrs "$theirs") <(attrs "$ours") | head -6)"
		fi
		if [ "$(perf report --header-only -i "$ours" 2>/dev/null | grep '^# group:')" = \
		     "$(perf report --header-only -i "$theirs" 2>/dev/null | grep '^# group:')" ]; then
			ok "prof record $name: GROUP_DESC as perf's"
		else
			not_ok "prof record $name: GROUP_DESC as perf's" \
				"$(perf report --header-only -i "$ours" 2>&1 | grep -i group)"
		fi
	fi
	if [ "$(shape "$ours")" = "$(shape "$theirs")" ] && [ -n "$(shape "$ours")" ]; then
		ok "prof record $name: perf's report has the sections of its own recording's"
	else
		not_ok "prof record $name: perf's report has the sections of its own recording's" \
			"$(diff <(shape "$theirs") <(shape "$ours") | head -6)"
	fi
	report_both "prof record $name: report" "$ours"
	report_both "prof record $name: report --no-group" "$ours" --no-group
}

[ -s "$TMP/flat.data" ] && recorded flat "$TMP/flat.data" -e '{cpu-clock,task-clock}'
[ -s "$TMP/leader.data" ] && recorded leader "$TMP/leader.data" -e '{task-clock,page-faults}:S'
[ -s "$TMP/graph.data" ] && recorded graph "$TMP/graph.data" -g -e '{cpu-clock,page-faults}'
[ -s "$TMP/pipe.data" ] && recorded pipe "$TMP/pipe.data" --pipe -e '{cpu-clock,task-clock}'
if [ -s "$TMP/leader.data" ]; then
	compare "prof record leader: script" "perf script -i '$TMP/leader-prof.data'" \
		"'$PROF' script -i '$TMP/leader-prof.data'"
fi

# a group the kernel refuses: one line, as perf's refusal
if perf record -q -o "$TMP/refused.data" -e '{cpu-clock,instructions}' -- true >/dev/null 2>&1; then
	skip "prof record refused group" "this machine counts instructions: perf records the group"
else
	"$PROF" record -q -o "$TMP/refused-prof.data" -e '{cpu-clock,instructions}' -- true >/dev/null 2>"$TMP/refused.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$TMP/refused.err")" -eq 1 ]; then
		ok "prof record refused group: one line, status $rc"
	else
		not_ok "prof record refused group: one line" "status $rc" "$(head -3 "$TMP/refused.err")"
	fi
fi
