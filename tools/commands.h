/* SPDX-License-Identifier: BSD-3-Clause */
/* The program's commands beyond running a configuration (sectorsim NAME). */
#ifndef SS_TOOLS_COMMANDS_H
#define SS_TOOLS_COMMANDS_H

#include <sectorsim/component.h>

/* Register every command of tools/: the one list of them. */
gboolean ss_tools_register(struct ss_registry *r, GError **error);

#endif
