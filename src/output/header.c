/*
 * header.c - prints a perf.data file's header block and feature sections
 * exactly as perf 6.1's "perf report --header-only" (perf_header__fprintf_info
 * and the print_*() functions of util/header.c) does.
 *
 * File mode: the "# ========" block holds the header fields, then every
 * set feature bit below 32 in bit order, then the "missing features" line.
 * perf decodes all features when it opens the file and stops at the first
 * malformed one; the printers then run for every set bit and show whatever
 * state decoding left (so a feature after a broken one prints defaults).
 *
 * Pipe mode: the block has zero offsets and no features; the features
 * follow it, each printed as its HEADER_FEATURE record is processed, and
 * processing stops at the first malformed one.
 */
#include "header.h"
#include "../format/evname.h"
#include "../format/feature.h"

#include <inttypes.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* perf 6.1's HEADER_LAST_FEATURE */
#define LAST_FEATURE_61	PD_FEAT_PIPE_END_61

#define ATTR_BUF_SIZE	1024

struct printer {
	struct pd_file *f;
	struct pd_feat_env *env;
	FILE *out;
	char buf[ATTR_BUF_SIZE];	/* perf's attr value buffer: bit lists
					   that match nothing keep its old text */
};

/* -------------------------------------------------------- event attrs --- */

struct bit_name {
	u64 bit;
	const char *name;
};

static const struct bit_name sample_type_bits[] = {
	{ PD_SAMPLE_IP, "IP" }, { PD_SAMPLE_TID, "TID" }, { PD_SAMPLE_TIME, "TIME" },
	{ PD_SAMPLE_ADDR, "ADDR" }, { PD_SAMPLE_READ, "READ" },
	{ PD_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PD_SAMPLE_ID, "ID" },
	{ PD_SAMPLE_CPU, "CPU" }, { PD_SAMPLE_PERIOD, "PERIOD" },
	{ PD_SAMPLE_STREAM_ID, "STREAM_ID" }, { PD_SAMPLE_RAW, "RAW" },
	{ PD_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PD_SAMPLE_REGS_USER, "REGS_USER" },
	{ PD_SAMPLE_STACK_USER, "STACK_USER" }, { PD_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PD_SAMPLE_REGS_INTR, "REGS_INTR" }, { PD_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PD_SAMPLE_WEIGHT, "WEIGHT" }, { PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PD_SAMPLE_AUX, "AUX" }, { PD_SAMPLE_CGROUP, "CGROUP" },
	{ PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name branch_type_bits[] = {
	{ 1 << 0, "USER" }, { 1 << 1, "KERNEL" }, { 1 << 2, "HV" }, { 1 << 3, "ANY" },
	{ 1 << 4, "ANY_CALL" }, { 1 << 5, "ANY_RETURN" }, { 1 << 6, "IND_CALL" },
	{ 1 << 7, "ABORT_TX" }, { 1 << 8, "IN_TX" }, { 1 << 9, "NO_TX" },
	{ 1 << 10, "COND" }, { 1 << 11, "CALL_STACK" }, { 1 << 12, "IND_JUMP" },
	{ 1 << 13, "CALL" }, { 1 << 14, "NO_FLAGS" }, { 1 << 15, "NO_CYCLES" },
	{ 1 << 16, "TYPE_SAVE" }, { 1 << 17, "HW_INDEX" }, { 1 << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

static const struct bit_name read_format_bits[] = {
	{ PD_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PD_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PD_FORMAT_ID, "ID" }, { PD_FORMAT_GROUP, "GROUP" }, { PD_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

/* The attr flag bits perf prints, in its order (precise_ip is 2 bits). */
static const struct { int bit; const char *name; } attr_flags[] = {
	{ PD_ATTR_DISABLED, "disabled" }, { PD_ATTR_INHERIT, "inherit" },
	{ PD_ATTR_PINNED, "pinned" }, { PD_ATTR_EXCLUSIVE, "exclusive" },
	{ PD_ATTR_EXCLUDE_USER, "exclude_user" }, { PD_ATTR_EXCLUDE_KERNEL, "exclude_kernel" },
	{ PD_ATTR_EXCLUDE_HV, "exclude_hv" }, { PD_ATTR_EXCLUDE_IDLE, "exclude_idle" },
	{ PD_ATTR_MMAP, "mmap" }, { PD_ATTR_COMM, "comm" }, { PD_ATTR_FREQ, "freq" },
	{ PD_ATTR_INHERIT_STAT, "inherit_stat" }, { PD_ATTR_ENABLE_ON_EXEC, "enable_on_exec" },
	{ PD_ATTR_TASK, "task" }, { PD_ATTR_WATERMARK, "watermark" },
	{ PD_ATTR_PRECISE_IP, "precise_ip" }, { PD_ATTR_MMAP_DATA, "mmap_data" },
	{ PD_ATTR_SAMPLE_ID_ALL, "sample_id_all" }, { PD_ATTR_EXCLUDE_HOST, "exclude_host" },
	{ PD_ATTR_EXCLUDE_GUEST, "exclude_guest" },
	{ PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL, "exclude_callchain_kernel" },
	{ PD_ATTR_EXCLUDE_CALLCHAIN_USER, "exclude_callchain_user" },
	{ PD_ATTR_MMAP2, "mmap2" }, { PD_ATTR_COMM_EXEC, "comm_exec" },
	{ PD_ATTR_USE_CLOCKID, "use_clockid" }, { PD_ATTR_CONTEXT_SWITCH, "context_switch" },
	{ PD_ATTR_WRITE_BACKWARD, "write_backward" }, { PD_ATTR_NAMESPACES, "namespaces" },
	{ PD_ATTR_KSYMBOL, "ksymbol" }, { PD_ATTR_BPF_EVENT, "bpf_event" },
	{ PD_ATTR_AUX_OUTPUT, "aux_output" }, { PD_ATTR_CGROUP, "cgroup" },
	{ PD_ATTR_TEXT_POKE, "text_poke" }, { PD_ATTR_BUILD_ID, "build_id" },
	{ PD_ATTR_INHERIT_THREAD, "inherit_thread" }, { PD_ATTR_REMOVE_ON_EXEC, "remove_on_exec" },
	{ PD_ATTR_SIGTRAP, "sigtrap" },
};

/* perf's __p_bits(): writes the names of set bits; leaves buf alone when
 * none is set. */
static void bits_to_buf(struct printer *p, u64 value, const struct bit_name *bits)
{
	size_t len = 0;

	for (int i = 0; bits[i].name; i++) {
		if (!(value & bits[i].bit))
			continue;
		len += snprintf(p->buf + len, sizeof(p->buf) - len, "%s%s", len ? "|" : "",
				bits[i].name);
		if (len >= sizeof(p->buf))
			len = sizeof(p->buf) - 1;
	}
}

enum attr_fmt { UNSIGNED, HEX, SIGNED, SAMPLE_TYPE, READ_FORMAT, BRANCH_TYPE };

static void attr_field(struct printer *p, const char *name, u64 value, enum attr_fmt fmt)
{
	if (!value)
		return;
	switch (fmt) {
	case UNSIGNED:
		snprintf(p->buf, sizeof(p->buf), "%" PRIu64, value);
		break;
	case HEX:
		snprintf(p->buf, sizeof(p->buf), "%#" PRIx64, value);
		break;
	case SIGNED:
		snprintf(p->buf, sizeof(p->buf), "%" PRId64, (s64)value);
		break;
	case SAMPLE_TYPE:
		bits_to_buf(p, value, sample_type_bits);
		break;
	case READ_FORMAT:
		bits_to_buf(p, value, read_format_bits);
		break;
	case BRANCH_TYPE:
		bits_to_buf(p, value, branch_type_bits);
		break;
	}
	fprintf(p->out, ", %s = %s", name, p->buf);
}

/* perf_event_attr__fprintf() of perf 6.1 (fields up to sig_data). */
static void print_attr(struct printer *p, const struct pd_attr *a)
{
	attr_field(p, "type", a->type, UNSIGNED);
	attr_field(p, "size", a->size, UNSIGNED);
	attr_field(p, "config", a->config, HEX);
	attr_field(p, "{ sample_period, sample_freq }", a->sample_period, UNSIGNED);
	attr_field(p, "sample_type", a->sample_type, SAMPLE_TYPE);
	attr_field(p, "read_format", a->read_format, READ_FORMAT);
	for (size_t i = 0; i < sizeof(attr_flags) / sizeof(attr_flags[0]); i++) {
		u64 v = attr_flags[i].bit == PD_ATTR_PRECISE_IP ? PD_ATTR_PRECISE(a) :
			PD_ATTR_FLAG(a, attr_flags[i].bit);

		attr_field(p, attr_flags[i].name, v, UNSIGNED);
	}
	attr_field(p, "{ wakeup_events, wakeup_watermark }", a->wakeup_events, UNSIGNED);
	attr_field(p, "bp_type", a->bp_type, UNSIGNED);
	attr_field(p, "{ bp_addr, config1 }", a->config1, HEX);
	attr_field(p, "{ bp_len, config2 }", a->config2, HEX);
	attr_field(p, "branch_sample_type", a->branch_sample_type, BRANCH_TYPE);
	attr_field(p, "sample_regs_user", a->sample_regs_user, HEX);
	attr_field(p, "sample_stack_user", a->sample_stack_user, UNSIGNED);
	attr_field(p, "clockid", (u64)(s64)a->clockid, SIGNED);
	attr_field(p, "sample_regs_intr", a->sample_regs_intr, HEX);
	attr_field(p, "aux_watermark", a->aux_watermark, UNSIGNED);
	attr_field(p, "sample_max_stack", a->sample_max_stack, UNSIGNED);
	attr_field(p, "aux_sample_size", a->aux_sample_size, UNSIGNED);
	attr_field(p, "sig_data", a->sig_data, UNSIGNED);
}

/* ---------------------------------------------------------------- BPF --- */

/* perf's bpil array bits (util/bpf-utils.h) */
enum { BPIL_JITED_KSYMS = 3, BPIL_JITED_FUNC_LENS = 4, BPIL_FUNC_INFO = 5, BPIL_PROG_TAGS = 8 };

#define INFO32(info, field) pd_get32((info) + offsetof(struct bpf_prog_info, field))
#define INFO64(info, field) pd_get64((info) + offsetof(struct bpf_prog_info, field))

/* The array at the offset held in a bpf_prog_info pointer field, when it is
 * present and n elements of elem bytes fit in the data. */
static const u8 *bpf_array(const struct pd_feat_bpf_prog *prog, int bit, u64 offset, u64 n, u64 elem)
{
	if (!(prog->arrays >> bit & 1) || offset > prog->data_len || !elem ||
	    n > (prog->data_len - offset) / elem)
		return NULL;
	return prog->data + offset;
}

/* The name of BTF type id in a raw BTF blob, or NULL. */
static const char *btf_type_name(const struct pd_feat_btf *btf, u32 id)
{
	const u8 *d = btf->data;
	u32 hdr_len, type_off, type_len, str_off, str_len;
	u64 pos, end;

	if (btf->size < 24 || pd_get16(d) != 0xeb9f)
		return NULL;
	hdr_len = pd_get32(d + 4);
	type_off = pd_get32(d + 8);
	type_len = pd_get32(d + 12);
	str_off = pd_get32(d + 16);
	str_len = pd_get32(d + 20);
	if ((u64)hdr_len + type_off + type_len > btf->size ||
	    (u64)hdr_len + str_off + str_len > btf->size)
		return NULL;
	pos = (u64)hdr_len + type_off;
	end = pos + type_len;
	for (u32 cur = 1; pos + 12 <= end; cur++) {
		u32 name_off = pd_get32(d + pos), info = pd_get32(d + pos + 4);
		u32 kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
		static const u8 fixed[20] = { [1] = 4, [3] = 12, [14] = 4, [17] = 4 };
		static const u8 per_member[20] = { [4] = 12, [5] = 12, [6] = 8, [13] = 8,
						   [15] = 12, [19] = 12 };

		if (cur == id) {
			const char *s = (const char *)d + hdr_len + str_off + name_off;

			if (name_off >= str_len || !memchr(s, 0, str_len - name_off))
				return NULL;
			return s;
		}
		if (kind >= 20)
			return NULL;
		pos += 12 + fixed[kind] + (u64)vlen * per_member[kind];
	}
	return NULL;
}

/* synthesize_bpf_prog_name(): "bpf_prog_<tag>[_<name>]". */
static void bpf_prog_name(const struct pd_feat_bpf_prog *prog, const struct pd_feat_btf *btf,
			  const u8 *tag, u32 sub, u32 nr_subs, char *buf, size_t size)
{
	const u8 *info = prog->info;
	const char *short_name = NULL;
	size_t len = snprintf(buf, size, "bpf_prog_");

	for (int i = 0; i < BPF_TAG_SIZE && len < size; i++)
		len += snprintf(buf + len, size - len, "%02x", tag[i]);
	if (btf) {
		u32 rec = INFO32(info, func_info_rec_size);
		const u8 *finfo = bpf_array(prog, BPIL_FUNC_INFO, INFO64(info, func_info),
					    (u64)sub + 1, rec);

		if (finfo && rec >= 8)
			short_name = btf_type_name(btf, pd_get32(finfo + (u64)sub * rec + 4));
	} else if (sub == 0 && nr_subs == 1) {
		const char *name = (const char *)info + offsetof(struct bpf_prog_info, name);

		if (name[0]) {
			if (len < size)
				snprintf(buf + len, size - len, "_%.*s", BPF_OBJ_NAME_LEN, name);
			return;
		}
	} else {
		short_name = "F";
	}
	if (short_name && len < size)
		snprintf(buf + len, size - len, "_%s", short_name);
}

/* __bpf_event__print_bpf_prog_info() */
static void print_bpf_prog(struct printer *p, const struct pd_feat_bpf_prog *prog)
{
	const u8 *info = prog->info;
	u32 n = INFO32(info, nr_jited_ksyms);
	const u8 *addrs, *lens, *tags;
	const struct pd_feat_btf *btf = NULL;
	u32 btf_id = INFO32(info, btf_id);
	char name[512];

	if (n != INFO32(info, nr_prog_tags) || n != INFO32(info, nr_jited_func_lens))
		return;
	addrs = bpf_array(prog, BPIL_JITED_KSYMS, INFO64(info, jited_ksyms), n, 8);
	lens = bpf_array(prog, BPIL_JITED_FUNC_LENS, INFO64(info, jited_func_lens), n, 4);
	tags = bpf_array(prog, BPIL_PROG_TAGS, INFO64(info, prog_tags), n, BPF_TAG_SIZE);
	if (n && (!addrs || !lens || !tags))
		return;
	for (u32 i = 0; btf_id && i < p->env->nr_btfs; i++)
		if (p->env->btfs[i].id == btf_id)
			btf = &p->env->btfs[i];
	if (n == 1) {
		bpf_prog_name(prog, btf, tags, 0, n, name, sizeof(name));
		fprintf(p->out, "# bpf_prog_info %u: %s addr 0x%llx size %u\n",
			INFO32(info, id), name, (unsigned long long)pd_get64(addrs), pd_get32(lens));
		return;
	}
	fprintf(p->out, "# bpf_prog_info %u:\n", INFO32(info, id));
	for (u32 i = 0; i < n; i++) {
		bpf_prog_name(prog, btf, tags + i * BPF_TAG_SIZE, i, n, name, sizeof(name));
		fprintf(p->out, "# \tsub_prog %u: %s addr 0x%llx size %u\n", i, name,
			(unsigned long long)pd_get64(addrs + i * 8), pd_get32(lens + i * 4));
	}
}

/* ----------------------------------------------------------- features --- */

static const char *str(const char *s)
{
	return s ? s : "(null)";
}

static void print_strs(FILE *out, const char *prefix, const struct pd_feat_strs *l)
{
	for (u32 i = 0; i < l->nr; i++)
		fprintf(out, "%s%s\n", prefix, l->s[i]);
}

static void print_cmdline(struct printer *p)
{
	fputs("# cmdline : ", p->out);
	for (u32 i = 0; i < p->env->cmdline.nr; i++) {
		for (const char *s = p->env->cmdline.s[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", p->out);
			else
				fputc(*s, p->out);
		}
		fputc(' ', p->out);
	}
	fputc('\n', p->out);
}

static void print_event_desc(struct printer *p)
{
	struct pd_feat_env env;

	/* perf re-reads the section here, whatever happened before */
	pd_feature_env_init(p->f, &env);
	if (pd_feature_decode(p->f, PD_FEAT_EVENT_DESC, &env) || !env.event_desc_ok) {
		fputs("# event desc: not available or unable to read\n", p->out);
		return;
	}
	for (u32 i = 0; i < env.nr_events; i++) {
		const struct pd_feat_event *e = &env.events[i];

		fprintf(p->out, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fputs(", id = {", p->out);
			for (u32 j = 0; j < e->nr_ids; j++)
				fprintf(p->out, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fputs(" }", p->out);
		}
		print_attr(p, &e->attr);
		fputc('\n', p->out);
	}
}

static void print_cpu_topology(struct printer *p)
{
	const struct pd_feat_env *env = p->env;
	int dies = env->sibling_dies.nr != 0;

	print_strs(p->out, "# sibling sockets : ", &env->sibling_cores);
	print_strs(p->out, "# sibling dies    : ", &env->sibling_dies);
	print_strs(p->out, "# sibling threads : ", &env->sibling_threads);
	if (!env->cpu) {
		fprintf(p->out, dies ? "# Core ID, Die ID and Socket ID information is not available\n" :
			"# Core ID and Socket ID information is not available\n");
		return;
	}
	for (u32 i = 0; i < env->nr_cpus_avail && i < INT32_MAX; i++) {
		const struct pd_feat_cpu *c = &env->cpu[i];

		if (dies)
			fprintf(p->out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->die_id, (int)c->socket_id);
		else
			fprintf(p->out, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->socket_id);
	}
}

static void print_numa_topology(struct printer *p)
{
	for (u32 i = 0; i < p->env->nr_numa_nodes; i++) {
		const struct pd_feat_numa_node *n = &p->env->numa_nodes[i];

		fprintf(p->out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total, n->mem_free);
		fprintf(p->out, "# node%u cpu list : %s\n", n->node, n->cpus);
	}
}

static void print_pmu_mappings(struct printer *p)
{
	if (!p->env->nr_pmus) {
		fputs("# pmu mappings: not available\n", p->out);
		return;
	}
	for (u32 i = 0; i < p->env->nr_pmus; i++)
		fprintf(p->out, "%s%s = %u", i ? ", " : "# pmu mappings: ", p->env->pmus[i].name,
			p->env->pmus[i].type);
	fputc('\n', p->out);
}

static void print_group_desc(struct printer *p)
{
	const struct pd_feat_env *env = p->env;
	u32 nr = 0;
	char name[256];

	for (u32 i = 0; i < p->f->nr_evsel; i++) {
		pd_evsel_name(p->f, &p->f->evsel[i], name, sizeof(name));
		if (env->group_leader_is_self[i] && env->group_nr_members[i] > 1) {
			fprintf(p->out, "# group: %s{%s", env->group_name[i] ? env->group_name[i] : "",
				name);
			nr = env->group_nr_members[i] - 1;
		} else if (nr) {
			fprintf(p->out, ",%s", name);
			if (--nr == 0)
				fputs("}\n", p->out);
		}
	}
}

static void print_caches(struct printer *p)
{
	fputs("# CPU cache info:\n", p->out);
	for (u32 i = 0; i < p->env->nr_caches; i++) {
		const struct pd_feat_cache *c = &p->env->caches[i];

		fprintf(p->out, "#  L%d %-15s %8s [%s]\n", (int)c->level, c->type, c->size, c->map);
	}
}

static void print_sample_time(struct printer *p)
{
	u64 first = p->env->first_sample_time, last = p->env->last_sample_time;

	fprintf(p->out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		first / 1000000000, first % 1000000000 / 1000);
	fprintf(p->out, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		last / 1000000000, last % 1000000000 / 1000);
	fprintf(p->out, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000);
}

/* bitmap_scnprintf(): "0-23,32-199" into a 100-byte buffer. */
static void bitmap_list(const u64 *bits, u64 nbits, char *buf, size_t size)
{
	size_t len = 0;
	u64 i = 0;

	buf[0] = 0;
	while (i < nbits) {
		u64 start;

		if (!(bits[i / 64] >> (i % 64) & 1)) {
			i++;
			continue;
		}
		start = i;
		while (i + 1 < nbits && (bits[(i + 1) / 64] >> ((i + 1) % 64) & 1))
			i++;
		if (len + 1 < size)
			len += snprintf(buf + len, size - len, "%s%" PRIu64, len ? "," : "", start);
		if (start < i && len + 1 < size)
			len += snprintf(buf + len, size - len, "-%" PRIu64, i);
		if (len >= size)
			len = size - 1;
		i++;
	}
}

static void print_mem_topology(struct printer *p)
{
	const struct pd_feat_env *env = p->env;

	fprintf(p->out, "# memory nodes (nr %d, block size 0x%llx):\n", (int)env->nr_mem_nodes,
		(unsigned long long)env->mem_bsize);
	for (u64 i = 0; i < env->nr_mem_nodes; i++) {
		const struct pd_feat_mem_node *n = &env->mem_nodes[i];
		static const char units[] = "BKMG";
		char map[100];
		u64 weight = 0, size;
		int unit = 0;

		for (u64 b = 0; b < n->nbits; b++)
			weight += n->bitmap[b / 64] >> (b % 64) & 1;
		size = env->mem_bsize * weight;
		while (size / 1024 > 1 && unit < 3) {
			size /= 1024;
			unit++;
		}
		bitmap_list(n->bitmap, n->nbits, map, sizeof(map));
		fprintf(p->out, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n", n->node, size, units[unit], map);
	}
}

static const char *clockid_name(u32 clockid)
{
	switch (clockid) {
	case 1:	return "monotonic";
	case 4:	return "monotonic_raw";
	case 0:	return "realtime";
	case 7:	return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void print_clock_data(struct printer *p)
{
	const struct pd_feat_env *env = p->env;
	time_t sec = (time_t)(env->tod_ns / 1000000000);
	int usec = (int)(env->tod_ns % 1000000000 / 1000);
	struct tm tm;
	char date[64], when[80];

	if (!env->clock_enabled) {
		fputs("# reference time disabled\n", p->out);
		return;
	}
	if (!localtime_r(&sec, &tm)) {
		snprintf(when, sizeof(when), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(when, sizeof(when), "%s.%06d", date, usec);
	}
	fprintf(p->out, "# clockid: %s (%u)\n", clockid_name(env->clockid), env->clockid);
	fprintf(p->out, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", when,
		(long)sec, usec, (long)(env->clockid_ns / 1000000000),
		(long)(env->clockid_ns % 1000000000), clockid_name(env->clockid));
}

static void print_pmu_caps_line(FILE *out, const struct pd_feat_strs *caps, const char *pmu)
{
	if (!caps->nr) {
		fprintf(out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(out, "# %s pmu capabilities: ", pmu);
	for (u32 i = 0; i < caps->nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", caps->s[i]);
	fputc('\n', out);
}

/* Is feat one perf 6.1 prints only with -I? */
static int full_only(unsigned feat)
{
	return feat == PD_FEAT_CPU_TOPOLOGY || feat == PD_FEAT_NUMA_TOPOLOGY ||
	       feat == PD_FEAT_CACHE || feat == PD_FEAT_MEM_TOPOLOGY ||
	       feat == PD_FEAT_HYBRID_TOPOLOGY;
}

/* Does perf 6.1 have a print function for feat? */
static int printable(unsigned feat)
{
	return feat > PD_FEAT_BUILD_ID && feat < LAST_FEATURE_61;
}

/* The print_*() function of feature feat. */
static void print_feature(struct printer *p, unsigned feat)
{
	const struct pd_feat_env *env = p->env;
	FILE *out = p->out;

	switch (feat) {
	case PD_FEAT_HOSTNAME:
		fprintf(out, "# hostname : %s\n", str(env->hostname));
		break;
	case PD_FEAT_OSRELEASE:
		fprintf(out, "# os release : %s\n", str(env->os_release));
		break;
	case PD_FEAT_VERSION:
		fprintf(out, "# perf version : %s\n", str(env->version));
		break;
	case PD_FEAT_ARCH:
		fprintf(out, "# arch : %s\n", str(env->arch));
		break;
	case PD_FEAT_NRCPUS:
		fprintf(out, "# nrcpus online : %u\n", env->nr_cpus_online);
		fprintf(out, "# nrcpus avail : %u\n", env->nr_cpus_avail);
		break;
	case PD_FEAT_CPUDESC:
		fprintf(out, "# cpudesc : %s\n", str(env->cpu_desc));
		break;
	case PD_FEAT_CPUID:
		fprintf(out, "# cpuid : %s\n", str(env->cpuid));
		break;
	case PD_FEAT_TOTAL_MEM:
		fprintf(out, "# total memory : %llu kB\n", (unsigned long long)env->total_mem);
		break;
	case PD_FEAT_CMDLINE:
		print_cmdline(p);
		break;
	case PD_FEAT_EVENT_DESC:
		print_event_desc(p);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(p);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		print_numa_topology(p);
		break;
	case PD_FEAT_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", out);
		break;
	case PD_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(p);
		break;
	case PD_FEAT_GROUP_DESC:
		print_group_desc(p);
		break;
	case PD_FEAT_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", out);
		break;
	case PD_FEAT_STAT:
		fputs("# contains stat data\n", out);
		break;
	case PD_FEAT_CACHE:
		print_caches(p);
		break;
	case PD_FEAT_SAMPLE_TIME:
		print_sample_time(p);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		print_mem_topology(p);
		break;
	case PD_FEAT_CLOCKID:
		fprintf(out, "# clockid frequency: %" PRIu64 " MHz\n", env->clockid_res_ns * 1000);
		break;
	case PD_FEAT_DIR_FORMAT:
		fputs("# directory data version : 0\n", out);
		break;
	case PD_FEAT_BPF_PROG_INFO:
		for (u32 i = 0; i < env->nr_bpf_progs; i++)
			print_bpf_prog(p, &env->bpf_progs[i]);
		break;
	case PD_FEAT_BPF_BTF:
		for (u32 i = 0; i < env->nr_btfs; i++)
			fprintf(out, "# btf info of id %u\n", env->btfs[i].id);
		break;
	case PD_FEAT_COMPRESSED:
		fprintf(out, "# compressed : %s, level = %d, ratio = %d\n",
			env->comp_type == 1 ? "Zstd" : "Unknown", (int)env->comp_level,
			(int)env->comp_ratio);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		print_pmu_caps_line(out, &env->cpu_pmu_caps, "cpu");
		break;
	case PD_FEAT_CLOCK_DATA:
		print_clock_data(p);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		fputs("# hybrid cpu system:\n", out);
		for (u32 i = 0; i < env->nr_hybrid_nodes; i++)
			fprintf(out, "# %s cpu list : %s\n", env->hybrid_nodes[i].pmu_name,
				env->hybrid_nodes[i].cpus);
		break;
	case PD_FEAT_PMU_CAPS:
		for (u32 i = 0; i < env->nr_pmu_caps; i++)
			print_pmu_caps_line(out, &env->pmu_caps[i].caps, env->pmu_caps[i].pmu_name);
		break;
	}
}

/* perf_file_section__fprintf_info() for one feature. */
static void show_feature(struct printer *p, unsigned feat, int full)
{
	if (!printable(feat))
		return;
	if (full_only(feat) && !full)
		fprintf(p->out, "# %s info available, use -I to display\n", pd_feature_name(feat));
	else
		print_feature(p, feat);
}

static int file_bit(const struct pd_file *f, unsigned feat)
{
	return f->features[feat / 64] >> (feat % 64) & 1;
}

int header_print(struct pd_file *f, FILE *out, int show_full_info)
{
	struct pd_feat_env env;
	struct printer p = { .f = f, .env = &env, .out = out };
	struct stat st;
	char when[64];
	time_t mtime;
	u64 data_size = f->data_size_was_zero ? 0 : f->data_size;

	fputs("# ========\n", out);
	if ((f->fd >= 0 ? fstat(f->fd, &st) : stat(f->path, &st)) < 0) {
		fputs("# ========\n#\n", out);
		return 0;
	}
	mtime = st.st_mtime;
	fprintf(out, "# captured on    : %s", ctime_r(&mtime, when) ? when : "\n");
	fputs("# header version : 1\n", out);
	if (f->pipe_mode) {
		fputs("# data offset    : 0\n# data size      : 0\n# feat offset    : 0\n", out);
		fputs("# ========\n#\n", out);
	} else {
		fprintf(out, "# data offset    : %" PRIu64 "\n", f->data_offset);
		fprintf(out, "# data size      : %" PRIu64 "\n", data_size);
		fprintf(out, "# feat offset    : %" PRIu64 "\n", f->data_offset + data_size);
	}

	pd_feature_env_init(f, &env);
	if (f->pipe_mode) {
		/* each feature prints as its record is processed; a bad one
		 * ends processing.  Features perf does not decode in pipe mode
		 * (BRANCH_STACK, STAT) print nothing. */
		for (unsigned feat = 1; feat < LAST_FEATURE_61; feat++) {
			if (!f->feat_data[feat])
				continue;
			if (pd_feature_decode(f, feat, &env))
				break;
			if (feat != PD_FEAT_BRANCH_STACK && feat != PD_FEAT_STAT)
				show_feature(&p, feat, show_full_info);
		}
		return 0;
	}

	pd_feature_decode_all(f, &env, LAST_FEATURE_61);
	for (unsigned feat = 1; feat < LAST_FEATURE_61; feat++)
		if (file_bit(f, feat))
			show_feature(&p, feat, show_full_info);
	fputs("# missing features: ", out);
	for (unsigned feat = 1; feat < LAST_FEATURE_61; feat++)
		if (!file_bit(f, feat))
			fprintf(out, "%s ", pd_feature_name(feat));
	fputs("\n# ========\n#\n", out);
	return 0;
}
