/*
 * progress.h - the progress line of long work over a file, on stderr:
 * drawn once the work has taken a second, redrawn at most ten times a
 * second, erased at the end.  The caller decides whether to show one
 * (stderr a terminal, no -q) and calls progress_show() now and then.
 */
#ifndef PROF_UTIL_PROGRESS_H
#define PROF_UTIL_PROGRESS_H

#include <stdint.h>

struct progress {
	double start;		/* 0: no progress line */
	double last;		/* when it was last drawn */
	int shown;		/* a line is on the screen */
};

/* Seconds of the monotonic clock. */
double progress_now(void);

/* Starts timing the work: a line is drawn from a second on. */
void progress_begin(struct progress *p);

/* Redraws the line (when it is time): nr_records done so far and the
 * share of the work done, in [0, 1], or negative when the size is
 * unknown. */
void progress_show(struct progress *p, uint64_t nr_records, double share);

/* Erases the line, if one is shown. */
void progress_end(struct progress *p);

#endif
