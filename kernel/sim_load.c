/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ss_sim_load: an INI document (with its includes) to a checked plan, in
 * this order: -p overrides are read, [simulation] is read and its plugins
 * loaded, each [component] is planned, -p and the command line's input are
 * applied to the components, required parameters are checked, each [link]
 * is expanded, ports are sized, and unused templates are reported.  Every
 * problem of every step is collected ("file:line: ..."), so one run lists
 * them all.  Its own file because it holds the order of the steps and the
 * error list they share.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include "sim_internal.h"

static const char *const sim_keys[] = {
	"include", "plugin_path", "plugins", "max_ticks", "memory", NULL
};

void sim_err_at(struct ss_sim *s, const char *loc, const char *fmt, ...)
    {
	va_list ap;
	char *msg, *line;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	line = g_strdup_printf("%s: %s", loc, msg);
	/*
	 * The same template key can fail for several components: say it once.
	 * (Not g_hash_table_add's verdict alone: on a repeat it would keep
	 * the new pointer, which is freed here.)
	 */
	if (g_hash_table_contains(s->errors_said, line)) {
		g_free(line);
	} else {
		g_hash_table_add(s->errors_said, line);
		g_ptr_array_add(s->errors, line);
	}
	g_free(msg);
}

char *sim_suggest(const char *word, GPtrArray *cands)
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
	g_free(s->max_ticks_loc);
	if (s->errors)
		g_ptr_array_free(s->errors, TRUE);
	g_hash_table_destroy(s->errors_said);
	ini_doc_free(s->doc);
	g_free(s);
}

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

			sim_err_at(s, e->loc, "[simulation] unknown key '%s'; expected one of include, plugin_path, plugins, max_ticks, memory%s%s%s",
				   e->key, near ? "; did you mean '" : "", near ? near : "",
				   near ? "'?" : "");
		}
	}
	mt = ini_section_get(sim, "max_ticks");
	if (mt) {
		guint64 v;

		if (!g_ascii_string_to_unsigned(mt->value, 10, 0, G_MAXUINT64, &v, NULL))
			sim_err_at(s, mt->loc, "[simulation] max_ticks = %s: expected a whole number of ticks (0 = no limit)",
				   mt->value);
		else
			s->max_ticks = v;
		s->max_ticks_loc = g_strdup(mt->loc);
	}
	mt = ini_section_get(sim, "memory");
	if (mt) {
		static const struct ss_param_desc memory = {
			"memory", SS_P_SIZE, NULL, "", NULL, 0, 0, 0,
		};
		struct ss_pvalue v = { 0 };
		char *why = NULL;

		if (!ss_param_parse(&memory, mt->value, NULL, &v, &why))
			sim_err_at(s, mt->loc, "[simulation] memory = %s: expected the memory the run may use, a size such as 8GiB",
				   mt->value);
		else
			s->memory = v.v.u;
		g_free(v.text);
		g_free(why);
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
				sim_err_at(s, pl->loc, "[simulation] plugins: %s", err->message);
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
				sim_set_param(s, pc->params[i], idx, input, cwd, loc,
					      "input");
			n++;
		}
	}
	if (!n)
		sim_err_at(s, loc, "no component of this configuration reads an input; expected a component with an input parameter, such as trace_source's path");
	g_free(loc);
	g_free(cwd);
}

/* Each component, then the -p overrides and the input on top. */
static void plan_components(struct ss_sim *s, const char *input)
{
	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];

		if (!strcmp(sec->kind, "component"))
			sim_plan_component(s, sec);
	}
	sim_apply_overrides(s);
	if (input)
		apply_input(s, input);
	for (guint i = 0; i < s->comps->len; i++) {
		struct plan_comp *pc = s->comps->pdata[i];

		if (pc->ok) {
			sim_check_required(s, pc);
			pc->bound = g_new0(GHashTable *, pc->count * pc->n_groups + 1);
		}
	}
}

/* Each link, then the ports they size. */
static void plan_links(struct ss_sim *s)
{
	for (guint i = 0; i < s->doc->sections->len; i++) {
		struct ini_section *sec = s->doc->sections->pdata[i];

		if (!strcmp(sec->kind, "link"))
			sim_plan_link(s, sec);
	}
	for (guint i = 0; i < s->comps->len; i++) {
		struct plan_comp *pc = s->comps->pdata[i];

		if (pc->ok)
			sim_size_ports(s, pc);
	}
}

/*
 * The errors as printed: a message quotes the file, whose bytes may be
 * anything, so its control characters are shown as \xNN (one line each,
 * nothing raw to the terminal).  Takes a g_malloc()ed string.
 */
static char *escape_controls(char *line)
{
	GString *out = g_string_new(NULL);

	for (const char *p = line; *p; p++) {
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			g_string_append_printf(out, "\\x%02x", (unsigned char)*p);
		else
			g_string_append_c(out, *p);
	}
	g_free(line);
	return g_string_free(out, FALSE);
}

/* The first "[N]" of line: where N starts and ends (past the digits). */
static bool find_index(const char *line, size_t *at, size_t *end, uint64_t *n)
{
	for (const char *p = strchr(line, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1;

		while (g_ascii_isdigit(*q))
			q++;
		if (q > p + 1 && *q == ']' && q - p < 12) {
			*at = (size_t)(p + 1 - line);
			*end = (size_t)(q - line);
			*n = g_ascii_strtoull(p + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

#define MAX_ERRORS 20

/*
 * Errors that differ only in one array index, one after another (l1[0]
 * to l1[79] not linked), are said once with the range, l1[0..79]; and at
 * most MAX_ERRORS are kept, then how many more there were, since past the
 * first few (a trace given as the configuration has thousands) the rest
 * is noise.
 */
static GPtrArray *tidy_errors(GPtrArray *in)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	guint i = 0, more = 0;

	while (i < in->len) {
		const char *line = in->pdata[i];
		size_t at, end, at2, end2;
		uint64_t first, n, last;
		guint j = i + 1;
		char *said;

		if (find_index(line, &at, &end, &first)) {
			last = first;
			while (j < in->len) {
				const char *next = in->pdata[j];

				if (!find_index(next, &at2, &end2, &n) || at2 != at ||
				    n != last + 1 || strncmp(line, next, at) ||
				    strcmp(line + end, next + end2))
					break;
				last = n;
				j++;
			}
		}
		if (j > i + 1)
			said = g_strdup_printf("%.*s%" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "%s",
					       (int)at, line, first, last, line + end);
		else
			said = g_strdup(line);
		if (out->len < MAX_ERRORS)
			g_ptr_array_add(out, escape_controls(said));
		else {
			g_free(said);
			more++;
		}
		i = j;
	}
	if (more)
		g_ptr_array_add(out, g_strdup_printf("... and %u more error%s", more,
						     more == 1 ? "" : "s"));
	g_ptr_array_free(in, TRUE);
	return out;
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
	s->errors_said = g_hash_table_new(g_str_hash, g_str_equal);
	s->doc = ini_doc_load(ini);
	if (s->doc->errors->len) {
		for (guint i = 0; i < s->doc->errors->len; i++)
			g_ptr_array_add(s->errors, g_strdup(s->doc->errors->pdata[i]));
		goto fail;
	}
	for (size_t i = 0; overrides && overrides[i]; i++)
		sim_parse_override(s, overrides[i]);
	load_sim_section(s);
	plan_components(s, input);
	plan_links(s);
	sim_check_templates_used(s);
	if (s->errors->len)
		goto fail;
	return s;
fail:
	/* the set points into the array, which goes to the caller */
	g_hash_table_remove_all(s->errors_said);
	*errors = tidy_errors(s->errors);
	s->errors = NULL;
	ss_sim_free(s);
	return NULL;
}
