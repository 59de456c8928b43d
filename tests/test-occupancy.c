/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Occupancy, adaptive L1 size and first-wave mapping (the reference's)
 * against every kernel of the golden *_simulator.json files; the hw
 * carveout rule (the paper's formula (7): the smallest carveout that keeps
 * as many blocks as the largest) and the plan of dynamic dispatch against
 * hand-computed cases.
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include "occupancy.h"

enum gpu_id { GPU_TITANV, GPU_A100, GPU_TITANV_SMALLCACHE };

static const uint32_t titanv_carveouts[] = { 0, 8, 16, 32, 64, 96 };
static const uint32_t a100_carveouts[] = { 0, 8, 16, 32, 64, 100, 132, 164 };

/*
 * The reference's GPU parameters: 2048 threads, 32 blocks and 65536
 * registers an SM (registers by 256 a warp, shared memory by 256 B), 128 or
 * 192 KiB of unified L1 and shared storage, its carveout lists, and a
 * fixed L1 of 32 or 96 KiB without adaptivity.  The small-cache run
 * (synth/expected/titanv_smallcache_simulator.json)
 * is TITAN V with "adaptive_cache": false and "overwrite": "l1:4096:::".
 */
static struct occ_gpu gpu(enum gpu_id id)
{
	struct occ_gpu g = {
		.num_sms = 80, .warp_size = 32, .max_warps = 64, .max_blocks = 32,
		.regs = 65536, .reg_unit = 256, .smem_unit = 256,
		.unified_bytes = 131072,
		.carveouts_kib = titanv_carveouts, .n_carveouts = G_N_ELEMENTS(titanv_carveouts),
		.rule = CARVEOUT_REF, .fixed_l1_bytes = 32 * 1024,
		.granularity = GRAN_MAX_ACTIVE,
	};

	if (id == GPU_A100) {
		g.num_sms = 108;
		g.unified_bytes = 196608;
		g.carveouts_kib = a100_carveouts;
		g.n_carveouts = G_N_ELEMENTS(a100_carveouts);
		g.fixed_l1_bytes = 96 * 1024;
	} else if (id == GPU_TITANV_SMALLCACHE) {
		g.rule = CARVEOUT_OFF;
		g.fixed_l1_bytes = 4096;
	}
	return g;
}

static struct gpu_kernel kernel(uint64_t grid, uint32_t bsize, uint32_t regs, uint32_t smem)
{
	return (struct gpu_kernel){
		.id = 1, .name = "k", .grid = { grid, 1, 1 }, .block = { bsize, 1, 1 },
		.grid_size = grid, .block_size = bsize, .regs = regs, .smem = smem,
	};
}

/* A plan that must succeed. */
static struct gpu_occupancy plan(const struct occ_gpu *g, const struct gpu_kernel *k)
{
	struct gpu_occupancy o;
	char *why = NULL;

	if (!occupancy_plan(g, k, &o, &why))
		g_error("grid %" G_GUINT64_FORMAT " bsize %u regs %u smem %u: %s",
			k->grid_size, k->block_size, k->regs, k->smem, why);
	g_assert_null(why);
	return o;
}

/* ---- the golden kernels ------------------------------------------------------ */

/*
 * Launch data and "occupancy" of every kernel (126 entries), with
 * l1_cache_size and scale from its metrics; kernels with the same launch
 * and the same results are one row.  Kernels the reference crashed on
 * (omitted_kernels) have no occupancy there.
 */
struct golden {
	const char *what;
	enum gpu_id gpu;
	uint64_t grid;
	uint32_t bsize, regs, smem;
	/* limit warps, blocks, regs, smem; th; alloc; max active; S; L1 */
	uint64_t v[9];
	double scale;
};

static const struct golden golden[] = {
	{ "accelsim_features k1", GPU_A100, 12, 64, 32, 256,
	  { 32, 32, 32, 32, 32, 1, 1, 8192, 188416 }, 1.0 },
	{ "accelsim_features k2", GPU_A100, 5, 96, 32, 256,
	  { 21, 32, 21, 32, 21, 1, 1, 8192, 188416 }, 1.0 },
	{ "accelsim_features k3", GPU_A100, 6, 128, 32, 256,
	  { 16, 32, 16, 32, 16, 1, 1, 8192, 188416 }, 1.0 },
	{ "accelsim_features k5", GPU_A100, 170, 32, 32, 49152,
	  { 64, 32, 64, 2, 2, 2, 2, 135168, 61440 }, 1.0 },
	{ "accelsim_features k1", GPU_TITANV, 12, 64, 32, 256,
	  { 32, 32, 32, 32, 32, 1, 1, 8192, 122880 }, 1.0 },
	{ "accelsim_features k2", GPU_TITANV, 5, 96, 32, 256,
	  { 21, 32, 21, 32, 21, 1, 1, 8192, 122880 }, 1.0 },
	{ "accelsim_features k3", GPU_TITANV, 6, 128, 32, 256,
	  { 16, 32, 16, 32, 16, 1, 1, 8192, 122880 }, 1.0 },
	{ "accelsim_features k5", GPU_TITANV, 170, 32, 32, 49152,
	  { 64, 32, 64, 1, 1, 3, 1, 65536, 65536 }, 3.0 },
	{ "atax-h100-v5 k1", GPU_A100, 1, 256, 20, 0,
	  { 8, 32, 10, 32, 8, 1, 1, 0, 196608 }, 1.0 },
	{ "atax-h100-v5 k1", GPU_TITANV, 1, 256, 20, 0,
	  { 8, 32, 10, 32, 8, 1, 1, 0, 131072 }, 1.0 },
	{ "atax-h100-v6 k1", GPU_A100, 1, 256, 20, 0,
	  { 8, 32, 10, 32, 8, 1, 1, 0, 196608 }, 1.0 },
	{ "atax-h100-v6 k1", GPU_TITANV, 1, 256, 20, 0,
	  { 8, 32, 10, 32, 8, 1, 1, 0, 131072 }, 1.0 },
	{ "backprop-h100-v5 k1-3,6,7,10,11,14,15,18,19,22,23,26,27,30,31", GPU_A100, 1, 32, 29, 0,
	  { 64, 32, 64, 32, 32, 1, 1, 0, 196608 }, 1.0 },
	{ "backprop-h100-v5 k4,8,12,16,20,24,28,32", GPU_A100, 128, 32, 16, 0,
	  { 64, 32, 128, 32, 32, 2, 2, 0, 196608 }, 1.0 },
	{ "backprop-h100-v5 k5,9,13,17,21,25,29,33", GPU_A100, 16, 32, 16, 0,
	  { 64, 32, 128, 32, 32, 1, 1, 0, 196608 }, 1.0 },
	{ "backprop-h100-v5 k1-3,6,7,10,11,14,15,18,19,22,23,26,27,30,31", GPU_TITANV, 1, 32, 29, 0,
	  { 64, 32, 64, 32, 32, 1, 1, 0, 131072 }, 1.0 },
	{ "backprop-h100-v5 k4,8,12,16,20,24,28,32", GPU_TITANV, 128, 32, 16, 0,
	  { 64, 32, 128, 32, 32, 2, 2, 0, 131072 }, 1.0 },
	{ "backprop-h100-v5 k5,9,13,17,21,25,29,33", GPU_TITANV, 16, 32, 16, 0,
	  { 64, 32, 128, 32, 32, 1, 1, 0, 131072 }, 1.0 },
	{ "bfs-a100-v3 k1,3,5,7,9,11,13,15", GPU_A100, 8, 512, 21, 0,
	  { 4, 32, 5, 32, 4, 1, 1, 0, 196608 }, 1.0 },
	{ "bfs-a100-v3 k2,4,6,8,10,12,14,16", GPU_A100, 8, 512, 14, 0,
	  { 4, 32, 8, 32, 4, 1, 1, 0, 196608 }, 1.0 },
	{ "bfs-a100-v3 k1,3,5,7,9,11,13,15", GPU_TITANV, 8, 512, 21, 0,
	  { 4, 32, 5, 32, 4, 1, 1, 0, 131072 }, 1.0 },
	{ "bfs-a100-v3 k2,4,6,8,10,12,14,16", GPU_TITANV, 8, 512, 14, 0,
	  { 4, 32, 8, 32, 4, 1, 1, 0, 131072 }, 1.0 },
	{ "btree-h100-v5 k1,2", GPU_A100, 8, 128, 32, 0,
	  { 16, 32, 16, 32, 16, 1, 1, 0, 196608 }, 1.0 },
	{ "btree-h100-v5 k1,2", GPU_TITANV, 8, 128, 32, 0,
	  { 16, 32, 16, 32, 16, 1, 1, 0, 131072 }, 1.0 },
	{ "matrixmul-pascal-v4 k1", GPU_A100, 1, 1024, 30, 8192,
	  { 2, 32, 2, 2, 2, 1, 1, 16384, 180224 }, 1.0 },
	{ "matrixmul-pascal-v4 k1", GPU_TITANV, 1, 1024, 30, 8192,
	  { 2, 32, 2, 2, 2, 1, 1, 16384, 114688 }, 1.0 },
	{ "vectoradd-a100-v5 k1", GPU_A100, 196, 256, 12, 0,
	  { 8, 32, 16, 32, 8, 2, 2, 0, 196608 }, 1.0 },
	{ "vectoradd-a100-v5 k1", GPU_TITANV, 196, 256, 12, 0,
	  { 8, 32, 16, 32, 8, 3, 3, 0, 131072 }, 1.0 },
	{ "vectoradd-pascal-v4 k1", GPU_A100, 1, 1024, 8, 0,
	  { 2, 32, 8, 32, 2, 1, 1, 0, 196608 }, 1.0 },
	{ "vectoradd-pascal-v4 k1", GPU_TITANV, 1, 1024, 8, 0,
	  { 2, 32, 8, 32, 2, 1, 1, 0, 131072 }, 1.0 },
	{ "synth k1", GPU_A100, 160, 64, 32, 0,
	  { 32, 32, 32, 32, 32, 2, 2, 0, 196608 }, 1.0 },
	{ "synth k2", GPU_A100, 400, 128, 64, 16384,
	  { 16, 32, 8, 8, 8, 4, 4, 135168, 61440 }, 1.0 },
	{ "synth k1", GPU_TITANV, 160, 64, 32, 0,
	  { 32, 32, 32, 32, 32, 2, 2, 0, 131072 }, 1.0 },
	{ "synth k2", GPU_TITANV, 400, 128, 64, 16384,
	  { 16, 32, 8, 4, 4, 5, 4, 65536, 65536 }, 1.25 },
	{ "synth k1", GPU_TITANV_SMALLCACHE, 160, 64, 32, 0,
	  { 32, 32, 32, 32, 32, 2, 2, 131072, 4096 }, 1.0 },
	{ "synth k2", GPU_TITANV_SMALLCACHE, 400, 128, 64, 16384,
	  { 16, 32, 8, 8, 8, 5, 5, 131072, 4096 }, 1.0 },
};

static void test_golden(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(golden); i++) {
		const struct golden *e = &golden[i];
		struct occ_gpu g = gpu(e->gpu);
		struct gpu_kernel k = kernel(e->grid, e->bsize, e->regs, e->smem);
		struct gpu_occupancy o = plan(&g, &k);
		uint64_t got[9] = {
			o.lim_warps, o.lim_blocks, o.lim_regs, o.lim_smem, o.th_max_active,
			o.alloc, o.max_active, o.carveout_bytes, o.l1_bytes,
		};

		for (int f = 0; f < 9; f++)
			if (got[f] != e->v[f])
				g_error("%s (gpu %d): field %d is %" G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT,
					e->what, e->gpu, f, got[f], e->v[f]);
		g_assert_cmpuint(o.active_sms, ==, MIN(g.num_sms, e->grid));
		g_assert_cmpuint(o.avg_blocks, ==, o.alloc);
		g_assert_cmpuint(o.sim_blocks, ==, o.max_active);
		g_assert_true(o.scale == e->scale);
		g_assert_cmpuint(o.num_sms, ==, g.num_sms);
		g_assert_false(o.dynamic);
	}
}

/* ---- worked examples beyond the golden files ------------------------------------ */

static void test_spec_examples(void)
{
	struct occ_gpu tv = gpu(GPU_TITANV), off = tv;
	struct gpu_kernel k2 = kernel(400, 128, 64, 16384), k3 = kernel(96, 256, 40, 0);
	struct gpu_occupancy o;

	/* synthetic kernel 2, adaptivity off, the fixed 32 KiB */
	off.rule = CARVEOUT_OFF;
	o = plan(&off, &k2);
	g_assert_cmpuint(o.carveout_bytes, ==, 131072);
	g_assert_cmpuint(o.lim_smem, ==, 8);
	g_assert_cmpuint(o.th_max_active, ==, 8);
	g_assert_cmpuint(o.l1_bytes, ==, 32768);
	g_assert_cmpuint(o.max_active, ==, 5);
	g_assert_true(o.scale == 1.0);

	/* stress kernel 3 */
	o = plan(&tv, &k3);
	g_assert_cmpuint(o.lim_warps, ==, 8);
	g_assert_cmpuint(o.lim_regs, ==, 6);
	g_assert_cmpuint(o.th_max_active, ==, 6);
	g_assert_cmpuint(o.alloc, ==, 2);
	g_assert_cmpuint(o.max_active, ==, 2);
	g_assert_cmpuint(o.l1_bytes, ==, 131072);
	g_assert_true(o.scale == 1.0);
}

/* The last carveout is never tried: when none before it is enough, the one before it stays. */
static void test_last_carveout(void)
{
	struct occ_gpu tv = gpu(GPU_TITANV), a100 = gpu(GPU_A100), one = tv;
	static const uint32_t only[] = { 48 };
	struct gpu_kernel k = kernel(1000, 64, 32, 48 * 1024);
	struct gpu_occupancy o;

	/* 96 KiB would hold 2 blocks of 48 KiB */
	o = plan(&tv, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.lim_smem, ==, 1);
	g_assert_cmpuint(o.th_max_active, ==, 1);
	g_assert_cmpuint(o.l1_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.max_active, ==, 1);
	g_assert_true(o.scale == 13.0);	/* ceil(1000 / 80) blocks stand for 1 */

	/* 164 KiB would hold 2 blocks of 80 KiB */
	k = kernel(1000, 64, 32, 80 * 1024);
	o = plan(&a100, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 132 * 1024);
	g_assert_cmpuint(o.lim_smem, ==, 1);
	g_assert_cmpuint(o.l1_bytes, ==, 60 * 1024);
	g_assert_cmpuint(o.max_active, ==, 1);
	g_assert_true(o.scale == 10.0);

	/* the first carveout that is enough ends the loop: 0 for no shared memory */
	k = kernel(1000, 64, 32, 0);
	o = plan(&tv, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 0);
	g_assert_cmpuint(o.lim_smem, ==, 32);
	g_assert_cmpuint(o.l1_bytes, ==, 128 * 1024);

	/* a single carveout is the only choice */
	one.carveouts_kib = only;
	one.n_carveouts = 1;
	k = kernel(1000, 64, 32, 16 * 1024);
	o = plan(&one, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 48 * 1024);
	g_assert_cmpuint(o.lim_smem, ==, 3);
	g_assert_cmpuint(o.l1_bytes, ==, 80 * 1024);
}

static void test_granularity(void)
{
	struct occ_gpu g = gpu(GPU_TITANV);
	struct gpu_kernel k = kernel(400, 128, 64, 16384);
	struct gpu_occupancy o;

	g.granularity = GRAN_ONE;
	o = plan(&g, &k);
	g_assert_cmpuint(o.sim_blocks, ==, 1);
	g_assert_cmpuint(o.avg_blocks, ==, 5);
	g_assert_true(o.scale == 5.0);

	g.granularity = GRAN_MAX_ACTIVE;
	o = plan(&g, &k);
	g_assert_cmpuint(o.sim_blocks, ==, 4);
	g_assert_true(o.scale == 1.25);

	g.granularity = GRAN_AVG;
	o = plan(&g, &k);
	g_assert_cmpuint(o.sim_blocks, ==, 5);
	g_assert_true(o.scale == 1.0);
}

/* ---- kernels that cannot run -------------------------------------------------- */

static void expect_error(const struct occ_gpu *g, const struct gpu_kernel *k,
			 const char *text, struct gpu_occupancy *o)
{
	char *why = NULL;

	g_assert_false(occupancy_plan(g, k, o, &why));
	g_assert_nonnull(why);
	if (!strstr(why, text))
		g_error("'%s' lacks '%s'", why, text);
	g_assert_true(g_str_has_prefix(why, "kernel 1 (k): "));
	g_free(why);
}

static void test_errors(void)
{
	struct occ_gpu tv = gpu(GPU_TITANV), a100 = gpu(GPU_A100), bad = tv;
	struct gpu_kernel k;
	struct gpu_occupancy o;

	k = kernel(10, 0, 32, 0);
	expect_error(&tv, &k, "block size is 0 threads", &o);

	/*
	 * 70000 B of shared memory: 96 KiB would hold a block, but the loop
	 * stops at 64 KiB, which does not (the reference divides by zero)
	 */
	k = kernel(10, 64, 32, 70000);
	expect_error(&tv, &k, "the 65536-byte shared-memory carveout: 0", &o);

	/* 140000 B of shared memory: not even the largest carveout holds it */
	k = kernel(10, 64, 32, 140000);
	expect_error(&tv, &k, "does not fit an SM", &o);
	g_assert_cmpuint(o.lim_warps, ==, 32);
	g_assert_cmpuint(o.lim_regs, ==, 32);
	g_assert_cmpuint(o.lim_smem, ==, 0);
	g_assert_cmpuint(o.carveout_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.max_active, ==, 0);
	g_assert_cmpuint(o.alloc, ==, 1);
	expect_error(&a100, &k, "does not fit an SM", &o);
	g_assert_cmpuint(o.carveout_bytes, ==, 132 * 1024);

	/* 4096 threads are 128 warps; 255 registers x 1024 threads are 4 SMs' worth */
	k = kernel(10, 4096, 16, 0);
	expect_error(&tv, &k, "does not fit an SM", &o);
	g_assert_cmpuint(o.lim_warps, ==, 0);
	k = kernel(10, 1024, 255, 0);
	expect_error(&tv, &k, "does not fit an SM", &o);
	g_assert_cmpuint(o.lim_regs, ==, 0);

	k = kernel(0, 64, 32, 0);
	expect_error(&tv, &k, "the grid has no block", &o);
	g_assert_cmpuint(o.active_sms, ==, 0);

	bad.n_carveouts = 0;
	k = kernel(10, 64, 32, 0);
	expect_error(&bad, &k, "no shared-memory carveout", &o);

	/* more blocks per SM than the 32-bit fields hold */
	k = kernel(UINT64_C(80) << 32, 64, 32, 0);
	expect_error(&tv, &k, "blocks per SM", &o);
}

/* ---- hw: the paper's formula (7), over the whole carveout list ----------------- */

struct eq7_case {
	const char *what;
	enum gpu_id gpu;
	uint64_t grid;
	uint32_t bsize, regs, smem;
	uint32_t base;			/* min(lim_warps, lim_blocks, lim_regs) */
	uint32_t lim_smem;		/* at the chosen carveout */
	uint64_t carveout_kib, l1_kib;
	uint32_t max_active;
};

/*
 * By hand, with MaxActBlk(S) = min(base, S // ceil_to(smem, 256)):
 *  - TITAN V carveouts 0, 8, 16, 32, 64, 96 KiB of 128 KiB;
 *  - A100 carveouts 0, 8, 16, 32, 64, 100, 132, 164 KiB of 192 KiB.
 */
static const struct eq7_case eq7_cases[] = {
	/* synthetic kernel 2: 16 KiB a block; 96 KiB holds 6 < base 8,
	 * and only 96 KiB holds 6 (64 KiB: 4) */
	{ "synth k2", GPU_TITANV, 400, 128, 64, 16384, 8, 6, 96, 32, 6 },
	/* 164 KiB holds 10, so 8 is the target; 132 KiB is the first with 8
	 * (100 KiB: 6) */
	{ "synth k2", GPU_A100, 400, 128, 64, 16384, 8, 8, 132, 60, 8 },
	/* no shared memory: carveout 0, and 32 resident blocks although the
	 * grid gives an SM only 2 */
	{ "synth k1", GPU_TITANV, 160, 64, 32, 0, 32, 32, 0, 128, 32 },
	{ "synth k1", GPU_A100, 160, 64, 32, 0, 32, 32, 0, 192, 32 },
	/* base 4 (registers: 65536 // (2048 * 8)); 10240 B a block: 32 KiB
	 * holds 3, 64 KiB holds 6 >= 4 */
	{ "regs-bound", GPU_TITANV, 1000, 256, 64, 10000, 4, 6, 64, 64, 4 },
	/* 12032 B a block: 64 KiB holds 5, 100 KiB holds 8 = base */
	{ "100 KiB", GPU_A100, 1000, 128, 64, 12000, 8, 8, 100, 92, 8 },
	/* 40192 B a block: 64 KiB holds 1, only the largest (96 KiB) holds 2;
	 * the reference's loop stops at 64 KiB (1 block) */
	{ "largest", GPU_TITANV, 1000, 256, 32, 40000, 8, 2, 96, 32, 2 },
	/* 80 KiB a block: 132 KiB holds 1, only 164 KiB holds 2 */
	{ "largest", GPU_A100, 1000, 256, 32, 81920, 8, 2, 164, 28, 2 },
	/* a grid of one block: max_active is still all an SM holds (2 blocks
	 * of 32 warps), not ceil(1 / 108) */
	{ "one block", GPU_A100, 1, 1024, 8, 0, 2, 32, 0, 192, 2 },
};

static void test_eq7(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(eq7_cases); i++) {
		const struct eq7_case *e = &eq7_cases[i];
		struct occ_gpu g = gpu(e->gpu);
		struct gpu_kernel k = kernel(e->grid, e->bsize, e->regs, e->smem);
		struct gpu_occupancy o;

		g.rule = CARVEOUT_EQ7;
		o = plan(&g, &k);
		if (MIN(MIN(o.lim_warps, o.lim_blocks), o.lim_regs) != e->base ||
		    o.lim_smem != e->lim_smem ||
		    o.carveout_bytes != e->carveout_kib * 1024 ||
		    o.l1_bytes != e->l1_kib * 1024 ||
		    o.th_max_active != e->max_active ||
		    o.max_active != e->max_active)
			g_error("%s (gpu %d): base %u lim_smem %u S %" G_GUINT64_FORMAT " L1 %" G_GUINT64_FORMAT " th %u max_active %u",
				e->what, e->gpu, MIN(MIN(o.lim_warps, o.lim_blocks), o.lim_regs),
				o.lim_smem, o.carveout_bytes, o.l1_bytes,
				o.th_max_active, o.max_active);
		g_assert_cmpuint(o.alloc, ==, (e->grid + g.num_sms - 1) / g.num_sms);
		g_assert_cmpuint(o.num_sms, ==, g.num_sms);
		g_assert_false(o.dynamic);
		/* first wave: never more than an SM's share, so scale >= 1 */
		g_assert_cmpuint(o.sim_blocks, ==, MIN(o.max_active, o.avg_blocks));
		g_assert_true(o.scale >= 1.0);
	}
}

/* The reference's loop and (7) differ exactly when only the largest carveout is enough. */
static void test_eq7_against_ref(void)
{
	struct occ_gpu ref = gpu(GPU_TITANV), eq7 = ref;
	struct gpu_kernel k = kernel(1000, 256, 32, 40000);
	struct gpu_occupancy o;

	eq7.rule = CARVEOUT_EQ7;
	o = plan(&ref, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.max_active, ==, 1);
	o = plan(&eq7, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 96 * 1024);
	g_assert_cmpuint(o.max_active, ==, 2);

	/* otherwise both take the smallest carveout that is enough */
	k = kernel(1000, 256, 64, 10000);
	o = plan(&ref, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.max_active, ==, 4);
	o = plan(&eq7, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 64 * 1024);
	g_assert_cmpuint(o.max_active, ==, 4);
}

/* A block that not even the largest carveout holds: an error naming it, as under ref. */
static void test_eq7_cannot_fit(void)
{
	struct occ_gpu tv = gpu(GPU_TITANV), a100 = gpu(GPU_A100), none = tv;
	struct gpu_kernel k;
	struct gpu_occupancy o;

	tv.rule = a100.rule = none.rule = CARVEOUT_EQ7;
	/* 100096 B > 96 KiB */
	k = kernel(10, 64, 32, 100000);
	expect_error(&tv, &k, "the 98304-byte shared-memory carveout: 0", &o);
	g_assert_cmpuint(o.carveout_bytes, ==, 96 * 1024);
	g_assert_cmpuint(o.lim_smem, ==, 0);
	g_assert_cmpuint(o.max_active, ==, 0);
	/* 96 KiB + 1 B: fits the A100 (164 KiB), one block */
	k = kernel(10, 64, 32, 96 * 1024 + 1);
	o = plan(&a100, &k);
	g_assert_cmpuint(o.carveout_bytes, ==, 100 * 1024);
	g_assert_cmpuint(o.max_active, ==, 1);
	/* 170000 B > 164 KiB */
	k = kernel(10, 64, 32, 170000);
	expect_error(&a100, &k, "the 167936-byte shared-memory carveout: 0", &o);
	g_assert_cmpuint(o.carveout_bytes, ==, 164 * 1024);
	/* the warps alone can refuse it too */
	k = kernel(10, 4096, 16, 0);
	expect_error(&tv, &k, "does not fit an SM", &o);
	g_assert_cmpuint(o.lim_warps, ==, 0);

	none.n_carveouts = 0;
	k = kernel(10, 64, 32, 0);
	expect_error(&none, &k, "no shared-memory carveout", &o);
}

/* ---- hw: the plan of dynamic dispatch (every block, max_active slots) ----------- */

static void test_dynamic_plan(void)
{
	struct occ_gpu g = gpu(GPU_TITANV);
	struct gpu_kernel k = kernel(400, 128, 64, 16384);
	struct gpu_occupancy o;

	g.policy = POLICY_DYNAMIC;
	g.rule = CARVEOUT_EQ7;
	/* the granularity is the first wave's business */
	g.granularity = GRAN_ONE;
	o = plan(&g, &k);
	g_assert_true(o.dynamic);
	g_assert_cmpuint(o.num_sms, ==, 80);
	g_assert_cmpuint(o.max_active, ==, 6);
	g_assert_cmpuint(o.active_sms, ==, 80);
	g_assert_cmpuint(o.avg_blocks, ==, 5);
	g_assert_cmpuint(o.sim_blocks, ==, 5);
	g_assert_true(o.scale == 1.0);

	/* 10 blocks on 80 SMs: 10 SMs, 32 slots each all the same */
	k = kernel(10, 64, 32, 0);
	o = plan(&g, &k);
	g_assert_cmpuint(o.max_active, ==, 32);
	g_assert_cmpuint(o.active_sms, ==, 10);
	g_assert_cmpuint(o.sim_blocks, ==, 1);
	g_assert_true(o.scale == 1.0);

	/* under the reference's carveout rule the grid caps the slots */
	g.rule = CARVEOUT_REF;
	o = plan(&g, &k);
	g_assert_cmpuint(o.max_active, ==, 1);
	g_assert_true(o.dynamic);
	g_assert_true(o.scale == 1.0);
}

/* ---- first wave ------------------------------------------------------------------ */

static uint32_t wave(const struct occ_gpu *g, const struct gpu_kernel *k,
		     const struct gpu_occupancy *o, uint32_t sm, uint64_t *ids)
{
	uint32_t n = occupancy_first_wave(g, k, o, sm, ids);

	g_assert_cmpuint(n, <=, o->sim_blocks);
	return n;
}

static void test_first_wave(void)
{
	struct occ_gpu tv = gpu(GPU_TITANV), a100 = gpu(GPU_A100);
	struct gpu_kernel k = kernel(400, 128, 64, 16384);
	struct gpu_occupancy o = plan(&tv, &k);
	uint64_t ids[8];

	/* synth k2: 4 of the 5 blocks each SM would run */
	g_assert_cmpuint(wave(&tv, &k, &o, 0, ids), ==, 4);
	g_assert_cmpuint(ids[0], ==, 0);
	g_assert_cmpuint(ids[1], ==, 80);
	g_assert_cmpuint(ids[2], ==, 160);
	g_assert_cmpuint(ids[3], ==, 240);
	g_assert_cmpuint(wave(&tv, &k, &o, 79, ids), ==, 4);
	g_assert_cmpuint(ids[0], ==, 79);
	g_assert_cmpuint(ids[3], ==, 319);
	g_assert_cmpuint(wave(&tv, &k, &o, 80, ids), ==, 0);

	/* a grid smaller than the SMs: one block, on SM 0 */
	k = kernel(1, 1024, 8, 0);
	o = plan(&a100, &k);
	g_assert_cmpuint(o.active_sms, ==, 1);
	g_assert_cmpuint(wave(&a100, &k, &o, 0, ids), ==, 1);
	g_assert_cmpuint(ids[0], ==, 0);
	g_assert_cmpuint(wave(&a100, &k, &o, 1, ids), ==, 0);
	g_assert_cmpuint(wave(&a100, &k, &o, 107, ids), ==, 0);

	/* 170 blocks on 80 SMs, granularity 3: SMs 0-9 get 3, the others 2 */
	k = kernel(170, 32, 32, 49152);
	tv.granularity = GRAN_AVG;
	o = plan(&tv, &k);
	g_assert_cmpuint(o.sim_blocks, ==, 3);
	g_assert_cmpuint(wave(&tv, &k, &o, 9, ids), ==, 3);
	g_assert_cmpuint(ids[0], ==, 9);
	g_assert_cmpuint(ids[1], ==, 89);
	g_assert_cmpuint(ids[2], ==, 169);
	g_assert_cmpuint(wave(&tv, &k, &o, 10, ids), ==, 2);
	g_assert_cmpuint(ids[0], ==, 10);
	g_assert_cmpuint(ids[1], ==, 90);

	/* granularity 1: block s on SM s */
	tv.granularity = GRAN_ONE;
	o = plan(&tv, &k);
	g_assert_cmpuint(wave(&tv, &k, &o, 42, ids), ==, 1);
	g_assert_cmpuint(ids[0], ==, 42);

	/* granularity 2, the reference's: max_active = 1 of 3 */
	tv.granularity = GRAN_MAX_ACTIVE;
	o = plan(&tv, &k);
	g_assert_cmpuint(o.sim_blocks, ==, 1);
	g_assert_true(o.scale == 3.0);
	g_assert_cmpuint(wave(&tv, &k, &o, 79, ids), ==, 1);
	g_assert_cmpuint(ids[0], ==, 79);
}

/* Granularity 3 maps every block exactly once, ascending on each SM. */
static void test_first_wave_covers(void)
{
	static const uint64_t grids[] = { 1, 79, 80, 81, 159, 160, 161, 1000, 12345 };
	struct occ_gpu g = gpu(GPU_TITANV);

	g.granularity = GRAN_AVG;
	for (size_t i = 0; i < G_N_ELEMENTS(grids); i++) {
		struct gpu_kernel k = kernel(grids[i], 32, 16, 0);
		struct gpu_occupancy o = plan(&g, &k);
		uint8_t *hit = g_new0(uint8_t, grids[i]);
		uint64_t *ids = g_new(uint64_t, o.sim_blocks);
		uint64_t total = 0;

		for (uint32_t sm = 0; sm < g.num_sms; sm++) {
			uint32_t n = wave(&g, &k, &o, sm, ids);

			g_assert_cmpuint(n > 0, ==, sm < o.active_sms);
			for (uint32_t j = 0; j < n; j++) {
				g_assert_cmpuint(ids[j] % g.num_sms, ==, sm);
				g_assert_true(j == 0 || ids[j] > ids[j - 1]);
				g_assert_cmpuint(hit[ids[j]]++, ==, 0);
			}
			total += n;
		}
		g_assert_cmpuint(total, ==, grids[i]);
		g_free(hit);
		g_free(ids);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/occupancy/golden", test_golden);
	g_test_add_func("/occupancy/spec-examples", test_spec_examples);
	g_test_add_func("/occupancy/last-carveout", test_last_carveout);
	g_test_add_func("/occupancy/granularity", test_granularity);
	g_test_add_func("/occupancy/errors", test_errors);
	g_test_add_func("/occupancy/eq7", test_eq7);
	g_test_add_func("/occupancy/eq7-against-ref", test_eq7_against_ref);
	g_test_add_func("/occupancy/eq7-cannot-fit", test_eq7_cannot_fit);
	g_test_add_func("/occupancy/dynamic-plan", test_dynamic_plan);
	g_test_add_func("/occupancy/first-wave", test_first_wave);
	g_test_add_func("/occupancy/first-wave-covers", test_first_wave_covers);
	return g_test_run();
}
