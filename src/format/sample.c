/*
 * sample.c - decodes SAMPLE records and sample_id trailers.
 *
 * SAMPLE body, each field present only if its sample_type bit is set, in
 * this order (perf's and the kernel's writer order):
 *
 *   IDENTIFIER u64 | IP u64 | TID u32 pid, u32 tid | TIME u64 | ADDR u64 |
 *   ID u64 | STREAM_ID u64 | CPU u32 cpu, u32 res | PERIOD u64 |
 *   READ (see read_format) | CALLCHAIN u64 nr, u64 ips[nr] |
 *   RAW u32 size, u8 data[size] | BRANCH_STACK u64 nr, [u64 hw_idx],
 *   nr x {u64 from, to, flags} | REGS_USER u64 abi, [u64 regs[hweight]] |
 *   STACK_USER u64 size, [u8 data[size], u64 dyn_size] |
 *   WEIGHT or WEIGHT_STRUCT u64 | DATA_SRC u64 | TRANSACTION u64 |
 *   REGS_INTR u64 abi, [u64 regs[hweight]] | PHYS_ADDR u64 | CGROUP u64 |
 *   DATA_PAGE_SIZE u64 | CODE_PAGE_SIZE u64 | AUX u64 size, u8 data[size]
 *
 * READ without FORMAT_GROUP: value, [enabled], [running], [id], [lost].
 * READ with FORMAT_GROUP: nr, [enabled], [running], nr x {value, [id], [lost]}.
 *
 * Every count is checked against the bytes left before it is used, so a
 * hostile count can neither overflow nor read past the record.
 */
#include "reader.h"
#include "reader_internal.h"
#include "../util/error.h"

/* The fixed-size fields that come before READ. */
#define PREFIX_FIELDS (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
		       PD_SAMPLE_ADDR | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | \
		       PD_SAMPLE_PERIOD)

struct cursor {
	const u8 *p, *end;
};

/* The number of bits set in x (__builtin_popcountll() without the popcnt
 * instruction is a library call). */
static inline u64 bit_count(u64 x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (x * 0x0101010101010101ULL) >> 56;
}

static int take64(struct cursor *c, u64 *v)
{
	if (c->end - c->p < 8)
		return -1;
	*v = pd_get64(c->p);
	c->p += 8;
	return 0;
}

static int take_bytes(struct cursor *c, u64 n, const u8 **out)
{
	if ((u64)(c->end - c->p) < n)
		return -1;
	*out = c->p;
	c->p += n;
	return 0;
}

/* The fixed fields before READ at p, whose bytes are there: id, ip, pid,
 * tid, time, addr, stream_id, cpu and period as st has them (inlined:
 * once per sample).  Returns what follows them. */
static inline __attribute__((always_inline)) const u8 *
read_prefix(u64 st, const u8 *p, struct pd_sample *s)
{
	if (st & PD_SAMPLE_IDENTIFIER) { s->id = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_IP) { s->ip = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_TID) { s->pid = pd_get32(p); s->tid = pd_get32(p + 4); p += 8; }
	if (st & PD_SAMPLE_TIME) { s->time = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_ADDR) { s->addr = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_ID) { s->id = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_STREAM_ID) { s->stream_id = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_CPU) { s->cpu = pd_get32(p); s->cpu_res = pd_get32(p + 4); p += 8; }
	if (st & PD_SAMPLE_PERIOD) { s->period = pd_get64(p); p += 8; }
	return p;
}

/* pd_parse_sample(); quiet: no message about a malformed record. */
static inline int parse_sample(const struct pd_file *f, const struct pd_evsel *evsel,
			       const struct pd_header *hdr, u64 offset, struct pd_sample *s,
			       int quiet)
{
	struct cursor c = { (const u8 *)hdr + 8, (const u8 *)hdr + hdr->size };
	u64 st = evsel->attr.sample_type;
	u64 v;
	const char *what = "a field";

	/* every field gets its default here: a memset of the whole struct
	 * (rep stos) costs more than the rest of the decoding */
	s->sample_type = st;
	s->id = s->ip = s->addr = s->stream_id = 0;
	s->time = PD_NO_TIME;
	s->period = 1;
	s->pid = s->tid = s->cpu = (u32)-1;
	s->cpu_res = 0;
	s->read.nr = s->read.time_enabled = s->read.time_running = 0;
	s->read.values = NULL;
	s->read.value_words = 0;
	s->read.value = s->read.id = s->read.lost = 0;
	s->callchain = NULL;
	s->callchain_nr = 0;
	s->callchain_addrs_from = 0;
	s->raw = NULL;
	s->raw_size = 0;
	s->branch_nr = 0;
	s->branch_hw_idx = (u64)-1;
	s->branch = NULL;
	s->regs_user_abi = s->regs_user_mask = 0;
	s->regs_user = NULL;
	s->stack_user_size = s->stack_user_dyn_size = 0;
	s->stack_user = NULL;
	s->weight = s->data_src = s->transaction = 0;
	s->regs_intr_abi = s->regs_intr_mask = 0;
	s->regs_intr = NULL;
	s->phys_addr = s->cgroup = s->data_page_size = s->code_page_size = 0;
	s->aux_size = 0;
	s->aux = NULL;

	/* the fixed-size fields before READ: one bounds check for all */
	if ((u64)(c.end - c.p) >= 8 * bit_count(st & PREFIX_FIELDS)) {
		c.p = read_prefix(st, c.p, s);
	} else {
		/* too short: find the first missing field for the message */
		static const struct { u64 bit; const char *name; } prefix[] = {
			{ PD_SAMPLE_IDENTIFIER, "IDENTIFIER" }, { PD_SAMPLE_IP, "IP" },
			{ PD_SAMPLE_TID, "TID" }, { PD_SAMPLE_TIME, "TIME" },
			{ PD_SAMPLE_ADDR, "ADDR" }, { PD_SAMPLE_ID, "ID" },
			{ PD_SAMPLE_STREAM_ID, "STREAM_ID" }, { PD_SAMPLE_CPU, "CPU" },
			{ PD_SAMPLE_PERIOD, "PERIOD" },
		};

		for (unsigned i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
			if (!(st & prefix[i].bit))
				continue;
			what = prefix[i].name;
			if (take64(&c, &v))
				goto short_record;
		}
	}
	if (!(st & PD_SAMPLE_PERIOD))
		s->period = evsel->attr.sample_period;	/* the frequency in freq mode, as perf */
	if (!(st & ~PREFIX_FIELDS))
		return 0;
	if (st & PD_SAMPLE_READ) {
		u64 rf = evsel->attr.read_format;
		u32 per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

		what = "READ";
		s->read.value_words = per;
		if (rf & PD_FORMAT_GROUP) {
			if (take64(&c, &s->read.nr))
				goto short_record;
		} else {
			s->read.nr = 1;
			if (take64(&c, &s->read.value))
				goto short_record;
		}
		if ((rf & PD_FORMAT_TOTAL_TIME_ENABLED) && take64(&c, &s->read.time_enabled))
			goto short_record;
		if ((rf & PD_FORMAT_TOTAL_TIME_RUNNING) && take64(&c, &s->read.time_running))
			goto short_record;
		if (rf & PD_FORMAT_GROUP) {
			if (s->read.nr > (u64)(c.end - c.p) / (per * 8))
				goto bad_count;
			take_bytes(&c, s->read.nr * per * 8, &s->read.values);
		} else {
			if ((rf & PD_FORMAT_ID) && take64(&c, &s->read.id))
				goto short_record;
			if ((rf & PD_FORMAT_LOST) && take64(&c, &s->read.lost))
				goto short_record;
		}
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		what = "CALLCHAIN";
		if (take64(&c, &s->callchain_nr))
			goto short_record;
		if (s->callchain_nr > (u64)(c.end - c.p) / 8)
			goto bad_count;
		take_bytes(&c, s->callchain_nr * 8, &s->callchain);
	}
	if (!(st & ~(PREFIX_FIELDS | PD_SAMPLE_READ | PD_SAMPLE_CALLCHAIN)))
		return 0;
	if (st & PD_SAMPLE_RAW) {
		what = "RAW";
		if (c.end - c.p < 4)
			goto short_record;
		s->raw_size = pd_get32(c.p);
		c.p += 4;
		if (take_bytes(&c, s->raw_size, &s->raw))
			goto bad_count;
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		what = "BRANCH_STACK";
		if (take64(&c, &s->branch_nr))
			goto short_record;
		if ((evsel->attr.branch_sample_type & PD_BRANCH_HW_INDEX) &&
		    take64(&c, &s->branch_hw_idx))
			goto short_record;
		if (s->branch_nr > (u64)(c.end - c.p) / 24)
			goto bad_count;
		take_bytes(&c, s->branch_nr * 24, &s->branch);
	}
	if (st & PD_SAMPLE_REGS_USER) {
		what = "REGS_USER";
		if (take64(&c, &s->regs_user_abi))
			goto short_record;
		if (s->regs_user_abi) {
			s->regs_user_mask = evsel->attr.sample_regs_user;
			if (take_bytes(&c, 8 * bit_count(s->regs_user_mask), &s->regs_user))
				goto short_record;
		}
	}
	if (st & PD_SAMPLE_STACK_USER) {
		what = "STACK_USER";
		if (take64(&c, &s->stack_user_size))
			goto short_record;
		if (s->stack_user_size) {
			if (take_bytes(&c, s->stack_user_size, &s->stack_user))
				goto bad_count;
			if (take64(&c, &s->stack_user_dyn_size))
				goto short_record;
			if (s->stack_user_dyn_size > s->stack_user_size)
				s->stack_user_dyn_size = s->stack_user_size;
		}
	}
#define FIELD(bit, name, stmt) \
	if (st & (bit)) { what = name; if (take64(&c, &v)) goto short_record; stmt; }
	FIELD(PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT", s->weight = v)
	FIELD(PD_SAMPLE_DATA_SRC, "DATA_SRC", s->data_src = v)
	FIELD(PD_SAMPLE_TRANSACTION, "TRANSACTION", s->transaction = v)
	if (st & PD_SAMPLE_REGS_INTR) {
		what = "REGS_INTR";
		if (take64(&c, &s->regs_intr_abi))
			goto short_record;
		if (s->regs_intr_abi) {
			s->regs_intr_mask = evsel->attr.sample_regs_intr;
			if (take_bytes(&c, 8 * bit_count(s->regs_intr_mask), &s->regs_intr))
				goto short_record;
		}
	}
	FIELD(PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR", s->phys_addr = v)
	FIELD(PD_SAMPLE_CGROUP, "CGROUP", s->cgroup = v)
	FIELD(PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", s->data_page_size = v)
	FIELD(PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", s->code_page_size = v)
	if (st & PD_SAMPLE_AUX) {
		what = "AUX";
		if (take64(&c, &s->aux_size))
			goto short_record;
		if (take_bytes(&c, s->aux_size, &s->aux))
			goto bad_count;
	}
#undef FIELD
	return 0;

short_record:
	if (quiet)
		return -1;
	return error("%s: sample record too short for its %s field at offset %#llx", f->path,
		     what, (unsigned long long)offset);
bad_count:
	if (quiet)
		return -1;
	return error("%s: sample %s size exceeds its record at offset %#llx", f->path, what,
		     (unsigned long long)offset);
}

int pd_parse_sample(const struct pd_file *f, const struct pd_evsel *evsel,
		    const struct pd_header *hdr, u64 offset, struct pd_sample *s)
{
	return parse_sample(f, evsel, hdr, offset, s, 0);
}

int pd_parse_sample_quiet(const struct pd_file *f, const struct pd_evsel *evsel,
			  const struct pd_header *hdr, struct pd_sample *s)
{
	return parse_sample(f, evsel, hdr, 0, s, 1);
}

int pd_parse_trailer(const struct pd_file *f, const struct pd_evsel *evsel,
		     const struct pd_header *hdr, struct pd_id_trailer *t)
{
	u64 st = evsel->attr.sample_type;
	const u8 *p;

	memset(t, 0, sizeof(*t));
	t->pid = t->tid = (u32)-1;
	t->cpu = (u32)-1;
	t->time = PD_NO_TIME;
	if (!PD_ATTR_FLAG(&evsel->attr, PD_ATTR_SAMPLE_ID_ALL) || hdr->type == PD_REC_SAMPLE ||
	    hdr->type >= PD_REC_USER_START)
		return 0;
	if (hdr->size < 8 + (u64)evsel->trailer_size)
		return error("%s: record of type %u too short for its sample_id trailer", f->path,
			     hdr->type);
	p = (const u8 *)hdr + hdr->size - evsel->trailer_size;
	if (st & PD_SAMPLE_TID) { t->pid = pd_get32(p); t->tid = pd_get32(p + 4); p += 8; }
	if (st & PD_SAMPLE_TIME) { t->time = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_ID) { t->id = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_STREAM_ID) { t->stream_id = pd_get64(p); p += 8; }
	if (st & PD_SAMPLE_CPU) { t->cpu = pd_get32(p); t->cpu_res = pd_get32(p + 4); p += 8; }
	if (st & PD_SAMPLE_IDENTIFIER) t->id = pd_get64(p);
	t->valid = 1;
	return 0;
}

int pd_parse_sample_head(const struct pd_file *f, const struct pd_evsel *evsel,
			 const struct pd_header *hdr, u64 offset, struct pd_sample *s)
{
	u64 st = evsel->attr.sample_type;
	const u8 *p = (const u8 *)hdr + 8, *end = (const u8 *)hdr + hdr->size;

	/* bits set in a nibble: the fixed fields are bits 0-3 (IP, TID, TIME,
	   ADDR), 6-9 (ID, CPU, PERIOD, STREAM_ID) and 16 (IDENTIFIER) */
	static const u8 nibble_bits[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
	u64 head = 8 * (nibble_bits[st & 15] + nibble_bits[(st >> 6) & 15] + ((st >> 16) & 1)) +
		   ((st & PD_SAMPLE_CALLCHAIN) ? 8 : 0);

	_Static_assert(PREFIX_FIELDS == (0xfULL | 0xfULL << 6 | 1ULL << 16), "the fixed fields' bits");
	/* anything else, a record too short or a bad count: the whole
	   decoding, which also reports the error */
	if ((st & ~(PREFIX_FIELDS | PD_SAMPLE_CALLCHAIN)) || (u64)(end - p) < head)
		return pd_parse_sample(f, evsel, hdr, offset, s);
	s->sample_type = st;
	s->id = s->ip = s->addr = s->stream_id = 0;
	s->time = PD_NO_TIME;
	s->pid = s->tid = s->cpu = (u32)-1;
	s->cpu_res = 0;
	s->period = evsel->attr.sample_period;	/* the frequency in freq mode, as perf */
	p = read_prefix(st, p, s);
	s->callchain = NULL;
	s->callchain_nr = 0;
	s->callchain_addrs_from = 0;
	if (st & PD_SAMPLE_CALLCHAIN) {
		u64 nr = pd_get64(p);

		p += 8;
		if (nr > (u64)(end - p) / 8)
			return pd_parse_sample(f, evsel, hdr, offset, s);
		s->callchain_nr = nr;
		s->callchain = p;
	}
	return 0;
}
