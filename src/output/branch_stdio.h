/*
 * branch_stdio.h - "prof report --stdio" in branch mode: the branch
 * histogram of one event in the layout of "perf report --stdio" (perf
 * 6.1) on a file with branch stacks.
 *
 * The comment lines before and after the events are report_stdio's
 * (report_stdio_begin(), report_stdio_end()).
 */
#ifndef PROF_OUTPUT_BRANCH_STDIO_H
#define PROF_OUTPUT_BRANCH_STDIO_H

#include "../analysis/branch_hist.h"

#include <stdio.h>

/* What printing the branch histograms needs besides them. */
struct branch_stdio_opts {
	int quiet;		/* -q: rows only */
	int relative;		/* --percentage relative */
	float min_percent;	/* --percent-limit */
	const char *time_str;	/* --time as given, or NULL */
	const char *mispredict;	/* perf's mispredict column keeps its last
				   value in a static: what it printed last,
				   across events (starts "N/A") */
};

/* One event: "# Samples: ...", the column titles and the rows. */
void branch_stdio_hist(FILE *out, const struct branch_hist *bh, const char *evname,
		       struct branch_stdio_opts *o);

/* perf's branch_type_stat_display(): the "Branch Statistics" block
 * after the tip, when a branch had a type; no newline at its end. */
void branch_stdio_types(FILE *out, const struct branch_type_stat *st);

#endif
