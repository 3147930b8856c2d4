/*
 * dump.c - "prof report -D" in the layout of perf 6.1's "perf report -D".
 *
 * For every record perf prints
 *
 *	\n<offset>@<file> [<size>]: event: <type>
 *	.
 *	. ... raw event: size <n> bytes
 *	.  0000:  hex bytes, 16 a line  ascii
 *	\n
 *	[cpu ][time ]<offset> [<size>]: PERF_RECORD_<NAME><decoded fields>
 *
 * where the decoded part is what the record's handler in "perf report"
 * prints (some print nothing, some ": unhandled!").  Samples go on with
 * " ... thread: COMM:TID" and " ...... dso: NAME": those need perf's
 * thread and map model, so this file keeps a minimal one: threads by tid
 * (comm, pid, maps shared by the threads of a process), per-process sorted
 * non-overlapping address ranges naming their dso, and the kernel's ranges
 * (kernel MMAP, modules, KSYMBOL).  perf loads kernel symbols on the
 * first hit of the kernel map and shrinks the map to them; that is
 * mimicked from a kallsyms file (see kernel_map_load()).  After the last
 * record come the "Aggregated stats" perf prints, with per-event sample
 * counts as perf's hists count them (per branch entry in branch mode).
 *
 * Invariants: output goes through one large buffer written with fwrite, hex
 * and decimal are formatted by hand (printf only for floats and rare
 * records); every field read from a record is bounds-checked against the
 * record's size; memory is one arena plus the growing map arrays, all
 * freed by dump_end().
 */
#include "dump.h"
#include "../format/evname.h"
#include "../symbol/symbol.h"
#include "../util/arena.h"
#include "../util/error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* The event name perf's -D shows: a stream's recorded name, where its
 * reports show the name derived from the attr. */
static const char *dump_evsel_name(const struct pd_file *f, const struct pd_evsel *e,
				   char *buf, size_t size)
{
	if (e->stream_name)
		return e->stream_name;
	return pd_evsel_name(f, e, buf, size);
}

/* ---- output buffer ---------------------------------------------------- */

#define OBUF_SIZE (1 << 20)
#define OBUF_SLACK 256		/* room any single small write may assume */

struct obuf {
	char *buf;
	size_t len;
	FILE *out;
	int failed;		/* a write to out failed */
};

static void ob_flush(struct obuf *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->out) != o->len)
		o->failed = 1;
	o->len = 0;
}

/* Makes room for n more bytes (n <= OBUF_SIZE) and returns the write point. */
static char *ob_room(struct obuf *o, size_t n)
{
	if (o->len + n > OBUF_SIZE)
		ob_flush(o);
	return o->buf + o->len;
}

static void ob_mem(struct obuf *o, const void *p, size_t n)
{
	if (n > OBUF_SIZE / 2) {
		ob_flush(o);
		if (fwrite(p, 1, n, o->out) != n)
			o->failed = 1;
		return;
	}
	memcpy(ob_room(o, n), p, n);
	o->len += n;
}

static void ob_str(struct obuf *o, const char *s)
{
	ob_mem(o, s, strlen(s));
}

static void ob_chr(struct obuf *o, char c)
{
	*ob_room(o, 1) = c;
	o->len++;
}

/* Writes the string of at most max bytes at s (a record's char array). */
static void ob_strn(struct obuf *o, const char *s, size_t max)
{
	ob_mem(o, s, strnlen(s, max));
}

static void ob_u64(struct obuf *o, u64 v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ob_mem(o, tmp + i, sizeof(tmp) - i);
}

static void ob_s64(struct obuf *o, s64 v)
{
	if (v < 0) {
		ob_chr(o, '-');
		ob_u64(o, (u64)0 - (u64)v);
	} else {
		ob_u64(o, (u64)v);
	}
}

static const char hex_digits[] = "0123456789abcdef";

/* Lowercase hex, at least width digits (zero-padded). */
static void ob_hexw(struct obuf *o, u64 v, int width)
{
	char tmp[16];
	int i = sizeof(tmp);

	do {
		tmp[--i] = hex_digits[v & 15];
		v >>= 4;
	} while (v);
	while (sizeof(tmp) - i < (size_t)width && i > 0)
		tmp[--i] = '0';
	ob_mem(o, tmp + i, sizeof(tmp) - i);
}

/* printf's "%#x": "0" for zero, else "0x" and the digits. */
static void ob_hexalt(struct obuf *o, u64 v)
{
	if (!v) {
		ob_chr(o, '0');
		return;
	}
	ob_mem(o, "0x", 2);
	ob_hexw(o, v, 1);
}

static void ob_fmt(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ob_fmt(struct obuf *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	ob_mem(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* ---- thread and map model --------------------------------------------- */

/* One address range of a process (or of the kernel) and its dso name. */
struct map_range {
	u64 start, end;		/* [start, end) */
	const char *dso;	/* long name perf prints */
};

/* The maps of one process, sorted by start, never overlapping. */
struct maps {
	struct map_range *v;
	u32 nr, alloc;
	struct maps *next_all;	/* list of every maps, for freeing */
};

struct thread {
	int pid, tid;
	const char *comm;	/* ":TID" until a COMM or fork sets one */
	int comm_set;
	struct maps *maps;	/* shared with the process leader */
};

struct dump_state {
	struct obuf ob;
	struct arena arena;	/* threads, comm strings, dso names */
	const char *name;	/* file name shown after '@' */
	struct thread **threads;	/* open addressing by tid; NULL = free */
	u64 thread_mask, nr_threads;
	struct maps *all_maps;
	struct maps kmaps;	/* kernel, modules, ksymbols */
	const char *arch;	/* "x86", "arm64", ... for register names */
	u32 nr_attrs_seen;	/* HEADER_ATTR records seen (pipe mode) */
	u64 combined_type;	/* perf's cached combined sample_type */
	struct read_period *periods;	/* SAMPLE_READ last values by id */
	u64 period_mask, nr_periods;
	u64 *hist_samples;	/* per evsel: what perf's hists count */
	u32 nr_hist;		/* entries in hist_samples */
	int branch_mode;	/* HEADER_BRANCH_STACK: perf counts branches */
	int kernel_loaded;	/* perf's map__load() of the kernel map ran */
	u8 kernel_bid[20];	/* kernel build-id from the file, if any */
	int kernel_bid_size;	/* 0 when the file has none */
	const char *ref_reloc_sym;	/* "_text" of "[kernel.kallsyms]_text" */
	u64 ref_reloc_addr;	/* that symbol's address (the MMAP's pgoff) */
};

/* Last counter value per sample id, for PERF_SAMPLE_READ deltas. */
struct read_period {
	u64 id;			/* 0 = free slot */
	u64 value;
};

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

/* ---- helpers for records ---------------------------------------------- */

struct rec {
	const u8 *p;		/* record start */
	u32 size;
};

static u64 rec64(const struct rec *r, u32 off)
{
	return off + 8 <= r->size ? pd_get64(r->p + off) : 0;
}

static u32 rec32(const struct rec *r, u32 off)
{
	return off + 4 <= r->size ? pd_get32(r->p + off) : 0;
}

static u16 rec16(const struct rec *r, u32 off)
{
	return off + 2 <= r->size ? pd_get16(r->p + off) : 0;
}

/* The NUL-terminated string at off, cut at the record's end. */
static void ob_recstr(struct obuf *o, const struct rec *r, u32 off)
{
	if (off < r->size)
		ob_strn(o, (const char *)r->p + off, r->size - off);
}

static const char *rec_strdup(struct dump_state *st, const struct rec *r, u32 off)
{
	if (off >= r->size)
		return "";
	return arena_strndup(&st->arena, (const char *)r->p + off, r->size - off);
}

/* Record names as perf 6.1's perf_event__name() gives them. */
static const char *const record_names[] = {
	[0] = "TOTAL", [1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA",
	[67] = "BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE",
	[79] = "TIME_CONV", [80] = "FEATURE", [81] = "COMPRESSED",
	[82] = "FINISHED_INIT",
};
#define NR_RECORD_NAMES (sizeof(record_names) / sizeof(record_names[0]))

static const char *record_name(u32 type)
{
	if (type >= NR_RECORD_NAMES)
		return "INVALID";
	return record_names[type] ? record_names[type] : "UNKNOWN";
}

/* The evsels perf's evlist holds when this record is processed: in pipe
 * mode only those whose HEADER_ATTR came before it. */
static u32 known_evsels(const struct dump_state *st, const struct pd_file *f)
{
	if (!f->pipe_mode)
		return f->nr_evsel;
	return st->nr_attrs_seen < f->nr_evsel ? st->nr_attrs_seen : f->nr_evsel;
}

/* perf's __evlist__combined_sample_type(): computed on first use, then
 * cached for as long as it is non-zero. */
static u64 combined_type(struct dump_state *st, const struct pd_file *f)
{
	if (!st->combined_type)
		for (u32 i = 0; i < known_evsels(st, f); i++)
			st->combined_type |= f->evsel[i].attr.sample_type;
	return st->combined_type;
}

static int evlist_sample_id_all(const struct dump_state *st, const struct pd_file *f)
{
	return known_evsels(st, f) && PD_ATTR_FLAG(&f->evsel[0].attr, PD_ATTR_SAMPLE_ID_ALL);
}

/* perf's evlist__print_tstamp(). */
static void print_tstamp(struct dump_state *st, const struct pd_file *f, u32 type, u32 cpu,
			 u64 time)
{
	u64 ct;

	if (type != PD_REC_SAMPLE && !evlist_sample_id_all(st, f)) {
		ob_str(&st->ob, "-1 -1 ");
		return;
	}
	ct = combined_type(st, f);
	if (ct & PD_SAMPLE_CPU) {
		ob_u64(&st->ob, cpu);
		ob_chr(&st->ob, ' ');
	}
	if (ct & PD_SAMPLE_TIME) {
		ob_u64(&st->ob, time);
		ob_chr(&st->ob, ' ');
	}
}

/* The ".  0000:  xx xx ...  ascii" lines of perf's trace_event(). */
static void raw_dump(struct obuf *o, const u8 *p, u32 size)
{
	ob_str(o, ".\n. ... raw event: size ");
	ob_u64(o, size);
	ob_str(o, " bytes\n");
	for (u32 off = 0; off < size; off += 16) {
		u32 n = size - off < 16 ? size - off : 16;
		char *w = ob_room(o, 128), *s = w;

		*s++ = '.';
		*s++ = ' ';
		*s++ = ' ';
		for (int sh = 12; sh >= 0; sh -= 4)
			*s++ = hex_digits[(off >> sh) & 15];
		*s++ = ':';
		*s++ = ' ';
		for (u32 i = 0; i < 16; i++) {
			if (i < n) {
				*s++ = ' ';
				*s++ = hex_digits[p[off + i] >> 4];
				*s++ = hex_digits[p[off + i] & 15];
			} else {
				*s++ = ' ';
				*s++ = ' ';
				*s++ = ' ';
			}
		}
		*s++ = ' ';
		*s++ = ' ';
		for (u32 i = 0; i < 16; i++) {
			u8 c = i < n ? p[off + i] : ' ';

			*s++ = (c >= 0x20 && c < 0x7f) ? (char)c : '.';
		}
		*s++ = '\n';
		o->len += (size_t)(s - w);
	}
	ob_chr(o, '\n');
}

/* ---- kernel-record printers ------------------------------------------- */

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

/* " PID/TID: [START(LEN) @ PGOFF", the start of MMAP and MMAP2 lines. */
static void print_map_range(struct obuf *o, u32 pid, u32 tid, u64 start, u64 len, u64 pgoff)
{
	ob_chr(o, ' ');
	ob_s64(o, (s32)pid);
	ob_chr(o, '/');
	ob_s64(o, (s32)tid);
	ob_str(o, ": [");
	ob_hexalt(o, start);
	ob_chr(o, '(');
	ob_hexalt(o, len);
	ob_str(o, ") @ ");
	ob_hexalt(o, pgoff);
}

static void do_mmap(struct dump_state *st, const struct rec *r, u16 misc)
{
	u32 pid = rec32(r, 8), tid = rec32(r, 12);
	u64 start = rec64(r, 16), len = rec64(r, 24), pgoff = rec64(r, 32);
	struct obuf *o = &st->ob;
	u8 cpumode = misc & PD_MISC_CPUMODE_MASK;
	const char *name;
	struct thread *t;

	print_map_range(o, pid, tid, start, len, pgoff);
	ob_str(o, "]: ");
	ob_chr(o, (misc & PD_MISC_MMAP_DATA) ? 'r' : 'x');
	ob_chr(o, ' ');
	ob_recstr(o, r, 40);
	ob_chr(o, '\n');

	if (r->size <= 40 || !memchr(r->p + 40, 0, r->size - 40))
		return;		/* perf skips names without a NUL */
	name = rec_strdup(st, r, 40);
	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL) {
		kernel_mmap(st, name, start, len, pgoff);
		return;
	}
	t = thread_findnew(st, (s32)pid, (s32)tid, 1);
	maps_insert(t->maps, start, start + len,
		    user_dso_name(st, t, name, (misc & PD_MISC_MMAP_DATA) ? 0 : 4, 0));
}

static void do_mmap2(struct dump_state *st, const struct rec *r, u16 misc)
{
	u32 pid = rec32(r, 8), tid = rec32(r, 12);
	u64 start = rec64(r, 16), len = rec64(r, 24), pgoff = rec64(r, 32);
	u32 prot = rec32(r, 64), flags = rec32(r, 68);
	struct obuf *o = &st->ob;
	u8 cpumode = misc & PD_MISC_CPUMODE_MASK;
	const char *name;
	struct thread *t;

	print_map_range(o, pid, tid, start, len, pgoff);
	if (misc & PD_MISC_EXACT_IP) {	/* MMAP_BUILD_ID: u8 size, 3 pad, 20 bytes */
		u32 n = r->size > 40 ? r->p[40] : 0;

		if (n > 20)
			n = 20;
		ob_str(o, " <");
		for (u32 i = 0; i < n && 44 + i < r->size; i++)
			ob_hexw(o, r->p[44 + i], 2);
		ob_chr(o, '>');
	} else {
		ob_chr(o, ' ');
		ob_hexw(o, rec32(r, 40), 2);
		ob_chr(o, ':');
		ob_hexw(o, rec32(r, 44), 2);
		ob_chr(o, ' ');
		ob_u64(o, rec64(r, 48));
		ob_chr(o, ' ');
		ob_u64(o, rec64(r, 56));
	}
	ob_str(o, "]: ");
	ob_chr(o, (prot & 1) ? 'r' : '-');
	ob_chr(o, (prot & 2) ? 'w' : '-');
	ob_chr(o, (prot & 4) ? 'x' : '-');
	ob_chr(o, (flags & 1) ? 's' : 'p');
	ob_chr(o, ' ');
	ob_recstr(o, r, 72);
	ob_chr(o, '\n');

	if (r->size <= 72 || !memchr(r->p + 72, 0, r->size - 72))
		return;
	name = rec_strdup(st, r, 72);
	if (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL) {
		kernel_mmap(st, name, start, len, pgoff);
		return;
	}
	t = thread_findnew(st, (s32)pid, (s32)tid, 1);
	maps_insert(t->maps, start, start + len, user_dso_name(st, t, name, prot, flags));
}

static void do_comm(struct dump_state *st, const struct rec *r, u16 misc)
{
	s32 pid = (s32)rec32(r, 8), tid = (s32)rec32(r, 12);
	struct obuf *o = &st->ob;

	ob_str(o, (misc & PD_MISC_MMAP_DATA) ? " exec: " : ": ");
	ob_recstr(o, r, 16);
	ob_chr(o, ':');
	ob_s64(o, pid);
	ob_chr(o, '/');
	ob_s64(o, tid);
	ob_chr(o, '\n');
	if (r->size <= 16 || !memchr(r->p + 16, 0, r->size - 16))
		return;
	thread_set_comm(st, thread_findnew(st, pid, tid, 1), (const char *)r->p + 16,
			r->size - 16);
}

static void print_task(struct obuf *o, const struct rec *r)
{
	ob_chr(o, '(');
	ob_s64(o, (s32)rec32(r, 8));
	ob_chr(o, ':');
	ob_s64(o, (s32)rec32(r, 16));
	ob_str(o, "):(");
	ob_s64(o, (s32)rec32(r, 12));
	ob_chr(o, ':');
	ob_s64(o, (s32)rec32(r, 20));
	ob_str(o, ")\n");
}

/* perf's machine__process_fork_event(). */
static void do_fork(struct dump_state *st, const struct rec *r)
{
	s32 pid = (s32)rec32(r, 8), ppid = (s32)rec32(r, 12);
	s32 tid = (s32)rec32(r, 16), ptid = (s32)rec32(r, 20);
	struct thread *thread, *parent;

	print_task(&st->ob, r);
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

static void do_ksymbol(struct dump_state *st, const struct rec *r)
{
	u64 addr = rec64(r, 8);
	u32 len = rec32(r, 16);
	u16 ksym_type = rec16(r, 20), flags = rec16(r, 22);
	struct obuf *o = &st->ob;
	const char *name;

	ob_str(o, " addr ");
	ob_hexw(o, addr, 1);
	ob_str(o, " len ");
	ob_u64(o, len);
	ob_str(o, " type ");
	ob_u64(o, ksym_type);
	ob_str(o, " flags 0x");
	ob_hexw(o, flags, 1);
	ob_str(o, " name ");
	ob_recstr(o, r, 24);
	ob_chr(o, '\n');
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

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void do_namespaces(struct dump_state *st, const struct rec *r)
{
	u64 nr = rec64(r, 16);
	struct obuf *o = &st->ob;

	ob_fmt(o, " %d/%d - nr_namespaces: %u\n\t\t[", (s32)rec32(r, 8), (s32)rec32(r, 12),
	       (u32)nr);
	if (nr > (r->size - 24u) / 16)
		nr = r->size >= 24 ? (r->size - 24u) / 16 : 0;
	for (u32 i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			ob_str(o, "\n\t\t ");
		ob_u64(o, i);
		ob_chr(o, '/');
		ob_str(o, i < 7 ? ns_names[i] : "UNKNOWN");
		ob_str(o, ": ");
		ob_u64(o, rec64(r, 24 + 16 * i));
		ob_chr(o, '/');
		ob_hexalt(o, rec64(r, 32 + 16 * i));
		ob_str(o, i + 1 != nr ? ", " : "]\n");
	}
}

static void do_switch(struct dump_state *st, const struct rec *r, u32 type, u16 misc)
{
	int out = !!(misc & PD_MISC_MMAP_DATA);
	const char *in_out = !out ? "IN         " :
			     !(misc & PD_MISC_EXACT_IP) ? "OUT        " : "OUT preempt";

	if (type == PD_REC_SWITCH) {
		ob_chr(&st->ob, ' ');
		ob_str(&st->ob, in_out);
		ob_chr(&st->ob, '\n');
		return;
	}
	ob_fmt(&st->ob, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
	       (s32)rec32(r, 8), (s32)rec32(r, 12));
}

static void do_text_poke(struct dump_state *st, const struct rec *r)
{
	u16 old_len = rec16(r, 16), new_len = rec16(r, 18);
	struct obuf *o = &st->ob;

	ob_chr(o, ' ');
	ob_hexw(o, rec64(r, 8), 1);
	ob_str(o, "  old len ");
	ob_u64(o, old_len);
	ob_str(o, " new len ");
	ob_u64(o, new_len);
	ob_chr(o, '\n');
	for (int pass = 0; pass < 2; pass++) {
		u32 base = 20 + (pass ? old_len : 0), len = pass ? new_len : old_len;

		for (u32 i = 0; i < len && base + i < r->size; i++) {
			if (i % 16 == 0)
				ob_str(o, pass ? "            New bytes:" : "            Old bytes:");
			ob_chr(o, ' ');
			ob_hexw(o, r->p[base + i], 2);
			if (i % 16 == 15 || i == len - 1 || base + i + 1 == r->size)
				ob_chr(o, '\n');
		}
	}
}

/* ---- samples ---------------------------------------------------------- */

#define PD_BRANCH_CALL_STACK (1ULL << 11)	/* branch_sample_type CALL_STACK */

static const char *const regs_x86[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};
static const char *const regs_arm[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp",
	"ip", "sp", "lr", "pc",
};

/* perf 6.1's perf_reg_name() for the architectures prof knows. */
static const char *reg_name(const char *arch, unsigned id, char *buf, size_t size)
{
	if (!strcmp(arch, "x86")) {
		if (id < 24)
			return regs_x86[id];
		if (id >= 32 && id < 64 && !(id & 1)) {
			snprintf(buf, size, "XMM%u", (id - 32) / 2);
			return buf;
		}
	} else if (!strcmp(arch, "arm")) {
		if (id < 16)
			return regs_arm[id];
	} else if (!strcmp(arch, "arm64")) {
		if (id < 29) {
			snprintf(buf, size, "x%u", id);
			return buf;
		}
		switch (id) {
		case 29: return "x29";
		case 30: return "lr";
		case 31: return "sp";
		case 32: return "pc";
		case 46: return "vg";
		}
	}
	return "unknown";
}

/* perf's normalize_arch() of the file's HEADER_ARCH (or this machine). */
static const char *file_arch(struct dump_state *st, const struct pd_file *f)
{
	const u8 *d = f->feat_data[PD_FEAT_ARCH];
	char raw[80] = "";

	if (st->arch)
		return st->arch;
	if (d && f->feat_size[PD_FEAT_ARCH] > 4) {
		u64 n = f->feat_size[PD_FEAT_ARCH] - 4;

		if (n >= sizeof(raw))
			n = sizeof(raw) - 1;
		memcpy(raw, d + 4, n);
		raw[n] = 0;
	} else {
		struct utsname u;

		if (uname(&u) == 0)
			snprintf(raw, sizeof(raw), "%s", u.machine);
		if (!f->pipe_mode)
			d = (const u8 *)1;	/* file mode: the answer is final */
	}
	if (!strcmp(raw, "x86_64") || (raw[0] == 'i' && raw[1] && raw[2] == '8' && raw[3] == '6'))
		st->arch = "x86";
	else if (!strncmp(raw, "aarch64", 7) || !strncmp(raw, "arm64", 5))
		st->arch = "arm64";
	else if (!strncmp(raw, "arm", 3) || !strcmp(raw, "sa110"))
		st->arch = "arm";
	else
		st->arch = arena_strdup(&st->arena, raw);
	if (!d) {		/* pipe mode before the ARCH feature: ask again */
		const char *a = st->arch;

		st->arch = NULL;
		return a;
	}
	return st->arch;
}

static void print_regs(struct dump_state *st, const struct pd_file *f, const char *type, u64 abi,
		       u64 mask, const u8 *regs)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	const char *arch = file_arch(st, f);
	struct obuf *o = &st->ob;
	unsigned i = 0;
	char buf[16];

	ob_str(o, "... ");
	ob_str(o, type);
	ob_str(o, " regs: mask 0x");
	ob_hexw(o, mask, 1);
	ob_str(o, " ABI ");
	ob_str(o, abi <= 2 ? abis[abi] : "unknown");
	ob_chr(o, '\n');
	for (unsigned id = 0; id < 64; id++) {
		if (!(mask >> id & 1))
			continue;
		ob_fmt(o, ".... %-5s 0x", reg_name(arch, id, buf, sizeof(buf)));
		ob_hexw(o, pd_get64(regs + 8 * i++), 16);
		ob_chr(o, '\n');
	}
}

/* Offset in the record of the STACK_USER size word. */
static u64 stack_user_offset(const struct pd_evsel *e, const struct pd_sample *s)
{
	u64 st = e->attr.sample_type, off = 8;
	u64 rf = e->attr.read_format;

	off += 8 * (u64)__builtin_popcountll(st & (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP |
						  PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ADDR |
						  PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID |
						  PD_SAMPLE_CPU | PD_SAMPLE_PERIOD));
	if (st & PD_SAMPLE_READ) {
		off += 8 * (u64)__builtin_popcountll(rf & (PD_FORMAT_TOTAL_TIME_ENABLED |
							  PD_FORMAT_TOTAL_TIME_RUNNING));
		off += (rf & PD_FORMAT_GROUP) ? 8 : 0;
		off += 8 * s->read.nr * s->read.value_words;
	}
	if (st & PD_SAMPLE_CALLCHAIN)
		off += 8 + 8 * s->callchain_nr;
	if (st & PD_SAMPLE_RAW)
		off += 4 + (u64)s->raw_size;
	if (st & PD_SAMPLE_BRANCH_STACK)
		off += 8 + ((e->attr.branch_sample_type & PD_BRANCH_HW_INDEX) ? 8 : 0) +
		       24 * s->branch_nr;
	if (st & PD_SAMPLE_REGS_USER)
		off += 8 + (s->regs_user_abi ? 8 * (u64)__builtin_popcountll(s->regs_user_mask) : 0);
	return off;
}

static const char *const branch_types[] = {
	"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
};

static void print_branches(struct obuf *o, const struct pd_evsel *e, const struct pd_sample *s)
{
	int callstack = !!(e->attr.branch_sample_type & PD_BRANCH_CALL_STACK);

	if (!callstack) {
		ob_str(o, "... branch stack: nr:");
		ob_u64(o, s->branch_nr);
	} else {
		ob_str(o, "... branch callstack: nr:");
		ob_u64(o, s->branch_nr + 1);
	}
	ob_chr(o, '\n');
	for (u64 i = 0; i < s->branch_nr; i++) {
		u64 from = pd_get64(s->branch + 24 * i), to = pd_get64(s->branch + 24 * i + 8);
		u64 fl = pd_get64(s->branch + 24 * i + 16);

		if (callstack) {
			if (i == 0) {
				ob_fmt(o, "..... %2llu: ", 0ULL);
				ob_hexw(o, to, 16);
				ob_chr(o, '\n');
			}
			ob_fmt(o, "..... %2llu: ", (unsigned long long)i + 1);
			ob_hexw(o, from, 16);
			ob_chr(o, '\n');
			continue;
		}
		u32 type = (u32)(fl >> 20) & 15;

		ob_fmt(o, "..... %2llu: ", (unsigned long long)i);
		ob_hexw(o, from, 16);
		ob_str(o, " -> ");
		ob_hexw(o, to, 16);
		ob_fmt(o, " %hu cycles %s%s%s%s %x %s\n", (unsigned short)(fl >> 4),
		       (fl & 1) ? "M" : " ", (fl & 2) ? "P" : " ", (fl & 8) ? "A" : " ",
		       (fl & 4) ? "T" : " ", (unsigned)(fl >> 33), type ? branch_types[type] : "");
	}
}

/* perf's callchain__lbr_callstack_printf(): the kernel part of the
 * callchain, then the user stack the LBR recorded. */
static void print_lbr_callchain(struct obuf *o, const struct pd_sample *s)
{
	u64 i, kernel_nr;

	for (i = 0; i < s->callchain_nr; i++)
		if (pd_get64(s->callchain + 8 * i) == PD_CONTEXT_USER)
			break;
	if (i == s->callchain_nr || !s->branch_nr)
		return;
	kernel_nr = i + 1;
	ob_str(o, "... LBR call chain: nr:");
	ob_u64(o, kernel_nr + s->branch_nr + 1);
	ob_chr(o, '\n');
	for (i = 0; i < kernel_nr; i++) {
		ob_fmt(o, "..... %2d: ", (int)i);
		ob_hexw(o, pd_get64(s->callchain + 8 * i), 16);
		ob_chr(o, '\n');
	}
	ob_fmt(o, "..... %2d: ", (int)kernel_nr);
	ob_hexw(o, pd_get64(s->branch + 8), 16);
	ob_chr(o, '\n');
	for (i = 0; i < s->branch_nr; i++) {
		ob_fmt(o, "..... %2d: ", (int)(i + kernel_nr + 1));
		ob_hexw(o, pd_get64(s->branch + 24 * i), 16);
		ob_chr(o, '\n');
	}
}

static void page_size_name(u64 n, char *buf, size_t size)
{
	static const char units[] = "BKMG";
	int i = 0;

	if (!n) {
		snprintf(buf, size, "N/A");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%llu%c", (unsigned long long)n, units[i]);
}

static void print_read(struct obuf *o, const struct pd_evsel *e, const struct pd_sample *s)
{
	u64 rf = e->attr.read_format;
	u32 w = s->read.value_words;

	ob_str(o, "... sample_read:\n");
	if (rf & PD_FORMAT_TOTAL_TIME_ENABLED) {
		ob_str(o, "...... time enabled ");
		ob_hexw(o, s->read.time_enabled, 16);
		ob_chr(o, '\n');
	}
	if (rf & PD_FORMAT_TOTAL_TIME_RUNNING) {
		ob_str(o, "...... time running ");
		ob_hexw(o, s->read.time_running, 16);
		ob_chr(o, '\n');
	}
	if (rf & PD_FORMAT_GROUP) {
		ob_str(o, ".... group nr ");
		ob_u64(o, s->read.nr);
		ob_chr(o, '\n');
	}
	for (u64 i = 0; i < s->read.nr; i++) {
		const u8 *v = s->read.values + 8 * w * i;
		u32 k = 1;

		ob_str(o, "..... id ");
		ob_hexw(o, (rf & PD_FORMAT_ID) ? pd_get64(v + 8 * k++) : 0, 16);
		ob_str(o, ", value ");
		ob_hexw(o, pd_get64(v), 16);
		if (rf & PD_FORMAT_LOST) {
			ob_str(o, ", lost ");
			ob_u64(o, pd_get64(v + 8 * k));
		}
		ob_chr(o, '\n');
	}
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
static void touch_kernel_map(struct dump_state *st, const struct pd_evsel *e,
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
static void print_resolve(struct dump_state *st, const struct pd_sample *s, u16 misc)
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

/* Counts a resolved sample the way perf's hists count it: once, or once
 * per branch entry in branch mode. */
static void count_hist_sample(struct dump_state *st, const struct pd_evsel *e,
			      const struct pd_sample *s)
{
	if (e->idx >= st->nr_hist) {
		u32 n = e->idx + 16;

		st->hist_samples = xrealloc(st->hist_samples, n * sizeof(*st->hist_samples));
		memset(st->hist_samples + st->nr_hist, 0, (n - st->nr_hist) * sizeof(u64));
		st->nr_hist = n;
	}
	if (!st->branch_mode)
		st->hist_samples[e->idx]++;
	else if (e->attr.sample_type & PD_SAMPLE_BRANCH_STACK)
		st->hist_samples[e->idx] += s->branch_nr;
}

static struct read_period *period_slot(struct dump_state *st, u64 id)
{
	u64 i = (id * 0x9e3779b97f4a7c15ULL) & st->period_mask;

	while (st->periods[i].id && st->periods[i].id != id)
		i = (i + 1) & st->period_mask;
	return &st->periods[i];
}

/* perf's deliver_sample_value(): a SAMPLE_READ sample is resolved once per
 * counter whose value moved since the last sample with its id. */
static void resolve_read_value(struct dump_state *st, const struct pd_file *f,
			       const struct pd_sample *s, u64 id, u64 value, u16 misc)
{
	struct pd_evsel *e = id ? pd_evsel_by_id(f, id) : NULL;
	struct read_period *p;

	if (!e)
		return;
	if (!st->periods) {
		st->period_mask = 255;
		st->periods = xcalloc(256, sizeof(*st->periods));
	}
	p = period_slot(st, id);
	if (!p->id) {
		p->id = id;
		if (++st->nr_periods * 2 > st->period_mask + 1) {
			struct read_period *old = st->periods;
			u64 n = st->period_mask + 1;

			st->period_mask = 2 * n - 1;
			st->periods = xcalloc(2 * n, sizeof(*st->periods));
			for (u64 i = 0; i < n; i++)
				if (old[i].id)
					*period_slot(st, old[i].id) = old[i];
			free(old);
			p = period_slot(st, id);
		}
	}
	if (value == p->value)
		return;
	p->value = value;
	print_resolve(st, s, misc);
	count_hist_sample(st, e, s);
	touch_kernel_map(st, e, s);
}

static void do_sample(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
		      const struct pd_sample *sp)
{
	const struct pd_evsel *e = ev->evsel;
	const struct pd_header *hdr = ev->hdr;
	struct obuf *o = &st->ob;
	const struct pd_sample s = *sp;
	u64 type;
	char buf[32];

	ob_str(o, "(IP, 0x");
	ob_hexw(o, hdr->misc, 1);
	ob_str(o, "): ");
	ob_s64(o, (s32)s.pid);
	ob_chr(o, '/');
	ob_s64(o, (s32)s.tid);
	ob_str(o, ": ");
	ob_hexalt(o, s.ip);
	ob_str(o, " period: ");
	ob_u64(o, s.period);
	ob_str(o, " addr: ");
	ob_hexalt(o, s.addr);
	ob_chr(o, '\n');

	type = e->attr.sample_type;
	if ((type & PD_SAMPLE_CALLCHAIN) && (e->attr.branch_sample_type & PD_BRANCH_CALL_STACK))
		print_lbr_callchain(o, &s);
	if (type & PD_SAMPLE_CALLCHAIN) {
		ob_str(o, "... FP chain: nr:");
		ob_u64(o, s.callchain_nr);
		ob_chr(o, '\n');
		for (u64 i = 0; i < s.callchain_nr; i++) {
			char *w = ob_room(o, 64);

			if (i < 10) {
				memcpy(w, ".....  ", 7);
				w[7] = (char)('0' + i);
				o->len += 8;
			} else {
				ob_str(o, "..... ");
				ob_u64(o, i);
			}
			ob_str(o, ": ");
			ob_hexw(o, pd_get64(s.callchain + 8 * i), 16);
			ob_chr(o, '\n');
		}
	}
	if (type & PD_SAMPLE_BRANCH_STACK)
		print_branches(o, e, &s);
	if ((type & PD_SAMPLE_REGS_USER) && s.regs_user_abi)
		print_regs(st, f, "user", s.regs_user_abi, s.regs_user_mask, s.regs_user);
	if ((type & PD_SAMPLE_REGS_INTR) && s.regs_intr_abi)
		print_regs(st, f, "intr", s.regs_intr_abi, s.regs_intr_mask, s.regs_intr);
	if (type & PD_SAMPLE_STACK_USER) {
		ob_str(o, "... ustack: size ");
		ob_u64(o, s.stack_user_size ? s.stack_user_dyn_size : 0);
		ob_str(o, ", offset 0x");
		ob_hexw(o, stack_user_offset(e, &s), 1);
		ob_chr(o, '\n');
	}
	if (type & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)) {
		ob_str(o, "... weight: ");
		if (type & PD_SAMPLE_WEIGHT_STRUCT) {
			ob_u64(o, s.weight & 0xffffffff);
			ob_str(o, ",0x");
			ob_hexw(o, (s.weight >> 32) & 0xffff, 1);
			ob_str(o, ",0x");
			ob_hexw(o, s.weight >> 48, 1);
		} else {
			ob_u64(o, s.weight);
		}
		ob_chr(o, '\n');
	}
	if (type & PD_SAMPLE_DATA_SRC) {
		ob_str(o, " . data_src: 0x");
		ob_hexw(o, s.data_src, 1);
		ob_chr(o, '\n');
	}
	if (type & PD_SAMPLE_PHYS_ADDR) {
		ob_str(o, " .. phys_addr: 0x");
		ob_hexw(o, s.phys_addr, 1);
		ob_chr(o, '\n');
	}
	if (type & PD_SAMPLE_DATA_PAGE_SIZE) {
		page_size_name(s.data_page_size, buf, sizeof(buf));
		ob_fmt(o, " .. data page size: %s\n", buf);
	}
	if (type & PD_SAMPLE_CODE_PAGE_SIZE) {
		page_size_name(s.code_page_size, buf, sizeof(buf));
		ob_fmt(o, " .. code page size: %s\n", buf);
	}
	if (type & PD_SAMPLE_TRANSACTION) {
		ob_str(o, "... transaction: ");
		ob_hexw(o, s.transaction, 1);
		ob_chr(o, '\n');
	}
	if (!(type & PD_SAMPLE_READ)) {
		print_resolve(st, &s, hdr->misc);
		count_hist_sample(st, e, &s);
		touch_kernel_map(st, e, &s);
		return;
	}
	print_read(o, e, &s);
	for (u64 i = 0; i < s.read.nr; i++) {
		const u8 *v = s.read.values + 8 * s.read.value_words * i;
		u64 id = (e->attr.read_format & PD_FORMAT_ID) ? pd_get64(v + 8) : 0;

		resolve_read_value(st, f, &s, id, pd_get64(v), hdr->misc);
		if (!(e->attr.read_format & PD_FORMAT_GROUP))
			break;
	}
}

/* ---- user-record printers --------------------------------------------- */

/* perf's cpu_map__snprint(): "0-3,5,7-8". */
static void print_cpus(struct obuf *o, const int *cpus, u32 nr)
{
	u32 start = 0;

	for (u32 i = 1; i <= nr; i++) {
		if (i < nr && cpus[i] - cpus[start] == (int)(i - start))
			continue;
		if (start)
			ob_chr(o, ',');
		ob_s64(o, cpus[start]);
		if (i - 1 > start) {
			ob_chr(o, '-');
			ob_s64(o, cpus[i - 1]);
		}
		start = i;
	}
	ob_chr(o, '\n');
}

/* Decodes perf_record_cpu_map_data at off and prints it; "what" is perf's
 * failure text. */
static void print_cpu_map_data(struct dump_state *st, const struct rec *r, u32 off,
			       const char *what)
{
	u16 type = rec16(r, off), nr = rec16(r, off + 2);
	struct obuf *o = &st->ob;
	int *cpus = NULL;
	u32 n = 0;

	if (type == 0) {		/* PERF_CPU_MAP__CPUS */
		cpus = xmalloc((nr + 1u) * sizeof(*cpus));
		for (u32 i = 0; i < nr && off + 4 + 2 * i + 2 <= r->size; i++)
			cpus[n++] = (int16_t)rec16(r, off + 4 + 2 * i);
	} else if (type == 1) {	/* PERF_CPU_MAP__MASK */
		u16 long_size = rec16(r, off + 4);
		u32 base = long_size == 8 ? off + 10 : off + 6;	/* 6.1's layout */

		if (long_size == 4 || long_size == 8) {
			cpus = xmalloc((nr * 64u + 1) * sizeof(*cpus));
			for (u32 i = 0; i < nr; i++) {
				u64 word = long_size == 8 ? rec64(r, base + 8 * i) :
							    rec32(r, base + 4 * i);

				for (u32 b = 0; b < 8u * long_size; b++)
					if (word >> b & 1)
						cpus[n++] = (int)(i * 8u * long_size + b);
			}
		}
	} else if (type == 2) {	/* PERF_CPU_MAP__RANGE_CPUS */
		u8 any = off + 2 < r->size ? r->p[off + 2] : 0;
		u16 first = rec16(r, off + 4), last = rec16(r, off + 6);

		cpus = xmalloc(((last >= first ? last - first + 1u : 0) + 2) * sizeof(*cpus));
		if (any)
			cpus[n++] = -1;
		for (u32 c = first; c <= last; c++)
			cpus[n++] = (int)c;
	}
	if (!cpus) {
		ob_str(o, what);
		return;
	}
	if (n)
		print_cpus(o, cpus, n);
	else
		ob_chr(o, '\n');
	free(cpus);
}

static void do_event_update(struct dump_state *st, const struct rec *r)
{
	struct obuf *o = &st->ob;
	u64 type = rec64(r, 8);

	ob_str(o, "\n... id:    ");
	ob_u64(o, rec64(r, 16));
	ob_chr(o, '\n');
	switch (type) {
	case 0:
		ob_str(o, "... unit:  ");
		ob_recstr(o, r, 24);
		ob_chr(o, '\n');
		break;
	case 1: {
		double scale;
		u64 bits = rec64(r, 24);

		memcpy(&scale, &bits, sizeof(scale));
		ob_fmt(o, "... scale: %f\n", scale);
		break;
	}
	case 2:
		ob_str(o, "... name:  ");
		ob_recstr(o, r, 24);
		ob_chr(o, '\n');
		break;
	case 3:
		ob_str(o, "... ");
		print_cpu_map_data(st, r, 24, "failed to get cpus\n");
		break;
	default:
		ob_str(o, "... unknown type\n");
		break;
	}
}

static void do_id_index(struct dump_state *st, const struct rec *r)
{
	u64 nr = rec64(r, 8);
	struct obuf *o = &st->ob;

	ob_str(o, " nr: ");
	ob_u64(o, (u32)nr);
	ob_chr(o, '\n');
	if (nr > (r->size - 16u) / 32)
		return;
	for (u32 i = 0; i < nr; i++) {
		u32 b = 16 + 32 * i;

		ob_str(o, " ... id: ");
		ob_u64(o, rec64(r, b));
		ob_str(o, "  idx: ");
		ob_u64(o, rec64(r, b + 8));
		ob_str(o, "  cpu: ");
		ob_s64(o, (s64)rec64(r, b + 16));
		ob_str(o, "  tid: ");
		ob_s64(o, (s64)rec64(r, b + 24));
		ob_chr(o, '\n');
	}
}

static void do_thread_map(struct dump_state *st, const struct rec *r)
{
	u64 nr = rec64(r, 8);
	struct obuf *o = &st->ob;

	ob_str(o, " nr: ");
	if (nr > (r->size - 16u) / 24) {
		ob_str(o, "failed to get threads from event\n");
		return;
	}
	ob_u64(o, nr);
	ob_str(o, nr > 1 ? " threads: " : " thread: ");
	for (u32 i = 0; i < nr; i++) {
		if (i)
			ob_str(o, ", ");
		ob_s64(o, (s32)rec64(r, 16 + 24 * i));
	}
	ob_chr(o, '\n');
}

static void do_time_conv(struct dump_state *st, const struct rec *r)
{
	struct obuf *o = &st->ob;

	ob_str(o, "\n... Time Shift      ");
	ob_u64(o, rec64(r, 8));
	ob_str(o, "\n... Time Muliplier  ");
	ob_u64(o, rec64(r, 16));
	ob_str(o, "\n... Time Zero       ");
	ob_u64(o, rec64(r, 24));
	ob_chr(o, '\n');
	if (r->size >= 56) {
		ob_str(o, "... Time Cycles     ");
		ob_u64(o, rec64(r, 32));
		ob_str(o, "\n... Time Mask       ");
		ob_hexalt(o, rec64(r, 40));
		ob_str(o, "\n... Cap Time Zero   ");
		ob_s64(o, r->p[48]);
		ob_str(o, "\n... Cap Time Short  ");
		ob_s64(o, r->p[49]);
		ob_chr(o, '\n');
	}
}

static void do_stat_config(struct dump_state *st, const struct rec *r)
{
	u64 nr = rec64(r, 8);
	s64 aggr_mode = 0, scale = 0;
	u64 interval = 0;

	for (u64 i = 0; i < nr && 16 + 16 * i + 16 <= r->size; i++) {
		u64 tag = rec64(r, 16 + 16 * i), val = rec64(r, 24 + 16 * i);

		if (tag == 0)
			aggr_mode = (s64)val;
		else if (tag == 1)
			scale = (s64)val;
		else if (tag == 2)
			interval = val;
	}
	ob_fmt(&st->ob, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n", (int)aggr_mode,
	       (int)scale, (unsigned)interval);
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

/* ---- the record dispatcher -------------------------------------------- */

static void print_kernel_record(struct dump_state *st, struct pd_file *f,
				const struct pd_event *ev, const struct rec *r)
{
	u32 type = ev->hdr->type;
	u16 misc = ev->hdr->misc;
	struct obuf *o = &st->ob;

	switch (type) {
	case PD_REC_MMAP:
		do_mmap(st, r, misc);
		break;
	case PD_REC_MMAP2:
		do_mmap2(st, r, misc);
		break;
	case PD_REC_COMM:
		do_comm(st, r, misc);
		break;
	case PD_REC_FORK:
		do_fork(st, r);
		break;
	case PD_REC_EXIT:
		print_task(o, r);
		break;
	case PD_REC_LOST:
		ob_str(o, ": id:");
		ob_u64(o, rec64(r, 8));
		ob_str(o, ": lost:");
		ob_u64(o, rec64(r, 16));
		ob_chr(o, '\n');
		break;
	case PD_REC_LOST_SAMPLES: {
		struct pd_id_trailer t = { 0 };
		u64 id = (u64)-1;

		if (ev->evsel && !pd_parse_trailer(f, ev->evsel, ev->hdr, &t) && t.valid &&
		    (ev->evsel->attr.sample_type & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER)))
			id = t.id;
		ob_str(o, ": id:");
		ob_u64(o, id);
		ob_str(o, ": lost samples :");
		ob_u64(o, rec64(r, 8));
		ob_chr(o, '\n');
		break;
	}
	case PD_REC_READ:
		ob_fmt(o, ": %d %d ", (s32)rec32(r, 8), (s32)rec32(r, 12));
		if (ev->evsel) {
			char name[256];

			ob_str(o, dump_evsel_name(f, ev->evsel, name, sizeof(name)));
		} else {
			ob_str(o, "unknown");
		}
		ob_chr(o, ' ');
		ob_u64(o, rec64(r, 16));
		ob_chr(o, '\n');
		if (ev->evsel) {
			u64 rf = ev->evsel->attr.read_format;

			if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
				ob_fmt(o, "... time enabled : %llu\n", (unsigned long long)rec64(r, 24));
			if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
				ob_fmt(o, "... time running : %llu\n", (unsigned long long)rec64(r, 32));
			if (rf & PD_FORMAT_ID)
				ob_fmt(o, "... id           : %llu\n", (unsigned long long)rec64(r, 40));
			if (rf & PD_FORMAT_LOST)
				ob_fmt(o, "... lost         : %llu\n", (unsigned long long)rec64(r, 48));
		}
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_AUX: {
		u64 flags = rec64(r, 24);

		ob_str(o, " offset: ");
		ob_hexalt(o, rec64(r, 8));
		ob_str(o, " size: ");
		ob_hexalt(o, rec64(r, 16));
		ob_str(o, " flags: ");
		ob_hexalt(o, flags);
		ob_fmt(o, " [%s%s%s]\n", (flags & 1) ? "T" : "", (flags & 2) ? "O" : "",
		       (flags & 4) ? "P" : "");
		break;
	}
	case PD_REC_ITRACE_START:
		ob_fmt(o, " pid: %u tid: %u\n", rec32(r, 8), rec32(r, 12));
		break;
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		do_switch(st, r, type, misc);
		break;
	case PD_REC_NAMESPACES:
		do_namespaces(st, r);
		break;
	case PD_REC_KSYMBOL:
		do_ksymbol(st, r);
		break;
	case PD_REC_BPF_EVENT:
		ob_fmt(o, " type %u, flags %u, id %u\n", rec16(r, 8), rec16(r, 10), rec32(r, 12));
		break;
	case PD_REC_CGROUP:
		ob_str(o, " cgroup: ");
		ob_u64(o, rec64(r, 8));
		ob_chr(o, ' ');
		ob_recstr(o, r, 16);
		ob_chr(o, '\n');
		break;
	case PD_REC_TEXT_POKE:
		do_text_poke(st, r);
		break;
	case PD_REC_AUX_OUTPUT_HW_ID:
		ob_str(o, " hw_id: ");
		ob_hexalt(o, rec64(r, 8));
		ob_chr(o, '\n');
		break;
	default:
		break;
	}
}

static void print_user_record(struct dump_state *st, const struct pd_event *ev,
			      const struct rec *r)
{
	struct obuf *o = &st->ob;

	switch (ev->hdr->type) {
	case PD_REC_HEADER_ATTR:
		st->nr_attrs_seen++;
		break;
	case PD_REC_FINISHED_ROUND:
		ob_chr(o, '\n');
		break;
	case PD_REC_HEADER_BUILD_ID:
		note_build_id(st, r->p, r->size);
		break;
	case PD_REC_ID_INDEX:
		do_id_index(st, r);
		break;
	case PD_REC_AUXTRACE_INFO:
		ob_str(o, " type: ");
		ob_u64(o, rec32(r, 8));
		ob_chr(o, '\n');
		break;
	case PD_REC_AUXTRACE:
		ob_fmt(o, " size: %#llx  offset: %#llx  ref: %#llx  idx: %u  tid: %d  cpu: %d\n",
		       (unsigned long long)rec64(r, 8), (unsigned long long)rec64(r, 16),
		       (unsigned long long)rec64(r, 24), rec32(r, 32), (s32)rec32(r, 36),
		       (s32)rec32(r, 40));
		break;
	case PD_REC_THREAD_MAP:
		do_thread_map(st, r);
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_CPU_MAP:
		ob_str(o, ": ");
		print_cpu_map_data(st, r, 8, "failed to get cpumap from event\n");
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_STAT_CONFIG:
		do_stat_config(st, r);
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_STAT:
		ob_fmt(o, "\n... id %llu, cpu %d, thread %d\n", (unsigned long long)rec64(r, 8),
		       (s32)rec32(r, 16), (s32)rec32(r, 20));
		ob_fmt(o, "... value %llu, enabled %llu, running %llu\n",
		       (unsigned long long)rec64(r, 24), (unsigned long long)rec64(r, 32),
		       (unsigned long long)rec64(r, 40));
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_STAT_ROUND:
		ob_fmt(o, "\n... time %llu, type %s\n", (unsigned long long)rec64(r, 16),
		       rec64(r, 8) == 1 ? "FINAL" : "INTERVAL");
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_EVENT_UPDATE:
		do_event_update(st, r);
		break;
	case PD_REC_TIME_CONV:
		do_time_conv(st, r);
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_AUXTRACE_ERROR:
	case PD_REC_FINISHED_INIT:
		ob_str(o, ": unhandled!\n");
		break;
	default:		/* TRACING_DATA, BUILD_ID, FEATURE: nothing */
		break;
	}
}

int dump_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct dump_ctx *ctx = vctx;
	struct dump_state *st = ctx->state;
	const struct pd_header *hdr = ev->hdr;
	struct rec r = { (const u8 *)hdr, hdr->size };
	struct obuf *o;
	struct pd_sample s;
	u32 cpu = 0;
	u64 time = 0, offset = ev->file_offset;

	if (!st)
		dump_begin(ctx, f);
	st = ctx->state;
	o = &st->ob;
	/* perf counts pipe offsets from the end of the 16-byte pipe header */
	if (f->pipe_mode && offset >= PD_PIPE_HEADER_SIZE)
		offset -= PD_PIPE_HEADER_SIZE;
	/* perf does not dump COMPRESSED records, only what they hold */
	if (hdr->type == PD_REC_COMPRESSED || hdr->type == PD_REC_COMPRESSED2)
		return 0;
	if (hdr->type == PD_REC_SAMPLE) {
		if (!ev->evsel || pd_parse_sample(f, ev->evsel, hdr, ev->file_offset, &s))
			return 0;	/* perf cannot parse it and prints nothing */
		cpu = (ev->evsel->attr.sample_type & PD_SAMPLE_CPU) ? s.cpu : (u32)-1;
		time = (ev->evsel->attr.sample_type & PD_SAMPLE_TIME) ? s.time : (u64)-1;
		if (!(ev->evsel->attr.sample_type & PD_SAMPLE_TID))
			s.pid = s.tid = (u32)-1;
		if (!(ev->evsel->attr.sample_type & PD_SAMPLE_PERIOD))
			s.period = ev->evsel->attr.sample_period;
	} else if (hdr->type < PD_REC_USER_START) {
		struct pd_id_trailer t = { 0 };
		u64 stype = ev->evsel ? ev->evsel->attr.sample_type : 0;

		cpu = (u32)-1;
		time = (u64)-1;
		if (ev->evsel && !pd_parse_trailer(f, ev->evsel, hdr, &t) && t.valid) {
			if (stype & PD_SAMPLE_CPU)
				cpu = t.cpu;
			if (stype & PD_SAMPLE_TIME)
				time = t.time;
		}
	}

	ob_chr(o, '\n');
	ob_hexalt(o, offset);
	ob_chr(o, '@');
	ob_str(o, st->name);
	ob_str(o, " [");
	ob_hexalt(o, hdr->size);
	ob_str(o, "]: event: ");
	ob_u64(o, hdr->type);
	ob_chr(o, '\n');
	raw_dump(o, r.p, r.size);
	print_tstamp(st, f, hdr->type, cpu, time);
	ob_hexalt(o, offset);
	ob_str(o, " [");
	ob_hexalt(o, hdr->size);
	ob_str(o, "]: PERF_RECORD_");
	ob_str(o, record_name(hdr->type));

	if (hdr->type == PD_REC_SAMPLE) {
		do_sample(st, f, ev, &s);
	} else if (hdr->type < PD_REC_USER_START) {
		print_kernel_record(st, f, ev, &r);
	} else {
		print_user_record(st, ev, &r);
	}
	return o->failed ? -1 : 0;
}

void dump_begin(struct dump_ctx *ctx, struct pd_file *f)
{
	struct dump_state *st = xcalloc(1, sizeof(*st));
	struct thread *idle;

	ctx->state = st;
	st->ob.buf = xmalloc(OBUF_SIZE);
	st->ob.out = ctx->out;
	arena_init(&st->arena, 0);
	st->name = f->pipe_mode ? "pipe" : ctx->file_name ? ctx->file_name : f->path;
	st->thread_mask = 1023;
	st->threads = xcalloc(st->thread_mask + 1, sizeof(*st->threads));
	/* perf registers the idle thread before reading any record */
	idle = thread_findnew(st, 0, 0, 1);
	thread_set_comm(st, idle, "swapper", 8);
	st->branch_mode = !f->pipe_mode && pd_has_feature(f, PD_FEAT_BRANCH_STACK);
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
	ob_str(&st->ob, "# To display the perf.data header info, please use "
			"--header/--header-only options.\n#\n");
}

/* perf's perf_session__fprintf_nr_events() and evlist__fprintf_nr_events(). */
static void print_stats(struct dump_state *st, const struct pd_file *f)
{
	const struct pd_stats *s = &f->stats;
	struct obuf *o = &st->ob;
	u64 total = 0;
	char name[256];

	for (u32 type = 1; type < NR_RECORD_NAMES; type++)
		total += s->nr_by_type[type];
	ob_fmt(o, "\nAggregated stats:%s\n", pd_has_feature(f, PD_FEAT_AUXTRACE) ?
	       " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	ob_fmt(o, "%16s events: %10d\n", "TOTAL", (int)total);
	for (u32 type = 1; type < NR_RECORD_NAMES; type++) {
		if (!record_names[type] || !s->nr_by_type[type])
			continue;
		ob_fmt(o, "%16s events: %10d  (%4.1f%%)\n", record_names[type],
		       (int)s->nr_by_type[type], (double)s->nr_by_type[type] / (double)total * 100.0);
	}
	for (u32 i = 0; i < f->nr_evsel; i++) {
		const struct pd_evsel *e = &f->evsel[i];
		u64 n = st->hist_samples && i < st->nr_hist ? st->hist_samples[i] : 0;

		if (!n)
			continue;
		ob_fmt(o, "%s stats:\n", dump_evsel_name(f, e, name, sizeof(name)));
		ob_fmt(o, "%16s events: %10d\n", "SAMPLE", (int)n);
	}
}

int dump_end(struct dump_ctx *ctx, struct pd_file *f, int ok)
{
	struct dump_state *st = ctx->state;
	int failed;

	if (!st)
		return 0;
	if (ok)
		print_stats(st, f);
	ob_flush(&st->ob);
	failed = st->ob.failed;
	for (struct maps *m = st->all_maps; m; m = m->next_all)
		free(m->v);
	free(st->kmaps.v);
	free(st->threads);
	free(st->periods);
	free(st->hist_samples);
	free(st->ob.buf);
	arena_free(&st->arena);
	free(st);
	ctx->state = NULL;
	return failed ? -1 : 0;
}
