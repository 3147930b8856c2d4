/*
 * test_reader.c - cmocka tests for the perf.data reader (src/format/reader*.c,
 * sample.c, swap.c) on synthetic files built with synth.h.
 *
 * Every test builds its input in memory, writes it to a temporary file (or
 * a pipe fed by a forked writer), runs pd_open()/pd_process() and records
 * each delivered record in a struct cap (a private copy of its bytes plus
 * what the reader said about it), then checks the copies.  Expected values
 * come from how the input was built, never from the reader.
 *
 * Run the binary under valgrind once in a while: the hostile-count and
 * truncation tests rely on exact-size heap copies to catch any read past a
 * record.  Files over 8 MiB of data exercise the reader's resident window.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/reader.h"
#include "util/error.h"
#include "format/read_values.h"
#include "synth.h"

/* ------------------------------------------------------------ helpers --- */

/* One delivered record. */
struct rec {
	u32 type;
	u16 misc, size;
	u64 offset, time;
	int evsel;		/* index, -1 for NULL */
	int compressed;
	u64 payload_size;
	u8 payload_first;	/* first payload byte, 0 if none */
	u32 pid;		/* SAMPLE (parsed) or COMM pid, else 0 */
	u8 *bytes;		/* copy of the record */
};

/* Everything pd_process() delivered. */
struct cap {
	struct rec *r;
	size_t n, cap;
};

static int capture_record(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	struct cap *c = ctx;
	struct rec *r;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->r = realloc(c->r, c->cap * sizeof(*c->r));
	}
	r = &c->r[c->n++];
	memset(r, 0, sizeof(*r));
	r->type = ev->hdr->type;
	r->misc = ev->hdr->misc;
	r->size = ev->hdr->size;
	r->offset = ev->file_offset;
	r->time = ev->time;
	r->evsel = ev->evsel ? (int)(ev->evsel - f->evsel) : -1;
	r->compressed = ev->compressed;
	r->payload_size = ev->payload_size;
	if (ev->payload && ev->payload_size)
		r->payload_first = *(const u8 *)ev->payload;
	r->bytes = malloc(r->size);
	memcpy(r->bytes, ev->hdr, r->size);
	if (r->type == PD_REC_SAMPLE && ev->evsel) {
		struct pd_sample s;

		if (pd_parse_sample(f, ev->evsel, ev->hdr, ev->file_offset, &s) == 0)
			r->pid = s.pid;
	} else if (r->type == PD_REC_COMM && r->size >= 12) {
		r->pid = pd_get32(r->bytes + 8);
	}
	return 0;
}

static const struct pd_ops capture_ops = { capture_record };

static void cap_free(struct cap *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->r[i].bytes);
	free(c->r);
	memset(c, 0, sizeof(*c));
}

/* Writes the image to a temp file and opens it; the file is unlinked at
 * once (the mapping keeps it).  Returns pd_open()'s result. */
static int open_synth(struct synth *s, struct pd_file *f, int flags)
{
	char path[64];
	int ret;

	synth_tmpfile(s, path);
	ret = pd_open(f, path, flags);
	unlink(path);
	return ret;
}

/* Opens bytes as a file. */
static int open_bytes(const u8 *p, size_t len, struct pd_file *f, int flags)
{
	char path[64];
	int ret;

	synth_write_tmp(p, len, path);
	ret = pd_open(f, path, flags);
	unlink(path);
	return ret;
}

/* Opens, processes into c; returns pd_process()'s result (asserts open). */
static int run_synth(struct synth *s, struct pd_file *f, struct cap *c, int flags)
{
	assert_int_equal(open_synth(s, f, flags), 0);
	return pd_process(f, &capture_ops, c);
}

/* Feeds bytes through a real pipe from a forked writer and opens the read
 * end as /dev/fd/N.  *rfd gets the read end (close it after pd_close). */
static pid_t open_pipe(const u8 *p, size_t len, struct pd_file *f, int *rfd, int *open_ret)
{
	int pfd[2];
	char path[32];
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		signal(SIGPIPE, SIG_DFL);
		for (size_t done = 0; done < len;) {
			ssize_t n = write(pfd[1], p + done, len - done);

			if (n <= 0)
				_exit(1);
			done += (size_t)n;
		}
		_exit(0);
	}
	close(pfd[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", pfd[0]);
	*open_ret = pd_open(f, strdup(path), 0);
	*rfd = pfd[0];
	return pid;
}

static void close_pipe(struct pd_file *f, pid_t pid, int rfd)
{
	char *path = (char *)f->path;

	pd_close(f);
	free(path);
	close(rfd);
	waitpid(pid, NULL, 0);
}

/* An attr with the given sample_type, sample_id_all as asked. */
static struct pd_attr mkattr(u64 sample_type, int sample_id_all)
{
	struct pd_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PD_TYPE_SOFTWARE;
	a.size = 128;
	a.sample_period = 4000;
	a.sample_type = sample_type;
	a.flags = 1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_DISABLED;
	if (sample_id_all)
		a.flags |= 1ULL << PD_ATTR_SAMPLE_ID_ALL;
	return a;
}

#define ST_BASIC (PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | \
		  PD_SAMPLE_CPU | PD_SAMPLE_PERIOD)
#define ST_IDENT (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
		  PD_SAMPLE_CPU | PD_SAMPLE_PERIOD)

/* Asserts the sequence of delivered record types and tags: each want entry
 * is a type in the high half and a pid tag (SAMPLE/COMM) in the low. */
#define EV(type, tag) ((u64)(type) << 32 | (tag))
static void assert_seq(const struct cap *c, const u64 *want, size_t n)
{
	for (size_t i = 0; i < c->n && i < n; i++) {
		u64 got = EV(c->r[i].type, c->r[i].pid);

		if (got != want[i])
			fail_msg("delivery %zu: type %u tag %u, want type %u tag %u", i,
				 c->r[i].type, c->r[i].pid, (unsigned)(want[i] >> 32),
				 (unsigned)(want[i] & 0xffffffff));
	}
	assert_int_equal(c->n, n);
}

/* Asserts two captures delivered the same records the same way. */
static void assert_same_deliveries(const struct cap *x, const struct cap *y)
{
	assert_int_equal(x->n, y->n);
	for (size_t i = 0; i < x->n; i++) {
		const struct rec *a = &x->r[i], *b = &y->r[i];

		if (a->type != b->type || a->offset != b->offset || a->time != b->time ||
		    a->evsel != b->evsel || a->size != b->size || a->compressed != b->compressed ||
		    memcmp(a->bytes, b->bytes, a->size))
			fail_msg("delivery %zu differs: type %u/%u offset %#llx/%#llx time %llu/%llu",
				 i, a->type, b->type, (unsigned long long)a->offset,
				 (unsigned long long)b->offset, (unsigned long long)a->time,
				 (unsigned long long)b->time);
	}
}

/* ----------------------------------------------------- file mode header --- */

static void test_file_header(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	struct pd_attr a = mkattr(ST_BASIC, 1);
	u64 ids[] = { 101, 102 };
	static const char host[] = "\4\0\0\0box";	/* not decoded by the reader */
	static const char rel[] = "\4\0\0\0" "6.1";
	u64 o[3];

	(void)state;
	a.config = 7;
	a.flags |= 2ULL << PD_ATTR_PRECISE_IP | 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM;
	a.clockid = 1;
	a.sample_regs_user = 0xff;
	synth_init(&s, 0);
	synth_attr(&s, &a, ids, 2);
	synth_feature(&s, PD_FEAT_HOSTNAME, host, sizeof(host));
	synth_feature(&s, PD_FEAT_OSRELEASE, rel, sizeof(rel));
	o[0] = synth_comm(&s, 0, 7, 7, "sh", 0, 101);
	o[1] = synth_tsample(&s, 0, 100, 7);
	o[2] = synth_tsample(&s, 0, 200, 8);

	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_int_equal(f.pipe_mode, 0);
	assert_int_equal(f.needs_swap, 0);
	assert_int_equal(f.header_size, 104);
	assert_int_equal(f.attr_size, 144);
	assert_int_equal(f.attrs_offset, 104);
	assert_int_equal(f.attrs_size, 144);
	assert_int_equal(f.data_offset, s.data_offset);
	assert_int_equal(f.data_offset, 104 + 144 + 16);
	assert_int_equal(f.data_size, s.data.len);
	assert_int_equal(f.features[0], 1ULL << PD_FEAT_HOSTNAME | 1ULL << PD_FEAT_OSRELEASE);
	assert_int_equal(f.features[1] | f.features[2] | f.features[3], 0);
	assert_true(pd_has_feature(&f, PD_FEAT_HOSTNAME));
	assert_true(pd_has_feature(&f, PD_FEAT_OSRELEASE));
	assert_false(pd_has_feature(&f, PD_FEAT_BUILD_ID));
	assert_false(pd_has_feature(&f, 1000));
	assert_int_equal(f.feat_size[PD_FEAT_HOSTNAME], sizeof(host));
	assert_memory_equal(f.feat_data[PD_FEAT_HOSTNAME], host, sizeof(host));
	assert_memory_equal(f.feat_data[PD_FEAT_OSRELEASE], rel, sizeof(rel));
	/* payloads follow the two-entry table at data end, in bit order */
	assert_int_equal(f.feat_offset[PD_FEAT_HOSTNAME], f.data_offset + f.data_size + 32);
	assert_int_equal(f.feat_offset[PD_FEAT_OSRELEASE],
			 f.feat_offset[PD_FEAT_HOSTNAME] + sizeof(host));
	assert_ptr_equal(f.feat_data[PD_FEAT_HOSTNAME], f.map + f.feat_offset[PD_FEAT_HOSTNAME]);

	assert_int_equal(f.nr_evsel, 1);
	assert_int_equal(f.evsel[0].idx, 0);
	assert_int_equal(f.evsel[0].disk_attr_size, 128);
	assert_memory_equal(&f.evsel[0].attr, &a, sizeof(a));
	assert_int_equal(PD_ATTR_PRECISE(&f.evsel[0].attr), 2);
	assert_int_equal(f.evsel[0].nr_ids, 2);
	assert_int_equal(f.evsel[0].ids[0], 101);
	assert_int_equal(f.evsel[0].ids[1], 102);
	assert_int_equal(f.evsel[0].id_pos, 3);		/* after IP, TID, TIME */
	assert_int_equal(f.evsel[0].is_pos, 2);		/* ID, then CPU */
	assert_int_equal(f.evsel[0].trailer_size, 32);	/* TID TIME ID CPU */
	assert_int_equal(f.sample_id_all, 1);
	assert_int_equal(f.id_hdr_size, 32);
	assert_ptr_equal(pd_evsel_by_id(&f, 102), &f.evsel[0]);
	assert_null(pd_evsel_by_id(&f, 103));

	assert_int_equal(c.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c.r[i].offset, o[i]);
		assert_int_equal(c.r[i].evsel, 0);
		assert_int_equal(c.r[i].compressed, 0);
	}
	assert_int_equal(c.r[0].type, PD_REC_COMM);
	assert_int_equal(c.r[0].time, 0);	/* time 0: delivered at once */
	assert_int_equal(c.r[1].time, 100);
	assert_int_equal(c.r[2].time, 200);
	assert_int_equal(f.stats.nr_events, 3);
	assert_int_equal(f.stats.nr_by_type[PD_REC_SAMPLE], 2);
	assert_int_equal(f.stats.nr_by_type[PD_REC_COMM], 1);
	assert_int_equal(f.evsel[0].nr_samples, 2);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* An attr with every field set to a distinct non-zero value. */
static struct pd_attr full_attr(void)
{
	struct pd_attr a;
	u8 *p = (u8 *)&a;

	for (size_t i = 0; i < sizeof(a); i++)
		p[i] = (u8)(i * 7 + 1);
	a.type = PD_TYPE_SOFTWARE;
	a.sample_type = ST_BASIC;
	a.read_format = PD_FORMAT_ID;
	a.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_COMM;
	return a;
}

static void test_attr_sizes(void **state)
{
	static const u32 sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct synth s;
		struct pd_file f;
		struct pd_attr a = full_attr(), want;
		u64 ids[] = { 9 };
		u32 copy = sizes[k] < PD_ATTR_MAX_SIZE ? sizes[k] : PD_ATTR_MAX_SIZE;

		a.size = sizes[k];
		memset(&want, 0, sizeof(want));
		memcpy(&want, &a, copy);
		synth_init(&s, 0);
		synth_attr(&s, &a, ids, 1);
		synth_tsample(&s, 0, 5, 1);
		assert_int_equal(open_synth(&s, &f, 0), 0);
		assert_int_equal(f.attr_size, sizes[k] + 16);
		assert_int_equal(f.nr_evsel, 1);
		assert_int_equal(f.evsel[0].disk_attr_size, sizes[k]);
		if (memcmp(&f.evsel[0].attr, &want, sizeof(want)))
			fail_msg("attr of size %u read wrongly", sizes[k]);
		assert_ptr_equal(pd_evsel_by_id(&f, 9), &f.evsel[0]);
		pd_close(&f);
		synth_free(&s);
	}
}

/* attr.size 0 in the file means 64. */
static void test_attr_size_zero(void **state)
{
	struct synth s;
	struct pd_file f;
	struct pd_attr a = full_attr();
	u64 ids[] = { 9 };
	size_t len;
	u8 *img;

	(void)state;
	a.size = 64;
	synth_init(&s, 0);
	synth_attr(&s, &a, ids, 1);
	synth_tsample(&s, 0, 5, 1);
	img = synth_image(&s, &len);
	memset(img + 104 + 4, 0, 4);
	assert_int_equal(open_bytes(img, len, &f, 0), 0);
	assert_int_equal(f.evsel[0].disk_attr_size, 64);
	assert_int_equal(f.evsel[0].attr.size, 64);
	assert_int_equal(f.evsel[0].attr.sample_type, ST_BASIC);
	assert_int_equal(f.evsel[0].attr.config2, 0);
	pd_close(&f);
	free(img);
	synth_free(&s);
}

/* Two evsels told apart by id (ident 0: ID, 1: IDENTIFIER). */
static void check_two_evsels(int ident)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u64 st = ident ? ST_IDENT : ST_BASIC;
	struct pd_attr a0 = mkattr(st, 1), a1 = mkattr(st, 1);
	u64 ids0[] = { 11, 12 }, ids1[] = { 21, 22 };
	struct pd_sample v = { .ip = 1, .time = 10, .period = 1 };

	a1.config = 5;
	synth_init(&s, 0);
	synth_attr(&s, &a0, ids0, 2);
	synth_attr(&s, &a1, ids1, 2);
	v.id = 12; v.pid = 1; v.time = 10; synth_sample(&s, 0, 0, &v);
	v.id = 21; v.pid = 2; v.time = 11; synth_sample(&s, 1, 0, &v);
	v.id = 22; v.pid = 3; v.time = 12; synth_sample(&s, 1, 0, &v);
	v.id = 0; v.pid = 4; v.time = 13; synth_sample(&s, 0, 0, &v);	/* id 0: first attr */
	v.id = 99; v.pid = 5; v.time = 14; synth_sample(&s, 0, 0, &v);	/* unknown: dropped */
	synth_comm(&s, 1, 6, 6, "a", 15, 22);
	synth_comm(&s, 0, 7, 7, "b", 16, 11);
	synth_comm(&s, 0, 8, 8, "c", 17, 0);

	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_int_equal(f.nr_evsel, 2);
	assert_int_equal(f.evsel[1].attr.config, 5);
	assert_int_equal(f.evsel[0].id_pos, ident ? 0 : 3);
	assert_int_equal(f.evsel[0].is_pos, ident ? 1 : 2);
	assert_ptr_equal(pd_evsel_by_id(&f, 11), &f.evsel[0]);
	assert_ptr_equal(pd_evsel_by_id(&f, 12), &f.evsel[0]);
	assert_ptr_equal(pd_evsel_by_id(&f, 21), &f.evsel[1]);
	assert_ptr_equal(pd_evsel_by_id(&f, 22), &f.evsel[1]);
	assert_null(pd_evsel_by_id(&f, 99));
	assert_int_equal(c.n, 7);
	static const int want_evsel[] = { 0, 1, 1, 0, 1, 0, 0 };
	static const u32 want_pid[] = { 1, 2, 3, 4, 6, 7, 8 };
	for (int i = 0; i < 7; i++) {
		assert_int_equal(c.r[i].evsel, want_evsel[i]);
		assert_int_equal(c.r[i].pid, want_pid[i]);
	}
	assert_int_equal(c.r[4].time, 15);
	assert_int_equal(f.stats.nr_unknown_id, 1);
	assert_int_equal(f.stats.nr_by_type[PD_REC_SAMPLE], 5);	/* counted when read */
	assert_int_equal(f.evsel[0].nr_samples, 2);
	assert_int_equal(f.evsel[1].nr_samples, 2);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void test_ids_sample_id(void **state) { (void)state; check_two_evsels(0); }
static void test_ids_identifier(void **state) { (void)state; check_two_evsels(1); }

/* pd_read_next() over a group read: each value as a sample of its id's
 * event with its growth since that id's last read; values that did not
 * grow and ids no event has are not handed on; the reader counts each
 * event's samples so. */
static void test_read_values(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c;
	struct pd_attr a = { .type = PD_TYPE_SOFTWARE, .size = 128, .sample_period = 1,
			     .sample_type = PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
					    PD_SAMPLE_READ,
			     .read_format = PD_FORMAT_ID | PD_FORMAT_GROUP };
	static const u64 reads[][6] = {	/* {value, id} each */
		{ 100, 11, 1, 21, 0, 0 },	/* both grow from 0 */
		{ 250, 11, 1, 21, 0, 0 },	/* the member does not grow */
		{ 250, 11, 5, 99, 4, 21 },	/* the leader does not grow; 99 is no id */
	};
	static const u32 nr[] = { 2, 2, 3 };
	static const int want_evsel[] = { 0, 1, 0, 1 };
	static const u64 want_period[] = { 100, 1, 150, 3 };
	struct pd_read_state st = { 0 };
	int got = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	synth_init(&s, 0);
	synth_attr(&s, &a, (u64[]){ 11 }, 1);
	synth_attr(&s, &a, (u64[]){ 21 }, 1);
	for (int i = 0; i < 3; i++) {
		struct pd_sample v = { .pid = 1, .tid = 1, .time = 10 + (u64)i, .id = 11 };
		u64 values[6];

		memcpy(values, reads[i], sizeof(values));
		v.read.nr = nr[i];
		v.read.values = (const u8 *)values;
		synth_sample(&s, 0, 0, &v);
	}
	synth_round(&s);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	/* counted as perf delivers them: the leader twice, the member twice */
	assert_int_equal(f.evsel[0].nr_samples, 2);
	assert_int_equal(f.evsel[1].nr_samples, 2);
	for (int i = 0; i < 3; i++) {
		struct pd_sample v = { .read.nr = nr[i], .read.values = (const u8 *)reads[i],
				       .read.value_words = 2 };
		struct pd_evsel *e;
		u64 k = 0, period;

		while (pd_read_next(&f, &f.evsel[0], &v, &st, &k, &e, &period)) {
			assert_true(got < 4);
			assert_int_equal(e->idx, want_evsel[got]);
			assert_int_equal(period, want_period[got]);
			got++;
		}
	}
	assert_int_equal(got, 4);
	pd_read_state_free(&st);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* Many ids (the id map grows). */
static void test_ids_many(void **state)
{
	struct synth s;
	struct pd_file f;
	struct pd_attr a = mkattr(ST_IDENT, 1);
	u64 ids[SYNTH_MAX_IDS];

	(void)state;
	synth_init(&s, 0);
	for (u32 k = 0; k < SYNTH_MAX_ATTRS; k++) {
		for (u32 i = 0; i < SYNTH_MAX_IDS; i++)
			ids[i] = 1000 * (k + 1) + i;
		synth_attr(&s, &a, ids, SYNTH_MAX_IDS);
	}
	synth_tsample(&s, 0, 1, 1);
	assert_int_equal(open_synth(&s, &f, 0), 0);
	assert_int_equal(f.nr_evsel, SYNTH_MAX_ATTRS);
	for (u32 k = 0; k < SYNTH_MAX_ATTRS; k++)
		for (u32 i = 0; i < SYNTH_MAX_IDS; i++)
			assert_ptr_equal(pd_evsel_by_id(&f, 1000 * (k + 1) + i), &f.evsel[k]);
	pd_close(&f);
	synth_free(&s);
}

/* ------------------------------------------------------------- ordering --- */

/* A file with one ST_BASIC sample_id_all attr (id 1). */
static void order_init(struct synth *s, int flags, int sample_id_all)
{
	struct pd_attr a = mkattr(ST_BASIC, sample_id_all);
	u64 ids[] = { 1 };

	synth_init(s, flags);
	synth_attr(s, &a, ids, 1);
}

static void test_order_rounds(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };

	(void)state;
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 30, 30);
	synth_tsample(&s, 0, 10, 10);
	synth_tsample(&s, 0, 20, 20);
	synth_round(&s);		/* limit 0: delivers nothing; limit := 30 */
	synth_tsample(&s, 0, 50, 50);
	synth_tsample(&s, 0, 40, 40);
	synth_tsample(&s, 0, 25, 25);
	synth_round(&s);		/* delivers <= 30; limit := 50 */
	synth_tsample(&s, 0, 60, 60);
	synth_round(&s);		/* delivers <= 50; limit := 60 */
	synth_tsample(&s, 0, 70, 70);
	/* EOF delivers everything left */
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(68, 0), EV(68, 0), EV(9, 10), EV(9, 20), EV(9, 25), EV(9, 30),
		EV(68, 0), EV(9, 40), EV(9, 50), EV(9, 60), EV(9, 70),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(f.stats.nr_by_type[PD_REC_FINISHED_ROUND], 3);
	assert_int_equal(f.stats.nr_out_of_order, 0);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void test_order_equal_times(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u64 off[5];

	(void)state;
	order_init(&s, 0, 1);
	off[0] = synth_tsample(&s, 0, 5, 1);
	off[1] = synth_tsample(&s, 0, 5, 2);
	off[2] = synth_tsample(&s, 0, 3, 3);
	off[3] = synth_comm(&s, 0, 4, 4, "x", 5, 1);
	synth_round(&s);
	off[4] = synth_tsample(&s, 0, 5, 5);	/* still >= the limit (0) */
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(68, 0), EV(9, 3), EV(9, 1), EV(9, 2), EV(3, 4), EV(9, 5),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(c.r[1].offset, off[2]);
	assert_int_equal(c.r[2].offset, off[0]);
	assert_int_equal(c.r[4].offset, off[3]);
	assert_int_equal(c.r[4].time, 5);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* Time 0 and all-ones records, and user records, go out when read. */
static void test_order_immediate(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	static const u8 body[8];

	(void)state;
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 30, 1);
	synth_tsample(&s, 0, 0, 2);			/* time 0 */
	synth_comm(&s, 0, 3, 3, "c", 0, 1);		/* trailer time 0 */
	synth_tsample(&s, 0, PD_NO_TIME, 4);		/* all ones */
	synth_user(&s, PD_REC_FINISHED_INIT, NULL, 0);
	synth_user(&s, PD_REC_TIME_CONV, body, sizeof(body));
	synth_tsample(&s, 0, 20, 5);
	synth_user(&s, 200, body, sizeof(body));	/* unknown type */
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(9, 2), EV(3, 3), EV(9, 4), EV(82, 0), EV(79, 0), EV(200, 0),
		EV(9, 5), EV(9, 1),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(c.r[0].time, 0);
	assert_int_equal(c.r[1].time, 0);
	assert_int_equal(c.r[2].time, PD_NO_TIME);
	assert_int_equal(c.r[3].evsel, -1);
	assert_int_equal(f.stats.nr_unknown, 1);
	assert_int_equal(f.stats.nr_other_types, 1);
	assert_int_equal(f.stats.other_types[0].type, 200);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* An attr without TIME: nothing is queued. */
static void test_order_no_time(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	struct pd_attr a = mkattr(PD_SAMPLE_IP | PD_SAMPLE_TID, 1);
	u64 ids[] = { 1 };

	(void)state;
	synth_init(&s, 0);
	synth_attr(&s, &a, ids, 1);
	synth_tsample(&s, 0, 0, 1);
	synth_comm(&s, 0, 2, 2, "c", 0, 0);
	synth_round(&s);
	synth_tsample(&s, 0, 0, 3);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = { EV(9, 1), EV(3, 2), EV(68, 0), EV(9, 3) };
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(c.r[0].time, PD_NO_TIME);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void test_order_out_of_order(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };

	(void)state;
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 10, 10);
	synth_round(&s);		/* nothing; limit := 10 */
	synth_tsample(&s, 0, 20, 20);
	synth_round(&s);		/* delivers 10; limit := 20 */
	synth_tsample(&s, 0, 5, 5);	/* older than the last delivered */
	synth_tsample(&s, 0, 7, 7);
	synth_tsample(&s, 0, 15, 15);	/* not older than 10: in order */
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(68, 0), EV(68, 0), EV(9, 10), EV(9, 5), EV(9, 7), EV(9, 15), EV(9, 20),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(f.stats.nr_out_of_order, 2);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/*
 * perf's round limit is the largest timestamp queued since the queue was
 * last empty (ordered_events.c: queue_event() sets max_timestamp to the new
 * time when the queue is empty), not the largest ever seen.  It differs only
 * after out-of-order records: here perf delivers t=8 at the end, after the
 * TIME_CONV, because the limit after the third round is 7, not 10.
 */
static void test_order_limit_after_drain(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	static const u8 body[8];

	(void)state;
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 10, 10);
	synth_round(&s);		/* nothing; limit := 10 */
	synth_round(&s);		/* delivers 10, the queue is empty */
	synth_tsample(&s, 0, 5, 5);	/* out of order; perf's max := 5 */
	synth_tsample(&s, 0, 7, 7);	/* max := 7 */
	synth_round(&s);		/* delivers 5 and 7; limit := 7 */
	synth_tsample(&s, 0, 8, 8);
	synth_round(&s);		/* 8 > 7: nothing */
	synth_user(&s, PD_REC_TIME_CONV, body, sizeof(body));
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(68, 0), EV(68, 0), EV(9, 10), EV(68, 0), EV(9, 5), EV(9, 7), EV(68, 0),
		EV(79, 0), EV(9, 8),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(f.stats.nr_out_of_order, 2);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* Rounds of 1000 records whose times overlap the next round's (as perf's
 * per-CPU buffers do): everything comes out sorted and in order. */
static void test_order_many(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u64 last = 0;

	(void)state;
	order_init(&s, 0, 1);
	for (int r = 0; r < 6; r++) {
		for (int i = 0; i < 1000; i++) {
			u64 t = 1 + (u64)r * 1000 + (u64)((i * 7919) % 2000);

			synth_tsample(&s, 0, t, (u32)t);
		}
		synth_round(&s);
	}
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_int_equal(c.n, 6006);
	for (size_t i = 0; i < c.n; i++) {
		if (c.r[i].type != PD_REC_SAMPLE)
			continue;
		assert_true(c.r[i].time >= last);
		assert_int_equal(c.r[i].pid, c.r[i].time);
		last = c.r[i].time;
	}
	assert_int_equal(f.stats.nr_out_of_order, 0);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void build_unsorted(struct synth *s, int sample_id_all)
{
	order_init(s, 0, sample_id_all);
	synth_tsample(s, 0, 30, 1);
	synth_tsample(s, 0, 10, 2);
	synth_round(s);
	synth_tsample(s, 0, 20, 3);
	synth_comm(s, 0, 4, 4, "c", 5, 1);
}

static void test_order_unordered_flag(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };

	(void)state;
	build_unsorted(&s, 1);
	assert_int_equal(run_synth(&s, &f, &c, PD_UNORDERED), 0);
	const u64 want[] = { EV(9, 1), EV(9, 2), EV(68, 0), EV(9, 3), EV(3, 4) };
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(c.r[1].time, 10);	/* times still decoded */
	assert_int_equal(c.r[4].time, 5);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void test_order_no_sample_id_all(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };

	(void)state;
	build_unsorted(&s, 0);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_int_equal(f.sample_id_all, 0);
	assert_int_equal(f.id_hdr_size, 0);
	const u64 want[] = { EV(9, 1), EV(9, 2), EV(68, 0), EV(9, 3), EV(3, 4) };
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(c.r[4].time, PD_NO_TIME);	/* no trailer */
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* A callback's non-zero return stops processing and is returned. */
static int stop_at_third(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	int *n = ctx;

	(void)f;
	(void)ev;
	return ++*n == 3 ? 42 : 0;
}

static void test_callback_stop(void **state)
{
	struct synth s;
	struct pd_file f;
	struct pd_ops ops = { stop_at_third };
	int n = 0;

	(void)state;
	order_init(&s, 0, 1);
	for (int i = 0; i < 10; i++)
		synth_tsample(&s, 0, 10 + (u64)i, (u32)i);
	assert_int_equal(open_synth(&s, &f, 0), 0);
	assert_int_equal(pd_process(&f, &ops, &n), 42);
	assert_int_equal(n, 3);
	pd_close(&f);
	synth_free(&s);
}

/* ------------------------------------------------------- sample parsing --- */

/* Fake file and evsel for pd_parse_sample() on bytes in memory. */
static struct pd_file fake_file = { .path = "synthetic" };

static struct pd_evsel fake_evsel(const struct pd_attr *a)
{
	struct pd_evsel e;

	memset(&e, 0, sizeof(e));
	e.attr = *a;
	return e;
}

/* Values for every field; arrays are static. */
static u64 cc_ips[] = { 0x10, PD_CONTEXT_USER, 0x20, 0x30 };
static u8 raw_bytes[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
static u64 branches[2 * 3] = { 1, 2, 3, 4, 5, 6 };
static u64 uregs[3] = { 0xa, 0xb, 0xc };
static u8 ustack[16] = "stackstackstack";
static u64 iregs[2] = { 0xd, 0xe };
static u8 aux_bytes[8] = "auxdata";
static u64 group_vals[3 * 3] = { 100, 1, 7, 200, 2, 8, 300, 3, 9 };

static struct pd_sample full_values(void)
{
	struct pd_sample v;

	memset(&v, 0, sizeof(v));
	v.id = 77; v.ip = 0xffffffff81000000ULL; v.pid = 10; v.tid = 11;
	v.time = 123456789; v.addr = 0xdead; v.stream_id = 78; v.cpu = 3; v.cpu_res = 0;
	v.period = 10007;
	v.read.nr = 1; v.read.value = 555; v.read.time_enabled = 1000; v.read.time_running = 900;
	v.read.id = 77; v.read.lost = 2;
	v.callchain = (const u8 *)cc_ips; v.callchain_nr = 4;
	v.raw = raw_bytes; v.raw_size = sizeof(raw_bytes);
	v.branch = (const u8 *)branches; v.branch_nr = 2; v.branch_hw_idx = 5;
	v.regs_user_abi = 2; v.regs_user = (const u8 *)uregs;
	v.stack_user = ustack; v.stack_user_size = sizeof(ustack); v.stack_user_dyn_size = 12;
	v.weight = 0x0003000200000001ULL; v.data_src = 0x42; v.transaction = 0x43;
	v.regs_intr_abi = 2; v.regs_intr = (const u8 *)iregs;
	v.phys_addr = 0x1234000; v.cgroup = 99; v.data_page_size = 4096; v.code_page_size = 8192;
	v.aux = aux_bytes; v.aux_size = sizeof(aux_bytes);
	return v;
}

/* Every sample_type bit but WEIGHT (WEIGHT_STRUCT instead). */
#define ST_ALL ((PD_SAMPLE_WEIGHT_STRUCT << 1) - 1 - PD_SAMPLE_WEIGHT)

static struct pd_attr full_sample_attr(u64 st, u64 rf)
{
	struct pd_attr a = mkattr(st, 1);

	a.read_format = rf;
	a.branch_sample_type = PD_BRANCH_HW_INDEX | 1;
	a.sample_regs_user = 0x7;
	a.sample_regs_intr = 0x3;
	a.sample_stack_user = 16;
	return a;
}

/* Compares what was written (v, for attr a) with what was decoded. */
static void assert_sample_eq(const struct pd_attr *a, const struct pd_sample *v,
			     const struct pd_sample *s)
{
	u64 st = a->sample_type, rf = a->read_format;

	assert_int_equal(s->sample_type, st);
	assert_int_equal(s->id, (st & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER)) ? v->id : 0);
	assert_int_equal(s->ip, (st & PD_SAMPLE_IP) ? v->ip : 0);
	assert_int_equal(s->pid, (st & PD_SAMPLE_TID) ? v->pid : (u32)-1);
	assert_int_equal(s->tid, (st & PD_SAMPLE_TID) ? v->tid : (u32)-1);
	assert_int_equal(s->time, (st & PD_SAMPLE_TIME) ? v->time : PD_NO_TIME);
	assert_int_equal(s->addr, (st & PD_SAMPLE_ADDR) ? v->addr : 0);
	assert_int_equal(s->stream_id, (st & PD_SAMPLE_STREAM_ID) ? v->stream_id : 0);
	assert_int_equal(s->cpu, (st & PD_SAMPLE_CPU) ? v->cpu : (u32)-1);
	assert_int_equal(s->cpu_res, (st & PD_SAMPLE_CPU) ? v->cpu_res : 0);
	assert_int_equal(s->period, (st & PD_SAMPLE_PERIOD) ? v->period : a->sample_period);
	if (st & PD_SAMPLE_READ) {
		u32 per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

		assert_int_equal(s->read.value_words, per);
		assert_int_equal(s->read.time_enabled,
				 (rf & PD_FORMAT_TOTAL_TIME_ENABLED) ? v->read.time_enabled : 0);
		assert_int_equal(s->read.time_running,
				 (rf & PD_FORMAT_TOTAL_TIME_RUNNING) ? v->read.time_running : 0);
		if (rf & PD_FORMAT_GROUP) {
			assert_int_equal(s->read.nr, v->read.nr);
			assert_memory_equal(s->read.values, v->read.values, v->read.nr * per * 8);
		} else {
			assert_int_equal(s->read.nr, 1);
			assert_int_equal(s->read.value, v->read.value);
			assert_int_equal(s->read.id, (rf & PD_FORMAT_ID) ? v->read.id : 0);
			assert_int_equal(s->read.lost, (rf & PD_FORMAT_LOST) ? v->read.lost : 0);
		}
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		assert_int_equal(s->callchain_nr, v->callchain_nr);
		assert_memory_equal(s->callchain, v->callchain, v->callchain_nr * 8);
	}
	if (st & PD_SAMPLE_RAW) {
		assert_int_equal(s->raw_size, v->raw_size);
		assert_memory_equal(s->raw, v->raw, v->raw_size);
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		assert_int_equal(s->branch_nr, v->branch_nr);
		assert_int_equal(s->branch_hw_idx, (a->branch_sample_type & PD_BRANCH_HW_INDEX) ?
				 v->branch_hw_idx : (u64)-1);
		assert_memory_equal(s->branch, v->branch, v->branch_nr * 24);
	} else {
		assert_int_equal(s->branch_hw_idx, (u64)-1);
	}
	if (st & PD_SAMPLE_REGS_USER) {
		assert_int_equal(s->regs_user_abi, v->regs_user_abi);
		if (v->regs_user_abi) {
			assert_int_equal(s->regs_user_mask, a->sample_regs_user);
			assert_memory_equal(s->regs_user, v->regs_user,
					    8 * __builtin_popcountll(a->sample_regs_user));
		} else {
			assert_null(s->regs_user);
		}
	}
	if (st & PD_SAMPLE_STACK_USER) {
		assert_int_equal(s->stack_user_size, v->stack_user_size);
		if (v->stack_user_size) {
			assert_memory_equal(s->stack_user, v->stack_user, v->stack_user_size);
			assert_int_equal(s->stack_user_dyn_size, v->stack_user_dyn_size);
		} else {
			assert_null(s->stack_user);
			assert_int_equal(s->stack_user_dyn_size, 0);
		}
	}
	assert_int_equal(s->weight, (st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)) ? v->weight : 0);
	assert_int_equal(s->data_src, (st & PD_SAMPLE_DATA_SRC) ? v->data_src : 0);
	assert_int_equal(s->transaction, (st & PD_SAMPLE_TRANSACTION) ? v->transaction : 0);
	if (st & PD_SAMPLE_REGS_INTR) {
		assert_int_equal(s->regs_intr_abi, v->regs_intr_abi);
		if (v->regs_intr_abi)
			assert_memory_equal(s->regs_intr, v->regs_intr,
					    8 * __builtin_popcountll(a->sample_regs_intr));
	}
	assert_int_equal(s->phys_addr, (st & PD_SAMPLE_PHYS_ADDR) ? v->phys_addr : 0);
	assert_int_equal(s->cgroup, (st & PD_SAMPLE_CGROUP) ? v->cgroup : 0);
	assert_int_equal(s->data_page_size, (st & PD_SAMPLE_DATA_PAGE_SIZE) ? v->data_page_size : 0);
	assert_int_equal(s->code_page_size, (st & PD_SAMPLE_CODE_PAGE_SIZE) ? v->code_page_size : 0);
	if (st & PD_SAMPLE_AUX) {
		assert_int_equal(s->aux_size, v->aux_size);
		assert_memory_equal(s->aux, v->aux, v->aux_size);
	}
}

/* Builds the sample in memory as an exact-size heap copy (so valgrind sees
 * any overread); the caller frees it. */
static struct pd_header *build_sample(const struct pd_attr *a, const struct pd_sample *v)
{
	struct synth s;
	struct pd_header *h;

	synth_init(&s, 0);
	synth_attr(&s, a, NULL, 0);
	synth_sample(&s, 0, 0, v);
	h = malloc(synth_last(&s)->size);
	memcpy(h, synth_last(&s), synth_last(&s)->size);
	synth_free(&s);
	return h;
}

/* pd_parse_sample_head() of h gives what pd_parse_sample() gave (full):
 * the same status, and when both decoded, the same head fields. */
static void assert_head_eq(const struct pd_attr *a, struct pd_evsel *e,
			   const struct pd_header *h, int full_ret, const struct pd_sample *full)
{
	struct pd_sample s;
	int ret;

	memset(&s, 0x5a, sizeof(s));
	ret = pd_parse_sample_head(&fake_file, e, h, 0, &s);
	if (ret != full_ret)
		fail_msg("sample_type %#llx, %u bytes: head parse gave %d, full %d",
			 (unsigned long long)a->sample_type, h->size, ret, full_ret);
	if (ret)
		return;
	assert_int_equal(s.sample_type, full->sample_type);
	assert_int_equal(s.id, full->id);
	assert_int_equal(s.ip, full->ip);
	assert_int_equal(s.pid, full->pid);
	assert_int_equal(s.tid, full->tid);
	assert_int_equal(s.time, full->time);
	assert_int_equal(s.addr, full->addr);
	assert_int_equal(s.stream_id, full->stream_id);
	assert_int_equal(s.cpu, full->cpu);
	assert_int_equal(s.cpu_res, full->cpu_res);
	assert_int_equal(s.period, full->period);
	assert_int_equal(s.callchain_nr, full->callchain_nr);
	assert_ptr_equal(s.callchain, full->callchain);
	assert_int_equal(s.callchain_addrs_from, full->callchain_addrs_from);
}

/* Writes v for attr a, parses it back and compares; also checks that
 * every shorter record fails cleanly, and that the head parse agrees. */
static void roundtrip(const struct pd_attr *a, const struct pd_sample *v)
{
	struct pd_evsel e = fake_evsel(a);
	struct pd_header *h = build_sample(a, v);
	struct pd_sample s;

	/* every field must be set by the parser, present or not */
	memset(&s, 0xa5, sizeof(s));
	if (pd_parse_sample(&fake_file, &e, h, 0, &s))
		fail_msg("sample_type %#llx read_format %#llx: parse failed",
			 (unsigned long long)a->sample_type, (unsigned long long)a->read_format);
	assert_sample_eq(a, v, &s);
	assert_head_eq(a, &e, h, 0, &s);
	for (u16 len = 8; len < h->size; len++) {
		struct pd_header *t = malloc(len);

		memcpy(t, h, len);
		t->size = len;
		if (pd_parse_sample(&fake_file, &e, t, 0, &s) != -1)
			fail_msg("sample_type %#llx: record cut to %u of %u bytes parsed",
				 (unsigned long long)a->sample_type, len, h->size);
		assert_head_eq(a, &e, t, -1, &s);
		free(t);
	}
	free(h);
}

static void test_sample_all_fields(void **state)
{
	struct pd_sample v = full_values();
	u64 rf = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID |
		 PD_FORMAT_LOST;
	struct pd_attr a = full_sample_attr(ST_ALL, rf);

	(void)state;
	error_set_quiet(2);
	roundtrip(&a, &v);
	/* WEIGHT instead of WEIGHT_STRUCT */
	a.sample_type = ST_ALL - PD_SAMPLE_WEIGHT_STRUCT + PD_SAMPLE_WEIGHT;
	roundtrip(&a, &v);
	/* no hw_idx, REGS_USER abi 0, STACK_USER size 0, REGS_INTR abi 0 */
	a.branch_sample_type = 1;
	v.regs_user_abi = 0;
	v.stack_user_size = 0;
	v.regs_intr_abi = 0;
	roundtrip(&a, &v);
	/* REGS_USER abi 1 (32-bit) carries registers too */
	v.regs_user_abi = 1;
	roundtrip(&a, &v);
	/* empty callchain, RAW, branch stack and AUX */
	v.callchain_nr = 0;
	v.raw_size = 0;
	v.branch_nr = 0;
	v.aux_size = 0;
	roundtrip(&a, &v);
	error_set_quiet(0);
}

static void test_sample_each_bit(void **state)
{
	(void)state;
	error_set_quiet(2);
	for (int bit = 0; bit <= 24; bit++) {
		struct pd_sample v = full_values();
		struct pd_attr a = full_sample_attr(1ULL << bit, PD_FORMAT_ID);

		roundtrip(&a, &v);
	}
	error_set_quiet(0);
}

/* perf record's layouts (-g, -a, several events): the head parse's own
 * path, against the full decoding; a call chain count past the record
 * fails both. */
static void test_sample_head(void **state)
{
	const u64 base = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
			 PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN;
	const u64 types[] = { base, base | PD_SAMPLE_IDENTIFIER, base | PD_SAMPLE_ID,
			      base - PD_SAMPLE_PERIOD, base - PD_SAMPLE_CALLCHAIN,
			      base | PD_SAMPLE_ADDR | PD_SAMPLE_STREAM_ID };

	(void)state;
	error_set_quiet(2);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct pd_sample v = full_values();
		struct pd_attr a = full_sample_attr(types[i], 0);
		struct pd_evsel e;
		struct pd_header *h;
		struct pd_sample s;

		a.sample_period = 4000;	/* what a missing PERIOD reads as */
		e = fake_evsel(&a);
		v.cpu_res = 2;
		roundtrip(&a, &v);
		v.callchain_nr = 0;
		roundtrip(&a, &v);
		if (!(types[i] & PD_SAMPLE_CALLCHAIN))
			continue;
		/* the count one entry more than the record holds */
		v.callchain_nr = 4;
		h = build_sample(&a, &v);
		for (u8 *p = (u8 *)h + 8; p + 8 <= (u8 *)h + h->size; p += 8)
			if (pd_get64(p) == 4 && !memcmp(p + 8, cc_ips, 8)) {
				u64 five = 5;

				memcpy(p, &five, 8);
				break;
			}
		assert_int_equal(pd_parse_sample(&fake_file, &e, h, 0, &s), -1);
		assert_int_equal(pd_parse_sample_head(&fake_file, &e, h, 0, &s), -1);
		free(h);
	}
	error_set_quiet(0);
}

static void test_sample_read_formats(void **state)
{
	(void)state;
	error_set_quiet(2);
	for (u64 rf = 0; rf < 32; rf++) {
		struct pd_sample v = full_values();
		struct pd_attr a = full_sample_attr(PD_SAMPLE_TID | PD_SAMPLE_READ | PD_SAMPLE_CALLCHAIN, rf);

		if (rf & PD_FORMAT_GROUP) {
			v.read.nr = 3;
			v.read.values = (const u8 *)group_vals;
		}
		roundtrip(&a, &v);
		if (rf & PD_FORMAT_GROUP) {
			v.read.nr = 0;		/* an empty group */
			roundtrip(&a, &v);
		}
	}
	error_set_quiet(0);
}

/* The dyn_size of a user stack is clamped to its size. */
static void test_sample_stack_dyn_size(void **state)
{
	struct pd_sample v = full_values(), s;
	struct pd_attr a = full_sample_attr(PD_SAMPLE_STACK_USER, 0);
	struct pd_evsel e = fake_evsel(&a);
	struct pd_header *h;

	(void)state;
	v.stack_user_dyn_size = 1000;
	h = build_sample(&a, &v);
	assert_int_equal(pd_parse_sample(&fake_file, &e, h, 0, &s), 0);
	assert_int_equal(s.stack_user_dyn_size, 16);
	free(h);
}

/* A record of exactly the words given (host order), as an exact heap copy. */
static struct pd_header *words_record(const u64 *w, size_t n, size_t extra_bytes)
{
	size_t size = 8 + n * 8 + extra_bytes;
	struct pd_header *h = calloc(1, size);

	h->type = PD_REC_SAMPLE;
	h->size = (u16)size;
	if (n)
		memcpy((u8 *)h + 8, w, n * 8);
	return h;
}

static void expect_parse_fail(u64 st, u64 rf, const u64 *w, size_t n, const char *what)
{
	struct pd_attr a = full_sample_attr(st, rf);
	struct pd_evsel e = fake_evsel(&a);
	struct pd_header *h = words_record(w, n, 0);
	struct pd_sample s;

	if (pd_parse_sample(&fake_file, &e, h, 0x40, &s) != -1)
		fail_msg("hostile %s parsed", what);
	free(h);
}

static void test_sample_hostile(void **state)
{
	/* counts whose byte size overflows to something small, and plain big */
	const u64 big[] = { 1ULL << 61, (u64)-1, (u64)-1 / 24 + 1, 0x5555555555555556ULL,
			    (u64)-1 / 8 + 1, 1000 };

	(void)state;
	error_set_quiet(2);
	for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
		u64 w[4] = { big[k], 1, 2, 3 };

		expect_parse_fail(PD_SAMPLE_CALLCHAIN, 0, w, 4, "callchain nr");
		expect_parse_fail(PD_SAMPLE_BRANCH_STACK, 0, w, 4, "branch nr");
		expect_parse_fail(PD_SAMPLE_READ, PD_FORMAT_GROUP | PD_FORMAT_ID | PD_FORMAT_LOST,
				  w, 4, "read group nr");
		expect_parse_fail(PD_SAMPLE_READ, PD_FORMAT_GROUP, w, 4, "read group nr");
		expect_parse_fail(PD_SAMPLE_STACK_USER, 0, w, 4, "stack size");
		expect_parse_fail(PD_SAMPLE_AUX, 0, w, 4, "aux size");
		/* branch with hw_idx: nr, hw_idx, entries */
		u64 wb[4] = { big[k], 0, 1, 2 };
		expect_parse_fail(PD_SAMPLE_BRANCH_STACK, 0, wb, 4, "branch nr after hw_idx");
	}
	/* RAW: u32 size past the end (size 0xffffffff, 9 with 4 left) */
	u64 raw1[2] = { 0xffffffffULL | 0xabcdULL << 32, 0 };
	expect_parse_fail(PD_SAMPLE_RAW, 0, raw1, 2, "raw size");
	u64 raw2[1] = { 9 };
	expect_parse_fail(PD_SAMPLE_RAW, 0, raw2, 1, "raw size");
	/* RAW with fewer than 4 bytes for the size */
	struct pd_attr a = full_sample_attr(PD_SAMPLE_RAW, 0);
	struct pd_evsel e = fake_evsel(&a);
	struct pd_sample s;
	for (size_t extra = 0; extra < 4; extra++) {
		struct pd_header *h = words_record(NULL, 0, extra);

		assert_int_equal(pd_parse_sample(&fake_file, &e, h, 0, &s), -1);
		free(h);
	}
	/* REGS_USER abi 2 with 3 registers in the mask, 2 present */
	u64 regs[3] = { 2, 0xa, 0xb };
	expect_parse_fail(PD_SAMPLE_REGS_USER, 0, regs, 3, "user regs");
	expect_parse_fail(PD_SAMPLE_REGS_INTR, 0, regs, 2, "intr regs");
	/* STACK_USER: size fits but dyn_size is missing */
	u64 stk[3] = { 16, 0, 0 };
	expect_parse_fail(PD_SAMPLE_STACK_USER, 0, stk, 3, "stack dyn_size");
	/* an empty SAMPLE for an attr with fields */
	expect_parse_fail(PD_SAMPLE_IP, 0, NULL, 0, "empty sample");
	error_set_quiet(0);
}

/* --------------------------------------------------------------- trailer --- */

static void test_trailer(void **state)
{
	u64 st = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID |
		 PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER | PD_SAMPLE_PERIOD;
	struct synth s;
	struct pd_attr a = mkattr(st, 1);
	struct pd_id_trailer want = { .pid = 5, .tid = 6, .time = 1234, .id = 55, .stream_id = 56,
				      .cpu = 7, .cpu_res = 0 }, t;
	struct pd_evsel e;
	struct pd_header *h;

	(void)state;
	synth_init(&s, 0);
	synth_attr(&s, &a, NULL, 0);
	synth_begin(&s, PD_REC_EXIT, 0);
	synth_u32(&s, 5); synth_u32(&s, 1); synth_u32(&s, 6); synth_u32(&s, 1);
	synth_u64(&s, 1234);
	synth_trailer(&s, 0, &want);
	synth_end(&s);
	h = malloc(synth_last(&s)->size);
	memcpy(h, synth_last(&s), synth_last(&s)->size);
	e = fake_evsel(&a);
	e.trailer_size = 6 * 8;
	assert_int_equal(h->size, 8 + 24 + 48);
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), 0);
	assert_int_equal(t.valid, 1);
	assert_int_equal(t.pid, 5);
	assert_int_equal(t.tid, 6);
	assert_int_equal(t.time, 1234);
	assert_int_equal(t.id, 55);
	assert_int_equal(t.stream_id, 56);
	assert_int_equal(t.cpu, 7);
	assert_int_equal(t.cpu_res, 0);

	/* too short for the trailer */
	error_set_quiet(2);
	h->size = 8 + 40;
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), -1);
	error_set_quiet(0);
	h->size = 8 + 24 + 48;

	/* a SAMPLE or user record has no trailer */
	h->type = PD_REC_SAMPLE;
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), 0);
	assert_int_equal(t.valid, 0);
	assert_int_equal(t.time, PD_NO_TIME);
	assert_int_equal(t.pid, (u32)-1);
	h->type = PD_REC_FINISHED_ROUND;
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), 0);
	assert_int_equal(t.valid, 0);

	/* no sample_id_all: no trailer */
	h->type = PD_REC_EXIT;
	e.attr.flags &= ~(1ULL << PD_ATTR_SAMPLE_ID_ALL);
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), 0);
	assert_int_equal(t.valid, 0);
	assert_int_equal(t.cpu, (u32)-1);

	/* only TIME and CPU */
	free(h);
	synth_free(&s);
	a = mkattr(PD_SAMPLE_TIME | PD_SAMPLE_CPU, 1);
	synth_init(&s, 0);
	synth_attr(&s, &a, NULL, 0);
	synth_comm(&s, 0, 1, 2, "abcdefghijklmno", 99, 0);
	h = synth_last(&s);
	e = fake_evsel(&a);
	e.trailer_size = 16;
	assert_int_equal(pd_parse_trailer(&fake_file, &e, h, &t), 0);
	assert_int_equal(t.valid, 1);
	assert_int_equal(t.time, 99);
	assert_int_equal(t.cpu, 1);
	assert_int_equal(t.pid, (u32)-1);
	assert_int_equal(t.id, 0);
	synth_free(&s);
}

/* ------------------------------------------------------------ pipe mode --- */

static const char tracing_blob[] = "\x17\x08\x44tracing0.6";	/* 14 bytes + NUL */
static const char pipe_host[] = "\x08\0\0\0pipehost";

/*
 * A stream as perf 6.1 writes one, plus the awkward parts: AUXTRACE data
 * bigger than the window, compressed records, more than 1 MiB of records.
 * Returns the number of SAMPLE records written.
 */
static u32 build_stream(struct synth *s, int flags)
{
	struct pd_attr a0 = mkattr(ST_BASIC, 1), a1 = mkattr(ST_BASIC, 1);
	u64 ids0[] = { 5, 6 }, ids1[] = { 7 };
	u32 n = 0;
	struct pd_sample v = { .ip = 1, .period = 1 };

	a1.config = 1;
	synth_init(s, flags);
	synth_attr(s, &a0, ids0, 2);
	synth_attr(s, &a1, ids1, 1);
	synth_feature(s, PD_FEAT_HOSTNAME, pipe_host, sizeof(pipe_host) - 1);
	synth_feature(s, PD_FEAT_PIPE_END_61, NULL, 0);
	synth_tracing_data(s, tracing_blob, sizeof(tracing_blob));
	synth_user(s, PD_REC_FINISHED_INIT, NULL, 0);
	synth_comm(s, 0, 1, 1, "init", 0, 0);
	v.id = 5; v.pid = 300; v.time = 300; synth_sample(s, 0, 0, &v); n++;
	v.id = 7; v.pid = 100; v.time = 100; synth_sample(s, 1, 0, &v); n++;
	synth_auxtrace(s, 3 << 20, 0xaa);
	v.id = 6; v.pid = 200; v.time = 200; synth_sample(s, 0, 0, &v); n++;
	synth_round(s);
	/* compressed: 150 and 250, the second split across two payloads */
	synth_compress_start(s);
	v.id = 5; v.pid = 250; v.time = 250; synth_sample(s, 0, 0, &v); n++;
	v.id = 7; v.pid = 150; v.time = 150; synth_sample(s, 1, 0, &v); n++;
	synth_compressed(s, s->plain.len - 13);
	synth_compressed(s, (size_t)-1);
	synth_compress_stop(s);
	synth_round(s);
	/* enough to slide the 1 MiB window a few times */
	for (u32 i = 0; i < 40000; i++) {
		v.id = i % 2 ? 5 : 7;
		v.pid = 1000 + i;
		v.time = 1000 + i;
		synth_sample(s, i % 2 ? 0 : 1, 0, &v);
		n++;
		if (i % 1000 == 999)
			synth_round(s);
	}
	synth_auxtrace(s, 24, 0xbb);
	v.pid = 99999; v.time = 99999; v.id = 6; synth_sample(s, 0, 0, &v); n++;
	return n;
}

/* What both the pipe and the file reading of build_stream() must show. */
static void check_stream(struct pd_file *f, struct cap *c, u32 nr_samples)
{
	u32 samples = 0;
	u64 last = 0;

	assert_int_equal(f->pipe_mode, 1);
	assert_int_equal(f->nr_evsel, 2);
	assert_int_equal(f->evsel[1].attr.config, 1);
	assert_ptr_equal(pd_evsel_by_id(f, 6), &f->evsel[0]);
	assert_ptr_equal(pd_evsel_by_id(f, 7), &f->evsel[1]);
	assert_int_equal(f->sample_id_all, 1);
	assert_int_equal(f->id_hdr_size, 32);
	assert_true(pd_has_feature(f, PD_FEAT_HOSTNAME));
	assert_false(pd_has_feature(f, PD_FEAT_PIPE_END_61));
	assert_int_equal(f->feat_size[PD_FEAT_HOSTNAME], sizeof(pipe_host) - 1);
	assert_memory_equal(f->feat_data[PD_FEAT_HOSTNAME], pipe_host, sizeof(pipe_host) - 1);
	assert_true(pd_has_feature(f, PD_FEAT_TRACING_DATA));
	/* the blob's size, or that padded to 8 */
	assert_true(f->feat_size[PD_FEAT_TRACING_DATA] == sizeof(tracing_blob) ||
		    f->feat_size[PD_FEAT_TRACING_DATA] == (sizeof(tracing_blob) + 7) / 8 * 8);
	assert_memory_equal(f->feat_data[PD_FEAT_TRACING_DATA], tracing_blob, sizeof(tracing_blob));

	/* user records first: 2 attrs, 2 features, tracing data, FINISHED_INIT */
	const u32 first[] = { 64, 64, 80, 80, 66, 82, 3 };
	for (int i = 0; i < 7; i++)
		assert_int_equal(c->r[i].type, first[i]);
	assert_int_equal(c->r[0].offset, 16);
	assert_int_equal(c->r[4].offset + 16 + 16, c->r[5].offset);	/* blob skipped */
	assert_int_equal(c->r[6].time, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct rec *r = &c->r[i];

		if (r->type != PD_REC_SAMPLE)
			continue;
		samples++;
		assert_true(r->time >= last);
		last = r->time;
		assert_int_equal(r->pid, r->time);
		assert_int_equal(r->evsel, (r->time == 100 || r->time == 150 ||
					    (r->time >= 1000 && r->time < 41000 && r->time % 2 == 0)) ? 1 : 0);
		assert_int_equal(r->compressed, r->time == 150 || r->time == 250);
	}
	assert_int_equal(samples, nr_samples);
	assert_int_equal(f->stats.nr_by_type[PD_REC_SAMPLE], nr_samples);
	assert_int_equal(f->stats.nr_by_type[PD_REC_AUXTRACE], 2);
	assert_int_equal(f->stats.nr_by_type[PD_REC_COMPRESSED], 2);
	assert_int_equal(f->stats.nr_out_of_order, 0);
}

/* Offsets of the records right after each AUXTRACE must skip its data. */
static void check_aux_offsets(const struct cap *c, const struct synth *s)
{
	int seen = 0;

	for (size_t i = 0; i < c->n; i++) {
		if (c->r[i].type != PD_REC_AUXTRACE)
			continue;
		u64 size = pd_get64(c->r[i].bytes + 8);
		u64 next = c->r[i].offset + c->r[i].size + size;

		/* the next record in the stream: find it among deliveries */
		int found = 0;
		for (size_t k = 0; k < c->n; k++)
			if (c->r[k].offset == next)
				found = 1;
		assert_true(found || next == s->data_offset + s->data.len);
		seen++;
	}
	assert_int_equal(seen, 2);
}

static void test_pipe_real(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	size_t len;
	u8 *img;
	int rfd, ret;
	pid_t pid;
	u32 n;

	(void)state;
	n = build_stream(&s, SYNTH_PIPE);
	img = synth_image(&s, &len);
	pid = open_pipe(img, len, &f, &rfd, &ret);
	assert_int_equal(ret, 0);
	assert_null(f.map);
	assert_int_equal(pd_process(&f, &capture_ops, &c), 0);
	check_stream(&f, &c, n);
	check_aux_offsets(&c, &s);
	for (size_t i = 0; i < c.n; i++)
		if (c.r[i].type == PD_REC_AUXTRACE)
			assert_int_equal(c.r[i].payload_size, 0);	/* streamed past */
	cap_free(&c);
	close_pipe(&f, pid, rfd);
	free(img);
	synth_free(&s);
}

static void test_pipe_file(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u32 n;
	int aux = 0;

	(void)state;
	n = build_stream(&s, SYNTH_PIPE);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_non_null(f.map);
	check_stream(&f, &c, n);
	check_aux_offsets(&c, &s);
	for (size_t i = 0; i < c.n; i++) {
		if (c.r[i].type != PD_REC_AUXTRACE)
			continue;
		assert_int_equal(c.r[i].payload_size, aux ? 24 : 3 << 20);
		assert_int_equal(c.r[i].payload_first, aux ? 0xbb : 0xaa);
		aux++;
	}
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* The pipe and file readings deliver the same records at the same offsets. */
static void test_pipe_same_as_file(void **state)
{
	struct synth s;
	struct pd_file f, p;
	struct cap cf = { 0 }, cp = { 0 };
	size_t len;
	u8 *img;
	int rfd, ret;
	pid_t pid;

	(void)state;
	build_stream(&s, SYNTH_PIPE);
	img = synth_image(&s, &len);
	assert_int_equal(open_bytes(img, len, &f, 0), 0);
	assert_int_equal(pd_process(&f, &capture_ops, &cf), 0);
	pid = open_pipe(img, len, &p, &rfd, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(pd_process(&p, &capture_ops, &cp), 0);
	assert_same_deliveries(&cf, &cp);
	assert_memory_equal(&f.stats, &p.stats, sizeof(f.stats));
	cap_free(&cf);
	cap_free(&cp);
	pd_close(&f);
	close_pipe(&p, pid, rfd);
	free(img);
	synth_free(&s);
}

/* A stream with attrs whose array grows while records are queued: the
 * queued records' evsel, and ids looked up before, must stay right; an id
 * unknown when first seen becomes known with its HEADER_ATTR. */
static void test_pipe_attr_after_queued(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	struct pd_attr a = mkattr(ST_BASIC, 1);
	u64 id0[] = { 1 }, id1[] = { 2 }, id2[] = { 3 }, id3[] = { 9 };
	struct pd_sample v = { .period = 1 };

	(void)state;
	synth_init(&s, SYNTH_PIPE);
	synth_attr(&s, &a, id0, 1);
	synth_attr(&s, &a, id1, 1);
	v.id = 1; v.time = 10; v.pid = 1; synth_sample(&s, 0, 0, &v);	/* queued */
	v.id = 2; v.time = 11; v.pid = 2; synth_sample(&s, 1, 0, &v);
	v.id = 9; v.time = 12; v.pid = 3; synth_sample(&s, 1, 0, &v);	/* unknown yet */
	synth_attr(&s, &a, id2, 1);		/* 3rd attr: the array moves */
	synth_attr(&s, &a, id3, 1);
	v.id = 2; v.time = 13; v.pid = 4; synth_sample(&s, 1, 0, &v);
	v.id = 9; v.time = 14; v.pid = 5; synth_sample(&s, 3, 0, &v);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(64, 0), EV(64, 0), EV(64, 0), EV(64, 0),
		EV(9, 1), EV(9, 2), EV(9, 4), EV(9, 5),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	const int want_evsel[] = { 0, 1, 1, 3 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(c.r[4 + i].evsel, want_evsel[i]);
	assert_int_equal(f.stats.nr_unknown_id, 1);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

/* ----------------------------------------------------------- compressed --- */

static void test_compressed(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u64 comm, c1, fr, c2, plain_total;

	(void)state;
	order_init(&s, 0, 1);
	comm = synth_comm(&s, 0, 1, 1, "top", 0, 1);
	synth_compress_start(&s);
	synth_tsample(&s, 0, 30, 30);
	synth_tsample(&s, 0, 10, 10);
	synth_tsample(&s, 0, 20, 20);
	plain_total = s.plain.len;
	c1 = synth_compressed(&s, s.plain.len - 20);	/* cuts the t=20 record */
	synth_compress_stop(&s);
	fr = synth_round(&s);
	synth_compress_start(&s);
	synth_comm(&s, 0, 2, 2, "in", 0, 1);		/* time 0: at once */
	synth_tsample(&s, 0, 40, 40);
	plain_total += s.plain.len - 20;
	c2 = synth_compressed(&s, (size_t)-1);
	synth_compress_stop(&s);
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	const u64 want[] = {
		EV(3, 1), EV(81, 0), EV(68, 0), EV(81, 0), EV(3, 2),
		EV(9, 10), EV(9, 20), EV(9, 30), EV(9, 40),
	};
	assert_seq(&c, want, sizeof(want) / sizeof(want[0]));
	const u64 offs[] = { comm, c1, fr, c2, c2, c1, c2, c1, c2 };
	const int comp[] = { 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	for (int i = 0; i < 9; i++) {
		assert_int_equal(c.r[i].offset, offs[i]);
		assert_int_equal(c.r[i].compressed, comp[i]);
	}
	assert_int_equal(f.stats.decompressed_bytes, plain_total);
	assert_int_equal(f.stats.nr_by_type[PD_REC_SAMPLE], 4);
	assert_int_equal(f.stats.nr_events, 2 + 1 + 2 + 4);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static void test_compressed_bad(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	static const u8 junk[] = "this is not zstd data at all";

	(void)state;
	error_set_quiet(2);
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 10, 1);
	synth_user(&s, PD_REC_COMPRESSED, junk, sizeof(junk));
	assert_int_equal(run_synth(&s, &f, &c, 0), -1);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);

	/* a compressed record of size 0 inside the stream */
	order_init(&s, 0, 1);
	synth_compress_start(&s);
	u8 zero[8] = { 9, 0, 0, 0, 0, 0, 0, 0 };
	synth_raw(&s, zero, sizeof(zero));
	synth_compressed(&s, (size_t)-1);
	assert_int_equal(run_synth(&s, &f, &c, 0), -1);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);

	/* a COMPRESSED record inside compressed data */
	order_init(&s, 0, 1);
	synth_compress_start(&s);
	synth_user(&s, PD_REC_COMPRESSED, junk, 8);
	synth_compressed(&s, (size_t)-1);
	assert_int_equal(run_synth(&s, &f, &c, 0), -1);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
	error_set_quiet(0);
}

/* ------------------------------------------------------------ big files --- */

/*
 * A file-mode file with more than 8 MiB of data, so the reader maps pages in
 * ahead of its scan and gives them back behind it several times: 200
 * overlapping rounds of 1000 samples of two attrs, COMMs, compressed blocks
 * split across payloads, an AUXTRACE, user records and one out-of-order
 * sample.
 */
static void build_big(struct synth *s, int flags)
{
	struct pd_attr a0 = mkattr(ST_IDENT, 1), a1 = mkattr(ST_IDENT, 1);
	u64 ids0[] = { 1, 2 }, ids1[] = { 3 };
	struct pd_sample v = { .ip = 0x400000, .period = 1, .cpu = 1 };
	static const u8 empty[8];

	a1.config = 1;
	synth_init(s, flags);
	synth_attr(s, &a0, ids0, 2);
	synth_attr(s, &a1, ids1, 1);
	synth_feature(s, PD_FEAT_HOSTNAME, pipe_host, 8);
	synth_comm(s, 0, 1, 1, "init", 0, 1);
	for (u32 r = 0; r < 200; r++) {
		for (u32 i = 0; i < 1000; i++) {
			v.time = 1 + (u64)r * 1000 + (u64)((i * 7919) % 2000);
			v.pid = v.tid = (u32)v.time;
			v.id = i % 3 ? 1 + i % 2 : 3;
			synth_sample(s, i % 3 ? 0 : 1, 0, &v);
		}
		if (r % 50 == 10) {
			synth_compress_start(s);
			for (u32 i = 0; i < 200; i++) {
				v.time = (u64)r * 1000 + 1000 + i;
				v.pid = v.tid = (u32)v.time;
				v.id = 2;
				synth_sample(s, 0, 0, &v);
			}
			synth_comm(s, 1, 7, 7, "compressed", (u64)r * 1000 + 1500, 3);
			synth_compressed(s, s->plain.len / 3 + 5);
			synth_compressed(s, (size_t)-1);
			synth_compress_stop(s);
		}
		if (r == 100)
			synth_auxtrace(s, 65536, 0xcc);
		if (r == 150) {
			v.time = 5;		/* far too old */
			v.pid = v.tid = 5;
			v.id = 1;
			synth_sample(s, 0, 0, &v);
		}
		if (r % 7 == 0)
			synth_comm(s, 0, r, r, "round", (u64)r * 1000 + 1500, 2);
		synth_user(s, PD_REC_TIME_CONV, empty, sizeof(empty));
		synth_round(s);
	}
}

/* A big file is delivered whole, in order, with every record intact. */
static void test_big_file(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	u64 last = 0;
	size_t samples = 0;

	(void)state;
	build_big(&s, 0);
	assert_true(s.data.len >= (9 << 20));
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	assert_int_equal(f.stats.nr_out_of_order, 1);
	for (size_t i = 0; i < c.n; i++) {
		const struct rec *r = &c.r[i];

		if (r->type != PD_REC_SAMPLE)
			continue;
		samples++;
		assert_int_equal(r->pid, r->time);
		assert_int_equal(r->evsel, pd_get64(r->bytes + 8) == 3);
		if (r->time == 5)
			continue;	/* the out-of-order one */
		assert_true(r->time >= last);
		last = r->time;
	}
	assert_int_equal(samples, 200 * 1000 + 4 * 200 + 1);
	assert_int_equal(f.evsel[0].nr_samples + f.evsel[1].nr_samples, samples);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

static int stop_at(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	size_t *n = ctx;

	(void)f;
	(void)ev;
	return --*n == 0 ? 7 : 0;
}

/* A callback's stop ends a run at once. */
static void test_big_stop(void **state)
{
	struct synth s;
	struct pd_file f;
	struct pd_ops ops = { stop_at };
	size_t n = 100000;

	(void)state;
	build_big(&s, 0);
	assert_int_equal(open_synth(&s, &f, 0), 0);
	assert_int_equal(pd_process(&f, &ops, &n), 7);
	assert_int_equal(n, 0);
	pd_close(&f);
	synth_free(&s);
}

/* A bad record late in a big file fails, ordered or not. */
static void test_big_error(void **state)
{
	static const int flags[] = { 0, PD_UNORDERED };
	struct synth s;
	size_t len;
	u8 *img;
	u64 off;

	(void)state;
	build_big(&s, 0);
	off = synth_tsample(&s, 0, 300000, 1);
	synth_tsample(&s, 0, 300001, 2);
	img = synth_image(&s, &len);
	memset(img + off + 6, 0, 2);
	error_set_quiet(2);
	for (int k = 0; k < 2; k++) {
		struct pd_file f;
		struct cap c = { 0 };

		assert_int_equal(open_bytes(img, len, &f, flags[k]), 0);
		assert_int_equal(pd_process(&f, &capture_ops, &c), -1);
		cap_free(&c);
		pd_close(&f);
	}
	error_set_quiet(0);
	free(img);
	synth_free(&s);
}

/* A big byte-swapped file reads as the native one. */
static void test_big_swapped(void **state)
{
	struct synth sn, ss;
	struct pd_file fn, fs;
	struct cap cn = { 0 }, cs = { 0 };

	(void)state;
	build_big(&sn, 0);
	build_big(&ss, SYNTH_SWAP);
	assert_int_equal(run_synth(&sn, &fn, &cn, 0), 0);
	assert_int_equal(run_synth(&ss, &fs, &cs, 0), 0);
	assert_int_equal(fs.needs_swap, 1);
	assert_int_equal(cn.n, cs.n);
	for (size_t i = 0; i < cn.n; i++) {
		const struct rec *a = &cn.r[i], *b = &cs.r[i];

		assert_int_equal(a->type, b->type);
		assert_int_equal(a->time, b->time);
		assert_int_equal(a->evsel, b->evsel);
		if (a->type == PD_REC_COMPRESSED)
			continue;	/* compressed sizes, and so offsets after, differ */
		assert_int_equal(a->size, b->size);
		if (memcmp(a->bytes, b->bytes, a->size))
			fail_msg("record %zu (type %u) differs after swapping", i, a->type);
	}
	assert_int_equal(fn.stats.nr_out_of_order, fs.stats.nr_out_of_order);
	assert_int_equal(fn.stats.nr_events, fs.stats.nr_events);
	cap_free(&cn);
	cap_free(&cs);
	pd_close(&fn);
	pd_close(&fs);
	synth_free(&sn);
	synth_free(&ss);
}

/* ------------------------------------------------------------- swapping --- */

/* A file with every kind of content, native or as a big-endian writer. */
static void build_mixed(struct synth *s, int flags)
{
	u64 rf = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID |
		 PD_FORMAT_LOST;
	struct pd_attr a0 = full_sample_attr(ST_ALL, rf), a1 = full_sample_attr(ST_ALL, rf);
	struct pd_attr a2 = full_sample_attr(ST_ALL, rf | PD_FORMAT_GROUP);
	u64 ids0[] = { 77, 78 }, ids1[] = { 88 }, ids2[] = { 99 };
	struct pd_sample v = full_values();

	a0.flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL | 3ULL << PD_ATTR_PRECISE_IP |
		    1ULL << PD_ATTR_SIGTRAP;
	a0.clockid = -5;
	a0.sample_max_stack = 127;
	a0.config3 = 0x0102030405060708ULL;
	a0.size = 136;
	a1.size = 136;
	a1.config = 1;
	a2.size = 136;
	synth_init(s, flags);
	synth_attr(s, &a0, ids0, 2);
	synth_attr(s, &a1, ids1, 1);
	synth_attr(s, &a2, ids2, 1);
	if (!s->pipe)
		synth_feature(s, PD_FEAT_HOSTNAME, pipe_host, sizeof(pipe_host) - 1);
	synth_comm(s, 0, 1, 2, "comm-name-x", 5, 77);
	synth_begin(s, PD_REC_MMAP2, 2);
	synth_u32(s, 1); synth_u32(s, 2);
	synth_u64(s, 0x400000); synth_u64(s, 0x1000); synth_u64(s, 0);
	synth_u32(s, 8); synth_u32(s, 1); synth_u64(s, 1234); synth_u64(s, 1);
	synth_u32(s, 5); synth_u32(s, 2);
	synth_str(s, "/bin/true");
	struct pd_id_trailer t = { .pid = 1, .tid = 2, .time = 6, .id = 88, .cpu = 3 };
	synth_trailer(s, 1, &t);
	synth_end(s);
	synth_begin(s, PD_REC_LOST, 0);
	synth_u64(s, 77); synth_u64(s, 12);
	t.time = 7; t.id = 77;
	synth_trailer(s, 0, &t);
	synth_end(s);
	v.id = 77; v.time = 50; synth_sample(s, 0, 0, &v);
	v.id = 88; v.time = 40; synth_sample(s, 1, 0, &v);
	v.id = 99; v.time = 45; v.read.nr = 3; v.read.values = (const u8 *)group_vals;
	synth_sample(s, 2, 0, &v);
	v.read.nr = 1;
	synth_round(s);
	synth_begin(s, PD_REC_THREAD_MAP, 0);
	synth_u64(s, 1);
	synth_u64(s, 4242);
	synth_bytes(s, "worker\0\0\0\0\0\0\0\0\0", 16);
	synth_end(s);
	synth_begin(s, PD_REC_EXIT, 0);
	synth_u32(s, 1); synth_u32(s, 1); synth_u32(s, 2); synth_u32(s, 2); synth_u64(s, 70);
	t.time = 70; t.id = 99;
	synth_trailer(s, 2, &t);
	synth_end(s);
	/* compressed sizes differ between byte orders: keep this last */
	synth_compress_start(s);
	v.id = 78; v.time = 60; v.regs_user_abi = 0; v.stack_user_size = 0;
	synth_sample(s, 0, 0, &v);
	synth_comm(s, 1, 3, 3, "zzz", 55, 88);
	synth_compressed(s, s->plain.len / 2);
	synth_compressed(s, (size_t)-1);
	synth_compress_stop(s);
}

static void compare_native_swapped(int flags)
{
	struct synth sn, ss;
	struct pd_file fn, fs;
	struct cap cn = { 0 }, cs = { 0 };

	build_mixed(&sn, flags);
	build_mixed(&ss, flags | SYNTH_SWAP);
	assert_int_equal(run_synth(&sn, &fn, &cn, 0), 0);
	assert_int_equal(run_synth(&ss, &fs, &cs, 0), 0);
	assert_int_equal(fn.needs_swap, 0);
	assert_int_equal(fs.needs_swap, 1);
	assert_int_equal(fn.data_offset, fs.data_offset);
	assert_memory_equal(fn.features, fs.features, sizeof(fn.features));
	assert_int_equal(fn.nr_evsel, 3);
	assert_int_equal(fs.nr_evsel, 3);
	for (u32 i = 0; i < 3; i++) {
		if (memcmp(&fn.evsel[i].attr, &fs.evsel[i].attr, sizeof(struct pd_attr)))
			fail_msg("attr %u differs after swapping", i);
		assert_int_equal(fn.evsel[i].nr_ids, fs.evsel[i].nr_ids);
		assert_memory_equal(fn.evsel[i].ids, fs.evsel[i].ids, fn.evsel[i].nr_ids * 8);
		assert_int_equal(fn.evsel[i].trailer_size, fs.evsel[i].trailer_size);
	}
	assert_int_equal(fs.evsel[0].attr.clockid, -5);
	assert_int_equal(PD_ATTR_PRECISE(&fs.evsel[0].attr), 3);
	assert_true(PD_ATTR_FLAG(&fs.evsel[0].attr, PD_ATTR_SIGTRAP));
	assert_true(PD_ATTR_FLAG(&fs.evsel[0].attr, PD_ATTR_EXCLUDE_KERNEL));
	if (!(flags & SYNTH_PIPE)) {
		assert_true(pd_has_feature(&fs, PD_FEAT_HOSTNAME));
		assert_memory_equal(fn.feat_data[PD_FEAT_HOSTNAME], fs.feat_data[PD_FEAT_HOSTNAME],
				    fn.feat_size[PD_FEAT_HOSTNAME]);
	}
	assert_int_equal(cn.n, cs.n);
	assert_true(cn.n >= 12);
	for (size_t i = 0; i < cn.n; i++) {
		const struct rec *a = &cn.r[i], *b = &cs.r[i];

		assert_int_equal(a->type, b->type);
		assert_int_equal(a->misc, b->misc);
		if (a->type != PD_REC_COMPRESSED)
			assert_int_equal(a->size, b->size);
		/* records up to the first COMPRESSED are at the same offsets */
		if (a->type != PD_REC_COMPRESSED && !a->compressed)
			assert_int_equal(a->offset, b->offset);
		assert_int_equal(a->time, b->time);
		assert_int_equal(a->evsel, b->evsel);
		assert_int_equal(a->compressed, b->compressed);
		/* attrs, compressed bytes and features stay in file order */
		if (a->type == PD_REC_HEADER_ATTR || a->type == PD_REC_COMPRESSED)
			continue;
		if (memcmp(a->bytes, b->bytes, a->size))
			fail_msg("record %zu (type %u) differs after swapping", i, a->type);
		if (a->type == PD_REC_SAMPLE) {
			struct pd_sample x, y;
			const struct pd_evsel *e = &fs.evsel[b->evsel];

			assert_int_equal(pd_parse_sample(&fn, &fn.evsel[a->evsel],
							 (struct pd_header *)a->bytes, 0, &x), 0);
			assert_int_equal(pd_parse_sample(&fs, e, (struct pd_header *)b->bytes, 0, &y), 0);
			assert_sample_eq(&e->attr, &x, &y);
		}
	}
	assert_memory_equal(&fn.stats, &fs.stats, sizeof(fn.stats));
	assert_int_equal(fs.stats.total_lost, 12);
	cap_free(&cn);
	cap_free(&cs);
	pd_close(&fn);
	pd_close(&fs);
	synth_free(&sn);
	synth_free(&ss);
}

static void test_swapped_file(void **state) { (void)state; compare_native_swapped(0); }
static void test_swapped_pipe(void **state) { (void)state; compare_native_swapped(SYNTH_PIPE); }

/* Two attrs whose trailers differ before the IDENTIFIER: the swap must use
 * the layout of the record's own attr. */
static void test_swapped_trailer_layouts(void **state)
{
	struct pd_attr a0 = mkattr(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_TID | PD_SAMPLE_TIME, 1);
	struct pd_attr a1 = mkattr(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_TIME, 1);
	u64 id0[] = { 1 }, id1[] = { 2 };
	struct cap c[2] = { { 0 }, { 0 } };
	struct pd_file f[2];
	struct synth s[2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		synth_init(&s[k], k ? SYNTH_SWAP : 0);
		synth_attr(&s[k], &a0, id0, 1);
		synth_attr(&s[k], &a1, id1, 1);
		synth_feature(&s[k], PD_FEAT_HOSTNAME, pipe_host, 8);
		synth_comm(&s[k], 1, 4, 4, "abcdefghijk", 9, 2);
		assert_int_equal(run_synth(&s[k], &f[k], &c[k], 0), 0);
	}
	assert_int_equal(c[0].n, 1);
	assert_int_equal(c[1].n, 1);
	assert_int_equal(c[1].r[0].time, 9);
	assert_string_equal((const char *)c[1].r[0].bytes + 16, "abcdefghijk");
	assert_memory_equal(c[0].r[0].bytes, c[1].r[0].bytes, c[0].r[0].size);
	for (int k = 0; k < 2; k++) {
		cap_free(&c[k]);
		pd_close(&f[k]);
		synth_free(&s[k]);
	}
}

/* A swapped file with no HOSTNAME bit: perf's guess is "BUILD_ID only". */
static void test_swapped_feature_guess(void **state)
{
	struct synth s;
	struct pd_file f;
	static const u8 payload[8] = { 1 };

	(void)state;
	order_init(&s, SYNTH_SWAP, 1);
	synth_feature(&s, PD_FEAT_OSRELEASE, payload, sizeof(payload));
	synth_tsample(&s, 0, 1, 1);
	assert_int_equal(open_synth(&s, &f, 0), 0);
	assert_int_equal(f.features[0], 1ULL << PD_FEAT_BUILD_ID);
	assert_int_equal(f.features[1] | f.features[2] | f.features[3], 0);
	pd_close(&f);
	synth_free(&s);
}

/* --------------------------------------------------------------- errors --- */

/* A small valid file image. */
static u8 *small_image(size_t *len, u64 *rec_off)
{
	struct synth s;
	u8 *img;

	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 10, 1);
	*rec_off = synth_tsample(&s, 0, 20, 2);
	synth_tsample(&s, 0, 30, 3);
	img = synth_image(&s, len);
	synth_free(&s);
	return img;
}

static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

/* pd_open() then pd_process() on the bytes; returns the first failure. */
static int open_and_process(const u8 *img, size_t len)
{
	struct pd_file f;
	struct cap c = { 0 };
	int ret = open_bytes(img, len, &f, 0);

	if (!ret)
		ret = pd_process(&f, &capture_ops, &c);
	cap_free(&c);
	pd_close(&f);
	return ret;
}

static void test_errors(void **state)
{
	size_t len;
	u64 rec;
	u8 *img = small_image(&len, &rec), *bad = malloc(len);
	u16 sz;

	(void)state;
	error_set_quiet(2);
	assert_int_equal(open_and_process(img, len), 0);

	/* truncated header: 50 and 90 bytes */
	assert_int_equal(open_and_process(img, 50), -1);
	assert_int_equal(open_and_process(img, 90), -1);
	assert_int_equal(open_and_process(img, 8), -1);
	/* bad magic */
	memcpy(bad, img, len);
	bad[0] = 'X';
	assert_int_equal(open_and_process(bad, len), -1);
	/* header size neither 104 nor 72 */
	memcpy(bad, img, len);
	put64(bad + 8, 100);
	assert_int_equal(open_and_process(bad, len), -1);
	/* attr section past EOF */
	memcpy(bad, img, len);
	put64(bad + 32, 144 * 1000);
	assert_int_equal(open_and_process(bad, len), -1);
	memcpy(bad, img, len);
	put64(bad + 24, (u64)-8);
	assert_int_equal(open_and_process(bad, len), -1);
	/* attr_size too small and 0 */
	memcpy(bad, img, len);
	put64(bad + 16, 0);
	assert_int_equal(open_and_process(bad, len), -1);
	memcpy(bad, img, len);
	put64(bad + 16, 40);
	assert_int_equal(open_and_process(bad, len), -1);
	/* attr.size bigger than the entry */
	memcpy(bad, img, len);
	bad[104 + 4] = 200;
	assert_int_equal(open_and_process(bad, len), -1);
	/* id array past EOF */
	memcpy(bad, img, len);
	put64(bad + 104 + 128 + 8, 1 << 20);
	assert_int_equal(open_and_process(bad, len), -1);
	/* data section past EOF, data offset past EOF */
	memcpy(bad, img, len);
	put64(bad + 48, len);
	assert_int_equal(open_and_process(bad, len), -1);
	memcpy(bad, img, len);
	put64(bad + 40, len + 8);
	assert_int_equal(open_and_process(bad, len), -1);
	/* record size 0, 4 */
	memcpy(bad, img, len);
	memset(bad + rec + 6, 0, 2);
	assert_int_equal(open_and_process(bad, len), -1);
	sz = 4;
	memcpy(bad + rec + 6, &sz, 2);
	assert_int_equal(open_and_process(bad, len), -1);
	/* record past the data end */
	memcpy(bad, img, len);
	sz = (u16)(len - rec + 8);
	memcpy(bad + rec + 6, &sz, 2);
	assert_int_equal(open_and_process(bad, len), -1);
	/* data ends inside the last record */
	memcpy(bad, img, len);
	put64(bad + 48, pd_get64(img + 48) - 4);
	assert_int_equal(open_and_process(bad, len), -1);
	/* a directory */
	struct pd_file f;
	assert_int_equal(pd_open(&f, "/tmp", 0), -1);
	pd_close(&f);
	assert_int_equal(pd_open(&f, "/nonexistent/perf.data", 0), -1);
	pd_close(&f);
	error_set_quiet(0);
	free(bad);
	free(img);
}

static void test_errors_pipe(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };
	size_t len;
	u8 *img;
	int rfd, ret;
	pid_t pid;
	u64 off;

	(void)state;
	error_set_quiet(2);
	order_init(&s, SYNTH_PIPE, 1);
	synth_tsample(&s, 0, 10, 1);
	off = synth_tsample(&s, 0, 20, 2);
	img = synth_image(&s, &len);
	memset(img + off + 6, 0, 2);		/* record size 0 */
	pid = open_pipe(img, len, &f, &rfd, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(pd_process(&f, &capture_ops, &c), -1);
	cap_free(&c);
	close_pipe(&f, pid, rfd);
	/* the same as a file */
	assert_int_equal(open_and_process(img, len), -1);
	/* a stream cut in the middle of a record: a warning, not an error */
	memcpy(img + off + 6, &(u16){ 56 }, 2);
	pid = open_pipe(img, len - 10, &f, &rfd, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(pd_process(&f, &capture_ops, &c), 0);
	assert_int_equal(c.n, 2);		/* HEADER_ATTR, the first sample */
	assert_int_equal(c.r[1].type, PD_REC_SAMPLE);
	cap_free(&c);
	close_pipe(&f, pid, rfd);
	/* a stream shorter than its header; a file header through a pipe */
	pid = open_pipe(img, 10, &f, &rfd, &ret);
	assert_int_equal(ret, -1);
	close_pipe(&f, pid, rfd);
	free(img);
	synth_free(&s);
	order_init(&s, 0, 1);
	img = synth_image(&s, &len);
	pid = open_pipe(img, len, &f, &rfd, &ret);
	assert_int_equal(ret, -1);
	close_pipe(&f, pid, rfd);
	free(img);
	synth_free(&s);
	error_set_quiet(0);
}

static void test_data_size_zero(void **state)
{
	struct synth s;
	struct pd_file f;
	struct cap c = { 0 };

	(void)state;
	order_init(&s, 0, 1);
	synth_tsample(&s, 0, 20, 1);
	synth_tsample(&s, 0, 10, 2);
	s.data_size_zero = 1;
	error_set_quiet(1);	/* the warning is expected */
	assert_int_equal(run_synth(&s, &f, &c, 0), 0);
	error_set_quiet(0);
	assert_int_equal(f.data_size_was_zero, 1);
	assert_int_equal(f.data_size, s.data.len);
	const u64 want[] = { EV(9, 2), EV(9, 1) };
	assert_seq(&c, want, 2);
	cap_free(&c);
	pd_close(&f);
	synth_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_header),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_attr_size_zero),
		cmocka_unit_test(test_ids_sample_id),
		cmocka_unit_test(test_ids_identifier),
		cmocka_unit_test(test_ids_many),
		cmocka_unit_test(test_read_values),
		cmocka_unit_test(test_order_rounds),
		cmocka_unit_test(test_order_equal_times),
		cmocka_unit_test(test_order_immediate),
		cmocka_unit_test(test_order_no_time),
		cmocka_unit_test(test_order_out_of_order),
		cmocka_unit_test(test_order_limit_after_drain),
		cmocka_unit_test(test_order_many),
		cmocka_unit_test(test_order_unordered_flag),
		cmocka_unit_test(test_order_no_sample_id_all),
		cmocka_unit_test(test_callback_stop),
		cmocka_unit_test(test_sample_all_fields),
		cmocka_unit_test(test_sample_each_bit),
		cmocka_unit_test(test_sample_head),
		cmocka_unit_test(test_sample_read_formats),
		cmocka_unit_test(test_sample_stack_dyn_size),
		cmocka_unit_test(test_sample_hostile),
		cmocka_unit_test(test_trailer),
		cmocka_unit_test(test_pipe_real),
		cmocka_unit_test(test_pipe_file),
		cmocka_unit_test(test_pipe_same_as_file),
		cmocka_unit_test(test_pipe_attr_after_queued),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_bad),
		cmocka_unit_test(test_big_file),
		cmocka_unit_test(test_big_stop),
		cmocka_unit_test(test_big_error),
		cmocka_unit_test(test_big_swapped),
		cmocka_unit_test(test_swapped_file),
		cmocka_unit_test(test_swapped_pipe),
		cmocka_unit_test(test_swapped_trailer_layouts),
		cmocka_unit_test(test_swapped_feature_guess),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_errors_pipe),
		cmocka_unit_test(test_data_size_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
