/*
 * record_ring.c - ring buffer sizes by perf 6.1's rules (record_ring.h).
 */
#include "record_ring.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

unsigned ring_default_pages(long mlock_kb, long page_size)
{
	unsigned long pages, p2 = 1;

	if (mlock_kb < 0)
		return (unsigned)(512 * 1024 / page_size);	/* perf's fallback: 512 KiB */
	mlock_kb -= page_size / 1024;	/* the metadata page */
	pages = mlock_kb > 0 ? (unsigned long)mlock_kb * 1024 / (unsigned long)page_size : 0;
	if (pages > 0x7fffffffUL / (unsigned long)page_size)
		pages = 0x7fffffffUL / (unsigned long)page_size;
	while (p2 * 2 <= pages)	/* rounded down to a power of two */
		p2 *= 2;
	return (unsigned)p2;
}

unsigned ring_parse_pages(const char *arg, long page_size, int quiet)
{
	static const char units[] = "BKMG";
	unsigned long long v, page = (unsigned long long)page_size, pages;
	char *end;

	v = strtoull(arg, &end, 10);
	if (end == arg || arg[0] == '-')
		return 0;
	if (*end && strchr(units, *end) && (!end[1] || end[1] == ',')) {
		for (const char *u = units; *u != *end; u++) {
			if (v > 0x7fffffffULL)
				return 0;
			v *= 1024;
		}
		pages = (v + page - 1) / page;
	} else if (!*end || *end == ',') {	/* ",N" sizes the AUX area perf has */
		pages = v;
	} else {
		return 0;
	}
	if (pages > 0x7fffffffULL / page)
		return 0;
	if (!pages || (pages & (pages - 1))) {
		unsigned long long p2 = 1, bytes;
		int u = 0;

		while (p2 < pages)
			p2 <<= 1;
		pages = p2;
		for (bytes = pages * page; bytes / 1024 > 1 && u < 3; u++)
			bytes /= 1024;
		if (!quiet)
			fprintf(stderr, "rounding mmap pages size to %llu%c (%llu pages)\n",
				bytes, units[u], pages);
	}
	return (unsigned)pages;
}
