/*
 * test_timerange.c - cmocka tests for src/util/timerange.c: perf's --time
 * ranges (absolute and percent slices), the skip rule, and CPU lists.
 *
 * Expected values follow perf 6.1's time-utils.c and cpumap.c rules as
 * restated in timerange.c; errors print messages, silenced here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "util/error.h"
#include "util/timerange.h"

#define NSEC 1000000000ULL

static void test_absolute_ranges(void **state)
{
	struct time_range *r;
	int nr;

	(void)state;
	nr = time_ranges_parse("1.5,2", 0, 0, &r);
	assert_int_equal(nr, 1);
	assert_int_equal(r[0].start, 1500000000ULL);
	assert_int_equal(r[0].end, 2 * NSEC);
	assert_false(time_ranges_skip(r, nr, 2 * NSEC));
	assert_true(time_ranges_skip(r, nr, 2 * NSEC + 1));
	assert_true(time_ranges_skip(r, nr, NSEC));
	/* a sample without a time is never skipped */
	assert_false(time_ranges_skip(r, nr, 0));
	free(r);

	nr = time_ranges_parse(",2", 0, 0, &r);
	assert_int_equal(nr, 1);
	assert_int_equal(r[0].start, 0);
	assert_false(time_ranges_skip(r, nr, 1));
	free(r);

	nr = time_ranges_parse("1,2 3,4", 0, 0, &r);
	assert_int_equal(nr, 2);
	assert_true(time_ranges_skip(r, nr, 2500000000ULL));
	assert_false(time_ranges_skip(r, nr, 3500000000ULL));
	assert_true(time_ranges_skip(r, nr, 5 * NSEC));
	free(r);
}

static void test_bad_ranges(void **state)
{
	static const char *const bad[] = { "foo", "2,1", "1,3 2,4", "1.1234567891,2", "1,2,3", "5" };
	struct time_range *r;

	(void)state;
	error_set_quiet(2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(time_ranges_parse(bad[i], 0, 0, &r), -1);
		assert_null(r);
	}
	error_set_quiet(0);
}

static void test_percent_ranges(void **state)
{
	struct time_range *r;
	int nr;

	(void)state;
	nr = time_ranges_parse("50%", 1000, 2000, &r);
	assert_int_equal(nr, 1);
	assert_int_equal(r[0].start, 1000);
	assert_int_equal(r[0].end, 1499);
	free(r);

	/* the second tenth; its end one short of the third's start */
	nr = time_ranges_parse("10%/2", 1000, 2000, &r);
	assert_int_equal(nr, 1);
	assert_int_equal(r[0].start, 1100);
	assert_int_equal(r[0].end, 1199);
	free(r);

	/* the last slice ends at the last sample */
	nr = time_ranges_parse("50%/2", 1000, 2000, &r);
	assert_int_equal(nr, 1);
	assert_int_equal(r[0].end, 2000);
	free(r);

	nr = time_ranges_parse("0%-10%,30%-40%", 1000, 2000, &r);
	assert_int_equal(nr, 2);
	assert_int_equal(r[1].start, 1300);
	assert_int_equal(r[1].end, 1399);
	free(r);

	error_set_quiet(2);
	assert_int_equal(time_ranges_parse("150%", 1000, 2000, &r), -1);
	assert_int_equal(time_ranges_parse("0%-10%,20%", 1000, 2000, &r), -1);
	error_set_quiet(0);
}

static int cpu_set(const unsigned char *bitmap, int cpu)
{
	return bitmap[cpu / 8] >> (cpu % 8) & 1;
}

static void test_cpu_list(void **state)
{
	unsigned char *bitmap = NULL;

	(void)state;
	assert_int_equal(cpu_list_parse("0-3,8", &bitmap, 16), 0);
	for (int c = 0; c < 16; c++)
		assert_int_equal(cpu_set(bitmap, c), c <= 3 || c == 8);
	free(bitmap);

	error_set_quiet(2);
	assert_int_equal(cpu_list_parse("5", &bitmap, 2), -2);
	free(bitmap);
	assert_int_equal(cpu_list_parse("3-1", &bitmap, 16), -1);
	free(bitmap);
	assert_int_equal(cpu_list_parse("x", &bitmap, 16), -1);
	free(bitmap);
	assert_int_equal(cpu_list_parse("4096", &bitmap, 100000), -2);
	free(bitmap);
	error_set_quiet(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absolute_ranges),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_percent_ranges),
		cmocka_unit_test(test_cpu_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
