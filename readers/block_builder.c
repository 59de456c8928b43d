/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Building a trace block (block_builder.h).  A format reader adds a block's
 * lines in the order it reads them, each with a key giving its issue order;
 * builder_finish() sorts them by key when asked (Accel-Sim: by round, then
 * warp, the reference's lockstep over the warps) and lays out the block as
 * one allocation: the gpu_block, its lines, their addresses, then their
 * pyset sectors.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "block_builder.h"

void builder_free(struct block_builder *b)
{
	g_free(b->pend);
	g_free(b->sorted);
	g_free(b->rounds);
	g_free(b->pool);
	g_free(b->pyset_pool);
	memset(b, 0, sizeof(*b));
}

void builder_reset(struct block_builder *b)
{
	b->n_pend = 0;
	b->n_pool = 0;
	b->n_pyset_pool = 0;
	b->n_shared = 0;
	b->n_unknown = 0;
}

/* builder_pool_room()'s growth: by doubling, to 4096 elements at least */
void *builder_pool_grow(void *pool, size_t *cap, size_t used, size_t n, size_t size)
{
	*cap = MAX(MAX(*cap * 2, used + n), 4096);
	return g_realloc_n(pool, *cap, size);
}

/* builder_add_pending()'s growth of the pending lines */
void builder_pend_grow(struct block_builder *b)
{
	b->cap_pend = MAX(b->cap_pend * 2, 256);
	b->pend = g_renew(struct pending_line, b->pend, b->cap_pend);
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const struct pending_line *)a)->key;
	uint64_t y = ((const struct pending_line *)b)->key;

	return (x > y) - (x < y);
}

static bool in_order(const struct pending_line *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (p[i].key < p[i - 1].key)
			return false;
	return true;
}

/*
 * Lines come warp after warp, each warp's in round order; the block wants
 * them by (round, warp).  A stable counting sort by round does it in linear
 * time when the warps came in ascending order, as tracers write them.
 * False when they were in that order already (nothing moved).
 */
static bool sort_pending(struct block_builder *b)
{
	size_t n = b->n_pend, n_rounds = 0, cap;
	struct pending_line *tmp;

	if (in_order(b->pend, n))
		return false;
	for (size_t i = 0; i < n; i++)
		n_rounds = MAX(n_rounds, (size_t)(b->pend[i].key >> 32) + 1);
	if (b->cap_rounds < n_rounds + 1) {
		b->cap_rounds = MAX(n_rounds + 1, 2 * b->cap_rounds);
		b->rounds = g_renew(size_t, b->rounds, b->cap_rounds);
	}
	if (b->cap_sorted < n) {
		b->cap_sorted = b->cap_pend;
		b->sorted = g_renew(struct pending_line, b->sorted, b->cap_sorted);
	}
	memset(b->rounds, 0, (n_rounds + 1) * sizeof(*b->rounds));
	for (size_t i = 0; i < n; i++)
		b->rounds[(b->pend[i].key >> 32) + 1]++;
	for (size_t r = 1; r <= n_rounds; r++)
		b->rounds[r] += b->rounds[r - 1];
	for (size_t i = 0; i < n; i++)
		b->sorted[b->rounds[b->pend[i].key >> 32]++] = b->pend[i];
	tmp = b->pend;
	b->pend = b->sorted;
	b->sorted = tmp;
	cap = b->cap_pend;
	b->cap_pend = b->cap_sorted;
	b->cap_sorted = cap;
	if (!in_order(b->pend, n))	/* warps out of order in the file */
		qsort(b->pend, n, sizeof(*b->pend), cmp_key);
	return true;
}

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

struct gpu_block *builder_finish(struct block_builder *b, uint64_t id,
				 bool sort, GError **err)
{
	size_t lines_at = ALIGN8(sizeof(struct gpu_block));
	size_t addr_at = lines_at + ALIGN8(b->n_pend * sizeof(struct gpu_line));
	size_t pyset_at = addr_at + b->n_pool * sizeof(uint64_t);
	struct gpu_block *blk;
	struct gpu_line *lines;
	uint64_t *addr;
	int32_t *pyset;

	if (b->n_pend > UINT32_MAX) {
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
			    "block %" G_GUINT64_FORMAT " has %zu lines; at most %u are supported",
			    id, b->n_pend, UINT32_MAX);
		return NULL;
	}
	bool moved = sort && sort_pending(b);

	b->finished_bytes = pyset_at + b->n_pyset_pool * sizeof(int32_t);
	blk = g_malloc(b->finished_bytes);
	lines = (struct gpu_line *)((char *)blk + lines_at);
	addr = (uint64_t *)((char *)blk + addr_at);
	pyset = (int32_t *)((char *)blk + pyset_at);
	/* lines in the order added: their addresses are the pool's, in order */
	if (!moved && b->n_pool)	/* an empty block may have no pool */
		memcpy(addr, b->pool, b->n_pool * sizeof(uint64_t));
	if (!moved && b->n_pyset_pool)
		memcpy(pyset, b->pyset_pool, b->n_pyset_pool * sizeof(int32_t));
	for (size_t i = 0; i < b->n_pend; i++) {
		const struct pending_line *p = &b->pend[i];

		size_t n = p->step ? 1 : p->n_addr;

		lines[i] = (struct gpu_line){
			.opcode = p->opcode, .addr = moved ? addr : addr + p->addr_off,
			.n_addr = p->n_addr, .warp = p->warp, .lanes = p->lanes,
			.step = p->step, .n_pyset_sectors = p->n_pyset,
			.pyset_lines = p->pyset_lines,
		};
		if (p->n_pyset)
			lines[i].pyset_sectors = moved ? pyset : pyset + p->pyset_off;
		if (moved) {
			memcpy(addr, b->pool + p->addr_off, n * sizeof(uint64_t));
			addr += n;
			if (p->n_pyset) {
				memcpy(pyset, b->pyset_pool + p->pyset_off,
				       p->n_pyset * sizeof(int32_t));
				pyset += p->n_pyset;
			}
		}
	}
	blk->id = id;
	blk->n_lines = (uint32_t)b->n_pend;
	blk->lines = lines;
	blk->n_shared = b->n_shared;
	blk->n_unknown = b->n_unknown;
	blk->stream = NULL;
	builder_reset(b);
	return blk;
}
