/*
 * stats.h - "prof report --stats": per-record-type counts in the layout of
 * "perf report --stats", and prof's own call-chain statistics after them.
 */
#ifndef PROF_OUTPUT_STATS_H
#define PROF_OUTPUT_STATS_H

#include "../analysis/chainstats.h"
#include "../format/reader.h"

#include <stdio.h>

/* Prints the aggregated and per-event counts of a fully processed file. */
void stats_print(const struct pd_file *f, FILE *out);

/* Prints the "Callchain stats:" block of counted call chains; seconds is
 * the processing time the entries/second rate is taken over. */
void chainstats_print(const struct chainstats *cs, double seconds, FILE *out);

#endif
