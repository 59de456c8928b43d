/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time-parallel simulation of one sector cache: a stream of requests cut
 * into segments that are simulated at once on threads, each from a state
 * guessed from the requests before it, then corrected in order from the
 * true state its predecessor left,
 * with the same result as sc_access() on every request in turn: every
 * counter, every line, sector and dirty bit, and every request sent down,
 * in the same order.  sc_timepar.c says how.
 */
#ifndef SS_SC_TIMEPAR_H
#define SS_SC_TIMEPAR_H

#include <stddef.h>
#include "sector_cache.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_TIMEPAR_MAX_SEGMENTS 64

struct sc_timepar;

/* What the corrections cost, over the cache's life. */
struct sc_timepar_counts {
	uint64_t runs;		/* batches simulated by segments */
	uint64_t requests;	/* requests they held */
	uint64_t replayed;	/* requests simulated again to correct them */
};

/* Why a cache of this configuration cannot be simulated by segments
 * (protect_dirty_pct ties its sets together), or NULL. */
const char *sc_timepar_unsupported(const struct sc_config *cfg);

/*
 * Segments of at most `batch` requests in all for cache c, which sends
 * what goes down to emit(ctx) (the function it was made with).  NULL,
 * with *why, when the configuration does not allow it or memory is short.
 */
struct sc_timepar *sc_timepar_new(struct sc_cache *c, sc_emit_fn emit, void *ctx,
				  unsigned segments, size_t batch, char **why);
void sc_timepar_free(struct sc_timepar *tp);

/* One request for the cache; when the batch is full, it is simulated. */
void sc_timepar_add(struct sc_timepar *tp, const struct mem_req *r);
/* Simulate what is held: afterwards the cache, its counters and what it
 * sent are those of sc_access() on each request in turn. */
void sc_timepar_run(struct sc_timepar *tp);
const struct sc_timepar_counts *sc_timepar_counts(const struct sc_timepar *tp);

#ifdef __cplusplus
}
#endif

#endif
