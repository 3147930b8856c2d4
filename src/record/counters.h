/*
 * counters.h - prof record's counters: one per event per CPU per target
 * thread, and one ring buffer per CPU that they all write into.
 *
 * The target decides what a counter follows: a command (its pid, on every
 * CPU), the threads of -p/-t (each on every CPU: the task slots), or all
 * of the CPUs of -a/-C (pid -1).  events[i].fds[cpu * nr_task_slots + t]
 * is the counter of event i on cpus[cpu] for task slot t, -1 when it is
 * not open (a thread of -p that ended before it could be opened).  Each
 * CPU's ring is mapped on its first open counter; the others on that CPU
 * are redirected into it (PERF_EVENT_IOC_SET_OUTPUT).
 *
 * Opening follows perf record 6.1's fallbacks: cycles on a machine without
 * it becomes cpu-clock; when kernel samples are not allowed, an event
 * without :k falls back to user space only (named "...:u"); a kernel
 * before 6.0 gets no read_format LOST.  Each fallback keeps the attr in
 * events[i].attr as opened, which is the attr the file describes.
 */
#ifndef PROF_RECORD_COUNTERS_H
#define PROF_RECORD_COUNTERS_H

#include "ring.h"
#include "sink.h"
#include "../format/perf_data.h"

#include <sys/types.h>

#define COUNTERS_MAX_EVENTS	32
#define COUNTERS_MAX_CPUS	4096

/* What is recorded: a command only, tasks (-p/-t) or CPUs (-a/-C). */
enum target_kind { TARGET_COMMAND, TARGET_TASKS, TARGET_CPUS };

/* One requested event and its counters. */
struct record_event {
	const char *spec;	/* as given to -e, also its name in the file */
	char *owned;		/* spec when it came from -e, or NULL */
	char name[96];		/* spec after fallbacks: "cpu-clock" for cycles,
				   ":u" added for user-only sampling */
	struct pd_attr attr;
	char *filter;		/* --filter: the tracepoint's filter, set on
				   each counter (PERF_EVENT_IOC_SET_FILTER), or NULL */
	int leader;		/* index of its group's leader in events[]
				   (its own when it is in no group) */
	int nr_members;		/* a leader's: events in its group, itself
				   too (1 when in no group); 0 for a member */
	int sample_read;	/* :S: the leader's samples read the group */
	u64 *ids;		/* nr_ids valid ids */
	u32 nr_ids;
	int *fds;		/* [cpu * nr_task_slots + slot], -1 when not open */
};

/* The counters of one recording, their target and their rings. */
struct counters {
	struct record_event events[COUNTERS_MAX_EVENTS + 1];	/* + the system-wide dummy */
	int nr_events;
	enum target_kind target;
	int from_pids;		/* the threads are -p's: one that has ended is skipped */
	pid_t *threads;		/* -p/-t: the target threads */
	int nr_threads, cap_threads;
	int nr_task_slots;	/* threads per CPU in the fd arrays (1 unless -p/-t) */
	int cpus[COUNTERS_MAX_CPUS];	/* CPU numbers: the online ones, or -C's */
	int nr_cpus;
	unsigned mmap_pages;	/* data pages per ring */
	struct ring *rings;	/* one per CPU */
};

/* Parses a CPU list ("0-3,6") into c->cpus; returns 0, or -1 when it is
 * malformed. */
int counters_parse_cpus(struct counters *c, const char *list);

/* The online CPUs into c->cpus, then (system-wide) cpu_list's checked
 * against them; 0, or -1 after an error. */
int counters_read_cpus(struct counters *c, const char *cpu_list);

/* Parses "N[,N...]" of positive ids into *ids (grown with xrealloc);
 * 0, or -1 when malformed. */
int counters_parse_ids(const char *list, pid_t **ids, int *nr);

/* The target threads of pid_list (every thread of each process) or, when
 * it is NULL, of tid_list; 0, or -1 when one does not exist. */
int counters_read_threads(struct counters *c, const char *pid_list, const char *tid_list);

/* Raises the open-file limit when the counters need more than it allows. */
void counters_raise_nofile(const struct counters *c);

/* Opens every event on every CPU for every task slot; child is the
 * command's pid; the first event is the default one when first_is_default
 * (its fallback to cpu-clock goes unsaid).  0, or -1 after an error. */
int counters_open(struct counters *c, pid_t child, int first_is_default);

/* Maps a ring on each CPU's first counter and points the others at it;
 * 0, or -1 after an error. */
int counters_map_rings(struct counters *c);

/* Starts or stops every open counter. */
void counters_enable(const struct counters *c);
void counters_disable(const struct counters *c);

/*
 * The samples the kernel could not write (read_format LOST) into s: one
 * LOST_SAMPLES record per counter that lost any, with a trailer holding
 * its id, as perf record 6.1 writes them at the end.
 */
void counters_write_lost(const struct counters *c, struct record_sink *s);

/* Unmaps the rings, closes the counters, frees everything. */
void counters_close(struct counters *c);

#endif
