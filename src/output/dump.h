/*
 * dump.h - "prof report -D": every record in the layout of "perf report -D"
 * (offset, size, type, raw bytes, decoded fields), in delivery order.
 *
 * Use:
 *	struct dump_ctx d = { .out = stdout, .file_name = input };
 *	dump_begin(&d, &f);                  // the "# To display..." lines
 *	pd_process(&f, &(struct pd_ops){ dump_record }, &d);
 *	dump_end(&d, &f);                    // "Aggregated stats:" and cleanup
 *
 * dump_end() must be called even when pd_process() failed: it flushes what
 * was printed and frees the session model (it prints the stats only when
 * processing succeeded, as perf does).
 */
#ifndef PROF_OUTPUT_DUMP_H
#define PROF_OUTPUT_DUMP_H

#include "../format/reader.h"

#include <stdio.h>

struct dump_state;

struct dump_ctx {
	FILE *out;
	const char *file_name;	/* the -i argument; perf shows it in
				   "0x108@NAME" ("pipe" in pipe mode) */
	struct dump_state *state;	/* private, set by dump_begin() */
};

/* Prints what perf prints before the first record and makes the session
 * (src/session) that the " ... thread:" and "...... dso:" lines need. */
void dump_begin(struct dump_ctx *ctx, struct pd_file *f);

/* Prints one record; a pd_ops.record-shaped function (ctx is a dump_ctx).
 * Returns -1 once a write failed, which stops pd_process(). */
int dump_record(void *ctx, struct pd_file *f, const struct pd_event *ev);

/* Prints the trailing stats when ok is non-zero (pd_process() returned 0),
 * flushes the output and frees the session.  Returns 0, or -1 when writing
 * failed: out's error flag is set, and whoever closes out says why (for
 * standard output, main()'s stdout_finish()). */
int dump_end(struct dump_ctx *ctx, struct pd_file *f, int ok);

#endif
