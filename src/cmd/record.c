/*
 * record.c - "prof record [options] [--] [CMD [ARGS...]]": samples a
 * command, existing processes or threads (-p, -t), or the whole machine or
 * some of its CPUs (-a, -C) into a perf.data file, or a pipe-mode stream
 * (-o -), that perf 6.1 and prof both read.
 *
 * Counters (src/record/counters): one per event per CPU per target
 * thread.  A command is forked and waits on a pipe while its counters are
 * opened (inherit, enable_on_exec, so counting starts at exec and follows
 * fork and threads).  With -p/-t/-a/-C the counters open disabled, the
 * state that already exists is synthesized from /proc (src/record/synth),
 * then they are enabled; a command given too only times the recording.  A
 * FINISHED_INIT record ends the start-up state, as in perf's files.
 * System-wide, a "dummy:HG" event carries the side-band records (MMAP,
 * COMM, FORK...) and is enabled at once, so maps made during synthesis are
 * not missed, as in perf.
 *
 * The main loop sleeps in ppoll() with SIGCHLD, SIGINT and SIGTERM
 * unblocked only there, so no signal is missed, and after each wakeup
 * moves every ring's new records to the file (src/record/sink).  It stops
 * when the command exits, on SIGINT/SIGTERM, after --duration, on a write
 * error, or (-p/-t) when every target thread has exited (all counters hung
 * up).  Then the rings are drained once more, the kernel's lost-sample
 * counts become LOST_SAMPLES records, and the file is finished: features,
 * then the header.
 */
#include "cmds.h"
#include "../event/events.h"
#include "../event/tracing_data.h"
#include "../record/compress.h"
#include "../record/counters.h"
#include "../record/dsos.h"
#include "../record/sink.h"
#include "../record/synth.h"
#include "../util/child.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COMMAND_COMM	"prof-exec"	/* the command's name until its exec
					   (perf's is "perf-exec") */
#define DWARF_STACK_DEFAULT 8192	/* --call-graph dwarf's stack bytes */
#define DWARF_STACK_MAX	65528	/* USHRT_MAX rounded down to 8, as perf */
#define REGS_USER_X86_64 0xff0fffULL	/* AX..SS and R8..R15: perf's mask */

/* Options and state of one run. */
struct record {
	struct counters ctr;	/* the events (-e) and their counters */
	int freq;		/* -F, 0 when not given */
	unsigned long long period;	/* -c, 0 when not given */
	int callgraph;		/* -g / --call-graph: CG_NONE, CG_FP, CG_DWARF */
	u32 stack_size;		/* --call-graph dwarf,SIZE (rounded up to 8) */
	u64 branch_stack;	/* -b/-j: attr.branch_sample_type; 0: none */
	u64 lbr;		/* --call-graph lbr: the same, for the chains */
	const char *output;
	int quiet;
	const char *pid_list, *tid_list, *cpu_list;	/* -p, -t, -C */
	int system_wide;	/* -a */
	double duration;	/* --duration seconds, 0 for none */
	int compression;	/* -z level, 0 for none */
	int switch_events;	/* --switch-events */
	int last_e_first;	/* the first event of the last -e (--filter's) */

	int pipe;		/* -o -: pipe mode */
	struct record_sink sink;	/* the file or pipe, and the counts */
	u64 nr_wakeups;
	int live_status;	/* stderr is a terminal: show the status line */
	double start_time, status_time;	/* of the recording, of the last status */
	u16 trailer_size;	/* sample_id bytes on non-sample records */
	int id_first;		/* samples start with an IDENTIFIER */

	char **cmdline;		/* "prof" and its arguments, for the CMDLINE feature */
	int nr_cmdline;
	char **command;		/* the command and its arguments (what the options left) */
	int nr_command_args;	/* 0 when there is no command */
	int default_event;	/* no -e: events[0] is "cycles" */
	int exclude_kernel;	/* every event excludes the kernel */
	sigset_t blocked;	/* the signals held outside ppoll() */
	sigset_t orig_mask, wait_mask;	/* the mask before, the one in ppoll() */
	pid_t child;		/* the command, 0 when none or it has ended */
	int go_fd, err_fd;	/* child_start()'s pipes to the command */
	int exec_errno;		/* the command's exec failed so */
	int status;		/* the command's wait status */
	int timed_out;		/* --duration passed, or the -p/-t targets are gone */
	struct pw_event *wevs;	/* the events as the writer takes them */
	struct pollfd *pfds;	/* the counters polled for data and hang-ups */
	int nfds, live;		/* pfds in use, those not hung up */
};

enum { CG_NONE, CG_FP, CG_DWARF };

/* Set by the signal handlers, which take no argument: process-wide, as
 * the signals are. */
static volatile sig_atomic_t stop_signal;	/* SIGINT/SIGTERM received */
static volatile sig_atomic_t nr_stop_signals;	/* how many of them */

static void on_stop(int sig)
{
	stop_signal = sig;
	nr_stop_signals++;
}
/* SIGCHLD only has to interrupt ppoll(); waitpid() tells the rest. */
static void on_child(int sig) { }

static const char *const record_usage[] = {
	"prof record [<options>] [<command>]",
	"prof record [<options>] -- <command> [<options>]",
	NULL,
};

/*
 * -e: parses the list with the shared event syntax into r->ctr.events, each
 * owning its name, with its group (a {group} of the list, :S reads it at
 * each of the leader's samples).  prof record does not sample tracepoints
 * mixed with other events yet (they need sample ids that differ per
 * event); those are refused here.
 */
static int opt_event(const struct opt *opt, const char *arg, int unset)
{
	struct record *r = opt->value;
	struct ev_list list = { 0 };
	struct ev_error err;
	int ret = 0;

	if (ev_parse(&list, arg, &err)) {
		ev_error_print(arg, &err);
		return -1;
	}
	r->last_e_first = r->ctr.nr_events;
	for (int i = 0; i < list.nr && !ret; i++) {
		struct ev_event *ev = &list.events[i];
		struct record_event *rev = &r->ctr.events[r->ctr.nr_events];

		if (r->ctr.nr_events == COUNTERS_MAX_EVENTS)
			ret = error("too many events (at most %d)", COUNTERS_MAX_EVENTS);
		else if (r->ctr.nr_events && (ev->attr.type == PD_TYPE_TRACEPOINT) !=
			 (r->ctr.events[0].attr.type == PD_TYPE_TRACEPOINT))
			ret = error("tracepoints cannot be mixed with other events yet: '%s'",
				    ev->name);
		if (ret)
			break;
		rev->attr = ev->attr;
		rev->owned = ev->name;
		rev->spec = ev->name;
		rev->leader = r->ctr.nr_events - i + ev->leader;
		rev->nr_members = ev->nr_members;
		rev->sample_read = ev->sample_read;
		r->ctr.nr_events++;
		ev->name = NULL;
	}
	ev_list_free(&list);
	return ret;
}

/*
 * --filter: the filter of every event of the last -e, which must all be
 * tracepoints; a second --filter is joined to the first with "&&", as
 * perf's evsel__append_tp_filter() joins them.
 */
static int opt_filter(const struct opt *opt, const char *arg, int unset)
{
	struct record *r = opt->value;

	if (!r->ctr.nr_events)
		return error("--filter option should follow a -e tracepoint option");
	for (int i = r->last_e_first; i < r->ctr.nr_events; i++)
		if (r->ctr.events[i].attr.type != PD_TYPE_TRACEPOINT)
			return error("--filter option should follow a -e tracepoint option");
	for (int i = r->last_e_first; i < r->ctr.nr_events; i++) {
		struct record_event *ev = &r->ctr.events[i];
		char *joined;

		if (ev->filter) {
			if (asprintf(&joined, "(%s) && (%s)", ev->filter, arg) < 0)
				die("out of memory");
			free(ev->filter);
			ev->filter = joined;
		} else {
			ev->filter = xstrdup(arg);
		}
	}
	return 0;
}

/* The default event ("cycles") into ev->attr; -e events come parsed. */
static int parse_event(struct record_event *ev)
{
	struct ev_list list = { 0 };
	struct ev_error err;

	if (ev->owned)
		return 0;
	if (ev_parse(&list, ev->spec, &err)) {
		ev_error_print(ev->spec, &err);
		return -1;
	}
	ev->attr = list.events[0].attr;
	ev_list_free(&list);
	return 0;
}

/* TRACING_DATA, which perf needs to read a file with tracepoints. */
static void add_tracing_data(struct record *r)
{
	const char *names[COUNTERS_MAX_EVENTS];
	size_t size;
	void *data;

	if (r->ctr.events[0].attr.type != PD_TYPE_TRACEPOINT)
		return;
	for (int i = 0; i < r->ctr.nr_events; i++)
		names[i] = r->ctr.events[i].spec;
	data = ev_tracing_data(names, r->ctr.nr_events, &size);
	if (data)
		pw_add_feature(&r->sink.out, PD_FEAT_TRACING_DATA, data, size);
	free(data);
}

/*
 * What a group changes in event i's attr, as perf record 6.1's
 * evsel__config(): a member is enabled with its leader (neither disabled
 * nor enabled on exec of its own); with :S every event of the group reads
 * the group (READ, and FORMAT_GROUP when it has more than one event, which
 * the kernel takes only without inherit) and only the leader samples.
 */
static void group_attr(struct record *r, int i)
{
	const struct record_event *ev = &r->ctr.events[i];
	const struct record_event *leader = &r->ctr.events[ev->leader];
	struct pd_attr *a = &r->ctr.events[i].attr;

	if (ev->leader != i)
		a->flags &= ~(1ULL << PD_ATTR_DISABLED | 1ULL << PD_ATTR_ENABLE_ON_EXEC);
	if (!leader->sample_read)
		return;
	a->sample_type |= PD_SAMPLE_READ;
	if (leader->nr_members > 1) {
		a->read_format |= PD_FORMAT_GROUP;
		a->flags &= ~(1ULL << PD_ATTR_INHERIT);
	}
	if (ev->leader != i) {
		a->flags &= ~(1ULL << PD_ATTR_FREQ);
		a->sample_period = 0;
	}
}

/*
 * Fills the parts of every attr that depend on the options and the target,
 * as perf record 6.1 sets them, and adds the system-wide dummy event.  The
 * tracking flags (MMAP, COMM, TASK, ...) go on one event: the dummy when
 * there is one, else the first.  With two or more events (or in pipe mode)
 * the samples carry ID when all sample types are equal, else IDENTIFIER.
 */
static void setup_attrs(struct record *r)
{
	int system_wide = r->ctr.target == TARGET_CPUS;
	u64 base = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME;
	struct pd_attr *track = &r->ctr.events[0].attr;
	u64 first_type, id_bit = PD_SAMPLE_ID;

	if (r->callgraph)
		base |= PD_SAMPLE_CALLCHAIN;
	if (r->callgraph == CG_DWARF)
		base |= PD_SAMPLE_ADDR | PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER |
			PD_SAMPLE_DATA_SRC;
	if (system_wide)
		base |= PD_SAMPLE_CPU;
	if (system_wide) {
		struct record_event *dummy = &r->ctr.events[r->ctr.nr_events];

		dummy->leader = r->ctr.nr_events++;
		dummy->nr_members = 1;
		dummy->spec = "dummy:HG";
		dummy->attr.type = PERF_TYPE_SOFTWARE;
		dummy->attr.config = PERF_COUNT_SW_DUMMY;
		track = &dummy->attr;
	}
	for (int i = 0; i < r->ctr.nr_events; i++) {
		struct pd_attr *a = &r->ctr.events[i].attr;
		int is_dummy = system_wide && i == r->ctr.nr_events - 1;

		a->size = PW_ATTR_SIZE;
		a->sample_type |= base;	/* tracepoints come with RAW|CPU|PERIOD */
		a->read_format = PD_FORMAT_ID | PD_FORMAT_LOST;
		a->flags |= 1ULL << PD_ATTR_SAMPLE_ID_ALL;
		if (!is_dummy)	/* the dummy runs from the start */
			a->flags |= 1ULL << PD_ATTR_DISABLED;
		if (!r->tid_list)	/* -t follows only the threads given */
			a->flags |= 1ULL << PD_ATTR_INHERIT;
		if (r->ctr.target == TARGET_COMMAND)
			a->flags |= 1ULL << PD_ATTR_ENABLE_ON_EXEC;
		if (r->period) {
			a->sample_period = r->period;
		} else if (is_dummy && !r->freq) {
			a->sample_period = 1;
		} else if (a->sample_period && !r->freq) {
			/* the event's own period (1 for a tracepoint), as perf keeps it */
		} else {
			a->flags |= 1ULL << PD_ATTR_FREQ;
			a->sample_period = r->freq ? (u64)r->freq : 4000;
			a->sample_type |= PD_SAMPLE_PERIOD;
		}
		/* perf's evsel__config(): -b/-j, else --call-graph lbr
		   (which -b/-j turn back to frame pointers) */
		if (!is_dummy && (r->branch_stack || r->lbr)) {
			a->sample_type |= PD_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = r->branch_stack ? r->branch_stack : r->lbr;
		}
		if (r->callgraph == CG_DWARF) {
			a->flags |= 1ULL << PD_ATTR_EXCLUDE_CALLCHAIN_USER;
			a->sample_regs_user = REGS_USER_X86_64;
			a->sample_stack_user = r->stack_size;
		}
		group_attr(r, i);
	}
	track->flags |= 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM | 1ULL << PD_ATTR_TASK |
			1ULL << PD_ATTR_MMAP2 | 1ULL << PD_ATTR_COMM_EXEC;
	if (r->switch_events)
		track->flags |= 1ULL << PD_ATTR_CONTEXT_SWITCH;
	if (r->callgraph == CG_DWARF)
		track->flags |= 1ULL << PD_ATTR_MMAP_DATA;

	first_type = r->ctr.events[0].attr.sample_type;
	for (int i = 1; i < r->ctr.nr_events; i++)
		if (r->ctr.events[i].attr.sample_type != first_type)
			id_bit = PD_SAMPLE_IDENTIFIER;
	/* a group read is split by id, one event's too */
	if (r->ctr.nr_events > 1 || r->pipe || (first_type & PD_SAMPLE_READ))
		for (int i = 0; i < r->ctr.nr_events; i++)
			r->ctr.events[i].attr.sample_type |= id_bit;

	first_type = r->ctr.events[0].attr.sample_type;
	r->id_first = !!(first_type & PD_SAMPLE_IDENTIFIER);
	r->sink.time_offset = 8 + (r->id_first ? 8 : 0) + 8 + 8;	/* header, [id], ip, pid/tid */
	r->trailer_size = 16 + (first_type & PD_SAMPLE_ID ? 8 : 0) +
			  (first_type & PD_SAMPLE_CPU ? 8 : 0) +
			  (first_type & PD_SAMPLE_IDENTIFIER ? 8 : 0);
}

/* -z / --compression-level[=N]: zstd level 1 (fastest) to 22. */
static int opt_compression(const struct opt *opt, const char *arg, int unset)
{
	int *level = opt->value;
	char *end;
	long v = 1;

	if (unset) {
		*level = 0;
		return 0;
	}
	if (arg) {
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > 22)
			return error("compression level must be 1 to 22, not '%s'", arg);
	}
	*level = (int)v;
	return 0;
}

/*
 * -j: perf's parse_branch_stack(): a comma list of perf's branch filter
 * names (PERF_SAMPLE_BRANCH_* bits); privilege levels alone mean any
 * branch at them.  0, or -1 after an error.
 */
static int parse_branch_filter(struct record *r, const char *arg)
{
	static const struct {
		const char *name;
		int bit;
	} modes[] = {
		{ "u", 0 }, { "k", 1 }, { "hv", 2 }, { "any", 3 }, { "any_call", 4 },
		{ "any_ret", 5 }, { "ind_call", 6 }, { "abort_tx", 7 }, { "in_tx", 8 },
		{ "no_tx", 9 }, { "cond", 10 }, { "ind_jmp", 12 }, { "call", 13 },
		{ "save_type", 16 }, { "stack", 11 }, { "hw_index", 17 }, { "priv", 18 },
	};
	char buf[256], *tok, *save;

	if (strlen(arg) >= sizeof(buf))
		return error("-j: filter list too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			if (!strcmp(tok, modes[i].name))
				break;
		if (i == sizeof(modes) / sizeof(modes[0]))
			return error("unknown branch filter %s, check man page", tok);
		r->branch_stack |= 1ULL << modes[i].bit;
	}
	/* only privilege levels (u, k, hv): any branch */
	if (!(r->branch_stack & ~7ULL))
		r->branch_stack |= 1ULL << 3;
	return 0;
}

/* --call-graph fp|dwarf[,size]: the mode and dwarf's stack size; 0, or -1
 * after an error. */
static int parse_callgraph(struct record *r, const char *mode)
{
	unsigned long long size = DWARF_STACK_DEFAULT;
	const char *comma = strchr(mode, ',');
	size_t len = comma ? (size_t)(comma - mode) : strlen(mode);

	if (len == 2 && !strncmp(mode, "fp", 2) && !comma) {
		r->callgraph = CG_FP;
		return 0;
	}
	if (len == 3 && !strncmp(mode, "lbr", 3) && !comma) {
		/* perf's LBR call stack: frame-pointer chains (the kernel
		   part), the user part from the LBR call stack: USER,
		   CALL_STACK, NO_FLAGS, NO_CYCLES, HW_INDEX */
		r->callgraph = CG_FP;
		r->lbr = 1ULL << 0 | 1ULL << 11 | 1ULL << 14 | 1ULL << 15 | 1ULL << 17;
		return 0;
	}
	if (len != 5 || strncmp(mode, "dwarf", 5))
		return error("call graph mode '%s' is not supported (fp, lbr or dwarf[,size])", mode);
#if !defined(__x86_64__)
	return error("--call-graph dwarf is supported on x86_64 only");
#endif
	if (comma) {
		char *end;

		size = strtoull(comma + 1, &end, 0);
		if (end == comma + 1 || *end)
			size = 0;
		size = (size + 7) & ~7ULL;
		if (!size || size > DWARF_STACK_MAX)
			return error("incorrect stack dump size (max %d): %s", DWARF_STACK_MAX,
				     comma + 1);
	}
	r->callgraph = CG_DWARF;
	r->stack_size = (u32)size;
	return 0;
}

/* Renames an existing non-empty output to OUTPUT.old, as perf does. */
static void keep_old_output(const char *path)
{
	struct stat st;
	char old[4096];

	if (stat(path, &st) || !st.st_size || !S_ISREG(st.st_mode))
		return;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old))
		warning("cannot rename %s to %s: %s", path, old, strerror(errno));
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Sleeps until a ring wakes us, a signal comes, or timeout seconds pass.
 * Counters that hung up (their task is gone) leave the poll set and
 * *live counts down.
 */
static void wait_for_data(struct record *r, struct pollfd *pfds, int nfds, int *live,
			  const sigset_t *mask, double timeout)
{
	struct timespec ts;
	int n;

	if (timeout > 0.5)
		timeout = 0.5;
	ts.tv_sec = (time_t)timeout;
	ts.tv_nsec = (long)((timeout - (double)ts.tv_sec) * 1e9);
	n = ppoll(pfds, (nfds_t)nfds, &ts, mask);
	if (n > 0 || (n < 0 && errno == EINTR))	/* data, or a signal: as perf counts */
		r->nr_wakeups++;
	if (n > 0) {
		for (int i = 0; i < nfds; i++) {
			if (pfds[i].fd >= 0 && (pfds[i].revents & (POLLHUP | POLLERR))) {
				pfds[i].fd = -1;
				(*live)--;
			}
		}
	}
}

/*
 * Stops the command with SIGTERM and waits for it to end, with SIGINT and
 * SIGTERM let in: one more of them kills a command that ignores SIGTERM,
 * so prof never waits on it for good against the user's word.
 */
static void stop_command(pid_t child, int *status, const sigset_t *wait_mask)
{
	sig_atomic_t seen = nr_stop_signals;
	int killed = 0;

	kill(child, SIGTERM);
	for (;;) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		pid_t got = waitpid(child, status, WNOHANG);

		if (got == child || (got < 0 && errno != EINTR))
			return;
		if (nr_stop_signals != seen && !killed) {
			kill(child, SIGKILL);
			killed = 1;
		}
		ppoll(NULL, 0, &ts, wait_mask);	/* SIGCHLD ends it early */
	}
}

/* Closes the counters, unmaps the rings, frees what the run allocated. */
static void release(struct record *r)
{
	counters_close(&r->ctr);
	record_zstd_free(r->sink.zstd);
	free(r->wevs);
	free(r->pfds);
	free(r->cmdline);
}

/* Picks the target from the options, with perf's precedence: -p/-t over
 * -a/-C.  Returns 0, or -1. */
static int choose_target(struct record *r)
{
	if (r->pid_list && r->tid_list)
		return error("-p and -t cannot be used together");
	if (r->pid_list || r->tid_list) {
		if (r->system_wide)
			warning("-p/-t given: ignoring -a");
		if (r->cpu_list)
			warning("-p/-t given: ignoring -C");
		r->ctr.target = TARGET_TASKS;
		return counters_read_threads(&r->ctr, r->pid_list, r->tid_list);
	}
	if (r->system_wide || r->cpu_list)
		r->ctr.target = TARGET_CPUS;
	return 0;
}

/*
 * The live status line on a terminal, at most twice a second: elapsed
 * time, samples, MB written so far, samples lost.  done: erase it.
 */
static void show_status(struct record *r, int done)
{
	double now = now_seconds();

	if (done) {
		fputs("\r\033[K", stderr);
		return;
	}
	if (now - r->status_time < 0.5)
		return;
	r->status_time = now;
	fprintf(stderr, "\r[ prof record: %.1f s, %llu samples, %.3f MB, %llu lost ]\033[K",
		now - r->start_time, (unsigned long long)r->sink.nr_samples,
		(double)(r->sink.out.data_size + r->sink.out.buf_len) / 1024.0 / 1024.0,
		(unsigned long long)r->sink.nr_lost_in_ring);
}

/* The perf-style summary, and perf's warnings about lost data. */
static void print_summary(struct record *r)
{
	double mb = r->pipe ? 0 : (double)r->sink.out.file_size / 1024.0 / 1024.0;

	fprintf(stderr, "[ prof record: Woken up %llu times to write data ]\n",
		(unsigned long long)r->nr_wakeups);
	/* perf says this while reading the file back for build-ids, which
	 * it skips in pipe mode and with -z */
	if (!r->pipe && !r->sink.zstd) {
		u64 all = r->sink.nr_samples + r->sink.nr_lost_samples;

		if (r->sink.nr_lost_records)
			fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
				"Check IO/CPU overload!\n\n", (unsigned long long)r->sink.nr_records,
				(unsigned long long)r->sink.nr_lost_records);
		if (all && (double)r->sink.nr_lost_samples / (double)all > 0.05)
			fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
				(unsigned long long)all, 100.0 * (double)r->sink.nr_lost_samples / (double)all);
	}
	fprintf(stderr, "[ prof record: Captured and wrote %.3f MB %s", mb, r->pipe ? "-" : r->output);
	if (r->sink.zstd)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			(double)r->sink.bytes_raw / 1024.0 / 1024.0,
			r->sink.bytes_packed ? (double)r->sink.bytes_raw / (double)r->sink.bytes_packed : 0.0);
	else if (r->sink.nr_samples && !r->pipe)
		fprintf(stderr, " (%llu samples)", (unsigned long long)r->sink.nr_samples);
	fprintf(stderr, " ]\n");
}

/*
 * Pipe mode: an EVENT_UPDATE record naming each event (type 2, its first
 * id, the name NUL-padded as perf pads it), which readers that take names
 * from the stream rather than from EVENT_DESC need, as perf writes them.
 */
static void write_event_names(struct record *r)
{
	for (int i = 0; i < r->ctr.nr_events; i++) {
		const char *name = r->ctr.events[i].spec;
		size_t len = strlen(name), padded = (len + 1 + 7) & ~(size_t)7;
		u8 rec[40 + 256] = { 0 };
		struct pd_header h = { PD_REC_EVENT_UPDATE, 0, (u16)(40 + padded) };
		u64 kind = 2;

		if (len > 200 || !r->ctr.events[i].nr_ids)
			continue;
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &kind, 8);
		memcpy(rec + 16, &r->ctr.events[i].ids[0], 8);
		memcpy(rec + 24, name, len);
		sink_put(&r->sink, rec, h.size);
	}
}

/* The size of one ring's mapping, for the COMPRESSED feature. */
static u32 ring_bytes(const struct record *r)
{
	return (u32)((r->ctr.mmap_pages + 1) * (unsigned long)sysconf(_SC_PAGESIZE));
}

/* --duration: seconds > 0; exits with the usage after anything else. */
static void parse_duration(struct record *r, const char *arg, const struct opt *opts)
{
	char *end;

	r->duration = strtod(arg, &end);
	if (end == arg || *end || !(r->duration > 0) || !isfinite(r->duration))
		opt_usage_error(record_usage, opts, "bad duration '%s' (seconds > 0)", arg);
}

/* -p / -t: a list of ids; exits with the usage when it is malformed. */
static void check_id_lists(const struct record *r, const struct opt *opts)
{
	pid_t *ids = NULL;
	int nr = 0, bad = (r->pid_list && counters_parse_ids(r->pid_list, &ids, &nr)) ||
			  (r->tid_list && counters_parse_ids(r->tid_list, &ids, &nr));

	free(ids);
	if (bad)
		opt_usage_error(record_usage, opts, "bad %s list '%s'",
				r->pid_list ? "pid" : "tid", r->pid_list ? r->pid_list : r->tid_list);
}

/*
 * Reads the options into r (the command is what they leave in argv) and
 * parses the events, "cycles" when no -e was given.  Returns 0, or the
 * exit status after an error; a usage error exits.
 */
static int parse_options(struct record *r, int argc, char **argv)
{
	const char *callgraph_mode = NULL, *duration_arg = NULL, *mmap_arg = NULL;
	const char *branch_filter = NULL;
	int branch_any = 0;
	struct opt opts[] = {
		OPT_CALLBACK('e', "event", r, "event",
			     "event selector, perf's syntax: cpu-clock, sched:sched_switch, ... with :u, :k, ...",
			     opt_event),
		OPT_CALLBACK(0, "filter", r, "filter",
			     "event filter of the tracepoints of the last -e (tracefs filter syntax)",
			     opt_filter),
		OPT_INTEGER('F', "freq", &r->freq, "profile at this frequency (default 4000)"),
		OPT_U64('c', "count", &r->period, "event period to sample"),
		OPT_BOOLEAN('g', NULL, &r->callgraph, "record call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &callgraph_mode, "mode[,size]",
			   "call graph mode: fp, lbr, or dwarf with SIZE stack bytes (default 8192)"),
		OPT_BOOLEAN('b', "branch-any", &branch_any, "sample any taken branches"),
		OPT_STRING('j', "branch-filter", &branch_filter, "branch filter mask",
			   "branch stack filter modes: u, k, hv, any, any_call, any_ret, ind_call, "
			   "abort_tx, in_tx, no_tx, cond, ind_jmp, call, save_type, stack, hw_index, priv"),
		OPT_STRING('p', "pid", &r->pid_list, "pid", "record events on existing process ids (comma separated)"),
		OPT_STRING('t', "tid", &r->tid_list, "tid", "record events on existing thread ids (comma separated)"),
		OPT_BOOLEAN('a', "all-cpus", &r->system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &r->cpu_list, "cpu", "list of cpus to monitor (system-wide)"),
		OPT_STRING(0, "duration", &duration_arg, "seconds", "stop after this many seconds"),
		OPT_STRING('m', "mmap-pages", &mmap_arg, "pages", "ring buffer size per CPU: pages, or a size with B/K/M/G"),
		{ .type = OPT_T_CALLBACK, .short_name = 'z', .long_name = "compression-level",
		  .value = &r->compression, .argh = "n", .callback = opt_compression, .flags = OPT_OPTARG,
		  .help = "compress records with zstd at level n (default 1, fastest; 22 smallest)" },
		OPT_BOOLEAN(0, "switch-events", &r->switch_events, "record context switch events"),
		OPT_STRING('o', "output", &r->output, "file", "output file name (default perf.data; - for a pipe)"),
		OPT_BOOLEAN('q', "quiet", &r->quiet, "print no summary"),
		OPT_END(),
	};

	r->cmdline = xcalloc((size_t)argc + 2, sizeof(char *));	/* "prof", argv */
	r->cmdline[0] = "prof";
	memcpy(r->cmdline + 1, argv, (size_t)argc * sizeof(char *));
	r->nr_cmdline = argc + 1;
	r->output = "perf.data";
	r->nr_command_args = opt_parse(argc, argv, opts, record_usage, 1);
	r->command = argv;
	if (r->quiet)
		error_set_quiet(1);
	if (r->callgraph)
		r->callgraph = CG_FP;
	if (callgraph_mode && parse_callgraph(r, callgraph_mode))
		return 129;
	if (branch_any)
		r->branch_stack = 1ULL << 3;	/* PERF_SAMPLE_BRANCH_ANY */
	if (branch_filter && parse_branch_filter(r, branch_filter))
		return 129;
	if (r->freq < 0)
		opt_usage_error(record_usage, opts, "bad frequency %d", r->freq);
	if (duration_arg)
		parse_duration(r, duration_arg, opts);
	r->ctr.mmap_pages = ring_default_pages(sysctl_int("kernel/perf_event_mlock_kb", -1, 0),
					   sysconf(_SC_PAGESIZE));
	if (mmap_arg && !(r->ctr.mmap_pages = ring_parse_pages(mmap_arg, sysconf(_SC_PAGESIZE),
							      r->quiet)))
		opt_usage_error(record_usage, opts, "invalid argument for -m/--mmap-pages: '%s'", mmap_arg);
	if (r->cpu_list && counters_parse_cpus(&r->ctr, r->cpu_list))
		opt_usage_error(record_usage, opts, "bad cpu list '%s'", r->cpu_list);
	check_id_lists(r, opts);
	r->pipe = !strcmp(r->output, "-");
	if (!r->ctr.nr_events) {
		r->ctr.events[0].spec = "cycles";
		r->ctr.nr_events = 1;
		r->default_event = 1;
	}
	for (int i = 0; i < r->ctr.nr_events; i++)
		if (parse_event(&r->ctr.events[i]))
			return 129;
	if (r->default_event)	/* perf marks only -e events so */
		r->ctr.events[0].attr.flags &= ~(1ULL << PD_ATTR_EXCLUDE_GUEST);
	/* perf would go system-wide; prof wants -a said */
	if (!r->nr_command_args && !r->pid_list && !r->tid_list && !r->system_wide && !r->cpu_list)
		opt_usage_error(record_usage, opts, "a command to run or a target (-p, -t, -a, -C) is required");
	return 0;
}

/* Holds SIGCHLD, SIGINT and SIGTERM except inside ppoll() (wait_mask),
 * where their handlers run. */
static void setup_signals(struct record *r)
{
	struct sigaction sa = { 0 };

	sigemptyset(&r->blocked);
	sigaddset(&r->blocked, SIGCHLD);
	sigaddset(&r->blocked, SIGINT);
	sigaddset(&r->blocked, SIGTERM);
	sigprocmask(SIG_BLOCK, &r->blocked, &r->orig_mask);
	r->wait_mask = r->orig_mask;
	sigdelset(&r->wait_mask, SIGCHLD);
	sigdelset(&r->wait_mask, SIGINT);
	sigdelset(&r->wait_mask, SIGTERM);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is a write error */
}

/* Opens every event's counters and maps the rings; 0, or -1. */
static int open_counters(struct record *r)
{
	if (counters_open(&r->ctr, r->child, r->default_event))
		return -1;
	r->exclude_kernel = 1;
	for (int i = 0; i < r->ctr.nr_events; i++)
		if (!PD_ATTR_FLAG(&r->ctr.events[i].attr, PD_ATTR_EXCLUDE_KERNEL))
			r->exclude_kernel = 0;	/* perf then writes the kernel maps */
	return counters_map_rings(&r->ctr);
}

/* GROUP_DESC of the groups of more than one event, when there are any. */
static void add_group_desc(struct record *r)
{
	struct pw_group groups[COUNTERS_MAX_EVENTS];
	u32 nr = 0;

	for (int i = 0; i < r->ctr.nr_events; i++) {
		if (r->ctr.events[i].leader != i || r->ctr.events[i].nr_members < 2)
			continue;
		groups[nr].name = NULL;
		groups[nr].leader = (u32)i;
		groups[nr++].nr_members = (u32)r->ctr.events[i].nr_members;
	}
	if (nr)
		pw_add_group_desc(&r->sink.out, groups, nr);
}

/*
 * Opens the file (keeping an old one as OUTPUT.old) or the pipe, which
 * gets its features and event names first; then the DSO follower and,
 * with -z, the compressor.  Returns 0, or -1.
 */
static int open_output(struct record *r)
{
	r->wevs = xcalloc((size_t)r->ctr.nr_events, sizeof(*r->wevs));
	for (int i = 0; i < r->ctr.nr_events; i++) {
		r->wevs[i].attr = r->ctr.events[i].attr;
		r->wevs[i].name = r->ctr.events[i].spec;
		r->wevs[i].ids = r->ctr.events[i].ids;
		r->wevs[i].nr_ids = r->ctr.events[i].nr_ids;
	}
	if (r->pipe) {
		if (pw_open_pipe(&r->sink.out, STDOUT_FILENO, "standard output", r->wevs,
				 (u32)r->ctr.nr_events))
			return -1;
		pw_add_host_features(&r->sink.out, r->nr_cmdline, r->cmdline, r->wevs, (u32)r->ctr.nr_events);
		add_group_desc(r);
		if (r->compression)
			sink_add_compressed(&r->sink, r->compression, ring_bytes(r));
		pw_add_feature(&r->sink.out, PD_FEAT_SAMPLE_TIME, (u64[2]){ 0, 0 }, 16);
		if (r->branch_stack)
			pw_add_feature(&r->sink.out, PD_FEAT_BRANCH_STACK, "", 0);
		pw_pipe_features(&r->sink.out);
		write_event_names(r);
	} else {
		keep_old_output(r->output);
		if (pw_open(&r->sink.out, r->output, r->wevs, (u32)r->ctr.nr_events))
			return -1;
		/* perf's HEADER_BRANCH_STACK: samples with -b/-j branch stacks */
		if (r->branch_stack)
			pw_add_feature(&r->sink.out, PD_FEAT_BRANCH_STACK, "", 0);
	}
	r->sink.dsos = record_dsos_new(r->id_first);
	if (r->compression)
		r->sink.zstd = record_zstd_new(r->compression);
	return 0;
}

/* The state before recording (synthesized), FINISHED_INIT, then the
 * counters of -p/-t/-a/-C are enabled. */
static void write_start_state(struct record *r)
{
	struct synth synth = { 0 };
	struct pd_header init = { PD_REC_FINISHED_INIT, 0, sizeof(init) };

	synth.emit = sink_synth;
	synth.arg = &r->sink;
	synth.trailer_size = r->trailer_size;
	synth.mmap_data = r->callgraph == CG_DWARF;
	if (!r->exclude_kernel)
		synth_kernel_maps(&synth);
	if (r->ctr.target == TARGET_TASKS)
		synth_thread_list(&synth, r->ctr.threads, r->ctr.nr_threads);
	else if (r->ctr.target == TARGET_CPUS)
		synth_all_threads(&synth);
	if (r->child > 0)
		synth_comm(&synth, r->child, r->child, COMMAND_COMM);
	synth_free(&synth);
	sink_put(&r->sink, &init, sizeof(init));	/* the start-up state ends */
	pw_commit(&r->sink.out);
	if (r->ctr.target != TARGET_COMMAND)
		counters_enable(&r->ctr);
}

/*
 * Everything before the recording runs: the target and CPUs, the attrs,
 * the signals, the command held at the start, the counters and rings, the
 * output and the state that exists already.  Returns 0, or -1 after an
 * error (then abandon_command() lets a held command go).
 */
static int setup(struct record *r)
{
	if (choose_target(r) || counters_read_cpus(&r->ctr, r->cpu_list))
		return -1;
	r->ctr.nr_task_slots = r->ctr.target == TARGET_TASKS ? r->ctr.nr_threads : 1;
	setup_attrs(r);
	counters_raise_nofile(&r->ctr);
	setup_signals(r);
	if (r->nr_command_args) {
		r->child = child_start(r->command, &r->orig_mask, COMMAND_COMM, &r->go_fd,
				       &r->err_fd);
		if (r->child < 0)
			return -1;
	}
	/* a file size limit is a write error (EFBIG), not a death; set after
	 * the fork, as the command's own signals are left as they were */
	signal(SIGXFSZ, SIG_IGN);
	if (open_counters(r) || open_output(r))
		return -1;
	write_start_state(r);
	return 0;
}

/* After a failed setup: the command held at the start reads EOF on its
 * pipe and exits without running. */
static void abandon_command(struct record *r)
{
	if (r->child > 0) {
		close(r->go_fd);
		close(r->err_fd);
		waitpid(r->child, NULL, 0);
	}
}

/* Go: the command execs (which enables its counters); a failed exec is
 * reported here. */
static void start_command(struct record *r)
{
	if (write(r->go_fd, "g", 1) != 1)
		warning("cannot start the command: %s", strerror(errno));
	close(r->go_fd);
	if (read(r->err_fd, &r->exec_errno, sizeof(r->exec_errno)) == sizeof(r->exec_errno))
		error("cannot run '%s': %s", r->command[0], strerror(r->exec_errno));
	close(r->err_fd);
}

/* The poll set: with -p/-t every counter of the first event, to see each
 * thread end; else the ring owners. */
static void setup_poll(struct record *r)
{
	r->pfds = xcalloc((size_t)(r->ctr.nr_cpus * r->ctr.nr_task_slots), sizeof(*r->pfds));
	for (int s = 0; s < r->ctr.nr_cpus * r->ctr.nr_task_slots; s++) {
		int fd = r->ctr.target == TARGET_TASKS ? r->ctr.events[0].fds[s] :
			 s < r->ctr.nr_cpus ? r->ctr.rings[s].fd : -1;

		if (fd < 0)
			continue;
		r->pfds[r->nfds].fd = fd;
		r->pfds[r->nfds++].events = POLLIN;
	}
	r->live = r->nfds;
}

/*
 * The recording: the rings are drained after every wakeup until the
 * command ends, a signal, --duration, a write error, or (-p/-t) every
 * target thread is gone.  Then a command still running is stopped, the
 * counters are disabled and what is left is drained, with the lost
 * samples after it.
 */
static void run(struct record *r)
{
	double deadline = 0;

	if (r->child > 0)
		start_command(r);
	r->start_time = r->status_time = now_seconds();
	if (r->duration)
		deadline = r->start_time + r->duration;
	r->live_status = !r->quiet && isatty(STDERR_FILENO);
	setup_poll(r);
	for (;;) {
		double left = 0.5;

		sink_drain(&r->sink, r->ctr.rings, r->ctr.nr_cpus);
		if (r->child > 0 && waitpid(r->child, &r->status, WNOHANG) == r->child) {
			r->child = 0;
			break;
		}
		if (deadline) {
			left = deadline - now_seconds();
			r->timed_out = left <= 0;
		}
		if (stop_signal || r->sink.out.failed || r->timed_out)	/* a full disk stops as perf does */
			break;
		if (r->ctr.target == TARGET_TASKS && !r->live) {
			r->timed_out = 1;	/* every target thread has exited: done */
			break;
		}
		wait_for_data(r, r->pfds, r->nfds, &r->live, &r->wait_mask, left);
		if (r->live_status)
			show_status(r, 0);
	}
	if (r->child > 0)	/* stopped early: so is the command */
		stop_command(r->child, &r->status, &r->wait_mask);
	counters_disable(&r->ctr);
	sink_drain(&r->sink, r->ctr.rings, r->ctr.nr_cpus);
	counters_write_lost(&r->ctr, &r->sink);
	pw_commit(&r->sink.out);
}

/*
 * Finishes the file (features, then the header; a pipe has had its
 * features) and prints the summary.  Returns 0, or 1 after a write error.
 */
static int finish(struct record *r)
{
	int ret = 0;

	if (!r->pipe) {
		sink_add_build_ids(&r->sink);
		add_tracing_data(r);
		sink_add_sample_time(&r->sink);
		if (r->compression)
			sink_add_compressed(&r->sink, r->compression, ring_bytes(r));
		pw_add_host_features(&r->sink.out, r->nr_cmdline, r->cmdline, r->wevs, (u32)r->ctr.nr_events);
		add_group_desc(r);
	}
	record_dsos_free(r->sink.dsos);
	if (pw_close(&r->sink.out))
		ret = 1;
	if (r->live_status)
		show_status(r, 1);
	if (!r->quiet && !ret)	/* after a write error, the error says it */
		print_summary(r);
	return ret;
}

/*
 * prof record's exit status: 255 when the command could not run, 1 after
 * a write error, 0 when the recording ended on time; else the command's
 * status, or the signal that ended it or prof, raised again.
 */
static int exit_status(struct record *r, int write_failed)
{
	int killed_by = 0;

	if (r->exec_errno)
		return 255;
	if (write_failed)
		return write_failed;
	if (r->timed_out)	/* the recording is over; a command still running was stopped */
		return 0;
	if (r->nr_command_args && WIFSIGNALED(r->status))
		killed_by = WTERMSIG(r->status);
	if (stop_signal)
		killed_by = stop_signal;
	if (killed_by) {
		signal(killed_by, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &r->blocked, NULL);
		raise(killed_by);
		return 128 + killed_by;
	}
	if (!r->nr_command_args)
		return 0;
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 1;
}

int cmd_record(int argc, char **argv)
{
	struct record rec = { 0 };
	struct record *r = &rec;
	int ret;

	r->go_fd = r->err_fd = -1;
	ret = parse_options(r, argc, argv);
	if (ret) {
		release(r);
		return ret;
	}
	if (setup(r)) {
		abandon_command(r);
		release(r);
		return 1;
	}
	run(r);
	ret = finish(r);
	release(r);
	return exit_status(r, ret);
}
