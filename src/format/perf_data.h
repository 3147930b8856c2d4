/*
 * perf_data.h - the perf.data file format: layouts, constants, helpers.
 *
 * This header describes bytes on disk.  It knows nothing of reports.  All
 * multi-byte integers are in the byte order of the machine that wrote the
 * file; the reader converts records to host order before anyone sees them.
 *
 * File mode ("PERFILE2", the common case):
 *
 *   offset  size  field
 *   ------  ----  -----------------------------------------------------------
 *        0     8  magic 0x32454c4946524550 ("PERFILE2" on little endian)
 *        8     8  header size: 104 (72 in files with no feature bitmap)
 *       16     8  attr_size: bytes of one attr-section entry = attr.size + 16
 *       24    16  attrs {u64 offset, u64 size}
 *       40    16  data {u64 offset, u64 size}
 *       56    16  event_types {offset, size} (obsolete, ignored)
 *       72    32  feature bitmap: 4 u64 words, feature n is word n/64 bit n%64
 *
 *   The attr section holds attrs.size / attr_size entries, each the attr
 *   bytes followed by {u64 offset, u64 size} of that attr's u64 id array.
 *   The feature table sits at data.offset + data.size: one {u64 offset,
 *   u64 size} per set feature bit, in ascending bit order.
 *
 * Pipe mode: a 16-byte header {magic, u64 size = 16}, then records to EOF.
 * Attrs come as HEADER_ATTR records, features as HEADER_FEATURE records.
 *
 * Every record starts with struct pd_header {u32 type, u16 misc, u16 size};
 * size covers the header.  Types below 64 come from the kernel (layouts in
 * linux/perf_event.h), 64 and up are written by perf (see PD_REC_* below).
 * Records need not be 8-byte aligned: always load through pd_get*().
 */
#ifndef PROF_FORMAT_PERF_DATA_H
#define PROF_FORMAT_PERF_DATA_H

#include "../util/types.h"

#include <string.h>

#define PD_MAGIC		0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_MAGIC_SWAPPED	0x50455246494c4532ULL
#define PD_FILE_HEADER_SIZE	104
#define PD_PIPE_HEADER_SIZE	16

/* Unaligned loads in host order. */
static inline u16 pd_get16(const void *p) { u16 v; memcpy(&v, p, 2); return v; }
static inline u32 pd_get32(const void *p) { u32 v; memcpy(&v, p, 4); return v; }
static inline u64 pd_get64(const void *p) { u64 v; memcpy(&v, p, 8); return v; }

/* Record header: u32 type, u16 misc, u16 size (whole record). */
struct pd_header {
	u32 type;
	u16 misc;
	u16 size;
} __attribute__((packed));	/* records need not be 8-byte aligned */

/*
 * perf_event_attr as on disk, up to PERF_ATTR_SIZE_VER8 (136 bytes).
 * Files carry any size from 64 up; the reader copies min(size, 136) bytes
 * and zero-fills the rest.  The bitfield word is kept as a u64; PD_ATTR_*
 * give its bits (little-endian bitfield order, the host order after any
 * swap).
 *
 *   off size field                       off size field
 *     0   4  type                          80   8  sample_regs_user
 *     4   4  size                          88   4  sample_stack_user
 *     8   8  config                        92   4  clockid
 *    16   8  sample_period / sample_freq   96   8  sample_regs_intr
 *    24   8  sample_type                  104   4  aux_watermark
 *    32   8  read_format                  108   2  sample_max_stack
 *    40   8  flags (bitfields)            110   2  reserved
 *    48   4  wakeup_events / watermark    112   4  aux_sample_size
 *    52   4  bp_type                      116   4  reserved
 *    56   8  config1 (bp_addr)            120   8  sig_data
 *    64   8  config2 (bp_len)             128   8  config3
 *    72   8  branch_sample_type
 */
struct pd_attr {
	u32 type;
	u32 size;
	u64 config;
	u64 sample_period;	/* sample_freq when PD_ATTR_FREQ is set */
	u64 sample_type;
	u64 read_format;
	u64 flags;
	u32 wakeup_events;
	u32 bp_type;
	u64 config1;
	u64 config2;
	u64 branch_sample_type;
	u64 sample_regs_user;
	u32 sample_stack_user;
	s32 clockid;
	u64 sample_regs_intr;
	u32 aux_watermark;
	u16 sample_max_stack;
	u16 reserved_2;
	u32 aux_sample_size;
	u32 reserved_3;
	u64 sig_data;
	u64 config3;
};
#define PD_ATTR_MAX_SIZE 136
#define PD_ATTR_VER0_SIZE 64

/* Bits of pd_attr.flags, in declaration order of the kernel's bitfields. */
enum {
	PD_ATTR_DISABLED = 0, PD_ATTR_INHERIT, PD_ATTR_PINNED, PD_ATTR_EXCLUSIVE,
	PD_ATTR_EXCLUDE_USER, PD_ATTR_EXCLUDE_KERNEL, PD_ATTR_EXCLUDE_HV,
	PD_ATTR_EXCLUDE_IDLE, PD_ATTR_MMAP, PD_ATTR_COMM, PD_ATTR_FREQ,
	PD_ATTR_INHERIT_STAT, PD_ATTR_ENABLE_ON_EXEC, PD_ATTR_TASK,
	PD_ATTR_WATERMARK, PD_ATTR_PRECISE_IP /* 2 bits: 15-16 */,
	PD_ATTR_MMAP_DATA = 17, PD_ATTR_SAMPLE_ID_ALL, PD_ATTR_EXCLUDE_HOST,
	PD_ATTR_EXCLUDE_GUEST, PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL,
	PD_ATTR_EXCLUDE_CALLCHAIN_USER, PD_ATTR_MMAP2, PD_ATTR_COMM_EXEC,
	PD_ATTR_USE_CLOCKID, PD_ATTR_CONTEXT_SWITCH, PD_ATTR_WRITE_BACKWARD,
	PD_ATTR_NAMESPACES, PD_ATTR_KSYMBOL, PD_ATTR_BPF_EVENT,
	PD_ATTR_AUX_OUTPUT, PD_ATTR_CGROUP, PD_ATTR_TEXT_POKE, PD_ATTR_BUILD_ID,
	PD_ATTR_INHERIT_THREAD, PD_ATTR_REMOVE_ON_EXEC, PD_ATTR_SIGTRAP,
};
#define PD_ATTR_FLAG(attr, bit)	(((attr)->flags >> (bit)) & 1)
#define PD_ATTR_PRECISE(attr)	(((attr)->flags >> PD_ATTR_PRECISE_IP) & 3)

/* perf_event_attr.type */
enum {
	PD_TYPE_HARDWARE = 0, PD_TYPE_SOFTWARE = 1, PD_TYPE_TRACEPOINT = 2,
	PD_TYPE_HW_CACHE = 3, PD_TYPE_RAW = 4, PD_TYPE_BREAKPOINT = 5,
};

/* sample_type bits (PERF_SAMPLE_*) */
enum {
	PD_SAMPLE_IP = 1ULL << 0, PD_SAMPLE_TID = 1ULL << 1,
	PD_SAMPLE_TIME = 1ULL << 2, PD_SAMPLE_ADDR = 1ULL << 3,
	PD_SAMPLE_READ = 1ULL << 4, PD_SAMPLE_CALLCHAIN = 1ULL << 5,
	PD_SAMPLE_ID = 1ULL << 6, PD_SAMPLE_CPU = 1ULL << 7,
	PD_SAMPLE_PERIOD = 1ULL << 8, PD_SAMPLE_STREAM_ID = 1ULL << 9,
	PD_SAMPLE_RAW = 1ULL << 10, PD_SAMPLE_BRANCH_STACK = 1ULL << 11,
	PD_SAMPLE_REGS_USER = 1ULL << 12, PD_SAMPLE_STACK_USER = 1ULL << 13,
	PD_SAMPLE_WEIGHT = 1ULL << 14, PD_SAMPLE_DATA_SRC = 1ULL << 15,
	PD_SAMPLE_IDENTIFIER = 1ULL << 16, PD_SAMPLE_TRANSACTION = 1ULL << 17,
	PD_SAMPLE_REGS_INTR = 1ULL << 18, PD_SAMPLE_PHYS_ADDR = 1ULL << 19,
	PD_SAMPLE_AUX = 1ULL << 20, PD_SAMPLE_CGROUP = 1ULL << 21,
	PD_SAMPLE_DATA_PAGE_SIZE = 1ULL << 22, PD_SAMPLE_CODE_PAGE_SIZE = 1ULL << 23,
	PD_SAMPLE_WEIGHT_STRUCT = 1ULL << 24,
};

/* read_format bits */
enum {
	PD_FORMAT_TOTAL_TIME_ENABLED = 1 << 0, PD_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	PD_FORMAT_ID = 1 << 2, PD_FORMAT_GROUP = 1 << 3, PD_FORMAT_LOST = 1 << 4,
};

/* branch_sample_type bit that adds hw_idx to BRANCH_STACK */
#define PD_BRANCH_HW_INDEX (1ULL << 17)

/* Record types.  0-63 from the kernel, 64 and up from perf. */
enum pd_record_type {
	PD_REC_MMAP = 1, PD_REC_LOST = 2, PD_REC_COMM = 3, PD_REC_EXIT = 4,
	PD_REC_THROTTLE = 5, PD_REC_UNTHROTTLE = 6, PD_REC_FORK = 7,
	PD_REC_READ = 8, PD_REC_SAMPLE = 9, PD_REC_MMAP2 = 10, PD_REC_AUX = 11,
	PD_REC_ITRACE_START = 12, PD_REC_LOST_SAMPLES = 13, PD_REC_SWITCH = 14,
	PD_REC_SWITCH_CPU_WIDE = 15, PD_REC_NAMESPACES = 16, PD_REC_KSYMBOL = 17,
	PD_REC_BPF_EVENT = 18, PD_REC_CGROUP = 19, PD_REC_TEXT_POKE = 20,
	PD_REC_AUX_OUTPUT_HW_ID = 21,
	PD_REC_KERNEL_MAX = 22,		/* kernel types this reader knows */

	PD_REC_USER_START = 64,
	PD_REC_HEADER_ATTR = 64, PD_REC_HEADER_EVENT_TYPE = 65,
	PD_REC_HEADER_TRACING_DATA = 66, PD_REC_HEADER_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68, PD_REC_ID_INDEX = 69,
	PD_REC_AUXTRACE_INFO = 70, PD_REC_AUXTRACE = 71,
	PD_REC_AUXTRACE_ERROR = 72, PD_REC_THREAD_MAP = 73, PD_REC_CPU_MAP = 74,
	PD_REC_STAT_CONFIG = 75, PD_REC_STAT = 76, PD_REC_STAT_ROUND = 77,
	PD_REC_EVENT_UPDATE = 78, PD_REC_TIME_CONV = 79,
	PD_REC_HEADER_FEATURE = 80, PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82, PD_REC_COMPRESSED2 = 83,
	PD_REC_BPF_METADATA = 84, PD_REC_SCHEDSTAT_CPU = 85,
	PD_REC_SCHEDSTAT_DOMAIN = 86,
	PD_REC_MAX_KNOWN = 87,		/* types below this have names */
};

/* header.misc */
#define PD_MISC_CPUMODE_MASK	7
#define PD_MISC_KERNEL		1
#define PD_MISC_USER		2
#define PD_MISC_HYPERVISOR	3
#define PD_MISC_GUEST_KERNEL	4
#define PD_MISC_GUEST_USER	5
#define PD_MISC_PROC_MAP_PARSE_TIMEOUT (1 << 12)
#define PD_MISC_MMAP_DATA	(1 << 13)	/* also COMM_EXEC, FORK_EXEC, SWITCH_OUT */
#define PD_MISC_EXACT_IP	(1 << 14)	/* also SWITCH_OUT_PREEMPT, MMAP_BUILD_ID */
#define PD_MISC_BUILD_ID_SIZE	(1 << 15)

/* Callchain context markers (values >= PD_CONTEXT_MAX are markers). */
#define PD_CONTEXT_HV		((u64)-32)
#define PD_CONTEXT_KERNEL	((u64)-128)
#define PD_CONTEXT_USER		((u64)-512)
#define PD_CONTEXT_GUEST	((u64)-2048)
#define PD_CONTEXT_GUEST_KERNEL	((u64)-2176)
#define PD_CONTEXT_GUEST_USER	((u64)-2560)
#define PD_CONTEXT_MAX		((u64)-4095)

/* The cpumode (PD_MISC_*) a context marker sets for the addresses after it,
 * or -1 for one perf's report does not follow (the guest markers). */
static inline int pd_context_cpumode(u64 marker)
{
	if (marker == PD_CONTEXT_KERNEL)
		return PD_MISC_KERNEL;
	if (marker == PD_CONTEXT_USER)
		return PD_MISC_USER;
	if (marker == PD_CONTEXT_HV)
		return PD_MISC_HYPERVISOR;
	return -1;
}

/* Feature bits (HEADER_*). */
enum pd_feature {
	PD_FEAT_RESERVED = 0, PD_FEAT_TRACING_DATA, PD_FEAT_BUILD_ID,
	PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH,
	PD_FEAT_NRCPUS, PD_FEAT_CPUDESC, PD_FEAT_CPUID, PD_FEAT_TOTAL_MEM,
	PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC, PD_FEAT_CPU_TOPOLOGY,
	PD_FEAT_NUMA_TOPOLOGY, PD_FEAT_BRANCH_STACK, PD_FEAT_PMU_MAPPINGS,
	PD_FEAT_GROUP_DESC, PD_FEAT_AUXTRACE, PD_FEAT_STAT, PD_FEAT_CACHE,
	PD_FEAT_SAMPLE_TIME, PD_FEAT_MEM_TOPOLOGY, PD_FEAT_CLOCKID,
	PD_FEAT_DIR_FORMAT, PD_FEAT_BPF_PROG_INFO, PD_FEAT_BPF_BTF,
	PD_FEAT_COMPRESSED, PD_FEAT_CPU_PMU_CAPS, PD_FEAT_CLOCK_DATA,
	PD_FEAT_HYBRID_TOPOLOGY, PD_FEAT_PMU_CAPS, PD_FEAT_CPU_DOMAIN_INFO,
	PD_FEAT_LAST_KNOWN,		/* bits from here on are kept but not decoded */
	PD_FEAT_BITS = 256,		/* size of the bitmap */
};
/* perf 6.1's HEADER_LAST_FEATURE: the pipe-mode end-of-features marker. */
#define PD_FEAT_PIPE_END_61 32

/* The name of a record type as perf prints it ("MMAP", "FINISHED_ROUND"),
 * or NULL for a type with no name. */
const char *pd_record_name(u32 type);
/* The name of a feature bit as perf prints it ("HOSTNAME"), or NULL. */
const char *pd_feature_name(unsigned feat);

#endif
