/*
 * script.c - "prof script": prints every sample of a perf.data file, one
 * line each or with its call chain, as "perf script" (perf 6.1) does.
 *
 * One pass: every record goes to the session model in delivery order and
 * each sample that passes the filters (--time, -C, --comms, --pid, --tid)
 * is resolved (thread, comm, map, symbol; call-chain frames as perf's
 * thread__resolve_callchain() walks them, callee first) and written at
 * once into a big output buffer (output/script_stdio.c).
 *
 * What is printed follows perf's per-event-type field sets: defaults per
 * attr type, changed by -F, then pruned at setup against the sample_type
 * of the first event of each type (a field the samples cannot give is
 * dropped, or is an error when -F asked for it).  A pipe-mode stream's
 * events arrive as records: setup runs at its first record after them.
 */
#include "cmds.h"
#include "../engine/engine.h"
#include "../format/evname.h"
#include "../format/feature.h"
#include "../format/reader.h"
#include "../output/script_stdio.h"
#include "../session/chain.h"
#include "../session/session.h"
#include "../symbol/symbol.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/outcheck.h"
#include "../util/sysctl.h"
#include "../util/pager.h"
#include "../util/timerange.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_STACK 127	/* perf's PERF_MAX_STACK_DEPTH, the default --max-stack
			   when /proc/sys/kernel/perf_event_max_stack says none */

/* perf's output types: attr types 0-5, then its synthesized and "other"
 * (every dynamic PMU type) slots. */
enum {
	OUT_SYNTH = 6,
	OUT_OTHER = 7,
	NR_OUT_TYPES = 8,
};
#define PERF_TYPE_SYNTH 4000000000u	/* perf's attr.type of synthesized events */
#define SW_DUMMY 9			/* PERF_COUNT_SW_DUMMY */

/* The fields perf 6.1 prints by default for an event type. */
#define DEFAULT_FIELDS (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM | \
			SF_SYMOFF | SF_DSO | SF_PERIOD)
#define TRACEPOINT_FIELDS (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE)

/* -F's field names, as perf spells them. */
static const struct {
	const char *name;
	unsigned field;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVENT }, { "trace", SF_TRACE }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "dso", SF_DSO }, { "symoff", SF_SYMOFF }, { "period", SF_PERIOD },
};

/* perf's other -F fields, which prof does not print yet. */
static const char *const unsupported_fields[] = {
	"addr", "srcline", "iregs", "uregs", "brstack", "brstacksym", "flags", "data_src",
	"weight", "bpf-output", "brstackinsn", "brstackinsnlen", "brstackoff", "callindent",
	"insn", "insnlen", "synth", "phys_addr", "metric", "misc", "srccode", "ipc", "tod",
	"data_page_size", "code_page_size", "ins_lat", NULL,
};

/* The fields of one output type, as perf keeps them. */
struct out_type {
	unsigned fields;		/* what its samples print */
	unsigned user_set_fields;	/* -F named them: missing data is an error */
	unsigned user_unset_fields;	/* -F removed them */
	int user_set;			/* -F changed this type */
	int wildcard_set;		/* by a list for every type, or a
					   typed one that named a field */
};

/* What one event prints, worked out at setup. */
struct script_evsel {
	unsigned fields;
	int callchain;		/* its samples carry a call chain to print */
	int comm_unpadded;	/* perf prints its comm with "%s " */
	char name[256];
};

/*
 * The line cache: the text of a call-chain line, or of what follows the
 * address on a one-line sample, by the object and the address in it that
 * the address resolved to (in kernel mode, or outside every map: the
 * address as recorded), which is all the text depends on: the symbol of
 * an address of an object does not change.  Maps are still looked up for every frame
 * (they differ between processes and over time); only the symbol lookup
 * and the formatting are saved.  The cache is emptied when symbols may
 * change: at a KSYMBOL, a kernel MMAP (modules), an MMAP2 that brings a
 * build-id, and when the kernel's symbols load (which also fills the
 * modules'): kernel-mode lines are kept only after that.
 */
#define FRAME_BITS 15
#define FRAME_LINES (1u << FRAME_BITS)	/* direct-mapped */
#define FRAME_TEXT 232		/* longer lines are not cached */

struct frame_line {
	const struct dso *dso;	/* NULL: no map */
	u64 addr;		/* in dso (kernel mode: as recorded) */
	u16 fields;		/* 0: empty */
	u8 cpumode;
	u8 len;
	char text[FRAME_TEXT];
};

/* The tag of a one-line sample's text after its address (not a field). */
#define SF_TAIL (1u << 15)
/* The tag of a chain line with the functions inlined there (not a field). */
#define SF_INLINES (1u << 14)

struct frame_cache {
	struct frame_line *lines;	/* NULL: before setup */
	int kernel_ready;	/* the kernel map was hit (and so loaded and
				   shrunk): kernel-mode lines may be kept */
};

struct script_ctx {
	const char *input;	/* -i: file name, "-" for stdin */
	const char *comms;	/* -c/--comms */
	const char *pids, *tids;	/* --pid, --tid */
	const char *cpus;	/* -C */
	const char *time_str;	/* --time */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	int hide_callchain;	/* -G */
	int max_stack;		/* --max-stack */
	int inline_frames;	/* --inline (perf's default): unwound chain
				   addresses get their inlined functions */
	int nanosecs;		/* --ns */
	int quiet;		/* -q */
	int force, verbose;	/* -f, -v: accepted, as perf's */
	struct out_type types[NR_OUT_TYPES];	/* per output type */

	/* set up before the first sample */
	struct engine_config cfg;	/* the engine's: -C, --time, what a
					   sample is resolved to */
	struct session *session;	/* the engine's (the sample's) */
	struct script_evsel *evsels;
	u32 nr_evsels;
	int name_width;		/* the longest event name */
	int use_callchain;	/* perf's symbol_conf.use_callchain */
	struct chain_walk walk;		/* the sample's chain */
	char **comm_list;	/* --comms, NULL-terminated */
	s32 *pid_list, *tid_list;
	int nr_pids, nr_tids;
	unsigned char *cpu_bitmap;	/* NULL: every CPU */
	struct time_range *time_ranges;	/* --time, in cfg */
	struct frame_cache frames;
	int exit_status;	/* of a run that stopped at setup: 255 when
				   a check failed, 234 (perf's -EINVAL) for
				   a bad --time */
	struct script_out out;
};

static const char *const script_usage[] = {
	"prof script [<options>]",
	NULL,
};

/* ---- -F ---------------------------------------------------------------------- */

static int out_type_of(u32 attr_type)
{
	if (attr_type < OUT_SYNTH)
		return (int)attr_type;
	return attr_type == PERF_TYPE_SYNTH ? OUT_SYNTH : OUT_OTHER;
}

/* The attr type perf looks for as the events of output type t. */
static u32 attr_type_of(int t)
{
	return t == OUT_SYNTH ? PERF_TYPE_SYNTH : (u32)t;
}

static void default_fields(struct script_ctx *ctx)
{
	for (int t = 0; t < NR_OUT_TYPES; t++)
		ctx->types[t].fields = t == PD_TYPE_TRACEPOINT ? TRACEPOINT_FIELDS : DEFAULT_FIELDS;
}

/* Fields no event of type t may print (perf's invalid_fields). */
static unsigned invalid_fields(int t)
{
	return t == PD_TYPE_TRACEPOINT ? 0 : SF_TRACE;
}

static int field_bit(const char *name, unsigned *bit)
{
	for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
		if (!strcmp(name, field_names[i].name)) {
			*bit = field_names[i].field;
			return 0;
		}
	for (const char *const *u = unsupported_fields; *u; u++)
		if (!strcmp(name, *u))
			return error("-F field '%s' is not supported by prof yet", name);
	return error("invalid field requested: '%s'", name);
}

/* One field of an untyped -F applied to one type. */
static void change_field(struct out_type *o, unsigned bit, int remove)
{
	if (remove) {
		o->fields &= ~bit;
		o->user_set_fields &= ~bit;
		o->user_unset_fields |= bit;
	} else {
		o->fields |= bit;
		o->user_set_fields |= bit;
		o->user_unset_fields &= ~bit;
	}
	o->user_set = 1;
	o->wildcard_set = 1;
}

/* One field of a typed -F ("sw:..."): perf does not record it as named
 * by the user, so missing data drops it silently. */
static void change_type_field(struct out_type *o, unsigned bit, int remove)
{
	if (remove)
		o->fields &= ~bit;
	else
		o->fields |= bit;
	o->user_set = 1;
	o->wildcard_set = 1;
}

/*
 * perf's parse_output_fields(): "[type:]field,field..." sets the fields
 * of that type (or of every type), "+field" and "-field" change the
 * defaults instead; the two forms do not mix.  Types: hw, sw, trace, raw,
 * break, synth.
 */
static int fields_opt(const struct opt *opt, const char *arg, int unset)
{
	static const char *const type_names[] = { "hw", "sw", "trace", NULL, "raw", "break", "synth" };
	struct script_ctx *ctx = opt->value;
	char *str = xstrdup(arg), *list = str, *colon = strchr(str, ':'), *tok, *save;
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	int type = -1, rc = -1;

	if (colon) {
		*colon = '\0';
		list = colon + 1;
		for (int t = 0; t < OUT_OTHER; t++)
			if (type_names[t] && !strcmp(str, type_names[t]))
				type = t;
		if (type < 0) {
			error("invalid event type '%s' in field string", str);
			goto out;
		}
		if (ctx->types[type].user_set)
			warning("overriding previous field request for %s events", type_names[type]);
		if (!strchr(list, '+') && !strchr(list, '-')) {
			ctx->types[type].fields = 0;
			ctx->types[type].user_set = 1;
			ctx->types[type].wildcard_set = 0;
		}
	} else {
		if (!*list) {
			error("cannot set fields to 'none' for all event types");
			goto out;
		}
		if (!strchr(list, '+') && !strchr(list, '-')) {
			for (int t = 0; t < NR_OUT_TYPES; t++)
				if (ctx->types[t].user_set) {
					warning("overriding previous field request for all events");
					break;
				}
			for (int t = 0; t < NR_OUT_TYPES; t++) {
				ctx->types[t].fields = 0;
				ctx->types[t].user_set = 1;
				ctx->types[t].wildcard_set = 1;
			}
		}
	}
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned bit = 0;
		int remove = 0;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok == '+' ? ADD : REMOVE;
			remove = *tok++ == '-';
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		if (field_bit(tok, &bit))
			goto out;
		if (type >= 0) {
			if (invalid_fields(type) & bit) {
				error("'%s' not valid for %s events", tok, type_names[type]);
				goto out;
			}
			change_type_field(&ctx->types[type], bit, remove);
			continue;
		}
		for (int t = 0; t < NR_OUT_TYPES; t++)
			if (!(invalid_fields(t) & bit))
				change_field(&ctx->types[t], bit, remove);
	}
	rc = 0;
	goto out;
badmix:
	error("cannot mix +-field with overridden fields");
out:
	free(str);
	return rc;
}

/*
 * perf's evsel__check_stype(): a field whose sample bit the event lacks
 * is dropped, or is an error when -F named it.
 */
static int check_stype(struct out_type *o, const struct pd_file *f,
		       const struct pd_evsel *evsel, u64 bit, const char *what,
		       unsigned field, const char *field_name, int allow_user_set)
{
	char name[256];

	if (evsel->attr.sample_type & bit)
		return 0;
	if (o->user_set_fields & field) {
		if (allow_user_set)
			return 0;
		return error("samples for '%s' event do not have %s attribute set: "
			     "cannot print '%s' field",
			     pd_evsel_name(f, evsel, name, sizeof(name)), what, field_name);
	}
	o->fields &= ~field;
	return 0;
}

/* perf's evsel__check_attr() for the fields prof prints. */
static int check_attr(struct out_type *o, struct pd_file *f,
		      const struct pd_evsel *evsel)
{
	u64 st = evsel->attr.sample_type;
	int allow_user_set = pd_has_feature(f, PD_FEAT_AUXTRACE);

	if (evsel->attr.type == PD_TYPE_SOFTWARE && evsel->attr.config == SW_DUMMY)
		return 0;
	if (pd_has_feature(f, PD_FEAT_STAT))
		return 0;
	if ((o->fields & SF_IP) &&
	    check_stype(o, f, evsel, PD_SAMPLE_IP, "IP", SF_IP, "ip", 0))
		return -1;
	if ((o->fields & SF_SYM) && !(st & (PD_SAMPLE_IP | PD_SAMPLE_ADDR)))
		return error("display of symbols requested but neither sample IP nor "
			     "sample address available: no addresses to convert to symbols");
	if ((o->fields & SF_SYMOFF) && !(o->fields & SF_SYM))
		return error("display of offsets requested but symbol is not selected");
	if ((o->fields & SF_DSO) && !(st & (PD_SAMPLE_IP | PD_SAMPLE_ADDR)))
		return error("display of DSO requested but no address to convert");
	if ((o->fields & (SF_PID | SF_TID)) &&
	    check_stype(o, f, evsel, PD_SAMPLE_TID, "TID", SF_TID | SF_PID, "tid", 0))
		return -1;
	if ((o->fields & SF_TIME) &&
	    check_stype(o, f, evsel, PD_SAMPLE_TIME, "TIME", SF_TIME, "time", 0))
		return -1;
	if ((o->fields & SF_CPU) &&
	    check_stype(o, f, evsel, PD_SAMPLE_CPU, "CPU", SF_CPU, "cpu", allow_user_set))
		return -1;
	return 0;
}

/* ---- the line cache ------------------------------------------------------ */

static void frames_init(struct frame_cache *fc)
{
	fc->lines = xcalloc(FRAME_LINES, sizeof(*fc->lines));
}

static void frames_free(struct frame_cache *fc)
{
	free(fc->lines);
}

static void frames_clear(struct frame_cache *fc)
{
	memset(fc->lines, 0, FRAME_LINES * sizeof(*fc->lines));
}

/* Empties the cache before a record that may change symbols reaches
 * the session. */
static void frames_record(struct frame_cache *fc, const struct pd_header *h)
{
	if (!fc->lines)
		return;
	if (h->type == PD_REC_KSYMBOL ||
	    ((h->type == PD_REC_MMAP || h->type == PD_REC_MMAP2) &&
	     (h->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL) ||
	    (h->type == PD_REC_MMAP2 && (h->misc & PD_MISC_EXACT_IP)))
		frames_clear(fc);
}

/* The slot of a frame line. */
static struct frame_line *frame_slot(struct frame_cache *fc, const struct dso *dso, u64 addr)
{
	u64 h = (addr ^ (u64)(uintptr_t)dso) * 0x9e3779b97f4a7c15ULL;

	return &fc->lines[h >> (64 - FRAME_BITS)];
}

/* ---- setup ------------------------------------------------------------------- */

/* A comma-separated list of integers (perf's intlist). */
static int parse_ints(const char *str, const char *what, s32 **out, int *nr)
{
	char *copy = xstrdup(str), *tok, *save, *end;
	int n = 0;

	*out = xcalloc(strlen(str) / 2 + 2, sizeof(**out));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v = strtol(tok, &end, 10);

		if (*end || end == tok) {
			error("problems parsing %s list: '%s'", what, tok);
			free(copy);
			return -1;
		}
		(*out)[n++] = (s32)v;
	}
	free(copy);
	*nr = n;
	return 0;
}

/* --comms: the names, NULL-terminated (one allocation). */
static char **parse_comms(const char *str)
{
	size_t n = 2, len = strlen(str) + 1;
	char **list, *copy, *tok, *save;
	int i = 0;

	for (const char *p = str; *p; p++)
		n += *p == ',';
	list = xmalloc(n * sizeof(*list) + len);
	copy = memcpy((char *)(list + n), str, len);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		list[i++] = tok;
	list[i] = NULL;
	return list;
}

/* --time: perf's percent ranges need the recording's sample times. */
static int setup_time(struct script_ctx *ctx, struct pd_file *f)
{
	struct pd_feat_env env;

	memset(&env, 0, sizeof(env));
	if (strchr(ctx->time_str, '%')) {
		pd_feature_decode(f, PD_FEAT_SAMPLE_TIME, &env);
		if (!env.first_sample_time && !env.last_sample_time) {
			error("--time: %s has no first/last sample time (HEADER_SAMPLE_TIME): "
			      "percentages need a file recorded by a newer perf", f->path);
			return -EINVAL;
		}
	}
	ctx->cfg.nr_time_ranges = time_ranges_parse(ctx->time_str, env.first_sample_time,
						    env.last_sample_time, &ctx->time_ranges);
	ctx->cfg.time_ranges = ctx->time_ranges;
	if (ctx->cfg.nr_time_ranges < 0) {
		error("invalid time string '%s'", ctx->time_str);
		return -EINVAL;
	}
	return 0;
}

/*
 * perf's perf_session__check_output_opt() (a file) or process_attr() (a
 * stream, where the events come one by one): each type's fields checked
 * against the first event of the type; then what each event prints.
 */
static int setup_fields(struct script_ctx *ctx, struct pd_file *f)
{
	static const char *const type_desc[NR_OUT_TYPES] = {
		"hardware", "software", "tracepoint", "hardware-cache", "raw", "breakpoint",
		"synth", "unknown",
	};
	u64 combined = 0;
	int seen[NR_OUT_TYPES] = { 0 };

	/* a type whose fields -F emptied must have events (a stream's come
	   later: perf checks before it has any) */
	for (int t = 0; t < NR_OUT_TYPES; t++) {
		int found = 0;

		if (!ctx->types[t].user_set || ctx->types[t].wildcard_set || t == OUT_SYNTH)
			continue;
		for (u32 i = 0; i < f->nr_evsel && !f->pipe_mode; i++)
			found |= f->evsel[i].attr.type == attr_type_of(t);
		if (!found)
			return error("%s events do not exist: remove the corresponding -F option "
				     "to proceed", type_desc[t]);
	}

	for (u32 i = 0; i < f->nr_evsel; i++)
		combined |= f->evsel[i].attr.sample_type;
	ctx->use_callchain = !ctx->hide_callchain;
	if (!f->pipe_mode && f->nr_evsel && !(combined & PD_SAMPLE_CALLCHAIN))
		ctx->use_callchain = 0;
	combined = 0;
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *evsel = &f->evsel[i];
		int t = out_type_of(evsel->attr.type);
		struct out_type *o = &ctx->types[t];

		combined |= evsel->attr.sample_type;
		if (f->pipe_mode) {
			/* process_attr(): the first event of each type; types
			   past perf's table are not checked */
			if (t == OUT_OTHER || seen[t])
				continue;
			seen[t] = 1;
			/* perf fails at the record: its status is -EINVAL's */
			if (evsel->attr.sample_type && check_attr(o, f, evsel)) {
				ctx->exit_status = 256 - EINVAL;
				return -1;
			}
			if (ctx->use_callchain && (combined & PD_SAMPLE_CALLCHAIN)) {
				o->fields |= SF_IP & ~o->user_unset_fields;
				o->fields |= SF_SYM & ~o->user_unset_fields;
			}
			continue;
		}
		/* perf checks the first event whose attr type is the output
		   type's own number: "other" events (dynamic PMUs) are not */
		if (evsel->attr.type != attr_type_of(t) || seen[t])
			continue;
		seen[t] = 1;
		if (o->fields && check_attr(o, f, evsel))
			return -1;
	}
	/* tracepoints with call chains show them (unless -F changed them) */
	if (!f->pipe_mode && ctx->use_callchain && !ctx->types[PD_TYPE_TRACEPOINT].user_set)
		for (u32 i = 0; i < f->nr_evsel; i++)
			if (f->evsel[i].attr.type == PD_TYPE_TRACEPOINT &&
			    (f->evsel[i].attr.sample_type & PD_SAMPLE_CALLCHAIN)) {
				ctx->types[PD_TYPE_TRACEPOINT].fields |= SF_IP | SF_SYM | SF_DSO;
				break;
			}

	ctx->nr_evsels = f->nr_evsel;
	ctx->evsels = xcalloc(f->nr_evsel ? f->nr_evsel : 1, sizeof(*ctx->evsels));
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *evsel = &f->evsel[i];
		struct script_evsel *se = &ctx->evsels[i];
		int len;

		se->fields = ctx->types[out_type_of(evsel->attr.type)].fields;
		se->callchain = ctx->use_callchain && (evsel->attr.sample_type & PD_SAMPLE_CALLCHAIN);
		se->comm_unpadded = (se->fields & SF_IP) && se->callchain;
		/* perf script names a stream's events as the stream does */
		if (evsel->stream_name)
			snprintf(se->name, sizeof(se->name), "%s", evsel->stream_name);
		else
			pd_evsel_name(f, evsel, se->name, sizeof(se->name));
		len = (int)strlen(se->name);
		if (len > ctx->name_width)
			ctx->name_width = len;
	}
	return 0;
}

/*
 * Everything decided before the first sample.  Returns 0 to go on, a
 * positive value when the run is over (ctx->exit_status says how), -1 on
 * error.
 */
/* The engine's configure hook: the checks and setup perf makes before
 * the first sample. */
static int script_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	struct script_ctx *ctx = arg;
	u64 sample_type = 0;

	ctx->exit_status = 255;	/* until the checks have passed */
	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	if (ctx->cpus) {
		if (!(sample_type & PD_SAMPLE_CPU)) {
			error("file does not contain CPU events: remove -C to proceed");
			return -1;
		}
		if (cpu_list_parse(ctx->cpus, &ctx->cpu_bitmap, pd_feature_nr_cpus(f, CPU_LIST_MAX)))
			return -1;
	}
	if (ctx->comms)
		ctx->comm_list = parse_comms(ctx->comms);
	/* perf prints nothing and exits 0 on a bad list */
	if ((ctx->pids && parse_ints(ctx->pids, "pid", &ctx->pid_list, &ctx->nr_pids)) ||
	    (ctx->tids && parse_ints(ctx->tids, "tid", &ctx->tid_list, &ctx->nr_tids))) {
		ctx->exit_status = 0;
		return 1;
	}
	if (setup_fields(ctx, f))
		return -1;
	if (ctx->time_str && setup_time(ctx, f)) {
		ctx->exit_status = 256 - EINVAL;
		return 1;
	}
	ctx->exit_status = 0;
	frames_init(&ctx->frames);
	/* the symbols are looked up through the line cache (put_cached()) */
	cfg->resolve_flags = SESSION_NO_SYMBOL;
	return 0;
}

/* ---- samples ----------------------------------------------------------------- */

static int in_list(const s32 *list, int nr, s32 v)
{
	for (int i = 0; i < nr; i++)
		if (list[i] == v)
			return 1;
	return 0;
}

/* perf's thread filters (symbol_conf.comm_list, pid_list, tid_list). */
static int thread_filtered(const struct script_ctx *ctx, const struct addr_location *al)
{
	if (ctx->comm_list) {
		char **c = ctx->comm_list;

		while (*c && strcmp(*c, al->comm))
			c++;
		if (!*c)
			return 1;
	}
	if (ctx->pid_list && !in_list(ctx->pid_list, ctx->nr_pids, al->pid))
		return 1;
	if (ctx->tid_list && !in_list(ctx->tid_list, ctx->nr_tids, al->tid))
		return 1;
	return 0;
}

/* One resolved address as perf prints it; kernel addresses and those
 * without a map are shown as recorded, user ones relative to their
 * object (chain frames only: the sample's own ip is always absolute);
 * objects by the name perf gives them (dso->name). */
static void put_frame(struct script_ctx *ctx, unsigned fields, const struct addr_location *al,
		      u64 ip, int chain_line)
{
	struct script_addr a = {
		.ip = ip,
		.sym = al->sym,
		.addr = al->addr,
		.map = al->map,
		.dso = al->map ? dso_long_name(al->dso) : "[unknown]",
	};

	/* perf names a module by its "[name]", unless the file's build-id
	   table listed it (then it made the dso by its path first) */
	if (al->map && a.dso[0] != '[' && session_dso_is_kernel(al->dso) &&
	    !al->dso->build_id_size)
		a.dso = dso_short_name(al->dso);

	if (chain_line && al->map && al->cpumode != PD_MISC_KERNEL)
		a.ip = al->addr;
	script_put_addr(&ctx->out, fields, &a, chain_line);
}

/*
 * Writes an address resolved without its symbol (SESSION_NO_SYMBOL) with
 * the fields given, from the line cache or looked up and formatted and
 * then kept: a whole call-chain line, or (tail) what follows the address
 * on a one-line sample, whose address as recorded differs between
 * processes.  With inlines (the walk of an unwound chain address that
 * chain_frame_inlines() says so of), the lines of the functions inlined
 * there take its place, as perf's append_inlines() has it, and are kept
 * as one text.
 */
static void put_cached(struct script_ctx *ctx, unsigned fields, struct addr_location *node,
		       u64 ip, int cpumode, int chain_line, const struct chain_walk *inlines)
{
	struct frame_cache *fc = &ctx->frames;
	u64 key = !node->map || cpumode == PD_MISC_KERNEL ? ip : node->addr;
	unsigned tag = fields | (chain_line ? 0 : SF_TAIL) | (inlines ? SF_INLINES : 0);
	const struct symbol *const *syms;
	u32 nr_inlines = 0;
	struct frame_line *line = frame_slot(fc, node->dso, key);
	size_t at;

	if (line->dso == node->dso && line->addr == key && line->fields == tag &&
	    line->cpumode == cpumode) {
		script_put_mem(&ctx->out, line->text, line->len);
		return;
	}
	node->sym = NULL;
	if (node->dso && ((fields & SF_SYM) || inlines))
		node->sym = session_find_symbol(ctx->session, node->dso, node->addr);
	at = ctx->out.len;
	if (inlines)
		nr_inlines = chain_inlines(inlines, node, &syms);
	if (nr_inlines) {
		struct addr_location entry = *node;

		for (u32 i = 0; i < nr_inlines; i++) {
			entry.sym = chain_inline_sym(inlines, syms, nr_inlines, i);
			put_frame(ctx, fields, &entry, ip, chain_line);
		}
	} else {
		put_frame(ctx, fields, node, ip, chain_line);
	}
	if (cpumode == PD_MISC_KERNEL && !fc->kernel_ready) {
		/* kernel-mode lines are kept once the kernel's symbols (and
		   with them the modules') are loaded */
		if (node->map && !strcmp(dso_long_name(node->dso), "[kernel.kallsyms]")) {
			fc->kernel_ready = 1;
			frames_clear(fc);
		}
		return;
	}
	/* not kept: lines too long, and offsets perf takes from the map */
	if (ctx->out.len - at > FRAME_TEXT || (node->sym && node->addr >= symbol_end(node->sym)))
		return;
	line->dso = node->dso;
	line->addr = key;
	line->fields = (u16)tag;
	line->cpumode = (u8)cpumode;
	line->len = (u8)(ctx->out.len - at);
	memcpy(line->text, ctx->out.buf + at, line->len);
}

/*
 * The sample's call chain, printed as it goes (through the line cache),
 * as perf script walks it: callee order, at most --max-stack recorded
 * addresses, a marker perf does not know dropping the chain (see
 * session/chain.h).
 */
static void put_callchain(struct script_ctx *ctx, unsigned fields, struct engine_sample *s)
{
	struct chain_walk *w = &ctx->walk;
	struct chain_frame f;
	size_t start = ctx->out.len;
	int r;

	engine_chain_begin(s, w, CHAIN_CALLEE, ctx->max_stack,
			   ENGINE_CHAIN_UNWIND | (ctx->inline_frames ? ENGINE_CHAIN_INLINES : 0));
	while ((r = chain_next(w, &f)) == CHAIN_FRAME) {
		struct addr_location node;

		chain_resolve(w, f.ip, f.cpumode, &node);
		put_cached(ctx, fields, &node, f.ip, f.cpumode, 1,
			   chain_frame_inlines(w, &f) ? w : NULL);
	}
	if (r == CHAIN_DROPPED)
		ctx->out.len = start;
}

/* Every record: those other than samples may end the line cache's
 * entries. */
static int script_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct script_ctx *ctx = vctx;

	(void)f;
	if (ev->hdr->type != PD_REC_SAMPLE)
		frames_record(&ctx->frames, ev->hdr);
	else if (ev->evsel && ev->evsel->idx >= ctx->nr_evsels)
		return ENGINE_SKIP;
	return 0;
}

/* perf script's -C, before the sample is resolved: a sample without a
 * CPU passes. */
static int script_filter(void *vctx, struct engine_sample *s)
{
	const struct script_ctx *ctx = vctx;
	u32 cpu = s->sample.cpu;

	if (ctx->cpu_bitmap && cpu != (u32)-1 &&
	    (cpu >= CPU_LIST_MAX || !(ctx->cpu_bitmap[cpu / 8] & (1 << (cpu % 8)))))
		return ENGINE_SKIP;
	return 0;
}

static int script_sample(void *vctx, struct engine_sample *s)
{
	struct script_ctx *ctx = vctx;
	const struct pd_sample *sample = &s->sample;
	const struct script_evsel *se = &ctx->evsels[s->evsel->idx];
	struct script_head head;

	ctx->session = s->session;
	if (thread_filtered(ctx, &s->al) || !se->fields)
		return 0;

	head.comm = s->al.comm;
	head.comm_unpadded = se->comm_unpadded;
	head.pid = (s32)sample->pid;
	head.tid = (s32)sample->tid;
	head.cpu = sample->cpu;
	head.time = sample->time;
	head.nanosecs = ctx->nanosecs;
	/* without PERIOD perf shows the attr's period */
	head.period = sample->sample_type & PD_SAMPLE_PERIOD ? sample->period
							     : s->evsel->attr.sample_period;
	head.event = se->name;
	head.event_width = ctx->name_width;
	script_put_head(&ctx->out, se->fields, &head);
	if (se->fields & SF_IP) {
		if (se->callchain) {
			script_put_char(&ctx->out, '\n');
			put_callchain(ctx, se->fields, s);
		} else {
			script_put_char(&ctx->out, ' ');
			put_frame(ctx, SF_IP, &s->al, sample->ip, 0);
			put_cached(ctx, se->fields & ~SF_IP, &s->al, sample->ip, s->al.cpumode, 0,
				   NULL);
		}
	}
	script_put_char(&ctx->out, '\n');
	if (script_out_maybe_flush(&ctx->out))
		return -1;
	return 0;
}

/* ---- the command ------------------------------------------------------------- */

static void script_release(struct script_ctx *ctx)
{
	free(ctx->evsels);
	free(ctx->comm_list);
	free(ctx->pid_list);
	free(ctx->tid_list);
	free(ctx->cpu_bitmap);
	free(ctx->time_ranges);
	frames_free(&ctx->frames);
	script_out_free(&ctx->out);
}

int cmd_script(int argc, char **argv)
{
	/* perf's default --max-stack: the running kernel's */
	struct script_ctx ctx = {
		.max_stack = sysctl_int("kernel/perf_event_max_stack", MAX_STACK, 0),
		.inline_frames = 1,
	};
	const struct opt opts[] = {
		OPT_STRING('i', "input", &ctx.input, "file", "input file name"),
		OPT_CALLBACK('F', "fields", &ctx, "[type:]field,...",
			     "output fields (comm, tid, pid, time, cpu, event, period, ip, sym, "
			     "symoff, dso), or +field/-field; type: hw, sw, trace, raw, break, synth",
			     fields_opt),
		OPT_STRING('c', "comms", &ctx.comms, "comm[,comm...]", "only display events for these comms"),
		OPT_STRING(0, "pid", &ctx.pids, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_STRING(0, "tid", &ctx.tids, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING('C', "cpu", &ctx.cpus, "cpu", "list of cpus to profile"),
		OPT_STRING(0, "time", &ctx.time_str, "str", "time span of interest (start,stop)"),
		OPT_BOOLEAN('G', "hide-call-graph", &ctx.hide_callchain,
			    "when printing symbols do not display call chain"),
		OPT_INTEGER(0, "max-stack", &ctx.max_stack,
			    "set the maximum stack depth when parsing the callchain "
			    "(default: kernel.perf_event_max_stack or 127)"),
		OPT_BOOLEAN(0, "inline", &ctx.inline_frames, "show inline function (default)"),
		OPT_BOOLEAN(0, "ns", &ctx.nanosecs, "use 9 decimal places when displaying time"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx.symfs, "directory", "look for files with symbols relative to this directory"),
		OPT_BOOLEAN('f', "force", &ctx.force, "don't complain, do it"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "do not show any warnings or messages"),
		OPT_INCR('v', "verbose", &ctx.verbose, "be more verbose"),
		OPT_END(),
	};
	const struct engine_consumer consumer = {
		.record = script_record, .filter = script_filter, .sample = script_sample, .arg = &ctx,
	};
	struct engine *eng;
	struct pd_file f;
	int argc_left, ret;

	default_fields(&ctx);
	argc_left = opt_parse(argc, argv, opts, script_usage, 0);
	if (argc_left)
		opt_usage_error(script_usage, opts, "unexpected argument '%s'", argv[0]);
	if (!ctx.input)
		ctx.input = pd_default_input();
	if (ctx.quiet)
		error_set_quiet(1);
	if (pd_open(&f, ctx.input, 0)) {
		pd_close(&f);
		return 1;
	}
	pager_start();
	script_out_init(&ctx.out, 1);
	ctx.cfg.sopts.vmlinux = ctx.vmlinux;
	ctx.cfg.sopts.symfs = ctx.symfs;
	ctx.cfg.threads = 1;
	eng = engine_new(&ctx.cfg, script_configure, &ctx);
	ret = engine_stream(eng, &f, &consumer);
	/* what was printed before an error stays printed, as with perf; a
	   reader that went away (the pager quit) ends the run quietly */
	if (script_out_flush(&ctx.out))
		ret = output_error(NULL, ctx.out.saved_errno);
	engine_free(eng);
	script_release(&ctx);
	pd_close(&f);
	if (ret > 0 || ctx.exit_status)
		return ctx.exit_status;
	return ret < 0 ? 1 : 0;
}
