#include "arena.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;	/* older block */
	size_t size;			/* usable bytes in data[] */
	size_t used;			/* bytes handed out from data[] */
	_Alignas(8) unsigned char data[];
};

void arena_init(struct arena *a, size_t block_size)
{
	a->head = NULL;
	a->block_size = block_size ? block_size : (1u << 20);
	a->used_bytes = 0;
}

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;
	size_t need = (size + 7) & ~(size_t)7;

	if (need < size)
		die("arena allocation of %zu bytes overflows", size);
	if (!b || b->size - b->used < need) {
		size_t bsize = need > a->block_size ? need : a->block_size;

		b = xmalloc(sizeof(*b) + bsize);
		b->size = bsize;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += need;
	a->used_bytes += need;
	return p;
}

void *arena_zalloc(struct arena *a, size_t size)
{
	return memset(arena_alloc(a, size), 0, size);
}

void *arena_memdup(struct arena *a, const void *src, size_t size)
{
	return memcpy(arena_alloc(a, size), src, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_memdup(a, s, strlen(s) + 1);
}

void arena_reset(struct arena *a)
{
	struct arena_block *b = a->head, *keep = NULL;

	while (b) {
		struct arena_block *next = b->next;

		if (!keep && b->size == a->block_size) {
			keep = b;
		} else {
			free(b);
		}
		b = next;
	}
	if (keep) {
		keep->next = NULL;
		keep->used = 0;
	}
	a->head = keep;
	a->used_bytes = 0;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->used_bytes = 0;
}
