/*
 * gen_ties.c - writes a synthetic perf.data built to tie, from a seed, for
 * the parity tests of tests/perf/ties.sh; not a unit test, built by the
 * unit rule so it links prof's library (its writer).
 *
 *	gen_ties OUT SEED --prog PATH [--prog PATH]... [--lib PATH]...
 *		 [--no-kernel] [--without FEATURE[,FEATURE...]] [-v]
 *
 * Every sample hits a real place of a file on this machine: the --prog
 * executables (their global functions that all of them define, so one
 * name lives in several DSOs; a copy under another directory gives two
 * DSOs of one short name), the --lib libraries (their functions, from
 * .symtab or else .dynsym; the first is mapped by every process, the
 * others by some) and, unless --no-kernel, the running kernel (text
 * symbols of /proc/kallsyms between _stext and _etext); a few frames are
 * in no function (gaps between them) or in no map.  The file is written
 * as prof record writes one: prof's writer (header, attrs, features of
 * this host, BUILD_ID of the DSOs the samples hit), the kernel and module
 * maps synthesized from /proc, then the records.
 *
 * What the seed decides (a splitmix64 stream; the same seed and files
 * give the same output):
 *  - processes (1-4), each running one of the --prog files, at bases that
 *    some processes share and others do not, its libraries mapped in an
 *    order of its own; a process starts from a COMM (as synthesized at
 *    record start) or is forked from an earlier one and execs (COMM with
 *    COMM_EXEC, new MMAP2s); 1-3 threads each (FORK), some renamed at
 *    creation, some renamed half-way (COMM with or without COMM_EXEC), a
 *    few never announced (no FORK: sampled before their first COMM); comm
 *    names come from a small pool, so different processes share names;
 *    maybe a process that exits half-way and another that then takes its
 *    pid; maybe a kernel thread (or the idle task, pid 0, with no COMM)
 *    with kernel-only chains;
 *  - call trees (abstract frames: program function k, library function k,
 *    kernel function k, gap k, unmapped address k), built to tie: sibling
 *    subtrees are often copies of one shape (equal weight), leaves may go
 *    into the kernel (chains with PERF_CONTEXT_KERNEL then
 *    PERF_CONTEXT_USER parts), frames may recur (recursion);
 *  - each root-to-leaf path is sampled in 1-3 threads (identical chains
 *    from different threads, comms, processes and DSOs) with equal weight:
 *    equal periods, or one total split into samples of unequal periods;
 *    every frame gets a random offset inside its function;
 *  - one event (cpu-clock) or two (cpu-clock and task-clock, samples
 *    with ID);
 *  - times: strictly increasing blocks (rounds, closed by FINISHED_ROUND)
 *    written in shuffled order, equal timestamps now and then, and
 *    records that arrive one round late (allowed by perf's rule).
 *
 * --without leaves features out (kernel same-name unannounced renames
 * reuse kthread odd two-events late equal-times shuffle libs), each where
 * it would have been drawn, so the rest of the seed's file stays the same:
 * a failing seed can be cut down to the feature that matters.  -v prints
 * what was generated (threads, maps, paths with names) on stderr.  Exit
 * status 0, 1 on an error (message on stderr), 2 on bad use.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "record/dsos.h"
#include "record/synth.h"
#include "format/perf_data.h"
#include "format/writer.h"

#define MAX_FILES	8
#define MAX_PROCS	6
#define MAX_THREADS	24
#define MAX_NODES	512
#define MAX_DEPTH	24
#define PERIOD_UNIT	250000ULL	/* cpu-clock at 4000 Hz */
#define TIME_START	1000000000000ULL
#define COMM_EXEC_MISC	PD_MISC_MMAP_DATA

/* ---- the seeded stream ------------------------------------------------ */

static u64 rng_state;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n) (0 when n is 0; a number is drawn either way). */
static u32 below(u32 n)
{
	u64 r = rnd();

	return n ? (u32)(r % n) : 0;
}

/* True with probability percent/100. */
static int chance(u32 percent)
{
	return below(100) < percent;
}

static void die_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("gen_ties: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die_msg("out of memory");
	return p;
}

/* ---- functions of the files -------------------------------------------- */

struct func {
	char *name;
	u64 addr;		/* link-time address (kernel: absolute) */
	u64 size;
};

/* An ELF file with its executable segment and functions. */
struct file {
	const char *path;
	int is_exec;		/* ET_EXEC: loaded at its link addresses */
	u64 seg_vaddr, seg_offset, seg_memsz;
	u64 dev_major, dev_minor, ino;
	struct func *funcs;
	u32 nr_funcs;
	struct func *gaps;	/* text no sized function covers (no name) */
	u32 nr_gaps;
};

static int by_addr(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Appends fn to *v (of *n, capacity *cap). */
static void push_func(struct func **v, u32 *n, size_t *cap, struct func fn)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = realloc(*v, *cap * sizeof(**v));
		if (!*v)
			die_msg("out of memory");
	}
	(*v)[(*n)++] = fn;
}

/* The stretches of the executable segment outside every range of the
 * n functions (sorted by address), 4 bytes or longer, into f->gaps. */
static void find_gaps(struct file *f, struct func *all, u32 n)
{
	u64 at = f->seg_vaddr, seg_end = f->seg_vaddr + f->seg_memsz;
	size_t cap = 0;

	for (u32 i = 0; i <= n; i++) {
		u64 next = i < n ? all[i].addr : seg_end;

		if (next > at + 4 && next <= seg_end)
			push_func(&f->gaps, &f->nr_gaps, &cap, (struct func){ NULL, at, next - at });
		if (i < n && all[i].addr + all[i].size > at)
			at = all[i].addr + all[i].size;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name, ((const struct func *)b)->name);
}

/* Reads path's executable PT_LOAD and its functions of 4 bytes or more
 * inside it (globals only when globals_only). */
static void load_file(struct file *f, const char *path, int globals_only)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	size_t nph, cap = 0, all_cap = 0;
	struct func *all = NULL;
	u32 nr_all = 0;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	struct stat st;
	Elf *e;
	int fd;

	f->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die_msg("cannot open %s: %s", path, strerror(errno));
	f->dev_major = major(st.st_dev);
	f->dev_minor = minor(st.st_dev);
	f->ino = st.st_ino;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh) || elf_getphdrnum(e, &nph))
		die_msg("%s: not an ELF file", path);
	f->is_exec = eh.e_type == ET_EXEC;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			f->seg_vaddr = ph.p_vaddr;
			f->seg_offset = ph.p_offset;
			f->seg_memsz = ph.p_memsz;
			break;
		}
	}
	if (!f->seg_memsz)
		die_msg("%s: no executable segment", path);
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB ||
					       (sh.sh_type == SHT_DYNSYM && !symscn)))
			symscn = scn;
	if (!symscn || !gelf_getshdr(symscn, &sh))
		die_msg("%s: no symbols", path);
	{
		Elf_Data *data = elf_getdata(symscn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_value < f->seg_vaddr ||
			    sym.st_value + sym.st_size > f->seg_vaddr + f->seg_memsz)
				continue;
			push_func(&all, &nr_all, &all_cap, (struct func){ NULL, sym.st_value, sym.st_size });
			if (sym.st_size < 4)
				continue;
			if (globals_only && GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			push_func(&f->funcs, &f->nr_funcs, &cap,
				  (struct func){ strdup(name), sym.st_value, sym.st_size });
		}
	}
	qsort(all, nr_all, sizeof(*all), by_addr);
	find_gaps(f, all, nr_all);
	free(all);
	elf_end(e);
	close(fd);
	if (!f->nr_funcs)
		die_msg("%s: no functions of 4 bytes or more", path);
	qsort(f->funcs, f->nr_funcs, sizeof(*f->funcs), by_name);	/* a stable index */
}

/* The index of name in f, or -1. */
static int find_func(const struct file *f, const char *name)
{
	struct func key = { (char *)name, 0, 0 };
	struct func *hit = bsearch(&key, f->funcs, f->nr_funcs, sizeof(key), by_name);

	return hit ? (int)(hit - f->funcs) : -1;
}

/* The kernel's text symbols between _stext and _etext, sized by the next. */
static int load_kernel(struct file *k)
{
	FILE *in = fopen("/proc/kallsyms", "r");
	u64 stext = 0, etext = 0, addr;
	char type, name[512], line[1024];
	size_t cap = 0;

	k->path = "[kernel.kallsyms]";
	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%llx %c %511s", (unsigned long long *)&addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
		if (strchr(line, '['))	/* a module's */
			continue;
		if (k->nr_funcs && k->funcs[k->nr_funcs - 1].size == 0 &&
		    addr > k->funcs[k->nr_funcs - 1].addr)
			k->funcs[k->nr_funcs - 1].size = addr - k->funcs[k->nr_funcs - 1].addr;
		if ((type != 't' && type != 'T') || !addr)
			continue;
		if (k->nr_funcs && addr == k->funcs[k->nr_funcs - 1].addr)
			continue;	/* an alias: the first name stands */
		if (k->nr_funcs == cap) {
			cap = cap ? cap * 2 : 4096;
			k->funcs = realloc(k->funcs, cap * sizeof(*k->funcs));
			if (!k->funcs)
				die_msg("out of memory");
		}
		k->funcs[k->nr_funcs++] = (struct func){ strdup(name), addr, 0 };
	}
	fclose(in);
	if (!stext || !etext)
		return -1;
	/* keep the sized text symbols well inside _stext.._etext */
	{
		u32 n = 0;

		for (u32 i = 0; i < k->nr_funcs; i++) {
			struct func *fn = &k->funcs[i];

			if (fn->addr > stext && fn->addr + fn->size < etext && fn->size >= 16 &&
			    fn->size < 65536 && strncmp(fn->name, "__pfx_", 6))
				k->funcs[n++] = *fn;
			else
				free(fn->name);
		}
		k->nr_funcs = n;
	}
	return k->nr_funcs >= 32 ? 0 : -1;
}

/* ---- the model ------------------------------------------------------------ */

enum frame_kind { FR_PROG, FR_LIB, FR_KERNEL, FR_GAP, FR_JUNK };

#define GAP_IN_PROG	255	/* frame.lib of a gap in the process's program */
#define NR_JUNK		4

/* A frame in the abstract: program function k (of whichever --prog the
 * process runs), function k of library lib, kernel function k, a place
 * no function covers (gap k, modulo their number, of library lib or of
 * the program), or unmapped address k of junk[]. */
struct frame {
	u8 kind;
	u8 lib;
	u16 k;
};

struct proc {
	u32 pid;
	int prog;		/* index in progs[] */
	u64 prog_base, lib_base[MAX_FILES];
	int has_lib[MAX_FILES];	/* maps libs[i] (libs[0] always) */
	u8 lib_order[MAX_FILES];	/* the order of its library MMAP2s */
	int parent;		/* forked from procs[parent], or -1 */
	const char *comm;	/* its first comm (after the exec when forked) */
	int kernel_thread;	/* kernel-only samples, no maps */
	int no_comm;		/* pid 0: perf calls it "swapper" unasked */
	int phase;		/* 0: lives throughout; 1: exits half-way;
				   2: starts half-way with the pid of a 1 */
};

struct thread {
	int proc;
	u32 tid;
	const char *comm;	/* at creation */
	const char *comm2;	/* after a rename half-way, or NULL */
	int rename_exec;	/* the rename is a COMM_EXEC */
	int unannounced;	/* no FORK: named ":tid" by perf until its COMM
				   (comm2, half-way) renames it in place */
	u32 rename_at;		/* sample slot of the rename */
};

struct node {
	struct frame f;
	int parent;		/* -1 at the root */
	int nr_children;
};

static struct file progs[MAX_FILES], libs[MAX_FILES], kernel_file;
static u32 nr_progs, nr_libs, prog_common;	/* progs[0]'s first prog_common functions */
static int use_kernel = 1, verbose;

/* What --without can leave out (each still draws its numbers, so the
 * rest of a seed's file stays as it was). */
enum {
	F_KERNEL = 1 << 0, F_SAME_NAME = 1 << 1, F_UNANNOUNCED = 1 << 2, F_RENAMES = 1 << 3,
	F_REUSE = 1 << 4, F_KTHREAD = 1 << 5, F_ODD = 1 << 6, F_TWO_EVENTS = 1 << 7,
	F_LATE = 1 << 8, F_EQUAL_TIMES = 1 << 9, F_SHUFFLE = 1 << 10, F_LIBS = 1 << 11,
};
static const char *const feature_names[] = {
	"kernel", "same-name", "unannounced", "renames", "reuse", "kthread", "odd",
	"two-events", "late", "equal-times", "shuffle", "libs",
};
static unsigned without;

/* drawn, unless feature f is left out */
static int feature(unsigned f, int drawn)
{
	return drawn && !(without & f);
}

static int *prog_index[MAX_FILES];	/* common function k -> index in progs[i] */

static struct proc procs[MAX_PROCS];
static struct thread threads[MAX_THREADS];
static u32 nr_procs, nr_threads;
static int pid_reused;		/* a process exits half-way, another takes its pid */

static struct frame lib_pool[32], kernel_pool[32], odd_pool[8];
static u32 lib_pool_n, kernel_pool_n, prog_pool_n, odd_pool_n;
static u16 prog_pool[32];
static u64 junk[NR_JUNK];	/* addresses no process maps */
static u32 odd_percent;		/* how often a frame is a gap or junk */
static int wide;		/* a bushy tree (hundreds of samples) */

#define NR_COMMS 5
static const char *comm_pool[NR_COMMS] = { "ties", "worker", "alpha", "sh", "beta-long-name12" };

/* ---- records ------------------------------------------------------------- */

/* One record of the data section with the time it is delivered at. */
struct item {
	u64 time;
	u64 seq;		/* creation order: the tie-break of the timeline */
	u8 *rec;
};

static struct item *items;
static size_t nr_items, cap_items;
static u8 rec_buf[65536];
static size_t rec_len;
static int two_events;
static u64 first_sample_time, last_sample_time;

static void put32(u32 v) { memcpy(rec_buf + rec_len, &v, 4); rec_len += 4; }
static void put64(u64 v) { memcpy(rec_buf + rec_len, &v, 8); rec_len += 8; }

static void put_str(const char *s)
{
	size_t n = strlen(s), padded = (n + 1 + 7) & ~(size_t)7;

	memset(rec_buf + rec_len, 0, padded);
	memcpy(rec_buf + rec_len, s, n);
	rec_len += padded;
}

static void begin(u32 type, u16 misc)
{
	struct pd_header h = { type, misc, 0 };

	memcpy(rec_buf, &h, sizeof(h));
	rec_len = sizeof(h);
}

/* The sample_id trailer: pid, tid, time, [id], cpu. */
static void trailer(u32 pid, u32 tid, u64 time, u32 cpu)
{
	put32(pid);
	put32(tid);
	put64(time);
	if (two_events)
		put64(101);
	put32(cpu);
	put32(0);
}

/* Queues the record built in rec_buf at time t. */
static void finish(u64 t)
{
	u16 size = (u16)rec_len;

	memcpy(rec_buf + 6, &size, 2);
	if (nr_items == cap_items) {
		cap_items = cap_items ? cap_items * 2 : 1024;
		items = realloc(items, cap_items * sizeof(*items));
		if (!items)
			die_msg("out of memory");
	}
	items[nr_items].time = t;
	items[nr_items].seq = nr_items;
	items[nr_items].rec = xalloc(rec_len);
	memcpy(items[nr_items].rec, rec_buf, rec_len);
	nr_items++;
}

static void emit_comm(u32 pid, u32 tid, const char *comm, int exec, u64 t)
{
	begin(PD_REC_COMM, exec ? COMM_EXEC_MISC : 0);
	put32(pid);
	put32(tid);
	put_str(comm);
	trailer(pid, tid, t, 0);
	finish(t);
}

static void emit_fork(u32 type, u32 pid, u32 ppid, u32 tid, u32 ptid, u64 t)
{
	begin(type, 0);
	put32(pid);
	put32(ppid);
	put32(tid);
	put32(ptid);
	put64(t);
	trailer(pid, tid, t, 0);
	finish(t);
}

static void emit_mmap2(u32 pid, const struct file *f, u64 base, u64 t)
{
	u64 start = base + (f->seg_vaddr & ~0xfffULL);
	u64 end = base + ((f->seg_vaddr + f->seg_memsz + 0xfff) & ~0xfffULL);

	begin(PD_REC_MMAP2, PD_MISC_USER);
	put32(pid);
	put32(pid);
	put64(start);
	put64(end - start);
	put64(f->seg_offset & ~0xfffULL);
	put32((u32)f->dev_major);
	put32((u32)f->dev_minor);
	put64(f->ino);
	put64(0);
	put32(PROT_READ | PROT_EXEC);
	put32(MAP_PRIVATE);
	put_str(f->path);
	trailer(pid, pid, t, 0);
	finish(t);
}

static void emit_maps(const struct proc *p, u64 t)
{
	emit_mmap2(p->pid, &progs[p->prog], p->prog_base, t);
	for (u32 i = 0; i < nr_libs; i++)
		if (p->has_lib[p->lib_order[i]])
			emit_mmap2(p->pid, &libs[p->lib_order[i]], p->lib_base[p->lib_order[i]], t);
}

/* ---- building the model ---------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static u64 user_base(int lib)
{
	return lib ? 0x7f0000000000ULL + ((u64)below(0x100000) << 12)
		   : 0x550000000000ULL + ((u64)below(0x100000) << 12);
}

static void make_procs(void)
{
	u32 next_pid = 1000 + below(20000), early_i, kpid;
	int reuse, kthread, idle, kworker;

	nr_procs = 1 + below(4);
	for (u32 i = 0; i < nr_procs; i++) {
		struct proc *p = &procs[i];

		p->pid = next_pid;
		next_pid += 3 + below(40);	/* room for its threads (pid + 0..2) */
		p->prog = (int)below(nr_progs);
		if (without & F_SAME_NAME)	/* the first program of its base name */
			for (int k = 0; k < p->prog; k++)
				if (!strcmp(base_name(progs[k].path), base_name(progs[p->prog].path))) {
					p->prog = k;
					break;
				}
		p->prog_base = progs[p->prog].is_exec ? 0 :
			       i && chance(30) ? procs[below(i)].prog_base : user_base(0);
		for (u32 l = 0; l < nr_libs; l++) {
			p->lib_base[l] = libs[l].is_exec ? 0 :
					 i && chance(50) ? procs[below(i)].lib_base[l] : user_base(1);
			p->has_lib[l] = !l || chance(70);
			p->lib_order[l] = (u8)l;
		}
		for (u32 l = nr_libs; l > 1; l--) {
			u32 j = below(l);
			u8 x = p->lib_order[l - 1];

			p->lib_order[l - 1] = p->lib_order[j];
			p->lib_order[j] = x;
		}
		p->parent = i && chance(60) ? (int)below(i) : -1;
		p->comm = comm_pool[below(NR_COMMS)];
	}
	reuse = feature(F_REUSE, chance(20)) && nr_procs >= 2;
	early_i = below(nr_procs - 1);
	if (reuse) {
		/* the last process takes the pid of an earlier one that exits */
		struct proc *late = &procs[nr_procs - 1], *early = &procs[early_i];

		pid_reused = 1;
		early->phase = 1;
		late->phase = 2;
		late->pid = early->pid;
		late->parent = (int)(early - procs) ? 0 : -1;	/* -1: forked by pid 1 */
	}
	kthread = feature(F_KERNEL | F_KTHREAD, chance(35)) && use_kernel && nr_procs < MAX_PROCS;
	idle = chance(40);
	kpid = 2 + below(200);
	kworker = chance(50);
	if (kthread) {
		struct proc *p = &procs[nr_procs++];

		p->parent = -1;
		p->kernel_thread = 1;
		if (idle) {
			p->pid = 0;	/* the idle task: no COMM */
			p->no_comm = 1;
			p->comm = "swapper";
		} else {
			p->pid = kpid;
			p->comm = kworker ? "kworker/0:1" : "ties";
		}
	}

	for (u32 i = 0; i < nr_procs; i++) {
		u32 n = procs[i].kernel_thread ? 1 : 1 + below(3);

		for (u32 j = 0; j < n && nr_threads < MAX_THREADS; j++) {
			struct thread *t = &threads[nr_threads++];
			int other = chance(40), unannounced = feature(F_UNANNOUNCED, chance(8)) && j;
			int renamed = feature(F_RENAMES, chance(25));
			const char *name = comm_pool[below(NR_COMMS)], *name2 = comm_pool[below(NR_COMMS)];
			int exec = chance(40);

			t->proc = (int)i;
			t->tid = procs[i].pid + j;
			t->comm = j && other ? name : procs[i].comm;
			if (unannounced) {
				t->unannounced = 1;
				t->comm2 = t->comm;
			} else if (renamed) {
				t->comm2 = name2;
				t->rename_exec = exec;
			}
		}
	}
}

static struct node nodes[MAX_NODES];
static u32 nr_nodes;

static struct frame pick_frame(int in_kernel)
{
	struct frame f = { FR_PROG, 0, 0 };
	int odd = feature(F_ODD, chance(odd_percent)) && odd_pool_n;
	u32 odd_k = below(odd_pool_n);
	int lib = feature(F_LIBS, chance(35)) && lib_pool_n;
	u32 lib_k = below(lib_pool_n), prog_k = below(prog_pool_n), kernel_k = below(kernel_pool_n);

	if (in_kernel)
		return kernel_pool[kernel_k];
	if (odd)
		return odd_pool[odd_k];
	if (lib)
		return lib_pool[lib_k];
	f.k = prog_pool[prog_k];
	return f;
}

/* Adds a node of frame f under parent and, below it, a subtree of the
 * shape of node src (a copy of its shape with new frames) or, when src
 * is -1, a new random shape; returns the node. */
static int grow(int parent, struct frame f, int depth, int src, int max_depth)
{
	int id, kernel = f.kind == FR_KERNEL;

	if (nr_nodes >= MAX_NODES)
		return -1;
	id = (int)nr_nodes++;
	nodes[id] = (struct node){ f, parent, 0 };
	if (parent >= 0)
		nodes[parent].nr_children++;
	if (src >= 0) {
		/* the same shape: as many children, each a copy of src's child's */
		for (u32 c = (u32)src + 1; c < (u32)id; c++) {	/* src's subtree is before id */
			if (nodes[c].parent != src)
				continue;
			grow(id, pick_frame(kernel || nodes[c].f.kind == FR_KERNEL), depth + 1,
			     (int)c, max_depth);
		}
		return id;
	}
	if (depth >= max_depth || (depth >= 2 && chance(15)))
		return id;	/* a leaf */
	{
		u32 r = below(10), k = depth == 0 ? 2 + (r >= 6) : r < 2 ? 1 : r < 7 ? 2 : 3;
		int bushy = wide && chance(30);
		int go_kernel = feature(F_KERNEL, chance(depth >= 2 ? 30 : 10)) && use_kernel && !kernel;
		int first = -1;
		int copy = chance(55);

		if (bushy)
			k += 2;
		for (u32 c = 0; c < k; c++) {
			struct frame cf = pick_frame(kernel || go_kernel);

			if (chance(8))	/* recursion: the parent's function again */
				cf = f;
			if (copy && first >= 0)
				grow(id, cf, depth + 1, first, max_depth);
			else if (c == 0)
				first = grow(id, cf, depth + 1, -1, max_depth);
			else
				grow(id, cf, depth + 1, -1, max_depth);
		}
	}
	return id;
}

/* ---- the samples ------------------------------------------------------------- */

/* A sample to write: a leaf path in a thread. */
struct slot {
	int leaf;		/* node index */
	int thread;
	u64 period;
	int event;		/* 0: cpu-clock, 1: task-clock */
	u32 cpu;
	u32 offsets_seed;	/* frame offsets */
};

static struct slot *slots;
static size_t nr_slots, cap_slots;

static void add_slot(struct slot s)
{
	if (nr_slots == cap_slots) {
		cap_slots = cap_slots ? cap_slots * 2 : 256;
		slots = realloc(slots, cap_slots * sizeof(*slots));
		if (!slots)
			die_msg("out of memory");
	}
	slots[nr_slots++] = s;
}

/* Frame f's address in thread t's process, at a seeded offset inside. */
static u64 frame_addr(const struct frame *f, const struct proc *p, u64 h)
{
	const struct func *fn;
	u64 base;

	switch (f->kind) {
	case FR_KERNEL:
		fn = &kernel_file.funcs[f->k];
		return fn->addr + 1 + h % (fn->size - 2);
	case FR_LIB:
		fn = &libs[f->lib].funcs[f->k];
		base = p->lib_base[f->lib];
		break;
	case FR_GAP:
		if (f->lib == GAP_IN_PROG) {
			fn = &progs[p->prog].gaps[f->k % progs[p->prog].nr_gaps];
			base = p->prog_base;
		} else {
			fn = &libs[f->lib].gaps[f->k % libs[f->lib].nr_gaps];
			base = p->lib_base[f->lib];
		}
		return base + fn->addr + (f->k * 7u + (h & 1) * 2) % fn->size;	/* one of two */
	case FR_JUNK:
		return junk[f->k];
	default:
		fn = &progs[p->prog].funcs[prog_index[p->prog][f->k]];
		base = p->prog_base;
		break;
	}
	return base + fn->addr + 1 + h % (fn->size - 2);
}

static u64 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void emit_sample(const struct slot *s, u64 t)
{
	const struct thread *th = &threads[s->thread];
	const struct proc *p = &procs[th->proc];
	int path[MAX_DEPTH + 1], n = 0, kernel_frames = 0;
	u64 nr = 0;
	size_t nr_pos;

	for (int i = s->leaf; i >= 0 && n <= MAX_DEPTH; i = nodes[i].parent)
		path[n++] = i;
	for (int i = 0; i < n; i++)
		kernel_frames += nodes[path[i]].f.kind == FR_KERNEL;
	begin(PD_REC_SAMPLE, kernel_frames ? PD_MISC_KERNEL : PD_MISC_USER);
	put64(frame_addr(&nodes[path[0]].f, p, mix(s->offsets_seed)));	/* ip */
	put32(p->pid);
	put32(th->tid);
	put64(t);
	if (two_events)
		put64(s->event ? 201 : 101);
	put32(s->cpu);
	put32(0);
	put64(s->period);
	nr_pos = rec_len;
	put64(0);
	put64(kernel_frames ? PD_CONTEXT_KERNEL : PD_CONTEXT_USER);
	nr++;
	for (int i = 0; i < n; i++) {
		if (i == kernel_frames && kernel_frames && !p->kernel_thread) {
			put64(PD_CONTEXT_USER);
			nr++;
		}
		if (i >= kernel_frames && p->kernel_thread)
			break;
		put64(frame_addr(&nodes[path[i]].f, p, mix(s->offsets_seed * 31 + (u64)i)));
		nr++;
	}
	memcpy(rec_buf + nr_pos, &nr, 8);
	finish(t);
	if (!first_sample_time || t < first_sample_time)
		first_sample_time = t;
	if (t > last_sample_time)
		last_sample_time = t;
}

/* Whether process p maps every library on the path from leaf up. */
static int maps_path(const struct proc *p, int leaf)
{
	for (int i = leaf; i >= 0; i = nodes[i].parent) {
		const struct frame *f = &nodes[i].f;

		if ((f->kind == FR_LIB || (f->kind == FR_GAP && f->lib != GAP_IN_PROG)) &&
		    !p->has_lib[f->lib])
			return 0;
	}
	return 1;
}

/* The slots of every leaf from node first on: the same weight in 1-3
 * threads (of the kernel thread when kernel, else of user processes). */
static void make_slots(u32 first, int kernel)
{
	int period_mode = (int)below(3);	/* 0 equal, 1 split, 2 mixed */
	u32 per_leaf = 1 + below(wide ? 2 : 4);

	for (u32 i = first; i < nr_nodes; i++) {
		u32 nt, weight;
		int doubled;

		if (nodes[i].nr_children)
			continue;
		nt = 1 + below(chance(50) ? 3 : 1);
		doubled = chance(30);
		weight = per_leaf * (period_mode == 2 && doubled ? 2 : 1);
		for (u32 j = 0; j < nt; j++) {
			u32 cands[MAX_THREADS], nc = 0, pick, cpu[2];
			int split;
			u64 total = weight * PERIOD_UNIT, a, offsets[2];

			for (u32 k = 0; k < nr_threads; k++)
				if (procs[threads[k].proc].kernel_thread == kernel &&
				    maps_path(&procs[threads[k].proc], (int)i))
					cands[nc++] = k;
			/* the same numbers drawn whatever is left out */
			pick = below(nc);
			split = chance(60);
			a = PERIOD_UNIT / 2 + below(weight) * PERIOD_UNIT;
			for (int k = 0; k < 2; k++) {
				cpu[k] = below(2);
				offsets[k] = rnd();
			}
			if (!nc)
				continue;
			if (period_mode == 1 && weight > 1 && split) {
				/* the same total in samples of unequal periods */
				add_slot((struct slot){ (int)i, (int)cands[pick], a, 0, cpu[0], (u32)offsets[0] });
				add_slot((struct slot){ (int)i, (int)cands[pick], total - a, 0, cpu[1],
							(u32)offsets[1] });
				continue;
			}
			for (u32 w = 0; w < weight; w++)
				add_slot((struct slot){ (int)i, (int)cands[pick], PERIOD_UNIT, 0,
							w < 2 ? cpu[w] : below(2), w < 2 ? (u32)offsets[w] : (u32)rnd() });
		}
	}
}

/* ---- the timeline ------------------------------------------------------------ */

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void describe_frame(const struct frame *f, int prog)
{
	switch (f->kind) {
	case FR_KERNEL:
		fprintf(stderr, "[k]%s", kernel_file.funcs[f->k].name);
		break;
	case FR_LIB:
		fprintf(stderr, "lib%d:%s", f->lib, libs[f->lib].funcs[f->k].name);
		break;
	case FR_GAP:
		if (f->lib == GAP_IN_PROG)
			fprintf(stderr, "gap:prog:%u", f->k);
		else
			fprintf(stderr, "gap:lib%d:%u", f->lib, f->k);
		break;
	case FR_JUNK:
		fprintf(stderr, "junk:%#llx", (unsigned long long)junk[f->k]);
		break;
	default:
		fprintf(stderr, "%s", progs[prog].funcs[prog_index[prog][f->k]].name);
		break;
	}
}

static u32 *sort_key;		/* of each slot: the order samples are taken in */

static int by_key(const void *a, const void *b)
{
	u32 x = sort_key[*(const u32 *)a], y = sort_key[*(const u32 *)b];

	return x < y ? -1 : x > y;
}

/* FORK, COMM and MMAP2s of process i and FORKs (and COMMs) of its other
 * threads, from time *t on. */
static void start_proc(u32 i, u64 *t)
{
	struct proc *p = &procs[i];

	if (p->parent >= 0 || p->phase == 2) {
		u32 ppid = p->parent >= 0 ? procs[p->parent].pid : 1;

		*t += 1000 + below(1000);
		emit_fork(PD_REC_FORK, p->pid, ppid, p->pid, ppid, *t);
		*t += 1000;
		emit_comm(p->pid, p->pid, p->comm, 1, *t);
		emit_maps(p, *t);
	}
	for (u32 k = 0; k < nr_threads; k++) {
		struct thread *th = &threads[k];

		if (th->proc != (int)i || th->tid == p->pid || th->unannounced)
			continue;
		*t += 1000 + below(1000);
		emit_fork(PD_REC_FORK, p->pid, p->pid, th->tid, p->pid, *t);
		if (strcmp(th->comm, p->comm)) {
			*t += below(2) * 1000;
			emit_comm(p->pid, th->tid, th->comm, 0, *t);
		}
	}
}

static void usage(void)
{
	fputs("usage: gen_ties OUT SEED --prog PATH [--prog PATH]... [--lib PATH]... [--no-kernel]\n"
	      "                [--without FEATURE[,FEATURE...]] [-v]\n"
	      "features: kernel same-name unannounced renames reuse kthread odd two-events\n"
	      "          late equal-times shuffle libs\n", stderr);
	exit(2);
}

/* Adds the comma-separated features of list to without. */
static void parse_without(const char *list)
{
	while (*list) {
		size_t n = strcspn(list, ","), k;

		for (k = 0; k < sizeof(feature_names) / sizeof(*feature_names); k++)
			if (strlen(feature_names[k]) == n && !strncmp(list, feature_names[k], n))
				break;
		if (k == sizeof(feature_names) / sizeof(*feature_names))
			usage();
		without |= 1u << k;
		list += n + (list[n] == ',');
	}
}

/* Collects the kernel and module maps prof record would write. */
static void collect_setup(void *arg, const void *rec, size_t size)
{
	(void)arg;
	memcpy(rec_buf, rec, size);
	rec_len = size;
	finish(0);
}

int main(int argc, char **argv)
{
	struct pw_event evs[2] = { 0 };
	u64 ids0[1] = { 101 }, ids1[1] = { 201 }, t;
	struct record_dsos *dsos;
	struct pw_file w;
	const char *out;
	u64 seed;
	char *end;
	size_t n_setup;
	int kernel_root = -1, prog_gaps = 1;
	u32 *order, half = 0;

	if (argc < 3)
		usage();
	out = argv[1];
	seed = strtoull(argv[2], &end, 0);
	if (!*argv[2] || *end)
		usage();
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--prog") && i + 1 < argc && nr_progs < MAX_FILES)
			load_file(&progs[nr_progs++], argv[++i], 1);
		else if (!strcmp(argv[i], "--lib") && i + 1 < argc && nr_libs < MAX_FILES)
			load_file(&libs[nr_libs++], argv[++i], 0);
		else if (!strcmp(argv[i], "--no-kernel"))
			without |= F_KERNEL;
		else if (!strcmp(argv[i], "--without") && i + 1 < argc)
			parse_without(argv[++i]);
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else
			usage();
	}
	if (!nr_progs)
		usage();
	use_kernel = !(without & F_KERNEL);
	if (use_kernel && load_kernel(&kernel_file))
		die_msg("no kernel text symbols in /proc/kallsyms (use --no-kernel)");

	/* functions every program defines, by progs[0]'s index */
	for (u32 i = 0; i < nr_progs; i++)
		prog_index[i] = xalloc(progs[0].nr_funcs * sizeof(int));
	for (u32 k = 0; k < progs[0].nr_funcs; k++) {
		int all = 1;

		for (u32 i = 1; i < nr_progs && all; i++)
			all = find_func(&progs[i], progs[0].funcs[k].name) >= 0;
		if (!all)
			continue;
		for (u32 i = 0; i < nr_progs; i++)
			prog_index[i][prog_common] = find_func(&progs[i], progs[0].funcs[k].name);
		prog_common++;
	}
	if (prog_common < 4)
		die_msg("the --prog files share fewer than 4 global functions");
	for (u32 i = 0; i < nr_progs; i++)
		if (!progs[i].nr_gaps)
			prog_gaps = 0;

	rng_state = seed * 0x2545f4914f6cdd1dULL + 17;
	two_events = feature(F_TWO_EVENTS, chance(30));

	/* the pools this seed draws from */
	prog_pool_n = 3 + below(prog_common < 12 ? prog_common - 3 : 9);
	for (u32 i = 0; i < prog_pool_n; i++)
		prog_pool[i] = (u16)below(prog_common);
	lib_pool_n = nr_libs ? below(8) : 0;
	for (u32 i = 0; i < lib_pool_n; i++) {
		lib_pool[i].kind = FR_LIB;
		lib_pool[i].lib = (u8)below(nr_libs);
		lib_pool[i].k = (u16)below(libs[lib_pool[i].lib].nr_funcs);
	}
	for (u32 i = 0; i < NR_JUNK; i++)
		junk[i] = chance(50) ? 0x1000 + ((u64)below(0x100000) << 4) :
				       0x7ffc00000000ULL + ((u64)below(0x1000000) << 4);
	odd_pool_n = chance(60) ? 1 + below(8) : 0;
	odd_percent = chance(25) ? 40 : 12;
	wide = chance(15);
	for (u32 i = 0; i < odd_pool_n; i++) {
		u32 r = below(10), lib = nr_libs ? below(nr_libs) : 0;

		if (r < 3)
			odd_pool[i] = (struct frame){ FR_JUNK, 0, (u16)below(NR_JUNK) };
		else if ((r < 6 || !nr_libs || !libs[lib].nr_gaps) && prog_gaps)
			odd_pool[i] = (struct frame){ FR_GAP, GAP_IN_PROG, (u16)below(1000) };
		else if (!nr_libs || !libs[lib].nr_gaps)
			odd_pool[i] = (struct frame){ FR_JUNK, 0, (u16)below(NR_JUNK) };
		else
			odd_pool[i] = (struct frame){ FR_GAP, (u8)lib, (u16)below(1000) };
	}
	kernel_pool_n = 2 + below(6);	/* unused without the kernel */
	for (u32 i = 0; i < kernel_pool_n; i++)
		kernel_pool[i] = (struct frame){ FR_KERNEL, 0, (u16)below(kernel_file.nr_funcs) };

	make_procs();
	/* one or two roots (main, a thread's start) */
	grow(-1, (struct frame){ FR_PROG, 0, prog_pool[0] }, 0, -1, 1 + (int)below(5));
	if (chance(40))
		grow(-1, pick_frame(0), 0, -1, 1 + (int)below(4));
	make_slots(0, 0);
	for (u32 i = 0; i < nr_procs; i++) {
		if (procs[i].kernel_thread) {
			kernel_root = (int)nr_nodes;
			grow(-1, kernel_pool[0], 0, -1, 1 + (int)below(3));
			make_slots((u32)kernel_root, 1);
			break;
		}
	}
	for (size_t i = 0; i < nr_slots; i++) {
		int second = chance(40);

		slots[i].event = two_events && second;
	}

	/* the timeline draws from a stream of its own, so that what the
	 * model leaves out does not move it more than it must */
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 4242;

	/* the order samples are taken in (a random key, in the first half
	 * for a process that exits half-way, in the second for the one that
	 * takes its pid), and where threads get renamed */
	order = xalloc(nr_slots * sizeof(*order));
	sort_key = xalloc(nr_slots * sizeof(*sort_key));
	for (u32 i = 0; i < nr_slots; i++) {
		int phase = procs[threads[slots[i].thread].proc].phase;

		order[i] = i;
		sort_key[i] = below(1u << 30);
		if (phase)
			sort_key[i] = sort_key[i] / 2 + (phase == 2 ? 1u << 29 : 0);
	}
	qsort(order, nr_slots, sizeof(*order), by_key);
	while (half < nr_slots && sort_key[order[half]] < 1u << 29)
		half++;
	for (u32 i = 0; i < nr_threads; i++) {
		int phase = procs[threads[i].proc].phase;

		threads[i].rename_at = phase == 1 ? below(half) :
				       phase == 2 ? half + below((u32)nr_slots - half + 1) :
				       below((u32)nr_slots + 1);
	}

	/* the start: kernel and module maps, root processes (time 0) */
	if (use_kernel) {
		struct synth ks = { 0 };

		ks.emit = collect_setup;
		ks.trailer_size = (u16)(two_events ? 32 : 24);
		synth_kernel_maps(&ks);
		synth_free(&ks);
	}
	for (u32 i = 0; i < nr_procs; i++) {
		if (procs[i].parent >= 0 || procs[i].phase == 2 || procs[i].no_comm)
			continue;
		emit_comm(procs[i].pid, procs[i].pid, procs[i].comm, 0, 0);
		if (!procs[i].kernel_thread)
			emit_maps(&procs[i], 0);
	}
	n_setup = nr_items;

	/* forks, execs and threads */
	t = TIME_START;
	for (u32 i = 0; i < nr_procs; i++)
		if (procs[i].phase != 2)
			start_proc(i, &t);

	/* the samples, with the renames among them; half-way, one process
	 * exits and another starts with its pid */
	for (u32 i = 0; i <= nr_slots; i++) {
		if (i == half && pid_reused) {
			for (u32 k = 0; k < nr_threads; k++)
				if (procs[threads[k].proc].phase == 1)
					emit_fork(PD_REC_EXIT, procs[threads[k].proc].pid,
						  procs[threads[k].proc].pid, threads[k].tid,
						  threads[k].tid, t += 1000);
			for (u32 k = 0; k < nr_procs; k++)
				if (procs[k].phase == 2)
					start_proc(k, &t);
		}
		int tie = chance(20), equal = feature(F_EQUAL_TIMES, chance(10));
		u64 step = 1000 + below(3) * 1000;

		for (u32 k = 0; k < nr_threads; k++) {
			struct thread *th = &threads[k];

			if (th->comm2 && th->rename_at == i)	/* maybe at the next sample's time */
				emit_comm(procs[th->proc].pid, th->tid, th->comm2, th->rename_exec,
					  t + (tie ? 0 : 1000));
		}
		if (i == nr_slots)
			break;
		t += equal ? 0 : step;	/* equal times now and then */
		emit_sample(&slots[order[i]], t);
	}
	t += 100000;
	for (u32 i = 0; i < nr_threads; i++) {
		int exits = chance(30);

		if (procs[threads[i].proc].phase != 1 && exits)
			emit_fork(PD_REC_EXIT, procs[threads[i].proc].pid, procs[threads[i].proc].pid,
				  threads[i].tid, threads[i].tid, t += 1000);
	}

	if (verbose) {
		fprintf(stderr, "seed %llu: %s event(s), %zu samples\n", (unsigned long long)seed,
			two_events ? "two" : "one", nr_slots);
		for (u32 i = 0; i < nr_procs; i++)
			fprintf(stderr, "  proc %u pid %u%s%s comm %s parent %d prog %s base %#llx\n", i,
				procs[i].pid, procs[i].kernel_thread ? " (kernel)" : "",
				procs[i].phase == 1 ? " (exits half-way)" :
				procs[i].phase == 2 ? " (starts half-way)" : "", procs[i].comm,
				procs[i].parent, progs[procs[i].prog].path,
				(unsigned long long)procs[i].prog_base);
		for (u32 i = 0; i < nr_threads; i++)
			fprintf(stderr, "  thread %u tid %u comm %s -> %s%s at slot %u\n", i, threads[i].tid,
				threads[i].comm, threads[i].comm2 ? threads[i].comm2 : "-",
				threads[i].rename_exec ? " (exec)" : threads[i].unannounced ? " (unannounced)" : "",
				threads[i].rename_at);
		for (u32 i = 0; i < nr_nodes; i++) {
			int d = 0;

			for (int j = nodes[i].parent; j >= 0; j = nodes[j].parent)
				d++;
			fprintf(stderr, "  %*s", 2 * d, "");
			describe_frame(&nodes[i].f, 0);
			if (!nodes[i].nr_children) {
				u64 sum = 0;
				u32 cnt = 0;

				for (size_t s = 0; s < nr_slots; s++)
					if (slots[s].leaf == (int)i) {
						sum += slots[s].period;
						cnt++;
						fprintf(stderr, " t%d", slots[s].thread);
					}
				fprintf(stderr, "  [%u samples, period %llu]", cnt, (unsigned long long)sum);
			}
			fputc('\n', stderr);
		}
	}

	/* the timeline in time order, then rounds written shuffled */
	qsort(items + n_setup, nr_items - n_setup, sizeof(*items), by_time);

	evs[0].attr.type = PD_TYPE_SOFTWARE;
	evs[0].attr.config = 0;	/* cpu-clock */
	evs[0].name = "cpu-clock";
	evs[1].attr.type = PD_TYPE_SOFTWARE;
	evs[1].attr.config = 1;	/* task-clock */
	evs[1].name = "task-clock";
	for (int e = 0; e < 2; e++) {
		struct pd_attr *a = &evs[e].attr;

		a->size = PW_ATTR_SIZE;
		a->sample_period = 4000;
		a->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_CPU |
				 PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN | (two_events ? PD_SAMPLE_ID : 0);
		a->read_format = PD_FORMAT_ID | PD_FORMAT_LOST;
		a->flags = 1ULL << PD_ATTR_DISABLED | 1ULL << PD_ATTR_INHERIT | 1ULL << PD_ATTR_FREQ |
			   1ULL << PD_ATTR_ENABLE_ON_EXEC | 1ULL << PD_ATTR_SAMPLE_ID_ALL |
			   1ULL << PD_ATTR_EXCLUDE_GUEST;
		if (!e)
			a->flags |= 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM | 1ULL << PD_ATTR_TASK |
				    1ULL << PD_ATTR_MMAP2 | 1ULL << PD_ATTR_COMM_EXEC;
	}
	evs[0].ids = ids0;
	evs[0].nr_ids = 1;
	evs[1].ids = ids1;
	evs[1].nr_ids = 1;
	if (pw_open(&w, out, evs, two_events ? 2 : 1))
		return 1;
	dsos = record_dsos_new(0);
	for (size_t i = 0; i < nr_items; i++)
		record_dsos_add(dsos, (const struct pd_header *)items[i].rec);
	for (size_t i = 0; i < n_setup; i++)
		pw_write(&w, items[i].rec, ((struct pd_header *)items[i].rec)->size);
	{
		struct pd_header init = { PD_REC_FINISHED_INIT, 0, sizeof(init) };
		struct pd_header round = { PD_REC_FINISHED_ROUND, 0, sizeof(round) };
		size_t i = n_setup, late_n = 0;
		struct item *late[8];
		int shuffle;

		rng_state = seed * 0x2545f4914f6cdd1dULL + 777;	/* the rounds' own stream */

		pw_write(&w, &init, sizeof(init));
		while (i < nr_items || late_n) {
			size_t len = 1 + below(chance(30) ? 4 : 24), end_i = i + len;
			struct item **round_items;
			size_t nr = 0;

			if (end_i > nr_items)
				end_i = nr_items;
			round_items = xalloc((end_i - i + 8) * sizeof(*round_items));
			for (size_t k = 0; k < late_n; k++)
				round_items[nr++] = late[k];
			late_n = 0;
			for (; i < end_i; i++) {
				/* a record of this round held back into the next */
				if (feature(F_LATE, chance(5)) && end_i < nr_items && late_n < 8)
					late[late_n++] = &items[i];
				else
					round_items[nr++] = &items[i];
			}
			shuffle = feature(F_SHUFFLE, chance(70));
			for (size_t k = nr; k > 1; k--) {
				size_t j = below((u32)k);
				struct item *x = round_items[k - 1];

				if (!shuffle)
					continue;
				round_items[k - 1] = round_items[j];
				round_items[j] = x;
			}
			for (size_t k = 0; k < nr; k++)
				pw_write(&w, round_items[k]->rec, ((struct pd_header *)round_items[k]->rec)->size);
			pw_write(&w, &round, sizeof(round));
			free(round_items);
		}
	}
	{
		size_t size;
		void *bids = record_dsos_build_ids(dsos, &size);
		u64 times[2] = { first_sample_time, last_sample_time };

		if (size)
			pw_add_feature(&w, PD_FEAT_BUILD_ID, bids, size);
		free(bids);
		pw_add_feature(&w, PD_FEAT_SAMPLE_TIME, times, sizeof(times));
		pw_add_host_features(&w, argc, argv, evs, two_events ? 2 : 1);
	}
	record_dsos_free(dsos);
	return pw_close(&w) ? 1 : 0;
}
