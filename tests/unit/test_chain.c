/*
 * test_chain.c - cmocka tests for src/session/chain: the call-chain
 * cursor's walk (session/chain.h): the cpumode of each frame in callee
 * and caller order (find_prev_cpumode() for caller order, also before the
 * first marker), --max-stack stopping the recorded part with the markers
 * after the limit unread, markers perf does not know dropping the chain,
 * the unwound (dwarf) part, and chain_max_frames().
 *
 * The walk reads only the sample's chain (no map is resolved here), so
 * the chains are plain arrays; K, U and G are PERF_CONTEXT_KERNEL, _USER
 * and _GUEST_USER.  The expected frames are written out by hand from
 * perf's rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "session/chain.h"

#define K PD_CONTEXT_KERNEL
#define U PD_CONTEXT_USER
#define G PD_CONTEXT_GUEST_USER
#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* Walks ips[nr] (unwound from addrs_from, 0: none) and checks the frames
 * against want[] ("ip mode unwound" triples) and the last step. */
static void walk(const u64 *ips, u64 nr, u64 addrs_from, enum chain_order order, u32 max,
		 const u64 (*want)[3], u32 nr_want, int last)
{
	struct pd_sample s = { .callchain = (const u8 *)ips, .callchain_nr = nr,
			       .callchain_addrs_from = addrs_from };
	struct addr_location al = { 0 };
	struct chain_walk w;
	struct chain_frame f;
	u32 got = 0;
	int r;

	chain_begin(&w, NULL, &s, &al, order, max, 0);
	while ((r = chain_next(&w, &f)) == CHAIN_FRAME) {
		assert_true(got < nr_want);
		assert_int_equal(f.ip, want[got][0]);
		assert_int_equal(f.cpumode, want[got][1]);
		assert_int_equal(f.unwound, want[got][2]);
		got++;
	}
	assert_int_equal(r, last);
	if (r == CHAIN_END)
		assert_int_equal(got, nr_want);
	/* the walk stays over */
	assert_int_equal(chain_next(&w, &f), r);
}

#define KM PD_MISC_KERNEL
#define UM PD_MISC_USER

static void test_orders(void **state)
{
	const u64 c[] = { K, 0x11, 0x12, U, 0x21, 0x22 };
	const u64 callee[][3] = { { 0x11, KM, 0 }, { 0x12, KM, 0 }, { 0x21, UM, 0 }, { 0x22, UM, 0 } };
	const u64 caller[][3] = { { 0x22, UM, 0 }, { 0x21, UM, 0 }, { 0x12, KM, 0 }, { 0x11, KM, 0 } };
	/* before the first marker: user in callee order; in caller order the
	   cpumode stays that of the marker after (none before it) */
	const u64 c2[] = { 0x1, K, 0x11 };
	const u64 callee2[][3] = { { 0x1, UM, 0 }, { 0x11, KM, 0 } };
	const u64 caller2[][3] = { { 0x11, KM, 0 }, { 0x1, KM, 0 } };

	(void)state;
	walk(c, NR(c), 0, CHAIN_CALLEE, 127, callee, 4, CHAIN_END);
	walk(c, NR(c), 0, CHAIN_CALLER, 127, caller, 4, CHAIN_END);
	walk(c2, NR(c2), 0, CHAIN_CALLEE, 127, callee2, 2, CHAIN_END);
	walk(c2, NR(c2), 0, CHAIN_CALLER, 127, caller2, 2, CHAIN_END);
}

static void test_max_stack(void **state)
{
	const u64 c[] = { K, 0x11, 0x12, U, 0x21, 0x22 };
	const u64 callee[][3] = { { 0x11, KM, 0 }, { 0x12, KM, 0 }, { 0x21, UM, 0 } };
	const u64 caller[][3] = { { 0x22, UM, 0 }, { 0x21, UM, 0 }, { 0x12, KM, 0 } };

	(void)state;
	walk(c, NR(c), 0, CHAIN_CALLEE, 3, callee, 3, CHAIN_END);
	walk(c, NR(c), 0, CHAIN_CALLER, 3, caller, 3, CHAIN_END);
	walk(c, NR(c), 0, CHAIN_CALLEE, 0, NULL, 0, CHAIN_END);
	assert_int_equal(chain_max_frames(&(struct pd_sample){ .callchain_nr = NR(c) }, 3), 3);
	assert_int_equal(chain_max_frames(&(struct pd_sample){ .callchain_nr = NR(c) }, 127), 6);
}

static void test_unknown_marker(void **state)
{
	const u64 mid[] = { U, 0x1, 0x2, G, 0x3 };
	const u64 start[] = { G, 0x9, U, 0x1, 0x2, 0x3 };
	const u64 mid2[][3] = { { 0x1, UM, 0 }, { 0x2, UM, 0 } };
	const u64 start2[][3] = { { 0x3, UM, 0 }, { 0x2, UM, 0 }, { 0x1, UM, 0 } };

	(void)state;
	/* past the limit the marker is not read: nothing is dropped */
	walk(mid, NR(mid), 0, CHAIN_CALLEE, 2, mid2, 2, CHAIN_END);
	walk(mid, NR(mid), 0, CHAIN_CALLEE, 3, mid2, 2, CHAIN_DROPPED);
	/* caller order starts at the last marker: dropped at once */
	walk(mid, NR(mid), 0, CHAIN_CALLER, 2, NULL, 0, CHAIN_DROPPED);
	walk(start, NR(start), 0, CHAIN_CALLEE, 127, NULL, 0, CHAIN_DROPPED);
	walk(start, NR(start), 0, CHAIN_CALLER, 2, start2, 2, CHAIN_END);
	walk(start, NR(start), 0, CHAIN_CALLER, 3, start2, 3, CHAIN_END);
	walk(start, NR(start), 0, CHAIN_CALLER, 4, start2, 3, CHAIN_DROPPED);
}

static void test_unwound(void **state)
{
	/* a joined dwarf chain: kernel part, U, unwound user frames (which
	   may look like markers) */
	const u64 c[] = { K, 0x11, 0x12, U, 0x21, K };
	const u64 callee[][3] = { { 0x11, KM, 0 }, { 0x21, UM, 1 }, { K, UM, 1 } };
	const u64 caller[][3] = { { K, UM, 1 }, { 0x21, UM, 1 }, { 0x12, KM, 0 } };
	struct pd_sample s = { .callchain_nr = NR(c), .callchain_addrs_from = 4 };

	(void)state;
	walk(c, NR(c), 4, CHAIN_CALLEE, 1, callee, 3, CHAIN_END);
	walk(c, NR(c), 4, CHAIN_CALLER, 1, caller, 3, CHAIN_END);
	assert_int_equal(chain_max_frames(&s, 1), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_unknown_marker),
		cmocka_unit_test(test_unwound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
