/*
 * callchain.h - the call-graph trees of "prof report": one tree per
 * histogram entry, built as perf 6.1's callchain_append() builds its
 * radix tree (util/callchain.c), and perf's -g option syntax.
 *
 * Use: callchain_parse_opt() for -g (and callchain_param_init() for the
 * defaults); callchain_forest_new() per histogram; callchain_record() for
 * each sample's resolved chain (items in the cursor's order: callee first
 * or caller first, as the caller walked it) with the entries it goes to
 * and the sample's period; callchain_build() once the entries are known;
 * callchain_merge() when two entries become one; callchain_finish() once
 * before reading the trees with callchain_children().
 *
 * Invariants:
 *  - A tree is a compressed trie: a node holds a run of items (a slice of
 *    the forest's item array), siblings differ in their first item, and a
 *    node's hit/count are the periods/samples of the chains ending exactly
 *    at its last item; children_hit/children_count sum its descendants'.
 *  - Items match as perf's match_chain(): by DSO and symbol start in
 *    function mode when both have a symbol, else by DSO and raw address;
 *    inlined entries (symbol_inlined()) by DSO and name.
 *  - Memory grows with the number of distinct paths only: nodes, items
 *    and the child index are growing arrays; nothing is allocated per
 *    sample.  Node 0 is never used (0 means "no node").
 *  - children_hit and children_count are summed by callchain_finish();
 *    before it they are 0.
 *  - Samples are recorded first (callchain_record()) and appended by
 *    callchain_build() once the trees needed are known.  Samples with
 *    the same walks and items (the same 128-bit hash) share a record,
 *    appended once with their summed period and count, in the order the
 *    first came: appending the same chain again only adds to the node it
 *    ends at, so the trees, and the order their nodes were made in, come
 *    out as if each sample had been appended.
 *  - After callchain_finish() siblings are listed in perf's rbtree order
 *    (descending match key: DSO creation order, then symbol start or
 *    address), which breaks ties when they are sorted by period.  Where
 *    that comparison is no order the tree is built by inserting the
 *    siblings in the order perf made them (cc_node.born).
 */
#ifndef PROF_ANALYSIS_CALLCHAIN_H
#define PROF_ANALYSIS_CALLCHAIN_H

#include "../session/session.h"

/* How the graph is printed (perf's chain_mode). */
enum cc_mode {
	CC_GRAPH_ABS,	/* "graph": percentages of the total period */
	CC_GRAPH_REL,	/* "fractal": percentages of the parent */
	CC_FLAT,	/* "flat": every path from the root */
	CC_FOLDED,	/* "folded": one line per path, ';'-joined */
	CC_NONE,
};

/* Which end of a chain is its root. */
enum cc_order {
	CC_CALLEE,	/* the sampled function first */
	CC_CALLER,	/* the outermost caller first */
};

/* What makes two chain items the same node. */
enum cc_key {
	CC_KEY_FUNCTION,
	CC_KEY_ADDRESS,
};

/* What the graph prints per node. */
enum cc_value {
	CC_VAL_PERCENT,
	CC_VAL_PERIOD,
	CC_VAL_COUNT,
};

/* perf's callchain_param, as far as report uses it. */
struct callchain_param {
	int enabled;		/* a call graph is printed */
	enum cc_mode mode;
	enum cc_order order;
	int order_set;		/* the order was given */
	enum cc_key key;
	enum cc_value value;
	double min_percent;	/* threshold, percent */
	u32 print_limit;	/* 0: no limit */
};

/* perf's defaults: graph, 0.5, callee, function, percent. */
void callchain_param_init(struct callchain_param *p);

/*
 * Parses a -g argument as perf's parse_callchain_report_opt(): comma-
 * separated tokens, each a prefix of a mode, an order, a key or a value
 * (tried in that order), "none" (ends the parse), else the threshold and
 * then the print limit.  NULL is perf's default, "graph,0.5,caller,
 * function,percent".  Returns 0, or -1 after printing an error.
 */
int callchain_parse_opt(struct callchain_param *p, const char *arg);

/* One resolved address of a chain. */
struct cc_item {
	u64 ip;			/* as recorded */
	const struct dso *dso;	/* of its map; NULL: no map */
	const struct symbol *sym;	/* NULL: unresolved */
	u64 match;		/* what it matches by (cc_item_match()) */
};

/* What an item matches others by: with the function key and a symbol,
 * the symbol's start; else the address.  Two items are one node when
 * their DSOs and match values are equal (perf's match_chain(): an
 * address that is a symbol's start resolves to that symbol, so mixing
 * the two kinds never makes a false match). */
u64 cc_item_match(enum cc_key key, const struct cc_item *it);

/* A node of a tree (perf's callchain_node). */
struct cc_node {
	u64 hit;		/* period of the chains ending here */
	u64 children_hit;	/* period of the chains going further */
	u32 count;		/* samples ending here */
	u32 children_count;	/* samples going further */
	u32 parent;		/* 0 for a root */
	u32 item;		/* first item in the forest's items */
	u32 nr_items;		/* 0 only for a root */
	u32 first_child;	/* after callchain_finish(): index into
				   the forest's child list */
	u32 nr_children;
	u32 born;		/* when perf would have made it: its place
				   among its siblings' insertions (a split's
				   head is the node split, its tail new) */
};

/* The trees of one histogram. */
struct callchain_forest {
	enum cc_key key;
	struct cc_node *nodes;
	u32 nr_nodes, alloc_nodes;
	struct cc_item *items;
	u32 nr_items, alloc_items;
	u64 *index;		/* open addressing: hash << 32 | node of
				   (parent, first item); 0 empty */
	u32 index_mask, nr_index;
	u32 *children;		/* after callchain_finish(): sibling lists */
	int merging;		/* the sibling lists were built for merges
				   (valid for the trees merged from) */
	/* callchain_record()'s samples, until callchain_build() */
	struct chain_seen *seen;	/* hash index of recs */
	u32 seen_mask, nr_seen;		/* nr_seen: records */
	struct chain_rec *recs;		/* in the order first seen */
	struct cc_item *rec_items;
	struct cc_walk *rec_walks;
	u64 alloc_recs, nr_rec_items, alloc_rec_items, nr_rec_walks, alloc_rec_walks;
};

/* A slot of the record index: the walks and items of a sample hashed to
 * 128 bits (h2 is never 0: 0 marks an empty slot), and its record. */
struct chain_seen {
	u64 h1, h2;
	u32 rec;
};

/* The samples with the same walks and items: what to append for them. */
struct chain_rec {
	u64 period;		/* sum of their periods */
	u64 again_period;	/* that of those callchain_record_again()
				   took (all but the first) */
	u32 count;		/* how many */
	u32 item, nr_items;	/* their items in rec_items */
	u32 walk, nr_walks;	/* their walks in rec_walks */
};

struct callchain_forest *callchain_forest_new(enum cc_key key);
void callchain_forest_free(struct callchain_forest *f);

/* One of a sample's appends: items[start..nr) of its chain go to the tree
 * whose root is the caller's roots[tree]. */
struct cc_walk {
	u32 tree;
	u32 start;
};

/* At most this many walks are prefetched at once. */
#define CC_PREFETCH_WALKS 128

/*
 * Records a sample's chain (nr items, with period) to be appended as the
 * walks say by callchain_build(); a sample with the same walks and items
 * as one recorded before only adds its period and one to its count.
 */
void callchain_record(struct callchain_forest *f, const struct cc_walk *walks, u32 nr_walks,
		      const struct cc_item *items, u32 nr, u64 period);

/* What callchain_record() keys a sample's chain by (callchain_hash()). */
struct cc_chain_hash {
	u64 h1, h2;
};

/* The key of a sample's chain: its walks and items. */
void callchain_hash(const struct cc_walk *walks, u32 nr_walks, const struct cc_item *items,
		    u32 nr, struct cc_chain_hash *hash);

/* For a caller that records many samples in a row: fetches the memory the
 * recording of a chain keyed hash will read, its slot in the index (stage
 * 0) and then, once the slot is in, its record (stage 1).  Only a hint:
 * it changes nothing. */
void callchain_record_prefetch(const struct callchain_forest *f,
			       const struct cc_chain_hash *hash, int stage);

/*
 * Another key for a forest's records, for children mode, where a sample's
 * walks follow from its entry and chain (hists_record_callgraph()): the
 * words that tell the sample's entry, then its items (by DSO, match value
 * and symbol) and their levels.
 */
void callchain_hash_entry(const u64 *entry, u32 nr_words, const struct cc_item *items,
			  const char *levels, u32 nr, struct cc_chain_hash *hash);

/* When a record keyed hash exists: adds period to it (again_period too)
 * and one to its count, and returns 1; else returns 0. */
int callchain_record_again(struct callchain_forest *f, const struct cc_chain_hash *hash,
			   u64 period);

/* callchain_record() of a chain whose key was computed already. */
void callchain_record_hashed(struct callchain_forest *f, const struct cc_chain_hash *hash,
			     const struct cc_walk *walks, u32 nr_walks,
			     const struct cc_item *items, u32 nr, u64 period);

/*
 * Appends the recorded samples, in the order they were first recorded,
 * each walk to the tree whose root is roots[walk's tree] (0: a new tree
 * is made) when need is NULL or need[tree] is non-zero, then forgets the
 * records.  The walks of a record go down their trees together, level by
 * level, so that their cache misses overlap.
 */
void callchain_build(struct callchain_forest *f, u32 *roots, const u8 *need);

/*
 * Adds every path of the tree src to the tree *dst as perf's
 * callchain_merge() does (each path with its hit as period and one
 * sample); src stays as it was and must not be appended to again (nor
 * merged into: a tree merged from is dropped).
 */
void callchain_merge(struct callchain_forest *f, u32 *dst, u32 src);

/* Builds the sibling lists (in perf's rbtree order); no append after. */
void callchain_finish(struct callchain_forest *f);

/* perf's callchain_cumul_hits() and callchain_cumul_counts(). */
static inline u64 cc_cumul_hits(const struct cc_node *n)
{
	return n->hit + n->children_hit;
}

static inline u32 cc_cumul_counts(const struct cc_node *n)
{
	return n->count + n->children_count;
}

/* The children of node (after callchain_finish()), *list in rbtree order. */
static inline u32 callchain_children(const struct callchain_forest *f, u32 node,
				     const u32 **list)
{
	*list = f->children + f->nodes[node].first_child;
	return f->nodes[node].nr_children;
}

#endif
