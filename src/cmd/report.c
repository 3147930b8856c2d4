/*
 * report.c - "prof report": reads a perf.data file and prints its header
 * (--header-only), its record counts (--stats) or every record (-D).
 */
#include "cmds.h"
#include "../format/reader.h"
#include "../output/dump.h"
#include "../output/header.h"
#include "../output/stats.h"
#include "../util/error.h"
#include "../util/opt.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int default_input(struct report_ctx *ctx)
{
	struct stat st;

	if (ctx->input)
		return 0;
	/* like perf: stdin when it is a pipe, else perf.data */
	if (!fstat(0, &st) && S_ISFIFO(st.st_mode))
		ctx->input = "-";
	else
		ctx->input = "perf.data";
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_ctx ctx = { 0 };
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
		OPT_END(),
	};
	struct pd_file f;
	int argc_left, ret = 0;

	argc_left = opt_parse(argc, argv, opts, report_usage, 0);
	if (argc_left)
		opt_usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
	if (!ctx.stats && !ctx.header_only && !ctx.dump)
		opt_usage_error(report_usage, opts,
				"only --stats, --header-only and -D are implemented so far");
	default_input(&ctx);
	if (ctx.quiet)
		error_set_quiet(1);

	if (pd_open(&f, ctx.input, 0)) {
		pd_close(&f);
		return 1;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (ctx.header_only || ctx.header) {
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
		if (ret < 0)
			goto out;
	} else if (ctx.stats) {
		const struct pd_ops ops = { decode_record };

		ret = pd_process(&f, &ops, NULL);
		if (ret < 0)
			goto out;
		stats_print(&f, stdout);
	}
out:
	fflush(stdout);
	pd_close(&f);
	return ret < 0 ? 1 : 0;
}
