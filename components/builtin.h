/* SPDX-License-Identifier: BSD-3-Clause */
/* The component types compiled into the program, as one plugin entry. */
#ifndef SS_COMPONENTS_BUILTIN_H
#define SS_COMPONENTS_BUILTIN_H

#include <sectorsim/component.h>

/*
 * Register every stock component type: an ss_plugin_register_fn, so the
 * program hands it to the registry exactly as it would a plugin's
 * sectorsim_plugin_register.
 */
gboolean ss_components_register(struct ss_registry *r, GError **error);

#endif
