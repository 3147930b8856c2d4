/*
 * dsos.c - the sampled-DSO set of prof record (see dsos.h).
 *
 * Invariants: dsos[] holds each path once, in first-mapped order, with
 * paths_hash indexing it; procs_hash maps a pid to its process (open
 * addressing, linear probing, deleted slots marked with pid -2 so probes
 * continue past them); a process's maps are in mapping order, so the
 * lookup walks them backwards to find the newest.
 */
#include "dsos.h"
#include "../symbol/symbol.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY_PID	(-1)
#define DELETED_PID	(-2)
#define BUILD_ID_MAX	20	/* bytes in a BUILD_ID entry */

struct rmap {
	u64 start, end;
	u32 dso;		/* index in dsos[] */
};

struct rproc {
	s64 pid;		/* EMPTY_PID, DELETED_PID or a pid */
	struct rmap *maps;
	u32 nr, cap;
};

struct rdso {
	char *path;
	int hit;
};

struct record_dsos {
	struct rdso *dsos;
	u32 nr_dsos, cap_dsos;
	u32 *paths_hash;	/* dso index + 1, 0 = empty */
	u32 paths_cap;		/* power of two */
	struct rproc *procs;
	u32 procs_cap, procs_used;	/* used counts deleted slots too */
	int kernel_hit;
	unsigned ip_offset;	/* of the ip in a sample: 8, or 16 after an IDENTIFIER */
};

static u32 hash_str(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

static u32 hash_pid(u32 pid)
{
	return pid * 2654435761u;
}

struct record_dsos *record_dsos_new(int id_first)
{
	struct record_dsos *d = xcalloc(1, sizeof(*d));

	d->ip_offset = id_first ? 16 : 8;
	d->paths_cap = 256;
	d->paths_hash = xcalloc(d->paths_cap, sizeof(u32));
	d->procs_cap = 256;
	d->procs = xmalloc(d->procs_cap * sizeof(*d->procs));
	for (u32 i = 0; i < d->procs_cap; i++)
		d->procs[i] = (struct rproc){ .pid = EMPTY_PID };
	return d;
}

void record_dsos_free(struct record_dsos *d)
{
	if (!d)
		return;
	for (u32 i = 0; i < d->nr_dsos; i++)
		free(d->dsos[i].path);
	for (u32 i = 0; i < d->procs_cap; i++)
		free(d->procs[i].maps);
	free(d->dsos);
	free(d->paths_hash);
	free(d->procs);
	free(d);
}

static u32 intern_dso(struct record_dsos *d, const char *path)
{
	u32 mask = d->paths_cap - 1, i;

	for (i = hash_str(path) & mask; d->paths_hash[i]; i = (i + 1) & mask)
		if (!strcmp(d->dsos[d->paths_hash[i] - 1].path, path))
			return d->paths_hash[i] - 1;
	if (d->nr_dsos == d->cap_dsos) {
		d->cap_dsos = d->cap_dsos ? d->cap_dsos * 2 : 64;
		d->dsos = xrealloc(d->dsos, d->cap_dsos * sizeof(*d->dsos));
	}
	d->dsos[d->nr_dsos] = (struct rdso){ xstrdup(path), 0 };
	d->paths_hash[i] = ++d->nr_dsos;
	if (d->nr_dsos * 2 > d->paths_cap) {	/* rehash at half full */
		free(d->paths_hash);
		d->paths_cap *= 2;
		d->paths_hash = xcalloc(d->paths_cap, sizeof(u32));
		mask = d->paths_cap - 1;
		for (u32 k = 0; k < d->nr_dsos; k++) {
			for (i = hash_str(d->dsos[k].path) & mask; d->paths_hash[i]; i = (i + 1) & mask)
				;
			d->paths_hash[i] = k + 1;
		}
	}
	return d->nr_dsos - 1;
}

/* The process pid, or NULL. */
static struct rproc *find_proc(struct record_dsos *d, u32 pid)
{
	u32 mask = d->procs_cap - 1;

	for (u32 i = hash_pid(pid) & mask; d->procs[i].pid != EMPTY_PID; i = (i + 1) & mask)
		if (d->procs[i].pid == (s64)pid)
			return &d->procs[i];
	return NULL;
}

static void grow_procs(struct record_dsos *d)
{
	struct rproc *old = d->procs;
	u32 old_cap = d->procs_cap;

	d->procs_cap *= 2;
	d->procs = xmalloc(d->procs_cap * sizeof(*d->procs));
	for (u32 i = 0; i < d->procs_cap; i++)
		d->procs[i] = (struct rproc){ .pid = EMPTY_PID };
	d->procs_used = 0;
	for (u32 k = 0; k < old_cap; k++) {
		u32 mask = d->procs_cap - 1, i;

		if (old[k].pid < 0)
			continue;
		for (i = hash_pid((u32)old[k].pid) & mask; d->procs[i].pid != EMPTY_PID; i = (i + 1) & mask)
			;
		d->procs[i] = old[k];
		d->procs_used++;
	}
	free(old);
}

/* The process pid, created empty when new. */
static struct rproc *get_proc(struct record_dsos *d, u32 pid)
{
	struct rproc *p = find_proc(d, pid);
	u32 mask, i;

	if (p)
		return p;
	if ((d->procs_used + 1) * 2 > d->procs_cap)
		grow_procs(d);
	mask = d->procs_cap - 1;
	for (i = hash_pid(pid) & mask; d->procs[i].pid >= 0; i = (i + 1) & mask)
		;
	if (d->procs[i].pid == EMPTY_PID)
		d->procs_used++;
	d->procs[i] = (struct rproc){ .pid = pid };
	return &d->procs[i];
}

static void add_map(struct rproc *p, u64 start, u64 end, u32 dso)
{
	if (p->nr == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->maps = xrealloc(p->maps, p->cap * sizeof(*p->maps));
	}
	p->maps[p->nr++] = (struct rmap){ start, end, dso };
}

static void on_mmap2(struct record_dsos *d, const u8 *r, size_t size)
{
	char path[4096];
	size_t n;

	if (size <= 72 || (((const struct pd_header *)r)->misc & PD_MISC_MMAP_DATA))
		return;
	n = strnlen((const char *)r + 72, size - 72);
	if (n == size - 72 || n >= sizeof(path) || r[72] != '/')
		return;	/* unterminated, or [vdso], //anon ...: no build-id */
	memcpy(path, r + 72, n + 1);
	add_map(get_proc(d, pd_get32(r + 8)), pd_get64(r + 16),
		pd_get64(r + 16) + pd_get64(r + 24), intern_dso(d, path));
}

static void on_fork(struct record_dsos *d, const u8 *r, size_t size)
{
	u32 pid, ppid;
	struct rproc *child, *parent;

	if (size < 8 + 16)
		return;
	pid = pd_get32(r + 8);
	ppid = pd_get32(r + 12);
	if (pid == ppid)
		return;	/* a thread: it shares the maps */
	child = get_proc(d, pid);	/* may move the table: look the parent up after */
	child->nr = 0;
	if (((const struct pd_header *)r)->misc & PD_MISC_MMAP_DATA)
		return;	/* FORK_EXEC: synthesized, its own maps follow */
	parent = find_proc(d, ppid);
	for (u32 i = 0; parent && i < parent->nr; i++)
		add_map(child, parent->maps[i].start, parent->maps[i].end, parent->maps[i].dso);
}

static void drop_maps(struct record_dsos *d, u32 pid, int forget)
{
	struct rproc *p = find_proc(d, pid);

	if (!p)
		return;
	p->nr = 0;
	if (forget) {
		free(p->maps);
		*p = (struct rproc){ .pid = DELETED_PID };
	}
}

static void on_sample(struct record_dsos *d, const struct pd_header *h, const u8 *r)
{
	struct rproc *p;
	u64 ip;

	if ((h->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL) {
		d->kernel_hit = 1;
		return;
	}
	if ((h->misc & PD_MISC_CPUMODE_MASK) != PD_MISC_USER || h->size < d->ip_offset + 16)
		return;
	ip = pd_get64(r + d->ip_offset);
	p = find_proc(d, pd_get32(r + d->ip_offset + 8));
	for (u32 i = p ? p->nr : 0; i-- > 0; ) {
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			d->dsos[p->maps[i].dso].hit = 1;
			return;
		}
	}
}

void record_dsos_add(struct record_dsos *d, const struct pd_header *rec)
{
	const u8 *r = (const u8 *)rec;

	switch (rec->type) {
	case PD_REC_SAMPLE:
		on_sample(d, rec, r);
		break;
	case PD_REC_MMAP2:
		on_mmap2(d, r, rec->size);
		break;
	case PD_REC_FORK:
		on_fork(d, r, rec->size);
		break;
	case PD_REC_COMM:
		if ((rec->misc & PD_MISC_MMAP_DATA) && rec->size >= 16)	/* COMM_EXEC */
			drop_maps(d, pd_get32(r + 8), 0);
		break;
	case PD_REC_EXIT:
		if (rec->size >= 16 && pd_get32(r + 8) == pd_get32(r + 16))	/* pid == tid */
			drop_maps(d, pd_get32(r + 8), 1);
		break;
	default:
		break;
	}
}

/* One BUILD_ID entry: header, pid -1, id, its size, name padded to 64. */
static void add_entry(u8 **buf, size_t *len, size_t *cap, u16 cpumode,
		      const u8 *bid, int bid_size, const char *name)
{
	size_t name_len = (strlen(name) + 1 + 63) & ~(size_t)63;
	size_t size = 36 + name_len;
	struct pd_header h = { 0, (u16)(cpumode | PD_MISC_BUILD_ID_SIZE), (u16)size };
	s32 pid = -1;
	u8 *e;

	if (*len + size > *cap) {
		*cap = (*len + size) * 2;
		*buf = xrealloc(*buf, *cap);
	}
	e = *buf + *len;
	memset(e, 0, size);
	memcpy(e, &h, sizeof(h));
	memcpy(e + 8, &pid, 4);
	memcpy(e + 12, bid, (size_t)bid_size);
	e[32] = (u8)bid_size;
	memcpy(e + 36, name, strlen(name));
	*len += size;
}

void *record_dsos_build_ids(struct record_dsos *d, size_t *size)
{
	u8 bid[BUILD_ID_MAX], *buf = NULL;
	size_t len = 0, cap = 0;
	int n;

	if (d->kernel_hit && (n = host_kernel_build_id(bid, sizeof(bid))) > 0)
		add_entry(&buf, &len, &cap, PD_MISC_KERNEL, bid, n, "[kernel.kallsyms]");
	for (u32 i = 0; i < d->nr_dsos; i++)
		if (d->dsos[i].hit && (n = elf_file_build_id(d->dsos[i].path, bid, sizeof(bid))) > 0)
			add_entry(&buf, &len, &cap, PD_MISC_USER, bid, n, d->dsos[i].path);
	*size = len;
	return buf;
}
