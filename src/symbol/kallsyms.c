/*
 * kallsyms.c - kernel symbols from kallsyms files, JIT symbols from
 * /tmp/perf-PID.map files, and the running kernel's build-id.
 *
 * Kernel symbols follow perf 6.1's dso__load_kallsyms(): which file is
 * read is decided by the recorded kernel build-id (the running kernel's
 * /proc/kallsyms when it matches or none was recorded, else the build-id
 * cache's ~/.debug/[kernel.kallsyms]/<id>/kallsyms); symbols of types
 * T/W/D/B (any case) not starting with '$', zero-sized, with the module
 * suffix ("\t[mod]") kept for the end fixup; then perf's fixups, then the
 * split: module symbols go to the module dsos that have maps (map-relative),
 * or are dropped; kernel symbols are moved by the relocation delta (where
 * the reference symbol, e.g. _text, is now minus where it was recorded).
 * The kernel dso's range (first start, last end) is what perf's
 * map__fixup_start/end() make the kernel map.
 *
 * Reading /proc/kallsyms is slow (the kernel formats every line: about
 * 50 ms for 120,000 symbols).  perf record keeps a copy of it in its
 * build-id cache (~/.debug/[kernel.kallsyms]/<running kernel's id>/
 * kallsyms), and that copy is read in its place when it says what
 * /proc/kallsyms says now (kallsyms_copy_current()): the same first bytes
 * up to the first text symbol (so the kernel at the same address, and
 * addresses shown alike), and the same modules at the same places.  The
 * symbols of bpf programs and trampolines, which no map takes, may
 * differ.
 *
 * The kernel's symbols are needed at the first kernel sample, so
 * kallsyms_prefetch() reads and splits the file the session will want on
 * a worker thread from the start, and makes its symbol list (sorted and
 * fixed up, names in an arena of its own); kallsyms_load() takes those
 * when the file it picks then is the same (the table keeps the arena),
 * else reads the file itself.  The worker touches nothing but its own
 * buffers.
 *
 * Invariants: lines are parsed defensively (any garbage is skipped); no
 * fixed-size buffer is overrun; a missing file means no symbols.
 */
#include "symbol_int.h"
#include "../format/perf_data.h"
#include "../util/error.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int host_kernel_build_id(u8 *bid, size_t max)
{
	u8 buf[4096];
	FILE *fp = fopen("/sys/kernel/notes", "r");
	size_t n, off = 0;

	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	while (off + 12 <= n) {
		u32 namesz = pd_get32(buf + off), descsz = pd_get32(buf + off + 4);
		u32 type = pd_get32(buf + off + 8);
		size_t name_off = off + 12, desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);

		if (desc_off > n || descsz > n - desc_off)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			size_t len = descsz < max ? descsz : max;

			memcpy(bid, buf + desc_off, len);
			return (int)len;
		}
		off = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
	}
	return 0;
}

/* One parsed line of a kallsyms file; name points into the file's text. */
struct ksym_line {
	u64 addr;
	const char *name;
	char type;
};

/* A kallsyms file read and split into lines, and the symbols of those
 * lines perf keeps (see ksym_symbols()). */
struct ksym_file {
	char *text;
	struct ksym_line *v;
	size_t nr;
	struct symbol_list syms;
};

/* A kallsyms file being read on a worker thread. */
struct kallsyms_prefetch {
	pthread_t thread;
	char path[4200];
	struct ksym_file file;
	struct arena arena;	/* the names of file.syms */
	int ok;			/* the file was read (set by the worker) */
	atomic_int cancel;	/* set when the result is not wanted */
	atomic_int done;	/* the worker has finished */
};

#define BYTES(c) (0x0101010101010101ULL * (c))

/* The bytes of x (all below 0x80) in [lo, hi]: 0x80 in each such byte. */
static u64 bytes_in(u64 x, unsigned lo, unsigned hi)
{
	return (x + BYTES(0x80 - lo)) & ~(x + BYTES(0x7f - hi)) & BYTES(0x80);
}

/* The 16 lowercase hex digits at s, followed by a blank, as a number
 * (kallsyms' every line, with 64-bit addresses), eight bytes at a time;
 * -1 when s is not that. */
static int hex16(const char *s, u64 *v)
{
	u64 r = 0;

	if (s[16] != ' ')
		return -1;
	for (int i = 0; i < 2; i++) {
		u64 x, alpha, nib;

		memcpy(&x, s + 8 * i, 8);
		if (x & BYTES(0x80))
			return -1;
		alpha = bytes_in(x, 'a', 'f');
		if ((bytes_in(x, '0', '9') | alpha) != BYTES(0x80))
			return -1;
		/* digit values, the first (most significant) in the low byte */
		nib = (x & BYTES(0x0f)) + (alpha >> 7) * 9;
		nib = __builtin_bswap64(nib);
		/* pack the nibbles of the eight bytes into 32 bits */
		nib = (nib | nib >> 4) & 0x00ff00ff00ff00ffULL;
		nib = (nib | nib >> 8) & 0x0000ffff0000ffffULL;
		nib = (nib | nib >> 16) & 0x00000000ffffffffULL;
		r = r << 32 | nib;
	}
	*v = r;
	return 0;
}

/* strtoull(s, end, 16) for the plain hex numbers kallsyms has (about
 * four times fewer instructions); anything else goes to strtoull(). */
static u64 parse_hex(char *s, char **end)
{
	u64 v = 0;
	char *p = s;

	if (!hex16(s, &v)) {
		*end = s + 16;
		return v;
	}

	for (;; p++) {
		unsigned c = (unsigned char)*p, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	if (p == s || p - s > 16 || *p == 'x' || *p == 'X')
		return strtoull(s, end, 16);
	*end = p;
	return v;
}

/* Splits "addr type name" in place; 0 on success. */
static int parse_line(char *line, u64 *addr, char *type, char **name)
{
	char *end;

	*addr = parse_hex(line, &end);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return -1;
	*type = end[1];
	*name = end + 3;
	return **name ? 0 : -1;
}

/*
 * The whole of path, NUL-terminated, its length in *len; NULL when it
 * cannot be opened.  A regular file is read into room for all of it (and
 * the read that sees its end); anything else (/proc) into a buffer that
 * doubles.  Stops early when *cancel is set.
 */
static char *read_file(const char *path, size_t *len, atomic_int *cancel)
{
	size_t cap = 1 << 20;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *text;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (u64)st.st_size < (1ULL << 32))
		cap = (size_t)st.st_size + 1;
	text = xmalloc(cap + 1);
	*len = 0;
	for (;;) {
		ssize_t n;

		if (cancel && atomic_load_explicit(cancel, memory_order_relaxed))
			break;
		if (*len == cap) {
			cap *= 2;
			text = xrealloc(text, cap + 1);
		}
		n = read(fd, text + *len, cap - *len);
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	text[*len] = 0;
	return text;
}

/* The build-id cache's kallsyms of the kernel with build-id bid (n bytes):
 * ~/.debug/[kernel.kallsyms]/<id>/kallsyms, in buf; -1 without HOME. */
static int cache_kallsyms_path(char *buf, size_t size, const u8 *bid, int n)
{
	const char *home = getenv("HOME");
	int len;

	if (!home)
		return -1;
	len = snprintf(buf, size, "%s/.debug/[kernel.kallsyms]/", home);
	for (int i = 0; i < n && len + 3 < (int)size; i++)
		len += snprintf(buf + len, size - len, "%02x", bid[i]);
	snprintf(buf + len, size - len, "/kallsyms");
	return 0;
}

/* perf's copy of the running kernel's kallsyms in its build-id cache. */
static int host_copy_path(char *buf, size_t size)
{
	u8 host[DSO_BUILD_ID_MAX];
	int n = host_kernel_build_id(host, sizeof(host));

	return n ? cache_kallsyms_path(buf, size, host, n) : -1;
}

/* A module of /proc/modules, and what the copy says of it. */
struct live_module {
	const char *name;	/* in the /proc/modules text */
	u64 base, size;
	u64 low, high;		/* the copy's text symbols: lowest, highest */
	int seen;		/* the copy has text symbols of it */
};

/* Splits /proc/modules ("name size refs deps state 0xbase ...") into v;
 * returns the count, or -1 for a line it cannot read or a module that is
 * still loading or going away. */
static int live_modules(char *text, struct live_module **v)
{
	int nr = 0, alloc = 0;

	*v = NULL;
	for (char *line = text, *nl; *line; line = nl ? nl + 1 : line + strlen(line)) {
		char *field[6], *save = NULL, *end;
		int k = 0;

		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		for (char *tok = strtok_r(line, " ", &save); tok && k < 6;
		     tok = strtok_r(NULL, " ", &save))
			field[k++] = tok;
		if (!k)
			continue;
		if (k < 6 || strcmp(field[4], "Live"))
			return -1;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			*v = xrealloc(*v, alloc * sizeof(**v));
		}
		(*v)[nr] = (struct live_module){ .name = field[0] };
		(*v)[nr].size = strtoull(field[1], &end, 10);
		(*v)[nr].base = strtoull(field[5], &end, 16);
		if (!(*v)[nr].base)
			return -1;	/* addresses hidden from this user */
		nr++;
	}
	return nr;
}

/* Names in kallsyms' module brackets that are no module: bpf programs and
 * ftrace or kprobe trampolines.  No map takes their symbols. */
static int pseudo_module(const char *name, size_t len)
{
	return (len == 3 && !memcmp(name, "bpf", 3)) ||
	       (len >= 9 && !memcmp(name, "__builtin", 9));
}

/* Where the first text symbol's line of a kallsyms text ends (after its
 * newline), or NULL when len bytes hold none. */
static const char *first_text_end(const char *text, size_t len)
{
	for (const char *p = text, *end = text + len; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;

		if (!nl)
			return NULL;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp && nl - sp > 3 && (sp[1] == 't' || sp[1] == 'T') && sp[2] == ' ')
			return nl + 1;
		p = nl + 1;
	}
	return NULL;
}

int kallsyms_copy_current(const char *copy, size_t copy_len, const char *head,
			  size_t head_len, char *modules)
{
	const char *first_text = first_text_end(head, head_len), *p, *end = copy + copy_len;
	struct live_module *mods = NULL, *cur = NULL;
	int nr_mods = 0, ok = 0;

	/* the same bytes up to the end of the first text symbol's line */
	if (!first_text || (size_t)(first_text - head) > copy_len ||
	    memcmp(copy, head, (size_t)(first_text - head)))
		return 0;
	if (modules && (nr_mods = live_modules(modules, &mods)) < 0)
		goto out;
	/* the modules' text symbols: "addr type name\t[module]" */
	for (p = memchr(copy, '\t', copy_len); p && p < end; ) {
		const char *line = p, *nl = memchr(p, '\n', (size_t)(end - p)), *tab, *name;
		const char *line_end = nl ? nl : end;
		char *hex_end;
		size_t name_len;
		u64 addr;

		while (line > copy && line[-1] != '\n')
			line--;
		p = nl ? nl + 1 : end;
		tab = memchr(line, '\t', (size_t)(line_end - line));
		if (!tab || tab[1] != '[' || line_end[-1] != ']')
			continue;
		name = tab + 2;
		name_len = (size_t)(line_end - 1 - name);
		if (pseudo_module(name, name_len))
			continue;
		if (!cur || strlen(cur->name) != name_len || memcmp(cur->name, name, name_len)) {
			cur = NULL;
			for (int i = 0; i < nr_mods; i++)
				if (strlen(mods[i].name) == name_len &&
				    !memcmp(mods[i].name, name, name_len))
					cur = &mods[i];
			if (!cur)
				goto out;	/* not loaded now */
		}
		addr = strtoull(line, &hex_end, 16);
		if (hex_end[0] != ' ' || !hex_end[1] || !strchr("tTwW", hex_end[1]))
			continue;
		if (!cur->seen || addr < cur->low)
			cur->low = addr;
		if (!cur->seen || addr > cur->high)
			cur->high = addr;
		cur->seen = 1;
	}
	/* loaded at the same place: a module loaded again elsewhere moves
	   by whole pages, so its lowest symbol leaves the first page */
	for (int i = 0; i < nr_mods; i++)
		if (!mods[i].seen || mods[i].low < mods[i].base || mods[i].low - mods[i].base >= 4096 ||
		    mods[i].high - mods[i].base >= mods[i].size)
			goto out;
	ok = 1;
out:
	free(mods);
	return ok;
}

/*
 * The text of /proc/kallsyms from perf's copy (see kallsyms_copy_current()),
 * in *text; 0, or -1 when there is no copy that may stand for it.
 */
static int read_host_copy(char **text, size_t *len, atomic_int *cancel)
{
	char path[4200], head[1 << 16], *modules;
	size_t head_len = 0, modules_len;
	int fd, ok;

	if (host_copy_path(path, sizeof(path)) || !(*text = read_file(path, len, cancel)))
		return -1;
	/* /proc/kallsyms up to its first text symbol: a read or a few */
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		while (head_len < sizeof(head)) {
			ssize_t n = read(fd, head + head_len, sizeof(head) - head_len);

			if (n <= 0)
				break;
			head_len += (size_t)n;
			if (first_text_end(head, head_len))
				break;
		}
		close(fd);
	}
	modules = read_file("/proc/modules", &modules_len, NULL);
	if (!modules && errno != ENOENT) {
		ok = 0;
	} else {
		ok = kallsyms_copy_current(*text, *len, head, head_len, modules);
	}
	free(modules);
	if (!ok) {
		free(*text);
		*text = NULL;
		*len = 0;
		return -1;
	}
	return 0;
}

/* Reads path and splits it into the lines parse_line() accepts, as a
 * getline() loop would see them; stops early when *cancel is set.
 * /proc/kallsyms is read from perf's copy when read_host_copy() allows.
 * Returns 0, or -1 when the file cannot be read. */
static int ksym_file_read(const char *path, struct ksym_file *f, atomic_int *cancel)
{
	size_t len = 0, alloc = 0;
	char *p, *end;

	memset(f, 0, sizeof(*f));
	if ((strcmp(path, "/proc/kallsyms") || read_host_copy(&f->text, &len, cancel)) &&
	    !(f->text = read_file(path, &len, cancel)))
		return -1;
	for (p = f->text, end = f->text + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		struct ksym_line *l;
		u64 addr;
		char type;

		if (nl)
			*nl = 0;
		if (!parse_line(p, &addr, &type, &name)) {
			if (f->nr == alloc) {
				alloc = alloc ? 2 * alloc : 65536;
				f->v = xrealloc(f->v, alloc * sizeof(*f->v));
			}
			l = &f->v[f->nr++];
			l->addr = addr;
			l->type = type;
			l->name = name;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static void ksym_file_free(struct ksym_file *f)
{
	free(f->text);
	free(f->v);
	free(f->syms.v);
	memset(f, 0, sizeof(*f));
}

/* The symbols of f's lines perf keeps: types T/W/D/B (any case), names
 * not starting with '$' (copied into arena), zero-sized, then perf's
 * fixups (symbol_list_finish()); the module suffix stays in the name. */
static void ksym_symbols(struct ksym_file *f, struct arena *arena)
{
	struct symbol_list *all = &f->syms;

	*all = (struct symbol_list){ .arena = arena };
	for (size_t i = 0; i < f->nr; i++) {
		u64 addr = f->v[i].addr;
		char type = f->v[i].type, up = (char)toupper((unsigned char)type);
		const char *name = f->v[i].name;

		if ((up != 'T' && up != 'W' && up != 'D' && up != 'B') || name[0] == '$')
			continue;
		symbol_list_add(all, addr, addr, name,
				type == 'W' ? STB_WEAK : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL,
				(up == 'T' || up == 'W') ? STT_FUNC : STT_OBJECT);
	}
	symbol_list_finish(all, 1);
}

static void *prefetch_main(void *arg)
{
	struct kallsyms_prefetch *kp = arg;

	kp->ok = !ksym_file_read(kp->path, &kp->file, &kp->cancel);
	if (kp->ok && !atomic_load(&kp->cancel))
		ksym_symbols(&kp->file, &kp->arena);
	atomic_store(&kp->done, 1);
	return NULL;
}

/* The file perf's dso__find_kallsyms() picks, in buf; NULL if none. */
static const char *kallsyms_path(struct dso_table *t, const struct dso *kernel, char *buf,
				 size_t size)
{
	u8 host[DSO_BUILD_ID_MAX];
	int n;

	if (t->opts.no_kallsyms || (t->opts.symfs && t->opts.symfs[0]))
		return NULL;
	if (!kernel->build_id_size)
		return "/proc/kallsyms";
	n = host_kernel_build_id(host, sizeof(host));
	if (n == kernel->build_id_size && !memcmp(host, kernel->build_id, n))
		return "/proc/kallsyms";
	return cache_kallsyms_path(buf, size, kernel->build_id, kernel->build_id_size) ? NULL : buf;
}

void kallsyms_prefetch(struct dso_table *t, struct dso *kernel)
{
	struct kallsyms_prefetch *kp;
	struct dso none = { 0 };
	const char *path;

	if (t->kallsyms_prefetch || t->opts.vmlinux)
		return;
	if (!kernel)
		kernel = &none;
	kp = xcalloc(1, sizeof(*kp));
	path = kallsyms_path(t, kernel, kp->path, sizeof(kp->path));
	if (!path) {
		free(kp);
		return;
	}
	if (path != kp->path)
		snprintf(kp->path, sizeof(kp->path), "%s", path);
	arena_init(&kp->arena, 0);
	if (pthread_create(&kp->thread, NULL, prefetch_main, kp)) {
		arena_free(&kp->arena);
		free(kp);
		return;
	}
	t->kallsyms_prefetch = kp;
}

int kallsyms_prefetch_done(const struct dso_table *t)
{
	return !t->kallsyms_prefetch || atomic_load(&t->kallsyms_prefetch->done);
}

void kallsyms_prefetch_stop(struct dso_table *t)
{
	struct kallsyms_prefetch *kp = t->kallsyms_prefetch;

	if (!kp)
		return;
	atomic_store(&kp->cancel, 1);
	pthread_join(kp->thread, NULL);
	ksym_file_free(&kp->file);
	arena_free(&kp->arena);
	free(kp);
	t->kallsyms_prefetch = NULL;
}

/* The lines and symbols of path: the prefetched ones when they are of
 * path (the table keeps their names' arena), else read now.  Returns 0 or
 * -1. */
static int kallsyms_lines(struct dso_table *t, const char *path, struct ksym_file *f)
{
	struct kallsyms_prefetch *kp = t->kallsyms_prefetch;

	if (kp) {
		pthread_join(kp->thread, NULL);
		t->kallsyms_prefetch = NULL;
		if (kp->ok && !strcmp(kp->path, path)) {
			*f = kp->file;
			arena_free(&t->kallsyms_arena);
			t->kallsyms_arena = kp->arena;
			free(kp);
			return 0;
		}
		ksym_file_free(&kp->file);
		arena_free(&kp->arena);
		free(kp);
	}
	if (ksym_file_read(path, f, NULL))
		return -1;
	ksym_symbols(f, &t->sym_arena);
	return 0;
}

int kallsyms_load(struct dso_table *t, struct dso *kernel, const char *path,
		  struct symbol_list *l)
{
	char pbuf[4200];
	struct ksym_file f;
	u64 ref_addr = 0, delta = 0;
	int have_ref = !t->ref_reloc_sym;
	struct symbol_list all;
	u32 kept = 0;

	if (!path)
		path = kallsyms_path(t, kernel, pbuf, sizeof(pbuf));
	if (!path || kallsyms_lines(t, path, &f))
		return -1;
	for (size_t i = 0; i < f.nr && !have_ref; i++) {
		char up = (char)toupper((unsigned char)f.v[i].type);

		if ((up == 'T' || up == 'W') && !strcmp(f.v[i].name, t->ref_reloc_sym)) {
			ref_addr = f.v[i].addr;
			have_ref = 1;
		}
	}
	all = f.syms;
	all.arena = &t->sym_arena;	/* the names' stays with the table */
	f.syms.v = NULL;
	ksym_file_free(&f);
	if (!have_ref) {
		free(all.v);
		return -1;
	}
	if (t->ref_reloc_sym)
		delta = ref_addr - t->ref_reloc_addr;

	/* maps__split_kallsyms(): modules out, kernel moved by delta */
	struct dso *mod = NULL;
	const char *mod_name = NULL;
	u64 mod_start = 0;
	struct symbol_list ml = { .arena = &t->sym_arena };

	for (u32 i = 0; i < all.nr; i++) {
		struct symbol *s = &all.v[i];
		const char *tab = strchr(s->name, '\t');

		if (!tab) {
			s->start -= delta;
			s->end -= delta;
			all.v[kept++] = *s;
			continue;
		}
		if (!mod_name || strcmp(mod_name, tab + 1)) {
			if (mod && ml.nr)
				dso_install_list(mod, &ml);
			free(ml.v);
			ml = (struct symbol_list){ .arena = &t->sym_arena };
			mod_name = tab + 1;
			mod = t->find_module ? t->find_module(t->module_ctx, mod_name, &mod_start) : NULL;
		}
		if (!mod)
			continue;
		symbol_list_add(&ml, s->start - mod_start, s->end - mod_start,
				arena_strndup(&t->sym_arena, s->name, tab - s->name), s->binding, s->type);
	}
	if (mod && ml.nr)
		dso_install_list(mod, &ml);
	free(ml.v);
	all.nr = kept;
	if (kept) {
		kernel->kernel_start = all.v[0].start;
		kernel->kernel_end = all.v[kept - 1].end;
		kernel->kernel_range_valid = 1;
	}
	kernel->kernel_delta = delta;
	free(l->v);
	*l = all;
	return (int)kept;
}

int perf_map_load(struct arena *arena, const char *path, struct symtree *tree)
{
	struct stat st;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int nr = 0;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	if (st.st_uid && st.st_uid != geteuid())
		return -1;	/* perf ignores maps of other users without -f */
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while ((len = getline(&line, &cap, fp)) > 0) {
		char *p, *end;
		u64 start, size;

		line[--len] = 0;	/* perf drops the last byte (the newline) */
		start = strtoull(line, &end, 16);
		p = end + 1;
		if (p - line + 2 >= len)
			continue;
		size = strtoull(p, &end, 16);
		p = end + 1;
		if (p - line + 2 >= len)
			continue;
		symtree_insert(tree, start, start + size, arena_strdup(arena, p), STB_GLOBAL,
			       STT_FUNC);
		nr++;
	}
	free(line);
	fclose(fp);
	return nr;
}
