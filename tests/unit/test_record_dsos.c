/*
 * test_record_dsos.c - cmocka tests for prof record's sampled-DSO tracking
 * (src/record/dsos.c): synthetic MMAP2, FORK, COMM (exec), EXIT and
 * SAMPLE records go in, and the BUILD_ID payload must list exactly the
 * DSOs whose maps the samples fell in.
 *
 * The DSO is this test binary itself (a real ELF file with a build-id);
 * expected ids come from elf_file_build_id() on it, expected membership
 * from how the records were built.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/dsos.h"
#include "symbol/symbol.h"

static char exe[4096];

static void feed(struct record_dsos *d, u32 type, u16 misc, const void *body, size_t len)
{
	u8 rec[4200] = { 0 };
	struct pd_header h = { type, misc, (u16)((8 + len + 7) & ~(size_t)7) };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, body, len);
	record_dsos_add(d, (const struct pd_header *)rec);
}

static void mmap2(struct record_dsos *d, u32 pid, u64 start, u64 len, const char *path)
{
	u8 b[72 + 4096] = { 0 };

	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &start, 8);
	memcpy(b + 16, &len, 8);
	strcpy((char *)b + 64, path);
	feed(d, PD_REC_MMAP2, PD_MISC_USER, b, 64 + strlen(path) + 1);
}

static void sample(struct record_dsos *d, u16 cpumode, u32 pid, u64 ip)
{
	u8 b[24] = { 0 };

	memcpy(b, &ip, 8);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	feed(d, PD_REC_SAMPLE, cpumode, b, sizeof(b));
}

/* FORK and EXIT: u32 pid, ppid, tid, ptid, u64 time */
static void task(struct record_dsos *d, u32 type, u32 pid, u32 ppid, u32 tid)
{
	u32 b[6] = { pid, ppid, tid, ppid, 0, 0 };

	feed(d, type, 0, b, sizeof(b));
}

static void exec_comm(struct record_dsos *d, u32 pid)
{
	u8 b[24] = { 0 };

	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	strcpy((char *)b + 8, "new");
	feed(d, PD_REC_COMM, PD_MISC_MMAP_DATA, b, sizeof(b));
}

/* Does the payload list exe (with its true build-id)? */
static int lists_exe(struct record_dsos *d)
{
	size_t size;
	u8 *p = record_dsos_build_ids(d, &size), bid[20];
	int n = elf_file_build_id(exe, bid, sizeof(bid)), found = 0;

	assert_true(n > 0);
	for (size_t off = 0; p && off + 36 <= size; ) {
		u16 esize = pd_get16(p + off + 6);

		assert_true(esize >= 36 && off + esize <= size);
		if (!strcmp((char *)p + off + 36, exe)) {
			assert_int_equal(pd_get16(p + off + 4), PD_MISC_USER | PD_MISC_BUILD_ID_SIZE);
			assert_int_equal(p[off + 32], n);
			assert_memory_equal(p + off + 12, bid, (size_t)n);
			assert_int_equal((esize - 36) % 64, 0);
			found = 1;
		}
		off += esize;
	}
	free(p);
	record_dsos_free(d);
	return found;
}

static void test_sample_in_map(void **state)
{
	struct record_dsos *d = record_dsos_new(0);

	mmap2(d, 10, 0x1000, 0x1000, exe);
	sample(d, PD_MISC_USER, 10, 0x1800);
	assert_true(lists_exe(d));

	d = record_dsos_new(0);
	mmap2(d, 10, 0x1000, 0x1000, exe);
	sample(d, PD_MISC_USER, 10, 0x2000);	/* just past the end */
	sample(d, PD_MISC_USER, 11, 0x1800);	/* another process */
	assert_false(lists_exe(d));
}

static void test_fork_exec_exit(void **state)
{
	struct record_dsos *d = record_dsos_new(0);

	/* the child inherits the map; the parent's exec drops only its own */
	mmap2(d, 10, 0x1000, 0x1000, exe);
	task(d, PD_REC_FORK, 11, 10, 11);
	exec_comm(d, 10);
	sample(d, PD_MISC_USER, 10, 0x1800);
	assert_false(lists_exe(d));

	d = record_dsos_new(0);
	mmap2(d, 10, 0x1000, 0x1000, exe);
	task(d, PD_REC_FORK, 11, 10, 11);
	exec_comm(d, 10);
	sample(d, PD_MISC_USER, 11, 0x1800);
	assert_true(lists_exe(d));

	/* a thread's fork and exit keep the maps; the process's exit drops them */
	d = record_dsos_new(0);
	mmap2(d, 10, 0x1000, 0x1000, exe);
	task(d, PD_REC_FORK, 10, 10, 12);
	task(d, PD_REC_EXIT, 10, 10, 12);
	sample(d, PD_MISC_USER, 10, 0x1800);
	assert_true(lists_exe(d));

	d = record_dsos_new(0);
	mmap2(d, 10, 0x1000, 0x1000, exe);
	task(d, PD_REC_EXIT, 10, 1, 10);
	sample(d, PD_MISC_USER, 10, 0x1800);
	assert_false(lists_exe(d));
}

/* Synthesized state: a FORK_EXEC fork starts empty (its own MMAP2s
 * follow), data maps are not followed, and samples that start with an
 * IDENTIFIER (system-wide) are found by their ip after it. */
static void test_synthesized_and_identifier(void **state)
{
	struct record_dsos *d = record_dsos_new(0);
	u8 b[72 + 4096] = { 0 };
	u32 pid = 12;
	u64 start = 0x5000, len = 0x1000;

	mmap2(d, 10, 0x1000, 0x1000, exe);
	feed(d, PD_REC_FORK, PD_MISC_MMAP_DATA, (u32[6]){ 11, 10, 11, 10, 0, 0 }, 24);
	sample(d, PD_MISC_USER, 11, 0x1800);
	assert_false(lists_exe(d));

	d = record_dsos_new(0);
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &start, 8);
	memcpy(b + 16, &len, 8);
	strcpy((char *)b + 64, exe);
	feed(d, PD_REC_MMAP2, PD_MISC_USER | PD_MISC_MMAP_DATA, b, 64 + strlen(exe) + 1);
	sample(d, PD_MISC_USER, 12, 0x5800);
	assert_false(lists_exe(d));

	d = record_dsos_new(1);
	mmap2(d, 10, 0x1000, 0x1000, exe);
	{
		u8 s[32] = { 0 };
		u64 id = 77, ip = 0x1800;

		pid = 10;
		memcpy(s, &id, 8);
		memcpy(s + 8, &ip, 8);
		memcpy(s + 16, &pid, 4);
		memcpy(s + 20, &pid, 4);
		feed(d, PD_REC_SAMPLE, PD_MISC_USER, s, sizeof(s));
	}
	assert_true(lists_exe(d));
}

/* Many processes: the tables grow and keep every entry. */
static void test_many_processes(void **state)
{
	struct record_dsos *d = record_dsos_new(0);

	mmap2(d, 1, 0x1000, 0x1000, exe);
	for (u32 pid = 2; pid < 5000; pid++) {
		task(d, PD_REC_FORK, pid, pid - 1, pid);
		if (pid % 3 == 0)
			task(d, PD_REC_EXIT, pid - 2, 1, pid - 2);
		mmap2(d, pid, 0x100000 + pid * 0x1000, 0x1000, "/no/such/file");
	}
	sample(d, PD_MISC_USER, 4999, 0x1800);
	assert_true(lists_exe(d));
}

/* Names that are not files ([vdso], //anon) and kernel samples. */
static void test_kernel_and_pseudo(void **state)
{
	struct record_dsos *d = record_dsos_new(0);
	u8 bid[20];
	size_t size;
	u8 *p;

	mmap2(d, 10, 0x1000, 0x1000, "[vdso]");
	sample(d, PD_MISC_USER, 10, 0x1800);
	sample(d, PD_MISC_KERNEL, 10, 0xffffffff81000000ULL);
	p = record_dsos_build_ids(d, &size);
	if (host_kernel_build_id(bid, sizeof(bid)) > 0) {
		assert_non_null(p);
		assert_int_equal(pd_get16(p + 4), PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE);
		assert_string_equal((char *)p + 36, "[kernel.kallsyms]");
		assert_int_equal(size, pd_get16(p + 6));	/* nothing for [vdso] */
	}
	free(p);
	record_dsos_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_in_map),
		cmocka_unit_test(test_fork_exec_exit),
		cmocka_unit_test(test_many_processes),
		cmocka_unit_test(test_kernel_and_pseudo),
		cmocka_unit_test(test_synthesized_and_identifier),
	};
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return 1;
	exe[n] = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
