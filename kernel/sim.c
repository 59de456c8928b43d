/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From an INI document to a running engine.  Validation builds a plan (types,
 * resolved parameters per instance, vector port sizes, every link expanded to
 * endpoint pairs) and reports all problems; only a clean plan is turned into
 * components.  Precedence of a parameter, lowest first: the type's default,
 * the template chain (farthest first), the component section, indexed keys
 * in file order, -p overrides in command-line order.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "inidoc.h"
#include "internal.h"
#include "param.h"
#include "sim.h"

#define MAX_EXTENDS_DEPTH 16
#define MAX_COUNT 1000000

static const char *const sim_keys[] = {
	"include", "plugin_path", "plugins", "max_ticks", NULL
};

struct plan_comp {
	struct ini_section *sec;
	const struct ss_component_type *type;
	bool is_array;
	unsigned count;
	unsigned n_groups;
	struct ss_params **params;	/* per instance */
	int *explicit_count;		/* per group; -1: sized by links */
	unsigned *size;			/* per instance * group */
	GHashTable **bound;		/* per instance * group: index+1 -> loc */
	struct ss_component **inst;
	bool ok;			/* type known and params parsed */
	bool link_failed;		/* a link naming it was refused */
};

struct plan_pair {
	struct plan_comp *fc, *tc;
	unsigned fi, fg, fx, ti, tg, tx;
};

struct plan_link {
	struct ini_section *sec;
	const char *from, *to;
	uint64_t latency;
	GArray *pairs;
};

struct cli_override {
	char *section;			/* the component it applies to */
	char *loc;			/* "command line -p TEXT", for messages */
	unsigned i0, i1;
	char *key, *value;
};

struct ss_sim {
	struct ss_registry *reg;
	struct ini_doc *doc;
	GPtrArray *comps;		/* struct plan_comp * */
	GHashTable *comp_by_name;
	GPtrArray *links;		/* struct plan_link * */
	GPtrArray *overrides;		/* struct cli_override * */
	GPtrArray *errors;
	uint64_t max_ticks;
	struct ss_engine *engine;
	bool built, started;
};

static void err_at(struct ss_sim *s, const char *loc, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static void err_at(struct ss_sim *s, const char *loc, const char *fmt, ...)
{
	va_list ap;
	char *msg, *line;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	line = g_strdup_printf("%s: %s", loc, msg);
	/* The same template key can fail for several components: say it once. */
	for (guint i = 0; i < s->errors->len; i++)
		if (strcmp(s->errors->pdata[i], line) == 0) {
			g_free(line);
			line = NULL;
			break;
		}
	if (line)
		g_ptr_array_add(s->errors, line);
	g_free(msg);
}

static char *suggest(const char *word, GPtrArray *cands)
{
	const char *near = ss_did_you_mean(word, (const char *const *)cands->pdata,
					   cands->len);

	return near ? g_strdup_printf("; did you mean '%s'?", near) : g_strdup("");
}

static void plan_comp_free(struct plan_comp *pc)
{
	unsigned n = pc->count * pc->n_groups;

	for (unsigned i = 0; pc->params && i < pc->count; i++)
		ss_params_free(pc->params[i]);
	for (unsigned i = 0; pc->bound && i < n; i++)
		if (pc->bound[i])
			g_hash_table_destroy(pc->bound[i]);
	g_free(pc->params);
	g_free(pc->explicit_count);
	g_free(pc->size);
	g_free(pc->bound);
	g_free(pc->inst);
	g_free(pc);
}

void ss_sim_free(struct ss_sim *s)
{
	if (!s)
		return;
	ss_engine_free(s->engine);
	for (guint i = 0; i < s->comps->len; i++)
		plan_comp_free(s->comps->pdata[i]);
	g_ptr_array_free(s->comps, TRUE);
	g_hash_table_destroy(s->comp_by_name);
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];

		g_array_free(l->pairs, TRUE);
		g_free(l);
	}
	g_ptr_array_free(s->links, TRUE);
	for (guint i = 0; i < s->overrides->len; i++) {
		struct cli_override *o = s->overrides->pdata[i];

		g_free(o->section);
		g_free(o->loc);
		g_free(o->key);
		g_free(o->value);
		g_free(o);
	}
	g_ptr_array_free(s->overrides, TRUE);
	if (s->errors)
		g_ptr_array_free(s->errors, TRUE);
	ini_doc_free(s->doc);
	g_free(s);
}

struct ss_engine *ss_sim_engine(struct ss_sim *s)
{
	return s->engine;
}

/* ---- selectors: N, A..B, * ------------------------------------------------ */

enum sel_kind { SEL_NONE, SEL_ONE, SEL_RANGE, SEL_ALL };

struct sel {
	enum sel_kind kind;
	unsigned a, b;
};

/* Parse "[...]" at *p; advances past it.  Returns false on bad syntax. */
static bool parse_sel(const char **p, struct sel *sel)
{
	const char *q = *p;
	char *end;

	*sel = (struct sel){ SEL_NONE, 0, 0 };
	if (*q != '[')
		return true;
	q++;
	if (q[0] == '*' && q[1] == ']') {
		sel->kind = SEL_ALL;
		*p = q + 2;
		return true;
	}
	if (!g_ascii_isdigit(*q))
		return false;
	errno = 0;
	unsigned long a = strtoul(q, &end, 10);

	if (errno || a > MAX_COUNT)
		return false;
	sel->kind = SEL_ONE;
	sel->a = sel->b = a;
	q = end;
	if (q[0] == '.' && q[1] == '.') {
		q += 2;
		if (!g_ascii_isdigit(*q))
			return false;
		unsigned long b = strtoul(q, &end, 10);

		if (errno || b > MAX_COUNT || b < a)
			return false;
		sel->kind = SEL_RANGE;
		sel->b = b;
		q = end;
	}
	if (*q != ']')
		return false;
	*p = q + 1;
	return true;
}

/* Split "name[sel]" into its name and selector. */
static bool split_indexed(const char *text, char **name, struct sel *sel)
{
	const char *p = text;

	while (*p && *p != '[')
		p++;
	*name = g_strndup(text, p - text);
	return parse_sel(&p, sel) && *p == '\0';
}

/* ---- component sections --------------------------------------------------- */

static GPtrArray *component_names(struct ss_sim *s)
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

/* Keys a component section may hold besides its parameters. */
static GPtrArray *allowed_keys(const struct ss_component_type *t, bool section)
{
	GPtrArray *k = g_ptr_array_new_with_free_func(g_free);

	if (section) {
		g_ptr_array_add(k, g_strdup("type"));
		g_ptr_array_add(k, g_strdup("count"));
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
	GPtrArray *k = allowed_keys(pc->type, section);
	char *hint = suggest(key, k);
	char *via = sec == pc->sec ? g_strdup("")
		    : g_strdup_printf(" (used by [component %s])", pc->sec->name);

	err_at(s, e->loc, "[%s %s]%s key '%s' is not a parameter of type %s%s%s",
	       sec->kind, sec->name, via, key, pc->type->name, hint,
	       *hint ? "" : " (see sectorsim --describe TYPE)");
	g_free(via);
	g_free(hint);
	g_ptr_array_free(k, TRUE);
}

static void set_param(struct ss_sim *s, struct ss_params *p, int idx,
		      const char *text, const char *dir, const char *loc,
		      const char *ctx)
{
	char *why = NULL;
	char *resolved_dir = dir ? g_canonicalize_filename(dir, NULL) : NULL;

	if (!ss_param_parse(&p->desc[idx], text, resolved_dir, &p->values[idx],
			    &why)) {
		err_at(s, loc, "%s %s = %s: %s", ctx, p->desc[idx].name, text, why);
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

/* Apply the plain keys of one section (template or component). */
static void apply_plain_keys(struct ss_sim *s, struct plan_comp *pc,
			     struct ini_section *sec, struct ss_params *p)
{
	char *ctx = g_strdup_printf("[%s %s]", sec->kind, sec->name);

	for (guint i = 0; i < sec->entries->len; i++) {
		struct ini_entry *e = sec->entries->pdata[i];
		int idx;

		if (strchr(e->key, '['))
			continue;
		if (!strcmp(e->key, "extends") || (sec == pc->sec &&
		    (!strcmp(e->key, "type") || !strcmp(e->key, "count")))) {
			e->used = true;
			continue;
		}
		idx = ss_param_table_find(pc->type->params, e->key);
		if (idx < 0) {
			bool is_count = false;

			for (guint g = 0; g < pc->n_groups && sec == pc->sec; g++) {
				char *cnt = g_strdup_printf("%s_count", pc->type->ports[g].name);

				if (pc->type->ports[g].vector && !strcmp(cnt, e->key))
					is_count = true;
				g_free(cnt);
			}
			if (!is_count)
				unknown_key(s, pc, sec, e, e->key, sec == pc->sec);
			continue;
		}
		e->used = true;
		set_param(s, p, idx, e->value, e->dir, e->loc, ctx);
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
			char *hint = suggest(ext->value, names);

			err_at(s, ext->loc, "[%s %s] extends = %s: %s%s",
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
				err_at(s, ext->loc, "[%s %s] extends = %s: template cycle; expected single inheritance without loops",
				       cur->kind, cur->name, ext->value);
				g_ptr_array_free(chain, TRUE);
				return NULL;
			}
		if (chain->len >= MAX_EXTENDS_DEPTH) {
			err_at(s, ext->loc, "templates nested more than %d deep", MAX_EXTENDS_DEPTH);
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
		err_at(s, e->loc, "%s %s = %s: expected a whole number from 1 to %" G_GUINT64_FORMAT,
		       ctx, e->key, e->value, max);
		return false;
	}
	*out = v;
	return true;
}

static void plan_component(struct ss_sim *s, struct ini_section *sec)
{
	struct plan_comp *pc = g_new0(struct plan_comp, 1);
	struct ini_entry *type = ini_section_get(sec, "type");
	struct ini_entry *count = ini_section_get(sec, "count");
	char *ctx = g_strdup_printf("[component %s]", sec->name);

	pc->sec = sec;
	pc->count = 1;
	g_ptr_array_add(s->comps, pc);
	g_hash_table_insert(s->comp_by_name, sec->name, pc);
	if (count) {
		uint64_t n;

		count->used = true;
		if (parse_count(s, count, ctx, MAX_COUNT, &n)) {
			pc->is_array = true;
			pc->count = n;
		}
	}
	if (!type) {
		err_at(s, sec->loc, "%s has no type; expected type = a component type (sectorsim --list)", ctx);
		goto out;
	}
	type->used = true;
	pc->type = ss_registry_lookup(s->reg, type->value);
	if (!pc->type) {
		GPtrArray *types = type_names(s);
		char *hint = suggest(type->value, types);
		char *all;

		g_ptr_array_add(types, NULL);
		all = types->len > 1 ? g_strjoinv(", ", (char **)types->pdata)
				     : g_strdup("none (load a plugin with plugins = NAME)");
		err_at(s, type->loc, "%s type = %s: unknown component type; loaded types: %s%s",
		       ctx, type->value, all, hint);
		g_free(all);
		g_free(hint);
		g_ptr_array_free(types, TRUE);
		goto out;
	}
	for (const struct ss_port_desc *p = pc->type->ports; p && p->name; p++)
		pc->n_groups++;

	char *why = NULL;
	struct ss_params *base = ss_params_new_defaults(pc->type->params, &why);

	g_assert(base);	/* defaults were checked at registration */
	GPtrArray *chain = template_chain(s, pc);

	if (chain) {
		for (guint i = chain->len; i-- > 0;)
			apply_plain_keys(s, pc, chain->pdata[i], base);
		g_ptr_array_free(chain, TRUE);
	}
	apply_plain_keys(s, pc, sec, base);

	pc->explicit_count = g_new(int, pc->n_groups ? pc->n_groups : 1);
	for (unsigned g = 0; g < pc->n_groups; g++) {
		const struct ss_port_desc *p = &pc->type->ports[g];
		char *key = g_strdup_printf("%s_count", p->name);
		struct ini_entry *e = p->vector ? ini_section_get(sec, key) : NULL;
		uint64_t n;

		pc->explicit_count[g] = -1;
		if (e) {
			e->used = true;
			if (parse_count(s, e, ctx, MAX_COUNT, &n))
				pc->explicit_count[g] = n;
		}
		g_free(key);
	}

	pc->params = g_new0(struct ss_params *, pc->count);
	for (unsigned i = 0; i < pc->count; i++)
		pc->params[i] = ss_params_copy(base);
	ss_params_free(base);

	/* Indexed keys, in file order. */
	for (guint k = 0; k < sec->entries->len; k++) {
		struct ini_entry *e = sec->entries->pdata[k];
		char *name = NULL;
		struct sel sel;

		if (!strchr(e->key, '['))
			continue;
		if (!split_indexed(e->key, &name, &sel)) {
			err_at(s, e->loc, "%s key '%s': bad index; expected name[N] or name[A..B]", ctx, e->key);
		} else if (!pc->is_array) {
			err_at(s, e->loc, "%s key '%s': '%s' is not an array (no count =); expected %s = value",
			       ctx, e->key, sec->name, name);
		} else if (sel.b >= pc->count) {
			err_at(s, e->loc, "%s key '%s': index %u out of range; expected indices 0..%u (count = %u)",
			       ctx, e->key, sel.b, pc->count - 1, pc->count);
		} else {
			int idx = ss_param_table_find(pc->type->params, name);

			if (idx < 0) {
				unknown_key(s, pc, sec, e, name, true);
			} else {
				e->used = true;
				for (unsigned i = sel.a; i <= sel.b; i++)
					set_param(s, pc->params[i], idx, e->value, e->dir, e->loc, ctx);
			}
		}
		g_free(name);
	}
	pc->ok = true;
out:
	g_free(ctx);
}

/* ---- command-line overrides ----------------------------------------------- */

static void parse_override(struct ss_sim *s, const char *text)
{
	char *loc = g_strdup_printf("command line -p %s", text);
	const char *eq = strchr(text, '=');
	const char *p = text;
	char *secname = NULL, *key = NULL;
	struct sel sel = { SEL_NONE, 0, 0 }, ksel;

	while (*p && *p != '.' && *p != '[' && *p != '=')
		p++;
	secname = g_strndup(text, p - text);
	if (!eq || !*secname || !parse_sel(&p, &sel) || *p != '.' || p + 1 >= eq) {
		err_at(s, loc, "expected SECTION.KEY=VALUE or SECTION[N].KEY=VALUE");
		goto out;
	}
	key = g_strstrip(g_strndup(p + 1, eq - p - 1));
	char *kname = NULL;

	if (!split_indexed(key, &kname, &ksel) || (sel.kind && ksel.kind)) {
		err_at(s, loc, "key '%s': bad index; expected SECTION.KEY, SECTION[N].KEY or SECTION.KEY[A..B]", key);
		g_free(kname);
		goto out;
	}
	if (ksel.kind)
		sel = ksel;

	struct ini_section *sec = ini_doc_section(s->doc, secname);

	if (!sec && strcmp(secname, "simulation") == 0) {
		char *cwd = g_get_current_dir();

		sec = ini_doc_add_section(s->doc, "simulation", "simulation", loc, cwd);
		g_free(cwd);
	}
	if (!sec) {
		GPtrArray *names = g_ptr_array_new();

		for (guint i = 0; i < s->doc->sections->len; i++)
			g_ptr_array_add(names, ((struct ini_section *)s->doc->sections->pdata[i])->name);
		char *hint = suggest(secname, names);

		err_at(s, loc, "no section named '%s'%s", secname, hint);
		g_free(hint);
		g_ptr_array_free(names, TRUE);
	} else if (!strcmp(sec->kind, "template")) {
		err_at(s, loc, "'%s' is a template; override the component that extends it", secname);
	} else if (!strcmp(sec->kind, "component")) {
		struct cli_override *o = g_new0(struct cli_override, 1);

		o->section = g_strdup(secname);
		o->loc = g_strdup(loc);
		o->key = g_strdup(kname);
		o->value = g_strstrip(g_strdup(eq + 1));
		o->i0 = sel.kind ? sel.a : 0;
		o->i1 = sel.kind ? sel.b : UINT_MAX;
		g_ptr_array_add(s->overrides, o);
	} else if (sel.kind) {
		err_at(s, loc, "[%s %s] is not an array; expected %s.%s=VALUE", sec->kind, secname, secname, kname);
	} else {
		/* Plain sections: the override simply replaces the key. */
		char *cwd = g_get_current_dir();
		char *value = g_strstrip(g_strdup(eq + 1));

		ini_section_set(sec, kname, value, loc, cwd);
		g_free(value);
		g_free(cwd);
	}
	g_free(kname);
out:
	g_free(secname);
	g_free(key);
	g_free(loc);
}

static void apply_overrides(struct ss_sim *s)
{
	for (guint k = 0; k < s->overrides->len; k++) {
		struct cli_override *o = s->overrides->pdata[k];
		struct plan_comp *pc = g_hash_table_lookup(s->comp_by_name, o->section);

		if (!pc || !pc->ok)
			continue;
		int idx = ss_param_table_find(pc->type->params, o->key);

		if (idx < 0) {
			GPtrArray *k2 = allowed_keys(pc->type, false);
			char *hint = suggest(o->key, k2);

			err_at(s, o->loc, "component '%s' (type %s) has no parameter '%s'%s",
			       pc->sec->name, pc->type->name, o->key, hint);
			g_free(hint);
			g_ptr_array_free(k2, TRUE);
			continue;
		}
		if (o->i1 != UINT_MAX && !pc->is_array) {
			err_at(s, o->loc, "'%s' is not an array (no count =); expected %s.%s=VALUE",
			       pc->sec->name, pc->sec->name, o->key);
			continue;
		}
		if (o->i1 != UINT_MAX && o->i1 >= pc->count) {
			err_at(s, o->loc, "index %u out of range; '%s' has %u instances (0..%u)",
			       o->i1, pc->sec->name, pc->count, pc->count - 1);
			continue;
		}
		unsigned last = o->i1 == UINT_MAX ? pc->count - 1 : o->i1;

		for (unsigned i = o->i0; i <= last; i++)
			set_param(s, pc->params[i], idx, o->value, NULL, o->loc,
				  "override");
	}
}

static void check_required(struct ss_sim *s, struct plan_comp *pc)
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
			err_at(s, pc->sec->loc, "[component %s] %s[%u]: required parameter '%s' is not set; expected %s = <%s> (%s)",
			       pc->sec->name, pc->sec->name, first, d->name, d->name,
			       ss_param_type_name(d->type), d->doc ? d->doc : "");
		else
			err_at(s, pc->sec->loc, "[component %s] required parameter '%s' is not set; expected %s = <%s> (%s)",
			       pc->sec->name, d->name, d->name,
			       ss_param_type_name(d->type), d->doc ? d->doc : "");
	}
}

/* ---- links ---------------------------------------------------------------- */

struct endpoint {
	struct plan_comp *pc;
	unsigned i0, i1;
	unsigned group;
	const struct ss_port_desc *pd;
	bool port_auto;		/* [*] on a vector port sized by the other end */
	unsigned p0, p1;
};

static char *port_list(const struct ss_component_type *t)
{
	GString *g = g_string_new(NULL);

	for (const struct ss_port_desc *p = t->ports; p && p->name; p++)
		g_string_append_printf(g, "%s%s%s (%s, %s)", g->len ? ", " : "",
				       p->name, p->vector ? "[]" : "",
				       p->dir == SS_PORT_OUT ? "out" : "in", p->protocol);
	if (!g->len)
		g_string_append(g, "none");
	return g_string_free(g, FALSE);
}

static bool parse_endpoint(struct ss_sim *s, struct plan_link *l,
			   struct ini_entry *e, struct endpoint *ep)
{
	const char *text = e->value, *p = text;
	char *ctx = g_strdup_printf("[link %s] %s = %s", l->sec->name, e->key, text);
	char *cname = NULL, *pname = NULL;
	struct sel sel;
	bool ok = false;

	memset(ep, 0, sizeof(*ep));
	while (*p && *p != '[' && *p != '.')
		p++;
	cname = g_strndup(text, p - text);
	ep->pc = g_hash_table_lookup(s->comp_by_name, cname);
	if (!ep->pc) {
		GPtrArray *names = component_names(s);
		char *hint = suggest(cname, names);

		err_at(s, e->loc, "%s: no component '%s'%s", ctx, cname, hint);
		g_free(hint);
		g_ptr_array_free(names, TRUE);
		goto out;
	}
	if (!ep->pc->ok)
		goto out;	/* its own error was reported */
	if (!parse_sel(&p, &sel) || *p != '.') {
		err_at(s, e->loc, "%s: bad endpoint; expected COMPONENT[SEL].PORT[SEL] with SEL one of N, A..B, *", ctx);
		goto out;
	}
	struct plan_comp *pc = ep->pc;

	if (sel.kind == SEL_NONE && pc->is_array) {
		err_at(s, e->loc, "%s: '%s' is an array of %u; expected %s[*], %s[N] or %s[A..B]",
		       ctx, cname, pc->count, cname, cname, cname);
		goto out;
	}
	if (sel.kind != SEL_NONE && !pc->is_array) {
		err_at(s, e->loc, "%s: '%s' is not an array (no count =); expected %s.PORT", ctx, cname, cname);
		goto out;
	}
	ep->i0 = sel.kind == SEL_ALL || sel.kind == SEL_NONE ? 0 : sel.a;
	ep->i1 = sel.kind == SEL_ALL ? pc->count - 1
		 : sel.kind == SEL_NONE ? 0 : sel.b;
	if (ep->i1 >= pc->count) {
		err_at(s, e->loc, "%s: instance index %u out of range; '%s' has %u instances (0..%u)",
		       ctx, ep->i1, cname, pc->count, pc->count - 1);
		goto out;
	}
	const char *pstart = ++p;

	while (*p && *p != '[')
		p++;
	pname = g_strndup(pstart, p - pstart);
	int g = -1;

	for (unsigned k = 0; k < pc->n_groups; k++)
		if (!strcmp(pc->type->ports[k].name, pname))
			g = k;
	if (g < 0) {
		GPtrArray *names = g_ptr_array_new();

		for (unsigned k = 0; k < pc->n_groups; k++)
			g_ptr_array_add(names, (gpointer)pc->type->ports[k].name);
		char *hint = suggest(pname, names);
		char *all = port_list(pc->type);

		err_at(s, e->loc, "%s: component '%s' (type %s) has no port '%s'; ports: %s%s",
		       ctx, cname, pc->type->name, pname, all, hint);
		g_free(all);
		g_free(hint);
		g_ptr_array_free(names, TRUE);
		goto out;
	}
	ep->group = g;
	ep->pd = &pc->type->ports[g];
	if (!parse_sel(&p, &sel) || *p) {
		err_at(s, e->loc, "%s: bad endpoint; expected COMPONENT[SEL].PORT[SEL] with SEL one of N, A..B, *", ctx);
		goto out;
	}
	int fixed = pc->explicit_count[g];

	if (!ep->pd->vector) {
		if (sel.kind != SEL_NONE) {
			err_at(s, e->loc, "%s: port '%s' of '%s' is scalar; expected it without an index",
			       ctx, pname, cname);
			goto out;
		}
		ep->p0 = ep->p1 = 0;
	} else if (sel.kind == SEL_NONE) {
		err_at(s, e->loc, "%s: port '%s' of '%s' is a vector; expected %s[N], %s[A..B] or %s[*]",
		       ctx, pname, cname, pname, pname, pname);
		goto out;
	} else if (sel.kind == SEL_ALL) {
		ep->port_auto = fixed < 0;
		ep->p0 = 0;
		ep->p1 = fixed < 0 ? 0 : (unsigned)fixed - 1;
	} else {
		if (fixed >= 0 && sel.b >= (unsigned)fixed) {
			err_at(s, e->loc, "%s: index %u out of range; %s_count = %d in [component %s]",
			       ctx, sel.b, pname, fixed, cname);
			goto out;
		}
		ep->p0 = sel.a;
		ep->p1 = sel.b;
	}
	ok = true;
out:
	g_free(cname);
	g_free(pname);
	g_free(ctx);
	return ok;
}

static unsigned ep_len(const struct endpoint *ep)
{
	return (ep->i1 - ep->i0 + 1) * (ep->p1 - ep->p0 + 1);
}

static GHashTable **bound_slot(struct plan_comp *pc, unsigned inst,
			       unsigned group)
{
	GHashTable **b = &pc->bound[inst * pc->n_groups + group];

	if (!*b)
		*b = g_hash_table_new(g_direct_hash, g_direct_equal);
	return b;
}

static char *ep_name(struct plan_comp *pc, unsigned inst, unsigned g,
		     unsigned idx)
{
	const struct ss_port_desc *pd = &pc->type->ports[g];
	char *c = pc->is_array ? g_strdup_printf("%s[%u]", pc->sec->name, inst)
			       : g_strdup(pc->sec->name);
	char *r = pd->vector ? g_strdup_printf("%s.%s[%u]", c, pd->name, idx)
			     : g_strdup_printf("%s.%s", c, pd->name);

	g_free(c);
	return r;
}

static void plan_link(struct ss_sim *s, struct ini_section *sec)
{
	static const char *const link_keys[] = { "from", "to", "latency", NULL };
	struct plan_link *l = g_new0(struct plan_link, 1);
	struct ini_entry *fe = ini_section_get(sec, "from");
	struct ini_entry *te = ini_section_get(sec, "to");
	struct ini_entry *le = ini_section_get(sec, "latency");
	struct endpoint f, t;

	l->sec = sec;
	l->pairs = g_array_new(FALSE, FALSE, sizeof(struct plan_pair));
	g_ptr_array_add(s->links, l);
	for (guint i = 0; i < sec->entries->len; i++) {
		struct ini_entry *e = sec->entries->pdata[i];

		if (!g_strv_contains(link_keys, e->key)) {
			const char *near = ss_did_you_mean(e->key, link_keys, 3);

			err_at(s, e->loc, "[link %s] unknown key '%s'; expected from, to or latency%s%s%s",
			       sec->name, e->key, near ? "; did you mean '" : "",
			       near ? near : "", near ? "'?" : "");
		}
		e->used = true;
	}
	if (le) {
		guint64 v;

		if (!g_ascii_string_to_unsigned(le->value, 10, 0, G_MAXUINT32, &v, NULL))
			err_at(s, le->loc, "[link %s] latency = %s: expected a whole number of ticks (0 = direct call)",
			       sec->name, le->value);
		else
			l->latency = v;
	}
	if (!fe || !te) {
		err_at(s, sec->loc, "[link %s] has no '%s'; expected from = COMP.PORT and to = COMP.PORT",
		       sec->name, fe ? "to" : "from");
		return;
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
		return;
	}
	if (f.port_auto && t.port_auto) {
		err_at(s, fe->loc, "[link %s] both ends are vector ports sized by the other end ([*]); expected an explicit range on one side or a <port>_count",
		       sec->name);
		goto refused;
	}
	struct endpoint *a = f.port_auto ? &f : t.port_auto ? &t : NULL;

	if (a) {
		struct endpoint *o = a == &f ? &t : &f;
		unsigned inst = a->i1 - a->i0 + 1, len = ep_len(o);

		if (len % inst) {
			err_at(s, (a == &f ? fe : te)->loc, "[link %s] %s: cannot spread %u endpoints over %u instances; expected a multiple of %u",
			       sec->name, a == &f ? "from" : "to", len, inst, inst);
			goto refused;
		}
		a->p1 = len / inst - 1;
	}
	if (ep_len(&f) != ep_len(&t)) {
		err_at(s, fe->loc, "[link %s] from = %s expands to %u endpoints but to = %s expands to %u; expected equal lengths",
		       sec->name, fe->value, ep_len(&f), te->value, ep_len(&t));
		goto refused;
	}
	if (f.pd->dir != SS_PORT_OUT || t.pd->dir != SS_PORT_IN) {
		struct endpoint *w = f.pd->dir != SS_PORT_OUT ? &f : &t;

		err_at(s, (w == &f ? fe : te)->loc, "[link %s] %s: port '%s' of '%s' is an %s port; expected links from an out port to an in port%s",
		       sec->name, w == &f ? "from" : "to", w->pd->name,
		       w->pc->sec->name, w->pd->dir == SS_PORT_OUT ? "out" : "in",
		       f.pd->dir == SS_PORT_IN && t.pd->dir == SS_PORT_OUT ? " (swap from and to)" : "");
		goto refused;
	}
	if (strcmp(f.pd->protocol, t.pd->protocol) != 0) {
		err_at(s, te->loc, "[link %s] protocol mismatch: %s.%s speaks %s, %s.%s speaks %s; expected the same protocol at both ends",
		       sec->name, f.pc->sec->name, f.pd->name, f.pd->protocol,
		       t.pc->sec->name, t.pd->name, t.pd->protocol);
		goto refused;
	}
	unsigned n = ep_len(&f), fnp = f.p1 - f.p0 + 1, tnp = t.p1 - t.p0 + 1;

	for (unsigned k = 0; k < n; k++) {
		struct plan_pair pr = {
			.fc = f.pc, .fi = f.i0 + k / fnp, .fg = f.group, .fx = f.p0 + k % fnp,
			.tc = t.pc, .ti = t.i0 + k / tnp, .tg = t.group, .tx = t.p0 + k % tnp,
		};
		GHashTable **fb = bound_slot(pr.fc, pr.fi, pr.fg);
		GHashTable **tb = bound_slot(pr.tc, pr.ti, pr.tg);
		const char *prev_f = g_hash_table_lookup(*fb, GUINT_TO_POINTER(pr.fx + 1));
		const char *prev_t = g_hash_table_lookup(*tb, GUINT_TO_POINTER(pr.tx + 1));

		if (prev_f || prev_t) {
			char *name = prev_f ? ep_name(pr.fc, pr.fi, pr.fg, pr.fx)
					    : ep_name(pr.tc, pr.ti, pr.tg, pr.tx);

			err_at(s, (prev_f ? fe : te)->loc, "[link %s] %s is already linked at %s; expected each endpoint in one link",
			       sec->name, name, prev_f ? prev_f : prev_t);
			g_free(name);
			goto refused;
		}
		g_hash_table_insert(*fb, GUINT_TO_POINTER(pr.fx + 1), fe->loc);
		g_hash_table_insert(*tb, GUINT_TO_POINTER(pr.tx + 1), te->loc);
		g_array_append_val(l->pairs, pr);
	}
	return;
refused:
	/* its ports' "not linked" would only repeat this error */
	f.pc->link_failed = true;
	t.pc->link_failed = true;
}

static void size_ports(struct ss_sim *s, struct plan_comp *pc)
{
	unsigned ng = pc->n_groups;

	pc->size = g_new0(unsigned, pc->count * ng + 1);
	for (unsigned i = 0; i < pc->count; i++) {
		for (unsigned g = 0; g < ng; g++) {
			const struct ss_port_desc *pd = &pc->type->ports[g];
			GHashTable *b = pc->bound[i * ng + g];
			unsigned n = b ? g_hash_table_size(b) : 0, size = 0;

			if (!pd->vector) {
				size = 1;
				if (!n && pd->required && !pc->link_failed) {
					char *name = ep_name(pc, i, g, 0);

					err_at(s, pc->sec->loc, "[component %s] %s (%s, %s) is required but not linked; expected a [link] with it as %s",
					       pc->sec->name, name,
					       pd->dir == SS_PORT_OUT ? "out" : "in", pd->protocol,
					       pd->dir == SS_PORT_OUT ? "from" : "to");
					g_free(name);
				}
			} else {
				GHashTableIter it;
				gpointer key;

				if (b) {
					g_hash_table_iter_init(&it, b);
					while (g_hash_table_iter_next(&it, &key, NULL))
						size = MAX(size, GPOINTER_TO_UINT(key));
				}
				if (pc->explicit_count[g] >= 0)
					size = pc->explicit_count[g];
				if (!size && pd->required && !pc->link_failed) {
					char *name = pc->is_array ? g_strdup_printf("%s[%u]", pc->sec->name, i)
								  : g_strdup(pc->sec->name);

					err_at(s, pc->sec->loc, "[component %s] %s.%s[] (%s, %s) is required but not linked; expected a [link] with it as %s",
					       pc->sec->name, name, pd->name,
					       pd->dir == SS_PORT_OUT ? "out" : "in", pd->protocol,
					       pd->dir == SS_PORT_OUT ? "from" : "to");
					g_free(name);
				}
				for (unsigned x = 0; x < size; x++) {
					if (pc->link_failed || (b && g_hash_table_contains(b, GUINT_TO_POINTER(x + 1))))
						continue;
					char *name = ep_name(pc, i, g, x);

					err_at(s, pc->sec->loc, "[component %s] %s is not linked, but the vector port has %u elements; expected every element 0..%u linked",
					       pc->sec->name, name, size, size - 1);
					g_free(name);
					break;
				}
			}
			pc->size[i * ng + g] = size;
		}
	}
}

/* ---- the whole configuration ---------------------------------------------- */

static void load_sim_section(struct ss_sim *s)
{
	struct ini_section *sim = ini_doc_section(s->doc, "simulation");
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	struct ini_entry *pp, *pl, *mt;

	if (!sim)
		goto out;
	for (guint i = 0; i < sim->entries->len; i++) {
		struct ini_entry *e = sim->entries->pdata[i];

		if (!g_strv_contains(sim_keys, e->key)) {
			const char *near = ss_did_you_mean(e->key, sim_keys, 4);

			err_at(s, e->loc, "[simulation] unknown key '%s'; expected one of include, plugin_path, plugins, max_ticks%s%s%s",
			       e->key, near ? "; did you mean '" : "", near ? near : "",
			       near ? "'?" : "");
		}
	}
	mt = ini_section_get(sim, "max_ticks");
	if (mt) {
		guint64 v;

		if (!g_ascii_string_to_unsigned(mt->value, 10, 0, G_MAXUINT64, &v, NULL))
			err_at(s, mt->loc, "[simulation] max_ticks = %s: expected a whole number of ticks (0 = no limit)",
			       mt->value);
		else
			s->max_ticks = v;
	}
	pp = ini_section_get(sim, "plugin_path");
	if (pp) {
		char **parts = g_strsplit(pp->value, ":", -1);

		for (char **p = parts; *p; p++) {
			char *d = g_strstrip(*p);

			if (*d)
				g_ptr_array_add(dirs, g_canonicalize_filename(d, pp->dir));
		}
		g_strfreev(parts);
	}
	g_ptr_array_add(dirs, NULL);
	pl = ini_section_get(sim, "plugins");
	if (pl) {
		char **search = ss_plugin_search_path((const char *const *)dirs->pdata);
		char **names = g_strsplit(pl->value, ",", -1);

		for (char **p = names; *p; p++) {
			char *name = g_strstrip(*p);
			GError *err = NULL;

			if (!*name)
				continue;
			/* a file name is read like every path in the INI:
			 * relative to the file that says it */
			char *file = strchr(name, '/') ? g_canonicalize_filename(name, pl->dir) : NULL;

			if (file)
				name = file;
			if (!ss_registry_load_plugin(s->reg, name,
						     (const char *const *)search, &err)) {
				err_at(s, pl->loc, "[simulation] plugins: %s", err->message);
				g_error_free(err);
			}
			g_free(file);
		}
		g_strfreev(names);
		g_strfreev(search);
	}
out:
	g_ptr_array_free(dirs, TRUE);
}

/* The run's input (the command line's TRACE) sets every parameter flagged
 * SS_PF_INPUT, relative to the working directory. */
static void apply_input(struct ss_sim *s, const char *input)
{
	char *cwd = g_get_current_dir();
	char *loc = g_strdup_printf("command line TRACE %s", input);
	unsigned n = 0;

	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		for (int idx = 0; pc->ok && pc->type->params &&
		     pc->type->params[idx].name; idx++) {
			if (!(pc->type->params[idx].flags & SS_PF_INPUT))
				continue;
			for (unsigned i = 0; i < pc->count; i++)
				set_param(s, pc->params[i], idx, input, cwd, loc,
					  "input");
			n++;
		}
	}
	if (!n)
		err_at(s, loc, "no component of this configuration reads an input; expected a component with an input parameter, such as trace_source's path");
	g_free(loc);
	g_free(cwd);
}

struct ss_sim *ss_sim_load(struct ss_registry *r, const char *ini,
			   const char *const *overrides, const char *input,
			   GPtrArray **errors)
{
	struct ss_sim *s = g_new0(struct ss_sim, 1);

	s->reg = r;
	s->comps = g_ptr_array_new();
	s->comp_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	s->links = g_ptr_array_new();
	s->overrides = g_ptr_array_new();
	s->errors = g_ptr_array_new_with_free_func(g_free);
	s->doc = ini_doc_load(ini);
	if (s->doc->errors->len) {
		for (guint i = 0; i < s->doc->errors->len; i++)
			g_ptr_array_add(s->errors, g_strdup(s->doc->errors->pdata[i]));
		goto fail;
	}
	for (size_t i = 0; overrides && overrides[i]; i++)
		parse_override(s, overrides[i]);
	load_sim_section(s);

	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];

		if (!strcmp(sec->kind, "component"))
			plan_component(s, sec);
	}
	apply_overrides(s);
	if (input)
		apply_input(s, input);
	for (guint i = 0; i < s->comps->len; i++) {
		struct plan_comp *pc = s->comps->pdata[i];

		if (pc->ok) {
			check_required(s, pc);
			pc->bound = g_new0(GHashTable *, pc->count * pc->n_groups + 1);
		}
	}
	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];

		if (!strcmp(sec->kind, "link"))
			plan_link(s, sec);
	}
	for (guint i = 0; i < s->comps->len; i++) {
		struct plan_comp *pc = s->comps->pdata[i];

		if (pc->ok)
			size_ports(s, pc);
	}
	/* A template no component uses is a configuration mistake too. */
	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];
		bool used = false;

		if (strcmp(sec->kind, "template") != 0)
			continue;
		for (guint k = 0; k < sec->entries->len; k++)
			used |= ((struct ini_entry *)sec->entries->pdata[k])->used;
		for (guint c = 0; c < s->comps->len && !used; c++) {
			struct plan_comp *pc = s->comps->pdata[c];
			struct ini_section *cur = pc->sec;
			struct ini_entry *ext;

			for (int depth = 0; depth <= MAX_EXTENDS_DEPTH &&
			     (ext = ini_section_get(cur, "extends")); depth++) {
				if (!strcmp(ext->value, sec->name))
					used = true;
				cur = ini_doc_section(s->doc, ext->value);
				if (!cur)
					break;
			}
		}
		if (!used)
			err_at(s, sec->loc, "[template %s] is not used by any component; expected a component with extends = %s",
			       sec->name, sec->name);
	}
	if (s->errors->len)
		goto fail;
	return s;
fail:
	*errors = s->errors;
	s->errors = NULL;
	ss_sim_free(s);
	return NULL;
}

/* ---- printing the resolved configuration ---------------------------------- */

static void print_value(FILE *out, const char *key, const char *v)
{
	/* iniparser cuts an unquoted value at ';' or '#', strips spaces at
	 * its ends and takes quotes, double or single, as delimiters. */
	bool quote = strpbrk(v, ";#\"'") || (*v && (g_ascii_isspace(v[0]) ||
				      g_ascii_isspace(v[strlen(v) - 1])));

	if (!quote)
		fprintf(out, "%s = %s\n", key, v);
	else if (!strchr(v, '"'))
		fprintf(out, "%s = \"%s\"\n", key, v);
	else if (!strchr(v, '\''))
		fprintf(out, "%s = '%s'\n", key, v);
	else
		fprintf(out, "; %s holds both quote characters, which an INI value cannot\n%s = \"%s\"\n",
			key, key, v);
}

static const char *param_text(struct plan_comp *pc, unsigned inst, int idx)
{
	const char *t = pc->params[inst]->values[idx].text;

	return t ? t : "";
}

void ss_sim_dump_config(struct ss_sim *s, FILE *out)
{
	struct ini_section *sim = ini_doc_section(s->doc, "simulation");

	fprintf(out, "; %s, expanded: includes, templates, defaults and overrides applied\n",
		s->doc->main_file);
	fprintf(out, "[simulation]\n");
	for (guint i = 0; sim && i < sim->entries->len; i++) {
		struct ini_entry *e = sim->entries->pdata[i];

		if (strcmp(e->key, "include") == 0)
			continue;
		if (strcmp(e->key, "plugin_path") == 0) {
			/* Resolved, so the dump loads from any folder. */
			char **parts = g_strsplit(e->value, ":", -1);
			GString *g = g_string_new(NULL);

			for (char **p = parts; *p; p++) {
				char *d = g_strstrip(*p);

				if (!*d)
					continue;
				char *abs = g_canonicalize_filename(d, e->dir);

				g_string_append_printf(g, "%s%s", g->len ? ":" : "", abs);
				g_free(abs);
			}
			print_value(out, e->key, g->str);
			g_string_free(g, TRUE);
			g_strfreev(parts);
			continue;
		}
		print_value(out, e->key, e->value);
	}
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		fprintf(out, "\n[component %s]\n", pc->sec->name);
		fprintf(out, "type = %s\n", pc->type->name);
		if (pc->is_array)
			fprintf(out, "count = %u\n", pc->count);
		for (unsigned g = 0; g < pc->n_groups; g++)
			if (pc->explicit_count[g] >= 0)
				fprintf(out, "%s_count = %d\n", pc->type->ports[g].name,
					pc->explicit_count[g]);
		for (int idx = 0; pc->type->params && pc->type->params[idx].name; idx++) {
			const char *name = pc->type->params[idx].name;

			print_value(out, name, param_text(pc, 0, idx));
			/* Runs of instances that differ from instance 0. */
			for (unsigned i = 1; i < pc->count;) {
				const char *v = param_text(pc, i, idx);
				unsigned j = i;

				if (!strcmp(v, param_text(pc, 0, idx))) {
					i++;
					continue;
				}
				while (j + 1 < pc->count && !strcmp(param_text(pc, j + 1, idx), v))
					j++;
				char *key = j > i ? g_strdup_printf("%s[%u..%u]", name, i, j)
						  : g_strdup_printf("%s[%u]", name, i);

				print_value(out, key, v);
				g_free(key);
				i = j + 1;
			}
		}
	}
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];

		fprintf(out, "\n[link %s]\n", l->sec->name);
		fprintf(out, "from = %s\nto = %s\nlatency = %" G_GUINT64_FORMAT "\n",
			l->from, l->to, l->latency);
		fprintf(out, "; %u connection%s\n", l->pairs->len,
			l->pairs->len == 1 ? "" : "s");
	}
}

static char *inst_name(struct plan_comp *pc, unsigned i)
{
	return pc->is_array ? g_strdup_printf("%s[%u]", pc->sec->name, i)
			    : g_strdup(pc->sec->name);
}

void ss_sim_dot(struct ss_sim *s, FILE *out)
{
	fprintf(out, "digraph sectorsim {\n\trankdir=LR;\n\tnode [shape=box];\n");
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		for (unsigned i = 0; i < pc->count; i++) {
			char *n = inst_name(pc, i);

			fprintf(out, "\t\"%s\" [label=\"%s\\n%s\"];\n", n, n, pc->type->name);
			g_free(n);
		}
	}
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];

		for (guint k = 0; k < l->pairs->len; k++) {
			struct plan_pair *p = &g_array_index(l->pairs, struct plan_pair, k);
			char *a = inst_name(p->fc, p->fi), *b = inst_name(p->tc, p->ti);
			const struct ss_port_desc *fd = &p->fc->type->ports[p->fg];
			const struct ss_port_desc *td = &p->tc->type->ports[p->tg];
			char fx[32] = "", tx[32] = "";

			if (fd->vector)
				g_snprintf(fx, sizeof(fx), "[%u]", p->fx);
			if (td->vector)
				g_snprintf(tx, sizeof(tx), "[%u]", p->tx);
			fprintf(out, "\t\"%s\" -> \"%s\" [label=\"%s%s -> %s%s\"];\n",
				a, b, fd->name, fx, td->name, tx);
			g_free(a);
			g_free(b);
		}
	}
	fprintf(out, "}\n");
}

/* ---- building and running ------------------------------------------------- */

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

gboolean ss_sim_build(struct ss_sim *s, GError **error)
{
	g_return_val_if_fail(!s->built, FALSE);
	s->built = true;
	s->engine = ss_engine_new();
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		pc->inst = g_new0(struct ss_component *, pc->count);
		for (unsigned i = 0; i < pc->count; i++) {
			struct ss_component *x = ss_engine_add_component(s->engine,
				pc->type, pc->sec->name, pc->is_array ? (int)i : -1,
				pc->count);

			for (unsigned g = 0; g < pc->n_groups; g++)
				ss_component_alloc_ports(x, g, pc->size[i * pc->n_groups + g]);
			pc->inst[i] = x;
		}
	}
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

gboolean ss_sim_run(struct ss_sim *s, GError **error)
{
	struct ss_engine *e = s->engine;

	g_return_val_if_fail(s->built && !s->started, FALSE);
	s->started = true;
	for (guint i = 0; i < e->components->len; i++) {
		struct ss_component *x = e->components->pdata[i];
		GError *inner = NULL;

		if (x->type->ops->xstart && x->type->ops->xstart(x, &inner) != 0) {
			/* a bad input or option is the user's to fix, not a bug */
			int code = inner && inner->domain == SS_ERROR &&
				   (inner->code == SS_ERROR_CONFIG ||
				    inner->code == SS_ERROR_INPUT) ?
				   inner->code : SS_ERROR_INTERNAL;

			return component_failed(error, "run", x, "start", inner, code);
		}
	}
	ss_engine_run(e, s->max_ticks ? s->max_ticks : SS_TICK_MAX);
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
