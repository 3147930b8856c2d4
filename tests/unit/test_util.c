/*
 * test_util.c - cmocka tests for src/util: the arena allocator, the
 * option parser and the batch queue between two threads.
 *
 * Error paths of opt_parse() print usage and exit; they are run in a forked
 * child (output to /dev/null) and judged by its exit status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/arena.h"
#include "util/batchq.h"
#include "util/opt.h"

/* --- arena ------------------------------------------------------------- */

static void test_arena_alignment(void **state)
{
	struct arena a;
	unsigned char *prev = NULL;
	size_t prev_size = 0;

	(void)state;
	arena_init(&a, 4096);
	for (size_t size = 1; size < 200; size += 3) {
		unsigned char *p = arena_alloc(&a, size);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 8, 0);
		memset(p, (int)(size & 0xff), size);
		/* the previous allocation is untouched by this one */
		if (prev)
			for (size_t i = 0; i < prev_size; i++)
				assert_int_equal(prev[i], (unsigned char)(prev_size & 0xff));
		prev = p;
		prev_size = size;
	}
	arena_free(&a);
}

static void test_arena_used_bytes(void **state)
{
	struct arena a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(a.block_size, 1u << 20);
	assert_int_equal(a.used_bytes, 0);
	arena_alloc(&a, 5);
	assert_int_equal(a.used_bytes, 8);
	arena_alloc(&a, 8);
	assert_int_equal(a.used_bytes, 16);
	arena_alloc(&a, 0);
	assert_int_equal(a.used_bytes, 16);
	arena_free(&a);
	assert_null(a.head);
	assert_int_equal(a.used_bytes, 0);
}

static void test_arena_big_allocation(void **state)
{
	struct arena a;
	unsigned char *small1, *big, *small2;
	const size_t big_size = 3 * 4096 + 5;

	(void)state;
	arena_init(&a, 4096);
	small1 = arena_alloc(&a, 100);
	memset(small1, 0x11, 100);
	big = arena_alloc(&a, big_size);
	assert_non_null(big);
	assert_int_equal((uintptr_t)big % 8, 0);
	memset(big, 0x22, big_size);
	small2 = arena_alloc(&a, 100);
	memset(small2, 0x33, 100);
	for (size_t i = 0; i < 100; i++) {
		assert_int_equal(small1[i], 0x11);
		assert_int_equal(small2[i], 0x33);
	}
	for (size_t i = 0; i < big_size; i++)
		assert_int_equal(big[i], 0x22);
	/* allocations that fill a block exactly, then spill to a new one */
	for (int i = 0; i < 64; i++) {
		unsigned char *p = arena_alloc(&a, 4096);

		memset(p, i, 4096);
	}
	arena_free(&a);
}

static void test_arena_copies(void **state)
{
	struct arena a;
	const unsigned char bytes[5] = { 1, 2, 0, 4, 5 };
	unsigned char *z, *d;
	char *s;

	(void)state;
	arena_init(&a, 64);
	z = arena_zalloc(&a, 40);
	for (int i = 0; i < 40; i++)
		assert_int_equal(z[i], 0);
	d = arena_memdup(&a, bytes, sizeof(bytes));
	assert_memory_equal(d, bytes, sizeof(bytes));
	s = arena_strdup(&a, "hello, arena");
	assert_string_equal(s, "hello, arena");
	s = arena_strndup(&a, "truncate me", 8);
	assert_string_equal(s, "truncate");
	s = arena_strndup(&a, "short", 100);
	assert_string_equal(s, "short");
	s = arena_strndup(&a, "", 0);
	assert_string_equal(s, "");
	arena_free(&a);
}

static void test_arena_reset(void **state)
{
	struct arena a;
	void *first, *again;

	(void)state;
	arena_init(&a, 4096);
	first = arena_alloc(&a, 16);
	/* more blocks, and one oversized block that reset must free */
	for (int i = 0; i < 10; i++)
		arena_alloc(&a, 1000);
	arena_alloc(&a, 100000);
	arena_reset(&a);
	assert_int_equal(a.used_bytes, 0);
	assert_non_null(a.head);
	again = arena_alloc(&a, 16);
	assert_non_null(again);
	assert_int_equal((uintptr_t)again % 8, 0);
	memset(again, 0x5a, 16);
	arena_reset(&a);
	arena_reset(&a);
	assert_int_equal(a.used_bytes, 0);
	arena_alloc(&a, 8);
	assert_int_equal(a.used_bytes, 8);
	arena_free(&a);
	(void)first;
}

static void test_arena_reset_reuses_block(void **state)
{
	struct arena a;
	void *first, *again;

	(void)state;
	arena_init(&a, 4096);
	first = arena_alloc(&a, 16);
	arena_alloc(&a, 16);
	arena_reset(&a);
	again = arena_alloc(&a, 16);
	assert_ptr_equal(first, again);
	arena_free(&a);
}

/* --- opt --------------------------------------------------------------- */

/* The values an option table fills in. */
struct opts {
	int quiet, verbose, stats, count, callback_calls;
	const char *input, *callback_arg;
	unsigned long long size;
};

static struct opts o;

static int record_callback(const struct opt *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	o.callback_calls++;
	o.callback_arg = arg;
	return 0;
}

static const char *const usage[] = { "prof test [<options>]", NULL };

static const struct opt table[] = {
	OPT_GROUP("Test options:"),
	OPT_BOOLEAN('q', "quiet", &o.quiet, "say less"),
	OPT_INCR('v', "verbose", &o.verbose, "say more"),
	OPT_BOOLEAN(0, "stats", &o.stats, "show stats"),
	OPT_STRING('i', "input", &o.input, "file", "input file name"),
	OPT_INTEGER('n', "count", &o.count, "how many"),
	OPT_U64(0, "size", &o.size, "how big"),
	OPT_CALLBACK('c', "call", NULL, "arg", "a callback", record_callback),
	OPT_END(),
};

/* Parses a NULL-terminated list of arguments (argv[0] is added) into o;
 * the leftover arguments stay in *argvp. */
static int parse(char ***argvp, int stop_at_non_option, ...)
{
	static char *argv[32];
	va_list ap;
	int argc = 0;
	char *arg;

	memset(&o, 0, sizeof(o));
	argv[argc++] = "test";
	va_start(ap, stop_at_non_option);
	while ((arg = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;
	*argvp = argv;
	return opt_parse(argc, argv, table, usage, stop_at_non_option);
}

static void test_opt_short_bundles(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "-qv", NULL), 0);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.verbose, 1);
	assert_int_equal(parse(&argv, 0, "-vvv", "-v", NULL), 0);
	assert_int_equal(o.verbose, 4);
	assert_int_equal(parse(&argv, 0, "-qvifile.data", NULL), 0);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.verbose, 1);
	assert_string_equal(o.input, "file.data");
}

static void test_opt_attached_and_separate_args(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "-iperf.data", "-n7", NULL), 0);
	assert_string_equal(o.input, "perf.data");
	assert_int_equal(o.count, 7);
	assert_int_equal(parse(&argv, 0, "-i", "x.data", "-n", "-3", NULL), 0);
	assert_string_equal(o.input, "x.data");
	assert_int_equal(o.count, -3);
	/* a separate argument may itself start with a dash */
	assert_int_equal(parse(&argv, 0, "-i", "-", NULL), 0);
	assert_string_equal(o.input, "-");
}

static void test_opt_long_values(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "--input=a.data", "--count=42", "--size=0x10", NULL), 0);
	assert_string_equal(o.input, "a.data");
	assert_int_equal(o.count, 42);
	assert_int_equal(o.size, 16);
	assert_int_equal(parse(&argv, 0, "--input", "b.data", "--size", "18446744073709551615", NULL), 0);
	assert_string_equal(o.input, "b.data");
	assert_true(o.size == 18446744073709551615ULL);
	assert_int_equal(parse(&argv, 0, "--input=", NULL), 0);
	assert_string_equal(o.input, "");
	assert_int_equal(parse(&argv, 0, "--call=x", "-cy", NULL), 0);
	assert_int_equal(o.callback_calls, 2);
	assert_string_equal(o.callback_arg, "y");
}

static void test_opt_negation(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "--stats", "--no-stats", NULL), 0);
	assert_int_equal(o.stats, 0);
	assert_int_equal(parse(&argv, 0, "--no-stats", "--stats", NULL), 0);
	assert_int_equal(o.stats, 1);
	assert_int_equal(parse(&argv, 0, "-q", "--no-quiet", NULL), 0);
	assert_int_equal(o.quiet, 0);
	assert_int_equal(parse(&argv, 0, "-vv", "--no-verbose", NULL), 0);
	assert_int_equal(o.verbose, 0);
}

static void test_opt_unique_prefix(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "--inp=p.data", "--st", "--co", "5", NULL), 0);
	assert_string_equal(o.input, "p.data");
	assert_int_equal(o.stats, 1);
	assert_int_equal(o.count, 5);
	assert_int_equal(parse(&argv, 0, "--stats", "--no-st", NULL), 0);
	assert_int_equal(o.stats, 0);
	/* "--q" is a prefix of quiet only */
	assert_int_equal(parse(&argv, 0, "--q", NULL), 0);
	assert_int_equal(o.quiet, 1);
}

static void test_opt_non_options(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "one", "-q", "two", "-", NULL), 3);
	assert_string_equal(argv[0], "one");
	assert_string_equal(argv[1], "two");
	assert_string_equal(argv[2], "-");
	assert_null(argv[3]);
	assert_int_equal(o.quiet, 1);
}

static void test_opt_double_dash(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 0, "-v", "--", "-q", "--stats", NULL), 2);
	assert_int_equal(o.verbose, 1);
	assert_int_equal(o.quiet, 0);
	assert_int_equal(o.stats, 0);
	assert_string_equal(argv[0], "-q");
	assert_string_equal(argv[1], "--stats");
	assert_null(argv[2]);
	assert_int_equal(parse(&argv, 0, "--", NULL), 0);
}

static void test_opt_stop_at_non_option(void **state)
{
	char **argv;

	(void)state;
	assert_int_equal(parse(&argv, 1, "-q", "sleep", "-v", "1", NULL), 3);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.verbose, 0);
	assert_string_equal(argv[0], "sleep");
	assert_string_equal(argv[1], "-v");
	assert_string_equal(argv[2], "1");
}

/* Runs parse() on args in a child with output discarded; returns its exit
 * status, or -1 if it did not exit normally. */
static int child_status(char *const *args)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[32];
		int argc = 0;
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		dup2(devnull, 2);
		argv[argc++] = "test";
		while (*args && argc < 31)
			argv[argc++] = *args++;
		argv[argc] = NULL;
		opt_parse(argc, argv, table, usage, 0);
		_exit(42);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_opt_errors_exit_129(void **state)
{
	static char *const cases[][3] = {
		{ "--no-such-option", NULL },
		{ "-Z", NULL },
		{ "-qZ", NULL },
		{ "--s", NULL },		/* ambiguous: stats, size */
		{ "-i", NULL },			/* missing value */
		{ "--input", NULL },
		{ "--count=abc", NULL },
		{ "--count=99999999999", NULL },
		{ "--size=-1", NULL },
		{ "--stats=yes", NULL },	/* a boolean takes no value */
		{ "--no-input", NULL },		/* only booleans negate */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = child_status(cases[i]);

		if (status != 129)
			fail_msg("'%s' exited %d, want 129", cases[i][0], status);
	}
}

static void test_opt_help_exits_0(void **state)
{
	static char *const help_short[] = { "-h", NULL };
	static char *const help_long[] = { "-q", "--help", NULL };
	static char *const ok[] = { "-q", NULL };

	(void)state;
	assert_int_equal(child_status(help_short), 0);
	assert_int_equal(child_status(help_long), 0);
	assert_int_equal(child_status(ok), 42);
}

/* --- batch queue ----------------------------------------------------------- */

/* What the consumer saw: items are (size in words, sequence number, then
 * filler words equal to the sequence number). */
struct seen {
	unsigned long next;	/* the sequence number expected next */
	unsigned long bad;	/* items out of order or damaged */
	unsigned long batches;
	int slow;		/* sleep in each batch, so the ring fills */
};

static void check_batch(void *arg, const void *items, size_t len)
{
	struct seen *s = arg;
	const unsigned long *p = items, *end = p + len / sizeof(*p);

	s->batches++;
	if (s->slow)
		usleep(200);
	while (p < end) {
		unsigned long words = p[0];

		if (words < 2 || p + words > end || p[1] != s->next) {
			s->bad++;
			return;
		}
		for (unsigned long i = 2; i < words; i++)
			if (p[i] != s->next)
				s->bad++;
		s->next++;
		p += words;
	}
}

/* Sends n items of 2 to 41 words; checks order and content on the other
 * side, with a sync (which must leave nothing unconsumed) every 1000. */
static void run_batchq(int slow, unsigned long n)
{
	struct seen s = { .slow = slow };
	struct batchq *q = batchq_new(4096, 4, check_batch, &s);

	for (unsigned long k = 0; k < n; k++) {
		unsigned long words = 2 + k % 40;
		unsigned long *p = batchq_alloc(q, words * sizeof(*p));

		assert_int_equal((uintptr_t)p % 8, 0);
		p[0] = words;
		p[1] = k;
		for (unsigned long i = 2; i < words; i++)
			p[i] = k;
		if (k % 1000 == 999) {
			batchq_sync(q);
			assert_int_equal(s.next, k + 1);
		}
	}
	batchq_free(q);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.next, n);
	assert_true(s.batches > n * 2 * 8 / 4096);
}

static void test_batchq_order_and_content(void **state)
{
	(void)state;
	run_batchq(0, 200000);
}

static void test_batchq_full_ring(void **state)
{
	(void)state;
	run_batchq(1, 20000);
}

static void test_batchq_empty(void **state)
{
	struct seen s = { 0 };
	struct batchq *q = batchq_new(4096, 2, check_batch, &s);

	(void)state;
	batchq_sync(q);
	batchq_free(q);
	assert_int_equal(s.batches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_alignment),
		cmocka_unit_test(test_arena_used_bytes),
		cmocka_unit_test(test_arena_big_allocation),
		cmocka_unit_test(test_arena_copies),
		cmocka_unit_test(test_arena_reset),
		cmocka_unit_test(test_arena_reset_reuses_block),
		cmocka_unit_test(test_opt_short_bundles),
		cmocka_unit_test(test_opt_attached_and_separate_args),
		cmocka_unit_test(test_opt_long_values),
		cmocka_unit_test(test_opt_negation),
		cmocka_unit_test(test_opt_unique_prefix),
		cmocka_unit_test(test_opt_non_options),
		cmocka_unit_test(test_opt_double_dash),
		cmocka_unit_test(test_opt_stop_at_non_option),
		cmocka_unit_test(test_opt_errors_exit_129),
		cmocka_unit_test(test_opt_help_exits_0),
		cmocka_unit_test(test_batchq_order_and_content),
		cmocka_unit_test(test_batchq_full_ring),
		cmocka_unit_test(test_batchq_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
