/*
 * reader_scan.c - reads the data section of a perf.data file or stream
 * and delivers its records in perf's order.
 *
 * Sources.  A mapped file's records point into the mapping.  Pages are
 * mapped in ahead of the scan in big steps and given back behind it, so
 * resident memory is a window, not the file (a page-in thread,
 * reader_prefault.c, does this work for big files).  A pipe or FIFO is
 * read in chunks into a window buffer; such records, and records
 * decompressed from COMPRESSED payloads, are "transient": they are copied
 * into a record arena when they are queued.
 *
 * Ordering (perf's ordered_events): a record with a timestamp is appended
 * to the queue; at each FINISHED_ROUND the queue is sorted stably by time
 * and everything with time <= the round limit is delivered, then the limit
 * becomes the largest timestamp queued since the queue was last empty.  The
 * limit starts at 0, so the first round delivers nothing; a round that finds
 * the queue empty leaves the limit alone.  At the end all is delivered.
 * Records older than the last delivered one are counted as out of order and
 * still delivered in sorted position at the next flush.  Records without a
 * usable time, and perf's own record types (64 and up), are delivered as
 * they are read.
 *
 * Memory for transient records: two arenas.  Queued records are copied into
 * the current one; after a flush, what remains queued is copied into the
 * other, and the current one is reset.  So memory is one round of records.
 *
 * Every function called once per record is in this file, so that the
 * compiler can inline the path from the scan to the callback.
 */
#include "reader_internal.h"
#include "swap.h"
#include "feature.h"
#include "../util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define POPULATE_STEP (8ULL << 20)	/* bytes mapped in ahead of the scan */
#define RELEASE_STEP (8ULL << 20)	/* bytes given back at a time */

/*
 * A record on its way from the scanner to delivery that is not queued (a
 * record to queue goes to queue_push() directly).  The scanner emits items
 * in file order; the consumer delivers NOW items at once, and for a ROUND
 * item delivers the FINISHED_ROUND record and then flushes the queue.
 */
enum item_kind { ITEM_NOW, ITEM_ROUND };

struct item {
	struct qent e;
	u32 kind;
	const void *payload;	/* NOW items: AUXTRACE / TRACING_DATA bytes */
	u64 payload_size;
};

/* ------------------------------------------------------------- ordering --- */

/* EVENT_UPDATE kind 2 (name): u64 kind, u64 id, NUL-terminated name. */
static void event_update(struct pd_file *f, const struct pd_header *hdr)
{
	const u8 *p = (const u8 *)hdr;
	struct pd_evsel *e;

	if (hdr->size < 24 || pd_get64(p + 8) != 2)
		return;
	e = pd_evsel_by_id(f, pd_get64(p + 16));
	if (!e)
		return;
	/* a stream's events keep the names derived from their attrs in
	 * perf's reports: it has fixed them before any EVENT_UPDATE arrives */
	if (f->pipe_mode)
		e->stream_name = arena_strndup(&f->arena, (const char *)p + 24, hdr->size - 24);
	else
		e->name = arena_strndup(&f->arena, (const char *)p + 24, hdr->size - 24);
}


/* Hands one record to the callback (inlined: once per record). */
static inline __attribute__((always_inline)) int
deliver(struct pd_file *f, const struct pd_header *hdr, u64 offset, u64 time,
	struct pd_evsel *evsel, int compressed, const void *payload, u64 payload_size)
{
	struct pd_internal *in = f->in;
	struct pd_event ev = {
		.hdr = hdr, .file_offset = offset, .time = time, .evsel = evsel,
		.payload = payload, .payload_size = payload_size, .compressed = compressed,
	};

	int ret;

	if (hdr->type == PD_REC_EVENT_UPDATE)
		event_update(f, hdr);
	if (in->stop || !in->ops || !in->ops->record)
		return in->stop;
	ret = in->ops->record(in->ctx, f, &ev);
	if (ret)
		in->stop = ret;
	return ret;
}

/* Merges the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi),
 * left run first on equal times (so the sort is stable). */
static void merge_runs(const struct qent *src, struct qent *dst, u64 lo, u64 mid, u64 hi)
{
	u64 i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = src[j].time < src[i].time ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

/*
 * Sorts the queue by time, stably: a natural merge sort.  The queue is the
 * sorted remainder of the last flush followed by this round's records,
 * which arrive as a few sorted runs (one per ring buffer), so finding the
 * runs and merging them pairwise costs O(n log runs).
 */
static void queue_sort(struct pd_internal *in)
{
	u64 n = in->q_len, nruns = 0;
	struct qent *src = in->q, *dst = in->q_tmp;

	if (in->q_sorted == n)
		return;
	if (in->q_sorted < in->q_head)
		in->q_sorted = in->q_head;
	if (in->runs_cap < 64) {
		in->runs_cap = 64;
		in->runs = xrealloc(in->runs, in->runs_cap * sizeof(*in->runs));
	}
	in->runs[nruns++] = in->q_head;
	for (u64 i = in->q_sorted > in->q_head ? in->q_sorted : in->q_head + 1; i < n; i++) {
		if (src[i].time >= src[i - 1].time)
			continue;
		if (nruns + 2 > in->runs_cap) {
			in->runs_cap *= 2;
			in->runs = xrealloc(in->runs, in->runs_cap * sizeof(*in->runs));
		}
		in->runs[nruns++] = i;
	}
	in->runs[nruns] = n;
	while (nruns > 1) {
		u64 out = 0, r;

		for (r = 0; r + 1 < nruns; r += 2) {
			merge_runs(src, dst, in->runs[r], in->runs[r + 1], in->runs[r + 2]);
			in->runs[out++] = in->runs[r];
		}
		if (r < nruns) {	/* odd run out: copy it over */
			memcpy(dst + in->runs[r], src + in->runs[r],
			       (in->runs[r + 1] - in->runs[r]) * sizeof(*src));
			in->runs[out++] = in->runs[r];
		}
		in->runs[out] = n;
		nruns = out;
		struct qent *t = src;
		src = dst;
		dst = t;
	}
	if (src != in->q) {	/* the result is in the scratch buffer: swap */
		in->q_tmp = in->q;
		in->q = src;
	}
	in->q_sorted = n;
}

/*
 * Delivers queued records with time <= limit.  What stays queued and lives
 * in the current record arena is moved to the other arena.
 */
static int queue_flush(struct pd_file *f, u64 limit)
{
	struct pd_internal *in = f->in;
	u64 i;

	queue_sort(in);
	for (i = in->q_head; i < in->q_len && in->q[i].time <= limit; i++) {
		struct qent *e = &in->q[i];

		in->last_flush = e->time;
		if (deliver(f, e->hdr, e->file_offset, e->time,
			    e->evsel_idx == NO_EVSEL ? NULL : &f->evsel[e->evsel_idx],
			    e->compressed, NULL, 0)) {
			i++;
			break;
		}
	}
	/* what is left stays where it is; queue_push() compacts when full */
	in->q_head = i;
	if (in->q_head == in->q_len)
		in->q_head = in->q_len = 0;
	in->q_sorted = in->q_len;
	/* compact transient records */
	struct arena *cur = &in->rec_arena[in->cur_arena];
	struct arena *other = &in->rec_arena[!in->cur_arena];
	if (cur->used_bytes == 0)
		return in->stop;
	arena_reset(other);
	for (u64 k = in->q_head; k < in->q_len; k++) {
		struct qent *e = &in->q[k];

		if (e->transient)
			e->hdr = arena_memdup(other, e->hdr, e->hdr->size);
	}
	arena_reset(cur);
	in->cur_arena = !in->cur_arena;
	return in->stop;
}

/* Makes room for one more queued record: the queue moved down over the
 * delivered ones, or grown. */
static __attribute__((noinline)) void queue_room(struct pd_internal *in)
{
	if (in->q_head) {
		memmove(in->q, in->q + in->q_head, (in->q_len - in->q_head) * sizeof(*in->q));
		in->q_len -= in->q_head;
		in->q_sorted -= in->q_head;
		in->q_head = 0;
		return;
	}
	in->q_cap = in->q_cap ? in->q_cap * 2 : 4096;
	in->q = xrealloc(in->q, in->q_cap * sizeof(*in->q));
	free(in->q_tmp);
	in->q_tmp = xmalloc(in->q_cap * sizeof(*in->q_tmp));
}

/* Appends a record to the queue; a transient one is copied first
 * (inlined: once per record). */
static inline __attribute__((always_inline)) void queue_push(struct pd_file *f,
							     const struct qent *src)
{
	struct pd_internal *in = f->in;
	struct qent *e;

	if (in->q_len == in->q_cap)
		queue_room(in);
	if (src->time < in->last_flush)
		f->stats.nr_out_of_order++;
	/* as perf: the first record into an empty queue sets the maximum */
	if (in->q_len == in->q_head || src->time > in->max_time)
		in->max_time = src->time;
	e = &in->q[in->q_len++];
	*e = *src;
	if (e->transient)
		e->hdr = arena_memdup(&in->rec_arena[in->cur_arena], e->hdr, e->hdr->size);
}

static void release_behind(struct pd_file *f, u64 scan_pos);

/* Delivers one item, or flushes the queue after it.  Returns
 * non-zero to stop (a callback's return, or -1). */
static int consume(struct pd_file *f, const struct item *it)
{
	struct pd_internal *in = f->in;
	const struct qent *e = &it->e;
	struct pd_evsel *evsel = e->evsel_idx == NO_EVSEL ? NULL : &f->evsel[e->evsel_idx];

	switch (it->kind) {
	case ITEM_ROUND:
		if (deliver(f, e->hdr, e->file_offset, e->time, evsel, e->compressed, NULL, 0))
			return in->stop;
		if (in->q_len == in->q_head) {	/* perf leaves the limit alone then */
			release_behind(f, e->file_offset);
			return 0;
		}
		if (queue_flush(f, in->next_flush))
			return in->stop;
		in->next_flush = in->max_time;
		release_behind(f, e->file_offset);
		return 0;
	default:
		return deliver(f, e->hdr, e->file_offset, e->time, evsel, e->compressed,
			       it->payload, it->payload_size);
	}
}


/* ------------------------------------------------------ record handling --- */

/* pd_evsel_by_id() with a one-entry cache; id 0 means the first attr. */
static struct pd_evsel *lookup_id(struct pd_file *f, u64 id)
{
	struct pd_internal *in = f->in;

	if (id == 0)
		return &f->evsel[0];
	if (id != in->last_id || !in->last_evsel) {
		in->last_evsel = id_map_find(f->ids, id);
		in->last_id = id;
	}
	return in->last_evsel;
}

static void count_other_type(struct pd_stats *s, u32 type);

/* Counts a record by type (inlined: once per record). */
static inline __attribute__((always_inline)) void count_type(struct pd_file *f, u32 type)
{
	struct pd_stats *s = &f->stats;

	s->nr_events++;
	if (type && type < PD_NR_COUNTED_TYPES)	/* slot 0 is no type */
		s->nr_by_type[type]++;
	else
		count_other_type(s, type);
}

/* count_type() of a type with no slot of its own. */
static __attribute__((noinline)) void count_other_type(struct pd_stats *s, u32 type)
{
	for (u32 i = 0; i < s->nr_other_types; i++) {
		if (s->other_types[i].type == type) {
			s->other_types[i].count++;
			return;
		}
	}
	if (s->nr_other_types < sizeof(s->other_types) / sizeof(s->other_types[0])) {
		s->other_types[s->nr_other_types].type = type;
		s->other_types[s->nr_other_types].count = 1;
		s->nr_other_types++;
	}
}

static int type_is_known(u32 type)
{
	return type < PD_REC_KERNEL_MAX || (type >= PD_REC_USER_START && type < PD_REC_MAX_KNOWN);
}

/* The evsel of a kernel record and its timestamp.  Returns -1 if the
 * sample's id is unknown (the record is then dropped). */
static int classify(struct pd_file *f, const struct pd_header *hdr, struct pd_evsel **evselp,
		    u64 *timep)
{
	struct pd_evsel *e = f->nr_evsel ? &f->evsel[0] : NULL;
	const u8 *p = (const u8 *)hdr;
	u64 size = hdr->size;

	*timep = PD_NO_TIME;
	*evselp = e;
	if (!e)
		return 0;
	if (hdr->type == PD_REC_SAMPLE) {
		if (e->id_pos >= 0 && f->nr_evsel > 1) {
			u64 off = 8 + (u64)e->id_pos * 8;

			if (off + 8 > size)
				return 0;	/* pd_parse_sample reports it */
			u64 id = pd_get64(p + off);
			struct pd_evsel *by_id = lookup_id(f, id);

			if (!by_id) {
				f->stats.nr_unknown_id++;
				*evselp = NULL;
				return -1;
			}
			e = by_id;
			*evselp = e;
		}
		if (e->time_pos >= 0 && 16 + (u64)e->time_pos * 8 <= size)
			*timep = pd_get64(p + 8 + (u64)e->time_pos * 8);
		return 0;
	}
	if (!f->sample_id_all || size < 8 + (u64)e->trailer_size)
		return 0;
	if (e->is_pos >= 0 && f->nr_evsel > 1) {
		u64 id = pd_get64(p + size - (u64)e->is_pos * 8);
		struct pd_evsel *by_id = lookup_id(f, id);

		if (by_id)
			e = by_id;
		*evselp = e;
	}
	u64 st = e->attr.sample_type;
	if ((st & PD_SAMPLE_TIME) && size >= 8 + (u64)e->trailer_size) {
		u64 off = size - e->trailer_size;

		off += (st & PD_SAMPLE_TID) ? 8 : 0;
		*timep = pd_get64(p + off);
	}
	return 0;
}

static int handle_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed, const void *payload, u64 payload_size);
static void read_header_at(const struct pd_file *f, const u8 *p, struct pd_header *h);

/* Feeds a COMPRESSED payload through the stream's one zstd context and
 * handles every whole record that comes out. */
static int decompress(struct pd_file *f, const u8 *src, u64 len, u64 offset)
{
	struct pd_internal *in = f->in;
	ZSTD_inBuffer zin = { src, len, 0 };

	if (!in->zstd) {
		in->zstd = ZSTD_createDCtx();
		if (!in->zstd)
			die("out of memory creating a zstd context");
	}
	if (!in->dbuf) {
		in->dbuf_cap = 1 << 20;
		in->dbuf = xmalloc(in->dbuf_cap);
	}
	do {
		ZSTD_outBuffer zout = { in->dbuf + in->dbuf_len, in->dbuf_cap - in->dbuf_len, 0 };
		size_t r = ZSTD_decompressStream(in->zstd, &zout, &zin);

		if (ZSTD_isError(r))
			return error("%s: bad zstd data (%s) in compressed record at offset %#llx",
				     f->path, ZSTD_getErrorName(r), (unsigned long long)offset);
		in->dbuf_len += zout.pos;
		f->stats.decompressed_bytes += zout.pos;

		u64 pos = 0;
		while (in->dbuf_len - pos >= 8) {
			struct pd_header h;

			read_header_at(f, in->dbuf + pos, &h);
			if (h.size < 8)
				return error("%s: bad record size %u in compressed data of the record at offset %#llx",
					     f->path, h.size, (unsigned long long)offset);
			if (h.size > in->dbuf_len - pos)
				break;
			if (h.type == PD_REC_COMPRESSED || h.type == PD_REC_COMPRESSED2)
				return error("%s: nested compressed record in the record at offset %#llx",
					     f->path, (unsigned long long)offset);
			memcpy(in->dbuf + pos, &h, 8);
			if (handle_record(f, (struct pd_header *)(in->dbuf + pos), offset, 1, 1, NULL, 0))
				return -1;
			if (in->stop)
				return 0;
			pos += h.size;
		}
		memmove(in->dbuf, in->dbuf + pos, in->dbuf_len - pos);
		in->dbuf_len -= pos;
		if (zout.pos == 0 && zin.pos == zin.size)
			break;
	} while (zin.pos < zin.size || in->dbuf_len == in->dbuf_cap);
	return 0;
}


/* A PERF_SAMPLE_READ sample counts once for each event whose value it
 * hands on (read_values.h), as perf counts the samples it delivers; an
 * event's values come in time order, so counting as they are read gives
 * the same. */
static void count_read(struct pd_file *f, struct pd_evsel *evsel, const struct pd_header *hdr)
{
	struct pd_sample s;
	struct pd_evsel *member;
	u64 k = 0, period;

	if (pd_parse_sample_quiet(f, evsel, hdr, &s)) {
		evsel->nr_samples++;	/* the report says what is wrong */
		return;
	}
	while (pd_read_next(f, evsel, &s, &f->in->read_counts, &k, &member, &period))
		member->nr_samples++;
}

/*
 * handle_record() of a kernel record (type below PD_REC_KERNEL_MAX, in
 * host order): counts it, finds its evsel and time, and queues or
 * delivers it.
 */
static int kernel_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed)
{
	struct pd_internal *in = f->in;
	struct pd_evsel *evsel;
	u32 type = hdr->type;
	u64 time;

	count_type(f, type);
	if (classify(f, hdr, &evsel, &time))
		return 0;	/* sample with an unknown id: dropped, counted */
	if (type == PD_REC_SAMPLE && evsel && !(evsel->attr.sample_type & PD_SAMPLE_READ))
		evsel->nr_samples++;
	else if (type == PD_REC_SAMPLE && evsel)
		count_read(f, evsel, hdr);
	if (type == PD_REC_LOST && hdr->size >= 24) {
		f->stats.total_lost += pd_get64((const u8 *)hdr + 16);
	} else if (type == PD_REC_LOST_SAMPLES && hdr->size >= 16) {
		u64 lost = pd_get64((const u8 *)hdr + 8);

		f->stats.total_lost_samples += lost;
		if (evsel)
			evsel->nr_lost_samples += lost;
	}
	struct item it = {
		.e = { .time = time, .hdr = hdr, .file_offset = offset,
		       .evsel_idx = evsel ? evsel->idx : NO_EVSEL, .compressed = (u16)compressed,
		       .transient = (u16)transient },
		.kind = ITEM_NOW,
	};

	if (in->ordered && time != 0 && time != PD_NO_TIME) {
		queue_push(f, &it.e);
		return 0;
	}
	return consume(f, &it) < 0 ? -1 : 0;
}

/*
 * Handles one record (already in host order): counts it, applies what it
 * says about the file (attrs, features, names), delivers or queues it.
 * transient: the record's memory is reused after this call.
 */
static int handle_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed, const void *payload, u64 payload_size)
{
	struct pd_internal *in = f->in;
	u32 type = hdr->type;

	if (f->needs_swap && pd_swap_record(f, (struct pd_header *)hdr))
		return error("%s: cannot byte-swap record of type %u at offset %#llx", f->path,
			     type, (unsigned long long)offset);
	if (type < PD_REC_KERNEL_MAX)
		return kernel_record(f, hdr, offset, transient, compressed);

	struct item it = {
		.e = { .time = PD_NO_TIME, .hdr = hdr, .file_offset = offset,
		       .evsel_idx = NO_EVSEL, .compressed = (u16)compressed,
		       .transient = (u16)transient },
		.kind = ITEM_NOW,
	};

	count_type(f, type);
	if (!type_is_known(type)) {
		f->stats.nr_unknown++;
		return consume(f, &it) < 0 ? -1 : 0;
	}
	/* a user record (perf's own types) */
	int ret = 0;

	switch (type) {
	case PD_REC_HEADER_ATTR:
		ret = reader_stream_attr(f, hdr, offset);
		break;
	case PD_REC_HEADER_FEATURE:
		ret = reader_stream_feature(f, hdr, offset);
		break;
	case PD_REC_HEADER_TRACING_DATA:
		if (payload && !f->feat_data[PD_FEAT_TRACING_DATA]) {
			f->feat_data[PD_FEAT_TRACING_DATA] = transient ?
				arena_memdup(&f->arena, payload, payload_size) : payload;
			f->feat_size[PD_FEAT_TRACING_DATA] = payload_size;
			f->feat_offset[PD_FEAT_TRACING_DATA] = offset + hdr->size;
			/* tracepoint names come from the tracing data */
			ret = pd_feature_apply_event_desc(f);
		}
		break;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		if (compressed)
			return error("%s: nested compressed record at offset %#llx", f->path,
				     (unsigned long long)offset);
		break;
	default:
		break;
	}
	if (ret)
		return -1;
	if (type == PD_REC_FINISHED_ROUND && in->ordered)
		it.kind = ITEM_ROUND;
	it.payload = payload;
	it.payload_size = payload_size;
	if (consume(f, &it) < 0)
		return -1;
	if (in->stop)
		return 0;
	if (type == PD_REC_COMPRESSED) {
		return decompress(f, (const u8 *)hdr + 8, hdr->size - 8, offset);
	} else if (type == PD_REC_COMPRESSED2) {
		u64 dsize = hdr->size >= 16 ? pd_get64((const u8 *)hdr + 8) : (u64)-1;

		if (dsize > (u64)hdr->size - 16)
			return error("%s: compressed data size %llu exceeds its record at offset %#llx",
				     f->path, (unsigned long long)dsize, (unsigned long long)offset);
		return decompress(f, (const u8 *)hdr + 16, dsize, offset);
	}
	return 0;
}

/* Size of the bytes that follow a record outside its header.size; hdr is
 * the host-order header of the record at p (whose body is in file order). */
static u64 extra_payload(const struct pd_file *f, const struct pd_header *hdr, const u8 *p)
{
	u64 v, extra = 0;

	if (hdr->type == PD_REC_AUXTRACE && hdr->size >= 16) {
		v = pd_get64(p + 8);
		if (f->needs_swap)
			v = __builtin_bswap64(v);
		extra = v;
	} else if (hdr->type == PD_REC_HEADER_TRACING_DATA && hdr->size >= 12) {
		u32 s = pd_get32(p + 8);

		if (f->needs_swap)
			s = __builtin_bswap32(s);
		extra = ((u64)s + 7) & ~7ULL;
	}
	return extra;
}

/* Loads the record header at p into h in host order. */
static void read_header_at(const struct pd_file *f, const u8 *p, struct pd_header *h)
{
	memcpy(h, p, sizeof(*h));
	if (f->needs_swap) {
		h->type = __builtin_bswap32(h->type);
		h->misc = __builtin_bswap16(h->misc);
		h->size = __builtin_bswap16(h->size);
	}
}

/*
 * The mapping's resident window.  Pages are mapped in ahead of the scan in
 * big steps (one call instead of a fault per page), and pages wholly below
 * every record still queued are given back after each round, so a file's
 * resident memory is a window of a few rounds, not its size.  Giving back
 * is safe because the pages are unmodified file pages: touching them again
 * reads them back.  Files swapped in place keep all their pages.
 */
static void populate_ahead(struct pd_file *f, u64 pos)
{
	struct pd_internal *in = f->in;
	u64 end = f->data_offset + f->data_size;
	u64 from = in->populated_end > pos ? in->populated_end : pos & ~(PAGE - 1);
	u64 to = pos + POPULATE_STEP < end ? pos + POPULATE_STEP : end;

	if (in->prefault) {
		/* ask for two steps so the thread stays one step ahead */
		prefault_ask(in->prefault, pos + 2 * POPULATE_STEP < end ? pos + 2 * POPULATE_STEP : end, 0);
	} else if (to > from) {
		madvise(f->map + from, to - from, MADV_POPULATE_READ);
	}
	in->populated_end = to;
}

/* Gives back the pages before scan_pos that no queued record needs. */
static void release_behind(struct pd_file *f, u64 scan_pos)
{
	struct pd_internal *in = f->in;
	u64 keep = scan_pos;

	if (!f->map || f->needs_swap)
		return;
	for (u64 i = in->q_head; i < in->q_len; i++) {
		const struct qent *e = &in->q[i];

		if (!e->transient && e->file_offset < keep)
			keep = e->file_offset;
	}
	keep &= ~(PAGE - 1);
	if (keep < in->released_end + RELEASE_STEP)
		return;
	if (in->prefault) {
		prefault_ask(in->prefault, 0, keep);
	} else {
		madvise(f->map + in->released_end, keep - in->released_end, MADV_DONTNEED);
	}
	in->released_end = keep;
}

/* The records of a mapped file (file mode, or a stream saved to a file). */
static int process_mapped(struct pd_file *f)
{
	u64 pos = f->data_offset;
	u64 end = f->data_offset + f->data_size;

	while (pos < end && !f->in->stop) {
		struct pd_header h;
		u64 extra;

		if (pos + 65536 > f->in->populated_end)
			populate_ahead(f, pos);

		if (end - pos < 8) {
			if (f->pipe_mode || f->data_size_was_zero) {
				warning("%s: ignoring %llu trailing bytes at offset %#llx: too short for a record",
					f->path, (unsigned long long)(end - pos), (unsigned long long)pos);
				break;
			}
			return error("%s: truncated record header at offset %#llx", f->path,
				     (unsigned long long)pos);
		}
		read_header_at(f, f->map + pos, &h);
		if (h.size < 8)
			return error("%s: bad record size %u at offset %#llx", f->path, h.size,
				     (unsigned long long)pos);
		if (h.size > end - pos) {
			if (f->pipe_mode || f->data_size_was_zero) {
				warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
					f->path, (unsigned long long)(end - pos), (unsigned long long)pos);
				break;
			}
			return error("%s: record of size %u runs past the end of the data at offset %#llx",
				     f->path, h.size, (unsigned long long)pos);
		}
		if (f->needs_swap)	/* in place: the mapping is private */
			memcpy(f->map + pos, &h, 8);
		extra = h.type == PD_REC_AUXTRACE || h.type == PD_REC_HEADER_TRACING_DATA ?
			extra_payload(f, &h, f->map + pos) : 0;
		if (extra > end - pos - h.size)
			return error("%s: payload of %llu bytes of the %s record runs past the end of the data at offset %#llx",
				     f->path, (unsigned long long)extra, pd_record_name(h.type),
				     (unsigned long long)pos);
		if (!f->needs_swap && h.type < PD_REC_KERNEL_MAX) {
			/* handle_record()'s first step, taken directly */
			if (kernel_record(f, (struct pd_header *)(f->map + pos), pos, 0, 0))
				return -1;
		} else if (handle_record(f, (struct pd_header *)(f->map + pos), pos, 0, 0,
					 extra ? f->map + pos + h.size : NULL, extra)) {
			return -1;
		}
		pos += h.size + extra;
	}
	return 0;
}

/* Makes at least want bytes available at in->win_pos; returns how many are. */
static u64 window_fill(struct pd_file *f, u64 want)
{
	struct pd_internal *in = f->in;

	if (in->win_size - in->win_pos >= want || in->eof)
		return in->win_size - in->win_pos;
	/* slide the unread bytes to the front */
	if (in->win_pos) {
		memmove(in->win, in->win + in->win_pos, in->win_size - in->win_pos);
		in->win_start += in->win_pos;
		in->win_size -= in->win_pos;
		in->win_pos = 0;
	}
	while (in->win_size < want) {
		ssize_t n;

		/* grow only as bytes arrive: a record that claims a huge
		 * payload costs memory only if the stream really holds it */
		if (in->win_size == in->win_cap) {
			in->win_cap = in->win_cap ? in->win_cap * 2 : (1 << 20);
			in->win = xrealloc(in->win, in->win_cap);
		}
		n = read(f->fd, in->win + in->win_size, in->win_cap - in->win_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("%s: read error: %s at offset %#llx", f->path, strerror(errno),
			      (unsigned long long)(in->win_start + in->win_size));
			in->eof = 1;
			break;
		}
		if (n == 0) {
			in->eof = 1;
			break;
		}
		in->win_size += (u64)n;
	}
	return in->win_size - in->win_pos;
}

/* The records of a stream read from a pipe. */
static int process_stream(struct pd_file *f)
{
	struct pd_internal *in = f->in;

	while (!in->stop) {
		struct pd_header h;
		u64 avail = window_fill(f, 8), extra, offset;

		if (avail == 0)
			break;
		offset = in->win_start + in->win_pos;
		if (avail < 8) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: too short for a record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		read_header_at(f, in->win + in->win_pos, &h);
		if (h.size < 8)
			return error("%s: bad record size %u at offset %#llx", f->path, h.size,
				     (unsigned long long)offset);
		avail = window_fill(f, h.size);
		if (avail < h.size) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		extra = extra_payload(f, &h, in->win + in->win_pos);
		if (extra > (1ULL << 32))
			return error("%s: payload of %llu bytes of the %s record is too large at offset %#llx",
				     f->path, (unsigned long long)extra, pd_record_name(h.type),
				     (unsigned long long)offset);
		/* TRACING_DATA's blob is kept; AUXTRACE data is streamed past */
		u64 keep = h.type == PD_REC_HEADER_TRACING_DATA ? extra : 0;
		avail = window_fill(f, h.size + keep);
		if (avail < h.size + keep) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		u8 *rec = in->win + in->win_pos;
		memcpy(rec, &h, 8);
		if (handle_record(f, (struct pd_header *)rec, offset, 1, 0,
				  keep ? rec + h.size : NULL, keep))
			return -1;
		in->win_pos += h.size + keep;
		/* skip an AUXTRACE payload without keeping it */
		for (u64 skip = extra - keep; skip;) {
			u64 got = window_fill(f, skip < (1 << 20) ? skip : (1 << 20));
			u64 n = got < skip ? got : skip;

			if (got == 0)
				return error("%s: AUXTRACE payload is truncated at offset %#llx", f->path,
					     (unsigned long long)(in->win_start + in->win_pos));
			in->win_pos += n;
			skip -= n;
		}
	}
	return 0;
}

/* Reads every record from the file or stream. */
static int scan(struct pd_file *f)
{
	if (f->map) {
		int ret;

		f->in->populated_end = f->data_offset & ~(PAGE - 1);
		f->in->released_end = f->in->populated_end;
		prefault_start(f);
		ret = process_mapped(f);
		prefault_stop(f);
		return ret;
	}
	return process_stream(f);
}

int pd_process(struct pd_file *f, const struct pd_ops *ops, void *ctx)
{
	struct pd_internal *in = f->in;
	int ret;

	in->ops = ops;
	in->ctx = ctx;
	in->stop = 0;
	/* perf turns ordering off when the first attr has no sample_id_all;
	 * in a stream the attrs are not known yet, so order and check later */
	in->ordered = !(f->flags & PD_UNORDERED);
	if (!f->pipe_mode && f->nr_evsel && !f->sample_id_all)
		in->ordered = 0;
	ret = scan(f);
	if (ret < 0)
		return -1;
	if (ret || in->stop)
		return ret ? ret : in->stop;
	if (f->pipe_mode && f->nr_evsel == 0 && f->stats.nr_events == 0)
		warning("%s: the stream holds no records", f->path);
	if (queue_flush(f, PD_NO_TIME))
		return in->stop;
	return 0;
}
