/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A sector cache in timing mode: the model of models/sector_cache.h with
 * latencies, an MSHR table (models/mshr.h), answers up and refusals, for
 * every component built on sector caches (sector_cache; l2_slice_set per
 * slice).  Time is the engine's tick; a component gives what comes in and
 * sends what this asks it to.
 *
 * A read, atomic or reduction is looked up when it comes:
 *   - a hit happens at once and is answered after the hit latency (with
 *     latency_sigma, plus a half-normal draw: models/latency.h);
 *   - a miss takes an MSHR entry (or a free target of its line's entry)
 *     and asks the level below for the sector after the miss latency;
 *     its effect on the lines (allocation, victim, recency) comes when
 *     the data does, and so does its answer; a sector of a line that has
 *     an entry is a sector miss, since the entry reserves the line;
 *   - a read of a sector already asked for is a latency miss: it waits
 *     on the same entry and is answered with the first;
 *   - with no room in the table, it is refused at once: it does not
 *     happen (nothing is counted) and the input hears MEM_RETRY when an
 *     entry frees.  A posted request is never refused (its sender could
 *     not send it again): it takes room beyond the limits.
 * Writes happen at once, as in the functional mode, and are posted.  A
 * request flagged to bypass the cache (bypass = flagged) goes down as it
 * came, counted as the functional mode counts it, and its answer is passed
 * up when it comes.  What the level below refuses is sent again, in order,
 * when it says MEM_RETRY, until it refuses one more.
 */
#ifndef SS_CACHE_TIMING_H
#define SS_CACHE_TIMING_H

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include "sector_cache.h"
#include "mshr.h"

/* The parameter rows of a cache's timing, in SC_PARAM_ROWS' tables. */
extern const char *const ct_lookup_names[];
#define CT_PARAM_ROWS \
	{ "timing", SS_P_BOOL, "false", "timing mode: requests take time, misses wait in MSHRs, and reads are answered up the hierarchy (every level and the SMs must be in timing mode); false: functional, served the moment they come", NULL, 0, 0, 0 }, \
	{ "tag_latency", SS_P_UINT, "0", "timing: cycles to look up a tag", NULL, 0, 1000000, 0 }, \
	{ "data_latency", SS_P_UINT, "0", "timing: cycles to read a line's data", NULL, 0, 1000000, 0 }, \
	{ "lookup", SS_P_ENUM, "parallel", "timing: tag and data read together (parallel: a hit takes max(tag, data), and so does finding a miss) or one after the other (serial: a hit takes tag + data, a miss only tag)", ct_lookup_names, 0, 0, 0 }, \
	{ "latency_sigma", SS_P_DOUBLE, "0", "timing: a hit takes its lookup's cycles + |N(0, sigma^2)|, rounded, drawn from a generator seeded with seed; 0: exactly its lookup's", NULL, 0, 0, 0 }, \
	{ "seed", SS_P_UINT, "1", "timing: seed of the hits' half-normal latencies (the same seed, the same latencies); each cache of an array, and each slice of an L2, adds its index", NULL, 0, UINT32_MAX, 0 }, \
	{ "mshr_entries", SS_P_UINT, "0", "timing: lines that can be waited on at once; 0: unlimited", NULL, 0, 1u << 24, 0 }, \
	{ "mshr_targets", SS_P_UINT, "0", "timing: requests that can wait on one line, the first included; 0: unlimited", NULL, 0, 1u << 24, 0 }, \
	{ "mshr_queue", SS_P_UINT, "0", "timing: requests that may wait, in the order they came, for room in the MSHR table instead of being refused (a queue in front of the cache: while one waits, every later read waits behind it); refused beyond this many; 0: refused at once", NULL, 0, 1u << 24, 0 }

/* The statistics a cache in timing mode adds to its table. */
enum ct_stat {
	CT_S_LATENCY_MISSES,
	CT_S_MERGES,
	CT_S_REFUSED_ENTRIES,
	CT_S_REFUSED_TARGETS,
	CT_S_PEAK,
	CT_S_LOAD_CYCLES,
	CT_S_LOADS,
	/* C-AMAT's counts, in the order of struct camat_counts */
	CT_S_CAMAT_ACCESSES,
	CT_S_CAMAT_HITS,
	CT_S_CAMAT_MISSES,
	CT_S_CAMAT_HIT_CYCLES,
	CT_S_CAMAT_MISS_CYCLES,
	CT_S_CAMAT_OVERLAP_HIT,
	CT_S_CAMAT_PURE_MISSES,
	CT_S_CAMAT_PURE_TIME,
	CT_S_CAMAT_PURE_OVERLAP,
	CT_S_CAMAT_ACTIVE,
	CT_N_STATS,
};

struct cache_timing;

struct ct_ops {
	/* send r up to input `input` (an answer, a refusal, a retry), or
	 * down, `delay` ticks from now */
	void (*up)(void *ctx, uint32_t input, const struct mem_req *r, uint64_t delay);
	void (*down)(void *ctx, const struct mem_req *r, uint64_t delay);
	/* the table emptied while a kernel's end waited for it */
	void (*drained)(void *ctx);
};

/* Whether the parameters ask for timing mode. */
bool ct_wanted(const struct ss_params *p);

/* The timing counters, added to c's table (with mean_load_latency). */
void ct_add_stats(struct ss_component *c, uint64_t *stats[CT_N_STATS]);

/*
 * Timing for `cache` (whose emit must call ct_emit()), with `inputs`
 * inputs, counting into `stats` (from ct_add_stats(); several caches of
 * one component may share them: the peak is then the largest of theirs).
 * `stream` is added to the seed: each cache of an array, or slice of a
 * set, draws its own latencies.  NULL with *err when the parameters do
 * not fit.
 */
struct cache_timing *ct_new(struct ss_component *c, const struct ss_params *p,
			    uint64_t *const stats[CT_N_STATS], struct sc_cache *cache,
			    uint32_t inputs, uint32_t stream, const struct ct_ops *ops,
			    void *ctx, GError **err);
void ct_free(struct cache_timing *t);

/* What the model sends down on its own (write-throughs, write-backs, a
 * write's fetch): posted, and remembered so that control keeps behind it. */
void ct_emit(struct cache_timing *t, const struct mem_req *r);

/* A request from input `input`; false when the run failed (a request the
 * timing mode does not take). */
bool ct_request(struct cache_timing *t, uint32_t input, const struct mem_req *r);
/* An answer, refusal or retry from below. */
void ct_from_below(struct cache_timing *t, const struct mem_req *r);
/* An answer r will come from below soon: start loading what it touches. */
void ct_prefetch_answer(const struct cache_timing *t, const struct mem_req *r);

/* Nothing waits: no entry, no passing request, nothing refused below. */
bool ct_idle(const struct cache_timing *t);
/* Ask for ops->drained once idle; false when idle already. */
bool ct_wait_drained(struct cache_timing *t);
/* The kernel ended (the cache is idle): its C-AMAT counts into the
 * statistics, and a new timeline for the next. */
void ct_kernel_end(struct cache_timing *t);
/* The delay that keeps a control message behind what went down before. */
uint64_t ct_control_delay(const struct cache_timing *t);

#endif
