/*
 * synth.h - the records prof record synthesizes from /proc for the
 * state that exists before recording starts, as perf record 6.1 does.
 *
 *   - the kernel map: an MMAP for pid -1 covering _text.._etext with pgoff
 *     _text, named "[kernel.kallsyms]_text", and one MMAP per module of
 *     /proc/modules (start, size, pgoff 0, the .ko path under
 *     /lib/modules/RELEASE or "[name]"), all with kernel misc;
 *   - for -p/-t (synth_thread_list): a COMM for each listed thread and the
 *     MMAP2s of its process when it leads it; a process whose leader is not
 *     listed gets its leader's COMM and MMAP2s too;
 *   - for -a (synth_all_threads): for every thread of every process, a FORK
 *     (misc FORK_EXEC, parent: the PPid for a leader, the leader for other
 *     threads) and a COMM, then the MMAP2s of each user process.
 *
 * MMAP2s come from /proc/PID/task/PID/maps: every executable map, and with
 * mmap_data (dwarf call graphs) every readable one too (misc MMAP_DATA);
 * a map with no name, or a file on hugetlbfs, is "//anon" (the latter with
 * MAP_HUGETLB in its flags).  Every record ends with trailer_size
 * zero bytes (a sample_id with time 0), as perf's synthesized records do.
 * Threads that vanish while being read are skipped.  Each /proc file is
 * read with one read() into a buffer reused for the whole run, and lines
 * are parsed in place: no allocation per thread or per line.
 */
#ifndef PROF_RECORD_SYNTH_H
#define PROF_RECORD_SYNTH_H

#include "../util/types.h"

#include <stddef.h>
#include <sys/types.h>

/* Where synthesized records go and how they look. */
struct synth {
	void (*emit)(void *arg, const void *rec, size_t size);	/* one whole record */
	void *arg;
	u16 trailer_size;	/* zero sample_id bytes after each record */
	int mmap_data;		/* also readable non-executable maps */
	const char *root;	/* kernel maps: read ROOT/proc/{kallsyms,modules}
				   and ROOT/lib/modules (NULL: "/"), for tests */
	char *buf;		/* the /proc file being parsed */
	size_t cap;
	char hugetlbfs[256];	/* its mount point ("" for none), found once */
	size_t hugetlbfs_len;
	int hugetlbfs_known;
};

/* One COMM record: what perf record writes for the command it starts
 * ("perf-exec"), so that samples taken before its exec's COMM arrives
 * have a name. */
void synth_comm(struct synth *s, pid_t pid, pid_t tid, const char *name);

/* The kernel MMAP and one MMAP per kernel module. */
void synth_kernel_maps(struct synth *s);

/* COMM and MMAP2 records for the nr threads of a -p/-t thread list. */
void synth_thread_list(struct synth *s, const pid_t *tids, int nr);

/* FORK, COMM and MMAP2 records for every thread on the machine (-a). */
void synth_all_threads(struct synth *s);

/* The threads of process pid (its /proc/PID/task entries), appended to
 * *tids (grown with xrealloc).  Returns how many, or -1 when pid does not
 * exist. */
int synth_process_threads(pid_t pid, pid_t **tids, int *nr, int *cap);

/* Frees the buffer. */
void synth_free(struct synth *s);

#endif
