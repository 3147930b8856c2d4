#!/bin/bash
# tests/perf/mem_fields.sh - the memory fields perf script prints by
# default for raw events: addr, data_src (the word and its decoding,
# padded to the widest so far), weight, ins_lat, phys_addr and the page
# sizes.
#
# A synthetic file (build/tests/gen_records --raw, tests/unit/gen_records.c)
# of a raw event whose samples carry ADDR, DATA_SRC, WEIGHT_STRUCT,
# PHYS_ADDR and both page sizes, as a memory-sampling event's do (this
# machine may have no PMU to record one): data_src words that set each
# op, level, snoop, snoopx, lock, TLB, level number, remote, block and
# hops value, alone and together; page sizes from none to gigabytes.
# Compared: script (default fields, and -F naming them) and report --stdio,
# with perf 6.1 on the same file; and -F naming them on a file whose
# samples lack them (an error).
# run-all: cost 2
. "$(dirname "$0")/../lib.sh"

if ! command -v perf >/dev/null; then
	skip "memory fields" "perf not installed"
	exit 0
fi
gen=$ROOT/build/tests/gen_records
if [ ! -x "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_records >/dev/null 2>&1
fi
if [ ! -x "$gen" ]; then
	not_ok "memory fields: build/tests/gen_records could not be built"
	exit 0
fi

{
	echo "comm 100 100 work"
	i=0
	for ds in 0x1 0x2 0x4 0x8 0x10 0x0 0x21 0x3fffe 0x7ffe2 0x80002 0xf80002 \
		0x1000002 0x2000002 0x3000002 0x4000002 0x1fc000002 0x200000002 \
		0x1e00000002 0x1a00000002 0x3e00000002 0x2000000002 0x4000000002 \
		0x8000000002 0xc000000002 0x10000000002 0x20000000002 0x40000000002 \
		0x60000000002 0x80000000002 0x100000000002 0x180000000002 \
		0x200000000002 0x2a200004c2 0x11868100242 0x1026a100142 \
		0x10650100842 0x3fffffffffff; do
		i=$((i + 1))
		# weight: low 32 bits the weight, the next 16 ins_lat
		echo "msample 100 100 $((0x400000 + i)) $((0x55ffba5cd000 + i)) $ds" \
			"$((i * 1000 + (i << 32))) $((0x1234000 + i)) $((i * 1023 * 512))" \
			"$((1 << (i % 32 + 5)))"
	done
	echo "msample 100 100 0x400100 0 0 0 0 0 1024"
	echo "msample 100 100 0x400101 0 0 0 0 2048 1073741824"
} >"$TMP/records"
if ! "$gen" --raw "$TMP/mem.data" <"$TMP/records" 2>"$TMP/gen.err"; then
	not_ok "memory fields: generate" "$(head -n 1 "$TMP/gen.err")"
	exit 0
fi
compare "memory fields: script" "perf script -i '$TMP/mem.data'" \
	"'$PROF' script -i '$TMP/mem.data'"
compare "memory fields: script -F +period" "perf script -F +period -i '$TMP/mem.data'" \
	"'$PROF' script -F +period -i '$TMP/mem.data'"
compare "memory fields: script -F comm,tid,ip" "perf script -F comm,tid,ip -i '$TMP/mem.data'" \
	"'$PROF' script -F comm,tid,ip -i '$TMP/mem.data'"
compare "memory fields: script -F comm,data_src,weight,ip" \
	"perf script -F comm,data_src,weight,ip -i '$TMP/mem.data'" \
	"'$PROF' script -F comm,data_src,weight,ip -i '$TMP/mem.data'"
compare "memory fields: script -F raw:comm,ins_lat,phys_addr,data_page_size,code_page_size" \
	"perf script -F raw:comm,ins_lat,phys_addr,data_page_size,code_page_size -i '$TMP/mem.data'" \
	"'$PROF' script -F raw:comm,ins_lat,phys_addr,data_page_size,code_page_size -i '$TMP/mem.data'"
report_both "memory fields: report" "$TMP/mem.data"

# named with -F for samples that do not carry them: an error (status 255)
printf '%s\n' "comm 100 100 work" "sample 100 100 0x400000" | "$gen" "$TMP/clock.data"
for field in data_src weight ins_lat phys_addr data_page_size code_page_size; do
	compare "memory fields: script -F comm,$field without it" \
		"perf script -F comm,$field -i '$TMP/clock.data'" \
		"'$PROF' script -F comm,$field -i '$TMP/clock.data'"
done
