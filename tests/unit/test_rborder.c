/*
 * test_rborder.c - cmocka tests for src/analysis/rborder: the in-order
 * sequence of perf's red-black trees.
 *
 * rbtree_build_ranked() must build the very tree rbtree_build() builds
 * with the comparison it stands for, also where that comparison is not an
 * order (addresses compared by their wrapping difference, spread over the
 * whole 64-bit circle), so both run on the same random nodes and their
 * sequences must be equal, wherever the ranked tree keeps its nodes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/rborder.h"

/* A node as the ranked tree's caller sees it: its group, its place in an
 * ordered group, its class and address, and a tie-breaker goes_left()
 * reads (as input_cmp() reads the sort keys after the symbol). */
struct test_node {
	u32 group, place, tie;
	u8 cls;
	u64 addr;
	u32 thread, depth;	/* RB_BY_SUBKEY_* */
};

struct test_tree {
	const struct test_node *v;
	const u8 *how;		/* per group: RB_BY_* */
};

static int wrap_sign(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* What the ranked tree stands for, written out whole. */
static int full_goes_left(const void *vt, u32 x, u32 c)
{
	const struct test_tree *t = vt;
	const struct test_node *a = &t->v[x], *b = &t->v[c];
	int d;

	if (a->group != b->group)
		return a->group < b->group;
	switch (t->how[a->group]) {
	case RB_BY_RANK:
		return a->place < b->place;
	case RB_BY_KEY:
		if (a->cls != b->cls)
			return a->cls < b->cls;
		d = wrap_sign(a->addr, b->addr);
		if (d)
			return d < 0;
		return a->tie < b->tie;
	case RB_BY_SUBKEY_DESC:
	case RB_BY_SUBKEY_ASC:
		/* as perf's output tree with call graphs: one thread's
		   entries by depth, others by place */
		if (a->thread == b->thread && a->depth != b->depth)
			return t->how[a->group] == RB_BY_SUBKEY_DESC ? a->depth > b->depth :
								       a->depth < b->depth;
		return a->place < b->place;
	default:
		/* any comparison: the address's low bits, then the tie */
		if ((a->addr & 7) != (b->addr & 7))
			return (a->addr & 7) > (b->addr & 7);
		return a->tie < b->tie;
	}
}

static u64 rnd(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Sorts node numbers by group and place: an insertion order like that of
 * a tree made from another one's order. */
static const struct test_node *sort_nodes;

static int by_group_place(const void *pa, const void *pb)
{
	const struct test_node *a = &sort_nodes[*(const u32 *)pa], *b = &sort_nodes[*(const u32 *)pb];

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

/* Both trees of n random nodes in nr_groups groups (in_order: inserted
 * by group and place, as a tree made from another one's order). */
static void check_same_tree(u32 n, u32 nr_groups, u64 seed, int in_order)
{
	struct test_node *v = calloc(n, sizeof(*v));
	struct rb_rank *ranks = calloc(n, sizeof(*ranks));
	u8 *how = calloc(nr_groups, 1);
	u32 *plain = calloc(n, sizeof(u32)), *ranked = calloc(n, sizeof(u32));
	struct test_tree t = { v, how };
	u64 s = seed;

	for (u32 g = 0; g < nr_groups; g++)
		how[g] = (u8)(rnd(&s) % 5);
	for (u32 i = 0; i < n; i++) {
		v[i].group = (u32)(rnd(&s) % nr_groups);
		v[i].place = (u32)(rnd(&s) % 16);	/* equal places too */
		v[i].tie = (u32)(rnd(&s) % 4);
		v[i].cls = (u8)(rnd(&s) % 2);
		/* a few addresses repeat, all of the circle is used */
		v[i].addr = rnd(&s) % 3 ? rnd(&s) : (u64)(rnd(&s) % 4) << 62;
		v[i].thread = (u32)(rnd(&s) % 3);
		v[i].depth = (u32)(rnd(&s) % 4);
		switch (how[v[i].group]) {
		case RB_BY_RANK:
			ranks[i].rank = (u64)v[i].group << 32 | v[i].place;
			ranks[i].key = 0;
			break;
		case RB_BY_SUBKEY_DESC:
		case RB_BY_SUBKEY_ASC:
			ranks[i].rank = (u64)v[i].group << 32 | v[i].place;
			ranks[i].key = (u64)v[i].thread << 32 | v[i].depth;
			break;
		default:
			ranks[i].rank = (u64)v[i].group << 32;
			ranks[i].key = v[i].addr;
			break;
		}
		ranks[i].cls = v[i].cls;
	}
	if (in_order) {
		u32 *idx = calloc(n, sizeof(u32));
		struct test_node *sv = calloc(n, sizeof(*sv));
		struct rb_rank *sr = calloc(n, sizeof(*sr));

		for (u32 i = 0; i < n; i++)
			idx[i] = i;
		sort_nodes = v;
		qsort(idx, n, sizeof(u32), by_group_place);
		for (u32 i = 0; i < n; i++) {
			sv[i] = v[idx[i]];
			sr[i] = ranks[idx[i]];
		}
		memcpy(v, sv, n * sizeof(*v));
		memcpy(ranks, sr, n * sizeof(*ranks));
		free(idx);
		free(sv);
		free(sr);
	}
	rbtree_build(n, full_goes_left, &t, plain);
	rbtree_build_ranked(n, ranks, how, full_goes_left, &t, NULL, ranked);
	assert_memory_equal(plain, ranked, n * sizeof(u32));
	/* the nodes kept anywhere (a random permutation): the same tree */
	{
		u32 *place = calloc(n, sizeof(u32));

		for (u32 i = 0; i < n; i++)
			place[i] = i;
		for (u32 i = n; i > 1; i--) {
			u32 j = (u32)(rnd(&s) % i), x = place[i - 1];

			place[i - 1] = place[j];
			place[j] = x;
		}
		memset(ranked, 0xff, n * sizeof(u32));
		rbtree_build_ranked(n, ranks, how, full_goes_left, &t, place, ranked);
		assert_memory_equal(plain, ranked, n * sizeof(u32));
		free(place);
	}
	free(v);
	free(ranks);
	free(how);
	free(plain);
	free(ranked);
}

static void test_ranked_same_tree(void **state)
{
	(void)state;
	for (u64 seed = 1; seed <= 40; seed++) {
		check_same_tree(1 + (u32)(seed * 97 % 3000), 1 + (u32)(seed % 7),
				seed * 0x9e3779b97f4a7c15ULL, 0);
		check_same_tree(1 + (u32)(seed * 97 % 3000), 1 + (u32)(seed % 7),
				seed * 0x9e3779b97f4a7c15ULL, 1);
	}
}

/* One node, and none. */
static void test_ranked_small(void **state)
{
	struct rb_rank r = { 0, 5, 0 };
	u8 how = RB_BY_KEY;
	u32 out = 99;

	(void)state;
	rbtree_build_ranked(1, &r, &how, full_goes_left, NULL, NULL, &out);
	assert_int_equal(out, 0);
	rbtree_build_ranked(0, &r, &how, full_goes_left, NULL, NULL, &out);
	assert_int_equal(out, 0);
}

/* With an order, the sequence is a stable sort. */
static void test_ranked_stable(void **state)
{
	enum { N = 1000 };
	struct rb_rank r[N];
	u8 how = RB_BY_RANK;
	u32 out[N];

	(void)state;
	for (u32 i = 0; i < N; i++)
		r[i] = (struct rb_rank){ (N - i) / 10, 0, 0 };
	rbtree_build_ranked(N, r, &how, full_goes_left, NULL, NULL, out);
	for (u32 i = 1; i < N; i++) {
		assert_true(r[out[i - 1]].rank <= r[out[i]].rank);
		if (r[out[i - 1]].rank == r[out[i]].rank)
			assert_true(out[i - 1] < out[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranked_same_tree),
		cmocka_unit_test(test_ranked_small),
		cmocka_unit_test(test_ranked_stable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
