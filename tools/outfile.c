/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <errno.h>
#include <glib.h>
#include <sectorsim/sectorsim.h>
#include "outfile.h"

int tool_write_file(const char *path, const char *what, const void *data,
		    size_t len, char **why)
{
	GError *err = NULL;
	struct ss_output *o = ss_output_open(path, &err);

	if (!o) {
		int no = errno;
		char *part = ss_output_part_name(path);

		*why = g_strdup_printf("%s: cannot write the %s: %s",
				       part ? part : path, what, g_strerror(no));
		g_free(part);
		g_error_free(err);
		return 2;
	}
	ss_output_write(o, data, len);
	if (!ss_output_commit(o, &err)) {
		*why = g_strdup(err->message);
		g_error_free(err);
		return 1;
	}
	return 0;
}
