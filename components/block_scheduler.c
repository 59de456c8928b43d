/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_scheduler: for each kernel, the occupancy and the L1 the shared
 * memory carveout leaves (model.md 2), then which thread blocks each SM
 * runs (model.md 3.1).  policy = first_wave is the reference's: SM s runs
 * the first blocks b with b % SMs == s, as many as the granularity says,
 * and counts are scaled up to the whole grid by the report.
 *
 * The SMs are the elements of `dispatch`: an SM learns the kernel (with its
 * L1 size), then its blocks, then "go".  The plan goes to `plan` for the
 * report.  A kernel that cannot run (a block does not fit an SM) is
 * reported and skipped; the SMs still get its begin and go, so the kernel
 * ends like any other.
 */
#include "config.h"

#include <stdio.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/gpu.h>
#include "occupancy.h"

static const char *const policy_names[] = { "first_wave", NULL };
static const char *const granularity_names[] = { "one", "max_active", "avg", NULL };
static const char *const carveout_rule_names[] = { "ref", "off", NULL };

static const struct ss_param_desc params[] = {
	{ "policy", SS_P_ENUM, "first_wave", "block-to-SM mapping: first_wave (SM s runs blocks s, s + SMs, ...; the reference's)", policy_names, 0, 0, 0 },
	{ "granularity", SS_P_ENUM, "max_active", "blocks each SM simulates: one, max_active (the blocks resident at once), avg (its share of the grid); counts are scaled by share / simulated", granularity_names, 0, 0, 0 },
	{ "unified_bytes", SS_P_SIZE, NULL, "L1 and shared memory of one SM together", NULL, 1, UINT64_C(1) << 40, 0 },
	{ "carveouts", SS_P_LIST, NULL, "shared memory carveouts in KiB, ascending", NULL, 0, 1048576, 0 },
	{ "carveout_rule", SS_P_ENUM, "ref", "ref: the smallest carveout that fits the resident blocks (the reference's loop, which never tries the last one); off: no adaptation, an L1 of fixed_l1_bytes", carveout_rule_names, 0, 0, 0 },
	{ "fixed_l1_bytes", SS_P_SIZE, "0", "the L1 when carveout_rule = off", NULL, 0, 0, 0 },
	{ "warp_size", SS_P_UINT, "32", "threads per warp", NULL, 1, 1024, 0 },
	{ "max_warps", SS_P_UINT, "64", "resident warps per SM", NULL, 1, 1048576, 0 },
	{ "max_blocks", SS_P_UINT, "32", "resident blocks per SM", NULL, 1, 1048576, 0 },
	{ "regs", SS_P_UINT, "65536", "registers per SM", NULL, 1, UINT32_MAX, 0 },
	{ "reg_unit", SS_P_UINT, "256", "registers are allocated per warp in units of this many", NULL, 1, 65536, 0 },
	{ "smem_unit", SS_P_SIZE, "256B", "shared memory is allocated per block in units of this many bytes", NULL, 1, 1048576, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "kernels", SS_PORT_IN, GPU_KERNEL_PROTOCOL, false, true, "kernel launches with their block source" },
	{ "dispatch", SS_PORT_OUT, GPU_DISPATCH_PROTOCOL, true, true, "one per SM: kernel begin, blocks, go" },
	{ "plan", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, false, "each kernel's occupancy and mapping, for a report" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { BS_KERNELS, BS_SKIPPED, BS_BLOCKS };

static const struct ss_stat_desc stats[] = {
	[BS_KERNELS] = { "kernels", SS_STAT_COUNTER, "kernels scheduled", NULL, NULL },
	[BS_SKIPPED] = { "kernels_skipped", SS_STAT_COUNTER, "kernels that could not run (a block does not fit an SM)", NULL, NULL },
	[BS_BLOCKS] = { "blocks", SS_STAT_COUNTER, "thread blocks dispatched", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct block_scheduler {
	struct ss_component c;
	struct occ_gpu gpu;
	uint32_t *carveouts;
	struct ss_port **dispatch;
	struct ss_port *plan;
	struct gpu_occupancy occ;	/* of the current kernel */
	uint64_t *ids;
	const struct gpu_block **blocks;
};

static int sched_create(struct ss_component *c, const struct ss_params *p,
			GError **err)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);
	size_t n_carveouts;
	const uint64_t *kib = ss_param_list(p, "carveouts", &n_carveouts);
	unsigned n_sms = ss_component_port_count(c, "dispatch");

	if (!n_carveouts) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveouts: expected at least one value (KiB)");
		return -1;
	}
	s->carveouts = g_new(uint32_t, n_carveouts);
	for (size_t i = 0; i < n_carveouts; i++) {
		s->carveouts[i] = kib[i];
		if (i && kib[i] <= kib[i - 1]) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveouts: %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT "; expected ascending values",
				    kib[i], kib[i - 1]);
			g_free(s->carveouts);
			return -1;
		}
	}
	s->gpu = (struct occ_gpu){
		.num_sms = n_sms,
		.warp_size = ss_param_uint(p, "warp_size"),
		.max_warps = ss_param_uint(p, "max_warps"),
		.max_blocks = ss_param_uint(p, "max_blocks"),
		.regs = ss_param_uint(p, "regs"),
		.reg_unit = ss_param_uint(p, "reg_unit"),
		.smem_unit = ss_param_uint(p, "smem_unit"),
		.unified_bytes = ss_param_uint(p, "unified_bytes"),
		.carveouts_kib = s->carveouts,
		.n_carveouts = n_carveouts,
		.rule = ss_param_enum(p, "carveout_rule") == 0 ? CARVEOUT_REF : CARVEOUT_OFF,
		.fixed_l1_bytes = ss_param_uint(p, "fixed_l1_bytes"),
		.granularity = ss_param_enum(p, "granularity") + 1,
	};
	if (s->gpu.rule == CARVEOUT_OFF && !s->gpu.fixed_l1_bytes) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveout_rule = off needs fixed_l1_bytes, the L1 of every kernel");
		g_free(s->carveouts);
		return -1;
	}
	s->dispatch = g_new(struct ss_port *, n_sms);
	for (unsigned i = 0; i < n_sms; i++)
		s->dispatch[i] = ss_component_port(c, "dispatch", i);
	s->plan = ss_component_port(c, "plan", 0);
	return 0;
}

static void send_dispatch(struct ss_port *to, enum gpu_dispatch_op op,
			  const struct gpu_kernel *k,
			  const struct gpu_occupancy *occ,
			  const struct gpu_block *b)
{
	struct gpu_dispatch_msg m = {
		.hdr = { sizeof(m), op }, .kernel = k, .occ = occ, .block = b,
	};

	ss_port_send(to, &m.hdr);
}

static void plan_kernel(struct block_scheduler *s, const struct gpu_kernel_msg *km)
{
	const struct gpu_kernel *k = km->kernel;
	struct gpu_kernel_msg out = { .hdr = { sizeof(out), GPU_KERNEL_PLANNED }, .kernel = k };
	char *why = NULL;
	bool runs = occupancy_plan(&s->gpu, k, &s->occ, &why);
	uint64_t n = 0;

	s->c.stats[BS_KERNELS]++;
	if (runs) {
		/* SM s runs s, s + SMs, ...: together the first
		 * sim_blocks * SMs blocks of the grid */
		n = (uint64_t)s->occ.sim_blocks * s->gpu.num_sms;
		n = MIN(n, k->grid_size);
		s->ids = g_renew(uint64_t, s->ids, n ? n : 1);
		s->blocks = g_renew(const struct gpu_block *, s->blocks, n ? n : 1);
		for (uint64_t i = 0; i < n; i++)
			s->ids[i] = i;

		GError *err = NULL;

		if (n && !km->blocks->ops->load(km->blocks, s->ids, n, s->blocks, &err)) {
			ss_engine_fail(s->c.engine, err);
			return;
		}
		out.occ = &s->occ;
	} else {
		s->c.stats[BS_SKIPPED]++;
		/* why names the kernel */
		fprintf(stderr, "sectorsim: %s; skipped\n", why);
		g_free(why);
	}
	if (ss_port_is_bound(s->plan))
		ss_port_send(s->plan, &out.hdr);
	for (unsigned sm = 0; sm < s->gpu.num_sms; sm++) {
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_BEGIN, k, &s->occ, NULL);
		/* SM sm's blocks are sm, sm + SMs, ... of the loaded range */
		for (uint64_t b = sm; runs && b < n; b += s->gpu.num_sms) {
			s->c.stats[BS_BLOCKS]++;
			send_dispatch(s->dispatch[sm], GPU_DISPATCH_BLOCK, k,
				      &s->occ, s->blocks[b]);
		}
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_GO, k, &s->occ, NULL);
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_LAST, k, &s->occ, NULL);
	}
}

static void sched_recv(struct ss_component *c, struct ss_port *in,
		       const struct ss_msg *m)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);

	if (m->kind == GPU_KERNEL_BEGIN)
		plan_kernel(s, (const struct gpu_kernel_msg *)m);
}

static void sched_destroy(struct ss_component *c)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);

	g_free(s->carveouts);
	g_free(s->dispatch);
	g_free(s->ids);
	g_free(s->blocks);
}

static const struct ss_component_ops ops = {
	.xcreate = sched_create,
	.xrecv = sched_recv,
	.xdestroy = sched_destroy,
};

static const struct ss_component_type block_scheduler_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "block_scheduler",
	.summary = "Occupancy, adaptive L1 size and the thread blocks each SM runs",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct block_scheduler),
};

SS_PLUGIN_ENTRY(block_scheduler)
{
	return ss_registry_add(r, &block_scheduler_type, error);
}
