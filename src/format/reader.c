/*
 * reader.c - opens perf.data files and streams and delivers their records.
 *
 * Sources.  A regular file is mapped read-only (copy-on-write writable only
 * when its records must be byte-swapped in place) and records point into
 * the mapping.  Pages are mapped in ahead of the scan in big steps and given
 * back behind it, so resident memory is a window, not the file.  A pipe or
 * FIFO is read in chunks into a window buffer; such records, and records
 * decompressed from COMPRESSED payloads, are "transient": they are copied
 * into a record arena when they are queued.
 *
 * Ordering (perf's ordered_events): a record with a timestamp is appended
 * to the queue; at each FINISHED_ROUND the queue is sorted stably by time
 * and everything with time <= the round limit is delivered, then the limit
 * becomes the largest timestamp queued since the queue was last empty.  The
 * limit starts at 0, so the first round delivers nothing; a round that finds
 * the queue empty leaves the limit alone.  At the end all is delivered.
 * Records older than the last delivered one are counted as out of order and
 * still delivered in sorted position at the next flush.  Records without a
 * usable time, and perf's own record types (64 and up), are delivered as
 * they are read.
 *
 * Memory for transient records: two arenas.  Queued records are copied into
 * the current one; after a flush, what remains queued is copied into the
 * other, and the current one is reset.  So memory is one round of records.
 */
#include "reader.h"
#include "swap.h"
#include "feature.h"
#include "../util/cpu.h"
#include "../util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define PAGE 4096ULL
#define POPULATE_STEP (8ULL << 20)	/* bytes mapped in ahead of the scan */
#define RELEASE_STEP (8ULL << 20)	/* bytes given back at a time */
#define PAGER_MIN_DATA (8ULL << 20)	/* smaller files page for themselves */

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14; older kernels say EINVAL */
#endif

/* A queued record (32 bytes: the queue is sorted by moving these). */
struct qent {
	u64 time;
	const struct pd_header *hdr;
	u64 file_offset;
	u32 evsel_idx;		/* index into f->evsel, or NO_EVSEL */
	u16 compressed;		/* came out of a COMPRESSED record */
	u16 transient;		/* hdr lives in a record arena, not the mapping */
};
#define NO_EVSEL ((u32)-1)

/*
 * A record on its way from the scanner to delivery that is not queued (a
 * record to queue goes to queue_push() directly).  The scanner emits items
 * in file order; the consumer delivers NOW items at once, and for a ROUND
 * item delivers the FINISHED_ROUND record and then flushes the queue.
 */
enum item_kind { ITEM_NOW, ITEM_ROUND };

struct item {
	struct qent e;
	u32 kind;
	const void *payload;	/* NOW items: AUXTRACE / TRACING_DATA bytes */
	u64 payload_size;
};

/* id -> evsel hash table entry (open addressing, id 0 never stored). */
struct id_slot {
	u64 id;
	struct pd_evsel *evsel;
};

struct pd_id_map {
	struct id_slot *slots;
	u64 mask;		/* capacity - 1, capacity a power of two */
	u64 used;
};

/* Reader state: the scanner's (window, decompression, id cache) and the
 * consumer's (queue, callbacks). */
struct pd_internal {
	/* consumer: the ordered queue */
	struct qent *q;		/* q[q_head..q_len) are queued, in arrival order
				   except that q[q_head..q_sorted) is sorted */
	u64 q_head, q_len, q_cap;
	u64 q_sorted;
	struct qent *q_tmp;	/* merge scratch, q_cap entries */
	u64 *runs;		/* run starts found by queue_sort */
	u64 runs_cap;
	u64 next_flush;		/* round limit */
	u64 last_flush;		/* time of the last delivered queued record */
	u64 max_time;
	struct arena rec_arena[2];	/* copies of transient queued records */
	int cur_arena;
	const struct pd_ops *ops;
	void *ctx;
	int stop;		/* the callback's non-zero return */
	int ordered;		/* queue records (else deliver in file order) */

	/* scanner: the mapping's resident window (file mode) */
	u64 populated_end;	/* file offset up to which pages are mapped in
				   (with a pager: up to which they were asked for) */
	u64 released_end;	/* file offset below which pages were given back */
	struct pager *pager;	/* big files: a thread that does both */

	/* scanner: pipe window */
	u8 *win;
	u64 win_size, win_cap;	/* bytes in window, capacity */
	u64 win_start;		/* stream offset of win[0] */
	u64 win_pos;		/* read position inside win */
	int eof;

	/* scanner: decompression */
	ZSTD_DCtx *zstd;
	u8 *dbuf;		/* decompressed bytes not yet parsed */
	u64 dbuf_len, dbuf_cap;

	/* scanner: last id looked up, consecutive records mostly share one */
	u64 last_id;
	struct pd_evsel *last_evsel;
};

/* ---------------------------------------------------------------- ids --- */

static u64 hash_id(u64 id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

static void id_map_insert(struct pd_file *f, u64 id, struct pd_evsel *evsel)
{
	struct pd_id_map *m = f->ids;

	if (!m) {
		m = f->ids = arena_zalloc(&f->arena, sizeof(*m));
		m->mask = 63;
		m->slots = xcalloc(64, sizeof(*m->slots));
	}
	if ((m->used + 1) * 2 > m->mask + 1) {
		struct id_slot *old = m->slots;
		u64 oldcap = m->mask + 1;

		m->mask = oldcap * 2 - 1;
		m->slots = xcalloc(oldcap * 2, sizeof(*m->slots));
		m->used = 0;
		for (u64 i = 0; i < oldcap; i++) {
			if (old[i].evsel) {
				u64 h = hash_id(old[i].id) & m->mask;

				while (m->slots[h].evsel)
					h = (h + 1) & m->mask;
				m->slots[h] = old[i];
				m->used++;
			}
		}
		free(old);
	}
	u64 h = hash_id(id) & m->mask;
	while (m->slots[h].evsel) {
		if (m->slots[h].id == id)
			return;		/* first attr wins, as in perf */
		h = (h + 1) & m->mask;
	}
	m->slots[h].id = id;
	m->slots[h].evsel = evsel;
	m->used++;
}

struct pd_evsel *pd_evsel_by_id(const struct pd_file *f, u64 id)
{
	const struct pd_id_map *m = f->ids;

	if (!m)
		return NULL;
	u64 h = hash_id(id) & m->mask;
	while (m->slots[h].evsel) {
		if (m->slots[h].id == id)
			return m->slots[h].evsel;
		h = (h + 1) & m->mask;
	}
	return NULL;
}

/* ------------------------------------------------------------- evsels --- */

/* Position of the id in a sample (u64 index) and from the end of a trailer. */
static void evsel_setup(struct pd_evsel *e)
{
	u64 st = e->attr.sample_type;
	int n;

	e->id_pos = -1;
	e->is_pos = -1;
	e->time_pos = -1;
	if (st & PD_SAMPLE_TIME)
		e->time_pos = !!(st & PD_SAMPLE_IDENTIFIER) + !!(st & PD_SAMPLE_IP) +
			      !!(st & PD_SAMPLE_TID);
	if (st & PD_SAMPLE_IDENTIFIER) {
		e->id_pos = 0;
		e->is_pos = 1;
	} else if (st & PD_SAMPLE_ID) {
		n = 0;
		n += !!(st & PD_SAMPLE_IP);
		n += !!(st & PD_SAMPLE_TID);
		n += !!(st & PD_SAMPLE_TIME);
		n += !!(st & PD_SAMPLE_ADDR);
		e->id_pos = n;
		n = 1;
		n += !!(st & PD_SAMPLE_CPU);
		n += !!(st & PD_SAMPLE_STREAM_ID);
		e->is_pos = n;
	}
	n = 0;
	if (PD_ATTR_FLAG(&e->attr, PD_ATTR_SAMPLE_ID_ALL)) {
		n += !!(st & PD_SAMPLE_TID);
		n += !!(st & PD_SAMPLE_TIME);
		n += !!(st & PD_SAMPLE_ID);
		n += !!(st & PD_SAMPLE_STREAM_ID);
		n += !!(st & PD_SAMPLE_CPU);
		n += !!(st & PD_SAMPLE_IDENTIFIER);
	}
	e->trailer_size = (u16)(n * 8);
}

/*
 * Adds an evsel from attr bytes (file order) of length avail, and its ids.
 * Returns the evsel or NULL after an error.
 */
static struct pd_evsel *add_evsel(struct pd_file *f, const u8 *attr_bytes, u64 avail,
				  u64 offset)
{
	struct pd_evsel *e;
	u32 size;

	if (avail < 8)
		return error("%s: truncated event attribute at offset %#llx", f->path,
			     (unsigned long long)offset), NULL;
	size = pd_get32(attr_bytes + 4);
	if (f->needs_swap)
		size = __builtin_bswap32(size);
	if (size == 0)
		size = PD_ATTR_VER0_SIZE;
	if (size < PD_ATTR_VER0_SIZE || size > avail)
		return error("%s: bad event attribute size %u at offset %#llx", f->path,
			     size, (unsigned long long)offset), NULL;
	if (f->nr_evsel >= 65536)
		return error("%s: too many event attributes at offset %#llx", f->path,
			     (unsigned long long)offset), NULL;
	if ((f->nr_evsel & (f->nr_evsel - 1)) == 0) {
		u32 cap = f->nr_evsel ? f->nr_evsel * 2 : 4;
		struct pd_evsel *n = xcalloc(cap, sizeof(*n));

		if (f->nr_evsel) {
			memcpy(n, f->evsel, f->nr_evsel * sizeof(*n));
			/* the id map points at evsels: rebuild it */
			if (f->ids) {
				struct pd_id_map *m = f->ids;

				for (u64 i = 0; i <= m->mask; i++)
					if (m->slots[i].evsel)
						m->slots[i].evsel = n + (m->slots[i].evsel - f->evsel);
			}
		}
		free(f->evsel);
		f->evsel = n;
	}
	e = &f->evsel[f->nr_evsel];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr_bytes, size < PD_ATTR_MAX_SIZE ? size : PD_ATTR_MAX_SIZE);
	if (f->needs_swap)
		pd_swap_attr(&e->attr);
	e->disk_attr_size = size;
	e->attr.size = size;
	e->idx = f->nr_evsel++;
	evsel_setup(e);
	if (e->idx == 0) {
		f->sample_id_all = PD_ATTR_FLAG(&e->attr, PD_ATTR_SAMPLE_ID_ALL);
		f->id_hdr_size = e->trailer_size;
	}
	return e;
}

/* Records the nr ids at p (file order) for evsel e. */
static void add_ids(struct pd_file *f, struct pd_evsel *e, const u8 *p, u64 nr)
{
	f->in->last_evsel = NULL;	/* evsels may have moved */
	e->ids = arena_alloc(&f->arena, (nr ? nr : 1) * sizeof(u64));
	e->nr_ids = (u32)nr;
	for (u64 i = 0; i < nr; i++) {
		u64 id = pd_get64(p + i * 8);

		if (f->needs_swap)
			id = __builtin_bswap64(id);
		e->ids[i] = id;
		id_map_insert(f, id, e);
	}
}

/* ----------------------------------------------------------- the header --- */

static int in_file(const struct pd_file *f, u64 off, u64 size)
{
	return off <= f->size && size <= f->size - off;
}

static u64 hdr64(const struct pd_file *f, u64 off)
{
	u64 v = pd_get64(f->map + off);

	return f->needs_swap ? __builtin_bswap64(v) : v;
}

static int read_features(struct pd_file *f)
{
	u64 table = f->data_offset + f->data_size;
	u64 n = 0;

	for (unsigned bit = 0; bit < PD_FEAT_BITS; bit++) {
		u64 off, size;

		if (!(f->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!in_file(f, table + n * 16, 16)) {
			warning("%s: feature table entry for %s at offset %#llx is past the end of the file",
				f->path, pd_feature_name(bit) ? pd_feature_name(bit) : "feature",
				(unsigned long long)(table + n * 16));
			return 0;
		}
		off = hdr64(f, table + n * 16);
		size = hdr64(f, table + n * 16 + 8);
		n++;
		if (!in_file(f, off, size)) {
			warning("%s: feature %s section at offset %#llx size %#llx is past the end of the file",
				f->path, pd_feature_name(bit) ? pd_feature_name(bit) : "?",
				(unsigned long long)off, (unsigned long long)size);
			continue;
		}
		f->feat_data[bit] = f->map + off;
		f->feat_size[bit] = size;
		f->feat_offset[bit] = off;
	}
	return 0;
}

/* Sets f->features from the bitmap at offset 72, undoing a foreign order. */
static void read_feature_bitmap(struct pd_file *f)
{
	const u8 *p = f->map + 72;

	for (int i = 0; i < 4; i++)
		f->features[i] = pd_get64(p + i * 8);
	if (!f->needs_swap)
		return;
	/* as perf: swap 64-bit words; if HOSTNAME is not set, the writer was
	 * 32-bit: swap 32-bit words instead; failing that, assume BUILD_ID */
	u64 w[4];
	for (int i = 0; i < 4; i++)
		w[i] = __builtin_bswap64(f->features[i]);
	if (w[0] >> PD_FEAT_HOSTNAME & 1) {
		memcpy(f->features, w, sizeof(w));
		return;
	}
	for (int i = 0; i < 4; i++) {
		u32 lo = __builtin_bswap32(pd_get32(p + i * 8));
		u32 hi = __builtin_bswap32(pd_get32(p + i * 8 + 4));

		w[i] = (u64)hi << 32 | lo;
	}
	if (w[0] >> PD_FEAT_HOSTNAME & 1) {
		memcpy(f->features, w, sizeof(w));
		return;
	}
	memset(f->features, 0, sizeof(f->features));
	f->features[0] = 1ULL << PD_FEAT_BUILD_ID;
}

static int read_file_header(struct pd_file *f)
{
	u64 nr_attrs;

	if (f->size < 72)
		return error("%s: file too small for a perf.data header (%llu bytes) at offset 0x0",
			     f->path, (unsigned long long)f->size);
	f->header_size = hdr64(f, 8);
	f->attr_size = hdr64(f, 16);
	f->attrs_offset = hdr64(f, 24);
	f->attrs_size = hdr64(f, 32);
	f->data_offset = hdr64(f, 40);
	f->data_size = hdr64(f, 48);
	if (f->header_size != PD_FILE_HEADER_SIZE && f->header_size != 72)
		return error("%s: bad header size %llu at offset 0x8", f->path,
			     (unsigned long long)f->header_size);
	if (f->header_size == PD_FILE_HEADER_SIZE) {
		if (f->size < PD_FILE_HEADER_SIZE)
			return error("%s: file too small for a perf.data header (%llu bytes) at offset 0x0",
				     f->path, (unsigned long long)f->size);
		read_feature_bitmap(f);
	}
	if (f->attr_size == 0)
		return error("%s: attr size is 0 at offset 0x10", f->path);
	if (f->attr_size < PD_ATTR_VER0_SIZE + 16 || f->attr_size > 4096)
		return error("%s: bad attr size %llu at offset 0x10", f->path,
			     (unsigned long long)f->attr_size);
	if (!in_file(f, f->attrs_offset, f->attrs_size))
		return error("%s: attr section (offset %#llx, size %#llx) is past the end of the file at offset 0x18",
			     f->path, (unsigned long long)f->attrs_offset,
			     (unsigned long long)f->attrs_size);
	if (f->data_offset < f->header_size || f->data_offset > f->size)
		return error("%s: bad data offset %#llx at offset 0x28", f->path,
			     (unsigned long long)f->data_offset);
	if (f->data_size == 0) {
		warning("%s: the data size field is 0: was 'perf record' properly terminated? reading to the end of the file",
			f->path);
		f->data_size_was_zero = 1;
		f->data_size = f->size - f->data_offset;
		memset(f->features, 0, sizeof(f->features));
	} else if (!in_file(f, f->data_offset, f->data_size)) {
		return error("%s: data section (offset %#llx, size %#llx) is past the end of the file at offset 0x28",
			     f->path, (unsigned long long)f->data_offset,
			     (unsigned long long)f->data_size);
	}
	if (f->attrs_size && f->attrs_offset < f->header_size)
		return error("%s: attr section overlaps the header at offset 0x18", f->path);
	if (f->attrs_size && f->attrs_offset < f->data_offset + f->data_size &&
	    f->data_offset < f->attrs_offset + f->attrs_size && f->data_size)
		return error("%s: attr section overlaps the data section at offset 0x18", f->path);

	nr_attrs = f->attrs_size / f->attr_size;
	if (nr_attrs == 0)
		return error("%s: no event attributes at offset %#llx", f->path,
			     (unsigned long long)f->attrs_offset);
	for (u64 i = 0; i < nr_attrs; i++) {
		u64 off = f->attrs_offset + i * f->attr_size;
		struct pd_evsel *e = add_evsel(f, f->map + off, f->attr_size - 16, off);
		u64 ids_off, ids_size;

		if (!e)
			return -1;
		ids_off = hdr64(f, off + f->attr_size - 16);
		ids_size = hdr64(f, off + f->attr_size - 8);
		if (!in_file(f, ids_off, ids_size))
			return error("%s: id array (offset %#llx, size %#llx) of attr %llu is past the end of the file at offset %#llx",
				     f->path, (unsigned long long)ids_off,
				     (unsigned long long)ids_size, (unsigned long long)i,
				     (unsigned long long)(off + f->attr_size - 16));
		add_ids(f, e, f->map + ids_off, ids_size / 8);
	}
	if (read_features(f))
		return -1;
	return pd_feature_apply_event_desc(f);
}

/* ------------------------------------------------------------ open/close --- */

static int open_input(struct pd_file *f, const char *path, int flags);

int pd_open(struct pd_file *f, const char *path, int flags)
{
	if (open_input(f, path, flags) == 0)
		return 0;
	pd_close(f);
	return -1;
}

/* pd_open() without the clean-up on failure. */
static int open_input(struct pd_file *f, const char *path, int flags)
{
	struct stat st;
	u64 magic;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->flags = flags;
	f->fd = -1;
	arena_init(&f->arena, 64 << 10);
	f->in = xcalloc(1, sizeof(*f->in));
	arena_init(&f->in->rec_arena[0], 1 << 20);
	arena_init(&f->in->rec_arena[1], 1 << 20);

	if (!strcmp(path, "-")) {
		f->fd = 0;
	} else {
		f->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			return error("%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(f->fd, &st))
		return error("%s: cannot stat: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return error("%s: is a directory", path);
	if (S_ISREG(st.st_mode)) {
		f->size = (u64)st.st_size;
		if (f->size < 16)
			return error("%s: file too small for a perf.data header (%llu bytes) at offset 0x0",
				     path, (unsigned long long)f->size);
		f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, f->fd, 0);
		if (f->map == MAP_FAILED) {
			f->map = NULL;
			return error("%s: cannot map: %s", path, strerror(errno));
		}
		magic = pd_get64(f->map);
		if (magic == PD_MAGIC_SWAPPED) {
			/* records are swapped in place: copy-on-write pages */
			f->needs_swap = 1;
			if (mprotect(f->map, f->size, PROT_READ | PROT_WRITE))
				return error("%s: cannot map for writing: %s", path, strerror(errno));
		} else if (magic != PD_MAGIC) {
			return error("%s: not a perf.data file (bad magic) at offset 0x0", path);
		}
		if (hdr64(f, 8) == PD_PIPE_HEADER_SIZE) {
			f->pipe_mode = 1;
			f->data_offset = PD_PIPE_HEADER_SIZE;
			f->data_size = f->size - PD_PIPE_HEADER_SIZE;
			f->header_size = PD_PIPE_HEADER_SIZE;
			return 0;
		}
		return read_file_header(f);
	}
	/* a pipe, FIFO or character device: stream mode */
	struct pd_internal *in = f->in;
	u8 hdr[16];
	u64 got = 0;

	while (got < sizeof(hdr)) {
		ssize_t n = read(f->fd, hdr + got, sizeof(hdr) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("%s: read error: %s at offset %#llx", path, strerror(errno),
				     (unsigned long long)got);
		if (n == 0)
			return error("%s: stream too short for a perf.data header (%llu bytes) at offset 0x0",
				     path, (unsigned long long)got);
		got += (u64)n;
	}
	magic = pd_get64(hdr);
	if (magic == PD_MAGIC_SWAPPED)
		f->needs_swap = 1;
	else if (magic != PD_MAGIC)
		return error("%s: not a perf.data stream (bad magic) at offset 0x0", path);
	u64 hsize = pd_get64(hdr + 8);
	if (f->needs_swap)
		hsize = __builtin_bswap64(hsize);
	if (hsize != PD_PIPE_HEADER_SIZE)
		return error("%s: a file-mode perf.data cannot be read from a pipe (header size %llu) at offset 0x8",
			     path, (unsigned long long)hsize);
	f->pipe_mode = 1;
	f->header_size = PD_PIPE_HEADER_SIZE;
	f->data_offset = PD_PIPE_HEADER_SIZE;
	in->win_start = PD_PIPE_HEADER_SIZE;
	return 0;
}

const char *pd_default_input(void)
{
	struct stat st;

	return !fstat(0, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
}

void pd_close(struct pd_file *f)
{
	struct pd_internal *in = f->in;

	if (in) {
		free(in->q);
		free(in->q_tmp);
		free(in->runs);
		arena_free(&in->rec_arena[0]);
		arena_free(&in->rec_arena[1]);
		free(in->win);
		free(in->dbuf);
		if (in->zstd)
			ZSTD_freeDCtx(in->zstd);
		free(in);
	}
	if (f->ids) {
		free(f->ids->slots);
	}
	free(f->evsel);
	if (f->map)
		munmap(f->map, f->size);
	if (f->fd > 0)
		close(f->fd);
	arena_free(&f->arena);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

int pd_has_feature(const struct pd_file *f, unsigned feat)
{
	if (feat >= PD_FEAT_BITS)
		return 0;
	return f->feat_data[feat] != NULL ||
	       (!f->pipe_mode && (f->features[feat / 64] >> (feat % 64) & 1));
}

/* ------------------------------------------------------------- ordering --- */

/* EVENT_UPDATE kind 2 (name): u64 kind, u64 id, NUL-terminated name. */
static void event_update(struct pd_file *f, const struct pd_header *hdr)
{
	const u8 *p = (const u8 *)hdr;
	struct pd_evsel *e;

	if (hdr->size < 24 || pd_get64(p + 8) != 2)
		return;
	e = pd_evsel_by_id(f, pd_get64(p + 16));
	if (!e)
		return;
	/* a stream's events keep the names derived from their attrs in
	 * perf's reports: it has fixed them before any EVENT_UPDATE arrives */
	if (f->pipe_mode)
		e->stream_name = arena_strndup(&f->arena, (const char *)p + 24, hdr->size - 24);
	else
		e->name = arena_strndup(&f->arena, (const char *)p + 24, hdr->size - 24);
}


/* Hands one record to the callback (inlined: once per record). */
static inline __attribute__((always_inline)) int
deliver(struct pd_file *f, const struct pd_header *hdr, u64 offset, u64 time,
	struct pd_evsel *evsel, int compressed, const void *payload, u64 payload_size)
{
	struct pd_internal *in = f->in;
	struct pd_event ev = {
		.hdr = hdr, .file_offset = offset, .time = time, .evsel = evsel,
		.payload = payload, .payload_size = payload_size, .compressed = compressed,
	};

	int ret;

	if (hdr->type == PD_REC_EVENT_UPDATE)
		event_update(f, hdr);
	if (in->stop || !in->ops || !in->ops->record)
		return in->stop;
	ret = in->ops->record(in->ctx, f, &ev);
	if (ret)
		in->stop = ret;
	return ret;
}

/* Merges the sorted runs src[lo..mid) and src[mid..hi) into dst[lo..hi),
 * left run first on equal times (so the sort is stable). */
static void merge_runs(const struct qent *src, struct qent *dst, u64 lo, u64 mid, u64 hi)
{
	u64 i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = src[j].time < src[i].time ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

/*
 * Sorts the queue by time, stably: a natural merge sort.  The queue is the
 * sorted remainder of the last flush followed by this round's records,
 * which arrive as a few sorted runs (one per ring buffer), so finding the
 * runs and merging them pairwise costs O(n log runs).
 */
static void queue_sort(struct pd_internal *in)
{
	u64 n = in->q_len, nruns = 0;
	struct qent *src = in->q, *dst = in->q_tmp;

	if (in->q_sorted == n)
		return;
	if (in->q_sorted < in->q_head)
		in->q_sorted = in->q_head;
	if (in->runs_cap < 64) {
		in->runs_cap = 64;
		in->runs = xrealloc(in->runs, in->runs_cap * sizeof(*in->runs));
	}
	in->runs[nruns++] = in->q_head;
	for (u64 i = in->q_sorted > in->q_head ? in->q_sorted : in->q_head + 1; i < n; i++) {
		if (src[i].time >= src[i - 1].time)
			continue;
		if (nruns + 2 > in->runs_cap) {
			in->runs_cap *= 2;
			in->runs = xrealloc(in->runs, in->runs_cap * sizeof(*in->runs));
		}
		in->runs[nruns++] = i;
	}
	in->runs[nruns] = n;
	while (nruns > 1) {
		u64 out = 0, r;

		for (r = 0; r + 1 < nruns; r += 2) {
			merge_runs(src, dst, in->runs[r], in->runs[r + 1], in->runs[r + 2]);
			in->runs[out++] = in->runs[r];
		}
		if (r < nruns) {	/* odd run out: copy it over */
			memcpy(dst + in->runs[r], src + in->runs[r],
			       (in->runs[r + 1] - in->runs[r]) * sizeof(*src));
			in->runs[out++] = in->runs[r];
		}
		in->runs[out] = n;
		nruns = out;
		struct qent *t = src;
		src = dst;
		dst = t;
	}
	if (src != in->q) {	/* the result is in the scratch buffer: swap */
		in->q_tmp = in->q;
		in->q = src;
	}
	in->q_sorted = n;
}

/*
 * Delivers queued records with time <= limit.  What stays queued and lives
 * in the current record arena is moved to the other arena.
 */
static int queue_flush(struct pd_file *f, u64 limit)
{
	struct pd_internal *in = f->in;
	u64 i;

	queue_sort(in);
	for (i = in->q_head; i < in->q_len && in->q[i].time <= limit; i++) {
		struct qent *e = &in->q[i];

		in->last_flush = e->time;
		if (deliver(f, e->hdr, e->file_offset, e->time,
			    e->evsel_idx == NO_EVSEL ? NULL : &f->evsel[e->evsel_idx],
			    e->compressed, NULL, 0)) {
			i++;
			break;
		}
	}
	/* what is left stays where it is; queue_push() compacts when full */
	in->q_head = i;
	if (in->q_head == in->q_len)
		in->q_head = in->q_len = 0;
	in->q_sorted = in->q_len;
	/* compact transient records */
	struct arena *cur = &in->rec_arena[in->cur_arena];
	struct arena *other = &in->rec_arena[!in->cur_arena];
	if (cur->used_bytes == 0)
		return in->stop;
	arena_reset(other);
	for (u64 k = in->q_head; k < in->q_len; k++) {
		struct qent *e = &in->q[k];

		if (e->transient)
			e->hdr = arena_memdup(other, e->hdr, e->hdr->size);
	}
	arena_reset(cur);
	in->cur_arena = !in->cur_arena;
	return in->stop;
}

/* Makes room for one more queued record: the queue moved down over the
 * delivered ones, or grown. */
static __attribute__((noinline)) void queue_room(struct pd_internal *in)
{
	if (in->q_head) {
		memmove(in->q, in->q + in->q_head, (in->q_len - in->q_head) * sizeof(*in->q));
		in->q_len -= in->q_head;
		in->q_sorted -= in->q_head;
		in->q_head = 0;
		return;
	}
	in->q_cap = in->q_cap ? in->q_cap * 2 : 4096;
	in->q = xrealloc(in->q, in->q_cap * sizeof(*in->q));
	free(in->q_tmp);
	in->q_tmp = xmalloc(in->q_cap * sizeof(*in->q_tmp));
}

/* Appends a record to the queue; a transient one is copied first
 * (inlined: once per record). */
static inline __attribute__((always_inline)) void queue_push(struct pd_file *f,
							     const struct qent *src)
{
	struct pd_internal *in = f->in;
	struct qent *e;

	if (in->q_len == in->q_cap)
		queue_room(in);
	if (src->time < in->last_flush)
		f->stats.nr_out_of_order++;
	/* as perf: the first record into an empty queue sets the maximum */
	if (in->q_len == in->q_head || src->time > in->max_time)
		in->max_time = src->time;
	e = &in->q[in->q_len++];
	*e = *src;
	if (e->transient)
		e->hdr = arena_memdup(&in->rec_arena[in->cur_arena], e->hdr, e->hdr->size);
}

static void release_behind(struct pd_file *f, u64 scan_pos);

/* Delivers one item, or flushes the queue after it.  Returns
 * non-zero to stop (a callback's return, or -1). */
static int consume(struct pd_file *f, const struct item *it)
{
	struct pd_internal *in = f->in;
	const struct qent *e = &it->e;
	struct pd_evsel *evsel = e->evsel_idx == NO_EVSEL ? NULL : &f->evsel[e->evsel_idx];

	switch (it->kind) {
	case ITEM_ROUND:
		if (deliver(f, e->hdr, e->file_offset, e->time, evsel, e->compressed, NULL, 0))
			return in->stop;
		if (in->q_len == in->q_head) {	/* perf leaves the limit alone then */
			release_behind(f, e->file_offset);
			return 0;
		}
		if (queue_flush(f, in->next_flush))
			return in->stop;
		in->next_flush = in->max_time;
		release_behind(f, e->file_offset);
		return 0;
	default:
		return deliver(f, e->hdr, e->file_offset, e->time, evsel, e->compressed,
			       it->payload, it->payload_size);
	}
}


/* ------------------------------------------------------ record handling --- */

/* pd_evsel_by_id() with a one-entry cache; id 0 means the first attr. */
static struct pd_evsel *lookup_id(struct pd_file *f, u64 id)
{
	struct pd_internal *in = f->in;

	if (id == 0)
		return &f->evsel[0];
	if (id != in->last_id || !in->last_evsel) {
		in->last_evsel = pd_evsel_by_id(f, id);
		in->last_id = id;
	}
	return in->last_evsel;
}

static void count_other_type(struct pd_stats *s, u32 type);

/* Counts a record by type (inlined: once per record). */
static inline __attribute__((always_inline)) void count_type(struct pd_file *f, u32 type)
{
	struct pd_stats *s = &f->stats;

	s->nr_events++;
	if (type && type < PD_NR_COUNTED_TYPES)	/* slot 0 is no type */
		s->nr_by_type[type]++;
	else
		count_other_type(s, type);
}

/* count_type() of a type with no slot of its own. */
static __attribute__((noinline)) void count_other_type(struct pd_stats *s, u32 type)
{
	for (u32 i = 0; i < s->nr_other_types; i++) {
		if (s->other_types[i].type == type) {
			s->other_types[i].count++;
			return;
		}
	}
	if (s->nr_other_types < sizeof(s->other_types) / sizeof(s->other_types[0])) {
		s->other_types[s->nr_other_types].type = type;
		s->other_types[s->nr_other_types].count = 1;
		s->nr_other_types++;
	}
}

static int type_is_known(u32 type)
{
	return type < PD_REC_KERNEL_MAX || (type >= PD_REC_USER_START && type < PD_REC_MAX_KNOWN);
}

/* The evsel of a kernel record and its timestamp.  Returns -1 if the
 * sample's id is unknown (the record is then dropped). */
static int classify(struct pd_file *f, const struct pd_header *hdr, struct pd_evsel **evselp,
		    u64 *timep)
{
	struct pd_evsel *e = f->nr_evsel ? &f->evsel[0] : NULL;
	const u8 *p = (const u8 *)hdr;
	u64 size = hdr->size;

	*timep = PD_NO_TIME;
	*evselp = e;
	if (!e)
		return 0;
	if (hdr->type == PD_REC_SAMPLE) {
		if (e->id_pos >= 0 && f->nr_evsel > 1) {
			u64 off = 8 + (u64)e->id_pos * 8;

			if (off + 8 > size)
				return 0;	/* pd_parse_sample reports it */
			u64 id = pd_get64(p + off);
			struct pd_evsel *by_id = lookup_id(f, id);

			if (!by_id) {
				f->stats.nr_unknown_id++;
				*evselp = NULL;
				return -1;
			}
			e = by_id;
			*evselp = e;
		}
		if (e->time_pos >= 0 && 16 + (u64)e->time_pos * 8 <= size)
			*timep = pd_get64(p + 8 + (u64)e->time_pos * 8);
		return 0;
	}
	if (!f->sample_id_all || size < 8 + (u64)e->trailer_size)
		return 0;
	if (e->is_pos >= 0 && f->nr_evsel > 1) {
		u64 id = pd_get64(p + size - (u64)e->is_pos * 8);
		struct pd_evsel *by_id = lookup_id(f, id);

		if (by_id)
			e = by_id;
		*evselp = e;
	}
	u64 st = e->attr.sample_type;
	if ((st & PD_SAMPLE_TIME) && size >= 8 + (u64)e->trailer_size) {
		u64 off = size - e->trailer_size;

		off += (st & PD_SAMPLE_TID) ? 8 : 0;
		*timep = pd_get64(p + off);
	}
	return 0;
}

static int handle_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed, const void *payload, u64 payload_size);
static void read_header_at(const struct pd_file *f, const u8 *p, struct pd_header *h);

/* Feeds a COMPRESSED payload through the stream's one zstd context and
 * handles every whole record that comes out. */
static int decompress(struct pd_file *f, const u8 *src, u64 len, u64 offset)
{
	struct pd_internal *in = f->in;
	ZSTD_inBuffer zin = { src, len, 0 };

	if (!in->zstd) {
		in->zstd = ZSTD_createDCtx();
		if (!in->zstd)
			die("out of memory creating a zstd context");
	}
	if (!in->dbuf) {
		in->dbuf_cap = 1 << 20;
		in->dbuf = xmalloc(in->dbuf_cap);
	}
	do {
		ZSTD_outBuffer zout = { in->dbuf + in->dbuf_len, in->dbuf_cap - in->dbuf_len, 0 };
		size_t r = ZSTD_decompressStream(in->zstd, &zout, &zin);

		if (ZSTD_isError(r))
			return error("%s: bad zstd data (%s) in compressed record at offset %#llx",
				     f->path, ZSTD_getErrorName(r), (unsigned long long)offset);
		in->dbuf_len += zout.pos;
		f->stats.decompressed_bytes += zout.pos;

		u64 pos = 0;
		while (in->dbuf_len - pos >= 8) {
			struct pd_header h;

			read_header_at(f, in->dbuf + pos, &h);
			if (h.size < 8)
				return error("%s: bad record size %u in compressed data of the record at offset %#llx",
					     f->path, h.size, (unsigned long long)offset);
			if (h.size > in->dbuf_len - pos)
				break;
			if (h.type == PD_REC_COMPRESSED || h.type == PD_REC_COMPRESSED2)
				return error("%s: nested compressed record in the record at offset %#llx",
					     f->path, (unsigned long long)offset);
			memcpy(in->dbuf + pos, &h, 8);
			if (handle_record(f, (struct pd_header *)(in->dbuf + pos), offset, 1, 1, NULL, 0))
				return -1;
			if (in->stop)
				return 0;
			pos += h.size;
		}
		memmove(in->dbuf, in->dbuf + pos, in->dbuf_len - pos);
		in->dbuf_len -= pos;
		if (zout.pos == 0 && zin.pos == zin.size)
			break;
	} while (zin.pos < zin.size || in->dbuf_len == in->dbuf_cap);
	return 0;
}

/* HEADER_ATTR in a stream: attr bytes, then u64 ids to the end. */
static int stream_attr(struct pd_file *f, const struct pd_header *hdr, u64 offset)
{
	const u8 *p = (const u8 *)hdr + 8;
	u64 avail = hdr->size - 8;
	struct pd_evsel *e = add_evsel(f, p, avail, offset + 8);

	if (!e)
		return -1;
	add_ids(f, e, p + e->disk_attr_size, (avail - e->disk_attr_size) / 8);
	/* ids may have been added to an earlier attr's table: recompute */
	f->sample_id_all = PD_ATTR_FLAG(&f->evsel[0].attr, PD_ATTR_SAMPLE_ID_ALL);
	f->id_hdr_size = f->evsel[0].trailer_size;
	return 0;
}

static int stream_feature(struct pd_file *f, const struct pd_header *hdr, u64 offset)
{
	u64 feat;

	if (hdr->size < 16)
		return error("%s: feature record too short (%u bytes) at offset %#llx", f->path,
			     hdr->size, (unsigned long long)offset);
	feat = pd_get64((const u8 *)hdr + 8);
	if (feat >= PD_FEAT_BITS) {
		warning("%s: ignoring feature record with bad id %llu at offset %#llx",
				f->path, (unsigned long long)feat, (unsigned long long)offset);
		return 0;
	}
	if (feat == PD_FEAT_PIPE_END_61 && hdr->size == 16)
		return 0;	/* perf 6.1's end-of-features marker */
	f->feat_data[feat] = arena_memdup(&f->arena, (const u8 *)hdr + 16, hdr->size - 16);
	f->feat_size[feat] = hdr->size - 16;
	f->feat_offset[feat] = offset + 16;
	f->features[feat / 64] |= 1ULL << (feat % 64);
	if (feat == PD_FEAT_EVENT_DESC)
		return pd_feature_apply_event_desc(f);
	return 0;
}

/*
 * handle_record() of a kernel record (type below PD_REC_KERNEL_MAX, in
 * host order): counts it, finds its evsel and time, and queues or
 * delivers it.
 */
static int kernel_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed)
{
	struct pd_internal *in = f->in;
	struct pd_evsel *evsel;
	u32 type = hdr->type;
	u64 time;

	count_type(f, type);
	if (classify(f, hdr, &evsel, &time))
		return 0;	/* sample with an unknown id: dropped, counted */
	if (type == PD_REC_SAMPLE && evsel)
		evsel->nr_samples++;
	if (type == PD_REC_LOST && hdr->size >= 24) {
		f->stats.total_lost += pd_get64((const u8 *)hdr + 16);
	} else if (type == PD_REC_LOST_SAMPLES && hdr->size >= 16) {
		u64 lost = pd_get64((const u8 *)hdr + 8);

		f->stats.total_lost_samples += lost;
		if (evsel)
			evsel->nr_lost_samples += lost;
	}
	struct item it = {
		.e = { .time = time, .hdr = hdr, .file_offset = offset,
		       .evsel_idx = evsel ? evsel->idx : NO_EVSEL, .compressed = (u16)compressed,
		       .transient = (u16)transient },
		.kind = ITEM_NOW,
	};

	if (in->ordered && time != 0 && time != PD_NO_TIME) {
		queue_push(f, &it.e);
		return 0;
	}
	return consume(f, &it) < 0 ? -1 : 0;
}

/*
 * Handles one record (already in host order): counts it, applies what it
 * says about the file (attrs, features, names), delivers or queues it.
 * transient: the record's memory is reused after this call.
 */
static int handle_record(struct pd_file *f, const struct pd_header *hdr, u64 offset,
			 int transient, int compressed, const void *payload, u64 payload_size)
{
	struct pd_internal *in = f->in;
	u32 type = hdr->type;

	if (f->needs_swap && pd_swap_record(f, (struct pd_header *)hdr))
		return error("%s: cannot byte-swap record of type %u at offset %#llx", f->path,
			     type, (unsigned long long)offset);
	if (type < PD_REC_KERNEL_MAX)
		return kernel_record(f, hdr, offset, transient, compressed);

	struct item it = {
		.e = { .time = PD_NO_TIME, .hdr = hdr, .file_offset = offset,
		       .evsel_idx = NO_EVSEL, .compressed = (u16)compressed,
		       .transient = (u16)transient },
		.kind = ITEM_NOW,
	};

	count_type(f, type);
	if (!type_is_known(type)) {
		f->stats.nr_unknown++;
		return consume(f, &it) < 0 ? -1 : 0;
	}
	/* a user record (perf's own types) */
	int ret = 0;

	switch (type) {
	case PD_REC_HEADER_ATTR:
		ret = stream_attr(f, hdr, offset);
		break;
	case PD_REC_HEADER_FEATURE:
		ret = stream_feature(f, hdr, offset);
		break;
	case PD_REC_HEADER_TRACING_DATA:
		if (payload && !f->feat_data[PD_FEAT_TRACING_DATA]) {
			f->feat_data[PD_FEAT_TRACING_DATA] = transient ?
				arena_memdup(&f->arena, payload, payload_size) : payload;
			f->feat_size[PD_FEAT_TRACING_DATA] = payload_size;
			f->feat_offset[PD_FEAT_TRACING_DATA] = offset + hdr->size;
			/* tracepoint names come from the tracing data */
			ret = pd_feature_apply_event_desc(f);
		}
		break;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2:
		if (compressed)
			return error("%s: nested compressed record at offset %#llx", f->path,
				     (unsigned long long)offset);
		break;
	default:
		break;
	}
	if (ret)
		return -1;
	if (type == PD_REC_FINISHED_ROUND && in->ordered)
		it.kind = ITEM_ROUND;
	it.payload = payload;
	it.payload_size = payload_size;
	if (consume(f, &it) < 0)
		return -1;
	if (in->stop)
		return 0;
	if (type == PD_REC_COMPRESSED) {
		return decompress(f, (const u8 *)hdr + 8, hdr->size - 8, offset);
	} else if (type == PD_REC_COMPRESSED2) {
		u64 dsize = hdr->size >= 16 ? pd_get64((const u8 *)hdr + 8) : (u64)-1;

		if (dsize > (u64)hdr->size - 16)
			return error("%s: compressed data size %llu exceeds its record at offset %#llx",
				     f->path, (unsigned long long)dsize, (unsigned long long)offset);
		return decompress(f, (const u8 *)hdr + 16, dsize, offset);
	}
	return 0;
}

/* Size of the bytes that follow a record outside its header.size; hdr is
 * the host-order header of the record at p (whose body is in file order). */
static u64 extra_payload(const struct pd_file *f, const struct pd_header *hdr, const u8 *p)
{
	u64 v, extra = 0;

	if (hdr->type == PD_REC_AUXTRACE && hdr->size >= 16) {
		v = pd_get64(p + 8);
		if (f->needs_swap)
			v = __builtin_bswap64(v);
		extra = v;
	} else if (hdr->type == PD_REC_HEADER_TRACING_DATA && hdr->size >= 12) {
		u32 s = pd_get32(p + 8);

		if (f->needs_swap)
			s = __builtin_bswap32(s);
		extra = ((u64)s + 7) & ~7ULL;
	}
	return extra;
}

/* Loads the record header at p into h in host order. */
static void read_header_at(const struct pd_file *f, const u8 *p, struct pd_header *h)
{
	memcpy(h, p, sizeof(*h));
	if (f->needs_swap) {
		h->type = __builtin_bswap32(h->type);
		h->misc = __builtin_bswap16(h->misc);
		h->size = __builtin_bswap16(h->size);
	}
}

/*
 * The pager: for big files a second thread maps pages in ahead of the scan
 * and gives them back behind it, so the page-table work runs on the other
 * core.  It only ever calls madvise() on the mapping: if it falls behind,
 * the scan takes ordinary page faults; a page given back too early is read
 * back on the next touch.  So it can slow nothing down nor change a byte.
 */
struct pager {
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

static void *pager_main(void *arg)
{
	struct pager *p = arg;

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

/* Asks the pager to map in up to want and give back below drop (0: no
 * change). */
static void pager_ask(struct pager *p, u64 want, u64 drop)
{
	pthread_mutex_lock(&p->lock);
	if (want > p->want)
		p->want = want & ~(PAGE - 1);
	if (drop > p->drop)
		p->drop = drop;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Starts a pager for the data section of f, or leaves f without one. */
static void pager_start(struct pd_file *f)
{
	struct pager *p;

	if (f->data_size < PAGER_MIN_DATA || f->needs_swap || usable_cpus() < 2)
		return;
	p = xcalloc(1, sizeof(*p));
	p->map = f->map;
	p->populated = p->released = p->want = p->drop = f->in->populated_end;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&p->thread, NULL, pager_main, p)) {
		free(p);	/* no thread: the scan pages for itself */
		return;
	}
	f->in->pager = p;
}

static void pager_stop(struct pd_file *f)
{
	struct pager *p = f->in->pager;

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
	f->in->pager = NULL;
}

/*
 * The mapping's resident window.  Pages are mapped in ahead of the scan in
 * big steps (one call instead of a fault per page), and pages wholly below
 * every record still queued are given back after each round, so a file's
 * resident memory is a window of a few rounds, not its size.  Giving back
 * is safe because the pages are unmodified file pages: touching them again
 * reads them back.  Files swapped in place keep all their pages.
 */
static void populate_ahead(struct pd_file *f, u64 pos)
{
	struct pd_internal *in = f->in;
	u64 end = f->data_offset + f->data_size;
	u64 from = in->populated_end > pos ? in->populated_end : pos & ~(PAGE - 1);
	u64 to = pos + POPULATE_STEP < end ? pos + POPULATE_STEP : end;

	if (in->pager) {
		/* ask for two steps so the pager stays one step ahead */
		pager_ask(in->pager, pos + 2 * POPULATE_STEP < end ? pos + 2 * POPULATE_STEP : end, 0);
	} else if (to > from) {
		madvise(f->map + from, to - from, MADV_POPULATE_READ);
	}
	in->populated_end = to;
}

/* Gives back the pages before scan_pos that no queued record needs. */
static void release_behind(struct pd_file *f, u64 scan_pos)
{
	struct pd_internal *in = f->in;
	u64 keep = scan_pos;

	if (!f->map || f->needs_swap)
		return;
	for (u64 i = in->q_head; i < in->q_len; i++) {
		const struct qent *e = &in->q[i];

		if (!e->transient && e->file_offset < keep)
			keep = e->file_offset;
	}
	keep &= ~(PAGE - 1);
	if (keep < in->released_end + RELEASE_STEP)
		return;
	if (in->pager) {
		pager_ask(in->pager, 0, keep);
	} else {
		madvise(f->map + in->released_end, keep - in->released_end, MADV_DONTNEED);
	}
	in->released_end = keep;
}

/* The records of a mapped file (file mode, or a stream saved to a file). */
static int process_mapped(struct pd_file *f)
{
	u64 pos = f->data_offset;
	u64 end = f->data_offset + f->data_size;

	while (pos < end && !f->in->stop) {
		struct pd_header h;
		u64 extra;

		if (pos + 65536 > f->in->populated_end)
			populate_ahead(f, pos);

		if (end - pos < 8) {
			if (f->pipe_mode || f->data_size_was_zero) {
				warning("%s: ignoring %llu trailing bytes at offset %#llx: too short for a record",
					f->path, (unsigned long long)(end - pos), (unsigned long long)pos);
				break;
			}
			return error("%s: truncated record header at offset %#llx", f->path,
				     (unsigned long long)pos);
		}
		read_header_at(f, f->map + pos, &h);
		if (h.size < 8)
			return error("%s: bad record size %u at offset %#llx", f->path, h.size,
				     (unsigned long long)pos);
		if (h.size > end - pos) {
			if (f->pipe_mode || f->data_size_was_zero) {
				warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
					f->path, (unsigned long long)(end - pos), (unsigned long long)pos);
				break;
			}
			return error("%s: record of size %u runs past the end of the data at offset %#llx",
				     f->path, h.size, (unsigned long long)pos);
		}
		if (f->needs_swap)	/* in place: the mapping is private */
			memcpy(f->map + pos, &h, 8);
		extra = h.type == PD_REC_AUXTRACE || h.type == PD_REC_HEADER_TRACING_DATA ?
			extra_payload(f, &h, f->map + pos) : 0;
		if (extra > end - pos - h.size)
			return error("%s: payload of %llu bytes of the %s record runs past the end of the data at offset %#llx",
				     f->path, (unsigned long long)extra, pd_record_name(h.type),
				     (unsigned long long)pos);
		if (!f->needs_swap && h.type < PD_REC_KERNEL_MAX) {
			/* handle_record()'s first step, taken directly */
			if (kernel_record(f, (struct pd_header *)(f->map + pos), pos, 0, 0))
				return -1;
		} else if (handle_record(f, (struct pd_header *)(f->map + pos), pos, 0, 0,
					 extra ? f->map + pos + h.size : NULL, extra)) {
			return -1;
		}
		pos += h.size + extra;
	}
	return 0;
}

/* Makes at least want bytes available at in->win_pos; returns how many are. */
static u64 window_fill(struct pd_file *f, u64 want)
{
	struct pd_internal *in = f->in;

	if (in->win_size - in->win_pos >= want || in->eof)
		return in->win_size - in->win_pos;
	/* slide the unread bytes to the front */
	if (in->win_pos) {
		memmove(in->win, in->win + in->win_pos, in->win_size - in->win_pos);
		in->win_start += in->win_pos;
		in->win_size -= in->win_pos;
		in->win_pos = 0;
	}
	while (in->win_size < want) {
		ssize_t n;

		/* grow only as bytes arrive: a record that claims a huge
		 * payload costs memory only if the stream really holds it */
		if (in->win_size == in->win_cap) {
			in->win_cap = in->win_cap ? in->win_cap * 2 : (1 << 20);
			in->win = xrealloc(in->win, in->win_cap);
		}
		n = read(f->fd, in->win + in->win_size, in->win_cap - in->win_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("%s: read error: %s at offset %#llx", f->path, strerror(errno),
			      (unsigned long long)(in->win_start + in->win_size));
			in->eof = 1;
			break;
		}
		if (n == 0) {
			in->eof = 1;
			break;
		}
		in->win_size += (u64)n;
	}
	return in->win_size - in->win_pos;
}

/* The records of a stream read from a pipe. */
static int process_stream(struct pd_file *f)
{
	struct pd_internal *in = f->in;

	while (!in->stop) {
		struct pd_header h;
		u64 avail = window_fill(f, 8), extra, offset;

		if (avail == 0)
			break;
		offset = in->win_start + in->win_pos;
		if (avail < 8) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: too short for a record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		read_header_at(f, in->win + in->win_pos, &h);
		if (h.size < 8)
			return error("%s: bad record size %u at offset %#llx", f->path, h.size,
				     (unsigned long long)offset);
		avail = window_fill(f, h.size);
		if (avail < h.size) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		extra = extra_payload(f, &h, in->win + in->win_pos);
		if (extra > (1ULL << 32))
			return error("%s: payload of %llu bytes of the %s record is too large at offset %#llx",
				     f->path, (unsigned long long)extra, pd_record_name(h.type),
				     (unsigned long long)offset);
		/* TRACING_DATA's blob is kept; AUXTRACE data is streamed past */
		u64 keep = h.type == PD_REC_HEADER_TRACING_DATA ? extra : 0;
		avail = window_fill(f, h.size + keep);
		if (avail < h.size + keep) {
			warning("%s: ignoring %llu trailing bytes at offset %#llx: not a whole record",
				f->path, (unsigned long long)avail, (unsigned long long)offset);
			break;
		}
		u8 *rec = in->win + in->win_pos;
		memcpy(rec, &h, 8);
		if (handle_record(f, (struct pd_header *)rec, offset, 1, 0,
				  keep ? rec + h.size : NULL, keep))
			return -1;
		in->win_pos += h.size + keep;
		/* skip an AUXTRACE payload without keeping it */
		for (u64 skip = extra - keep; skip;) {
			u64 got = window_fill(f, skip < (1 << 20) ? skip : (1 << 20));
			u64 n = got < skip ? got : skip;

			if (got == 0)
				return error("%s: AUXTRACE payload is truncated at offset %#llx", f->path,
					     (unsigned long long)(in->win_start + in->win_pos));
			in->win_pos += n;
			skip -= n;
		}
	}
	return 0;
}

/* Reads every record from the file or stream. */
static int scan(struct pd_file *f)
{
	if (f->map) {
		int ret;

		f->in->populated_end = f->data_offset & ~(PAGE - 1);
		f->in->released_end = f->in->populated_end;
		pager_start(f);
		ret = process_mapped(f);
		pager_stop(f);
		return ret;
	}
	return process_stream(f);
}

int pd_process(struct pd_file *f, const struct pd_ops *ops, void *ctx)
{
	struct pd_internal *in = f->in;
	int ret;

	in->ops = ops;
	in->ctx = ctx;
	in->stop = 0;
	/* perf turns ordering off when the first attr has no sample_id_all;
	 * in a stream the attrs are not known yet, so order and check later */
	in->ordered = !(f->flags & PD_UNORDERED);
	if (!f->pipe_mode && f->nr_evsel && !f->sample_id_all)
		in->ordered = 0;
	ret = scan(f);
	if (ret < 0)
		return -1;
	if (ret || in->stop)
		return ret ? ret : in->stop;
	if (f->pipe_mode && f->nr_evsel == 0 && f->stats.nr_events == 0)
		warning("%s: the stream holds no records", f->path);
	if (queue_flush(f, PD_NO_TIME))
		return in->stop;
	return 0;
}
