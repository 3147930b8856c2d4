/*
 * diff.h - "perf diff"'s rows (perf 6.1): the entries of one event's flat
 * histograms in two or more files matched by key, the computations
 * (delta, delta-abs, ratio, wdiff) against the baseline, and the order of
 * the rows.
 *
 * For an event of the baseline (file 0), the same event (type and config)
 * of each other file is found by diff_match_evsel().  The entries of the
 * files are matched by the sort keys compared by value and name (comm,
 * DSO name, symbol name, cpu, tid), so that different builds of a program
 * line up; entries of one file equal by name count as one (perf's
 * collapse).  An entry found only in another file gets a row with an
 * empty baseline cell (perf's "dummy" entry).  Filtered entries match
 * too; a row is kept when the entry that names it is not filtered.  Rows
 * are ordered as perf's output sort list orders them: the compute column
 * of file --order first, then the baseline period, each file's compute
 * column, then the keys.
 *
 * Use: diff_compute_parse() for -c; diff_rows_init(), then the settings;
 * per event diff_rows_event(), then read the rows in sorted[] order;
 * diff_rows_free().
 *
 * Invariants: all histograms share one hist_strings, so comm and DSO
 * names compare as ids; a row has at most one cell per file, whose period
 * is the sum of the entries merged into it (0 when it has none); the
 * order is total (the last tie-break is the row number); the histograms
 * are only read, after hists_finish().
 */
#ifndef PROF_ANALYSIS_DIFF_H
#define PROF_ANALYSIS_DIFF_H

#include "hist.h"
#include "../format/reader.h"

/* perf diff's computations (-c). */
enum diff_compute {
	DIFF_COMPUTE_DELTA,
	DIFF_COMPUTE_RATIO,
	DIFF_COMPUTE_WDIFF,
	DIFF_COMPUTE_DELTA_ABS,
	DIFF_COMPUTE_CYCLES,	/* accepted, refused later: needs branch
				   stacks, not implemented */
};

/* One cell of a row: a file's entry and what was computed from it. */
struct diff_cell {
	const struct hist_entry *e;	/* NULL: the file has none */
	u64 period;		/* of e and the file's entries merged in */
	double delta;		/* percentage points against the baseline */
	double ratio;
	s64 wdiff;
};

/* The rows of one event across the files. */
struct diff_rows {
	/* set by diff_rows_init() */
	const struct hist_layout *lay;	/* the keys matched and ordered on
					   (elided ones are not ordered on) */
	const struct hist_strings *strs;	/* every histogram's */
	int nr_files;

	/* the settings, the caller's to set before diff_rows_event() */
	enum diff_compute compute;	/* -c */
	s64 w1, w2;			/* -c wdiff:w1,w2 */
	int order;			/* -o: the file sorted on first
					   (0: none) */
	int relative;			/* --percentage relative */
	int baseline_only;		/* -b: only rows the baseline has,
					   with a match in another file */

	/* the event, made by diff_rows_event() */
	const struct hists *const *hists;	/* per file, NULL: no such
						   event (the caller's) */
	u64 *total;			/* per file: the total its computed
					   values are shares of */
	struct diff_cell *cells;	/* nr_rows x nr_files */
	u32 nr_rows, alloc_rows;
	u32 *sorted;			/* the row numbers, in perf's order */
	u64 base_total;			/* what the Baseline column (and
					   the formula's baseline) is a
					   share of */
	u32 *index;			/* open addressing: row + 1 */
	u32 index_mask;
};

/* -c: delta, delta-abs, ratio or wdiff:w1,w2 into d->compute, d->w1 and
 * d->w2, as perf's setup_compute().  Returns 0, or -1 after an error. */
int diff_compute_parse(struct diff_rows *d, const char *s);

/* perf's evsel__match2(): the first event of f with the same type and
 * config as base, or -1. */
int diff_match_evsel(const struct pd_file *f, const struct pd_evsel *base);

/* Starts d for nr_files files whose histograms have layout lay and
 * strings strs (both must outlive d); the settings are left as they are. */
void diff_rows_init(struct diff_rows *d, const struct hist_layout *lay,
		    const struct hist_strings *strs, int nr_files);

/*
 * Makes the rows of one event: hists[i] is file i's histogram of it
 * (hists[0] not NULL; NULL: file i has no such event), kept until the
 * next call; shown[i] the periods of file i's samples not filtered out,
 * the total of its computations with --percentage relative.  The rows
 * left are the ones shown, in sorted[].
 */
void diff_rows_event(struct diff_rows *d, const struct hists *const *hists, const u64 *shown);

/* The cells of row r, the baseline's first. */
static inline const struct diff_cell *diff_row(const struct diff_rows *d, u32 r)
{
	return &d->cells[(size_t)r * d->nr_files];
}

/* The period of cell c: 0 when its file has no entry. */
static inline u64 diff_cell_period(const struct diff_cell *c)
{
	return c->e ? c->period : 0;
}

/* The file whose entry names row r: the baseline, else the first that
 * has it. */
int diff_row_key_file(const struct diff_rows *d, u32 r);

/* Frees what d holds (the settings and d itself are the caller's). */
void diff_rows_free(struct diff_rows *d);

#endif
