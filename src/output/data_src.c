/*
 * data_src.c - a sample's data_src word as perf 6.1's script prints it
 * (perf_script__meminfo_scnprintf() and the decoders of util/mem-events.c).
 *
 * The word (union perf_mem_data_src, little-endian bit fields):
 *
 *	bits	field		values printed
 *	0-4	mem_op		N/A, LOAD, STORE, PFETCH, EXEC (the first bit
 *				set, in that order; "No" when none)
 *	5-18	mem_lvl		HIT and MISS become " hit"/" miss" at the end;
 *				the other bits name levels, joined by " or "
 *	19-23	mem_snoop	N/A, None, Hit, Miss, HitM
 *	24-25	mem_lock	N/A, locked ("Yes"), else "No"
 *	26-32	mem_dtlb	HIT, MISS as lvl; N/A, L1, L2, Walker, Fault
 *	33-36	mem_lvl_num	a level number, after the mem_lvl names
 *	37	mem_remote	"Remote " before the levels
 *	38-39	mem_snoopx	Fwd, Peer (after the snoop names)
 *	40-42	mem_blk		N/A, Data, Addr
 *	43-45	mem_hops	replaces the mem_lvl names
 *
 * Invariant: every string written is cut to the buffer given, as perf's
 * scnprintf() cuts it (perf's buffers are 100 bytes).
 */
#include "data_src.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A string being built in a fixed buffer, cut at its end. */
struct sbuf {
	char *s;
	size_t len, size;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < b->size - b->len ? (size_t)n : b->size - b->len - 1;
}

static u64 bits(u64 v, unsigned shift, unsigned n)
{
	return (v >> shift) & ((1ULL << n) - 1);
}

static const char *const mem_lvl[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};

static const char *const mem_lvlnum[16] = {
	[0x0b] = "Any cache", [0x0c] = "LFB/MAB", [0x0d] = "RAM", [0x0e] = "PMEM",
	[0x0f] = "N/A",
};

static const char *const mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

static const char *const snoop_access[] = { "N/A", "None", "Hit", "Miss", "HitM" };

static const char *const snoopx_access[] = { "Fwd", "Peer" };

static const char *const tlb_access[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* The names of the bits set in m, from table t, joined by " or "; how
 * many were written. */
static int names(struct sbuf *b, u64 m, const char *const *t, size_t nr, int printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			sb_add(b, " or ");
		sb_add(b, "%s", t[i]);
	}
	return printed;
}

static void op(struct sbuf *b, u64 v)
{
	u64 m = bits(v, 0, 5);

	sb_add(b, "%s", m & 1 ? "N/A" : m & 2 ? "LOAD" : m & 4 ? "STORE" :
		  m & 8 ? "PFETCH" : m & 16 ? "EXEC" : "No");
}

static void lvl(struct sbuf *b, u64 v)
{
	u64 m = bits(v, 5, 14), num = bits(v, 33, 4), hops = bits(v, 43, 3);
	size_t start = b->len;
	int printed = 0;

	if (bits(v, 37, 1))
		sb_add(b, "Remote ");
	if (hops)
		/* perf's table has 5 names: glibc prints the NULL past them
		   as "(null)" */
		sb_add(b, "%s ", mem_hops[hops] ? mem_hops[hops] : "(null)");
	else
		printed = names(b, m & ~6ULL, mem_lvl, NR(mem_lvl), 0);
	if (num) {
		if (printed++)
			sb_add(b, " or ");
		if (mem_lvlnum[num])
			sb_add(b, "%s", mem_lvlnum[num]);
		else
			sb_add(b, "L%d", (int)num);
	}
	if (b->len == start)
		sb_add(b, "N/A");
	if (m & 2)
		sb_add(b, " hit");
	if (m & 4)
		sb_add(b, " miss");
}

static void snp(struct sbuf *b, u64 v)
{
	size_t start = b->len;
	int printed = names(b, bits(v, 19, 5), snoop_access, NR(snoop_access), 0);

	names(b, bits(v, 38, 2), snoopx_access, NR(snoopx_access), printed);
	if (b->len == start)
		sb_add(b, "N/A");
}

static void tlb(struct sbuf *b, u64 v)
{
	u64 m = bits(v, 26, 7);
	size_t start = b->len;

	names(b, m & ~6ULL, tlb_access, NR(tlb_access), 0);
	if (b->len == start)
		sb_add(b, "N/A");
	if (m & 2)
		sb_add(b, " hit");
	if (m & 4)
		sb_add(b, " miss");
}

static void lck(struct sbuf *b, u64 v)
{
	u64 m = bits(v, 24, 2);

	sb_add(b, "%s", m & 1 ? "N/A" : m & 2 ? "Yes" : "No");
}

static void blk(struct sbuf *b, u64 v)
{
	u64 m = bits(v, 40, 3);

	if (!m || (m & 1)) {
		sb_add(b, " N/A");
		return;
	}
	if (m & 2)
		sb_add(b, " Data");
	if (m & 4)
		sb_add(b, " Addr");
}

size_t data_src_decode(u64 data_src, char *out, size_t size)
{
	struct sbuf b = { .s = out, .size = size };

	if (!size)
		return 0;
	out[0] = 0;
	sb_add(&b, "|OP ");
	op(&b, data_src);
	sb_add(&b, "|LVL ");
	lvl(&b, data_src);
	sb_add(&b, "|SNP ");
	snp(&b, data_src);
	sb_add(&b, "|TLB ");
	tlb(&b, data_src);
	sb_add(&b, "|LCK ");
	lck(&b, data_src);
	sb_add(&b, "|BLK ");
	blk(&b, data_src);
	return b.len;
}

size_t data_src_field(u64 data_src, int *width, char *out, size_t size)
{
	char decode[DATA_SRC_TEXT];
	struct sbuf b = { .s = out, .size = size < DATA_SRC_TEXT ? size : DATA_SRC_TEXT };

	if (!size)
		return 0;
	data_src_decode(data_src, decode, sizeof(decode));
	out[0] = 0;
	sb_add(&b, "%16llx %s", (unsigned long long)data_src, decode);
	if ((int)b.len > *width)
		*width = (int)b.len;
	while (b.len < (size_t)*width && b.len + 1 < size)
		out[b.len++] = ' ';
	out[b.len] = 0;
	return b.len;
}
