/*
 * script_stdio.c - writes "perf script" lines into a big buffer by hand.
 *
 * Each writer below prints exactly what the printf format named in its
 * comment prints; the buffer grows to hold one sample and is flushed
 * between samples once it holds SCRIPT_OUT_FLUSH bytes.  Invariant: the
 * buffer always has room for what a writer reserves before it writes.
 */
#include "script_stdio.h"

#include "../util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void script_out_init(struct script_out *o, int fd)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->cap = SCRIPT_OUT_FLUSH + (64u << 10);
	o->buf = xmalloc(o->cap);
}

int script_out_flush(struct script_out *o)
{
	size_t done = 0;

	while (!o->failed && done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->failed = 1;
			o->saved_errno = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
	return o->failed ? -1 : 0;
}

void script_out_free(struct script_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = o->cap = 0;
}

/* Makes room for n more bytes and returns where they go. */
static char *reserve(struct script_out *o, size_t n)
{
	if (o->len + n > o->cap) {
		while (o->len + n > o->cap)
			o->cap *= 2;
		o->buf = xrealloc(o->buf, o->cap);
	}
	return o->buf + o->len;
}

void script_put_char(struct script_out *o, char c)
{
	*reserve(o, 1) = c;
	o->len++;
}

void script_put_mem(struct script_out *o, const char *s, size_t n)
{
	memcpy(reserve(o, n), s, n);
	o->len += n;
}

#define put_mem script_put_mem

static void put_str(struct script_out *o, const char *s)
{
	put_mem(o, s, strlen(s));
}

static void put_spaces(struct script_out *o, int n)
{
	if (n <= 0)
		return;
	memset(reserve(o, (size_t)n), ' ', (size_t)n);
	o->len += (size_t)n;
}

/* "%*s" (right-aligned, never cut) */
static void put_str_right(struct script_out *o, const char *s, int w)
{
	size_t n = strlen(s);

	put_spaces(o, w - (int)n);
	put_mem(o, s, n);
}

/* The decimal digits of v, at the end of tmp[24]; returns their count. */
static int u64_digits(u64 v, char *tmp)
{
	int n = 0;

	do {
		tmp[23 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return n;
}

/* "%*llu" with w > 0, "%-*llu" with w < 0; zero_pad: "%0*llu" */
static void put_u64(struct script_out *o, u64 v, int w, int zero_pad)
{
	char tmp[24];
	int n = u64_digits(v, tmp);

	if (w > n) {
		if (zero_pad)
			memset(reserve(o, (size_t)(w - n)), '0', (size_t)(w - n)), o->len += (size_t)(w - n);
		else
			put_spaces(o, w - n);
	}
	put_mem(o, tmp + 24 - n, (size_t)n);
	if (w < 0)
		put_spaces(o, -w - n);
}

/* "%*d" (w > 0) or "%-*d" (w < 0) */
static void put_s32(struct script_out *o, s32 v, int w)
{
	char tmp[24];
	int n;

	if (v >= 0) {
		put_u64(o, (u64)v, w, 0);
		return;
	}
	n = u64_digits((u64)(-(s64)v), tmp);
	tmp[23 - n++] = '-';
	if (w > n)
		put_spaces(o, w - n);
	put_mem(o, tmp + 24 - n, (size_t)n);
	if (w < 0)
		put_spaces(o, -w - n);
}

/* "%03d" */
static void put_cpu(struct script_out *o, s32 v)
{
	if (v >= 0) {
		put_u64(o, (u64)v, 3, 1);
	} else {
		char tmp[24];
		int n = u64_digits((u64)(-(s64)v), tmp);

		script_put_char(o, '-');
		if (n < 2)
			script_put_char(o, '0');
		put_mem(o, tmp + 24 - n, (size_t)n);
	}
}

static const char hex_digits[] = "0123456789abcdef";

/* "%*llx" (w may be 0: no padding) */
static void put_hex(struct script_out *o, u64 v, int w)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[15 - n++] = hex_digits[v & 15];
		v >>= 4;
	} while (v);
	put_spaces(o, w - n);
	put_mem(o, tmp + 16 - n, (size_t)n);
}

void script_put_head(struct script_out *o, unsigned fields, const struct script_head *h)
{
	if (fields & SF_COMM) {
		if (h->comm_unpadded)
			put_str(o, h->comm);
		else
			put_str_right(o, h->comm, 16);
		script_put_char(o, ' ');
	}
	if ((fields & SF_PID) && (fields & SF_TID)) {
		put_s32(o, h->pid, 5);
		script_put_char(o, '/');
		put_s32(o, h->tid, -5);
		script_put_char(o, ' ');
	} else if (fields & (SF_PID | SF_TID)) {
		put_s32(o, fields & SF_PID ? h->pid : h->tid, 5);
		script_put_char(o, ' ');
	}
	if (fields & SF_CPU) {
		script_put_char(o, '[');
		put_cpu(o, (s32)h->cpu);
		put_mem(o, "] ", 2);
	}
	if (fields & SF_TIME) {
		u64 secs = h->time / 1000000000, nsecs = h->time % 1000000000;

		if (h->nanosecs) {
			/* "%5lu.%09llu: " */
			put_u64(o, secs, 5, 0);
			script_put_char(o, '.');
			put_u64(o, nsecs, 9, 1);
		} else {
			/* "%12s: " of "%lu.%06lu" */
			char tmp[24];
			int n = u64_digits(secs, tmp);

			put_spaces(o, 12 - (n + 7));
			put_mem(o, tmp + 24 - n, (size_t)n);
			script_put_char(o, '.');
			put_u64(o, nsecs / 1000, 6, 1);
		}
		put_mem(o, ": ", 2);
	}
	if (fields & SF_PERIOD) {
		put_u64(o, h->period, 10, 0);
		script_put_char(o, ' ');
	}
	if (fields & SF_EVENT) {
		put_str_right(o, h->event, h->event_width);
		put_mem(o, ": ", 2);
	}
}

/* perf's __symbol__fprintf_symname_offs() without unknown_as_addr. */
static void put_sym(struct script_out *o, unsigned fields, const struct script_addr *a)
{
	u64 offset;

	if (!a->sym) {
		put_mem(o, "[unknown]", 9);
		return;
	}
	put_str(o, symbol_name(a->sym));
	if (!(fields & SF_SYMOFF))
		return;
	if (a->addr < symbol_end(a->sym))
		offset = a->addr - symbol_start(a->sym);
	else
		offset = a->addr - map_start(a->map) - symbol_start(a->sym);
	put_mem(o, "+0x", 3);
	put_hex(o, offset, 0);
}

void script_put_addr(struct script_out *o, unsigned fields, const struct script_addr *a,
		     int chain_line)
{
	if (fields & SF_IP) {
		if (chain_line)
			script_put_char(o, '\t');
		put_hex(o, a->ip, 16);
	}
	if (fields & SF_SYM) {
		script_put_char(o, ' ');
		put_sym(o, fields, a);
	}
	/* an inlined entry has no object, and says so at the end */
	if ((fields & SF_DSO) && !(a->sym && symbol_inlined(a->sym))) {
		put_mem(o, " (", 2);
		put_str(o, a->dso);
		script_put_char(o, ')');
	}
	if (a->sym && symbol_inlined(a->sym))
		put_mem(o, " (inlined)", 10);
	if (chain_line)
		script_put_char(o, '\n');
}
