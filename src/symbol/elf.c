/*
 * elf.c - ELF symbol loading as perf 6.1's dso__load() does it (libelf).
 *
 * For a dso, candidate files are tried in perf's order: the .gnu_debuglink
 * target, the build-id cache (~/.debug/.build-id/xx/rest/{elf,vdso,debug}),
 * /usr/lib/debug/PATH.debug, /usr/lib/debug/PATH,
 * /usr/lib/debug/.build-id/xx/rest.debug, then the file itself.  A
 * candidate whose build-id differs from the dso's is skipped.  The first
 * candidate with a .symtab gives the symbols, the first with a .dynsym is
 * the "runtime" image (program headers, PLT); with no .symtab anywhere the
 * runtime image gives them.
 *
 * As perf 6.1's dso__load_sym(), the symbol file's .symtab and then its
 * .dynsym are both read, each followed by perf's end and alias fixups over
 * the whole tree (symtree.c); then the PLT entries are inserted, unfixed.
 * Symbols kept: functions, ifuncs and objects with a name and a section,
 * and untyped labels in sections whose name contains "text" or "data", in
 * sections with SHF_ALLOC.  Every user-space symbol is moved to its file
 * offset (minus the p_vaddr - p_offset of the PT_LOAD that holds it, or of
 * its section when none does), as perf's adjust_symbols does.  PLT entries
 * become "name@plt" at .plt's file offset + one header entry, sh_entsize
 * apart.
 *
 * Invariants: every file is read through libelf with bounds checks;
 * malformed, truncated or unreadable files give no symbols, never a crash.
 * .gnu_debugdata (MiniDebugInfo, xz) is read only when the options ask,
 * since perf 6.1 ignores it.
 */
#include "symbol_int.h"
#include "../util/error.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATHBUF 4096

/* One opened candidate file. */
struct symsrc {
	int fd;			/* -1 for images in memory */
	Elf *elf;
	void *owned;		/* buffer elf reads from, freed with it */
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
	int adjust_symbols;
};

/* Whether libelf works in this process: elf_version() keeps its answer
 * itself, and asking again is cheap. */
static int libelf_ready(void)
{
	return elf_version(EV_CURRENT) != EV_NONE;
}

static void symsrc_close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->owned);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* The section called name, its header and index; NULL if absent. */
static Elf_Scn *section_by_name(Elf *elf, const GElf_Ehdr *ehdr, const char *name,
				GElf_Shdr *shdr, size_t *idx)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	(void)ehdr;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/* The section's data, decompressed when SHF_COMPRESSED; NULL if unusable. */
static Elf_Data *section_data(Elf_Scn *scn)
{
	GElf_Shdr shdr;

	if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS)
		return NULL;
	if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return NULL;
	return elf_getdata(scn, NULL);
}

/* perf's elf_read_build_id(): the first GNU build-id note of
 * .note.gnu.build-id, .notes or .note. */
static int elf_build_id(Elf *elf, u8 *bid, size_t max)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	if (!gelf_getehdr(elf, &ehdr))
		return 0;
	for (unsigned i = 0; i < 3 && !scn; i++)
		scn = section_by_name(elf, &ehdr, names[i], &shdr, NULL);
	if (!scn || shdr.sh_type != SHT_NOTE || !(data = elf_getdata(scn, NULL)))
		return 0;
	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nhdr.n_descsz < max ? nhdr.n_descsz : max;

			if (!n)
				return 0;
			memcpy(bid, (const char *)data->d_buf + desc_off, n);
			return (int)n;
		}
	}
	return 0;
}

/* perf's dso__build_id_equal(): a recorded 20-byte id may carry zero
 * padding after a shorter one. */
static int build_id_equal(const struct dso *dso, const u8 *bid, int size)
{
	if (dso->build_id_size > size && dso->build_id_size == DSO_BUILD_ID_MAX) {
		if (memcmp(dso->build_id, bid, size))
			return 0;
		for (int i = size; i < dso->build_id_size; i++)
			if (dso->build_id[i])
				return 0;
		return 1;
	}
	return dso->build_id_size == size && !memcmp(dso->build_id, bid, size);
}

int elf_handle_build_id_ok(struct Elf *elf, const struct dso *dso)
{
	u8 bid[DSO_BUILD_ID_MAX];
	int n;

	if (!dso->build_id_size)
		return 1;
	n = elf_build_id(elf, bid, sizeof(bid));
	return n > 0 && build_id_equal(dso, bid, n);
}

/* perf's symsrc__init() on an Elf handle. */
static int symsrc_init(struct symsrc *ss, struct dso *dso)
{
	if (elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		return -1;
	if (ss->ehdr.e_ident[EI_DATA] != ELFDATA2LSB && ss->ehdr.e_ident[EI_DATA] != ELFDATA2MSB)
		return -1;
	if (dso->build_id_size) {
		u8 bid[DSO_BUILD_ID_MAX];
		int n = elf_build_id(ss->elf, bid, sizeof(bid));

		if (n <= 0 || !build_id_equal(dso, bid, n))
			return -1;
	}
	ss->symtab = section_by_name(ss->elf, &ss->ehdr, ".symtab", &ss->symshdr, NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = section_by_name(ss->elf, &ss->ehdr, ".dynsym", &ss->dynshdr, &ss->dynsym_idx);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	/* perf 6.1 moves every user-space symbol by its PT_LOAD's p_vaddr -
	 * p_offset (a no-op where they are equal) */
	ss->adjust_symbols = dso->kind != DSO_KIND_KERNEL;
	return 0;
}

static int is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int symsrc_open(struct symsrc *ss, struct dso *dso, const char *path)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	if (!is_regular_file(path))
		return -1;
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || symsrc_init(ss, dso)) {
		symsrc_close(ss);
		return -1;
	}
	return 0;
}

/* Opens an image in memory; buf is owned (freed) when own is set. */
static int symsrc_open_memory(struct symsrc *ss, struct dso *dso, void *buf, size_t size, int own)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	if (own)
		ss->owned = buf;
	ss->elf = elf_memory(buf, size);
	if (!ss->elf || symsrc_init(ss, dso)) {
		symsrc_close(ss);
		return -1;
	}
	return 0;
}

/* ---- symbol reading ---------------------------------------------------- */

static int sym_is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

static int sym_is_wanted(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}

/* What load_table() needs of a symbol's section, found once per section:
 * its header (the runtime image's for SHT_NOBITS) and name. */
struct sec_info {
	int state;		/* 0: not looked at; 1: found; -1: missing */
	GElf_Shdr shdr;
	const char *name;
};

/* The runtime image's PT_LOADs in header order, read once (up to the
 * first header libelf cannot read), for load_segments_find(): perf's
 * elf_read_program_header(), the first PT_LOAD holding vaddr by the larger
 * of its memory and file sizes. */
struct load_segments {
	GElf_Phdr *v;
	size_t nr;
};

static void load_segments_read(Elf *elf, struct load_segments *ls)
{
	size_t n;

	ls->v = NULL;
	ls->nr = 0;
	if (elf_getphdrnum(elf, &n) || !n)
		return;
	ls->v = xmalloc(n * sizeof(*ls->v));
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ls->v[ls->nr]))
			break;
		if (ls->v[ls->nr].p_type == PT_LOAD)
			ls->nr++;
	}
}

static const GElf_Phdr *load_segments_find(const struct load_segments *ls, u64 vaddr)
{
	for (size_t i = 0; i < ls->nr; i++) {
		const GElf_Phdr *ph = &ls->v[i];
		u64 size = ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz;

		if (size && vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + size)
			return ph;
	}
	return NULL;
}

/* The section of index idx for load_table(), or NULL when it (or, for
 * SHT_NOBITS, the runtime image's) cannot be read. */
static const struct sec_info *section_info(struct sec_info *cache, size_t nr, size_t idx,
					   struct symsrc *syms, struct symsrc *runtime,
					   size_t shstrndx, size_t run_shstrndx)
{
	struct sec_info *si;
	Elf_Scn *sec;

	if (idx >= nr)
		return NULL;
	si = &cache[idx];
	if (si->state)
		return si->state > 0 ? si : NULL;
	si->state = -1;
	sec = elf_getscn(syms->elf, idx);
	if (!sec || !gelf_getshdr(sec, &si->shdr))
		return NULL;
	if (si->shdr.sh_flags & SHF_ALLOC) {
		if (si->shdr.sh_type == SHT_NOBITS) {
			/* the runtime image knows the section's real offset */
			sec = elf_getscn(runtime->elf, idx);
			if (!sec || !gelf_getshdr(sec, &si->shdr))
				return NULL;
			si->name = elf_strptr(runtime->elf, run_shstrndx, si->shdr.sh_name);
		} else {
			si->name = elf_strptr(syms->elf, shstrndx, si->shdr.sh_name);
		}
	}
	si->state = 1;
	return si;
}

/* Labels are kept in sections whose name says text or data. */
static int section_is_code_or_data(const char *name)
{
	return name && (strstr(name, "text") || strstr(name, "data"));
}

/*
 * perf's dso__load_sym_internal() over one table of syms (.symtab, or
 * .dynsym when dynsym is set), inserting into st, then perf's end and
 * alias fixups over the whole tree when it inserted any.  Returns the
 * count, or -1 where perf gives up (a symbol in a section that does not
 * exist): what was inserted stays, unfixed.
 */
static int load_table(struct dso_table *t, struct dso *dso, struct symsrc *syms,
		      struct symsrc *runtime, int dynsym, struct symtree *st)
{
	Elf_Scn *scn = dynsym ? syms->dynsym : syms->symtab;
	GElf_Shdr symshdr = dynsym ? syms->dynshdr : syms->symshdr;
	Elf_Data *data;
	Elf_Scn *strscn;
	size_t shstrndx, run_shstrndx, nr, count = 0, nr_sec;
	int arm = syms->ehdr.e_machine == EM_ARM || syms->ehdr.e_machine == EM_AARCH64;
	int ret = -1;
	u8 mangled;
	struct sec_info *secs;
	struct load_segments segs = { NULL, 0 };

	if (!scn || !(data = section_data(scn)) || !symshdr.sh_entsize)
		return -1;
	strscn = elf_getscn(syms->elf, symshdr.sh_link);
	if (!strscn || !section_data(strscn) || elf_getshdrstrndx(syms->elf, &shstrndx) ||
	    elf_getshdrstrndx(runtime->elf, &run_shstrndx) || elf_getshdrnum(syms->elf, &nr_sec))
		return -1;
	nr = data->d_size / gelf_fsize(syms->elf, ELF_T_SYM, 1, EV_CURRENT);
	dso->adjust_symbols = runtime->adjust_symbols;
	secs = xcalloc(nr_sec ? nr_sec : 1, sizeof(*secs));
	if (syms->adjust_symbols)
		load_segments_read(runtime->elf, &segs);
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		const struct sec_info *si;
		const char *name;
		int label;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		label = sym_is_label(&sym);
		if (!label && !sym_is_wanted(&sym))
			continue;
		name = elf_strptr(syms->elf, symshdr.sh_link, sym.st_name);
		if (!name)
			continue;
		if (arm && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
		    (name[2] == 0 || name[2] == '.'))
			continue;
		if (sym.st_shndx == SHN_ABS)
			continue;
		si = section_info(secs, nr_sec, sym.st_shndx, syms, runtime, shstrndx,
				  run_shstrndx);
		if (!si)
			goto out;
		if (!(si->shdr.sh_flags & SHF_ALLOC))
			continue;
		if (label && !section_is_code_or_data(si->name))
			continue;
		if (syms->ehdr.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
		    (sym.st_value & 1))
			sym.st_value--;
		if (syms->adjust_symbols) {
			const GElf_Phdr *ph = load_segments_find(&segs, sym.st_value);

			if (!ph)
				sym.st_value -= si->shdr.sh_addr - si->shdr.sh_offset;
			else
				sym.st_value -= ph->p_vaddr - ph->p_offset;
		}
		name = demangle_later(t, name, &mangled);
		symtree_insert(st, sym.st_value, sym.st_value + sym.st_size, name,
			       GELF_ST_BIND(sym.st_info), GELF_ST_TYPE(sym.st_info))->mangled = mangled;
		count++;
	}
	ret = (int)count;
	if (count) {
		symtree_fixup_end(st, 0);
		symtree_fixup_duplicate(st);
	}
out:
	free(secs);
	free(segs.v);
	return ret;
}

/* perf's dso__load_sym(): .symtab first, then .dynsym of the same file,
 * each with its fixups.  Returns the count, or -1. */
static int load_symbols(struct dso_table *t, struct dso *dso, struct symsrc *syms,
			struct symsrc *runtime, struct symtree *st)
{
	int nr = 0, n;

	if (syms->symtab) {
		nr = load_table(t, dso, syms, runtime, 0, st);
		if (nr < 0)
			return -1;
	}
	if (syms->dynsym) {
		n = load_table(t, dso, syms, runtime, 1, st);
		if (n < 0)
			return -1;
		nr += n;
	}
	return nr;
}

/* name + "@plt" in arena, cut to 1023 bytes as perf's snprintf() into a
 * 1024-byte buffer cuts it. */
static const char *plt_name(struct arena *arena, const char *name)
{
	size_t n = strlen(name), total = n + 4 < 1023 ? n + 4 : 1023, keep = n < total ? n : total;
	char *out = arena_alloc(arena, total + 1);

	memcpy(out, name, keep);
	memcpy(out + keep, "@plt", total - keep);
	out[total] = 0;
	return out;
}

/* perf 6.1's dso__synthesize_plt_symbols(): "name@plt" for each .rela.plt /
 * .rel.plt entry, laid out from .plt's file offset after one header, each
 * inserted into the fixed-up tree as it is. */
static int synthesize_plt(struct dso_table *t, struct symsrc *ss, struct symtree *st)
{
	GElf_Shdr relshdr, pltshdr, strshdr;
	Elf_Scn *relscn, *strscn;
	Elf_Data *rel, *syms;
	u64 off, header, entry;
	size_t nr;
	int count = 0;

	if (!ss->dynsym)
		return 0;
	relscn = section_by_name(ss->elf, &ss->ehdr, ".rela.plt", &relshdr, NULL);
	if (!relscn)
		relscn = section_by_name(ss->elf, &ss->ehdr, ".rel.plt", &relshdr, NULL);
	if (!relscn || relshdr.sh_link != ss->dynsym_idx || !relshdr.sh_entsize)
		return 0;
	if (!section_by_name(ss->elf, &ss->ehdr, ".plt", &pltshdr, NULL))
		return 0;
	rel = section_data(relscn);
	syms = section_data(ss->dynsym);
	strscn = elf_getscn(ss->elf, ss->dynshdr.sh_link);
	if (!rel || !syms || !strscn || !gelf_getshdr(strscn, &strshdr) || !strshdr.sh_size)
		return 0;
	switch (ss->ehdr.e_machine) {
	case EM_ARM:
		header = 20, entry = 12;
		break;
	case EM_AARCH64:
		header = 32, entry = 16;
		break;
	case EM_SPARC:
		header = 48, entry = 12;
		break;
	case EM_SPARCV9:
		header = 128, entry = 32;
		break;
	default:
		header = entry = pltshdr.sh_entsize;
		break;
	}
	off = pltshdr.sh_offset + header;
	nr = relshdr.sh_size / relshdr.sh_entsize;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		u64 info;
		const char *name;

		if (relshdr.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else if (relshdr.sh_type == SHT_REL) {
			GElf_Rel r;

			if (!gelf_getrel(rel, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			continue;
		name = elf_strptr(ss->elf, ss->dynshdr.sh_link, sym.st_name);
		symtree_insert(st, off, off + entry,
			       plt_name(&t->sym_arena, demangle_symbol(&t->sym_arena, name ? name : "",
								     t->opts.verbose_demangle)),
			       STB_GLOBAL, STT_FUNC);
		off += entry;
		count++;
	}
	return count;
}

/* ---- MiniDebugInfo ----------------------------------------------------- */

/* Decompresses .gnu_debugdata (xz) of ss into a new symsrc. */
static int open_minidebuginfo(struct symsrc *out, struct dso *dso, struct symsrc *ss)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = section_by_name(ss->elf, &ss->ehdr, ".gnu_debugdata", &shdr, NULL);
	Elf_Data *data;
	lzma_stream strm = LZMA_STREAM_INIT;
	size_t cap, limit;
	u8 *buf;
	lzma_ret ret;
	u8 saved[DSO_BUILD_ID_MAX];
	u8 saved_size = dso->build_id_size;

	if (!scn || !(data = elf_rawdata(scn, NULL)) || !data->d_size)
		return -1;
	limit = 64 * data->d_size + (1 << 20);	/* bound on what xz may claim */
	if (lzma_stream_decoder(&strm, 1ULL << 30, 0) != LZMA_OK)
		return -1;
	cap = 4 * data->d_size + 4096;
	buf = xmalloc(cap);
	strm.next_in = data->d_buf;
	strm.avail_in = data->d_size;
	strm.next_out = buf;
	strm.avail_out = cap;
	for (;;) {
		ret = lzma_code(&strm, LZMA_FINISH);
		if (ret == LZMA_STREAM_END)
			break;
		if (ret != LZMA_OK && ret != LZMA_BUF_ERROR)
			goto fail;
		if (strm.avail_out)
			goto fail;	/* input ended early */
		if (cap >= limit)
			goto fail;
		buf = xrealloc(buf, cap * 2);
		strm.next_out = buf + cap;
		strm.avail_out = cap;
		cap *= 2;
	}
	lzma_end(&strm);
	/* the embedded file has no build-id note: do not check one */
	memcpy(saved, dso->build_id, sizeof(saved));
	dso->build_id_size = 0;
	ret = symsrc_open_memory(out, dso, buf, strm.total_out, 1) ? LZMA_DATA_ERROR : LZMA_OK;
	dso->build_id_size = saved_size;
	memcpy(dso->build_id, saved, sizeof(saved));
	if (ret == LZMA_OK && !out->symtab) {
		symsrc_close(out);
		return -1;
	}
	return ret == LZMA_OK ? 0 : -1;
fail:
	lzma_end(&strm);
	free(buf);
	return -1;
}

/* ---- candidates -------------------------------------------------------- */

/* symfs + path in buf (PATHBUF bytes); NULL when it does not fit. */
static const char *symfs_join(struct dso_table *t, char *buf, const char *path)
{
	if (snprintf(buf, PATHBUF, "%s%s", t->opts.symfs ? t->opts.symfs : "", path) >= PATHBUF)
		return NULL;
	return buf;
}

/* The .gnu_debuglink name of the ELF file at path, or 0. */
static int read_debuglink(const char *path, char *out, size_t size)
{
	struct symsrc ss = { .fd = -1 };
	struct dso none = { 0 };
	GElf_Shdr shdr;
	Elf_Scn *scn;
	Elf_Data *data;
	int ok = 0;

	if (symsrc_open(&ss, &none, path))
		return 0;
	scn = section_by_name(ss.elf, &ss.ehdr, ".gnu_debuglink", &shdr, NULL);
	if (scn && (data = elf_getdata(scn, NULL)) && data->d_size) {
		size_t n = strnlen(data->d_buf, data->d_size);

		if (n && n < size) {
			memcpy(out, data->d_buf, n);
			out[n] = 0;
			ok = 1;
		}
	}
	symsrc_close(&ss);
	return ok;
}

static void build_id_hex(const struct dso *dso, char *hex)
{
	for (int i = 0; i < dso->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", dso->build_id[i]);
	hex[2 * dso->build_id_size] = 0;
}

enum { MAX_CANDIDATES = 12 };

/* perf's binary_type_symtab order for a user dso, as paths. */
static int candidate_paths(struct dso_table *t, struct dso *dso, char paths[][PATHBUF])
{
	const char *home = getenv("HOME");
	const char *ln = dso->long_name;
	const char *symfs = t->opts.symfs ? t->opts.symfs : "";
	char hex[2 * DSO_BUILD_ID_MAX + 1], file[PATHBUF], link[PATHBUF];
	int n = 0;

	if (dso->kind != DSO_KIND_VDSO) {
		/* DEBUGLINK */
		if (symfs_join(t, file, ln) && is_regular_file(file) && read_debuglink(file, link, sizeof(link))) {
			char dir[PATHBUF];
			const char *slash = strrchr(file, '/');
			size_t dl = slash ? (size_t)(slash - file) : 0;
			char try[4][PATHBUF];

			memcpy(dir, file, dl);
			dir[dl] = 0;
			int ok[4];

			ok[0] = snprintf(try[0], PATHBUF, "%s", link) < PATHBUF;
			ok[1] = snprintf(try[1], PATHBUF, "%s/%s", dir, link) < PATHBUF;
			ok[2] = snprintf(try[2], PATHBUF, "%s/.debug/%s", dir, link) < PATHBUF;
			ok[3] = snprintf(try[3], PATHBUF, "/usr/lib/debug%s/%s", dir, link) < PATHBUF;
			for (int i = 0; i < 4; i++)
				if (ok[i] && is_regular_file(try[i])) {
					memcpy(paths[n++], try[i], PATHBUF);
					break;
				}
		}
	}
	if (dso->build_id_size && home) {
		build_id_hex(dso, hex);
		/* BUILD_ID_CACHE, BUILD_ID_CACHE_DEBUGINFO */
		if (snprintf(link, sizeof(link), "%s/.debug/.build-id/%.2s/%s", home, hex,
			     hex + 2) < PATHBUF - 8) {
			n += snprintf(paths[n], PATHBUF, "%s/%s", link,
				      dso->kind == DSO_KIND_VDSO ? "vdso" : "elf") < PATHBUF;
			n += snprintf(paths[n], PATHBUF, "%s/debug", link) < PATHBUF;
		}
	}
	if (dso->kind == DSO_KIND_VDSO)
		return n;
	/* FEDORA, UBUNTU */
	n += snprintf(paths[n], PATHBUF, "%s/usr/lib/debug%s.debug", symfs, ln) < PATHBUF;
	n += snprintf(paths[n], PATHBUF, "%s/usr/lib/debug%s", symfs, ln) < PATHBUF;
	if (dso->build_id_size) {
		build_id_hex(dso, hex);
		n += snprintf(paths[n], PATHBUF, "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			      symfs, hex, hex + 2) < PATHBUF;
	}
	/* SYSTEM_PATH_DSO */
	n += snprintf(paths[n], PATHBUF, "%s%s", symfs, ln) < PATHBUF;
	return n;
}

const void *elf_own_vdso(size_t *size)
{
	const u8 *base = (const u8 *)getauxval(AT_SYSINFO_EHDR);
	FILE *fp;
	char line[256];

	*size = 0;
	if (!base)
		return NULL;
	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long lo, hi;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 &&
		    lo == (unsigned long)base) {
			*size = hi - lo;
			break;
		}
	}
	fclose(fp);
	return *size ? base : NULL;
}

int elf_load_dso(struct dso_table *t, struct dso *dso, struct symtree *st)
{
	char paths[MAX_CANDIDATES][PATHBUF];	/* 48 KiB, on the loading thread's stack */
	struct symsrc ss[3], *syms = NULL, *runtime = NULL, mini;
	int nr_paths, used = 0, count;
	char file[PATHBUF];

	if (!libelf_ready())
		return 0;
	if (dso->kind == DSO_KIND_KERNEL) {
		/* -k vmlinux: its symbols, absolute */
		if (symsrc_open(&ss[0], dso, t->opts.vmlinux))
			return 0;
		syms = runtime = &ss[0];
		count = load_symbols(t, dso, syms, runtime, st);
		symsrc_close(&ss[0]);
		return count;
	}
	if (!dso->build_id_size && dso->kind == DSO_KIND_USER) {
		u8 bid[DSO_BUILD_ID_MAX];
		int n;

		n = symfs_join(t, file, dso->long_name) ? elf_file_build_id(file, bid, sizeof(bid)) : 0;
		if (n > 0)
			dso_set_build_id(dso, bid, n);
	}
	dso->symsrc_path = NULL;
	nr_paths = candidate_paths(t, dso, paths);
	for (int i = 0; i < nr_paths && !(syms && runtime); i++) {
		struct symsrc *cur = &ss[used];
		int keep = 0;

		if (symsrc_open(cur, dso, paths[i]))
			continue;
		if (!syms && cur->symtab) {
			syms = cur, keep = 1;
			dso->symsrc_path = arena_strdup(&t->sym_arena, paths[i]);
		}
		if (!runtime && cur->dynsym)
			runtime = cur, keep = 1;
		if (keep)
			used++;
		else
			symsrc_close(cur);
	}
	if (dso->kind == DSO_KIND_VDSO && !syms && !runtime) {
		size_t size;
		const void *image = elf_own_vdso(&size);

		if (image && !symsrc_open_memory(&ss[used], dso, (void *)image, size, 0)) {
			syms = runtime = &ss[used];
			used++;
		}
	}
	if (!syms && !runtime)
		return 0;
	if (!syms)
		syms = runtime;
	if (!runtime)
		runtime = syms;
	if (!syms->symtab && t->opts.minidebuginfo && !open_minidebuginfo(&mini, dso, runtime)) {
		count = load_symbols(t, dso, &mini, runtime, st);
		symsrc_close(&mini);
	} else {
		count = load_symbols(t, dso, syms, runtime, st);
	}
	if (count > 0)
		count += synthesize_plt(t, runtime, st);
	for (int i = 0; i < used; i++)
		symsrc_close(&ss[i]);
	return count;
}

int elf_load_memory(struct dso_table *t, struct dso *dso, const void *image, size_t size,
		    struct symtree *st)
{
	struct symsrc ss;
	int count;

	if (!libelf_ready() || symsrc_open_memory(&ss, dso, (void *)image, size, 0))
		return 0;
	count = load_symbols(t, dso, &ss, &ss, st);
	if (count > 0)
		count += synthesize_plt(t, &ss, st);
	symsrc_close(&ss);
	return count;
}

int elf_file_build_id(const char *path, u8 *bid, size_t max)
{
	struct symsrc ss;
	struct dso none = { 0 };
	int n;

	if (!libelf_ready() || symsrc_open(&ss, &none, path))
		return 0;
	n = elf_build_id(ss.elf, bid, max);
	symsrc_close(&ss);
	return n;
}

int elf_memory_build_id(const void *image, size_t size, u8 *bid, size_t max)
{
	Elf *elf;
	int n;

	if (!libelf_ready() || !(elf = elf_memory((char *)image, size)))
		return 0;
	n = elf_kind(elf) == ELF_K_ELF ? elf_build_id(elf, bid, max) : 0;
	elf_end(elf);
	return n;
}
