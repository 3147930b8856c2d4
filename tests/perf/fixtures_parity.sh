#!/bin/bash
# tests/perf/fixtures_parity.sh - prof's full report and script output
# against perf 6.1's on every shared perf.data fixture that perf reads.
#
# For each fixture whose README row says perf 6.1 reads it ("yes" or
# "partial" in its last column), five outputs of prof are compared with
# perf's on a private copy of the file (perf refuses files it does not
# own):
#   flat       report --stdio --no-children -g none
#   comm,dso   report --stdio --sort comm,dso -g none
#   callgraph  report --stdio --no-children      (call graphs where the
#                                                 file has chains)
#   children   report --stdio                    (perf's default)
#   script     script                            (default fields)
# Comparison: stdout byte for byte (trailing blanks ignored) and exit
# status; the only line normalized is perf report's random tip line.
#
# Three lists at the top say which pairs are not compared in full:
# - not_yet: (file, mode) pairs that need a perf feature prof does not
#   have yet (issue 20: branch stacks, LBR call stacks, event groups,
#   tracepoints).  Each prints "ok - ... # skip not yet: issue 20 WHAT";
#   whoever lands the feature removes its lines.
# - aux_trace: files with an AUX area trace, which prof does not decode:
#   perf runs with --no-itrace, and prints the rest of the file as prof.
# - perf_wrong: files where perf 6.1 stops early or prints what the file
#   does not hold (each explained in tests/perf/KNOWN-DIFFERENCES.md,
#   "Full reports on the shared fixtures").  For those, and for the files
#   perf 6.1 does not read at all ("no" in the README), prof must exit 0
#   with no sanitizer report and print a report ("# Samples:" lines, or
#   perf's "has no samples" message) in every mode.
# run-all: cost 60
. "$(dirname "$0")/../lib.sh"

# not_yet: "FILE MODE WHAT" - compared once issue 20's WHAT lands
not_yet=(
	# branch stacks: perf's default report of a file with branch
	# stacks is a branch report (dso_from, symbol_from, dso_to, ...)
	"android-simpleperf/perf_b.data flat branch stacks"
	"android-simpleperf/perf_b.data comm,dso branch stacks"
	"android-simpleperf/perf_b.data callgraph branch stacks"
	"android-simpleperf/perf_b.data children branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch-4.14 flat branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch-4.14 comm,dso branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch-4.14 callgraph branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch-4.14 children branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch_stack_spec flat branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch_stack_spec comm,dso branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch_stack_spec callgraph branch stacks"
	"google-perf_data_converter/quipper/perf.data.branch_stack_spec children branch stacks"
	"google-perf_data_converter/quipper/perf.data.callgraph_and_branch-3.8 flat branch stacks"
	"google-perf_data_converter/quipper/perf.data.callgraph_and_branch-3.8 comm,dso branch stacks"
	"google-perf_data_converter/quipper/perf.data.callgraph_and_branch-3.8 callgraph branch stacks"
	"google-perf_data_converter/quipper/perf.data.callgraph_and_branch-3.8 children branch stacks"
	# LBR call stacks (--call-graph lbr): chains stitched from the LBR
	"kdab-perfparser/vector_static_gcc_perf.lbr.data comm,dso LBR call stacks"
	"kdab-perfparser/vector_static_gcc_perf.lbr.data callgraph LBR call stacks"
	"kdab-perfparser/vector_static_gcc_perf.lbr.data children LBR call stacks"
	"kdab-perfparser/vector_static_gcc_perf.lbr.data script LBR call stacks"
)

# aux_trace: files with an AUX area trace (Intel PT, CoreSight ETM), which
# perf decodes into samples of its own and prof does not (README, "prof
# report"): compared with perf's output without the decoding (--no-itrace)
aux_trace=(
	android-simpleperf/etm_perf_kernel.data
	android-simpleperf/etm_perf_with_unformatted_trace.data
	google-perf_data_converter/quipper/perf.data.intel_pt-4.14
)

# perf_wrong: files perf 6.1 does not read to the end (KNOWN-DIFFERENCES.md)
perf_wrong=(
	mstange-linux-perf-data/fibo.compressed2.pipe.data	# COMPRESSED2 (type 83)
	mstange-linux-perf-data/sleep.compressed2.pipe.data	# COMPRESSED2 (type 83)
	android-simpleperf/perf_for_build_id_check.data	# simpleperf record 32769
	android-simpleperf/perf_with_callchain_record.data	# simpleperf record 32775
)

modes=(flat comm,dso callgraph children script)
declare -A mode_args=(
	[flat]="report --stdio --no-children -g none"
	[comm,dso]="report --stdio --sort comm,dso -g none"
	[callgraph]="report --stdio --no-children"
	[children]="report --stdio"
	[script]="script"
)

if [ ! -d "$FIXTURES" ]; then
	skip "shared perf.data fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
	exit 0
fi

# the tip line, the one line normalized (lib.sh's TIPLESS_SED without its
# fractal "(inlined)" rule: nothing else is loosened)
TIP_SED=(-e 's/^# (Tip: .*)$/# (Tip)/' -e 's/^# (Cannot load tips.txt.*)$/# (Tip)/')

declare -A skip_why
for line in "${not_yet[@]}"; do
	read -r file mode what <<<"$line"
	skip_why["$file $mode"]=$what
done
declare -A no_itrace
for rel in "${aux_trace[@]}"; do
	no_itrace[$rel]=--no-itrace
done
declare -A reduced
for rel in "${perf_wrong[@]}"; do
	reduced[$rel]=1
done

# verdicts: "FILE VERDICT" for each README row, VERDICT yes, partial or no
declare -A verdict
while read -r rel v; do
	verdict[$rel]=$v
done < <(awk -F'|' '/^\| `/ {
	file = $2; v = $(NF - 1)
	gsub(/^[ `]+|[ `]+$/, "", file); gsub(/^[ *]+/, "", v)
	if (v ~ /^yes/) print file, "yes"
	else if (v ~ /^partial/) print file, "partial"
	else if (v ~ /^no/) print file, "no"
}' "$FIXTURES/README.md")

# prints_report NAME MODE: prof's last run of MODE exited 0 and printed a
# report, the check for files perf cannot be compared with
prints_report()
{
	local name=$1 mode=$2 rc=$3

	if sanitizer_report "$TMP/prof.err"; then
		not_ok "$name" "sanitizer report:" "$(sanitizer_summary "$TMP/prof.err")"
	elif [ "$rc" -ne 0 ]; then
		not_ok "$name" "status $rc" "$(failure_detail "$TMP/prof.err")"
	elif [ "$mode" != script ] && ! grep -q '^# Samples: ' "$TMP/prof.out" &&
		! grep -q 'has no samples' "$TMP/prof.err"; then
		not_ok "$name" "no report printed" "$(failure_detail "$TMP/prof.err")"
	else
		ok "$name"
	fi
}

mkdir -p "$TMP/fx"
n=0
for rel in $(printf '%s\n' "${!verdict[@]}" | sort); do
	[ -f "$FIXTURES/$rel" ] || continue
	name=${rel##*/}
	install -m 600 "$FIXTURES/$rel" "$TMP/fx/$name"
	cd "$TMP/fx" || exit 1
	for mode in "${modes[@]}"; do
		args=${mode_args[$mode]}
		if [ "${verdict[$rel]}" = no ] || [ -n "${reduced[$rel]:-}" ]; then
			timeout -k 5 20 "$PROF" $args -i "$name" >"$TMP/prof.out" 2>"$TMP/prof.err"
			prints_report "$rel: $mode: prof prints a report" "$mode" $?
			continue
		fi
		n=$((n + 1))
		if [ -n "${skip_why["$rel $mode"]:-}" ]; then
			skip "$rel: $mode as perf's" "not yet: issue 20 ${skip_why["$rel $mode"]}"
			continue
		fi
		outputs "timeout -k 5 60 perf $args ${no_itrace[$rel]:-} -i '$name'" \
			"timeout -k 5 20 '$PROF' $args -i '$name'"
		sed -i "${TIP_SED[@]}" "$TMP/perf.out" "$TMP/prof.out"
		judge "$rel: $mode as perf's" "$rc_perf" "$rc_prof"
	done
	cd "$ROOT" || exit 1
	rm -f "$TMP/fx/$name"
done

if [ $n -eq 0 ]; then
	not_ok "found perf.data fixtures perf reads" "none listed in $FIXTURES/README.md"
fi
