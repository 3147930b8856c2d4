/*
 * hist.c - the flat histogram: perf 6.1's sort keys, entry merging,
 * filters, output order and column widths (util/hist.c, util/sort.c).
 *
 * Invariants:
 *  - Per sample: two pointer-cache lookups (comm, DSO), a strcmp that
 *    notices a comm rewritten in place, a front-cache probe and, on a
 *    miss, one probe sequence in the entry index; no allocation unless a
 *    table doubles.
 *  - Interned string ids are stable for the life of the hist_strings;
 *    id 0 is reserved for "no DSO" and prints as "[unknown]".
 *  - hists_finish() orders entries exactly as perf's output rbtree does:
 *    by the sort list's sort functions, ties in the order of perf's input
 *    tree (the sort list's cmp functions).
 */
#include "hist.h"
#include "../util/arena.h"
#include "../util/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- interned strings ---------------------------------------------------- */

/* An open-addressing map from a pointer (a comm string, a DSO or a symbol)
 * to a u32 value. */
struct ptr_map {
	const void **keys;
	u32 *vals;
	u32 mask, nr;
};

struct hist_strings {
	struct arena arena;
	const char **str;	/* id -> string (DSO names, final comms) */
	u32 *len;		/* id -> strlen */
	u32 nr, alloc;
	u32 *str_index;		/* open addressing: id + 1, 0 empty */
	u32 str_mask;
	struct ptr_map dso_ids;	/* DSO -> string id of its short name */
	struct ptr_map comm_ids;	/* comm pointer -> comm slot */
	const char **comm_ptr;	/* comm slot -> the session's string */
	u32 *comm_sid;		/* comm slot -> id of what it read last */
	u32 nr_comm, alloc_comm;
	const char *cur_comm;	/* the comm of the sample being added */
	u32 cur_sid, cur_slot;	/* and its string id and slot */
	struct ptr_map dso_verdict;	/* DSO -> filter verdict */
	struct ptr_map sym_verdict;	/* symbol -> filter verdict */
};

static inline u64 hash_u64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static u32 hash_str(const char *s)
{
	u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (u8)*s) * 16777619u;
	return h;
}

static void ptr_map_init(struct ptr_map *m)
{
	m->mask = 255;
	m->nr = 0;
	m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
	m->vals = xcalloc(m->mask + 1, sizeof(*m->vals));
}

static void ptr_map_free(struct ptr_map *m)
{
	free(m->keys);
	free(m->vals);
}

/* Returns the slot of key: its own, or the empty one where it goes. */
static inline u32 ptr_map_slot(const struct ptr_map *m, const void *key)
{
	u32 i = (u32)hash_u64((uintptr_t)key) & m->mask;

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

static void ptr_map_put(struct ptr_map *m, const void *key, u32 val)
{
	u32 i;

	if ((m->nr + 1) * 2 > m->mask + 1) {
		struct ptr_map old = *m;

		m->mask = old.mask * 2 + 1;
		m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
		m->vals = xcalloc(m->mask + 1, sizeof(*m->vals));
		for (u32 j = 0; j <= old.mask; j++) {
			if (old.keys[j]) {
				u32 k = ptr_map_slot(m, old.keys[j]);

				m->keys[k] = old.keys[j];
				m->vals[k] = old.vals[j];
			}
		}
		ptr_map_free(&old);
	}
	i = ptr_map_slot(m, key);
	if (!m->keys[i])
		m->nr++;
	m->keys[i] = key;
	m->vals[i] = val;
}

struct hist_strings *hist_strings_new(void)
{
	struct hist_strings *hs = xcalloc(1, sizeof(*hs));

	arena_init(&hs->arena, 0);
	hs->alloc = 256;
	hs->str = xmalloc(hs->alloc * sizeof(*hs->str));
	hs->len = xmalloc(hs->alloc * sizeof(*hs->len));
	hs->str[0] = "[unknown]";
	hs->len[0] = 9;
	hs->nr = 1;
	hs->str_mask = 511;
	hs->str_index = xcalloc(hs->str_mask + 1, sizeof(u32));
	ptr_map_init(&hs->dso_ids);
	ptr_map_init(&hs->comm_ids);
	ptr_map_init(&hs->dso_verdict);
	ptr_map_init(&hs->sym_verdict);
	return hs;
}

void hist_strings_free(struct hist_strings *hs)
{
	if (!hs)
		return;
	arena_free(&hs->arena);
	free(hs->str);
	free(hs->len);
	free(hs->str_index);
	ptr_map_free(&hs->dso_ids);
	ptr_map_free(&hs->comm_ids);
	free(hs->comm_ptr);
	free(hs->comm_sid);
	ptr_map_free(&hs->dso_verdict);
	ptr_map_free(&hs->sym_verdict);
	free(hs);
}

/* The id of string s, adding a copy when it is new (ids start at 1). */
static u32 intern(struct hist_strings *hs, const char *s)
{
	u32 h = hash_str(s), i = h & hs->str_mask, id;

	while ((id = hs->str_index[i])) {
		if (!strcmp(hs->str[id - 1], s))
			return id - 1;
		i = (i + 1) & hs->str_mask;
	}
	if (hs->nr == hs->alloc) {
		hs->alloc *= 2;
		hs->str = xrealloc(hs->str, hs->alloc * sizeof(*hs->str));
		hs->len = xrealloc(hs->len, hs->alloc * sizeof(*hs->len));
	}
	id = hs->nr++;
	hs->str[id] = arena_strdup(&hs->arena, s);
	hs->len[id] = strlen(s);
	hs->str_index[i] = id + 1;
	if (hs->nr * 2 > hs->str_mask + 1) {
		u32 mask = hs->str_mask * 2 + 1;
		u32 *index = xcalloc(mask + 1, sizeof(u32));

		for (u32 j = 1; j < hs->nr; j++) {
			u32 k = hash_str(hs->str[j]) & mask;

			while (index[k])
				k = (k + 1) & mask;
			index[k] = j + 1;
		}
		free(hs->str_index);
		hs->str_index = index;
		hs->str_mask = mask;
	}
	return id;
}

/* The string id of a DSO's short name. */
static inline u32 dso_id(struct hist_strings *hs, const struct dso *dso)
{
	u32 i = ptr_map_slot(&hs->dso_ids, dso), id;

	if (hs->dso_ids.keys[i])
		return hs->dso_ids.vals[i];
	id = intern(hs, dso_short_name(dso));
	ptr_map_put(&hs->dso_ids, dso, id);
	return id;
}

/*
 * The id of the string comm reads now, and in *slot the pointer's slot.
 * The session may rewrite a thread's first comm in place when its COMM
 * arrives (perf's comm__override()): entries are keyed by what the string
 * reads when the sample comes, as perf's tree compares them, and keep the
 * slot so hists_finish() can print what the creator's string reads then.
 */
static inline u32 comm_id(struct hist_strings *hs, const char *comm, u32 *slot)
{
	u32 i = ptr_map_slot(&hs->comm_ids, comm), id;

	if (hs->comm_ids.keys[i]) {
		id = hs->comm_ids.vals[i];
		*slot = id;
		if (strcmp(hs->str[hs->comm_sid[id]], comm))
			hs->comm_sid[id] = intern(hs, comm);
		return hs->comm_sid[id];
	}
	if (hs->nr_comm == hs->alloc_comm) {
		hs->alloc_comm = hs->alloc_comm ? hs->alloc_comm * 2 : 256;
		hs->comm_ptr = xrealloc(hs->comm_ptr, hs->alloc_comm * sizeof(*hs->comm_ptr));
		hs->comm_sid = xrealloc(hs->comm_sid, hs->alloc_comm * sizeof(*hs->comm_sid));
	}
	id = hs->nr_comm++;
	hs->comm_ptr[id] = comm;
	hs->comm_sid[id] = intern(hs, comm);
	ptr_map_put(&hs->comm_ids, comm, id);
	*slot = id;
	return hs->comm_sid[id];
}

const char *hist_string(const struct hist_strings *strs, u32 id)
{
	return strs->str[id];
}

const char *hist_thread_comm(const struct hist_entry *he)
{
	return thread_comm_now(he->thread);
}

/* ---- layout --------------------------------------------------------------- */

/*
 * perf's dimension names, in the order perf tries them: a key matches the
 * first name it is a case-insensitive prefix of.  Names prof does not
 * implement map to HD_NR.
 */
static const struct {
	const char *name;
	enum hist_dim dim;
} dim_names[] = {
	{ "pid", HD_PID }, { "comm", HD_COMM }, { "dso", HD_DSO },
	{ "symbol", HD_SYM }, { "parent", HD_NR }, { "cpu", HD_CPU },
	{ "socket", HD_NR }, { "srcline", HD_NR }, { "srcfile", HD_NR },
	{ "local_weight", HD_NR }, { "weight", HD_NR },
	{ "transaction", HD_NR }, { "trace", HD_NR }, { "symbol_size", HD_NR },
	{ "dso_size", HD_NR }, { "cgroup", HD_NR }, { "cgroup_id", HD_NR },
	{ "ipc_null", HD_NR }, { "time", HD_NR }, { "code_page_size", HD_NR },
	{ "local_ins_lat", HD_NR }, { "ins_lat", HD_NR },
	{ "local_p_stage_cyc", HD_NR }, { "p_stage_cyc", HD_NR },
	{ "addr", HD_NR },
	{ "overhead", HD_OVERHEAD }, { "overhead_sys", HD_NR },
	{ "overhead_us", HD_NR }, { "overhead_guest_sys", HD_NR },
	{ "overhead_guest_us", HD_NR }, { "overhead_children", HD_CHILDREN },
	{ "sample", HD_SAMPLE }, { "period", HD_PERIOD },
};

static const char *const dim_headers[HD_NR] = {
	[HD_CHILDREN] = "Children", [HD_OVERHEAD] = "Overhead", [HD_SAMPLE] = "Samples",
	[HD_PERIOD] = "Period", [HD_PID] = "    Pid:Command",
	[HD_COMM] = "Command", [HD_DSO] = "Shared Object",
	[HD_SYM] = "Symbol", [HD_CPU] = "CPU",
};

const char *hist_dim_header(const struct hist_layout *lay, enum hist_dim d)
{
	if (d == HD_OVERHEAD && lay->children)
		return "Self";
	return dim_headers[d];
}

static int dim_in(const enum hist_dim *list, int nr, enum hist_dim d)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == d)
			return 1;
	return 0;
}

/* Parses a comma-separated key list into list (duplicates dropped). */
static int parse_dims(const char *str, const char *what, enum hist_dim *list, int *nr)
{
	char buf[1024], *tok, *save;

	if (strlen(str) >= sizeof(buf))
		return error("--%s: list too long", what);
	strcpy(buf, str);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		size_t n = strlen(tok);
		size_t i;

		for (i = 0; i < sizeof(dim_names) / sizeof(dim_names[0]); i++)
			if (!strncasecmp(tok, dim_names[i].name, n))
				break;
		if (i == sizeof(dim_names) / sizeof(dim_names[0]))
			return error("unknown --%s key: '%s'", what, tok);
		if (dim_names[i].dim == HD_NR)
			return error("--%s key '%s' is not supported yet", what,
				     dim_names[i].name);
		if (!dim_in(list, *nr, dim_names[i].dim))
			list[(*nr)++] = dim_names[i].dim;
	}
	return 0;
}

int hist_layout_parse(struct hist_layout *lay, const char *sort_order,
		      const char *field_order, int show_nr_samples,
		      int show_total_period, int children)
{
	int strict_fields = field_order && field_order[0] != '+';
	enum hist_dim keys[HD_NR];
	int nr_keys = 0;

	memset(lay, 0, sizeof(*lay));
	lay->children = children;
	/* perf's __setup_sorting(): the keys, "overhead" (and in children
	   mode "overhead_children" before it) first unless -F */
	if (sort_order || !strict_fields) {
		const char *s = sort_order ? sort_order : "comm,dso,sym";

		if (!strict_fields && children && !strstr(s, "overhead_children"))
			keys[nr_keys++] = HD_CHILDREN;
		if (!strict_fields && !strstr(s, "overhead"))
			keys[nr_keys++] = HD_OVERHEAD;
		if (parse_dims(s, "sort", keys, &nr_keys))
			return -1;
	}
	memcpy(lay->sort, keys, nr_keys * sizeof(keys[0]));
	lay->nr_sort = nr_keys;

	/* perf_hpp__init(): default columns unless -F is strict */
	if (!strict_fields) {
		if (children)
			lay->cols[lay->nr_cols++] = HD_CHILDREN;
		lay->cols[lay->nr_cols++] = HD_OVERHEAD;
		if (show_nr_samples)
			lay->cols[lay->nr_cols++] = HD_SAMPLE;
		if (show_total_period)
			lay->cols[lay->nr_cols++] = HD_PERIOD;
	}
	if (field_order) {
		const char *f = strict_fields ? field_order : field_order + 1;

		if (!*f)
			return error("invalid --fields key: '+'");
		if (parse_dims(f, "fields", lay->cols, &lay->nr_cols))
			return -1;
	}
	/* sort keys become columns, then columns become sort keys */
	for (int i = 0; i < lay->nr_sort; i++)
		if (!dim_in(lay->cols, lay->nr_cols, lay->sort[i]))
			lay->cols[lay->nr_cols++] = lay->sort[i];
	for (int i = 0; i < lay->nr_cols; i++)
		if (!dim_in(lay->sort, lay->nr_sort, lay->cols[i]))
			lay->sort[lay->nr_sort++] = lay->cols[i];
	for (int i = 0; i < lay->nr_sort; i++)
		if (lay->sort[i] >= HD_PID)
			lay->key_mask |= 1u << lay->sort[i];
	return 0;
}

void hist_layout_elide(struct hist_layout *lay, int comm, int dso, int sym)
{
	int all = 1;

	lay->elide_mask = 0;
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];

		if ((d == HD_COMM && comm) || (d == HD_DSO && dso) || (d == HD_SYM && sym))
			lay->elide_mask |= 1u << d;
		else if (d >= HD_PID)
			all = 0;
	}
	if (all)
		lay->elide_mask = 0;
}

/* ---- filters -------------------------------------------------------------- */

/* perf's HIST_FILTER__* bits */
#define FILTER_DSO	(1 << 1)
#define FILTER_THREAD	(1 << 2)
#define FILTER_SYMBOL	(1 << 5)

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static int in_ints(const s32 *v, int n, s32 x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

u8 hist_filter_sample(struct hist_strings *hs, const struct hist_filters *flt,
		      const struct addr_location *al)
{
	u8 bits = 0;

	/* perf tests the thread's comm at the sample's time */
	if (flt->comms && !in_list(flt->comms, al->comm))
		bits |= FILTER_THREAD;
	if (flt->pids && !in_ints(flt->pids, flt->nr_pids, al->pid))
		bits |= FILTER_THREAD;
	if (flt->tids && !in_ints(flt->tids, flt->nr_tids, al->tid))
		bits |= FILTER_THREAD;
	if (flt->dsos) {
		if (!al->dso) {
			bits |= FILTER_DSO;
		} else {
			u32 i = ptr_map_slot(&hs->dso_verdict, al->dso), v;

			if (hs->dso_verdict.keys[i]) {
				v = hs->dso_verdict.vals[i];
			} else {
				v = in_list(flt->dsos, dso_short_name(al->dso)) ||
				    in_list(flt->dsos, dso_long_name(al->dso));
				ptr_map_put(&hs->dso_verdict, al->dso, v);
			}
			if (!v)
				bits |= FILTER_DSO;
		}
	}
	if (flt->symbols) {
		if (!al->sym) {
			bits |= FILTER_SYMBOL;
		} else {
			u32 i = ptr_map_slot(&hs->sym_verdict, al->sym), v;

			if (hs->sym_verdict.keys[i]) {
				v = hs->sym_verdict.vals[i];
			} else {
				v = in_list(flt->symbols, symbol_name(al->sym));
				ptr_map_put(&hs->sym_verdict, al->sym, v);
			}
			if (!v)
				bits |= FILTER_SYMBOL;
		}
	}
	return bits;
}

/* ---- entries -------------------------------------------------------------- */

void hists_init(struct hists *h, const struct hist_layout *lay, struct hist_strings *strs)
{
	memset(h, 0, sizeof(*h));
	h->lay = lay;
	h->strs = strs;
}

void hists_release(struct hists *h)
{
	free(h->entries);
	free(h->index);
	free(h->sorted);
	free(h->rank);
	memset(h, 0, sizeof(*h));
}

/* Do a and b fall in the same entry (perf's hist_entry__cmp() == 0)? */
static inline int same_key(unsigned mask, const struct hist_entry *a, const struct hist_entry *b)
{
	if ((mask & (1u << HD_PID)) && a->tid != b->tid)
		return 0;
	if ((mask & (1u << HD_COMM)) && a->comm != b->comm)
		return 0;
	if ((mask & (1u << HD_DSO)) && a->dso_name != b->dso_name)
		return 0;
	if ((mask & (1u << HD_CPU)) && a->cpu != b->cpu)
		return 0;
	if (mask & (1u << HD_SYM)) {
		if (a->sym != b->sym)
			return 0;
		if (!a->sym && a->addr != b->addr)
			return 0;
	}
	return 1;
}

static inline u32 key_hash(unsigned mask, const struct hist_entry *e)
{
	u64 x = 0;

	if (mask & (1u << HD_PID))
		x = x * 31 + (u32)e->tid;
	if (mask & (1u << HD_COMM))
		x = x * 31 + e->comm;
	if (mask & (1u << HD_DSO))
		x = x * 31 + e->dso_name;
	if (mask & (1u << HD_CPU))
		x = x * 31 + (u32)e->cpu;
	if (mask & (1u << HD_SYM))
		x = x * 31 + (e->sym ? (uintptr_t)e->sym : e->addr);
	return (u32)hash_u64(x);
}

/* An index slot: the entry's hash above, its number + 1 below (0: empty),
 * so probes touch an entry only when the hash matches. */
#define SLOT(hash, n)	((u64)(hash) << 32 | ((n) + 1))
#define SLOT_ENTRY(v)	((u32)(v) - 1)
#define SLOT_HASH(v)	((u32)((v) >> 32))

/* Doubles the index (or makes its first one) and refills it. */
static void grow_index(struct hists *h)
{
	u32 mask = h->index_mask ? h->index_mask * 2 + 1 : 4095;
	u64 *index = xcalloc(mask + 1, sizeof(u64));

	for (u32 j = 0; j < h->nr_entries; j++) {
		u32 k = h->entries[j].hash & mask;

		while (index[k])
			k = (k + 1) & mask;
		index[k] = SLOT(h->entries[j].hash, j);
	}
	free(h->index);
	h->index = index;
	h->index_mask = mask;
}

/* Finds the entry of key, or makes it from key (zero counts).  Returns its
 * number; *created says which. */
static u32 find_or_make(struct hists *h, const struct hist_entry *key, int *created)
{
	unsigned mask = h->lay->key_mask;
	u64 slot;
	u32 i;

	u64 *hot = &h->hot[key->hash & (HOT_SLOTS - 1)];

	if (*hot && SLOT_HASH(*hot) == key->hash &&
	    same_key(mask, &h->entries[SLOT_ENTRY(*hot)], key)) {
		*created = 0;
		return SLOT_ENTRY(*hot);
	}
	if (!h->index)
		grow_index(h);
	for (i = key->hash & h->index_mask; (slot = h->index[i]); i = (i + 1) & h->index_mask) {
		if (SLOT_HASH(slot) == key->hash &&
		    same_key(mask, &h->entries[SLOT_ENTRY(slot)], key)) {
			*created = 0;
			*hot = slot;
			return SLOT_ENTRY(slot);
		}
	}
	if (h->nr_entries == h->alloc_entries) {
		h->alloc_entries = h->alloc_entries ? h->alloc_entries * 2 : 1024;
		h->entries = xrealloc(h->entries, h->alloc_entries * sizeof(*h->entries));
	}
	h->entries[h->nr_entries++] = *key;
	h->index[i] = *hot = SLOT(key->hash, h->nr_entries - 1);
	if (h->nr_entries * 2 > h->index_mask + 1)
		grow_index(h);
	*created = 1;
	return h->nr_entries - 1;
}

/* Fills the key fields of an entry for location al; the comm is looked up
 * once per sample (chain entries reuse the sample's). */
static inline void make_key(struct hists *h, struct hist_entry *key,
			    const struct addr_location *thread_al,
			    const struct addr_location *al, u64 addr, char level,
			    s32 cpu, u8 filtered, int same_sample)
{
	struct hist_strings *hs = h->strs;

	if (!same_sample || hs->cur_comm != thread_al->comm) {
		hs->cur_comm = thread_al->comm;
		hs->cur_sid = comm_id(hs, thread_al->comm, &hs->cur_slot);
	}
	key->comm = hs->cur_sid;
	key->comm_slot = hs->cur_slot;
	key->dso_name = al->dso ? dso_id(h->strs, al->dso) : 0;
	key->dso = al->dso;
	key->thread = thread_al->thread;
	key->tid = thread_al->tid;
	key->cpu = cpu;
	key->sym = al->sym;
	key->addr = addr;
	key->level = level;
	key->filtered = filtered;
	key->period = key->acc_period = key->nr_samples = 0;
	key->hash = key_hash(h->lay->key_mask, key);
}

u32 hists_add(struct hists *h, const struct addr_location *al, s32 cpu,
	      u64 period, u8 filtered)
{
	struct hist_entry key, *e;
	int created;
	u32 n;

	make_key(h, &key, al, al, al->addr, al->level, cpu, filtered, 0);
	n = find_or_make(h, &key, &created);
	e = &h->entries[n];
	e->period += period;
	e->acc_period += period;
	e->nr_samples++;
	h->nr_samples++;
	return n;
}

void hists_add_chain(struct hists *h, const struct addr_location *sample_al,
		     const struct addr_location *node_al, u64 addr, char level,
		     s32 cpu, u64 period, u8 filtered, u32 *seen, u32 *nr_seen)
{
	struct hist_entry key;
	int created;
	u32 n;

	make_key(h, &key, sample_al, node_al, addr, level, cpu, filtered, 1);
	n = find_or_make(h, &key, &created);
	if (!created)
		for (u32 i = 0; i < *nr_seen; i++)
			if (seen[i] == n)
				return;
	h->entries[n].acc_period += period;
	seen[(*nr_seen)++] = n;
}

/* ---- output order ----------------------------------------------------------- */

static inline int cmp_u64_desc(u64 a, u64 b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static inline int cmp_s64_asc(s64 a, s64 b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* perf's cmp_null(): an entry with the object goes before one without
 * when non_null_first, else after. */
static inline int cmp_present(const void *a, const void *b, int non_null_first)
{
	if (!a == !b)
		return 0;
	return (!a) == non_null_first ? 1 : -1;
}

static int cmp_dso(const struct hist_strings *hs, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	if (!a->dso_name || !b->dso_name)	/* perf puts "no DSO" first */
		return cmp_present((void *)(uintptr_t)a->dso_name,
				   (void *)(uintptr_t)b->dso_name, 0);
	return a->dso_name == b->dso_name ? 0 : strcmp(hs->str[a->dso_name], hs->str[b->dso_name]);
}

/* perf's se_sort of dimension d (what orders the output). */
static int sort_dim(const struct hist_strings *hs, enum hist_dim d,
		    const struct hist_entry *a, const struct hist_entry *b)
{
	switch (d) {
	case HD_CHILDREN:
		return cmp_u64_desc(a->acc_period, b->acc_period);
	case HD_OVERHEAD:
	case HD_PERIOD:
		return cmp_u64_desc(a->period, b->period);
	case HD_SAMPLE:
		return cmp_u64_desc(a->nr_samples, b->nr_samples);
	case HD_PID:
		return cmp_s64_asc(a->tid, b->tid);
	case HD_COMM:
		return a->comm == b->comm ? 0 : strcmp(hs->str[a->comm], hs->str[b->comm]);
	case HD_DSO:
		return cmp_dso(hs, a, b);
	case HD_SYM:
		if (!a->sym || !b->sym)
			return cmp_present(a->sym, b->sym, 1);
		return a->sym == b->sym ? 0 : strcmp(symbol_name(a->sym), symbol_name(b->sym));
	case HD_CPU:
		return cmp_s64_asc(a->cpu, b->cpu);
	default:
		return 0;
	}
}

/* perf's se_cmp of dimension d (what orders its input tree). */
static int cmp_dim(const struct hist_strings *hs, enum hist_dim d,
		   const struct hist_entry *a, const struct hist_entry *b)
{
	int r;

	switch (d) {
	case HD_CHILDREN:
	case HD_OVERHEAD:
	case HD_PERIOD:
	case HD_SAMPLE:
		return 0;
	case HD_SYM:
		if (!a->sym && !b->sym)
			return a->addr < b->addr ? -1 : a->addr > b->addr;
		r = cmp_dso(hs, a, b);
		if (r)
			return r;
		if (!a->sym || !b->sym)
			return cmp_present(a->sym, b->sym, 1);
		if (a->sym == b->sym)
			return 0;
		if (symbol_start(a->sym) != symbol_start(b->sym))
			return symbol_start(a->sym) < symbol_start(b->sym) ? -1 : 1;
		if (symbol_end(a->sym) != symbol_end(b->sym))
			return symbol_end(a->sym) < symbol_end(b->sym) ? -1 : 1;
		return 0;
	default:
		return sort_dim(hs, d, a, b);
	}
}

/* perf's hist_entry__cmp(): the order of its input tree. */
static int input_cmp(const struct hists *h, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	const struct hist_layout *lay = h->lay;
	int r;

	for (int i = 0; i < lay->nr_sort; i++) {
		r = cmp_dim(h->strs, lay->sort[i], a, b);
		if (r)
			return r;
	}
	return 0;
}

/*
 * The order perf's red-black tree gives entries inserted one by one with
 * input_cmp().  perf's symbol comparison is not transitive (two unresolved
 * symbols compare by address alone, anything else by DSO name first), so
 * the order depends on the tree's shape: this builds the same tree (the
 * classic insertion fix-up, as the kernel's rbtree) and reads it in order.
 * order[] holds entry numbers, in insertion order on entry, in tree order
 * on return.
 */
static void rbtree_order(const struct hists *h, u32 *order, u32 n)
{
	enum { RED, BLACK };
	const u32 nil = (u32)-1;
	u32 *left = xmalloc(n * sizeof(u32) * 4), *right = left + n;
	u32 *parent = right + n, *stack = parent + n;
	u8 *color = xmalloc(n ? n : 1);
	u32 root = nil, sp = 0, k = 0;

	for (u32 x = 0; x < n; x++) {
		const struct hist_entry *e = &h->entries[order[x]];
		u32 p = nil, c = root, z = x;

		while (c != nil) {
			p = c;
			c = input_cmp(h, e, &h->entries[order[c]]) < 0 ? left[c] : right[c];
		}
		left[x] = right[x] = nil;
		parent[x] = p;
		color[x] = RED;
		if (p == nil)
			root = x;
		else if (input_cmp(h, e, &h->entries[order[p]]) < 0)
			left[p] = x;
		else
			right[p] = x;
		/* fix-up: rotations keep the in-order sequence */
		while (parent[z] != nil && color[parent[z]] == RED) {
			u32 zp = parent[z], g = parent[zp];
			int zp_left = left[g] == zp;
			u32 y = zp_left ? right[g] : left[g];

			if (y != nil && color[y] == RED) {
				color[zp] = color[y] = BLACK;
				color[g] = RED;
				z = g;
				continue;
			}
			if (zp_left ? z == right[zp] : z == left[zp]) {
				/* rotate zp away from z's side */
				u32 t = z;

				z = zp;
				if (zp_left) {
					right[z] = left[t];
					if (left[t] != nil)
						parent[left[t]] = z;
					left[t] = z;
				} else {
					left[z] = right[t];
					if (right[t] != nil)
						parent[right[t]] = z;
					right[t] = z;
				}
				parent[t] = g;
				if (zp_left)
					left[g] = t;
				else
					right[g] = t;
				parent[z] = t;
				zp = t;
			}
			color[zp] = BLACK;
			color[g] = RED;
			/* rotate g toward the other side */
			{
				u32 gg = parent[g];

				if (zp_left) {
					left[g] = right[zp];
					if (right[zp] != nil)
						parent[right[zp]] = g;
					right[zp] = g;
				} else {
					right[g] = left[zp];
					if (left[zp] != nil)
						parent[left[zp]] = g;
					left[zp] = g;
				}
				parent[zp] = gg;
				parent[g] = zp;
				if (gg == nil)
					root = zp;
				else if (left[gg] == g)
					left[gg] = zp;
				else
					right[gg] = zp;
			}
		}
		color[root] = BLACK;
	}
	/* in-order walk into stack-free output */
	{
		u32 *out = xmalloc((n ? n : 1) * sizeof(u32));
		u32 c = root;

		while (c != nil || sp) {
			while (c != nil) {
				stack[sp++] = c;
				c = left[c];
			}
			c = stack[--sp];
			out[k++] = order[c];
			c = right[c];
		}
		memcpy(order, out, n * sizeof(u32));
		free(out);
	}
	free(left);
	free(color);
}

/* Output order of two entries of the hists h (a qsort_r comparator):
 * the sort list's sort functions, ties in perf's input-tree order. */
static int output_cmp(const void *pa, const void *pb, void *vh)
{
	const struct hists *h = vh;
	const struct hist_entry *a = *(struct hist_entry *const *)pa;
	const struct hist_entry *b = *(struct hist_entry *const *)pb;
	const struct hist_layout *lay = h->lay;
	int r;

	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->elide_mask & (1u << lay->sort[i]))
			continue;
		r = sort_dim(h->strs, lay->sort[i], a, b);
		if (r)
			return r;
	}
	return h->rank[a - h->entries] < h->rank[b - h->entries] ? -1 : 1;
}

static void new_width(int *w, int len)
{
	if (len > *w)
		*w = len;
}

/*
 * Gives each entry the comm its creator's string reads now and, when comm
 * is a key and some changed, merges entries whose comms became equal
 * (perf's collapse by strcmp); the earlier entry survives.
 */
static void collapse_comms(struct hists *h)
{
	struct hist_strings *hs = h->strs;
	u32 *final = xmalloc((hs->nr_comm ? hs->nr_comm : 1) * sizeof(u32));
	u32 nr = 0;
	int changed = 0;

	for (u32 i = 0; i < hs->nr_comm; i++)
		final[i] = intern(hs, hs->comm_ptr[i]);
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];

		changed |= e->comm != final[e->comm_slot];
		e->comm = final[e->comm_slot];
	}
	free(final);
	if (!changed || !(h->lay->key_mask & (1u << HD_COMM)))
		return;
	free(h->index);
	h->index_mask = 1023;
	while ((u64)h->nr_entries * 2 > (u64)h->index_mask + 1)
		h->index_mask = h->index_mask * 2 + 1;
	h->index = xcalloc(h->index_mask + 1, sizeof(u64));
	memset(h->hot, 0, sizeof(h->hot));
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];
		u64 slot;
		u32 k;

		e->hash = key_hash(h->lay->key_mask, e);
		for (k = e->hash & h->index_mask; (slot = h->index[k]); k = (k + 1) & h->index_mask) {
			struct hist_entry *o = &h->entries[SLOT_ENTRY(slot)];

			if (o->hash == e->hash && same_key(h->lay->key_mask, o, e))
				break;
		}
		if (slot) {
			struct hist_entry *o = &h->entries[SLOT_ENTRY(slot)];

			o->period += e->period;
			o->acc_period += e->acc_period;
			o->nr_samples += e->nr_samples;
			continue;
		}
		h->entries[nr] = *e;
		h->index[k] = SLOT(e->hash, nr);
		nr++;
	}
	h->nr_entries = nr;
}

void hists_finish(struct hists *h, int dso_list_given)
{
	const struct hist_strings *hs = h->strs;
	int comm_len = 0, unresolved = 0;
	u32 *order;

	collapse_comms(h);

	free(h->sorted);
	h->sorted = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	h->nr_sorted = 0;
	h->total_period = h->total_non_filtered_period = 0;
	h->nr_non_filtered_samples = 0;
	for (int d = 0; d < HD_NR; d++)
		h->col_width[d] = strlen(hist_dim_header(h->lay, d));
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];

		h->total_period += e->period;
		if (e->filtered)
			continue;
		h->total_non_filtered_period += e->period;
		h->nr_non_filtered_samples += e->nr_samples;
		h->sorted[h->nr_sorted++] = e;
		/* perf's hists__calc_col_len() */
		if (e->sym)
			new_width(&h->col_width[HD_SYM], strlen(symbol_name(e->sym)) + 4);
		else
			unresolved = 1;
		new_width(&comm_len, strlen(thread_comm_now(e->thread)));
		if (e->dso)
			new_width(&h->col_width[HD_DSO], hs->len[e->dso_name]);
	}
	/* an unresolved symbol: "[.] 0x" and 16 digits; its DSO column is
	   made as wide as the address unless --dsos was given */
	if (unresolved) {
		new_width(&h->col_width[HD_SYM], 4 + 2 + 16);
		if (!dso_list_given)
			new_width(&h->col_width[HD_DSO], 16);
	}
	new_width(&h->col_width[HD_COMM], comm_len);
	if (comm_len)
		new_width(&h->col_width[HD_PID], comm_len + 8);
	h->col_width[HD_CHILDREN] = 8;
	h->col_width[HD_OVERHEAD] = 8;
	h->col_width[HD_SAMPLE] = 12;
	h->col_width[HD_PERIOD] = 12;
	/* perf's input tree, then (comm is collapsed) its collapsed tree */
	order = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(u32));
	for (u32 i = 0; i < h->nr_entries; i++)
		order[i] = i;
	rbtree_order(h, order, h->nr_entries);
	if (h->lay->key_mask & (1u << HD_COMM))
		rbtree_order(h, order, h->nr_entries);
	h->rank = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(u32));
	for (u32 i = 0; i < h->nr_entries; i++)
		h->rank[order[i]] = i;
	free(order);
	qsort_r(h->sorted, h->nr_sorted, sizeof(*h->sorted), output_cmp, h);
}
