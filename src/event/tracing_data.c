/*
 * tracing_data.c - the TRACING_DATA feature payload (see tracing_data.h),
 * read from tracefs: /sys/kernel/tracing, else /sys/kernel/debug/tracing.
 *
 * The payload grows in one buffer; tracefs files report size 0, so each
 * is read to its end.
 */
#include "tracing_data.h"
#include "../util/error.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The payload being built. */
struct buf {
	char *data;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		while (b->len + n > b->cap)
			b->cap = b->cap ? 2 * b->cap : 16384;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* Appends the whole of file path, after its size in size_bytes (4 or 8). */
static int put_file(struct buf *b, const char *path, int size_bytes)
{
	FILE *f = fopen(path, "re");
	size_t at = b->len, n;
	char chunk[8192];
	uint64_t size = 0;

	if (!f)
		return -1;
	put(b, &size, (size_t)size_bytes);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		put(b, chunk, n);
		size += n;
	}
	fclose(f);
	if (size_bytes == 4) {
		uint32_t size32 = (uint32_t)size;

		memcpy(b->data + at, &size32, 4);
	} else {
		memcpy(b->data + at, &size, 8);
	}
	return 0;
}

/* Whether names holds "sys:event" (event NULL: any event of sys). */
static int wanted(const char *const *names, int nr, const char *sys, const char *event)
{
	size_t sys_len = strlen(sys);

	for (int i = 0; i < nr; i++)
		if (!strncmp(names[i], sys, sys_len) && names[i][sys_len] == ':' &&
		    (!event || !strcmp(names[i] + sys_len + 1, event)))
			return 1;
	return 0;
}

/* Appends sys's wanted events: count, then each format file. */
static int put_system(struct buf *b, const char *root, const char *sys,
		      const char *const *names, int nr)
{
	char path[PATH_MAX];
	struct dirent *d;
	size_t count_at;
	uint32_t count = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/events/%s", root, sys);
	dir = opendir(path);
	if (!dir)
		return error("cannot read %s", path);
	put(b, sys, strlen(sys) + 1);
	count_at = b->len;
	put(b, &count, 4);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !wanted(names, nr, sys, d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, sys, d->d_name);
		if (put_file(b, path, 8)) {
			closedir(dir);
			return error("cannot read %s", path);
		}
		count++;
	}
	closedir(dir);
	memcpy(b->data + count_at, &count, 4);
	return 0;
}

void *ev_tracing_data(const char *const *names, int nr, size_t *size)
{
	static const char magic[] = "\027\010\104tracing0.6";
	const char *root = access("/sys/kernel/tracing/events", F_OK) ?
		"/sys/kernel/debug/tracing" : "/sys/kernel/tracing";
	unsigned char endian_and_long[2] = { 0, sizeof(long) };
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), zero = 0, nr_systems = 0;
	struct buf b = { 0 };
	char path[PATH_MAX];
	struct dirent *d;
	size_t count_at;
	DIR *dir;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	endian_and_long[0] = 1;
#endif
	put(&b, magic, sizeof(magic));	/* with the version's NUL */
	put(&b, endian_and_long, 2);
	put(&b, &page, 4);
	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	if (put_file(&b, path, 8))
		goto fail;
	put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", root);
	if (put_file(&b, path, 8))
		goto fail;
	put(&b, &zero, 4);	/* no ftrace formats */
	count_at = b.len;
	put(&b, &nr_systems, 4);
	snprintf(path, sizeof(path), "%s/events", root);
	dir = opendir(path);
	if (!dir)
		goto fail;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "ftrace") ||
		    !wanted(names, nr, d->d_name, NULL))
			continue;
		if (put_system(&b, root, d->d_name, names, nr)) {
			closedir(dir);
			free(b.data);
			return NULL;
		}
		nr_systems++;
	}
	closedir(dir);
	memcpy(b.data + count_at, &nr_systems, 4);
	put(&b, &zero, 4);	/* kallsyms: empty, as perf writes it */
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	if (put_file(&b, path, 4))
		put(&b, &zero, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", root);
	if (put_file(&b, path, 8)) {
		uint64_t none = 0;

		put(&b, &none, 8);
	}
	*size = b.len;
	return b.data;

fail:
	error("cannot read %s", path);
	free(b.data);
	return NULL;
}
