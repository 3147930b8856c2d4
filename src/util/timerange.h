/*
 * timerange.h - perf's --time ranges and -C CPU lists (perf 6.1 syntax),
 * shared by the commands that filter samples.
 */
#ifndef PROF_UTIL_TIMERANGE_H
#define PROF_UTIL_TIMERANGE_H

#include <stdint.h>

/* One --time range in nanoseconds; 0 at either end: open. */
struct time_range {
	uint64_t start, end;
};

/*
 * Parses a --time string: "START,END[ START,END...]" in seconds, or
 * percent slices ("10%/2", "0%-10%,30%-40%", "50%") of [first, last], the
 * recording's first and last sample times.  Returns the number of ranges
 * in *ranges (to be freed), or -1 for an invalid string (*ranges NULL).
 */
int time_ranges_parse(const char *str, uint64_t first, uint64_t last, struct time_range **ranges);

/* perf's perf_time__ranges_skip_sample(): is time t outside the nr
 * ranges?  A time of 0 (none) never is; nr 0 means no --time. */
int time_ranges_skip(const struct time_range *r, int nr, uint64_t t);

#define CPU_LIST_MAX 4096	/* CPUs a list may name (perf's MAX_NR_CPUS) */

/*
 * Parses perf's CPU list ("0-3,8") into a CPU_LIST_MAX-bit *bitmap (to be
 * freed).  CPUs must be below nr_cpus, the recording machine's.  Returns
 * 0, -1 on a bad list, -2 on a CPU out of range (an error printed either
 * way).
 */
int cpu_list_parse(const char *str, unsigned char **bitmap, uint32_t nr_cpus);

#endif
