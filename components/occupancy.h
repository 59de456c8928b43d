/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Occupancy, the adaptive L1 size and the block-to-SM mapping of a kernel
 * (model.md 2 and 3.1): pure functions of the GPU's limits and the
 * kernel's launch data, so that the block scheduler and the tests share them.
 */
#ifndef SS_OCCUPANCY_H
#define SS_OCCUPANCY_H

#include <stdbool.h>
#include <sectorsim/gpu.h>

enum carveout_rule {
	CARVEOUT_REF,		/* the reference's loop: the last carveout is never tried */
	CARVEOUT_OFF,		/* no adaptation: all shared memory, fixed_l1_bytes of L1 */
};

/* How many blocks an SM simulates (model.md 3.1 granularity 1, 2, 3). */
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
	enum sim_granularity granularity;
};

/*
 * Fill *o for kernel k.  False, with *why (g_free it), when the kernel cannot
 * run at all (no thread per block, or one block does not fit an SM); the
 * fields that could be computed are still set.
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

#endif
