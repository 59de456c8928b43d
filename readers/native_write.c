/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The native trace format's writer (native.h, doc/trace-format.md): a
 * trace of any format read through the trace API, kernel by kernel, its
 * blocks loaded a batch at a time (so memory follows a batch, not the
 * trace) and written as they come, in id order, a zstd chunk per ~1 MiB.
 * What a reader gives the simulation is kept exactly: every line's opcode
 * text, warp, lanes and addresses, every block's dropped-instruction
 * counts, which blocks the trace holds and the launch data.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#endif
#include <sectorsim/engine.h>
#include "coalesce.h"
#include "native.h"
#include "trace.h"

uint32_t native_crc32(const void *buf, size_t len)
{
#ifdef HAVE_ISAL
	return crc32_gzip_refl(0, buf, len);
#else
	uint32_t crc = (uint32_t)crc32(0, NULL, 0);

	/* zlib takes at most UINT_MAX bytes a call */
	for (const unsigned char *p = buf; len; ) {
		unsigned n = len > UINT_MAX ? UINT_MAX : (unsigned)len;

		crc = (uint32_t)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
#endif
}

#define CHUNK_TARGET (1u << 20)	/* raw payload bytes per BLOCKS chunk */
#define BATCH 256		/* blocks loaded at a time */

void native_put_header(uint8_t out[NATIVE_CHUNK_HEADER],
		       const struct native_chunk_header *h)
{
	uint32_t w32[4] = { GUINT32_TO_LE(h->type), GUINT32_TO_LE(h->raw_len),
			    GUINT32_TO_LE(h->stored_len), GUINT32_TO_LE(h->crc) };
	uint64_t w64[2] = { GUINT64_TO_LE(h->a), GUINT64_TO_LE(h->b) };

	memcpy(out, w32, sizeof(w32));
	memcpy(out + sizeof(w32), w64, sizeof(w64));
}

void native_get_header(const uint8_t in[NATIVE_CHUNK_HEADER],
		       struct native_chunk_header *h)
{
	uint32_t w32[4];
	uint64_t w64[2];

	memcpy(w32, in, sizeof(w32));
	memcpy(w64, in + sizeof(w32), sizeof(w64));
	h->type = GUINT32_FROM_LE(w32[0]);
	h->raw_len = GUINT32_FROM_LE(w32[1]);
	h->stored_len = GUINT32_FROM_LE(w32[2]);
	h->crc = GUINT32_FROM_LE(w32[3]);
	h->a = GUINT64_FROM_LE(w64[0]);
	h->b = GUINT64_FROM_LE(w64[1]);
}

bool native_headers_digest(const char *path, GChecksum *sum)
{
	uint8_t buf[NATIVE_CHUNK_HEADER];
	struct native_chunk_header h;
	FILE *f = fopen(path, "rb");
	bool ok = false;

	if (!f)
		return false;
	if (fread(buf, 1, NATIVE_FILE_HEADER, f) != NATIVE_FILE_HEADER ||
	    memcmp(buf, NATIVE_MAGIC, NATIVE_MAGIC_LEN) != 0)
		goto out;
	g_checksum_update(sum, buf, NATIVE_FILE_HEADER);
	/* a damaged file gives some digest; the run then refuses it */
	while (fread(buf, 1, NATIVE_CHUNK_HEADER, f) == NATIVE_CHUNK_HEADER) {
		g_checksum_update(sum, buf, NATIVE_CHUNK_HEADER);
		native_get_header(buf, &h);
		if (h.type == NATIVE_END)
			break;
		if (fseeko(f, (off_t)h.stored_len, SEEK_CUR) != 0)
			break;
	}
	ok = !ferror(f);
out:
	fclose(f);
	return ok;
}

struct writer {
	void (*warn)(const char *msg);	/* a defect of the input; NULL: none told */
	struct ss_output *out;
	ZSTD_CCtx *z;
	int level;
	void *packed;		/* a compressed payload */
	size_t cap_packed;
	GByteArray *raw;	/* the chunk being built */
	GByteArray *pyset_raw;	/* and its lines' pyset sectors */
	uint64_t pyset_sectors;	/* bytes of pyset_raw that are sectors, not lengths */
	GByteArray *block_raw, *block_pyset;	/* a block's lines, and their sectors */
	uint64_t first, n_blocks, last_id;
	/* the current kernel */
	GHashTable *opcode_index;	/* interned text -> index + 1 */
	GPtrArray *opcodes;		/* index -> text */
	GArray *stored;			/* uint64_t ids of the blocks written */
	GArray *held;			/* uint64_t pairs: [start, end) runs */
	/* each line's pyset sectors (version 4): the reference's coalescer */
	struct coalescer *pyset;
	uint64_t *sectors;
	uint32_t cap_sectors;
};

/* A chunk of payload `raw` (emptied after). */
static bool put_chunk_of(struct writer *w, GByteArray *raw, uint32_t type,
			 uint64_t a, uint64_t b, GError **err)
{
	struct native_chunk_header h = { .type = type, .a = a, .b = b };
	uint8_t head[NATIVE_CHUNK_HEADER];
	size_t bound = ZSTD_compressBound(raw->len), got = 0;

	/* a chunk holds whole blocks: one block may be too big for it */
	if (raw->len > NATIVE_RAW_MAX)
		return ss_set_error(err, SS_ERROR_INPUT,
				    "%s: a thread block of %u bytes encoded, more than the "
				    "%u of a native chunk; this trace cannot be converted "
				    "(run it as it is)", ss_output_name(w->out),
				    raw->len, NATIVE_RAW_MAX);
	if (raw->len) {
		if (w->cap_packed < bound) {
			g_free(w->packed);
			w->cap_packed = bound;
			w->packed = g_malloc(bound);
		}
		got = ZSTD_compressCCtx(w->z, w->packed, bound, raw->data,
					raw->len, w->level);
		if (ZSTD_isError(got))
			return ss_set_error(err, SS_ERROR, "%s: zstd: %s",
					    ss_output_name(w->out),
					    ZSTD_getErrorName(got));
	}
	h.raw_len = raw->len;
	h.stored_len = (uint32_t)got;
	h.crc = native_crc32(raw->data, raw->len);
	native_put_header(head, &h);
	ss_output_write(w->out, head, sizeof(head));
	if (got)
		ss_output_write(w->out, w->packed, got);
	g_byte_array_set_size(raw, 0);
	return ss_output_flush(w->out, err);
}

static bool put_chunk(struct writer *w, uint32_t type, uint64_t a, uint64_t b,
		      GError **err)
{
	return put_chunk_of(w, w->raw, type, a, b, err);
}

/*
 * The blocks put so far as a BLOCKS chunk, and their lines' pyset sectors
 * as the PYSET chunk after it: none when no line has an address, nor when
 * they pass a chunk's 64 MiB (one thread block can: its sectors take up to
 * five times its progressions' bytes), whose lines are then coalesced by
 * whoever reads them, as a version-3 file's.
 */
static bool flush_blocks(struct writer *w, GError **err)
{
	bool ok = true;

	if (w->n_blocks) {
		ok = put_chunk(w, NATIVE_BLOCKS, w->first, w->n_blocks, err);
		if (ok && w->pyset_sectors && w->pyset_raw->len <= NATIVE_RAW_MAX)
			ok = put_chunk_of(w, w->pyset_raw, NATIVE_PYSET, w->first,
					  w->n_blocks, err);
		g_byte_array_set_size(w->pyset_raw, 0);
		w->pyset_sectors = 0;
	}
	w->n_blocks = 0;
	return ok;
}

static uint64_t opcode_of(struct writer *w, const char *op)
{
	gpointer v = g_hash_table_lookup(w->opcode_index, op);

	if (v)
		return GPOINTER_TO_SIZE(v) - 1;
	g_ptr_array_add(w->opcodes, (gpointer)op);
	g_hash_table_insert(w->opcode_index, (gpointer)op,
			    GSIZE_TO_POINTER(w->opcodes->len));
	return w->opcodes->len - 1;
}

/* Every progression line (gpu_line.step) is one a version-3 step form holds. */
G_STATIC_ASSERT(GPU_STEP_MAX <= NATIVE_STEP_MAX);

/*
 * How the n addresses of a line that lists them are best coded: the
 * narrowest fixed width of the differences from lane to lane, else
 * varints.  (The block builder, which every reader builds with, decides
 * which lines are progressions, and those take the step form.)
 */
static enum native_form form_of(const uint64_t *a, uint32_t n)
{
	uint64_t bits = 0;

	if (n < 2)
		return NATIVE_FORM_DELTAS;
	for (uint32_t k = 1; k < n; k++)
		bits |= native_zigzag(a[k] - a[k - 1]);
	if (bits <= UINT8_MAX)
		return NATIVE_FORM_FIXED1;
	if (bits <= UINT16_MAX)
		return NATIVE_FORM_FIXED2;
	if (bits <= UINT32_MAX)
		return NATIVE_FORM_FIXED4;
	return NATIVE_FORM_DELTAS;
}

/* The addresses of a line in `form`; *prev: the block's address before
 * them, then their last. */
static void put_addresses(GByteArray *r, const uint64_t *a, uint32_t n,
			  enum native_form form, uint64_t *prev)
{
	static const unsigned width[NATIVE_N_FORMS] = {
		[NATIVE_FORM_FIXED1] = 1, [NATIVE_FORM_FIXED2] = 2,
		[NATIVE_FORM_FIXED4] = 4,
	};

	if (!n)
		return;
	if (form == NATIVE_FORM_DELTAS) {
		for (uint32_t k = 0; k < n; k++) {
			native_put_sv(r, (int64_t)(a[k] - *prev));
			*prev = a[k];
		}
		return;
	}
	native_put_sv(r, (int64_t)(a[0] - *prev));
	*prev = a[n - 1];
	if (form == NATIVE_FORM_STEP) {
		native_put_sv(r, (int64_t)(a[1] - a[0]));
		return;
	}
	for (uint32_t k = 1; k < n; k++) {
		uint64_t z = GUINT64_TO_LE(native_zigzag(a[k] - a[k - 1]));

		/* the low bytes of a little-endian word */
		g_byte_array_append(r, (const guint8 *)&z, width[form]);
	}
}

/*
 * The sectors of line l (n_addr >= 1) as the reference's coalescer orders
 * them: their count with the width of their offsets, how many lines they
 * fall in, then each one's index (address / 32) minus the index of the
 * line's first address, in the narrowest width that holds them all.
 */
static void put_pyset(struct writer *w, const struct gpu_line *l, const uint64_t *a)
{
	GByteArray *r = w->block_pyset;
	uint32_t n, lines, width;
	uint64_t base = a[0] >> GPU_PYSET_SECTOR_SHIFT;
	int64_t lo = 0, hi = 0;		/* the offsets' range */

	if (l->n_addr > w->cap_sectors) {
		w->cap_sectors = MAX(l->n_addr, 2 * w->cap_sectors);
		w->sectors = g_renew(uint64_t, w->sectors, w->cap_sectors);
	}
	n = coalesce(w->pyset, a, l->n_addr, w->sectors, &lines);
	for (uint32_t k = 0; k < n; k++) {
		int64_t off = (int64_t)((w->sectors[k] >> GPU_PYSET_SECTOR_SHIFT) - base);

		lo = MIN(lo, off);
		hi = MAX(hi, off);
	}
	width = lo >= INT8_MIN && hi <= INT8_MAX ? NATIVE_PYSET_W1 :
		lo >= INT16_MIN && hi <= INT16_MAX ? NATIVE_PYSET_W2 :
		lo >= INT32_MIN && hi <= INT32_MAX ? NATIVE_PYSET_W4 : NATIVE_PYSET_W8;
	native_put_uv(r, (uint64_t)n << NATIVE_PYSET_W_BITS | width);
	native_put_uv(r, lines);
	for (uint32_t k = 0; k < n; k++) {
		uint64_t off = GUINT64_TO_LE((w->sectors[k] >> GPU_PYSET_SECTOR_SHIFT) - base);

		/* the low bytes of a little-endian word */
		g_byte_array_append(r, (const guint8 *)&off, 1u << width);
	}
}

/*
 * A block: its id (from the chunk's previous one), its counts, the bytes
 * of its lines, and per line the opcode index, warp + 1 (0: unknown), the
 * lanes (as a difference from the line before's), the address count with
 * the addresses' form and the addresses; their pyset sectors go to the
 * chunk's PYSET chunk, after their bytes.
 */
static void put_block(struct writer *w, const struct gpu_block *b)
{
	GByteArray *r = w->block_raw;
	uint64_t prev = 0;
	uint32_t prev_lanes = 0;

	if (!w->n_blocks)
		w->first = w->last_id = b->id;
	native_put_uv(w->raw, b->id - w->last_id);
	w->last_id = b->id;
	w->n_blocks++;
	native_put_uv(w->raw, b->n_shared);
	native_put_uv(w->raw, b->n_unknown);
	native_put_uv(w->raw, b->n_lines);
	g_byte_array_set_size(r, 0);
	g_byte_array_set_size(w->block_pyset, 0);
	for (uint32_t i = 0; i < b->n_lines; i++) {
		const struct gpu_line *l = &b->lines[i];
		uint64_t buf[GPU_STEP_MAX];
		const uint64_t *a = gpu_line_addrs(l, buf);
		enum native_form form = l->step ? NATIVE_FORM_STEP : form_of(a, l->n_addr);

		native_put_uv(r, opcode_of(w, l->opcode));
		native_put_uv(r, l->warp == GPU_WARP_UNKNOWN ? 0 : (uint64_t)l->warp + 1);
		native_put_uv(r, l->lanes ^ prev_lanes);
		prev_lanes = l->lanes;
		native_put_uv(r, (uint64_t)l->n_addr << NATIVE_FORM_BITS | form);
		put_addresses(r, a, l->n_addr, form, &prev);
		if (l->n_addr)
			put_pyset(w, l, a);
	}
	native_put_uv(w->raw, r->len);
	g_byte_array_append(w->raw, r->data, r->len);
	native_put_uv(w->pyset_raw, w->block_pyset->len);
	g_byte_array_append(w->pyset_raw, w->block_pyset->data, w->block_pyset->len);
	w->pyset_sectors += w->block_pyset->len;
	g_array_append_val(w->stored, b->id);
}

static void put_string(GByteArray *r, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	native_put_uv(r, n);
	g_byte_array_append(r, (const guint8 *)(s ? s : ""), (guint)n);
}

/*
 * The KERNEL chunk, after the kernel's blocks: launch data, the opcode
 * table, the count of blocks the source holds and the ids stored.
 */
static bool put_kernel(struct writer *w, const struct gpu_kernel *k,
		       uint64_t held, GError **err)
{
	GByteArray *r = w->raw;
	uint64_t prev = 0;

	native_put_uv(r, k->id);
	for (int i = 0; i < 3; i++)
		native_put_uv(r, k->grid[i]);
	for (int i = 0; i < 3; i++)
		native_put_uv(r, k->block[i]);
	native_put_uv(r, k->grid_size);
	native_put_uv(r, k->block_size);
	native_put_uv(r, k->regs);
	native_put_uv(r, k->smem);
	native_put_uv(r, k->stream_id);
	native_put_uv(r, k->shmem_base);
	native_put_uv(r, k->local_base);
	put_string(r, k->name);
	native_put_uv(r, held);
	native_put_uv(r, w->opcodes->len);
	for (guint i = 0; i < w->opcodes->len; i++)
		put_string(r, w->opcodes->pdata[i]);
	native_put_uv(r, w->stored->len);
	for (guint i = 0; i < w->stored->len; i++) {
		uint64_t id = g_array_index(w->stored, uint64_t, i);

		native_put_uv(r, id - prev);
		prev = id;
	}
	native_put_uv(r, w->held->len / 2);
	prev = 0;
	for (guint i = 0; i < w->held->len; i += 2) {
		uint64_t start = g_array_index(w->held, uint64_t, i);
		uint64_t end = g_array_index(w->held, uint64_t, i + 1);

		native_put_uv(r, start - prev);
		native_put_uv(r, end - start);
		prev = end;
	}
	native_put_uv(r, k->binary_version);
	return put_chunk(w, NATIVE_KERNEL, k->ordinal, 0, err);
}

/*
 * The runs of block ids the source's next_held passes through, as
 * [start, end) pairs: what a dispatcher may skip must be the same from
 * the native file (a ppt folder's listing; Accel-Sim: the whole grid).
 */
static void held_runs(struct gpu_block_source *src, uint64_t grid, GArray *out)
{
	uint64_t from = 0;

	g_array_set_size(out, 0);
	while (from < grid) {
		uint64_t start = src->ops->next_held ? src->ops->next_held(src, from) : from;
		uint64_t end = start + 1;

		if (start >= grid)
			break;
		while (end < grid && (!src->ops->next_held || src->ops->next_held(src, end) == end))
			end++;
		g_array_append_val(out, start);
		g_array_append_val(out, end);
		from = end;
	}
}

static bool convert_kernel(struct writer *w, struct trace_reader *t,
			   const struct gpu_kernel *k, GError **err)
{
	struct gpu_block_source *src = trace_block_source(t);
	const struct gpu_block *blocks[BATCH];
	uint64_t ids[BATCH], held = k->grid_size;

	g_hash_table_remove_all(w->opcode_index);
	g_ptr_array_set_size(w->opcodes, 0);
	g_array_set_size(w->stored, 0);
	/* a source may know which blocks it holds only once it has read
	 * them all (Accel-Sim): counting them reads them */
	if (src->ops->count_held && !src->ops->count_held(src, &held, err))
		return false;
	held_runs(src, k->grid_size, w->held);
	for (guint run = 0; run < w->held->len; run += 2)
	for (uint64_t first = g_array_index(w->held, uint64_t, run),
	     end = g_array_index(w->held, uint64_t, run + 1); first < end; ) {
		size_t n = 0;

		while (n < BATCH && first + n < end) {
			ids[n] = first + n;
			n++;
		}
		if (!src->ops->load(src, ids, n, blocks, err))
			return false;
		for (size_t i = 0; i < n; i++) {
			const struct gpu_block *b = blocks[i];

			/* an empty block loads as absent: not stored */
			if (b->n_lines || b->n_shared || b->n_unknown) {
				put_block(w, b);
				if ((w->raw->len >= CHUNK_TARGET ||
				     w->pyset_raw->len >= CHUNK_TARGET) &&
				    !flush_blocks(w, err))
					return false;
			}
			if (src->ops->release)
				src->ops->release(src, b);
		}
		first += n;
	}
	if (!flush_blocks(w, err))
		return false;
	if (src->ops->count_held && !src->ops->count_held(src, &held, err))
		return false;
	if (src->ops->cut_short && w->warn) {
		const char *first = NULL;
		uint64_t cut = src->ops->cut_short(src, &first);

		/* the native file keeps the lines as read, and not the doubt */
		if (cut) {
			char *msg = g_strdup_printf("kernel %u (%s): %" G_GUINT64_FORMAT " block file%s end%s inside a line, the first %s: cut short? Their last lines were converted as they are",
						    k->id, k->name, cut, cut == 1 ? "" : "s",
						    cut == 1 ? "s" : "", first ? first : "?");

			w->warn(msg);
			g_free(msg);
		}
	}
	return put_kernel(w, k, held, err);
}

bool native_convert(const char *src, enum trace_format_id fmt,
		    const char *out, int level, void (*warn)(const char *msg),
		    GError **err)
{
	struct trace_reader *t = trace_open(src, fmt, err);
	struct writer w = { .level = level, .warn = warn };
	uint8_t head[NATIVE_FILE_HEADER];
	uint32_t version = GUINT32_TO_LE(NATIVE_VERSION);
	uint32_t head_len = GUINT32_TO_LE(NATIVE_FILE_HEADER);
	const struct gpu_kernel *k;
	uint64_t n_kernels = 0;
	bool ok = false;

	if (!t)
		return false;
	w.out = ss_output_open(out, err);
	if (!w.out) {
		trace_close(t);
		return false;
	}
	w.z = ZSTD_createCCtx();
	w.raw = g_byte_array_new();
	w.pyset_raw = g_byte_array_new();
	w.block_raw = g_byte_array_new();
	w.block_pyset = g_byte_array_new();
	w.opcode_index = g_hash_table_new(g_direct_hash, g_direct_equal);
	w.opcodes = g_ptr_array_new();
	w.stored = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	w.held = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	w.pyset = coalescer_new(COALESCE_PYSET, GPU_PYSET_SECTOR_BYTES,
				GPU_PYSET_LINE_BYTES);
	memcpy(head, NATIVE_MAGIC, NATIVE_MAGIC_LEN);
	memcpy(head + 8, &version, 4);
	memcpy(head + 12, &head_len, 4);
	ss_output_write(w.out, head, sizeof(head));
	for (;;) {
		GError *e = NULL;

		k = trace_next_kernel(t, &e);
		if (!k) {
			if (e) {
				g_propagate_error(err, e);
				goto out;
			}
			break;
		}
		if (!convert_kernel(&w, t, k, err))
			goto out;
		n_kernels++;
	}
	ok = put_chunk(&w, NATIVE_END, n_kernels, 0, err) &&
	     ss_output_commit(w.out, err);
	w.out = NULL;
out:
	if (w.out)
		ss_output_abort(w.out);
	ZSTD_freeCCtx(w.z);
	g_free(w.packed);
	g_byte_array_free(w.raw, TRUE);
	g_byte_array_free(w.pyset_raw, TRUE);
	g_byte_array_free(w.block_raw, TRUE);
	g_byte_array_free(w.block_pyset, TRUE);
	g_hash_table_destroy(w.opcode_index);
	g_ptr_array_free(w.opcodes, TRUE);
	g_array_free(w.stored, TRUE);
	g_array_free(w.held, TRUE);
	coalescer_free(w.pyset);
	g_free(w.sectors);
	trace_close(t);
	return ok;
}
