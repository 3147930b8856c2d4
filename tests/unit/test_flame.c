/*
 * test_flame.c - cmocka tests for the flame-graph trie (analysis/flame.c)
 * and its writers (output/flame_svg.c): totals, sibling order, folded
 * lines, the differential columns, many distinct stacks through the
 * whole-stack table, pruning by width, and escaping in the SVG.
 *
 * Output goes to a memory stream (open_memstream) and is checked as text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "output/flame_svg.h"

/* Adds count samples of input to the stack named by the ';'-separated
 * string s (names of kind user). */
static void add(struct flame *fl, int input, const char *s, u64 count)
{
	u32 names[64], n = 0;
	const char *p = s;

	while (*p) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		names[n++] = flame_name(fl, p, len, FLAME_USER);
		p += len + (end ? 1 : 0);
	}
	flame_add(fl, input, names, n, count);
}

/* The folded output of fl, as one string (caller frees). */
static char *folded(const struct flame *fl)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(flame_write_folded(f, fl), 0);
	fclose(f);
	return buf;
}

static char *svg(const struct flame *fl, double min_width)
{
	struct flame_svg_opts o = {
		.title = "t <&> \"q\"", .width = 1200, .frame_height = 16, .min_width = min_width,
	};
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	assert_int_equal(flame_write_svg(f, fl, &o), 0);
	fclose(f);
	return buf;
}

static unsigned count_of(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_totals_and_order(void **state)
{
	struct flame fl;
	char *out;

	(void)state;
	flame_init(&fl, 1);
	add(&fl, 0, "b;x", 2);
	add(&fl, 0, "a;y;z", 3);
	add(&fl, 0, "b;x", 1);		/* a stack seen before */
	add(&fl, 0, "b", 4);
	add(&fl, 0, "a;y", 1);
	add(&fl, 0, "a.cold", 5);
	flame_finish(&fl);
	assert_int_equal(fl.total[0][0], 16);
	/* children of the root in name order: a, a.cold, b */
	assert_int_equal(fl.first[1] - fl.first[0], 3);
	assert_string_equal(flame_node_name(&fl, fl.child[fl.first[0]]), "a");
	assert_string_equal(flame_node_name(&fl, fl.child[fl.first[0] + 1]), "a.cold");
	assert_string_equal(flame_node_name(&fl, fl.child[fl.first[0] + 2]), "b");
	assert_int_equal(fl.total[0][fl.child[fl.first[0]]], 4);
	out = folded(&fl);
	assert_string_equal(out, "a;y 1\na;y;z 3\na.cold 5\nb 4\nb;x 3\n");
	free(out);
	flame_exit(&fl);
}

static void test_diff_columns(void **state)
{
	struct flame fl;
	char *out;

	(void)state;
	flame_init(&fl, 2);
	add(&fl, 0, "p;f", 3);
	add(&fl, 0, "p;g", 1);
	add(&fl, 1, "p;f", 1);
	add(&fl, 1, "p;h", 7);
	flame_finish(&fl);
	out = folded(&fl);
	assert_string_equal(out, "p;f 3 1\np;g 1 0\np;h 0 7\n");
	free(out);
	out = svg(&fl, 0);
	/* sizes from the new input: g (only in base) is not drawn */
	assert_non_null(strstr(out, "<title>h (7 samples, 87.50%; base 0 samples, 0.00%; +87.50 points)"));
	assert_null(strstr(out, "<title>g ("));
	free(out);
	flame_exit(&fl);
}

static void test_many_stacks(void **state)
{
	struct flame fl;
	u32 names[3];
	u64 sum = 0;

	(void)state;
	flame_init(&fl, 1);
	for (u32 round = 0; round < 2; round++)
		for (u32 i = 0; i < 50000; i++) {
			char a[16], b[16];

			snprintf(a, sizeof(a), "a%u", i % 100);
			snprintf(b, sizeof(b), "b%u", i);
			names[0] = flame_name(&fl, "root", 4, FLAME_USER);
			names[1] = flame_name(&fl, a, strlen(a), FLAME_USER);
			names[2] = flame_name(&fl, b, strlen(b), FLAME_USER);
			flame_add(&fl, 0, names, 3, 1);
		}
	flame_finish(&fl);
	/* all, root, 100 a's, 50000 b's */
	assert_int_equal(fl.nr_nodes, 1 + 1 + 100 + 50000);
	for (u32 i = 0; i < fl.nr_nodes; i++) {
		sum += fl.self[0][i];
		if (i)	/* a parent comes first */
			assert_true(fl.parent[i] < i);
	}
	assert_int_equal(sum, 100000);
	assert_int_equal(fl.total[0][0], 100000);
	flame_exit(&fl);
}

static void test_svg_pruning_and_escaping(void **state)
{
	struct flame fl;
	u32 names[2];
	char *out;

	(void)state;
	flame_init(&fl, 1);
	names[0] = flame_name(&fl, "big<&>'\"", 8, FLAME_KERNEL);
	names[1] = flame_name(&fl, "bad\x01\xff\xc3(", 7, FLAME_USER);
	flame_add(&fl, 0, names, 2, 10000);
	names[1] = flame_name(&fl, "tiny", 4, FLAME_USER);
	flame_add(&fl, 0, names, 2, 1);	/* 1180 / 10001 px: under 0.5 */
	flame_finish(&fl);

	out = svg(&fl, 0.5);
	assert_int_equal(count_of(out, "<g><title>"), 3);
	assert_null(strstr(out, "tiny"));
	assert_non_null(strstr(out, "<title>big&lt;&amp;&gt;&apos;&quot; (10,001 samples, 100.00%)"));
	/* a control character and bytes that are not UTF-8 become '?' */
	assert_non_null(strstr(out, "<title>bad?\?\?( (10,000 samples, 99.99%)"));
	assert_non_null(strstr(out, "t &lt;&amp;&gt; &quot;q&quot;"));
	free(out);

	out = svg(&fl, 0);
	assert_int_equal(count_of(out, "<g><title>"), 4);
	assert_non_null(strstr(out, "<title>tiny (1 sample, 0.01%)"));
	free(out);
	flame_exit(&fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals_and_order),
		cmocka_unit_test(test_diff_columns),
		cmocka_unit_test(test_many_stacks),
		cmocka_unit_test(test_svg_pruning_and_escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
