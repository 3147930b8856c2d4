#!/bin/bash
# bad-input.sh - malformed and truncated inputs never crash or hang prof.
#
# For every input, "prof report --stats -i F" must exit 0 or 1 within 10 s,
# never die by a signal, and print no sanitizer report (run it with
# PROF=./prof-asan to catch memory errors).  On status 1 the error is one
# line "prof report: F: what is wrong at offset 0x..." (or another one-line
# reason that names F); "prof report: warning: ..." lines may precede it.
#
# Inputs: the malformed fuzz-corpus fixtures, files synthesized here from a
# real recording (bad magic, offsets past EOF, bad sizes, absurd counts),
# recordings truncated at every record boundary and at random offsets, and
# random byte corruptions.  A recording whose header has data.size 0 (what
# a killed "perf record" leaves) must be read with a warning and status 0.
. "$(dirname "$0")/../lib.sh"

RANDOM=4242	# the "random" offsets and bytes are the same on every run

# --- helpers ----------------------------------------------------------------

# get_u64 FILE OFFSET: little-endian u64 at OFFSET, as an unsigned decimal
get_u64()
{
	od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}

# put_le FILE OFFSET NBYTES VALUE: overwrite NBYTES at OFFSET, little endian
put_le()
{
	local f=$1 off=$2 n=$3 v=$4 s="" i b

	for ((i = 0; i < n; i++)); do
		printf -v b '\\x%02x' $(((v >> (8 * i)) & 255))
		s+=$b
	done
	printf "$s" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

# random_bytes N: N bytes from the seeded $RANDOM (the same on every run)
random_bytes()
{
	local i b s=""

	for ((i = 0; i < $1; i++)); do
		printf -v b '\\x%02x' $((RANDOM & 255))
		s+=$b
	done
	printf "$s"
}

# variant NAME: a fresh copy of $base to corrupt, path printed
variant()
{
	cp "$base" "$TMP/bad/$1"
	echo "$TMP/bad/$1"
}

# judge FILE: 0 if prof's handling of FILE is acceptable, else 1 with the
# reason in $why
judge()
{
	local f=$1 rc errs

	why=
	run_prof "$TMP/j.out" "$TMP/j.err" report --stats -i "$f"
	rc=$?
	if sanitizer_report "$TMP/j.err" || [ $rc -eq 98 ] || [ $rc -eq 99 ]; then
		why="sanitizer report (status $rc): $(sanitizer_summary "$TMP/j.err")"
		return 1
	fi
	case $rc in
	0)
		return 0
		;;
	1)
		errs=$(grep -v '^prof report: warning: ' "$TMP/j.err")
		if [ "$(printf '%s\n' "$errs" | grep -c .)" -ne 1 ]; then
			why="status 1 but not exactly one error line: $(head -c 300 "$TMP/j.err")"
			return 1
		fi
		if ! printf '%s\n' "$errs" | grep -Eq '^prof report: .*: .* at offset 0x[0-9a-f]+$' &&
			! printf '%s\n' "$errs" | grep -Fq "prof report: $f"; then
			why="error line neither has an offset nor names the file: $errs"
			return 1
		fi
		return 0
		;;
	124 | 137)
		why="hang: killed after 10 s"
		;;
	*)
		why="status $rc: $(head -c 300 "$TMP/j.err")"
		;;
	esac
	return 1
}

# judge_one NAME FILE: one ok/not ok line for one file
judge_one()
{
	if judge "$2"; then
		ok "$1"
	else
		not_ok "$1" "$why"
	fi
}

# judge_many NAME FILE...: one ok/not ok line for a group of files
judge_many()
{
	local name=$1 nbad=0 first="" f

	shift
	for f in "$@"; do
		if ! judge "$f"; then
			nbad=$((nbad + 1))
			[ -z "$first" ] && first="$(basename "$f"): $why"
		fi
	done
	if [ $nbad -eq 0 ]; then
		ok "$name ($# files)"
	else
		not_ok "$name ($nbad of $# files)" "first: $first"
	fi
}

# A record walker: prints "OFFSET TYPE SIZE" for each record of a file- or
# pipe-mode perf.data file (no byte swapping: used on files made here), and
# finally "END OFFSET".
cat >"$TMP/walk.c" <<'WALK'
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 26];
	FILE *f = fopen(argv[1], "rb");
	size_t n;
	uint64_t pos, end, hsize;

	if (argc < 2 || !f)
		return 2;
	n = fread(buf, 1, sizeof(buf), f);
	if (n < 16)
		return 2;
	memcpy(&hsize, buf + 8, 8);
	if (hsize == 16) {
		pos = 16;
		end = n;
	} else {
		uint64_t off, size;

		memcpy(&off, buf + 40, 8);
		memcpy(&size, buf + 48, 8);
		pos = off;
		end = off + size < n ? off + size : n;
	}
	while (pos + 8 <= end) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, buf + pos, 4);
		memcpy(&size, buf + pos + 6, 2);
		if (size < 8)
			break;
		printf("%llu %u %u\n", (unsigned long long)pos, type, size);
		pos += size;
	}
	printf("END %llu\n", (unsigned long long)pos);
	return 0;
}
WALK
if ! cc -O1 -o "$TMP/walk" "$TMP/walk.c"; then
	not_ok "build the record walker"
	exit 1
fi
mkdir -p "$TMP/bad"

# --- the fuzz-corpus fixtures -------------------------------------------------

corpus=$FIXTURES/google-perf_data_converter/fuzz-corpus
if [ -d "$corpus" ]; then
	for f in "$corpus"/*; do
		cp "$f" "$TMP/bad/"
		judge_one "fuzz-corpus $(basename "$f" | cut -c1-24)" "$TMP/bad/$(basename "$f")"
	done
else
	skip "fuzz-corpus fixtures" "$corpus not found"
fi

# --- synthesized files ----------------------------------------------------------

: >"$TMP/bad/empty"
judge_one "empty file" "$TMP/bad/empty"
random_bytes 10 >"$TMP/bad/random10"
judge_one "10 random bytes" "$TMP/bad/random10"
random_bytes 4096 >"$TMP/bad/random4k"
judge_one "4 KiB of random bytes" "$TMP/bad/random4k"
printf 'PERFILE2' >"$TMP/bad/magic-only"
judge_one "magic only" "$TMP/bad/magic-only"

if ! record_workload base -g -F 499 -- spin short; then
	not_ok "record a base file with perf"
	exit 1
fi
base=$TMP/base.data
size=$(stat -c %s "$base")
attrs_off=$(get_u64 "$base" 24)
attr_size=$(get_u64 "$base" 16)
data_off=$(get_u64 "$base" 40)
data_size=$(get_u64 "$base" 48)
data_end=$((data_off + data_size))
"$TMP/walk" "$base" >"$TMP/base.walk"

judge_one "unmodified recording" "$base"

f=$(variant wrong-magic); put_le "$f" 0 8 0x1122334455667788
judge_one "wrong magic" "$f"
f=$(variant swapped-magic); put_le "$f" 0 8 0x50455246494c4532
judge_one "byte-swapped magic on a little-endian file" "$f"
head -c 104 "$base" >"$TMP/bad/header-only"
judge_one "header only" "$TMP/bad/header-only"
head -c 60 "$base" >"$TMP/bad/short-header"
judge_one "header cut short" "$TMP/bad/short-header"
f=$(variant header-size-0); put_le "$f" 8 8 0
judge_one "header size 0" "$f"
f=$(variant header-size-huge); put_le "$f" 8 8 0xffffffff
judge_one "header size huge" "$f"
f=$(variant attr-size-0); put_le "$f" 16 8 0
judge_one "attr_size 0" "$f"
f=$(variant attr-size-8); put_le "$f" 16 8 8
judge_one "attr_size 8" "$f"
f=$(variant attr-size-huge); put_le "$f" 16 8 0x10000000
judge_one "attr_size 256 MiB" "$f"
f=$(variant attrs-past-eof); put_le "$f" 24 8 $((size + 4096))
judge_one "attrs offset past EOF" "$f"
f=$(variant attrs-size-absurd); put_le "$f" 32 8 0x7fffffffffffff00
judge_one "absurd attr count" "$f"
f=$(variant attrs-size-odd); put_le "$f" 32 8 $((attr_size + 1))
judge_one "attrs size not a multiple of attr_size" "$f"
f=$(variant attrs-size-0); put_le "$f" 32 8 0
judge_one "no attrs" "$f"
f=$(variant ids-past-eof); put_le "$f" $((attrs_off + attr_size - 16)) 8 $((size * 3))
judge_one "attr ids offset past EOF" "$f"
f=$(variant ids-size-absurd); put_le "$f" $((attrs_off + attr_size - 8)) 8 0x7ffffffffffffff8
judge_one "absurd attr id count" "$f"
f=$(variant attr-dot-size-4); put_le "$f" $((attrs_off + 4)) 4 4
judge_one "perf_event_attr.size 4" "$f"
f=$(variant attr-dot-size-huge); put_le "$f" $((attrs_off + 4)) 4 0xfffffff0
judge_one "perf_event_attr.size huge" "$f"
f=$(variant data-past-eof); put_le "$f" 40 8 $((size + 100))
judge_one "data offset past EOF" "$f"
f=$(variant data-size-past-eof); put_le "$f" 48 8 $((size * 2))
judge_one "data size past EOF" "$f"
f=$(variant data-size-wraps); put_le "$f" 48 8 -1
judge_one "data offset + size wraps around" "$f"
f=$(variant feat-offset-past-eof); put_le "$f" "$data_end" 8 $((size * 5))
judge_one "feature section offset past EOF" "$f"
f=$(variant feat-size-absurd); put_le "$f" $((data_end + 8)) 8 0x7fffffffffffffff
judge_one "absurd feature section size" "$f"
f=$(variant feat-all-bits); put_le "$f" 72 8 -1; put_le "$f" 80 8 -1
put_le "$f" 88 8 -1; put_le "$f" 96 8 -1
judge_one "every feature bit set" "$f"
head -c "$data_end" "$base" >"$TMP/bad/no-feature-table"
judge_one "feature table missing" "$TMP/bad/no-feature-table"
f=$(variant rec-size-0); put_le "$f" $((data_off + 6)) 2 0
judge_one "record size 0" "$f"
f=$(variant rec-size-4); put_le "$f" $((data_off + 6)) 2 4
judge_one "record size 4" "$f"
read -r last_off _ last_size < <(grep -v END "$TMP/base.walk" | tail -n 1)
f=$(variant rec-past-section); put_le "$f" $((last_off + 6)) 2 $((last_size + 64))
judge_one "last record runs past the data section" "$f"
f=$(variant rec-size-max); put_le "$f" $((data_off + 6)) 2 0xffff
judge_one "first record size 0xffff" "$f"
read -r s_off _ < <(awk '$2 == 9 { print; exit }' "$TMP/base.walk")
if [ -n "${s_off:-}" ]; then
	f=$(variant sample-too-short); put_le "$f" $((s_off + 6)) 2 16
	judge_one "SAMPLE record shorter than its fields" "$f"
	# the callchain's nr is the u64 before its first context marker
	i=$(od -A n -v -t x8 -j $((s_off + 8)) -N 256 "$base" | tr -s ' ' '\n' | grep . |
		grep -n -m 1 -E '^ffffffffffff(ff80|fe00)$' | cut -d: -f1)
	if [ -n "$i" ] && [ "$i" -gt 1 ]; then
		f=$(variant sample-callchain-huge)
		put_le "$f" $((s_off + 8 + 8 * (i - 2))) 8 0x0fffffffffffffff
		judge_one "SAMPLE callchain nr huge" "$f"
	else
		skip "SAMPLE callchain nr huge" "no callchain found in the first sample"
	fi
	f=$(variant unknown-type); put_le "$f" "$s_off" 4 0x7fffffff
	judge_one "record of an unknown type" "$f"
fi

# A killed "perf record" leaves data.size 0 and no feature sections: read
# the records to EOF with a warning.
head -c "$data_end" "$base" >"$TMP/bad/killed"
put_le "$TMP/bad/killed" 48 8 0
run_prof "$TMP/k.out" "$TMP/k.err" report --stats -i "$TMP/bad/killed"
rc=$?
if [ $rc -eq 0 ] && grep -q 'warning' "$TMP/k.err" && ! sanitizer_report "$TMP/k.err" &&
	grep -q 'SAMPLE events' "$TMP/k.out"; then
	ok "data.size 0 (killed record): warning, samples read, status 0"
else
	not_ok "data.size 0 (killed record): warning, samples read, status 0" \
		"status $rc" "$(failure_detail "$TMP/k.err")"
fi
f=$(variant data-size-0-with-features); put_le "$f" 48 8 0
judge_one "data.size 0 with the feature sections left behind" "$f"

# --- truncations ----------------------------------------------------------------

# truncate_all NAME FILE: FILE cut at every record boundary and at 50
# random offsets
truncate_all()
{
	local name=$1 src=$2 off n=0 files=() len

	len=$(stat -c %s "$src")
	mkdir -p "$TMP/trunc-$name"
	while read -r off _; do
		[ "$off" = END ] && continue
		head -c "$off" "$src" >"$TMP/trunc-$name/b$off"
		files+=("$TMP/trunc-$name/b$off")
	done < <("$TMP/walk" "$src")
	judge_many "$name truncated at every record boundary" "${files[@]}"
	rm -rf "$TMP/trunc-$name"
	mkdir -p "$TMP/trunc-$name"
	files=()
	for ((n = 0; n < 50; n++)); do
		off=$(((RANDOM * 32768 + RANDOM) % len))
		head -c "$off" "$src" >"$TMP/trunc-$name/r$off"
		files+=("$TMP/trunc-$name/r$off")
	done
	judge_many "$name truncated at 50 random offsets" "${files[@]}"
	rm -rf "$TMP/trunc-$name"
}

truncate_all "file" "$base"
if record_workload --pipe pipe -g -F 499 -- spin short; then
	judge_one "unmodified pipe recording" "$TMP/pipe.data"
	truncate_all "pipe" "$TMP/pipe.data"
	f=$TMP/bad/pipe-header-size; cp "$TMP/pipe.data" "$f"; put_le "$f" 8 8 0xffff
	judge_one "pipe header size 0xffff" "$f"
	head -c 16 "$TMP/pipe.data" >"$TMP/bad/pipe-header-only"
	judge_one "pipe header only" "$TMP/bad/pipe-header-only"
	f=$TMP/bad/pipe-rec-size-0; cp "$TMP/pipe.data" "$f"; put_le "$f" 22 2 0
	judge_one "pipe record size 0" "$f"
	run_prof "$TMP/p.out" "$TMP/p.err" report --stats -i - <"$TMP/bad/pipe-rec-size-0"
	rc=$?
	if [ $rc -le 1 ] && ! sanitizer_report "$TMP/p.err"; then
		ok "bad pipe data on stdin: status $rc"
	else
		not_ok "bad pipe data on stdin" "status $rc" "$(failure_detail "$TMP/p.err")"
	fi
else
	not_ok "record a pipe-mode file with perf"
fi
if record_workload zstd -z -g -F 499 -- spin short; then
	truncate_all "compressed" "$TMP/zstd.data"
else
	not_ok "record a compressed file with perf"
fi

# --- random corruption ------------------------------------------------------------

files=()
for ((n = 0; n < 100; n++)); do
	f=$(variant "flip$n")
	for ((k = 0; k < 4; k++)); do
		put_le "$f" $(((RANDOM * 32768 + RANDOM) % size)) 1 $((RANDOM & 255))
	done
	files+=("$f")
done
judge_many "4 random bytes overwritten" "${files[@]}"
