/*
 * stat_state.c - the counters of a prof stat run (stat_state.h): their
 * units, their scaling by the time they ran, and the means of the runs.
 */
#include "stat_state.h"
#include "../util/error.h"

#include <linux/perf_event.h>
#include <string.h>

void stat_setup_counters(struct stat_ctx *s)
{
	if (s->counters)
		return;
	s->nr_counters = s->null_run ? 0 : s->events.nr;	/* --null wins over -e */
	s->counters = xcalloc((size_t)s->nr_counters + 1, sizeof(*s->counters));
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];

		c->ev = s->events.events[i];
		c->supported = 1;
		c->unit = "";
		c->scale = 1;
		if (c->ev.attr.type == PERF_TYPE_SOFTWARE && !c->ev.pmu_syntax &&
		    (c->ev.attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		     c->ev.attr.config == PERF_COUNT_SW_CPU_CLOCK)) {
			c->unit = "msec";
			c->scale = 1e-6;
		}
	}
}

void stat_reset_results(struct stat_ctx *s)
{
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];

		memset(&c->stats, 0, sizeof(c->stats));
		c->val = c->ena = c->run = 0;
		c->counted = 0;
	}
	memset(&s->walltime, 0, sizeof(s->walltime));
	s->runs_done = 0;
}

void stat_counter_set(struct stat_counter *c, const u64 v[3])
{
	c->ena = (double)v[1];
	c->run = (double)v[2];
	c->counted = v[2] > 0;
	if (!v[2])
		c->val = 0;
	else if (v[2] < v[1])
		c->val = (double)(u64)((double)v[0] * (double)v[1] / (double)v[2]);
	else
		c->val = (double)v[0];
}

void stat_use_means(struct stat_ctx *s)
{
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];

		if (c->supported && s->runs_done > 1)
			c->val = c->stats.mean;
	}
}
