/*
 * diff.c - "prof diff": compares the flat profiles of two or more
 * perf.data files as "perf diff" (perf 6.1) does, in its exact layout.
 *
 * Each file is read through the engine's sample stream into one flat
 * histogram per event, built as "prof report --no-children -g none"
 * builds them, with its own --time and --cpu.  Then, for every event of
 * the baseline (the first file), analysis/diff.c matches the entries of
 * the files, computes and orders the rows, and output/diff_stdio.c
 * prints them.
 *
 * Invariants: all histograms share one layout and one hist_strings (the
 * matching compares comm and DSO names as ids); nothing changes the
 * histograms after hists_finish().
 */
#include "cmds.h"
#include "../engine/engine.h"
#include "../analysis/diff.h"
#include "../analysis/filters.h"
#include "../analysis/hist.h"
#include "../format/evname.h"
#include "../format/feature.h"
#include "../format/reader.h"
#include "../output/diff_stdio.h"
#include "../session/session.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/pager.h"
#include "../util/timerange.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct diff_ctx {
	/* options */
	const char *compute_str;	/* -c */
	int stream;			/* --stream */
	int cycles_hist;		/* --cycles-hist */
	int force;			/* -f */
	const char *sort_order;		/* -s */
	const char *percentage;		/* --percentage */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	const char *dsos, *comms, *symbols;	/* -d, -C, -S */
	const char *pids, *tids;	/* --pid, --tid */
	const char *cpus;		/* --cpu */
	const char *time_str;		/* --time */

	struct diff_rows rows;		/* the matching and computing (-c, -o,
					   -b, --percentage) */
	struct diff_stdio out;		/* the printing (-p, -F, -q, -t) */
	struct hist_filters filters;
	const char *time_left;		/* --time with ':': the files' parts
					   not taken yet */
	struct hist_layout lay;
	struct hist_strings *strs;
	struct diff_file *files;
	const char **paths;		/* the files' */
	int nr_files;

	/* per event, while it is printed: per file */
	const struct hists **ev_hists;	/* NULL: no such event */
	u64 *ev_shown;			/* its sample_shown */
};

static const char *const diff_usage[] = {
	"prof diff [<options>] [old_file] [new_file]",
	"prof diff [<options>] base_file new_file [new_file...]",
	NULL,
};

/* ---- options -------------------------------------------------------------- */

/*
 * Parses the options and checks them as perf does; *nr: the number of
 * file arguments, left at the start of argv.  Returns 0, or the exit
 * status of an error.
 */
static int parse_options(struct diff_ctx *ctx, int argc, char **argv, int *nr)
{
	const struct opt opts[] = {
		OPT_BOOLEAN('q', "quiet", &ctx->out.quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN('b', "baseline-only", &ctx->rows.baseline_only,
			    "show only items with match in baseline"),
		OPT_STRING('c', "compute", &ctx->compute_str,
			   "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs)",
			   "entries differential computation selection"),
		OPT_BOOLEAN('p', "period", &ctx->out.show_period, "show period values"),
		OPT_BOOLEAN(0, "cycles-hist", &ctx->cycles_hist,
			    "show cycles histogram and standard deviation (with -c cycles; not implemented)"),
		OPT_BOOLEAN(0, "stream", &ctx->stream, "enable hot streams comparison (not implemented)"),
		OPT_BOOLEAN('F', "formula", &ctx->out.show_formula, "show formula"),
		OPT_BOOLEAN('f', "force", &ctx->force, "don't complain, do it"),
		OPT_STRING('s', "sort", &ctx->sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, cpu"),
		OPT_STRING('t', "field-separator", &ctx->out.field_sep, "separator",
			   "separator for columns, no spaces will be added between columns "
			   "('.' is reserved)"),
		OPT_INTEGER('o', "order", &ctx->rows.order,
			    "specify compute sorting (the file sorted on first)"),
		OPT_STRING(0, "percentage", &ctx->percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_STRING('d', "dsos", &ctx->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('C', "comms", &ctx->comms, "comm[,comm...]", "only consider symbols in these comms"),
		OPT_STRING('S', "symbols", &ctx->symbols, "symbol[,symbol...]", "only consider these symbols"),
		OPT_STRING(0, "pid", &ctx->pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &ctx->tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING(0, "cpu", &ctx->cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &ctx->time_str, "str",
			   "time span (time percent or absolute timestamp; a:b per file)"),
		OPT_STRING('k', "vmlinux", &ctx->vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx->symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_END(),
	};

	*nr = opt_parse(argc, argv, opts, diff_usage, 0);
	if (ctx->out.quiet)
		error_set_quiet(1);
	if (ctx->compute_str && diff_compute_parse(&ctx->rows, ctx->compute_str))
		return 129;
	if (ctx->out.field_sep && !*ctx->out.field_sep)
		ctx->out.field_sep = NULL;	/* perf ignores an empty one */
	if (ctx->out.field_sep && ctx->out.field_sep[0] == '.')
		return error("'.' is the only non valid --field-separator argument"), 255;
	if (ctx->cycles_hist && ctx->rows.compute != DIFF_COMPUTE_CYCLES)
		opt_usage_error(diff_usage, opts, "--cycles-hist needs -c cycles");
	if (ctx->percentage) {
		if (strcmp(ctx->percentage, "relative") && strcmp(ctx->percentage, "absolute"))
			opt_usage_error(diff_usage, opts, "invalid --percentage '%s': "
					"use relative or absolute", ctx->percentage);
		ctx->rows.relative = !strcmp(ctx->percentage, "relative");
	}
	if (hist_layout_parse(&ctx->lay, ctx->sort_order ? ctx->sort_order : "dso,sym",
			      NULL, 0, 0, 0))
		return 129;
	if (ctx->lay.key_mask & (1u << HD_TRACE)) {
		error("--sort key 'trace' is not supported by prof diff yet");
		return 129;
	}
	ctx->nr_files = *nr < 2 ? 2 : *nr;
	if (ctx->rows.order < 0 || ctx->rows.order >= ctx->nr_files)
		return error("order option out of limit"), 255;
	if (ctx->rows.compute == DIFF_COMPUTE_CYCLES || ctx->stream)
		return error("-c cycles and --stream (branch stacks) are not implemented"), 255;
	return 0;
}

/* The files, named by the nr arguments at argv (perf.data.old and
 * perf.data when not given), the rows and the columns. */
static void setup_files(struct diff_ctx *ctx, char **argv, int nr)
{
	ctx->files = xcalloc(ctx->nr_files, sizeof(*ctx->files));
	ctx->paths = xcalloc(ctx->nr_files, sizeof(*ctx->paths));
	ctx->paths[0] = nr >= 2 ? argv[0] : "perf.data.old";
	ctx->paths[1] = nr >= 2 ? argv[1] : nr == 1 ? argv[0] : "perf.data";
	for (int i = 2; i < nr; i++)
		ctx->paths[i] = argv[i];
	for (int i = 0; i < ctx->nr_files; i++)
		ctx->files[i].path = ctx->paths[i];
	ctx->strs = hist_strings_new();
	diff_rows_init(&ctx->rows, &ctx->lay, ctx->strs, ctx->nr_files);
	ctx->out.dso_list_given = ctx->dsos != NULL;
	diff_stdio_init(&ctx->out, ctx->nr_files, ctx->rows.compute);
	ctx->time_left = ctx->time_str;
}

/*
 * The layout's columns: perf diff shows no overhead column, the keys
 * only, less those a one-item filter list hides (perf's
 * sort__setup_elide()); and the filters of -d, -C, -S, --pid and --tid.
 * Returns 0 or -1.
 */
static int setup_layout(struct diff_ctx *ctx)
{
	const struct filter_args fa = { ctx->comms, ctx->dsos, ctx->symbols, ctx->pids, ctx->tids };
	struct hist_layout *lay = &ctx->lay;
	struct filter_counts nr;
	int n = 0, ret;

	lay->nr_cols = 0;
	for (int i = 0; i < lay->nr_sort; i++)
		if (lay->sort[i] >= HD_PID)
			lay->cols[lay->nr_cols++] = lay->sort[i];
	ret = hist_filters_parse(&ctx->filters, &fa, &nr);
	if (!ret)
		hist_layout_elide(lay, nr.comms == 1, nr.dsos == 1, nr.symbols == 1);
	for (int i = 0; i < lay->nr_cols; i++)
		if (!(lay->elide_mask & (1u << lay->cols[i])))
			lay->cols[n++] = lay->cols[i];
	lay->nr_cols = n;
	return ret;
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

/* ---- printing -------------------------------------------------------------- */

/* Matches, orders and prints the rows of baseline event ev. */
static void print_event(struct diff_ctx *ctx, u32 ev, FILE *out)
{
	const struct diff_file *base = &ctx->files[0];
	char name[256];

	ctx->ev_hists[0] = &base->hists[ev];
	ctx->ev_shown[0] = base->sample_shown[ev];
	for (int i = 1; i < ctx->nr_files; i++) {
		const struct diff_file *df = &ctx->files[i];
		int m = diff_match_evsel(&df->f, &base->f.evsel[ev]);

		/* a stream's events that came after its first sample have
		   no histogram */
		ctx->ev_hists[i] = m < 0 || (u32)m >= df->nr_hists ? NULL : &df->hists[m];
		ctx->ev_shown[i] = ctx->ev_hists[i] ? df->sample_shown[m] : 0;
	}
	diff_rows_event(&ctx->rows, ctx->ev_hists, ctx->ev_shown);
	pd_evsel_name(&base->f, &base->f.evsel[ev], name, sizeof(name));
	diff_stdio_event(&ctx->out, &ctx->rows, name, ctx->paths, ev == 0, out);
}

/* Every event of the baseline, through the pager. */
static void print_events(struct diff_ctx *ctx)
{
	ctx->ev_hists = xcalloc(ctx->nr_files, sizeof(*ctx->ev_hists));
	ctx->ev_shown = xcalloc(ctx->nr_files, sizeof(*ctx->ev_shown));
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	pager_start();
	for (u32 ev = 0; ev < ctx->files[0].nr_hists; ev++)
		print_event(ctx, ev, stdout);
	fflush(stdout);
}

static void free_ctx(struct diff_ctx *ctx)
{
	for (int i = 0; i < ctx->nr_files; i++) {
		struct diff_file *df = &ctx->files[i];

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
	free(ctx->files);
	free(ctx->paths);
	hist_filters_free(&ctx->filters);
	free(ctx->ev_hists);
	free(ctx->ev_shown);
	diff_rows_free(&ctx->rows);
	diff_stdio_free(&ctx->out);
	hist_strings_free(ctx->strs);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_ctx ctx = { .rows = { .order = 1, .compute = DIFF_COMPUTE_DELTA_ABS } };
	int nr, ret;

	ret = parse_options(&ctx, argc, argv, &nr);
	if (ret)
		return ret;
	setup_files(&ctx, argv, nr);
	ret = setup_layout(&ctx);
	for (int i = 0; i < ctx.nr_files && !ret; i++)
		ret = read_file(&ctx, &ctx.files[i]);
	if (!ret)
		print_events(&ctx);
	free_ctx(&ctx);
	/* perf diff exits with its -1, or -EINVAL for a bad --time */
	return ret == -EINVAL ? 256 - EINVAL : ret ? 255 : 0;
}
