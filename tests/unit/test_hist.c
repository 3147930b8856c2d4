/*
 * test_hist.c - cmocka tests for src/analysis/hist: adds applied late (a
 * flat report parks samples whose DSO is still loading and adds them once
 * it is loaded) give the histogram the adds made in order would: the same
 * entries, each with its first sample's thread and address, in the order
 * of their first samples.  Entries perf's output sort finds equal come in
 * its input tree's order, with or without the tree's ranks.  The
 * --symbols filter's two parts (name, address) give perf's verdict.  The
 * trace key's entries, order and column width.
 *
 * Samples are resolved by a session fed synthetic records (no symbols:
 * entries are keyed by address); the in-order histogram is the reference,
 * and for ties the order of perf's tree worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hist_int.h"
#include "symbol/symbol.h"

#include "session/session.h"
#include "session_records.h"

#define RX 5	/* PROT_READ | PROT_EXEC */

/* One sample: who and where. */
struct smp {
	s32 tid;
	u64 ip;
	int late;	/* parked: added after the others */
};

/* Resolves a user-mode sample of thread tid (pid 100) at ip. */
static void resolve(s32 tid, u64 ip, struct addr_location *al)
{
	struct pd_header h = { PD_REC_SAMPLE, PD_MISC_USER, 8 };
	struct pd_event ev = { .hdr = &h, .time = 1 };
	struct pd_sample smp = {
		.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID,
		.pid = 100, .tid = (u32)tid, .ip = ip, .time = 1,
	};

	assert_int_equal(session_resolve_flags(s, &ev, &smp, SESSION_NO_SYMBOL, al), 0);
}

/* Builds a histogram of v[] sorted by sort_order: in order when parking
 * is 0, else the late samples after all the others; through
 * hists_add_prepared(), or with flat through hists_add_flat(). */
static void build(struct hists *h, struct hist_layout *lay, struct hist_strings *strs,
		  const struct smp *v, int nr, int parking, int flat)
{
	struct hist_prepared *p = calloc((size_t)nr, sizeof(*p));
	const struct dso **dsos = calloc((size_t)nr, sizeof(*dsos));

	hists_init(h, lay, strs);
	for (int i = 0; i < nr; i++) {
		struct addr_location al;

		resolve(v[i].tid, v[i].ip, &al);
		hists_prepare(h, &al, 0, 1, 0, &p[i]);
		p[i].seq = (u64)i;
		dsos[i] = al.dso;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nr; i++) {
			if ((parking && v[i].late) != pass)
				continue;
			if (flat)
				hists_add_flat(h, &p[i], NULL, 0, hists_flat_hash(h, &p[i], NULL), pass);
			else
				hists_add_prepared(h, &p[i], NULL, 0, dsos[i], pass);
		}
	hists_finish(h, 0);
	free(p);
	free(dsos);
}

/* The histogram of v[] in order and one with parking (flat: added with
 * hists_add_flat()) match. */
static void check_one(const char *sort_order, const struct smp *v, int nr, int flat)
{
	struct hist_layout lay;
	struct hist_strings *strs = hist_strings_new();
	struct hists ref, late;

	assert_int_equal(hist_layout_parse(&lay, sort_order, NULL, 0, 0, 0), 0);
	build(&ref, &lay, strs, v, nr, 0, 0);
	build(&late, &lay, strs, v, nr, 1, flat);
	assert_int_equal(ref.nr_entries, late.nr_entries);
	for (u32 i = 0; i < ref.nr_entries; i++) {
		const struct hist_entry *a = &ref.entries[i], *b = &late.entries[i];

		assert_int_equal(a->period, b->period);
		assert_int_equal(a->nr_samples, b->nr_samples);
		assert_int_equal(a->addr, b->addr);
		assert_int_equal(a->tid, b->tid);
		assert_int_equal(a->comm, b->comm);
		assert_int_equal(a->dso_name, b->dso_name);
		assert_ptr_equal(ref.origins[i].thread, late.origins[i].thread);
		assert_int_equal(ref.origins[i].seq, late.origins[i].seq);
	}
	for (u32 i = 0; i < ref.nr_sorted; i++)
		assert_int_equal(ref.sorted[i] - ref.entries, late.sorted[i] - late.entries);
	hists_release(&ref);
	hists_release(&late);
	hist_strings_free(strs);
}

static void check_same(const char *sort_order, const struct smp *v, int nr)
{
	check_one(sort_order, v, nr, 0);
	check_one(sort_order, v, nr, 1);
}

static int setup_maps(void **state)
{
	setup(state);
	comm(100, 100, "main");
	comm(100, 101, "main");
	mmap2(100, 100, 0x400000, 0x10000, 0, RX, "/bin/app", PD_MISC_USER);
	mmap2(100, 100, 0x7f0000000000, 0x10000, 0, RX, "/lib/libbig.so", PD_MISC_USER);
	return 0;
}

/* Entries of the loading DSO come out where their first samples were. */
static void test_late_entries_keep_their_place(void **state)
{
	const struct smp v[] = {
		{ 100, 0x7f0000000100, 1 }, { 100, 0x400100, 0 }, { 101, 0x7f0000000200, 1 },
		{ 101, 0x400100, 0 }, { 100, 0x7f0000000100, 1 }, { 100, 0x400200, 0 },
	};

	(void)state;
	check_same("comm,dso,sym", v, 6);
	check_same("sym", v, 6);
}

/* A late sample that came first takes over the entry a later sample made:
 * with --sort comm every sample reaches one entry, whose first sample (its
 * thread and address) is a parked one. */
static void test_late_sample_takes_over(void **state)
{
	const struct smp v[] = {
		{ 101, 0x7f0000000300, 1 }, { 100, 0x400100, 0 }, { 100, 0x7f0000000100, 1 },
	};

	(void)state;
	check_same("comm", v, 3);
	check_same("pid", v, 3);
	check_same("comm,dso", v, 3);
}

/* The output order of v[] (one sample each, so every entry has the same
 * period) by --sort sort_order: the entries' addresses into out[]; with
 * tree, hists_finish() ranks every entry in the input tree first. */
static void output_addrs(const char *sort_order, const struct smp *v, int nr, int tree,
			 u64 *out)
{
	struct hist_layout lay;
	struct hist_strings *strs = hist_strings_new();
	struct hists h;

	assert_int_equal(hist_layout_parse(&lay, sort_order, NULL, 0, 0, 0), 0);
	hists_init(&h, &lay, strs);
	h.need_input_rank = tree;
	for (int i = 0; i < nr; i++) {
		struct addr_location al;
		struct hist_prepared p;

		resolve(v[i].tid, v[i].ip, &al);
		hists_prepare(&h, &al, 0, 1, 0, &p);
		p.seq = (u64)i;
		hists_add_prepared(&h, &p, NULL, 0, al.dso, 0);
	}
	hists_finish(&h, 0);
	assert_int_equal(h.nr_sorted, nr);
	for (int i = 0; i < nr; i++)
		out[i] = h.sorted[i]->addr;
	hists_release(&h);
	hist_strings_free(strs);
}

/*
 * Entries perf's output sort finds equal (same comm, DSO and no symbol,
 * same period) come in its input tree's order: by address while a DSO's
 * addresses lie within half the 64-bit circle.  Addresses further apart
 * compare by their wrapping difference, so the tree's shape decides:
 * inserted 0x10, then 0xffffffff81000000 (0x10 minus it is positive: it
 * goes left), then 0x20 (right of 0x10), the tree reads
 * 0xffffffff81000000, 0x10, 0x20.  Both ways of finding the order agree.
 */
static void test_output_ties(void **state)
{
	const struct smp in_app[] = {
		{ 100, 0x400300, 0 }, { 100, 0x400100, 0 }, { 100, 0x400200, 0 },
	};
	const struct smp unmapped[] = {	/* no map: [unknown], the address as is */
		{ 100, 0x10, 0 }, { 100, 0xffffffff81000000ULL, 0 }, { 100, 0x20, 0 },
	};
	const u64 app_order[] = { 0x100, 0x200, 0x300 };
	const u64 wrap_order[] = { 0xffffffff81000000ULL, 0x10, 0x20 };
	u64 got[3];

	(void)state;
	for (int tree = 0; tree < 2; tree++) {
		output_addrs("comm,dso,sym", in_app, 3, tree, got);
		for (int i = 0; i < 3; i++)
			assert_true(got[i] == app_order[i]);
		output_addrs("comm,dso,sym", unmapped, 3, tree, got);
		for (int i = 0; i < 3; i++)
			assert_true(got[i] == wrap_order[i]);
		output_addrs("dso,sym", unmapped, 3, tree, got);
		for (int i = 0; i < 3; i++)
			assert_true(got[i] == wrap_order[i]);
	}
}

/* --symbols: a sample is shown when its symbol's name is listed or, with
 * a map, its address; the address verdict can be found apart (on the
 * thread that has the address) and gives the same. */
static void test_symbol_filter(void **state)
{
	static const char *const names[] = { "listed", NULL };
	static const u64 addrs[] = { 0x1000, 0x2000 };
	const struct hist_filters none = { 0 };
	const struct hist_filters flt = { .symbols = names, .sym_addrs = addrs,
					  .nr_sym_addrs = 2 };
	struct symbol yes = { .start = 0x500, .end = 0x600, .name = "listed" };
	struct symbol no = { .start = 0x700, .end = 0x800, .name = "other" };
	struct hist_strings *strs = hist_strings_new();

	(void)state;
	assert_false(hist_symbol_addr_listed(&flt, 1, 0x3000));
	assert_true(hist_symbol_addr_listed(&flt, 1, 0x2000));
	/* perf's address list counts only with a map */
	assert_false(hist_symbol_addr_listed(&flt, 0, 0x2000));
	assert_false(hist_symbol_addr_listed(&none, 1, 0x2000));

	assert_int_equal(hist_filter_symbol(strs, &none, &no, 0), 0);
	assert_int_equal(hist_filter_symbol(strs, &flt, &yes, 0), 0);
	assert_int_not_equal(hist_filter_symbol(strs, &flt, &no, 0), 0);
	assert_int_equal(hist_filter_symbol(strs, &flt, &no, 1), 0);
	assert_int_not_equal(hist_filter_symbol(strs, &flt, NULL, 0), 0);
	assert_int_equal(hist_filter_symbol(strs, &flt, NULL, 1), 0);
	/* the verdict of a symbol is kept: asked again, the same */
	assert_int_equal(hist_filter_symbol(strs, &flt, &yes, 0), 0);
	assert_int_not_equal(hist_filter_symbol(strs, &flt, &no, 0), 0);
	hist_strings_free(strs);
}

/* Adds a sample of thread tid at ip whose one-item chain is chain_ip
 * (no map: matched by address). */
static void add_with_chain(struct hists *h, s32 tid, u64 ip, u64 chain_ip)
{
	struct addr_location al;
	struct hist_prepared p;
	struct cc_item it = { .ip = chain_ip, .match = chain_ip };
	char level = '.';

	resolve(tid, ip, &al);
	hists_prepare(h, &al, 0, 1, 0, &p);
	hists_add_prepared(h, &p, NULL, 0, al.dso, 0);
	hists_add_callgraph(h, &it, &level, 1, 1, 0);
}

/*
 * Entries whose comms became equal merge as perf's collapse merges them:
 * in its input tree's order, the first keeps its tree and the others'
 * paths are added to it with a count of one each.  Thread 102 has no
 * comm when its first sample comes (perf names it ":102") and is named
 * "main" later, in place: its entry sorted before main's (":" < "m"), so
 * main's entry, with two samples on chain 0x2000, is the one merged:
 * 0x2000 counts one sample (two periods), after 0x1000.
 */
static void test_renamed_comm_merge_order(void **state)
{
	struct hist_layout lay;
	struct hist_strings *strs = hist_strings_new();
	struct hists h;
	const struct callchain_forest *f;
	const struct cc_node *kid;
	const u32 *kids;
	u32 nr;

	(void)state;
	assert_int_equal(hist_layout_parse(&lay, "comm", NULL, 0, 0, 0), 0);
	hists_init(&h, &lay, strs);
	hists_enable_callchains(&h, CC_KEY_FUNCTION, 1, 0);
	add_with_chain(&h, 100, 0x400100, 0x2000);
	add_with_chain(&h, 100, 0x400100, 0x2000);
	add_with_chain(&h, 102, 0x400100, 0x1000);
	comm(100, 102, "main");
	hists_finish(&h, 0);
	assert_int_equal(h.nr_entries, 1);
	f = h.cc;
	nr = callchain_children(f, h.cc_roots[0], &kids);
	assert_int_equal(nr, 2);
	kid = &f->nodes[kids[0]];
	assert_int_equal(f->items[kid->item].ip, 0x2000);
	assert_int_equal(kid->hit, 2);
	assert_int_equal(kid->count, 1);
	kid = &f->nodes[kids[1]];
	assert_int_equal(f->items[kid->item].ip, 0x1000);
	assert_int_equal(kid->count, 1);
	hists_release(&h);
	hist_strings_free(strs);
}

/* The trace key (perf's sort__trace_cmp()): samples with the same text
 * share an entry, whatever their address; equal periods come in strcmp
 * order of the texts; the column is as wide as the longest text once the
 * histogram has two samples, the title's width with one. */
static void test_trace_key(void **state)
{
	static const char *const texts[] = { "b=2", "a=1", "b=2", "c=3 a long text", "a=1", "a=1" };
	static const char *const want[] = { "a=1", "b=2", "c=3 a long text" };
	static const u64 want_period[] = { 3, 2, 1 };
	struct hist_layout lay;
	struct hist_strings *strs = hist_strings_new();
	struct hists h;

	(void)state;
	assert_int_equal(hist_layout_parse(&lay, "trace", NULL, 0, 0, 0), 0);
	assert_true(lay.key_mask & (1u << HD_TRACE));
	assert_string_equal(hist_dim_header(&lay, HD_TRACE), "Trace output");
	hists_init(&h, &lay, strs);
	h.one_thread = 1;
	for (int i = 0; i < 6; i++) {
		struct addr_location al;
		struct hist_prepared p;

		resolve(100, 0x400100 + 0x10 * (u64)i, &al);
		hists_prepare(&h, &al, 0, 1, 0, &p);
		p.trace = hists_trace_id(&h, texts[i]);
		p.seq = (u64)i;
		hists_add_prepared(&h, &p, NULL, 0, al.dso, 0);
	}
	hists_finish(&h, 0);
	assert_int_equal(h.nr_sorted, 3);
	for (u32 i = 0; i < 3; i++) {
		assert_string_equal(hist_string(strs, h.sorted[i]->trace), want[i]);
		assert_int_equal(h.sorted[i]->period, want_period[i]);
	}
	assert_int_equal(h.col_width[HD_TRACE], (int)strlen("c=3 a long text"));
	hists_release(&h);

	/* equal periods: by text */
	hists_init(&h, &lay, strs);
	h.one_thread = 1;
	for (int i = 0; i < 3; i++) {
		struct addr_location al;
		struct hist_prepared p;

		resolve(100, 0x400100, &al);
		hists_prepare(&h, &al, 0, 1, 0, &p);
		p.trace = hists_trace_id(&h, want[2 - i]);
		p.seq = (u64)i;
		hists_add_prepared(&h, &p, NULL, 0, al.dso, 0);
	}
	hists_finish(&h, 0);
	for (u32 i = 0; i < 3; i++)
		assert_string_equal(hist_string(strs, h.sorted[i]->trace), want[i]);
	assert_int_equal(h.col_width[HD_TRACE], (int)strlen("c=3 a long text"));
	hists_release(&h);

	/* one sample: its text is not measured */
	hists_init(&h, &lay, strs);
	{
		struct addr_location al;
		struct hist_prepared p;

		resolve(100, 0x400100, &al);
		hists_prepare(&h, &al, 0, 1, 0, &p);
		p.trace = hists_trace_id(&h, "a text longer than the title");
		hists_add_prepared(&h, &p, NULL, 0, al.dso, 0);
	}
	hists_finish(&h, 0);
	assert_int_equal(h.col_width[HD_TRACE], (int)strlen("Trace output"));
	hists_release(&h);
	hist_strings_free(strs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbol_filter),
		cmocka_unit_test_setup_teardown(test_late_entries_keep_their_place, setup_maps,
						teardown),
		cmocka_unit_test_setup_teardown(test_late_sample_takes_over, setup_maps, teardown),
		cmocka_unit_test_setup_teardown(test_output_ties, setup_maps, teardown),
		cmocka_unit_test_setup_teardown(test_renamed_comm_merge_order, setup_maps,
						teardown),
		cmocka_unit_test_setup_teardown(test_trace_key, setup_maps, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
