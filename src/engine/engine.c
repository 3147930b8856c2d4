/*
 * engine.c - the report engine (see engine.h): the configuration
 * completed once the events are known, the thread topology chosen
 * (engine_int.h draws it), every record read in order: the session model
 * fed, each sample resolved, filtered and handed to its histogram (on this
 * thread or through a queue), the threads stopped at the end.
 */
#include "engine_int.h"
#include "../event/trace_format.h"
#include "../util/cpu.h"

#include <assert.h>
#include <string.h>

void engine_show_progress(struct engine *eng, const struct pd_file *f, u64 offset)
{
	double share = -1;

	if (!f->pipe_mode && f->data_size && offset >= f->data_offset)
		share = (double)(offset - f->data_offset) / f->data_size;
	progress_show(&eng->progress, eng->nr_records, share);
}

/* The kernel symbol at *addr, for the trace key's function pointers. */
static const char *trace_resolve(void *arg, u64 *addr)
{
	struct engine *eng = arg;

	return session_kernel_symbol(eng->session, eng->trace_al, eng->trace_time, addr);
}

int engine_setup(struct engine *eng, struct pd_file *f)
{
	struct engine_config *cfg = eng->cfg;
	u64 sample_type = 0;
	int two_threads = cfg->threads != 1 && usable_cpus() > 1, two_threads_symbols = 1;
	int r;

	assert(!eng->configured);
	eng->configured = 1;
	if ((r = eng->configure(eng->configure_arg, f, cfg)))
		return r;
	/* the "trace" key names kernel addresses on the record thread, which
	   no other thread may do at the same time: one thread */
	if (cfg->trace_formats) {
		two_threads = 0;
		trace_formats_set_resolver(cfg->trace_formats, trace_resolve, eng);
	}
	eng->one_thread = !two_threads;
	eng->session = session_new(f, &cfg->sopts);
	if (!eng->session)
		return -1;
	if (eng->consumer) {
		/* a stream: one thread, no histograms */
		if (cfg->progress)
			progress_begin(&eng->progress);
		return 0;
	}
	assert(cfg->lay && cfg->filters && cfg->max_stack >= 0);
	for (u32 i = 0; i < f->nr_evsel; i++)
		sample_type |= f->evsel[i].attr.sample_type;
	eng->strs = hist_strings_new();
	eng->nr_hists = f->nr_evsel;
	eng->hists = xcalloc(f->nr_evsel ? f->nr_evsel : 1, sizeof(*eng->hists));
	for (u32 i = 0; i < f->nr_evsel; i++) {
		hists_init(&eng->hists[i], cfg->lay, eng->strs);
		eng->hists[i].one_thread = !two_threads;
		if (cfg->cg.enabled)
			hists_enable_callchains(&eng->hists[i], cfg->cg.key,
						cfg->cg.order == CC_CALLER,
						cfg->cg.mode == CC_GRAPH_REL ? 0 :
						cfg->cg.min_percent);
	}
	if (cfg->progress)
		progress_begin(&eng->progress);

	/* inlined entries are found where the chain is resolved: not on
	   the histogram thread */
	if (cfg->inline_frames && (sample_type & PD_SAMPLE_REGS_USER) &&
	    (sample_type & PD_SAMPLE_STACK_USER))
		two_threads_symbols = 0;
	if (!(cfg->resolve_flags & SESSION_NO_SYMBOL) && (cfg->lay->key_mask & (1u << HD_SYM)) &&
	    !cfg->cg.enabled && two_threads && two_threads_symbols) {
		eng->flat_items = xmalloc(QUEUE_BATCH / ITEM_SIZE(struct item_node) *
					  sizeof(*eng->flat_items));
		eng->ahead = xmalloc(QUEUE_BATCH / ITEM_SIZE(struct item_node) *
				     sizeof(*eng->ahead));
		eng->park = !cfg->children;
		eng->flat_q = batchq_new(QUEUE_BATCH, QUEUE_BATCHES, flat_consume, eng);
		if (eng->park)
			session_set_sync(eng->session, flat_sync, eng);
		else
			session_set_sync(eng->session, batchq_sync_cb, eng->flat_q);
	}
	if (cfg->cg.enabled) {
		eng->sym_cache = xcalloc_written(1, sizeof(*eng->sym_cache));
		eng->sym_cache->gen = 1;
		session_set_sync(eng->session, chains_sync, eng);
	}
	if (cfg->cg.enabled && two_threads) {
		/* children mode records on the histogram thread
		   (hists_record_callgraph()) */
		if (!cfg->children) {
			eng->rec_ahead = xmalloc(sizeof(*eng->rec_ahead));
			eng->record_q = batchq_new(QUEUE_BATCH, QUEUE_BATCHES,
						   chains_consume_records, eng);
		}
		eng->cg_lookup = two_threads_symbols && !cfg->children;
		if (eng->cg_lookup)
			eng->lookups = xmalloc(LOOKUPS_PER_BATCH * sizeof(*eng->lookups));
		eng->chain_items = xmalloc((QUEUE_BATCH / sizeof(struct item_chain) + 1) *
					   sizeof(*eng->chain_items));
		if (cfg->children)
			eng->chain_keys = xmalloc((QUEUE_BATCH / sizeof(struct item_chain) + 1) *
						  sizeof(*eng->chain_keys));
		eng->chain_q = batchq_new(QUEUE_BATCH, QUEUE_BATCHES, chains_consume, eng);
	}
	eng->sample_flags = cfg->resolve_flags |
			    (eng->flat_q || eng->cg_lookup ? SESSION_NO_SYMBOL : 0) |
			    (eng->park && !cfg->filters->dsos ? SESSION_DEFER_KERNEL : 0);
	return 0;
}

/* With the "trace" key: the sample's fields as perf prints them, as a
 * string id of the histograms (0 for an event that is no tracepoint). */
static void trace_key(struct engine *eng, struct hists *h, const struct pd_evsel *evsel,
		      const struct pd_sample *sample, const struct addr_location *al,
		      struct hist_prepared *p)
{
	struct trace_event *te = eng->cfg->trace_events[evsel->idx];
	const char *text;
	size_t len;

	if (!te)
		return;
	eng->trace_al = al;
	eng->trace_time = sample->time;
	text = sample->raw ? trace_format_print(eng->cfg->trace_formats, te, sample->cpu,
						 sample->raw, sample->raw_size, &len) : "";
	p->trace = hists_trace_id(h, text);
}

/* A resolved sample of evsel added to its event's histogram, here or
 * through the queue of the thread topology engine_setup() chose. */
static int add_sample(struct engine *eng, const struct pd_event *ev, const struct pd_evsel *evsel,
		      struct pd_sample *sample, struct addr_location *al)
{
	struct hist_prepared prepared;
	struct hists *h = &eng->hists[evsel->idx];

	if (eng->flat_q) {
		struct item_sample *it = batchq_alloc(eng->flat_q, sizeof(*it));

		it->kind = ITEM_SAMPLE;
		it->evsel_idx = evsel->idx;
		it->dso = al->dso;
		it->addr_listed = hist_symbol_addr_listed(eng->cfg->filters, al->map != NULL, sample->ip);
		it->kernel_unsure = al->kernel_unsure;
		hists_prepare(h, al, (s32)sample->cpu, sample->period,
			      hist_filter_thread_dso(eng->strs, eng->cfg->filters, al), &it->p);
		if (eng->cfg->trace_events)
			trace_key(eng, h, evsel, sample, al, &it->p);
		it->late = 0;
		it->p.seq = eng->nr_prepared++;
		if (!eng->cfg->children)
			return 0;	/* nothing below is for it (no call graph with a queue) */
	} else {
		hists_prepare(h, al, (s32)sample->cpu, sample->period,
			      eng->cg_lookup ? hist_filter_thread_dso(eng->strs, eng->cfg->filters, al) :
			      hist_filter_sample(eng->strs, eng->cfg->filters, al, sample->ip),
			      &prepared);
		if (eng->cfg->trace_events)
			trace_key(eng, h, evsel, sample, al, &prepared);
	}
	if (eng->cfg->cg.enabled || eng->cfg->children)
		session_dwarf_chain(eng->session, &evsel->attr, al, sample, eng->cfg->max_stack,
				    &eng->dwarf_chain);
	/* the chain is resolved while the entry's index slot comes in */
	if (eng->cfg->cg.enabled) {
		if (!eng->flat_q && !eng->chain_q)
			hists_prefetch(h, &prepared, al->sym, 0);
		cursor_resolve(eng, sample, al, &eng->cursor);
	}
	if (eng->chain_q) {
		chains_send(eng, evsel->idx, sample, &prepared, al);
		return 0;
	}
	if (!eng->flat_q && hists_add_prepared(h, &prepared, al->sym, 0, al->dso, 0) &&
	    eng->cfg->resolve_flags) {
		struct addr_location full;

		session_resolve(eng->session, ev, sample, &full);
		hists_set_sym(h, full.sym);
	}
	if (eng->cfg->cg.enabled)
		chains_add(eng, h, sample);
	else if (eng->cfg->children && sample->callchain_nr)
		cursor_add_children(eng, h, sample, al);
	return 0;
}

/*
 * One record in file order: the session model fed with it, or the sample
 * resolved, filtered (--time, -C) and added to its event's histogram (a
 * PERF_SAMPLE_READ sample to the histogram of each event it read, with
 * the value's growth as its period, as perf does).
 */
static int engine_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct engine *eng = vctx;
	struct pd_sample sample;
	struct addr_location al;
	struct pd_evsel *evsel = ev->evsel, *member;
	u64 k = 0, period;

	if (!eng->configured) {
		int r;

		/* a stream: its events, features and such come first */
		if (ev->hdr->type >= PD_REC_USER_START)
			return 0;
		if ((r = engine_setup(eng, f)))
			return r;
	}
	if ((++eng->nr_records & 0xffff) == 0 && eng->progress.start)
		engine_show_progress(eng, f, ev->file_offset);
	/* a sample changes nothing in the session */
	if (ev->hdr->type != PD_REC_SAMPLE)
		return session_event(eng->session, ev) ? -1 : 0;
	if (!evsel || evsel->idx >= eng->nr_hists)
		return 0;
	/* a flat sample reads no field past the call chain (the raw data
	   of the trace key is past it) */
	if ((eng->flat_q && !eng->cfg->children && !eng->cfg->trace_events ?
	     pd_parse_sample_head : pd_parse_sample)(
		    f, evsel, ev->hdr, ev->file_offset, &sample))
		return -1;
	if (eng->cfg->nr_time_ranges &&
	    time_ranges_skip(eng->cfg->time_ranges, eng->cfg->nr_time_ranges, sample.time))
		return 0;
	if (session_resolve_flags(eng->session, ev, &sample, eng->sample_flags, &al))
		return 0;
	if (eng->cfg->cpu_bitmap &&
	    (sample.cpu >= CPU_LIST_MAX || !(eng->cfg->cpu_bitmap[sample.cpu / 8] & (1 << (sample.cpu % 8)))))
		return 0;
	if (!(evsel->attr.sample_type & PD_SAMPLE_READ))
		return add_sample(eng, ev, evsel, &sample, &al);
	while (pd_read_next(f, evsel, &sample, &eng->read_state, &k, &member, &period)) {
		/* each its own copy: the chain's walk may change them */
		struct pd_sample one = sample;
		struct addr_location one_al = al;

		one.period = period;
		if (member->idx < eng->nr_hists && add_sample(eng, ev, member, &one, &one_al))
			return -1;
	}
	return 0;
}

/* Stops the threads engine_setup() started, the trees handed back. */
static void stop_threads(struct engine *eng)
{
	if (eng->flat_q) {
		batchq_free(eng->flat_q);
		eng->flat_q = NULL;
		session_set_sync(eng->session, NULL, NULL);
		if (eng->nr_parked)
			flat_unpark(eng, 1, 1);
		free(eng->flat_items);
		free(eng->ahead);
		free(eng->parked);
		free(eng->park_dsos);
	}
	if (eng->chain_q) {
		batchq_free(eng->chain_q);
		eng->chain_q = NULL;
		batchq_free(eng->record_q);
		eng->record_q = NULL;
		free(eng->rec_ahead);
		eng->rec_ahead = NULL;
		free(eng->lookups);
		eng->lookups = NULL;
		free(eng->chain_items);
		eng->chain_items = NULL;
		free(eng->chain_keys);
		eng->chain_keys = NULL;
		/* the sync hook stays: with no queue it only forgets lookups */
		eng->cg_lookup = 0;
		free(eng->cg_walks);
		eng->cg_walks = NULL;
	}
}

struct engine *engine_new(struct engine_config *cfg, engine_configure_fn *configure, void *arg)
{
	struct engine *eng = xcalloc(1, sizeof(*eng));

	eng->cfg = cfg;
	eng->configure = configure;
	eng->configure_arg = arg;
	return eng;
}

int engine_run(struct engine *eng, struct pd_file *f)
{
	const struct pd_ops ops = { engine_record };
	int ret = 0;

	assert(!eng->configured && !eng->consumer);
	if (!f->pipe_mode)
		ret = engine_setup(eng, f);
	if (!ret)
		ret = pd_process(f, &ops, eng);
	/* an empty stream: set up with what it had */
	if (!ret && !eng->configured)
		ret = engine_setup(eng, f);
	stop_threads(eng);
	progress_end(&eng->progress);
	return ret;
}

int engine_one_thread(const struct engine *eng)
{
	return eng->one_thread;
}

struct hists *engine_hists(const struct engine *eng, u32 *nr)
{
	*nr = eng->nr_hists;
	return eng->hists;
}

void engine_free(struct engine *eng)
{
	if (!eng)
		return;
	assert(!eng->flat_q && !eng->chain_q);
	for (u32 i = 0; eng->hists && i < eng->nr_hists; i++)
		hists_release(&eng->hists[i]);
	free(eng->hists);
	hist_strings_free(eng->strs);
	if (eng->session)
		session_free(eng->session);
	free(eng->sym_cache);
	cursor_free(&eng->cursor);
	free(eng->dwarf_chain.v);
	pd_read_state_free(&eng->read_state);
	free(eng);
}
