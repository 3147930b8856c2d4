#!/bin/bash
# tests/perf/script.sh - "prof script" against "perf script" on freshly
# recorded files, byte for byte.
#
# Files (recorded at test time with the system perf): a C program with
# frame-pointer call chains (-g), the same without call chains, with -c
# (samples without a period), a multi-threaded program, a fork/exec shell
# loop, a system-wide (-a -g) recording of a short workload, two events at
# once (both plain, and one with call chains and one without), and a
# pipe-mode stream (-o -) read from a file, through -i - and from standard
# input.  On each: the default output, then -F field sets (plain lists,
# "type:" lists, +field/-field), -G, --ns, --max-stack and the filters
# (--comms, --pid, --tid, -C, --time) with values taken from the file.
# Errors: exit status and empty stdout as perf's (a bad -F field, a field
# the samples lack, -C on a file without CPUs, a bad --time).  Then the
# default output on every shared fixture perf 6.1 reads (old perf
# versions, modules, foreign streams), but those listed below.
#
# Comparison: stdout byte for byte (no trailing blanks ignored: perf ends
# the header line of a sample with a blank) and the exit status.

# run-all: cost 67
. "$(dirname "$0")/../lib.sh"
set -o pipefail

# both NAME FILE ARGS...: "perf script" and "prof script" with ARGS on
# FILE, at once
both()
{
	local name=$1 file=$2 rc_perf rc_prof pid

	shift 2
	perf script -i "$file" "$@" >"$TMP/perf.out" 2>"$TMP/perf.err" &
	pid=$!
	timeout -k 5 60 "$PROF" script -i "$file" "$@" >"$TMP/prof.out" 2>"$TMP/prof.err"
	rc_prof=$?
	wait $pid
	rc_perf=$?
	judge "script $name" "$rc_perf" "$rc_prof"
}

# record NAME PERF-RECORD-ARGS... [-- WORKLOAD]: record_workload or a
# failed check
record()
{
	if record_workload "$@"; then
		return 0
	fi
	not_ok "script $1: perf record"
	return 1
}

# pid_of FILE COMM: the pid of the first sample of COMM in FILE
pid_of()
{
	perf script -i "$1" -F comm,pid 2>/dev/null | awk -v c="$2" '$1 == c { print $2; exit }'
}

# nth_time FILE N: the time of the Nth sample, as perf prints it
nth_time()
{
	perf script -i "$1" -F time 2>/dev/null | sed -n "${2}s/[: ]//gp"
}

# The fields and options every file is read with.
common()
{
	local name=$1 file=$2

	both "$name" "$file"
	both "$name -G" "$file" -G
	both "$name --ns" "$file" --ns
	both "$name -F comm,tid,pid,time" "$file" -F comm,tid,pid,time
	both "$name -F ip" "$file" -F ip
	both "$name -F ip,sym" "$file" -F ip,sym
	both "$name -F ip,dso" "$file" -F ip,dso
	both "$name -F tid,period,event,ip,sym,symoff,dso" "$file" -F tid,period,event,ip,sym,symoff,dso
	both "$name -F +pid" "$file" -F +pid
	both "$name -F -period,-dso" "$file" -F -period,-dso
	both "$name -F -ip" "$file" -F -ip
	both "$name -F sw:comm,ip,sym" "$file" -F sw:comm,ip,sym
	both "$name -F sw:-sym,-symoff" "$file" -F sw:-sym,-symoff
	both "$name -F hw:comm (no hardware events)" "$file" -F hw:comm
	both "$name -F pid -F comm" "$file" -F pid -F comm
}

# ---- a C program with frame-pointer call chains ---------------------------
if record fp -g -- spin; then
	f=$TMP/fp.data
	common fp "$f"
	both "fp --max-stack 2" "$f" --max-stack 2
	both "fp --max-stack 0" "$f" --max-stack 0
	both "fp --comms spin" "$f" --comms spin
	both "fp --comms nosuch" "$f" --comms nosuch
	pid=$(pid_of "$f" spin)
	both "fp --pid" "$f" --pid "$pid"
	both "fp --tid" "$f" --tid "$pid,1"
	t1=$(nth_time "$f" 10) t2=$(nth_time "$f" 40)
	both "fp --time start,end" "$f" --time "$t1,$t2"
	both "fp --time start," "$f" --time "$t2,"
	both "fp --time 50%" "$f" --time 50%
	both "fp --time 10%/2,10%/5" "$f" --time 10%/2,10%/5
	both "fp --time bad (status 234)" "$f" --time nonsense
	both "fp -F nosuch (status 129)" "$f" -F nosuch
	both "fp -F +cpu without CPUs (status 255)" "$f" -F +cpu
	both "fp -F comm,symoff (status 255)" "$f" -F comm,symoff
	both "fp -F comm,+pid (status 129)" "$f" -F comm,+pid
	both "fp -C 0 without CPUs (status 255)" "$f" -C 0
	both "fp --pid x (nothing, status 0)" "$f" --pid x
	both "fp -F sw: (nothing)" "$f" -F sw:
	both "fp -F hw: (status 255)" "$f" -F hw:
fi

# ---- without call chains; -c (no period in the samples) -------------------
if record plain -- spin; then
	common plain "$TMP/plain.data"
fi
if record count -e task-clock -c 100000 -- spin; then
	both "count" "$TMP/count.data"
	both "count -F period,ip" "$TMP/count.data" -F period,ip
fi

# ---- threads; a fork/exec loop ---------------------------------------------
if record threads -g -- threads; then
	f=$TMP/threads.data
	both threads "$f"
	tid=$(perf script -i "$f" -F comm,tid 2>/dev/null | awk '{ print $2 }' | sort -u | sed -n 2p)
	both "threads --tid" "$f" --tid "$tid"
	both "threads -F comm,pid,tid" "$f" -F comm,pid,tid
fi
if record forks -g -- forks; then
	both forks "$TMP/forks.data"
	both "forks --comms ls,true" "$TMP/forks.data" --comms ls,true
	both "forks -G -F comm,tid,ip,sym,dso" "$TMP/forks.data" -G -F comm,tid,ip,sym,dso
fi

# ---- system-wide ------------------------------------------------------------
if record sys -a -g -- spin; then
	f=$TMP/sys.data
	common sys "$f"
	both "sys -C 0" "$f" -C 0
	both "sys -C 0-1" "$f" -C 0-1
	both "sys -C 4096 (status 255)" "$f" -C 4096
	both "sys --comms swapper,spin" "$f" --comms swapper,spin
	both "sys -F cpu,comm" "$f" -F cpu,comm
	both "sys -F sw:cpu,ip -G" "$f" -F sw:cpu,ip -G
fi

# ---- two events ---------------------------------------------------------------
if record two -e cpu-clock -e task-clock -- spin; then
	common two "$TMP/two.data"
fi
if record mixed -e cpu-clock/call-graph=fp/ -e task-clock/call-graph=no/ -- spin; then
	both mixed "$TMP/mixed.data"
	both "mixed -F comm,tid,ip,sym" "$TMP/mixed.data" -F comm,tid,ip,sym
	both "mixed -G" "$TMP/mixed.data" -G
fi

# ---- a pipe-mode stream -----------------------------------------------------
if record --pipe pipe -g -- spin; then
	f=$TMP/pipe.data
	common pipe "$f"
	both "pipe -F comm,tid (perf adds ip,sym)" "$f" -F comm,tid
	both "pipe -F sw: (status 255)" "$f" -F sw:
	both "pipe -F +cpu (status 234)" "$f" -F +cpu
	both "pipe -C 0 without CPUs (status 255)" "$f" -C 0
	perf script -i "$f" >"$TMP/perf.out" 2>/dev/null
	"$PROF" script -i - <"$f" >"$TMP/prof.out" 2>"$TMP/prof.err"
	judge "script pipe -i -" 0 $?
	cat "$f" | "$PROF" script >"$TMP/prof.out" 2>"$TMP/prof.err"
	judge "script pipe from standard input" 0 $?
fi

# ---- the shared fixtures perf 6.1 reads ---------------------------------------
# Old and foreign recordings: modules, pipe streams with event names of
# their own, other machines' kernels.  Files whose samples need what prof
# does not do yet are left out (KNOWN-DIFFERENCES.md): DWARF unwinding,
# LBR call stacks, AUX traces.
if [ -d "$FIXTURES" ]; then
	unsupported=(kdab-perfparser/contentsize.data kdab-perfparser/vector_static_gcc_perf.data.zstd
		kdab-perfparser/vector_static_gcc_perf.lbr.data kdab-perfparser/fork_static_gcc_perf.data.zstd
		google-perf_data_converter/quipper/perf.data.intel_pt-4.14)
	awk -F'|' '/^\| `/ {
		file = $2; verdict = $(NF - 1)
		gsub(/^[ `]+|[ `]+$/, "", file); gsub(/^ +/, "", verdict)
		if (verdict ~ /^yes/) print file
	}' "$FIXTURES/README.md" | while read -r rel; do
		[[ " ${unsupported[*]} " == *" $rel "* ]] && continue
		[ -f "$FIXTURES/$rel" ] && both "fixture $rel" "$FIXTURES/$rel"
	done
else
	skip "script on the shared fixtures" "$FIXTURES not found (set PROF_FIXTURES)"
fi
