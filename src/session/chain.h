/*
 * chain.h - the call-chain cursor: a sample's call chain walked by perf's
 * rules (perf 6.1's thread__resolve_callchain(): thread__resolve_callchain_
 * sample(), find_prev_cpumode(), add_callchain_ip(), append_inlines()),
 * one frame at a time, for every front end (report, script, flame,
 * chainstats).  The rules live here only:
 *
 *  - order: callee order walks the chain as recorded, leaf first, each
 *    context marker setting the cpumode of the addresses after it (user
 *    before the first); caller order walks it backwards, the outermost
 *    caller first, starting in the cpumode of the chain's last marker and
 *    taking at each marker the cpumode of the marker before it (unchanged
 *    when there is none), as perf's find_prev_cpumode() does;
 *  - a marker perf does not know (the guest ones) drops the chain: the
 *    frames yielded so far are discarded and the walk is over (perf 6.1
 *    still appends the unwound part of a dwarf sample after such a drop in
 *    callee order, though not in caller order; the cursor drops it in
 *    both, as prof's walks always did: no test compares that case, and
 *    tests/perf/KNOWN-DIFFERENCES.md lists it);
 *  - --max-stack: at most max_stack recorded addresses (markers do not
 *    count); at the limit perf stops reading the recorded part, markers
 *    after it included;
 *  - the unwound part (a --call-graph dwarf sample's user frames joined to
 *    the recorded chain by session_dwarf_chain(), from
 *    sample->callchain_addrs_from on) has no markers, is already cut to
 *    --max-stack and is user mode; in callee order it follows the recorded
 *    part (also when that stopped at the limit), in caller order it comes
 *    first;
 *  - with inline frames on, perf puts the functions inlined at an unwound
 *    address in its place (chain_frame_inlines(), chain_inlines()).
 *
 * Use: chain_begin(), then chain_next() until it says CHAIN_END or
 * CHAIN_DROPPED; chain_resolve() finds a frame's map and DSO (any time
 * before the next chain_begin()).
 *
 * Invariants: a walk allocates nothing; it reads the sample's chain in
 * place, so the sample (and its chain) must stay as they are until the
 * walk is done.  The map cache remembers the first CHAIN_MAPS maps the
 * walk resolved: a thread's maps do not overlap and do not change within
 * a record (session.h), so an address in one of them, in the same cpumode,
 * resolves to it again.
 */
#ifndef PROF_SESSION_CHAIN_H
#define PROF_SESSION_CHAIN_H

#include "session.h"

/* The order of a walk. */
enum chain_order {
	CHAIN_CALLEE,	/* the sampled address first */
	CHAIN_CALLER,	/* the outermost caller first */
};

/* What chain_next() says. */
enum chain_step {
	CHAIN_END = 0,		/* no more frames */
	CHAIN_FRAME = 1,	/* *f is the next frame */
	CHAIN_DROPPED = -1,	/* perf empties the chain: discard every frame
				   yielded; the walk is over */
};

/* One address of the chain. */
struct chain_frame {
	u64 ip;			/* as recorded */
	u8 cpumode;		/* PD_MISC_KERNEL, _USER or _HYPERVISOR */
	u8 unwound;		/* in the unwound (dwarf) user part */
};

/* How many maps a walk remembers (a chain's addresses fall in a few). */
#define CHAIN_MAPS 8

struct chain_map {
	u64 start, size;	/* the map's range */
	u64 delta;		/* map-relative address - ip */
	struct map *map;
	struct dso *dso;
	u8 cpumode;		/* what it was found with */
	char level;
};

/* A walk (see above); its fields are the cursor's own. */
struct chain_walk {
	struct session *session;
	const struct addr_location *sample_al;	/* the sample's */
	u64 time;		/* the sample's */
	const u8 *chain;	/* the sample's callchain */
	u64 n;			/* its entries */
	u64 unwound_from;	/* where the unwound part starts (n: none) */
	u64 i;			/* entries read (from the walk's start) */
	u32 left;		/* recorded addresses still to yield */
	int cpumode;		/* of the next address; -1: dropped */
	u8 caller;		/* CHAIN_CALLER */
	u8 inline_frames;
	u32 nr_maps;
	struct chain_map maps[CHAIN_MAPS];
};

/*
 * Begins a walk of sample's chain (sample_al: the sample's resolution,
 * for its thread) in order, with at most max_stack recorded addresses,
 * inline frames on or off.  The walk reads the chain as it is now: a
 * dwarf sample is joined (session_dwarf_chain()) before.
 */
void chain_begin(struct chain_walk *w, struct session *s, const struct pd_sample *sample,
		 const struct addr_location *sample_al, enum chain_order order,
		 u32 max_stack, int inline_frames);

/* The most frames the walk yields, inlined functions not counted. */
u64 chain_max_frames(const struct pd_sample *sample, u32 max_stack);

/* chain_next()'s part at a context marker (or the limit): moves on;
 * returns CHAIN_FRAME to go on reading, else what chain_next() says. */
int chain_skip(struct chain_walk *w, u64 j, u64 ip);

/* The next frame of the walk into *f (see enum chain_step). */
static inline int chain_next(struct chain_walk *w, struct chain_frame *f)
{
	for (;;) {
		u64 j, ip;
		int r;

		if (w->i >= w->n)
			return w->cpumode < 0 ? CHAIN_DROPPED : CHAIN_END;
		j = w->caller ? w->n - 1 - w->i : w->i;
		ip = pd_get64(w->chain + j * 8);
		if (j >= w->unwound_from) {
			w->i++;
			f->ip = ip;
			f->cpumode = PD_MISC_USER;
			f->unwound = 1;
			return CHAIN_FRAME;
		}
		if (w->left && ip < PD_CONTEXT_MAX) {
			w->i++;
			w->left--;
			f->ip = ip;
			f->cpumode = (u8)w->cpumode;
			f->unwound = 0;
			return CHAIN_FRAME;
		}
		if ((r = chain_skip(w, j, ip)) != CHAIN_FRAME)
			return r;
	}
}

/* chain_resolve()'s lookup in the session, the map remembered. */
int chain_resolve_map(struct chain_walk *w, u64 ip, u8 cpumode, struct addr_location *al);

/*
 * Resolves a frame of the walk (ip, cpumode) to its map and DSO as
 * session_resolve_addr_flags() with SESSION_NO_SYMBOL does, into *al;
 * al->sym stays NULL (session_find_symbol() looks it up).  Returns 1 when
 * the walk had reached the map before (in the same cpumode), else 0.
 */
static inline int chain_resolve(struct chain_walk *w, u64 ip, u8 cpumode,
				struct addr_location *al)
{
	const struct addr_location *s = w->sample_al;

	for (u32 m = 0; m < w->nr_maps; m++) {
		const struct chain_map *c = &w->maps[m];

		if (c->cpumode == cpumode && ip - c->start < c->size) {
			al->thread = s->thread;
			al->comm = s->comm;
			al->comm_epoch = s->comm_epoch;
			al->pid = s->pid;
			al->tid = s->tid;
			al->map = c->map;
			al->dso = c->dso;
			al->sym = NULL;
			al->addr = ip + c->delta;
			al->cpumode = cpumode;
			al->level = c->level;
			al->kernel_unsure = 0;
			return 1;
		}
	}
	return chain_resolve_map(w, ip, cpumode, al);
}

/* Whether perf puts the functions inlined at the frame's address in its
 * place (chain_inlines()). */
static inline int chain_frame_inlines(const struct chain_walk *w, const struct chain_frame *f)
{
	return w->inline_frames && f->unwound;
}

/*
 * For a frame chain_frame_inlines() says so of, resolved with its symbol
 * into al: how many entries take its place (0: it stays as it is); entry
 * x (0 first in the walk's order) is chain_inline_sym(w, syms, k, x).
 * *syms is valid until the next call (session_inlines()).
 */
static inline u32 chain_inlines(const struct chain_walk *w, const struct addr_location *al,
				const struct symbol *const **syms)
{
	return session_inlines(w->session, al, syms);
}

/* Entry x of chain_inlines()'s k, in the walk's order (session_inlines()
 * gives them innermost first, perf's callee order). */
static inline const struct symbol *chain_inline_sym(const struct chain_walk *w,
						    const struct symbol *const *syms, u32 k, u32 x)
{
	return syms[w->caller ? k - 1 - x : x];
}

#endif
