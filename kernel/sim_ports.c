/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How many elements each port of each instance gets, once all links are
 * planned: a scalar port has one; a vector port has its <port>_count, or
 * else one past the highest element any link names.  A required port with
 * no link, and an element of a vector below its size with no link, are
 * errors, unless a link naming the component was refused (that error says
 * it already).  Its own file because it runs after every link, over what
 * they bound.
 */
#include "config.h"

#include "sim_internal.h"

static void report_unbound(struct ss_sim *s, struct plan_comp *pc,
			   unsigned group, enum link_check check, char *name,
			   unsigned size)
{
	char *ctx = g_strdup_printf("[component %s]", pc->sec->name);
	struct link_fault why = {
		.code = SS_LINK_UNBOUND, .check = check, .loc = pc->sec->loc,
		.ctx = ctx, .pc = pc, .pd = &pc->type->ports[group],
		.name = name, .n = { size },
	};

	sim_refuse(s, &why);
	g_free(ctx);
	g_free(name);
}

/* The size of a vector port of one instance; reports what is unlinked. */
static unsigned size_vector(struct ss_sim *s, struct plan_comp *pc,
			    unsigned i, unsigned g, GHashTable *b)
{
	const struct ss_port_desc *pd = &pc->type->ports[g];
	unsigned size = 0;
	GHashTableIter it;
	gpointer key;

	if (b) {
		g_hash_table_iter_init(&it, b);
		while (g_hash_table_iter_next(&it, &key, NULL))
			size = MAX(size, GPOINTER_TO_UINT(key));
	}
	if (pc->explicit_count[g] >= 0)
		size = pc->explicit_count[g];
	if (pc->link_failed)
		return size;
	if (!size && pd->required) {
		char *inst = sim_inst_name(pc, i);

		report_unbound(s, pc, g, LC_REQUIRED,
			       g_strdup_printf("%s.%s[]", inst, pd->name), 0);
		g_free(inst);
	}
	for (unsigned x = 0; x < size; x++)
		if (!b || !g_hash_table_contains(b, GUINT_TO_POINTER(x + 1))) {
			report_unbound(s, pc, g, LC_GAP, sim_ep_name(pc, i, g, x), size);
			break;	/* the first gap says enough */
		}
	return size;
}

void sim_size_ports(struct ss_sim *s, struct plan_comp *pc)
{
	unsigned ng = pc->n_groups;

	pc->size = g_new0(unsigned, pc->count * ng + 1);
	for (unsigned i = 0; i < pc->count; i++) {
		for (unsigned g = 0; g < ng; g++) {
			const struct ss_port_desc *pd = &pc->type->ports[g];
			GHashTable *b = pc->bound[i * ng + g];
			unsigned size = 1;

			if (pd->vector)
				size = size_vector(s, pc, i, g, b);
			else if (pd->required && !pc->link_failed &&
				 (!b || !g_hash_table_size(b)))
				report_unbound(s, pc, g, LC_REQUIRED,
					       sim_ep_name(pc, i, g, 0), 0);
			pc->size[i * ng + g] = size;
		}
	}
}
