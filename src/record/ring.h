/*
 * ring.h - prof record's ring buffers: their size by perf 6.1's rules, so
 * that prof never has less room than perf for the same options, and the
 * mapping and reading of each one.
 *
 * A ring is one metadata page and a power of two of data pages per CPU.
 * Without -m perf takes kernel.perf_event_mlock_kb (the locked memory each
 * CPU's rings may use) less one page, in pages, rounded down to a power of
 * two: 128 pages (512 KiB) at the kernel's default of 516; 512 KiB when
 * the setting cannot be read.  The call-graph mode, the frequency and the
 * number of CPUs do not change it.  -m gives a page count or a size (B, K,
 * M, G), rounded up to a power of two with a note.
 *
 * Reading protocol: the kernel advances data_head; ring_read() loads it
 * with acquire order, hands out [data_tail, data_head) (in two pieces when
 * it wraps past the end), then stores data_tail with release order, which
 * gives the bytes back to the kernel.  Records are 8-byte aligned and the
 * data size is a power of two, so a record header never wraps, though its
 * body may.
 */
#ifndef PROF_RECORD_RING_H
#define PROF_RECORD_RING_H

#include "../format/perf_data.h"

#include <linux/perf_event.h>
#include <stddef.h>

/* A CPU's ring buffer. */
struct ring {
	int fd;			/* the counter that owns it, -1 for none */
	struct perf_event_mmap_page *meta;	/* NULL until mapped */
	u8 *data;
	u64 mask;		/* data size - 1 */
};

/* The largest record: its size is a u16. */
#define RING_RECORD_MAX 65536

/* What ring_read() hands the new data to, in this order: each record
 * (whole and contiguous, even when it wraps), then all the bytes. */
struct ring_reader {
	void (*record)(void *arg, const struct pd_header *rec);
	void (*bytes)(void *arg, const void *data, size_t len);	/* once or twice */
	void *arg;
	u64 *whole;	/* RING_RECORD_MAX bytes, the reader's: where a record
			   that wraps is made whole */
};

/* The default data pages per ring for perf_event_mlock_kb mlock_kb (< 0:
 * unknown) and pages of page_size bytes; at least 1. */
unsigned ring_default_pages(long mlock_kb, long page_size);

/* The data pages -m ARG asks for ("16", "64K", "1M", ",N" after it
 * ignored), rounded up to a power of two with perf's note on stderr unless
 * quiet; 0 when ARG is bad or too big. */
unsigned ring_parse_pages(const char *arg, long page_size, int quiet);

/* Maps the metadata page and pages data pages of counter fd into ring,
 * which fd then owns.  Returns 0, or -1 with errno set (ring unchanged). */
int ring_map(struct ring *ring, int fd, unsigned pages, long page_size);

/* Unmaps a ring mapped with the same pages (nothing when never mapped). */
void ring_unmap(struct ring *ring, unsigned pages, long page_size);

/* Hands the ring's new data to rd and gives it back to the kernel.
 * Returns the bytes read (0 for a ring with no owner).  A record that
 * wraps is made whole in rd->whole, so reads at once need a whole each. */
u64 ring_read(struct ring *ring, const struct ring_reader *rd);

#endif
