/*
 * symbol_int.h - the symbol module's insides: the loaders and the rbtree
 * they replay, the loader thread, and dso_find_symbol() in prefetched
 * steps.  Included by src/symbol/ and by the session's internals that
 * need them (session.c, and session_int.h for the report engine); every
 * other layer uses symbol.h.
 *
 * Invariants:
 *  - Loaders replay perf's operations on its symbol rbtree (symtree.c):
 *    inserts in perf's order, symbols__fixup_end() (zero-size symbols
 *    extend to the next one), symbols__fixup_duplicate() (one symbol per
 *    start, the one perf chooses).  After loading, dso->syms holds the
 *    tree in order and dso->ranges the disjoint address ranges that
 *    perf's tree descent maps to each symbol, so a lookup is a check of
 *    the range hit last, else a bucket probe and a short binary search.
 *  - dso->ready is set (release) last of a load: a thread that reads it
 *    set (dso_ready()) may look the dso's symbols up.
 */
#ifndef PROF_SYMBOL_SYMBOL_INT_H
#define PROF_SYMBOL_SYMBOL_INT_H

#include "symbol.h"

/* One lookup range of a dso: addresses in [start, end) find syms[sym]. */
struct sym_range {
	u64 start, end;
	u32 sym;
};

/* A stretch of a dso's ranges with no gap of SYM_CLUSTER_GAP or more (the
 * kernel's text, its modules): the bucket index covers the stretches and
 * skips the gaps, so that its buckets stay small where symbols are dense. */
struct sym_cluster {
	u64 base;		/* its first range's start */
	u64 limit;		/* its last range's end */
	u32 first;		/* its first bucket in dso->bucket */
};
#define SYM_CLUSTER_GAP (1ULL << 20)

/* ---- loads on the loader thread and beside it -------------------------- */

/* 1 when dso_load() has finished with the dso (acquire): its symbols may
 * be looked up from any one thread.  NULL is ready. */
static inline int dso_ready(const struct dso *dso)
{
	return !dso || __atomic_load_n(&dso->ready, __ATOMIC_ACQUIRE);
}
/*
 * Asks the loader thread (started on first use) to dso_load() the dso;
 * once per dso until a KSYMBOL reload.  While loads are pending the
 * caller must not load or change symbols itself: dso_loader_wait() first.
 */
void dso_load_async(struct dso_table *t, struct dso *dso);
/* dso_load() while the loader thread may be loading something else. */
void dso_load_exclusive(struct dso_table *t, struct dso *dso);
/* dso_load_exclusive() unless a load holds the table now: then 0, and
 * nothing done. */
int dso_load_try(struct dso_table *t, struct dso *dso);
/* Waits until the loader thread has no load pending. */
void dso_loader_wait(struct dso_table *t);
/* Stops the loader thread, after the loads queued (dso_table_exit()). */
void dso_loader_stop(struct dso_table *t);
/* Frees the dso's symbols and lookup tables (not its KSYMBOL extras). */
void dso_forget_symbols(struct dso *dso);

/* ---- lookups in prefetched steps --------------------------------------- */

/*
 * dso_find_symbol() in three steps, for a thread that works ahead:
 * dso_probe_start() finds addr's bucket and prefetches it; some lookups
 * later dso_probe_ranges() reads the span of ranges the bucket gives and
 * prefetches them; later again dso_probe_find() searches that span.  A
 * probe started before the dso was ready does the whole lookup at the end.
 */
struct sym_probe {
	s64 bucket;		/* >= 0: a bucket; PROBE_FULL: look up in full;
				   PROBE_NONE: no range holds the address */
	u32 lo, hi;		/* the span dso_probe_ranges() read */
	int ranged;		/* lo and hi are set */
};
#define PROBE_FULL (-1)
#define PROBE_NONE (-2)
void dso_probe_start(const struct dso *dso, u64 addr, struct sym_probe *p);
void dso_probe_ranges(const struct dso *dso, struct sym_probe *p);
const struct symbol *dso_probe_find(struct dso_table *t, struct dso *dso, u64 addr,
				    const struct sym_probe *p);

/* ---- perf's symbol rbtree (symtree.c) ---------------------------------- */

/* A node of the tree; links are indexes into symtree.v, 0 is nil. */
struct symtree_node {
	struct symbol sym;
	u32 left, right, parent;
	u32 order;		/* position in the in-order walk (install) */
	u8 black;
};

/*
 * The symbols of one dso while it loads, as perf's rbtree holds them.
 * A lazy tree links no node: it logs the inserts and erases and keeps its
 * nodes in tree order (by start, equal starts in insertion order, which
 * is the in-order walk of every tree those operations make).  Only the
 * shape is missing, and that matters only where symbols overlap: then
 * symtree_install() replays the log into a tree.
 */
struct symtree {
	struct symtree_node *v;	/* v[0] is the nil sentinel */
	u32 nr, alloc;
	u32 root;
	u32 count;		/* nodes in the tree (not erased) */
	int lazy;		/* no links yet: see above */
	u32 *log;		/* lazy: node numbers inserted, and erased
				   with SYMTREE_ERASED, in order */
	u32 nr_log, alloc_log;
	u32 *order;		/* the nodes in tree order (lazy: kept; else
				   made by each walk) */
	u32 nr_order, alloc_order;
	u32 ordered;		/* lazy: nodes below this are in order[] */
};
#define SYMTREE_ERASED 0x80000000u

/* Makes an empty tree (symtree_init_lazy(): a lazy one). */
void symtree_init(struct symtree *t);
void symtree_init_lazy(struct symtree *t);
/* Frees the nodes. */
void symtree_exit(struct symtree *t);
/* perf's __symbols__insert(): equal starts go right.  name is kept, not
 * copied: it must live as long as the dso (the table's arena).  Returns
 * the new symbol, valid until the next insert. */
struct symbol *symtree_insert(struct symtree *t, u64 start, u64 end, const char *name,
			      u8 binding, u8 type);
/* perf's symbols__fixup_end() over the in-order walk. */
void symtree_fixup_end(struct symtree *t, int is_kallsyms);
/* perf's symbols__fixup_duplicate(): erases all but the preferred symbol
 * of each run of equal starts. */
void symtree_fixup_duplicate(struct symtree *t);
/* Makes the tree the dso's symbols and lookup ranges; marks it loaded. */
void symtree_install(struct symtree *t, struct dso *dso);
/* Makes v[0..nr) (sorted by start, equal starts in insertion order) the
 * dso's symbols, as if inserted into a tree in that order; takes v. */
void symtree_install_sorted(struct dso *dso, struct symbol *v, u32 nr);
/* perf's choose_best_symbol(): 1 when b is kept over a (same start). */
int symbol_prefer_second(const struct symbol *a, const struct symbol *b);

/* ---- loaders (one file each) ------------------------------------------ */

/* A symbol list being built, before perf's fixups. */
struct symbol_list {
	struct symbol *v;
	u32 nr, alloc;
	struct arena *arena;	/* names */
};

/* Appends a symbol; name is copied into the arena. */
void symbol_list_add(struct symbol_list *l, u64 start, u64 end, const char *name,
		     u8 binding, u8 type);
/* Makes l (sorted here, not fixed up) the dso's symbols, inserted into
 * perf's tree in that order; marks it loaded.  l keeps its array. */
void dso_install_list(struct dso *dso, struct symbol_list *l);
/* Sorts l by start; equal starts keep insertion order. */
void symbol_list_sort(struct symbol_list *l);

/* A start and where it came from: sort_by_start() sorts these by start,
 * stably (a radix sort a byte at a time, skipping bytes all share), which
 * is the order perf's rbtree walks equal starts in when idx is the
 * insertion order. */
struct start_idx {
	u64 start;
	u32 idx;
};
void sort_by_start(struct start_idx *v, u32 n);
/* perf's symbols__fixup_end() then symbols__fixup_duplicate() over l,
 * sorting it first (stable: equal starts keep insertion order). */
void symbol_list_finish(struct symbol_list *l, int is_kallsyms);

/* Loads an ELF dso's symbols into st as perf's dso__load() does (debug
 * files, build-id checks, .symtab then .dynsym, PLT).  Returns perf's
 * count: the symbols inserted, or -1 when it gave up part way. */
int elf_load_dso(struct dso_table *t, struct dso *dso, struct symtree *st);
/* Loads symbols from an ELF image in memory (the vdso) into st. */
int elf_load_memory(struct dso_table *t, struct dso *dso, const void *image, size_t size,
		    struct symtree *st);
/* Reads the GNU build-id note of the ELF file at path; returns its size,
 * 0 when it has none or cannot be read. */
/* 1 when the dso has no recorded build-id or the open ELF handle has the
 * same (as symbols are checked). */
struct Elf;
int elf_handle_build_id_ok(struct Elf *elf, const struct dso *dso);
/* The running process's vdso image and its size, or NULL. */
const void *elf_own_vdso(size_t *size);
/* The build-id note in an ELF image in memory (vdso); size or 0. */
int elf_memory_build_id(const void *image, size_t size, u8 *bid, size_t max);

/* Loads /tmp/perf-PID.map style lines ("START SIZE name", hex) into st
 * in file order, unfixed, as perf does; names go into arena.  Returns the number of symbols,
 * or -1 when the file cannot be read. */
int perf_map_load(struct arena *arena, const char *path, struct symtree *st);

/* Reads a kallsyms file: kernel symbols into kernel (absolute, minus
 * delta), module symbols into the module dsos that have maps.  Returns
 * the kernel symbol count or -1. */
int kallsyms_load(struct dso_table *t, struct dso *kernel, const char *path,
		  struct symbol_list *l);
/* Starts reading the kallsyms file kallsyms_load() would pick now for
 * kernel (NULL: no build-id known) on a worker thread. */
void kallsyms_prefetch(struct dso_table *t, struct dso *kernel);
/* 1 when a kernel load would not wait for the prefetch (done, or none
 * running); any thread. */
int kallsyms_prefetch_done(const struct dso_table *t);
/* Stops and frees an unused prefetch (dso_table_exit()). */
void kallsyms_prefetch_stop(struct dso_table *t);
/* 1 when perf's copy of the running kernel's kallsyms (copy_len bytes)
 * says what /proc/kallsyms says now: it starts with the same bytes as head
 * (/proc/kallsyms' first head_len bytes) up to the first text symbol's
 * line, and its modules are the ones /proc/modules (modules, written to;
 * NULL: no such file) lists, at the same places. */
int kallsyms_copy_current(const char *copy, size_t copy_len, const char *head,
			  size_t head_len, char *modules);

/* Demangles an ELF symbol name as perf 6.1 shows it; returns name itself
 * when it is not mangled, else a string in arena. */
const char *demangle_symbol(struct arena *arena, const char *name, int verbose);
/*
 * A copy of an ELF symbol name for struct symbol.name, with demangling
 * left to the first symbol_name() of the symbol: most symbols of a big C++
 * library are never shown, and demangling them all would take most of its
 * load time.  Sets *mangled as symbol.mangled must be set.
 */
const char *demangle_later(struct dso_table *t, const char *name, u8 *mangled);

#endif
