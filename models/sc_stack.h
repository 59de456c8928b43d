/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One pass for several associativities of one LRU sector cache: the
 * caches that differ only in their ways (the same sets, lines, sectors,
 * index and policies), each a "lane", simulated at once by LRU stack
 * simulation (Mattson et al.).  Each lane counts what an sc_cache of its
 * ways counts, and what it sends down, by kind: every counter of
 * sc_stats() and the reads, writes and other requests its next level
 * receives.  It sends nothing: a pass costs about as much as one cache,
 * whatever the lanes.
 */
#ifndef SS_SC_STACK_H
#define SS_SC_STACK_H

#include "sector_cache.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SC_STACK_MAX_LANES 64

struct sc_stack;

/* What a lane sent to the next level, in 32-byte transactions (as a
 * dram_counter counts them), by the kind of request. */
enum sc_sent { SC_SENT_READS, SC_SENT_WRITES, SC_SENT_OTHER, SC_N_SENT };

/*
 * Why caches of configuration cfg cannot be simulated in one pass (with
 * their ways changed), or NULL: every access must allocate and the
 * victim must be the least recent line, so LRU, a write_miss that
 * allocates, no protect_dirty_pct, and sets given; lazy_fetch needs
 * sectors of 32 bytes (a written-byte mask is then one word).
 */
const char *sc_stack_unsupported(const struct sc_config *cfg);

/*
 * Lanes of cfg with ways[0..lanes-1] (distinct, any order; cfg.assoc and
 * cfg.size are ignored).  NULL with *why when one of them is not a cache
 * sc_new() would make, or sc_stack_unsupported().
 */
struct sc_stack *sc_stack_new(const struct sc_config *cfg, const uint32_t *ways,
			      unsigned lanes, char **why);
void sc_stack_free(struct sc_stack *s);

/* One request from above, in every lane. */
void sc_stack_access(struct sc_stack *s, const struct mem_req *r);
/* As sc_end_kernel(), sc_flush() and sc_invalidate(), in every lane. */
void sc_stack_end_kernel(struct sc_stack *s, const struct sc_kernel_end *end);
void sc_stack_flush(struct sc_stack *s);
void sc_stack_invalidate(struct sc_stack *s);
/* Lane k's counters (SC_N_STATS, totals summed, as sc_stats()) and what
 * it sent (SC_N_SENT), since it was made or zeroed. */
const uint64_t *sc_stack_stats(struct sc_stack *s, unsigned lane);
const uint64_t *sc_stack_sent(struct sc_stack *s, unsigned lane);
/* Every lane's counters back to zero (a new kernel's). */
void sc_stack_zero(struct sc_stack *s);

#ifdef __cplusplus
}
#endif

#endif
