/* SPDX-License-Identifier: BSD-3-Clause */
/* See configs.h. */
#include "config.h"

#include <string.h>
#include <glib.h>
#include "configs.h"

/* The folders after the working directory, in order (NULL-terminated). */
static char **config_dirs(void)
{
	const char *env = g_getenv("SECTORSIM_CONFIG_PATH");
	GPtrArray *dirs = g_ptr_array_new();
	char **parts = env ? g_strsplit(env, ":", -1) : NULL;

	for (char **p = parts; p && *p; p++)
		if (**p)
			g_ptr_array_add(dirs, g_strdup(*p));
	g_strfreev(parts);
	g_ptr_array_add(dirs, g_build_filename(PKGDATADIR, "configs", NULL));
	g_ptr_array_add(dirs, NULL);
	return (char **)g_ptr_array_free(dirs, FALSE);
}

char *config_find(const char *name)
{
	char **dirs;
	char *found = NULL;

	if (g_path_is_absolute(name) || g_file_test(name, G_FILE_TEST_EXISTS))
		return g_strdup(name);
	dirs = config_dirs();
	for (char **d = dirs; *d && !found; d++) {
		char *f = g_build_filename(*d, name, NULL);

		if (g_file_test(f, G_FILE_TEST_IS_REGULAR))
			found = f;
		else
			g_free(f);
	}
	g_strfreev(dirs);
	return found ? found : g_strdup(name);
}

/* The .ini files under dir/sub (sub "" at the top), by relative name. */
static void list_dir(const char *dir, const char *sub, GPtrArray *names)
{
	char *path = *sub ? g_build_filename(dir, sub, NULL) : g_strdup(dir);
	GDir *d = g_dir_open(path, 0, NULL);
	const char *e;

	while (d && (e = g_dir_read_name(d))) {
		char *rel = *sub ? g_build_filename(sub, e, NULL) : g_strdup(e);
		char *full = g_build_filename(dir, rel, NULL);

		if (g_file_test(full, G_FILE_TEST_IS_DIR) && strcmp(e, "parts"))
			list_dir(dir, rel, names);
		else if (g_str_has_suffix(e, ".ini"))
			g_ptr_array_add(names, g_strdup(rel));
		g_free(full);
		g_free(rel);
	}
	if (d)
		g_dir_close(d);
	g_free(path);
}

static int by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void config_list(FILE *out)
{
	char **dirs = config_dirs();

	for (char **d = dirs; *d; d++) {
		GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

		list_dir(*d, "", names);
		g_ptr_array_sort(names, by_name);
		if (names->len)
			fprintf(out, "%s:\n", *d);
		for (guint i = 0; i < names->len; i++)
			fprintf(out, "  %s\n", (char *)names->pdata[i]);
		g_ptr_array_free(names, TRUE);
	}
	g_strfreev(dirs);
}
