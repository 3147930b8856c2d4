/*
 * data_src.h - a memory sample's data_src word (PERF_SAMPLE_DATA_SRC) in
 * perf 6.1's words: "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2
 * hit|LCK No|BLK  N/A".
 *
 * Invariants: pure functions of their arguments (the width perf keeps in
 * a static is the caller's); output always NUL-terminated and cut to the
 * size given.
 */
#ifndef PROF_OUTPUT_DATA_SRC_H
#define PROF_OUTPUT_DATA_SRC_H

#include "../util/types.h"

#include <stddef.h>

/* perf's buffers for the decoding and the field: 100 bytes. */
#define DATA_SRC_TEXT 100

/* Writes perf_script__meminfo_scnprintf()'s text of data_src into out
 * (at most size - 1 characters); returns its length. */
size_t data_src_decode(u64 data_src, char *out, size_t size);

/* perf script's data_src field: "%16llx <decoding>" (cut to 99
 * characters), left-aligned to the widest one printed so far, which
 * *width keeps (0 at the start of a run). */
size_t data_src_field(u64 data_src, int *width, char *out, size_t size);

#endif
