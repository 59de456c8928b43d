/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coalescer: the lane addresses of one warp instruction become unique
 * sector requests (a lane counts for the sector of its start address;
 * aligned accesses of up to 16 bytes never cross one), in one of these
 * orders:
 *
 *   pyset        the reference's: iteration order of a CPython set built by
 *                adding the sector byte addresses in lane order (it decides
 *                the LRU order and the L2 merge, so results depend on it)
 *   ascending    by address
 *   first_touch  in the order lanes first touch them
 *   descending   by address, highest first (GPGPU-Sim's L1 takes its
 *                ascending list from the back)
 *
 * and, for the hardware-faithful model, the byte mask of each sector: the
 * bytes the lanes' accesses cover in it (a write-validate cache needs them
 * to know when a written sector may be read).
 */
#ifndef SS_COALESCE_H
#define SS_COALESCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum coalesce_order {
	COALESCE_PYSET, COALESCE_ASCENDING, COALESCE_FIRST_TOUCH, COALESCE_DESCENDING,
};

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

/*
 * coalesce() of the n addresses first + k * step (k < n, modulo 2^64): a
 * warp instruction kept as a progression (most are), whose sectors need
 * neither the addresses nor a search.
 */
uint32_t coalesce_progression(struct coalescer *c, uint64_t first, uint64_t step,
			      uint32_t n, uint64_t *out, uint32_t *lines);

/*
 * coalesce(), and in mask[i] the bytes of sector out[i] that the accesses
 * of `width` bytes starting at addr[0..n-1] cover (bit b = byte b), each
 * clipped at the end of its sector (an aligned access never crosses one).
 * Only for a coalescer of 32-byte sectors, the unit mem_req.mask
 * describes; width: 1 or more.
 */
uint32_t coalesce_masked(struct coalescer *c, const uint64_t *addr, uint32_t n,
			 uint32_t width, uint64_t *out, uint32_t *mask,
			 uint32_t *lines);

/*
 * Fermi's rule, as Nugteren et al.'s cache model applies it (doc/
 * nugteren-model.md): a warp's lanes coalesce in aligned groups of 32
 * lanes for accesses of up to 4 bytes, 16 for 8 bytes and 8 for 16 bytes;
 * in each group the first lane of each line (start address / line_bytes)
 * makes one request for the whole line, the others none.  addr[0..n-1]
 * are the active lanes in lane order, `lanes` their bits (0: lanes 0 to
 * n - 1); `width` the access's bytes.  The requests' line addresses (a
 * multiple of line_bytes, a power of two) go into out[] and their lanes
 * into lane[] (room for n each), in lane order; returns how many.  A line
 * two groups touch is requested by each.  Allocates nothing.
 */
uint32_t coalesce_lane_groups(const uint64_t *addr, uint32_t n, uint32_t lanes,
			      uint32_t width, uint32_t line_bytes,
			      uint64_t *out, uint8_t *lane);

#ifdef __cplusplus
}
#endif

#endif
