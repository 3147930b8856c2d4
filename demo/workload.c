/*
 * workload.c - the bundled demo workload: a small "word statistics"
 * program whose work falls into a few named stages, so a recording has a
 * recognisable profile and call graph.
 *
 *   usage: workload [slow|fast] [rounds]
 *
 * Each round makes a pseudo-random text (make_text), counts its words
 * (count_words, hashing each word with hash_word), orders the distinct
 * words by count (sort_by_count) and folds the result into a checksum
 * (checksum).  The two variants differ only in sort_by_count: "slow" (the
 * default) uses an insertion sort, "fast" a merge sort; the slow variant
 * spends most of its time there and takes two to three times as long.
 * Both print the same checksum.  The default of 25 rounds takes about half
 * a second (slow).  scripts/demo builds it with a frame pointer in every
 * function, so that "prof record -g" sees whole call chains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keeps a stage a function of its own, under its own name, in the profile. */
#ifdef __clang__
#define STAGE __attribute__((noinline))
#else
#define STAGE __attribute__((noipa))
#endif

#define TEXT_WORDS 60000	/* words in a round's text */
#define MAX_WORD 16		/* longest word, with its NUL */
#define TABLE_SIZE 32768	/* hash table slots (a power of two) */
#define VOCABULARY 12000	/* distinct words the text draws from */

/* One distinct word and how often it occurred. */
struct word_count {
	char word[MAX_WORD];
	unsigned long count;
};

/* The counted words of a round: an open-addressing table plus a dense list. */
struct counts {
	int slot[TABLE_SIZE];		/* index into words, or -1 */
	struct word_count words[TABLE_SIZE];
	int nr_words;
};

static unsigned long rng_state = 88172645463325252UL;

/* xorshift64: a deterministic pseudo-random number. */
STAGE static unsigned long next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Spells word number n of the vocabulary into out (letters only). */
STAGE static void spell_word(unsigned long n, char *out)
{
	unsigned long x = n * 2654435761UL + 12345;
	int len = 3 + (int)(n % 10);

	for (int i = 0; i < len; i++) {
		out[i] = (char)('a' + x % 26);
		x = x / 26 + n * 31;
	}
	out[len] = '\0';
}

/* Fills text with TEXT_WORDS words, skewed towards the start of the vocabulary. */
STAGE static void make_text(char (*text)[MAX_WORD])
{
	for (int i = 0; i < TEXT_WORDS; i++) {
		unsigned long r = next_random();
		unsigned long n = (r % VOCABULARY) * ((r >> 32) % VOCABULARY) / VOCABULARY;

		spell_word(n, text[i]);
	}
}

/* Compares two words as strcmp() does (kept here so the profile shows it). */
STAGE static int compare_words(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* FNV-1a, mixed a few extra rounds so that hashing shows in the profile. */
STAGE static unsigned long hash_word(const char *word)
{
	unsigned long h = 1469598103934665603UL;

	for (int round = 0; round < 4; round++)
		for (const char *p = word; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211UL;
	return h;
}

/* Counts each word of text into c. */
STAGE static void count_words(char (*text)[MAX_WORD], struct counts *c)
{
	memset(c->slot, -1, sizeof(c->slot));
	c->nr_words = 0;
	for (int i = 0; i < TEXT_WORDS; i++) {
		unsigned long s = hash_word(text[i]) & (TABLE_SIZE - 1);

		while (c->slot[s] >= 0 && compare_words(c->words[c->slot[s]].word, text[i]) != 0)
			s = (s + 1) & (TABLE_SIZE - 1);
		if (c->slot[s] < 0) {
			c->slot[s] = c->nr_words++;
			strcpy(c->words[c->slot[s]].word, text[i]);
			c->words[c->slot[s]].count = 0;
		}
		c->words[c->slot[s]].count++;
	}
}

/* Orders a before b: higher count first, then alphabetically. */
static int before(const struct word_count *a, const struct word_count *b)
{
	if (a->count != b->count)
		return a->count > b->count;
	return compare_words(a->word, b->word) < 0;
}

/* The slow variant: insertion sort, quadratic in the number of words. */
STAGE static void insertion_sort(struct word_count *w, int n)
{
	for (int i = 1; i < n; i++) {
		struct word_count key = w[i];
		int j = i - 1;

		while (j >= 0 && before(&key, &w[j])) {
			w[j + 1] = w[j];
			j--;
		}
		w[j + 1] = key;
	}
}

/* The fast variant: top-down merge sort through the scratch array tmp. */
STAGE static void merge_sort(struct word_count *w, struct word_count *tmp, int n)
{
	int mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(w, tmp, mid);
	merge_sort(w + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = before(&w[j], &w[i]) ? w[j++] : w[i++];
	while (i < mid)
		tmp[k++] = w[i++];
	while (j < n)
		tmp[k++] = w[j++];
	memcpy(w, tmp, n * sizeof(*w));
}

/* Orders the counted words, by the chosen variant. */
STAGE static void sort_by_count(struct counts *c, int slow)
{
	static struct word_count tmp[TABLE_SIZE];

	if (slow)
		insertion_sort(c->words, c->nr_words);
	else
		merge_sort(c->words, tmp, c->nr_words);
}

/* Folds the ordered words into a checksum that both variants agree on. */
STAGE static unsigned long checksum(const struct counts *c)
{
	unsigned long sum = 0;

	for (int i = 0; i < c->nr_words; i++)
		sum = sum * 31 + hash_word(c->words[i].word) + c->words[i].count;
	return sum;
}

/* One round of the pipeline. */
STAGE static unsigned long run_round(char (*text)[MAX_WORD], struct counts *c, int slow)
{
	make_text(text);
	count_words(text, c);
	sort_by_count(c, slow);
	return checksum(c);
}

int main(int argc, char **argv)
{
	static char text[TEXT_WORDS][MAX_WORD];
	static struct counts c;
	int slow = 1;
	long rounds = 25;
	unsigned long sum = 0;

	if (argc > 1 && strcmp(argv[1], "fast") == 0)
		slow = 0;
	else if (argc > 1 && strcmp(argv[1], "slow") != 0) {
		fprintf(stderr, "usage: workload [slow|fast] [rounds]\n");
		return 2;
	}
	if (argc > 2)
		rounds = strtol(argv[2], NULL, 10);
	for (long r = 0; r < rounds; r++)
		sum ^= run_round(text, &c, slow);
	printf("workload %s: %ld rounds, %d distinct words, checksum %016lx\n",
	       slow ? "slow" : "fast", rounds, c.nr_words, sum);
	return 0;
}
