/*
 * test_record_compress.c - cmocka tests for prof record -z's COMPRESSED records
 * (src/record/compress.c): the payloads of all records, decompressed in
 * order through one zstd context, give back every byte compressed, each
 * call's input is whole once the call returns, and no record exceeds
 * perf's size limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "record/compress.h"
#include "format/perf_data.h"

/* Decompresses each record as it comes, appending to out. */
struct sink {
	ZSTD_DCtx *dctx;
	u8 *out;
	size_t len, cap;
	int nr_records;
};

static void take(void *arg, const void *rec, size_t size)
{
	struct sink *s = arg;
	const struct pd_header *h = rec;
	ZSTD_inBuffer in = { (const u8 *)rec + 8, size - 8, 0 };

	assert_int_equal(h->type, PD_REC_COMPRESSED);
	assert_int_equal(h->size, size);
	assert_true(size - 8 <= RECORD_ZSTD_MAX_PAYLOAD);
	s->nr_records++;
	while (in.pos < in.size) {
		ZSTD_outBuffer out = { s->out + s->len, s->cap - s->len, 0 };

		assert_false(ZSTD_isError(ZSTD_decompressStream(s->dctx, &out, &in)));
		s->len += out.pos;
		assert_true(s->len < s->cap);
	}
}

static void test_roundtrip(void **state)
{
	size_t big = 3u << 20;
	u8 *data = malloc(big);
	struct sink s = { ZSTD_createDCtx(), malloc(big + 4096), 0, big + 4096, 0 };
	struct record_zstd *z = record_zstd_new(3);
	unsigned seed = 1;

	for (size_t i = 0; i < big; i++) {	/* half noise, half runs */
		seed = seed * 1103515245 + 12345;
		data[i] = (i / 4096) % 2 ? (u8)(seed >> 16) : (u8)(i / 512);
	}
	assert_true(record_zstd_compress(z, data, 100, take, &s) > 0);
	assert_int_equal(s.len, 100);	/* whole after the call */
	assert_true(record_zstd_compress(z, data + 100, big - 100, take, &s) > 0);
	assert_int_equal(s.len, big);
	assert_memory_equal(s.out, data, big);
	assert_true(s.nr_records > 2);	/* 1.5 MiB of noise needs many records */
	assert_int_equal(record_zstd_compress(z, data, 0, take, &s), 0);
	record_zstd_free(z);
	ZSTD_freeDCtx(s.dctx);
	free(s.out);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
