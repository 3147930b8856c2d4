# tests/lib.sh - shared helpers for the shell tests in tests/cli and tests/perf.
#
# Source it first thing:  . "$(dirname "$0")/../lib.sh"
#
# It sets:
#   ROOT      the repository root
#   PROF      the prof binary under test: $PROF if set (made absolute),
#             else $ROOT/prof
#   FIXTURES  shared perf.data fixtures: $PROF_FIXTURES, else
#             $ROOT/../shared/fixtures/perfdata (may not exist: check it)
#   TMP       a private temp dir, removed when the script exits
#
# and gives:
#   ok NAME / not_ok NAME [DETAIL...] / skip NAME REASON
#             print one TAP-like line ("ok - NAME", "not ok - NAME",
#             "ok - NAME # skip REASON"); DETAIL lines follow as "#  ...".
#   check NAME CMD...      ok if CMD succeeds, not ok otherwise
#   run_prof OUT ERR ARGS...
#             runs "timeout 10 $PROF ARGS" with stdout/stderr to files and
#             returns its status (124 on timeout)
#   sanitizer_report FILE  true if FILE holds an ASan/UBSan/LSan report (a
#             line matching $SANITIZER_RE)
#   sanitizer_summary FILE the report's key lines (error, top frames)
#   failure_detail FILE    sanitizer_summary, else the first lines of FILE
#   record_workload [--pipe] NAME [PERF-RECORD-ARGS...] [-- WORKLOAD [ARGS]]
#             records with the system "perf record -q" into $TMP/NAME.data
#             (--pipe: "-o -" into the same file).  WORKLOAD is a command
#             or one of the built-in names: spin (default; single thread,
#             ~0.2 s in a few functions), threads (4 threads), forks (a
#             shell fork/exec loop), in $TMP/bin (under tests/run-all,
#             links to one build for the whole run, in $PROF_TEST_SHARE).
#   strip_chainstats
#             filter: copies stdin to stdout up to prof's "Callchain
#             stats:" block of "prof report --stats" (and the blank line
#             before it), leaving what perf also prints
#   outputs [--tipless] CMD_PERF CMD_PROF
#             evals both shell commands at once into $TMP/perf.out and
#             $TMP/prof.out (trailing blanks removed; --tipless: perf
#             report's random lines too); sets rc_perf, rc_prof
#   compare [--tipless] NAME CMD_PERF CMD_PROF
#             evals both shell commands (at once), diffs their stdout
#             (ignoring trailing blanks) and exit status; prints ok, or
#             not ok with the first differing lines
#   report_both [--threads1] NAME FILE ARGS...
#             compare --tipless of perf report and prof report --stdio
#
# Invariants: every check prints exactly one "ok"/"not ok" line; the script
# exits non-zero when any check failed (set on EXIT, so scripts need no
# closing call), and never leaves files outside $TMP.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

PROF=${PROF:-$ROOT/prof}
case $PROF in
/*) ;;
*) PROF=$PWD/$PROF ;;
esac
export PROF

FIXTURES=${PROF_FIXTURES:-$ROOT/../shared/fixtures/perfdata}
if [ -d "$FIXTURES" ]; then
	FIXTURES=$(cd "$FIXTURES" && pwd)
fi

# Sanitizer failures get exit codes no prof command uses (0, 1, 129).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99:detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98:print_stacktrace=1:halt_on_error=1"
# perf and prof must not page or colour their output.
export PAGER=cat PERF_PAGER=cat
export LC_ALL=C

TMP=$(mktemp -d "${TMPDIR:-/tmp}/prof-test.XXXXXX")
_lib_failed=0

_lib_exit()
{
	local rc=$?

	rm -rf "$TMP"
	if [ "$rc" -eq 0 ] && [ "$_lib_failed" -gt 0 ]; then
		rc=1
	fi
	exit "$rc"
}
trap _lib_exit EXIT

ok()
{
	echo "ok - $*"
}

not_ok()
{
	local name=$1

	shift
	_lib_failed=$((_lib_failed + 1))
	echo "not ok - $name"
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/#  /'
	done
}

skip()
{
	echo "ok - $1 # skip ${2:-}"
}

check()
{
	local name=$1

	shift
	if "$@" >"$TMP/check.out" 2>&1; then
		ok "$name"
	else
		not_ok "$name" "command failed: $*" "$(failure_detail "$TMP/check.out")"
	fi
}

run_prof()
{
	local out=$1 err=$2

	shift 2
	timeout -k 5 10 "$PROF" "$@" >"$out" 2>"$err"
}

# (an extended regular expression, for grep -E and bash's =~)
SANITIZER_RE='ERROR: (Address|Leak|Undefined|Memory)Sanitizer|runtime error:|SUMMARY: [A-Za-z]*Sanitizer'

sanitizer_report()
{
	[ -s "$1" ] && grep -Eq "$SANITIZER_RE" "$1"
}

sanitizer_summary()
{
	grep -E 'ERROR: |runtime error:|^ +#[0-9] ' "$1" | head -n 10
}

failure_detail()
{
	if sanitizer_report "$1"; then
		sanitizer_summary "$1"
	else
		head -n 5 "$1"
	fi
}

# Builds the workload programs into $TMP/bin once.  Under tests/run-all
# ($PROF_TEST_SHARE set) they are built once for the whole run, in
# $PROF_TEST_SHARE/bin, and $TMP/bin links to them: scripts that run at
# once then run the same files, and a system-wide recording of several
# scripts' workloads holds one DSO of each name, not a copy per script
# (whose report entries perf merges by name and symbol address).
_lib_build_workloads()
{
	local share=${PROF_TEST_SHARE:-} w

	[ -x "$TMP/bin/spin" ] && return 0
	mkdir -p "$TMP/bin" || return 1
	if [ -z "$share" ] || [ ! -d "$share" ]; then
		_lib_compile_workloads "$TMP/bin"
		return
	fi
	(
		flock 9 || exit 1
		[ -x "$share/bin/spin" ] || _lib_compile_workloads "$share/bin"
	) 9>"$share/bin.lock" || return 1
	for w in spin threads forks; do
		ln -s "$share/bin/$w" "$TMP/bin/$w" || return 1
	done
}

# _lib_compile_workloads DIR: writes and builds the workloads in DIR
_lib_compile_workloads()
{
	local dir=$1

	mkdir -p "$dir" && chmod 755 "$dir" || return 1
	cat >"$dir/spin.c" <<'EOF'
/* spin: ~0.2 s of user time in a few non-inlined functions. */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

__attribute__((noinline)) static void middle(unsigned long n)
{
	leaf(n);
	leaf(n / 2);
}

__attribute__((noinline)) static void top(unsigned long n)
{
	middle(n);
	leaf(n / 4);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? 0.1 : 0.2);

	(void)argv;
	while (now() < end)
		top(20000);
	return 0;
}
EOF
	cat >"$dir/threads.c" <<'EOF'
/* threads: 4 threads spinning ~0.1 s each in different functions. */
#include <pthread.h>
#include <time.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void work_a(void) { for (int i = 0; i < 10000; i++) sink += i; }
__attribute__((noinline)) static void work_b(void) { for (int i = 0; i < 10000; i++) sink ^= i; }

static void *worker(void *arg)
{
	double end = now() + 0.1;

	while (now() < end) {
		if (arg)
			work_a();
		else
			work_b();
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i & 1));
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
EOF
	cat >"$dir/forks" <<'EOF'
#!/bin/sh
# forks: a shell loop that forks and execs short-lived programs.
i=0
while [ $i -lt 20 ]; do
	/bin/true
	ls / >/dev/null
	sh -c 'exit 0'
	i=$((i + 1))
done
EOF
	chmod 755 "$dir/forks" &&
		cc -O1 -g -fno-omit-frame-pointer -pthread -o "$dir/threads" "$dir/threads.c" &&
		cc -O1 -g -fno-omit-frame-pointer -o "$dir/spin" "$dir/spin.c"
}

record_workload()
{
	local pipe=0 name args=() cmd=()

	if [ "${1:-}" = --pipe ]; then
		pipe=1
		shift
	fi
	name=$1
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	cmd=("$@")
	[ ${#cmd[@]} -eq 0 ] && cmd=(spin)
	_lib_build_workloads || return 1
	case ${cmd[0]} in
	spin | threads | forks) cmd[0]=$TMP/bin/${cmd[0]} ;;
	esac
	if [ $pipe -eq 1 ]; then
		perf record -q -o - "${args[@]}" -- "${cmd[@]}" \
			>"$TMP/$name.data" 2>"$TMP/$name.record.err"
	else
		perf record -q -o "$TMP/$name.data" "${args[@]}" -- "${cmd[@]}" \
			>/dev/null 2>"$TMP/$name.record.err"
	fi
	local rc=$?

	if [ $rc -ne 0 ] || [ ! -s "$TMP/$name.data" ]; then
		echo "# perf record failed for $name (status $rc):" >&2
		sed 's/^/#  /' "$TMP/$name.record.err" >&2
		return 1
	fi
	return 0
}

strip_chainstats()
{
	awk 'pending {
		pending = 0
		if ($0 == "Callchain stats:")
			exit
		print ""
	}
	$0 == "" { pending = 1; next }
	{ print }
	END { if (pending) print "" }'
}

# judge NAME RC_PERF RC_PROF: passes when $TMP/prof.out equals $TMP/perf.out
# byte for byte, the exit statuses agree and $TMP/prof.err holds no
# sanitizer report; prints the ok / not ok line
judge()
{
	local name=$1 rc_perf=$2 rc_prof=$3

	if sanitizer_report "$TMP/prof.err"; then
		not_ok "$name" "sanitizer report:" "$(sanitizer_summary "$TMP/prof.err")"
	elif ! cmp -s "$TMP/perf.out" "$TMP/prof.out"; then
		not_ok "$name" "output differs (--- perf, +++ prof):" \
			"$(diff -u "$TMP/perf.out" "$TMP/prof.out" | sed -n '3,22p')" \
			"$(failure_detail "$TMP/prof.err")"
	elif [ "$rc_perf" -ne "$rc_prof" ]; then
		not_ok "$name" "exit status differs: perf $rc_perf, prof $rc_prof" \
			"$(failure_detail "$TMP/prof.err")"
	else
		ok "$name"
	fi
}

# The sed expressions of tipless: the lines that differ between runs of
# perf report normalized: its random tip line ("# (Tip: ...)", or the note
# that tips.txt is missing) and the "[...] (inlined)" its fractal graphs
# print from uninitialized memory (KNOWN-DIFFERENCES.md)
TIPLESS_SED=(-e 's/^# (Tip: .*)$/# (Tip)/' -e 's/^# (Cannot load tips.txt.*)$/# (Tip)/'
	-e 's/--\[\.\.\.\] (inlined)$/--[...]/')

# outputs [--tipless] CMD_PERF CMD_PROF: runs both shell commands at once
# (each only reads what the other reads), their stdout into $TMP/perf.out
# and $TMP/prof.out with trailing blanks removed (with --tipless, perf
# report's random lines too, as tipless does), stderr into $TMP/perf.err
# and $TMP/prof.err; sets rc_perf and rc_prof to their exit statuses
outputs()
{
	local pid_perf norm=()

	if [ "$1" = --tipless ]; then
		norm=("${TIPLESS_SED[@]}")
		shift
	fi
	(eval "$1") >"$TMP/perf.out" 2>"$TMP/perf.err" &
	pid_perf=$!
	(eval "$2") >"$TMP/prof.out" 2>"$TMP/prof.err"
	rc_prof=$?
	wait "$pid_perf"
	rc_perf=$?
	sed -i "${norm[@]}" -e 's/[[:blank:]]*$//' "$TMP/perf.out" "$TMP/prof.out"
}

# compare [--tipless] NAME CMD_PERF CMD_PROF: runs both shell commands (see
# outputs) and judges their outputs with trailing blanks ignored
compare()
{
	local opt=() rc_perf rc_prof

	if [ "$1" = --tipless ]; then
		opt=(--tipless)
		shift
	fi
	outputs "${opt[@]}" "$2" "$3"
	judge "$1" "$rc_perf" "$rc_prof"
}

# tipless CMD...: runs CMD with the lines that differ between runs of perf
# report normalized (see TIPLESS_SED)
tipless()
{
	"$@" | sed "${TIPLESS_SED[@]}"
}

# report_both [--threads1] NAME FILE ARGS...: compares "perf report --stdio"
# and "prof report --stdio" with ARGS on FILE (see compare --tipless);
# --threads1 runs prof with --threads 1
report_both()
{
	local extra= name file args=

	if [ "$1" = --threads1 ]; then
		extra="--threads 1"
		shift
	fi
	name=$1 file=$2
	shift 2
	[ $# -gt 0 ] && printf -v args '%q ' "$@"
	compare --tipless "$name" \
		"perf report --stdio -i '$file' $args" \
		"'$PROF' report --stdio -i '$file' $extra $args"
}
