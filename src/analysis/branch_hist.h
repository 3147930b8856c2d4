/*
 * branch_hist.h - perf report's branch mode: one histogram entry per
 * (source, target) branch of every sample's branch stack, as perf 6.1's
 * hist_iter_branch does (util/hist.c iter_add_next_branch_entry()).
 *
 * Each branch of a sample's stack counts as a sample of period 1 (perf's
 * pseudo period: the report shows the share of the branches taken, not of
 * the events sampled), keyed by the branch sort keys (dso_from,
 * symbol_from, dso_to, symbol_to, mispredict, in_tx, abort, cycles) and
 * the ordinary ones (comm, pid, dso and symbol, which in branch mode name
 * the branch's target, as perf's entry takes the target's map and symbol).
 * Both ends of a branch are resolved as perf's sample__resolve_bstack():
 * the target first, each end tried as a user, then a kernel address, else
 * unknown ('H').
 *
 * Use: branch_layout_parse(), branch_hist_init() per event,
 * branch_hist_add_sample() for each resolved sample (branch_hist_flush()
 * whenever the session model takes a record other than a sample: the
 * resolution cache is only valid between two), branch_hist_finish(), then
 * read bh->sorted.
 *
 * Invariants: nothing is allocated per branch (entries and their index
 * grow by doubling); an entry keeps what its first branch had (addresses,
 * privilege levels, the comm as read then); entries whose comms read the
 * same by the end are merged by branch_hist_finish(), as perf's collapse
 * does.
 */
#ifndef PROF_ANALYSIS_BRANCH_HIST_H
#define PROF_ANALYSIS_BRANCH_HIST_H

#include "../session/session.h"

/* Columns and sort keys of branch mode, named as in perf's --sort. */
enum branch_dim {
	BD_OVERHEAD,	/* "overhead": share of the branches */
	BD_SAMPLE,	/* "sample": number of branches (-n) */
	BD_PERIOD,	/* "period" (--show-total-period) */
	BD_PID,		/* "pid": tid and latest comm */
	BD_COMM,	/* "comm" */
	BD_DSO,		/* "dso": the target's DSO */
	BD_SYM,		/* "symbol": the target's symbol */
	BD_DSO_FROM,	/* "dso_from" */
	BD_DSO_TO,	/* "dso_to" */
	BD_SYM_FROM,	/* "symbol_from" */
	BD_SYM_TO,	/* "symbol_to" */
	BD_MISPREDICT,	/* "mispredict" */
	BD_IN_TX,	/* "in_tx" */
	BD_ABORT,	/* "abort" */
	BD_CYCLES,	/* "cycles" */
	BD_NR,
};

/* What the branch report shows and how it orders it. */
struct branch_layout {
	enum branch_dim sort[BD_NR];	/* perf's sort list: overhead, then the keys */
	int nr_sort;
	enum branch_dim cols[BD_NR];	/* the columns, in order */
	int nr_cols;
};

/* perf's default sort order in branch mode. */
#define BRANCH_SORT_DEFAULT "comm,dso_from,symbol_from,symbol_to,cycles"

/*
 * Builds the layout from --sort (NULL: BRANCH_SORT_DEFAULT), -n and
 * --show-total-period as perf's setup_sorting() in branch mode.  Returns
 * 0, or -1 after an error naming the bad key.
 */
int branch_layout_parse(struct branch_layout *lay, const char *sort_order,
			int show_nr_samples, int show_total_period);

/* The title perf prints for a column. */
const char *branch_dim_header(enum branch_dim d);

/* One end of a branch, resolved. */
struct branch_end {
	const struct dso *dso;		/* NULL: "[unknown]" */
	const struct symbol *sym;	/* NULL: not resolved */
	u64 addr;			/* as recorded */
	u64 al_addr;			/* map-relative (printed when no symbol) */
	char level;			/* 'k', '.', 'H' */
	u32 dso_id;			/* the interned short name of dso (0: none) */
};

/* Most words of an entry's key. */
#define BRANCH_KEY_WORDS 24

/* One entry: the key of its dimensions and what its first branch had. */
struct branch_entry {
	u64 key[BRANCH_KEY_WORDS];	/* the sort keys' words (comm: its
					   string pointer, until
					   branch_hist_finish() makes it
					   the string's id) */
	u64 period, nr_samples;
	struct branch_end from, to;
	const char *comm;		/* as read at the first branch */
	const struct thread *thread;
	s32 tid;
	char level;			/* the sample's (the "symbol" key's) */
	u64 flags;			/* the branch's flags word */
	u16 cycles;
	u8 mispred, predicted, in_tx, abort;
	u8 filtered;			/* the first sample was filtered out */
	u32 hash;
};

/* The cache of resolved branch ends (thread, address), direct mapped. */
#define BRANCH_CACHE 4096

struct branch_cache_slot {
	const struct thread *thread;
	u64 addr;
	struct branch_end end;
};

/* The histogram of one event. */
struct branch_hist {
	const struct branch_layout *lay;
	int nr_words;			/* key words in use */
	struct branch_entry *entries;	/* in creation order */
	u32 nr_entries, alloc_entries;
	u32 *index;			/* open addressing: entry + 1, 0 empty */
	u32 index_mask;
	u64 nr_samples;			/* branches added */
	u64 nr_non_filtered_samples;
	u64 total_period, total_non_filtered_period;

	/* set by branch_hist_finish() */
	struct branch_entry **sorted;	/* output order, filtered left out */
	u32 nr_sorted;
	int col_width[BD_NR];
};

/* perf's branch_type_stat (util/branch.h): branch types of the added
 * branches, for the "Branch Statistics" after the report. */
struct branch_type_stat {
	u64 counts[16];		/* by PERF_BR_* type (0, unknown, not counted) */
	u64 new_counts[16];	/* PERF_BR_EXTEND_ABI's by new_type */
	u64 cond_fwd, cond_bwd, cross_4k, cross_2m;
};

/* perf's branch_type_count(): counts one branch (flags as recorded). */
void branch_type_count(struct branch_type_stat *st, u64 flags, u64 from, u64 to);

/* Resolves branch ends for all histograms of a report, with a cache. */
struct branch_resolver {
	struct session *session;
	struct branch_cache_slot *cache;	/* BRANCH_CACHE slots */
	int kernel_loaded;		/* session_kernel_loaded() when filled */
	const char **names;		/* interned strings by id (from 1) */
	u32 *name_index;		/* open addressing: id, 0 empty */
	u32 nr_names, alloc_names, name_mask;
	const struct dso **dso_ptrs;	/* DSO -> name id, open addressing */
	u32 *dso_ids;
	u32 nr_dsos, dso_mask;
};

void branch_resolver_init(struct branch_resolver *r, struct session *s);
void branch_resolver_release(struct branch_resolver *r);
/* Forgets the cache: call after the session model took a record that
 * may change maps or symbols (anything but a sample). */
void branch_hist_flush(struct branch_resolver *r);

void branch_hist_init(struct branch_hist *bh, const struct branch_layout *lay);
void branch_hist_release(struct branch_hist *bh);

/*
 * Adds each branch of sample's stack (nr entries of {from, to, flags} at
 * branch, as recorded) as perf does, with period 1; al is the sample's
 * own resolution (thread, comm, level), filtered its filter bits.  Each
 * add counts in st the type of the entry it reached (as perf's report
 * does: the entry's first branch's).
 */
void branch_hist_add_sample(struct branch_hist *bh, struct branch_resolver *r,
			    const struct addr_location *al, const u8 *branch, u64 nr,
			    u8 filtered, struct branch_type_stat *st);

/* Merges entries whose comms now read the same, orders the shown ones
 * as perf's output does and computes the column widths (dso_list_given:
 * --dsos, which keeps perf from widening DSO columns for unresolved
 * symbols). */
void branch_hist_finish(struct branch_hist *bh, struct branch_resolver *r,
			int dso_list_given);

#endif
