/*
 * sink.c - the output of prof record and its counts (see sink.h).
 *
 * Invariant: nr_records counts every record written, whether it came from
 * a ring, from /proc or from prof, compressed or not, so the summary's
 * event count is the one perf report --stats gives.
 */
#include "sink.h"
#include "compress.h"
#include "dsos.h"

#include <stdlib.h>

void sink_put(struct record_sink *s, const void *rec, size_t size)
{
	pw_write(&s->out, rec, size);
	s->nr_records++;
}

void sink_synth(void *arg, const void *rec, size_t size)
{
	struct record_sink *s = arg;

	pw_write(&s->out, rec, size);
	record_dsos_add(s->dsos, rec);
	s->nr_records++;
}

/* A ring's record on its way: counts the samples, notes their times,
 * follows the sampled DSOs. */
static void note_record(void *arg, const struct pd_header *h)
{
	struct record_sink *s = arg;

	if (h->type == PD_REC_SAMPLE && h->size >= s->time_offset + 8) {
		u64 t = pd_get64((const u8 *)h + s->time_offset);

		if (!s->nr_samples++)
			s->first_time = t;
		s->last_time = t;
	} else if (h->type == PD_REC_LOST) {
		s->nr_lost_records++;
		if (h->size >= 24)
			s->nr_lost_in_ring += pd_get64((const u8 *)h + 16);
	}
	s->nr_records++;
	record_dsos_add(s->dsos, h);
}

/* A COMPRESSED record made by record_zstd, to the file. */
static void put_packed(void *arg, const void *rec, size_t size)
{
	struct record_sink *s = arg;

	pw_write(&s->out, rec, size);
}

/* Ring bytes to the file, through zstd with -z. */
static void put_ring_bytes(void *arg, const void *p, size_t len)
{
	struct record_sink *s = arg;

	if (!s->zstd) {
		pw_write(&s->out, p, len);
		return;
	}
	s->bytes_raw += len;
	s->bytes_packed += record_zstd_compress(s->zstd, p, len, put_packed, s);
}

void sink_drain(struct record_sink *s, struct ring *rings, int nr)
{
	struct ring_reader rd = { note_record, put_ring_bytes, s, s->whole };
	u64 moved = 0;

	for (int c = 0; c < nr; c++)
		moved += ring_read(&rings[c], &rd);
	if (moved) {
		struct pd_header round = { PD_REC_FINISHED_ROUND, 0, sizeof(round) };

		sink_put(s, &round, sizeof(round));
		pw_commit(&s->out);
	}
}

void sink_add_build_ids(struct record_sink *s)
{
	size_t size;
	void *build_ids = record_dsos_build_ids(s->dsos, &size);

	if (size)
		pw_add_feature(&s->out, PD_FEAT_BUILD_ID, build_ids, size);
	free(build_ids);
}

void sink_add_sample_time(struct record_sink *s)
{
	if (s->nr_samples) {
		u64 times[2] = { s->first_time, s->last_time };

		pw_add_feature(&s->out, PD_FEAT_SAMPLE_TIME, times, sizeof(times));
	}
}

void sink_add_compressed(struct record_sink *s, int level, u32 ring_bytes)
{
	u32 v[5] = { 0, 1, (u32)level, 0, ring_bytes };

	if (s->bytes_packed)
		v[3] = (u32)((double)s->bytes_raw / (double)s->bytes_packed + 0.5);
	pw_add_feature(&s->out, PD_FEAT_COMPRESSED, v, sizeof(v));
}
