/*
 * feature.c - decodes feature-section payloads into a struct pd_feat_env,
 * mirroring perf 6.1's process_*() functions (util/header.c), and names
 * evsels from EVENT_DESC and TRACING_DATA.
 *
 * Every read goes through a cursor bounded by the section size, so a
 * malformed length can neither read past the payload nor make us allocate
 * more than the payload could describe.  Where perf fills its perf_env
 * field by field, so do we, so a half-read section leaves the same state.
 */
#include "feature.h"
#include "swap.h"
#include "../util/error.h"

#include <ctype.h>
#include <limits.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf 6.1's limits for a sane attr (perf_attr_check) */
#define SAMPLE_MAX_61		(1ULL << 25)
#define FORMAT_MAX_61		(1ULL << 5)
#define BRANCH_MAX_61		(1ULL << 19)
#define ATTR_RESERVED_1_SHIFT	38	/* first flags bit after sigtrap */

/* Largest cpu count a cpu list or CPU_TOPOLOGY may describe. */
#define MAX_CPUS		(1u << 20)

/* A bounded reader over one payload. */
struct cursor {
	struct pd_file *f;
	unsigned feat;
	const u8 *p;
	u64 size, pos;
};

static void cursor_init(struct cursor *c, struct pd_file *f, unsigned feat)
{
	c->f = f;
	c->feat = feat;
	c->p = f->feat_data[feat];
	c->size = f->feat_size[feat];
	c->pos = 0;
}

static u64 left(const struct cursor *c)
{
	return c->size - c->pos;
}

static int rd32(struct cursor *c, u32 *v)
{
	if (left(c) < 4)
		return -1;
	*v = pd_feat_u32(c->f, c->p + c->pos);
	c->pos += 4;
	return 0;
}

static int rd64(struct cursor *c, u64 *v)
{
	if (left(c) < 8)
		return -1;
	*v = pd_feat_u64(c->f, c->p + c->pos);
	c->pos += 8;
	return 0;
}

/* perf's do_read_string: u32 length, then that many bytes (NUL-padded). */
static const char *rdstr(struct cursor *c)
{
	u32 len;
	const char *s;

	if (rd32(c, &len) || left(c) < len)
		return NULL;
	s = arena_strndup(&c->f->arena, (const char *)c->p + c->pos, len);
	c->pos += len;
	return s;
}

/* Bytes perf assumes a string took when it wrote it (string_size()). */
static u64 perf_string_size(const char *s)
{
	return 4 + ((strlen(s) + 1 + 63) & ~(u64)63);
}

/* Reads nr strings into out; perf_size, when given, grows as perf counts. */
static int rdstrs(struct cursor *c, u32 nr, struct pd_feat_strs *out, u64 *perf_size)
{
	if (nr > left(c) / 4)
		return -1;
	out->s = arena_zalloc(&c->f->arena, (nr ? nr : 1) * sizeof(*out->s));
	out->nr = 0;
	for (u32 i = 0; i < nr; i++) {
		const char *s = rdstr(c);

		if (!s)
			return -1;
		out->s[out->nr++] = s;
		if (perf_size)
			*perf_size += perf_string_size(s);
	}
	return 0;
}

/* Warns about a malformed section; the offset is where decoding stopped. */
static int bad(const struct cursor *c, const char *what)
{
	const char *name = pd_feature_name(c->feat);

	warning("%s: %s in %s feature section at offset %#llx", c->f->path, what,
		name ? name : "unknown", (unsigned long long)(c->f->feat_offset[c->feat] + c->pos));
	return -1;
}

static int truncated(const struct cursor *c)
{
	return bad(c, "truncated data");
}

/* ------------------------------------------------------------- cpu lists --- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * Parses a cpu list as perf_cpu_map__new() does ("0-3,8", base-0 numbers,
 * no duplicates; "" is the dummy map {-1}) and returns it in perf's
 * cpu_map__snprint() form, cut to 63 characters.  NULL when invalid.
 */
static const char *normalise_cpu_list(struct arena *a, const char *list)
{
	int *cpus = NULL;
	u32 nr = 0, cap = 0;
	const char *p = list;
	char out[64];
	size_t len = 0;

	if (!isdigit((unsigned char)*p) && *p)
		return NULL;
	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long start = strtoul(p, &end, 0), stop;

		if (start >= INT_MAX || (*end && *end != ',' && *end != '-'))
			goto invalid;
		stop = start;
		if (*end == '-') {
			p = end + 1;
			stop = strtoul(p, &end, 0);
			if (stop >= INT_MAX || (*end && *end != ',') || stop < start)
				goto invalid;
		}
		for (unsigned long cpu = start; cpu <= stop; cpu++) {
			for (u32 i = 0; i < nr; i++)
				if (cpus[i] == (int)cpu)
					goto invalid;
			if (nr == cap) {
				if (cap >= MAX_CPUS)
					goto invalid;
				cap = cap ? cap * 2 : 16;
				cpus = xrealloc(cpus, cap * sizeof(*cpus));
			}
			cpus[nr++] = (int)cpu;
		}
		p = *end ? end + 1 : end;
	}
	if (!nr) {
		if (*p)
			goto invalid;	/* perf would use this machine's cpus */
		return arena_strdup(a, "-1");
	}
	qsort(cpus, nr, sizeof(*cpus), cmp_int);
	out[0] = 0;
	for (u32 start = 0, i = 1; i <= nr; i++) {
		int n;

		if (i < nr && cpus[i] - cpus[start] == (int)(i - start))
			continue;
		if (i - 1 == start)
			n = snprintf(out + len, sizeof(out) - len, "%s%d", len ? "," : "", cpus[start]);
		else
			n = snprintf(out + len, sizeof(out) - len, "%s%d-%d", len ? "," : "",
				     cpus[start], cpus[i - 1]);
		if (n < 0 || (size_t)n >= sizeof(out) - len)
			break;
		len += n;
		start = i;
	}
	free(cpus);
	return arena_strdup(a, out);
invalid:
	free(cpus);
	return NULL;
}

/* -------------------------------------------------------- tracing data --- */

/* A bounded reader over the TRACING_DATA blob (its own byte order). */
struct tcursor {
	const u8 *p;
	u64 size, pos;
	int swap;
};

static int trd(struct tcursor *t, u64 *v, int width)
{
	if (t->size - t->pos < (u64)width)
		return -1;
	if (width == 4) {
		u32 x = pd_get32(t->p + t->pos);

		*v = t->swap ? __builtin_bswap32(x) : x;
	} else {
		u64 x = pd_get64(t->p + t->pos);

		*v = t->swap ? __builtin_bswap64(x) : x;
	}
	t->pos += width;
	return 0;
}

static int tskip(struct tcursor *t, u64 n)
{
	if (t->size - t->pos < n)
		return -1;
	t->pos += n;
	return 0;
}

/* Skips a NUL-terminated string, returning it (NULL when unterminated). */
static const char *tstr(struct tcursor *t)
{
	const char *s = (const char *)t->p + t->pos;
	const void *nul = memchr(s, 0, t->size - t->pos);

	if (!nul)
		return NULL;
	t->pos += (const char *)nul - s + 1;
	return s;
}

/* Finds "key" at the start of a line of an event format; returns the value. */
static const char *format_field(const char *text, size_t len, const char *key, size_t *vlen)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i + klen <= len; i++) {
		if ((i == 0 || text[i - 1] == '\n') && !memcmp(text + i, key, klen)) {
			const char *v = text + i + klen;
			const char *eol = memchr(v, '\n', len - (i + klen));

			*vlen = eol ? (size_t)(eol - v) : len - (i + klen);
			return v;
		}
	}
	return NULL;
}

/*
 * Walks a TRACING_DATA blob as perf's trace_report() does.  With buf set,
 * stops at the event format whose ID is want_id and writes
 * "system:name" into buf.  Returns 0 when the blob is well formed (or the
 * id was found), 1 when well formed but the id is absent, -1 if malformed.
 */
static int walk_tracing_data(const u8 *data, u64 size, u64 want_id, char *buf, size_t bufsize)
{
	struct tcursor t = { .p = data, .size = size };
	const char *version;
	u64 n, len, count;

	if (size < 10 || memcmp(data, "\027\010\104tracing", 10))
		return -1;
	t.pos = 10;
	version = tstr(&t);
	if (!version || t.size - t.pos < 2)
		return -1;
	t.swap = t.p[t.pos] != 0;	/* file is big-endian; we are little */
	t.pos += 2;			/* endian byte, long size */
	if (trd(&t, &n, 4) || !n)
		return -1;		/* page size */
	if (t.size - t.pos < 12 || memcmp(t.p + t.pos, "header_page", 12))
		return -1;
	t.pos += 12;
	if (trd(&t, &len, 8) || tskip(&t, len))
		return -1;
	if (t.size - t.pos < 13 || memcmp(t.p + t.pos, "header_event", 13))
		return -1;
	t.pos += 13;
	if (trd(&t, &len, 8) || tskip(&t, len))
		return -1;
	if (trd(&t, &count, 4))
		return -1;
	for (u64 i = 0; i < (u32)count; i++)
		if (trd(&t, &len, 8) || tskip(&t, len))
			return -1;
	if (trd(&t, &n, 4))
		return -1;
	for (u64 sys = 0; sys < (u32)n; sys++) {
		const char *system = tstr(&t);

		if (!system || trd(&t, &count, 4))
			return -1;
		for (u64 i = 0; i < (u32)count; i++) {
			const char *text, *name, *id;
			size_t name_len, id_len;

			if (trd(&t, &len, 8) || t.size - t.pos < len)
				return -1;
			text = (const char *)t.p + t.pos;
			t.pos += len;
			if (!buf)
				continue;
			name = format_field(text, len, "name: ", &name_len);
			id = format_field(text, len, "ID: ", &id_len);
			if (name && id && strtoull(id, NULL, 10) == want_id) {
				snprintf(buf, bufsize, "%s:%.*s", system, (int)name_len, name);
				return 0;
			}
		}
	}
	if (buf)
		return 1;
	/* kallsyms and printk formats (u32 sizes), then saved cmdlines */
	for (int i = 0; i < 2; i++)
		if (trd(&t, &len, 4) || tskip(&t, len))
			return -1;
	if (atof(version) >= 0.6 && (trd(&t, &len, 8) || tskip(&t, len)))
		return -1;
	return 0;
}

int pd_tracepoint_name(const struct pd_file *f, u64 id, char *buf, size_t size)
{
	const u8 *data = f->feat_data[PD_FEAT_TRACING_DATA];

	if (!data || !size)
		return -1;
	return walk_tracing_data(data, f->feat_size[PD_FEAT_TRACING_DATA], id, buf, size) ? -1 : 0;
}

/* ------------------------------------------------------------- decoders --- */

static int decode_string(struct cursor *c, const char **out)
{
	*out = rdstr(c);
	return *out ? 0 : truncated(c);
}

static int decode_nrcpus(struct cursor *c, struct pd_feat_env *env)
{
	u32 avail, online;

	if (rd32(c, &avail) || rd32(c, &online))
		return truncated(c);
	env->nr_cpus_avail = avail;
	env->nr_cpus_online = online;
	return 0;
}

static int decode_total_mem(struct cursor *c, struct pd_feat_env *env)
{
	return rd64(c, &env->total_mem) ? truncated(c) : 0;
}

static int decode_cmdline(struct cursor *c, struct pd_feat_env *env)
{
	u32 nr;
	struct pd_feat_strs args;

	if (rd32(c, &nr) || rdstrs(c, nr, &args, NULL))
		return truncated(c);
	env->cmdline = args;
	return 0;
}

/* perf_attr_check(): would perf 6.1 accept this attr? */
static int attr_is_sane(const struct pd_attr *a)
{
	if ((a->flags >> ATTR_RESERVED_1_SHIFT) || a->reserved_2 || a->reserved_3)
		return 0;
	if (a->sample_type & ~(SAMPLE_MAX_61 - 1))
		return 0;
	if (a->read_format & ~(FORMAT_MAX_61 - 1))
		return 0;
	if ((a->sample_type & PD_SAMPLE_BRANCH_STACK) &&
	    (a->branch_sample_type & ~(BRANCH_MAX_61 - 1)))
		return 0;
	return 1;
}

static int decode_event_desc(struct cursor *c, struct pd_feat_env *env)
{
	u32 nre, sz;
	struct pd_feat_event *ev;

	if (rd32(c, &nre) || rd32(c, &sz))
		return truncated(c);
	if (nre > left(c) / 8)
		return truncated(c);
	ev = arena_zalloc(&c->f->arena, (nre ? nre : 1) * sizeof(*ev));
	env->nr_events = nre;
	for (u32 i = 0; i < nre; i++) {
		struct pd_feat_event *e = &ev[i];

		if (left(c) < sz)
			return truncated(c);
		memcpy(&e->attr, c->p + c->pos, sz < PD_ATTR_MAX_SIZE ? sz : PD_ATTR_MAX_SIZE);
		c->pos += sz;
		if (c->f->needs_swap)
			pd_swap_attr(&e->attr);
		if (!attr_is_sane(&e->attr))
			return bad(c, "unsupported event attribute");
		if (rd32(c, &e->nr_ids))
			return truncated(c);
		e->name = rdstr(c);
		if (!e->name || e->nr_ids > left(c) / 8)
			return truncated(c);
		e->ids = arena_alloc(&c->f->arena, (e->nr_ids ? e->nr_ids : 1) * sizeof(u64));
		for (u32 j = 0; j < e->nr_ids; j++)
			rd64(c, &e->ids[j]);
		if (!e->attr.size && env->nr_events == nre)
			env->nr_events = i;	/* perf's list ends at size 0 */
	}
	env->events = ev;
	env->event_desc_ok = 1;
	return 0;
}

static int decode_cpu_topology(struct cursor *c, struct pd_feat_env *env)
{
	u32 cpu_nr = env->nr_cpus_avail, nr;
	u64 perf_size = 4;	/* what perf thinks it has read */
	struct pd_feat_cpu *cpu;

	if (cpu_nr > MAX_CPUS)
		return bad(c, "too many cpus");
	cpu = arena_zalloc(&c->f->arena, (cpu_nr ? cpu_nr : 1) * sizeof(*cpu));
	env->cpu = cpu;
	if (rd32(c, &nr))
		goto fail;
	env->sibling_cores.nr = nr;
	if (rdstrs(c, nr, &env->sibling_cores, &perf_size))
		goto fail;
	if (rd32(c, &nr))
		return truncated(c);
	perf_size += 4;
	env->sibling_threads.nr = nr;
	if (rdstrs(c, nr, &env->sibling_threads, &perf_size))
		goto fail;
	/* files from old perf have no core and socket ids */
	if (c->size <= perf_size) {
		env->cpu = NULL;
		return 0;
	}
	for (u32 i = 0; i < cpu_nr; i++) {
		if (rd32(c, &cpu[i].core_id) || rd32(c, &cpu[i].socket_id))
			goto fail;
		perf_size += 8;
	}
	/* nor die information */
	if (c->size <= perf_size)
		return 0;
	if (rd32(c, &nr))
		return truncated(c);
	env->sibling_dies.nr = nr;
	if (rdstrs(c, nr, &env->sibling_dies, NULL))
		goto fail;
	for (u32 i = 0; i < cpu_nr; i++)
		if (rd32(c, &cpu[i].die_id))
			goto fail;
	return 0;
fail:
	env->cpu = NULL;
	return truncated(c);
}

static int decode_numa_topology(struct cursor *c, struct pd_feat_env *env)
{
	u32 nr;
	struct pd_feat_numa_node *nodes;

	if (rd32(c, &nr) || nr > left(c) / 24)
		return truncated(c);
	nodes = arena_zalloc(&c->f->arena, (nr ? nr : 1) * sizeof(*nodes));
	for (u32 i = 0; i < nr; i++) {
		struct pd_feat_numa_node *n = &nodes[i];
		const char *list;

		if (rd32(c, &n->node) || rd64(c, &n->mem_total) || rd64(c, &n->mem_free) ||
		    !(list = rdstr(c)))
			return truncated(c);
		n->cpus = normalise_cpu_list(&c->f->arena, list);
		if (!n->cpus)
			return bad(c, "bad cpu list");
	}
	env->nr_numa_nodes = nr;
	env->numa_nodes = nodes;
	return 0;
}

static int decode_pmu_mappings(struct cursor *c, struct pd_feat_env *env)
{
	u32 nr;
	struct pd_feat_pmu *pmus;

	if (rd32(c, &nr) || nr > left(c) / 8)
		return truncated(c);
	if (!nr)
		return 0;
	pmus = arena_alloc(&c->f->arena, nr * sizeof(*pmus));
	for (u32 i = 0; i < nr; i++)
		if (rd32(c, &pmus[i].type) || !(pmus[i].name = rdstr(c)))
			return truncated(c);
	env->nr_pmus = nr;
	env->pmus = pmus;
	return 0;
}

/* Rebuilds the group relationship as process_group_desc() does. */
static int decode_group_desc(struct cursor *c, struct pd_feat_env *env)
{
	struct pd_file *f = c->f;
	struct { const char *name; u32 leader, nr_members; } *desc;
	u32 nr_groups, i = 0, nr = 0;

	if (rd32(c, &nr_groups) || nr_groups > left(c) / 12)
		return truncated(c);
	if (!nr_groups)
		return 0;
	desc = arena_alloc(&f->arena, nr_groups * sizeof(*desc));
	for (u32 g = 0; g < nr_groups; g++)
		if (!(desc[g].name = rdstr(c)) || rd32(c, &desc[g].leader) ||
		    rd32(c, &desc[g].nr_members))
			return truncated(c);
	for (u32 idx = 0; idx < f->nr_evsel; idx++) {
		if (i < nr_groups && idx == desc[i].leader) {
			env->group_leader_is_self[idx] = 1;
			if (strcmp(desc[i].name, "{anon_group}"))
				env->group_name[idx] = desc[i].name;
			env->group_nr_members[idx] = desc[i].nr_members;
			if (nr > 0)
				return bad(c, "invalid group description");
			nr = desc[i].nr_members - 1;
			i++;
		} else if (nr) {
			env->group_leader_is_self[idx] = 0;
			nr--;
		}
	}
	if (i != nr_groups || nr != 0)
		return bad(c, "invalid group description");
	return 0;
}

static int decode_auxtrace(struct cursor *c)
{
	u64 nr;

	if (rd64(c, &nr) || nr > left(c) / 16)
		return bad(c, "bad auxtrace index");
	return 0;
}

static int decode_cache(struct cursor *c, struct pd_feat_env *env)
{
	u32 version, cnt;
	struct pd_feat_cache *caches;

	if (rd32(c, &version))
		return truncated(c);
	if (version != 1)
		return bad(c, "unknown version");
	if (rd32(c, &cnt) || cnt > left(c) / 28)
		return truncated(c);
	caches = arena_zalloc(&c->f->arena, (cnt ? cnt : 1) * sizeof(*caches));
	for (u32 i = 0; i < cnt; i++) {
		struct pd_feat_cache *k = &caches[i];

		if (rd32(c, &k->level) || rd32(c, &k->line_size) || rd32(c, &k->sets) ||
		    rd32(c, &k->ways) || !(k->type = rdstr(c)) || !(k->size = rdstr(c)) ||
		    !(k->map = rdstr(c)))
			return truncated(c);
	}
	env->caches = caches;
	env->nr_caches = cnt;
	return 0;
}

static int decode_sample_time(struct cursor *c, struct pd_feat_env *env)
{
	u64 first, last;

	if (rd64(c, &first) || rd64(c, &last))
		return truncated(c);
	env->first_sample_time = first;
	env->last_sample_time = last;
	return 0;
}

static int decode_mem_topology(struct cursor *c, struct pd_feat_env *env)
{
	u64 version, bsize, nr;
	struct pd_feat_mem_node *nodes;

	if (rd64(c, &version))
		return truncated(c);
	if (version != 1)
		return bad(c, "unknown version");
	if (rd64(c, &bsize) || rd64(c, &nr) || nr > left(c) / 24)
		return truncated(c);
	nodes = arena_zalloc(&c->f->arena, (nr ? nr : 1) * sizeof(*nodes));
	for (u64 i = 0; i < nr; i++) {
		struct pd_feat_mem_node *n = &nodes[i];
		u64 size, words;
		u64 *bits;

		if (rd64(c, &n->node) || rd64(c, &size) || rd64(c, &n->nbits))
			return truncated(c);
		words = n->nbits / 64 + !!(n->nbits % 64);
		if (words > left(c) / 8)
			return truncated(c);
		bits = arena_alloc(&c->f->arena, (words ? words : 1) * 8);
		for (u64 w = 0; w < words; w++)
			rd64(c, &bits[w]);
		n->bitmap = bits;
	}
	env->mem_bsize = bsize;
	env->mem_nodes = nodes;
	env->nr_mem_nodes = nr;
	return 0;
}

static int decode_clock_data(struct cursor *c, struct pd_feat_env *env)
{
	u32 version;

	if (rd32(c, &version))
		return truncated(c);
	if (version != 1)
		return bad(c, "unknown version");
	if (rd32(c, &env->clockid) || rd64(c, &env->tod_ns) || rd64(c, &env->clockid_ns))
		return truncated(c);
	env->clock_enabled = 1;
	return 0;
}

static int decode_compressed(struct cursor *c, struct pd_feat_env *env)
{
	if (rd32(c, &env->comp_ver) || rd32(c, &env->comp_type) ||
	    rd32(c, &env->comp_level) || rd32(c, &env->comp_ratio) ||
	    rd32(c, &env->comp_mmap_len))
		return truncated(c);
	return 0;
}

/* __process_pmu_caps(): a count, then name/value string pairs. */
static int rdcaps(struct cursor *c, struct pd_feat_strs *out)
{
	u32 nr;
	const char **caps;

	out->nr = 0;
	out->s = NULL;
	if (rd32(c, &nr) || nr > left(c) / 8)
		return -1;
	if (!nr)
		return 0;
	caps = arena_alloc(&c->f->arena, nr * sizeof(*caps));
	for (u32 i = 0; i < nr; i++) {
		const char *name = rdstr(c), *value = name ? rdstr(c) : NULL;
		char *cap;

		if (!value)
			return -1;
		cap = arena_alloc(&c->f->arena, strlen(name) + strlen(value) + 2);
		sprintf(cap, "%s=%s", name, value);
		caps[i] = cap;
	}
	out->nr = nr;
	out->s = caps;
	return 0;
}

static int decode_cpu_pmu_caps(struct cursor *c, struct pd_feat_env *env)
{
	return rdcaps(c, &env->cpu_pmu_caps) ? truncated(c) : 0;
}

static int decode_pmu_caps(struct cursor *c, struct pd_feat_env *env)
{
	u32 nr;
	struct pd_feat_pmu_caps *pmus;

	if (rd32(c, &nr) || nr > left(c) / 8)
		return truncated(c);
	if (!nr)
		return 0;
	pmus = arena_zalloc(&c->f->arena, nr * sizeof(*pmus));
	for (u32 i = 0; i < nr; i++)
		if (rdcaps(c, &pmus[i].caps) || !(pmus[i].pmu_name = rdstr(c)))
			return truncated(c);
	env->pmu_caps = pmus;
	env->nr_pmu_caps = nr;
	return 0;
}

static int decode_hybrid_topology(struct cursor *c, struct pd_feat_env *env)
{
	u32 nr;
	struct pd_feat_hybrid_node *nodes;

	if (rd32(c, &nr) || nr > left(c) / 8)
		return truncated(c);
	nodes = arena_zalloc(&c->f->arena, (nr ? nr : 1) * sizeof(*nodes));
	for (u32 i = 0; i < nr; i++)
		if (!(nodes[i].pmu_name = rdstr(c)) || !(nodes[i].cpus = rdstr(c)))
			return truncated(c);
	env->nr_hybrid_nodes = nr;
	env->hybrid_nodes = nodes;
	return 0;
}

static u32 info_u32(const u8 *info, size_t off)
{
	return pd_get32(info + off);
}

/* Inserts prog keeping env->bpf_progs sorted by id; a duplicate id is
 * dropped, as perf's rb-tree insert does. */
static void add_bpf_prog(struct arena *a, struct pd_feat_env *env, const struct pd_feat_bpf_prog *prog,
			 u32 cap)
{
	u32 id = info_u32(prog->info, offsetof(struct bpf_prog_info, id)), i;

	for (i = 0; i < env->nr_bpf_progs; i++) {
		u32 other = info_u32(env->bpf_progs[i].info, offsetof(struct bpf_prog_info, id));

		if (other == id)
			return;
		if (other > id)
			break;
	}
	if (!env->bpf_progs)
		env->bpf_progs = arena_alloc(a, cap * sizeof(*env->bpf_progs));
	memmove(&env->bpf_progs[i + 1], &env->bpf_progs[i],
		(env->nr_bpf_progs - i) * sizeof(*env->bpf_progs));
	env->bpf_progs[i] = *prog;
	env->nr_bpf_progs++;
}

static int decode_bpf_prog_info(struct cursor *c, struct pd_feat_env *env)
{
	u32 count;

	if (c->f->needs_swap) {
		warning("%s: cannot read BPF_PROG_INFO of the other byte order", c->f->path);
		return 0;
	}
	if (rd32(c, &count) || count > left(c) / 16)
		return truncated(c);
	for (u32 i = 0; i < count; i++) {
		struct pd_feat_bpf_prog prog;
		u32 info_len;
		u8 *info;

		if (rd32(c, &info_len) || rd32(c, &prog.data_len) || rd64(c, &prog.arrays))
			return truncated(c);
		if (info_len > sizeof(struct bpf_prog_info))
			return bad(c, "invalid bpf_prog_info");
		if (left(c) < info_len || left(c) - info_len < prog.data_len)
			return truncated(c);
		info = arena_zalloc(&c->f->arena, sizeof(struct bpf_prog_info));
		memcpy(info, c->p + c->pos, info_len);
		c->pos += info_len;
		prog.info = info;
		prog.data = c->p + c->pos;
		c->pos += prog.data_len;
		add_bpf_prog(&c->f->arena, env, &prog, count);
	}
	return 0;
}

static int decode_bpf_btf(struct cursor *c, struct pd_feat_env *env)
{
	u32 count;

	if (c->f->needs_swap) {
		warning("%s: cannot read BPF_BTF of the other byte order", c->f->path);
		return 0;
	}
	if (rd32(c, &count) || count > left(c) / 8)
		return truncated(c);
	env->btfs = arena_alloc(&c->f->arena, (count ? count : 1) * sizeof(*env->btfs));
	for (u32 n = 0; n < count; n++) {
		struct pd_feat_btf btf;
		u32 i;

		if (rd32(c, &btf.id) || rd32(c, &btf.size) || left(c) < btf.size)
			return truncated(c);
		btf.data = c->p + c->pos;
		c->pos += btf.size;
		for (i = 0; i < env->nr_btfs && env->btfs[i].id < btf.id; i++)
			;
		if (i < env->nr_btfs && env->btfs[i].id == btf.id)
			continue;
		memmove(&env->btfs[i + 1], &env->btfs[i], (env->nr_btfs - i) * sizeof(btf));
		env->btfs[i] = btf;
		env->nr_btfs++;
	}
	return 0;
}

void pd_feature_env_init(struct pd_file *f, struct pd_feat_env *env)
{
	u32 n = f->nr_evsel ? f->nr_evsel : 1;

	memset(env, 0, sizeof(*env));
	env->group_nr_members = arena_zalloc(&f->arena, n * sizeof(u32));
	env->group_name = arena_zalloc(&f->arena, n * sizeof(char *));
	env->group_leader_is_self = arena_alloc(&f->arena, n);
	memset(env->group_leader_is_self, 1, n);
}

int pd_feature_decode(struct pd_file *f, unsigned feat, struct pd_feat_env *env)
{
	struct cursor c;

	if (feat >= PD_FEAT_BITS || !f->feat_data[feat])
		return -1;	/* the reader has said why */
	cursor_init(&c, f, feat);
	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		if (walk_tracing_data(c.p, c.size, 0, NULL, 0))
			return bad(&c, "bad tracing data");
		return 0;
	case PD_FEAT_HOSTNAME:	return decode_string(&c, &env->hostname);
	case PD_FEAT_OSRELEASE:	return decode_string(&c, &env->os_release);
	case PD_FEAT_VERSION:	return decode_string(&c, &env->version);
	case PD_FEAT_ARCH:	return decode_string(&c, &env->arch);
	case PD_FEAT_CPUDESC:	return decode_string(&c, &env->cpu_desc);
	case PD_FEAT_CPUID:	return decode_string(&c, &env->cpuid);
	case PD_FEAT_NRCPUS:	return decode_nrcpus(&c, env);
	case PD_FEAT_TOTAL_MEM:	return decode_total_mem(&c, env);
	case PD_FEAT_CMDLINE:	return decode_cmdline(&c, env);
	case PD_FEAT_EVENT_DESC:
		/* perf shrugs off an unreadable EVENT_DESC */
		decode_event_desc(&c, env);
		return 0;
	case PD_FEAT_CPU_TOPOLOGY:	return decode_cpu_topology(&c, env);
	case PD_FEAT_NUMA_TOPOLOGY:	return decode_numa_topology(&c, env);
	case PD_FEAT_PMU_MAPPINGS:	return decode_pmu_mappings(&c, env);
	case PD_FEAT_GROUP_DESC:	return decode_group_desc(&c, env);
	case PD_FEAT_AUXTRACE:		return decode_auxtrace(&c);
	case PD_FEAT_CACHE:		return decode_cache(&c, env);
	case PD_FEAT_SAMPLE_TIME:	return decode_sample_time(&c, env);
	case PD_FEAT_MEM_TOPOLOGY:	return decode_mem_topology(&c, env);
	case PD_FEAT_CLOCKID:
		return rd64(&c, &env->clockid_res_ns) ? truncated(&c) : 0;
	case PD_FEAT_DIR_FORMAT:
		/* only valid in a perf.data directory, which this is not */
		return bad(&c, "directory format in a single file");
	case PD_FEAT_BPF_PROG_INFO:	return decode_bpf_prog_info(&c, env);
	case PD_FEAT_BPF_BTF:		return decode_bpf_btf(&c, env);
	case PD_FEAT_COMPRESSED:	return decode_compressed(&c, env);
	case PD_FEAT_CPU_PMU_CAPS:	return decode_cpu_pmu_caps(&c, env);
	case PD_FEAT_CLOCK_DATA:	return decode_clock_data(&c, env);
	case PD_FEAT_HYBRID_TOPOLOGY:	return decode_hybrid_topology(&c, env);
	case PD_FEAT_PMU_CAPS:		return decode_pmu_caps(&c, env);
	default:
		return 0;	/* BUILD_ID, BRANCH_STACK, STAT: nothing to keep */
	}
}

int pd_feature_decode_all(struct pd_file *f, struct pd_feat_env *env, unsigned stop_before)
{
	for (unsigned feat = 1; feat < PD_FEAT_PIPE_END_61 && feat < stop_before; feat++) {
		if (!pd_has_feature(f, feat))
			continue;
		if (pd_feature_decode(f, feat, env))
			return -1;
	}
	return 0;
}

int pd_feature_apply_event_desc(struct pd_file *f)
{
	struct pd_feat_env env;

	/* an event with no name yet takes EVENT_DESC's, in a stream too
	 * (perf's evlist__set_event_name()) */
	if (pd_has_feature(f, PD_FEAT_EVENT_DESC)) {
		pd_feature_env_init(f, &env);
		if (!pd_feature_decode_all(f, &env, PD_FEAT_EVENT_DESC) &&
		    !pd_feature_decode(f, PD_FEAT_EVENT_DESC, &env) && env.event_desc_ok) {
			for (u32 i = 0; i < env.nr_events && i < f->nr_evsel; i++) {
				struct pd_evsel *e = &f->evsel[i];

				if (!e->name)
					e->name = env.events[i].name;
				if (f->pipe_mode && !e->stream_name)
					e->stream_name = env.events[i].name;
			}
		}
	}
	for (u32 i = 0; i < f->nr_evsel; i++) {
		struct pd_evsel *e = &f->evsel[i];
		char name[128];

		if (!e->name && e->attr.type == PD_TYPE_TRACEPOINT &&
		    !pd_tracepoint_name(f, e->attr.config, name, sizeof(name)))
			e->name = arena_strdup(&f->arena, name);
	}
	return 0;
}

int pd_feature_arch(const struct pd_file *f, char *buf, size_t size)
{
	const u8 *p = f->feat_data[PD_FEAT_ARCH];
	u64 have = f->feat_size[PD_FEAT_ARCH];
	u32 len;

	if (!p || have < 4 || !size)
		return 0;
	len = pd_get32(p);
	if (f->needs_swap)
		len = __builtin_bswap32(len);
	if (len > have - 4)
		len = (u32)(have - 4);
	len = (u32)strnlen((const char *)p + 4, len);
	if (len >= size)
		len = (u32)size - 1;
	memcpy(buf, p + 4, len);
	buf[len] = 0;
	return 1;
}

u32 pd_feature_nr_cpus(const struct pd_file *f, u32 max)
{
	if (f->feat_data[PD_FEAT_NRCPUS] && f->feat_size[PD_FEAT_NRCPUS] >= 4) {
		u32 n = pd_get32(f->feat_data[PD_FEAT_NRCPUS]);

		if (f->needs_swap)
			n = __builtin_bswap32(n);
		if (n && n <= max)
			return n;
	}
	return max;
}
