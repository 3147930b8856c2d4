/*
 * header.h - prints a perf.data file's header and feature sections the way
 * "perf report --header-only" (and --header, -I) does.
 */
#ifndef PROF_OUTPUT_HEADER_H
#define PROF_OUTPUT_HEADER_H

#include "../format/reader.h"

#include <stdio.h>

/*
 * Prints the "# ========" header block of f to out.  show_full_info (-I)
 * prints the topology/cache/... sections perf otherwise summarises as
 * "info available, use -I to display".  For pipe-mode files the features
 * arrive as records: call it after the reader has seen them (see
 * cmd/report.c).  Like perf, it prints what it can of a file with a
 * malformed feature section (with a warning naming the section and its
 * offset) and returns 0.
 */
int header_print(struct pd_file *f, FILE *out, int show_full_info);

#endif
