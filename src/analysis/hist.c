/*
 * hist.c - the flat histogram: perf 6.1's sort keys, entry merging,
 * filters, output order and column widths (util/hist.c, util/sort.c).
 *
 * Invariants:
 *  - Per sample: two pointer-cache lookups (comm, DSO), a strcmp that
 *    notices a comm rewritten in place (only when the session's comm
 *    epoch moved since that comm was last read) and one probe sequence in the
 *    entry index, whose slots hold the hash so that only a matching entry
 *    is read; an entry is one cache line.  With a symbol key (100,000s of
 *    entries) adds wait HIST_QUEUE adds while their index slot and entry
 *    are prefetched.  No allocation unless a table doubles.
 *  - Children mode: an entry counts a sample once (the entries the sample
 *    reached are remembered); without a symbol key the sample's entries
 *    are told apart by DSO pointer before any lookup.
 *  - Interned string ids are stable for the life of the hist_strings;
 *    id 0 is reserved for "no DSO" and prints as "[unknown]".
 *  - hists_finish() orders entries exactly as perf's output rbtree does:
 *    by the sort list's sort functions, ties in the order of perf's input
 *    tree (the sort list's cmp functions), which is rebuilt node by node
 *    only when those functions are not an order (else a stable sort gives
 *    the same).  Names compare by precomputed strcmp ranks.
 */
#include "hist.h"
#include "rborder.h"
#include "rowsort.h"
#include "../util/arena.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <pthread.h>
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

#define LAST_LOOKUPS 16		/* cpus with lookup caches of their own */

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
	u32 *comm_epoch;	/* comm slot -> session comm epoch then */
	u32 nr_comm, alloc_comm;
	struct last_lookup {	/* per cpu (mod LAST_LOOKUPS): samples of
				   several cpus interleave */
		const struct dso *dso[2];	/* the DSOs looked up last, the
					   latest first (a thread goes back
					   and forth between its program and
					   the kernel) */
		u32 dso_id[2];		/* and their string ids */
		u32 comm_epoch;		/* the comm looked up last, at this
					   session comm epoch, */
		const char *comm;
		u32 comm_slot, comm_id;	/* and what it gave */
	} last[LAST_LOOKUPS];
	struct ptr_map dso_verdict;	/* DSO -> filter verdict */
	struct ptr_map sym_verdict;	/* symbol -> filter verdict */
};

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
		m->keys = xcalloc_written(m->mask + 1, sizeof(*m->keys));
		m->vals = xcalloc_written(m->mask + 1, sizeof(*m->vals));
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
	free(hs->comm_epoch);
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
		u32 *index = xcalloc_written(mask + 1, sizeof(u32));

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

/* The string id of a DSO's short name; last: the cpu's last lookups. */
static inline u32 dso_id(struct hist_strings *hs, const struct dso *dso, struct last_lookup *last)
{
	u32 i, id;

	if (dso == last->dso[0])
		return last->dso_id[0];
	if (dso == last->dso[1]) {
		id = last->dso_id[1];
	} else if (hs->dso_ids.keys[i = ptr_map_slot(&hs->dso_ids, dso)]) {
		id = hs->dso_ids.vals[i];
	} else {
		id = intern(hs, dso_short_name(dso));
		ptr_map_put(&hs->dso_ids, dso, id);
	}
	last->dso[1] = last->dso[0];
	last->dso_id[1] = last->dso_id[0];
	last->dso[0] = dso;
	last->dso_id[0] = id;
	return id;
}

/*
 * The id of the string comm reads now, and in *slot the pointer's slot.
 * The session may rewrite a thread's first comm in place when its COMM
 * arrives (perf's comm__override()): entries are keyed by what the string
 * reads when the sample comes, as perf's tree compares them, and keep the
 * slot so hists_finish() can print what the creator's string reads then.
 * last: the cpu's last lookups.
 */
static inline u32 comm_id(struct hist_strings *hs, const char *comm, u32 epoch, u32 *slot,
			  struct last_lookup *last)
{
	u32 i, id;

	/* the same pointer with no rewrite since: the same answer */
	if (comm && comm == last->comm && epoch == last->comm_epoch) {
		*slot = last->comm_slot;
		return last->comm_id;
	}
	last->comm = comm;
	last->comm_epoch = epoch;
	i = ptr_map_slot(&hs->comm_ids, comm);
	if (hs->comm_ids.keys[i]) {
		id = hs->comm_ids.vals[i];
		*slot = id;
		/* a rewrite happened since the last look: read it again */
		if (hs->comm_epoch[id] != epoch) {
			hs->comm_epoch[id] = epoch;
			if (strcmp(hs->str[hs->comm_sid[id]], comm))
				hs->comm_sid[id] = intern(hs, comm);
		}
		last->comm_slot = id;
		return last->comm_id = hs->comm_sid[id];
	}
	if (hs->nr_comm == hs->alloc_comm) {
		hs->alloc_comm = hs->alloc_comm ? hs->alloc_comm * 2 : 256;
		hs->comm_ptr = xrealloc(hs->comm_ptr, hs->alloc_comm * sizeof(*hs->comm_ptr));
		hs->comm_sid = xrealloc(hs->comm_sid, hs->alloc_comm * sizeof(*hs->comm_sid));
		hs->comm_epoch = xrealloc(hs->comm_epoch, hs->alloc_comm * sizeof(*hs->comm_epoch));
	}
	id = hs->nr_comm++;
	hs->comm_ptr[id] = comm;
	hs->comm_sid[id] = intern(hs, comm);
	hs->comm_epoch[id] = epoch;
	ptr_map_put(&hs->comm_ids, comm, id);
	*slot = id;
	last->comm_slot = id;
	return last->comm_id = hs->comm_sid[id];
}

const char *hist_string(const struct hist_strings *strs, u32 id)
{
	return strs->str[id];
}

const char *hist_thread_comm(const struct hists *h, const struct hist_entry *he)
{
	return thread_comm_now(h->origins[he - h->entries].thread);
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
	if (d == HD_OVERHEAD && lay->self_title)
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
	lay->self_title = children && !strict_fields;
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

/* hist_filter_thread_dso() with some filter set. */
u8 hist_thread_dso_bits(struct hist_strings *hs, const struct hist_filters *flt,
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
	return bits;
}

u8 hist_filter_symbol(struct hist_strings *hs, const struct hist_filters *flt,
		      const struct symbol *sym, int addr_listed)
{
	u32 v = 0;

	if (!flt->symbols)
		return 0;
	/* perf's machine__resolve(): a name in the list, else (with a map)
	   the sample's address in the address list */
	if (sym) {
		u32 i = ptr_map_slot(&hs->sym_verdict, sym);

		if (hs->sym_verdict.keys[i]) {
			v = hs->sym_verdict.vals[i];
		} else {
			v = in_list(flt->symbols, symbol_name(sym));
			ptr_map_put(&hs->sym_verdict, sym, v);
		}
	}
	return v || addr_listed ? 0 : FILTER_SYMBOL;
}

u8 hist_filter_sample(struct hist_strings *hs, const struct hist_filters *flt,
		      const struct addr_location *al, u64 ip)
{
	return hist_filter_thread_dso(hs, flt, al) |
	       hist_filter_symbol(hs, flt, al->sym,
				  hist_symbol_addr_listed(flt, al->map != NULL, ip));
}

/* ---- entries -------------------------------------------------------------- */

void hists_init(struct hists *h, const struct hist_layout *lay, struct hist_strings *strs)
{
	memset(h, 0, sizeof(*h));
	h->lay = lay;
	h->strs = strs;
	h->defer = !!(lay->key_mask & (1u << HD_SYM));
}

void hists_enable_callchains(struct hists *h, enum cc_key key, int caller_first,
			     double print_percent)
{
	h->cc = callchain_forest_new(key);
	h->cc_caller_first = caller_first;
	h->cc_print_percent = print_percent;
	h->defer = 0;
}

void hists_release(struct hists *h)
{
	free(h->seen);
	free((void *)h->chain_dsos);
	free(h->walks);
	free(h->walk_dso_names);
	free(h->cc_roots);
	callchain_forest_free(h->cc);
	free(h->entries);
	free(h->origins);
	free(h->index);
	free(h->sorted);
	free(h->late_entries);
	free(h->input_rank);
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

/* The hash of an entry's key fields (those of mask). */
static inline u32 fields_hash(unsigned mask, s32 tid, u32 comm, u32 dso_name, s32 cpu,
			      const struct symbol *sym, u64 addr)
{
	u64 x = 0;

	if (mask & (1u << HD_PID))
		x = x * 31 + (u32)tid;
	if (mask & (1u << HD_COMM))
		x = x * 31 + comm;
	if (mask & (1u << HD_DSO))
		x = x * 31 + dso_name;
	if (mask & (1u << HD_CPU))
		x = x * 31 + (u32)cpu;
	if (mask & (1u << HD_SYM))
		x = x * 31 + (sym ? (uintptr_t)sym : addr);
	return (u32)hash_u64(x);
}

static inline u32 key_hash(unsigned mask, const struct hist_entry *e)
{
	return fields_hash(mask, e->tid, e->comm, e->dso_name, e->cpu, e->sym, e->addr);
}

/* An index slot: the entry's hash above, its number + 1 below (0: empty),
 * so probes touch an entry only when the hash matches. */
#define SLOT(hash, n)	((u64)(hash) << 32 | ((n) + 1))
#define SLOT_ENTRY(v)	((u32)(v) - 1)
#define SLOT_HASH(v)	((u32)((v) >> 32))

/* The slot of index (index_mask + 1 slots) holding the entry equal to e
 * in the keys of mask, or the empty slot where it goes; hash is e's. */
static u32 index_probe(const u64 *index, u32 index_mask, const struct hist_entry *entries,
		       unsigned mask, const struct hist_entry *e, u32 hash)
{
	u32 k = hash & index_mask;
	u64 slot;

	for (; (slot = index[k]); k = (k + 1) & index_mask)
		if (SLOT_HASH(slot) == hash && same_key(mask, &entries[SLOT_ENTRY(slot)], e))
			break;
	return k;
}

/* Doubles the index (or makes its first one) and refills it. */
/* Makes the index anew with mask + 1 slots. */
static void build_index(struct hists *h, u32 mask)
{
	u64 *index = xcalloc_written((size_t)mask + 1, sizeof(u64));

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

/* Doubles the index, or makes it big enough for the entries. */
static void grow_index(struct hists *h)
{
	u32 mask = 4095;

	if (h->index) {
		build_index(h, h->index_mask * 2 + 1);
		return;
	}
	while ((u64)h->nr_entries * 2 > (u64)mask + 1)
		mask = mask * 2 + 1;
	build_index(h, mask);
}

_Static_assert(sizeof(struct hist_entry) == 64, "an entry is one cache line");

/* Doubles the room for entries (kept on cache lines) and their origins. */
static void grow_entries(struct hists *h)
{
	u32 n = h->alloc_entries ? h->alloc_entries * 2 : 1024;
	struct hist_entry *e;

	if (h->alloc_entries >= 1u << 30)
		die("histogram: too many entries");
	e = aligned_alloc(64, (size_t)n * sizeof(*e));
	if (!e)
		die("out of memory");
	if (h->nr_entries)
		memcpy(e, h->entries, (size_t)h->nr_entries * sizeof(*e));
	free(h->entries);
	h->entries = e;
	h->origins = xrealloc(h->origins, (size_t)n * sizeof(*h->origins));
	if (h->cc) {
		h->cc_roots = xrealloc(h->cc_roots, (size_t)n * sizeof(*h->cc_roots));
		memset(h->cc_roots + h->alloc_entries, 0,
		       (size_t)(n - h->alloc_entries) * sizeof(*h->cc_roots));
	}
	h->alloc_entries = n;
}

/* Finds the entry of p's key, or makes it from the key (zero counts).
 * Returns its number; *created says which. */
static u32 find_or_make(struct hists *h, const struct hist_pending *p, int *created)
{
	unsigned mask = h->lay->key_mask;
	u32 hash = p->key.hash, i, n;
	struct hist_entry *e;
	u64 slot;

	if (!h->index)
		grow_index(h);
	i = index_probe(h->index, h->index_mask, h->entries, mask, &p->key, hash);
	if ((slot = h->index[i])) {
		*created = 0;
		return SLOT_ENTRY(slot);
	}
	if (h->nr_entries == h->alloc_entries)
		grow_entries(h);
	n = h->nr_entries++;
	e = &h->entries[n];
	*e = p->key;
	e->period = e->acc_period = e->nr_samples = 0;
	h->origins[n] = p->origin;
	h->index[i] = SLOT(hash, n);
	if (h->nr_entries * 2 > h->index_mask + 1)
		grow_index(h);
	/* the name is printed and sorted on: demangled now, while the
	   samples come, not all at once when the report is made */
	if ((mask & (1u << HD_SYM)) && e->sym)
		symbol_name(e->sym);
	*created = 1;
	return n;
}

/* Makes room for n in seen[] and chain_dsos[]. */
static inline void seen_room(struct hists *h, u32 n)
{
	if (n <= h->alloc_seen)
		return;
	h->alloc_seen = n < 256 ? 256 : 2 * n;
	h->seen = xrealloc(h->seen, h->alloc_seen * sizeof(*h->seen));
	h->chain_dsos = xrealloc(h->chain_dsos, h->alloc_seen * sizeof(*h->chain_dsos));
}

/* A sample reached entry n itself (not by its chain): its counts, and the
 * entry as the only one the sample has seen. */
static inline void count_sample(struct hists *h, u32 n, u64 period)
{
	struct hist_entry *e = &h->entries[n];

	e->period += period;
	e->acc_period += period;
	e->nr_samples++;
	seen_room(h, 1);
	h->seen[0] = n;
	h->nr_seen = 1;
}

struct seq_entry {
	u64 seq;
	u32 entry;
};

static int seq_entry_cmp(const void *pa, const void *pb)
{
	const struct seq_entry *a = pa, *b = pb;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/*
 * Late adds made or took over entries: puts the entries back in the order
 * their first samples came in (the entries one sample made, in the order
 * it made them), which is what ties in the output follow.  The others were
 * made in that order already: the late ones, sorted, merge into them.
 * The call-graph roots stay where they were: returns where each entry
 * came from (for place_roots()).
 */
static u32 *restore_order(struct hists *h)
{
	u32 n = h->nr_entries, nr_late = 0, k = 0, j = 0;
	u8 *mark = xcalloc(n ? n : 1, 1);	/* first: the late entries */
	struct seq_entry *late = xmalloc((h->nr_late_entries + 1) * sizeof(*late));
	u32 *order = xmalloc((n ? n : 1) * sizeof(*order));

	for (u32 i = 0; i < h->nr_late_entries; i++) {
		u32 e = h->late_entries[i];

		if (mark[e])
			continue;
		mark[e] = 1;
		late[nr_late].seq = h->origins[e].seq;
		late[nr_late++].entry = e;
	}
	qsort(late, nr_late, sizeof(*late), seq_entry_cmp);
	for (u32 i = 0; i < n; i++) {
		if (mark[i])
			continue;
		while (k < nr_late && seq_entry_cmp(&late[k], &(struct seq_entry){
				h->origins[i].seq, i }) < 0)
			order[j++] = late[k++].entry;
		order[j++] = i;
	}
	while (k < nr_late)
		order[j++] = late[k++].entry;
	/* in place, a cycle at a time (mark now says which places are done) */
	memset(mark, 0, n);
	for (u32 i = 0; i < n; i++) {
		struct hist_entry e;
		struct hist_origin o;
		u32 to = i;

		if (mark[i] || order[i] == i)
			continue;
		e = h->entries[i];
		o = h->origins[i];
		for (;;) {
			u32 from = order[to];

			mark[to] = 1;
			if (from == i)
				break;
			h->entries[to] = h->entries[from];
			h->origins[to] = h->origins[from];
			to = from;
		}
		h->entries[to] = e;
		h->origins[to] = o;
	}
	free(mark);
	free(late);
	/* made again for the next add */
	free(h->index);
	h->index = NULL;
	h->index_mask = 0;
	h->last_entry = HIST_NO_ENTRY;
	h->nr_late_entries = 0;
	return order;
}

/* Moves the call-graph roots as restore_order() moved the entries (moved:
 * what it returned, or NULL), and frees moved. */
static void place_roots(struct hists *h, u32 *moved)
{
	u32 *roots;

	if (!moved || !h->cc) {
		free(moved);
		return;
	}
	roots = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*roots));
	for (u32 i = 0; i < h->nr_entries; i++)
		roots[i] = h->cc_roots[moved[i]];
	memcpy(h->cc_roots, roots, h->nr_entries * sizeof(*roots));
	free(roots);
	free(moved);
}

/* A late add reached entry n before the sample that made it: the entry
 * becomes the late one's, as if it had come in order. */
static void take_over(struct hists *h, u32 n, const struct hist_pending *p)
{
	struct hist_entry *e = &h->entries[n];
	struct hist_entry old = *e;
	u32 depth = h->origins[n].max_depth;

	*e = p->key;
	e->period = old.period;
	e->acc_period = old.acc_period;
	e->nr_samples = old.nr_samples;
	e->hash = old.hash;
	h->origins[n] = p->origin;
	if (depth > h->origins[n].max_depth)
		h->origins[n].max_depth = depth;
}

/* Applies one add; returns as hists_add(). */
static int apply(struct hists *h, const struct hist_pending *p)
{
	int created, ask_sym = 0;
	u32 n = find_or_make(h, p, &created);
	struct hist_entry *e = &h->entries[n];

	if (created && !e->filtered && !e->sym) {
		if (!e->dso_name)
			h->unresolved_shown = 1;
		else
			ask_sym = !h->unresolved_shown;
	}
	if (p->late && (created || p->origin.seq < h->origins[n].seq)) {
		if (!created)
			take_over(h, n, p);
		if (h->nr_late_entries == h->alloc_late_entries) {
			h->alloc_late_entries = h->alloc_late_entries ? 2 * h->alloc_late_entries
								      : 1024;
			h->late_entries = xrealloc(h->late_entries, h->alloc_late_entries *
							    sizeof(*h->late_entries));
		}
		h->late_entries[h->nr_late_entries++] = n;
	}
	h->last_entry = n;
	if (!p->chain) {
		count_sample(h, n, p->key.period);
		return ask_sym;
	}
	/* perf counts a chain's entry once per sample */
	if (!created)
		for (u32 i = 0; i < h->nr_seen; i++)
			if (h->seen[i] == n) {
				h->last_entry = HIST_NO_ENTRY;
				return 0;
			}
	e->acc_period += p->key.period;
	seen_room(h, h->nr_seen + 1);
	h->seen[h->nr_seen++] = n;
	return ask_sym;
}

/* Applies the oldest queued add. */
static void apply_oldest(struct hists *h)
{
	apply(h, &h->queue[h->queue_head]);
	h->queue_head = (h->queue_head + 1) & (HIST_QUEUE - 1);
	h->queue_len--;
}

/*
 * Applies p at once, or queues it: then its index slot is prefetched now,
 * and its entry half a queue later (once the slot has arrived), so that
 * both are in the cache when it is applied a full queue later.
 */
static int add(struct hists *h, const struct hist_pending *p)
{
	if (!h->defer)
		return apply(h, p);
	if (h->queue_len == HIST_QUEUE)
		apply_oldest(h);
	h->queue[(h->queue_head + h->queue_len++) & (HIST_QUEUE - 1)] = *p;
	if (h->index) {
		__builtin_prefetch(&h->index[p->key.hash & h->index_mask]);
		if (h->queue_len > HIST_QUEUE / 2) {
			const struct hist_pending *mid =
				&h->queue[(h->queue_head + HIST_QUEUE / 2) & (HIST_QUEUE - 1)];
			u64 slot = h->index[mid->key.hash & h->index_mask];

			if (slot && SLOT_HASH(slot) == mid->key.hash)
				__builtin_prefetch(&h->entries[SLOT_ENTRY(slot)], 1);
		}
	}
	return 0;
}

void hists_prepare(struct hists *h, const struct addr_location *al, s32 cpu,
		   u64 period, u8 filtered, struct hist_prepared *p)
{
	struct hist_strings *hs = h->strs;
	struct last_lookup *last = &hs->last[(u32)cpu % LAST_LOOKUPS];

	p->comm = comm_id(hs, al->comm, al->comm_epoch, &p->comm_slot, last);
	p->dso_name = al->dso ? dso_id(hs, al->dso, last) : 0;
	p->tid = al->tid;
	p->cpu = cpu;
	p->addr = al->addr;
	p->level = al->level;
	p->filtered = filtered;
	p->period = period;
	p->thread = al->thread;
	p->seq = 0;
}

/* The key (and period) of an add made from prepared with sym. */
static void prepared_key(const struct hist_prepared *prepared, const struct symbol *sym,
			 struct hist_entry *key)
{
	key->comm = prepared->comm;
	key->dso_name = prepared->dso_name;
	key->tid = prepared->tid;
	key->cpu = prepared->cpu;
	key->sym = sym;
	key->addr = prepared->addr;
	key->level = prepared->level;
	key->filtered = prepared->filtered;
	key->period = prepared->period;
}

int hists_add_prepared(struct hists *h, const struct hist_prepared *prepared,
		       const struct symbol *sym, u8 filtered, const struct dso *dso, int late)
{
	struct hist_pending *p = &h->cur;

	memset(p, 0, sizeof(*p));
	prepared_key(prepared, sym, &p->key);
	p->key.filtered |= filtered;
	p->origin.thread = prepared->thread;
	p->origin.comm_slot = prepared->comm_slot;
	p->origin.seq = prepared->seq;
	p->late = late;
	p->key.hash = key_hash(h->lay->key_mask, &p->key);
	seen_room(h, 1);
	h->chain_dsos[0] = dso;
	h->nr_chain_dsos = 1;
	h->nr_samples++;
	return add(h, p);
}

void hists_prefetch(const struct hists *h, const struct hist_prepared *prepared,
		    const struct symbol *sym, int stage)
{
	struct hist_entry k;
	u32 hash;
	u64 slot;

	if (!h->index)
		return;
	prepared_key(prepared, sym, &k);
	hash = key_hash(h->lay->key_mask, &k);
	if (stage == 0) {
		__builtin_prefetch(&h->index[hash & h->index_mask]);
		return;
	}
	slot = h->index[hash & h->index_mask];
	if (slot && SLOT_HASH(slot) == hash) {
		__builtin_prefetch(&h->entries[SLOT_ENTRY(slot)]);
		/* hists_callgraph_walks() reads its origin */
		if (h->cc)
			__builtin_prefetch(&h->origins[SLOT_ENTRY(slot)]);
	}
}

/*
 * Flat adds.  The key hists_add_prepared() would build from prepared and
 * sym, its hash, and the add itself without the queue (the caller
 * prefetches): the same entries in the same order, for a fraction of the
 * work.
 */
u32 hists_flat_hash(const struct hists *h, const struct hist_prepared *p,
		    const struct symbol *sym)
{
	u32 hash = fields_hash(h->lay->key_mask, p->tid, p->comm, p->dso_name, p->cpu, sym,
			       p->addr);

	if (h->index)
		__builtin_prefetch(&h->index[hash & h->index_mask]);
	return hash;
}

void hists_flat_prefetch(const struct hists *h, u32 hash)
{
	u64 slot;

	if (!h->index)
		return;
	slot = h->index[hash & h->index_mask];
	if (slot && SLOT_HASH(slot) == hash)
		__builtin_prefetch(&h->entries[SLOT_ENTRY(slot)], 1);
}

void hists_add_flat(struct hists *h, const struct hist_prepared *prepared,
		    const struct symbol *sym, u8 filtered, u32 hash, int late)
{
	/* adds queued before go first */
	while (h->queue_len)
		apply_oldest(h);
	h->nr_samples++;
	if (!late && h->index) {
		/* most samples reach an entry that exists: what apply()
		   does then, without making the add */
		struct hist_entry k;
		u64 slot;

		prepared_key(prepared, sym, &k);
		slot = h->index[index_probe(h->index, h->index_mask, h->entries, h->lay->key_mask,
					    &k, hash)];
		if (slot) {
			h->last_entry = SLOT_ENTRY(slot);
			count_sample(h, h->last_entry, prepared->period);
			return;
		}
	}
	struct hist_pending p = {
		.origin = { .thread = prepared->thread, .comm_slot = prepared->comm_slot,
			    .seq = prepared->seq },
		.late = late,
	};

	prepared_key(prepared, sym, &p.key);
	p.key.filtered |= filtered;
	p.key.hash = hash;
	apply(h, &p);
}

int hists_add(struct hists *h, const struct addr_location *al, s32 cpu,
	      u64 period, u8 filtered)
{
	struct hist_prepared p;

	hists_prepare(h, al, cpu, period, filtered, &p);
	return hists_add_prepared(h, &p, al->sym, 0, al->dso, 0);
}

u32 hist_dso_id(struct hist_strings *strs, const struct dso *dso)
{
	return dso ? dso_id(strs, dso, &strs->last[0]) : 0;
}

int hists_add_chain_node(struct hists *h, u32 dso_name, const struct symbol *sym,
			 u64 addr, char level)
{
	/* the sample's add (applied or queued: a copy) is the template;
	   each node sets every field it changes */
	struct hist_pending *p = &h->cur;

	p->chain = 1;
	p->key.dso_name = dso_name;
	p->key.sym = sym;
	p->key.addr = addr;
	p->key.level = level;
	p->key.hash = key_hash(h->lay->key_mask, &p->key);
	return add(h, p);
}

/* A chain node's add from its DSO, that DSO's name id and its symbol:
 * without a symbol key the sample's entries are named by their DSOs
 * alone, so a DSO seen in this sample is an entry already counted. */
static int add_chain_dso(struct hists *h, const struct dso *dso, u32 dso_name,
			 const struct symbol *sym, u64 addr, char level)
{
	if (!(h->lay->key_mask & (1u << HD_SYM))) {
		for (u32 i = 0; i < h->nr_chain_dsos; i++)
			if (h->chain_dsos[i] == dso) {
				h->last_entry = HIST_NO_ENTRY;
				return 0;
			}
		seen_room(h, h->nr_chain_dsos + 1);
		h->chain_dsos[h->nr_chain_dsos++] = dso;
	}
	return hists_add_chain_node(h, dso_name, sym, addr, level);
}

int hists_add_chain(struct hists *h, const struct addr_location *node_al,
		    u64 addr, char level)
{
	return add_chain_dso(h, node_al->dso, hist_dso_id(h->strs, node_al->dso), node_al->sym,
			     addr, level);
}

/* How many chain items ahead hists_callgraph_walks() fetches (a power of 2). */
#define CHAIN_AHEAD 8

u32 hists_callgraph_walks(struct hists *h, const struct cc_item *items, const u32 *dso_names,
			  const char *levels, u32 nr, int children, struct cc_walk *walks)
{
	u32 n = 0;

	if (!h->cc || !nr)
		return 0;
	/* the sample's entry, then (children mode) each item's (none when
	   this sample reached it already) */
	if (h->last_entry != HIST_NO_ENTRY)
		walks[n++] = (struct cc_walk){ h->last_entry, 0 };
	if (children && (h->lay->key_mask & (1u << HD_SYM)) && h->index) {
		/* the items' index slots are fetched CHAIN_AHEAD items
		   before their adds, their entries half of that before */
		u32 hash[CHAIN_AHEAD];

		for (u32 i = 0; i < nr + CHAIN_AHEAD; i++) {
			if (i < nr) {
				struct hist_entry k = h->cur.key;

				k.dso_name = dso_names[i];
				k.sym = items[i].sym;
				k.addr = items[i].ip;
				hash[i % CHAIN_AHEAD] = key_hash(h->lay->key_mask, &k);
				__builtin_prefetch(&h->index[hash[i % CHAIN_AHEAD] & h->index_mask]);
			}
			if (i >= CHAIN_AHEAD / 2 && i - CHAIN_AHEAD / 2 < nr) {
				u32 x = hash[(i - CHAIN_AHEAD / 2) % CHAIN_AHEAD];
				u64 slot = h->index[x & h->index_mask];

				if (slot && SLOT_HASH(slot) == x)
					__builtin_prefetch(&h->entries[SLOT_ENTRY(slot)], 1);
			}
			if (i >= CHAIN_AHEAD) {
				u32 j = i - CHAIN_AHEAD;

				add_chain_dso(h, items[j].dso, dso_names[j], items[j].sym,
					      items[j].ip, levels[j]);
				if (h->last_entry != HIST_NO_ENTRY)
					walks[n++] = (struct cc_walk){ h->last_entry, j };
			}
		}
		children = 0;
	}
	for (u32 i = 0; children && i < nr; i++) {
		add_chain_dso(h, items[i].dso, dso_names[i], items[i].sym, items[i].ip,
			      levels[i]);
		if (h->last_entry != HIST_NO_ENTRY)
			walks[n++] = (struct cc_walk){ h->last_entry, i };
	}
	for (u32 w = 0; w < n; w++) {
		struct hist_origin *o = &h->origins[walks[w].tree];

		if (nr - walks[w].start > o->max_depth)
			o->max_depth = nr - walks[w].start;
	}
	return n;
}

/* hists_chain_key() of an entry key: the fields same_key() compares, and
 * the sample's DSO (add_chain_dso() skips it without a symbol key). */
static void chain_key(const struct hists *h, const struct hist_entry *k, const struct dso *dso,
		      const struct cc_item *items, const char *levels, u32 nr,
		      struct cc_chain_hash *hash)
{
	unsigned mask = h->lay->key_mask;
	int by_sym = (mask & (1u << HD_SYM)) != 0;
	const u64 w[7] = {
		mask & (1u << HD_PID) ? (u32)k->tid : 0,
		mask & (1u << HD_COMM) ? k->comm : 0,
		mask & (1u << HD_DSO) ? k->dso_name : 0,
		mask & (1u << HD_CPU) ? (u32)k->cpu : 0,
		by_sym ? (k->sym ? (uintptr_t)k->sym : k->addr) : 0,
		by_sym && k->sym,
		(uintptr_t)dso,
	};

	callchain_hash_entry(w, 7, items, levels, nr, hash);
}

void hists_chain_key(const struct hists *h, const struct hist_prepared *p,
		     const struct symbol *sym, const struct dso *dso, const struct cc_item *items,
		     const char *levels, u32 nr, struct cc_chain_hash *hash)
{
	struct hist_entry k;

	prepared_key(p, sym, &k);
	chain_key(h, &k, dso, items, levels, nr, hash);
}

void hists_record_callgraph(struct hists *h, const struct cc_chain_hash *hash,
			    const struct cc_item *items, const u32 *dso_names, const char *levels,
			    u32 nr, u64 period, struct cc_walk *walks)
{
	u32 n;

	if (!h->cc || !nr || h->last_entry == HIST_NO_ENTRY)
		return;
	if (callchain_record_again(h->cc, hash, period))
		return;
	n = hists_callgraph_walks(h, items, dso_names, levels, nr, 1, walks);
	callchain_record_hashed(h->cc, hash, walks, n, items, nr, period);
}

/* What hists_record_callgraph() left for the end: each record's later
 * samples credited to the entries its chain reaches past the sample's
 * own (walks[0], credited by their adds), as their walks would have. */
static void credit_records(struct hists *h)
{
	const struct callchain_forest *f = h->cc;

	for (u32 i = 0; i < f->nr_seen; i++) {
		const struct chain_rec *r = &f->recs[i];
		const struct cc_walk *w = f->rec_walks + r->walk;

		if (!r->again_period)
			continue;
		for (u32 k = 1; k < r->nr_walks; k++)
			h->entries[w[k].tree].acc_period += r->again_period;
	}
}

void hists_add_callgraph(struct hists *h, const struct cc_item *items, const char *levels,
			 u32 nr, u64 period, int children)
{
	u32 n;

	if (nr + 1 > h->alloc_walks) {
		h->alloc_walks = nr + 1;
		h->walks = xrealloc(h->walks, (size_t)h->alloc_walks * sizeof(*h->walks));
		h->walk_dso_names = xrealloc(h->walk_dso_names,
					     (size_t)h->alloc_walks * sizeof(*h->walk_dso_names));
	}
	for (u32 i = 0; children && i < nr; i++)
		h->walk_dso_names[i] = hist_dso_id(h->strs, items[i].dso);
	if (children) {
		struct cc_chain_hash hash;

		chain_key(h, &h->cur.key, h->chain_dsos[0], items, levels, nr, &hash);
		hists_record_callgraph(h, &hash, items, h->walk_dso_names, levels, nr, period,
				       h->walks);
		return;
	}
	n = hists_callgraph_walks(h, items, h->walk_dso_names, levels, nr, children, h->walks);
	callchain_record(h->cc, h->walks, n, items, nr, period);
}

void hists_set_sym(struct hists *h, const struct symbol *sym)
{
	struct hist_entry *e;

	if (h->defer || !h->nr_entries)
		return;
	e = &h->entries[h->nr_entries - 1];
	e->sym = sym;
	if (!sym && !e->filtered)
		h->unresolved_shown = 1;
}

/* ---- output order ----------------------------------------------------------- */

/*
 * What perf's input tree compares, per entry, with names replaced by
 * their rank in strcmp order (perf compares DSO and comm names with
 * strcmp; interned strings are equal only when their ids are).
 */
struct tree_key {
	u64 start, end;		/* the symbol's range, or start: the address */
	u32 comm, dso;		/* name ranks; no DSO ranks last */
	s32 tid, cpu;
	u32 entry;		/* its number: insertion order */
	u8 has_sym;
	const char *inlined;	/* an inlined entry's name, else NULL */
};

static inline int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

static inline int cmp_s32(s32 a, s32 b)
{
	return a < b ? -1 : a > b;
}

/* perf's address comparisons: the sign of the wrapping difference */
static inline int cmp_wrap(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's hist_entry__cmp(): the order of its input tree (the sort list's
 * se_cmp functions). */
static int input_cmp(const struct hist_layout *lay, const struct tree_key *a,
		     const struct tree_key *b)
{
	int r = 0;

	for (int i = 0; i < lay->nr_sort && !r; i++) {
		switch (lay->sort[i]) {
		case HD_PID:
			r = cmp_s32(a->tid, b->tid);
			break;
		case HD_COMM:
			r = cmp_u64(a->comm, b->comm);
			break;
		case HD_DSO:
			r = cmp_u64(a->dso, b->dso);
			break;
		case HD_CPU:
			r = cmp_s32(a->cpu, b->cpu);
			break;
		case HD_SYM:
			/* two unresolved: by address; else DSO, resolved
			   first, then the symbols' ranges */
			if (!a->has_sym && !b->has_sym) {
				r = cmp_wrap(a->start, b->start);
				break;
			}
			r = cmp_u64(a->dso, b->dso);
			if (!r && a->has_sym != b->has_sym)
				return a->has_sym ? -1 : 1;
			if (!r && (a->inlined || b->inlined)) {
				/* perf: inlined ones by name, and the same
				   when their ranges touch */
				r = strcmp(a->inlined ? a->inlined : "", b->inlined ? b->inlined : "");
				if (r)
					break;
				if (a->start <= b->end && a->end >= b->start)
					continue;
			}
			if (!r)
				r = cmp_wrap(a->start, b->start);
			if (!r)
				r = cmp_wrap(a->end, b->end);
			break;
		default:	/* the counts do not order the input tree */
			break;
		}
	}
	return r;
}

struct input_tree {
	const struct hist_layout *lay;
	const struct tree_key *keys;	/* by entry number */
	const u32 *node_entry;	/* each node's entry; NULL: node x is entry x */
};

static int input_goes_left(const void *vt, u32 x, u32 c)
{
	const struct input_tree *t = vt;

	if (t->node_entry) {
		x = t->node_entry[x];
		c = t->node_entry[c];
	}
	return input_cmp(t->lay, &t->keys[x], &t->keys[c]) < 0;
}

static int cmp_str_ids(const void *a, const void *b, void *vhs)
{
	const struct hist_strings *hs = vhs;

	return strcmp(hs->str[*(const u32 *)a], hs->str[*(const u32 *)b]);
}

/* The rank of every interned string in strcmp order; id 0 ("no DSO")
 * ranks last, as perf's cmp_null() puts entries without a DSO after the
 * others in both its trees. */
static u32 *string_ranks(const struct hist_strings *hs)
{
	u32 *ids = xmalloc(hs->nr * sizeof(u32)), *rank = xmalloc(hs->nr * sizeof(u32));

	for (u32 i = 0; i < hs->nr - 1; i++)
		ids[i] = i + 1;
	qsort_r(ids, hs->nr - 1, sizeof(u32), cmp_str_ids, (void *)hs);
	rank[0] = hs->nr;
	for (u32 i = 0; i < hs->nr - 1; i++)
		rank[ids[i]] = i + 1;
	free(ids);
	return rank;
}

/* Is the DSO a sort key before the symbol (which is one)? */
static int dso_before_sym(const struct hist_layout *lay)
{
	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->sort[i] == HD_DSO)
			return (lay->key_mask & (1u << HD_SYM)) != 0;
		if (lay->sort[i] == HD_SYM)
			return 0;
	}
	return 0;
}

/* Rows below this count get no thread of their own in hists_finish(). */
#define PARALLEL_SORT_MIN 16384

/*
 * Rows of u64 words that sort as input_cmp() compares when it is a total
 * preorder (see input_ranks()): the sort keys in order (the symbol as
 * three words: unresolved, start, end), then the entry number.
 * *words gets the row length, *sym_word the symbol's first word (-1 when
 * the layout has no symbol).
 */
static u64 *input_rows(const struct hist_layout *lay, const struct tree_key *keys, u32 n,
		       int *words, int *sym_word)
{
	int nw = 0;
	u64 *rows;

	*sym_word = -1;
	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->sort[i] == HD_SYM)
			*sym_word = nw;
		if (lay->sort[i] >= HD_PID)
			nw += lay->sort[i] == HD_SYM ? 3 : 1;
	}
	nw++;
	rows = xmalloc(((size_t)n ? n : 1) * nw * sizeof(u64));
	for (u32 j = 0; j < n; j++) {
		const struct tree_key *k = &keys[j];
		u64 *row = rows + (size_t)j * nw;
		int w = 0;

		for (int i = 0; i < lay->nr_sort; i++) {
			switch (lay->sort[i]) {
			case HD_PID:
				row[w++] = (u32)k->tid ^ 0x80000000u;
				break;
			case HD_COMM:
				row[w++] = k->comm;
				break;
			case HD_DSO:
				row[w++] = k->dso;
				break;
			case HD_CPU:
				row[w++] = (u32)k->cpu ^ 0x80000000u;
				break;
			case HD_SYM:
				/* the DSO came first: resolved ones by range,
				   then unresolved ones by address */
				row[w++] = !k->has_sym;
				row[w++] = k->start;
				row[w++] = k->end;
				break;
			default:
				break;
			}
		}
		row[w] = k->entry;
	}
	*words = nw;
	return rows;
}

/* The order of input_cmp() when it is a total preorder, ties in
 * insertion order: out[] gets keys' entry numbers in that order. */
static void input_sort(const struct hist_layout *lay, const struct tree_key *keys,
		       u32 n, u32 *out, int threads)
{
	int words, sym_word;
	u64 *rows = input_rows(lay, keys, n, &words, &sym_word);
	u32 *order = rows_order(rows, n, words, -1, threads);

	for (u32 j = 0; j < n; j++)
		out[j] = rows[(size_t)order[j] * words + words - 1];
	free(order);
	free(rows);
}

/*
 * When the DSO is a key before the symbol: entries equal in the keys
 * before the symbol (a group) all have one DSO, and the groups are in the
 * order of those keys.  Within a group input_cmp() is an order (resolved
 * ones first, by range, then unresolved ones by address) unless its
 * addresses span half the 64-bit circle, where wrapping differences do
 * not order them, or it has inlined entries.  sorted[] gets the entry
 * numbers in the order of input_rows().  When every group is ordered,
 * input_cmp() is a total preorder, sorted[] is the tree's order, and this
 * returns NULL.  Else rank[] gets each entry's group and, in an ordered
 * group, its place there (equal entries the same; RB_BY_RANK); in a group
 * whose addresses span the circle, its class (resolved first) and start
 * (RB_BY_KEY); groups with inlined entries are left to input_cmp()
 * (RB_BY_CALL); and this returns how each group compares, the caller's to
 * free.  any_inlined: some key has an inlined entry (else none is read).
 */
static u8 *input_ranks(const struct hist_layout *lay, const struct tree_key *keys, u32 n,
		       int any_inlined, struct rb_rank *rank, u32 *sorted, int threads)
{
	int words, sym_word;
	u64 *rows = input_rows(lay, keys, n, &words, &sym_word);
	u8 *unordered = xcalloc((size_t)n + 1, 1);
	u32 group = 0, start = 0;
	int any_unordered = 0;

	rows_sort(rows, n, words, -1, threads);
	for (u32 j = 0; j < n; j++)
		sorted[j] = rows[(size_t)j * words + words - 1];
	/* how each group compares, from the rows (the symbol's words: not
	   resolved, start, end) */
	for (u32 j = 1; j <= n; j++) {
		u64 lo = ~0ULL, hi = 0;
		int inlined = 0;

		if (j < n && !memcmp(rows + (size_t)j * words, rows + (size_t)start * words,
				     sym_word * sizeof(u64)))
			continue;
		/* rows start..j are a group */
		for (u32 i = start; i < j; i++) {
			const u64 *r = rows + (size_t)i * words;
			u64 a = r[sym_word + 1], b = r[sym_word] ? a : r[sym_word + 2];

			inlined |= any_inlined && keys[r[words - 1]].inlined;
			lo = a < lo ? a : lo;
			lo = b < lo ? b : lo;
			hi = a > hi ? a : hi;
			hi = b > hi ? b : hi;
		}
		unordered[group] = inlined ? RB_BY_CALL : hi - lo >= 1ULL << 63 ? RB_BY_KEY :
				   RB_BY_RANK;
		any_unordered |= unordered[group] != RB_BY_RANK;
		group++;
		start = j;
	}
	if (!any_unordered) {
		free(rows);
		free(unordered);
		return NULL;
	}
	/* the groups' ranks */
	group = start = 0;
	for (u32 j = 1; j <= n; j++) {
		u32 within = 0;

		if (j < n && !memcmp(rows + (size_t)j * words, rows + (size_t)start * words,
				     sym_word * sizeof(u64)))
			continue;
		for (u32 i = start; i < j; i++) {
			const u64 *r = rows + (size_t)i * words;
			struct rb_rank *rk = &rank[r[words - 1]];

			if (i > start && memcmp(r, r - words, (words - 1) * sizeof(u64)))
				within++;
			rk->rank = (u64)group << 32 | (unordered[group] ? 0 : within);
			rk->cls = !keys[r[words - 1]].has_sym;
			rk->key = keys[r[words - 1]].start;
		}
		group++;
		start = j;
	}
	free(rows);
	return unordered;
}

/* An entry's place in its DSO for the input tree: its symbol's range, or
 * (unresolved) its address and 0. */
static inline void entry_range(const struct hist_entry *e, u64 *start, u64 *end)
{
	*start = e->sym ? symbol_start(e->sym) : e->addr;
	*end = e->sym ? symbol_end(e->sym) : 0;
}

/* The input tree's key of entry i; rank: the strings' ranks. */
static void tree_key_of(const struct hists *h, const u32 *rank, u32 i, struct tree_key *k)
{
	const struct hist_entry *e = &h->entries[i];

	k->has_sym = !!e->sym;
	k->inlined = e->sym && symbol_inlined(e->sym) ? symbol_name(e->sym) : NULL;
	entry_range(e, &k->start, &k->end);
	k->comm = rank[e->comm];
	k->dso = rank[e->dso_name];
	k->tid = e->tid;
	k->cpu = e->cpu;
	k->entry = i;
}

/*
 * The input tree's order: out[] gets the entry numbers in tree order.
 * With a total preorder the tree's order is that of a stable sort (an
 * equal node goes right of those already in), and collapsing it into a
 * second tree keeps it.
 */
static void input_order(const struct hists *h, const u32 *rank, u32 *out)
{
	const struct hist_layout *lay = h->lay;
	u32 n = h->nr_entries, *pos, *place;
	struct tree_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	const struct input_tree t = { lay, keys, NULL };
	struct rb_rank *group_rank = NULL;
	u8 *unordered = NULL;
	int any_inlined = 0, threads = h->one_thread ? 1 : 2;

	for (u32 i = 0; i < n; i++) {
		tree_key_of(h, rank, i, &keys[i]);
		any_inlined |= keys[i].inlined != NULL;
	}
	/* without a symbol key every comparison is an order */
	if (!(lay->key_mask & (1u << HD_SYM))) {
		input_sort(lay, keys, n, out, threads);
		free(keys);
		return;
	}
	if (dso_before_sym(lay)) {
		group_rank = xmalloc((n ? n : 1) * sizeof(*group_rank));
		unordered = input_ranks(lay, keys, n, any_inlined, group_rank, out, threads);
		if (!unordered) {
			free(group_rank);
			free(keys);
			return;
		}
		/* each node kept at its place in the sorted rows (out) */
		place = xmalloc((n ? n : 1) * sizeof(*place));
		for (u32 i = 0; i < n; i++)
			place[out[i]] = i;
		rbtree_build_ranked(n, group_rank, unordered, input_goes_left, &t, place, out);
		free(place);
	} else {
		rbtree_build(n, input_goes_left, &t, out);
	}
	/* (out holds entry numbers: a node's number is its entry's.)  With
	   comm a key perf collapses the input tree into a second one,
	   inserted in the first one's order: its node i is entry out[i]. */
	if (lay->key_mask & (1u << HD_COMM)) {
		const struct input_tree t2 = { lay, keys, out };

		pos = xmalloc((n ? n : 1) * sizeof(u32));
		if (group_rank) {
			struct rb_rank *again_rank = xmalloc((n ? n : 1) * sizeof(*again_rank));

			for (u32 i = 0; i < n; i++)
				again_rank[i] = group_rank[out[i]];
			rbtree_build_ranked(n, again_rank, unordered, input_goes_left, &t2, NULL,
					    pos);
			free(again_rank);
		} else {
			rbtree_build(n, input_goes_left, &t2, pos);
		}
		for (u32 i = 0; i < n; i++)
			pos[i] = out[pos[i]];
		memcpy(out, pos, n * sizeof(*out));
		free(pos);
	}
	free(group_rank);
	free(unordered);
	free(keys);
}

/*
 * Output order: perf's se_sort functions of the shown sort keys, ties in
 * input-tree order.  Each shown entry gets a row of u64 keys that compare
 * as those functions (counts descending, names by rank), the symbol's
 * pointer for the symbol key (compared by name, unresolved last), and
 * last its input-tree rank above its entry number.
 */
/* The first 8 bytes of sym's name as a big-endian number (which orders as
 * strcmp() does, up to ties), all ones for none (unresolved go last). */
static u64 name_prefix(const struct symbol *sym)
{
	const unsigned char *name;
	u64 v = 0;
	int i;

	if (!sym)
		return ~0ULL;
	name = (const unsigned char *)symbol_name(sym);
	for (i = 0; i < 8 && name[i]; i++)
		v = v << 8 | name[i];
	return i ? v << (8 * (8 - i)) : 0;
}

/* Dense numbers for the threads of the sorted rows' entries (equal
 * threads, equal numbers): ids[j] for row j. */
static void thread_ids(const struct hists *h, const u64 *rows, int stride, u32 n, u32 *ids)
{
	u32 mask = 15, next = 0;
	const struct thread **key;
	u32 *val;

	while (mask + 1 < 2 * (u64)n)
		mask = mask * 2 + 1;
	key = xcalloc_written((size_t)mask + 1, sizeof(*key));
	val = xmalloc(((size_t)mask + 1) * sizeof(*val));
	for (u32 j = 0; j < n; j++) {
		const struct thread *t = h->origins[(u32)rows[(size_t)j * stride + stride - 1]].thread;
		u32 k = (u32)hash_u64((uintptr_t)t) & mask;

		/* NULL, never a key, gets the id n */
		if (!t) {
			ids[j] = n;
			continue;
		}
		while (key[k] && key[k] != t)
			k = (k + 1) & mask;
		if (!key[k]) {
			key[k] = t;
			val[k] = next++;
		}
		ids[j] = val[k];
	}
	free(key);
	free(val);
}

/*
 * perf's __hpp__sort_acc() with call graphs: entries of equal children
 * period and the same thread put the one with the deeper chain first in
 * caller order (last in callee order); other pairs go on to the next
 * keys.  That is not an order, so h->sorted gets the rows' entries
 * (sorted, children period first, each its place's rank) in the order of
 * perf's output tree, the entries inserted in input-tree order (the high
 * half of their rows' last word): rbtree_build_ranked() with groups of
 * equal children period, keyed by thread and depth.
 */
static void depth_order(struct hists *h, const u64 *rows, int stride)
{
	u32 n = h->nr_sorted, ne = h->nr_entries, k = 0, group = 0;
	u32 *by_tree = xmalloc((ne ? ne : 1) * sizeof(u32));
	u32 *groups = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *input = xmalloc((n ? n : 1) * sizeof(u32)), *order = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *ids = xmalloc((n ? n : 1) * sizeof(u32));
	struct rb_rank *ranks = xmalloc((n ? n : 1) * sizeof(*ranks));
	u8 *how = xmalloc((size_t)n + 1);

	memset(how, h->cc_caller_first ? RB_BY_SUBKEY_DESC : RB_BY_SUBKEY_ASC, (size_t)n + 1);
	memset(by_tree, 0xff, (ne ? ne : 1) * sizeof(u32));
	for (u32 j = 0; j < n; j++)
		by_tree[rows[(size_t)j * stride + stride - 1] >> 32] = j;
	for (u32 r = 0; r < ne; r++)
		if (by_tree[r] != ~0u)
			input[k++] = by_tree[r];
	thread_ids(h, rows, stride, n, ids);
	/* a row's group: its children period's, in sorted order */
	for (u32 j = 0; j < n; j++) {
		const u64 *row = rows + (size_t)j * stride;

		if (j && row[0] != row[-stride])
			group++;
		groups[j] = group;
	}
	for (u32 x = 0; x < n; x++) {
		u32 j = input[x];
		const struct hist_origin *o = &h->origins[(u32)rows[(size_t)j * stride + stride - 1]];

		ranks[x].rank = (u64)groups[j] << 32 | j;
		ranks[x].key = (u64)ids[j] << 32 | o->max_depth;
		ranks[x].cls = 0;
	}
	/* each node kept at its row's place */
	rbtree_build_ranked(n, ranks, how, NULL, NULL, input, order);
	for (u32 x = 0; x < n; x++)
		h->sorted[x] = &h->entries[(u32)rows[(size_t)input[order[x]] * stride + stride - 1]];
	free(by_tree);
	free(groups);
	free(input);
	free(order);
	free(ids);
	free(ranks);
	free(how);
}

/* Each entry's place in the input tree (input_order()), by entry
 * number; the caller's to free. */
static u32 *tree_ranks(const struct hists *h, const u32 *rank)
{
	u32 n = h->nr_entries;
	u32 *order = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *tree_rank = xmalloc((n ? n : 1) * sizeof(u32));

	input_order(h, rank, order);
	for (u32 i = 0; i < n; i++)
		tree_rank[order[i]] = i;
	free(order);
	return tree_rank;
}

/* output_order()'s rows but their last words, which need the input
 * order: made on a thread while that is found (a job of these). */
struct output_rows {
	struct hists *h;
	const u32 *rank;	/* string ranks */
	int range_words;	/* rows end in the symbol's range (start, end)
				   before the entry number (see
				   ties_by_range()) */
	u64 *rows;
	int nr_keys, sym_key, stride;
	int cc_depth;		/* children period first: depth_order() */
	u8 *unordered;		/* with range_words: string id -> that DSO's
				   entries do not order by range */
};

/*
 * Can ties in the output order (entries perf's output sort finds equal)
 * be put in input-tree order by the symbol's range?  Entries that tie
 * agree on every shown sort key; when none is hidden, they differ in the
 * input tree's keys only in the symbol's range (or address), and when
 * their group is ordered (see input_ranks()) the tree has them in the
 * order of (start, end), then of creation.  That holds without call
 * chains (whose order needs the whole tree), without a symbol key, and
 * with the DSO before it; for groups that are not ordered
 * output_order_direct() falls back to the tree.
 */
static int ties_by_range(const struct hists *h)
{
	const struct hist_layout *lay = h->lay;

	return !h->cc && !h->need_input_rank && !(lay->elide_mask & lay->key_mask) &&
	       (!(lay->key_mask & (1u << HD_SYM)) || dso_before_sym(lay));
}

/* Per string id, 1 for a DSO whose entries do not order by range: one is
 * inlined, or their addresses span half the 64-bit circle (then the
 * wrapping comparisons of any group inside it may not order it).
 * Without a symbol key: NULL (nothing is compared by range). */
static u8 *unordered_dsos(const struct hists *h)
{
	u32 nr_strs = h->strs->nr;
	u64 *lo, *hi;
	u8 *bad;

	if (!(h->lay->key_mask & (1u << HD_SYM)))
		return NULL;
	bad = xcalloc(nr_strs, 1);
	lo = xmalloc(nr_strs * sizeof(*lo));
	hi = xmalloc(nr_strs * sizeof(*hi));
	memset(lo, 0xff, nr_strs * sizeof(*lo));
	memset(hi, 0, nr_strs * sizeof(*hi));
	for (u32 i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = &h->entries[i];
		u32 d = e->dso_name;
		u64 a, b;

		entry_range(e, &a, &b);
		if (!e->sym)
			b = a;	/* an address is a point */
		if (e->sym && symbol_inlined(e->sym))
			bad[d] = 1;
		lo[d] = a < lo[d] ? a : lo[d];
		lo[d] = b < lo[d] ? b : lo[d];
		hi[d] = a > hi[d] ? a : hi[d];
		hi[d] = b > hi[d] ? b : hi[d];
	}
	for (u32 d = 0; d < nr_strs; d++)
		if (hi[d] >= lo[d] && hi[d] - lo[d] >= 1ULL << 63)
			bad[d] = 1;
	free(lo);
	free(hi);
	return bad;
}

/* The rows of h->sorted[from, to), for output_rows(). */
struct row_fill {
	const struct output_rows *o;
	const enum hist_dim *dims;	/* o->nr_keys of them */
	u32 from, to;
};

static void *fill_rows(void *arg)
{
	const struct row_fill *f = arg;
	const struct output_rows *o = f->o;
	const struct hists *h = o->h;
	const u32 *rank = o->rank;
	int nr_keys = o->nr_keys;

	for (u32 j = f->from; j < f->to; j++) {
		const struct hist_entry *e = h->sorted[j];
		u64 *row = o->rows + (size_t)j * o->stride;

		for (int i = 0; i < nr_keys; i++) {
			switch (f->dims[i]) {
			case HD_CHILDREN:
				row[i] = ~e->acc_period;
				break;
			case HD_OVERHEAD:
			case HD_PERIOD:
				row[i] = ~e->period;
				break;
			case HD_SAMPLE:
				row[i] = ~e->nr_samples;
				break;
			case HD_PID:
				row[i] = (u32)e->tid ^ 0x80000000u;
				break;
			case HD_COMM:
				row[i] = rank[e->comm];
				break;
			case HD_DSO:
				row[i] = rank[e->dso_name];
				break;
			case HD_SYM:
				row[i] = (uintptr_t)e->sym;
				break;
			case HD_CPU:
				row[i] = (u32)e->cpu ^ 0x80000000u;
				break;
			default:	/* the symbol name's prefix */
				row[i] = name_prefix(e->sym);
				break;
			}
		}
		if (o->range_words)
			entry_range(e, &row[nr_keys], &row[nr_keys + 1]);
	}
	return NULL;
}

/* Makes o's rows (a big table's second half on another thread). */
static void *output_rows(void *arg)
{
	struct output_rows *o = arg;
	struct hists *h = o->h;
	const struct hist_layout *lay = h->lay;
	enum hist_dim dims[HD_NR + 1];
	int nr_keys = 0, sym_key = -1;
	u32 n = h->nr_sorted;
	struct row_fill first = { o, dims, 0, n }, second = { o, dims, n / 2, n };
	pthread_t thread;
	int threaded = 0;

	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->elide_mask & (1u << lay->sort[i]))
			continue;
		if (lay->sort[i] == HD_SYM) {
			/* the name's first bytes, then the symbol */
			dims[nr_keys++] = HD_NR;
			sym_key = nr_keys;
		}
		dims[nr_keys++] = lay->sort[i];
	}
	o->nr_keys = nr_keys;
	o->sym_key = sym_key;
	o->stride = nr_keys + 1 + (o->range_words ? 2 : 0);
	o->cc_depth = h->cc && dims[0] == HD_CHILDREN;
	o->rows = xmalloc(((size_t)n ? n : 1) * o->stride * sizeof(u64));
	if (n > PARALLEL_SORT_MIN && !h->one_thread) {
		threaded = !pthread_create(&thread, NULL, fill_rows, &second);
		if (threaded)
			first.to = n / 2;
	}
	fill_rows(&first);
	if (o->range_words)
		o->unordered = unordered_dsos(h);
	if (threaded)
		pthread_join(thread, NULL);
	return NULL;
}

/* Orders h->sorted by the rows o made, their last words (input-tree rank
 * above the entry number) set now; frees them. */
static void output_order(struct hists *h, struct output_rows *o, const u32 *tree_rank)
{
	u64 *rows = o->rows;
	int stride = o->stride;

	for (u32 j = 0; j < h->nr_sorted; j++) {
		u32 n = h->sorted[j] - h->entries;

		rows[(size_t)j * stride + stride - 1] = (u64)tree_rank[n] << 32 | n;
	}
	rows_sort(rows, h->nr_sorted, stride, o->sym_key, h->one_thread ? 1 : 2);
	if (o->cc_depth)
		depth_order(h, rows, stride);
	else
		for (u32 j = 0; j < h->nr_sorted; j++)
			h->sorted[j] = &h->entries[(u32)rows[(size_t)j * stride + stride - 1]];
	free(rows);
}

/*
 * output_order() with range words (ties_by_range()): no input-tree ranks
 * are needed, but for ties in DSOs that do not order by range, which get
 * them from the whole tree.
 */
static void output_order_direct(struct hists *h, struct output_rows *o, const u32 *rank)
{
	u64 *rows = o->rows;
	int stride = o->stride, nr_keys = o->nr_keys;
	u32 *tree_rank = NULL;

	for (u32 j = 0; j < h->nr_sorted; j++)
		rows[(size_t)j * stride + stride - 1] = (u64)(h->sorted[j] - h->entries);
	rows_sort(rows, h->nr_sorted, stride, o->sym_key, h->one_thread ? 1 : 2);
	for (u32 j = 0, end; o->unordered && j < h->nr_sorted; j = end) {
		u64 *run = rows + (size_t)j * stride;
		int bad = 0;

		for (end = j + 1; end < h->nr_sorted &&
		     !rows_cmp(run, rows + (size_t)end * stride, nr_keys, o->sym_key); end++)
			;
		for (u32 k = j; end - j > 1 && k < end; k++)
			bad |= o->unordered[h->entries[(u32)rows[(size_t)k * stride + stride - 1]]
					    .dso_name];
		if (!bad)
			continue;
		if (!tree_rank)
			tree_rank = tree_ranks(h, rank);
		for (u32 k = j; k < end; k++) {
			u64 *r = rows + (size_t)k * stride;
			u32 n = (u32)r[stride - 1];

			r[nr_keys] = r[nr_keys + 1] = 0;
			r[stride - 1] = (u64)tree_rank[n] << 32 | n;
		}
		rows_sort(run, end - j, stride, o->sym_key, 1);
	}
	free(tree_rank);
	free(o->unordered);
	for (u32 j = 0; j < h->nr_sorted; j++)
		h->sorted[j] = &h->entries[(u32)rows[(size_t)j * stride + stride - 1]];
	free(rows);
}

static void new_width(int *w, int len)
{
	if (len > *w)
		*w = len;
}

/*
 * Gives each entry the comm its creator's string reads now; returns 1
 * when comm is a key and some changed: then merge_comms() must follow,
 * with *created (malloc'ed) holding each entry's comm as it read when the
 * entry was made.
 */
static int rewrite_comms(struct hists *h, u32 **created)
{
	struct hist_strings *hs = h->strs;
	u32 *final = xmalloc((hs->nr_comm ? hs->nr_comm : 1) * sizeof(u32));
	int changed = 0, by_comm = (h->lay->key_mask & (1u << HD_COMM)) != 0;
	u32 *old = by_comm ? xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(u32)) : NULL;

	for (u32 i = 0; i < hs->nr_comm; i++)
		final[i] = intern(hs, hs->comm_ptr[i]);
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];
		u32 comm = final[h->origins[i].comm_slot];

		if (old)
			old[i] = e->comm;
		changed |= e->comm != comm;
		e->comm = comm;
	}
	free(final);
	if (!changed || !by_comm) {
		free(old);
		*created = NULL;
		return 0;
	}
	*created = old;
	return 1;
}

/* An entry of a group merge_comms() merges: the group's new place, the
 * entry's old one, and its comm when it was made. */
struct comm_member {
	u32 group, entry;
	const char *created;
};

static int comm_member_cmp(const void *pa, const void *pb)
{
	const struct comm_member *a = pa, *b = pb;
	int r;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if ((r = strcmp(a->created, b->created)))
		return r;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/*
 * The call-graph trees of merge_comms()' groups (group[i]: entry i's new
 * place; roots: the trees by old place), merged as perf's collapse merges
 * them: it takes its input tree in order, the first entry of a group
 * stays and the others' paths are added to its tree in that order (with
 * a count of one each).  perf made each entry with the comm it read then
 * (created[]: a thread's placeholder ":tid" before its name came) and
 * its input tree, sorted by that, is in strcmp order of those comms
 * (ascending) within a group.
 */
static void merge_comm_trees(struct hists *h, const u32 *group, const u32 *roots,
			     const u32 *created, u32 n)
{
	u32 *size = xcalloc(h->nr_entries ? h->nr_entries : 1, sizeof(u32)), nr = 0;
	struct comm_member *m;

	for (u32 i = 0; i < n; i++)
		size[group[i]]++;
	m = xmalloc((n ? n : 1) * sizeof(*m));
	for (u32 i = 0; i < n; i++) {
		if (size[group[i]] < 2) {
			h->cc_roots[group[i]] = roots[i];
			continue;
		}
		m[nr].group = group[i];
		m[nr].entry = i;
		m[nr++].created = h->strs->str[created[i]];
	}
	qsort(m, nr, sizeof(*m), comm_member_cmp);
	for (u32 j = 0; j < nr; j++) {
		if (j && m[j].group == m[j - 1].group)
			callchain_merge(h->cc, &h->cc_roots[m[j].group], roots[m[j].entry]);
		else
			h->cc_roots[m[j].group] = roots[m[j].entry];
	}
	free(m);
	free(size);
}

/* Merges entries whose comms became equal (perf's collapse by strcmp);
 * the earliest entry of a group takes the group's place, the trees merge
 * as merge_comm_trees() says (created: rewrite_comms()'). */
static void merge_comms(struct hists *h, const u32 *created)
{
	u32 n = h->nr_entries, nr = 0, *group = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *roots = NULL;

	if (h->cc) {
		roots = xmalloc((n ? n : 1) * sizeof(u32));
		memcpy(roots, h->cc_roots, n * sizeof(u32));
	}
	free(h->index);
	h->index_mask = 1023;
	while ((u64)h->nr_entries * 2 > (u64)h->index_mask + 1)
		h->index_mask = h->index_mask * 2 + 1;
	h->index = xcalloc_written(h->index_mask + 1, sizeof(u64));
	for (u32 i = 0; i < n; i++) {
		struct hist_entry *e = &h->entries[i];
		u64 slot;
		u32 k;

		e->hash = key_hash(h->lay->key_mask, e);
		k = index_probe(h->index, h->index_mask, h->entries, h->lay->key_mask, e, e->hash);
		if ((slot = h->index[k])) {
			struct hist_entry *o = &h->entries[SLOT_ENTRY(slot)];

			o->period += e->period;
			o->acc_period += e->acc_period;
			o->nr_samples += e->nr_samples;
			/* perf compares comms by what they read when a sample
			   comes: after the rewrite its later samples went into
			   the earlier entry, whose chains then reached deeper */
			if (h->origins[i].max_depth > h->origins[SLOT_ENTRY(slot)].max_depth)
				h->origins[SLOT_ENTRY(slot)].max_depth = h->origins[i].max_depth;
			group[i] = SLOT_ENTRY(slot);
			continue;
		}
		h->entries[nr] = *e;
		h->origins[nr] = h->origins[i];
		h->index[k] = SLOT(e->hash, nr);
		group[i] = nr++;
	}
	h->nr_entries = nr;
	if (h->cc)
		merge_comm_trees(h, group, roots, created, n);
	free(roots);
	free(group);
}

/*
 * Which entries' trees can print a node: none whose period (its tree's
 * total) is below the threshold of cc_print_percent of the total period,
 * summed over the entries merge_comms() will merge it with (those equal
 * in every key, their comms rewritten already).  NULL: all of them (no
 * threshold, or filtered entries, which make the total the output uses
 * uncertain).
 */
static u8 *trees_needed(const struct hists *h)
{
	unsigned mask = h->lay->key_mask;
	u32 n = h->nr_entries, index_mask = 1023, *group;
	u64 total = 0, min_hit, *sum, *index;
	u8 *need;

	if (h->cc_print_percent <= 0)
		return NULL;
	for (u32 i = 0; i < n; i++) {
		if (h->entries[i].filtered)
			return NULL;
		total += h->entries[i].period;
	}
	min_hit = (u64)(total * (h->cc_print_percent / 100));
	if (!min_hit)
		return NULL;
	while ((u64)n * 2 > (u64)index_mask + 1)
		index_mask = index_mask * 2 + 1;
	index = xcalloc_written((size_t)index_mask + 1, sizeof(*index));
	group = xmalloc((n ? n : 1) * sizeof(*group));
	sum = xcalloc(n ? n : 1, sizeof(*sum));
	for (u32 i = 0; i < n; i++) {
		const struct hist_entry *e = &h->entries[i];
		u32 hash = key_hash(mask, e), k;
		u64 slot;

		k = index_probe(index, index_mask, h->entries, mask, e, hash);
		if (!(slot = index[k]))
			index[k] = slot = SLOT(hash, i);
		group[i] = SLOT_ENTRY(slot);
		sum[group[i]] += e->acc_period;
	}
	need = xmalloc(n ? n : 1);
	for (u32 i = 0; i < n; i++)
		need[i] = sum[group[i]] >= min_hit;
	free(index);
	free(group);
	free(sum);
	return need;
}

static void *finish_trees(void *forest)
{
	callchain_finish(forest);
	return NULL;
}

/* What hists_finish() asks of the trees' thread. */
struct tree_job {
	struct hists *h;
	u8 *need;		/* trees_needed() */
};

/* Builds the trees needed (at the entries' numbers before
 * restore_order()) and their sibling lists. */
static void *build_trees(void *vjob)
{
	struct tree_job *job = vjob;

	callchain_build(job->h->cc, job->h->cc_roots, job->need);
	callchain_finish(job->h->cc);
	return NULL;
}

/* Starts fn(arg) on a thread (returns 1), or runs it here (0). */
static int run_trees(const struct hists *h, pthread_t *thread, void *(*fn)(void *), void *arg)
{
	if (!h->one_thread && !pthread_create(thread, NULL, fn, arg))
		return 1;
	fn(arg);
	return 0;
}

/* The column widths' job: the shown entries' name lengths. */
struct width_job {
	struct hists *h;
	int dso_list_given;
	struct hist_entry **shown;	/* a copy of h->sorted, or NULL */
};

/* perf's hists__calc_col_len() over the shown entries (h->sorted, any
 * order): a job that reads names only, run while the entries are ordered. */
static void *column_widths(void *arg)
{
	const struct width_job *job = arg;
	struct hists *h = job->h;
	const struct hist_strings *hs = h->strs;
	int comm_len = 0, unresolved = 0;

	for (int d = 0; d < HD_NR; d++)
		h->col_width[d] = strlen(hist_dim_header(h->lay, d));
	for (u32 j = 0; j < h->nr_sorted; j++) {
		const struct hist_entry *e = job->shown ? job->shown[j] : h->sorted[j];

		if (e->sym)
			new_width(&h->col_width[HD_SYM], strlen(symbol_name(e->sym)) + 4);
		else
			unresolved = 1;
		new_width(&comm_len, strlen(thread_comm_now(h->origins[e - h->entries].thread)));
		if (e->dso_name)
			new_width(&h->col_width[HD_DSO], hs->len[e->dso_name]);
	}
	/* an unresolved symbol: "[.] 0x" and 16 digits; its DSO column is
	   made as wide as the address unless --dsos was given */
	if (unresolved) {
		new_width(&h->col_width[HD_SYM], 4 + 2 + 16);
		if (!job->dso_list_given)
			new_width(&h->col_width[HD_DSO], 16);
	}
	new_width(&h->col_width[HD_COMM], comm_len);
	if (comm_len)
		new_width(&h->col_width[HD_PID], comm_len + 8);
	h->col_width[HD_CHILDREN] = 8;
	h->col_width[HD_OVERHEAD] = 8;
	h->col_width[HD_SAMPLE] = 12;
	h->col_width[HD_PERIOD] = 12;
	return NULL;
}

void hists_finish(struct hists *h, int dso_list_given)
{
	u32 *tree_rank, *rank;
	struct width_job widths = { h, dso_list_given, NULL };
	struct output_rows outrows = { 0 };
	pthread_t trees, widths_thread, rows_thread;
	int trees_threaded = 0, widths_threaded, rows_threaded, comms_changed;
	struct tree_job job = { h, NULL };
	u32 *moved = NULL, *created_comms;

	while (h->queue_len)
		apply_oldest(h);
	if (h->cc)
		credit_records(h);
	/* the comms as the entries print (trees_needed() groups by them) */
	comms_changed = rewrite_comms(h, &created_comms);
	/* the trees are built meanwhile: nothing below reads them or their
	   roots until the merges, which wait for them */
	if (h->cc) {
		job.need = trees_needed(h);
		trees_threaded = run_trees(h, &trees, build_trees, &job);
	}
	if (h->nr_late_entries)
		moved = restore_order(h);
	if (comms_changed) {
		if (trees_threaded)
			pthread_join(trees, NULL);
		trees_threaded = 0;
		if (moved) {
			/* created_comms by the entries' new places */
			u32 *at = xmalloc(h->nr_entries * sizeof(*at));

			for (u32 i = 0; i < h->nr_entries; i++)
				at[i] = created_comms[moved[i]];
			free(created_comms);
			created_comms = at;
		}
		place_roots(h, moved);
		moved = NULL;
		merge_comms(h, created_comms);
		free(created_comms);
		if (h->cc)
			trees_threaded = run_trees(h, &trees, finish_trees, h->cc);
	}

	free(h->sorted);
	h->sorted = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	h->nr_sorted = 0;
	h->total_period = h->total_non_filtered_period = 0;
	h->nr_non_filtered_samples = 0;
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];

		h->total_period += e->period;
		if (e->filtered)
			continue;
		h->total_non_filtered_period += e->period;
		h->nr_non_filtered_samples += e->nr_samples;
		h->sorted[h->nr_sorted++] = e;
	}
	/* the widths read the shown entries while output_order() only
	   reorders the pointers to them: a copy for the widths */
	widths_threaded = 0;
	if (!h->one_thread && h->nr_sorted > PARALLEL_SORT_MIN) {
		widths.shown = xmalloc(h->nr_sorted * sizeof(*widths.shown));
		memcpy(widths.shown, h->sorted, h->nr_sorted * sizeof(*widths.shown));
		widths_threaded = !pthread_create(&widths_thread, NULL, column_widths, &widths);
	}
	if (!widths_threaded)
		column_widths(&widths);

	rank = string_ranks(h->strs);
	outrows.h = h;
	outrows.rank = rank;
	outrows.range_words = ties_by_range(h);
	if (outrows.range_words) {
		output_rows(&outrows);
		output_order_direct(h, &outrows, rank);
		tree_rank = NULL;
	} else {
		/* the output rows are made while the input order is found */
		rows_threaded = h->nr_sorted > PARALLEL_SORT_MIN && !h->one_thread &&
				!pthread_create(&rows_thread, NULL, output_rows, &outrows);
		if (!rows_threaded)
			output_rows(&outrows);
		tree_rank = tree_ranks(h, rank);
		if (rows_threaded)
			pthread_join(rows_thread, NULL);
		output_order(h, &outrows, tree_rank);
	}
	free(h->input_rank);
	h->input_rank = tree_rank;
	free(rank);
	if (widths_threaded)
		pthread_join(widths_thread, NULL);
	free(widths.shown);
	if (trees_threaded)
		pthread_join(trees, NULL);
	place_roots(h, moved);
	free(job.need);
}
