/*
 * reader.h - reads perf.data files and streams, and delivers their records.
 *
 * The reader is the bottom layer of prof: it turns a file (mmap'd) or a pipe
 * (read in chunks) into a stream of records in host byte order, in the order
 * perf delivers them, and decodes samples and sample_id trailers.  It knows
 * nothing of threads, symbols or reports.
 *
 * Use:
 *	struct pd_file f;
 *	if (pd_open(&f, path, 0))           // "-" or a FIFO means pipe mode
 *		return -1;                  // error already printed
 *	pd_process(&f, &ops, ctx);          // ops->record() per record
 *	pd_close(&f);
 *
 * Invariants:
 *  - Every record handed out has hdr->size >= 8 and lies wholly inside
 *    memory the reader owns; it stays valid until the callback returns.
 *  - Records are in host byte order; files of the other endianness are
 *    swapped by record type before delivery.
 *  - Order is perf's: records with a timestamp are queued and delivered in
 *    time order at each FINISHED_ROUND (equal timestamps keep file order);
 *    records with no usable time, and every record of type >= 64, are
 *    delivered when read.  PD_UNORDERED turns queueing off (file order).
 *  - Memory is bounded by the file size (mapping) plus one round of queued
 *    records; nothing is allocated per record except the queue slot.
 *  - Any malformation gives one error naming the file, what is wrong and the
 *    offset ("FILE: bad record size 0 at offset 0x1a8"), and a -1 return.
 */
#ifndef PROF_FORMAT_READER_H
#define PROF_FORMAT_READER_H

#include "perf_data.h"
#include "../util/arena.h"

#include <stddef.h>
#include <stdio.h>

#define PD_NO_TIME ((u64)-1)	/* pd_event.time of a record without one */

/* One event selector: an attr from the file and everything derived from it. */
struct pd_evsel {
	struct pd_attr attr;	/* host order, zero-filled past disk_attr_size */
	u32 disk_attr_size;	/* attr.size as found in the file (0 means 64) */
	u32 idx;		/* position in the file's attr list */
	u64 *ids;		/* sample ids that belong to this attr */
	u32 nr_ids;
	const char *name;	/* from EVENT_DESC (and in file mode
				   EVENT_UPDATE), else NULL (then the name
				   comes from the attr) */
	const char *stream_name;	/* pipe mode: the name EVENT_DESC /
				   EVENT_UPDATE gave, which perf's -D shows;
				   its reports keep the EVENT_DESC one */
	u64 nr_samples;		/* SAMPLE records read for this evsel */
	u64 nr_lost_samples;	/* sum of LOST_SAMPLES.lost for this evsel */
	int id_pos;		/* u64 index of the id in a sample, -1 if none */
	int time_pos;		/* u64 index of the time in a sample, -1 if none */
	int is_pos;		/* u64 index of the id counted from the end of a
				   non-sample record's trailer, -1 if none */
	u16 trailer_size;	/* bytes of sample_id trailer on non-samples */
};

/* A decoded SAMPLE.  Pointers point into the record. */
struct pd_sample {
	u64 sample_type;	/* which fields below are valid */
	u64 id, ip, time, addr, stream_id, period;
	u32 pid, tid, cpu, cpu_res;
	/* READ, laid out as read_format says */
	struct {
		u64 nr;			/* entries; 1 without FORMAT_GROUP */
		u64 time_enabled, time_running;
		const u8 *values;	/* FORMAT_GROUP: nr x {value, [id], [lost]} */
		u32 value_words;	/* u64s per FORMAT_GROUP entry */
		u64 value, id, lost;	/* without FORMAT_GROUP */
	} read;
	const u8 *callchain;	/* u64 ips[callchain_nr] (unaligned) */
	u64 callchain_nr;
	u64 callchain_addrs_from;	/* 0, or where a part of addresses only
					   starts (user frames unwound from the
					   stack, which may be >= PD_CONTEXT_MAX):
					   no context markers there */
	const u8 *raw;		/* RAW payload */
	u32 raw_size;
	u64 branch_nr, branch_hw_idx;	/* hw_idx is (u64)-1 when absent */
	const u8 *branch;	/* branch_nr x {u64 from, u64 to, u64 flags} */
	u64 regs_user_abi, regs_user_mask;
	const u8 *regs_user;	/* popcount(mask) u64s when abi != 0 */
	u64 stack_user_size, stack_user_dyn_size;
	const u8 *stack_user;	/* stack_user_size bytes */
	u64 weight;		/* WEIGHT, or WEIGHT_STRUCT as one u64 */
	u64 data_src, transaction;
	u64 regs_intr_abi, regs_intr_mask;
	const u8 *regs_intr;
	u64 phys_addr, cgroup, data_page_size, code_page_size;
	u64 aux_size;
	const u8 *aux;
};

/* Whether entry j of the sample's chain is in its addresses-only part
 * (unwound user frames: no markers, already cut to --max-stack). */
static inline int pd_chain_unwound(const struct pd_sample *s, u64 j)
{
	return s->callchain_addrs_from && j >= s->callchain_addrs_from;
}

/* Whether entry j (value ip) of the sample's chain is a context marker. */
static inline int pd_chain_marker(const struct pd_sample *s, u64 j, u64 ip)
{
	return ip >= PD_CONTEXT_MAX && !pd_chain_unwound(s, j);
}

/* The sample_id trailer of a non-sample record (fields as sample_type says). */
struct pd_id_trailer {
	u32 pid, tid;
	u64 time, id, stream_id;
	u32 cpu, cpu_res;
	int valid;		/* 0 when the attr has no sample_id_all */
};

/* A record as delivered to pd_ops.record. */
struct pd_event {
	const struct pd_header *hdr;	/* the record, host order */
	u64 file_offset;	/* where it starts in the file or stream; for
				   records decompressed from COMPRESSED, the
				   offset of the COMPRESSED record */
	u64 time;		/* timestamp, or PD_NO_TIME */
	struct pd_evsel *evsel;	/* attr the record belongs to; NULL for user
				   records and when it cannot be told */
	const void *payload;	/* bytes that follow the record outside its
				   size (AUXTRACE data, TRACING_DATA blob) */
	u64 payload_size;
	int compressed;		/* came out of a COMPRESSED record */
};

struct pd_file;

/* Callbacks; a non-zero return from record() stops processing and is
 * returned by pd_process(). */
struct pd_ops {
	int (*record)(void *ctx, struct pd_file *f, const struct pd_event *ev);
};

/* Flags for pd_open() / pd_process(). */
#define PD_UNORDERED	1	/* deliver in file order, no queueing */

/* Counters of what the reader has seen.  Counted when read, before ordering. */
#define PD_NR_COUNTED_TYPES 128
struct pd_stats {
	u64 nr_events;			/* all records, decompressed ones included */
	u64 nr_by_type[PD_NR_COUNTED_TYPES];
	struct { u32 type; u64 count; } other_types[32];	/* types >= 128 */
	u32 nr_other_types;
	u64 nr_unknown;			/* records of types the reader does not know */
	u64 nr_out_of_order;		/* records older than the last flush */
	u64 nr_unknown_id;		/* samples whose id matches no attr */
	u64 total_lost;			/* sum of LOST.lost */
	u64 total_lost_samples;		/* sum of LOST_SAMPLES.lost */
	u64 decompressed_bytes;		/* bytes out of COMPRESSED payloads */
};

struct pd_file {
	const char *path;	/* as given; "-" for stdin */
	int fd;
	int pipe_mode;		/* stream format (16-byte header) */
	int needs_swap;		/* written with the other byte order */
	int flags;		/* PD_* */
	int data_size_was_zero;	/* header said data.size 0: read to EOF */

	/* file mode: the whole file, mapped copy-on-write */
	u8 *map;
	u64 size;

	/* file header (host order) */
	u64 header_size, attr_size;
	u64 attrs_offset, attrs_size;
	u64 data_offset, data_size;
	u64 features[4];	/* feature bitmap */

	/* event selectors */
	struct pd_evsel *evsel;
	u32 nr_evsel;
	struct pd_id_map *ids;	/* id -> evsel hash */
	int sample_id_all;	/* from the first attr */
	u16 id_hdr_size;	/* trailer bytes (first attr) */

	/* features: payload pointer and size per bit, NULL when absent */
	const u8 *feat_data[PD_FEAT_BITS];
	u64 feat_size[PD_FEAT_BITS];
	u64 feat_offset[PD_FEAT_BITS];	/* file offset of the payload */

	struct pd_stats stats;
	struct arena arena;	/* per-file objects (evsels, names, features) */
	struct pd_internal *in;	/* queue, decompressor, pipe buffer */
};

/* The input a command reads when -i is not given, as perf: standard input
 * ("-") when it is a pipe, else "perf.data". */
const char *pd_default_input(void);

/* Opens path ("-" is stdin) and reads header, attrs and features.  Pipe
 * mode is detected from the header.  Returns 0, or -1 after an error, with
 * everything released (pd_close() on the result is harmless). */
int pd_open(struct pd_file *f, const char *path, int flags);
/* Releases everything pd_open() and pd_process() allocated; harmless on a
 * closed file. */
void pd_close(struct pd_file *f);

/* Reads the data and calls ops->record for each record in perf's delivery
 * order.  Returns 0, -1 on malformed input (error printed), or the
 * callback's non-zero return. */
int pd_process(struct pd_file *f, const struct pd_ops *ops, void *ctx);

/* Decodes a SAMPLE record of evsel into s.  Returns 0, or -1 after an error
 * naming the file and offset. */
int pd_parse_sample(const struct pd_file *f, const struct pd_evsel *evsel,
		    const struct pd_header *hdr, u64 offset, struct pd_sample *s);
/* pd_parse_sample() for a caller that reads no more than sample_type, the
 * fixed fields before READ (id, ip, pid, tid, time, addr, stream_id, cpu,
 * period) and the call chain: those are all it sets when the sample type
 * has no other field (and the record is whole); else it is
 * pd_parse_sample(). */
int pd_parse_sample_head(const struct pd_file *f, const struct pd_evsel *evsel,
			 const struct pd_header *hdr, u64 offset, struct pd_sample *s);
/* Decodes the sample_id trailer of a non-sample kernel record. */
int pd_parse_trailer(const struct pd_file *f, const struct pd_evsel *evsel,
		     const struct pd_header *hdr, struct pd_id_trailer *t);

/* The evsel a sample id belongs to, or NULL. */
struct pd_evsel *pd_evsel_by_id(const struct pd_file *f, u64 id);

/* Is feature bit feat set (file mode) or was it received (pipe mode)? */
int pd_has_feature(const struct pd_file *f, unsigned feat);

#endif
