/*
 * inline.c - inlined-function lookups with libdw, answering as binutils'
 * addr2line -i -f answers perf 6.1 (see inline.h).
 *
 * A lookup finds the compile unit holding the address (dwarf_addrdie()),
 * its line row (dwarf_getsrc_die()) and the nest of subprogram and
 * inlined-subroutine DIEs whose ranges hold it, walking down from the
 * unit; names are the linkage name, else the name, through abstract
 * origins and specifications (dwarf_attr_integrate()), demangled as perf
 * does.  No line and no function: the .symtab fallback of binutils.
 *
 * Invariants (besides those of inline.h): a dso's results live in one
 * array (pool) and a hash of addresses pointing into it; neither is
 * touched again for an address already looked up, so a hot address costs
 * one hash probe.
 */
#include "inline.h"
#include "symbol_int.h"
#include "../util/error.h"

#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* DIE trees deeper than this are not searched. */
#define MAX_NEST 1024
/* Functions inlined into each other deeper than this are cut. */
#define NEST_NAMES 64

/* Names of inlined functions of a dso table, and its made-up symbols. */
struct inline_names {
	struct arena arena;	/* names and symbols */
	const char **names;	/* by inline_id - 1 */
	u32 nr, alloc;
	u32 *slots;		/* open addressing: inline_id, 0 empty */
	u32 mask;
};

/* A .symtab entry binutils may name an address by. */
struct fallback_sym {
	u64 value, size;	/* size 0 counts as 1, as binutils does */
	const char *name;	/* in the ELF file's string table */
	u32 shndx;
	u8 function;		/* STT_FUNC or STT_GNU_IFUNC */
	u8 typed;		/* not STT_NOTYPE */
};

/* An address looked up: pool[first..first + nr). */
struct inline_slot {
	u64 addr;
	const struct symbol *sym;	/* the symbol it was looked up with */
	u32 first, nr;
	u8 used;
};

struct inline_info {
	int fd;
	Elf *elf;		/* NULL: nothing to read */
	Dwarf *dwarf;		/* NULL: no DWARF */
	GElf_Phdr *loads;	/* PT_LOAD headers */
	u32 nr_loads;
	struct { u64 addr, size; u32 index; } *sections;	/* SHF_ALLOC */
	u32 nr_sections;
	struct fallback_sym *fsyms;	/* .symtab order */
	u32 nr_fsyms;
	struct inline_slot *slots;
	u32 mask, nr_slots;
	const struct symbol **pool;
	u32 nr_pool, alloc_pool;
	struct symbol **fakes;	/* made-up symbols of this dso */
	u32 nr_fakes, alloc_fakes;
};

static u32 str_hash(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

/* The table's names, made on first use. */
static struct inline_names *names_of(struct dso_table *t)
{
	struct inline_names *n = t->inline_names;

	if (!n) {
		n = t->inline_names = xcalloc(1, sizeof(*n));
		arena_init(&n->arena, 0);
		n->mask = 255;
		n->slots = xcalloc(n->mask + 1, sizeof(*n->slots));
	}
	return n;
}

/* The inline_id of name (a copy is kept). */
static u32 name_id(struct dso_table *t, const char *name)
{
	struct inline_names *n = names_of(t);
	u32 i;

	for (i = str_hash(name) & n->mask; n->slots[i]; i = (i + 1) & n->mask)
		if (!strcmp(n->names[n->slots[i] - 1], name))
			return n->slots[i];
	if (n->nr == n->alloc) {
		n->alloc = n->alloc ? 2 * n->alloc : 64;
		n->names = xrealloc(n->names, n->alloc * sizeof(*n->names));
	}
	n->names[n->nr++] = arena_strdup(&n->arena, name);
	n->slots[i] = n->nr;
	if (2 * n->nr > n->mask) {
		u32 mask = 2 * n->mask + 1, *slots = xcalloc(mask + 1, sizeof(*slots));

		for (u32 k = 0; k < n->nr; k++) {
			for (i = str_hash(n->names[k]) & mask; slots[i]; i = (i + 1) & mask)
				;
			slots[i] = k + 1;
		}
		free(n->slots);
		n->slots = slots;
		n->mask = mask;
	}
	return n->nr;
}

void inline_names_free(struct inline_names *n)
{
	if (!n)
		return;
	arena_free(&n->arena);
	free(n->names);
	free(n->slots);
	free(n);
}

void inline_info_free(struct inline_info *ii)
{
	if (!ii)
		return;
	if (ii->dwarf)
		dwarf_end(ii->dwarf);
	if (ii->elf)
		elf_end(ii->elf);
	if (ii->fd >= 0)
		close(ii->fd);
	free(ii->loads);
	free(ii->sections);
	free(ii->fsyms);
	free(ii->slots);
	free(ii->pool);
	free(ii->fakes);
	free(ii);
}

/* The .symtab entries binutils' _bfd_elf_maybe_function_sym() accepts. */
static void read_fallback_syms(struct inline_info *ii, Elf_Scn *scn, const GElf_Shdr *shdr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || !shdr->sh_entsize)
		return;
	n = data->d_size / shdr->sh_entsize;
	ii->fsyms = xmalloc((n ? n : 1) * sizeof(*ii->fsyms));
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT ||
		    type == STT_TLS || type == STT_COMMON)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(ii->elf, shdr->sh_link, s.st_name);
		if (!name)
			continue;
		ii->fsyms[ii->nr_fsyms++] = (struct fallback_sym){
			.value = s.st_value,
			.size = s.st_size ? s.st_size : 1,
			.name = name,
			.shndx = s.st_shndx,
			.function = type == STT_FUNC || type == STT_GNU_IFUNC,
			.typed = type != STT_NOTYPE,
		};
	}
}

/* The PT_LOAD headers of elf that map part of the file. */
static void read_loads(struct inline_info *ii, Elf *elf)
{
	size_t nr_phdr;

	if (elf_getphdrnum(elf, &nr_phdr) || !nr_phdr)
		return;
	free(ii->loads);
	ii->loads = xmalloc(nr_phdr * sizeof(*ii->loads));
	ii->nr_loads = 0;
	for (size_t i = 0; i < nr_phdr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_filesz)
			ii->loads[ii->nr_loads++] = ph;
	}
}

/* Opens the file addr2line would read for dso; ii->elf stays NULL when
 * there is none. */
static void info_open(struct dso_table *t, struct dso *dso, struct inline_info *ii)
{
	const char *path = dso->symsrc_path;
	char buf[4096];
	GElf_Ehdr ehdr;
	Elf_Scn *scn = NULL;
	struct stat st;

	ii->fd = -1;
	if (!path) {
		path = dso->long_name;
		if (path[0] == '[' || !strncmp(path, "/tmp/perf-", 10))
			return;
		if (t->opts.symfs) {
			if (snprintf(buf, sizeof(buf), "%s%s", t->opts.symfs, path) >= (int)sizeof(buf))
				return;
			path = buf;
		}
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	/* nonblocking: a FIFO of that name must not hang the report */
	ii->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (ii->fd < 0)
		return;
	if (fstat(ii->fd, &st) || !S_ISREG(st.st_mode))
		return;
	ii->elf = elf_begin(ii->fd, ELF_C_READ_MMAP, NULL);
	if (!ii->elf || elf_kind(ii->elf) != ELF_K_ELF || !gelf_getehdr(ii->elf, &ehdr) ||
	    (dso->build_id_size && !elf_handle_build_id_ok(ii->elf, dso))) {
		if (ii->elf)
			elf_end(ii->elf);
		ii->elf = NULL;
		return;
	}
	/* a separate debug file's PT_LOADs have no file extent: the
	   dso's own file has them */
	if (path == dso->symsrc_path && dso->long_name[0] == '/' &&
	    snprintf(buf, sizeof(buf), "%s%s", t->opts.symfs ? t->opts.symfs : "",
		     dso->long_name) < (int)sizeof(buf)) {
		int fd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		Elf *own = fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ? NULL :
			   elf_begin(fd, ELF_C_READ_MMAP, NULL);

		if (own && elf_kind(own) == ELF_K_ELF)
			read_loads(ii, own);
		if (own)
			elf_end(own);
		if (fd >= 0)
			close(fd);
	}
	if (!ii->nr_loads)
		read_loads(ii, ii->elf);
	while ((scn = elf_nextscn(ii->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_flags & SHF_ALLOC) {
			ii->sections = xrealloc(ii->sections,
						(ii->nr_sections + 1) * sizeof(*ii->sections));
			ii->sections[ii->nr_sections].addr = sh.sh_addr;
			ii->sections[ii->nr_sections].size = sh.sh_size;
			ii->sections[ii->nr_sections++].index = (u32)elf_ndxscn(scn);
		}
		if (sh.sh_type == SHT_SYMTAB && !ii->fsyms)
			read_fallback_syms(ii, scn, &sh);
	}
	ii->dwarf = dwarf_begin_elf(ii->elf, DWARF_C_READ, NULL);
}

/* The ELF virtual address of a file offset (its PT_LOAD's, else the
 * first executable one's, else unchanged). */
static u64 to_vaddr(const struct inline_info *ii, u64 off)
{
	const GElf_Phdr *exec = NULL;

	for (u32 i = 0; i < ii->nr_loads; i++) {
		const GElf_Phdr *ph = &ii->loads[i];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_filesz)
			return off - ph->p_offset + ph->p_vaddr;
		if (!exec && (ph->p_flags & PF_X))
			exec = ph;
	}
	return exec ? off - exec->p_offset + exec->p_vaddr : off;
}

/* binutils' better_fit(): whether s names off better than best. */
static int better_fit(const struct fallback_sym *best, const struct fallback_sym *s, u64 off)
{
	u64 best_off = best ? best->value : 0, best_size = best ? best->size : 0;

	if (s->value > off || s->value < best_off)
		return 0;
	if (s->value > best_off)
		return 1;
	if (best_off + best_size <= off)
		return s->size > best_size;
	if (s->value + s->size <= off)
		return 0;
	if (best->function != s->function)
		return s->function;
	if (best->typed != s->typed)
		return s->typed;
	return s->size < best->size;
}

/* The .symtab name binutils gives vaddr, or NULL. */
static const char *fallback_name(const struct inline_info *ii, u64 vaddr)
{
	const struct fallback_sym *best = NULL;
	u32 shndx = 0;

	for (u32 i = 0; i < ii->nr_sections; i++)
		if (vaddr >= ii->sections[i].addr && vaddr - ii->sections[i].addr < ii->sections[i].size) {
			shndx = ii->sections[i].index;
			break;
		}
	if (!shndx)
		return NULL;
	for (u32 i = 0; i < ii->nr_fsyms; i++)
		if (ii->fsyms[i].shndx == shndx && better_fit(best, &ii->fsyms[i], vaddr))
			best = &ii->fsyms[i];
	return best ? best->name : NULL;
}

/* A function DIE's name as binutils reads it, or NULL. */
static const char *die_function_name(Dwarf_Die *die)
{
	static const int names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute attr;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *s;

		if (dwarf_attr_integrate(die, names[i], &attr) && (s = dwarf_formstring(&attr)))
			return s;
	}
	return NULL;
}

static int is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* The search for the function binutils names an address by. */
struct nest_search {
	u64 vaddr;
	const char *path[NEST_NAMES];	/* the functions around the DIE
					   being looked at, outermost first */
	int depth;			/* of path */
	const char *best[NEST_NAMES];	/* the chosen function's nest */
	int nr_best;
	u64 best_len;			/* its range around vaddr */
};

/* The length of die's range that holds vaddr, 0 when none does. */
static u64 range_len(Dwarf_Die *die, u64 vaddr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (vaddr >= start && vaddr < end)
			return end - start;
	return 0;
}

/*
 * Walks parent's children that hold s->vaddr (and namespaces, which have
 * no ranges), and theirs, in DIE order, choosing as binutils does: the
 * function (subprogram, inlined subroutine, entry point) with the
 * smallest range around the address, the later one of equal ranges; its
 * nest is itself and the functions around it (binutils' caller_func).
 */
static void function_nest(Dwarf_Die *parent, struct nest_search *s, int level)
{
	Dwarf_Die die;

	if (level > MAX_NEST || dwarf_child(parent, &die))
		return;
	do {
		int tag = dwarf_tag(&die), pushed = 0;
		u64 len;

		if (tag == DW_TAG_namespace || tag == DW_TAG_module) {
			function_nest(&die, s, level + 1);
			continue;
		}
		if (dwarf_haspc(&die, s->vaddr) != 1)
			continue;
		if (is_function(tag) && s->depth < NEST_NAMES) {
			const char *name = die_function_name(&die);

			s->path[s->depth++] = name ? name : "??";
			pushed = 1;
			len = range_len(&die, s->vaddr);
			if (len && (!s->nr_best || len <= s->best_len)) {
				memcpy(s->best, s->path, s->depth * sizeof(*s->path));
				s->nr_best = s->depth;
				s->best_len = len;
			}
		}
		function_nest(&die, s, level + 1);
		s->depth -= pushed;
	} while (!dwarf_siblingof(&die, &die));
}

/* The made-up symbol for name at sym (perf's new_inline_sym()), or sym
 * itself when the names are equal. */
static const struct symbol *inline_symbol(struct dso_table *t, struct inline_info *ii,
					  const struct symbol *sym, const char *raw)
{
	struct inline_names *names = names_of(t);
	struct symbol *fake;
	const char *name;
	u32 id;

	name = demangle_symbol(&names->arena, raw, t->opts.verbose_demangle);
	if (!strcmp(name, symbol_name(sym)))
		return sym;
	id = name_id(t, name);
	for (u32 i = 0; i < ii->nr_fakes; i++) {
		fake = ii->fakes[i];
		if (fake->inline_id == id && fake->start <= sym->end && fake->end >= sym->start)
			return fake;
	}
	fake = arena_alloc(&names->arena, sizeof(*fake));
	memset(fake, 0, sizeof(*fake));
	fake->start = sym->start;
	fake->end = sym->end;
	fake->name = names->names[id - 1];
	fake->binding = sym->binding;
	fake->type = sym->type;
	fake->inlined = 1;
	fake->inline_id = id;
	if (ii->nr_fakes == ii->alloc_fakes) {
		ii->alloc_fakes = ii->alloc_fakes ? 2 * ii->alloc_fakes : 64;
		ii->fakes = xrealloc(ii->fakes, ii->alloc_fakes * sizeof(*ii->fakes));
	}
	ii->fakes[ii->nr_fakes++] = fake;
	return fake;
}

static void pool_add(struct inline_info *ii, const struct symbol *s)
{
	if (ii->nr_pool == ii->alloc_pool) {
		ii->alloc_pool = ii->alloc_pool ? 2 * ii->alloc_pool : 256;
		ii->pool = xrealloc(ii->pool, ii->alloc_pool * sizeof(*ii->pool));
	}
	ii->pool[ii->nr_pool++] = s;
}

/* Looks addr up and appends its entries to the pool; returns how many. */
static u32 resolve(struct dso_table *t, struct inline_info *ii, const struct symbol *sym, u64 addr)
{
	struct nest_search ns = { .vaddr = to_vaddr(ii, addr) };
	const char *name;
	Dwarf_Die cu;
	int line = 0;

	if (ii->dwarf && dwarf_addrdie(ii->dwarf, ns.vaddr, &cu)) {
		line = dwarf_getsrc_die(&cu, ns.vaddr) != NULL;
		function_nest(&cu, &ns, 0);
	}
	if (ns.nr_best) {
		/* innermost first */
		for (int i = ns.nr_best - 1; i >= 0; i--)
			pool_add(ii, inline_symbol(t, ii, sym, ns.best[i]));
		return (u32)ns.nr_best;
	}
	name = fallback_name(ii, ns.vaddr);
	if (!name && !line)
		return 0;
	pool_add(ii, inline_symbol(t, ii, sym, name ? name : "??"));
	return 1;
}

static u32 slot_hash(u64 addr)
{
	addr *= 0x9e3779b97f4a7c15ULL;
	return (u32)(addr >> 32);
}

static void grow_slots(struct inline_info *ii)
{
	u32 mask = ii->mask ? 2 * ii->mask + 1 : 1023;
	struct inline_slot *slots = xcalloc(mask + 1, sizeof(*slots));

	for (u32 i = 0; ii->mask && i <= ii->mask; i++) {
		u32 k;

		if (!ii->slots[i].used)
			continue;
		for (k = slot_hash(ii->slots[i].addr) & mask; slots[k].used; k = (k + 1) & mask)
			;
		slots[k] = ii->slots[i];
	}
	free(ii->slots);
	ii->slots = slots;
	ii->mask = mask;
}

u32 inline_lookup(struct dso_table *t, struct dso *dso, const struct symbol *sym, u64 addr,
		  const struct symbol *const **syms)
{
	struct inline_info *ii;
	struct inline_slot *s;
	u32 k;

	if (!dso || !sym)
		return 0;
	if (!dso->inlines) {
		dso->inlines = xcalloc(1, sizeof(*dso->inlines));
		info_open(t, dso, dso->inlines);
	}
	ii = dso->inlines;
	if (!ii->elf)
		return 0;
	if (2 * (ii->nr_slots + 1) > ii->mask)
		grow_slots(ii);
	for (k = slot_hash(addr) & ii->mask; ii->slots[k].used; k = (k + 1) & ii->mask) {
		s = &ii->slots[k];
		if (s->addr == addr && s->sym == sym) {
			*syms = ii->pool + s->first;
			return s->nr;
		}
	}
	s = &ii->slots[k];
	s->used = 1;
	s->addr = addr;
	s->sym = sym;
	s->first = ii->nr_pool;
	s->nr = resolve(t, ii, sym, addr);
	ii->nr_slots++;
	*syms = ii->pool + s->first;
	return s->nr;
}
