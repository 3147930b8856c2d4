/*
 * test_writer.c - cmocka tests for the perf.data writer (src/format/writer.c):
 * files it writes are read back with prof's reader, and what the reader
 * sees must be what was written.
 *
 * Each test writes a file into a temporary path with pw_open() /
 * pw_write() / pw_add_*() / pw_close(), then opens it with pd_open(),
 * checks the header, attrs, ids and features, and collects the records
 * pd_process() delivers unordered (type and size, in file order).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/feature.h"
#include "format/reader.h"
#include "format/writer.h"
#include "util/error.h"

/* Records delivered by pd_process(), in order. */
struct seen {
	u32 type[64];
	u16 size[64];
	u64 nr;
};

static int collect(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	struct seen *s = ctx;

	if (s->nr < 64) {
		s->type[s->nr] = ev->hdr->type;
		s->size[s->nr] = ev->hdr->size;
	}
	s->nr++;
	return 0;
}

static void tmp_path(char *path)
{
	int fd;

	strcpy(path, "/tmp/prof-writer-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

/* A COMM record with a TID|TIME trailer (16 bytes). */
static size_t make_comm(u8 *rec, u32 pid, const char *comm, u64 time)
{
	struct pd_header h = { PD_REC_COMM, 0, 8 + 8 + 16 + 16 };

	memset(rec, 0, h.size);
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &pid, 4);
	strncpy((char *)rec + 16, comm, 15);
	memcpy(rec + 32, &pid, 4);
	memcpy(rec + 36, &pid, 4);
	memcpy(rec + 40, &time, 8);
	return h.size;
}

/* A SAMPLE of IP|TID|TIME|PERIOD. */
static size_t make_sample(u8 *rec, u32 pid, u64 ip, u64 time)
{
	struct pd_header h = { PD_REC_SAMPLE, PD_MISC_USER, 8 + 32 };
	u64 period = 1000;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 16, &pid, 4);
	memcpy(rec + 20, &pid, 4);
	memcpy(rec + 24, &time, 8);
	memcpy(rec + 32, &period, 8);
	return h.size;
}

static struct pw_event make_event(const char *name, u64 config, const u64 *ids, u32 nr)
{
	struct pw_event ev = { .name = name, .ids = ids, .nr_ids = nr };

	ev.attr.type = PD_TYPE_SOFTWARE;
	ev.attr.config = config;
	ev.attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_PERIOD;
	ev.attr.sample_period = 4000;
	ev.attr.flags = 1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_COMM;
	return ev;
}

/* One event, a few records, host features: all of it reads back. */
static void test_roundtrip(void **state)
{
	static const u64 ids[2] = { 101, 102 };
	struct pw_event ev = make_event("cpu-clock:u", 0, ids, 2);
	char *argv[] = { "prof", "record", "-o", "x", "--", "true", NULL };
	struct pd_ops ops = { collect };
	struct pd_feat_env env;
	struct seen seen = { 0 };
	struct pd_header round = { PD_REC_FINISHED_ROUND, 0, 8 };
	struct pw_file w;
	struct pd_file f;
	u8 rec[128];
	u64 times[2] = { 10, 30 };
	char path[64];
	struct stat st;

	tmp_path(path);
	assert_int_equal(pw_open(&w, path, &ev, 1), 0);
	assert_int_equal(pw_write(&w, rec, make_comm(rec, 7, "true", 5)), 0);
	assert_int_equal(pw_write(&w, rec, make_sample(rec, 7, 0x401000, 10)), 0);
	assert_int_equal(pw_write(&w, rec, make_sample(rec, 7, 0x401008, 30)), 0);
	assert_int_equal(pw_write(&w, &round, sizeof(round)), 0);
	pw_add_feature(&w, PD_FEAT_SAMPLE_TIME, times, sizeof(times));
	pw_add_host_features(&w, 6, argv, &ev, 1);
	assert_int_equal(pw_close(&w), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((u64)st.st_size, w.file_size);

	assert_int_equal(pd_open(&f, path, PD_UNORDERED), 0);
	assert_int_equal(f.header_size, PD_FILE_HEADER_SIZE);
	assert_int_equal(f.attr_size, PW_ATTR_SIZE + 16);
	assert_int_equal(f.data_size, 48 + 40 + 40 + 8);
	assert_int_equal(f.nr_evsel, 1);
	assert_int_equal(f.evsel[0].disk_attr_size, PW_ATTR_SIZE);
	assert_int_equal(f.evsel[0].attr.sample_type, ev.attr.sample_type);
	assert_int_equal(f.evsel[0].nr_ids, 2);
	assert_int_equal(f.evsel[0].ids[0], 101);
	assert_int_equal(f.evsel[0].ids[1], 102);
	assert_non_null(f.evsel[0].name);
	assert_string_equal(f.evsel[0].name, "cpu-clock:u");
	for (unsigned feat = PD_FEAT_HOSTNAME; feat <= PD_FEAT_EVENT_DESC; feat++)
		if (feat != PD_FEAT_CPUDESC && feat != PD_FEAT_CPUID)	/* not on every arch */
			assert_true(pd_has_feature(&f, feat));
	assert_true(pd_has_feature(&f, PD_FEAT_SAMPLE_TIME));
	assert_false(pd_has_feature(&f, PD_FEAT_BUILD_ID));

	pd_feature_env_init(&f, &env);
	assert_int_equal(pd_feature_decode_all(&f, &env, PD_FEAT_BITS), 0);
	assert_string_equal(env.version, PROF_VERSION);
	assert_true(env.nr_cpus_online >= 1);
	assert_true(env.total_mem > 0);
	assert_int_equal(env.cmdline.nr, 6);
	assert_string_equal(env.cmdline.s[1], "record");
	assert_string_equal(env.cmdline.s[5], "true");
	assert_int_equal(env.first_sample_time, 10);
	assert_int_equal(env.last_sample_time, 30);
	assert_int_equal(env.nr_events, 1);
	assert_string_equal(env.events[0].name, "cpu-clock:u");
	assert_int_equal(env.events[0].nr_ids, 2);

	assert_int_equal(pd_process(&f, &ops, &seen), 0);
	assert_int_equal(seen.nr, 4);
	assert_int_equal(seen.type[0], PD_REC_COMM);
	assert_int_equal(seen.type[1], PD_REC_SAMPLE);
	assert_int_equal(seen.type[2], PD_REC_SAMPLE);
	assert_int_equal(seen.type[3], PD_REC_FINISHED_ROUND);
	assert_int_equal(f.evsel[0].nr_samples, 2);
	pd_close(&f);
	unlink(path);
}

/* Two events: ids land with the right attr; more data than the buffer. */
static void test_two_events_big(void **state)
{
	static const u64 ids_a[2] = { 1, 2 }, ids_b[2] = { 3, 4 };
	struct pw_event evs[2] = {
		make_event("cpu-clock", 0, ids_a, 2),
		make_event("page-faults", 2, ids_b, 2),
	};
	struct pd_ops ops = { collect };
	struct seen seen = { 0 };
	struct pd_header rec = { PD_REC_FINISHED_ROUND, 0, 8 };
	size_t len = sizeof(rec);
	u64 n = (9u << 20) / len;	/* more than the 4 MiB write buffer, twice */
	struct pw_file w;
	struct pd_file f;
	char path[64];

	evs[0].attr.sample_type |= PD_SAMPLE_ID;
	evs[1].attr.sample_type |= PD_SAMPLE_ID;
	tmp_path(path);
	assert_int_equal(pw_open(&w, path, evs, 2), 0);
	for (u64 i = 0; i < n; i++)
		assert_int_equal(pw_write(&w, &rec, len), 0);
	pw_add_string_feature(&w, PD_FEAT_HOSTNAME, "h");
	assert_int_equal(pw_close(&w), 0);

	assert_int_equal(pd_open(&f, path, PD_UNORDERED), 0);
	assert_int_equal(f.nr_evsel, 2);
	assert_int_equal(f.data_size, n * len);
	assert_ptr_equal(pd_evsel_by_id(&f, 2), &f.evsel[0]);
	assert_ptr_equal(pd_evsel_by_id(&f, 3), &f.evsel[1]);
	assert_int_equal(f.evsel[1].attr.config, 2);
	assert_int_equal(pd_process(&f, &ops, &seen), 0);
	assert_int_equal(seen.nr, n);
	pd_close(&f);
	unlink(path);
}

/* Pipe mode: header, HEADER_ATTR, the features perf sends in a pipe and
 * the end marker, then the records; the reader reads it as a stream. */
static void test_pipe(void **state)
{
	static const u64 ids[2] = { 5, 6 };
	struct pw_event ev = make_event("cpu-clock", 0, ids, 2);
	char *argv[] = { "prof", "record", "-o", "-", NULL };
	struct pd_ops ops = { collect };
	struct seen seen = { 0 };
	struct pw_file w;
	struct pd_file f;
	u64 zero[2] = { 0, 0 }, feat;
	u8 rec[128], *buf;
	char path[64];
	size_t off, n;
	FILE *in;
	int fd;

	ev.attr.sample_type |= PD_SAMPLE_ID;
	tmp_path(path);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(pw_open_pipe(&w, fd, path, &ev, 1), 0);
	pw_add_host_features(&w, 4, argv, &ev, 1);
	pw_add_feature(&w, PD_FEAT_SAMPLE_TIME, zero, sizeof(zero));
	pw_pipe_features(&w);
	assert_int_equal(pw_write(&w, rec, make_comm(rec, 7, "true", 5)), 0);
	pw_commit(&w);
	assert_int_equal(pw_close(&w), 0);

	/* the raw stream: features in ascending order, CACHE (20) not sent,
	 * the marker last */
	in = fopen(path, "r");
	assert_non_null(in);
	buf = malloc(1 << 20);
	n = fread(buf, 1, 1 << 20, in);
	fclose(in);
	assert_int_equal(pd_get64(buf), PD_MAGIC);
	assert_int_equal(pd_get64(buf + 8), PD_PIPE_HEADER_SIZE);
	assert_int_equal(pd_get32(buf + 16), PD_REC_HEADER_ATTR);
	assert_int_equal(pd_get16(buf + 16 + 6), 8 + PW_ATTR_SIZE + 16);
	feat = 0;
	for (off = 16 + pd_get16(buf + 22); off < n; off += pd_get16(buf + off + 6)) {
		if (pd_get32(buf + off) != PD_REC_HEADER_FEATURE)
			break;
		assert_true(pd_get64(buf + off + 8) > feat);
		feat = pd_get64(buf + off + 8);
		assert_true(feat != PD_FEAT_CACHE);
	}
	assert_int_equal(feat, PD_FEAT_PIPE_END_61);
	assert_int_equal(pd_get32(buf + off), PD_REC_COMM);
	free(buf);

	assert_int_equal(pd_open(&f, path, PD_UNORDERED), 0);
	assert_int_equal(pd_process(&f, &ops, &seen), 0);	/* attrs come as records */
	assert_int_equal(f.nr_evsel, 1);
	assert_true(pd_has_feature(&f, PD_FEAT_HOSTNAME));
	assert_true(pd_has_feature(&f, PD_FEAT_EVENT_DESC));
	assert_ptr_equal(pd_evsel_by_id(&f, 6), &f.evsel[0]);
	pd_close(&f);
	unlink(path);
}

/* A path that cannot be created: an error, not a crash. */
static void test_open_fails(void **state)
{
	struct pw_event ev = make_event("cpu-clock", 0, NULL, 0);
	struct pw_file w;

	error_set_quiet(2);
	assert_int_equal(pw_open(&w, "/nonexistent-dir/x.data", &ev, 1), -1);
	error_set_quiet(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_two_events_big),
		cmocka_unit_test(test_open_fails),
		cmocka_unit_test(test_pipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
