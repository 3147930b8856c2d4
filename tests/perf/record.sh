#!/bin/bash
# tests/perf/record.sh - files written by "prof record" are read by perf 6.1
# exactly as by prof, and prof record behaves as perf record does.
#
# Files: the spin, threads and forks workloads of lib.sh recorded with prof
# record plainly, with -g, -F 1000, -c 100000 -e task-clock, two events,
# and :u.  For each file:
#   - "perf report --header-only" exits 0 with nothing on stderr;
#   - "perf report --header-only -I" and "prof report --header-only -I"
#     print the same;
#   - "perf report --stdio" and "prof report --stdio" print the same lines
#     (tip line normalized as in report.sh) with the same status;
#   - "perf script" exits 0 and shows the workload's comm.
# Then: the attr perf reads back has the sample_type perf record would
# set; the command's exit status and a crash propagate; a missing command
# exits 255 as perf does; a bad event or modifier gives perf's "event
# syntax error" (tests/perf/events.sh compares it) and status 129; an existing output file becomes FILE.old; -q prints nothing;
# the summary line has perf's form; SIGTERM leaves a finished file (a
# second one kills a command that ignores the first); the
# BUILD_ID feature lists the sampled DSOs with their true build-ids; the
# machine features (topology, NUMA, PMUs, ...) read as those perf writes,
# and CACHE does with the caches of sysfs hidden, made up or broken;
# an ordinary user gets user-only sampling with one warning, and :k a
# clear error; a full disk or a file size limit ends with one error and a
# file perf reads, cut back to the whole rounds that fit with the features;
# a file that cannot be written at all gives one error at once; the ring
# buffers are as big as perf's for the same options, and data reaches the
# file round by round.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

_lib_build_workloads || {
	not_ok "build the workloads"
	exit 1
}

# prof_record NAME ARGS... -- CMD...: prof record -q -o $TMP/NAME.data
prof_record()
{
	local name=$1

	shift
	timeout 60 "$PROF" record -q -o "$TMP/$name.data" "$@" \
		>"$TMP/$name.rec.out" 2>"$TMP/$name.rec.err"
}

# check_file NAME COMM: the three reads of a prof-written file
check_file()
{
	local name=$1 comm=$2 f=$TMP/$1.data

	if perf report --header-only -i "$f" >/dev/null 2>"$TMP/hdr.err" && [ ! -s "$TMP/hdr.err" ]; then
		ok "$name: perf report --header-only reads it without warnings"
	else
		not_ok "$name: perf report --header-only reads it without warnings" "$(head -5 "$TMP/hdr.err")"
	fi
	compare "$name: perf and prof show the same header (-I)" \
		"perf report --header-only -I -i '$f' 2>/dev/null" \
		"'$PROF' report --header-only -I -i '$f'"
	compare "$name: perf report and prof report agree" \
		"tipless perf report --stdio -i '$f' 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$f'"
	if perf script -i "$f" >"$TMP/script.out" 2>"$TMP/script.err" &&
		grep -q "^ *$comm " "$TMP/script.out"; then
		ok "$name: perf script shows $comm"
	else
		not_ok "$name: perf script shows $comm" "$(head -3 "$TMP/script.out" "$TMP/script.err")"
	fi
}

# record_and_check NAME COMM ARGS... -- CMD...
record_and_check()
{
	local name=$1 comm=$2 rc

	shift 2
	prof_record "$name" "$@"
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$TMP/$name.data" ]; then
		not_ok "$name: prof record" "status $rc" "$(head -5 "$TMP/$name.rec.err")"
		return
	fi
	ok "$name: prof record"
	check_file "$name" "$comm"
}

record_and_check spin spin -- "$TMP/bin/spin"
record_and_check spin-g spin -g -- "$TMP/bin/spin"
record_and_check spin-F1000 spin -F 1000 -- "$TMP/bin/spin"
record_and_check threads-c threads -c 100000 -e task-clock -- "$TMP/bin/threads"
record_and_check forks-2ev sh -e cpu-clock -e page-faults -- "$TMP/bin/forks"
record_and_check spin-u spin -e cpu-clock:u --call-graph fp -- "$TMP/bin/spin"

# the attrs as perf reads them back, against what perf record sets
evlist()
{
	perf evlist -v -i "$1" 2>/dev/null | grep -o 'sample_type: [A-Z|]*'
}
want="sample_type: IP|TID|TIME|PERIOD"
got=$(evlist "$TMP/spin.data")
if [ "$got" = "$want" ]; then ok "plain: sample_type"; else not_ok "plain: sample_type" "$got"; fi
want="sample_type: IP|TID|TIME|CALLCHAIN|PERIOD"
got=$(evlist "$TMP/spin-g.data")
if [ "$got" = "$want" ]; then ok "-g: sample_type"; else not_ok "-g: sample_type" "$got"; fi
want="sample_type: IP|TID|TIME"
got=$(evlist "$TMP/threads-c.data")
if [ "$got" = "$want" ]; then ok "-c: sample_type"; else not_ok "-c: sample_type" "$got"; fi
want=$(printf '%s\n' "sample_type: IP|TID|TIME|ID|PERIOD" "sample_type: IP|TID|TIME|ID|PERIOD")
got=$(evlist "$TMP/forks-2ev.data")
if [ "$got" = "$want" ]; then ok "two events: sample_type"; else not_ok "two events: sample_type" "$got"; fi
if perf evlist -i "$TMP/forks-2ev.data" 2>/dev/null | tr '\n' ' ' | grep -q '^cpu-clock page-faults $'; then
	ok "two events: names"
else
	not_ok "two events: names" "$(perf evlist -i "$TMP/forks-2ev.data" 2>&1)"
fi

# exit status: as perf record's
"$PROF" record -q -o "$TMP/x.data" -- sh -c 'exit 3'
rc=$?
if [ $rc -eq 3 ]; then ok "exit status of the command"; else not_ok "exit status of the command" "status $rc"; fi
# (the group's redirection also silences the shell's "Segmentation fault")
{ (ulimit -c 0; "$PROF" record -q -o "$TMP/x.data" -- sh -c 'kill -SEGV $$'); rc=$?; } 2>/dev/null
if [ $rc -eq 139 ] && perf report --header-only -i "$TMP/x.data" >/dev/null 2>&1; then
	ok "a crashing command: prof dies of the same signal, file finished"
else
	not_ok "a crashing command: prof dies of the same signal, file finished" "status $rc"
fi
"$PROF" record -q -o "$TMP/x.data" -- "$TMP/does-not-exist" 2>"$TMP/err"
rc=$?
if [ $rc -eq 255 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'does-not-exist' "$TMP/err"; then
	ok "a missing command: one error line, status 255"
else
	not_ok "a missing command: one error line, status 255" "status $rc" "$(cat "$TMP/err")"
fi

for ev in bogus cpu-clock:z; do
	"$PROF" record -q -o "$TMP/bad.data" -e "$ev" -- true >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 129 ] && [ "$(head -1 "$TMP/err")" = "prof record: event syntax error: '$ev'" ] &&
		[ ! -e "$TMP/bad.data" ]; then
		ok "bad event $ev: perf's event syntax error, status 129"
	else
		not_ok "bad event $ev: perf's event syntax error, status 129" "status $rc" "$(cat "$TMP/err")"
	fi
done

# an existing file is kept as .old; the summary line
cp "$TMP/spin.data" "$TMP/keep.data"
"$PROF" record -o "$TMP/keep.data" -- true 2>"$TMP/err"
if cmp -s "$TMP/spin.data" "$TMP/keep.data.old"; then
	ok "existing output renamed to FILE.old"
else
	not_ok "existing output renamed to FILE.old"
fi
if grep -Eq "^\[ prof record: Captured and wrote [0-9]+\.[0-9]{3} MB $TMP/keep.data \([0-9]+ samples\) \]$" "$TMP/err"; then
	ok "summary line"
else
	not_ok "summary line" "$(cat "$TMP/err")"
fi
if [ ! -s "$TMP/spin.rec.err" ] && [ ! -s "$TMP/spin.rec.out" ]; then
	ok "-q prints nothing"
else
	not_ok "-q prints nothing" "$(cat "$TMP/spin.rec.err")"
fi

# SIGTERM to prof: the command is stopped, the file finished, and prof
# dies of the signal as perf record does (status 143)
start=$SECONDS
"$PROF" record -q -o "$TMP/term.data" -- sh -c "$TMP/bin/spin; exec sleep 20" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ $rc -eq 143 ] && [ $((SECONDS - start)) -lt 10 ] && perf report --header-only -i "$TMP/term.data" >/dev/null 2>"$TMP/err" &&
	[ ! -s "$TMP/err" ] && perf script -i "$TMP/term.data" >/dev/null 2>&1; then
	ok "SIGTERM finishes the file, status 143"
else
	not_ok "SIGTERM finishes the file, status 143" "status $rc" "$(cat "$TMP/err")"
fi

# a command that ignores SIGTERM: prof waits for it, and one more SIGTERM
# (sent every half second until prof is gone, 10 s at most) kills it
"$PROF" record -q -o "$TMP/ignore.data" -- \
	sh -c 'echo $$ >"$0"; trap "" TERM; while :; do sleep 0.1; done' "$TMP/ignore.pid" &
pid=$!
sleep 0.5
for _ in $(seq 20); do
	kill -TERM "$pid" 2>/dev/null || break
	sleep 0.5
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
rc=$?
[ -s "$TMP/ignore.pid" ] && kill -KILL "$(cat "$TMP/ignore.pid")" 2>/dev/null	# if prof did not
if [ $rc -eq 143 ] && perf report --header-only -i "$TMP/ignore.data" >/dev/null 2>&1; then
	ok "a command that ignores SIGTERM: a second SIGTERM ends it, file finished"
else
	not_ok "a command that ignores SIGTERM: a second SIGTERM ends it, file finished" "status $rc"
fi

# BUILD_ID: the sampled DSOs are listed with their true build-ids (the
# kernel's as perf buildid-list -k says, files' as readelf -n says)
bad=
kernel_id=$(perf buildid-list -k 2>/dev/null)
perf buildid-list -i "$TMP/spin-g.data" >"$TMP/bids" 2>"$TMP/err"
while read -r id path; do
	case $path in
	"[kernel.kallsyms]") want=$kernel_id ;;
	/*) want=$(readelf -n "$path" 2>/dev/null | sed -n 's/^ *Build ID: *//p') ;;
	*) want=none ;;
	esac
	[ "$id" = "$want" ] || bad="$bad $path($id != $want)"
done <"$TMP/bids"
if [ -z "$bad" ] && grep -q ' /.*/spin$' "$TMP/bids" && [ ! -s "$TMP/err" ]; then
	ok "BUILD_ID lists the sampled DSOs with their build-ids"
else
	not_ok "BUILD_ID lists the sampled DSOs with their build-ids" "$bad" "$(cat "$TMP/bids" "$TMP/err")"
fi

# the machine description: perf shows the same topology, NUMA nodes and
# PMU mappings for a file prof wrote as for one perf wrote on this machine
# (free memory is live: masked)
perf record -q -o "$TMP/perf-true.data" -- true 2>/dev/null
"$PROF" record -q -o "$TMP/prof-true.data" -- true
machine()
{
	perf report --header-only -I -i "$1" 2>/dev/null |
		grep -E '^# (sibling|CPU [0-9]|node[0-9]|pmu mappings|nrcpus|cpudesc|cpuid|arch|os release|hostname|total memory|CPU cache info| +L[0-9]|memory nodes| +[0-9]+ \[|missing features)' |
		sed 's/free = [0-9]* kB/free = N kB/'
}
if [ -s "$TMP/perf-true.data" ] && [ "$(machine "$TMP/perf-true.data")" = "$(machine "$TMP/prof-true.data")" ]; then
	ok "machine features as perf writes them"
else
	not_ok "machine features as perf writes them" \
		"$(diff <(machine "$TMP/perf-true.data") <(machine "$TMP/prof-true.data"))"
fi

# CACHE as perf writes it whatever sysfs shows of the caches: in a private
# mount namespace each /sys/devices/system/cpu/cpuN is a tmpfs holding
# binds of the real entries but cache/, which is left out ("hidden": perf
# writes an empty CACHE), made up ("present": index0..4 out of level order
# and a shared L3; perf reads index0..3 only and orders by level), or made
# up with a field missing ("broken": perf leaves CACHE out).  perf record
# and prof record both run in it and their headers are compared.
cat >"$TMP/fakecpus.sh" <<'EOF_FAKE'
#!/bin/bash
# fakecpus.sh MODE DIR CMD...: runs CMD with each cpuN's cache/ as MODE
# says; DIR is scratch space.  Must run in a private mount namespace.
mode=$1 scratch=$2
shift 2
set -e
all=$(cat /sys/devices/system/cpu/online)
# cache DIR LEVEL TYPE SIZE SETS WAYS CPUS
cache()
{
	mkdir -p "$1"
	echo "$2" >"$1/level"
	echo "$3" >"$1/type"
	echo "$4" >"$1/size"
	echo "$5" >"$1/number_of_sets"
	echo "$6" >"$1/ways_of_associativity"
	echo 64 >"$1/coherency_line_size"
	echo "$7" >"$1/shared_cpu_list"
}
for cpu in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${cpu##*/cpu}
	real=$scratch/cpu$n
	mkdir -p "$real"
	mount --bind "$cpu" "$real"
	mount -t tmpfs -o size=1m,mode=755 tmpfs "$cpu"
	for e in "$real"/*; do
		name=${e##*/}
		if [ "$name" = cache ]; then
			continue
		elif [ -L "$e" ]; then
			ln -s "$(readlink "$e")" "$cpu/$name"
		elif [ -d "$e" ]; then
			mkdir "$cpu/$name"
			mount --bind "$e" "$cpu/$name"
		else
			touch "$cpu/$name"
			mount --bind "$e" "$cpu/$name"
		fi
	done
	[ "$mode" = hidden ] && continue
	cache "$cpu/cache/index0" 2 Unified 1024K 2048 8 "$n"
	cache "$cpu/cache/index1" 1 Data 48K 64 12 "$n"
	cache "$cpu/cache/index2" 1 Instruction 32K 64 8 "$n"
	cache "$cpu/cache/index3" 3 Unified 16384K 16384 16 "$all"
	cache "$cpu/cache/index4" 4 Unified 65536K 65536 16 "$all"
	[ "$mode" = broken ] && rm "$cpu/cache/index2/shared_cpu_list"
done
set +e
exec "$@"
EOF_FAKE
chmod +x "$TMP/fakecpus.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
	! unshare -m true 2>/dev/null; then
	for mode in hidden present broken; do
		skip "CACHE with the caches $mode: as perf writes it" "needs root and unshare -m"
	done
else
	for mode in hidden present broken; do
		mkdir "$TMP/cpus-$mode"
		unshare -m "$TMP/fakecpus.sh" "$mode" "$TMP/cpus-$mode" sh -c "
			perf record -q -o '$TMP/perf-$mode.data' -- true 2>/dev/null
			'$PROF' record -q -o '$TMP/prof-$mode.data' -- true" 2>"$TMP/err"
		rc=$?
		perf_hdr=$(machine "$TMP/perf-$mode.data")
		prof_hdr=$(machine "$TMP/prof-$mode.data")
		# what perf wrote shows the fake sysfs took effect
		case $mode in
		hidden) want='^# CPU cache info:$' not='^# +L[0-9]' ;;
		present) want='^# +L3 Unified +16384K \[' not='^# +L4' ;;
		broken) want='^# missing features:.* CACHE ' not='^# CPU cache info' ;;
		esac
		if [ $rc -ne 0 ] || ! grep -Eq "$want" <<<"$perf_hdr" || grep -Eq "$not" <<<"$perf_hdr"; then
			not_ok "CACHE with the caches $mode: as perf writes it" "status $rc" \
				"perf's header is not what the fake sysfs should give" "$perf_hdr" "$(cat "$TMP/err")"
		elif [ "$perf_hdr" = "$prof_hdr" ]; then
			ok "CACHE with the caches $mode: as perf writes it"
		else
			not_ok "CACHE with the caches $mode: as perf writes it" \
				"$(diff <(echo "$perf_hdr") <(echo "$prof_hdr"))"
		fi
	done
fi

# an ordinary user at perf_event_paranoid >= 2: user-only sampling with one
# warning, named as perf names it; :k is refused with one clear error
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || [ "$paranoid" -lt 2 ]; then
	skip "unprivileged user: user-only fallback" "needs root, setpriv and perf_event_paranoid >= 2"
	skip "unprivileged user: :k refused" "needs root, setpriv and perf_event_paranoid >= 2"
else
	chmod 755 "$TMP"
	mkdir -m 777 "$TMP/nobody"
	as_nobody()
	{
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	}
	as_nobody "$PROF" record -o "$TMP/nobody/u.data" -- "$TMP/bin/spin" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c 'warning: kernel samples are not allowed' "$TMP/err")" -eq 1 ] &&
		[ "$(as_nobody perf evlist -i "$TMP/nobody/u.data" 2>/dev/null)" = cpu-clock:u ] &&
		as_nobody perf evlist -v -i "$TMP/nobody/u.data" 2>/dev/null | grep -q 'exclude_kernel: 1'; then
		ok "unprivileged user: user-only fallback"
	else
		not_ok "unprivileged user: user-only fallback" "status $rc" "$(cat "$TMP/err")"
	fi
	as_nobody "$PROF" record -q -e cpu-clock:k -o "$TMP/nobody/k.data" -- true 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'perf_event_paranoid' "$TMP/err"; then
		ok "unprivileged user: :k refused"
	else
		not_ok "unprivileged user: :k refused" "status $rc" "$(cat "$TMP/err")"
	fi
fi

# the command is named before its exec, as perf names it "perf-exec", so
# that samples taken in the exec before its COMM have a thread name
"$PROF" record -q -o "$TMP/named.data" -- "$TMP/bin/spin" 2>/dev/null
perf report -D -i "$TMP/named.data" 2>/dev/null | grep PERF_RECORD_COMM >"$TMP/comms"
child=$(sed -n 's/.*PERF_RECORD_COMM exec: spin:\([0-9]*\)\/.*/\1/p' "$TMP/comms" | head -1)
if [ -n "$child" ] && grep -q "PERF_RECORD_COMM: prof-exec:$child/$child\$" "$TMP/comms"; then
	ok "command mode: a COMM names the command before its exec"
else
	not_ok "command mode: a COMM names the command before its exec" "$(cat "$TMP/comms")"
fi

# A write error in the middle (a full disk, a file size limit): one error
# line naming the file and the reason, status 1, and a file that keeps
# every whole round that fitted with the features after them.  The rounds
# are bounded (-m 4: a drain pass moves at most a 16 KiB ring per CPU) and
# the room is sized from what this machine's start-up state and features
# take (a recording of "true"), plus 8 such rounds, so rounds with samples
# always fit; the workload spins until prof stops it.  Checked: samples
# are there, perf and prof report the same, the features are those of a
# whole recording, and at most one round and the features' room (twice)
# were given back.
full_args=(-g -e cpu-clock -c 100000 -m 4)
"$PROF" record -q "${full_args[@]}" -o "$TMP/startup.data" -- true
"$PROF" record -q "${full_args[@]}" -o "$TMP/whole.data" -- "$TMP/bin/spin"
startup=$(stat -c %s "$TMP/startup.data")
round=$(($(getconf _NPROCESSORS_ONLN) * 4 * $(getconf PAGESIZE) + 8))
room_kb=$(((startup + 8 * round + 1023) / 1024))
missing()
{
	perf report --header-only -i "$1" 2>/dev/null | grep '^# missing features'
}
# full_file NAME FILE REASON RC: the checks of a file cut short by REASON
full_file()
{
	local name=$1 f=$2 reason=$3 rc=$4 size samples

	size=$(stat -c %s "$f" 2>/dev/null || echo 0)
	samples=$(perf script -F comm -i "$f" 2>/dev/null | grep -c spin)
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "^prof record: cannot write $f: $reason\$" "$TMP/err"; then
		ok "$name: one error naming the file and the reason, status 1"
	else
		not_ok "$name: one error naming the file and the reason, status 1" "status $rc" "$(cat "$TMP/err")"
	fi
	if [ "$samples" -gt 0 ] && [ "$(missing "$f")" = "$(missing "$TMP/whole.data")" ] &&
		[ "$size" -ge $((room_kb * 1024 - round - 2 * startup - 8192)) ]; then
		ok "$name: whole rounds that fitted, with samples, and the features"
	else
		not_ok "$name: whole rounds that fitted, with samples, and the features" \
			"$samples samples, $size bytes in ${room_kb}k (start-up $startup, round $round)" \
			"$(missing "$f")" "$(missing "$TMP/whole.data")"
	fi
	compare "$name: perf report and prof report agree" \
		"tipless perf report --stdio -i '$f' 2>/dev/null" \
		"tipless '$PROF' report --stdio -i '$f'"
}
if [ "$(id -u)" -eq 0 ] && mkdir "$TMP/small" &&
	mount -t tmpfs -o "size=${room_kb}k" tmpfs "$TMP/small" 2>/dev/null; then
	timeout 60 "$PROF" record -q "${full_args[@]}" -o "$TMP/small/full.data" -- \
		sh -c "while :; do '$TMP/bin/spin'; done" 2>"$TMP/err"
	full_file "full disk" "$TMP/small/full.data" "No space left on device" $?
	umount "$TMP/small"
else
	skip "full disk" "needs root to mount a small tmpfs"
fi
# the same with a file size limit (EFBIG, SIGXFSZ ignored), on any disk
(
	ulimit -f "$room_kb"
	timeout 60 "$PROF" record -q "${full_args[@]}" -o "$TMP/limit.data" -- \
		sh -c "while :; do '$TMP/bin/spin'; done" 2>"$TMP/err"
)
full_file "file size limit" "$TMP/limit.data" "File too large" $?

# a file that cannot be written at all: one error line naming it and the
# reason, status 1, at once (the command is not run to its end): /dev/full
# (ENOSPC), /proc/self/mem (its first bytes are unmapped memory: EIO), and
# a pipe-mode stream into /dev/full
# write_error NAME REASON PROF-RECORD-ARGS...: stderr must be exactly
# "prof record: cannot write NAME: REASON"
write_error()
{
	local name=$1 reason=$2 rc start=$SECONDS

	shift 2
	timeout 60 "$PROF" record "$@" -- sleep 20 >/dev/full 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ $((SECONDS - start)) -lt 10 ] &&
		[ "$(cat "$TMP/err")" = "prof record: cannot write $name: $reason" ]; then
		ok "write error on $name ($*): one error line, status 1"
	else
		not_ok "write error on $name ($*): one error line, status 1" "status $rc" "$(cat "$TMP/err")"
	fi
}
write_error /dev/full "No space left on device" -o /dev/full
write_error /dev/full "No space left on device" -q -g -o /dev/full
write_error /proc/self/mem "Input/output error" -o /proc/self/mem
write_error "standard output" "No space left on device" -o -

# ring buffers as big as perf's for the same options: the command itself
# (started only once the rings are mapped) lists the perf_event mappings
# of its parent, the recorder (perf without its BPF side-band rings)
# ring_sizes RECORDER-AND-ARGS...: the sizes in KiB, sorted
ring_sizes()
{
	local range lo hi

	"$@" -o "$TMP/ring.data" -- sh -c 'cat /proc/$PPID/maps >"$0"' "$TMP/maps" >/dev/null 2>&1
	grep perf_event "$TMP/maps" | while read -r range _; do
		lo=${range%-*} hi=${range#*-}
		echo $(((0x$hi - 0x$lo) / 1024))
	done | sort -n | paste -sd' '
}
for opts in "" "-g" "--call-graph dwarf" "-F 10000" "-a" "-e cpu-clock -e page-faults" "-m 16" "-m 5" "-m 64K"; do
	# shellcheck disable=SC2086
	want=$(ring_sizes perf record -q --no-bpf-event $opts)
	# shellcheck disable=SC2086
	got=$(ring_sizes "$PROF" record -q $opts)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "ring buffers ($opts): as perf's ($want KiB)"
	else
		not_ok "ring buffers ($opts): as perf's" "perf: $want" "prof: $got"
	fi
done

# the data reaches the file round by round (once 64 KiB wait), not only
# when a big buffer fills or at the end: the command, after ~350 KB of
# samples, waits (30 s at most) for the file to pass 128 KiB while prof
# still records
"$PROF" record -q -g -F 10000 -o "$TMP/early.data" -- sh -c '
	"$1"; "$1"; i=0
	while [ "$(stat -c %s "$0")" -lt 131072 ]; do
		i=$((i + 1)); [ $i -gt 300 ] && exit 1; sleep 0.1
	done' "$TMP/early.data" "$TMP/bin/spin"
rc=$?
if [ $rc -eq 0 ]; then
	ok "data reaches the file while recording"
else
	not_ok "data reaches the file while recording" "status $rc"
fi
