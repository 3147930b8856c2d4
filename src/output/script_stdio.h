/*
 * script_stdio.h - "prof script": the lines "perf script" (perf 6.1,
 * builtin-script.c and util/evsel_fprintf.c) prints for a sample, written
 * by hand into one big buffer that goes to the output in large writes.
 *
 * A sample is a header (the fields before the address: comm, tid, cpu,
 * time, period, event), then either the sampled address on the same line
 * or, for a call chain, one line per frame, then a newline.  Invariant:
 * what is written here is byte for byte what perf's printf formats would
 * write; nothing is formatted with printf on the way.
 */
#ifndef PROF_OUTPUT_SCRIPT_STDIO_H
#define PROF_OUTPUT_SCRIPT_STDIO_H

#include "../session/session.h"

#include <stddef.h>

/* Output fields (perf's PERF_OUTPUT_* that prof prints), as bits. */
enum script_field {
	SF_COMM = 1u << 0,
	SF_TID = 1u << 1,
	SF_PID = 1u << 2,
	SF_TIME = 1u << 3,
	SF_CPU = 1u << 4,
	SF_EVENT = 1u << 5,
	SF_TRACE = 1u << 6,
	SF_IP = 1u << 7,
	SF_SYM = 1u << 8,
	SF_DSO = 1u << 9,
	SF_SYMOFF = 1u << 10,
	SF_PERIOD = 1u << 11,
	SF_BRSTACK = 1u << 12,		/* perf's brstack */
	SF_BRSTACKSYM = 1u << 13,	/* perf's brstacksym */
	/* (bits 14 and 15 tag the line cache's slots: script_sample.c) */
	/* what perf 6.1 adds for raw events whose samples carry it */
	SF_ADDR = 1u << 16,		/* "%16lx" of the sample's addr */
	SF_DATA_SRC = 1u << 17,		/* data_src, then its decoding */
	SF_WEIGHT = 1u << 18,		/* "%16lu" */
	SF_INS_LAT = 1u << 19,		/* "%16u": WEIGHT_STRUCT's second part */
	SF_PHYS_ADDR = 1u << 20,	/* "%16lx", after the address's text */
	SF_DATA_PAGE_SIZE = 1u << 21,	/* " 4K", after phys_addr */
	SF_CODE_PAGE_SIZE = 1u << 22,
};

/* The fields a frame's line can show (the line cache's tags hold these). */
#define SF_LINE_FIELDS 0x0fffu

/* The output buffer: flushed to fd when it holds SCRIPT_OUT_FLUSH bytes. */
struct script_out {
	char *buf;
	size_t len, cap;
	int fd;
	int failed;		/* a write failed (errno kept in saved_errno) */
	int saved_errno;
};

#define SCRIPT_OUT_FLUSH (1u << 20)

/* Sets o up to write to fd. */
void script_out_init(struct script_out *o, int fd);
/* Writes what o holds.  Returns 0, or -1 once a write has failed. */
int script_out_flush(struct script_out *o);
/* Flushes when the buffer is full enough; call between samples. */
static inline int script_out_maybe_flush(struct script_out *o)
{
	return o->len >= SCRIPT_OUT_FLUSH ? script_out_flush(o) : 0;
}
/* Frees the buffer (without flushing). */
void script_out_free(struct script_out *o);

/* The fields of a sample's header line. */
struct script_head {
	const char *comm;
	int comm_unpadded;	/* "%s " instead of "%16s " (call chains shown) */
	s32 pid, tid;
	u32 cpu;
	u64 time;
	int nanosecs;		/* --ns: 9 decimals instead of 6 */
	u64 period;
	const char *event;
	int event_width;	/* the longest event name of the file */
};

/* Writes the header fields selected in fields (comm to event). */
void script_put_head(struct script_out *o, unsigned fields, const struct script_head *h);

/* One address as perf prints it. */
struct script_addr {
	u64 ip;			/* the address shown */
	const struct symbol *sym;	/* NULL: "[unknown]" */
	u64 addr;		/* map-relative (what the offset is taken from) */
	const struct map *map;	/* NULL: no map ("[unknown]" object) */
	const char *dso;	/* the object's name as perf prints it */
};

/*
 * Writes one address with the fields selected (ip, sym, symoff, dso):
 * as a call-chain line ("\t%16lx sym+0xoff (dso)\n") when chain_line is
 * set, else as the end of the header line ("%16lx sym+0xoff (dso)").
 */
void script_put_addr(struct script_out *o, unsigned fields, const struct script_addr *a,
		     int chain_line);

/* Writes n bytes as they are (a line written before). */
void script_put_mem(struct script_out *o, const char *s, size_t n);

/* Writes one character. */
void script_put_char(struct script_out *o, char c);

#endif
