/*
 * record_ring.h - the size of prof record's ring buffers, by perf 6.1's
 * rules, so that prof never has less room than perf for the same options.
 *
 * A ring is one metadata page and a power of two of data pages per CPU.
 * Without -m perf takes kernel.perf_event_mlock_kb (the locked memory each
 * CPU's rings may use) less one page, in pages, rounded down to a power of
 * two: 128 pages (512 KiB) at the kernel's default of 516; 512 KiB when
 * the setting cannot be read.  The call-graph mode, the frequency and the
 * number of CPUs do not change it.  -m gives a page count or a size (B, K,
 * M, G), rounded up to a power of two with a note.
 */
#ifndef PROF_CMD_RECORD_RING_H
#define PROF_CMD_RECORD_RING_H

/* The default data pages per ring for perf_event_mlock_kb mlock_kb (< 0:
 * unknown) and pages of page_size bytes; at least 1. */
unsigned ring_default_pages(long mlock_kb, long page_size);

/* The data pages -m ARG asks for ("16", "64K", "1M", ",N" after it
 * ignored), rounded up to a power of two with perf's note on stderr unless
 * quiet; 0 when ARG is bad or too big. */
unsigned ring_parse_pages(const char *arg, long page_size, int quiet);

#endif
