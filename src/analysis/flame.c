/*
 * flame.c - the stack trie behind flame graphs (see flame.h).
 *
 * Nodes are parallel arrays indexed by node number; a node is found from
 * its (parent, name) pair through one open-addressing table whose slots
 * hold the packed pair, so a probe touches the table only.  Whole stacks
 * have a table of their own in front of the trie: most samples repeat a
 * stack seen before, and finding it by its hash and comparing it with its
 * stored copy reads memory in order, where walking the trie would miss
 * the cache once per frame.  Names are
 * interned by content into another table.  flame_finish() orders every
 * node's children by name with two stable counting sorts (by the name's
 * rank among all names, then by parent), so it is linear in the nodes
 * after one sort of the distinct names.
 */
#include "flame.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 4096

static u64 hash_bytes(const char *s, size_t len)
{
	u64 h = 0x9e3779b97f4a7c15ULL ^ len;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return hash_u64(h);
}

/* Makes room for node index nr_nodes. */
static void grow_nodes(struct flame *fl)
{
	u32 n = fl->alloc_nodes ? fl->alloc_nodes * 2 : 4096;

	if (fl->alloc_nodes >= 0x80000000u)
		die("flame graph: too many distinct stacks");
	fl->parent = xrealloc(fl->parent, (size_t)n * sizeof(*fl->parent));
	fl->name = xrealloc(fl->name, (size_t)n * sizeof(*fl->name));
	for (int in = 0; in < fl->nr_inputs; in++) {
		fl->self[in] = xrealloc(fl->self[in], (size_t)n * sizeof(**fl->self));
		memset(fl->self[in] + fl->alloc_nodes, 0,
		       (size_t)(n - fl->alloc_nodes) * sizeof(**fl->self));
	}
	fl->alloc_nodes = n;
}

/* Doubles the (parent, name) table and reinserts every node. */
static void grow_slots(struct flame *fl)
{
	u32 n = fl->slot_mask ? (fl->slot_mask + 1) * 2 : MIN_SLOTS;

	free(fl->slot_key);
	free(fl->slot_node);
	fl->slot_key = xcalloc(n, sizeof(*fl->slot_key));
	fl->slot_node = xmalloc((size_t)n * sizeof(*fl->slot_node));
	fl->slot_mask = n - 1;
	for (u32 i = 1; i < fl->nr_nodes; i++) {
		u64 key = (u64)fl->parent[i] << 32 | fl->name[i];
		u32 s = (u32)hash_u64(key) & fl->slot_mask;

		while (fl->slot_key[s])
			s = (s + 1) & fl->slot_mask;
		fl->slot_key[s] = key;
		fl->slot_node[s] = i;
	}
}

/* The child of parent named name, made when absent. */
static u32 child_of(struct flame *fl, u32 parent, u32 name)
{
	u64 key = (u64)parent << 32 | name;	/* name >= 1: never 0 */
	u32 s = (u32)hash_u64(key) & fl->slot_mask, node;

	while (fl->slot_key[s]) {
		if (fl->slot_key[s] == key)
			return fl->slot_node[s];
		s = (s + 1) & fl->slot_mask;
	}
	if (fl->nr_nodes == fl->alloc_nodes)
		grow_nodes(fl);
	node = fl->nr_nodes++;
	fl->parent[node] = parent;
	fl->name[node] = name;
	fl->slot_key[s] = key;
	fl->slot_node[s] = node;
	if ((u64)fl->nr_nodes * 4 > (u64)(fl->slot_mask + 1) * 3)
		grow_slots(fl);
	return node;
}

static void grow_name_slots(struct flame *fl)
{
	u32 n = fl->name_mask ? (fl->name_mask + 1) * 2 : MIN_SLOTS;

	free(fl->name_slot);
	fl->name_slot = xcalloc(n, sizeof(*fl->name_slot));
	fl->name_mask = n - 1;
	for (u32 id = 0; id < fl->nr_names; id++) {
		u32 s = (u32)hash_bytes(fl->names[id], fl->name_len[id]) & fl->name_mask;

		while (fl->name_slot[s])
			s = (s + 1) & fl->name_mask;
		fl->name_slot[s] = id + 1;
	}
}

u32 flame_name(struct flame *fl, const char *s, size_t len, enum flame_kind kind)
{
	u32 slot = (u32)hash_bytes(s, len) & fl->name_mask, id;
	char *copy;

	if (len > 0xffffffu)
		len = 0xffffffu;
	while ((id = fl->name_slot[slot])) {
		id--;
		if (fl->name_len[id] == len && !memcmp(fl->names[id], s, len))
			return id;
		slot = (slot + 1) & fl->name_mask;
	}
	if (fl->nr_names == fl->alloc_names) {
		fl->alloc_names = fl->alloc_names ? fl->alloc_names * 2 : 1024;
		fl->names = xrealloc(fl->names, fl->alloc_names * sizeof(*fl->names));
		fl->name_len = xrealloc(fl->name_len, fl->alloc_names * sizeof(*fl->name_len));
		fl->name_kind = xrealloc(fl->name_kind, fl->alloc_names);
	}
	id = fl->nr_names++;
	copy = arena_alloc(&fl->arena, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	fl->names[id] = copy;
	fl->name_len[id] = (u32)len;
	fl->name_kind[id] = (u8)kind;
	fl->name_slot[slot] = id + 1;
	if ((u64)fl->nr_names * 2 > fl->name_mask + 1)
		grow_name_slots(fl);
	return id;
}

static u64 hash_stack(const u32 *names, u32 n)
{
	u64 h = 0x9e3779b97f4a7c15ULL ^ n;

	for (u32 i = 0; i < n; i++)
		h = (h ^ names[i]) * 0xff51afd7ed558ccdULL;
	h = hash_u64(h);
	return h ? h : 1;
}

/* Doubles the whole-stack table. */
static void grow_stacks(struct flame *fl)
{
	u32 n = fl->stack_mask ? (fl->stack_mask + 1) * 2 : MIN_SLOTS;
	struct flame_stack_slot *v = xcalloc(n, sizeof(*v));

	for (u32 i = 0; fl->stacks && i <= fl->stack_mask; i++) {
		u32 s;

		if (!fl->stacks[i].hash)
			continue;
		s = (u32)fl->stacks[i].hash & (n - 1);
		while (v[s].hash)
			s = (s + 1) & (n - 1);
		v[s] = fl->stacks[i];
	}
	free(fl->stacks);
	fl->stacks = v;
	fl->stack_mask = n - 1;
}

/* Keeps a copy of names[0..n) for later compares; returns where. */
static u64 keep_stack(struct flame *fl, const u32 *names, u32 n)
{
	u64 at = fl->stack_names_len;

	if (at + n + 1 > fl->stack_names_room) {
		while (at + n + 1 > fl->stack_names_room)
			fl->stack_names_room = fl->stack_names_room ? fl->stack_names_room * 2 : 65536;
		fl->stack_names = xrealloc(fl->stack_names, fl->stack_names_room * sizeof(u32));
	}
	fl->stack_names[at] = n;
	memcpy(fl->stack_names + at + 1, names, (size_t)n * sizeof(u32));
	fl->stack_names_len = at + n + 1;
	return at;
}

void flame_init(struct flame *fl, int nr_inputs)
{
	memset(fl, 0, sizeof(*fl));
	fl->nr_inputs = nr_inputs;
	arena_init(&fl->arena, 0);
	grow_name_slots(fl);
	grow_slots(fl);
	grow_stacks(fl);
	grow_nodes(fl);
	flame_name(fl, "all", 3, FLAME_ROOT);	/* id 0: the root's */
	fl->parent[0] = 0;
	fl->name[0] = 0;
	fl->nr_nodes = 1;
}

void flame_exit(struct flame *fl)
{
	free(fl->parent);
	free(fl->name);
	for (int in = 0; in < FLAME_MAX_INPUTS; in++) {
		free(fl->self[in]);
		free(fl->total[in]);
	}
	free(fl->stacks);
	free(fl->stack_names);
	for (int i = 0; i < FLAME_PIPELINE; i++)
		free(fl->pending[i].names);
	free(fl->slot_key);
	free(fl->slot_node);
	free(fl->first);
	free(fl->child);
	free(fl->names);
	free(fl->name_len);
	free(fl->name_kind);
	free(fl->name_slot);
	arena_free(&fl->arena);
	memset(fl, 0, sizeof(*fl));
}

/* Adds a stack now (flame_add() without the pipeline). */
static void add_now(struct flame *fl, int input, const u32 *names, u32 n, u64 h, u64 count)
{
	u32 s = (u32)h & fl->stack_mask, cur = 0;
	struct flame_stack_slot *slot;

	while ((slot = &fl->stacks[s])->hash) {
		if (slot->hash == h) {
			const u32 *copy = fl->stack_names + slot->at;

			if (copy[0] == n && !memcmp(copy + 1, names, (size_t)n * sizeof(u32))) {
				fl->self[input][slot->leaf] += count;
				return;
			}
		}
		s = (s + 1) & fl->stack_mask;
	}
	for (u32 i = 0; i < n; i++)
		cur = child_of(fl, cur, names[i]);
	fl->self[input][cur] += count;
	slot->hash = h;
	slot->leaf = cur;
	slot->at = keep_stack(fl, names, n);
	if (++fl->nr_stacks * 2 > fl->stack_mask + 1)
		grow_stacks(fl);
}

/* Adds the oldest stack of the pipeline. */
static void add_oldest(struct flame *fl)
{
	struct flame_pending *p = &fl->pending[fl->first_pending];

	add_now(fl, p->input, p->names, p->n, p->hash, p->count);
	fl->first_pending = (fl->first_pending + 1) % FLAME_PIPELINE;
	fl->nr_pending--;
}

void flame_add(struct flame *fl, int input, const u32 *names, u32 n, u64 count)
{
	u64 h = hash_stack(names, n);
	struct flame_pending *p;

	__builtin_prefetch(&fl->stacks[(u32)h & fl->stack_mask]);
	if (fl->nr_pending == FLAME_PIPELINE)
		add_oldest(fl);
	if (fl->nr_pending) {
		/* the newest's slot has come: ask for its copy and count */
		const struct flame_pending *q =
			&fl->pending[(fl->first_pending + fl->nr_pending - 1) % FLAME_PIPELINE];
		const struct flame_stack_slot *slot = &fl->stacks[(u32)q->hash & fl->stack_mask];

		if (slot->hash == q->hash) {
			__builtin_prefetch(fl->stack_names + slot->at);
			__builtin_prefetch(&fl->self[q->input][slot->leaf]);
		}
	}
	p = &fl->pending[(fl->first_pending + fl->nr_pending++) % FLAME_PIPELINE];
	if (n > p->room) {
		p->room = n < 64 ? 64 : n;
		p->names = xrealloc(p->names, (size_t)p->room * sizeof(*p->names));
	}
	memcpy(p->names, names, (size_t)n * sizeof(*names));
	p->n = n;
	p->hash = h;
	p->count = count;
	p->input = input;
}

/* qsort_r() order of name ids by their names (arg: the names). */
static int cmp_name_ids(const void *a, const void *b, void *arg)
{
	const char *const *names = arg;

	return strcmp(names[*(const u32 *)a], names[*(const u32 *)b]);
}

/* The rest of flame_finish(), once every stack is in. */
static void finish_nodes(struct flame *fl)
{
	u32 n = fl->nr_nodes, nn = fl->nr_names;
	u32 *order = xmalloc((size_t)nn * sizeof(*order));
	u32 *rank = xmalloc((size_t)nn * sizeof(*rank));
	u32 *count = xcalloc((size_t)nn + 1, sizeof(*count));
	u32 *by_rank, *fill;

	/* the lookup tables are done with: free them before the arrays
	   below, so the peak is one set or the other */
	free(fl->slot_key);
	free(fl->slot_node);
	free(fl->stacks);
	free(fl->stack_names);
	fl->slot_key = NULL;
	fl->slot_node = NULL;
	fl->stacks = NULL;
	fl->stack_names = NULL;
	by_rank = xmalloc((size_t)n * sizeof(*by_rank));

	for (int in = 0; in < fl->nr_inputs; in++) {
		u64 *t = xmalloc((size_t)n * sizeof(*t));

		memcpy(t, fl->self[in], (size_t)n * sizeof(*t));
		for (u32 i = n - 1; i > 0; i--)
			t[fl->parent[i]] += t[i];
		fl->total[in] = t;
	}

	/* each name's rank in strcmp order */
	for (u32 i = 0; i < nn; i++)
		order[i] = i;
	qsort_r(order, nn, sizeof(*order), cmp_name_ids, fl->names);
	for (u32 i = 0; i < nn; i++)
		rank[order[i]] = i;

	/* the nodes but the root by name rank, then stably by parent */
	for (u32 i = 1; i < n; i++)
		count[rank[fl->name[i]] + 1]++;
	for (u32 r = 0; r < nn; r++)
		count[r + 1] += count[r];
	for (u32 i = 1; i < n; i++)
		by_rank[count[rank[fl->name[i]]]++] = i;

	fl->first = xcalloc((size_t)n + 1, sizeof(*fl->first));
	fl->child = xmalloc((size_t)(n ? n : 1) * sizeof(*fl->child));
	for (u32 i = 1; i < n; i++)
		fl->first[fl->parent[i] + 1]++;
	for (u32 i = 0; i < n; i++)
		fl->first[i + 1] += fl->first[i];
	/* then each parent's children, in rank order */
	fill = xmalloc(((size_t)n + 1) * sizeof(*fill));
	memcpy(fill, fl->first, ((size_t)n + 1) * sizeof(*fill));
	for (u32 k = 0; k + 1 < n; k++) {
		u32 i = by_rank[k];

		fl->child[fill[fl->parent[i]]++] = i;
	}
	free(fill);
	free(order);
	free(rank);
	free(count);
	free(by_rank);
}

void flame_finish(struct flame *fl)
{
	while (fl->nr_pending)
		add_oldest(fl);
	for (int i = 0; i < FLAME_PIPELINE; i++)
		free(fl->pending[i].names);
	memset(fl->pending, 0, sizeof(fl->pending));
	finish_nodes(fl);
}
