/*
 * cursor.c - a sample's call chain as the report engine takes it: walked
 * by perf's rules through the call-chain cursor (session/chain.h), each
 * address resolved through the session model, for the call-graph trees
 * (cursor_resolve(), in the graph's order) and for children mode without
 * a graph (cursor_add_children(), from the caller).
 */
#include "engine_int.h"

#include <assert.h>

/* Frees the cursor's arrays. */
void cursor_free(struct chain_cursor *c)
{
	free(c->items);
	free(c->als);
	free(c->levels);
	free(c->frames);
	free(c->lookups);
}

/* perf's append_inlines() in cursor_add_children(): the entries of the
 * functions inlined at an unwound address (resolved with its symbol into
 * node) in its place, in the walk's order; 0 when it stays as it is. */
static u32 add_chain_inlines(const struct chain_walk *w, struct hists *h,
			     const struct addr_location *node, u64 ip, char level)
{
	const struct symbol *const *syms;
	struct addr_location entry = *node;
	u32 k = chain_inlines(w, node, &syms);

	for (u32 x = 0; x < k; x++) {
		entry.sym = chain_inline_sym(w, syms, k, x);
		hists_add_chain(h, &entry, ip, level);
	}
	return k;
}

/*
 * Children mode: credits the sample's period to every distinct entry its
 * call chain passes through, as perf's cumulative iterator does, walking
 * from the outermost caller (ORDER_CALLER, perf's default in children
 * mode).  The chain is walked whole first: a marker perf does not know
 * empties it.  Each node inherits the privilege level of the one before
 * (the sample's first) unless it has a map.
 *
 * Without symbols (SESSION_NO_SYMBOL) an entry of the chain is named by
 * its map's DSO: an address in a map the walk already reached (with the
 * same cpumode, chain_resolve()) makes the same entry again, so it only
 * carries the map's privilege level on.
 */
void cursor_add_children(struct engine *eng, struct hists *h,
			 const struct pd_sample *sample, const struct addr_location *al)
{
	struct chain_cursor *c = &eng->cursor;
	struct chain_walk *w = &c->walk;
	const int no_symbol = eng->cfg->resolve_flags || eng->flat_q;
	u32 nr = 0, max_stack = (u32)eng->cfg->max_stack;
	char level = al->level;
	int r;

	chain_room(c, chain_max_frames(sample, max_stack));
	chain_begin(w, eng->session, sample, al, CHAIN_CALLER, max_stack, eng->cfg->inline_frames);
	while ((r = chain_next(w, &c->frames[nr])) == CHAIN_FRAME)
		nr++;
	if (r == CHAIN_DROPPED)
		return;
	for (u32 i = 0; i < nr; i++) {
		const struct chain_frame *f = &c->frames[i];
		struct addr_location node;

		if (chain_resolve(w, f->ip, f->cpumode, &node) && eng->cfg->resolve_flags) {
			level = node.level;
			continue;
		}
		if (node.map) {
			level = node.level;
			if (!no_symbol)
				node.sym = session_find_symbol(eng->session, node.dso, node.addr);
		}
		if (eng->flat_q) {
			struct item_node *it = batchq_alloc(eng->flat_q, sizeof(*it));

			it->kind = ITEM_NODE;
			it->dso_name = hist_dso_id(eng->strs, node.dso);
			it->dso = node.dso;
			it->addr = node.addr;
			it->ip = f->ip;
			it->level = level;
		} else if (chain_frame_inlines(w, f) && !eng->cfg->resolve_flags &&
			   add_chain_inlines(w, h, &node, f->ip, level)) {
			continue;
		} else if (hists_add_chain(h, &node, f->ip, level) && eng->cfg->resolve_flags) {
			session_resolve_addr_flags(eng->session, al, sample->time, f->cpumode,
						   f->ip, 0, &node);
			hists_set_sym(h, node.sym);
		}
	}
}

/*
 * perf's append_inlines(): for the unwound address just resolved into
 * c->als[c->nr], the entries of the functions inlined there in its place,
 * in the graph's order; left is how many frames of the chain may still
 * come (room).  Returns 0 when the address stays as it is.
 */
static u32 add_inlines(struct engine *eng, struct chain_cursor *c, u64 ip, char level,
		       u64 left)
{
	const struct symbol *const *syms;
	struct addr_location al = c->als[c->nr];
	u32 k = chain_inlines(&c->walk, &al, &syms);

	if (!k)
		return 0;
	chain_room(c, c->nr + k + left);
	for (u32 x = 0; x < k; x++) {
		struct cc_item *it = &c->items[c->nr];

		al.sym = chain_inline_sym(&c->walk, syms, k, x);
		c->als[c->nr] = al;
		it->ip = ip;
		it->dso = al.dso;
		it->sym = al.sym;
		it->match = cc_item_match(eng->cfg->cg.key, it);
		c->levels[c->nr++] = level;
	}
	return k;
}

/*
 * The sample's chain as perf's callchain cursor holds it for the graph
 * (thread__resolve_callchain()), in the graph's order, each item with its
 * map and DSO (the symbols: chains_lookup_symbols(), here or on the
 * histogram thread).  An item inherits the level of the one before (the
 * sample's first) unless it has a map.
 */
void cursor_resolve(struct engine *eng, const struct pd_sample *sample,
		    const struct addr_location *al, struct chain_cursor *c)
{
	struct chain_walk *w = &c->walk;
	struct chain_frame f;
	u32 max_stack = (u32)eng->cfg->max_stack;
	char level = al->level;
	int r;

	chain_room(c, chain_max_frames(sample, max_stack));
	c->nr = 0;
	chain_begin(w, eng->session, sample, al,
		    eng->cfg->cg.order == CC_CALLER ? CHAIN_CALLER : CHAIN_CALLEE, max_stack,
		    eng->cfg->inline_frames);
	while ((r = chain_next(w, &f)) == CHAIN_FRAME) {
		struct addr_location *node = &c->als[c->nr];

		chain_resolve(w, f.ip, f.cpumode, node);
		if (node->map) {
			level = node->level;
			/* chains_lookup_symbols() reads its cache slot */
			if (!eng->cg_lookup)
				__builtin_prefetch(&eng->sym_cache->slot[sym_cache_slot(node->dso,
											 node->addr)]);
		}
		if (chain_frame_inlines(w, &f)) {
			node->sym = session_find_symbol(eng->session, node->dso, node->addr);
			if (add_inlines(eng, c, f.ip, level, w->n - w->i))
				continue;
		}
		c->items[c->nr].ip = f.ip;
		c->items[c->nr].dso = node->dso;
		c->items[c->nr].sym = node->sym;
		c->levels[c->nr++] = level;
	}
	if (r == CHAIN_DROPPED)
		c->nr = 0;
	/* every item resolved in place: the arrays were sized up front */
	assert(c->nr <= c->alloc);
	if (!eng->cg_lookup)
		chains_lookup_symbols(eng, c);
}
