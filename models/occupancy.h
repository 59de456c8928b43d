/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Occupancy, the adaptive L1 size and the block-to-SM mapping of a kernel
 * (the reference's first wave, or the first fill of dynamic dispatch:
 * slot r of every SM before slot r + 1): pure functions of the GPU's
 * limits and the kernel's launch data, so that the block scheduler and the
 * tests share them.
 */
#ifndef SS_OCCUPANCY_H
#define SS_OCCUPANCY_H

#include <stdbool.h>
#include <sectorsim/protocols/gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

enum carveout_rule {
	CARVEOUT_REF,		/* the reference's loop: the last carveout is never tried */
	CARVEOUT_OFF,		/* no adaptation: all shared memory, fixed_l1_bytes of L1 */
	CARVEOUT_EQ7,		/* the paper's formula (7) done right: the smallest
				   carveout that keeps as many resident blocks as
				   the largest one, over the whole list */
};

/* Which blocks run, on which SM. */
enum block_policy {
	POLICY_FIRST_WAVE,	/* the first sim_blocks of b % SMs == s on SM s, scaled */
	POLICY_DYNAMIC,		/* every block, into slots as they free up */
};

/* How many blocks an SM simulates under first_wave: 1, max_active or
 * ceil(grid / SMs) (the reference's granularity 1, 2, 3); counts are then
 * scaled by ceil(grid / SMs) / that. */
enum sim_granularity { GRAN_ONE = 1, GRAN_MAX_ACTIVE = 2, GRAN_AVG = 3 };

struct occ_gpu {
	uint32_t num_sms;
	uint32_t warp_size;		/* 32 */
	uint32_t max_warps;		/* per SM: 64 */
	uint32_t max_blocks;		/* per SM: 32 */
	uint32_t regs;			/* per SM: 65536 */
	uint32_t reg_unit;		/* registers allocated per warp in units of: 256 */
	uint32_t smem_unit;		/* shared memory allocated in units of: 256 B */
	uint64_t unified_bytes;		/* L1 + shared memory */
	const uint32_t *carveouts_kib;	/* ascending */
	uint32_t n_carveouts;
	enum carveout_rule rule;
	uint64_t fixed_l1_bytes;	/* CARVEOUT_OFF */
	enum sim_granularity granularity;	/* POLICY_FIRST_WAVE */
	enum block_policy policy;
};

/*
 * Fill *o for kernel k.  False, with *why (g_free it), when the kernel cannot
 * run at all (no thread per block, or one block does not fit an SM); the
 * fields that could be computed are still set.
 *
 * Under POLICY_DYNAMIC every block runs, so nothing is scaled: sim_blocks =
 * avg_blocks = ceil(grid / SMs), each SM's share (the count an SM really
 * runs depends on how long the blocks are), and scale = 1.  active_sms is
 * min(SMs, grid), the SMs the first fill reaches when no block is empty;
 * the scheduler corrects it once it knows which blocks are empty.  Under
 * CARVEOUT_EQ7 max_active is what the resources allow, not capped by the
 * grid; first_wave then simulates at most avg_blocks blocks per SM, so
 * that scale stays >= 1.
 */
bool occupancy_plan(const struct occ_gpu *g, const struct gpu_kernel *k,
		    struct gpu_occupancy *o, char **why);

/*
 * The blocks SM `sm` simulates under the reference's first-wave mapping
 * (b % num_sms == sm, the first o->sim_blocks of them, b < grid), ascending,
 * into ids[] (room for o->sim_blocks); returns how many.
 */
uint32_t occupancy_first_wave(const struct occ_gpu *g, const struct gpu_kernel *k,
			      const struct gpu_occupancy *o, uint32_t sm,
			      uint64_t *ids);

#ifdef __cplusplus
}
#endif

#endif
