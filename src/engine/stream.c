/*
 * stream.c - the engine as a sample stream (see engine.h): every record
 * read in order on the caller's thread, the session model fed, each sample
 * parsed, filtered (--time, the consumer's filter, -C), resolved and
 * handed to the consumer; a sample's call chain walked by the call-chain
 * cursor (session/chain.h), a dwarf sample's unwound part joined once.
 */
#include "engine_int.h"

#include <assert.h>

/* Whether cpu is outside the -C bitmap (NULL: every CPU is in). */
static int cpu_skipped(const unsigned char *bitmap, u32 cpu)
{
	return bitmap && (cpu >= CPU_LIST_MAX || !(bitmap[cpu / 8] & (1 << (cpu % 8))));
}

/* A PERF_SAMPLE_READ sample handed to the consumer once per value read,
 * as a sample of that value's event with its growth as the period. */
static int read_samples(struct engine *eng, const struct pd_file *f, struct engine_sample *s)
{
	const struct engine_consumer *c = eng->consumer;
	const struct pd_evsel *from = s->evsel;
	const struct pd_sample read = s->sample;
	const struct addr_location al = s->al;
	struct pd_evsel *member;
	u64 k = 0, period;
	int r;

	while (pd_read_next(f, from, &read, &eng->read_state, &k, &member, &period)) {
		s->evsel = member;
		s->sample = read;
		s->sample.period = period;
		s->al = al;
		s->unwound = 0;
		if (c->sample && (r = c->sample(c->arg, s)))
			return r;
	}
	return 0;
}

static int stream_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct engine *eng = vctx;
	const struct engine_consumer *c = eng->consumer;
	const struct engine_config *cfg = eng->cfg;
	struct engine_sample s;
	int r;

	if (!eng->configured) {
		/* a stream: its events, features and such come first */
		if (ev->hdr->type >= PD_REC_USER_START)
			return 0;
		if ((r = engine_setup(eng, f)))
			return r;
	}
	if ((++eng->nr_records & 0xffff) == 0 && eng->progress.start)
		engine_show_progress(eng, f, ev->file_offset);
	r = c->record ? c->record(c->arg, f, ev) : 0;
	if (r < 0)
		return r;
	/* a sample changes nothing in the session */
	if (ev->hdr->type != PD_REC_SAMPLE)
		return session_event(eng->session, ev) ? -1 : 0;
	if (r == ENGINE_SKIP || !ev->evsel)
		return 0;
	s.eng = eng;
	s.session = eng->session;
	s.ev = ev;
	s.evsel = ev->evsel;
	s.unwound = 0;
	if (pd_parse_sample(f, s.evsel, ev->hdr, ev->file_offset, &s.sample))
		return -1;
	if (cfg->nr_time_ranges &&
	    time_ranges_skip(cfg->time_ranges, cfg->nr_time_ranges, s.sample.time))
		return 0;
	if (c->filter && (r = c->filter(c->arg, &s)))
		return r < 0 ? r : 0;
	if (session_resolve_flags(eng->session, ev, &s.sample, cfg->resolve_flags, &s.al))
		return 0;
	if (cpu_skipped(cfg->cpu_bitmap, s.sample.cpu))
		return 0;
	if (!(s.evsel->attr.sample_type & PD_SAMPLE_READ))
		return c->sample ? c->sample(c->arg, &s) : 0;
	return read_samples(eng, f, &s);
}

int engine_stream(struct engine *eng, struct pd_file *f, const struct engine_consumer *consumer)
{
	const struct pd_ops ops = { stream_record };
	int ret = 0;

	assert(!eng->configured && !eng->consumer && consumer);
	eng->consumer = consumer;
	if (!f->pipe_mode)
		ret = engine_setup(eng, f);
	/* an empty stream stays unconfigured: nothing was read to check */
	if (!ret)
		ret = pd_process(f, &ops, eng);
	progress_end(&eng->progress);
	return ret;
}

void engine_chain_begin(struct engine_sample *s, struct chain_walk *w, enum chain_order order,
			int max_stack, int flags)
{
	struct engine *eng = s->eng;

	assert(s->al.thread);
	if ((flags & ENGINE_CHAIN_UNWIND) && !s->unwound) {
		session_dwarf_chain(eng->session, &s->evsel->attr, &s->al, &s->sample, max_stack,
				    &eng->dwarf_chain);
		s->unwound = 1;
	}
	chain_begin(w, eng->session, &s->sample, &s->al, order,
		    max_stack > 0 ? (u32)max_stack : 0, !!(flags & ENGINE_CHAIN_INLINES));
}
