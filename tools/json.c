/* SPDX-License-Identifier: BSD-3-Clause */
/* A recursive-descent JSON reader (json.h). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include "json.h"

void *errf(char **why, const char *fmt, ...)
{
	va_list ap;

	if (*why)
		return NULL;
	va_start(ap, fmt);
	*why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return NULL;
}

struct jp {
	const char *path;
	const char *s;
	gsize n, i;
	int line;
	int depth;
	char **why;
};

void json_free(struct json *v)
{

	if (!v)
		return;
	g_free(v->str);
	if (v->keys)
		g_ptr_array_free(v->keys, TRUE);
	if (v->items)
		g_ptr_array_free(v->items, TRUE);
	g_free(v);
}

const struct json *json_get(const struct json *o, const char *key)
{
	if (!o || o->type != JSON_OBJECT)
		return NULL;
	for (guint i = 0; i < o->keys->len; i++)
		if (!strcmp(o->keys->pdata[i], key))
			return o->items->pdata[i];
	return NULL;
}

static void jp_space(struct jp *p)
{
	while (p->i < p->n && p->s[p->i] && strchr(" \t\r\n", p->s[p->i])) {
		if (p->s[p->i] == '\n')
			p->line++;
		p->i++;
	}
}

static void *jp_fail(struct jp *p, const char *expected)
{
	/* the end is on the last line, not after its line break */
	if (p->i >= p->n)
		return errf(p->why, "%s:%d: end of file; expected %s", p->path,
			    p->line - (p->n && p->s[p->n - 1] == '\n'), expected);
	if ((unsigned char)p->s[p->i] < 0x20 || (unsigned char)p->s[p->i] >= 0x7f)
		return errf(p->why, "%s:%d: unexpected byte 0x%02x; expected %s", p->path,
			    p->line, (unsigned char)p->s[p->i], expected);
	return errf(p->why, "%s:%d: unexpected '%c'; expected %s", p->path, p->line,
		    p->s[p->i], expected);
}

static bool jp_lit(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->n - p->i < n || memcmp(p->s + p->i, word, n))
		return false;
	p->i += n;
	return true;
}

static bool jp_hex4(struct jp *p, gunichar *u)
{
	*u = 0;
	if (p->n - p->i < 4)
		return false;
	for (int j = 0; j < 4; j++) {
		int d = g_ascii_xdigit_value(p->s[p->i + j]);

		if (d < 0)
			return false;
		*u = *u * 16 + (gunichar)d;
	}
	p->i += 4;
	return true;
}

/* A string (p at its opening quote); its UTF-8 bytes are taken as they are. */
static char *jp_string(struct jp *p)
{
	GString *s = g_string_new(NULL);

	for (p->i++;; p->i++) {
		char c;

		if (p->i >= p->n) {
			g_string_free(s, TRUE);
			return jp_fail(p, "a closing '\"'");
		}
		c = p->s[p->i];
		if (c == '"') {
			p->i++;
			return g_string_free(s, FALSE);
		}
		if ((unsigned char)c < 0x20) {
			g_string_free(s, TRUE);
			return jp_fail(p, "a closing '\"' (a line break in a string must be \\n)");
		}
		if (c != '\\') {
			g_string_append_c(s, c);
			continue;
		}
		if (++p->i >= p->n) {
			g_string_free(s, TRUE);
			return jp_fail(p, "an escape");
		}
		switch (p->s[p->i]) {
		case '"': g_string_append_c(s, '"'); break;
		case '\\': g_string_append_c(s, '\\'); break;
		case '/': g_string_append_c(s, '/'); break;
		case 'b': g_string_append_c(s, '\b'); break;
		case 'f': g_string_append_c(s, '\f'); break;
		case 'n': g_string_append_c(s, '\n'); break;
		case 'r': g_string_append_c(s, '\r'); break;
		case 't': g_string_append_c(s, '\t'); break;
		case 'u': {
			gunichar u, lo;

			p->i++;
			if (!jp_hex4(p, &u)) {
				g_string_free(s, TRUE);
				return jp_fail(p, "four hex digits after \\u");
			}
			/* a surrogate pair is one character */
			if (u >= 0xd800 && u < 0xdc00 && jp_lit(p, "\\u")) {
				if (!jp_hex4(p, &lo) || lo < 0xdc00 || lo >= 0xe000) {
					g_string_free(s, TRUE);
					return jp_fail(p, "a low surrogate after a high one");
				}
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			g_string_append_unichar(s, u);
			p->i--;	/* the loop steps over the last digit */
			break;
		}
		default:
			g_string_free(s, TRUE);
			return jp_fail(p, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
		}
	}
}

static struct json *jp_value(struct jp *p);

static struct json *jp_container(struct jp *p, struct json *v)
{
	bool obj = v->type == JSON_OBJECT;
	char close = obj ? '}' : ']';

	if (++p->depth > 64) {
		json_free(v);
		return errf(p->why, "%s:%d: nesting deeper than 64; expected sectorsim's results",
			    p->path, p->line);
	}
	v->items = g_ptr_array_new_with_free_func((GDestroyNotify)json_free);
	if (obj)
		v->keys = g_ptr_array_new_with_free_func(g_free);
	p->i++;
	jp_space(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return v;
	}
	for (;;) {
		struct json *item;

		jp_space(p);
		if (obj) {
			char *key;

			if (p->i >= p->n || p->s[p->i] != '"') {
				json_free(v);
				return jp_fail(p, "a member name in double quotes");
			}
			if (!(key = jp_string(p))) {
				json_free(v);
				return NULL;
			}
			g_ptr_array_add(v->keys, key);
			jp_space(p);
			if (p->i >= p->n || p->s[p->i] != ':') {
				g_ptr_array_add(v->items, NULL);
				json_free(v);
				return jp_fail(p, "':' after the member name");
			}
			p->i++;
		}
		item = jp_value(p);
		g_ptr_array_add(v->items, item);
		if (!item) {
			json_free(v);
			return NULL;
		}
		jp_space(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == close) {
			p->i++;
			p->depth--;
			return v;
		}
		json_free(v);
		return jp_fail(p, obj ? "',' or '}'" : "',' or ']'");
	}
}

static struct json *jp_value(struct jp *p)
{
	struct json *v;

	jp_space(p);
	if (p->i >= p->n)
		return jp_fail(p, "a JSON value");
	v = g_new0(struct json, 1);
	v->line = p->line;
	switch (p->s[p->i]) {
	case '{':
		v->type = JSON_OBJECT;
		return jp_container(p, v);
	case '[':
		v->type = JSON_ARRAY;
		return jp_container(p, v);
	case '"':
		v->type = JSON_STRING;
		if (!(v->str = jp_string(p))) {
			json_free(v);
			return NULL;
		}
		return v;
	case 't':
	case 'f':
	case 'n':
		if (jp_lit(p, "true") || jp_lit(p, "false")) {
			v->type = JSON_BOOL;
			return v;
		}
		if (jp_lit(p, "null"))
			return v;
		break;
	default: {
		gsize start = p->i;
		char *t, *end;

		while (p->i < p->n && p->s[p->i] && strchr("+-.0123456789eE", p->s[p->i]))
			p->i++;
		if (p->i == start)
			break;
		t = g_strndup(p->s + start, p->i - start);
		v->type = JSON_NUMBER;
		v->num = g_ascii_strtod(t, &end);
		if (*end || !isfinite(v->num)) {
			errf(p->why, "%s:%d: malformed number \"%s\"; expected a number",
			     p->path, p->line, t);
			g_free(t);
			json_free(v);
			return NULL;
		}
		g_free(t);
		return v;
	}
	}
	json_free(v);
	return jp_fail(p, "a JSON value");
}

struct json *json_parse(const char *path, const char *text, size_t len,
			char **why)
{
	struct jp p = { path, text, len, 0, 1, 0, why };
	struct json *root = jp_value(&p);

	if (!root)
		return NULL;
	jp_space(&p);
	if (p.i < p.n) {
		jp_fail(&p, "the end of the file after the JSON value");
		json_free(root);
		return NULL;
	}
	return root;
}

struct json *json_parse_file(const char *path, char **why)
{
	char *text;
	gsize len;
	GError *err = NULL;
	struct json *v;

	if (!g_file_get_contents(path, &text, &len, &err)) {
		*why = g_strdup_printf("%s: %s", path, err->message);
		g_error_free(err);
		return NULL;
	}
	v = json_parse(path, text, len, why);
	g_free(text);
	return v;
}

void json_put_string(GString *s, const char *str)
{
	g_string_append_c(s, '"');
	for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(s, "\\%c", *p);
		else if (*p < 0x20)
			g_string_append_printf(s, "\\u%04x", *p);
		else
			g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

void json_put_number(GString *s, double v)
{
	if (isnan(v))
		g_string_append(s, "null");
	else
		g_string_append_printf(s, "%.17g", v);
}
