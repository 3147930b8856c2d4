/*
 * read_values.h - a PERF_SAMPLE_READ sample split into the samples perf
 * 6.1 makes of it: one per value read, of the value's event, with the
 * value's growth since that id's last sample as its period.
 *
 * Use: a zeroed struct pd_read_state per pass over the samples (in the
 * order perf delivers them); pd_read_next() in a loop from *k = 0 for
 * each sample; pd_read_state_free() at the end.
 */
#ifndef PROF_FORMAT_READ_VALUES_H
#define PROF_FORMAT_READ_VALUES_H

#include "reader.h"

/* The last value read of each id: open addressing. */
struct pd_read_state {
	u64 *id, *last;
	u8 *used;
	u32 mask, nr;
};

/* The next value of sample s (of event from, with READ in its sample
 * type) to hand on: sets *evsel to the value's event and *period to its
 * growth; *k is the value's number (0 at first).  Returns 0 when no value
 * is left. */
int pd_read_next(const struct pd_file *f, const struct pd_evsel *from, const struct pd_sample *s,
		 struct pd_read_state *st, u64 *k, struct pd_evsel **evsel, u64 *period);

void pd_read_state_free(struct pd_read_state *st);

#endif
