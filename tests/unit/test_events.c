/*
 * test_events.c - cmocka tests for src/event/events.c: perf's -e syntax
 * into attrs and names.
 *
 * The expected bits are those perf 6.1 records for the same -e (seen with
 * "perf evlist -v" on perf's own files): a lone event without modifiers
 * has exclude_guest; "k" drops it, "u" and "p" keep it; G and H exclude
 * the other one; group modifiers start from each member's bits.
 * Tracepoint tests read the id from tracefs themselves and skip when
 * tracefs is not there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event/events.h"

#define F(bit) (1ULL << (bit))
#define EXCL_ALL (F(PD_ATTR_EXCLUDE_USER) | F(PD_ATTR_EXCLUDE_KERNEL) | F(PD_ATTR_EXCLUDE_HV))

/* Parses str, which must hold exactly one event; returns it (list kept in *l). */
static struct ev_event *one(struct ev_list *l, const char *str)
{
	struct ev_error err;

	memset(l, 0, sizeof(*l));
	if (ev_parse(l, str, &err))
		fail_msg("'%s' did not parse: %s at %d", str, err.msg, err.pos);
	assert_int_equal(l->nr, 1);
	return &l->events[0];
}

static void expect(const char *str, u32 type, u64 config, u64 flags, const char *name)
{
	struct ev_list l;
	struct ev_event *ev = one(&l, str);

	assert_int_equal(ev->attr.type, type);
	assert_int_equal(ev->attr.config, config);
	if (ev->attr.flags != flags)
		fail_msg("'%s': flags %#llx, expected %#llx", str,
			 (unsigned long long)ev->attr.flags, (unsigned long long)flags);
	assert_string_equal(ev->name, name);
	assert_int_equal(ev->attr.size, sizeof(struct pd_attr));
	ev_list_free(&l);
}

static void test_symbolic(void **state)
{
	u64 g = F(PD_ATTR_EXCLUDE_GUEST);

	(void)state;
	expect("cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, g, "cpu-clock");
	expect("task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, g, "task-clock");
	expect("faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, g, "faults");
	expect("page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, g, "page-faults");
	expect("minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, g, "minor-faults");
	expect("major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, g, "major-faults");
	expect("cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, g, "cs");
	expect("migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, g, "migrations");
	expect("alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, g, "alignment-faults");
	expect("emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, g, "emulation-faults");
	expect("dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, g, "dummy");
	expect("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, g, "cycles");
	expect("cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, g, "cpu-cycles");
	expect("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, g, "instructions");
	expect("cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, g, "cache-references");
	expect("cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, g, "cache-misses");
	expect("branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, g, "branches");
	expect("branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, g,
	       "branch-instructions");
	expect("branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, g, "branch-misses");
	expect("bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, g, "bus-cycles");
	expect("stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, g,
	       "stalled-cycles-frontend");
	expect("stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, g,
	       "stalled-cycles-backend");
	expect("ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, g, "ref-cycles");
}

static void test_cache_and_raw(void **state)
{
	u64 g = F(PD_ATTR_EXCLUDE_GUEST);

	(void)state;
	/* type | op << 8 | result << 16 */
	expect("L1-dcache-loads", PERF_TYPE_HW_CACHE, 0x000000, g, "L1-dcache-loads");
	expect("L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x010000, g, "L1-dcache-load-misses");
	expect("L1-dcache-stores", PERF_TYPE_HW_CACHE, 0x000100, g, "L1-dcache-stores");
	expect("L1-icache-load-misses", PERF_TYPE_HW_CACHE, 0x010001, g, "L1-icache-load-misses");
	expect("LLC-loads", PERF_TYPE_HW_CACHE, 0x000002, g, "LLC-loads");
	expect("LLC-misses", PERF_TYPE_HW_CACHE, 0x010002, g, "LLC-misses");
	expect("LLC-prefetches", PERF_TYPE_HW_CACHE, 0x000202, g, "LLC-prefetches");
	expect("dTLB-load-misses", PERF_TYPE_HW_CACHE, 0x010003, g, "dTLB-load-misses");
	expect("iTLB-loads", PERF_TYPE_HW_CACHE, 0x000004, g, "iTLB-loads");
	expect("branch-loads", PERF_TYPE_HW_CACHE, 0x000005, g, "branch-loads");
	expect("branch-load-misses", PERF_TYPE_HW_CACHE, 0x010005, g, "branch-load-misses");
	expect("node-stores", PERF_TYPE_HW_CACHE, 0x000106, g, "node-stores");
	expect("l1d-speculative-read-miss", PERF_TYPE_HW_CACHE, 0x010200, g,
	       "l1d-speculative-read-miss");
	expect("r1a8", PERF_TYPE_RAW, 0x1a8, g, "r1a8");
	expect("rFF", PERF_TYPE_RAW, 0xff, g, "rFF");
}

static void test_modifiers(void **state)
{
	u64 g = F(PD_ATTR_EXCLUDE_GUEST), h = F(PD_ATTR_EXCLUDE_HOST);
	u32 sw = PERF_TYPE_SOFTWARE;

	(void)state;
	expect("cpu-clock:u", sw, 0, F(PD_ATTR_EXCLUDE_KERNEL) | F(PD_ATTR_EXCLUDE_HV) | g,
	       "cpu-clock:u");
	expect("page-faults:k", sw, 2, F(PD_ATTR_EXCLUDE_USER) | F(PD_ATTR_EXCLUDE_HV),
	       "page-faults:k");
	expect("faults:h", sw, 2, F(PD_ATTR_EXCLUDE_USER) | F(PD_ATTR_EXCLUDE_KERNEL), "faults:h");
	expect("cpu-clock:ku", sw, 0, F(PD_ATTR_EXCLUDE_HV) | g, "cpu-clock:ku");
	expect("cpu-clock:G", sw, 0, h, "cpu-clock:G");
	expect("cpu-clock:H", sw, 0, g, "cpu-clock:H");
	expect("cpu-clock:kG", sw, 0, F(PD_ATTR_EXCLUDE_USER) | F(PD_ATTR_EXCLUDE_HV) | h,
	       "cpu-clock:kG");
	expect("cpu-clock:p", sw, 0, 1ULL << PD_ATTR_PRECISE_IP | g, "cpu-clock:p");
	expect("cpu-clock:pp", sw, 0, 2ULL << PD_ATTR_PRECISE_IP | g, "cpu-clock:pp");
	expect("cpu-clock:ppp", sw, 0, 3ULL << PD_ATTR_PRECISE_IP | g, "cpu-clock:ppp");
	expect("cpu-clock:pG", sw, 0, 1ULL << PD_ATTR_PRECISE_IP | h, "cpu-clock:pG");
	expect("cpu-clock:P", sw, 0, 3ULL << PD_ATTR_PRECISE_IP, "cpu-clock:P");
	expect("task-clock:D", sw, 1, F(PD_ATTR_PINNED), "task-clock:D");
	expect("cpu-clock:I", sw, 0, F(PD_ATTR_EXCLUDE_IDLE), "cpu-clock:I");
	expect("cpu-clock:e", sw, 0, F(PD_ATTR_EXCLUSIVE), "cpu-clock:e");
	expect("cpu-clock:S", sw, 0, 0, "cpu-clock:S");
	expect("cycles:u", PERF_TYPE_HARDWARE, 0, F(PD_ATTR_EXCLUDE_KERNEL) | F(PD_ATTR_EXCLUDE_HV) | g,
	       "cycles:u");
	expect("r1a8:k", PERF_TYPE_RAW, 0x1a8, F(PD_ATTR_EXCLUDE_USER) | F(PD_ATTR_EXCLUDE_HV),
	       "r1a8:k");
	{
		struct ev_list l;
		struct ev_event *ev = one(&l, "cpu-clock:S");

		assert_true(ev->sample_read);
		ev_list_free(&l);
		ev = one(&l, "cpu-clock:P");
		assert_true(ev->precise_max);
		ev_list_free(&l);
	}
}

static void test_lists_and_groups(void **state)
{
	struct ev_list l = { 0 };
	struct ev_error err;
	u64 g = F(PD_ATTR_EXCLUDE_GUEST);

	(void)state;
	assert_int_equal(ev_parse(&l, "cpu-clock,task-clock:u", &err), 0);
	assert_int_equal(ev_parse(&l, "cs", &err), 0);	/* a second -e appends */
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.events[0].name, "cpu-clock");
	assert_string_equal(l.events[1].name, "task-clock:u");
	assert_string_equal(l.events[2].name, "cs");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(l.events[i].leader, i);
		assert_int_equal(l.events[i].nr_members, 1);
	}
	ev_list_free(&l);

	/* {cpu-clock:k,task-clock}:u: the group's u starts from each one's bits */
	assert_int_equal(ev_parse(&l, "{cpu-clock:k,task-clock}:u,cs", &err), 0);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.events[0].name, "cpu-clock:k");
	assert_string_equal(l.events[1].name, "task-clock");
	assert_int_equal(l.events[0].attr.flags, F(PD_ATTR_EXCLUDE_HV) | g);
	assert_int_equal(l.events[1].attr.flags, F(PD_ATTR_EXCLUDE_KERNEL) | F(PD_ATTR_EXCLUDE_HV) | g);
	assert_int_equal(l.events[0].leader, 0);
	assert_int_equal(l.events[1].leader, 0);
	assert_int_equal(l.events[0].nr_members, 2);
	assert_int_equal(l.events[1].nr_members, 0);
	assert_int_equal(l.events[2].leader, 2);
	assert_int_equal(l.events[2].nr_members, 1);
	ev_list_free(&l);

	/* {cpu-clock:G,task-clock}:u: G keeps u from excluding the guest */
	assert_int_equal(ev_parse(&l, "{cpu-clock:G,task-clock}:u", &err), 0);
	assert_int_equal(l.events[0].attr.flags, (EXCL_ALL - F(PD_ATTR_EXCLUDE_USER)) |
			 F(PD_ATTR_EXCLUDE_HOST));
	assert_int_equal(l.events[1].attr.flags, (EXCL_ALL - F(PD_ATTR_EXCLUDE_USER)) | g);
	ev_list_free(&l);

	/* D only pins the group leader */
	assert_int_equal(ev_parse(&l, "{cpu-clock,task-clock}:D", &err), 0);
	assert_true(PD_ATTR_FLAG(&l.events[0].attr, PD_ATTR_PINNED));
	assert_false(PD_ATTR_FLAG(&l.events[1].attr, PD_ATTR_PINNED));
	ev_list_free(&l);
}

static void test_pmu(void **state)
{
	struct ev_list l;
	struct ev_event *ev;
	FILE *f = fopen("/sys/bus/event_source/devices/software/type", "r");

	(void)state;
	if (!f)
		skip();
	fclose(f);
	ev = one(&l, "software/config=3/");
	assert_int_equal(ev->attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev->attr.config, 3);
	assert_string_equal(ev->name, "software/config=3/");
	ev_list_free(&l);
	ev = one(&l, "software/config=1,name=tc/u");
	assert_int_equal(ev->attr.config, 1);
	assert_string_equal(ev->name, "tc");
	assert_true(PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_KERNEL));
	ev_list_free(&l);
}

/* msr/tsc/: a PMU's named event (sysfs events/tsc, "event=0x00") and a
 * format term (format/event, "config:0-63") */
static void test_pmu_alias(void **state)
{
	struct ev_list l;
	struct ev_event *ev;
	long type = -1;
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");

	(void)state;
	if (!f || fscanf(f, "%ld", &type) != 1) {
		if (f)
			fclose(f);
		skip();
	}
	fclose(f);
	f = fopen("/sys/bus/event_source/devices/msr/events/tsc", "r");
	if (!f)
		skip();
	fclose(f);
	ev = one(&l, "msr/tsc/");
	assert_int_equal(ev->attr.type, type);
	assert_int_equal(ev->attr.config, 0);
	assert_string_equal(ev->name, "msr/tsc/");
	ev_list_free(&l);
	ev = one(&l, "msr/event=0x5/");
	assert_int_equal(ev->attr.config, 5);
	ev_list_free(&l);
}

static void test_tracepoint(void **state)
{
	struct ev_list l;
	struct ev_event *ev;
	long long id = -1;
	FILE *f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");

	(void)state;
	if (!f)
		f = fopen("/sys/kernel/debug/tracing/events/sched/sched_switch/id", "r");
	if (!f || fscanf(f, "%lld", &id) != 1) {
		if (f)
			fclose(f);
		skip();
	}
	fclose(f);
	ev = one(&l, "sched:sched_switch");
	assert_int_equal(ev->attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev->attr.config, id);
	assert_int_equal(ev->attr.sample_period, 1);
	assert_int_equal(ev->attr.sample_type, PD_SAMPLE_RAW | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
			 PD_SAMPLE_PERIOD);
	assert_int_equal(ev->attr.flags, F(PD_ATTR_EXCLUDE_GUEST));
	assert_string_equal(ev->name, "sched:sched_switch");
	ev_list_free(&l);
	/* the modifier applies, but perf names a tracepoint without it */
	ev = one(&l, "sched:sched_switch:u");
	assert_string_equal(ev->name, "sched:sched_switch");
	assert_true(PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_KERNEL));
	ev_list_free(&l);
}

/* str fails with msg at pos, leaving a list that had one event as it was. */
static void expect_error(const char *str, int pos, const char *msg)
{
	struct ev_list l = { 0 };
	struct ev_error err;

	assert_int_equal(ev_parse(&l, "cs", &err), 0);
	if (!ev_parse(&l, str, &err))
		fail_msg("'%s' parsed", str);
	assert_int_equal(l.nr, 1);
	assert_string_equal(err.msg, msg);
	if (pos >= 0)
		assert_int_equal(err.pos, pos);
	ev_list_free(&l);
}

static void test_errors(void **state)
{
	(void)state;
	/* positions as perf 6.1 marks them (-1: perf's differs or is not checked) */
	expect_error("bogus", 0, "parser error");
	expect_error("cpu-clock,bogus", 10, "parser error");
	expect_error("cpu-clock:x", 9, "parser error");
	expect_error("cpu-clock:uu", 10, "Bad modifier");
	expect_error("cpu-clock:pppp", 10, "Bad modifier");
	expect_error("cpu-clock,", 0, "parser error");
	expect_error("", -1, "parser error");
	expect_error("{cpu-clock,task-clock", -1, "parser error");
	expect_error("{cpu-clock}x", -1, "parser error");
	expect_error("L1-dcache-load-miss-load", -1, "parser error");
	expect_error("L1-DCACHE-LOADS", -1, "parser error");
	expect_error("rXYZ", 0, "parser error");
	expect_error("nosuchpmu/config=1/", 0, "Cannot find PMU `nosuchpmu'. Missing kernel support?");
	/* found by fuzz/fuzz_events: the message named a freed term */
	expect_error("software/config=zz/", 9, "bad value for term 'config'");
	expect_error("software/,/", -1, "parser error");
	expect_error("software/config=1,,config1=2/", -1, "parser error");
	expect_error("software/name=/", -1, "parser error");
	expect_error("sched:no_such_tracepoint", 0, "unknown tracepoint");
	expect_error("L1-icache-stores", 0,
		     "invalid cache event 'L1-icache-stores': the cache has no such operation");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbolic),
		cmocka_unit_test(test_cache_and_raw),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_lists_and_groups),
		cmocka_unit_test(test_pmu),
		cmocka_unit_test(test_pmu_alias),
		cmocka_unit_test(test_tracepoint),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
