/*
 * hist_add.c - adding samples to a histogram: perf 6.1's entry merging
 * (util/hist.c), children mode's accumulated periods and the call-graph
 * adds, with the engine's split and prefetching variants (hist_int.h).
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
 */
#include "hist_impl.h"
#include "../util/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	free(h->group_members);
	free(h->group_pair);
	memset(h, 0, sizeof(*h));
}

u32 hist_index_probe(const u64 *index, u32 index_mask, const struct hist_entry *entries,
		     unsigned mask, const struct hist_entry *e, u32 hash)
{
	u32 k = hash & index_mask;
	u64 slot;

	for (; (slot = index[k]); k = (k + 1) & index_mask)
		if (SLOT_HASH(slot) == hash && same_key(mask, &entries[SLOT_ENTRY(slot)], e))
			break;
	return k;
}

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

void hist_entry_room(struct hists *h)
{
	if (h->nr_entries == h->alloc_entries)
		grow_entries(h);
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
	i = hist_index_probe(h->index, h->index_mask, h->entries, mask, &p->key, hash);
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

static void prepared_key(const struct hist_prepared *prepared, const struct symbol *sym,
			 struct hist_entry *key)
{
	key->comm = prepared->comm;
	key->dso_name = prepared->dso_name;
	key->tid = prepared->tid;
	key->cpu = (s16)prepared->cpu;
	key->trace = prepared->trace;
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
	u32 hash = fields_hash(h->lay->key_mask, p->tid, p->comm, p->dso_name, (s16)p->cpu,
			       p->trace, sym, p->addr);

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
		slot = h->index[hist_index_probe(h->index, h->index_mask, h->entries,
						 h->lay->key_mask, &k, hash)];
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
	return add_chain_dso(h, node_al->dso, dso_name_id(h->strs, node_al->dso), node_al->sym,
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
	const u64 w[8] = {
		mask & (1u << HD_PID) ? (u32)k->tid : 0,
		mask & (1u << HD_COMM) ? k->comm : 0,
		mask & (1u << HD_DSO) ? k->dso_name : 0,
		mask & (1u << HD_CPU) ? (u32)k->cpu : 0,
		mask & (1u << HD_TRACE) ? k->trace : 0,
		by_sym ? (k->sym ? (uintptr_t)k->sym : k->addr) : 0,
		by_sym && k->sym,
		(uintptr_t)dso,
	};

	callchain_hash_entry(w, 8, items, levels, nr, hash);
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
		h->walk_dso_names[i] = dso_name_id(h->strs, items[i].dso);
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

/* Applies the adds waiting in the queue. */
void hist_apply_queued(struct hists *h)
{
	while (h->queue_len)
		apply_oldest(h);
}
