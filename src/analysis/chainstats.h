/*
 * chainstats.h - call-chain statistics of a recording, for "prof report
 * --stats": how many samples and chain entries there are, how deep the
 * chains go, how many distinct call paths they make and which shared
 * objects leave frames unresolved ("[unknown]").
 *
 * Use: chainstats_new(); chainstats_chain() for every SAMPLE record,
 * after session_event() has seen it (and every record before it), and
 * when it says so chainstats_frames() once the sample is resolved; then
 * read the counters and chainstats_dsos(); chainstats_free().
 *
 * Definitions (the README's "prof report" section repeats them):
 *  - An entry is one address of a sample's PERF_SAMPLE_CALLCHAIN array
 *    that is not a context marker (PERF_CONTEXT_*, values >= -4095), as
 *    perf script walks the chain (session/chain.h) without a --max-stack
 *    limit: a chain with a marker perf does not know (guest) has none,
 *    perf drops it.  A sample's depth is its number of entries; "with a
 *    callchain" means a depth of at least 1.
 *  - Every entry is a frame, resolved as the flat report resolves it: in
 *    the sample's thread, with the cpumode of the last context marker
 *    before it (user when there is none).  A frame is unknown when it has
 *    no symbol: its map's DSO has no symbol there, or no map covers it
 *    (DSO "[unknown]").
 *  - The tree is one trie over all samples: each chain, outermost caller
 *    first, at most max_stack frames (the caller end, as the call graph
 *    takes them), is a path from the root; a node is a distinct
 *    (parent node, frame key) pair, the key being the frame's DSO and
 *    symbol start, or DSO and address when it has no symbol (or the key
 *    is CC_KEY_ADDRESS).  Distinct call paths = nodes, root excluded;
 *    the tree's depth = its longest path in nodes.
 *
 * Invariants: memory grows with the number of tree nodes, DSOs and the
 * longest chain only; nothing is allocated per sample.  The counters
 * never depend on the order of DSO loading or hash layout.
 */
#ifndef PROF_ANALYSIS_CHAINSTATS_H
#define PROF_ANALYSIS_CHAINSTATS_H

#include "../session/chain.h"
#include "../session/session.h"
#include "callchain.h"

/* Frames of one shared object (merged by the name perf shows). */
struct chainstats_dso {
	const char *name;	/* dso_short_name(); "[unknown]": no map */
	u64 frames;		/* entries that fell in it */
	u64 unknown;		/* of them, with no symbol */
};

/* Per-DSO counters while counting: open addressing by DSO pointer. */
struct chainstats_dso_slot {
	const struct dso *dso;
	u64 frames, unknown;
	int used;
};

/* A tree node, stored in the hash table that finds it. */
struct chainstats_node {
	const struct dso *dso;
	u64 key;		/* symbol start or address */
	u32 parent;		/* 0: the root */
	u32 id;			/* 0: empty slot */
};

struct chainstats {
	struct session *session;	/* the current sample's */
	enum cc_key key;
	u32 max_stack;		/* tree: frames used per chain */

	u64 samples;		/* SAMPLE records seen */
	u64 samples_with_chain;	/* of them, with at least one entry */
	u64 entries;		/* entries of all samples */
	u64 max_depth;		/* entries of the deepest sample */
	u64 tree_nodes;		/* distinct call paths */
	u64 tree_depth;		/* the tree's longest path, in nodes */
	u64 frames_unknown;	/* frames without a symbol */

	struct chainstats_node *nodes;	/* the tree's hash table */
	u32 node_mask;

	struct chainstats_dso_slot *dsos;
	u32 dso_mask, nr_dsos;

	struct chain_walk walk;	/* the current sample's chain */
	struct chain_frame *frames;	/* its entries, leaf first; grows to
					   the longest chain */
	u64 depth;			/* how many */
	u64 alloc_frames;
};

/* Makes the counters (key: how tree nodes match; max_stack: frames per
 * chain in the tree, at least 1). */
struct chainstats *chainstats_new(enum cc_key key, u32 max_stack);
void chainstats_free(struct chainstats *cs);

/*
 * Counts one parsed sample of session s and walks its chain.  Returns 1
 * when the chain has frames: then al (kept) is to be resolved to the
 * sample's thread (SESSION_NO_SYMBOL is enough) and chainstats_frames()
 * called before the next record; else 0.
 */
int chainstats_chain(struct chainstats *cs, struct session *s, const struct pd_sample *sample,
		     const struct addr_location *al);
/* Resolves and counts the frames chainstats_chain() walked. */
void chainstats_frames(struct chainstats *cs);

/* The per-DSO counts merged by name, sorted by unknown frames (most
 * first), then frames, then name; *nr gets their number.  The array is
 * the caller's to free(). */
struct chainstats_dso *chainstats_dsos(const struct chainstats *cs, u32 *nr);

#endif
