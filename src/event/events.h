/*
 * events.h - perf's -e event syntax, parsed into perf_event_attrs, for
 * prof record and prof stat.
 *
 * A list is comma-separated events, each optionally inside a group
 * "{a,b}" that may carry modifiers of its own ("{a,b}:u").  An event is
 *
 *   a symbolic name     cycles, instructions, cpu-clock, cs, faults, ...
 *   a cache event       L1-dcache-load-misses, LLC-loads, dTLB-stores, ...
 *   a raw event         rNNNN (hex)
 *   a PMU event         pmu/term=value,term,.../ (sysfs format terms,
 *                       the PMU's named events, config, config1,
 *                       config2, name)
 *   a tracepoint        sys:name, its id read from tracefs
 *
 * followed by ":modifiers" from u k h G H p pp ppp P S D I e W b.
 *
 * Invariants: the attrs come out as perf 6.1's parser leaves them, before
 * the command's own settings: type, config(1,2), the exclude_* and
 * precise_ip bits the modifiers give (or exclude_guest alone when there
 * are none), pinned/exclusive on group leaders, and for tracepoints the
 * sample_type and sample_period perf presets (RAW|TIME|CPU|PERIOD, 1).
 * Each event's name is the one perf keeps and writes into perf.data's
 * event_desc: the text as given ("cs", "cycles:u", "r1a8"), name= when
 * given, and "sys:name" for a tracepoint.  A failed parse leaves the list
 * as it was and fills an ev_error that ev_error_print() shows as perf does.
 */
#ifndef PROF_EVENT_EVENTS_H
#define PROF_EVENT_EVENTS_H

#include "../format/perf_data.h"

/* One event of an -e list. */
struct ev_event {
	struct pd_attr attr;
	char *name;		/* the name perf gives it (see above) */
	int leader;		/* index of its group leader in the list (itself
				   when not grouped) */
	int nr_members;		/* for a leader: events in its group, itself
				   included; 0 for other members */
	unsigned sample_read:1;	/* :S, read the group at each sample */
	unsigned precise_max:1;	/* :P, the highest precise_ip that opens */
	unsigned weak_group:1;	/* :W, break the group up if it cannot open */
	unsigned exclude_gh:1;	/* G or H given: the guest/host bits are set */
	unsigned pmu_syntax:1;	/* given as pmu/terms/ (perf stat shows such a
				   clock in ns, not msec) */
};

/* The events of one or more -e arguments, in order. */
struct ev_list {
	struct ev_event *events;
	int nr;
	int alloc;
};

/* Why a parse failed, as perf reports it. */
struct ev_error {
	int pos;		/* offset in the parsed string the error points at */
	char msg[160];		/* "parser error", "unknown tracepoint", ... */
	char help[512];		/* further lines, or "" */
};

/*
 * Appends the events of str to list.  Returns 0, or -1 with err filled
 * and list unchanged.
 */
int ev_parse(struct ev_list *list, const char *str, struct ev_error *err);

/*
 * Prints err for str on stderr the way perf does ("event syntax error:
 * 'str'", a marker under the failing position, the help, then "Run 'perf
 * list' ..."), after prof's error prefix.  As perf, a position past 13
 * cuts the start of str (shown as ".."), and str is cut to 58 columns.
 */
void ev_error_print(const char *str, const struct ev_error *err);

/* Frees the events' names and the array; the list becomes empty. */
void ev_list_free(struct ev_list *list);

/*
 * The id of tracepoint sys:name from tracefs (/sys/kernel/tracing, else
 * /sys/kernel/debug/tracing), or -1 when there is none; path gets the
 * file looked for (for messages).
 */
long long ev_tracepoint_id(const char *sys, const char *name, char *path, size_t path_size);

#endif
