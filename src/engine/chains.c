/*
 * chains.c - the report engine's call graphs on several threads: the
 * record thread hands each sample with its resolved chain to the
 * histogram thread (eng->chain_q: item_chain), which adds the entries and
 * hands the chains and the entries they reach on to the thread that
 * records them for the trees (eng->record_q: item_record).  Also the
 * cache of symbol lookups the thread that looks symbols up keeps.
 */
#include "engine_int.h"

#include <assert.h>
#include <string.h>

/* The record thread's work on one batch: the chains' keys first, then
 * the records, the memory each reads fetched some items ahead. */
void chains_consume_records(void *arg, const void *items, size_t len)
{
	struct engine *eng = arg;
	struct rec_ahead *ra = eng->rec_ahead;
	const unsigned char *p = items, *end = p + len;
	u32 n = 0;

	while (p < end) {
		const struct item_record *it = (const void *)p;
		const struct cc_item *chain = (const void *)(it + 1);

		ra->item[n] = it;
		callchain_hash((const void *)(chain + it->nr), it->nr_walks, chain, it->nr,
			       &ra->hash[n++]);
		p += ITEM_RECORD_SIZE(it->nr, it->nr_walks);
	}
	assert(p == end && n <= RECORDS_PER_BATCH);
	for (u32 i = 0; i < n; i++) {
		const struct item_record *it = ra->item[i];
		const struct cc_item *chain = (const void *)(it + 1);

		if (i + RECORD_FAR < n)
			callchain_record_prefetch(eng->hists[ra->item[i + RECORD_FAR]->evsel_idx].cc,
						  &ra->hash[i + RECORD_FAR], 0);
		if (i + RECORD_NEAR < n)
			callchain_record_prefetch(eng->hists[ra->item[i + RECORD_NEAR]->evsel_idx].cc,
						  &ra->hash[i + RECORD_NEAR], 1);
		callchain_record_hashed(eng->hists[it->evsel_idx].cc, &ra->hash[i],
					(const void *)(chain + it->nr), it->nr_walks, chain,
					it->nr, it->period);
	}
}

/*
 * Looks v[0..n) up through the cache (eng->sym_cache), the slots fetched
 * far lookups ahead and, for those that miss, the symbol's bucket near
 * lookups ahead; sets each item's symbol and match value.
 */
static void lookup_cached(struct engine *eng, struct sym_lookup *v, u32 n, u32 far,
			  u32 near)
{
	struct sym_cache *cache = eng->sym_cache;

	for (u32 i = 0; i < n; i++)
		v[i].slot = sym_cache_slot(v[i].dso, v[i].addr);
	for (u32 i = 0; i < n; i++) {
		struct sym_cache_slot *c = &cache->slot[v[i].slot];
		struct cc_item item;

		if (i + far < n)
			__builtin_prefetch(&cache->slot[v[i + far].slot]);
		if (i + near < n) {
			const struct sym_cache_slot *ahead = &cache->slot[v[i + near].slot];
			struct sym_probe probe;

			if (ahead->gen != cache->gen || ahead->dso != v[i + near].dso ||
			    ahead->addr != v[i + near].addr)
				session_probe_start(v[i + near].dso, v[i + near].addr, &probe);
		}
		if (c->gen != cache->gen || c->dso != v[i].dso || c->addr != v[i].addr) {
			item.ip = 0;
			item.dso = v[i].dso;
			item.sym = session_find_symbol(eng->session, v[i].dso, v[i].addr);
			c->dso = v[i].dso;
			c->addr = v[i].addr;
			c->sym = item.sym;
			c->match = item.sym ? cc_item_match(CC_KEY_FUNCTION, &item) : 0;
			c->gen = cache->gen;
		}
		*v[i].sym = c->sym;
		/* cc_item_match(): without a symbol or by address, the address */
		if (v[i].item)
			v[i].item->match = c->sym && eng->cfg->cg.key == CC_KEY_FUNCTION ? c->match :
					   v[i].item->ip;
	}
}

/* How far ahead chains_lookup_symbols() fetches: one chain's lookups. */
#define CHAIN_FAR 4
#define CHAIN_NEAR 2

/* How far ahead lookup_chains() fetches, over a batch: a cache slot
 * LOOKUP_FAR lookups ahead has time to come in before it is read
 * LOOKUP_NEAR ahead (to start the symbol's lookup on a miss). */
#define LOOKUP_FAR 32
#define LOOKUP_NEAR 8

/* The symbols of the cursor's items that have a map and none yet (through
 * the cache), and what each item matches by. */
void chains_lookup_symbols(struct engine *eng, struct chain_cursor *c)
{
	struct cc_item *items = c->items;
	u32 n = 0;

	for (u32 i = 0; i < c->nr; i++) {
		if (items[i].dso && !items[i].sym)
			c->lookups[n++] = (struct sym_lookup){ (struct dso *)items[i].dso,
							       c->als[i].addr, &items[i].sym,
							       &items[i], 0 };
		else
			items[i].match = cc_item_match(eng->cfg->cg.key, &items[i]);
	}
	lookup_cached(eng, c->lookups, n, CHAIN_FAR, CHAIN_NEAR);
}

/* The session's sync hook with call graphs: the histogram thread idle
 * (with eng->cg_lookup), the cached lookups forgotten. */
void chains_sync(void *arg)
{
	struct engine *eng = arg;

	if (eng->cg_lookup)
		batchq_sync(eng->chain_q);
	eng->sym_cache->gen++;
}

/* The most lookups a batch of item_chains needs: one per item and one per
 * sample (whose header is bigger than an item). */
#define LOOKUPS_PER_BATCH (QUEUE_BATCH / sizeof(struct cc_item) + 1)

/* eng->cg_lookup: the symbols and match values of a batch of
 * item_chains, through the cache (lookup_cached()). */
static void lookup_chains(struct engine *eng, unsigned char *p, const unsigned char *end)
{
	struct sym_lookup *v = eng->lookups;
	u32 n = 0;

	for (unsigned char *q = p; q < end; ) {
		struct item_chain *it = (void *)q;
		struct cc_item *chain = (void *)(it + 1);

		if (it->dso)
			v[n++] = (struct sym_lookup){ (struct dso *)it->dso, it->prepared.addr,
						      &it->sym, NULL, 0 };
		for (u32 i = 0; i < it->nr; i++) {
			if (!chain[i].dso) {
				chain[i].match = cc_item_match(eng->cfg->cg.key, &chain[i]);
				continue;
			}
			v[n++] = (struct sym_lookup){ (struct dso *)chain[i].dso, chain[i].match,
						      &chain[i].sym, &chain[i], 0 };
		}
		q += ITEM_CHAIN_SIZE(it->nr, eng->cfg->children);
	}
	lookup_cached(eng, v, n, LOOKUP_FAR, LOOKUP_NEAR);
}

/* The histogram thread's work on one batch of chains. */
void chains_consume(void *arg, const void *items, size_t len)
{
	struct engine *eng = arg;
	const unsigned char *p = items, *end = p + len;
	const struct item_chain **v = eng->chain_items;
	struct cc_chain_hash *keys = eng->chain_keys;
	u32 nr = 0;

	/* the batch is this thread's until it returns */
	if (eng->cg_lookup)
		lookup_chains(eng, (unsigned char *)p, end);
	while (p < end) {
		const struct item_chain *it = (const void *)p;
		const struct cc_item *chain = (const void *)(it + 1);

		/* children mode: each sample's record key, to fetch ahead */
		if (eng->cfg->children)
			hists_chain_key(&eng->hists[it->evsel_idx], &it->prepared, it->sym, it->dso,
					chain, (const char *)((const u32 *)(chain + it->nr) + it->nr),
					it->nr, &keys[nr]);
		v[nr++] = it;
		p += ITEM_CHAIN_SIZE(it->nr, eng->cfg->children);
	}
	assert(p == end);
	for (u32 k = 0; k < nr; k++) {
		const struct item_chain *it = v[k];
		const struct cc_item *chain = (const void *)(it + 1);
		const u32 *dso_names = eng->cfg->children ? (const void *)(chain + it->nr) : NULL;
		const char *levels = eng->cfg->children ? (const void *)(dso_names + it->nr) : NULL;
		struct hists *h = &eng->hists[it->evsel_idx];
		u8 filtered = 0;
		u32 n;

		if (k + PREFETCH_FAR < nr)
			hists_prefetch(&eng->hists[v[k + PREFETCH_FAR]->evsel_idx],
				       &v[k + PREFETCH_FAR]->prepared, v[k + PREFETCH_FAR]->sym, 0);
		if (k + PREFETCH_NEAR < nr)
			hists_prefetch(&eng->hists[v[k + PREFETCH_NEAR]->evsel_idx],
				       &v[k + PREFETCH_NEAR]->prepared, v[k + PREFETCH_NEAR]->sym, 1);
		if (eng->cfg->children && k + PREFETCH_FAR < nr)
			callchain_record_prefetch(eng->hists[v[k + PREFETCH_FAR]->evsel_idx].cc,
						  &keys[k + PREFETCH_FAR], 0);
		if (eng->cfg->children && k + PREFETCH_NEAR < nr)
			callchain_record_prefetch(eng->hists[v[k + PREFETCH_NEAR]->evsel_idx].cc,
						  &keys[k + PREFETCH_NEAR], 1);
		if (it->nr + 1 > eng->cg_walks_room) {
			eng->cg_walks_room = it->nr + 1;
			eng->cg_walks = xrealloc(eng->cg_walks,
						 eng->cg_walks_room * sizeof(*eng->cg_walks));
		}
		if (eng->cg_lookup)
			filtered = hist_filter_symbol(eng->strs, eng->cfg->filters, it->sym,
						      it->addr_listed);
		hists_add_prepared(h, &it->prepared, it->sym, filtered, it->dso, 0);
		if (eng->cfg->children) {
			hists_record_callgraph(h, &keys[k], chain, dso_names, levels, it->nr,
					       it->prepared.period, eng->cg_walks);
			continue;
		}
		n = hists_callgraph_walks(h, chain, dso_names, levels, it->nr, 0, eng->cg_walks);
		if (n) {
			struct item_record *r = batchq_alloc(eng->record_q,
							     ITEM_RECORD_SIZE(it->nr, n));

			r->period = it->prepared.period;
			r->evsel_idx = it->evsel_idx;
			r->nr = it->nr;
			r->nr_walks = n;
			memcpy(r + 1, chain, it->nr * sizeof(*chain));
			memcpy((struct cc_item *)(r + 1) + it->nr, eng->cg_walks,
			       n * sizeof(*eng->cg_walks));
		}
	}
}

/*
 * Call graphs: the sample's entry (just added) gets the whole chain; in
 * children mode each entry the chain passes through gets the period once
 * and, when it is the first time this sample reaches it, the part of the
 * chain from it on (perf's iter_add_next_cumulative_entry()).
 */
void chains_add(struct engine *eng, struct hists *h,
			  const struct pd_sample *sample)
{
	struct chain_cursor *c = &eng->cursor;

	hists_add_callgraph(h, c->items, c->levels, c->nr, sample->period, eng->cfg->children);
}

/* The sample's adds and chain for the histogram thread (see item_chain);
 * a chain too long for the queues is added here once both threads are
 * idle. */
void chains_send(struct engine *eng, u32 evsel_idx, const struct pd_sample *sample,
			   const struct hist_prepared *prepared, const struct addr_location *al)
{
	struct chain_cursor *c = &eng->cursor;
	struct item_chain *it;
	struct cc_item *items;
	u32 *dso_names;

	if (ITEM_CHAIN_SIZE(c->nr, eng->cfg->children) > QUEUE_BATCH ||
	    ITEM_RECORD_SIZE(c->nr, c->nr + 1) > QUEUE_BATCH) {
		struct hists *h = &eng->hists[evsel_idx];
		const struct symbol *sym = al->sym;
		u8 filtered = 0;

		batchq_sync(eng->chain_q);
		if (eng->record_q)
			batchq_sync(eng->record_q);
		if (eng->cg_lookup) {
			chains_lookup_symbols(eng, c);
			sym = session_find_symbol(eng->session, al->dso, al->addr);
			filtered = hist_filter_symbol(eng->strs, eng->cfg->filters, sym,
						      hist_symbol_addr_listed(eng->cfg->filters,
									      al->map != NULL,
									      sample->ip));
		}
		hists_add_prepared(h, prepared, sym, filtered, al->dso, 0);
		chains_add(eng, h, sample);
		return;
	}
	it = batchq_alloc(eng->chain_q, ITEM_CHAIN_SIZE(c->nr, eng->cfg->children));
	items = (struct cc_item *)(it + 1);
	dso_names = (u32 *)(items + c->nr);

	it->prepared = *prepared;
	it->sym = al->sym;
	it->dso = al->dso;
	it->addr_listed = hist_symbol_addr_listed(eng->cfg->filters, al->map != NULL, sample->ip);
	it->evsel_idx = evsel_idx;
	it->nr = c->nr;
	if (!c->nr)	/* the cursor may have no arrays yet */
		return;
	memcpy(items, c->items, c->nr * sizeof(*items));
	if (eng->cg_lookup)
		for (u32 i = 0; i < c->nr; i++)
			items[i].match = c->als[i].addr;
	if (!eng->cfg->children)
		return;
	for (u32 i = 0; i < c->nr; i++)
		dso_names[i] = hist_dso_id(eng->strs, c->items[i].dso);
	memcpy(dso_names + c->nr, c->levels, c->nr);
}
