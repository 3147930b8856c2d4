/*
 * evname.c - the names perf 6.1's evsel__name() gives events that the file
 * did not name: "cycles:u", "L1-dcache-load-misses", "raw 0x1c2",
 * "mem:0x1000:rw", "dummy:HG".
 *
 * The modifier suffix follows evsel__add_modifiers(): k/u/h for the
 * contexts not excluded (only when one is excluded), p per precise_ip
 * level, then H/G for host/guest when exclude_host is set or exclude_guest
 * equals the default (set by the two rules before).
 */
#include "evname.h"
#include "feature.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

/* [op][0] is used with a result, [op][1] without */
static const char *const cache_ops[][2] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
};

static const char *const cache_results[] = { "refs", "misses" };

/* Which ops (bit per op: read, write, prefetch) each cache supports. */
static const unsigned cache_valid_ops[] = { 7, 5, 7, 7, 1, 1, 7 };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Appends to buf at *len, never past size. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

static void add_modifiers(const struct pd_attr *a, char *buf, size_t size, size_t *len)
{
	size_t colon = 0;
	int guest_default = 0;
	int excl_kernel = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_KERNEL);
	int excl_user = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_USER);
	int excl_hv = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_HV);
	int excl_host = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_HOST);
	int excl_guest = PD_ATTR_FLAG(a, PD_ATTR_EXCLUDE_GUEST);
	unsigned precise = PD_ATTR_PRECISE(a);

#define MOD(excluded, c) do {					\
		if (!(excluded)) {					\
			if (!colon)					\
				colon = ++*len;				\
			put(buf, size, len, "%c", c);			\
		}							\
	} while (0)

	if (excl_kernel || excl_user || excl_hv) {
		MOD(excl_kernel, 'k');
		MOD(excl_user, 'u');
		MOD(excl_hv, 'h');
		guest_default = 1;
	}
	if (precise) {
		if (!colon)
			colon = ++*len;
		put(buf, size, len, "%.*s", (int)precise, "ppp");
		guest_default = 1;
	}
	if (excl_host || excl_guest == guest_default) {
		MOD(excl_host, 'H');
		MOD(excl_guest, 'G');
	}
#undef MOD
	if (colon && colon - 1 < size)
		buf[colon - 1] = ':';
	if (*len >= size)
		*len = size - 1;
	buf[*len] = 0;
}

static void hw_cache_name(u64 config, char *buf, size_t size, size_t *len)
{
	unsigned type = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;

	if (type >= COUNT(cache_names))
		put(buf, size, len, "unknown-ext-hardware-cache-type");
	else if (op >= COUNT(cache_ops))
		put(buf, size, len, "unknown-ext-hardware-cache-op");
	else if (result >= COUNT(cache_results))
		put(buf, size, len, "unknown-ext-hardware-cache-result");
	else if (!(cache_valid_ops[type] & (1u << op)))
		put(buf, size, len, "invalid-cache");
	else if (result)
		put(buf, size, len, "%s-%s-%s", cache_names[type], cache_ops[op][0],
		    cache_results[result]);
	else
		put(buf, size, len, "%s-%s", cache_names[type], cache_ops[op][1]);
}

const char *pd_evsel_name(const struct pd_file *f, const struct pd_evsel *evsel,
			  char *buf, size_t size)
{
	const struct pd_attr *a = &evsel->attr;
	size_t len = 0;

	if (!size)
		return buf;
	buf[0] = 0;
	if (evsel->name) {
		snprintf(buf, size, "%s", evsel->name);
		return buf;
	}
	switch (a->type) {
	case PD_TYPE_HARDWARE:
		put(buf, size, &len, "%s", a->config < COUNT(hw_names) ?
		    hw_names[a->config] : "unknown-hardware");
		break;
	case PD_TYPE_SOFTWARE:
		put(buf, size, &len, "%s", a->config < COUNT(sw_names) ?
		    sw_names[a->config] : "unknown-software");
		break;
	case PD_TYPE_HW_CACHE:
		hw_cache_name(a->config, buf, size, &len);
		break;
	case PD_TYPE_RAW:
		put(buf, size, &len, "raw 0x%llx", (unsigned long long)a->config);
		break;
	case PD_TYPE_BREAKPOINT:
		put(buf, size, &len, "mem:0x%llx:%s%s%s", (unsigned long long)a->config1,
		    a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
		    a->bp_type & 4 ? "x" : "");
		break;
	case PD_TYPE_TRACEPOINT:
		if (pd_tracepoint_name(f, a->config, buf, size))
			snprintf(buf, size, "unknown tracepoint");
		return buf;
	default:
		snprintf(buf, size, "unknown attr type: %d", (int)a->type);
		return buf;
	}
	add_modifiers(a, buf, size, &len);
	return buf;
}
