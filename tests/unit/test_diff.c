/*
 * test_diff.c - cmocka tests for src/analysis/diff.c: perf diff's -c
 * parsing (setup_compute()), its event matching (evsel__match2()), and
 * the rows of two files: entries matched by DSO and symbol name, entries
 * of one name collapsed into the first in the input tree, a row of its
 * own for an entry only the new file has, perf's delta, ratio and wdiff,
 * the output sort list's order, -b, and filtered entries.
 *
 * The histograms are made by hand (entries, ranks, totals); the expected
 * values are worked out from perf's formulas.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/diff.h"
#include "symbol/symbol.h"
#include "util/error.h"

static void test_compute_parse(void **state)
{
	struct diff_rows d = { 0 };

	(void)state;
	error_set_quiet(2);
	assert_int_equal(diff_compute_parse(&d, "ratio"), 0);
	assert_int_equal(d.compute, DIFF_COMPUTE_RATIO);
	assert_int_equal(diff_compute_parse(&d, "delta-abs"), 0);
	assert_int_equal(d.compute, DIFF_COMPUTE_DELTA_ABS);
	assert_int_equal(diff_compute_parse(&d, "wdiff:3,-2"), 0);
	assert_int_equal(d.compute, DIFF_COMPUTE_WDIFF);
	assert_int_equal(d.w1, 3);
	assert_int_equal(d.w2, -2);
	/* a weight of 0, or a missing one, is refused */
	assert_int_equal(diff_compute_parse(&d, "wdiff:0,2"), -1);
	assert_int_equal(diff_compute_parse(&d, "wdiff:1,"), -1);
	assert_int_equal(diff_compute_parse(&d, "wdiff:1"), -1);
	assert_int_equal(diff_compute_parse(&d, "wdiff"), -1);
	/* only wdiff takes an argument; names match whole */
	assert_int_equal(diff_compute_parse(&d, "delta:1"), -1);
	assert_int_equal(diff_compute_parse(&d, "del"), -1);
	assert_int_equal(diff_compute_parse(&d, "deltas"), -1);
	error_set_quiet(0);
}

static void test_match_evsel(void **state)
{
	struct pd_evsel ev[3], q;
	struct pd_file f;

	(void)state;
	memset(ev, 0, sizeof(ev));
	memset(&f, 0, sizeof(f));
	memset(&q, 0, sizeof(q));
	ev[0].attr.type = 1, ev[0].attr.config = 1;
	ev[1].attr.type = 0, ev[1].attr.config = 1;
	ev[2].attr.type = 0, ev[2].attr.config = 1;
	f.evsel = ev;
	f.nr_evsel = 3;
	/* by type and config, the first one */
	assert_int_equal(diff_match_evsel(&f, &ev[2]), 1);
	assert_int_equal(diff_match_evsel(&f, &ev[0]), 0);
	q.attr.type = 1, q.attr.config = 0;
	assert_int_equal(diff_match_evsel(&f, &q), -1);
}

/* Two files' histograms of one event, keyed by dso,sym. */
struct two_files {
	struct hist_layout lay;
	struct hist_strings *strs;
	struct symbol foo, foo1, foo2, bar, baz;
	struct hist_entry base[2], new[3];
	u32 base_rank[2], new_rank[3];
	struct hists h[2];
	const struct hists *hp[2];
	u64 shown[2];
};

/*
 * Baseline: foo 60, bar 40.  New: foo 20 and foo 10 (two symbols of one
 * name; the second is first in the input tree), baz 70.  No DSO (name id
 * 0), so that no name is interned.
 */
static void two_files_init(struct two_files *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(hist_layout_parse(&t->lay, "dso,sym", NULL, 0, 0, 0), 0);
	t->strs = hist_strings_new();
	t->foo.name = t->foo1.name = t->foo2.name = "foo";
	t->bar.name = "bar";
	t->baz.name = "baz";
	t->base[0] = (struct hist_entry){ .period = 60, .sym = &t->foo };
	t->base[1] = (struct hist_entry){ .period = 40, .sym = &t->bar };
	t->new[0] = (struct hist_entry){ .period = 20, .sym = &t->foo1 };
	t->new[1] = (struct hist_entry){ .period = 10, .sym = &t->foo2 };
	t->new[2] = (struct hist_entry){ .period = 70, .sym = &t->baz };
	t->base_rank[0] = 0, t->base_rank[1] = 1;
	t->new_rank[0] = 1, t->new_rank[1] = 0, t->new_rank[2] = 2;
	t->h[0].entries = t->base, t->h[0].nr_entries = 2, t->h[0].input_rank = t->base_rank;
	t->h[1].entries = t->new, t->h[1].nr_entries = 3, t->h[1].input_rank = t->new_rank;
	t->h[0].total_period = t->h[1].total_period = 100;
	t->hp[0] = &t->h[0], t->hp[1] = &t->h[1];
	t->shown[0] = t->shown[1] = 100;
}

static void two_files_free(struct two_files *t, struct diff_rows *d)
{
	diff_rows_free(d);
	hist_strings_free(t->strs);
}

static void test_rows(void **state)
{
	struct two_files t;
	struct diff_rows d = { .order = 1, .compute = DIFF_COMPUTE_DELTA_ABS, .w1 = 1, .w2 = 3 };
	const struct diff_cell *foo, *bar, *baz;

	(void)state;
	two_files_init(&t);
	diff_rows_init(&d, &t.lay, t.strs, 2);
	diff_rows_event(&d, t.hp, t.shown);
	assert_int_equal(d.nr_rows, 3);
	/* rows in the order they were made: the baseline's, then baz */
	foo = diff_row(&d, 0), bar = diff_row(&d, 1), baz = diff_row(&d, 2);
	assert_ptr_equal(foo[0].e, &t.base[0]);
	assert_ptr_equal(bar[0].e, &t.base[1]);
	assert_null(baz[0].e);
	assert_ptr_equal(baz[1].e, &t.new[2]);
	assert_int_equal(diff_row_key_file(&d, 2), 1);
	/* the two foos of the new file are one, named by the first in the
	   input tree */
	assert_ptr_equal(foo[1].e, &t.new[1]);
	assert_int_equal(foo[1].period, 30);
	assert_null(bar[1].e);
	assert_int_equal(diff_cell_period(&bar[1]), 0);
	/* delta: 30% - 60%; ratio: 30 / 60; wdiff: 30 * 3 - 60 * 1 */
	assert_true(foo[1].delta == -30.0);
	assert_true(foo[1].ratio == 0.5);
	assert_int_equal(foo[1].wdiff, 30);
	/* against no baseline: ratio over 1, wdiff of 0 * w1 */
	assert_true(baz[1].delta == 70.0);
	assert_true(baz[1].ratio == 70.0);
	assert_int_equal(baz[1].wdiff, 210);
	assert_int_equal(d.base_total, 100);
	/* |delta| of file 1 first; bar, without a pair, last */
	assert_int_equal(d.sorted[0], 2);
	assert_int_equal(d.sorted[1], 0);
	assert_int_equal(d.sorted[2], 1);

	/* ratio: the rows with a baseline before the others on file 1 */
	d.compute = DIFF_COMPUTE_RATIO;
	diff_rows_event(&d, t.hp, t.shown);
	assert_int_equal(d.sorted[0], 0);
	assert_int_equal(d.sorted[1], 2);
	assert_int_equal(d.sorted[2], 1);

	/* -o 0: the baseline's period first */
	d.order = 0;
	diff_rows_event(&d, t.hp, t.shown);
	assert_int_equal(d.sorted[0], 0);
	assert_int_equal(d.sorted[1], 1);
	assert_int_equal(d.sorted[2], 2);
	two_files_free(&t, &d);
}

static void test_baseline_only(void **state)
{
	struct two_files t;
	struct diff_rows d = { .order = 1, .compute = DIFF_COMPUTE_DELTA, .baseline_only = 1 };

	(void)state;
	two_files_init(&t);
	diff_rows_init(&d, &t.lay, t.strs, 2);
	diff_rows_event(&d, t.hp, t.shown);
	/* foo only: baz makes no row, bar has no match; the Baseline
	   column is a share of the rows with a match */
	assert_int_equal(d.nr_rows, 1);
	assert_ptr_equal(diff_row(&d, 0)[0].e, &t.base[0]);
	assert_int_equal(d.base_total, 60);
	/* the computations' totals are the histograms' */
	assert_true(diff_row(&d, 0)[1].delta == -30.0);
	two_files_free(&t, &d);
}

static void test_filtered(void **state)
{
	struct two_files t;
	struct diff_rows d = { .order = 1, .compute = DIFF_COMPUTE_DELTA };

	(void)state;
	two_files_init(&t);
	t.base[1].filtered = 1;		/* bar */
	t.new[1].filtered = 1;		/* the foo that names the row */
	t.shown[0] = 60;
	t.shown[1] = 80;
	diff_rows_init(&d, &t.lay, t.strs, 2);
	diff_rows_event(&d, t.hp, t.shown);
	/* bar's row goes; foo's stays, named by the baseline's */
	assert_int_equal(d.nr_rows, 2);
	assert_ptr_equal(diff_row(&d, 0)[0].e, &t.base[0]);
	assert_ptr_equal(diff_row(&d, 1)[1].e, &t.new[2]);
	/* absolute: shares of every sample */
	assert_int_equal(d.base_total, 100);
	assert_true(diff_row(&d, 0)[1].delta == -30.0);

	/* --percentage relative: of the samples not filtered out */
	d.relative = 1;
	diff_rows_event(&d, t.hp, t.shown);
	assert_int_equal(d.base_total, 60);
	assert_int_equal(d.total[0], 60);
	assert_int_equal(d.total[1], 80);
	assert_true(diff_row(&d, 0)[1].delta == 30.0 * 100 / 80 - 100.0);
	two_files_free(&t, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compute_parse),
		cmocka_unit_test(test_match_evsel),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_baseline_only),
		cmocka_unit_test(test_filtered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
