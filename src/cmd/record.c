/*
 * record.c - "prof record [options] [--] [CMD [ARGS...]]": samples a
 * command, existing processes or threads (-p, -t), or the whole machine or
 * some of its CPUs (-a, -C) into a perf.data file, or a pipe-mode stream
 * (-o -), that perf 6.1 and prof both read.
 *
 * Counters: one per event per CPU per target thread.  A command is forked
 * and waits on a pipe while its counters are opened (inherit,
 * enable_on_exec, so counting starts at exec and follows fork and
 * threads).  With -p/-t/-a/-C the counters open disabled, the state that
 * already exists is synthesized from /proc (record_synth), then they are
 * enabled; a command given too only times the recording.  A FINISHED_INIT
 * record ends the start-up state, as in perf's files.  System-wide, a
 * "dummy:HG" event carries the side-band records (MMAP, COMM, FORK...) and
 * is enabled at once, so maps made during synthesis are not missed, as in
 * perf.  Each CPU has one ring buffer, owned by its first counter; all the
 * others on that CPU are redirected into it.
 *
 * The main loop sleeps in ppoll() with SIGCHLD, SIGINT and SIGTERM
 * unblocked only there, so no signal is missed, copies every ring's new
 * bytes into the writer after each wakeup (through zstd with -z) and ends
 * each pass that found data with a FINISHED_ROUND record.  It stops when
 * the command exits, on SIGINT/SIGTERM, after --duration, on a write error,
 * or (-p/-t) when every target thread has exited (all counters hung up).
 * Then the rings are drained once more, the kernel's lost-sample counts
 * become LOST_SAMPLES records, and the file is finished: features, then
 * the header.  While the records go by, record_dsos follows which DSOs get
 * samples, so the BUILD_ID feature needs no second pass over the file.
 *
 * Ring protocol: the kernel advances data_head; we read it with acquire
 * order, copy [data_tail, data_head) (in two pieces when it wraps past the
 * end), then store data_tail with release order.  Records are 8-byte
 * aligned and the ring size is a power of two, so a record header never
 * wraps, though its body may.
 */
#include "cmds.h"
#include "record_dsos.h"
#include "record_ring.h"
#include "record_synth.h"
#include "record_zstd.h"
#include "../event/events.h"
#include "../event/tracing_data.h"
#include "../format/writer.h"
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	32
#define COMMAND_COMM	"prof-exec"	/* the command's name until its exec
					   (perf's is "perf-exec") */
#define MAX_CPUS	4096
#define DWARF_STACK_DEFAULT 8192	/* --call-graph dwarf's stack bytes */
#define DWARF_STACK_MAX	65528	/* USHRT_MAX rounded down to 8, as perf */
#define REGS_USER_X86_64 0xff0fffULL	/* AX..SS and R8..R15: perf's mask */

/* One requested event. */
struct event {
	const char *spec;	/* as given to -e, also its name in the file */
	char *owned;		/* spec when it came from -e, or NULL */
	char name[96];		/* spec after fallbacks: "cpu-clock" for cycles,
				   ":u" added for user-only sampling */
	struct pd_attr attr;
	u64 *ids;		/* nr_ids valid ids */
	u32 nr_ids;
	int *fds;		/* [cpu * nr_threads + thread], -1 when not open */
};

/* A CPU's ring buffer. */
struct ring {
	int fd;			/* the counter that owns it, -1 for none */
	struct perf_event_mmap_page *meta;
	u8 *data;
	u64 mask;		/* data size - 1 */
};

/* What is recorded: a command only, tasks (-p/-t) or CPUs (-a/-C). */
enum target_kind { TARGET_COMMAND, TARGET_TASKS, TARGET_CPUS };

/* Options and state of one run. */
struct record {
	struct event events[MAX_EVENTS + 1];	/* + the system-wide dummy */
	int nr_events;
	int freq;		/* -F, 0 when not given */
	unsigned long long period;	/* -c, 0 when not given */
	int callgraph;		/* -g / --call-graph: CG_NONE, CG_FP, CG_DWARF */
	u32 stack_size;		/* --call-graph dwarf,SIZE (rounded up to 8) */
	const char *output;
	int quiet;
	const char *pid_list, *tid_list, *cpu_list;	/* -p, -t, -C */
	int system_wide;	/* -a */
	double duration;	/* --duration seconds, 0 for none */
	unsigned mmap_pages;	/* -m: data pages per ring */
	int compression;	/* -z level, 0 for none */
	int switch_events;	/* --switch-events */

	enum target_kind target;
	pid_t *threads;		/* -p/-t: the target threads */
	int nr_threads, cap_threads;
	int nr_task_slots;	/* threads per CPU in the fd arrays (1 unless -p/-t) */
	int cpus[MAX_CPUS];	/* CPU numbers: the online ones, or -C's */
	int nr_cpus;
	struct ring *rings;	/* one per CPU */
	int pipe;		/* -o -: pipe mode */
	struct pw_file out;
	struct record_zstd *zstd;	/* -z */
	u64 bytes_raw, bytes_packed;	/* -z: ring bytes in, record bytes out */
	u64 nr_records;		/* records written (as perf report counts events) */
	u64 nr_samples, nr_wakeups, nr_lost_records, nr_lost_samples;
	u64 nr_lost_in_ring;	/* the counts the LOST records give */
	int live_status;	/* stderr is a terminal: show the status line */
	double start_time, status_time;	/* of the recording, of the last status */
	u64 first_time, last_time;	/* of the samples, for SAMPLE_TIME */
	unsigned time_offset;	/* offset of the time in a sample record */
	struct record_dsos *dsos;	/* which DSOs got samples */
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

static struct record *the_record;	/* for the -e callback */

/*
 * -e: parses the list with the shared event syntax into r->events, each
 * owning its name.  prof record does not sample groups, :S or tracepoints
 * mixed with other events yet (they need group reads and sample ids that
 * differ per event); those are refused here.
 */
static int opt_event(const struct opt *opt, const char *arg, int unset)
{
	struct record *r = the_record;
	struct ev_list list = { 0 };
	struct ev_error err;
	int ret = 0;

	if (ev_parse(&list, arg, &err)) {
		ev_error_print(arg, &err);
		return -1;
	}
	for (int i = 0; i < list.nr && !ret; i++) {
		struct ev_event *ev = &list.events[i];

		if (r->nr_events == MAX_EVENTS)
			ret = error("too many events (at most %d)", MAX_EVENTS);
		else if (ev->nr_members != 1)
			ret = error("event groups are not supported by prof record yet: '%s'", arg);
		else if (ev->sample_read)
			ret = error("the S modifier is not supported by prof record yet: '%s'", ev->name);
		else if (r->nr_events && (ev->attr.type == PD_TYPE_TRACEPOINT) !=
			 (r->events[0].attr.type == PD_TYPE_TRACEPOINT))
			ret = error("tracepoints cannot be mixed with other events yet: '%s'",
				    ev->name);
		if (ret)
			break;
		r->events[r->nr_events].attr = ev->attr;
		r->events[r->nr_events].owned = ev->name;
		r->events[r->nr_events++].spec = ev->name;
		ev->name = NULL;
	}
	ev_list_free(&list);
	return ret;
}

/* The default event ("cycles") into ev->attr; -e events come parsed. */
static int parse_event(struct event *ev)
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
	const char *names[MAX_EVENTS];
	size_t size;
	void *data;

	if (r->events[0].attr.type != PD_TYPE_TRACEPOINT)
		return;
	for (int i = 0; i < r->nr_events; i++)
		names[i] = r->events[i].spec;
	data = ev_tracing_data(names, r->nr_events, &size);
	if (data)
		pw_add_feature(&r->out, PD_FEAT_TRACING_DATA, data, size);
	free(data);
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
	int system_wide = r->target == TARGET_CPUS;
	u64 base = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME;
	struct pd_attr *track = &r->events[0].attr;
	u64 first_type, id_bit = PD_SAMPLE_ID;

	if (r->callgraph)
		base |= PD_SAMPLE_CALLCHAIN;
	if (r->callgraph == CG_DWARF)
		base |= PD_SAMPLE_ADDR | PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER |
			PD_SAMPLE_DATA_SRC;
	if (system_wide)
		base |= PD_SAMPLE_CPU;
	if (system_wide) {
		struct event *dummy = &r->events[r->nr_events++];

		dummy->spec = "dummy:HG";
		dummy->attr.type = PERF_TYPE_SOFTWARE;
		dummy->attr.config = PERF_COUNT_SW_DUMMY;
		track = &dummy->attr;
	}
	for (int i = 0; i < r->nr_events; i++) {
		struct pd_attr *a = &r->events[i].attr;
		int is_dummy = system_wide && i == r->nr_events - 1;

		a->size = PW_ATTR_SIZE;
		a->sample_type |= base;	/* tracepoints come with RAW|CPU|PERIOD */
		a->read_format = PD_FORMAT_ID | PD_FORMAT_LOST;
		a->flags |= 1ULL << PD_ATTR_SAMPLE_ID_ALL;
		if (!is_dummy)	/* the dummy runs from the start */
			a->flags |= 1ULL << PD_ATTR_DISABLED;
		if (!r->tid_list)	/* -t follows only the threads given */
			a->flags |= 1ULL << PD_ATTR_INHERIT;
		if (r->target == TARGET_COMMAND)
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
		if (r->callgraph == CG_DWARF) {
			a->flags |= 1ULL << PD_ATTR_EXCLUDE_CALLCHAIN_USER;
			a->sample_regs_user = REGS_USER_X86_64;
			a->sample_stack_user = r->stack_size;
		}
	}
	track->flags |= 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM | 1ULL << PD_ATTR_TASK |
			1ULL << PD_ATTR_MMAP2 | 1ULL << PD_ATTR_COMM_EXEC;
	if (r->switch_events)
		track->flags |= 1ULL << PD_ATTR_CONTEXT_SWITCH;
	if (r->callgraph == CG_DWARF)
		track->flags |= 1ULL << PD_ATTR_MMAP_DATA;

	first_type = r->events[0].attr.sample_type;
	for (int i = 1; i < r->nr_events; i++)
		if (r->events[i].attr.sample_type != first_type)
			id_bit = PD_SAMPLE_IDENTIFIER;
	if (r->nr_events > 1 || r->pipe)
		for (int i = 0; i < r->nr_events; i++)
			r->events[i].attr.sample_type |= id_bit;

	first_type = r->events[0].attr.sample_type;
	r->id_first = !!(first_type & PD_SAMPLE_IDENTIFIER);
	r->time_offset = 8 + (r->id_first ? 8 : 0) + 8 + 8;	/* header, [id], ip, pid/tid */
	r->trailer_size = 16 + (first_type & PD_SAMPLE_ID ? 8 : 0) +
			  (first_type & PD_SAMPLE_CPU ? 8 : 0) +
			  (first_type & PD_SAMPLE_IDENTIFIER ? 8 : 0);
}

/* Parses a CPU list ("0-3,6"); returns 0, or -1 when it is malformed. */
static int parse_cpu_list(struct record *r, const char *list)
{
	const char *p = list;

	r->nr_cpus = 0;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return -1;
			p = end;
		}
		for (long c = lo; c <= hi; c++) {
			if (r->nr_cpus == MAX_CPUS)
				return -1;
			r->cpus[r->nr_cpus++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return r->nr_cpus ? 0 : -1;
}

/* The online CPUs, then -C's list checked against them. */
static int read_cpus(struct record *r)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096];
	int online[MAX_CPUS], nr_online;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return error("cannot read /sys/devices/system/cpu/online");
	}
	fclose(f);
	if (parse_cpu_list(r, buf))
		return error("cannot parse /sys/devices/system/cpu/online");
	if (!r->cpu_list || r->target != TARGET_CPUS)
		return 0;
	nr_online = r->nr_cpus;
	memcpy(online, r->cpus, sizeof(int) * (size_t)nr_online);
	parse_cpu_list(r, r->cpu_list);	/* checked when the options were read */
	for (int i = 0; i < r->nr_cpus; i++) {
		int found = 0;

		for (int j = 0; j < nr_online && !found; j++)
			found = online[j] == r->cpus[i];
		if (!found)
			return error("cpu %d is not online (online: %s)", r->cpus[i],
				     strtok(buf, "\n"));
	}
	return 0;
}

/* Parses "N[,N...]" of positive ids into *ids; 0, or -1 when malformed. */
static int parse_id_list(const char *list, pid_t **ids, int *nr)
{
	const char *p = list;

	*nr = 0;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v <= 0 || v > 0x7fffffff || (*end && *end != ','))
			return -1;
		*ids = xrealloc(*ids, (size_t)(*nr + 1) * sizeof(**ids));
		(*ids)[(*nr)++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return *nr ? 0 : -1;
}

/* The target threads of -p (every thread of each process) or -t. */
static int read_threads(struct record *r)
{
	pid_t *ids = NULL;
	int nr = 0;

	parse_id_list(r->pid_list ? r->pid_list : r->tid_list, &ids, &nr);
	for (int i = 0; i < nr; i++) {
		char path[64];

		if (r->pid_list) {
			if (synth_process_threads(ids[i], &r->threads, &r->nr_threads,
						  &r->cap_threads) < 0) {
				int pid = (int)ids[i];

				free(ids);
				return error("process %d does not exist", pid);
			}
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/status", (int)ids[i]);
		if (access(path, F_OK)) {
			int tid = (int)ids[i];

			free(ids);
			return error("thread %d does not exist", tid);
		}
		if (r->nr_threads == r->cap_threads) {
			r->cap_threads = r->cap_threads ? r->cap_threads * 2 : 16;
			r->threads = xrealloc(r->threads, (size_t)r->cap_threads * sizeof(pid_t));
		}
		r->threads[r->nr_threads++] = ids[i];
	}
	free(ids);
	return 0;
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
	if (len != 5 || strncmp(mode, "dwarf", 5))
		return error("call graph mode '%s' is not supported (fp or dwarf[,size])", mode);
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

static int sys_perf_event_open(struct pd_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The task slot t's pid for perf_event_open. */
static pid_t slot_pid(const struct record *r, pid_t child, int t)
{
	if (r->target == TARGET_TASKS)
		return r->threads[t];
	return r->target == TARGET_CPUS ? -1 : child;
}

/*
 * Opens ev on every CPU for every target.  cycles on a machine without it
 * becomes cpu-clock, with a note when the user asked for it.  When kernel
 * samples are not allowed, an event without :k falls back to user space
 * only (and is named "...:u", as perf names it), with a note.  With -p, a
 * thread that has exited meanwhile is skipped, as perf skips it.
 */
static int open_event(struct record *r, struct event *ev, pid_t child, int is_default)
{
	const char *mods = strchr(ev->spec, ':');
	int user_only = 0, to_cpu_clock = 0, opened = 0, slots = r->nr_cpus * r->nr_task_slots;

	ev->fds = xmalloc((size_t)slots * sizeof(int));
	ev->ids = xcalloc((size_t)slots, sizeof(u64));
	for (int i = 0; i < slots; i++)
		ev->fds[i] = -1;
	for (int i = 0; i < slots; i++) {
		int c = i / r->nr_task_slots, t = i % r->nr_task_slots;
		int fd = sys_perf_event_open(&ev->attr, slot_pid(r, child, t), r->cpus[c]);

		if (fd < 0 && (errno == EACCES || errno == EPERM) && !opened &&
		    r->target != TARGET_CPUS &&
		    !PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_KERNEL) &&
		    !PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_USER)) {
			ev->attr.flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL;
			user_only = 1;
			i--;
			continue;
		}
		if (fd < 0 && (errno == EACCES || errno == EPERM))
			return error("no permission to open event '%s'%s (perf_event_paranoid is %d): "
				     "run as root or lower kernel.perf_event_paranoid",
				     ev->spec, r->target == TARGET_CPUS ? " system-wide" :
				     r->target == TARGET_TASKS ? " on another process" : "",
				     sysctl_int("kernel/perf_event_paranoid", 2, 1));
		if (fd < 0 && errno == EINVAL && (ev->attr.read_format & PD_FORMAT_LOST)) {
			ev->attr.read_format &= ~(u64)PD_FORMAT_LOST;	/* kernel < 6.0 */
			i--;
			continue;
		}
		if (fd < 0 && !opened && ev->attr.type == PERF_TYPE_HARDWARE &&
		    ev->attr.config == PERF_COUNT_HW_CPU_CYCLES &&
		    (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) {
			if (!is_default)
				warning("'%s' is not supported on this machine, using cpu-clock", ev->spec);
			ev->attr.type = PERF_TYPE_SOFTWARE;
			ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			to_cpu_clock = 1;
			i--;
			continue;
		}
		if (fd < 0 && errno == ESRCH && r->pid_list)
			continue;	/* a thread of -p has exited */
		if (fd < 0 && errno == ESRCH)
			return error("thread %d does not exist", (int)slot_pid(r, child, t));
		if (fd < 0 && errno == EMFILE)
			return error("cannot open event '%s': too many open files "
				     "(raise the limit with ulimit -n)", ev->spec);
		if (fd < 0) {
			if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
				return error("event '%s' is not supported on this machine", ev->spec);
			return error("cannot open event '%s' on CPU %d: %s", ev->spec,
				     r->cpus[c], strerror(errno));
		}
		ev->fds[i] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[ev->nr_ids++]))
			return error("cannot get the id of event '%s': %s", ev->spec, strerror(errno));
		opened = 1;
	}
	if (!opened)
		return error("the processes given with -p have exited");
	if (to_cpu_clock || (user_only && !mods)) {
		snprintf(ev->name, sizeof(ev->name), "%.*s%s",
			 to_cpu_clock ? 9 : (int)strlen(ev->spec),
			 to_cpu_clock ? "cpu-clock" : ev->spec,
			 mods ? mods : user_only ? ":u" : "");
		ev->spec = ev->name;
	}
	if (user_only)
		warning("kernel samples are not allowed (perf_event_paranoid is %d): "
			"sampling '%s' in user space only",
			sysctl_int("kernel/perf_event_paranoid", 2, 1), ev->spec);
	return 0;
}

/* Raises the open-file limit when the counters need more than it allows. */
static void raise_nofile(const struct record *r)
{
	u64 need = (u64)r->nr_events * (u64)r->nr_cpus * (u64)r->nr_task_slots + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || need <= rl.rlim_cur)
		return;
	if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max) {
		struct rlimit want = { need, need };

		if (!setrlimit(RLIMIT_NOFILE, &want))	/* root may raise the hard limit */
			return;
		need = rl.rlim_max;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		warning("cannot raise the open file limit to %llu: %s",
			(unsigned long long)need, strerror(errno));
}

/* Maps a ring on each CPU's first counter and points the others at it. */
static int setup_rings(struct record *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(r->mmap_pages + 1) * (size_t)page;

	r->rings = xcalloc((size_t)r->nr_cpus, sizeof(*r->rings));
	for (int c = 0; c < r->nr_cpus; c++) {
		struct ring *ring = &r->rings[c];
		void *p;

		ring->fd = -1;
		for (int i = 0; i < r->nr_events; i++) {
			for (int t = 0; t < r->nr_task_slots; t++) {
				int fd = r->events[i].fds[c * r->nr_task_slots + t];

				if (fd < 0)
					continue;
				if (ring->fd < 0) {
					p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
					if (p == MAP_FAILED)
						return error("cannot map the ring buffer of CPU %d: %s%s",
							     r->cpus[c], strerror(errno),
							     errno == EPERM ? " (lower -m or raise "
							     "kernel.perf_event_mlock_kb)" : "");
					ring->fd = fd;
					ring->meta = p;
					ring->data = (u8 *)p + page;
					ring->mask = (u64)r->mmap_pages * (u64)page - 1;
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd)) {
					return error("cannot share the ring buffer of CPU %d: %s",
						     r->cpus[c], strerror(errno));
				}
			}
		}
	}
	return 0;
}

/* Copies len bytes at ring position pos, wrapping at the end. */
static void ring_copy(const struct ring *ring, u64 pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos & ring->mask);
	size_t first = (size_t)ring->mask + 1 - off;

	if (first >= len) {
		memcpy(dst, ring->data + off, len);
	} else {
		memcpy(dst, ring->data + off, first);
		memcpy((u8 *)dst + first, ring->data, len - first);
	}
}

/* A COMPRESSED record made by record_zstd, to the file. */
static void put_packed(void *arg, const void *rec, size_t size)
{
	struct record *r = arg;

	pw_write(&r->out, rec, size);
}

/* Ring bytes to the file, through zstd with -z. */
static void put_ring_bytes(struct record *r, const void *p, size_t len)
{
	if (!r->zstd) {
		pw_write(&r->out, p, len);
		return;
	}
	r->bytes_raw += len;
	r->bytes_packed += record_zstd_compress(r->zstd, p, len, put_packed, r);
}

/* A synthesized record: to the file, and followed like the ring's. */
static void put_synth(void *arg, const void *rec, size_t size)
{
	struct record *r = arg;

	pw_write(&r->out, rec, size);
	record_dsos_add(r->dsos, rec);
	r->nr_records++;
}

/* Moves a ring's new records into the file.  Returns the bytes moved. */
static u64 drain_ring(struct record *r, struct ring *ring)
{
	u64 head, tail, size = ring->mask + 1, off, end;
	static u64 wrapped[65536 / 8];	/* a record that wraps, made whole */

	if (ring->fd < 0)
		return 0;
	head = __atomic_load_n(&ring->meta->data_head, __ATOMIC_ACQUIRE);
	tail = ring->meta->data_tail;
	if (head == tail)
		return 0;
	/* count the samples, note their times, follow the sampled DSOs */
	for (u64 pos = tail; pos < head; ) {
		const struct pd_header *h = (const void *)(ring->data + (pos & ring->mask));

		if (h->size < sizeof(*h))
			break;	/* cannot happen with a sane kernel: stop looking */
		if ((pos & ring->mask) + h->size > size) {
			ring_copy(ring, pos, wrapped, h->size);
			h = (const void *)wrapped;
		}
		if (h->type == PD_REC_SAMPLE && h->size >= r->time_offset + 8) {
			u64 t = pd_get64((const u8 *)h + r->time_offset);

			if (!r->nr_samples++)
				r->first_time = t;
			r->last_time = t;
		} else if (h->type == PD_REC_LOST) {
			r->nr_lost_records++;
			if (h->size >= 24)
				r->nr_lost_in_ring += pd_get64((const u8 *)h + 16);
		}
		r->nr_records++;
		record_dsos_add(r->dsos, h);
		pos += h->size;
	}
	off = tail & ring->mask;
	end = off + (head - tail);
	if (end <= size) {
		put_ring_bytes(r, ring->data + off, (size_t)(head - tail));
	} else {
		put_ring_bytes(r, ring->data + off, (size_t)(size - off));
		put_ring_bytes(r, ring->data, (size_t)(end - size));
	}
	__atomic_store_n(&ring->meta->data_tail, head, __ATOMIC_RELEASE);
	return head - tail;
}

/* One pass over all rings, closed by FINISHED_ROUND if anything came. */
static void drain_all(struct record *r)
{
	u64 moved = 0;

	for (int c = 0; c < r->nr_cpus; c++)
		moved += drain_ring(r, &r->rings[c]);
	if (moved) {
		struct pd_header round = { PD_REC_FINISHED_ROUND, 0, sizeof(round) };

		pw_write(&r->out, &round, sizeof(round));
		r->nr_records++;
		pw_commit(&r->out);
	}
}

/*
 * The samples the kernel could not write (read_format LOST), one
 * LOST_SAMPLES record per counter that lost any, with a trailer holding
 * its id, as perf record 6.1 writes them at the end.
 */
static void write_lost_samples(struct record *r)
{
	for (int i = 0; i < r->nr_events; i++) {
		struct event *ev = &r->events[i];
		u64 type = ev->attr.sample_type;

		if (!(ev->attr.read_format & PD_FORMAT_LOST))
			continue;
		for (int s = 0; s < r->nr_cpus * r->nr_task_slots; s++) {
			u64 v[3], rec[8] = { 0 };	/* value, id, lost */
			struct pd_header h = { PD_REC_LOST_SAMPLES, 0, 0 };
			int n = 2 + 2;	/* header, lost, pid/tid, time */

			if (ev->fds[s] < 0 || read(ev->fds[s], v, sizeof(v)) != sizeof(v) || !v[2])
				continue;
			rec[1] = v[2];
			if (type & PD_SAMPLE_ID)
				rec[n++] = v[1];
			if (type & PD_SAMPLE_CPU)
				n++;
			if (type & PD_SAMPLE_IDENTIFIER)
				rec[n++] = v[1];
			h.size = (u16)(n * 8);
			memcpy(rec, &h, sizeof(h));
			pw_write(&r->out, rec, h.size);
			r->nr_records++;
			r->nr_lost_samples += v[2];
		}
	}
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
	long page = sysconf(_SC_PAGESIZE);

	for (int c = 0; r->rings && c < r->nr_cpus; c++)
		if (r->rings[c].meta)
			munmap(r->rings[c].meta, (size_t)(r->mmap_pages + 1) * (size_t)page);
	for (int i = 0; i < r->nr_events; i++) {
		for (int s = 0; r->events[i].fds && s < r->nr_cpus * r->nr_task_slots; s++)
			if (r->events[i].fds[s] >= 0)
				close(r->events[i].fds[s]);
		free(r->events[i].fds);
		free(r->events[i].ids);
		free(r->events[i].owned);
	}
	record_zstd_free(r->zstd);
	free(r->threads);
	free(r->rings);
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
		r->target = TARGET_TASKS;
		return read_threads(r);
	}
	if (r->system_wide || r->cpu_list)
		r->target = TARGET_CPUS;
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
		now - r->start_time, (unsigned long long)r->nr_samples,
		(double)(r->out.data_size + r->out.buf_len) / 1024.0 / 1024.0,
		(unsigned long long)r->nr_lost_in_ring);
}

/* The perf-style summary, and perf's warnings about lost data. */
static void print_summary(struct record *r)
{
	double mb = r->pipe ? 0 : (double)r->out.file_size / 1024.0 / 1024.0;

	fprintf(stderr, "[ prof record: Woken up %llu times to write data ]\n",
		(unsigned long long)r->nr_wakeups);
	/* perf says this while reading the file back for build-ids, which
	 * it skips in pipe mode and with -z */
	if (!r->pipe && !r->zstd) {
		u64 all = r->nr_samples + r->nr_lost_samples;

		if (r->nr_lost_records)
			fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
				"Check IO/CPU overload!\n\n", (unsigned long long)r->nr_records,
				(unsigned long long)r->nr_lost_records);
		if (all && (double)r->nr_lost_samples / (double)all > 0.05)
			fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
				(unsigned long long)all, 100.0 * (double)r->nr_lost_samples / (double)all);
	}
	fprintf(stderr, "[ prof record: Captured and wrote %.3f MB %s", mb, r->pipe ? "-" : r->output);
	if (r->zstd)
		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			(double)r->bytes_raw / 1024.0 / 1024.0,
			r->bytes_packed ? (double)r->bytes_raw / (double)r->bytes_packed : 0.0);
	else if (r->nr_samples && !r->pipe)
		fprintf(stderr, " (%llu samples)", (unsigned long long)r->nr_samples);
	fprintf(stderr, " ]\n");
}

/*
 * Pipe mode: an EVENT_UPDATE record naming each event (type 2, its first
 * id, the name NUL-padded as perf pads it), which readers that take names
 * from the stream rather than from EVENT_DESC need, as perf writes them.
 */
static void write_event_names(struct record *r)
{
	for (int i = 0; i < r->nr_events; i++) {
		const char *name = r->events[i].spec;
		size_t len = strlen(name), padded = (len + 1 + 7) & ~(size_t)7;
		u8 rec[40 + 256] = { 0 };
		struct pd_header h = { PD_REC_EVENT_UPDATE, 0, (u16)(40 + padded) };
		u64 kind = 2;

		if (len > 200 || !r->events[i].nr_ids)
			continue;
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &kind, 8);
		memcpy(rec + 16, &r->events[i].ids[0], 8);
		memcpy(rec + 24, name, len);
		pw_write(&r->out, rec, h.size);
		r->nr_records++;
	}
}

/* The COMPRESSED feature: version 0, zstd, level, ratio, ring mmap size. */
static void add_compressed_feature(struct record *r)
{
	u32 v[5] = { 0, 1, (u32)r->compression, 0,
		     (u32)((r->mmap_pages + 1) * (unsigned long)sysconf(_SC_PAGESIZE)) };

	if (r->bytes_packed)
		v[3] = (u32)((double)r->bytes_raw / (double)r->bytes_packed + 0.5);
	pw_add_feature(&r->out, PD_FEAT_COMPRESSED, v, sizeof(v));
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
	int nr = 0, bad = (r->pid_list && parse_id_list(r->pid_list, &ids, &nr)) ||
			  (r->tid_list && parse_id_list(r->tid_list, &ids, &nr));

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
	struct opt opts[] = {
		OPT_CALLBACK('e', "event", NULL, "event",
			     "event selector, perf's syntax: cpu-clock, sched:sched_switch, ... with :u, :k, ...",
			     opt_event),
		OPT_INTEGER('F', "freq", &r->freq, "profile at this frequency (default 4000)"),
		OPT_U64('c', "count", &r->period, "event period to sample"),
		OPT_BOOLEAN('g', NULL, &r->callgraph, "record call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &callgraph_mode, "mode[,size]",
			   "call graph mode: fp, or dwarf with SIZE stack bytes (default 8192)"),
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
	the_record = r;
	r->output = "perf.data";
	r->nr_command_args = opt_parse(argc, argv, opts, record_usage, 1);
	r->command = argv;
	if (r->quiet)
		error_set_quiet(1);
	if (r->callgraph)
		r->callgraph = CG_FP;
	if (callgraph_mode && parse_callgraph(r, callgraph_mode))
		return 129;
	if (r->freq < 0)
		opt_usage_error(record_usage, opts, "bad frequency %d", r->freq);
	if (duration_arg)
		parse_duration(r, duration_arg, opts);
	r->mmap_pages = ring_default_pages(sysctl_int("kernel/perf_event_mlock_kb", -1, 0),
					   sysconf(_SC_PAGESIZE));
	if (mmap_arg && !(r->mmap_pages = ring_parse_pages(mmap_arg, sysconf(_SC_PAGESIZE),
							      r->quiet)))
		opt_usage_error(record_usage, opts, "invalid argument for -m/--mmap-pages: '%s'", mmap_arg);
	if (r->cpu_list && parse_cpu_list(r, r->cpu_list))
		opt_usage_error(record_usage, opts, "bad cpu list '%s'", r->cpu_list);
	check_id_lists(r, opts);
	r->pipe = !strcmp(r->output, "-");
	if (!r->nr_events) {
		r->events[0].spec = "cycles";
		r->nr_events = 1;
		r->default_event = 1;
	}
	for (int i = 0; i < r->nr_events; i++)
		if (parse_event(&r->events[i]))
			return 129;
	if (r->default_event)	/* perf marks only -e events so */
		r->events[0].attr.flags &= ~(1ULL << PD_ATTR_EXCLUDE_GUEST);
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
	r->exclude_kernel = 1;
	for (int i = 0; i < r->nr_events; i++) {
		if (open_event(r, &r->events[i], r->child, r->default_event && i == 0))
			return -1;
		if (!PD_ATTR_FLAG(&r->events[i].attr, PD_ATTR_EXCLUDE_KERNEL))
			r->exclude_kernel = 0;	/* perf then writes the kernel maps */
	}
	return setup_rings(r);
}

/*
 * Opens the file (keeping an old one as OUTPUT.old) or the pipe, which
 * gets its features and event names first; then the DSO follower and,
 * with -z, the compressor.  Returns 0, or -1.
 */
static int open_output(struct record *r)
{
	r->wevs = xcalloc((size_t)r->nr_events, sizeof(*r->wevs));
	for (int i = 0; i < r->nr_events; i++) {
		r->wevs[i].attr = r->events[i].attr;
		r->wevs[i].name = r->events[i].spec;
		r->wevs[i].ids = r->events[i].ids;
		r->wevs[i].nr_ids = r->events[i].nr_ids;
	}
	if (r->pipe) {
		if (pw_open_pipe(&r->out, STDOUT_FILENO, "standard output", r->wevs,
				 (u32)r->nr_events))
			return -1;
		pw_add_host_features(&r->out, r->nr_cmdline, r->cmdline, r->wevs, (u32)r->nr_events);
		if (r->compression)
			add_compressed_feature(r);
		pw_add_feature(&r->out, PD_FEAT_SAMPLE_TIME, (u64[2]){ 0, 0 }, 16);
		pw_pipe_features(&r->out);
		write_event_names(r);
	} else {
		keep_old_output(r->output);
		if (pw_open(&r->out, r->output, r->wevs, (u32)r->nr_events))
			return -1;
	}
	r->dsos = record_dsos_new(r->id_first);
	if (r->compression)
		r->zstd = record_zstd_new(r->compression);
	return 0;
}

/* The state before recording (synthesized), FINISHED_INIT, then the
 * counters of -p/-t/-a/-C are enabled. */
static void write_start_state(struct record *r)
{
	struct synth synth = { 0 };
	struct pd_header init = { PD_REC_FINISHED_INIT, 0, sizeof(init) };

	synth.emit = put_synth;
	synth.arg = r;
	synth.trailer_size = r->trailer_size;
	synth.mmap_data = r->callgraph == CG_DWARF;
	if (!r->exclude_kernel)
		synth_kernel_maps(&synth);
	if (r->target == TARGET_TASKS)
		synth_thread_list(&synth, r->threads, r->nr_threads);
	else if (r->target == TARGET_CPUS)
		synth_all_threads(&synth);
	if (r->child > 0)
		synth_comm(&synth, r->child, r->child, COMMAND_COMM);
	synth_free(&synth);
	pw_write(&r->out, &init, sizeof(init));	/* the start-up state ends */
	r->nr_records++;
	pw_commit(&r->out);
	if (r->target != TARGET_COMMAND)
		for (int i = 0; i < r->nr_events; i++)
			for (int s = 0; s < r->nr_cpus * r->nr_task_slots; s++)
				if (r->events[i].fds[s] >= 0)
					ioctl(r->events[i].fds[s], PERF_EVENT_IOC_ENABLE, 0);
}

/*
 * Everything before the recording runs: the target and CPUs, the attrs,
 * the signals, the command held at the start, the counters and rings, the
 * output and the state that exists already.  Returns 0, or -1 after an
 * error (then abandon_command() lets a held command go).
 */
static int setup(struct record *r)
{
	if (choose_target(r) || read_cpus(r))
		return -1;
	r->nr_task_slots = r->target == TARGET_TASKS ? r->nr_threads : 1;
	setup_attrs(r);
	raise_nofile(r);
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
	r->pfds = xcalloc((size_t)(r->nr_cpus * r->nr_task_slots), sizeof(*r->pfds));
	for (int s = 0; s < r->nr_cpus * r->nr_task_slots; s++) {
		int fd = r->target == TARGET_TASKS ? r->events[0].fds[s] :
			 s < r->nr_cpus ? r->rings[s].fd : -1;

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

		drain_all(r);
		if (r->child > 0 && waitpid(r->child, &r->status, WNOHANG) == r->child) {
			r->child = 0;
			break;
		}
		if (deadline) {
			left = deadline - now_seconds();
			r->timed_out = left <= 0;
		}
		if (stop_signal || r->out.failed || r->timed_out)	/* a full disk stops as perf does */
			break;
		if (r->target == TARGET_TASKS && !r->live) {
			r->timed_out = 1;	/* every target thread has exited: done */
			break;
		}
		wait_for_data(r, r->pfds, r->nfds, &r->live, &r->wait_mask, left);
		if (r->live_status)
			show_status(r, 0);
	}
	if (r->child > 0)	/* stopped early: so is the command */
		stop_command(r->child, &r->status, &r->wait_mask);
	for (int i = 0; i < r->nr_events; i++)
		for (int s = 0; s < r->nr_cpus * r->nr_task_slots; s++)
			if (r->events[i].fds[s] >= 0)
				ioctl(r->events[i].fds[s], PERF_EVENT_IOC_DISABLE, 0);
	drain_all(r);
	write_lost_samples(r);
	pw_commit(&r->out);
}

/*
 * Finishes the file (features, then the header; a pipe has had its
 * features) and prints the summary.  Returns 0, or 1 after a write error.
 */
static int finish(struct record *r)
{
	int ret = 0;

	if (!r->pipe) {
		size_t build_ids_size;
		void *build_ids = record_dsos_build_ids(r->dsos, &build_ids_size);

		if (build_ids_size)
			pw_add_feature(&r->out, PD_FEAT_BUILD_ID, build_ids, build_ids_size);
		free(build_ids);
		add_tracing_data(r);
		if (r->nr_samples) {
			u64 times[2] = { r->first_time, r->last_time };

			pw_add_feature(&r->out, PD_FEAT_SAMPLE_TIME, times, sizeof(times));
		}
		if (r->compression)
			add_compressed_feature(r);
		pw_add_host_features(&r->out, r->nr_cmdline, r->cmdline, r->wevs, (u32)r->nr_events);
	}
	record_dsos_free(r->dsos);
	if (pw_close(&r->out))
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
	static struct record rec;
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
