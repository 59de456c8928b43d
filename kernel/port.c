/* SPDX-License-Identifier: BSD-3-Clause */
/* Typed ports: the check every link passes (the same for the INI planner and
 * for binding), binding with a reason on failure, the unbound-port stub, and
 * the lookups and failure a component makes through its own handle. */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include "internal.h"

/* The text of each reason, indexed by -code (the codes are 0, -1, -2, ...). */
static const char *const link_result_text[] = {
	[-SS_LINK_OK]		= "ok",
	[-SS_LINK_NO_COMPONENT]	= "no such component",
	[-SS_LINK_NO_PORT]	= "no such port",
	[-SS_LINK_WRONG_DIR]	= "wrong direction (links go from an out port to an in port)",
	[-SS_LINK_PROTOCOL]	= "protocol mismatch",
	[-SS_LINK_WAS_LINKED]	= "endpoint already linked",
	[-SS_LINK_INDEX]	= "port index out of range",
	[-SS_LINK_CARDINALITY]	= "endpoint lists differ in length",
	[-SS_LINK_UNBOUND]	= "required port left unbound",
};

const char *ss_link_result_str(enum ss_link_result r)
{
	int i = -(int)r;

	if (i < 0 || i >= (int)G_N_ELEMENTS(link_result_text))
		return "unknown link result";
	return link_result_text[i];
}

enum ss_link_result ss_port_check_link(const struct ss_port_desc *out,
				       bool out_linked,
				       const struct ss_port_desc *in,
				       bool in_linked)
{
	if (out->dir != SS_PORT_OUT || in->dir != SS_PORT_IN)
		return SS_LINK_WRONG_DIR;
	if (strcmp(out->protocol, in->protocol) != 0)
		return SS_LINK_PROTOCOL;
	if (out_linked || in_linked)
		return SS_LINK_WAS_LINKED;
	return SS_LINK_OK;
}

/*
 * The null object of an unbound port: sending on it is a component bug (it
 * should have checked ss_port_is_bound), and dropping the message would
 * change the results silently, so stop with the port's name.
 */
static void unbound_recv(struct ss_component *c, struct ss_port *self,
			 const struct ss_msg *m)
{
	(void)m;
	g_error("%s: message sent on port '%s' that is not linked",
		c->name, self->desc->name);
}

void ss_port_init_unbound(struct ss_port *p, struct ss_component *owner,
			  const struct ss_port_desc *d, unsigned index)
{
	*p = (struct ss_port){
		.peer_recv = unbound_recv,
		.peer_comp = owner,
		.peer = p,
		.owner = owner,
		.desc = d,
		.index = index,
	};
}

void ss_component_alloc_ports(struct ss_component *c, unsigned group,
			      unsigned n)
{
	struct ss_port_group *g = &c->port_groups[group];

	g_free(g->ports);
	g->n = n;
	g->ports = g_new0(struct ss_port, n ? n : 1);
	for (unsigned i = 0; i < n; i++)
		ss_port_init_unbound(&g->ports[i], c, g->desc, i);
}

enum ss_link_result ss_port_link(struct ss_port *out, struct ss_port *in,
				 uint64_t latency)
{
	enum ss_link_result r = ss_port_check_link(out->desc, out->bound,
						   in->desc, in->bound);

	if (r != SS_LINK_OK)
		return r;

	out->peer_recv = in->owner->type->ops->xrecv;
	out->peer_comp = in->owner;
	out->peer = in;
	out->latency = latency;
	out->bound = true;

	in->peer_recv = out->owner->type->ops->xrecv;
	in->peer_comp = out->owner;
	in->peer = out;
	in->latency = latency;
	in->bound = true;
	return SS_LINK_OK;
}

static struct ss_port_group *find_group(const struct ss_component *c,
					const char *name)
{
	for (unsigned g = 0; g < c->n_port_groups; g++)
		if (strcmp(c->port_groups[g].desc->name, name) == 0)
			return &c->port_groups[g];
	return NULL;
}

struct ss_port *ss_component_port(struct ss_component *c, const char *name,
				  unsigned index)
{
	struct ss_port_group *g = find_group(c, name);

	if (!g || index >= g->n)
		return NULL;
	return &g->ports[index];
}

unsigned ss_component_port_count(const struct ss_component *c,
				 const char *name)
{
	struct ss_port_group *g = find_group(c, name);

	return g ? g->n : 0;
}

unsigned ss_port_peer_flags(const struct ss_port *p)
{
	const struct ss_component *c;

	if (!p->bound)
		return 0;
	c = p->peer->owner;
	for (unsigned g = 0; g < c->n_port_groups; g++)
		if (c->port_groups[g].desc == p->peer->desc)
			return c->port_groups[g].flags;
	return 0;
}

void ss_component_set_port_flags(struct ss_component *c, const char *name,
				 unsigned flags)
{
	struct ss_port_group *g = find_group(c, name);

	if (g)
		g->flags = flags;
	else
		g_critical("%s: no port named %s", c->name, name);
}

void ss_component_add_port_flags(struct ss_component *c, const char *name,
				 unsigned flags)
{
	struct ss_port_group *g = find_group(c, name);

	if (g)
		g->flags |= flags;
	else
		g_critical("%s: no port named %s", c->name, name);
}

bool ss_component_port_timeless(const struct ss_component *c, const char *name)
{
	struct ss_port_group *g = find_group(c, name);

	if (!g) {
		g_critical("%s: no port named %s", c->name, name);
		return false;
	}
	for (unsigned k = 0; k < g->n; k++)
		if (g->ports[k].bound && !(ss_port_peer_flags(&g->ports[k]) & SS_PORT_TIMELESS))
			return false;
	return true;
}

void ss_component_set_port_lookahead(struct ss_component *c,
				     const char *name, uint64_t ticks)
{
	struct ss_port_group *g = find_group(c, name);

	if (g)
		g->lookahead = ticks;
	else
		g_critical("%s: no port named %s", c->name, name);
}

void ss_component_fail(struct ss_component *c, int code, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ss_engine_fail(c->engine, g_error_new(SS_ERROR, code, "%s: %s", c->name, what));
	g_free(what);
}
