/*
 * reader_prefault.c - the reader's page-in thread: for big files a second
 * thread maps pages of the mapping in ahead of the scan and gives them back
 * behind it, so the page-table work runs on the other core.
 *
 * It only ever calls madvise() on the mapping: if it falls behind, the
 * scan takes ordinary page faults; a page given back too early is read
 * back on the next touch.  So it can slow nothing down nor change a byte.
 * Files swapped in place (their pages are private copies) and small files
 * get no thread, nor does a process that may use one CPU only.
 */
#include "reader_internal.h"
#include "../util/cpu.h"
#include "../util/error.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PREFAULT_MIN_DATA (8ULL << 20)	/* smaller files page for themselves */

/* The thread and what it has been asked to do, under lock. */
struct prefault {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	u8 *map;
	u64 want;		/* map pages in up to this offset */
	u64 drop;		/* give pages back below this offset */
	u64 populated;		/* done so far */
	u64 released;
	int stop;
};

static void *prefault_main(void *arg)
{
	struct prefault *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->want <= p->populated && p->drop <= p->released)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop)
			break;
		u64 from = p->populated, to = p->want;
		u64 rfrom = p->released, rto = p->drop;

		pthread_mutex_unlock(&p->lock);
		if (to > from)
			madvise(p->map + from, to - from, MADV_POPULATE_READ);
		if (rto > rfrom)
			madvise(p->map + rfrom, rto - rfrom, MADV_DONTNEED);
		pthread_mutex_lock(&p->lock);
		if (to > p->populated)
			p->populated = to;
		if (rto > p->released)
			p->released = rto;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void prefault_ask(struct prefault *p, u64 want, u64 drop)
{
	pthread_mutex_lock(&p->lock);
	if (want > p->want)
		p->want = want & ~(PAGE - 1);
	if (drop > p->drop)
		p->drop = drop;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

void prefault_start(struct pd_file *f)
{
	struct prefault *p;

	if (f->data_size < PREFAULT_MIN_DATA || f->needs_swap || usable_cpus() < 2)
		return;
	p = xcalloc(1, sizeof(*p));
	p->map = f->map;
	p->populated = p->released = p->want = p->drop = f->in->populated_end;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->thread, NULL, prefault_main, p)) {
		free(p);	/* no thread: the scan pages for itself */
		return;
	}
	f->in->prefault = p;
}

void prefault_stop(struct pd_file *f)
{
	struct prefault *p = f->in->prefault;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
	f->in->prefault = NULL;
}
