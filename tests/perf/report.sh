#!/bin/bash
# tests/perf/report.sh - "prof report --stdio" against "perf report --stdio"
# on freshly recorded files, over a matrix of sort keys, fields and filters.
#
# Files (recorded at test time with the system perf): a fork/exec-heavy
# shell loop, a multi-threaded C program, a C++ program, a system-wide
# recording with kernel samples, two events at once, and one with call
# chains (-g, compared with -g none --no-children; call graphs themselves
# are tested by callgraph.sh).  Filter values (a comm,
# a DSO, a pid, a time window) come from perf's own output on the same file.
#
# Comparison: stdout of both, trailing blanks ignored, and exit status.
# perf ends its report with a random tip ("# (Tip: ...)"), prof with a
# fixed one: the tip line is replaced by "# (Tip)" on both sides.

# run-all: cost 103
. "$(dirname "$0")/../lib.sh"
set -o pipefail

# both NAME FILE ARGS...: perf and prof with ARGS on FILE
both() { report_both "report $1" "${@:2}"; }

# both_symkey NAME FILE ARGS...: both, for a symbol key with no DSO key
# before it.  perf's input tree then compares unresolved addresses by
# address alone and the rest by DSO first; on a busy system-wide
# recording its lookups can miss an entry it holds and print one key in
# two rows, where prof prints their sum (KNOWN-DIFFERENCES.md, "Entries
# perf's tree cannot find again").  Such a report is skipped.
both_symkey()
{
	local name="report $1" file=$2 args rc_perf rc_prof

	shift 2
	printf -v args '%q ' "$@"
	outputs --tipless "perf report --stdio -i '$file' $args" \
		"'$PROF' report --stdio -i '$file' $args"
	if awk '/^# Samples:/ { n++ } /^ +([0-9.]+%|\[)/ { print n, $0 }' "$TMP/perf.out" |
		sed -e 's/[0-9.]*%//g' -e 's/  */ /g' -e 's/ $//' |
		sort | uniq -d | grep -q .; then
		skip "$name" "perf split an entry its tree could not find again"
		return
	fi
	judge "$name" "$rc_perf" "$rc_prof"
}

# keep NAME: keeps perf's report of the last check as $TMP/NAME
keep()
{
	cp "$TMP/perf.out" "$TMP/$1"
}

# top_value REPORT [N]: the Nth key value of perf's report REPORT (kept by
# keep), the top one by default: the Nth line of what perf report -q would
# print (the report without its # lines: a file of two events has blank
# lines after the first one's entries)
top_value()
{
	grep -v '^#' "$1" | sed -n "${2:-1}p" |
		sed -e 's/^\( *[0-9.]*%\)* *//' -e 's/ *$//'
}

# The C++ workload: templates and namespaces, so demangled names show.
build_cxx()
{
	command -v g++ >/dev/null || return 1
	cat >"$TMP/cxx.cc" <<'EOF'
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace work {
template <typename T> struct Acc {
	T sum{};
	__attribute__((noinline)) void add(const T &v) { sum += v; }
};
__attribute__((noinline)) std::string key(int i) { return "k" + std::to_string(i % 97); }
}

int main()
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
	std::map<std::string, int> m;
	work::Acc<double> acc;
	std::vector<int> v;

	while (std::chrono::steady_clock::now() < end) {
		for (int i = 0; i < 1000; i++) {
			m[work::key(i)] += i;
			acc.add(i * 0.5);
			v.push_back(i);
		}
		v.clear();
	}
	return (int)acc.sum & 1;
}
EOF
	g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/bin/cxx" "$TMP/cxx.cc"
}

record_workload forks -e cpu-clock -- forks || exit 1
record_workload threads -e cpu-clock -- threads || exit 1
record_workload sys -a -e cpu-clock -- sleep 0.3 || exit 1
record_workload two -e cpu-clock,task-clock -- spin || exit 1
record_workload chains -g -e cpu-clock -- spin || exit 1
record_workload sysg -a -g -e cpu-clock -- sh -c 'ls -lR /usr/lib >/dev/null' || exit 1
has_cxx=0
if build_cxx; then
	record_workload cxx -e cpu-clock -- "$TMP/bin/cxx" && has_cxx=1
fi

files=(forks threads sys two)
[ $has_cxx -eq 1 ] && files+=(cxx)

for f in "${files[@]}"; do
	data=$TMP/$f.data
	both "$f default" "$data"
	for s in comm pid dso cpu dso,sym comm,dso pid,cpu cpu,comm,dso; do
		both "$f --sort $s" "$data" --sort "$s"
		case $s in comm | pid | dso) keep "$f.by-$s" ;; esac
	done
	for s in sym sym,dso,comm; do
		both_symkey "$f --sort $s" "$data" --sort "$s"
		[ $s = sym ] && keep "$f.by-sym"
	done
	both "$f -n" "$data" -n
	both "$f --show-total-period" "$data" --show-total-period -n --sort comm,dso
	both "$f -F overhead,sample,period,comm,dso" "$data" -F overhead,sample,period,comm,dso
	both_symkey "$f -F sym,overhead" "$data" -F sym,overhead
	both "$f -F +pid" "$data" -F +pid --sort dso
	both "$f --sort sample,comm" "$data" --sort sample,comm
	both "$f --percent-limit 2" "$data" --percent-limit 2
	both "$f --percent-limit 0.5 relative" "$data" --percent-limit 0.5 --percentage relative --sort dso

	comm=$(top_value "$TMP/$f.by-comm")
	comm2=$(top_value "$TMP/$f.by-comm" 2)
	dso=$(top_value "$TMP/$f.by-dso")
	dso2=$(top_value "$TMP/$f.by-dso" 2)
	sym=$(top_value "$TMP/$f.by-sym" | sed 's/^\[.\] //')
	pid=$(top_value "$TMP/$f.by-pid" | sed 's/:.*//; s/ //g')
	both "$f --comms $comm" "$data" --comms "$comm"
	both "$f --comms two --sort dso" "$data" --comms "$comm,$comm2" --sort dso
	both "$f --comms relative" "$data" --comms "$comm,$comm2" --percentage relative
	both "$f --dsos $dso" "$data" --dsos "$dso"
	both "$f --dsos two -n" "$data" --dsos "$dso,$dso2" -n --sort comm,dso,sym
	both "$f --dsos relative --sort comm" "$data" --dsos "$dso,$dso2" --sort comm --percentage relative
	both "$f --symbols" "$data" --symbols "$sym"
	both "$f --symbols --sort dso,sym" "$data" --symbols "$sym,nosuchsymbol" --sort dso,sym
	both "$f --pid $pid" "$data" --pid "$pid" --sort pid,sym
	both "$f --tid $pid" "$data" --tid "$pid" --sort comm,sym --percentage relative
	both "$f -q" "$data" -q --sort comm,dso
done

# --time windows from the file's own sample times
times=$(perf script -i "$TMP/sys.data" -F time 2>/dev/null | tr -d ' :')
n=$(echo "$times" | wc -l)
t1=$(echo "$times" | sed -n "$((n / 4 + 1))p")
t2=$(echo "$times" | sed -n "$((n * 3 / 4 + 1))p")
both "sys --time start,end" "$TMP/sys.data" --time "$t1,$t2"
both "sys --time start," "$TMP/sys.data" --time "$t1," --sort comm
both "sys --time ,end" "$TMP/sys.data" --time ",$t2" --sort dso -n
both "sys --time empty window" "$TMP/sys.data" --time 1,2
# several ranges, and perf's percent slices of the first..last sample span
t0=$(echo "$times" | sed -n "$((n / 8 + 1))p")
t3=$(echo "$times" | sed -n "$((n / 2 + 1))p")
both "sys --time two ranges" "$TMP/sys.data" --time "$t0,$t1 $t3,$t2" --sort comm
both "sys --time two ranges, open end" "$TMP/sys.data" --time "$t0,$t1  $t3," --sort dso
both "sys --time overlapping ranges" "$TMP/sys.data" --time "$t0,$t3 $t1,$t2"
both "sys --time ranges touching" "$TMP/sys.data" --time "$t0,$t1 $t1,$t2"
both "sys --time 10%/2" "$TMP/sys.data" --time 10%/2 --sort comm
both "sys --time 10%/1,10%/3" "$TMP/sys.data" --time 10%/1,10%/3 --sort comm,dso
both "sys --time 0%-10%,30%-40%" "$TMP/sys.data" --time 0%-10%,30%-40% -n --sort dso
both "sys --time 50%" "$TMP/sys.data" --time 50% --sort comm
both "sys --time 33.3%/3" "$TMP/sys.data" --time 33.3%/3 --sort comm
both "sys --time 0%-100%" "$TMP/sys.data" --time 0%-100% --sort comm
for bad in abc "$t1" "$t2,$t1" "$t0,$t1,$t2" "" "150%" "10%/0" "10%/11" \
	"10%/2,0%-10%" "10%/2 " "-1%"; do
	both "sys --time invalid '$bad'" "$TMP/sys.data" --time "$bad"
done
# a pipe-mode file has no first/last sample time for percentages
if record_workload --pipe pipe -e cpu-clock -- spin; then
	both "pipe --time 10%/2 (no sample times)" "$TMP/pipe.data" --time 10%/2
else
	not_ok "pipe --time 10%/2 (no sample times)" "perf record -o - failed"
fi

# a stream's events are named by its EVENT_DESC feature, as in a file,
# but perf's --stats names them before the feature arrives
if record_workload --pipe pipename -e 'cpu-clock/name=myclock/' -- spin; then
	both "pipe event named by EVENT_DESC" "$TMP/pipename.data"
	both "pipe --stats names it by its attr" "$TMP/pipename.data" --stats
else
	not_ok "pipe event named by EVENT_DESC" "perf record -o - failed"
fi

# CPU filters need PERF_SAMPLE_CPU: system-wide files have it
both "sys -C 0" "$TMP/sys.data" -C 0 --sort cpu,comm
both "sys -C 0-1,3" "$TMP/sys.data" -C 0-1,3 --sort cpu,dso
both "threads -C (no cpu in file)" "$TMP/threads.data" -C 0

# call chains: the flat part with -g none --no-children
both "chains -g none --no-children" "$TMP/chains.data" -g none --no-children
both "chains --no-children -g none --sort dso,sym -n" "$TMP/chains.data" \
	--no-children -g none --sort dso,sym -n

# children mode (perf's default with call chains): every entry a chain
# passes through, once per sample; without a symbol key prof resolves the
# chain to maps only.  Symbol keys only on the single-process file: on a
# system-wide one, garbage frame-pointer addresses make perf split one
# unresolved entry into several rows (see KNOWN-DIFFERENCES.md)
for f in chains sysg; do
	data=$TMP/$f.data
	sorts="dso comm,dso pid comm cpu,comm"
	[ $f = chains ] && sorts="$sorts comm,dso,sym dso,sym sym sym,dso"
	for s in $sorts; do
		both "$f children --sort $s" "$data" -g none --sort "$s"
		case $s in comm | dso) keep "$f.by-$s" ;; esac
	done
	both "$f children -n -F overhead,sample,comm" "$data" -g none -n -F overhead,sample,comm
	comm=$(top_value "$TMP/$f.by-comm")
	dso=$(top_value "$TMP/$f.by-dso")
	both "$f children --comms $comm" "$data" -g none --comms "$comm" --sort dso
	both "$f children --dsos $dso" "$data" -g none --dsos "$dso" --sort comm,dso
done

for f in forks sys; do
	report_both --threads1 "report $f --threads 1" "$TMP/$f.data"
	report_both --threads1 "report $f --threads 1 --symbols --sort dso,sym" "$TMP/$f.data" \
		--symbols "$(top_value "$TMP/$f.by-sym")" --sort dso,sym
done
report_both --threads1 "report chains children --threads 1" "$TMP/chains.data" -g none

# --symbols items that read as hex numbers are sample addresses
ip=$(perf script -i "$TMP/sys.data" -F ip 2>/dev/null | awk 'NF { print $1; exit }')
both "sys --symbols 0x<ip>" "$TMP/sys.data" --symbols "0x$ip"
both "sys --symbols <ip>,name --sort dso,sym" "$TMP/sys.data" --symbols "$ip,nosuchsymbol" --sort dso,sym

# perf record keeps a copy of the running kernel's kallsyms in its build-id
# cache, and prof reads that copy instead of /proc/kallsyms (50 ms of kernel
# formatting) when it is current: it starts like /proc/kallsyms up to the
# first text symbol, and its modules are the loaded ones at the same
# places.  Both tools run with HOME at a cache holding a made-up copy (the
# rest of ~/.debug linked in).
bid=$(perf buildid-list -k 2>/dev/null)
hot=$(perf report --stdio -q -i "$TMP/sys.data" --dsos '[kernel.kallsyms]' --sort sym 2>/dev/null |
	awk '$2 == "[k]" && $3 !~ /^0x/ { print $3; exit }')
first=$(awk '$2 ~ /^[tT]$/ { print $3; exit }' /proc/kallsyms)
if [ -z "$bid" ] || [ -z "$hot" ] || [ "$hot" = "$first" ]; then
	skip "report sys with perf's kallsyms copy" "no kernel build-id or no named kernel symbol"
else
	home=$TMP/home
	mkdir -p "$home/.debug/[kernel.kallsyms]/$bid"
	for d in "$HOME"/.debug/* "$HOME"/.debug/.[!.]*; do
		case $d in *"[kernel.kallsyms]" | *"*") ;; *) ln -s "$d" "$home/.debug/" ;; esac
	done
	copy=$home/.debug/[kernel.kallsyms]/$bid/kallsyms
	# another boot: the first text symbol elsewhere; /proc/kallsyms is read
	awk -F '[ ]' -v OFS=' ' -v first="$first" \
		'!done && $3 == first { $1 = "ffffffff9f000000"; done = 1 } { print }' \
		/proc/kallsyms >"$copy"
	compare --tipless "report sys with a copy of kallsyms from another boot" \
		"HOME='$home' perf report --stdio -i '$TMP/sys.data'" \
		"HOME='$home' '$PROF' report --stdio -i '$TMP/sys.data'"
	# current, with the hot function renamed: prof shows the copy's name
	awk -F '[ ]' -v OFS=' ' -v hot="$hot" '$3 == hot { $3 = hot "_from_copy" } { print }' \
		/proc/kallsyms >"$copy"
	HOME=$home "$PROF" report --stdio -q -i "$TMP/sys.data" --sort sym >"$TMP/prof.out" 2>&1
	check "report sys reads perf's current kallsyms copy" \
		grep -q " ${hot}_from_copy\$" "$TMP/prof.out"
fi
