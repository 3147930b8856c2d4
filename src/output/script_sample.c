/*
 * script_sample.c - perf script's samples written through the line cache
 * (see script_sample.h): the head, then the sampled address or the frames
 * of the chain walk, each frame's text from the cache or looked up,
 * formatted and kept.
 *
 * Invariant: a line is kept only when its text is what the key alone
 * makes of it: not a kernel-mode line before the kernel's symbols loaded,
 * not a line longer than a slot holds, not one whose offset perf takes
 * from the map (an address past its symbol's end).
 */
#include "script_sample.h"

#include "data_src.h"
#include "../util/error.h"

#include <inttypes.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#define FRAME_BITS 15
#define FRAME_LINES (1u << FRAME_BITS)	/* direct-mapped */
#define FRAME_TEXT 232		/* longer lines are not cached */

/* One slot of the line cache. */
struct script_frame_line {
	const struct dso *dso;	/* NULL: no map */
	u64 addr;		/* in dso (kernel mode: as recorded) */
	u16 fields;		/* 0: empty */
	u8 cpumode;
	u8 len;
	char text[FRAME_TEXT];
};

/* The tag of a one-line sample's text after its address (not a field). */
#define SF_TAIL (1u << 15)
/* The tag of a chain line with the functions inlined there (not a field). */
#define SF_INLINES (1u << 14)

void script_printer_init(struct script_printer *p, int fd)
{
	memset(p, 0, sizeof(*p));
	script_out_init(&p->out, fd);
	p->lines = xcalloc(FRAME_LINES, sizeof(*p->lines));
}

void script_printer_free(struct script_printer *p)
{
	free(p->lines);
	p->lines = NULL;
	script_out_free(&p->out);
}

static void frames_clear(struct script_printer *p)
{
	memset(p->lines, 0, FRAME_LINES * sizeof(*p->lines));
}

void script_printer_record(struct script_printer *p, const struct pd_header *h)
{
	if (h->type == PD_REC_KSYMBOL ||
	    ((h->type == PD_REC_MMAP || h->type == PD_REC_MMAP2) &&
	     (h->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL) ||
	    (h->type == PD_REC_MMAP2 && (h->misc & PD_MISC_EXACT_IP)))
		frames_clear(p);
}

/* The slot of a frame line. */
static struct script_frame_line *frame_slot(struct script_printer *p, const struct dso *dso,
					    u64 addr)
{
	u64 h = (addr ^ (u64)(uintptr_t)dso) * 0x9e3779b97f4a7c15ULL;

	return &p->lines[h >> (64 - FRAME_BITS)];
}

/* One resolved address as perf prints it; kernel addresses and those
 * without a map are shown as recorded, user ones relative to their
 * object (chain frames only: the sample's own ip is always absolute);
 * objects by the name perf gives them (dso->name). */
static void put_frame(struct script_out *o, unsigned fields, const struct addr_location *al,
		      u64 ip, int chain_line)
{
	struct script_addr a = {
		.ip = ip,
		.sym = al->sym,
		.addr = al->addr,
		.map = al->map,
		.dso = al->map ? dso_long_name(al->dso) : "[unknown]",
	};

	/* perf names a module by its "[name]", unless the file's build-id
	   table listed it (then it made the dso by its path first) */
	if (al->map && a.dso[0] != '[' && session_dso_is_kernel(al->dso) &&
	    !al->dso->build_id_size)
		a.dso = dso_short_name(al->dso);

	if (chain_line && al->map && al->cpumode != PD_MISC_KERNEL)
		a.ip = al->addr;
	script_put_addr(o, fields, &a, chain_line);
}

/* Keeps the text written since at as line's, for node's key, when the
 * text is the key's alone (see the invariant above). */
static void frame_keep(struct script_printer *p, struct script_frame_line *line,
		       const struct addr_location *node, u64 key, unsigned tag, int cpumode,
		       size_t at)
{
	if (cpumode == PD_MISC_KERNEL && !p->kernel_ready) {
		/* kernel-mode lines are kept once the kernel's symbols (and
		   with them the modules') are loaded */
		if (node->map && node->dso && node->dso->kind == DSO_KIND_KERNEL) {
			p->kernel_ready = 1;
			frames_clear(p);
		}
		return;
	}
	/* not kept: lines too long, and offsets perf takes from the map */
	if (p->out.len - at > FRAME_TEXT || (node->sym && node->addr >= symbol_end(node->sym)))
		return;
	line->dso = node->dso;
	line->addr = key;
	line->fields = (u16)tag;
	line->cpumode = (u8)cpumode;
	line->len = (u8)(p->out.len - at);
	memcpy(line->text, p->out.buf + at, line->len);
}

/*
 * Writes an address resolved without its symbol (SESSION_NO_SYMBOL) with
 * the fields given, from the line cache or looked up in s and formatted
 * and then kept: a whole call-chain line, or (tail) what follows the
 * address on a one-line sample, whose address as recorded differs between
 * processes.  With inlines (the walk of an unwound chain address that
 * chain_frame_inlines() says so of), the lines of the functions inlined
 * there take its place, as perf's append_inlines() has it, and are kept
 * as one text.
 */
static void put_cached(struct script_printer *p, struct session *s, unsigned fields,
		       struct addr_location *node, u64 ip, int cpumode, int chain_line,
		       const struct chain_walk *inlines)
{
	u64 key = !node->map || cpumode == PD_MISC_KERNEL ? ip : node->addr;
	unsigned tag = fields | (chain_line ? 0 : SF_TAIL) | (inlines ? SF_INLINES : 0);
	const struct symbol *const *syms;
	u32 nr_inlines = 0;
	struct script_frame_line *line = frame_slot(p, node->dso, key);
	size_t at;

	if (line->dso == node->dso && line->addr == key && line->fields == tag &&
	    line->cpumode == cpumode) {
		script_put_mem(&p->out, line->text, line->len);
		return;
	}
	node->sym = NULL;
	if (node->dso && ((fields & SF_SYM) || inlines))
		node->sym = session_find_symbol(s, node->dso, node->addr);
	at = p->out.len;
	if (inlines)
		nr_inlines = chain_inlines(inlines, node, &syms);
	if (nr_inlines) {
		struct addr_location entry = *node;

		for (u32 i = 0; i < nr_inlines; i++) {
			entry.sym = chain_inline_sym(inlines, syms, nr_inlines, i);
			put_frame(&p->out, fields, &entry, ip, chain_line);
		}
	} else {
		put_frame(&p->out, fields, node, ip, chain_line);
	}
	frame_keep(p, line, node, key, tag, cpumode, at);
}

/*
 * The sample's call chain, printed as it goes (through the line cache)
 * as the walk w yields it; a chain the walk drops (a marker perf does not
 * know, see session/chain.h) leaves nothing.
 */
static void put_callchain(struct script_printer *p, struct session *s, unsigned fields,
			  struct chain_walk *w)
{
	struct chain_frame f;
	size_t start = p->out.len;
	int r;

	while ((r = chain_next(w, &f)) == CHAIN_FRAME) {
		struct addr_location node;

		chain_resolve(w, f.ip, f.cpumode, &node);
		put_cached(p, s, fields, &node, f.ip, f.cpumode, 1,
			   chain_frame_inlines(w, &f) ? w : NULL);
	}
	if (r == CHAIN_DROPPED)
		p->out.len = start;
}

/* The kernel symbol at *addr, for the formats' function pointers. */
static const char *resolve_kernel(void *arg, u64 *addr)
{
	struct script_printer *p = arg;

	return session_kernel_symbol(p->cur_session, p->cur_al, p->cur_time, addr);
}

void script_printer_trace(struct script_printer *p)
{
	trace_formats_set_resolver(p->tf, resolve_kernel, p);
}

/* perf's get_page_size_name(): "N/A" for 0, else the size in the largest
 * unit (B, K, M, G) that leaves more than 1 (4096 is "4K", 1024 "1024B"). */
static int page_size_name(u64 size, char *buf, size_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!size)
		return snprintf(buf, n, "N/A");
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	return snprintf(buf, n, "%" PRIu64 "%c", (uint64_t)size, unit[i]);
}

/* The memory fields perf prints before the sampled address: addr,
 * data_src, weight, ins_lat (WEIGHT_STRUCT's weight is its low 32 bits,
 * ins_lat the next 16). */
static void put_mem_fields(struct script_printer *p, unsigned fields, const struct pd_sample *sample)
{
	char buf[DATA_SRC_TEXT + 32];
	int struct_weight = !!(sample->sample_type & PD_SAMPLE_WEIGHT_STRUCT);
	u64 weight = struct_weight ? (u32)sample->weight : sample->weight;

	if (fields & SF_ADDR)
		script_put_mem(&p->out, buf, (size_t)snprintf(buf, sizeof(buf), "%16" PRIx64,
							      (uint64_t)sample->addr));
	if (fields & SF_DATA_SRC)
		script_put_mem(&p->out, buf, data_src_field(sample->data_src, &p->data_src_width,
							    buf, sizeof(buf)));
	if (fields & SF_WEIGHT)
		script_put_mem(&p->out, buf, (size_t)snprintf(buf, sizeof(buf), "%16" PRIu64,
							      (uint64_t)weight));
	if (fields & SF_INS_LAT)
		script_put_mem(&p->out, buf,
			       (size_t)snprintf(buf, sizeof(buf), "%16u",
						struct_weight ? (unsigned)(u16)(sample->weight >> 32) : 0));
}

/* The ones perf prints after it: phys_addr and the page sizes. */
static void put_mem_tail(struct script_printer *p, unsigned fields, const struct pd_sample *sample)
{
	char buf[64];

	if (fields & SF_PHYS_ADDR)
		script_put_mem(&p->out, buf, (size_t)snprintf(buf, sizeof(buf), "%16" PRIx64,
							      (uint64_t)sample->phys_addr));
	if (fields & SF_DATA_PAGE_SIZE) {
		script_put_char(&p->out, ' ');
		script_put_mem(&p->out, buf, (size_t)page_size_name(sample->data_page_size, buf,
								     sizeof(buf)));
	}
	if (fields & SF_CODE_PAGE_SIZE) {
		script_put_char(&p->out, ' ');
		script_put_mem(&p->out, buf, (size_t)page_size_name(sample->code_page_size, buf,
								     sizeof(buf)));
	}
}

/* perf 6.1's names of branch types (PERF_BR_*), and of the extended
 * ones (PERF_BR_EXTEND_ABI's new_type) */
static const char *const branch_type_names[16] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
	"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", NULL,
};
static const char *const branch_new_type_names[16] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
	"ARCH_5",
};

/* perf's thread__find_symbol_fb(): the sample's cpumode, then the one of
 * the address's half of the address space (x86_64's kernel_start, 1 << 63) */
static void branch_resolve(struct session *s, const struct addr_location *al, u64 addr,
			   struct addr_location *a)
{
	u8 mode = addr >= 1ULL << 63 ? PD_MISC_KERNEL : PD_MISC_USER;

	session_resolve_addr_flags(s, al, 0, al->cpumode, addr, 0, a);
	if (!a->map && mode != al->cpumode)
		session_resolve_addr_flags(s, al, 0, mode, addr, 0, a);
}

/* perf's symbol__fprintf_symname_offs() then, with DSO, "(name)". */
static void put_branch_sym(struct script_out *o, const struct addr_location *a)
{
	char tmp[64];

	if (a->sym) {
		const char *name = symbol_name(a->sym);
		u64 off = a->addr < symbol_end(a->sym) ? a->addr - symbol_start(a->sym) :
			  a->addr - map_start(a->map) - symbol_start(a->sym);

		script_put_mem(o, name, strlen(name));
		script_put_mem(o, tmp, snprintf(tmp, sizeof(tmp), "+0x%llx", (unsigned long long)off));
	} else {
		script_put_mem(o, "[unknown]", 9);
	}
}

static void put_branch_dso(struct script_out *o, unsigned fields, const struct addr_location *a)
{
	const char *name;

	if (!(fields & SF_DSO))
		return;
	name = a->map ? dso_long_name(a->dso) : "[unknown]";
	if (a->map && name[0] != '[' && session_dso_is_kernel(a->dso) && !a->dso->build_id_size)
		name = dso_short_name(a->dso);
	script_put_char(o, '(');
	script_put_mem(o, name, strlen(name));
	script_put_char(o, ')');
}

/*
 * perf's perf_sample__fprintf_brstack() and _brstacksym(): each branch
 * as " 0xfrom/0xto" (with DSO, each "(name)" after it) or
 * "sym+off/sym+off", then its flags "/M|P|-/X|-/A|-/cycles/type ".
 */
static void put_branch_stack(struct script_out *o, struct session *s, unsigned fields,
			     const struct pd_sample *sample, const struct addr_location *al)
{
	char tmp[96];

	for (u64 i = 0; i < sample->branch_nr; i++) {
		const u8 *b = sample->branch + 24 * i;
		u64 from = pd_get64(b), to = pd_get64(b + 8), fl = pd_get64(b + 16);
		unsigned type = (fl >> 20) & 15;
		const char *tname = type == 15 ? branch_new_type_names[(fl >> 26) & 15] :
				    branch_type_names[type];
		struct addr_location af, at;
		int n;

		if ((fields & SF_DSO) || !(fields & SF_BRSTACK)) {
			branch_resolve(s, al, from, &af);
			branch_resolve(s, al, to, &at);
		}
		if (fields & SF_BRSTACK) {
			script_put_mem(o, tmp, snprintf(tmp, sizeof(tmp), " 0x%llx",
							(unsigned long long)from));
			put_branch_dso(o, fields, &af);
			script_put_mem(o, tmp, snprintf(tmp, sizeof(tmp), "/0x%llx",
							(unsigned long long)to));
			put_branch_dso(o, fields, &at);
		} else {
			put_branch_sym(o, &af);
			put_branch_dso(o, fields, &af);
			script_put_char(o, '/');
			put_branch_sym(o, &at);
			put_branch_dso(o, fields, &at);
		}
		n = snprintf(tmp, sizeof(tmp), "/%c/%c/%c/%u/%s ",
			     fl & 2 ? 'P' : fl & 1 ? 'M' : '-', fl & 4 ? 'X' : '-',
			     fl & 8 ? 'A' : '-', (unsigned)((fl >> 4) & 0xffff),
			     tname ? tname : "");
		script_put_mem(o, tmp, n);
	}
}

int script_print_sample(struct script_printer *p, const struct script_event *e,
			struct session *s, const struct pd_sample *sample,
			struct addr_location *al, struct chain_walk *w)
{
	const struct script_head head = {
		.comm = al->comm,
		/* perf pads the comm unless the call chain follows */
		.comm_unpadded = script_event_chain(e),
		.pid = (s32)sample->pid,
		.tid = (s32)sample->tid,
		.cpu = sample->cpu,
		.time = sample->time,
		.nanosecs = p->nanosecs,
		/* without PERIOD perf shows the attr's period */
		.period = sample->sample_type & PD_SAMPLE_PERIOD ? sample->period : e->attr_period,
		.event = e->name,
		.event_width = p->name_width,
	};

	script_put_head(&p->out, e->fields, &head);
	if ((e->fields & SF_TRACE) && e->tp && sample->raw) {
		size_t len;
		const char *text;

		p->cur_session = s;
		p->cur_al = al;
		p->cur_time = sample->time;
		text = trace_format_print(p->tf, e->tp, sample->cpu, sample->raw,
						      sample->raw_size, &len);

		script_put_mem(&p->out, text, len);
	}
	put_mem_fields(p, e->fields, sample);
	if (e->fields & SF_IP) {
		if (e->callchain) {
			script_put_char(&p->out, '\n');
			put_callchain(p, s, e->fields & SF_LINE_FIELDS, w);
		} else {
			script_put_char(&p->out, ' ');
			put_frame(&p->out, SF_IP, al, sample->ip, 0);
			put_cached(p, s, e->fields & SF_LINE_FIELDS & ~SF_IP, al, sample->ip,
				   al->cpumode, 0, NULL);
		}
	}
	/* perf prints brstack, else brstacksym */
	if ((e->fields & (SF_BRSTACK | SF_BRSTACKSYM)) && (sample->sample_type & PD_SAMPLE_BRANCH_STACK))
		put_branch_stack(&p->out, s, e->fields & SF_BRSTACK ? e->fields & ~SF_BRSTACKSYM : e->fields,
				 sample, al);
	put_mem_tail(p, e->fields, sample);
	script_put_char(&p->out, '\n');
	return script_out_maybe_flush(&p->out);
}
