/*
 * hist_order.c - the output order of a histogram: perf 6.1's output
 * rbtree (util/hist.c, util/sort.c) over the shown entries.
 *
 * Invariant: entries are ordered exactly as perf's output rbtree does:
 * by the sort list's sort functions, ties in the order of perf's input
 * tree (the sort list's cmp functions), which is rebuilt node by node
 * only when those functions are not an order (else a stable sort gives
 * the same).  Names compare by precomputed strcmp ranks.
 */
#include "hist_impl.h"
#include "rborder.h"
#include "rowsort.h"
#include "../util/error.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * What perf's input tree compares, per entry, with names replaced by
 * their rank in strcmp order (perf compares DSO and comm names with
 * strcmp; interned strings are equal only when their ids are).
 */
struct tree_key {
	u64 start, end;		/* the symbol's range, or start: the address */
	u32 comm, dso, trace;	/* name ranks; no DSO ranks last */
	s32 tid, cpu;
	u32 entry;		/* its number: insertion order */
	u8 has_sym;
	const char *inlined;	/* an inlined entry's name, else NULL */
};

static inline int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

static inline int cmp_s32(s32 a, s32 b)
{
	return a < b ? -1 : a > b;
}

/* perf's address comparisons: the sign of the wrapping difference */
static inline int cmp_wrap(u64 a, u64 b)
{
	s64 d = (s64)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's hist_entry__cmp(): the order of its input tree (the sort list's
 * se_cmp functions). */
static int input_cmp(const struct hist_layout *lay, const struct tree_key *a,
		     const struct tree_key *b)
{
	int r = 0;

	for (int i = 0; i < lay->nr_sort && !r; i++) {
		switch (lay->sort[i]) {
		case HD_PID:
			r = cmp_s32(a->tid, b->tid);
			break;
		case HD_COMM:
			r = cmp_u64(a->comm, b->comm);
			break;
		case HD_DSO:
			r = cmp_u64(a->dso, b->dso);
			break;
		case HD_CPU:
			r = cmp_s32(a->cpu, b->cpu);
			break;
		case HD_TRACE:	/* perf's sort__trace_cmp(): strcmp, as comm's */
			r = cmp_u64(a->trace, b->trace);
			break;
		case HD_SYM:
			/* two unresolved: by address; else DSO, resolved
			   first, then the symbols' ranges.  The DSO only
			   when it is no sort key of its own: perf 6.1.y
			   has the stable fix of sort__sym_cmp()'s test of
			   hists__has(dso) (upstream cb39d05e67dc), which
			   was always true before */
			if (!a->has_sym && !b->has_sym) {
				r = cmp_wrap(a->start, b->start);
				break;
			}
			if (!lay->dso_sorted)
				r = cmp_u64(a->dso, b->dso);
			if (!r && a->has_sym != b->has_sym)
				return a->has_sym ? -1 : 1;
			if (!r && (a->inlined || b->inlined)) {
				/* perf: inlined ones by name, and the same
				   when their ranges touch */
				r = strcmp(a->inlined ? a->inlined : "", b->inlined ? b->inlined : "");
				if (r)
					break;
				if (a->start <= b->end && a->end >= b->start)
					continue;
			}
			if (!r)
				r = cmp_wrap(a->start, b->start);
			if (!r)
				r = cmp_wrap(a->end, b->end);
			break;
		default:	/* the counts do not order the input tree */
			break;
		}
	}
	return r;
}

struct input_tree {
	const struct hist_layout *lay;
	const struct tree_key *keys;	/* by entry number */
	const u32 *node_entry;	/* each node's entry; NULL: node x is entry x */
};

static int input_goes_left(const void *vt, u32 x, u32 c)
{
	const struct input_tree *t = vt;

	if (t->node_entry) {
		x = t->node_entry[x];
		c = t->node_entry[c];
	}
	return input_cmp(t->lay, &t->keys[x], &t->keys[c]) < 0;
}

static int cmp_str_ids(const void *a, const void *b, void *vhs)
{
	const struct hist_strings *hs = vhs;

	return strcmp(hs->str[*(const u32 *)a], hs->str[*(const u32 *)b]);
}

/* The rank of every interned string in strcmp order; id 0 ("no DSO")
 * ranks last, as perf's cmp_null() puts entries without a DSO after the
 * others in both its trees. */
static u32 *string_ranks(const struct hist_strings *hs)
{
	u32 *ids = xmalloc(hs->nr * sizeof(u32)), *rank = xmalloc(hs->nr * sizeof(u32));

	for (u32 i = 0; i < hs->nr - 1; i++)
		ids[i] = i + 1;
	qsort_r(ids, hs->nr - 1, sizeof(u32), cmp_str_ids, (void *)hs);
	rank[0] = hs->nr;
	for (u32 i = 0; i < hs->nr - 1; i++)
		rank[ids[i]] = i + 1;
	free(ids);
	return rank;
}

/* Is the DSO a sort key before the symbol (which is one)? */
static int dso_before_sym(const struct hist_layout *lay)
{
	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->sort[i] == HD_DSO)
			return (lay->key_mask & (1u << HD_SYM)) != 0;
		if (lay->sort[i] == HD_SYM)
			return 0;
	}
	return 0;
}

/*
 * Rows of u64 words that sort as input_cmp() compares when it is a total
 * preorder (see input_ranks()): the sort keys in order (the symbol as
 * three words: unresolved, start, end), then the entry number.
 * *words gets the row length, *sym_word the symbol's first word (-1 when
 * the layout has no symbol).
 */
static u64 *input_rows(const struct hist_layout *lay, const struct tree_key *keys, u32 n,
		       int *words, int *sym_word)
{
	int nw = 0;
	u64 *rows;

	*sym_word = -1;
	for (int i = 0; i < lay->nr_sort; i++) {
		if (lay->sort[i] == HD_SYM)
			*sym_word = nw;
		if (lay->sort[i] >= HD_PID)
			nw += lay->sort[i] == HD_SYM ? 3 : 1;
	}
	nw++;
	rows = xmalloc(((size_t)n ? n : 1) * nw * sizeof(u64));
	for (u32 j = 0; j < n; j++) {
		const struct tree_key *k = &keys[j];
		u64 *row = rows + (size_t)j * nw;
		int w = 0;

		for (int i = 0; i < lay->nr_sort; i++) {
			switch (lay->sort[i]) {
			case HD_PID:
				row[w++] = (u32)k->tid ^ 0x80000000u;
				break;
			case HD_COMM:
				row[w++] = k->comm;
				break;
			case HD_DSO:
				row[w++] = k->dso;
				break;
			case HD_CPU:
				row[w++] = (u32)k->cpu ^ 0x80000000u;
				break;
			case HD_TRACE:
				row[w++] = k->trace;
				break;
			case HD_SYM:
				/* the DSO came first: resolved ones by range,
				   then unresolved ones by address */
				row[w++] = !k->has_sym;
				row[w++] = k->start;
				row[w++] = k->end;
				break;
			default:
				break;
			}
		}
		row[w] = k->entry;
	}
	*words = nw;
	return rows;
}

/* The order of input_cmp() when it is a total preorder, ties in
 * insertion order: out[] gets keys' entry numbers in that order. */
static void input_sort(const struct hist_layout *lay, const struct tree_key *keys,
		       u32 n, u32 *out, int threads)
{
	int words, sym_word;
	u64 *rows = input_rows(lay, keys, n, &words, &sym_word);
	u32 *order = rows_order(rows, n, words, -1, threads);

	for (u32 j = 0; j < n; j++)
		out[j] = rows[(size_t)order[j] * words + words - 1];
	free(order);
	free(rows);
}

/*
 * When the DSO is a key before the symbol: entries equal in the keys
 * before the symbol (a group) all have one DSO, and the groups are in the
 * order of those keys.  Within a group input_cmp() is an order (resolved
 * ones first, by range, then unresolved ones by address) unless its
 * addresses span half the 64-bit circle, where wrapping differences do
 * not order them, or it has inlined entries.  sorted[] gets the entry
 * numbers in the order of input_rows().  When every group is ordered,
 * input_cmp() is a total preorder, sorted[] is the tree's order, and this
 * returns NULL.  Else rank[] gets each entry's group and, in an ordered
 * group, its place there (equal entries the same; RB_BY_RANK); in a group
 * whose addresses span the circle, its class (resolved first) and start
 * (RB_BY_KEY); groups with inlined entries are left to input_cmp()
 * (RB_BY_CALL); and this returns how each group compares, the caller's to
 * free.  any_inlined: some key has an inlined entry (else none is read).
 */
static u8 *input_ranks(const struct hist_layout *lay, const struct tree_key *keys, u32 n,
		       int any_inlined, struct rb_rank *rank, u32 *sorted, int threads)
{
	int words, sym_word;
	u64 *rows = input_rows(lay, keys, n, &words, &sym_word);
	u8 *unordered = xcalloc((size_t)n + 1, 1);
	u32 group = 0, start = 0;
	int any_unordered = 0;

	rows_sort(rows, n, words, -1, threads);
	for (u32 j = 0; j < n; j++)
		sorted[j] = rows[(size_t)j * words + words - 1];
	/* how each group compares, from the rows (the symbol's words: not
	   resolved, start, end) */
	for (u32 j = 1; j <= n; j++) {
		u64 lo = ~0ULL, hi = 0;
		int inlined = 0;

		if (j < n && !memcmp(rows + (size_t)j * words, rows + (size_t)start * words,
				     sym_word * sizeof(u64)))
			continue;
		/* rows start..j are a group */
		for (u32 i = start; i < j; i++) {
			const u64 *r = rows + (size_t)i * words;
			u64 a = r[sym_word + 1], b = r[sym_word] ? a : r[sym_word + 2];

			inlined |= any_inlined && keys[r[words - 1]].inlined;
			lo = a < lo ? a : lo;
			lo = b < lo ? b : lo;
			hi = a > hi ? a : hi;
			hi = b > hi ? b : hi;
		}
		unordered[group] = inlined ? RB_BY_CALL : hi - lo >= 1ULL << 63 ? RB_BY_KEY :
				   RB_BY_RANK;
		any_unordered |= unordered[group] != RB_BY_RANK;
		group++;
		start = j;
	}
	if (!any_unordered) {
		free(rows);
		free(unordered);
		return NULL;
	}
	/* the groups' ranks */
	group = start = 0;
	for (u32 j = 1; j <= n; j++) {
		u32 within = 0;

		if (j < n && !memcmp(rows + (size_t)j * words, rows + (size_t)start * words,
				     sym_word * sizeof(u64)))
			continue;
		for (u32 i = start; i < j; i++) {
			const u64 *r = rows + (size_t)i * words;
			struct rb_rank *rk = &rank[r[words - 1]];

			if (i > start && memcmp(r, r - words, (words - 1) * sizeof(u64)))
				within++;
			rk->rank = (u64)group << 32 | (unordered[group] ? 0 : within);
			rk->cls = !keys[r[words - 1]].has_sym;
			rk->key = keys[r[words - 1]].start;
		}
		group++;
		start = j;
	}
	free(rows);
	return unordered;
}

/* An entry's place in its DSO for the input tree: its symbol's range, or
 * (unresolved) its address and 0. */
static inline void entry_range(const struct hist_entry *e, u64 *start, u64 *end)
{
	*start = e->sym ? symbol_start(e->sym) : e->addr;
	*end = e->sym ? symbol_end(e->sym) : 0;
}

/* The input tree's key of entry i; rank: the strings' ranks. */
static void tree_key_of(const struct hists *h, const u32 *rank, u32 i, struct tree_key *k)
{
	const struct hist_entry *e = &h->entries[i];

	k->has_sym = !!e->sym;
	k->inlined = e->sym && symbol_inlined(e->sym) ? symbol_name(e->sym) : NULL;
	entry_range(e, &k->start, &k->end);
	k->comm = rank[e->comm];
	k->dso = rank[e->dso_name];
	k->trace = rank[e->trace];
	k->tid = e->tid;
	k->cpu = e->cpu;
	k->entry = i;
}

/*
 * The input tree's order: out[] gets the entry numbers in tree order.
 * With a total preorder the tree's order is that of a stable sort (an
 * equal node goes right of those already in), and collapsing it into a
 * second tree keeps it.
 */
static void input_order(const struct hists *h, const u32 *rank, u32 *out)
{
	const struct hist_layout *lay = h->lay;
	u32 n = h->nr_entries, *pos, *place;
	struct tree_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	const struct input_tree t = { lay, keys, NULL };
	struct rb_rank *group_rank = NULL;
	u8 *unordered = NULL;
	int any_inlined = 0, threads = h->one_thread ? 1 : 2;

	for (u32 i = 0; i < n; i++) {
		tree_key_of(h, rank, i, &keys[i]);
		any_inlined |= keys[i].inlined != NULL;
	}
	/* without a symbol key every comparison is an order */
	if (!(lay->key_mask & (1u << HD_SYM))) {
		input_sort(lay, keys, n, out, threads);
		free(keys);
		return;
	}
	if (dso_before_sym(lay)) {
		group_rank = xmalloc((n ? n : 1) * sizeof(*group_rank));
		unordered = input_ranks(lay, keys, n, any_inlined, group_rank, out, threads);
		if (!unordered) {
			free(group_rank);
			free(keys);
			return;
		}
		/* each node kept at its place in the sorted rows (out) */
		place = xmalloc((n ? n : 1) * sizeof(*place));
		for (u32 i = 0; i < n; i++)
			place[out[i]] = i;
		rbtree_build_ranked(n, group_rank, unordered, input_goes_left, &t, place, out);
		free(place);
	} else {
		rbtree_build(n, input_goes_left, &t, out);
	}
	/* (out holds entry numbers: a node's number is its entry's.)  With
	   comm a key perf collapses the input tree into a second one,
	   inserted in the first one's order: its node i is entry out[i]. */
	if (lay->key_mask & (1u << HD_COMM)) {
		const struct input_tree t2 = { lay, keys, out };

		pos = xmalloc((n ? n : 1) * sizeof(u32));
		if (group_rank) {
			struct rb_rank *again_rank = xmalloc((n ? n : 1) * sizeof(*again_rank));

			for (u32 i = 0; i < n; i++)
				again_rank[i] = group_rank[out[i]];
			rbtree_build_ranked(n, again_rank, unordered, input_goes_left, &t2, NULL,
					    pos);
			free(again_rank);
		} else {
			rbtree_build(n, input_goes_left, &t2, pos);
		}
		for (u32 i = 0; i < n; i++)
			pos[i] = out[pos[i]];
		memcpy(out, pos, n * sizeof(*out));
		free(pos);
	}
	free(group_rank);
	free(unordered);
	free(keys);
}

/*
 * Output order: perf's se_sort functions of the shown sort keys, ties in
 * input-tree order.  Each shown entry gets a row of u64 keys that compare
 * as those functions (counts descending, names by rank), the symbol's
 * pointer for the symbol key (compared by name, unresolved last), and
 * last its input-tree rank above its entry number.
 */
/* The first 8 bytes of sym's name as a big-endian number (which orders as
 * strcmp() does, up to ties), all ones for none (unresolved go last). */
static u64 name_prefix(const struct symbol *sym)
{
	const unsigned char *name;
	u64 v = 0;
	int i;

	if (!sym)
		return ~0ULL;
	name = (const unsigned char *)symbol_name(sym);
	for (i = 0; i < 8 && name[i]; i++)
		v = v << 8 | name[i];
	return i ? v << (8 * (8 - i)) : 0;
}

/* Dense numbers for the threads of the sorted rows' entries (equal
 * threads, equal numbers): ids[j] for row j. */
static void thread_ids(const struct hists *h, const u64 *rows, int stride, u32 n, u32 *ids)
{
	u32 mask = 15, next = 0;
	const struct thread **key;
	u32 *val;

	while (mask + 1 < 2 * (u64)n)
		mask = mask * 2 + 1;
	key = xcalloc_written((size_t)mask + 1, sizeof(*key));
	val = xmalloc(((size_t)mask + 1) * sizeof(*val));
	for (u32 j = 0; j < n; j++) {
		const struct thread *t = h->origins[(u32)rows[(size_t)j * stride + stride - 1]].thread;
		u32 k = (u32)hash_u64((uintptr_t)t) & mask;

		/* NULL, never a key, gets the id n */
		if (!t) {
			ids[j] = n;
			continue;
		}
		while (key[k] && key[k] != t)
			k = (k + 1) & mask;
		if (!key[k]) {
			key[k] = t;
			val[k] = next++;
		}
		ids[j] = val[k];
	}
	free(key);
	free(val);
}

/*
 * perf's __hpp__sort_acc() with call graphs: entries of equal children
 * period and the same thread put the one with the deeper chain first in
 * caller order (last in callee order); other pairs go on to the next
 * keys.  That is not an order, so h->sorted gets the rows' entries
 * (sorted, children period first, each its place's rank) in the order of
 * perf's output tree, the entries inserted in input-tree order (the high
 * half of their rows' last word): rbtree_build_ranked() with groups of
 * equal children period, keyed by thread and depth.
 */
static void depth_order(struct hists *h, const u64 *rows, int stride)
{
	u32 n = h->nr_sorted, ne = h->nr_entries, k = 0, group = 0;
	u32 *by_tree = xmalloc((ne ? ne : 1) * sizeof(u32));
	u32 *groups = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *input = xmalloc((n ? n : 1) * sizeof(u32)), *order = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *ids = xmalloc((n ? n : 1) * sizeof(u32));
	struct rb_rank *ranks = xmalloc((n ? n : 1) * sizeof(*ranks));
	u8 *how = xmalloc((size_t)n + 1);

	memset(how, h->cc_caller_first ? RB_BY_SUBKEY_DESC : RB_BY_SUBKEY_ASC, (size_t)n + 1);
	memset(by_tree, 0xff, (ne ? ne : 1) * sizeof(u32));
	for (u32 j = 0; j < n; j++)
		by_tree[rows[(size_t)j * stride + stride - 1] >> 32] = j;
	for (u32 r = 0; r < ne; r++)
		if (by_tree[r] != ~0u)
			input[k++] = by_tree[r];
	thread_ids(h, rows, stride, n, ids);
	/* a row's group: its children period's, in sorted order */
	for (u32 j = 0; j < n; j++) {
		const u64 *row = rows + (size_t)j * stride;

		if (j && row[0] != row[-stride])
			group++;
		groups[j] = group;
	}
	for (u32 x = 0; x < n; x++) {
		u32 j = input[x];
		const struct hist_origin *o = &h->origins[(u32)rows[(size_t)j * stride + stride - 1]];

		ranks[x].rank = (u64)groups[j] << 32 | j;
		ranks[x].key = (u64)ids[j] << 32 | o->max_depth;
		ranks[x].cls = 0;
	}
	/* each node kept at its row's place */
	rbtree_build_ranked(n, ranks, how, NULL, NULL, input, order);
	for (u32 x = 0; x < n; x++)
		h->sorted[x] = &h->entries[(u32)rows[(size_t)input[order[x]] * stride + stride - 1]];
	free(by_tree);
	free(groups);
	free(input);
	free(order);
	free(ids);
	free(ranks);
	free(how);
}

/* Each entry's place in the input tree (input_order()), by entry
 * number; the caller's to free. */
static u32 *tree_ranks(const struct hists *h, const u32 *rank)
{
	u32 n = h->nr_entries;
	u32 *order = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *tree_rank = xmalloc((n ? n : 1) * sizeof(u32));

	input_order(h, rank, order);
	for (u32 i = 0; i < n; i++)
		tree_rank[order[i]] = i;
	free(order);
	return tree_rank;
}

/* output_order()'s rows but their last words, which need the input
 * order: made on a thread while that is found (a job of these). */
struct output_rows {
	struct hists *h;
	const u32 *rank;	/* string ranks */
	int range_words;	/* rows end in the symbol's range (start, end)
				   before the entry number (see
				   ties_by_range()) */
	u64 *rows;
	int nr_keys, sym_key, stride;
	int cc_depth;		/* children period first: depth_order() */
	u8 *unordered;		/* with range_words: string id -> that DSO's
				   entries do not order by range */
};

/*
 * Can ties in the output order (entries perf's output sort finds equal)
 * be put in input-tree order by the symbol's range?  Entries that tie
 * agree on every shown sort key; when none is hidden, they differ in the
 * input tree's keys only in the symbol's range (or address), and when
 * their group is ordered (see input_ranks()) the tree has them in the
 * order of (start, end), then of creation.  That holds without call
 * chains (whose order needs the whole tree), without a symbol key, and
 * with the DSO before it; for groups that are not ordered
 * output_order_direct() falls back to the tree.
 */
static int ties_by_range(const struct hists *h)
{
	const struct hist_layout *lay = h->lay;

	return !h->cc && !h->need_input_rank && !(lay->elide_mask & lay->key_mask) &&
	       (!(lay->key_mask & (1u << HD_SYM)) || dso_before_sym(lay));
}

/* Per string id, 1 for a DSO whose entries do not order by range: one is
 * inlined, or their addresses span half the 64-bit circle (then the
 * wrapping comparisons of any group inside it may not order it).
 * Without a symbol key: NULL (nothing is compared by range). */
static u8 *unordered_dsos(const struct hists *h)
{
	u32 nr_strs = h->strs->nr;
	u64 *lo, *hi;
	u8 *bad;

	if (!(h->lay->key_mask & (1u << HD_SYM)))
		return NULL;
	bad = xcalloc(nr_strs, 1);
	lo = xmalloc(nr_strs * sizeof(*lo));
	hi = xmalloc(nr_strs * sizeof(*hi));
	memset(lo, 0xff, nr_strs * sizeof(*lo));
	memset(hi, 0, nr_strs * sizeof(*hi));
	for (u32 i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = &h->entries[i];
		u32 d = e->dso_name;
		u64 a, b;

		entry_range(e, &a, &b);
		if (!e->sym)
			b = a;	/* an address is a point */
		if (e->sym && symbol_inlined(e->sym))
			bad[d] = 1;
		lo[d] = a < lo[d] ? a : lo[d];
		lo[d] = b < lo[d] ? b : lo[d];
		hi[d] = a > hi[d] ? a : hi[d];
		hi[d] = b > hi[d] ? b : hi[d];
	}
	for (u32 d = 0; d < nr_strs; d++)
		if (hi[d] >= lo[d] && hi[d] - lo[d] >= 1ULL << 63)
			bad[d] = 1;
	free(lo);
	free(hi);
	return bad;
}

/* The rows of h->sorted[from, to), for output_rows(). */
struct row_fill {
	const struct output_rows *o;
	const enum hist_dim *dims;	/* o->nr_keys of them */
	const int *member;	/* per key: -1, or the group member whose
				   count of dims[i] it is */
	u32 from, to;
};

/* A count of member m's entry paired with e (0 when it has none). */
static u64 member_count(const struct hists *h, const struct hist_entry *e, int m,
			enum hist_dim d)
{
	const struct hist_entry *p = hists_group_pair(h, e, (u32)m);

	if (!p)
		return 0;
	return d == HD_SAMPLE ? p->nr_samples : p->period;
}

static void *fill_rows(void *arg)
{
	const struct row_fill *f = arg;
	const struct output_rows *o = f->o;
	const struct hists *h = o->h;
	const u32 *rank = o->rank;
	int nr_keys = o->nr_keys;

	for (u32 j = f->from; j < f->to; j++) {
		const struct hist_entry *e = h->sorted[j];
		u64 *row = o->rows + (size_t)j * o->stride;

		for (int i = 0; i < nr_keys; i++) {
			if (f->member[i] >= 0) {
				row[i] = ~member_count(h, e, f->member[i], f->dims[i]);
				continue;
			}
			switch (f->dims[i]) {
			case HD_CHILDREN:
				row[i] = ~e->acc_period;
				break;
			case HD_OVERHEAD:
			case HD_PERIOD:
				row[i] = ~e->period;
				break;
			case HD_SAMPLE:
				row[i] = ~e->nr_samples;
				break;
			case HD_PID:
				row[i] = (u32)e->tid ^ 0x80000000u;
				break;
			case HD_COMM:
				row[i] = rank[e->comm];
				break;
			case HD_DSO:
				row[i] = rank[e->dso_name];
				break;
			case HD_SYM:
				row[i] = (uintptr_t)e->sym;
				break;
			case HD_CPU:
				row[i] = (u32)e->cpu ^ 0x80000000u;
				break;
			case HD_TRACE:
				row[i] = rank[e->trace];
				break;
			default:	/* the symbol name's prefix */
				row[i] = name_prefix(e->sym);
				break;
			}
		}
		if (o->range_words)
			entry_range(e, &row[nr_keys], &row[nr_keys + 1]);
	}
	return NULL;
}

/* Makes o's rows (a big table's second half on another thread). */
static void *output_rows(void *arg)
{
	struct output_rows *o = arg;
	struct hists *h = o->h;
	const struct hist_layout *lay = h->lay;
	size_t max_keys = HD_NR + 1 + 3 * (size_t)h->group_nr;
	enum hist_dim *dims = xmalloc(max_keys * sizeof(*dims));
	int *member = xmalloc(max_keys * sizeof(*member));
	int nr_keys = 0, sym_key = -1;
	u32 n = h->nr_sorted;
	struct row_fill first = { o, dims, member, 0, n }, second = { o, dims, member, n / 2, n };
	pthread_t thread;
	int threaded = 0;

	for (int i = 0; i < lay->nr_sort; i++) {
		enum hist_dim d = lay->sort[i];

		if (lay->elide_mask & (1u << d))
			continue;
		if (d == HD_SYM) {
			/* the name's first bytes, then the symbol */
			member[nr_keys] = -1;
			dims[nr_keys++] = HD_NR;
			sym_key = nr_keys;
		}
		member[nr_keys] = -1;
		dims[nr_keys++] = d;
		/* a group's counts after the leader's, the members' in order
		   (not the children period's: perf's __hpp__sort_acc()) */
		if (d == HD_OVERHEAD || d == HD_SAMPLE || d == HD_PERIOD) {
			for (u32 m = 0; m < h->group_nr; m++) {
				member[nr_keys] = (int)m;
				dims[nr_keys++] = d;
			}
		}
	}
	o->nr_keys = nr_keys;
	o->sym_key = sym_key;
	o->stride = nr_keys + 1 + (o->range_words ? 2 : 0);
	o->cc_depth = h->cc && dims[0] == HD_CHILDREN;
	o->rows = xmalloc(((size_t)n ? n : 1) * o->stride * sizeof(u64));
	if (n > PARALLEL_SORT_MIN && !h->one_thread) {
		threaded = !pthread_create(&thread, NULL, fill_rows, &second);
		if (threaded)
			first.to = n / 2;
	}
	fill_rows(&first);
	if (o->range_words)
		o->unordered = unordered_dsos(h);
	if (threaded)
		pthread_join(thread, NULL);
	free(dims);
	free(member);
	return NULL;
}

/* Orders h->sorted by the rows o made, their last words (input-tree rank
 * above the entry number) set now; frees them. */
static void output_order(struct hists *h, struct output_rows *o, const u32 *tree_rank)
{
	u64 *rows = o->rows;
	int stride = o->stride;

	for (u32 j = 0; j < h->nr_sorted; j++) {
		u32 n = h->sorted[j] - h->entries;

		rows[(size_t)j * stride + stride - 1] = (u64)tree_rank[n] << 32 | n;
	}
	rows_sort(rows, h->nr_sorted, stride, o->sym_key, h->one_thread ? 1 : 2);
	if (o->cc_depth)
		depth_order(h, rows, stride);
	else
		for (u32 j = 0; j < h->nr_sorted; j++)
			h->sorted[j] = &h->entries[(u32)rows[(size_t)j * stride + stride - 1]];
	free(rows);
}

/*
 * output_order() with range words (ties_by_range()): no input-tree ranks
 * are needed, but for ties in DSOs that do not order by range, which get
 * them from the whole tree.
 */
static void output_order_direct(struct hists *h, struct output_rows *o, const u32 *rank)
{
	u64 *rows = o->rows;
	int stride = o->stride, nr_keys = o->nr_keys;
	u32 *tree_rank = NULL;

	for (u32 j = 0; j < h->nr_sorted; j++)
		rows[(size_t)j * stride + stride - 1] = (u64)(h->sorted[j] - h->entries);
	rows_sort(rows, h->nr_sorted, stride, o->sym_key, h->one_thread ? 1 : 2);
	for (u32 j = 0, end; o->unordered && j < h->nr_sorted; j = end) {
		u64 *run = rows + (size_t)j * stride;
		int bad = 0;

		for (end = j + 1; end < h->nr_sorted &&
		     !rows_cmp(run, rows + (size_t)end * stride, nr_keys, o->sym_key); end++)
			;
		for (u32 k = j; end - j > 1 && k < end; k++)
			bad |= o->unordered[h->entries[(u32)rows[(size_t)k * stride + stride - 1]]
					    .dso_name];
		if (!bad)
			continue;
		if (!tree_rank)
			tree_rank = tree_ranks(h, rank);
		for (u32 k = j; k < end; k++) {
			u64 *r = rows + (size_t)k * stride;
			u32 n = (u32)r[stride - 1];

			r[nr_keys] = r[nr_keys + 1] = 0;
			r[stride - 1] = (u64)tree_rank[n] << 32 | n;
		}
		rows_sort(run, end - j, stride, o->sym_key, 1);
	}
	free(tree_rank);
	free(o->unordered);
	for (u32 j = 0; j < h->nr_sorted; j++)
		h->sorted[j] = &h->entries[(u32)rows[(size_t)j * stride + stride - 1]];
	free(rows);
}

void hist_sort(struct hists *h)
{
	struct output_rows outrows = { 0 };
	u32 *tree_rank, *rank;
	pthread_t rows_thread;
	int rows_threaded;

	rank = string_ranks(h->strs);
	outrows.h = h;
	outrows.rank = rank;
	outrows.range_words = ties_by_range(h);
	if (outrows.range_words) {
		output_rows(&outrows);
		output_order_direct(h, &outrows, rank);
		tree_rank = NULL;
	} else {
		/* the output rows are made while the input order is found */
		rows_threaded = h->nr_sorted > PARALLEL_SORT_MIN && !h->one_thread &&
				!pthread_create(&rows_thread, NULL, output_rows, &outrows);
		if (!rows_threaded)
			output_rows(&outrows);
		tree_rank = tree_ranks(h, rank);
		if (rows_threaded)
			pthread_join(rows_thread, NULL);
		output_order(h, &outrows, tree_rank);
	}
	free(h->input_rank);
	h->input_rank = tree_rank;
	free(rank);
}
