/*
 * test_stats.c - cmocka tests for src/analysis/stats.c against textbook
 * values worked out by hand (and, for the t distribution, the printed
 * tables and a separate numerical integration of its density), never by
 * prof itself.
 *
 * Sample {2,4,4,4,5,5,7,9}: mean 5, sum of squares 32, so the sample
 * stddev is sqrt(32/7) = 2.1380899, the standard error 2.1380899/sqrt(8)
 * = 0.7559289; median (4+5)/2 = 4.5; quartiles (linear between ranks)
 * 4 and 5.5, fences 1.75 and 7.75, so 9 is the one outlier; range
 * 7/5 = 140%.
 *
 * Welch, a = {1..5}, b = {3..7}: diff 2, both variances 2.5, se = 1,
 * t = 2, df = 1/(2 * 0.25^2/4) = 8, two-sided p = 0.0805162 (t table:
 * between 0.05 and 0.10); the 95% interval is 2 +- 2.306004 (t table,
 * 8 df).  a = {1..5}, b = {2,4,...,10}: diff 3, se = sqrt(0.5 + 2),
 * t = 1.8973666, df = 6.25/1.0625 = 5.8823529, p = 0.1075312.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "analysis/stats.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static const double sample[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

static void test_running(void **state)
{
	struct run_stats s = { 0 };

	(void)state;
	assert_true(run_stats_stddev(&s) == 0);
	run_stats_add(&s, 3);
	assert_true(run_stats_stddev(&s) == 0);	/* one value: no spread */
	assert_true(run_stats_stderr(&s) == 0);
	s = (struct run_stats){ 0 };
	for (int i = 0; i < 8; i++)
		run_stats_add(&s, sample[i]);
	NEAR(s.mean, 5, 1e-12);
	NEAR(run_stats_stddev(&s), 2.1380899353, 1e-9);
	NEAR(run_stats_stderr(&s), 0.7559289460, 1e-9);
}

static void test_summary(void **state)
{
	struct sample_summary sum;
	static const double odd[] = { 3, 1, 2 };

	(void)state;
	sample_summarize(sample, 8, &sum);
	assert_int_equal(sum.n, 8);
	NEAR(sum.mean, 5, 1e-12);
	NEAR(sum.stddev, 2.1380899353, 1e-9);
	NEAR(sum.median, 4.5, 1e-12);
	NEAR(sum.min, 2, 1e-12);
	NEAR(sum.max, 9, 1e-12);
	NEAR(sum.q1, 4, 1e-12);
	NEAR(sum.q3, 5.5, 1e-12);
	NEAR(sum.range_pct, 140, 1e-9);
	assert_int_equal(sum.nr_outliers, 1);
	assert_true(sample_is_outlier(&sum, 9));
	assert_false(sample_is_outlier(&sum, 7));
	assert_false(sample_is_outlier(&sum, 2));
	sample_summarize(odd, 3, &sum);
	NEAR(sum.median, 2, 1e-12);
	assert_int_equal(sum.nr_outliers, 0);	/* too few values to call any */
	sample_summarize(NULL, 0, &sum);
	assert_int_equal(sum.n, 0);
}

static void test_student_t(void **state)
{
	(void)state;
	NEAR(student_t_cdf(0, 5), 0.5, 1e-12);
	NEAR(student_t_cdf(2.228138852, 10), 0.975, 1e-7);	/* t table, 10 df */
	NEAR(student_t_cdf(12.70620474, 1), 0.975, 1e-7);	/* t table, 1 df */
	NEAR(student_t_cdf(-2.228138852, 10), 0.025, 1e-7);
	NEAR(student_t_quantile(0.975, 10), 2.228138852, 1e-6);
	NEAR(student_t_quantile(0.975, 8), 2.306004135, 1e-6);
	NEAR(student_t_quantile(0.975, 1), 12.70620474, 1e-5);
	NEAR(student_t_quantile(0.975, 1e6), 1.959966, 1e-4);	/* the normal's */
	NEAR(student_t_quantile(0.5, 3), 0, 1e-9);
}

static void test_welch(void **state)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	static const double c[] = { 2, 4, 6, 8, 10 }, same[] = { 1, 2, 3, 4, 5 };
	static const double flat1[] = { 4, 4, 4 }, flat2[] = { 5, 5, 5 };
	struct welch_result w;

	(void)state;
	assert_int_equal(welch_test(a, 5, b, 5, 0.95, &w), 0);
	NEAR(w.diff, 2, 1e-12);
	NEAR(w.se, 1, 1e-12);
	NEAR(w.t, 2, 1e-12);
	NEAR(w.df, 8, 1e-9);
	NEAR(w.p, 0.0805162380, 1e-7);
	NEAR(w.ci_low, 2 - 2.306004135, 1e-6);
	NEAR(w.ci_high, 2 + 2.306004135, 1e-6);

	assert_int_equal(welch_test(a, 5, c, 5, 0.95, &w), 0);
	NEAR(w.diff, 3, 1e-12);
	NEAR(w.t, 1.8973665961, 1e-9);
	NEAR(w.df, 5.8823529412, 1e-9);
	NEAR(w.p, 0.1075311949, 1e-7);

	assert_int_equal(welch_test(a, 5, same, 5, 0.95, &w), 0);
	NEAR(w.t, 0, 1e-12);
	NEAR(w.p, 1, 1e-12);

	/* no spread at all: equal means are the same, different ones differ */
	assert_int_equal(welch_test(flat1, 3, flat1, 3, 0.95, &w), 0);
	NEAR(w.p, 1, 1e-12);
	assert_int_equal(welch_test(flat1, 3, flat2, 3, 0.95, &w), 0);
	NEAR(w.p, 0, 1e-12);

	assert_int_equal(welch_test(a, 1, b, 5, 0.95, &w), -1);	/* too few */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
