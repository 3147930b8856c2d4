/*
 * diff_stdio.h - "perf diff"'s stdio layout (perf 6.1) of the rows that
 * analysis/diff.h made: per event the "# Event" line (and, with three
 * files or more, the "# Data files:" block), the title lines, then one
 * line per row: the diff columns (per file its compute column, Baseline
 * for the first, -F's formula, -p's period) and the key columns, as perf
 * prints them to a file; -t joins the fields with its separator instead
 * of aligning them.
 *
 * Invariants: the diff columns' widths are perf's fixed ones (at least
 * the title); the key columns' are perf's hists__calc_col_len() over the
 * rows shown, recomputed per event; nothing here changes the rows.
 */
#ifndef PROF_OUTPUT_DIFF_STDIO_H
#define PROF_OUTPUT_DIFF_STDIO_H

#include "../analysis/diff.h"

#include <stdio.h>

struct diff_col;

/* How the rows are printed. */
struct diff_stdio {
	/* the settings, the caller's to set before diff_stdio_event() */
	const char *field_sep;	/* -t, or NULL (aligned columns) */
	int show_period;	/* -p: the periods */
	int show_formula;	/* -F: the formulas */
	int quiet;		/* -q: no header or title lines */
	int dso_list_given;	/* -d: an unresolved symbol does not
				   widen the DSO column */

	/* made by diff_stdio_init() */
	struct diff_col *cols;	/* the diff columns, before the keys */
	int nr_cols;
	int key_width[HD_NR];	/* each key column's, per event */
};

/* The diff columns of nr_files files computing compute (not
 * DIFF_COMPUTE_CYCLES), as perf's ui_init(); the settings are left as
 * they are, but for show_period and show_formula, to be set before. */
void diff_stdio_init(struct diff_stdio *p, int nr_files, enum diff_compute compute);

/*
 * Prints the rows of d (made by diff_rows_event()) for the event named
 * event: its header unless quiet (paths: the nr_files file names for the
 * "# Data files:" block; first: the first event printed, which no blank
 * line comes before), the titles, the rows in d->sorted order.
 */
void diff_stdio_event(struct diff_stdio *p, const struct diff_rows *d, const char *event,
		      const char *const *paths, int first, FILE *out);

/* Frees what diff_stdio_init() allocated. */
void diff_stdio_free(struct diff_stdio *p);

#endif
