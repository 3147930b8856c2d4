/*
 * inline.h - the functions inlined at an address, from DWARF debug
 * information, as perf 6.1 adds them to call chains (its append_inlines(),
 * which asks binutils' addr2line -i -f).
 *
 * For an address of a dso and the symbol prof found there, the answer is
 * the list of functions addr2line names, innermost first: the function the
 * address is in (an inlined one, or the enclosing concrete function), then
 * each function it is inlined into, out to the concrete function.  Where
 * a name equals the symbol's, the entry is the symbol itself; any other
 * name gets a made-up symbol with the same start and end as the symbol and
 * the inlined flag (perf's new_inline_sym()), printed as "name (inlined)".
 * An empty list means addr2line knows nothing of the address (no line
 * information, no symbol table entry): the address is shown as it is.
 *
 * Invariants:
 *  - The file read is the one the dso's symbols came from when it had a
 *    .symtab (dso->symsrc_path, perf's symsrc_filename), else the dso's
 *    own path; bracketed names ([vdso] without a cached copy, [kernel...])
 *    and /tmp/perf-PID.map files are never read.  It is opened on the
 *    first lookup in the dso, once; files that fail to open or parse give
 *    empty lists, never an error.
 *  - Addresses are file offsets (the dso's address space); they are moved
 *    to the ELF virtual address by the PT_LOAD that holds them.
 *  - Where DWARF has no line information for an address, the name comes
 *    from the file's .symtab as binutils chooses it (the nearest symbol at
 *    or below the address, in the address's section; of equal starts the
 *    one that covers it, a function over a label, a typed symbol over an
 *    untyped one, the smaller, else the first in the table).
 *  - Each address is looked up once per dso and kept (hash by address);
 *    made-up symbols are kept per dso and reused by name and touching
 *    range, and every name gets one inline_id per dso table, so that equal
 *    names compare equal (perf compares inlined entries by name).
 *  - Not thread-safe: one thread does every lookup of a dso table.
 */
#ifndef PROF_SYMBOL_INLINE_H
#define PROF_SYMBOL_INLINE_H

#include "symbol.h"

struct inline_info;
struct inline_names;

/*
 * The entries perf puts in a call chain for addr (dso address space) whose
 * symbol is sym, innermost first; *syms points to them until the next
 * lookup in the same dso.  Returns how many, 0 when the address stays as
 * it is (also for a NULL sym, as perf does).
 */
u32 inline_lookup(struct dso_table *t, struct dso *dso, const struct symbol *sym, u64 addr,
		  const struct symbol *const **syms);

/* Frees a dso's lookups (dso_table_exit()). */
void inline_info_free(struct inline_info *ii);
/* Frees the table's names and made-up symbols (dso_table_exit()). */
void inline_names_free(struct inline_names *n);

#endif
