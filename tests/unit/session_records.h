/*
 * session_records.h - a session fed hand-built records, for the unit tests
 * of the session model and what builds on it.
 *
 * Include after <cmocka.h> and session/session.h.  setup()/teardown() make
 * and free the session s over an empty pd_file; comm(), fork_rec() and
 * mmap2() build one record each in buf (the kernel's layouts, see
 * /usr/include/linux/perf_event.h) and hand it to session_event(), which
 * must accept it.
 */
#ifndef PROF_TESTS_SESSION_RECORDS_H
#define PROF_TESTS_SESSION_RECORDS_H

#include <string.h>

static struct pd_file file;
static struct session *s;
static u8 buf[512];

static inline int setup(void **state)
{
	(void)state;
	memset(&file, 0, sizeof(file));
	s = session_new(&file, NULL);
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	session_free(s);
	return 0;
}

/* Feeds buf as a record of this type, misc and size. */
static inline void feed(u32 type, u16 misc, u16 size)
{
	struct pd_header h = { type, misc, size };
	struct pd_event ev = { .hdr = (const struct pd_header *)buf, .time = PD_NO_TIME };

	memcpy(buf, &h, sizeof(h));
	assert_int_equal(session_event(s, &ev), 0);
}

static inline void put32(u32 off, u32 v) { memcpy(buf + off, &v, 4); }
static inline void put64(u32 off, u64 v) { memcpy(buf + off, &v, 8); }

static inline void comm(s32 pid, s32 tid, const char *name)
{
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)pid);
	put32(12, (u32)tid);
	strcpy((char *)buf + 16, name);
	feed(PD_REC_COMM, 0, 16 + 16 + 8);
}

static inline void fork_rec(s32 pid, s32 ppid, s32 tid, s32 ptid)
{
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)pid);
	put32(12, (u32)ppid);
	put32(16, (u32)tid);
	put32(20, (u32)ptid);
	feed(PD_REC_FORK, 0, 40);
}

/* An MAP_PRIVATE MMAP2 of name with protection prot (PROT_* bits). */
static inline void mmap2(s32 pid, s32 tid, u64 start, u64 len, u64 pgoff, u32 prot,
			 const char *name, u16 cpumode)
{
	memset(buf, 0, sizeof(buf));
	put32(8, (u32)pid);
	put32(12, (u32)tid);
	put64(16, start);
	put64(24, len);
	put64(32, pgoff);
	put32(64, prot);
	put32(68, 2);	/* MAP_PRIVATE */
	strcpy((char *)buf + 72, name);
	feed(PD_REC_MMAP2, cpumode, (u16)(72 + ((strlen(name) + 8) & ~7u)));
}

#endif
