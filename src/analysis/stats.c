/*
 * stats.c - see stats.h.
 *
 * Student's t CDF goes through the regularized incomplete beta function,
 * I_x(df/2, 1/2) with x = df / (df + t^2), evaluated by its continued
 * fraction (modified Lentz), using the symmetry I_x(a, b) = 1 - I_1-x(b, a)
 * where the fraction converges slowly.  The quantile is found by bisection
 * on the CDF, which is monotonic; 200 halvings of a +-1e6 bracket are
 * far below double precision.
 */
#include "stats.h"
#include "../util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void run_stats_add(struct run_stats *s, double v)
{
	double delta;

	s->n += 1;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double run_stats_stddev(const struct run_stats *s)
{
	return s->n < 2 ? 0 : sqrt(s->m2 / (s->n - 1));
}

double run_stats_stderr(const struct run_stats *s)
{
	return s->n < 2 ? 0 : run_stats_stddev(s) / sqrt(s->n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted[0..n), linear between the closest ranks. */
static double quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

void sample_summarize(const double *v, size_t n, struct sample_summary *out)
{
	struct run_stats rs = { 0 };
	double *sorted;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (size_t i = 0; i < n; i++)
		run_stats_add(&rs, v[i]);
	out->mean = rs.mean;
	out->stddev = run_stats_stddev(&rs);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = quantile_sorted(sorted, n, 0.5);
	out->q1 = quantile_sorted(sorted, n, 0.25);
	out->q3 = quantile_sorted(sorted, n, 0.75);
	out->range_pct = out->mean ? (out->max - out->min) / fabs(out->mean) * 100 : 0;
	for (size_t i = 0; i < n; i++)
		out->nr_outliers += (size_t)sample_is_outlier(out, v[i]);
	free(sorted);
}

int sample_is_outlier(const struct sample_summary *s, double x)
{
	double iqr = s->q3 - s->q1;

	return s->n >= 4 && (x < s->q1 - 1.5 * iqr || x > s->q3 + 1.5 * iqr);
}

/* The continued fraction of the incomplete beta function (Lentz). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double aa, delta;

		/* even step */
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* odd step */
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return h;
}

/*
 * The regularized incomplete beta function I_x(a, b); y is 1 - x, given
 * separately so that x close to 1 keeps its precision.
 */
static double incomplete_beta(double a, double b, double x, double y)
{
	double front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(y));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, y) / b;
}

double student_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t), t * t / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int welch_test(const double *a, size_t na, const double *b, size_t nb, double conf,
	       struct welch_result *out)
{
	struct run_stats sa = { 0 }, sb = { 0 };
	double va, vb, crit;

	memset(out, 0, sizeof(*out));
	if (na < 2 || nb < 2)
		return -1;
	for (size_t i = 0; i < na; i++)
		run_stats_add(&sa, a[i]);
	for (size_t i = 0; i < nb; i++)
		run_stats_add(&sb, b[i]);
	va = sa.m2 / (sa.n - 1) / sa.n;	/* squared standard errors */
	vb = sb.m2 / (sb.n - 1) / sb.n;
	out->diff = sb.mean - sa.mean;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		out->df = sa.n + sb.n - 2;
		out->t = out->diff == 0 ? 0 : out->diff > 0 ? INFINITY : -INFINITY;
		out->p = out->diff == 0 ? 1 : 0;
		out->ci_low = out->ci_high = out->diff;
		return 0;
	}
	out->df = (va + vb) * (va + vb) /
		  (va * va / (sa.n - 1) + vb * vb / (sb.n - 1));
	out->t = out->diff / out->se;
	out->p = 2 * student_t_cdf(-fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	crit = student_t_quantile(1 - (1 - conf) / 2, out->df);
	out->ci_low = out->diff - crit * out->se;
	out->ci_high = out->diff + crit * out->se;
	return 0;
}
