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
# Comparison: stdout (trailing blanks and perf's tip line ignored) and the
# exit status.

# run-all: cost 55
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
