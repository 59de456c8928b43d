/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the differential tests of the sector cache's drivers share
 * (test-timepar.c, test-stack.c): random geometries, random request
 * streams, and the comparison of what two caches sent down.
 */
#ifndef SS_TEST_CACHE_STREAMS_H
#define SS_TEST_CACHE_STREAMS_H

#include <stdbool.h>
#include <glib.h>
#include "sector_cache.h"

/* Random sets (1 to 32), line and sector sizes, a set-index function
 * that suits them, and whether it hashes the partition address. */
void cs_random_geometry(struct sc_config *cfg, GRand *rng);

/*
 * A request over `lines` lines from 0x100000: mostly a 32-byte one,
 * now and then 64 to 512 bytes (over sectors and lines), or of size 0
 * or 16, 32-byte aligned, of every kind
 * and both spaces, a twelfth flagged to bypass; its partition address is
 * its address plus part_offset (a function of the address, as a router's).
 */
struct mem_req cs_random_request(GRand *rng, const struct sc_config *cfg,
				 uint64_t lines, uint64_t part_offset);

/* A random offset of whole lines for cs_random_request(). */
uint64_t cs_random_part_offset(GRand *rng);

/*
 * Whether `got` holds what `want` does, byte for byte, in order or (not
 * `ordered`) in any; both are emptied when they do.  *what says where
 * they part.
 */
bool cs_same_requests(GArray *got, GArray *want, bool ordered, char **what);

#endif
