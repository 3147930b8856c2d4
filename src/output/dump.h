/*
 * dump.h - "prof report -D": every record in the layout of "perf report -D"
 * (offset, size, type, raw bytes, decoded fields), in delivery order.
 */
#ifndef PROF_OUTPUT_DUMP_H
#define PROF_OUTPUT_DUMP_H

#include "../format/reader.h"

#include <stdio.h>

struct dump_ctx {
	FILE *out;
	const char *file_name;	/* the name perf shows in "0x108@NAME" */
};

/* Prints one record; a pd_ops.record-shaped function (ctx is a dump_ctx). */
int dump_record(void *ctx, struct pd_file *f, const struct pd_event *ev);

#endif
