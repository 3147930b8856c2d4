/*
 * unwind.h - DWARF (CFI) unwinding of the user stack copied with a sample
 * (perf record --call-graph dwarf), as perf 6.1 does it with libunwind.
 *
 * Each dso gets, the first time a pc in it is unwound, a table of the FDEs
 * of its .eh_frame (from .eh_frame_hdr, sorted by pc); an FDE's rows (pc
 * range -> CFA rule and register rules) are compiled with libdw's CFI
 * reader the first time a pc in it is looked up, and kept until the dso
 * table goes.  Stepping a sample reads only the tables and the sample's
 * own register and stack copy: no allocation and no system call once the
 * tables it needs exist.
 *
 * Invariants:
 *  - Registers use the DWARF x86_64 numbering (0-15 GPRs, 16 the return
 *    address / rip).  Only x86_64 samples (ABI 64) are unwound.
 *  - A stack word at addr is read only when sp <= addr and addr + 8 <
 *    sp + size (perf's check, with its off-by-one): anything else ends
 *    the walk, as perf fails to read it.
 *  - The first ip is the sample's own; each caller's is its return address
 *    minus 1 (perf's "non-activation" ips), and the CFI of callers is
 *    looked up at that address.  A zero return address, an undefined or
 *    unsupported return-address rule, a pc outside any map, or a CFA that
 *    does not grow ends the walk.  A pc in a map whose dso has no CFI for
 *    it is stepped by frame pointer (libunwind's fallback).
 *  - Unsupported CFA rules (expressions other than the PLT one binutils
 *    emits, registers not tracked) end the walk; signal frames end it.
 */
#ifndef PROF_SYMBOL_UNWIND_H
#define PROF_SYMBOL_UNWIND_H

#include "symbol.h"

struct unwind_table;

/* Where a pc is: its dso and the address in the dso's space (file offset
 * for ELF objects); 0, or -1 when no map holds pc. */
typedef int (*unwind_find_fn)(void *arg, u64 pc, struct dso **dso, u64 *dso_addr);

/* One sample's user state, as recorded. */
struct unwind_input {
	u64 regs_mask;		/* attr.sample_regs_user */
	const u8 *regs;		/* popcount(regs_mask) u64s (unaligned) */
	const u8 *stack;	/* the copy of the stack from sp */
	u64 stack_size;		/* its valid bytes (the dynamic size) */
};

/*
 * Unwinds one sample: ips[0] is the sample's user ip, then the callers'
 * (return address - 1), at most max entries.  Returns the number of ips
 * (0 when the registers lack ip or sp).  Builds CFI tables on first use
 * of a dso (in t's dsos; freed by dso_table_exit()).
 */
int unwind_user(struct dso_table *t, const struct unwind_input *in, unwind_find_fn find,
		void *arg, u64 *ips, int max);

/* Frees a dso's CFI table (dso_table_exit()). */
void unwind_table_free(struct unwind_table *u);

#endif
