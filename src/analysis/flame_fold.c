/*
 * flame_fold.c - the flame folder (see flame_fold.h).
 *
 * Three caches stand between a sample's addresses and the trie's name ids:
 * the resolved-address cache (process or kernel, cpumode, address: a
 * frame's name without resolving it again), the symbol cache (DSO and
 * map-relative address: one library's names shared by the processes that
 * map it) and the frame-name cache (symbol, or DSO and address: a name
 * built and interned once).  The first is checked against generations:
 * pid_gens[pid % PID_GENS] counts the records that may change that
 * process's maps, kernel_gen those that may change a kernel map,
 * global_gen the records of other types.
 *
 * With two CPUs the trie is filled on a second thread: this one hands it
 * each stack through a batchq (struct stack_item, then the names).  The
 * threads share the flame but not its fields: this one interns names
 * (flame_name()), the other adds stacks (flame_add()), which reads no
 * name.
 */
#include "flame_fold.h"
#include "../symbol/symbol.h"
#include "../util/batchq.h"
#include "../util/cpu.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A frame-name cache slot: (symbol or DSO pointer with a tag, address)
 * to the interned name; a = 0 is empty. */
struct name_slot {
	u64 a, b;
	u32 id;
};

#define TAG_SYM 1	/* a: symbol pointer; b: 0 */
#define TAG_DSO 2	/* a: dso pointer (no symbol); b: address with --addrs */
#define TAG_NOMAP 3	/* a: 0 | tag; b: address with --addrs */

/* A resolved-address cache slot: the frame name of ip with cpumode in an
 * address space (see addr_space()), valid while its generations are
 * current. */
struct addr_slot {
	u64 ip;
	const struct thread *thread;
	s32 pid;
	u32 gen;		/* the process's or the kernel's generation */
	u32 global_gen;
	u32 name;
	u8 cpumode;
};

#define ADDR_SLOTS (1u << 14)

/* A symbol cache slot: the frame name of a map-relative address of a DSO,
 * shared by every process that maps it; valid while kernel_gen is the
 * folder's (a KSYMBOL may add symbols). */
struct sym_slot {
	const struct dso *dso;	/* NULL: empty */
	u64 addr;
	u32 kernel_gen;
	u32 name;
};

#define SYM_SLOTS (1u << 13)
#define PID_GENS (1u << 16)

/* A process-frame cache slot (see flame_fold.comms). */
struct comm_slot {
	const char *comm;	/* NULL: empty */
	u32 epoch;
	s32 pid, tid;
	u32 name;
};

#define COMM_SLOTS 256

struct flame_fold {
	struct fold_opts opts;
	struct flame *fl;	/* the trie filled */
	int input;		/* which of its inputs the file feeds */
	struct session *session;	/* the sample's */
	struct batchq *pipe;	/* to the thread that fills the trie, or NULL */

	u32 *stack;		/* the sample's frames as name ids */
	u32 stack_room;
	char *buf;		/* a name being built */
	size_t buf_room;
	struct name_slot *names;	/* the frame-name cache, open addressing */
	u32 names_mask, nr_names;
	struct addr_slot *addrs_cache;	/* ADDR_SLOTS, direct-mapped */
	struct sym_slot *syms_cache;	/* SYM_SLOTS, direct-mapped */
	/* generations (see above): a cached address is valid while the ones
	   it was resolved at are current */
	u32 *pid_gens;
	u32 kernel_gen, global_gen;
	/* process frames by thread, direct-mapped: an entry is valid while
	   the comm string, its epoch and the thread stay the same */
	struct comm_slot comms[COMM_SLOTS];
};

/* ---- frame names ------------------------------------------------------------ */

static char *buf_room(struct flame_fold *fo, size_t n)
{
	if (n > fo->buf_room) {
		while (fo->buf_room < n)
			fo->buf_room = fo->buf_room ? fo->buf_room * 2 : 256;
		fo->buf = xrealloc(fo->buf, fo->buf_room);
	}
	return fo->buf;
}

/*
 * stackcollapse-perf.pl's tidying of a symbol name into out (room for
 * strlen(name) + 1): ';' becomes ':', quotes go, and unless the name looks
 * like a Go method ("pkg.(*T).M") everything from the first '(' that does
 * not open "(anonymous namespace)" is cut; control characters become '?'
 * so the folded format stays one line per stack.  Returns the length.
 */
static size_t tidy_name(const char *name, char *out)
{
	const char *cut = NULL, *go = strstr(name, ".(");
	size_t n = 0;

	if (!go || !strstr(go + 2, ")."))
		for (const char *p = strchr(name, '('); p; p = strchr(p + 1, '('))
			if (strncmp(p + 1, "anonymous namespace)", 20)) {
				cut = p;
				break;
			}
	for (const char *p = name; *p && p != cut; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch == '"' || ch == '\'')
			continue;
		out[n++] = ch == ';' ? ':' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	out[n] = '\0';
	return n;
}

/* The file name perf script shows for a DSO, without its directories. */
static const char *dso_base_name(const struct dso *dso)
{
	const char *name, *slash;

	if (session_dso_is_kernel(dso))
		return dso_short_name(dso);
	name = dso_long_name(dso);
	slash = strrchr(name, '/');
	return slash ? slash + 1 : name;
}

static void grow_name_cache(struct flame_fold *fo)
{
	u32 n = fo->names_mask ? (fo->names_mask + 1) * 2 : 4096;
	struct name_slot *old = fo->names;
	u32 old_n = fo->names ? fo->names_mask + 1 : 0;

	fo->names = xcalloc(n, sizeof(*fo->names));
	fo->names_mask = n - 1;
	for (u32 i = 0; i < old_n; i++) {
		u32 s;

		if (!old[i].a)
			continue;
		s = (u32)hash_u64(old[i].a ^ hash_u64(old[i].b)) & fo->names_mask;
		while (fo->names[s].a)
			s = (s + 1) & fo->names_mask;
		fo->names[s] = old[i];
	}
	free(old);
}

/* Makes the name of a frame at ip (resolved to dso and sym) and interns it. */
static u32 make_frame_name(struct flame_fold *fo, const struct dso *dso,
			   const struct symbol *sym, u64 ip)
{
	int kernel = session_dso_is_kernel(dso);
	int jit = dso && dso->kind == DSO_KIND_JIT;
	enum flame_kind kind = FLAME_UNKNOWN;
	const char *base = dso ? dso_base_name(dso) : "unknown";
	size_t len;
	char *out;

	if (sym) {
		const char *name = symbol_name(sym);

		out = buf_room(fo, strlen(name) + 8);
		len = tidy_name(name, out);
		kind = kernel ? FLAME_KERNEL : jit ? FLAME_JIT : FLAME_USER;
	} else if (!dso && !fo->opts.addrs) {
		out = buf_room(fo, 16);
		len = (size_t)sprintf(out, "[unknown]");
	} else {
		/* the file name whole: "[memfd:x (deleted)]" */
		out = buf_room(fo, strlen(base) + 40);
		len = (size_t)sprintf(out, fo->opts.addrs ? "[%s <%llx>]" : "[%s]", base,
				      (unsigned long long)ip);
		for (size_t i = 0; i < len; i++)
			if (out[i] == ';')
				out[i] = ':';
			else if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
				out[i] = '?';
	}
	if (fo->opts.kernel_marks && kernel)
		len += (size_t)sprintf(out + len, "_[k]");
	else if (fo->opts.jit_marks && jit)
		len += (size_t)sprintf(out + len, "_[j]");
	return flame_name(fo->fl, out, len, kind);
}

/* The name id of a frame, from the cache or made once. */
static u32 frame_name(struct flame_fold *fo, const struct dso *dso, const struct symbol *sym,
		      u64 ip)
{
	u64 a, b = 0;
	u32 s;

	if (sym) {
		a = (u64)(uintptr_t)sym << 2 | TAG_SYM;
	} else {
		a = dso ? (u64)(uintptr_t)dso << 2 | TAG_DSO : TAG_NOMAP;
		if (fo->opts.addrs)
			b = ip;
	}
	s = (u32)hash_u64(a ^ hash_u64(b)) & fo->names_mask;
	while (fo->names[s].a) {
		if (fo->names[s].a == a && fo->names[s].b == b)
			return fo->names[s].id;
		s = (s + 1) & fo->names_mask;
	}
	fo->names[s].a = a;
	fo->names[s].b = b;
	fo->names[s].id = make_frame_name(fo, dso, sym, ip);
	if (++fo->nr_names * 2 > fo->names_mask + 1) {
		u32 id = fo->names[s].id;

		grow_name_cache(fo);
		return id;
	}
	return fo->names[s].id;
}

/* The process frame: the comm (spaces as '_'), with --pid "-PID", with
 * --tid "-PID/TID", as stackcollapse-perf.pl writes it. */
static u32 comm_name(struct flame_fold *fo, const struct addr_location *al)
{
	struct comm_slot *slot = &fo->comms[(u32)al->tid % COMM_SLOTS];
	size_t len;
	char *out;

	if (slot->comm == al->comm && slot->epoch == al->comm_epoch && slot->pid == al->pid &&
	    slot->tid == al->tid)
		return slot->name;
	out = buf_room(fo, strlen(al->comm) + 32);
	for (len = 0; al->comm[len]; len++) {
		unsigned char ch = (unsigned char)al->comm[len];

		out[len] = ch == ' ' ? '_' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (fo->opts.with_tid)
		len += (size_t)sprintf(out + len, "-%d/%d", al->pid, al->tid);
	else if (fo->opts.with_pid)
		len += (size_t)sprintf(out + len, "-%d", al->pid);
	slot->comm = al->comm;
	slot->epoch = al->comm_epoch;
	slot->pid = al->pid;
	slot->tid = al->tid;
	slot->name = flame_name(fo->fl, out, len, FLAME_COMM);
	return slot->name;
}

/* ---- call-chain addresses ------------------------------------------------------ */

/*
 * The frame name of a call-chain address, resolved: the map and DSO in
 * the sample's thread, then the symbol through a cache by DSO and
 * map-relative address, which the processes that map one library share
 * (not with --addrs, whose names hold the address itself).
 */
static u32 resolve_name(struct flame_fold *fo, const struct addr_location *al, u64 time,
			u8 cpumode, u64 ip)
{
	struct addr_location node;
	struct sym_slot *slot;

	if (session_resolve_addr_flags(fo->session, al, time, cpumode, ip, SESSION_NO_SYMBOL,
				       &node) || !node.dso)
		return frame_name(fo, NULL, NULL, ip);
	if (fo->opts.addrs)
		return frame_name(fo, node.dso,
				  session_find_symbol(fo->session, node.dso, node.addr), ip);
	slot = &fo->syms_cache[hash_u64((uintptr_t)node.dso ^ node.addr) & (SYM_SLOTS - 1)];
	if (slot->dso == node.dso && slot->addr == node.addr && slot->kernel_gen == fo->kernel_gen)
		return slot->name;
	slot->dso = node.dso;
	slot->addr = node.addr;
	slot->kernel_gen = fo->kernel_gen;
	slot->name = frame_name(fo, node.dso,
				session_find_symbol(fo->session, node.dso, node.addr), ip);
	return slot->name;
}

/* Whose addresses a cache entry is for: the kernel's (NULL, -1), a
 * process's (NULL, pid: its threads share its maps) or, while the pid is
 * not known, a thread's. */
static const struct thread *addr_space(const struct addr_location *al, u8 cpumode, s32 *pid)
{
	if (cpumode == PD_MISC_KERNEL) {
		*pid = -1;
		return NULL;
	}
	*pid = al->pid;
	return al->pid > 0 ? NULL : al->thread;
}

static struct addr_slot *addr_slot_of(struct flame_fold *fo, const struct thread *thread,
				       s32 pid, u8 cpumode, u64 ip)
{
	return &fo->addrs_cache[hash_u64(ip ^ (uintptr_t)thread ^ (u64)(u32)pid << 8 ^ cpumode) &
				(ADDR_SLOTS - 1)];
}

/*
 * The frame name of a call-chain address: the address resolved in the
 * sample's thread with cpumode, through a direct-mapped cache shared by
 * the threads of a process (and for kernel addresses by all).  Entries
 * live while their process's maps stay (or the kernel's).
 */
static u32 addr_name(struct flame_fold *fo, const struct addr_location *al, u64 time,
		     u8 cpumode, u64 ip)
{
	s32 pid;
	const struct thread *thread = addr_space(al, cpumode, &pid);
	struct addr_slot *slot = addr_slot_of(fo, thread, pid, cpumode, ip);
	u32 gen = cpumode != PD_MISC_KERNEL ? fo->pid_gens[(u32)pid % PID_GENS] : fo->kernel_gen;

	if (slot->gen == gen && slot->global_gen == fo->global_gen && slot->ip == ip &&
	    slot->thread == thread && slot->pid == pid && slot->cpumode == cpumode)
		return slot->name;
	slot->name = resolve_name(fo, al, time, cpumode, ip);
	slot->ip = ip;
	slot->thread = thread;
	slot->pid = pid;
	slot->cpumode = cpumode;
	slot->gen = gen;
	slot->global_gen = fo->global_gen;
	return slot->name;
}

void fold_note_record(struct flame_fold *fo, const struct pd_header *hdr)
{
	u32 pid = hdr->size >= 12 ? pd_get32((const u8 *)hdr + 8) : (u32)-1;

	switch (hdr->type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if ((hdr->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_USER) {
			fo->pid_gens[pid % PID_GENS]++;
		} else {
			fo->kernel_gen++;
			fo->global_gen++;
		}
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT:
	case PD_REC_COMM:
		fo->pid_gens[pid % PID_GENS]++;
		break;
	case PD_REC_KSYMBOL:
	case PD_REC_BPF_EVENT:
	case PD_REC_TEXT_POKE:
		fo->kernel_gen++;
		break;
	case PD_REC_LOST:
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
	case PD_REC_READ:
	case PD_REC_LOST_SAMPLES:
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE:
		break;		/* no map changes */
	default:
		if (hdr->type < PD_REC_USER_START)
			fo->global_gen++;
	}
}

/* ---- stacks ------------------------------------------------------------------- */

static void stack_room(struct flame_fold *fo, u64 n)
{
	if (n <= fo->stack_room)
		return;
	if (n > 1u << 24)
		die("call chain of %llu entries", (unsigned long long)n);
	fo->stack_room = (u32)n;
	fo->stack = xrealloc(fo->stack, fo->stack_room * sizeof(*fo->stack));
}

/*
 * The frames of the walk w, leaf first, into fo->stack[first...]; returns
 * how many (none when perf empties the chain).  The walk goes twice: a
 * copy of a begun walk is that walk begun again (it reads the chain in
 * place and allocates nothing, chain.h), and the copy's pass asks for the
 * cache slots first, so that their misses overlap.
 */
static u32 chain_frames(struct flame_fold *fo, const struct addr_location *al, u64 time,
			struct chain_walk *w, u32 first)
{
	struct chain_walk ahead = *w;
	struct chain_frame f;
	const struct thread *thread;
	u32 nr = 0;
	s32 pid;
	int r;

	while (chain_next(&ahead, &f) == CHAIN_FRAME) {
		thread = addr_space(al, f.cpumode, &pid);
		__builtin_prefetch(addr_slot_of(fo, thread, pid, f.cpumode, f.ip));
		nr++;
	}
	stack_room(fo, (u64)first + nr);
	nr = 0;
	while ((r = chain_next(w, &f)) == CHAIN_FRAME)
		fo->stack[first + nr++] = addr_name(fo, al, time, f.cpumode, f.ip);
	return r == CHAIN_DROPPED ? 0 : nr;	/* perf empties the chain */
}

static void reverse_u32(u32 *v, u32 n)
{
	for (u32 i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
		u32 t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* A stack on its way to the trie's thread; its names follow it. */
struct stack_item {
	u32 n;
	u32 input;
};

#define PIPE_BATCH (128 << 10)
#define PIPE_BATCHES 16
#define ITEM_BYTES(n) ((sizeof(struct stack_item) + (size_t)(n) * sizeof(u32) + 7) & ~(size_t)7)

static void consume_stacks(void *arg, const void *items, size_t len)
{
	struct flame *fl = arg;
	const unsigned char *p = items, *end = p + len;

	while (p < end) {
		const struct stack_item *it = (const void *)p;

		flame_add(fl, (int)it->input, (const u32 *)(it + 1), it->n, 1);
		p += ITEM_BYTES(it->n);
	}
}

/* Adds the sample's stack, fo->stack[0..n), to the trie. */
static void add_stack(struct flame_fold *fo, u32 n)
{
	struct stack_item *it;

	if (!fo->pipe || ITEM_BYTES(n) > PIPE_BATCH / 4) {
		/* a huge stack: once the other thread is idle, here */
		if (fo->pipe)
			batchq_sync(fo->pipe);
		flame_add(fo->fl, fo->input, fo->stack, n, 1);
		return;
	}
	it = batchq_alloc(fo->pipe, ITEM_BYTES(n));
	it->n = n;
	it->input = (u32)fo->input;
	memcpy(it + 1, fo->stack, (size_t)n * sizeof(u32));
}

void fold_sample(struct flame_fold *fo, struct session *s, const struct addr_location *al,
		 const struct pd_sample *sample, struct chain_walk *w)
{
	u32 n = 0, leaf_first;

	fo->session = s;
	stack_room(fo, 2);
	if (!fo->opts.merged)
		fo->stack[n++] = comm_name(fo, al);
	leaf_first = n;
	if (w) {
		n += chain_frames(fo, al, sample->time, w, n);
	} else {
		const struct symbol *sym = al->dso ? session_find_symbol(s, al->dso, al->addr) :
				     NULL;

		fo->stack[n++] = frame_name(fo, al->dso, sym, sample->ip);
	}
	/* the chain is leaf first: outermost first, unless reverse wants
	   the whole stack the other way round */
	reverse_u32(fo->stack + leaf_first, n - leaf_first);
	if (fo->opts.reverse)
		reverse_u32(fo->stack, n);
	add_stack(fo, n);
}

/* ---- the folder ----------------------------------------------------------------- */

struct flame_fold *fold_new(struct flame *fl, const struct fold_opts *opts)
{
	struct flame_fold *fo = xcalloc(1, sizeof(*fo));

	fo->opts = *opts;
	fo->fl = fl;
	grow_name_cache(fo);
	fo->addrs_cache = xcalloc(ADDR_SLOTS, sizeof(*fo->addrs_cache));
	fo->syms_cache = xcalloc(SYM_SLOTS, sizeof(*fo->syms_cache));
	fo->pid_gens = xcalloc(PID_GENS, sizeof(*fo->pid_gens));
	return fo;
}

void fold_free(struct flame_fold *fo)
{
	free(fo->stack);
	free(fo->buf);
	free(fo->names);
	free(fo->addrs_cache);
	free(fo->syms_cache);
	free(fo->pid_gens);
	free(fo);
}

void fold_begin(struct flame_fold *fo, int input)
{
	fo->input = input;
	memset(fo->comms, 0, sizeof(fo->comms));
	/* the address cache's threads are the last file's */
	fo->global_gen++;
	if (usable_cpus() > 1)
		fo->pipe = batchq_new(PIPE_BATCH, PIPE_BATCHES, consume_stacks, fo->fl);
}

void fold_end(struct flame_fold *fo)
{
	if (fo->pipe)
		batchq_free(fo->pipe);
	fo->pipe = NULL;
	/* the cache keys are this session's symbols and DSOs */
	memset(fo->names, 0, (fo->names_mask + 1) * sizeof(*fo->names));
	memset(fo->syms_cache, 0, SYM_SLOTS * sizeof(*fo->syms_cache));
	fo->nr_names = 0;
	fo->session = NULL;
}
