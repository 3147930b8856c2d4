/*
 * hist_finish.c - hists_finish(): what is left to do once every sample is
 * in: the queued adds, the credits of repeated call-graph records, the
 * comms as they read at the end (and the entries that become equal by
 * them, merged as perf's collapse merges them), the entries late adds
 * made put back in the order of their first samples, the call-graph
 * trees (on a thread of their own), the totals, the column widths and the
 * output order (hist_order.c).
 */
#include "hist_impl.h"
#include "../util/error.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What hists_record_callgraph() left for the end: each record's later
 * samples credited to the entries its chain reaches past the sample's
 * own (walks[0], credited by their adds), as their walks would have. */
static void credit_records(struct hists *h)
{
	const struct callchain_forest *f = h->cc;

	for (u32 i = 0; i < f->nr_seen; i++) {
		const struct chain_rec *r = &f->recs[i];
		const struct cc_walk *w = f->rec_walks + r->walk;

		if (!r->again_period)
			continue;
		for (u32 k = 1; k < r->nr_walks; k++)
			h->entries[w[k].tree].acc_period += r->again_period;
	}
}

struct seq_entry {
	u64 seq;
	u32 entry;
};

static int seq_entry_cmp(const void *pa, const void *pb)
{
	const struct seq_entry *a = pa, *b = pb;

	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/*
 * Late adds made or took over entries: puts the entries back in the order
 * their first samples came in (the entries one sample made, in the order
 * it made them), which is what ties in the output follow.  The others were
 * made in that order already: the late ones, sorted, merge into them.
 * The call-graph roots stay where they were: returns where each entry
 * came from (for place_roots()).
 */
static u32 *restore_order(struct hists *h)
{
	u32 n = h->nr_entries, nr_late = 0, k = 0, j = 0;
	u8 *mark = xcalloc(n ? n : 1, 1);	/* first: the late entries */
	struct seq_entry *late = xmalloc((h->nr_late_entries + 1) * sizeof(*late));
	u32 *order = xmalloc((n ? n : 1) * sizeof(*order));

	for (u32 i = 0; i < h->nr_late_entries; i++) {
		u32 e = h->late_entries[i];

		if (mark[e])
			continue;
		mark[e] = 1;
		late[nr_late].seq = h->origins[e].seq;
		late[nr_late++].entry = e;
	}
	qsort(late, nr_late, sizeof(*late), seq_entry_cmp);
	for (u32 i = 0; i < n; i++) {
		if (mark[i])
			continue;
		while (k < nr_late && seq_entry_cmp(&late[k], &(struct seq_entry){
				h->origins[i].seq, i }) < 0)
			order[j++] = late[k++].entry;
		order[j++] = i;
	}
	while (k < nr_late)
		order[j++] = late[k++].entry;
	/* in place, a cycle at a time (mark now says which places are done) */
	memset(mark, 0, n);
	for (u32 i = 0; i < n; i++) {
		struct hist_entry e;
		struct hist_origin o;
		u32 to = i;

		if (mark[i] || order[i] == i)
			continue;
		e = h->entries[i];
		o = h->origins[i];
		for (;;) {
			u32 from = order[to];

			mark[to] = 1;
			if (from == i)
				break;
			h->entries[to] = h->entries[from];
			h->origins[to] = h->origins[from];
			to = from;
		}
		h->entries[to] = e;
		h->origins[to] = o;
	}
	free(mark);
	free(late);
	/* made again for the next add */
	free(h->index);
	h->index = NULL;
	h->index_mask = 0;
	h->last_entry = HIST_NO_ENTRY;
	h->nr_late_entries = 0;
	return order;
}

/* Moves the call-graph roots as restore_order() moved the entries (moved:
 * what it returned, or NULL), and frees moved. */
static void place_roots(struct hists *h, u32 *moved)
{
	u32 *roots;

	if (!moved || !h->cc) {
		free(moved);
		return;
	}
	roots = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*roots));
	for (u32 i = 0; i < h->nr_entries; i++)
		roots[i] = h->cc_roots[moved[i]];
	memcpy(h->cc_roots, roots, h->nr_entries * sizeof(*roots));
	free(roots);
	free(moved);
}

/*
 * Gives each entry the comm its creator's string reads now; returns 1
 * when comm is a key and some changed: then merge_comms() must follow,
 * with *created (malloc'ed) holding each entry's comm as it read when the
 * entry was made.
 */
static int rewrite_comms(struct hists *h, u32 **created)
{
	struct hist_strings *hs = h->strs;
	u32 *final = xmalloc((hs->nr_comm ? hs->nr_comm : 1) * sizeof(u32));
	int changed = 0, by_comm = (h->lay->key_mask & (1u << HD_COMM)) != 0;
	u32 *old = by_comm ? xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(u32)) : NULL;

	for (u32 i = 0; i < hs->nr_comm; i++)
		final[i] = hist_intern(hs, hs->comm_ptr[i]);
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];
		u32 comm = final[h->origins[i].comm_slot];

		if (old)
			old[i] = e->comm;
		changed |= e->comm != comm;
		e->comm = comm;
	}
	free(final);
	if (!changed || !by_comm) {
		free(old);
		*created = NULL;
		return 0;
	}
	*created = old;
	return 1;
}

/* An entry of a group merge_comms() merges: the group's new place, the
 * entry's old one, and its comm when it was made. */
struct comm_member {
	u32 group, entry;
	const char *created;
};

static int comm_member_cmp(const void *pa, const void *pb)
{
	const struct comm_member *a = pa, *b = pb;
	int r;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if ((r = strcmp(a->created, b->created)))
		return r;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/*
 * The call-graph trees of merge_comms()' groups (group[i]: entry i's new
 * place; roots: the trees by old place), merged as perf's collapse merges
 * them: it takes its input tree in order, the first entry of a group
 * stays and the others' paths are added to its tree in that order (with
 * a count of one each).  perf made each entry with the comm it read then
 * (created[]: a thread's placeholder ":tid" before its name came) and
 * its input tree, sorted by that, is in strcmp order of those comms
 * (ascending) within a group.
 */
static void merge_comm_trees(struct hists *h, const u32 *group, const u32 *roots,
			     const u32 *created, u32 n)
{
	u32 *size = xcalloc(h->nr_entries ? h->nr_entries : 1, sizeof(u32)), nr = 0;
	struct comm_member *m;

	for (u32 i = 0; i < n; i++)
		size[group[i]]++;
	m = xmalloc((n ? n : 1) * sizeof(*m));
	for (u32 i = 0; i < n; i++) {
		if (size[group[i]] < 2) {
			h->cc_roots[group[i]] = roots[i];
			continue;
		}
		m[nr].group = group[i];
		m[nr].entry = i;
		m[nr++].created = h->strs->str[created[i]];
	}
	qsort(m, nr, sizeof(*m), comm_member_cmp);
	for (u32 j = 0; j < nr; j++) {
		if (j && m[j].group == m[j - 1].group)
			callchain_merge(h->cc, &h->cc_roots[m[j].group], roots[m[j].entry]);
		else
			h->cc_roots[m[j].group] = roots[m[j].entry];
	}
	free(m);
	free(size);
}

/* Merges entries whose comms became equal (perf's collapse by strcmp);
 * the earliest entry of a group takes the group's place, the trees merge
 * as merge_comm_trees() says (created: rewrite_comms()'). */
static void merge_comms(struct hists *h, const u32 *created)
{
	u32 n = h->nr_entries, nr = 0, *group = xmalloc((n ? n : 1) * sizeof(u32));
	u32 *roots = NULL;

	if (h->cc) {
		roots = xmalloc((n ? n : 1) * sizeof(u32));
		memcpy(roots, h->cc_roots, n * sizeof(u32));
	}
	free(h->index);
	h->index_mask = 1023;
	while ((u64)h->nr_entries * 2 > (u64)h->index_mask + 1)
		h->index_mask = h->index_mask * 2 + 1;
	h->index = xcalloc_written(h->index_mask + 1, sizeof(u64));
	for (u32 i = 0; i < n; i++) {
		struct hist_entry *e = &h->entries[i];
		u64 slot;
		u32 k;

		e->hash = key_hash(h->lay->key_mask, e);
		k = hist_index_probe(h->index, h->index_mask, h->entries, h->lay->key_mask, e,
				     e->hash);
		if ((slot = h->index[k])) {
			struct hist_entry *o = &h->entries[SLOT_ENTRY(slot)];

			o->period += e->period;
			o->acc_period += e->acc_period;
			o->nr_samples += e->nr_samples;
			/* perf compares comms by what they read when a sample
			   comes: after the rewrite its later samples went into
			   the earlier entry, whose chains then reached deeper */
			if (h->origins[i].max_depth > h->origins[SLOT_ENTRY(slot)].max_depth)
				h->origins[SLOT_ENTRY(slot)].max_depth = h->origins[i].max_depth;
			group[i] = SLOT_ENTRY(slot);
			continue;
		}
		h->entries[nr] = *e;
		h->origins[nr] = h->origins[i];
		h->index[k] = SLOT(e->hash, nr);
		group[i] = nr++;
	}
	h->nr_entries = nr;
	if (h->cc)
		merge_comm_trees(h, group, roots, created, n);
	free(roots);
	free(group);
}

/*
 * Which entries' trees can print a node: none whose period (its tree's
 * total) is below the threshold of cc_print_percent of the total period,
 * summed over the entries merge_comms() will merge it with (those equal
 * in every key, their comms rewritten already).  NULL: all of them (no
 * threshold, or filtered entries, which make the total the output uses
 * uncertain).
 */
static u8 *trees_needed(const struct hists *h)
{
	unsigned mask = h->lay->key_mask;
	u32 n = h->nr_entries, index_mask = 1023, *group;
	u64 total = 0, min_hit, *sum, *index;
	u8 *need;

	if (h->cc_print_percent <= 0)
		return NULL;
	for (u32 i = 0; i < n; i++) {
		if (h->entries[i].filtered)
			return NULL;
		total += h->entries[i].period;
	}
	min_hit = (u64)(total * (h->cc_print_percent / 100));
	if (!min_hit)
		return NULL;
	while ((u64)n * 2 > (u64)index_mask + 1)
		index_mask = index_mask * 2 + 1;
	index = xcalloc_written((size_t)index_mask + 1, sizeof(*index));
	group = xmalloc((n ? n : 1) * sizeof(*group));
	sum = xcalloc(n ? n : 1, sizeof(*sum));
	for (u32 i = 0; i < n; i++) {
		const struct hist_entry *e = &h->entries[i];
		u32 hash = key_hash(mask, e), k;
		u64 slot;

		k = hist_index_probe(index, index_mask, h->entries, mask, e, hash);
		if (!(slot = index[k]))
			index[k] = slot = SLOT(hash, i);
		group[i] = SLOT_ENTRY(slot);
		sum[group[i]] += e->acc_period;
	}
	need = xmalloc(n ? n : 1);
	for (u32 i = 0; i < n; i++)
		need[i] = sum[group[i]] >= min_hit;
	free(index);
	free(group);
	free(sum);
	return need;
}

static void *finish_trees(void *forest)
{
	callchain_finish(forest);
	return NULL;
}

/* What hists_finish() asks of the trees' thread. */
struct tree_job {
	struct hists *h;
	u8 *need;		/* trees_needed() */
};

/* Builds the trees needed (at the entries' numbers before
 * restore_order()) and their sibling lists. */
static void *build_trees(void *vjob)
{
	struct tree_job *job = vjob;

	callchain_build(job->h->cc, job->h->cc_roots, job->need);
	callchain_finish(job->h->cc);
	return NULL;
}

/* Starts fn(arg) on a thread (returns 1), or runs it here (0). */
static int run_trees(const struct hists *h, pthread_t *thread, void *(*fn)(void *), void *arg)
{
	if (!h->one_thread && !pthread_create(thread, NULL, fn, arg))
		return 1;
	fn(arg);
	return 0;
}

/* The column widths' job: the shown entries' name lengths. */
struct width_job {
	struct hists *h;
	int dso_list_given;
	struct hist_entry **shown;	/* a copy of h->sorted, or NULL */
};

/* The column widths as a job for a thread. */
static void *column_widths(void *arg)
{
	const struct width_job *job = arg;

	hist_column_widths(job->h, job->shown ? job->shown : job->h->sorted, job->dso_list_given);
	return NULL;
}

void hist_collect_shown(struct hists *h)
{
	free(h->sorted);
	h->sorted = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*h->sorted));
	h->nr_sorted = 0;
	h->total_period = h->total_non_filtered_period = 0;
	h->nr_non_filtered_samples = 0;
	for (u32 i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = &h->entries[i];

		h->total_period += e->period;
		if (e->filtered)
			continue;
		h->total_non_filtered_period += e->period;
		h->nr_non_filtered_samples += e->nr_samples;
		h->sorted[h->nr_sorted++] = e;
	}
}

void hists_finish(struct hists *h, int dso_list_given)
{
	struct width_job widths = { h, dso_list_given, NULL };
	pthread_t trees, widths_thread;
	int trees_threaded = 0, widths_threaded, comms_changed;
	struct tree_job job = { h, NULL };
	u32 *moved = NULL, *created_comms;

	hist_apply_queued(h);
	if (h->cc)
		credit_records(h);
	/* the comms as the entries print (trees_needed() groups by them) */
	comms_changed = rewrite_comms(h, &created_comms);
	/* the trees are built meanwhile: nothing below reads them or their
	   roots until the merges, which wait for them */
	if (h->cc) {
		job.need = trees_needed(h);
		trees_threaded = run_trees(h, &trees, build_trees, &job);
	}
	if (h->nr_late_entries)
		moved = restore_order(h);
	if (comms_changed) {
		if (trees_threaded)
			pthread_join(trees, NULL);
		trees_threaded = 0;
		if (moved) {
			/* created_comms by the entries' new places */
			u32 *at = xmalloc(h->nr_entries * sizeof(*at));

			for (u32 i = 0; i < h->nr_entries; i++)
				at[i] = created_comms[moved[i]];
			free(created_comms);
			created_comms = at;
		}
		place_roots(h, moved);
		moved = NULL;
		merge_comms(h, created_comms);
		free(created_comms);
		if (h->cc)
			trees_threaded = run_trees(h, &trees, finish_trees, h->cc);
	}

	hist_collect_shown(h);
	/* the widths read the shown entries while hist_sort() only
	   reorders the pointers to them: a copy for the widths */
	widths_threaded = 0;
	if (!h->one_thread && h->nr_sorted > PARALLEL_SORT_MIN) {
		widths.shown = xmalloc(h->nr_sorted * sizeof(*widths.shown));
		memcpy(widths.shown, h->sorted, h->nr_sorted * sizeof(*widths.shown));
		widths_threaded = !pthread_create(&widths_thread, NULL, column_widths, &widths);
	}
	if (!widths_threaded)
		column_widths(&widths);

	hist_sort(h);
	if (widths_threaded)
		pthread_join(widths_thread, NULL);
	free(widths.shown);
	if (trees_threaded)
		pthread_join(trees, NULL);
	place_roots(h, moved);
	free(job.need);
}
