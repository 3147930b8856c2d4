/*
 * writer.c - writes file-mode perf.data files; the layout is in writer.h.
 *
 * Invariants: w->data_offset + w->data_size is where the next flushed byte
 * of the data section goes; buf holds the bytes not yet flushed; commits[]
 * are all the pw_commit() points so far, ascending; w->on_disk is how much
 * of the data reached the file; once w->failed is set no more data reaches
 * the file.  The header on disk is a placeholder (data.size 0) until
 * pw_close() rewrites it.
 *
 * After a failed write (a full disk, a file size limit) pw_close() still
 * leaves a readable file with its features: the data is cut back to the
 * last commit point (a whole round of records) that leaves room for the
 * features in the space the file had, then further back, a feature-size
 * step at a time, until they fit.  Only if they fit with no data at all
 * does it give up on them: COMPRESSED alone (without it compressed data
 * cannot be read), else none.  The header, which needs no new space, is
 * rewritten either way.  Only the first write error is printed.
 */
#include "writer.h"
#include "../util/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PW_BUF_SIZE	(4u << 20)	/* data bytes gathered per write() */
#define PW_FLUSH_AT	(64u << 10)	/* a commit writes out this much or more:
					   a big round goes out at once, as
					   perf writes it, so the next drain of
					   the rings is not held up by a long
					   write, and a full disk shows early */
#define PW_ATTR_ENTRY	(PW_ATTR_SIZE + 16)

/* Writes all of size bytes at offset; reports only the first failure.
 * *done (if not NULL) gets the bytes that were written. */
static int pwrite_done(struct pw_file *w, const void *data, size_t size, u64 offset,
		       size_t *done)
{
	const u8 *p = data;

	if (done)
		*done = 0;
	while (size) {
		ssize_t n = w->pipe ? write(w->fd, p, size) : pwrite(w->fd, p, size, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!w->reported)
				error("cannot write %s: %s", w->path,
				      n < 0 ? strerror(errno) : "short write");
			w->failed = w->reported = 1;
			return -1;
		}
		p += n;
		size -= (size_t)n;
		offset += (u64)n;
		if (done)
			*done += (size_t)n;
	}
	return 0;
}

static int pwrite_all(struct pw_file *w, const void *data, size_t size, u64 offset)
{
	return pwrite_done(w, data, size, offset, NULL);
}

/* Writes the buffer out; w->on_disk counts what made it, even when only
 * part of the buffer did. */
static int flush_data(struct pw_file *w)
{
	size_t done = 0;
	int ret = 0;

	if (w->failed)
		ret = -1;
	else if (w->buf_len)
		ret = pwrite_done(w, w->buf, w->buf_len, w->data_offset + w->data_size, &done);
	if (!ret)
		w->data_size += w->buf_len;
	if (done > 0 || !ret)
		w->on_disk = w->data_size + (ret ? done : 0);
	w->buf_len = 0;
	return ret;
}

void pw_commit(struct pw_file *w)
{
	u64 at = w->data_size + w->buf_len;

	if (w->pipe) {	/* a reader waits on the other end: send the round */
		flush_data(w);
		return;
	}

	if (w->failed || (w->nr_commits && w->commits[w->nr_commits - 1] == at))
		return;
	if (w->nr_commits == w->cap_commits) {
		w->cap_commits = w->cap_commits ? w->cap_commits * 2 : 64;
		w->commits = xrealloc(w->commits, w->cap_commits * sizeof(u64));
	}
	w->commits[w->nr_commits++] = at;
	if (w->buf_len >= PW_FLUSH_AT)
		flush_data(w);
}

/* Writes the 104-byte header as it stands. */
static int write_header(struct pw_file *w)
{
	u64 h[13] = {
		PD_MAGIC, PD_FILE_HEADER_SIZE, PW_ATTR_ENTRY,
		w->attrs_offset, w->attrs_size,
		w->data_offset, w->data_size,
		0, 0,
		w->features[0], w->features[1], w->features[2], w->features[3],
	};

	return pwrite_all(w, h, sizeof(h), 0);
}

int pw_open(struct pw_file *w, const char *path, const struct pw_event *evs, u32 nr)
{
	u64 off = PD_FILE_HEADER_SIZE;
	u8 entry[PW_ATTR_ENTRY];

	memset(w, 0, sizeof(*w));
	w->path = path;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return error("cannot create %s: %s", path, strerror(errno));
	w->buf_cap = PW_BUF_SIZE;
	w->buf = xmalloc(w->buf_cap);

	for (u32 i = 0; i < nr; i++) {
		if (pwrite_all(w, evs[i].ids, (size_t)evs[i].nr_ids * 8, off))
			goto fail;
		off += (u64)evs[i].nr_ids * 8;
	}
	w->attrs_offset = off;
	w->attrs_size = (u64)nr * PW_ATTR_ENTRY;
	off = PD_FILE_HEADER_SIZE;
	for (u32 i = 0; i < nr; i++) {
		struct pd_attr attr = evs[i].attr;
		u64 ids[2] = { off, (u64)evs[i].nr_ids * 8 };

		attr.size = PW_ATTR_SIZE;
		memcpy(entry, &attr, PW_ATTR_SIZE);
		memcpy(entry + PW_ATTR_SIZE, ids, sizeof(ids));
		if (pwrite_all(w, entry, sizeof(entry), w->attrs_offset + (u64)i * PW_ATTR_ENTRY))
			goto fail;
		off += ids[1];
	}
	w->data_offset = w->attrs_offset + w->attrs_size;
	if (write_header(w))
		goto fail;
	return 0;
fail:
	close(w->fd);
	free(w->buf);
	w->buf = NULL;
	w->fd = -1;
	return -1;
}

int pw_open_pipe(struct pw_file *w, int fd, const char *path, const struct pw_event *evs, u32 nr)
{
	u64 head[2] = { PD_MAGIC, PD_PIPE_HEADER_SIZE };

	memset(w, 0, sizeof(*w));
	w->path = path;
	w->fd = fd;
	w->pipe = 1;
	w->buf_cap = PW_BUF_SIZE;
	w->buf = xmalloc(w->buf_cap);
	pw_write(w, head, sizeof(head));
	for (u32 i = 0; i < nr; i++) {
		size_t size = 8 + PW_ATTR_SIZE + (size_t)evs[i].nr_ids * 8;
		struct pd_header h = { PD_REC_HEADER_ATTR, 0, (u16)size };
		struct pd_attr attr = evs[i].attr;

		if (size > 0xffff) {
			error("too many counters for pipe mode (%u ids on event '%s')",
			      evs[i].nr_ids, evs[i].name);
			free(w->buf);
			w->buf = NULL;
			return -1;
		}
		attr.size = PW_ATTR_SIZE;
		pw_write(w, &h, sizeof(h));
		pw_write(w, &attr, PW_ATTR_SIZE);
		pw_write(w, evs[i].ids, (size_t)evs[i].nr_ids * 8);
	}
	return w->failed ? -1 : 0;
}

void pw_pipe_features(struct pw_file *w)
{
	static const u8 sent[] = {
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 21, 22, 25, 26, 27, 31,
	};
	struct pd_header h = { PD_REC_HEADER_FEATURE, 0, 16 };
	u64 feat = PD_FEAT_PIPE_END_61;

	for (size_t i = 0; i < sizeof(sent); i++) {
		unsigned f = sent[i];
		u64 id = f;

		if (!(w->features[f / 64] >> (f % 64) & 1))
			continue;
		if (16 + w->feat_size[f] > 0xffff) {
			warning("feature %s is too large for pipe mode, left out", pd_feature_name(f));
			continue;
		}
		h.size = (u16)(16 + w->feat_size[f]);
		pw_write(w, &h, sizeof(h));
		pw_write(w, &id, sizeof(id));
		pw_write(w, w->feat_buf + w->feat_start[f], w->feat_size[f]);
	}
	h.size = 16;
	pw_write(w, &h, sizeof(h));
	pw_write(w, &feat, sizeof(feat));
}

int pw_write(struct pw_file *w, const void *data, size_t size)
{
	const u8 *p = data;

	if (w->failed)
		return -1;
	while (size) {
		size_t n = w->buf_cap - w->buf_len;

		if (n > size)
			n = size;
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		p += n;
		size -= n;
		if (w->buf_len == w->buf_cap && flush_data(w))
			return -1;
	}
	return 0;
}

void pw_add_feature(struct pw_file *w, unsigned feat, const void *payload, size_t size)
{
	if (feat >= PD_FEAT_LAST_KNOWN || (w->features[feat / 64] >> (feat % 64) & 1))
		return;
	if (w->feat_len + size > w->feat_cap) {
		w->feat_cap = (w->feat_len + size) * 2 + 4096;
		w->feat_buf = xrealloc(w->feat_buf, w->feat_cap);
	}
	memcpy(w->feat_buf + w->feat_len, payload, size);
	w->feat_start[feat] = w->feat_len;
	w->feat_size[feat] = size;
	w->feat_len += size;
	w->features[feat / 64] |= 1ULL << (feat % 64);
}

/* A growable byte string for building payloads. */
struct pbuf {
	u8 *p;
	size_t len, cap;
};

static void pb_add(struct pbuf *b, const void *data, size_t size)
{
	if (b->len + size > b->cap) {
		b->cap = (b->len + size) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, data, size);
	b->len += size;
}

static void pb_u32(struct pbuf *b, u32 v) { pb_add(b, &v, 4); }
static void pb_u64(struct pbuf *b, u64 v) { pb_add(b, &v, 8); }

/* perf string: u32 len (strlen + 1 rounded up to 64), text, NUL padding. */
static void pb_str(struct pbuf *b, const char *s)
{
	static const u8 zeros[64];
	size_t n = strlen(s);
	u32 len = (u32)((n + 1 + 63) & ~(size_t)63);

	pb_u32(b, len);
	pb_add(b, s, n);
	pb_add(b, zeros, len - n);
}

void pw_add_string_feature(struct pw_file *w, unsigned feat, const char *s)
{
	struct pbuf b = { 0 };

	pb_str(&b, s);
	pw_add_feature(w, feat, b.p, b.len);
	free(b.p);
}

/* Value of the first "key<spaces>: value" line of a /proc file, or NULL. */
static char *proc_field(const char *file, const char *key, char *out, size_t size)
{
	FILE *f = fopen(file, "re");
	char line[1024];
	size_t klen = strlen(key);
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		p = strchr(p, ':');
		if (!p)
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		p[strcspn(p, "\n")] = '\0';
		snprintf(out, size, "%s", p);
		found = out;
		break;
	}
	fclose(f);
	return found;
}

/* CPUDESC: the model name with runs of blanks collapsed, as perf does. */
static void add_cpudesc(struct pw_file *w)
{
	char name[256], *s, *d;

	if (!proc_field("/proc/cpuinfo", "model name", name, sizeof(name)))
		return;
	for (s = d = name; *s; s++) {
		if ((*s == ' ' || *s == '\t') && d > name && d[-1] == ' ')
			continue;
		*d++ = *s == '\t' ? ' ' : *s;
	}
	while (d > name && d[-1] == ' ')
		d--;
	*d = '\0';
	pw_add_string_feature(w, PD_FEAT_CPUDESC, name);
}

/* CPUID on x86: "vendor,family,model,stepping". */
static void add_cpuid(struct pw_file *w)
{
	char vendor[64], family[16], model[16], stepping[16], id[128];

	if (!proc_field("/proc/cpuinfo", "vendor_id", vendor, sizeof(vendor)) ||
	    !proc_field("/proc/cpuinfo", "cpu family", family, sizeof(family)) ||
	    !proc_field("/proc/cpuinfo", "model", model, sizeof(model)) ||
	    !proc_field("/proc/cpuinfo", "stepping", stepping, sizeof(stepping)))
		return;
	snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, family, model, stepping);
	pw_add_string_feature(w, PD_FEAT_CPUID, id);
}

static void add_cmdline(struct pw_file *w, int argc, char **argv)
{
	struct pbuf b = { 0 };
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		snprintf(exe, sizeof(exe), "%s", "prof");
	else
		exe[n] = '\0';
	pb_u32(&b, (u32)argc);
	pb_str(&b, exe);
	for (int i = 1; i < argc; i++)
		pb_str(&b, argv[i]);
	pw_add_feature(w, PD_FEAT_CMDLINE, b.p, b.len);
	free(b.p);
}

/* EVENT_DESC: u32 nr, u32 attr size, then per event attr, u32 nr_ids,
 * pstr name, u64 ids[]. */
static void add_event_desc(struct pw_file *w, const struct pw_event *evs, u32 nr)
{
	struct pbuf b = { 0 };

	pb_u32(&b, nr);
	pb_u32(&b, PW_ATTR_SIZE);
	for (u32 i = 0; i < nr; i++) {
		struct pd_attr attr = evs[i].attr;

		attr.size = PW_ATTR_SIZE;
		pb_add(&b, &attr, PW_ATTR_SIZE);
		pb_u32(&b, evs[i].nr_ids);
		pb_str(&b, evs[i].name);
		for (u32 j = 0; j < evs[i].nr_ids; j++)
			pb_u64(&b, evs[i].ids[j]);
	}
	pw_add_feature(w, PD_FEAT_EVENT_DESC, b.p, b.len);
	free(b.p);
}

void pw_add_group_desc(struct pw_file *w, const struct pw_group *groups, u32 nr)
{
	struct pbuf b = { 0 };

	pb_u32(&b, nr);
	for (u32 i = 0; i < nr; i++) {
		pb_str(&b, groups[i].name ? groups[i].name : "{anon_group}");
		pb_u32(&b, groups[i].leader);
		pb_u32(&b, groups[i].nr_members);
	}
	pw_add_feature(w, PD_FEAT_GROUP_DESC, b.p, b.len);
	free(b.p);
}

/* The first line of a sysfs file, newline stripped, or NULL. */
static char *sysfs_line(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static char *sysfs_line(char *out, size_t size, const char *fmt, ...)
{
	char path[256];
	va_list ap;
	FILE *f;
	char *ret;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	ret = fgets(out, (int)size, f);
	fclose(f);
	if (ret)
		out[strcspn(out, "\n")] = '\0';
	return ret;
}

/* A list of distinct strings, in the order first seen. */
struct strset {
	char **s;
	u32 nr;
};

static void strset_add(struct strset *set, const char *s)
{
	for (u32 i = 0; i < set->nr; i++)
		if (!strcmp(set->s[i], s))
			return;
	set->s = xrealloc(set->s, (set->nr + 1) * sizeof(*set->s));
	set->s[set->nr++] = xstrdup(s);
}

static void strset_free(struct strset *set)
{
	for (u32 i = 0; i < set->nr; i++)
		free(set->s[i]);
	free(set->s);
	set->s = NULL;
	set->nr = 0;
}

/* Appends the set as a pstr list and frees it. */
static void pb_strset(struct pbuf *b, struct strset *set)
{
	pb_u32(b, set->nr);
	for (u32 i = 0; i < set->nr; i++)
		pb_str(b, set->s[i]);
	strset_free(set);
}

/*
 * CPU_TOPOLOGY as perf 6.1 writes it: the distinct package and thread
 * sibling lists of the online CPUs, {core_id, socket_id} of every CPU up
 * to nr_cpus (-1 for ones that cannot be read), then the die sibling lists
 * and die ids when the kernel has them.
 */
static void add_cpu_topology(struct pw_file *w, u32 nr_cpus)
{
	static const char topo[] = "/sys/devices/system/cpu/cpu%u/topology/%s";
	struct strset pkg = { 0 }, thr = { 0 }, die = { 0 };
	struct pbuf b = { 0 };
	char line[4096];
	int has_die = 1;

	for (u32 c = 0; c < nr_cpus; c++) {
		if (!sysfs_line(line, sizeof(line), topo, c, "package_cpus_list") &&
		    !sysfs_line(line, sizeof(line), topo, c, "core_siblings_list"))
			continue;	/* offline */
		strset_add(&pkg, line);
		if (sysfs_line(line, sizeof(line), topo, c, "core_cpus_list") ||
		    sysfs_line(line, sizeof(line), topo, c, "thread_siblings_list"))
			strset_add(&thr, line);
		if (sysfs_line(line, sizeof(line), topo, c, "die_cpus_list"))
			strset_add(&die, line);
		else
			has_die = 0;
	}
	if (!pkg.nr || !thr.nr) {
		strset_free(&pkg);
		strset_free(&thr);
		strset_free(&die);
		return;
	}
	pb_strset(&b, &pkg);
	pb_strset(&b, &thr);
	for (u32 c = 0; c < nr_cpus; c++) {
		u32 core = (u32)-1, socket = (u32)-1;

		if (sysfs_line(line, sizeof(line), topo, c, "core_id"))
			core = (u32)strtol(line, NULL, 10);
		if (sysfs_line(line, sizeof(line), topo, c, "physical_package_id"))
			socket = (u32)strtol(line, NULL, 10);
		pb_u32(&b, core);
		pb_u32(&b, socket);
	}
	if (has_die && die.nr) {
		pb_strset(&b, &die);
		for (u32 c = 0; c < nr_cpus; c++) {
			u32 id = (u32)-1;

			if (sysfs_line(line, sizeof(line), topo, c, "die_id"))
				id = (u32)strtol(line, NULL, 10);
			pb_u32(&b, id);
		}
	} else {
		strset_free(&die);
	}
	pw_add_feature(w, PD_FEAT_CPU_TOPOLOGY, b.p, b.len);
	free(b.p);
}

/* kB value of "Node N <key>:" in a node's meminfo, or 0. */
static u64 node_meminfo(unsigned node, const char *key)
{
	char path[128], line[256], want[64];
	FILE *f;
	u64 v = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/meminfo", node);
	snprintf(want, sizeof(want), "Node %u %s:", node, key);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want))) {
			v = strtoull(line + strlen(want), NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* NUMA_TOPOLOGY: u32 nr, then per online node {u32 node, u64 total kB,
 * u64 free kB, pstr cpu list}. */
static void add_numa_topology(struct pw_file *w)
{
	char line[4096], cpus[4096], *p = line;
	struct pbuf b = { 0 };
	u32 nr = 0;

	if (!sysfs_line(line, sizeof(line), "/sys/devices/system/node/online"))
		return;
	pb_u32(&b, 0);
	while (*p) {
		long lo = strtol(p, &p, 10), hi = lo;

		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (long n = lo; n <= hi && n >= 0; n++) {
			if (!sysfs_line(cpus, sizeof(cpus), "/sys/devices/system/node/node%ld/cpulist", n))
				continue;
			pb_u32(&b, (u32)n);
			pb_u64(&b, node_meminfo((unsigned)n, "MemTotal"));
			pb_u64(&b, node_meminfo((unsigned)n, "MemFree"));
			pb_str(&b, cpus);
			nr++;
		}
		if (*p != ',')
			break;
		p++;
	}
	memcpy(b.p, &nr, 4);
	if (nr)
		pw_add_feature(w, PD_FEAT_NUMA_TOPOLOGY, b.p, b.len);
	free(b.p);
}

/* One CPU cache as sysfs describes it. */
struct cache {
	u32 level, line_size, sets, ways;
	char type[32], size[32], cpus[4096];
};

#define CACHE_INDEXES	4	/* index0..3 of a CPU: as many as perf 6.1 reads */

/*
 * Reads cache index idx of cpu as perf 6.1 does: 0; 1 when the index
 * directory does not exist (the CPU has no more caches, or sysfs shows
 * none); -1 when the directory is there but a field cannot be read.
 */
static int read_cache(struct cache *c, u32 cpu, u32 idx)
{
	static const char dir[] = "/sys/devices/system/cpu/cpu%u/cache/index%u/%s";
	char path[128], line[64];

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%u", cpu, idx);
	if (access(path, F_OK))
		return 1;
	if (!sysfs_line(line, sizeof(line), dir, cpu, idx, "level"))
		return -1;
	c->level = (u32)strtoul(line, NULL, 10);
	if (!sysfs_line(line, sizeof(line), dir, cpu, idx, "coherency_line_size"))
		return -1;
	c->line_size = (u32)strtoul(line, NULL, 10);
	if (!sysfs_line(line, sizeof(line), dir, cpu, idx, "number_of_sets"))
		return -1;
	c->sets = (u32)strtoul(line, NULL, 10);
	if (!sysfs_line(line, sizeof(line), dir, cpu, idx, "ways_of_associativity"))
		return -1;
	c->ways = (u32)strtoul(line, NULL, 10);
	if (!sysfs_line(c->type, sizeof(c->type), dir, cpu, idx, "type") ||
	    !sysfs_line(c->size, sizeof(c->size), dir, cpu, idx, "size") ||
	    !sysfs_line(c->cpus, sizeof(c->cpus), dir, cpu, idx, "shared_cpu_list"))
		return -1;
	return 0;
}

/*
 * CACHE: u32 version 1, u32 nr, then per distinct cache {u32 level,
 * line_size, sets, ways, pstr type, size, shared cpu list}, gathered CPU
 * by CPU and index by index, then ordered by level (stable), as perf 6.1
 * writes it: a machine whose sysfs shows no caches gets nr 0 (perf says
 * "CPU cache info:" and nothing under it); a cache whose fields cannot be
 * read leaves the feature out (perf then counts it missing).
 */
static void add_caches(struct pw_file *w, u32 nr_cpus)
{
	struct cache *caches = NULL, *c = xmalloc(sizeof(*c));
	struct pbuf b = { 0 };
	u32 nr = 0;
	int err = 0;

	for (u32 cpu = 0; cpu < nr_cpus && !err; cpu++) {
		for (u32 idx = 0; idx < CACHE_INDEXES; idx++) {
			u32 i;

			err = read_cache(c, cpu, idx);
			if (err)
				break;
			for (i = 0; i < nr; i++)
				if (!memcmp(&caches[i], c, sizeof(*c)))
					break;
			if (i < nr)
				continue;
			caches = xrealloc(caches, (nr + 1) * sizeof(*caches));
			caches[nr++] = *c;
		}
		if (err > 0)
			err = 0;	/* this CPU has no more caches */
	}
	for (u32 i = 1; i < nr; i++) {	/* insertion sort: stable */
		u32 j = i;

		*c = caches[i];
		for (; j > 0 && caches[j - 1].level > c->level; j--)
			caches[j] = caches[j - 1];
		caches[j] = *c;
	}
	if (!err) {
		pb_u32(&b, 1);
		pb_u32(&b, nr);
		for (u32 i = 0; i < nr; i++) {
			pb_u32(&b, caches[i].level);
			pb_u32(&b, caches[i].line_size);
			pb_u32(&b, caches[i].sets);
			pb_u32(&b, caches[i].ways);
			pb_str(&b, caches[i].type);
			pb_str(&b, caches[i].size);
			pb_str(&b, caches[i].cpus);
		}
		pw_add_feature(w, PD_FEAT_CACHE, b.p, b.len);
	}
	free(b.p);
	free(caches);
	free(c);
}

/* Appends node's memory-block bitmap {u64 node, u64 nbits, u64 nbits,
 * words}; returns 0, or -1 when the node has no memory directory. */
static int pb_memory_node(struct pbuf *b, unsigned node)
{
	char path[128];
	DIR *dir;
	struct dirent *de;
	u64 *words = NULL, nbits = 0;
	size_t nwords = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", node);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char *end;
		unsigned long idx;

		if (strncmp(de->d_name, "memory", 6) || !isdigit((unsigned char)de->d_name[6]))
			continue;
		idx = strtoul(de->d_name + 6, &end, 10);
		if (*end || idx >= (1ul << 24))
			continue;
		if (idx / 64 >= nwords) {
			size_t n = idx / 64 + 1;

			words = xrealloc(words, n * sizeof(*words));
			memset(words + nwords, 0, (n - nwords) * sizeof(*words));
			nwords = n;
		}
		words[idx / 64] |= 1ULL << (idx % 64);
		if (idx + 1 > nbits)
			nbits = idx + 1;
	}
	closedir(dir);
	pb_u64(b, node);
	pb_u64(b, nbits);
	pb_u64(b, nbits);
	for (u64 i = 0; i < (nbits + 63) / 64; i++)
		pb_u64(b, words[i]);
	free(words);
	return 0;
}

/* MEM_TOPOLOGY: u64 version 1, u64 block size, u64 nr, then per online
 * node (ascending) its memory-block bitmap. */
static void add_mem_topology(struct pw_file *w)
{
	char line[4096], *p = line;
	struct pbuf b = { 0 };
	u64 nr = 0, block;

	if (!sysfs_line(line, sizeof(line), "/sys/devices/system/memory/block_size_bytes"))
		return;
	block = strtoull(line, NULL, 16);
	if (!sysfs_line(line, sizeof(line), "/sys/devices/system/node/online"))
		return;
	pb_u64(&b, 1);
	pb_u64(&b, block);
	pb_u64(&b, 0);
	while (*p) {
		long lo = strtol(p, &p, 10), hi = lo;

		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		for (long n = lo; n <= hi && n >= 0; n++)
			if (!pb_memory_node(&b, (unsigned)n))
				nr++;
		if (*p != ',')
			break;
		p++;
	}
	memcpy(b.p + 16, &nr, 8);
	if (nr)
		pw_add_feature(w, PD_FEAT_MEM_TOPOLOGY, b.p, b.len);
	free(b.p);
}

/* PMU_MAPPINGS: u32 nr, then {u32 type, pstr name} per PMU in sysfs, in
 * directory order as perf lists them. */
static void add_pmu_mappings(struct pw_file *w)
{
	DIR *dir = opendir("/sys/bus/event_source/devices");
	struct pbuf b = { 0 };
	struct dirent *de;
	char line[64];
	u32 nr = 0;

	if (!dir)
		return;
	pb_u32(&b, 0);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' ||
		    !sysfs_line(line, sizeof(line), "/sys/bus/event_source/devices/%s/type", de->d_name))
			continue;
		pb_u32(&b, (u32)strtoul(line, NULL, 10));
		pb_str(&b, de->d_name);
		nr++;
	}
	closedir(dir);
	memcpy(b.p, &nr, 4);
	pw_add_feature(w, PD_FEAT_PMU_MAPPINGS, b.p, b.len);
	free(b.p);
}

void pw_add_host_features(struct pw_file *w, int argc, char **argv,
			  const struct pw_event *evs, u32 nr)
{
	struct utsname u;
	char mem[64];
	u32 cpus[2], zero = 0;

	if (!uname(&u)) {
		pw_add_string_feature(w, PD_FEAT_HOSTNAME, u.nodename);
		pw_add_string_feature(w, PD_FEAT_OSRELEASE, u.release);
	}
	pw_add_string_feature(w, PD_FEAT_VERSION, PROF_VERSION);
	if (!uname(&u))
		pw_add_string_feature(w, PD_FEAT_ARCH, u.machine);
	cpus[0] = (u32)sysconf(_SC_NPROCESSORS_CONF);
	cpus[1] = (u32)sysconf(_SC_NPROCESSORS_ONLN);
	pw_add_feature(w, PD_FEAT_NRCPUS, cpus, sizeof(cpus));
	add_cpudesc(w);
	add_cpuid(w);
	if (proc_field("/proc/meminfo", "MemTotal", mem, sizeof(mem))) {
		u64 kb = strtoull(mem, NULL, 10);

		pw_add_feature(w, PD_FEAT_TOTAL_MEM, &kb, sizeof(kb));
	}
	add_cmdline(w, argc, argv);
	add_event_desc(w, evs, nr);
	add_cpu_topology(w, cpus[0]);
	add_numa_topology(w);
	add_pmu_mappings(w);
	add_caches(w, cpus[0]);
	add_mem_topology(w);
	/* perf writes these always; prof has none to describe: count 0 */
	pw_add_feature(w, PD_FEAT_BPF_PROG_INFO, &zero, sizeof(zero));
	pw_add_feature(w, PD_FEAT_BPF_BTF, &zero, sizeof(zero));
	pw_add_feature(w, PD_FEAT_PMU_CAPS, &zero, sizeof(zero));
}

/* Writes the feature table and payloads after the data; 0, or -1 when
 * a write failed (w->failed is then set). */
static int write_features(struct pw_file *w)
{
	u64 table_off = w->data_offset + w->data_size, payload_off, entry[2];
	unsigned nr = 0;

	for (unsigned f = 0; f < PD_FEAT_LAST_KNOWN; f++)
		nr += (unsigned)(w->features[f / 64] >> (f % 64) & 1);
	payload_off = table_off + (u64)nr * 16;
	for (unsigned f = 0; f < PD_FEAT_LAST_KNOWN; f++) {
		if (!(w->features[f / 64] >> (f % 64) & 1))
			continue;
		entry[0] = payload_off;
		entry[1] = w->feat_size[f];
		pwrite_all(w, entry, sizeof(entry), table_off);
		pwrite_all(w, w->feat_buf + w->feat_start[f], w->feat_size[f], payload_off);
		table_off += 16;
		payload_off += w->feat_size[f];
	}
	w->file_size = payload_off;
	return w->failed ? -1 : 0;
}

/* The largest pw_commit() point at or below limit, 0 when there is none. */
static u64 commit_below(const struct pw_file *w, u64 limit)
{
	size_t lo = 0, hi = w->nr_commits;

	while (lo < hi) {	/* lo: the first point above limit */
		size_t mid = lo + (hi - lo) / 2;

		if (w->commits[mid] <= limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? w->commits[lo - 1] : 0;
}

/* The bytes the feature table and payloads take. */
static u64 features_size(const struct pw_file *w)
{
	u64 size = 0;

	for (unsigned f = 0; f < PD_FEAT_LAST_KNOWN; f++)
		if (w->features[f / 64] >> (f % 64) & 1)
			size += 16 + w->feat_size[f];
	return size;
}

/*
 * After a failed write: cuts the data back to the last commit point that
 * leaves room for the features in the space the data had reached, and
 * writes them there; while they still do not fit, cuts back by their size
 * again.  Returns 0 once they are written; -1 (w->failed set) when they do
 * not fit even with no data, or the file cannot be cut (not a regular
 * file).
 */
static int fit_features(struct pw_file *w)
{
	u64 need = features_size(w), limit = w->on_disk > need ? w->on_disk - need : 0;

	for (;;) {
		u64 cut = commit_below(w, limit);

		w->failed = 0;
		w->data_size = cut;
		if (ftruncate(w->fd, (off_t)(w->data_offset + cut))) {
			w->failed = 1;
			return -1;
		}
		if (!write_features(w))
			return 0;
		if (!cut)
			return -1;
		limit = cut > need ? cut - need : 0;
	}
}

static void free_buffers(struct pw_file *w)
{
	free(w->buf);
	free(w->feat_buf);
	free(w->commits);
	w->buf = NULL;
	w->feat_buf = NULL;
	w->commits = NULL;
}

int pw_close(struct pw_file *w)
{
	int ret, data_failed = 0;

	if (w->fd < 0)
		return -1;
	flush_data(w);
	if (w->pipe) {
		ret = w->failed ? -1 : 0;
		w->file_size = w->data_size;
		if (close(w->fd) && !ret && errno != EINVAL)
			ret = error("cannot write %s: %s", w->path, strerror(errno));
		w->fd = -1;
		free_buffers(w);
		return ret;
	}
	if (w->failed || write_features(w)) {
		/* a write failed: the data is cut back to make room for the
		 * features; when they do not fit even with no data, COMPRESSED
		 * alone (without it compressed data cannot be read), else no
		 * features (and, if the data was compressed, no data) */
		u64 compressed = w->features[PD_FEAT_COMPRESSED / 64] &
				 1ULL << (PD_FEAT_COMPRESSED % 64);

		data_failed = 1;
		if (fit_features(w)) {
			memset(w->features, 0, sizeof(w->features));
			w->features[PD_FEAT_COMPRESSED / 64] = compressed;
			if (!compressed || fit_features(w)) {
				memset(w->features, 0, sizeof(w->features));
				if (compressed)
					w->on_disk = 0;
				fit_features(w);
			}
		}
	}
	write_header(w);
	ret = w->failed || data_failed ? -1 : 0;
	if (close(w->fd) && !ret)
		ret = error("cannot write %s: %s", w->path, strerror(errno));
	w->fd = -1;
	free_buffers(w);
	return ret;
}
