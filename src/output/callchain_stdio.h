/*
 * callchain_stdio.h - prints an entry's call graph as "perf report
 * --stdio" does (perf 6.1, ui/stdio/hist.c): the graph and fractal trees,
 * flat and folded paths.
 *
 * Invariant: printing changes nothing in the forest (callchain_finish()
 * must have been called).
 */
#ifndef PROF_OUTPUT_CALLCHAIN_STDIO_H
#define PROF_OUTPUT_CALLCHAIN_STDIO_H

#include "../analysis/callchain.h"

#include <stdio.h>

/* What is the same for every entry of a histogram. */
struct callchain_print_opts {
	const struct callchain_param *param;
	u64 total_period;	/* the histogram's total (graph, flat, folded %) */
	u64 min_hit;		/* graph, flat, folded: nodes below are hidden
				   (perf's min_callchain_hits) */
	int skip_first;		/* --sort starts with "sym" and no --fields:
				   the single root's first item is the entry */
};

/*
 * Prints the graph of the tree at root (0: none) under an entry whose
 * period is parent_samples (its accumulated period in children mode).
 */
void callchain_print(FILE *out, const struct callchain_forest *f, u32 root,
		     u64 parent_samples, const struct callchain_print_opts *o);

#endif
