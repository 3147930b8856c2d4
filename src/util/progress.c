/*
 * progress.c - the progress line on stderr (see progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void progress_begin(struct progress *p)
{
	p->start = p->last = progress_now();
	p->shown = 0;
}

void progress_show(struct progress *p, uint64_t nr_records, double share)
{
	double t = progress_now();
	int fill;
	char bar[41];

	if (!p->start || t - p->start < 1.0 || t - p->last < 0.1)
		return;
	p->last = t;
	p->shown = 1;
	if (share < 0) {
		fprintf(stderr, "\rprocessing: %llu records, %.0f records/s",
			(unsigned long long)nr_records, nr_records / (t - p->start));
		return;
	}
	if (share > 1)
		share = 1;
	fill = (int)(share * 40);
	memset(bar, '#', fill);
	memset(bar + fill, ' ', 40 - fill);
	bar[40] = 0;
	fprintf(stderr, "\rprocessing [%s] %3d%%  %.0f records/s", bar,
		(int)(share * 100), nr_records / (t - p->start));
}

void progress_end(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
