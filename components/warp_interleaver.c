/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * warp_interleaver: one SM's issue of memory instructions.  It takes the
 * blocks the scheduler gives it, interleaves their instruction streams
 * (issue = block_rr: one line of each resident block in turn, model.md
 * 4.1), classifies each line (classify = ref, model.md 6.1), coalesces its
 * lane addresses into unique sectors (model.md 5) and sends them to its L1
 * as 32-byte requests.
 *
 * Kernel boundaries travel down the same link: a kernel's begin (with the
 * L1 size the carveout leaves) before the first request, its end after the
 * last.  A round of the interleave is issued per tick, so that the SMs
 * advance together and what the L2 merges waits in short queues.
 *
 * The reference classifies with sticky flags (model.md 6.1, quirk P11): a
 * line that is neither a global nor a local load or store (generic LD/ST,
 * say) takes the store and local flags of the line before it, in this
 * SM's stream, for the whole kernel.  Atomics and reductions are counted
 * and go no further.
 */
#include "config.h"

#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/gpu.h>
#include <sectorsim/mem.h>
#include "coalesce.h"

static const char *const issue_names[] = { "block_rr", NULL };
static const char *const order_names[] = { "pyset", "ascending", "first_touch", NULL };
static const char *const classify_names[] = { "ref", NULL };

static const struct ss_param_desc params[] = {
	{ "issue", SS_P_ENUM, "block_rr", "instruction issue order: block_rr (one line of each resident block in turn, the reference's)", issue_names, 0, 0, 0 },
	{ "sector_order", SS_P_ENUM, "pyset", "order of a line's sectors: pyset (the reference's Python set order), ascending, first_touch", order_names, 0, 0, 0 },
	{ "classify", SS_P_ENUM, "ref", "instruction classes: ref (opcode substrings, sticky flags; atomics and reductions counted, not sent)", classify_names, 0, 0, 0 },
	{ "sector_bytes", SS_P_SIZE, "32B", "coalescing unit", NULL, 32, 4096, SS_PF_POW2 },
	{ "line_bytes", SS_P_SIZE, "128B", "line size for the transaction counts", NULL, 32, 65536, SS_PF_POW2 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "tb_in", SS_PORT_IN, GPU_DISPATCH_PROTOCOL, false, true, "kernel begin, blocks and go from the block scheduler" },
	{ "mem", SS_PORT_OUT, MEM_PROTOCOL, false, true, "sector requests to the L1" },
	{ NULL, 0, NULL, false, false, NULL },
};

/* model.md 6.1 and 12.1: the per-SM counters the reference keeps. */
enum {
	WI_GMEM_LD_REQS, WI_GMEM_ST_REQS, WI_GMEM_LD_TRANS, WI_GMEM_ST_TRANS,
	WI_GMEM_LD_SECTORS, WI_GMEM_ST_SECTORS,
	WI_LMEM_LD_REQS, WI_LMEM_ST_REQS, WI_LMEM_LD_TRANS, WI_LMEM_ST_TRANS,
	WI_LMEM_USED, WI_ATOM_REQS, WI_RED_REQS, WI_ATOM_RED_TRANS,
	WI_UMEM_LD_SECTORS, WI_UMEM_ST_SECTORS, WI_LINES, WI_BLOCKS,
};

static const struct ss_stat_desc stats[] = {
	[WI_GMEM_LD_REQS] = { "gmem_ld_reqs", SS_STAT_COUNTER, "global load instructions (LDG)", NULL, NULL },
	[WI_GMEM_ST_REQS] = { "gmem_st_reqs", SS_STAT_COUNTER, "global store instructions (STG)", NULL, NULL },
	[WI_GMEM_LD_TRANS] = { "gmem_ld_trans", SS_STAT_COUNTER, "lines touched by global loads", NULL, NULL },
	[WI_GMEM_ST_TRANS] = { "gmem_st_trans", SS_STAT_COUNTER, "lines touched by global stores", NULL, NULL },
	[WI_GMEM_LD_SECTORS] = { "gmem_ld_sectors", SS_STAT_COUNTER, "sectors of global loads", NULL, NULL },
	[WI_GMEM_ST_SECTORS] = { "gmem_st_sectors", SS_STAT_COUNTER, "sectors of global stores", NULL, NULL },
	[WI_LMEM_LD_REQS] = { "lmem_ld_reqs", SS_STAT_COUNTER, "local load instructions (LDL)", NULL, NULL },
	[WI_LMEM_ST_REQS] = { "lmem_st_reqs", SS_STAT_COUNTER, "local store instructions (STL)", NULL, NULL },
	[WI_LMEM_LD_TRANS] = { "lmem_ld_trans", SS_STAT_COUNTER, "lines touched by local loads", NULL, NULL },
	[WI_LMEM_ST_TRANS] = { "lmem_st_trans", SS_STAT_COUNTER, "lines touched by local stores", NULL, NULL },
	[WI_LMEM_USED] = { "lmem_used", SS_STAT_COUNTER, "1 when the kernel used local memory on this SM", NULL, NULL },
	[WI_ATOM_REQS] = { "atom_reqs", SS_STAT_COUNTER, "atomic instructions", NULL, NULL },
	[WI_RED_REQS] = { "red_reqs", SS_STAT_COUNTER, "reduction instructions", NULL, NULL },
	[WI_ATOM_RED_TRANS] = { "atom_red_trans", SS_STAT_COUNTER, "sectors of atomics and reductions", NULL, NULL },
	[WI_UMEM_LD_SECTORS] = { "umem_ld_sectors", SS_STAT_COUNTER, "sectors sent to the L1 as loads", NULL, NULL },
	[WI_UMEM_ST_SECTORS] = { "umem_st_sectors", SS_STAT_COUNTER, "sectors sent to the L1 as stores", NULL, NULL },
	[WI_LINES] = { "lines", SS_STAT_COUNTER, "trace lines issued", NULL, NULL },
	[WI_BLOCKS] = { "blocks", SS_STAT_COUNTER, "thread blocks run", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

struct resident {
	const struct gpu_block *block;
	uint32_t next;		/* its next line */
};

struct warp_interleaver {
	struct ss_component c;
	struct ss_port *mem;
	struct coalescer *coalescer;
	GArray *resident;	/* struct resident, in dispatch order */
	uint64_t *sectors;	/* coalescer output */
	uint32_t sectors_cap;
	const struct gpu_kernel *kernel;
	bool is_store, is_local;	/* the sticky flags */
};

static int wi_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);
	uint64_t sector = ss_param_uint(p, "sector_bytes");
	uint64_t line = ss_param_uint(p, "line_bytes");
	static const enum coalesce_order orders[] = {
		COALESCE_PYSET, COALESCE_ASCENDING, COALESCE_FIRST_TOUCH,
	};

	if (sector > line) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "sector_bytes %" G_GUINT64_FORMAT " is larger than line_bytes %" G_GUINT64_FORMAT,
			    sector, line);
		return -1;
	}
	w->mem = ss_component_port(c, "mem", 0);
	w->coalescer = coalescer_new(orders[ss_param_enum(p, "sector_order")],
				     sector, line);
	if (!w->coalescer) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "sector_bytes %" G_GUINT64_FORMAT " and line_bytes %" G_GUINT64_FORMAT ": no coalescer for them",
			    sector, line);
		return -1;
	}
	w->resident = g_array_new(FALSE, FALSE, sizeof(struct resident));
	w->sectors_cap = 64;
	w->sectors = g_new(uint64_t, w->sectors_cap);
	return 0;
}

static void send_control(struct warp_interleaver *w, enum mem_ctl ctl,
			 uint64_t arg, uint32_t kernel)
{
	struct mem_req r;

	mem_req_init(&r, MEM_CONTROL, arg, 0);
	r.ctl = ctl;
	r.warp = kernel;
	r.sm = w->c.index < 0 ? 0 : w->c.index;
	ss_port_send(w->mem, &r.hdr);
}

/* One trace line: classify, coalesce, send its sectors to the L1. */
static void issue_line(struct warp_interleaver *w, const struct gpu_line *l)
{
	uint64_t *st = w->c.stats;
	const char *op = l->opcode;
	uint32_t lines, n;

	if (l->n_addr > w->sectors_cap) {
		w->sectors_cap = l->n_addr;
		w->sectors = g_renew(uint64_t, w->sectors, w->sectors_cap);
	}
	n = coalesce(w->coalescer, l->addr, l->n_addr, w->sectors, &lines);
	st[WI_LINES]++;
	/* the reference's substring tests, in its order */
	if (strstr(op, "RED")) {
		st[WI_RED_REQS]++;
		st[WI_ATOM_RED_TRANS] += n;
		return;
	}
	if (strstr(op, "ATOM")) {
		st[WI_ATOM_REQS]++;
		st[WI_ATOM_RED_TRANS] += n;
		return;
	}
	if (strstr(op, "LDG") || strstr(op, "STG")) {
		w->is_local = false;
		if (strstr(op, "LDG")) {
			w->is_store = false;
			st[WI_GMEM_LD_REQS]++;
			st[WI_GMEM_LD_SECTORS] += n;
			st[WI_GMEM_LD_TRANS] += lines;
		} else {
			w->is_store = true;
			st[WI_GMEM_ST_REQS]++;
			st[WI_GMEM_ST_SECTORS] += n;
			st[WI_GMEM_ST_TRANS] += lines;
		}
	} else if (strstr(op, "LDL") || strstr(op, "STL")) {
		w->is_local = true;
		st[WI_LMEM_USED] = 1;
		if (strstr(op, "LDL")) {
			w->is_store = false;
			st[WI_LMEM_LD_REQS]++;
			st[WI_LMEM_LD_TRANS] += lines;
		} else {
			w->is_store = true;
			st[WI_LMEM_ST_REQS]++;
			st[WI_LMEM_ST_TRANS] += lines;
		}
	}
	st[w->is_store ? WI_UMEM_ST_SECTORS : WI_UMEM_LD_SECTORS] += n;

	struct mem_req r;

	mem_req_init(&r, w->is_store ? MEM_WRITE : MEM_READ, 0, MEM_ATOM);
	r.space = w->is_local ? MEM_LOCAL : MEM_GLOBAL;
	r.sm = w->c.index < 0 ? 0 : w->c.index;
	r.warp = l->warp;
	for (uint32_t i = 0; i < n; i++) {
		r.addr = r.part_addr = w->sectors[i];
		ss_port_send(w->mem, &r.hdr);
	}
}

static void issue_round(struct ss_engine *e, void *data);

/* One line of each block that has one left, in dispatch order; then the
 * next round at the next tick, or the kernel's end. */
static void issue_round(struct ss_engine *e, void *data)
{
	struct warp_interleaver *w = data;
	bool more = false;

	for (guint i = 0; i < w->resident->len; i++) {
		struct resident *b = &g_array_index(w->resident, struct resident, i);

		if (b->next >= b->block->n_lines)
			continue;
		issue_line(w, &b->block->lines[b->next++]);
		more |= b->next < b->block->n_lines;
	}
	if (more) {
		ss_schedule_in(e, 1, SS_PRIO_ISSUE + (w->c.index < 0 ? 0 : w->c.index),
			       issue_round, w);
		return;
	}
	g_array_set_size(w->resident, 0);
	send_control(w, MEM_CTL_KERNEL_END, 0, w->kernel ? w->kernel->id : 0);
}

static void wi_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);
	const struct gpu_dispatch_msg *d = (const struct gpu_dispatch_msg *)m;
	struct resident r = { 0 };

	switch (m->kind) {
	case GPU_DISPATCH_BEGIN:
		w->kernel = d->kernel;
		w->is_store = w->is_local = false;
		g_array_set_size(w->resident, 0);
		send_control(w, MEM_CTL_KERNEL_BEGIN, d->occ ? d->occ->l1_bytes : 0,
			     d->kernel->id);
		break;
	case GPU_DISPATCH_BLOCK:
		r.block = d->block;
		g_array_append_val(w->resident, r);
		c->stats[WI_BLOCKS]++;
		break;
	case GPU_DISPATCH_GO:
		/* in SM order within a tick, so the runs are reproducible */
		ss_schedule_in(c->engine, 1, SS_PRIO_ISSUE + (c->index < 0 ? 0 : c->index),
			       issue_round, w);
		break;
	}
}

static void wi_destroy(struct ss_component *c)
{
	struct warp_interleaver *w = SS_COMPONENT(c, struct warp_interleaver, c);

	coalescer_free(w->coalescer);
	g_array_free(w->resident, TRUE);
	g_free(w->sectors);
}

static const struct ss_component_ops ops = {
	.xcreate = wi_create,
	.xrecv = wi_recv,
	.xdestroy = wi_destroy,
};

static const struct ss_component_type warp_interleaver_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "warp_interleaver",
	.summary = "One SM: interleaves its blocks' memory instructions, coalesces them into sector requests",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct warp_interleaver),
};

SS_PLUGIN_ENTRY(warp_interleaver)
{
	return ss_registry_add(r, &warp_interleaver_type, error);
}
