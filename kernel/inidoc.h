/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An INI configuration as sectorsim reads it: sections `[simulation]`,
 * `[template NAME]`, `[component NAME]`, `[link NAME]`, with every key
 * remembering the file and line it came from, includes already merged.
 */
#ifndef SS_KERNEL_INIDOC_H
#define SS_KERNEL_INIDOC_H

#include <stdbool.h>
#include <glib.h>

struct ini_entry {
	char *key;		/* "assoc" or "assoc[5]" or "assoc[0..7]" */
	char *value;
	char *loc;		/* "file:line" */
	char *dir;		/* folder of that file, for relative paths */
	bool used;
};

struct ini_section {
	char *kind;		/* simulation, template, component, link, sweep */
	char *name;		/* "simulation" for [simulation] */
	char *loc;
	char *dir;
	GPtrArray *entries;	/* struct ini_entry *, in file order */
};

struct ini_doc {
	GPtrArray *sections;	/* struct ini_section *, in order of appearance */
	GHashTable *by_name;
	GPtrArray *errors;	/* char *, "file:line: what; expected what" */
	char *main_file;
};

/* Load `path` ("-": standard input, its paths relative to the working
 * directory) and everything it includes.  Check doc->errors afterwards. */
struct ini_doc *ini_doc_load(const char *path);
void ini_doc_free(struct ini_doc *d);

struct ini_section *ini_doc_section(struct ini_doc *d, const char *name);
struct ini_entry *ini_section_get(struct ini_section *s, const char *key);
/* A new empty section, or NULL when the name is taken. */
struct ini_section *ini_doc_add_section(struct ini_doc *d, const char *kind,
					const char *name, const char *loc,
					const char *dir);
/* Set or replace a key; the new value remembers where it came from. */
struct ini_entry *ini_section_set(struct ini_section *s, const char *key,
				  const char *value, const char *loc,
				  const char *dir);
void ini_doc_error(struct ini_doc *d, const char *loc, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

#endif
