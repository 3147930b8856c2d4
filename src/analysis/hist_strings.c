/*
 * hist_strings.c - the names of the histograms: the interned strings
 * (comm and DSO names get small ids, compared as integers), a sample's
 * names as hists_prepare() reads them (through caches of the last
 * lookups per cpu), and the sample filters, which test names (perf 6.1's
 * util/hist.c filters).
 *
 * Invariants:
 *  - Interned string ids are stable for the life of the hist_strings;
 *    id 0 is reserved for "no DSO" and prints as "[unknown]".
 *  - A filter's verdict is kept per DSO and per symbol: each name is
 *    compared with the lists once.
 */
#include "hist_impl.h"
#include "../util/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
void ptr_map_put(struct ptr_map *m, const void *key, u32 val)
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

u32 hist_intern(struct hist_strings *hs, const char *s)
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

/* ---- the strings of a sample -------------------------------------------- */

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
				hs->comm_sid[id] = hist_intern(hs, comm);
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
	hs->comm_sid[id] = hist_intern(hs, comm);
	hs->comm_epoch[id] = epoch;
	ptr_map_put(&hs->comm_ids, comm, id);
	*slot = id;
	last->comm_slot = id;
	return last->comm_id = hs->comm_sid[id];
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
	p->trace = 0;
	p->addr = al->addr;
	p->level = al->level;
	p->filtered = filtered;
	p->period = period;
	p->thread = al->thread;
	p->seq = 0;
}

u32 hists_trace_id(struct hists *h, const char *text)
{
	return hist_intern(h->strs, text);
}

/* The key (and period) of an add made from prepared with sym. */
u32 hist_dso_id(struct hist_strings *strs, const struct dso *dso)
{
	return dso ? dso_id(strs, dso, &strs->last[0]) : 0;
}

const char *hist_string(const struct hist_strings *strs, u32 id)
{
	return strs->str[id];
}

const char *hist_thread_comm(const struct hists *h, const struct hist_entry *he)
{
	return thread_comm_now(h->origins[he - h->entries].thread);
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
