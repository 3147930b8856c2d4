/*
 * reader_internal.h - what the parts of the reader share (reader.c: the
 * header, attrs, ids and features; reader_scan.c: the data section, its
 * records and their order; reader_prefault.c: the page-in thread).  Not for
 * use outside src/format/reader*.c.
 *
 * Invariants: f->in is allocated by pd_open() and lives until pd_close();
 * the queue, the record arenas, the pipe window and the decompressor
 * belong to the scan; the id map only grows (ids are never removed), and
 * each evsel pointer in it points into f->evsel, which add_evsel() keeps
 * so when it moves the array.
 */
#ifndef PROF_FORMAT_READER_INTERNAL_H
#define PROF_FORMAT_READER_INTERNAL_H

#include "reader.h"
#include "read_values.h"

#include <sys/mman.h>
#include <zstd.h>

#define PAGE 4096ULL

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14; older kernels say EINVAL */
#endif

/* A queued record (32 bytes: the queue is sorted by moving these). */
struct qent {
	u64 time;
	const struct pd_header *hdr;
	u64 file_offset;
	u32 evsel_idx;		/* index into f->evsel, or NO_EVSEL */
	u16 compressed;		/* came out of a COMPRESSED record */
	u16 transient;		/* hdr lives in a record arena, not the mapping */
};
#define NO_EVSEL ((u32)-1)

/* id -> evsel hash table entry (open addressing, id 0 never stored). */
struct id_slot {
	u64 id;
	struct pd_evsel *evsel;
};

struct pd_id_map {
	struct id_slot *slots;
	u64 mask;		/* capacity - 1, capacity a power of two */
	u64 used;
};

/* The hash of an id in the id map. */
static inline u64 hash_id(u64 id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

/* The evsel of id in m, or NULL (inlined: the scan looks ids up per record). */
static inline struct pd_evsel *id_map_find(const struct pd_id_map *m, u64 id)
{
	if (!m)
		return NULL;
	u64 h = hash_id(id) & m->mask;
	while (m->slots[h].evsel) {
		if (m->slots[h].id == id)
			return m->slots[h].evsel;
		h = (h + 1) & m->mask;
	}
	return NULL;
}

struct prefault;

/* Reader state: the scanner's (window, decompression, id cache) and the
 * consumer's (queue, callbacks). */
struct pd_internal {
	struct pd_read_state read_counts;	/* READ samples' values as
						   counted per event */
	/* consumer: the ordered queue */
	struct qent *q;		/* q[q_head..q_len) are queued, in arrival order
				   except that q[q_head..q_sorted) is sorted */
	u64 q_head, q_len, q_cap;
	u64 q_sorted;
	struct qent *q_tmp;	/* merge scratch, q_cap entries */
	u64 *runs;		/* run starts found by queue_sort */
	u64 runs_cap;
	u64 next_flush;		/* round limit */
	u64 last_flush;		/* time of the last delivered queued record */
	u64 max_time;
	struct arena rec_arena[2];	/* copies of transient queued records */
	int cur_arena;
	const struct pd_ops *ops;
	void *ctx;
	int stop;		/* the callback's non-zero return */
	int ordered;		/* queue records (else deliver in file order) */

	/* scanner: the mapping's resident window (file mode) */
	u64 populated_end;	/* file offset up to which pages are mapped in
				   (with a page-in thread: up to which they were
				   asked for) */
	u64 released_end;	/* file offset below which pages were given back */
	struct prefault *prefault;	/* big files: a thread that does both */

	/* scanner: pipe window */
	u8 *win;
	u64 win_size, win_cap;	/* bytes in window, capacity */
	u64 win_start;		/* stream offset of win[0] */
	u64 win_pos;		/* read position inside win */
	int eof;

	/* scanner: decompression */
	ZSTD_DCtx *zstd;
	u8 *dbuf;		/* decompressed bytes not yet parsed */
	u64 dbuf_len, dbuf_cap;

	/* scanner: last id looked up, consecutive records mostly share one */
	u64 last_id;
	struct pd_evsel *last_evsel;
};

/* reader.c: HEADER_ATTR in a stream (an attr and its ids) and
 * HEADER_FEATURE (a feature section); 0, or -1 after an error. */
int reader_stream_attr(struct pd_file *f, const struct pd_header *hdr, u64 offset);
int reader_stream_feature(struct pd_file *f, const struct pd_header *hdr, u64 offset);

/* reader_prefault.c: starts the page-in thread for the data section of a
 * big mapped file (or leaves f without one), stops it, and asks it to map
 * pages in up to want and give them back below drop (0: no change). */
void prefault_start(struct pd_file *f);
void prefault_stop(struct pd_file *f);
void prefault_ask(struct prefault *p, u64 want, u64 drop);

/* pd_parse_sample() without a message when the record is malformed
 * (sample.c): for counting as the records are read, before the report
 * meets them. */
int pd_parse_sample_quiet(const struct pd_file *f, const struct pd_evsel *evsel,
			  const struct pd_header *hdr, struct pd_sample *s);

#endif
