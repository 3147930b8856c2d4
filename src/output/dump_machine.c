/*
 * dump_machine.c - the thread and map model "prof report -D" needs for a
 * sample's " ... thread: COMM:TID" and " ...... dso: NAME" lines: threads
 * by tid (comm, pid, maps shared by the threads of a process),
 * per-process sorted non-overlapping address ranges naming their dso,
 * and the kernel's ranges (kernel MMAP, modules, KSYMBOL).  perf loads
 * kernel symbols on the first hit of the kernel map and shrinks the map
 * to them; that is mimicked from a kallsyms file (see kernel_map_load()).
 *
 * Invariants: ranges never overlap; names live in the dump's arena.
 */
#include "dump_int.h"
#include "../symbol/symbol.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>

static struct maps *maps_new(struct dump_state *st)
{
	struct maps *m = arena_zalloc(&st->arena, sizeof(*m));

	m->next_all = st->all_maps;
	st->all_maps = m;
	return m;
}

/* Index of the first range whose end is above addr. */
static u32 maps_lower(const struct maps *m, u64 addr)
{
	u32 lo = 0, hi = m->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct map_range *maps_find(const struct maps *m, u64 addr)
{
	u32 i = maps_lower(m, addr);

	if (i < m->nr && m->v[i].start <= addr && addr < m->v[i].end)
		return &m->v[i];
	return NULL;
}

static void maps_reserve(struct maps *m, u32 extra)
{
	if (m->nr + extra <= m->alloc)
		return;
	m->alloc = m->alloc ? m->alloc * 2 : 16;
	while (m->alloc < m->nr + extra)
		m->alloc *= 2;
	m->v = xrealloc(m->v, (unsigned long)m->alloc * sizeof(*m->v));
}

/* Inserts [start, end) as perf's thread__insert_map does: ranges it
 * overlaps are cut back to the parts outside it. */
static void maps_insert(struct maps *m, u64 start, u64 end, const char *dso)
{
	u32 first, last, keep = 0;
	struct map_range before = { 0 }, after = { 0 };

	if (end <= start)
		end = start;	/* empty or wrapped: never matches */
	first = maps_lower(m, start);
	last = first;
	while (last < m->nr && m->v[last].start < end && end > start)
		last++;
	if (last > first) {
		if (m->v[first].start < start) {
			before = m->v[first];
			before.end = start;
			keep |= 1;
		}
		if (m->v[last - 1].end > end) {
			after = m->v[last - 1];
			after.start = end;
			keep |= 2;
		}
	}
	/* replace v[first, last) by before?, new, after? */
	u32 nr_new = 1 + !!(keep & 1) + !!(keep & 2);

	maps_reserve(m, nr_new);
	memmove(&m->v[first + nr_new], &m->v[last], (m->nr - last) * sizeof(*m->v));
	m->nr = m->nr - (last - first) + nr_new;
	if (keep & 1)
		m->v[first++] = before;
	m->v[first++] = (struct map_range){ start, end, dso };
	if (keep & 2)
		m->v[first] = after;
}

static void maps_remove_at(struct maps *m, u64 addr)
{
	u32 i = maps_lower(m, addr);

	if (i < m->nr && m->v[i].start <= addr && addr < m->v[i].end) {
		memmove(&m->v[i], &m->v[i + 1], (m->nr - i - 1) * sizeof(*m->v));
		m->nr--;
	}
}

static void maps_copy(struct maps *dst, const struct maps *src)
{
	for (u32 i = 0; i < src->nr; i++)
		maps_insert(dst, src->v[i].start, src->v[i].end, src->v[i].dso);
}

static u64 tid_hash(int tid)
{
	u64 h = (u64)(u32)tid * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static struct thread **thread_slot(struct dump_state *st, int tid)
{
	u64 i = tid_hash(tid) & st->thread_mask;

	while (st->threads[i] && st->threads[i]->tid != tid)
		i = (i + 1) & st->thread_mask;
	return &st->threads[i];
}

static void threads_grow(struct dump_state *st)
{
	struct thread **old = st->threads;
	u64 old_size = st->thread_mask + 1;

	st->thread_mask = old_size * 2 - 1;
	st->threads = xcalloc(old_size * 2, sizeof(*st->threads));
	for (u64 i = 0; i < old_size; i++)
		if (old[i])
			*thread_slot(st, old[i]->tid) = old[i];
	free(old);
}

static struct thread *thread_findnew(struct dump_state *st, int pid, int tid, int create);

/* perf's machine__update_thread_pid(): a thread first seen without a pid
 * learns it and joins its leader's maps. */
static void thread_update_pid(struct dump_state *st, struct thread *t, int pid)
{
	struct thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = thread_findnew(st, pid, pid, 1);
	if (!leader->maps)
		leader->maps = maps_new(st);
	t->maps = leader->maps;
}

/* perf's machine__findnew_thread() (create) / machine__find_thread(). */
static struct thread *thread_findnew(struct dump_state *st, int pid, int tid, int create)
{
	struct thread **slot = thread_slot(st, tid);
	struct thread *t = *slot;
	char comm[16];

	if (t) {
		thread_update_pid(st, t, pid);
		return t;
	}
	if (!create)
		return NULL;
	t = arena_zalloc(&st->arena, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	snprintf(comm, sizeof(comm), ":%d", tid);
	t->comm = arena_strdup(&st->arena, comm);
	*slot = t;
	if (++st->nr_threads * 2 > st->thread_mask + 1)
		threads_grow(st);
	if (pid == tid || pid == -1) {
		t->maps = maps_new(st);
	} else {
		struct thread *leader = thread_findnew(st, pid, pid, 1);

		t->maps = leader->maps;
	}
	return t;
}

/* Drops the thread with this tid from the table (perf keeps it as dead). */
static void thread_remove(struct dump_state *st, int tid)
{
	u64 i = tid_hash(tid) & st->thread_mask;

	while (st->threads[i] && st->threads[i]->tid != tid)
		i = (i + 1) & st->thread_mask;
	if (!st->threads[i])
		return;
	st->threads[i] = NULL;
	st->nr_threads--;
	/* re-place the rest of the cluster */
	for (u64 j = (i + 1) & st->thread_mask; st->threads[j]; j = (j + 1) & st->thread_mask) {
		struct thread *t = st->threads[j];

		st->threads[j] = NULL;
		*thread_slot(st, t->tid) = t;
	}
}

static void thread_set_comm(struct dump_state *st, struct thread *t, const char *comm, size_t max)
{
	t->comm = arena_strndup(&st->arena, comm, max);
	t->comm_set = 1;
}

static int is_anon(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static int is_no_dso(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* perf's machine__process_kernel_mmap_event() for the host. */
static void kernel_mmap(struct dump_state *st, const char *name, u64 start, u64 len, u64 pgoff)
{
	u64 end = start + len;

	if (!strncmp(name, "[kernel.kallsyms", 16)) {
		if (start == 0 && end == 0)
			end = ~0ULL;
		for (u32 i = 0; i < st->kmaps.nr; i++) {
			if (!strcmp(st->kmaps.v[i].dso, "[kernel.kallsyms]")) {
				memmove(&st->kmaps.v[i], &st->kmaps.v[i + 1],
					(st->kmaps.nr - i - 1) * sizeof(*st->kmaps.v));
				st->kmaps.nr--;
				break;
			}
		}
		maps_insert(&st->kmaps, start, end, "[kernel.kallsyms]");
		if (pgoff) {
			st->ref_reloc_sym = name + strlen("[kernel.kallsyms]");
			st->ref_reloc_addr = pgoff;
		}
	} else if (name[0] == '/' || name[0] == '[') {
		maps_insert(&st->kmaps, start, end, arena_strdup(&st->arena, name));
	}
}

/* perf's map__new(): the dso name a user mapping gets. */
static const char *user_dso_name(struct dump_state *st, const struct thread *t, const char *name,
				 u32 prot, u32 flags)
{
	char buf[64];

	if (!strcmp(name, "[vdso]"))
		return "[vdso]";
	if ((is_anon(name) || (flags & 0x40000 /* MAP_HUGETLB */) || is_no_dso(name)) &&
	    t->pid != 0 && (prot & 4 /* PROT_EXEC */)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", t->pid);
		return arena_strdup(&st->arena, buf);
	}
	return name;
}

/* Reads a kallsyms file as perf's dso__load_kallsyms() does and returns
 * the range perf's map__fixup_start/end() give the kernel map: first
 * kernel symbol to the end of the last one.  Returns 0 on success. */
static int kallsyms_range(const char *path, const char *ref_sym, u64 *ref_addr, u64 *startp,
			  u64 *endp)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	u64 lo = ~0ULL, hi = 0, next_after_hi = ~0ULL;
	int have = 0, hi_is_last = 1, have_ref = !ref_sym;

	if (!fp)
		return -1;
	/* first pass: lowest and highest kernel (non-module) symbol */
	while (fgets(line, sizeof(line), fp)) {
		char type, *name, *end;
		u64 addr = strtoull(line, &end, 16);

		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		name[strcspn(name, "\n")] = 0;
		if (ref_sym && !have_ref && strchr("TtWw", type) && !strcmp(name, ref_sym)) {
			*ref_addr = addr;
			have_ref = 1;
		}
		if (!strchr("TtWwDdBb", type) || name[0] == '$' || strchr(name, '['))
			continue;
		if (addr < lo)
			lo = addr;
		if (addr >= hi) {
			hi = addr;
			have = 1;
		}
	}
	if (!have || !have_ref) {
		fclose(fp);
		return -1;
	}
	/* second pass: the symbol after the highest kernel one */
	rewind(fp);
	while (fgets(line, sizeof(line), fp)) {
		char type, *name, *end;
		u64 addr = strtoull(line, &end, 16);

		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		if (!strchr("TtWwDdBb", type) || name[0] == '$')
			continue;
		if (addr > hi && addr < next_after_hi) {
			next_after_hi = addr;
			hi_is_last = 0;
		}
	}
	fclose(fp);
	*startp = lo;
	if (hi_is_last)
		*endp = ((hi + 4095) & ~4095ULL) + 4096;
	else
		*endp = (hi + 4096 + 4095) & ~4095ULL;	/* a module symbol follows */
	return 0;
}

/* perf's map__load() of the kernel map: with no build-id, or the running
 * kernel's, or one in the build-id cache, perf loads a kallsyms file and
 * shrinks the map to its symbols; otherwise loading fails and nothing
 * changes.  It runs once, on the first lookup that hits the map. */
static void kernel_map_load(struct dump_state *st, struct map_range *m)
{
	char path[4200] = "/proc/kallsyms";
	u8 host[20];
	int host_size;
	u64 start, end;

	st->kernel_loaded = 1;
	if (st->kernel_bid_size) {
		host_size = host_kernel_build_id(host, sizeof(host));
		if (host_size != st->kernel_bid_size || memcmp(host, st->kernel_bid, host_size)) {
			const char *home = getenv("HOME");
			int n;

			if (!home)
				return;
			n = snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/", home);
			for (int i = 0; i < st->kernel_bid_size && n + 2 < (int)sizeof(path); i++)
				n += snprintf(path + n, sizeof(path) - n, "%02x", st->kernel_bid[i]);
			snprintf(path + n, sizeof(path) - n, "/kallsyms");
		}
	}
	u64 ref = 0, delta = 0;

	if (kallsyms_range(path, st->ref_reloc_sym, &ref, &start, &end))
		return;
	/* perf's kallsyms__delta(): the file's kernel may sit elsewhere */
	if (st->ref_reloc_sym)
		delta = ref - st->ref_reloc_addr;
	m->start = start - delta;
	m->end = end - delta;
	/* keep the array sorted: the kernel map moves as a whole */
	{
		struct map_range moved = *m;
		u32 i = (u32)(m - st->kmaps.v);

		memmove(&st->kmaps.v[i], &st->kmaps.v[i + 1], (st->kmaps.nr - i - 1) * sizeof(*m));
		st->kmaps.nr--;
		maps_insert(&st->kmaps, moved.start, moved.end, moved.dso);
	}
}

/* A kernel-space lookup as perf's thread__find_map() does it, loading the
 * kernel map on its first hit (after the caller used the result). */
static const struct map_range *kernel_lookup(struct dump_state *st, u64 addr, const char **dso)
{
	const struct map_range *m = maps_find(&st->kmaps, addr);

	*dso = m ? m->dso : NULL;
	if (m && !st->kernel_loaded && !strcmp(m->dso, "[kernel.kallsyms]"))
		kernel_map_load(st, (struct map_range *)m);
	return m;
}

/* What perf's report does after printing a sample that can touch the
 * kernel map: callchain resolution and, in branch mode, branch targets. */
void dump_touch_kernel_map(struct dump_state *st, const struct pd_evsel *e,
			   const struct pd_sample *s)
{
	const char *dso;

	if (st->kernel_loaded)
		return;
	if (e->attr.sample_type & PD_SAMPLE_CALLCHAIN) {
		int kernel = 0;

		for (u64 i = 0; i < s->callchain_nr && !st->kernel_loaded; i++) {
			u64 ip = pd_get64(s->callchain + 8 * i);

			if (ip >= PD_CONTEXT_MAX)
				kernel = ip == PD_CONTEXT_KERNEL;
			else if (kernel)
				kernel_lookup(st, ip, &dso);
		}
	}
	if (st->branch_mode && (e->attr.sample_type & PD_SAMPLE_BRANCH_STACK)) {
		for (u64 i = 0; i < 2 * s->branch_nr && !st->kernel_loaded; i++) {
			u64 addr = pd_get64(s->branch + 8 * (i + i / 2));

			if (addr >= (1ULL << 63))
				kernel_lookup(st, addr, &dso);
		}
	}
}

/* perf's machine__resolve() as far as it prints: thread and dso. */
void dump_print_resolve(struct dump_state *st, const struct pd_sample *s, u16 misc)
{
	struct thread *t = thread_findnew(st, (s32)s->pid, (s32)s->tid, 1);
	u8 cpumode = misc & PD_MISC_CPUMODE_MASK;
	const struct map_range *m;
	int hv = 0;
	struct obuf *o = &st->ob;

	ob_str(o, " ... thread: ");
	ob_str(o, t->comm);
	ob_chr(o, ':');
	ob_s64(o, t->tid);
	ob_chr(o, '\n');
	const char *dso = NULL;

	/* perf's thread__find_map(): no fallback to the other address space */
	if (cpumode == PD_MISC_KERNEL) {
		kernel_lookup(st, s->ip, &dso);
	} else if (cpumode == PD_MISC_USER) {
		m = maps_find(t->maps, s->ip);
		dso = m ? m->dso : NULL;
	} else {
		hv = 1;
	}
	ob_str(o, " ...... dso: ");
	ob_str(o, dso ? dso : hv ? "[hypervisor]" : "<not found>");
	ob_chr(o, '\n');
}

/* Notes the kernel's build-id from one build-id entry (HEADER_BUILD_ID
 * feature entry or record): header, pid, 24 id bytes, file name. */
static void note_build_id(struct dump_state *st, const u8 *p, u64 size)
{
	u16 misc;
	int n;

	if (size < 40)
		return;
	misc = pd_get16(p + 4);
	if ((misc & PD_MISC_CPUMODE_MASK) != PD_MISC_KERNEL ||
	    strncmp((const char *)p + 36, "[kernel.kallsyms]", size - 36 < 17 ? size - 36 : 17))
		return;
	/* u32 pid at 8, build-id at 12, its size at 32, the name at 36 */
	n = (misc & PD_MISC_BUILD_ID_SIZE) ? p[32] : 20;
	if (n > 20)
		n = 20;
	memcpy(st->kernel_bid, p + 12, n);
	st->kernel_bid_size = n;
}

void dump_machine_build_id(struct dump_state *st, const struct rec *r)
{
	note_build_id(st, r->p, r->size);
}

void dump_machine_mmap(struct dump_state *st, const struct rec *r, u16 misc, u32 name_off,
		       u32 prot, u32 flags)
{
	u32 pid = rec32(r, 8), tid = rec32(r, 12);
	u64 start = rec64(r, 16), len = rec64(r, 24), pgoff = rec64(r, 32);
	u8 cpumode = misc & PD_MISC_CPUMODE_MASK;
	const char *name;
	struct thread *t;

	if (r->size <= name_off || !memchr(r->p + name_off, 0, r->size - name_off))
		return;		/* perf skips names without a NUL */
	name = rec_strdup(st, r, name_off);
	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL) {
		kernel_mmap(st, name, start, len, pgoff);
		return;
	}
	t = thread_findnew(st, (s32)pid, (s32)tid, 1);
	maps_insert(t->maps, start, start + len, user_dso_name(st, t, name, prot, flags));
}

void dump_machine_comm(struct dump_state *st, const struct rec *r)
{
	if (r->size <= 16 || !memchr(r->p + 16, 0, r->size - 16))
		return;
	thread_set_comm(st, thread_findnew(st, (s32)rec32(r, 8), (s32)rec32(r, 12), 1),
			(const char *)r->p + 16, r->size - 16);
}

/* perf's machine__process_fork_event(). */
void dump_machine_fork(struct dump_state *st, const struct rec *r)
{
	s32 pid = (s32)rec32(r, 8), ppid = (s32)rec32(r, 12);
	s32 tid = (s32)rec32(r, 16), ptid = (s32)rec32(r, 20);
	struct thread *thread, *parent;

	thread = thread_findnew(st, pid, tid, 0);
	parent = thread_findnew(st, ppid, ptid, 1);
	if (thread)
		thread_remove(st, tid);
	thread = thread_findnew(st, pid, tid, 1);
	if (parent->pid != ppid) {
		ob_fmt(&st->ob, "removing erroneous parent thread %d/%d\n", parent->pid, parent->tid);
		thread_remove(st, parent->tid);
		parent = thread_findnew(st, ppid, ptid, 1);
	}
	if (parent->comm_set) {
		thread->comm = parent->comm;
		thread->comm_set = 1;
	}
	if (thread->pid != parent->pid && thread->maps != parent->maps)
		maps_copy(thread->maps, parent->maps);
}

void dump_machine_ksymbol(struct dump_state *st, const struct rec *r)
{
	u64 addr = rec64(r, 8);
	u32 len = rec32(r, 16);
	u16 flags = rec16(r, 22);
	const char *name;

	if (r->size <= 24 || !memchr(r->p + 24, 0, r->size - 24))
		return;
	if (flags & 1) {	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
		const struct map_range *m = maps_find(&st->kmaps, addr);

		if (m && strcmp(m->dso, "[kernel.kallsyms]"))
			maps_remove_at(&st->kmaps, addr);
		return;
	}
	if (maps_find(&st->kmaps, addr))
		return;
	name = rec_strdup(st, r, 24);
	if (!strncmp(name, "bpf_trampoline_", 15) || !strncmp(name, "bpf_dispatcher_", 15))
		name = "";
	maps_insert(&st->kmaps, addr, addr + len, name);
}

void dump_machine_begin(struct dump_state *st, const struct pd_file *f)
{
	struct thread *idle;

	st->thread_mask = 1023;
	st->threads = xcalloc(st->thread_mask + 1, sizeof(*st->threads));
	/* perf registers the idle thread before reading any record */
	idle = thread_findnew(st, 0, 0, 1);
	thread_set_comm(st, idle, "swapper", 8);
	if (!f->needs_swap && f->feat_data[PD_FEAT_BUILD_ID]) {
		const u8 *p = f->feat_data[PD_FEAT_BUILD_ID];
		u64 size = f->feat_size[PD_FEAT_BUILD_ID], off = 0;

		while (off + 8 <= size) {
			u16 len = pd_get16(p + off + 6);

			if (len < 8 || off + len > size)
				break;
			note_build_id(st, p + off, len);
			off += len;
		}
	}
}

void dump_machine_end(struct dump_state *st)
{
	for (struct maps *m = st->all_maps; m; m = m->next_all)
		free(m->v);
	free(st->kmaps.v);
	free(st->threads);
}
