/*
 * unwind.c - per-dso CFI tables and the stepping of dwarf user stacks
 * (see unwind.h for the invariants).
 *
 * A table lists the FDEs of the dso's .eh_frame as .eh_frame_hdr sorts
 * them (ELF virtual addresses); an FDE's rows are compiled on its first
 * lookup by asking libdw for the frame at each row start in turn.  Rows
 * are looked up at the virtual address perf computes for a pc (from the
 * lowest map of the dso, see unwind.h).  Stepping replays libunwind's
 * x86_64 unw_step() as perf 6.1 drives it: CFI when a row is found, else
 * the PLT and frame-pointer fallbacks; memory reads as perf's access_mem().
 * Expressions in rows are copied into the table's op array when the FDE
 * is compiled and run by a fixed-stack evaluator when stepped.
 */
#include "unwind.h"
#include "symbol_int.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR_REGS 17		/* DWARF x86_64: 16 GPRs and rip */
#define REG_RBP 6
#define REG_RSP 7
#define REG_RIP 16
#define MAX_ROWS_PER_FDE 65536
#define MAX_EXPR_OPS 64		/* longer CFI expressions are not evaluated */
#define EXPR_STACK 64		/* DWARF expression stack entries */
#define EXPR_STEPS 1024		/* operations one evaluation may execute */
#define EXPR_MEMO 256		/* interned expressions found by content */

enum rule_kind {
	RULE_UNDEF,		/* not recoverable */
	RULE_SAME,		/* the callee's value */
	RULE_OFFSET,		/* saved at CFA + off */
	RULE_VAL_OFFSET,	/* is CFA + off */
	RULE_REGISTER,		/* in register off */
	RULE_EXPR,		/* saved at the value of expression off */
	RULE_VAL_EXPR,		/* is the value of expression off */
	RULE_UNSUPPORTED,	/* an expression prof cannot evaluate */
};

enum cfa_kind {
	CFA_NONE,		/* unsupported: the walk ends */
	CFA_REG,		/* reg + off */
	CFA_EXPR,		/* the value of expression off */
};

/* The unwind rules from one pc on.  An expression is named by the index
 * of its first operation in the table's ops. */
struct cfi_row {
	u64 start;		/* virtual address */
	s32 cfa_off;
	u8 cfa_kind, cfa_reg;
	u8 signal;		/* an 'S' FDE (signal trampoline) */
	u8 kind[NR_REGS];
	s32 off[NR_REGS];
};

/* One operation of a CFI expression as libdw decodes it; an expression
 * ends at an operation whose atom is 0 (no DW_OP has that value). */
struct cfi_op {
	u8 atom;
	u32 offset;		/* its byte offset in the expression */
	u64 number, number2;
};

/* One FDE: [start, end) once compiled. */
struct cfi_fde {
	u64 start, end;
	struct cfi_row *rows;	/* sorted by start */
	u32 nr_rows;
	u8 compiled;
};

struct unwind_table {
	int fd;
	Elf *elf;
	Dwarf_CFI *cfi;		/* NULL: no FDE can be found */
	int is_elf;		/* the file could be read as an ELF file */
	int has_hdr;		/* .eh_frame_hdr was found: a pc no FDE
				   covers is stepped by frame pointer */
	u64 elf_base;		/* first PT_LOAD's p_vaddr, page aligned */
	const u8 *image;	/* the file's bytes (code reads), or NULL */
	size_t image_size;
	struct cfi_fde *fdes;	/* sorted by start */
	u32 nr_fdes;
	struct cfi_op *ops;	/* the rows' expressions, each ended by atom 0 */
	u32 nr_ops, ops_alloc;
	s32 *memo;		/* EXPR_MEMO indices in ops (-1: none) by a
				   hash of the content: the rows of an FDE
				   share one copy of an expression */
};

/* ---- building ------------------------------------------------------------ */

/*
 * The FDE starts listed by .eh_frame_hdr (version 1, a udata4/sdata4 count
 * and a datarel sdata4 table: what every toolchain writes).
 */
static void read_eh_frame_hdr(struct unwind_table *u, const GElf_Ehdr *ehdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(u->elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(u->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		const u8 *p;
		u64 count, skip;
		u32 count32;
		s32 v;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(u->elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".eh_frame_hdr"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size < 12 || ehdr->e_ident[EI_DATA] != ELFDATA2LSB)
			return;
		p = d->d_buf;
		/* version, eh_frame_ptr_enc, fde_count_enc, table_enc */
		if (p[0] != 1 || p[3] != 0x3b || ((p[2] & 0x0f) != 0x03 && (p[2] & 0x0f) != 0x0b))
			return;
		if ((p[1] & 0x0f) == 0x03 || (p[1] & 0x0f) == 0x0b)
			skip = 4;
		else if ((p[1] & 0x0f) == 0x04 || (p[1] & 0x0f) == 0x0c)
			skip = 8;
		else
			return;
		if (4 + skip + 4 > d->d_size)
			return;
		memcpy(&count32, p + 4 + skip, 4);
		count = count32;
		p += 8 + skip;
		if (count > (d->d_size - 8 - skip) / 8)
			return;
		u->fdes = xcalloc(count ? count : 1, sizeof(*u->fdes));
		for (u64 i = 0; i < count; i++) {
			memcpy(&v, p + 8 * i, 4);
			u->fdes[i].start = sh.sh_addr + (s64)v;
		}
		u->nr_fdes = (u32)count;
		u->has_hdr = 1;
		return;
	}
}

/* Opens the dso's ELF file (or the vdso image) for its CFI. */
static struct unwind_table *table_open(struct dso_table *t, struct dso *dso)
{
	struct unwind_table *u = xcalloc(1, sizeof(*u));
	GElf_Ehdr ehdr;
	size_t nph;

	u->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return u;
	if (dso->kind == DSO_KIND_VDSO) {
		size_t size;
		const void *image = elf_own_vdso(&size);

		if (image)
			u->elf = elf_memory((char *)image, size);
	} else if (dso->kind == DSO_KIND_USER) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s%s", t->opts.symfs ? t->opts.symfs : "",
			     dso->long_name) < (int)sizeof(path) &&
		    (u->fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
			u->elf = elf_begin(u->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!u->elf || !gelf_getehdr(u->elf, &ehdr))
		return u;
	/* perf reads a vdso from its build-id cache: the running one only
	 * when the build-ids match */
	u->is_elf = dso->kind != DSO_KIND_VDSO || elf_handle_build_id_ok(u->elf, dso);
	if (ehdr.e_machine != EM_X86_64 || !elf_handle_build_id_ok(u->elf, dso))
		return u;
	if (elf_getphdrnum(u->elf, &nph))
		return u;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(u->elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			u->elf_base = ph.p_vaddr & ~(u64)4095;
			break;
		}
	}
	u->image = (const u8 *)elf_rawfile(u->elf, &u->image_size);
	read_eh_frame_hdr(u, &ehdr);
	if (u->nr_fdes)
		u->cfi = dwarf_getcfi_elf(u->elf);
	return u;
}

/* Whether the evaluator knows op (libunwind's set, and libdw's
 * DW_OP_call_frame_cfa). */
static int op_supported(u8 atom)
{
	switch (atom) {
	case DW_OP_addr: case DW_OP_deref: case DW_OP_deref_size:
	case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u: case DW_OP_const2s:
	case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
	case DW_OP_constu: case DW_OP_consts:
	case DW_OP_dup: case DW_OP_drop: case DW_OP_over: case DW_OP_pick:
	case DW_OP_swap: case DW_OP_rot:
	case DW_OP_abs: case DW_OP_and: case DW_OP_div: case DW_OP_minus: case DW_OP_mod:
	case DW_OP_mul: case DW_OP_neg: case DW_OP_not: case DW_OP_or: case DW_OP_plus:
	case DW_OP_plus_uconst: case DW_OP_shl: case DW_OP_shr: case DW_OP_shra:
	case DW_OP_xor: case DW_OP_eq: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
	case DW_OP_lt: case DW_OP_ne: case DW_OP_skip: case DW_OP_bra: case DW_OP_nop:
	case DW_OP_bregx: case DW_OP_call_frame_cfa:
		return 1;
	default:
		return (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) ||
		       (atom >= DW_OP_breg0 && atom <= DW_OP_breg31);
	}
}

/* Whether the interned expression at first is ops[0..n). */
static int expr_equal(const struct unwind_table *u, u32 first, const Dwarf_Op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct cfi_op *o = &u->ops[first + i];

		if (!o->atom || o->atom != ops[i].atom || o->offset != ops[i].offset ||
		    o->number != ops[i].number || o->number2 != ops[i].number2)
			return 0;
	}
	return !u->ops[first + n].atom;
}

/*
 * Copies an expression into the table's ops, or finds the copy an
 * earlier row made (each row of an FDE repeats the rules in force);
 * its index, or -1 when the evaluator cannot run it.
 */
static s32 intern_expr(struct unwind_table *u, const Dwarf_Op *ops, size_t n)
{
	u32 first = u->nr_ops;
	u64 h = n;
	s32 *slot;

	if (!n || n > MAX_EXPR_OPS || u->nr_ops > (u32)INT32_MAX - MAX_EXPR_OPS - 1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!op_supported(ops[i].atom))
			return -1;
		h = hash_u64(h ^ ops[i].atom ^ ops[i].number ^ ops[i].number2 << 7);
	}
	if (!u->memo) {
		u->memo = xmalloc(EXPR_MEMO * sizeof(*u->memo));
		for (int i = 0; i < EXPR_MEMO; i++)
			u->memo[i] = -1;
	}
	slot = &u->memo[h % EXPR_MEMO];
	if (*slot >= 0 && expr_equal(u, (u32)*slot, ops, n))
		return *slot;
	*slot = (s32)first;
	if (u->nr_ops + n + 1 > u->ops_alloc) {
		while (u->nr_ops + n + 1 > u->ops_alloc)
			u->ops_alloc = u->ops_alloc ? 2 * u->ops_alloc : 64;
		u->ops = xrealloc(u->ops, u->ops_alloc * sizeof(*u->ops));
	}
	for (size_t i = 0; i < n; i++)
		u->ops[u->nr_ops++] = (struct cfi_op){ ops[i].atom, (u32)ops[i].offset,
						      ops[i].number, ops[i].number2 };
	u->ops[u->nr_ops++] = (struct cfi_op){ 0 };
	return (s32)first;
}

/*
 * A register rule from libdw's location description: libdw gives an
 * offset rule as DW_OP_call_frame_cfa [DW_OP_plus_uconst N], an
 * expression as DW_OP_call_frame_cfa then the expression, a value
 * expression the same with DW_OP_stack_value after it.
 */
static void take_register(struct unwind_table *u, Dwarf_Frame *fr, int reg, struct cfi_row *row)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	s32 expr;

	row->kind[reg] = RULE_UNSUPPORTED;
	row->off[reg] = 0;
	if (dwarf_frame_register(fr, reg, mem, &ops, &nops))
		return;
	if (nops == 0) {
		/* libdw also says "undefined" for a register no rule names,
		   after its own x86_64 defaults, which leave %rbx out: a CFA
		   kept in %rbx (glibc's _dl_runtime_resolve) would be lost
		   below a callee's prologue.  libunwind, perf's unwinder,
		   takes every such register as "same value", and an
		   undefined return address as the chain's end.  (An explicit
		   undefined on another register, which compilers do not
		   emit, reads as "same value" here too.) */
		row->kind[reg] = ops && reg == REG_RIP ? RULE_UNDEF : RULE_SAME;
		return;
	}
	if (ops[0].atom == DW_OP_regx && nops == 1 && ops[0].number < NR_REGS) {
		row->kind[reg] = RULE_REGISTER;
		row->off[reg] = (s32)ops[0].number;
		return;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return;
	if (nops == 1 || (nops == 2 && ops[1].atom == DW_OP_plus_uconst &&
			  (s64)ops[1].number == (s32)ops[1].number)) {
		row->kind[reg] = RULE_OFFSET;
		row->off[reg] = nops == 2 ? (s32)ops[1].number : 0;
		return;
	}
	if (nops == 3 && ops[1].atom == DW_OP_plus_uconst &&
	    (s64)ops[1].number == (s32)ops[1].number && ops[2].atom == DW_OP_stack_value) {
		row->kind[reg] = RULE_VAL_OFFSET;
		row->off[reg] = (s32)ops[1].number;
		return;
	}
	if (ops[nops - 1].atom == DW_OP_stack_value) {
		if ((expr = intern_expr(u, ops, nops - 1)) >= 0) {
			row->kind[reg] = RULE_VAL_EXPR;
			row->off[reg] = expr;
		}
	} else if ((expr = intern_expr(u, ops, nops)) >= 0) {
		row->kind[reg] = RULE_EXPR;
		row->off[reg] = expr;
	}
}

/* The CFA rule: a register plus offset, or an expression. */
static void take_cfa(struct unwind_table *u, Dwarf_Frame *fr, struct cfi_row *row)
{
	Dwarf_Op *ops;
	size_t n;
	s32 expr;

	row->cfa_kind = CFA_NONE;
	if (dwarf_frame_cfa(fr, &ops, &n) || !n)
		return;
	if (n == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < NR_REGS &&
	    (s64)ops[0].number2 == (s32)ops[0].number2) {
		row->cfa_kind = CFA_REG;
		row->cfa_reg = (u8)ops[0].number;
		row->cfa_off = (s32)ops[0].number2;
		return;
	}
	if (n == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg16 &&
	    (s64)ops[0].number == (s32)ops[0].number) {
		row->cfa_kind = CFA_REG;
		row->cfa_reg = (u8)(ops[0].atom - DW_OP_breg0);
		row->cfa_off = (s32)ops[0].number;
		return;
	}
	if ((expr = intern_expr(u, ops, n)) >= 0) {
		row->cfa_kind = CFA_EXPR;
		row->cfa_off = expr;
	}
}

/* Compiles the rows of FDE i. */
static void compile_fde(struct unwind_table *u, u32 i)
{
	struct cfi_fde *f = &u->fdes[i];
	u64 limit = i + 1 < u->nr_fdes ? u->fdes[i + 1].start : ~0ull;
	u64 pc = f->start;
	u32 alloc = 0;

	f->compiled = 1;
	f->end = f->start;
	while (pc < limit && f->nr_rows < MAX_ROWS_PER_FDE) {
		Dwarf_Frame *fr;
		Dwarf_Addr start, end;
		bool signal;
		struct cfi_row *row;

		if (dwarf_cfi_addrframe(u->cfi, pc, &fr))
			break;
		if (dwarf_frame_info(fr, &start, &end, &signal) < 0 || end <= pc || start > pc) {
			free(fr);
			break;
		}
		if (f->nr_rows == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			f->rows = xrealloc(f->rows, alloc * sizeof(*f->rows));
		}
		row = &f->rows[f->nr_rows++];
		memset(row, 0, sizeof(*row));
		row->start = pc;
		row->signal = signal;
		take_cfa(u, fr, row);
		for (int r = 0; r < NR_REGS; r++)
			take_register(u, fr, r, row);
		free(fr);
		pc = end;
	}
	f->end = pc;
}

/* The row for a virtual address of the file, or NULL (no FDE has it). */
static const struct cfi_row *find_row(struct unwind_table *u, u64 pc)
{
	u32 lo, hi;

	if (!u->cfi)
		return NULL;
	lo = 0;
	hi = u->nr_fdes;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (u->fdes[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	struct cfi_fde *f = &u->fdes[lo - 1];

	if (!f->compiled)
		compile_fde(u, lo - 1);
	if (pc >= f->end || !f->nr_rows)
		return NULL;
	lo = 0;
	hi = f->nr_rows;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (f->rows[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &f->rows[lo - 1] : NULL;
}

static struct unwind_table *dso_unwind_table(struct dso_table *t, struct dso *dso)
{
	if (!dso->unwind)
		dso->unwind = table_open(t, dso);
	return dso->unwind;
}

int unwind_dso_is_elf(struct dso_table *t, struct dso *dso)
{
	return dso && (dso->kind == DSO_KIND_USER || dso->kind == DSO_KIND_VDSO) &&
	       dso_unwind_table(t, dso)->is_elf;
}

void unwind_table_free(struct unwind_table *u)
{
	if (!u)
		return;
	for (u32 i = 0; i < u->nr_fdes; i++)
		free(u->fdes[i].rows);
	free(u->fdes);
	free(u->ops);
	free(u->memo);
	if (u->cfi)
		dwarf_cfi_end(u->cfi);
	if (u->elf)
		elf_end(u->elf);
	if (u->fd >= 0)
		close(u->fd);
	free(u);
}

/* ---- stepping ------------------------------------------------------------ */

/* perf's x86 register order (PERF_REG_X86_*) -> DWARF numbers; -1: none */
static const signed char perf_to_dwarf[24] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, -1, -1, -1, -1, -1, -1, -1,
	8, 9, 10, 11, 12, 13, 14, 15,
};

/*
 * One frame as libunwind's cursor holds it: a register is "located" when
 * its location is known (libunwind's loc is not NULL) and "valid" when its
 * value could also be read; rsp is the CFA.
 */
struct frame {
	u64 v[NR_REGS];
	u32 valid, located;
	u64 cfa, ip;
	int prev_instr;		/* look callers up at ip - 1 */
};

/* What a walk reads memory through. */
struct walk {
	struct dso_table *t;
	const struct unwind_input *in;
	u64 sp0;		/* the sample's sp: where the copy starts */
	unwind_find_fn find;
	void *arg;
};

static struct unwind_table *dso_unwind_table(struct dso_table *t, struct dso *dso);

/*
 * Reads the word at addr as perf's access_mem() does for libunwind: from
 * the stack copy when it holds addr and the 8 bytes after (its check has
 * that off-by-one); else from the file of the map holding addr, 0 when
 * that cannot be read (an anonymous map such as the rest of the stack: a
 * read that succeeds with 0); an error (-1) only when no map holds addr.
 */
static int mem_read(const struct walk *w, u64 addr, u64 *val)
{
	const struct unwind_input *in = w->in;
	struct dso *dso;
	u64 off, base;
	struct unwind_table *u;

	if (addr >= w->sp0 && addr - w->sp0 < in->stack_size && in->stack_size - (addr - w->sp0) > 8) {
		memcpy(val, in->stack + (addr - w->sp0), 8);
		return 0;
	}
	if (addr + 8 < addr || w->find(w->arg, addr, &dso, &off, &base) || !dso)
		return -1;
	*val = 0;
	u = dso->kind == DSO_KIND_USER ? dso_unwind_table(w->t, dso) : NULL;
	if (u && u->image && off <= u->image_size && u->image_size - off >= 8)
		memcpy(val, u->image + off, 8);
	return 0;
}

/* The file bytes at dso address (file offset) off, or NULL. */
static const u8 *code_at(const struct unwind_table *u, u64 off, size_t len)
{
	if (!u->image || off > u->image_size || u->image_size - off < len)
		return NULL;
	return u->image + off;
}

/*
 * A register's value in frame f for an expression, as libunwind's
 * unw_get_reg() reads it: rsp is the CFA, rip the frame's ip, the others
 * must be valid.  0 or -1.
 */
static int expr_reg(const struct frame *f, u64 reg, u64 *val)
{
	if (reg == REG_RSP)
		*val = f->cfa;
	else if (reg == REG_RIP)
		*val = f->ip;
	else if (reg < NR_REGS && (f->valid & (1u << reg)))
		*val = f->v[reg];
	else
		return -1;
	return 0;
}

/*
 * Evaluates the expression at ops[first] in frame f (DW_OP_call_frame_cfa
 * pushes cfa) as libunwind's dwarf_eval_expr() does: memory is read as
 * mem_read() reads it (a DW_OP_deref_size reads the word at the address
 * and keeps its low bytes), comparisons and division are signed.  Its
 * value into *val; 0, or -1 on an error (the step fails, as in
 * libunwind).  Neither allocates nor loops for long: at most EXPR_STEPS
 * operations run.
 */
static int eval_expr(const struct walk *w, const struct cfi_op *ops, u32 first,
		     const struct frame *f, u64 cfa, u64 *val)
{
	u64 st[EXPR_STACK], a, b;
	int sp = 0;
	u32 next = first;
	const struct cfi_op *op;

#define NEED(k) do { if (sp < (k)) return -1; } while (0)
#define PUSH(x) do { if (sp == EXPR_STACK) return -1; st[sp++] = (x); } while (0)
	for (int steps = 0; (op = &ops[next++])->atom;) {
		if (++steps > EXPR_STEPS)
			return -1;
		switch (op->atom) {
		case DW_OP_call_frame_cfa:
			PUSH(cfa);
			break;
		case DW_OP_addr: case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u:
		case DW_OP_const8s: case DW_OP_constu: case DW_OP_consts:
			PUSH(op->number);
			break;
		case DW_OP_bregx:
			if (expr_reg(f, op->number, &a))
				return -1;
			PUSH(a + op->number2);
			break;
		case DW_OP_deref:
		case DW_OP_deref_size:
			NEED(1);
			if (mem_read(w, st[sp - 1], &a))
				return -1;
			if (op->atom == DW_OP_deref_size) {
				if (op->number == 0 || op->number > 8)
					return -1;
				if (op->number < 8)
					a &= (1ull << (8 * op->number)) - 1;
			}
			st[sp - 1] = a;
			break;
		case DW_OP_dup:
			NEED(1);
			a = st[sp - 1];
			PUSH(a);
			break;
		case DW_OP_drop:
			NEED(1);
			sp--;
			break;
		case DW_OP_over:
			NEED(2);
			a = st[sp - 2];
			PUSH(a);
			break;
		case DW_OP_pick:
			if (op->number >= (u64)sp)
				return -1;
			a = st[sp - 1 - (int)op->number];
			PUSH(a);
			break;
		case DW_OP_swap:
			NEED(2);
			a = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = a;
			break;
		case DW_OP_rot:
			NEED(3);
			a = st[sp - 1];
			st[sp - 1] = st[sp - 2];
			st[sp - 2] = st[sp - 3];
			st[sp - 3] = a;
			break;
		case DW_OP_abs:
			NEED(1);
			if ((s64)st[sp - 1] < 0)
				st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_neg:
			NEED(1);
			st[sp - 1] = -st[sp - 1];
			break;
		case DW_OP_not:
			NEED(1);
			st[sp - 1] = ~st[sp - 1];
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			st[sp - 1] += op->number;
			break;
		case DW_OP_skip:
		case DW_OP_bra:
			if (op->atom == DW_OP_bra) {
				NEED(1);
				if (!st[--sp])
					break;
			}
			/* libdw gives the target's byte offset; none of
			   the operations: the end */
			for (next = first; ops[next].atom && ops[next].offset != op->number; next++)
				;
			continue;
		case DW_OP_nop:
			break;
		default:
			if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
				PUSH((u64)(op->atom - DW_OP_lit0));
				break;
			}
			if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
				if (expr_reg(f, (u64)(op->atom - DW_OP_breg0), &a))
					return -1;
				PUSH(a + op->number);
				break;
			}
			NEED(2);
			b = st[--sp];
			a = st[sp - 1];
			switch (op->atom) {
			case DW_OP_and: a &= b; break;
			case DW_OP_or: a |= b; break;
			case DW_OP_xor: a ^= b; break;
			case DW_OP_plus: a += b; break;
			case DW_OP_minus: a -= b; break;
			case DW_OP_mul: a *= b; break;
			case DW_OP_div:
				if (!b || ((s64)a == INT64_MIN && (s64)b == -1))
					return -1;
				a = (u64)((s64)a / (s64)b);
				break;
			case DW_OP_mod:
				if (!b)
					return -1;
				a %= b;
				break;
			case DW_OP_shl: a = b < 64 ? a << b : 0; break;
			case DW_OP_shr: a = b < 64 ? a >> b : 0; break;
			case DW_OP_shra:
				a = (u64)((s64)a >> (b < 64 ? b : 63));
				break;
			case DW_OP_eq: a = (s64)a == (s64)b; break;
			case DW_OP_ne: a = (s64)a != (s64)b; break;
			case DW_OP_ge: a = (s64)a >= (s64)b; break;
			case DW_OP_gt: a = (s64)a > (s64)b; break;
			case DW_OP_le: a = (s64)a <= (s64)b; break;
			case DW_OP_lt: a = (s64)a < (s64)b; break;
			default:
				return -1;
			}
			st[sp - 1] = a;
		}
	}
#undef NEED
#undef PUSH
	if (!sp)
		return -1;
	*val = st[sp - 1];
	return 0;
}

/*
 * One step by the CFI row: 1 with the caller in next, 0 at the end of the
 * chain, -1 on an error (the walk ends too).
 */
static int step_cfi(const struct walk *w, const struct unwind_table *u, const struct cfi_row *row,
		    const struct frame *cur, struct frame *next)
{
	const struct cfi_op *ops = u->ops;
	u64 cfa, addr;

	if (row->cfa_kind == CFA_NONE)
		return -1;
	if (row->cfa_kind == CFA_EXPR) {
		if (eval_expr(w, ops, (u32)row->cfa_off, cur, 0, &cfa))
			return -1;
	} else if (row->cfa_reg == REG_RSP) {
		cfa = cur->cfa + (s64)row->cfa_off;
	} else if (cur->valid & (1u << row->cfa_reg)) {
		cfa = cur->v[row->cfa_reg] + (s64)row->cfa_off;
	} else {
		return -1;
	}
	next->valid = next->located = 0;
	for (int r = 0; r < NR_REGS; r++) {
		u32 bit = 1u << r;

		switch (row->kind[r]) {
		case RULE_SAME:
			next->v[r] = cur->v[r];
			next->valid |= cur->valid & bit;
			next->located |= cur->located & bit;
			break;
		case RULE_OFFSET:
			next->located |= bit;
			if (!mem_read(w, cfa + (s64)row->off[r], &next->v[r]))
				next->valid |= bit;
			break;
		case RULE_VAL_OFFSET:
			next->v[r] = cfa + (s64)row->off[r];
			next->valid |= bit;
			next->located |= bit;
			break;
		case RULE_REGISTER:
			next->v[r] = cur->v[row->off[r]];
			next->valid |= cur->valid & (1u << row->off[r]) ? bit : 0;
			next->located |= cur->located & (1u << row->off[r]) ? bit : 0;
			break;
		case RULE_EXPR:
			if (eval_expr(w, ops, (u32)row->off[r], cur, cfa, &addr))
				return -1;
			next->located |= bit;
			if (!mem_read(w, addr, &next->v[r]))
				next->valid |= bit;
			break;
		case RULE_VAL_EXPR:
			if (eval_expr(w, ops, (u32)row->off[r], cur, cfa, &next->v[r]))
				return -1;
			next->valid |= bit;
			next->located |= bit;
			break;
		case RULE_UNDEF:
			break;
		default:
			if (r == REG_RIP)
				return -1;
			break;
		}
	}
	next->cfa = cfa;
	if (!(next->located & (1u << REG_RIP)))
		return 0;
	if (!(next->valid & (1u << REG_RIP)))
		return -1;
	next->ip = next->v[REG_RIP];
	/* the x86_64 ABI: a NULL rbp location ends the chain (a zero ip
	 * does not: libunwind gives that frame, the next step fails) */
	if (!(next->located & (1u << REG_RBP)))
		return 0;
	if (next->ip == cur->ip && next->cfa == cur->cfa)
		return -1;
	return 1;
}

/*
 * libunwind's x86_64 fallback where no FDE covers ip: a PLT stub (the
 * return address on top of the stack), else the frame-pointer guess
 * (rbp must point a little above the CFA).  code is the file's bytes at
 * ip (NULL: unreadable).  Same returns as step_cfi().
 */
static int step_fallback(const struct walk *w, const u8 *code, const struct frame *cur,
			 struct frame *next)
{
	u64 rbp, rbp1;

	next->valid = next->located = 0;
	next->cfa = cur->cfa;
	/* __restore_rt: mov $15, %rax; syscall */
	if (code && !memcmp(code, "\x48\xc7\xc0\x0f\x00\x00\x00\x0f\x05", 9))
		return 0;
	if (code && code[0] == 0xff && code[1] == 0x25 && code[6] == 0x68 && code[11] == 0xe9) {
		next->v[REG_RBP] = cur->v[REG_RBP];
		next->valid = cur->valid & (1u << REG_RBP);
		next->located = cur->located & (1u << REG_RBP);
		if (mem_read(w, cur->cfa, &next->v[REG_RIP]))
			return -1;
		next->cfa += 8;
	} else {
		if (!(cur->located & (1u << REG_RBP)))
			return 0;
		if (!(cur->valid & (1u << REG_RBP)))
			return -1;
		rbp = cur->v[REG_RBP];
		if (!rbp)
			return 0;
		next->cfa += 16;
		if (mem_read(w, rbp, &rbp1) || rbp < cur->cfa || rbp - cur->cfa > 0x4000)
			return 0;
		next->v[REG_RBP] = rbp1;
		next->valid = next->located = 1u << REG_RBP;
		if (mem_read(w, rbp + 8, &next->v[REG_RIP]))
			return -1;
	}
	next->valid |= 1u << REG_RIP;
	next->located |= 1u << REG_RIP;
	next->ip = next->v[REG_RIP];
	if (next->ip == cur->ip && next->cfa == cur->cfa)
		return -1;
	return 1;
}

int unwind_user(struct dso_table *t, const struct unwind_input *in, unwind_find_fn find,
		void *arg, u64 *ips, int max)
{
	struct frame cur = { .valid = 0 }, next;
	struct walk w = { t, in, 0, find, arg };
	const u8 *p = in->regs;
	int n = 0;

	for (int bit = 0; bit < 64; bit++) {
		u64 v;

		if (!(in->regs_mask & (1ull << bit)))
			continue;
		memcpy(&v, p, 8);
		p += 8;
		if (bit < 24 && perf_to_dwarf[bit] >= 0) {
			cur.v[(int)perf_to_dwarf[bit]] = v;
			cur.valid |= 1u << perf_to_dwarf[bit];
		}
	}
	cur.located = cur.valid;
	if ((cur.valid & (1u << REG_RIP | 1u << REG_RSP)) != (1u << REG_RIP | 1u << REG_RSP) ||
	    max <= 0)
		return 0;
	w.sp0 = cur.cfa = cur.v[REG_RSP];
	cur.ip = cur.v[REG_RIP];
	ips[n++] = cur.ip;
	while (n < max) {
		struct dso *dso;
		u64 addr, base, pc = cur.ip - (cur.prev_instr ? 1 : 0);
		const struct cfi_row *row;
		struct unwind_table *u;
		int r;

		if (find(arg, pc, &dso, &addr, &base) || !dso)
			break;
		u = dso_unwind_table(t, dso);
		if (!u->has_hdr)
			break;
		row = find_row(u, pc - base + u->elf_base);
		if (row)
			r = step_cfi(&w, u, row, &cur, &next);
		else
			r = step_fallback(&w, code_at(u, addr + (cur.ip - pc), 12), &cur, &next);
		if (r <= 0)
			break;
		/* past a signal frame the ip is where the interrupted code
		 * resumes: libunwind looks it up as it is, and perf shows it
		 * as it is (unw_is_signal_frame() says the step just made
		 * went through an 'S' FDE) */
		next.prev_instr = !(row && row->signal);
		ips[n++] = next.ip - (next.prev_instr ? 1 : 0);
		cur = next;
	}
	return n;
}
