/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parameter values.  Everything is parsed strictly: iniparser's own getters
 * wrap on overflow and read "typo" as true, so values arrive as text and are
 * checked here, with units, ranges and a message that says what was expected.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include "param.h"
#include "internal.h"

size_t ss_param_table_len(const struct ss_param_desc *t)
{
	size_t n = 0;

	while (t && t[n].name)
		n++;
	return n;
}

int ss_param_table_find(const struct ss_param_desc *t, const char *name)
{
	for (size_t i = 0; t && t[i].name; i++)
		if (strcmp(t[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool ss_parse_scaled(const char *num, size_t len, uint64_t mult,
		     uint64_t *out)
{
	uint64_t mant = 0, pow10 = 1;
	bool dot = false, digits = false;

	for (size_t i = 0; i < len; i++) {
		char ch = num[i];

		if (ch == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!g_ascii_isdigit(ch))
			return false;
		digits = true;
		if (__builtin_mul_overflow(mant, 10, &mant) ||
		    __builtin_add_overflow(mant, (uint64_t)(ch - '0'), &mant))
			return false;
		if (dot && __builtin_mul_overflow(pow10, 10, &pow10))
			return false;
	}
	if (!digits)
		return false;
	/* mant / pow10 * mult must be whole: divide first where we can so
	 * that 4.5MiB does not overflow on the way. */
	uint64_t g = pow10, m = mult;

	while (m) {
		uint64_t t = g % m;

		g = m;
		m = t;
	}
	pow10 /= g;
	mult /= g;
	if (mant % pow10 != 0)
		return false;
	return !__builtin_mul_overflow(mant / pow10, mult, out);
}

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{ "GiB", UINT64_C(1) << 30 }, { "MiB", UINT64_C(1) << 20 },
	{ "KiB", UINT64_C(1) << 10 }, { "B", 1 }, { NULL, 0 },
};
static const struct unit time_units[] = {
	{ "ps", 1 }, { "ns", 1000 }, { "us", 1000000 },
	{ "ms", UINT64_C(1000000000) }, { "s", UINT64_C(1000000000000) },
	{ NULL, 0 },
};
static const struct unit freq_units[] = {
	{ "GHz", 1000000000 }, { "MHz", 1000000 }, { "kHz", 1000 },
	{ "Hz", 1 }, { NULL, 0 },
};

/* Split "4.5MiB" into number and unit; a bare number takes `bare` (0: none). */
static bool parse_with_unit(const char *text, const struct unit *units,
			    uint64_t bare, uint64_t *out)
{
	size_t len = strlen(text), numlen = 0;

	while (numlen < len &&
	       (g_ascii_isdigit(text[numlen]) || text[numlen] == '.'))
		numlen++;
	const char *unit = text + numlen;

	while (*unit == ' ')
		unit++;
	if (*unit == '\0')
		return bare && ss_parse_scaled(text, numlen, bare, out);
	for (const struct unit *u = units; u->name; u++)
		if (strcmp(unit, u->name) == 0)
			return ss_parse_scaled(text, numlen, u->mult, out);
	return false;
}

static bool parse_uint(const char *text, uint64_t *out)
{
	guint64 v;

	if ((text[0] == '0') && (text[1] == 'x' || text[1] == 'X'))
		return text[2] && g_ascii_string_to_unsigned(text + 2, 16, 0,
							G_MAXUINT64, &v, NULL) &&
		       (*out = v, true);
	if (!g_ascii_string_to_unsigned(text, 10, 0, G_MAXUINT64, &v, NULL))
		return false;
	*out = v;
	return true;
}

static bool check_range(const struct ss_param_desc *d, uint64_t v, char **why)
{
	if ((d->min || d->max) && (v < d->min || v > d->max)) {
		*why = g_strdup_printf("expected a value from %" G_GUINT64_FORMAT
				       " to %" G_GUINT64_FORMAT, d->min, d->max);
		return false;
	}
	if ((d->flags & SS_PF_POW2) && (v == 0 || (v & (v - 1)))) {
		*why = g_strdup("expected a power of two");
		return false;
	}
	return true;
}

/*
 * One parser per type.  Each fills v from text and returns false on a bad
 * value; it sets *why only when the message depends on the declaration
 * (range, choices, list item), otherwise the type's `expected` phrase is
 * the message.  A payload left in v on failure is freed by the caller.
 */
typedef bool parse_fn(const struct ss_param_desc *d, const char *text,
		      const char *base_dir, struct ss_pvalue *v, char **why);

static bool parse_int_value(const struct ss_param_desc *d, const char *text,
			    const char *base_dir, struct ss_pvalue *v, char **why)
{
	gint64 i;

	(void)d, (void)base_dir, (void)why;
	if (!g_ascii_string_to_signed(text, 10, G_MININT64, G_MAXINT64, &i, NULL))
		return false;
	v->v.i = i;
	return true;
}

static bool parse_uint_value(const struct ss_param_desc *d, const char *text,
			     const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)base_dir;
	return parse_uint(text, &v->v.u) && check_range(d, v->v.u, why);
}

static bool parse_size(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)base_dir;
	return parse_with_unit(text, size_units, 1, &v->v.u) &&
	       check_range(d, v->v.u, why);
}

static bool parse_time(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)base_dir;
	return parse_with_unit(text, time_units, 0, &v->v.u) &&
	       check_range(d, v->v.u, why);
}

static bool parse_freq(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)base_dir;
	return parse_with_unit(text, freq_units, 0, &v->v.u) &&
	       check_range(d, v->v.u, why);
}

static bool parse_double(const struct ss_param_desc *d, const char *text,
			 const char *base_dir, struct ss_pvalue *v, char **why)
{
	char *end = NULL;

	(void)d, (void)base_dir, (void)why;
	v->v.d = g_ascii_strtod(text, &end);
	return *text && !*end && isfinite(v->v.d);
}

static bool parse_bool(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	(void)d, (void)base_dir, (void)why;
	for (int i = 0; i < 4; i++) {
		if (strcmp(text, yes[i]) == 0 || strcmp(text, no[i]) == 0) {
			v->v.b = strcmp(text, yes[i]) == 0;
			return true;
		}
	}
	return false;
}

static bool parse_enum(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	size_t n = 0;
	bool found = false;

	(void)base_dir;
	for (; d->choices && d->choices[n]; n++)
		if (strcmp(d->choices[n], text) == 0) {
			v->v.e = n;
			found = true;
		}
	if (found)
		return true;

	char *all = g_strjoinv(", ", (char **)d->choices);
	const char *near = ss_did_you_mean(text, d->choices, n);

	*why = near ? g_strdup_printf("expected one of %s; did you mean '%s'?", all, near)
		    : g_strdup_printf("expected one of %s", all);
	g_free(all);
	return false;
}

static bool parse_string(const struct ss_param_desc *d, const char *text,
			 const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)d, (void)base_dir, (void)why;
	v->v.s = g_strdup(text);
	return true;
}

/* A path keeps the resolved name as its text, so that a dump of the
 * configuration reads the same file from anywhere. */
static bool parse_path(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	(void)d, (void)why;
	if (!*text)
		return false;
	v->v.s = (base_dir && !g_path_is_absolute(text))
			 ? g_build_filename(base_dir, text, NULL)
			 : g_strdup(text);
	v->text = g_strdup(v->v.s);
	return true;
}

static bool parse_list(const struct ss_param_desc *d, const char *text,
		       const char *base_dir, struct ss_pvalue *v, char **why)
{
	char **parts = g_strsplit(text, ",", -1);
	size_t n = g_strv_length(parts);
	bool empty = n == 1 && !*g_strstrip(parts[0]);

	(void)base_dir;
	v->v.list.items = g_new0(uint64_t, n ? n : 1);
	for (size_t i = 0; i < n && !empty; i++) {
		char *item = g_strstrip(parts[i]);
		uint64_t *x = &v->v.list.items[v->v.list.n];

		if (!parse_uint(item, x) || !check_range(d, *x, why)) {
			char *inner = *why;

			*why = g_strdup_printf("item %zu '%s': %s", i + 1, item,
					       inner ? inner : "expected an unsigned whole number");
			g_free(inner);
			g_strfreev(parts);
			return false;
		}
		v->v.list.n++;
	}
	g_strfreev(parts);
	return true;
}

/* What a value owns besides its text. */
enum payload { PAYLOAD_NONE, PAYLOAD_STRING, PAYLOAD_LIST };

/* The types: adding one is adding its row. */
static const struct param_type {
	const char *name;	/* as --describe and --dump-config show it */
	parse_fn *parse;	/* NULL: no value is valid */
	const char *expected;	/* the message when parse gives none */
	enum payload payload;
} param_types[] = {
	[SS_P_INVALID] = { "invalid", NULL, "parameter has no type", PAYLOAD_NONE },
	[SS_P_INT] = { "int", parse_int_value, "expected a whole number", PAYLOAD_NONE },
	[SS_P_UINT] = { "uint", parse_uint_value,
		"expected an unsigned whole number (decimal or 0x hex)", PAYLOAD_NONE },
	[SS_P_SIZE] = { "size", parse_size,
		"expected a whole number of bytes such as 32B, 128KiB or 4.5MiB (units B, KiB, MiB, GiB)",
		PAYLOAD_NONE },
	[SS_P_DOUBLE] = { "double", parse_double, "expected a number such as 0.25", PAYLOAD_NONE },
	[SS_P_BOOL] = { "bool", parse_bool,
		"expected true or false (also yes/no, on/off, 1/0)", PAYLOAD_NONE },
	[SS_P_ENUM] = { "enum", parse_enum, NULL /* from the choices */, PAYLOAD_NONE },
	[SS_P_STRING] = { "string", parse_string, NULL /* never fails */, PAYLOAD_STRING },
	[SS_P_PATH] = { "path", parse_path, "expected a file or folder name", PAYLOAD_STRING },
	[SS_P_TIME] = { "time", parse_time,
		"expected a time with a unit such as 2ns or 1.5us (units ps, ns, us, ms, s)",
		PAYLOAD_NONE },
	[SS_P_FREQ] = { "freq", parse_freq,
		"expected a frequency with a unit such as 1200MHz (units Hz, kHz, MHz, GHz)",
		PAYLOAD_NONE },
	[SS_P_LIST] = { "list", parse_list, NULL /* names the item */, PAYLOAD_LIST },
};

/* The row of `t`; a type without one is the invalid type. */
static const struct param_type *type_row(enum ss_param_type t)
{
	if ((unsigned)t < G_N_ELEMENTS(param_types) && param_types[t].name)
		return &param_types[t];
	return &param_types[SS_P_INVALID];
}

const char *ss_param_type_name(enum ss_param_type t)
{
	return type_row(t)->name;
}

bool ss_param_type_known(enum ss_param_type t)
{
	return type_row(t)->parse != NULL;
}

static void pvalue_free_payload(const struct ss_param_desc *d,
				struct ss_pvalue *v)
{
	switch (type_row(d->type)->payload) {
	case PAYLOAD_STRING:
		g_free(v->v.s);
		break;
	case PAYLOAD_LIST:
		g_free(v->v.list.items);
		break;
	case PAYLOAD_NONE:
		break;
	}
	g_free(v->text);
	memset(v, 0, sizeof(*v));
}

bool ss_param_parse(const struct ss_param_desc *d, const char *text,
		    const char *base_dir, struct ss_pvalue *out, char **why)
{
	const struct param_type *pt = type_row(d->type);
	struct ss_pvalue v = { 0 };

	*why = NULL;
	if (!pt->parse || !pt->parse(d, text, base_dir, &v, why)) {
		if (!*why)
			*why = g_strdup(pt->expected);
		pvalue_free_payload(d, &v);
		return false;
	}
	v.set = true;
	if (!v.text)
		v.text = g_strdup(text);
	pvalue_free_payload(d, out);
	*out = v;
	return true;
}

/* ---- the container handed to xcreate --------------------------------------- */

struct ss_params *ss_params_new_defaults(const struct ss_param_desc *t,
					 char **why)
{
	struct ss_params *p = g_new0(struct ss_params, 1);

	*why = NULL;
	p->desc = t;
	p->n = ss_param_table_len(t);
	p->values = g_new0(struct ss_pvalue, p->n ? p->n : 1);
	for (unsigned i = 0; i < p->n; i++) {
		if (!t[i].def)
			continue;
		char *inner = NULL;

		if (!ss_param_parse(&t[i], t[i].def, NULL, &p->values[i],
				    &inner)) {
			*why = g_strdup_printf("default of '%s' is '%s': %s",
					       t[i].name, t[i].def, inner);
			g_free(inner);
			ss_params_free(p);
			return NULL;
		}
		p->values[i].set = false;
	}
	return p;
}

struct ss_params *ss_params_copy(const struct ss_params *src)
{
	struct ss_params *p = g_new0(struct ss_params, 1);

	p->desc = src->desc;
	p->n = src->n;
	p->values = g_new0(struct ss_pvalue, p->n ? p->n : 1);
	for (unsigned i = 0; i < p->n; i++) {
		struct ss_pvalue *d = &p->values[i];
		const struct ss_pvalue *s = &src->values[i];

		*d = *s;
		d->text = g_strdup(s->text);
		switch (type_row(p->desc[i].type)->payload) {
		case PAYLOAD_STRING:
			d->v.s = g_strdup(s->v.s);
			break;
		case PAYLOAD_LIST:
			d->v.list.items = g_memdup2(s->v.list.items,
				sizeof(uint64_t) * (s->v.list.n ? s->v.list.n : 1));
			break;
		case PAYLOAD_NONE:
			break;
		}
	}
	return p;
}

void ss_params_free(struct ss_params *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++)
		pvalue_free_payload(&p->desc[i], &p->values[i]);
	g_free(p->values);
	g_free(p);
}

static const struct ss_pvalue *get(const struct ss_params *p, const char *name,
				   enum ss_param_type a, enum ss_param_type b)
{
	int i = ss_param_table_find(p->desc, name);

	if (i < 0)
		g_error("component asked for parameter '%s' it does not declare",
			name);
	if (p->desc[i].type != a && p->desc[i].type != b)
		g_error("parameter '%s' is a %s, read as a %s", name,
			ss_param_type_name(p->desc[i].type), ss_param_type_name(a));
	return &p->values[i];
}

int64_t ss_param_int(const struct ss_params *p, const char *name)
{
	return get(p, name, SS_P_INT, SS_P_INT)->v.i;
}

uint64_t ss_param_uint(const struct ss_params *p, const char *name)
{
	int i = ss_param_table_find(p->desc, name);

	if (i >= 0 && (p->desc[i].type == SS_P_SIZE ||
		       p->desc[i].type == SS_P_TIME ||
		       p->desc[i].type == SS_P_FREQ))
		return p->values[i].v.u;
	return get(p, name, SS_P_UINT, SS_P_UINT)->v.u;
}

double ss_param_double(const struct ss_params *p, const char *name)
{
	return get(p, name, SS_P_DOUBLE, SS_P_DOUBLE)->v.d;
}

bool ss_param_bool(const struct ss_params *p, const char *name)
{
	return get(p, name, SS_P_BOOL, SS_P_BOOL)->v.b;
}

unsigned ss_param_enum(const struct ss_params *p, const char *name)
{
	return get(p, name, SS_P_ENUM, SS_P_ENUM)->v.e;
}

const char *ss_param_string(const struct ss_params *p, const char *name)
{
	return get(p, name, SS_P_STRING, SS_P_PATH)->v.s;
}

const uint64_t *ss_param_list(const struct ss_params *p, const char *name,
			      size_t *n)
{
	const struct ss_pvalue *v = get(p, name, SS_P_LIST, SS_P_LIST);

	*n = v->v.list.n;
	return v->v.list.items;
}

bool ss_param_is_set(const struct ss_params *p, const char *name)
{
	int i = ss_param_table_find(p->desc, name);

	return i >= 0 && p->values[i].set;
}
