/*
 * fuzz_elf.c - libFuzzer target for the ELF symbol loader (src/symbol).
 *
 * Each input is treated as an ELF image: its build-id is read, and its
 * symbols are loaded the way a user DSO's (and, every other input, the
 * vdso's) are, then looked up at a few addresses.  Any crash, hang or
 * sanitizer report is a bug: bad ELF input must only mean "no symbols".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/symbol/symbol_int.h"
#include "../src/util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena arena;
	struct dso_table table;
	struct symtree st;
	struct dso *dso;
	u8 bid[DSO_BUILD_ID_MAX];
	void *copy;

	error_set_quiet(2);
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	arena_init(&arena, 0);
	dso_table_init(&table, &arena, NULL);
	dso = dso_table_findnew(&table, size & 1 ? "[vdso]" : "/fuzz/input.so",
				size & 1 ? DSO_KIND_VDSO : DSO_KIND_USER);
	(void)elf_memory_build_id(copy, size, bid, sizeof(bid));
	symtree_init(&st);
	(void)elf_load_memory(&table, dso, copy, size, &st);
	symtree_install(&st, dso);
	symtree_exit(&st);
	for (u64 addr = 0; addr < 0x4000; addr += 0x400)
		(void)dso_find_symbol(&table, dso, addr);
	dso_table_exit(&table);
	arena_free(&arena);
	free(copy);
	return 0;
}
