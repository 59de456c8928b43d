/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_scheduler: for each kernel, the occupancy (blocks resident per
 * SM, limited by warps, blocks, registers and shared memory) and the L1
 * the shared-memory carveout leaves of the unified storage (occupancy.h),
 * then which thread blocks each SM runs.
 *
 * policy = first_wave is the reference's: SM s runs the first blocks
 * b with b % SMs == s, as many as the granularity says (1, max_active or
 * ceil(grid / SMs)), and the report scales counts up to the whole grid.
 *
 * policy = dynamic is the hardware's: every block runs.  Each SM has
 * max_active block slots.  The first fill gives blocks 0, 1, ... to slot 0
 * of every SM, then slot 1, and so on; after that, a slot an SM reports
 * free (`done`) during a tick takes the next block at the start of the
 * next tick, SMs ascending, each SM's slots ascending.  A block without a
 * line finishes as it is dispatched: its SM receives it only to count
 * the instructions it dropped (it takes no slot and is never reported
 * done), and the slot takes the next block at once.  Blocks are loaded
 * from the trace a batch at a time, never the whole grid, and released
 * once finished.
 *
 * policy = batch is dynamic dispatch in waves, as Nugteren et al.'s cache
 * model runs a core: an SM's slots take new blocks only once all of them
 * are free, at the start of the tick after its last block finished.
 *
 * The SMs are the elements of `dispatch`: an SM learns the kernel (with its
 * L1 size), then its blocks, each with its slot (first_wave: its place
 * among the SM's blocks), then "go", and "last" once no block will
 * follow.  The plan goes to `plan` for the report.  A kernel that cannot
 * run (a block does not fit an SM) is reported and skipped; the SMs still
 * get its begin, go and last, so the kernel ends like any other.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/gpu.h>
#include "occupancy.h"

static const char *const policy_names[] = { "first_wave", "dynamic", "batch", NULL };
static const char *const granularity_names[] = { "one", "max_active", "avg", NULL };
static const char *const carveout_rule_names[] = { "ref", "off", "eq7", NULL };
static const enum carveout_rule carveout_rules[] = { CARVEOUT_REF, CARVEOUT_OFF, CARVEOUT_EQ7 };

static const struct ss_param_desc params[] = {
	{ "policy", SS_P_ENUM, "first_wave", "block-to-SM mapping: first_wave (SM s runs blocks s, s + SMs, ...; the reference's), dynamic (every block, each into the SM slot that frees up first; needs `done` linked from every SM), batch (as dynamic, but an SM takes new blocks only once all its slots are free: Nugteren et al.'s waves)", policy_names, 0, 0, 0 },
	{ "granularity", SS_P_ENUM, "max_active", "first_wave only: blocks each SM simulates: one, max_active (the blocks resident at once), avg (its share of the grid); counts are scaled by share / simulated", granularity_names, 0, 0, 0 },
	{ "unified_bytes", SS_P_SIZE, NULL, "L1 and shared memory of one SM together", NULL, 1, UINT64_C(1) << 40, 0 },
	{ "carveouts", SS_P_LIST, NULL, "shared memory carveouts in KiB, ascending, none above unified_bytes", NULL, 0, 1048576, 0 },
	{ "carveout_rule", SS_P_ENUM, "ref", "ref: the smallest carveout that fits the resident blocks (the reference's loop, which never tries the last one); off: no adaptation, an L1 of fixed_l1_bytes; eq7: the smallest carveout that holds as many blocks as the largest (paper (7)), resident blocks not capped by the grid", carveout_rule_names, 0, 0, 0 },
	{ "fixed_l1_bytes", SS_P_SIZE, "0", "the L1 when carveout_rule = off", NULL, 0, 0, 0 },
	{ "warp_size", SS_P_UINT, "32", "threads per warp", NULL, 1, 1024, 0 },
	{ "max_warps", SS_P_UINT, "64", "resident warps per SM", NULL, 1, 1048576, 0 },
	{ "max_blocks", SS_P_UINT, "32", "resident blocks per SM", NULL, 1, 1048576, 0 },
	{ "regs", SS_P_UINT, "65536", "registers per SM", NULL, 1, UINT32_MAX, 0 },
	{ "reg_unit", SS_P_UINT, "256", "registers are allocated per warp in units of this many", NULL, 1, 65536, 0 },
	{ "smem_unit", SS_P_SIZE, "256B", "shared memory is allocated per block in units of this many bytes", NULL, 1, 1048576, 0 },
	{ "compute_capability", SS_P_UINT, "0", "the GPU's compute capability, major x 10 + minor (70: TITAN V, 80: A100, 90: H100): a kernel compiled for one this GPU cannot run as is (another major version, or a later minor one) gets a warning, once per version; 0: no check", NULL, 0, 1023, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "kernels", SS_PORT_IN, GPU_KERNEL_PROTOCOL, false, true, "kernel launches with their block source" },
	{ "dispatch", SS_PORT_OUT, GPU_DISPATCH_PROTOCOL, true, true, "one per SM: kernel begin, blocks, go, last" },
	{ "done", SS_PORT_IN, GPU_DISPATCH_PROTOCOL, true, false, "one per SM, element i from SM i: a block issued its last line (policy = dynamic needs it)" },
	{ "plan", SS_PORT_OUT, GPU_KERNEL_PROTOCOL, false, false, "each kernel's occupancy and mapping, for a report" },
	{ NULL, 0, NULL, false, false, NULL },
};

enum { BS_PORT_KERNELS, BS_PORT_DISPATCH, BS_PORT_DONE };	/* rows of ports[] */

enum {
	BS_KERNELS, BS_SKIPPED, BS_BLOCKS, BS_EMPTY, BS_DONE, BS_REFILLS,
	BS_REFILL_BLOCKS,
};

static const struct ss_stat_desc stats[] = {
	[BS_KERNELS] = { "kernels", SS_STAT_COUNTER, "kernels scheduled", NULL, NULL },
	[BS_SKIPPED] = { "kernels_skipped", SS_STAT_COUNTER, "kernels that could not run (a block does not fit an SM)", NULL, NULL },
	[BS_BLOCKS] = { "blocks", SS_STAT_COUNTER, "thread blocks dispatched, empty ones included (dynamic: the whole grid)", NULL, NULL },
	[BS_EMPTY] = { "empty_blocks", SS_STAT_COUNTER, "dispatched blocks without a line (dynamic: finished on dispatch; their SM counts what they dropped, they take no slot; a whole batch or more of blocks the trace does not hold at all are counted here but not sent)", NULL, NULL },
	[BS_DONE] = { "blocks_done", SS_STAT_COUNTER, "blocks the SMs reported finished on done (dynamic: blocks - empty_blocks once a kernel ends)", NULL, NULL },
	[BS_REFILLS] = { "refills", SS_STAT_COUNTER, "dynamic: ticks at whose start freed slots took new blocks", NULL, NULL },
	[BS_REFILL_BLOCKS] = { "refill_blocks", SS_STAT_COUNTER, "dynamic: blocks dispatched by refills, empty ones included (the others came with the first fill)", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct dispatched {
	size_t key;			/* sm * max_active + slot */
	const struct gpu_block *block;
};

struct block_scheduler {
	struct ss_component c;
	struct occ_gpu gpu;
	uint32_t *carveouts;
	struct ss_port **dispatch;
	struct ss_port *plan;
	struct gpu_occupancy occ;	/* of the current kernel */
	/*
	 * Loaded blocks: first_wave, the whole first wave; dynamic, a batch
	 * whose blocks[batch_pos..batch_len-1] are next_id, next_id + 1, ...
	 */
	uint64_t *ids;
	const struct gpu_block **blocks;
	size_t batch_cap, batch_pos, batch_len;
	/* dynamic: the current kernel; NULL when none runs */
	const struct gpu_kernel *kernel;
	struct gpu_block_source *source;
	uint64_t next_id;		/* the next block to dispatch */
	const struct gpu_block **slots;	/* [sm * max_active + slot]; NULL: free */
	size_t slots_cap;
	uint64_t resident;		/* slots holding a block */
	size_t *freed;			/* slots freed since the last refill */
	size_t n_freed;
	/* blocks finished since the last refill: released then, once their
	 * SMs are past the tick in which they reported them */
	const struct gpu_block **finished;
	size_t n_finished;
	/* the first fill: what it dispatched, in order, sent once the SMs
	 * have the kernel's begin (struct dispatched) */
	GArray *first;
	uint64_t claimed;		/* bytes of the first wave on the run's account */
	bool filling_first;
	bool refill_queued;
	bool refilling;			/* inside refill() */
	bool batch;			/* policy = batch: refill an SM once it is empty */
	bool failed;			/* a load failed: the run is stopping */
	uint32_t compute_capability;	/* 0: not said */
	uint64_t warned_versions[16];	/* binary versions warned about, as bits */
};

static int sched_create(struct ss_component *c, const struct ss_params *p,
			GError **err)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);
	size_t n_carveouts;
	const uint64_t *kib = ss_param_list(p, "carveouts", &n_carveouts);
	unsigned n_sms = ss_component_port_count(c, "dispatch");
	unsigned n_done = ss_component_port_count(c, "done");
	uint64_t unified = ss_param_uint(p, "unified_bytes");
	unsigned policy_id = ss_param_enum(p, "policy");
	enum block_policy policy = policy_id == 0 ? POLICY_FIRST_WAVE : POLICY_DYNAMIC;

	if (!n_carveouts) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveouts: expected at least one value (KiB)");
		return -1;
	}
	if (kib[n_carveouts - 1] * 1024 > unified) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveouts: %" G_GUINT64_FORMAT " KiB is more than unified_bytes (%" G_GUINT64_FORMAT " B); expected carveouts of the unified array",
			    kib[n_carveouts - 1], unified);
		return -1;
	}
	if (policy == POLICY_DYNAMIC && ss_param_is_set(p, "granularity")) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "granularity: only for policy = first_wave; policy = %s runs every block",
			    policy_names[policy_id]);
		return -1;
	}
	/* without done, no slot ever frees up and the kernel would never end */
	if (policy == POLICY_DYNAMIC && n_done != n_sms) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "policy = %s: expected done linked from each of the %u SMs of dispatch, found %u link%s",
			    policy_names[policy_id], n_sms, n_done, n_done == 1 ? "" : "s");
		return -1;
	}
	s->batch = policy_id == 2;
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
		.unified_bytes = unified,
		.carveouts_kib = s->carveouts,
		.n_carveouts = n_carveouts,
		.rule = carveout_rules[ss_param_enum(p, "carveout_rule")],
		.fixed_l1_bytes = ss_param_uint(p, "fixed_l1_bytes"),
		.granularity = ss_param_enum(p, "granularity") + 1,
		.policy = policy,
	};
	s->compute_capability = ss_param_uint(p, "compute_capability");
	if (s->gpu.rule == CARVEOUT_OFF && !s->gpu.fixed_l1_bytes) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "carveout_rule = off needs fixed_l1_bytes, the L1 of every kernel");
		g_free(s->carveouts);
		return -1;
	}
	/*
	 * first_wave hands each SM all its blocks at a kernel's start, in one
	 * tick, after the last kernel ended on every SM, and listens to none
	 * of them: when an SM takes them changes nothing (--threads).
	 * Dynamic dispatch refills slots tick by tick as the SMs report,
	 * at the start of the tick after a report (refill).
	 */
	ss_component_set_port_flags(c, "done", SS_PORT_SILENT);
	ss_component_set_port_lookahead(c, "done", 1);
	/* no block end matters before a dynamic kernel's first fill, which
	 * withdraws this, nor after send_last, which makes it again */
	ss_port_promise_inert(c, BS_PORT_DONE, true);
	ss_component_set_port_flags(c, "kernels", SS_PORT_SILENT);
	if (policy == POLICY_FIRST_WAVE)
		ss_component_set_port_flags(c, "dispatch", SS_PORT_SENDS_WHEN_IDLE);
	s->dispatch = g_new(struct ss_port *, n_sms);
	for (unsigned i = 0; i < n_sms; i++)
		s->dispatch[i] = ss_component_port(c, "dispatch", i);
	s->plan = ss_component_port(c, "plan", 0);
	s->first = g_array_new(FALSE, FALSE, sizeof(struct dispatched));
	return 0;
}

static void send_dispatch(struct ss_port *to, enum gpu_dispatch_op op,
			  const struct gpu_kernel *k,
			  const struct gpu_occupancy *occ,
			  const struct gpu_block *b, uint32_t slot)
{
	struct gpu_dispatch_msg m = {
		.hdr = { sizeof(m), op }, .kernel = k, .occ = occ, .block = b,
		.slot = slot, .sm = to->index,
		.n_lines = b ? b->n_lines : 0, .n_shared = b ? b->n_shared : 0,
		.n_unknown = b ? b->n_unknown : 0,
	};

	ss_port_send(to, &m.hdr);
}

static void send_plan(struct block_scheduler *s, const struct gpu_kernel *k,
		      struct gpu_block_source *blocks,
		      const struct gpu_occupancy *occ)
{
	struct gpu_kernel_msg out = {
		.hdr = { sizeof(out), GPU_KERNEL_PLANNED }, .kernel = k,
		.blocks = blocks, .occ = occ,
	};

	if (ss_port_is_bound(s->plan))
		ss_port_send(s->plan, &out.hdr);
}

/* ---- dynamic dispatch: freed slots refilled at the next tick ------------- */

/*
 * A load that failed: an interrupt (Ctrl-C) cuts a read short with EINTR,
 * and then the run stops as interrupted, keeping the finished kernels,
 * rather than failing on the input.
 */
static void load_failed(struct block_scheduler *s, GError *err)
{
	if (ss_interrupted()) {
		g_error_free(err);
		ss_engine_stop(s->c.engine);
		return;
	}
	ss_engine_fail(s->c.engine, err);
}

/*
 * The next block of the grid (the caller knows there is one), loading the
 * next batch when the last is used up.  A batch is one block per slot of
 * the GPU: the first fill takes one load, each later wave about one more.
 * NULL when the load failed; the run is then stopping.
 */
static const struct gpu_block *next_block(struct block_scheduler *s)
{
	if (s->batch_pos == s->batch_len) {
		size_t n = MIN(s->batch_cap, s->kernel->grid_size - s->next_id);
		GError *err = NULL;

		for (size_t i = 0; i < n; i++)
			s->ids[i] = s->next_id + i;
		if (!s->source->ops->load(s->source, s->ids, n, s->blocks, &err)) {
			s->failed = true;
			load_failed(s, err);
			return NULL;
		}
		s->batch_pos = 0;
		s->batch_len = n;
	}
	s->next_id++;
	return s->blocks[s->batch_pos++];
}

/*
 * Between batches: when at least a whole batch of the next blocks is
 * absent from the trace (the source's next_held), pass over all of
 * them up to the next block the trace holds.  They count as dispatched
 * empty blocks here, but are neither loaded nor sent, since they carry
 * nothing, not even dropped instructions, and take no slot; the SMs'
 * `blocks` do not count them.  So a paper-format kernel of 10^10 blocks
 * with a few files, or none, costs what its files cost, not 10^10 steps
 * (and the first fill does not keep 10^10 of them).  Shorter gaps are
 * dispatched block by block, as before.
 */
static void skip_absent(struct block_scheduler *s)
{
	uint64_t to;

	if (s->batch_pos != s->batch_len)
		return;
	if (!s->source->ops->next_held)
		return;
	to = s->source->ops->next_held(s->source, s->next_id);
	if (to < s->next_id + s->batch_cap)
		return;
	s->c.stats[BS_BLOCKS] += to - s->next_id;
	s->c.stats[BS_EMPTY] += to - s->next_id;
	s->next_id = to;
}

static void release_block(struct block_scheduler *s, const struct gpu_block *b)
{
	if (s->source->ops->release)
		s->source->ops->release(s->source, b);
}

static void send_block(struct block_scheduler *s, size_t key,
		       const struct gpu_block *b)
{
	uint32_t ma = s->occ.max_active;

	send_dispatch(s->dispatch[key / ma], GPU_DISPATCH_BLOCK, s->kernel,
		      &s->occ, b, key % ma);
}

/*
 * Dispatch blocks into the free slot `key` until one has a line (it stays
 * there) or the grid runs out; each empty one finishes on the spot, so its
 * slot is free again for the next.  False when a load failed.
 */
static bool fill_slot(struct block_scheduler *s, size_t key)
{
	while (s->next_id < s->kernel->grid_size) {
		const struct gpu_block *b;

		skip_absent(s);
		if (s->next_id >= s->kernel->grid_size)
			break;
		b = next_block(s);
		if (!b)
			return false;
		s->c.stats[BS_BLOCKS]++;
		if (s->filling_first) {
			struct dispatched d = { key, b };

			g_array_append_val(s->first, d);
		}
		if (!b->n_lines) {
			/* its SM counts what it dropped (shared-memory
			 * instructions, say), then it is done: no slot, no DONE */
			s->c.stats[BS_EMPTY]++;
			if (!s->filling_first) {
				send_block(s, key, b);
				release_block(s, b);
			}
			continue;
		}
		s->slots[key] = b;
		s->resident++;
		break;
	}
	return true;
}

/*
 * With the grid all dispatched, a block's end frees a slot that no block
 * takes, so `done` makes the scheduler send nothing until the next
 * kernel's first fill: SM groups on other threads need not wait for each
 * other's block ends (--threads).
 */
static void send_last(struct block_scheduler *s)
{
	for (unsigned sm = 0; sm < s->gpu.num_sms; sm++)
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_LAST, s->kernel, &s->occ,
			      NULL, 0);
	ss_port_promise_inert(&s->c, BS_PORT_DONE, true);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * The start of a tick: the slots freed during the last one take the next
 * blocks.  Keys are sm * max_active + slot, so ascending keys are SMs
 * ascending, each SM's slots ascending, and ties go to the lower SM.
 */
static void refill(struct ss_engine *e, void *data)
{
	struct block_scheduler *s = data;
	uint32_t ma = s->occ.max_active;
	uint64_t before = s->c.stats[BS_BLOCKS];

	s->refill_queued = false;
	for (size_t i = 0; i < s->n_finished; i++)
		release_block(s, s->finished[i]);
	s->n_finished = 0;
	if (s->failed || !s->n_freed)
		return;
	qsort(s->freed, s->n_freed, sizeof(*s->freed), cmp_size);
	s->c.stats[BS_REFILLS]++;
	s->refilling = true;
	for (size_t i = 0; i < s->n_freed && s->next_id < s->kernel->grid_size; i++) {
		size_t key = s->freed[i];

		if (!fill_slot(s, key))
			break;
		if (s->slots[key])
			send_dispatch(s->dispatch[key / ma], GPU_DISPATCH_BLOCK,
				      s->kernel, &s->occ, s->slots[key], key % ma);
	}
	s->refilling = false;
	if (s->failed)
		return;
	s->n_freed = 0;
	s->n_finished = 0;
	s->c.stats[BS_REFILL_BLOCKS] += s->c.stats[BS_BLOCKS] - before;
	/* a refill is queued only while blocks remain, so this is the one
	 * that used them up */
	if (s->next_id >= s->kernel->grid_size)
		send_last(s);
}

/* The SMs broke the dispatch protocol: stop the run. */
#define fail_internal(s, ...) do { \
	ss_component_fail(&(s)->c, SS_ERROR_INTERNAL, __VA_ARGS__); \
	(s)->failed = true; \
} while (0)

static void block_done(struct block_scheduler *s, const struct ss_port *in,
		       const struct gpu_dispatch_msg *d)
{
	uint32_t ma = s->occ.max_active;
	const struct gpu_block *b;
	size_t key;

	s->c.stats[BS_DONE]++;
	if (s->gpu.policy != POLICY_DYNAMIC || s->failed)
		return;
	if (!s->kernel) {
		fail_internal(s, "done[%u] reported slot %u done, but no kernel runs",
			      in->index, d->slot);
		return;
	}
	/* a slot refilled and freed in one go would skip the tick between */
	if (s->refilling) {
		fail_internal(s, "done[%u] reported slot %u done while receiving blocks; expected it from the SM's own issue",
			      in->index, d->slot);
		return;
	}
	key = (size_t)d->sm * ma + d->slot;
	if (d->sm != in->index || d->slot >= ma || !s->slots[key] ||
	    (d->block && d->block != s->slots[key])) {
		fail_internal(s, "done[%u] reported SM %u, slot %u done (block %" G_GUINT64_FORMAT "), which %s",
			      in->index, d->sm, d->slot, d->block ? d->block->id : 0,
			      d->sm != in->index ? "is another SM's link" :
			      d->slot >= ma ? "is past the SM's slots" :
			      !s->slots[key] ? "holds no block" : "holds another block");
		return;
	}
	b = s->slots[key];
	s->slots[key] = NULL;
	s->resident--;
	/* the last blocks live until the trace source moves on */
	if (s->next_id >= s->kernel->grid_size)
		return;
	s->finished[s->n_finished++] = b;
	if (s->batch) {
		/* the SM's wave goes on while any of its slots holds a block;
		 * the last to finish frees them all */
		size_t first = key - d->slot;

		for (uint32_t i = 0; i < ma; i++)
			if (s->slots[first + i])
				return;
		for (uint32_t i = 0; i < ma; i++)
			s->freed[s->n_freed++] = first + i;
	} else {
		s->freed[s->n_freed++] = key;
	}
	/*
	 * At the start of the next tick: below SS_PRIO_ISSUE, where SM i
	 * issues at SS_PRIO_ISSUE + 1 + i, so every SM sees its new blocks
	 * before it issues in that tick, whatever its index.
	 */
	if (!s->refill_queued) {
		s->refill_queued = true;
		ss_schedule_in(s->c.engine, 1, SS_PRIO_ISSUE - 1, refill, s);
	}
}

static void reserve_batch(struct block_scheduler *s, size_t n)
{
	s->ids = g_renew(uint64_t, s->ids, n ? n : 1);
	s->blocks = g_renew(const struct gpu_block *, s->blocks, n ? n : 1);
}

/* Begin, the first fill breadth-first, go; last at once if the grid fits. */
static void first_fill(struct block_scheduler *s, const struct gpu_kernel_msg *km)
{
	const struct gpu_kernel *k = km->kernel;
	uint32_t n_sms = s->gpu.num_sms, ma = s->occ.max_active;
	size_t n_slots = (size_t)n_sms * ma;

	s->kernel = k;
	s->source = km->blocks;
	s->next_id = 0;
	ss_port_promise_inert(&s->c, BS_PORT_DONE, false);
	s->batch_pos = s->batch_len = 0;
	s->n_freed = 0;
	s->n_finished = 0;
	if (n_slots > s->slots_cap) {
		s->slots = g_renew(const struct gpu_block *, s->slots, n_slots);
		s->freed = g_renew(size_t, s->freed, n_slots);
		s->finished = g_renew(const struct gpu_block *, s->finished, n_slots);
		s->slots_cap = n_slots;
	}
	reserve_batch(s, n_slots);
	s->batch_cap = n_slots;
	memset(s->slots, 0, n_slots * sizeof(*s->slots));

	g_array_set_size(s->first, 0);
	s->filling_first = true;
	for (uint32_t r = 0; r < ma && s->next_id < k->grid_size; r++)
		for (uint32_t sm = 0; sm < n_sms && s->next_id < k->grid_size; sm++)
			if (!fill_slot(s, (size_t)sm * ma + r)) {
				s->filling_first = false;
				return;
			}
	s->filling_first = false;
	/*
	 * Refills happen only when the first fill left no slot free, so the
	 * SMs holding a block now are all that will ever run one.
	 */
	s->occ.active_sms = 0;
	for (uint32_t sm = 0; sm < n_sms; sm++)
		s->occ.active_sms += s->slots[(size_t)sm * ma] != NULL;

	send_plan(s, k, km->blocks, &s->occ);
	for (uint32_t sm = 0; sm < n_sms; sm++)
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_BEGIN, k, &s->occ, NULL, 0);
	for (guint i = 0; i < s->first->len; i++) {
		const struct dispatched *d = &g_array_index(s->first, struct dispatched, i);

		send_block(s, d->key, d->block);
		if (!d->block->n_lines)
			release_block(s, d->block);
	}
	for (uint32_t sm = 0; sm < n_sms; sm++)
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_GO, k, &s->occ, NULL, 0);
	if (s->next_id >= k->grid_size)
		send_last(s);
}

/* ---- per kernel -------------------------------------------------------------- */

/*
 * first_wave loads every block it simulates at the kernel's start, which
 * granularity = avg makes the whole grid: its ids, pointers and blocks go
 * on the run's memory account, so that a grid beyond memory is refused
 * with one line rather than an allocation that aborts.
 */
static bool claim_first_wave(struct block_scheduler *s, const struct gpu_kernel *k,
			     uint64_t n)
{
	const uint64_t per = sizeof(uint64_t) + sizeof(void *) + sizeof(struct gpu_block);
	uint64_t bytes = n > UINT64_MAX / per ? UINT64_MAX : n * per, total;

	if (ss_engine_claim_memory(s->c.engine, s->claimed, bytes, &total)) {
		s->claimed = bytes;
		return true;
	}
	/* the refusal counts what the rest of the run holds (its caches) */
	ss_component_fail(&s->c, SS_ERROR_INPUT,
			  "kernel %u (%s): its first wave of %" G_GUINT64_FORMAT " blocks needs about %" G_GUINT64_FORMAT " bytes at once, %" G_GUINT64_FORMAT " with what the run holds already, more than the run's memory (%" G_GUINT64_FORMAT " bytes); expected granularity = max_active or one, or policy = dynamic",
			  k->id, k->name, n, bytes, total, ss_engine_memory(s->c.engine));
	return false;
}

/*
 * A kernel compiled for a GPU this one is not: machine code runs on the
 * same major version at the same or a later minor one (sm_80 on an 8.6
 * GPU), never across major versions.  The trace then holds another GPU's
 * run, whose occupancy and caches this configuration does not model;
 * warned once per version, since every kernel of an app says the same.
 * False: --strict stops the run.
 */
static bool check_version(struct block_scheduler *s, const struct gpu_kernel *k)
{
	uint32_t v = k->binary_version, cc = s->compute_capability;
	uint64_t bit;

	if (!cc || !v || (v / 10 == cc / 10 && v % 10 <= cc % 10) || v >= 1024)
		return true;
	bit = UINT64_C(1) << (v % 64);
	if (s->warned_versions[v / 64] & bit)
		return true;
	s->warned_versions[v / 64] |= bit;
	return ss_engine_warn_input(s->c.engine,
		"%s%skernel %u (%s) was compiled for compute capability %u.%u, which the configuration's GPU (%u.%u, %s.compute_capability) cannot run: it is simulated with this GPU's occupancy and caches, not the traced GPU's",
		k->trace_file ? k->trace_file : "", k->trace_file ? ": " : "",
		k->id, k->name, v / 10, v % 10, cc / 10, cc % 10, s->c.name);
}

static void plan_kernel(struct block_scheduler *s, const struct gpu_kernel_msg *km)
{
	const struct gpu_kernel *k = km->kernel;
	char *why = NULL;
	bool runs;
	uint64_t n = 0;

	if (s->resident) {
		fail_internal(s, "kernel %u began while %" G_GUINT64_FORMAT " blocks of the last one were still running",
			      k->id, s->resident);
		return;
	}
	s->kernel = NULL;
	if (!check_version(s, k))
		return;
	runs = occupancy_plan(&s->gpu, k, &s->occ, &why);
	s->c.stats[BS_KERNELS]++;
	if (runs && s->gpu.policy == POLICY_DYNAMIC) {
		first_fill(s, km);
		return;
	}
	if (runs) {
		/* SM s runs s, s + SMs, ...: together the first
		 * sim_blocks * SMs blocks of the grid */
		n = (uint64_t)s->occ.sim_blocks * s->gpu.num_sms;
		n = MIN(n, k->grid_size);
		if (!claim_first_wave(s, k, n))
			return;
		reserve_batch(s, n);
		for (uint64_t i = 0; i < n; i++)
			s->ids[i] = i;

		GError *err = NULL;

		if (n && !km->blocks->ops->load(km->blocks, s->ids, n, s->blocks, &err)) {
			load_failed(s, err);
			return;
		}
	} else {
		s->c.stats[BS_SKIPPED]++;
		/* why names the kernel */
		fprintf(stderr, "sectorsim: %s; skipped\n", why);
		g_free(why);
	}
	send_plan(s, k, km->blocks, runs ? &s->occ : NULL);
	for (unsigned sm = 0; sm < s->gpu.num_sms; sm++) {
		uint32_t slot = 0;

		send_dispatch(s->dispatch[sm], GPU_DISPATCH_BEGIN, k, &s->occ, NULL, 0);
		/* SM sm's blocks are sm, sm + SMs, ... of the loaded range */
		for (uint64_t b = sm; runs && b < n; b += s->gpu.num_sms) {
			s->c.stats[BS_BLOCKS]++;
			s->c.stats[BS_EMPTY] += !s->blocks[b]->n_lines;
			send_dispatch(s->dispatch[sm], GPU_DISPATCH_BLOCK, k,
				      &s->occ, s->blocks[b], slot++);
		}
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_GO, k, &s->occ, NULL, 0);
		send_dispatch(s->dispatch[sm], GPU_DISPATCH_LAST, k, &s->occ, NULL, 0);
	}
}

static void sched_recv(struct ss_component *c, struct ss_port *in,
		       const struct ss_msg *m)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);

	if (m->kind == GPU_KERNEL_BEGIN)
		plan_kernel(s, (const struct gpu_kernel_msg *)m);
	else if (m->kind == GPU_DISPATCH_DONE)
		block_done(s, in, (const struct gpu_dispatch_msg *)m);
}

static void sched_destroy(struct ss_component *c)
{
	struct block_scheduler *s = SS_COMPONENT(c, struct block_scheduler, c);

	g_free(s->carveouts);
	g_free(s->dispatch);
	g_free(s->ids);
	g_free(s->blocks);
	g_free(s->slots);
	g_free(s->freed);
	g_free(s->finished);
	if (s->first)
		g_array_free(s->first, TRUE);
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
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(block_scheduler)
{
	return ss_registry_add(r, &block_scheduler_type, error);
}
