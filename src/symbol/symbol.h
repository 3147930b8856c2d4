/*
 * symbol.h - DSOs and their symbol tables, loaded lazily as perf 6.1 does.
 *
 * A dso is one object that code is mapped from: an ELF file (executable,
 * shared library, kernel module), the kernel ([kernel.kallsyms]), the vdso,
 * a JIT map (/tmp/perf-PID.map) or a BPF/anonymous region with no file.
 * DSOs live in a dso_table (hash by long name) owned by the session; their
 * symbols are loaded the first time dso_find_symbol() needs them, once.
 *
 * Invariants:
 *  - A lookup finds the symbol perf 6.1's symbol rbtree finds for the
 *    address (symbol_int.h says how the loaders rebuild it).
 *  - Symbol addresses are in the dso's own address space, as perf keeps
 *    them: file offsets for every user-space ELF object (p_vaddr -
 *    p_offset of its PT_LOAD subtracted), absolute for the kernel and JIT
 *    maps, map-relative for modules.
 *  - Bad or missing files never fail: the dso just has no symbols.
 *  - Names and symbols live in the table's arena.
 *
 * The loaders, the loader thread and the lookup in prefetched steps are
 * in symbol_int.h, for the symbol module and the session's internals.
 */
#ifndef PROF_SYMBOL_SYMBOL_H
#define PROF_SYMBOL_SYMBOL_H

#include "../util/types.h"
#include "../util/arena.h"

#include <pthread.h>
#include <stddef.h>

/* One function (or object) of a dso. */
struct symbol {
	u64 start, end;		/* [start, end), dso address space */
	const char *name;	/* as perf prints it (demangled); read it with
				   symbol_name(): while mangled is set it
				   points to the name as the file has it
				   (demangle_later()'s) */
	u8 binding;		/* STB_* */
	u8 type;		/* STT_* */
	u8 mangled;		/* demangling is left to the first
				   symbol_name() (demangle_later()); never
				   changes once the symbol is loaded */
	u8 inlined;		/* an inlined function's entry (inline.h):
				   printed with " (inlined)" */
	u32 inline_id;		/* inlined: one number per name in the
				   table, what call graphs match it by */
};

/* What kind of object a dso is; decides how its symbols are loaded. */
enum dso_kind {
	DSO_KIND_USER,		/* an ELF file on disk */
	DSO_KIND_KERNEL,	/* [kernel.kallsyms] / a vmlinux */
	DSO_KIND_MODULE,	/* a kernel module, symbols from kallsyms */
	DSO_KIND_VDSO,		/* [vdso]: the running process's vdso image */
	DSO_KIND_JIT,		/* /tmp/perf-PID.map */
	DSO_KIND_NOSYMS,	/* no file (data anon, [heap], bpf images...) */
	DSO_KIND_KSYMBOL,	/* symbols only from KSYMBOL records */
};

#define DSO_BUILD_ID_MAX 20

/* Its lookup tables (symbol_int.h). */
struct sym_range;
struct sym_cluster;

struct dso {
	const char *long_name;	/* as recorded (path, "[vdso]", ...) */
	const char *short_name;	/* what "Shared Object" shows */
	enum dso_kind kind;
	int loaded;		/* symbols were looked for (found or not) */
	int ready;		/* dso_load() has finished: set (release) last,
				   read with dso_ready() on any thread */
	int load_requested;	/* dso_load_async() was called (its caller's) */
	int adjust_symbols;	/* ELF symbols were moved to file offsets */
	int kallsyms_named;	/* KERNEL: its symbols came from a kallsyms
				   file, after which perf's long name for it
				   is "[kernel.kallsyms]" */
	struct symbol *syms;	/* perf's tree in order (by start) */
	u32 nr_syms;
	/* lookup: disjoint ranges sorted by start */
	struct sym_range *ranges;
	u32 nr_ranges;
	u32 last_range;		/* the range the last lookup hit */
	/* bucket[c.first + j]: the first range starting at or above
	   c.base + (j << bucket_shift) for a cluster c, each cluster's
	   buckets followed by one more; none when nr_clusters is 0 */
	u32 *bucket;
	struct sym_cluster *clusters;
	u32 nr_clusters, bucket_shift;
	struct symbol *extra;	/* symbols added before loading (KSYMBOL) */
	u32 nr_extra, alloc_extra;
	u8 build_id[DSO_BUILD_ID_MAX];
	u8 build_id_size;	/* 0: no build-id known */
	u64 kernel_start, kernel_end;	/* KERNEL: range of its symbols after
					   loading (perf's map fixup) */
	int kernel_range_valid;
	u64 kernel_delta;	/* KERNEL: kallsyms address - recorded address */
	struct dso *hash_next;	/* chain in dso_table */
	u32 serial;		/* creation order in its table (from 1): how
				   perf's heap addresses order its dsos */
	struct unwind_table *unwind;	/* its CFI (unwind.h), made on the
					   first unwind through it */
	const char *symsrc_path;	/* the file its symbols came from when
					   that had a .symtab (perf's
					   symsrc_filename), else NULL */
	struct inline_info *inlines;	/* its DWARF inline lookups (inline.h),
					   made on the first one */
};

/* Where the symbol layer looks for files. */
struct symbol_opts {
	const char *vmlinux;	/* use this vmlinux for the kernel, or NULL */
	const char *symfs;	/* prefix for every file path, or NULL */
	int no_kallsyms;	/* never read /proc/kallsyms */
	int minidebuginfo;	/* also read .gnu_debugdata (perf 6.1 does not) */
	int verbose_demangle;	/* demangle with parameters (perf -v) */
};

/* All DSOs of a session. */
struct dso_table {
	struct dso **buckets;	/* hash by long name */
	u32 mask, nr;
	struct arena *arena;	/* dso objects and names (the caller's) */
	struct arena sym_arena;	/* what loading symbols allocates: its own,
				   so that one thread may load symbols while
				   another makes dsos (see dso_load()) */
	struct arena kallsyms_arena;	/* the kernel's symbol names, made on
					   kallsyms_prefetch()'s thread */
	struct arena name_arena;	/* demangled names, made by symbol_name()
					   under demangle_lock on any thread */
	pthread_mutex_t demangle_lock;	/* serializes symbol_name()'s
					   demangling of this table's symbols */
	void **retired;		/* symbol arrays replaced by a reload, kept
				   until dso_table_exit(): symbols handed out
				   stay readable */
	u32 nr_retired;
	struct symbol_opts opts;
	/* the kernel, for the kallsyms split: modules get their symbols from
	 * the same file when the kernel loads */
	const char *ref_reloc_sym;	/* "_text" from "[kernel.kallsyms]_text" */
	u64 ref_reloc_addr;		/* its recorded address */
	/* the module dso whose map has this short name ("[ext4]") and that
	   map's start, or NULL when no map has it */
	struct dso *(*find_module)(void *ctx, const char *short_name, u64 *map_start);
	void *module_ctx;
	struct kallsyms_prefetch *kallsyms_prefetch;	/* kallsyms_prefetch() */
	struct dso_loader *loader;	/* dso_load_async()'s thread, or NULL */
	pthread_mutex_t load_lock;	/* held by the loader thread and
					   dso_load_exclusive() while loading */
	struct inline_names *inline_names;	/* names of inlined functions
						   (inline.h), or NULL */
};

/* Initializes t; arena outlives it. */
void dso_table_init(struct dso_table *t, struct arena *arena, const struct symbol_opts *opts);
/* Frees the hash (objects are in the arena). */
void dso_table_exit(struct dso_table *t);
/* The dso with this long name, created with kind if absent. */
struct dso *dso_table_findnew(struct dso_table *t, const char *long_name, enum dso_kind kind);
/* The dso with this long name, or NULL. */
struct dso *dso_table_find(struct dso_table *t, const char *long_name);

/* Records the build-id the file says the dso had (BUILD_ID feature or an
 * MMAP2 with a build-id); a file on disk with another build-id is not used. */
void dso_set_build_id(struct dso *dso, const u8 *bid, size_t size);
/* Adds a symbol from a KSYMBOL record (kept across the later load). */
void dso_add_symbol(struct dso_table *t, struct dso *dso, u64 start, u64 len, const char *name);
/*
 * Loads the dso's symbols if not done yet.  Threads: dso_load() and
 * dso_find_symbol() may run on one thread while another calls
 * dso_table_findnew() and dso_set_build_id() on other dsos; everything
 * else (two loads at once, dso_add_symbol(), the kernel's load, which
 * fills the modules) needs the caller to keep them apart.
 */
void dso_load(struct dso_table *t, struct dso *dso);
/* The symbol perf 6.1 finds at addr (dso address space), loading first. */
const struct symbol *dso_find_symbol(struct dso_table *t, struct dso *dso, u64 addr);

/* Reads the GNU build-id note of the ELF file at path; returns its size,
 * 0 when it has none or cannot be read. */
int elf_file_build_id(const char *path, u8 *bid, size_t max);
/* The running kernel's build-id from /sys/kernel/notes; size or 0. */
int host_kernel_build_id(u8 *bid, size_t max);

/* A symbol's name as perf prints it: demangled on the first call (on any
 * thread; the result is kept for the next calls). */
const char *symbol_name(const struct symbol *sym);

#endif
