/*
 * rborder.h - the order perf's red-black trees give their nodes.
 *
 * perf keeps histogram entries and call-graph children in red-black trees
 * whose comparisons are not always transitive (a resolved symbol compares
 * by its start, an unresolved address by itself), so the order it prints
 * depends on the tree's shape.  rbtree_build() builds the same tree (the
 * classic insertion fix-up, as the kernel's rbtree does) and reads it in
 * order.  Where the comparison is an order, a stable sort gives the same
 * result faster.
 */
#ifndef PROF_ANALYSIS_RBORDER_H
#define PROF_ANALYSIS_RBORDER_H

#include "../util/types.h"

/* Inserts nodes 0..n-1 one by one, x going left of c when
 * goes_left(ctx, x, c); out[] gets the node numbers in tree order. */
void rbtree_build(u32 n, int (*goes_left)(const void *ctx, u32 x, u32 c),
		  const void *ctx, u32 *out);

/* How rbtree_build_ranked() compares two nodes of one group. */
enum {
	RB_BY_RANK,	/* by rank: the group is ordered */
	RB_BY_KEY,	/* by class, then by key as perf compares addresses
			   (the sign of the wrapping difference), then, when
			   both are equal, by goes_left() */
	RB_BY_CALL,	/* by goes_left() */
	RB_BY_SUBKEY_DESC,	/* two whose keys have the same high 32 bits
				   but not the same low ones: the higher low
				   half goes left; others by rank */
	RB_BY_SUBKEY_ASC,	/* the same, the lower low half left */
};

/* What rbtree_build_ranked() knows of a node in advance. */
struct rb_rank {
	u64 rank;	/* the group (high 32 bits), then the place in it */
	u64 key;	/* RB_BY_KEY groups: the address; RB_BY_SUBKEY_*:
			   the key */
	u8 cls;		/* RB_BY_KEY groups: lower classes go left */
};

/*
 * rbtree_build() when most comparisons are known in advance: x goes left
 * of c when ranks[x].rank < ranks[c].rank, but for two nodes of one group
 * (the rank's high 32 bits) whose unordered[group] is not RB_BY_RANK: see
 * there.  The same tree as rbtree_build() with a goes_left() that agrees,
 * faster: a node keeps what it compares by with its links.  goes_left
 * may be NULL when no group is RB_BY_KEY or RB_BY_CALL.  place (a
 * permutation of 0..n-1, or NULL for the identity) tells where each node
 * is kept: when it is close to the node's place in the result, the last
 * steps down the tree stay in memory already fetched.
 */
void rbtree_build_ranked(u32 n, const struct rb_rank *ranks, const u8 *unordered,
			 int (*goes_left)(const void *ctx, u32 x, u32 c), const void *ctx,
			 const u32 *place, u32 *out);

#endif
