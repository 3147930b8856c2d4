/*
 * batchq.h - a one-way queue of work between two threads, in batches.
 *
 * The producer thread appends variable-size items (batchq_alloc()) to the
 * batch it is filling; a full batch is handed to the consumer thread, which
 * calls the consume function on each batch in order, with the items exactly
 * as written.  Handing over costs a lock per batch, not per item.
 *
 * Invariants: batches are consumed in the order they were filled, one at a
 * time, all on the consumer thread; the producer never waits unless every
 * batch is full (then it waits for one to free) or it asks to
 * (batchq_sync()).  Items never straddle two batches and are 8-byte
 * aligned.  Memory is fixed at batchq_new(): nothing is allocated per item
 * or per batch.
 */
#ifndef PROF_UTIL_BATCHQ_H
#define PROF_UTIL_BATCHQ_H

#include <stddef.h>

struct batchq;

/* Called on the consumer thread with one batch: len bytes of items. */
typedef void batchq_consume_fn(void *arg, const void *items, size_t len);

/* Starts the consumer thread; nr_batches batches of batch_bytes each. */
struct batchq *batchq_new(size_t batch_bytes, unsigned nr_batches,
			  batchq_consume_fn *consume, void *arg);
/* The producer's end of a queue, its first member (so batchq_alloc()
 * inlines): the batch being filled. */
struct batchq_fill {
	unsigned char *cur;	/* the buffer of the batch being filled */
	size_t fill;		/* bytes in it */
	size_t batch_bytes;
};

/* batchq_alloc() when the batch being filled has no room: hands it over
 * and starts the next. */
void *batchq_alloc_next(struct batchq *q, size_t size);

/* Room for an item of size bytes (at most batch_bytes) at the end of the
 * batch being filled; it goes to the consumer with that batch. */
static inline void *batchq_alloc(struct batchq *q, size_t size)
{
	struct batchq_fill *b = (struct batchq_fill *)q;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (b->fill + size > b->batch_bytes)
		return batchq_alloc_next(q, size);
	p = b->cur + b->fill;
	b->fill += size;
	return p;
}
/* Hands over the batch being filled, and returns once the consumer has
 * consumed every batch. */
void batchq_sync(struct batchq *q);
/* batchq_sync(), then stops the consumer thread and frees q. */
void batchq_free(struct batchq *q);
/* A batchq_sync() for session_set_sync() (arg is the queue). */
void batchq_sync_cb(void *q);

#endif
