/*
 * hist.h - the flat histogram of "prof report": one entry per distinct
 * value of the sort keys, with perf 6.1's rules for merging, filtering,
 * ordering and column widths.
 *
 * Use: hist_layout_parse() turns --sort/--fields into the sort list and the
 * columns; hists_init() makes one histogram per event (all sharing a
 * hist_strings for interned names); hists_add() for every resolved sample
 * (and hists_add_chain() for its call chain in children mode);
 * hists_finish() once at the end, which applies what is queued, sorts the
 * entries for output and computes totals and widths; then the output
 * reads h->sorted.  With call graphs (hists_enable_callchains()) each
 * entry also has a call-graph tree, fed by hists_add_callgraph() after
 * each sample's add.  The report engine's faster variants of these calls
 * (adds split across threads, prefetching) are in hist_int.h.
 *
 * Invariants:
 *  - Entries are keyed only by the dimensions in the sort list.  Strings are
 *    interned (comm and DSO names get small ids, compared as integers);
 *    symbols are compared by pointer.  Nothing is allocated per sample:
 *    the entry array and its hash index grow by doubling.
 *  - An entry keeps what perf's hist_entry keeps from the sample that
 *    created it: thread (tid), symbol, address, privilege level and the
 *    filtered flag.  Later samples only add their period.
 *  - Adds are applied in the order they are made, the queued ones (symbol
 *    keys) at the latest by hists_finish(): the result is the same as
 *    applying each at once.
 */
#ifndef PROF_ANALYSIS_HIST_H
#define PROF_ANALYSIS_HIST_H

#include "../session/session.h"
#include "callchain.h"

/* ---- what the report shows ------------------------------------------------- */

/* Columns and sort keys, named as in perf's --sort and --fields. */
enum hist_dim {
	HD_CHILDREN,	/* "overhead_children": share with the callees */
	HD_OVERHEAD,	/* "overhead": share of the total period ("Self") */
	HD_SAMPLE,	/* "sample": number of samples */
	HD_PERIOD,	/* "period": sum of the periods */
	HD_PID,		/* "pid": tid and comm of the thread */
	HD_COMM,	/* "comm" */
	HD_DSO,		/* "dso" */
	HD_SYM,		/* "symbol" */
	HD_CPU,		/* "cpu" */
	HD_TRACE,	/* "trace": a tracepoint sample's fields as printed */
	HD_NR,
};

/* What the report shows and how it orders it. */
struct hist_layout {
	enum hist_dim sort[HD_NR];	/* perf's sort list, in order */
	int nr_sort;
	enum hist_dim cols[HD_NR];	/* output columns, in order */
	int nr_cols;
	unsigned key_mask;	/* 1 << dim for the dims that key an entry */
	unsigned elide_mask;	/* columns hidden by a one-item filter */
	int children;		/* perf's cumulate_callchain: entries also
				   collect the periods of the samples whose
				   call chains pass through them */
	int self_title;		/* "overhead" is titled "Self" (children
				   mode without a strict --fields) */
	int dso_sorted;		/* "dso" is one of the --sort keys (or of
				   the default's), not only a column: perf's
				   hists__has(dso) */
};

/*
 * Builds the layout from --sort (NULL: default "comm,dso,sym"), --fields
 * (NULL: none), -n, --show-total-period and children mode, as perf's
 * setup_sorting().  Returns 0, or -1 after printing an error about the bad
 * key.
 */
int hist_layout_parse(struct hist_layout *lay, const char *sort_order,
		      const char *field_order, int show_nr_samples,
		      int show_total_period, int children);

/* Hides the comm, dso and symbol columns whose filter list has exactly one
 * item, as perf's sort__setup_elide(), unless every key column would go. */
void hist_layout_elide(struct hist_layout *lay, int comm, int dso, int sym);

/* The title perf prints for a column ("Self" for overhead in children mode). */
const char *hist_dim_header(const struct hist_layout *lay, enum hist_dim d);

/* ---- making a histogram ---------------------------------------------------- */

/* Names interned for all histograms of a report. */
struct hist_strings;

struct hist_strings *hist_strings_new(void);
void hist_strings_free(struct hist_strings *hs);

struct hists;

void hists_init(struct hists *h, const struct hist_layout *lay, struct hist_strings *strs);
void hists_release(struct hists *h);

/* Gives every entry a call-graph tree whose items match by key (chains
 * in caller order when caller_first, which decides perf's tie-break on
 * chain depth in children mode); call before the first add (adds are
 * then applied at once).  print_percent: no node below this share of the
 * total period is printed (perf's threshold in graph, flat and folded
 * modes), so hists_finish() builds only the trees that can reach it;
 * 0 or less: every tree. */
void hists_enable_callchains(struct hists *h, enum cc_key key, int caller_first,
			     double print_percent);

/* Sample filters (--comms, --dsos, --symbols, --pid, --tid).  Each list is
 * NULL when not given. */
struct hist_filters {
	const char *const *comms;	/* NULL-terminated */
	const char *const *dsos;
	const char *const *symbols;	/* names (addresses taken out) */
	const u64 *sym_addrs;		/* the addresses: a sample's ip */
	int nr_sym_addrs;
	const s32 *pids;		/* nr_pids entries */
	int nr_pids;
	const s32 *tids;
	int nr_tids;
};

/* Returns the perf filter bits of a resolved sample (0: shown); ip is its
 * address as recorded. */
u8 hist_filter_sample(struct hist_strings *strs, const struct hist_filters *flt,
		      const struct addr_location *al, u64 ip);

/*
 * Adds one sample.  With a symbol key the add may wait in the queue (to
 * prefetch its entry) and 0 is returned.  Otherwise it is applied at once;
 * the return is 1 when it made an entry whose symbol may matter (see
 * hists_set_sym()): shown (not filtered), with a DSO and no symbol, while
 * no shown entry is known to have none.
 */
int hists_add(struct hists *h, const struct addr_location *al, s32 cpu,
	      u64 period, u8 filtered);

/*
 * Children mode: adds the last sample's period to the accumulated period
 * of the entry of one of its call-chain addresses (perf's
 * iter_add_next_cumulative_entry()), once per entry and sample.  node_al
 * is the resolved address (thread and comm are the sample's), addr the raw
 * address (what perf keys unresolved chain entries by) and level the
 * privilege marker perf gives the node.  Any number per
 * sample.  Returns as hists_add().
 */
int hists_add_chain(struct hists *h, const struct addr_location *node_al,
		    u64 addr, char level);

/*
 * Without a symbol key an entry's symbol only sizes the columns: perf
 * widens them when a shown entry has no symbol.  A caller that resolves
 * without symbols (SESSION_NO_SYMBOL) gives the entry just made its first
 * sample's symbol here when hists_add() or hists_add_chain() returned 1.
 */
void hists_set_sym(struct hists *h, const struct symbol *sym);

/*
 * Call graphs, a sample's chain at once (nr resolved items in the graph's
 * order, with their children-mode levels in levels[]), after the sample's
 * hists_add(): the chain goes to the tree of the sample's entry and, in
 * children mode, each item's entry (as hists_add_chain()) gets the chain
 * from that item on, once per sample, as perf's cumulative iterator does.
 */
void hists_add_callgraph(struct hists *h, const struct cc_item *items, const char *levels,
			 u32 nr, u64 period, int children);

/* Sorts for output and computes totals and column widths (dso_list_given:
 * --dsos was used, which keeps perf from widening the DSO column for
 * unresolved symbols). */
void hists_finish(struct hists *h, int dso_list_given);

/*
 * Event groups (perf's --group, the default for a file with groups): after
 * hists_finish() of the leader and of each member, perf's hists__match()
 * and hists__link(): every leader entry is paired with each member's
 * entry of the same key, a key only a member has gets a leader entry of
 * its own (zero counts, no call graph, its filtered flag copied), and the
 * leader is ordered again, ties in a count column broken by the members'
 * counts in group order (perf's __hpp__sort()).  members: the nr events
 * after the leader, in the group's order; they must outlive the leader's
 * printing.
 */
void hists_group_link(struct hists *leader, struct hists *const *members, u32 nr,
		      int dso_list_given);

/* After hists_group_link(): member m's (0: the first after the leader)
 * entry paired with leader entry e, or NULL. */
const struct hist_entry *hists_group_pair(const struct hists *leader, const struct hist_entry *e,
					  u32 m);

/* ---- reading it, after hists_finish() ------------------------------------- */

/*
 * One histogram entry: 64 bytes, kept on a cache line, holding what a
 * lookup compares and what an add updates (the rest of what perf keeps is
 * in hist_origin).
 */
struct hist_entry {
	u64 period;	/* sum of the samples' periods ("Self") */
	u64 acc_period;		/* children mode: period with the callees' */
	u64 nr_samples;		/* samples whose own ip is here */
	const struct symbol *sym;	/* the first sample's symbol, or NULL */
	u64 addr;		/* the first sample's address (unresolved syms) */
	u32 comm;		/* string id of the comm (as read when the
				   sample came; its final value after
				   hists_finish()) */
	u32 dso_name;		/* interned short name; 0: no DSO, "[unknown]" */
	s32 tid;		/* the first sample's thread */
	u32 hash;		/* of the key, for the index */
	u32 trace;		/* string id of the fields' text ("trace"
				   key); 0: not a tracepoint ("N/A") */
	s16 cpu;		/* -1 when the file has no CPU */
	char level;		/* 'k', '.', ... */
	u8 filtered;		/* the first sample was filtered out */
};

/* The interned string of id (comm or DSO name). */
const char *hist_string(const struct hist_strings *strs, u32 id);
/* The latest comm of the thread of entry he of h, as perf prints it for
 * "pid" and sizes the comm column by. */
const char *hist_thread_comm(const struct hists *h, const struct hist_entry *he);

/* ---- the histogram itself ------------------------------------------------- */

/* What an entry keeps of its first sample besides its key: read only when
 * printing, so it lives apart from the entries. */
struct hist_origin {
	const struct thread *thread;	/* the first sample's thread */
	u32 comm_slot;		/* the first sample's comm string */
	u32 max_depth;		/* the longest chain appended to it (perf's
				   callchain_root.max_depth; merges aside) */
	u64 seq;		/* the first sample's number in the stream
				   (hist_pending.late) */
};

/* Adds queued in a histogram with a symbol key before they are applied,
 * so that their entries can be prefetched (a power of two). */
#define HIST_QUEUE 16

/* hists.last_entry when the last add reached no new entry. */
#define HIST_NO_ENTRY 0xffffffffu

/* An add waiting in the queue. */
struct hist_pending {
	struct hist_entry key;	/* the entry's key; period: the sample's */
	struct hist_origin origin;
	int chain;		/* a call-chain node of the last sample before */
	int late;		/* applied after samples that came later than
				   it (origin.seq says where it belongs): an
				   entry it reaches becomes its if it came
				   first, and hists_finish() puts the
				   entries back in the order of their first
				   samples */
};

/* The histogram of one event. */
struct hists {
	const struct hist_layout *lay;
	struct hist_strings *strs;
	struct hist_entry *entries;	/* in creation order (64-byte aligned) */
	struct hist_origin *origins;	/* entry number -> its origin */
	u32 nr_entries, alloc_entries;
	u64 *index;		/* open addressing: hash << 32 | entry + 1 */
	u32 index_mask;
	int defer;		/* adds go through the queue (symbol keys:
				   many entries, lookups miss the cache) */
	struct hist_pending queue[HIST_QUEUE];
	u32 queue_head, queue_len;
	struct hist_pending cur;	/* the last sample's add, the template
					   of its call-chain nodes */
	u32 *seen;		/* entries the sample being applied
				   reached (children mode) */
	u32 nr_seen;
	const struct dso **chain_dsos;	/* without a symbol key: the DSOs of
					   the last sample's entries, which
					   name them */
	u32 nr_chain_dsos;
	u32 alloc_seen;		/* room in seen[] and chain_dsos[] */
	int one_thread;		/* hists_finish() starts no thread (the
				   caller's to set, after hists_init()) */
	int need_input_rank;	/* hists_finish() sets input_rank even
				   without call chains */
	int unresolved_shown;	/* a shown entry is known to have no symbol */
	u32 *late_entries;	/* entries late adds made or took over (a
				   number may repeat) */
	u32 nr_late_entries, alloc_late_entries;
	struct callchain_forest *cc;	/* call graphs, or NULL */
	int cc_caller_first;	/* the chains are in caller order */
	double cc_print_percent;	/* see hists_enable_callchains() */
	u32 *cc_roots;		/* entry -> root of its tree (0: none) */
	struct cc_walk *walks;	/* hists_add_callgraph()'s scratch */
	u32 *walk_dso_names;	/* and its items' DSO name ids */
	u32 alloc_walks;
	u32 last_entry;		/* with call graphs: the entry the last add
				   reached, or HIST_NO_ENTRY (a chain entry
				   the sample had reached already) */
	u64 nr_samples;		/* every sample added */
	u64 nr_non_filtered_samples;	/* samples of entries not filtered
					   (set by hists_finish()) */

	/* set by hists_finish() */
	struct hist_entry **sorted;	/* output order, filtered ones left out */
	u32 nr_sorted;
	u64 total_period, total_non_filtered_period;
	int col_width[HD_NR];	/* perf's width of each column */
	u32 *input_rank;	/* entry number -> its place in perf's input
				   tree (the order perf collapses entries
				   in); NULL without call chains, unless
				   need_input_rank */

	/* set by hists_group_link() on a group's leader */
	u32 group_nr;		/* members after the leader; 0: no group */
	struct hists **group_members;	/* group_nr of them */
	u32 *group_pair;	/* entry * group_nr + m -> member m's entry
				   + 1 (0: none) */
};

#endif
