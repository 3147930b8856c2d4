/*
 * stat_stdio.h - perf stat 6.1's output (the human layout, -x CSV, -j
 * JSON), prof's time block after it, and the table of prof stat
 * --compare and --baseline.
 */
#ifndef PROF_OUTPUT_STAT_STDIO_H
#define PROF_OUTPUT_STAT_STDIO_H

#include "../analysis/stat_compare.h"
#include "../analysis/stat_state.h"

#include <stdio.h>

/* The header line, counters and footer of the human, CSV or JSON layout. */
void stat_print_counters(struct stat_ctx *s);
/* One interval's lines, stamped with ts (seconds since the start). */
void stat_print_interval(struct stat_ctx *s, double ts);
/* prof's time block: elapsed, user, sys, peak RSS; with -r statistics. */
void stat_print_times(struct stat_ctx *s);
/* The comparison table of c; how says how the runs were made. */
void stat_print_comparison(FILE *out, const struct comparison *c, const char *how);

#endif
