/*
 * test_rowsort.c - cmocka tests for src/analysis/rowsort: the histogram's
 * row sort.
 *
 * Random rows, made to tie in long runs of words (as the benchmark's
 * children-mode rows do: few periods, comms and DSOs, most symbols
 * unresolved), some with a symbol word (names repeated under different
 * pointers, NULL), are sorted by rows_sort() and by qsort() with a
 * comparison written out here; the results must be equal row for row,
 * and rows_order() must give the same order (one on one thread, the
 * other on two).  The sizes reach the insertion sort, the radix sort
 * (bytes shared and not), the symbol word's name sort and the sharing of
 * the work with a second thread (a word's runs, a run of one value that
 * holds most rows, the unresolved rows beside the named).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/rowsort.h"
#include "symbol/symbol.h"

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The symbols a symbol word points to: names repeat. */
static const char *const names[] = { "main", "alpha", "zeta", "main", "alpha", "_start", "a" };
#define NR_SYMS (sizeof(names) / sizeof(names[0]))
static struct symbol syms[NR_SYMS];

static int ref_words, ref_sym_word;

/* The order rowsort.h describes, written out. */
static int ref_cmp(const void *pa, const void *pb)
{
	const u64 *a = pa, *b = pb;

	for (int i = 0; i < ref_words; i++) {
		if (i == ref_sym_word) {
			const struct symbol *x = (const void *)(uintptr_t)a[i];
			const struct symbol *y = (const void *)(uintptr_t)b[i];
			int r;

			if (!x && !y)
				continue;
			if (!x || !y)
				return x ? -1 : 1;
			r = strcmp(x->name, y->name);
			if (r)
				return r;
			continue;
		}
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

/* A word's value: from a handful (ties), with high bytes all rows share
 * (skipped radix digits), or anything. */
static u64 word_value(int kind)
{
	switch (kind) {
	case 0:
		return next_random() % 3;
	case 1:
		return 0xffffffff00000000ULL | (next_random() % 500);
	default:
		return next_random();
	}
}

/* Words whose values are mostly one (bit i: word i), as the flat report's
 * rows are (most entries have one sample): the sort then splits its work
 * inside that run. */
static unsigned dominant_words;

static void check_sort(u32 n, int words, int sym_word, int kinds_seed)
{
	u64 *rows = malloc(((size_t)n + 1) * words * sizeof(u64));
	u64 *want = malloc(((size_t)n + 1) * words * sizeof(u64));
	u64 *copy = malloc(((size_t)n + 1) * words * sizeof(u64));
	u32 *order;

	for (u32 j = 0; j < n; j++) {
		u64 *r = rows + (size_t)j * words;

		for (int i = 0; i < words - 1; i++) {
			if (i == sym_word) {
				u64 k = next_random() % (NR_SYMS + 3);

				/* unresolved more often than any one symbol */
				r[i] = k < NR_SYMS ? (uintptr_t)&syms[k] : 0;
			} else if (dominant_words & (1u << i)) {
				r[i] = next_random() % 10 ? 7 : next_random();
			} else {
				r[i] = word_value((kinds_seed >> (2 * i)) % 3);
			}
		}
		/* the last word: unique, not in row order */
		r[words - 1] = (u64)(n - j) << 20 | (next_random() & 0xfffff);
		r[words - 1] = r[words - 1] << 8 | (j & 0xff);
	}
	memcpy(want, rows, (size_t)n * words * sizeof(u64));
	memcpy(copy, rows, (size_t)n * words * sizeof(u64));
	ref_words = words;
	ref_sym_word = sym_word;
	qsort(want, n, words * sizeof(u64), ref_cmp);

	order = rows_order(copy, n, words, sym_word, 1);
	for (u32 j = 0; j < n; j++)
		assert_memory_equal(copy + (size_t)order[j] * words, want + (size_t)j * words,
				    words * sizeof(u64));
	free(order);
	rows_sort(rows, n, words, sym_word, 2);
	assert_memory_equal(rows, want, (size_t)n * words * sizeof(u64));
	free(rows);
	free(want);
	free(copy);
}

static void test_rowsort_random(void **state)
{
	static const u32 sizes[] = { 0, 1, 2, 17, 32, 33, 100, 1000, 20000 };

	(void)state;
	for (size_t k = 0; k < NR_SYMS; k++)
		syms[k] = (struct symbol){ .start = 0x1000 * k, .end = 0x1000 * k + 16,
					   .name = names[k] };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (int words = 2; words <= 8; words++) {
			check_sort(sizes[s], words, -1, (int)next_random());
			check_sort(sizes[s], words, 0, 0);	/* few values */
			if (words >= 3)
				check_sort(sizes[s], words, words - 2, (int)next_random());
			if (words >= 4)
				check_sort(sizes[s], words, 1, (int)next_random());
		}
	}
}

/* Big tables whose first words mostly hold one value, with and without a
 * symbol word after them (its named and unresolved rows both many): the
 * two threads split the work inside the big runs. */
static void test_rowsort_dominant(void **state)
{
	(void)state;
	for (size_t k = 0; k < NR_SYMS; k++)
		syms[k] = (struct symbol){ .start = 0x1000 * k, .end = 0x1000 * k + 16,
					   .name = names[k] };
	dominant_words = 1;
	check_sort(40000, 3, -1, (int)next_random());
	dominant_words = 3;
	check_sort(40000, 5, -1, (int)next_random());
	check_sort(40000, 5, 2, (int)next_random());
	check_sort(40000, 4, 2, 0);
	dominant_words = 0;
}

/* One value everywhere but the last word: every radix digit but those of
 * the last word is skipped, and order comes from it alone. */
static void test_rowsort_all_equal(void **state)
{
	enum { N = 5000, WORDS = 4 };
	u64 *rows = malloc(N * WORDS * sizeof(u64));

	(void)state;
	for (u32 j = 0; j < N; j++) {
		rows[j * WORDS] = rows[j * WORDS + 1] = rows[j * WORDS + 2] = 42;
		rows[j * WORDS + 3] = (u64)(N - j) << 40;
	}
	rows_sort(rows, N, WORDS, -1, 2);
	for (u32 j = 0; j < N; j++)
		assert_int_equal(rows[j * WORDS + 3], (u64)(j + 1) << 40);
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rowsort_random),
		cmocka_unit_test(test_rowsort_dominant),
		cmocka_unit_test(test_rowsort_all_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
