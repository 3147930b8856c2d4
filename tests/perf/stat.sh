#!/bin/bash
# tests/perf/stat.sh - prof stat against perf stat 6.1 on the same commands.
#
# Counts differ from run to run, so the layouts are compared by structure:
# every line is reduced to its length and its words with their columns,
# numbers standing as "N", without a counter's "( +- x% )", which is left
# out when the runs agree (an elapsed line with "+-", whose precision
# follows the spread, keeps no columns; K/sec, M/sec count as /sec, their
# prefix following the rate); prof's own time block after
# perf's lines is cut off first.  CSV lines are compared by fields (the
# numeric ones as "N"), JSON lines by their keys and string values.
# Covered: the default events, -e lists with modifiers and a tracepoint,
# -r, --null, -a, -C, -x, -j, -I, and an ordinary user's fallback to
# user-space counting (names "...:u").  Then the numbers against independent
# measures, none of which depends on the machine's speed or load: a busy
# loop of a fixed CPU time, its task-clock against perf's on the same run
# (each tool running the other), its elapsed time against that CPU time,
# perf's "CPUs utilized"; the page faults of a program
# touching N pages; a sleep's elapsed time against the wall time around
# prof stat; user time of the busy loop.  Exit status (the command's,
# 255 for a missing command, 129 for bad options and events), -o, --pre and
# --post, -r statistics lines, and --compare/--baseline verdicts on
# commands that are and are not different.

. "$(dirname "$0")/../lib.sh"

cd "$TMP" || exit 1
cat >busy.c <<'EOF'
/* busy SECONDS [STATUS]: spins SECONDS of CPU time, exits with STATUS. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	double d = argc > 1 ? atof(argv[1]) : 0.1;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (;;) {
		for (int i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		if ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 > d)
			break;
	}
	return argc > 2 ? atoi(argv[2]) : 0;
}
EOF
cat >touch.c <<'EOF'
/* touch PAGES: writes one byte in each of PAGES fresh pages. */
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	long n = atol(argv[1]);
	char *p = mmap(NULL, (n + 1) * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	for (long i = 0; i < n; i++)
		p[i * 4096] = 1;
	return 0;
}
EOF
cat >fill.c <<'EOF'
/* fill: fills the pipe on stdout without blocking, in lines of '#'. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char line[4096];
	int fl = fcntl(1, F_GETFL);

	memset(line, '#', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\n';
	if (fl < 0 || fcntl(1, F_SETFL, fl | O_NONBLOCK) < 0)
		return 1;
	while (write(1, line, sizeof(line)) == (ssize_t)sizeof(line))
		;
	if (errno != EAGAIN)
		return 1;
	return fcntl(1, F_SETFL, fl) < 0;
}
EOF
if ! cc -O1 -o busy busy.c || ! cc -O1 -o touch touch.c || ! cc -O1 -o fill fill.c; then
	not_ok "build the test programs"
	exit 1
fi

# shape: the structure of a human-layout report on stdin
shape()
{
	sed -e '/KB peak RSS$/,$d' -e '/^ Times of the /,$d' |
	awk '{
		line = $0
		sub(/  \( \+- *[0-9.]+% \)$/, "", line)	# only when the runs differ
		out = "len=" length(line)
		keep = !(line ~ /\+-/ && line ~ /seconds time elapsed/)
		col = 1
		while (match(line, /[^ ]+/)) {
			tok = substr(line, RSTART, RLENGTH)
			sub(/^[KMG]\/sec$/, "/sec", tok)	# K/sec, M/sec: the prefix follows the rate
			col += RSTART - 1
			if (tok ~ /^[-+(]?[0-9][0-9.,]*%?\)?$/)
				out = out " N"
			else
				out = out " " tok (keep ? "@" col : "")
			col += RLENGTH
			line = substr(line, RSTART + RLENGTH)
		}
		if (!keep)
			sub(/^len=[0-9]+/, "len=?", out)
		print out
	}'
}

# csv_shape SEP: fields with numbers as N
csv_shape()
{
	awk -F"$1" '{
		out = NF ":"
		for (i = 1; i <= NF; i++)
			out = out "|" ($i ~ /^ *[0-9][0-9.]*%?$/ ? "N" : $i ~ /^[KMG]\/sec$/ ? "/sec" : $i)
		print out
	}'
}

# json_shape: keys and string values, numbers as N
json_shape()
{
	grep -v -e '^{"time" :' -e '^{"event-values" :' |
	sed -E -e 's/"counter-value" : "[0-9.]+"/"counter-value" : "N"/' \
		-e 's/: [0-9][0-9.]*/: N/g' -e 's/"[KMG]\/sec"/"\/sec"/'
}

# once SHAPER [ARGS]: SHAPER's lines, each kind once: with -I the number of
# intervals follows how long each tool's run of the command took, which a
# loaded machine stretches differently for the two
once()
{
	"$@" | awk '!seen[$0]++'
}

# layout NAME SHAPER ARGS...: perf stat and prof stat with ARGS, same shape
layout()
{
	local name=$1 shaper=$2 rc_perf rc_prof

	shift 2
	timeout 30 perf stat "$@" 2>perf.raw >/dev/null
	rc_perf=$?
	timeout 30 "$PROF" stat "$@" 2>prof.raw >/dev/null
	rc_prof=$?
	$shaper <perf.raw >perf.out
	$shaper <prof.raw >prof.out
	cp prof.raw prof.err
	judge "$name" "$rc_perf" "$rc_prof"
}

# stopped RAW TOOL ARGS...: "TOOL stat ARGS" on a command that spins,
# stops and spins again, the report in RAW; sets rc.  The command stays
# stopped until the report shows an interval in which it did not run
# ("<not counted>"): on a loaded machine any interval can be one (perf's
# too, when the command got no CPU in it), so both tools are made to
# print one
stopped()
{
	local raw=$1 tool=$2 pid spid i

	shift 2
	rm -f stopped.pid
	timeout 30 "$tool" stat "$@" sh -c \
		'./busy 0.05; sh -c "echo \$\$ >stopped.pid; kill -STOP \$\$"; ./busy 0.05' \
		2>"$raw" >/dev/null &
	pid=$!
	for i in $(seq 1000); do
		spid=$(cat stopped.pid 2>/dev/null)
		[ -n "$spid" ] && [ "$(awk '{ print $3 }' "/proc/$spid/stat" 2>/dev/null)" = T ] &&
			grep -q '<not counted>' "$raw" && break
		sleep 0.01
	done
	[ -n "$spid" ] && kill -CONT "$spid"
	wait $pid
	rc=$?
}

# layout_stopped NAME SHAPER ARGS...: layout's comparison on stopped's
# command
layout_stopped()
{
	local name=$1 shaper=$2 rc rc_perf

	shift 2
	stopped perf.raw perf "$@"
	rc_perf=$rc
	stopped prof.raw "$PROF" "$@"
	$shaper <perf.raw >perf.out
	$shaper <prof.raw >prof.out
	cp prof.raw prof.err
	judge "$name" "$rc_perf" "$rc"
}

layout "layout: default events" shape ./busy 0.05
layout "layout: -r 3" shape -r 3 ./busy 0.02
layout "layout: --null" shape --null ./busy 0.02
layout "layout: --null -r 3" shape --null -r 3 ./busy 0.02
layout "layout: -e list with modifiers" shape \
	-e task-clock,cs,dummy,page-faults:u,cpu-clock:k,minor-faults ./busy 0.02
layout "layout: -e with a tracepoint and unsupported events" shape \
	-e cpu-clock,sched:sched_switch,cycles,instructions,L1-dcache-load-misses ./busy 0.02
layout "layout: a group with modifiers" shape -e '{task-clock,page-faults}:u,cs' ./busy 0.02
layout "layout: clocks by PMU syntax count in ns" shape \
	-e software/config=1/,task-clock,software/config=0,name=cc/ ./busy 0.02
layout "layout: -a" shape -a -e task-clock,cs sleep 0.05
layout "layout: -C 0" shape -C 0 -e task-clock sleep 0.05
layout_stopped "layout: -I 40" "once shape" -I 40 -e task-clock,page-faults
if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	layout "layout: PMU events by sysfs name and by format term (-a)" shape \
		-a -e msr/tsc/,msr/event=0x0,name=t0/ sleep 0.02
else
	skip "layout: PMU events by sysfs name and by format term (-a)" "no msr PMU"
fi
layout "csv: -x ," "csv_shape ," -x , ./busy 0.02
layout "csv: -x ';' -r 2" "csv_shape ;" -x ';' -r 2 ./busy 0.02
layout_stopped "csv: -x , -I 40" "once csv_shape ," -x , -I 40 -e task-clock
# -I when prof wakes up late (stopped for 0.3 s here): the next interval
# starts when the late one is printed, as in perf, so no two are printed
# less than an interval apart (a catch-up burst of empty ones before)
"$PROF" stat -x , -I 20 -e task-clock sleep 0.8 2>late.txt &
late_pid=$!
sleep 0.2
kill -STOP $late_pid
sleep 0.3
kill -CONT $late_pid
wait $late_pid
# (the last interval is the partial one at the command's end)
gaps=$(awk -F, '$4 == "task-clock" { if (n++) print $1 - t; t = $1 }' late.txt | sed '$d' | sort -g)
if [ "$(echo "$gaps" | wc -l)" -ge 5 ] && [ "$(echo "$gaps" | head -n 1 | awk '{ print ($1 >= 0.019) }')" = 1 ]; then
	ok "-I: a late wake-up makes no catch-up intervals"
else
	not_ok "-I: a late wake-up makes no catch-up intervals" "gaps between intervals (s):" "$(echo $gaps)"
fi
# -I: a command that ends while the tool prints an interval gets no
# interval after it (perf's SIGCHLD handler ends its loop then), only one
# that ends while the tool sleeps does (its poll is cut short).  Here the
# tool is blocked writing its first interval to a full pipe when the
# command ends: prof printed one more (empty) interval, as it did on a
# loaded machine when the command ended during a print
blocked()
{
	local raw=$1 tool=$2 pid cpid catpid i

	rm -f out.fifo go.fifo cmd.pid
	mkfifo out.fifo go.fifo || return 1
	exec 7<>out.fifo
	./fill >&7 || return 1
	"$tool" stat -x , -I 100 -e task-clock \
		sh -c 'echo $$ >cmd.pid; read x <go.fifo' 2>&7 7>&- &
	pid=$!
	# until the tool sleeps in a write to its stderr (x86-64's write is
	# system call 1)
	for i in $(seq 1000); do
		[ -s cmd.pid ] && { grep -Eqx '(anon_)?pipe_write' "/proc/$pid/wchan" ||
			grep -q '^1 0x2 ' "/proc/$pid/syscall"; } 2>/dev/null && break
		sleep 0.01
	done
	cpid=$(cat cmd.pid)
	# (no reader when something went wrong: end the command instead)
	timeout 10 sh -c 'echo >go.fifo' || kill "$cpid"
	for i in $(seq 1000); do
		[ "$(awk '{ print $3 }' "/proc/$cpid/stat" 2>/dev/null)" = Z ] && break
		sleep 0.01
	done
	grep -v '^#' out.fifo >"$raw" 7>&- &
	catpid=$!
	exec 7>&-
	wait $pid
	rc=$?
	wait $catpid
}
blocked perf.raw perf
rc_perf=$rc
blocked prof.raw "$PROF"
csv_shape , <perf.raw >perf.out
csv_shape , <prof.raw >prof.out
cp prof.raw prof.err
judge "-I: no interval after the one being printed when the command ended" "$rc_perf" "$rc"
layout "json: -j" json_shape -j ./busy 0.02
layout "json: -j -r 2" json_shape -j -r 2 ./busy 0.02
layout "json: -j -e with no metric" json_shape -j -e dummy ./busy 0.02

# an ordinary user at perf_event_paranoid >= 2: perf's fallback to user
# space, each event named "...:u" ("...u" after other modifiers)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ "$paranoid" -lt 2 ]; then
	skip "layout: an ordinary user's user-only fallback" "needs root, setpriv and perf_event_paranoid >= 2"
else
	chmod 755 "$TMP"
	as_nobody()
	{
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
	as_nobody perf stat "$TMP/busy" 0.02 2>perf.raw
	rc_perf=$?
	as_nobody "$PROF" stat "$TMP/busy" 0.02 2>prof.raw
	rc_prof=$?
	shape <perf.raw >perf.out
	shape <prof.raw >prof.out
	cp prof.raw prof.err
	judge "layout: an ordinary user's user-only fallback (default events)" "$rc_perf" "$rc_prof"
	as_nobody perf stat -e cpu-clock:p,software/config=1/,page-faults "$TMP/busy" 0.02 2>perf.raw
	rc_perf=$?
	as_nobody "$PROF" stat -e cpu-clock:p,software/config=1/,page-faults "$TMP/busy" 0.02 2>prof.raw
	rc_prof=$?
	shape <perf.raw >perf.out
	shape <prof.raw >prof.out
	cp prof.raw prof.err
	judge "layout: an ordinary user's user-only fallback (modifiers, PMU syntax)" "$rc_perf" "$rc_prof"
	# --compare's counter rows are named after the first run renames
	# the counters ("task-clock" -> "task-clock:u")
	as_nobody "$PROF" stat -r 2 -e task-clock --compare true true 2>cmpu.txt
	rc=$?
	if [ $rc -eq 0 ] && awk '/^ task-clock:u \(msec\)/ { getline; print }' cmpu.txt | grep -q '%'; then
		ok "--compare as an ordinary user: counters renamed :u are compared"
	else
		not_ok "--compare as an ordinary user: counters renamed :u are compared" "status $rc" "$(cat cmpu.txt)"
	fi
fi

# value LABEL FILE: the first number on the line naming LABEL
value()
{
	awk -v l="$1" 'index($0, l) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9][0-9.,]*$/) { gsub(",", "", $i); print $i; exit } }' "$2"
}

# between NAME X LOW HIGH: ok when LOW <= X <= HIGH
between()
{
	if awk -v x="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; then
		ok "$1"
	else
		not_ok "$1" "value '$2' not in [$3, $4]"
	fi
}

# The busy loop spins 0.3 s of CPU time, however loaded the machine is;
# elapsed times are checked against the wall time around prof stat.
now() { date +%s.%N; }
t0=$(now)
"$PROF" stat -e task-clock ./busy 0.3 2>busy.txt
wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
tc=$(value 'msec task-clock' busy.txt)
el=$(value 'seconds time elapsed' busy.txt)
cpus=$(awk '/CPUs utilized/ { for (i = 1; i <= NF; i++) if ($i == "#") print $(i + 1) }' busy.txt)
user=$(value 'seconds user' busy.txt)
# Its task-clock against perf's on the same run, each tool running the
# other on the loop: the outer one counts the inner one and the loop (the
# counter is inherited), the inner one the loop from its exec, so the
# outer count is never below the inner one.  (The loop's own CPU clock
# bounds neither: task-clock advances while perf has the task scheduled
# in, which many context switches leave behind the scheduler's clock,
# 299.6 ms for perf's count too on a busy machine.)
"$PROF" stat -x , -e task-clock -o prof-outer.txt \
	perf stat -x , -e task-clock -o perf-inner.txt ./busy 0.3
perf stat -x , -e task-clock -o perf-outer.txt \
	"$PROF" stat -x , -e task-clock -o prof-inner.txt ./busy 0.3
# ns FILE: the raw count of -x , output's task-clock line
ns()
{
	awk -F, '$3 == "task-clock" { print $4 }' "$1"
}
# at_most NAME X Y: ok when the counts X and Y are there and X <= Y
at_most()
{
	if awk -v x="$2" -v y="$3" 'BEGIN { exit !(x ~ /^[0-9]+$/ && y ~ /^[0-9]+$/ && x + 0 <= y + 0) }'; then
		ok "$1"
	else
		not_ok "$1" "'$2' is not at most '$3'"
	fi
}
at_most "numbers: task-clock of perf stat on the busy loop is at least perf's count of the loop" \
	"$(ns perf-inner.txt)" "$(ns prof-outer.txt)"
at_most "numbers: task-clock of the busy loop is at most perf's count of prof stat on it" \
	"$(ns prof-inner.txt)" "$(ns perf-outer.txt)"
between "numbers: its elapsed time is within the wall time around prof stat" "$el" 0.3 "$wall"
between "numbers: its task-clock is at most its elapsed time" "$(awk -v t="$tc" -v e="$el" 'BEGIN { print t / (e * 1000) }')" 0 1.02
# (CPUs utilized is printed to 3 decimals, whatever the share of a CPU
# the loaded machine left the loop)
between "numbers: CPUs utilized is task-clock / elapsed" \
	"$(awk -v t="$tc" -v e="$el" -v c="$cpus" 'BEGIN { d = c - t / (e * 1000); print d < 0 ? -d : d }')" 0 0.0006
between "numbers: user time follows task-clock" "$(awk -v t="$tc" -v u="$user" 'BEGIN { print u * 1000 / t }')" 0.8 1.1

"$PROF" stat -e page-faults ./touch 0 2>touch0.txt
"$PROF" stat -e page-faults ./touch 2000 2>touch2000.txt
between "numbers: touching 2000 pages adds 2000 page faults" \
	"$(($(value page-faults touch2000.txt) - $(value page-faults touch0.txt)))" 1990 2100
t0=$(now)
"$PROF" stat -e task-clock sleep 0.25 2>sleep.txt
wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
between "numbers: sleep 0.25 takes 0.25 s (and no more than the wall time around prof stat)" \
	"$(value 'seconds time elapsed' sleep.txt)" 0.25 "$wall"
between "numbers: and almost no CPU time" "$(value 'msec task-clock' sleep.txt)" 0 20
between "numbers: a 0.3 s busy loop's peak RSS is some KB" "$(value 'KB peak RSS' busy.txt)" 100 100000

# exit status
for st in 0 3 42; do
	perf stat --null ./busy 0.01 "$st" 2>/dev/null
	rc_perf=$?
	"$PROF" stat --null ./busy 0.01 "$st" 2>/dev/null
	rc_prof=$?
	if [ $rc_perf -eq "$st" ] && [ $rc_prof -eq "$st" ]; then
		ok "exit status $st propagates as in perf"
	else
		not_ok "exit status $st propagates as in perf" "perf $rc_perf, prof $rc_prof"
	fi
done
"$PROF" stat --null sh -c 'kill -SEGV $$' 2>sig.err
rc=$?
if [ $rc -eq 139 ] && grep -q '^sh: Segmentation fault$' sig.err; then
	ok "a command killed by SIGSEGV: perf's line, status 139"
else
	not_ok "a command killed by SIGSEGV: perf's line, status 139" "status $rc" "$(head -3 sig.err)"
fi
"$PROF" stat ./does-not-exist 2>miss.err
rc=$?
if [ $rc -eq 255 ] && [ "$(wc -l <miss.err)" -eq 1 ] && grep -q does-not-exist miss.err; then
	ok "a missing command: one error line, status 255 (as perf)"
else
	not_ok "a missing command: one error line, status 255 (as perf)" "status $rc" "$(cat miss.err)"
fi
for bad in "-p 0" "-t abc" "-p 999999999"; do
	# shellcheck disable=SC2086
	"$PROF" stat $bad true >/dev/null 2>bad.err
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <bad.err)" -eq 1 ] && ! sanitizer_report bad.err; then
		ok "a bad target '$bad': one error line, status 1"
	else
		not_ok "a bad target '$bad': one error line, status 1" "status $rc" "$(failure_detail bad.err)"
	fi
done
"$PROF" stat --null -e task-clock,cs true 2>null.err
if [ $? -eq 0 ] && ! grep -q task-clock null.err && grep -q 'seconds time elapsed' null.err; then
	ok "--null with -e counts nothing"
else
	not_ok "--null with -e counts nothing" "$(failure_detail null.err)"
fi
"$PROF" stat -r 3 --null sh -c 'exit 2' 2>rep.err
rc=$?
if [ $rc -eq 2 ] && grep -q 'run 1 of 3' rep.err && ! grep -q 'Performance counter' rep.err; then
	ok "a failing run stops -r with a message and its status"
else
	not_ok "a failing run stops -r with a message and its status" "status $rc" "$(cat rep.err)"
fi
for bad in "-e bogus" "-I 5" "-C x" "-r 0" "-x , -j" "-e software/name=/"; do
	# shellcheck disable=SC2086
	"$PROF" stat $bad true >/dev/null 2>bad.err
	rc=$?
	if [ $rc -eq 129 ] && ! sanitizer_report bad.err; then
		ok "bad command line '$bad': status 129"
	else
		not_ok "bad command line '$bad': status 129" "status $rc" "$(head -3 bad.err)"
	fi
done
if head -1 bad.err >/dev/null && "$PROF" stat -e bogus true 2>&1 | head -1 |
	grep -qx "prof stat: event syntax error: 'bogus'"; then
	ok "a bad event: perf's event syntax error"
else
	not_ok "a bad event: perf's event syntax error"
fi

# -o, --pre/--post, -r statistics
"$PROF" stat -o out.txt --null true 2>o.err
if head -1 out.txt | grep -q '^# started on ' && grep -q 'seconds time elapsed' out.txt && [ ! -s o.err ]; then
	ok "-o writes the report, after perf's '# started on' line"
else
	not_ok "-o writes the report, after perf's '# started on' line" "$(head -3 out.txt o.err)"
fi
"$PROF" stat -r 3 --null --pre 'echo pre >>hooks' --post 'echo post >>hooks' true 2>/dev/null
if [ "$(tr '\n' ' ' <hooks)" = "pre post pre post pre post " ]; then
	ok "--pre and --post run around each run"
else
	not_ok "--pre and --post run around each run" "$(cat hooks)"
fi
"$PROF" stat -r 5 --null ./busy 0.01 2>rstat.txt
if grep -q '^ Times of the 5 runs:$' rstat.txt &&
	grep -Eq '^ elapsed +[0-9.]+ s +\+- +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+%' rstat.txt &&
	grep -Eq '^ peak RSS +[0-9.]+ MB' rstat.txt; then
	ok "-r 5: mean, stddev, median, min, max, range of elapsed, user, sys, peak RSS"
else
	not_ok "-r 5: mean, stddev, median, min, max, range of elapsed, user, sys, peak RSS" "$(cat rstat.txt)"
fi

# --compare: different commands differ; the same command does not.  A test
# at p < 0.05 calls 5% of comparisons of a command with itself a difference,
# so the check allows three tries: it fails by chance once in 8000 runs,
# and every time when the verdict is wrong (the t-test's own numbers are
# checked deterministically in tests/unit/test_stats.c)
"$PROF" stat --null -r 5 --warmup 1 --compare 'sleep 0.02' 'sleep 0.2' 2>cmp.txt
if grep -q "Welch's t-test" cmp.txt && awk '/^ elapsed/ { getline; print }' cmp.txt | grep -q ' slower (p = '; then
	ok "--compare: sleep 0.2 is slower than sleep 0.02"
else
	not_ok "--compare: sleep 0.2 is slower than sleep 0.02" "$(cat cmp.txt)"
fi
same=0
for try in 1 2 3; do
	"$PROF" stat -e page-faults -r 6 --compare './touch 100' './touch 100' 2>same.txt
	if awk '/^ elapsed/ { getline; print }' same.txt | grep -q 'no significant difference'; then
		same=1
		break
	fi
done
if [ $same -eq 1 ]; then
	ok "--compare: a command against itself is no significant difference"
else
	not_ok "--compare: a command against itself is no significant difference" "$(cat same.txt)"
fi
if awk '/^ page-faults/ { print; getline; print }' same.txt | grep -q '%'; then
	ok "--compare: counters are compared too"
else
	not_ok "--compare: counters are compared too" "$(cat same.txt)"
fi
"$PROF" stat -j -o base.json -r 5 -e task-clock sleep 0.02 2>/dev/null
"$PROF" stat --baseline base.json -r 5 -e task-clock sleep 0.2 2>basecmp.txt
if grep -q '^{"time" : "elapsed", "runs" : 5' base.json &&
	awk '/^ elapsed/ { getline; print }' basecmp.txt | grep -q ' slower (p = '; then
	ok "--baseline: a slower command against saved -j results"
else
	not_ok "--baseline: a slower command against saved -j results" "$(cat basecmp.txt)"
fi
