/*
 * batchq.c - the batch queue of batchq.h: a ring of nr_batches buffers.
 * Batch number n (counting from 0) lives in buffer n % nr_batches; the
 * producer fills batch "filled", the consumer has finished batches below
 * "consumed".  Both counters only grow, under the lock.
 *
 * Each wake-up is a system call and may switch the woken thread in for
 * the one that woke it, so neither thread is woken for every batch: a
 * consumer that ran dry sleeps until wake_at batches wait (or a sync or
 * the end asks for the rest), and a producer that found the ring full
 * sleeps until wake_at batches are free (or, syncing, until all are).
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batchq.h"
#include "error.h"

struct batchq {
	struct batchq_fill prod;	/* first: batchq_alloc() reads it; alone
					   on its cache line */
	_Alignas(64) pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more;		/* the consumer's: see the top */
	pthread_cond_t room;		/* the producer's */
	batchq_consume_fn *consume;
	void *arg;
	unsigned nr_batches;
	unsigned wake_at;		/* batches a sleeper waits for */
	unsigned char *buf;		/* nr_batches * batch_bytes */
	size_t *len;			/* bytes in each buffer */
	unsigned long filled;		/* batches handed over */
	unsigned long consumed;		/* batches the consumer is done with */
	int consumer_asleep, producer_asleep;
	int flush;			/* batchq_sync(): every batch, now */
	int stop;
};

static void *consumer(void *arg)
{
	struct batchq *q = arg;
	unsigned long n;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		if (q->consumed == q->filled) {
			q->consumer_asleep = 1;
			while (!q->stop && (q->consumed == q->filled ||
					    (q->filled - q->consumed < q->wake_at && !q->flush)))
				pthread_cond_wait(&q->more, &q->lock);
			q->consumer_asleep = 0;
			if (q->consumed == q->filled)
				break;
		}
		assert(q->consumed < q->filled && q->filled - q->consumed <= q->nr_batches);
		n = q->consumed % q->nr_batches;
		assert(q->len[n] && q->len[n] <= q->prod.batch_bytes);
		pthread_mutex_unlock(&q->lock);
		q->consume(q->arg, q->buf + n * q->prod.batch_bytes, q->len[n]);
		pthread_mutex_lock(&q->lock);
		q->consumed++;
		if (q->producer_asleep && (q->consumed == q->filled ||
					   (!q->flush && q->filled - q->consumed <=
					    q->nr_batches - q->wake_at)))
			pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

struct batchq *batchq_new(size_t batch_bytes, unsigned nr_batches,
			  batchq_consume_fn *consume, void *arg)
{
	struct batchq *q = aligned_alloc(64, sizeof(*q));

	if (!q)
		die("out of memory allocating a batch queue");
	memset(q, 0, sizeof(*q));

	q->consume = consume;
	q->arg = arg;
	q->prod.batch_bytes = batch_bytes & ~(size_t)7;
	q->nr_batches = nr_batches;
	q->wake_at = nr_batches >= 4 ? nr_batches / 4 : 1;
	q->buf = xmalloc(q->prod.batch_bytes * nr_batches);
	q->prod.cur = q->buf;
	q->len = xcalloc(nr_batches, sizeof(*q->len));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->room, NULL);
	if (pthread_create(&q->thread, NULL, consumer, q))
		die("cannot start a thread");
	return q;
}

/* Hands the batch being filled to the consumer (if it has items). */
static void hand_over(struct batchq *q)
{
	/* the producer: never the consumer, which would wait for itself */
	assert(!pthread_equal(pthread_self(), q->thread));
	if (!q->prod.fill)
		return;
	assert(q->prod.fill <= q->prod.batch_bytes && !(q->prod.fill & 7));
	pthread_mutex_lock(&q->lock);
	q->len[q->filled % q->nr_batches] = q->prod.fill;
	q->filled++;
	if (q->consumer_asleep && q->filled - q->consumed >= q->wake_at)
		pthread_cond_signal(&q->more);
	if (q->filled - q->consumed == q->nr_batches) {
		q->producer_asleep = 1;
		while (q->filled - q->consumed > q->nr_batches - q->wake_at)
			pthread_cond_wait(&q->room, &q->lock);
		q->producer_asleep = 0;
	}
	pthread_mutex_unlock(&q->lock);
	q->prod.fill = 0;
	q->prod.cur = q->buf + (q->filled % q->nr_batches) * q->prod.batch_bytes;
}

void *batchq_alloc_next(struct batchq *q, size_t size)
{
	void *p;

	if (size > q->prod.batch_bytes)
		die("batch queue: item of %zu bytes too big", size);
	hand_over(q);
	p = q->prod.cur;
	q->prod.fill = size;
	return p;
}

void batchq_sync(struct batchq *q)
{
	hand_over(q);
	pthread_mutex_lock(&q->lock);
	q->flush = 1;
	if (q->consumer_asleep)
		pthread_cond_signal(&q->more);
	q->producer_asleep = 1;
	while (q->consumed != q->filled)
		pthread_cond_wait(&q->room, &q->lock);
	q->producer_asleep = 0;
	q->flush = 0;
	assert(q->consumed == q->filled);
	pthread_mutex_unlock(&q->lock);
}

void batchq_sync_cb(void *q)
{
	batchq_sync(q);
}

void batchq_free(struct batchq *q)
{
	if (!q)
		return;
	hand_over(q);
	pthread_mutex_lock(&q->lock);
	q->stop = 1;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	/* the consumer ends only when every batch is consumed */
	assert(q->consumed == q->filled);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->room);
	free(q->buf);
	free(q->len);
	free(q);
}
