/*
 * reader.c - opens perf.data files and streams: the file header, the
 * attrs and their ids, the feature sections (and their HEADER_ATTR and
 * HEADER_FEATURE records in a stream); the data section is read by
 * reader_scan.c.
 *
 * A regular file is mapped read-only (copy-on-write writable only when its
 * records must be byte-swapped in place) and records point into the
 * mapping.  A pipe or FIFO is read in chunks by the scan; here only its
 * 16-byte header is read.
 *
 * The layouts read here are described in perf_data.h.
 */
#include "reader_internal.h"
#include "swap.h"
#include "feature.h"
#include "../util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- ids --- */

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
	return id_map_find(f->ids, id);
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
		pd_read_state_free(&in->read_counts);
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

/* ------------------------------------------------- stream header records --- */

/* A stream's HEADER_ATTR: attr bytes, then u64 ids to the end. */
int reader_stream_attr(struct pd_file *f, const struct pd_header *hdr, u64 offset)
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

/* A stream's HEADER_FEATURE: u64 feature id, then the section. */
int reader_stream_feature(struct pd_file *f, const struct pd_header *hdr, u64 offset)
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
