/*
 * gen_records.c - writes a synthetic perf.data of the records listed on
 * stdin, one a line, for shell tests that need a sequence of records no
 * recording gives (tests/perf/dump.sh: a FORK whose parent thread exists
 * with another pid); not a unit test, built by the unit rule so it links
 * synth.h's dependencies.
 *
 *	gen_records [--raw] OUT < lines
 *
 * Lines (numbers in decimal, or hex with 0x; blank lines and lines
 * starting with '#' are skipped):
 *	comm PID TID NAME
 *	fork PID PPID TID PTID
 *	sample PID TID IP		(user mode, period 1)
 *	ksample PID TID IP		(kernel mode, period 1)
 *	kmmap START LEN PGOFF NAME	(a kernel MMAP: pid -1, tid 0)
 *	buildid kernel|user NAME HEX	(an entry of the BUILD_ID feature)
 *	msample PID TID IP ADDR DATA_SRC WEIGHT PHYS DATA_PGSZ CODE_PGSZ
 *					(--raw only: a memory sample)
 *
 * One cpu-clock attr (--raw: a raw event, r1cd, whose samples also carry
 * ADDR, DATA_SRC, WEIGHT_STRUCT, PHYS_ADDR and both page sizes, as a
 * memory-sampling event's do) with IP|TID|TIME|PERIOD and sample_id_all, so COMM
 * and FORK records end with a trailer {pid, tid, time} (the FORK's of the
 * new thread).  The record of line n has time 1000 * n; the records are
 * written in order, then one FINISHED_ROUND.  The file has no feature
 * section but BUILD_ID, when buildid lines give it entries: {header (8):
 * type 0, misc (the cpumode), size; pid (4, -1 for the kernel, 0 for
 * user space); build-id (20, padded to 24); name, NUL-padded to a
 * multiple of 64}, as perf writes them.  Exit status 0, 1 when OUT cannot be written, 2 on bad use or
 * a bad line (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

#define MAX_FIELDS 10
#define MAX_BUILD_IDS 4096	/* bytes of the BUILD_ID feature */

static void usage(void)
{
	fputs("usage: gen_records [--raw] OUT < lines\n", stderr);
	exit(2);
}

static void bad_line(unsigned n, const char *why)
{
	fprintf(stderr, "gen_records: line %u: %s\n", n, why);
	exit(2);
}

/* Appends a BUILD_ID feature entry for line fields f[1..3] to feat. */
static size_t add_build_id(u8 *feat, size_t len, char **f, unsigned line)
{
	size_t name_len = strlen(f[2]) + 1, pad = (64 - name_len % 64) % 64;
	size_t size = 36 + name_len + pad;
	u16 misc;
	s32 pid;
	u8 *e = feat + len;

	if (!strcmp(f[1], "kernel")) {
		misc = PD_MISC_KERNEL;
		pid = -1;
	} else if (!strcmp(f[1], "user")) {
		misc = PD_MISC_USER;
		pid = 0;
	} else {
		bad_line(line, "buildid wants kernel or user");
	}
	if (size > MAX_BUILD_IDS - len)
		bad_line(line, "too many build-ids");
	memset(e, 0, size);
	memcpy(e + 4, &misc, 2);
	memcpy(e + 6, &(u16){ (u16)size }, 2);
	memcpy(e + 8, &pid, 4);
	for (int i = 0; i < 20 && f[3][2 * i] && f[3][2 * i + 1]; i++) {
		char hex[3] = { f[3][2 * i], f[3][2 * i + 1], 0 };

		e[12 + i] = (u8)strtoul(hex, NULL, 16);
	}
	memcpy(e + 36, f[2], name_len);
	return len + size;
}

/* Field i of f as a number (decimal or 0x hex). */
static u64 num(char **f, int i, unsigned line)
{
	char *end;
	u64 v = strtoull(f[i], &end, 0);

	if (end == f[i] || *end)
		bad_line(line, "bad number");
	return v;
}

int main(int argc, char **argv)
{
	struct pd_attr attr = { .type = PD_TYPE_SOFTWARE, .size = 128, .sample_period = 1 };
	char text[512], *f[MAX_FIELDS];
	unsigned line = 0;
	struct synth s;
	static u8 build_ids[MAX_BUILD_IDS];
	size_t len, build_ids_len = 0;
	u8 *image;
	FILE *out;

	int raw = argc == 3 && !strcmp(argv[1], "--raw");

	if (argc != 2 && !raw)
		usage();
	argv += raw;
	attr.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_PERIOD;
	if (raw) {
		attr.type = PD_TYPE_RAW;
		attr.config = 0x1cd;
		attr.sample_type |= PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC | PD_SAMPLE_WEIGHT_STRUCT |
				    PD_SAMPLE_PHYS_ADDR | PD_SAMPLE_DATA_PAGE_SIZE |
				    PD_SAMPLE_CODE_PAGE_SIZE;
	}
	attr.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_COMM | 1ULL << PD_ATTR_TASK;
	synth_init(&s, 0);
	synth_attr(&s, &attr, NULL, 0);
	while (fgets(text, sizeof(text), stdin)) {
		u64 time = 1000 * (u64)++line;
		int nf = 0;

		for (char *tok = strtok(text, " \t\n"); tok && nf < MAX_FIELDS;
		     tok = strtok(NULL, " \t\n"))
			f[nf++] = tok;
		if (!nf || f[0][0] == '#')
			continue;
		if (!strcmp(f[0], "comm") && nf == 4) {
			synth_comm(&s, 0, (u32)num(f, 1, line), (u32)num(f, 2, line), f[3], time, 0);
		} else if (!strcmp(f[0], "fork") && nf == 5) {
			struct pd_id_trailer t = { .pid = (u32)num(f, 1, line),
						   .tid = (u32)num(f, 3, line), .time = time };

			synth_begin(&s, PD_REC_FORK, 0);
			for (int i = 1; i <= 4; i++)
				synth_u32(&s, (u32)num(f, i, line));
			synth_u64(&s, time);
			synth_trailer(&s, 0, &t);
			synth_end(&s);
		} else if (!strcmp(f[0], "sample") && nf == 4) {
			struct pd_sample v = { .pid = (u32)num(f, 1, line), .tid = (u32)num(f, 2, line),
					       .ip = num(f, 3, line), .time = time, .period = 1 };

			synth_sample(&s, 0, PD_MISC_USER, &v);
		} else if (!strcmp(f[0], "ksample") && nf == 4) {
			struct pd_sample v = { .pid = (u32)num(f, 1, line), .tid = (u32)num(f, 2, line),
					       .ip = num(f, 3, line), .time = time, .period = 1 };

			synth_sample(&s, 0, PD_MISC_KERNEL, &v);
		} else if (!strcmp(f[0], "kmmap") && nf == 5) {
			struct pd_id_trailer t = { .pid = (u32)-1, .tid = 0, .time = time };

			synth_begin(&s, PD_REC_MMAP, PD_MISC_KERNEL);
			synth_u32(&s, (u32)-1);
			synth_u32(&s, 0);
			for (int i = 1; i <= 3; i++)
				synth_u64(&s, num(f, i, line));
			synth_str(&s, f[4]);
			synth_trailer(&s, 0, &t);
			synth_end(&s);
		} else if (!strcmp(f[0], "msample") && nf == 10 && raw) {
			struct pd_sample v = {
				.pid = (u32)num(f, 1, line), .tid = (u32)num(f, 2, line),
				.ip = num(f, 3, line), .time = time, .period = 1,
				.addr = num(f, 4, line), .data_src = num(f, 5, line),
				.weight = num(f, 6, line), .phys_addr = num(f, 7, line),
				.data_page_size = num(f, 8, line), .code_page_size = num(f, 9, line),
			};

			synth_sample(&s, 0, PD_MISC_USER, &v);
		} else if (!strcmp(f[0], "buildid") && nf == 4) {
			build_ids_len = add_build_id(build_ids, build_ids_len, f, line);
		} else {
			bad_line(line, "not comm, fork, sample, ksample, kmmap or buildid with its fields");
		}
	}
	if (build_ids_len)
		synth_feature(&s, PD_FEAT_BUILD_ID, build_ids, build_ids_len);
	synth_round(&s);
	image = synth_image(&s, &len);
	out = fopen(argv[1], "w");
	if (!out || fwrite(image, 1, len, out) != len || fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	free(image);
	synth_free(&s);
	return 0;
}
