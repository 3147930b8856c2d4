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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_siblings_by_start),
		cmocka_unit_test(test_inlined_sibling_cycle),
		cmocka_unit_test(test_inlined_sibling_cycle_other_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
