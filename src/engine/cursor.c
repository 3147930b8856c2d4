/*
 * cursor.c - a sample's call chain walked by perf's rules: the context
 * markers setting each address's cpumode, --max-stack on the recorded
 * part, the unwound part (dwarf) kept whole, inlined functions at unwound
 * addresses, each address resolved through the session model.  For the
 * call-graph trees (cursor_resolve(), in the graph's order) and for
 * children mode without a graph (cursor_add_children(), from the caller).
 */
#include "engine_int.h"

#include <assert.h>

/* Frees the cursor's arrays. */
void cursor_free(struct chain_cursor *c)
{
	free(c->items);
	free(c->als);
	free(c->levels);
	free(c->ips);
	free(c->modes);
	free(c->lookups);
}

/* Maps a sample's call chain reached, for skipping resolution. */
#define CHAIN_MAPS 8

/*
 * perf's find_prev_cpumode(): the cpumode set by the last context marker
 * before chain[end], or cur when there is none (-1: see pd_context_cpumode()).
 */
static int prev_cpumode(const struct pd_sample *sample, u64 end, u8 cur)
{
	while (end-- > 0) {
		u64 ip = pd_get64(sample->callchain + end * 8);

		if (pd_chain_marker(sample, end, ip))
			return pd_context_cpumode(ip);
	}
	return cur;
}

/*
 * The most addresses a walk of the sample's chain keeps: --max-stack of
 * the recorded part (perf stops there) plus the unwound part, which the
 * unwinder already cut to --max-stack (perf applies the limit to each).
 */
static u64 chain_cap(const struct engine *eng, const struct pd_sample *sample)
{
	u64 n = sample->callchain_nr, recorded = n;

	if (sample->callchain_addrs_from)
		recorded = sample->callchain_addrs_from;
	if (recorded > (u64)eng->cfg->max_stack)
		recorded = (u64)eng->cfg->max_stack;
	return recorded + (sample->callchain_addrs_from ? n - sample->callchain_addrs_from : 0);
}

/* cursor_add_children()'s mark of an unwound address in its cpumode. */
#define MODE_UNWOUND 0x80

/* perf's append_inlines() in cursor_add_children(): the entries of the functions
 * inlined at an unwound address (resolved with its symbol into node) in
 * its place, outermost first; 0 when it stays as it is. */
static u32 add_chain_inlines(struct engine *eng, struct hists *h,
			     const struct addr_location *node, u64 ip, char level)
{
	const struct symbol *const *syms;
	struct addr_location entry = *node;
	u32 k = session_inlines(eng->session, node, &syms);

	for (u32 x = 0; x < k; x++) {
		entry.sym = syms[k - 1 - x];
		hists_add_chain(h, &entry, ip, level);
	}
	return k;
}

/*
 * Children mode: credits the sample's period to every distinct entry its
 * call chain passes through, as perf's cumulative iterator does.  perf
 * walks the chain from the outermost caller (ORDER_CALLER, its default in
 * children mode), taking each address's cpumode from the context marker
 * before it, for at most --max-stack addresses; a marker it does not know
 * empties the chain.  Each node inherits the privilege level of the one
 * before (the sample's first) unless it has a map.
 *
 * Without symbols (SESSION_NO_SYMBOL) an entry of the chain is named by
 * its map's DSO, and an address in a map this chain already reached (with
 * the same cpumode) resolves to that map again: a thread's maps do not
 * overlap and do not change within a record.  Such addresses are not
 * resolved again, they only carry the map's privilege level on.
 */
void cursor_add_children(struct engine *eng, struct hists *h,
		      const struct pd_sample *sample, const struct addr_location *al)
{
	struct {
		u64 start, end;
		u8 cpumode;
		char level;
	} maps[CHAIN_MAPS];
	struct chain_cursor *c = &eng->cursor;
	u64 *ips, n = sample->callchain_nr;
	u8 *modes;
	u32 nr = 0, nr_maps = 0, recorded = 0;
	int cpumode = prev_cpumode(sample, n, PD_MISC_USER);
	char level = al->level;

	chain_room(c, chain_cap(eng, sample));
	ips = c->ips;
	modes = c->modes;
	for (u64 i = 0; i < n && cpumode >= 0; i++) {
		u64 j = n - i - 1, ip = pd_get64(sample->callchain + j * 8);

		if (pd_chain_marker(sample, j, ip)) {
			cpumode = prev_cpumode(sample, j, cpumode);
			continue;
		}
		if (!pd_chain_unwound(sample, j) && recorded++ >= (u32)eng->cfg->max_stack)
			continue;
		ips[nr] = ip;
		modes[nr++] = (u8)cpumode | (pd_chain_unwound(sample, j) ? MODE_UNWOUND : 0);
	}
	if (cpumode < 0)
		return;
	for (u32 i = 0; i < nr; i++) {
		struct addr_location node;
		int unwound = modes[i] & MODE_UNWOUND;
		u32 m;

		modes[i] &= ~MODE_UNWOUND;
		for (m = 0; m < nr_maps; m++)
			if (maps[m].cpumode == modes[i] && ips[i] >= maps[m].start &&
			    ips[i] < maps[m].end)
				break;
		if (m < nr_maps) {
			level = maps[m].level;
			continue;
		}
		if (session_resolve_addr_flags(eng->session, al, sample->time, modes[i],
					       ips[i], eng->cfg->resolve_flags | (eng->flat_q ? SESSION_NO_SYMBOL : 0),
					       &node)) {
			node = *al;
			node.map = NULL;
			node.dso = NULL;
			node.sym = NULL;
		}
		if (node.map) {
			level = node.level;
			if (eng->cfg->resolve_flags && nr_maps < CHAIN_MAPS) {
				maps[nr_maps].start = map_start(node.map);
				maps[nr_maps].end = map_end(node.map);
				maps[nr_maps].cpumode = modes[i];
				maps[nr_maps++].level = level;
			}
		}
		if (eng->flat_q) {
			struct item_node *it = batchq_alloc(eng->flat_q, sizeof(*it));

			it->kind = ITEM_NODE;
			it->dso_name = hist_dso_id(eng->strs, node.dso);
			it->dso = node.dso;
			it->addr = node.addr;
			it->ip = ips[i];
			it->level = level;
		} else if (unwound && eng->cfg->inline_frames && !eng->cfg->resolve_flags &&
			   add_chain_inlines(eng, h, &node, ips[i], level)) {
			continue;
		} else if (hists_add_chain(h, &node, ips[i], level) && eng->cfg->resolve_flags) {
			session_resolve_addr_flags(eng->session, al, sample->time, modes[i],
						   ips[i], 0, &node);
			hists_set_sym(h, node.sym);
		}
	}
}

/*
 * perf's append_inlines(): for the unwound address just resolved into
 * c->als[c->nr], the entries of the functions inlined there in its place,
 * in the graph's order; left is how many addresses of the chain remain
 * (room).  Returns 0 when the address stays as it is.
 */
static u32 add_inlines(struct engine *eng, struct chain_cursor *c, u64 ip, char level,
		       u64 left)
{
	const struct symbol *const *syms;
	struct addr_location al = c->als[c->nr];
	u32 k = session_inlines(eng->session, &al, &syms);

	if (!k)
		return 0;
	chain_room(c, c->nr + k + left);
	for (u32 x = 0; x < k; x++) {
		struct cc_item *it = &c->items[c->nr];

		al.sym = syms[eng->cfg->cg.order == CC_CALLER ? k - 1 - x : x];
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
 * perf's thread__resolve_callchain_sample() for a frame-pointer chain:
 * callee order walks the chain as recorded, each marker setting the
 * cpumode of what follows; caller order walks it backwards, taking each
 * address's cpumode from the marker before it.  At most --max-stack
 * addresses; a marker perf does not know empties the chain.  An item
 * inherits the level of the one before (the sample's first) unless it
 * has a map.
 */
void cursor_resolve(struct engine *eng, const struct pd_sample *sample,
			   const struct addr_location *al, struct chain_cursor *c)
{
	u64 n = sample->callchain_nr;
	int caller = eng->cfg->cg.order == CC_CALLER;
	int cpumode = caller ? prev_cpumode(sample, n, PD_MISC_USER) : PD_MISC_USER;
	char level = al->level;
	u32 recorded = 0;

	chain_room(c, chain_cap(eng, sample));
	c->nr = 0;
	for (u64 i = 0; i < n && cpumode >= 0; i++) {
		u64 j = caller ? n - i - 1 : i, ip = pd_get64(sample->callchain + j * 8);
		struct addr_location *node = &c->als[c->nr];

		if (pd_chain_marker(sample, j, ip)) {
			cpumode = caller ? prev_cpumode(sample, j, cpumode) :
					   pd_context_cpumode(ip);
			continue;
		}
		if (!pd_chain_unwound(sample, j) && recorded++ >= (u32)eng->cfg->max_stack)
			continue;
		if (session_resolve_addr_flags(eng->session, al, sample->time, cpumode, ip,
					       SESSION_NO_SYMBOL, node)) {
			*node = *al;
			node->map = NULL;
			node->dso = NULL;
			node->sym = NULL;
		}
		if (node->map) {
			level = node->level;
			/* chains_lookup_symbols() reads its cache slot */
			if (!eng->cg_lookup)
				__builtin_prefetch(&eng->sym_cache->slot[sym_cache_slot(node->dso,
											 node->addr)]);
		}
		if (eng->cfg->inline_frames && pd_chain_unwound(sample, j)) {
			node->sym = session_find_symbol(eng->session, node->dso, node->addr);
			if (add_inlines(eng, c, ip, level, n - i))
				continue;
		}
		c->items[c->nr].ip = ip;
		c->items[c->nr].dso = node->dso;
		c->items[c->nr].sym = node->sym;
		c->levels[c->nr++] = level;
	}
	if (cpumode < 0)
		c->nr = 0;
	/* every item resolved in place: the arrays were sized up front */
	assert(c->nr <= c->alloc);
	if (!eng->cg_lookup)
		chains_lookup_symbols(eng, c);
}
