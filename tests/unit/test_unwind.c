/*
 * test_unwind.c - cmocka tests for src/symbol/unwind: this test program
 * unwinds its own stack.  A chain of non-inlined functions takes its
 * registers (rip, rsp, rbp) and a copy of its stack as perf would record
 * them, and unwind_user() must find the return addresses the compiler
 * reports (__builtin_return_address), from the binary's own .eh_frame and
 * libc's; a copy too short for the outer frames ends the walk cleanly.
 * The same from inside a signal handler (raise()): the walk must step
 * through glibc's __restore_rt (an 'S' FDE whose rules are DWARF
 * expressions over the saved ucontext) back into the code that raised it.
 * And through a trampoline whose CFA is in %rbx, from a callee that has
 * not saved %rbx yet (glibc's lazy binding).
 *
 * The maps come from /proc/self/maps; the dsos are made in a dso_table as
 * the session makes them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/symbol.h"
#include "symbol/unwind.h"
#include "util/arena.h"

#define STACK_COPY 8192

/* One file mapping of this process. */
struct self_map {
	u64 start, end, pgoff;
	struct dso *dso;
};

static struct self_map maps[64];
static int nr_maps;
static u64 stack_end;		/* the end of the [stack] map */

/* The registers and stack of a capture point, as perf records them. */
static struct {
	u64 regs[3];		/* perf order for mask bits 6-8: bp, sp, ip */
	u8 stack[STACK_COPY];
	u64 size;		/* bytes copied: up to the stack's end */
	u64 ret[3];		/* the return addresses of the three frames */
} snap;

static void read_maps(struct dso_table *t)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[512], path[400];

	assert_non_null(fp);
	nr_maps = 0;
	while (fgets(line, sizeof(line), fp) && nr_maps < 64) {
		unsigned long lo, hi, off;

		path[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %399s", &lo, &hi, &off, path) < 3)
			continue;
		maps[nr_maps].start = lo;
		maps[nr_maps].end = hi;
		maps[nr_maps].pgoff = off;
		maps[nr_maps].dso = path[0] == '/' ? dso_table_findnew(t, path, DSO_KIND_USER) : NULL;
		nr_maps++;
	}
	fclose(fp);
}

static int find_map(void *arg, u64 pc, struct dso **dso, u64 *dso_addr, u64 *base)
{
	(void)arg;
	for (int i = 0; i < nr_maps; i++) {
		if (pc < maps[i].start || pc >= maps[i].end)
			continue;
		*dso = maps[i].dso;
		*dso_addr = pc - maps[i].start + maps[i].pgoff;
		*base = maps[i].start;
		for (int j = 0; j < i; j++)
			if (maps[j].dso == maps[i].dso) {
				*base = maps[j].start;
				break;
			}
		return 0;
	}
	return -1;
}

__attribute__((noinline)) static void capture(void)
{
	u64 ip, sp, bp;

	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(ip), "=r"(sp), "=r"(bp));
	snap.regs[0] = bp;
	snap.regs[1] = sp;
	snap.regs[2] = ip;
	snap.size = stack_end - sp < STACK_COPY ? stack_end - sp : STACK_COPY;
	memcpy(snap.stack, (const void *)(uintptr_t)sp, snap.size);
	snap.ret[0] = (u64)(uintptr_t)__builtin_return_address(0);
}

__attribute__((noinline)) static void middle(int n)
{
	volatile char pad[64];

	pad[n & 63] = 1;
	capture();
	snap.ret[1] = (u64)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
	(void)pad;
}

__attribute__((noinline)) static void outer(int n)
{
	middle(n + 1);
	snap.ret[2] = (u64)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

static u64 raiser_ret;

static void on_signal(int sig)
{
	(void)sig;
	capture();
}

__attribute__((noinline)) static void raiser(void)
{
	raise(SIGUSR1);
	raiser_ret = (u64)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

static void test_unwind_signal(void **state)
{
	struct arena arena;
	struct dso_table t;
	struct symbol_opts opts = { 0 };
	struct sigaction sa, old;
	u64 ips[32];
	int n, found = 0;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	raiser();
	sigaction(SIGUSR1, &old, NULL);
	arena_init(&arena, 0);
	dso_table_init(&t, &arena, &opts);
	read_maps(&t);
	struct unwind_input in = {
		.regs_mask = 7ull << 6,
		.regs = (const u8 *)snap.regs,
		.stack = snap.stack,
		.stack_size = snap.size,
	};

	n = unwind_user(&t, &in, find_map, NULL, ips, 32);
	assert_true(n >= 4);
	assert_int_equal(ips[1], snap.ret[0] - 1);
	/* past the handler, the signal frame and raise(): raiser's caller */
	for (int i = 3; i < n; i++)
		found |= ips[i] == raiser_ret - 1;
	assert_true(found);
	dso_table_exit(&t);
	arena_free(&arena);
}

static void test_unwind_self(void **state)
{
	struct arena arena;
	struct dso_table t;
	struct symbol_opts opts = { 0 };
	u64 ips[16];
	int n;

	(void)state;
	outer(3);
	arena_init(&arena, 0);
	dso_table_init(&t, &arena, &opts);
	read_maps(&t);
	struct unwind_input in = {
		.regs_mask = 7ull << 6,
		.regs = (const u8 *)snap.regs,
		.stack = snap.stack,
		.stack_size = snap.size,
	};

	n = unwind_user(&t, &in, find_map, NULL, ips, 16);
	assert_true(n >= 4);
	assert_int_equal(ips[0], snap.regs[2]);
	/* callers: return address minus 1 */
	assert_int_equal(ips[1], snap.ret[0] - 1);
	assert_int_equal(ips[2], snap.ret[1] - 1);
	assert_int_equal(ips[3], snap.ret[2] - 1);

	/* max bounds the walk */
	assert_int_equal(unwind_user(&t, &in, find_map, NULL, ips, 2), 2);

	/* a copy that ends inside middle's frame: the walk stops after it
	 * (a word past the copy reads as nothing: no map here holds it) */
	for (int i = 0; i < nr_maps; i++)
		if (maps[i].dso == NULL)
			maps[i].end = maps[i].start;	/* no anonymous maps */
	in.stack_size = 64;
	n = unwind_user(&t, &in, find_map, NULL, ips, 16);
	assert_true(n >= 1 && n <= 3);
	assert_int_equal(ips[0], snap.regs[2]);

	/* no ip or sp: nothing */
	in.regs_mask = 1ull << 6;
	assert_int_equal(unwind_user(&t, &in, find_map, NULL, ips, 16), 0);

	dso_table_exit(&t);
	arena_free(&arena);
}

/*
 * A trampoline that keeps its CFA in %rbx over a realigned stack, as
 * glibc's _dl_runtime_resolve_xsavec does, calling a function that takes
 * its registers and stack at its first instructions, before its CFI says
 * anything of %rbx.  %rbx there is the trampoline's (libunwind's "same
 * value" for a register no rule names), so the walk goes on through the
 * trampoline to its caller.
 */
void test_unwind_rbx_copy(u64 sp);
void test_unwind_rbx_tramp(void);
u64 test_unwind_rbx_regs[5];	/* bx, bp, sp, ip (perf order), the
				   trampoline's return address */

void test_unwind_rbx_copy(u64 sp)
{
	snap.size = stack_end - sp < STACK_COPY ? stack_end - sp : STACK_COPY;
	memcpy(snap.stack, (const void *)(uintptr_t)sp, snap.size);
}

__asm__(".text\n"
	"test_unwind_rbx_inner:\n"
	"	.cfi_startproc\n"
	"	mov %rbx, test_unwind_rbx_regs(%rip)\n"
	"	mov %rbp, test_unwind_rbx_regs+8(%rip)\n"
	"	mov %rsp, test_unwind_rbx_regs+16(%rip)\n"
	"	lea 0(%rip), %rax\n"
	"	mov %rax, test_unwind_rbx_regs+24(%rip)\n"
	"	mov 8(%rbx), %rax\n"
	"	mov %rax, test_unwind_rbx_regs+32(%rip)\n"
	"	mov %rsp, %rdi\n"
	"	sub $8, %rsp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	call test_unwind_rbx_copy\n"
	"	add $8, %rsp\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".globl test_unwind_rbx_tramp\n"
	"test_unwind_rbx_tramp:\n"
	"	.cfi_startproc\n"
	"	push %rbx\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	"	mov %rsp, %rbx\n"
	"	.cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	call test_unwind_rbx_inner\n"
	"test_unwind_rbx_back:\n"
	"	mov %rbx, %rsp\n"
	"	.cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n");

static void test_unwind_rbx_cfa(void **state)
{
	struct arena arena;
	struct dso_table t;
	struct symbol_opts opts = { 0 };
	u64 ips[16], back;
	int n;

	(void)state;
	test_unwind_rbx_tramp();
	__asm__("lea test_unwind_rbx_back(%%rip), %0" : "=r"(back));
	arena_init(&arena, 0);
	dso_table_init(&t, &arena, &opts);
	read_maps(&t);
	struct unwind_input in = {
		.regs_mask = 1ull << 1 | 7ull << 6,
		.regs = (const u8 *)test_unwind_rbx_regs,
		.stack = snap.stack,
		.stack_size = snap.size,
	};

	n = unwind_user(&t, &in, find_map, NULL, ips, 16);
	assert_true(n >= 4);
	assert_int_equal(ips[0], test_unwind_rbx_regs[3]);
	assert_int_equal(ips[1], back - 1);
	/* past the trampoline: its caller, here */
	assert_int_equal(ips[2], test_unwind_rbx_regs[4] - 1);
	dso_table_exit(&t);
	arena_free(&arena);
}

int main(void)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[512];

	/* a copy of STACK_COPY bytes from sp may run past the stack's end */
	while (fp && fgets(line, sizeof(line), fp)) {
		unsigned long lo, hi;

		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			stack_end = hi;
	}
	if (fp)
		fclose(fp);

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unwind_self),
		cmocka_unit_test(test_unwind_signal),
		cmocka_unit_test(test_unwind_rbx_cfa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
