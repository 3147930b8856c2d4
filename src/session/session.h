/*
 * session.h - the session model: what the machine looked like at each
 * moment of a recording, rebuilt from the records.
 *
 * Threads by pid/tid with their comm over time; per-process address maps
 * (MMAP/MMAP2), inherited on fork without a deep copy; the kernel map
 * [kernel.kallsyms], modules, [vdso], [vsyscall], anonymous/JIT maps; and
 * DSOs, each loaded lazily by the symbol layer (src/symbol) the first time a
 * sample needs its symbols.  Lookups are hash tables and sorted arrays: no
 * linear walks, even with 100,000s of threads and maps.
 *
 * Use: session_new(), then session_event() for every record in delivery
 * order (pd_ops.record order); for a SAMPLE, session_resolve() says where
 * the sample's ip falls.  Everything lives in the session's arena and is
 * freed by session_free().
 *
 * Layering: session uses format (reader) and symbol; analysis and output
 * use session.  This header is the contract between the session module
 * and its users: its declarations keep their meaning.  The report
 * engine's two-thread variants (a sync hook, the kernel's deferred load,
 * DSOs loaded ahead, lookups in prefetched steps) are in session_int.h,
 * which only the session module and src/engine/ include.
 */
#ifndef PROF_SESSION_SESSION_H
#define PROF_SESSION_SESSION_H

#include "../format/reader.h"
#include "../symbol/symbol.h"

struct session;
struct thread;
struct map;
struct dso;
struct symbol;

/* Where one address of a sample falls, with everything perf prints. */
struct addr_location {
	struct thread *thread;	/* never NULL for a resolved sample */
	const char *comm;	/* the thread's comm at the sample's time, as perf
				   prints it (":<tid>" when it never had one) */
	s32 pid, tid;
	u32 comm_epoch;		/* how many comm strings the session had
				   rewritten in place (see below) when comm
				   was read: while it stays the same, every
				   comm string handed out reads as it did */
	struct map *map;	/* NULL: no map covers the address */
	struct dso *dso;	/* NULL: "[unknown]" */
	const struct symbol *sym;	/* NULL: not resolved */
	u64 addr;		/* the address perf prints when sym is NULL:
				   map-relative when there is a map, else absolute */
	u8 cpumode;		/* PD_MISC_KERNEL, PD_MISC_USER, ... */
	char level;		/* perf's marker: 'k' kernel, '.' user, 'g' guest
				   kernel, 'u' guest user, 'H' hypervisor/unknown */
	u8 kernel_unsure;	/* SESSION_DEFER_KERNEL (session_int.h):
				   resolved to the kernel map before it was
				   loaded and shrunk; else 0 */
};

/* Options a command passes when it makes a session. */
struct session_opts {
	const char *vmlinux;		/* -k/--vmlinux, or NULL */
	const char *symfs;		/* --symfs, or NULL */
	int no_kallsyms;		/* do not read /proc/kallsyms */
	int minidebuginfo;		/* also read .gnu_debugdata (MiniDebugInfo);
					   perf 6.1 does not, so 0 matches it */
	int verbose_demangle;		/* C++ names with parameters (perf -v) */
};

/* Makes a session for the file f (already opened with pd_open()). */
struct session *session_new(struct pd_file *f, const struct session_opts *opts);
/* Frees the session, its threads, maps, DSOs and symbols. */
void session_free(struct session *s);

/* Updates the model from one record (COMM, FORK, EXIT, MMAP, MMAP2,
 * KSYMBOL, ...); other records are ignored.  Returns 0 or -1. */
int session_event(struct session *s, const struct pd_event *ev);
/* After session_event() of a FORK: 1 when its parent thread was found
 * with another pid and replaced, as perf does, the pid and tid it had in
 * *pid, *tid (perf -D prints "removing erroneous parent thread"); else 0. */
int session_fork_removed_parent(const struct session *s, s32 *pid, s32 *tid);
/* 1 once the kernel map was loaded (and shrunk to its symbols): lookups
 * that hit it no longer change it. */
int session_kernel_loaded(const struct session *s);

/*
 * Resolves the sample's own ip (the sample's cpumode from hdr->misc) as
 * perf does for the histogram: thread, comm at sample time, map, dso,
 * symbol (loading the DSO's symbols on first use).  Returns 0, or -1 when
 * the sample must be skipped as perf skips it.
 */
int session_resolve(struct session *s, const struct pd_event *ev,
		    const struct pd_sample *sample, struct addr_location *al);

/* Resolves one callchain address with the given cpumode (from the chain's
 * PERF_CONTEXT markers), for the same thread and time as al. */
int session_resolve_addr(struct session *s, const struct addr_location *sample_al,
			 u64 time, u8 cpumode, u64 addr, struct addr_location *al);

/* The room session_dwarf_chain() builds chains in: zeroed at first,
 * v freed by its owner. */
struct dwarf_chain {
	u64 *v;
	u32 alloc;		/* u64s */
};

/*
 * perf's thread__resolve_callchain() for a sample with user registers and
 * stack (attr has REGS_USER and STACK_USER: --call-graph dwarf): the
 * recorded chain (its kernel part), a PERF_CONTEXT_USER marker, then the
 * user frames unwound from the stack copy (symbol/unwind.h), the sample's
 * user ip first, at most max_stack, zero ips dropped.  Walked in callee
 * order that is perf's cursor; walked backwards (caller order, each ip
 * taking the cpumode of the marker before it) it is perf's too, which
 * unwinds first then appends the recorded part, both reversed.  Points
 * sample's chain into buf and returns 1; 0 (sample unchanged) when there
 * is nothing to unwind.  max_stack bounds the unwound part only, as in
 * perf.
 */
int session_dwarf_chain(struct session *s, const struct pd_attr *attr,
			const struct addr_location *sample_al, struct pd_sample *sample,
			int max_stack, struct dwarf_chain *buf);

/*
 * Guarantees callers may build caches on:
 *  - a thread's maps never overlap, and they change only inside
 *    session_event() (MMAP, MMAP2, FORK, EXIT, KSYMBOL, ...): between two
 *    calls, an address in a map's [start, end) resolves to that map;
 *  - the kernel map changes its extent once, when kernel symbols are first
 *    loaded (it shrinks to them, as in perf), and never again;
 *  - a map's DSO never changes, and neither does the symbol found for a
 *    map-relative address once looked up, except that a KSYMBOL record
 *    may add symbols to a DSO (callers caching symbols drop their cache
 *    when they pass a KSYMBOL to session_event()).
 */

/*
 * Resolution flags.  SESSION_NO_SYMBOL stops at the map and DSO: al->sym
 * stays NULL and no DSO's symbol table is loaded for the lookup (what is
 * needed to tell the map and DSO perf would report, such as the kernel
 * map's extent, is still loaded).  For callers whose output names no
 * symbol (e.g. --sort comm,dso).  (The report engine's own flag,
 * SESSION_DEFER_KERNEL, is in session_int.h.)
 */
#define SESSION_NO_SYMBOL 1

/* session_resolve() with flags. */
int session_resolve_flags(struct session *s, const struct pd_event *ev,
			  const struct pd_sample *sample, int flags,
			  struct addr_location *al);
/* session_resolve_addr() with flags. */
int session_resolve_addr_flags(struct session *s, const struct addr_location *sample_al,
			       u64 time, u8 cpumode, u64 addr, int flags,
			       struct addr_location *al);
/* The symbol at a map-relative address of dso (al->dso, al->addr of a
 * SESSION_NO_SYMBOL resolution), loading the dso's symbols on first use;
 * NULL when none.  Symbols found stay valid until session_free(). */
const struct symbol *session_find_symbol(struct session *s, struct dso *dso, u64 addr);

/* perf's machine__resolve_kernel_addr(): the name of the kernel symbol at
 * *addr (seen from the thread of sample_al at time), *addr set to its
 * start; NULL when there is none. */
const char *session_kernel_symbol(struct session *s, const struct addr_location *sample_al,
				  u64 time, u64 *addr);

/* The DSO's name as perf shows it in "Shared Object" (basename, "[vdso]",
 * "[kernel.kallsyms]", "[JIT] tid 123"...), or "[unknown]" for NULL. */
const char *dso_short_name(const struct dso *dso);
/* The DSO's creation order in the session (from 1; 0 for NULL): perf
 * orders call-graph siblings by DSO address, which follows it. */
u32 dso_serial(const struct dso *dso);
/* The DSO's full path as recorded. */
const char *dso_long_name(const struct dso *dso);
/* Its long name as perf has it once its symbols are loaded: the kernel's
 * is "[kernel.kallsyms]" when kallsyms gave it symbols, whatever name the
 * build-id table gave it (a vmlinux path); others keep theirs. */
const char *dso_loaded_name(const struct dso *dso);
/* Whether dso gets its symbols from the kernel's load (kernel, modules). */
int session_dso_is_kernel(const struct dso *dso);
/* A symbol's name as perf prints it (demangled). */
const char *symbol_name(const struct symbol *sym);
/* A symbol's start, map-relative (what perf adds offsets to). */
u64 symbol_start(const struct symbol *sym);

/*
 * About al->comm: a thread's first name (":<tid>" until its first COMM, or
 * the comm its FORK copies) is overwritten in place when that name arrives,
 * as perf's comm__override() does; so a comm string handed out earlier may
 * read differently later.  Aggregate by the string's content only when
 * printing (perf collapses by strcmp), or by pointer before that.  Later
 * COMMs give new strings; old ones never change again.  al->comm_epoch
 * tells when a check is due: no string was rewritten between two samples
 * with the same epoch.
 */

/* The thread's latest comm (what perf's pid/tid sort keys print). */
const char *thread_comm_now(const struct thread *t);
/* The thread's pid and tid. */
s32 thread_pid(const struct thread *t);
s32 thread_tid(const struct thread *t);
/* A map's address range [start, end). */
u64 map_start(const struct map *m);
u64 map_end(const struct map *m);
/* A symbol's end (exclusive), in the same space as symbol_start(). */
u64 symbol_end(const struct symbol *sym);
/* 1 for the made-up symbol of an inlined function (session_inlines()),
 * which perf prints as "name (inlined)"; its start and end are those of
 * the symbol it was found in. */
int symbol_inlined(const struct symbol *sym);
/* An inlined symbol's name as a number: equal for equal names. */
u32 symbol_inline_id(const struct symbol *sym);

/*
 * perf's append_inlines() for a user-space address of an unwound (dwarf)
 * chain, resolved with its symbol into al: the entries perf puts in the
 * chain in its place, innermost function first (the functions inlined
 * there from the DWARF debug information, then the symbol itself, or an
 * inlined entry of the name DWARF gives it when that differs); *syms
 * points to them until the next call.  0: the address stays as it is
 * (no symbol, no debug information, kernel).  Looked up once per address.
 */
u32 session_inlines(struct session *s, const struct addr_location *al,
		    const struct symbol *const **syms);

#endif
