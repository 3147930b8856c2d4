/*
 * demangle.c - symbol names as perf 6.1 shows them.
 *
 * perf 6.1 (built without libbfd, as Debian's is) demangles with
 * libiberty's cplus_demangle(): no options by default ("ns::Box<long>::spin",
 * no parameter list), DMGL_PARAMS | DMGL_ANSI with -v.  libiberty also
 * decodes Rust legacy symbols and drops their "::h<16 hex>" hash; when a
 * result still ends in such a hash, perf's own Rust pass strips it and
 * undoes the $LT$-style escapes, as done here too.
 *
 * Invariants: the input is never modified; results live in the arena.
 */
#include "symbol.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#define RUST_HASH_LEN 16

static int is_hex_lower(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* perf's rust_is_mangled(): ends in "::h" + 16 lowercase hex digits with at
 * least 5 distinct digits, and the rest has only Rust-mangled characters. */
static int rust_is_mangled(const char *s, size_t *keep)
{
	size_t len = strlen(s), base;
	int seen[16] = { 0 }, distinct = 0;

	if (len <= 3 + RUST_HASH_LEN)
		return 0;
	base = len - 3 - RUST_HASH_LEN;
	if (strncmp(s + base, "::h", 3))
		return 0;
	for (size_t i = base + 3; i < len; i++) {
		char c = s[i];
		int v;

		if (!is_hex_lower(c))
			return 0;
		v = c <= '9' ? c - '0' : c - 'a' + 10;
		if (!seen[v]++)
			distinct++;
	}
	if (distinct < 5)
		return 0;
	/* looks_like_rust(): escapes or ".." present */
	for (size_t i = 0; i + 1 < base; i++)
		if (s[i] == '$' || (s[i] == '.' && s[i + 1] == '.')) {
			*keep = base;
			return 1;
		}
	return 0;
}

static const struct {
	const char *seq;
	char c;
} rust_escapes[] = {
	{ "$C$", ',' }, { "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' },
	{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' },
	{ "$u20$", ' ' }, { "$u27$", '\'' }, { "$u5b$", '[' }, { "$u5d$", ']' },
	{ "$u7e$", '~' },
};

/* perf's rust_demangle_sym() on buf (len bytes kept), in place. */
static void rust_unescape(char *buf, size_t len)
{
	char *in = buf, *out = buf, *end = buf + len;

	while (in < end) {
		if (*in == '$') {
			size_t k, n = sizeof(rust_escapes) / sizeof(rust_escapes[0]);

			for (k = 0; k < n; k++) {
				size_t sl = strlen(rust_escapes[k].seq);

				if ((size_t)(end - in) >= sl && !strncmp(in, rust_escapes[k].seq, sl)) {
					*out++ = rust_escapes[k].c;
					in += sl;
					break;
				}
			}
			if (k == n)
				break;
		} else if (*in == '_') {
			if ((in == buf || in[-1] == ':') && in + 1 < end && in[1] == '$')
				in++;
			else
				*out++ = *in++;
		} else if (*in == '.') {
			if (in + 1 < end && in[1] == '.') {
				*out++ = ':';
				*out++ = ':';
				in += 2;
			} else {
				*out++ = '-';
				in++;
			}
		} else if ((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
			   (*in >= '0' && *in <= '9') || *in == ':') {
			*out++ = *in++;
		} else {
			break;
		}
	}
	*out = 0;
}

const char *demangle_symbol(struct arena *arena, const char *name, int verbose)
{
	char *d, *res;
	size_t keep;

	if (!name || name[0] != '_')
		return name;	/* every mangling scheme cplus_demangle knows starts so */
	d = cplus_demangle(name, verbose ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
	if (!d)
		return name;
	if (rust_is_mangled(d, &keep))
		rust_unescape(d, keep);
	res = arena_strdup(arena, d);
	free(d);
	return res;
}
