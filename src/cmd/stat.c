/*
 * stat.c - "prof stat [options] [--] CMD [ARGS...]": counts events while
 * CMD runs (or on CPUs, processes or threads until CMD ends or SIGINT)
 * and prints perf stat 6.1's report, then the command's times.
 *
 * Each run forks the command, which waits on a pipe while the counters
 * are opened: for a command alone, one per event on the child (inherit,
 * enable_on_exec, so they count from the exec and follow children); with
 * -a/-C one per event per CPU, with -p/-t one per event per thread, both
 * enabled just before the command starts.  The members of a {group} are
 * opened under their leader's counter, so the kernel schedules them
 * together; each is still read on its own.  Counters read value, time
 * enabled and time running; a count that ran part of the time is scaled
 * up by enabled/running, as perf does.  The time runs from the start
 * signal to wait4(), which also gives user/sys time and peak RSS.
 *
 * Events the kernel does not have here (ENOENT, EOPNOTSUPP, ...) are
 * "<not supported>", silently as in perf; an event an ordinary user may
 * not count in the kernel counts user space only and is named "...:u",
 * as perf falls back (silently too); a PMU that refuses the
 * guest/host exclusion bits (EINVAL) gets the event without them, as perf
 * retries; other failures are reported once and the rest still count.  With -r N the runs' counts are
 * averaged; a run that fails stops the repeat with a message.  SIGINT
 * and SIGTERM end counting of an attached target; while a command runs
 * they go to it (it shares the terminal) and prof waits for it.
 *
 * --compare 'cmd A' 'cmd B' ... runs each command (a shell string, run by
 * /bin/sh -c) --warmup times unmeasured, then N times each interleaved
 * (A B A B ...), so slow drifts of the machine hit all of them alike;
 * --baseline results.json takes the per-run values a "prof stat -j" saved
 * as the first command, against the runs just made
 * (analysis/stat_compare.h compares them).
 */
#include "cmds.h"
#include "../analysis/stat_compare.h"
#include "../analysis/stat_state.h"
#include "../output/stat_stdio.h"
#include "../util/child.h"
#include "../util/error.h"
#include "../util/opt.h"
#include "../util/outcheck.h"
#include "../util/sysctl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 4096

/*
 * perf stat 6.1's default events: the stalled cycles only where the CPU's
 * PMU lists them in sysfs.
 */
static void default_events(char *buf, size_t size)
{
	static const char pmu_events[] = "/sys/bus/event_source/devices/cpu/events/";
	char path[128];

	snprintf(buf, size, "task-clock,context-switches,cpu-migrations,page-faults,cycles");
	snprintf(path, sizeof(path), "%sstalled-cycles-frontend", pmu_events);
	if (!access(path, F_OK))
		snprintf(buf + strlen(buf), size - strlen(buf), ",stalled-cycles-frontend");
	snprintf(path, sizeof(path), "%sstalled-cycles-backend", pmu_events);
	if (!access(path, F_OK))
		snprintf(buf + strlen(buf), size - strlen(buf), ",stalled-cycles-backend");
	snprintf(buf + strlen(buf), size - strlen(buf), ",instructions,branches,branch-misses");
}

static const char *const stat_usage[] = {
	"prof stat [<options>] [<command>]",
	NULL,
};

/* Set by the signal handler, which takes no argument: process-wide, as
 * the signals are. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }
static void on_child(int sig) { }

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int opt_event(const struct opt *opt, const char *arg, int unset)
{
	struct ev_error err;

	if (ev_parse(opt->value, arg, &err)) {
		ev_error_print(arg, &err);
		return -1;
	}
	return 0;
}

/* Parses "0-3,6" into a new array; returns the count, or -1. */
static int parse_cpu_list(const char *list, int **out)
{
	int *cpus = xmalloc(MAX_CPUS * sizeof(int)), n = 0;
	const char *p = list;

	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo >= MAX_CPUS)
			goto bad;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi >= MAX_CPUS)
				goto bad;
			p = end;
		}
		for (long c = lo; c <= hi && n < MAX_CPUS; c++)
			cpus[n++] = (int)c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!n)
		goto bad;
	*out = cpus;
	return n;
bad:
	free(cpus);
	return -1;
}

static int online_cpus(int **out)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096];
	int n;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return error("cannot read /sys/devices/system/cpu/online");
	}
	fclose(f);
	n = parse_cpu_list(buf, out);
	return n < 0 ? error("cannot parse /sys/devices/system/cpu/online") : n;
}

static void add_tid(struct stat_ctx *s, int tid)
{
	s->tids = xrealloc(s->tids, (size_t)(s->nr_tids + 1) * sizeof(int));
	s->tids[s->nr_tids++] = tid;
}

/* -p: every thread of each pid; -t: the tids themselves. */
static int parse_tasks(struct stat_ctx *s, const char *list, int threads_of_pid)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end, path[64];
		long id = strtol(t, &end, 10);
		struct dirent *d;
		DIR *dir;

		if (end == t || *end || id <= 0) {
			error("bad %s '%s'", threads_of_pid ? "process id" : "thread id", t);
			free(copy);
			return -1;
		}
		if (!threads_of_pid) {
			snprintf(path, sizeof(path), "/proc/%ld", id);
			if (access(path, F_OK)) {
				free(copy);
				return error("cannot find thread %ld", id);
			}
			add_tid(s, (int)id);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task", id);
		dir = opendir(path);
		if (!dir) {
			free(copy);
			return error("cannot find process %ld: %s", id, strerror(errno));
		}
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				add_tid(s, atoi(d->d_name));
		closedir(dir);
	}
	free(copy);
	return 0;
}

static int nr_slots(const struct stat_ctx *s)
{
	return s->nr_cpus ? s->nr_cpus : s->nr_tids ? s->nr_tids : 1;
}

/*
 * perf's answer to EACCES for an ordinary user: an event that may count
 * the kernel counts user space only from then on, and its name gets "u"
 * (":u" when it has no modifiers yet).  Returns 1 when *attr changed.
 */
static int user_fallback(struct stat_ctx *s, int i, struct pd_attr *attr)
{
	struct stat_counter *c = &s->counters[i];
	const char *name = c->ev.name;
	char *renamed;
	size_t len = strlen(name);

	if (PD_ATTR_FLAG(attr, PD_ATTR_EXCLUDE_KERNEL) || PD_ATTR_FLAG(attr, PD_ATTR_EXCLUDE_USER) ||
	    sysctl_int("kernel/perf_event_paranoid", 2, 1) <= 1)
		return 0;
	renamed = xmalloc(len + 3);
	snprintf(renamed, len + 3, "%s%su", name, strchr(name, '/') || strchr(name, ':') ? "" : ":");
	free(s->events.events[i].name);
	s->events.events[i].name = c->ev.name = renamed;
	c->ev.attr.flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL | 1ULL << PD_ATTR_EXCLUDE_HV;
	attr->flags |= 1ULL << PD_ATTR_EXCLUDE_KERNEL | 1ULL << PD_ATTR_EXCLUDE_HV;
	return 1;
}

/* Opens every counter for this run; child is the command or -1. */
static void open_counters(struct stat_ctx *s, pid_t child)
{
	const u64 guest_host = 1ULL << PD_ATTR_EXCLUDE_GUEST | 1ULL << PD_ATTR_EXCLUDE_HOST;
	int slots = nr_slots(s);

	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];
		struct pd_attr attr = c->ev.attr;
		int member = c->ev.leader != i, opened = 0;

		if (!c->fds)
			c->fds = xmalloc((size_t)slots * sizeof(int));
		for (int k = 0; k < slots; k++)
			c->fds[k] = -1;
		if (!c->supported)
			continue;
		attr.size = 128;	/* PERF_ATTR_SIZE_VER7, as perf 6.1 */
		attr.sample_period = 0;
		attr.sample_type = PD_SAMPLE_IDENTIFIER;
		attr.read_format = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING;
		attr.flags &= ~(1ULL << PD_ATTR_FREQ);
		if (!member)	/* members follow their leader */
			attr.flags |= 1ULL << PD_ATTR_DISABLED;
		if (!s->no_inherit)
			attr.flags |= 1ULL << PD_ATTR_INHERIT;
		if (!s->nr_cpus && !s->nr_tids && !member)
			attr.flags |= 1ULL << PD_ATTR_ENABLE_ON_EXEC;
		for (int k = 0; k < slots; k++) {
			pid_t pid = s->nr_cpus ? -1 : s->nr_tids ? s->tids[k] : child;
			int cpu = s->nr_cpus ? s->cpus[k] : -1;
			int group_fd = member ? s->counters[c->ev.leader].fds[k] : -1;
			int fd;

			if (member && group_fd < 0)
				break;	/* its leader did not open here */
			fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd,
					  PERF_FLAG_FD_CLOEXEC);

			if (fd >= 0) {
				c->fds[k] = fd;
				opened = 1;
				continue;
			}
			if ((errno == EACCES || errno == EPERM) && user_fallback(s, i, &attr)) {
				k--;
				continue;
			}
			if (errno == EINVAL && (attr.flags & guest_host)) {
				attr.flags &= ~guest_host;	/* a PMU without them: as perf */
				k--;
				continue;
			}
			if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV ||
			    errno == EINVAL || errno == ENOSYS || errno == ENXIO)
				break;	/* "<not supported>", as perf says nothing */
			if (errno == ESRCH && s->nr_tids)
				continue;	/* the thread is gone */
			if (!c->reported) {
				error("cannot open event '%s': %s", c->ev.name, strerror(errno));
				c->reported = 1;
			}
			break;
		}
		if (!opened)
			c->supported = 0;
	}
}

static void close_counters(struct stat_ctx *s)
{
	for (int i = 0; i < s->nr_counters; i++)
		for (int k = 0; s->counters[i].fds && k < nr_slots(s); k++)
			if (s->counters[i].fds[k] >= 0) {
				close(s->counters[i].fds[k]);
				s->counters[i].fds[k] = -1;
			}
}

static void ioctl_all(struct stat_ctx *s, unsigned long request)
{
	for (int i = 0; i < s->nr_counters; i++)
		for (int k = 0; s->counters[i].fds && k < nr_slots(s); k++)
			if (s->counters[i].fds[k] >= 0)
				ioctl(s->counters[i].fds[k], request, 0);
}

/* Sums value, enabled and running of c over its fds into v. */
static void read_counter(const struct stat_ctx *s, const struct stat_counter *c, u64 v[3])
{
	v[0] = v[1] = v[2] = 0;
	for (int k = 0; k < nr_slots(s); k++) {
		u64 buf[3];

		if (c->fds[k] < 0 || read(c->fds[k], buf, sizeof(buf)) != sizeof(buf))
			continue;
		v[0] += buf[0];
		v[1] += buf[1];
		v[2] += buf[2];
	}
}

/* -I: prints each counter's change since the last interval. */
static void print_interval(struct stat_ctx *s, double t0)
{
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];
		u64 v[3], d[3];

		if (!c->supported)
			continue;
		read_counter(s, c, v);
		for (int k = 0; k < 3; k++) {
			d[k] = v[k] - c->last[k];
			c->last[k] = v[k];
		}
		stat_counter_set(c, d);
	}
	stat_print_interval(s, (now_ns() - t0) / 1e9);
}

/* Runs a --pre/--post shell command; returns its status. */
static int run_hook(const char *cmd, const char *what)
{
	int status = system(cmd);

	if (status == -1)
		return error("cannot run the %s command: %s", what, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status))
		return error("the %s command '%s' failed with status %d", what, cmd,
			     WEXITSTATUS(status));
	if (!WIFEXITED(status))
		return error("the %s command '%s' was killed by signal %d", what, cmd,
			     WTERMSIG(status));
	return 0;
}

/*
 * Waits until the command ends (or a stop signal when there is none),
 * printing intervals on the way.  Returns 0 with *status and *ru set, or
 * -1 when nothing was waited for.  *last says whether the end came while
 * it slept until the next interval: perf's poll() is cut short by the
 * SIGCHLD (or SIGINT) then and prints the interval so far, but when the
 * end comes while it prints one (or before its first sleep), its signal
 * handler ends the loop and no interval follows.
 */
static int wait_run(struct stat_ctx *s, pid_t child, double t0, const sigset_t *wait_mask,
		    int *status, struct rusage *ru, bool *last)
{
	double next = t0 + (double)s->interval_ms * 1e6;
	bool slept = false;

	for (;;) {
		struct timespec ts, *tsp = NULL;
		sigset_t pending;

		if (child > 0) {
			pid_t got = wait4(child, status, WNOHANG, ru);

			if (got == child) {
				*last = slept;
				return 0;
			}
		}
		if (child <= 0 && stop_signal) {
			*last = slept;
			return -1;
		}
		if (s->interval_ms) {
			double left = next - now_ns();

			if (left <= 0) {
				/* the next interval starts when this one is
				   printed, as perf's poll timeout does: a late
				   wake-up never makes an empty catch-up interval */
				print_interval(s, t0);
				next = now_ns() + (double)s->interval_ms * 1e6;
				slept = false;
				continue;
			}
			ts.tv_sec = (time_t)(left / 1e9);
			ts.tv_nsec = (long)(left - (double)ts.tv_sec * 1e9);
			tsp = &ts;
		}
		/* a signal already pending came before this sleep */
		sigpending(&pending);
		slept = !sigismember(&pending, SIGCHLD) && !sigismember(&pending, SIGINT) &&
			!sigismember(&pending, SIGTERM);
		ppoll(NULL, 0, tsp, wait_mask);
	}
}

/* Runs argv once, counting; fills s->times[s->runs_done] and the counters'
 * runs; returns the command's exit status (or 255 when it did not run). */
static int stat_run_once(struct stat_ctx *s, char **argv)
{
	struct stat_times *t;
	struct rusage ru = { 0 };
	sigset_t block, orig, wait_mask;
	int go_fd = -1, err_fd = -1, exec_errno = 0, status = 0, waited;
	bool last = false;
	pid_t child = -1;
	double t0, t1;

	if (s->pre_cmd && run_hook(s->pre_cmd, "--pre"))
		return 255;
	if (s->sync)
		sync();
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	wait_mask = orig;
	sigdelset(&wait_mask, SIGCHLD);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	if (argv) {
		child = child_start(argv, &orig, NULL, &go_fd, &err_fd);
		if (child < 0) {
			sigprocmask(SIG_SETMASK, &orig, NULL);
			return 255;
		}
	}
	if (!s->null_run)
		open_counters(s, child);
	for (int i = 0; i < s->nr_counters; i++)
		memset(s->counters[i].last, 0, sizeof(s->counters[i].last));
	t0 = now_ns();
	if (s->nr_cpus || s->nr_tids)
		ioctl_all(s, PERF_EVENT_IOC_ENABLE);
	if (argv) {
		if (write(go_fd, "g", 1) != 1)
			warning("cannot start the command: %s", strerror(errno));
		close(go_fd);
		if (read(err_fd, &exec_errno, sizeof(exec_errno)) != sizeof(exec_errno))
			exec_errno = 0;
		close(err_fd);
	}
	waited = wait_run(s, child, t0, &wait_mask, &status, &ru, &last);
	t1 = now_ns();
	if (s->nr_cpus || s->nr_tids)
		ioctl_all(s, PERF_EVENT_IOC_DISABLE);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (exec_errno) {
		close_counters(s);
		error("cannot run '%s': %s", argv[0], strerror(exec_errno));
		return 255;
	}
	if (s->interval_ms && last)
		print_interval(s, t0);	/* the last, partial interval */
	for (int i = 0; i < s->nr_counters; i++) {
		struct stat_counter *c = &s->counters[i];
		u64 v[3];

		if (!c->supported)
			continue;
		read_counter(s, c, v);
		stat_counter_set(c, v);
		run_stats_add(&c->stats, c->val);
		c->runs = xrealloc(c->runs, (size_t)(s->runs_done + 1) * sizeof(double));
		c->runs[s->runs_done] = c->val;
	}
	close_counters(s);
	run_stats_add(&s->walltime, t1 - t0);
	s->times = xrealloc(s->times, (size_t)(s->runs_done + 1) * sizeof(*s->times));
	t = &s->times[s->runs_done++];
	t->elapsed = (t1 - t0) / 1e9;
	t->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	t->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	t->max_rss_kb = (double)ru.ru_maxrss;
	s->ru_utime = ru.ru_utime;
	s->ru_stime = ru.ru_stime;
	if (s->post_cmd && run_hook(s->post_cmd, "--post"))
		return 255;
	if (waited || !argv)
		return 0;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "%s: %s\n", argv[0], strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* --compare: runs each command of s->argv interleaved and compares them. */
static int compare_commands(struct stat_ctx *s)
{
	struct comparison c;
	int n = s->argc, status = 0;
	char how[128];

	stat_setup_counters(s);
	for (int w = 0; w < s->warmup; w++) {
		for (int k = 0; k < n; k++) {
			char *argv[] = { "/bin/sh", "-c", s->argv[k], NULL };

			status = stat_run_once(s, argv);
			if (status) {
				error("warm-up run of [%d] '%s' exited with status %d: stopping",
				      k + 1, s->argv[k], status);
				return status;
			}
		}
		stat_reset_results(s);
	}
	stat_reset_results(s);
	comparison_init(&c, n, (const char **)s->argv, s);
	for (int r = 0; r < s->repeat; r++) {
		for (int k = 0; k < n; k++) {
			char *argv[] = { "/bin/sh", "-c", s->argv[k], NULL };

			status = stat_run_once(s, argv);
			if (status) {
				error("run %d of [%d] '%s' exited with status %d: stopping", r + 1,
				      k + 1, s->argv[k], status);
				comparison_free(&c);
				return status;
			}
			comparison_take_run(&c, s, s->runs_done - 1, k);
		}
	}
	snprintf(how, sizeof(how), "%d runs each, interleaved, after %d warm-up run%s of each",
		 s->repeat, s->warmup, s->warmup == 1 ? "" : "s");
	stat_print_comparison(s->out, &c, how);
	comparison_free(&c);
	return 0;
}

/* --baseline: compares the runs just made with a saved -j output. */
static int compare_baseline(struct stat_ctx *s)
{
	struct comparison c;
	const char *labels[2];
	char label[256], how[300], cmdline[1024] = "";
	FILE *f = fopen(s->baseline, "re");
	int found;

	if (!f)
		return error("cannot open %s: %s", s->baseline, strerror(errno));
	snprintf(label, sizeof(label), "the runs saved in %s", s->baseline);
	labels[0] = label;
	for (int i = 0; s->argv && i < s->argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), "%s%s",
			 i ? " " : "", s->argv[i]);
	labels[1] = cmdline[0] ? cmdline : "this run";
	comparison_init(&c, 2, labels, s);
	found = comparison_read_baseline(&c, f);
	fclose(f);
	if (!found) {
		comparison_free(&c);
		return error("%s holds no per-run values (write it with prof stat -j -o FILE)",
			     s->baseline);
	}
	for (int run = 0; run < s->runs_done; run++)
		comparison_take_run(&c, s, run, 1);
	snprintf(how, sizeof(how), "%d runs now against the saved ones", s->runs_done);
	stat_print_comparison(s->json ? stderr : s->out, &c, how);
	comparison_free(&c);
	return 0;
}

static FILE *open_output(struct stat_ctx *s)
{
	FILE *f;
	time_t now = time(NULL);

	if (!s->output_name)
		return stderr;
	f = output_open(s->output_name, s->append ? "a" : "w");
	if (!f)
		die("cannot open %s: %s", s->output_name, strerror(errno));
	fprintf(f, "# started on %s\n", ctime(&now));
	return f;
}

/* Frees what s holds and closes the report's output.  Returns 0, or -1
 * when some of the report was not written (after saying so, when it can:
 * the lost report on stderr cannot be followed by a message there). */
static int release(struct stat_ctx *s)
{
	for (int i = 0; i < s->nr_counters; i++) {
		free(s->counters[i].fds);
		free(s->counters[i].runs);
	}
	free(s->counters);
	ev_list_free(&s->events);
	free(s->cpus);
	free(s->tids);
	free(s->times);
	if (s->out && s->out != stderr)
		return output_close(s->out, s->output_name);
	if (s->out && (fflush(stderr) || ferror(stderr)))
		return output_error("standard error", 0);
	return 0;
}

/* The exit status of a run that ends with status: 1 instead of 0 when the
 * report was lost. */
static int finish(struct stat_ctx *s, int status)
{
	if (release(s) && !status)
		status = 1;
	return status;
}

/* Parses the options into s and checks them as perf stat 6.1 does,
 * -C's CPU list included; a usage error exits. */
static void parse_options(struct stat_ctx *s, int argc, char **argv)
{
	struct opt opts[] = {
		OPT_CALLBACK('e', "event", &s->events, "event",
			     "events to count, in perf's syntax (README: Event syntax)", opt_event),
		OPT_BOOLEAN('a', "all-cpus", &s->system_wide, "count on every online CPU, all tasks"),
		OPT_STRING('C', "cpu", &s->cpu_list, "cpu", "count on these CPUs only (0-3,6), all tasks"),
		OPT_STRING('p', "pid", &s->pid_list, "pid", "count these running processes (all their threads)"),
		OPT_STRING('t', "tid", &s->tid_list, "tid", "count these running threads"),
		OPT_INTEGER('r', "repeat", &s->repeat, "run the command n times and show means and spreads"),
		OPT_BOOLEAN('n', "null", &s->null_run, "count nothing, only time the command"),
		OPT_BOOLEAN(0, "sync", &s->sync, "sync() the disks before each run"),
		OPT_STRING(0, "pre", &s->pre_cmd, "command", "shell command to run before each run"),
		OPT_STRING(0, "post", &s->post_cmd, "command", "shell command to run after each run"),
		OPT_STRING('x', "field-separator", &s->csv_sep, "separator",
			   "CSV output with this field separator"),
		OPT_BOOLEAN('j', "json-output", &s->json, "JSON output, one object a line"),
		OPT_STRING('o', "output", &s->output_name, "file", "write the report to file instead of stderr"),
		OPT_BOOLEAN(0, "append", &s->append, "append to the -o file"),
		OPT_INTEGER('I', "interval-print", &s->interval_ms,
			    "print the counts every n ms (n >= 10)"),
		OPT_BOOLEAN('B', "big-num", &s->big_num, "thousands' separators in counts (the locale's; default on)"),
		OPT_BOOLEAN('i', "no-inherit", &s->no_inherit, "do not count the command's children"),
		OPT_BOOLEAN('q', "quiet", &s->quiet, "print no counts, only errors"),
		OPT_GROUP("Comparing commands"),
		OPT_BOOLEAN(0, "compare", &s->compare,
			    "run each argument as a shell command, interleaved, and compare them"),
		OPT_INTEGER(0, "warmup", &s->warmup, "runs of each command before measuring (--compare)"),
		OPT_STRING(0, "baseline", &s->baseline, "file",
			   "compare with the runs saved by prof stat -j -o file"),
		OPT_END(),
	};

	s->repeat = 1;
	s->big_num = 1;
	s->argc = opt_parse(argc, argv, opts, stat_usage, 1);
	s->argv = s->argc ? argv : NULL;
	if (s->repeat < 1 || s->repeat > 100000)
		opt_usage_error(stat_usage, opts, "repeat must be between 1 and 100000, not %d",
				s->repeat);
	if (s->interval_ms && s->interval_ms < 10)
		opt_usage_error(stat_usage, opts, "print interval must be >= 10ms");
	if (s->interval_ms && s->repeat > 1)
		opt_usage_error(stat_usage, opts, "-I cannot be used with -r");
	if (s->csv_sep && s->json)
		opt_usage_error(stat_usage, opts, "-x and -j cannot be used together");
	if (s->warmup < 0)
		opt_usage_error(stat_usage, opts, "--warmup must not be negative");
	if ((s->compare || s->baseline) && (s->system_wide || s->cpu_list || s->pid_list ||
					    s->tid_list || s->interval_ms))
		opt_usage_error(stat_usage, opts,
				"--compare and --baseline time commands: no -a, -C, -p, -t or -I");
	if (s->compare && s->argc < 2)
		opt_usage_error(stat_usage, opts, "--compare needs two or more commands");
	if (s->pid_list && s->tid_list)
		opt_usage_error(stat_usage, opts, "-p and -t cannot be used together");
	if (!s->argc && !s->system_wide && !s->cpu_list && !s->pid_list && !s->tid_list)
		s->system_wide = 1;	/* as perf: the whole machine until SIGINT */
	if (s->csv_sep && !strcmp(s->csv_sep, "\\t"))
		s->csv_sep = "\t";
	if (s->quiet)
		error_set_quiet(1);
	if (s->cpu_list) {
		s->nr_cpus = parse_cpu_list(s->cpu_list, &s->cpus);
		if (s->nr_cpus < 0)
			opt_usage_error(stat_usage, opts, "bad CPU list '%s'", s->cpu_list);
	}
}

/* What the runs need: the default events, the CPUs of -a, the threads of
 * -p/-t, the counters, the signal handlers and the report's output.
 * Returns 0, or -1 after an error. */
static int setup(struct stat_ctx *s)
{
	struct sigaction sa = { 0 };

	if (!s->null_run && !s->events.nr) {
		struct ev_error err;
		char defaults[256];

		default_events(defaults, sizeof(defaults));
		if (ev_parse(&s->events, defaults, &err))
			die("cannot parse the default events: %s", err.msg);
	}
	if (!s->cpu_list && s->system_wide) {
		s->nr_cpus = online_cpus(&s->cpus);
		if (s->nr_cpus < 0)
			return -1;
	}
	if ((s->pid_list && parse_tasks(s, s->pid_list, 1)) ||
	    (s->tid_list && parse_tasks(s, s->tid_list, 0)))
		return -1;
	stat_setup_counters(s);
	s->interval_ns = (double)s->interval_ms * 1e6;
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	s->out = open_output(s);
	return 0;
}

/* Runs the command -r times, fewer after SIGINT.  Returns the last run's
 * exit status; *complete says whether the runs are to be reported (not
 * when the command did not run, or when one of several runs failed). */
static int run_repeats(struct stat_ctx *s, int *complete)
{
	int status = 0;

	*complete = 0;
	for (int r = 0; r < s->repeat; r++) {
		status = stat_run_once(s, s->argv);
		if (status == 255 && s->runs_done == r)	/* it did not run */
			return 255;
		if (stop_signal)	/* SIGINT: report the runs made so far */
			break;
		if (status && s->repeat > 1) {
			error("run %d of %d: '%s' exited with status %d: stopping", r + 1,
			      s->repeat, s->argv[0], status);
			return status;
		}
	}
	*complete = 1;
	return status;
}

/* The report of the runs: the counts and times (not with -q or -I), then
 * the --baseline comparison.  Returns status, or the comparison's when
 * status is 0. */
static int report(struct stat_ctx *s, int status)
{
	stat_use_means(s);
	if (!s->quiet && !s->interval_ms) {
		stat_print_counters(s);
		stat_print_times(s);
	}
	if (s->baseline) {
		int ret = compare_baseline(s);

		if (ret && !status)
			status = ret;
	}
	return status;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_ctx ctx = { 0 };
	struct stat_ctx *s = &ctx;
	int status, complete;

	setlocale(LC_NUMERIC, "");
	parse_options(s, argc, argv);
	if (setup(s)) {
		release(s);
		return 1;
	}
	if (s->compare)
		return finish(s, compare_commands(s));
	status = run_repeats(s, &complete);
	if (complete)
		status = report(s, status);
	return finish(s, status);
}
