/*
 * script.c - "prof script": prints every sample of a perf.data file, one
 * line each or with its call chain, as "perf script" (perf 6.1) does.
 *
 * A consumer of the engine's sample stream: every record goes to the
 * session model in delivery order and each sample that passes the filters
 * (--time, -C, --comms, --pid, --tid) is resolved (thread, comm, map; its
 * call chain walked by the call-chain cursor, callee first) and handed to
 * the sample printer (output/script_sample.c), which writes it at once
 * into a big output buffer, symbols looked up through its line cache.
 * This file holds the options, perf's field rules and checks, the filters
 * and the stream's hooks.
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
#include "../output/script_sample.h"
#include "../session/chain.h"
#include "../session/session.h"
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
/* perf 6.1 adds these for raw events (each dropped when the samples do not
 * carry it) */
#define RAW_FIELDS (DEFAULT_FIELDS | SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_INS_LAT | \
		    SF_PHYS_ADDR | SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE)
#define TRACEPOINT_FIELDS (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE)

/* -F's field names, as perf spells them. */
static const struct {
	const char *name;
	unsigned field;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVENT }, { "trace", SF_TRACE }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "dso", SF_DSO }, { "symoff", SF_SYMOFF }, { "period", SF_PERIOD },
	{ "data_src", SF_DATA_SRC }, { "weight", SF_WEIGHT }, { "ins_lat", SF_INS_LAT },
	{ "phys_addr", SF_PHYS_ADDR }, { "data_page_size", SF_DATA_PAGE_SIZE },
	{ "code_page_size", SF_CODE_PAGE_SIZE },
	{ "brstack", SF_BRSTACK }, { "brstacksym", SF_BRSTACKSYM },
};

/* perf's other -F fields, which prof does not print yet. */
static const char *const unsupported_fields[] = {
	"addr", "srcline", "iregs", "uregs", "flags",
	"bpf-output", "brstackinsn", "brstackinsnlen", "brstackoff", "callindent",
	"insn", "insnlen", "synth", "metric", "misc", "srccode", "ipc", "tod", NULL,
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
	struct script_event *evsels;	/* what each event prints */
	u32 nr_evsels;
	int use_callchain;	/* perf's symbol_conf.use_callchain */
	struct chain_walk walk;		/* the sample's chain */
	char **comm_list;	/* --comms, NULL-terminated */
	s32 *pid_list, *tid_list;
	int nr_pids, nr_tids;
	unsigned char *cpu_bitmap;	/* NULL: every CPU */
	struct time_range *time_ranges;	/* --time, in cfg */
	int exit_status;	/* of a run that stopped at setup: 255 when
				   a check failed, 234 (perf's -EINVAL) for
				   a bad --time */
	struct script_printer pr;	/* the output and its line cache */
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
		ctx->types[t].fields = t == PD_TYPE_TRACEPOINT ? TRACEPOINT_FIELDS :
				       t == PD_TYPE_RAW ? RAW_FIELDS : DEFAULT_FIELDS;
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
	/* addr (raw events' default; -F cannot name it yet) */
	if (!(st & PD_SAMPLE_ADDR))
		o->fields &= ~SF_ADDR;
	if ((o->fields & SF_DATA_SRC) &&
	    check_stype(o, f, evsel, PD_SAMPLE_DATA_SRC, "DATA_SRC", SF_DATA_SRC, "data_src", 0))
		return -1;
	if ((o->fields & SF_WEIGHT) &&
	    check_stype(o, f, evsel, PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT",
			SF_WEIGHT, "weight", 0))
		return -1;
	if ((o->fields & SF_PHYS_ADDR) &&
	    check_stype(o, f, evsel, PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SF_PHYS_ADDR, "phys_addr",
			allow_user_set))
		return -1;
	if ((o->fields & SF_DATA_PAGE_SIZE) &&
	    check_stype(o, f, evsel, PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
			SF_DATA_PAGE_SIZE, "data_page_size", 0))
		return -1;
	if ((o->fields & SF_CODE_PAGE_SIZE) &&
	    check_stype(o, f, evsel, PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
			SF_CODE_PAGE_SIZE, "code_page_size", 0))
		return -1;
	if ((o->fields & SF_INS_LAT) &&
	    check_stype(o, f, evsel, PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SF_INS_LAT,
			"ins_lat", 0))
		return -1;
	return 0;
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
				ctx->types[PD_TYPE_TRACEPOINT].fields |=
					SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
				break;
			}

	ctx->nr_evsels = f->nr_evsel;
	ctx->evsels = xcalloc(f->nr_evsel ? f->nr_evsel : 1, sizeof(*ctx->evsels));
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *evsel = &f->evsel[i];
		struct script_event *se = &ctx->evsels[i];
		int len;

		se->fields = ctx->types[out_type_of(evsel->attr.type)].fields;
		se->callchain = ctx->use_callchain && (evsel->attr.sample_type & PD_SAMPLE_CALLCHAIN);
		se->attr_period = evsel->attr.sample_period;
		if (evsel->attr.type == PD_TYPE_TRACEPOINT && ctx->pr.tf)
			se->tp = trace_formats_event(ctx->pr.tf, evsel->attr.config);
		/* perf script names a stream's events as the stream does */
		if (evsel->stream_name)
			snprintf(se->name, sizeof(se->name), "%s", evsel->stream_name);
		else
			pd_evsel_name(f, evsel, se->name, sizeof(se->name));
		len = (int)strlen(se->name);
		if (len > ctx->pr.name_width)
			ctx->pr.name_width = len;
	}
	return 0;
}

/*
 * The engine's configure hook: the checks and setup perf makes before the
 * first sample.  Returns 0 to go on, a positive value when the run is
 * over (ctx->exit_status says how), -1 on error.
 */
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
	/* tracepoint fields print from the file's event formats */
	for (u32 i = 0; i < f->nr_evsel && f->feat_data[PD_FEAT_TRACING_DATA]; i++)
		if (f->evsel[i].attr.type == PD_TYPE_TRACEPOINT) {
			ctx->pr.tf = trace_formats_parse(f->feat_data[PD_FEAT_TRACING_DATA],
							 f->feat_size[PD_FEAT_TRACING_DATA], f->path);
			if (ctx->pr.tf)
				script_printer_trace(&ctx->pr);
			break;
		}
	if (setup_fields(ctx, f))
		return -1;
	if (ctx->time_str && setup_time(ctx, f)) {
		ctx->exit_status = 256 - EINVAL;
		return 1;
	}
	ctx->exit_status = 0;
	/* the printer looks the symbols up through its line cache */
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

/* Every record: those other than samples may end the line cache's
 * entries. */
static int script_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct script_ctx *ctx = vctx;

	(void)f;
	if (ev->hdr->type != PD_REC_SAMPLE)
		script_printer_record(&ctx->pr, ev->hdr);
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

/* A sample that passed the filters: its chain walked (when printed)
 * and handed to the printer. */
static int script_sample(void *vctx, struct engine_sample *s)
{
	struct script_ctx *ctx = vctx;
	const struct script_event *se = &ctx->evsels[s->evsel->idx];
	struct chain_walk *w = NULL;

	if (thread_filtered(ctx, &s->al) || !se->fields)
		return 0;
	if (script_event_chain(se)) {
		w = &ctx->walk;
		engine_chain_begin(s, w, CHAIN_CALLEE, ctx->max_stack,
				   ENGINE_CHAIN_UNWIND |
				   (ctx->inline_frames ? ENGINE_CHAIN_INLINES : 0));
	}
	return script_print_sample(&ctx->pr, se, s->session, &s->sample, &s->al, w);
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
	trace_formats_free(ctx->pr.tf);
	script_printer_free(&ctx->pr);
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
	script_printer_init(&ctx.pr, 1);
	ctx.pr.nanosecs = ctx.nanosecs;
	ctx.cfg.sopts.vmlinux = ctx.vmlinux;
	ctx.cfg.sopts.symfs = ctx.symfs;
	ctx.cfg.threads = 1;
	eng = engine_new(&ctx.cfg, script_configure, &ctx);
	ret = engine_stream(eng, &f, &consumer);
	/* what was printed before an error stays printed, as with perf; a
	   reader that went away (the pager quit) ends the run quietly */
	if (script_out_flush(&ctx.pr.out))
		ret = output_error(NULL, ctx.pr.out.saved_errno);
	engine_free(eng);
	script_release(&ctx);
	pd_close(&f);
	if (ret > 0 || ctx.exit_status)
		return ctx.exit_status;
	return ret < 0 ? 1 : 0;
}
