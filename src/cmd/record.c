/*
 * record.c - "prof record [options] [--] CMD [ARGS...]": runs CMD and
 * samples it, its threads and its children into a perf.data file that perf
 * 6.1 and prof both read.
 *
 * The command is forked and waits on a pipe while one counter per event
 * per online CPU is opened on it (inherit, enable_on_exec, so counting
 * starts at exec and follows fork and threads).  Each CPU has one ring
 * buffer, owned by the first event's counter; the other events' counters
 * on that CPU are redirected into it.  The main loop sleeps in ppoll()
 * with SIGCHLD, SIGINT and SIGTERM unblocked only there, so no signal is
 * missed, copies every ring's new bytes into the writer after each wakeup
 * and ends each pass that found data with a FINISHED_ROUND record.  When
 * the command exits (or a signal asks to stop) the rings are drained once
 * more and the file is finished: features, then the header.  While the
 * records go by, record_dsos follows which DSOs get samples, so the
 * BUILD_ID feature needs no second pass over the file.
 *
 * Ring protocol: the kernel advances data_head; we read it with acquire
 * order, copy [data_tail, data_head) (in two pieces when it wraps past the
 * end), then store data_tail with release order.  Records are 8-byte
 * aligned and the ring size is a power of two, so a record header never
 * wraps, though its body may.
 */
#include "cmds.h"
#include "record_dsos.h"
#include "../event/events.h"
#include "../event/tracing_data.h"
#include "../format/writer.h"
#include "../util/error.h"
#include "../util/opt.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	32
#define MAX_CPUS	4096
#define RING_PAGES	128	/* data pages per ring: 512 KiB, perf's default */

/* One requested event. */
struct event {
	const char *spec;	/* as given to -e, also its name in the file */
	char *owned;		/* spec when it came from -e, or NULL */
	char name[96];		/* spec after fallbacks: "cpu-clock" for cycles,
				   ":u" added for user-only sampling */
	struct pd_attr attr;
	u64 *ids;		/* one per CPU */
	int *fds;		/* one per CPU */
};

/* A CPU's ring buffer. */
struct ring {
	int fd;			/* the counter that owns it */
	struct perf_event_mmap_page *meta;
	u8 *data;
	u64 mask;		/* data size - 1 */
};

/* Options and state of one run. */
struct record {
	struct event events[MAX_EVENTS];
	int nr_events;
	int freq;		/* -F, 0 when not given */
	unsigned long long period;	/* -c, 0 when not given */
	int callgraph;		/* -g / --call-graph fp */
	const char *output;
	int quiet;

	int cpus[MAX_CPUS];	/* online CPU numbers */
	int nr_cpus;
	struct ring *rings;	/* one per CPU */
	struct pw_file out;
	u64 nr_samples, nr_wakeups;
	u64 first_time, last_time;	/* of the samples, for SAMPLE_TIME */
	unsigned time_offset;	/* offset of the time in a sample record */
	struct record_dsos *dsos;	/* which DSOs got samples */
	u16 trailer_size;	/* sample_id bytes on non-sample records */
};

static volatile sig_atomic_t stop_signal;	/* SIGINT/SIGTERM received */

static void on_stop(int sig) { stop_signal = sig; }
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

/* Fills the parts of every attr that depend on the options. */
static void setup_attrs(struct record *r)
{
	u64 sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME;

	if (!r->period)
		sample_type |= PD_SAMPLE_PERIOD;
	if (r->callgraph)
		sample_type |= PD_SAMPLE_CALLCHAIN;
	if (r->nr_events > 1)
		sample_type |= PD_SAMPLE_ID;
	r->time_offset = 8 + 8 + 8;	/* header, ip, pid/tid */
	r->trailer_size = 16 + (r->nr_events > 1 ? 8 : 0);
	for (int i = 0; i < r->nr_events; i++) {
		struct pd_attr *a = &r->events[i].attr;

		a->size = PW_ATTR_SIZE;
		a->sample_type |= sample_type;	/* tracepoints come with RAW|CPU|PERIOD */
		a->read_format = PD_FORMAT_ID | PD_FORMAT_LOST;
		a->flags |= 1ULL << PD_ATTR_DISABLED | 1ULL << PD_ATTR_INHERIT |
			    1ULL << PD_ATTR_ENABLE_ON_EXEC | 1ULL << PD_ATTR_SAMPLE_ID_ALL;
		if (i == 0)	/* side-band records come once, from the first */
			a->flags |= 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM |
				    1ULL << PD_ATTR_TASK | 1ULL << PD_ATTR_MMAP2 |
				    1ULL << PD_ATTR_COMM_EXEC;
		if (r->period) {
			a->sample_period = r->period;
		} else if (a->sample_period && !r->freq) {
			/* the event's own period (1 for a tracepoint), as perf keeps it */
		} else {
			a->flags |= 1ULL << PD_ATTR_FREQ;
			a->sample_period = r->freq ? (u64)r->freq : 4000;
		}
	}
	if (r->events[0].attr.sample_type & PD_SAMPLE_CPU)	/* in the sample_id trailer */
		r->trailer_size += 8;
}

/* Reads the online CPU list ("0-3,6"). */
static int read_online_cpus(struct record *r)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096], *p = buf;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return error("cannot read /sys/devices/system/cpu/online");
	}
	fclose(f);
	while (*p && *p != '\n') {
		long lo = strtol(p, &p, 10), hi = lo;

		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (long c = lo; c <= hi && r->nr_cpus < MAX_CPUS; c++)
			r->cpus[r->nr_cpus++] = (int)c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return error("cannot parse /sys/devices/system/cpu/online");
	}
	return r->nr_cpus ? 0 : error("no online CPUs");
}

static int sys_perf_event_open(struct pd_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The kernel.perf_event_paranoid setting, or 2 when it cannot be read. */
static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

/*
 * Opens ev on every CPU for pid.  cycles on a machine without it becomes
 * cpu-clock, with a note when the user asked for it.  When kernel samples
 * are not allowed, an event without :k falls back to user space only (and
 * is named "...:u", as perf names it), with a note.
 */
static int open_event(struct record *r, struct event *ev, pid_t pid, int is_default)
{
	const char *mods = strchr(ev->spec, ':');
	int user_only = 0, to_cpu_clock = 0;

	for (int c = 0; c < r->nr_cpus; c++) {
		int fd = sys_perf_event_open(&ev->attr, pid, r->cpus[c]);

		if (fd < 0 && (errno == EACCES || errno == EPERM) && c == 0 &&
		    !PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_KERNEL) &&
		    !PD_ATTR_FLAG(&ev->attr, PD_ATTR_EXCLUDE_USER)) {
			ev->attr.flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL;
			user_only = 1;
			c--;
			continue;
		}
		if (fd < 0 && (errno == EACCES || errno == EPERM))
			return error("no permission to open event '%s' (perf_event_paranoid is %d): "
				     "run as root or lower kernel.perf_event_paranoid",
				     ev->spec, paranoid_level());

		if (fd < 0 && errno == EINVAL && (ev->attr.read_format & PD_FORMAT_LOST)) {
			ev->attr.read_format &= ~(u64)PD_FORMAT_LOST;	/* kernel < 6.0 */
			c--;
			continue;
		}
		if (fd < 0 && c == 0 && ev->attr.type == PERF_TYPE_HARDWARE &&
		    ev->attr.config == PERF_COUNT_HW_CPU_CYCLES &&
		    (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) {
			if (!is_default)
				warning("'%s' is not supported on this machine, using cpu-clock", ev->spec);
			ev->attr.type = PERF_TYPE_SOFTWARE;
			ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			to_cpu_clock = 1;
			c--;
			continue;
		}
		if (fd < 0) {
			if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
				return error("event '%s' is not supported on this machine", ev->spec);
			return error("cannot open event '%s' on CPU %d: %s", ev->spec,
				     r->cpus[c], strerror(errno));
		}
		ev->fds[c] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[c]))
			return error("cannot get the id of event '%s': %s", ev->spec, strerror(errno));
	}
	if (to_cpu_clock || (user_only && !mods)) {
		snprintf(ev->name, sizeof(ev->name), "%.*s%s",
			 to_cpu_clock ? 9 : (int)strlen(ev->spec),
			 to_cpu_clock ? "cpu-clock" : ev->spec,
			 mods ? mods : user_only ? ":u" : "");
		ev->spec = ev->name;
	}
	if (user_only)
		warning("kernel samples are not allowed (perf_event_paranoid is %d): "
			"sampling '%s' in user space only", paranoid_level(), ev->spec);
	return 0;
}

/* Maps a ring on each CPU's first counter and points the others at it. */
static int setup_rings(struct record *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(RING_PAGES + 1) * (size_t)page;

	r->rings = xcalloc((size_t)r->nr_cpus, sizeof(*r->rings));
	for (int c = 0; c < r->nr_cpus; c++) {
		struct ring *ring = &r->rings[c];
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       r->events[0].fds[c], 0);

		if (p == MAP_FAILED)
			return error("cannot map the ring buffer of CPU %d: %s",
				     r->cpus[c], strerror(errno));
		ring->fd = r->events[0].fds[c];
		ring->meta = p;
		ring->data = (u8 *)p + page;
		ring->mask = (u64)RING_PAGES * (u64)page - 1;
		for (int i = 1; i < r->nr_events; i++)
			if (ioctl(r->events[i].fds[c], PERF_EVENT_IOC_SET_OUTPUT, ring->fd))
				return error("cannot share the ring buffer of CPU %d: %s",
					     r->cpus[c], strerror(errno));
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

/* Moves a ring's new records into the file.  Returns the bytes moved. */
static u64 drain_ring(struct record *r, struct ring *ring)
{
	u64 head = __atomic_load_n(&ring->meta->data_head, __ATOMIC_ACQUIRE);
	u64 tail = ring->meta->data_tail;
	u64 size = (ring->mask + 1), off, end;
	static u64 wrapped[65536 / 8];	/* a record that wraps, made whole */

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
		}
		record_dsos_add(r->dsos, h);
		pos += h->size;
	}
	off = tail & ring->mask;
	end = off + (head - tail);
	if (end <= size) {
		pw_write(&r->out, ring->data + off, (size_t)(head - tail));
	} else {
		pw_write(&r->out, ring->data + off, (size_t)(size - off));
		pw_write(&r->out, ring->data, (size_t)(end - size));
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
		pw_commit(&r->out);
	}
}

/* The address of symbol name in /proc/kallsyms, or 0. */
static u64 kallsyms_address(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[256], type;
	unsigned long long addr;
	u64 found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * The kernel map as perf writes it: an MMAP for pid -1 covering _text to
 * _etext with pgoff = _text, named "[kernel.kallsyms]_text", with a zero
 * sample_id trailer.
 */
static void write_kernel_mmap(struct record *r)
{
	static const char name[] = "[kernel.kallsyms]_text";
	u8 rec[8 + 8 + 24 + 24 + 32] = { 0 };	/* name padded to 24, trailer <= 32 */
	u64 text = kallsyms_address("_text"), etext = kallsyms_address("_etext");
	u64 len = etext > text ? etext - text : 0;
	struct pd_header h = { PD_REC_MMAP, PD_MISC_KERNEL, 0 };
	u32 pid = (u32)-1, tid = 0;
	u16 size = (u16)(8 + 8 + 24 + 24 + r->trailer_size);

	h.size = size;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, &text, 8);
	memcpy(rec + 24, &len, 8);
	memcpy(rec + 32, &text, 8);
	memcpy(rec + 40, name, sizeof(name));
	pw_write(&r->out, rec, size);
}

/*
 * Forks the command, stopped until go_fd is written; it runs with signal
 * mask mask and default handlers.  exec failures come back as an errno on
 * err_fd (close-on-exec, so a successful exec closes it).
 */
static pid_t start_command(char **argv, const sigset_t *mask, int *go_fd, int *err_fd)
{
	int go[2], err[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return error("cannot create a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return error("cannot fork: %s", strerror(errno));
	if (!pid) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, mask, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	*go_fd = go[1];
	*err_fd = err[0];
	return pid;
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

/* Sleeps until a ring wakes us, a signal comes, or a timeout. */
static void wait_for_data(struct record *r, struct pollfd *pfds, const sigset_t *mask)
{
	struct timespec ts = { 0, 500 * 1000 * 1000 };
	int n = ppoll(pfds, (nfds_t)r->nr_cpus, &ts, mask);

	if (n > 0) {
		r->nr_wakeups++;
		for (int c = 0; c < r->nr_cpus; c++)
			if (pfds[c].revents & (POLLHUP | POLLERR))
				pfds[c].fd = -1;	/* its task is gone */
	}
}

/* Closes the counters, unmaps the rings, frees what the run allocated. */
static void release(struct record *r, struct pw_event *wevs, struct pollfd *pfds, char **cmdline)
{
	long page = sysconf(_SC_PAGESIZE);

	for (int c = 0; r->rings && c < r->nr_cpus; c++)
		if (r->rings[c].meta)
			munmap(r->rings[c].meta, (size_t)(RING_PAGES + 1) * (size_t)page);
	for (int i = 0; i < r->nr_events; i++) {
		for (int c = 0; r->events[i].fds && c < r->nr_cpus; c++)
			if (r->events[i].fds[c] >= 0)
				close(r->events[i].fds[c]);
		free(r->events[i].fds);
		free(r->events[i].ids);
		free(r->events[i].owned);
	}
	free(r->rings);
	free(wevs);
	free(pfds);
	free(cmdline);
}

int cmd_record(int argc, char **argv)
{
	static struct record rec;
	struct record *r = &rec;
	const char *callgraph_mode = NULL;
	struct opt opts[] = {
		OPT_CALLBACK('e', "event", NULL, "event",
			     "event selector, perf's syntax: cpu-clock, sched:sched_switch, ... with :u, :k, ...",
			     opt_event),
		OPT_INTEGER('F', "freq", &r->freq, "profile at this frequency (default 4000)"),
		OPT_U64('c', "count", &r->period, "event period to sample"),
		OPT_BOOLEAN('g', NULL, &r->callgraph, "record call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &callgraph_mode, "mode", "call graph mode: fp"),
		OPT_STRING('o', "output", &r->output, "file", "output file name (default perf.data)"),
		OPT_BOOLEAN('q', "quiet", &r->quiet, "print no summary"),
		OPT_END(),
	};
	struct sigaction sa = { 0 };
	sigset_t block, orig_mask, wait_mask;
	struct pw_event *wevs = NULL;
	struct pollfd *pfds = NULL;
	int go_fd = -1, err_fd = -1, status = 0, exec_errno = 0, killed_by = 0, ret = 0;
	char **cmdline = xcalloc((size_t)argc + 2, sizeof(char *));	/* "prof", argv */
	int default_event = 0;
	size_t build_ids_size;
	void *build_ids;
	pid_t child;
	int argc_left;

	cmdline[0] = "prof";
	memcpy(cmdline + 1, argv, (size_t)argc * sizeof(char *));
	the_record = r;
	r->output = "perf.data";
	argc_left = opt_parse(argc, argv, opts, record_usage, 1);
	if (r->quiet)
		error_set_quiet(1);
	if (!argc_left)
		opt_usage_error(record_usage, opts, "a command to run is required");
	if (callgraph_mode) {
		if (strcmp(callgraph_mode, "fp")) {
			error("call graph mode '%s' is not supported (only fp)", callgraph_mode);
			release(r, NULL, NULL, cmdline);
			return 129;
		}
		r->callgraph = 1;
	}
	if (r->freq < 0)
		opt_usage_error(record_usage, opts, "bad frequency %d", r->freq);
	if (!r->nr_events) {
		r->events[0].spec = "cycles";
		r->nr_events = 1;
		default_event = 1;
	}
	for (int i = 0; i < r->nr_events; i++) {
		if (parse_event(&r->events[i])) {
			release(r, NULL, NULL, cmdline);
			return 129;
		}
	}
	if (default_event)	/* perf marks only -e events so */
		r->events[0].attr.flags &= ~(1ULL << PD_ATTR_EXCLUDE_GUEST);
	setup_attrs(r);
	if (read_online_cpus(r)) {
		release(r, NULL, NULL, cmdline);
		return 1;
	}

	/* signals wait in the mask except inside ppoll() */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig_mask);
	wait_mask = orig_mask;
	sigdelset(&wait_mask, SIGCHLD);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);

	child = start_command(argv, &orig_mask, &go_fd, &err_fd);
	if (child < 0) {
		release(r, NULL, NULL, cmdline);
		return 1;
	}
	for (int i = 0; i < r->nr_events; i++) {
		r->events[i].fds = xmalloc((size_t)r->nr_cpus * sizeof(int));
		for (int c = 0; c < r->nr_cpus; c++)
			r->events[i].fds[c] = -1;
		r->events[i].ids = xcalloc((size_t)r->nr_cpus, sizeof(u64));
		if (open_event(r, &r->events[i], child, default_event))
			goto kill_child;
	}
	if (setup_rings(r))
		goto kill_child;

	wevs = xcalloc((size_t)r->nr_events, sizeof(*wevs));
	for (int i = 0; i < r->nr_events; i++) {
		wevs[i].attr = r->events[i].attr;
		wevs[i].name = r->events[i].spec;
		wevs[i].ids = r->events[i].ids;
		wevs[i].nr_ids = (u32)r->nr_cpus;
	}
	keep_old_output(r->output);
	if (pw_open(&r->out, r->output, wevs, (u32)r->nr_events))
		goto kill_child;
	write_kernel_mmap(r);
	pw_commit(&r->out);
	r->dsos = record_dsos_new();

	/* go: the command execs, which enables the counters */
	if (write(go_fd, "g", 1) != 1)
		warning("cannot start the command: %s", strerror(errno));
	close(go_fd);
	if (read(err_fd, &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno))
		error("cannot run '%s': %s", argv[0], strerror(exec_errno));
	close(err_fd);

	pfds = xcalloc((size_t)r->nr_cpus, sizeof(*pfds));
	for (int c = 0; c < r->nr_cpus; c++) {
		pfds[c].fd = r->rings[c].fd;
		pfds[c].events = POLLIN;
	}
	for (;;) {
		drain_all(r);
		if (waitpid(child, &status, WNOHANG) == child)
			break;
		if (stop_signal || r->out.failed) {	/* a full disk stops as perf does */
			kill(child, SIGTERM);
			waitpid(child, &status, 0);
			break;
		}
		wait_for_data(r, pfds, &wait_mask);
	}
	for (int i = 0; i < r->nr_events; i++)
		for (int c = 0; c < r->nr_cpus; c++)
			ioctl(r->events[i].fds[c], PERF_EVENT_IOC_DISABLE, 0);
	drain_all(r);

	build_ids = record_dsos_build_ids(r->dsos, &build_ids_size);
	if (build_ids_size)
		pw_add_feature(&r->out, PD_FEAT_BUILD_ID, build_ids, build_ids_size);
	free(build_ids);
	record_dsos_free(r->dsos);
	add_tracing_data(r);
	if (r->nr_samples) {
		u64 times[2] = { r->first_time, r->last_time };

		pw_add_feature(&r->out, PD_FEAT_SAMPLE_TIME, times, sizeof(times));
	}
	pw_add_host_features(&r->out, argc + 1, cmdline, wevs, (u32)r->nr_events);
	if (pw_close(&r->out))
		ret = 1;
	release(r, wevs, pfds, cmdline);
	if (!r->quiet && !ret) {	/* after a write error, the error says it */
		fprintf(stderr, "[ prof record: Woken up %llu times to write data ]\n",
			(unsigned long long)r->nr_wakeups);
		fprintf(stderr, "[ prof record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			(double)r->out.file_size / 1024.0 / 1024.0, r->output,
			(unsigned long long)r->nr_samples);
	}
	if (exec_errno)
		return 255;
	if (ret)
		return ret;
	if (WIFSIGNALED(status))
		killed_by = WTERMSIG(status);
	if (stop_signal)
		killed_by = stop_signal;
	if (killed_by) {
		signal(killed_by, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		raise(killed_by);
		return 128 + killed_by;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;

kill_child:
	close(go_fd);	/* the child reads EOF and exits */
	close(err_fd);
	waitpid(child, NULL, 0);
	release(r, wevs, pfds, cmdline);
	return 1;
}
