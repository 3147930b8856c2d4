/*
 * writer.h - writes a file-mode ("PERFILE2") perf.data that perf 6.1 reads.
 *
 * Layout of the file written (all integers in host byte order):
 *
 *   offset          size                  meaning
 *   --------------  --------------------  ------------------------------------
 *   0               104                   header: magic, size 104, attr_size
 *                                         144, attrs, data, event_types {0,0},
 *                                         feature bitmap (rewritten at close)
 *   104             8 x sum(nr_ids)       the ids of each attr, attr by attr
 *   ids end         144 x nr_attrs        attrs section: per attr its 128
 *                                         bytes (PERF_ATTR_SIZE_VER7, the
 *                                         largest perf 6.1 accepts), then
 *                                         {u64 offset, u64 size} of its ids
 *   data.offset     data.size             the records, appended as they come
 *   data end        16 x nr_features      feature table: {offset, size} per
 *                                         set bit, ascending bit order
 *   table end       ...                   the feature payloads, same order
 *
 * Pipe mode (pw_open_pipe, "-o -"): a 16-byte header {magic, 16}, one
 * HEADER_ATTR record per event (attr, then its ids), the HEADER_FEATURE
 * records pw_pipe_features() writes, then the records, all written in
 * order with write(); nothing is rewritten at the end.
 *
 * Records are copied into one large buffer and written out when it fills
 * or a pw_commit() finds 64 KiB or more in it,
 * so appending costs a memcpy.  Write errors are sticky: the first one is
 * reported, later writes are dropped, and pw_close() returns -1 but still
 * finishes the file: the records up to the last pw_commit() point that
 * leaves room for the features in the space the file had (cut further
 * back until they fit), then the features; only when they do not fit with
 * no records at all, COMPRESSED alone (the data cannot be read without
 * it), else none.  Feature payloads are kept in memory until pw_close();
 * each bit may be set once.
 */
#ifndef PROF_FORMAT_WRITER_H
#define PROF_FORMAT_WRITER_H

#include "perf_data.h"

#include <stddef.h>

#define PW_ATTR_SIZE	128	/* attr.size written: perf 6.1 rejects more */

/* One event to describe in the attrs section and EVENT_DESC. */
struct pw_event {
	struct pd_attr attr;	/* attr.size is forced to PW_ATTR_SIZE */
	const char *name;	/* perf's name for it, e.g. "cpu-clock:u" */
	const u64 *ids;		/* the kernel ids of its counters */
	u32 nr_ids;
};

/* An open output file. */
struct pw_file {
	const char *path;
	int fd;
	int pipe;		/* pipe mode: sequential writes, no sections */
	int failed;		/* a write failed: drop everything after */
	int reported;		/* a write error was printed: print no more */
	u8 *buf;		/* pending data-section bytes */
	size_t buf_len, buf_cap;
	u64 data_offset;	/* file offset of the data section */
	u64 data_size;		/* data bytes on disk so far */
	u64 *commits;		/* every pw_commit() point, ascending (8
				   bytes a round: a full disk may need any) */
	size_t nr_commits, cap_commits;
	u64 on_disk;		/* data bytes that reached the file */
	u64 attrs_offset, attrs_size;
	u64 features[4];	/* feature bitmap */
	u8 *feat_buf;		/* all payloads, back to back */
	size_t feat_len, feat_cap;
	size_t feat_start[PD_FEAT_LAST_KNOWN];	/* payload offset in feat_buf */
	size_t feat_size[PD_FEAT_LAST_KNOWN];
	u64 file_size;		/* total bytes, set by pw_close() */
};

/* Creates path (truncating it) and writes the header, ids and attrs of the
 * nr events.  Returns 0, or -1 after an error. */
int pw_open(struct pw_file *w, const char *path, const struct pw_event *evs, u32 nr);

/* Starts a pipe-mode stream on fd (already open, e.g. stdout) with the
 * HEADER_ATTR records of the nr events; path names it in messages.
 * Returns 0, or -1 after an error. */
int pw_open_pipe(struct pw_file *w, int fd, const char *path, const struct pw_event *evs, u32 nr);

/* Pipe mode: writes the features set so far that perf 6.1 sends in a pipe
 * (bits 3-14, 16, 17, 21, 22, 25, 26, 27 and 31) as HEADER_FEATURE records,
 * then perf 6.1's end marker. */
void pw_pipe_features(struct pw_file *w);

/* Appends size bytes of records to the data section.  Returns 0, or -1
 * once a write has failed. */
int pw_write(struct pw_file *w, const void *data, size_t size);

/* Marks the end of the data so far as a record boundary: after a failed
 * write, pw_close() cuts the data back to such a point.  Writes the data
 * out once 64 KiB or more wait (pipe mode: always). */
void pw_commit(struct pw_file *w);

/* Sets feature bit feat with the given payload. */
void pw_add_feature(struct pw_file *w, unsigned feat, const void *payload, size_t size);

/* Sets feat to a perf string (u32 len, text NUL-padded to a multiple of 64). */
void pw_add_string_feature(struct pw_file *w, unsigned feat, const char *s);

/* One event group of GROUP_DESC. */
struct pw_group {
	const char *name;	/* NULL: perf's "{anon_group}" */
	u32 leader;		/* the leader's event index */
	u32 nr_members;		/* events in the group, the leader's too */
};

/* GROUP_DESC: u32 nr, then per group a perf string (its name), u32 the
 * leader's index, u32 its number of events, as perf 6.1 writes it. */
void pw_add_group_desc(struct pw_file *w, const struct pw_group *groups, u32 nr);

/*
 * Adds the description of this machine and run: HOSTNAME, OSRELEASE,
 * VERSION (prof's), ARCH, NRCPUS, CPUDESC, CPUID (x86), TOTAL_MEM, CMDLINE
 * (the running binary, then argv[1..argc-1]), EVENT_DESC of the nr events,
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE and MEM_TOPOLOGY, from
 * /proc and /sys as perf 6.1 reads them, and empty BPF_PROG_INFO, BPF_BTF
 * and PMU_CAPS (perf always writes them).  Information that cannot be read is left out.
 */
void pw_add_host_features(struct pw_file *w, int argc, char **argv,
			  const struct pw_event *evs, u32 nr);

/* Flushes the data, writes the feature table and payloads, rewrites the
 * header and closes the file (pipe mode: flushes and closes).  Returns 0,
 * or -1 if anything failed. */
int pw_close(struct pw_file *w);

#endif
