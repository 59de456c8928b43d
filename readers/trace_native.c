/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The native trace format's reader (native.h, doc/trace-format.md).  open()
 * reads the file header and walks the chunk headers only (seeking past
 * every payload) into an index: per kernel its KERNEL chunk and its BLOCKS
 * chunks with their first block ids and PYSET chunks, and the END chunk
 * must close the file, so a truncated file is refused before anything
 * runs.  A kernel's KERNEL chunk is read when the kernel starts; a BLOCKS
 * chunk (and its PYSET chunk, with trace_keep_pyset_sectors only) when a
 * block in it is loaded, and kept until a block of another chunk is
 * wanted (the scheduler asks in ascending order).  Every payload's CRC is checked as
 * it is decompressed.  Blocks come out exactly as the source trace's
 * reader built them: same lines, opcode texts, warps, lanes, addresses.
 * From version 5 on, with trace_stream_lines, a block is not decoded as it
 * loads: it keeps its chunk's payload and gives its lines one at a time
 * as its SM issues them (struct native_block).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "native.h"
#include "trace_internal.h"
#include "unit_pool.h"

struct chunk_ref {
	uint64_t off;		/* of the chunk header */
	struct native_chunk_header h;
	/* a BLOCKS chunk's PYSET chunk (pyset.off 0: none) */
	struct chunk_pyset {
		uint64_t off;
		struct native_chunk_header h;
	} pyset;
};

struct native_kernel {
	struct chunk_ref kernel;
	GArray *blocks;		/* struct chunk_ref, ascending first id */
	uint64_t bytes;		/* of its chunks, headers included */
};

/*
 * A BLOCKS chunk's payload (and its PYSET chunk's) that streamed blocks
 * read their lines from (native_state.stream): freed with the last block
 * that refers to it and the cursor that loaded it, blocks being freed on
 * whichever thread releases them.
 */
struct native_payload {
	gint refs;
	uint8_t *raw, *pyset;	/* pyset NULL: none kept */
};

static void payload_unref(struct native_payload *pl)
{
	if (pl && g_atomic_int_dec_and_test(&pl->refs)) {
		g_free(pl->raw);
		g_free(pl->pyset);
		g_free(pl);
	}
}

/*
 * A chunk decompressed, and where its next block is: the reader's own, and
 * one per loader of a load shared among threads (native_load).
 */
struct chunk_cursor {
	ZSTD_DCtx *z;
	void *packed;
	size_t cap_packed;
	uint8_t *raw;
	size_t cap_raw, raw_len;
	const struct chunk_ref *in_hand;	/* whose blocks raw holds, or NULL */
	/* with trace_keep_pyset_sectors: in_hand's PYSET payload, if any */
	uint8_t *pyset_raw;
	size_t cap_pyset_raw, pyset_len;
	bool has_pyset;
	/* the payloads in hand: raw and pyset_raw, or pl's (streamed lines) */
	const uint8_t *data, *pyset_data;
	struct native_payload *pl;		/* NULL unless streamed */
	const uint8_t *cursor;
	const uint8_t *pyset_cursor;		/* NULL: no PYSET payload */
	uint64_t cursor_id, cursor_left;	/* the next block's id; blocks left */
	bool cursor_fresh;			/* no block read from it yet */
	struct block_builder *build;		/* where its blocks are built */
};

/* A kernel's KERNEL chunk: what its lines are decoded against, and which
 * of its blocks are stored. */
struct kernel_info {
	const char **opcodes;	/* interned in the strings its blocks use */
	size_t n_opcodes;
	uint32_t warps;		/* per block, as the warp interleaver counts them */
	uint64_t *stored;	/* ids of the blocks stored, ascending */
	size_t n_stored;
	uint64_t *held;		/* [start, end) runs next_held passes through */
	size_t n_held;		/* runs */
	uint64_t n_source;	/* blocks the source trace held (count_held) */
};

struct readahead;

struct native_state {
	char *path, *name;	/* name: as messages call it */
	int fd;
	GArray *kernels;	/* struct native_kernel, in file order */
	uint32_t version;	/* the file's format version */
	/* the current kernel's first chunk, and the furthest end of the
	 * chunks of its blocks loaded so far (for progress) */
	uint64_t kernel_first, furthest;
	size_t next;		/* the kernel next_kernel reads */
	struct chunk_cursor cur;	/* the reader's own */
	struct kernel_info ki;	/* the current kernel's */
	/* the current kernel's blocks built ahead (id -> block; NULL: none) */
	GHashTable *ahead;
	struct readahead *ra;	/* building the next kernel's; NULL: idle */
	bool keep_pyset;	/* trace_keep_pyset_sectors */
	bool stream;		/* trace_stream_lines: blocks of version 5 on
				   come out streamed (gpu_block.stream) */
};

#define bad(err, s, ...) (trace_error((err), (s)->name, 0, __VA_ARGS__), false)

static bool read_at(struct native_state *s, uint64_t off, void *buf, size_t n,
		    GError **err)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(s->fd, (char *)buf + got, n - got,
				  (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return bad(err, s, "cannot read: %s", g_strerror(errno));
		if (r == 0)
			return bad(err, s, "truncated: the file ends at byte %"
				   G_GUINT64_FORMAT " inside a chunk; expected a whole "
				   "sectorsim native trace (sectorsim convert writes one)",
				   off + got);
		got += (size_t)r;
	}
	return true;
}

/* The payload of the chunk at `off` with header h into *raw (grown as
 * need be, CRC checked); false with *err. */
static bool decompress(struct native_state *s, struct chunk_cursor *cc,
		       uint64_t off, const struct native_chunk_header *h,
		       uint8_t **raw, size_t *cap_raw, GError **err)
{
	size_t got;
	uint32_t crc;

	if (cc->cap_packed < h->stored_len) {
		g_free(cc->packed);
		cc->cap_packed = h->stored_len;
		cc->packed = g_malloc(cc->cap_packed);
	}
	if (*cap_raw < (size_t)h->raw_len + 1) {
		g_free(*raw);
		*cap_raw = (size_t)h->raw_len + 1;
		*raw = g_malloc(*cap_raw);
	}
	if (!read_at(s, off + NATIVE_CHUNK_HEADER, cc->packed, h->stored_len, err))
		return false;
	got = h->raw_len ? ZSTD_decompressDCtx(cc->z, *raw, h->raw_len,
					       cc->packed, h->stored_len) : 0;
	if (ZSTD_isError(got) || got != h->raw_len)
		return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
			   " does not decompress to its %u bytes (%s); the file is damaged",
			   off, h->raw_len,
			   ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
	crc = native_crc32(*raw, h->raw_len);
	if (crc != h->crc)
		return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
			   ": checksum %08x, expected %08x; the file is damaged",
			   off, crc, h->crc);
	return true;
}

/* The chunk's payload into cc->raw, and with trace_keep_pyset_sectors
 * its PYSET chunk's into cc->pyset_raw; false with *err. */
static bool load_payload(struct native_state *s, struct chunk_cursor *cc,
			 const struct chunk_ref *c, GError **err)
{
	bool pyset = s->keep_pyset && c->pyset.off;

	cc->in_hand = NULL;
	cc->has_pyset = false;
	payload_unref(cc->pl);
	cc->pl = NULL;
	if (s->stream && s->version >= NATIVE_VERSION_LENGTHS &&
	    c->h.type == NATIVE_BLOCKS) {
		/* buffers of their own, which the chunk's blocks keep */
		struct native_payload *pl = g_new0(struct native_payload, 1);
		size_t cap = 0, cap_pyset = 0;

		pl->refs = 1;
		cc->pl = pl;
		if (!decompress(s, cc, c->off, &c->h, &pl->raw, &cap, err) ||
		    (pyset && !decompress(s, cc, c->pyset.off, &c->pyset.h,
					  &pl->pyset, &cap_pyset, err)))
			return false;
		cc->data = pl->raw;
		cc->pyset_data = pl->pyset;
	} else {
		if (!decompress(s, cc, c->off, &c->h, &cc->raw, &cc->cap_raw, err) ||
		    (pyset && !decompress(s, cc, c->pyset.off, &c->pyset.h,
					  &cc->pyset_raw, &cc->cap_pyset_raw, err)))
			return false;
		cc->data = cc->raw;
		cc->pyset_data = cc->pyset_raw;
	}
	cc->raw_len = c->h.raw_len;
	if (pyset) {
		cc->pyset_len = c->pyset.h.raw_len;
		cc->has_pyset = true;
	}
	return true;
}

static void cursor_free(struct chunk_cursor *cc)
{
	payload_unref(cc->pl);
	ZSTD_freeDCtx(cc->z);
	g_free(cc->packed);
	g_free(cc->raw);
	g_free(cc->pyset_raw);
}

/* ---- open: the index -------------------------------------------------- */

static void kernel_clear(gpointer p)
{
	struct native_kernel *k = p;

	if (k->blocks)
		g_array_free(k->blocks, TRUE);
}

/* The index into s->kernels; *kept gathers the kernel being read. */
static bool index_chunks(struct native_state *s, struct native_kernel *kept,
			 GError **err);

static bool build_index(struct native_state *s, GError **err)
{
	struct native_kernel cur = { 0 };
	bool ok = index_chunks(s, &cur, err);

	/* a kernel's chunks not yet closed by its KERNEL chunk */
	kernel_clear(&cur);
	return ok;
}

static bool index_chunks(struct native_state *s, struct native_kernel *kept,
			 GError **err)
{
	uint8_t head[NATIVE_FILE_HEADER], ch[NATIVE_CHUNK_HEADER];
	uint32_t version, head_len;
	struct stat st;
	uint64_t off, size, last_end = 0;	/* last_end: of the last BLOCKS chunk */

	if (fstat(s->fd, &st) != 0)
		return bad(err, s, "cannot read: %s", g_strerror(errno));
	size = (uint64_t)st.st_size;
	if (size < NATIVE_FILE_HEADER)
		return bad(err, s, "truncated: %" G_GUINT64_FORMAT " bytes, less "
			   "than the header; expected a sectorsim native trace", size);
	if (!read_at(s, 0, head, sizeof(head), err))
		return false;
	if (memcmp(head, NATIVE_MAGIC, NATIVE_MAGIC_LEN))
		return bad(err, s, "not a sectorsim native trace (its first bytes "
			   "are not the format's magic number)");
	memcpy(&version, head + 8, 4);
	memcpy(&head_len, head + 12, 4);
	version = GUINT32_FROM_LE(version);
	head_len = GUINT32_FROM_LE(head_len);
	if (version < NATIVE_VERSION_OLDEST || version > NATIVE_VERSION)
		return bad(err, s, "native trace format version %u; this sectorsim "
			   "reads versions %u to %u (convert the trace again)",
			   version, NATIVE_VERSION_OLDEST, NATIVE_VERSION);
	s->version = version;
	if (head_len != NATIVE_FILE_HEADER)
		return bad(err, s, "header of %u bytes; expected %u: the file is damaged",
			   head_len, NATIVE_FILE_HEADER);
	for (off = NATIVE_FILE_HEADER;; ) {
		struct chunk_ref c = { .off = off };
		uint64_t end;

		if (off == size)
			return bad(err, s, "truncated: no end chunk after %u kernel%s; "
				   "expected a whole sectorsim native trace",
				   s->kernels->len, s->kernels->len == 1 ? "" : "s");
		if (!read_at(s, off, ch, sizeof(ch), err))
			return false;
		native_get_header(ch, &c.h);
		end = off + NATIVE_CHUNK_HEADER + c.h.stored_len;
		if (c.h.raw_len > NATIVE_RAW_MAX ||
		    c.h.stored_len > ZSTD_compressBound(NATIVE_RAW_MAX) ||
		    (c.h.raw_len && !c.h.stored_len) ||
		    (!c.h.raw_len && c.h.stored_len))
			return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
				   ": sizes %u (raw) and %u (stored) are impossible; "
				   "the file is damaged", off, c.h.raw_len, c.h.stored_len);
		if (end > size)
			return bad(err, s, "truncated: the chunk at byte %" G_GUINT64_FORMAT
				   " runs past the file's end; expected a whole sectorsim "
				   "native trace", off);
		if ((c.h.type == NATIVE_KERNEL || c.h.type == NATIVE_END) &&
		    (c.h.b || (c.h.type == NATIVE_END && c.h.raw_len)))
			return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT ": a %s chunk "
				   "with %s; the file is damaged", off,
				   c.h.type == NATIVE_END ? "END" : "KERNEL",
				   c.h.b ? "a block count" : "a payload");
		if (c.h.type == NATIVE_END) {
			if (kept->blocks && kept->blocks->len)
				return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
					   ": the end comes before the blocks' kernel; "
					   "the file is damaged", off);
			if (c.h.a != s->kernels->len || end != size)
				return bad(err, s, "end chunk at byte %" G_GUINT64_FORMAT
					   " says %" G_GUINT64_FORMAT " kernels, %u found%s; "
					   "the file is damaged", off, c.h.a, s->kernels->len,
					   end != size ? ", and bytes follow it" : "");
			break;
		}
		if (!kept->blocks)
			kept->blocks = g_array_new(FALSE, FALSE, sizeof(struct chunk_ref));
		if (c.h.type == NATIVE_BLOCKS) {
			const struct chunk_ref *last = kept->blocks->len
				? &g_array_index(kept->blocks, struct chunk_ref,
						 kept->blocks->len - 1) : NULL;

			if (!c.h.b || (last && c.h.a <= last->h.a))
				return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
					   ": blocks out of order; the file is damaged", off);
			g_array_append_val(kept->blocks, c);
			last_end = end;
		} else if (c.h.type == NATIVE_PYSET && s->version >= 4) {
			struct chunk_ref *last = kept->blocks->len
				? &g_array_index(kept->blocks, struct chunk_ref,
						 kept->blocks->len - 1) : NULL;

			if (!last || last->pyset.off || off != last_end ||
			    c.h.a != last->h.a || c.h.b != last->h.b || !c.h.raw_len)
				return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
					   ": a PYSET chunk not right after the BLOCKS "
					   "chunk of its blocks; the file is damaged", off);
			last->pyset.off = off;
			last->pyset.h = c.h;
		} else if (c.h.type == NATIVE_KERNEL) {
			if (c.h.a != s->kernels->len + 1)
				return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
					   ": kernel %" G_GUINT64_FORMAT " where %u was "
					   "expected; the file is damaged", off, c.h.a,
					   s->kernels->len + 1);
			kept->kernel = c;
			kept->bytes += end - off;
			g_array_append_val(s->kernels, *kept);
			memset(kept, 0, sizeof(*kept));
			off = end;
			continue;
		} else {
			return bad(err, s, "chunk at byte %" G_GUINT64_FORMAT
				   " of unknown type %u; the file is damaged",
				   off, c.h.type);
		}
		kept->bytes += end - off;
		off = end;
	}
	return true;
}

static bool native_open(struct trace_reader *t, const char *file, GError **err)
{
	struct native_state *s = g_new0(struct native_state, 1);

	t->state = s;
	/* a single file: messages name it as it was given */
	s->path = g_strdup(file);
	s->name = g_strdup(file);
	s->kernels = g_array_new(FALSE, TRUE, sizeof(struct native_kernel));
	g_array_set_clear_func(s->kernels, kernel_clear);
	s->cur.z = ZSTD_createDCtx();
	s->cur.build = &t->build;
	do
		s->fd = open(file, O_RDONLY | O_CLOEXEC);
	while (s->fd < 0 && errno == EINTR);
	if (s->fd < 0)
		return bad(err, s, "cannot open: %s", g_strerror(errno));
	return build_index(s, err);
}

static void readahead_free(struct native_state *s);
static void kernel_info_free(struct kernel_info *ki);

static void native_close(struct trace_reader *t)
{
	struct native_state *s = t->state;

	if (!s)
		return;
	readahead_free(s);
	if (s->fd >= 0)
		close(s->fd);
	g_array_free(s->kernels, TRUE);
	cursor_free(&s->cur);
	kernel_info_free(&s->ki);
	if (s->ahead)
		g_hash_table_destroy(s->ahead);
	g_free(s->path);
	g_free(s->name);
	g_free(s);
	t->state = NULL;
}

static size_t native_kernel_count(const struct trace_reader *t)
{
	const struct native_state *s = t->state;

	return s->kernels->len;
}

static uint64_t native_kernel_bytes(struct trace_reader *t, size_t i)
{
	struct native_state *s = t->state;

	return g_array_index(s->kernels, struct native_kernel, i).bytes;
}

/* ---- a kernel ----------------------------------------------------------- */

#define damaged(err, s, c, what) \
	bad(err, s, "chunk at byte %" G_GUINT64_FORMAT ": %s; the file is damaged", \
	    (c)->off, what)
/* the same of BLOCKS chunk c's PYSET chunk */
#define pyset_damaged(err, s, c, what) \
	bad(err, s, "chunk at byte %" G_GUINT64_FORMAT ": %s; the file is damaged", \
	    (c)->pyset.off, what)

static bool get_u32(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	uint64_t u;

	if (!native_get_uv(p, end, &u) || u > UINT32_MAX)
		return false;
	*v = (uint32_t)u;
	return true;
}

/* A string of the payload, interned in `strings` (NULL: it does not parse). */
static const char *get_string(GStringChunk *strings, const uint8_t **p,
			      const uint8_t *end)
{
	uint64_t n;
	char *text;
	const char *kept;

	if (!native_get_uv(p, end, &n) || n > (uint64_t)(end - *p) ||
	    memchr(*p, '\0', n))
		return NULL;
	text = g_strndup((const char *)*p, n);
	kept = g_string_chunk_insert_const(strings, text);
	g_free(text);
	*p += n;
	return kept;
}

static void kernel_info_free(struct kernel_info *ki)
{
	g_free(ki->opcodes);
	g_free(ki->stored);
	g_free(ki->held);
	memset(ki, 0, sizeof(*ki));
}

/*
 * Kernel chunk c's payload, cc->raw, into *k and *ki; its texts (name,
 * opcodes) interned in `strings`.
 */
static bool parse_kernel(struct native_state *s, const struct chunk_ref *c,
			 const struct chunk_cursor *cc, GStringChunk *strings,
			 struct gpu_kernel *k, struct kernel_info *ki, GError **err)
{
	const uint8_t *p = cc->raw, *e = cc->raw + cc->raw_len;
	uint64_t n, id = 0;

	memset(k, 0, sizeof(*k));
	if (!get_u32(&p, e, &k->id) ||
	    !get_u32(&p, e, &k->grid[0]) || !get_u32(&p, e, &k->grid[1]) ||
	    !get_u32(&p, e, &k->grid[2]) || !get_u32(&p, e, &k->block[0]) ||
	    !get_u32(&p, e, &k->block[1]) || !get_u32(&p, e, &k->block[2]) ||
	    !native_get_uv(&p, e, &k->grid_size) || !get_u32(&p, e, &k->block_size) ||
	    !get_u32(&p, e, &k->regs) || !get_u32(&p, e, &k->smem) ||
	    !native_get_uv(&p, e, &k->stream_id) ||
	    !native_get_uv(&p, e, &k->shmem_base) ||
	    !native_get_uv(&p, e, &k->local_base) ||
	    !(k->name = get_string(strings, &p, e)) ||
	    !native_get_uv(&p, e, &ki->n_source) || !native_get_uv(&p, e, &n) ||
	    n > (uint64_t)(e - p))
		return damaged(err, s, c, "a kernel's launch data does not parse");
	ki->n_opcodes = (size_t)n;
	ki->warps = MAX((uint32_t)(((uint64_t)k->block_size + 31) / 32), 1u);
	ki->opcodes = g_renew(const char *, ki->opcodes, ki->n_opcodes);
	for (size_t i = 0; i < ki->n_opcodes; i++)
		if (!(ki->opcodes[i] = get_string(strings, &p, e)))
			return damaged(err, s, c, "an opcode does not parse");
	if (!native_get_uv(&p, e, &n) || n > (uint64_t)(e - p))
		return damaged(err, s, c, "the stored blocks do not parse");
	ki->n_stored = (size_t)n;
	ki->stored = g_renew(uint64_t, ki->stored, ki->n_stored);
	for (size_t i = 0; i < ki->n_stored; i++) {
		uint64_t d;

		if (!native_get_uv(&p, e, &d) || (i && !d) || id + d < id ||
		    id + d >= k->grid_size)
			return damaged(err, s, c, "a stored block id is out of place");
		ki->stored[i] = id += d;
	}
	if (!native_get_uv(&p, e, &n) || n > (uint64_t)(e - p) / 2)
		return damaged(err, s, c, "the held runs do not parse");
	ki->n_held = (size_t)n;
	ki->held = g_renew(uint64_t, ki->held, 2 * ki->n_held);
	id = 0;
	for (size_t i = 0; i < ki->n_held; i++) {
		uint64_t gap, len;

		if (!native_get_uv(&p, e, &gap) || !native_get_uv(&p, e, &len) ||
		    !len || (i && !gap) || id + gap < id || id + gap >= k->grid_size ||
		    len > k->grid_size - (id + gap))
			return damaged(err, s, c, "a held run is out of place");
		ki->held[2 * i] = id += gap;
		ki->held[2 * i + 1] = id += len;
	}
	if (s->version >= 2) {
		uint64_t v;

		if (!native_get_uv(&p, e, &v) || v > UINT32_MAX)
			return damaged(err, s, c, "the binary version does not parse");
		k->binary_version = (uint32_t)v;
	}
	if (p != e)
		return damaged(err, s, c, "bytes follow a kernel's data");
	return true;
}

static void readahead_start(struct trace_reader *t, struct native_state *s);
static void readahead_take(struct trace_reader *t, struct native_state *s);

static bool native_next_kernel(struct trace_reader *t, bool *end, GError **err)
{
	struct native_state *s = t->state;
	struct gpu_kernel *k = &t->kernel;
	const struct native_kernel *nk;

	/* the last kernel's blocks built ahead and not asked for */
	g_clear_pointer(&s->ahead, g_hash_table_destroy);
	readahead_take(t, s);
	if (s->next == s->kernels->len) {
		*end = true;
		return true;
	}
	nk = &g_array_index(s->kernels, struct native_kernel, s->next);
	if (!load_payload(s, &s->cur, &nk->kernel, err) ||
	    !parse_kernel(s, &nk->kernel, &s->cur, t->strings, k, &s->ki, err))
		return false;
	/* the kernel's chunks: its blocks', then this one */
	s->kernel_first = nk->blocks->len ? g_array_index(nk->blocks, struct chunk_ref, 0).off
					  : nk->kernel.off;
	s->furthest = s->kernel_first;
	k->ordinal = (uint32_t)s->next + 1;
	k->n_kernels = s->kernels->len;
	k->trace_bytes = nk->bytes;
	for (size_t i = 0; i < s->next; i++)
		k->trace_bytes_before +=
			g_array_index(s->kernels, struct native_kernel, i).bytes;
	k->trace_file = s->path;
	s->next++;
	readahead_start(t, s);
	return true;
}

/* ---- blocks ------------------------------------------------------------- */

static bool is_stored(const struct native_state *s, uint64_t id, size_t *at)
{
	size_t lo = 0, hi = s->ki.n_stored;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ki.stored[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < s->ki.n_stored && s->ki.stored[lo] == id;
}

/* The BLOCKS chunk that holds id: the last whose first id is <= id. */
static const struct chunk_ref *chunk_of(const struct native_kernel *nk, uint64_t id)
{
	guint lo = 0, hi = nk->blocks->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(nk->blocks, struct chunk_ref, mid).h.a <= id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &g_array_index(nk->blocks, struct chunk_ref, lo - 1) : NULL;
}

/*
 * Whether n addresses can be coded in `form` in the `left` bytes of the
 * chunk after the count: a form that spends less than a byte on an
 * address is bounded otherwise (a progression is a warp's lanes at most),
 * so that a damaged count cannot make a reader allocate without bound.
 */
static bool addresses_fit(unsigned form, uint64_t n, uint64_t left)
{
	switch (form) {
	case NATIVE_FORM_DELTAS:
		return n <= left;
	case NATIVE_FORM_STEP:
		return n >= 2 && n <= NATIVE_STEP_MAX;
	case NATIVE_FORM_FIXED1:
	case NATIVE_FORM_FIXED2:
	case NATIVE_FORM_FIXED4:
		return n >= 2 && n <= UINT32_MAX &&
		       (n - 1) << (form - NATIVE_FORM_FIXED1) <= left;
	default:
		return false;
	}
}

/* The w-byte (1, 2 or 4) little-endian integer at p. */
static inline uint32_t get_le(const uint8_t *p, unsigned w)
{
	if (w == 1)
		return *p;
	if (w == 2) {
		uint16_t v;

		memcpy(&v, p, 2);
		return GUINT16_FROM_LE(v);
	}
	uint32_t v;

	memcpy(&v, p, 4);
	return GUINT32_FROM_LE(v);
}

/* A difference coded in w bytes (little-endian, zigzagged). */
static inline uint64_t get_fixed(const uint8_t *p, unsigned w)
{
	return native_unzigzag(get_le(p, w));
}

/* The lane differences of a fixed-width line, w bytes each: a loop per
 * width, so that the width is not read per address. */
static inline uint64_t get_fixed_run(const uint8_t *p, uint32_t n, uint64_t a,
				     uint64_t *dst, unsigned w)
{
	for (uint32_t k = 1; k < n; k++) {
		a += get_fixed(p + (size_t)(k - 1) * w, w);
		if (dst)
			dst[k] = a;
	}
	return a;
}

/*
 * A line's n addresses in `form` (addresses_fit() holds; not the step
 * form, which the caller keeps whole) at *p, into dst (NULL: only passed
 * over); *prev is the block's address before them, and their last after.
 */
static inline __attribute__((always_inline)) bool get_addresses(const uint8_t **p, const uint8_t *e, unsigned form,
			  uint32_t n, uint64_t *prev, uint64_t *dst)
{
	int64_t first;
	uint64_t a;

	if (!n)
		return true;
	if (form == NATIVE_FORM_DELTAS) {
		for (uint32_t k = 0; k < n; k++) {
			int64_t delta;

			if (!native_get_sv(p, e, &delta))
				return false;
			*prev += (uint64_t)delta;
			if (dst)
				dst[k] = *prev;
		}
		return true;
	}
	if (!native_get_sv(p, e, &first))
		return false;
	a = *prev + (uint64_t)first;
	if (dst)
		dst[0] = a;
	unsigned w = 1u << (form - NATIVE_FORM_FIXED1);

	if ((uint64_t)(n - 1) * w > (uint64_t)(e - *p))
		return false;	/* the varint before took bytes addresses_fit() counted */
	switch (w) {
	case 1:
		*prev = get_fixed_run(*p, n, a, dst, 1);
		break;
	case 2:
		*prev = get_fixed_run(*p, n, a, dst, 2);
		break;
	default:
		*prev = get_fixed_run(*p, n, a, dst, 4);
		break;
	}
	*p += (size_t)(n - 1) * w;
	return true;
}

/* The n offsets at p, of 1, 2 or 4 bytes each, into dst: a loop per
 * width, so that the width is not read per sector. */
static inline void get_offsets(const uint8_t *p, uint64_t n, unsigned width,
			       int32_t *dst)
{
	if (width == NATIVE_PYSET_W1) {
		for (uint64_t k = 0; k < n; k++)
			dst[k] = (int8_t)get_le(p + k, 1);
	} else if (width == NATIVE_PYSET_W2) {
		for (uint64_t k = 0; k < n; k++)
			dst[k] = (int16_t)get_le(p + 2 * k, 2);
	} else {
		for (uint64_t k = 0; k < n; k++)
			dst[k] = (int32_t)get_le(p + 4 * k, 4);
	}
}

/*
 * A line's pyset sectors (version 4 on; the line has n_addr >= 1
 * addresses) at *p: their count, lines and width, and where their n
 * offsets are, which *p passes.
 */
static inline __attribute__((always_inline)) bool line_sectors(const uint8_t **p, const uint8_t *e, uint64_t n_addr,
			 uint64_t *n_out, uint64_t *lines_out, unsigned *width_out,
			 const uint8_t **at, const char **why)
{
	uint64_t n_width, n, lines;
	unsigned width;

	if (!native_get_uv(p, e, &n_width) || !native_get_uv(p, e, &lines)) {
		*why = "a line's sectors do not parse";
		return false;
	}
	n = n_width >> NATIVE_PYSET_W_BITS;
	width = (unsigned)(n_width & ((1u << NATIVE_PYSET_W_BITS) - 1));
	if (!n || n > n_addr || !lines || lines > n ||
	    n > (uint64_t)(e - *p) >> width) {
		*why = "a line's sector counts do not fit its addresses";
		return false;
	}
	*n_out = n;
	*lines_out = lines;
	*width_out = width;
	*at = *p;
	*p += n << width;
	return true;
}

/* Whether a gpu_line keeps sectors of this count and width: offsets of 8
 * bytes, or more sectors than it counts, it does not, and its consumers
 * coalesce its addresses themselves. */
static inline bool sectors_kept(uint64_t n, unsigned width)
{
	return width != NATIVE_PYSET_W8 && n <= UINT16_MAX;
}

/*
 * The line decoding below is inline in both its callers, next_block()
 * and stream_next(): as calls, stream_next(), which runs for every line a
 * streamed kernel issues, took 610 M of the benchmark app's 4,656 M
 * instructions (titanv-ref, one thread), inline 452 M.
 */

/* A line's head: what comes before its addresses. */
struct line_head {
	uint64_t op, warp, lanes, n_addr;
	unsigned form;
};

/*
 * The head of a block's next line at *p, against ki's tables; *prev_lanes
 * is the lanes of the block's line before (version 3 on), then this one's.
 */
static inline __attribute__((always_inline)) bool get_line_head(const uint8_t **p, const uint8_t *e,
			  const struct kernel_info *ki, uint32_t version,
			  uint32_t *prev_lanes, struct line_head *h, const char **why)
{
	uint64_t n_form;

	if (!native_get_uv(p, e, &h->op) || h->op >= ki->n_opcodes ||
	    !native_get_uv(p, e, &h->warp) || h->warp > (uint64_t)UINT32_MAX ||
	    !native_get_uv(p, e, &h->lanes) || h->lanes > UINT32_MAX ||
	    !native_get_uv(p, e, &n_form)) {
		*why = "a line does not parse";
		return false;
	}
	/* the text readers refuse such a warp; here it is damage */
	if (h->warp > ki->warps) {
		*why = "a line's warp is outside its block";
		return false;
	}
	if (version >= 3) {
		h->n_addr = n_form >> NATIVE_FORM_BITS;
		h->form = (unsigned)(n_form & ((1u << NATIVE_FORM_BITS) - 1));
		h->lanes ^= *prev_lanes;
		*prev_lanes = (uint32_t)h->lanes;
	} else {
		h->n_addr = n_form;
		h->form = NATIVE_FORM_DELTAS;
	}
	if (!addresses_fit(h->form, h->n_addr, (uint64_t)(e - *p))) {
		*why = "a line's address count does not fit its form";
		return false;
	}
	return true;
}

/* A progression's first address and step at *p; *prev is the block's
 * address before them, then their last. */
static inline __attribute__((always_inline)) bool get_step(const uint8_t **p, const uint8_t *e, uint64_t n_addr,
		     uint64_t *prev, uint64_t *first_out, int32_t *step_out,
		     const char **why)
{
	int64_t first, step;

	if (!native_get_sv(p, e, &first) || !native_get_sv(p, e, &step)) {
		*why = "an address does not parse";
		return false;
	}
	if (!step || step < INT32_MIN || step > INT32_MAX) {
		*why = "a line's step is 0 or does not fit 32 bits";
		return false;
	}
	*prev += (uint64_t)first;
	*first_out = *prev;
	*step_out = (int32_t)step;
	*prev += (n_addr - 1) * (uint64_t)step;
	return true;
}

/* A block's head, version 5 on: the bytes of its lines (at most left). */
static bool get_lengths(const uint8_t **p, const uint8_t *e, uint64_t *n)
{
	return native_get_uv(p, e, n) && *n <= (uint64_t)(e - *p);
}

/* ---- streamed blocks (version 5 on) ------------------------------------- */

/*
 * A block whose lines are read while it runs: where they are in its
 * chunk's payloads, which it keeps.  What its lines are decoded against
 * is the reader's kernel of the moment (s->ki): its lines are read only
 * while its kernel runs (one built ahead waits for its kernel), and a
 * kernel's blocks are freed before the next kernel is read
 * (trace_next_kernel).
 */
struct native_block {
	struct gpu_block b;
	struct native_payload *pl;
	const uint8_t *lines, *lines_end;
	const uint8_t *sectors, *sectors_end;	/* NULL: none kept */
	const struct native_state *s;
	uint64_t chunk_off, pyset_off;		/* for messages */
};

static void stream_open(const struct gpu_block *b, struct gpu_line_cursor *cur)
{
	const struct native_block *nb = (const struct native_block *)b;

	*cur = (struct gpu_line_cursor){
		.at = nb->lines, .at_sectors = nb->sectors, .left = b->n_lines,
	};
}

static bool stream_damaged(const struct native_block *nb, uint64_t off,
			   const char *why, GError **err)
{
	/* damaged()'s message, naming the block too */
	return bad(err, nb->s, "chunk at byte %" G_GUINT64_FORMAT
		   ": block %" G_GUINT64_FORMAT ": %s; the file is damaged",
		   off, nb->b.id, why);
}

static bool stream_next(const struct gpu_block *b, struct gpu_line_cursor *cur,
			struct gpu_line *l, struct gpu_line_room *room, GError **err)
{
	const struct native_block *nb = (const struct native_block *)b;
	const struct kernel_info *ki = &nb->s->ki;
	const uint8_t *p = cur->at, *e = nb->lines_end;
	struct line_head h;
	const char *why;

	if (!cur->left || !get_line_head(&p, e, ki, nb->s->version, &cur->prev_lanes,
					 &h, &why))
		return stream_damaged(nb, nb->chunk_off, cur->left ? why :
				      "more lines read than the block has", err);
	/* a line without addresses still points at room (never NULL) */
	gpu_line_room_reserve(room, h.form == NATIVE_FORM_STEP || !h.n_addr ? 1
				    : (size_t)h.n_addr);
	*l = (struct gpu_line){
		.opcode = ki->opcodes[h.op], .addr = room->addr,
		.n_addr = (uint32_t)h.n_addr,
		.warp = h.warp ? (uint32_t)(h.warp - 1) : GPU_WARP_UNKNOWN,
		.lanes = (uint32_t)h.lanes,
	};
	if (h.form == NATIVE_FORM_STEP) {
		if (!get_step(&p, e, h.n_addr, &cur->prev, room->addr, &l->step, &why))
			return stream_damaged(nb, nb->chunk_off, why, err);
	} else if (!get_addresses(&p, e, h.form, (uint32_t)h.n_addr, &cur->prev,
				  room->addr)) {
		return stream_damaged(nb, nb->chunk_off, "an address does not parse", err);
	}
	if (cur->at_sectors && h.n_addr) {
		const uint8_t *pp = cur->at_sectors, *at;
		uint64_t n, lines;
		unsigned width;

		if (!line_sectors(&pp, nb->sectors_end, h.n_addr, &n, &lines, &width,
				  &at, &why))
			return stream_damaged(nb, nb->pyset_off, why, err);
		if (sectors_kept(n, width)) {
			gpu_line_room_reserve(room, (size_t)n);
			l->addr = room->addr;	/* the room may have moved */
			get_offsets(at, n, width, room->sectors);
			l->pyset_sectors = room->sectors;
			l->n_pyset_sectors = (uint16_t)n;
			l->pyset_lines = (uint16_t)lines;
		}
		cur->at_sectors = pp;
	}
	cur->at = p;
	if (!--cur->left) {
		if (p != e)
			return stream_damaged(nb, nb->chunk_off,
					      "bytes follow the block's last line", err);
		if (cur->at_sectors && cur->at_sectors != nb->sectors_end)
			return stream_damaged(nb, nb->pyset_off,
					      "bytes follow the block's last line's sectors", err);
	}
	return true;
}

static void stream_free(struct gpu_block *b)
{
	struct native_block *nb = (struct native_block *)b;

	payload_unref(nb->pl);
	g_free(nb);
}

static const struct trace_block_stream native_stream = {
	.lines = { .open = stream_open, .next = stream_next },
	.free = stream_free,
};

/* next_block()'s `want` for building every block (an id is below the
 * grid's size, so never this) */
#define EVERY_BLOCK UINT64_MAX

/*
 * The next block of cc's chunk into *id, its lines decoded against ki's
 * tables; they are built into cc->build when it is `want` (or want is
 * EVERY_BLOCK), else only passed over.  A block built goes to `into`
 * (id -> block), or with `into` NULL to the reader's current kernel.  A
 * block of a chunk whose payload cc holds for streaming (cc->pl) is not
 * decoded but made a streamed block.
 */
static bool next_block(struct trace_reader *t, struct native_state *s,
		       const struct kernel_info *ki, struct chunk_cursor *cc,
		       uint64_t want, uint64_t *id, GHashTable *into, GError **err)
{
	const uint8_t *p = cc->cursor, *e = cc->data + cc->raw_len;
	/* the lines' pyset sectors, in step with them (NULL: not kept) */
	const uint8_t *pp = cc->pyset_cursor;
	const uint8_t *pe = pp ? cc->pyset_data + cc->pyset_len : NULL;
	const struct chunk_ref *c = cc->in_hand;
	struct block_builder *bb = cc->build;
	uint64_t d, n_lines, prev = 0;
	uint32_t prev_lanes = 0;
	uint32_t n_shared, n_unknown;
	const bool lengths = s->version >= NATIVE_VERSION_LENGTHS;
	/* version 5 on: where the block's lines and their sectors end */
	const uint8_t *lines_end = e, *sectors_end = pe;
	bool build;

	if (cc->cursor_left && p == e)
		return damaged(err, s, c, "fewer blocks than its header counts");
	/* the chunk's first block is its header's id (delta 0), then up */
	if (!cc->cursor_left || !native_get_uv(&p, e, &d) ||
	    (cc->cursor_fresh ? d != 0 : d == 0) || cc->cursor_id + d < cc->cursor_id ||
	    !get_u32(&p, e, &n_shared) || !get_u32(&p, e, &n_unknown) ||
	    !native_get_uv(&p, e, &n_lines) || n_lines > (uint64_t)(e - p) ||
	    n_lines > UINT32_MAX)
		return damaged(err, s, c, "a block's head does not parse");
	if (lengths) {
		uint64_t n;

		if (!get_lengths(&p, e, &n) || n_lines > n)
			return damaged(err, s, c, "a block's length does not fit its chunk");
		lines_end = p + n;
		if (pp) {
			if (!get_lengths(&pp, pe, &n))
				return pyset_damaged(err, s, c, "a block's sectors' length does not fit their chunk");
			sectors_end = pp + n;
		}
	}
	*id = cc->cursor_id + d;
	build = *id == want || want == EVERY_BLOCK;
	if (lengths && (!build || cc->pl)) {
		/* passed over, or streamed: not decoded here */
		if (build) {
			struct native_block *nb = g_new(struct native_block, 1);

			*nb = (struct native_block){
				.b = { .id = *id, .n_lines = (uint32_t)n_lines,
				       .n_shared = n_shared, .n_unknown = n_unknown,
				       .stream = &native_stream.lines },
				.pl = cc->pl, .lines = p, .lines_end = lines_end,
				.sectors = pp, .sectors_end = sectors_end,
				.s = s, .chunk_off = c->off, .pyset_off = c->pyset.off,
			};
			g_atomic_int_inc(&cc->pl->refs);
			if (into)
				g_hash_table_replace(into, &nb->b.id, &nb->b);
			else
				trace_store_built(t, &nb->b);
		}
		p = lines_end;
		pp = sectors_end;
		n_lines = 0;	/* nothing to decode */
	}
	if (build && !cc->pl) {
		builder_reset(bb);
		bb->n_shared = n_shared;
		bb->n_unknown = n_unknown;
	}
	for (uint64_t i = 0; i < n_lines; i++) {
		uint64_t *dst = NULL;
		struct line_head h;
		const char *why;

		if (!get_line_head(&p, lines_end, ki, s->version, &prev_lanes, &h, &why))
			return damaged(err, s, c, why);
		if (h.form == NATIVE_FORM_STEP) {
			/* a progression stays one: its first address and step */
			uint64_t first;
			int32_t step;

			if (!get_step(&p, lines_end, h.n_addr, &prev, &first, &step, &why))
				return damaged(err, s, c, why);
			if (build)
				builder_add_step(bb, i, ki->opcodes[h.op], (uint32_t)h.n_addr,
						 first, step,
						 h.warp ? (uint32_t)(h.warp - 1) : GPU_WARP_UNKNOWN,
						 (uint32_t)h.lanes);
		} else {
			if (build)
				dst = builder_reserve(bb, (size_t)h.n_addr);
			if (!get_addresses(&p, lines_end, h.form, (uint32_t)h.n_addr, &prev, dst))
				return damaged(err, s, c, "an address does not parse");
			if (build)
				builder_add(bb, i, ki->opcodes[h.op], (uint32_t)h.n_addr,
					    h.warp ? (uint32_t)(h.warp - 1) : GPU_WARP_UNKNOWN,
					    (uint32_t)h.lanes);
		}
		if (pp && h.n_addr) {
			const uint8_t *at;
			uint64_t n, lines;
			unsigned width;

			if (!line_sectors(&pp, sectors_end, h.n_addr, &n, &lines, &width,
					  &at, &why))
				return pyset_damaged(err, s, c, why);
			if (build && sectors_kept(n, width)) {
				get_offsets(at, n, width, builder_reserve_pyset(bb, (size_t)n));
				builder_pyset(bb, (uint16_t)n, (uint16_t)lines);
			}
		}
	}
	if (lengths && p != lines_end)
		return damaged(err, s, c, "bytes follow a block's last line");
	if (lengths && pp != sectors_end)
		return pyset_damaged(err, s, c, "bytes follow a block's last line's sectors");
	cc->cursor = p;
	cc->pyset_cursor = pp;
	cc->cursor_id = *id;
	cc->cursor_left--;
	cc->cursor_fresh = false;
	if (!cc->cursor_left && p != e)
		return damaged(err, s, c, "bytes follow the chunk's last block");
	if (!cc->cursor_left && pp != pe)
		return pyset_damaged(err, s, c, "bytes follow the last line's sectors");
	if (!build || cc->pl)
		return true;
	if (into) {
		struct gpu_block *b = builder_finish(bb, *id, false, err);

		if (!b)
			return false;
		g_hash_table_replace(into, &b->id, b);
		return true;
	}
	return trace_store_block(t, bb, *id, false, err);
}

/* cc at the first block of chunk c, whose payload it holds. */
static void cursor_rewind(struct chunk_cursor *cc, const struct chunk_ref *c)
{
	cc->in_hand = c;
	cc->cursor = cc->data;
	cc->pyset_cursor = cc->has_pyset ? cc->pyset_data : NULL;
	cc->cursor_id = c->h.a;
	cc->cursor_left = c->h.b;
	cc->cursor_fresh = true;
}

/*
 * Blocks ids[0..n) (ascending, stored, all in chunk c) with cursor cc:
 * from the chunk's start unless the cursor is before the first of them.
 */
static bool load_run(struct trace_reader *t, struct native_state *s,
		     struct chunk_cursor *cc, const struct chunk_ref *c,
		     const uint64_t *ids, size_t n, GError **err)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t got;

		if (cc->in_hand != c || (!cc->cursor_fresh && cc->cursor_id >= ids[i])) {
			if (cc->in_hand != c && !load_payload(s, cc, c, err))
				return false;
			cursor_rewind(cc, c);
		}
		do {
			if (!next_block(t, s, &s->ki, cc, ids[i], &got, NULL, err))
				return false;
		} while (got < ids[i]);
		if (got != ids[i])
			return damaged(err, s, c, "a listed block is not in its chunk");
	}
	return true;
}

/* A load's wanted blocks, stored ones only, cut into runs of one chunk. */
struct chunk_run {
	const struct chunk_ref *c;
	size_t first, n;	/* into the stored ids */
};

/*
 * A load shared among loaders (unit_pool.h): a unit is a run, so every
 * run before the first that failed is loaded, and that failure is the
 * one a single loader would have met first.
 */
struct shared_runs {
	struct trace_reader *t;
	const uint64_t *ids;
	const struct chunk_run *runs;
};

/* A loader's own chunk cursor, and the builder it fills. */
struct run_loader {
	struct chunk_cursor cc;
	struct block_builder build;
};

static bool run_unit(void *shared, void *worker, size_t r, GError **err)
{
	struct shared_runs *sh = shared;
	struct run_loader *l = worker;

	return load_run(sh->t, sh->t->state, &l->cc, sh->runs[r].c,
			sh->ids + sh->runs[r].first, sh->runs[r].n, err);
}

/* Below this many blocks, or with one run, a load is not worth a thread. */
#define SHARED_RUNS_MIN_BLOCKS 8
/*
 * Loaders of one load at most: each holds a chunk, packed and raw (1 MiB
 * raw as convert writes them, up to NATIVE_RAW_MAX in a file made by hand).
 */
#define SHARED_RUNS_MAX_LOADERS 4

static bool native_load(struct trace_reader *t, const uint64_t *ids, size_t n,
			GError **err)
{
	struct native_state *s = t->state;
	const struct native_kernel *nk =
		&g_array_index(s->kernels, struct native_kernel, s->next - 1);
	uint64_t *stored = g_new(uint64_t, n ? n : 1);
	struct chunk_run *runs = g_new(struct chunk_run, n ? n : 1);
	size_t n_stored = 0, n_runs = 0;
	uint64_t orphan = UINT64_MAX;	/* a block listed but in no chunk */
	const struct chunk_ref *last = NULL;	/* the furthest chunk wanted */
	bool ok = true;

	/* the runs before the first orphan, which fails once they are read */
	for (size_t i = 0; i < n; i++) {
		const struct chunk_ref *c;
		struct gpu_block *b;
		size_t at;

		if (!is_stored(s, ids[i], &at))
			continue;	/* the reader makes it an empty block */
		c = chunk_of(nk, ids[i]);
		if (!c) {
			orphan = ids[i];
			break;
		}
		last = c;
		/* built ahead: the kernel's now (no loader runs yet) */
		if (s->ahead && (b = g_hash_table_lookup(s->ahead, &ids[i]))) {
			g_hash_table_steal(s->ahead, &ids[i]);
			g_hash_table_replace(t->loaded, &b->id, b);
			continue;
		}
		if (!n_runs || runs[n_runs - 1].c != c)
			runs[n_runs++] = (struct chunk_run){ .c = c, .first = n_stored };
		runs[n_runs - 1].n++;
		stored[n_stored++] = ids[i];
	}
	/* a thread per run at most, and no more than the loaders and cores */
	unsigned k = n_stored < SHARED_RUNS_MIN_BLOCKS ? 1 :
		MIN(MIN(t->n_loaders, (unsigned)MIN(n_runs, SHARED_RUNS_MAX_LOADERS)),
		    MAX(g_get_num_processors(), 1u));

	if (k <= 1) {
		for (size_t r = 0; r < n_runs && ok; r++)
			ok = load_run(t, s, &s->cur, runs[r].c, stored + runs[r].first,
				      runs[r].n, err);
	} else {
		struct shared_runs sh = { .t = t, .ids = stored, .runs = runs };
		struct run_loader *l = g_new0(struct run_loader, k);
		void **loaders = g_new(void *, k);

		for (unsigned i = 0; i < k; i++) {
			if (i) {
				l[i].cc.z = ZSTD_createDCtx();
				l[i].cc.build = &l[i].build;
			}
			loaders[i] = &l[i];
		}
		/* the caller's loader is the reader's own cursor */
		l[0].cc = s->cur;
		ok = unit_pool_run(n_runs, k, &sh, loaders, run_unit, err);
		s->cur = l[0].cc;
		for (unsigned i = 1; i < k; i++) {
			cursor_free(&l[i].cc);
			builder_free(&l[i].build);
		}
		g_free(loaders);
		g_free(l);
	}
	if (ok && orphan != UINT64_MAX)
		ok = bad(err, s, "block %" G_GUINT64_FORMAT " of kernel %u "
			 "is listed but in no chunk; the file is damaged",
			 orphan, t->kernel.ordinal);
	if (ok && last) {
		/* chunks come in block order: the last one's reaches furthest
		 * (with its PYSET chunk, read or passed by) */
		uint64_t reach = last->pyset.off ? last->pyset.off + NATIVE_CHUNK_HEADER +
						   last->pyset.h.stored_len
						 : last->off + NATIVE_CHUNK_HEADER + last->h.stored_len;

		s->furthest = MAX(s->furthest, reach);
		/* up to the KERNEL chunk, read already: the whole kernel */
		trace_set_bytes_read(t, s->furthest >= nk->kernel.off ? UINT64_MAX
				     : s->furthest - s->kernel_first, false);
	}
	g_free(runs);
	g_free(stored);
	return ok;
}

/* ---- read-ahead ------------------------------------------------------------ */

/*
 * While a kernel runs, a thread of idle priority builds the next kernel's
 * blocks, chunk by chunk from its first, so that the next kernel's loads
 * find them done.  Between two kernels every core waits for the load;
 * during a kernel a core is idle now and then (while its SMs wait for
 * the L2, in the L2's tail), and a thread of idle priority (SCHED_IDLE)
 * runs only then, so the kernel is not slowed.  Its blocks are what a
 * load builds from the same bytes; their opcode texts are interned in a
 * string chunk that becomes the reader's when the kernel starts, so they
 * are the kernel's own pointers.  It stops at its first failure and
 * keeps nothing of it: the load that meets the damage again reports it,
 * as a run without read-ahead would, at the same point.  Only when loads
 * are shared among threads (--threads above 1), and up to
 * READAHEAD_BYTES of blocks.  Streamed (version 5 on), a block built ahead
 * is its head and its chunk's payloads, decompressed and checked: what a
 * load of such a kernel waits for (the benchmark app's third kernel, 24 MB
 * that hardly compress: 11 ms on two loaders), and the bytes counted are
 * the payloads'.
 */
#define READAHEAD_BYTES (UINT64_C(96) << 20)

struct readahead {
	struct trace_readahead base;	/* blocks: id -> block built */
	struct native_state *s;
	struct kernel_info ki;
	struct chunk_cursor cc;
	struct block_builder build;
};

static gpointer readahead_main(gpointer data)
{
	struct readahead *ra = data;
	struct native_state *s = ra->s;
	const struct native_kernel *nk =
		&g_array_index(s->kernels, struct native_kernel, ra->base.kernel);
	struct gpu_kernel k;
	uint64_t bytes = 0;
	GError *err = NULL;

	if (!load_payload(s, &ra->cc, &nk->kernel, &err) ||
	    !parse_kernel(s, &nk->kernel, &ra->cc, ra->base.strings, &k, &ra->ki, &err))
		goto out;
	for (guint i = 0; i < nk->blocks->len; i++) {
		const struct chunk_ref *c = &g_array_index(nk->blocks, struct chunk_ref, i);

		if (trace_readahead_stopped(&ra->base) || bytes >= READAHEAD_BYTES ||
		    !load_payload(s, &ra->cc, c, &err))
			goto out;
		cursor_rewind(&ra->cc, c);
		/* streamed, a chunk's blocks keep its payloads: their bytes */
		if (ra->cc.pl)
			bytes += c->h.raw_len + (ra->cc.has_pyset ? ra->cc.pyset_len : 0);
		while (ra->cc.cursor_left) {
			uint64_t id;

			if (trace_readahead_stopped(&ra->base) || bytes >= READAHEAD_BYTES ||
			    !next_block(NULL, s, &ra->ki, &ra->cc, EVERY_BLOCK, &id,
					ra->base.blocks, &err))
				goto out;
			if (!ra->cc.pl)
				bytes += ra->build.finished_bytes;
		}
	}
out:
	g_clear_error(&err);
	return NULL;
}

/* The next kernel's read-ahead, when there is a next kernel and loads
 * are shared among threads. */
static void readahead_start(struct trace_reader *t, struct native_state *s)
{
	struct readahead *ra = s->ra;

	if (t->n_loaders < 2 || s->next == s->kernels->len)
		return;
	if (!ra) {
		ra = s->ra = g_new0(struct readahead, 1);
		ra->s = s;
		trace_readahead_init(&ra->base);
		ra->cc.z = ZSTD_createDCtx();
		ra->cc.build = &ra->build;
	}
	ra->cc.in_hand = NULL;
	trace_readahead_start(&ra->base, s->next, trace_block_free, readahead_main, ra);
}

/* As kernel s->next starts: what the read-ahead built of it. */
static void readahead_take(struct trace_reader *t, struct native_state *s)
{
	if (s->ra)
		s->ahead = trace_readahead_take(t, &s->ra->base, s->next);
}

extern const struct trace_format trace_format_native;

size_t native_readahead_wait(struct trace_reader *t)
{
	struct native_state *s = t->state;

	if (t->fmt != &trace_format_native || !s->ra)
		return 0;
	return trace_readahead_wait(&s->ra->base);
}

static void readahead_free(struct native_state *s)
{
	struct readahead *ra = s->ra;

	if (!ra)
		return;
	trace_readahead_clear(&ra->base);
	kernel_info_free(&ra->ki);
	cursor_free(&ra->cc);
	builder_free(&ra->build);
	g_free(ra);
	s->ra = NULL;
}

/* As the source's next_held did: from inside a held run, else the next run. */
static uint64_t native_next_stored(struct trace_reader *t, uint64_t from)
{
	struct native_state *s = t->state;
	size_t lo = 0, hi = s->ki.n_held;

	/* the first run that ends after from */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->ki.held[2 * mid + 1] <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->ki.n_held)
		return UINT64_MAX;
	return MAX(from, s->ki.held[2 * lo]);
}

static bool native_count_stored(struct trace_reader *t, uint64_t *n, GError **err)
{
	struct native_state *s = t->state;

	(void)err;
	*n = s->ki.n_source;
	return true;
}

static void native_keep_pyset_sectors(struct trace_reader *t)
{
	((struct native_state *)t->state)->keep_pyset = true;
}

static void native_stream_lines(struct trace_reader *t)
{
	((struct native_state *)t->state)->stream = true;
}

const struct trace_format trace_format_native = {
	.name = "native",
	.marker = NULL,
	.magic = NATIVE_MAGIC,
	.magic_len = NATIVE_MAGIC_LEN,
	.any_name = false,
	.open = native_open,
	.close = native_close,
	.next_kernel = native_next_kernel,
	.kernel_count = native_kernel_count,
	.kernel_bytes = native_kernel_bytes,
	.counts_bytes_read = true,
	.load = native_load,
	.next_stored = native_next_stored,
	.count_stored = native_count_stored,
	.keep_pyset_sectors = native_keep_pyset_sectors,
	.stream_lines = native_stream_lines,
};
