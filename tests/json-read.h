/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Just enough JSON for the tests to read the golden files and sectorsim's
 * own --json output: objects, arrays, strings, numbers, true/false/null.
 * Numbers keep their text, so a test can tell 1 from 1.0.
 */
#ifndef SS_TEST_JSON_READ_H
#define SS_TEST_JSON_READ_H

#include <stdbool.h>
#include <glib.h>

enum jv_kind { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_kind kind;
	double num;
	bool is_int;		/* a number written without '.', 'e' or 'E' */
	char *str;
	GPtrArray *items;	/* arrays: struct jv *; objects: values */
	GPtrArray *keys;	/* objects: char *, parallel to items */
};

/* NULL with *why (g_free it) on malformed text. */
struct jv *jv_parse(const char *text, char **why);
struct jv *jv_parse_file(const char *path, char **why);
void jv_free(struct jv *v);

/* Member `key` of an object, or NULL. */
const struct jv *jv_get(const struct jv *obj, const char *key);

#endif
