/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coalescer (model.md 5): the lane addresses of one warp instruction
 * become unique sector requests, in one of these orders:
 *
 *   pyset        the reference's: iteration order of a CPython set built by
 *                adding the sector byte addresses in lane order (model.md 5.2)
 *   ascending    by address
 *   first_touch  in the order lanes first touch them
 */
#ifndef SS_COALESCE_H
#define SS_COALESCE_H

#include <stdint.h>

enum coalesce_order { COALESCE_PYSET, COALESCE_ASCENDING, COALESCE_FIRST_TOUCH };

struct coalescer;

/* sector_bytes and line_bytes: powers of two, sector_bytes <= line_bytes. */
struct coalescer *coalescer_new(enum coalesce_order order, uint32_t sector_bytes,
				uint32_t line_bytes);
void coalescer_free(struct coalescer *c);

/*
 * The unique sectors (byte addresses, the offset within the sector cleared)
 * of addr[0..n-1] into out[] (room for n), in the coalescer's order; returns
 * how many.  *lines: how many distinct lines they fall in.  Allocates only
 * when n exceeds every n before it.
 */
uint32_t coalesce(struct coalescer *c, const uint64_t *addr, uint32_t n,
		  uint64_t *out, uint32_t *lines);

#endif
