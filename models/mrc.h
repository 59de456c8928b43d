/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Miss-ratio curves: the miss ratio of a stream of block addresses (a
 * cache's lines, in the order it looks them up) in a fully associative LRU
 * cache, as a function of its capacity in blocks.  An access to a block
 * whose reuse distance is d (distinct blocks since its last access; cold:
 * never accessed) misses in a cache of c blocks when d >= c or it is cold,
 * so one pass gives every capacity.
 *
 * Exact: every access's distance (sdcm.h's tracker), memory growing with
 * the distinct blocks.  Sampled: SHARDS (Waldspurger et al., FAST '15):
 * only blocks whose hash falls below a threshold T (a rate R = T / 2^24)
 * are tracked, their distances scaled by 1 / R; with at most `max_blocks`
 * tracked, a new block beyond them lowers T to the largest hash tracked
 * and drops the blocks at or above it, and what was counted is scaled by
 * the change of rate, so memory stays bounded by a constant whatever the
 * stream.  The count of sampled accesses is corrected to what the rate
 * expects (SHARDS_adj) in the smallest distances' bin.
 *
 * The curve is kept at capacities 2^(k/8) blocks rounded (k = 0, 1, ...:
 * eight points an octave, each distinct): exact at those capacities,
 * since counts are binned on them.  Pure; allocates per new tracked block
 * only.
 */
#ifndef SS_MRC_H
#define SS_MRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mrc;

/* rate 1: exact (max_blocks ignored); 0 < rate < 1: sampled, tracking at
 * most max_blocks blocks (0: no bound). */
struct mrc *mrc_new(double rate, uint32_t max_blocks);
void mrc_free(struct mrc *m);
/* An empty stream again (a new kernel); the rate starts over. */
void mrc_reset(struct mrc *m);
/* One access; false when the exact tracker cannot hold the stream. */
bool mrc_access(struct mrc *m, uint64_t block);

/* Accesses seen (all of them, sampled or not). */
uint64_t mrc_accesses(const struct mrc *m);
/* Blocks tracked now (sampled: at most max_blocks). */
uint64_t mrc_tracked(const struct mrc *m);
/* The rate in use now (1 when exact). */
double mrc_rate(const struct mrc *m);

/*
 * The curve: capacities (blocks, ascending) and miss ratios, up to the
 * first capacity beyond every distance seen (where only cold misses are
 * left); returns how many points, at most `max`.
 */
size_t mrc_curve(const struct mrc *m, uint64_t *capacity, double *miss_ratio,
		 size_t max);

/* The miss ratio at capacity c blocks, c one of the curve's capacities
 * (else the next one below). */
double mrc_miss_ratio(const struct mrc *m, uint64_t c);

#ifdef __cplusplus
}
#endif

#endif
