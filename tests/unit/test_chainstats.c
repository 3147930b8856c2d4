/*
 * test_chainstats.c - cmocka tests for src/analysis/chainstats: entries
 * and depths (context markers are not entries), the caller-first tree of
 * distinct call paths (by function or by address, cut at max_stack),
 * chains with a marker perf does not know, and the [unknown] frames per
 * DSO (no map; a map whose file has no symbols; DSOs merged by name and
 * sorted by unknown frames).
 *
 * Samples are built as parsed pd_samples over a session fed synthetic
 * records; a zeroed pd_file stands for a file with no features.  The
 * expected numbers are counted by hand from the chains written here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/chainstats.h"

#include "session/session.h"
#include "session_records.h"

#define RX 5	/* PROT_READ | PROT_EXEC */

/* Counts a user-mode sample of pid 100 with the chain ips[nr] as
 * recorded (callee first, markers included); nr < 0: no CALLCHAIN. */
static void sample(struct chainstats *cs, const u64 *ips, int nr)
{
	struct pd_header h = { PD_REC_SAMPLE, PD_MISC_USER, 8 };
	struct pd_event ev = { .hdr = &h, .time = 1 };
	struct pd_sample smp = {
		.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_CALLCHAIN,
		.pid = 100, .tid = 100, .time = 1,
	};
	struct addr_location al = { 0 };

	if (nr < 0) {
		smp.sample_type &= ~(u64)PD_SAMPLE_CALLCHAIN;
	} else {
		smp.callchain = (const u8 *)ips;
		smp.callchain_nr = (u64)nr;
		smp.ip = nr > 1 ? ips[1] : 0;
	}
	if (chainstats_chain(cs, s, &smp, &al)) {
		session_resolve_flags(s, &ev, &smp, SESSION_NO_SYMBOL, &al);
		chainstats_frames(cs);
	}
}

#define U PD_CONTEXT_USER
#define K PD_CONTEXT_KERNEL
#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* No maps: every frame is [unknown]; markers are not entries. */
static void test_entries_and_depth(void **state)
{
	struct chainstats *cs = chainstats_new(CC_KEY_FUNCTION, 127);
	const u64 c1[] = { U, 0x1000, 0x2000, 0x3000 };
	const u64 c2[] = { K, 0xffffffff81000010ULL, U, 0x1000, 0x2000, 0x3000 };
	const u64 only_markers[] = { K, U };
	struct chainstats_dso *d;
	u32 nr;

	(void)state;
	sample(cs, c1, NR(c1));
	sample(cs, c2, NR(c2));
	sample(cs, NULL, -1);
	sample(cs, only_markers, NR(only_markers));
	assert_int_equal(cs->samples, 4);
	assert_int_equal(cs->samples_with_chain, 2);
	assert_int_equal(cs->entries, 7);
	assert_int_equal(cs->max_depth, 4);
	/* 0x3000 -> 0x2000 -> 0x1000, then c2 adds the kernel address */
	assert_int_equal(cs->tree_nodes, 4);
	assert_int_equal(cs->tree_depth, 4);
	assert_int_equal(cs->frames_unknown, 7);
	d = chainstats_dsos(cs, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0].name, "[unknown]");
	assert_int_equal(d[0].frames, 7);
	assert_int_equal(d[0].unknown, 7);
	free(d);
	chainstats_free(cs);
}

/* The tree takes the caller end of each chain, max_stack frames. */
static void test_max_stack(void **state)
{
	struct chainstats *cs = chainstats_new(CC_KEY_ADDRESS, 2);
	const u64 c1[] = { U, 0x10, 0x20, 0x30 };
	const u64 c2[] = { U, 0x11, 0x20, 0x30 };	/* same first two callers */
	const u64 c3[] = { U, 0x10, 0x21, 0x30 };

	(void)state;
	sample(cs, c1, NR(c1));
	sample(cs, c2, NR(c2));
	sample(cs, c3, NR(c3));
	assert_int_equal(cs->entries, 9);
	assert_int_equal(cs->max_depth, 3);
	/* 0x30 -> 0x20, 0x30 -> 0x21 */
	assert_int_equal(cs->tree_nodes, 3);
	assert_int_equal(cs->tree_depth, 2);
	chainstats_free(cs);
}

/* A marker perf does not know (guest): perf drops the chain (perf script
 * prints none of it), so it has no entries, frames or tree nodes. */
static void test_unknown_marker(void **state)
{
	struct chainstats *cs = chainstats_new(CC_KEY_FUNCTION, 127);
	const u64 c[] = { PD_CONTEXT_GUEST_KERNEL, 0x1234, U, 0x1000 };

	(void)state;
	mmap2(100, 100, 0x1000, 0x1000, 0, RX, "/nonexistent/libx.so", PD_MISC_USER);
	sample(cs, c, NR(c));
	assert_int_equal(cs->samples, 1);
	assert_int_equal(cs->samples_with_chain, 0);
	assert_int_equal(cs->entries, 0);
	assert_int_equal(cs->tree_nodes, 0);
	assert_int_equal(cs->tree_depth, 0);
	assert_int_equal(cs->frames_unknown, 0);
	chainstats_free(cs);
}

/* Maps of files without symbols: their frames are unknown under their
 * DSO; two files with one basename are one row; rows sorted by unknown
 * frames. */
static void test_dsos(void **state)
{
	struct chainstats *cs = chainstats_new(CC_KEY_FUNCTION, 127);
	const u64 c1[] = { U, 0x10000, 0x20000, 0x900000 };
	const u64 c2[] = { U, 0x20010, 0x20020, 0x30000 };
	struct chainstats_dso *d;
	u32 nr;

	(void)state;
	mmap2(100, 100, 0x10000, 0x1000, 0, RX, "/nonexistent/a/libdup.so", PD_MISC_USER);
	mmap2(100, 100, 0x30000, 0x1000, 0, RX, "/nonexistent/b/libdup.so", PD_MISC_USER);
	mmap2(100, 100, 0x20000, 0x1000, 0, RX, "/nonexistent/libmain.so", PD_MISC_USER);
	sample(cs, c1, NR(c1));
	sample(cs, c2, NR(c2));
	d = chainstats_dsos(cs, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(d[0].name, "libmain.so");
	assert_int_equal(d[0].frames, 3);
	assert_int_equal(d[0].unknown, 3);
	assert_string_equal(d[1].name, "libdup.so");
	assert_int_equal(d[1].frames, 2);
	assert_int_equal(d[1].unknown, 2);
	assert_string_equal(d[2].name, "[unknown]");
	assert_int_equal(d[2].frames, 1);
	free(d);
	assert_int_equal(cs->frames_unknown, 6);
	chainstats_free(cs);
}

__attribute__((noinline)) int chainstats_target(int x);
__attribute__((noinline)) int chainstats_target(int x)
{
	return x * 3 + 1;
}

extern char __executable_start[];

/* By function, two addresses in one function are one node; by address,
 * two.  The test binary itself gives the symbols. */
static void test_function_key(void **state)
{
	char self[1024];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	u64 base = 0x400000, off = (u64)((uintptr_t)chainstats_target -
					 (uintptr_t)__executable_start);
	const u64 c1[] = { U, base + off + 1, base + off + 0x100000 };
	const u64 c2[] = { U, base + off + 2, base + off + 0x100000 };
	struct chainstats *by_fn, *by_addr;

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	/* the whole file mapped at base: map-relative = file offset */
	mmap2(100, 100, base, 0x100000, 0, RX, self, PD_MISC_USER);
	by_fn = chainstats_new(CC_KEY_FUNCTION, 127);
	by_addr = chainstats_new(CC_KEY_ADDRESS, 127);
	sample(by_fn, c1, NR(c1));
	sample(by_fn, c2, NR(c2));
	sample(by_addr, c1, NR(c1));
	sample(by_addr, c2, NR(c2));
	/* the caller address is past the map: [unknown], one node */
	assert_int_equal(by_fn->tree_nodes, 2);
	assert_int_equal(by_addr->tree_nodes, 3);
	assert_int_equal(by_fn->frames_unknown, 2);
	assert_int_equal(by_addr->frames_unknown, 2);
	chainstats_free(by_fn);
	chainstats_free(by_addr);
	assert_int_equal(chainstats_target(1), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_entries_and_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_marker, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dsos, setup, teardown),
		cmocka_unit_test_setup_teardown(test_function_key, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
