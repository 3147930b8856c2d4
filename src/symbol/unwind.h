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
 *  - Steps follow perf 6.1's libunwind unwinder: the first ip is the
 *    sample's own; each caller's is its return address minus 1, and the
 *    CFI of callers is looked up at that address, except past a signal
 *    frame (an 'S' FDE, glibc's __restore_rt): the interrupted ip is
 *    shown and looked up as it is.  The FDE is looked up at
 *    pc - base + (first PT_LOAD's page), base being the lowest start of
 *    the thread's maps of the dso, as perf computes its .eh_frame_hdr
 *    address (wrong when a map of the same file from before an exec is
 *    lower: then perf, and prof, find no FDE).  No FDE: libunwind's
 *    fallback (PLT stub, else a frame-pointer guess).  The walk ends at a
 *    pc outside any map, a dso without .eh_frame_hdr, an undefined return
 *    address or rbp, a zero return address, an unreadable word, a frame
 *    that neither moves nor changes ip, or max frames.
 *  - CFI expressions (CFA, register and value expressions) are
 *    evaluated as libunwind does, reading memory as above; one that
 *    fails (an unreadable word, an unset register, an operation outside
 *    libunwind's set) ends the walk.  Only .eh_frame is read, never
 *    .debug_frame (perf 6.1 as Debian builds it reads none).
 */
#ifndef PROF_SYMBOL_UNWIND_H
#define PROF_SYMBOL_UNWIND_H

#include "symbol.h"

struct unwind_table;

/* The most frames a caller asks for: more than an 8 KB stack copy holds
 * (perf's own limit is its --max-stack). */
#define UNWIND_MAX_FRAMES 65536

/* Where a pc is: its dso, the address in the dso's space (file offset for
 * ELF objects) and the lowest start of the thread's maps of that dso
 * (perf's load base); 0, or -1 when no map holds pc. */
typedef int (*unwind_find_fn)(void *arg, u64 pc, struct dso **dso, u64 *dso_addr, u64 *base);

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

/* 1 when the dso's file (or vdso image) reads as an ELF file: perf's
 * dso__type() is known, which perf needs of one map of a process before
 * it unwinds that process's samples at all. */
int unwind_dso_is_elf(struct dso_table *t, struct dso *dso);

/* Frees a dso's CFI table (dso_table_exit()). */
void unwind_table_free(struct unwind_table *u);

#endif
