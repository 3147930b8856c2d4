/*
 * read_values.c - the values of a PERF_SAMPLE_READ sample as perf 6.1
 * hands them on (util/session.c's deliver_sample_group() and
 * deliver_sample_value()): once per value read, as a sample of the value's
 * event (found by its id), whose period is the value's growth since that
 * id's last sample; a value of an unknown id, or one that did not grow,
 * is not handed on.
 *
 * Layout of the READ field (read_format of the sample's event):
 *   without FORMAT_GROUP: value, [enabled], [running], [id], [lost]
 *   with FORMAT_GROUP:    nr, [enabled], [running], nr x {value, [id], [lost]}
 * (decoded by pd_parse_sample() into s->read).
 *
 * Invariant: the last value of each id is kept in the caller's state
 * across the whole read (perf's sid->period), starting at 0.
 */
#include "read_values.h"
#include "../util/error.h"
#include "../util/hash.h"

#include <stdlib.h>
#include <string.h>

/* The slot of id in the table (its own, or the empty one for it). */
static u32 id_slot(const struct pd_read_state *r, u64 id)
{
	u32 i = (u32)hash_u64(id) & r->mask;

	while (r->used[i] && r->id[i] != id)
		i = (i + 1) & r->mask;
	return i;
}

/* Makes room for one more id. */
static void grow(struct pd_read_state *r)
{
	struct pd_read_state old = *r;

	r->mask = old.mask ? old.mask * 2 + 1 : 63;
	r->id = xmalloc(((size_t)r->mask + 1) * sizeof(*r->id));
	r->last = xmalloc(((size_t)r->mask + 1) * sizeof(*r->last));
	r->used = xcalloc((size_t)r->mask + 1, 1);
	for (u32 i = 0; old.used && i <= old.mask; i++) {
		u32 k;

		if (!old.used[i])
			continue;
		k = id_slot(r, old.id[i]);
		r->used[k] = 1;
		r->id[k] = old.id[i];
		r->last[k] = old.last[i];
	}
	free(old.id);
	free(old.last);
	free(old.used);
}

/* The growth of id's value to v since its last sample. */
static u64 growth(struct pd_read_state *r, u64 id, u64 v)
{
	u32 k;
	u64 d;

	if (!r->used || 2 * (r->nr + 1) > r->mask + 1)
		grow(r);
	k = id_slot(r, id);
	if (!r->used[k]) {
		r->used[k] = 1;
		r->id[k] = id;
		r->last[k] = 0;
		r->nr++;
	}
	d = v - r->last[k];
	r->last[k] = v;
	return d;
}

int pd_read_next(const struct pd_file *f, const struct pd_evsel *from, const struct pd_sample *s,
		 struct pd_read_state *st, u64 *k, struct pd_evsel **evsel, u64 *period)
{
	int has_id = !!(from->attr.read_format & PD_FORMAT_ID);

	while (*k < s->read.nr) {
		struct pd_evsel *e;
		u64 v, id;

		if (s->read.values) {
			/* {value, [id], [lost]} */
			const u8 *p = s->read.values + *k * s->read.value_words * 8;

			v = pd_get64(p);
			id = has_id ? pd_get64(p + 8) : 0;
		} else {
			v = s->read.value;
			id = s->read.id;
		}
		(*k)++;
		if (!has_id || !(e = pd_evsel_by_id(f, id)))
			continue;	/* perf's nr_unknown_id */
		*period = growth(st, id, v);
		if (!*period)
			continue;
		*evsel = e;
		return 1;
	}
	return 0;
}

void pd_read_state_free(struct pd_read_state *r)
{
	free(r->id);
	free(r->last);
	free(r->used);
	memset(r, 0, sizeof(*r));
}
