/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [component] and [template] sections to a plan_comp: the type, the count,
 * <port>_count keys and every instance's parameters.  A parameter's value,
 * lowest precedence first: the type's default, the templates of the extends
 * chain (farthest first), the component's plain keys, its indexed keys
 * (name[N], name[A..B]) in file order; -p overrides come later
 * (sim_override.c).  Its own file because it is the one place that knows
 * this precedence and which keys a section may hold.
 */
#include "config.h"

#include <string.h>
#include "sim_internal.h"

GPtrArray *sim_component_names(struct ss_sim *s)
{
	GPtrArray *n = g_ptr_array_new();

	for (guint i = 0; i < s->comps->len; i++)
		g_ptr_array_add(n, ((struct plan_comp *)s->comps->pdata[i])->sec->name);
	return n;
}

static GPtrArray *type_names(struct ss_sim *s)
{
	size_t n;
	const char **names = ss_registry_names(s->reg, &n);
	GPtrArray *a = g_ptr_array_new_with_free_func(NULL);

	for (size_t i = 0; i < n; i++)
		g_ptr_array_add(a, (gpointer)names[i]);
	g_free(names);
	return a;
}

GPtrArray *sim_allowed_keys(const struct ss_component_type *t, bool section)
{
	GPtrArray *k = g_ptr_array_new_with_free_func(g_free);

	if (section) {
		g_ptr_array_add(k, g_strdup("type"));
		g_ptr_array_add(k, g_strdup("count"));
		g_ptr_array_add(k, g_strdup("thread_group"));
	}
	g_ptr_array_add(k, g_strdup("extends"));
	for (const struct ss_param_desc *d = t->params; d && d->name; d++)
		g_ptr_array_add(k, g_strdup(d->name));
	for (const struct ss_port_desc *p = t->ports; section && p && p->name; p++)
		if (p->vector)
			g_ptr_array_add(k, g_strdup_printf("%s_count", p->name));
	return k;
}

static void unknown_key(struct ss_sim *s, struct plan_comp *pc,
			struct ini_section *sec, struct ini_entry *e,
			const char *key, bool section)
{
	GPtrArray *k = sim_allowed_keys(pc->type, section);
	char *hint = sim_suggest(key, k);
	char *via = sec == pc->sec ? g_strdup("")
		    : g_strdup_printf(" (used by [component %s])", pc->sec->name);

	sim_err_at(s, e->loc, "[%s %s]%s key '%s' is not a parameter of type %s%s%s",
		   sec->kind, sec->name, via, key, pc->type->name, hint,
		   *hint ? "" : " (see sectorsim --describe TYPE)");
	g_free(via);
	g_free(hint);
	g_ptr_array_free(k, TRUE);
}

void sim_set_param(struct ss_sim *s, struct ss_params *p, int idx,
		   const char *text, const char *dir, const char *loc,
		   const char *ctx)
{
	char *why = NULL;
	char *resolved_dir = dir ? g_canonicalize_filename(dir, NULL) : NULL;

	if (!ss_param_parse(&p->desc[idx], text, resolved_dir, &p->values[idx],
			    &why)) {
		sim_err_at(s, loc, "%s %s = %s: %s", ctx, p->desc[idx].name, text, why);
		g_free(why);
	}
	if (p->desc[idx].type == SS_P_PATH && p->values[idx].v.s) {
		/* Absolute, so that --dump-config output works from anywhere. */
		char *abs = g_canonicalize_filename(p->values[idx].v.s, NULL);

		g_free(p->values[idx].v.s);
		g_free(p->values[idx].text);
		p->values[idx].v.s = abs;
		p->values[idx].text = g_strdup(abs);
	}
	g_free(resolved_dir);
}

/* Whether `key` is the <port>_count of one of pc's vector ports. */
static bool is_port_count(const struct plan_comp *pc, const char *key)
{
	bool found = false;

	for (guint g = 0; g < pc->n_groups && !found; g++) {
		char *cnt = g_strdup_printf("%s_count", pc->type->ports[g].name);

		found = pc->type->ports[g].vector && !strcmp(cnt, key);
		g_free(cnt);
	}
	return found;
}

/* Apply the plain keys of one section (template or component). */
static void apply_plain_keys(struct ss_sim *s, struct plan_comp *pc,
			     struct ini_section *sec, struct ss_params *p)
{
	char *ctx = g_strdup_printf("[%s %s]", sec->kind, sec->name);

	for (guint i = 0; i < sec->entries->len; i++) {
		struct ini_entry *e = sec->entries->pdata[i];
		int idx;

		if (strchr(e->key, '[')) {
			/* a template has no instances: name[N] would be lost
			 * (said once, whatever extends it) */
			if (sec != pc->sec && !e->used) {
				e->used = true;
				sim_err_at(s, e->loc, "[template %s] %s: a template has no instances; expected indexed keys in the [component] that extends it, or a plain key",
					   sec->name, e->key);
			}
			continue;
		}
		if (!strcmp(e->key, "extends") || (sec == pc->sec &&
		    (!strcmp(e->key, "type") || !strcmp(e->key, "count") ||
		     !strcmp(e->key, "thread_group")))) {
			e->used = true;
			continue;
		}
		idx = ss_param_table_find(pc->type->params, e->key);
		if (idx < 0) {
			/* a template may not size ports: only the component */
			if (!(sec == pc->sec && is_port_count(pc, e->key)))
				unknown_key(s, pc, sec, e, e->key, sec == pc->sec);
			continue;
		}
		e->used = true;
		sim_set_param(s, p, idx, e->value, e->dir, e->loc, ctx);
	}
	g_free(ctx);
}

/* The template chain of a component, nearest first; NULL after an error. */
static GPtrArray *template_chain(struct ss_sim *s, struct plan_comp *pc)
{
	GPtrArray *chain = g_ptr_array_new();
	struct ini_section *cur = pc->sec;

	for (;;) {
		struct ini_entry *ext = ini_section_get(cur, "extends");

		if (!ext)
			return chain;
		ext->used = true;
		struct ini_section *t = ini_doc_section(s->doc, ext->value);

		if (!t || strcmp(t->kind, "template") != 0) {
			GPtrArray *names = g_ptr_array_new();

			for (guint i = 0; i < s->doc->sections->len; i++) {
				struct ini_section *x = s->doc->sections->pdata[i];

				if (!strcmp(x->kind, "template"))
					g_ptr_array_add(names, x->name);
			}
			char *hint = sim_suggest(ext->value, names);

			sim_err_at(s, ext->loc, "[%s %s] extends = %s: %s%s",
				   cur->kind, cur->name, ext->value,
				   t ? "that is not a template; expected the name of a [template NAME] section"
				     : "no such template", hint);
			g_free(hint);
			g_ptr_array_free(names, TRUE);
			g_ptr_array_free(chain, TRUE);
			return NULL;
		}
		for (guint i = 0; i < chain->len; i++)
			if (chain->pdata[i] == t) {
				sim_err_at(s, ext->loc, "[%s %s] extends = %s: template cycle; expected single inheritance without loops",
					   cur->kind, cur->name, ext->value);
				g_ptr_array_free(chain, TRUE);
				return NULL;
			}
		if (chain->len >= MAX_EXTENDS_DEPTH) {
			sim_err_at(s, ext->loc, "templates nested more than %d deep", MAX_EXTENDS_DEPTH);
			g_ptr_array_free(chain, TRUE);
			return NULL;
		}
		g_ptr_array_add(chain, t);
		cur = t;
	}
}

static bool parse_count(struct ss_sim *s, struct ini_entry *e,
			const char *ctx, uint64_t max, uint64_t *out)
{
	guint64 v;

	if (!g_ascii_string_to_unsigned(e->value, 10, 1, max, &v, NULL)) {
		sim_err_at(s, e->loc, "%s %s = %s: expected a whole number from 1 to %" G_GUINT64_FORMAT,
			   ctx, e->key, e->value, max);
		return false;
	}
	*out = v;
	return true;
}

/* count = and type =: how many instances of which type.  False when the
 * type is missing or unknown, which leaves nothing else to check. */
static bool plan_type(struct ss_sim *s, struct plan_comp *pc, const char *ctx)
{
	struct ini_section *sec = pc->sec;
	struct ini_entry *type = ini_section_get(sec, "type");
	struct ini_entry *count = ini_section_get(sec, "count");
	struct ini_entry *group = ini_section_get(sec, "thread_group");

	if (group) {
		group->used = true;
		if (!*group->value)
			sim_err_at(s, group->loc, "%s thread_group is empty; expected a name its components share with those of other sections", ctx);
		else
			pc->thread_group = g_intern_string(group->value);
	}
	if (count) {
		uint64_t n;

		count->used = true;
		if (parse_count(s, count, ctx, MAX_COUNT, &n)) {
			pc->is_array = true;
			pc->count = n;
		}
	}
	if (!type) {
		sim_err_at(s, sec->loc, "%s has no type; expected type = a component type (sectorsim --list)", ctx);
		return false;
	}
	type->used = true;
	pc->type = ss_registry_lookup(s->reg, type->value);
	if (!pc->type) {
		GPtrArray *types = type_names(s);
		char *hint = sim_suggest(type->value, types);
		char *all;

		g_ptr_array_add(types, NULL);
		all = types->len > 1 ? g_strjoinv(", ", (char **)types->pdata)
				     : g_strdup("none (load a plugin with plugins = NAME)");
		sim_err_at(s, type->loc, "%s type = %s: unknown component type; loaded types: %s%s",
			   ctx, type->value, all, hint);
		g_free(all);
		g_free(hint);
		g_ptr_array_free(types, TRUE);
		return false;
	}
	for (const struct ss_port_desc *p = pc->type->ports; p && p->name; p++)
		pc->n_groups++;
	return true;
}

/* The parameters all instances share: defaults, templates, plain keys. */
static struct ss_params *shared_params(struct ss_sim *s, struct plan_comp *pc)
{
	char *why = NULL;
	struct ss_params *base = ss_params_new_defaults(pc->type->params, &why);

	g_assert(base);	/* defaults were checked at registration */
	GPtrArray *chain = template_chain(s, pc);

	if (chain) {
		for (guint i = chain->len; i-- > 0;)
			apply_plain_keys(s, pc, chain->pdata[i], base);
		g_ptr_array_free(chain, TRUE);
	}
	apply_plain_keys(s, pc, pc->sec, base);
	return base;
}

/* <port>_count = N fixes a vector port's size; without it links size it. */
static void read_port_counts(struct ss_sim *s, struct plan_comp *pc,
			     const char *ctx)
{
	pc->explicit_count = g_new(int, pc->n_groups ? pc->n_groups : 1);
	for (unsigned g = 0; g < pc->n_groups; g++) {
		const struct ss_port_desc *p = &pc->type->ports[g];
		char *key = g_strdup_printf("%s_count", p->name);
		struct ini_entry *e = p->vector ? ini_section_get(pc->sec, key) : NULL;
		uint64_t n;

		pc->explicit_count[g] = -1;
		if (e) {
			e->used = true;
			if (parse_count(s, e, ctx, MAX_COUNT, &n))
				pc->explicit_count[g] = n;
		}
		g_free(key);
	}
}

/* name[N] = v and name[A..B] = v, in file order, on those instances. */
static void apply_indexed_keys(struct ss_sim *s, struct plan_comp *pc,
			       const char *ctx)
{
	struct ini_section *sec = pc->sec;

	for (guint k = 0; k < sec->entries->len; k++) {
		struct ini_entry *e = sec->entries->pdata[k];
		char *name = NULL;
		struct sel sel;

		if (!strchr(e->key, '['))
			continue;
		if (!sim_split_indexed(e->key, &name, &sel)) {
			sim_err_at(s, e->loc, "%s key '%s': bad index; expected name[N] or name[A..B]", ctx, e->key);
		} else if (!pc->is_array) {
			sim_err_at(s, e->loc, "%s key '%s': '%s' is not an array (no count =); expected %s = value",
				   ctx, e->key, sec->name, name);
		} else if (sel.b >= pc->count) {
			sim_err_at(s, e->loc, "%s key '%s': index %u out of range; expected indices 0..%u (count = %u)",
				   ctx, e->key, sel.b, pc->count - 1, pc->count);
		} else {
			int idx = ss_param_table_find(pc->type->params, name);

			if (idx < 0) {
				unknown_key(s, pc, sec, e, name, true);
			} else {
				e->used = true;
				for (unsigned i = sel.a; i <= sel.b; i++)
					sim_set_param(s, pc->params[i], idx, e->value, e->dir, e->loc, ctx);
			}
		}
		g_free(name);
	}
}

void sim_plan_component(struct ss_sim *s, struct ini_section *sec)
{
	struct plan_comp *pc = g_new0(struct plan_comp, 1);
	char *ctx = g_strdup_printf("[component %s]", sec->name);

	pc->sec = sec;
	pc->count = 1;
	g_ptr_array_add(s->comps, pc);
	g_hash_table_insert(s->comp_by_name, sec->name, pc);
	if (plan_type(s, pc, ctx)) {
		struct ss_params *base = shared_params(s, pc);

		read_port_counts(s, pc, ctx);
		pc->params = g_new0(struct ss_params *, pc->count);
		for (unsigned i = 0; i < pc->count; i++)
			pc->params[i] = ss_params_copy(base);
		ss_params_free(base);
		apply_indexed_keys(s, pc, ctx);
		pc->ok = true;
	}
	g_free(ctx);
}

/* A parameter without a default must be set on every instance. */
void sim_check_required(struct ss_sim *s, struct plan_comp *pc)
{
	for (int idx = 0; pc->type->params && pc->type->params[idx].name; idx++) {
		const struct ss_param_desc *d = &pc->type->params[idx];
		unsigned missing = 0, first = 0;

		if (d->def)
			continue;
		for (unsigned i = 0; i < pc->count; i++)
			if (!pc->params[i]->values[idx].set && !missing++)
				first = i;
		if (!missing)
			continue;
		if (pc->is_array && missing < pc->count)
			sim_err_at(s, pc->sec->loc, "[component %s] %s[%u]: required parameter '%s' is not set; expected %s = <%s> (%s)",
				   pc->sec->name, pc->sec->name, first, d->name, d->name,
				   ss_param_type_name(d->type), d->doc ? d->doc : "");
		else
			sim_err_at(s, pc->sec->loc, "[component %s] required parameter '%s' is not set; expected %s = <%s> (%s)",
				   pc->sec->name, d->name, d->name,
				   ss_param_type_name(d->type), d->doc ? d->doc : "");
	}
}

/* Whether a component's extends chain passes through template `name`. */
static bool extends_template(struct ss_sim *s, const struct plan_comp *pc,
			     const char *name)
{
	struct ini_section *cur = pc->sec;
	struct ini_entry *ext;

	for (int depth = 0; depth <= MAX_EXTENDS_DEPTH &&
	     (ext = ini_section_get(cur, "extends")); depth++) {
		if (!strcmp(ext->value, name))
			return true;
		cur = ini_doc_section(s->doc, ext->value);
		if (!cur)
			break;
	}
	return false;
}

/* A template no component uses is a configuration mistake too. */
void sim_check_templates_used(struct ss_sim *s)
{
	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];
		bool used = false;

		if (strcmp(sec->kind, "template") != 0)
			continue;
		for (guint k = 0; k < sec->entries->len; k++)
			used |= ((struct ini_entry *)sec->entries->pdata[k])->used;
		for (guint c = 0; c < s->comps->len && !used; c++)
			used = extends_template(s, s->comps->pdata[c], sec->name);
		if (!used)
			sim_err_at(s, sec->loc, "[template %s] is not used by any component; expected a component with extends = %s",
				   sec->name, sec->name);
	}
}
