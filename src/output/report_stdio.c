/*
 * report_stdio.c - prints histograms as "perf report --stdio" does.
 *
 * Layout (perf 6.1): every row starts with two spaces and columns are
 * joined by two spaces; title lines start with "# ".  Sort-key columns are
 * left-aligned and cut to their width; "Overhead" is " %6.2f%%" and the
 * counts " %11llu" (a space, then the number right-aligned).  The last
 * column is not padded when it is the symbol.  Invariant: nothing here
 * changes the histograms.
 */
#include "report_stdio.h"

#include <string.h>

/* perf's convert_unit(): 1K is more than 1000, printed truncated. */
static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

static int col_shown(const struct hist_layout *lay, enum hist_dim d)
{
	return !(lay->elide_mask & (1u << d));
}

/* Is column i the last shown one? */
static int last_col(const struct hist_layout *lay, int i)
{
	for (int j = i + 1; j < lay->nr_cols; j++)
		if (col_shown(lay, lay->cols[j]))
			return 0;
	return 1;
}

void report_stdio_begin(FILE *out, const struct hist_layout *lay,
			const struct report_stdio_opts *o, int complete)
{
	if (o->header_hint && !o->quiet)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", out);
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];

		if (d == HD_COMM && o->elide_comm)
			fprintf(out, "# comm: %s\n", o->elide_comm);
		else if (d == HD_DSO && o->elide_dso)
			fprintf(out, "# dso: %s\n", o->elide_dso);
		else if (d == HD_SYM && o->elide_sym)
			fprintf(out, "# symbol: %s\n", o->elide_sym);
	}
	if (complete && !o->quiet)
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)o->total_lost_samples);
}

static u64 total_of(const struct hists *h, const struct report_stdio_opts *o)
{
	return o->relative ? h->total_non_filtered_period : h->total_period;
}

static void print_titles(FILE *out, const struct hists *h)
{
	const struct hist_layout *lay = h->lay;
	int first = 1;

	fputs("# ", out);
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];
		int w = h->col_width[d];

		if (!col_shown(lay, d))
			continue;
		if (!first)
			fputs("  ", out);
		first = 0;
		if (d <= HD_PERIOD)
			fprintf(out, "%*s", w, hist_dim_header(lay, d));
		else
			fprintf(out, "%-*.*s", w, w, hist_dim_header(lay, d));
	}
	fputs("\n# ", out);
	first = 1;
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];

		if (!col_shown(lay, d))
			continue;
		if (!first)
			fputs("  ", out);
		first = 0;
		for (int k = 0; k < h->col_width[d]; k++)
			putc('.', out);
	}
	fputs("\n#\n", out);
}

/* The symbol column: "[k] name", or "[.] 0x<16 digits>" when unresolved. */
static void print_sym(FILE *out, const struct hist_entry *e, int width, int pad)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "[%c] ", e->level);

	if (e->sym)
		n += snprintf(buf + n, sizeof(buf) - n, "%.*s",
			      width - n > 0 ? width - n : 0, symbol_name(e->sym));
	else
		n += snprintf(buf + n, sizeof(buf) - n, "%-#.*llx", 16,
			      (unsigned long long)e->addr);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (n > width)
		buf[width] = 0;
	fputs(buf, out);
	if (pad && n < width)
		fprintf(out, "%*s", width - n, "");
}

static void print_row(FILE *out, const struct hists *h, const struct hist_entry *e,
		      u64 total)
{
	const struct hist_layout *lay = h->lay;

	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];
		int w = h->col_width[d];

		if (!col_shown(lay, d))
			continue;
		fputs("  ", out);
		switch (d) {
		case HD_CHILDREN:
			fprintf(out, " %*.2f%%", w - 2,
				total ? 100.0 * e->acc_period / total : 0.0);
			break;
		case HD_OVERHEAD:
			fprintf(out, " %*.2f%%", w - 2,
				total ? 100.0 * e->period / total : 0.0);
			break;
		case HD_SAMPLE:
			fprintf(out, " %*llu", w - 1, (unsigned long long)e->nr_samples);
			break;
		case HD_PERIOD:
			fprintf(out, " %*llu", w - 1, (unsigned long long)e->period);
			break;
		case HD_PID: {
			int cw = (w > 7 ? w : 7) - 8;

			fprintf(out, "%7d:%-*.*s", e->tid, cw, cw,
				hist_thread_comm(e));
			break;
		}
		case HD_COMM:
			fprintf(out, "%-*.*s", w, w, hist_string(h->strs, e->comm));
			break;
		case HD_DSO:
			fprintf(out, "%-*.*s", w, w, hist_string(h->strs, e->dso_name));
			break;
		case HD_SYM:
			print_sym(out, e, w, !last_col(lay, i));
			break;
		case HD_CPU:
			fprintf(out, "%*.*d", w, w, e->cpu);
			break;
		default:
			break;
		}
	}
	putc('\n', out);
}

void report_stdio_hists(FILE *out, const struct hists *h, const char *evname,
			const struct report_stdio_opts *o)
{
	u64 total = total_of(h, o);

	if (!o->quiet) {
		unsigned long nr = o->relative ? h->nr_non_filtered_samples : h->nr_samples;
		char unit;

		nr = convert_unit(nr, &unit);
		fprintf(out, "# Samples: %lu%c of event '%s'", nr, unit, evname);
		if (o->time_str)
			fprintf(out, " (time slices: %s)", o->time_str);
		fprintf(out, "\n# Event count (approx.): %llu\n#\n",
			(unsigned long long)total);
		print_titles(out, h);
	}
	for (u32 i = 0; i < h->nr_sorted; i++) {
		const struct hist_entry *e = h->sorted[i];
		u64 period = h->lay->children ? e->acc_period : e->period;
		float percent = total ? period * 100.0 / total : 0;

		if (percent < o->min_percent)
			continue;
		print_row(out, h, e, total);
	}
	fputs("\n\n", out);
}

void report_stdio_end(FILE *out, const struct report_stdio_opts *o)
{
	if (!o->quiet)
		fputs("#\n# (Tip: For a higher level overview, try: "
		      "prof report --sort comm,dso)\n#\n", out);
}
