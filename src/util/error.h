/*
 * error.h - the tiny error layer every module uses.
 *
 * Messages go to stderr as "<prefix>: <message>\n", where the prefix is the
 * command being run ("prof report").  Messages are lowercase, say what failed
 * first and have no full stop.
 *
 *   die()     prints the message and exits with status 1 (fatal)
 *   error()   prints the message and returns -1, so callers can
 *             "return error(...)"
 *   warning() prints "warning: <message>" and carries on
 *
 * error_set_quiet(1) silences warning() (-q); error_set_quiet(2) silences
 * error() too (the fuzz target).  die() always prints.
 */
#ifndef PROF_UTIL_ERROR_H
#define PROF_UTIL_ERROR_H

#include <stdnoreturn.h>

/* Sets the prefix printed before every message; the string must outlive use. */
void error_set_prefix(const char *prefix);
/* The prefix printed before every message ("prof stat"). */
const char *error_get_prefix(void);
/* 0: print everything; 1: no warnings; 2: no warnings or errors. */
void error_set_quiet(int quiet);

noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* malloc/calloc/realloc/strdup that die on failure. */
void *xmalloc(unsigned long size);
void *xcalloc(unsigned long nmemb, unsigned long size);
/* xcalloc() whose pages are written now, for a table that is read before
 * it is written (a hash table's probes): reading untouched memory maps the
 * shared zero page, and the first write to it then takes a copy-on-write
 * fault that flushes the TLB of every core running the process */
void *xcalloc_written(unsigned long nmemb, unsigned long size);
void *xrealloc(void *ptr, unsigned long size);
char *xstrdup(const char *s);

#endif
