/*
 * fuzz_reader.c - libFuzzer target for the perf.data reader.
 *
 * Each input is written to a memfd and read as a file (mmap path):
 * pd_open(), then (if it succeeded) pd_process() with a callback that
 * decodes every SAMPLE with pd_parse_sample() (and pd_parse_sample_head(),
 * which must agree) and the sample_id trailer of every other kernel record
 * with pd_parse_trailer(), then pd_close(), which
 * also releases what a failed pd_open() allocated.  Inputs in pipe format
 * that fit in a pipe are read a second time through stdin (chunked read
 * path).
 *
 * Every byte range the reader hands out (records, sample fields, feature
 * payloads, evsel names) is read in full, so AddressSanitizer catches a
 * range that does not lie in memory the reader owns.  The reader must
 * never crash, exit (die) or hang on any input; errors are silenced with
 * error_set_quiet(2).
 */
#include "../src/format/reader.h"
#include "../src/util/error.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile u64 sink;

/* Reads n bytes at p so that ASan checks the whole range. */
static void touch(const void *p, u64 n)
{
	const u8 *b = p;
	u64 sum = 0;

	if (!p)
		return;
	for (u64 i = 0; i < n; i++)
		sum += b[i];
	sink += sum;
}

static void touch_sample(const struct pd_sample *s)
{
	touch(s->read.values, s->read.nr * s->read.value_words * 8);
	touch(s->callchain, s->callchain_nr * 8);
	touch(s->raw, s->raw_size);
	touch(s->branch, s->branch_nr * 24);
	if (s->regs_user_abi)
		touch(s->regs_user, 8 * (u64)__builtin_popcountll(s->regs_user_mask));
	touch(s->stack_user, s->stack_user_size);
	if (s->regs_intr_abi)
		touch(s->regs_intr, 8 * (u64)__builtin_popcountll(s->regs_intr_mask));
	touch(s->aux, s->aux_size);
}

static int on_record(void *ctx, struct pd_file *f, const struct pd_event *ev)
{
	(void)ctx;
	touch(ev->hdr, ev->hdr->size);
	touch(ev->payload, ev->payload_size);
	if (!ev->evsel || ev->hdr->type >= PD_REC_USER_START)
		return 0;
	if (ev->hdr->type == PD_REC_SAMPLE) {
		struct pd_sample s, h;
		int ret = pd_parse_sample(f, ev->evsel, ev->hdr, ev->file_offset, &s);

		if (!ret)
			touch_sample(&s);
		/* the head parse agrees with the whole one */
		if (pd_parse_sample_head(f, ev->evsel, ev->hdr, ev->file_offset, &h) != ret ||
		    (!ret && (h.ip != s.ip || h.pid != s.pid || h.tid != s.tid || h.time != s.time ||
			      h.cpu != s.cpu || h.period != s.period || h.id != s.id ||
			      h.callchain != s.callchain || h.callchain_nr != s.callchain_nr)))
			abort();
	} else {
		struct pd_id_trailer t;

		pd_parse_trailer(f, ev->evsel, ev->hdr, &t);
	}
	return 0;
}

/* Reads the open file f as prof would, checking what it hands out. */
static void read_all(struct pd_file *f)
{
	static const struct pd_ops ops = { .record = on_record };

	for (unsigned feat = 0; feat < PD_FEAT_BITS; feat++) {
		sink += pd_has_feature(f, feat);
		touch(f->feat_data[feat], f->feat_size[feat]);
	}
	for (u32 i = 0; i < f->nr_evsel; i++) {
		touch(f->evsel[i].ids, f->evsel[i].nr_ids * sizeof(u64));
		if (f->evsel[i].name)
			touch(f->evsel[i].name, strlen(f->evsel[i].name));
	}
	pd_process(f, &ops, NULL);
}

static int memfd = -1;
static char memfd_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	error_set_prefix("fuzz_reader");
	error_set_quiet(2);
	memfd = memfd_create("fuzz_reader", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* Writes all of data to fd; returns 0 or -1. */
static int write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			return -1;
		data += n;
		size -= (size_t)n;
	}
	return 0;
}

/* Feeds data to the reader through a pipe on stdin, if it fits. */
static void read_as_pipe(const uint8_t *data, size_t size)
{
	int fds[2], saved_stdin;
	struct pd_file f;

	if (pipe(fds))
		return;
	if (fcntl(fds[1], F_SETPIPE_SZ, (int)size) < (int)size ||
	    write_all(fds[1], data, size)) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[1]);
	saved_stdin = dup(0);
	dup2(fds[0], 0);
	close(fds[0]);
	if (!pd_open(&f, "-", 0))
		read_all(&f);
	pd_close(&f);
	dup2(saved_stdin, 0);
	close(saved_stdin);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_file f;

	if (ftruncate(memfd, 0) || lseek(memfd, 0, SEEK_SET) ||
	    write_all(memfd, data, size))
		abort();
	if (!pd_open(&f, memfd_path, 0))
		read_all(&f);
	pd_close(&f);
	/* pipe format: {magic, u64 16}; both byte orders */
	if (size >= 16 && size <= (1u << 20) &&
	    (pd_get64(data + 8) == 16 || pd_get64(data + 8) == (16ULL << 56)))
		read_as_pipe(data, size);
	return 0;
}
