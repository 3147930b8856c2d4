/*
 * flame.c - "prof flame": a perf.data file as a flame graph (one
 * self-contained interactive SVG) or as folded stacks, and the
 * differential flame graph of two files.
 *
 * The samples come from the report engine's sample stream
 * (engine/engine.h); the flame folder (analysis/flame_fold.h) makes each
 * one a stack in the trie (analysis/flame.h), as "perf script |
 * stackcollapse-perf.pl" would; output/flame_svg.h draws it.
 *
 * The event: -e, else the event of the first sample (as stackcollapse-
 * perf.pl filters to the first event it meets); other events' samples
 * are counted and skipped.
 */
#include "cmds.h"
#include "../analysis/flame.h"
#include "../analysis/flame_fold.h"
#include "../engine/engine.h"
#include "../format/evname.h"
#include "../format/reader.h"
#include "../output/flame_svg.h"
#include "../session/chain.h"
#include "../session/session.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/outcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_STACK 127	/* perf script's default --max-stack */

struct flame_ctx {
	/* options */
	const char *input;	/* -i */
	const char *output;	/* -o, "-" for stdout */
	const char *title;	/* --title */
	const char *event;	/* -e */
	const char *min_width_str;	/* --minwidth */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	int diff;		/* --diff BASE NEW */
	int folded;		/* --folded */
	int icicle;		/* --icicle */
	struct fold_opts fold_opts;	/* --merged (--per-comm: 0), --pid,
					   --tid, --kernel-marks, --jit-marks,
					   --addrs, --reverse */
	int width;		/* --width */
	int frame_height;	/* --height */
	int max_stack;		/* --max-stack */
	int quiet;		/* -q */

	struct flame fl;
	struct flame_fold *fold;	/* fills fl */

	/* state of the file being read */
	struct engine_config cfg;	/* the engine's */
	int have_evsel;		/* the event shown is known: */
	u32 evsel_idx;		/* its index (a stream's evsels may move) */
	char evsel_name[256];
	u64 nr_samples, nr_other;
};

static const char *const flame_usage[] = {
	"prof flame [<options>] [-i perf.data] [-o flame.svg]",
	"prof flame [<options>] --diff BASE.data NEW.data [-o diff.svg]",
	NULL,
};

/* Whether evsel is the one -e names: its full name ("cpu-clock:ppp") or
 * the name without modifiers. */
static int event_matches(const struct flame_ctx *ctx, struct pd_file *f,
			 const struct pd_evsel *evsel)
{
	char name[256];
	size_t len = strlen(ctx->event);

	pd_evsel_name(f, evsel, name, sizeof(name));
	return !strcmp(name, ctx->event) ||
	       (!strncmp(name, ctx->event, len) && name[len] == ':');
}

/* Whether a sample of evsel (of file f) is shown: the event of the first
 * sample (of those -e names) is, the others' samples are counted. */
static int event_shown(struct flame_ctx *ctx, struct pd_file *f, const struct pd_evsel *evsel)
{
	if (!ctx->have_evsel) {
		if (ctx->event && !event_matches(ctx, f, evsel)) {
			ctx->nr_other++;
			return 0;
		}
		ctx->have_evsel = 1;
		ctx->evsel_idx = evsel->idx;
		pd_evsel_name(f, evsel, ctx->evsel_name, sizeof(ctx->evsel_name));
	}
	if (evsel->idx != ctx->evsel_idx) {
		ctx->nr_other++;
		return 0;
	}
	return 1;
}

/* Every record: one that is not a sample may end the folder's cached
 * names; a sample of an event other than the one shown is left out. */
static int flame_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct flame_ctx *ctx = vctx;

	if (ev->hdr->type != PD_REC_SAMPLE) {
		fold_note_record(ctx->fold, ev->hdr);
		return 0;
	}
	if (!ev->evsel)
		return 0;
	return event_shown(ctx, f, ev->evsel) ? 0 : ENGINE_SKIP;
}

/* A sample of the event shown (resolved without its symbol): its stack,
 * its chain walked as perf script walks it (callee order, --max-stack, a
 * dwarf sample's unwound part joined), into the trie. */
static int flame_sample(void *vctx, struct engine_sample *s)
{
	struct flame_ctx *ctx = vctx;
	struct chain_walk w, *walk = NULL;

	if (s->evsel->attr.sample_type & PD_SAMPLE_CALLCHAIN) {
		engine_chain_begin(s, &w, CHAIN_CALLEE, ctx->max_stack, ENGINE_CHAIN_UNWIND);
		walk = &w;
	}
	fold_sample(ctx->fold, s->session, &s->al, &s->sample, walk);
	ctx->nr_samples++;
	return 0;
}

/* The engine's configure hook: the samples are resolved to their maps
 * and DSOs; the folder looks the symbols up through its caches. */
static int flame_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	(void)arg;
	(void)f;
	cfg->resolve_flags = SESSION_NO_SYMBOL;
	return 0;
}

/* Reads one file into input idx of the trie.  Returns 0 or -1. */
static int read_file(struct flame_ctx *ctx, const char *path, int idx)
{
	const struct engine_consumer consumer = {
		.record = flame_record, .sample = flame_sample, .arg = ctx,
	};
	struct engine *eng;
	struct pd_file f;
	int ret;

	if (pd_open(&f, path, 0)) {
		pd_close(&f);
		return -1;
	}
	ctx->have_evsel = 0;
	ctx->evsel_name[0] = '\0';
	ctx->nr_samples = ctx->nr_other = 0;
	fold_begin(ctx->fold, idx);
	memset(&ctx->cfg, 0, sizeof(ctx->cfg));
	ctx->cfg.sopts.vmlinux = ctx->vmlinux;
	ctx->cfg.sopts.symfs = ctx->symfs;
	ctx->cfg.threads = 1;
	eng = engine_new(&ctx->cfg, flame_configure, ctx);
	ret = engine_stream(eng, &f, &consumer);
	fold_end(ctx->fold);
	if (ret > 0)
		ret = -1;
	if (!ret && !ctx->nr_samples) {
		if (ctx->event)
			ret = error("%s has no samples of event '%s'", path, ctx->event);
		else
			ret = error("%s has no samples", path);
	}
	if (!ret && ctx->nr_other && !ctx->event)
		warning("%s: showing the %llu samples of %s, the first event; %llu samples "
			"of other events are left out (choose one with -e)", path,
			(unsigned long long)ctx->nr_samples, ctx->evsel_name,
			(unsigned long long)ctx->nr_other);
	engine_free(eng);
	pd_close(&f);
	return ret;
}

/* Writes the result to -o (or its default).  A failed write to standard
 * output is left for main()'s stdout_finish() to report. */
static int write_output(struct flame_ctx *ctx, const char *subtitle, double min_width)
{
	const char *out_path = ctx->output;
	FILE *out = stdout;
	int ret;

	if (!out_path)
		out_path = ctx->folded ? "-" : ctx->diff ? "diff.svg" : "flame.svg";
	if (strcmp(out_path, "-")) {
		out = output_open(out_path, "w");
		if (!out)
			return error("cannot write %s: %m", out_path);
	}
	if (ctx->folded) {
		ret = flame_write_folded(out, &ctx->fl);
	} else {
		struct flame_svg_opts o = {
			.title = ctx->title,
			.subtitle = subtitle,
			.width = ctx->width,
			.frame_height = ctx->frame_height,
			.min_width = min_width,
			.icicle = ctx->icicle,
		};

		if (!o.title)
			o.title = ctx->diff ? "Differential Flame Graph" :
				  ctx->icicle ? "Icicle Graph" : "Flame Graph";
		ret = flame_write_svg(out, &ctx->fl, &o);
	}
	if (out != stdout)
		return output_close(out, out_path);
	return ret;
}

/* --per-comm undoes --merged (and --no-per-comm is --merged): the last
 * one given wins. */
static int per_comm_opt(const struct opt *opt, const char *arg, int unset)
{
	*(int *)opt->value = unset;
	return 0;
}

int cmd_flame(int argc, char **argv)
{
	struct flame_ctx ctx = { .width = 1200, .frame_height = 16,
				 .max_stack = DEFAULT_MAX_STACK };
	struct fold_opts *fo = &ctx.fold_opts;
	const struct opt opts[] = {
		OPT_STRING('i', "input", &ctx.input, "file", "input file name (default: perf.data)"),
		OPT_STRING('o', "output", &ctx.output, "file",
			   "output file (default: flame.svg, diff.svg; '-' or --folded: stdout)"),
		OPT_BOOLEAN(0, "folded", &ctx.folded, "write folded stacks instead of an SVG"),
		OPT_BOOLEAN(0, "diff", &ctx.diff, "differential graph of two files: --diff BASE NEW"),
		OPT_STRING('e', "event", &ctx.event, "event", "show this event (default: the first sampled)"),
		OPT_GROUP("Stacks"),
		OPT_CALLBACK_NOARG(0, "per-comm", &fo->merged, "a root frame per process name (default)",
				   per_comm_opt),
		OPT_BOOLEAN(0, "merged", &fo->merged, "no process frames: every process merged"),
		OPT_BOOLEAN(0, "pid", &fo->with_pid, "process frames as comm-PID"),
		OPT_BOOLEAN(0, "tid", &fo->with_tid, "process frames as comm-PID/TID"),
		OPT_BOOLEAN(0, "kernel-marks", &fo->kernel_marks, "append _[k] to kernel frames"),
		OPT_BOOLEAN(0, "jit-marks", &fo->jit_marks, "append _[j] to JIT frames"),
		OPT_BOOLEAN(0, "addrs", &fo->addrs, "name frames without a symbol by their address too"),
		OPT_BOOLEAN(0, "reverse", &fo->reverse, "reverse the stacks: leaf functions at the root"),
		OPT_INTEGER(0, "max-stack", &ctx.max_stack,
			    "at most this many frames of each call chain, from the leaf (default: 127)"),
		OPT_GROUP("Drawing"),
		OPT_STRING(0, "title", &ctx.title, "text", "the graph's title"),
		OPT_BOOLEAN(0, "icicle", &ctx.icicle, "draw the root at the top, stacks growing down"),
		OPT_INTEGER(0, "width", &ctx.width, "image width in pixels (default: 1200)"),
		OPT_INTEGER(0, "height", &ctx.frame_height, "frame height in pixels (default: 16)"),
		OPT_STRING(0, "minwidth", &ctx.min_width_str, "px",
			   "leave out frames narrower than this (default: 0.1)"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx.symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "do not show warnings"),
		OPT_END(),
	};
	double min_width = 0.1;
	char subtitle[512];
	int argc_left, ret = 0;

	argc_left = opt_parse(argc, argv, opts, flame_usage, 0);
	if (ctx.diff && argc_left != 2)
		opt_usage_error(flame_usage, opts, "--diff takes two files: BASE NEW");
	if (!ctx.diff && argc_left)
		opt_usage_error(flame_usage, opts, "unexpected argument '%s'", argv[0]);
	if (ctx.diff && ctx.input)
		opt_usage_error(flame_usage, opts, "--diff takes its files as arguments, not -i");
	if (fo->merged && (fo->with_pid || fo->with_tid))
		opt_usage_error(flame_usage, opts, "--pid and --tid name process frames, which --merged leaves out");
	if (ctx.width < 100 || ctx.width > 1000000)
		opt_usage_error(flame_usage, opts, "--width must be between 100 and 1000000");
	if (ctx.frame_height < 4 || ctx.frame_height > 1000)
		opt_usage_error(flame_usage, opts, "--height must be between 4 and 1000");
	if (ctx.max_stack < 1)
		opt_usage_error(flame_usage, opts, "--max-stack must be at least 1");
	if (ctx.min_width_str) {
		char *end;

		min_width = strtod(ctx.min_width_str, &end);
		if (end == ctx.min_width_str || *end || !(min_width >= 0) || min_width > 1e6)
			opt_usage_error(flame_usage, opts, "invalid --minwidth '%s'", ctx.min_width_str);
	}
	if (ctx.quiet)
		error_set_quiet(1);

	flame_init(&ctx.fl, ctx.diff ? 2 : 1);
	ctx.fold = fold_new(&ctx.fl, fo);
	if (ctx.diff) {
		ret = read_file(&ctx, argv[0], 0);
		if (!ret)
			ret = read_file(&ctx, argv[1], 1);
		snprintf(subtitle, sizeof(subtitle), "%s against %s: red grew, blue shrank (%s)",
			 argv[1], argv[0], ctx.evsel_name);
	} else {
		if (!ctx.input)
			ctx.input = pd_default_input();
		ret = read_file(&ctx, ctx.input, 0);
		snprintf(subtitle, sizeof(subtitle), "%s: %llu samples of %s",
			 strcmp(ctx.input, "-") ? ctx.input : "stdin",
			 (unsigned long long)ctx.nr_samples, ctx.evsel_name);
	}
	if (!ret) {
		flame_finish(&ctx.fl);
		ret = write_output(&ctx, subtitle, min_width);
	}
	fold_free(ctx.fold);
	flame_exit(&ctx.fl);
	return ret ? 1 : 0;
}
