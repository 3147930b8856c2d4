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
# run-all: cost 45
. "$(dirname "$0")/../lib.sh"

RANDOM=4242	# the "random" offsets and bytes are the same on every run

# --- helpers ----------------------------------------------------------------

# get_u64 FILE OFFSET: little-endian u64 at OFFSET, as an unsigned decimal
get_u64()
{
	od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '
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

# variant NAME [OFFSET NBYTES VALUE]...: $f becomes $TMP/bad/NAME, a copy
# of $base with each VALUE written at OFFSET in NBYTES, little endian
variant()
{
	f=$TMP/bad/$1
	shift
	"$TMP/bintool" poke "$base" "$f" "$@"
}

# judge FILE: 0 if prof's handling of FILE is acceptable, else 1 with the
# reason in $why (its stderr is read by builtins: this runs hundreds of
# times)
judge()
{
	local f=$1 rc lines=() errs=() line sanitizer=0

	why=
	run_prof "$TMP/j.out" "$TMP/j.err" report --stats -i "$f"
	rc=$?
	mapfile -t lines <"$TMP/j.err"
	for line in "${lines[@]}"; do
		if [[ $line =~ $SANITIZER_RE ]]; then
			sanitizer=1
		elif [ -n "$line" ] && [[ $line != "prof report: warning: "* ]]; then
			errs+=("$line")
		fi
	done
	if [ $sanitizer -eq 1 ] || [ $rc -eq 98 ] || [ $rc -eq 99 ]; then
		why="sanitizer report (status $rc): $(sanitizer_summary "$TMP/j.err")"
		return 1
	fi
	case $rc in
	0)
		return 0
		;;
	1)
		if [ ${#errs[@]} -ne 1 ]; then
			why="status 1 but not exactly one error line: $(head -c 300 "$TMP/j.err")"
			return 1
		fi
		if ! [[ ${errs[0]} =~ ^prof\ report:\ .*:\ .*\ at\ offset\ 0x[0-9a-f]+$ ]] &&
			[[ ${errs[0]} != *"prof report: $f"* ]]; then
			why="error line neither has an offset nor names the file: ${errs[0]}"
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

# bintool, for the files made here (no byte swapping):
#   walk FILE: prints "OFFSET TYPE SIZE" for each record of a file- or
#     pipe-mode perf.data file, and finally "END OFFSET"
#   poke SRC DST [OFFSET NBYTES VALUE]...: DST (SRC itself may be named) is
#     SRC with each VALUE written at OFFSET in NBYTES, little endian
#   cut SRC [LENGTH DST]...: each DST holds the first LENGTH bytes of SRC
# (one process for what would take a dd or head per piece)
cat >"$TMP/bintool.c" <<'BINTOOL'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char buf[1 << 26];

static size_t slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n;
}

static void spill(const char *path, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static int walk(const char *path)
{
	size_t n = slurp(path);
	uint64_t pos, end, hsize;

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

/* a decimal or 0x number; a negative one as its two's complement */
static uint64_t number(const char *s)
{
	return s[0] == '-' ? (uint64_t)strtoll(s, NULL, 0) : strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
	size_t n;

	if (argc == 3 && !strcmp(argv[1], "walk"))
		return walk(argv[2]);
	if (argc >= 4 && (argc - 4) % 3 == 0 && !strcmp(argv[1], "poke")) {
		n = slurp(argv[2]);
		for (int i = 4; i < argc; i += 3) {
			uint64_t off = number(argv[i]), v = number(argv[i + 2]);
			int len = atoi(argv[i + 1]);

			for (int b = 0; b < len; b++, v >>= 8) {
				if (off + b >= sizeof(buf))
					return 2;
				buf[off + b] = v & 255;
				if (off + b >= n)
					n = off + b + 1;
			}
		}
		spill(argv[3], n);
		return 0;
	}
	if (argc >= 3 && argc % 2 == 1 && !strcmp(argv[1], "cut")) {
		n = slurp(argv[2]);
		for (int i = 3; i < argc; i += 2) {
			uint64_t len = number(argv[i]);

			spill(argv[i + 1], len < n ? len : n);
		}
		return 0;
	}
	fprintf(stderr, "usage: bintool walk FILE | poke SRC DST [OFF N VALUE]... | cut SRC [LEN DST]...\n");
	return 2;
}
BINTOOL
if ! cc -O1 -o "$TMP/bintool" "$TMP/bintool.c"; then
	not_ok "build the file tool"
	exit 1
fi
mkdir -p "$TMP/bad"

# --- the fuzz-corpus fixtures -------------------------------------------------

corpus=$FIXTURES/google-perf_data_converter/fuzz-corpus
if [ -d "$corpus" ]; then
	cp "$corpus"/* "$TMP/bad/"
	for f in "$corpus"/*; do
		f=${f##*/}
		judge_one "fuzz-corpus ${f:0:24}" "$TMP/bad/$f"
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
"$TMP/bintool" walk "$base" >"$TMP/base.walk"

judge_one "unmodified recording" "$base"

variant wrong-magic 0 8 0x1122334455667788
judge_one "wrong magic" "$f"
variant swapped-magic 0 8 0x50455246494c4532
judge_one "byte-swapped magic on a little-endian file" "$f"
"$TMP/bintool" cut "$base" 104 "$TMP/bad/header-only" 60 "$TMP/bad/short-header" \
	"$data_end" "$TMP/bad/no-feature-table" "$data_end" "$TMP/bad/killed"
judge_one "header only" "$TMP/bad/header-only"
judge_one "header cut short" "$TMP/bad/short-header"
variant header-size-0 8 8 0
judge_one "header size 0" "$f"
variant header-size-huge 8 8 0xffffffff
judge_one "header size huge" "$f"
variant attr-size-0 16 8 0
judge_one "attr_size 0" "$f"
variant attr-size-8 16 8 8
judge_one "attr_size 8" "$f"
variant attr-size-huge 16 8 0x10000000
judge_one "attr_size 256 MiB" "$f"
variant attrs-past-eof 24 8 $((size + 4096))
judge_one "attrs offset past EOF" "$f"
variant attrs-size-absurd 32 8 0x7fffffffffffff00
judge_one "absurd attr count" "$f"
variant attrs-size-odd 32 8 $((attr_size + 1))
judge_one "attrs size not a multiple of attr_size" "$f"
variant attrs-size-0 32 8 0
judge_one "no attrs" "$f"
variant ids-past-eof $((attrs_off + attr_size - 16)) 8 $((size * 3))
judge_one "attr ids offset past EOF" "$f"
variant ids-size-absurd $((attrs_off + attr_size - 8)) 8 0x7ffffffffffffff8
judge_one "absurd attr id count" "$f"
variant attr-dot-size-4 $((attrs_off + 4)) 4 4
judge_one "perf_event_attr.size 4" "$f"
variant attr-dot-size-huge $((attrs_off + 4)) 4 0xfffffff0
judge_one "perf_event_attr.size huge" "$f"
variant data-past-eof 40 8 $((size + 100))
judge_one "data offset past EOF" "$f"
variant data-size-past-eof 48 8 $((size * 2))
judge_one "data size past EOF" "$f"
variant data-size-wraps 48 8 -1
judge_one "data offset + size wraps around" "$f"
variant feat-offset-past-eof "$data_end" 8 $((size * 5))
judge_one "feature section offset past EOF" "$f"
variant feat-size-absurd $((data_end + 8)) 8 0x7fffffffffffffff
judge_one "absurd feature section size" "$f"
variant feat-all-bits 72 8 -1 80 8 -1 88 8 -1 96 8 -1
judge_one "every feature bit set" "$f"
judge_one "feature table missing" "$TMP/bad/no-feature-table"
variant rec-size-0 $((data_off + 6)) 2 0
judge_one "record size 0" "$f"
variant rec-size-4 $((data_off + 6)) 2 4
judge_one "record size 4" "$f"
read -r last_off _ last_size < <(grep -v END "$TMP/base.walk" | tail -n 1)
variant rec-past-section $((last_off + 6)) 2 $((last_size + 64))
judge_one "last record runs past the data section" "$f"
variant rec-size-max $((data_off + 6)) 2 0xffff
judge_one "first record size 0xffff" "$f"
read -r s_off _ < <(awk '$2 == 9 { print; exit }' "$TMP/base.walk")
if [ -n "${s_off:-}" ]; then
	variant sample-too-short $((s_off + 6)) 2 16
	judge_one "SAMPLE record shorter than its fields" "$f"
	# the callchain's nr is the u64 before its first context marker
	i=$(od -A n -v -t x8 -j $((s_off + 8)) -N 256 "$base" | tr -s ' ' '\n' | grep . |
		grep -n -m 1 -E '^ffffffffffff(ff80|fe00)$' | cut -d: -f1)
	if [ -n "$i" ] && [ "$i" -gt 1 ]; then
		variant sample-callchain-huge $((s_off + 8 + 8 * (i - 2))) 8 0x0fffffffffffffff
		judge_one "SAMPLE callchain nr huge" "$f"
	else
		skip "SAMPLE callchain nr huge" "no callchain found in the first sample"
	fi
	variant unknown-type "$s_off" 4 0x7fffffff
	judge_one "record of an unknown type" "$f"
fi

# A killed "perf record" leaves data.size 0 and no feature sections: read
# the records to EOF with a warning.
"$TMP/bintool" poke "$TMP/bad/killed" "$TMP/bad/killed" 48 8 0
run_prof "$TMP/k.out" "$TMP/k.err" report --stats -i "$TMP/bad/killed"
rc=$?
if [ $rc -eq 0 ] && grep -q 'warning' "$TMP/k.err" && ! sanitizer_report "$TMP/k.err" &&
	grep -q 'SAMPLE events' "$TMP/k.out"; then
	ok "data.size 0 (killed record): warning, samples read, status 0"
else
	not_ok "data.size 0 (killed record): warning, samples read, status 0" \
		"status $rc" "$(failure_detail "$TMP/k.err")"
fi
variant data-size-0-with-features 48 8 0
judge_one "data.size 0 with the feature sections left behind" "$f"

# --- truncations ----------------------------------------------------------------

# truncate_all NAME FILE: FILE cut at every record boundary and at 50
# random offsets
truncate_all()
{
	local name=$1 src=$2 off n=0 files=() cuts=() len

	len=$(stat -c %s "$src")
	mkdir -p "$TMP/trunc-$name"
	while read -r off _; do
		[ "$off" = END ] && continue
		cuts+=("$off" "$TMP/trunc-$name/b$off")
		files+=("$TMP/trunc-$name/b$off")
	done < <("$TMP/bintool" walk "$src")
	"$TMP/bintool" cut "$src" "${cuts[@]}"
	judge_many "$name truncated at every record boundary" "${files[@]}"
	rm -rf "$TMP/trunc-$name"
	mkdir -p "$TMP/trunc-$name"
	files=() cuts=()
	for ((n = 0; n < 50; n++)); do
		off=$(((RANDOM * 32768 + RANDOM) % len))
		cuts+=("$off" "$TMP/trunc-$name/r$off")
		files+=("$TMP/trunc-$name/r$off")
	done
	"$TMP/bintool" cut "$src" "${cuts[@]}"
	judge_many "$name truncated at 50 random offsets" "${files[@]}"
	rm -rf "$TMP/trunc-$name"
}

truncate_all "file" "$base"
if record_workload --pipe pipe -g -F 499 -- spin short; then
	judge_one "unmodified pipe recording" "$TMP/pipe.data"
	truncate_all "pipe" "$TMP/pipe.data"
	f=$TMP/bad/pipe-header-size; "$TMP/bintool" poke "$TMP/pipe.data" "$f" 8 8 0xffff
	judge_one "pipe header size 0xffff" "$f"
	"$TMP/bintool" cut "$TMP/pipe.data" 16 "$TMP/bad/pipe-header-only"
	judge_one "pipe header only" "$TMP/bad/pipe-header-only"
	f=$TMP/bad/pipe-rec-size-0; "$TMP/bintool" poke "$TMP/pipe.data" "$f" 22 2 0
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
	pokes=()
	for ((k = 0; k < 4; k++)); do
		pokes+=($(((RANDOM * 32768 + RANDOM) % size)) 1 $((RANDOM & 255)))
	done
	variant "flip$n" "${pokes[@]}"
	files+=("$f")
done
judge_many "4 random bytes overwritten" "${files[@]}"
