/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From a checked plan to a running engine: create every instance with its
 * port sizes, bind the planned pairs, then call each type's create and init,
 * and for a run start, the engine, and finish.  Its own file because it is
 * the only part that runs component code; everything before works on the
 * plan alone.
 */
#include "config.h"

#include "sim_internal.h"

struct ss_engine *ss_sim_engine(struct ss_sim *s)
{
	return s->engine;
}

static gboolean component_failed(GError **error, const char *loc,
				 struct ss_component *c, const char *phase,
				 GError *inner, int code)
{
	g_set_error(error, SS_ERROR, code, "%s: %s (type %s): %s: %s", loc,
		    c->name, c->type->name, phase,
		    inner ? inner->message : "failed without a reason");
	g_clear_error(&inner);
	return FALSE;
}

/* Every instance, in plan order, with its ports sized and unbound. */
static void add_instances(struct ss_sim *s)
{
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		pc->inst = g_new0(struct ss_component *, pc->count);
		for (unsigned i = 0; i < pc->count; i++) {
			struct ss_component *x = ss_engine_add_component(s->engine,
				pc->type, pc->sec->name, pc->is_array ? (int)i : -1,
				pc->count);

			for (unsigned g = 0; g < pc->n_groups; g++)
				ss_component_alloc_ports(x, g, pc->size[i * pc->n_groups + g]);
			if (pc->thread_group)
				ss_partition_set_group(x, pc->thread_group);
			pc->inst[i] = x;
		}
	}
}

/* Bind every planned pair; the planner ran the same check, so a refusal
 * here is a bug. */
static gboolean bind_pairs(struct ss_sim *s, GError **error)
{
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];

		for (guint k = 0; k < l->pairs->len; k++) {
			struct plan_pair *p = &g_array_index(l->pairs, struct plan_pair, k);
			struct ss_component *fc = p->fc->inst[p->fi], *tc = p->tc->inst[p->ti];
			enum ss_link_result r = ss_port_link(
				&fc->port_groups[p->fg].ports[p->fx],
				&tc->port_groups[p->tg].ports[p->tx], l->latency);

			if (r != SS_LINK_OK) {
				g_set_error(error, SS_ERROR, SS_ERROR_INTERNAL,
					    "%s: [link %s] validated but failed to bind: %s",
					    l->sec->loc, l->sec->name, ss_link_result_str(r));
				return FALSE;
			}
		}
	}
	return TRUE;
}

/* Each type's create, with the instance's parameters, then each init. */
static gboolean create_and_init(struct ss_sim *s, GError **error)
{
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		for (unsigned i = 0; i < pc->count; i++) {
			struct ss_component *x = pc->inst[i];
			GError *inner = NULL;

			if (pc->type->ops->xcreate &&
			    pc->type->ops->xcreate(x, pc->params[i], &inner) != 0) {
				/* a half-built instance cleans up after itself */
				/* create refuses parameter combinations the
				 * tables cannot express: a configuration error */
				return component_failed(error, pc->sec->loc, x,
							"create", inner,
							SS_ERROR_CONFIG);
			}
			x->created = true;
		}
	}
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		for (unsigned i = 0; i < pc->count; i++) {
			struct ss_component *x = pc->inst[i];
			GError *inner = NULL;

			if (pc->type->ops->xinit && pc->type->ops->xinit(x, &inner) != 0)
				return component_failed(error, pc->sec->loc, x,
							"init", inner,
							SS_ERROR_CONFIG);
		}
	}
	return TRUE;
}

void ss_sim_set_run_options(struct ss_sim *s, const struct ss_run_options *o)
{
	s->run_options = o;
}

gboolean ss_sim_build(struct ss_sim *s, GError **error)
{
	g_return_val_if_fail(!s->built, FALSE);
	s->built = true;
	s->engine = ss_engine_new();
	if (s->run_options)
		ss_engine_set_run_options(s->engine, s->run_options);
	ss_engine_set_memory(s->engine, s->memory);
	s->run_options = NULL;
	add_instances(s);
	return bind_pairs(s, error) && create_and_init(s, error);
}

/*
 * The run's thread count: --threads N, else one per online core when
 * every component's type keeps the rules of a split run, else one (a
 * plugin that shares priorities with others would be refused on
 * several).
 */
static unsigned run_threads(struct ss_engine *e)
{
	int n = ss_engine_run_options(e)->threads;

	if (n > 0)
		return (unsigned)n;
	return ss_engine_every_type_has_flag(e, SS_TYPE_PARTITION_SAFE) ?
		MAX(g_get_num_processors(), 1u) : 1;
}

/* The run is over: the first n components, whose xstart was called, stop
 * what they run beside the engine (xstop), before anything is freed. */
static void stop_components(struct ss_engine *e, guint n)
{
	for (guint i = 0; i < n; i++) {
		struct ss_component *x = e->components->pdata[i];

		if (x->type->ops->xstop)
			x->type->ops->xstop(x);
	}
}

gboolean ss_sim_run(struct ss_sim *s, GError **error)
{
	struct ss_engine *e = s->engine;
	unsigned threads;

	g_return_val_if_fail(s->built && !s->started, FALSE);
	s->started = true;
	threads = run_threads(e);
	/*
	 * A tick limit is one clock's: such a run keeps one; so does one
	 * whose components scheduled before starting (xinit), since such
	 * events belong to no partition yet.
	 */
	if (threads > 1 && !s->max_ticks && !ss_engine_pending(e)) {
		unsigned n_parts = ss_partition_plan(e, threads);

		if (n_parts > 1)
			ss_partition_prepare(e, n_parts);
	}
	for (guint i = 0; i < e->components->len; i++) {
		struct ss_component *x = e->components->pdata[i];
		GError *inner = NULL;
		int ret = 0;

		/* its first events go to its partition's queue */
		if (e->parts)
			ss_partition_enter(x);
		if (x->type->ops->xstart)
			ret = x->type->ops->xstart(x, &inner);
		ss_partition_leave();
		if (ret != 0) {
			/* a bad input or option is the user's to fix, not a bug */
			int code = inner && inner->domain == SS_ERROR &&
				   (inner->code == SS_ERROR_CONFIG ||
				    inner->code == SS_ERROR_INPUT) ?
				   inner->code : SS_ERROR_INTERNAL;

			stop_components(e, i + 1);
			return component_failed(error, "run", x, "start", inner, code);
		}
	}
	if (e->parts)
		ss_partition_run(e, threads);
	else
		ss_engine_run(e, s->max_ticks ? s->max_ticks : SS_TICK_MAX);
	stop_components(e, e->components->len);
	/*
	 * Events left past the limit: the run did not reach its end, so its
	 * results are not whole.  It fails as a limit (exit status 1); what
	 * components finished before it stays theirs to keep (a report keeps
	 * its finished kernels for --resume).
	 */
	if (!e->failure && !e->stop && s->max_ticks && ss_engine_pending(e))
		ss_engine_fail(e, g_error_new(SS_ERROR, SS_ERROR_LIMIT,
					      "%s: max_ticks = %" G_GUINT64_FORMAT " stopped the run before its end (%zu event%s still to run); expected a larger max_ticks, or 0 for no limit",
					      s->max_ticks_loc ? s->max_ticks_loc : "[simulation]",
					      s->max_ticks, ss_engine_pending(e),
					      ss_engine_pending(e) == 1 ? "" : "s"));
	if (e->failure) {
		/* what a component stopped on is the result of the run */
		g_propagate_error(error, g_error_copy(e->failure));
		return FALSE;
	}
	for (guint i = 0; i < e->components->len; i++) {
		struct ss_component *x = e->components->pdata[i];

		if (x->type->ops->xfinish)
			x->type->ops->xfinish(x);
	}
	if (e->failure) {
		g_propagate_error(error, g_error_copy(e->failure));
		return FALSE;
	}
	return TRUE;
}
