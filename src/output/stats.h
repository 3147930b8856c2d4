/*
 * stats.h - "prof report --stats": per-record-type counts in the layout of
 * "perf report --stats".
 */
#ifndef PROF_OUTPUT_STATS_H
#define PROF_OUTPUT_STATS_H

#include "../format/reader.h"

#include <stdio.h>

/* Prints the aggregated and per-event counts of a fully processed file. */
void stats_print(const struct pd_file *f, FILE *out);

#endif
