/*
 * events.c - perf's -e event syntax (see events.h).
 *
 * The list is scanned by hand: a group is "{" events "}" [":" mods]; an
 * event's text runs to the next ',' or '}' (a PMU event's to the '/' that
 * closes its terms, then its modifiers).  The text before the first ':'
 * is tried as a symbolic, cache or raw name, then the whole as a
 * tracepoint "sys:name[:mods]".
 *
 * Modifiers follow perf 6.1's get_event_modifier(): on a lone event they
 * start from nothing (so "cpu-clock:k" loses the exclude_guest the
 * unmodified event has), on a group they start from each member's bits.
 * u, k, h first exclude all three contexts, then let their own one in; u
 * and p also exclude the guest unless G or H was given; G and H first
 * exclude both, then let their own one in.
 */
#include "events.h"
#include "../util/error.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define FLAG(bit) (1ULL << (bit))

/* A symbolic event name. */
struct ev_symbol {
	const char *name;
	u32 type;
	u64 config;
};

static const struct ev_symbol symbols[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
};

/* perf's cache, operation and result names; the first of each is canonical. */
static const char *const cache_types[][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[][6] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[][6] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

/* Which operations (bit per op: read, write, prefetch) each cache has. */
static const unsigned cache_valid_ops[] = { 7, 5, 7, 7, 1, 1, 7 };

#define MODIFIER_CHARS "ukhGHpPSDIWeb"
#define MODIFIER_MAX_LEN 15	/* strlen("ukhGHpppPSDIWeb") */

/* The context bits of one event while modifiers apply to it. */
struct mods {
	int eu, ek, eh, eH, eG, eI;
	int precise, precise_max, sample_read, pinned, exclusive, weak;
	int exclude_gh;
};

/* State of one ev_parse() call. */
struct parser {
	const char *str;
	struct ev_list *list;
	struct ev_error *err;
};

static int fail(struct parser *p, size_t pos, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Fills the error; returns -1. */
static int fail(struct parser *p, size_t pos, const char *help, const char *fmt, ...)
{
	va_list ap;

	p->err->pos = (int)pos;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	snprintf(p->err->help, sizeof(p->err->help), "%s", help ? help : "");
	return -1;
}

static struct ev_event *new_event(struct parser *p, const char *name, size_t len)
{
	struct ev_list *l = p->list;
	struct ev_event *ev;

	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 8;
		l->events = xrealloc(l->events, (size_t)l->alloc * sizeof(*l->events));
	}
	ev = &l->events[l->nr];
	memset(ev, 0, sizeof(*ev));
	ev->name = xmalloc(len + 1);
	memcpy(ev->name, name, len);
	ev->name[len] = 0;
	ev->leader = l->nr;
	ev->nr_members = 1;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.flags = FLAG(PD_ATTR_EXCLUDE_GUEST);	/* perf's event_attr_init() */
	l->nr++;
	return ev;
}

static const struct ev_symbol *find_symbol(const char *s, size_t len)
{
	for (size_t i = 0; i < COUNT(symbols); i++)
		if (strlen(symbols[i].name) == len && !memcmp(symbols[i].name, s, len))
			return &symbols[i];
	return NULL;
}

/*
 * Matches the longest alias in table at s (len bytes left) that ends at
 * a '-' or at the end.  Returns its row and sets *matched, or -1.
 */
static int match_alias(const char *const (*table)[6], size_t rows, const char *s, size_t len,
		       size_t *matched)
{
	int best = -1;

	*matched = 0;
	for (size_t r = 0; r < rows; r++) {
		for (size_t a = 0; a < 6 && table[r][a]; a++) {
			size_t n = strlen(table[r][a]);

			if (n > len || n <= *matched || memcmp(table[r][a], s, n) ||
			    (n < len && s[n] != '-'))
				continue;
			best = (int)r;
			*matched = n;
		}
	}
	return best;
}

/*
 * A cache event name "type[-op_or_result[-op_or_result]]" into *config:
 * 1 when it is one, 0 when it is not, -1 when it is one the cache lacks.
 */
static int parse_cache(const char *s, size_t len, u64 *config)
{
	size_t n;
	int type = match_alias(cache_types, COUNT(cache_types), s, len, &n);
	int op = -1, result = -1;

	if (type < 0)
		return 0;
	for (int part = 0; n < len; part++) {
		size_t m;
		int i;

		if (part == 2)
			return 0;
		s += n + 1;
		len -= n + 1;
		if (op < 0 && (i = match_alias(cache_ops, COUNT(cache_ops), s, len, &m)) >= 0)
			op = i;
		else if (result < 0 &&
			 (i = match_alias(cache_results, COUNT(cache_results), s, len, &m)) >= 0)
			result = i;
		else
			return 0;
		n = m;
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_valid_ops[type] & (1u << op)))
		return -1;
	*config = (u64)type | (u64)op << 8 | (u64)result << 16;
	return 1;
}

/* "r" and hex digits: a raw config. */
static int parse_raw(const char *s, size_t len, u64 *config)
{
	u64 v = 0;

	if (len < 2 || len > 17 || s[0] != 'r')
		return 0;
	for (size_t i = 1; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return 0;
		v = v << 4 | (u64)d;
	}
	*config = v;
	return 1;
}

static void set_flag(struct pd_attr *a, int bit, int on)
{
	if (on)
		a->flags |= FLAG(bit);
	else
		a->flags &= ~FLAG(bit);
}

/*
 * Applies modifier string m (len bytes, at offset pos of the list) to ev.
 * from_event: start from ev's bits (a group's modifiers) rather than from
 * nothing.
 */
static int apply_modifiers(struct parser *p, struct ev_event *ev, const char *m, size_t len,
			   size_t pos, int from_event)
{
	const struct pd_attr *a = &ev->attr;
	struct mods md = { 0 };
	int exclude;

	if (from_event) {
		md.eu = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_USER);
		md.ek = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_KERNEL);
		md.eh = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_HV);
		md.eH = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_HOST);
		md.eG = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_GUEST);
		md.eI = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_IDLE);
		md.precise = (int)PD_ATTR_PRECISE(a);
		md.pinned = PD_ATTR_FLAG(a, PD_ATTR_PINNED);
		md.exclusive = PD_ATTR_FLAG(a, PD_ATTR_EXCLUSIVE);
		md.exclude_gh = ev->exclude_gh;
		md.precise_max = ev->precise_max;
		md.sample_read = ev->sample_read;
		md.weak = ev->weak_group;
	}
	exclude = md.eu | md.ek | md.eh;
	for (size_t i = 0; i < len; i++) {
		switch (m[i]) {
		case 'u':
			if (!exclude)
				exclude = md.eu = md.ek = md.eh = 1;
			if (!md.exclude_gh)
				md.eG = 1;
			md.eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = md.eu = md.ek = md.eh = 1;
			md.ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = md.eu = md.ek = md.eh = 1;
			md.eh = 0;
			break;
		case 'G':
			if (!md.exclude_gh)
				md.exclude_gh = md.eG = md.eH = 1;
			md.eG = 0;
			break;
		case 'H':
			if (!md.exclude_gh)
				md.exclude_gh = md.eG = md.eH = 1;
			md.eH = 0;
			break;
		case 'p':
			md.precise++;
			if (!md.exclude_gh)	/* precise needs exclude_guest */
				md.eG = 1;
			break;
		case 'P': md.precise_max = 1; break;
		case 'S': md.sample_read = 1; break;
		case 'D': md.pinned = 1; break;
		case 'I': md.eI = 1; break;
		case 'e': md.exclusive = 1; break;
		case 'W': md.weak = 1; break;
		case 'b': break;	/* BPF counters: prof counts without them */
		}
	}
	if (md.precise > 3)
		return fail(p, pos, NULL, "Bad modifier");
	if (md.precise_max)
		md.precise = 3;	/* the opener lowers it until the event opens */
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_USER, md.eu);
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_KERNEL, md.ek);
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_HV, md.eh);
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_HOST, md.eH);
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_GUEST, md.eG);
	set_flag(&ev->attr, PD_ATTR_EXCLUDE_IDLE, md.eI);
	ev->attr.flags &= ~(3ULL << PD_ATTR_PRECISE_IP);
	ev->attr.flags |= (u64)md.precise << PD_ATTR_PRECISE_IP;
	ev->exclude_gh = (unsigned)md.exclude_gh;
	ev->precise_max = (unsigned)md.precise_max;
	ev->sample_read = (unsigned)md.sample_read;
	ev->weak_group = (unsigned)md.weak;
	if (ev->leader == ev - p->list->events) {
		set_flag(&ev->attr, PD_ATTR_PINNED, md.pinned);
		set_flag(&ev->attr, PD_ATTR_EXCLUSIVE, md.exclusive);
	}
	return 0;
}

/*
 * Checks modifier string m (at offset pos) as perf does: known letters
 * only (else a parser error at the colon), each once but p, at most 15.
 */
static int check_modifiers(struct parser *p, const char *m, size_t len, size_t pos)
{
	for (size_t i = 0; i < len; i++)
		if (!m[i] || !strchr(MODIFIER_CHARS, m[i]))
			return fail(p, pos - 1, NULL, "parser error");
	if (len > MODIFIER_MAX_LEN)
		return fail(p, pos, NULL, "Bad modifier");
	for (size_t i = 0; i < len; i++)
		if (m[i] != 'p' && memchr(m + i + 1, m[i], len - i - 1))
			return fail(p, pos, NULL, "Bad modifier");
	return 0;
}

long long ev_tracepoint_id(const char *sys, const char *name, char *path, size_t path_size)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	long long id = -1;

	for (size_t r = 0; r < COUNT(roots) && id < 0; r++) {
		char file[PATH_MAX];
		FILE *f;

		snprintf(file, sizeof(file), "%s/events/%s/%s/id", roots[r], sys, name);
		if (r == 0 || !access(roots[r], F_OK))	/* name the first root that exists */
			snprintf(path, path_size, "%s/events/%s/%s", roots[r], sys, name);
		f = fopen(file, "re");
		if (!f)
			continue;
		if (fscanf(f, "%lld", &id) != 1 || id < 0)
			id = -1;
		fclose(f);
	}
	return id;
}

/* Tracepoint "sys:name" at text[0..len), modifiers after a second ':'. */
static int parse_tracepoint(struct parser *p, const char *text, size_t len)
{
	size_t pos = (size_t)(text - p->str);
	const char *colon = memchr(text, ':', len);
	const char *name = colon + 1;
	const char *mods = memchr(name, ':', len - (size_t)(name - text));
	size_t name_len = (mods ? (size_t)(mods - name) : len - (size_t)(name - text));
	char sys[256], ev_name[256], path[PATH_MAX], help[PATH_MAX + 128];
	struct ev_event *ev;
	long long id;

	if (colon == text || !name_len || (size_t)(colon - text) >= sizeof(sys) ||
	    name_len >= sizeof(ev_name))
		return fail(p, pos, NULL, "parser error");
	memcpy(sys, text, (size_t)(colon - text));
	sys[colon - text] = 0;
	memcpy(ev_name, name, name_len);
	ev_name[name_len] = 0;
	if (strpbrk(sys, "*?[]/") || strpbrk(ev_name, "*?[]/"))
		return fail(p, pos, NULL, "tracepoint wildcards are not supported");
	if (mods && check_modifiers(p, mods + 1, len - (size_t)(mods + 1 - text),
				    (size_t)(mods + 1 - p->str)))
		return -1;
	id = ev_tracepoint_id(sys, ev_name, path, sizeof(path));
	if (id < 0) {
		snprintf(help, sizeof(help), "Error:\tFile %s not found.\n"
			 "Hint:\tPerhaps this kernel misses some CONFIG_ setting to enable this feature?.\n",
			 path);
		return fail(p, pos, help, "unknown tracepoint");
	}
	ev = new_event(p, text, (size_t)(colon - text) + 1 + name_len);
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (u64)id;
	ev->attr.sample_type = PD_SAMPLE_RAW | PD_SAMPLE_TIME | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD;
	ev->attr.sample_period = 1;
	if (mods)
		return apply_modifiers(p, ev, mods + 1, len - (size_t)(mods + 1 - text),
				       (size_t)(mods + 1 - p->str), 0);
	return 0;
}

/* Reads a small sysfs file of PMU pmu into buf; returns 0 or -1. */
static int read_pmu_file(const char *pmu, const char *file, char *buf, size_t size)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s", pmu, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/*
 * Puts value into attr by a sysfs format ("config:0-7,21", "config1:3"):
 * its low bits fill the ranges in order.  Returns 0, or -1 when the
 * format cannot be read or the value does not fit.
 */
static int apply_format(struct pd_attr *attr, const char *format, u64 value)
{
	const char *colon = strchr(format, ':');
	u64 *field;
	const char *s;
	int shift = 0;

	if (!colon)
		return -1;
	if ((size_t)(colon - format) == 6 && !strncmp(format, "config", 6))
		field = &attr->config;
	else if (!strncmp(format, "config1:", 8))
		field = &attr->config1;
	else if (!strncmp(format, "config2:", 8))
		field = &attr->config2;
	else
		return -1;
	for (s = colon + 1; *s; ) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0 || lo > 63)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return -1;
		for (long b = lo; b <= hi; b++, shift++)
			if (shift < 64 && (value >> shift) & 1)
				*field |= 1ULL << b;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return shift < 64 && value >> shift ? -1 : 0;
}

/* One term=value of pmu into attr: config, config1, config2 or a format. */
static int apply_term(const char *pmu, struct pd_attr *attr, const char *term, u64 value)
{
	char file[160], fmt[256];

	if (!strcmp(term, "config"))
		attr->config = value;
	else if (!strcmp(term, "config1"))
		attr->config1 = value;
	else if (!strcmp(term, "config2"))
		attr->config2 = value;
	else if (strchr(term, '/') || strlen(term) > 100)
		return -1;
	else if (snprintf(file, sizeof(file), "format/%s", term),
		 read_pmu_file(pmu, file, fmt, sizeof(fmt)) || apply_format(attr, fmt, value))
		return -1;
	return 0;
}

/*
 * A named event of pmu (sysfs events/NAME, e.g. "event=0x3c,umask=0x00")
 * into attr.  Returns 0, or -1 when there is none or it cannot be used.
 */
static int apply_alias(const char *pmu, struct pd_attr *attr, const char *alias)
{
	char file[160], terms[512], *save = NULL;

	if (strchr(alias, '/') || strlen(alias) > 100)
		return -1;
	snprintf(file, sizeof(file), "events/%s", alias);
	if (read_pmu_file(pmu, file, terms, sizeof(terms)))
		return -1;
	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *end;
		u64 value = 1;

		if (eq) {
			*eq = 0;
			errno = 0;
			value = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || (*end && *end != '\n'))
				return -1;
		}
		if (apply_term(pmu, attr, t, value))
			return -1;
	}
	return 0;
}

/* "valid terms: " and pmu's format term names, then the built-in ones. */
static void pmu_format_terms(const char *pmu, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t len;
	DIR *dir;

	snprintf(buf, size, "valid terms: ");
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format", pmu);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		len = strlen(buf);
		if (d->d_name[0] != '.')
			snprintf(buf + len, size - len, "%s,", d->d_name);
	}
	if (dir)
		closedir(dir);
	len = strlen(buf);
	snprintf(buf + len, size - len, "config,config1,config2,name");
}

/*
 * PMU event "pmu/terms/" at text; *end gets the offset past its '/',
 * *named whether a name= term named it.
 */
static int parse_pmu(struct parser *p, const char *text, size_t pmu_len, size_t *end,
		     struct ev_event **out, int *named)
{
	size_t pos = (size_t)(text - p->str);
	const char *terms = text + pmu_len + 1;
	const char *close = strchr(terms, '/');
	char pmu[128], buf[64], *list, *save = NULL, *name = NULL;
	struct pd_attr attr = { 0 };
	struct ev_event *ev;
	long type;

	if (!close || pmu_len >= sizeof(pmu))
		return fail(p, pos, NULL, "parser error");
	memcpy(pmu, text, pmu_len);
	pmu[pmu_len] = 0;
	if (strchr(pmu, '.') || read_pmu_file(pmu, "type", buf, sizeof(buf)) ||
	    (type = strtol(buf, NULL, 10)) < 0)
		return fail(p, pos, NULL, "Cannot find PMU `%s'. Missing kernel support?", pmu);
	attr.type = (u32)type;
	list = xmalloc((size_t)(close - terms) + 1);
	memcpy(list, terms, (size_t)(close - terms));
	list[close - terms] = 0;
	for (size_t i = 0; list[i]; i++) {	/* perf refuses empty terms */
		if (list[i] == ',' && (i == 0 || list[i - 1] == ',' || !list[i + 1])) {
			free(list);
			return fail(p, pos + pmu_len + 1 + i, NULL, "parser error");
		}
	}
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *vend;
		size_t tpos = pos + pmu_len + 1 + (size_t)(t - list);
		u64 value = 1;

		if (eq) {
			*eq = 0;
			if (!strcmp(t, "name") && !eq[1]) {
				fail(p, tpos, NULL, "parser error");
				free(list);
				free(name);
				return -1;
			}
			if (!strcmp(t, "name")) {
				free(name);
				name = xstrdup(eq + 1);
				continue;
			}
			errno = 0;
			value = strtoull(eq + 1, &vend, 0);
			if (errno || vend == eq + 1 || *vend) {
				fail(p, tpos, NULL, "bad value for term '%s'", t);
				free(list);
				free(name);
				return -1;
			}
		}
		if (apply_term(pmu, &attr, t, value) && (eq || apply_alias(pmu, &attr, t))) {
			char help[512];

			pmu_format_terms(pmu, help, sizeof(help));
			fail(p, tpos, help, "unknown term '%s' for pmu '%s'", t, pmu);
			free(list);
			free(name);
			return -1;
		}
	}
	free(list);
	*end = (size_t)(close + 1 - p->str);
	ev = new_event(p, text, (size_t)(close + 1 - text));
	ev->attr.type = attr.type;
	ev->attr.config = attr.config;
	ev->attr.config1 = attr.config1;
	ev->attr.config2 = attr.config2;
	ev->pmu_syntax = 1;
	*named = name != NULL;
	if (name) {
		free(ev->name);
		ev->name = name;
	}
	*out = ev;
	return 0;
}

/* Length of a PMU name at s followed by '/', or 0. */
static size_t pmu_prefix(const char *s)
{
	size_t n = 0;

	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
	       (s[n] >= '0' && s[n] <= '9') || s[n] == '_' || s[n] == '-' || s[n] == '.')
		n++;
	return n && s[n] == '/' ? n : 0;
}

/* One event at offset *at; *at moves past it. */
static int parse_event(struct parser *p, size_t *at, int in_group)
{
	const char *text = p->str + *at;
	size_t len = strcspn(text, in_group ? ",}" : ",{}");
	size_t pmu_len = pmu_prefix(text);
	const char *colon;
	size_t name_len;
	const struct ev_symbol *sym;
	struct ev_event *ev;
	u32 type;
	u64 config;
	int cache;

	if (pmu_len) {
		size_t end, mlen;
		int named;
		const char *m;

		if (parse_pmu(p, text, pmu_len, &end, &ev, &named))
			return -1;
		/* modifiers come straight after the '/' (perf takes no ':' here) */
		len = strcspn(p->str + end, ",{}");
		m = p->str + end;
		mlen = len;
		if (len && (check_modifiers(p, m, mlen, (size_t)(m - p->str)) ||
			    apply_modifiers(p, ev, m, mlen, (size_t)(m - p->str), 0))) {
			free(ev->name);
			p->list->nr--;
			return -1;
		}
		if (len && !named) {	/* the name is the text with its modifiers */
			free(ev->name);
			ev->name = xmalloc(end + len - *at + 1);
			memcpy(ev->name, text, end + len - *at);
			ev->name[end + len - *at] = 0;
		}
		*at = end + len;
		return 0;
	}
	if (!len)
		return fail(p, *at ? *at - 1 : 0, NULL, "parser error");
	colon = memchr(text, ':', len);
	name_len = colon ? (size_t)(colon - text) : len;
	sym = find_symbol(text, name_len);
	if (sym) {
		type = sym->type;
		config = sym->config;
	} else if ((cache = parse_cache(text, name_len, &config)) != 0) {
		if (cache < 0)
			return fail(p, *at, NULL, "invalid cache event '%.*s': the cache has no such operation",
				    (int)name_len, text);
		type = PERF_TYPE_HW_CACHE;
	} else if (parse_raw(text, name_len, &config)) {
		type = PERF_TYPE_RAW;
	} else if (colon) {
		if (parse_tracepoint(p, text, len))
			return -1;
		*at += len;
		return 0;
	} else {
		return fail(p, *at, NULL, "parser error");
	}
	if (colon && check_modifiers(p, colon + 1, len - name_len - 1,
				     (size_t)(colon + 1 - p->str)))
		return -1;
	ev = new_event(p, text, len);
	ev->attr.type = type;
	ev->attr.config = config;
	if (colon && apply_modifiers(p, ev, colon + 1, len - name_len - 1,
				     (size_t)(colon + 1 - p->str), 0)) {
		free(ev->name);
		p->list->nr--;
		return -1;
	}
	*at += len;
	return 0;
}

/* A group "{a,b,...}[:mods]" at offset *at (the '{'). */
static int parse_group(struct parser *p, size_t *at)
{
	int leader = p->list->nr;
	size_t pos = *at + 1;

	for (;;) {
		if (parse_event(p, &pos, 1))
			return -1;
		if (p->str[pos] == '}')
			break;
		if (p->str[pos] != ',')
			return fail(p, pos, NULL, "parser error");
		pos++;
	}
	pos++;
	for (int i = leader; i < p->list->nr; i++) {
		p->list->events[i].leader = leader;
		p->list->events[i].nr_members = i == leader ? p->list->nr - leader : 0;
	}
	if (p->str[pos] == ':') {
		size_t mpos = pos + 1, mlen = strcspn(p->str + mpos, ",{}");

		if (check_modifiers(p, p->str + mpos, mlen, mpos))
			return -1;
		for (int i = leader; i < p->list->nr; i++)
			if (apply_modifiers(p, &p->list->events[i], p->str + mpos, mlen, mpos, 1))
				return -1;
		pos = mpos + mlen;
	}
	*at = pos;
	return 0;
}

int ev_parse(struct ev_list *list, const char *str, struct ev_error *err)
{
	struct parser p = { str, list, err };
	int first = list->nr;
	size_t at = 0;

	memset(err, 0, sizeof(*err));
	for (;;) {
		int ret = str[at] == '{' ? parse_group(&p, &at) : parse_event(&p, &at, 0);

		if (!ret && str[at] && str[at] != ',')
			ret = fail(&p, at, NULL, "parser error");
		if (!ret && str[at] == ',' && !str[at + 1])
			ret = fail(&p, 0, NULL, "parser error");
		if (ret) {
			while (list->nr > first)
				free(list->events[--list->nr].name);
			return -1;
		}
		if (!str[at])
			return 0;
		at++;
	}
}

void ev_error_print(const char *str, const struct ev_error *err)
{
	const char *lead = "event syntax error: ";
	int max_len = 80 - 2 - (int)strlen(lead);	/* perf's width off a terminal */
	int len = (int)strlen(str), cut = 0, indent;
	char *shown;

	/* as perf: a marker far right cuts the start, a long rest the end */
	if (err->pos > 13)
		cut = err->pos - 13;
	if (cut > len)
		cut = len;
	shown = xstrdup(str + cut);
	if (cut && len - cut >= 2)
		shown[0] = shown[1] = '.';
	if (len - cut > max_len) {
		shown[max_len - 1] = shown[max_len - 2] = '.';
		shown[max_len] = 0;
	}
	indent = (int)strlen(error_get_prefix()) + 2 + (int)strlen(lead) + err->pos - cut + 1;
	error("%s'%s'", lead, shown);
	fprintf(stderr, "%*s\\___ %s\n", indent, "", err->msg);
	if (err->help[0])
		fprintf(stderr, "\n%s\n", err->help);
	fprintf(stderr, "Run 'perf list' for a list of valid events\n");
	free(shown);
}

void ev_list_free(struct ev_list *list)
{
	for (int i = 0; i < list->nr; i++)
		free(list->events[i].name);
	free(list->events);
	list->events = NULL;
	list->nr = list->alloc = 0;
}
