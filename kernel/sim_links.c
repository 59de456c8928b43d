/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [link] sections to endpoint pairs.  Each end, "COMP[SEL].PORT[SEL]",
 * names instances i0..i1 and port elements p0..p1; an end expands to the
 * instances in order, each with its elements in order, and the two ends are
 * paired element by element.  A vector port written [*] without a
 * <port>_count takes as many elements per instance as the other end
 * spreads over it; written bare, it is its element 0, as if scalar (a
 * sector_cache's one input; several are cpu_side[*]).  Every pair passes ss_port_check_link(), the check binding
 * applies later, with the endpoints linked so far; a refusal is reported
 * through sim_refuse() by its reason code.  Its own file because it is the
 * one place the link syntax is read.
 */
#include "config.h"

#include <string.h>
#include "sim_internal.h"

static bool bad_syntax(struct ss_sim *s, struct ini_entry *e, const char *ctx)
{
	sim_err_at(s, e->loc, "%s bad endpoint; expected COMPONENT[SEL].PORT[SEL] with SEL one of N, A..B, *", ctx);
	return false;
}

static bool refused(struct link_fault *why, enum ss_link_result code,
		    enum link_check check)
{
	why->code = code;
	why->check = check;
	return false;
}

/*
 * "COMP[SEL]" up to the '.': which component and instances; *p is left on
 * the '.'.  False when the end cannot be used: why->code says why, or is
 * SS_LINK_OK when the error is already reported.  Sets ep->pc whenever the
 * component exists, so a refused link marks it.
 */
static bool parse_instances(struct ss_sim *s, struct ini_entry *e,
			    const char **p, struct endpoint *ep,
			    struct link_fault *why)
{
	const char *text = *p, *q = text;
	struct sel sel;

	while (*q && *q != '[' && *q != '.')
		q++;
	why->cname = g_strndup(text, q - text);
	ep->pc = g_hash_table_lookup(s->comp_by_name, why->cname);
	if (!ep->pc)
		return refused(why, SS_LINK_NO_COMPONENT, LC_ONLY);
	if (!ep->pc->ok)
		return false;	/* its own error was reported */
	if (!sim_parse_sel(&q, &sel) || *q != '.')
		return bad_syntax(s, e, why->ctx);
	why->pc = ep->pc;
	why->n[0] = ep->pc->count;
	if (sel.kind == SEL_NONE && ep->pc->is_array)
		return refused(why, SS_LINK_INDEX, LC_COMP_UNINDEXED);
	if (sel.kind != SEL_NONE && !ep->pc->is_array)
		return refused(why, SS_LINK_INDEX, LC_COMP_INDEXED);
	ep->i0 = sel.kind == SEL_ALL || sel.kind == SEL_NONE ? 0 : sel.a;
	ep->i1 = sel.kind == SEL_ALL ? ep->pc->count - 1
		 : sel.kind == SEL_NONE ? 0 : sel.b;
	if (ep->i1 >= ep->pc->count) {
		why->n[1] = ep->i1;
		return refused(why, SS_LINK_INDEX, LC_COMP_RANGE);
	}
	*p = q;
	return true;
}

/* "PORT[SEL]" after the '.': which port and elements; as parse_instances. */
static bool parse_port(struct ss_sim *s, struct ini_entry *e, const char *p,
		       struct endpoint *ep, struct link_fault *why)
{
	struct plan_comp *pc = ep->pc;
	const char *pstart = p;
	struct sel sel;
	int g = -1;

	while (*p && *p != '[')
		p++;
	why->pname = g_strndup(pstart, p - pstart);
	for (unsigned k = 0; k < pc->n_groups; k++)
		if (!strcmp(pc->type->ports[k].name, why->pname))
			g = k;
	if (g < 0)
		return refused(why, SS_LINK_NO_PORT, LC_ONLY);
	ep->group = g;
	ep->pd = &pc->type->ports[g];
	if (!sim_parse_sel(&p, &sel) || *p)
		return bad_syntax(s, e, why->ctx);

	int fixed = pc->explicit_count[g];

	if (!ep->pd->vector) {
		if (sel.kind != SEL_NONE)
			return refused(why, SS_LINK_INDEX, LC_PORT_INDEXED);
		ep->p0 = ep->p1 = 0;
	} else if (sel.kind == SEL_NONE) {
		/* bare: element 0, as a scalar port (a port that became a
		 * vector keeps its old links) */
		ep->p0 = ep->p1 = 0;
	} else if (sel.kind == SEL_ALL) {
		ep->port_auto = fixed < 0;
		ep->p0 = 0;
		ep->p1 = fixed < 0 ? 0 : (unsigned)fixed - 1;
	} else {
		if (fixed >= 0 && sel.b >= (unsigned)fixed) {
			why->n[1] = sel.b;
			why->n[2] = fixed;
			return refused(why, SS_LINK_INDEX, LC_PORT_RANGE);
		}
		ep->p0 = sel.a;
		ep->p1 = sel.b;
	}
	return true;
}

/* One end of a link; false when it is refused, which is reported here or
 * was with the component's own section. */
static bool parse_endpoint(struct ss_sim *s, struct plan_link *l,
			   struct ini_entry *e, struct endpoint *ep)
{
	const char *p = e->value;
	char *ctx = g_strdup_printf("[link %s] %s = %s:", l->sec->name, e->key, e->value);
	struct link_fault why = { .loc = e->loc, .ctx = ctx };
	bool ok;

	memset(ep, 0, sizeof(*ep));
	ok = parse_instances(s, e, &p, ep, &why) &&
	     parse_port(s, e, p + 1, ep, &why);
	if (why.code != SS_LINK_OK)
		sim_refuse(s, &why);
	g_free((char *)why.cname);
	g_free((char *)why.pname);
	g_free(ctx);
	return ok;
}

static unsigned ep_len(const struct endpoint *ep)
{
	return (ep->i1 - ep->i0 + 1) * (ep->p1 - ep->p0 + 1);
}

/* Unknown keys and latency =; the link is still planned after these. */
static void read_link_keys(struct ss_sim *s, struct plan_link *l)
{
	static const char *const link_keys[] = { "from", "to", "latency", NULL };
	struct ini_section *sec = l->sec;
	struct ini_entry *le = ini_section_get(sec, "latency");

	for (guint i = 0; i < sec->entries->len; i++) {
		struct ini_entry *e = sec->entries->pdata[i];

		if (!g_strv_contains(link_keys, e->key)) {
			const char *near = ss_did_you_mean(e->key, link_keys, 3);

			sim_err_at(s, e->loc, "[link %s] unknown key '%s'; expected from, to or latency%s%s%s",
				   sec->name, e->key, near ? "; did you mean '" : "",
				   near ? near : "", near ? "'?" : "");
		}
		e->used = true;
	}
	if (le) {
		guint64 v;

		if (!g_ascii_string_to_unsigned(le->value, 10, 0, G_MAXUINT32, &v, NULL))
			sim_err_at(s, le->loc, "[link %s] latency = %s: expected a whole number of ticks (0 = direct call)",
				   sec->name, le->value);
		else
			l->latency = v;
	}
}

/* Size a [*] end from the other end and compare the lengths; false, with
 * `why` filled, when they cannot be paired. */
static bool match_lengths(struct endpoint *f, struct endpoint *t,
					 struct ini_entry *fe, struct ini_entry *te,
					 struct link_fault *why)
{
	struct endpoint *a = f->port_auto ? f : t->port_auto ? t : NULL;

	why->loc = fe->loc;
	if (f->port_auto && t->port_auto)
		return refused(why, SS_LINK_CARDINALITY, LC_BOTH_AUTO);
	if (a) {
		struct endpoint *o = a == f ? t : f;
		unsigned inst = a->i1 - a->i0 + 1, len = ep_len(o);

		if (len % inst) {
			why->loc = (a == f ? fe : te)->loc;
			why->end = a == f ? "from" : "to";
			why->n[0] = len;
			why->n[1] = inst;
			return refused(why, SS_LINK_CARDINALITY, LC_SPREAD);
		}
		a->p1 = len / inst - 1;
	}
	if (ep_len(f) != ep_len(t)) {
		why->name = fe->value;
		why->other = te->value;
		why->n[0] = ep_len(f);
		why->n[1] = ep_len(t);
		return refused(why, SS_LINK_CARDINALITY, LC_LENGTHS);
	}
	return true;
}

/* Where an endpoint was linked already, or NULL. */
static const char *linked_at(const struct plan_comp *pc, unsigned inst,
			     unsigned group, unsigned idx)
{
	GHashTable *b = pc->bound[inst * pc->n_groups + group];

	return b ? g_hash_table_lookup(b, GUINT_TO_POINTER(idx + 1)) : NULL;
}

static void mark_linked(struct plan_comp *pc, unsigned inst, unsigned group,
			unsigned idx, const char *loc)
{
	GHashTable **b = &pc->bound[inst * pc->n_groups + group];

	if (!*b)
		*b = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_insert(*b, GUINT_TO_POINTER(idx + 1), (gpointer)loc);
}

/*
 * Pair the two ends element by element, each pair checked as binding will
 * check it.  False at the first refusal, with `why` filled; the pairs
 * before it stay, as they are valid.
 */
static bool expand_pairs(struct plan_link *l,
					const struct endpoint *f,
					const struct endpoint *t,
					struct ini_entry *fe, struct ini_entry *te,
					struct link_fault *why)
{
	unsigned n = ep_len(f), fnp = f->p1 - f->p0 + 1, tnp = t->p1 - t->p0 + 1;

	for (unsigned k = 0; k < n; k++) {
		struct plan_pair pr = {
			.fc = f->pc, .fi = f->i0 + k / fnp, .fg = f->group, .fx = f->p0 + k % fnp,
			.tc = t->pc, .ti = t->i0 + k / tnp, .tg = t->group, .tx = t->p0 + k % tnp,
		};
		const char *prev_f = linked_at(pr.fc, pr.fi, pr.fg, pr.fx);
		const char *prev_t = linked_at(pr.tc, pr.ti, pr.tg, pr.tx);
		enum ss_link_result r = ss_port_check_link(f->pd, prev_f != NULL,
							   t->pd, prev_t != NULL);

		switch (r) {
		case SS_LINK_OK:
			break;
		case SS_LINK_WRONG_DIR:
			/* reported at the end at fault, from first */
			why->loc = (f->pd->dir != SS_PORT_OUT ? fe : te)->loc;
			return refused(why, r, LC_ONLY);
		case SS_LINK_PROTOCOL:
			why->loc = te->loc;
			return refused(why, r, LC_ONLY);
		case SS_LINK_WAS_LINKED:
			why->loc = (prev_f ? fe : te)->loc;
			why->name = prev_f ? sim_ep_name(pr.fc, pr.fi, pr.fg, pr.fx)
					   : sim_ep_name(pr.tc, pr.ti, pr.tg, pr.tx);
			why->other = prev_f ? prev_f : prev_t;
			return refused(why, r, LC_ONLY);
		default:
			g_assert_not_reached();
		}
		mark_linked(pr.fc, pr.fi, pr.fg, pr.fx, fe->loc);
		mark_linked(pr.tc, pr.ti, pr.tg, pr.tx, te->loc);
		g_array_append_val(l->pairs, pr);
	}
	return true;
}

void sim_plan_link(struct ss_sim *s, struct ini_section *sec)
{
	struct plan_link *l = g_new0(struct plan_link, 1);
	struct ini_entry *fe = ini_section_get(sec, "from");
	struct ini_entry *te = ini_section_get(sec, "to");
	char *ctx = g_strdup_printf("[link %s]", sec->name);
	struct endpoint f, t;
	struct link_fault why = { .ctx = ctx, .f = &f, .t = &t };

	l->sec = sec;
	l->pairs = g_array_new(FALSE, FALSE, sizeof(struct plan_pair));
	g_ptr_array_add(s->links, l);
	read_link_keys(s, l);
	if (!fe || !te) {
		sim_err_at(s, sec->loc, "[link %s] has no '%s'; expected from = COMP.PORT and to = COMP.PORT",
			   sec->name, fe ? "to" : "from");
		goto out;
	}
	l->from = fe->value;
	l->to = te->value;
	bool fok = parse_endpoint(s, l, fe, &f);
	bool tok = parse_endpoint(s, l, te, &t);

	if (!fok || !tok) {
		if (f.pc)
			f.pc->link_failed = true;
		if (t.pc)
			t.pc->link_failed = true;
		goto out;
	}
	if (!match_lengths(&f, &t, fe, te, &why) ||
	    !expand_pairs(l, &f, &t, fe, te, &why)) {
		sim_refuse(s, &why);
		/* its ports' "not linked" would only repeat this error */
		f.pc->link_failed = true;
		t.pc->link_failed = true;
	}
	if (why.code == SS_LINK_WAS_LINKED)
		g_free((char *)why.name);
out:
	g_free(ctx);
}
