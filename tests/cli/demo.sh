#!/bin/bash
# demo.sh - "make demo"'s tour (scripts/demo) runs with the prof under test
# and shows what it promises: prof record -g (never perf: a perf on PATH
# that fails is put first), a flat profile and a call graph naming the
# workload's functions, whole call chains, a well-formed flame graph SVG at
# the path it prints, and a "faster" verdict of prof stat --compare for the
# fast variant; within 90 s.  As root it runs a second time as the user
# nobody, where kernel.perf_event_paranoid may allow user space only.
. "$(dirname "$0")/../lib.sh"

# A perf that fails and leaves a mark, so that a demo calling perf fails.
mkdir -p "$TMP/stub" "$TMP/mark"
cat >"$TMP/stub/perf" <<EOF
#!/bin/sh
touch "$TMP/mark/perf-was-run"
echo "perf must not run in the demo" >&2
exit 1
EOF
chmod 755 "$TMP/stub" "$TMP/stub/perf"
chmod 1777 "$TMP/mark"

# check_demo WHO DIR [RUNNER...]: runs the demo into DIR (as RUNNER, e.g.
# "runuser -u nobody --") and checks its output.
check_demo()
{
	local who=$1 dir=$2 log=$TMP/demo-$1.log
	local start rc took svg

	shift 2
	rm -f "$TMP/mark/perf-was-run"
	start=$SECONDS
	timeout -k 5 300 "$@" env PATH="$TMP/stub:$PATH" PROF="$PROF" DEMO_DIR="$dir" \
		"$ROOT/scripts/demo" >"$log" 2>&1
	rc=$?
	took=$((SECONDS - start))
	if [ $rc -eq 0 ]; then
		ok "demo ($who) exits 0"
	else
		not_ok "demo ($who) exits 0" "status $rc" "$(tail -n 15 "$log")"
		return
	fi

	if [ "$took" -le 90 ]; then
		ok "demo ($who) takes under 90 s ($took s)"
	else
		not_ok "demo ($who) takes under 90 s" "it took $took s"
	fi

	# The command line shows the prof under test by the path given (say
	# ./prof-asan in a sanitizer run), as scripts/demo quotes it.
	if grep -F -- "$(printf '%q' "$PROF") record -g " "$log" | grep -q '^\$ ' &&
		! grep -Eq '^\$ (.*/)?perf ' "$log" &&
		[ ! -e "$TMP/mark/perf-was-run" ] && grep -q '^\[ prof record: Captured and wrote' "$log"; then
		ok "demo ($who) records with prof record -g, not perf"
	else
		not_ok "demo ($who) records with prof record -g, not perf" \
			"$(grep -E '^\$ |perf' "$log" | head -n 10)"
	fi

	# The flat profile: the sort's functions lead it, and the event is named
	# (user space only for an ordinary user where the kernel is off limits).
	local mods='(:u)?'
	if [ "$who" != root ] &&
		[ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)" -gt 1 ]; then
		mods=':u'
	fi
	if grep -Eq "^# Samples: .* of event '(cpu-clock|cycles)$mods'$" "$log" &&
		grep -Eq '^ +[0-9.]+%  workload +workload +\[\.\] insertion_sort$' "$log" &&
		grep -Eq '^ +[0-9.]+%  workload +workload +\[\.\] compare_words$' "$log" &&
		grep -Eq '^ +[0-9.]+%  workload +workload +\[\.\] hash_word$' "$log"; then
		ok "demo ($who) shows the flat profile of the workload's functions"
	else
		not_ok "demo ($who) shows the flat profile of the workload's functions" \
			"$(grep -A 16 '^\[3/' "$log")"
	fi

	# The call graph: whole chains, so each leaf sits under its own caller.
	if grep -Eq -- '--[0-9.]+%--sort_by_count$' "$log" &&
		grep -Eq -- '--[0-9.]+%--insertion_sort$' "$log" &&
		grep -Eq -- '--[0-9.]+%--count_words$' "$log" &&
		grep -Eq -- '--[0-9.]+%--hash_word$' "$log" &&
		grep -A 20 -- '--count_words$' "$log" | grep -Eq -- '--[0-9.]+%--hash_word$'; then
		ok "demo ($who) shows the call graph with whole chains"
	else
		not_ok "demo ($who) shows the call graph with whole chains" \
			"$(grep -A 24 '^\[4/' "$log")"
	fi

	svg=$(sed -n 's/^flame graph written to \(.*\.svg\) (.*/\1/p' "$log")
	if [ "$svg" = "$dir/flame.svg" ] && [ -s "$svg" ] && xmllint --noout "$svg" 2>"$TMP/xmllint.err" &&
		grep -q 'insertion_sort' "$svg"; then
		ok "demo ($who) writes a well-formed flame graph at the path it prints"
	else
		not_ok "demo ($who) writes a well-formed flame graph at the path it prints" \
			"printed '$svg', expected '$dir/flame.svg'" "$(head -n 5 "$TMP/xmllint.err")"
	fi

	# prof stat --compare: the fast variant's task-clock is "faster".
	if grep -q '^ Comparison of 2 commands, 5 runs each' "$log" &&
		grep -A 1 -E '^ task-clock(:u)? \(msec\) +\[1\]' "$log" |
		grep -Eq '^ +\[2\] .*  faster \(p = [0-9.e-]+\)$'; then
		ok "demo ($who) prints stat --compare's verdict: fast is faster"
	else
		not_ok "demo ($who) prints stat --compare's verdict: fast is faster" \
			"$(grep -A 20 '^\[6/' "$log")"
	fi
}

check_demo "$(id -un)" "$TMP/demo"

# Both variants compute the same result: only the speed differs.
workload=$TMP/demo/workload
if [ -x "$workload" ] &&
	slow=$("$workload" slow 2) && fast=$("$workload" fast 2) &&
	[ "${slow#workload slow: }" = "${fast#workload fast: }" ]; then
	ok "the workload's slow and fast variants agree"
else
	not_ok "the workload's slow and fast variants agree" "slow: ${slow:-}" "fast: ${fast:-}"
fi

# As root, once more as an ordinary user (user-space sampling where
# kernel.perf_event_paranoid is 2), if that user can reach prof and the tree.
if [ "$(id -u)" -ne 0 ]; then
	skip "demo as the user nobody" "not root"
elif ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
	skip "demo as the user nobody" "no runuser or no user nobody"
elif ! chmod 711 "$TMP" ||
	! runuser -u nobody -- test -x "$PROF" -a -r "$ROOT/demo/workload.c" -a -x "$TMP/stub/perf"; then
	skip "demo as the user nobody" "nobody cannot reach $PROF, the tree or $TMP"
else
	mkdir "$TMP/nobody"
	chown nobody "$TMP/nobody"
	check_demo nobody "$TMP/nobody/demo" runuser -u nobody --
fi
