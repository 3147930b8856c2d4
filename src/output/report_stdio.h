/*
 * report_stdio.h - "prof report --stdio": the flat profile in the exact
 * layout of "perf report --stdio" (perf 6.1, ui/stdio/hist.c and
 * builtin-report.c).
 *
 * Output order: report_stdio_begin() (the comment lines before the first
 * event), report_stdio_hists() per event with samples, report_stdio_end()
 * (the tip).  With quiet set only the entry rows (and perf's "# comm: x"
 * lines for one-item filters) are printed, as perf -q does.
 */
#ifndef PROF_OUTPUT_REPORT_STDIO_H
#define PROF_OUTPUT_REPORT_STDIO_H

#include "../analysis/hist.h"
#include "callchain_stdio.h"

#include <stdio.h>

struct report_stdio_opts {
	int quiet;		/* -q: rows only */
	int relative;		/* --percentage relative */
	int header_hint;	/* print the "To display the perf.data header" line */
	float min_percent;	/* --percent-limit */
	const char *time_str;	/* --time as given, or NULL */
	u64 total_lost_samples;
	const struct callchain_param *callgraph;	/* print each entry's
					   call graph (the histograms have
					   them), or NULL */
	int callgraph_skip_first;	/* --sort starts with "sym", no --fields */
	/* one-item filter lists perf names in "# comm: x" lines, or NULL */
	const char *elide_comm, *elide_dso, *elide_sym;
	int one_thread;		/* format the rows on the calling thread
				   only (else big reports start one more) */
};

/* The lines before the first event: header hint, elided filters and,
 * when complete (perf has something to show), the lost-samples count. */
void report_stdio_begin(FILE *out, const struct hist_layout *lay,
			const struct report_stdio_opts *o, int complete);
/* One event, or an event group (a leader after hists_group_link()):
 * "# Samples: ... of event[s] 'evname'", the column titles and the rows.
 * plural: perf says "events" (its evsel has more than one member, whether
 * shown as a group or not). */
void report_stdio_hists(FILE *out, const struct hists *h, const char *evname, int plural,
			const struct report_stdio_opts *o);
/* The trailing tip block. */
void report_stdio_end(FILE *out, const struct report_stdio_opts *o);

/* perf's convert_unit(): v in K, M or G (each step when v is more than
 * 1000, truncated), the unit letter (or ' ') in *unit. */
unsigned long report_convert_unit(unsigned long v, char *unit);

#endif
