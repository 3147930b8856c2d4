/*
 * stat_compare.h - "prof stat --compare" and "--baseline": the values of
 * each metric for every command compared, and whether a difference is
 * real.
 *
 * The rows are the times (elapsed, user, sys, peak RSS), then each
 * counter.  For every command after the first, a row's mean is taken as a
 * percentage of the first command's, with the 95% confidence interval of
 * that percentage (Welch's interval of the difference of the means
 * divided by the first mean, whose own uncertainty is left out), and a
 * verdict from Welch's unequal-variance t-test at p < 0.05.  Invariant:
 * both samples of a test have two or more values, else the verdict is
 * "too few runs".
 */
#ifndef PROF_ANALYSIS_STAT_COMPARE_H
#define PROF_ANALYSIS_STAT_COMPARE_H

#include "stat_state.h"

#include <stddef.h>
#include <stdio.h>

/* The values of one metric for every command. */
struct metric_row {
	char name[128];
	int is_time;		/* lower is faster */
	double **values;	/* [command][run] */
	size_t *n;		/* runs per command */
};

/* All rows of a comparison. */
struct comparison {
	struct metric_row *rows;
	int nr_rows;
	int nr_cmds;
	const char **labels;	/* what each command is, for the table */
};

/* What the test says of a command's runs against the first command's. */
enum compare_verdict {
	COMPARE_TOO_FEW_RUNS,	/* a sample has fewer than two values */
	COMPARE_NO_DIFFERENCE,	/* p >= 0.05 */
	COMPARE_LOWER,		/* significantly lower (faster for times) */
	COMPARE_HIGHER,		/* significantly higher (slower for times) */
};

/* One command's entry in one row, against the first command. */
struct compare_cell {
	double mean;		/* of this command's values */
	int has_pct;		/* the first command's mean is not 0 */
	double pct;		/* mean as a percentage of the first's */
	enum compare_verdict verdict;
	double p;		/* the test's p-value, unless too few runs */
	int has_ci;		/* the test ran and the first mean is not 0 */
	double ci_low, ci_high;	/* 95% confidence interval of pct */
};

/*
 * Starts c for nr_cmds commands named by labels (which must outlive c):
 * the time rows, then a row per counter of s under its name as it is now.
 */
void comparison_init(struct comparison *c, int nr_cmds, const char **labels,
		     const struct stat_ctx *s);
/* Adds run index run of s (made by command cmd) to the rows. */
void comparison_take_run(struct comparison *c, const struct stat_ctx *s, int run, int cmd);
/*
 * Adds the per-run values that "prof stat -j" wrote (its "values" lines)
 * in f as command 0's.  Returns the number of lines that gave values.
 */
int comparison_read_baseline(struct comparison *c, FILE *f);
/* Mean of the values of command cmd in row; 0 when it has none. */
double comparison_mean(const struct metric_row *row, int cmd);
/* Compares command cmd (> 0) of row with command 0; both have values. */
void comparison_cell(const struct metric_row *row, int cmd, struct compare_cell *out);
void comparison_free(struct comparison *c);

#endif
