/*
 * test_record_synth.c - cmocka tests for the records prof record
 * synthesizes from /proc (src/record/synth.c): the kernel and module
 * maps from a fake root (kallsyms, modules, a /lib/modules tree), and the
 * COMM and MMAP2 records of this very process, with and without data maps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record/synth.h"
#include "format/perf_data.h"

/* The records emitted, back to back. */
struct got {
	u8 buf[1 << 20];
	size_t len;
	int nr;
};

static void take(void *arg, const void *rec, size_t size)
{
	struct got *g = arg;

	assert_int_equal(((const struct pd_header *)rec)->size, size);
	assert_int_equal(size % 8, 0);
	assert_true(g->len + size <= sizeof(g->buf));
	memcpy(g->buf + g->len, rec, size);
	g->len += size;
	g->nr++;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_kernel_maps(void **state)
{
	static struct got g;
	struct synth s = { .emit = take, .arg = &g, .trailer_size = 24 };
	char root[] = "/tmp/prof-synth-XXXXXX", path[512], cmd[600];
	struct utsname u;
	const u8 *r;

	assert_non_null(mkdtemp(root));
	assert_int_equal(uname(&u), 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc %s/lib/modules/%s/kernel/drivers/x",
		 root, root, u.release);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	write_file(path, "ffffffff81000000 T _text\nffffffff81000100 t other\n"
		   "ffffffff82000000 T _etext\n");
	snprintf(path, sizeof(path), "%s/proc/modules", root);
	write_file(path, "nomod 4096 0 - Live 0xffffffffc0200000\n"
		   "foo_bar 8192 1 - Live 0xffffffffc0100000 (O)\n");
	snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel/drivers/x/foo-bar.ko.xz", root, u.release);
	write_file(path, "");
	s.root = root;
	synth_kernel_maps(&s);
	synth_free(&s);

	assert_int_equal(g.nr, 3);
	r = g.buf;	/* the kernel: pid -1, _text.._etext, pgoff _text */
	assert_int_equal(pd_get32(r), PD_REC_MMAP);
	assert_int_equal(pd_get16(r + 4), PD_MISC_KERNEL);
	assert_int_equal(pd_get32(r + 8), (u32)-1);
	assert_int_equal(pd_get64(r + 16), 0xffffffff81000000ULL);
	assert_int_equal(pd_get64(r + 24), 0x1000000);
	assert_int_equal(pd_get64(r + 32), 0xffffffff81000000ULL);
	assert_string_equal((const char *)r + 40, "[kernel.kallsyms]_text");
	r += pd_get16(r + 6);	/* modules in address order, a found file first */
	assert_int_equal(pd_get64(r + 16), 0xffffffffc0100000ULL);
	assert_int_equal(pd_get64(r + 24), 8192);
	assert_int_equal(pd_get64(r + 32), 0);
	assert_non_null(strstr((const char *)r + 40, "/kernel/drivers/x/foo-bar.ko.xz"));
	r += pd_get16(r + 6);
	assert_int_equal(pd_get64(r + 16), 0xffffffffc0200000ULL);
	assert_string_equal((const char *)r + 40, "[nomod]");
	for (int i = 0; i < 24; i++)	/* the zero trailer */
		assert_int_equal(r[pd_get16(r + 6) - 24 + i], 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* This process: its COMM, then an MMAP2 per executable map, among them
 * this test's binary; with mmap_data, readable data maps too. */
static void test_own_process(void **state)
{
	static struct got g;
	struct synth s = { .emit = take, .arg = &g, .trailer_size = 16 };
	pid_t me = getpid();
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int saw_exe = 0, nr_data = 0, nr_exec = 0;
	void *data = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(n > 0);
	exe[n] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		g.len = 0;
		g.nr = 0;
		s.mmap_data = pass;
		synth_thread_list(&s, &me, 1);
		assert_int_equal(pd_get32(g.buf), PD_REC_COMM);
		assert_int_equal(pd_get32(g.buf + 8), me);
		assert_int_equal(pd_get32(g.buf + 12), me);
		for (size_t off = pd_get16(g.buf + 6); off < g.len; off += pd_get16(g.buf + off + 6)) {
			const u8 *r = g.buf + off;
			u32 prot = pd_get32(r + 64);

			assert_int_equal(pd_get32(r), PD_REC_MMAP2);
			assert_int_equal(pd_get32(r + 8), me);
			if (pd_get16(r + 4) & PD_MISC_MMAP_DATA) {
				assert_true(pass == 1 && (prot & PROT_READ) && !(prot & PROT_EXEC));
				nr_data++;
			} else {
				assert_true(prot & PROT_EXEC);
				nr_exec++;
			}
			saw_exe |= !strcmp((const char *)r + 72, exe);
		}
	}
	synth_free(&s);
	munmap(data, 4096);
	assert_true(saw_exe);
	assert_true(nr_exec > 0 && nr_data > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_maps),
		cmocka_unit_test(test_own_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
