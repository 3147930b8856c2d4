/*
 * engine.h - the report engine: reads a perf.data file through the
 * session model and turns its samples, resolved to thread, map, DSO and
 * symbol with their call chains, into one histogram per event (flat
 * entries, children-mode entries and call-graph trees).
 *
 * A command fills an engine_config with what it knows before the file is
 * read (symbol paths, threads, progress), hands a configure hook for what
 * depends on the file's events (perf's mode rules: call graphs, children
 * mode, the layout and the filters), runs the engine and prints the
 * histograms it returns.  How the work is spread over threads (one to
 * three), the queues between them, the look-ahead and prefetching, the
 * cache of symbol lookups and the parking of samples whose DSOs are still
 * loading are private to the engine (engine_int.h).
 *
 * A front end that wants the samples themselves (script's printer, the
 * flame folder, diff's histograms, the chain statistics) runs the engine
 * as a stream instead: engine_stream() hands each sample, resolved, to a
 * consumer in file order, and engine_chain_begin() walks its call chain by
 * perf's rules (session/chain.h), the unwound part of a dwarf sample
 * joined.
 *
 * Invariants: whatever the topology, the histograms are those one thread
 * reading the records in file order would make; the configure hook runs
 * once, before the first sample (a stream's: at its first record after its
 * header records); cfg is not changed by the caller while the engine runs;
 * a consumer sees the records and samples in file order, on the thread
 * that called engine_stream().
 */
#ifndef PROF_ENGINE_ENGINE_H
#define PROF_ENGINE_ENGINE_H

#include "../analysis/callchain.h"
#include "../analysis/hist.h"
#include "../format/reader.h"
#include "../session/chain.h"
#include "../session/session.h"
#include "../util/timerange.h"

/* What the engine resolves and adds, and how. */
struct engine_config {
	/* set before engine_run() */
	struct session_opts sopts;	/* -k, --symfs */
	int threads;			/* --threads: 1 keeps to one thread */
	int progress;			/* draw a progress line on stderr */

	/* set by the configure hook, from the file's events */
	const struct hist_layout *lay;	/* the histograms' keys and columns
					   (engine_run() only) */
	const struct hist_filters *filters;	/* (engine_run() only) */
	struct callchain_param cg;	/* cg.enabled: call-graph trees */
	int children;			/* children mode (cumulated chains) */
	int max_stack;			/* --max-stack, at least 0 */
	int inline_frames;		/* unwound addresses get their inlined
					   functions (session_inlines()) */
	int resolve_flags;		/* SESSION_NO_SYMBOL when no key,
					   column or filter names a symbol */
	const struct time_range *time_ranges;	/* --time: nr_time_ranges */
	int nr_time_ranges;		/* 0: every sample */
	const unsigned char *cpu_bitmap;	/* -C: NULL for all CPUs */
	struct trace_formats *trace_formats;	/* with the "trace" key: the
						   file's tracepoint formats */
	struct trace_event **trace_events;	/* and each event's (by evsel
						   index), NULL when it has none */
};

/*
 * The configure hook: called once the file's events are known, it
 * completes cfg (the engine's own, as passed to engine_new()).  Returns 0
 * to go on, 1 when there is nothing to report (the caller has printed
 * what perf prints then), -1 on error.
 */
typedef int engine_configure_fn(void *arg, struct pd_file *f, struct engine_config *cfg);

struct engine;

/* An engine that will read with cfg (kept, not copied), completed by
 * configure(arg, ...). */
struct engine *engine_new(struct engine_config *cfg, engine_configure_fn *configure, void *arg);

/*
 * Reads f to its end into the histograms.  Returns 0, 1 when the
 * configure hook ended the report, or a negative value on error (the
 * message printed; the configure hook's own negative value is passed on).
 */
int engine_run(struct engine *eng, struct pd_file *f);

/* The histograms, one per event of the file (f->evsel order), *nr of
 * them; valid until engine_free().  NULL before the engine configured. */
struct hists *engine_hists(const struct engine *eng, u32 *nr);

/* ---- the sample stream ---------------------------------------------------- */

/* One sample as a consumer sees it: valid until the consumer returns. */
struct engine_sample {
	struct engine *eng;
	struct session *session;	/* the engine's: for the consumer's own
					   lookups (chain_resolve(),
					   session_find_symbol()) */
	const struct pd_event *ev;
	struct pd_evsel *evsel;		/* ev->evsel, never NULL */
	struct pd_sample sample;	/* parsed */
	struct addr_location al;	/* where sample.ip falls (after
					   consumer.sample: resolved with
					   cfg->resolve_flags) */
	int unwound;			/* the engine's: the dwarf part is
					   joined (engine_chain_begin()) */
};

/* What engine_stream() returns from a consumer's record hook to have a
 * sample left out (not parsed, not resolved). */
#define ENGINE_SKIP 1

/*
 * A consumer of the sample stream.  Each hook returns 0 to go on or a
 * negative value to stop the run with it (the message printed); a hook
 * left NULL is not called.
 */
struct engine_consumer {
	/* every record, before the session model takes it; for a sample,
	   ENGINE_SKIP leaves it out */
	int (*record)(void *arg, struct pd_file *f, const struct pd_event *ev);
	/* a parsed sample inside --time (cfg->time_ranges), before it is
	   resolved: ENGINE_SKIP leaves it out */
	int (*filter)(void *arg, struct engine_sample *s);
	/* a resolved sample on a CPU of cfg->cpu_bitmap */
	int (*sample)(void *arg, struct engine_sample *s);
	void *arg;
};

/*
 * Reads f to its end, handing each sample to consumer (kept, not copied);
 * a stream with no record past its header records is not configured.
 * Returns 0, 1 when the configure hook ended the run, or a negative value
 * on error (the message printed; a hook's own negative value is passed
 * on).  An engine runs once: engine_run() or engine_stream().
 */
int engine_stream(struct engine *eng, struct pd_file *f, const struct engine_consumer *consumer);

/* engine_chain_begin()'s flags. */
#define ENGINE_CHAIN_UNWIND 1	/* join a dwarf sample's unwound user part */
#define ENGINE_CHAIN_INLINES 2	/* inlined functions at unwound addresses */

/*
 * Begins the walk w of s's call chain in order (chain.h), at most
 * max_stack recorded addresses (also the unwound part's bound; 0 or less:
 * none), as flags say.  The walk stays valid until the consumer returns.
 */
void engine_chain_begin(struct engine_sample *s, struct chain_walk *w, enum chain_order order,
			int max_stack, int flags);

/* 1 when the engine keeps to one thread (--threads 1, or one usable
 * CPU): the caller's own work on its results should too.  Valid once the
 * engine configured. */
int engine_one_thread(const struct engine *eng);

/* Frees the engine, its histograms, session and threads. */
void engine_free(struct engine *eng);

#endif
