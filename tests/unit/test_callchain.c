/*
 * test_callchain.c - cmocka tests for src/analysis/callchain: the order of
 * a call-graph node's children, which decides the order of siblings of
 * equal period in every -g mode.
 *
 * perf keeps a node's children in a red-black tree compared by
 * match_chain(): inlined entries by name against any resolved sibling,
 * others by DSO and symbol start.  Where that is not an order, the
 * printed order is the tree's in-order sequence after inserting the
 * children in creation order, worked out by hand below for each case.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/callchain.h"
#include "symbol/symbol.h"

/* A symbol of the test's one DSO. */
static struct symbol make_sym(const char *name, u64 start, int inlined, u32 inline_id)
{
	struct symbol s;

	memset(&s, 0, sizeof(s));
	s.name = name;
	s.start = start;
	s.end = start + 0x10;
	s.inlined = (u8)inlined;
	s.inline_id = inline_id;
	return s;
}

static struct cc_item make_item(const struct dso *dso, const struct symbol *sym)
{
	struct cc_item it = { .ip = sym->start + 1, .dso = dso, .sym = sym };

	it.match = cc_item_match(CC_KEY_FUNCTION, &it);
	return it;
}

/*
 * Appends [parent, child[i]] for each i with period 1, and returns the
 * names of the parent's children in their final order.
 */
static void sibling_names(const struct dso *dso, const struct symbol *parent,
			  const struct symbol *const *child, u32 n, const char **names)
{
	struct callchain_forest *f = callchain_forest_new(CC_KEY_FUNCTION);
	struct cc_walk walk = { 0, 0 };
	u32 roots[1] = { 0 }, nr, node;
	const u32 *kids;

	for (u32 i = 0; i < n; i++) {
		struct cc_item items[2] = { make_item(dso, parent), make_item(dso, child[i]) };

		callchain_record(f, &walk, 1, items, 2, 1);
	}
	callchain_build(f, roots, NULL);
	callchain_finish(f);
	/* root -> the parent's node -> the children */
	nr = callchain_children(f, roots[0], &kids);
	assert_int_equal(nr, 1);
	node = kids[0];
	assert_string_equal(f->items[f->nodes[node].item].sym->name, parent->name);
	nr = callchain_children(f, node, &kids);
	assert_int_equal(nr, n);
	for (u32 i = 0; i < n; i++)
		names[i] = f->items[f->nodes[kids[i]].item].sym->name;
	callchain_forest_free(f);
}

/* Resolved siblings of one DSO: descending symbol start. */
static void test_siblings_by_start(void **state)
{
	struct dso dso;
	struct symbol p = make_sym("parent", 0x10, 0, 0);
	struct symbol a = make_sym("a", 0x100, 0, 0), b = make_sym("b", 0x300, 0, 0),
		      c = make_sym("c", 0x200, 0, 0);
	const struct symbol *kids[] = { &a, &b, &c };
	const char *names[3];

	(void)state;
	memset(&dso, 0, sizeof(dso));
	dso.serial = 1;
	sibling_names(&dso, &p, kids, 3, names);
	assert_string_equal(names[0], "b");
	assert_string_equal(names[1], "c");
	assert_string_equal(names[2], "a");
}

/*
 * An inlined sibling compares by name with the others ("m" > "a", "m" <
 * "z"), which compare by start among themselves (a at 0x100 > z at
 * 0x50): a cycle.  perf's tree, children inserted m, a, z (a new child
 * goes left of one it is greater than): m is the root; a < m goes right;
 * z > m goes left.  In order: z, m, a.
 */
static void test_inlined_sibling_cycle(void **state)
{
	struct dso dso;
	struct symbol p = make_sym("parent", 0x10, 0, 0);
	struct symbol m = make_sym("m", 0x400, 1, 7), a = make_sym("a", 0x100, 0, 0),
		      z = make_sym("z", 0x50, 0, 0);
	const struct symbol *kids[] = { &m, &a, &z };
	const char *names[3];

	(void)state;
	memset(&dso, 0, sizeof(dso));
	dso.serial = 1;
	sibling_names(&dso, &p, kids, 3, names);
	assert_string_equal(names[0], "z");
	assert_string_equal(names[1], "m");
	assert_string_equal(names[2], "a");
}

/* The same three inserted a, z, m: a is the root; z < a goes right; m
 * compares with a by name (m > a: left).  In order: m, a, z. */
static void test_inlined_sibling_cycle_other_order(void **state)
{
	struct dso dso;
	struct symbol p = make_sym("parent", 0x10, 0, 0);
	struct symbol m = make_sym("m", 0x400, 1, 7), a = make_sym("a", 0x100, 0, 0),
		      z = make_sym("z", 0x50, 0, 0);
	const struct symbol *kids[] = { &a, &z, &m };
	const char *names[3];

	(void)state;
	memset(&dso, 0, sizeof(dso));
	dso.serial = 1;
	sibling_names(&dso, &p, kids, 3, names);
	assert_string_equal(names[0], "m");
	assert_string_equal(names[1], "a");
	assert_string_equal(names[2], "z");
}

/* An item of dso at ip with no symbol. */
static struct cc_item make_unresolved(const struct dso *dso, u64 ip)
{
	struct cc_item it = { .ip = ip, .dso = dso, .sym = NULL };

	it.match = cc_item_match(CC_KEY_FUNCTION, &it);
	return it;
}

/* The child of node whose first item is the symbol named sym. */
static u32 child_named(const struct callchain_forest *f, u32 node, const char *sym)
{
	const u32 *kids;
	u32 nr = callchain_children(f, node, &kids);

	for (u32 i = 0; i < nr; i++) {
		const struct cc_item *it = &f->items[f->nodes[kids[i]].item];

		if (it->sym && !strcmp(it->sym->name, sym))
			return kids[i];
	}
	fail_msg("no child %s", sym);
	return 0;
}

/*
 * A split keeps the node split where it was among its siblings: perf
 * makes the tail a new node and leaves the head in its parent's tree.
 * Under p, in one DSO: a (resolved, start 0x100, sampled at 0x5000), b
 * (unresolved, 0x3000) and c (resolved, start 0x200, sampled at 0x1000)
 * compare a > b and b > c by address but c > a by start.  Made in the
 * order a, b, c (a's node holds "a d" until the chain "p a e" splits it,
 * after c): a is the root, b < a goes right, c > a goes left; in order
 * c, a, b.  Were a's head made at the split, the insertions b, c, a would
 * give a, b, c.
 */
static void test_split_head_keeps_place(void **state)
{
	struct dso dso;
	struct symbol p = make_sym("p", 0x10, 0, 0), a = make_sym("a", 0x100, 0, 0),
		      c = make_sym("c", 0x200, 0, 0), d = make_sym("d", 0x300, 0, 0),
		      e = make_sym("e", 0x400, 0, 0);
	struct callchain_forest *f = callchain_forest_new(CC_KEY_FUNCTION);
	struct cc_walk walk = { 0, 0 };
	u32 roots[1] = { 0 }, nr, node;
	const u32 *kids;
	struct cc_item ia, ic;

	(void)state;
	memset(&dso, 0, sizeof(dso));
	dso.serial = 1;
	ia = make_item(&dso, &a);
	ia.ip = 0x5000;
	ic = make_item(&dso, &c);
	ic.ip = 0x1000;
	{
		struct cc_item c1[] = { make_item(&dso, &p), ia, make_item(&dso, &d) };
		struct cc_item c2[] = { make_item(&dso, &p), make_unresolved(&dso, 0x3000) };
		struct cc_item c3[] = { make_item(&dso, &p), ic };
		struct cc_item c4[] = { make_item(&dso, &p), ia, make_item(&dso, &e) };

		callchain_record(f, &walk, 1, c1, 3, 1);
		callchain_record(f, &walk, 1, c2, 2, 1);
		callchain_record(f, &walk, 1, c3, 2, 1);
		callchain_record(f, &walk, 1, c4, 3, 1);
	}
	callchain_build(f, roots, NULL);
	callchain_finish(f);
	node = child_named(f, roots[0], "p");
	nr = callchain_children(f, node, &kids);
	assert_int_equal(nr, 3);
	assert_ptr_equal(f->items[f->nodes[kids[0]].item].sym, &c);
	assert_ptr_equal(f->items[f->nodes[kids[1]].item].sym, &a);
	assert_null(f->items[f->nodes[kids[2]].item].sym);
	/* a's children (d, the tail, and e): by start */
	nr = callchain_children(f, kids[1], &kids);
	assert_int_equal(nr, 2);
	assert_ptr_equal(f->items[f->nodes[kids[0]].item].sym, &e);
	assert_ptr_equal(f->items[f->nodes[kids[1]].item].sym, &d);
	callchain_forest_free(f);
}

/*
 * Two inlined siblings and an unresolved one: "a" < "b" by name, while
 * each compares with the unresolved address 0x150 by its own address (a
 * at 0x201 > 0x150 > b at 0x101): a cycle.  Inserted b, a, u: b is the
 * root; a < b goes right; u > b goes left.  In order: u, b, a.  (The
 * unresolved sibling among resolved ones of its DSO is what sends the
 * set to the tree here.)
 */
static void test_inlined_and_unresolved_cycle(void **state)
{
	struct dso dso;
	struct symbol p = make_sym("parent", 0x10, 0, 0);
	struct symbol a = make_sym("a", 0x200, 1, 1), b = make_sym("b", 0x100, 1, 2);
	struct callchain_forest *f = callchain_forest_new(CC_KEY_FUNCTION);
	struct cc_walk walk = { 0, 0 };
	u32 roots[1] = { 0 }, nr;
	const u32 *kids;
	struct cc_item u = { .ip = 0x150 };

	(void)state;
	memset(&dso, 0, sizeof(dso));
	dso.serial = 1;
	u.dso = &dso;
	u.match = cc_item_match(CC_KEY_FUNCTION, &u);
	for (int i = 0; i < 3; i++) {
		struct cc_item items[2] = { make_item(&dso, &p),
					    i == 0 ? make_item(&dso, &b) :
					    i == 1 ? make_item(&dso, &a) : u };

		callchain_record(f, &walk, 1, items, 2, 1);
	}
	callchain_build(f, roots, NULL);
	callchain_finish(f);
	nr = callchain_children(f, roots[0], &kids);
	assert_int_equal(nr, 1);
	nr = callchain_children(f, kids[0], &kids);
	assert_int_equal(nr, 3);
	assert_null(f->items[f->nodes[kids[0]].item].sym);
	assert_non_null(f->items[f->nodes[kids[1]].item].sym);
	assert_string_equal(f->items[f->nodes[kids[1]].item].sym->name, "b");
	assert_non_null(f->items[f->nodes[kids[2]].item].sym);
	assert_string_equal(f->items[f->nodes[kids[2]].item].sym->name, "a");
	callchain_forest_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_siblings_by_start),
		cmocka_unit_test(test_inlined_sibling_cycle),
		cmocka_unit_test(test_inlined_sibling_cycle_other_order),
		cmocka_unit_test(test_inlined_and_unresolved_cycle),
		cmocka_unit_test(test_split_head_keeps_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
