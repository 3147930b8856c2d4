/*
 * report.c - "prof report": reads a perf.data file and prints its profile
 * with call graphs when the file has call chains (the default, as "perf
 * report --stdio"), its header (--header-only), its record counts
 * (--stats, with call-chain statistics after perf's counts when the file
 * has call chains, unless -g none) or every record (-D).
 *
 * The flat report applies perf's rules for what the file's events allow
 * (call graphs, children mode, -C), sets the layout and the filters, has
 * the report engine (src/engine/) turn the file into one histogram per
 * event and prints one section per event that has samples.  Output goes
 * through a pager when stdout is a terminal; the engine draws a progress
 * line on stderr when it is a terminal and the work takes more than about
 * a second.
 */
#include "cmds.h"
#include "../analysis/branch_hist.h"
#include "../analysis/chainstats.h"
#include "../analysis/filters.h"
#include "../analysis/hist.h"
#include "../engine/engine.h"
#include "../event/trace_format.h"
#include "../format/evname.h"
#include "../format/feature.h"
#include "../format/reader.h"
#include "../output/branch_stdio.h"
#include "../output/dump.h"
#include "../output/header.h"
#include "../output/report_stdio.h"
#include "../output/stats.h"
#include "../session/session.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/sysctl.h"
#include "../util/pager.h"
#include "../util/progress.h"
#include "../util/timerange.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_STACK 127	/* perf's PERF_MAX_STACK_DEPTH, the default --max-stack
			   when /proc/sys/kernel/perf_event_max_stack says none */

struct report_ctx {
	const char *input;	/* -i: file name, "-" for stdin */
	int stats;		/* --stats */
	int header;		/* --header: header block, then the report */
	int header_only;	/* --header-only */
	int show_info;		/* -I: full header sections */
	int dump;		/* -D */
	int quiet;		/* -q */
	int force;		/* -f: do not check ownership */
	int stdio;		/* --stdio (the only interface) */
	int verbose;		/* -v */
	int header_printed;	/* pipe mode: header block already printed */

	/* flat report options */
	const char *sort_order;		/* -s */
	struct trace_formats *trace_formats;	/* the "trace" key's formats */
	struct trace_event **trace_events;	/* and each event's, by index */
	const char *field_order;	/* -F */
	int show_nr_samples;		/* -n */
	int show_total_period;		/* --show-total-period */
	const char *percent_limit;	/* --percent-limit */
	const char *percentage;		/* --percentage relative|absolute */
	const char *comms, *dsos, *symbols;	/* -c, -d, -S */
	const char *pids, *tids;	/* --pid, --tid */
	const char *cpus;		/* -C */
	const char *time_str;		/* --time */
	int children_opt;		/* --children: 1, --no-children: 0, else -1 */
	int group_opt;			/* --group: 1, --no-group: 0, else -1 */
	struct callchain_param cg;	/* -g (and --percent-limit's threshold) */
	int cg_given;			/* -g was used */
	int inverted;			/* -G */
	int max_stack;			/* --max-stack */
	int inline_frames;		/* --inline (perf's default): unwound
					   addresses get their inlined
					   functions (session_inlines()) */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	int threads;			/* --threads: 1 keeps to one thread */
	int branch_opt;			/* -b: 1, --no-branch-stack: 0, else -1 */

	/* processing state */
	struct engine_config ecfg;	/* what the engine reads with */
	int exit_status;		/* of a report that ended early */
	struct hist_layout lay;
	struct report_stdio_opts so;
	struct hist_filters filters;
	struct time_range *time_ranges;	/* --time, nr_time_ranges of them */
	int nr_time_ranges;		/* 0: no --time */
	unsigned char *cpu_bitmap;	/* NULL: all CPUs */
	int children;			/* children mode (cumulated call chains) */
	int resolve_flags;		/* SESSION_NO_SYMBOL when no key, column
					   or filter names a symbol */

	/* --stats on a file with call chains */
	struct chainstats *chainstats;

	/* branch mode */
	struct branch_layout blay;
	struct branch_hist *bhists;	/* one per event */
	struct branch_resolver bres;
	struct hist_strings *bstrs;	/* for the filters */
	int filtering;			/* a filter was given */
	const struct pd_file *bfile;	/* the file read */
	struct branch_type_stat brtypes;	/* of every branch added */
};

static const char *const report_usage[] = {
	"prof report [<options>]",
	NULL,
};

/* In a stream the features arrive as records: print the header block at
 * the first record that is not part of the stream's header. */
static int header_from_stream(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct report_ctx *ctx = vctx;
	u32 type = ev->hdr->type;

	if (type == PD_REC_HEADER_ATTR || type == PD_REC_HEADER_FEATURE ||
	    type == PD_REC_HEADER_TRACING_DATA)
		return 0;
	if (header_print(f, stdout, ctx->show_info))
		return -1;
	ctx->header_printed = 1;
	return 1;	/* stop */
}

/* --stats decodes every record as a report would, so malformed samples are
 * found and the cost is that of real processing. */
static int decode_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct pd_sample sample;
	struct pd_id_trailer trailer;

	if (!ev->evsel)
		return 0;
	if (ev->hdr->type == PD_REC_SAMPLE)
		return pd_parse_sample(f, ev->evsel, ev->hdr, ev->file_offset, &sample);
	return pd_parse_trailer(f, ev->evsel, ev->hdr, &trailer);
}

/* ---- option values -------------------------------------------------------- */

/* The smallest item of a one-item list (perf names it in "# comm: x"). */
static const char *single_item(const char *const *list, int nr)
{
	return list && nr == 1 ? list[0] : NULL;
}

/* ---- --time ------------------------------------------------------------------ */

/* --time: fills ctx->time_ranges (perf's percent slices need the file's
 * first and last sample times).  Returns 0, or -EINVAL after an error
 * message (perf exits with its -EINVAL for a bad --time). */
static int parse_time(struct report_ctx *ctx, struct pd_file *f)
{
	const char *s = ctx->time_str;
	struct pd_feat_env env;

	memset(&env, 0, sizeof(env));
	if (strchr(s, '%')) {
		pd_feature_decode(f, PD_FEAT_SAMPLE_TIME, &env);
		if (!env.first_sample_time && !env.last_sample_time) {
			error("--time: %s has no first/last sample time (HEADER_SAMPLE_TIME): "
			      "percentages need a file recorded by a newer perf "
			      "(with --timestamp-boundary if --buildid-all was used)", f->path);
			return -EINVAL;
		}
	}
	ctx->nr_time_ranges = time_ranges_parse(s, env.first_sample_time, env.last_sample_time,
						&ctx->time_ranges);
	if (ctx->nr_time_ranges < 0) {
		ctx->nr_time_ranges = 0;
		error("invalid time string '%s'", s);
		return -EINVAL;
	}
	return 0;
}

/*
 * -C: the CPU list parsed into ctx->cpu_bitmap.  Returns -1 on a bad list,
 * 1 when perf gives up after its preamble (a file without CPU numbers, or
 * a CPU out of the recording machine's range; the error printed), 0 to go
 * on.
 */
static int cpu_filter_setup(struct report_ctx *ctx, struct pd_file *f, u64 sample_type)
{
	if (!(sample_type & PD_SAMPLE_CPU)) {
		error("file does not contain CPU events: remove -C to proceed");
		return 1;
	}
	switch (cpu_list_parse(ctx->cpus, &ctx->cpu_bitmap, pd_feature_nr_cpus(f, CPU_LIST_MAX))) {
	case 0:
		return 0;
	case -1:
		return -1;
	default:	/* a CPU out of the recording machine's range */
		return 1;
	}
}

/*
 * The engine's configure hook: what the flat report decides once the
 * events are known (a stream's: at the first record after them): what
 * their sample types allow (perf's rules for call graphs, children mode
 * and -C), the layout, the filters, then the engine's configuration.
 * Returns 0 to go on, 1 when the report is already over (perf gives up
 * after printing its preamble), -1 on error.
 */
static int report_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	struct report_ctx *ctx = arg;
	struct hist_layout *lay = &ctx->lay;
	struct report_stdio_opts *so = &ctx->so;
	u64 sample_type = 0;
	const struct filter_args fa = { ctx->comms, ctx->dsos, ctx->symbols, ctx->pids, ctx->tids };
	struct filter_counts nr;
	int callchain;
	const char *sort_order;

	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	callchain = !!(sample_type & PD_SAMPLE_CALLCHAIN);
	/* perf decides before it reads a stream's events: as for a file
	   without call chains, but the graph stays on (for whatever chains
	   come) and the order is the caller's, children mode's default */
	if (f->pipe_mode) {
		if (!ctx->cg_given)
			ctx->cg.enabled = 1;
		ctx->children = 0;
		if (ctx->inverted || (ctx->children_opt != 0 && !ctx->cg.order_set))
			ctx->cg.order = CC_CALLER;
	} else {
		if (ctx->cg_given && ctx->cg.enabled && !callchain)
			return error("selected -g but the file has no callchains "
				     "(was it recorded without -g?)");
		/* perf shows the graph of a file with call chains unless -g none */
		if (callchain && !ctx->cg_given)
			ctx->cg.enabled = 1;
		if (!callchain)
			ctx->cg.enabled = 0;
		/* perf's default with call chains is children mode */
		ctx->children = callchain && ctx->children_opt != 0;
		/* -G, and children mode without an order given, walk from the caller */
		if (ctx->inverted || (ctx->children && !ctx->cg.order_set))
			ctx->cg.order = CC_CALLER;
	}
	if (ctx->max_stack < 0)
		ctx->max_stack = 0;

	/* perf's default sort of a file of tracepoints only (a stream's
	   events are not known when perf sorts) */
	sort_order = ctx->sort_order;
	for (u32 i = 0; !sort_order && !f->pipe_mode && i < f->nr_evsel; i++)
		if (f->evsel[i].attr.type != PD_TYPE_TRACEPOINT)
			break;
		else if (i == f->nr_evsel - 1)
			sort_order = "trace";
	if (hist_layout_parse(lay, sort_order, ctx->field_order,
			      ctx->show_nr_samples, ctx->show_total_period,
			      ctx->children))
		return -1;
	if (!(lay->key_mask & (1u << HD_SYM)) && !ctx->symbols && !ctx->cg.enabled)
		ctx->resolve_flags = SESSION_NO_SYMBOL;
	if (ctx->percentage && strcmp(ctx->percentage, "relative") &&
	    strcmp(ctx->percentage, "absolute"))
		return error("invalid --percentage '%s': use relative or absolute",
			     ctx->percentage);
	so->quiet = ctx->quiet;
	so->header_hint = !ctx->header;
	if (ctx->time_str && parse_time(ctx, f)) {
		/* perf has printed its header hint by then */
		report_stdio_begin(stdout, lay, so, 0);
		ctx->exit_status = -EINVAL;
		return 1;
	}
	if (hist_filters_parse(&ctx->filters, &fa, &nr))
		return -1;

	so->relative = ctx->percentage && !strcmp(ctx->percentage, "relative");
	so->min_percent = ctx->percent_limit ? strtof(ctx->percent_limit, NULL) : 0;
	so->time_str = ctx->time_str;
	if (ctx->cg.enabled) {
		so->callgraph = &ctx->cg;
		so->callgraph_skip_first = !ctx->field_order && ctx->sort_order &&
					   !strncmp(ctx->sort_order, "sym", 3);
	}
	so->elide_comm = single_item(ctx->filters.comms, nr.comms);
	so->elide_dso = single_item(ctx->filters.dsos, nr.dsos);
	so->elide_sym = single_item(ctx->filters.symbols, nr.symbols);
	hist_layout_elide(lay, !!so->elide_comm, !!so->elide_dso, !!so->elide_sym);

	if (ctx->cpus) {
		int r = cpu_filter_setup(ctx, f, sample_type);

		if (r < 0)
			return -1;
		if (r > 0) {
			/* perf gives up after its preamble, and exits 0 */
			pager_start();
			report_stdio_begin(stdout, lay, so, 0);
			return 1;
		}
	}

	cfg->lay = lay;
	cfg->filters = &ctx->filters;
	cfg->cg = ctx->cg;
	cfg->children = ctx->children;
	cfg->max_stack = ctx->max_stack;
	cfg->inline_frames = ctx->inline_frames;
	cfg->resolve_flags = ctx->resolve_flags;
	cfg->time_ranges = ctx->time_ranges;
	cfg->nr_time_ranges = ctx->nr_time_ranges;
	cfg->cpu_bitmap = ctx->cpu_bitmap;
	if ((lay->key_mask & (1u << HD_TRACE)) &&
	    f->feat_data[PD_FEAT_TRACING_DATA]) {
		ctx->trace_formats = trace_formats_parse(f->feat_data[PD_FEAT_TRACING_DATA],
							 f->feat_size[PD_FEAT_TRACING_DATA], f->path);
		ctx->trace_events = xcalloc(f->nr_evsel ? f->nr_evsel : 1,
					    sizeof(*ctx->trace_events));
		for (u32 i = 0; ctx->trace_formats && i < f->nr_evsel; i++)
			if (f->evsel[i].attr.type == PD_TYPE_TRACEPOINT)
				ctx->trace_events[i] = trace_formats_event(ctx->trace_formats,
									   f->evsel[i].attr.config);
		cfg->trace_formats = ctx->trace_formats;
		cfg->trace_events = ctx->trace_events;
	}
	return 0;
}

/*
 * perf's perf_session__warn_about_errors(), the parts a report can meet:
 * LOST records, and more than 5% of the samples lost (LOST_SAMPLES).
 */
static void warn_lost(const struct report_ctx *ctx, const struct pd_file *f)
{
	const struct pd_stats *st = &f->stats;
	u64 samples = st->nr_by_type[PD_REC_SAMPLE] + st->total_lost_samples;

	if (ctx->quiet)
		return;
	if (st->nr_by_type[PD_REC_LOST])
		fprintf(stderr, "Warning:\nProcessed %d events and lost %d chunks!\n\n"
			"Check IO/CPU overload!\n\n", (int)st->nr_events,
			(int)st->nr_by_type[PD_REC_LOST]);
	if (samples && (double)st->total_lost_samples / samples > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)samples, 100.0 * st->total_lost_samples / samples);
}

/* The file's events as perf's report groups them. */
struct event_groups {
	int shown;		/* perf's symbol_conf.event_group */
	int forced;		/* --group on a file without groups: all in one,
				   named without "anon group { }" */
	u32 *leader;		/* evsel -> its leader's index */
	u32 *nr_members;	/* evsel -> events in its group (a leader's), 0
				   for a member and an event of no group */
	const char **name;	/* a leader's group name, NULL: anonymous */
};

/* The groups of GROUP_DESC (a stream's HEADER_FEATURE too), shown
 * together unless --no-group; --group or --no-group on a file without any
 * puts all its events in one (perf's evlist__force_leader(), whose leader
 * then says "events" even in sections of their own). */
static void event_groups(const struct report_ctx *ctx, struct pd_file *f, struct event_groups *g)
{
	u32 n = f->nr_evsel, nr_groups = 0;
	struct pd_feat_env env;

	g->leader = xcalloc(n ? n : 1, sizeof(u32));
	g->nr_members = xcalloc(n ? n : 1, sizeof(u32));
	g->name = xcalloc(n ? n : 1, sizeof(char *));
	g->forced = 0;
	pd_feature_env_init(f, &env);
	if (pd_has_feature(f, PD_FEAT_GROUP_DESC) && pd_feature_decode(f, PD_FEAT_GROUP_DESC, &env))
		pd_feature_env_init(f, &env);	/* perf reads on without groups */
	for (u32 i = 0; i < n; i++) {
		if (env.group_leader_is_self[i] || !i) {
			g->leader[i] = i;
			g->nr_members[i] = env.group_nr_members[i];
			g->name[i] = env.group_name[i];
			nr_groups += g->nr_members[i] > 1;
		} else {
			g->leader[i] = g->leader[i - 1];
		}
	}
	if (!nr_groups && ctx->group_opt != -1 && n) {
		g->forced = 1;
		for (u32 i = 0; i < n; i++) {
			g->leader[i] = 0;
			g->nr_members[i] = 0;
		}
		g->nr_members[0] = n;
	}
	g->shown = ctx->group_opt == 1 || (ctx->group_opt == -1 && nr_groups);
}

static void event_groups_free(struct event_groups *g)
{
	free(g->leader);
	free(g->nr_members);
	free(g->name);
}

/* perf's evsel__group_desc(): "anon group { a, b }", or "a, b" forced. */
static void group_desc(const struct pd_file *f, const struct event_groups *g, u32 leader,
		       char *buf, size_t size)
{
	size_t len = 0;

	assert(size > 0);
	buf[0] = 0;
	if (!g->forced)
		len += snprintf(buf + len, size - len, "%s { ",
				g->name[leader] ? g->name[leader] : "anon group");
	for (u32 i = leader; i < leader + g->nr_members[leader] && len < size; i++) {
		char name[256];

		pd_evsel_name(f, &f->evsel[i], name, sizeof(name));
		len += snprintf(buf + len, size - len, "%s%s", i > leader ? ", " : "", name);
	}
	if (!g->forced && len < size)
		snprintf(buf + len, size - len, " }");
}

/* The flat report: the engine's histograms, printed. */
static int flat_report(struct report_ctx *ctx, struct pd_file *f)
{
	struct engine_config *cfg = &ctx->ecfg;
	struct engine *eng;
	struct hists *hists;
	struct event_groups groups = { 0 };
	u64 nr_entries = 0;
	u32 nr_hists;
	int ret;

	cfg->sopts = (struct session_opts){ .vmlinux = ctx->vmlinux, .symfs = ctx->symfs };
	cfg->threads = ctx->threads;
	cfg->progress = !ctx->quiet && isatty(2);
	eng = engine_new(cfg, report_configure, ctx);
	ret = engine_run(eng, f);
	if (ret)
		goto out;
	warn_lost(ctx, f);
	/* the rows are formatted on one thread when the engine keeps to one */
	ctx->so.one_thread = engine_one_thread(eng);

	pager_start();
	hists = engine_hists(eng, &nr_hists);
	for (u32 i = 0; i < nr_hists; i++) {
		hists_finish(&hists[i], ctx->dsos != NULL);
		nr_entries += hists[i].nr_entries;
	}
	event_groups(ctx, f, &groups);
	for (u32 i = 0; groups.shown && i < nr_hists; i++) {
		u32 nr = groups.nr_members[i];
		struct hists **members;

		if (nr < 2 || i + nr > nr_hists)
			continue;
		members = xmalloc((nr - 1) * sizeof(*members));
		for (u32 m = 0; m < nr - 1; m++)
			members[m] = &hists[i + 1 + m];
		hists_group_link(&hists[i], members, nr - 1, ctx->dsos != NULL);
		free(members);
	}
	if (!nr_entries) {
		report_stdio_begin(stdout, &ctx->lay, &ctx->so, 0);
		error("the %s data has no samples", f->path);
		goto out;
	}
	ctx->so.total_lost_samples = f->stats.total_lost_samples;
	report_stdio_begin(stdout, &ctx->lay, &ctx->so, 1);
	for (u32 i = 0; i < nr_hists; i++) {
		char name[1024];

		/* a group's members are in its leader's section */
		if (!hists[i].nr_samples || (groups.shown && groups.leader[i] != i))
			continue;
		if (hists[i].group_nr)
			group_desc(f, &groups, i, name, sizeof(name));
		else
			pd_evsel_name(f, &f->evsel[i], name, sizeof(name));
		report_stdio_hists(stdout, &hists[i], name, groups.nr_members[i] > 1, &ctx->so);
	}
	report_stdio_end(stdout, &ctx->so);
out:
	event_groups_free(&groups);
	engine_free(eng);
	hist_filters_free(&ctx->filters);
	free(ctx->cpu_bitmap);
	free(ctx->time_ranges);
	free(ctx->trace_events);
	trace_formats_free(ctx->trace_formats);
	if (ret < 0)
		return ret;
	return ctx->exit_status;
}

/* ---- branch mode -------------------------------------------------------- */

/*
 * perf's branch mode rule (cmd_report()): the default on a file whose
 * header has HEADER_BRANCH_STACK (not a stream: perf decides before it
 * reads one, and not with user stacks), -b forces it, --no-branch-stack
 * turns it off.
 */
static int branch_mode(const struct report_ctx *ctx, const struct pd_file *f)
{
	u64 sample_type = 0;
	int has;

	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	has = !f->pipe_mode && pd_has_feature(f, PD_FEAT_BRANCH_STACK) &&
	      !(sample_type & PD_SAMPLE_STACK_USER);
	return ctx->branch_opt == 1 || (ctx->branch_opt == -1 && has);
}

/* Branch mode's configure hook: the time and CPU filters, the sample
 * filters, the histograms. */
static int branch_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	struct report_ctx *ctx = arg;
	const struct filter_args fa = { ctx->comms, ctx->dsos, ctx->symbols, ctx->pids, ctx->tids };
	struct report_stdio_opts *so = &ctx->so;
	u64 sample_type = 0;

	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	if (!f->pipe_mode && !(sample_type & PD_SAMPLE_BRANCH_STACK))
		return error("selected -b but no branch data: was the file recorded without -b?");
	if (branch_layout_parse(&ctx->blay, ctx->sort_order, ctx->show_nr_samples,
				ctx->show_total_period))
		return -1;
	if (ctx->field_order)
		return error("--fields is not supported in branch mode yet "
			     "(--no-branch-stack gives the ordinary report)");
	if (ctx->percentage && strcmp(ctx->percentage, "relative") &&
	    strcmp(ctx->percentage, "absolute"))
		return error("invalid --percentage '%s': use relative or absolute",
			     ctx->percentage);
	so->quiet = ctx->quiet;
	so->header_hint = !ctx->header;
	if (ctx->time_str && parse_time(ctx, f)) {
		report_stdio_begin(stdout, &ctx->lay, so, 0);
		ctx->exit_status = -EINVAL;
		return 1;
	}
	if (hist_filters_parse(&ctx->filters, &fa, NULL))
		return -1;
	ctx->filtering = ctx->comms || ctx->dsos || ctx->symbols || ctx->pids || ctx->tids;
	if (ctx->cpus) {
		int r = cpu_filter_setup(ctx, f, sample_type);

		if (r < 0)
			return -1;
		if (r > 0) {
			pager_start();
			report_stdio_begin(stdout, &ctx->lay, so, 0);
			return 1;
		}
	}
	ctx->bhists = xcalloc(f->nr_evsel ? f->nr_evsel : 1, sizeof(*ctx->bhists));
	for (u32 i = 0; i < f->nr_evsel; i++)
		branch_hist_init(&ctx->bhists[i], &ctx->blay);
	if (ctx->filtering)
		ctx->bstrs = hist_strings_new();
	cfg->resolve_flags = ctx->symbols ? 0 : SESSION_NO_SYMBOL;
	cfg->time_ranges = ctx->time_ranges;
	cfg->nr_time_ranges = ctx->nr_time_ranges;
	cfg->cpu_bitmap = ctx->cpu_bitmap;
	return 0;
}

/* Every record other than a sample may change the maps: the resolution
 * cache starts again after it. */
static int branch_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct report_ctx *ctx = vctx;

	(void)f;
	if (ev->hdr->type != PD_REC_SAMPLE && ctx->bres.cache)
		branch_hist_flush(&ctx->bres);
	return 0;
}

static int branch_sample(void *vctx, struct engine_sample *s)
{
	struct report_ctx *ctx = vctx;
	u8 filtered = 0;

	if (!ctx->bres.session)
		branch_resolver_init(&ctx->bres, s->session);
	if (!(s->sample.sample_type & PD_SAMPLE_BRANCH_STACK) || !s->sample.branch_nr)
		return 0;
	if (ctx->filtering)
		filtered = hist_filter_sample(ctx->bstrs, &ctx->filters, &s->al, s->sample.ip);
	branch_hist_add_sample(&ctx->bhists[s->evsel - ctx->bfile->evsel], &ctx->bres, &s->al,
			       s->sample.branch, s->sample.branch_nr, filtered, &ctx->brtypes);
	return 0;
}

/* The report in branch mode: one histogram of branches per event. */
static int branch_report(struct report_ctx *ctx, struct pd_file *f)
{
	const struct engine_consumer consumer = {
		.record = branch_record, .sample = branch_sample, .arg = ctx,
	};
	struct engine_config cfg = {
		.sopts = { .vmlinux = ctx->vmlinux, .symfs = ctx->symfs },
		.threads = 1,
		.progress = !ctx->quiet && isatty(2),
	};
	struct branch_stdio_opts bo = { 0 };
	struct engine *eng;
	u64 nr_entries = 0;
	int ret;

	ctx->bfile = f;
	eng = engine_new(&cfg, branch_configure, ctx);
	ret = engine_stream(eng, f, &consumer);
	if (ret)
		goto out;
	warn_lost(ctx, f);
	pager_start();
	for (u32 i = 0; i < f->nr_evsel; i++) {
		branch_hist_finish(&ctx->bhists[i], &ctx->bres, ctx->dsos != NULL);
		nr_entries += ctx->bhists[i].nr_entries;
	}
	if (!nr_entries) {
		report_stdio_begin(stdout, &ctx->lay, &ctx->so, 0);
		error("the %s data has no samples", f->path);
		goto out;
	}
	ctx->so.total_lost_samples = f->stats.total_lost_samples;
	report_stdio_begin(stdout, &ctx->lay, &ctx->so, 1);
	bo.quiet = ctx->quiet;
	bo.relative = ctx->percentage && !strcmp(ctx->percentage, "relative");
	bo.min_percent = ctx->percent_limit ? strtof(ctx->percent_limit, NULL) : 0;
	bo.time_str = ctx->time_str;
	for (u32 i = 0; i < f->nr_evsel; i++) {
		char name[256];

		if (!ctx->bhists[i].nr_samples)
			continue;
		pd_evsel_name(f, &f->evsel[i], name, sizeof(name));
		branch_stdio_hist(stdout, &ctx->bhists[i], name, &bo);
	}
	report_stdio_end(stdout, &ctx->so);
	branch_stdio_types(stdout, &ctx->brtypes);
out:
	engine_free(eng);
	if (ctx->bhists)
		for (u32 i = 0; i < f->nr_evsel; i++)
			branch_hist_release(&ctx->bhists[i]);
	free(ctx->bhists);
	if (ctx->bres.cache)
		branch_resolver_release(&ctx->bres);
	if (ctx->bstrs)
		hist_strings_free(ctx->bstrs);
	hist_filters_free(&ctx->filters);
	free(ctx->cpu_bitmap);
	free(ctx->time_ranges);
	if (ret < 0)
		return ret;
	return ctx->exit_status;
}

/* --stats: a record other than a sample decoded (decode_record()) before
 * the session model takes it. */
static int chainstats_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	if (ev->hdr->type == PD_REC_SAMPLE && ev->evsel)
		return 0;
	return decode_record(vctx, f, ev) ? -1 : 0;
}

/* --stats: each sample counted and its chain walked; only a chain with
 * frames has the sample resolved, and then its frames counted
 * (chainstats_sample()). */
static int chainstats_filter(void *vctx, struct engine_sample *s)
{
	struct report_ctx *ctx = vctx;

	return chainstats_chain(ctx->chainstats, s->session, &s->sample, &s->al) ? 0 : ENGINE_SKIP;
}

static int chainstats_sample(void *vctx, struct engine_sample *s)
{
	struct report_ctx *ctx = vctx;

	chainstats_frames(ctx->chainstats);
	return 0;
}

/* The engine's configure hook for --stats: samples resolved to their
 * maps; the frames' symbols are looked up by chainstats. */
static int chainstats_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	(void)arg;
	(void)f;
	cfg->resolve_flags = SESSION_NO_SYMBOL;
	return 0;
}

/*
 * --stats: perf's record counts; on a file with call chains (unless -g
 * none), the call-chain statistics after them, the samples resolved
 * through the session model as the flat report resolves them.
 */
static int stats_report(struct report_ctx *ctx, struct pd_file *f)
{
	const struct pd_ops plain_ops = { decode_record };
	const struct engine_consumer consumer = {
		.record = chainstats_record, .filter = chainstats_filter,
		.sample = chainstats_sample, .arg = ctx,
	};
	struct engine_config cfg = {
		.sopts = { .vmlinux = ctx->vmlinux, .symfs = ctx->symfs },
		.threads = 1,
		.progress = !ctx->quiet && isatty(2),
	};
	struct engine *eng;
	u64 sample_type = 0;
	double start;
	int ret;

	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	if (!(sample_type & PD_SAMPLE_CALLCHAIN) || (ctx->cg_given && !ctx->cg.enabled)) {
		ret = pd_process(f, &plain_ops, NULL);
		if (ret >= 0)
			stats_print(f, stdout);
		return ret;
	}
	start = progress_now();
	if (ctx->max_stack < 1)
		ctx->max_stack = 1;
	ctx->chainstats = chainstats_new(ctx->cg.key, (u32)ctx->max_stack);
	eng = engine_new(&cfg, chainstats_configure, ctx);
	ret = engine_stream(eng, f, &consumer);
	if (ret >= 0) {
		stats_print(f, stdout);
		chainstats_print(ctx->chainstats, progress_now() - start, stdout);
	}
	chainstats_free(ctx->chainstats);
	engine_free(eng);
	return ret;
}

/* -g: perf's parse_callchain_report_opt(); alone, perf's default. */
static int call_graph_opt(const struct opt *opt, const char *arg, int unset)
{
	struct report_ctx *ctx = opt->value;

	ctx->cg_given = 1;
	return callchain_parse_opt(&ctx->cg, arg);
}

/* --percent-limit also sets the call-graph threshold, as in perf (the
 * later of it and -g's wins). */
static int percent_limit_opt(const struct opt *opt, const char *arg, int unset)
{
	struct report_ctx *ctx = opt->value;

	ctx->percent_limit = arg;
	ctx->cg.min_percent = strtof(arg, NULL);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_ctx ctx = {
		.children_opt = -1,
		.branch_opt = -1,
		.group_opt = -1,
		.inline_frames = 1,
		/* perf's default: the running kernel's */
		.max_stack = sysctl_int("kernel/perf_event_max_stack", MAX_STACK, 0),
	};
	const struct opt opts[] = {
		OPT_STRING('i', "input", &ctx.input, "file", "input file name"),
		OPT_BOOLEAN(0, "stats", &ctx.stats, "display event stats"),
		OPT_BOOLEAN(0, "header", &ctx.header, "show the data header information before the report"),
		OPT_BOOLEAN(0, "header-only", &ctx.header_only, "show only the data header information"),
		OPT_BOOLEAN('I', "show-info", &ctx.show_info, "display extended information about the perf.data file"),
		OPT_BOOLEAN('D', "dump-raw-trace", &ctx.dump, "dump raw trace in ASCII"),
		OPT_BOOLEAN(0, "stdio", &ctx.stdio, "use the stdio interface"),
		OPT_BOOLEAN('f', "force", &ctx.force, "don't complain, do it"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "do not show any warnings or messages"),
		OPT_INCR('v', "verbose", &ctx.verbose, "be more verbose"),
		OPT_STRING('s', "sort", &ctx.sort_order, "key[,key2...]",
			   "sort by key(s): pid, comm, dso, symbol, cpu, overhead, sample, period"),
		OPT_STRING('F', "fields", &ctx.field_order, "key[,keys...]",
			   "output field(s): overhead, sample, period and the sort keys"),
		OPT_BOOLEAN('n', "show-nr-samples", &ctx.show_nr_samples, "show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-total-period", &ctx.show_total_period, "show a column with the sum of periods"),
		OPT_CALLBACK(0, "percent-limit", &ctx, "percent", "don't show entries under that percent",
			     percent_limit_opt),
		OPT_STRING(0, "percentage", &ctx.percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_STRING('c', "comms", &ctx.comms, "comm[,comm...]", "only consider symbols in these comms"),
		OPT_STRING('d', "dsos", &ctx.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_STRING('S', "symbols", &ctx.symbols, "symbol[,symbol...]", "only consider these symbols"),
		OPT_STRING(0, "pid", &ctx.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &ctx.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('C', "cpu", &ctx.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &ctx.time_str, "str", "time to display: start,end in seconds"),
		OPT_BOOLEAN(0, "children", &ctx.children_opt, "accumulate callchains of children and show total overhead"),
		OPT_BOOLEAN(0, "group", &ctx.group_opt, "show event group information together (the default for a file with groups)"),
		{ .type = OPT_T_CALLBACK, .short_name = 'g', .long_name = "call-graph",
		  .value = &ctx, .argh = "print_type,threshold[,print_limit],order,sort_key[,branch],value",
		  .help = "call graph display: graph|flat|fractal|folded|none, threshold, "
			  "caller|callee, function|address, percent|period|count "
			  "(default: graph,0.5,caller,function,percent)",
		  .callback = call_graph_opt, .flags = OPT_LASTARG_DEFAULT },
		OPT_INTEGER(0, "max-stack", &ctx.max_stack,
			    "set the maximum stack depth when parsing the callchain (default: 127)"),
		OPT_BOOLEAN('G', "inverted", &ctx.inverted, "alias for inverted call graph"),
		OPT_BOOLEAN(0, "inline", &ctx.inline_frames, "show inline function (default)"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_BOOLEAN('b', "branch-stack", &ctx.branch_opt,
			    "use branch records for per branch histogram filling"),
		OPT_INTEGER(0, "threads", &ctx.threads, "threads to use (1: one; default: two when there are two CPUs)"),
		OPT_END(),
	};
	struct pd_file f;
	int argc_left, ret = 0;

	callchain_param_init(&ctx.cg);
	argc_left = opt_parse(argc, argv, opts, report_usage, 0);
	if (argc_left)
		opt_usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
	if (!ctx.input)
		ctx.input = pd_default_input();
	if (ctx.quiet)
		error_set_quiet(1);

	if (pd_open(&f, ctx.input, 0)) {
		pd_close(&f);
		return 1;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (ctx.header_only || ctx.header) {
		if (!ctx.dump && !ctx.stats)
			pager_start();
		if (!f.pipe_mode) {
			ret = header_print(&f, stdout, ctx.show_info);
		} else {
			const struct pd_ops ops = { header_from_stream };

			ret = pd_process(&f, &ops, &ctx);
			if (ret >= 0 && !ctx.header_printed)
				ret = header_print(&f, stdout, ctx.show_info);
			else if (ret > 0)
				ret = 0;
		}
		if (ret < 0 || ctx.header_only)
			goto out;
	}
	if (ctx.dump) {
		struct dump_ctx dctx = { .out = stdout, .file_name = ctx.input };
		const struct pd_ops ops = { dump_record };

		dump_begin(&dctx, &f);
		ret = pd_process(&f, &ops, &dctx);
		if (dump_end(&dctx, &f, ret == 0) < 0 && ret == 0)
			ret = -1;
	} else if (ctx.stats) {
		ret = stats_report(&ctx, &f);
	} else if (branch_mode(&ctx, &f)) {
		ret = branch_report(&ctx, &f);
	} else {
		ret = flat_report(&ctx, &f);
	}
out:
	fflush(stdout);
	pd_close(&f);
	/* perf exits with -EINVAL's low byte (234) for a bad --time */
	return ret == -EINVAL ? 256 - EINVAL : ret < 0 ? 1 : 0;
}
