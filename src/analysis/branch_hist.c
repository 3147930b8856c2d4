/*
 * branch_hist.c - perf report's branch mode (perf 6.1: util/hist.c's
 * branch iterator, util/sort.c's branch keys, util/machine.c's
 * sample__resolve_bstack()).
 *
 * An entry's key is a row of words, one group per sort key, so that a
 * lookup is a hash and a memcmp: names (DSOs, comms) are interned ids,
 * a resolved symbol is its range (perf's _sort__sym_cmp() calls two
 * symbols with the same range equal), an unresolved one its address.
 * The output order is perf's output rbtree's: the sort list's sort
 * functions in turn, each with perf's direction (dso_from, dso_to,
 * cycles, in_tx and abort compare left to right, so they come out
 * descending, the rest ascending).
 */
#include "branch_hist.h"
#include "../util/error.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- layout ------------------------------------------------------------ */

/* perf's sort dimension names in the order perf tries them (a key matches
 * the first it is a case-insensitive prefix of); BD_NR: not implemented. */
static const struct {
	const char *name;
	enum branch_dim dim;
} dim_names[] = {
	{ "pid", BD_PID }, { "comm", BD_COMM }, { "dso", BD_DSO },
	{ "symbol", BD_SYM }, { "parent", BD_NR }, { "cpu", BD_NR },
	{ "socket", BD_NR }, { "srcline", BD_NR }, { "srcfile", BD_NR },
	{ "local_weight", BD_NR }, { "weight", BD_NR },
	{ "transaction", BD_NR }, { "trace", BD_NR }, { "symbol_size", BD_NR },
	{ "dso_size", BD_NR }, { "cgroup", BD_NR }, { "cgroup_id", BD_NR },
	{ "ipc_null", BD_NR }, { "time", BD_NR }, { "code_page_size", BD_NR },
	{ "local_ins_lat", BD_NR }, { "ins_lat", BD_NR },
	{ "local_p_stage_cyc", BD_NR }, { "p_stage_cyc", BD_NR },
	{ "addr", BD_NR },
	{ "dso_from", BD_DSO_FROM }, { "dso_to", BD_DSO_TO },
	{ "symbol_from", BD_SYM_FROM }, { "symbol_to", BD_SYM_TO },
	{ "mispredict", BD_MISPREDICT }, { "abort", BD_ABORT },
	{ "in_tx", BD_IN_TX }, { "cycles", BD_CYCLES },
	{ "srcline_from", BD_NR }, { "srcline_to", BD_NR },
	{ "ipc_lbr", BD_NR }, { "addr_from", BD_NR }, { "addr_to", BD_NR },
	{ "overhead", BD_OVERHEAD }, { "sample", BD_SAMPLE }, { "period", BD_PERIOD },
};

static const char *const dim_headers[BD_NR] = {
	[BD_OVERHEAD] = "Overhead", [BD_SAMPLE] = "Samples", [BD_PERIOD] = "Period",
	[BD_PID] = "    Pid:Command", [BD_COMM] = "Command", [BD_DSO] = "Shared Object",
	[BD_SYM] = "Symbol", [BD_DSO_FROM] = "Source Shared Object",
	[BD_DSO_TO] = "Target Shared Object", [BD_SYM_FROM] = "Source Symbol",
	[BD_SYM_TO] = "Target Symbol", [BD_MISPREDICT] = "Branch Mispredicted",
	[BD_IN_TX] = "Branch in transaction", [BD_ABORT] = "Transaction abort",
	[BD_CYCLES] = "Basic Block Cycles",
};

/* Key words of each dimension (see key_of()). */
static const int dim_words[BD_NR] = {
	[BD_PID] = 1, [BD_COMM] = 1, [BD_DSO] = 1, [BD_SYM] = 4,
	[BD_DSO_FROM] = 1, [BD_DSO_TO] = 1, [BD_SYM_FROM] = 3, [BD_SYM_TO] = 3,
	[BD_MISPREDICT] = 1, [BD_IN_TX] = 1, [BD_ABORT] = 1, [BD_CYCLES] = 1,
};

const char *branch_dim_header(enum branch_dim d)
{
	return dim_headers[d];
}

static int dim_in(const enum branch_dim *list, int nr, enum branch_dim d)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == d)
			return 1;
	return 0;
}

int branch_layout_parse(struct branch_layout *lay, const char *sort_order,
			int show_nr_samples, int show_total_period)
{
	const char *s = sort_order ? sort_order : BRANCH_SORT_DEFAULT;
	char buf[1024], *tok, *save;

	memset(lay, 0, sizeof(*lay));
	if (strlen(s) >= sizeof(buf))
		return error("--sort: list too long");
	/* perf's __setup_sorting(): "overhead" first unless listed */
	if (!strstr(s, "overhead"))
		lay->sort[lay->nr_sort++] = BD_OVERHEAD;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t n = strlen(tok), i;

		for (i = 0; i < sizeof(dim_names) / sizeof(dim_names[0]); i++)
			if (!strncasecmp(tok, dim_names[i].name, n))
				break;
		if (i == sizeof(dim_names) / sizeof(dim_names[0]))
			return error("unknown --sort key: '%s'", tok);
		if (dim_names[i].dim == BD_NR)
			return error("--sort key '%s' is not supported in branch mode yet",
				     dim_names[i].name);
		if (!dim_in(lay->sort, lay->nr_sort, dim_names[i].dim))
			lay->sort[lay->nr_sort++] = dim_names[i].dim;
	}
	/* perf_hpp__init()'s columns, then the sort keys */
	lay->cols[lay->nr_cols++] = BD_OVERHEAD;
	if (show_nr_samples)
		lay->cols[lay->nr_cols++] = BD_SAMPLE;
	if (show_total_period)
		lay->cols[lay->nr_cols++] = BD_PERIOD;
	for (int i = 0; i < lay->nr_sort; i++)
		if (!dim_in(lay->cols, lay->nr_cols, lay->sort[i]))
			lay->cols[lay->nr_cols++] = lay->sort[i];
	for (int i = 0; i < lay->nr_cols; i++)
		if (!dim_in(lay->sort, lay->nr_sort, lay->cols[i]))
			lay->sort[lay->nr_sort++] = lay->cols[i];
	return 0;
}

/* ---- names and resolution ---------------------------------------------- */

static u32 str_hash(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

static u32 ptr_hash(const void *p)
{
	u64 x = (u64)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;

	return (u32)(x >> 32);
}

/* The id of string s (from 1), interned. */
static u32 intern(struct branch_resolver *r, const char *s)
{
	u32 i;

	if (2 * (r->nr_names + 1) > r->name_mask + 1) {
		u32 nmask = r->name_mask ? 2 * r->name_mask + 1 : 63;
		u32 *ni = xcalloc(nmask + 1, sizeof(u32));

		for (u32 id = 1; id <= r->nr_names; id++) {
			for (i = str_hash(r->names[id]) & nmask; ni[i]; i = (i + 1) & nmask)
				;
			ni[i] = id;
		}
		free(r->name_index);
		r->name_index = ni;
		r->name_mask = nmask;
	}
	for (i = str_hash(s) & r->name_mask; r->name_index[i]; i = (i + 1) & r->name_mask)
		if (!strcmp(r->names[r->name_index[i]], s))
			return r->name_index[i];
	if (r->nr_names + 2 > r->alloc_names) {
		r->alloc_names = r->alloc_names ? 2 * r->alloc_names : 64;
		r->names = xrealloc(r->names, r->alloc_names * sizeof(*r->names));
	}
	r->names[++r->nr_names] = s;
	r->name_index[i] = r->nr_names;
	return r->nr_names;
}

/* The id of a DSO's short name; 0 for none (perf compares DSOs by it). */
static u32 dso_id(struct branch_resolver *r, const struct dso *dso)
{
	u32 i;

	if (!dso)
		return 0;
	if (2 * (r->nr_dsos + 1) > r->dso_mask + 1) {
		u32 nmask = r->dso_mask ? 2 * r->dso_mask + 1 : 63;
		const struct dso **np = xcalloc(nmask + 1, sizeof(*np));
		u32 *nid = xcalloc(nmask + 1, sizeof(u32));

		for (u32 j = 0; r->dso_mask && j <= r->dso_mask; j++) {
			if (!r->dso_ptrs[j])
				continue;
			for (i = ptr_hash(r->dso_ptrs[j]) & nmask; np[i]; i = (i + 1) & nmask)
				;
			np[i] = r->dso_ptrs[j];
			nid[i] = r->dso_ids[j];
		}
		free(r->dso_ptrs);
		free(r->dso_ids);
		r->dso_ptrs = np;
		r->dso_ids = nid;
		r->dso_mask = nmask;
	}
	for (i = ptr_hash(dso) & r->dso_mask; r->dso_ptrs[i]; i = (i + 1) & r->dso_mask)
		if (r->dso_ptrs[i] == dso)
			return r->dso_ids[i];
	r->dso_ptrs[i] = dso;
	r->dso_ids[i] = intern(r, dso_short_name(dso));
	r->nr_dsos++;
	return r->dso_ids[i];
}

void branch_resolver_init(struct branch_resolver *r, struct session *s)
{
	memset(r, 0, sizeof(*r));
	r->session = s;
	r->cache = xcalloc(BRANCH_CACHE, sizeof(*r->cache));
	r->kernel_loaded = session_kernel_loaded(s);
}

void branch_resolver_release(struct branch_resolver *r)
{
	free(r->cache);
	free(r->names);
	free(r->name_index);
	free(r->dso_ptrs);
	free(r->dso_ids);
	memset(r, 0, sizeof(*r));
}

void branch_hist_flush(struct branch_resolver *r)
{
	memset(r->cache, 0, BRANCH_CACHE * sizeof(*r->cache));
}

/* perf's ip__resolve_ams(): thread__find_cpumode_addr_location() tries the
 * address as user, kernel, guest user and guest kernel; without guests
 * the last two find nothing and leave the level 'H'. */
static void resolve_end(struct branch_resolver *r, const struct addr_location *al, u64 addr,
			struct branch_end *e)
{
	struct branch_cache_slot *slot;
	struct addr_location a;
	u32 h = (u32)((addr ^ (addr >> 12) ^ (u64)(uintptr_t)al->thread) * 0x9e3779b1u) >> 20;

	/* the kernel map shrinks once, at its load (here or at a sample's
	   own resolution): what was cached before may have changed */
	if (session_kernel_loaded(r->session) != r->kernel_loaded) {
		r->kernel_loaded = 1;
		branch_hist_flush(r);
	}
	slot = &r->cache[h & (BRANCH_CACHE - 1)];
	if (slot->thread == al->thread && slot->addr == addr) {
		*e = slot->end;
		return;
	}
	session_resolve_addr_flags(r->session, al, 0, PD_MISC_USER, addr, 0, &a);
	if (!a.map)
		session_resolve_addr_flags(r->session, al, 0, PD_MISC_KERNEL, addr, 0, &a);
	e->addr = addr;
	e->dso_id = a.map ? dso_id(r, a.dso) : 0;
	if (a.map) {
		e->dso = a.dso;
		e->sym = a.sym;
		e->al_addr = a.addr;
		e->level = a.level;
	} else {
		e->dso = NULL;
		e->sym = NULL;
		e->al_addr = addr;
		e->level = 'H';
	}
	if (session_kernel_loaded(r->session) != r->kernel_loaded) {
		r->kernel_loaded = 1;
		branch_hist_flush(r);
	}
	slot->thread = al->thread;
	slot->addr = addr;
	slot->end = *e;
}

/* ---- the histogram ----------------------------------------------------- */

void branch_hist_init(struct branch_hist *bh, const struct branch_layout *lay)
{
	memset(bh, 0, sizeof(*bh));
	bh->lay = lay;
	for (int i = 0; i < lay->nr_sort; i++)
		bh->nr_words += dim_words[lay->sort[i]];
	assert(bh->nr_words <= BRANCH_KEY_WORDS);
}

void branch_hist_release(struct branch_hist *bh)
{
	free(bh->entries);
	free(bh->index);
	free(bh->sorted);
	memset(bh, 0, sizeof(*bh));
}

static u32 key_hash(const u64 *k, int n)
{
	u64 h = 0x243f6a8885a308d3ULL;

	for (int i = 0; i < n; i++)
		h = (h ^ k[i]) * 0x9e3779b97f4a7c15ULL;
	return (u32)(h >> 32) ^ (u32)h;
}

/* The words of a symbol key: resolved (1, start, end), else (0, address). */
static u64 *sym_words(u64 *w, const struct symbol *sym, u64 addr)
{
	if (sym) {
		*w++ = 1;
		*w++ = symbol_start(sym);
		*w++ = symbol_end(sym);
	} else {
		*w++ = 0;
		*w++ = addr;
		*w++ = 0;
	}
	return w;
}

/* Fills e->key from the rest of e. */
static void key_of(const struct branch_layout *lay, struct branch_entry *e)
{
	u64 *w = e->key;

	for (int i = 0; i < lay->nr_sort; i++) {
		switch (lay->sort[i]) {
		case BD_PID:
			*w++ = (u32)e->tid;
			break;
		case BD_COMM:
			*w++ = (u64)(uintptr_t)e->comm;
			break;
		case BD_DSO:
			*w++ = e->to.dso_id;
			break;
		case BD_SYM:
			/* perf 6.1.y's sort__sym_cmp(): the DSO first when it
			   is no sort key of its own */
			*w++ = e->to.sym && !dim_in(lay->sort, lay->nr_sort, BD_DSO) ?
			       e->to.dso_id : 0;
			w = sym_words(w, e->to.sym, e->to.addr);
			break;
		case BD_DSO_FROM:
			*w++ = e->from.dso_id;
			break;
		case BD_DSO_TO:
			*w++ = e->to.dso_id;
			break;
		case BD_SYM_FROM:
			w = sym_words(w, e->from.sym, e->from.addr);
			break;
		case BD_SYM_TO:
			w = sym_words(w, e->to.sym, e->to.addr);
			break;
		case BD_MISPREDICT:
			*w++ = e->mispred | e->predicted << 1;
			break;
		case BD_IN_TX:
			*w++ = e->in_tx;
			break;
		case BD_ABORT:
			*w++ = e->abort;
			break;
		case BD_CYCLES:
			*w++ = e->cycles;
			break;
		default:
			break;
		}
	}
}

static inline int keys_equal(const u64 *a, const u64 *b, int n)
{
	u64 d = 0;

	for (int i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return !d;
}

static void index_grow(struct branch_hist *bh)
{
	u32 nmask = bh->index_mask ? 2 * bh->index_mask + 1 : 1023;
	u32 *ni = xcalloc(nmask + 1, sizeof(u32));

	for (u32 j = 0; j < bh->nr_entries; j++) {
		u32 i;

		for (i = bh->entries[j].hash & nmask; ni[i]; i = (i + 1) & nmask)
			;
		ni[i] = j + 1;
	}
	free(bh->index);
	bh->index = ni;
	bh->index_mask = nmask;
}

/* Adds period and nr to the entry of e's key, made from e when new;
 * returns the entry. */
static struct branch_entry *add_entry(struct branch_hist *bh, const struct branch_entry *e,
				      u64 period, u64 nr)
{
	u32 h = e->hash, i;

	if (2 * (bh->nr_entries + 1) > bh->index_mask + 1)
		index_grow(bh);
	for (i = h & bh->index_mask; bh->index[i]; i = (i + 1) & bh->index_mask) {
		struct branch_entry *x = &bh->entries[bh->index[i] - 1];

		if (x->hash == h && keys_equal(x->key, e->key, bh->nr_words)) {
			x->period += period;
			x->nr_samples += nr;
			return x;
		}
	}
	if (bh->nr_entries == bh->alloc_entries) {
		bh->alloc_entries = bh->alloc_entries ? 2 * bh->alloc_entries : 1024;
		bh->entries = xrealloc(bh->entries, bh->alloc_entries * sizeof(*bh->entries));
	}
	bh->entries[bh->nr_entries] = *e;
	bh->entries[bh->nr_entries].period = period;
	bh->entries[bh->nr_entries].nr_samples = nr;
	bh->index[i] = ++bh->nr_entries;
	return &bh->entries[bh->nr_entries - 1];
}

void branch_hist_add_sample(struct branch_hist *bh, struct branch_resolver *r,
			    const struct addr_location *al, const u8 *branch, u64 nr,
			    u8 filtered, struct branch_type_stat *st)
{
	struct branch_entry e, *x;

	memset(&e, 0, sizeof(e));
	e.comm = al->comm;
	e.thread = al->thread;
	e.tid = al->tid;
	e.level = al->level;
	e.filtered = filtered;
	for (u64 i = 0; i < nr; i++) {
		const u8 *b = branch + 24 * i;
		u64 fl = pd_get64(b + 16);

		/* perf resolves the target first */
		resolve_end(r, al, pd_get64(b + 8), &e.to);
		resolve_end(r, al, pd_get64(b), &e.from);
		e.mispred = fl & 1;
		e.predicted = (fl >> 1) & 1;
		e.in_tx = (fl >> 2) & 1;
		e.abort = (fl >> 3) & 1;
		e.cycles = (u16)(fl >> 4);
		e.flags = fl;
		key_of(bh->lay, &e);
		e.hash = key_hash(e.key, bh->nr_words);
		x = add_entry(bh, &e, 1, 1);
		/* perf's report counts the type of the entry's first branch */
		branch_type_count(st, x->flags, x->from.addr, x->to.addr);
		bh->nr_samples++;
		bh->total_period++;
		if (!filtered) {
			bh->nr_non_filtered_samples++;
			bh->total_non_filtered_period++;
		}
	}
}

void branch_type_count(struct branch_type_stat *st, u64 flags, u64 from, u64 to)
{
	unsigned type = (flags >> 20) & 15;

	if (!type || !from)
		return;
	if (type == 15)		/* PERF_BR_EXTEND_ABI */
		st->new_counts[(flags >> 26) & 15]++;
	else
		st->counts[type]++;
	if (type == 1)		/* PERF_BR_COND */
		*(to > from ? &st->cond_fwd : &st->cond_bwd) += 1;
	if ((from & ~((1ULL << 21) - 1)) != (to & ~((1ULL << 21) - 1)))
		st->cross_2m++;
	else if ((from & ~4095ULL) != (to & ~4095ULL))
		st->cross_4k++;
}

/* ---- the end: collapse, order, widths ---------------------------------- */

/* Merges the entries whose comms read the same now (perf collapses by the
 * string): the comm word becomes the string's id. */
static void collapse_comms(struct branch_hist *bh, struct branch_resolver *r)
{
	const struct branch_layout *lay = bh->lay;
	struct branch_entry *old = bh->entries;
	u32 n = bh->nr_entries;
	int w = 0, found = 0;

	for (int i = 0; i < lay->nr_sort && !found; i++) {
		if (lay->sort[i] == BD_COMM)
			found = 1;
		else
			w += dim_words[lay->sort[i]];
	}
	if (!found)
		return;
	bh->entries = NULL;
	bh->nr_entries = bh->alloc_entries = 0;
	free(bh->index);
	bh->index = NULL;
	bh->index_mask = 0;
	for (u32 j = 0; j < n; j++) {
		old[j].key[w] = intern(r, old[j].comm);
		old[j].hash = key_hash(old[j].key, bh->nr_words);
		add_entry(bh, &old[j], old[j].period, old[j].nr_samples);
	}
	free(old);
}

static int cmp_wrap(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* perf's _sort__dso_cmp(a, b) turned into "a before b" order, for the
 * branch keys that pass it their left entry first: no DSO first, then the
 * names descending. */
static int cmp_dso_desc(const struct dso *a, const struct dso *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return -strcmp(dso_short_name(a), dso_short_name(b));
}

/* perf's sort__sym_from/to_cmp(): resolved first, by range; the
 * unresolved by address. */
static int cmp_sym_end(const struct branch_end *a, const struct branch_end *b)
{
	int r;

	if (!a->sym && !b->sym)
		return cmp_wrap(a->addr, b->addr);
	if (!a->sym || !b->sym)
		return a->sym ? -1 : 1;
	r = cmp_wrap(symbol_start(a->sym), symbol_start(b->sym));
	return r ? r : cmp_wrap(symbol_end(a->sym), symbol_end(b->sym));
}

/* The dimension d of two entries in perf's order: its output sort
 * function, or (input) its se_cmp, which orders perf's input tree (and
 * so the ties of the output). */
static int cmp_dim(enum branch_dim d, const struct branch_entry *a, const struct branch_entry *b,
		   int input, int dso_sorted)
{
	switch (d) {
	case BD_OVERHEAD:
	case BD_PERIOD:
		return input ? 0 : cmp_u64(b->period, a->period);
	case BD_SAMPLE:
		return input ? 0 : cmp_u64(b->nr_samples, a->nr_samples);
	case BD_PID:
		return a->tid < b->tid ? -1 : a->tid > b->tid;
	case BD_COMM:
		return strcmp(a->comm, b->comm);
	case BD_DSO:
		if (!a->to.dso || !b->to.dso)
			return (a->to.dso == NULL) - (b->to.dso == NULL);
		return strcmp(dso_short_name(a->to.dso), dso_short_name(b->to.dso));
	case BD_SYM:
		if (input) {
			/* perf 6.1.y's sort__sym_cmp(): two unresolved by
			   address; else the DSO (unless a key of its own),
			   resolved first, the ranges */
			int r = 0;

			if (!a->to.sym && !b->to.sym)
				return cmp_wrap(a->to.addr, b->to.addr);
			if (!dso_sorted)
				r = cmp_dim(BD_DSO, a, b, 1, 1);
			return r ? r : cmp_sym_end(&a->to, &b->to);
		}
		/* perf's sort__sym_sort(): by name, the unresolved last,
		   two unresolved tie */
		if (a->to.sym && b->to.sym)
			return strcmp(symbol_name(a->to.sym), symbol_name(b->to.sym));
		return (a->to.sym == NULL) - (b->to.sym == NULL);
	case BD_DSO_FROM:
		return cmp_dso_desc(a->from.dso, b->from.dso);
	case BD_DSO_TO:
		return cmp_dso_desc(a->to.dso, b->to.dso);
	case BD_SYM_FROM:
		return cmp_sym_end(&a->from, &b->from);
	case BD_SYM_TO:
		return cmp_sym_end(&a->to, &b->to);
	case BD_MISPREDICT:
		/* perf's sort__mispredict_cmp(), sort__in_tx_cmp() and
		   sort__abort_cmp() are no order (1 whenever the flags
		   differ; KNOWN-DIFFERENCES.md): by the flags here */
		return cmp_u64(a->mispred | a->predicted << 1, b->mispred | b->predicted << 1);
	case BD_IN_TX:
		return cmp_u64(b->in_tx, a->in_tx);
	case BD_ABORT:
		return cmp_u64(b->abort, a->abort);
	case BD_CYCLES:
		return cmp_u64(b->cycles, a->cycles);
	default:
		return 0;
	}
}

static int cmp_entries(const void *va, const void *vb, void *vbh)
{
	const struct branch_entry *a = *(const struct branch_entry *const *)va;
	const struct branch_entry *b = *(const struct branch_entry *const *)vb;
	const struct branch_hist *bh = vbh;
	const struct branch_layout *lay = bh->lay;
	int dso_sorted = dim_in(lay->sort, lay->nr_sort, BD_DSO);
	int r = 0;

	for (int i = 0; i < lay->nr_sort && !r; i++)
		r = cmp_dim(lay->sort[i], a, b, 0, dso_sorted);
	/* perf inserts ties to the right of what is there: in the order of
	   its input tree */
	for (int i = 0; i < lay->nr_sort && !r; i++)
		r = cmp_dim(lay->sort[i], a, b, 1, dso_sorted);
	return r ? r : (a < b ? -1 : a > b);
}

static void new_width(int *w, int len)
{
	if (len > *w)
		*w = len;
}

void branch_hist_finish(struct branch_hist *bh, struct branch_resolver *r, int dso_list_given)
{
	int *cw = bh->col_width, comm_len = 0;

	collapse_comms(bh, r);
	bh->sorted = xmalloc((bh->nr_entries ? bh->nr_entries : 1) * sizeof(*bh->sorted));
	bh->nr_sorted = 0;
	for (u32 i = 0; i < bh->nr_entries; i++)
		if (!bh->entries[i].filtered)
			bh->sorted[bh->nr_sorted++] = &bh->entries[i];
	qsort_r(bh->sorted, bh->nr_sorted, sizeof(*bh->sorted), cmp_entries, bh);

	/* perf's hists__calc_col_len() over the shown entries, then at
	   least the titles */
	for (int d = 0; d < BD_NR; d++)
		cw[d] = (int)strlen(dim_headers[d]);
	for (u32 j = 0; j < bh->nr_sorted; j++) {
		const struct branch_entry *e = bh->sorted[j];
		int unres_to = 0;

		new_width(&comm_len, (int)strlen(thread_comm_now(e->thread)));
		if (e->to.sym)
			new_width(&cw[BD_SYM], (int)strlen(symbol_name(e->to.sym)) + 4);
		else
			unres_to = 1;
		if (e->to.dso)
			new_width(&cw[BD_DSO], (int)strlen(dso_short_name(e->to.dso)));
		if (e->from.sym) {
			new_width(&cw[BD_SYM_FROM], (int)strlen(symbol_name(e->from.sym)) + 4);
			new_width(&cw[BD_DSO_FROM], (int)strlen(dso_short_name(e->from.dso)));
		} else {
			new_width(&cw[BD_SYM_FROM], 4 + 2 + 16);
			if (!dso_list_given)
				new_width(&cw[BD_DSO_FROM], 16);
		}
		if (e->to.sym) {
			new_width(&cw[BD_SYM_TO], (int)strlen(symbol_name(e->to.sym)) + 4);
			new_width(&cw[BD_DSO_TO], (int)strlen(dso_short_name(e->to.dso)));
		} else {
			new_width(&cw[BD_SYM_TO], 4 + 2 + 16);
			if (!dso_list_given)
				new_width(&cw[BD_DSO_TO], 16);
		}
		if (unres_to) {
			new_width(&cw[BD_SYM], 4 + 2 + 16);
			if (!dso_list_given)
				new_width(&cw[BD_DSO], 16);
		}
	}
	new_width(&cw[BD_COMM], comm_len);
	if (comm_len)
		new_width(&cw[BD_PID], comm_len + 8);
	cw[BD_OVERHEAD] = 8;
	cw[BD_SAMPLE] = 12;
	cw[BD_PERIOD] = 12;
}
