/*
 * rowsort.h - sorting the rows of u64 words that the histogram's input
 * and output orders are computed from.
 *
 * A row is `words` u64s compared word by word as unsigned numbers, but
 * for the word at sym_word (when not -1): a symbol pointer compared by
 * name (perf's sort__sym_sort()), NULL (unresolved) after every symbol;
 * two symbols of one name go on to the next word.
 *
 * Invariants: every row ends in a word no other row has, so the order is
 * total and any correct sort gives the same result.  A sort reads a row's
 * word w only when the words before it tie, sorts a word's values by
 * radix on (value, row) pairs and leaves the symbol word and short runs
 * to comparisons; its memory is about 40 bytes per row.
 */
#ifndef PROF_ANALYSIS_ROWSORT_H
#define PROF_ANALYSIS_ROWSORT_H

#include "../session/session.h"

#include <string.h>

/* <0, 0 or >0 as row a sorts before, with or after row b, comparing
 * words from..words-1 (the words before from being equal). */
static inline int rows_cmp_from(const u64 *a, const u64 *b, int from, int words, int sym_word)
{
	for (int i = from; i < words; i++) {
		if (a[i] == b[i])
			continue;
		if (i == sym_word) {
			const struct symbol *sa = (const void *)(uintptr_t)a[i];
			const struct symbol *sb = (const void *)(uintptr_t)b[i];
			int r;

			if (!sa || !sb)
				return sa ? -1 : 1;
			r = strcmp(symbol_name(sa), symbol_name(sb));
			if (r)
				return r;
			continue;
		}
		return a[i] < b[i] ? -1 : 1;
	}
	return 0;
}

/* rows_cmp_from() of whole rows. */
static inline int rows_cmp(const u64 *a, const u64 *b, int words, int sym_word)
{
	return rows_cmp_from(a, b, 0, words, sym_word);
}

/* The order of n rows of `words` u64s: their row numbers, sorted; the
 * caller's to free.  threads: 2 lets a big sort share its work with a
 * second thread, 1 keeps it on this one. */
u32 *rows_order(const u64 *rows, u32 n, int words, int sym_word, int threads);

/* Sorts n rows of `words` u64s in place (threads as rows_order()). */
void rows_sort(u64 *rows, u32 n, int words, int sym_word, int threads);

#endif
