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
 *
 * Then, for files with call chains, prof's own block (no perf prints it):
 *
 *   Callchain stats:
 *                 samples:       5000  (with a callchain: 5000)
 *       callchain entries:      61234
 *   ...
 *   frames left [unknown] by shared object:
 *         frames     unknown   share  Shared Object
 *          40321          12    0.0%  [kernel.kallsyms]
 *
 * Labels are right-aligned to one column, numbers to the next.
 */
#include "stats.h"
#include "../format/evname.h"

#include <stdlib.h>

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
		if (f->pipe_mode) {
			/* perf names a stream's events here before EVENT_DESC
			   arrives: from their attrs */
			struct pd_evsel unnamed = *e;

			unnamed.name = NULL;
			fprintf(out, "%s stats:\n", pd_evsel_name(f, &unnamed, name, sizeof(name)));
		} else {
			fprintf(out, "%s stats:\n", pd_evsel_name(f, e, name, sizeof(name)));
		}
		if (e->nr_samples)
			print_count(out, "SAMPLE", e->nr_samples, 0);
		if (e->nr_lost_samples)
			print_count(out, "LOST_SAMPLES", e->nr_lost_samples, 0);
	}
}

/* Shared objects listed by name in the [unknown] table; the rest are
 * summed on one line. */
#define TOP_DSOS 20

static void print_dso_row(FILE *out, u64 frames, u64 unknown, const char *name)
{
	fprintf(out, "  %12llu  %10llu  %5.1f%%  %s\n", (unsigned long long)frames,
		(unsigned long long)unknown, frames ? 100.0 * (double)unknown / (double)frames : 0.0,
		name);
}

/* A rate with a K/M/G suffix, e.g. "12.3M". */
static void format_rate(char *buf, size_t size, double rate)
{
	if (rate >= 1e9)
		snprintf(buf, size, "%.1fG", rate / 1e9);
	else if (rate >= 1e6)
		snprintf(buf, size, "%.1fM", rate / 1e6);
	else if (rate >= 1e3)
		snprintf(buf, size, "%.1fK", rate / 1e3);
	else
		snprintf(buf, size, "%.0f", rate);
}

void chainstats_print(const struct chainstats *cs, double seconds, FILE *out)
{
	struct chainstats_dso *dsos;
	u64 other_frames = 0, other_unknown = 0, total_frames = 0;
	u32 nr;
	char rate[32];

	fprintf(out, "\nCallchain stats:\n");
	fprintf(out, "%21s: %10llu  (with a callchain: %llu)\n", "samples",
		(unsigned long long)cs->samples, (unsigned long long)cs->samples_with_chain);
	fprintf(out, "%21s: %10llu\n", "callchain entries", (unsigned long long)cs->entries);
	fprintf(out, "%21s: %10.1f  (entries per sample with a callchain)\n", "average depth",
		cs->samples_with_chain ? (double)cs->entries / (double)cs->samples_with_chain : 0.0);
	fprintf(out, "%21s: %10llu\n", "maximum depth", (unsigned long long)cs->max_depth);
	fprintf(out, "%21s: %10llu  (call-graph tree nodes: caller first, by %s)\n",
		"distinct call paths", (unsigned long long)cs->tree_nodes,
		cs->key == CC_KEY_ADDRESS ? "address" : "function");
	fprintf(out, "%21s: %10llu  (nodes; chains cut at %u frames)\n", "tree max depth",
		(unsigned long long)cs->tree_depth, cs->max_stack);
	format_rate(rate, sizeof(rate), seconds > 0 ? (double)cs->entries / seconds : 0.0);
	fprintf(out, "%21s: %10s  (%.2f s)\n", "entries/second", rate, seconds);

	dsos = chainstats_dsos(cs, &nr);
	fprintf(out, "frames left [unknown] by shared object:\n");
	fprintf(out, "  %12s  %10s  %6s  %s\n", "frames", "unknown", "share", "Shared Object");
	for (u32 i = 0; i < nr; i++) {
		total_frames += dsos[i].frames;
		if (i < TOP_DSOS) {
			print_dso_row(out, dsos[i].frames, dsos[i].unknown, dsos[i].name);
		} else {
			other_frames += dsos[i].frames;
			other_unknown += dsos[i].unknown;
		}
	}
	if (nr > TOP_DSOS) {
		char name[64];

		snprintf(name, sizeof(name), "(%u other shared objects)", nr - TOP_DSOS);
		print_dso_row(out, other_frames, other_unknown, name);
	}
	print_dso_row(out, total_frames, cs->frames_unknown, "(total)");
	free(dsos);
}
