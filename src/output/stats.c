/*
 * stats.c - record-type counts as "perf report --stats" prints them:
 *
 *   Aggregated stats:
 *              TOTAL events:         23
 *               MMAP events:          1  ( 4.3%)
 *   ...
 *   cpu-clock:ppp stats:
 *             SAMPLE events:          8
 *
 * Types with a zero count are left out.  Types perf does not know (e.g.
 * simpleperf's private records) follow under their number.
 */
#include "stats.h"
#include "../format/evname.h"

static void print_count(FILE *out, const char *name, u64 count, u64 total)
{
	if (total)
		fprintf(out, "%16s events: %10llu  (%4.1f%%)\n", name, (unsigned long long)count,
			100.0 * (double)count / (double)total);
	else
		fprintf(out, "%16s events: %10llu\n", name, (unsigned long long)count);
}

void stats_print(const struct pd_file *f, FILE *out)
{
	const struct pd_stats *s = &f->stats;
	u64 total = s->nr_events;
	char name[256];

	/* perf notes that its counts leave out what it decodes from AUX data */
	fprintf(out, "\nAggregated stats:%s\n",
		s->nr_by_type[PD_REC_AUXTRACE_INFO] ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	print_count(out, "TOTAL", total, 0);
	for (u32 type = 1; type < PD_NR_COUNTED_TYPES; type++) {
		if (!s->nr_by_type[type])
			continue;
		if (pd_record_name(type)) {
			print_count(out, pd_record_name(type), s->nr_by_type[type], total);
		} else {
			snprintf(name, sizeof(name), "UNKNOWN(%u)", type);
			print_count(out, name, s->nr_by_type[type], total);
		}
	}
	for (u32 i = 0; i < s->nr_other_types; i++) {
		snprintf(name, sizeof(name), "UNKNOWN(%u)", s->other_types[i].type);
		print_count(out, name, s->other_types[i].count, total);
	}
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *e = &f->evsel[i];

		if (!e->nr_samples && !e->nr_lost_samples)
			continue;
		fprintf(out, "%s stats:\n", pd_evsel_name(f, e, name, sizeof(name)));
		if (e->nr_samples)
			print_count(out, "SAMPLE", e->nr_samples, 0);
		if (e->nr_lost_samples)
			print_count(out, "LOST_SAMPLES", e->nr_lost_samples, 0);
	}
}
