#!/bin/bash
# tests/perf/callgraph.sh - call graphs of "prof report --stdio" against
# "perf report --stdio" on frame-pointer recordings made at test time.
#
# Files: a single-process C program with a fixed call structure
# (recursion, a diamond of callers, a leaf reached from several depths;
# -O0 with frame pointers so every chain is whole), the multi-threaded
# program of lib.sh, and a short system-wide recording.  Each is compared
# over the -g modes (graph, fractal, flat, folded, caller/callee,
# thresholds), --no-children, -G, --max-stack and --percent-limit.
#
# Comparison: stdout of both, trailing blanks ignored, exit status; the
# random tip line is normalized as in report.sh, and so is perf's
# "[...] (inlined)" (uninitialized memory in perf, KNOWN-DIFFERENCES.md).
# A system-wide report that differs is skipped where one of perf's bugs
# explains it: a call-graph node split (perf_split) or a comm renamed
# inside perf's input tree (comm_renamed).

. "$(dirname "$0")/../lib.sh"
set -o pipefail

# both NAME FILE ARGS...: perf and prof with ARGS on FILE (both1: prof on
# one thread)
both() { report_both "callgraph $1" "${@:2}"; }

# perf_split FILE ARGS...: does perf's tree for the report ARGS hold one
# function twice among the children of one node?  perf keeps a node's
# children in a red-black tree whose comparison is not an order when one
# DSO's children mix resolved and unresolved addresses of processes that
# map it at different places; its lookups then miss a child and add it
# again (KNOWN-DIFFERENCES.md).  prof merges them, so such a report may
# not match, even when a copy is below the threshold and not printed:
# prof's merged node is then larger than perf's printed copy, and the
# hidden one still shapes the tree that orders its siblings.  So every
# node is printed: the tree as a graph with no threshold and no print
# limit (a second -g changes only what it names).  Seen on system-wide
# recordings of busy machines.
perf_split()
{
	perf report --stdio -i "$@" -g graph,0,0 2>/dev/null | awk '
	/^ +[0-9.]+%/ && !/--/ { sp = 0; hdr = NR; next }
	{
		i = index($0, "--")
		# a child (its value a percentage, a period or a count): key
		# it by its parent
		if (!i || $0 !~ /--[0-9.]+%?--/)
			next
		name = substr($0, i)
		sub(/^--[0-9.]+%?--/, "", name)
		while (sp > 0 && col[sp] >= i)
			sp--
		key = (sp > 0 ? line[sp] : hdr) "|" name
		col[++sp] = i
		line[sp] = NR
		if (seen[key]++)
			found = 1
	}
	END { exit !found }'
}

# comm_renamed FILE: did perf name a thread in place after samples of it
# came?  A thread perf meets with no comm (its COMM lost, or forked from
# such a thread) is ":TID" until its first COMM, which perf writes over
# that string: the entries made with it change their key inside perf's
# input tree (sorted by comm), whose lookups can then miss an entry and
# make another; the collapse merges the two, adding one's paths to the
# other's tree with a count of one each (KNOWN-DIFFERENCES.md).  perf
# script prints the comm as it reads when each sample comes.
comm_renamed()
{
	perf script -i "$1" -F comm,tid 2>/dev/null | awk '
	{
		tid = $NF
		comm = $0
		sub(/[ \t]+[0-9]+[ \t]*$/, "", comm)
		sub(/^[ \t]+/, "", comm)
	}
	comm == ":" tid { early[tid] = 1; next }
	early[tid] { found = 1; exit }
	END { exit !found }'
}

# reports_differ FILE ARGS...: do perf's and prof's reports with ARGS
# differ (trailing blanks aside, as compare judges)?
reports_differ()
{
	! cmp -s <(tipless perf report --stdio -i "$@" 2>/dev/null | sed 's/[[:blank:]]*$//') \
		<(tipless "$PROF" report --stdio -i "$@" 2>/dev/null | sed 's/[[:blank:]]*$//')
}

both1() { report_both --threads1 "callgraph $1" "${@:2}"; }




mkdir -p "$TMP/bin"
cat >"$TMP/deep.c" <<'EOF2'
/* deep: ~0.3 s in a fixed call structure, for call graphs. */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) void recurse(int depth, unsigned long n)
{
	if (depth > 0)
		recurse(depth - 1, n);
	else
		leaf(n);
}

__attribute__((noinline)) void left(unsigned long n)
{
	recurse(3, n);
	leaf(n / 4);
}

__attribute__((noinline)) void right(unsigned long n)
{
	recurse(1, n / 2);
}

__attribute__((noinline)) void diamond(unsigned long n)
{
	left(n);
	right(n);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double end = now() + 0.3;

	while (now() < end) {
		diamond(20000);
		leaf(5000);
	}
	return 0;
}
EOF2
cc -O0 -g -fno-omit-frame-pointer -o "$TMP/bin/deep" "$TMP/deep.c" || exit 1

record_workload deep -g -e cpu-clock -- "$TMP/bin/deep" || exit 1
record_workload cgthreads -g -e cpu-clock -- threads || exit 1
record_workload cgsys -a -g -e cpu-clock -- sleep 0.2 || exit 1

matrix=(
	"default|"
	"--no-children|--no-children"
	"-g caller|-g caller"
	"-g callee|-g callee"
	"-g fractal|-g fractal"
	"-g flat|-g flat"
	"-g folded|-g folded"
	"-G|-G"
	"--max-stack 4|--max-stack 4"
	"-g graph,2|-g graph,2"
	"--percent-limit 1|--percent-limit 1"
	"--no-children -g caller|--no-children -g caller"
	"--no-children -G|--no-children -G"
	"--no-children -g fractal|--no-children -g fractal"
	"--no-children -g flat|--no-children -g flat"
	"--no-children -g folded|--no-children -g folded"
	"-g graph,0.5,callee,function,period|-g graph,0.5,callee,function,period"
	"-g fractal,1,caller,count|-g fractal,1,caller,count"
	"-g graph,0,caller,,3 (print limit)|-g graph,0,caller,3"
	"-g folded --no-children --percent-limit 2|-g folded --no-children --percent-limit 2"
	"--sort sym|--sort sym"
	"--sort dso,sym -n|--sort dso,sym -n"
	"--sort comm,dso|--sort comm,dso"
)

renamed=
comm_renamed "$TMP/cgsys.data" && renamed=1
for f in deep cgthreads cgsys; do
	for m in "${matrix[@]}"; do
		name=${m%%|*}
		read -r -a args <<<"${m#*|}"
		# system-wide: garbage frame-pointer addresses make perf split
		# unresolved symbol entries (KNOWN-DIFFERENCES.md); compare by dso
		if [ $f = cgsys ]; then
			case $name in
			--sort*) continue ;;
			esac
			args+=(--sort comm,dso)
			# a difference perf's bugs explain
			if reports_differ "$TMP/$f.data" "${args[@]}"; then
				if perf_split "$TMP/$f.data" "${args[@]}"; then
					skip "callgraph $f $name" \
						"perf split a call-graph node it could not find again"
					continue
				fi
				if [ -n "$renamed" ]; then
					skip "callgraph $f $name" \
						"perf renamed a comm its input tree was sorted by"
					continue
				fi
			fi
		fi
		both "$f $name" "$TMP/$f.data" "${args[@]}"
	done
done

# one thread (the default uses a second one for the trees)
for m in "default|" "--no-children|--no-children" "-g caller|-g caller"; do
	name=${m%%|*}
	read -r -a args <<<"${m#*|}"
	both1 "deep --threads 1 $name" "$TMP/deep.data" "${args[@]}"
done

# filters: --symbols applies where the symbols are looked up (the
# histogram thread with call graphs on two threads), the others on the
# reading thread
for m in "-S leaf|-S leaf" "-S leaf,main --no-children|-S leaf,main --no-children" \
	 "--dsos deep|--dsos deep" "--comms deep -g caller|--comms deep -g caller"; do
	name=${m%%|*}
	read -r -a args <<<"${m#*|}"
	both "deep $name" "$TMP/deep.data" "${args[@]}"
	both1 "deep --threads 1 $name" "$TMP/deep.data" "${args[@]}"
done

# pipe mode: perf decides before the stream's events arrive, so no
# children mode, but the graph in the caller's order
record_workload --pipe cgpipe -g -e cpu-clock -- "$TMP/bin/deep" || exit 1
record_workload --pipe flatpipe -e cpu-clock -- "$TMP/bin/deep" || exit 1
for m in "default|" "--no-children|--no-children" "-g callee|-g callee" "-g none|-g none" \
	 "--children|--children" "--sort dso,sym|--sort dso,sym"; do
	name=${m%%|*}
	read -r -a args <<<"${m#*|}"
	both "cgpipe $name" "$TMP/cgpipe.data" "${args[@]}"
	both "flatpipe $name" "$TMP/flatpipe.data" "${args[@]}"
done
