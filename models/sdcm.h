/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stack-distance cache model (SDCM, Brehob and Enbody), the paper's
 * baseline, which predicts hit rates from reuse distances instead of
 * simulating a cache:
 * reuse distances of a stream of sector addresses, their histograms per
 * access category, the hit probability of a distance, and CPython's random
 * number generator, which the reference's L1-to-L2 filter draws from.
 * Pure functions and small objects, shared by the sdcm_cache component,
 * the tests and the benchmark.
 */
#ifndef SS_SDCM_H
#define SS_SDCM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reuse distance: distinct addresses since the last use ----------------- */

struct rd_tracker;

struct rd_tracker *rd_new(void);
void rd_free(struct rd_tracker *t);
/* Forget everything: a new stream. */
void rd_reset(struct rd_tracker *t);
/* What rd_access() returns for a stream the tracker cannot hold. */
#define RD_FULL INT64_MIN
/*
 * The reuse distance of an access to `addr`: the number of distinct
 * addresses accessed since the last access to it (0: immediate reuse), or
 * -1 when it was never accessed.  O(log n) in the stream's length; memory
 * grows only with the distinct addresses, never per access beyond that.
 * RD_FULL, with the access not recorded, beyond 2^30 distinct addresses
 * (positions are 32-bit, a quarter of them live) or when memory runs out.
 */
int64_t rd_access(struct rd_tracker *t, uint64_t addr);
/*
 * What rd_access(t, addr) would return now, with nothing recorded: for a
 * model whose distance is read at one time and whose stream is updated
 * at another (Nugteren et al.'s L1 reads at issue, records at completion;
 * doc/nugteren-model.md).
 */
int64_t rd_distance(const struct rd_tracker *t, uint64_t addr);
/*
 * Forget `addr` as if it had never been accessed: the distances of later
 * reuses no longer count it.  False when it was not there.  For sampled
 * profiles that keep a bounded set of addresses (models/mrc.h).
 */
bool rd_forget(struct rd_tracker *t, uint64_t addr);

/* ---- histograms: one per access category (ldl, ldg, stl, stg) ------------- */

/* Counts per distance, in the order each distance first occurred (the
 * reference sums the hit rate in that order, so the last bit depends on it). */
struct sd_hist;

struct sd_hist *sd_hist_new(void);
void sd_hist_free(struct sd_hist *h);
void sd_hist_reset(struct sd_hist *h);
void sd_hist_add(struct sd_hist *h, int64_t sd);
uint64_t sd_hist_total(const struct sd_hist *h);
size_t sd_hist_len(const struct sd_hist *h);	/* distinct distances */
/* Entry i (0 <= i < len) in first-occurrence order. */
void sd_hist_entry(const struct sd_hist *h, size_t i, int64_t *sd, uint64_t *count);

/* ---- hit probability of a distance --------------------------------------- */

/*
 * Of a reuse at distance d in a cache of `assoc` ways and `blocks` sectors
 * (capacity / sector size): 1 for d = 0, 0 for d = -1, else
 *   exact       the binomial sum of the paper's formula (1), with C(d, a)
 *               exact before its conversion to double
 *   approx_ref  the reference's normal approximation, |...| quirk included
 *   approx_fixed the same without the absolute value
 */
enum sdcm_p_hit { SDCM_EXACT, SDCM_APPROX_REF, SDCM_APPROX_FIXED };

double sdcm_p_hit(enum sdcm_p_hit form, int64_t d, uint32_t assoc, uint64_t blocks);

/* ---- CPython's random: the reference's L1-to-L2 filter --------------------- */

/* MT19937 seeded exactly as CPython's random.seed(n) for an int n >= 0
 * (init_by_array with the key {n}).  The filter re-seeds with 0 per SM,
 * forwards every store and forwards a load when a draw exceeds its hit
 * probability. */
struct py_random {
	uint32_t mt[624];
	int index;
};

void py_random_seed(struct py_random *r, uint64_t n);
/* random.random(): 53 random bits in [0, 1). */
double py_random(struct py_random *r);

#ifdef __cplusplus
}
#endif

#endif
