/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * l2_slice_set: the L2 as a set of sector-cache slices behind one set of
 * ports, without a crossbar model.  Requests from the SMs' L1s arrive on
 * cpu_side[i]; each goes to the slice its address maps to; a slice's
 * traffic leaves on mem_side[slice % mem_side_count].
 *
 * merge = rr is the reference's L2 input (model.md 9, rr_merge.h): the L1
 * miss streams merged round-robin over the inputs, one request at a time.
 * merge = arrival serves requests as they come.
 *
 * A kernel ends when every input has ended it: every slice then does its
 * final write-back and kernel-end policy, and one end goes down each
 * mem_side port.
 */
#include "config.h"

#include <string.h>
#include <sectorsim/sectorsim.h>
#include <sectorsim/mem.h>
#include "rr_merge.h"
#include "sector_cache.h"

enum l2_mapping { MAP_SINGLE, MAP_LINE };
enum l2_merge { MERGE_RR, MERGE_ARRIVAL };

static const char *const mapping_names[] = { "single", "line", NULL };
static const char *const merge_names[] = { "rr", "arrival", NULL };

static const struct ss_param_desc params[] = {
	{ "slices", SS_P_UINT, "1", "number of slices; every cache parameter is per slice", NULL, 1, 4096, 0 },
	{ "mapping", SS_P_ENUM, "single", "slice of an address: single (one slice), line (line number modulo slices)", mapping_names, 0, 0, 0 },
	{ "merge", SS_P_ENUM, "rr", "order of the inputs: rr (round-robin over inputs, one request at a time, the reference's) or arrival", merge_names, 0, 0, 0 },
	SC_PARAM_ROWS,
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the L1s, one input per SM" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, true, true, "traffic to DRAM; slice s uses mem_side[s % mem_side_count]" },
	{ NULL, 0, NULL, false, false, NULL },
};

static const struct ss_stat_desc stats[] = {
	SC_STAT_ROWS,
	{ NULL, 0, NULL, NULL, NULL },
};

G_STATIC_ASSERT(G_N_ELEMENTS(stats) == SC_N_STATS + 1);

struct l2_slice_set;

struct l2_slice {
	struct l2_slice_set *l2;
	struct sc_cache *cache;
	struct ss_port *out;
};

struct l2_slice_set {
	struct ss_component c;
	unsigned n_in, n_out, n_slices;
	enum l2_mapping mapping;
	unsigned line_shift;
	struct l2_slice *slice;
	struct ss_port **mem_side;
	struct sc_kernel_end end;
	struct rr_merge *merge;		/* the inputs, in the order of `merge` */
	bool begun;
};

static void l2_destroy(struct ss_component *c);
static void serve(void *ctx, const struct mem_req *r);

static void emit_down(void *ctx, const struct mem_req *r)
{
	struct l2_slice *s = ctx;

	ss_port_send(s->out, &r->hdr);
}

static int l2_create(struct ss_component *c, const struct ss_params *p,
		     GError **err)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);
	struct sc_config cfg;

	if (!sc_config_from_params(p, &cfg, &l2->end, err))
		return -1;
	l2->n_slices = ss_param_uint(p, "slices");
	l2->mapping = ss_param_enum(p, "mapping");
	if (l2->mapping == MAP_SINGLE && l2->n_slices != 1) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "mapping = single takes slices = 1, not %u; expected mapping = line for several slices",
			    l2->n_slices);
		return -1;
	}
	l2->line_shift = __builtin_ctz(cfg.line_bytes);
	l2->n_in = ss_component_port_count(c, "cpu_side");
	l2->n_out = ss_component_port_count(c, "mem_side");
	l2->mem_side = g_new0(struct ss_port *, l2->n_out);
	for (unsigned i = 0; i < l2->n_out; i++)
		l2->mem_side[i] = ss_component_port(c, "mem_side", i);
	l2->merge = rr_merge_new(l2->n_in, ss_param_enum(p, "merge") == MERGE_ARRIVAL,
				 serve, l2);
	l2->slice = g_new0(struct l2_slice, l2->n_slices);
	for (unsigned s = 0; s < l2->n_slices; s++) {
		char *why = NULL;

		l2->slice[s].l2 = l2;
		l2->slice[s].out = l2->mem_side[s % l2->n_out];
		/* the slices share one table of counters: the L2's totals */
		l2->slice[s].cache = sc_new(&cfg, c->stats, emit_down,
					    &l2->slice[s], &why);
		if (!l2->slice[s].cache) {
			g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s", why);
			g_free(why);
			l2_destroy(c);	/* a failed create cleans up after itself */
			return -1;
		}
	}
	return 0;
}

static void serve(void *ctx, const struct mem_req *r)
{
	struct l2_slice_set *l2 = ctx;
	unsigned s = 0;

	if (l2->mapping == MAP_LINE)
		s = (r->addr >> l2->line_shift) % l2->n_slices;
	sc_access(l2->slice[s].cache, r);
}

/* Every slice closes the kernel; one end goes down each port. */
static void end_kernel(struct l2_slice_set *l2, const struct mem_req *marker)
{
	for (unsigned s = 0; s < l2->n_slices; s++)
		sc_end_kernel(l2->slice[s].cache, &l2->end);
	l2->begun = false;
	for (unsigned i = 0; i < l2->n_out; i++)
		ss_port_send(l2->mem_side[i], &marker->hdr);
}

static void control(struct l2_slice_set *l2, struct ss_port *in,
		    const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* one begin per kernel goes down, not one per input */
		if (!l2->begun) {
			l2->begun = true;
			for (unsigned i = 0; i < l2->n_out; i++)
				ss_port_send(l2->mem_side[i], &r->hdr);
		}
		return;
	case MEM_CTL_KERNEL_END:
		if (rr_merge_end(l2->merge, in->index))
			end_kernel(l2, r);
		return;
	case MEM_CTL_FLUSH:
		for (unsigned s = 0; s < l2->n_slices; s++)
			sc_flush(l2->slice[s].cache);
		break;
	case MEM_CTL_INVALIDATE:
		for (unsigned s = 0; s < l2->n_slices; s++)
			sc_invalidate(l2->slice[s].cache);
		break;
	}
	for (unsigned i = 0; i < l2->n_out; i++)
		ss_port_send(l2->mem_side[i], &r->hdr);
}

static void l2_recv(struct ss_component *c, struct ss_port *in,
		    const struct ss_msg *m)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (m->kind == MEM_CONTROL)
		control(l2, in, r);
	else
		rr_merge_push(l2->merge, in->index, r);
}

static void l2_destroy(struct ss_component *c)
{
	struct l2_slice_set *l2 = SS_COMPONENT(c, struct l2_slice_set, c);

	for (unsigned s = 0; l2->slice && s < l2->n_slices; s++)
		sc_free(l2->slice[s].cache);
	rr_merge_free(l2->merge);
	g_free(l2->slice);
	g_free(l2->mem_side);
}

static const struct ss_component_ops ops = {
	.xcreate = l2_create,
	.xrecv = l2_recv,
	.xdestroy = l2_destroy,
};

static const struct ss_component_type l2_slice_set_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "l2_slice_set",
	.summary = "The L2: sector-cache slices behind one set of ports, inputs merged round-robin or on arrival",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct l2_slice_set),
};

SS_PLUGIN_ENTRY(l2_slice_set)
{
	return ss_registry_add(r, &l2_slice_set_type, error);
}
