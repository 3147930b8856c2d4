/*
 * compress.c - COMPRESSED records for prof record -z (see compress.h).
 *
 * Invariant: after record_zstd_compress() returns, the compressor holds no
 * pending output: each loop runs until the input is used up and a flush
 * reports nothing left.
 */
#include "compress.h"
#include "../format/perf_data.h"
#include "../util/error.h"

#include <stdlib.h>
#include <zstd.h>

struct record_zstd {
	ZSTD_CStream *stream;
	u8 rec[8 + RECORD_ZSTD_MAX_PAYLOAD];	/* the record being filled */
};

struct record_zstd *record_zstd_new(int level)
{
	struct record_zstd *z = xmalloc(sizeof(*z));

	z->stream = ZSTD_createCStream();
	if (!z->stream)
		die("out of memory creating a zstd context");
	if (ZSTD_isError(ZSTD_initCStream(z->stream, level)))
		die("cannot set up zstd compression at level %d", level);
	return z;
}

void record_zstd_free(struct record_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->stream);
	free(z);
}

size_t record_zstd_compress(struct record_zstd *z, const void *src, size_t len,
			    void (*emit)(void *arg, const void *rec, size_t size), void *arg)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t total = 0, pending = 1;

	while (in.pos < in.size || pending) {
		ZSTD_outBuffer out = { z->rec + 8, RECORD_ZSTD_MAX_PAYLOAD, 0 };
		struct pd_header h = { PD_REC_COMPRESSED, 0, 0 };
		size_t ret = 0;

		if (in.pos < in.size)
			ret = ZSTD_compressStream(z->stream, &out, &in);
		if (!ZSTD_isError(ret))
			ret = pending = ZSTD_flushStream(z->stream, &out);
		if (ZSTD_isError(ret)) {
			error("cannot compress the records: %s", ZSTD_getErrorName(ret));
			return 0;
		}
		if (!out.pos)
			continue;
		h.size = (u16)(8 + out.pos);
		memcpy(z->rec, &h, sizeof(h));
		emit(arg, z->rec, h.size);
		total += h.size;
	}
	return total;
}
