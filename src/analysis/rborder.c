/*
 * rborder.c - the in-order sequence of a red-black tree built by perf's
 * insertions (rborder.h).
 */
#include "rborder.h"
#include "../util/error.h"

#include <stdlib.h>

/* A node's links and colour together: one cache line holds four nodes,
 * and a step down the tree reads one of them. */
struct rb_node {
	u32 left, right, parent;
	u8 red;
};

void rbtree_build(u32 n, int (*goes_left)(const void *ctx, u32 x, u32 c),
		  const void *ctx, u32 *out)
{
	const u32 nil = (u32)-1;
	struct rb_node *t = xmalloc((n ? n : 1) * sizeof(*t));
	u32 *stack = xmalloc((n ? n : 1) * sizeof(*stack));
	u32 root = nil, sp = 0, k = 0;

	for (u32 x = 0; x < n; x++) {
		u32 p = nil, c = root, z = x;
		int went_left = 0;

		while (c != nil) {
			p = c;
			went_left = goes_left(ctx, x, c);
			c = went_left ? t[c].left : t[c].right;
		}
		t[x].left = t[x].right = nil;
		t[x].parent = p;
		t[x].red = 1;
		if (p == nil)
			root = x;
		else if (went_left)
			t[p].left = x;
		else
			t[p].right = x;
		/* fix-up: rotations keep the in-order sequence */
		while (t[z].parent != nil && t[t[z].parent].red) {
			u32 zp = t[z].parent, g = t[zp].parent;
			int zp_left = t[g].left == zp;
			u32 y = zp_left ? t[g].right : t[g].left;

			if (y != nil && t[y].red) {
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
					if (t[r].left != nil)
						t[t[r].left].parent = z;
					t[r].left = z;
				} else {
					t[z].left = t[r].right;
					if (t[r].right != nil)
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
					if (t[zp].right != nil)
						t[t[zp].right].parent = g;
					t[zp].right = g;
				} else {
					t[g].right = t[zp].left;
					if (t[zp].left != nil)
						t[t[zp].left].parent = g;
					t[zp].left = g;
				}
				t[zp].parent = gg;
				t[g].parent = zp;
				if (gg == nil)
					root = zp;
				else if (t[gg].left == g)
					t[gg].left = zp;
				else
					t[gg].right = zp;
			}
		}
		t[root].red = 0;
	}
	/* in-order walk */
	for (u32 c = root; c != nil || sp;) {
		while (c != nil) {
			stack[sp++] = c;
			c = t[c].left;
		}
		c = stack[--sp];
		out[k++] = c;
		c = t[c].right;
	}
	free(t);
	free(stack);
}
