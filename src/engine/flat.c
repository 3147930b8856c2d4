/*
 * flat.c - the report engine's histogram thread for flat samples with
 * symbol keys (eng->flat_q): it looks each sample's symbol up and adds it
 * to its histogram, a batch at a time, working ahead of the adds (the
 * symbol lookups' memory, the entries' index slots); a sample whose DSO
 * is still loading is parked until it is ready and applied late.
 */
#include "engine_int.h"

#include <assert.h>
#include <string.h>

/* The dso and map-relative address an item looks its symbol up at. */
static void item_lookup(const unsigned char *p, const struct dso **dso, u64 *addr)
{
	if (*p == ITEM_SAMPLE) {
		const struct item_sample *it = (const void *)p;

		*dso = it->dso;
		*addr = it->p.addr;
	} else {
		const struct item_node *it = (const void *)p;

		*dso = it->dso;
		*addr = it->addr;
	}
}

/* Looks a sample's symbol up and adds it to its histogram. */
static void add_sample_item(struct engine *eng, const struct item_sample *it)
{
	const struct symbol *sym = NULL;
	u8 filtered;

	if (it->kernel_unsure && session_kernel_outside(it->dso, it->p.addr)) {
		/* perf's shrunk kernel map does not reach it: no map */
		struct item_sample none = *it;

		none.dso = NULL;
		none.kernel_unsure = 0;
		none.addr_listed = 0;	/* an address counts with a map only */
		none.p.dso_name = 0;
		add_sample_item(eng, &none);
		return;
	}
	if (it->dso)
		sym = session_find_symbol(eng->session, it->dso, it->p.addr);
	filtered = hist_filter_symbol(eng->strs, eng->cfg->filters, sym, it->addr_listed);
	eng->flat_hists = &eng->hists[it->evsel_idx];
	hists_add_prepared(eng->flat_hists, &it->p, sym, filtered, it->dso, it->late);
}

/*
 * Parking (eng->park): a sample whose DSO's symbols are not loaded waits
 * in eng->parked while the loader thread loads them (kernel and module
 * DSOs: while the session defers the kernel's load, it does), and the
 * histogram thread goes on with the next samples.  Parked samples are
 * applied late, in the order they came; the histogram sorts that out
 * (hist_pending.late).  Returns 1 when it must wait.
 */
static int must_park(struct engine *eng, struct dso *dso)
{
	if (session_dso_ready(dso))
		return 0;
	if (!session_dso_is_kernel(dso) || !session_kernel_pending(eng->session))
		session_load_async(eng->session, dso);
	for (u32 i = 0; i < eng->nr_park_dsos; i++)
		if (eng->park_dsos[i] == dso)
			return 1;
	if (eng->nr_park_dsos == eng->park_dsos_room) {
		eng->park_dsos_room = eng->park_dsos_room ? 2 * eng->park_dsos_room : 16;
		eng->park_dsos = xrealloc(eng->park_dsos,
					  eng->park_dsos_room * sizeof(*eng->park_dsos));
	}
	eng->park_dsos[eng->nr_park_dsos++] = dso;
	return 1;
}

/* Parked samples an empty parking keeps room for; how many flat_unpark()
 * hands add_items() at a time (at most what a queue batch holds). */
#define PARKED_KEEP 4096
#define UNPARK_BATCH 4096
_Static_assert(UNPARK_BATCH <= QUEUE_BATCH / ITEM_SIZE(struct item_node),
	       "flat_unpark() batches fit the histogram thread's scratch");

static void park(struct engine *eng, const struct item_sample *it)
{
	if (eng->nr_parked == eng->parked_room) {
		eng->parked_room = eng->parked_room ? 2 * eng->parked_room : 4096;
		eng->parked = xrealloc(eng->parked, eng->parked_room * sizeof(*eng->parked));
	}
	eng->parked[eng->nr_parked] = *it;
	eng->parked[eng->nr_parked++].late = 1;
}

/*
 * Applies the parked samples whose DSOs are ready, keeping the others in
 * order.  With drain (the histogram thread idle or gone, so on the thread
 * that feeds the session), first makes them all ready, but the kernel's
 * and the modules' while the session defers the kernel, unless load_kernel
 * (at the end) says to load it now.
 */
static void add_items(struct engine *eng, const unsigned char **v, u32 n);

void flat_unpark(struct engine *eng, int drain, int load_kernel)
{
	u32 kept = 0, nr_ready = 0, nr_v = 0;
	const unsigned char **v = eng->flat_items;
	u8 *ready;

	if (drain) {
		if (load_kernel)
			session_load_kernel(eng->session);
		session_loader_wait(eng->session);
		for (u32 i = 0; i < eng->nr_park_dsos; i++) {
			struct dso *dso = eng->park_dsos[i];

			if (!session_dso_is_kernel(dso) || !session_kernel_pending(eng->session))
				session_load_async(eng->session, dso);
		}
		session_loader_wait(eng->session);
	}
	for (u32 i = 0; i < eng->nr_park_dsos; i++) {
		if (session_dso_ready(eng->park_dsos[i]))
			nr_ready++;
		else
			eng->park_dsos[kept++] = eng->park_dsos[i];
	}
	if (!nr_ready)
		return;
	eng->nr_park_dsos = kept;
	/* the ready ones, in order and a batch at a time (add_items() works
	   ahead), then the others moved down: a DSO that gets ready
	   meanwhile waits for the next time */
	ready = xmalloc(eng->nr_parked ? eng->nr_parked : 1);
	for (u32 i = 0; i < eng->nr_parked; i++) {
		ready[i] = session_dso_ready(eng->parked[i].dso);
		if (ready[i])
			v[nr_v++] = (const void *)&eng->parked[i];
		if (nr_v == UNPARK_BATCH || (i + 1 == eng->nr_parked && nr_v)) {
			add_items(eng, v, nr_v);
			nr_v = 0;
		}
	}
	kept = 0;
	for (u32 i = 0; i < eng->nr_parked; i++)
		if (!ready[i] && kept++ != i)
			eng->parked[kept - 1] = eng->parked[i];
	free(ready);
	eng->nr_parked = kept;
	/* the samples parked while the kernel loaded (100,000s): their
	   room goes back, not to stay resident beside what comes next */
	if (!kept && eng->parked_room > PARKED_KEEP) {
		free(eng->parked);
		eng->parked = NULL;
		eng->parked_room = 0;
	}
}

/* The session's sync hook with parking: every lookup handed over done. */
void flat_sync(void *arg)
{
	struct engine *eng = arg;

	batchq_sync(eng->flat_q);
	flat_unpark(eng, 1, 0);
}

/* The first two steps of an item's symbol lookup (session_probe_start(),
 * session_probe_ranges()). */
static void probe_start(const unsigned char *item, struct flat_ahead *a)
{
	const struct dso *dso;
	u64 addr;

	item_lookup(item, &dso, &addr);
	session_probe_start(dso, addr, &a->probe);
}

static void probe_ranges(const unsigned char *item, struct flat_ahead *a)
{
	const struct dso *dso;
	u64 addr;

	item_lookup(item, &dso, &addr);
	session_probe_ranges(dso, &a->probe);
}

/*
 * The look-ahead of a flat sample (outside children mode, with its DSO
 * ready and its map sure): its symbol, filter bits and key hash, and its
 * index slot prefetched.  Anything else is left to the slow path.
 */
static void look_ahead(struct engine *eng, const unsigned char *item, struct flat_ahead *a)
{
	const struct item_sample *it = (const void *)item;
	const struct hists *h;

	/* a sample not sure of the kernel map is sure once the kernel is
	   loaded, which its DSO's being ready says */
	a->fast = *item == ITEM_SAMPLE && eng->park && session_dso_ready(it->dso) &&
		  !(it->kernel_unsure && session_kernel_outside(it->dso, it->p.addr));
	if (!a->fast)
		return;
	h = &eng->hists[it->evsel_idx];
	a->sym = it->dso ? session_probe_find(eng->session, it->dso, it->p.addr, &a->probe) : NULL;
	a->filtered = hist_filter_symbol(eng->strs, eng->cfg->filters, a->sym, it->addr_listed);
	a->hash = hists_flat_hash(h, &it->p, a->sym);
}

/* The histogram thread's work on one batch of items: first where each
 * item starts, then the items in order, working ahead. */
void flat_consume(void *arg, const void *items, size_t len)
{
	struct engine *eng = arg;
	const unsigned char *p = items, *end = p + len, **v = eng->flat_items;
	u32 n = 0;

	if (eng->nr_parked)
		flat_unpark(eng, 0, 0);

	while (p < end) {
		assert(*p == ITEM_SAMPLE || *p == ITEM_NODE);
		v[n++] = p;
		p += *p == ITEM_SAMPLE ? ITEM_SIZE(struct item_sample)
						    : ITEM_SIZE(struct item_node);
	}
	/* items never straddle two batches */
	assert(p == end);
	add_items(eng, v, n);
}

/* Adds the items v[0..n) in order, working ahead of them: their symbol
 * lookups and flat samples' entries. */
static void add_items(struct engine *eng, const unsigned char **v, u32 n)
{
	struct flat_ahead *ahead = eng->ahead;

	for (u32 j = 0; j < PREFETCH_FAR && j < n; j++)
		probe_start(v[j], &ahead[j]);
	for (u32 j = 0; j < PREFETCH_NEAR && j < n; j++)
		probe_ranges(v[j], &ahead[j]);
	for (u32 j = 0; j < AHEAD_LOOKUP && j < n; j++)
		look_ahead(eng, v[j], &ahead[j]);
	for (u32 i = 0; i < n; i++) {
		const struct symbol *sym = NULL;

		if (i + PREFETCH_FAR < n)
			probe_start(v[i + PREFETCH_FAR], &ahead[i + PREFETCH_FAR]);
		if (i + PREFETCH_NEAR < n)
			probe_ranges(v[i + PREFETCH_NEAR], &ahead[i + PREFETCH_NEAR]);
		if (i + AHEAD_LOOKUP < n)
			look_ahead(eng, v[i + AHEAD_LOOKUP], &ahead[i + AHEAD_LOOKUP]);
		if (i + AHEAD_ENTRY < n && ahead[i + AHEAD_ENTRY].fast)
			hists_flat_prefetch(&eng->hists[((const struct item_sample *)
							 v[i + AHEAD_ENTRY])->evsel_idx],
					    ahead[i + AHEAD_ENTRY].hash);
		if (ahead[i].fast) {
			const struct item_sample *it = (const void *)v[i];

			eng->flat_hists = &eng->hists[it->evsel_idx];
			hists_add_flat(eng->flat_hists, &it->p, ahead[i].sym, ahead[i].filtered,
				       ahead[i].hash, it->late);
		} else if (*v[i] == ITEM_SAMPLE) {
			const struct item_sample *it = (const void *)v[i];

			if (eng->park && must_park(eng, it->dso))
				park(eng, it);
			else
				add_sample_item(eng, it);
		} else {
			const struct item_node *it = (const void *)v[i];

			if (it->dso)
				sym = session_probe_find(eng->session, it->dso, it->addr,
							 &ahead[i].probe);
			hists_add_chain_node(eng->flat_hists, it->dso_name, sym, it->ip, it->level);
		}
	}
}
