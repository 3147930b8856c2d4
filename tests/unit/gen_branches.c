/*
 * gen_branches.c - writes synthetic perf.data files with branch stacks
 * (PERF_SAMPLE_BRANCH_STACK, HEADER_BRANCH_STACK) through prof's writer
 * (format/writer.h), for tests/perf/branch.sh and bench/branch.sh; not a
 * unit test, built by the unit rule.
 *
 *	gen_branches OUT list < lines
 *	gen_branches OUT big BINARY NR_SAMPLES < offsets
 *
 * list: one record a line (numbers decimal or 0x hex; blank lines and
 * '#' lines skipped), each record's time 1000 * its line number:
 *	comm PID TID NAME
 *	mmap PID START LEN PATH		(MMAP2, user, pgoff 0)
 *	kmmap START LEN			(the kernel map, [kernel.kallsyms]_text)
 *	sample PID TID u|k IP [FROM/TO/FLAGS ...]
 * FLAGS is the branch entry's flags word (bit 0 mispred, 1 predicted,
 * 2 in_tx, 3 abort, 4-19 cycles, 20-23 type); a sample may have no
 * branches.
 *
 * big: one process (pid 4242, comm "branchy") with BINARY (a PIE, loaded
 * at 0x555555554000) mapped; NR_SAMPLES samples of 32 branches each,
 * every end an nm offset from offsets (one hex value a line) + a small
 * odd displacement, picked by a hash of (sample, branch), with varied
 * flags and cycles.
 *
 * One cycles-like event (a software cpu-clock attr, IP|TID|TIME|PERIOD|
 * BRANCH_STACK, branch_sample_type ANY).  Exit status 0, 1 when OUT
 * cannot be written, 2 on bad use or a bad line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/writer.h"

#define MAX_BRANCHES 256
#define PID 4242
#define BASE 0x555555554000ULL

static void usage(void)
{
	fputs("usage: gen_branches OUT list < lines\n"
	      "       gen_branches OUT big BINARY NR_SAMPLES < offsets\n", stderr);
	exit(2);
}

static void bad_line(unsigned n, const char *why)
{
	fprintf(stderr, "gen_branches: line %u: %s\n", n, why);
	exit(2);
}

/* A record being built. */
struct rec {
	u8 b[24 + 24 * MAX_BRANCHES + 256];
	size_t len;
};

static void begin(struct rec *r, u32 type, u16 misc)
{
	struct pd_header h = { .type = type, .misc = misc };

	memcpy(r->b, &h, sizeof(h));
	r->len = sizeof(h);
}

static void put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->len, p, n);
	r->len += n;
}

static void put64(struct rec *r, u64 v) { put(r, &v, 8); }
static void put32(struct rec *r, u32 v) { put(r, &v, 4); }

/* A string, NUL-padded to 8 bytes. */
static void put_str(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1, pad = (8 - n % 8) % 8;
	static const u8 zeros[8];

	put(r, s, n);
	put(r, zeros, pad);
}

/* The sample_id_all trailer: pid, tid, time. */
static void trailer(struct rec *r, u32 pid, u32 tid, u64 time)
{
	put32(r, pid);
	put32(r, tid);
	put64(r, time);
}

static void end(struct pw_file *w, struct rec *r)
{
	struct pd_header *h = (struct pd_header *)r->b;

	h->size = (u16)r->len;
	pw_write(w, r->b, r->len);
}

static void comm(struct pw_file *w, u32 pid, u32 tid, const char *name, u64 time)
{
	struct rec r;

	begin(&r, PD_REC_COMM, 0);
	put32(&r, pid);
	put32(&r, tid);
	put_str(&r, name);
	trailer(&r, pid, tid, time);
	end(w, &r);
}

static void mmap2(struct pw_file *w, u32 pid, u64 start, u64 len, const char *path, u64 time,
		  u16 misc)
{
	struct rec r;

	begin(&r, PD_REC_MMAP2, misc);
	put32(&r, pid);
	put32(&r, pid);
	put64(&r, start);
	put64(&r, len);
	put64(&r, 0);		/* pgoff */
	put32(&r, 0);		/* maj, min, ino, ino_generation: unknown */
	put32(&r, 0);
	put64(&r, 0);
	put64(&r, 0);
	put32(&r, 5);		/* PROT_READ | PROT_EXEC */
	put32(&r, 2);		/* MAP_PRIVATE */
	put_str(&r, path);
	trailer(&r, pid, pid, time);
	end(w, &r);
}

/* A sample with nr branches of three words each. */
static void sample(struct pw_file *w, u32 pid, u32 tid, u16 misc, u64 ip, u64 time,
		   const u64 *br, u64 nr)
{
	struct rec r;

	begin(&r, PD_REC_SAMPLE, misc);
	put64(&r, ip);
	put32(&r, pid);
	put32(&r, tid);
	put64(&r, time);
	put64(&r, 1);		/* period */
	put64(&r, nr);
	put(&r, br, nr * 24);
	end(w, &r);
}

static u64 num(const char *s, unsigned line)
{
	char *e;
	u64 v = strtoull(s, &e, 0);

	if (e == s || *e)
		bad_line(line, "bad number");
	return v;
}

static void list(struct pw_file *w)
{
	static u64 br[3 * MAX_BRANCHES];
	char text[16384], *f[4 + MAX_BRANCHES + 2];
	unsigned line = 0;

	while (fgets(text, sizeof(text), stdin)) {
		u64 time = 1000 * (u64)++line;
		int nf = 0;

		for (char *t = strtok(text, " \t\n"); t && nf < (int)(sizeof(f) / sizeof(f[0]));
		     t = strtok(NULL, " \t\n"))
			f[nf++] = t;
		if (!nf || f[0][0] == '#')
			continue;
		if (!strcmp(f[0], "comm") && nf == 4) {
			comm(w, (u32)num(f[1], line), (u32)num(f[2], line), f[3], time);
		} else if (!strcmp(f[0], "mmap") && nf == 5) {
			mmap2(w, (u32)num(f[1], line), num(f[2], line), num(f[3], line), f[4], time,
			      PD_MISC_USER);
		} else if (!strcmp(f[0], "kmmap") && nf == 3) {
			mmap2(w, (u32)-1, num(f[1], line), num(f[2], line),
			      "[kernel.kallsyms]_text", time, PD_MISC_KERNEL);
		} else if (!strcmp(f[0], "sample") && nf >= 5) {
			u64 nr = 0;

			for (int i = 5; i < nf; i++, nr++) {
				char *a = f[i], *b = strchr(a, '/'), *c = b ? strchr(b + 1, '/') : NULL;

				if (!c)
					bad_line(line, "a branch is FROM/TO/FLAGS");
				*b++ = 0;
				*c++ = 0;
				br[3 * nr] = num(a, line);
				br[3 * nr + 1] = num(b, line);
				br[3 * nr + 2] = num(c, line);
			}
			sample(w, (u32)num(f[1], line), (u32)num(f[2], line),
			       f[3][0] == 'k' ? PD_MISC_KERNEL : PD_MISC_USER, num(f[4], line), time,
			       br, nr);
		} else {
			bad_line(line, "not comm, mmap, kmmap or sample");
		}
		pw_commit(w);
	}
}

static u64 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void big(struct pw_file *w, const char *binary, u64 nr_samples)
{
	static u64 offs[65536];
	u64 br[3 * 32], nr_offs = 0;
	struct stat st;
	char text[64];

	while (nr_offs < 65536 && fgets(text, sizeof(text), stdin))
		offs[nr_offs++] = strtoull(text, NULL, 16);
	if (nr_offs < 8 || stat(binary, &st)) {
		fputs("gen_branches: need 8 symbol offsets and a readable BINARY\n", stderr);
		exit(2);
	}
	comm(w, PID, PID, "branchy", 1000);
	mmap2(w, PID, BASE, ((u64)st.st_size + 0xfff) & ~0xfffULL, binary, 1000, PD_MISC_USER);
	for (u64 k = 0; k < nr_samples; k++) {
		/* a few hot loops, as real branch stacks have */
		u64 loop = mix(k / 64) % 512;

		for (u64 j = 0; j < 32; j++) {
			u64 h = mix(loop * 32 + j);

			br[3 * j] = BASE + offs[h % nr_offs] + 1 + (h >> 20) % 7;
			br[3 * j + 1] = BASE + offs[(h >> 24) % nr_offs];
			br[3 * j + 2] = (h >> 40 & 1 ? 2 : 1) | ((h >> 44) % 4) << 4;
		}
		sample(w, PID, PID, PD_MISC_USER, br[0], 2000 + k, br, 32);
		if (k % 1024 == 1023)
			pw_commit(w);
	}
}

int main(int argc, char **argv)
{
	struct pw_event ev = { .name = "cycles" };
	struct pw_file w;

	if (argc < 3 || (strcmp(argv[2], "list") && (strcmp(argv[2], "big") || argc != 5)))
		usage();
	ev.attr.type = PD_TYPE_SOFTWARE;
	ev.attr.sample_period = 1;
	ev.attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_PERIOD |
			      PD_SAMPLE_BRANCH_STACK;
	ev.attr.branch_sample_type = 1ULL << 3;	/* PERF_SAMPLE_BRANCH_ANY */
	ev.attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM;
	if (pw_open(&w, argv[1], &ev, 1))
		return 1;
	if (!strcmp(argv[2], "list"))
		list(&w);
	else
		big(&w, argv[3], strtoull(argv[4], NULL, 0));
	pw_add_feature(&w, PD_FEAT_BRANCH_STACK, "", 0);
	return pw_close(&w) ? 1 : 0;
}
