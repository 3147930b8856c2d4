/*
 * filters.c - the sample filters from report's and diff's options (see
 * filters.h).
 */
#include "filters.h"
#include "../util/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Splits a comma-separated list into a NULL-terminated, duplicate-free
 * array; *nr gets the number of items.  The strings live in one copy,
 * kept after the NULL for free_list(). */
static const char **split_list(const char *str, int *nr)
{
	char *copy = xstrdup(str), *tok, *save;
	const char **list = xcalloc(strlen(str) / 2 + 3, sizeof(*list));
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int dup = 0;

		for (int i = 0; i < n; i++)
			dup |= !strcmp(list[i], tok);
		if (!dup)
			list[n++] = tok;
	}
	list[n + 1] = copy;
	*nr = n;
	return list;
}

/* Frees a split_list() array (NULL is fine). */
static void free_list(const char *const *list)
{
	const char *const *p = list;

	if (!list)
		return;
	while (*p)
		p++;
	free((void *)p[1]);
	free((void *)list);
}

/* A list of pids or tids.  Returns 0, or -1 after an error. */
static int parse_ints(const char *str, const char *what, const s32 **out, int *nr)
{
	int n;
	const char **items = split_list(str, &n);
	s32 *v = xcalloc(n + 1, sizeof(*v));
	int ret = 0;

	*out = v;
	for (int i = 0; i < n && !ret; i++) {
		char *end;
		long val = strtol(items[i], &end, 10);

		if (*end || end == items[i])
			ret = error("invalid %s '%s'", what, items[i]);
		v[i] = (s32)val;
	}
	*nr = ret ? 0 : n;
	free_list(items);
	return ret;
}

/*
 * perf's setup_addrlist(): the items of list that read as one hex number
 * (strtoul base 16, trailing blanks allowed) move to flt->sym_addrs; the
 * names stay in list (maybe none), still followed by its copy.
 */
static void take_addresses(const char **list, int *nr, struct hist_filters *flt)
{
	u64 *addrs = xcalloc(*nr + 1, sizeof(*addrs));
	const char *copy = list[*nr + 1];
	int kept = 0;

	for (int i = 0; i < *nr; i++) {
		const char *item = list[i], *end;
		char *sep;
		unsigned long val;

		errno = 0;
		val = strtoul(item, &sep, 16);
		if (!errno && sep != item) {
			for (end = sep; isspace((unsigned char)*end); end++)
				;
			if (!*end) {
				addrs[flt->nr_sym_addrs++] = val;
				continue;
			}
		}
		list[kept++] = item;
	}
	list[kept] = NULL;
	list[kept + 1] = copy;
	*nr = kept;
	flt->sym_addrs = addrs;
}

int hist_filters_parse(struct hist_filters *flt, const struct filter_args *a,
		       struct filter_counts *counts)
{
	struct filter_counts n = { 0, 0, 0 };

	if (a->comms)
		flt->comms = split_list(a->comms, &n.comms);
	if (a->dsos)
		flt->dsos = split_list(a->dsos, &n.dsos);
	if (a->symbols) {
		const char **names = split_list(a->symbols, &n.symbols);

		take_addresses(names, &n.symbols, flt);
		flt->symbols = names;
	}
	if (counts)
		*counts = n;
	if (a->pids && parse_ints(a->pids, "pid", &flt->pids, &flt->nr_pids))
		return -1;
	if (a->tids && parse_ints(a->tids, "tid", &flt->tids, &flt->nr_tids))
		return -1;
	return 0;
}

void hist_filters_free(struct hist_filters *flt)
{
	free_list(flt->comms);
	free_list(flt->dsos);
	free_list(flt->symbols);
	free((void *)flt->sym_addrs);
	free((void *)flt->pids);
	free((void *)flt->tids);
	memset(flt, 0, sizeof(*flt));
}
