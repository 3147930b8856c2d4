/*
 * hist_impl.h - what the files of the histogram share (hist_strings.c,
 * hist_layout.c, hist_add.c, hist_order.c, hist_finish.c): the string
 * table's layout, the entry keys' hash and index, and the steps of
 * hists_finish() that live in the other files.  Included by those files
 * only: users include hist.h (the report engine also hist_int.h).
 */
#ifndef PROF_ANALYSIS_HIST_IMPL_H
#define PROF_ANALYSIS_HIST_IMPL_H

#include "hist_int.h"
#include "../util/arena.h"
#include "../util/hash.h"

#include <stdint.h>

/* ---- interned strings (hist_strings.c) ------------------------------------ */

/* An open-addressing map from a pointer (a comm string, a DSO or a symbol)
 * to a u32 value. */
struct ptr_map {
	const void **keys;
	u32 *vals;
	u32 mask, nr;
};

#define LAST_LOOKUPS 16		/* cpus with lookup caches of their own */

struct hist_strings {
	struct arena arena;
	const char **str;	/* id -> string (DSO names, final comms) */
	u32 *len;		/* id -> strlen */
	u32 nr, alloc;
	u32 *str_index;		/* open addressing: id + 1, 0 empty */
	u32 str_mask;
	struct ptr_map dso_ids;	/* DSO -> string id of its short name */
	struct ptr_map comm_ids;	/* comm pointer -> comm slot */
	const char **comm_ptr;	/* comm slot -> the session's string */
	u32 *comm_sid;		/* comm slot -> id of what it read last */
	u32 *comm_epoch;	/* comm slot -> session comm epoch then */
	u32 nr_comm, alloc_comm;
	struct last_lookup {	/* per cpu (mod LAST_LOOKUPS): samples of
				   several cpus interleave */
		const struct dso *dso[2];	/* the DSOs looked up last, the
					   latest first (a thread goes back
					   and forth between its program and
					   the kernel) */
		u32 dso_id[2];		/* and their string ids */
		u32 comm_epoch;		/* the comm looked up last, at this
					   session comm epoch, */
		const char *comm;
		u32 comm_slot, comm_id;	/* and what it gave */
	} last[LAST_LOOKUPS];
	struct ptr_map dso_verdict;	/* DSO -> filter verdict */
	struct ptr_map sym_verdict;	/* symbol -> filter verdict */
};

/* Returns the slot of key: its own, or the empty one where it goes. */
static inline u32 ptr_map_slot(const struct ptr_map *m, const void *key)
{
	u32 i = (u32)hash_u64((uintptr_t)key) & m->mask;

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

/* Puts key -> val in m (a new key, or a new value for one in it). */
void ptr_map_put(struct ptr_map *m, const void *key, u32 val);
/* The id of string s, adding a copy when it is new (ids start at 1). */
u32 hist_intern(struct hist_strings *hs, const char *s);

/* The string id of a DSO's short name; last: the cpu's last lookups. */
static inline u32 dso_id(struct hist_strings *hs, const struct dso *dso, struct last_lookup *last)
{
	u32 i, id;

	if (dso == last->dso[0])
		return last->dso_id[0];
	if (dso == last->dso[1]) {
		id = last->dso_id[1];
	} else if (hs->dso_ids.keys[i = ptr_map_slot(&hs->dso_ids, dso)]) {
		id = hs->dso_ids.vals[i];
	} else {
		id = hist_intern(hs, dso_short_name(dso));
		ptr_map_put(&hs->dso_ids, dso, id);
	}
	last->dso[1] = last->dso[0];
	last->dso_id[1] = last->dso_id[0];
	last->dso[0] = dso;
	last->dso_id[0] = id;
	return id;
}

/* hist_dso_id() inside the histogram's files. */
static inline u32 dso_name_id(struct hist_strings *hs, const struct dso *dso)
{
	return dso ? dso_id(hs, dso, &hs->last[0]) : 0;
}

/* ---- entry keys and the entry index (hist_add.c, hist_finish.c) ----------- */

/* Do a and b fall in the same entry (perf's hist_entry__cmp() == 0)? */
static inline int same_key(unsigned mask, const struct hist_entry *a, const struct hist_entry *b)
{
	if ((mask & (1u << HD_PID)) && a->tid != b->tid)
		return 0;
	if ((mask & (1u << HD_COMM)) && a->comm != b->comm)
		return 0;
	if ((mask & (1u << HD_DSO)) && a->dso_name != b->dso_name)
		return 0;
	if ((mask & (1u << HD_CPU)) && a->cpu != b->cpu)
		return 0;
	if ((mask & (1u << HD_TRACE)) && a->trace != b->trace)
		return 0;
	if (mask & (1u << HD_SYM)) {
		if (a->sym != b->sym)
			return 0;
		if (!a->sym && a->addr != b->addr)
			return 0;
	}
	return 1;
}

/* The hash of an entry's key fields (those of mask). */
static inline u32 fields_hash(unsigned mask, s32 tid, u32 comm, u32 dso_name, s32 cpu,
			      u32 trace, const struct symbol *sym, u64 addr)
{
	u64 x = 0;

	if (mask & (1u << HD_PID))
		x = x * 31 + (u32)tid;
	if (mask & (1u << HD_COMM))
		x = x * 31 + comm;
	if (mask & (1u << HD_DSO))
		x = x * 31 + dso_name;
	if (mask & (1u << HD_CPU))
		x = x * 31 + (u32)cpu;
	if (mask & (1u << HD_TRACE))
		x = x * 31 + trace;
	if (mask & (1u << HD_SYM))
		x = x * 31 + (sym ? (uintptr_t)sym : addr);
	return (u32)hash_u64(x);
}

static inline u32 key_hash(unsigned mask, const struct hist_entry *e)
{
	return fields_hash(mask, e->tid, e->comm, e->dso_name, e->cpu, e->trace, e->sym,
			   e->addr);
}

/* An index slot: the entry's hash above, its number + 1 below (0: empty),
 * so probes touch an entry only when the hash matches. */
#define SLOT(hash, n)	((u64)(hash) << 32 | ((n) + 1))
#define SLOT_ENTRY(v)	((u32)(v) - 1)
#define SLOT_HASH(v)	((u32)((v) >> 32))

/* The slot of index (index_mask + 1 slots) holding the entry equal to e
 * in the keys of mask, or the empty slot where it goes; hash is e's
 * (hist_add.c). */
u32 hist_index_probe(const u64 *index, u32 index_mask, const struct hist_entry *entries,
		     unsigned mask, const struct hist_entry *e, u32 hash);

/* Rows below this count get no thread of their own in hists_finish(). */
#define PARALLEL_SORT_MIN 16384

/* ---- the steps of hists_finish() ------------------------------------------ */

/* Applies the adds waiting in the queue, oldest first (hist_add.c). */
void hist_apply_queued(struct hists *h);
/* perf's hists__calc_col_len() over the h->nr_sorted shown entries of
 * shown[] (h->sorted or a copy, any order): sets h->col_width
 * (hist_layout.c).  Reads names only. */
void hist_column_widths(struct hists *h, struct hist_entry *const *shown, int dso_list_given);
/* Sets h->sorted to the entries not filtered (in entry order) and the
 * totals (hist_finish.c). */
void hist_collect_shown(struct hists *h);
/* Makes room for one more entry and its origin (hist_add.c). */
void hist_entry_room(struct hists *h);
/* Puts h->sorted (the shown entries) in perf's output order and sets
 * h->input_rank (hist_order.c). */
void hist_sort(struct hists *h);

#endif
