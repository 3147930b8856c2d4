/*
 * compress.h - prof record -z: ring-buffer data packed into COMPRESSED
 * (type 81) records as perf record 6.1 writes them.
 *
 * The whole recording is one zstd stream: every call compresses its input
 * and flushes (never ends the frame), so a reader decompresses all the
 * payloads in order through one context.  Each record is an 8-byte header
 * followed by at most RECORD_ZSTD_MAX_PAYLOAD compressed bytes, with no
 * padding, as perf writes them; a call's input always ends up whole in the
 * records it emits, so nothing waits in the compressor between calls.
 */
#ifndef PROF_RECORD_COMPRESS_H
#define PROF_RECORD_COMPRESS_H

#include <stddef.h>

#define RECORD_ZSTD_MAX_PAYLOAD	65527	/* perf's 64 KiB - header - 1 */

struct record_zstd;

/* A compressor at zstd level (1..22); dies when out of memory. */
struct record_zstd *record_zstd_new(int level);
void record_zstd_free(struct record_zstd *z);

/* Compresses len bytes into COMPRESSED records handed to emit one by one.
 * Returns the bytes emitted (headers included), or 0 after a zstd error
 * (reported). */
size_t record_zstd_compress(struct record_zstd *z, const void *src, size_t len,
			    void (*emit)(void *arg, const void *rec, size_t size), void *arg);

#endif
