/*
 * rborder.c - the in-order sequence of a red-black tree built by perf's
 * insertions (rborder.h).
 */
#include "rborder.h"
#include "../util/error.h"

#include <stdlib.h>

#define NIL ((u32)-1)

/* A node's links, colour and (rbtree_build_ranked()) what it compares
 * by, together: a step down the tree reads one cache line. */
struct rb_node {
	u32 left, right, parent;
	u8 red;
	u8 cls;			/* rbtree_build_ranked()'s class, */
	u64 rank;		/* rank */
	u64 key;		/* and key */
};

/* Links x in as p's child (left when went_left), then the kernel's
 * insertion fix-up: recolouring and rotations, which keep the in-order
 * sequence. */
static void insert(struct rb_node *t, u32 *root, u32 x, u32 p, int went_left)
{
	u32 z = x;

	t[x].left = t[x].right = NIL;
	t[x].parent = p;
	t[x].red = 1;
	if (p == NIL)
		*root = x;
	else if (went_left)
		t[p].left = x;
	else
		t[p].right = x;
	while (t[z].parent != NIL && t[t[z].parent].red) {
		u32 zp = t[z].parent, g = t[zp].parent;
		int zp_left = t[g].left == zp;
		u32 y = zp_left ? t[g].right : t[g].left;

		if (y != NIL && t[y].red) {
			t[zp].red = t[y].red = 0;
			t[g].red = 1;
			z = g;
			continue;
		}
		if (zp_left ? z == t[zp].right : z == t[zp].left) {
			/* rotate zp away from z's side */
			u32 r = z;

			z = zp;
			if (zp_left) {
				t[z].right = t[r].left;
				if (t[r].left != NIL)
					t[t[r].left].parent = z;
				t[r].left = z;
			} else {
				t[z].left = t[r].right;
				if (t[r].right != NIL)
					t[t[r].right].parent = z;
				t[r].right = z;
			}
			t[r].parent = g;
			if (zp_left)
				t[g].left = r;
			else
				t[g].right = r;
			t[z].parent = r;
			zp = r;
		}
		t[zp].red = 0;
		t[g].red = 1;
		/* rotate g toward the other side */
		{
			u32 gg = t[g].parent;

			if (zp_left) {
				t[g].left = t[zp].right;
				if (t[zp].right != NIL)
					t[t[zp].right].parent = g;
				t[zp].right = g;
			} else {
				t[g].right = t[zp].left;
				if (t[zp].left != NIL)
					t[t[zp].left].parent = g;
				t[zp].left = g;
			}
			t[zp].parent = gg;
			t[g].parent = zp;
			if (gg == NIL)
				*root = zp;
			else if (t[gg].left == g)
				t[gg].left = zp;
			else
				t[gg].right = zp;
		}
	}
	t[*root].red = 0;
}

/* Reads the tree in order into out[], then frees it. */
static void walk_and_free(struct rb_node *t, u32 root, u32 n, u32 *out)
{
	u32 *stack = xmalloc((n ? n : 1) * sizeof(*stack));
	u32 sp = 0, k = 0;

	for (u32 c = root; c != NIL || sp;) {
		while (c != NIL) {
			stack[sp++] = c;
			c = t[c].left;
		}
		c = stack[--sp];
		out[k++] = c;
		c = t[c].right;
	}
	free(stack);
	free(t);
}

void rbtree_build(u32 n, int (*goes_left)(const void *ctx, u32 x, u32 c),
		  const void *ctx, u32 *out)
{
	struct rb_node *t = xmalloc((n ? n : 1) * sizeof(*t));
	u32 root = NIL;

	for (u32 x = 0; x < n; x++) {
		u32 p = NIL, c = root;
		int went_left = 0;

		while (c != NIL) {
			p = c;
			went_left = goes_left(ctx, x, c);
			c = went_left ? t[c].left : t[c].right;
		}
		insert(t, &root, x, p, went_left);
	}
	walk_and_free(t, root, n, out);
}

/* perf's address comparisons: the sign of the wrapping difference */
static inline int cmp_wrap(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

void rbtree_build_ranked(u32 n, const struct rb_rank *ranks, const u8 *unordered,
			 int (*goes_left)(const void *ctx, u32 x, u32 c), const void *ctx,
			 const u32 *place, u32 *out)
{
	struct rb_node *t = xmalloc((n ? n : 1) * sizeof(*t));
	u32 root = NIL, last = NIL, *node_at = NULL;

	/* node_at: the node in each slot */
	if (place) {
		node_at = xmalloc((n ? n : 1) * sizeof(*node_at));
		for (u32 x = 0; x < n; x++)
			node_at[place[x]] = x;
	}
	for (u32 x = 0; x < n; x++) {
		u64 r = ranks[x].rank, key = ranks[x].key;
		u8 cls = ranks[x].cls;
		u32 p = NIL, c = root, sx = place ? place[x] : x;
		int went_left = 0, how = unordered[r >> 32];

		t[sx].rank = r;
		t[sx].key = key;
		t[sx].cls = cls;
		/* Groups come in rank order and an ordered group's nodes too,
		   so a node of an ordered group ranked at or above the last
		   one goes right all the way down: under the last one (a
		   tree made in order, the comm collapse's, takes no steps). */
		if (!how && last != NIL && r >= t[last].rank) {
			p = last;
			c = NIL;
		}
		while (c != NIL) {
			p = c;
			if (!how || (r ^ t[c].rank) >> 32) {
				went_left = r < t[c].rank;
			} else if (how >= RB_BY_SUBKEY_DESC) {
				u64 ck = t[c].key;

				if (!((key ^ ck) >> 32) && (u32)key != (u32)ck)
					went_left = how == RB_BY_SUBKEY_DESC ? (u32)key > (u32)ck :
									       (u32)key < (u32)ck;
				else
					went_left = r < t[c].rank;
			} else if (how == RB_BY_KEY && cls != t[c].cls) {
				went_left = cls < t[c].cls;
			} else {
				int d = how == RB_BY_KEY ? cmp_wrap(key, t[c].key) : 0;

				went_left = d ? d < 0 : goes_left(ctx, x, node_at ? node_at[c] : c);
			}
			c = went_left ? t[c].left : t[c].right;
		}
		if (p == last && !went_left)
			last = sx;
		insert(t, &root, sx, p, went_left);
	}
	walk_and_free(t, root, n, out);
	if (node_at) {
		for (u32 k = 0; k < n; k++)
			out[k] = node_at[out[k]];
		free(node_at);
	}
}
