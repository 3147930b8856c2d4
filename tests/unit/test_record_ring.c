/*
 * test_record_ring.c - cmocka tests for prof record's ring buffer sizes
 * (src/record/ring.c) against perf 6.1's rules: the default from
 * kernel.perf_event_mlock_kb, and -m's page counts and sizes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "record/ring.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pages),
		cmocka_unit_test(test_parse_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
