/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Component types are checked once, when registered, so a plugin with a bad
 * table is refused with its name instead of failing in the middle of a run.
 */
#include "config.h"

#include <string.h>
#include "internal.h"
#include "param.h"
#include "registry.h"

struct ss_registry {
	GHashTable *types;	/* name -> const struct ss_component_type * */
	GHashTable *origin;	/* name -> file or "built-in" (owned) */
	GHashTable *loaded;	/* canonical plugin paths already opened */
	const char *loading;	/* plugin being registered, for messages */
	GHashTable *commands;	/* name -> const struct ss_command * */
};

struct ss_registry *ss_registry_new(void)
{
	struct ss_registry *r = g_new0(struct ss_registry, 1);

	r->types = g_hash_table_new(g_str_hash, g_str_equal);
	r->origin = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	r->loaded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	r->commands = g_hash_table_new(g_str_hash, g_str_equal);
	return r;
}

gboolean ss_registry_add_command(struct ss_registry *r,
				 const struct ss_command *cmd, GError **error)
{
	const char *who = r->loading ? r->loading : "built-in";
	bool good = cmd && cmd->name && g_ascii_islower(cmd->name[0]) && cmd->fn;

	for (const char *p = good ? cmd->name : ""; *p; p++)
		good &= g_ascii_islower(*p) || g_ascii_isdigit(*p) || *p == '-';
	if (!good) {
		return ss_set_error(error, SS_ERROR_PLUGIN,
			"%s: command '%s': expected a name of [a-z][a-z0-9-]* and a function",
			who, cmd && cmd->name ? cmd->name : "(null)");
	}
	if (g_hash_table_contains(r->commands, cmd->name))
		return ss_set_error(error, SS_ERROR_PLUGIN,
				    "%s: command '%s' is registered twice", who, cmd->name);
	g_hash_table_insert(r->commands, (gpointer)cmd->name, (gpointer)cmd);
	return TRUE;
}

const struct ss_command *ss_registry_command(struct ss_registry *r,
					     const char *name)
{
	return g_hash_table_lookup(r->commands, name);
}

void ss_registry_free(struct ss_registry *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->types);
	g_hash_table_destroy(r->origin);
	g_hash_table_destroy(r->loaded);
	g_hash_table_destroy(r->commands);
	g_free(r);
}

static bool valid_name(const char *s)
{
	if (!s || !g_ascii_islower(*s))
		return false;
	for (; *s; s++)
		if (!g_ascii_islower(*s) && !g_ascii_isdigit(*s) && *s != '_')
			return false;
	return true;
}

/*
 * Refuse type `t`.  Kept beside ss_set_error() because every message about a
 * type table starts with the same prefix, "WHO: component type 'NAME': ",
 * naming the plugin (or built-in) and the type a developer has to fix.
 */
static bool bad(GError **error, const char *who,
		const struct ss_component_type *t, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static bool bad(GError **error, const char *who,
		const struct ss_component_type *t, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ss_set_error(error, SS_ERROR_PLUGIN, "%s: component type '%s': %s",
		     who, t && t->name ? t->name : "(unnamed)", msg);
	g_free(msg);
	return false;
}

static gboolean check_params(const struct ss_component_type *t,
			     const char *who, GError **error)
{
	static const char *const reserved[] = { "type", "count", "extends", NULL };

	for (const struct ss_param_desc *d = t->params; d && d->name; d++) {
		if (!valid_name(d->name))
			return bad(error, who, t, "parameter name '%s' is not [a-z][a-z0-9_]*", d->name);
		if (g_strv_contains(reserved, d->name))
			return bad(error, who, t, "parameter name '%s' is reserved", d->name);
		if (!ss_param_type_known(d->type))
			return bad(error, who, t, "parameter '%s' has no valid type", d->name);
		if (d->type == SS_P_ENUM && (!d->choices || !d->choices[0]))
			return bad(error, who, t, "enum parameter '%s' has no choices", d->name);
		if (ss_param_table_find(t->params, d->name) != d - t->params)
			return bad(error, who, t, "parameter '%s' declared twice", d->name);
		for (const struct ss_port_desc *p = t->ports; p && p->name; p++) {
			char *cnt = g_strdup_printf("%s_count", p->name);
			bool clash = strcmp(cnt, d->name) == 0;

			g_free(cnt);
			if (clash)
				return bad(error, who, t, "parameter '%s' clashes with the count of port '%s'", d->name, p->name);
		}
	}
	char *why = NULL;
	struct ss_params *defaults = ss_params_new_defaults(t->params, &why);

	if (!defaults) {
		bad(error, who, t, "%s", why);
		g_free(why);
		return FALSE;
	}
	ss_params_free(defaults);
	return TRUE;
}

static gboolean check_ports(const struct ss_component_type *t,
			    const char *who, GError **error)
{
	for (const struct ss_port_desc *p = t->ports; p && p->name; p++) {
		if (!valid_name(p->name))
			return bad(error, who, t, "port name '%s' is not [a-z][a-z0-9_]*", p->name);
		if (p->dir != SS_PORT_IN && p->dir != SS_PORT_OUT)
			return bad(error, who, t, "port '%s' has no direction", p->name);
		if (!p->protocol || !*p->protocol)
			return bad(error, who, t, "port '%s' has no protocol", p->name);
		for (const struct ss_port_desc *q = t->ports; q != p; q++)
			if (strcmp(q->name, p->name) == 0)
				return bad(error, who, t, "port '%s' declared twice", p->name);
		if (!t->ops->xrecv)
			return bad(error, who, t, "has ports but no xrecv");
	}
	return TRUE;
}

/* Does counter name `name` match one of the space-separated globs? */
gboolean ss_stat_sum_matches(const char *globs, const char *name)
{
	gchar **g = g_strsplit(globs, " ", -1);
	gboolean hit = FALSE;

	for (gchar **p = g; *p && !hit; p++)
		hit = **p && g_pattern_match_simple(*p, name);
	g_strfreev(g);
	return hit;
}

static gboolean check_stats(const struct ss_component_type *t,
			    const char *who, GError **error)
{
	for (const struct ss_stat_desc *s = t->stats; s && s->name; s++) {
		if (s->kind != SS_STAT_COUNTER && s->kind != SS_STAT_RATIO &&
		    s->kind != SS_STAT_SUM && s->kind != SS_STAT_REAL)
			return bad(error, who, t, "statistic '%s' has no kind", s->name);
		for (const struct ss_stat_desc *q = t->stats; q != s; q++)
			if (strcmp(q->name, s->name) == 0)
				return bad(error, who, t, "statistic '%s' declared twice", s->name);
		if (s->kind == SS_STAT_SUM) {
			bool found = false;

			for (const struct ss_stat_desc *q = t->stats; q->name && s->num; q++)
				if (q->kind == SS_STAT_COUNTER &&
				    ss_stat_sum_matches(s->num, q->name))
					found = true;
			if (!found)
				return bad(error, who, t, "sum '%s': no counter of the table matches '%s'",
					   s->name, s->num ? s->num : "(null)");
			continue;
		}
		if (s->kind != SS_STAT_RATIO)
			continue;
		for (int k = 0; k < 2; k++) {
			const char *ref = k ? s->den : s->num;
			bool found = false;

			for (const struct ss_stat_desc *q = t->stats; q->name; q++)
				if (ref && strcmp(q->name, ref) == 0 &&
				    (q->kind == SS_STAT_COUNTER || q->kind == SS_STAT_SUM))
					found = true;
			if (!found)
				return bad(error, who, t, "ratio '%s' needs counter '%s' in the same table",
					   s->name, ref ? ref : "(null)");
		}
	}
	return TRUE;
}

gboolean ss_registry_add(struct ss_registry *r,
			 const struct ss_component_type *t, GError **error)
{
	const char *who = r->loading ? r->loading : "built-in";

	if (!t)
		return bad(error, who, NULL, "NULL type");
	/* Read nothing but the first field before the version is known good. */
	if (t->abi_version != SS_ABI_VERSION) {
		return ss_set_error(error, SS_ERROR_PLUGIN,
			"plugin %s was built for ABI %u, this sectorsim has ABI %u; rebuild the plugin",
			who, t->abi_version, SS_ABI_VERSION);
	}
	if (!valid_name(t->name))
		return bad(error, who, t, "type name is not [a-z][a-z0-9_]*");
	if (!t->summary || !t->ops)
		return bad(error, who, t, "summary and ops are required");
	if (t->instance_size < sizeof(struct ss_component))
		return bad(error, who, t, "instance_size %zu is smaller than struct ss_component",
			   t->instance_size);
	if (g_hash_table_contains(r->types, t->name))
		return bad(error, who, t, "already registered by %s",
			   (const char *)g_hash_table_lookup(r->origin, t->name));
	if (!check_params(t, who, error) || !check_ports(t, who, error) ||
	    !check_stats(t, who, error))
		return FALSE;
	g_hash_table_insert(r->types, (char *)t->name, (gpointer)t);
	g_hash_table_insert(r->origin, (char *)t->name, g_strdup(who));
	return TRUE;
}

const struct ss_component_type *ss_registry_lookup(struct ss_registry *r,
						   const char *name)
{
	return g_hash_table_lookup(r->types, name);
}

const char *ss_registry_origin(struct ss_registry *r, const char *name)
{
	return g_hash_table_lookup(r->origin, name);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **ss_registry_names(struct ss_registry *r, size_t *n)
{
	guint len = 0;
	const char **names =
		(const char **)g_hash_table_get_keys_as_array(r->types, &len);

	qsort(names, len, sizeof(*names), cmp_names);
	*n = len;
	return names;
}

/* ---- plugins ------------------------------------------------------------ */

char **ss_plugin_search_path(const char *const *ini_dirs)
{
	GPtrArray *dirs = g_ptr_array_new();
	const char *env = g_getenv("SECTORSIM_PLUGIN_PATH");

	for (size_t i = 0; ini_dirs && ini_dirs[i]; i++)
		g_ptr_array_add(dirs, g_strdup(ini_dirs[i]));
	if (env) {
		char **parts = g_strsplit(env, G_SEARCHPATH_SEPARATOR_S, -1);

		/* An empty entry would mean the current folder in a shell's
		 * PATH; plugins are never loaded from there implicitly. */
		for (char **p = parts; *p; p++)
			if (**p)
				g_ptr_array_add(dirs, g_strdup(*p));
		g_strfreev(parts);
	}
	g_ptr_array_add(dirs, g_strdup(PKGLIBDIR));
	g_ptr_array_add(dirs, NULL);
	return (char **)g_ptr_array_free(dirs, FALSE);
}

static gboolean open_plugin(struct ss_registry *r, const char *path,
			    GError **error)
{
	char *canon = g_canonicalize_filename(path, NULL);
	GModule *mod;
	ss_plugin_register_fn reg = NULL;
	GError *local = NULL;
	gboolean ok;

	if (g_hash_table_contains(r->loaded, canon)) {
		g_free(canon);
		return TRUE;
	}
	/* No lazy binding: a plugin with an unresolved symbol fails here,
	 * with the loader's message, instead of crashing mid-run. */
	mod = g_module_open_full(canon, G_MODULE_BIND_LOCAL, &local);
	if (!mod) {
		g_set_error(error, SS_ERROR, SS_ERROR_PLUGIN,
			    "cannot load plugin %s: %s", canon, local->message);
		g_error_free(local);
		g_free(canon);
		return FALSE;
	}
	if (!g_module_symbol(mod, "sectorsim_plugin_register",
			     (gpointer *)&reg) || !reg) {
		g_set_error(error, SS_ERROR, SS_ERROR_PLUGIN,
			    "%s is not a sectorsim plugin: it exports no sectorsim_plugin_register",
			    canon);
		g_module_close(mod);
		g_free(canon);
		return FALSE;
	}
	/* The type tables live in the module: it must never be unloaded. */
	g_module_make_resident(mod);
	r->loading = canon;
	ok = reg(r, error);
	r->loading = NULL;
	if (ok)
		g_hash_table_add(r->loaded, canon);
	else
		g_free(canon);
	return ok;
}

gboolean ss_registry_load_plugin(struct ss_registry *r, const char *name,
				 const char *const *dirs, GError **error)
{
	if (strchr(name, '/'))
		return open_plugin(r, name, error);

	GString *tried = g_string_new(NULL);

	for (size_t i = 0; dirs && dirs[i]; i++) {
		char *file = g_strdup_printf("%s.so", name);
		char *path = g_build_filename(dirs[i], file, NULL);
		gboolean found = g_file_test(path, G_FILE_TEST_IS_REGULAR);
		gboolean ok = found && open_plugin(r, path, error);

		g_free(file);
		g_free(path);
		if (found) {
			g_string_free(tried, TRUE);
			return ok;
		}
		g_string_append_printf(tried, "%s%s", i ? ", " : "", dirs[i]);
	}
	g_set_error(error, SS_ERROR, SS_ERROR_PLUGIN,
		    "plugin '%s' not found as %s.so in: %s (set plugin_path in [simulation] or SECTORSIM_PLUGIN_PATH)",
		    name, name, tried->str);
	g_string_free(tried, TRUE);
	return FALSE;
}

/* ---- the catalogue -------------------------------------------------------- */

void ss_registry_list(struct ss_registry *r, FILE *out)
{
	size_t n;
	const char **names = ss_registry_names(r, &n);

	if (n == 0)
		fprintf(out, "no component types registered\n");
	for (size_t i = 0; i < n; i++) {
		const struct ss_component_type *t = ss_registry_lookup(r, names[i]);

		fprintf(out, "%-20s %s\n", t->name, t->summary);
	}
	g_free(names);

	GList *cmds = g_list_sort(g_hash_table_get_keys(r->commands),
				  (GCompareFunc)strcmp);

	if (cmds)
		fprintf(out, "\ncommands (sectorsim NAME --help):\n");
	for (GList *l = cmds; l; l = l->next) {
		const struct ss_command *c = g_hash_table_lookup(r->commands, l->data);

		fprintf(out, "%-20s %s\n", c->name, c->summary);
	}
	g_list_free(cmds);
}

static void describe_param(const struct ss_param_desc *d, FILE *out)
{
	char *type;

	if (d->type == SS_P_ENUM) {
		char *all = g_strjoinv("|", (char **)d->choices);

		type = g_strdup_printf("enum(%s)", all);
		g_free(all);
	} else {
		type = g_strdup(ss_param_type_name(d->type));
	}
	fprintf(out, "  %-20s %-12s %s", d->name, type,
		d->def ? "" : "required");
	if (d->def)
		fprintf(out, "default %s", *d->def ? d->def : "\"\"");
	if (d->min || d->max)
		fprintf(out, ", %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
			d->min, d->max);
	if (d->flags & SS_PF_POW2)
		fprintf(out, ", power of two");
	fprintf(out, "\n      %s\n", d->doc ? d->doc : "");
	g_free(type);
}

gboolean ss_registry_describe(struct ss_registry *r, const char *name,
			      FILE *out, GError **error)
{
	const struct ss_component_type *t = ss_registry_lookup(r, name);

	if (!t) {
		size_t n;
		const char **names = ss_registry_names(r, &n);
		const char *near = ss_did_you_mean(name, names, n);

		g_set_error(error, SS_ERROR, SS_ERROR_CONFIG,
			    "unknown component type '%s'%s%s%s (types come from built-ins and from plugins: --plugin NAME or a CONFIG.ini that loads them)",
			    name, near ? "; did you mean '" : "", near ? near : "",
			    near ? "'?" : "");
		g_free(names);
		return FALSE;
	}
	fprintf(out, "%s: %s\n", t->name, t->summary);
	fprintf(out, "from: %s (ABI %u)\n", ss_registry_origin(r, name),
		t->abi_version);
	fprintf(out, "\nparameters:\n");
	if (!t->params || !t->params->name)
		fprintf(out, "  (none)\n");
	for (const struct ss_param_desc *d = t->params; d && d->name; d++)
		describe_param(d, out);
	fprintf(out, "\nports:\n");
	if (!t->ports || !t->ports->name)
		fprintf(out, "  (none)\n");
	for (const struct ss_port_desc *p = t->ports; p && p->name; p++) {
		char pname[128];

		g_snprintf(pname, sizeof(pname), "%s%s", p->name,
			   p->vector ? "[]" : "");
		fprintf(out, "  %-20s %-3s %-14s %-8s %s\n      %s\n", pname,
			p->dir == SS_PORT_OUT ? "out" : "in", p->protocol,
			p->required ? "required" : "optional",
			p->vector ? "vector: sized by its links, count readable as <port>_count" : "scalar",
			p->doc ? p->doc : "");
	}
	fprintf(out, "\nstatistics:\n");
	if (!t->stats || !t->stats->name)
		fprintf(out, "  (none)\n");
	for (const struct ss_stat_desc *s = t->stats; s && s->name; s++) {
		if (s->kind == SS_STAT_RATIO)
			fprintf(out, "  %-20s ratio %s / %s\n      %s\n", s->name,
				s->num, s->den, s->doc ? s->doc : "");
		else if (s->kind == SS_STAT_REAL)
			fprintf(out, "  %-20s real\n      %s\n", s->name,
				s->doc ? s->doc : "");
		else if (s->kind == SS_STAT_SUM)
			fprintf(out, "  %-20s sum of %s\n      %s\n", s->name,
				s->num, s->doc ? s->doc : "");
		else
			fprintf(out, "  %-20s counter\n      %s\n", s->name,
				s->doc ? s->doc : "");
	}
	return TRUE;
}
