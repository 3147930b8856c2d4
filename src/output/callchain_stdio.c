/*
 * callchain_stdio.c - perf 6.1's stdio call-graph printers
 * (callchain__fprintf_graph, __callchain__fprintf_graph,
 * callchain__fprintf_flat, callchain__fprintf_folded).
 *
 * perf first sorts each node's children into an output tree (perf's
 * callchain_param.sort), keeping those at or above the threshold, by
 * cumulated period (graph, fractal) or own period (flat, folded list of
 * nodes), ties in the order of its input tree; here each level is sorted
 * when it is printed.  Invariants: the depth mask is an int whose bit i
 * is tested as x86 does (shift count mod 32), as in perf; nothing in the
 * forest is changed.
 */
#include "callchain_stdio.h"

#include "../util/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct printer {
	FILE *out;
	const struct callchain_forest *f;
	const struct callchain_print_opts *o;
	size_t printed;		/* bytes, as perf's ret */
};

static void out_str(struct printer *p, const char *s)
{
	p->printed += strlen(s);
	fputs(s, p->out);
}

static void out_spaces(struct printer *p, int n)
{
	for (int i = 0; i < n; i++)
		putc(' ', p->out);
	p->printed += n > 0 ? n : 0;
}

/* perf's callchain_list__sym_name(): the symbol, or the address. */
static void out_item(struct printer *p, const struct cc_item *it)
{
	char buf[32];

	if (it->sym) {
		out_str(p, symbol_name(it->sym));
		if (symbol_inlined(it->sym))
			out_str(p, " (inlined)");
		return;
	}
	snprintf(buf, sizeof(buf), "%#" PRIx64, (uint64_t)it->ip);
	out_str(p, buf);
}

/* perf's callchain_node__fprintf_value(); hit/count of the node as the
 * mode counts it. */
static void out_value(struct printer *p, u64 hit, u32 count, u64 total)
{
	char buf[64];

	switch (p->o->param->value) {
	case CC_VAL_PERIOD:
		snprintf(buf, sizeof(buf), "%" PRIu64, (uint64_t)hit);
		break;
	case CC_VAL_COUNT:
		snprintf(buf, sizeof(buf), "%u", count);
		break;
	default:
		snprintf(buf, sizeof(buf), "%.2f%%", total ? hit * 100.0 / total : 0.0);
		break;
	}
	out_str(p, buf);
}

static int mask_bit(int mask, int i)
{
	return mask & (1 << (i & 31));
}

/* Sorted children of node kept by min_hit, by cumulated period (stable
 * in the input order).  Returns how many; *list is malloc'ed. */
static u32 sorted_children(const struct callchain_forest *f, u32 node, u64 min_hit, u32 **list)
{
	const u32 *in;
	u32 nr = callchain_children(f, node, &in), kept = 0;
	u32 *l = xmalloc((nr ? nr : 1) * sizeof(*l));

	for (u32 i = 0; i < nr; i++) {
		u64 c = cc_cumul_hits(&f->nodes[in[i]]);
		u32 j = kept++;

		if (c < min_hit) {
			kept--;
			continue;
		}
		/* insertion: after every node with a cumul >= c */
		while (j > 0 && cc_cumul_hits(&f->nodes[l[j - 1]]) < c) {
			l[j] = l[j - 1];
			j--;
		}
		l[j] = in[i];
	}
	*list = l;
	return kept;
}

/* The threshold for node's children: fractal's per-node one, else the
 * histogram's. */
static u64 min_hit_of(const struct printer *p, u32 node)
{
	if (p->o->param->mode == CC_GRAPH_REL)
		return (u64)ceil(p->f->nodes[node].children_hit * (p->o->param->min_percent / 100.0));
	return p->o->min_hit;
}

static void left_margin(struct printer *p, int margin)
{
	out_spaces(p, 12 + margin);
}

/* perf's ipchain__fprintf_graph_line(). */
static void graph_line(struct printer *p, int depth, int mask, int margin)
{
	left_margin(p, margin);
	for (int i = 0; i < depth; i++)
		out_str(p, mask_bit(mask, i) ? "|          " : "           ");
	out_str(p, "\n");
}

/* perf's ipchain__fprintf_graph(): one item; the first of a node (nth 0)
 * carries the node's value. */
static void graph_item(struct printer *p, u64 hit, u32 count, const struct cc_item *it,
		       const char *name, int depth, int mask, int nth, u64 total, int margin)
{
	left_margin(p, margin);
	for (int i = 0; i < depth; i++) {
		out_str(p, mask_bit(mask, i) ? "|" : " ");
		if (!nth && i == depth - 1) {
			out_str(p, "--");
			out_value(p, hit, count, total);
			out_str(p, "--");
		} else {
			out_str(p, "          ");
		}
	}
	if (it)
		out_item(p, it);
	else
		out_str(p, name);
	out_str(p, "\n");
}

/* perf's __callchain__fprintf_graph() over the children of node. */
static void graph_level(struct printer *p, u32 node, u64 total, int depth, int depth_mask,
			int margin)
{
	const struct callchain_forest *f = p->f;
	const struct callchain_param *cp = p->o->param;
	u32 *list, nr = sorted_children(f, node, min_hit_of(p, node), &list), printed = 0;
	int new_mask = depth_mask;
	u64 remaining = total;
	u32 last = 0;
	long cumul_count = 0;

	for (u32 k = 0; k < nr; k++) {
		const struct cc_node *c = &f->nodes[list[k]];

		last = list[k];
		remaining -= cc_cumul_hits(c);
		cumul_count += cc_cumul_counts(c);
		if (k + 1 == nr && (cp->mode != CC_GRAPH_REL || !remaining))
			new_mask &= ~(1 << ((depth - 1) & 31));
		graph_line(p, depth, depth_mask, margin);
		for (u32 i = 0; i < c->nr_items; i++)
			graph_item(p, cc_cumul_hits(c), cc_cumul_counts(c), &f->items[c->item + i],
				   NULL, depth, new_mask, i, total, margin);
		graph_level(p, list[k], cp->mode == CC_GRAPH_REL ? c->children_hit : total,
			    depth + 1, new_mask | (1 << (depth & 31)), margin);
		if (++printed == cp->print_limit)
			break;
	}
	free(list);
	if (cp->mode == CC_GRAPH_REL && remaining && remaining != total) {
		long count = 0;

		if (cp->value == CC_VAL_COUNT && last) {
			count = (long)f->nodes[f->nodes[last].parent].children_count - cumul_count;
			if (count <= 0)
				return;
		}
		new_mask &= ~(1 << ((depth - 1) & 31));
		graph_item(p, remaining, (u32)count, NULL, "[...]", depth, new_mask, 0, total,
			   margin);
	}
}

/* perf's callchain__fprintf_graph(). */
static void print_graph(struct printer *p, u32 root, u64 parent_samples)
{
	const struct callchain_forest *f = p->f;
	const struct callchain_param *cp = p->o->param;
	u64 total = p->o->total_period;
	u32 *list, nr = sorted_children(f, root, min_hit_of(p, root), &list);
	u32 start = root, printed_items = 0;
	int margin = 0, printed = 0;

	if (nr == 1 && cc_cumul_hits(&f->nodes[list[0]]) == parent_samples) {
		const struct cc_node *c = &f->nodes[list[0]];

		for (u32 i = 0; i < c->nr_items; i++) {
			if (!i && p->o->skip_first)
				continue;
			if (!printed) {
				left_margin(p, margin);
				out_str(p, "|\n");
				left_margin(p, margin);
				out_str(p, "---");
				margin += 3;
				printed = 1;
			} else {
				left_margin(p, margin);
			}
			out_item(p, &f->items[c->item + i]);
			out_str(p, "\n");
			if (++printed_items == cp->print_limit)
				break;
		}
		start = list[0];
	}
	free(list);
	if (cp->mode == CC_GRAPH_REL)
		total = parent_samples;
	graph_level(p, start, total, 1, 1, margin);
	if (p->printed)
		out_str(p, "\n");
}

/* Collects the nodes of the tree with a hit of at least min_hit in
 * perf's order: children (in input order) before their parent. */
static void collect_flat(const struct callchain_forest *f, u32 node, u64 min_hit,
			 u32 **list, u32 *nr, u32 *alloc)
{
	const u32 *in;
	u32 n = callchain_children(f, node, &in);
	const struct cc_node *c = &f->nodes[node];

	for (u32 i = 0; i < n; i++)
		collect_flat(f, in[i], min_hit, list, nr, alloc);
	if (c->hit && c->hit >= min_hit) {
		if (*nr == *alloc) {
			*alloc *= 2;
			*list = xrealloc(*list, *alloc * sizeof(**list));
		}
		(*list)[(*nr)++] = node;
	}
}

static int by_hit_desc(const void *a, const void *b, void *vf)
{
	const struct callchain_forest *f = vf;
	u64 x = f->nodes[*(const u32 *)a].hit, y = f->nodes[*(const u32 *)b].hit;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The path from the root to node, outermost node first. */
static void print_path(struct printer *p, u32 node, const char *prefix, const char *sep,
		       int *first)
{
	const struct cc_node *c = &p->f->nodes[node];

	if (!c->nr_items)
		return;
	print_path(p, c->parent, prefix, sep, first);
	for (u32 i = 0; i < c->nr_items; i++) {
		if (prefix)
			out_str(p, prefix);
		else if (!*first)
			out_str(p, sep);
		*first = 0;
		out_item(p, &p->f->items[c->item + i]);
		if (prefix)
			out_str(p, "\n");
	}
}

/* perf's callchain__fprintf_flat() and callchain__fprintf_folded(). */
static void print_paths(struct printer *p, u32 root)
{
	const struct callchain_param *cp = p->o->param;
	u32 alloc = 64, nr = 0, *list = xmalloc(alloc * sizeof(*list));

	collect_flat(p->f, root, p->o->min_hit, &list, &nr, &alloc);
	/* stable: equal hits keep the collection order */
	for (u32 i = 1; i < nr; i++) {
		u32 v = list[i], j = i;

		while (j > 0 && by_hit_desc(&list[j - 1], &v, (void *)p->f) > 0) {
			list[j] = list[j - 1];
			j--;
		}
		list[j] = v;
	}
	for (u32 i = 0; i < nr; i++) {
		const struct cc_node *c = &p->f->nodes[list[i]];
		int first = 1;

		if (cp->mode == CC_FLAT) {
			out_str(p, "           ");
			out_value(p, cc_cumul_hits(c), cc_cumul_counts(c), p->o->total_period);
			out_str(p, "\n");
			print_path(p, list[i], "                ", NULL, &first);
			out_str(p, "\n");
		} else {
			out_value(p, c->hit, c->count, p->o->total_period);
			out_str(p, " ");
			print_path(p, list[i], NULL, ";", &first);
			out_str(p, "\n");
		}
		if (i + 1 == cp->print_limit)
			break;
	}
	free(list);
}

void callchain_print(FILE *out, const struct callchain_forest *f, u32 root,
		     u64 parent_samples, const struct callchain_print_opts *o)
{
	struct printer p = { out, f, o, 0 };

	if (!root)
		return;
	switch (o->param->mode) {
	case CC_GRAPH_ABS:
	case CC_GRAPH_REL:
		print_graph(&p, root, parent_samples);
		break;
	case CC_FLAT:
	case CC_FOLDED:
		print_paths(&p, root);
		break;
	default:
		break;
	}
}
