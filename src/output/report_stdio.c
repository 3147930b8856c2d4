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

#include "../util/error.h"

#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

unsigned long report_convert_unit(unsigned long v, char *unit)
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

/*
 * Rows are built in a line buffer with the writers below, which print
 * exactly what the printf formats named in their comments print.
 */
struct line {
	char *buf;
	size_t len, cap;
};

/* Makes room for n more bytes. */
static void line_reserve(struct line *l, size_t n)
{
	if (l->len + n <= l->cap)
		return;
	while (l->len + n > l->cap)
		l->cap = l->cap ? l->cap * 2 : 4096;
	l->buf = xrealloc(l->buf, l->cap);
}

/* The put_*() functions write into room print_row() reserved. */
static void put_mem(struct line *l, const char *s, size_t n)
{
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void put_spaces(struct line *l, int n)
{
	if (n <= 0)
		return;
	memset(l->buf + l->len, ' ', n);
	l->len += n;
}

/* "%-*.*s" with width and precision w */
static void put_str_cut(struct line *l, const char *s, int w)
{
	size_t n = strnlen(s, w > 0 ? w : 0);

	put_mem(l, s, n);
	put_spaces(l, w - (int)n);
}

/* "%*llu" */
static void put_u64(struct line *l, u64 v, int w)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - ++n] = '0' + v % 10;
		v /= 10;
	} while (v);
	put_spaces(l, w - n);
	put_mem(l, tmp + sizeof(tmp) - n, n);
}

/* "%*.2f": exactly rounded from v's binary value, as printf does.  The
 * integer path is taken when v * 100 is far enough from a rounding tie
 * for the product's error not to matter; printf otherwise. */
static void put_fixed2(struct line *l, double v, int w)
{
	double x = v * 100, f;
	char tmp[64];
	int n;

	if (v >= 0 && v < 1e6) {
		f = x - (double)(u64)x;
		if (f < 0.5 - 1e-6 || f > 0.5 + 1e-6) {
			u64 r = (u64)x + (f > 0.5);

			n = 0;
			tmp[sizeof(tmp) - ++n] = '0' + r % 10;
			r /= 10;
			tmp[sizeof(tmp) - ++n] = '0' + r % 10;
			r /= 10;
			tmp[sizeof(tmp) - ++n] = '.';
			do {
				tmp[sizeof(tmp) - ++n] = '0' + r % 10;
				r /= 10;
			} while (r);
			put_spaces(l, w - n);
			put_mem(l, tmp + sizeof(tmp) - n, n);
			return;
		}
	}
	n = snprintf(tmp, sizeof(tmp), "%*.2f", w, v);
	put_mem(l, tmp, n < (int)sizeof(tmp) ? n : (int)sizeof(tmp) - 1);
}

/* Whether entry e is in the kernel's map, which perf maps addresses
 * through unchanged (identity__map_ip): a kernel-mode entry whose DSO is
 * not a module (those show as "[name]"). */
static int kernel_map_entry(const struct hists *h, const struct hist_entry *e)
{
	const char *name = hist_string(h->strs, e->dso_name);

	return e->level == 'k' && (name[0] != '[' || !strcmp(name, "[kernel.kallsyms]") ||
				   !strcmp(name, "[kernel.vmlinux]"));
}

/* The symbol column: "[k] name", or "[.] 0x<16 digits>" when unresolved,
 * cut to width (an inlined entry's name is cut, its " (inlined)" is added
 * after); padded to it unless it is the last column.  A data symbol
 * (STT_OBJECT: kallsyms' D and B symbols, which hold kernel addresses past
 * the text) in the kernel's map prints whole with the entry's offset in
 * it, "name+0x80314", as perf's _hist_entry__sym_snprintf() prints it. */
static void put_sym(struct line *l, const struct hists *h, const struct hist_entry *e,
		    int width, int pad)
{
	size_t start = l->len;
	int n;

	put_mem(l, "[", 1);
	put_mem(l, &e->level, 1);
	put_mem(l, "] ", 2);
	if (e->sym && e->sym->type == STT_OBJECT && kernel_map_entry(h, e)) {
		const char *name = symbol_name(e->sym);
		size_t len = strlen(name);
		char tmp[24];

		/* printed whole: may be wider than the room reserved */
		line_reserve(l, len + sizeof(tmp) + (width > 0 ? width : 0));
		put_mem(l, name, len);
		put_mem(l, tmp, snprintf(tmp, sizeof(tmp), "+0x%" PRIx64,
					 (uint64_t)(e->addr - e->sym->start)));
		n = l->len - start;
		if (pad)
			put_spaces(l, width - n);
		return;
	}
	if (e->sym) {
		const char *name = symbol_name(e->sym);

		put_mem(l, name, strnlen(name, width - 4 > 0 ? width - 4 : 0));
		if (symbol_inlined(e->sym)) {
			/* perf cuts the name only */
			put_mem(l, " (inlined)", 10);
			if (pad)
				put_spaces(l, width - (int)(l->len - start));
			return;
		}
	} else {
		/* "%#.16llx" ("0x" only when not zero) */
		static const char hex[] = "0123456789abcdef";
		char tmp[16];
		u64 a = e->addr;

		for (int i = 15; i >= 0; i--, a >>= 4)
			tmp[i] = hex[a & 15];
		if (e->addr)
			put_mem(l, "0x", 2);
		put_mem(l, tmp, 16);
	}
	n = l->len - start;
	if (n > width) {
		l->len = start + (width > 0 ? width : 0);
		n = width;
	}
	if (pad)
		put_spaces(l, width - n);
}

/* Most bytes a column of width w takes with its separator: the width,
 * or what printf's formats make of a wider value (an overhead's "%.2f"
 * of a huge number, a pid's "%7d:", a symbol's prefix and suffix). */
#define COL_ROOM(w) (3 + (size_t)((w) > 0 ? (w) : 0) + 64)

/* One count column's value of e (of the histogram whose total is given),
 * in perf's width w of one event: " %*.2f%%" or " %*llu" after the
 * separator's first space.  e NULL: a group member without the key. */
static void put_count(struct line *l, enum hist_dim d, const struct hist_entry *e, u64 total,
		      int w)
{
	u64 v = !e ? 0 : d == HD_CHILDREN ? e->acc_period : d == HD_SAMPLE ? e->nr_samples :
		e->period;

	if (d == HD_CHILDREN || d == HD_OVERHEAD) {
		put_fixed2(l, total ? 100.0 * v / total : 0.0, w - 2);
		put_mem(l, "%", 1);
	} else {
		put_u64(l, v, w - 1);
	}
}

static void print_row(struct line *l, const struct hists *h, const struct hist_entry *e,
		      u64 total, const struct report_stdio_opts *o)
{
	const struct hist_layout *lay = h->lay;
	size_t room = 1;	/* the newline */

	for (int i = 0; i < lay->nr_cols; i++)
		room += COL_ROOM(h->col_width[lay->cols[i]]) + 64 * h->group_nr;
	line_reserve(l, room);
	for (int i = 0; i < lay->nr_cols; i++) {
		enum hist_dim d = lay->cols[i];
		int w = h->col_width[d];

		if (!col_shown(lay, d))
			continue;
		put_mem(l, "   ", d <= HD_PERIOD ? 3 : 2);
		switch (d) {
		case HD_CHILDREN:
		case HD_OVERHEAD:
		case HD_SAMPLE:
		case HD_PERIOD:
			/* a group's: the leader's, then each member's (perf's
			   __hpp__fmt()), each as wide as one event's column */
			w /= 1 + (int)h->group_nr;
			put_count(l, d, e, total, w);
			for (u32 m = 0; m < h->group_nr; m++) {
				put_mem(l, " ", 1);
				put_count(l, d, hists_group_pair(h, e, m),
					  total_of(h->group_members[m], o), w);
			}
			break;
		case HD_PID: {
			char tmp[16];
			int cw = (w > 7 ? w : 7) - 8;

			put_mem(l, tmp, snprintf(tmp, sizeof(tmp), "%7d:", e->tid));
			put_str_cut(l, hist_thread_comm(h, e), cw);
			break;
		}
		case HD_COMM:
			put_str_cut(l, hist_string(h->strs, e->comm), w);
			break;
		case HD_DSO:
			put_str_cut(l, hist_string(h->strs, e->dso_name), w);
			break;
		case HD_SYM:
			put_sym(l, h, e, w, !last_col(lay, i));
			break;
		case HD_CPU: {
			char tmp[32];
			int n = snprintf(tmp, sizeof(tmp), "%*.*d", w, w, e->cpu);

			if (n < (int)sizeof(tmp)) {
				put_mem(l, tmp, n);
			} else {
				put_spaces(l, w - 11);
				put_mem(l, tmp + n - 11, 11);
			}
			break;
		}
		case HD_TRACE: {
			/* perf's "%-.*s": cut to the width, padded only
			   when a column follows */
			const char *t = e->trace ? hist_string(h->strs, e->trace) : "N/A";
			size_t n = strlen(t);

			if (last_col(lay, i))
				put_mem(l, t, n < (size_t)w ? n : (size_t)w);
			else
				put_str_cut(l, t, w);
			break;
		}
		default:
			break;
		}
	}
	put_mem(l, "\n", 1);
}

/* Rows [from, to) of h->sorted, those over the percent limit. */
struct row_span {
	const struct hists *h;
	const struct report_stdio_opts *o;
	u64 total;
	u32 from, to;
	struct line line;	/* the rows formatted */
	u32 *ends;		/* NULL, or: where each row ends in line
				   (ends[i - from]) */
};

/* Is the entry's row over the percent limit? */
static int row_shown(const struct hists *h, const struct hist_entry *e, u64 total,
		     const struct report_stdio_opts *o)
{
	u64 period = h->lay->children ? e->acc_period : e->period;
	float percent = total ? period * 100.0 / total : 0;

	return percent >= o->min_percent;
}

static void *format_rows(void *arg)
{
	struct row_span *rs = arg;
	const struct hists *h = rs->h;

	for (u32 i = rs->from; i < rs->to; i++) {
		const struct hist_entry *e = h->sorted[i];

		if (row_shown(h, e, rs->total, rs->o))
			print_row(&rs->line, h, e, rs->total, rs->o);
		if (rs->ends)
			rs->ends[i - rs->from] = (u32)rs->line.len;
	}
	return NULL;
}

/* Flat rows at or over this many are formatted in two halves at once. */
#define PARALLEL_ROWS_MIN 16384

/* A flat report's rows: big ones in two halves, the second formatted on
 * another thread meanwhile (each row is a few cache misses). */
static void print_flat_rows(FILE *out, const struct hists *h, const struct report_stdio_opts *o,
			    u64 total)
{
	u32 n = h->nr_sorted, half = n / 2;
	struct row_span first = { h, o, total, 0, n, { 0 }, NULL };
	struct row_span second = { h, o, total, half, n, { 0 }, NULL };
	pthread_t thread;
	int threaded = 0;

	if (n >= PARALLEL_ROWS_MIN && !o->one_thread) {
		threaded = !pthread_create(&thread, NULL, format_rows, &second);
		if (threaded)
			first.to = half;
	}
	format_rows(&first);
	if (first.line.len)	/* no rows: the buffer was never allocated */
		fwrite(first.line.buf, 1, first.line.len, out);
	free(first.line.buf);
	if (threaded) {
		pthread_join(thread, NULL);
		if (second.line.len)
			fwrite(second.line.buf, 1, second.line.len, out);
		free(second.line.buf);
	}
}

/* A big report with call graphs: its rows formatted in two halves at
 * once, as print_flat_rows() does, then written out in order with the
 * graphs of the entries that have a tree between them. */
static void print_graph_rows(FILE *out, const struct hists *h, const struct report_stdio_opts *o,
			     u64 total, const struct callchain_print_opts *cpo)
{
	u32 n = h->nr_sorted, half = n / 2, *ends = xmalloc(n * sizeof(*ends));
	struct row_span span[2] = {
		{ h, o, total, 0, half, { 0 }, ends },
		{ h, o, total, half, n, { 0 }, ends + half },
	};
	pthread_t thread;
	int threaded = !pthread_create(&thread, NULL, format_rows, &span[1]);
	u32 pos = 0;

	format_rows(&span[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		format_rows(&span[1]);
	for (u32 i = 0; i < n; i++) {
		const struct hist_entry *e = h->sorted[i];
		const struct line *l = &span[i >= half].line;
		u32 root = h->cc_roots[e - h->entries];

		if (i == half) {
			/* the first half's rest, then the second's rows */
			if (span[0].line.len > pos)
				fwrite(span[0].line.buf + pos, 1, span[0].line.len - pos, out);
			pos = 0;
		}
		if (!root || !row_shown(h, e, total, o))
			continue;
		fwrite(l->buf + pos, 1, ends[i] - pos, out);
		pos = ends[i];
		callchain_print(out, h->cc, root, h->lay->children ? e->acc_period : e->period, cpo);
	}
	if (span[1].line.len > pos)
		fwrite(span[1].line.buf + pos, 1, span[1].line.len - pos, out);
	free(span[0].line.buf);
	free(span[1].line.buf);
	free(ends);
}

void report_stdio_hists(FILE *out, const struct hists *h, const char *evname, int plural,
			const struct report_stdio_opts *o)
{
	u64 total = total_of(h, o);
	struct line line = { 0 };
	struct callchain_print_opts cpo = { 0 };

	if (!o->quiet) {
		unsigned long nr = o->relative ? h->nr_non_filtered_samples : h->nr_samples;
		u64 count = total;
		char unit;

		/* a group's: its events' together */
		for (u32 m = 0; m < h->group_nr; m++) {
			const struct hists *mh = h->group_members[m];

			nr += o->relative ? mh->nr_non_filtered_samples : mh->nr_samples;
			count += total_of(mh, o);
		}
		nr = report_convert_unit(nr, &unit);
		fprintf(out, "# Samples: %lu%c of event%s '%s'", nr, unit, plural ? "s" : "",
			evname);
		if (o->time_str)
			fprintf(out, " (time slices: %s)", o->time_str);
		fprintf(out, "\n# Event count (approx.): %llu\n#\n",
			(unsigned long long)count);
		print_titles(out, h);
	}
	if (!o->callgraph) {
		print_flat_rows(out, h, o, total);
		fputs("\n\n", out);
		return;
	}
	/* perf's min_callchain_hits: of the period of all samples (of the
	   shown ones with --percentage relative) */
	cpo.param = o->callgraph;
	cpo.total_period = h->total_period;
	cpo.min_hit = (u64)(total * (o->callgraph->min_percent / 100));
	cpo.skip_first = o->callgraph_skip_first;
	if (h->nr_sorted >= PARALLEL_ROWS_MIN && !o->one_thread) {
		print_graph_rows(out, h, o, total, &cpo);
		fputs("\n\n", out);
		return;
	}
	for (u32 i = 0; i < h->nr_sorted; i++) {
		const struct hist_entry *e = h->sorted[i];

		if (!row_shown(h, e, total, o))
			continue;
		print_row(&line, h, e, total, o);
		fwrite(line.buf, 1, line.len, out);
		line.len = 0;
		callchain_print(out, h->cc, h->cc_roots[e - h->entries],
				h->lay->children ? e->acc_period : e->period, &cpo);
	}
	free(line.buf);
	fputs("\n\n", out);
}

void report_stdio_end(FILE *out, const struct report_stdio_opts *o)
{
	if (!o->quiet)
		fputs("#\n# (Tip: For a higher level overview, try: "
		      "prof report --sort comm,dso)\n#\n", out);
}
