/*
 * gen_groups.c - writes a synthetic perf.data with event groups from the
 * lines on stdin, for tests/perf/groups.sh: ties in the leader's counts,
 * keys only a member has, members without samples, groups that do not
 * start at the first event, leader-sampling reads no recording gives in
 * that order (values that do not grow, go back, or are of an unknown id);
 * not a unit test, built by the unit rule so it links synth.h's
 * dependencies.
 *
 *	gen_groups OUT [pipe] < lines
 *
 * Lines (numbers in decimal, or hex with 0x; blank lines and lines
 * starting with '#' are skipped), every "event" line before the others:
 *	event CONFIG [read]	a software event (0 cpu-clock, 1 task-clock,
 *				2 page-faults, ...); read: its samples read
 *				the group (READ, read_format ID|GROUP)
 *	group LEADER NR [NAME]	a GROUP_DESC entry: events LEADER..LEADER+NR-1
 *	comm PID TID NAME
 *	sample EV PID TID IP PERIOD	a user-mode sample of event EV
 *	read EV PID TID IP ID=VALUE...	a sample of event EV reading those
 *				values (ID is an event number, or a raw id
 *				with 0x: one no event has)
 *
 * Each event has IP|TID|TIME|PERIOD|ID and sample_id_all, id 100 + its
 * number.  The record of line n has time 1000 * n; the records are written
 * in order, then one FINISHED_ROUND; GROUP_DESC is the only feature (in a
 * pipe: a HEADER_FEATURE record after the attrs).  Exit status 0, 1 when
 * OUT cannot be written, 2 on bad use or a bad line (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

#define MAX_FIELDS 16
#define MAX_EVENTS 8
#define MAX_GROUPS 8

static void bad_line(unsigned n, const char *why)
{
	fprintf(stderr, "gen_groups: line %u: %s\n", n, why);
	exit(2);
}

/* f as a number (decimal or 0x hex), up to an '='. */
static u64 num(const char *f, unsigned line)
{
	char *end;
	u64 v = strtoull(f, &end, 0);

	if (end == f || (*end && *end != '='))
		bad_line(line, "bad number");
	return v;
}

/* Appends v to the feature payload. */
static void put(u8 *buf, size_t *len, const void *v, size_t n)
{
	if (*len + n > 4096)
		abort();
	memcpy(buf + *len, v, n);
	*len += n;
}

int main(int argc, char **argv)
{
	struct pd_attr attrs[MAX_EVENTS];
	char text[512], *f[MAX_FIELDS];
	u8 desc[4096];
	size_t desc_len = 4, len;
	u32 nr_events = 0, nr_groups = 0;
	unsigned line = 0;
	int started = 0, pipe = argc == 3 && !strcmp(argv[2], "pipe");
	struct synth s;
	u8 *image;
	FILE *out;

	if (argc != 2 && !pipe) {
		fputs("usage: gen_groups OUT [pipe] < lines\n", stderr);
		return 2;
	}
	synth_init(&s, pipe ? SYNTH_PIPE : 0);
	while (fgets(text, sizeof(text), stdin)) {
		u64 time = 1000 * (u64)++line;
		int nf = 0;

		for (char *tok = strtok(text, " \t\n"); tok && nf < MAX_FIELDS;
		     tok = strtok(NULL, " \t\n"))
			f[nf++] = tok;
		if (!nf || f[0][0] == '#')
			continue;
		if (!strcmp(f[0], "event") && (nf == 2 || nf == 3)) {
			struct pd_attr *a = &attrs[nr_events];

			if (started || nr_events == MAX_EVENTS)
				bad_line(line, "events come first, at most 8");
			memset(a, 0, sizeof(*a));
			a->type = PD_TYPE_SOFTWARE;
			a->size = 128;
			a->config = num(f[1], line);
			a->sample_period = 1;
			a->sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
					 PD_SAMPLE_PERIOD | PD_SAMPLE_ID;
			a->read_format = PD_FORMAT_ID;
			a->flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
			if (!nr_events)
				a->flags |= 1ULL << PD_ATTR_COMM | 1ULL << PD_ATTR_TASK;
			if (nf == 3 && !strcmp(f[2], "read")) {
				a->sample_type |= PD_SAMPLE_READ;
				a->read_format |= PD_FORMAT_GROUP;
			}
			nr_events++;
			continue;
		}
		if (!started) {
			/* the attrs, then GROUP_DESC (a pipe's first feature) */
			for (u32 i = 0; i < nr_events; i++)
				synth_attr(&s, &attrs[i], (u64[]){ 100 + i }, 1);
			started = 1;
		}
		if (!strcmp(f[0], "group") && (nf == 3 || nf == 4)) {
			const char *name = nf == 4 ? f[3] : "{anon_group}";
			u32 n = (u32)strlen(name) + 1, padded = (n + 63) / 64 * 64, v;
			char pad[64] = { 0 };

			if (nr_groups++ == MAX_GROUPS)
				bad_line(line, "too many groups");
			put(desc, &desc_len, &padded, 4);
			put(desc, &desc_len, name, n);
			put(desc, &desc_len, pad, padded - n);
			v = (u32)num(f[1], line);
			put(desc, &desc_len, &v, 4);
			v = (u32)num(f[2], line);
			put(desc, &desc_len, &v, 4);
		} else if (!strcmp(f[0], "comm") && nf == 4) {
			synth_comm(&s, 0, (u32)num(f[1], line), (u32)num(f[2], line), f[3], time, 100);
		} else if ((!strcmp(f[0], "sample") && nf == 6) || (!strcmp(f[0], "read") && nf >= 5)) {
			u32 ev = (u32)num(f[1], line);
			u64 values[2 * MAX_FIELDS];
			struct pd_sample v = { .pid = (u32)num(f[2], line), .tid = (u32)num(f[3], line),
					       .ip = num(f[4], line), .time = time, .id = 100 + ev,
					       .period = 1 };

			if (ev >= nr_events)
				bad_line(line, "no such event");
			if (f[0][0] == 's') {
				v.period = num(f[5], line);
			} else {
				v.read.nr = (u64)(nf - 5);
				for (int i = 5; i < nf; i++) {
					const char *eq = strchr(f[i], '=');
					u64 id = num(f[i], line);

					if (!eq)
						bad_line(line, "read wants ID=VALUE");
					values[2 * (i - 5)] = num(eq + 1, line);
					values[2 * (i - 5) + 1] = f[i][0] == '0' && f[i][1] == 'x' ? id :
								  100 + id;
				}
				v.read.values = (const u8 *)values;
			}
			synth_sample(&s, ev, PD_MISC_USER, &v);
		} else {
			bad_line(line, "not event, group, comm, sample or read with its fields");
		}
		/* a pipe's GROUP_DESC goes out before the first record */
		if (pipe && nr_groups && strcmp(f[0], "group")) {
			memcpy(desc, &nr_groups, 4);
			synth_feature(&s, PD_FEAT_GROUP_DESC, desc, desc_len);
			nr_groups = 0;
			desc_len = 4;
		}
	}
	if (nr_groups) {
		memcpy(desc, &nr_groups, 4);
		synth_feature(&s, PD_FEAT_GROUP_DESC, desc, desc_len);
	}
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
