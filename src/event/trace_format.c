/*
 * trace_format.c - the TRACING_DATA blob's formats parsed by libtraceevent
 * and a sample's fields printed from them (see trace_format.h).
 *
 * Blob layout (as tracing_data.h writes it; sizes in the blob's own byte
 * order, which its endian byte gives):
 *
 *   offset  size  meaning
 *   0       10    "\027\010\104tracing"
 *   10      n+1   version, NUL-terminated ("0.5", "0.6")
 *   +0      1     1: big-endian
 *   +1      1     sizeof(long)
 *   +2      4     page size
 *   +6      12    "header_page\0", then u64 size and the header_page text
 *   ...     13    "header_event\0", then u64 size and its text
 *   ...     4     number of ftrace formats, each u64 size + text
 *   ...     4     number of systems, each: name NUL, u32 events, each
 *                 u64 size + its format text
 *   ...     4     kallsyms size + text
 *   ...     4     printk_formats size + text
 *   ...     8     saved_cmdlines size + text (version 0.6 and later)
 */
#include "trace_format.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#define MEMO_BITS 12
#define MEMO_SLOTS (1u << MEMO_BITS)	/* direct-mapped */
#define MEMO_KEY 96		/* longer fields are not cached */
#define MEMO_TEXT 224		/* nor texts this long (with the NUL) */
#define MEMO_PROBE 4096		/* lookups before an event's hit rate is judged */

/* One event's format and what the cache knows of it. */
struct trace_event {
	struct tep_event *tep;
	u32 key_start;		/* where its own fields start in the raw data */
	int memo;		/* its texts may be cached (see the header) */
	u64 lookups, hits;
};

/* One slot of the text cache. */
struct memo_slot {
	const struct trace_event *ev;	/* NULL: empty */
	u64 hash;
	u16 key_len, text_len;
	u8 key[MEMO_KEY];
	char text[MEMO_TEXT];
};

/* The set: libtraceevent's handle, the events asked for, the cache and
 * the buffer samples print into. */
struct trace_formats {
	struct tep_handle *tep;
	struct trace_seq seq;	/* reset per sample, never freed between */
	trace_resolver_fn *resolve;	/* NULL: none set */
	void *resolve_arg;
	struct trace_event **events;	/* those trace_formats_event() found */
	u32 nr_events;
	struct memo_slot *memo;		/* MEMO_SLOTS, allocated on first use */
};

/* A bounded reader over the blob. */
struct blob {
	const u8 *p;
	u64 size, pos;
	int swap;		/* the blob's byte order is not ours */
};

static int rd(struct blob *b, u64 *v, int width)
{
	if (b->size - b->pos < (u64)width)
		return -1;
	if (width == 4) {
		u32 x;

		memcpy(&x, b->p + b->pos, 4);
		*v = b->swap ? __builtin_bswap32(x) : x;
	} else {
		u64 x;

		memcpy(&x, b->p + b->pos, 8);
		*v = b->swap ? __builtin_bswap64(x) : x;
	}
	b->pos += (u64)width;
	return 0;
}

/* The next len bytes, or NULL when the blob is shorter. */
static const char *take(struct blob *b, u64 len)
{
	const char *p = (const char *)b->p + b->pos;

	if (b->size - b->pos < len)
		return NULL;
	b->pos += len;
	return p;
}

/* A NUL-terminated string, or NULL when unterminated. */
static const char *take_str(struct blob *b)
{
	const char *s = (const char *)b->p + b->pos;
	const char *nul = memchr(s, 0, b->size - b->pos);

	if (!nul)
		return NULL;
	b->pos += (u64)(nul - s) + 1;
	return s;
}

/* A section of size bytes (width-byte size first) as a NUL-terminated copy. */
static char *take_text(struct blob *b, int width, u64 *len)
{
	const char *p;
	char *text;

	if (rd(b, len, width) || !(p = take(b, *len)))
		return NULL;
	text = xmalloc(*len + 1);
	memcpy(text, p, *len);
	text[*len] = '\0';
	return text;
}

/* perf's parse_ftrace_printk(): "addr : format" lines. */
static void parse_printk(struct tep_handle *tep, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			break;
		*colon = '\0';
		/* the format follows ": " */
		tep_register_print_string(tep, colon[1] ? colon + 2 : colon + 1,
					  strtoull(line, NULL, 16));
	}
}

/* perf's parse_saved_cmdline(): "pid comm" lines. */
static void parse_cmdlines(struct tep_handle *tep, char *text)
{
	char *save = NULL, comm[17];
	int pid;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%d %16s", &pid, comm) == 2)
			tep_register_comm(tep, comm, pid);
}

/* The header_page and header_event sections. */
static int parse_headers(struct tep_handle *tep, struct blob *b)
{
	const char *tag;
	char *text;
	u64 len;

	if (!(tag = take(b, 12)) || memcmp(tag, "header_page", 12))
		return -1;
	if (!(text = take_text(b, 8, &len)))
		return -1;
	/* the page's commit field is a long of the kernel's: its size wins */
	if (!tep_parse_header_page(tep, text, len, tep_get_long_size(tep)))
		tep_set_long_size(tep, tep_get_header_page_size(tep));
	free(text);
	if (!(tag = take(b, 13)) || memcmp(tag, "header_event", 13))
		return -1;
	return rd(b, &len, 8) || !take(b, len) ? -1 : 0;
}

/* count formats of system sys; a format libtraceevent cannot parse is
 * left out, as perf leaves it. */
static int parse_formats(struct tep_handle *tep, struct blob *b, u64 count, const char *sys)
{
	for (u64 i = 0; i < count; i++) {
		const char *text;
		u64 len;

		if (rd(b, &len, 8) || !(text = take(b, len)))
			return -1;
		tep_parse_event(tep, text, len, sys);
	}
	return 0;
}

static int parse_blob(struct tep_handle *tep, struct blob *b)
{
	const char *tag, *version, *sys;
	u64 v, count;
	char *text;

	if (!(tag = take(b, 10)) || memcmp(tag, "\027\010\104tracing", 10) ||
	    !(version = take_str(b)) || !(tag = take(b, 2)))
		return -1;
	b->swap = (tag[0] != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tep_set_flag(tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(tep, tag[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, tag[1]);
	if (rd(b, &v, 4) || !v)
		return -1;
	tep_set_page_size(tep, (int)v);
	if (parse_headers(tep, b) || rd(b, &count, 4) ||
	    parse_formats(tep, b, (u32)count, "ftrace") || rd(b, &count, 4))
		return -1;
	for (u32 i = 0; i < (u32)count; i++) {
		u64 events;

		if (!(sys = take_str(b)) || rd(b, &events, 4) ||
		    parse_formats(tep, b, (u32)events, sys))
			return -1;
	}
	/* kallsyms: skipped, perf resolves kernel addresses itself */
	if (rd(b, &v, 4) || !take(b, v))
		return -1;
	if (!(text = take_text(b, 4, &v)))
		return -1;
	parse_printk(tep, text);
	free(text);
	if (atof(version) >= 0.6) {
		if (!(text = take_text(b, 8, &v)))
			return -1;
		parse_cmdlines(tep, text);
		free(text);
	}
	return 0;
}

struct trace_formats *trace_formats_parse(const void *blob, u64 size, const char *path)
{
	struct blob b = { .p = blob, .size = size };
	struct trace_formats *tf = xcalloc(1, sizeof(*tf));

	tf->tep = tep_alloc();
	if (!tf->tep)
		die("out of memory");
	if (parse_blob(tf->tep, &b)) {
		warning("%s: malformed tracing data at offset %#llx: tracepoint fields not shown",
			path, (unsigned long long)b.pos);
		trace_formats_free(tf);
		return NULL;
	}
	trace_seq_init(&tf->seq);
	return tf;
}

void trace_formats_free(struct trace_formats *tf)
{
	if (!tf)
		return;
	for (u32 i = 0; i < tf->nr_events; i++)
		free(tf->events[i]);
	free(tf->events);
	free(tf->memo);
	if (tf->seq.buffer)
		trace_seq_destroy(&tf->seq);
	tep_free(tf->tep);
	free(tf);
}

/* Whether the print argument arg (and those it holds) names a common
 * field, or is of a kind not known here; both keep the event uncached. */
static int names_common(const struct tep_print_arg *arg)
{
	const char *name = NULL;

	if (!arg)
		return 0;
	switch (arg->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
		return 0;
	case TEP_PRINT_FIELD:
		name = arg->field.name;
		break;
	case TEP_PRINT_FLAGS:
		return names_common(arg->flags.field);
	case TEP_PRINT_SYMBOL:
		return names_common(arg->symbol.field);
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		return names_common(arg->hex.field) || names_common(arg->hex.size);
	case TEP_PRINT_INT_ARRAY:
		return names_common(arg->int_array.field) || names_common(arg->int_array.count) ||
		       names_common(arg->int_array.el_size);
	case TEP_PRINT_TYPE:
		return names_common(arg->typecast.item);
	case TEP_PRINT_STRING:
	case TEP_PRINT_BSTRING:
		name = arg->string.string;
		break;
	case TEP_PRINT_DYNAMIC_ARRAY:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!arg->dynarray.field)
			return 1;
		name = arg->dynarray.field->name;
		if (names_common(arg->dynarray.index))
			return 1;
		break;
	case TEP_PRINT_OP:
		return names_common(arg->op.left) || names_common(arg->op.right);
	case TEP_PRINT_FUNC:
		for (const struct tep_print_arg *a = arg->func.args; a; a = a->next)
			if (names_common(a))
				return 1;
		return 0;
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		name = arg->bitmask.bitmask;
		break;
	default:
		return 1;
	}
	return !name || !strncmp(name, "common_", 7);
}

/* Sets up what the cache knows of ev (see the header's fast path). */
static void memo_setup(struct trace_event *ev)
{
	const struct tep_event *e = ev->tep;
	const struct tep_format_field *f;

	ev->memo = e->print_fmt.format && !strstr(e->print_fmt.format, "%p") && !e->handler &&
		   !(e->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISFTRACE));
	for (const struct tep_print_arg *a = e->print_fmt.args; ev->memo && a; a = a->next)
		if (names_common(a))
			ev->memo = 0;
	for (f = e->format.common_fields; f; f = f->next)
		if (f->offset >= 0 && f->size >= 0 && (u32)(f->offset + f->size) > ev->key_start)
			ev->key_start = (u32)(f->offset + f->size);
}

struct trace_event *trace_formats_event(struct trace_formats *tf, u64 id)
{
	struct tep_event *e = id > (u64)0x7fffffff ? NULL : tep_find_event(tf->tep, (int)id);
	struct trace_event *ev;

	if (!e)
		return NULL;
	for (u32 i = 0; i < tf->nr_events; i++)
		if (tf->events[i]->tep == e)
			return tf->events[i];
	/* the events asked for are few, each found once before the samples */
	tf->events = xrealloc(tf->events, (tf->nr_events + 1) * sizeof(*tf->events));
	ev = xcalloc(1, sizeof(*ev));
	ev->tep = e;
	memo_setup(ev);
	tf->events[tf->nr_events++] = ev;
	return ev;
}

/* libtraceevent's resolver: the set's, without modules' names. */
static char *tep_resolver(void *priv, unsigned long long *addrp, char **modp)
{
	struct trace_formats *tf = priv;
	u64 addr = *addrp;
	const char *name = tf->resolve(tf->resolve_arg, &addr);

	*modp = NULL;
	if (name)
		*addrp = addr;
	return (char *)name;
}

void trace_formats_set_resolver(struct trace_formats *tf, trace_resolver_fn *fn, void *arg)
{
	tf->resolve = fn;
	tf->resolve_arg = arg;
	if (tep_set_function_resolver(tf->tep, tep_resolver, tf))
		die("out of memory");
}

static u64 memo_hash(const u8 *key, u32 len)
{
	u64 h = 0x9e3779b97f4a7c15ULL ^ len;

	for (u32 i = 0; i + 8 <= len; i += 8) {
		u64 w;

		memcpy(&w, key + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (u32 i = len & ~7u; i < len; i++)
		h = (h ^ key[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/* The cache slot of a sample's fields, when ev is cached and the fields
 * fit a slot; NULL otherwise. */
static struct memo_slot *memo_slot(struct trace_formats *tf, struct trace_event *ev,
				   const u8 *raw, u32 size, u64 *hash)
{
	u32 key_len;

	if (!ev->memo || size < ev->key_start || (key_len = size - ev->key_start) > MEMO_KEY)
		return NULL;
	if (ev->lookups++ == MEMO_PROBE && ev->hits < MEMO_PROBE / 4) {
		ev->memo = 0;	/* its samples rarely repeat */
		return NULL;
	}
	if (!tf->memo)
		tf->memo = xcalloc(MEMO_SLOTS, sizeof(*tf->memo));
	*hash = memo_hash(raw + ev->key_start, key_len);
	return &tf->memo[*hash >> (64 - MEMO_BITS)];
}

const char *trace_format_print(struct trace_formats *tf, struct trace_event *ev, u32 cpu,
			       const void *raw, u32 size, size_t *len)
{
	struct tep_record rec = {
		.cpu = (int)cpu,
		.size = (int)size,
		.data = (void *)raw,
	};
	u64 hash = 0;
	struct memo_slot *slot = memo_slot(tf, ev, raw, size, &hash);
	u32 key_len = size - ev->key_start;

	if (slot && slot->ev == ev && slot->hash == hash && slot->key_len == key_len &&
	    !memcmp(slot->key, (const u8 *)raw + ev->key_start, key_len)) {
		ev->hits++;
		*len = slot->text_len;
		return slot->text;
	}
	trace_seq_reset(&tf->seq);
	tep_print_event(ev->tep->tep, &tf->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&tf->seq);
	*len = tf->seq.len;
	if (slot && tf->seq.len < MEMO_TEXT && tf->seq.state == TRACE_SEQ__GOOD) {
		slot->ev = ev;
		slot->hash = hash;
		slot->key_len = (u16)key_len;
		memcpy(slot->key, (const u8 *)raw + ev->key_start, key_len);
		slot->text_len = (u16)tf->seq.len;
		memcpy(slot->text, tf->seq.buffer, tf->seq.len + 1);	/* and its NUL */
	}
	return tf->seq.buffer;
}
