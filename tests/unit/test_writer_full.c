/*
 * test_writer_full.c - cmocka tests for the perf.data writer when the file
 * cannot grow (src/format/writer.c): a file size limit (RLIMIT_FSIZE, with
 * SIGXFSZ ignored, so writes fail with EFBIG) stands for a full disk, and
 * stops the file at an exact byte.
 *
 * Each test writes rounds of ROUND bytes of samples, each closed by
 * pw_commit(), plus features of a known size, under a limit, and checks
 * that pw_close() reports the failure and leaves a file the reader opens
 * whose data is cut back to the last whole round that leaves room for the
 * features, with every feature there; and, when not even the features fit,
 * a file with neither data nor features.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/reader.h"
#include "format/writer.h"
#include "util/error.h"

#define SAMPLE_SIZE	40
#define ROUND		(100 * SAMPLE_SIZE)	/* bytes of records per round */
#define HOST_LEN	3000		/* HOSTNAME's text: a feature bigger than
					   the slack a round leaves below */
/* HOSTNAME (u32 length, text NUL-padded to 64) and NRCPUS (two u32), each
 * with its 16-byte table entry */
#define FEATURES_SIZE	(16 + 4 + (HOST_LEN + 1 + 63) / 64 * 64 + 16 + 8)

static int count(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	(*(u64 *)ctx)++;
	return 0;
}

/* A SAMPLE of IP|TID|TIME|PERIOD. */
static void make_sample(u8 *rec, u64 time)
{
	struct pd_header h = { PD_REC_SAMPLE, PD_MISC_USER, SAMPLE_SIZE };
	u64 ip = 0x401000, period = 1000;
	u32 pid = 7;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 16, &pid, 4);
	memcpy(rec + 20, &pid, 4);
	memcpy(rec + 24, &time, 8);
	memcpy(rec + 32, &period, 8);
}

/* What a file written under a limit holds. */
struct outcome {
	int close_ret;
	u64 data_offset, data_size, file_size, records;
	int has_host, has_nrcpus;
};

/*
 * Writes rounds of samples into a new file whose size is limited to
 * data_offset + room bytes (data_offset: where the data starts, which
 * depends only on the one event), then reads it back into *o.
 */
static void write_limited(int rounds, u64 room, struct outcome *o)
{
	static const u64 ids[1] = { 11 };
	struct pw_event ev = { .name = "cpu-clock", .ids = ids, .nr_ids = 1 };
	struct pd_ops ops = { count };
	struct rlimit saved, limit;
	char path[] = "/tmp/prof-writer-full-XXXXXX", host[HOST_LEN + 1];
	u32 cpus[2] = { 2, 2 };
	struct pw_file w;
	struct pd_file f;
	struct stat st;
	u8 rec[SAMPLE_SIZE];
	u64 time = 1;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	ev.attr.type = PD_TYPE_SOFTWARE;
	ev.attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_PERIOD;
	ev.attr.sample_period = 1000;
	ev.attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
	memset(host, 'h', HOST_LEN);
	host[HOST_LEN] = '\0';

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_IGN);
	error_set_quiet(2);
	assert_int_equal(pw_open(&w, path, &ev, 1), 0);
	o->data_offset = w.data_offset;
	limit = saved;
	limit.rlim_cur = (rlim_t)(w.data_offset + room);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < ROUND / SAMPLE_SIZE; i++) {
			make_sample(rec, time++);
			pw_write(&w, rec, sizeof(rec));
		}
		pw_commit(&w);
	}
	pw_add_string_feature(&w, PD_FEAT_HOSTNAME, host);
	pw_add_feature(&w, PD_FEAT_NRCPUS, cpus, sizeof(cpus));
	o->close_ret = pw_close(&w);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_DFL);

	assert_int_equal(stat(path, &st), 0);
	o->file_size = (u64)st.st_size;
	assert_int_equal(pd_open(&f, path, PD_UNORDERED), 0);
	o->data_size = f.data_size;
	o->has_host = pd_has_feature(&f, PD_FEAT_HOSTNAME);
	o->has_nrcpus = pd_has_feature(&f, PD_FEAT_NRCPUS);
	o->records = 0;
	assert_int_equal(pd_process(&f, &ops, &o->records), 0);
	pd_close(&f);
	error_set_quiet(0);	/* after the reader's note on an empty data section */
	unlink(path);
}

/* The disk fills in the 11th round, 1000 bytes after the 10th: the
 * features need more than that, so the 10th round goes too. */
static void test_cut_back_for_features(void **state)
{
	struct outcome o;

	write_limited(50, 10 * ROUND + 1000, &o);
	assert_int_equal(o.close_ret, -1);
	assert_int_equal(o.data_size, 9 * ROUND);
	assert_int_equal(o.records, 9 * ROUND / SAMPLE_SIZE);
	assert_true(o.has_host && o.has_nrcpus);
	assert_int_equal(o.file_size, o.data_offset + 9 * ROUND + FEATURES_SIZE);
}

/* Room for a round and the features after it: nothing more is lost. */
static void test_round_and_features_fit(void **state)
{
	struct outcome o;

	write_limited(50, 10 * ROUND + FEATURES_SIZE + 100, &o);
	assert_int_equal(o.close_ret, -1);
	assert_int_equal(o.data_size, 10 * ROUND);
	assert_true(o.has_host && o.has_nrcpus);
}

/* All the data fits, the features do not: a round makes room. */
static void test_features_do_not_fit(void **state)
{
	struct outcome o;

	write_limited(10, 10 * ROUND + 100, &o);
	assert_int_equal(o.close_ret, -1);
	assert_int_equal(o.data_size, 9 * ROUND);
	assert_true(o.has_host && o.has_nrcpus);
}

/* Not even the features fit without data: no data, no features, and a
 * header the reader accepts. */
static void test_no_room_at_all(void **state)
{
	struct outcome o;

	write_limited(10, 100, &o);
	assert_int_equal(o.close_ret, -1);
	assert_int_equal(o.data_size, 0);
	assert_int_equal(o.records, 0);
	assert_false(o.has_host || o.has_nrcpus);
	assert_int_equal(o.file_size, o.data_offset);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_back_for_features),
		cmocka_unit_test(test_round_and_features_fit),
		cmocka_unit_test(test_features_do_not_fit),
		cmocka_unit_test(test_no_room_at_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
