#!/bin/bash
# output-errors.sh - no command loses its output without a word, and a
# closed pipe stops a command quietly.
#
# For report (--stdio, --header-only, -D, --stats), script, diff, flame
# (--folded and SVG to stdout) and the help and version text:
#   - "> /dev/full": exactly one error line "prof CMD: cannot write
#     standard output: No space left on device" (warnings aside), status 1;
#   - "-o /dev/full" where the command writes a file (flame, stat, stat -j,
#     stat -x): one line "prof CMD: cannot write /dev/full: ...", status 1;
#   - standard output a pipe whose reader is gone (its read end closed
#     before prof starts, so no timing decides the outcome): nothing on
#     stderr and death by SIGPIPE (status 141), as git and perf end, even
#     when the parent left SIGPIPE ignored; the same through a pager that
#     quits early (under script(1) for a terminal), which prof waits for.
# stat prints its report on stderr: "> /dev/full" is no error for it, and a
# report lost on stderr is status 1.  Every command first runs once with
# its output to a file, which must succeed, so that a failure below is the
# full device's.  Inputs are recorded with perf at test time.
. "$(dirname "$0")/../lib.sh"

out=$TMP/out err=$TMP/err
full_msg='cannot write standard output: No space left on device'

if ! record_workload base -g || ! record_workload new -g; then
	not_ok "record the inputs with perf" "see the lines above"
	exit 1
fi
base=$TMP/base.data new=$TMP/new.data

# label ARGS...: ARGS as a check's name, without the temp dir's path
label()
{
	local args="$*"

	echo "${args//$TMP\//}"
}

# errors FILE: FILE's lines but prof's warnings
errors()
{
	grep -v '^prof [a-z]*: warning: ' "$1"
}

# writes NAME ARGS...: prof ARGS writes something to stdout, status 0
writes()
{
	local name=$1 rc

	shift
	run_prof "$out" "$err" "$@"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$out" ] && ! sanitizer_report "$err"; then
		return 0
	fi
	not_ok "$name" "the run to a file failed (status $rc)" "$(failure_detail "$err")"
	return 1
}

# one_error NAME RC WANT_RC MSG: ok when the status is WANT_RC and $err
# holds exactly the error line MSG besides warnings
one_error()
{
	local name=$1 rc=$2 want=$3 msg=$4

	if [ "$rc" -eq "$want" ] && [ "$(errors "$err")" = "$msg" ] &&
		! sanitizer_report "$err"; then
		ok "$name"
	else
		not_ok "$name" "status $rc (want $want), stderr (want '$msg'):" \
			"$(failure_detail "$err")"
	fi
}

# to_full CMD ARGS...: "prof CMD ARGS > /dev/full" is one error line that
# names standard output and the reason, status 1
to_full()
{
	local cmd=$1 name rc

	name="$(label "$@"): > /dev/full"
	writes "$name" "$@" || return
	timeout -k 5 10 "$PROF" "$@" >/dev/full 2>"$err"
	rc=$?
	one_error "$name" $rc 1 "prof $cmd: $full_msg"
}

# o_full CMD ARGS...: "prof CMD -o /dev/full ARGS" is one error line that
# names /dev/full and the reason, status 1
o_full()
{
	local cmd=$1 name rc

	name="$(label "$@"): -o /dev/full"
	shift
	run_prof "$out" "$err" "$cmd" -o /dev/full "$@"
	rc=$?
	one_error "$name" $rc 1 "prof $cmd: cannot write /dev/full: No space left on device"
}

# closed_pipe FD SIGPIPE CMD...: runs CMD with file descriptor FD (1 or 2)
# the write end of a pipe whose read end is already closed, SIGPIPE left
# as SIGPIPE says (DEFAULT or IGNORE)
closed_pipe()
{
	perl -e 'my ($fd, $sig) = (shift, shift);
		pipe(my $r, my $w) or die "pipe: $!";
		close($r);
		open($fd == 1 ? \*STDOUT : \*STDERR, ">&", $w) or die "dup: $!";
		close($w);
		$SIG{PIPE} = $sig;
		exec { $ARGV[0] } @ARGV or die "exec: $!";' "$@"
}

# to_closed_pipe [--ignored] ARGS...: prof ARGS with stdout a pipe that no
# one reads ends by SIGPIPE (141) and prints nothing but warnings
to_closed_pipe()
{
	local sig=DEFAULT what="" name rc

	if [ "$1" = --ignored ]; then
		sig=IGNORE what=", SIGPIPE ignored by the parent"
		shift
	fi
	name="$(label "$@"): into a closed pipe$what"
	timeout -k 5 10 bash -c "$(declare -f closed_pipe); closed_pipe 1 $sig \"\$@\"" \
		closed_pipe "$PROF" "$@" 2>"$err"
	rc=$?
	one_error "$name" $rc 141 ""
}

# --- > /dev/full -----------------------------------------------------------

to_full report --stdio -i "$base"
to_full report --header-only -i "$base"
to_full report -D -i "$base"
to_full report --stats -i "$base"
to_full script -i "$base"
to_full diff "$base" "$new"
to_full flame --folded -i "$base"
to_full flame -o - -i "$base"
to_full report -h
timeout -k 5 10 "$PROF" --version >/dev/full 2>"$err"
one_error "--version: > /dev/full" $? 1 "prof: $full_msg"

# a closed standard output is a lost write too, for a command that prints
timeout -k 5 10 "$PROF" report --stdio -i "$base" >&- 2>"$err"
one_error "report --stdio with standard output closed" $? 1 \
	"prof report: cannot write standard output: Bad file descriptor"

# --- -o /dev/full ----------------------------------------------------------

# writes_file NAME FILE ARGS...: prof ARGS writes FILE, status 0
writes_file()
{
	local name=$1 file=$2 rc

	shift 2
	run_prof "$out" "$err" "$@"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$file" ] && ! sanitizer_report "$err"; then
		return 0
	fi
	not_ok "$name" "the run to $file failed (status $rc)" "$(failure_detail "$err")"
	return 1
}

writes_file "flame -o FILE" "$TMP/flame.svg" flame -i "$base" -o "$TMP/flame.svg" &&
	o_full flame -i "$base"
writes_file "flame --folded -o FILE" "$TMP/folded.txt" \
	flame --folded -i "$base" -o "$TMP/folded.txt" && o_full flame --folded -i "$base"
for args in "" "-j" "-x ,"; do
	# shellcheck disable=SC2086
	writes_file "stat${args:+ $args} -o FILE" "$TMP/stat.txt" \
		stat $args -o "$TMP/stat.txt" true &&
		o_full stat $args true
done

# --- stat: its report is on stderr -----------------------------------------

run_prof "$out" "$err" stat true >/dev/full
rc=$?
if [ $rc -eq 0 ] && grep -q 'Performance counter stats' "$err"; then
	ok "stat true > /dev/full: the report on stderr, status 0"
else
	not_ok "stat true > /dev/full: the report on stderr, status 0" "status $rc" \
		"$(failure_detail "$err")"
fi
timeout -k 5 10 "$PROF" stat true 2>/dev/full
rc=$?
if [ $rc -eq 1 ]; then
	ok "stat true 2> /dev/full: status 1"
else
	not_ok "stat true 2> /dev/full: status 1" "status $rc"
fi
run_prof "$out" "$err" stat true >&-
rc=$?
if [ $rc -eq 0 ] && grep -q 'Performance counter stats' "$err"; then
	ok "stat true with standard output closed: status 0"
else
	not_ok "stat true with standard output closed: status 0" "status $rc" \
		"$(failure_detail "$err")"
fi

# --- closed pipes ----------------------------------------------------------

if ! command -v perl >/dev/null; then
	skip "closed pipes" "no perl"
else
	to_closed_pipe report --stdio -i "$base"
	to_closed_pipe report --header-only -i "$base"
	to_closed_pipe report -D -i "$base"
	to_closed_pipe report --stats -i "$base"
	to_closed_pipe script -i "$base"
	to_closed_pipe diff "$base" "$new"
	to_closed_pipe flame --folded -i "$base"
	to_closed_pipe flame -o - -i "$base"
	to_closed_pipe --ignored report --stdio -i "$base"
	to_closed_pipe --ignored script -i "$base"
	to_closed_pipe --ignored report -D -i "$base"
	timeout -k 5 10 bash -c "$(declare -f closed_pipe); closed_pipe 2 DEFAULT \"\$@\"" \
		closed_pipe "$PROF" stat true >"$out"
	rc=$?
	if [ $rc -eq 141 ]; then
		ok "stat true with stderr into a closed pipe: SIGPIPE"
	else
		not_ok "stat true with stderr into a closed pipe: SIGPIPE" "status $rc"
	fi
fi

# --- a pager that quits early ----------------------------------------------

# pager_quits FILE: "prof script -i FILE" on a terminal, paged by a pager
# that reads one byte and quits, ends by SIGPIPE after the pager, quietly
# (FILE's script must be more than a pipe holds, 64 KB)
pager_quits()
{
	local name="script: a pager that quits early" rc

	# script(1) gives prof a terminal; its own output is the terminal's
	PROF_PAGER='head -c 1 >/dev/null' timeout -k 5 20 script -qec \
		"$(printf '%q ' "$PROF" script -i "$1") 2>$(printf '%q' "$err")" \
		/dev/null >/dev/null </dev/null
	rc=$?
	one_error "$name" $rc 141 ""
}

# big_script: records $TMP/big.data, whose script is more than 256 KB
# (the spin workload several times: fewer samples on a loaded machine)
big_script()
{
	local n=4 cmd i

	while :; do
		cmd=
		for ((i = 0; i < n; i++)); do
			cmd+="$(printf '%q' "$TMP/bin/spin"); "
		done
		record_workload big -g -- sh -c "$cmd" || return 1
		run_prof "$out" "$err" script -i "$TMP/big.data" || return 1
		[ "$(wc -c <"$out")" -gt $((256 << 10)) ] && return 0
		[ $n -ge 64 ] && return 1
		n=$((n * 4))
	done
}

if ! command -v script >/dev/null; then
	skip "script: a pager that quits early" "no script(1)"
elif ! big_script; then
	not_ok "script: a pager that quits early" "cannot record 256 KB of script output" \
		"$(failure_detail "$err")"
else
	pager_quits "$TMP/big.data"
fi
