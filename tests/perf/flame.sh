#!/bin/bash
# tests/perf/flame.sh - "prof flame" against perf's reading of the same
# files, recorded at test time.
#
# Folded stacks: "prof flame --folded" (sorted) must print exactly what
# "perf script -F comm,pid,tid,event,ip,sym,dso" folds to under the rules
# of FlameGraph's stackcollapse-perf.pl (folded-ref.pl here; the Perl
# script itself is not packaged for Debian 12): the same stacks with the
# same counts.  Files: the spin, threads and forks workloads and a C++
# program (templates, a lambda, an anonymous namespace) with -g, a short
# system-wide -g recording, spin without -g, two events, and a pipe-mode
# stream; options --pid, --tid, --kernel-marks, --merged, --reverse,
# --max-stack and -e.
#
# SVG: well-formed XML (xmllint, else python3); with --minwidth 0 one
# frame per distinct stack prefix plus the root, each frame's tooltip
# naming the samples perf's stacks give it; with a wide --minwidth
# exactly the frames that wide; --icicle puts the root on top; titles are
# escaped.  --diff: the two-column folded output holds each file's
# stacks, and the SVG colours by change.  Bad command lines exit 129, a
# missing file 1.

# run-all: cost 22
. "$(dirname "$0")/../lib.sh"
set -o pipefail

REF=$(dirname "$0")/folded-ref.pl
REF=$(cd "$(dirname "$REF")" && pwd)/folded-ref.pl
SCRIPT_FIELDS=comm,pid,tid,event,ip,sym,dso

# folded NAME FILE [REF-OPTS] -- [PROF-OPTS]: compares perf script folded
# by the reference with prof flame --folded
folded()
{
	local name=$1 file=$2 ref_opts=() prof_opts=()

	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		ref_opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	prof_opts=("$@")
	compare "flame --folded: $name" \
		"perf script -F $SCRIPT_FIELDS -i '$file' ${perf_script_opts:-} 2>/dev/null | perl '$REF' ${ref_opts[*]}" \
		"'$PROF' flame -q -i '$file' --folded ${prof_opts[*]} | LC_ALL=C sort"
}

# prefix_titles FOLDED: "name<TAB>samples" of every stack prefix (what
# each frame of the SVG must say), sorted, with the root "all"
prefix_titles()
{
	awk '{
		c = $NF
		s = substr($0, 1, length($0) - length($NF) - 1)
		n = split(s, f, ";")
		p = ""
		for (i = 1; i <= n; i++) {
			p = p ";" f[i]
			tot[p] += c
			name[p] = f[i]
		}
		all += c
	}
	END {
		for (p in tot)
			print name[p] "\t" tot[p]
		print "all\t" all
	}' "$1" | LC_ALL=C sort
}

# svg_titles SVG: "name<TAB>samples" of every frame's tooltip, sorted
svg_titles()
{
	grep -o '<g><title>[^<]*</title>' "$1" |
		sed -e 's/^<g><title>//' -e 's/<\/title>$//' \
			-e 's/ (\([0-9,]*\) samples\{0,1\}, [^()]*)$/\t\1/' \
			-e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&apos;/'/g" \
			-e 's/&amp;/\&/g' |
		awk -F'\t' -v OFS='\t' '{ gsub(/,/, "", $2); print }' | LC_ALL=C sort
}

# well_formed FILE: the file parses as XML
well_formed()
{
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
	fi
}

# rect_attr SVG ATTR: the ATTR of every frame's rect, one a line
rect_attr()
{
	sed -n '/<g id="frames">/,/<\/g>$/p' "$1" | grep -o "<rect [^>]*" |
		sed "s/.* $2=\"\\([^\"]*\\)\".*/\\1/"
}

_lib_build_workloads || {
	not_ok "build the workloads"
	exit 1
}
cat >"$TMP/cxx.cc" <<'EOF'
// cxx: ~0.3 s in C++ names stackcollapse-perf.pl tidies
#include <algorithm>
#include <chrono>
#include <vector>

namespace {
struct Worker {
	volatile unsigned long sink = 0;
	__attribute__((noinline)) void operator()(unsigned long n)
	{
		for (unsigned long i = 0; i < n; i++)
			sink += i;
	}
};
}

namespace app {
template <typename T> struct Box {
	__attribute__((noinline)) static void run(T &w, unsigned long n) { w(n); }
};
}

int main()
{
	Worker w;
	auto lambda = [&](unsigned long n) __attribute__((noinline)) { app::Box<Worker>::run(w, n); };
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
	std::vector<int> v(1000);

	while (std::chrono::steady_clock::now() < end) {
		lambda(20000);
		std::sort(v.begin(), v.end());
	}
}
EOF
have_cxx=1
# (not named cxx: report.sh has a cxx of its own, and a system-wide
# recording of both would hold two DSOs of one name)
g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/bin/cxx-names" "$TMP/cxx.cc" 2>"$TMP/cxx.err" || have_cxx=0

# ---- folded stacks against perf ----------------------------------------------

# keep_ref NAME: keeps perf's folded stacks of the last check as
# $TMP/NAME.ref, for the SVG and --diff checks below
keep_ref()
{
	cp "$TMP/perf.out" "$TMP/$1.ref"
}

if record_workload spin -g; then
	folded "spin -g" "$TMP/spin.data"
	keep_ref spin
	folded "spin -g --reverse" "$TMP/spin.data" reverse=1 -- --reverse
	perf_script_opts="--max-stack 3" \
		folded "spin -g --max-stack 3" "$TMP/spin.data" -- --max-stack 3
else
	not_ok "flame: record spin -g"
fi
if record_workload threads -g -- threads; then
	folded "threads -g" "$TMP/threads.data"
	folded "threads -g --tid" "$TMP/threads.data" tid=1 -- --tid
else
	not_ok "flame: record threads -g"
fi
if record_workload forks -g -- forks; then
	folded "forks -g" "$TMP/forks.data"
	keep_ref forks
	folded "forks -g --pid" "$TMP/forks.data" pid=1 -- --pid
	folded "forks -g --merged" "$TMP/forks.data" merged=1 -- --merged
else
	not_ok "flame: record forks -g"
fi
if [ $have_cxx = 0 ]; then
	skip "flame --folded: C++ names -g" "g++ failed: $(head -1 "$TMP/cxx.err")"
elif record_workload cxx -g -- "$TMP/bin/cxx-names"; then
	folded "C++ names -g" "$TMP/cxx.data"
else
	not_ok "flame: record C++ names -g"
fi
if record_workload sys -a -g -- sleep 0.3; then
	folded "system-wide -g" "$TMP/sys.data"
	keep_ref sys
	folded "system-wide -g --kernel-marks" "$TMP/sys.data" kernel=1 -- --kernel-marks
	folded "system-wide -g --tid --reverse" "$TMP/sys.data" tid=1 reverse=1 -- --tid --reverse
	perf_script_opts="--max-stack 5" \
		folded "system-wide -g --max-stack 5" "$TMP/sys.data" -- --max-stack 5
else
	not_ok "flame: record system-wide -g"
fi
if record_workload nog; then
	folded "spin without -g" "$TMP/nog.data"
else
	not_ok "flame: record spin without -g"
fi
if record_workload two -g -e cpu-clock -e task-clock -- spin; then
	folded "two events: the first" "$TMP/two.data"
	folded "two events: -e task-clock" "$TMP/two.data" event=task-clock -- -e task-clock
else
	not_ok "flame: record two events"
fi
if record_workload --pipe pipe -g -- spin; then
	compare "flame --folded: pipe-mode stream on stdin" \
		"perf script -F $SCRIPT_FIELDS -i - <'$TMP/pipe.data' 2>/dev/null | perl '$REF'" \
		"'$PROF' flame -q -i - --folded <'$TMP/pipe.data' | LC_ALL=C sort"
else
	not_ok "flame: record pipe-mode stream"
fi

# ---- the SVG -----------------------------------------------------------------

svg_checks()
{
	local name=$1 file=$2 svg=$TMP/$1.svg n_ref n_svg

	[ -s "$TMP/$name.ref" ] ||
		perf script -F $SCRIPT_FIELDS -i "$file" 2>/dev/null | perl "$REF" >"$TMP/$name.ref"
	if ! run_prof "$svg" "$TMP/prof.err" flame -q -i "$file" -o - --minwidth 0; then
		not_ok "flame svg $name: prof flame" "$(failure_detail "$TMP/prof.err")"
		return
	fi
	check "flame svg $name: well-formed XML" well_formed "$svg"
	prefix_titles "$TMP/$name.ref" >"$TMP/$name.want"
	svg_titles "$svg" >"$TMP/$name.got"
	n_ref=$(wc -l <"$TMP/$name.want")
	n_svg=$(grep -c '<g><title>' "$svg")
	if [ "$n_ref" -eq "$n_svg" ]; then
		ok "flame svg $name: one frame per stack prefix ($n_svg)"
	else
		not_ok "flame svg $name: one frame per stack prefix" "perf's stacks: $n_ref, frames: $n_svg"
	fi
	if cmp -s "$TMP/$name.want" "$TMP/$name.got"; then
		ok "flame svg $name: every tooltip has perf's sample count"
	else
		not_ok "flame svg $name: every tooltip has perf's sample count" \
			"$(diff "$TMP/$name.want" "$TMP/$name.got" | head -n 10)"
	fi
}

[ -s "$TMP/spin.data" ] && svg_checks spin "$TMP/spin.data"
if [ -s "$TMP/sys.data" ]; then
	svg_checks sys "$TMP/sys.data"

	# the default --minwidth leaves out frames under 0.1 px
	run_prof "$TMP/def.svg" "$TMP/prof.err" flame -q -i "$TMP/sys.data" -o -
	narrow=$(rect_attr "$TMP/def.svg" width | awk '$1 < 0.1' | wc -l)
	if [ "$narrow" -eq 0 ] && [ "$(grep -c '<g><title>' "$TMP/def.svg")" -le \
		"$(grep -c '<g><title>' "$TMP/sys.svg")" ]; then
		ok "flame svg: no frame under the default 0.1 px"
	else
		not_ok "flame svg: no frame under the default 0.1 px" "$narrow narrower frames"
	fi

	# --width 300 --minwidth 12: exactly the prefixes with 280 px * share >= 12
	# (one exactly at 12 may round either way)
	run_prof "$TMP/wide.svg" "$TMP/prof.err" flame -q -i "$TMP/sys.data" -o - \
		--width 300 --minwidth 12
	total=$(awk -F'\t' '$1 == "all" { print $2 }' "$TMP/sys.want")
	want=$(awk -F'\t' -v t="$total" '$2 * 280 / t > 12.000001' "$TMP/sys.want" | wc -l)
	want_max=$(awk -F'\t' -v t="$total" '$2 * 280 / t >= 11.999999' "$TMP/sys.want" | wc -l)
	got=$(grep -c '<g><title>' "$TMP/wide.svg")
	narrow=$(rect_attr "$TMP/wide.svg" width | awk '$1 < 11.995' | wc -l)
	if [ "$got" -ge "$want" ] && [ "$got" -le "$want_max" ] && [ "$narrow" -eq 0 ]; then
		ok "flame svg: --minwidth 12 keeps the $got frames that wide"
	else
		not_ok "flame svg: --minwidth 12 keeps the frames that wide" \
			"expected $want frames, got $got ($narrow narrower)"
	fi

	run_prof "$TMP/icicle.svg" "$TMP/prof.err" flame -q -i "$TMP/sys.data" -o - --icicle
	root_y=$(rect_attr "$TMP/icicle.svg" y | head -n 1)
	min_y=$(rect_attr "$TMP/icicle.svg" y | sort -n | head -n 1)
	flame_root_y=$(rect_attr "$TMP/def.svg" y | head -n 1)
	max_y=$(rect_attr "$TMP/def.svg" y | sort -n | tail -n 1)
	if [ "$root_y" = "$min_y" ] && [ "$flame_root_y" = "$max_y" ]; then
		ok "flame svg: --icicle puts the root on top, the default at the bottom"
	else
		not_ok "flame svg: --icicle puts the root on top, the default at the bottom" \
			"icicle root y $root_y (top $min_y), flame root y $flame_root_y (bottom $max_y)"
	fi
fi
if [ -s "$TMP/spin.data" ]; then
	run_prof "$TMP/title.svg" "$TMP/prof.err" flame -i "$TMP/spin.data" -o - \
		--title "a < b & 'c' \"d\""
	check "flame svg: a title with markup characters stays well-formed" \
		well_formed "$TMP/title.svg"
fi

# ---- --diff --------------------------------------------------------------------

if [ -s "$TMP/spin.data" ] && [ -s "$TMP/forks.data" ]; then
	base=$TMP/spin.data new=$TMP/forks.data
	for f in spin forks; do
		[ -s "$TMP/$f.ref" ] ||
			perf script -F $SCRIPT_FIELDS -i "$TMP/$f.data" 2>/dev/null | perl "$REF" >"$TMP/$f.ref"
	done
	run_prof "$TMP/diff.folded" "$TMP/prof.err" flame -q --diff "$base" "$new" --folded
	# each column is one file's folded stacks
	awk -v base="$TMP/diff.base.u" -v new="$TMP/diff.new.u" '{
		n = $NF
		b = $(NF - 1)
		s = substr($0, 1, length($0) - length(n) - length(b) - 2)
		if (b > 0)
			print s, b >base
		if (n > 0)
			print s, n >new
	}' "$TMP/diff.folded"
	LC_ALL=C sort "$TMP/diff.base.u" >"$TMP/diff.base"
	LC_ALL=C sort "$TMP/diff.new.u" >"$TMP/diff.new"
	if cmp -s "$TMP/spin.ref" "$TMP/diff.base" && cmp -s "$TMP/forks.ref" "$TMP/diff.new"; then
		ok "flame --diff --folded: the base and new columns are perf's stacks of each file"
	else
		not_ok "flame --diff --folded: the base and new columns are perf's stacks of each file" \
			"$(diff "$TMP/spin.ref" "$TMP/diff.base" | head -n 5)" \
			"$(diff "$TMP/forks.ref" "$TMP/diff.new" | head -n 5)"
	fi
	run_prof "$TMP/diff.svg" "$TMP/prof.err" flame -q --diff "$base" "$new" -o -
	check "flame --diff: well-formed XML" well_formed "$TMP/diff.svg"
	# a process only NEW has is red, with a base of 0; one only BASE has
	# is not drawn
	cut -d';' -f1 "$TMP/spin.ref" | sed 's/ [0-9]*$//' | sort -u >"$TMP/base.roots"
	cut -d';' -f1 "$TMP/forks.ref" | sed 's/ [0-9]*$//' | sort -u >"$TMP/new.roots"
	only_new=$(comm -13 "$TMP/base.roots" "$TMP/new.roots" | head -n 1)
	only_base=$(comm -23 "$TMP/base.roots" "$TMP/new.roots" | head -n 1)
	new_fill=$(grep -o "<g><title>[^<]*</title><rect [^>]*" "$TMP/diff.svg" |
		grep -F "<g><title>$only_new (" | head -n 1 |
		sed 's/.*fill="rgb(\([0-9]*\),\([0-9]*\),\([0-9]*\))".*/\1 \2 \3/')
	if [ -n "$only_new" ] && [ -n "$only_base" ] &&
		grep "<g><title>" "$TMP/diff.svg" | grep -F "<g><title>$only_new (" |
			grep -q '; base 0 samples, 0.00%; +' &&
		echo "$new_fill" | awk '{ exit !($1 > $2 && $1 > $3) }' &&
		! grep -qF "<g><title>$only_base (" "$TMP/diff.svg"; then
		ok "flame --diff: a new process's frame is red with its base share in the tooltip"
	else
		not_ok "flame --diff: a new process's frame is red with its base share in the tooltip" \
			"new only: '$only_new' (fill $new_fill), base only: '$only_base'" \
			"$(grep -o '<g><title>[^<]*' "$TMP/diff.svg" | head -n 3)"
	fi
fi

# ---- command line ------------------------------------------------------------

status_is()
{
	local name=$1 want=$2 rc

	shift 2
	run_prof "$TMP/out" "$TMP/err" "$@"
	rc=$?
	if [ "$rc" -eq "$want" ] && ! sanitizer_report "$TMP/err"; then
		ok "$name"
	else
		not_ok "$name" "exit status $rc, expected $want" "$(failure_detail "$TMP/err")"
	fi
}

status_is "flame: --diff with one file exits 129" 129 flame --diff "$TMP/spin.data"
status_is "flame: --merged --pid exits 129" 129 flame --merged --pid -i "$TMP/spin.data"
status_is "flame: a bad --minwidth exits 129" 129 flame --minwidth x -i "$TMP/spin.data"
status_is "flame: a missing file exits 1" 1 flame -i "$TMP/none.data" -o "$TMP/none.svg"
status_is "flame: an event the file lacks exits 1" 1 flame -e cycles -i "$TMP/spin.data" -o "$TMP/x.svg"
