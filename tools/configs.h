/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Configurations by name: `sectorsim titanv.ini TRACE` from any folder.
 * A name is the path as given when it exists, else the first of
 * DIR/NAME for each DIR of $SECTORSIM_CONFIG_PATH (colon-separated), else
 * the installed configurations' folder, PKGDATADIR/configs.
 */
#ifndef SS_TOOLS_CONFIGS_H
#define SS_TOOLS_CONFIGS_H

#include <stdio.h>

/* The file NAME stands for (a new string); NAME itself when no folder
 * holds it, so that the loader names what was asked for. */
char *config_find(const char *name);

/* Every configuration of those folders (not their parts/), by the name
 * that finds it, a line each, with the folder it is in. */
void config_list(FILE *out);

#endif
