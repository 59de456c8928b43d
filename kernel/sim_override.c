/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command line's -p SECTION[.N].KEY=VALUE.  A -p on a component is
 * parsed at once but applied after all sections are read, so it wins over
 * every key in the file, in command-line order; a -p on any other section
 * (such as [simulation]) simply replaces that key before the section is read.
 * Its own file because it is the one input that does not come from the INI.
 */
#include "config.h"

#include <string.h>
#include "sim_internal.h"

void sim_parse_override(struct ss_sim *s, const char *text)
{
	char *loc = g_strdup_printf("command line -p %s", text);
	const char *eq = strchr(text, '=');
	const char *p = text;
	char *secname = NULL, *key = NULL;
	struct sel sel = { SEL_NONE, 0, 0 }, ksel;

	while (*p && *p != '.' && *p != '[' && *p != '=')
		p++;
	secname = g_strndup(text, p - text);
	if (!eq || !*secname || !sim_parse_sel(&p, &sel) || *p != '.' || p + 1 >= eq) {
		sim_err_at(s, loc, "expected SECTION.KEY=VALUE or SECTION[N].KEY=VALUE");
		goto out;
	}
	key = g_strstrip(g_strndup(p + 1, eq - p - 1));
	char *kname = NULL;

	if (!sim_split_indexed(key, &kname, &ksel) || (sel.kind && ksel.kind)) {
		sim_err_at(s, loc, "key '%s': bad index; expected SECTION.KEY, SECTION[N].KEY or SECTION.KEY[A..B]", key);
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
		char *hint = sim_suggest(secname, names);

		sim_err_at(s, loc, "no section named '%s'%s", secname, hint);
		g_free(hint);
		g_ptr_array_free(names, TRUE);
	} else if (!strcmp(sec->kind, "template")) {
		sim_err_at(s, loc, "'%s' is a template; override the component that extends it", secname);
	} else if (!strcmp(sec->kind, "component")) {
		struct cli_override *o = g_new0(struct cli_override, 1);

		o->section = g_strdup(secname);
		o->loc = g_strdup(loc);
		o->key = g_strdup(kname);
		o->value = g_strstrip(g_strdup(eq + 1));
		/* no index, or [*]: every instance */
		bool some = sel.kind == SEL_ONE || sel.kind == SEL_RANGE;

		o->i0 = some ? sel.a : 0;
		o->i1 = some ? sel.b : UINT_MAX;
		o->indexed = sel.kind != SEL_NONE;
		g_ptr_array_add(s->overrides, o);
	} else if (sel.kind) {
		sim_err_at(s, loc, "[%s %s] is not an array; expected %s.%s=VALUE", sec->kind, secname, secname, kname);
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

void sim_apply_overrides(struct ss_sim *s)
{
	for (guint k = 0; k < s->overrides->len; k++) {
		struct cli_override *o = s->overrides->pdata[k];
		struct plan_comp *pc = g_hash_table_lookup(s->comp_by_name, o->section);

		if (!pc || !pc->ok)
			continue;
		int idx = ss_param_table_find(pc->type->params, o->key);

		if (idx < 0) {
			GPtrArray *k2 = sim_allowed_keys(pc->type, false);
			char *hint = sim_suggest(o->key, k2);

			sim_err_at(s, o->loc, "component '%s' (type %s) has no parameter '%s'%s",
				   pc->sec->name, pc->type->name, o->key, hint);
			g_free(hint);
			g_ptr_array_free(k2, TRUE);
			continue;
		}
		if (o->indexed && !pc->is_array) {
			sim_err_at(s, o->loc, "'%s' is not an array (no count =); expected %s.%s=VALUE",
				   pc->sec->name, pc->sec->name, o->key);
			continue;
		}
		if (o->i1 != UINT_MAX && o->i1 >= pc->count) {
			sim_err_at(s, o->loc, "index %u out of range; '%s' has %u instances (0..%u)",
				   o->i1, pc->sec->name, pc->count, pc->count - 1);
			continue;
		}
		unsigned last = o->i1 == UINT_MAX ? pc->count - 1 : o->i1;

		for (unsigned i = o->i0; i <= last; i++)
			sim_set_param(s, pc->params[i], idx, o->value, NULL, o->loc,
				      "override");
	}
}
