/*
 * loader.c - dso_load() on a thread of its own (dso_load_async()), so that
 * the thread that looks symbols up can go on with other samples while a
 * big library or the kernel loads.
 *
 * Requests run in the order they came, one at a time.  The thread starts
 * with the first request and stops in dso_table_exit().
 *
 * Invariants: a dso is queued at most once (dso.load_requested, read and
 * written by the requesting thread only); its symbols become visible to
 * other threads through dso.ready (dso_load() stores it last, release).
 * Loads on other threads meanwhile go through dso_load_exclusive(); callers
 * that would change symbols otherwise call dso_loader_wait() first.
 */
#include "symbol_int.h"
#include "../util/error.h"

#include <pthread.h>
#include <stdlib.h>

struct dso_loader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work;	/* a request came, or stop */
	pthread_cond_t idle;	/* the queue ran empty */
	struct dso_table *table;
	struct dso **queue;	/* requests [head, nr) */
	u32 head, nr, alloc;
	int busy;		/* a load is running */
	int stop;
};

static void *loader_main(void *arg)
{
	struct dso_loader *ld = arg;

	pthread_mutex_lock(&ld->lock);
	for (;;) {
		struct dso *dso;

		while (ld->head == ld->nr && !ld->stop)
			pthread_cond_wait(&ld->work, &ld->lock);
		if (ld->head == ld->nr)
			break;
		dso = ld->queue[ld->head++];
		ld->busy = 1;
		pthread_mutex_unlock(&ld->lock);
		dso_load_exclusive(ld->table, dso);
		pthread_mutex_lock(&ld->lock);
		ld->busy = 0;
		if (ld->head == ld->nr) {
			ld->head = ld->nr = 0;
			pthread_cond_broadcast(&ld->idle);
		}
	}
	pthread_mutex_unlock(&ld->lock);
	return NULL;
}

void dso_load_exclusive(struct dso_table *t, struct dso *dso)
{
	pthread_mutex_lock(&t->load_lock);
	dso_load(t, dso);
	pthread_mutex_unlock(&t->load_lock);
}

int dso_load_try(struct dso_table *t, struct dso *dso)
{
	if (pthread_mutex_trylock(&t->load_lock))
		return 0;
	dso_load(t, dso);
	pthread_mutex_unlock(&t->load_lock);
	return 1;
}

void dso_load_async(struct dso_table *t, struct dso *dso)
{
	struct dso_loader *ld = t->loader;

	if (!dso || dso->load_requested)
		return;
	dso->load_requested = 1;
	if (!ld) {
		ld = xcalloc(1, sizeof(*ld));
		ld->table = t;
		pthread_mutex_init(&ld->lock, NULL);
		pthread_cond_init(&ld->work, NULL);
		pthread_cond_init(&ld->idle, NULL);
		if (pthread_create(&ld->thread, NULL, loader_main, ld))
			die("cannot start a thread");
		t->loader = ld;
	}
	pthread_mutex_lock(&ld->lock);
	if (ld->nr == ld->alloc) {
		ld->alloc = ld->alloc ? 2 * ld->alloc : 64;
		ld->queue = xrealloc(ld->queue, ld->alloc * sizeof(*ld->queue));
	}
	ld->queue[ld->nr++] = dso;
	pthread_cond_signal(&ld->work);
	pthread_mutex_unlock(&ld->lock);
}

void dso_loader_wait(struct dso_table *t)
{
	struct dso_loader *ld = t->loader;

	if (!ld)
		return;
	pthread_mutex_lock(&ld->lock);
	while (ld->head != ld->nr || ld->busy)
		pthread_cond_wait(&ld->idle, &ld->lock);
	pthread_mutex_unlock(&ld->lock);
}

void dso_loader_stop(struct dso_table *t)
{
	struct dso_loader *ld = t->loader;

	if (!ld)
		return;
	pthread_mutex_lock(&ld->lock);
	ld->stop = 1;
	pthread_cond_signal(&ld->work);
	pthread_mutex_unlock(&ld->lock);
	pthread_join(ld->thread, NULL);
	pthread_mutex_destroy(&ld->lock);
	pthread_cond_destroy(&ld->work);
	pthread_cond_destroy(&ld->idle);
	free(ld->queue);
	free(ld);
	t->loader = NULL;
}
