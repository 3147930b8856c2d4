/*
 * dump.c - "prof report -D" in the layout of perf 6.1's "perf report -D".
 *
 * For every record perf prints
 *
 *	\n<offset>@<file> [<size>]: event: <type>
 *	.
 *	. ... raw event: size <n> bytes
 *	.  0000:  hex bytes, 16 a line  ascii
 *	\n
 *	[cpu ][time ]<offset> [<size>]: PERF_RECORD_<NAME><decoded fields>
 *
 * where the decoded part is what the record's handler in "perf report"
 * prints (some print nothing, some ": unhandled!"): dump_records.c for
 * records other than samples, dump_sample.c for samples, which go on
 * with " ... thread: COMM:TID" and " ...... dso: NAME" from the session
 * model (dump_machine.c).  After the last record come the
 * "Aggregated stats" perf prints, with per-event sample counts as perf's
 * hists count them (per branch entry in branch mode).
 *
 * Invariants: output goes through one large buffer written with fwrite, hex
 * and decimal are formatted by hand (printf only for floats and rare
 * records); every field read from a record is bounds-checked against the
 * record's size; memory (an arena, the session) is freed by dump_end().
 */
#include "dump_int.h"
#include "../format/evname.h"
#include "../util/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The event name perf's -D shows: a stream's recorded name, where its
 * reports show the name derived from the attr. */
const char *dump_evsel_name(const struct pd_file *f, const struct pd_evsel *e,
			    char *buf, size_t size)
{
	if (e->stream_name)
		return e->stream_name;
	return pd_evsel_name(f, e, buf, size);
}

void ob_flush(struct obuf *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->out) != o->len)
		o->failed = 1;
	o->len = 0;
}

void ob_fmt(struct obuf *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	ob_mem(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Record names as perf 6.1's perf_event__name() gives them. */
static const char *const record_names[] = {
	[0] = "TOTAL", [1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA",
	[67] = "BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE",
	[79] = "TIME_CONV", [80] = "FEATURE", [81] = "COMPRESSED",
	[82] = "FINISHED_INIT",
};
#define NR_RECORD_NAMES (sizeof(record_names) / sizeof(record_names[0]))

static const char *record_name(u32 type)
{
	if (type >= NR_RECORD_NAMES)
		return "INVALID";
	return record_names[type] ? record_names[type] : "UNKNOWN";
}

/* The evsels perf's evlist holds when this record is processed: in pipe
 * mode only those whose HEADER_ATTR came before it. */
static u32 known_evsels(const struct dump_state *st, const struct pd_file *f)
{
	if (!f->pipe_mode)
		return f->nr_evsel;
	return st->nr_attrs_seen < f->nr_evsel ? st->nr_attrs_seen : f->nr_evsel;
}

/* perf's __evlist__combined_sample_type(): computed on first use, then
 * cached for as long as it is non-zero. */
static u64 combined_type(struct dump_state *st, const struct pd_file *f)
{
	if (!st->combined_type)
		for (u32 i = 0; i < known_evsels(st, f); i++)
			st->combined_type |= f->evsel[i].attr.sample_type;
	return st->combined_type;
}

static int evlist_sample_id_all(const struct dump_state *st, const struct pd_file *f)
{
	return known_evsels(st, f) && PD_ATTR_FLAG(&f->evsel[0].attr, PD_ATTR_SAMPLE_ID_ALL);
}

/* perf's evlist__print_tstamp(). */
static void print_tstamp(struct dump_state *st, const struct pd_file *f, u32 type, u32 cpu,
			 u64 time)
{
	u64 ct;

	if (type != PD_REC_SAMPLE && !evlist_sample_id_all(st, f)) {
		ob_str(&st->ob, "-1 -1 ");
		return;
	}
	ct = combined_type(st, f);
	if (ct & PD_SAMPLE_CPU) {
		ob_u64(&st->ob, cpu);
		ob_chr(&st->ob, ' ');
	}
	if (ct & PD_SAMPLE_TIME) {
		ob_u64(&st->ob, time);
		ob_chr(&st->ob, ' ');
	}
}

/* The ".  0000:  xx xx ...  ascii" lines of perf's trace_event(). */
static void raw_dump(struct obuf *o, const u8 *p, u32 size)
{
	ob_str(o, ".\n. ... raw event: size ");
	ob_u64(o, size);
	ob_str(o, " bytes\n");
	for (u32 off = 0; off < size; off += 16) {
		u32 n = size - off < 16 ? size - off : 16;
		char *w = ob_room(o, 128), *s = w;

		*s++ = '.';
		*s++ = ' ';
		*s++ = ' ';
		for (int sh = 12; sh >= 0; sh -= 4)
			*s++ = hex_digits[(off >> sh) & 15];
		*s++ = ':';
		*s++ = ' ';
		for (u32 i = 0; i < 16; i++) {
			if (i < n) {
				*s++ = ' ';
				*s++ = hex_digits[p[off + i] >> 4];
				*s++ = hex_digits[p[off + i] & 15];
			} else {
				*s++ = ' ';
				*s++ = ' ';
				*s++ = ' ';
			}
		}
		*s++ = ' ';
		*s++ = ' ';
		for (u32 i = 0; i < 16; i++) {
			u8 c = i < n ? p[off + i] : ' ';

			*s++ = (c >= 0x20 && c < 0x7f) ? (char)c : '.';
		}
		*s++ = '\n';
		o->len += (size_t)(s - w);
	}
	ob_chr(o, '\n');
}

/* ---- the record dispatcher -------------------------------------------- */

int dump_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct dump_ctx *ctx = vctx;
	struct dump_state *st = ctx->state;
	const struct pd_header *hdr = ev->hdr;
	struct rec r = { (const u8 *)hdr, hdr->size };
	struct obuf *o;
	struct pd_sample s;
	u32 cpu = 0;
	u64 time = 0, offset = ev->file_offset;

	if (!st)
		dump_begin(ctx, f);
	st = ctx->state;
	o = &st->ob;
	/* perf counts pipe offsets from the end of the 16-byte pipe header */
	if (f->pipe_mode && offset >= PD_PIPE_HEADER_SIZE)
		offset -= PD_PIPE_HEADER_SIZE;
	/* perf does not dump COMPRESSED records, only what they hold */
	if (hdr->type == PD_REC_COMPRESSED || hdr->type == PD_REC_COMPRESSED2)
		return 0;
	if (hdr->type == PD_REC_SAMPLE) {
		if (!ev->evsel || pd_parse_sample(f, ev->evsel, hdr, ev->file_offset, &s))
			return 0;	/* perf cannot parse it and prints nothing */
		cpu = (ev->evsel->attr.sample_type & PD_SAMPLE_CPU) ? s.cpu : (u32)-1;
		time = (ev->evsel->attr.sample_type & PD_SAMPLE_TIME) ? s.time : (u64)-1;
		if (!(ev->evsel->attr.sample_type & PD_SAMPLE_TID))
			s.pid = s.tid = (u32)-1;
		if (!(ev->evsel->attr.sample_type & PD_SAMPLE_PERIOD))
			s.period = ev->evsel->attr.sample_period;
	} else if (hdr->type < PD_REC_USER_START) {
		struct pd_id_trailer t = { 0 };
		u64 stype = ev->evsel ? ev->evsel->attr.sample_type : 0;

		cpu = (u32)-1;
		time = (u64)-1;
		if (ev->evsel && !pd_parse_trailer(f, ev->evsel, hdr, &t) && t.valid) {
			if (stype & PD_SAMPLE_CPU)
				cpu = t.cpu;
			if (stype & PD_SAMPLE_TIME)
				time = t.time;
		}
	}

	ob_chr(o, '\n');
	ob_hexalt(o, offset);
	ob_chr(o, '@');
	ob_str(o, st->name);
	ob_str(o, " [");
	ob_hexalt(o, hdr->size);
	ob_str(o, "]: event: ");
	ob_u64(o, hdr->type);
	ob_chr(o, '\n');
	raw_dump(o, r.p, r.size);
	print_tstamp(st, f, hdr->type, cpu, time);
	ob_hexalt(o, offset);
	ob_str(o, " [");
	ob_hexalt(o, hdr->size);
	ob_str(o, "]: PERF_RECORD_");
	ob_str(o, record_name(hdr->type));

	if (hdr->type == PD_REC_SAMPLE) {
		dump_sample(st, f, ev, &s);
	} else if (hdr->type < PD_REC_USER_START) {
		dump_kernel_record(st, f, ev, &r);
	} else {
		dump_user_record(st, ev, &r);
	}
	if (hdr->type != PD_REC_SAMPLE)
		dump_machine_event(st, ev);
	return o->failed ? -1 : 0;
}

void dump_begin(struct dump_ctx *ctx, struct pd_file *f)
{
	struct dump_state *st = xcalloc(1, sizeof(*st));

	ctx->state = st;
	st->ob.buf = xmalloc(OBUF_SIZE);
	st->ob.out = ctx->out;
	arena_init(&st->arena, 0);
	st->name = f->pipe_mode ? "pipe" : ctx->file_name ? ctx->file_name : f->path;
	st->branch_mode = !f->pipe_mode && pd_has_feature(f, PD_FEAT_BRANCH_STACK);
	dump_machine_begin(st, f);
	ob_str(&st->ob, "# To display the perf.data header info, please use "
			"--header/--header-only options.\n#\n");
}

/* perf's perf_session__fprintf_nr_events() and evlist__fprintf_nr_events(). */
static void print_stats(struct dump_state *st, const struct pd_file *f)
{
	const struct pd_stats *s = &f->stats;
	struct obuf *o = &st->ob;
	u64 total = 0;
	char name[256];

	for (u32 type = 1; type < NR_RECORD_NAMES; type++)
		total += s->nr_by_type[type];
	ob_fmt(o, "\nAggregated stats:%s\n", pd_has_feature(f, PD_FEAT_AUXTRACE) ?
	       " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	ob_fmt(o, "%16s events: %10d\n", "TOTAL", (int)total);
	for (u32 type = 1; type < NR_RECORD_NAMES; type++) {
		if (!record_names[type] || !s->nr_by_type[type])
			continue;
		ob_fmt(o, "%16s events: %10d  (%4.1f%%)\n", record_names[type],
		       (int)s->nr_by_type[type], (double)s->nr_by_type[type] / (double)total * 100.0);
	}
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *e = &f->evsel[i];
		u64 n = st->hist_samples && i < st->nr_hist ? st->hist_samples[i] : 0;

		if (!n)
			continue;
		ob_fmt(o, "%s stats:\n", dump_evsel_name(f, e, name, sizeof(name)));
		ob_fmt(o, "%16s events: %10d\n", "SAMPLE", (int)n);
	}
}

int dump_end(struct dump_ctx *ctx, struct pd_file *f, int ok)
{
	struct dump_state *st = ctx->state;
	int failed;

	if (!st)
		return 0;
	if (ok)
		print_stats(st, f);
	ob_flush(&st->ob);
	failed = st->ob.failed;
	dump_machine_end(st);
	free(st->periods);
	free(st->hist_samples);
	free(st->ob.buf);
	arena_free(&st->arena);
	free(st);
	ctx->state = NULL;
	return failed ? -1 : 0;
}
