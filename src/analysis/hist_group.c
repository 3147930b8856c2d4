/*
 * hist_group.c - an event group's histograms shown as one: perf 6.1's
 * hists__match() and hists__link() (util/hist.c) of each member into its
 * leader, and the leader's order again with the members' counts
 * (ui/hist.c's __hpp__sort() with event groups).
 *
 * Invariants: a leader entry is paired with at most one entry of each
 * member, the one of the same key (perf's collapse comparison: the key
 * fields of the sort list); the members are linked in group order, each
 * into the leader as the previous ones left it, so a key two members
 * have but the leader not gets one leader entry.  Nothing of a member
 * changes.
 */
#include "hist_impl.h"
#include "../util/error.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The leader's entries by key: open addressing, entry + 1 (0: empty). */
struct key_index {
	u32 *slot;
	u32 mask;
};

static u32 key_slot(const struct key_index *ix, const struct hists *h, const struct hist_entry *e)
{
	unsigned mask = h->lay->key_mask;
	u32 i = key_hash(mask, e) & ix->mask;

	while (ix->slot[i] && !same_key(mask, &h->entries[ix->slot[i] - 1], e))
		i = (i + 1) & ix->mask;
	return i;
}

/* The member's entries in the order of its input tree (what perf's
 * hists__link() walks): by input rank when it has one, else as made. */
static u32 *member_order(const struct hists *m)
{
	u32 n = m->nr_entries, *order = xmalloc((n ? n : 1) * sizeof(*order));

	for (u32 i = 0; i < n; i++)
		order[m->input_rank ? m->input_rank[i] : i] = i;
	return order;
}

void hists_group_link(struct hists *leader, struct hists *const *members, u32 nr,
		      int dso_list_given)
{
	u32 total = leader->nr_entries, alloc_pairs;
	struct key_index ix;
	u32 *pair;

	assert(!leader->group_nr && nr > 0);
	for (u32 m = 0; m < nr; m++)
		total += members[m]->nr_entries;
	ix.mask = 15;
	while (ix.mask + 1 < 2 * (u64)total)
		ix.mask = ix.mask * 2 + 1;
	ix.slot = xcalloc((size_t)ix.mask + 1, sizeof(u32));
	for (u32 i = 0; i < leader->nr_entries; i++) {
		u32 k = key_slot(&ix, leader, &leader->entries[i]);

		if (!ix.slot[k])
			ix.slot[k] = i + 1;
	}
	alloc_pairs = total ? total : 1;
	pair = xcalloc((size_t)alloc_pairs * nr, sizeof(u32));
	for (u32 m = 0; m < nr; m++) {
		const struct hists *mh = members[m];
		u32 *order = member_order(mh);

		for (u32 j = 0; j < mh->nr_entries; j++) {
			const struct hist_entry *me = &mh->entries[order[j]];
			u32 k = key_slot(&ix, leader, me), n;

			if (ix.slot[k]) {
				n = ix.slot[k] - 1;
			} else {
				/* perf's hists__add_dummy_entry(): the member's
				   entry with zero counts and no call graph */
				struct hist_entry *e;
				struct hist_origin *o;

				hist_entry_room(leader);
				n = leader->nr_entries++;
				e = &leader->entries[n];
				*e = *me;
				e->period = e->acc_period = e->nr_samples = 0;
				o = &leader->origins[n];
				*o = mh->origins[order[j]];
				o->max_depth = 0;
				if (leader->cc_roots)
					leader->cc_roots[n] = 0;
				ix.slot[k] = n + 1;
			}
			assert(n < alloc_pairs);
			pair[(size_t)n * nr + m] = order[j] + 1;
		}
		free(order);
	}
	free(ix.slot);
	leader->group_nr = nr;
	leader->group_members = xmalloc(nr * sizeof(*leader->group_members));
	memcpy(leader->group_members, members, nr * sizeof(*members));
	leader->group_pair = pair;
	/* the shown entries, their widths and order again, with the new ones */
	hist_collect_shown(leader);
	hist_column_widths(leader, leader->sorted, dso_list_given);
	hist_sort(leader);
}

const struct hist_entry *hists_group_pair(const struct hists *leader, const struct hist_entry *e,
					  u32 m)
{
	u32 p;

	assert(m < leader->group_nr);
	p = leader->group_pair[(size_t)(e - leader->entries) * leader->group_nr + m];
	return p ? &leader->group_members[m]->entries[p - 1] : NULL;
}
