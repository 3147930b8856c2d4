/*
 * test_stat_print.c - cmocka tests for prof stat's counter scaling and
 * the perf stat lines of what this machine cannot count (it has no PMU):
 * hardware counters with their metrics, and multiplexed counters with
 * their running percentage.
 *
 * The expected lines are built here from perf 6.1's printf formats
 * (value "%18.0f"/"%18.2f", " ", unit "%-4s", " ", name "%-32s", then
 * " # " value and the unit padded to 35 columns in all, "  (%.2f%%)" for
 * the running share), with the values worked out by hand: 2e9 ns of
 * task-clock in 1e9 ns is 2.000 CPUs; 4e9 cycles in 2e9 ns is 2.000 GHz;
 * 6e9 instructions over 4e9 cycles is 1.50 insn per cycle; 1e9 branches
 * in 2 s is 500.000 M/sec; 1e7 misses of 1e9 branches is 1.00%.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stat_state.h"
#include "output/stat_stdio.h"

static void test_scaling(void **state)
{
	struct stat_counter c = { 0 };
	u64 half[3] = { 1000, 200, 100 }, never[3] = { 5, 0, 0 }, all[3] = { 7, 10, 10 };
	u64 third[3] = { 10, 3, 1 };

	(void)state;
	stat_counter_set(&c, half);
	assert_true(c.counted);
	assert_true(c.val == 2000);	/* ran half the time: doubled */
	assert_true(c.ena == 200 && c.run == 100);
	stat_counter_set(&c, third);
	assert_true(c.val == 30);
	stat_counter_set(&c, all);
	assert_true(c.val == 7);
	stat_counter_set(&c, never);
	assert_false(c.counted);
	assert_true(c.val == 0);
}

/* The report of s as one string (caller frees). */
static char *report(struct stat_ctx *s)
{
	char *buf = NULL;
	size_t len = 0;

	s->out = open_memstream(&buf, &len);
	assert_non_null(s->out);
	stat_print_counters(s);
	fclose(s->out);
	return buf;
}

/* A counter line as perf 6.1 prints it with a metric (fmt_val: the
 * metric value already printed by the metric's format). */
static void line(char *buf, size_t size, const char *val, const char *unit, const char *name,
		 const char *metric_val, const char *metric_unit, const char *tail)
{
	char metric[64];
	int n = snprintf(metric, sizeof(metric), " # %s", metric_val);

	snprintf(buf, size, "%18s %-4s %-32s%s %-*s%s\n", val, unit, name, metric,
		 35 - n - 1, metric_unit, tail);
}

static void expect_line(const char *out, const char *want)
{
	if (!strstr(out, want))
		fail_msg("missing line\n[%s]\nin\n%s", want, out);
}

static void test_hardware_metrics(void **state)
{
	static char cmd[] = "workload";
	char *argv[] = { cmd, NULL };
	struct stat_ctx s = { 0 };
	struct ev_error err;
	char want[256], *out;
	static const double values[] = { 2e9, 4e9, 6e9, 1e9, 1e7 };

	(void)state;
	assert_int_equal(ev_parse(&s.events, "task-clock,cycles,instructions,branches,branch-misses",
				  &err), 0);
	stat_setup_counters(&s);
	for (int i = 0; i < s.nr_counters; i++) {
		struct stat_counter *c = &s.counters[i];

		c->val = values[i];
		c->ena = c->run = 2e9;
		c->counted = 1;
	}
	s.repeat = 1;
	s.runs_done = 1;
	s.argc = 1;
	s.argv = argv;
	run_stats_add(&s.walltime, 1e9);
	out = report(&s);
	expect_line(out, "\n Performance counter stats for 'workload':\n\n");
	line(want, sizeof(want), "2000.00", "msec", "task-clock", "   2.000", "CPUs utilized", "");
	expect_line(out, want);
	line(want, sizeof(want), "4000000000", "", "cycles", "   2.000", "GHz", "");
	expect_line(out, want);
	line(want, sizeof(want), "6000000000", "", "instructions", "   1.50 ", "insn per cycle", "");
	expect_line(out, want);
	line(want, sizeof(want), "1000000000", "", "branches", " 500.000", "M/sec", "");
	expect_line(out, want);
	line(want, sizeof(want), "10000000", "", "branch-misses", "   1.00%", "of all branches", "");
	expect_line(out, want);
	expect_line(out, "\n       1.000000000 seconds time elapsed\n\n");
	free(out);

	/* multiplexed: cycles ran 25% of the time, so its line ends in its share */
	s.counters[1].run = 0.5e9;
	out = report(&s);
	line(want, sizeof(want), "4000000000", "", "cycles", "   2.000", "GHz", "  (25.00%)");
	expect_line(out, want);
	free(out);

	/* CSV: running time and share, then the metric's bare number */
	s.csv_sep = ",";
	out = report(&s);
	expect_line(out, "4000000000,,cycles,500000000,25.00,2.000,GHz\n");
	expect_line(out, "10000000,,branch-misses,2000000000,100.00,1.00,of all branches\n");
	free(out);
	s.csv_sep = NULL;

	/* cycles never ran: no insn per cycle, and perf's "(0.00%)" share */
	s.counters[1].counted = 0;
	s.counters[1].run = 0;
	out = report(&s);
	snprintf(want, sizeof(want), "%18s %-4s %-32s%-35s\n", "6000000000", "", "instructions", "");
	expect_line(out, want);
	snprintf(want, sizeof(want), "%18s %-4s %-25s%-35s  (0.00%%)\n", "<not counted>", "", "cycles", "");
	expect_line(out, want);
	free(out);
	for (int i = 0; i < s.nr_counters; i++)
		free(s.counters[i].runs);
	free(s.counters);
	ev_list_free(&s.events);
}

/*
 * Stalled cycles add perf's second line under instructions: 49 blanks,
 * then the metric: 3e9 stalled (the larger of frontend 1e9 and backend
 * 3e9) over 6e9 instructions is 0.50 per insn.
 */
static void test_stalled_line(void **state)
{
	static char cmd[] = "workload";
	char *argv[] = { cmd, NULL };
	struct stat_ctx s = { 0 };
	struct ev_error err;
	char want[512], second[128], *out;
	static const double values[] = { 2e9, 4e9, 1e9, 3e9, 6e9 };

	(void)state;
	assert_int_equal(ev_parse(&s.events, "task-clock,cycles,stalled-cycles-frontend,"
				  "stalled-cycles-backend,instructions", &err), 0);
	stat_setup_counters(&s);
	for (int i = 0; i < s.nr_counters; i++) {
		s.counters[i].val = values[i];
		s.counters[i].ena = s.counters[i].run = 2e9;
		s.counters[i].counted = 1;
	}
	s.repeat = s.runs_done = s.argc = 1;
	s.argv = argv;
	run_stats_add(&s.walltime, 1e9);
	out = report(&s);
	line(want, sizeof(want), "1000000000", "", "stalled-cycles-frontend", "  25.00%",
	     "frontend cycles idle", "");
	expect_line(out, want);
	line(want, sizeof(want), "3000000000", "", "stalled-cycles-backend", "  75.00%",
	     "backend cycles idle", "");
	expect_line(out, want);
	line(want, sizeof(want), "6000000000", "", "instructions", "   1.50 ", "insn per cycle", "");
	want[strlen(want) - 1] = 0;	/* the second line follows */
	snprintf(second, sizeof(second), "\n%49s # %s %-*s\n", "", "   0.50 ", 35 - 11 - 1,
		 "stalled cycles per insn");
	strcat(want, second);
	expect_line(out, want);
	free(out);
	free(s.counters);
	ev_list_free(&s.events);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_hardware_metrics),
		cmocka_unit_test(test_stalled_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
