/*
 * diff.c - perf diff's rows: matching the entries of the files by key,
 * the computations and the order of the rows (see diff.h).
 */
#include "diff.h"
#include "../util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int diff_compute_parse(struct diff_rows *d, const char *s)
{
	static const char *const names[] = {
		[DIFF_COMPUTE_DELTA] = "delta",
		[DIFF_COMPUTE_RATIO] = "ratio",
		[DIFF_COMPUTE_WDIFF] = "wdiff",
		[DIFF_COMPUTE_DELTA_ABS] = "delta-abs",
		[DIFF_COMPUTE_CYCLES] = "cycles",
	};
	const char *arg = strchr(s, ':');
	size_t len = arg ? (size_t)(arg - s) : strlen(s);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != len || strncmp(s, names[i], len))
			continue;
		d->compute = i;
		if (i != DIFF_COMPUTE_WDIFF) {
			if (arg)
				return error("extra option specified '%s'", arg + 1);
			return 0;
		}
		if (arg) {
			const char *w2 = strchr(arg + 1, ',');

			d->w1 = strtol(arg + 1, NULL, 10);
			d->w2 = w2 && w2[1] ? strtol(w2 + 1, NULL, 10) : 0;
			if (w2 && w2[1] && d->w1 && d->w2)
				return 0;
		}
		return error("wrong weight data, use 'wdiff:w1,w2'");
	}
	return error("'%s' is not computation method (use 'delta','ratio' or 'wdiff')", s);
}

int diff_match_evsel(const struct pd_file *f, const struct pd_evsel *base)
{
	for (u32 i = 0; i < f->nr_evsel; i++)
		if (f->evsel[i].attr.type == base->attr.type &&
		    f->evsel[i].attr.config == base->attr.config)
			return (int)i;
	return -1;
}

void diff_rows_init(struct diff_rows *d, const struct hist_layout *lay,
		    const struct hist_strings *strs, int nr_files)
{
	d->lay = lay;
	d->strs = strs;
	d->nr_files = nr_files;
	d->total = xcalloc(nr_files, sizeof(*d->total));
}

/* ---- matching ---------------------------------------------------------------- */

/* Do a and b have the same key, by name (perf diff's matching)? */
static int same_key(const struct hist_layout *lay, const struct hist_entry *a,
		    const struct hist_entry *b)
{
	for (int i = 0; i < lay->nr_sort; i++) {
		switch (lay->sort[i]) {
		case HD_PID:
			if (a->tid != b->tid)
				return 0;
			break;
		case HD_COMM:
			if (a->comm != b->comm)
				return 0;
			break;
		case HD_DSO:
			if (a->dso_name != b->dso_name)
				return 0;
			break;
		case HD_CPU:
			if (a->cpu != b->cpu)
				return 0;
			break;
		case HD_SYM:
			/* by name; two unresolved symbols are equal */
			if (!a->sym != !b->sym)
				return 0;
			if (a->sym && strcmp(symbol_name(a->sym), symbol_name(b->sym)))
				return 0;
			break;
		default:
			break;
		}
	}
	return 1;
}

static u32 mix(u32 h, u64 v)
{
	h ^= (u32)v ^ (u32)(v >> 32);
	return h * 0x9e3779b1u;
}

static u32 name_key_hash(const struct hist_layout *lay, const struct hist_entry *e)
{
	u32 h = 0x811c9dc5u;

	for (int i = 0; i < lay->nr_sort; i++) {
		switch (lay->sort[i]) {
		case HD_PID:
			h = mix(h, (u32)e->tid);
			break;
		case HD_COMM:
			h = mix(h, e->comm);
			break;
		case HD_DSO:
			h = mix(h, e->dso_name);
			break;
		case HD_CPU:
			h = mix(h, (u32)e->cpu);
			break;
		case HD_SYM:
			if (e->sym)
				for (const char *s = symbol_name(e->sym); *s; s++)
					h = (h ^ (unsigned char)*s) * 0x01000193u;
			break;
		default:
			break;
		}
	}
	return h;
}

int diff_row_key_file(const struct diff_rows *d, u32 r)
{
	const struct diff_cell *c = diff_row(d, r);
	int i = 0;

	while (i < d->nr_files - 1 && !c[i].e)
		i++;
	return i;
}

/* The entry that names row r. */
static const struct hist_entry *row_key(const struct diff_rows *d, u32 r)
{
	return diff_row(d, r)[diff_row_key_file(d, r)].e;
}

static void index_rebuild(struct diff_rows *d)
{
	free(d->index);
	d->index_mask = 1023;
	while ((u64)d->nr_rows * 2 > (u64)d->index_mask + 1)
		d->index_mask = d->index_mask * 2 + 1;
	d->index = xcalloc((size_t)d->index_mask + 1, sizeof(u32));
	for (u32 r = 0; r < d->nr_rows; r++) {
		u32 k = name_key_hash(d->lay, row_key(d, r)) & d->index_mask;

		while (d->index[k])
			k = (k + 1) & d->index_mask;
		d->index[k] = r + 1;
	}
}

/*
 * Adds entry e of file to the row with its key, or to a new row (unless
 * new rows are not wanted: -b).  Entries of one file with the same key by
 * name (perf's collapse for diff: symbols of the same name, or all the
 * unresolved addresses of a DSO) make one, named by the first of them in
 * perf's input tree, which perf collapses in its order.
 */
static void add_to_row(struct diff_rows *d, int file, const struct hist_entry *e, int may_add)
{
	const struct hists *h = d->hists[file];
	u32 k = name_key_hash(d->lay, e) & d->index_mask, r;
	struct diff_cell *c;

	for (; d->index[k]; k = (k + 1) & d->index_mask) {
		r = d->index[k] - 1;
		if (same_key(d->lay, row_key(d, r), e)) {
			c = &d->cells[(size_t)r * d->nr_files + file];
			c->period += e->period;
			if (!c->e || h->input_rank[e - h->entries] <
					     h->input_rank[c->e - h->entries])
				c->e = e;
			return;
		}
	}
	if (!may_add)
		return;
	if (d->nr_rows == d->alloc_rows) {
		d->alloc_rows = d->alloc_rows ? 2 * d->alloc_rows : 1024;
		d->cells = xrealloc(d->cells, (size_t)d->alloc_rows * d->nr_files *
					      sizeof(*d->cells));
	}
	r = d->nr_rows++;
	c = &d->cells[(size_t)r * d->nr_files];
	memset(c, 0, d->nr_files * sizeof(*c));
	c[file].e = e;
	c[file].period = e->period;
	d->index[k] = r + 1;
	if ((u64)d->nr_rows * 2 > (u64)d->index_mask + 1)
		index_rebuild(d);
}

/* ---- computing ----------------------------------------------------------------- */

/* perf's compute_delta(), compute_ratio() and compute_wdiff() for every
 * pair of a row. */
static void compute_cells(struct diff_rows *d)
{
	u64 base_total = d->total[0];

	for (u32 r = 0; r < d->nr_rows; r++) {
		struct diff_cell *c = &d->cells[(size_t)r * d->nr_files];
		u64 old = diff_cell_period(&c[0]);

		for (int i = 1; i < d->nr_files; i++) {
			u64 new = diff_cell_period(&c[i]);

			if (!c[i].e)
				continue;
			c[i].delta = (new * 100.0) / d->total[i] -
				     (old * 100.0) / base_total;
			c[i].ratio = (double)new / (double)(old ? old : 1);
			c[i].wdiff = (s64)new * d->w2 - (s64)old * d->w1;
		}
	}
}

static int has_pairs(const struct diff_rows *d, const struct diff_cell *c)
{
	for (int i = 1; i < d->nr_files; i++)
		if (c[i].e)
			return 1;
	return 0;
}

/*
 * The Baseline column is a share of the baseline's entries once merged
 * (with --percentage relative, of those not filtered out: a merged entry
 * is as its first), as perf sums them again once the computations are
 * done; with -b, only of those with a match.  Then the rows not shown go:
 * those named by a filtered entry, with -b those without a match.
 */
static void keep_shown(struct diff_rows *d)
{
	u32 kept = 0;

	d->base_total = 0;
	for (u32 r = 0; r < d->nr_rows; r++) {
		const struct diff_cell *c = diff_row(d, r);

		if (c->e && (!d->relative || !c->e->filtered) &&
		    (!d->baseline_only || has_pairs(d, c)))
			d->base_total += c->period;
	}
	for (u32 r = 0; r < d->nr_rows; r++) {
		const struct diff_cell *c = diff_row(d, r);

		if (row_key(d, r)->filtered || (d->baseline_only && !has_pairs(d, c)))
			continue;
		memmove(&d->cells[(size_t)kept++ * d->nr_files], c,
			d->nr_files * sizeof(*c));
	}
	d->nr_rows = kept;
}

/* ---- ordering ------------------------------------------------------------------- */

/* Descending order of two computed values: <0 when a goes first. */
static int cmp_value(const struct diff_rows *d, const struct diff_cell *a,
		     const struct diff_cell *b)
{
	double x, y;

	switch (d->compute) {
	case DIFF_COMPUTE_DELTA:
		x = a->delta, y = b->delta;
		break;
	case DIFF_COMPUTE_DELTA_ABS:
		x = fabs(a->delta), y = fabs(b->delta);
		break;
	case DIFF_COMPUTE_RATIO:
		x = a->ratio, y = b->ratio;
		break;
	default:
		return a->wdiff > b->wdiff ? -1 : a->wdiff < b->wdiff;
	}
	return x > y ? -1 : x < y;
}

/* strcmp() of two interned names; no name (id 0) goes last. */
static int cmp_names(const struct diff_rows *d, u32 a, u32 b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(hist_string(d->strs, a), hist_string(d->strs, b));
}

/* The column of file --order first: <0 when row a goes before row b, 0
 * when they tie on it. */
static int cmp_order_col(const struct diff_rows *d, const struct diff_cell *a,
			 const struct diff_cell *b)
{
	const struct diff_cell *x = &a[d->order], *y = &b[d->order];
	int delta = d->compute == DIFF_COMPUTE_DELTA || d->compute == DIFF_COMPUTE_DELTA_ABS;

	if (x->e && y->e) {
		if (!delta && !a[0].e != !b[0].e)
			return a[0].e ? -1 : 1;
		if (delta || a[0].e)
			return cmp_value(d, x, y);
		return 0;
	}
	if (x->e || y->e)
		return x->e ? -1 : 1;
	return 0;
}

/* The keys shown, as perf's sort functions order them. */
static int cmp_keys(const struct diff_rows *d, const struct hist_entry *ka,
		    const struct hist_entry *kb)
{
	const struct hist_layout *lay = d->lay;
	int r;

	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->elide_mask & (1u << lay->sort[i]))
			continue;
		r = 0;
		switch (lay->sort[i]) {
		case HD_PID:
			r = (ka->tid > kb->tid) - (ka->tid < kb->tid);
			break;
		case HD_COMM:
			r = cmp_names(d, ka->comm, kb->comm);
			break;
		case HD_DSO:
			r = cmp_names(d, ka->dso_name, kb->dso_name);
			break;
		case HD_CPU:
			r = (ka->cpu > kb->cpu) - (ka->cpu < kb->cpu);
			break;
		case HD_SYM:
			if (!ka->sym || !kb->sym)
				r = !ka->sym - !kb->sym;
			else
				r = strcmp(symbol_name(ka->sym), symbol_name(kb->sym));
			break;
		default:
			break;
		}
		if (r)
			return r;
	}
	return 0;
}

/* perf's output sort list for diff: <0 when row ra goes before row rb. */
static int row_cmp(const struct diff_rows *d, u32 ra, u32 rb)
{
	const struct diff_cell *a = diff_row(d, ra), *b = diff_row(d, rb);
	int r, pa, pb;

	if (d->order && (r = cmp_order_col(d, a, b)))
		return r;
	/* the baseline's period, larger first */
	if (diff_cell_period(&a[0]) != diff_cell_period(&b[0]))
		return diff_cell_period(&a[0]) > diff_cell_period(&b[0]) ? -1 : 1;
	/* each file's column */
	pa = has_pairs(d, a);
	pb = has_pairs(d, b);
	if (pa != pb)
		return pa ? -1 : 1;
	for (int i = 1; pa && i < d->nr_files; i++) {
		if (!a[i].e || !b[i].e) {
			if (a[i].e || b[i].e)
				return a[i].e ? -1 : 1;
			continue;
		}
		if ((r = cmp_value(d, &a[i], &b[i])))
			return r;
	}
	if ((r = cmp_keys(d, row_key(d, ra), row_key(d, rb))))
		return r;
	return (ra > rb) - (ra < rb);
}

/* Sorts rows[0..n) by row_cmp() (a merge sort: perf's order is total
 * here, the last tie-break being the row number). */
static void sort_rows(const struct diff_rows *d, u32 *rows, u32 *tmp, u32 n)
{
	u32 mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_rows(d, rows, tmp, mid);
	sort_rows(d, rows + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = row_cmp(d, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
	while (i < mid)
		tmp[k++] = rows[i++];
	while (j < n)
		tmp[k++] = rows[j++];
	memcpy(rows, tmp, n * sizeof(*rows));
}

/* ---- one event ------------------------------------------------------------------ */

void diff_rows_event(struct diff_rows *d, const struct hists *const *hists, const u64 *shown)
{
	const struct hists *base = hists[0];
	u32 *tmp;

	d->hists = hists;
	d->nr_rows = 0;
	index_rebuild(d);
	/* the totals of the computations: with --percentage relative,
	   of the samples not filtered out */
	for (int i = 0; i < d->nr_files; i++)
		d->total[i] = !hists[i] ? 0 : d->relative ? shown[i] : hists[i]->total_period;
	/* all entries match, the filtered ones too (a row is shown when the
	   entry that made it is not) */
	for (u32 j = 0; j < base->nr_entries; j++)
		add_to_row(d, 0, &base->entries[j], 1);
	for (int i = 1; i < d->nr_files; i++)
		for (u32 j = 0; hists[i] && j < hists[i]->nr_entries; j++)
			add_to_row(d, i, &hists[i]->entries[j], !d->baseline_only);
	compute_cells(d);
	keep_shown(d);

	free(d->sorted);
	d->sorted = xmalloc((d->nr_rows ? d->nr_rows : 1) * sizeof(*d->sorted));
	tmp = xmalloc((d->nr_rows ? d->nr_rows : 1) * sizeof(*tmp));
	for (u32 r = 0; r < d->nr_rows; r++)
		d->sorted[r] = r;
	sort_rows(d, d->sorted, tmp, d->nr_rows);
	free(tmp);
}

void diff_rows_free(struct diff_rows *d)
{
	free(d->total);
	free(d->cells);
	free(d->sorted);
	free(d->index);
}
