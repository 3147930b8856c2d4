/*
 * stat_compare.c - the rows of a command comparison (stat_compare.h):
 * filled from the runs of prof stat or from a saved -j output, and
 * Welch's test of each command against the first.
 */
#include "stat_compare.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>

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

void comparison_free(struct comparison *c)
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

void comparison_take_run(struct comparison *c, const struct stat_ctx *s, int run, int cmd)
{
	const struct stat_times *t = &s->times[run];
	double tv[4] = { t->elapsed, t->user, t->sys, t->max_rss_kb };

	for (int k = 0; k < 4; k++)
		push(&c->rows[k], cmd, tv[k]);
	for (int i = 0; i < s->nr_counters; i++) {
		const struct stat_counter *sc = &s->counters[i];

		if (!sc->supported || !sc->runs)
			continue;
		push(counter_row(c, sc), cmd, sc->runs[run] * sc->scale);
	}
}

/* Rows 0-3 are the times, in time_rows' order. */
void comparison_init(struct comparison *c, int nr_cmds, const char **labels,
		     const struct stat_ctx *s)
{
	memset(c, 0, sizeof(*c));
	c->nr_cmds = nr_cmds;
	c->labels = labels;
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

double comparison_mean(const struct metric_row *row, int cmd)
{
	return mean_of(row->values[cmd], row->n[cmd]);
}

void comparison_cell(const struct metric_row *row, int cmd, struct compare_cell *out)
{
	double base = comparison_mean(row, 0);
	struct welch_result w;

	memset(out, 0, sizeof(*out));
	out->mean = comparison_mean(row, cmd);
	if (welch_test(row->values[0], row->n[0], row->values[cmd], row->n[cmd], 0.95, &w)) {
		out->verdict = COMPARE_TOO_FEW_RUNS;
	} else {
		if (base) {
			out->has_ci = 1;
			out->ci_low = 100 + w.ci_low / base * 100;
			out->ci_high = 100 + w.ci_high / base * 100;
		}
		out->p = w.p;
		if (w.p < 0.05)
			out->verdict = w.diff < 0 ? COMPARE_LOWER : COMPARE_HIGHER;
		else
			out->verdict = COMPARE_NO_DIFFERENCE;
	}
	if (base) {
		out->has_pct = 1;
		out->pct = out->mean / base * 100;
	}
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

int comparison_read_baseline(struct comparison *c, FILE *f)
{
	char line[1 << 16];
	int found = 0;

	while (fgets(line, sizeof(line), f)) {
		char name[128], unit[32];
		struct metric_row *r = NULL;
		double *v;
		size_t n;

		if (!json_string(line, "time", name, sizeof(name))) {
			for (int k = 0; k < 4; k++)
				if (!strncmp(time_rows[k], name, strlen(name)) &&
				    time_rows[k][strlen(name)] == ' ')
					r = &c->rows[k];
			if (!strcmp(name, "max-rss-kb"))
				r = &c->rows[3];
		} else if (!json_string(line, "event-values", name, sizeof(name))) {
			char row[192];

			if (!json_string(line, "unit", unit, sizeof(unit)) && unit[0])
				snprintf(row, sizeof(row), "%s (%s)", name, unit);
			else
				snprintf(row, sizeof(row), "%s", name);
			r = find_row(c, row);
		}
		if (!r)
			continue;
		n = parse_values(line, &v);
		for (size_t i = 0; i < n; i++)
			push(r, 0, v[i]);
		found += n > 0;
		free(v);
	}
	return found;
}
