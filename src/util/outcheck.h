/*
 * outcheck.h - no output is lost without a word.
 *
 * A write that fails (full disk, EIO, /dev/full) is one error line
 * "cannot write NAME: REASON" and exit status 1.  A reader that went away
 * (a closed pipe: "prof report --stdio | head", a pager quit early) ends
 * the process at once and quietly, killed by SIGPIPE, as git and perf end.
 *
 * main() calls stdout_watch() first and stdout_finish() after every
 * command; a command that writes a file of its own (-o FILE) opens it with
 * output_open() and checks it with output_close().
 */
#ifndef PROF_UTIL_OUTCHECK_H
#define PROF_UTIL_OUTCHECK_H

#include <stdio.h>
#include <stdnoreturn.h>

/*
 * Reports that writing to name (NULL: standard output) failed with errno
 * err (0: unknown): prints "cannot write NAME: REASON" and returns -1; for
 * EPIPE prints nothing and calls output_reader_gone() instead.
 */
int output_error(const char *name, int err);

/*
 * Ends the process as SIGPIPE does, quietly: by the signal's handler (the
 * pager's, which waits for the pager first) when it has one, else by the
 * default action, even where SIGPIPE was ignored or blocked.
 */
noreturn void output_reader_gone(void);

/*
 * Opens path for writing as fopen(path, mode) does (mode "w" or "a"), as
 * a stream that remembers why its first write failed (stdio forgets it)
 * for output_close().  Returns NULL with errno set when it cannot.
 */
FILE *output_open(const char *path, const char *mode);

/*
 * Flushes and closes f; returns 0 when everything written to it reached
 * the file, else output_error(name, ...)'s -1.
 */
int output_close(FILE *f, const char *name);

/*
 * Makes stdout a stream on file descriptor 1 that remembers why its first
 * write failed, line-buffered on a terminal, else fully buffered, as
 * stdio's own.  Call before the first output.
 */
void stdout_watch(void);

/*
 * Flushes and closes standard output once, when the command is done.
 * Returns 0 when everything written reached it (or nothing was written to
 * a closed standard output), or 1 after a write failed, with the error
 * printed unless output_error(NULL, ...) printed it already.  Later calls
 * return 0 and do nothing.
 */
int stdout_finish(void);

#endif
