/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Assembling one gpu_block from the lines a format reader decodes: lines
 * and their addresses go into scratch arrays that are reused from block to
 * block, and builder_finish() copies them, put in issue order, into a
 * single allocation (the gpu_block, its lines, their addresses, then
 * their pyset sectors when the format holds them), so
 * that reading allocates per block, never per line.  A line whose 2 to
 * GPU_STEP_MAX addresses are an arithmetic progression with a non-zero
 * step that fits 32 bits keeps its first address and its step
 * (gpu_line.step): most lines are, and the block takes a fraction of the
 * memory.
 */
#ifndef SS_BLOCK_BUILDER_H
#define SS_BLOCK_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sectorsim/engine.h>
#include <sectorsim/protocols/gpu.h>

/* One line of the block being built, before it gets its final place. */
struct pending_line {
	uint64_t key;		/* issue order: Accel-Sim (round << 32 | warp) */
	const char *opcode;
	size_t addr_off;	/* into block_builder.pool */
	uint32_t n_addr;
	uint32_t warp;
	uint32_t lanes;		/* gpu_line.lanes */
	int32_t step;		/* gpu_line.step: 0, or one address in the pool */
	size_t pyset_off;	/* into block_builder.pyset_pool */
	uint16_t n_pyset;	/* gpu_line.n_pyset_sectors: 0, none */
	uint16_t pyset_lines;	/* gpu_line.pyset_lines */
};

struct block_builder {
	struct pending_line *pend, *sorted;
	size_t n_pend, cap_pend, cap_sorted;
	size_t *rounds, cap_rounds;	/* counting sort by round */
	uint64_t *pool;			/* the lines' addresses */
	size_t n_pool, cap_pool;
	int32_t *pyset_pool;		/* their gpu_line.pyset_sectors */
	size_t n_pyset_pool, cap_pyset_pool;
	/* instructions of the block that are not lines (gpu_block.n_shared,
	 * n_unknown): the format reader counts them here */
	uint32_t n_shared, n_unknown;
	/* bytes of the last block builder_finish() made, for a budget */
	size_t finished_bytes;
};

/* A zeroed struct block_builder is an empty one; builder_free releases it. */
void builder_free(struct block_builder *b);
/* Start a new block: no lines, no counts. */
void builder_reset(struct block_builder *b);
void *builder_pool_grow(void *pool, size_t *cap, size_t used, size_t n, size_t size);

/*
 * pool, of `*cap` elements of `size` bytes with `used` taken, with room
 * for n more; !pool: even n == 0 needs a pool, NULL + 0 being undefined.
 * Inline, with the growth out of line: the reservations below run per
 * line of a trace, the native reader's twice.
 */
static inline void *builder_pool_room(void *pool, size_t *cap, size_t used, size_t n,
				      size_t size)
{
	if (G_UNLIKELY(*cap - used < n || !pool))
		return builder_pool_grow(pool, cap, used, n, size);
	return pool;
}

/* Room for `n` more addresses at b->pool + b->n_pool. */
static inline uint64_t *builder_reserve(struct block_builder *b, size_t n)
{
	b->pool = builder_pool_room(b->pool, &b->cap_pool, b->n_pool, n, sizeof(*b->pool));
	return b->pool + b->n_pool;
}
void builder_pend_grow(struct block_builder *b);

/* A line in the pending list (inline in both adders: they run once per
 * line of a trace). */
static inline __attribute__((always_inline)) void
builder_add_pending(struct block_builder *b, uint64_t key, const char *opcode,
		    uint32_t n_addr, uint32_t warp, uint32_t lanes, int32_t step)
{
	if (G_UNLIKELY(b->n_pend == b->cap_pend))
		builder_pend_grow(b);
	b->pend[b->n_pend++] = (struct pending_line){
		.key = key, .opcode = opcode, .addr_off = b->n_pool,
		.n_addr = n_addr, .warp = warp, .lanes = lanes, .step = step,
	};
	b->n_pool += step ? 1 : n_addr;
}

/* The step of the n addresses a when they are a progression that a line
 * can hold (gpu_line.step), else 0. */
static inline int32_t builder_step_of(const uint64_t *a, uint32_t n)
{
	int64_t step;

	if (n < 2 || n > GPU_STEP_MAX)
		return 0;
	step = (int64_t)(a[1] - a[0]);
	if (step < INT32_MIN || step > INT32_MAX)
		return 0;
	for (uint32_t k = 2; k < n; k++)
		if (a[k] - a[k - 1] != (uint64_t)step)
			return 0;
	return (int32_t)step;
}

/*
 * The line whose n_addr addresses were just written at the reserved spot;
 * lanes: which lanes they belong to (gpu_line.lanes), 0 when not known.
 * A line that is a progression (gpu_line.step) keeps only its first.
 */
static inline void builder_add(struct block_builder *b, uint64_t key, const char *opcode,
			       uint32_t n_addr, uint32_t warp, uint32_t lanes)
{
	builder_add_pending(b, key, opcode, n_addr, warp, lanes,
			    builder_step_of(b->pool + b->n_pool, n_addr));
}

/* A line known to be a progression: n_addr addresses from `first`, `step`
 * apart (2 <= n_addr <= GPU_STEP_MAX, step not 0). */
static inline void builder_add_step(struct block_builder *b, uint64_t key,
				    const char *opcode, uint32_t n_addr, uint64_t first,
				    int32_t step, uint32_t warp, uint32_t lanes)
{
	*builder_reserve(b, 1) = first;
	builder_add_pending(b, key, opcode, n_addr, warp, lanes, step);
}

/* Room for `n` of the next line's pyset sectors (gpu_line.pyset_sectors),
 * to be written before builder_pyset() keeps them. */
static inline int32_t *builder_reserve_pyset(struct block_builder *b, size_t n)
{
	b->pyset_pool = builder_pool_room(b->pyset_pool, &b->cap_pyset_pool,
					  b->n_pyset_pool, n, sizeof(*b->pyset_pool));
	return b->pyset_pool + b->n_pyset_pool;
}

/* The line added last has the n pyset sectors (1 <= n <= n_addr) just
 * written at the spot builder_reserve_pyset() gave, in `lines` lines. */
static inline void builder_pyset(struct block_builder *b, uint16_t n, uint16_t lines)
{
	struct pending_line *p = &b->pend[b->n_pend - 1];

	p->pyset_off = b->n_pyset_pool;
	p->n_pyset = n;
	p->pyset_lines = lines;
	b->n_pyset_pool += n;
}

/*
 * The block `id` from the lines added since the reset, in key order when
 * `sort` (else in the order added); g_free() releases it.  NULL with *err
 * when it has more than UINT32_MAX lines.  The builder is reset after.
 */
struct gpu_block *builder_finish(struct block_builder *b, uint64_t id,
				 bool sort, GError **err);

#endif
