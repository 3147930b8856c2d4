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

#include "../format/perf_data.h"

/* Inserts nodes 0..n-1 one by one, x going left of c when
 * goes_left(ctx, x, c); out[] gets the node numbers in tree order. */
void rbtree_build(u32 n, int (*goes_left)(const void *ctx, u32 x, u32 c),
		  const void *ctx, u32 *out);

#endif
