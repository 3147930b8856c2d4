#!/bin/bash
# tests/perf/diff.sh - "prof diff" against "perf diff" on freshly recorded
# files, byte for byte.
#
# Files (recorded at test time with the system perf, event cpu-clock): the
# same C program built -O0 and -O2 under one name in two directories (so
# its symbols have other addresses and line up by name), with different
# loop counts; a fork/exec shell loop run 10 and 30 times (many comms and
# DSOs, unresolved addresses in stripped programs); system-wide (-a)
# recordings of the loop and of the C program (unresolved addresses of
# several DSOs that one key without the DSO merges: perf names the row by
# the first in its input tree); a recording of two events at once,
# diffed against one of a single event.  Matrix: the
# default (delta-abs), -c delta, -c ratio, -c wdiff, -p and -F (period and
# formula columns), -b, -o, -q, --percentage, --sort comm,dso and other
# key sets, three files (the "# Data files:" block and "/N" titles), -t
# (field separator), the filters (-d, -C, -S, --pid), --cpu (on files recorded with
# --sample-cpu), --time, and errors (a missing file, a bad -c, -o out of
# range, --cpu on a file without CPUs: perf's exit status).
#
# Comparison: stdout byte for byte (perf pads its title lines with
# blanks) and the exit status.

# run-all: cost 67
. "$(dirname "$0")/../lib.sh"

# both NAME ARGS...: "perf diff" and "prof diff" with ARGS, in $TMP, at once
both()
{
	local name=$1 rc_perf rc_prof pid

	shift
	(cd "$TMP" && perf diff "$@") >"$TMP/perf.out" 2>"$TMP/perf.err" &
	pid=$!
	(cd "$TMP" && timeout -k 5 60 "$PROF" diff "$@") >"$TMP/prof.out" 2>"$TMP/prof.err"
	rc_prof=$?
	wait $pid
	rc_perf=$?
	judge "diff $name" "$rc_perf" "$rc_prof"
}

cat >"$TMP/w.c" <<'EOF'
/* w: two functions whose shares depend on the arguments. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

__attribute__((noinline)) void other(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i;
}

int main(int argc, char **argv)
{
	unsigned long k = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long m = argc > 2 ? 3 : 1;

	for (unsigned long j = 0; j < k; j++) {
		leaf(200000);
		other(100000 * m);
	}
	return 0;
}
EOF
cat >"$TMP/loop.sh" <<'EOF'
#!/bin/sh
# loop N: a shell loop that forks and execs short-lived programs N times
i=0
while [ $i -lt "$1" ]; do
	/bin/true
	ls / >/dev/null
	sh -c 'exit 0'
	i=$((i + 1))
done
EOF
chmod +x "$TMP/loop.sh"
mkdir -p "$TMP/o0" "$TMP/o2"

# rec NAME PERF-RECORD-ARGS... -- CMD...: records $TMP/NAME.data
rec()
{
	local name=$1

	shift
	(cd "$TMP" && perf record -q -o "$name.data" "$@") >/dev/null 2>"$TMP/$name.err" &&
		[ -s "$TMP/$name.data" ]
}

if ! cc -O0 -o "$TMP/o0/w" "$TMP/w.c" || ! cc -O2 -fno-inline -o "$TMP/o2/w" "$TMP/w.c" ||
	! rec base -e cpu-clock -- ./o0/w 150 ||
	! rec new -e cpu-clock -- ./o2/w 300 1 ||
	! rec third -e cpu-clock -- ./o0/w 150 1 ||
	! rec loop1 -e cpu-clock -- ./loop.sh 10 ||
	! rec loop2 -e cpu-clock -- ./loop.sh 30 ||
	! rec two -e cpu-clock,task-clock -- ./o2/w 100 ||
	! rec cpus1 -e cpu-clock --sample-cpu -- ./loop.sh 10 ||
	! rec cpus2 -e cpu-clock --sample-cpu -- ./loop.sh 20 ||
	! rec wide1 -a -e cpu-clock -- ./loop.sh 5 ||
	! rec wide2 -a -e cpu-clock -- ./o0/w 50; then
	not_ok "diff record" "perf record failed"
	exit 1
fi

both "default" base.data new.data
both "reversed" new.data base.data
both "-c delta" -c delta base.data new.data
both "-c delta-abs" -c delta-abs base.data new.data
both "-c ratio" -c ratio base.data new.data
both "-c wdiff:1,2" -c wdiff:1,2 base.data new.data
both "-c wdiff:3,1 -p -F" -c wdiff:3,1 -p -F base.data new.data
both "-p -F" -p -F base.data new.data
both "-c ratio -F" -c ratio -F base.data new.data
both "-b" -b base.data new.data
both "-o 0" -o 0 base.data new.data
both "-q" -q base.data new.data
both "--percentage absolute" --percentage absolute base.data new.data
both "--percentage relative" --percentage relative base.data new.data
both "--sort sym" --sort sym base.data new.data
both "three files" base.data new.data third.data
both "three files -c ratio -o 2" -c ratio -o 2 base.data new.data third.data
both "three files -c wdiff -p -F" -c wdiff:2,1 -p -F base.data new.data third.data
both "three files -b" -b base.data new.data third.data
both "loop" loop1.data loop2.data
both "loop --sort comm,dso" --sort comm,dso loop1.data loop2.data
both "loop --sort comm" --sort comm loop1.data loop2.data
both "loop --sort dso" -c ratio --sort dso loop2.data loop1.data
both "loop --sort pid" --sort pid loop1.data loop2.data
both "loop --sort comm,dso,sym" --sort comm,dso,sym loop1.data loop2.data
both "loop --sort cpu,comm" --sort cpu,comm loop1.data loop2.data
both "loop -c delta -p" -c delta -p loop2.data loop1.data
both "system-wide" wide1.data wide2.data
both "system-wide --sort pid,sym" --sort pid,sym wide1.data wide2.data
both "system-wide --sort sym, reversed" --sort sym wide2.data wide1.data
both "system-wide --sort comm,dso" --sort comm,dso wide1.data wide2.data
both "two events" two.data new.data
both "two events, reversed" new.data two.data
both "two events, three files" two.data new.data two.data

# -t: no dots line, entries padded on the right, separators in names
# replaced by '.'
both "-t ," -t , base.data new.data
both "-t , -p -F -c ratio" -t , -p -F -c ratio base.data new.data
both "-t : wdiff, three files" -t : -c wdiff:1,2 -p -F base.data new.data third.data
both "-t ; -q" -t ";" -q base.data new.data
both "-t with a separator in names" -t ab --sort pid,comm loop1.data loop2.data
both "-t , --sort cpu,dso" -t , --sort cpu,dso cpus1.data cpus2.data
both "-t empty" -t "" base.data new.data

# filters: the columns of one-item lists are hidden; entries match
# whether filtered or not, and relative shares are of the samples shown
both "-d w" -d w base.data new.data
both "-d two, relative" -d w,libc.so.6 --percentage relative base.data new.data
both "-S leaf -p -F" -S leaf -p -F base.data new.data
both "-C ls" -C ls loop1.data loop2.data
both "-C ls,sh -b" -C ls,sh -b loop1.data loop2.data
both "-C sh relative, three files" -C sh --percentage relative loop1.data loop2.data base.data
both "-C sh relative -p -F" -C sh --percentage relative -p -F loop1.data loop2.data
both "-C sh,ls --sort comm,dso" -C sh,ls --sort comm,dso loop1.data loop2.data
both "--pid" --pid 1 loop1.data loop2.data
both "--cpu 0" --cpu 0 cpus1.data cpus2.data
both "--cpu 1 --sort comm" --cpu 1 --sort comm cpus1.data cpus2.data
both "--time 0%-50%" --time 0%-50% base.data new.data
both "--time 10%/2 -c ratio" --time 10%/2 -c ratio loop1.data loop2.data
both "--time per file" --time 0%-50%:50%-100% base.data new.data

# a pipe-format file (perf record -o -): perf 6.1's diff cannot read one
# (it fails at the first HEADER_ATTR record, and on the file perf inject
# makes of one), so the oracle is perf report of the same file: diffed
# with itself, its baseline column is perf report's overhead column, row
# for row (sorted: the two commands order ties differently)
if (cd "$TMP" && perf record -q -e cpu-clock -o - ./o2/w 200 1 >pipe.data 2>/dev/null) &&
	[ -s "$TMP/pipe.data" ]; then
	(cd "$TMP" && perf report --stdio --no-children -g none --sort dso,sym -i pipe.data) \
		2>/dev/null | awk '!/^#/ && NF { print $1, $2, $3, $4 }' | sort >"$TMP/perf.rows"
	(cd "$TMP" && "$PROF" diff pipe.data pipe.data) 2>"$TMP/prof.err" |
		awk '!/^#/ && NF { print $1, $3, $4, $5 }' | sort >"$TMP/prof.rows"
	if [ -s "$TMP/perf.rows" ] && cmp -s "$TMP/perf.rows" "$TMP/prof.rows"; then
		ok "diff a pipe-format file: the baseline is perf report's overhead"
	else
		not_ok "diff a pipe-format file: the baseline is perf report's overhead" \
			"$(diff "$TMP/perf.rows" "$TMP/prof.rows" | head -n 5)"
	fi
else
	not_ok "diff a pipe-format file" "perf record -o - failed"
fi

# errors
both "missing file" base.data nothing.data
both "default files missing" base.data
both "bad -c" -c nothing base.data new.data
both "-c wdiff without weights" -c wdiff base.data new.data
both "-c ratio with an argument" -c ratio:2 base.data new.data
both "-o out of range" -o 2 base.data new.data
both "bad --sort" --sort nothing base.data new.data
both "bad --percentage" --percentage some base.data new.data
both "--cpu without CPUs in the samples" --cpu 0 base.data new.data
both "--cpu out of range" --cpu 4000 cpus1.data cpus2.data
both "bad --time" --time nothing base.data new.data
both "-t ." -t . base.data new.data
both "-c cycles without branch stacks" -c cycles base.data new.data
both "--stream without branch stacks" --stream base.data new.data
both "--cycles-hist without -c cycles" --cycles-hist base.data new.data
both "--time per file, one missing" --time 0%-50%: base.data new.data
