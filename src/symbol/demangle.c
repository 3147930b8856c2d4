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
 * Most symbols of a big C++ library are never shown, so ELF loaders keep
 * names as the file has them (demangle_later()) and symbol_name()
 * demangles a symbol the first time its name is read.
 *
 * Invariants: the input is never modified; results live in the arena.  A
 * symbol never changes once loaded: while symbol.mangled is set its name
 * points to a struct mangled_name, which keeps the demangled name once
 * made.  That is made once per name, under the lock of the dso table the
 * name belongs to, and stored (release) after it is complete, so a reader
 * that sees it (acquire) reads the final name.
 */
#include "symbol_int.h"

#include <libiberty/demangle.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What symbol.name points to while symbol.mangled is set. */
struct mangled_name {
	struct dso_table *table;	/* whose name_arena, demangle_lock and
					   options to use */
	const char *demangled;		/* NULL until the first symbol_name():
					   then the name perf prints, set once
					   (release) under table->demangle_lock */
	char raw[];			/* the name as the file has it */
};

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

const char *demangle_later(struct dso_table *t, const char *name, u8 *mangled)
{
	struct mangled_name *m;
	size_t len;

	/* demangle_symbol() returns any other name as it is */
	if (name[0] != '_') {
		*mangled = 0;
		return arena_strdup(&t->sym_arena, name);
	}
	len = strlen(name);
	m = arena_alloc(&t->sym_arena, sizeof(*m) + len + 1);
	m->table = t;
	m->demangled = NULL;
	memcpy(m->raw, name, len + 1);
	*mangled = 1;
	return (const char *)m;
}

const char *symbol_name(const struct symbol *sym)
{
	/* demangle_later() made it in the arena, writable: the demangled
	   name is memoized there, the symbol stays as it is */
	struct mangled_name *m = (struct mangled_name *)sym->name;
	struct dso_table *t;
	const char *name;

	if (!sym->mangled)
		return sym->name;
	name = __atomic_load_n(&m->demangled, __ATOMIC_ACQUIRE);
	if (name)
		return name;
	t = m->table;
	pthread_mutex_lock(&t->demangle_lock);
	name = m->demangled;
	if (!name) {
		name = demangle_symbol(&t->name_arena, m->raw, t->opts.verbose_demangle);
		__atomic_store_n(&m->demangled, name, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&t->demangle_lock);
	return name;
}
