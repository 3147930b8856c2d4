/*
 * counters.c - prof record's counters and their rings (see counters.h).
 *
 * Invariant: events[i].ids holds the ids of the counters opened so far, in
 * slot order; nr_task_slots and nr_cpus are fixed before the first open,
 * so the fd arrays are indexed the same way from then on.
 */
#include "counters.h"
#include "synth.h"
#include "../util/error.h"
#include "../util/sysctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int counters_parse_cpus(struct counters *c, const char *list)
{
	const char *p = list;

	c->nr_cpus = 0;
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
		for (long cpu = lo; cpu <= hi; cpu++) {
			if (c->nr_cpus == COUNTERS_MAX_CPUS)
				return -1;
			c->cpus[c->nr_cpus++] = (int)cpu;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return c->nr_cpus ? 0 : -1;
}

int counters_read_cpus(struct counters *c, const char *cpu_list)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char buf[4096];
	int online[COUNTERS_MAX_CPUS], nr_online;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return error("cannot read /sys/devices/system/cpu/online");
	}
	fclose(f);
	if (counters_parse_cpus(c, buf))
		return error("cannot parse /sys/devices/system/cpu/online");
	if (!cpu_list || c->target != TARGET_CPUS)
		return 0;
	nr_online = c->nr_cpus;
	memcpy(online, c->cpus, sizeof(int) * (size_t)nr_online);
	counters_parse_cpus(c, cpu_list);	/* checked when the options were read */
	for (int i = 0; i < c->nr_cpus; i++) {
		int found = 0;

		for (int j = 0; j < nr_online && !found; j++)
			found = online[j] == c->cpus[i];
		if (!found)
			return error("cpu %d is not online (online: %s)", c->cpus[i],
				     strtok(buf, "\n"));
	}
	return 0;
}

int counters_parse_ids(const char *list, pid_t **ids, int *nr)
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

int counters_read_threads(struct counters *c, const char *pid_list, const char *tid_list)
{
	pid_t *ids = NULL;
	int nr = 0;

	c->from_pids = pid_list != NULL;
	counters_parse_ids(pid_list ? pid_list : tid_list, &ids, &nr);
	for (int i = 0; i < nr; i++) {
		char path[64];

		if (pid_list) {
			if (synth_process_threads(ids[i], &c->threads, &c->nr_threads,
						  &c->cap_threads) < 0) {
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
		if (c->nr_threads == c->cap_threads) {
			c->cap_threads = c->cap_threads ? c->cap_threads * 2 : 16;
			c->threads = xrealloc(c->threads, (size_t)c->cap_threads * sizeof(pid_t));
		}
		c->threads[c->nr_threads++] = ids[i];
	}
	free(ids);
	return 0;
}

static int sys_perf_event_open(struct pd_attr *attr, pid_t pid, int cpu, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* The task slot t's pid for perf_event_open. */
static pid_t slot_pid(const struct counters *c, pid_t child, int t)
{
	if (c->target == TARGET_TASKS)
		return c->threads[t];
	return c->target == TARGET_CPUS ? -1 : child;
}

/*
 * Opens ev on every CPU for every target.  cycles on a machine without it
 * becomes cpu-clock, with a note when the user asked for it.  When kernel
 * samples are not allowed, an event without :k falls back to user space
 * only (and is named "...:u", as perf names it), with a note.  With -p, a
 * thread that has exited meanwhile is skipped, as perf skips it.
 */
static int open_event(struct counters *c, struct record_event *ev, pid_t child, int is_default)
{
	int idx = (int)(ev - c->events);
	const char *mods = strchr(ev->spec, ':');
	int user_only = 0, to_cpu_clock = 0, opened = 0, slots = c->nr_cpus * c->nr_task_slots;

	ev->fds = xmalloc((size_t)slots * sizeof(int));
	ev->ids = xcalloc((size_t)slots, sizeof(u64));
	for (int i = 0; i < slots; i++)
		ev->fds[i] = -1;
	for (int i = 0; i < slots; i++) {
		int cpu = i / c->nr_task_slots, t = i % c->nr_task_slots;
		int group_fd = ev->leader != idx ? c->events[ev->leader].fds[i] : -1;
		int fd;

		if (ev->leader != idx && group_fd < 0)
			continue;	/* its leader is not open there */
		fd = sys_perf_event_open(&ev->attr, slot_pid(c, child, t), c->cpus[cpu], group_fd);

		if (fd < 0 && (errno == EACCES || errno == EPERM) && !opened &&
		    c->target != TARGET_CPUS &&
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
				     ev->spec, c->target == TARGET_CPUS ? " system-wide" :
				     c->target == TARGET_TASKS ? " on another process" : "",
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
		if (fd < 0 && errno == ESRCH && c->from_pids)
			continue;	/* a thread of -p has exited */
		if (fd < 0 && errno == ESRCH)
			return error("thread %d does not exist", (int)slot_pid(c, child, t));
		if (fd < 0 && errno == EMFILE)
			return error("cannot open event '%s': too many open files "
				     "(raise the limit with ulimit -n)", ev->spec);
		/* perf's words when the PMU refuses branch sampling */
		if (fd < 0 && errno == EOPNOTSUPP && (ev->attr.sample_type & PD_SAMPLE_BRANCH_STACK))
			return error("%s: PMU Hardware or event type doesn't support branch stack sampling",
				     to_cpu_clock ? "cpu-clock" : ev->spec);
		if (fd < 0) {
			if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
				return error("event '%s' is not supported on this machine", ev->spec);
			return error("cannot open event '%s' on CPU %d: %s", ev->spec,
				     c->cpus[cpu], strerror(errno));
		}
		ev->fds[i] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[ev->nr_ids++]))
			return error("cannot get the id of event '%s': %s", ev->spec, strerror(errno));
		/* perf's words, with the errno it got */
		if (ev->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter))
			return error("failed to set filter \"%s\" on event %s with %d (%s)",
				     ev->filter, ev->spec, errno, strerror(errno));
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

void counters_raise_nofile(const struct counters *c)
{
	u64 need = (u64)c->nr_events * (u64)c->nr_cpus * (u64)c->nr_task_slots + 64;
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

int counters_open(struct counters *c, pid_t child, int first_is_default)
{
	for (int i = 0; i < c->nr_events; i++)
		if (open_event(c, &c->events[i], child, first_is_default && i == 0))
			return -1;
	return 0;
}

int counters_map_rings(struct counters *c)
{
	long page = sysconf(_SC_PAGESIZE);

	c->rings = xcalloc((size_t)c->nr_cpus, sizeof(*c->rings));
	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct ring *ring = &c->rings[cpu];

		ring->fd = -1;
		for (int i = 0; i < c->nr_events; i++) {
			for (int t = 0; t < c->nr_task_slots; t++) {
				int fd = c->events[i].fds[cpu * c->nr_task_slots + t];

				if (fd < 0)
					continue;
				if (ring->fd < 0) {
					if (ring_map(ring, fd, c->mmap_pages, page))
						return error("cannot map the ring buffer of CPU %d: %s%s",
							     c->cpus[cpu], strerror(errno),
							     errno == EPERM ? " (lower -m or raise "
							     "kernel.perf_event_mlock_kb)" : "");
				} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd)) {
					return error("cannot share the ring buffer of CPU %d: %s",
						     c->cpus[cpu], strerror(errno));
				}
			}
		}
	}
	return 0;
}

/* Sends request to every open counter. */
static void counters_ioctl(const struct counters *c, unsigned long request)
{
	for (int i = 0; i < c->nr_events; i++)
		for (int s = 0; s < c->nr_cpus * c->nr_task_slots; s++)
			if (c->events[i].fds[s] >= 0)
				ioctl(c->events[i].fds[s], request, 0);
}

void counters_enable(const struct counters *c)
{
	counters_ioctl(c, PERF_EVENT_IOC_ENABLE);
}

void counters_disable(const struct counters *c)
{
	counters_ioctl(c, PERF_EVENT_IOC_DISABLE);
}

/* Reads fd's value, id and lost count into v: a group read (nr, then
 * {value, id, lost} per event of the group) gives the entry of fd's own
 * id.  Returns 0, or -1. */
static int read_lost(const struct record_event *ev, int fd, u64 *v)
{
	u64 buf[1 + 3 * (COUNTERS_MAX_EVENTS + 1)], id;
	ssize_t n;

	if (!(ev->attr.read_format & PD_FORMAT_GROUP))
		return read(fd, v, 3 * sizeof(u64)) == 3 * sizeof(u64) ? 0 : -1;
	n = read(fd, buf, sizeof(buf));
	if (n < (ssize_t)sizeof(u64) || ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return -1;
	for (u64 k = 0; k < buf[0] && (ssize_t)((1 + 3 * (k + 1)) * sizeof(u64)) <= n; k++) {
		if (buf[1 + 3 * k + 1] == id) {
			memcpy(v, &buf[1 + 3 * k], 3 * sizeof(u64));
			return 0;
		}
	}
	return -1;
}

void counters_write_lost(const struct counters *c, struct record_sink *s)
{
	for (int i = 0; i < c->nr_events; i++) {
		const struct record_event *ev = &c->events[i];
		u64 type = ev->attr.sample_type;

		if (!(ev->attr.read_format & PD_FORMAT_LOST))
			continue;
		for (int slot = 0; slot < c->nr_cpus * c->nr_task_slots; slot++) {
			u64 v[3], rec[8] = { 0 };	/* value, id, lost */
			struct pd_header h = { PD_REC_LOST_SAMPLES, 0, 0 };
			int n = 2 + 2;	/* header, lost, pid/tid, time */

			if (ev->fds[slot] < 0 || read_lost(ev, ev->fds[slot], v) || !v[2])
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
			sink_put(s, rec, h.size);
			s->nr_lost_samples += v[2];
		}
	}
}

void counters_close(struct counters *c)
{
	long page = sysconf(_SC_PAGESIZE);

	for (int cpu = 0; c->rings && cpu < c->nr_cpus; cpu++)
		ring_unmap(&c->rings[cpu], c->mmap_pages, page);
	for (int i = 0; i < c->nr_events; i++) {
		for (int s = 0; c->events[i].fds && s < c->nr_cpus * c->nr_task_slots; s++)
			if (c->events[i].fds[s] >= 0)
				close(c->events[i].fds[s]);
		free(c->events[i].fds);
		free(c->events[i].ids);
		free(c->events[i].owned);
		free(c->events[i].filter);
	}
	free(c->threads);
	free(c->rings);
}
