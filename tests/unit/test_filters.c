/*
 * test_filters.c - cmocka tests for src/analysis/filters.c: report's and
 * diff's filter options parsed as perf parses them (strlist without
 * duplicates, setup_addrlist()'s hex addresses among --symbols, pid and
 * tid lists).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "analysis/filters.h"
#include "util/error.h"

static void test_lists(void **state)
{
	struct hist_filters flt;
	struct filter_counts nr;
	const struct filter_args a = { .comms = "bash,ls,bash", .dsos = "libc.so.6",
				       .symbols = "main,0x401000, ffff,  12zz" };

	(void)state;
	memset(&flt, 0, sizeof(flt));
	assert_int_equal(hist_filters_parse(&flt, &a, &nr), 0);
	/* duplicates dropped, order kept */
	assert_int_equal(nr.comms, 2);
	assert_string_equal(flt.comms[0], "bash");
	assert_string_equal(flt.comms[1], "ls");
	assert_null(flt.comms[2]);
	assert_int_equal(nr.dsos, 1);
	assert_string_equal(flt.dsos[0], "libc.so.6");
	/* a hex number, maybe with trailing blanks, is an address; leading
	   blanks are strtoul's, so " ffff" is one too; "  12zz" is a name */
	assert_int_equal(flt.nr_sym_addrs, 2);
	assert_int_equal(flt.sym_addrs[0], 0x401000);
	assert_int_equal(flt.sym_addrs[1], 0xffff);
	assert_int_equal(nr.symbols, 2);
	assert_string_equal(flt.symbols[0], "main");
	assert_string_equal(flt.symbols[1], "  12zz");
	assert_null(flt.symbols[2]);
	assert_null(flt.pids);
	hist_filters_free(&flt);
	assert_null(flt.comms);
}

static void test_only_addresses(void **state)
{
	struct hist_filters flt;
	struct filter_counts nr;
	const struct filter_args a = { .symbols = "0x10,20" };

	(void)state;
	memset(&flt, 0, sizeof(flt));
	assert_int_equal(hist_filters_parse(&flt, &a, &nr), 0);
	/* the name list stays, empty: it filters every named symbol out */
	assert_non_null(flt.symbols);
	assert_null(flt.symbols[0]);
	assert_int_equal(nr.symbols, 0);
	assert_int_equal(flt.nr_sym_addrs, 2);
	assert_int_equal(flt.sym_addrs[1], 0x20);
	hist_filters_free(&flt);
}

static void test_ids(void **state)
{
	struct hist_filters flt;
	const struct filter_args good = { .pids = "12,7,12", .tids = "3" };
	const struct filter_args bad = { .tids = "3,x4" };

	(void)state;
	memset(&flt, 0, sizeof(flt));
	assert_int_equal(hist_filters_parse(&flt, &good, NULL), 0);
	assert_int_equal(flt.nr_pids, 2);
	assert_int_equal(flt.pids[0], 12);
	assert_int_equal(flt.pids[1], 7);
	assert_int_equal(flt.nr_tids, 1);
	assert_int_equal(flt.tids[0], 3);
	hist_filters_free(&flt);

	error_set_quiet(2);
	assert_int_equal(hist_filters_parse(&flt, &bad, NULL), -1);
	error_set_quiet(0);
	assert_int_equal(flt.nr_tids, 0);
	hist_filters_free(&flt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_only_addresses),
		cmocka_unit_test(test_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
