/*
 * tracing_data.h - the TRACING_DATA feature perf record writes for files
 * with tracepoint events: the tracefs format files perf needs to decode
 * their raw data.
 *
 * Layout (version 0.6, host byte order), as perf 6.1 writes it:
 *   "\027\010\104tracing" "0.6\0", u8 big-endian, u8 sizeof(long),
 *   u32 page size; "header_page\0" u64 size + events/header_page;
 *   "header_event\0" u64 size + events/header_event; u32 0 ftrace
 *   formats; u32 number of systems, then per system its name and NUL,
 *   u32 number of events, per event u64 size + its format file; u32 0
 *   (an empty kallsyms); u32 size + printk_formats; u64 size +
 *   saved_cmdlines.
 * Systems and events come in tracefs directory order, as perf lists them;
 * only the events asked for are included.
 */
#ifndef PROF_EVENT_TRACING_DATA_H
#define PROF_EVENT_TRACING_DATA_H

#include <stddef.h>

/*
 * Builds the payload for the tracepoints named "sys:name" in names[0..nr).
 * Returns a malloc'ed buffer and its size, or NULL (after an error) when
 * tracefs cannot be read.
 */
void *ev_tracing_data(const char *const *names, int nr, size_t *size);

#endif
