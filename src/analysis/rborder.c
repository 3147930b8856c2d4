/*
 * rborder.c - the in-order sequence of a red-black tree built by perf's
 * insertions (rborder.h).
 */
#include "rborder.h"
#include "../util/error.h"

#include <stdlib.h>

void rbtree_build(u32 n, int (*goes_left)(const void *ctx, u32 x, u32 c),
		  const void *ctx, u32 *out)
{
	enum { RED, BLACK };
	const u32 nil = (u32)-1;
	u32 *left = xmalloc((n ? n : 1) * sizeof(u32) * 4), *right = left + n;
	u32 *parent = right + n, *stack = parent + n;
	u8 *color = xmalloc(n ? n : 1);
	u32 root = nil, sp = 0, k = 0;

	for (u32 x = 0; x < n; x++) {
		u32 p = nil, c = root, z = x;
		int went_left = 0;

		while (c != nil) {
			p = c;
			went_left = goes_left(ctx, x, c);
			c = went_left ? left[c] : right[c];
		}
		left[x] = right[x] = nil;
		parent[x] = p;
		color[x] = RED;
		if (p == nil)
			root = x;
		else if (went_left)
			left[p] = x;
		else
			right[p] = x;
		/* fix-up: rotations keep the in-order sequence */
		while (parent[z] != nil && color[parent[z]] == RED) {
			u32 zp = parent[z], g = parent[zp];
			int zp_left = left[g] == zp;
			u32 y = zp_left ? right[g] : left[g];

			if (y != nil && color[y] == RED) {
				color[zp] = color[y] = BLACK;
				color[g] = RED;
				z = g;
				continue;
			}
			if (zp_left ? z == right[zp] : z == left[zp]) {
				/* rotate zp away from z's side */
				u32 t = z;

				z = zp;
				if (zp_left) {
					right[z] = left[t];
					if (left[t] != nil)
						parent[left[t]] = z;
					left[t] = z;
				} else {
					left[z] = right[t];
					if (right[t] != nil)
						parent[right[t]] = z;
					right[t] = z;
				}
				parent[t] = g;
				if (zp_left)
					left[g] = t;
				else
					right[g] = t;
				parent[z] = t;
				zp = t;
			}
			color[zp] = BLACK;
			color[g] = RED;
			/* rotate g toward the other side */
			{
				u32 gg = parent[g];

				if (zp_left) {
					left[g] = right[zp];
					if (right[zp] != nil)
						parent[right[zp]] = g;
					right[zp] = g;
				} else {
					right[g] = left[zp];
					if (left[zp] != nil)
						parent[left[zp]] = g;
					left[zp] = g;
				}
				parent[zp] = gg;
				parent[g] = zp;
				if (gg == nil)
					root = zp;
				else if (left[gg] == g)
					left[gg] = zp;
				else
					right[gg] = zp;
			}
		}
		color[root] = BLACK;
	}
	/* in-order walk */
	for (u32 c = root; c != nil || sp;) {
		while (c != nil) {
			stack[sp++] = c;
			c = left[c];
		}
		c = stack[--sp];
		out[k++] = c;
		c = right[c];
	}
	free(left);
	free(color);
}
