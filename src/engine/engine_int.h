/*
 * engine_int.h - the report engine's private parts (see engine.h): the
 * engine's state, the items its threads hand each other and the chain
 * cursor.  Only src/engine/ includes it.
 *
 * The thread topology, chosen by engine_setup() from the configuration:
 *
 *   one thread      the record thread resolves each sample (session model,
 *                   symbols, chain) and adds it to its histogram
 *   flat, symbols   the record thread resolves samples to thread, comm,
 *   (eng->flat_q)   map and DSO and hands item_samples (children mode:
 *                   and their chains' item_nodes) to the histogram
 *                   thread, which looks the symbols up (parking samples
 *                   whose DSO is still loading) and adds them
 *   call graphs     the record thread resolves samples and their chains
 *   (eng->chain_q)  (eng->cursor) and hands item_chains to the histogram
 *                   thread, which adds the entries and (outside children
 *                   mode) hands item_records on through eng->record_q back
 *                   to a third thread that records the chains for the
 *                   trees
 *
 * Invariants: items are handed over in record order and consumed in it,
 * so the result is that of one thread; the session model changes only on
 * the record thread, and before it changes a symbol its sync hook
 * (session_set_sync()) waits until the histogram thread is idle; a
 * symbol cache slot of an older generation is empty.
 */
#ifndef PROF_ENGINE_ENGINE_INT_H
#define PROF_ENGINE_ENGINE_INT_H

#include "engine.h"
#include "../analysis/callchain.h"
#include "../analysis/hist_int.h"
#include "../format/read_values.h"
#include "../session/chain.h"
#include "../session/session_int.h"
#include "../util/batchq.h"
#include "../util/error.h"
#include "../util/hash.h"
#include "../util/progress.h"

#include <stdlib.h>

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
 * eng->cg_lookup, else on this one), direct mapped: (dso, map-relative
 * address) to symbol and match value.  The addresses of call chains
 * repeat, and a hit reads one slot where a lookup reads a bucket, ranges
 * and the symbol.  A slot of an older generation is empty: the session's
 * sync hook (chains_sync()) starts a new generation before the session
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

static inline u32 sym_cache_slot(const struct dso *dso, u64 addr)
{
	return (u32)(hash_u64(addr ^ (u64)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL) >>
		     (64 - SYM_CACHE_BITS));
}

/* A sample's call chain resolved as perf's callchain cursor holds it; the
 * arrays have room for alloc items (chain_room()). */
struct chain_cursor {
	struct chain_walk walk;		/* the walk that makes it */
	struct cc_item *items;		/* in the graph's order */
	struct addr_location *als;	/* each item resolved */
	char *levels;			/* the privilege level perf gives each
					   item as a children-mode entry */
	struct chain_frame *frames;	/* cursor_add_children(): the walk's
					   frames */
	struct sym_lookup *lookups;	/* chains_lookup_symbols()'s */
	u32 nr, alloc;
};

/* Makes room for a chain of n items in c. */
static inline void chain_room(struct chain_cursor *c, u64 n)
{
	if (n <= c->alloc)
		return;
	if (n > 1u << 24)
		die("call chain of %llu entries", (unsigned long long)n);
	c->alloc = (u32)n;
	c->items = xrealloc(c->items, c->alloc * sizeof(*c->items));
	c->als = xrealloc(c->als, c->alloc * sizeof(*c->als));
	c->levels = xrealloc(c->levels, c->alloc);
	c->frames = xrealloc(c->frames, c->alloc * sizeof(*c->frames));
	c->lookups = xrealloc(c->lookups, c->alloc * sizeof(*c->lookups));
}


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

/* The queues between the threads: QUEUE_BATCHES batches of QUEUE_BATCH bytes. */
#define QUEUE_BATCH (256 << 10)
#define QUEUE_BATCHES 16

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


/*
 * Call graphs on two threads: this thread resolves each sample and its
 * chain and reads the strings (hists_prepare(), DSO name ids); the
 * histogram thread makes the sample's adds and records its chain with the
 * entries it reached (callchain_record()) for hists_finish() to build the
 * trees.  An item: this header, the chain's nr cc_items, then (children
 * mode only) their nr DSO name ids and their nr levels.
 *
 * With eng->cg_lookup the histogram thread also looks the symbols up (the
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
#define RECORDS_PER_BATCH (QUEUE_BATCH / ITEM_RECORD_SIZE(0, 1) + 1)

struct rec_ahead {
	const struct item_record *item[RECORDS_PER_BATCH];
	struct cc_chain_hash hash[RECORDS_PER_BATCH];
};


/* The most lookups a batch of item_chains needs: one per item and one per
 * sample (whose header is bigger than an item). */
#define LOOKUPS_PER_BATCH (QUEUE_BATCH / sizeof(struct cc_item) + 1)

struct engine {
	struct engine_config *cfg;	/* the caller's, completed by configure */
	engine_configure_fn *configure;
	void *configure_arg;
	int configured;			/* configure ran (engine_setup()) */
	int one_thread;			/* --threads 1 or one usable CPU */

	struct session *session;
	struct hist_strings *strs;
	struct hists *hists;		/* one per evsel */
	u32 nr_hists;			/* the evsels known at setup */
	int sample_flags;		/* what a sample is resolved with (set
					   up with the threads) */
	struct chain_cursor cursor;	/* the sample's chain */
	struct dwarf_chain dwarf_chain;	/* a dwarf sample's joined chain */

	/* flat samples with symbol keys on two threads (flat.c) */
	struct batchq *flat_q;		/* samples go to the histogram thread
					   through it */
	struct hists *flat_hists;	/* histogram thread: the last sample's */
	const unsigned char **flat_items;	/* histogram thread: where the
					   items of its batch start */
	struct flat_ahead *ahead;	/* and what it found ahead for them */
	int park;			/* samples whose DSO is not loaded yet
					   wait for it (no chain nodes) */
	u64 nr_prepared;		/* samples handed over (their numbers) */
	struct item_sample *parked;	/* histogram thread: samples waiting
					   for their DSOs, in order */
	u32 nr_parked, parked_room;
	struct dso **park_dsos;		/* the DSOs they wait for */
	u32 nr_park_dsos, park_dsos_room;

	/* call graphs on two or three threads (chains.c) */
	struct batchq *chain_q;		/* samples and chains go to the
					   histogram thread through it */
	struct cc_walk *cg_walks;	/* the histogram thread's scratch */
	u32 cg_walks_room;
	struct batchq *record_q;	/* and from it, chains to the record
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

	struct pd_read_state read_state;	/* PERF_SAMPLE_READ's last values */

	const struct engine_consumer *consumer;	/* engine_stream()'s */
	/* the "trace" key's sample being printed: its kernel addresses
	   are named from this thread */
	const struct addr_location *trace_al;
	u64 trace_time;
	u64 nr_records;			/* read so far */
	struct progress progress;	/* cfg->progress: the line on stderr */
};

/* engine.c: everything decided before the first sample (the caller's
 * configuration completed by its hook, the session, for engine_run() the
 * histograms and threads); a file's events are known at once, a stream's
 * arrive as records, so it runs at the first record after them.  Returns
 * 0 to go on, 1 when the configure hook ended the work, a negative value
 * on error. */
int engine_setup(struct engine *eng, struct pd_file *f);
/* The progress line: the share of the file read (unknown for a stream). */
void engine_show_progress(struct engine *eng, const struct pd_file *f, u64 offset);

/* flat.c: the histogram thread's side of eng->flat_q */
void flat_consume(void *arg, const void *items, size_t len);
void flat_sync(void *arg);
void flat_unpark(struct engine *eng, int drain, int load_kernel);

/* chains.c: both sides of eng->chain_q and eng->record_q */
void chains_consume(void *arg, const void *items, size_t len);
void chains_consume_records(void *arg, const void *items, size_t len);
void chains_sync(void *arg);
void chains_lookup_symbols(struct engine *eng, struct chain_cursor *c);
void chains_add(struct engine *eng, struct hists *h, const struct pd_sample *sample);
void chains_send(struct engine *eng, u32 evsel_idx, const struct pd_sample *sample,
		 const struct hist_prepared *prepared, const struct addr_location *al);

/* cursor.c: a sample's chain walked by perf's rules */
void cursor_resolve(struct engine *eng, const struct pd_sample *sample,
		    const struct addr_location *al, struct chain_cursor *c);
void cursor_add_children(struct engine *eng, struct hists *h, const struct pd_sample *sample,
			 const struct addr_location *al);
void cursor_free(struct chain_cursor *c);

#endif
