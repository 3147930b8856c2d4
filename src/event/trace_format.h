/*
 * trace_format.h - a tracepoint sample's raw data printed from its event
 * format, as perf 6.1 prints it: the formats come from the TRACING_DATA
 * feature of a file (or a stream's HEADER_TRACING_DATA record, the same
 * bytes; see tracing_data.h for the layout) and are parsed by libtraceevent,
 * the library perf uses; a sample's fields are its print_fmt applied to
 * the raw data (perf's event_format__fprintf(): tep_print_event() with
 * TEP_PRINT_INFO, no plugins, as perf script and the "trace" sort key do).
 *
 * The blob is read as perf's trace_report() reads it: header_page (which
 * may set the long size), header_event skipped, the ftrace formats under
 * the system "ftrace", every system's event formats, kallsyms skipped
 * (perf resolves kernel addresses itself), printk formats and, from
 * version 0.6, saved_cmdlines.
 *
 * The fast path: what a sample prints depends only on the bytes of its
 * event's own fields (past the common_* ones) when the print format names
 * no common field and no kernel pointer (%p).  For such events the texts
 * are kept in a cache keyed by those bytes, so a sample whose fields were
 * seen before (a sched_switch between the same two tasks in the same
 * state) is one hash, one compare and one copy; an event whose samples
 * rarely repeat stops using the cache after a first look.
 *
 * Invariants: the formats are parsed once, when the set is made; a
 * sample's text is what tep_print_event() prints for it, cached or not.
 * A set prints one sample at a time: it is not for use on two threads at
 * once.
 */
#ifndef PROF_EVENT_TRACE_FORMAT_H
#define PROF_EVENT_TRACE_FORMAT_H

#include "../format/perf_data.h"

#include <stddef.h>

struct trace_formats;
struct trace_event;

/*
 * Parses a TRACING_DATA blob of size bytes.  Returns the set, or NULL
 * after a warning naming path when the blob is malformed (perf then
 * prints tracepoint samples without their fields).
 */
struct trace_formats *trace_formats_parse(const void *blob, u64 size, const char *path);

/* Frees a set (NULL is fine). */
void trace_formats_free(struct trace_formats *tf);

/* The format of tracepoint id (attr.config), or NULL when the set has
 * none. */
struct trace_event *trace_formats_event(struct trace_formats *tf, u64 id);

/* A kernel address resolver for the formats' function pointers (%ps,
 * %pS): the name of the symbol at *addr, which it sets to the symbol's
 * start, or NULL when there is none.  The name must stay valid while the
 * set prints. */
typedef const char *trace_resolver_fn(void *arg, u64 *addr);

/* Sets the resolver perf sets (machine__resolve_kernel_addr()); without
 * one, such fields print as hexadecimal addresses. */
void trace_formats_set_resolver(struct trace_formats *tf, trace_resolver_fn *fn, void *arg);

/*
 * Prints the fields of one sample (raw data raw of size bytes, recorded on
 * cpu) as perf does, without a newline.  Returns the text, valid until the
 * next call, and its length in *len.
 */
const char *trace_format_print(struct trace_formats *tf, struct trace_event *ev, u32 cpu,
			       const void *raw, u32 size, size_t *len);

#endif
