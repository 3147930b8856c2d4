/*
 * dump_int.h - what the files of "prof report -D" share: the output
 * buffer, the readers of a record's fields and the dump's state.
 *
 *	dump.c          the record dispatcher, the header lines, the stats
 *	dump_records.c  printers of the records other than samples
 *	dump_sample.c   the sample printer
 *	dump_machine.c  a sample's thread and dso lines, from the session
 *
 * Private to src/output/dump*.c.
 */
#ifndef PROF_OUTPUT_DUMP_INT_H
#define PROF_OUTPUT_DUMP_INT_H

#include "dump.h"
#include "../util/arena.h"

#include <stdio.h>
#include <string.h>

/* ---- output buffer ---------------------------------------------------- */

#define OBUF_SIZE (1 << 20)
#define OBUF_SLACK 256		/* room any single small write may assume */

struct obuf {
	char *buf;
	size_t len;
	FILE *out;
	int failed;		/* a write to out failed */
};

/* Writes what the buffer holds to its file. */
void ob_flush(struct obuf *o);


/* Makes room for n more bytes (n <= OBUF_SIZE) and returns the write point. */
static inline char *ob_room(struct obuf *o, size_t n)
{
	if (o->len + n > OBUF_SIZE)
		ob_flush(o);
	return o->buf + o->len;
}

static inline void ob_mem(struct obuf *o, const void *p, size_t n)
{
	if (n > OBUF_SIZE / 2) {
		ob_flush(o);
		if (fwrite(p, 1, n, o->out) != n)
			o->failed = 1;
		return;
	}
	memcpy(ob_room(o, n), p, n);
	o->len += n;
}

static inline void ob_str(struct obuf *o, const char *s)
{
	ob_mem(o, s, strlen(s));
}

static inline void ob_chr(struct obuf *o, char c)
{
	*ob_room(o, 1) = c;
	o->len++;
}

/* Writes the string of at most max bytes at s (a record's char array). */
static inline void ob_strn(struct obuf *o, const char *s, size_t max)
{
	ob_mem(o, s, strnlen(s, max));
}

static inline void ob_u64(struct obuf *o, u64 v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ob_mem(o, tmp + i, sizeof(tmp) - i);
}

static inline void ob_s64(struct obuf *o, s64 v)
{
	if (v < 0) {
		ob_chr(o, '-');
		ob_u64(o, (u64)0 - (u64)v);
	} else {
		ob_u64(o, (u64)v);
	}
}

static const char hex_digits[] = "0123456789abcdef";

/* Lowercase hex, at least width digits (zero-padded). */
static inline void ob_hexw(struct obuf *o, u64 v, int width)
{
	char tmp[16];
	int i = sizeof(tmp);

	do {
		tmp[--i] = hex_digits[v & 15];
		v >>= 4;
	} while (v);
	while (sizeof(tmp) - i < (size_t)width && i > 0)
		tmp[--i] = '0';
	ob_mem(o, tmp + i, sizeof(tmp) - i);
}

/* printf's "%#x": "0" for zero, else "0x" and the digits. */
static inline void ob_hexalt(struct obuf *o, u64 v)
{
	if (!v) {
		ob_chr(o, '0');
		return;
	}
	ob_mem(o, "0x", 2);
	ob_hexw(o, v, 1);
}

/* printf into the buffer (for floats and rare records). */
void ob_fmt(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the dump's state ------------------------------------------------ */

struct session;

struct dump_state {
	struct obuf ob;
	struct arena arena;	/* strings of the dump's own */
	const char *name;	/* file name shown after '@' */
	struct session *session;	/* threads and maps (src/session) */
	const char *arch;	/* "x86", "arm64", ... for register names */
	u32 nr_attrs_seen;	/* HEADER_ATTR records seen (pipe mode) */
	u64 combined_type;	/* perf's cached combined sample_type */
	struct read_period *periods;	/* SAMPLE_READ last values by id */
	u64 period_mask, nr_periods;
	u64 *hist_samples;	/* per evsel: what perf's hists count */
	u32 nr_hist;		/* entries in hist_samples */
	int branch_mode;	/* HEADER_BRANCH_STACK: perf counts branches */
};

/* Last counter value per sample id, for PERF_SAMPLE_READ deltas. */
struct read_period {
	u64 id;			/* 0 = free slot */
	u64 value;
};

/* ---- helpers for records ---------------------------------------------- */

struct rec {
	const u8 *p;		/* record start */
	u32 size;
};

static inline u64 rec64(const struct rec *r, u32 off)
{
	return off + 8 <= r->size ? pd_get64(r->p + off) : 0;
}

static inline u32 rec32(const struct rec *r, u32 off)
{
	return off + 4 <= r->size ? pd_get32(r->p + off) : 0;
}

static inline u16 rec16(const struct rec *r, u32 off)
{
	return off + 2 <= r->size ? pd_get16(r->p + off) : 0;
}

/* The NUL-terminated string at off, cut at the record's end. */
static inline void ob_recstr(struct obuf *o, const struct rec *r, u32 off)
{
	if (off < r->size)
		ob_strn(o, (const char *)r->p + off, r->size - off);
}


/* ---- dump.c ----------------------------------------------------------- */

/* The event name perf's -D shows for e. */
const char *dump_evsel_name(const struct pd_file *f, const struct pd_evsel *e, char *buf,
			    size_t size);

/* ---- dump_records.c --------------------------------------------------- */

/* Prints the decoded part of a kernel record other than a sample. */
void dump_kernel_record(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
			const struct rec *r);
/* Prints the decoded part of a user record (type >= PD_REC_USER_START). */
void dump_user_record(struct dump_state *st, const struct pd_event *ev, const struct rec *r);

/* ---- dump_sample.c ---------------------------------------------------- */

/* Prints the decoded part of a sample, then its thread and dso lines. */
void dump_sample(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
		 const struct pd_sample *sp);

/* ---- dump_machine.c --------------------------------------------------- */

/* Makes the session of f. */
void dump_machine_begin(struct dump_state *st, struct pd_file *f);
/* Frees it. */
void dump_machine_end(struct dump_state *st);
/* What a record other than a sample changes in the session, after it was
 * printed (a FORK may add perf's "removing erroneous parent" line). */
void dump_machine_event(struct dump_state *st, const struct pd_event *ev);
/* A sample's " ... thread:" and " ...... dso:" lines, then the lookups
 * perf's report makes after it that can load the kernel map (callchain,
 * branch targets in branch mode). */
void dump_resolve(struct dump_state *st, const struct pd_event *ev, const struct pd_evsel *e,
		  const struct pd_sample *s);

#endif
