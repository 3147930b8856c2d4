#!/bin/bash
# basics.sh - the command-line surface: version, help, option errors.
#
# Checks exit statuses and where text goes (help to stdout, usage errors to
# stderr with status 129, as git and perf do).  Needs no perf.data file.
. "$(dirname "$0")/../lib.sh"

out=$TMP/out err=$TMP/err

run_prof "$out" "$err" --version
rc=$?
if [ $rc -eq 0 ] && grep -Eq '^prof version [0-9]+\.[0-9]+' "$out"; then
	ok "prof --version"
else
	not_ok "prof --version" "status $rc" "$(cat "$out" "$err")"
fi

run_prof "$out" "$err" help
rc=$?
if [ $rc -eq 0 ] && grep -q 'report' "$out"; then
	ok "prof help lists the commands"
else
	not_ok "prof help lists the commands" "status $rc" "$(cat "$out" "$err")"
fi

run_prof "$out" "$err" --help
rc=$?
if [ $rc -eq 0 ] && grep -q 'report' "$out"; then
	ok "prof --help"
else
	not_ok "prof --help" "status $rc" "$(cat "$out" "$err")"
fi

for args in "report -h" "report --help" "help report"; do
	# shellcheck disable=SC2086
	run_prof "$out" "$err" $args
	rc=$?
	if [ $rc -eq 0 ] && grep -Eq -- '-i\b' "$out" && grep -q -- '--stats' "$out" &&
		grep -qi 'usage' "$out" && [ ! -s "$err" ]; then
		ok "prof $args shows the options on stdout"
	else
		not_ok "prof $args shows the options on stdout" "status $rc" \
			"$(head -n 5 "$out" "$err")"
	fi
done

# usage_error NAME ARGS...: status 129, usage on stderr, nothing on stdout
usage_error()
{
	local name=$1 rc

	shift
	run_prof "$out" "$err" "$@"
	rc=$?
	if [ $rc -eq 129 ] && grep -qi 'usage' "$err" && [ ! -s "$out" ] &&
		! sanitizer_report "$err"; then
		ok "$name"
	else
		not_ok "$name" "status $rc (want 129)" "$(head -n 5 "$out" "$err")"
	fi
}

for args in "record -h" "help record"; do
	# shellcheck disable=SC2086
	run_prof "$out" "$err" $args
	rc=$?
	if [ $rc -eq 0 ] && grep -q -- '--event' "$out" && grep -qi 'usage' "$out" && [ ! -s "$err" ]; then
		ok "prof $args shows the options on stdout"
	else
		not_ok "prof $args shows the options on stdout" "status $rc" "$(head -n 5 "$out" "$err")"
	fi
done

for args in "script -h" "help script"; do
	# shellcheck disable=SC2086
	run_prof "$out" "$err" $args
	rc=$?
	if [ $rc -eq 0 ] && grep -q -- '--fields' "$out" && grep -qi 'usage' "$out" && [ ! -s "$err" ]; then
		ok "prof $args shows the options on stdout"
	else
		not_ok "prof $args shows the options on stdout" "status $rc" "$(head -n 5 "$out" "$err")"
	fi
done

usage_error "unknown long option exits 129" report --no-such-option
usage_error "unknown short option exits 129" report -Z
usage_error "stray argument exits 129" report stray-argument
usage_error "missing option value exits 129" report -i
usage_error "value given to a boolean exits 129" report --stats=yes
usage_error "record without a command exits 129" record
usage_error "record with an unknown option exits 129" record --no-such-option -- true
usage_error "script with an unknown option exits 129" script --no-such-option
usage_error "script with a stray argument exits 129" script stray-argument
usage_error "script with an unknown -F field exits 129" script -F comm,nosuch
usage_error "script mixing -F field and +field exits 129" script -F comm,+pid

run_prof "$out" "$err" no-such-command
rc=$?
if [ $rc -ne 0 ] && { [ $rc -lt 128 ] || [ $rc -eq 129 ]; } && [ -s "$err" ]; then
	ok "unknown command exits non-zero with a message"
else
	not_ok "unknown command exits non-zero with a message" "status $rc" "$(cat "$err")"
fi

run_prof "$out" "$err" report --stats -i "$TMP/does-not-exist.data"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'does-not-exist.data' "$err"; then
	ok "missing input file: one error line, status 1"
else
	not_ok "missing input file: one error line, status 1" "status $rc" "$(cat "$err")"
fi
