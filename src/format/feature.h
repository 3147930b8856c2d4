/*
 * feature.h - decodes the feature sections of a perf.data file (HOSTNAME,
 * CPU_TOPOLOGY, EVENT_DESC, ...) into a struct pd_feat_env, the way perf
 * 6.1's process_*() functions fill its perf_env.
 *
 * Invariants:
 *  - Every read is bounds-checked against the section (or HEADER_FEATURE
 *    payload); nothing is allocated beyond what the payload can hold.
 *  - Payloads are in the file's byte order; decoding swaps when
 *    f->needs_swap is set.  Strings are copied into f->arena and are always
 *    NUL-terminated.
 *  - A malformed section leaves env as perf leaves its perf_env: fields
 *    decoded before the fault keep their values, the rest keep defaults.
 *    perf stops decoding at the first faulty section, and so does
 *    pd_feature_decode_all(), so later features print their defaults.
 */
#ifndef PROF_FORMAT_FEATURE_H
#define PROF_FORMAT_FEATURE_H

#include "reader.h"

/* Byte-order helpers for payloads written in the file's order. */
static inline u32 pd_feat_u32(const struct pd_file *f, const void *p)
{
	u32 v = pd_get32(p);

	return f->needs_swap ? __builtin_bswap32(v) : v;
}

static inline u64 pd_feat_u64(const struct pd_file *f, const void *p)
{
	u64 v = pd_get64(p);

	return f->needs_swap ? __builtin_bswap64(v) : v;
}

/* A list of strings (CMDLINE arguments, sibling lists, ...). */
struct pd_feat_strs {
	u32 nr;
	const char **s;
};

/* One EVENT_DESC entry. */
struct pd_feat_event {
	struct pd_attr attr;	/* host order, zero-filled past its size */
	const char *name;
	u32 nr_ids;
	u64 *ids;
};

struct pd_feat_cpu {
	u32 core_id, socket_id, die_id;
};

struct pd_feat_numa_node {
	u32 node;
	u64 mem_total, mem_free;	/* kB */
	const char *cpus;	/* normalised cpu list ("0-3,8") */
};

struct pd_feat_pmu {		/* PMU_MAPPINGS entry */
	u32 type;
	const char *name;
};

struct pd_feat_cache {
	u32 level, line_size, sets, ways;
	const char *type, *size, *map;
};

struct pd_feat_mem_node {
	u64 node;
	u64 nbits;		/* bits in bitmap */
	const u64 *bitmap;	/* host order, (nbits + 63) / 64 words */
};

struct pd_feat_pmu_caps {
	struct pd_feat_strs caps;	/* "name=value" */
	const char *pmu_name;
};

struct pd_feat_hybrid_node {
	const char *pmu_name, *cpus;
};

/* One BPF_PROG_INFO entry: the kernel's struct bpf_prog_info (zero-filled
 * to the size this build knows) and the arrays its pointers refer to. */
struct pd_feat_bpf_prog {
	const u8 *info;		/* sizeof(struct bpf_prog_info) bytes */
	const u8 *data;		/* the arrays; info's pointers are offsets */
	u32 data_len;
	u64 arrays;		/* bit mask of arrays present in data */
};

struct pd_feat_btf {
	u32 id;
	u32 size;
	const u8 *data;
};

/* Everything perf 6.1 learns from the feature sections. */
struct pd_feat_env {
	const char *hostname, *os_release, *version, *arch, *cpu_desc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem;
	struct pd_feat_strs cmdline;

	int event_desc_ok;	/* EVENT_DESC decoded */
	struct pd_feat_event *events;
	u32 nr_events;		/* entries before the first with attr.size 0 */

	struct pd_feat_strs sibling_cores, sibling_dies, sibling_threads;
	struct pd_feat_cpu *cpu;	/* nr_cpus_avail entries, or NULL */

	struct pd_feat_numa_node *numa_nodes;
	u32 nr_numa_nodes;

	struct pd_feat_pmu *pmus;
	u32 nr_pmus;

	/* GROUP_DESC applied to the file's evsels (f->nr_evsel entries) */
	u32 *group_nr_members;	/* per leader; 0 for members */
	const char **group_name;	/* NULL: anonymous */
	u8 *group_leader_is_self;

	struct pd_feat_cache *caches;
	u32 nr_caches;

	u64 first_sample_time, last_sample_time;

	u64 mem_bsize;
	struct pd_feat_mem_node *mem_nodes;
	u64 nr_mem_nodes;

	u64 clockid_res_ns;

	int clock_enabled;	/* CLOCK_DATA decoded */
	u32 clockid;
	u64 tod_ns, clockid_ns;

	struct pd_feat_bpf_prog *bpf_progs;	/* sorted by prog id, unique */
	u32 nr_bpf_progs;
	struct pd_feat_btf *btfs;		/* sorted by id, unique */
	u32 nr_btfs;

	u32 comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;

	struct pd_feat_strs cpu_pmu_caps;	/* "name=value" */

	struct pd_feat_hybrid_node *hybrid_nodes;
	u32 nr_hybrid_nodes;

	struct pd_feat_pmu_caps *pmu_caps;
	u32 nr_pmu_caps;
};

/* Sets env to perf's defaults (zeroes, no groups). */
void pd_feature_env_init(struct pd_file *f, struct pd_feat_env *env);

/*
 * Decodes feature feat into env, as perf 6.1 does.  Returns 0, or -1
 * after a warning naming the file, the feature and the offset when the
 * section is malformed (env is then partly filled, as perf's would be).
 * A feature whose section the reader could not map gives -1 silently (the
 * reader has warned).  Features perf does not decode return 0.
 */
int pd_feature_decode(struct pd_file *f, unsigned feat, struct pd_feat_env *env);

/*
 * Decodes, in bit order, every present feature below perf 6.1's
 * HEADER_LAST_FEATURE and below stop_before, stopping at the first
 * malformed one as perf does.  Returns 0, or -1 if one was malformed.
 */
int pd_feature_decode_all(struct pd_file *f, struct pd_feat_env *env, unsigned stop_before);

/*
 * Names evsels as perf does when it reads the features: an evsel with no
 * name takes the EVENT_DESC name of the entry with the same index (when
 * perf would have reached EVENT_DESC), then an unnamed tracepoint evsel
 * takes "system:event" from TRACING_DATA.  Names go into f->arena.  Call
 * after the attrs and features are known (pd_open), after an EVENT_DESC
 * HEADER_FEATURE record and after a HEADER_TRACING_DATA record.  A
 * malformed section only gives a warning: returns 0.
 */
int pd_feature_apply_event_desc(struct pd_file *f);

/* The recording machine's architecture (ARCH, uname's machine) in buf;
 * 1, or 0 when the file does not say. */
int pd_feature_arch(const struct pd_file *f, char *buf, size_t size);

/* The recording machine's available CPUs (NRCPUS), or max when the file
 * does not say or says more than max. */
u32 pd_feature_nr_cpus(const struct pd_file *f, u32 max);

/*
 * Looks up tracepoint id in the TRACING_DATA event formats and writes
 * "system:name" into buf.  Returns 0, or -1 when it is not there.
 */
int pd_tracepoint_name(const struct pd_file *f, u64 id, char *buf, size_t size);

#endif
