/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Printing a checked plan: --dump-config writes the configuration back as
 * one INI with includes, templates and -p applied and the defaults shown as
 * comments (it loads to the same plan from any folder), --dot the
 * component graph for Graphviz.  Its
 * own file because it only reads the plan and changes nothing.
 */
#include "config.h"

#include <string.h>
#include "sim_internal.h"

/* KEY = VALUE, quoted as needed; after `prefix` (a comment's "; ...") when
 * not NULL. */
static void print_entry(FILE *out, const char *prefix, const char *key, const char *v)
{
	/* iniparser cuts an unquoted value at ';' or '#', strips spaces at
	 * its ends and takes quotes, double or single, as delimiters. */
	bool quote = strpbrk(v, ";#\"'") || (*v && (g_ascii_isspace(v[0]) ||
				      g_ascii_isspace(v[strlen(v) - 1])));

	if (!quote)
		fprintf(out, "%s%s = %s\n", prefix ? prefix : "", key, v);
	else if (!strchr(v, '"'))
		fprintf(out, "%s%s = \"%s\"\n", prefix ? prefix : "", key, v);
	else if (!strchr(v, '\''))
		fprintf(out, "%s%s = '%s'\n", prefix ? prefix : "", key, v);
	else
		fprintf(out, "; %s holds both quote characters, which an INI value cannot\n%s%s = \"%s\"\n",
			key, prefix ? prefix : "", key, v);
}

static void print_value(FILE *out, const char *key, const char *v)
{
	print_entry(out, NULL, key, v);
}

static const char *param_text(struct plan_comp *pc, unsigned inst, int idx)
{
	const char *t = pc->params[inst]->values[idx].text;

	return t ? t : "";
}

void ss_sim_dump_config(struct ss_sim *s, FILE *out)
{
	struct ini_section *sim = ini_doc_section(s->doc, "simulation");

	fprintf(out, "; %s, expanded: includes, templates and overrides applied; defaults as comments\n",
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
		if (pc->thread_group)
			fprintf(out, "thread_group = %s\n", pc->thread_group);
		for (unsigned g = 0; g < pc->n_groups; g++)
			if (pc->explicit_count[g] >= 0)
				fprintf(out, "%s_count = %d\n", pc->type->ports[g].name,
					pc->explicit_count[g]);
		for (int idx = 0; pc->type->params && pc->type->params[idx].name; idx++) {
			const char *name = pc->type->params[idx].name;

			/* a default, shown but not given: read back, it stays a
			 * default (a component may refuse a key given in vain) */
			print_entry(out, pc->params[0]->values[idx].set ? NULL : "; default: ",
				    name, param_text(pc, 0, idx));
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

	const GPtrArray *sweep = ss_sim_sweep_entries(s);

	if (sweep && sweep->len) {
		fprintf(out, "\n[sweep]\n");
		for (guint i = 0; i < sweep->len; i++) {
			const struct ini_entry *e = sweep->pdata[i];

			print_value(out, e->key, e->value);
		}
	}
}

const GPtrArray *ss_sim_sweep_entries(struct ss_sim *s)
{
	struct ini_section *sw = ini_doc_section(s->doc, "sweep");

	return sw ? sw->entries : NULL;
}

/* One node per instance and one edge per connection (full), as below. */
static void dot_full(struct ss_sim *s, FILE *out)
{
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];

		for (unsigned i = 0; i < pc->count; i++) {
			char *n = sim_inst_name(pc, i);

			fprintf(out, "\t\"%s\" [label=\"%s\\n%s\"];\n", n, n, pc->type->name);
			g_free(n);
		}
	}
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];

		for (guint k = 0; k < l->pairs->len; k++) {
			struct plan_pair *p = &g_array_index(l->pairs, struct plan_pair, k);
			char *a = sim_inst_name(p->fc, p->fi), *b = sim_inst_name(p->tc, p->ti);
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
}

/* The node of component pc: NAME, or NAME[0..N-1] for an array. */
static char *dot_node(const struct plan_comp *pc)
{
	return pc->is_array ? g_strdup_printf("%s[0..%u]", pc->sec->name, pc->count - 1)
			    : g_strdup(pc->sec->name);
}

/*
 * One node per component, an array's instances together, and one edge
 * per link and pair of ports, with how many connections it stands for:
 * a GPU of 80 SMs is a graph of a dozen nodes.
 */
static void dot_collapsed(struct ss_sim *s, FILE *out)
{
	for (guint c = 0; c < s->comps->len; c++) {
		struct plan_comp *pc = s->comps->pdata[c];
		char *n = dot_node(pc);

		if (pc->is_array)
			fprintf(out, "\t\"%s\" [label=\"%s\\n%s x %u\", shape=box3d];\n",
				n, n, pc->type->name, pc->count);
		else
			fprintf(out, "\t\"%s\" [label=\"%s\\n%s\"];\n", n, n, pc->type->name);
		g_free(n);
	}
	for (guint i = 0; i < s->links->len; i++) {
		struct plan_link *l = s->links->pdata[i];
		/* the link's edges in the order first met, with their counts;
		 * an edge of one connection says its ports exactly */
		GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
		GPtrArray *exact = g_ptr_array_new_with_free_func(g_free);
		GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
		GArray *count = g_array_new(FALSE, TRUE, sizeof(unsigned));

		for (guint k = 0; k < l->pairs->len; k++) {
			struct plan_pair *p = &g_array_index(l->pairs, struct plan_pair, k);
			char *a = dot_node(p->fc), *b = dot_node(p->tc);
			const struct ss_port_desc *fd = &p->fc->type->ports[p->fg];
			const struct ss_port_desc *td = &p->tc->type->ports[p->tg];
			char *key = g_strdup_printf("\"%s\" -> \"%s\" [label=\"%s%s -> %s%s", a, b,
						    fd->name, fd->vector ? "[*]" : "",
						    td->name, td->vector ? "[*]" : "");
			gpointer at;

			if (g_hash_table_lookup_extended(index, key, NULL, &at)) {
				g_array_index(count, unsigned, GPOINTER_TO_UINT(at))++;
				g_free(key);
			} else {
				char fx[32] = "", tx[32] = "";
				unsigned one = 1;

				if (fd->vector)
					g_snprintf(fx, sizeof(fx), "[%u]", p->fx);
				if (td->vector)
					g_snprintf(tx, sizeof(tx), "[%u]", p->tx);
				g_hash_table_insert(index, key, GUINT_TO_POINTER(keys->len));
				g_ptr_array_add(keys, key);
				g_ptr_array_add(exact, g_strdup_printf("\"%s\" -> \"%s\" [label=\"%s%s -> %s%s",
								      a, b, fd->name, fx, td->name, tx));
				g_array_append_val(count, one);
			}
			g_free(a);
			g_free(b);
		}
		for (guint k = 0; k < keys->len; k++) {
			unsigned n = g_array_index(count, unsigned, k);

			if (n > 1)
				fprintf(out, "\t%s x %u\"];\n", (char *)keys->pdata[k], n);
			else
				fprintf(out, "\t%s\"];\n", (char *)exact->pdata[k]);
		}
		g_hash_table_destroy(index);
		g_array_free(count, TRUE);
		g_ptr_array_free(exact, TRUE);
		g_ptr_array_free(keys, TRUE);
	}
}

void ss_sim_dot(struct ss_sim *s, FILE *out, bool full)
{
	fprintf(out, "digraph sectorsim {\n\trankdir=LR;\n\tnode [shape=box];\n");
	if (full)
		dot_full(s, out);
	else
		dot_collapsed(s, out);
	fprintf(out, "}\n");
}
