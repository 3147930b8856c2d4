#!/bin/bash
# tests/perf/record_targets.sh - prof record's targets, call-graph modes
# and output forms, against perf 6.1.
#
# Matrix: a command, -p PID, -t TID, -a and -C 0 (a spinning program of
# the test's own is the command, or runs meanwhile), each with -g (frame
# pointers) and --call-graph dwarf, each written as a file, as a pipe-mode
# stream (-o - into a file) and compressed (-z) (-t and -C: fp/file and
# dwarf/-z only, to keep the run short); -p, -t, -a and -C record until
# the spinning program has run 0.1 s of CPU time (a command that waits for
# it times them).  For each recording:
#   - "perf report --header-only" reads it with nothing on stderr;
#   - "perf report --stdio" and "prof report --stdio" print the same lines
#     (dwarf: flat, -g none --no-children, as prof report does not unwind;
#     -a and -C: --no-children, as prof report orders Children entries of
#     equal weight (kernel entry paths of other processes) unlike perf);
#   - "perf script" prints one line per sample, as many as prof counts.
# Then: the attrs ("perf evlist -v") equal those perf record sets for the
# same options, but for the ksymbol and bpf_event flags prof does not set;
# a live pipe "prof record -o - | perf report -i -" reads as prof reads the
# same stream; -p stops by itself when the process exits; a dead pid or
# tid is one clear error; --duration stops a long command with status 0;
# SIGINT ends -a with status 130 and a finished file; -m prints perf's
# rounding note and rejects what perf rejects; a bad dwarf size is
# refused; with samples lost, prof record's closing warnings carry the
# counts perf report finds in the file; on a terminal a live status line
# shows and is erased before the summary; a closed pipe stops the
# recording with one error; -z on a full disk leaves a file perf reads.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

mkdir -p "$TMP/bin"
cat >"$TMP/bin/loop.c" <<'EOF'
/* loop SECONDS: spins in two non-inlined functions for SECONDS of CPU
   time (a loaded machine stretches it, but the samples stay). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) static void outer(unsigned long n)
{
	inner(n);
	inner(n / 3);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 0.2);

	while (now() < end)
		outer(20000);
	return 0;
}
EOF
cat >"$TMP/bin/cputime" <<'EOF'
#!/bin/sh
# cputime PID TICKS: waits (60 s at most) until PID has run TICKS more
# clock ticks of CPU time (utime + stime), or is gone
t() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
end=$(($(t "$1") + $2)) i=0
while [ "$(t "$1")" -lt "$end" ] 2>/dev/null && [ $i -lt 6000 ]; do
	sleep 0.01
	i=$((i + 1))
done
EOF
chmod 755 "$TMP/bin/cputime"
if ! cc -O1 -g -fno-omit-frame-pointer -o "$TMP/bin/loop" "$TMP/bin/loop.c"; then
	not_ok "build the loop workload"
	exit 1
fi
LOOP=$TMP/bin/loop

# record NAME TARGET CG OUT: records into $TMP/NAME.data; TARGET is cmd,
# pid, tid, all or cpu0; CG fp or dwarf; OUT file, pipe or z
record()
{
	local name=$1 target=$2 cg=$3 out=$4 f=$TMP/$1.data bg= rc
	local args=(-q -e cpu-clock)

	case $cg in
	fp) args+=(-g) ;;
	dwarf) args+=(--call-graph dwarf -F 1000) ;;
	esac
	[ "$out" = z ] && args+=(-z)
	case $target in
	cmd) args+=(-- "$LOOP" 0.2) ;;
	pid | tid)	# (the target outlives the recording: killed after it)
		"$LOOP" 60 &
		bg=$!
		args+=("-${target:0:1}" "$bg")
		;;
	all | cpu0)
		"$LOOP" 60 &
		bg=$!
		if [ "$target" = all ]; then args+=(-a); else args+=(-C 0); fi
		;;
	esac
	# (a target's recording lasts until the loop has run 10 ticks, 0.1 s,
	# of CPU time in it, however little of a CPU a loaded machine gives it)
	[ -n "$bg" ] && args+=(-- "$TMP/bin/cputime" "$bg" 10)
	if [ "$out" = pipe ]; then
		timeout 60 "$PROF" record -o - "${args[@]}" >"$f" 2>"$TMP/$name.err"
	else
		timeout 60 "$PROF" record -o "$f" "${args[@]}" >/dev/null 2>"$TMP/$name.err"
	fi
	rc=$?
	[ -n "$bg" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
	return $rc
}

# check_recording NAME CG COMM
check_recording()
{
	local name=$1 cg=$2 comm=$3 f=$TMP/$1.data flat= n_script n_prof

	if perf report --header-only -i "$f" >/dev/null 2>"$TMP/hdr.err" && [ ! -s "$TMP/hdr.err" ]; then
		ok "$name: perf report --header-only reads it without warnings"
	else
		not_ok "$name: perf report --header-only reads it without warnings" "$(head -5 "$TMP/hdr.err")"
	fi
	[ "$cg" = dwarf ] && flat="-g none --no-children"
	case $name in
	all-* | cpu0-*) flat="$flat --no-children" ;;
	esac
	compare "$name: perf report and prof report agree" \
		"tipless perf report --stdio $flat -i '$f' 2>/dev/null" \
		"tipless '$PROF' report --stdio $flat -i '$f'"
	# (in pipe mode perf script adds the call chains even so: not counted)
	n_script=$(perf script -F comm,tid,time,event -i "$f" 2>/dev/null | grep -c ' cpu-clock: *$')
	n_prof=$("$PROF" report --stats -i "$f" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
	if [ -n "$n_prof" ] && [ "$n_script" -eq "$n_prof" ] &&
		[ "$(perf script -F comm -i "$f" 2>/dev/null | grep -Ec "^ *$comm *\$")" -gt 0 ]; then
		ok "$name: perf script shows the $n_prof samples prof counts, $comm among them"
	else
		not_ok "$name: perf script shows the samples prof counts" "perf script: $n_script, prof: $n_prof"
	fi
}

for target in cmd pid tid all cpu0; do
	for cg in fp dwarf; do
		for out in file pipe z; do
			case $target/$cg/$out in
			tid/fp/file | tid/dwarf/z | cpu0/fp/file | cpu0/dwarf/z) ;;
			tid/* | cpu0/*) continue ;;
			esac
			name=$target-$cg-$out
			if ! record "$name" "$target" "$cg" "$out" || [ ! -s "$TMP/$name.data" ]; then
				not_ok "$name: prof record" "$(head -5 "$TMP/$name.err")"
				continue
			fi
			ok "$name: prof record"
			comm=loop
			[ "$target" = cpu0 ] && comm='.*'	# CPU 0 may not have run it
			check_recording "$name" "$cg" "$comm"
		done
	done
done

# the attrs, against perf record's for the same options
attrs()
{
	perf evlist -v -i "$1" 2>/dev/null |
		sed -e 's/, ksymbol: 1//' -e 's/, bpf_event: 1//'
}
for opts in "-g" "--call-graph dwarf" "--call-graph dwarf,1001" "-a" "-a -g" "-a -c 100000" "-a -F 999" \
	"-a --call-graph dwarf" "-C 0" "-a --switch-events" "-e page-faults -e cpu-clock" "pipe" "pipe -a" \
	"-p" "-t"; do
	args=(-e cpu-clock)
	pipe=0
	bg=
	case " $opts " in
	*" -e "*) args=() ;;
	esac
	for o in $opts; do
		case $o in
		pipe) pipe=1 ;;
		-p | -t)
			"$LOOP" 60 &
			bg=$!
			args+=("$o" "$bg")
			;;
		*) args+=("$o") ;;
		esac
	done
	rm -f "$TMP/a-perf.data" "$TMP/a-prof.data"
	if [ $pipe -eq 1 ]; then
		perf record -q -o - "${args[@]}" -- sleep 0.1 >"$TMP/a-perf.data" 2>/dev/null
		"$PROF" record -q -o - "${args[@]}" -- sleep 0.1 >"$TMP/a-prof.data" 2>/dev/null
	else
		perf record -q -o "$TMP/a-perf.data" "${args[@]}" -- sleep 0.1 2>/dev/null
		"$PROF" record -q -o "$TMP/a-prof.data" "${args[@]}" -- sleep 0.1 2>/dev/null
	fi
	[ -n "$bg" ] && kill "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
	want=$(attrs "$TMP/a-perf.data")
	got=$(attrs "$TMP/a-prof.data")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "attrs as perf record sets them: $opts"
	else
		not_ok "attrs as perf record sets them: $opts" "perf: $want" "prof: $got"
	fi
done

# a live pipe into perf report reads as prof reads the same stream
"$PROF" record -q -o - -e cpu-clock -g -- "$LOOP" 0.2 2>/dev/null | tee "$TMP/live.data" |
	tipless perf report --stdio -i - >"$TMP/live.perf" 2>/dev/null
tipless "$PROF" report --stdio -i - <"$TMP/live.data" >"$TMP/live.prof" 2>"$TMP/live.err"
if [ -s "$TMP/live.perf" ] && cmp -s "$TMP/live.perf" "$TMP/live.prof"; then
	ok "prof record -o - | perf report -i -: as prof report reads it"
else
	not_ok "prof record -o - | perf report -i -: as prof report reads it" \
		"$(diff "$TMP/live.perf" "$TMP/live.prof" | head -10)" "$(head -3 "$TMP/live.err")"
fi

# -p ends by itself when the process exits.  The target runs its 0.3 s
# only once prof has made its file (so has attached to it: no race with a
# slow start), as the same process (exec)
# after_file FILE CMD...: waits (20 s at most) for FILE, then execs CMD
after_file()
{
	sh -c 'i=0; while [ ! -e "$0" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
		exec "$@"' "$@"
}
rm -f "$TMP/self.data"
after_file "$TMP/self.data" "$LOOP" 0.3 &
bg=$!
start=$EPOCHREALTIME
timeout 10 "$PROF" record -q -o "$TMP/self.data" -p $bg
rc=$?
# (gone, a zombie the shell has not reaped yet, or still exiting: prof
# sees the end when the kernel closes the task's counters, which comes
# before the zombie; PF_EXITING, 0x4 in the flags, is set before it)
if [ $rc -eq 0 ] && { [ ! -e /proc/$bg ] ||
	sed 's/^.*) //' /proc/$bg/stat 2>/dev/null | awk '{ exit !($1 == "Z" || int($7 / 4) % 2) }'; } &&
	perf report --header-only -i "$TMP/self.data" >/dev/null 2>&1; then
	ok "-p stops when the process exits (after $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s)"
else
	not_ok "-p stops when the process exits" "status $rc" "target: $(cat /proc/$bg/stat 2>/dev/null)"
fi
wait $bg 2>/dev/null
rm -f "$TMP/self.data"
after_file "$TMP/self.data" "$LOOP" 0.3 &
bg=$!
start=$SECONDS
timeout 10 "$PROF" record -q -o "$TMP/self.data" -p $bg -- sleep 8
rc=$?
if [ $rc -eq 0 ] && [ $((SECONDS - start)) -lt 5 ]; then
	ok "-p PID -- sleep: ends, with status 0, when the process exits first"
else
	not_ok "-p PID -- sleep: ends, with status 0, when the process exits first" "status $rc"
fi
wait $bg 2>/dev/null

# a dead pid or tid: one error line naming it, status 1
true &
dead=$!
wait $dead
for t in p t; do
	"$PROF" record -q -o "$TMP/dead.data" -$t $dead >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "$dead does not exist" "$TMP/err"; then
		ok "-$t with a dead id: one clear error, status 1"
	else
		not_ok "-$t with a dead id: one clear error, status 1" "status $rc" "$(cat "$TMP/err")"
	fi
done

# --duration stops a long command; the file is finished
start=$SECONDS
"$PROF" record -q -o "$TMP/dur.data" --duration 0.3 -- sleep 20
rc=$?
if [ $rc -eq 0 ] && [ $((SECONDS - start)) -lt 5 ] && perf report --header-only -i "$TMP/dur.data" >/dev/null 2>&1; then
	ok "--duration stops the command, status 0"
else
	not_ok "--duration stops the command, status 0" "status $rc"
fi

# SIGINT ends a system-wide recording as perf's ends: status 130, a whole file
"$PROF" record -q -o "$TMP/int.data" -a &
pid=$!
for _ in $(seq 400); do	# once prof has made its file (its handlers are set)
	[ -e "$TMP/int.data" ] && break
	sleep 0.05
done
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && perf report --header-only -i "$TMP/int.data" >/dev/null 2>"$TMP/err" && [ ! -s "$TMP/err" ]; then
	ok "-a ended by SIGINT: status 130, finished file"
else
	not_ok "-a ended by SIGINT: status 130, finished file" "status $rc" "$(head -3 "$TMP/err")"
fi

# -m: perf's rounding note; what perf rejects, prof rejects
want=$(perf record -m 3 -o "$TMP/m-perf.data" -- true 2>&1 | grep rounding)
got=$("$PROF" record -m 3 -o "$TMP/m-prof.data" -- true 2>&1 | grep rounding)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	ok "-m 3: perf's rounding note"
else
	not_ok "-m 3: perf's rounding note" "perf: $want" "prof: $got"
fi
# (--call-graph=lbr is a mode prof record has now: branch.sh checks it)
for bad in abc -1 "--call-graph=dwarf,70000" "--call-graph=dwarf,0"; do
	case $bad in
	--*) args=("$bad") ;;
	*) args=(-m "$bad") ;;
	esac
	"$PROF" record -q -o "$TMP/bad.data" "${args[@]}" -- true >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 129 ] && [ ! -e "$TMP/bad.data" ]; then
		ok "${args[*]}: refused, status 129"
	else
		not_ok "${args[*]}: refused, status 129" "status $rc" "$(head -3 "$TMP/err")"
	fi
done

# lost samples: prof record's closing warnings carry the counts perf report
# finds in the file (skipped when this run lost nothing)
"$PROF" record -m 1 -F 50000 -g -e cpu-clock -o "$TMP/lost.data" -- sh -c \
	'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done' >/dev/null 2>"$TMP/lost.err"
if ! grep -q 'lost' "$TMP/lost.err"; then
	skip "lost samples: warnings as perf report's" "nothing was lost in this run"
else
	want=$(perf report --stdio -i "$TMP/lost.data" 2>&1 >/dev/null | grep -E '^Processed')
	got=$(grep -E '^Processed' "$TMP/lost.err")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "lost samples: warnings as perf report's"
	else
		not_ok "lost samples: warnings as perf report's" "perf: $want" "prof: $got"
	fi
fi

# on a terminal: a live status line, erased before the summary
if command -v script >/dev/null; then
	script -qc "'$PROF' record -o '$TMP/tty.data' -- '$LOOP' 1.2" /dev/null >"$TMP/tty.out" 2>&1
	if grep -Eq $'\r\\[ prof record: [0-9.]+ s, [0-9]+ samples, [0-9.]+ MB, [0-9]+ lost \\]\e\\[K' "$TMP/tty.out" &&
		grep -q $'\r\e\\[K\\[ prof record: Woken up' "$TMP/tty.out"; then
		ok "live status line on a terminal"
	else
		not_ok "live status line on a terminal" "$(cat -A "$TMP/tty.out" | head -3)"
	fi
else
	skip "live status line on a terminal" "needs script(1)"
fi

# a reader that goes away: one error line, status 1, the command stopped
start=$SECONDS
{ "$PROF" record -o - -e cpu-clock -- "$LOOP" 5 2>"$TMP/epipe.err"; echo $? >"$TMP/epipe.rc"; } | head -c 100 >/dev/null
rc=$(cat "$TMP/epipe.rc")
if [ "$rc" -eq 1 ] && [ $((SECONDS - start)) -lt 3 ] && [ "$(grep -c . "$TMP/epipe.err")" -eq 1 ] &&
	grep -q 'Broken pipe' "$TMP/epipe.err"; then
	ok "-o - into a closed pipe: one error, status 1, stops at once"
else
	not_ok "-o - into a closed pipe: one error, status 1, stops at once" "status $rc" "$(cat "$TMP/epipe.err")"
fi

# a full disk with -z: the compressed stream is cut at a record boundary
# and still decompresses (the workload spins until prof stops it: a
# loaded machine gives it fewer samples a second)
if [ "$(id -u)" -eq 0 ] && mkdir "$TMP/small" && mount -t tmpfs -o size=40k tmpfs "$TMP/small" 2>/dev/null; then
	timeout 60 "$PROF" record -z -g -F 20000 -e cpu-clock -o "$TMP/small/full.data" -- sh -c \
		"while :; do '$LOOP' 0.1; done" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'No space left on device' "$TMP/err" &&
		perf report --stdio -i "$TMP/small/full.data" >/dev/null 2>"$TMP/err2" && [ ! -s "$TMP/err2" ]; then
		ok "-z on a full disk: a file perf decompresses"
	else
		not_ok "-z on a full disk: a file perf decompresses" "status $rc" "$(cat "$TMP/err" "$TMP/err2" | head -5)"
	fi
	compare "-z on a full disk: perf report and prof report agree" \
		"tipless perf report --stdio -i '$TMP/small/full.data' 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$TMP/small/full.data'"
	umount "$TMP/small"
else
	skip "-z on a full disk: a file perf decompresses" "needs root to mount a small tmpfs"
	skip "-z on a full disk: perf report and prof report agree" "needs root to mount a small tmpfs"
fi
