/*
 * stat_compare.c - "prof stat --compare 'cmd A' 'cmd B' ..." and
 * "prof stat --baseline results.json -- cmd": is a difference real?
 *
 * --compare runs each command (a shell string, run by /bin/sh -c) --warmup
 * times unmeasured, then N times each interleaved (A B A B ...), so slow
 * drifts of the machine hit all of them alike.  --baseline reads the
 * per-run values that "prof stat -j" wrote (its "values" lines) and takes
 * them as the first command.
 *
 * The table shows, per metric (elapsed, user, sys, peak RSS, each
 * counter), each command's mean, and for every command after the first
 * its mean as a percentage of the first's with the 95% confidence
 * interval of that percentage (Welch's interval of the difference of the
 * means divided by the first mean, whose own uncertainty is left out),
 * and a verdict from Welch's unequal-variance t-test at p < 0.05:
 * faster/slower for times, higher/lower for counts, else "no significant
 * difference".  Invariant: both samples of a test have two or more values,
 * else the verdict is "too few runs".
 */
#include "stat.h"
#include "../util/error.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The values of one metric for every command. */
struct metric_row {
	char name[128];
	int is_time;		/* lower is faster */
	double **values;	/* [command][run] */
	size_t *n;		/* runs per command */
};

/* All rows of a comparison. */
struct comparison {
	struct metric_row *rows;
	int nr_rows;
	int nr_cmds;
	const char **labels;
};

static struct metric_row *add_row(struct comparison *c, const char *name, int is_time)
{
	struct metric_row *r;

	c->rows = xrealloc(c->rows, (size_t)(c->nr_rows + 1) * sizeof(*c->rows));
	r = &c->rows[c->nr_rows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->is_time = is_time;
	r->values = xcalloc((size_t)c->nr_cmds, sizeof(*r->values));
	r->n = xcalloc((size_t)c->nr_cmds, sizeof(*r->n));
	return r;
}

static struct metric_row *find_row(struct comparison *c, const char *name)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

static void push(struct metric_row *r, int cmd, double v)
{
	r->values[cmd] = xrealloc(r->values[cmd], (r->n[cmd] + 1) * sizeof(double));
	r->values[cmd][r->n[cmd]++] = v;
}

static void free_comparison(struct comparison *c)
{
	for (int i = 0; i < c->nr_rows; i++) {
		for (int k = 0; k < c->nr_cmds; k++)
			free(c->rows[i].values[k]);
		free(c->rows[i].values);
		free(c->rows[i].n);
	}
	free(c->rows);
}

static const char *const time_rows[] = { "elapsed (s)", "user (s)", "sys (s)", "peak RSS (KB)" };

/* The row names of the counters: "name (unit)" or the name. */
static void counter_row_name(const struct stat_counter *sc, char *buf, size_t size)
{
	if (sc->unit[0])
		snprintf(buf, size, "%s (%s)", sc->ev.name, sc->unit);
	else
		snprintf(buf, size, "%s", sc->ev.name);
}

/* The row of counter sc, added after the others when it has none yet: a
 * counter's name can change at its first run (an ordinary user's
 * "task-clock" becomes "task-clock:u"). */
static struct metric_row *counter_row(struct comparison *c, const struct stat_counter *sc)
{
	char name[128];
	struct metric_row *r;

	counter_row_name(sc, name, sizeof(name));
	r = find_row(c, name);
	return r ? r : add_row(c, name, sc->scale != 1);	/* the clocks are times */
}

/* Adds run index run of s (made by command cmd) to the rows. */
static void take_run(struct comparison *c, struct stat_ctx *s, int run, int cmd)
{
	const struct stat_times *t = &s->times[run];
	double tv[4] = { t->elapsed, t->user, t->sys, t->max_rss_kb };

	for (int k = 0; k < 4; k++)
		push(&c->rows[k], cmd, tv[k]);
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *sc = &s->counters[i];

		if (!sc->supported || !sc->runs)
			continue;
		push(counter_row(c, sc), cmd, sc->runs[run] * sc->scale);
	}
}

/* The time rows (rows 0-3, in time_rows' order), then a row per counter
 * under its name as it is now. */
static void setup_rows(struct comparison *c, struct stat_ctx *s)
{
	for (int k = 0; k < 4; k++)
		add_row(c, time_rows[k], k < 3);
	for (int i = 0; i < s->nr_counters; i++)
		counter_row(c, &s->counters[i]);
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : 0;
}

static void print_table(FILE *out, const struct comparison *c, const char *how)
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
		double base = mean_of(r->values[0], r->n[0]);

		if (!r->n[0])
			continue;
		for (int k = 0; k < c->nr_cmds; k++) {
			double m = mean_of(r->values[k], r->n[k]);
			struct welch_result w;
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
			if (welch_test(r->values[0], r->n[0], r->values[k], r->n[k], 0.95, &w)) {
				snprintf(verdict, sizeof(verdict), "too few runs");
			} else {
				if (base)
					snprintf(ci, sizeof(ci), "[%8.2f%%, %8.2f%%]",
						 100 + w.ci_low / base * 100, 100 + w.ci_high / base * 100);
				if (w.p < 0.05)
					snprintf(verdict, sizeof(verdict), "%s (p = %.2g)",
						 w.diff < 0 ? (r->is_time ? "faster" : "lower") :
						 (r->is_time ? "slower" : "higher"), w.p);
				else
					snprintf(verdict, sizeof(verdict),
						 "no significant difference (p = %.2g)", w.p);
			}
			if (base)
				snprintf(pct, sizeof(pct), "%8.2f%%", m / base * 100);
			fprintf(out, " %9s %23s  %s\n", pct, ci, verdict);
		}
	}
	fputc('\n', out);
}

int stat_compare(struct stat_ctx *s)
{
	struct comparison c = { 0 };
	int n = s->argc, status = 0;
	char how[128];

	c.nr_cmds = n;
	c.labels = (const char **)s->argv;
	stat_setup_counters(s);
	for (int w = 0; w < s->warmup; w++) {
		for (int k = 0; k < n; k++) {
			char *argv[] = { "/bin/sh", "-c", s->argv[k], NULL };

			status = stat_run_once(s, argv);
			if (status) {
				error("warm-up run of [%d] '%s' exited with status %d: stopping",
				      k + 1, s->argv[k], status);
				return status;
			}
		}
		stat_reset_results(s);
	}
	stat_reset_results(s);
	setup_rows(&c, s);
	for (int r = 0; r < s->repeat; r++) {
		for (int k = 0; k < n; k++) {
			char *argv[] = { "/bin/sh", "-c", s->argv[k], NULL };

			status = stat_run_once(s, argv);
			if (status) {
				error("run %d of [%d] '%s' exited with status %d: stopping", r + 1,
				      k + 1, s->argv[k], status);
				free_comparison(&c);
				return status;
			}
			take_run(&c, s, s->runs_done - 1, k);
		}
	}
	snprintf(how, sizeof(how), "%d runs each, interleaved, after %d warm-up run%s of each",
		 s->repeat, s->warmup, s->warmup == 1 ? "" : "s");
	print_table(s->out, &c, how);
	free_comparison(&c);
	return 0;
}

/* The number array after "values" : [ in line; returns the count. */
static size_t parse_values(const char *line, double **out)
{
	const char *p = strstr(line, "\"values\" : [");
	size_t n = 0;

	*out = NULL;
	if (!p)
		return 0;
	p += strlen("\"values\" : [");
	while (*p && *p != ']') {
		char *end;
		double v = strtod(p, &end);

		if (end == p)
			break;
		*out = xrealloc(*out, (n + 1) * sizeof(double));
		(*out)[n++] = v;
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return n;
}

/* The string value of "key" : "..." in line into buf; 0 if found. */
static int json_string(const char *line, const char *key, char *buf, size_t size)
{
	char pat[64];
	const char *p, *end;

	snprintf(pat, sizeof(pat), "\"%s\" : \"", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	end = strchr(p, '"');
	if (!end)
		return -1;
	snprintf(buf, size, "%.*s", (int)(end - p), p);
	return 0;
}

int stat_compare_baseline(struct stat_ctx *s)
{
	struct comparison c = { 0 };
	const char *labels[2];
	char line[1 << 16], label[256], how[300], cmdline[1024] = "";
	FILE *f = fopen(s->baseline, "re");
	int found = 0;

	if (!f)
		return error("cannot open %s: %s", s->baseline, strerror(errno));
	c.nr_cmds = 2;
	snprintf(label, sizeof(label), "the runs saved in %s", s->baseline);
	labels[0] = label;
	for (int i = 0; s->argv && i < s->argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), "%s%s",
			 i ? " " : "", s->argv[i]);
	labels[1] = cmdline[0] ? cmdline : "this run";
	c.labels = labels;
	setup_rows(&c, s);
	while (fgets(line, sizeof(line), f)) {
		char name[128], unit[32];
		struct metric_row *r = NULL;
		double *v;
		size_t n;

		if (!json_string(line, "time", name, sizeof(name))) {
			for (int k = 0; k < 4; k++)
				if (!strncmp(time_rows[k], name, strlen(name)) &&
				    time_rows[k][strlen(name)] == ' ')
					r = &c.rows[k];
			if (!strcmp(name, "max-rss-kb"))
				r = &c.rows[3];
		} else if (!json_string(line, "event-values", name, sizeof(name))) {
			char row[192];

			if (!json_string(line, "unit", unit, sizeof(unit)) && unit[0])
				snprintf(row, sizeof(row), "%s (%s)", name, unit);
			else
				snprintf(row, sizeof(row), "%s", name);
			r = find_row(&c, row);
		}
		if (!r)
			continue;
		n = parse_values(line, &v);
		for (size_t i = 0; i < n; i++)
			push(r, 0, v[i]);
		found += n > 0;
		free(v);
	}
	fclose(f);
	if (!found) {
		free_comparison(&c);
		return error("%s holds no per-run values (write it with prof stat -j -o FILE)",
			     s->baseline);
	}
	for (int run = 0; run < s->runs_done; run++)
		take_run(&c, s, run, 1);
	snprintf(how, sizeof(how), "%d runs now against the saved ones", s->runs_done);
	print_table(s->json ? stderr : s->out, &c, how);
	free_comparison(&c);
	return 0;
}
