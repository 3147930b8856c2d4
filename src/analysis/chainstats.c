/*
 * chainstats.c - call-chain statistics (see chainstats.h for what each
 * number means).
 *
 * Each sample's chain is walked by the call-chain cursor as perf script
 * walks it (session/chain.h: callee order, each frame in the cpumode of
 * the context marker before it, a marker perf does not know dropping the
 * chain), unlimited, into cs->frames; then read backwards (outermost
 * caller first), resolving every frame in the session and walking the
 * tree from its root.  The tree is only a hash table of (parent, DSO,
 * key) -> node id, grown by doubling at 3/4 load; the DSO counters are
 * another, by DSO pointer.
 */
#include "chainstats.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct chainstats *chainstats_new(enum cc_key key, u32 max_stack)
{
	struct chainstats *cs = xcalloc(1, sizeof(*cs));

	cs->key = key;
	cs->max_stack = max_stack ? max_stack : 1;
	cs->node_mask = 1023;
	cs->nodes = xcalloc(cs->node_mask + 1, sizeof(*cs->nodes));
	cs->dso_mask = 63;
	cs->dsos = xcalloc(cs->dso_mask + 1, sizeof(*cs->dsos));
	cs->alloc_frames = 256;
	cs->frames = xmalloc(cs->alloc_frames * sizeof(*cs->frames));
	return cs;
}

void chainstats_free(struct chainstats *cs)
{
	if (!cs)
		return;
	free(cs->nodes);
	free(cs->dsos);
	free(cs->frames);
	free(cs);
}

static u64 node_hash(u32 parent, const struct dso *dso, u64 key)
{
	return hash_u64(key ^ hash_u64((u64)(uintptr_t)dso ^ ((u64)parent << 1)));
}

static void grow_nodes(struct chainstats *cs)
{
	u32 old_mask = cs->node_mask, mask = old_mask * 2 + 1;
	struct chainstats_node *old = cs->nodes, *nodes = xcalloc((u64)mask + 1, sizeof(*nodes));

	for (u64 i = 0; i <= old_mask; i++) {
		u64 h;

		if (!old[i].id)
			continue;
		h = node_hash(old[i].parent, old[i].dso, old[i].key);
		while (nodes[h & mask].id)
			h++;
		nodes[h & mask] = old[i];
	}
	free(old);
	cs->nodes = nodes;
	cs->node_mask = mask;
}

/* The child of parent with this DSO and key, made when it is new. */
static u32 tree_child(struct chainstats *cs, u32 parent, const struct dso *dso, u64 key)
{
	u64 h = node_hash(parent, dso, key);
	struct chainstats_node *n;

	for (;; h++) {
		n = &cs->nodes[h & cs->node_mask];
		if (!n->id)
			break;
		if (n->parent == parent && n->dso == dso && n->key == key)
			return n->id;
	}
	/* node ids are u32: past that, the tree stops growing */
	if (cs->tree_nodes >= 0xfffffffeULL)
		return 0;
	n->dso = dso;
	n->key = key;
	n->parent = parent;
	n->id = (u32)++cs->tree_nodes;
	if (cs->tree_nodes * 4 > ((u64)cs->node_mask + 1) * 3) {
		u32 id = n->id;

		grow_nodes(cs);
		return id;
	}
	return n->id;
}

/* Adds a frame to its DSO's counters. */
static void count_frame(struct chainstats *cs, const struct dso *dso, int unknown)
{
	u64 h = hash_u64((u64)(uintptr_t)dso);
	struct chainstats_dso_slot *d;

	for (;; h++) {
		d = &cs->dsos[h & cs->dso_mask];
		if (!d->used || d->dso == dso)
			break;
	}
	if (!d->used) {
		d->used = 1;
		d->dso = dso;
		if (++cs->nr_dsos * 2 > cs->dso_mask + 1) {
			u32 old_mask = cs->dso_mask, mask = old_mask * 2 + 1;
			struct chainstats_dso_slot *old = cs->dsos;

			cs->dsos = xcalloc((u64)mask + 1, sizeof(*cs->dsos));
			cs->dso_mask = mask;
			for (u64 i = 0; i <= old_mask; i++) {
				u64 g = hash_u64((u64)(uintptr_t)old[i].dso);

				if (!old[i].used)
					continue;
				while (cs->dsos[g & mask].used)
					g++;
				cs->dsos[g & mask] = old[i];
			}
			free(old);
			count_frame(cs, dso, unknown);
			return;
		}
	}
	d->frames++;
	d->unknown += !!unknown;
	cs->frames_unknown += !!unknown;
}

int chainstats_chain(struct chainstats *cs, struct session *s, const struct pd_sample *sample,
		     const struct addr_location *al)
{
	u64 n = sample->callchain_nr, depth = 0;
	struct chain_walk *w = &cs->walk;
	int r;

	cs->samples++;
	if (!(sample->sample_type & PD_SAMPLE_CALLCHAIN) || !n)
		return 0;
	if (n > cs->alloc_frames) {
		free(cs->frames);
		cs->alloc_frames = n;
		cs->frames = xmalloc(n * sizeof(*cs->frames));
	}
	/* the sample is resolved (al, for chainstats_frames()) only for a
	   chain with frames */
	cs->session = s;
	chain_begin(w, s, sample, al, CHAIN_CALLEE, (u32)-1, 0);
	while ((r = chain_next(w, &cs->frames[depth])) == CHAIN_FRAME)
		depth++;
	if (r == CHAIN_DROPPED || !depth)
		return 0;
	cs->samples_with_chain++;
	cs->entries += depth;
	if (depth > cs->max_depth)
		cs->max_depth = depth;
	cs->depth = depth;
	return 1;
}

void chainstats_frames(struct chainstats *cs)
{
	struct chain_walk *w = &cs->walk;
	u64 used = 0;
	int in_tree = 1;
	u32 node = 0;

	for (u64 i = cs->depth; i-- > 0;) {
		const struct chain_frame *f = &cs->frames[i];
		struct addr_location frame;
		u64 key;

		chain_resolve(w, f->ip, f->cpumode, &frame);
		if (frame.map)
			frame.sym = session_find_symbol(cs->session, frame.dso, frame.addr);
		count_frame(cs, frame.dso, !frame.sym);
		if (!in_tree || used >= cs->max_stack)
			continue;
		key = frame.sym && cs->key == CC_KEY_FUNCTION ? symbol_start(frame.sym)
							      : frame.addr;
		node = tree_child(cs, node, frame.dso, key);
		if (!node) {
			in_tree = 0;
			continue;
		}
		used++;
	}
	if (used > cs->tree_depth)
		cs->tree_depth = used;
}

static int by_name(const void *a, const void *b)
{
	const struct chainstats_dso *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int by_unknown(const void *a, const void *b)
{
	const struct chainstats_dso *x = a, *y = b;

	if (x->unknown != y->unknown)
		return x->unknown > y->unknown ? -1 : 1;
	if (x->frames != y->frames)
		return x->frames > y->frames ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct chainstats_dso *chainstats_dsos(const struct chainstats *cs, u32 *nr)
{
	struct chainstats_dso *v = xcalloc(cs->nr_dsos + 1, sizeof(*v));
	u32 n = 0, merged = 0;

	for (u64 i = 0; i <= cs->dso_mask; i++) {
		const struct chainstats_dso_slot *d = &cs->dsos[i];

		if (!d->used)
			continue;
		v[n].name = dso_short_name(d->dso);
		v[n].frames = d->frames;
		v[n++].unknown = d->unknown;
	}
	qsort(v, n, sizeof(*v), by_name);
	for (u32 i = 0; i < n; i++) {
		if (merged && !strcmp(v[merged - 1].name, v[i].name)) {
			v[merged - 1].frames += v[i].frames;
			v[merged - 1].unknown += v[i].unknown;
		} else {
			v[merged++] = v[i];
		}
	}
	qsort(v, merged, sizeof(*v), by_unknown);
	*nr = merged;
	return v;
}
