/*
 * synth.c - records for the state before recording, from /proc
 * (see synth.h for what is written and why).
 *
 * Invariants: s->buf holds the last file read, NUL-terminated, and is only
 * grown (doubling) when a file fills it; records are built in a stack
 * buffer large enough for the longest path (PATH_MAX) plus the largest
 * trailer, so names are cut at PATH_MAX - 1 bytes as perf cuts them.
 */
#include "synth.h"
#include "../format/perf_data.h"
#include "../util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SYNTH_PATH_MAX	4096
#define TRAILER_MAX	64
#define COMM_LEN	16	/* perf's comm field, NUL included */

/* A record under construction. */
struct rec {
	u8 b[8 + 72 + SYNTH_PATH_MAX + TRAILER_MAX];
	size_t len;
};

static void put32(struct rec *r, u32 v) { memcpy(r->b + r->len, &v, 4); r->len += 4; }
static void put64(struct rec *r, u64 v) { memcpy(r->b + r->len, &v, 8); r->len += 8; }

/* Appends s NUL-padded to a multiple of 8. */
static void put_name(struct rec *r, const char *s, size_t n)
{
	size_t padded = (n + 1 + 7) & ~(size_t)7;

	memcpy(r->b + r->len, s, n);
	memset(r->b + r->len + n, 0, padded - n);
	r->len += padded;
}

static void begin(struct rec *r, u32 type, u16 misc)
{
	struct pd_header h = { type, misc, 0 };

	memcpy(r->b, &h, sizeof(h));
	r->len = sizeof(h);
}

/* Adds the zero trailer, sets the size and hands the record on. */
static void finish(struct synth *s, struct rec *r)
{
	u16 size;

	memset(r->b + r->len, 0, s->trailer_size);
	r->len += s->trailer_size;
	size = (u16)r->len;
	memcpy(r->b + 6, &size, 2);
	s->emit(s->arg, r->b, r->len);
}

/* Reads path whole into s->buf; returns its length, or -1. */
static ssize_t read_whole(struct synth *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -1;
	if (!s->cap) {
		s->cap = 64 * 1024;
		s->buf = xmalloc(s->cap);
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= s->cap) {
			s->cap *= 2;
			s->buf = xrealloc(s->buf, s->cap);
		}
		n = read(fd, s->buf + len, s->cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	s->buf[len] = '\0';
	return (ssize_t)len;
}

void synth_free(struct synth *s)
{
	free(s->buf);
	s->buf = NULL;
	s->cap = 0;
}

/* ---- the kernel ------------------------------------------------------ */

/* The addresses of _text and _etext from /proc/kallsyms, read in chunks
 * until both are found. */
static void kernel_text(const struct synth *s, u64 *text, u64 *etext)
{
	char chunk[65536 + 1], path[SYNTH_PATH_MAX];
	size_t have = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", s->root ? s->root : "");
	fd = open(path, O_RDONLY | O_CLOEXEC);

	*text = *etext = 0;
	if (fd < 0)
		return;
	while (!*text || !*etext) {
		ssize_t n = read(fd, chunk + have, sizeof(chunk) - 1 - have);
		char *line = chunk, *nl;

		if (n <= 0)
			break;
		have += (size_t)n;
		chunk[have] = '\0';
		while ((nl = strchr(line, '\n'))) {
			char *sym = strchr(line, ' ');

			*nl = '\0';
			/* "ffffffff81000000 T _text" */
			if (sym && sym[1] && sym[2] == ' ') {
				sym += 3;
				if (!strcmp(sym, "_text"))
					*text = strtoull(line, NULL, 16);
				else if (!strcmp(sym, "_etext"))
					*etext = strtoull(line, NULL, 16);
			}
			line = nl + 1;
		}
		have -= (size_t)(line - chunk);
		memmove(chunk, line, have);
	}
	close(fd);
}

/* A module of /proc/modules. */
struct module {
	char name[64];
	unsigned long long addr, size;
	char *path;		/* its .ko file, or NULL */
};

/* Whether file is NAME.ko[.xz|.zst|.gz]; '-' and '_' match each other,
 * as module names and file names differ in them. */
static int module_file(const char *file, const char *name)
{
	for (; *file && *name; file++, name++)
		if (*file != *name && !((*file == '-' || *file == '_') && (*name == '-' || *name == '_')))
			return 0;
	return !*name && !strncmp(file, ".ko", 3);
}

/* One walk of dir (recursively) gives each module its file. */
static void find_modules(const char *dir, struct module *mods, int nr, int depth)
{
	DIR *d = depth < 8 ? opendir(dir) : NULL;
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[SYNTH_PATH_MAX];

		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (de->d_type == DT_DIR) {
			find_modules(path, mods, nr, depth + 1);
			continue;
		}
		if (!strstr(de->d_name, ".ko"))
			continue;
		for (int i = 0; i < nr; i++)
			if (!mods[i].path && module_file(de->d_name, mods[i].name))
				mods[i].path = xstrdup(path);
	}
	closedir(d);
}

static int by_address(const void *a, const void *b)
{
	const struct module *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* An MMAP with kernel misc for pid -1: the kernel or a module. */
static void emit_kernel_mmap(struct synth *s, u64 start, u64 len, u64 pgoff, const char *name)
{
	struct rec r;
	size_t n = strlen(name);

	begin(&r, PD_REC_MMAP, PD_MISC_KERNEL);
	put32(&r, (u32)-1);
	put32(&r, 0);
	put64(&r, start);
	put64(&r, len);
	put64(&r, pgoff);
	put_name(&r, name, n < SYNTH_PATH_MAX ? n : SYNTH_PATH_MAX - 1);
	finish(s, &r);
}

void synth_kernel_maps(struct synth *s)
{
	char path[SYNTH_PATH_MAX], *line, *next;
	struct module *mods = NULL;
	int nr = 0, cap = 0;
	struct utsname u;
	u64 text, etext;

	kernel_text(s, &text, &etext);
	emit_kernel_mmap(s, text, etext > text ? etext - text : 0, text, "[kernel.kallsyms]_text");

	/* "name size refcount deps state 0xaddr", one module a line */
	snprintf(path, sizeof(path), "%s/proc/modules", s->root ? s->root : "");
	if (read_whole(s, path) <= 0 || uname(&u))
		return;
	for (line = s->buf; *line; line = next) {
		struct module m = { 0 };

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", m.name, &m.size, &m.addr) != 3)
			continue;
		if (nr == cap) {
			cap = cap ? cap * 2 : 64;
			mods = xrealloc(mods, (size_t)cap * sizeof(*mods));
		}
		mods[nr++] = m;
	}
	snprintf(path, sizeof(path), "%s/lib/modules/%s", s->root ? s->root : "", u.release);
	if (nr)
		find_modules(path, mods, nr, 0);
	qsort(mods, (size_t)nr, sizeof(*mods), by_address);	/* perf's map order */
	for (int i = 0; i < nr; i++) {
		if (!mods[i].path)
			snprintf(path, sizeof(path), "[%s]", mods[i].name);
		emit_kernel_mmap(s, mods[i].addr, mods[i].size, 0, mods[i].path ? mods[i].path : path);
		free(mods[i].path);
	}
	free(mods);
}

/* ---- threads --------------------------------------------------------- */

/* What a thread's status file says. */
struct thread_status {
	char comm[COMM_LEN];
	pid_t tgid, ppid;
	int kernel;		/* no VmPeak: a kernel thread */
};

/* The integer after "\nKEY:" in the buffer, or -1. */
static long status_int(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* Reads /proc/PID/task/TID/status (or /proc/TID/status when pid is 0). */
static int read_status(struct synth *s, pid_t pid, pid_t tid, struct thread_status *st)
{
	char path[64];
	const char *name;
	size_t n;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (read_whole(s, path) <= 0)
		return -1;
	st->tgid = (pid_t)status_int(s->buf, "\nTgid:");
	st->ppid = (pid_t)status_int(s->buf, "\nPPid:");
	st->kernel = !strstr(s->buf, "\nVmPeak:");
	if (st->tgid <= 0)
		return -1;
	name = strncmp(s->buf, "Name:", 5) ? "" : s->buf + 5;
	name += strspn(name, " \t");
	n = strcspn(name, "\n");
	if (n >= COMM_LEN)
		n = COMM_LEN - 1;
	memcpy(st->comm, name, n);
	st->comm[n] = '\0';
	return 0;
}

static void emit_comm(struct synth *s, pid_t tid, const struct thread_status *st)
{
	struct rec r;

	begin(&r, PD_REC_COMM, 0);
	put32(&r, (u32)st->tgid);
	put32(&r, (u32)tid);
	put_name(&r, st->comm, strlen(st->comm));
	finish(s, &r);
}

void synth_comm(struct synth *s, pid_t pid, pid_t tid, const char *name)
{
	struct rec r;

	begin(&r, PD_REC_COMM, 0);
	put32(&r, (u32)pid);
	put32(&r, (u32)tid);
	put_name(&r, name, strlen(name));
	finish(s, &r);
}

static void emit_fork(struct synth *s, pid_t tid, const struct thread_status *st)
{
	pid_t parent = tid == st->tgid ? st->ppid : st->tgid;
	struct rec r;

	begin(&r, PD_REC_FORK, PD_MISC_MMAP_DATA);	/* FORK_EXEC: a synthesized fork */
	put32(&r, (u32)st->tgid);
	put32(&r, (u32)parent);
	put32(&r, (u32)tid);
	put32(&r, (u32)parent);
	put64(&r, 0);
	finish(s, &r);
}

/* The first hugetlbfs mount point, from /proc/mounts, into s->hugetlbfs
 * (looked up once per synth). */
static void find_hugetlbfs(struct synth *s)
{
	char *line, *next;

	if (s->hugetlbfs_known)
		return;
	s->hugetlbfs_known = 1;
	if (read_whole(s, "/proc/mounts") <= 0)
		return;
	for (line = s->buf; *line; line = next) {
		char dir[sizeof(s->hugetlbfs)], type[32];

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (sscanf(line, "%*s %255s %31s", dir, type) == 2 && !strcmp(type, "hugetlbfs")) {
			snprintf(s->hugetlbfs, sizeof(s->hugetlbfs), "%s", dir);
			s->hugetlbfs_len = strlen(s->hugetlbfs);
			return;
		}
	}
}

/* Parses one maps line ("start-end perms pgoff maj:min ino   path") into
 * an MMAP2 for pid and emits it when perf would. */
static void emit_map_line(struct synth *s, pid_t pid, char *line)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[8], *path;
	int consumed = 0;
	u32 prot = 0, flags;
	u16 misc = PD_MISC_USER;
	struct rec r;
	size_t n;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &consumed) < 7 || !consumed || strlen(perms) < 4)
		return;
	path = line + consumed;
	if (perms[0] == 'r')
		prot |= PROT_READ;
	if (perms[1] == 'w')
		prot |= PROT_WRITE;
	if (perms[2] == 'x')
		prot |= PROT_EXEC;
	flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	if (!(prot & PROT_EXEC)) {
		if (!s->mmap_data || !(prot & PROT_READ))
			return;
		misc |= PD_MISC_MMAP_DATA;
	}
	if (!*path)
		path = "//anon";
	if (s->hugetlbfs_len && !strncmp(path, s->hugetlbfs, s->hugetlbfs_len)) {
		path = "//anon";	/* as perf names huge page files */
		flags |= MAP_HUGETLB;
	}
	n = strlen(path);
	if (n >= SYNTH_PATH_MAX)
		n = SYNTH_PATH_MAX - 1;
	begin(&r, PD_REC_MMAP2, misc);
	put32(&r, (u32)pid);
	put32(&r, (u32)pid);
	put64(&r, start);
	put64(&r, end - start);
	put64(&r, pgoff);
	put32(&r, maj);
	put32(&r, min);
	put64(&r, ino);
	put64(&r, 0);
	put32(&r, prot);
	put32(&r, flags);
	put_name(&r, path, n);
	finish(s, &r);
}

/* The MMAP2s of process pid. */
static void emit_maps(struct synth *s, pid_t pid)
{
	char path[64], *line, *nl;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/maps", (int)pid, (int)pid);
	if (read_whole(s, path) <= 0)
		return;
	for (line = s->buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		emit_map_line(s, pid, line);
	}
}

/* COMM of tid (and its maps when it leads its process); returns its tgid
 * or -1 when it is gone. */
static pid_t synth_one(struct synth *s, pid_t tid)
{
	struct thread_status st;

	if (read_status(s, 0, tid, &st))
		return -1;
	emit_comm(s, tid, &st);
	if (tid == st.tgid && !st.kernel)
		emit_maps(s, tid);
	return st.tgid;
}

void synth_thread_list(struct synth *s, const pid_t *tids, int nr)
{
	find_hugetlbfs(s);
	for (int i = 0; i < nr; i++) {
		pid_t tgid = synth_one(s, tids[i]);
		int listed = 0;

		if (tgid < 0 || tgid == tids[i])
			continue;
		for (int j = 0; j < nr && !listed; j++)
			listed = tids[j] == tgid;
		if (!listed)
			synth_one(s, tgid);
	}
}

/* Whether name is all digits; its value in *v. */
static int numeric(const char *name, pid_t *v)
{
	char *end;
	long n = strtol(name, &end, 10);

	if (!*name || *end || n <= 0)
		return 0;
	*v = (pid_t)n;
	return 1;
}

void synth_all_threads(struct synth *s)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;

	if (!proc) {
		warning("cannot read /proc: %s", strerror(errno));
		return;
	}
	find_hugetlbfs(s);
	while ((de = readdir(proc))) {
		char path[64];
		struct dirent *te;
		DIR *tasks;
		pid_t pid, tid;

		if (!numeric(de->d_name, &pid))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* gone */
		while ((te = readdir(tasks))) {
			struct thread_status st;

			if (!numeric(te->d_name, &tid) || read_status(s, pid, tid, &st))
				continue;
			emit_fork(s, tid, &st);
			emit_comm(s, tid, &st);
			if (tid == pid && !st.kernel)
				emit_maps(s, pid);
		}
		closedir(tasks);
	}
	closedir(proc);
}

int synth_process_threads(pid_t pid, pid_t **tids, int *nr, int *cap)
{
	char path[64];
	struct dirent *de;
	DIR *tasks;
	int added = 0;
	pid_t tid;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks)
		return -1;
	while ((de = readdir(tasks))) {
		if (!numeric(de->d_name, &tid))
			continue;
		if (*nr == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*tids = xrealloc(*tids, (size_t)*cap * sizeof(**tids));
		}
		(*tids)[(*nr)++] = tid;
		added++;
	}
	closedir(tasks);
	return added ? added : -1;
}
