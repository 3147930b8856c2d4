/*
 * ring.c - prof record's ring buffers: sizes by perf 6.1's rules, mapping
 * and reading (see ring.h for the reading protocol).
 */
#include "ring.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

unsigned ring_default_pages(long mlock_kb, long page_size)
{
	unsigned long pages, p2 = 1;

	if (mlock_kb < 0)
		return (unsigned)(512 * 1024 / page_size);	/* perf's fallback: 512 KiB */
	mlock_kb -= page_size / 1024;	/* the metadata page */
	pages = mlock_kb > 0 ? (unsigned long)mlock_kb * 1024 / (unsigned long)page_size : 0;
	if (pages > 0x7fffffffUL / (unsigned long)page_size)
		pages = 0x7fffffffUL / (unsigned long)page_size;
	while (p2 * 2 <= pages)	/* rounded down to a power of two */
		p2 *= 2;
	return (unsigned)p2;
}

unsigned ring_parse_pages(const char *arg, long page_size, int quiet)
{
	static const char units[] = "BKMG";
	unsigned long long v, page = (unsigned long long)page_size, pages;
	char *end;

	v = strtoull(arg, &end, 10);
	if (end == arg || arg[0] == '-')
		return 0;
	if (*end && strchr(units, *end) && (!end[1] || end[1] == ',')) {
		for (const char *u = units; *u != *end; u++) {
			if (v > 0x7fffffffULL)
				return 0;
			v *= 1024;
		}
		pages = (v + page - 1) / page;
	} else if (!*end || *end == ',') {	/* ",N" sizes the AUX area perf has */
		pages = v;
	} else {
		return 0;
	}
	if (pages > 0x7fffffffULL / page)
		return 0;
	if (!pages || (pages & (pages - 1))) {
		unsigned long long p2 = 1, bytes;
		int u = 0;

		while (p2 < pages)
			p2 <<= 1;
		pages = p2;
		for (bytes = pages * page; bytes / 1024 > 1 && u < 3; u++)
			bytes /= 1024;
		if (!quiet)
			fprintf(stderr, "rounding mmap pages size to %llu%c (%llu pages)\n",
				bytes, units[u], pages);
	}
	return (unsigned)pages;
}

int ring_map(struct ring *ring, int fd, unsigned pages, long page_size)
{
	size_t len = (size_t)(pages + 1) * (size_t)page_size;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -1;
	ring->fd = fd;
	ring->meta = p;
	ring->data = (u8 *)p + page_size;
	ring->mask = (u64)pages * (u64)page_size - 1;
	return 0;
}

void ring_unmap(struct ring *ring, unsigned pages, long page_size)
{
	if (ring->meta)
		munmap(ring->meta, (size_t)(pages + 1) * (size_t)page_size);
}

/* Copies len bytes at ring position pos, wrapping at the end. */
static void ring_copy(const struct ring *ring, u64 pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos & ring->mask);
	size_t first = (size_t)ring->mask + 1 - off;

	if (first >= len) {
		memcpy(dst, ring->data + off, len);
	} else {
		memcpy(dst, ring->data + off, first);
		memcpy((u8 *)dst + first, ring->data, len - first);
	}
}

u64 ring_read(struct ring *ring, const struct ring_reader *rd)
{
	u64 head, tail, size = ring->mask + 1, off, end;

	if (ring->fd < 0)
		return 0;
	head = __atomic_load_n(&ring->meta->data_head, __ATOMIC_ACQUIRE);
	tail = ring->meta->data_tail;
	if (head == tail)
		return 0;
	for (u64 pos = tail; pos < head; ) {
		const struct pd_header *h = (const void *)(ring->data + (pos & ring->mask));

		if (h->size < sizeof(*h))
			break;	/* cannot happen with a sane kernel: stop looking */
		if ((pos & ring->mask) + h->size > size) {
			ring_copy(ring, pos, rd->whole, h->size);
			h = (const void *)rd->whole;
		}
		rd->record(rd->arg, h);
		pos += h->size;
	}
	off = tail & ring->mask;
	end = off + (head - tail);
	if (end <= size) {
		rd->bytes(rd->arg, ring->data + off, (size_t)(head - tail));
	} else {
		rd->bytes(rd->arg, ring->data + off, (size_t)(size - off));
		rd->bytes(rd->arg, ring->data, (size_t)(end - size));
	}
	__atomic_store_n(&ring->meta->data_tail, head, __ATOMIC_RELEASE);
	return head - tail;
}
