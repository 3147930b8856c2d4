/*
 * test_record_ring.c - cmocka tests for prof record's ring buffers
 * (src/record/ring.c): their sizes against perf 6.1's rules (the default
 * from kernel.perf_event_mlock_kb, -m's page counts and sizes), and
 * ring_read() on a ring made in memory, with a record that wraps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "record/ring.h"

#include <string.h>

/* perf_event_mlock_kb less the metadata page, in pages, rounded down to a
 * power of two; 512 KiB when unknown */
static void test_default_pages(void **state)
{
	assert_int_equal(ring_default_pages(516, 4096), 128);	/* the kernel's default */
	assert_int_equal(ring_default_pages(512, 4096), 64);	/* 508 KiB: 127 pages */
	assert_int_equal(ring_default_pages(2052, 4096), 512);
	assert_int_equal(ring_default_pages(2048, 4096), 256);
	assert_int_equal(ring_default_pages(1000, 4096), 128);	/* 249 pages */
	assert_int_equal(ring_default_pages(-1, 4096), 128);
	assert_int_equal(ring_default_pages(-1, 65536), 8);
	assert_int_equal(ring_default_pages(1088, 65536), 16);	/* 64 KiB pages */
	assert_int_equal(ring_default_pages(4, 4096), 1);	/* no room: still one */
	assert_int_equal(ring_default_pages(0, 4096), 1);
}

/* -m: pages, sizes rounded up to pages, then up to a power of two */
static void test_parse_pages(void **state)
{
	assert_int_equal(ring_parse_pages("16", 4096, 1), 16);
	assert_int_equal(ring_parse_pages("5", 4096, 1), 8);
	assert_int_equal(ring_parse_pages("16K", 4096, 1), 4);
	assert_int_equal(ring_parse_pages("10K", 4096, 1), 4);
	assert_int_equal(ring_parse_pages("1M", 4096, 1), 256);
	assert_int_equal(ring_parse_pages("1G", 4096, 1), 262144);
	assert_int_equal(ring_parse_pages("100B", 4096, 1), 1);
	assert_int_equal(ring_parse_pages("32,64", 4096, 1), 32);
	assert_int_equal(ring_parse_pages("", 4096, 1), 0);
	assert_int_equal(ring_parse_pages("-4", 4096, 1), 0);
	assert_int_equal(ring_parse_pages("4X", 4096, 1), 0);
	assert_int_equal(ring_parse_pages("99999999999999G", 4096, 1), 0);
	assert_int_equal(ring_parse_pages("4G", 4096, 1), 0);	/* over 2 GiB */
}

/* What the reader was handed: the records (copied, and where they were),
 * then the bytes. */
struct handed {
	u8 recs[256], bytes[256];
	const void *at[4];
	size_t nr_recs, rec_len, byte_len, nr_bytes_calls;
};

static void take_record(void *arg, const struct pd_header *rec)
{
	struct handed *h = arg;

	assert_true(h->nr_recs < 4 && h->rec_len + rec->size <= sizeof(h->recs));
	assert_int_equal(h->nr_bytes_calls, 0);	/* records come first */
	h->at[h->nr_recs++] = rec;
	memcpy(h->recs + h->rec_len, rec, rec->size);
	h->rec_len += rec->size;
}

static void take_bytes(void *arg, const void *data, size_t len)
{
	struct handed *h = arg;

	assert_true(h->byte_len + len <= sizeof(h->bytes));
	memcpy(h->bytes + h->byte_len, data, len);
	h->byte_len += len;
	h->nr_bytes_calls++;
}

/* A 256-byte ring read from 200 to 288: a record of 40 bytes, then one of
 * 48 that wraps past the end (16 bytes at 240, 32 at 0).  Each record is
 * handed whole, the wrapping one from the reader's room; the bytes in two
 * pieces; data_tail moves to data_head. */
static void test_read_wrapping(void **state)
{
	u64 whole[RING_RECORD_MAX / 8];
	struct perf_event_mmap_page meta;
	u64 data[256 / 8];
	u8 want[88];
	struct ring ring = { 3, &meta, (u8 *)data, 255 };	/* fd 3: any owner */
	struct handed got = { 0 };
	struct ring_reader rd = { take_record, take_bytes, &got, whole };
	struct pd_header h1 = { PD_REC_SAMPLE, 0, 40 }, h2 = { PD_REC_COMM, 0, 48 };

	memset(&meta, 0, sizeof(meta));
	for (unsigned i = 0; i < sizeof(want); i++)
		want[i] = (u8)(i * 7 + 1);
	memcpy(want, &h1, sizeof(h1));
	memcpy(want + 40, &h2, sizeof(h2));
	memcpy((u8 *)data + 200, want, 56);
	memcpy(data, want + 56, 32);
	meta.data_tail = 200;
	meta.data_head = 288;
	assert_int_equal(ring_read(&ring, &rd), 88);
	assert_int_equal(got.nr_recs, 2);
	assert_ptr_equal(got.at[0], (u8 *)data + 200);
	assert_ptr_equal(got.at[1], whole);
	assert_int_equal(got.rec_len, 88);
	assert_memory_equal(got.recs, want, 88);
	assert_int_equal(got.nr_bytes_calls, 2);
	assert_int_equal(got.byte_len, 88);
	assert_memory_equal(got.bytes, want, 88);
	assert_int_equal(meta.data_tail, 288);
	/* nothing new: nothing handed */
	assert_int_equal(ring_read(&ring, &rd), 0);
	assert_int_equal(got.nr_recs, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pages),
		cmocka_unit_test(test_parse_pages),
		cmocka_unit_test(test_read_wrapping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
