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
 * cmd/report.c).  Returns 0, or -1 after an error about a malformed
 * feature section.
 */
int header_print(struct pd_file *f, FILE *out, int show_full_info);

#endif
