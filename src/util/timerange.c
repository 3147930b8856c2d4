/*
 * timerange.c - perf's --time ranges and CPU lists, parsed as perf 6.1
 * parses them (time-utils.c, cpumap.c), for the commands that filter
 * samples by time or CPU.
 *
 * A copy of the parsers in cmd/report.c (which keeps its own for now), so
 * that prof script and the commands after it share one.  Invariants: the
 * input strings are never modified (parsing works on copies); nothing is
 * allocated but the returned arrays.
 */
#include "timerange.h"
#include "error.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * perf 6.1's time-utils.c rules, restated:
 *  - "START,END[ START,END...]": times are SEC[.FRACTION] (at most 9
 *    fraction digits, parsed with strtoul as perf does), either side may be
 *    empty (open); ranges are separated by white space after the END, must
 *    not hold a second comma, must not end before they start and must not
 *    overlap the next one (an END equal to the next START overlaps).
 *  - With a '%' anywhere the string is a list of percent slices of
 *    [first sample time, last sample time] from HEADER_SAMPLE_TIME:
 *    "P%/N[,...]" (the Nth slice of P%), else "A%-B%[,...]", else "P%"
 *    (the first P%).  A slice's end is one nanosecond short of the next
 *    slice's start unless it is the last sample time.  Percent slices are
 *    neither ordered nor checked for overlap.
 */

/* perf's parse_nsec_time(): "SEC[.FRACTION]". */
static int parse_time_point(const char *s, uint64_t *t)
{
	char frac[10], *end;
	uint64_t sec, nsec = 0;
	size_t n;

	sec = strtoul(s, &end, 10);
	if (*end != '.' && *end)
		return -1;
	if (*end == '.') {
		n = strlen(++end);
		if (n > 9)
			return -1;
		memcpy(frac, end, n);
		memset(frac + n, '0', 9 - n);
		frac[9] = '\0';
		nsec = strtoul(frac, &end, 10);
		if (*end)
			return -1;
	}
	*t = sec * 1000000000ULL + nsec;
	return 0;
}

/* One "START,END" (modified in place); an empty string leaves r as is. */
static int parse_time_range(char *s, struct time_range *r)
{
	char *end_str = strchr(s, ',');

	if (!*s)
		return 0;
	if (end_str)
		*end_str++ = '\0';
	r->start = r->end = 0;
	if ((*s && parse_time_point(s, &r->start)) ||
	    (end_str && *end_str && parse_time_point(end_str, &r->end)))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/* Absolute ranges (s is modified).  Returns how many, or -1. */
static int parse_time_ranges(char *s, struct time_range *r)
{
	int nr = 0, i;
	char *p, *arg;

	for (p = s; *p; p++)
		nr += *p == ',';
	if (!nr)
		return -1;
	for (i = 0, p = s; i < nr - 1; i++) {
		arg = p;
		/* the comma is there: each pass uses up exactly one */
		for (p = strchr(p, ',') + 1; isspace((unsigned char)*p); p++)
			;
		for (; *p && !isspace((unsigned char)*p); p++)
			if (*p == ',')
				return -1;
		if (*p)
			*p++ = '\0';
		if (parse_time_range(arg, &r[i]))
			return -1;
	}
	if (parse_time_range(p, &r[i]))
		return -1;
	for (i = 0; i < nr - 1; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return nr;
}

/* "P%" (s is modified at the '%'; text after it is ignored, as by perf). */
static int parse_percent(char *s, double *fraction)
{
	char *pct = strchr(s, '%'), *end;
	double d;

	if (!pct)
		return -1;
	*pct = '\0';
	d = strtod(s, &end);
	if (end != pct)
		return -1;
	*fraction = d / 100.0;
	return 0;
}

/* The slice [from, to] (fractions of the sample time span) as perf rounds
 * it. */
static int set_percent_range(struct time_range *r, double from, double to, uint64_t first, uint64_t last)
{
	uint64_t span = last - first;

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -1;
	/* in double, as perf computes it */
	r->start = (uint64_t)((double)first + round(from * (double)span));
	r->end = (uint64_t)((double)first + round(to * (double)span));
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* "P%/N": the Nth slice of P%. */
static int parse_percent_slash(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double fraction;
	int n;

	if (!slash)
		return -1;
	*slash = '\0';
	if (parse_percent(s, &fraction))
		return -1;
	n = (int)strtol(slash + 1, &end, 10);
	if (*end || fraction <= 0.0)
		return -1;
	return set_percent_range(r, fraction * (n - 1), fraction * n, first, last);
}

/* "A%-B%"; an empty string leaves r as is. */
static int parse_percent_dash(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(s, '-');
	double from, to;

	if (!*s)
		return 0;
	/* perf crashes on a piece without '-' */
	if (!dash)
		return -1;
	*dash = '\0';
	if (parse_percent(s, &from) || parse_percent(dash + 1, &to))
		return -1;
	return set_percent_range(r, from, to, first, last);
}

/* Percent slices (s is modified).  Returns how many, or -1. */
static int parse_percent_ranges(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	int (*slice)(char *, struct time_range *, uint64_t, uint64_t);
	char *pct = strchr(s, '%'), *comma;
	size_t len = strlen(s);
	int nr = 0;

	if (strchr(s, '/')) {
		slice = parse_percent_slash;
	} else if (strchr(s, '-')) {
		slice = parse_percent_dash;
	} else {
		/* "P%" alone is "P%/1": the first P% */
		double fraction;

		if (pct != s + len - 1 || parse_percent(s, &fraction) || fraction <= 0.0 ||
		    set_percent_range(r, 0.0, fraction, first, last))
			return -1;
		return 1;
	}
	for (char *p = s; p < s + len; p = comma + 1) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (slice(p, &r[nr++], first, last))
			return -1;
		if (!comma)
			break;
	}
	return nr;
}

int time_ranges_parse(const char *str, uint64_t first, uint64_t last, struct time_range **ranges)
{
	int size = 1, nr;
	char *copy = xstrdup(str);

	for (const char *p = str; *p; p++)
		size += *p == ',';
	*ranges = xcalloc(size, sizeof(**ranges));
	if (strchr(str, '%'))
		nr = parse_percent_ranges(copy, *ranges, first, last);
	else
		nr = parse_time_ranges(copy, *ranges);
	free(copy);
	if (nr < 0) {
		free(*ranges);
		*ranges = NULL;
	}
	return nr;
}

int time_ranges_skip(const struct time_range *r, int nr, uint64_t t)
{
	if (!nr || !t)
		return 0;
	if (nr == 1)
		return (r->start && t < r->start) || (r->end && t > r->end);
	for (int i = 0; i < nr; i++)
		if (t >= r[i].start && (t <= r[i].end || !r[i].end))
			return 0;
	return 1;
}

int cpu_list_parse(const char *str, unsigned char **bitmap, uint32_t nr_cpus)
{
	const char *p = str;

	*bitmap = xcalloc(CPU_LIST_MAX / 8, 1);
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return error("invalid cpu list '%s'", str);
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return error("invalid cpu list '%s'", str);
			p = end;
		}
		if (b >= nr_cpus || b >= CPU_LIST_MAX) {
			error("requested CPU %ld too large: the file has %u", b, nr_cpus);
			return -2;
		}
		for (long c = a; c <= b; c++)
			(*bitmap)[c / 8] |= 1 << (c % 8);
		if (*p == ',')
			p++;
		else if (*p)
			return error("invalid cpu list '%s'", str);
	}
	return 0;
}
