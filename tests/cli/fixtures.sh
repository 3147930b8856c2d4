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
# run-all: cost 22
. "$(dirname "$0")/../lib.sh"

if [ ! -d "$FIXTURES" ]; then
	skip "shared perf.data fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
	exit 0
fi

# perf_reads[REL] is set if the README says perf 6.1 reads fixture REL
declare -A perf_reads
while IFS= read -r rel; do
	perf_reads[$rel]=1
done < <(awk -F'|' '/^\| `/ {
	file = $2; verdict = $(NF - 1)
	gsub(/^[ `]+|[ `]+$/, "", file); gsub(/^ +/, "", verdict)
	if (verdict ~ /^yes/) print file
}' "$FIXTURES/README.md")

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
	name=${rel##*/}
	copy=$TMP/fx/$name
	install -m 600 "$path" "$copy"
	cd "$TMP/fx" || exit 1
	run_ok "$rel: report --stats" report --stats -i "$name"
	run_ok "$rel: report -D" report -D -i "$name"
	run_ok "$rel: report --header-only" report --header-only -i "$name"
	if [ -n "${perf_reads[$rel]:-}" ]; then
		outputs "perf report --stats -i '$name'" \
			"set -o pipefail; timeout -k 5 10 '$PROF' report --stats -i '$name' | strip_chainstats"
		if [ ! -s "$TMP/perf.out" ]; then
			skip "$rel: --stats equals perf's" "perf 6.1 prints no stats for it"
		elif grep -q "unexpected end of event stream" "$TMP/perf.err"; then
			# perf stops reading early: see tests/perf/KNOWN-DIFFERENCES.md
			skip "$rel: --stats equals perf's" "perf 6.1 stops early: unexpected end of event stream"
		else
			judge "$rel: --stats equals perf's" "$rc_perf" "$rc_prof"
		fi
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
