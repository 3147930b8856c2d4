/*
 * dsos.h - which DSOs got samples, worked out by prof record from
 * the records as they stream to the file (no second pass), for the
 * BUILD_ID feature perf record writes.
 *
 * It follows each process's executable maps: MMAP2 adds one, FORK of a new
 * process copies the parent's, an exec (COMM with COMM_EXEC) clears them,
 * the EXIT of a process drops them; a synthesized FORK (misc FORK_EXEC)
 * starts the process with no maps, as its own MMAP2s follow, and data maps
 * (misc MMAP_DATA) are not followed.  A user-mode sample marks the DSO of
 * the newest map of its process that holds its ip; a kernel-mode sample
 * marks the kernel.  Samples must have IP then TID, after an IDENTIFIER
 * or not.
 */
#ifndef PROF_RECORD_DSOS_H
#define PROF_RECORD_DSOS_H

#include "../format/perf_data.h"

#include <stddef.h>

struct record_dsos;

/* id_first: samples start with an IDENTIFIER before their IP. */
struct record_dsos *record_dsos_new(int id_first);
void record_dsos_free(struct record_dsos *d);

/* Feeds one whole record (contiguous, size from its header). */
void record_dsos_add(struct record_dsos *d, const struct pd_header *rec);

/*
 * Builds the BUILD_ID feature payload: the kernel's entry when it got
 * samples, then one per sampled DSO with a build-id (an absolute path),
 * in the order they were first mapped.  Returns a malloc'ed buffer and its
 * size in *size (0 and NULL when there is nothing).
 */
void *record_dsos_build_ids(struct record_dsos *d, size_t *size);

#endif
