/*
 * workload.c - the bundled demo workload: a few functions that burn CPU
 * for about half a second, so a recording has a recognisable profile.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static unsigned long collatz_steps(unsigned long n)
{
	unsigned long steps = 0;

	while (n != 1) {
		n = (n & 1) ? 3 * n + 1 : n / 2;
		steps++;
	}
	return steps;
}

static void hash_loop(unsigned long rounds)
{
	unsigned long h = 1469598103934665603UL;

	for (unsigned long i = 0; i < rounds; i++)
		h = (h ^ i) * 1099511628211UL;
	sink = h;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static void sort_work(size_t n)
{
	unsigned long *v = malloc(n * sizeof(*v));

	if (!v)
		exit(1);
	for (size_t i = 0; i < n; i++)
		v[i] = (i * 2654435761UL) % 1000003;
	qsort(v, n, sizeof(*v), cmp_ulong);
	sink = v[n / 2];
	free(v);
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	unsigned long total = 0;

	for (unsigned long r = 0; r < scale; r++) {
		for (unsigned long n = 1; n < 300000; n++)
			total += collatz_steps(n);
		hash_loop(60000000);
		sort_work(400000);
	}
	printf("demo workload done (%lu)\n", total);
	return 0;
}
