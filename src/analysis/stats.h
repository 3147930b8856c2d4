/*
 * stats.h - statistics of repeated measurements, for prof stat: running
 * mean and variance, summaries of a sample (median, quartiles, outliers),
 * Student's t distribution and Welch's unequal-variance t-test.
 *
 * Invariants: functions never modify their input arrays; a sample of
 * fewer than two values has stddev 0 and no confidence interval (its
 * half-width is 0); p-values are two-sided and in [0, 1].
 */
#ifndef PROF_ANALYSIS_STATS_H
#define PROF_ANALYSIS_STATS_H

#include <stddef.h>

/* Welford's running mean and sum of squared deviations. */
struct run_stats {
	double n, mean, m2;
};

void run_stats_add(struct run_stats *s, double v);
/* The sample standard deviation (n - 1), 0 below two values. */
double run_stats_stddev(const struct run_stats *s);
/* The standard error of the mean (stddev / sqrt(n)), as perf's "+-". */
double run_stats_stderr(const struct run_stats *s);

/* Summary of a sample. */
struct sample_summary {
	size_t n;
	double mean, stddev;	/* stddev: sample (n - 1) */
	double median, min, max;
	double q1, q3;		/* quartiles, linear interpolation */
	double range_pct;	/* (max - min) / mean * 100, 0 when mean is 0 */
	size_t nr_outliers;	/* outside [q1 - 1.5 iqr, q3 + 1.5 iqr] (Tukey) */
};

void sample_summarize(const double *v, size_t n, struct sample_summary *out);
/* Whether x lies outside the Tukey fences of summary s. */
int sample_is_outlier(const struct sample_summary *s, double x);

/* P(T <= t) for Student's t with df degrees of freedom (df > 0). */
double student_t_cdf(double t, double df);
/* The t with P(T <= t) = p, for 0 < p < 1. */
double student_t_quantile(double p, double df);

/* Welch's t-test of mean(b) - mean(a). */
struct welch_result {
	double diff;		/* mean(b) - mean(a) */
	double se;		/* its standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double t;		/* diff / se */
	double p;		/* two-sided p-value (1 when se is 0 and diff is 0) */
	double ci_low, ci_high;	/* confidence interval of diff */
};

/*
 * Compares samples a and b (each of at least two values) at confidence
 * level conf (0.95 for a 95% interval).  Returns 0, or -1 when a sample
 * has fewer than two values.
 */
int welch_test(const double *a, size_t na, const double *b, size_t nb, double conf,
	       struct welch_result *out);

#endif
