/*
 * symtree.c - perf 6.1's per-DSO symbol red-black tree, rebuilt operation
 * by operation, and the flat lookup table made from it.
 *
 * Why a tree: perf finds a sample's symbol by descending its rbtree
 * (symbols__find: left when ip < start, right when ip is past the end,
 * else that node), not by a "containing symbol" rule.  Where symbols
 * overlap (PLT entries inserted over an _init that symbols__fixup_end()
 * stretched, nested ELF symbols, JIT maps) the node found depends on the
 * tree's shape, which depends on every insert and erase.  So the loaders
 * replay perf's operations here: inserts in perf's order (equal starts go
 * right), symbols__fixup_end() and symbols__fixup_duplicate() over the
 * in-order walk, erases rebalancing as lib/rbtree.c does (the textbook
 * red-black algorithms, successor taking an erased node's place).
 *
 * symtree_install() then turns the final tree into what lookups use: the
 * symbols in order (dso->syms) and disjoint address ranges, each naming the
 * symbol perf's descent finds for every address in it (dso->ranges).  The
 * descent is run once per elementary interval between symbol boundaries;
 * with no overlaps the ranges are the symbols themselves, and a list
 * already sorted (kallsyms) needs no tree at all (symtree_install_sorted).
 * Since the shape only matters where symbols overlap, the loaders use lazy
 * trees (symtree_init_lazy()): the operations are logged and the nodes
 * kept in tree order (a stable sort by start, which is every such tree's
 * in-order walk), and only a dso whose symbols overlap has its log
 * replayed into a real tree.  A bucket index over the ranges, split at big
 * gaps (clusters), bounds each lookup's binary search.
 *
 * Invariants: node 0 is the nil sentinel (always black, never linked);
 * links are node indexes; erased nodes stay in the array, unlinked; a lazy
 * tree's order[] holds its live nodes in tree order once tree_order() ran.
 */
#include "symbol_int.h"
#include "../util/error.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define NIL 0

void symtree_init(struct symtree *t)
{
	memset(t, 0, sizeof(*t));
	t->alloc = 64;
	t->v = xcalloc(t->alloc, sizeof(*t->v));
	t->nr = 1;		/* the nil sentinel */
	t->v[NIL].black = 1;
}

void symtree_init_lazy(struct symtree *t)
{
	symtree_init(t);
	t->lazy = 1;
	t->ordered = 1;		/* past the sentinel */
}

void symtree_exit(struct symtree *t)
{
	free(t->v);
	free(t->log);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

/* ---- red-black tree (lib/rbtree.c's shapes) ---------------------------- */

static void rotate_left(struct symtree *t, u32 x)
{
	struct symtree_node *v = t->v;
	u32 y = v[x].right, p = v[x].parent;

	v[x].right = v[y].left;
	if (v[y].left != NIL)
		v[v[y].left].parent = x;
	v[y].parent = p;
	if (p == NIL)
		t->root = y;
	else if (v[p].left == x)
		v[p].left = y;
	else
		v[p].right = y;
	v[y].left = x;
	v[x].parent = y;
}

static void rotate_right(struct symtree *t, u32 x)
{
	struct symtree_node *v = t->v;
	u32 y = v[x].left, p = v[x].parent;

	v[x].left = v[y].right;
	if (v[y].right != NIL)
		v[v[y].right].parent = x;
	v[y].parent = p;
	if (p == NIL)
		t->root = y;
	else if (v[p].right == x)
		v[p].right = y;
	else
		v[p].left = y;
	v[y].right = x;
	v[x].parent = y;
}

/* rb_insert_color(): n is linked as a red leaf. */
static void insert_fixup(struct symtree *t, u32 n)
{
	struct symtree_node *v = t->v;

	while (v[n].parent != NIL && !v[v[n].parent].black) {
		u32 p = v[n].parent, g = v[p].parent;

		if (p == v[g].left) {
			u32 u = v[g].right;

			if (u != NIL && !v[u].black) {
				v[p].black = v[u].black = 1;
				v[g].black = 0;
				n = g;
				continue;
			}
			if (n == v[p].right) {
				rotate_left(t, p);
				n = p;
				p = v[n].parent;
			}
			v[p].black = 1;
			v[g].black = 0;
			rotate_right(t, g);
		} else {
			u32 u = v[g].left;

			if (u != NIL && !v[u].black) {
				v[p].black = v[u].black = 1;
				v[g].black = 0;
				n = g;
				continue;
			}
			if (n == v[p].left) {
				rotate_right(t, p);
				n = p;
				p = v[n].parent;
			}
			v[p].black = 1;
			v[g].black = 0;
			rotate_left(t, g);
		}
	}
	v[t->root].black = 1;
}

/* Links node i (unlinked, red) into the tree: __symbols__insert(), equal
 * starts going right. */
static void tree_link(struct symtree *t, u32 i)
{
	u64 start = t->v[i].sym.start;
	u32 parent = NIL, cur = t->root;
	int left = 0;

	while (cur != NIL) {
		parent = cur;
		left = start < t->v[cur].sym.start;
		cur = left ? t->v[cur].left : t->v[cur].right;
	}
	t->v[i].parent = parent;
	if (parent == NIL)
		t->root = i;
	else if (left)
		t->v[parent].left = i;
	else
		t->v[parent].right = i;
	insert_fixup(t, i);
}

/* Appends op to a lazy tree's log. */
static void log_op(struct symtree *t, u32 op)
{
	if (t->nr_log == t->alloc_log) {
		t->alloc_log = t->alloc_log ? 2 * t->alloc_log : 256;
		t->log = xrealloc(t->log, (unsigned long)t->alloc_log * sizeof(*t->log));
	}
	t->log[t->nr_log++] = op;
}

struct symbol *symtree_insert(struct symtree *t, u64 start, u64 end, const char *name,
			      u8 binding, u8 type)
{
	struct symtree_node *n;
	u32 i;

	if (t->nr == t->alloc) {
		if (t->alloc >= SYMTREE_ERASED / 2)
			die("symbol table: too many symbols");
		t->alloc *= 2;
		t->v = xrealloc(t->v, (unsigned long)t->alloc * sizeof(*t->v));
	}
	i = t->nr++;
	n = &t->v[i];
	memset(n, 0, sizeof(*n));
	n->sym.start = start;
	n->sym.end = end;
	n->sym.name = name;
	n->sym.binding = binding;
	n->sym.type = type;
	t->count++;
	if (t->lazy)
		log_op(t, i);
	else
		tree_link(t, i);
	return &t->v[i].sym;
}

static u32 leftmost(const struct symtree *t, u32 n)
{
	while (t->v[n].left != NIL)
		n = t->v[n].left;
	return n;
}

/* rb_first(), or NIL. */
static u32 tree_first(const struct symtree *t)
{
	return t->root == NIL ? NIL : leftmost(t, t->root);
}

/* rb_next(), or NIL. */
static u32 tree_next(const struct symtree *t, u32 n)
{
	u32 p;

	if (t->v[n].right != NIL)
		return leftmost(t, t->v[n].right);
	for (p = t->v[n].parent; p != NIL && n == t->v[p].right; p = t->v[p].parent)
		n = p;
	return p;
}

/* Puts subtree b where subtree a hangs (b may be NIL). */
static void transplant(struct symtree *t, u32 a, u32 b, u32 parent)
{
	if (parent == NIL)
		t->root = b;
	else if (t->v[parent].left == a)
		t->v[parent].left = b;
	else
		t->v[parent].right = b;
	if (b != NIL)
		t->v[b].parent = parent;
}

/* __rb_erase_color(): the subtree x (maybe NIL) under parent lacks one
 * black node on its paths. */
static void erase_fixup(struct symtree *t, u32 x, u32 parent)
{
	struct symtree_node *v = t->v;

	while (x != t->root && (x == NIL || v[x].black)) {
		if (x == v[parent].left) {
			u32 s = v[parent].right;

			if (!v[s].black) {
				v[s].black = 1;
				v[parent].black = 0;
				rotate_left(t, parent);
				s = v[parent].right;
			}
			if (v[v[s].left].black && v[v[s].right].black) {
				v[s].black = 0;
				x = parent;
				parent = v[x].parent;
				continue;
			}
			if (v[v[s].right].black) {
				v[v[s].left].black = 1;
				v[s].black = 0;
				rotate_right(t, s);
				s = v[parent].right;
			}
			v[s].black = v[parent].black;
			v[parent].black = 1;
			v[v[s].right].black = 1;
			rotate_left(t, parent);
			x = t->root;
		} else {
			u32 s = v[parent].left;

			if (!v[s].black) {
				v[s].black = 1;
				v[parent].black = 0;
				rotate_right(t, parent);
				s = v[parent].left;
			}
			if (v[v[s].left].black && v[v[s].right].black) {
				v[s].black = 0;
				x = parent;
				parent = v[x].parent;
				continue;
			}
			if (v[v[s].left].black) {
				v[v[s].right].black = 1;
				v[s].black = 0;
				rotate_left(t, s);
				s = v[parent].left;
			}
			v[s].black = v[parent].black;
			v[parent].black = 1;
			v[v[s].left].black = 1;
			rotate_right(t, parent);
			x = t->root;
		}
	}
	if (x != NIL)
		v[x].black = 1;
	v[NIL].black = 1;	/* the sentinel is read, never written red */
}

/* rb_erase(): a node with two children is replaced by its successor. */
static void tree_erase(struct symtree *t, u32 z)
{
	struct symtree_node *v = t->v;
	u32 x, xparent;
	int removed_black;

	if (v[z].left == NIL || v[z].right == NIL) {
		x = v[z].left != NIL ? v[z].left : v[z].right;
		xparent = v[z].parent;
		removed_black = v[z].black;
		transplant(t, z, x, xparent);
	} else {
		u32 y = leftmost(t, v[z].right);

		removed_black = v[y].black;
		x = v[y].right;
		if (v[y].parent == z) {
			xparent = y;
		} else {
			xparent = v[y].parent;
			transplant(t, y, x, xparent);
			v[y].right = v[z].right;
			v[v[y].right].parent = y;
		}
		transplant(t, z, y, v[z].parent);
		v[y].left = v[z].left;
		v[v[y].left].parent = y;
		v[y].black = v[z].black;
	}
	v[z].left = v[z].right = v[z].parent = NIL;
	t->count--;
	if (removed_black)
		erase_fixup(t, x, xparent);
}

/* ---- perf's fixups ----------------------------------------------------- */

static u64 page_up(u64 v)
{
	return (v + 4095) & ~4095ULL;
}

static void order_room(struct symtree *t, u32 n)
{
	if (n <= t->alloc_order)
		return;
	t->alloc_order = n < 256 ? 256 : 2 * n;
	t->order = xrealloc(t->order, (unsigned long)t->alloc_order * sizeof(*t->order));
}

/* Puts the nodes in t->order in tree order and returns how many: a lazy
 * tree's nodes inserted since the last call are sorted and merged in (no
 * erased node is among them: only the fixups erase, on an order made
 * first); another tree's are walked. */
static u32 tree_order(struct symtree *t)
{
	const struct symtree_node *v = t->v;
	u32 n = 0, fresh = t->nr - t->ordered, i, j, k;
	struct start_idx *sorted;
	u32 *merged;

	if (!t->lazy) {
		order_room(t, t->count);
		for (u32 x = tree_first(t); x != NIL; x = tree_next(t, x))
			t->order[n++] = x;
		return t->nr_order = n;
	}
	if (!fresh)
		return t->nr_order;
	sorted = xmalloc((unsigned long)fresh * sizeof(*sorted));
	for (i = 0; i < fresh; i++)
		sorted[i] = (struct start_idx){ v[t->ordered + i].sym.start, t->ordered + i };
	sort_by_start(sorted, fresh);
	/* the old ones come first on equal starts: inserted earlier */
	merged = xmalloc((unsigned long)(t->nr_order + fresh) * sizeof(*merged));
	for (i = 0, j = 0, k = 0; i < t->nr_order || j < fresh; )
		merged[k++] = j == fresh ||
			      (i < t->nr_order && v[t->order[i]].sym.start <= sorted[j].start) ?
			      t->order[i++] : sorted[j++].idx;
	free(sorted);
	free(t->order);
	t->order = merged;
	t->alloc_order = t->nr_order + fresh;
	t->nr_order += fresh;
	t->ordered = t->nr;
	return t->nr_order;
}

/* Erases node z: from the tree, or in a lazy tree's log. */
static void erase_node(struct symtree *t, u32 z)
{
	if (!t->lazy) {
		tree_erase(t, z);
		return;
	}
	log_op(t, z | SYMTREE_ERASED);
	t->count--;
}

void symtree_fixup_end(struct symtree *t, int is_kallsyms)
{
	u32 n = tree_order(t);

	if (!n)
		return;
	for (u32 k = 1; k < n; k++) {
		struct symbol *p = &t->v[t->order[k - 1]].sym, *c = &t->v[t->order[k]].sym;

		if (p->end != p->start)
			continue;
		if (is_kallsyms &&
		    (!strchr(symbol_name(p), '[') != !strchr(symbol_name(c), '[')))
			p->end = page_up(p->end + 4096);
		else
			p->end = c->start;
	}
	struct symbol *last = &t->v[t->order[n - 1]].sym;

	if (last->end == last->start)
		last->end = page_up(last->start) + 4096;
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (*s++ == '_')
		n++;
	return n;
}

int symbol_prefer_second(const struct symbol *a, const struct symbol *b)
{
	u64 la = a->end - a->start, lb = b->end - b->start;
	int ua, ub;
	size_t na, nb;

	if (lb == 0 && la > 0)
		return 0;
	if (la == 0 && lb > 0)
		return 1;
	if ((b->binding == STB_WEAK) != (a->binding == STB_WEAK))
		return a->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return b->binding == STB_GLOBAL;
	/* perf compares the demangled names */
	ua = leading_underscores(symbol_name(a));
	ub = leading_underscores(symbol_name(b));
	if (ua != ub)
		return ua > ub;
	na = strlen(symbol_name(a));
	nb = strlen(symbol_name(b));
	if (na != nb)
		return nb > na;
	/* arch__choose_best_symbol(): avoid the "SyS" syscall aliases */
	return !strncmp(symbol_name(a), "SyS", 3) || !strncmp(symbol_name(a), "compat_SyS", 10);
}

/* The walk of symbols__fixup_duplicate() (next is the successor of cur,
 * which an erase of next leaves in place) over the nodes in order; the
 * order keeps the nodes left. */
void symtree_fixup_duplicate(struct symtree *t)
{
	u32 n = tree_order(t), kept = 0, cur, next;

	if (!n)
		return;
	cur = t->order[0];
	for (u32 k = 1; k < n; k++) {
		next = t->order[k];
		if (t->v[cur].sym.start != t->v[next].sym.start) {
			t->order[kept++] = cur;
			cur = next;
		} else if (!symbol_prefer_second(&t->v[cur].sym, &t->v[next].sym)) {
			erase_node(t, next);
		} else {
			erase_node(t, cur);
			cur = next;
		}
	}
	t->order[kept++] = cur;
	t->nr_order = kept;
}

/* ---- the flat table ---------------------------------------------------- */

/* symbols__find(): the first node on ip's descent that holds it. */
static u32 tree_find(const struct symtree *t, u64 ip)
{
	u32 n = t->root;

	while (n != NIL) {
		const struct symbol *s = &t->v[n].sym;

		if (ip < s->start)
			n = t->v[n].left;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			n = t->v[n].right;
		else
			return n;
	}
	return NIL;
}

/* Appends [start, end) -> sym, merging with the previous range. */
static void add_range(struct dso *dso, u32 *alloc, u64 start, u64 end, u32 sym)
{
	u32 n = dso->nr_ranges;

	if (n && dso->ranges[n - 1].sym == sym && dso->ranges[n - 1].end == start) {
		dso->ranges[n - 1].end = end;
		return;
	}
	if (n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		dso->ranges = xrealloc(dso->ranges, (unsigned long)*alloc * sizeof(*dso->ranges));
	}
	dso->ranges[n].start = start;
	dso->ranges[n].end = end;
	dso->ranges[n].sym = sym;
	dso->nr_ranges = n + 1;
}

/* The ranges when symbols overlap: the descent's answer between any two
 * consecutive boundaries (starts, ends, start + 1 of zero-size symbols). */
static void ranges_by_descent(struct symtree *t, struct dso *dso, u32 *alloc)
{
	struct start_idx *b = xmalloc(3 * (unsigned long)dso->nr_syms * sizeof(*b));
	u32 nb = 0, i, k;

	for (i = 0; i < dso->nr_syms; i++) {
		const struct symbol *s = &dso->syms[i];

		b[nb++] = (struct start_idx){ s->start, 0 };
		b[nb++] = (struct start_idx){ s->end, 0 };
		if (s->start == s->end && s->start != ~0ULL)
			b[nb++] = (struct start_idx){ s->start + 1, 0 };
	}
	sort_by_start(b, nb);
	for (i = 0, k = 0; i < nb; i++)
		if (!k || b[k - 1].start != b[i].start)
			b[k++].start = b[i].start;
	for (i = 0; i + 1 < k; i++) {
		u32 n = tree_find(t, b[i].start);

		if (n != NIL)
			add_range(dso, alloc, b[i].start, b[i + 1].start, t->v[n].order);
	}
	free(b);
}

/* The buckets clusters c[0..nc) take at shift: (span - 1) >> shift each,
 * and two more. */
static u64 cluster_buckets(const struct sym_cluster *c, u32 nc, u32 shift)
{
	u64 total = 0;

	for (u32 i = 0; i < nc; i++)
		total += ((c[i].limit - c[i].base - 1) >> shift) + 2;
	return total;
}

/* The clusters of the ranges (split at gaps of SYM_CLUSTER_GAP or more)
 * and a bucket index over them with about one bucket per range. */
static void build_buckets(struct dso *dso)
{
	const struct sym_range *rg = dso->ranges;
	u32 nr = dso->nr_ranges, nc = 1, shift, r = 0, k = 0;
	struct sym_cluster *c;

	dso->nr_clusters = 0;
	if (nr < 16)
		return;
	for (u32 i = 1; i < nr; i++)
		nc += rg[i].start - rg[i - 1].end >= SYM_CLUSTER_GAP;
	c = xmalloc((unsigned long)nc * sizeof(*c));
	nc = 0;
	for (u32 i = 0; i < nr; i++) {
		if (!i || rg[i].start - rg[i - 1].end >= SYM_CLUSTER_GAP)
			c[nc++].base = rg[i].start;
		c[nc - 1].limit = rg[i].end;
	}
	for (shift = 0; shift < 63; shift++)
		if (cluster_buckets(c, nc, shift) <= (u64)nr + 2 * nc)
			break;
	dso->bucket = xmalloc(cluster_buckets(c, nc, shift) * sizeof(u32));
	for (u32 i = 0; i < nc; i++) {
		u64 nb = cluster_buckets(&c[i], 1, shift);

		c[i].first = k;
		for (u64 j = 0; j < nb; j++) {
			u64 off = j << shift;

			if ((off >> shift) != j || c[i].base + off < c[i].base)
				r = nr;	/* past the address space */
			while (r < nr && rg[r].start < c[i].base + off)
				r++;
			dso->bucket[k++] = r;
		}
	}
	dso->clusters = c;
	dso->nr_clusters = nc;
	dso->bucket_shift = shift;
}

/* Where a symbol stops matching: perf's descent finds a zero-size symbol
 * at its start only. */
static u64 match_end(const struct symbol *s)
{
	return s->end == s->start && s->start != ~0ULL ? s->start + 1 : s->end;
}

/* 1 when some address matches two of the sorted symbols v[0..nr). */
static int symbols_overlap(const struct symbol *v, u32 nr)
{
	u64 reach = 0;		/* largest match_end() so far */

	for (u32 i = 0; i < nr; i++) {
		if ((i && v[i].start < reach) || v[i].end < v[i].start)
			return 1;
		if (match_end(&v[i]) > reach)
			reach = match_end(&v[i]);
	}
	return 0;
}

/* The ranges of symbols that never overlap: the symbols themselves. */
static void ranges_direct(struct dso *dso, u32 *alloc)
{
	for (u32 i = 0; i < dso->nr_syms; i++)
		if (match_end(&dso->syms[i]) > dso->syms[i].start)
			add_range(dso, alloc, dso->syms[i].start, match_end(&dso->syms[i]), i);
}

/* Gives a lazy tree its shape: replays its log (the nodes' values are
 * final, so the inserts and erases go where they went). */
static void build_lazy(struct symtree *t)
{
	u32 count = t->count;

	t->root = NIL;
	for (u32 k = 0; k < t->nr_log; k++) {
		u32 op = t->log[k], i = op & ~SYMTREE_ERASED;

		if (op & SYMTREE_ERASED) {
			tree_erase(t, i);
			continue;
		}
		t->v[i].left = t->v[i].right = t->v[i].parent = NIL;
		t->v[i].black = 0;
		tree_link(t, i);
	}
	t->count = count;
	t->lazy = 0;
}

void symtree_install(struct symtree *t, struct dso *dso)
{
	u32 alloc = 0, n = tree_order(t);

	dso_forget_symbols(dso);
	dso->loaded = 1;
	if (n)
		dso->syms = xmalloc((unsigned long)n * sizeof(*dso->syms));
	for (u32 i = 0; i < n; i++) {
		t->v[t->order[i]].order = i;
		dso->syms[i] = t->v[t->order[i]].sym;
	}
	dso->nr_syms = n;
	if (symbols_overlap(dso->syms, dso->nr_syms)) {
		/* the shape decides */
		if (t->lazy)
			build_lazy(t);
		ranges_by_descent(t, dso, &alloc);
	} else {
		ranges_direct(dso, &alloc);
	}
	build_buckets(dso);
}

void symtree_install_sorted(struct dso *dso, struct symbol *v, u32 nr)
{
	struct symtree t;
	u32 alloc = 0;

	if (symbols_overlap(v, nr)) {
		/* the shape decides: build the tree these inserts make */
		symtree_init(&t);
		for (u32 i = 0; i < nr; i++)
			symtree_insert(&t, v[i].start, v[i].end, v[i].name, v[i].binding, v[i].type);
		free(v);
		symtree_install(&t, dso);
		symtree_exit(&t);
		return;
	}
	dso_forget_symbols(dso);
	dso->loaded = 1;
	dso->syms = v;
	dso->nr_syms = nr;
	ranges_direct(dso, &alloc);
	build_buckets(dso);
}
