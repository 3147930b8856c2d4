/*
 * dso.c - the table of DSOs, their names, perf's symbol fixups and lookups.
 *
 * A dso is created by name when a map first refers to it and loaded (its
 * symbols read) only when a lookup needs them.  ELF and JIT loaders replay
 * perf's tree operations on a symtree (symtree.c); kallsyms builds a
 * symbol_list, and symbol_list_finish() applies perf 6.1's rules:
 *  - symbols__fixup_end(): a zero-size symbol ends where the next one
 *    starts (kallsyms: a kernel symbol followed by a module one ends at the
 *    next page after its start + 4096); the last one ends at the page after
 *    the one its start is in;
 *  - symbols__fixup_duplicate(): of symbols with the same start only one is
 *    kept, chosen as choose_best_symbol() does (non-zero size, non-weak,
 *    global, fewer leading underscores, longer name, else the first).
 * Lookups: the range the dso's last lookup hit, else its bucket index and
 * a binary search among the few ranges of one bucket (symtree.c builds
 * both).  No allocation per lookup.
 * Invariants: dso->syms sorted by start; dso->ranges disjoint and sorted.
 */
#include "symbol_int.h"
#include "inline.h"
#include "unwind.h"
#include "../util/error.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static u32 name_hash(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

void dso_table_init(struct dso_table *t, struct arena *arena, const struct symbol_opts *opts)
{
	memset(t, 0, sizeof(*t));
	t->arena = arena;
	arena_init(&t->sym_arena, 0);
	arena_init(&t->kallsyms_arena, 0);
	arena_init(&t->name_arena, 64 << 10);
	pthread_mutex_init(&t->load_lock, NULL);
	pthread_mutex_init(&t->demangle_lock, NULL);
	if (opts)
		t->opts = *opts;
	t->mask = 255;
	t->buckets = xcalloc(t->mask + 1, sizeof(*t->buckets));
}

void dso_table_exit(struct dso_table *t)
{
	dso_loader_stop(t);
	kallsyms_prefetch_stop(t);
	for (u32 i = 0; t->buckets && i <= t->mask; i++)
		for (struct dso *d = t->buckets[i]; d; d = d->hash_next) {
			dso_forget_symbols(d);
			unwind_table_free(d->unwind);
			inline_info_free(d->inlines);
			free(d->extra);
		}
	free(t->buckets);
	t->buckets = NULL;
	inline_names_free(t->inline_names);
	t->inline_names = NULL;
	for (u32 i = 0; i < t->nr_retired; i++)
		free(t->retired[i]);
	free(t->retired);
	t->retired = NULL;
	t->nr_retired = 0;
	arena_free(&t->sym_arena);
	arena_free(&t->kallsyms_arena);
	arena_free(&t->name_arena);
	pthread_mutex_destroy(&t->load_lock);
	pthread_mutex_destroy(&t->demangle_lock);
}

struct dso *dso_table_find(struct dso_table *t, const char *long_name)
{
	struct dso *d = t->buckets[name_hash(long_name) & t->mask];

	while (d && strcmp(d->long_name, long_name))
		d = d->hash_next;
	return d;
}

static void table_grow(struct dso_table *t)
{
	u32 size = (t->mask + 1) * 2;
	struct dso **nb = xcalloc_written(size, sizeof(*nb));

	for (u32 i = 0; i <= t->mask; i++) {
		struct dso *d = t->buckets[i], *next;

		for (; d; d = next) {
			u32 h = name_hash(d->long_name) & (size - 1);

			next = d->hash_next;
			d->hash_next = nb[h];
			nb[h] = d;
		}
	}
	free(t->buckets);
	t->buckets = nb;
	t->mask = size - 1;
}

/* perf's dso__set_basename(): "[JIT] tid N" for perf maps, else the part
 * after the last '/'. */
static const char *short_name_of(struct arena *a, const char *long_name)
{
	const char *slash;
	int pid;
	char buf[48];

	if (sscanf(long_name, "/tmp/perf-%d.map", &pid) == 1) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", pid);
		return arena_strdup(a, buf);
	}
	slash = strrchr(long_name, '/');
	return slash && slash[1] ? slash + 1 : long_name;
}

struct dso *dso_table_findnew(struct dso_table *t, const char *long_name, enum dso_kind kind)
{
	struct dso *d = dso_table_find(t, long_name);
	u32 h;

	if (d)
		return d;
	d = arena_zalloc(t->arena, sizeof(*d));
	d->long_name = arena_strdup(t->arena, long_name);
	d->short_name = short_name_of(t->arena, d->long_name);
	d->kind = kind;
	d->serial = t->nr + 1;
	h = name_hash(long_name) & t->mask;
	d->hash_next = t->buckets[h];
	t->buckets[h] = d;
	if (++t->nr > t->mask)
		table_grow(t);
	return d;
}

void dso_set_build_id(struct dso *dso, const u8 *bid, size_t size)
{
	if (size > DSO_BUILD_ID_MAX)
		size = DSO_BUILD_ID_MAX;
	memcpy(dso->build_id, bid, size);
	dso->build_id_size = (u8)size;
}

void dso_add_symbol(struct dso_table *t, struct dso *dso, u64 start, u64 len, const char *name)
{
	struct symbol *s;

	if (dso->nr_extra == dso->alloc_extra) {
		dso->alloc_extra = dso->alloc_extra ? 2 * dso->alloc_extra : 8;
		dso->extra = xrealloc(dso->extra, dso->alloc_extra * sizeof(*dso->extra));
	}
	s = &dso->extra[dso->nr_extra++];
	s->start = start;
	s->end = start + len;
	s->name = arena_strdup(&t->sym_arena, name);
	s->binding = STB_LOCAL;
	s->type = STT_NOTYPE;
	s->mangled = 0;
	s->inlined = 0;
	s->inline_id = 0;
	if (dso->loaded) {
		/* perf inserts into the loaded tree: reload with it merged,
		   keeping the old symbols readable for those who hold them */
		t->retired = xrealloc(t->retired, (t->nr_retired + 1) * sizeof(*t->retired));
		t->retired[t->nr_retired++] = dso->syms;
		dso->syms = NULL;
		dso->loaded = 0;
		dso->ready = 0;
		dso->load_requested = 0;
		dso_forget_symbols(dso);
	}
}

void dso_forget_symbols(struct dso *dso)
{
	free(dso->syms);
	free(dso->ranges);
	free(dso->bucket);
	free(dso->clusters);
	dso->syms = NULL;
	dso->ranges = NULL;
	dso->bucket = NULL;
	dso->clusters = NULL;
	dso->nr_syms = dso->nr_ranges = dso->nr_clusters = dso->last_range = 0;
}

/* ---- symbol lists and perf's fixups ----------------------------------- */

void symbol_list_add(struct symbol_list *l, u64 start, u64 end, const char *name,
		     u8 binding, u8 type)
{
	struct symbol *s;

	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 256;
		l->v = xrealloc(l->v, (unsigned long)l->alloc * sizeof(*l->v));
	}
	s = &l->v[l->nr++];
	s->start = start;
	s->end = end;
	s->name = arena_strdup(l->arena, name);
	s->binding = binding;
	s->type = type;
	s->mangled = 0;
	s->inlined = 0;
	s->inline_id = 0;
}

void sort_by_start(struct start_idx *v, u32 n)
{
	struct start_idx *tmp = xmalloc((unsigned long)(n ? n : 1) * sizeof(*tmp));
	struct start_idx *src = v, *dst = tmp, *t;
	u32 count[256];

	for (int shift = 0; shift < 64; shift += 8) {
		u32 sum = 0;

		memset(count, 0, sizeof(count));
		for (u32 i = 0; i < n; i++)
			count[(src[i].start >> shift) & 0xff]++;
		if (!n || count[(src[0].start >> shift) & 0xff] == n)
			continue;	/* a byte every start shares */
		for (int d = 0; d < 256; d++) {
			u32 c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (u32 i = 0; i < n; i++)
			dst[count[(src[i].start >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, (unsigned long)n * sizeof(*v));
	free(tmp);
}

void symbol_list_sort(struct symbol_list *l)
{
	struct start_idx *items;
	struct symbol *sorted;
	u32 i;

	for (i = 1; i < l->nr && l->v[i - 1].start <= l->v[i].start; i++)
		;
	if (i >= l->nr)
		return;
	items = xmalloc((unsigned long)l->nr * sizeof(*items));
	sorted = xmalloc((unsigned long)l->nr * sizeof(*sorted));
	for (i = 0; i < l->nr; i++)
		items[i] = (struct start_idx){ l->v[i].start, i };
	sort_by_start(items, l->nr);
	for (i = 0; i < l->nr; i++)
		sorted[i] = l->v[items[i].idx];
	free(items);
	free(l->v);
	l->v = sorted;
	l->alloc = l->nr;
}

static u64 page_up(u64 v)
{
	return (v + 4095) & ~4095ULL;
}

void symbol_list_finish(struct symbol_list *l, int is_kallsyms)
{
	u32 i, out;

	if (!l->nr)
		return;
	symbol_list_sort(l);
	/* symbols__fixup_end() */
	for (i = 1; i < l->nr; i++) {
		struct symbol *prev = &l->v[i - 1], *curr = &l->v[i];

		if (prev->end != prev->start)
			continue;
		if (is_kallsyms && (!strchr(prev->name, '[') != !strchr(curr->name, '[')))
			prev->end = page_up(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (l->v[l->nr - 1].end == l->v[l->nr - 1].start)
		l->v[l->nr - 1].end = page_up(l->v[l->nr - 1].start) + 4096;
	/* symbols__fixup_duplicate(): a left fold over each run of equal starts */
	for (i = 1, out = 0; i < l->nr; i++) {
		if (l->v[i].start == l->v[out].start) {
			if (symbol_prefer_second(&l->v[out], &l->v[i]))
				l->v[out] = l->v[i];
		} else {
			l->v[++out] = l->v[i];
		}
	}
	l->nr = out + 1;
}

/* ---- loading and lookup ----------------------------------------------- */

/* Inserts the KSYMBOL extras (after the loaded symbols, unfixed) and makes
 * st the dso's symbols. */
static void dso_install(struct dso *dso, struct symtree *st)
{
	for (u32 i = 0; i < dso->nr_extra; i++) {
		const struct symbol *e = &dso->extra[i];

		symtree_insert(st, e->start, e->end, e->name, e->binding, e->type);
	}
	symtree_install(st, dso);
}

/* Makes a sorted list the dso's symbols (a tree only when KSYMBOL extras
 * join it); l is left empty. */
static void dso_install_sorted(struct dso *dso, struct symbol_list *l)
{
	if (dso->nr_extra) {
		struct symtree st;

		symtree_init_lazy(&st);
		for (u32 i = 0; i < l->nr; i++)
			symtree_insert(&st, l->v[i].start, l->v[i].end, l->v[i].name,
				       l->v[i].binding, l->v[i].type);
		dso_install(dso, &st);
		symtree_exit(&st);
		free(l->v);
	} else {
		symtree_install_sorted(dso, l->v, l->nr);
	}
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void dso_load(struct dso_table *t, struct dso *dso)
{
	struct symbol_list l = { .arena = &t->sym_arena };
	struct symtree st;

	if (dso->loaded)
		goto ready;
	dso->loaded = 1;
	if (dso->kind == DSO_KIND_KERNEL && !t->opts.vmlinux) {
		/* kallsyms: sorted and fixed up as a list, no overlaps */
		if (kallsyms_load(t, dso, NULL, &l) < 0)
			l.nr = 0;
		dso_install_sorted(dso, &l);
		dso->kallsyms_named = dso->nr_syms > 0;
		goto ready;
	}
	symtree_init_lazy(&st);
	switch (dso->kind) {
	case DSO_KIND_USER:
	case DSO_KIND_VDSO:
	case DSO_KIND_KERNEL:
		elf_load_dso(t, dso, &st);
		break;
	case DSO_KIND_JIT:
		/* perf inserts these with no end or alias fixups */
		perf_map_load(&t->sym_arena, dso->long_name, &st);
		break;
	case DSO_KIND_MODULE:	/* symbols come with the kernel's kallsyms */
	case DSO_KIND_NOSYMS:
	case DSO_KIND_KSYMBOL:
		break;
	}
	dso_install(dso, &st);
	symtree_exit(&st);
ready:
	__atomic_store_n(&dso->ready, 1, __ATOMIC_RELEASE);
}

void dso_install_list(struct dso *dso, struct symbol_list *l)
{
	struct symbol_list copy = { .nr = l->nr, .arena = l->arena };

	symbol_list_sort(l);
	copy.v = xmalloc((unsigned long)(l->nr ? l->nr : 1) * sizeof(*copy.v));
	memcpy(copy.v, l->v, (unsigned long)l->nr * sizeof(*copy.v));
	dso_install_sorted(dso, &copy);
}

/* The bucket addr falls in, or -1 when no cluster holds it (then no
 * range does). */
static s64 bucket_of(const struct dso *dso, u64 addr)
{
	const struct sym_cluster *c = dso->clusters;
	u32 lo = 0;

	if (addr < c[0].base)
		return -1;
	for (u32 n = dso->nr_clusters; n > 1; ) {
		u32 half = n / 2;

		lo = c[lo + half].base <= addr ? lo + half : lo;
		n -= half;
	}
	if (addr >= c[lo].limit)
		return -1;
	return c[lo].first + ((addr - c[lo].base) >> dso->bucket_shift);
}

/* The span of ranges that may hold an address of bucket j: those before
 * bucket[j] start below the bucket, those from bucket[j + 1] on above it. */
static void bucket_span(const struct dso *dso, s64 j, u32 *lo, u32 *hi)
{
	*lo = dso->bucket[j] ? dso->bucket[j] - 1 : 0;
	*hi = dso->bucket[j + 1];
}

/* The symbol of the range the dso's last lookup hit, when it holds addr;
 * else NULL (the dso has ranges). */
static const struct symbol *last_hit(const struct dso *dso, u64 addr)
{
	const struct sym_range *r = &dso->ranges[dso->last_range];

	return r->start <= addr && addr < r->end ? &dso->syms[r->sym] : NULL;
}

/* The range of ranges[lo..hi) holding addr, remembered as the last hit;
 * NULL if none. */
static const struct symbol *range_search(struct dso *dso, u64 addr, u32 lo, u32 hi)
{
	const struct sym_range *r = dso->ranges;

	/* the last range starting at or below addr, with no data-dependent
	   branch (the compilers make the step a conditional move) */
	for (u32 n = hi - lo; n > 1; ) {
		u32 half = n / 2;

		lo = r[lo + half].start <= addr ? lo + half : lo;
		n -= half;
	}
	if (lo >= hi || r[lo].start > addr || addr >= r[lo].end)
		return NULL;
	dso->last_range = lo;
	return &dso->syms[r[lo].sym];
}

/* The dso's range holding addr: the last one hit, else by the bucket
 * index and a binary search among that bucket's ranges; NULL if none. */
static const struct symbol *range_lookup(struct dso *dso, u64 addr)
{
	const struct sym_range *r = dso->ranges;
	const struct symbol *sym;
	u32 lo = 0, hi = dso->nr_ranges;

	if (!hi)
		return NULL;
	if ((sym = last_hit(dso, addr)))
		return sym;
	if (addr < r[0].start || addr >= r[hi - 1].end)
		return NULL;
	if (dso->nr_clusters) {
		s64 j = bucket_of(dso, addr);

		if (j < 0)
			return NULL;
		bucket_span(dso, j, &lo, &hi);
	}
	return range_search(dso, addr, lo, hi);
}

void dso_probe_start(const struct dso *dso, u64 addr, struct sym_probe *p)
{
	p->ranged = 0;
	p->bucket = PROBE_FULL;
	if (!dso || !dso_ready(dso) || !dso->nr_clusters)
		return;
	p->bucket = bucket_of(dso, addr);
	if (p->bucket < 0)
		p->bucket = PROBE_NONE;
	else
		__builtin_prefetch(&dso->bucket[p->bucket]);
}

void dso_probe_ranges(const struct dso *dso, struct sym_probe *p)
{
	if (p->bucket < 0)
		return;
	bucket_span(dso, p->bucket, &p->lo, &p->hi);
	p->ranged = 1;
	__builtin_prefetch(&dso->ranges[p->lo]);
	__builtin_prefetch(&dso->ranges[p->lo + 1]);
}

const struct symbol *dso_probe_find(struct dso_table *t, struct dso *dso, u64 addr,
				    const struct sym_probe *p)
{
	const struct symbol *sym;
	u32 lo, hi;

	if (p->bucket == PROBE_FULL)
		return dso_find_symbol(t, dso, addr);
	if (p->bucket == PROBE_NONE)
		return NULL;
	if ((sym = last_hit(dso, addr)))
		return sym;
	if (p->ranged) {
		lo = p->lo;
		hi = p->hi;
	} else {
		bucket_span(dso, p->bucket, &lo, &hi);
	}
	return range_search(dso, addr, lo, hi);
}

const struct symbol *dso_find_symbol(struct dso_table *t, struct dso *dso, u64 addr)
{
	if (!dso)
		return NULL;
	if (!dso->loaded)
		dso_load(t, dso);
	return range_lookup(dso, addr);
}
