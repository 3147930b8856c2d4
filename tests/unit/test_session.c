/*
 * test_session.c - cmocka tests for src/session on synthetic records:
 * threads and comms (override of ":<tid>", fork copies, later renames),
 * fork sharing maps copy-on-write, overlapping MMAP2s cut as perf cuts
 * them, maps that wrap past 2^64 or are empty (found by no lookup, the
 * maps beside them unharmed), JIT/anon naming, [unknown] addresses,
 * guest/hypervisor levels and records too short to read; resolution with SESSION_NO_SYMBOL; the
 * lookup caches (each cpu's last thread, a map array's last two maps)
 * after the changes that must clear them.
 *
 * Records are built in a byte buffer in host order; a zeroed pd_file
 * stands for a file with no features.  Expected values follow perf 6.1's
 * machine.c rules, never the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "session/session.h"
#include "symbol/symbol.h"

#include <unistd.h>

#include "session_records.h"

static void resolve_flags(s32 pid, s32 tid, u16 cpumode, u64 ip, int flags,
			  struct addr_location *al)
{
	struct pd_header h = { PD_REC_SAMPLE, cpumode, 8 };
	struct pd_event ev = { .hdr = &h, .time = 1 };
	struct pd_sample smp = { .sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID, .ip = ip,
				 .pid = (u32)pid, .tid = (u32)tid };

	assert_int_equal(session_resolve_flags(s, &ev, &smp, flags, al), 0);
}

static void resolve(s32 pid, s32 tid, u16 cpumode, u64 ip, struct addr_location *al)
{
	resolve_flags(pid, tid, cpumode, ip, 0, al);
}

/* A sample with its cpu: the session keeps each cpu's last thread. */
static void resolve_cpu(s32 pid, s32 tid, u32 cpu, u64 ip, struct addr_location *al)
{
	struct pd_header h = { PD_REC_SAMPLE, PD_MISC_USER, 8 };
	struct pd_event ev = { .hdr = &h, .time = 1 };
	struct pd_sample smp = { .sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_CPU,
				 .ip = ip, .pid = (u32)pid, .tid = (u32)tid, .cpu = cpu };

	assert_int_equal(session_resolve_flags(s, &ev, &smp, 0, al), 0);
}

/* Samples of two cpus interleaved find their own threads; a thread that a
 * FORK replaces (its tid reused) is not found again through a cpu's last
 * thread, and a pid learnt later still reaches the cached thread. */
static void test_cpu_last_thread(void **state)
{
	struct addr_location a, b;
	const struct thread *old;

	(void)state;
	comm(700, 700, "seven");
	comm(800, 800, "eight");
	resolve_cpu(700, 700, 1, 0x10, &a);
	resolve_cpu(800, 800, 2, 0x10, &b);
	assert_string_equal(a.comm, "seven");
	assert_string_equal(b.comm, "eight");
	resolve_cpu(700, 700, 1, 0x10, &a);
	resolve_cpu(800, 800, 2, 0x10, &b);
	assert_string_equal(a.comm, "seven");
	assert_string_equal(b.comm, "eight");
	old = a.thread;
	fork_rec(700, 800, 700, 800);	/* tid 700 again, now a child of 800 */
	resolve_cpu(700, 700, 1, 0x10, &a);
	assert_ptr_not_equal(a.thread, old);
	assert_string_equal(a.comm, "eight");
	/* a thread first seen without its pid gets it from a later sample */
	resolve_cpu(-1, 900, 3, 0x10, &a);
	assert_int_equal(a.pid, -1);
	resolve_cpu(800, 900, 3, 0x10, &a);
	assert_int_equal(a.pid, 800);
	assert_int_equal(a.tid, 900);
}

static void test_comm_override(void **state)
{
	struct addr_location a, b, c;

	(void)state;
	resolve(100, 100, PD_MISC_USER, 0x1234, &a);
	assert_string_equal(a.comm, ":100");
	assert_null(a.dso);
	assert_string_equal(dso_short_name(a.dso), "[unknown]");
	assert_int_equal(a.addr, 0x1234);
	assert_int_equal(a.level, '.');
	comm(100, 100, "first");
	assert_string_equal(a.comm, "first");	/* perf's comm__override */
	resolve(100, 100, PD_MISC_USER, 0x1234, &b);
	comm(100, 100, "second");
	resolve(100, 100, PD_MISC_USER, 0x1234, &c);
	assert_string_equal(b.comm, "first");
	assert_string_equal(c.comm, "second");
	assert_string_equal(thread_comm_now(a.thread), "second");
	resolve(0, 0, PD_MISC_KERNEL, 0xffffffff81000000ULL, &a);
	assert_string_equal(a.comm, "swapper");
	assert_int_equal(a.level, 'k');
	resolve(0, 0, PD_MISC_GUEST_KERNEL, 0x10, &a);
	assert_int_equal(a.level, 'H');
	assert_null(a.map);
}

static void test_fork_cow(void **state)
{
	struct addr_location al;

	(void)state;
	comm(200, 200, "parent");
	mmap2(200, 200, 0x400000, 0x10000, 0x1000, 5, "/bin/parent", PD_MISC_USER);
	fork_rec(201, 200, 201, 200);
	resolve(201, 201, PD_MISC_USER, 0x400010, &al);
	assert_string_equal(al.comm, "parent");
	assert_non_null(al.dso);
	assert_string_equal(dso_short_name(al.dso), "parent");
	assert_int_equal(al.addr, 0x1010);	/* ip - start + pgoff */
	/* the child's exec maps do not leak into the parent */
	mmap2(201, 201, 0x400000, 0x8000, 0, 5, "/bin/child", PD_MISC_USER);
	comm(201, 201, "child");
	resolve(201, 201, PD_MISC_USER, 0x400010, &al);
	assert_string_equal(dso_long_name(al.dso), "/bin/child");
	assert_string_equal(al.comm, "child");
	resolve(200, 200, PD_MISC_USER, 0x400010, &al);
	assert_string_equal(dso_long_name(al.dso), "/bin/parent");
	/* the part of the parent's map after the child's stays, offset kept */
	resolve(201, 201, PD_MISC_USER, 0x409000, &al);
	assert_string_equal(dso_long_name(al.dso), "/bin/parent");
	assert_int_equal(al.addr, 0x409000 - 0x400000 + 0x1000);
	/* threads of a process share its maps */
	fork_rec(200, 200, 202, 200);
	resolve(200, 202, PD_MISC_USER, 0x400010, &al);
	assert_string_equal(dso_long_name(al.dso), "/bin/parent");
	assert_int_equal(al.tid, 202);
	assert_int_equal(al.pid, 200);
}

static void test_overlap_split(void **state)
{
	struct addr_location al;

	(void)state;
	mmap2(300, 300, 0x10000, 0x30000, 0, 5, "/lib/a.so", PD_MISC_USER);
	mmap2(300, 300, 0x20000, 0x1000, 0, 5, "/lib/b.so", PD_MISC_USER);
	resolve(300, 300, PD_MISC_USER, 0x1f000, &al);
	assert_string_equal(dso_long_name(al.dso), "/lib/a.so");
	assert_int_equal(al.addr, 0xf000);
	resolve(300, 300, PD_MISC_USER, 0x20800, &al);
	assert_string_equal(dso_long_name(al.dso), "/lib/b.so");
	assert_int_equal(al.addr, 0x800);
	resolve(300, 300, PD_MISC_USER, 0x21000, &al);
	assert_string_equal(dso_long_name(al.dso), "/lib/a.so");
	assert_int_equal(al.addr, 0x11000);
	resolve(300, 300, PD_MISC_USER, 0x40000, &al);
	assert_null(al.map);
	assert_int_equal(al.addr, 0x40000);
}

/* A kernel-mode MMAP of a module. */
static void kernel_module(u64 start, u64 len, const char *path)
{
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)-1);
	put64(16, start);
	put64(24, len);
	put64(32, 0);
	strcpy((char *)buf + 40, path);
	feed(PD_REC_MMAP, PD_MISC_KERNEL, (u16)(40 + ((strlen(path) + 8) & ~7u)));
}

/* A map whose start + len wraps past 2^64 (end below start) or whose len
 * is 0: perf 6.1 keeps it in its rb-tree by start (map__new() does not
 * clamp), where maps__find() never returns it, since an address at or
 * above its start is at or above its end too; the maps beside it, made
 * before and after, resolve as before, in the process, its fork and the
 * kernel maps. */
static void test_wrapped_map(void **state)
{
	struct addr_location al;

	(void)state;
	mmap2(600, 600, 0x400000, 0x10000, 0x1000, 5, "/lib/a.so", PD_MISC_USER);
	mmap2(600, 600, 0xffffffffffff0000ULL, 0x20000, 0, 5, "/lib/wrap.so", PD_MISC_USER);
	mmap2(600, 600, 0x7f0000000000ULL, 0x1000, 0, 5, "/lib/b.so", PD_MISC_USER);
	mmap2(600, 600, 0x405000, 0, 0, 5, "/lib/empty.so", PD_MISC_USER);
	mmap2(600, 600, 0xfffffffffffff000ULL, 0x1000, 0, 5, "/lib/top.so", PD_MISC_USER);
	fork_rec(601, 600, 601, 600);
	for (s32 pid = 600; pid <= 601; pid++) {
		resolve(pid, pid, PD_MISC_USER, 0x400010, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/a.so");
		assert_int_equal(al.addr, 0x1010);
		resolve(pid, pid, PD_MISC_USER, 0x405000, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/a.so");
		assert_int_equal(al.addr, 0x6000);
		resolve(pid, pid, PD_MISC_USER, 0x40fff0, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/a.so");
		resolve(pid, pid, PD_MISC_USER, 0x7f0000000010ULL, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/b.so");
		assert_int_equal(al.addr, 0x10);
		/* in the wrapped map's range, both sides of 2^64: no map */
		resolve(pid, pid, PD_MISC_USER, 0xffffffffffff8000ULL, &al);
		assert_null(al.map);
		assert_int_equal(al.addr, 0xffffffffffff8000ULL);
		resolve(pid, pid, PD_MISC_USER, 0x8000, &al);
		assert_null(al.map);
		/* start + len == 2^64: end 0, no map either */
		resolve(pid, pid, PD_MISC_USER, 0xfffffffffffff800ULL, &al);
		assert_null(al.map);
	}
	/* kernel maps: a wrapped module between the kernel and another one */
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)-1);
	put64(16, 0xffffffff81000000ULL);
	put64(24, 0x1000000);
	put64(32, 0);
	strcpy((char *)buf + 40, "[kernel.kallsyms]_text");
	feed(PD_REC_MMAP, PD_MISC_KERNEL, 40 + 24);
	kernel_module(0xfffffffffff00000ULL, 0x200000, "/lib/modules/wrap.ko");
	kernel_module(0xffffffffc0000000ULL, 0x10000, "/lib/modules/ok.ko");
	resolve(0, 0, PD_MISC_KERNEL, 0xffffffffc0000010ULL, &al);
	assert_string_equal(dso_short_name(al.dso), "[ok]");
	resolve(0, 0, PD_MISC_KERNEL, 0xfffffffffff80000ULL, &al);
	assert_null(al.map);
	resolve(0, 0, PD_MISC_KERNEL, 0xffffffff81000100ULL, &al);
	assert_string_equal(dso_short_name(al.dso), "[kernel.kallsyms]");
}

static void test_anon_jit_vdso(void **state)
{
	struct addr_location al;

	(void)state;
	mmap2(400, 400, 0x7f0000000000ULL, 0x1000, 0, 7, "//anon", PD_MISC_USER);
	resolve(400, 400, PD_MISC_USER, 0x7f0000000010ULL, &al);
	assert_string_equal(dso_short_name(al.dso), "[JIT] tid 400");
	assert_string_equal(dso_long_name(al.dso), "/tmp/perf-400.map");
	assert_int_equal(al.addr, 0x7f0000000010ULL);	/* identity */
	mmap2(400, 400, 0x7f0000100000ULL, 0x1000, 0, 3, "[heap]", PD_MISC_USER);
	resolve(400, 400, PD_MISC_USER, 0x7f0000100010ULL, &al);
	assert_string_equal(dso_short_name(al.dso), "[heap]");
	mmap2(400, 400, 0x7fff00000000ULL, 0x2000, 0x1234, 5, "[vdso]", PD_MISC_USER);
	resolve(400, 400, PD_MISC_USER, 0x7fff00000100ULL, &al);
	assert_string_equal(dso_short_name(al.dso), "[vdso]");
	assert_int_equal(al.addr, 0x100);	/* vdso maps get pgoff 0 */
}

/* Lookups that go back and forth between two maps (each found from the
 * two last remembered) still see a map that replaces one of them. */
static void test_map_lookups_after_change(void **state)
{
	struct addr_location al;

	(void)state;
	mmap2(500, 500, 0x10000, 0x1000, 0, 5, "/lib/one.so", PD_MISC_USER);
	mmap2(500, 500, 0x20000, 0x1000, 0, 5, "/lib/two.so", PD_MISC_USER);
	for (int i = 0; i < 3; i++) {
		resolve(500, 500, PD_MISC_USER, 0x10010, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/one.so");
		resolve(500, 500, PD_MISC_USER, 0x20010, &al);
		assert_string_equal(dso_long_name(al.dso), "/lib/two.so");
	}
	/* one.so is the older of the two found last: a new map over it */
	mmap2(500, 500, 0x10000, 0x1000, 0, 5, "/lib/three.so", PD_MISC_USER);
	resolve(500, 500, PD_MISC_USER, 0x10010, &al);
	assert_string_equal(dso_long_name(al.dso), "/lib/three.so");
	resolve(500, 500, PD_MISC_USER, 0x20010, &al);
	assert_string_equal(dso_long_name(al.dso), "/lib/two.so");
}

static void test_thread_pid_update(void **state)
{
	struct addr_location al;

	(void)state;
	/* a thread first seen by tid only joins its leader once its pid is known */
	resolve(-1, 501, PD_MISC_USER, 0x1000, &al);
	assert_int_equal(al.pid, -1);
	mmap2(500, 500, 0x1000, 0x1000, 0, 5, "/bin/leader", PD_MISC_USER);
	resolve(500, 501, PD_MISC_USER, 0x1000, &al);
	assert_int_equal(al.pid, 500);
	assert_string_equal(dso_long_name(al.dso), "/bin/leader");
}

static void test_short_records(void **state)
{
	(void)state;
	for (u16 size = 8; size < 100; size++) {
		memset(buf, 0x41, sizeof(buf));
		feed(PD_REC_MMAP2, PD_MISC_USER, size);
		feed(PD_REC_MMAP, PD_MISC_KERNEL, size);
		feed(PD_REC_COMM, 0, size);
		feed(PD_REC_FORK, 0, size);
		feed(PD_REC_EXIT, 0, size);
		feed(PD_REC_KSYMBOL, 0, size);
	}
}

static void test_kernel_map(void **state)
{
	struct addr_location al;

	(void)state;
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)-1);
	put64(16, 0xffffffff81000000ULL);
	put64(24, 0x1000000);
	put64(32, 0);
	strcpy((char *)buf + 40, "[kernel.kallsyms]_text");
	feed(PD_REC_MMAP, PD_MISC_KERNEL, 40 + 24);
	resolve(0, 0, PD_MISC_KERNEL, 0xffffffff81000100ULL, &al);
	assert_non_null(al.dso);
	assert_string_equal(dso_short_name(al.dso), "[kernel.kallsyms]");
	assert_int_equal(al.level, 'k');
	/* user space never falls back to the kernel maps */
	resolve(0, 0, PD_MISC_USER, 0xffffffff81000100ULL, &al);
	assert_null(al.map);
}

/* SESSION_NO_SYMBOL: same map and dso, no symbol, and the user dso's
 * symbols are not loaded; a later lookup without the flag still works. */
static void test_no_symbol_user(void **state)
{
	char self[1024];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct addr_location al, al2;

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	/* the whole file mapped at 0x400000: map-relative = file offset */
	mmap2(500, 500, 0x400000, 0x100000, 0, 5, self, PD_MISC_USER);
	resolve_flags(500, 500, PD_MISC_USER, 0x400000 + 0x1100, SESSION_NO_SYMBOL, &al);
	assert_non_null(al.dso);
	assert_string_equal(dso_long_name(al.dso), self);
	assert_null(al.sym);
	assert_int_equal(al.addr, 0x1100);
	assert_false(al.dso->loaded);
	resolve_flags(500, 500, PD_MISC_USER, 0x400000 + 0x1100, 0, &al2);
	assert_ptr_equal(al2.map, al.map);
	assert_ptr_equal(al2.dso, al.dso);
	assert_true(al.dso->loaded);
}

/* Resolves a kernel address in a fresh session (a kernel MMAP only) with
 * flags; gives the kernel map's extent afterwards. */
static void kernel_extent(int flags, u64 ip, u64 *start, u64 *end)
{
	struct addr_location al;

	session_free(s);
	s = session_new(&file, NULL);
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)-1);
	put64(16, 0xffffffff80000000ULL);
	put64(24, 0x7fffffffULL);
	put64(32, 0);
	strcpy((char *)buf + 40, "[kernel.kallsyms]_text");
	feed(PD_REC_MMAP, PD_MISC_KERNEL, 40 + 24);
	resolve_flags(0, 0, PD_MISC_KERNEL, ip, flags, &al);
	if (flags & SESSION_NO_SYMBOL)
		assert_null(al.sym);
	*start = al.map ? map_start(al.map) : 0;
	*end = al.map ? map_end(al.map) : 0;
}

/* The kernel map's extent is what kallsyms loading makes it, with or
 * without SESSION_NO_SYMBOL (perf's --sort dso depends on it). */
static void test_no_symbol_kernel(void **state)
{
	u64 s1, e1, s2, e2;

	(void)state;
	kernel_extent(0, 0xffffffff81000100ULL, &s1, &e1);
	kernel_extent(SESSION_NO_SYMBOL, 0xffffffff81000100ULL, &s2, &e2);
	assert_int_equal(s1, s2);
	assert_int_equal(e1, e2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_comm_override, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_last_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_cow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overlap_split, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anon_jit_vdso, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_lookups_after_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_pid_update, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_symbol_user, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_symbol_kernel, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
