/*
 * report.c - "prof report": reads a perf.data file and prints its profile
 * with call graphs when the file has call chains (the default, as "perf
 * report --stdio"), its header (--header-only), its record counts
 * (--stats, with call-chain statistics after perf's counts when the file
 * has call chains, unless -g none) or every record (-D).
 *
 * The flat report feeds every record to the session model and every
 * sample, resolved, to the histogram of its event; then prints one section
 * per event that has samples.  Output goes through a pager when stdout is
 * a terminal; a progress line is drawn on stderr when it is a terminal and
 * the work takes more than about a second.
 *
 * With a symbol sort key and two CPUs the flat report runs on two threads:
 * this one reads the records, keeps the session model and resolves each
 * sample to its thread, comm, map and DSO (the part that depends on the
 * order of the records); the histogram thread looks the symbols up and
 * adds to the histograms.  They talk through a batchq of the items below,
 * in record order, so the result is that of one thread.
 */
#include "cmds.h"
#include "../analysis/chainstats.h"
#include "../analysis/hist.h"
#include "../format/evname.h"
#include "../format/feature.h"
#include "../format/reader.h"
#include "../output/dump.h"
#include "../output/header.h"
#include "../output/report_stdio.h"
#include "../output/stats.h"
#include "../session/session.h"
#include "../util/batchq.h"
#include "../util/cpu.h"
#include "../util/error.h"
#include "../util/hash.h"
#include "../util/opt.h"
#include "../util/sysctl.h"
#include "../util/pager.h"
#include "../util/timerange.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_STACK 127	/* perf's PERF_MAX_STACK_DEPTH, the default --max-stack
			   when /proc/sys/kernel/perf_event_max_stack says none */

/* One symbol to look up (lookup_cached()): where, where it goes, and its
 * chain item (NULL for the sample's own symbol). */
struct sym_lookup {
	struct dso *dso;
	u64 addr;
	const struct symbol **sym;
	struct cc_item *item;
	u32 slot;		/* in the cache */
};

/*
 * The cache of call-graph symbol lookups (on the histogram thread with
 * ctx->cg_lookup, else on this one), direct mapped: (dso, map-relative
 * address) to symbol and match value.  The addresses of call chains
 * repeat, and a hit reads one slot where a lookup reads a bucket, ranges
 * and the symbol.  A slot of an older generation is empty: the session's
 * sync hook (sync_chains()) starts a new generation before the session
 * changes any symbol.
 */
#define SYM_CACHE_BITS 16

struct sym_cache_slot {
	const struct dso *dso;
	u64 addr;
	const struct symbol *sym;
	u64 match;		/* cc_item_match() by function of an item
				   with sym (not NULL) */
	u32 gen;
};

struct sym_cache {
	struct sym_cache_slot slot[1u << SYM_CACHE_BITS];
	u32 gen;		/* starts at 1: zeroed slots are empty */
};

static u32 sym_cache_slot(const struct dso *dso, u64 addr)
{
	return (u32)(hash_u64(addr ^ (u64)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL) >>
		     (64 - SYM_CACHE_BITS));
}

/* A sample's call chain resolved as perf's callchain cursor holds it; the
 * arrays have room for alloc items (chain_room()). */
struct chain_cursor {
	struct cc_item *items;		/* in the graph's order */
	struct addr_location *als;	/* each item resolved */
	char *levels;			/* the privilege level perf gives each
					   item as a children-mode entry */
	u64 *ips;			/* add_chain(): the addresses */
	u8 *modes;			/* and their cpumodes */
	struct sym_lookup *lookups;	/* lookup_symbols()'s */
	u32 nr, alloc;
};

/* Makes room for a chain of n items in c. */
static void chain_room(struct chain_cursor *c, u64 n)
{
	if (n <= c->alloc)
		return;
	if (n > 1u << 24)
		die("call chain of %llu entries", (unsigned long long)n);
	c->alloc = (u32)n;
	c->items = xrealloc(c->items, c->alloc * sizeof(*c->items));
	c->als = xrealloc(c->als, c->alloc * sizeof(*c->als));
	c->levels = xrealloc(c->levels, c->alloc);
	c->ips = xrealloc(c->ips, c->alloc * sizeof(*c->ips));
	c->modes = xrealloc(c->modes, c->alloc);
	c->lookups = xrealloc(c->lookups, c->alloc * sizeof(*c->lookups));
}

static void chain_free(struct chain_cursor *c)
{
	free(c->items);
	free(c->als);
	free(c->levels);
	free(c->ips);
	free(c->modes);
	free(c->lookups);
}

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
	struct callchain_param cg;	/* -g (and --percent-limit's threshold) */
	int cg_given;			/* -g was used */
	int inverted;			/* -G */
	int max_stack;			/* --max-stack */
	int inline_frames;		/* --inline (perf's default): unwound
					   addresses get their inlined
					   functions (session_inlines()) */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	int threads;			/* --threads: 1 keeps to one thread */

	/* processing state */
	struct session *session;
	struct hist_strings *strs;
	struct hists *hists;		/* one per evsel */
	u32 nr_hists;			/* the evsels known at setup */
	int setup_done;			/* report_setup() ran */
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
	int sample_flags;		/* what a sample is resolved with (set up
					   with the threads) */
	struct batchq *pipe;		/* symbol keys on two threads: samples go
					   to the histogram thread through it */
	struct hists *pipe_hists;	/* histogram thread: the last sample's */
	const unsigned char **pipe_items;	/* histogram thread: where the
					   items of its batch start */
	struct flat_ahead *pipe_ahead;	/* and what it found ahead for them */
	int park;			/* samples whose DSO is not loaded yet
					   wait for it (no chain nodes) */
	u64 nr_prepared;		/* samples handed over (their numbers) */
	struct item_sample *parked;	/* histogram thread: samples waiting
					   for their DSOs, in order */
	u32 nr_parked, parked_room;
	struct dso **park_dsos;		/* the DSOs they wait for */
	u32 nr_park_dsos, park_dsos_room;
	struct chain_cursor cursor;	/* the sample's chain */
	struct dwarf_chain dwarf_chain;	/* a dwarf sample's joined chain */
	struct batchq *cg_pipe;		/* call graphs on two threads: samples
					   and chains go to the histogram
					   thread through it */
	struct cc_walk *cg_walks;	/* the histogram thread's scratch */
	u32 cg_walks_room;
	struct batchq *rec_pipe;	/* and from it, chains to the record
					   thread */
	struct rec_ahead *rec_ahead;	/* the record thread's scratch: a
					   batch's items and their keys */
	int cg_lookup;			/* the histogram thread looks the
					   symbols of call-graph samples up
					   (see item_chain) */
	struct sym_lookup *lookups;	/* its scratch: a batch's lookups */
	const struct item_chain **chain_items;	/* and where its items start */
	struct cc_chain_hash *chain_keys;	/* and their record keys
						   (children mode) */
	struct sym_cache *sym_cache;	/* call graphs: the cache of the
					   thread that looks symbols up */
	struct chainstats *chainstats;	/* --stats on a file with call chains */
	u64 nr_records;
	double progress_start, progress_last;
	int progress_shown;
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

/* Splits a comma-separated list into a NULL-terminated, duplicate-free
 * array (perf's strlist).  *nr gets the number of items.  The strings live
 * in one copy, kept after the NULL for free_list(). */
static const char **split_list(const char *str, int *nr)
{
	char *copy = xstrdup(str), *tok, *save;
	const char **list = xcalloc(strlen(str) / 2 + 3, sizeof(*list));
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int dup = 0;

		for (int i = 0; i < n; i++)
			dup |= !strcmp(list[i], tok);
		if (!dup)
			list[n++] = tok;
	}
	list[n + 1] = copy;
	*nr = n;
	return list;
}

/* Frees a split_list() array (NULL is fine). */
static void free_list(const char *const *list)
{
	const char *const *p = list;

	if (!list)
		return;
	while (*p)
		p++;
	free((void *)p[1]);
	free((void *)list);
}

/* The smallest item of a one-item list (perf names it in "# comm: x"). */
static const char *single_item(const char *const *list, int nr)
{
	return list && nr == 1 ? list[0] : NULL;
}

static int parse_ints(const char *str, const char *what, s32 **out, int *nr)
{
	int n;
	const char **items = split_list(str, &n);

	*out = xcalloc(n + 1, sizeof(**out));
	for (int i = 0; i < n; i++) {
		char *end;
		long v = strtol(items[i], &end, 10);

		if (*end || end == items[i]) {
			error("invalid %s '%s'", what, items[i]);
			free_list(items);
			return -1;
		}
		(*out)[i] = (s32)v;
	}
	*nr = n;
	free_list(items);
	return 0;
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

/* ---- progress and pager ------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Redraws the progress line (every 64K records, at most 10 times a
 * second, once the work has taken a second). */
static void progress_update(struct report_ctx *ctx, const struct pd_file *f, u64 offset)
{
	double t = now(), share;
	int fill;
	char bar[41];

	if (t - ctx->progress_start < 1.0 || t - ctx->progress_last < 0.1)
		return;
	ctx->progress_last = t;
	ctx->progress_shown = 1;
	if (f->pipe_mode || !f->data_size || offset < f->data_offset) {
		fprintf(stderr, "\rprocessing: %llu records, %.0f records/s",
			(unsigned long long)ctx->nr_records,
			ctx->nr_records / (t - ctx->progress_start));
		return;
	}
	share = (double)(offset - f->data_offset) / f->data_size;
	if (share > 1)
		share = 1;
	fill = (int)(share * 40);
	memset(bar, '#', fill);
	memset(bar + fill, ' ', 40 - fill);
	bar[40] = 0;
	fprintf(stderr, "\rprocessing [%s] %3d%%  %.0f records/s", bar,
		(int)(share * 100), ctx->nr_records / (t - ctx->progress_start));
}

static void progress_done(struct report_ctx *ctx)
{
	if (ctx->progress_shown)
		fputs("\r\033[K", stderr);
	ctx->progress_shown = 0;
}

/* ---- the flat report ---------------------------------------------------------- */


/* What the histogram thread is handed: a sample, then its chain's nodes. */
enum { ITEM_SAMPLE, ITEM_NODE };

struct item_sample {
	u8 kind;		/* ITEM_SAMPLE */
	u8 kernel_unsure;	/* addr_location.kernel_unsure */
	u8 addr_listed;		/* --symbols lists the sample's address
				   (hist_symbol_addr_listed()) */
	u8 late;		/* parked: applied after later samples */
	u32 evsel_idx;		/* which histogram */
	struct dso *dso;	/* look the symbol up here, at p.addr */
	struct hist_prepared p;	/* hists_prepare()d; p.seq numbers it */
};

struct item_node {
	u8 kind;		/* ITEM_NODE: a chain node of the last sample */
	u32 dso_name;		/* hist_dso_id() of dso */
	struct dso *dso;	/* look the symbol up here, at addr */
	u64 addr;		/* map-relative */
	u64 ip;			/* as recorded */
	char level;
};

/* The pipe between the threads: PIPE_BATCHES batches of PIPE_BATCH bytes. */
#define PIPE_BATCH (256 << 10)
#define PIPE_BATCHES 16

#define ITEM_SIZE(t)	((sizeof(t) + 7) & ~(size_t)7)

/* How many items ahead the histogram thread works: it prefetches the
 * symbol lookups' buckets at PREFETCH_FAR and ranges at PREFETCH_NEAR;
 * flat samples get their symbols, key hashes and index slots at
 * AHEAD_LOOKUP and their entries at AHEAD_ENTRY. */
#define PREFETCH_FAR 20
#define PREFETCH_NEAR 14
#define AHEAD_LOOKUP 8
#define AHEAD_ENTRY 4

/* What the histogram thread found for an item ahead of it. */
struct flat_ahead {
	struct sym_probe probe;	/* its symbol's lookup */
	const struct symbol *sym;
	u32 hash;		/* hists_flat_hash() */
	u8 fast;		/* a flat sample: hists_add_flat() */
	u8 filtered;		/* hist_filter_symbol() */
};

/* The dso and map-relative address an item looks its symbol up at. */
static void item_lookup(const unsigned char *p, const struct dso **dso, u64 *addr)
{
	if (*p == ITEM_SAMPLE) {
		const struct item_sample *it = (const void *)p;

		*dso = it->dso;
		*addr = it->p.addr;
	} else {
		const struct item_node *it = (const void *)p;

		*dso = it->dso;
		*addr = it->addr;
	}
}

/* Looks a sample's symbol up and adds it to its histogram. */
static void add_sample_item(struct report_ctx *ctx, const struct item_sample *it)
{
	const struct symbol *sym = NULL;
	u8 filtered;

	if (it->kernel_unsure && session_kernel_outside(it->dso, it->p.addr)) {
		/* perf's shrunk kernel map does not reach it: no map */
		struct item_sample none = *it;

		none.dso = NULL;
		none.kernel_unsure = 0;
		none.addr_listed = 0;	/* an address counts with a map only */
		none.p.dso_name = 0;
		add_sample_item(ctx, &none);
		return;
	}
	if (it->dso)
		sym = session_find_symbol(ctx->session, it->dso, it->p.addr);
	filtered = hist_filter_symbol(ctx->strs, &ctx->filters, sym, it->addr_listed);
	ctx->pipe_hists = &ctx->hists[it->evsel_idx];
	hists_add_prepared(ctx->pipe_hists, &it->p, sym, filtered, it->dso, it->late);
}

/*
 * Parking (ctx->park): a sample whose DSO's symbols are not loaded waits
 * in ctx->parked while the loader thread loads them (kernel and module
 * DSOs: while the session defers the kernel's load, it does), and the
 * histogram thread goes on with the next samples.  Parked samples are
 * applied late, in the order they came; the histogram sorts that out
 * (hist_pending.late).  Returns 1 when it must wait.
 */
static int must_park(struct report_ctx *ctx, struct dso *dso)
{
	if (session_dso_ready(dso))
		return 0;
	if (!session_dso_is_kernel(dso) || !session_kernel_pending(ctx->session))
		session_load_async(ctx->session, dso);
	for (u32 i = 0; i < ctx->nr_park_dsos; i++)
		if (ctx->park_dsos[i] == dso)
			return 1;
	if (ctx->nr_park_dsos == ctx->park_dsos_room) {
		ctx->park_dsos_room = ctx->park_dsos_room ? 2 * ctx->park_dsos_room : 16;
		ctx->park_dsos = xrealloc(ctx->park_dsos,
					  ctx->park_dsos_room * sizeof(*ctx->park_dsos));
	}
	ctx->park_dsos[ctx->nr_park_dsos++] = dso;
	return 1;
}

/* Parked samples an empty parking keeps room for; how many unpark()
 * hands add_items() at a time (at most what a pipe batch holds). */
#define PARKED_KEEP 4096
#define UNPARK_BATCH 4096
_Static_assert(UNPARK_BATCH <= PIPE_BATCH / ITEM_SIZE(struct item_node),
	       "unpark() batches fit the histogram thread's scratch");

static void park(struct report_ctx *ctx, const struct item_sample *it)
{
	if (ctx->nr_parked == ctx->parked_room) {
		ctx->parked_room = ctx->parked_room ? 2 * ctx->parked_room : 4096;
		ctx->parked = xrealloc(ctx->parked, ctx->parked_room * sizeof(*ctx->parked));
	}
	ctx->parked[ctx->nr_parked] = *it;
	ctx->parked[ctx->nr_parked++].late = 1;
}

/*
 * Applies the parked samples whose DSOs are ready, keeping the others in
 * order.  With drain (the histogram thread idle or gone, so on the thread
 * that feeds the session), first makes them all ready, but the kernel's
 * and the modules' while the session defers the kernel, unless load_kernel
 * (at the end) says to load it now.
 */
static void add_items(struct report_ctx *ctx, const unsigned char **v, u32 n);

static void unpark(struct report_ctx *ctx, int drain, int load_kernel)
{
	u32 kept = 0, nr_ready = 0, nr_v = 0;
	const unsigned char **v = ctx->pipe_items;
	u8 *ready;

	if (drain) {
		if (load_kernel)
			session_load_kernel(ctx->session);
		session_loader_wait(ctx->session);
		for (u32 i = 0; i < ctx->nr_park_dsos; i++) {
			struct dso *dso = ctx->park_dsos[i];

			if (!session_dso_is_kernel(dso) || !session_kernel_pending(ctx->session))
				session_load_async(ctx->session, dso);
		}
		session_loader_wait(ctx->session);
	}
	for (u32 i = 0; i < ctx->nr_park_dsos; i++) {
		if (session_dso_ready(ctx->park_dsos[i]))
			nr_ready++;
		else
			ctx->park_dsos[kept++] = ctx->park_dsos[i];
	}
	if (!nr_ready)
		return;
	ctx->nr_park_dsos = kept;
	/* the ready ones, in order and a batch at a time (add_items() works
	   ahead), then the others moved down: a DSO that gets ready
	   meanwhile waits for the next time */
	ready = xmalloc(ctx->nr_parked ? ctx->nr_parked : 1);
	for (u32 i = 0; i < ctx->nr_parked; i++) {
		ready[i] = session_dso_ready(ctx->parked[i].dso);
		if (ready[i])
			v[nr_v++] = (const void *)&ctx->parked[i];
		if (nr_v == UNPARK_BATCH || (i + 1 == ctx->nr_parked && nr_v)) {
			add_items(ctx, v, nr_v);
			nr_v = 0;
		}
	}
	kept = 0;
	for (u32 i = 0; i < ctx->nr_parked; i++)
		if (!ready[i] && kept++ != i)
			ctx->parked[kept - 1] = ctx->parked[i];
	free(ready);
	ctx->nr_parked = kept;
	/* the samples parked while the kernel loaded (100,000s): their
	   room goes back, not to stay resident beside what comes next */
	if (!kept && ctx->parked_room > PARKED_KEEP) {
		free(ctx->parked);
		ctx->parked = NULL;
		ctx->parked_room = 0;
	}
}

/* The session's sync hook with parking: every lookup handed over done. */
static void sync_items(void *arg)
{
	struct report_ctx *ctx = arg;

	batchq_sync(ctx->pipe);
	unpark(ctx, 1, 0);
}

/* The first two steps of an item's symbol lookup (session_probe_start(),
 * session_probe_ranges()). */
static void probe_start(const unsigned char *item, struct flat_ahead *a)
{
	const struct dso *dso;
	u64 addr;

	item_lookup(item, &dso, &addr);
	session_probe_start(dso, addr, &a->probe);
}

static void probe_ranges(const unsigned char *item, struct flat_ahead *a)
{
	const struct dso *dso;
	u64 addr;

	item_lookup(item, &dso, &addr);
	session_probe_ranges(dso, &a->probe);
}

/*
 * The look-ahead of a flat sample (outside children mode, with its DSO
 * ready and its map sure): its symbol, filter bits and key hash, and its
 * index slot prefetched.  Anything else is left to the slow path.
 */
static void look_ahead(struct report_ctx *ctx, const unsigned char *item, struct flat_ahead *a)
{
	const struct item_sample *it = (const void *)item;
	const struct hists *h;

	/* a sample not sure of the kernel map is sure once the kernel is
	   loaded, which its DSO's being ready says */
	a->fast = *item == ITEM_SAMPLE && ctx->park && session_dso_ready(it->dso) &&
		  !(it->kernel_unsure && session_kernel_outside(it->dso, it->p.addr));
	if (!a->fast)
		return;
	h = &ctx->hists[it->evsel_idx];
	a->sym = it->dso ? session_probe_find(ctx->session, it->dso, it->p.addr, &a->probe) : NULL;
	a->filtered = hist_filter_symbol(ctx->strs, &ctx->filters, a->sym, it->addr_listed);
	a->hash = hists_flat_hash(h, &it->p, a->sym);
}

/* The histogram thread's work on one batch of items: first where each
 * item starts, then the items in order, working ahead. */
static void consume_items(void *arg, const void *items, size_t len)
{
	struct report_ctx *ctx = arg;
	const unsigned char *p = items, *end = p + len, **v = ctx->pipe_items;
	u32 n = 0;

	if (ctx->nr_parked)
		unpark(ctx, 0, 0);

	while (p < end) {
		v[n++] = p;
		p += *p == ITEM_SAMPLE ? ITEM_SIZE(struct item_sample)
						    : ITEM_SIZE(struct item_node);
	}
	add_items(ctx, v, n);
}

/* Adds the items v[0..n) in order, working ahead of them: their symbol
 * lookups and flat samples' entries. */
static void add_items(struct report_ctx *ctx, const unsigned char **v, u32 n)
{
	struct flat_ahead *ahead = ctx->pipe_ahead;

	for (u32 j = 0; j < PREFETCH_FAR && j < n; j++)
		probe_start(v[j], &ahead[j]);
	for (u32 j = 0; j < PREFETCH_NEAR && j < n; j++)
		probe_ranges(v[j], &ahead[j]);
	for (u32 j = 0; j < AHEAD_LOOKUP && j < n; j++)
		look_ahead(ctx, v[j], &ahead[j]);
	for (u32 i = 0; i < n; i++) {
		const struct symbol *sym = NULL;

		if (i + PREFETCH_FAR < n)
			probe_start(v[i + PREFETCH_FAR], &ahead[i + PREFETCH_FAR]);
		if (i + PREFETCH_NEAR < n)
			probe_ranges(v[i + PREFETCH_NEAR], &ahead[i + PREFETCH_NEAR]);
		if (i + AHEAD_LOOKUP < n)
			look_ahead(ctx, v[i + AHEAD_LOOKUP], &ahead[i + AHEAD_LOOKUP]);
		if (i + AHEAD_ENTRY < n && ahead[i + AHEAD_ENTRY].fast)
			hists_flat_prefetch(&ctx->hists[((const struct item_sample *)
							 v[i + AHEAD_ENTRY])->evsel_idx],
					    ahead[i + AHEAD_ENTRY].hash);
		if (ahead[i].fast) {
			const struct item_sample *it = (const void *)v[i];

			ctx->pipe_hists = &ctx->hists[it->evsel_idx];
			hists_add_flat(ctx->pipe_hists, &it->p, ahead[i].sym, ahead[i].filtered,
				       ahead[i].hash, it->late);
		} else if (*v[i] == ITEM_SAMPLE) {
			const struct item_sample *it = (const void *)v[i];

			if (ctx->park && must_park(ctx, it->dso))
				park(ctx, it);
			else
				add_sample_item(ctx, it);
		} else {
			const struct item_node *it = (const void *)v[i];

			if (it->dso)
				sym = session_probe_find(ctx->session, it->dso, it->addr,
							 &ahead[i].probe);
			hists_add_chain_node(ctx->pipe_hists, it->dso_name, sym, it->ip, it->level);
		}
	}
}

/* Maps a sample's call chain reached, for skipping resolution. */
#define CHAIN_MAPS 8

/*
 * perf's find_prev_cpumode(): the cpumode set by the last context marker
 * before chain[end], or cur when there is none (-1: see pd_context_cpumode()).
 */
static int prev_cpumode(const struct pd_sample *sample, u64 end, u8 cur)
{
	while (end-- > 0) {
		u64 ip = pd_get64(sample->callchain + end * 8);

		if (pd_chain_marker(sample, end, ip))
			return pd_context_cpumode(ip);
	}
	return cur;
}

/*
 * The most addresses a walk of the sample's chain keeps: --max-stack of
 * the recorded part (perf stops there) plus the unwound part, which the
 * unwinder already cut to --max-stack (perf applies the limit to each).
 */
static u64 chain_cap(const struct report_ctx *ctx, const struct pd_sample *sample)
{
	u64 n = sample->callchain_nr, recorded = n;

	if (sample->callchain_addrs_from)
		recorded = sample->callchain_addrs_from;
	if (recorded > (u64)ctx->max_stack)
		recorded = (u64)ctx->max_stack;
	return recorded + (sample->callchain_addrs_from ? n - sample->callchain_addrs_from : 0);
}

/* add_chain()'s mark of an unwound address in its cpumode. */
#define MODE_UNWOUND 0x80

/* perf's append_inlines() in add_chain(): the entries of the functions
 * inlined at an unwound address (resolved with its symbol into node) in
 * its place, outermost first; 0 when it stays as it is. */
static u32 add_chain_inlines(struct report_ctx *ctx, struct hists *h,
			     const struct addr_location *node, u64 ip, char level)
{
	const struct symbol *const *syms;
	struct addr_location entry = *node;
	u32 k = session_inlines(ctx->session, node, &syms);

	for (u32 x = 0; x < k; x++) {
		entry.sym = syms[k - 1 - x];
		hists_add_chain(h, &entry, ip, level);
	}
	return k;
}

/*
 * Children mode: credits the sample's period to every distinct entry its
 * call chain passes through, as perf's cumulative iterator does.  perf
 * walks the chain from the outermost caller (ORDER_CALLER, its default in
 * children mode), taking each address's cpumode from the context marker
 * before it, for at most --max-stack addresses; a marker it does not know
 * empties the chain.  Each node inherits the privilege level of the one
 * before (the sample's first) unless it has a map.
 *
 * Without symbols (SESSION_NO_SYMBOL) an entry of the chain is named by
 * its map's DSO, and an address in a map this chain already reached (with
 * the same cpumode) resolves to that map again: a thread's maps do not
 * overlap and do not change within a record.  Such addresses are not
 * resolved again, they only carry the map's privilege level on.
 */
static void add_chain(struct report_ctx *ctx, struct hists *h,
		      const struct pd_sample *sample, const struct addr_location *al)
{
	struct {
		u64 start, end;
		u8 cpumode;
		char level;
	} maps[CHAIN_MAPS];
	struct chain_cursor *c = &ctx->cursor;
	u64 *ips, n = sample->callchain_nr;
	u8 *modes;
	u32 nr = 0, nr_maps = 0, recorded = 0;
	int cpumode = prev_cpumode(sample, n, PD_MISC_USER);
	char level = al->level;

	chain_room(c, chain_cap(ctx, sample));
	ips = c->ips;
	modes = c->modes;
	for (u64 i = 0; i < n && cpumode >= 0; i++) {
		u64 j = n - i - 1, ip = pd_get64(sample->callchain + j * 8);

		if (pd_chain_marker(sample, j, ip)) {
			cpumode = prev_cpumode(sample, j, cpumode);
			continue;
		}
		if (!pd_chain_unwound(sample, j) && recorded++ >= (u32)ctx->max_stack)
			continue;
		ips[nr] = ip;
		modes[nr++] = (u8)cpumode | (pd_chain_unwound(sample, j) ? MODE_UNWOUND : 0);
	}
	if (cpumode < 0)
		return;
	for (u32 i = 0; i < nr; i++) {
		struct addr_location node;
		int unwound = modes[i] & MODE_UNWOUND;
		u32 m;

		modes[i] &= ~MODE_UNWOUND;
		for (m = 0; m < nr_maps; m++)
			if (maps[m].cpumode == modes[i] && ips[i] >= maps[m].start &&
			    ips[i] < maps[m].end)
				break;
		if (m < nr_maps) {
			level = maps[m].level;
			continue;
		}
		if (session_resolve_addr_flags(ctx->session, al, sample->time, modes[i],
					       ips[i], ctx->resolve_flags | (ctx->pipe ? SESSION_NO_SYMBOL : 0),
					       &node)) {
			node = *al;
			node.map = NULL;
			node.dso = NULL;
			node.sym = NULL;
		}
		if (node.map) {
			level = node.level;
			if (ctx->resolve_flags && nr_maps < CHAIN_MAPS) {
				maps[nr_maps].start = map_start(node.map);
				maps[nr_maps].end = map_end(node.map);
				maps[nr_maps].cpumode = modes[i];
				maps[nr_maps++].level = level;
			}
		}
		if (ctx->pipe) {
			struct item_node *it = batchq_alloc(ctx->pipe, sizeof(*it));

			it->kind = ITEM_NODE;
			it->dso_name = hist_dso_id(ctx->strs, node.dso);
			it->dso = node.dso;
			it->addr = node.addr;
			it->ip = ips[i];
			it->level = level;
		} else if (unwound && ctx->inline_frames && !ctx->resolve_flags &&
			   add_chain_inlines(ctx, h, &node, ips[i], level)) {
			continue;
		} else if (hists_add_chain(h, &node, ips[i], level) && ctx->resolve_flags) {
			session_resolve_addr_flags(ctx->session, al, sample->time, modes[i],
						   ips[i], 0, &node);
			hists_set_sym(h, node.sym);
		}
	}
}

/*
 * Call graphs on two threads: this thread resolves each sample and its
 * chain and reads the strings (hists_prepare(), DSO name ids); the
 * histogram thread makes the sample's adds and records its chain with the
 * entries it reached (callchain_record()) for hists_finish() to build the
 * trees.  An item: this header, the chain's nr cc_items, then (children
 * mode only) their nr DSO name ids and their nr levels.
 *
 * With ctx->cg_lookup the histogram thread also looks the symbols up (the
 * sample's at prepared.addr in dso, and each item's), a batch at a time
 * with their memory fetched ahead: until then an item with a DSO has no
 * symbol and its match holds its map-relative address.
 */
struct item_chain {
	struct hist_prepared prepared;	/* the sample's add */
	const struct symbol *sym;
	const struct dso *dso;
	u32 evsel_idx;
	u32 nr;
	u8 addr_listed;		/* --symbols lists the sample's address
				   (hist_symbol_addr_listed()) */
};

#define ITEM_CHAIN_SIZE(nr, children) ((sizeof(struct item_chain) + \
				       (size_t)(nr) * (sizeof(struct cc_item) + \
						       ((children) ? sizeof(u32) + 1 : 0)) + 7) & \
				      ~(size_t)7)

/* What the histogram thread hands the record thread: a sample's chain
 * and the entries it goes to (callchain_record()'s arguments).  An item:
 * this header, the nr cc_items, then the nr_walks cc_walks. */
struct item_record {
	u64 period;
	u32 evsel_idx;
	u32 nr, nr_walks;
};

#define ITEM_RECORD_SIZE(nr, nr_walks) ((sizeof(struct item_record) + \
					 (size_t)(nr) * sizeof(struct cc_item) + \
					 (size_t)(nr_walks) * sizeof(struct cc_walk) + 7) & \
					~(size_t)7)

/* How many items ahead the record thread fetches the index slot of a
 * chain (RECORD_FAR), then its record (RECORD_NEAR). */
#define RECORD_FAR 16
#define RECORD_NEAR 8

/* The most items a batch of item_records holds. */
#define RECORDS_PER_BATCH (PIPE_BATCH / ITEM_RECORD_SIZE(0, 1) + 1)

struct rec_ahead {
	const struct item_record *item[RECORDS_PER_BATCH];
	struct cc_chain_hash hash[RECORDS_PER_BATCH];
};

/* The record thread's work on one batch: the chains' keys first, then
 * the records, the memory each reads fetched some items ahead. */
static void consume_records(void *arg, const void *items, size_t len)
{
	struct report_ctx *ctx = arg;
	struct rec_ahead *ra = ctx->rec_ahead;
	const unsigned char *p = items, *end = p + len;
	u32 n = 0;

	while (p < end) {
		const struct item_record *it = (const void *)p;
		const struct cc_item *chain = (const void *)(it + 1);

		ra->item[n] = it;
		callchain_hash((const void *)(chain + it->nr), it->nr_walks, chain, it->nr,
			       &ra->hash[n++]);
		p += ITEM_RECORD_SIZE(it->nr, it->nr_walks);
	}
	for (u32 i = 0; i < n; i++) {
		const struct item_record *it = ra->item[i];
		const struct cc_item *chain = (const void *)(it + 1);

		if (i + RECORD_FAR < n)
			callchain_record_prefetch(ctx->hists[ra->item[i + RECORD_FAR]->evsel_idx].cc,
						  &ra->hash[i + RECORD_FAR], 0);
		if (i + RECORD_NEAR < n)
			callchain_record_prefetch(ctx->hists[ra->item[i + RECORD_NEAR]->evsel_idx].cc,
						  &ra->hash[i + RECORD_NEAR], 1);
		callchain_record_hashed(ctx->hists[it->evsel_idx].cc, &ra->hash[i],
					(const void *)(chain + it->nr), it->nr_walks, chain,
					it->nr, it->period);
	}
}

/*
 * Looks v[0..n) up through the cache (ctx->sym_cache), the slots fetched
 * far lookups ahead and, for those that miss, the symbol's bucket near
 * lookups ahead; sets each item's symbol and match value.
 */
static void lookup_cached(struct report_ctx *ctx, struct sym_lookup *v, u32 n, u32 far,
			  u32 near)
{
	struct sym_cache *cache = ctx->sym_cache;

	for (u32 i = 0; i < n; i++)
		v[i].slot = sym_cache_slot(v[i].dso, v[i].addr);
	for (u32 i = 0; i < n; i++) {
		struct sym_cache_slot *c = &cache->slot[v[i].slot];
		struct cc_item item;

		if (i + far < n)
			__builtin_prefetch(&cache->slot[v[i + far].slot]);
		if (i + near < n) {
			const struct sym_cache_slot *ahead = &cache->slot[v[i + near].slot];
			struct sym_probe probe;

			if (ahead->gen != cache->gen || ahead->dso != v[i + near].dso ||
			    ahead->addr != v[i + near].addr)
				session_probe_start(v[i + near].dso, v[i + near].addr, &probe);
		}
		if (c->gen != cache->gen || c->dso != v[i].dso || c->addr != v[i].addr) {
			item.ip = 0;
			item.dso = v[i].dso;
			item.sym = session_find_symbol(ctx->session, v[i].dso, v[i].addr);
			c->dso = v[i].dso;
			c->addr = v[i].addr;
			c->sym = item.sym;
			c->match = item.sym ? cc_item_match(CC_KEY_FUNCTION, &item) : 0;
			c->gen = cache->gen;
		}
		*v[i].sym = c->sym;
		/* cc_item_match(): without a symbol or by address, the address */
		if (v[i].item)
			v[i].item->match = c->sym && ctx->cg.key == CC_KEY_FUNCTION ? c->match :
					   v[i].item->ip;
	}
}

/* How far ahead lookup_symbols() fetches: one chain's lookups. */
#define CHAIN_FAR 4
#define CHAIN_NEAR 2

/* How far ahead lookup_chains() fetches, over a batch: a cache slot
 * LOOKUP_FAR lookups ahead has time to come in before it is read
 * LOOKUP_NEAR ahead (to start the symbol's lookup on a miss). */
#define LOOKUP_FAR 32
#define LOOKUP_NEAR 8

/* The symbols of the cursor's items that have a map and none yet (through
 * the cache), and what each item matches by. */
static void lookup_symbols(struct report_ctx *ctx, struct chain_cursor *c)
{
	struct cc_item *items = c->items;
	u32 n = 0;

	for (u32 i = 0; i < c->nr; i++) {
		if (items[i].dso && !items[i].sym)
			c->lookups[n++] = (struct sym_lookup){ (struct dso *)items[i].dso,
							       c->als[i].addr, &items[i].sym,
							       &items[i], 0 };
		else
			items[i].match = cc_item_match(ctx->cg.key, &items[i]);
	}
	lookup_cached(ctx, c->lookups, n, CHAIN_FAR, CHAIN_NEAR);
}

/* The session's sync hook with call graphs: the histogram thread idle
 * (with ctx->cg_lookup), the cached lookups forgotten. */
static void sync_chains(void *arg)
{
	struct report_ctx *ctx = arg;

	if (ctx->cg_lookup)
		batchq_sync(ctx->cg_pipe);
	ctx->sym_cache->gen++;
}

/* The most lookups a batch of item_chains needs: one per item and one per
 * sample (whose header is bigger than an item). */
#define LOOKUPS_PER_BATCH (PIPE_BATCH / sizeof(struct cc_item) + 1)

/* ctx->cg_lookup: the symbols and match values of a batch of
 * item_chains, through the cache (lookup_cached()). */
static void lookup_chains(struct report_ctx *ctx, unsigned char *p, const unsigned char *end)
{
	struct sym_lookup *v = ctx->lookups;
	u32 n = 0;

	for (unsigned char *q = p; q < end; ) {
		struct item_chain *it = (void *)q;
		struct cc_item *chain = (void *)(it + 1);

		if (it->dso)
			v[n++] = (struct sym_lookup){ (struct dso *)it->dso, it->prepared.addr,
						      &it->sym, NULL, 0 };
		for (u32 i = 0; i < it->nr; i++) {
			if (!chain[i].dso) {
				chain[i].match = cc_item_match(ctx->cg.key, &chain[i]);
				continue;
			}
			v[n++] = (struct sym_lookup){ (struct dso *)chain[i].dso, chain[i].match,
						      &chain[i].sym, &chain[i], 0 };
		}
		q += ITEM_CHAIN_SIZE(it->nr, ctx->children);
	}
	lookup_cached(ctx, v, n, LOOKUP_FAR, LOOKUP_NEAR);
}

/* The histogram thread's work on one batch of chains. */
static void consume_chains(void *arg, const void *items, size_t len)
{
	struct report_ctx *ctx = arg;
	const unsigned char *p = items, *end = p + len;
	const struct item_chain **v = ctx->chain_items;
	struct cc_chain_hash *keys = ctx->chain_keys;
	u32 nr = 0;

	/* the batch is this thread's until it returns */
	if (ctx->cg_lookup)
		lookup_chains(ctx, (unsigned char *)p, end);
	while (p < end) {
		const struct item_chain *it = (const void *)p;
		const struct cc_item *chain = (const void *)(it + 1);

		/* children mode: each sample's record key, to fetch ahead */
		if (ctx->children)
			hists_chain_key(&ctx->hists[it->evsel_idx], &it->prepared, it->sym, it->dso,
					chain, (const char *)((const u32 *)(chain + it->nr) + it->nr),
					it->nr, &keys[nr]);
		v[nr++] = it;
		p += ITEM_CHAIN_SIZE(it->nr, ctx->children);
	}
	for (u32 k = 0; k < nr; k++) {
		const struct item_chain *it = v[k];
		const struct cc_item *chain = (const void *)(it + 1);
		const u32 *dso_names = ctx->children ? (const void *)(chain + it->nr) : NULL;
		const char *levels = ctx->children ? (const void *)(dso_names + it->nr) : NULL;
		struct hists *h = &ctx->hists[it->evsel_idx];
		u8 filtered = 0;
		u32 n;

		if (k + PREFETCH_FAR < nr)
			hists_prefetch(&ctx->hists[v[k + PREFETCH_FAR]->evsel_idx],
				       &v[k + PREFETCH_FAR]->prepared, v[k + PREFETCH_FAR]->sym, 0);
		if (k + PREFETCH_NEAR < nr)
			hists_prefetch(&ctx->hists[v[k + PREFETCH_NEAR]->evsel_idx],
				       &v[k + PREFETCH_NEAR]->prepared, v[k + PREFETCH_NEAR]->sym, 1);
		if (ctx->children && k + PREFETCH_FAR < nr)
			callchain_record_prefetch(ctx->hists[v[k + PREFETCH_FAR]->evsel_idx].cc,
						  &keys[k + PREFETCH_FAR], 0);
		if (ctx->children && k + PREFETCH_NEAR < nr)
			callchain_record_prefetch(ctx->hists[v[k + PREFETCH_NEAR]->evsel_idx].cc,
						  &keys[k + PREFETCH_NEAR], 1);
		if (it->nr + 1 > ctx->cg_walks_room) {
			ctx->cg_walks_room = it->nr + 1;
			ctx->cg_walks = xrealloc(ctx->cg_walks,
						 ctx->cg_walks_room * sizeof(*ctx->cg_walks));
		}
		if (ctx->cg_lookup)
			filtered = hist_filter_symbol(ctx->strs, &ctx->filters, it->sym,
						      it->addr_listed);
		hists_add_prepared(h, &it->prepared, it->sym, filtered, it->dso, 0);
		if (ctx->children) {
			hists_record_callgraph(h, &keys[k], chain, dso_names, levels, it->nr,
					       it->prepared.period, ctx->cg_walks);
			continue;
		}
		n = hists_callgraph_walks(h, chain, dso_names, levels, it->nr, 0, ctx->cg_walks);
		if (n) {
			struct item_record *r = batchq_alloc(ctx->rec_pipe,
							     ITEM_RECORD_SIZE(it->nr, n));

			r->period = it->prepared.period;
			r->evsel_idx = it->evsel_idx;
			r->nr = it->nr;
			r->nr_walks = n;
			memcpy(r + 1, chain, it->nr * sizeof(*chain));
			memcpy((struct cc_item *)(r + 1) + it->nr, ctx->cg_walks,
			       n * sizeof(*ctx->cg_walks));
		}
	}
}


/*
 * perf's append_inlines(): for the unwound address just resolved into
 * c->als[c->nr], the entries of the functions inlined there in its place,
 * in the graph's order; left is how many addresses of the chain remain
 * (room).  Returns 0 when the address stays as it is.
 */
static u32 add_inlines(struct report_ctx *ctx, struct chain_cursor *c, u64 ip, char level,
		       u64 left)
{
	const struct symbol *const *syms;
	struct addr_location al = c->als[c->nr];
	u32 k = session_inlines(ctx->session, &al, &syms);

	if (!k)
		return 0;
	chain_room(c, c->nr + k + left);
	for (u32 x = 0; x < k; x++) {
		struct cc_item *it = &c->items[c->nr];

		al.sym = syms[ctx->cg.order == CC_CALLER ? k - 1 - x : x];
		c->als[c->nr] = al;
		it->ip = ip;
		it->dso = al.dso;
		it->sym = al.sym;
		it->match = cc_item_match(ctx->cg.key, it);
		c->levels[c->nr++] = level;
	}
	return k;
}

/*
 * perf's thread__resolve_callchain_sample() for a frame-pointer chain:
 * callee order walks the chain as recorded, each marker setting the
 * cpumode of what follows; caller order walks it backwards, taking each
 * address's cpumode from the marker before it.  At most --max-stack
 * addresses; a marker perf does not know empties the chain.  An item
 * inherits the level of the one before (the sample's first) unless it
 * has a map.
 */
static void resolve_cursor(struct report_ctx *ctx, const struct pd_sample *sample,
			   const struct addr_location *al, struct chain_cursor *c)
{
	u64 n = sample->callchain_nr;
	int caller = ctx->cg.order == CC_CALLER;
	int cpumode = caller ? prev_cpumode(sample, n, PD_MISC_USER) : PD_MISC_USER;
	char level = al->level;
	u32 recorded = 0;

	chain_room(c, chain_cap(ctx, sample));
	c->nr = 0;
	for (u64 i = 0; i < n && cpumode >= 0; i++) {
		u64 j = caller ? n - i - 1 : i, ip = pd_get64(sample->callchain + j * 8);
		struct addr_location *node = &c->als[c->nr];

		if (pd_chain_marker(sample, j, ip)) {
			cpumode = caller ? prev_cpumode(sample, j, cpumode) :
					   pd_context_cpumode(ip);
			continue;
		}
		if (!pd_chain_unwound(sample, j) && recorded++ >= (u32)ctx->max_stack)
			continue;
		if (session_resolve_addr_flags(ctx->session, al, sample->time, cpumode, ip,
					       SESSION_NO_SYMBOL, node)) {
			*node = *al;
			node->map = NULL;
			node->dso = NULL;
			node->sym = NULL;
		}
		if (node->map) {
			level = node->level;
			/* lookup_symbols() reads its cache slot */
			if (!ctx->cg_lookup)
				__builtin_prefetch(&ctx->sym_cache->slot[sym_cache_slot(node->dso,
											 node->addr)]);
		}
		if (ctx->inline_frames && pd_chain_unwound(sample, j)) {
			node->sym = session_find_symbol(ctx->session, node->dso, node->addr);
			if (add_inlines(ctx, c, ip, level, n - i))
				continue;
		}
		c->items[c->nr].ip = ip;
		c->items[c->nr].dso = node->dso;
		c->items[c->nr].sym = node->sym;
		c->levels[c->nr++] = level;
	}
	if (cpumode < 0)
		c->nr = 0;
	if (!ctx->cg_lookup)
		lookup_symbols(ctx, c);
}

/*
 * Call graphs: the sample's entry (just added) gets the whole chain; in
 * children mode each entry the chain passes through gets the period once
 * and, when it is the first time this sample reaches it, the part of the
 * chain from it on (perf's iter_add_next_cumulative_entry()).
 */
static void add_callgraph(struct report_ctx *ctx, struct hists *h,
			  const struct pd_sample *sample)
{
	struct chain_cursor *c = &ctx->cursor;

	hists_add_callgraph(h, c->items, c->levels, c->nr, sample->period, ctx->children);
}

/* The sample's adds and chain for the histogram thread (see item_chain);
 * a chain too long for the pipes is added here once both threads are
 * idle. */
static void send_callgraph(struct report_ctx *ctx, u32 evsel_idx, const struct pd_sample *sample,
			   const struct hist_prepared *prepared, const struct addr_location *al)
{
	struct chain_cursor *c = &ctx->cursor;
	struct item_chain *it;
	struct cc_item *items;
	u32 *dso_names;

	if (ITEM_CHAIN_SIZE(c->nr, ctx->children) > PIPE_BATCH ||
	    ITEM_RECORD_SIZE(c->nr, c->nr + 1) > PIPE_BATCH) {
		struct hists *h = &ctx->hists[evsel_idx];
		const struct symbol *sym = al->sym;
		u8 filtered = 0;

		batchq_sync(ctx->cg_pipe);
		if (ctx->rec_pipe)
			batchq_sync(ctx->rec_pipe);
		if (ctx->cg_lookup) {
			lookup_symbols(ctx, c);
			sym = session_find_symbol(ctx->session, al->dso, al->addr);
			filtered = hist_filter_symbol(ctx->strs, &ctx->filters, sym,
						      hist_symbol_addr_listed(&ctx->filters,
									      al->map != NULL,
									      sample->ip));
		}
		hists_add_prepared(h, prepared, sym, filtered, al->dso, 0);
		add_callgraph(ctx, h, sample);
		return;
	}
	it = batchq_alloc(ctx->cg_pipe, ITEM_CHAIN_SIZE(c->nr, ctx->children));
	items = (struct cc_item *)(it + 1);
	dso_names = (u32 *)(items + c->nr);

	it->prepared = *prepared;
	it->sym = al->sym;
	it->dso = al->dso;
	it->addr_listed = hist_symbol_addr_listed(&ctx->filters, al->map != NULL, sample->ip);
	it->evsel_idx = evsel_idx;
	it->nr = c->nr;
	if (!c->nr)	/* the cursor may have no arrays yet */
		return;
	memcpy(items, c->items, c->nr * sizeof(*items));
	if (ctx->cg_lookup)
		for (u32 i = 0; i < c->nr; i++)
			items[i].match = c->als[i].addr;
	if (!ctx->children)
		return;
	for (u32 i = 0; i < c->nr; i++)
		dso_names[i] = hist_dso_id(ctx->strs, c->items[i].dso);
	memcpy(dso_names + c->nr, c->levels, c->nr);
}

static int report_setup(struct report_ctx *ctx, struct pd_file *f);

static int report_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct report_ctx *ctx = vctx;
	struct pd_sample sample;
	struct addr_location al;
	struct pd_evsel *evsel = ev->evsel;
	struct hist_prepared prepared;
	struct hists *h;

	if (!ctx->setup_done) {
		int r;

		/* a stream: its events, features and such come first */
		if (ev->hdr->type >= PD_REC_USER_START)
			return 0;
		if ((r = report_setup(ctx, f)))
			return r;
	}
	if ((++ctx->nr_records & 0xffff) == 0 && ctx->progress_start)
		progress_update(ctx, f, ev->file_offset);
	/* a sample changes nothing in the session */
	if (ev->hdr->type != PD_REC_SAMPLE)
		return session_event(ctx->session, ev) ? -1 : 0;
	if (!evsel || evsel->idx >= ctx->nr_hists)
		return 0;
	/* a flat sample reads no field past the call chain */
	if ((ctx->pipe && !ctx->children ? pd_parse_sample_head : pd_parse_sample)(
		    f, evsel, ev->hdr, ev->file_offset, &sample))
		return -1;
	if (ctx->nr_time_ranges &&
	    time_ranges_skip(ctx->time_ranges, ctx->nr_time_ranges, sample.time))
		return 0;
	if (session_resolve_flags(ctx->session, ev, &sample, ctx->sample_flags, &al))
		return 0;
	if (ctx->cpu_bitmap &&
	    (sample.cpu >= CPU_LIST_MAX || !(ctx->cpu_bitmap[sample.cpu / 8] & (1 << (sample.cpu % 8)))))
		return 0;
	h = &ctx->hists[evsel->idx];
	if (ctx->pipe) {
		struct item_sample *it = batchq_alloc(ctx->pipe, sizeof(*it));

		it->kind = ITEM_SAMPLE;
		it->evsel_idx = evsel->idx;
		it->dso = al.dso;
		it->addr_listed = hist_symbol_addr_listed(&ctx->filters, al.map != NULL, sample.ip);
		it->kernel_unsure = al.kernel_unsure;
		hists_prepare(h, &al, (s32)sample.cpu, sample.period,
			      hist_filter_thread_dso(ctx->strs, &ctx->filters, &al), &it->p);
		it->late = 0;
		it->p.seq = ctx->nr_prepared++;
		if (!ctx->children)
			return 0;	/* nothing below is for it (no call graph with a pipe) */
	} else {
		hists_prepare(h, &al, (s32)sample.cpu, sample.period,
			      ctx->cg_lookup ? hist_filter_thread_dso(ctx->strs, &ctx->filters, &al) :
			      hist_filter_sample(ctx->strs, &ctx->filters, &al, sample.ip),
			      &prepared);
	}
	if (ctx->cg.enabled || ctx->children)
		session_dwarf_chain(ctx->session, &evsel->attr, &al, &sample, ctx->max_stack,
				    &ctx->dwarf_chain);
	/* the chain is resolved while the entry's index slot comes in */
	if (ctx->cg.enabled) {
		if (!ctx->pipe && !ctx->cg_pipe)
			hists_prefetch(h, &prepared, al.sym, 0);
		resolve_cursor(ctx, &sample, &al, &ctx->cursor);
	}
	if (ctx->cg_pipe) {
		send_callgraph(ctx, evsel->idx, &sample, &prepared, &al);
		return 0;
	}
	if (!ctx->pipe && hists_add_prepared(h, &prepared, al.sym, 0, al.dso, 0) &&
	    ctx->resolve_flags) {
		struct addr_location full;

		session_resolve(ctx->session, ev, &sample, &full);
		hists_set_sym(h, full.sym);
	}
	if (ctx->cg.enabled)
		add_callgraph(ctx, h, &sample);
	else if (ctx->children && sample.callchain_nr)
		add_chain(ctx, h, &sample, &al);
	return 0;
}

/*
 * perf's setup_addrlist(): the --symbols items that read as one hex
 * number (strtoul base 16, trailing blanks allowed) are addresses, taken
 * out of the name list (which stays, maybe empty).
 */
static void take_addresses(const char **list, int *nr, struct report_ctx *ctx)
{
	struct hist_filters *flt = &ctx->filters;
	u64 *addrs = xcalloc(*nr + 1, sizeof(*addrs));
	const char *copy = list[*nr + 1];
	int kept = 0;

	for (int i = 0; i < *nr; i++) {
		const char *item = list[i], *end;
		char *sep;
		unsigned long val;

		errno = 0;
		val = strtoul(item, &sep, 16);
		if (!errno && sep != item) {
			for (end = sep; isspace((unsigned char)*end); end++)
				;
			if (!*end) {
				addrs[flt->nr_sym_addrs++] = val;
				continue;
			}
		}
		list[kept++] = item;
	}
	list[kept] = NULL;
	list[kept + 1] = copy;
	*nr = kept;
	flt->sym_addrs = addrs;
}

/* Sets up filters from the options.  Returns 0 or -1. */
static int setup_filters(struct report_ctx *ctx, int *nr_comms, int *nr_dsos, int *nr_syms)
{
	struct hist_filters *flt = &ctx->filters;

	*nr_comms = *nr_dsos = *nr_syms = 0;
	if (ctx->comms)
		flt->comms = split_list(ctx->comms, nr_comms);
	if (ctx->dsos)
		flt->dsos = split_list(ctx->dsos, nr_dsos);
	if (ctx->symbols) {
		flt->symbols = split_list(ctx->symbols, nr_syms);
		take_addresses((const char **)flt->symbols, nr_syms, ctx);
	}
	if (ctx->pids && parse_ints(ctx->pids, "pid", (s32 **)&flt->pids, &flt->nr_pids))
		return -1;
	if (ctx->tids && parse_ints(ctx->tids, "tid", (s32 **)&flt->tids, &flt->nr_tids))
		return -1;
	return 0;
}

/*
 * Everything the flat report decides before the first sample: what the
 * events' sample types allow (call graphs, children mode, -C), the
 * layout, the filters, the session, the histograms and the threads.  A
 * file's events are known at once; a stream's arrive as records, so it is
 * called at the first record after them.  Returns 0 to go on, 1 when the
 * report is already over (perf gives up after printing its preamble), -1
 * on error.
 */
static int report_setup(struct report_ctx *ctx, struct pd_file *f)
{
	struct hist_layout *lay = &ctx->lay;
	struct report_stdio_opts *so = &ctx->so;
	struct session_opts sopts = { .vmlinux = ctx->vmlinux, .symfs = ctx->symfs };
	u64 sample_type = 0;
	int nr_comms, nr_dsos, nr_syms, callchain;
	int two_threads = ctx->threads != 1 && usable_cpus() > 1, two_threads_symbols = 1;

	ctx->setup_done = 1;
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

	if (hist_layout_parse(lay, ctx->sort_order, ctx->field_order,
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
	if (setup_filters(ctx, &nr_comms, &nr_dsos, &nr_syms))
		return -1;

	so->relative = ctx->percentage && !strcmp(ctx->percentage, "relative");
	so->min_percent = ctx->percent_limit ? strtof(ctx->percent_limit, NULL) : 0;
	so->time_str = ctx->time_str;
	if (ctx->cg.enabled) {
		so->callgraph = &ctx->cg;
		so->callgraph_skip_first = !ctx->field_order && ctx->sort_order &&
					   !strncmp(ctx->sort_order, "sym", 3);
	}
	so->elide_comm = single_item(ctx->filters.comms, nr_comms);
	so->elide_dso = single_item(ctx->filters.dsos, nr_dsos);
	so->elide_sym = single_item(ctx->filters.symbols, nr_syms);
	hist_layout_elide(lay, !!so->elide_comm, !!so->elide_dso, !!so->elide_sym);

	if (ctx->cpus) {
		int r = 0;

		if (!(sample_type & PD_SAMPLE_CPU))
			error("file does not contain CPU events: remove -C to proceed");
		else
			r = cpu_list_parse(ctx->cpus, &ctx->cpu_bitmap, pd_feature_nr_cpus(f, CPU_LIST_MAX));
		if (r == -1)
			return -1;
		if (r || !(sample_type & PD_SAMPLE_CPU)) {
			/* perf gives up after its preamble, and exits 0 */
			pager_start();
			report_stdio_begin(stdout, lay, so, 0);
			return 1;
		}
	}

	ctx->session = session_new(f, &sopts);
	if (!ctx->session)
		return -1;
	ctx->strs = hist_strings_new();
	ctx->nr_hists = f->nr_evsel;
	ctx->hists = xcalloc(f->nr_evsel ? f->nr_evsel : 1, sizeof(*ctx->hists));
	for (u32 i = 0; i < f->nr_evsel; i++) {
		hists_init(&ctx->hists[i], lay, ctx->strs);
		ctx->hists[i].one_thread = !two_threads;
		if (ctx->cg.enabled)
			hists_enable_callchains(&ctx->hists[i], ctx->cg.key,
						ctx->cg.order == CC_CALLER,
						ctx->cg.mode == CC_GRAPH_REL ? 0 :
						ctx->cg.min_percent);
	}
	if (!ctx->quiet && isatty(2))
		ctx->progress_start = ctx->progress_last = now();

	/* inlined entries are found where the chain is resolved: not on
	   the histogram thread */
	if (ctx->inline_frames && (sample_type & PD_SAMPLE_REGS_USER) &&
	    (sample_type & PD_SAMPLE_STACK_USER))
		two_threads_symbols = 0;
	if (!(ctx->resolve_flags & SESSION_NO_SYMBOL) && (lay->key_mask & (1u << HD_SYM)) &&
	    !ctx->cg.enabled && two_threads && two_threads_symbols) {
		ctx->pipe_items = xmalloc(PIPE_BATCH / ITEM_SIZE(struct item_node) *
					  sizeof(*ctx->pipe_items));
		ctx->pipe_ahead = xmalloc(PIPE_BATCH / ITEM_SIZE(struct item_node) *
					  sizeof(*ctx->pipe_ahead));
		ctx->park = !ctx->children;
		ctx->pipe = batchq_new(PIPE_BATCH, PIPE_BATCHES, consume_items, ctx);
		if (ctx->park)
			session_set_sync(ctx->session, sync_items, ctx);
		else
			session_set_sync(ctx->session, batchq_sync_cb, ctx->pipe);
	}
	if (ctx->cg.enabled) {
		ctx->sym_cache = xcalloc_written(1, sizeof(*ctx->sym_cache));
		ctx->sym_cache->gen = 1;
		session_set_sync(ctx->session, sync_chains, ctx);
	}
	if (ctx->cg.enabled && two_threads) {
		/* children mode records on the histogram thread
		   (hists_record_callgraph()) */
		if (!ctx->children) {
			ctx->rec_ahead = xmalloc(sizeof(*ctx->rec_ahead));
			ctx->rec_pipe = batchq_new(PIPE_BATCH, PIPE_BATCHES, consume_records, ctx);
		}
		ctx->cg_lookup = two_threads_symbols && !ctx->children;
		if (ctx->cg_lookup)
			ctx->lookups = xmalloc(LOOKUPS_PER_BATCH * sizeof(*ctx->lookups));
		ctx->chain_items = xmalloc((PIPE_BATCH / sizeof(struct item_chain) + 1) *
					   sizeof(*ctx->chain_items));
		if (ctx->children)
			ctx->chain_keys = xmalloc((PIPE_BATCH / sizeof(struct item_chain) + 1) *
						  sizeof(*ctx->chain_keys));
		ctx->cg_pipe = batchq_new(PIPE_BATCH, PIPE_BATCHES, consume_chains, ctx);
	}
	ctx->sample_flags = ctx->resolve_flags |
			    (ctx->pipe || ctx->cg_lookup ? SESSION_NO_SYMBOL : 0) |
			    (ctx->park && !ctx->filters.dsos ? SESSION_DEFER_KERNEL : 0);
	return 0;
}

/* Stops the threads report_setup() started, the trees handed back. */
static void stop_threads(struct report_ctx *ctx)
{
	if (ctx->pipe) {
		batchq_free(ctx->pipe);
		ctx->pipe = NULL;
		session_set_sync(ctx->session, NULL, NULL);
		if (ctx->nr_parked)
			unpark(ctx, 1, 1);
		free(ctx->pipe_items);
		free(ctx->pipe_ahead);
		free(ctx->parked);
		free(ctx->park_dsos);
	}
	if (ctx->cg_pipe) {
		batchq_free(ctx->cg_pipe);
		ctx->cg_pipe = NULL;
		batchq_free(ctx->rec_pipe);
		ctx->rec_pipe = NULL;
		free(ctx->rec_ahead);
		ctx->rec_ahead = NULL;
		free(ctx->lookups);
		ctx->lookups = NULL;
		free(ctx->chain_items);
		ctx->chain_items = NULL;
		free(ctx->chain_keys);
		ctx->chain_keys = NULL;
		/* the sync hook stays: with no pipe it only forgets lookups */
		ctx->cg_lookup = 0;
		free(ctx->cg_walks);
		ctx->cg_walks = NULL;
	}
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

static int flat_report(struct report_ctx *ctx, struct pd_file *f)
{
	const struct pd_ops ops = { report_record };
	u64 nr_entries = 0;
	int ret = 0;

	if (!f->pipe_mode)
		ret = report_setup(ctx, f);
	if (!ret)
		ret = pd_process(f, &ops, ctx);
	/* an empty stream: set up with what it had */
	if (!ret && !ctx->setup_done)
		ret = report_setup(ctx, f);
	stop_threads(ctx);
	progress_done(ctx);
	if (ret)
		goto out;
	warn_lost(ctx, f);

	pager_start();
	for (u32 i = 0; i < ctx->nr_hists; i++) {
		hists_finish(&ctx->hists[i], ctx->dsos != NULL);
		nr_entries += ctx->hists[i].nr_entries;
	}
	if (!nr_entries) {
		report_stdio_begin(stdout, &ctx->lay, &ctx->so, 0);
		error("the %s data has no samples", f->path);
		goto out;
	}
	ctx->so.total_lost_samples = f->stats.total_lost_samples;
	report_stdio_begin(stdout, &ctx->lay, &ctx->so, 1);
	for (u32 i = 0; i < ctx->nr_hists; i++) {
		char name[256];

		if (!ctx->hists[i].nr_samples)
			continue;
		pd_evsel_name(f, &f->evsel[i], name, sizeof(name));
		report_stdio_hists(stdout, &ctx->hists[i], name, &ctx->so);
	}
	report_stdio_end(stdout, &ctx->so);
out:
	if (ctx->hists)
		for (u32 i = 0; i < ctx->nr_hists; i++)
			hists_release(&ctx->hists[i]);
	free(ctx->hists);
	hist_strings_free(ctx->strs);
	if (ctx->session)
		session_free(ctx->session);
	free(ctx->sym_cache);
	free_list(ctx->filters.comms);
	free_list(ctx->filters.dsos);
	free_list(ctx->filters.symbols);
	free((void *)ctx->filters.sym_addrs);
	free((void *)ctx->filters.pids);
	free((void *)ctx->filters.tids);
	free(ctx->cpu_bitmap);
	chain_free(&ctx->cursor);
	free(ctx->dwarf_chain.v);
	free(ctx->time_ranges);
	if (ret < 0)
		return ret;
	return ctx->exit_status;
}

/* --stats: a record's decoding (decode_record()), the session model and
 * the sample's call chain counted. */
static int chainstats_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct report_ctx *ctx = vctx;
	struct pd_sample sample;

	if ((++ctx->nr_records & 0xffff) == 0 && ctx->progress_start)
		progress_update(ctx, f, ev->file_offset);
	if (ev->hdr->type != PD_REC_SAMPLE || !ev->evsel) {
		if (decode_record(ctx, f, ev))
			return -1;
		return session_event(ctx->session, ev);
	}
	if (session_event(ctx->session, ev) ||
	    pd_parse_sample(f, ev->evsel, ev->hdr, ev->file_offset, &sample))
		return -1;
	chainstats_sample(ctx->chainstats, ev, &sample);
	return 0;
}

/*
 * --stats: perf's record counts; on a file with call chains (unless -g
 * none), the call-chain statistics after them, the samples resolved
 * through the session model as the flat report resolves them.
 */
static int stats_report(struct report_ctx *ctx, struct pd_file *f)
{
	const struct pd_ops plain_ops = { decode_record }, chain_ops = { chainstats_record };
	struct session_opts sopts = { .vmlinux = ctx->vmlinux, .symfs = ctx->symfs };
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
	if (!ctx->quiet && isatty(2))
		ctx->progress_start = ctx->progress_last = now();
	start = now();
	ctx->session = session_new(f, &sopts);
	if (!ctx->session)
		return -1;
	if (ctx->max_stack < 1)
		ctx->max_stack = 1;
	ctx->chainstats = chainstats_new(ctx->session, ctx->cg.key, (u32)ctx->max_stack);
	ret = pd_process(f, &chain_ops, ctx);
	progress_done(ctx);
	if (ret >= 0) {
		stats_print(f, stdout);
		chainstats_print(ctx->chainstats, now() - start, stdout);
	}
	chainstats_free(ctx->chainstats);
	session_free(ctx->session);
	ctx->session = NULL;
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
	} else {
		ret = flat_report(&ctx, &f);
	}
out:
	fflush(stdout);
	pd_close(&f);
	/* perf exits with -EINVAL's low byte (234) for a bad --time */
	return ret == -EINVAL ? 256 - EINVAL : ret < 0 ? 1 : 0;
}
