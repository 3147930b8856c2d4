/*
 * callchain.c - call-graph trees with perf 6.1's append, split and merge
 * rules (util/callchain.c), and its -g option parser.
 *
 * Invariants (besides those of callchain.h):
 *  - The child index maps (parent, first item) to the child; a split
 *    keeps it exact by giving the head a new node that takes the split
 *    node's place under its parent, while the split node becomes the tail
 *    (so its own children stay keyed by it).  In perf the split node is
 *    the head and the tail is new: the two swap their birth numbers.
 *  - The birth numbers (cc_node.born) are a permutation of the node
 *    numbers.
 *  - Items are only appended to f->items; a node's slice never moves.
 */
#include "callchain.h"
#include "rborder.h"
#include "../util/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void callchain_param_init(struct callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CC_GRAPH_ABS;
	p->order = CC_CALLEE;
	p->key = CC_KEY_FUNCTION;
	p->value = CC_VAL_PERCENT;
	p->min_percent = 0.5;
}

/* perf's prefix rule: the token is a prefix of (or equal to) word. */
static int is_prefix(const char *tok, const char *word)
{
	return !strncmp(tok, word, strlen(tok));
}

/* One keyword token; returns 0 when it was one. */
static int parse_keyword(struct callchain_param *p, const char *tok)
{
	static const struct {
		const char *word;
		int what;	/* 0 mode, 1 order, 2 key, 3 value */
		int val;
	} words[] = {
		{ "graph", 0, CC_GRAPH_ABS }, { "flat", 0, CC_FLAT },
		{ "fractal", 0, CC_GRAPH_REL }, { "folded", 0, CC_FOLDED },
		{ "caller", 1, CC_CALLER }, { "callee", 1, CC_CALLEE },
		{ "function", 2, CC_KEY_FUNCTION }, { "address", 2, CC_KEY_ADDRESS },
		{ "srcline", 2, -1 }, { "branch", 2, -1 },
		{ "percent", 3, CC_VAL_PERCENT }, { "period", 3, CC_VAL_PERIOD },
		{ "count", 3, CC_VAL_COUNT },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!is_prefix(tok, words[i].word))
			continue;
		switch (words[i].what) {
		case 0:
			p->mode = words[i].val;
			break;
		case 1:
			p->order = words[i].val;
			p->order_set = 1;
			break;
		case 2:
			if (words[i].val < 0)
				return error("call graph key '%s' is not supported", words[i].word);
			p->key = words[i].val;
			break;
		default:
			p->value = words[i].val;
			break;
		}
		return 0;
	}
	return 1;
}

int callchain_parse_opt(struct callchain_param *p, const char *arg)
{
	char *copy, *tok, *save = NULL, *end;
	int have_min = 0, ret = 0;

	p->enabled = 1;
	if (!arg)
		arg = "graph,0.5,caller,function,percent";
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int r;

		if (is_prefix(tok, "none")) {
			p->mode = CC_NONE;
			p->enabled = 0;
			break;
		}
		r = parse_keyword(p, tok);
		if (r < 0) {
			ret = -1;
			break;
		}
		if (!r)
			continue;
		if (!have_min) {
			p->min_percent = strtod(tok, &end);
			have_min = 1;
		} else {
			p->print_limit = strtoul(tok, &end, 0);
		}
		if (end == tok) {
			ret = error("invalid call graph option '%s'", tok);
			break;
		}
	}
	free(copy);
	return ret;
}

/* ---- trees ---------------------------------------------------------------- */

struct callchain_forest *callchain_forest_new(enum cc_key key)
{
	struct callchain_forest *f = xcalloc(1, sizeof(*f));

	f->key = key;
	f->nr_nodes = 1;	/* node 0 is "none" */
	f->alloc_nodes = 1024;
	f->nodes = xcalloc(f->alloc_nodes, sizeof(*f->nodes));
	f->alloc_items = 4096;
	f->items = xmalloc(f->alloc_items * sizeof(*f->items));
	f->index_mask = 1023;
	f->index = xcalloc(f->index_mask + 1, sizeof(*f->index));
	return f;
}

/* Frees what callchain_record() kept. */
static void forget_records(struct callchain_forest *f)
{
	free(f->seen);
	free(f->recs);
	free(f->rec_items);
	free(f->rec_walks);
	f->seen = NULL;
	f->recs = NULL;
	f->rec_items = NULL;
	f->rec_walks = NULL;
	f->seen_mask = f->nr_seen = 0;
	f->alloc_recs = f->nr_rec_items = f->alloc_rec_items = 0;
	f->nr_rec_walks = f->alloc_rec_walks = 0;
}

void callchain_forest_free(struct callchain_forest *f)
{
	if (!f)
		return;
	free(f->nodes);
	free(f->items);
	free(f->index);
	free(f->children);
	forget_records(f);
	free(f);
}

u64 cc_item_match(enum cc_key key, const struct cc_item *it)
{
	if (key != CC_KEY_FUNCTION || !it->sym)
		return it->ip;
	/* above every address of a user-space dso, the only ones that have
	   inlined entries */
	return symbol_inlined(it->sym) ? ~(u64)symbol_inline_id(it->sym) : symbol_start(it->sym);
}

/* perf's match_chain() as an order: <0 when a sorts before b. */
static int item_cmp(enum cc_key key, const struct cc_item *a, const struct cc_item *b)
{
	u64 x, y;

	if (key == CC_KEY_FUNCTION && a->sym && b->sym &&
	    (symbol_inlined(a->sym) || symbol_inlined(b->sym))) {
		/* perf compares inlined entries by name only */
		int r = strcmp(symbol_name(a->sym), symbol_name(b->sym));

		return r < 0 ? -1 : r > 0;
	}
	if (a->dso != b->dso)
		return dso_serial(a->dso) < dso_serial(b->dso) ? -1 : 1;
	if (key == CC_KEY_FUNCTION && a->sym && b->sym) {
		x = a->match;	/* the symbols' starts */
		y = b->match;
	} else {
		x = a->ip;
		y = b->ip;
	}
	return x < y ? -1 : x > y;
}

/* item_cmp() == 0, from the match values */
static inline int item_same(const struct cc_item *a, const struct cc_item *b)
{
	return a->dso == b->dso && a->match == b->match;
}

static inline u32 item_hash(u32 parent, const struct cc_item *it)
{
	u64 x = ((u64)parent * 0x9e3779b97f4a7c15ULL) ^ (uintptr_t)it->dso ^
		(it->match * 0xff51afd7ed558ccdULL);

	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 29;
	return (u32)x;
}

#define SLOT(hash, node)	((u64)(hash) << 32 | (node))
#define SLOT_NODE(v)		((u32)(v))
#define SLOT_HASH(v)		((u32)((v) >> 32))

/* The index slot of parent's child starting like it: its own, or the
 * empty one where it goes.  Probes touch a node only when the hash
 * matches. */
static u32 index_slot(const struct callchain_forest *f, u32 parent, const struct cc_item *it)
{
	u32 hash = item_hash(parent, it), i = hash & f->index_mask;
	u64 v;

	while ((v = f->index[i])) {
		if (SLOT_HASH(v) == hash) {
			const struct cc_node *c = &f->nodes[SLOT_NODE(v)];

			if (c->parent == parent && item_same(&f->items[c->item], it))
				return i;
		}
		i = (i + 1) & f->index_mask;
	}
	return i;
}

static void index_grow(struct callchain_forest *f)
{
	u64 *old = f->index;
	u32 old_mask = f->index_mask;

	f->index_mask = old_mask * 2 + 1;
	f->index = xcalloc_written((size_t)f->index_mask + 1, sizeof(*f->index));
	for (u32 i = 0; i <= old_mask; i++) {
		u32 j;

		if (!old[i])
			continue;
		j = SLOT_HASH(old[i]) & f->index_mask;
		while (f->index[j])
			j = (j + 1) & f->index_mask;
		f->index[j] = old[i];
	}
	free(old);
}

static void index_add(struct callchain_forest *f, u32 n)
{
	const struct cc_item *it;
	u32 i;

	if ((f->nr_index + 1) * 2 > f->index_mask + 1)
		index_grow(f);
	it = &f->items[f->nodes[n].item];
	i = index_slot(f, f->nodes[n].parent, it);
	f->index[i] = SLOT(item_hash(f->nodes[n].parent, it), n);
	f->nr_index++;
}

static u32 new_node(struct callchain_forest *f, u32 parent)
{
	u32 n;

	if (f->nr_nodes == f->alloc_nodes) {
		if (f->alloc_nodes >= 1u << 30)
			die("call graph: too many nodes");
		f->alloc_nodes *= 2;
		f->nodes = xrealloc(f->nodes, (size_t)f->alloc_nodes * sizeof(*f->nodes));
	}
	n = f->nr_nodes++;
	memset(&f->nodes[n], 0, sizeof(f->nodes[n]));
	f->nodes[n].parent = parent;
	f->nodes[n].born = n;
	return n;
}

/* perf's add_child(): a node under parent holding the nr items; returns it. */
static u32 add_child(struct callchain_forest *f, u32 parent, const struct cc_item *items,
		      u32 nr, u64 period, u32 count)
{
	u32 n = new_node(f, parent);
	struct cc_node *c = &f->nodes[n];

	if (f->nr_items + (u64)nr > f->alloc_items) {
		while (f->nr_items + (u64)nr > f->alloc_items) {
			if (f->alloc_items >= 1u << 30)
				die("call graph: too many items");
			f->alloc_items *= 2;
		}
		f->items = xrealloc(f->items, (size_t)f->alloc_items * sizeof(*f->items));
	}
	memcpy(f->items + f->nr_items, items, nr * sizeof(*items));
	c->item = f->nr_items;
	c->nr_items = nr;
	c->hit = period;
	c->count = count;
	f->nr_items += nr;
	index_add(f, n);
	return n;
}

/*
 * perf's split_add_child(): node x matched its first m items only.  A new
 * head node takes x's place and its first m items; x keeps the rest, its
 * counts and its children.  The rest of the chain (nr items, maybe none)
 * goes under the head.  Returns the node the chain ends at.
 */
static u32 split(struct callchain_forest *f, u32 x, u32 m, const struct cc_item *rest,
		 u32 nr, u64 period, u32 count)
{
	u32 h = new_node(f, f->nodes[x].parent), slot;
	struct cc_node *head = &f->nodes[h], *tail = &f->nodes[x];

	slot = index_slot(f, tail->parent, &f->items[tail->item]);
	f->index[slot] = SLOT(SLOT_HASH(f->index[slot]), h);
	/* perf keeps the node split as the head, where it was among its
	   siblings, and makes the tail */
	head->born = tail->born;
	tail->born = h;
	head->item = tail->item;
	head->nr_items = m;
	tail->parent = h;
	tail->item += m;
	tail->nr_items -= m;
	index_add(f, x);
	if (nr)
		return add_child(f, h, rest, nr, period, count);
	head = &f->nodes[h];
	head->hit = period;
	head->count = count;
	return h;
}

/* Adds a chain of nr items with period to the tree whose root is *root
 * (0: a new tree is made and *root set), as perf's callchain_append() does
 * for each of count samples whose periods sum to period; returns the node
 * the chain ends at (0: none, for an empty chain).  The children sums are
 * left to callchain_finish(). */
static u32 append(struct callchain_forest *f, u32 *root,
		  const struct cc_item *items, u32 nr, u64 period, u32 count)
{
	u32 cur, pos = 0;

	if (!nr)
		return 0;
	if (!*root)
		*root = new_node(f, 0);
	cur = *root;
	for (;;) {
		u32 slot = index_slot(f, cur, &items[pos]), child = SLOT_NODE(f->index[slot]), m = 1;
		struct cc_node *c;

		if (!child)
			return add_child(f, cur, items + pos, nr - pos, period, count);
		c = &f->nodes[child];
		while (m < c->nr_items && pos + m < nr &&
		       item_same(&f->items[c->item + m], &items[pos + m]))
			m++;
		if (m < c->nr_items)
			return split(f, child, m, items + pos + m, nr - pos - m, period, count);
		pos += m;
		if (pos == nr) {
			c->hit += period;
			c->count += count;
			return child;
		}
		cur = child;
	}
}

/* Brings into the cache what the walks' appends will read (a hint: the
 * walks trust the index's fingerprints and take a node's whole run as
 * matched). */
static void prefetch_walks(const struct callchain_forest *f, const u32 *roots,
			   const struct cc_walk *walks, u32 nr_walks,
			   const struct cc_item *items, u32 nr)
{
	u32 cur[CC_PREFETCH_WALKS], pos[CC_PREFETCH_WALKS], slot[CC_PREFETCH_WALKS];
	u32 hash[CC_PREFETCH_WALKS], active = 0;

	for (u32 w = 0; w < nr_walks && active < CC_PREFETCH_WALKS; w++) {
		if (!roots[walks[w].tree] || walks[w].start >= nr)
			continue;
		cur[active] = roots[walks[w].tree];
		pos[active++] = walks[w].start;
	}
	while (active) {
		u32 kept = 0;

		/* the index slot of each walk's next child */
		for (u32 w = 0; w < active; w++) {
			hash[w] = item_hash(cur[w], &items[pos[w]]);
			slot[w] = hash[w] & f->index_mask;
			__builtin_prefetch(&f->index[slot[w]]);
		}
		/* the child it holds */
		for (u32 w = 0; w < active; w++) {
			u32 i = slot[w];
			u64 v;

			while ((v = f->index[i]) && SLOT_HASH(v) != hash[w])
				i = (i + 1) & f->index_mask;
			slot[w] = v ? SLOT_NODE(v) : 0;
			if (slot[w])
				__builtin_prefetch(&f->nodes[slot[w]]);
		}
		/* its items; the walk goes on below it */
		for (u32 w = 0; w < active; w++) {
			const struct cc_node *c;

			if (!slot[w])
				continue;
			c = &f->nodes[slot[w]];
			__builtin_prefetch(&f->items[c->item]);
			if (pos[w] + c->nr_items >= nr)
				continue;
			cur[kept] = slot[w];
			pos[kept++] = pos[w] + c->nr_items;
		}
		active = kept;
	}
}

/* ---- samples recorded, appended later --------------------------------------- */

static inline u64 rotl64(u64 x, int r)
{
	return x << r | x >> (64 - r);
}

/* Two independent 64-bit hashes of a sample's walks and items (DSO and
 * match value: what the appends compare). */
/* One step of the chain hashes: two independent 64-bit lanes a and b. */
#define MIX(w) do {							\
		u64 w_ = (w);						\
		a = rotl64((a ^ w_) * 0x9e3779b97f4a7c15ULL, 31);	\
		b = rotl64(b + w_, 27) * 0xc2b2ae3d27d4eb4fULL ^ (b >> 29); \
	} while (0)

/* The two lanes, finalized, as a key. */
static void chain_hash_finish(u64 a, u64 b, struct cc_chain_hash *hash)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	b ^= b >> 31;
	b *= 0x94d049bb133111ebULL;
	b ^= b >> 29;
	hash->h1 = a;
	hash->h2 = b | 1;	/* 0 marks an empty slot */
}

void callchain_hash(const struct cc_walk *walks, u32 nr_walks, const struct cc_item *items,
		    u32 nr, struct cc_chain_hash *hash)
{
	u64 a = 0x243f6a8885a308d3ULL ^ ((u64)nr_walks << 32 | nr), b = 0x13198a2e03707344ULL ^ a;

	for (u32 i = 0; i < nr_walks; i++)
		MIX((u64)walks[i].tree << 32 | walks[i].start);
	for (u32 i = 0; i < nr; i++) {
		MIX((uintptr_t)items[i].dso);
		MIX(items[i].match);
	}
	chain_hash_finish(a, b, hash);
}

static void seen_grow(struct callchain_forest *f)
{
	struct chain_seen *old = f->seen;
	u32 old_size = f->seen ? f->seen_mask + 1 : 0;

	f->seen_mask = old_size ? old_size * 2 - 1 : 4095;
	f->seen = xcalloc_written((size_t)f->seen_mask + 1, sizeof(*f->seen));
	for (u32 i = 0; i < old_size; i++) {
		u32 j;

		if (!old[i].h2)
			continue;
		for (j = (u32)old[i].h1 & f->seen_mask; f->seen[j].h2; j = (j + 1) & f->seen_mask)
			;
		f->seen[j] = old[i];
	}
	free(old);
}

/* The slot of the sample hashed (h1, h2): its own, or the empty one where
 * it goes. */
static struct chain_seen *seen_slot(struct callchain_forest *f, u64 h1, u64 h2)
{
	u32 i = (u32)h1 & f->seen_mask;

	while (f->seen[i].h2 && (f->seen[i].h1 != h1 || f->seen[i].h2 != h2))
		i = (i + 1) & f->seen_mask;
	return &f->seen[i];
}

/* Makes room for n more elements of size each in *v (*alloc of them). */
static void room(void **v, u64 *alloc, u64 used, u64 n, size_t size)
{
	if (used + n <= *alloc)
		return;
	if (used + n > UINT32_MAX)
		die("call graph: too many distinct chains");
	while (used + n > *alloc)
		*alloc = *alloc ? 2 * *alloc : 4096;
	*v = xrealloc(*v, *alloc * size);
}

void callchain_hash_entry(const u64 *entry, u32 nr_words, const struct cc_item *items,
			  const char *levels, u32 nr, struct cc_chain_hash *hash)
{
	u64 a = 0x452821e638d01377ULL ^ ((u64)nr_words << 32 | nr), b = 0xbe5466cf34e90c6cULL ^ a;

	for (u32 i = 0; i < nr_words; i++)
		MIX(entry[i]);
	/* as callchain_hash(): items by DSO and match value (their first
	   sample's addresses are the record's) */
	for (u32 i = 0; i < nr; i++) {
		MIX((uintptr_t)items[i].dso ^ (u64)(u8)levels[i] << 56);
		MIX(items[i].match);
		MIX((uintptr_t)items[i].sym);
	}
	chain_hash_finish(a, b, hash);
}

int callchain_record_again(struct callchain_forest *f, const struct cc_chain_hash *hash,
			   u64 period)
{
	struct chain_seen *s;
	struct chain_rec *r;

	if (!f->seen)
		return 0;
	s = seen_slot(f, hash->h1, hash->h2);
	if (!s->h2)
		return 0;
	r = &f->recs[s->rec];
	r->period += period;
	r->again_period += period;
	r->count++;
	return 1;
}

void callchain_record(struct callchain_forest *f, const struct cc_walk *walks, u32 nr_walks,
		      const struct cc_item *items, u32 nr, u64 period)
{
	struct cc_chain_hash hash;

	callchain_hash(walks, nr_walks, items, nr, &hash);
	callchain_record_hashed(f, &hash, walks, nr_walks, items, nr, period);
}

void callchain_record_prefetch(const struct callchain_forest *f,
			       const struct cc_chain_hash *hash, int stage)
{
	const struct chain_seen *s;

	if (!f->seen)
		return;
	s = &f->seen[(u32)hash->h1 & f->seen_mask];
	if (stage == 0)
		__builtin_prefetch(s);
	else if (s->h2 == hash->h2 && s->h1 == hash->h1)
		__builtin_prefetch(&f->recs[s->rec].period, 1);
}

void callchain_record_hashed(struct callchain_forest *f, const struct cc_chain_hash *hash,
			     const struct cc_walk *walks, u32 nr_walks,
			     const struct cc_item *items, u32 nr, u64 period)
{
	struct chain_seen *s;
	struct chain_rec *r;
	u64 h1 = hash->h1, h2 = hash->h2;

	if (!nr_walks || !nr)
		return;
	if ((f->nr_seen + 1) * 2 > (f->seen ? f->seen_mask + 1 : 0))
		seen_grow(f);
	s = seen_slot(f, h1, h2);
	if (s->h2) {
		r = &f->recs[s->rec];
		r->period += period;
		r->count++;
		return;
	}
	room((void **)&f->recs, &f->alloc_recs, f->nr_seen, 1, sizeof(*f->recs));
	room((void **)&f->rec_items, &f->alloc_rec_items, f->nr_rec_items, nr,
	     sizeof(*f->rec_items));
	room((void **)&f->rec_walks, &f->alloc_rec_walks, f->nr_rec_walks, nr_walks,
	     sizeof(*f->rec_walks));
	s->h1 = h1;
	s->h2 = h2;
	s->rec = f->nr_seen;
	r = &f->recs[f->nr_seen++];
	r->period = period;
	r->again_period = 0;
	r->count = 1;
	r->item = (u32)f->nr_rec_items;
	r->nr_items = nr;
	r->walk = (u32)f->nr_rec_walks;
	r->nr_walks = nr_walks;
	memcpy(f->rec_items + f->nr_rec_items, items, nr * sizeof(*items));
	memcpy(f->rec_walks + f->nr_rec_walks, walks, nr_walks * sizeof(*walks));
	f->nr_rec_items += nr;
	f->nr_rec_walks += nr_walks;
}

void callchain_build(struct callchain_forest *f, u32 *roots, const u8 *need)
{
	struct cc_walk *walks = NULL;
	u32 alloc = 0;

	for (u32 i = 0; i < f->nr_seen; i++) {
		const struct chain_rec *r = &f->recs[i];
		const struct cc_walk *all = f->rec_walks + r->walk;
		const struct cc_item *items = f->rec_items + r->item;
		u32 n = 0;

		if (r->nr_walks > alloc) {
			alloc = r->nr_walks;
			walks = xrealloc(walks, alloc * sizeof(*walks));
		}
		for (u32 w = 0; w < r->nr_walks; w++)
			if ((!need || need[all[w].tree]) && all[w].start < r->nr_items)
				walks[n++] = all[w];
		prefetch_walks(f, roots, walks, n, items, r->nr_items);
		for (u32 w = 0; w < n; w++)
			append(f, &roots[walks[w].tree], items + walks[w].start,
			       r->nr_items - walks[w].start, r->period, r->count);
	}
	free(walks);
	forget_records(f);
}

/* Appends the paths of node n's subtree, whose path so far is path[0..len),
 * to *dst (n's children from the sibling lists). */
static void merge_node(struct callchain_forest *f, u32 *dst, u32 n, struct cc_item **path,
		       u32 len, u32 *alloc)
{
	const struct cc_node *c = &f->nodes[n];
	u32 nr_items = c->nr_items, first = c->first_child, nr = c->nr_children;
	u64 hit = c->hit;

	if (len + nr_items > *alloc) {
		while (len + nr_items > *alloc)
			*alloc *= 2;
		*path = xrealloc(*path, *alloc * sizeof(**path));
	}
	memcpy(*path + len, f->items + c->item, nr_items * sizeof(**path));
	len += nr_items;
	if (hit)
		append(f, dst, *path, len, hit, 1);
	for (u32 i = 0; i < nr; i++)
		merge_node(f, dst, f->children[first + i], path, len, alloc);
}

void callchain_merge(struct callchain_forest *f, u32 *dst, u32 src)
{
	u32 alloc = 128;
	struct cc_item *path;

	if (!src)
		return;
	/* src is not changed by the appends (they go to another tree): the
	   sibling lists built once for the merges stay right for it */
	if (!f->merging) {
		callchain_finish(f);
		f->merging = 1;
	}
	path = xmalloc(alloc * sizeof(*path));
	merge_node(f, dst, src, &path, 0, &alloc);
	free(path);
}

static int sibling_cmp(const void *a, const void *b, void *vf)
{
	const struct callchain_forest *f = vf;
	const struct cc_node *x = &f->nodes[*(const u32 *)a], *y = &f->nodes[*(const u32 *)b];

	/* perf's rbtree puts the greater key on the left */
	return item_cmp(f->key, &f->items[y->item], &f->items[x->item]);
}

/* A sibling set in the order perf made it (cc_node.born), for perf's tree. */
struct sibling_tree {
	const struct callchain_forest *f;
	const u32 *nodes;
};

/* perf's append_chain_children(): a new child goes left of an existing
 * one that matches below it (match_chain() says MATCH_LT). */
static int sibling_goes_left(const void *vt, u32 x, u32 c)
{
	const struct sibling_tree *t = vt;
	const struct callchain_forest *f = t->f;

	return item_cmp(f->key, &f->items[f->nodes[t->nodes[x]].item],
			&f->items[f->nodes[t->nodes[c]].item]) > 0;
}

static int by_dso(const void *a, const void *b)
{
	const struct cc_item *x = *(const struct cc_item *const *)a;
	const struct cc_item *y = *(const struct cc_item *const *)b;

	if (x->dso != y->dso)
		return (uintptr_t)x->dso < (uintptr_t)y->dso ? -1 : 1;
	return !!x->sym - !!y->sym;
}

/*
 * Does item_cmp() fail to order these siblings?  With the function key a
 * resolved item compares by its symbol's start against another resolved
 * one, but by its address against an unresolved one of the same DSO: when
 * a DSO has both kinds among the siblings (and its processes map it at
 * different addresses), comparisons may contradict each other.  So may
 * an inlined entry beside others: it compares by name with any resolved
 * sibling, while those compare by DSO and start among themselves
 * (inlined "elf_get_dynamic_info" > libc's "__lll_elision_init" > ld.so's
 * "init_tls" > "elf_get_dynamic_info").
 */
static int siblings_unordered(const struct callchain_forest *f, const u32 *v, u32 n)
{
	const struct cc_item **items;
	u32 inlined = 0, resolved = 0;
	int mixed = 0;

	if (f->key != CC_KEY_FUNCTION)
		return 0;
	items = xmalloc(n * sizeof(*items));
	for (u32 i = 0; i < n; i++) {
		items[i] = &f->items[f->nodes[v[i]].item];
		if (items[i]->sym) {
			resolved++;
			inlined += symbol_inlined(items[i]->sym) != 0;
		}
	}
	if (inlined && resolved > inlined) {
		free(items);
		return 1;
	}
	qsort(items, n, sizeof(*items), by_dso);
	for (u32 i = 1; i < n && !mixed; i++)
		mixed = items[i]->dso && items[i]->dso == items[i - 1]->dso &&
			!items[i]->sym != !items[i - 1]->sym;
	free(items);
	return mixed;
}

/* Puts the n siblings v[] (in the order perf made them) in the order
 * perf's tree of children gives them: a sort where item_cmp() is an
 * order, else the tree itself, built in that order. */
static void order_siblings(struct callchain_forest *f, u32 *v, u32 n)
{
	struct sibling_tree t = { f, NULL };
	u32 *created, *order;

	if (!siblings_unordered(f, v, n)) {
		qsort_r(v, n, sizeof(u32), sibling_cmp, f);
		return;
	}
	created = xmalloc(n * sizeof(u32) * 2);
	order = created + n;
	memcpy(created, v, n * sizeof(u32));
	t.nodes = created;
	rbtree_build(n, sibling_goes_left, &t, order);
	for (u32 i = 0; i < n; i++)
		v[i] = created[order[i]];
	free(created);
}

/* children_hit and children_count of every node, from the hits and counts
 * of its descendants: the nodes in breadth-first order from the roots,
 * then each adds itself to its parent, deepest first. */
static void sum_children(struct callchain_forest *f)
{
	u32 *order = xmalloc((size_t)f->nr_nodes * sizeof(*order)), nr = 0;

	for (u32 n = 1; n < f->nr_nodes; n++) {
		f->nodes[n].children_hit = 0;
		f->nodes[n].children_count = 0;
		if (!f->nodes[n].parent)
			order[nr++] = n;
	}
	for (u32 i = 0; i < nr; i++) {
		const struct cc_node *c = &f->nodes[order[i]];

		memcpy(order + nr, f->children + c->first_child, c->nr_children * sizeof(u32));
		nr += c->nr_children;
	}
	while (nr--) {
		struct cc_node *c = &f->nodes[order[nr]];

		if (c->parent) {
			f->nodes[c->parent].children_hit += cc_cumul_hits(c);
			f->nodes[c->parent].children_count += cc_cumul_counts(c);
		}
	}
	free(order);
}

void callchain_finish(struct callchain_forest *f)
{
	u32 *fill, *by_birth, total = 0;

	for (u32 n = 1; n < f->nr_nodes; n++)
		f->nodes[n].nr_children = 0;
	for (u32 n = 1; n < f->nr_nodes; n++)
		if (f->nodes[n].parent)
			f->nodes[f->nodes[n].parent].nr_children++;
	for (u32 n = 1; n < f->nr_nodes; n++) {
		f->nodes[n].first_child = total;
		total += f->nodes[n].nr_children;
	}
	free(f->children);
	f->merging = 0;
	f->children = xmalloc((total ? total : 1) * sizeof(*f->children));
	/* each list in the order perf made the children */
	fill = xcalloc(f->nr_nodes, sizeof(*fill));
	by_birth = xmalloc(f->nr_nodes * sizeof(*by_birth));
	for (u32 n = 1; n < f->nr_nodes; n++)
		by_birth[f->nodes[n].born] = n;
	for (u32 b = 1; b < f->nr_nodes; b++) {
		u32 n = by_birth[b], p = f->nodes[n].parent;

		if (p)
			f->children[f->nodes[p].first_child + fill[p]++] = n;
	}
	free(by_birth);
	free(fill);
	for (u32 n = 1; n < f->nr_nodes; n++)
		if (f->nodes[n].nr_children > 1)
			order_siblings(f, f->children + f->nodes[n].first_child,
				       f->nodes[n].nr_children);
	sum_children(f);
}
