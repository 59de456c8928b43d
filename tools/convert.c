/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `sectorsim convert TRACE OUT`: a trace of any format into sectorsim's
 * native format (readers/native.h, doc/trace-format.md), which
 * `sectorsim CONFIG.ini OUT` then reads with no option.  Exit status 0;
 * 2 for a trace that cannot be read, an OUT that cannot be created or a
 * bad command line (as for the program's own outputs); 1 for a write
 * error.  OUT is written as OUT.part and renamed when whole.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sectorsim/engine.h>
#include "convert.h"
#include "native.h"
#include "trace.h"

/* One line per defect of the source, as the run's warnings read. */
static void convert_warning(const char *msg)
{
	ss_print_message(stderr, "sectorsim convert: warning: ", msg);
}

int sectorsim_convert_main(int argc, char **argv)
{
	char *format = NULL;
	int level = NATIVE_LEVEL_DEFAULT;
	GOptionEntry entries[] = {
		{ "format", 0, 0, G_OPTION_ARG_STRING, &format, "Read TRACE as this format: auto (the default), ppt, accelsim, native or trc", "NAME" },
		{ "level", 0, 0, G_OPTION_ARG_INT, &level, "zstd compression level, -7 to -1 or 1 to 19 (default -1): higher is smaller and slower to write; negative levels read fastest", "N" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	enum trace_format_id fmt = TRACE_AUTO;
	GOptionContext *ctx;
	GError *err = NULL;
	int status = 2;

	if (!g_get_prgname())
		g_set_prgname("sectorsim convert");
	ctx = g_option_context_new("TRACE OUT");
	g_option_context_set_summary(ctx,
		"Write TRACE (a paper-format folder, an Accel-Sim kernelslist.g or\n"
		"folder, or a native file) to OUT in sectorsim's native format:\n"
		"binary, zstd-compressed, checksummed, read by `sectorsim CONFIG.ini\n"
		"OUT` with the same results as TRACE.  OUT - is standard output.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "sectorsim convert: %s (see --help)\n", err->message);
		g_error_free(err);
		g_option_context_free(ctx);
		goto out;
	}
	g_option_context_free(ctx);
	if (argc != 3) {
		fprintf(stderr, "sectorsim convert: %d argument%s; expected TRACE OUT (see --help)\n",
			argc - 1, argc == 2 ? "" : "s");
		goto out;
	}
	if (format) {
		size_t i = 0;

		while (trace_format_names[i] && strcmp(format, trace_format_names[i]))
			i++;
		if (!trace_format_names[i]) {
			char *names = g_strjoinv(", ", (char **)trace_format_names);
			char *msg = g_strdup_printf("--format %s; expected one of %s",
						    format, names);

			g_free(names);

			ss_print_message(stderr, "sectorsim convert: ", msg);
			g_free(msg);
			goto out;
		}
		fmt = (enum trace_format_id)i;
	}
	if (level < NATIVE_LEVEL_MIN || level > NATIVE_LEVEL_MAX || !level) {
		fprintf(stderr, "sectorsim convert: --level %d; expected %d to -1 or 1 to %d\n",
			level, NATIVE_LEVEL_MIN, NATIVE_LEVEL_MAX);
		goto out;
	}
	if (!native_convert(argv[1], fmt, argv[2], level, convert_warning, &err)) {
		ss_print_message(stderr, "sectorsim convert: ", err->message);
		status = err->code == SS_ERROR_INPUT || err->code == SS_ERROR_CONFIG ? 2 : 1;
		g_error_free(err);
		goto out;
	}
	status = 0;
out:
	g_free(format);
	return status;
}
