/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A cache's miss-ratio curve for --mrc FILE (models/mrc.h): the caches
 * that keep one (sector_cache, l2_slice_set with mrc = true) feed it the
 * line of every request they look up, and at each kernel's end add the
 * kernel's curve to the run's file and start again.
 */
#ifndef SS_CACHE_MRC_H
#define SS_CACHE_MRC_H

#include <sectorsim/sectorsim.h>

/* The parameters, for a cache type's table. */
#define CACHE_MRC_PARAM_ROWS \
	{ "mrc", SS_P_BOOL, "false", "keep the miss-ratio curve of the lines looked up, per kernel, for --mrc FILE: a fully associative LRU cache's miss ratio as a function of its capacity", NULL, 0, 0, 0 }, \
	{ "mrc_sampling", SS_P_DOUBLE, "1", "mrc: 1 for the exact curve; below 1, the rate of SHARDS spatial sampling (0.01: one line in a hundred, by a hash of its address)", NULL, 0, 0, 0 }, \
	{ "mrc_lines", SS_P_UINT, "8192", "mrc_sampling below 1: the most lines tracked at once, a bound on the curve's memory (the rate drops to keep it; 0: no bound)", NULL, 0, UINT32_MAX, 0 }

struct cache_mrc;

/* NULL without an error when mrc is false, or when the run has no --mrc
 * file (nothing would be written); NULL with *err for bad parameters.
 * A cache that keeps one joins both its ports (SS_PORT_JOINED): the
 * caches append to one file as they end kernels, an order only one clock
 * gives (--threads). */
struct cache_mrc *cache_mrc_new(struct ss_component *c, const struct ss_params *p,
				uint32_t line_bytes, GError **err);
void cache_mrc_free(struct cache_mrc *m);

void cache_mrc_begin(struct cache_mrc *m, uint32_t kernel);
void cache_mrc_access(struct cache_mrc *m, uint64_t line);
/* The kernel's curve into the run's file, and a fresh start. */
void cache_mrc_end(struct cache_mrc *m);

#endif
