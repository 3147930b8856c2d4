/*
 * stat_state.h - the state of one "prof stat" run: its options, the
 * counters and the results of its runs.  The command (cmd/stat.c) fills
 * it, perf stat's output formats (output/stat_stdio.c) print it and the
 * command comparison (analysis/stat_compare.c) takes its runs.
 *
 * Invariants: counters[] are in -e order (or perf's default order); a
 * counter's val/ena/run hold what is to be printed next: one run's totals,
 * one interval's deltas, or after several runs the mean of the runs.
 * runs[] and the per-run time arrays have one entry per finished run.
 */
#ifndef PROF_ANALYSIS_STAT_STATE_H
#define PROF_ANALYSIS_STAT_STATE_H

#include "stats.h"
#include "../event/events.h"

#include <stdio.h>
#include <sys/time.h>

/* One counted event. */
struct stat_counter {
	struct ev_event ev;	/* attr and perf's name */
	const char *unit;	/* "msec" for the clocks, else "" */
	double scale;		/* 1e-6 for the clocks (ns to msec), else 1 */
	int supported;		/* 0: the kernel has no such event here */
	int reported;		/* an open error was printed (once per counter) */
	int *fds;		/* one per CPU or thread, -1 where not open */
	u64 last[3];		/* -I: value, enabled, running at the last print */
	double val;		/* count, scaled up by enabled/running */
	double ena, run;	/* time enabled and running, ns */
	int counted;		/* ran at all (running > 0) */
	struct run_stats stats;	/* val over the runs */
	double *runs;		/* val of each run */
};

/* Times of one run of the command. */
struct stat_times {
	double elapsed;		/* seconds */
	double user, sys;	/* seconds, the command and its children */
	double max_rss_kb;	/* peak resident set size, KiB */
};

/* Options and results of one prof stat. */
struct stat_ctx {
	/* options */
	struct ev_list events;	/* -e, or perf's defaults */
	int system_wide;	/* -a */
	const char *cpu_list;	/* -C */
	const char *pid_list;	/* -p */
	const char *tid_list;	/* -t */
	int repeat;		/* -r */
	int null_run;		/* -n, --null */
	int sync;		/* --sync */
	const char *pre_cmd, *post_cmd;	/* --pre, --post */
	const char *csv_sep;	/* -x, NULL for the human layout */
	int json;		/* -j */
	const char *output_name;	/* -o */
	int append;		/* --append */
	int interval_ms;	/* -I */
	int big_num;		/* -B (default on), --no-big-num */
	int no_inherit;		/* -i */
	int quiet;		/* -q */
	int compare;		/* --compare: argv holds one command per string */
	int warmup;		/* --warmup */
	const char *baseline;	/* --baseline results.json */

	/* what runs */
	int argc;
	char **argv;		/* the command, or NULL */
	int *cpus, nr_cpus;	/* -a/-C: the CPUs; else none */
	int *tids, nr_tids;	/* -p/-t: the threads; else none */
	FILE *out;		/* stderr, or -o */

	/* results */
	struct stat_counter *counters;
	int nr_counters;
	int runs_done;
	struct stat_times *times;	/* one per finished run */
	struct run_stats walltime;	/* elapsed ns over the runs */
	struct timeval ru_utime, ru_stime;	/* of the last run */
	double interval_ns;	/* -I: the interval, for "CPUs utilized" */
	int print_intervals;	/* intervals printed (header every 25) */
};

/* Sets up s->counters from s->events (once). */
void stat_setup_counters(struct stat_ctx *s);
/*
 * Sets c's val, ena, run and counted from raw value, time enabled and time
 * running: a counter that ran part of the time is scaled up by
 * enabled/running (truncated to an integer, as perf does); one that never
 * ran is not counted.
 */
void stat_counter_set(struct stat_counter *c, const u64 v[3]);
/* Clears the results of the runs made so far. */
void stat_reset_results(struct stat_ctx *s);
/* After the runs: each counter shows its mean (one run: its count). */
void stat_use_means(struct stat_ctx *s);

#endif
