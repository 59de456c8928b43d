/* SPDX-License-Identifier: BSD-3-Clause */
/* The catalogue of component types: built-ins, plugins, --list, --describe. */
#ifndef SS_KERNEL_REGISTRY_H
#define SS_KERNEL_REGISTRY_H

#include <stdio.h>
#include <sectorsim/component.h>

struct ss_registry *ss_registry_new(void);
void ss_registry_free(struct ss_registry *r);

const struct ss_component_type *ss_registry_lookup(struct ss_registry *r,
						   const char *name);
/* Type names, sorted; free the array (not the strings) with g_free. */
const char **ss_registry_names(struct ss_registry *r, size_t *n);
/* Where a type came from: "built-in" or the plugin's file. */
const char *ss_registry_origin(struct ss_registry *r, const char *name);

/* The command registered under `name`, or NULL. */
const struct ss_command *ss_registry_command(struct ss_registry *r,
					     const char *name);

/*
 * Load plugin `name`: a file when it contains a '/', else `name.so` looked up
 * in `dirs` in order.  Loading the same file twice is a no-op.
 */
gboolean ss_registry_load_plugin(struct ss_registry *r, const char *name,
				 const char *const *dirs, GError **error);

/* The search path: INI dirs, then $SECTORSIM_PLUGIN_PATH, then pkglibdir. */
char **ss_plugin_search_path(const char *const *ini_dirs);

void ss_registry_list(struct ss_registry *r, FILE *out);
gboolean ss_registry_describe(struct ss_registry *r, const char *name,
			      FILE *out, GError **error);

#endif
