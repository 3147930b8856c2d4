/*
 * swap.c - converts records of a foreign-endian file to host order.
 */
#include "swap.h"

static void sw16(u8 *p) { u16 v = pd_get16(p); v = __builtin_bswap16(v); memcpy(p, &v, 2); }
static void sw32(u8 *p) { u32 v = pd_get32(p); v = __builtin_bswap32(v); memcpy(p, &v, 4); }
static void sw64(u8 *p) { u64 v = pd_get64(p); v = __builtin_bswap64(v); memcpy(p, &v, 8); }

/* Swaps n u64 words starting at p, stopping at end. */
static void sw64s(u8 *p, u64 n, const u8 *end)
{
	for (u64 i = 0; i < n && p + 8 <= end; i++, p += 8)
		sw64(p);
}

/* Swaps n u32 words starting at p, stopping at end. */
static void sw32s(u8 *p, u64 n, const u8 *end)
{
	for (u64 i = 0; i < n && p + 4 <= end; i++, p += 4)
		sw32(p);
}

static u8 reverse_bits(u8 b)
{
	b = (u8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (u8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (u8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void pd_swap_attr(struct pd_attr *a)
{
	u8 *flags = (u8 *)&a->flags;

	a->type = __builtin_bswap32(a->type);
	a->size = __builtin_bswap32(a->size);
	a->config = __builtin_bswap64(a->config);
	a->sample_period = __builtin_bswap64(a->sample_period);
	a->sample_type = __builtin_bswap64(a->sample_type);
	a->read_format = __builtin_bswap64(a->read_format);
	/* big-endian compilers allocate bitfields from the top bit of each
	 * byte: reversing the bits of every byte gives the host layout */
	for (int i = 0; i < 8; i++)
		flags[i] = reverse_bits(flags[i]);
	a->wakeup_events = __builtin_bswap32(a->wakeup_events);
	a->bp_type = __builtin_bswap32(a->bp_type);
	a->config1 = __builtin_bswap64(a->config1);
	a->config2 = __builtin_bswap64(a->config2);
	a->branch_sample_type = __builtin_bswap64(a->branch_sample_type);
	a->sample_regs_user = __builtin_bswap64(a->sample_regs_user);
	a->sample_stack_user = __builtin_bswap32(a->sample_stack_user);
	a->clockid = (s32)__builtin_bswap32((u32)a->clockid);
	a->sample_regs_intr = __builtin_bswap64(a->sample_regs_intr);
	a->aux_watermark = __builtin_bswap32(a->aux_watermark);
	a->sample_max_stack = __builtin_bswap16(a->sample_max_stack);
	a->aux_sample_size = __builtin_bswap32(a->aux_sample_size);
	a->sig_data = __builtin_bswap64(a->sig_data);
	a->config3 = __builtin_bswap64(a->config3);
}

/* Swaps a sample_id trailer of the given sample_type ending at end. */
static void swap_trailer(u8 *body, u8 *end, u64 st)
{
	int n = !!(st & PD_SAMPLE_TID) + !!(st & PD_SAMPLE_TIME) + !!(st & PD_SAMPLE_ID) +
		!!(st & PD_SAMPLE_STREAM_ID) + !!(st & PD_SAMPLE_CPU) +
		!!(st & PD_SAMPLE_IDENTIFIER);
	u8 *p = end - n * 8;

	if (p < body)
		return;
	if (st & PD_SAMPLE_TID) { sw32s(p, 2, end); p += 8; }
	if (st & PD_SAMPLE_TIME) { sw64(p); p += 8; }
	if (st & PD_SAMPLE_ID) { sw64(p); p += 8; }
	if (st & PD_SAMPLE_STREAM_ID) { sw64(p); p += 8; }
	if (st & PD_SAMPLE_CPU) { sw32s(p, 2, end); p += 8; }
	if (st & PD_SAMPLE_IDENTIFIER) sw64(p);
}

/* The evsel of a sample whose id word is still in file order. */
static const struct pd_evsel *sample_evsel(struct pd_file *f, const u8 *body, const u8 *end)
{
	const struct pd_evsel *e = &f->evsel[0];

	if (f->nr_evsel > 1 && e->id_pos >= 0 && body + (e->id_pos + 1) * 8 <= end) {
		u64 id = __builtin_bswap64(pd_get64(body + e->id_pos * 8));
		const struct pd_evsel *by_id = pd_evsel_by_id(f, id);

		if (by_id)
			e = by_id;
	}
	return e;
}

/* Swaps a SAMPLE body field by field; stops quietly at a short record. */
static void swap_sample(struct pd_file *f, u8 *p, u8 *end)
{
	const struct pd_evsel *e = sample_evsel(f, p, end);
	u64 st = e->attr.sample_type, n;

#define NEED(k) do { if ((u64)(end - p) < (u64)(k)) return; } while (0)
	if (st & PD_SAMPLE_IDENTIFIER) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_IP) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_TID) { NEED(8); sw32s(p, 2, end); p += 8; }
	if (st & PD_SAMPLE_TIME) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_ADDR) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_ID) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_STREAM_ID) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_CPU) { NEED(8); sw32s(p, 2, end); p += 8; }
	if (st & PD_SAMPLE_PERIOD) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_READ) {
		u64 rf = e->attr.read_format;
		u64 per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

		if (rf & PD_FORMAT_GROUP) {
			NEED(8); sw64(p); n = pd_get64(p); p += 8;
			n = n > (u64)(end - p) / 8 ? (u64)(end - p) / 8 : n * per;
			n += !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING);
		} else {
			n = per + !!(rf & PD_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PD_FORMAT_TOTAL_TIME_RUNNING);
		}
		sw64s(p, n, end);
		p += n * 8 < (u64)(end - p) ? n * 8 : (u64)(end - p);
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		NEED(8); sw64(p); n = pd_get64(p); p += 8;
		if (n > (u64)(end - p) / 8)
			return;
		sw64s(p, n, end); p += n * 8;
	}
	if (st & PD_SAMPLE_RAW) {
		NEED(4); sw32(p); n = pd_get32(p); p += 4;
		if (n > (u64)(end - p))
			return;
		p += n;
	}
	if (st & PD_SAMPLE_BRANCH_STACK) {
		NEED(8); sw64(p); n = pd_get64(p); p += 8;
		if (e->attr.branch_sample_type & PD_BRANCH_HW_INDEX) { NEED(8); sw64(p); p += 8; }
		if (n > (u64)(end - p) / 24)
			return;
		sw64s(p, n * 3, end); p += n * 24;
	}
	if (st & PD_SAMPLE_REGS_USER) {
		NEED(8); sw64(p); n = pd_get64(p); p += 8;
		if (n) {
			n = (u64)__builtin_popcountll(e->attr.sample_regs_user);
			NEED(n * 8); sw64s(p, n, end); p += n * 8;
		}
	}
	if (st & PD_SAMPLE_STACK_USER) {
		NEED(8); sw64(p); n = pd_get64(p); p += 8;
		if (n) {
			if (n > (u64)(end - p))
				return;
			p += n;
			NEED(8); sw64(p); p += 8;
		}
	}
	if (st & (PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_DATA_SRC) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_TRANSACTION) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_REGS_INTR) {
		NEED(8); sw64(p); n = pd_get64(p); p += 8;
		if (n) {
			n = (u64)__builtin_popcountll(e->attr.sample_regs_intr);
			NEED(n * 8); sw64s(p, n, end); p += n * 8;
		}
	}
	if (st & PD_SAMPLE_PHYS_ADDR) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_CGROUP) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_DATA_PAGE_SIZE) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_CODE_PAGE_SIZE) { NEED(8); sw64(p); p += 8; }
	if (st & PD_SAMPLE_AUX) { NEED(8); sw64(p); }
#undef NEED
}

/*
 * The sample_type of the attr a non-sample record belongs to, found from
 * the id in its trailer (still in file order).  All attrs put the id at the
 * same distance from the end, so the first attr's layout finds it.
 */
static u64 trailer_sample_type(struct pd_file *f, const u8 *body, const u8 *end)
{
	const struct pd_evsel *e = &f->evsel[0];

	if (f->nr_evsel > 1 && e->is_pos > 0 && end - body >= e->is_pos * 8) {
		u64 id = __builtin_bswap64(pd_get64(end - e->is_pos * 8));
		const struct pd_evsel *by_id = pd_evsel_by_id(f, id);

		if (by_id)
			e = by_id;
	}
	return e->attr.sample_type;
}

int pd_swap_record(struct pd_file *f, struct pd_header *hdr)
{
	u8 *p = (u8 *)hdr + 8;
	u8 *end = (u8 *)hdr + hdr->size;
	u64 len = hdr->size - 8;
	int trailer = f->sample_id_all && f->nr_evsel;

	switch (hdr->type) {
	case PD_REC_SAMPLE:
		if (f->nr_evsel)
			swap_sample(f, p, end);
		return 0;
	case PD_REC_MMAP:
		sw32s(p, 2, end); sw64s(p + 8, 3, end);
		break;
	case PD_REC_MMAP2:
		sw32s(p, 2, end); sw64s(p + 8, 3, end);
		if (!(hdr->misc & PD_MISC_EXACT_IP)) {
			sw32s(p + 32, 2, end); sw64s(p + 40, 2, end);
		}
		sw32s(p + 56, 2, end);
		break;
	case PD_REC_COMM:
	case PD_REC_ITRACE_START:
	case PD_REC_SWITCH_CPU_WIDE:
		sw32s(p, 2, end);
		break;
	case PD_REC_EXIT:
	case PD_REC_FORK:
		sw32s(p, 4, end); sw64s(p + 16, 1, end);
		break;
	case PD_REC_LOST:
		sw64s(p, 2, end);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
	case PD_REC_AUX:
		sw64s(p, 3, end);
		break;
	case PD_REC_READ:
		sw32s(p, 2, end);
		sw64s(p + 8, (len > 8 ? len - 8 : 0) / 8, end);
		return 0;	/* no trailer handling: all u64 */
	case PD_REC_LOST_SAMPLES:
	case PD_REC_AUX_OUTPUT_HW_ID:
	case PD_REC_CGROUP:
		sw64s(p, 1, end);
		break;
	case PD_REC_NAMESPACES:
		sw32s(p, 2, end); sw64s(p + 8, 1, end);
		if (len >= 16) {
			u64 n = pd_get64(p + 8);

			if (n <= (len - 16) / 16)
				sw64s(p + 16, n * 2, end);
		}
		break;
	case PD_REC_KSYMBOL:
		sw64s(p, 1, end); sw32s(p + 8, 1, end);
		if (len >= 16) { sw16(p + 12); sw16(p + 14); }
		break;
	case PD_REC_BPF_EVENT:
		if (len >= 8) { sw16(p); sw16(p + 2); sw32(p + 4); }
		break;
	case PD_REC_TEXT_POKE:
		sw64s(p, 1, end);
		if (len >= 12) { sw16(p + 8); sw16(p + 10); }
		break;
	case PD_REC_SWITCH:
		break;
	case PD_REC_HEADER_ATTR:
		/* add_evsel swaps the attr; ids are swapped by add_ids */
		return 0;
	case PD_REC_HEADER_TRACING_DATA:
		sw32s(p, 1, end);
		return 0;
	case PD_REC_ID_INDEX:
	case PD_REC_STAT_CONFIG:
	case PD_REC_STAT_ROUND:
	case PD_REC_TIME_CONV:
		/* TIME_CONV's trailing u8 flags sit in a partly swapped word;
		 * they are only flags and nothing reads them */
		sw64s(p, len / 8, end);
		return 0;
	case PD_REC_STAT:
		sw64s(p, 1, end); sw32s(p + 8, 2, end); sw64s(p + 16, 3, end);
		return 0;
	case PD_REC_THREAD_MAP:
		if (len >= 8) {
			sw64(p);
			u64 n = pd_get64(p);

			for (u64 i = 0; i < n && 8 + i * 24 + 8 <= len; i++)
				sw64(p + 8 + i * 24);
		}
		return 0;
	case PD_REC_EVENT_UPDATE:
		sw64s(p, 2, end);
		if (len >= 24 && pd_get64(p) == 1)
			sw64(p + 16);	/* scale, a double */
		return 0;
	case PD_REC_HEADER_FEATURE:
		sw64s(p, 1, end);
		return 0;
	case PD_REC_AUXTRACE_INFO:
		sw32s(p, 2, end); sw64s(p + 8, len > 8 ? (len - 8) / 8 : 0, end);
		return 0;
	case PD_REC_AUXTRACE:
		sw64s(p, 3, end); sw32s(p + 24, 4, end);
		return 0;
	case PD_REC_AUXTRACE_ERROR:
		sw32s(p, 6, end); sw64s(p + 24, 2, end);
		return 0;
	case PD_REC_CPU_MAP:
		if (len >= 2)
			sw16(p);
		return 0;
	case PD_REC_HEADER_BUILD_ID:
		sw32s(p, 1, end);
		return 0;
	default:
		return 0;	/* perf-made records with only bytes, unknown types */
	}
	if (trailer && hdr->type < PD_REC_USER_START)
		swap_trailer(p, end, trailer_sample_type(f, p, end));
	return 0;
}
