/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Occupancy, the adaptive L1 size and the first-wave mapping.  Resident
 * blocks are the least of the limits by warps (64 a SM), blocks (32),
 * registers (65536, allocated 256 a warp) and shared memory (allocated
 * 256 B at a time) of the carveout; the L1 is the unified storage less the
 * carveout.  The reference's loop takes the first carveout that holds
 * the register/warp limit's blocks but never tries the last one; formula
 * (7) takes the smallest that holds as many as the largest.
 * The arithmetic is 64-bit throughout so that
 * no launch, however odd, wraps; the results are small and fit the 32-bit
 * fields, except ceil(grid / SMs), which is checked.
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include "occupancy.h"

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static uint64_t ceil_to(uint64_t a, uint64_t unit)
{
	return unit ? ceil_div(a, unit) * unit : a;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Blocks that S bytes of shared memory hold (paper (6)); a kernel without
 * shared memory is bounded by the block limit (the reference's constant 32),
 * as one without registers is.
 */
static uint64_t lim_smem(const struct occ_gpu *g, const struct gpu_kernel *k,
			 uint64_t s)
{
	return k->smem ? s / ceil_to(k->smem, g->smem_unit) : g->max_blocks;
}

/* Blocks an SM holds with S bytes of shared memory (paper (3)). */
static uint64_t max_act_blk(const struct occ_gpu *g, const struct gpu_kernel *k,
			    uint64_t base, uint64_t s)
{
	return min_u64(base, lim_smem(g, k, s));
}

/*
 * Paper (7): the most blocks any carveout allows are those of the largest,
 * and the smallest carveout that allows as many leaves the L1 the most
 * room.  lim_smem grows with S, so the first match in ascending order is
 * the smallest.  When not even the largest holds a block, the largest is
 * the carveout the kernel was refused with.
 */
static uint64_t carveout_eq7(const struct occ_gpu *g, const struct gpu_kernel *k,
			     uint64_t base)
{
	uint64_t largest = (uint64_t)g->carveouts_kib[g->n_carveouts - 1] * 1024;
	uint64_t target = max_act_blk(g, k, base, largest);

	if (!target)
		return largest;
	for (uint32_t i = 0; i < g->n_carveouts; i++) {
		uint64_t s = (uint64_t)g->carveouts_kib[i] * 1024;

		if (max_act_blk(g, k, base, s) == target)
			return s;
	}
	return largest;
}

static char *kernel_label(const struct gpu_kernel *k)
{
	return k->name ? g_strdup_printf("kernel %u (%s)", k->id, k->name)
		       : g_strdup_printf("kernel %u", k->id);
}

/* *why = "kernel ID (NAME): what", what freed. */
static bool fail(char **why, const struct gpu_kernel *k, char *what)
{
	char *label = kernel_label(k);

	*why = g_strdup_printf("%s: %s", label, what);
	g_free(label);
	g_free(what);
	return false;
}

bool occupancy_plan(const struct occ_gpu *g, const struct gpu_kernel *k,
		    struct gpu_occupancy *o, char **why)
{
	uint64_t wpb, regs_per_warp, base, s, th, avg;

	memset(o, 0, sizeof(*o));
	*why = NULL;
	o->num_sms = g->num_sms;
	o->dynamic = g->policy == POLICY_DYNAMIC;
	if (!g->num_sms || !g->warp_size)
		return fail(why, k, g_strdup_printf("the GPU has %u SMs of %u-thread warps",
						    g->num_sms, g->warp_size));
	if (!k->block_size)
		return fail(why, k, g_strdup("block size is 0 threads"));

	/* paper (4)-(5) */
	wpb = ceil_div(k->block_size, g->warp_size);
	o->lim_warps = g->max_warps / wpb;
	o->lim_blocks = g->max_blocks;
	regs_per_warp = ceil_to((uint64_t)k->regs * g->warp_size, g->reg_unit);
	o->lim_regs = k->regs ? g->regs / (regs_per_warp * wpb) : g->max_blocks;
	base = min_u64(min_u64(o->lim_warps, o->lim_blocks), o->lim_regs);

	if (g->rule != CARVEOUT_OFF && !g->n_carveouts)
		return fail(why, k, g_strdup("the GPU lists no shared-memory carveout"));
	if (g->rule == CARVEOUT_REF) {
		/*
		 * The reference's loop stops one short of the last carveout;
		 * when no carveout is enough, the one before the last stays
		 * (a single carveout is the only choice there is).
		 */
		uint32_t last = g->n_carveouts > 1 ? g->n_carveouts - 2 : 0;

		for (uint32_t i = 0; i <= last; i++) {
			s = (uint64_t)g->carveouts_kib[i] * 1024;
			if (lim_smem(g, k, s) >= base)
				break;
		}
		o->l1_bytes = g->unified_bytes > s ? g->unified_bytes - s : 0;
	} else if (g->rule == CARVEOUT_EQ7) {
		s = carveout_eq7(g, k, base);
		o->l1_bytes = g->unified_bytes > s ? g->unified_bytes - s : 0;
	} else {
		s = g->unified_bytes;
		o->l1_bytes = g->fixed_l1_bytes;
	}
	o->carveout_bytes = s;
	o->lim_smem = min_u64(lim_smem(g, k, s), UINT32_MAX);
	th = min_u64(base, o->lim_smem);
	o->th_max_active = th;

	o->active_sms = min_u64(g->num_sms, k->grid_size);
	avg = ceil_div(k->grid_size, g->num_sms);
	if (avg > UINT32_MAX)
		return fail(why, k, g_strdup_printf("%" G_GUINT64_FORMAT " blocks on %u SMs: more than %u blocks per SM",
						    k->grid_size, g->num_sms, UINT32_MAX));
	o->alloc = o->avg_blocks = avg;
	/* dynamic dispatch handles a grid smaller than the slots itself */
	o->max_active = g->rule == CARVEOUT_EQ7 ? th : min_u64(th, avg);
	if (g->policy == POLICY_DYNAMIC) {
		/* every block runs: an SM's share, nothing scaled */
		o->sim_blocks = o->avg_blocks;
	} else {
		switch (g->granularity) {
		case GRAN_ONE:
			o->sim_blocks = 1;
			break;
		case GRAN_MAX_ACTIVE:
			/* eq7 does not cap max_active by the grid; the first
			 * wave never holds more than an SM's share */
			o->sim_blocks = min_u64(o->max_active, o->avg_blocks);
			break;
		case GRAN_AVG:
			o->sim_blocks = o->avg_blocks;
			break;
		default:
			return fail(why, k, g_strdup_printf("granularity %d: not 1, 2 or 3",
							    (int)g->granularity));
		}
	}
	o->scale = o->sim_blocks ? (double)o->avg_blocks / (double)o->sim_blocks : 0.0;

	if (!k->grid_size)
		return fail(why, k, g_strdup("the grid has no block"));
	if (!o->max_active)
		return fail(why, k, g_strdup_printf(
			"a block of %u threads, %u registers per thread and %u bytes of shared memory does not fit an SM "
			"(blocks per SM the warps allow: %u, the block limit: %u, the registers: %u, the %" G_GUINT64_FORMAT "-byte shared-memory carveout: %u)",
			k->block_size, k->regs, k->smem, o->lim_warps, o->lim_blocks,
			o->lim_regs, o->carveout_bytes, o->lim_smem));
	return true;
}

uint32_t occupancy_first_wave(const struct occ_gpu *g, const struct gpu_kernel *k,
			      const struct gpu_occupancy *o, uint32_t sm,
			      uint64_t *ids)
{
	uint32_t n = 0;

	if (sm >= g->num_sms)
		return 0;
	for (uint64_t b = sm; n < o->sim_blocks && b < k->grid_size; b += g->num_sms) {
		ids[n++] = b;
		/* the next is past the grid: stop before b + SMs can wrap */
		if (k->grid_size - b <= g->num_sms)
			break;
	}
	return n;
}
