/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A JSON reader for what sectorsim reads back: its own --json results
 * (sectorsim compare) and the golden files (the tests).  Values keep the
 * line they start on, for "FILE:LINE: ..." messages.
 */
#ifndef SS_JSON_H
#define SS_JSON_H

#include <stddef.h>
#include <glib.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int line;
	double num;
	char *str;
	GPtrArray *keys;	/* JSON_OBJECT: char *, parallel to items */
	GPtrArray *items;	/* JSON_ARRAY, JSON_OBJECT: struct json * */
};

/*
 * Sets *why (the first error wins) and returns NULL, for `return
 * errf(...)`: how the readers of tools/ report "PATH:LINE: what; expected
 * what".
 */
void *errf(char **why, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* NULL with *why (g_free it): "PATH:LINE: what was found; what was expected". */
struct json *json_parse(const char *path, const char *text, size_t len,
			char **why);
struct json *json_parse_file(const char *path, char **why);
void json_free(struct json *v);

/* Writing: a string quoted and escaped; a number as %.17g (every double
 * reads back the same), NaN as null. */
void json_put_string(GString *s, const char *str);
void json_put_number(GString *s, double v);
/* Member `key` of an object, or NULL (also when v is not an object). */
const struct json *json_get(const struct json *obj, const char *key);

#endif
