/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Component instances: created in configuration order, found by name
 * ("l1[3]"), destroyed in reverse.  The engine owns the list and the name
 * index (engine.c creates and frees them); this file fills and empties them.
 */
#include "config.h"

#include "internal.h"

static void component_free(struct ss_component *c)
{
	for (unsigned g = 0; g < c->n_port_groups; g++)
		g_free(c->port_groups[g].ports);
	g_free(c->port_groups);
	g_free(c->stats);
	g_free((char *)c->name);
	g_free((char *)c->base);
	g_free(c);
}

void ss_instances_destroy(struct ss_engine *e)
{
	/* Destroy in reverse creation order: later components may refer to
	 * resources of earlier ones only through ports, but unwinding in
	 * reverse is what every user of a lifecycle expects. */
	for (guint i = e->components->len; i-- > 0;) {
		struct ss_component *c = e->components->pdata[i];

		/* only what was created is destroyed: a failed build
		 * leaves later components untouched */
		if (c->created && c->type->ops->xdestroy)
			c->type->ops->xdestroy(c);
		component_free(c);
	}
}

struct ss_component *ss_engine_add_component(struct ss_engine *e,
	const struct ss_component_type *t, const char *base, int index,
	unsigned array_size)
{
	size_t size = MAX(t->instance_size, sizeof(struct ss_component));
	struct ss_component *c = g_malloc0(size);
	unsigned n_groups = 0;

	c->type = t;
	c->engine = e;
	c->base = g_strdup(base);
	c->name = index < 0 ? g_strdup(base)
			    : g_strdup_printf("%s[%d]", base, index);
	c->index = index;
	c->array_size = index < 0 ? 1 : array_size;
	c->prio = SS_PRIO_DELIVER;
	c->link_prio = (int16_t)(INT16_MIN + 1 + MIN(e->components->len, (guint)INT16_MAX - 1));
	for (const struct ss_port_desc *d = t->ports; d && d->name; d++)
		n_groups++;
	c->n_port_groups = n_groups;
	c->port_groups = g_new0(struct ss_port_group, n_groups ? n_groups : 1);
	for (unsigned g = 0; g < n_groups; g++)
		c->port_groups[g].desc = &t->ports[g];
	g_ptr_array_add(e->components, c);
	g_hash_table_insert(e->by_name, (char *)c->name, c);
	ss_stats_register_table(c);
	return c;
}

struct ss_component *ss_engine_component(struct ss_engine *e, const char *name)
{
	return g_hash_table_lookup(e->by_name, name);
}
