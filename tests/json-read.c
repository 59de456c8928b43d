/* SPDX-License-Identifier: BSD-3-Clause */
/* A recursive-descent JSON reader for the tests (json-read.h). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "json-read.h"

struct jr {
	const char *p;
	char *why;
};

static void skip_ws(struct jr *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static bool fail(struct jr *r, const char *what)
{
	if (!r->why)
		r->why = g_strdup_printf("%s at '%.20s'", what, r->p);
	return false;
}

static struct jv *parse_value(struct jr *r, int depth);

static char *parse_string(struct jr *r)
{
	GString *s = g_string_new(NULL);

	r->p++;		/* the opening quote */
	while (*r->p && *r->p != '"') {
		if (*r->p != '\\') {
			g_string_append_c(s, *r->p++);
			continue;
		}
		r->p++;
		switch (*r->p) {
		case 'n': g_string_append_c(s, '\n'); break;
		case 't': g_string_append_c(s, '\t'); break;
		case 'r': g_string_append_c(s, '\r'); break;
		case 'b': g_string_append_c(s, '\b'); break;
		case 'f': g_string_append_c(s, '\f'); break;
		case 'u': {
			char hex[5] = { 0 };

			for (int i = 0; i < 4 && r->p[1 + i]; i++)
				hex[i] = r->p[1 + i];
			g_string_append_unichar(s, strtoul(hex, NULL, 16));
			r->p += strlen(hex);
			break;
		}
		case '\0':
			fail(r, "unterminated string");
			g_string_free(s, TRUE);
			return NULL;
		default: g_string_append_c(s, *r->p); break;
		}
		r->p++;
	}
	if (*r->p != '"') {
		fail(r, "unterminated string");
		g_string_free(s, TRUE);
		return NULL;
	}
	r->p++;
	return g_string_free(s, FALSE);
}

static struct jv *parse_container(struct jr *r, int depth, bool object)
{
	struct jv *v = g_new0(struct jv, 1);

	v->kind = object ? JV_OBJECT : JV_ARRAY;
	v->items = g_ptr_array_new_with_free_func((GDestroyNotify)jv_free);
	if (object)
		v->keys = g_ptr_array_new_with_free_func(g_free);
	r->p++;
	skip_ws(r);
	if (*r->p == (object ? '}' : ']')) {
		r->p++;
		return v;
	}
	for (;;) {
		skip_ws(r);
		if (object) {
			if (*r->p != '"' ) {
				fail(r, "expected a key");
				goto bad;
			}
			char *k = parse_string(r);

			if (!k)
				goto bad;
			g_ptr_array_add(v->keys, k);
			skip_ws(r);
			if (*r->p++ != ':') {
				fail(r, "expected ':'");
				goto bad;
			}
		}
		struct jv *item = parse_value(r, depth + 1);

		if (!item)
			goto bad;
		g_ptr_array_add(v->items, item);
		skip_ws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == (object ? '}' : ']')) {
			r->p++;
			return v;
		}
		fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
		goto bad;
	}
bad:
	jv_free(v);
	return NULL;
}

static struct jv *parse_value(struct jr *r, int depth)
{
	struct jv *v;

	if (depth > 64) {
		fail(r, "nested too deep");
		return NULL;
	}
	skip_ws(r);
	switch (*r->p) {
	case '{':
		return parse_container(r, depth, true);
	case '[':
		return parse_container(r, depth, false);
	case '"': {
		char *s = parse_string(r);

		if (!s)
			return NULL;
		v = g_new0(struct jv, 1);
		v->kind = JV_STRING;
		v->str = s;
		return v;
	}
	}
	v = g_new0(struct jv, 1);
	if (g_str_has_prefix(r->p, "true") || g_str_has_prefix(r->p, "false")) {
		v->kind = JV_BOOL;
		v->num = *r->p == 't';
		r->p += *r->p == 't' ? 4 : 5;
		return v;
	}
	if (g_str_has_prefix(r->p, "null")) {
		v->kind = JV_NULL;
		r->p += 4;
		return v;
	}
	char *end;

	v->kind = JV_NUMBER;
	v->num = g_ascii_strtod(r->p, &end);
	if (end == r->p) {
		g_free(v);
		fail(r, "expected a value");
		return NULL;
	}
	v->is_int = !memchr(r->p, '.', end - r->p) && !memchr(r->p, 'e', end - r->p) &&
		    !memchr(r->p, 'E', end - r->p);
	r->p = end;
	return v;
}

struct jv *jv_parse(const char *text, char **why)
{
	struct jr r = { text, NULL };
	struct jv *v = parse_value(&r, 0);

	if (v) {
		skip_ws(&r);
		if (*r.p) {
			fail(&r, "text after the value");
			jv_free(v);
			v = NULL;
		}
	}
	if (!v)
		*why = r.why;
	else
		g_free(r.why);
	return v;
}

struct jv *jv_parse_file(const char *path, char **why)
{
	char *text;
	GError *err = NULL;

	if (!g_file_get_contents(path, &text, NULL, &err)) {
		*why = g_strdup(err->message);
		g_error_free(err);
		return NULL;
	}
	struct jv *v = jv_parse(text, why);

	g_free(text);
	return v;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	g_free(v->str);
	if (v->items)
		g_ptr_array_free(v->items, TRUE);
	if (v->keys)
		g_ptr_array_free(v->keys, TRUE);
	g_free(v);
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	if (!obj || obj->kind != JV_OBJECT)
		return NULL;
	for (guint i = 0; i < obj->keys->len; i++)
		if (!strcmp(obj->keys->pdata[i], key))
			return obj->items->pdata[i];
	return NULL;
}
