/*
 * dump_records.c - "prof report -D": the decoded part of every record but
 * samples, as perf 6.1's handlers print it (perf_event__fprintf_*() and
 * the user records' dump functions).
 *
 * Invariants: every field is read through rec64()/rec32()/rec16(), which
 * give 0 past the record's end; a string is cut at the record's end.
 */
#include "dump_int.h"
#include "../util/error.h"

#include <stdlib.h>
#include <string.h>

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

	print_map_range(o, pid, tid, start, len, pgoff);
	ob_str(o, "]: ");
	ob_chr(o, (misc & PD_MISC_MMAP_DATA) ? 'r' : 'x');
	ob_chr(o, ' ');
	ob_recstr(o, r, 40);
	ob_chr(o, '\n');
}

static void do_mmap2(struct dump_state *st, const struct rec *r, u16 misc)
{
	u32 pid = rec32(r, 8), tid = rec32(r, 12);
	u64 start = rec64(r, 16), len = rec64(r, 24), pgoff = rec64(r, 32);
	u32 prot = rec32(r, 64), flags = rec32(r, 68);
	struct obuf *o = &st->ob;

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

static void do_ksymbol(struct dump_state *st, const struct rec *r)
{
	u64 addr = rec64(r, 8);
	u32 len = rec32(r, 16);
	u16 ksym_type = rec16(r, 20), flags = rec16(r, 22);
	struct obuf *o = &st->ob;

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

static void do_lost_samples(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
			    const struct rec *r)
{
	struct pd_id_trailer t = { 0 };
	struct obuf *o = &st->ob;
	u64 id = (u64)-1;

	if (ev->evsel && !pd_parse_trailer(f, ev->evsel, ev->hdr, &t) && t.valid &&
	    (ev->evsel->attr.sample_type & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER)))
		id = t.id;
	ob_str(o, ": id:");
	ob_u64(o, id);
	ob_str(o, ": lost samples :");
	ob_u64(o, rec64(r, 8));
	ob_chr(o, '\n');
}

static void do_read(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
		    const struct rec *r)
{
	struct obuf *o = &st->ob;

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
}

static void do_aux(struct dump_state *st, const struct rec *r)
{
	struct obuf *o = &st->ob;
	u64 flags = rec64(r, 24);

	ob_str(o, " offset: ");
	ob_hexalt(o, rec64(r, 8));
	ob_str(o, " size: ");
	ob_hexalt(o, rec64(r, 16));
	ob_str(o, " flags: ");
	ob_hexalt(o, flags);
	ob_fmt(o, " [%s%s%s]\n", (flags & 1) ? "T" : "", (flags & 2) ? "O" : "",
	       (flags & 4) ? "P" : "");
}

/* ---- user records ---------------------------------------------------- */

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

/* ---- the dispatchers -------------------------------------------------- */

void dump_kernel_record(struct dump_state *st, struct pd_file *f, const struct pd_event *ev,
			const struct rec *r)
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
		print_task(o, r);
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
	case PD_REC_LOST_SAMPLES:
		do_lost_samples(st, f, ev, r);
		break;
	case PD_REC_READ:
		do_read(st, f, ev, r);
		break;
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		ob_str(o, ": unhandled!\n");
		break;
	case PD_REC_AUX:
		do_aux(st, r);
		break;
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

void dump_user_record(struct dump_state *st, const struct pd_event *ev, const struct rec *r)
{
	struct obuf *o = &st->ob;

	switch (ev->hdr->type) {
	case PD_REC_HEADER_ATTR:
		st->nr_attrs_seen++;
		break;
	case PD_REC_FINISHED_ROUND:
		ob_chr(o, '\n');
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
