/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics: named 64-bit counters owned by components, sums and ratios
 * over them, aggregation over array indices, phases and dumps.  Sums and
 * aggregates are computed when read, never maintained, so a counter
 * increment stays a plain add.
 */
#include "config.h"

#include <string.h>
#include "internal.h"

struct ss_stat_entry {
	char *name;		/* "l1[3].read_hits" */
	char *group;		/* "l1.read_hits" */
	const char *doc;
	enum ss_stat_kind kind;
	uint64_t *slot;		/* counters */
	unsigned num, den;	/* ratios: entry indices of the two counters */
	GArray *terms;		/* sums: slots (uint64_t *) of their counters */
};

struct ss_phase {
	char *label;
	uint64_t *values;	/* one per entry, counters only */
	unsigned n;
};

struct ss_stats {
	GPtrArray *entries;	/* struct ss_stat_entry * */
	GHashTable *by_name;	/* name -> index + 1 */
	GPtrArray *phases;	/* struct ss_phase * */
	GPtrArray *owned;	/* slots allocated for dynamic counters */
	GHashTable *sum_rows;	/* type -> its sums' counter rows (sum_rows_of) */
};

static void entry_free(gpointer p)
{
	struct ss_stat_entry *en = p;

	g_free(en->name);
	g_free(en->group);
	if (en->terms)
		g_array_free(en->terms, TRUE);
	g_free(en);
}

static void phase_free(gpointer p)
{
	struct ss_phase *ph = p;

	g_free(ph->label);
	g_free(ph->values);
	g_free(ph);
}

struct ss_stats *ss_stats_new(void)
{
	struct ss_stats *s = g_new0(struct ss_stats, 1);

	s->entries = g_ptr_array_new_with_free_func(entry_free);
	s->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	s->phases = g_ptr_array_new_with_free_func(phase_free);
	s->owned = g_ptr_array_new_with_free_func(g_free);
	return s;
}

void ss_stats_free(struct ss_stats *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->by_name);
	g_ptr_array_free(s->entries, TRUE);
	g_ptr_array_free(s->phases, TRUE);
	g_ptr_array_free(s->owned, TRUE);
	if (s->sum_rows)
		g_hash_table_destroy(s->sum_rows);
	g_free(s);
}

char *ss_stats_group_name(const char *name)
{
	/* at most as long as name: a plain copy, once per statistic at start */
	char *g = g_malloc(strlen(name) + 1), *o = g;

	for (const char *p = name; *p; p++) {
		if (*p == '[') {
			const char *close = strchr(p, ']');

			if (close) {
				p = close;
				continue;
			}
		}
		*o++ = *p;
	}
	*o = '\0';
	return g;
}

static int entry_index(struct ss_stats *s, const char *name)
{
	gpointer v = g_hash_table_lookup(s->by_name, name);

	return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

static struct ss_stat_entry *add_entry(struct ss_stats *s,
				       struct ss_component *c,
				       const char *name, const char *doc,
				       enum ss_stat_kind kind)
{
	struct ss_stat_entry *en = g_new0(struct ss_stat_entry, 1);

	en->name = g_strconcat(c->name, ".", name, NULL);
	if (entry_index(s, en->name) >= 0)
		g_error("statistic '%s' registered twice", en->name);
	en->group = ss_stats_group_name(en->name);
	en->doc = doc;
	en->kind = kind;
	g_ptr_array_add(s->entries, en);
	g_hash_table_insert(s->by_name, en->name,
			    GINT_TO_POINTER(s->entries->len));
	return en;
}

static void resolve_ratio(struct ss_stats *s, struct ss_component *c,
			  struct ss_stat_entry *en, const char *num,
			  const char *den)
{
	char *n = g_strconcat(c->name, ".", num, NULL);
	char *d = g_strconcat(c->name, ".", den, NULL);
	int ni = entry_index(s, n), di = entry_index(s, d);

	if (ni < 0 || di < 0)
		g_error("ratio '%s' refers to unknown counter '%s'", en->name,
			ni < 0 ? n : d);
	en->num = ni;
	en->den = di;
	g_free(n);
	g_free(d);
}

static void free_sum_rows(gpointer p)
{
	GArray *rows = p;

	for (guint i = 0; i < rows->len; i++)
		if (g_array_index(rows, GArray *, i))
			g_array_free(g_array_index(rows, GArray *, i), TRUE);
	g_array_free(rows, TRUE);
}

/*
 * For each SS_STAT_SUM row of a type's table, the rows of the counters it
 * adds up: matched once per type, not once per instance (80 L1s would
 * otherwise compile the same globs 80 times).
 */
static GArray *sum_rows_of(struct ss_stats *s, const struct ss_component_type *type)
{
	const struct ss_stat_desc *t = type->stats;
	GArray *rows;
	size_t n = 0;

	if (!s->sum_rows)
		s->sum_rows = g_hash_table_new_full(g_direct_hash, g_direct_equal,
						    NULL, free_sum_rows);
	rows = g_hash_table_lookup(s->sum_rows, type);
	if (rows)
		return rows;
	for (; t && t[n].name; n++)
		;
	rows = g_array_sized_new(FALSE, TRUE, sizeof(GArray *), n);
	g_array_set_size(rows, n);
	for (size_t i = 0; i < n; i++) {
		if (t[i].kind != SS_STAT_SUM)
			continue;

		GArray *terms = g_array_new(FALSE, FALSE, sizeof(guint));
		gchar **globs = g_strsplit(t[i].num, " ", -1);

		for (gchar **g = globs; *g; g++) {
			GPatternSpec *ps = **g ? g_pattern_spec_new(*g) : NULL;

			for (guint k = 0; ps && k < n; k++) {
				bool seen = false;

				if (t[k].kind != SS_STAT_COUNTER ||
				    !g_pattern_spec_match_string(ps, t[k].name))
					continue;
				for (guint x = 0; x < terms->len; x++)
					seen |= g_array_index(terms, guint, x) == k;
				if (!seen)
					g_array_append_val(terms, k);
			}
			if (ps)
				g_pattern_spec_free(ps);
		}
		g_strfreev(globs);
		g_array_index(rows, GArray *, i) = terms;
	}
	g_hash_table_insert(s->sum_rows, (gpointer)type, rows);
	return rows;
}

void ss_stats_register_table(struct ss_component *c)
{
	struct ss_stats *s = c->engine->stats;
	const struct ss_stat_desc *t = c->type->stats;
	size_t n = 0;

	for (; t && t[n].name; n++)
		;
	c->stats = g_new0(uint64_t, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		struct ss_stat_entry *en =
			add_entry(s, c, t[i].name, t[i].doc, t[i].kind);

		if (t[i].kind == SS_STAT_COUNTER || t[i].kind == SS_STAT_REAL)
			en->slot = &c->stats[i];
	}
	/* sums before ratios, which may refer to them */
	GArray *rows = sum_rows_of(s, c->type);

	for (size_t i = 0; i < n; i++) {
		if (t[i].kind != SS_STAT_SUM)
			continue;
		char *full = g_strconcat(c->name, ".", t[i].name, NULL);
		struct ss_stat_entry *en = s->entries->pdata[entry_index(s, full)];
		GArray *terms = g_array_index(rows, GArray *, i);

		en->terms = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t *), terms->len);
		for (guint k = 0; k < terms->len; k++) {
			uint64_t *slot = &c->stats[g_array_index(terms, guint, k)];

			g_array_append_val(en->terms, slot);
		}
		g_free(full);
	}
	for (size_t i = 0; i < n; i++) {
		if (t[i].kind != SS_STAT_RATIO)
			continue;
		char *full = g_strconcat(c->name, ".", t[i].name, NULL);

		resolve_ratio(s, c, s->entries->pdata[entry_index(s, full)],
			      t[i].num, t[i].den);
		g_free(full);
	}
}

uint64_t *ss_stat_add_counter(struct ss_component *c, const char *name,
			      const char *doc)
{
	struct ss_stats *s = c->engine->stats;
	struct ss_stat_entry *en = add_entry(s, c, name, doc, SS_STAT_COUNTER);

	en->slot = g_new0(uint64_t, 1);
	g_ptr_array_add(s->owned, en->slot);
	return en->slot;
}

void ss_stat_add_ratio(struct ss_component *c, const char *name,
		       const char *doc, const char *num, const char *den)
{
	struct ss_stats *s = c->engine->stats;
	struct ss_stat_entry *en = add_entry(s, c, name, doc, SS_STAT_RATIO);

	resolve_ratio(s, c, en, num, den);
}

void ss_stats_reset(struct ss_engine *e)
{
	GPtrArray *en = e->stats->entries;

	for (guint i = 0; i < en->len; i++) {
		struct ss_stat_entry *x = en->pdata[i];

		if (x->kind == SS_STAT_COUNTER || x->kind == SS_STAT_REAL)
			*x->slot = 0;	/* 0.0 for a real */
	}
}

static uint64_t *snapshot(struct ss_stats *s)
{
	uint64_t *v = g_new0(uint64_t, s->entries->len ? s->entries->len : 1);

	for (guint i = 0; i < s->entries->len; i++) {
		struct ss_stat_entry *x = s->entries->pdata[i];

		if (x->kind == SS_STAT_COUNTER || x->kind == SS_STAT_REAL)
			v[i] = *x->slot;
		else if (x->kind == SS_STAT_SUM)
			for (guint k = 0; k < x->terms->len; k++)
				v[i] += *g_array_index(x->terms, uint64_t *, k);
	}
	return v;
}

void ss_stats_end_phase(struct ss_engine *e, const char *label)
{
	/* nobody will read the snapshots: memory must not grow with the
	 * number of phases (kernels) */
	if (ss_engine_run_options(e)->raw_stats_unread) {
		ss_stats_reset(e);
		return;
	}

	struct ss_phase *ph = g_new0(struct ss_phase, 1);

	ph->label = g_strdup(label);
	ph->values = snapshot(e->stats);
	ph->n = e->stats->entries->len;
	g_ptr_array_add(e->stats->phases, ph);
	ss_stats_reset(e);
}

const uint64_t *ss_stats_counter(struct ss_engine *e, const char *name)
{
	int i = entry_index(e->stats, name);
	struct ss_stat_entry *x = i < 0 ? NULL : e->stats->entries->pdata[i];

	return x && (x->kind == SS_STAT_COUNTER || x->kind == SS_STAT_REAL) ?
	       x->slot : NULL;
}

GPtrArray *ss_stats_counters_ending(struct ss_engine *e, const char *suffix)
{
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < e->stats->entries->len; i++) {
		const struct ss_stat_entry *x = e->stats->entries->pdata[i];

		if (x->kind == SS_STAT_COUNTER && g_str_has_suffix(x->name, suffix))
			g_ptr_array_add(out, x->name);
	}
	return out;
}

unsigned ss_stats_n_phases(struct ss_engine *e)
{
	return e->stats->phases->len;
}

/* ---- reading: one group = a name with its indices stripped ---------------- */

struct group {
	const char *name;
	GArray *members;	/* entry indices */
	bool indexed;		/* some member name differs from the group */
};

static GPtrArray *build_groups(struct ss_stats *s)
{
	GPtrArray *groups = g_ptr_array_new();
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < s->entries->len; i++) {
		struct ss_stat_entry *x = s->entries->pdata[i];
		struct group *g = g_hash_table_lookup(seen, x->group);

		if (!g) {
			g = g_new0(struct group, 1);
			g->name = x->group;
			g->members = g_array_new(FALSE, FALSE, sizeof(guint));
			g_hash_table_insert(seen, x->group, g);
			g_ptr_array_add(groups, g);
		}
		g_array_append_val(g->members, i);
		if (strcmp(x->name, x->group) != 0)
			g->indexed = true;
	}
	g_hash_table_destroy(seen);
	return groups;
}

static void groups_free(GPtrArray *groups)
{
	for (guint i = 0; i < groups->len; i++) {
		struct group *g = groups->pdata[i];

		g_array_free(g->members, TRUE);
		g_free(g);
	}
	g_ptr_array_free(groups, TRUE);
}

static double div0(double a, double b)
{
	return b == 0 ? 0 : a / b;
}

/* Value of one entry, or (all = true) of the sum over a group's members. */
static double value_of(struct ss_stats *s, const uint64_t *vals,
		       const struct group *g, guint only, bool all)
{
	double num = 0, den = 0, sum = 0;
	guint n = all ? g->members->len : 1;

	for (guint k = 0; k < n; k++) {
		guint i = all ? g_array_index(g->members, guint, k) : only;
		struct ss_stat_entry *x = s->entries->pdata[i];

		if (x->kind == SS_STAT_REAL) {
			sum += ss_stat_real(&vals[i]) / n;	/* the mean */
		} else if (x->kind != SS_STAT_RATIO) {
			sum += (double)vals[i];
		} else {
			num += (double)vals[x->num];
			den += (double)vals[x->den];
		}
	}
	struct ss_stat_entry *first =
		s->entries->pdata[g_array_index(g->members, guint, 0)];

	return first->kind != SS_STAT_RATIO ? sum : div0(num, den);
}

static bool lookup_in(struct ss_stats *s, const uint64_t *vals,
		      const char *name, double *value)
{
	int i = entry_index(s, name);
	GPtrArray *groups = build_groups(s);
	bool found = false;

	for (guint k = 0; k < groups->len && !found; k++) {
		struct group *g = groups->pdata[k];

		if (i >= 0) {
			for (guint m = 0; m < g->members->len; m++)
				if (g_array_index(g->members, guint, m) ==
				    (guint)i) {
					*value = value_of(s, vals, g, i, false);
					found = true;
				}
		} else if (g->indexed && strcmp(g->name, name) == 0) {
			*value = value_of(s, vals, g, 0, true);
			found = true;
		}
	}
	groups_free(groups);
	return found;
}

bool ss_stats_lookup(struct ss_engine *e, const char *name, double *value)
{
	uint64_t *vals = snapshot(e->stats);
	bool ok = lookup_in(e->stats, vals, name, value);

	g_free(vals);
	return ok;
}

bool ss_stats_lookup_phase(struct ss_engine *e, unsigned phase,
			   const char *name, double *value)
{
	if (phase >= e->stats->phases->len)
		return false;
	struct ss_phase *ph = e->stats->phases->pdata[phase];

	return lookup_in(e->stats, ph->values, name, value);
}

/* ---- dumps ---------------------------------------------------------------- */

static void format_value(char *buf, size_t len, bool counter, double v)
{
	if (counter)
		g_snprintf(buf, len, "%.0f", v);
	else
		g_snprintf(buf, len, "%.6f", v);
}

static char *json_escape(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_printf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			g_string_append_printf(o, "\\u%04x", *s);
		else
			g_string_append_c(o, *s);
	}
	return g_string_free(o, FALSE);
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static char *csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		return g_strdup(s);
	GString *o = g_string_new("\"");

	for (; *s; s++) {
		if (*s == '"')
			g_string_append_c(o, '"');
		g_string_append_c(o, *s);
	}
	g_string_append_c(o, '"');
	return g_string_free(o, FALSE);
}

static void write_row(enum ss_stats_format f, FILE *out, const char *phase,
		      const char *name, const char *value, const char *doc,
		      bool *first)
{
	switch (f) {
	case SS_STATS_TEXT:
		fprintf(out, "%-40s %20s", name, value);
		if (doc && *doc)
			fprintf(out, "  # %s", doc);
		fputc('\n', out);
		break;
	case SS_STATS_CSV: {
		char *p = csv_field(phase), *n = csv_field(name);

		fprintf(out, "%s,%s,%s\n", p, n, value);
		g_free(p);
		g_free(n);
		break;
	}
	case SS_STATS_JSON: {
		char *n = json_escape(name);

		fprintf(out, "%s\n      \"%s\": %s", *first ? "" : ",", n,
			value);
		g_free(n);
		break;
	}
	}
	*first = false;
}

/* Whether statistic `name` is one the globs ask for (none: every one). */
static bool wanted(const char *const *globs, const char *name)
{
	if (!globs || !*globs)
		return true;
	for (; *globs; globs++)
		if (g_pattern_match_simple(*globs, name))
			return true;
	return false;
}

static void write_phase(struct ss_stats *s, GPtrArray *groups,
			enum ss_stats_format f, FILE *out, const char *label,
			const uint64_t *vals, const char *const *globs)
{
	char buf[64];
	bool first = true;

	if (f == SS_STATS_TEXT)
		fprintf(out, "---------- %s ----------\n", label);
	for (guint k = 0; k < groups->len; k++) {
		struct group *g = groups->pdata[k];
		guint i0 = g_array_index(g->members, guint, 0);
		struct ss_stat_entry *x0 = s->entries->pdata[i0];
		bool counter = x0->kind == SS_STAT_COUNTER || x0->kind == SS_STAT_SUM;

		if (g->indexed && wanted(globs, g->name)) {
			format_value(buf, sizeof(buf), counter,
				     value_of(s, vals, g, 0, true));
			write_row(f, out, label, g->name, buf, x0->doc, &first);
		}
		for (guint m = 0; m < g->members->len; m++) {
			guint i = g_array_index(g->members, guint, m);
			struct ss_stat_entry *x = s->entries->pdata[i];

			if (!wanted(globs, x->name))
				continue;
			format_value(buf, sizeof(buf), counter,
				     value_of(s, vals, g, i, false));
			write_row(f, out, label, x->name, buf,
				  g->indexed ? NULL : x->doc, &first);
		}
	}
}

void ss_stats_write(struct ss_engine *e, enum ss_stats_format f, FILE *out,
		    const char *const *globs)
{
	struct ss_stats *s = e->stats;
	GPtrArray *groups = build_groups(s);
	uint64_t *now = snapshot(s);
	bool rest = s->phases->len == 0;

	/* After phases, what accumulated since the last one is shown only
	 * when there is something in it. */
	for (guint i = 0; i < s->entries->len && !rest; i++)
		rest = now[i] != 0;

	if (f == SS_STATS_CSV)
		fprintf(out, "phase,stat,value\n");
	if (f == SS_STATS_JSON)
		fprintf(out, "{\n  \"phases\": [");
	guint total = s->phases->len + (rest ? 1 : 0);

	for (guint p = 0; p < total; p++) {
		bool is_rest = p == s->phases->len;
		struct ss_phase *ph = is_rest ? NULL : s->phases->pdata[p];
		const char *label = is_rest ? (s->phases->len ? "end" : "run")
					    : ph->label;
		const uint64_t *vals = is_rest ? now : ph->values;

		if (f == SS_STATS_JSON) {
			char *l = json_escape(label);

			fprintf(out, "%s\n    {\n      \"phase\": \"%s\",\n"
				"      \"stats\": {", p ? "," : "", l);
			g_free(l);
		}
		write_phase(s, groups, f, out, label, vals, globs);
		if (f == SS_STATS_JSON)
			fprintf(out, "\n      }\n    }");
	}
	if (f == SS_STATS_JSON)
		fprintf(out, "\n  ]\n}\n");
	g_free(now);
	groups_free(groups);
}
