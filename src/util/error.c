#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Process-wide on purpose: every message of the process goes to its one
 * stderr, from any layer and thread, under the one name of the command
 * being run and the one -q of its command line; passing them to every
 * function that may report an error would buy nothing. */
static const char *error_prefix = "prof";
static int error_quiet;

void error_set_prefix(const char *prefix)
{
	error_prefix = prefix;
}

const char *error_get_prefix(void)
{
	return error_prefix;
}

void error_set_quiet(int quiet)
{
	error_quiet = quiet;
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", error_prefix, kind, buf);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(1);
}

int error(const char *fmt, ...)
{
	va_list ap;

	if (error_quiet >= 2)
		return -1;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (error_quiet)
		return;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void *xmalloc(unsigned long size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %lu bytes", size);
	return p;
}

void *xcalloc(unsigned long nmemb, unsigned long size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %lu x %lu bytes", nmemb, size);
	return p;
}

void *xcalloc_written(unsigned long nmemb, unsigned long size)
{
	if (size && nmemb > (unsigned long)-1 / size)
		die("out of memory allocating %lu x %lu bytes", nmemb, size);
	return memset(xmalloc(nmemb * size), 0, nmemb * size);
}

void *xrealloc(void *ptr, unsigned long size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %lu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory copying a string");
	return p;
}
