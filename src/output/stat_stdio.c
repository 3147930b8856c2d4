/*
 * stat_stdio.c - perf stat 6.1's output: the human layout, -x CSV and -j
 * JSON lines, with perf's derived metrics ("CPUs utilized", rates,
 * "insn per cycle", miss ratios), noise and running percentages; then
 * prof's own time block (after perf's lines, which it leaves as they are);
 * and the table of prof stat --compare and --baseline.
 *
 * Human line: value (%18.2f for the clocks, %18.0f for counts), unit
 * (%-4s), name (%-32s, or %-25s after "<not counted>"), then the metric
 * " # " value unit in 35 columns (or 35 blanks), "  ( +-  x.xx% )" when
 * runs vary, "  (xx.xx%)" when the counter ran part of the time.
 * CSV fields: value, unit, name, [noise%], running ns, running %, metric
 * value, metric unit.  JSON: the same as "key" : value pairs in one
 * object per line.  A ratio compares counters of the same context (the
 * same exclude_user/kernel/hv/host/idle bits), as perf's shadow stats do;
 * rates per second use the clocks of any context, as perf 6.1 shows them.
 * Instructions get perf's second line, "stalled cycles per insn", when
 * stalled cycles were counted (human layout only; CSV and JSON leave it out).
 *
 * The comparison table shows, per metric, each command's mean, and for
 * every command after the first its mean as a percentage of the first's,
 * the 95% confidence interval of that percentage and the verdict
 * (analysis/stat_compare.h): faster/slower for times, higher/lower for
 * counts, else "no significant difference", or "too few runs".
 */
#include "stat_stdio.h"
#include "../util/error.h"

#include <ctype.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define METRIC_LEN 35
#define UNIT_WIDTH 4
#define CTX_BITS (1ULL << PD_ATTR_EXCLUDE_USER | 1ULL << PD_ATTR_EXCLUDE_KERNEL | \
		  1ULL << PD_ATTR_EXCLUDE_HV | 1ULL << PD_ATTR_EXCLUDE_HOST | \
		  1ULL << PD_ATTR_EXCLUDE_IDLE)

/* A derived metric: fmt NULL prints blanks (or the unit alone in JSON). */
struct metric {
	const char *fmt;
	const char *unit;
	double val;
	char unit_buf[16];
};

static int is_event(const struct stat_counter *c, u32 type, u64 config)
{
	return c->ev.attr.type == type && c->ev.attr.config == config;
}

static int is_clock(const struct stat_counter *c)
{
	return is_event(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       is_event(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

/*
 * The mean of the counted counters like (type, config) in c's context
 * (any context when c is NULL); *found tells whether there was one.
 */
static double shadow(const struct stat_ctx *s, const struct stat_counter *c,
		     u32 type, u64 config, int *found)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < s->nr_counters; i++) {
		const struct stat_counter *o = &s->counters[i];

		if (!o->supported || !o->counted || !is_event(o, type, config) ||
		    (c && (o->ev.attr.flags & CTX_BITS) != (c->ev.attr.flags & CTX_BITS)))
			continue;
		sum += o->val;
		n++;
	}
	*found = n > 0;
	return n ? sum / n : 0;
}

/* The clocks' nanoseconds: perf 6.1 finds them whatever c's context. */
static double nsecs(const struct stat_ctx *s, int *found)
{
	int f1, f2;
	double t = shadow(s, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, &f1);
	double k = shadow(s, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, &f2);

	*found = f1 || f2;
	return f1 && f2 ? (t + k) / 2 : f1 ? t : k;
}

static void set_metric(struct metric *m, const char *fmt, const char *unit, double val)
{
	m->fmt = fmt;
	m->unit = unit;
	m->val = val;
}

/* A miss ratio against the counter (type, config): "%7.2f%%" unit. */
static void ratio_metric(const struct stat_ctx *s, const struct stat_counter *c, double avg,
			 u32 type, u64 config, const char *unit, struct metric *m)
{
	int found;
	double total = shadow(s, c, type, config, &found);

	if (!found)
		set_metric(m, NULL, unit, 0);
	else
		set_metric(m, "%7.2f%%", unit, total ? avg / total * 100 : 0);
}

#define CACHE(type, op, result) ((u64)(type) | (u64)(op) << 8 | (u64)(result) << 16)

/* The metric perf 6.1 shows for c, whose count (in its unit) is avg. */
static void metric_for(const struct stat_ctx *s, const struct stat_counter *c, double avg,
		       struct metric *m)
{
	static const struct { unsigned cache; const char *unit; } miss_units[] = {
		{ PERF_COUNT_HW_CACHE_L1D, "of all L1-dcache accesses" },
		{ PERF_COUNT_HW_CACHE_L1I, "of all L1-icache accesses" },
		{ PERF_COUNT_HW_CACHE_DTLB, "of all dTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_ITLB, "of all iTLB cache accesses" },
		{ PERF_COUNT_HW_CACHE_LL, "of all LL-cache accesses" },
	};
	int found;
	double total;

	memset(m, 0, sizeof(*m));
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = shadow(s, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, &found);
		set_metric(m, total ? "%7.2f " : NULL, "insn per cycle", total ? avg / total : 0);
		return;
	}
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)) {
		ratio_metric(s, c, avg, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
			     "of all branches", m);
		return;
	}
	for (size_t i = 0; i < sizeof(miss_units) / sizeof(miss_units[0]); i++) {
		if (is_event(c, PERF_TYPE_HW_CACHE, CACHE(miss_units[i].cache,
							  PERF_COUNT_HW_CACHE_OP_READ,
							  PERF_COUNT_HW_CACHE_RESULT_MISS))) {
			ratio_metric(s, c, avg, PERF_TYPE_HW_CACHE,
				     CACHE(miss_units[i].cache, PERF_COUNT_HW_CACHE_OP_READ,
					   PERF_COUNT_HW_CACHE_RESULT_ACCESS),
				     miss_units[i].unit, m);
			return;
		}
	}
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES)) {
		ratio_metric(s, c, avg, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
			     "of all cache refs", m);
		return;
	}
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)) {
		ratio_metric(s, c, avg, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			     "frontend cycles idle", m);
		return;
	}
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		ratio_metric(s, c, avg, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			     "backend cycles idle", m);
		return;
	}
	if (is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		total = nsecs(s, &found);
		if (total)
			set_metric(m, "%8.3f", "GHz", avg / total);
		else
			set_metric(m, NULL, "Ghz", 0);
		return;
	}
	if (is_clock(c)) {
		double wall = s->interval_ms ? s->interval_ns : s->walltime.mean;

		if (wall)
			set_metric(m, "%8.3f", "CPUs utilized", avg / (wall * c->scale));
		else
			set_metric(m, NULL, "CPUs utilized", 0);
		return;
	}
	total = nsecs(s, &found);
	if (found) {
		double ratio = total ? 1e9 * avg / total : 0;
		char prefix = 0;

		if (ratio >= 1e9) {
			ratio /= 1e9;
			prefix = 'G';
		} else if (ratio >= 1e6) {
			ratio /= 1e6;
			prefix = 'M';
		} else if (ratio >= 1e3) {
			ratio /= 1e3;
			prefix = 'K';
		}
		if (prefix)
			snprintf(m->unit_buf, sizeof(m->unit_buf), "%c/sec", prefix);
		else
			snprintf(m->unit_buf, sizeof(m->unit_buf), "/sec");
		set_metric(m, "%8.3f", m->unit_buf, ratio);
		return;
	}
	set_metric(m, NULL, NULL, 0);
}

/* m->val by m->fmt, one of the few formats perf's metrics use. */
static void format_metric(const struct metric *m, char *buf, size_t size)
{
	if (!strcmp(m->fmt, "%8.3f"))
		snprintf(buf, size, "%8.3f", m->val);
	else if (!strcmp(m->fmt, "%7.2f "))
		snprintf(buf, size, "%7.2f ", m->val);
	else
		snprintf(buf, size, "%7.2f%%", m->val);
}

/*
 * perf's second line under instructions: the stalled cycles (the larger
 * of frontend and backend, same context) per instruction; 0 when there
 * are none.
 */
static double stalled_per_insn(const struct stat_ctx *s, const struct stat_counter *c,
			       double avg)
{
	int found;
	double front = shadow(s, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, &found);
	double back = shadow(s, c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, &found);
	double total = front > back ? front : back;

	if (!is_event(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS) || !total || !avg)
		return 0;
	return total / avg;
}

static void print_metric(const struct stat_ctx *s, const struct metric *m)
{
	FILE *out = s->out;

	if (s->json) {
		fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}", m->val,
			m->unit ? m->unit : "(null)");
	} else if (s->csv_sep) {
		char buf[64], *vals, *end;

		if (!m->fmt || !m->unit) {
			fprintf(out, "%s%s", s->csv_sep, s->csv_sep);
			return;
		}
		format_metric(m, buf, sizeof(buf));
		for (vals = buf; isspace((unsigned char)*vals); vals++)
			;
		for (end = vals; isdigit((unsigned char)*end) || *end == '.'; end++)
			;
		*end = 0;
		fprintf(out, "%s%s%s%s", s->csv_sep, vals, s->csv_sep, m->unit);
	} else if (!m->fmt || !m->unit) {
		fprintf(out, "%-*s", METRIC_LEN, "");
	} else {
		char buf[64];
		int n;

		format_metric(m, buf, sizeof(buf));
		n = fprintf(out, " # %s", buf);
		fprintf(out, " %-*s", METRIC_LEN - n - 1, m->unit);
	}
}

/* "  ( +- x% )" and friends; pct 0 prints nothing in the human layout. */
static void print_noise(const struct stat_ctx *s, const struct stat_counter *c)
{
	double avg = c->stats.mean, pct;

	if (s->runs_done < 2 || s->interval_ms)
		return;
	pct = avg ? 100 * run_stats_stderr(&c->stats) / avg : 0;
	if (s->json)
		fprintf(s->out, "\"variance\" : %.2f, ", pct);
	else if (s->csv_sep)
		fprintf(s->out, "%s%.2f%%", s->csv_sep, pct);
	else if (pct)
		fprintf(s->out, "  ( +-%6.2f%% )", pct);
}

static void print_running(const struct stat_ctx *s, u64 run, u64 ena)
{
	double pct = 100;

	if (run != ena && ena)
		pct = (double)(100 * run / ena);	/* perf divides in integers here */
	if (s->json)
		fprintf(s->out, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", run, pct);
	else if (s->csv_sep)
		fprintf(s->out, "%s%" PRIu64 "%s%.2f", s->csv_sep, run, s->csv_sep, pct);
	else if (run != ena && ena)
		fprintf(s->out, "  (%.2f%%)", 100.0 * (double)run / (double)ena);
}

static void print_counter(const struct stat_ctx *s, const struct stat_counter *c,
			  const char *prefix)
{
	FILE *out = s->out;
	const char *sep = s->csv_sep ? s->csv_sep : " ";
	u64 run = (u64)c->run, ena = (u64)c->ena;
	struct metric none = { NULL, "", 0, "" }, m;
	double uval = c->val * c->scale;

	fputs(prefix, out);
	if (!c->supported || !c->counted) {
		const char *what = c->supported ? "<not counted>" : "<not supported>";

		if (s->json) {
			fprintf(out, "\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
				what, c->unit, c->ev.name);
		} else {
			fprintf(out, "%*s%s", s->csv_sep ? 0 : 18, what, sep);
			fprintf(out, "%-*s%s", s->csv_sep ? 0 : UNIT_WIDTH, c->unit, sep);
			fprintf(out, "%*s", s->csv_sep ? 0 : -25, c->ev.name);
		}
		if (!s->csv_sep && !s->json)
			print_metric(s, &none);
		print_noise(s, c);
		print_running(s, run, ena);
		if (s->csv_sep || s->json)
			print_metric(s, &none);
		fputc('\n', out);
		return;
	}
	metric_for(s, c, uval, &m);
	if (s->json) {
		fprintf(out, "\"counter-value\" : \"%f\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
			uval, c->unit, c->ev.name);
		print_noise(s, c);
		print_running(s, run, ena);
		print_metric(s, &m);
	} else {
		int fraction = floor(c->scale) != c->scale;

		if (s->csv_sep)
			fprintf(out, fraction ? "%.2f%s" : "%.0f%s", uval, sep);
		else if (s->big_num)
			fprintf(out, fraction ? "%'18.2f%s" : "%'18.0f%s", uval, sep);
		else
			fprintf(out, fraction ? "%18.2f%s" : "%18.0f%s", uval, sep);
		fprintf(out, "%-*s%s", s->csv_sep ? 0 : UNIT_WIDTH, c->unit, sep);
		fprintf(out, "%-*s", s->csv_sep ? 0 : 32, c->ev.name);
		if (s->csv_sep) {
			print_noise(s, c);
			print_running(s, run, ena);
			print_metric(s, &m);
		} else {
			double stalled = stalled_per_insn(s, c, uval);

			print_metric(s, &m);
			if (stalled) {	/* perf's second line, 49 blanks in */
				struct metric m2 = { "%7.2f ", "stalled cycles per insn", stalled, "" };

				fprintf(out, "\n%s%49s", prefix, "");
				print_metric(s, &m2);
			}
			print_noise(s, c);
			print_running(s, run, ena);
		}
	}
	fputc('\n', out);
}

/* Whether the NMI watchdog is on (it takes a counter perf then misses). */
static int nmi_watchdog_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on;
}

static void print_header(const struct stat_ctx *s)
{
	FILE *out = s->out;

	if (s->csv_sep || s->json)
		return;
	fprintf(out, "\n Performance counter stats for ");
	if (s->system_wide && !s->cpu_list) {
		fprintf(out, "'system wide");
	} else if (s->cpu_list) {
		fprintf(out, "'CPU(s) %s", s->cpu_list);
	} else if (s->pid_list) {
		fprintf(out, "process id '%s", s->pid_list);
	} else if (s->tid_list) {
		fprintf(out, "thread id '%s", s->tid_list);
	} else {
		fprintf(out, "'%s", s->argv ? s->argv[0] : "pipe");
		for (int i = 1; s->argv && i < s->argc; i++)
			fprintf(out, " %s", s->argv[i]);
	}
	fprintf(out, "'");
	if (s->repeat > 1)
		fprintf(out, " (%d runs)", s->runs_done);
	fprintf(out, ":\n\n");
}

/* How many decimals show two digits past the first of num's inaccuracy. */
static int precision_for(double num)
{
	if (num > 1)
		return 0;
	return (int)lround(ceil(-log10(num)));
}

static void print_footer(const struct stat_ctx *s)
{
	FILE *out = s->out;
	double avg = s->walltime.mean / 1e9;
	int not_counted = 0;

	if (s->csv_sep || s->json)
		return;
	if (!s->null_run)
		fprintf(out, "\n");
	if (s->repeat == 1) {
		fprintf(out, " %17.9f seconds time elapsed", avg);
		if (s->argv && !s->system_wide && !s->cpu_list && !s->pid_list && !s->tid_list) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n",
				(double)s->ru_utime.tv_sec + (double)s->ru_utime.tv_usec / 1e6);
			fprintf(out, " %17.9f seconds sys\n",
				(double)s->ru_stime.tv_sec + (double)s->ru_stime.tv_usec / 1e6);
		}
	} else {
		double sd = run_stats_stderr(&s->walltime) / 1e9;
		int precision = precision_for(sd) + 2;
		double pct = avg ? 100 * sd / avg : 0;

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
	for (int i = 0; i < s->nr_counters; i++)
		not_counted |= s->counters[i].supported && !s->counters[i].counted;
	if (not_counted && nmi_watchdog_enabled())
		fprintf(out, "Some events weren't counted. Try disabling the NMI watchdog:\n"
			"\techo 0 > /proc/sys/kernel/nmi_watchdog\n"
			"\tperf stat ...\n"
			"\techo 1 > /proc/sys/kernel/nmi_watchdog\n");
}

void stat_print_counters(struct stat_ctx *s)
{
	const char *prefix = s->json ? "{" : "";

	print_header(s);
	for (int i = 0; i < s->nr_counters; i++)
		print_counter(s, &s->counters[i], prefix);
	print_footer(s);
	fflush(s->out);
}

void stat_print_interval(struct stat_ctx *s, double ts)
{
	unsigned long sec = (unsigned long)ts;
	unsigned long nsec = (unsigned long)((ts - (double)sec) * 1e9);
	char prefix[64];

	if (nsec > 999999999)
		nsec = 999999999;
	if (s->json)
		snprintf(prefix, sizeof(prefix), "{\"interval\" : %lu.%09lu, ", sec, nsec);
	else
		snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s", sec, nsec,
			 s->csv_sep ? s->csv_sep : " ");
	if (s->print_intervals == 0 && !s->csv_sep && !s->json)
		fprintf(s->out, "#           time             counts %*s events\n", UNIT_WIDTH, "unit");
	if (++s->print_intervals == 25)
		s->print_intervals = 0;
	for (int i = 0; i < s->nr_counters; i++)
		print_counter(s, &s->counters[i], prefix);
	fflush(s->out);
}

/* One row of the -r time table. */
static void time_row(FILE *out, const char *name, const char *unit, const double *v, size_t n,
		     double scale)
{
	struct sample_summary sum;
	double *scaled = xmalloc(n * sizeof(*scaled));

	for (size_t i = 0; i < n; i++)
		scaled[i] = v[i] * scale;
	sample_summarize(scaled, n, &sum);
	fprintf(out, " %-8s %12.6f %-3s +- %10.6f %12.6f %12.6f %12.6f %7.2f%%", name, sum.mean,
		unit, sum.stddev, sum.median, sum.min, sum.max, sum.range_pct);
	if (sum.nr_outliers) {
		fprintf(out, "  %zu outlier%s:", sum.nr_outliers, sum.nr_outliers > 1 ? "s" : "");
		for (size_t i = 0; i < n; i++)
			if (sample_is_outlier(&sum, scaled[i]))
				fprintf(out, " run %zu (%g)", i + 1, scaled[i]);
	}
	fputc('\n', out);
	free(scaled);
}

void stat_print_times(struct stat_ctx *s)
{
	size_t n = (size_t)s->runs_done;
	FILE *out = s->out;
	double *v;

	if (s->csv_sep || !n || s->interval_ms || !s->argv)
		return;
	if (s->json) {
		struct sample_summary sum;
		static const char *const names[] = { "elapsed", "user", "sys", "max-rss-kb" };

		v = xmalloc(n * sizeof(*v));
		for (int k = 0; k < 4; k++) {
			for (size_t i = 0; i < n; i++)
				v[i] = k == 0 ? s->times[i].elapsed : k == 1 ? s->times[i].user :
				       k == 2 ? s->times[i].sys : s->times[i].max_rss_kb;
			sample_summarize(v, n, &sum);
			fprintf(out, "{\"time\" : \"%s\", \"runs\" : %zu, \"mean\" : %f, "
				"\"stddev\" : %f, \"median\" : %f, \"min\" : %f, \"max\" : %f, "
				"\"range-pct\" : %.2f, \"outliers\" : %zu, \"values\" : [",
				names[k], n, sum.mean, sum.stddev, sum.median, sum.min, sum.max,
				sum.range_pct, sum.nr_outliers);
			for (size_t i = 0; i < n; i++)
				fprintf(out, "%s%f", i ? ", " : "", v[i]);
			fprintf(out, "]}\n");
		}
		for (int k = 0; k < s->nr_counters; k++) {
			const struct stat_counter *c = &s->counters[k];

			if (!c->supported || !c->runs)
				continue;
			fprintf(out, "{\"event-values\" : \"%s\", \"unit\" : \"%s\", \"runs\" : %zu, "
				"\"values\" : [", c->ev.name, c->unit, n);
			for (size_t i = 0; i < n; i++)
				fprintf(out, "%s%f", i ? ", " : "", c->runs[i] * c->scale);
			fprintf(out, "]}\n");
		}
		free(v);
		return;
	}
	if (n == 1) {
		fprintf(out, " %17.0f KB peak RSS\n\n", s->times[0].max_rss_kb);
		return;
	}
	v = xmalloc(n * sizeof(*v));
	fprintf(out, " Times of the %zu runs:\n", n);
	fprintf(out, " %-8s %12s %-3s %2s %10s %12s %12s %12s %8s\n", "", "mean", "", "", "stddev",
		"median", "min", "max", "range");
	for (size_t i = 0; i < n; i++)
		v[i] = s->times[i].elapsed;
	time_row(out, "elapsed", "s", v, n, 1);
	for (size_t i = 0; i < n; i++)
		v[i] = s->times[i].user;
	time_row(out, "user", "s", v, n, 1);
	for (size_t i = 0; i < n; i++)
		v[i] = s->times[i].sys;
	time_row(out, "sys", "s", v, n, 1);
	for (size_t i = 0; i < n; i++)
		v[i] = s->times[i].max_rss_kb;
	time_row(out, "peak RSS", "MB", v, n, 1.0 / 1024);
	fputc('\n', out);
	free(v);
}

void stat_print_comparison(FILE *out, const struct comparison *c, const char *how)
{
	fprintf(out, "\n Comparison of %d commands, %s:\n", c->nr_cmds, how);
	for (int k = 0; k < c->nr_cmds; k++)
		fprintf(out, "   [%d] %s\n", k + 1, c->labels[k]);
	fprintf(out, "\n Each mean as a percentage of [1]'s, with the 95%% confidence interval of that\n"
		" percentage (Welch's), and the verdict of Welch's t-test (unequal variances)\n"
		" at p < 0.05.\n\n");
	fprintf(out, " %-26s %4s %16s %9s %23s  %s\n", "metric", "cmd", "mean", "% of [1]",
		"95% CI", "verdict");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct metric_row *r = &c->rows[i];

		if (!r->n[0])
			continue;
		for (int k = 0; k < c->nr_cmds; k++) {
			double m = comparison_mean(r, k);
			struct compare_cell cell;
			char ci[64] = "", verdict[96] = "", label[16], pct[16] = "-";

			snprintf(label, sizeof(label), "[%d]", k + 1);
			fprintf(out, " %-26s %4s %16.6f", k ? "" : r->name, label, m);
			if (!k) {
				fprintf(out, " %8.2f%%\n", 100.0);
				continue;
			}
			if (!r->n[k]) {
				fprintf(out, " %9s\n", "-");
				continue;
			}
			comparison_cell(r, k, &cell);
			if (cell.has_ci)
				snprintf(ci, sizeof(ci), "[%8.2f%%, %8.2f%%]", cell.ci_low, cell.ci_high);
			switch (cell.verdict) {
			case COMPARE_TOO_FEW_RUNS:
				snprintf(verdict, sizeof(verdict), "too few runs");
				break;
			case COMPARE_NO_DIFFERENCE:
				snprintf(verdict, sizeof(verdict),
					 "no significant difference (p = %.2g)", cell.p);
				break;
			case COMPARE_LOWER:
			case COMPARE_HIGHER:
				snprintf(verdict, sizeof(verdict), "%s (p = %.2g)",
					 cell.verdict == COMPARE_LOWER ?
					 (r->is_time ? "faster" : "lower") :
					 (r->is_time ? "slower" : "higher"), cell.p);
				break;
			}
			if (cell.has_pct)
				snprintf(pct, sizeof(pct), "%8.2f%%", cell.pct);
			fprintf(out, " %9s %23s  %s\n", pct, ci, verdict);
		}
	}
	fputc('\n', out);
}
