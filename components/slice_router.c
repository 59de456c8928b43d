/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * slice_router: the L2's address routing on its own, so that the slices
 * can be separate sector_cache components (configs/titanv-slices.ini
 * wires 48 of them; doc/INTERNALS.md, section 11).  Requests
 * from the L1s arrive on cpu_side[i] and leave at once, in arrival order,
 * on mem_side[s], s being the slice the address maps to: the same
 * mapping parameters as l2_slice_set, and with mapping = gpgpusim the
 * request carries the partition address its slice's set index takes
 * (index_on = partition).
 *
 * Control messages do what l2_slice_set (merge = arrival) does with them,
 * so that the slices behind a router see exactly what the slices of an
 * l2_slice_set see: one kernel begin per kernel to every slice; a
 * kernel's end to every slice, in slice order, once every input has ended
 * it; a flush or an invalidation to every slice, in slice order, at once.
 *
 * With timing = true (slices in timing mode) a request goes down with the
 * input it came from in `route`, and a slice's answer or refusal goes back
 * up that input; a slice's retry goes up the inputs it refused since its
 * last, as the slices of an l2_slice_set send theirs.
 */
#include "config.h"

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/mem.h>
#include "cache_params.h"

static const struct ss_param_desc params[] = {
	SLICE_MAP_PARAM_ROWS,
	{ "line_bytes", SS_P_SIZE, "128B", "mapping = line: the line whose number, modulo the slices, picks the slice", NULL, 32, 65536, SS_PF_POW2 },
	{ "timing", SS_P_BOOL, "false", "the slices are in timing mode: their answers go back up the input each request came from", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the L1s, one input per SM" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, true, true, "one output per slice, in slice order" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct slice_router {
	struct ss_component c;
	unsigned n_in, n_out, n_ended;
	struct slice_map map;
	struct ss_port **mem_side;
	struct ss_port **cpu_side;	/* timing only */
	uint8_t *refused;	/* timing: [slice * n_in + input], owed a retry */
	bool *ended;		/* per input: it ended the current kernel */
	bool begun;
	bool timed;
};

static int router_create(struct ss_component *c, const struct ss_params *p,
			 GError **err)
{
	struct slice_router *rt = SS_COMPONENT(c, struct slice_router, c);
	char *given;
	bool ok;

	rt->n_in = ss_component_port_count(c, "cpu_side");
	rt->timed = ss_param_bool(p, "timing");
	if (!rt->timed)
		ss_component_set_port_flags(c, "cpu_side", SS_PORT_SILENT);	/* answers nothing */
	if (rt->timed && rt->n_in > UINT16_MAX + 1u) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "timing = true with %u inputs: answers name their input in 16 bits; expected at most 65536",
			    rt->n_in);
		return -1;
	}
	rt->n_out = ss_component_port_count(c, "mem_side");
	given = g_strdup_printf("%u mem_side outputs", rt->n_out);
	ok = slice_map_from_params(p, rt->n_out, given, ss_param_uint(p, "line_bytes"),
				   &rt->map, err);
	g_free(given);
	if (!ok)
		return -1;
	if (rt->map.mapping != SLICE_MAP_LINE && ss_param_is_set(p, "line_bytes")) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG,
			    "line_bytes: used only with mapping = line");
		return -1;
	}
	rt->mem_side = g_new0(struct ss_port *, rt->n_out);
	for (unsigned i = 0; i < rt->n_out; i++)
		rt->mem_side[i] = ss_component_port(c, "mem_side", i);
	rt->ended = g_new0(bool, rt->n_in);
	if (rt->timed) {
		rt->cpu_side = g_new0(struct ss_port *, rt->n_in);
		rt->refused = g_new0(uint8_t, (size_t)rt->n_in * rt->n_out);
		for (unsigned i = 0; i < rt->n_in; i++)
			rt->cpu_side[i] = ss_component_port(c, "cpu_side", i);
	}
	return 0;
}

/* What comes up from slice s: its answer to the input the request came
 * from, or a retry to the inputs it refused. */
G_GNUC_NO_INLINE static void from_slice(struct slice_router *rt, unsigned s,
					const struct mem_req *r)
{
	uint8_t *refused = rt->refused + (size_t)s * rt->n_in;

	if (!rt->timed) {
		ss_component_fail(&rt->c, SS_ERROR_CONFIG,
				  "an answer (kind %u) came up from a slice; expected timing = true on the router when the slices are in timing mode",
				  r->hdr.kind);
		return;
	}
	if (r->hdr.kind == MEM_RETRY) {
		for (unsigned i = 0; i < rt->n_in; i++)
			if (refused[i]) {
				refused[i] = 0;
				ss_port_send(rt->cpu_side[i], &r->hdr);
			}
		return;
	}
	if (r->route >= rt->n_in) {
		ss_component_fail(&rt->c, SS_ERROR_INTERNAL,
				  "an answer for input %u of %u", r->route, rt->n_in);
		return;
	}
	if (r->hdr.kind == MEM_REFUSE)
		refused[r->route] = 1;
	ss_port_send(rt->cpu_side[r->route], &r->hdr);
}

static void to_every_slice(struct slice_router *rt, const struct mem_req *r)
{
	for (unsigned i = 0; i < rt->n_out; i++)
		ss_port_send(rt->mem_side[i], &r->hdr);
}

static void control(struct slice_router *rt, struct ss_port *in,
		    const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* one begin per kernel, not one per input */
		if (!rt->begun) {
			rt->begun = true;
			to_every_slice(rt, r);
		}
		return;
	case MEM_CTL_KERNEL_END:
		if (rt->ended[in->index])
			g_error("%s: input %u ended the kernel twice", rt->c.name,
				in->index);
		rt->ended[in->index] = true;
		if (++rt->n_ended < rt->n_in)
			return;
		memset(rt->ended, 0, rt->n_in * sizeof(*rt->ended));
		rt->n_ended = 0;
		rt->begun = false;
		to_every_slice(rt, r);
		return;
	default:		/* flush, invalidate: every slice, now */
		to_every_slice(rt, r);
		return;
	}
}

static void router_recv(struct ss_component *c, struct ss_port *in,
			const struct ss_msg *m)
{
	struct slice_router *rt = SS_COMPONENT(c, struct slice_router, c);
	const struct mem_req *r = (const struct mem_req *)m;
	struct mem_req routed;
	uint64_t part_addr;
	uint32_t s;

	if (G_UNLIKELY(m->kind == MEM_CONTROL)) {
		control(rt, in, r);
		return;
	}
	if (G_UNLIKELY(in->desc->dir == SS_PORT_OUT)) {
		from_slice(rt, in->index, r);
		return;
	}
	s = slice_map_route(&rt->map, r, &part_addr);
	if (G_UNLIKELY(rt->timed)) {
		routed = *r;
		routed.part_addr = part_addr;
		routed.route = (uint16_t)in->index;
		ss_port_send(rt->mem_side[s], &routed.hdr);
		return;
	}
	if (part_addr == r->part_addr) {
		ss_port_send(rt->mem_side[s], m);
		return;
	}
	routed = *r;
	routed.part_addr = part_addr;
	ss_port_send(rt->mem_side[s], &routed.hdr);
}

static void router_destroy(struct ss_component *c)
{
	struct slice_router *rt = SS_COMPONENT(c, struct slice_router, c);

	g_free(rt->mem_side);
	g_free(rt->cpu_side);
	g_free(rt->refused);
	g_free(rt->ended);
}

static const struct ss_component_ops ops = {
	.xcreate = router_create,
	.xrecv = router_recv,
	.xdestroy = router_destroy,
};

static const struct ss_component_type slice_router_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "slice_router",
	.summary = "The L2's address routing alone: each request to its slice's output at once, with its partition address",
	.params = params,
	.ports = ports,
	.ops = &ops,
	.instance_size = sizeof(struct slice_router),
	.flags = SS_TYPE_PARTITION_SAFE,
};

SS_PLUGIN_ENTRY(slice_router)
{
	return ss_registry_add(r, &slice_router_type, error);
}
