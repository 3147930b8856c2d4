/*
 * gen_chains.c - writes synthetic perf.data files with call chains for the
 * scale tests (tests/perf/scale.sh); not a unit test, built by the unit
 * rule so it links synth.h's dependencies.
 *
 *	gen_chains OUT BINARY deep NR_SAMPLES DEPTH < offsets
 *	gen_chains OUT BINARY paths NR_SAMPLES DEPTH NR_PATHS < offsets
 *	gen_chains OUT BINARY markers NR_SAMPLES DEPTH < offsets
 *	gen_chains OUT BINARY wrap NR_SAMPLES DEPTH < offsets
 *
 * offsets: one hex symbol value per line (nm's, of the PIE BINARY); every
 * frame is such a value + 4 (inside the function) above the load base
 * 0x555555554000, where one MMAP2 maps the whole BINARY (pgoff 0).  One
 * process (pid = tid = 4242, comm "chains"), one cpu-clock attr with
 * IP|TID|TIME|PERIOD|CALLCHAIN; each chain is PERF_CONTEXT_USER then
 * DEPTH frames, the sample's ip first.
 *
 *  deep:  symbol 0..2 as the leaf, recursion through symbols 3..6 above
 *         it; samples alternate between two patterns that differ only
 *         past frame 500, and the outermost frame is the last symbol.
 *  paths: NR_PATHS different chains (frame j of path p is a hash of (p, j)
 *         over all symbols), sample k takes path k % NR_PATHS.
 *  markers: the deep chains with a context marker perf does not know
 *         (PERF_CONTEXT_GUEST_USER) in them (tests/perf/chain_rules.sh):
 *         sample k % 3 == 0 has none, k % 3 == 1 has it before frame
 *         DEPTH / 2, and k % 3 == 2 starts with it, the marker followed by
 *         one frame, then PERF_CONTEXT_USER and the DEPTH frames.
 *  wrap:  maps that hold no address beside normal ones
 *         (tests/perf/maps.sh): after BINARY's map, an MMAP2 whose
 *         start + len wraps past 2^64 (0xffffffffffff0000, len 0x20000),
 *         BINARY again at 0x7f0000000000 (a normal map made after it) and
 *         an empty MMAP2 (len 0) inside the first map, at the start of the
 *         middle symbol; each frame is a
 *         hash of (k, j): a symbol through the first map (half of them),
 *         through the second, or an address of the wrapped map's range
 *         on either side of 2^64.
 *
 * The data section is streamed to OUT (a FINISHED_ROUND every 10000
 * samples), so memory stays small for millions of samples; the header
 * is written last.  The file has no feature sections.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "synth.h"

#define BASE 0x555555554000ULL
#define BASE2 0x7f0000000000ULL		/* wrap: BINARY's second map */
#define WRAP_START 0xffffffffffff0000ULL	/* wrap: len 0x20000 wraps */
#define PID 4242
#define MAX_SYMS 65536

static u64 syms[MAX_SYMS];
static unsigned nr_syms;

static void usage(void)
{
	fputs("usage: gen_chains OUT BINARY deep NR_SAMPLES DEPTH < offsets\n"
	      "       gen_chains OUT BINARY paths NR_SAMPLES DEPTH NR_PATHS < offsets\n"
	      "       gen_chains OUT BINARY markers NR_SAMPLES DEPTH < offsets\n"
	      "       gen_chains OUT BINARY wrap NR_SAMPLES DEPTH < offsets\n",
	      stderr);
	exit(2);
}

static u64 sym_ip(unsigned i)
{
	return BASE + syms[i % nr_syms] + 4;
}

static u64 mix(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* Frame j (0: the leaf) of sample k's chain. */
static u64 frame(const char *mode, u64 k, u64 j, u64 depth, u64 nr_paths)
{
	if (!strcmp(mode, "paths"))
		return sym_ip((unsigned)(mix((k % nr_paths) * 1000003 + j) % nr_syms));
	if (!strcmp(mode, "wrap")) {
		u64 r = mix(k * 1000003 + j), sym = sym_ip((unsigned)(r >> 8));

		switch (r % 6) {
		case 0: case 1: case 2:
			return sym;
		case 3: case 4:
			return sym - BASE + BASE2;
		default:	/* the wrapped map's range: above its start or
				   below its end (0x10000) */
			return (r & 0x100 ? WRAP_START + 0x8000 : 0x8000) + (r >> 16) % 0x100 * 8;
		}
	}
	if (j == 0)
		return sym_ip(k % 3);
	if (j == depth - 1)
		return sym_ip(nr_syms - 1);
	if (j > 500 && k % 2)
		return sym_ip(3 + (j + 1) % 4);
	return sym_ip(3 + j % 4);
}

/* An MMAP2 of the process at start, len bytes of path from its start. */
static void mmap2(struct synth *s, const struct pd_id_trailer *t, u64 start, u64 len,
		  const char *path)
{
	synth_begin(s, PD_REC_MMAP2, PD_MISC_USER);
	synth_u32(s, PID);
	synth_u32(s, PID);
	synth_u64(s, start);
	synth_u64(s, len);
	synth_u64(s, 0);
	synth_u32(s, 0);	/* maj, min, ino, ino_generation: unknown */
	synth_u32(s, 0);
	synth_u64(s, 0);
	synth_u64(s, 0);
	synth_u32(s, 5);	/* PROT_READ | PROT_EXEC */
	synth_u32(s, 2);	/* MAP_PRIVATE */
	synth_str(s, path);
	synth_trailer(s, 0, t);
	synth_end(s);
}

static void flush(struct synth *s, FILE *out, u64 *total)
{
	if (fwrite(s->data.p, 1, s->data.len, out) != s->data.len) {
		perror("gen_chains: write");
		exit(1);
	}
	*total += s->data.len;
	s->data.len = 0;
}

int main(int argc, char **argv)
{
	struct pd_attr attr = { .type = PD_TYPE_SOFTWARE, .size = 128, .sample_period = 1 };
	struct pd_id_trailer t = { .pid = PID, .tid = PID, .time = 1000 };
	u64 nr_samples, depth, nr_paths = 1, total = 0, size, *chain;
	struct synth s;
	struct stat st;
	char line[64];
	size_t len;
	u8 *head;
	FILE *out;

	if (argc < 6 || (strcmp(argv[3], "deep") && strcmp(argv[3], "paths") &&
			 strcmp(argv[3], "markers") && strcmp(argv[3], "wrap")))
		usage();
	nr_samples = strtoull(argv[4], NULL, 0);
	depth = strtoull(argv[5], NULL, 0);
	if (!strcmp(argv[3], "paths")) {
		if (argc < 7)
			usage();
		nr_paths = strtoull(argv[6], NULL, 0);
	}
	if (!depth || depth > 8000 || !nr_paths)
		usage();
	while (nr_syms < MAX_SYMS && fgets(line, sizeof(line), stdin))
		syms[nr_syms++] = strtoull(line, NULL, 16);
	if (nr_syms < 8 || stat(argv[2], &st)) {
		fputs("gen_chains: need 8 symbol offsets and a readable BINARY\n", stderr);
		return 1;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}

	attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_PERIOD |
			   PD_SAMPLE_CALLCHAIN;
	attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM;
	synth_init(&s, 0);
	synth_attr(&s, &attr, NULL, 0);
	synth_comm(&s, 0, PID, PID, "chains", 1000, 0);
	size = ((u64)st.st_size + 0xfff) & ~0xfffULL;
	mmap2(&s, &t, BASE, size, argv[2]);
	if (!strcmp(argv[3], "wrap")) {
		mmap2(&s, &t, WRAP_START, 0x20000, "/wrapped.so");
		mmap2(&s, &t, BASE2, size, argv[2]);
		mmap2(&s, &t, BASE + syms[nr_syms / 2], 0, "/empty.so");
	}

	/* the data section starts where the (still unwritten) header ends */
	if (fseek(out, (long)s.data_offset, SEEK_SET))
		return 1;
	chain = malloc((depth + 3) * sizeof(*chain));
	if (!chain)
		return 1;
	chain[0] = PD_CONTEXT_USER;
	for (u64 k = 0; k < nr_samples; k++) {
		struct pd_sample v = { .pid = PID, .tid = PID, .time = 2000 + k * 1000,
				       .period = 1, .callchain_nr = depth + 1,
				       .callchain = (const u8 *)chain };

		for (u64 j = 0; j < depth; j++)
			chain[1 + j] = frame(argv[3], k, j, depth, nr_paths);
		v.ip = chain[1];
		if (!strcmp(argv[3], "markers") && k % 3 == 1) {
			memmove(chain + 2 + depth / 2, chain + 1 + depth / 2,
				(depth - depth / 2) * sizeof(*chain));
			chain[1 + depth / 2] = PD_CONTEXT_GUEST_USER;
			v.callchain_nr = depth + 2;
		} else if (!strcmp(argv[3], "markers") && k % 3 == 2) {
			memmove(chain + 2, chain, (depth + 1) * sizeof(*chain));
			chain[0] = PD_CONTEXT_GUEST_USER;
			chain[1] = sym_ip(5);
			v.callchain_nr = depth + 3;
		}
		synth_sample(&s, 0, PD_MISC_USER, &v);
		chain[0] = PD_CONTEXT_USER;
		if (k % 10000 == 9999) {
			synth_round(&s);
			flush(&s, out, &total);
		}
	}
	synth_round(&s);
	flush(&s, out, &total);
	free(chain);

	/* header and attr section, then the real data size (offset 48) */
	head = synth_image(&s, &len);
	memcpy(head + 48, &total, 8);
	if (fseek(out, 0, SEEK_SET) || fwrite(head, 1, len, out) != len || fclose(out)) {
		perror("gen_chains: write header");
		return 1;
	}
	free(head);
	synth_free(&s);
	return 0;
}
