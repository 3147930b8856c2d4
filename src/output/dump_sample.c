/*
 * dump_sample.c - "prof report -D": a sample's lines as perf 6.1's
 * dump_sample() prints them (chains, branch stacks, registers, stack,
 * weight, data source, read values), then its thread and dso lines
 * (dump_machine.c), once per counter that moved for a SAMPLE_READ sample
 * as perf's deliver_sample_value() resolves it; and the per-event counts
 * of the "Aggregated stats".
 *
 * Invariants: the sample was parsed by pd_parse_sample(), whose pointers
 * and counts lie within the record.
 */
#include "dump_int.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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

/* The "... FP chain" lines. */
static void print_callchain(struct obuf *o, const struct pd_sample *s)
{
	ob_str(o, "... FP chain: nr:");
	ob_u64(o, s->callchain_nr);
	ob_chr(o, '\n');
	for (u64 i = 0; i < s->callchain_nr; i++) {
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
		ob_hexw(o, pd_get64(s->callchain + 8 * i), 16);
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
			       const struct pd_event *ev, const struct pd_sample *s, u64 id,
			       u64 value)
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
	dump_resolve(st, ev, e, s);
	count_hist_sample(st, e, s);
}

void dump_sample(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
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
	if (type & PD_SAMPLE_CALLCHAIN)
		print_callchain(o, &s);
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
		dump_resolve(st, ev, e, &s);
		count_hist_sample(st, e, &s);
		return;
	}
	print_read(o, e, &s);
	for (u64 i = 0; i < s.read.nr; i++) {
		const u8 *v = s.read.values + 8 * s.read.value_words * i;
		u64 id = (e->attr.read_format & PD_FORMAT_ID) ? pd_get64(v + 8) : 0;

		resolve_read_value(st, f, ev, &s, id, pd_get64(v));
		if (!(e->attr.read_format & PD_FORMAT_GROUP))
			break;
	}
}
