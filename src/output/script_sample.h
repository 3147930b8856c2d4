/*
 * script_sample.h - "prof script"'s sample printer: a resolved sample
 * written as perf script (perf 6.1, builtin-script.c's process_event())
 * writes it: its head (comm to event), then either the sampled address on
 * the same line or its call chain, one line a frame, as the call-chain
 * cursor walks it (session/chain.h).  The lines are script_stdio.h's; the
 * command decides what each event prints (struct script_event) and which
 * samples are printed at all.
 *
 * The text of a frame (a chain line, or what follows the address on a
 * one-line sample) is kept in a line cache by the object and the address
 * in it that the frame resolved to (in kernel mode, or outside every map:
 * the address as recorded), which is all the text depends on: the symbol
 * of an address of an object does not change.  Maps are still looked up
 * for every frame (they differ between processes and over time); only the
 * symbol lookup and the formatting are saved.
 *
 * Invariants: a sample prints what it would print without the cache.  So
 * the cache is emptied whenever symbols may change: the command hands
 * every record other than a sample to script_printer_record() before the
 * session takes it (a KSYMBOL, a kernel MMAP for modules, an MMAP2 that
 * brings a build-id empty it), and kernel-mode lines are kept only once
 * the kernel's symbols have loaded (which also loads the modules').
 */
#ifndef PROF_OUTPUT_SCRIPT_SAMPLE_H
#define PROF_OUTPUT_SCRIPT_SAMPLE_H

#include "script_stdio.h"
#include "../event/trace_format.h"
#include "../session/chain.h"
#include "../session/session.h"

/* What one event's samples print, as the command's field rules decide. */
struct script_event {
	unsigned fields;	/* enum script_field bits; 0: nothing */
	int callchain;		/* with SF_IP: the call chain, one line a
				   frame, instead of the sampled address */
	u64 attr_period;	/* shown when a sample has no period */
	struct trace_event *tp;	/* a tracepoint's format (SF_TRACE prints its
				   fields), else NULL */
	char name[256];		/* the event's name as printed */
};

/* Whether e's samples print their call chain: script_print_sample()
 * takes a begun walk of it. */
static inline int script_event_chain(const struct script_event *e)
{
	return (e->fields & SF_IP) && e->callchain;
}

struct script_frame_line;

/* The printer: the output buffer, the line cache, what every sample
 * shares. */
struct script_printer {
	struct script_out out;
	struct script_frame_line *lines;	/* the line cache (direct-mapped) */
	int kernel_ready;	/* the kernel map was hit (and so loaded and
				   shrunk): kernel-mode lines may be kept */
	int data_src_width;	/* the widest data_src field printed so far
				   (perf pads each to it) */
	/* the command's, set before the first sample */
	int nanosecs;		/* --ns: 9 decimals of the time */
	int name_width;		/* the longest event name of the file */
	struct trace_formats *tf;	/* the file's tracepoint formats, or
					   NULL (the command's) */
	/* the sample being printed, for the formats' kernel addresses */
	struct session *cur_session;
	const struct addr_location *cur_al;
	u64 cur_time;
};

/* Sets up p->tf (made by the command) to resolve kernel addresses through
 * the session of the sample being printed, as perf script does. */
void script_printer_trace(struct script_printer *p);

/* Sets p up to write to fd, its line cache empty. */
void script_printer_init(struct script_printer *p, int fd);

/* Empties the line cache if the record h may change symbols; call with
 * every record other than a sample, before the session takes it. */
void script_printer_record(struct script_printer *p, const struct pd_header *h);

/*
 * Writes one sample of event e: al its resolution (with or without its
 * symbol: the printer looks symbols up itself, into al->sym), s the
 * session it was resolved in; w a walk of its chain begun in callee order
 * when script_event_chain(e) says so, else NULL.  Flushes the buffer when
 * it is full enough.  Returns 0, or -1 once a write has failed.
 */
int script_print_sample(struct script_printer *p, const struct script_event *e,
			struct session *s, const struct pd_sample *sample,
			struct addr_location *al, struct chain_walk *w);

/* Frees the buffer (without flushing) and the line cache. */
void script_printer_free(struct script_printer *p);

#endif
