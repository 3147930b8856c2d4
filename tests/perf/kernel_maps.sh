#!/bin/bash
# tests/perf/kernel_maps.sh - the kernel's map: its name, and addresses in
# kallsyms' data symbols.
#
# Synthetic files (build/tests/gen_records, tests/unit/gen_records.c) of
# kernel samples in the running kernel: a kernel MMAP at _text, then
# samples at a text symbol and at two offsets into a data symbol (type D
# in /proc/kallsyms, past the kernel text, where addresses of another
# machine's kernel land when perf maps them onto this one's symbols).
# perf prints a data symbol (STT_OBJECT) with the entry's offset in it,
# "__start_rodata+0x314".  The same samples under build-id tables whose
# kernel entry is a vmlinux path (perf names the kernel map
# "[kernel.vmlinux]"), another path (its base name), a module listed
# first, or "[kernel.kallsyms]" listed first (perf takes the first kernel
# entry that is no module).  Compared: report (default, --sort sym,dso),
# script and report -D, with perf 6.1 on the same file.
#
# Needs /proc/kallsyms with addresses (root, or kptr_restrict 0), the
# running kernel's build-id and no vmlinux where perf looks for one;
# skipped otherwise.
# run-all: cost 4
. "$(dirname "$0")/../lib.sh"

if ! command -v perf >/dev/null; then
	skip "kernel maps" "perf not installed"
	exit 0
fi
gen=$ROOT/build/tests/gen_records
if [ ! -x "$gen" ]; then
	make -s -C "$ROOT" build/tests/gen_records >/dev/null 2>&1
fi
if [ ! -x "$gen" ]; then
	not_ok "kernel maps: build/tests/gen_records could not be built"
	exit 0
fi

# _text, and a data symbol with 0x400 bytes before the next symbol
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
data=
while read -r d next; do
	if [ $((0x$next - 0x$d)) -ge 1024 ]; then
		data=$d
		break
	fi
done < <(grep -v '\[' /proc/kallsyms | sort |
	awk 'd != "" { print d, $1; d = "" } $2 == "D" && n++ < 100 { d = $1 }')
bid=$(perf buildid-list -k 2>/dev/null)
if [ -z "$text" ] || [ -z "$data" ] || [ "$text" = 0000000000000000 ] || [ -z "$bid" ]; then
	skip "kernel maps" "no kernel addresses in /proc/kallsyms, or no kernel build-id"
	exit 0
fi

# perf reads a vmlinux where it finds one (its vmlinux_path), prof only
# kallsyms (KNOWN-DIFFERENCES.md, "report -D")
r=$(uname -r)
for v in vmlinux /boot/vmlinux "/boot/vmlinux-$r" "/usr/lib/debug/boot/vmlinux-$r" \
	"/lib/modules/$r/build/vmlinux" "/usr/lib/debug/lib/modules/$r/vmlinux" \
	"/usr/lib/debug/boot/vmlinux-$r.debug"; do
	if [ -e "$v" ]; then
		skip "kernel maps" "perf would read the kernel's symbols from $v"
		exit 0
	fi
done

cat >"$TMP/records" <<EOF
comm 100 100 work
kmmap 0x$text 0x40000000 0x$text [kernel.kallsyms]_text
ksample 100 100 $(printf '%#x' $((0x$data + 0x314)))
ksample 100 100 $(printf '%#x' $((0x$data + 0x40)))
ksample 100 100 $(printf '%#x' $((0x$text + 0x100)))
EOF

# same NAME BUILD-ID-LINES...: a file of the records with the BUILD_ID
# lines given, compared in each mode
same()
{
	local name=$1 f=$TMP/k.data

	shift
	if ! { printf '%s\n' "$@"; cat "$TMP/records"; } | "$gen" "$f" 2>"$TMP/gen.err"; then
		not_ok "kernel maps: $name: generate" "$(head -n 1 "$TMP/gen.err")"
		return
	fi
	report_both "kernel maps: $name: report" "$f"
	report_both "kernel maps: $name: report --sort sym,dso" "$f" --sort sym,dso
	compare "kernel maps: $name: script" "perf script -i '$f'" "'$PROF' script -i '$f'"
	compare "kernel maps: $name: report -D" "perf report -D -i '$f'" "'$PROF' report -D -i '$f'"
}

same "no build-ids"
same "vmlinux path" "buildid kernel /usr/lib/debug/boot/vmlinux-test $bid"
same "other path" "buildid kernel /boot/vmlinuz-test $bid"
same "module first" "buildid kernel /lib/modules/test/kernel/foo.ko.xz $bid" \
	"buildid kernel /usr/lib/debug/boot/vmlinux-test $bid"
same "zstd module first (perf 6.1 takes it for a kernel)" \
	"buildid kernel /lib/modules/test/kernel/foo.ko.zst $bid" \
	"buildid kernel /usr/lib/debug/boot/vmlinux-test $bid"
same "[kernel.kallsyms] first" "buildid kernel [kernel.kallsyms] $bid" \
	"buildid kernel /usr/lib/debug/boot/vmlinux-test $bid"
same "vmlinux of another kernel" \
	"buildid kernel /usr/lib/debug/boot/vmlinux-test 1234567890abcdef1234567890abcdef12345678"
