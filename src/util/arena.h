/*
 * arena.h - bump allocation for objects that live as long as a session.
 *
 * An arena hands out memory from large blocks and frees everything in one
 * call.  Allocations are 8-byte aligned.  Nothing is freed individually;
 * arena_reset() keeps the first block for reuse.  Out of memory is fatal.
 */
#ifndef PROF_UTIL_ARENA_H
#define PROF_UTIL_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;	/* newest block, allocations come from it */
	size_t block_size;		/* default size of a new block */
	size_t used_bytes;		/* bytes handed out since the last reset */
};

/* Initializes an empty arena; block_size 0 means 1 MiB. */
void arena_init(struct arena *a, size_t block_size);
/* Returns size bytes of uninitialized, 8-byte aligned memory. */
void *arena_alloc(struct arena *a, size_t size);
/* Like arena_alloc() but zero-filled. */
void *arena_zalloc(struct arena *a, size_t size);
/* Copies size bytes into the arena. */
void *arena_memdup(struct arena *a, const void *src, size_t size);
/* Copies a NUL-terminated string into the arena. */
char *arena_strdup(struct arena *a, const char *s);
/* Copies at most n bytes of s and NUL-terminates the copy. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Forgets every allocation but keeps one block for reuse. */
void arena_reset(struct arena *a);
/* Frees every block. */
void arena_free(struct arena *a);

#endif
