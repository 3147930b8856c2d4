#!/bin/bash
# fixtures.sh - prof reads every shared perf.data fixture, and its --stats
# output equals perf 6.1's where perf reads the file.
#
# Every fixture file (all folders but the malformed fuzz-corpus, which
# bad-input.sh covers; *.txt and README files are not perf.data) must give
# status 0 for "prof report --stats", "prof report -D" and "prof report
# --header-only".  Where the fixtures README says perf 6.1 reads the file
# (its last column starts with "yes"), "prof report --stats" must print
# exactly what "perf report --stats" prints on the same copy, followed by
# its own "Callchain stats:" block on files with call chains (stripped for
# the comparison).
. "$(dirname "$0")/../lib.sh"

if [ ! -d "$FIXTURES" ]; then
	skip "shared perf.data fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
	exit 0
fi

# perf_reads REL: does the README say perf 6.1 reads fixture REL?
awk -F'|' '/^\| `/ {
	file = $2; verdict = $(NF - 1)
	gsub(/^[ `]+|[ `]+$/, "", file); gsub(/^ +/, "", verdict)
	if (verdict ~ /^yes/) print file
}' "$FIXTURES/README.md" >"$TMP/perf-reads"

# run_ok NAME ARGS...: prof ARGS must exit 0 with no sanitizer report
run_ok()
{
	local name=$1 rc

	shift
	run_prof "$TMP/out" "$TMP/err" "$@"
	rc=$?
	if [ $rc -eq 0 ] && ! sanitizer_report "$TMP/err"; then
		ok "$name"
	else
		not_ok "$name" "status $rc" "$(failure_detail "$TMP/err")"
	fi
}

mkdir -p "$TMP/fx"
n=0
while IFS= read -r -d '' path; do
	rel=${path#"$FIXTURES"/}
	case $rel in
	*.txt | *README* | google-perf_data_converter/fuzz-corpus/*) continue ;;
	esac
	n=$((n + 1))
	# perf refuses files it does not own; a private copy also keeps the
	# file name ("0x108@NAME" in -D output) the same for both tools
	copy=$TMP/fx/$(basename "$rel")
	cp "$path" "$copy"
	chmod 600 "$copy"
	cd "$TMP/fx" || exit 1
	name=$(basename "$rel")
	run_ok "$rel: report --stats" report --stats -i "$name"
	run_ok "$rel: report -D" report -D -i "$name"
	run_ok "$rel: report --header-only" report --header-only -i "$name"
	if grep -Fxq "$rel" "$TMP/perf-reads"; then
		perf report --stats -i "$name" >"$TMP/perf.out" 2>"$TMP/perf.err"
	fi
	if grep -Fxq "$rel" "$TMP/perf-reads" && [ ! -s "$TMP/perf.out" ]; then
		skip "$rel: --stats equals perf's" "perf 6.1 prints no stats for it"
	elif grep -Fxq "$rel" "$TMP/perf-reads" &&
		grep -q "unexpected end of event stream" "$TMP/perf.err"; then
		# perf stops reading early: see tests/perf/KNOWN-DIFFERENCES.md
		skip "$rel: --stats equals perf's" "perf 6.1 stops early: unexpected end of event stream"
	elif grep -Fxq "$rel" "$TMP/perf-reads"; then
		compare "$rel: --stats equals perf's" \
			"perf report --stats -i '$name'" \
			"set -o pipefail; timeout -k 5 10 '$PROF' report --stats -i '$name' | strip_chainstats"
	fi
	cd "$ROOT" || exit 1
	rm -f "$copy"
done < <(find "$FIXTURES" -type f -print0 | sort -z)

if [ $n -eq 0 ]; then
	not_ok "found perf.data fixtures" "none under $FIXTURES"
fi

# perf's end-of-processing warning about LOST records, on stderr
lost=android-simpleperf/perf_b.data
if [ -f "$FIXTURES/$lost" ]; then
	perf report --stdio -i "$FIXTURES/$lost" 2>&1 >/dev/null |
		sed -n '/^Warning:$/,$p' | grep -v '^unwind:' >"$TMP/perf.err"
	"$PROF" report --stdio -i "$FIXTURES/$lost" 2>"$TMP/prof.err" >/dev/null
	if ! grep -q "lost 1 chunks" "$TMP/perf.err"; then
		skip "$lost: lost-chunks warning as perf's" "perf printed no such warning"
	elif cmp -s "$TMP/perf.err" "$TMP/prof.err"; then
		ok "$lost: lost-chunks warning as perf's"
	else
		not_ok "$lost: lost-chunks warning as perf's" "$(diff "$TMP/perf.err" "$TMP/prof.err")"
	fi
fi
