/*
 * flame.c - "prof flame": a perf.data file as a flame graph (one
 * self-contained interactive SVG) or as folded stacks, and the
 * differential flame graph of two files.
 *
 * Each sample of the chosen event becomes one stack, resolved as perf
 * script resolves it (so the stacks are those of "perf script |
 * stackcollapse-perf.pl"): the call chain walked from the leaf by perf's
 * rules (the call-chain cursor, session/chain.h: context markers, at most
 * --max-stack recorded addresses, a marker perf does not know emptying
 * the chain; functions inlined at unwound addresses are not shown); a
 * sample without a call chain is its own address.  A --call-graph dwarf
 * sample's user stack is unwound and joined to its recorded chain first,
 * as perf script does.  The samples come from the report engine's sample
 * stream (engine/engine.h).
 * Frames are named as stackcollapse-perf.pl names them: the symbol
 * (argument lists, quotes and ';' tidied away), "[dso]" when the address
 * has a map but no symbol (the file name whole, where the Perl script's
 * parser cuts names like "memfd:x (deleted)"), "[unknown]" when it has
 * no map.  The stack, outermost caller first and the process name as its
 * root, goes into the trie of analysis/flame.h (on a second thread when
 * there are two CPUs); output/flame_svg.h draws it.
 *
 * The event: -e, else the event of the first sample (as stackcollapse-
 * perf.pl filters to the first event it meets); other events' samples
 * are counted and skipped.
 *
 * Invariants: nothing is allocated per sample: frame names are built in
 * one buffer and interned once per symbol (a cache keyed by symbol or
 * DSO), the stack lives in one growing array.  A call-chain address
 * resolved once is not resolved again until a record that may change its
 * process's maps (or the kernel's) arrives (a cache keyed by process,
 * cpumode and address), and a DSO's address is named once for every
 * process that maps the DSO (a cache keyed by DSO and address).  The
 * caches are direct-mapped and small enough to stay in the CPU's caches;
 * they only ever save work, never change a result.
 */
#include "cmds.h"
#include "../analysis/flame.h"
#include "../engine/engine.h"
#include "../format/evname.h"
#include "../format/reader.h"
#include "../output/flame_svg.h"
#include "../session/chain.h"
#include "../session/session.h"
#include "../symbol/symbol.h"
#include "../util/batchq.h"
#include "../util/cpu.h"
#include "../util/error.h"
#include "../util/hash.h"
#include "../util/opt.h"
#include "../util/outcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_MAX_STACK 127	/* perf script's default --max-stack */

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
 * context's (a KSYMBOL may add symbols). */
struct sym_slot {
	const struct dso *dso;	/* NULL: empty */
	u64 addr;
	u32 kernel_gen;
	u32 name;
};

#define SYM_SLOTS (1u << 13)
#define PID_GENS (1u << 16)

/* A process-frame cache slot (see flame_ctx.comms). */
struct comm_slot {
	const char *comm;	/* NULL: empty */
	u32 epoch;
	s32 pid, tid;
	u32 name;
};

#define COMM_SLOTS 256

struct flame_ctx {
	/* options */
	const char *input;	/* -i */
	const char *output;	/* -o, "-" for stdout */
	const char *title;	/* --title */
	const char *event;	/* -e */
	const char *min_width_str;	/* --minwidth */
	const char *vmlinux, *symfs;	/* -k, --symfs */
	int diff;		/* --diff BASE NEW */
	int folded;		/* --folded */
	int icicle;		/* --icicle */
	int reverse;		/* --reverse: leaf first */
	int merged;		/* --merged: no process frames (--per-comm: 0) */
	int with_pid, with_tid;	/* --pid, --tid */
	int kernel_marks;	/* --kernel-marks: "_[k]" */
	int jit_marks;		/* --jit-marks: "_[j]" */
	int addrs;		/* --addrs: addresses of unknown frames */
	int width;		/* --width */
	int frame_height;	/* --height */
	int max_stack;		/* --max-stack */
	int quiet;		/* -q */

	/* state of the file being read */
	struct pd_file *f;
	struct engine_config cfg;	/* the engine's */
	struct session *session;	/* the engine's (the sample's) */
	int input_idx;		/* which flame input the file feeds */
	int have_evsel;		/* the event shown is known: */
	u32 evsel_idx;		/* its index (a stream's evsels may move) */
	char evsel_name[256];
	u64 nr_samples, nr_other;

	struct flame fl;
	struct chain_walk walk;		/* the sample's chain */
	u32 *stack;		/* the sample's frames as name ids */
	u32 stack_room;
	char *buf;		/* a name being built */
	size_t buf_room;
	struct name_slot *names;	/* the frame-name cache */
	u32 names_mask, nr_names;
	struct batchq *pipe;	/* to the thread that fills the trie, or NULL */
	struct addr_slot *addrs_cache;	/* ADDR_SLOTS, direct-mapped */
	struct sym_slot *syms_cache;	/* SYM_SLOTS, direct-mapped */
	/* generations: a cached address is valid while the ones it was
	   resolved at are current.  pid_gens[pid % PID_GENS] counts the
	   records that may change that process's maps, kernel_gen those
	   that may change a kernel map, global_gen the records of other
	   types */
	u32 *pid_gens;
	u32 kernel_gen, global_gen;
	/* process frames by thread, direct-mapped: an entry is valid while
	   the comm string, its epoch and the thread stay the same */
	struct comm_slot comms[COMM_SLOTS];
};

static const char *const flame_usage[] = {
	"prof flame [<options>] [-i perf.data] [-o flame.svg]",
	"prof flame [<options>] --diff BASE.data NEW.data [-o diff.svg]",
	NULL,
};

/* ---- frame names ------------------------------------------------------------ */

static char *buf_room(struct flame_ctx *ctx, size_t n)
{
	if (n > ctx->buf_room) {
		while (ctx->buf_room < n)
			ctx->buf_room = ctx->buf_room ? ctx->buf_room * 2 : 256;
		ctx->buf = xrealloc(ctx->buf, ctx->buf_room);
	}
	return ctx->buf;
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

static void grow_name_cache(struct flame_ctx *ctx)
{
	u32 n = ctx->names_mask ? (ctx->names_mask + 1) * 2 : 4096;
	struct name_slot *old = ctx->names;
	u32 old_n = ctx->names ? ctx->names_mask + 1 : 0;

	ctx->names = xcalloc(n, sizeof(*ctx->names));
	ctx->names_mask = n - 1;
	for (u32 i = 0; i < old_n; i++) {
		u32 s;

		if (!old[i].a)
			continue;
		s = (u32)hash_u64(old[i].a ^ hash_u64(old[i].b)) & ctx->names_mask;
		while (ctx->names[s].a)
			s = (s + 1) & ctx->names_mask;
		ctx->names[s] = old[i];
	}
	free(old);
}

/* Makes the name of a frame at ip (resolved to dso and sym) and interns it. */
static u32 make_frame_name(struct flame_ctx *ctx, const struct dso *dso,
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

		out = buf_room(ctx, strlen(name) + 8);
		len = tidy_name(name, out);
		kind = kernel ? FLAME_KERNEL : jit ? FLAME_JIT : FLAME_USER;
	} else if (!dso && !ctx->addrs) {
		out = buf_room(ctx, 16);
		len = (size_t)sprintf(out, "[unknown]");
	} else {
		/* the file name whole: "[memfd:x (deleted)]" */
		out = buf_room(ctx, strlen(base) + 40);
		len = (size_t)sprintf(out, ctx->addrs ? "[%s <%llx>]" : "[%s]", base,
				      (unsigned long long)ip);
		for (size_t i = 0; i < len; i++)
			if (out[i] == ';')
				out[i] = ':';
			else if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
				out[i] = '?';
	}
	if (ctx->kernel_marks && kernel)
		len += (size_t)sprintf(out + len, "_[k]");
	else if (ctx->jit_marks && jit)
		len += (size_t)sprintf(out + len, "_[j]");
	return flame_name(&ctx->fl, out, len, kind);
}

/* The name id of a frame, from the cache or made once. */
static u32 frame_name(struct flame_ctx *ctx, const struct dso *dso, const struct symbol *sym,
		      u64 ip)
{
	u64 a, b = 0;
	u32 s;

	if (sym) {
		a = (u64)(uintptr_t)sym << 2 | TAG_SYM;
	} else {
		a = dso ? (u64)(uintptr_t)dso << 2 | TAG_DSO : TAG_NOMAP;
		if (ctx->addrs)
			b = ip;
	}
	s = (u32)hash_u64(a ^ hash_u64(b)) & ctx->names_mask;
	while (ctx->names[s].a) {
		if (ctx->names[s].a == a && ctx->names[s].b == b)
			return ctx->names[s].id;
		s = (s + 1) & ctx->names_mask;
	}
	ctx->names[s].a = a;
	ctx->names[s].b = b;
	ctx->names[s].id = make_frame_name(ctx, dso, sym, ip);
	if (++ctx->nr_names * 2 > ctx->names_mask + 1) {
		u32 id = ctx->names[s].id;

		grow_name_cache(ctx);
		return id;
	}
	return ctx->names[s].id;
}

/* The process frame: the comm (spaces as '_'), with --pid "-PID", with
 * --tid "-PID/TID", as stackcollapse-perf.pl writes it. */
static u32 comm_name(struct flame_ctx *ctx, const struct addr_location *al)
{
	struct comm_slot *slot = &ctx->comms[(u32)al->tid % COMM_SLOTS];
	size_t len;
	char *out;

	if (slot->comm == al->comm && slot->epoch == al->comm_epoch && slot->pid == al->pid &&
	    slot->tid == al->tid)
		return slot->name;
	out = buf_room(ctx, strlen(al->comm) + 32);
	for (len = 0; al->comm[len]; len++) {
		unsigned char ch = (unsigned char)al->comm[len];

		out[len] = ch == ' ' ? '_' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (ctx->with_tid)
		len += (size_t)sprintf(out + len, "-%d/%d", al->pid, al->tid);
	else if (ctx->with_pid)
		len += (size_t)sprintf(out + len, "-%d", al->pid);
	slot->comm = al->comm;
	slot->epoch = al->comm_epoch;
	slot->pid = al->pid;
	slot->tid = al->tid;
	slot->name = flame_name(&ctx->fl, out, len, FLAME_COMM);
	return slot->name;
}

/* ---- samples ------------------------------------------------------------------ */

static void stack_room(struct flame_ctx *ctx, u64 n)
{
	if (n <= ctx->stack_room)
		return;
	if (n > 1u << 24)
		die("call chain of %llu entries", (unsigned long long)n);
	ctx->stack_room = (u32)n;
	ctx->stack = xrealloc(ctx->stack, ctx->stack_room * sizeof(*ctx->stack));
}

/*
 * The frame name of a call-chain address, resolved: the map and DSO in
 * the sample's thread, then the symbol through a cache by DSO and
 * map-relative address, which the processes that map one library share
 * (not with --addrs, whose names hold the address itself).
 */
static u32 resolve_name(struct flame_ctx *ctx, const struct addr_location *al, u64 time,
			u8 cpumode, u64 ip)
{
	struct addr_location node;
	struct sym_slot *slot;

	if (session_resolve_addr_flags(ctx->session, al, time, cpumode, ip, SESSION_NO_SYMBOL,
				       &node) || !node.dso)
		return frame_name(ctx, NULL, NULL, ip);
	if (ctx->addrs)
		return frame_name(ctx, node.dso,
				  session_find_symbol(ctx->session, node.dso, node.addr), ip);
	slot = &ctx->syms_cache[hash_u64((uintptr_t)node.dso ^ node.addr) & (SYM_SLOTS - 1)];
	if (slot->dso == node.dso && slot->addr == node.addr && slot->kernel_gen == ctx->kernel_gen)
		return slot->name;
	slot->dso = node.dso;
	slot->addr = node.addr;
	slot->kernel_gen = ctx->kernel_gen;
	slot->name = frame_name(ctx, node.dso,
				session_find_symbol(ctx->session, node.dso, node.addr), ip);
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

static struct addr_slot *addr_slot_of(struct flame_ctx *ctx, const struct thread *thread,
				       s32 pid, u8 cpumode, u64 ip)
{
	return &ctx->addrs_cache[hash_u64(ip ^ (uintptr_t)thread ^ (u64)(u32)pid << 8 ^ cpumode) &
				 (ADDR_SLOTS - 1)];
}

/*
 * The frame name of a call-chain address: the address resolved in the
 * sample's thread with cpumode, through a direct-mapped cache shared by
 * the threads of a process (and for kernel addresses by all).  Entries
 * live while their process's maps stay (or the kernel's).
 */
static u32 addr_name(struct flame_ctx *ctx, const struct addr_location *al, u64 time,
		     u8 cpumode, u64 ip)
{
	s32 pid;
	const struct thread *thread = addr_space(al, cpumode, &pid);
	struct addr_slot *slot = addr_slot_of(ctx, thread, pid, cpumode, ip);
	u32 gen = cpumode != PD_MISC_KERNEL ? ctx->pid_gens[(u32)pid % PID_GENS] : ctx->kernel_gen;

	if (slot->gen == gen && slot->global_gen == ctx->global_gen && slot->ip == ip &&
	    slot->thread == thread && slot->pid == pid && slot->cpumode == cpumode)
		return slot->name;
	slot->name = resolve_name(ctx, al, time, cpumode, ip);
	slot->ip = ip;
	slot->thread = thread;
	slot->pid = pid;
	slot->cpumode = cpumode;
	slot->gen = gen;
	slot->global_gen = ctx->global_gen;
	return slot->name;
}

/*
 * The sample's frames, leaf first, into ctx->stack[first...]: the chain
 * walked as perf script walks it (callee order, at most --max-stack
 * recorded addresses, a marker perf does not know emptying it: see
 * session/chain.h; a dwarf sample's chain is joined first).  Returns how
 * many.
 */
static u32 chain_frames(struct flame_ctx *ctx, struct engine_sample *s, u32 first)
{
	const struct addr_location *al = &s->al;
	struct chain_walk *w = &ctx->walk;
	struct chain_frame f;
	u32 nr = 0;
	const struct thread *thread;
	s32 pid;
	int r;

	/* the cache slots first, so that their misses overlap */
	engine_chain_begin(s, w, CHAIN_CALLEE, ctx->max_stack, ENGINE_CHAIN_UNWIND);
	stack_room(ctx, first + chain_max_frames(&s->sample, (u32)ctx->max_stack));
	while (chain_next(w, &f) == CHAIN_FRAME) {
		thread = addr_space(al, f.cpumode, &pid);
		__builtin_prefetch(addr_slot_of(ctx, thread, pid, f.cpumode, f.ip));
	}
	engine_chain_begin(s, w, CHAIN_CALLEE, ctx->max_stack, ENGINE_CHAIN_UNWIND);
	while ((r = chain_next(w, &f)) == CHAIN_FRAME)
		ctx->stack[first + nr++] = addr_name(ctx, al, s->sample.time, f.cpumode, f.ip);
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

/* Counts a record that is not a sample in the generations it may end. */
static void note_record(struct flame_ctx *ctx, const struct pd_event *ev)
{
	const struct pd_header *hdr = ev->hdr;
	u32 pid = hdr->size >= 12 ? pd_get32((const u8 *)hdr + 8) : (u32)-1;

	switch (hdr->type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if ((hdr->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_USER) {
			ctx->pid_gens[pid % PID_GENS]++;
		} else {
			ctx->kernel_gen++;
			ctx->global_gen++;
		}
		break;
	case PD_REC_FORK:
	case PD_REC_EXIT:
	case PD_REC_COMM:
		ctx->pid_gens[pid % PID_GENS]++;
		break;
	case PD_REC_KSYMBOL:
	case PD_REC_BPF_EVENT:
	case PD_REC_TEXT_POKE:
		ctx->kernel_gen++;
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
			ctx->global_gen++;
	}
}

/*
 * With two CPUs the trie is filled on a second thread: this one hands it
 * each stack through a batchq (struct stack_item, then the names).  The
 * threads share the flame but not its fields: this one interns names
 * (flame_name()), the other adds stacks (flame_add()), which reads no
 * name.
 */
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

/* Adds the sample's stack, ctx->stack[0..n), to the trie. */
static void add_stack(struct flame_ctx *ctx, u32 n)
{
	struct stack_item *it;

	if (!ctx->pipe || ITEM_BYTES(n) > PIPE_BATCH / 4) {
		/* a huge stack: once the other thread is idle, here */
		if (ctx->pipe)
			batchq_sync(ctx->pipe);
		flame_add(&ctx->fl, ctx->input_idx, ctx->stack, n, 1);
		return;
	}
	it = batchq_alloc(ctx->pipe, ITEM_BYTES(n));
	it->n = n;
	it->input = (u32)ctx->input_idx;
	memcpy(it + 1, ctx->stack, (size_t)n * sizeof(u32));
}

/* Whether evsel is the one -e names: its full name ("cpu-clock:ppp") or
 * the name without modifiers. */
static int event_matches(const struct flame_ctx *ctx, const struct pd_evsel *evsel)
{
	char name[256];
	size_t len = strlen(ctx->event);

	pd_evsel_name(ctx->f, evsel, name, sizeof(name));
	return !strcmp(name, ctx->event) ||
	       (!strncmp(name, ctx->event, len) && name[len] == ':');
}

/* Every record: one that is not a sample may end cached names; a sample
 * of an event other than the one shown is counted and left out. */
static int flame_record(void *vctx, struct pd_file *f, const struct pd_event *ev)
{
	struct flame_ctx *ctx = vctx;
	const struct pd_evsel *evsel = ev->evsel;

	if (ev->hdr->type != PD_REC_SAMPLE) {
		note_record(ctx, ev);
		return 0;
	}
	if (!evsel)
		return 0;
	if (!ctx->have_evsel) {
		if (ctx->event && !event_matches(ctx, evsel)) {
			ctx->nr_other++;
			return ENGINE_SKIP;
		}
		ctx->have_evsel = 1;
		ctx->evsel_idx = evsel->idx;
		pd_evsel_name(f, evsel, ctx->evsel_name, sizeof(ctx->evsel_name));
	}
	if (evsel->idx != ctx->evsel_idx) {
		ctx->nr_other++;
		return ENGINE_SKIP;
	}
	return 0;
}

/* A sample of the event shown (resolved without its symbol): its stack
 * into the trie. */
static int flame_sample(void *vctx, struct engine_sample *s)
{
	struct flame_ctx *ctx = vctx;
	const struct addr_location *al = &s->al;
	u32 n = 0, leaf_first;

	ctx->session = s->session;
	stack_room(ctx, 2);
	if (!ctx->merged)
		ctx->stack[n++] = comm_name(ctx, al);
	leaf_first = n;
	if (s->evsel->attr.sample_type & PD_SAMPLE_CALLCHAIN) {
		n += chain_frames(ctx, s, n);
	} else {
		const struct symbol *sym = al->dso ? session_find_symbol(s->session, al->dso,
									 al->addr) : NULL;

		ctx->stack[n++] = frame_name(ctx, al->dso, sym, s->sample.ip);
	}
	/* the chain is leaf first: outermost first, unless --reverse wants
	   the whole stack the other way round */
	reverse_u32(ctx->stack + leaf_first, n - leaf_first);
	if (ctx->reverse)
		reverse_u32(ctx->stack, n);
	add_stack(ctx, n);
	ctx->nr_samples++;
	return 0;
}

/* The engine's configure hook: the samples are resolved to their maps
 * and DSOs; the symbols are looked up through the name caches. */
static int flame_configure(void *arg, struct pd_file *f, struct engine_config *cfg)
{
	(void)arg;
	(void)f;
	cfg->resolve_flags = SESSION_NO_SYMBOL;
	return 0;
}

/* Reads one file into input idx of the trie.  Returns 0 or -1. */
static int read_file(struct flame_ctx *ctx, const char *path, int idx)
{
	const struct engine_consumer consumer = {
		.record = flame_record, .sample = flame_sample, .arg = ctx,
	};
	struct engine *eng;
	struct pd_file f;
	int ret;

	if (pd_open(&f, path, 0)) {
		pd_close(&f);
		return -1;
	}
	ctx->f = &f;
	ctx->input_idx = idx;
	ctx->have_evsel = 0;
	ctx->evsel_name[0] = '\0';
	ctx->nr_samples = ctx->nr_other = 0;
	memset(ctx->comms, 0, sizeof(ctx->comms));
	/* the cache's threads are the last file's */
	ctx->global_gen++;
	if (usable_cpus() > 1)
		ctx->pipe = batchq_new(PIPE_BATCH, PIPE_BATCHES, consume_stacks, &ctx->fl);
	memset(&ctx->cfg, 0, sizeof(ctx->cfg));
	ctx->cfg.sopts.vmlinux = ctx->vmlinux;
	ctx->cfg.sopts.symfs = ctx->symfs;
	ctx->cfg.threads = 1;
	eng = engine_new(&ctx->cfg, flame_configure, ctx);
	ret = engine_stream(eng, &f, &consumer);
	if (ctx->pipe)
		batchq_free(ctx->pipe);
	ctx->pipe = NULL;
	if (ret > 0)
		ret = -1;
	if (!ret && !ctx->nr_samples) {
		if (ctx->event)
			ret = error("%s has no samples of event '%s'", path, ctx->event);
		else
			ret = error("%s has no samples", path);
	}
	if (!ret && ctx->nr_other && !ctx->event)
		warning("%s: showing the %llu samples of %s, the first event; %llu samples "
			"of other events are left out (choose one with -e)", path,
			(unsigned long long)ctx->nr_samples, ctx->evsel_name,
			(unsigned long long)ctx->nr_other);
	/* the cache keys are this session's symbols and DSOs */
	memset(ctx->names, 0, (ctx->names_mask + 1) * sizeof(*ctx->names));
	memset(ctx->syms_cache, 0, SYM_SLOTS * sizeof(*ctx->syms_cache));
	ctx->nr_names = 0;
	engine_free(eng);
	ctx->session = NULL;
	ctx->f = NULL;
	pd_close(&f);
	return ret;
}

/* Writes the result to -o (or its default).  A failed write to standard
 * output is left for main()'s stdout_finish() to report. */
static int write_output(struct flame_ctx *ctx, const char *subtitle, double min_width)
{
	const char *out_path = ctx->output;
	FILE *out = stdout;
	int ret;

	if (!out_path)
		out_path = ctx->folded ? "-" : ctx->diff ? "diff.svg" : "flame.svg";
	if (strcmp(out_path, "-")) {
		out = output_open(out_path, "w");
		if (!out)
			return error("cannot write %s: %m", out_path);
	}
	if (ctx->folded) {
		ret = flame_write_folded(out, &ctx->fl);
	} else {
		struct flame_svg_opts o = {
			.title = ctx->title,
			.subtitle = subtitle,
			.width = ctx->width,
			.frame_height = ctx->frame_height,
			.min_width = min_width,
			.icicle = ctx->icicle,
		};

		if (!o.title)
			o.title = ctx->diff ? "Differential Flame Graph" :
				  ctx->icicle ? "Icicle Graph" : "Flame Graph";
		ret = flame_write_svg(out, &ctx->fl, &o);
	}
	if (out != stdout)
		return output_close(out, out_path);
	return ret;
}

/* --per-comm undoes --merged (and --no-per-comm is --merged): the last
 * one given wins. */
static int per_comm_opt(const struct opt *opt, const char *arg, int unset)
{
	*(int *)opt->value = unset;
	return 0;
}

int cmd_flame(int argc, char **argv)
{
	struct flame_ctx ctx = { .width = 1200, .frame_height = 16,
				 .max_stack = DEFAULT_MAX_STACK };
	const struct opt opts[] = {
		OPT_STRING('i', "input", &ctx.input, "file", "input file name (default: perf.data)"),
		OPT_STRING('o', "output", &ctx.output, "file",
			   "output file (default: flame.svg, diff.svg; '-' or --folded: stdout)"),
		OPT_BOOLEAN(0, "folded", &ctx.folded, "write folded stacks instead of an SVG"),
		OPT_BOOLEAN(0, "diff", &ctx.diff, "differential graph of two files: --diff BASE NEW"),
		OPT_STRING('e', "event", &ctx.event, "event", "show this event (default: the first sampled)"),
		OPT_GROUP("Stacks"),
		OPT_CALLBACK_NOARG(0, "per-comm", &ctx.merged, "a root frame per process name (default)",
				   per_comm_opt),
		OPT_BOOLEAN(0, "merged", &ctx.merged, "no process frames: every process merged"),
		OPT_BOOLEAN(0, "pid", &ctx.with_pid, "process frames as comm-PID"),
		OPT_BOOLEAN(0, "tid", &ctx.with_tid, "process frames as comm-PID/TID"),
		OPT_BOOLEAN(0, "kernel-marks", &ctx.kernel_marks, "append _[k] to kernel frames"),
		OPT_BOOLEAN(0, "jit-marks", &ctx.jit_marks, "append _[j] to JIT frames"),
		OPT_BOOLEAN(0, "addrs", &ctx.addrs, "name frames without a symbol by their address too"),
		OPT_BOOLEAN(0, "reverse", &ctx.reverse, "reverse the stacks: leaf functions at the root"),
		OPT_INTEGER(0, "max-stack", &ctx.max_stack,
			    "at most this many frames of each call chain, from the leaf (default: 127)"),
		OPT_GROUP("Drawing"),
		OPT_STRING(0, "title", &ctx.title, "text", "the graph's title"),
		OPT_BOOLEAN(0, "icicle", &ctx.icicle, "draw the root at the top, stacks growing down"),
		OPT_INTEGER(0, "width", &ctx.width, "image width in pixels (default: 1200)"),
		OPT_INTEGER(0, "height", &ctx.frame_height, "frame height in pixels (default: 16)"),
		OPT_STRING(0, "minwidth", &ctx.min_width_str, "px",
			   "leave out frames narrower than this (default: 0.1)"),
		OPT_GROUP("Symbols"),
		OPT_STRING('k', "vmlinux", &ctx.vmlinux, "file", "vmlinux pathname"),
		OPT_STRING(0, "symfs", &ctx.symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_BOOLEAN('q', "quiet", &ctx.quiet, "do not show warnings"),
		OPT_END(),
	};
	double min_width = 0.1;
	char subtitle[512];
	int argc_left, ret = 0;

	argc_left = opt_parse(argc, argv, opts, flame_usage, 0);
	if (ctx.diff && argc_left != 2)
		opt_usage_error(flame_usage, opts, "--diff takes two files: BASE NEW");
	if (!ctx.diff && argc_left)
		opt_usage_error(flame_usage, opts, "unexpected argument '%s'", argv[0]);
	if (ctx.diff && ctx.input)
		opt_usage_error(flame_usage, opts, "--diff takes its files as arguments, not -i");
	if (ctx.merged && (ctx.with_pid || ctx.with_tid))
		opt_usage_error(flame_usage, opts, "--pid and --tid name process frames, which --merged leaves out");
	if (ctx.width < 100 || ctx.width > 1000000)
		opt_usage_error(flame_usage, opts, "--width must be between 100 and 1000000");
	if (ctx.frame_height < 4 || ctx.frame_height > 1000)
		opt_usage_error(flame_usage, opts, "--height must be between 4 and 1000");
	if (ctx.max_stack < 1)
		opt_usage_error(flame_usage, opts, "--max-stack must be at least 1");
	if (ctx.min_width_str) {
		char *end;

		min_width = strtod(ctx.min_width_str, &end);
		if (end == ctx.min_width_str || *end || !(min_width >= 0) || min_width > 1e6)
			opt_usage_error(flame_usage, opts, "invalid --minwidth '%s'", ctx.min_width_str);
	}
	if (ctx.quiet)
		error_set_quiet(1);

	flame_init(&ctx.fl, ctx.diff ? 2 : 1);
	grow_name_cache(&ctx);
	ctx.addrs_cache = xcalloc(ADDR_SLOTS, sizeof(*ctx.addrs_cache));
	ctx.syms_cache = xcalloc(SYM_SLOTS, sizeof(*ctx.syms_cache));
	ctx.pid_gens = xcalloc(PID_GENS, sizeof(*ctx.pid_gens));
	if (ctx.diff) {
		ret = read_file(&ctx, argv[0], 0);
		if (!ret)
			ret = read_file(&ctx, argv[1], 1);
		snprintf(subtitle, sizeof(subtitle), "%s against %s: red grew, blue shrank (%s)",
			 argv[1], argv[0], ctx.evsel_name);
	} else {
		if (!ctx.input)
			ctx.input = pd_default_input();
		ret = read_file(&ctx, ctx.input, 0);
		snprintf(subtitle, sizeof(subtitle), "%s: %llu samples of %s",
			 strcmp(ctx.input, "-") ? ctx.input : "stdin",
			 (unsigned long long)ctx.nr_samples, ctx.evsel_name);
	}
	if (!ret) {
		flame_finish(&ctx.fl);
		ret = write_output(&ctx, subtitle, min_width);
	}
	flame_exit(&ctx.fl);
	free(ctx.stack);
	free(ctx.buf);
	free(ctx.names);
	free(ctx.addrs_cache);
	free(ctx.syms_cache);
	free(ctx.pid_gens);
	return ret ? 1 : 0;
}
