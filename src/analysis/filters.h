/*
 * filters.h - the sample filters of report and diff from their options,
 * as perf parses them: -c/--comms, -d/--dsos and -S/--symbols are comma
 * lists (perf's strlist: duplicates dropped), --pid and --tid lists of
 * numbers; a --symbols item that reads as one hex number (trailing blanks
 * allowed) is an address, perf's setup_addrlist(), taken out of the names.
 *
 * Invariants: the lists are NULL-terminated and own their strings (one
 * copy per list, freed by hist_filters_free()); an option not given
 * leaves its list NULL, which filters nothing.
 */
#ifndef PROF_ANALYSIS_FILTERS_H
#define PROF_ANALYSIS_FILTERS_H

#include "hist.h"

/* The option values, NULL when not given. */
struct filter_args {
	const char *comms, *dsos, *symbols;	/* -c, -d, -S */
	const char *pids, *tids;		/* --pid, --tid */
};

/* How many names each list holds (perf hides a column whose list names
 * one item). */
struct filter_counts {
	int comms, dsos, symbols;	/* symbols: names, addresses not counted */
};

/*
 * Fills flt (zeroed by the caller) from a and, when counts is not NULL,
 * counts the names.  Returns 0, or -1 after an error (a pid or tid that is
 * not a number); flt is to be freed either way.
 */
int hist_filters_parse(struct hist_filters *flt, const struct filter_args *a,
		       struct filter_counts *counts);

/* Frees what hist_filters_parse() allocated (a zeroed flt is fine). */
void hist_filters_free(struct hist_filters *flt);

#endif
