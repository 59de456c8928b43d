/* SPDX-License-Identifier: BSD-3-Clause */
/* sectorsim: the command line.  Exit status 0 ok, 2 bad configuration or
 * input, 1 internal error. */
#include "config.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdbool.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "internal.h"
#include "registry.h"
#include "sim.h"
#include "builtin.h"
#include "commands.h"
#include "configs.h"
#include "native.h"

#define EXIT_CONFIG 2
#define EXIT_INTERNAL 1
#define EXIT_INTERRUPTED 130	/* the shell's 128 + SIGINT */

/* The command line: the program's own options and the run's. */
struct options {
	gboolean list, list_configs, dump_config, dot, dot_full, version;
	char *describe, *stats, *output;
	char **stats_filter;	/* --stats-filter GLOB, repeatable */
	char **params, **plugins;
	struct ss_run_options run;	/* ss_run_option_table */
};

static int fail(int status, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* One line on standard error (ss_print_message: no raw control bytes). */
static int fail(int status, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ss_print_message(stderr, "sectorsim: ", msg);
	g_free(msg);
	return status;
}

/* The built-in component types and commands, each list registered the way
 * a plugin registers its own. */
static gboolean register_builtins(struct ss_registry *reg, GError **err)
{
	return ss_components_register(reg, err) && ss_tools_register(reg, err);
}

static int write_stats(struct ss_engine *e, const struct options *o)
{
	enum ss_stats_format f = SS_STATS_TEXT;
	struct ss_output *out;
	GError *err = NULL;
	char *buf = NULL;
	size_t len = 0;
	int status = 0;
	FILE *mem;

	if (!o->stats || !strcmp(o->stats, "text"))
		f = SS_STATS_TEXT;
	else if (!strcmp(o->stats, "json"))
		f = SS_STATS_JSON;
	else if (!strcmp(o->stats, "csv"))
		f = SS_STATS_CSV;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return fail(EXIT_INTERNAL, "out of memory");
	ss_stats_write(e, f, mem, (const char *const *)o->stats_filter);
	fclose(mem);
	/* -o FILE: written whole or not at all (ss_output_open) */
	out = ss_output_open(o->output ? o->output : "-", &err);
	if (!out) {
		status = fail(EXIT_CONFIG, "%s: cannot write statistics: %s",
			      o->output, g_strerror(errno));
		g_error_free(err);
		free(buf);
		return status;
	}
	ss_output_write(out, buf, len);
	if (!ss_output_commit(out, &err)) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
	}
	free(buf);
	return status;
}

/* The built-in types and commands, then the plugins of --plugin. */
static int set_up_registry(struct ss_registry *reg, const struct options *o)
{
	char **search = ss_plugin_search_path(NULL);
	GError *err = NULL;
	int status = 0;

	if (!register_builtins(reg, &err)) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		goto out;
	}
	for (char **p = o->plugins; p && *p; p++) {
		if (!ss_registry_load_plugin(reg, *p, (const char *const *)search, &err)) {
			status = fail(EXIT_CONFIG, "--plugin %s: %s", *p, err->message);
			goto out;
		}
	}
out:
	g_clear_error(&err);
	g_strfreev(search);
	return status;
}

/* CONFIG.ini [TRACE] with the -p overrides into *sim; none given: NULL. */
static int load(struct ss_registry *reg, const struct options *o, int argc,
		char **argv, struct ss_sim **sim)
{
	GPtrArray *errors = NULL;

	*sim = NULL;
	if (argc > 3)
		return fail(EXIT_CONFIG, "unexpected argument '%s'; expected CONFIG.ini [TRACE]", argv[3]);
	if (argc < 2)
		return 0;
	*sim = ss_sim_load(reg, argv[1], (const char *const *)o->params,
			   argc == 3 ? argv[2] : NULL, &errors);
	if (!*sim) {
		for (guint i = 0; i < errors->len; i++)
			fprintf(stderr, "%s\n", (char *)errors->pdata[i]);
		g_ptr_array_free(errors, TRUE);
		return EXIT_CONFIG;
	}
	return 0;
}

/*
 * --list, --describe, --dump-config, --dot: print what was asked instead of
 * running.  False when none was asked for; else *status is the exit status.
 */
static bool inform(struct ss_registry *reg, struct ss_sim *sim,
		   const struct options *o, int *status)
{
	GError *err = NULL;

	*status = 0;
	if (o->list) {
		ss_registry_list(reg, stdout);
		return true;
	}
	if (o->describe) {
		if (!ss_registry_describe(reg, o->describe, stdout, &err)) {
			*status = fail(EXIT_CONFIG, "--describe: %s", err->message);
			g_error_free(err);
		}
		return true;
	}
	if (!sim) {
		*status = fail(EXIT_CONFIG, "no configuration given; expected sectorsim [options] CONFIG.ini (see --help)");
		return true;
	}
	if (o->dump_config || o->dot) {
		if (o->dump_config)
			ss_sim_dump_config(sim, stdout);
		if (o->dot)
			ss_sim_dot(sim, stdout, o->dot_full);
		return true;
	}
	return false;
}

/* The raw statistics are printed unless a component reports the run
 * itself and they were not asked for. */
static bool raw_stats_wanted(struct ss_engine *e, const struct options *o)
{
	return o->stats || o->output || o->stats_filter ||
	       !ss_engine_has_type_flag(e, SS_TYPE_REPORTS_RUN);
}

/*
 * --resume continues the FILE.part files of --json and --csv: an output
 * written directly (standard output, a device, a FIFO) has none.
 */
static int check_resume(const struct options *o)
{
	const char *paths[] = { o->run.json, o->run.csv };
	const char *names[] = { "--json", "--csv" };

	if (!o->run.resume)
		return 0;
	for (int i = 0; i < 2; i++) {
		char *part;

		if (!paths[i])
			continue;
		part = ss_output_part_name(paths[i]);
		if (!part)
			return fail(EXIT_CONFIG, "--resume: %s %s is not a regular file, so there is no partial file to continue from",
				    names[i], paths[i]);
		g_free(part);
	}
	return 0;
}

/* The SHA-256 of what --dump-config prints for this run. */
static char *config_digest(struct ss_sim *sim)
{
	char *buf = NULL, *digest;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return NULL;
	ss_sim_dump_config(sim, mem);
	fclose(mem);
	digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)buf, len);
	free(buf);
	return digest;
}

/*
 * The identity of the command line's TRACE: the SHA-256 of its kernel
 * lists, the files that name the kernels and their order (app_config.py,
 * kernelslist.g: each one present, by name and content; TRACE itself when
 * it is a file).  Not the kernel files: repairing one that stopped the run
 * (an input error) and then --resume is what the partial files are for.
 * A native trace, one file of any size, is known by its headers, which
 * carry each payload's CRC (reading gigabytes to hash them would delay
 * every run).  NULL when there is no such file.
 */
#define TRACE_LIST_MAX (16 << 20)	/* bytes of a kernel list, at most */

static char *trace_digest(const char *trace)
{
	static const char *const lists[] = { "app_config.py", "kernelslist.g", NULL };
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	bool dir = g_file_test(trace, G_FILE_TEST_IS_DIR), any = false;
	char *digest = NULL;

	if (!dir && native_headers_digest(trace, sum)) {
		digest = g_strdup(g_checksum_get_string(sum));
		g_checksum_free(sum);
		return digest;
	}
	g_checksum_reset(sum);
	for (int i = 0; dir ? lists[i] != NULL : i < 1; i++) {
		char *path = dir ? g_build_filename(trace, lists[i], NULL) : g_strdup(trace);
		char *text = NULL;
		gsize len = 0;
		GStatBuf st;

		/*
		 * A file too big for a kernel list (a damaged native trace, say:
		 * the reader refuses it) is known by its size and time instead
		 * of being read whole.
		 */
		if (!dir && g_stat(path, &st) == 0 && st.st_size > TRACE_LIST_MAX) {
			text = g_strdup_printf("size %" G_GINT64_FORMAT " mtime %" G_GINT64_FORMAT,
					       (gint64)st.st_size, (gint64)st.st_mtime);
			g_checksum_update(sum, (const guchar *)text, strlen(text));
			any = true;
		} else if (g_file_get_contents(path, &text, &len, NULL)) {
			const char *name = dir ? lists[i] : "";

			g_checksum_update(sum, (const guchar *)name, strlen(name) + 1);
			g_checksum_update(sum, (const guchar *)text, len);
			any = true;
		}
		g_free(text);
		g_free(path);
	}
	if (any)
		digest = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return digest;
}

/*
 * What produces this run's results, for the results files to record and
 * --resume to check (struct ss_run_options): the version, the
 * configuration and its digest, TRACE and its digest, the -p list.
 */
static void set_provenance(struct ss_sim *sim, struct options *o, int argc,
			   char **argv)
{
	struct ss_run_options *r = &o->run;

	r->version = g_strdup(PACKAGE_VERSION);
	r->config = strcmp(argv[1], SS_CONFIG_STDIN) ? g_canonicalize_filename(argv[1], NULL)
						      : g_strdup(SS_CONFIG_STDIN_NAME);
	r->config_digest = config_digest(sim);
	if (argc == 3) {
		r->trace = g_canonicalize_filename(argv[2], NULL);
		r->trace_digest = trace_digest(argv[2]);
	}
	r->params = g_strdupv(o->params);
}

/* Build and run the simulation, with the run's options. */
static int simulate(struct ss_sim *sim, const struct options *o)
{
	gint64 t0 = g_get_monotonic_time();
	struct ss_engine *e = NULL;
	GError *err = NULL;
	int status = 0;
	bool ok;

	ss_sim_set_run_options(sim, &o->run);
	ok = ss_sim_build(sim, &err);
	if (ok && o->run.rd_profile &&
	    !ss_engine_has_type_flag(ss_sim_engine(sim), SS_TYPE_RD_PROFILE))
		/* nothing would be written, and with - nothing printed at all */
		return fail(EXIT_CONFIG, "--rd-profile %s: no component of %s keeps reuse-distance profiles; expected a configuration with an sdcm_cache, or no --rd-profile",
			    o->run.rd_profile, o->run.config ? o->run.config : "the configuration");
	if (ok && (o->run.json || o->run.csv) &&
	    !ss_engine_has_type_flag(ss_sim_engine(sim), SS_TYPE_REPORTS_RUN))
		/* nothing would write them: an empty promise, not an exit 0 */
		return fail(EXIT_CONFIG, "%s %s: no component of %s writes per-kernel results; expected a kernel_report in the configuration, or no %s",
			    o->run.json ? "--json" : "--csv", o->run.json ? o->run.json : o->run.csv,
			    o->run.config ? o->run.config : "the configuration",
			    o->run.json ? "--json" : "--csv");
	if (ok && o->run.mrc && !ss_engine_mrc_used(ss_sim_engine(sim)))
		/* the caches that keep one opened the file as they were made */
		return fail(EXIT_CONFIG, "--mrc %s: no cache of %s keeps a miss-ratio curve; expected mrc = true on a functional sector_cache or l2_slice_set (-p l2.mrc=true, say), or no --mrc",
			    o->run.mrc, o->run.config ? o->run.config : "the configuration");
	if (ok) {
		struct ss_run_options run = o->run;

		e = ss_sim_engine(sim);
		/* keeping each phase's snapshot nobody reads would only make
		 * memory grow with the trace */
		run.raw_stats_unread = !raw_stats_wanted(e, o);
		ss_engine_set_run_options(e, &run);
		/* Ctrl-C ends the run cleanly at a boundary the components
		 * choose (a kernel), keeping what is finished */
		ss_catch_interrupt();
		ok = ss_sim_run(sim, &err);
	}
	if (!ok) {
		/* configuration and input errors already start with their
		 * file:line */
		if (err->code == SS_ERROR_CONFIG || err->code == SS_ERROR_INPUT) {
			fprintf(stderr, "%s\n", err->message);
			status = EXIT_CONFIG;
		} else {
			status = fail(EXIT_INTERNAL, "%s", err->message);
		}
		g_error_free(err);
		return status;
	}
	if (ss_interrupted())
		return EXIT_INTERRUPTED;
	/* the profile file, renamed into place now that it is whole */
	if (!ss_engine_close_outputs(e, &err)) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
		return status;
	}
	if (!o->run.quiet)
		fprintf(stderr, "sectorsim: %" G_GUINT64_FORMAT " event%s to tick %"
			G_GUINT64_FORMAT " in %.3f s, %u partition%s on %u thread%s\n",
			ss_engine_events_run(e),
			ss_engine_events_run(e) == 1 ? "" : "s",
			ss_engine_now(e), (g_get_monotonic_time() - t0) / 1e6,
			ss_engine_partitions(e), ss_engine_partitions(e) == 1 ? "" : "s",
			ss_engine_threads(e), ss_engine_threads(e) == 1 ? "" : "s");
	double busy, ran;
	char *names;

	/* what bounds a run on several threads (timing: varies run to run) */
	if (!o->run.quiet && ss_engine_busiest_partition(e, &busy, &ran, &names)) {
		fprintf(stderr, "sectorsim: the busiest partition (%s) ran %.3f s of the threads' %.3f s\n",
			names, busy, ran);
		g_free(names);
	}
	if (raw_stats_wanted(e, o))
		status = write_stats(e, o);
	return status;
}

/*
 * Standard output takes one machine-read output at most; when one of the
 * run's goes there, the table does not (a pipe gets that output alone).
 */
static int check_stdout_outputs(struct options *o)
{
	const char *names[5];
	unsigned n = 0;

	if (o->run.json && !strcmp(o->run.json, "-"))
		names[n++] = "--json -";
	if (o->run.csv && !strcmp(o->run.csv, "-"))
		names[n++] = "--csv -";
	if (o->run.rd_profile && !strcmp(o->run.rd_profile, "-"))
		names[n++] = "--rd-profile -";
	if (o->run.mrc && !strcmp(o->run.mrc, "-"))
		names[n++] = "--mrc -";
	/* raw statistics on standard output are alone there too: a pipe
	 * gets them, not the table before them */
	if ((o->stats || o->output || o->stats_filter) && (!o->output || !strcmp(o->output, "-")))
		names[n++] = "the raw statistics (--stats without -o FILE)";
	o->run.table_off = n > 0;
	if (n < 2)
		return 0;
	return fail(EXIT_CONFIG, "%s and %s: both to standard output; expected one of them written to a file",
		    names[0], names[1]);
}

static int run(struct options *o, int argc, char **argv)
{
	struct ss_registry *reg = ss_registry_new();
	struct ss_sim *sim = NULL;
	int status = 0;
	/* a configuration by name: titanv.ini from any folder (configs.h) */
	char *config = argc > 1 ? config_find(argv[1]) : NULL;

	if (config)
		argv[1] = config;
	if (o->list_configs) {
		config_list(stdout);
		ss_registry_free(reg);
		g_free(config);
		return 0;
	}

	if (o->stats && strcmp(o->stats, "text") && strcmp(o->stats, "json") &&
	    strcmp(o->stats, "csv"))
		status = fail(EXIT_CONFIG, "--stats %s: expected text, json or csv", o->stats);
	if (!status)
		status = check_stdout_outputs(o);
	if (!status)
		status = check_resume(o);
	if (!status)
		status = set_up_registry(reg, o);
	if (!status)
		status = load(reg, o, argc, argv, &sim);
	if (!status && !inform(reg, sim, o, &status)) {
		set_provenance(sim, o, argc, argv);
		status = simulate(sim, o);
	}
	ss_sim_free(sim);
	ss_registry_free(reg);
	g_free(config);
	return status;
}

/*
 * Whatever went to standard output reached it, or the exit status says it
 * did not (1, unless the run had failed already): a full disk or a closed
 * pipe is no success.
 */
/*
 * Whatever ends the program (GLib's --help ends it in the option parser):
 * standard output flushed and checked, so that a write error there is an
 * exit status 1 and a message, not a silent exit 0.
 */
static bool stdout_closed;	/* check_stdout() did it: nothing left */

static void check_stdout_at_exit(void)
{
	if (stdout_closed)
		return;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sectorsim: write error on standard output: %s\n",
			g_strerror(errno));
		_exit(1);
	}
}

static int check_stdout(int status)
{
	struct ss_output *out = ss_output_open("-", NULL);
	GError *err = NULL;
	int why;

	/* checked here, whatever comes of it: not again at exit */
	stdout_closed = true;
	if (!ss_output_commit(out, &err)) {
		if (!status)
			status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
		return status;
	}
	errno = 0;
	if (fclose(stdout) != 0 && !status) {
		why = errno ? errno : EIO;
		status = fail(EXIT_INTERNAL, "write error on standard output: %s",
			      g_strerror(why));
	}
	return status;
}

/*
 * `sectorsim NAME ARGS...` where NAME is a registered command (a word, not
 * a file): the command's own entry point, with its own options.  -1 when
 * argv[1] is no command.
 */
static int run_command(int argc, char **argv)
{
	struct ss_registry *reg;
	const struct ss_command *cmd;
	GError *err = NULL;
	int status = -1;

	if (argc < 2 || !g_ascii_islower(argv[1][0]) || strpbrk(argv[1], "./") ||
	    g_file_test(argv[1], G_FILE_TEST_EXISTS))
		return -1;
	reg = ss_registry_new();
	if (!register_builtins(reg, &err)) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
	} else if ((cmd = ss_registry_command(reg, argv[1]))) {
		status = cmd->fn(argc - 1, argv + 1);
	}
	ss_registry_free(reg);
	return status;
}

/*
 * The command line's options: the program's own `before`, the run's from
 * ss_run_option_table, filling `run`, then the program's `after`; ends with
 * the zeroed row GOption expects.
 */
static GArray *option_entries(const GOptionEntry *before,
			      struct ss_run_options *run,
			      const GOptionEntry *after)
{
	GArray *a = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));

	for (; before->long_name; before++)
		g_array_append_vals(a, before, 1);
	for (const struct ss_run_option_desc *d = ss_run_option_table;
	     d->long_name; d++) {
		GOptionEntry x = {
			.long_name = d->long_name, .short_name = d->short_name,
			.arg = d->arg, .arg_data = ss_run_option_field(run, d),
			.description = d->doc, .arg_description = d->arg_doc,
		};

		g_array_append_val(a, x);
	}
	for (; after->long_name; after++)
		g_array_append_vals(a, after, 1);
	return a;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int command;

#if defined(M_ARENA_MAX) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
	/*
	 * A user's own malloc settings, either way glibc takes them, are
	 * left alone; otherwise:
	 *
	 * One arena: blocks are read on one thread and freed on another, and
	 * an arena per thread keeps each one's peak (the full benchmark app
	 * under titanv-ref on 3 threads: 250 MB, against 170 MB with one).
	 * Nothing is allocated per access, so the threads do not contend
	 * for it.
	 *
	 * Freed memory kept for the next kernel: a kernel's blocks are freed
	 * at its end and the next one's take about as much, so giving them
	 * back to the system (trimming the heap, unmapping large blocks)
	 * only made the next kernel fault them in again: on one thread, the
	 * full benchmark app under titanv.ini took 43 k page faults instead
	 * of 29 k.  The peak stays what it was.
	 */
	static const struct {
		int param, value;
		const char *env, *tunable;
	} malloc_settings[] = {
		{ M_ARENA_MAX, 1, "MALLOC_ARENA_MAX", "glibc.malloc.arena_max" },
		{ M_TRIM_THRESHOLD, 256 << 20, "MALLOC_TRIM_THRESHOLD_", "glibc.malloc.trim_threshold" },
		{ M_MMAP_THRESHOLD, 32 << 20, "MALLOC_MMAP_THRESHOLD_", "glibc.malloc.mmap_threshold" },
	};
	const char *tunables = g_getenv("GLIBC_TUNABLES");

	for (size_t i = 0; i < G_N_ELEMENTS(malloc_settings); i++)
		if (!g_getenv(malloc_settings[i].env) &&
		    !(tunables && strstr(tunables, malloc_settings[i].tunable)))
			mallopt(malloc_settings[i].param, malloc_settings[i].value);
#endif
	/*
	 * Characters as UTF-8 (GLib's help says [OPTION…], which a C
	 * locale prints as [OPTION?]); numbers stay the C locale's, so that
	 * the results files read alike everywhere.
	 */
	if (!setlocale(LC_CTYPE, "") || !g_get_charset(NULL))
		setlocale(LC_CTYPE, "C.UTF-8");
	atexit(check_stdout_at_exit);
	command = run_command(argc, argv);

	if (command >= 0)
		return check_stdout(command);
	const GOptionEntry before[] = {
		{ "list", 0, 0, G_OPTION_ARG_NONE, &o.list, "List the component types", NULL },
		{ "list-configs", 0, 0, G_OPTION_ARG_NONE, &o.list_configs, "List the configurations a name finds: in $SECTORSIM_CONFIG_PATH, then the installed ones", NULL },
		{ "describe", 0, 0, G_OPTION_ARG_STRING, &o.describe, "Describe a component type: parameters, ports, statistics", "TYPE" },
		{ "dump-config", 0, 0, G_OPTION_ARG_NONE, &o.dump_config, "Print the configuration with includes, templates and -p applied, the defaults as comments", NULL },
		{ "dot", 0, 0, G_OPTION_ARG_NONE, &o.dot, "Print the component graph for Graphviz, an array one node (--dot=full: every instance and connection)", NULL },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o.params, "Override a parameter: SECTION.KEY=VALUE or SECTION[N].KEY=VALUE (repeatable)", "KEY=VALUE" },
		{ "plugin", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.plugins, "Load a plugin by name (from the plugin path) or by file (repeatable)", "NAME" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	}, after[] = {
		{ "stats", 0, 0, G_OPTION_ARG_STRING, &o.stats, "Raw statistics format: text (default), json or csv", "FORMAT" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write the raw statistics to FILE instead of standard output (- is standard output)", "FILE" },
		{ "stats-filter", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.stats_filter, "Only the raw statistics whose name matches GLOB, as l2.* or *.hit_rate (repeatable: any of them)", "GLOB" },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &o.version, "Print the version", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GArray *entries;
	GOptionContext *ctx = g_option_context_new("CONFIG.ini [TRACE]");
	GError *err = NULL;
	int status;

	g_option_context_set_summary(ctx,
		"Trace-driven functional simulator of GPU memory hierarchies.\n"
		"Components are wired by CONFIG.ini; TRACE, the run's input (a trace\n"
		"folder, say), replaces the one the configuration names.  --list shows\n"
		"the component types and the commands (sectorsim NAME --help).\n"
		"A CONFIG.ini that is no file here is searched in\n"
		"$SECTORSIM_CONFIG_PATH, then " PKGDATADIR "/configs (--list-configs);\n"
		"- reads it from standard input, its paths relative to this folder.\n"
		"Plugins are searched in plugin_path\n"
		"of [simulation], then $SECTORSIM_PLUGIN_PATH, then " PKGLIBDIR ".");
	o.run.threads = G_MININT;	/* unset, told apart from --threads 0 */
	entries = option_entries(before, &o.run, after);
	g_option_context_add_main_entries(ctx, (GOptionEntry *)entries->data, NULL);
	/* --dot=full is --dot with every instance (GOption has no optional
	 * value but after the next argument, which would take CONFIG.ini) */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--dot=full")) {
			o.dot_full = TRUE;
			argv[i] = (char *)"--dot";
		} else if (g_str_has_prefix(argv[i], "--dot=")) {
			status = fail(EXIT_CONFIG, "%s: expected --dot or --dot=full", argv[i]);
			g_option_context_free(ctx);
			g_array_free(entries, TRUE);
			return status;
		}
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		status = fail(EXIT_CONFIG, "%s (see --help)", err->message);
		g_error_free(err);
	} else if (o.run.threads < 0 && o.run.threads != G_MININT) {
		status = fail(EXIT_CONFIG, "--threads %d: expected a number of threads, 1 or more (0: one per online core)",
			      o.run.threads);
	} else if (o.version) {
		printf("sectorsim %s (component ABI %u)\n", PACKAGE_VERSION, SS_ABI_VERSION);
		status = 0;
	} else {
		/* unset: the core's choice (0); --threads 0: one per online core */
		o.run.threads = o.run.threads == G_MININT ? 0
			: o.run.threads ? o.run.threads : (gint)g_get_num_processors();
		status = run(&o, argc, argv);
	}
	g_option_context_free(ctx);
	g_array_free(entries, TRUE);
	g_free(o.describe);
	g_free(o.stats);
	g_free(o.output);
	g_strfreev(o.stats_filter);
	g_strfreev(o.params);
	g_strfreev(o.plugins);
	ss_run_options_clear(&o.run);
	return check_stdout(status);
}
