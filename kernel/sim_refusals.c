/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Why the planner refuses a link or leaves a port unlinked, one message per
 * reason code of the port layer (enum ss_link_result).  The planner decides
 * the code (sim_links.c, sim_ports.c); the text follows from the code here,
 * in one table.  Each message says what is wrong and what is expected
 * instead, and names the instances and ports as the INI writes them.  Its
 * own file so that the wording of every link error can be read in one place.
 */
#include "config.h"

#include <string.h>
#include "sim_internal.h"

static const char *dir_name(enum ss_port_dir d)
{
	return d == SS_PORT_OUT ? "out" : "in";
}

/* Every port of a type, "in[] (in, test.token), ctl (out, test.ctl)",
 * or "none". */
static char *port_list(const struct ss_component_type *t)
{
	GString *g = g_string_new(NULL);

	for (const struct ss_port_desc *p = t->ports; p && p->name; p++)
		g_string_append_printf(g, "%s%s%s (%s, %s)", g->len ? ", " : "",
				       p->name, p->vector ? "[]" : "",
				       dir_name(p->dir), p->protocol);
	if (!g->len)
		g_string_append(g, "none");
	return g_string_free(g, FALSE);
}

/* cname: the component as written. */
static char *no_component(struct ss_sim *s, const struct link_fault *f)
{
	GPtrArray *names = sim_component_names(s);
	char *hint = sim_suggest(f->cname, names);
	char *m = g_strdup_printf("no component '%s'%s", f->cname, hint);

	g_free(hint);
	g_ptr_array_free(names, TRUE);
	return m;
}

/* cname, pname as written; pc. */
static char *no_port(struct ss_sim *s, const struct link_fault *f)
{
	const struct plan_comp *pc = f->pc;
	GPtrArray *names = g_ptr_array_new();
	char *hint, *all, *m;

	(void)s;
	for (unsigned k = 0; k < pc->n_groups; k++)
		g_ptr_array_add(names, (gpointer)pc->type->ports[k].name);
	hint = sim_suggest(f->pname, names);
	all = port_list(pc->type);
	m = g_strdup_printf("component '%s' (type %s) has no port '%s'; ports: %s%s",
			    f->cname, pc->type->name, f->pname, all, hint);
	g_free(all);
	g_free(hint);
	g_ptr_array_free(names, TRUE);
	return m;
}

/* cname, pname as written; n[0] the instance count, n[1] the index
 * written, n[2] the port's <port>_count. */
static char *bad_index(struct ss_sim *s, const struct link_fault *f)
{
	const char *c = f->cname, *p = f->pname;
	unsigned count = f->n[0];

	(void)s;
	switch (f->check) {
	case LC_COMP_UNINDEXED:
		return g_strdup_printf("'%s' is an array of %u; expected %s[*], %s[N] or %s[A..B]",
				       c, count, c, c, c);
	case LC_COMP_INDEXED:
		return g_strdup_printf("'%s' is not an array (no count =); expected %s.PORT", c, c);
	case LC_COMP_RANGE:
		return g_strdup_printf("instance index %u out of range; '%s' has %u instances (0..%u)",
				       f->n[1], c, count, count - 1);
	case LC_PORT_INDEXED:
		return g_strdup_printf("port '%s' of '%s' is scalar; expected it without an index", p, c);
	case LC_PORT_RANGE:
		return g_strdup_printf("index %u out of range; %s_count = %u in [component %s]",
				       f->n[1], p, f->n[2], c);
	default:
		g_assert_not_reached();
	}
}

/* end ("from"/"to") with n[0] endpoints over n[1] instances (LC_SPREAD);
 * name, other: the from and to texts with n[0], n[1] their lengths
 * (LC_LENGTHS). */
static char *cardinality(struct ss_sim *s, const struct link_fault *f)
{
	(void)s;
	switch (f->check) {
	case LC_BOTH_AUTO:
		return g_strdup("both ends are vector ports sized by the other end ([*]); expected an explicit range on one side or a <port>_count");
	case LC_SPREAD:
		return g_strdup_printf("%s: cannot spread %u endpoints over %u instances; expected a multiple of %u",
				       f->end, f->n[0], f->n[1], f->n[1]);
	case LC_LENGTHS:
		return g_strdup_printf("from = %s expands to %u endpoints but to = %s expands to %u; expected equal lengths",
				       f->name, f->n[0], f->other, f->n[1]);
	default:
		g_assert_not_reached();
	}
}

/* f, t: the two ends; the first whose direction is wrong is named. */
static char *wrong_dir(struct ss_sim *s, const struct link_fault *f)
{
	const struct endpoint *w = f->f->pd->dir != SS_PORT_OUT ? f->f : f->t;
	bool swapped = f->f->pd->dir == SS_PORT_IN && f->t->pd->dir == SS_PORT_OUT;

	(void)s;
	return g_strdup_printf("%s: port '%s' of '%s' is an %s port; expected links from an out port to an in port%s",
			       w == f->f ? "from" : "to", w->pd->name,
			       w->pc->sec->name, dir_name(w->pd->dir),
			       swapped ? " (swap from and to)" : "");
}

/* f, t: the two ends. */
static char *protocol(struct ss_sim *s, const struct link_fault *f)
{
	const struct endpoint *a = f->f, *b = f->t;

	(void)s;
	return g_strdup_printf("protocol mismatch: %s.%s speaks %s, %s.%s speaks %s; expected the same protocol at both ends",
			       a->pc->sec->name, a->pd->name, a->pd->protocol,
			       b->pc->sec->name, b->pd->name, b->pd->protocol);
}

/* name: the endpoint; other: where it was linked first. */
static char *was_linked(struct ss_sim *s, const struct link_fault *f)
{
	(void)s;
	return g_strdup_printf("%s is already linked at %s; expected each endpoint in one link",
			       f->name, f->other);
}

/* pd: the port; name: it as written, "c[1].out" or "c[1].in[]" for a
 * whole vector (LC_REQUIRED), "c[1].in[2]" with n[0] the vector's size
 * (LC_GAP). */
static char *unbound(struct ss_sim *s, const struct link_fault *f)
{
	const struct ss_port_desc *pd = f->pd;

	(void)s;
	switch (f->check) {
	case LC_REQUIRED:
		return g_strdup_printf("%s (%s, %s) is required but not linked; expected a [link] with it as %s",
				       f->name, dir_name(pd->dir), pd->protocol,
				       pd->dir == SS_PORT_OUT ? "from" : "to");
	case LC_GAP:
		return g_strdup_printf("%s is not linked, but the vector port has %u elements; expected every element 0..%u linked",
				       f->name, f->n[0], f->n[0] - 1);
	default:
		g_assert_not_reached();
	}
}

/* The message of each reason code, indexed by -code. */
static char *(*const link_messages[])(struct ss_sim *, const struct link_fault *) = {
	[-SS_LINK_NO_COMPONENT]	= no_component,
	[-SS_LINK_NO_PORT]	= no_port,
	[-SS_LINK_WRONG_DIR]	= wrong_dir,
	[-SS_LINK_PROTOCOL]	= protocol,
	[-SS_LINK_WAS_LINKED]	= was_linked,
	[-SS_LINK_INDEX]	= bad_index,
	[-SS_LINK_CARDINALITY]	= cardinality,
	[-SS_LINK_UNBOUND]	= unbound,
};

void sim_refuse(struct ss_sim *s, const struct link_fault *f)
{
	unsigned i = -(int)f->code;
	char *m;

	g_assert(i < G_N_ELEMENTS(link_messages) && link_messages[i]);
	m = link_messages[i](s, f);
	sim_err_at(s, f->loc, "%s %s", f->ctx, m);
	g_free(m);
}
