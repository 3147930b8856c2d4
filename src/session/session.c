/*
 * session.c - threads, address maps and sample resolution, as perf 6.1's
 * machine.c/thread.c/maps.c rebuild them from the records.
 *
 * Threads: an open-addressing hash by tid (perf's machine__findnew_thread,
 * including machine__update_thread_pid for threads first seen by tid only).
 * A new thread's comm is ":<tid>" in its own buffer; its first COMM (or the
 * comm a FORK copies from its parent) overwrites that buffer in place, as
 * perf's comm__override() does, so comms handed out earlier show the new
 * name too.  Later COMMs give a new string.  Thread 0 is "swapper".
 *
 * Maps: the threads of a process share one struct maps; a forked process
 * shares its parent's map array copy-on-write (refcounted), so fork costs
 * O(1) and the first MMAP in either process copies the pointer array once.
 * Arrays are sorted by start and never overlap: a new map cuts back the
 * ones it covers, the part after it keeping its file offset (perf's
 * maps__fixup_overlappings); one whose end is not above its start (len
 * 0, or a start + len that wraps past 2^64) holds no address and is left
 * out.
 * Map objects never change once inserted, except the kernel map, which
 * perf resizes when its symbols load.
 *
 * Invariants: every record field is bounds-checked against the record's
 * size before use; lookups are hash probes and binary searches; thread,
 * map and dso objects live in the session arena until session_free().
 */
#include "session_int.h"
#include "../format/feature.h"
#include "../symbol/inline.h"
#include "../symbol/symbol_int.h"
#include "../symbol/unwind.h"
#include "../util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMM_BUF 16		/* TASK_COMM_LEN: room for an override */
#define SAMPLE_CPU_CACHE 64	/* cpus with a last-thread slot of their own */
#define PROT_EXEC_BIT 4
#define MAP_HUGETLB_FLAG 0x40000

struct map {
	u64 start, end;		/* [start, end) */
	u64 pgoff;		/* file offset of start */
	struct dso *dso;
	int identity;		/* map_ip(ip) is ip (anon, JIT, kernel) */
};

/* The copy-on-write payload of a maps: sorted, non-overlapping. */
struct map_array {
	struct map **v;
	u32 nr, alloc;
	u32 refs;		/* struct maps pointing here */
	struct map *last[2];	/* what array_find() found last, the latest
				   first (a call chain goes back and forth
				   between a few maps), or NULL: cleared by
				   every change */
	struct dso *base_dso[4];	/* dsos whose lowest map's start
					   unwind_find_map() found (base[]),
					   cleared by every change */
	u64 base[4];
	u32 next_base;			/* the entry to replace next */
};

/* The address space of one process (shared by its threads). */
struct maps {
	struct map_array *arr;
	struct maps *next_all;	/* every maps, for freeing */
	int unwind_ready;	/* a map's dso was seen to be an ELF file:
				   perf unwinds this process's stacks */
};

struct thread {
	s32 pid, tid, ppid;
	char *comm;		/* current comm */
	char *default_comm;	/* the ":<tid>" buffer (COMM_BUF bytes) */
	int comm_set;		/* a COMM or fork gave it a name */
	int dead;		/* an EXIT was seen */
	struct maps *maps;
};

struct session {
	struct pd_file *file;
	int unwind_arch;		/* 1: dwarf stacks of this file's arch are
					   unwound, -1: not, 0: not known yet */
	struct arena arena;
	struct dso_table dsos;
	struct thread **threads;	/* open addressing by tid */
	u64 thread_mask, nr_threads;
	struct thread *last;		/* last lookup (perf's last_match) */
	struct thread *cpu_last[SAMPLE_CPU_CACHE];	/* the last sample's thread
					   on each cpu (mod the size): samples
					   of several cpus interleave */
	struct maps *all_maps;
	struct maps kmaps;		/* kernel, modules, KSYMBOL maps */
	struct map_array karr;
	struct map *kernel_map;		/* the kernel's map, or NULL */
	struct dso *kernel_dso;		/* the first kernel entry of the
					   build-id table that is no module
					   (perf takes its first such dso for
					   the kernel map), or NULL */
	int kernel_loaded;		/* its symbols were loaded */
	int kernel_pending;		/* SESSION_DEFER_KERNEL deferred the
					   load (session_kernel_pending()) */
	int opts_vmlinux;		/* -k given: "[kernel.vmlinux]" */
	u32 comm_epoch;			/* comm strings rewritten in place */
	s32 removed_parent[2];		/* pid, tid of the erroneous parent the
					   last FORK removed */
	int removed_parent_set;		/* the last FORK removed one */
	void (*sync)(void *arg);	/* session_set_sync(), or NULL */
	void *sync_arg;
};

/* Waits until no symbol lookup of another thread is under way (see
 * session_set_sync()), before the session changes what one reads. */
static void sync_lookups(struct session *s)
{
	if (s->sync)
		s->sync(s->sync_arg);
}

/* dso_table_findnew(), saying whether the dso is new: until this returns,
 * no other thread can know of a new one. */
static struct dso *findnew_dso(struct session *s, const char *name, enum dso_kind kind,
			       int *is_new)
{
	u32 before = s->dsos.nr;
	struct dso *d = dso_table_findnew(&s->dsos, name, kind);

	*is_new = s->dsos.nr != before;
	return d;
}

/* Sets a dso's recorded build-id; one that other threads may be loading
 * changes only once they are done. */
static void set_build_id(struct session *s, struct dso *d, int is_new, const u8 *bid, u32 size)
{
	u32 n = size > DSO_BUILD_ID_MAX ? DSO_BUILD_ID_MAX : size;

	if (d->build_id_size == n && !memcmp(d->build_id, bid, n))
		return;
	if (!is_new)
		sync_lookups(s);
	dso_set_build_id(d, bid, size);
}

/* ---- map arrays -------------------------------------------------------- */

static struct map_array *array_new(void)
{
	struct map_array *a = xcalloc(1, sizeof(*a));

	a->refs = 1;
	return a;
}

static void array_put(struct map_array *a)
{
	if (a && --a->refs == 0) {
		free(a->v);
		free(a);
	}
}

static struct maps *maps_new(struct session *s)
{
	struct maps *m = arena_zalloc(&s->arena, sizeof(*m));

	m->arr = array_new();
	m->next_all = s->all_maps;
	s->all_maps = m;
	return m;
}

/* Makes m's array its own before a change (the copy of copy-on-write). */
static struct map_array *maps_own(struct maps *m)
{
	struct map_array *a = m->arr, *c;

	if (a->refs == 1)
		return a;
	c = array_new();
	c->alloc = c->nr = a->nr;
	if (a->nr) {
		c->v = xmalloc((unsigned long)a->nr * sizeof(*c->v));
		memcpy(c->v, a->v, a->nr * sizeof(*c->v));
	}
	a->refs--;
	m->arr = c;
	return c;
}

/* Index of the first map whose end is above addr. */
static u32 array_lower(const struct map_array *a, u64 addr)
{
	u32 lo = 0, hi = a->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (a->v[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Makes m the map array_find() found last; returns it. */
static inline struct map *array_found(struct map_array *a, struct map *m)
{
	a->last[1] = a->last[0];
	return a->last[0] = m;
}

/* array_find() past the last maps found: a binary search. */
static __attribute__((noinline)) struct map *array_search(struct map_array *a, u64 addr)
{
	u32 i = array_lower(a, addr);

	if (i < a->nr && a->v[i]->start <= addr && addr < a->v[i]->end)
		return array_found(a, a->v[i]);
	return NULL;
}

/* The map holding addr (maps do not overlap): most lookups hit the one
 * the last one found. */
static inline struct map *array_find(struct map_array *a, u64 addr)
{
	struct map *m = a->last[0];

	if (m && m->start <= addr && addr < m->end)
		return m;
	m = a->last[1];
	if (m && m->start <= addr && addr < m->end)
		return array_found(a, m);
	return array_search(a, addr);
}

static struct map *map_clone(struct session *s, const struct map *m)
{
	return arena_memdup(&s->arena, m, sizeof(*m));
}

/*
 * perf's maps__fixup_overlappings() + maps__insert().  A map that ends
 * where it starts or below (len 0, or start + len past 2^64) holds no
 * address: perf keeps it in its tree by start, where no lookup finds it
 * (an address at or above its start is at or above its end too), and an
 * empty one splits the map it falls in into two halves no lookup tells
 * apart.  Here it stays out of the array, whose binary search needs the
 * ends in order; its thread and dso are made as perf makes them.
 */
static void array_insert(struct session *s, struct map_array *a, struct map *map)
{
	u32 first, last, nr_new;
	struct map *before = NULL, *after = NULL;

	if (map->end <= map->start)
		return;
	first = last = array_lower(a, map->start);
	a->last[0] = a->last[1] = NULL;
	memset(a->base_dso, 0, sizeof(a->base_dso));

	while (last < a->nr && a->v[last]->start < map->end)
		last++;
	if (last > first) {
		struct map *f = a->v[first], *l = a->v[last - 1];

		if (f->start < map->start) {
			before = map_clone(s, f);
			before->end = map->start;
		}
		if (l->end > map->end) {
			after = map_clone(s, l);
			after->pgoff += map->end - l->start;
			after->start = map->end;
		}
	}
	nr_new = 1 + !!before + !!after;
	if (a->nr - (last - first) + nr_new > a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 16;
		while (a->alloc < a->nr - (last - first) + nr_new)
			a->alloc *= 2;
		a->v = xrealloc(a->v, (unsigned long)a->alloc * sizeof(*a->v));
	}
	memmove(&a->v[first + nr_new], &a->v[last], (a->nr - last) * sizeof(*a->v));
	a->nr = a->nr - (last - first) + nr_new;
	if (before)
		a->v[first++] = before;
	a->v[first++] = map;
	if (after)
		a->v[first] = after;
}

static void array_remove(struct map_array *a, const struct map *map)
{
	a->last[0] = a->last[1] = NULL;
	memset(a->base_dso, 0, sizeof(a->base_dso));
	for (u32 i = array_lower(a, map->start); i < a->nr; i++)
		if (a->v[i] == map) {
			memmove(&a->v[i], &a->v[i + 1], (a->nr - i - 1) * sizeof(*a->v));
			a->nr--;
			return;
		}
}

/* ---- threads ----------------------------------------------------------- */

static u64 tid_hash(s32 tid)
{
	u64 h = (u64)(u32)tid * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static struct thread **thread_slot(struct session *s, s32 tid)
{
	u64 i = tid_hash(tid) & s->thread_mask;

	while (s->threads[i] && s->threads[i]->tid != tid)
		i = (i + 1) & s->thread_mask;
	return &s->threads[i];
}

static void threads_grow(struct session *s)
{
	struct thread **old = s->threads;
	u64 n = s->thread_mask + 1;

	s->thread_mask = 2 * n - 1;
	s->threads = xcalloc_written(2 * n, sizeof(*s->threads));
	for (u64 i = 0; i < n; i++)
		if (old[i])
			*thread_slot(s, old[i]->tid) = old[i];
	free(old);
}

static void thread_remove(struct session *s, struct thread *t)
{
	u64 i = tid_hash(t->tid) & s->thread_mask;

	while (s->threads[i] && s->threads[i] != t)
		i = (i + 1) & s->thread_mask;
	if (!s->threads[i])
		return;
	s->threads[i] = NULL;
	s->nr_threads--;
	if (s->last == t)
		s->last = NULL;
	for (u32 c = 0; c < SAMPLE_CPU_CACHE; c++)
		if (s->cpu_last[c] == t)
			s->cpu_last[c] = NULL;
	for (u64 j = (i + 1) & s->thread_mask; s->threads[j]; j = (j + 1) & s->thread_mask) {
		struct thread *m = s->threads[j];

		s->threads[j] = NULL;
		*thread_slot(s, m->tid) = m;
	}
}

static struct thread *thread_lookup(struct session *s, s32 pid, s32 tid, int create);

/* perf's machine__update_thread_pid(). */
static void thread_update_pid(struct session *s, struct thread *t, s32 pid)
{
	struct thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = thread_lookup(s, pid, pid, 1);
	if (!leader->maps)
		leader->maps = maps_new(s);
	t->maps = leader->maps;
}

/* perf's machine__findnew_thread() / machine__find_thread(). */
static struct thread *thread_lookup(struct session *s, s32 pid, s32 tid, int create)
{
	struct thread **slot, *t;

	if (s->last && s->last->tid == tid) {
		thread_update_pid(s, s->last, pid);
		return s->last;
	}
	slot = thread_slot(s, tid);
	t = *slot;
	if (t) {
		s->last = t;
		thread_update_pid(s, t, pid);
		return t;
	}
	if (!create)
		return NULL;
	t = arena_zalloc(&s->arena, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->default_comm = arena_alloc(&s->arena, COMM_BUF);
	snprintf(t->default_comm, COMM_BUF, ":%d", tid);
	t->comm = t->default_comm;
	*slot = t;
	s->last = t;
	if (++s->nr_threads * 2 > s->thread_mask + 1)
		threads_grow(s);
	if (pid == tid || pid == -1) {
		t->maps = maps_new(s);
	} else {
		struct thread *leader = thread_lookup(s, pid, pid, 1);

		if (!leader->maps)
			leader->maps = maps_new(s);
		t->maps = leader->maps;
		s->last = t;
	}
	return t;
}

/* perf's thread__set_comm(): the first name overrides ":<tid>" in place. */
static void thread_set_comm(struct session *s, struct thread *t, const char *comm, size_t max)
{
	size_t len = strnlen(comm, max);

	if (!t->comm_set && t->comm == t->default_comm && len < COMM_BUF) {
		memcpy(t->default_comm, comm, len);
		t->default_comm[len] = 0;
		s->comm_epoch++;
	} else {
		t->comm = arena_strndup(&s->arena, comm, len);
	}
	t->comm_set = 1;
}

/* ---- record helpers ---------------------------------------------------- */

static u64 rec64(const struct pd_header *h, u32 off)
{
	return off + 8 <= h->size ? pd_get64((const u8 *)h + off) : 0;
}

static u32 rec32(const struct pd_header *h, u32 off)
{
	return off + 4 <= h->size ? pd_get32((const u8 *)h + off) : 0;
}

/* The NUL-terminated string at off, or NULL when the record has none. */
static const char *rec_str(const struct pd_header *h, u32 off)
{
	const char *p = (const char *)h + off;

	if (off >= h->size || !memchr(p, 0, h->size - off))
		return NULL;
	return p;
}

/* ---- DSOs -------------------------------------------------------------- */

/* Module dso lookup for the kallsyms split: by short name among kmaps. */
static struct dso *find_module(void *ctx, const char *short_name, u64 *map_start)
{
	struct session *s = ctx;

	for (u32 i = 0; i < s->karr.nr; i++) {
		struct map *m = s->karr.v[i];

		if (m->dso->kind == DSO_KIND_MODULE && !strcmp(m->dso->short_name, short_name)) {
			*map_start = m->start;
			return m->dso;
		}
	}
	return NULL;
}

/* The "[name]" perf gives a module path ("/lib/.../ext4.ko.xz" -> "[ext4]",
 * '-' turned into '_'). */
static const char *module_short_name(struct session *s, const char *path)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t n;

	if (path[0] == '[')
		return arena_strdup(&s->arena, path);
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n > sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = 0;
	return arena_strdup(&s->arena, buf);
}

static enum dso_kind user_dso_kind(const char *name)
{
	if (!strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") || !strcmp(name, "[vdsox32]"))
		return DSO_KIND_VDSO;
	if (!strncmp(name, "/tmp/perf-", 10))
		return DSO_KIND_JIT;
	return DSO_KIND_USER;
}

/* perf's is_kernel_module() for the name of a kernel-space dso: "[name]"
 * is a module unless it is the kernel's ("[kernel.kallsyms]..."); a path
 * is one when its base name ends in ".ko", before a ".gz" or ".xz"
 * suffix (kmod_path__parse()); perf 6.1 knows no ".zst", so it takes
 * "x.ko.zst" for a kernel. */
static int kernel_module_name(const char *name)
{
	const char *base = strrchr(name, '/'), *ext;

	base = base ? base + 1 : name;
	if (base[0] == '[')
		return strncmp(base, "[kernel.kallsyms]", 17) != 0;
	ext = strrchr(base, '.');
	if (!ext)
		return 0;
	if (!strcmp(ext, ".gz") || !strcmp(ext, ".xz")) {
		if (ext - base <= 3)
			return 0;
		ext -= 3;	/* where ".ko" would start */
	}
	return ext > base && !strncmp(ext, ".ko", 3);
}

/* BUILD_ID feature: {header(8), pid(4), build_id[20], size(1), pad(3),
 * filename at 36}; records the ids
 * perf's perf_session__read_build_ids() would. */
static void read_build_ids(struct session *s)
{
	const u8 *p = s->file->feat_data[PD_FEAT_BUILD_ID];
	u64 size = s->file->feat_size[PD_FEAT_BUILD_ID], off = 0;

	if (!p)
		return;
	while (off + 8 <= size) {
		u16 misc = pd_get16(p + off + 4), len = pd_get16(p + off + 6);
		u8 cpumode = misc & PD_MISC_CPUMODE_MASK;
		const char *name;
		size_t bid_size = 20;
		struct dso *dso;
		enum dso_kind kind;

		if (len < 36 || len > size - off)
			break;
		name = (const char *)p + off + 36;
		if (!memchr(name, 0, len - 36))
			goto next;
		if (misc & PD_MISC_BUILD_ID_SIZE)
			bid_size = p[off + 32] <= 20 ? p[off + 32] : 20;
		if (cpumode == PD_MISC_KERNEL)
			kind = kernel_module_name(name) ? DSO_KIND_MODULE : DSO_KIND_KERNEL;
		else if (cpumode == PD_MISC_USER)
			kind = user_dso_kind(name);
		else
			goto next;
		dso = dso_table_findnew(&s->dsos, name, kind);
		if (kind == DSO_KIND_KERNEL && !s->kernel_dso && dso->kind == DSO_KIND_KERNEL)
			s->kernel_dso = dso;
		if (kind == DSO_KIND_MODULE)
			dso->short_name = module_short_name(s, name);
		dso_set_build_id(dso, p + off + 12, bid_size);
next:
		off += len;
	}
}

/* ---- record handlers --------------------------------------------------- */

/* perf's machine__process_kernel_mmap_event() for the host.  The kernel's
 * dso is the build-id table's (its name as there: a vmlinux path when perf
 * record used one), else "[kernel.kallsyms]"; one whose name has
 * "vmlinux" in it shows as "[kernel.vmlinux]". */
static void kernel_mmap(struct session *s, const char *name, u64 start, u64 len, u64 pgoff,
			const u8 *bid, u32 bid_size)
{
	static const char kname[] = "[kernel.kallsyms]";
	u64 end = start + len;
	struct map *m;

	if (!strncmp(name, kname, sizeof(kname) - 2)) {
		struct dso *k = s->kernel_dso;

		if (!k)
			k = s->kernel_dso = dso_table_findnew(&s->dsos, kname, DSO_KIND_KERNEL);
		if (s->opts_vmlinux || strstr(k->long_name, "vmlinux"))
			k->short_name = "[kernel.vmlinux]";
		if (start == 0 && end == 0)
			end = ~0ULL;
		if (s->kernel_map)
			array_remove(&s->karr, s->kernel_map);
		m = arena_zalloc(&s->arena, sizeof(*m));
		m->start = start;
		m->end = end;
		m->dso = k;
		m->identity = 1;
		s->kernel_map = m;
		array_insert(s, &s->karr, m);
		if (bid_size)
			dso_set_build_id(k, bid, bid_size);
		if (pgoff && strlen(name) > sizeof(kname) - 1) {
			s->dsos.ref_reloc_sym = arena_strdup(&s->arena, name + sizeof(kname) - 1);
			s->dsos.ref_reloc_addr = pgoff;
		}
	} else if (name[0] == '/' || name[0] == '[') {
		int is_new;
		struct dso *d = findnew_dso(s, name, DSO_KIND_MODULE, &is_new);

		if (d->short_name[0] != '[')
			d->short_name = module_short_name(s, name);
		m = arena_zalloc(&s->arena, sizeof(*m));
		m->start = start;
		m->end = end;
		m->dso = d;
		if (bid_size)
			set_build_id(s, d, is_new, bid, bid_size);
		array_insert(s, &s->karr, m);
	}
}

static int is_anon(const char *name, u32 flags)
{
	return (flags & MAP_HUGETLB_FLAG) || !strcmp(name, "//anon") ||
	       !strncmp(name, "/dev/zero", 9) || !strncmp(name, "/anon_hugepage", 14);
}

static int is_no_dso(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* perf's map__new() + thread__insert_map(). */
static void user_mmap(struct session *s, s32 pid, s32 tid, const char *name, u64 start, u64 len,
		      u64 pgoff, u32 prot, u32 flags, const u8 *bid, u32 bid_size)
{
	struct thread *t = thread_lookup(s, pid, tid, 1);
	struct map *m = arena_zalloc(&s->arena, sizeof(*m));
	int anon = is_anon(name, flags), no_dso = is_no_dso(name);
	char buf[64];
	enum dso_kind kind = user_dso_kind(name);
	int is_new;

	if ((anon || no_dso) && t->pid != 0 && (prot & PROT_EXEC_BIT)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", t->pid);
		name = buf;
		kind = DSO_KIND_JIT;
	} else if (anon || no_dso) {
		kind = DSO_KIND_NOSYMS;
	}
	if (kind == DSO_KIND_VDSO) {
		name = "[vdso]";
		pgoff = 0;
	}
	m->start = start;
	m->end = start + len;
	m->pgoff = pgoff;
	m->dso = findnew_dso(s, name, kind, &is_new);
	m->identity = anon || no_dso;
	if (bid_size)
		set_build_id(s, m->dso, is_new, bid, bid_size);
	if (!t->maps)
		t->maps = maps_new(s);
	array_insert(s, maps_own(t->maps), m);
}

static void do_mmap(struct session *s, const struct pd_header *h, int v2)
{
	u32 name_off = v2 ? 72 : 40;
	const char *name = rec_str(h, name_off);
	u8 cpumode = h->misc & PD_MISC_CPUMODE_MASK;
	u64 start = rec64(h, 16), len = rec64(h, 24), pgoff = rec64(h, 32);
	u32 prot = PROT_EXEC_BIT, flags = 0, bid_size = 0;
	const u8 *bid = NULL;

	if (!name)
		return;
	if (v2) {
		prot = rec32(h, 64);
		flags = rec32(h, 68);
		if (h->misc & PD_MISC_EXACT_IP) {	/* MMAP_BUILD_ID */
			bid = (const u8 *)h + 44;
			bid_size = ((const u8 *)h)[40];
			if (bid_size > 20)
				bid_size = 20;
		}
	} else if (h->misc & PD_MISC_MMAP_DATA) {
		prot = 0;
	}
	if (cpumode == PD_MISC_KERNEL) {
		kernel_mmap(s, name, start, len, pgoff, bid, bid_size);
		return;
	}
	if (cpumode == PD_MISC_GUEST_KERNEL)
		return;		/* guest machines are not modelled */
	user_mmap(s, (s32)rec32(h, 8), (s32)rec32(h, 12), name, start, len, pgoff, prot, flags,
		  bid, bid_size);
}

/* perf's machine__process_fork_event(). */
static void do_fork(struct session *s, const struct pd_header *h)
{
	s32 pid = (s32)rec32(h, 8), ppid = (s32)rec32(h, 12);
	s32 tid = (s32)rec32(h, 16), ptid = (s32)rec32(h, 20);
	struct thread *thread = thread_lookup(s, pid, tid, 0);
	struct thread *parent = thread_lookup(s, ppid, ptid, 1);

	if (parent->pid != ppid) {
		s->removed_parent[0] = parent->pid;
		s->removed_parent[1] = parent->tid;
		s->removed_parent_set = 1;
		thread_remove(s, parent);
		parent = thread_lookup(s, ppid, ptid, 1);
	}
	if (thread)
		thread_remove(s, thread);
	thread = thread_lookup(s, pid, tid, 1);
	if (parent->comm_set)
		thread_set_comm(s, thread, parent->comm, strlen(parent->comm));
	thread->ppid = parent->tid;
	if (thread->pid == parent->pid || thread->maps == parent->maps)
		return;
	if (h->misc & PD_MISC_MMAP_DATA)	/* FORK_EXEC: synthesized, no clone */
		return;
	/* a new process: share the parent's maps copy-on-write */
	if (thread->maps->arr->nr == 0 && parent->maps) {
		array_put(thread->maps->arr);
		thread->maps->arr = parent->maps->arr;
		thread->maps->arr->refs++;
	} else if (parent->maps) {
		struct map_array *a = parent->maps->arr, *own = maps_own(thread->maps);

		for (u32 i = 0; i < a->nr; i++)
			array_insert(s, own, map_clone(s, a->v[i]));
	}
}

static void do_ksymbol(struct session *s, const struct pd_header *h)
{
	u64 addr = rec64(h, 8);
	u32 len = rec32(h, 16);
	u16 flags = h->size >= 24 ? pd_get16((const u8 *)h + 22) : 0;
	const char *name = rec_str(h, 24);
	struct map *m;
	int is_new = 0;

	if (!name)
		return;
	m = array_find(&s->karr, addr);
	if (flags & 1) {	/* UNREGISTER */
		if (m && m != s->kernel_map)
			array_remove(&s->karr, m);
		return;
	}
	if (!m) {
		int image = !strncmp(name, "bpf_trampoline_", 15) || !strncmp(name, "bpf_dispatcher_", 15);
		struct dso *d = findnew_dso(s, image ? "" : name, DSO_KIND_KSYMBOL, &is_new);

		if (!is_new)
			sync_lookups(s);
		m = arena_zalloc(&s->arena, sizeof(*m));
		m->start = addr;
		m->end = addr + len;
		m->dso = d;
		d->loaded = 1;
		array_insert(s, &s->karr, m);
	} else {
		sync_lookups(s);
	}
	/* perf adds the symbol at map_ip(map->start), whatever map it hit */
	dso_add_symbol(&s->dsos, m->dso, m->identity ? m->start : m->pgoff, len, name);
}

int session_event(struct session *s, const struct pd_event *ev)
{
	const struct pd_header *h = ev->hdr;

	switch (h->type) {
	case PD_REC_MMAP:
		if (h->size >= 41)
			do_mmap(s, h, 0);
		break;
	case PD_REC_MMAP2:
		if (h->size >= 73)
			do_mmap(s, h, 1);
		break;
	case PD_REC_COMM: {
		const char *comm = rec_str(h, 16);

		if (comm && h->size >= 17)
			thread_set_comm(s, thread_lookup(s, (s32)rec32(h, 8), (s32)rec32(h, 12), 1),
					comm, h->size - 16);
		break;
	}
	case PD_REC_FORK:
		s->removed_parent_set = 0;
		if (h->size >= 24)
			do_fork(s, h);
		break;
	case PD_REC_EXIT:
		if (h->size >= 24) {
			struct thread *t = thread_lookup(s, (s32)rec32(h, 8), (s32)rec32(h, 16), 0);

			if (t)
				t->dead = 1;
		}
		break;
	case PD_REC_KSYMBOL:
		if (h->size >= 25)
			do_ksymbol(s, h);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- resolution -------------------------------------------------------- */

/* perf's map__load() of the kernel map: load kallsyms, then shrink the map
 * to its symbols (map__fixup_start/end).  With try, returns 0 and does
 * nothing when the loader thread is loading something (the table is
 * its), else 1. */
static int kernel_map_load(struct session *s, int try)
{
	struct map *m = s->kernel_map;

	/* the kernel's load also fills the modules' symbols; while it was
	   pending the other thread left them alone */
	if (!s->kernel_pending)
		sync_lookups(s);
	if (!try)
		dso_load_exclusive(&s->dsos, m->dso);
	else if (!dso_load_try(&s->dsos, m->dso))
		return 0;
	s->kernel_loaded = 1;
	if (m->dso->kernel_range_valid) {
		array_remove(&s->karr, m);
		m->start = m->dso->kernel_start;
		m->end = m->dso->kernel_end;
		array_insert(s, &s->karr, m);
	}
	__atomic_store_n(&s->kernel_pending, 0, __ATOMIC_RELEASE);
	return 1;
}

/*
 * The kernel map m was hit at addr before its load: loads it, unless
 * deferring.  perf loads on the first such sample, which keeps the map
 * whatever the load makes of it; later ones find the shrunk map.  A
 * deferred load waits for kallsyms to be read and for the loader thread
 * to be between loads (a big library takes tens of ms, which this thread
 * would wait, and the other thread with it).  Returns the map of the
 * sample.
 */
static struct map *kernel_map_hit(struct session *s, struct map *m, u64 addr, int flags,
				  struct addr_location *al)
{
	int first = !s->kernel_pending;

	if (!(flags & SESSION_DEFER_KERNEL)) {
		kernel_map_load(s, 0);
		return first ? m : array_find(&s->karr, addr);
	}
	if (kallsyms_prefetch_done(&s->dsos) && kernel_map_load(s, 1))
		return first ? m : array_find(&s->karr, addr);
	if (first)
		__atomic_store_n(&s->kernel_pending, 1, __ATOMIC_RELEASE);
	else
		al->kernel_unsure = 1;
	return m;
}

int session_fork_removed_parent(const struct session *s, s32 *pid, s32 *tid)
{
	*pid = s->removed_parent[0];
	*tid = s->removed_parent[1];
	return s->removed_parent_set;
}

int session_kernel_loaded(const struct session *s)
{
	return s->kernel_loaded;
}

int session_kernel_pending(const struct session *s)
{
	return __atomic_load_n(&s->kernel_pending, __ATOMIC_ACQUIRE);
}

int session_kernel_outside(const struct dso *dso, u64 addr)
{
	return dso->kernel_range_valid && (addr < dso->kernel_start || addr >= dso->kernel_end);
}

void session_load_kernel(struct session *s)
{
	if (s->kernel_pending)
		kernel_map_load(s, 0);
}

void session_load_async(struct session *s, struct dso *dso)
{
	dso_load_async(&s->dsos, dso);
}

void session_loader_wait(struct session *s)
{
	dso_loader_wait(&s->dsos);
}

int session_dso_is_kernel(const struct dso *dso)
{
	return dso && (dso->kind == DSO_KIND_KERNEL || dso->kind == DSO_KIND_MODULE);
}

/* perf's thread__find_map() then map__find_symbol() (not with
 * SESSION_NO_SYMBOL; the kernel map still loads, since that sets its
 * extent).  Inlined: once per sample. */
static inline __attribute__((always_inline)) void
find_addr(struct session *s, struct thread *t, u8 cpumode, u64 addr, int flags,
	  struct addr_location *al)
{
	struct map *m = NULL;

	al->map = NULL;
	al->dso = NULL;
	al->sym = NULL;
	al->addr = addr;
	al->cpumode = cpumode;
	al->kernel_unsure = 0;
	if (cpumode == PD_MISC_KERNEL) {
		al->level = 'k';
		m = array_find(&s->karr, addr);
		if (m && m == s->kernel_map && !s->kernel_loaded)
			m = kernel_map_hit(s, m, addr, flags, al);
	} else if (cpumode == PD_MISC_USER) {
		al->level = '.';
		if (t->maps)
			m = array_find(t->maps->arr, addr);
	} else {
		al->level = 'H';
		return;
	}
	if (!m)
		return;
	al->map = m;
	al->dso = m->dso;
	al->addr = m->identity ? addr : addr - m->start + m->pgoff;
	if (!(flags & SESSION_NO_SYMBOL))
		al->sym = dso_find_symbol(&s->dsos, m->dso, al->addr);
}

/* What unwind_user() asks of the session: the sample thread's maps. */
struct unwind_walk {
	struct session *s;
	struct thread *t;
};

static int unwind_find_map(void *arg, u64 pc, struct dso **dso, u64 *dso_addr, u64 *base)
{
	struct unwind_walk *w = arg;
	struct addr_location al;
	struct map_array *a;

	find_addr(w->s, w->t, PD_MISC_USER, pc, SESSION_NO_SYMBOL, &al);
	if (!al.map)
		return -1;
	*dso = al.dso;
	*dso_addr = al.addr;
	/* perf's base: the lowest map of the dso, maps left from before an
	 * exec included */
	a = w->t->maps->arr;
	for (u32 c = 0; c < 4; c++)
		if (a->base_dso[c] == al.dso) {
			*base = a->base[c];
			return 0;
		}
	*base = al.map->start;
	for (u32 i = 0; i < a->nr && a->v[i]->start < *base; i++)
		if (a->v[i]->dso == al.dso) {
			*base = a->v[i]->start;
			break;
		}
	a->base_dso[a->next_base] = al.dso;
	a->base[a->next_base] = *base;
	a->next_base = (a->next_base + 1) % 4;
	return 0;
}

int session_dwarf_chain(struct session *s, const struct pd_attr *attr,
			const struct addr_location *sample_al, struct pd_sample *sample,
			int max_stack, struct dwarf_chain *buf)
{
	const u64 need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	struct unwind_walk w = { s, sample_al->thread };
	struct unwind_input in = {
		.regs_mask = attr->sample_regs_user,
		.regs = sample->regs_user,
		.stack = sample->stack_user,
		.stack_size = sample->stack_user_dyn_size,
	};
	u64 nr = sample->callchain_nr, *user;
	int n, kept = 0;

	if ((attr->sample_type & need) != need || !w.t || !w.t->maps || !sample->regs_user ||
	    !sample->stack_user_dyn_size || max_stack <= 0 || nr > 1u << 24)
		return 0;
	if (max_stack > UNWIND_MAX_FRAMES)
		max_stack = UNWIND_MAX_FRAMES;
	if (!s->unwind_arch) {
		char arch[32];

		/* perf unwinds x86_64 stacks here, and any when the file
		 * names no architecture */
		s->unwind_arch = !pd_feature_arch(s->file, arch, sizeof(arch)) ||
				 !strcmp(arch, "x86_64") ? 1 : -1;
	}
	if (s->unwind_arch < 0 || sample->regs_user_abi != 2)	/* PERF_SAMPLE_REGS_ABI_64 */
		return 0;
	/* perf sets a process up for unwinding at the first map whose dso
	 * type it can read, and never unwinds before */
	for (u32 i = 0; !w.t->maps->unwind_ready && i < w.t->maps->arr->nr; i++)
		w.t->maps->unwind_ready = unwind_dso_is_elf(&s->dsos, w.t->maps->arr->v[i]->dso);
	if (!w.t->maps->unwind_ready)
		return 0;
	if (nr + 1 + (u64)max_stack > buf->alloc) {
		buf->alloc = (u32)(nr + 1 + (u64)max_stack);
		buf->v = xrealloc(buf->v, buf->alloc * sizeof(u64));
	}
	user = buf->v + nr + 1;
	n = unwind_user(&s->dsos, &in, unwind_find_map, &w, user, max_stack);
	for (int i = 0; i < n; i++)
		if (user[i])
			user[kept++] = user[i];
	if (!kept)
		return 0;
	memcpy(buf->v, sample->callchain, nr * 8);
	buf->v[nr] = PD_CONTEXT_USER;
	sample->callchain = (const u8 *)buf->v;
	sample->callchain_nr = nr + 1 + kept;
	sample->callchain_addrs_from = nr + 1;
	return 1;
}

int session_resolve(struct session *s, const struct pd_event *ev,
		    const struct pd_sample *sample, struct addr_location *al)
{
	return session_resolve_flags(s, ev, sample, 0, al);
}

int session_resolve_flags(struct session *s, const struct pd_event *ev,
			  const struct pd_sample *sample, int flags,
			  struct addr_location *al)
{
	struct thread *t;
	s32 pid = -1, tid = -1;

	if (sample->sample_type & PD_SAMPLE_TID) {
		pid = (s32)sample->pid;
		tid = (s32)sample->tid;
	}
	if (sample->sample_type & PD_SAMPLE_CPU) {
		struct thread **last = &s->cpu_last[sample->cpu % SAMPLE_CPU_CACHE];

		t = *last;
		if (t && t->tid == tid) {
			if (t->pid == -1)	/* else thread_update_pid() does nothing */
				thread_update_pid(s, t, pid);
		} else
			*last = t = thread_lookup(s, pid, tid, 1);
	} else {
		t = thread_lookup(s, pid, tid, 1);
	}
	al->thread = t;
	al->comm = t->comm;
	al->comm_epoch = s->comm_epoch;
	al->pid = t->pid;
	al->tid = t->tid;
	find_addr(s, t, ev->hdr->misc & PD_MISC_CPUMODE_MASK, sample->ip, flags, al);
	return 0;
}

int session_resolve_addr(struct session *s, const struct addr_location *sample_al,
			 u64 time, u8 cpumode, u64 addr, struct addr_location *al)
{
	return session_resolve_addr_flags(s, sample_al, time, cpumode, addr, 0, al);
}

int session_resolve_addr_flags(struct session *s, const struct addr_location *sample_al,
			       u64 time, u8 cpumode, u64 addr, int flags,
			       struct addr_location *al)
{
	(void)time;
	al->thread = sample_al->thread;
	al->comm = sample_al->comm;
	al->comm_epoch = sample_al->comm_epoch;
	al->pid = sample_al->pid;
	al->tid = sample_al->tid;
	find_addr(s, sample_al->thread, cpumode, addr, flags, al);
	return 0;
}

/* ---- setup and names --------------------------------------------------- */

struct session *session_new(struct pd_file *f, const struct session_opts *opts)
{
	struct session *s = xcalloc(1, sizeof(*s));
	struct symbol_opts so = { 0 };
	struct thread *idle;

	s->file = f;
	arena_init(&s->arena, 0);
	if (opts) {
		so.vmlinux = opts->vmlinux;
		so.symfs = opts->symfs;
		so.no_kallsyms = opts->no_kallsyms;
		so.minidebuginfo = opts->minidebuginfo;
		so.verbose_demangle = opts->verbose_demangle;
		s->opts_vmlinux = opts->vmlinux != NULL;
	}
	dso_table_init(&s->dsos, &s->arena, &so);
	s->dsos.find_module = find_module;
	s->dsos.module_ctx = s;
	s->thread_mask = 1023;
	s->threads = xcalloc(s->thread_mask + 1, sizeof(*s->threads));
	s->kmaps.arr = &s->karr;
	s->karr.refs = 1;
	read_build_ids(s);
	/* the kernel's symbols are wanted early: read them meanwhile */
	kallsyms_prefetch(&s->dsos, s->kernel_dso);
	/* perf_session__register_idle_thread() */
	idle = thread_lookup(s, 0, 0, 1);
	thread_set_comm(s, idle, "swapper", 8);
	return s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	for (struct maps *m = s->all_maps; m; m = m->next_all)
		array_put(m->arr);
	free(s->karr.v);
	free(s->threads);
	dso_table_exit(&s->dsos);
	arena_free(&s->arena);
	free(s);
}

const char *dso_short_name(const struct dso *dso)
{
	return dso ? dso->short_name : "[unknown]";
}

u32 dso_serial(const struct dso *dso)
{
	return dso ? dso->serial : 0;
}

const char *dso_long_name(const struct dso *dso)
{
	return dso ? dso->long_name : "[unknown]";
}

const char *dso_loaded_name(const struct dso *dso)
{
	if (dso && dso->kind == DSO_KIND_KERNEL && dso->kallsyms_named)
		return "[kernel.kallsyms]";
	return dso_long_name(dso);
}

u64 symbol_start(const struct symbol *sym)
{
	return sym->start;
}

const char *thread_comm_now(const struct thread *t)
{
	return t->comm;
}

s32 thread_pid(const struct thread *t)
{
	return t->pid;
}

s32 thread_tid(const struct thread *t)
{
	return t->tid;
}

u64 map_start(const struct map *m)
{
	return m->start;
}

u64 map_end(const struct map *m)
{
	return m->end;
}

u64 symbol_end(const struct symbol *sym)
{
	return sym->end;
}

int symbol_inlined(const struct symbol *sym)
{
	return sym->inlined;
}

u32 symbol_inline_id(const struct symbol *sym)
{
	return sym->inline_id;
}

u32 session_inlines(struct session *s, const struct addr_location *al,
		    const struct symbol *const **syms)
{
	if (!al->map || !al->sym || al->cpumode == PD_MISC_KERNEL ||
	    al->cpumode == PD_MISC_GUEST_KERNEL)
		return 0;
	return inline_lookup(&s->dsos, al->dso, al->sym, al->addr, syms);
}

void session_set_sync(struct session *s, void (*sync)(void *arg), void *arg)
{
	s->sync = sync;
	s->sync_arg = arg;
}

const struct symbol *session_find_symbol(struct session *s, struct dso *dso, u64 addr)
{
	return dso_find_symbol(&s->dsos, dso, addr);
}

const char *session_kernel_symbol(struct session *s, const struct addr_location *sample_al,
				  u64 time, u64 *addr)
{
	struct addr_location node;
	const struct symbol *sym;

	if (session_resolve_addr_flags(s, sample_al, time, PD_MISC_KERNEL, *addr,
				       SESSION_NO_SYMBOL, &node) || !node.map || !node.dso)
		return NULL;
	sym = session_find_symbol(s, node.dso, node.addr);
	if (!sym)
		return NULL;
	*addr = *addr - node.addr + symbol_start(sym);
	return symbol_name(sym);
}

const struct symbol *session_probe_find(struct session *s, struct dso *dso, u64 addr,
					const struct sym_probe *p)
{
	return dso_probe_find(&s->dsos, dso, addr, p);
}
