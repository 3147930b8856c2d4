/*
 * test_branch.c - unit tests of analysis/branch_hist.c's pure parts: the
 * branch-mode layout from --sort (perf's default, overhead first, -n and
 * --show-total-period columns, unknown and unsupported keys, perf's
 * prefix matching) and perf's branch_type_count() rules (unknown types
 * and zero sources not counted, conditional forward/backward, 2M before
 * 4K crossings, extended types).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "analysis/branch_hist.h"
#include "util/error.h"

static void test_default_layout(void **state)
{
	struct branch_layout lay;
	const enum branch_dim want[] = { BD_OVERHEAD, BD_COMM, BD_DSO_FROM, BD_SYM_FROM,
					 BD_SYM_TO, BD_CYCLES };

	(void)state;
	assert_int_equal(branch_layout_parse(&lay, NULL, 0, 0), 0);
	assert_int_equal(lay.nr_sort, 6);
	assert_int_equal(lay.nr_cols, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(lay.sort[i], want[i]);
		assert_int_equal(lay.cols[i], want[i]);
	}
	assert_string_equal(branch_dim_header(BD_DSO_FROM), "Source Shared Object");
	assert_string_equal(branch_dim_header(BD_CYCLES), "Basic Block Cycles");
}

static void test_sort_keys(void **state)
{
	struct branch_layout lay;

	(void)state;
	/* prefixes match the first name perf tries: "dso" is dso, "sym"
	   symbol; -n and --show-total-period add columns that sort last */
	assert_int_equal(branch_layout_parse(&lay, "dso_t,sym,dso", 1, 1), 0);
	assert_int_equal(lay.nr_cols, 6);
	assert_int_equal(lay.cols[0], BD_OVERHEAD);
	assert_int_equal(lay.cols[1], BD_SAMPLE);
	assert_int_equal(lay.cols[2], BD_PERIOD);
	assert_int_equal(lay.cols[3], BD_DSO_TO);
	assert_int_equal(lay.cols[4], BD_SYM);
	assert_int_equal(lay.cols[5], BD_DSO);
	assert_int_equal(lay.sort[0], BD_OVERHEAD);
	assert_int_equal(lay.sort[4], BD_SAMPLE);
	assert_int_equal(lay.sort[5], BD_PERIOD);
	/* overhead named: not put first */
	assert_int_equal(branch_layout_parse(&lay, "cycles,overhead", 0, 0), 0);
	assert_int_equal(lay.sort[0], BD_CYCLES);
	assert_int_equal(lay.sort[1], BD_OVERHEAD);
	/* duplicates dropped */
	assert_int_equal(branch_layout_parse(&lay, "comm,comm", 0, 0), 0);
	assert_int_equal(lay.nr_sort, 2);
	assert_int_equal(branch_layout_parse(&lay, "nosuchkey", 0, 0), -1);
	assert_int_equal(branch_layout_parse(&lay, "srcline_from", 0, 0), -1);
}

static void test_type_count(void **state)
{
	struct branch_type_stat st = { 0 };

	(void)state;
	branch_type_count(&st, 0, 0x1000, 0x2000);		/* unknown type */
	branch_type_count(&st, 1ULL << 20, 0, 0x2000);		/* no source */
	assert_int_equal(st.counts[1], 0);
	branch_type_count(&st, 1ULL << 20, 0x1000, 0x1010);	/* COND forward */
	branch_type_count(&st, 1ULL << 20, 0x1010, 0x1000);	/* COND backward */
	branch_type_count(&st, 4ULL << 20, 0x1000, 0x2000);	/* CALL across 4K */
	branch_type_count(&st, 6ULL << 20, 0x1000, 0x400000);	/* RET across 2M (and 4K) */
	branch_type_count(&st, 15ULL << 20 | 2ULL << 26, 0x1000, 0x1000);	/* FAULT_INST */
	assert_int_equal(st.counts[1], 2);
	assert_int_equal(st.counts[4], 1);
	assert_int_equal(st.counts[6], 1);
	assert_int_equal(st.new_counts[2], 1);
	assert_int_equal(st.cond_fwd, 1);
	assert_int_equal(st.cond_bwd, 1);
	assert_int_equal(st.cross_4k, 1);
	assert_int_equal(st.cross_2m, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_layout),
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_type_count),
	};

	error_set_quiet(1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
