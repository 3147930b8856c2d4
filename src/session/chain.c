/*
 * chain.c - the call-chain cursor's parts that do not run per frame (see
 * chain.h for the rules): the start of a walk, context markers, the
 * --max-stack limit and the session lookups behind the map cache.
 */
#include "chain.h"

/*
 * perf's find_prev_cpumode(): the cpumode set by the last context marker
 * before chain[end], or cur when there is none (-1: a marker perf does not
 * know, see pd_context_cpumode()).
 */
static int prev_cpumode(const u8 *chain, u64 end, int cur)
{
	while (end-- > 0) {
		u64 ip = pd_get64(chain + end * 8);

		if (ip >= PD_CONTEXT_MAX)
			return pd_context_cpumode(ip);
	}
	return cur;
}

void chain_begin(struct chain_walk *w, struct session *s, const struct pd_sample *sample,
		 const struct addr_location *sample_al, enum chain_order order,
		 u32 max_stack, int inline_frames)
{
	w->session = s;
	w->sample_al = sample_al;
	w->time = sample->time;
	w->chain = sample->callchain;
	w->n = sample->callchain_nr;
	w->unwound_from = sample->callchain_addrs_from && sample->callchain_addrs_from < w->n ?
			  sample->callchain_addrs_from : w->n;
	w->i = 0;
	w->left = max_stack;
	w->caller = order == CHAIN_CALLER;
	w->inline_frames = !!inline_frames;
	w->nr_maps = 0;
	/* caller order starts in the cpumode of the recorded part's last
	   marker (perf looks for it before its loop, whatever the limit) */
	w->cpumode = w->caller ? prev_cpumode(w->chain, w->unwound_from, PD_MISC_USER) :
				 PD_MISC_USER;
	if (w->cpumode < 0)
		w->i = w->n;
}

u64 chain_max_frames(const struct pd_sample *sample, u32 max_stack)
{
	u64 n = sample->callchain_nr, recorded = n;

	if (sample->callchain_addrs_from && sample->callchain_addrs_from < n)
		recorded = sample->callchain_addrs_from;
	return (recorded < max_stack ? recorded : max_stack) + (n - recorded);
}

int chain_skip(struct chain_walk *w, u64 j, u64 ip)
{
	if (!w->left) {
		/* perf stops reading the recorded part at the limit; in
		   callee order the unwound part follows it */
		w->i = !w->caller && w->unwound_from < w->n ? w->unwound_from : w->n;
		w->cpumode = PD_MISC_USER;
		return CHAIN_FRAME;
	}
	w->cpumode = w->caller ? prev_cpumode(w->chain, j, w->cpumode) : pd_context_cpumode(ip);
	w->i++;
	if (w->cpumode < 0) {
		w->i = w->n;
		return CHAIN_DROPPED;
	}
	return CHAIN_FRAME;
}

int chain_resolve_map(struct chain_walk *w, u64 ip, u8 cpumode, struct addr_location *al)
{
	session_resolve_addr_flags(w->session, w->sample_al, w->time, cpumode, ip, SESSION_NO_SYMBOL, al);
	if (al->map && w->nr_maps < CHAIN_MAPS) {
		struct chain_map *c = &w->maps[w->nr_maps++];

		c->start = map_start(al->map);
		c->size = map_end(al->map) - c->start;
		c->delta = al->addr - ip;
		c->map = al->map;
		c->dso = al->dso;
		c->cpumode = cpumode;
		c->level = al->level;
	}
	return 0;
}
