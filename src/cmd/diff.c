/*
 * diff.c - "prof diff": compares the flat profiles of two or more
 * perf.data files as "perf diff" (perf 6.1) does, in its exact layout.
 *
 * Each file's samples go into one flat histogram per event, built as
 * "prof report --no-children -g none" builds them (session, hists).  For
 * every event of the baseline (the first file) the same event (type and
 * config) of each other file is looked up; the entries of the files are
 * then matched by the sort keys compared by value and name (comm, DSO
 * name, symbol name, cpu, tid), so that different builds of a program
 * line up; entries of one file equal by name count as one (perf's
 * collapse).  An entry found only in another file gets a row with an
 * empty Baseline (perf's "dummy" entry).  Filtered entries match too; a
 * row is shown when the entry that made it is not filtered.  Rows are
 * ordered as perf's output sort list orders them: the compute column of
 * file --order first, then the baseline period, each file's compute
 * column, then the keys.
 *
 * Invariants: all histograms share one hist_strings, so comm and DSO
 * names compare as ids; a row has at most one cell per file, whose period
 * is the sum of the entries merged into it; nothing here changes the
 * histograms after hists_finish().
 */
#include "cmds.h"
#include "../engine/engine.h"
#include "../analysis/filters.h"
#include "../analysis/hist.h"
#include "../format/evname.h"
#include "../format/feature.h"
#include "../format/reader.h"
#include "../session/session.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/pager.h"
#include "../util/timerange.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf diff's computations (-c). */
enum diff_compute {
	COMPUTE_DELTA,
	COMPUTE_RATIO,
	COMPUTE_WDIFF,
	COMPUTE_DELTA_ABS,
	COMPUTE_CYCLES,		/* accepted, refused later: needs branch
				   stacks, not implemented */
};

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

/* One input file and its histograms (one per event). */
struct diff_file {
	const char *path;
	struct pd_file f;
	int opened;		/* pd_open() ran (pd_close() needed) */
	struct engine_config cfg;	/* its engine's: --time, --cpu */
	struct engine *eng;	/* reads it; its session holds what the
				   entries point to */
	struct diff_ctx *ctx;
	struct hists *hists;	/* f.nr_evsel of them */
	u64 *sample_shown;	/* per event: the periods of the samples
				   not filtered out (perf's total of the
				   diff's computations with --percentage
				   relative; the entries' differs) */
	u32 nr_hists;
	struct time_range *time_ranges;	/* --time for this file */
	unsigned char *cpu_bitmap;	/* --cpu, or NULL */
};

/* One cell of a row: a file's entry and what was computed from it. */
struct diff_cell {
	const struct hist_entry *e;	/* NULL: the file has none */
	u64 period;		/* of e and the file's entries merged in */
	double delta;		/* percentage points against the baseline */
	double ratio;
	s64 wdiff;
};

struct diff_ctx {
	/* options */
	const char *compute_str;	/* -c */
	int show_period;		/* -p */
	int show_formula;		/* -F */
	int baseline_only;		/* -b */
	int quiet;			/* -q */
	const char *field_sep;		/* -t */
	int stream;			/* --stream */
	int cycles_hist;		/* --cycles-hist */
	int force;			/* -f */
	int order;			/* -o: the file sorted on first (0: none) */
	const char *sort_order;		/* -s */
	const char *percentage;		/* --percentage */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	const char *dsos, *comms, *symbols;	/* -d, -C, -S */
	const char *pids, *tids;	/* --pid, --tid */
	const char *cpus;		/* --cpu */
	const char *time_str;		/* --time */

	enum diff_compute compute;
	s64 w1, w2;			/* wdiff:w1,w2 */
	int relative;			/* --percentage relative */
	struct hist_filters filters;
	const char *time_left;		/* --time with ':': the files' parts
					   not taken yet */
	struct hist_layout lay;
	struct hist_strings *strs;
	struct diff_file *files;
	int nr_files;

	/* per event, while it is printed */
	const struct hists **ev_hists;	/* per file, NULL: no such event */
	u64 *ev_total;			/* per file: the total its computed
					   values are shares of */
	struct diff_cell *cells;	/* nr_rows x nr_files */
	u32 nr_rows, alloc_rows;
	u32 *index;			/* open addressing: row + 1 */
	u32 index_mask;
	u64 base_total;			/* what the Baseline column (and
					   the formula's baseline) is a
					   share of */
	struct diff_col *cols;		/* at most 3 per file */
	int nr_cols;
	int key_width[HD_NR];
};

static const char *const diff_usage[] = {
	"prof diff [<options>] [old_file] [new_file]",
	"prof diff [<options>] base_file new_file [new_file...]",
	NULL,
};

/* ---- options -------------------------------------------------------------- */

/* -c: delta, delta-abs, ratio or wdiff:w1,w2, as perf's setup_compute(). */
static int parse_compute(struct diff_ctx *ctx)
{
	static const char *const names[] = {
		[COMPUTE_DELTA] = "delta",
		[COMPUTE_RATIO] = "ratio",
		[COMPUTE_WDIFF] = "wdiff",
		[COMPUTE_DELTA_ABS] = "delta-abs",
		[COMPUTE_CYCLES] = "cycles",
	};
	const char *s = ctx->compute_str, *arg = strchr(s, ':');
	size_t len = arg ? (size_t)(arg - s) : strlen(s);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != len || strncmp(s, names[i], len))
			continue;
		ctx->compute = i;
		if (i != COMPUTE_WDIFF) {
			if (arg)
				return error("extra option specified '%s'", arg + 1);
			return 0;
		}
		if (arg) {
			const char *w2 = strchr(arg + 1, ',');

			ctx->w1 = strtol(arg + 1, NULL, 10);
			ctx->w2 = w2 && w2[1] ? strtol(w2 + 1, NULL, 10) : 0;
			if (w2 && w2[1] && ctx->w1 && ctx->w2)
				return 0;
		}
		return error("wrong weight data, use 'wdiff:w1,w2'");
	}
	return error("'%s' is not computation method (use 'delta','ratio' or 'wdiff')", s);
}

/* The filters of -d, -C, -S, --pid and --tid; the columns a one-item list
 * names are hidden, as perf's sort__setup_elide().  Returns 0 or -1. */
static int setup_filters(struct diff_ctx *ctx)
{
	const struct filter_args fa = { ctx->comms, ctx->dsos, ctx->symbols, ctx->pids, ctx->tids };
	struct filter_counts nr;

	if (hist_filters_parse(&ctx->filters, &fa, &nr))
		return -1;
	hist_layout_elide(&ctx->lay, nr.comms == 1, nr.dsos == 1, nr.symbols == 1);
	return 0;
}

/* ---- reading the files ------------------------------------------------------- */

/*
 * --time for one file, as perf diff: a string with ':' gives each file its
 * own part ("a,b:c,d"), else every file takes the whole string (percent
 * slices of its own first and last sample times).  Returns 0, or -EINVAL
 * after an error (perf exits with its low byte).
 */
static int file_time(struct diff_ctx *ctx, struct diff_file *df)
{
	char part[256];
	const char *s = ctx->time_str, *colon;
	struct pd_feat_env env;

	if (strchr(ctx->time_str, ':')) {
		s = ctx->time_left;
		colon = s ? strchr(s, ':') : NULL;
		if (!s || *s == ':' || (colon && !colon[1])) {
			error("invalid time string");
			return -EINVAL;
		}
		snprintf(part, sizeof(part), "%.*s",
			 (int)(colon ? (size_t)(colon - s) : strlen(s)), s);
		ctx->time_left = colon ? colon + 1 : NULL;
		s = part;
	}
	memset(&env, 0, sizeof(env));
	if (strchr(s, '%'))
		pd_feature_decode(&df->f, PD_FEAT_SAMPLE_TIME, &env);
	df->cfg.nr_time_ranges = time_ranges_parse(s, env.first_sample_time,
						   env.last_sample_time, &df->time_ranges);
	df->cfg.time_ranges = df->time_ranges;
	if (df->cfg.nr_time_ranges < 0) {
		df->cfg.nr_time_ranges = 0;
		error("invalid time string '%s'", s);
		return -EINVAL;
	}
	return 0;
}

/* --cpu for one file: perf needs CPUs in its samples and checks the list
 * against the recording machine's.  Returns 0 or -1. */
static int file_cpus(struct diff_ctx *ctx, struct diff_file *df)
{
	struct pd_file *f = &df->f;
	u64 sample_type = 0;
	u32 nr_cpus = CPU_LIST_MAX;

	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	if (!(sample_type & PD_SAMPLE_CPU))
		return error("file does not contain CPU events: remove --cpu to proceed");
	if (f->feat_data[PD_FEAT_NRCPUS] && f->feat_size[PD_FEAT_NRCPUS] >= 4) {
		u32 n = pd_get32(f->feat_data[PD_FEAT_NRCPUS]);

		if (f->needs_swap)
			n = __builtin_bswap32(n);
		if (n && n <= CPU_LIST_MAX)
			nr_cpus = n;
	}
	if (cpu_list_parse(ctx->cpus, &df->cpu_bitmap, nr_cpus))
		return -1;
	df->cfg.cpu_bitmap = df->cpu_bitmap;
	return 0;
}

/* A sample of the file, resolved, inside --time and --cpu: added to its
 * event's histogram. */
static int diff_sample(void *vctx, struct engine_sample *s)
{
	struct diff_file *df = vctx;
	struct hists *h;
	u8 filtered;

	if (s->evsel->idx >= df->nr_hists)
		return 0;
	h = &df->hists[s->evsel->idx];
	filtered = hist_filter_sample(h->strs, &df->ctx->filters, &s->al, s->sample.ip);
	hists_add(h, &s->al, (s32)s->sample.cpu, s->sample.period, filtered);
	if (!filtered)
		df->sample_shown[s->evsel->idx] += s->sample.period;
	return 0;
}

/* The engine's configure hook: one histogram per event of the file. */
static int diff_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	struct diff_file *df = arg;

	(void)cfg;	/* every sample is resolved to its symbol */
	df->nr_hists = f->nr_evsel;
	df->hists = xcalloc(df->nr_hists ? df->nr_hists : 1, sizeof(*df->hists));
	df->sample_shown = xcalloc(df->nr_hists ? df->nr_hists : 1, sizeof(*df->sample_shown));
	for (u32 i = 0; i < df->nr_hists; i++) {
		hists_init(&df->hists[i], &df->ctx->lay, df->ctx->strs);
		df->hists[i].one_thread = 1;
		df->hists[i].need_input_rank = 1;
	}
	return 0;
}

/* Reads one file into its histograms.  Returns 0, -1, or -EINVAL for a
 * bad --time. */
static int read_file(struct diff_ctx *ctx, struct diff_file *df)
{
	const struct engine_consumer consumer = { .sample = diff_sample, .arg = df };

	df->opened = 1;
	df->ctx = ctx;
	if (pd_open(&df->f, df->path, 0))
		return error("failed to open %s", df->path);
	if (ctx->time_str && file_time(ctx, df))
		return -EINVAL;
	if (ctx->cpus && file_cpus(ctx, df))
		return -1;
	df->cfg.sopts.vmlinux = ctx->vmlinux;
	df->cfg.sopts.symfs = ctx->symfs;
	df->cfg.threads = 1;
	df->eng = engine_new(&df->cfg, diff_configure, df);
	if (engine_stream(df->eng, &df->f, &consumer) < 0)
		return error("failed to process %s", df->path);
	for (u32 i = 0; i < df->nr_hists; i++)
		hists_finish(&df->hists[i], ctx->dsos != NULL);
	return 0;
}

/* perf's evsel__match2(): the first event of f with the same type and
 * config as base, or -1. */
static int match_evsel(const struct pd_file *f, const struct pd_evsel *base)
{
	for (u32 i = 0; i < f->nr_evsel; i++)
		if (f->evsel[i].attr.type == base->attr.type &&
		    f->evsel[i].attr.config == base->attr.config)
			return (int)i;
	return -1;
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

/* The file whose entry names row r: the baseline, else the first that
 * has it. */
static int row_key_file(const struct diff_ctx *ctx, u32 r)
{
	const struct diff_cell *c = &ctx->cells[(size_t)r * ctx->nr_files];
	int i = 0;

	while (i < ctx->nr_files - 1 && !c[i].e)
		i++;
	return i;
}

/* The entry that names row r. */
static const struct hist_entry *row_key(const struct diff_ctx *ctx, u32 r)
{
	return ctx->cells[(size_t)r * ctx->nr_files + row_key_file(ctx, r)].e;
}

static void index_rebuild(struct diff_ctx *ctx)
{
	free(ctx->index);
	ctx->index_mask = 1023;
	while ((u64)ctx->nr_rows * 2 > (u64)ctx->index_mask + 1)
		ctx->index_mask = ctx->index_mask * 2 + 1;
	ctx->index = xcalloc((size_t)ctx->index_mask + 1, sizeof(u32));
	for (u32 r = 0; r < ctx->nr_rows; r++) {
		u32 k = name_key_hash(&ctx->lay, row_key(ctx, r)) & ctx->index_mask;

		while (ctx->index[k])
			k = (k + 1) & ctx->index_mask;
		ctx->index[k] = r + 1;
	}
}

/*
 * Adds entry e of file to the row with its key, or to a new row (unless
 * new rows are not wanted: -b).  Entries of one file with the same key by
 * name (perf's collapse for diff: symbols of the same name, or all the
 * unresolved addresses of a DSO) make one, named by the first of them in
 * perf's input tree, which perf collapses in its order.
 */
static void add_to_row(struct diff_ctx *ctx, int file, const struct hist_entry *e, int may_add)
{
	const struct hists *h = ctx->ev_hists[file];

	u32 k = name_key_hash(&ctx->lay, e) & ctx->index_mask, r;
	struct diff_cell *c;

	for (; ctx->index[k]; k = (k + 1) & ctx->index_mask) {
		r = ctx->index[k] - 1;
		if (same_key(&ctx->lay, row_key(ctx, r), e)) {
			c = &ctx->cells[(size_t)r * ctx->nr_files + file];
			c->period += e->period;
			if (!c->e || h->input_rank[e - h->entries] <
					     h->input_rank[c->e - h->entries])
				c->e = e;
			return;
		}
	}
	if (!may_add)
		return;
	if (ctx->nr_rows == ctx->alloc_rows) {
		ctx->alloc_rows = ctx->alloc_rows ? 2 * ctx->alloc_rows : 1024;
		ctx->cells = xrealloc(ctx->cells, (size_t)ctx->alloc_rows * ctx->nr_files *
					      sizeof(*ctx->cells));
	}
	r = ctx->nr_rows++;
	c = &ctx->cells[(size_t)r * ctx->nr_files];
	memset(c, 0, ctx->nr_files * sizeof(*c));
	c[file].e = e;
	c[file].period = e->period;
	ctx->index[k] = r + 1;
	if ((u64)ctx->nr_rows * 2 > (u64)ctx->index_mask + 1)
		index_rebuild(ctx);
}

/* ---- computing and ordering ---------------------------------------------------- */

static u64 period_of(const struct diff_cell *c)
{
	return c->e ? c->period : 0;
}

/* perf's compute_delta(), compute_ratio() and compute_wdiff() for every
 * pair of a row. */
static void compute_cells(struct diff_ctx *ctx)
{
	u64 base_total = ctx->ev_total[0];

	for (u32 r = 0; r < ctx->nr_rows; r++) {
		struct diff_cell *c = &ctx->cells[(size_t)r * ctx->nr_files];
		u64 old = period_of(&c[0]);

		for (int i = 1; i < ctx->nr_files; i++) {
			u64 new = period_of(&c[i]);

			if (!c[i].e)
				continue;
			c[i].delta = (new * 100.0) / ctx->ev_total[i] -
				     (old * 100.0) / base_total;
			c[i].ratio = (double)new / (double)(old ? old : 1);
			c[i].wdiff = (s64)new * ctx->w2 - (s64)old * ctx->w1;
		}
	}
}

/* Descending order of two computed values: <0 when a goes first. */
static int cmp_value(const struct diff_ctx *ctx, const struct diff_cell *a,
		     const struct diff_cell *b)
{
	double x, y;

	switch (ctx->compute) {
	case COMPUTE_DELTA:
		x = a->delta, y = b->delta;
		break;
	case COMPUTE_DELTA_ABS:
		x = fabs(a->delta), y = fabs(b->delta);
		break;
	case COMPUTE_RATIO:
		x = a->ratio, y = b->ratio;
		break;
	default:
		return a->wdiff > b->wdiff ? -1 : a->wdiff < b->wdiff;
	}
	return x > y ? -1 : x < y;
}

static int has_pairs(const struct diff_ctx *ctx, const struct diff_cell *c)
{
	for (int i = 1; i < ctx->nr_files; i++)
		if (c[i].e)
			return 1;
	return 0;
}

/* strcmp() of two interned names; no name (id 0) goes last. */
static int cmp_names(const struct diff_ctx *ctx, u32 a, u32 b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(hist_string(ctx->strs, a), hist_string(ctx->strs, b));
}

/* perf's output sort list for diff: <0 when row a goes before row b. */
static int row_cmp(const struct diff_ctx *ctx, u32 ra, u32 rb)
{
	const struct diff_cell *a = &ctx->cells[(size_t)ra * ctx->nr_files];
	const struct diff_cell *b = &ctx->cells[(size_t)rb * ctx->nr_files];
	const struct hist_entry *ka = row_key(ctx, ra), *kb = row_key(ctx, rb);
	int r, pa, pb;

	/* the column of file --order first */
	if (ctx->order) {
		const struct diff_cell *x = &a[ctx->order], *y = &b[ctx->order];

		if (x->e && y->e) {
			r = 0;
			if (ctx->compute != COMPUTE_DELTA && ctx->compute != COMPUTE_DELTA_ABS &&
			    !a[0].e != !b[0].e)
				return a[0].e ? -1 : 1;
			if (ctx->compute == COMPUTE_DELTA || ctx->compute == COMPUTE_DELTA_ABS ||
			    a[0].e)
				r = cmp_value(ctx, x, y);
			if (r)
				return r;
		} else if (x->e || y->e) {
			return x->e ? -1 : 1;
		}
	}
	/* the baseline's period, larger first */
	if (period_of(&a[0]) != period_of(&b[0]))
		return period_of(&a[0]) > period_of(&b[0]) ? -1 : 1;
	/* each file's column */
	pa = has_pairs(ctx, a);
	pb = has_pairs(ctx, b);
	if (pa != pb)
		return pa ? -1 : 1;
	for (int i = 1; pa && i < ctx->nr_files; i++) {
		if (!a[i].e || !b[i].e) {
			if (a[i].e || b[i].e)
				return a[i].e ? -1 : 1;
			continue;
		}
		if ((r = cmp_value(ctx, &a[i], &b[i])))
			return r;
	}
	/* the keys shown, as perf's sort functions order them */
	for (int i = 0; i < ctx->lay.nr_sort; i++) {
		if (ctx->lay.elide_mask & (1u << ctx->lay.sort[i]))
			continue;
		r = 0;
		switch (ctx->lay.sort[i]) {
		case HD_PID:
			r = (ka->tid > kb->tid) - (ka->tid < kb->tid);
			break;
		case HD_COMM:
			r = cmp_names(ctx, ka->comm, kb->comm);
			break;
		case HD_DSO:
			r = cmp_names(ctx, ka->dso_name, kb->dso_name);
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
	return (ra > rb) - (ra < rb);
}

/* Sorts rows[0..n) by row_cmp() (a merge sort: perf's order is total
 * here, the last tie-break being the row number). */
static void sort_rows(const struct diff_ctx *ctx, u32 *rows, u32 *tmp, u32 n)
{
	u32 mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_rows(ctx, rows, tmp, mid);
	sort_rows(ctx, rows + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = row_cmp(ctx, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
	while (i < mid)
		tmp[k++] = rows[i++];
	while (j < n)
		tmp[k++] = rows[j++];
	memcpy(rows, tmp, n * sizeof(*rows));
}

/* ---- output ---------------------------------------------------------------------- */

static void add_col(struct diff_ctx *ctx, enum diff_col_kind kind, int file)
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
	struct diff_col *c = &ctx->cols[ctx->nr_cols++];
	int len;

	c->kind = kind;
	c->file = file;
	if (ctx->nr_files > 2)
		snprintf(c->title, sizeof(c->title), "%s/%d", info[kind].name, file);
	else
		snprintf(c->title, sizeof(c->title), "%s", info[kind].name);
	len = strlen(c->title);
	c->width = info[kind].width > len ? info[kind].width : len;
}

/* perf's ui_init(): per file, its compute column (Baseline for the
 * first), then the formula and the period. */
static void setup_cols(struct diff_ctx *ctx)
{
	static const enum diff_col_kind compute_col[] = {
		[COMPUTE_DELTA] = COL_DELTA,
		[COMPUTE_RATIO] = COL_RATIO,
		[COMPUTE_WDIFF] = COL_WDIFF,
		[COMPUTE_DELTA_ABS] = COL_DELTA_ABS,
	};

	ctx->cols = xcalloc((size_t)ctx->nr_files * 3, sizeof(*ctx->cols));
	for (int i = 0; i < ctx->nr_files; i++) {
		add_col(ctx, i ? compute_col[ctx->compute] : COL_BASELINE, i);
		if (ctx->show_formula && i)
			add_col(ctx, COL_FORMULA, i);
		if (ctx->show_period)
			add_col(ctx, i ? COL_PERIOD : COL_PERIOD_BASELINE, i);
	}
}

/* The formula (-F) or period (-p) of a newer file that has the entry. */
static void formula_period_text(const struct diff_ctx *ctx, const struct diff_col *c,
				const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *p = &row[c->file];
	u64 old = period_of(&row[0]);

	if (c->kind == COL_PERIOD) {
		snprintf(buf, size, "%llu", (unsigned long long)p->period);
	} else if (c->kind != COL_FORMULA) {
		return;
	} else if (ctx->compute == COMPUTE_RATIO) {
		snprintf(buf, size, "%.0F / %.0F", (double)p->period, (double)old);
	} else if (ctx->compute == COMPUTE_WDIFF) {
		snprintf(buf, size, "(%llu * %lld) - (%llu * %lld)",
			 (unsigned long long)p->period, (long long)ctx->w2,
			 (unsigned long long)old, (long long)ctx->w1);
	} else {
		snprintf(buf, size, "(%llu * 100 / %llu) - (%llu * 100 / %llu)",
			 (unsigned long long)p->period,
			 (unsigned long long)ctx->ev_total[c->file],
			 (unsigned long long)old, (unsigned long long)ctx->base_total);
	}
}

/*
 * With -t perf prints the columns through hpp__entry_global() (a buffer
 * of 69 bytes), each padded on the right to its width: the periods and
 * formulas as they are, the baseline share as "%.2f", "%+4.2F%%" deltas,
 * and ratios and weighted diffs only when not zero.
 */
static void sep_cell_text(const struct diff_ctx *ctx, const struct diff_col *c,
			  const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *p = &row[c->file];
	u64 old = period_of(&row[0]);
	int dummy = !row[0].e;

	if (c->kind == COL_BASELINE) {
		if (!dummy)
			snprintf(buf, size, "%.2f", 100.0 * old / ctx->base_total);
		return;
	}
	if (!c->file || !p->e) {
		if (c->kind == COL_PERIOD_BASELINE)
			snprintf(buf, size, "%llu", (unsigned long long)old);
		return;
	}
	switch (c->kind) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+4.2F%%", p->delta);
		break;
	case COL_RATIO:
		if (dummy)
			snprintf(buf, size, "N/A");
		else if (p->ratio > 0.0)
			snprintf(buf, size, "%14.6F", p->ratio);
		break;
	case COL_WDIFF:
		if (dummy)
			snprintf(buf, size, "N/A");
		else if (p->wdiff)
			snprintf(buf, size, "%14lld", (long long)p->wdiff);
		break;
	default:
		formula_period_text(ctx, c, row, buf, size);
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
static int cell_text(const struct diff_ctx *ctx, const struct diff_col *c,
		      const struct diff_cell *row, char *buf, size_t size)
{
	const struct diff_cell *p = &row[c->file];
	u64 old = period_of(&row[0]);
	int dummy = !row[0].e;

	snprintf(buf, size, " ");
	if (ctx->field_sep) {
		sep_cell_text(ctx, c, row, buf, size);
		return 1;
	}
	if (c->kind == COL_BASELINE) {
		if (dummy)
			return 0;
		snprintf(buf, size, "%*.2f%%", c->width - 1, 100.0 * old / ctx->base_total);
		return 1;
	}
	if (!c->file || !p->e) {
		/* the baseline's own columns, and files without the entry */
		if (c->kind == COL_PERIOD_BASELINE)
			snprintf(buf, size, "%llu", (unsigned long long)old);
		return 0;
	}
	switch (c->kind) {
	case COL_DELTA:
	case COL_DELTA_ABS:
		snprintf(buf, size, "%+*.2f%%", c->width - 1, p->delta);
		return 1;
	case COL_RATIO:
		if (dummy) {
			snprintf(buf, size, "N/A");
			return 0;
		}
		snprintf(buf, size, "%*.6f", c->width, p->ratio);
		return 1;
	case COL_WDIFF:
		if (dummy) {
			snprintf(buf, size, "N/A");
			return 0;
		}
		snprintf(buf, size, "%14lld", (long long)p->wdiff);
		return 1;
	default:
		formula_period_text(ctx, c, row, buf, size);
		return 0;
	}
}

/* perf's hists__calc_col_len() over the rows shown: the width of each
 * key column. */
static void key_widths(struct diff_ctx *ctx)
{
	int comm_len = 0, unresolved = 0;

	for (int d = 0; d < HD_NR; d++)
		ctx->key_width[d] = strlen(hist_dim_header(&ctx->lay, d));
	for (u32 r = 0; r < ctx->nr_rows; r++) {
		int file = row_key_file(ctx, r);
		const struct hist_entry *e = ctx->cells[(size_t)r * ctx->nr_files + file].e;
		int len;

		if (e->sym) {
			len = strlen(symbol_name(e->sym)) + 4;
			if (len > ctx->key_width[HD_SYM])
				ctx->key_width[HD_SYM] = len;
		} else {
			unresolved = 1;
		}
		len = strlen(hist_thread_comm(ctx->ev_hists[file], e));
		if (len > comm_len)
			comm_len = len;
		len = e->dso_name ? strlen(hist_string(ctx->strs, e->dso_name)) : 0;
		if (len > ctx->key_width[HD_DSO])
			ctx->key_width[HD_DSO] = len;
	}
	/* an unresolved symbol: "[.] 0x" and 16 digits, and a DSO column as
	   wide as the address unless --dsos was given */
	if (unresolved) {
		if (ctx->key_width[HD_SYM] < 22)
			ctx->key_width[HD_SYM] = 22;
		if (ctx->key_width[HD_DSO] < 16 && !ctx->dsos)
			ctx->key_width[HD_DSO] = 16;
	}
	if (comm_len > ctx->key_width[HD_COMM])
		ctx->key_width[HD_COMM] = comm_len;
	if (comm_len && comm_len + 8 > ctx->key_width[HD_PID])
		ctx->key_width[HD_PID] = comm_len + 8;
}

/* The title lines (with -t only the titles, joined by the separator). */
static void print_titles(const struct diff_ctx *ctx, FILE *out)
{
	const struct hist_layout *lay = &ctx->lay;
	const char *sep = ctx->field_sep ? ctx->field_sep : "  ";

	fputs("# ", out);
	for (int i = 0; i < ctx->nr_cols; i++)
		fprintf(out, "%s%*s", i ? sep : "", ctx->cols[i].width, ctx->cols[i].title);
	for (int i = 0; i < lay->nr_cols; i++) {
		int w = ctx->key_width[lay->cols[i]];

		fprintf(out, "%s%-*.*s", sep, w, w, hist_dim_header(lay, lay->cols[i]));
	}
	putc('\n', out);
	if (ctx->field_sep)
		return;
	fputs("# ", out);
	for (int i = 0; i < ctx->nr_cols + lay->nr_cols; i++) {
		int w = i < ctx->nr_cols ? ctx->cols[i].width :
			ctx->key_width[lay->cols[i - ctx->nr_cols]];

		if (i)
			fputs("  ", out);
		for (int k = 0; k < w; k++)
			putc('.', out);
	}
	fputs("\n#\n", out);
}

/* Prints a key's text; with -t the separator's first character in it
 * becomes '.' (perf's repsep_snprintf()).  Returns its length. */
__attribute__((format(printf, 3, 4)))
static int put_key(const struct diff_ctx *ctx, FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	if (ctx->field_sep)
		for (char *p = text; (p = strchr(p, ctx->field_sep[0])); p++)
			*p = '.';
	fputs(text, out);
	free(text);
	return n;
}

/* The key columns of row r, as "perf report" prints them. */
static void print_keys(const struct diff_ctx *ctx, u32 r, FILE *out)
{
	const struct hist_layout *lay = &ctx->lay;
	int file = row_key_file(ctx, r);
	const struct hist_entry *e = ctx->cells[(size_t)r * ctx->nr_files + file].e;

	for (int i = 0; i < lay->nr_cols; i++) {
		int w = ctx->key_width[lay->cols[i]], last = i == lay->nr_cols - 1;

		fputs(ctx->field_sep ? ctx->field_sep : "  ", out);
		switch (lay->cols[i]) {
		case HD_PID: {
			int cw = (w > 7 ? w : 7) - 8;

			put_key(ctx, out, "%7d:%-*.*s", e->tid, cw, cw,
				hist_thread_comm(ctx->ev_hists[file], e));
			break;
		}
		case HD_COMM:
			put_key(ctx, out, "%-*.*s", w, w, hist_string(ctx->strs, e->comm));
			break;
		case HD_DSO:
			put_key(ctx, out, "%-*.*s", w, w, hist_string(ctx->strs, e->dso_name));
			break;
		case HD_CPU:
			put_key(ctx, out, "%*.*d", w, w, e->cpu);
			break;
		case HD_SYM: {
			int n = fprintf(out, "[%c] ", e->level), room = w - n > 0 ? w - n : 0;

			if (e->sym)
				n += put_key(ctx, out, "%.*s", room, symbol_name(e->sym));
			else
				n += fprintf(out, "%#.16llx", (unsigned long long)e->addr);
			if (!last && n < w)
				fprintf(out, "%*s", w - n, "");
			break;
		}
		default:
			break;
		}
	}
	putc('\n', out);
}

/* Matches, orders and prints the rows of baseline event ev. */
static void print_event(struct diff_ctx *ctx, u32 ev, int first, FILE *out)
{
	struct diff_file *base = &ctx->files[0];
	const struct hists **eh = ctx->ev_hists;
	u32 *rows, *tmp, kept;
	char name[256];

	eh[0] = &base->hists[ev];
	for (int i = 1; i < ctx->nr_files; i++) {
		int m = match_evsel(&ctx->files[i].f, &base->f.evsel[ev]);

		/* a stream's events that came after its first sample have
		   no histogram */
		eh[i] = m < 0 || (u32)m >= ctx->files[i].nr_hists ? NULL : &ctx->files[i].hists[m];
	}
	ctx->nr_rows = 0;
	index_rebuild(ctx);
	/* the totals of the computations: with --percentage relative,
	   of the samples not filtered out */
	for (int i = 0; i < ctx->nr_files; i++)
		if (eh[i])
			ctx->ev_total[i] = !ctx->relative ? eh[i]->total_period :
				ctx->files[i].sample_shown[eh[i] - ctx->files[i].hists];
	/* all entries match, the filtered ones too (a row is shown when the
	   entry that made it is not) */
	for (u32 j = 0; j < eh[0]->nr_entries; j++)
		add_to_row(ctx, 0, &eh[0]->entries[j], 1);
	for (int i = 1; i < ctx->nr_files; i++)
		for (u32 j = 0; eh[i] && j < eh[i]->nr_entries; j++)
			add_to_row(ctx, i, &eh[i]->entries[j], !ctx->baseline_only);
	compute_cells(ctx);
	/*
	 * The Baseline column is a share of the baseline's entries once
	 * merged (with --percentage relative, of those not filtered out: a
	 * merged entry is as its first), as perf sums them again once the
	 * computations are done; with -b, only of those with a match.
	 */
	ctx->base_total = 0;
	for (u32 r = 0; r < ctx->nr_rows; r++) {
		struct diff_cell *c = &ctx->cells[(size_t)r * ctx->nr_files];

		if (c->e && (!ctx->relative || !c->e->filtered) &&
		    (!ctx->baseline_only || has_pairs(ctx, c)))
			ctx->base_total += c->period;
	}
	kept = 0;
	for (u32 r = 0; r < ctx->nr_rows; r++) {
		struct diff_cell *c = &ctx->cells[(size_t)r * ctx->nr_files];

		if (row_key(ctx, r)->filtered || (ctx->baseline_only && !has_pairs(ctx, c)))
			continue;
		memmove(&ctx->cells[(size_t)kept++ * ctx->nr_files], c,
			ctx->nr_files * sizeof(*c));
	}
	ctx->nr_rows = kept;

	rows = xmalloc((ctx->nr_rows ? ctx->nr_rows : 1) * sizeof(*rows));
	tmp = xmalloc((ctx->nr_rows ? ctx->nr_rows : 1) * sizeof(*tmp));
	for (u32 r = 0; r < ctx->nr_rows; r++)
		rows[r] = r;
	sort_rows(ctx, rows, tmp, ctx->nr_rows);

	if (!ctx->quiet) {
		pd_evsel_name(&base->f, &base->f.evsel[ev], name, sizeof(name));
		fprintf(out, "%s# Event '%s'\n#\n", first ? "" : "\n", name);
		if (ctx->nr_files > 2) {
			fputs("# Data files:\n", out);
			for (int i = 0; i < ctx->nr_files; i++)
				fprintf(out, "#  [%d] %s %s\n", i, ctx->files[i].path,
					i ? "" : "(Baseline)");
			fputs("#\n", out);
		}
	}
	key_widths(ctx);
	if (!ctx->quiet)
		print_titles(ctx, out);
	for (u32 j = 0; j < ctx->nr_rows; j++) {
		const struct diff_cell *row = &ctx->cells[(size_t)rows[j] * ctx->nr_files];
		char buf[70];

		if (!ctx->field_sep)
			fputs("  ", out);
		for (int i = 0; i < ctx->nr_cols; i++) {
			int as_is = cell_text(ctx, &ctx->cols[i], row, buf, sizeof(buf));

			if (i)
				fputs(ctx->field_sep ? ctx->field_sep : "  ", out);
			fprintf(out, as_is ? "%-*s" : "%*s", ctx->cols[i].width, buf);
		}
		print_keys(ctx, rows[j], out);
	}
	free(rows);
	free(tmp);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_ctx ctx = { .order = 1, .compute = COMPUTE_DELTA_ABS };
	const struct opt opts[] = {
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN('b', "baseline-only", &ctx.baseline_only,
			    "show only items with match in baseline"),
		OPT_STRING('c', "compute", &ctx.compute_str,
			   "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs)",
			   "entries differential computation selection"),
		OPT_BOOLEAN('p', "period", &ctx.show_period, "show period values"),
		OPT_BOOLEAN(0, "cycles-hist", &ctx.cycles_hist,
			    "show cycles histogram and standard deviation (with -c cycles; not implemented)"),
		OPT_BOOLEAN(0, "stream", &ctx.stream, "enable hot streams comparison (not implemented)"),
		OPT_BOOLEAN('F', "formula", &ctx.show_formula, "show formula"),
		OPT_BOOLEAN('f', "force", &ctx.force, "don't complain, do it"),
		OPT_STRING('s', "sort", &ctx.sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, cpu"),
		OPT_STRING('t', "field-separator", &ctx.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns "
			   "('.' is reserved)"),
		OPT_INTEGER('o', "order", &ctx.order, "specify compute sorting (the file sorted on first)"),
		OPT_STRING(0, "percentage", &ctx.percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_STRING('d', "dsos", &ctx.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &ctx.comms, "comm[,comm...]", "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &ctx.symbols, "symbol[,symbol...]", "only consider these symbols"),
		OPT_STRING(0, "pid", &ctx.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &ctx.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING(0, "cpu", &ctx.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &ctx.time_str, "str",
			   "time span (time percent or absolute timestamp; a:b per file)"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx.symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_END(),
	};
	int nr, ret = 0;

	nr = opt_parse(argc, argv, opts, diff_usage, 0);
	if (ctx.quiet)
		error_set_quiet(1);
	if (ctx.compute_str && parse_compute(&ctx))
		return 129;
	if (ctx.field_sep && !*ctx.field_sep)
		ctx.field_sep = NULL;	/* perf ignores an empty one */
	if (ctx.field_sep && ctx.field_sep[0] == '.')
		return error("'.' is the only non valid --field-separator argument"), 255;
	if (ctx.cycles_hist && ctx.compute != COMPUTE_CYCLES)
		opt_usage_error(diff_usage, opts, "--cycles-hist needs -c cycles");
	if (ctx.percentage) {
		if (strcmp(ctx.percentage, "relative") && strcmp(ctx.percentage, "absolute"))
			opt_usage_error(diff_usage, opts, "invalid --percentage '%s': "
					"use relative or absolute", ctx.percentage);
		ctx.relative = !strcmp(ctx.percentage, "relative");
	}
	if (hist_layout_parse(&ctx.lay, ctx.sort_order ? ctx.sort_order : "dso,sym",
			      NULL, 0, 0, 0))
		return 129;
	ctx.nr_files = nr < 2 ? 2 : nr;
	if (ctx.order < 0 || ctx.order >= ctx.nr_files)
		return error("order option out of limit"), 255;
	if (ctx.compute == COMPUTE_CYCLES || ctx.stream)
		return error("-c cycles and --stream (branch stacks) are not implemented"), 255;
	ctx.files = xcalloc(ctx.nr_files, sizeof(*ctx.files));
	ctx.files[0].path = nr >= 2 ? argv[0] : "perf.data.old";
	ctx.files[1].path = nr >= 2 ? argv[1] : nr == 1 ? argv[0] : "perf.data";
	for (int i = 2; i < nr; i++)
		ctx.files[i].path = argv[i];

	/* perf diff shows no overhead column: the keys only */
	ctx.lay.nr_cols = 0;
	for (int i = 0; i < ctx.lay.nr_sort; i++)
		if (ctx.lay.sort[i] >= HD_PID)
			ctx.lay.cols[ctx.lay.nr_cols++] = ctx.lay.sort[i];
	ctx.strs = hist_strings_new();
	setup_cols(&ctx);
	ctx.time_left = ctx.time_str;
	ret = setup_filters(&ctx);
	/* the hidden columns go */
	nr = 0;
	for (int i = 0; i < ctx.lay.nr_cols; i++)
		if (!(ctx.lay.elide_mask & (1u << ctx.lay.cols[i])))
			ctx.lay.cols[nr++] = ctx.lay.cols[i];
	ctx.lay.nr_cols = nr;

	for (int i = 0; i < ctx.nr_files && !ret; i++)
		ret = read_file(&ctx, &ctx.files[i]);
	if (!ret) {
		ctx.ev_hists = xcalloc(ctx.nr_files, sizeof(*ctx.ev_hists));
		ctx.ev_total = xcalloc(ctx.nr_files, sizeof(*ctx.ev_total));
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		pager_start();
		for (u32 ev = 0; ev < ctx.files[0].nr_hists; ev++)
			print_event(&ctx, ev, ev == 0, stdout);
		fflush(stdout);
	}

	for (int i = 0; i < ctx.nr_files; i++) {
		struct diff_file *df = &ctx.files[i];

		for (u32 j = 0; j < df->nr_hists; j++)
			hists_release(&df->hists[j]);
		free(df->hists);
		free(df->sample_shown);
		engine_free(df->eng);
		free(df->time_ranges);
		free(df->cpu_bitmap);
		if (df->opened)
			pd_close(&df->f);
	}
	free(ctx.files);
	hist_filters_free(&ctx.filters);
	free(ctx.ev_hists);
	free(ctx.ev_total);
	free(ctx.cols);
	free(ctx.cells);
	free(ctx.index);
	hist_strings_free(ctx.strs);
	/* perf diff exits with its -1, or -EINVAL for a bad --time */
	return ret == -EINVAL ? 256 - EINVAL : ret ? 255 : 0;
}
