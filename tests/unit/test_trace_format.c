/*
 * test_trace_format.c - cmocka tests for src/event/trace_format.c: a
 * TRACING_DATA blob built here (the layout tracing_data.h gives) parsed,
 * samples' fields printed by their print formats, the text cache that
 * must not change a text, and malformed blobs.
 *
 * Expected texts follow from the formats written here (print_fmt applied
 * to the fields by hand); the cache is checked against libtraceevent's
 * own tep_print_event() on the same samples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/trace_format.h"
#include "util/error.h"

/* sched_switch-like: its own fields after the 8 bytes of common ones */
static const char switch_fmt[] =
	"name: sw\nID: 7\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:int prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s\", REC->prev_comm, REC->prev_pid, "
	"REC->prev_state ? __print_flags(REC->prev_state, \"|\", { 1, \"S\" }, { 2, \"D\" }) : \"R\"\n";

/* one that prints a common field: never cached */
static const char pid_fmt[] =
	"name: who\nID: 9\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"pid=%d n=%u\", REC->common_pid, REC->n\n";

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* The blob being built. */
struct blob {
	unsigned char b[8192];
	size_t len;
};

static void put(struct blob *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof(b->b));
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

static void put32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A version 0.6 blob with the system "t" holding both formats. */
static void make_blob(struct blob *b)
{
	const unsigned char endian_long[2] = { 0, 8 };

	b->len = 0;
	put(b, "\027\010\104tracing0.6", 14);
	put(b, endian_long, 2);
	put32(b, 4096);
	put(b, "header_page", 12);
	put64(b, strlen(header_page));
	put(b, header_page, strlen(header_page));
	put(b, "header_event", 13);
	put64(b, 0);
	put32(b, 0);		/* ftrace formats */
	put32(b, 1);		/* systems */
	put(b, "t", 2);
	put32(b, 2);
	put64(b, strlen(switch_fmt));
	put(b, switch_fmt, strlen(switch_fmt));
	put64(b, strlen(pid_fmt));
	put(b, pid_fmt, strlen(pid_fmt));
	put32(b, 0);		/* kallsyms */
	put32(b, 0);		/* printk formats */
	put64(b, 0);		/* saved cmdlines */
}

/* A sw sample's raw data. */
static void switch_raw(unsigned char raw[40], int common_pid, const char *comm, int pid, long state)
{
	uint16_t type = 7;

	memset(raw, 0, 40);
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &common_pid, 4);
	strncpy((char *)raw + 8, comm, 16);
	memcpy(raw + 24, &pid, 4);
	memcpy(raw + 32, &state, 8);
}

static char *print(struct trace_formats *tf, struct trace_event *ev, const void *raw, u32 size)
{
	size_t len;
	const char *text = trace_format_print(tf, ev, 0, raw, size, &len);

	assert_int_equal(strlen(text), len);
	return strdup(text);
}

static void test_fields(void **state)
{
	struct blob b;
	struct trace_formats *tf;
	struct trace_event *sw, *who;
	unsigned char raw[40];
	char *text;

	(void)state;
	make_blob(&b);
	tf = trace_formats_parse(b.b, b.len, "blob");
	assert_non_null(tf);
	sw = trace_formats_event(tf, 7);
	who = trace_formats_event(tf, 9);
	assert_non_null(sw);
	assert_non_null(who);
	assert_ptr_equal(trace_formats_event(tf, 7), sw);
	assert_null(trace_formats_event(tf, 8));

	switch_raw(raw, 10, "perf", 15017, 2);
	text = print(tf, sw, raw, sizeof(raw));
	assert_string_equal(text, "prev_comm=perf prev_pid=15017 prev_state=D");
	free(text);
	switch_raw(raw, 10, "swapper/1", 0, 0);
	text = print(tf, sw, raw, sizeof(raw));
	assert_string_equal(text, "prev_comm=swapper/1 prev_pid=0 prev_state=R");
	free(text);
	switch_raw(raw, 10, "a", 1, 3);
	text = print(tf, sw, raw, sizeof(raw));
	assert_string_equal(text, "prev_comm=a prev_pid=1 prev_state=S|D");
	free(text);

	{
		unsigned char r[12] = { 9, 0, 0, 0 };
		int pid = 42;
		unsigned n = 7;

		memcpy(r + 4, &pid, 4);
		memcpy(r + 8, &n, 4);
		text = print(tf, who, r, sizeof(r));
		assert_string_equal(text, "pid=42 n=7");
		free(text);
		/* the same own fields, another common pid: not a cached text */
		pid = 43;
		memcpy(r + 4, &pid, 4);
		text = print(tf, who, r, sizeof(r));
		assert_string_equal(text, "pid=43 n=7");
		free(text);
	}
	trace_formats_free(tf);
}

/* Many samples, most of them repeats, printed through the cache: each
 * text is the one libtraceevent prints for it uncached. */
static void test_cache_matches(void **state)
{
	static const char *const comms[] = { "perf", "bash", "kworker/0:1", "x" };
	struct blob b;
	struct trace_formats *tf, *ref;
	struct trace_event *sw, *sw_ref;
	unsigned char raw[40];

	(void)state;
	make_blob(&b);
	tf = trace_formats_parse(b.b, b.len, "blob");
	assert_non_null(tf);
	sw = trace_formats_event(tf, 7);
	srand(1);
	for (int i = 0; i < 20000; i++) {
		char *got, *want;

		/* a fresh set per sample: nothing cached there */
		ref = trace_formats_parse(b.b, b.len, "blob");
		sw_ref = trace_formats_event(ref, 7);
		switch_raw(raw, rand(), comms[rand() % 4], rand() % 5, rand() % 4);
		got = print(tf, sw, raw, sizeof(raw));
		want = print(ref, sw_ref, raw, sizeof(raw));
		assert_string_equal(got, want);
		free(got);
		free(want);
		trace_formats_free(ref);
	}
	trace_formats_free(tf);
}

static void test_malformed(void **state)
{
	struct blob b;

	(void)state;
	error_set_quiet(1);
	make_blob(&b);
	assert_null(trace_formats_parse(b.b, 9, "blob"));
	/* cut inside the event formats, inside the saved cmdlines' size */
	assert_null(trace_formats_parse(b.b, b.len / 2, "blob"));
	assert_null(trace_formats_parse(b.b, b.len - 4, "blob"));
	b.b[0] = 'x';
	assert_null(trace_formats_parse(b.b, b.len, "blob"));
	error_set_quiet(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_cache_matches),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
