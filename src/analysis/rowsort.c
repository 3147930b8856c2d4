/*
 * rowsort.c - the histogram's row sort (rowsort.h): most significant word
 * first.  A run of rows that tie in the words before w is ordered by word
 * w, then each run of equal values there by word w + 1, and so on.  Word
 * w is sorted as (value, row) pairs by a least-significant-digit radix
 * sort on bytes, skipping the bytes all the values share; the symbol word
 * by name, with qsort_r(); runs of up to SHORT_RUN rows by insertion.
 * Only row numbers move; rows_sort() moves the rows once, at the end.
 */
#include "rowsort.h"
#include "../util/error.h"

#include <pthread.h>
#include <stdlib.h>

/* Runs up to this long are sorted by insertion. */
#define SHORT_RUN 32

/* Sorts of fewer rows stay on one thread. */
#define PARALLEL_ROWS 16384

/* How many rows ahead a gather in the order found fetches its row. */
#define GATHER_AHEAD 16

struct key_pair {
	u64 value;		/* the word being sorted by */
	u64 row;		/* its row (64 bits: a pair is 16 bytes) */
};

struct row_sort {
	const u64 *rows;
	int words, sym_word;
	u32 *perm;		/* row numbers in the order found so far */
	struct key_pair *pairs, *spare;	/* a radix sort's pairs and its
					   room, one per row */
};

static inline const u64 *row_at(const struct row_sort *s, u32 r)
{
	return s->rows + (size_t)r * s->words;
}

/* Sorts perm[lo..hi) by words w.. of its rows. */
static void insertion(struct row_sort *s, u32 lo, u32 hi, int w)
{
	u32 *perm = s->perm;

	for (u32 i = lo + 1; i < hi; i++) {
		u32 x = perm[i], j = i;
		const u64 *rx = row_at(s, x);

		while (j > lo && rows_cmp_from(row_at(s, perm[j - 1]), rx, w, s->words,
					       s->sym_word) > 0) {
			perm[j] = perm[j - 1];
			j--;
		}
		perm[j] = x;
	}
}

/* Sorts v[0..n) by value, keeping the order of equal ones, with spare as
 * room; returns the one of the two that holds the result. */
static struct key_pair *radix_pairs(struct key_pair *v, struct key_pair *spare, u32 n)
{
	u32 count[8][256] = { { 0 } };	/* per byte of the value */

	for (u32 i = 0; i < n; i++) {
		u64 x = v[i].value;

		for (int d = 0; d < 8; d++)
			count[d][(x >> (8 * d)) & 255]++;
	}
	for (int d = 0; d < 8; d++) {
		u32 pos[256], sum = 0;
		struct key_pair *t;

		/* a byte every value shares orders nothing */
		if (count[d][(v[0].value >> (8 * d)) & 255] == n)
			continue;
		for (int b = 0; b < 256; b++) {
			pos[b] = sum;
			sum += count[d][b];
		}
		for (u32 i = 0; i < n; i++)
			spare[pos[(v[i].value >> (8 * d)) & 255]++] = v[i];
		t = v;
		v = spare;
		spare = t;
	}
	return v;
}

static int sym_word_cmp(const void *a, const void *b, void *arg)
{
	const struct row_sort *s = arg;

	return rows_cmp_from(row_at(s, *(const u32 *)a), row_at(s, *(const u32 *)b),
			     s->sym_word, s->sym_word + 1, s->sym_word);
}

static void sort_run(struct row_sort *s, u32 lo, u32 hi, int w, int split);

/* A part of a sort a second thread does: perm[lo..hi) by words w..
 * (sort_run()), or with v, the runs of equal values in v[from..to) (the
 * pairs of perm[lo + from..lo + to)) by words w + 1.. (sort_value_runs()). */
struct share {
	struct row_sort *s;
	const struct key_pair *v;
	u32 lo, hi, from, to;
	int w;
	pthread_t thread;
};

static void sort_value_runs(struct row_sort *s, const struct key_pair *v, u32 lo, u32 from,
			    u32 to, int w, u32 split_from, u32 split_to);

static void *share_main(void *arg)
{
	struct share *r = arg;

	if (r->v)
		sort_value_runs(r->s, r->v, r->lo, r->from, r->to, r->w, 0, 0);
	else
		sort_run(r->s, r->lo, r->hi, r->w, 0);
	return NULL;
}

/* Starts r on a second thread; 0 when none could start (then the caller
 * does r's part itself). */
static int share_start(struct share *r)
{
	return !pthread_create(&r->thread, NULL, share_main, r);
}

/* The symbol word of perm[lo..hi): by name, then each run of one name by
 * the next words.  With split, the unresolved rows' sort goes to a second
 * thread when both parts are big. */
static void sort_by_symbol(struct row_sort *s, u32 lo, u32 hi, int w, int split)
{
	u32 start = lo, named = lo;

	/* the unresolved (often most of the run) go last, as one run: only
	   the others need names compared */
	for (u32 i = lo; i < hi; i++) {
		u32 r = s->perm[i];

		if (row_at(s, r)[s->sym_word]) {
			s->perm[i] = s->perm[named];
			s->perm[named++] = r;
		}
	}
	struct share share = { s, NULL, named, hi, 0, 0, w + 1, 0 };
	int shared = split && named - lo >= PARALLEL_ROWS / 4 && hi - named >= PARALLEL_ROWS / 4 &&
		     share_start(&share);

	qsort_r(s->perm + lo, named - lo, sizeof(*s->perm), sym_word_cmp, s);
	for (u32 i = lo + 1; i <= (shared ? named : hi); i++) {
		if (i < (shared ? named : hi) && !sym_word_cmp(&s->perm[start], &s->perm[i], s))
			continue;
		/* the unresolved run keeps the split when alone */
		sort_run(s, start, i, w + 1, split && !shared && start == named);
		start = i;
	}
	if (shared)
		pthread_join(share.thread, NULL);
}

/* Sorts each run of equal values in v[from..to) (the pairs of
 * perm[lo + from..lo + to), no run crossing to) by the next words; the run
 * at [split_from, split_to) may split further (sort_run()). */
static void sort_value_runs(struct row_sort *s, const struct key_pair *v, u32 lo, u32 from,
			    u32 to, int w, u32 split_from, u32 split_to)
{
	u32 start = from;

	/* a run's sort uses only its own part of pairs and spare, which is
	   read no more */
	for (u32 i = from + 1; i <= to; i++) {
		if (i < to && v[i].value == v[start].value)
			continue;
		if (i - start > 1)
			sort_run(s, lo + start, lo + i, w + 1,
				 start == split_from && i == split_to);
		start = i;
	}
}

/*
 * Sorts perm[lo..hi) by words w.. of its rows.  With split, a big sort
 * shares its work with a second thread, once: the runs of word w from
 * about the middle on, or, when one run holds most rows, that run's own
 * split.
 */
static void sort_run(struct row_sort *s, u32 lo, u32 hi, int w, int split)
{
	u32 n = hi - lo, half, big_from = 0, big_to = 0;
	struct key_pair *v;
	struct share share;

	if (n < 2 || w >= s->words)
		return;
	if (n <= SHORT_RUN) {
		insertion(s, lo, hi, w);
		return;
	}
	split = split && n >= PARALLEL_ROWS;
	if (w == s->sym_word) {
		sort_by_symbol(s, lo, hi, w, split);
		return;
	}
	for (u32 i = 0; i < n; i++) {
		u32 r = s->perm[lo + i];

		if (i + GATHER_AHEAD < n)
			__builtin_prefetch(row_at(s, s->perm[lo + i + GATHER_AHEAD]) + w);
		s->pairs[lo + i] = (struct key_pair){ row_at(s, r)[w], r };
	}
	v = radix_pairs(s->pairs + lo, s->spare + lo, n);
	for (u32 i = 0; i < n; i++)
		s->perm[lo + i] = (u32)v[i].row;
	if (!split) {
		sort_value_runs(s, v, lo, 0, n, w, 0, 0);
		return;
	}
	/* the biggest run of one value: most of the rows, it splits itself */
	for (u32 i = 0, start = 0; i <= n; i++)
		if (i == n || v[i].value != v[start].value) {
			if (i - start > big_to - big_from) {
				big_from = start;
				big_to = i;
			}
			start = i;
		}
	if (2 * (big_to - big_from) > n) {
		sort_value_runs(s, v, lo, 0, n, w, big_from, big_to);
		return;
	}
	/* else the runs from about the middle on go to the other thread;
	   their ranges of perm, pairs and spare are apart */
	for (half = n / 2; half < n && v[half].value == v[half - 1].value; half++)
		;
	share = (struct share){ s, v, lo, 0, half, n, w, 0 };
	if (!share_start(&share)) {
		sort_value_runs(s, v, lo, 0, n, w, 0, 0);
		return;
	}
	sort_value_runs(s, v, lo, 0, half, w, 0, 0);
	pthread_join(share.thread, NULL);
}

u32 *rows_order(const u64 *rows, u32 n, int words, int sym_word, int threads)
{
	struct row_sort s = { rows, words, sym_word, NULL, NULL, NULL };

	s.perm = xmalloc((n ? n : 1) * sizeof(*s.perm));
	for (u32 i = 0; i < n; i++)
		s.perm[i] = i;
	if (n > SHORT_RUN) {
		s.pairs = xmalloc(n * sizeof(*s.pairs));
		s.spare = xmalloc(n * sizeof(*s.spare));
	}
	sort_run(&s, 0, n, 0, threads > 1);
	free(s.pairs);
	free(s.spare);
	return s.perm;
}

void rows_sort(u64 *rows, u32 n, int words, int sym_word, int threads)
{
	u32 *order;
	u64 *out;

	if (n < 2)
		return;
	order = rows_order(rows, n, words, sym_word, threads);
	out = xmalloc((size_t)n * words * sizeof(u64));
	for (u32 i = 0; i < n; i++) {
		if (i + GATHER_AHEAD < n)
			__builtin_prefetch(rows + (size_t)order[i + GATHER_AHEAD] * words);
		memcpy(out + (size_t)i * words, rows + (size_t)order[i] * words,
		       words * sizeof(u64));
	}
	memcpy(rows, out, (size_t)n * words * sizeof(u64));
	free(out);
	free(order);
}
