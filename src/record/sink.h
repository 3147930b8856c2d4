/*
 * sink.h - where prof record's records go: the rings' bytes and the
 * records prof makes itself, to the file or pipe, counted on the way.
 *
 * The src/record module is prof record's machinery below the command:
 * counters (the counters and their rings), ring (ring sizes, mapping and
 * reading), sink (this), synth (the state before recording, from /proc),
 * dsos (the sampled DSOs, for BUILD_ID) and compress (-z).  It uses format,
 * symbol and util, and only src/cmd/record.c uses it.
 *
 * Each pass over the rings (sink_drain) copies every ring's new bytes to
 * the writer, through zstd with -z, and ends with a FINISHED_ROUND record
 * when it found any, then marks a commit point.  Every record that goes by
 * is counted as perf report counts events; samples give the first and last
 * sample times (SAMPLE_TIME), LOST records the samples the rings lost, and
 * record_dsos follows the records so that the BUILD_ID feature needs no
 * second pass over the file.
 */
#ifndef PROF_RECORD_SINK_H
#define PROF_RECORD_SINK_H

#include "ring.h"
#include "../format/writer.h"

struct record_dsos;
struct record_zstd;

/* The output of a recording and its counts. */
struct record_sink {
	struct pw_file out;
	struct record_zstd *zstd;	/* -z, else NULL */
	struct record_dsos *dsos;	/* which DSOs got samples */
	unsigned time_offset;	/* offset of the time in a sample record */
	u64 bytes_raw, bytes_packed;	/* -z: ring bytes in, record bytes out */
	u64 nr_records;		/* records written (as perf report counts events) */
	u64 nr_samples, nr_lost_records, nr_lost_samples;
	u64 nr_lost_in_ring;	/* the counts the LOST records give */
	u64 first_time, last_time;	/* of the samples, for SAMPLE_TIME */
	u64 whole[RING_RECORD_MAX / 8];	/* sink_drain()'s room for a record
					   that wraps (ring_reader.whole) */
};

/* A record prof makes (FINISHED_INIT, EVENT_UPDATE, LOST_SAMPLES):
 * written and counted. */
void sink_put(struct record_sink *s, const void *rec, size_t size);

/* A synthesized record (the emit callback of struct synth, arg the sink):
 * written, counted and followed like the rings' records. */
void sink_synth(void *arg, const void *rec, size_t size);

/* One pass over the nr rings, closed by FINISHED_ROUND and a commit point
 * when anything came. */
void sink_drain(struct record_sink *s, struct ring *rings, int nr);

/* The BUILD_ID feature of the sampled DSOs, when any has one. */
void sink_add_build_ids(struct record_sink *s);

/* The SAMPLE_TIME feature, when there were samples. */
void sink_add_sample_time(struct record_sink *s);

/* The COMPRESSED feature: version 0, zstd, level, the ratio so far,
 * ring_bytes (the size of one ring's mapping). */
void sink_add_compressed(struct record_sink *s, int level, u32 ring_bytes);

#endif
