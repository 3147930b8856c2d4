/*
 * test_symbol.c - cmocka tests for src/symbol: perf's symbol fixups, the
 * sorted-array lookup, demangling, perf-PID.map parsing and the ELF loader
 * on good and bad files.
 *
 * Expected values come from perf 6.1's rules as documented in symbol.h and
 * dso.c (zero sizes extend to the next symbol, aliases choose by size,
 * binding, underscores, name length), never from running the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/symbol_int.h"

static struct arena arena;
static struct dso_table table;

static int setup(void **state)
{
	(void)state;
	arena_init(&arena, 0);
	dso_table_init(&table, &arena, NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dso_table_exit(&table);
	arena_free(&arena);
	return 0;
}

static void test_fixup_end_and_aliases(void **state)
{
	struct symbol_list l = { .arena = &arena };

	(void)state;
	symbol_list_add(&l, 0x3000, 0x3000, "last", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x1000, 0x1000, "zero", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x2000, 0x2010, "__weak_one", STB_WEAK, STT_FUNC);
	symbol_list_add(&l, 0x2000, 0x2010, "strong", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x2000, 0x2010, "local", STB_LOCAL, STT_FUNC);
	symbol_list_finish(&l, 0);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.v[0].name, "zero");
	assert_int_equal(l.v[0].end, 0x2000);		/* to the next start */
	assert_string_equal(l.v[1].name, "strong");	/* global beats weak, local */
	assert_int_equal(l.v[2].end, 0x4000);		/* last: next page + 4096 */
	free(l.v);
}

static void test_alias_rules(void **state)
{
	struct symbol_list l = { .arena = &arena };

	(void)state;
	symbol_list_add(&l, 0x10, 0x20, "__x", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x10, 0x20, "_x", STB_GLOBAL, STT_FUNC);	/* fewer _ */
	symbol_list_add(&l, 0x40, 0x40, "sized_not", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x40, 0x48, "sized", STB_LOCAL, STT_FUNC);	/* has a size */
	symbol_list_add(&l, 0x80, 0x88, "ab", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x80, 0x88, "abc", STB_GLOBAL, STT_FUNC);	/* longer */
	symbol_list_add(&l, 0x90, 0x98, "first", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x90, 0x98, "other", STB_GLOBAL, STT_FUNC);	/* tie: first */
	symbol_list_finish(&l, 0);
	assert_int_equal(l.nr, 4);
	assert_string_equal(l.v[0].name, "_x");
	assert_string_equal(l.v[1].name, "sized");
	assert_string_equal(l.v[2].name, "abc");
	assert_string_equal(l.v[3].name, "first");
	free(l.v);
}

static void test_kallsyms_module_gap(void **state)
{
	struct symbol_list l = { .arena = &arena };

	(void)state;
	symbol_list_add(&l, 0xffffffff81000000ULL, 0xffffffff81000000ULL, "_text", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0xffffffff81001234ULL, 0xffffffff81001234ULL, "k_last", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0xffffffffc0000000ULL, 0xffffffffc0000000ULL, "m\t[mod]", STB_LOCAL, STT_FUNC);
	symbol_list_finish(&l, 1);
	/* a kernel symbol followed by a module one ends a page after its start */
	assert_int_equal(l.v[1].end, 0xffffffff81003000ULL);
	free(l.v);
}

/* perf's kallsyms copy stands for /proc/kallsyms only when its start up
 * to the first text symbol is the same and its modules are the loaded
 * ones at the same places. */
static void test_kallsyms_copy_current(void **state)
{
	const char head[] = "0000000000000000 A fixed_percpu_data\n"
			    "ffffffff81000000 T _stext\n"
			    "ffffffff81000010 t second\n";
	const char core[] = "0000000000000000 A fixed_percpu_data\n"
			    "ffffffff81000000 T _stext\n"
			    "ffffffff81000020 t other_than_head\n";
	const char moved[] = "0000000000000000 A fixed_percpu_data\n"
			     "ffffffff9a000000 T _stext\n";
	const char percpu_only[] = "0000000000000000 A fixed_percpu_data\n";
	const char with_mods[] = "ffffffff81000000 T _stext\n"
				 "ffffffffc0201000 t ftrace_trampoline\t[__builtin__ftrace]\n"
				 "ffffffffc0300010 t m_init\t[m]\n"
				 "ffffffffc0300400 T m_func\t[m]\n"
				 "ffffffffc0302000 d m_data\t[m]\n"
				 "ffffffffc0400000 t bpf_prog_1\t[bpf]\n";
	char mods[256];

	(void)state;
	/* the core: same first text line, whatever follows */
	assert_int_equal(kallsyms_copy_current(core, strlen(core), head, strlen(head), NULL), 1);
	assert_int_equal(kallsyms_copy_current(moved, strlen(moved), head, strlen(head), NULL), 0);
	assert_int_equal(kallsyms_copy_current(core, strlen(core), percpu_only,
					       strlen(percpu_only), NULL), 0);
	assert_int_equal(kallsyms_copy_current(core, 20, head, strlen(head), NULL), 0);
	/* modules: the copy has m, /proc/modules must list it alone, live,
	   its text from the first page of its base and inside its size */
	strcpy(mods, "m 8192 0 - Live 0xffffffffc0300000\n");
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 1);
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), NULL), 0);
	strcpy(mods, "m 8192 0 - Live 0xffffffffc02ff000\n");	/* a page lower */
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "m 8192 0 - Live 0xffffffffc0301000\n");	/* a page higher */
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "m 1024 0 - Live 0xffffffffc0300000\n");	/* m_func outside */
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "m 8192 0 - Live 0xffffffffc0300000\nn 4096 0 - Live 0xffffffffc0500000\n");
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "m 8192 0 - Loading 0xffffffffc0300000\n");
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "m 8192 0 - Live 0x0000000000000000\n");	/* hidden */
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	strcpy(mods, "n 8192 0 - Live 0xffffffffc0300000\n");
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
	/* no modules now: a copy without any (pseudo-modules aside) */
	mods[0] = 0;
	assert_int_equal(kallsyms_copy_current(core, strlen(core), head, strlen(head), mods), 1);
	assert_int_equal(kallsyms_copy_current(with_mods, strlen(with_mods), with_mods,
					       strlen(with_mods), mods), 0);
}

/* kallsyms addresses: lower and upper case hex, a 0x prefix and a number
 * too long for 64 bits read as strtoull() reads them (saturated); a line
 * without an address, or with a bad digit in it, is skipped. */
static void test_kallsyms_addresses(void **state)
{
	char path[] = "/tmp/test_kallsymsXXXXXX";
	int fd = mkstemp(path);
	const char text[] = "ffffffff81000000 T _text\n"
			    "FFFFFFFF81000100 T upper\n"
			    "0xffffffff81000200 t prefixed\n"
			    "zz t no_address\n"
			    "ffffffffa0b1c2d3 t letters\n"
			    "ffffffff8100000g t bad_digit\n"
			    "fffffffff81000300 t too_long\n";
	struct dso *k = dso_table_findnew(&table, "[kernel.kallsyms]", DSO_KIND_KERNEL);
	struct symbol_list l = { .arena = &arena };
	int n;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	n = kallsyms_load(&table, k, path, &l);
	unlink(path);
	assert_int_equal(n, 5);
	assert_string_equal(l.v[0].name, "_text");
	assert_true(l.v[0].start == 0xffffffff81000000ULL);
	assert_string_equal(l.v[1].name, "upper");
	assert_true(l.v[1].start == 0xffffffff81000100ULL);
	assert_string_equal(l.v[2].name, "prefixed");
	assert_true(l.v[2].start == 0xffffffff81000200ULL);
	assert_string_equal(l.v[3].name, "letters");
	assert_true(l.v[3].start == 0xffffffffa0b1c2d3ULL);
	assert_string_equal(l.v[4].name, "too_long");
	assert_true(l.v[4].start == ~0ULL);
	free(l.v);
}

/* Lookups follow perf's tree descent, not a "containing symbol" rule:
 * inserted in order, outer/inner/far make inner the root, so an address
 * in outer past inner's end goes right to far and finds nothing. */
static void test_lookup_nested(void **state)
{
	struct dso *d = dso_table_findnew(&table, "/nonexistent/lookup", DSO_KIND_NOSYMS);
	struct symbol_list l = { .arena = &arena };
	const struct symbol *s;

	(void)state;
	symbol_list_add(&l, 0x100, 0x200, "outer", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x120, 0x130, "inner", STB_GLOBAL, STT_FUNC);
	symbol_list_add(&l, 0x300, 0x310, "far", STB_GLOBAL, STT_FUNC);
	dso_install_list(d, &l);
	free(l.v);
	s = dso_find_symbol(&table, d, 0x125);
	assert_non_null(s);
	assert_string_equal(s->name, "inner");
	assert_null(dso_find_symbol(&table, d, 0x150));
	s = dso_find_symbol(&table, d, 0x110);
	assert_non_null(s);
	assert_string_equal(s->name, "outer");
	assert_null(dso_find_symbol(&table, d, 0x250));
	assert_null(dso_find_symbol(&table, d, 0x50));
	assert_string_equal(dso_find_symbol(&table, d, 0x30f)->name, "far");
}

/* Checks the red-black properties and in-order sort of the subtree n;
 * returns its black height. */
static int check_rb(const struct symtree *t, u32 n, u64 lo, u64 hi)
{
	int l, r;

	if (!n)
		return 1;
	assert_true(t->v[n].sym.start >= lo && t->v[n].sym.start <= hi);
	if (!t->v[n].black) {
		assert_true(t->v[t->v[n].left].black);
		assert_true(t->v[t->v[n].right].black);
	}
	if (t->v[n].left)
		assert_int_equal(t->v[t->v[n].left].parent, n);
	if (t->v[n].right)
		assert_int_equal(t->v[t->v[n].right].parent, n);
	l = check_rb(t, t->v[n].left, lo, t->v[n].sym.start);
	r = check_rb(t, t->v[n].right, t->v[n].sym.start, hi);
	assert_int_equal(l, r);
	return l + t->v[n].black;
}

/* Inserts with many equal starts, then perf's duplicate fixup (erases):
 * the tree stays a red-black tree holding one symbol per start. */
static void test_symtree_erase(void **state)
{
	struct symtree t;
	u32 seed = 12345;

	(void)state;
	symtree_init(&t);
	for (int i = 0; i < 3000; i++) {
		seed = seed * 1103515245 + 12345;
		symtree_insert(&t, (seed >> 8) % 700 * 16, 0, "s", STB_GLOBAL, STT_FUNC);
		if (i % 500 == 0)
			check_rb(&t, t.root, 0, ~0ULL);
	}
	assert_true(t.v[t.root].black);
	check_rb(&t, t.root, 0, ~0ULL);
	symtree_fixup_end(&t, 0);
	symtree_fixup_duplicate(&t);
	check_rb(&t, t.root, 0, ~0ULL);
	assert_true(t.count <= 700);
	assert_true(t.count > 600);
	symtree_exit(&t);
}

/* One random load, replayed on t: inserts (many equal starts, zero and
 * overlapping sizes), perf's fixups, then inserts left unfixed (as PLT
 * entries are). */
static void random_load(struct symtree *t, u32 seed, int nr)
{
	static const char *const names[] = { "a", "_b", "__c", "dd", "SyS_e", "f" };

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < nr; i++) {
			u64 start, size;

			seed = seed * 1103515245 + 12345;
			start = (seed >> 8) % (u64)(nr * 2) * 16;
			seed = seed * 1103515245 + 12345;
			size = (seed >> 8) % 4 == 0 ? 0 : (seed >> 12) % 64;
			symtree_insert(t, start, start + size, names[(seed >> 20) % 6],
				       (seed >> 24) % 3 ? STB_GLOBAL : STB_WEAK, STT_FUNC);
		}
		if (pass == 0) {
			symtree_fixup_end(t, 0);
			symtree_fixup_duplicate(t);
		}
		nr /= 8;
	}
}

/* A lazy tree installs what the tree does: same symbols, same ranges
 * (where symbols overlap it is replayed into the same shape). */
static void test_symtree_lazy(void **state)
{
	(void)state;
	for (u32 seed = 1; seed <= 60; seed++) {
		struct dso *a = dso_table_findnew(&table, "/nonexistent/eager", DSO_KIND_NOSYMS);
		struct dso *b = dso_table_findnew(&table, "/nonexistent/lazy", DSO_KIND_NOSYMS);
		struct symtree eager, lazy;
		int nr = seed % 3 == 0 ? 3000 : (int)seed * 7;

		symtree_init(&eager);
		symtree_init_lazy(&lazy);
		random_load(&eager, seed, nr);
		random_load(&lazy, seed, nr);
		symtree_install(&eager, a);
		symtree_install(&lazy, b);
		assert_int_equal(a->nr_syms, b->nr_syms);
		assert_int_equal(a->nr_ranges, b->nr_ranges);
		for (u32 i = 0; i < a->nr_syms; i++) {
			assert_int_equal(a->syms[i].start, b->syms[i].start);
			assert_int_equal(a->syms[i].end, b->syms[i].end);
			assert_ptr_equal(a->syms[i].name, b->syms[i].name);
		}
		for (u32 i = 0; i < a->nr_ranges; i++) {
			assert_int_equal(a->ranges[i].start, b->ranges[i].start);
			assert_int_equal(a->ranges[i].end, b->ranges[i].end);
			assert_int_equal(a->ranges[i].sym, b->ranges[i].sym);
		}
		for (u64 addr = 0; addr < (u64)nr * 32 + 64; addr++) {
			const struct symbol *x = dso_find_symbol(&table, a, addr);
			const struct symbol *y = dso_find_symbol(&table, b, addr);

			assert_int_equal(x ? x - a->syms : -1, y ? y - b->syms : -1);
		}
		symtree_exit(&eager);
		symtree_exit(&lazy);
	}
}

/* perf 6.1's PLT case: _init (zero-size) stretched to the next symbol
 * over .plt, then PLT entries inserted unfixed: the first node on the
 * descent wins, so which name an address gets depends on the shape. */
static void test_symtree_plt_overlap(void **state)
{
	struct dso *d = dso_table_findnew(&table, "/nonexistent/plt", DSO_KIND_NOSYMS);
	struct symtree t;

	(void)state;
	symtree_init(&t);
	symtree_insert(&t, 0x1000, 0x1000, "_init", STB_GLOBAL, STT_FUNC);
	symtree_insert(&t, 0x1100, 0x1140, "main", STB_GLOBAL, STT_FUNC);
	symtree_fixup_end(&t, 0);
	symtree_fixup_duplicate(&t);
	symtree_insert(&t, 0x1030, 0x1040, "a@plt", STB_GLOBAL, STT_FUNC);
	symtree_insert(&t, 0x1040, 0x1050, "b@plt", STB_GLOBAL, STT_FUNC);
	/* the shape: a@plt is the root, _init its left child, main its
	   right child with b@plt under main's left */
	symtree_install(&t, d);
	symtree_exit(&t);
	assert_int_equal(d->nr_syms, 4);
	assert_string_equal(d->syms[0].name, "_init");
	assert_int_equal(d->syms[0].end, 0x1100);
	for (u64 a = 0xff0; a < 0x1150; a++) {
		const struct symbol *s = dso_find_symbol(&table, d, a);
		const char *want = a < 0x1000 ? NULL : a < 0x1030 ? "_init" :
				   a < 0x1040 ? "a@plt" : a < 0x1050 ? "b@plt" :
				   a < 0x1100 ? NULL : a < 0x1140 ? "main" : NULL;

		if (want)
			assert_string_equal(s ? s->name : "(none)", want);
		else
			assert_null(s);
	}
}

static void test_short_names(void **state)
{
	(void)state;
	assert_string_equal(dso_table_findnew(&table, "/usr/lib/libc.so.6", DSO_KIND_USER)->short_name,
			    "libc.so.6");
	assert_string_equal(dso_table_findnew(&table, "/tmp/perf-123.map", DSO_KIND_JIT)->short_name,
			    "[JIT] tid 123");
	assert_string_equal(dso_table_findnew(&table, "/x/a.out (deleted)", DSO_KIND_USER)->short_name,
			    "a.out (deleted)");
	assert_string_equal(dso_table_findnew(&table, "[vdso]", DSO_KIND_VDSO)->short_name, "[vdso]");
	assert_ptr_equal(dso_table_findnew(&table, "/usr/lib/libc.so.6", DSO_KIND_USER),
			 dso_table_find(&table, "/usr/lib/libc.so.6"));
}

static void test_demangle(void **state)
{
	(void)state;
	assert_string_equal(demangle_symbol(&arena, "_ZN2ns3BoxIlE4spinEi", 0), "ns::Box<long>::spin");
	assert_string_equal(demangle_symbol(&arena, "_ZN2ns3BoxIlE4spinEi", 1),
			    "ns::Box<long>::spin(int)");
	assert_string_equal(demangle_symbol(&arena, "_Z4overdi", 0), "over");
	assert_string_equal(demangle_symbol(&arena, "main", 0), "main");
	assert_string_equal(demangle_symbol(&arena, "_ZN1r6crunch17h5e37fe836fb64178E", 0),
			    "r::crunch");
	assert_string_equal(demangle_symbol(&arena, "_Znot_mangled", 0), "_Znot_mangled");
}

/* Names from ELF files are demangled on first read, with the table's
 * options; plain names are never deferred.  The symbol itself never
 * changes (other threads read it unlocked): the demangled name is kept
 * with the mangled one, and a copy of the symbol finds it too. */
static void test_demangle_later(void **state)
{
	struct symbol_opts verbose = { .verbose_demangle = 1 };
	struct dso_table t, tv;
	struct symbol a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, copy;
	const char *first, *raw;

	(void)state;
	dso_table_init(&t, &arena, NULL);
	dso_table_init(&tv, &arena, &verbose);
	a.name = demangle_later(&t, "_ZN2ns3BoxIlE4spinEi", &a.mangled);
	b.name = demangle_later(&t, "main", &b.mangled);
	c.name = demangle_later(&t, "_Znot_mangled", &c.mangled);
	d.name = demangle_later(&tv, "_ZN2ns3BoxIlE4spinEi", &d.mangled);
	assert_int_equal(a.mangled, 1);
	assert_int_equal(b.mangled, 0);
	copy = a;
	raw = a.name;
	first = symbol_name(&a);
	assert_string_equal(first, "ns::Box<long>::spin");
	assert_int_equal(a.mangled, 1);
	assert_ptr_equal(a.name, raw);
	assert_ptr_equal(symbol_name(&a), first);	/* kept */
	assert_ptr_equal(symbol_name(&copy), first);
	assert_string_equal(symbol_name(&b), "main");
	assert_string_equal(symbol_name(&c), "_Znot_mangled");
	assert_string_equal(symbol_name(&d), "ns::Box<long>::spin(int)");
	dso_table_exit(&t);
	dso_table_exit(&tv);
}

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, size, fp), size);
	fclose(fp);
}

static void test_perf_map(void **state)
{
	char path[] = "/tmp/prof-test-perfmap-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "7f0000001000 20 jitted one\n0x7f0000002000 0x10 two\nbad\n1 2\n";
	struct dso *d = dso_table_findnew(&table, "/nonexistent/jit", DSO_KIND_NOSYMS);
	struct symtree t;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, text, sizeof(text) - 1);
	symtree_init(&t);
	assert_int_equal(perf_map_load(&arena, path, &t), 2);
	symtree_install(&t, d);
	symtree_exit(&t);
	assert_int_equal(d->nr_syms, 2);
	assert_int_equal(d->syms[0].start, 0x7f0000001000ULL);
	assert_int_equal(d->syms[0].end, 0x7f0000001020ULL);
	assert_string_equal(d->syms[0].name, "jitted one");
	assert_string_equal(d->syms[1].name, "two");
	assert_int_equal(d->syms[1].end - d->syms[1].start, 0x10);
	unlink(path);
	symtree_init(&t);
	assert_int_equal(perf_map_load(&arena, "/nonexistent/perf-1.map", &t), -1);
	symtree_exit(&t);
}

/* The test binary itself: an ELF with a .symtab; its main must be found at
 * its file offset (perf moves user symbols by p_vaddr - p_offset). */
static void test_elf_self(void **state)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct dso *d;
	int found = 0;

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	d = dso_table_findnew(&table, self, DSO_KIND_USER);
	dso_load(&table, d);
	assert_true(d->nr_syms > 10);
	assert_true(d->build_id_size > 0);
	for (u32 i = 0; i < d->nr_syms; i++)
		if (!strcmp(d->syms[i].name, "main"))
			found = 1;
	assert_true(found);
}

/* Truncated, garbage and wrong-build-id files load with no symbols. */
static void test_elf_bad(void **state)
{
	char self[4096], path[] = "/tmp/prof-test-elf-XXXXXX";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *fp;
	static u8 buf[1 << 16];
	size_t len;
	int fd;

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	fp = fopen(self, "r");
	assert_non_null(fp);
	len = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	for (size_t cut = 0; cut < len; cut += cut < 128 ? 7 : 997) {
		char name[64];
		struct dso *d;

		write_file(path, buf, cut);
		snprintf(name, sizeof(name), "%s", path);
		d = dso_table_findnew(&table, name, DSO_KIND_USER);
		d->loaded = 0;
		d->build_id_size = 0;
		dso_load(&table, d);
		(void)dso_find_symbol(&table, d, 0x1000);
	}
	/* garbage with an ELF magic */
	memset(buf + 16, 0xff, 4096);
	write_file(path, buf, 4096 + 16);
	{
		struct dso *d = dso_table_findnew(&table, "/tmp/prof-test-garbage", DSO_KIND_USER);

		d->long_name = path;
		dso_load(&table, d);
		assert_int_equal(d->nr_syms, 0);
	}
	unlink(path);
	/* a recorded build-id that differs: the file is not used */
	{
		struct dso *d = dso_table_findnew(&table, "/proc/self/exe", DSO_KIND_USER);
		u8 bid[20];

		memset(bid, 0xab, sizeof(bid));
		d->long_name = self;
		dso_set_build_id(d, bid, sizeof(bid));
		dso_load(&table, d);
		assert_int_equal(d->nr_syms, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixup_end_and_aliases),
		cmocka_unit_test(test_alias_rules),
		cmocka_unit_test(test_kallsyms_module_gap),
		cmocka_unit_test(test_kallsyms_addresses),
		cmocka_unit_test(test_lookup_nested),
		cmocka_unit_test(test_symtree_erase),
		cmocka_unit_test(test_symtree_plt_overlap),
		cmocka_unit_test(test_symtree_lazy),
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_demangle_later),
		cmocka_unit_test(test_kallsyms_copy_current),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_elf_self),
		cmocka_unit_test(test_elf_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
