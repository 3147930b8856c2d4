/*
 * hist_int.h - the histogram's fast paths, for the report engine only:
 * hists_add(), hist_filter_sample() and hists_add_callgraph() split in
 * halves for a pipeline of threads (the strings read on the thread that
 * resolves a sample, the adds on the thread that owns the histogram),
 * with prefetch hints a few adds ahead and children mode's call-graph
 * records.  Used as documented, they give the entries and trees the
 * calls of hist.h give.
 */
#ifndef PROF_ANALYSIS_HIST_INT_H
#define PROF_ANALYSIS_HIST_INT_H

#include "hist.h"

/* ---- filters in two halves ---------------------------------------------- */

/* hist_filter_sample() in two halves, for when the symbol is looked up on
 * another thread: the thread (comm, pid, tid) and DSO filters, and the
 * symbol filter, given whether --symbols lists the sample's address
 * (hist_symbol_addr_listed()).  Each half may run on its own thread. */
u8 hist_thread_dso_bits(struct hist_strings *strs, const struct hist_filters *flt,
			const struct addr_location *al);	/* with some filter set */
static inline u8 hist_filter_thread_dso(struct hist_strings *strs, const struct hist_filters *flt,
					const struct addr_location *al)
{
	if (!flt->comms && !flt->pids && !flt->tids && !flt->dsos)
		return 0;
	return hist_thread_dso_bits(strs, flt, al);
}
u8 hist_filter_symbol(struct hist_strings *strs, const struct hist_filters *flt,
		      const struct symbol *sym, int addr_listed);
/* Does --symbols list a sample's address ip (perf's address list, which
 * counts only when it fell in a map: has_map)? */
static inline int hist_symbol_addr_listed(const struct hist_filters *flt, int has_map, u64 ip)
{
	for (int i = 0; has_map && i < flt->nr_sym_addrs; i++)
		if (flt->sym_addrs[i] == ip)
			return 1;
	return 0;
}

/* ---- adds in two halves ---------------------------------------------------- */

/* A sample's add as hists_prepare() leaves it for the thread that owns the
 * histogram: its key without the symbol, and its origin (compact, since
 * a flat report hands one over per sample). */
struct hist_prepared {
	u64 period;
	u64 addr;		/* hist_entry.addr */
	u64 seq;		/* the sample's number (hist_origin.seq); the
				   caller's to set */
	const struct thread *thread;
	u32 comm, comm_slot;	/* hist_entry.comm, hist_origin.comm_slot */
	u32 dso_name;
	s32 tid, cpu;
	u32 trace;		/* hist_entry.trace: 0 from hists_prepare(),
				   the caller's to set (hists_trace_id()) */
	char level;
	u8 filtered;
};

/*
 * hists_add() in two halves, for when symbols are looked up on another
 * thread: hists_prepare() reads the strings of al (comm, DSO) on the thread
 * that resolved it, and hists_add_prepared() adds the result with the
 * symbol found meanwhile (and more filter bits), on the thread that owns
 * h's entries.  The halves keep the order of the adds.
 */
/* The string id of a tracepoint sample's text for hist_prepared.trace
 * (on the thread that calls hists_prepare()). */
u32 hists_trace_id(struct hists *h, const char *text);

void hists_prepare(struct hists *h, const struct addr_location *al, s32 cpu,
		   u64 period, u8 filtered, struct hist_prepared *p);
/* late: see hist_pending.late (p->seq says where the sample belongs). */
int hists_add_prepared(struct hists *h, const struct hist_prepared *p,
		       const struct symbol *sym, u8 filtered, const struct dso *dso, int late);
/* Brings into the cache the index slot hists_add_prepared() will read
 * for this add (stage 0) and then, once that is in, the entry the slot
 * holds and its origin (stage 1): a hint, for an add made a little
 * later. */
void hists_prefetch(const struct hists *h, const struct hist_prepared *p,
		    const struct symbol *sym, int stage);
/*
 * hists_add_prepared() without call chains (not children mode) or a
 * queue: hists_flat_hash() gives the key's hash and brings in its index
 * slot, then hists_flat_prefetch() the entry the slot holds, a few adds
 * ahead; hists_add_flat() applies the adds queued before, then this one
 * (late: see hist_pending.late).
 */
u32 hists_flat_hash(const struct hists *h, const struct hist_prepared *p,
		    const struct symbol *sym);
void hists_flat_prefetch(const struct hists *h, u32 hash);
void hists_add_flat(struct hists *h, const struct hist_prepared *p,
		    const struct symbol *sym, u8 filtered, u32 hash, int late);
/* The string id of a DSO's name (0 for NULL), on the thread that prepares. */
u32 hist_dso_id(struct hist_strings *strs, const struct dso *dso);
/* hists_add_chain() for a histogram with a symbol key, from the node's
 * DSO name id (hist_dso_id()) and symbol: the owner's half. */
int hists_add_chain_node(struct hists *h, u32 dso_name, const struct symbol *sym,
			 u64 addr, char level);

/* ---- call graphs in two halves --------------------------------------------- */

/*
 * hists_add_callgraph() in two halves, for when the histogram is another
 * thread's: the resolving thread gives each item's DSO name id
 * (hist_dso_id(), children mode only), and the histogram's thread, after
 * the sample's hists_add_prepared(), calls hists_callgraph_walks() to make
 * the adds and say which entry (walks[].tree) gets which part of the
 * chain (room for nr + 1 walks; returns how many), then
 * callchain_record() with them.
 */
u32 hists_callgraph_walks(struct hists *h, const struct cc_item *items, const u32 *dso_names,
			  const char *levels, u32 nr, int children, struct cc_walk *walks);
/*
 * Children mode's second half, walks and record at once: a sample with
 * the entry and chain (items and levels) of one recorded before only adds
 * its period to that record, and hists_finish() credits the entries the
 * chain reaches with it then (the first such sample made its walks and
 * adds); a new one is walked and recorded.  hash: hists_chain_key() of
 * the sample; walks: room for nr + 1.
 */
void hists_record_callgraph(struct hists *h, const struct cc_chain_hash *hash,
			    const struct cc_item *items, const u32 *dso_names, const char *levels,
			    u32 nr, u64 period, struct cc_walk *walks);
/* The key hists_record_callgraph() finds a sample's record by, from its
 * prepared add (with sym and dso) and chain: computable ahead of the add,
 * for callchain_record_prefetch(). */
void hists_chain_key(const struct hists *h, const struct hist_prepared *p,
		     const struct symbol *sym, const struct dso *dso, const struct cc_item *items,
		     const char *levels, u32 nr, struct cc_chain_hash *hash);

#endif
