/*
 * diff_stdio.c - perf diff's stdio layout (see diff_stdio.h).
 */
#include "diff_stdio.h"
#include "../util/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A diff column's kind (perf's PERF_HPP_DIFF__* columns). */
enum diff_col_kind {
	COL_BASELINE,		/* "Baseline": the baseline's percentage */
	COL_PERIOD,		/* "Period": the other file's period (-p) */
	COL_PERIOD_BASELINE,	/* "Base period": the baseline's period (-p) */
	COL_DELTA,
	COL_RATIO,
	COL_WDIFF,
	COL_FORMULA,		/* -F */
	COL_DELTA_ABS,
};

/* One column before the sort keys: its kind, the file it shows, its
 * title (right-aligned to width) and width. */
struct diff_col {
	enum diff_col_kind kind;
	int file;
	char title[64];
	int width;
};

/* ---- the columns ----------------------------------------------------------------- */

static void add_col(struct diff_stdio *p, int nr_files, enum diff_col_kind kind, int file)
{
	static const struct {
		const char *name;
		int width;
	} info[] = {
		[COL_BASELINE] = { "Baseline", 0 },
		[COL_PERIOD] = { "Period", 14 },
		[COL_PERIOD_BASELINE] = { "Base period", 14 },
		[COL_DELTA] = { "Delta", 7 },
		[COL_RATIO] = { "Ratio", 14 },
		[COL_WDIFF] = { "Weighted diff", 14 },
		[COL_FORMULA] = { "Formula", 70 },
		[COL_DELTA_ABS] = { "Delta Abs", 7 },
	};
	struct diff_col *c = &p->cols[p->nr_cols++];
	int len;

	c->kind = kind;
	c->file = file;
	if (nr_files > 2)
		snprintf(c->title, sizeof(c->title), "%s/%d", info[kind].name, file);
	else
		snprintf(c->title, sizeof(c->title), "%s", info[kind].name);
	len = strlen(c->title);
	c->width = info[kind].width > len ? info[kind].width : len;
}

/* perf's ui_init(): per file, its compute column (Baseline for the
 * first), then the formula and the period. */
void diff_stdio_init(struct diff_stdio *p, int nr_files, enum diff_compute compute)
{
	static const enum diff_col_kind compute_col[] = {
		[DIFF_COMPUTE_DELTA] = COL_DELTA,
		[DIFF_COMPUTE_RATIO] = COL_RATIO,
		[DIFF_COMPUTE_WDIFF] = COL_WDIFF,
		[DIFF_COMPUTE_DELTA_ABS] = COL_DELTA_ABS,
	};

	p->cols = xcalloc((size_t)nr_files * 3, sizeof(*p->cols));
	p->nr_cols = 0;
	for (int i = 0; i < nr_files; i++) {
		add_col(p, nr_files, i ? compute_col[compute] : COL_BASELINE, i);
		if (p->show_formula && i)
			add_col(p, nr_files, COL_FORMULA, i);
		if (p->show_period)
			add_col(p, nr_files, i ? COL_PERIOD : COL_PERIOD_BASELINE, i);
	}
}

void diff_stdio_free(struct diff_stdio *p)
{
	free(p->cols);
}

/* ---- the diff columns' text ------------------------------------------------------- */

/* The formula (-F) or period (-p) of a newer file that has the entry. */
static void formula_period_text(const struct diff_rows *d, const struct diff_col *c,
				const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *cell = &row[c->file];
	u64 old = diff_cell_period(&row[0]);

	if (c->kind == COL_PERIOD) {
		snprintf(buf, size, "%llu", (unsigned long long)cell->period);
	} else if (c->kind != COL_FORMULA) {
		return;
	} else if (d->compute == DIFF_COMPUTE_RATIO) {
		snprintf(buf, size, "%.0F / %.0F", (double)cell->period, (double)old);
	} else if (d->compute == DIFF_COMPUTE_WDIFF) {
		snprintf(buf, size, "(%llu * %lld) - (%llu * %lld)",
			 (unsigned long long)cell->period, (long long)d->w2,
			 (unsigned long long)old, (long long)d->w1);
	} else {
		snprintf(buf, size, "(%llu * 100 / %llu) - (%llu * 100 / %llu)",
			 (unsigned long long)cell->period,
			 (unsigned long long)d->total[c->file],
			 (unsigned long long)old, (unsigned long long)d->base_total);
	}
}

/*
 * With -t perf prints the columns through hpp__entry_global() (a buffer
 * of 69 bytes), each padded on the right to its width: the periods and
 * formulas as they are, the baseline share as "%.2f", "%+4.2F%%" deltas,
 * and ratios and weighted diffs only when not zero.
 */
static void sep_cell_text(const struct diff_rows *d, const struct diff_col *c,
			  const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *cell = &row[c->file];
	u64 old = diff_cell_period(&row[0]);
	int dummy = !row[0].e;

	if (c->kind == COL_BASELINE) {
		if (!dummy)
			snprintf(buf, size, "%.2f", 100.0 * old / d->base_total);
		return;
	}
	if (!c->file || !cell->e) {
		if (c->kind == COL_PERIOD_BASELINE)
			snprintf(buf, size, "%llu", (unsigned long long)old);
		return;
	}
	switch (c->kind) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+4.2F%%", cell->delta);
		break;
	case COL_RATIO:
		if (dummy)
			snprintf(buf, size, "N/A");
		else if (cell->ratio > 0.0)
			snprintf(buf, size, "%14.6F", cell->ratio);
		break;
	case COL_WDIFF:
		if (dummy)
			snprintf(buf, size, "N/A");
		else if (cell->wdiff)
			snprintf(buf, size, "%14lld", (long long)cell->wdiff);
		break;
	default:
		formula_period_text(d, c, row, buf, size);
		break;
	}
}

/*
 * The text of column c for a row, as perf prints it to a file: through
 * the colour functions where a column has one, else hpp__entry_global()
 * (a buffer of 69 bytes).  Returns 1 when the text is printed as it is
 * (a weighted diff: "%14ld" whatever the width), 0 when it is
 * right-aligned to the column's width.
 */
static int cell_text(const struct diff_stdio *p, const struct diff_rows *d,
		     const struct diff_col *c, const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *cell = &row[c->file];
	u64 old = diff_cell_period(&row[0]);
	int dummy = !row[0].e;

	snprintf(buf, size, " ");
	if (p->field_sep) {
		sep_cell_text(d, c, row, buf, size);
		return 1;
	}
	if (c->kind == COL_BASELINE) {
		if (dummy)
			return 0;
		snprintf(buf, size, "%*.2f%%", c->width - 1, 100.0 * old / d->base_total);
		return 1;
	}
	if (!c->file || !cell->e) {
		/* the baseline's own columns, and files without the entry */
		if (c->kind == COL_PERIOD_BASELINE)
			snprintf(buf, size, "%llu", (unsigned long long)old);
		return 0;
	}
	switch (c->kind) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+*.2f%%", c->width - 1, cell->delta);
		return 1;
	case COL_RATIO:
		if (dummy) {
			snprintf(buf, size, "N/A");
			return 0;
		}
		snprintf(buf, size, "%*.6f", c->width, cell->ratio);
		return 1;
	case COL_WDIFF:
		if (dummy) {
			snprintf(buf, size, "N/A");
			return 0;
		}
		snprintf(buf, size, "%14lld", (long long)cell->wdiff);
		return 1;
	default:
		formula_period_text(d, c, row, buf, size);
		return 0;
	}
}

/* ---- the key columns -------------------------------------------------------------- */

/* perf's hists__calc_col_len() over the rows shown: the width of each
 * key column. */
static void key_widths(struct diff_stdio *p, const struct diff_rows *d)
{
	int comm_len = 0, unresolved = 0;

	for (int k = 0; k < HD_NR; k++)
		p->key_width[k] = strlen(hist_dim_header(d->lay, k));
	for (u32 r = 0; r < d->nr_rows; r++) {
		int file = diff_row_key_file(d, r);
		const struct hist_entry *e = diff_row(d, r)[file].e;
		int len;

		if (e->sym) {
			len = strlen(symbol_name(e->sym)) + 4;
			if (len > p->key_width[HD_SYM])
				p->key_width[HD_SYM] = len;
		} else {
			unresolved = 1;
		}
		len = strlen(hist_thread_comm(d->hists[file], e));
		if (len > comm_len)
			comm_len = len;
		len = e->dso_name ? strlen(hist_string(d->strs, e->dso_name)) : 0;
		if (len > p->key_width[HD_DSO])
			p->key_width[HD_DSO] = len;
	}
	/* an unresolved symbol: "[.] 0x" and 16 digits, and a DSO column as
	   wide as the address unless --dsos was given */
	if (unresolved) {
		if (p->key_width[HD_SYM] < 22)
			p->key_width[HD_SYM] = 22;
		if (p->key_width[HD_DSO] < 16 && !p->dso_list_given)
			p->key_width[HD_DSO] = 16;
	}
	if (comm_len > p->key_width[HD_COMM])
		p->key_width[HD_COMM] = comm_len;
	if (comm_len && comm_len + 8 > p->key_width[HD_PID])
		p->key_width[HD_PID] = comm_len + 8;
}

/* Prints a key's text; with -t the separator's first character in it
 * becomes '.' (perf's repsep_snprintf()).  Returns its length. */
__attribute__((format(printf, 3, 4)))
static int put_key(const struct diff_stdio *p, FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	if (p->field_sep)
		for (char *s = text; (s = strchr(s, p->field_sep[0])); s++)
			*s = '.';
	fputs(text, out);
	free(text);
	return n;
}

/* The symbol column of entry e, w wide (not padded when last). */
static void put_sym(const struct diff_stdio *p, const struct hist_entry *e, int w, int last,
		    FILE *out)
{
	int n = fprintf(out, "[%c] ", e->level), room = w - n > 0 ? w - n : 0;

	if (e->sym)
		n += put_key(p, out, "%.*s", room, symbol_name(e->sym));
	else
		n += fprintf(out, "%#.16llx", (unsigned long long)e->addr);
	if (!last && n < w)
		fprintf(out, "%*s", w - n, "");
}

/* The key columns of row r, as "perf report" prints them. */
static void print_keys(const struct diff_stdio *p, const struct diff_rows *d, u32 r, FILE *out)
{
	const struct hist_layout *lay = d->lay;
	int file = diff_row_key_file(d, r);
	const struct hist_entry *e = diff_row(d, r)[file].e;

	for (int i = 0; i < lay->nr_cols; i++) {
		int w = p->key_width[lay->cols[i]], cw;

		fputs(p->field_sep ? p->field_sep : "  ", out);
		switch (lay->cols[i]) {
		case HD_PID:
			cw = (w > 7 ? w : 7) - 8;
			put_key(p, out, "%7d:%-*.*s", e->tid, cw, cw,
				hist_thread_comm(d->hists[file], e));
			break;
		case HD_COMM:
			put_key(p, out, "%-*.*s", w, w, hist_string(d->strs, e->comm));
			break;
		case HD_DSO:
			put_key(p, out, "%-*.*s", w, w, hist_string(d->strs, e->dso_name));
			break;
		case HD_CPU:
			put_key(p, out, "%*.*d", w, w, e->cpu);
			break;
		case HD_SYM:
			put_sym(p, e, w, i == lay->nr_cols - 1, out);
			break;
		default:
			break;
		}
	}
	putc('\n', out);
}

/* ---- one event -------------------------------------------------------------------- */

/* The "# Event" line and, with three files or more, the data files. */
static void print_header(const struct diff_rows *d, const char *event,
			 const char *const *paths, int first, FILE *out)
{
	fprintf(out, "%s# Event '%s'\n#\n", first ? "" : "\n", event);
	if (d->nr_files <= 2)
		return;
	fputs("# Data files:\n", out);
	for (int i = 0; i < d->nr_files; i++)
		fprintf(out, "#  [%d] %s %s\n", i, paths[i], i ? "" : "(Baseline)");
	fputs("#\n", out);
}

/* The title lines (with -t only the titles, joined by the separator). */
static void print_titles(const struct diff_stdio *p, const struct hist_layout *lay, FILE *out)
{
	const char *sep = p->field_sep ? p->field_sep : "  ";

	fputs("# ", out);
	for (int i = 0; i < p->nr_cols; i++)
		fprintf(out, "%s%*s", i ? sep : "", p->cols[i].width, p->cols[i].title);
	for (int i = 0; i < lay->nr_cols; i++) {
		int w = p->key_width[lay->cols[i]];

		fprintf(out, "%s%-*.*s", sep, w, w, hist_dim_header(lay, lay->cols[i]));
	}
	putc('\n', out);
	if (p->field_sep)
		return;
	fputs("# ", out);
	for (int i = 0; i < p->nr_cols + lay->nr_cols; i++) {
		int w = i < p->nr_cols ? p->cols[i].width :
			p->key_width[lay->cols[i - p->nr_cols]];

		if (i)
			fputs("  ", out);
		for (int k = 0; k < w; k++)
			putc('.', out);
	}
	fputs("\n#\n", out);
}

void diff_stdio_event(struct diff_stdio *p, const struct diff_rows *d, const char *event,
		      const char *const *paths, int first, FILE *out)
{
	if (!p->quiet)
		print_header(d, event, paths, first, out);
	key_widths(p, d);
	if (!p->quiet)
		print_titles(p, d->lay, out);
	for (u32 j = 0; j < d->nr_rows; j++) {
		const struct diff_cell *row = diff_row(d, d->sorted[j]);
		char buf[70];

		if (!p->field_sep)
			fputs("  ", out);
		for (int i = 0; i < p->nr_cols; i++) {
			int as_is = cell_text(p, d, &p->cols[i], row, buf, sizeof(buf));

			if (i)
				fputs(p->field_sep ? p->field_sep : "  ", out);
			fprintf(out, as_is ? "%-*s" : "%*s", p->cols[i].width, buf);
		}
		print_keys(p, d, d->sorted[j], out);
	}
}
