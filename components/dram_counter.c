/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dram_counter: the end of the memory hierarchy.  It counts the 32-byte
 * read and write transactions that reach it (model.md 11: the reference's
 * DRAM numbers are the L2's traffic), per input when it has several
 * (one per channel).  A kernel's end, once every input has sent it, goes
 * on through `done` to whoever closes the kernel.
 */
#include "config.h"

#include <sectorsim/sectorsim.h>
#include <sectorsim/mem.h>

enum { DC_READS, DC_WRITES, DC_ATOMICS, DC_N_STATS };

static const struct ss_stat_desc stats[] = {
	[DC_READS] = { "reads", SS_STAT_COUNTER, "32-byte read transactions", NULL, NULL },
	[DC_WRITES] = { "writes", SS_STAT_COUNTER, "32-byte write transactions", NULL, NULL },
	[DC_ATOMICS] = { "atomics", SS_STAT_COUNTER, "32-byte atomic and reduction transactions (performed at the memory)", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};

static const struct ss_port_desc ports[] = {
	{ "req", SS_PORT_IN, MEM_PROTOCOL, true, true, "requests from the L2, one input per channel" },
	{ "done", SS_PORT_OUT, MEM_PROTOCOL, false, false, "a kernel's end, once every input has ended it" },
	{ NULL, 0, NULL, false, false, NULL },
};

struct dram_counter {
	struct ss_component c;
	struct ss_port *done;
	unsigned n_in, ended;
	bool begun;
	uint64_t **channel;	/* per input: reads, writes (several inputs only) */
};

static int dram_create(struct ss_component *c, const struct ss_params *p,
		       GError **err)
{
	struct dram_counter *d = SS_COMPONENT(c, struct dram_counter, c);

	d->done = ss_component_port(c, "done", 0);
	d->n_in = ss_component_port_count(c, "req");
	if (d->n_in > 1) {
		d->channel = g_new0(uint64_t *, 2 * d->n_in);
		for (unsigned i = 0; i < d->n_in; i++) {
			char *r = g_strdup_printf("channel[%u].reads", i);
			char *w = g_strdup_printf("channel[%u].writes", i);

			d->channel[2 * i] = ss_stat_add_counter(c, r, "32-byte reads of this channel");
			d->channel[2 * i + 1] = ss_stat_add_counter(c, w, "32-byte writes of this channel");
			g_free(r);
			g_free(w);
		}
	}
	return 0;
}

static void pass_on(struct dram_counter *d, const struct mem_req *r)
{
	if (ss_port_is_bound(d->done))
		ss_port_send(d->done, &r->hdr);
}

static void dram_control(struct dram_counter *d, const struct mem_req *r)
{
	switch (r->ctl) {
	case MEM_CTL_KERNEL_BEGIN:
		/* one begin per kernel goes on, not one per input */
		if (!d->begun) {
			d->begun = true;
			pass_on(d, r);
		}
		break;
	case MEM_CTL_KERNEL_END:
		if (++d->ended < d->n_in)
			break;
		d->ended = 0;
		d->begun = false;
		pass_on(d, r);
		break;
	default:
		pass_on(d, r);
		break;
	}
}

static void dram_recv(struct ss_component *c, struct ss_port *in,
		      const struct ss_msg *m)
{
	struct dram_counter *d = SS_COMPONENT(c, struct dram_counter, c);
	const struct mem_req *r = (const struct mem_req *)m;
	uint64_t n = (r->size + MEM_ATOM - 1) / MEM_ATOM;

	switch (m->kind) {
	case MEM_READ:
		c->stats[DC_READS] += n;
		if (d->channel)
			*d->channel[2 * in->index] += n;
		break;
	case MEM_WRITE:
		c->stats[DC_WRITES] += n;
		if (d->channel)
			*d->channel[2 * in->index + 1] += n;
		break;
	case MEM_ATOMIC:
	case MEM_REDUCTION:
		c->stats[DC_ATOMICS] += n;
		break;
	case MEM_CONTROL:
		dram_control(d, r);
		break;
	}
}

static void dram_destroy(struct ss_component *c)
{
	g_free(SS_COMPONENT(c, struct dram_counter, c)->channel);
}

static const struct ss_component_ops ops = {
	.xcreate = dram_create,
	.xrecv = dram_recv,
	.xdestroy = dram_destroy,
};

static const struct ss_component_type dram_counter_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "dram_counter",
	.summary = "DRAM as a counter of the 32-byte transactions that reach it",
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct dram_counter),
};

SS_PLUGIN_ENTRY(dram_counter)
{
	return ss_registry_add(r, &dram_counter_type, error);
}
