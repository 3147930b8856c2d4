/*
 * synth.h - builds synthetic perf.data files and streams in memory for the
 * unit tests (header only; every function is static inline).
 *
 * Use:
 *	struct synth s;
 *	synth_init(&s, 0);                      // or SYNTH_PIPE, SYNTH_SWAP
 *	synth_attr(&s, &attr, ids, 2);          // all attrs before any record
 *	synth_sample(&s, 0, 0, &values);        // fields as attr 0 says
 *	synth_round(&s);
 *	synth_tmpfile(&s, path);                // or synth_image() for bytes
 *	synth_free(&s);
 *
 * File mode layout: header (104) | attr section | id arrays | data |
 * feature table | feature payloads.  Pipe mode: the 16-byte header, then
 * every record in the order it was added (HEADER_ATTR and HEADER_FEATURE
 * records are emitted by synth_attr() and synth_feature()).
 *
 * Invariants:
 *  - Every integer is written through synth_w16/32/64, so SYNTH_SWAP gives
 *    exactly what a big-endian machine would write (attr bitfields
 *    included); byte strings (names, RAW, user stack, AUX, feature
 *    payloads) are never swapped.
 *  - The synth_* record functions return the offset the record will have in
 *    the output; records added between synth_compress_start() and
 *    synth_compress_stop() land in one zstd stream and are emitted by
 *    synth_compressed() as COMPRESSED records, so their offset is not known
 *    when they are added (they return 0).
 *  - Out-of-range use (too many attrs, attrs after data in file mode) aborts:
 *    it is a bug in the test.
 */
#ifndef PROF_TESTS_SYNTH_H
#define PROF_TESTS_SYNTH_H

#include "format/perf_data.h"
#include "format/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define SYNTH_PIPE 1		/* pipe-mode stream */
#define SYNTH_SWAP 2		/* write as the other byte order would */
#define SYNTH_MAX_ATTRS 8
#define SYNTH_MAX_IDS 16

/* A growable byte buffer. */
struct synth_buf {
	u8 *p;
	size_t len, cap;
};

struct synth_attr {
	struct pd_attr attr;	/* host order; attr.size is the disk size */
	u64 ids[SYNTH_MAX_IDS];
	u32 nr_ids;
};

struct synth {
	int pipe, swap;
	struct synth_attr attrs[SYNTH_MAX_ATTRS];
	u32 nr_attrs;
	int frozen;		/* file mode: data started, layout fixed */
	u64 data_offset;	/* output offset of data.p[0] */
	struct synth_buf data;	/* records (file: data section; pipe: after header) */
	struct synth_buf rec;	/* record being built */
	u64 rec_offset;		/* output offset of the record being built */
	int compressing;	/* records go to plain */
	struct synth_buf plain;	/* records waiting to be compressed */
	ZSTD_CCtx *zc;		/* one stream for every COMPRESSED payload */
	u8 *feat[PD_FEAT_BITS];	/* file mode feature payloads */
	size_t feat_len[PD_FEAT_BITS];
	int data_size_zero;	/* write data.size = 0 in the header */
};

static inline void synth_put(struct synth_buf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, src, n);
	b->len += n;
}

static inline void synth_w16(const struct synth *s, struct synth_buf *b, u16 v)
{
	if (s->swap)
		v = __builtin_bswap16(v);
	synth_put(b, &v, 2);
}

static inline void synth_w32(const struct synth *s, struct synth_buf *b, u32 v)
{
	if (s->swap)
		v = __builtin_bswap32(v);
	synth_put(b, &v, 4);
}

static inline void synth_w64(const struct synth *s, struct synth_buf *b, u64 v)
{
	if (s->swap)
		v = __builtin_bswap64(v);
	synth_put(b, &v, 8);
}

static inline void synth_init(struct synth *s, int flags)
{
	memset(s, 0, sizeof(*s));
	s->pipe = !!(flags & SYNTH_PIPE);
	s->swap = !!(flags & SYNTH_SWAP);
	if (s->pipe) {
		s->frozen = 1;
		s->data_offset = PD_PIPE_HEADER_SIZE;
	}
}

static inline void synth_free(struct synth *s)
{
	free(s->data.p);
	free(s->rec.p);
	free(s->plain.p);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		free(s->feat[i]);
	if (s->zc)
		ZSTD_freeCCtx(s->zc);
	memset(s, 0, sizeof(*s));
}

/* The attr bitfield word as a big-endian compiler lays it out: bit n of the
 * little-endian layout is bit 63 - n. */
static inline u64 synth_flags_be(u64 flags)
{
	u64 r = 0;

	for (int i = 0; i < 64; i++)
		if (flags >> i & 1)
			r |= 1ULL << (63 - i);
	return r;
}

/* Appends the first attr.size bytes of a (as the writer's order) to b. */
static inline void synth_put_attr(const struct synth *s, struct synth_buf *b,
				  const struct pd_attr *a, u32 size_field)
{
	struct synth_buf t = { 0 };

	synth_w32(s, &t, a->type);
	synth_w32(s, &t, size_field);
	synth_w64(s, &t, a->config);
	synth_w64(s, &t, a->sample_period);
	synth_w64(s, &t, a->sample_type);
	synth_w64(s, &t, a->read_format);
	synth_w64(s, &t, s->swap ? synth_flags_be(a->flags) : a->flags);
	synth_w32(s, &t, a->wakeup_events);
	synth_w32(s, &t, a->bp_type);
	synth_w64(s, &t, a->config1);
	synth_w64(s, &t, a->config2);
	synth_w64(s, &t, a->branch_sample_type);
	synth_w64(s, &t, a->sample_regs_user);
	synth_w32(s, &t, a->sample_stack_user);
	synth_w32(s, &t, (u32)a->clockid);
	synth_w64(s, &t, a->sample_regs_intr);
	synth_w32(s, &t, a->aux_watermark);
	synth_w16(s, &t, a->sample_max_stack);
	synth_w16(s, &t, a->reserved_2);
	synth_w32(s, &t, a->aux_sample_size);
	synth_w32(s, &t, a->reserved_3);
	synth_w64(s, &t, a->sig_data);
	synth_w64(s, &t, a->config3);
	/* past 136 bytes: zeros, as a newer kernel's unknown fields */
	while (t.len < a->size)
		synth_w64(s, &t, 0);
	synth_put(b, t.p, a->size);
	free(t.p);
}

/* Output offset of the next byte of the data stream. */
static inline u64 synth_pos(const struct synth *s)
{
	return s->data_offset + s->data.len;
}

/* Fixes the file-mode layout: no attr may be added after this. */
static inline void synth_freeze(struct synth *s)
{
	u64 off = PD_FILE_HEADER_SIZE;

	if (s->frozen)
		return;
	s->frozen = 1;
	for (u32 i = 0; i < s->nr_attrs; i++)
		off += s->attrs[i].attr.size + 16 + s->attrs[i].nr_ids * 8;
	s->data_offset = off;
}

/* Starts a record of the given type; the size is set by synth_end(). */
static inline void synth_begin(struct synth *s, u32 type, u16 misc)
{
	synth_freeze(s);
	s->rec.len = 0;
	synth_w32(s, &s->rec, type);
	synth_w16(s, &s->rec, misc);
	synth_w16(s, &s->rec, 0);
}

static inline void synth_u64(struct synth *s, u64 v) { synth_w64(s, &s->rec, v); }
static inline void synth_u32(struct synth *s, u32 v) { synth_w32(s, &s->rec, v); }
static inline void synth_bytes(struct synth *s, const void *p, size_t n) { synth_put(&s->rec, p, n); }

/* A NUL-terminated string zero-padded to a multiple of 8. */
static inline void synth_str(struct synth *s, const char *str)
{
	static const u8 zeros[8];
	size_t n = strlen(str) + 1;

	synth_bytes(s, str, n);
	synth_bytes(s, zeros, (8 - n % 8) % 8);
}

/* Appends raw bytes to the data stream (or the text to compress). */
static inline u64 synth_raw(struct synth *s, const void *p, size_t n)
{
	u64 off = s->compressing ? 0 : synth_pos(s);

	synth_freeze(s);
	synth_put(s->compressing ? &s->plain : &s->data, p, n);
	return off;
}

/* Finishes the record (size = bytes written) and appends it; returns its
 * offset (0 inside compressed data). */
static inline u64 synth_end(struct synth *s)
{
	u16 size = (u16)s->rec.len;

	if (s->rec.len > 65535)
		abort();
	if (s->swap)
		size = __builtin_bswap16(size);
	memcpy(s->rec.p + 6, &size, 2);
	return synth_raw(s, s->rec.p, s->rec.len);
}

/*
 * Adds an attr (attr->size is the size on disk: 64 to 136, or more) with
 * its ids.  In pipe mode this emits a HEADER_ATTR record at once.
 */
static inline u64 synth_attr(struct synth *s, const struct pd_attr *attr,
			     const u64 *ids, u32 nr_ids)
{
	struct synth_attr *a;

	if (s->nr_attrs >= SYNTH_MAX_ATTRS || nr_ids > SYNTH_MAX_IDS || (!s->pipe && s->frozen))
		abort();
	a = &s->attrs[s->nr_attrs++];
	a->attr = *attr;
	if (!a->attr.size)
		a->attr.size = 128;
	memcpy(a->ids, ids, nr_ids * sizeof(u64));
	a->nr_ids = nr_ids;
	if (!s->pipe)
		return 0;
	synth_begin(s, PD_REC_HEADER_ATTR, 0);
	synth_put_attr(s, &s->rec, &a->attr, a->attr.size);
	for (u32 i = 0; i < nr_ids; i++)
		synth_u64(s, ids[i]);
	return synth_end(s);
}

/* File mode: stores a feature payload; pipe mode: emits HEADER_FEATURE. */
static inline u64 synth_feature(struct synth *s, unsigned bit, const void *p, size_t n)
{
	if (s->pipe) {
		synth_begin(s, PD_REC_HEADER_FEATURE, 0);
		synth_u64(s, bit);
		synth_bytes(s, p, n);
		return synth_end(s);
	}
	free(s->feat[bit]);
	s->feat[bit] = malloc(n ? n : 1);
	memcpy(s->feat[bit], p, n);
	s->feat_len[bit] = n;
	return 0;
}

/* Appends the sample_id trailer of attr ai (only if it has sample_id_all). */
static inline void synth_trailer(struct synth *s, u32 ai, const struct pd_id_trailer *t)
{
	const struct pd_attr *a = &s->attrs[ai].attr;
	u64 st = a->sample_type;

	if (!PD_ATTR_FLAG(a, PD_ATTR_SAMPLE_ID_ALL))
		return;
	if (st & PD_SAMPLE_TID) { synth_u32(s, t->pid); synth_u32(s, t->tid); }
	if (st & PD_SAMPLE_TIME) synth_u64(s, t->time);
	if (st & PD_SAMPLE_ID) synth_u64(s, t->id);
	if (st & PD_SAMPLE_STREAM_ID) synth_u64(s, t->stream_id);
	if (st & PD_SAMPLE_CPU) { synth_u32(s, t->cpu); synth_u32(s, t->cpu_res); }
	if (st & PD_SAMPLE_IDENTIFIER) synth_u64(s, t->id);
}

/* A COMM record of attr ai with a trailer {pid, tid, time, id}. */
static inline u64 synth_comm(struct synth *s, u32 ai, u32 pid, u32 tid, const char *comm,
			     u64 time, u64 id)
{
	struct pd_id_trailer t = { .pid = pid, .tid = tid, .time = time, .id = id,
				   .stream_id = id, .cpu = 1 };

	synth_begin(s, PD_REC_COMM, 0);
	synth_u32(s, pid);
	synth_u32(s, tid);
	synth_str(s, comm);
	synth_trailer(s, ai, &t);
	return synth_end(s);
}

/* Copies n u64s from the unaligned host-order array p. */
static inline void synth_u64s(struct synth *s, const u8 *p, u64 n)
{
	for (u64 i = 0; i < n; i++)
		synth_u64(s, pd_get64(p + i * 8));
}

/* Writes the body fields of a SAMPLE of attr ai from v (the decoder's
 * view): exactly what pd_parse_sample() should give back. */
static inline void synth_sample_body(struct synth *s, u32 ai, const struct pd_sample *v)
{
	const struct pd_attr *a = &s->attrs[ai].attr;
	u64 st = a->sample_type, rf = a->read_format;

	if (st & PD_SAMPLE_IDENTIFIER) synth_u64(s, v->id);
	if (st & PD_SAMPLE_IP) synth_u64(s, v->ip);
	if (st & PD_SAMPLE_TID) { synth_u32(s, v->pid); synth_u32(s, v->tid); }
	if (st & PD_SAMPLE_TIME) synth_u64(s, v->time);
	if (st & PD_SAMPLE_ADDR) synth_u64(s, v->addr);
	if (st & PD_SAMPLE_ID) synth_u64(s, v->id);
	if (st & PD_SAMPLE_STREAM_ID) synth_u64(s, v->stream_id);
	if (st & PD_SAMPLE_CPU) { synth_u32(s, v->cpu); synth_u32(s, v->cpu_res); }
	if (st & PD_SAMPLE_PERIOD) synth_u64(s, v->period);
	if (st & PD_SAMPLE_READ) {
		u64 per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

		synth_u64(s, (rf & PD_FORMAT_GROUP) ? v->read.nr : v->read.value);
		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED) synth_u64(s, v->read.time_enabled);
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING) synth_u64(s, v->read.time_running);
		if (rf & PD_FORMAT_GROUP) {
			synth_u64s(s, v->read.values, v->read.nr * per);
		} else {
			if (rf & PD_FORMAT_ID) synth_u64(s, v->read.id);
			if (rf & PD_FORMAT_LOST) synth_u64(s, v->read.lost);
		}
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		synth_u64(s, v->callchain_nr);
		synth_u64s(s, v->callchain, v->callchain_nr);
	}
	if (st & PD_SAMPLE_RAW) {
		synth_u32(s, v->raw_size);
		synth_bytes(s, v->raw, v->raw_size);
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		synth_u64(s, v->branch_nr);
		if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
			synth_u64(s, v->branch_hw_idx);
		synth_u64s(s, v->branch, v->branch_nr * 3);
	}
	if (st & PD_SAMPLE_REGS_USER) {
		synth_u64(s, v->regs_user_abi);
		if (v->regs_user_abi)
			synth_u64s(s, v->regs_user, (u64)__builtin_popcountll(a->sample_regs_user));
	}
	if (st & PD_SAMPLE_STACK_USER) {
		synth_u64(s, v->stack_user_size);
		if (v->stack_user_size) {
			synth_bytes(s, v->stack_user, v->stack_user_size);
			synth_u64(s, v->stack_user_dyn_size);
		}
	}
	if (st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)) synth_u64(s, v->weight);
	if (st & PD_SAMPLE_DATA_SRC) synth_u64(s, v->data_src);
	if (st & PD_SAMPLE_TRANSACTION) synth_u64(s, v->transaction);
	if (st & PD_SAMPLE_REGS_INTR) {
		synth_u64(s, v->regs_intr_abi);
		if (v->regs_intr_abi)
			synth_u64s(s, v->regs_intr, (u64)__builtin_popcountll(a->sample_regs_intr));
	}
	if (st & PD_SAMPLE_PHYS_ADDR) synth_u64(s, v->phys_addr);
	if (st & PD_SAMPLE_CGROUP) synth_u64(s, v->cgroup);
	if (st & PD_SAMPLE_DATA_PAGE_SIZE) synth_u64(s, v->data_page_size);
	if (st & PD_SAMPLE_CODE_PAGE_SIZE) synth_u64(s, v->code_page_size);
	if (st & PD_SAMPLE_AUX) {
		synth_u64(s, v->aux_size);
		synth_bytes(s, v->aux, v->aux_size);
	}
}

/* A whole SAMPLE record of attr ai. */
static inline u64 synth_sample(struct synth *s, u32 ai, u16 misc, const struct pd_sample *v)
{
	synth_begin(s, PD_REC_SAMPLE, misc);
	synth_sample_body(s, ai, v);
	return synth_end(s);
}

/* The simplest SAMPLE: fields IP, TID, TIME, ID, CPU, PERIOD as the attr
 * has them, pid = tag so tests can tell records apart. */
static inline u64 synth_tsample(struct synth *s, u32 ai, u64 time, u32 tag)
{
	struct pd_sample v = { .ip = 0x1000 + tag, .pid = tag, .tid = tag, .time = time,
			       .id = s->attrs[ai].nr_ids ? s->attrs[ai].ids[0] : 0,
			       .cpu = 0, .period = 1 };

	return synth_sample(s, ai, 0, &v);
}

/* FINISHED_ROUND. */
static inline u64 synth_round(struct synth *s)
{
	synth_begin(s, PD_REC_FINISHED_ROUND, 0);
	return synth_end(s);
}

/* A user record of the given type with body bytes. */
static inline u64 synth_user(struct synth *s, u32 type, const void *body, size_t n)
{
	synth_begin(s, type, 0);
	synth_bytes(s, body, n);
	return synth_end(s);
}

/* HEADER_TRACING_DATA {u32 size, u32 pad} followed by the blob padded to 8. */
static inline u64 synth_tracing_data(struct synth *s, const void *blob, u32 size)
{
	static const u8 zeros[8];
	u64 off;

	synth_begin(s, PD_REC_HEADER_TRACING_DATA, 0);
	synth_u32(s, size);
	synth_u32(s, 0);
	off = synth_end(s);
	synth_raw(s, blob, size);
	synth_raw(s, zeros, (8 - size % 8) % 8);
	return off;
}

/* AUXTRACE {u64 size, offset, reference; u32 idx, tid, cpu, pad} followed
 * by size bytes of AUX data (fill byte) that header.size does not count. */
static inline u64 synth_auxtrace(struct synth *s, u64 size, u8 fill)
{
	u8 chunk[4096];
	u64 off;

	synth_begin(s, PD_REC_AUXTRACE, 0);
	synth_u64(s, size);
	synth_u64(s, 0);
	synth_u64(s, 0x1234);
	synth_u32(s, 0);
	synth_u32(s, 42);
	synth_u32(s, 1);
	synth_u32(s, 0);
	off = synth_end(s);
	memset(chunk, fill, sizeof(chunk));
	for (u64 done = 0; done < size;) {
		u64 n = size - done < sizeof(chunk) ? size - done : sizeof(chunk);

		synth_raw(s, chunk, n);
		done += n;
	}
	return off;
}

/* From now on records go into the zstd stream. */
static inline void synth_compress_start(struct synth *s)
{
	if (!s->zc) {
		s->zc = ZSTD_createCCtx();
		if (!s->zc)
			abort();
		ZSTD_CCtx_setParameter(s->zc, ZSTD_c_compressionLevel, 1);
	}
	s->compressing = 1;
}

/*
 * Emits a COMPRESSED record holding the first n bytes waiting to be
 * compressed (all of them if n is larger), compressed and flushed, not
 * ended: every payload continues one zstd stream.  Returns its offset.
 */
static inline u64 synth_compressed(struct synth *s, size_t n)
{
	size_t cap = ZSTD_compressBound(s->plain.len) + 64;
	u8 *out = malloc(cap);
	ZSTD_inBuffer in;
	ZSTD_outBuffer zout = { out, cap, 0 };
	u64 off;
	size_t left;
	int was = s->compressing;

	if (n > s->plain.len)
		n = s->plain.len;
	in = (ZSTD_inBuffer){ s->plain.p, n, 0 };
	do {
		left = ZSTD_compressStream2(s->zc, &zout, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			abort();
	} while (left);
	memmove(s->plain.p, s->plain.p + n, s->plain.len - n);
	s->plain.len -= n;
	s->compressing = 0;
	synth_begin(s, PD_REC_COMPRESSED, 0);
	synth_bytes(s, out, zout.pos);
	off = synth_end(s);
	s->compressing = was;
	free(out);
	return off;
}

/* Records go to the top level again (what is left is dropped: emit it
 * first with synth_compressed()). */
static inline void synth_compress_stop(struct synth *s)
{
	s->compressing = 0;
}

/* The record most recently finished, as written (host order unless swap). */
static inline struct pd_header *synth_last(struct synth *s)
{
	return (struct pd_header *)s->rec.p;
}

/* The whole file or stream; the caller frees it. */
static inline u8 *synth_image(struct synth *s, size_t *lenp)
{
	struct synth_buf out = { 0 };
	u64 magic = PD_MAGIC;

	synth_freeze(s);
	synth_w64(s, &out, magic);
	if (s->pipe) {
		synth_w64(s, &out, PD_PIPE_HEADER_SIZE);
		synth_put(&out, s->data.p, s->data.len);
		*lenp = out.len;
		return out.p;
	}
	u64 attr_size = s->nr_attrs ? s->attrs[0].attr.size + 16 : 144;
	u64 attrs_off = PD_FILE_HEADER_SIZE;
	u64 ids_off = attrs_off + s->nr_attrs * attr_size;
	u64 feat_table = s->data_offset + s->data.len;
	u64 words[4] = { 0 };
	u32 nr_feat = 0;

	for (int i = 0; i < PD_FEAT_BITS; i++) {
		if (s->feat[i]) {
			words[i / 64] |= 1ULL << (i % 64);
			nr_feat++;
		}
	}
	synth_w64(s, &out, PD_FILE_HEADER_SIZE);
	synth_w64(s, &out, attr_size);
	synth_w64(s, &out, attrs_off);
	synth_w64(s, &out, s->nr_attrs * attr_size);
	synth_w64(s, &out, s->data_offset);
	synth_w64(s, &out, s->data_size_zero ? 0 : s->data.len);
	synth_w64(s, &out, 0);
	synth_w64(s, &out, 0);
	for (int i = 0; i < 4; i++)
		synth_w64(s, &out, words[i]);
	for (u32 i = 0, id = 0; i < s->nr_attrs; i++) {
		const struct synth_attr *a = &s->attrs[i];

		synth_put_attr(s, &out, &a->attr, a->attr.size);
		synth_w64(s, &out, ids_off + id * 8);
		synth_w64(s, &out, a->nr_ids * 8);
		id += a->nr_ids;
	}
	for (u32 i = 0; i < s->nr_attrs; i++)
		for (u32 k = 0; k < s->attrs[i].nr_ids; k++)
			synth_w64(s, &out, s->attrs[i].ids[k]);
	if (out.len != s->data_offset)
		abort();
	synth_put(&out, s->data.p, s->data.len);
	u64 payload = feat_table + nr_feat * 16;
	for (int i = 0; i < PD_FEAT_BITS; i++) {
		if (!s->feat[i])
			continue;
		synth_w64(s, &out, payload);
		synth_w64(s, &out, s->feat_len[i]);
		payload += s->feat_len[i];
	}
	for (int i = 0; i < PD_FEAT_BITS; i++)
		if (s->feat[i])
			synth_put(&out, s->feat[i], s->feat_len[i]);
	*lenp = out.len;
	return out.p;
}

/* Writes bytes to a new temporary file; path (>= 32 bytes) gets its name. */
static inline void synth_write_tmp(const u8 *p, size_t len, char *path)
{
	int fd;

	strcpy(path, "/tmp/prof-synth-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, p, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* Writes the image to a new temporary file. */
static inline void synth_tmpfile(struct synth *s, char *path)
{
	size_t len;
	u8 *p = synth_image(s, &len);

	synth_write_tmp(p, len, path);
	free(p);
}

#endif
