/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `sectorsim sweep CONFIG.ini [TRACE] -s KEY=V1,V2,... [-s ...]`: one
 * configuration over a grid of parameter values, each point a run with
 * -p KEY=VALUE, collated into one --json and one --csv.
 *
 * The trace is decoded once: a text trace named on the command line is
 * converted to the native format (readers/native.h) in a private folder,
 * and every point reads that, which gives the same results as the text
 * (tests/test-native.sh) at a fraction of the decoding.  Points run at once
 * on --threads threads, one engine each; the outputs are written in point
 * order, so they do not depend on the thread count.
 *
 * Finished points are kept in OUT.points/ (OUT: the --json file, else the
 * --csv one), one file per point and output, so that an interrupted sweep
 * keeps them and --resume runs only the rest; the folder goes when the
 * results are whole.  --points K/N runs the points whose index is K mod N
 * and writes partial files, which --merge joins into the files one run
 * writes; --slurm DIR writes a job array that does that on a cluster.
 *
 * The JSON: {"sweep": {...what was swept...}, "points": [{"index": I,
 * "params": {"KEY": "VALUE", ...}, "kernels": K}, ...]} where K is, byte
 * for byte, the "kernels" array `sectorsim --json` writes for the point.
 * The CSV: the run's provenance as comments, then per point and kernel
 * the point's index and values, then the columns of `sectorsim --csv`.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "internal.h"
#include "inidoc.h"
#include "registry.h"
#include "sim.h"
#include "builtin.h"
#include "commands.h"
#include "configs.h"
#include "native.h"
#include "outfile.h"
#include "report_metrics.h"
#include "svgplot.h"
#include "sweep.h"
#include "trace.h"
#ifdef HAVE_MPI
#include <mpi.h>
#endif

#define EXIT_INTERNAL 1
#define EXIT_INTERRUPTED 130
/* points of one sweep at most: a grid beyond it is a typing error */
#define SWEEP_MAX_POINTS 100000

struct axis {
	char *key;		/* as -p takes it: SECTION.KEY or SECTION[N].KEY */
	GPtrArray *values;	/* char * */
};

struct sweep {
	/* the command line */
	char *config, *trace;	/* trace: NULL when the configuration's */
	char **fixed;		/* -p, every point */
	GPtrArray *axes;	/* struct axis * */
	char *json, *csv;
	char *merge;
	char *slurm;
	char *plot;
	char *points_arg;
	gboolean resume, quiet;
	gint threads, tasks;
	/* derived */
	size_t n_points;
	unsigned part_k, part_n;	/* --points K/N; N = 1: all */
	char *input;		/* what the points read: TRACE or its native copy */
	char *tmpdir;		/* the native copy's folder */
	char *keep;		/* OUT.points: finished points */
	/* under mpirun: this rank and the ranks; the points rank 0 had kept
	 * (--resume), which no rank runs again */
	int rank, ranks;
	uint8_t *kept0;
	/* the run: worker threads take the next point under the lock (POSIX
	 * threads, as the kernel's, which ThreadSanitizer sees) */
	pthread_mutex_t lock;
	size_t next;		/* the next point to take */
	size_t done, total;	/* points of this run */
	uint64_t kernels_done;
	gint64 t0;
	bool progress;
	char *first_error;	/* the first point that failed: its message */
	int first_status;
	/*
	 * One pass for the values of one axis (an associativity, ".assoc"):
	 * its index, or -1; the points taken (by a worker, alone or in its
	 * group); and how the groups went, for the message that says so
	 */
	int lane_axis;
	bool lane_asked;	/* an associativity axis there was */
	uint8_t *taken;
	size_t one_pass_runs, one_pass_points, alone_groups;
	char *alone_why;	/* why the first group that failed as one pass did */
};

/* ---- messages ---------------------------------------------------------------- */

static int fail(int status, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Under mpirun every rank checks the same command line: rank 0 alone
 * says what is wrong with it. */
static bool quiet_rank;

static int fail(int status, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (quiet_rank)
		return status;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ss_print_message(stderr, "sectorsim sweep: ", msg);
	g_free(msg);
	return status;
}

/* ---- the grid ------------------------------------------------------------------ */

static struct ss_registry *new_registry(GError **err)
{
	struct ss_registry *reg = ss_registry_new();

	if (!ss_components_register(reg, err) || !ss_tools_register(reg, err)) {
		ss_registry_free(reg);
		return NULL;
	}
	return reg;
}

/*
 * The values of an axis: split at '|', else at ';', else at commas, so that
 * a parameter whose value is itself a list can be swept
 * (sched.carveouts=0,32|0,64; ';' starts a comment in an INI file).  An
 * empty value is refused.  `where` names the axis in messages.
 */
static int add_axis(struct sweep *s, const char *key, const char *list,
		    const char *where, bool replace)
{
	const char *sep = strchr(list, '|') ? "|" : strchr(list, ';') ? ";" : ",";
	char **v = g_strsplit(list, sep, -1);
	struct axis *a = NULL;

	for (guint i = 0; i < s->axes->len; i++)
		if (!strcmp(((struct axis *)s->axes->pdata[i])->key, key))
			a = s->axes->pdata[i];
	if (a && !replace) {
		g_strfreev(v);
		return fail(EXIT_INPUT, "%s: %s is swept twice; expected each key in one -s", where, key);
	}
	if (!a) {
		a = g_new0(struct axis, 1);
		a->key = g_strdup(key);
		g_ptr_array_add(s->axes, a);
	} else {
		g_ptr_array_free(a->values, TRUE);
	}
	a->values = g_ptr_array_new_with_free_func(g_free);
	for (char **p = v; *p; p++) {
		char *x = g_strstrip(g_strdup(*p));

		if (!*x) {
			g_free(x);
			g_strfreev(v);
			return fail(EXIT_INPUT, "%s: an empty value; expected KEY=V1,V2,... with no empty one", where);
		}
		for (guint i = 0; i < a->values->len; i++)
			if (!strcmp(a->values->pdata[i], x)) {
				g_free(x);
				g_strfreev(v);
				return fail(EXIT_INPUT, "%s: value '%s' twice; expected each value once", where,
					    (char *)a->values->pdata[i]);
			}
		g_ptr_array_add(a->values, x);
	}
	g_strfreev(v);
	if (!a->values->len)
		return fail(EXIT_INPUT, "%s: an empty value; expected KEY=V1,V2,... with at least one value", where);
	return 0;
}

/* -s KEY=V1,V2,...: replaces the values [sweep] gives KEY (n_ini: the
 * axes that came from there; replaced[i]: -s gave axis i already). */
static int parse_axis(struct sweep *s, const char *arg, guint n_ini, bool *replaced)
{
	const char *eq = strchr(arg, '=');
	char *key, *where;
	bool from_ini = false;
	int status;

	if (!eq || eq == arg)
		return fail(EXIT_INPUT, "-s %s: expected KEY=V1,V2,... with KEY as -p takes it (l2.size, l1[*].assoc)", arg);
	key = g_strndup(arg, eq - arg);
	where = g_strdup_printf("-s %s", arg);
	for (guint i = 0; i < n_ini; i++)
		if (!strcmp(((struct axis *)s->axes->pdata[i])->key, key)) {
			from_ini = !replaced[i];
			replaced[i] = true;
		}
	status = add_axis(s, key, eq + 1, where, from_ini);
	g_free(key);
	g_free(where);
	return status;
}

/* The [sweep] section of CONFIG.ini, if any: its axes, in file order. */
static int ini_axes(struct sweep *s, guint *n)
{
	GError *err = NULL;
	struct ss_registry *reg = new_registry(&err);
	GPtrArray *errors = NULL;
	struct ss_sim *sim;
	const GPtrArray *e;
	int status = 0;

	*n = 0;
	if (!reg) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
		return status;
	}
	sim = ss_sim_load(reg, s->config, (const char *const *)s->fixed, s->trace, &errors);
	if (!sim) {
		for (guint i = 0; i < errors->len; i++)
			fprintf(stderr, "%s\n", (char *)errors->pdata[i]);
		g_ptr_array_free(errors, TRUE);
		ss_registry_free(reg);
		return EXIT_INPUT;
	}
	e = ss_sim_sweep_entries(sim);
	for (guint i = 0; e && i < e->len && !status; i++) {
		const struct ini_entry *x = e->pdata[i];
		char *where = g_strdup_printf("%s: [sweep] %s", x->loc, x->key);

		status = add_axis(s, x->key, x->value, where, false);
		g_free(where);
	}
	*n = s->axes->len;
	ss_sim_free(sim);
	ss_registry_free(reg);
	return status;
}

/* The value of axis `a` at point p (the last axis varies fastest). */
static const char *point_value(const struct sweep *s, size_t p, guint a)
{
	size_t stride = 1;

	for (guint j = s->axes->len; j-- > a + 1;)
		stride *= ((struct axis *)s->axes->pdata[j])->values->len;

	const struct axis *ax = s->axes->pdata[a];

	return ax->values->pdata[(p / stride) % ax->values->len];
}

/* The -p list of point p: the fixed ones, then its values. */
static char **point_overrides(const struct sweep *s, size_t p)
{
	GPtrArray *o = g_ptr_array_new();

	for (char **f = s->fixed; f && *f; f++)
		g_ptr_array_add(o, g_strdup(*f));
	for (guint a = 0; a < s->axes->len; a++)
		g_ptr_array_add(o, g_strdup_printf("%s=%s",
			((struct axis *)s->axes->pdata[a])->key, point_value(s, p, a)));
	g_ptr_array_add(o, NULL);
	return (char **)g_ptr_array_free(o, FALSE);
}


/* "KEY=VALUE, KEY=VALUE" of point p, for messages. */
static char *point_label(const struct sweep *s, size_t p)
{
	GString *o = g_string_new(NULL);

	for (guint a = 0; a < s->axes->len; a++)
		g_string_append_printf(o, "%s%s=%s", a ? ", " : "",
				       ((struct axis *)s->axes->pdata[a])->key,
				       point_value(s, p, a));
	return g_string_free(o, FALSE);
}

static bool mine(const struct sweep *s, size_t p);
static size_t group_of(const struct sweep *s, size_t p);

/*
 * Every point of this run loads and builds, before any simulation: an
 * unknown key, a value its parameter refuses or a combination the
 * components refuse stops the sweep with the message -p would give,
 * prefixed with the point.
 */
static int check_grid(struct sweep *s)
{
	GError *err = NULL;
	struct ss_registry *reg = new_registry(&err);
	int status = 0;

	if (!reg) {
		status = fail(EXIT_INTERNAL, "%s", err->message);
		g_error_free(err);
		return status;
	}
	for (size_t p = 0; p < s->n_points && !status; p++) {
		char **o = point_overrides(s, p);
		GPtrArray *errors = NULL;
		struct ss_run_options run = { .quiet = TRUE, .table_off = TRUE, .threads = 1 };
		struct ss_sim *sim;

		if (!mine(s, p)) {
			g_strfreev(o);
			continue;
		}
		sim = ss_sim_load(reg, s->config, (const char *const *)o, s->trace, &errors);
		if (!sim) {
			char *l = point_label(s, p);

			for (guint i = 0; i < errors->len; i++)
				fprintf(stderr, "sectorsim sweep: point %zu (%s): %s\n", p, l,
					(char *)errors->pdata[i]);
			g_ptr_array_free(errors, TRUE);
			g_free(l);
			status = EXIT_INPUT;
		} else {
			ss_sim_set_run_options(sim, &run);
			if (ss_sim_build(sim, &err) &&
			    !ss_engine_has_type_flag(ss_sim_engine(sim), SS_TYPE_REPORTS_RUN)) {
				status = fail(EXIT_INPUT, "%s: no component writes per-kernel results (a kernel_report); expected one: a sweep collates its --json and --csv",
					      s->config);
			} else if (err) {
				char *l = point_label(s, p);

				status = err->code == SS_ERROR_CONFIG || err->code == SS_ERROR_INPUT
					 ? EXIT_INPUT : EXIT_INTERNAL;
				fprintf(stderr, "sectorsim sweep: point %zu (%s): %s\n", p, l, err->message);
				g_free(l);
				g_clear_error(&err);
			}
		}
		ss_sim_free(sim);
		g_strfreev(o);
	}
	ss_registry_free(reg);
	return status;
}

/* ---- decoding once ---------------------------------------------------------- */

/*
 * A text trace given as TRACE becomes a native file that every point
 * reads.  A native trace is read as it is, and so is a trc one, which
 * the Nugteren configurations read as loads only (a native copy keeps
 * its stores, and loads_only takes trc traces alone).
 */
static int decode_once(struct sweep *s)
{
	GError *err = NULL;
	struct trace_reader *t;
	enum trace_format_id f;
	char *out;

	s->input = g_strdup(s->trace);
	if (!s->trace)
		return 0;
	t = trace_open(s->trace, TRACE_AUTO, &err);
	if (!t) {
		int status = fail(EXIT_INPUT, "%s", err->message);

		g_error_free(err);
		return status;
	}
	f = trace_format_of(t);
	trace_close(t);
	if (f == TRACE_NATIVE || f == TRACE_TRC)
		return 0;
	s->tmpdir = g_dir_make_tmp("sectorsim-sweep-XXXXXX", &err);
	if (!s->tmpdir) {
		int status = fail(EXIT_INTERNAL, "a folder for the decoded trace: %s", err->message);

		g_error_free(err);
		return status;
	}
	out = g_build_filename(s->tmpdir, "trace.native", NULL);
	if (!s->quiet)
		fprintf(stderr, "sectorsim sweep: decoding %s once for the %zu points\n",
			s->trace, s->n_points);
	if (!native_convert(s->trace, TRACE_AUTO, out, NATIVE_LEVEL_DEFAULT, NULL, &err)) {
		int status = fail(err->code == SS_ERROR_INPUT || err->code == SS_ERROR_CONFIG
				  ? EXIT_INPUT : EXIT_INTERNAL, "%s", err->message);

		g_error_free(err);
		g_free(out);
		return status;
	}
	g_free(s->input);
	s->input = out;
	return 0;
}

static void remove_tmpdir(struct sweep *s)
{
	char *f;

	if (!s->tmpdir)
		return;
	f = g_build_filename(s->tmpdir, "trace.native", NULL);
	g_unlink(f);
	g_free(f);
	g_rmdir(s->tmpdir);
}

/* ---- one point --------------------------------------------------------------- */

static char *keep_path(const struct sweep *s, size_t p, const char *ext)
{
	char *base = g_strdup_printf("point-%06zu.%s", p, ext);
	char *path = g_build_filename(s->keep, base, NULL);

	g_free(base);
	return path;
}

static void json_str(GString *o, const char *s);

/* The "params" line a point's results record: its -p list, as JSON. */
static char *params_line(const struct sweep *s, size_t p)
{
	char **o = point_overrides(s, p);
	GString *l = g_string_new("\n  \"params\": [");

	/* escaped as the report escapes them */
	for (char **x = o; *x; x++) {
		g_string_append(l, x == o ? "" : ", ");
		json_str(l, *x);
	}
	g_string_append(l, "],\n");
	g_strfreev(o);
	return g_string_free(l, FALSE);
}

/*
 * A kept point's files, before --resume counts it: 1 when both are whole
 * and made with the point's parameters; 0 when they are missing or cut
 * short (the point runs again); -1 when they record other parameters (a
 * folder of another sweep), with the message said.
 */
static int check_kept(const struct sweep *s, size_t p)
{
	char *json = keep_path(s, p, "json"), *text = NULL, *want = params_line(s, p);
	int r = 0;

	if (g_file_test(json, G_FILE_TEST_IS_REGULAR) &&
	    g_file_get_contents(json, &text, NULL, NULL)) {
		if (!strstr(text, want))
			r = -1;
		else if (strstr(text, "\n  \"kernels\": ") && g_str_has_suffix(text, "\n}\n"))
			r = 1;
	}
	if (r == 1) {
		char *csv = keep_path(s, p, "csv");

		r = g_file_test(csv, G_FILE_TEST_IS_REGULAR);
		g_free(csv);
	}
	if (r < 0)
		fail(EXIT_INPUT, "%s: made by another sweep (its parameters are not point %zu's); expected the folder of this sweep, or none (run without --resume)",
		     json, p);
	g_free(text);
	g_free(want);
	g_free(json);
	return r;
}

/* Point p was finished before (--resume): kept_points() found it, here
 * or on rank 0. */
static bool point_kept(const struct sweep *s, size_t p)
{
	return s->kept0 && s->kept0[p];
}

/* --resume: which of this run's points are kept whole (s->kept0); exit
 * status 2 for a folder of another sweep, before anything runs. */
static int kept_points(struct sweep *s)
{
	if (!s->kept0)
		s->kept0 = g_new0(uint8_t, s->n_points);
	if (!s->resume)
		return 0;
	for (size_t p = 0; p < s->n_points; p++) {
		int r;

		if (s->ranks == 1 && !mine(s, p))
			continue;
		r = check_kept(s, p);
		if (r < 0)
			return EXIT_INPUT;
		s->kept0[p] = (uint8_t)r;
	}
	return 0;
}

static uint64_t count_kernels(const char *json_path)
{
	char *text = NULL;
	uint64_t n = 0;

	if (g_file_get_contents(json_path, &text, NULL, NULL))
		for (const char *p = text; (p = strstr(p, "\n    {\n      \"kernel_id\": ")); p++)
			n++;
	g_free(text);
	return n;
}

static void show_progress(struct sweep *s)
{
	double el = (g_get_monotonic_time() - s->t0) / 1e6;
	double left = s->done ? el / s->done * (s->total - s->done) : 0;

	fprintf(stderr, "\r\033[Ksectorsim sweep: %zu of %zu points, %" G_GUINT64_FORMAT " kernels, %.0f s left",
		s->done, s->total, s->kernels_done, left);
	fflush(stderr);
}

/* ---- the points' runs, into OUT.points/point-P.{json,csv} ------------------------ */

/* Stride of axis a in the point index. */
static size_t axis_stride(const struct sweep *s, guint a)
{
	size_t stride = 1;

	for (guint j = s->axes->len; j-- > a + 1;)
		stride *= ((struct axis *)s->axes->pdata[j])->values->len;
	return stride;
}

/* Drop what point p left (its .part files included). */
static void unlink_point(const struct sweep *s, size_t p)
{
	for (int k = 0; k < 2; k++) {
		char *f = keep_path(s, p, k ? "csv" : "json");
		char *part = g_strconcat(f, ".part", NULL);

		g_unlink(f);
		g_unlink(part);
		g_free(part);
		g_free(f);
	}
}

/*
 * Run point pts[0] with the others of its group as lanes (n > 1: they
 * differ only in the lane axis), or alone.  A group whose lanes no
 * component claims is not run: *claimed false, and the caller runs its
 * points one by one.  Returns 0, -1 (interrupted or an earlier failure)
 * or an exit status, with *msg.
 */
static int run_sim(struct sweep *s, const size_t *pts, size_t n, bool *claimed, char **msg)
{
	size_t p = pts[0];
	char **o = point_overrides(s, p);
	char *json = keep_path(s, p, "json"), *csv = keep_path(s, p, "csv");
	GError *err = NULL;
	GPtrArray *errors = NULL;
	struct ss_registry *reg = NULL;
	struct ss_sim *sim = NULL;
	char **lanes = NULL;
	int status = 0;

	*claimed = true;
	reg = new_registry(&err);
	if (!reg) {
		*msg = g_strdup(err->message);
		status = EXIT_INTERNAL;
		goto out;
	}
	sim = ss_sim_load(reg, s->config, (const char *const *)o, s->input, &errors);
	if (!sim) {
		/* it loaded with TRACE (check_grid): its native copy is at fault */
		*msg = g_strdup_printf("sectorsim sweep: point %zu: %s", p,
				       errors->len ? (char *)errors->pdata[0] : "does not load");
		g_ptr_array_free(errors, TRUE);
		status = EXIT_INTERNAL;
		goto out;
	}
	if (n > 1) {
		lanes = g_new0(char *, n + 1);
		for (size_t i = 0; i < n; i++)
			lanes[i] = g_strdup(point_value(s, pts[i], (guint)s->lane_axis));
	}

	struct ss_run_options run = {
		.json = json, .csv = csv, .quiet = TRUE, .table_off = TRUE,
		.threads = 1, .raw_stats_unread = TRUE,
		.version = PACKAGE_VERSION, .config = s->config, .params = o,
		.lane_key = n > 1 ? ((struct axis *)s->axes->pdata[s->lane_axis])->key : NULL,
		.lane_values = lanes,
	};

	ss_sim_set_run_options(sim, &run);
	if (!ss_sim_build(sim, &err)) {
		status = 1;
	} else if (n > 1 && !ss_engine_lanes_claimed(ss_sim_engine(sim))) {
		*claimed = false;
		goto out;
	} else if (!ss_sim_run(sim, &err) ||
		   !ss_engine_close_outputs(ss_sim_engine(sim), &err)) {
		status = 1;
	} else if (ss_interrupted()) {
		status = -1;
	}
	if (status > 0) {
		char *l = point_label(s, p);

		status = err->code == SS_ERROR_CONFIG || err->code == SS_ERROR_INPUT
			 ? EXIT_INPUT : EXIT_INTERNAL;
		*msg = g_strdup_printf("sectorsim sweep: point %zu (%s): %s", p, l, err->message);
		g_free(l);
	}
out:
	if (sim)
		ss_sim_free(sim);
	if (reg)
		ss_registry_free(reg);
	g_clear_error(&err);
	/* a component that claims lanes no report writes: one by one */
	for (size_t i = 1; i < n && !status && *claimed; i++)
		for (int k = 0; k < 2; k++) {
			char *lane = g_strdup_printf("%s.lane%zu", k ? csv : json, i);

			if (!g_file_test(lane, G_FILE_TEST_IS_REGULAR)) {
				*claimed = false;
				unlink_point(s, p);
			}
			g_free(lane);
		}
	/* lane i's files are the point's: lane 0, the run's own, is the
	 * point itself again, and goes */
	for (size_t i = 0; i < n && lanes; i++)
		for (int k = 0; k < 2; k++) {
			char *lane = g_strdup_printf("%s.lane%zu", k ? csv : json, i);
			char *to = keep_path(s, pts[i], k ? "csv" : "json");

			if (status || !*claimed || i == 0 || g_rename(lane, to) != 0)
				g_unlink(lane);
			g_free(to);
			g_free(lane);
		}
	g_strfreev(lanes);
	g_free(json);
	g_free(csv);
	g_strfreev(o);
	return status;
}

/* Points pts[0..n-1] (one group, or one point): run, counted, and an
 * unfinished one leaves nothing. */
static void run_points_of(struct sweep *s, const size_t *pts, size_t n)
{
	char *msg = NULL;
	bool claimed;
	int status;

	pthread_mutex_lock(&s->lock);
	status = s->first_error || ss_interrupted() ? -1 : 0;
	pthread_mutex_unlock(&s->lock);
	if (status)
		return;
	status = run_sim(s, pts, n, &claimed, &msg);
	if (status > 0 && n > 1) {
		/* a group that failed (its lanes' DRAM checked against a
		 * dram_counter not right below, say): its points one by one,
		 * where a point's own error is told as such */
		for (size_t i = 0; i < n; i++)
			unlink_point(s, pts[i]);
		pthread_mutex_lock(&s->lock);
		if (!s->alone_why) {
			s->alone_why = msg;
			msg = NULL;
		}
		pthread_mutex_unlock(&s->lock);
		g_clear_pointer(&msg, g_free);
		claimed = false;
	}
	if (!claimed) {
		/* no component takes the lanes: one by one */
		pthread_mutex_lock(&s->lock);
		s->alone_groups++;
		pthread_mutex_unlock(&s->lock);
		for (size_t i = 0; i < n; i++)
			run_points_of(s, &pts[i], 1);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (status > 0 && !s->first_error) {
		s->first_error = msg;
		s->first_status = status;
		msg = NULL;
	}
	if (!status) {
		if (n > 1) {
			s->one_pass_runs++;
			s->one_pass_points += n;
		}
		for (size_t i = 0; i < n; i++) {
			char *json = keep_path(s, pts[i], "json");

			s->done++;
			s->kernels_done += count_kernels(json);
			g_free(json);
		}
		if (s->progress)
			show_progress(s);
	}
	pthread_mutex_unlock(&s->lock);
	if (status)
		for (size_t i = 0; i < n; i++)
			unlink_point(s, pts[i]);
	g_free(msg);
}

/* ---- collating ------------------------------------------------------------------ */

/* A JSON string of s. */
static void json_str(GString *o, const char *s)
{
	g_string_append_c(o, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(o, "\\%c", *p);
		else if (*p < 0x20)
			g_string_append_printf(o, "\\u%04x", *p);
		else
			g_string_append_c(o, *p);
	}
	g_string_append_c(o, '"');
}

/* A CSV field of s (quoted when it holds a comma, a quote or a line end). */
static void csv_field(GString *o, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		g_string_append(o, s);
		return;
	}
	g_string_append_c(o, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			g_string_append_c(o, '"');
		g_string_append_c(o, *p);
	}
	g_string_append_c(o, '"');
}

/* What was swept, as the outputs' head records it. */
static void sweep_head(const struct sweep *s, GString *o, bool json)
{
	char *cfg = g_canonicalize_filename(s->config, NULL);
	char *trace = s->trace ? g_canonicalize_filename(s->trace, NULL) : NULL;

	if (json) {
		g_string_append(o, "{\n  \"sweep\": {\"schema\": 1, \"sectorsim\": \"" PACKAGE_VERSION "\", \"config\": ");
		json_str(o, cfg);
		g_string_append(o, ", \"trace\": ");
		if (trace)
			json_str(o, trace);
		else
			g_string_append(o, "null");
		g_string_append(o, ", \"params\": [");
		for (char **f = s->fixed; f && *f; f++) {
			g_string_append(o, f == s->fixed ? "" : ", ");
			json_str(o, *f);
		}
		g_string_append(o, "], \"axes\": [");
		for (guint a = 0; a < s->axes->len; a++) {
			const struct axis *ax = s->axes->pdata[a];

			g_string_append(o, a ? ", {\"key\": " : "{\"key\": ");
			json_str(o, ax->key);
			g_string_append(o, ", \"values\": [");
			for (guint v = 0; v < ax->values->len; v++) {
				g_string_append(o, v ? ", " : "");
				json_str(o, ax->values->pdata[v]);
			}
			g_string_append(o, "]}");
		}
		g_string_append_printf(o, "], \"points\": %zu}", s->n_points);
	} else {
		g_string_append(o, "# sectorsim sweep results\n# sectorsim: \"" PACKAGE_VERSION "\"\n# config: ");
		g_string_append(o, cfg);
		g_string_append_printf(o, "\n# trace: %s\n# params:", trace ? trace : "(the configuration's)");
		for (char **f = s->fixed; f && *f; f++)
			g_string_append_printf(o, " %s", *f);
		g_string_append(o, "\n# axes:");
		for (guint a = 0; a < s->axes->len; a++) {
			const struct axis *ax = s->axes->pdata[a];

			g_string_append_printf(o, " %s=", ax->key);
			for (guint v = 0; v < ax->values->len; v++)
				g_string_append_printf(o, "%s%s", v ? ";" : "", (char *)ax->values->pdata[v]);
		}
		g_string_append_printf(o, "\n# points: %zu\n", s->n_points);
	}
	g_free(cfg);
	g_free(trace);
}

/* The "kernels" array of a results JSON, as written (NULL: not there). */
static char *kernels_text(const char *text)
{
	const char *k = strstr(text, "\n  \"kernels\": ");
	const char *e = g_strrstr(text, "\n}");

	if (!k || !e || e < k)
		return NULL;
	k += strlen("\n  \"kernels\": ");
	return g_strndup(k, e - k);
}

/* The point's JSON object. */
static bool point_json(const struct sweep *s, size_t p, GString *o, char **why)
{
	char *path = keep_path(s, p, "json"), *text = NULL, *k = NULL;
	GError *err = NULL;
	bool ok = false;

	if (!g_file_get_contents(path, &text, NULL, &err)) {
		*why = g_strdup(err->message);
		g_error_free(err);
	} else if (!(k = kernels_text(text))) {
		*why = g_strdup_printf("%s: no \"kernels\" array", path);
	} else {
		g_string_append_printf(o, "    {\"index\": %zu, \"params\": {", p);
		for (guint a = 0; a < s->axes->len; a++) {
			g_string_append(o, a ? ", " : "");
			json_str(o, ((struct axis *)s->axes->pdata[a])->key);
			g_string_append(o, ": ");
			json_str(o, point_value(s, p, a));
		}
		g_string_append(o, "},\n    \"kernels\": ");
		g_string_append(o, k);
		g_string_append(o, "}");
		ok = true;
	}
	g_free(k);
	g_free(text);
	g_free(path);
	return ok;
}

/* The point's CSV rows; *head: its column line (the first point's is kept
 * and every other must equal it). */
static bool point_csv(const struct sweep *s, size_t p, GString *o, char **head,
		      char **why)
{
	char *path = keep_path(s, p, "csv"), *text = NULL;
	char **lines = NULL;
	GError *err = NULL;
	bool ok = false, seen_head = false;

	if (!g_file_get_contents(path, &text, NULL, &err)) {
		*why = g_strdup(err->message);
		g_error_free(err);
		goto out;
	}
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (!**l || **l == '#')
			continue;
		if (!seen_head) {
			seen_head = true;
			if (!*head) {
				*head = g_strdup(*l);
			} else if (strcmp(*head, *l)) {
				*why = g_strdup_printf("point %zu has other columns than the points before it (a swept parameter changes what the report computes); expected one mode of report for every point", p);
				goto out;
			}
			continue;
		}
		g_string_append_printf(o, "%zu", p);
		for (guint a = 0; a < s->axes->len; a++) {
			g_string_append_c(o, ',');
			csv_field(o, point_value(s, p, a));
		}
		g_string_append_printf(o, ",%s\n", *l);
	}
	ok = seen_head;
	if (!ok)
		*why = g_strdup_printf("%s: no column line", path);
out:
	g_strfreev(lines);
	g_free(text);
	g_free(path);
	return ok;
}

/* The points this run writes: all, or those of --points K/N. */
/* The points, the one-pass axis's groups counting one (mine()). */
static size_t n_groups(const struct sweep *s)
{
	if (s->lane_axis < 0)
		return s->n_points;
	return s->n_points / ((struct axis *)s->axes->pdata[s->lane_axis])->values->len;
}

/*
 * Which part point p belongs to (--points K/N, MPI ranks): the points of
 * a group (they differ only in the one-pass axis, pick_lane_axis()) go
 * together, so that each group runs in one pass; without such an axis,
 * each point by itself.  Group g (in the points' order) goes to part g
 * mod N.
 */
static size_t group_of(const struct sweep *s, size_t p)
{
	if (s->lane_axis >= 0) {
		const struct axis *ax = s->axes->pdata[s->lane_axis];
		size_t stride = 1, len = ax->values->len;

		for (guint j = s->axes->len; j-- > (guint)s->lane_axis + 1;)
			stride *= ((struct axis *)s->axes->pdata[j])->values->len;
		return p / (stride * len) * stride + p % stride;
	}
	return p;
}

static bool mine(const struct sweep *s, size_t p)
{
	return group_of(s, p) % s->part_n == s->part_k;
}

static int write_outputs(struct sweep *s)
{
	GString *js = g_string_new(NULL), *cs = g_string_new(NULL), *rows = g_string_new(NULL);
	char *head = NULL, *why = NULL;
	bool first = true;
	int status = 0;

	sweep_head(s, js, true);
	if (s->part_n > 1)
		g_string_append_printf(js, ",\n  \"part\": \"%u/%u\"", s->part_k, s->part_n);
	g_string_append(js, ",\n  \"points\": [\n");
	sweep_head(s, cs, false);
	if (s->part_n > 1)
		g_string_append_printf(cs, "# part: %u/%u\n", s->part_k, s->part_n);
	for (size_t p = 0; p < s->n_points && !why; p++) {
		if (!mine(s, p))
			continue;
		if (!first)
			g_string_append(js, ",\n");
		first = false;
		if (!point_json(s, p, js, &why))
			break;
		point_csv(s, p, rows, &head, &why);
	}
	if (why) {
		status = fail(EXIT_INTERNAL, "%s", why);
		goto out;
	}
	g_string_append(js, "\n  ]\n}\n");
	g_string_append(cs, "point");
	for (guint a = 0; a < s->axes->len; a++) {
		g_string_append_c(cs, ',');
		csv_field(cs, ((struct axis *)s->axes->pdata[a])->key);
	}
	g_string_append_printf(cs, ",%s\n%s", head ? head : "", rows->str);
	if (s->json)
		status = tool_write_file(s->json, "sweep results", js->str, js->len, &why);
	if (!status && s->csv)
		status = tool_write_file(s->csv, "sweep results", cs->str, cs->len, &why);
	if (status)
		fail(status, "%s", why);
out:
	g_free(why);
	g_free(head);
	g_string_free(js, TRUE);
	g_string_free(cs, TRUE);
	g_string_free(rows, TRUE);
	return status;
}


/* ---- --plot ------------------------------------------------------------------- */

/* The metrics charted, when the report computes them: hit rates, DRAM
 * traffic, memory time, and the Nugteren-compatible report's misses. */
static const char *const main_metrics[] = {
	"l1_hit_rate", "l2_hit_rate", "dram_ld_trans", "dram_st_trans",
	"mem_cycles", "misses", "miss_rate_pct", "cache_capacity_bytes", NULL,
};

/* The main metrics' places, for the Pareto chart. */
enum { MM_DRAM_LD = 2, MM_DRAM_ST = 3, MM_CAPACITY = 7 };

/* The fields of one CSV line (quoted fields unquoted). */
static char **csv_split(const char *line)
{
	GPtrArray *f = g_ptr_array_new();
	GString *cur = g_string_new(NULL);
	bool quoted = false;

	for (const char *p = line;; p++) {
		if (quoted) {
			if (*p == '"' && p[1] == '"') {
				g_string_append_c(cur, '"');
				p++;
			} else if (*p == '"') {
				quoted = false;
			} else if (*p) {
				g_string_append_c(cur, *p);
			} else {
				break;
			}
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == ',' || !*p) {
			g_ptr_array_add(f, g_strdup(cur->str));
			g_string_truncate(cur, 0);
			if (!*p)
				break;
		} else {
			g_string_append_c(cur, *p);
		}
	}
	g_string_free(cur, TRUE);
	g_ptr_array_add(f, NULL);
	return (char **)g_ptr_array_free(f, FALSE);
}

static bool metric_is_int(const char *key)
{
	for (int k = 0; k < N_REPORT_METRICS; k++)
		if (!strcmp(report_metrics[k].key, key))
			return report_metrics[k].is_int;
	return false;
}

/*
 * Point p's value of each main metric over its kernels: counts summed,
 * rates and means averaged, as the report's summary; NaN when absent.
 */
static void point_values(const struct sweep *s, size_t p, double *v)
{
	char *path = keep_path(s, p, "csv"), *text = NULL;
	char **lines, **head = NULL;
	int col[G_N_ELEMENTS(main_metrics)];
	unsigned n = 0;

	for (size_t m = 0; main_metrics[m]; m++) {
		v[m] = NAN;
		col[m] = -1;
	}
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		g_free(path);
		return;
	}
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (!**l || **l == '#')
			continue;
		char **f = csv_split(*l);

		if (!head) {
			head = f;
			for (size_t m = 0; main_metrics[m]; m++)
				for (int i = 0; head[i]; i++)
					if (!strcmp(head[i], main_metrics[m]))
						col[m] = i;
			continue;
		}
		n++;
		for (size_t m = 0; main_metrics[m]; m++) {
			if (col[m] < 0 || (guint)col[m] >= g_strv_length(f) || !*f[col[m]])
				continue;
			v[m] = (isnan(v[m]) ? 0 : v[m]) + g_ascii_strtod(f[col[m]], NULL);
		}
		g_strfreev(f);
	}
	/* a size is the same kind of number for one kernel or many */
	for (size_t m = 0; main_metrics[m] && n; m++)
		if (!isnan(v[m]) && (!metric_is_int(main_metrics[m]) || m == MM_CAPACITY))
			v[m] /= n;
	g_strfreev(head);
	g_strfreev(lines);
	g_free(text);
	g_free(path);
}

/* KEY with what a file name should not hold made '_'. */
static char *file_word(const char *key)
{
	char *w = g_strdup(key);

	for (char *c = w; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_')
			*c = '_';
	return w;
}

/*
 * DIR/pareto-capacity-dram.svg: each point's cache capacity (the mean over
 * its kernels of what its L1s and L2 hold) against its DRAM sectors (reads
 * and writes over its kernels), the points no other beats in both joined;
 * when the report computes both.
 */
static int write_pareto(const struct sweep *s, const double *val, size_t n_m)
{
	double *x = g_new(double, s->n_points), *y = g_new(double, s->n_points);
	char **labels = g_new0(char *, s->n_points + 1);
	char *path, *why = NULL;
	size_t n = 0;
	int status = 0;

	for (size_t p = 0; p < s->n_points; p++) {
		const double *v = val + p * n_m;

		if (!mine(s, p) || isnan(v[MM_CAPACITY]) || isnan(v[MM_DRAM_LD]))
			continue;
		x[n] = v[MM_CAPACITY];
		y[n] = v[MM_DRAM_LD] + (isnan(v[MM_DRAM_ST]) ? 0 : v[MM_DRAM_ST]);
		labels[n++] = point_label(s, p);
	}
	if (n) {
		path = g_build_filename(s->plot, "pareto-capacity-dram.svg", NULL);
		if (!svgplot_pareto(path, "DRAM sectors against cache capacity",
				    "cache capacity (bytes, every L1 and the L2)",
				    "DRAM sectors (reads + writes)", x, y,
				    (const char *const *)labels, n, &why)) {
			status = fail(EXIT_INTERNAL, "%s", why);
			g_free(why);
		}
		g_free(path);
	}
	g_strfreev(labels);
	g_free(x);
	g_free(y);
	return status;
}

/*
 * DIR/METRIC-vs-KEY.svg for each main metric the report computes and each
 * swept KEY: the metric against KEY's values, one line per value of the
 * other keys together.
 */
static int write_plots(const struct sweep *s)
{
	size_t n_m = G_N_ELEMENTS(main_metrics) - 1;
	double *val = g_new(double, s->n_points * n_m);
	int status = 0;
	char *why = NULL;

	if (g_mkdir_with_parents(s->plot, 0777) != 0) {
		g_free(val);
		return fail(EXIT_INPUT, "--plot %s: %s", s->plot, g_strerror(errno));
	}
	for (size_t p = 0; p < s->n_points; p++)
		point_values(s, p, val + p * n_m);
	for (size_t m = 0; m < n_m && !status; m++) {
		bool any = false;

		for (size_t p = 0; p < s->n_points; p++)
			any |= !isnan(val[p * n_m + m]);
		if (!any)
			continue;
		for (guint a = 0; a < s->axes->len && !status; a++) {
			const struct axis *ax = s->axes->pdata[a];
			size_t n_x = ax->values->len, n_ser = s->n_points / n_x;
			GPtrArray *series = g_ptr_array_new_with_free_func(g_free);
			double *y = g_new(double, n_x * n_ser);
			GHashTable *ser_of = g_hash_table_new(g_str_hash, g_str_equal);
			char *title, *fw = file_word(ax->key), *base, *path;

			/* series: the other keys' values, in point order */
			for (size_t p = 0; p < s->n_points; p++) {
				GString *lab = g_string_new(NULL);
				size_t xi = 0;
				gpointer idx;

				for (guint b = 0; b < s->axes->len; b++) {
					const struct axis *bx = s->axes->pdata[b];

					if (b == a) {
						for (xi = 0; strcmp(bx->values->pdata[xi], point_value(s, p, b)); xi++)
							;
						continue;
					}
					g_string_append_printf(lab, "%s%s=%s", lab->len ? ", " : "",
							       bx->key, point_value(s, p, b));
				}
				if (!g_hash_table_lookup_extended(ser_of, lab->str, NULL, &idx)) {
					idx = GUINT_TO_POINTER(series->len);
					g_ptr_array_add(series, g_strdup(lab->str));
					g_hash_table_insert(ser_of, series->pdata[series->len - 1], idx);
				}
				y[GPOINTER_TO_UINT(idx) * n_x + xi] =
					mine(s, p) ? val[p * n_m + m] : NAN;
				g_string_free(lab, TRUE);
			}
			title = g_strdup_printf("%s against %s", main_metrics[m], ax->key);
			base = g_strdup_printf("%s-vs-%s.svg", main_metrics[m], fw);
			path = g_build_filename(s->plot, base, NULL);
			if (!svgplot_lines(path, title, ax->key, main_metrics[m],
					   (const char *const *)ax->values->pdata, n_x,
					   (const char *const *)series->pdata, series->len, y, &why)) {
				status = fail(EXIT_INTERNAL, "%s", why);
				g_clear_pointer(&why, g_free);
			}
			g_free(path);
			g_free(base);
			g_free(title);
			g_free(fw);
			g_free(y);
			g_hash_table_destroy(ser_of);
			g_ptr_array_free(series, TRUE);
		}
	}
	if (!status)
		status = write_pareto(s, val, n_m);
	g_free(val);
	return status;
}

/* The kept points' files and their folder, once the results are whole. */
static void remove_kept(struct sweep *s)
{
	for (size_t p = 0; p < s->n_points; p++) {
		if (!mine(s, p))
			continue;
		for (int k = 0; k < 2; k++) {
			char *f = keep_path(s, p, k ? "csv" : "json");

			g_unlink(f);
			g_free(f);
		}
	}
	g_rmdir(s->keep);
}

/* ---- --merge ---------------------------------------------------------------- */

/*
 * Partial files (--points K/N runs) of one sweep into the file one run
 * writes: JSON when OUT ends in .json (or the partials are JSON), CSV
 * otherwise; every point must be there once.
 */
static int merge(const char *out, char **parts, int n)
{
	GString *o = g_string_new(NULL);
	GPtrArray *points = g_ptr_array_new_with_free_func(g_free);	/* by index */
	char *head = NULL, *cols = NULL, *why = NULL;
	int *from = NULL;	/* per point: the file that gave it + 1 */
	bool json = false;
	size_t total = 0;
	int status = 0;

	if (n < 1) {
		g_string_free(o, TRUE);
		g_ptr_array_free(points, TRUE);
		return fail(EXIT_INPUT, "--merge %s: no partial file; expected --merge OUT PARTIAL...", out);
	}
	for (int i = 0; i < n && !status; i++) {
		char *text = NULL, *h;
		GError *err = NULL;
		const char *body;
		size_t t;

		if (!g_file_get_contents(parts[i], &text, NULL, &err)) {
			status = fail(EXIT_INPUT, "%s", err->message);
			g_error_free(err);
			break;
		}
		if (i == 0)
			json = text[0] == '{';
		else if (json != (text[0] == '{'))
			status = fail(EXIT_INPUT, "%s: %s, unlike %s; expected partial files of one kind",
				      parts[i], json ? "not JSON" : "JSON", parts[0]);
		/* the head: up to the part line, which the merged file lacks */
		const char *pl = strstr(text, json ? ",\n  \"part\": \"" : "# part: ");
		const char *pts = json ? strstr(text, ",\n  \"points\": [\n") : NULL;

		if (!status && (!pl || (json && !pts))) {
			status = fail(EXIT_INPUT, "%s: not a partial file of `sectorsim sweep --points K/N`", parts[i]);
		}
		if (status) {
			g_free(text);
			break;
		}
		h = g_strndup(text, pl - text);
		{
			const char *np = strstr(h, json ? "\"points\": " : "# points: ");

			t = np ? strtoull(np + 10, NULL, 10) : 0;
		}
		if (!t || t > SWEEP_MAX_POINTS) {
			status = fail(EXIT_INPUT, "%s: no point count in its head, or one above %d; expected a partial file of `sectorsim sweep --points K/N`",
				      parts[i], SWEEP_MAX_POINTS);
			g_free(h);
			g_free(text);
			break;
		}
		if (!head) {
			head = h;
			total = t;
			g_ptr_array_set_size(points, (guint)total);
			from = g_new0(int, total);
		} else {
			if (strcmp(head, h))
				status = fail(EXIT_INPUT, "%s: another sweep than %s (its configuration, trace, parameters or grid differ)",
					      parts[i], parts[0]);
			g_free(h);
		}
		if (status) {
			g_free(text);
			break;
		}
		if (json) {
			/* the points, each "    {\"index\": I, ..." up to the next */
			body = pts + strlen(",\n  \"points\": [\n");
			const char *end = g_strrstr(body, "\n  ]\n}");

			while (body && end && body < end) {
				const char *next = strstr(body + 1, ",\n    {\"index\": ");
				const char *stop = next && next < end ? next : end;
				size_t idx = strtoull(body + strlen("    {\"index\": "), NULL, 10);

				if (strncmp(body, "    {\"index\": ", 14) || idx >= total || points->pdata[idx]) {
					status = fail(EXIT_INPUT, "%s: %s", parts[i],
						      strncmp(body, "    {\"index\": ", 14) ? "a point without its index; expected a partial file of `sectorsim sweep --points K/N`"
						      : idx >= total ? "a point outside the sweep" : "a point that is in another partial file too");
					break;
				}
				points->pdata[idx] = g_strndup(body, stop - body);
				body = stop == end ? NULL : stop + 2;
			}
		} else {
			/* after the part line: the column line, then the rows,
			 * whose first field is the point */
			char **lines = g_strsplit(strchr(pl, '\n') ? strchr(pl, '\n') + 1 : "", "\n", -1);
			char **l = lines;

			while (*l && !**l)
				l++;
			/* a part without a point has no column but the keys' */
			bool rows = *l && l[1] && *l[1];

			if (!*l)
				status = fail(EXIT_INPUT, "%s: no column line", parts[i]);
			else if (rows && !cols)
				cols = g_strdup(*l);
			else if (rows && strcmp(cols, *l))
				status = fail(EXIT_INPUT, "%s: other columns than %s", parts[i], parts[0]);
			for (l = *l ? l + 1 : l; *l && !status; l++) {
				size_t idx;
				char *row;

				if (!**l)
					continue;
				idx = strtoull(*l, NULL, 10);
				if (idx >= total || !g_ascii_isdigit(**l)) {
					status = fail(EXIT_INPUT, "%s: a row of no point of the sweep", parts[i]);
					break;
				}
				if (from[idx] && from[idx] != i + 1) {
					status = fail(EXIT_INPUT, "%s: point %zu is in %s too", parts[i], idx,
						      parts[from[idx] - 1]);
					break;
				}
				from[idx] = i + 1;
				row = g_strconcat(points->pdata[idx] ? (char *)points->pdata[idx] : "",
						  *l, "\n", NULL);
				g_free(points->pdata[idx]);
				points->pdata[idx] = row;
			}
			g_strfreev(lines);
		}
		g_free(text);
	}
	for (size_t p = 0; p < total && !status; p++)
		if (!points->pdata[p])
			status = fail(EXIT_INPUT, "--merge %s: point %zu is in no partial file; expected the files of every --points K/N of the sweep", out, p);
	if (!status && !json && !cols)
		status = fail(EXIT_INPUT, "--merge %s: no partial file has a point's columns", out);
	if (!status) {
		if (json) {
			g_string_append(o, head);
			g_string_append(o, ",\n  \"points\": [\n");
			for (size_t p = 0; p < total; p++)
				g_string_append_printf(o, "%s%s", p ? ",\n" : "", (char *)points->pdata[p]);
			g_string_append(o, "\n  ]\n}\n");
		} else {
			g_string_append_printf(o, "%s%s\n", head, cols);
			for (size_t p = 0; p < total; p++)
				g_string_append(o, points->pdata[p]);
		}
		status = tool_write_file(out, "merged sweep results", o->str, o->len, &why);
		if (status)
			fail(status, "%s", why);
	}
	g_free(why);
	g_free(head);
	g_free(cols);
	g_free(from);
	g_ptr_array_free(points, TRUE);
	g_string_free(o, TRUE);
	return status;
}

/* ---- --slurm ---------------------------------------------------------------- */

static char *shell_quote_all(char **argv)
{
	GString *o = g_string_new(NULL);

	for (char **a = argv; *a; a++) {
		char *q = g_shell_quote(*a);

		g_string_append_printf(o, "%s%s", a == argv ? "" : " ", q);
		g_free(q);
	}
	return g_string_free(o, FALSE);
}

/*
 * DIR/sweep.sbatch: a job array of `tasks` tasks, task K running
 * `--points K/tasks` into DIR/part-K.{json,csv}; DIR/merge.sbatch joins
 * them into the outputs; DIR/submit.sh submits both, the merge after the
 * array has succeeded.
 */
static int write_slurm(struct sweep *s, const char *self)
{
	char *dir = g_canonicalize_filename(s->slurm, NULL);
	char *cfg = g_canonicalize_filename(s->config, NULL);
	char *trace = s->trace ? g_canonicalize_filename(s->trace, NULL) : NULL;
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	char *cmd, *why = NULL, *text, *path, *qdir, *self_q;
	unsigned tasks = s->tasks > 0 ? (unsigned)s->tasks : (unsigned)MIN(n_groups(s), 1000);
	int status = 0;

	if (g_mkdir_with_parents(dir, 0777) != 0) {
		status = fail(EXIT_INPUT, "--slurm %s: %s", s->slurm, g_strerror(errno));
		goto out;
	}
	g_ptr_array_add(a, g_strdup("sweep"));
	g_ptr_array_add(a, g_strdup("--quiet"));
	for (char **f = s->fixed; f && *f; f++) {
		g_ptr_array_add(a, g_strdup("-p"));
		g_ptr_array_add(a, g_strdup(*f));
	}
	for (guint i = 0; i < s->axes->len; i++) {
		const struct axis *ax = s->axes->pdata[i];
		GString *vals = g_string_new(NULL);

		/* ';' between them: a value may hold commas of its own */
		for (guint v = 0; v < ax->values->len; v++)
			g_string_append_printf(vals, "%s%s", v ? ";" : "",
					       (char *)ax->values->pdata[v]);
		g_ptr_array_add(a, g_strdup("-s"));
		g_ptr_array_add(a, g_strdup_printf("%s=%s", ax->key, vals->str));
		g_string_free(vals, TRUE);
	}
	g_ptr_array_add(a, g_strdup(cfg));
	if (trace)
		g_ptr_array_add(a, g_strdup(trace));
	g_ptr_array_add(a, NULL);
	cmd = shell_quote_all((char **)a->pdata);
	qdir = g_shell_quote(dir);
	self_q = g_shell_quote(self);
	text = g_strdup_printf(
		"#!/bin/bash\n"
		"# sectorsim sweep of %zu points as a Slurm job array: task K runs the\n"
		"# points whose index is K mod %u (sbatch sweep.sbatch, or submit.sh)\n"
		"#SBATCH --job-name=sectorsim-sweep\n"
		"#SBATCH --array=0-%u\n"
		"#SBATCH --cpus-per-task=1\n"
		"#SBATCH --output=%s/task-%%a.log\n"
		"set -eu\n"
		"# the program that wrote this; $SECTORSIM names another\n"
		"sectorsim=${SECTORSIM:-%s}\n"
		"k=${SLURM_ARRAY_TASK_ID:?run as a Slurm array task, or set SLURM_ARRAY_TASK_ID}\n"
		"exec \"$sectorsim\" %s --threads 1 --points \"$k/%u\" --json %s/part-\"$k\".json --csv %s/part-\"$k\".csv\n",
		s->n_points, tasks, tasks - 1, dir, self_q, cmd, tasks, qdir, qdir);
	path = g_build_filename(dir, "sweep.sbatch", NULL);
	status = tool_write_file(path, "Slurm job array", text, strlen(text), &why);
	g_free(path);
	g_free(text);
	if (!status) {
		char *jq = s->json ? g_shell_quote(s->json) : NULL;
		char *cq = s->csv ? g_shell_quote(s->csv) : NULL;
		char *cwd = g_get_current_dir(), *cwdq = g_shell_quote(cwd);

		text = g_strdup_printf(
			"#!/bin/bash\n"
			"# joins the array's partial results into the sweep's outputs\n"
			"#SBATCH --job-name=sectorsim-sweep-merge\n"
			"#SBATCH --output=%s/merge.log\n"
			"set -eu\n"
			"sectorsim=${SECTORSIM:-%s}\n"
			"cd %s\n"
			"%s\"$sectorsim\" sweep --merge %s %s/part-*.json\n"
			"%s\"$sectorsim\" sweep --merge %s %s/part-*.csv\n",
			dir, self_q, cwdq,
			jq ? "" : ": ", jq ? jq : "OUT.json", qdir,
			cq ? "" : ": ", cq ? cq : "OUT.csv", qdir);
		path = g_build_filename(dir, "merge.sbatch", NULL);
		status = tool_write_file(path, "Slurm merge job", text, strlen(text), &why);
		g_free(path);
		g_free(text);
		g_free(jq);
		g_free(cq);
		g_free(cwd);
		g_free(cwdq);
	}
	if (!status) {
		text = g_strdup_printf(
			"#!/bin/bash\n"
			"# submits the sweep's job array, then the merge once it has succeeded\n"
			"set -eu\n"
			"cd %s\n"
			"jid=$(sbatch --parsable sweep.sbatch)\n"
			"sbatch --dependency=afterok:\"${jid%%%%;*}\" merge.sbatch\n", qdir);
		path = g_build_filename(dir, "submit.sh", NULL);
		status = tool_write_file(path, "Slurm submit script", text, strlen(text), &why);
		if (!status)
			g_chmod(path, 0755);
		g_free(path);
		g_free(text);
	}
	if (status)
		fail(status, "%s", why);
	else if (!s->quiet)
		fprintf(stderr, "sectorsim sweep: %s/sweep.sbatch: %zu points in %u tasks; submit with %s/submit.sh\n",
			dir, s->n_points, tasks, dir);
	g_free(cmd);
	g_free(qdir);
	g_free(self_q);
out:
	g_free(why);
	g_ptr_array_free(a, TRUE);
	g_free(dir);
	g_free(cfg);
	g_free(trace);
	return status;
}


/* ---- mpirun -np N sectorsim sweep ----------------------------------------------- */

#ifdef HAVE_MPI
/* Launched by mpirun (Open MPI's or a PMI launcher's environment): a
 * plain run never starts MPI, which would look for a launcher. */
static bool under_mpi(void)
{
	return g_getenv("OMPI_COMM_WORLD_SIZE") || g_getenv("PMIX_RANK") ||
	       g_getenv("PMI_SIZE");
}

/* Rank 0 gets the files of the points the others ran, into its folder. */
static int gather_points(struct sweep *s)
{
	int status = 0;

	for (size_t p = 0; p < s->n_points; p++) {
		int owner = (int)(group_of(s, p) % (size_t)s->ranks);

		if (owner == 0 || s->kept0[p])
			continue;
		for (int k = 0; k < 2; k++) {
			char *path = keep_path(s, p, k ? "csv" : "json");
			int tag = (int)((p * 2 + (size_t)k) % 32768);
			unsigned long long len = 0;

			if (s->rank == owner) {
				char *text = NULL;
				gsize n = 0;

				if (!g_file_get_contents(path, &text, &n, NULL))
					n = 0;	/* rank 0 reports the point missing */
				len = n;
				MPI_Send(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, tag, MPI_COMM_WORLD);
				if (n)
					MPI_Send(text, (int)n, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
				g_free(text);
				g_unlink(path);
			} else if (s->rank == 0) {
				char *text;
				GError *err = NULL;

				MPI_Recv(&len, 1, MPI_UNSIGNED_LONG_LONG, owner, tag,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				text = g_malloc(len + 1);
				if (len)
					MPI_Recv(text, (int)len, MPI_BYTE, owner, tag,
						 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (!len && !status)
					status = fail(EXIT_INTERNAL, "point %zu: rank %d sent no results", p, owner);
				else if (len && !g_file_set_contents(path, text, (gssize)len, &err) && !status) {
					status = fail(EXIT_INTERNAL, "%s", err->message);
					g_error_free(err);
				}
				g_free(text);
			}
			g_free(path);
		}
	}
	return status;
}
#endif

/*
 * Under mpirun, a step that can fail on one rank alone ends with this:
 * every rank gets the worst status, so that all stop together rather
 * than wait for one that has left.
 */
static int mpi_agree(const struct sweep *s, int status)
{
#ifdef HAVE_MPI
	int worst = status;

	if (s->ranks > 1)
		MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return worst;
#else
	(void)s;
	return status;
#endif
}

/*
 * Before the run under mpirun: rank 0's kept points (--resume) go to every
 * rank, which then runs none of them, and ranks above 0 keep their
 * points' files in a folder of their own.
 */
static int mpi_prepare(struct sweep *s)
{
#ifdef HAVE_MPI
	GError *err = NULL;

	int status = 0;

	s->kept0 = g_new0(uint8_t, s->n_points);
	if (s->rank == 0)
		status = kept_points(s);
	status = mpi_agree(s, status);
	if (status)
		return status;
	MPI_Bcast(s->kept0, (int)s->n_points, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (s->rank > 0) {
		g_free(s->keep);
		s->keep = g_dir_make_tmp("sectorsim-sweep-rank-XXXXXX", &err);
		if (!s->keep) {
			int status = fail(EXIT_INTERNAL, "a folder for rank %d's points: %s", s->rank, err->message);

			g_error_free(err);
			return status;
		}
	}
	return 0;
#else
	(void)s;
	return 0;
#endif
}

/*
 * After the run under mpirun: every rank learns the worst status; when
 * all went well rank 0 gathers the others' points and goes on as a
 * single run of every point would.
 */
static int mpi_finish_run(struct sweep *s, int status)
{
#ifdef HAVE_MPI
	int worst = status;

	MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!worst)
		worst = gather_points(s);
	if (s->rank > 0) {
		/* its points, sent or not: the folder was its own */
		for (size_t p = 0; p < s->n_points; p++)
			for (int k = 0; k < 2; k++) {
				char *f = keep_path(s, p, k ? "csv" : "json");

				g_unlink(f);
				g_free(f);
			}
		g_rmdir(s->keep);
	}
	s->part_k = 0;
	s->part_n = 1;
	g_clear_pointer(&s->kept0, g_free);
	return worst;
#else
	(void)s;
	return status;
#endif
}

/* ---- the command ------------------------------------------------------------------ */

static void axis_free(gpointer p)
{
	struct axis *a = p;

	g_free(a->key);
	g_ptr_array_free(a->values, TRUE);
	g_free(a);
}

static int parse_points(struct sweep *s)
{
	unsigned k, n;
	char c;

	s->part_k = 0;
	s->part_n = 1;
	if (!s->points_arg)
		return 0;
	if (sscanf(s->points_arg, "%u/%u%c", &k, &n, &c) != 2 || n < 1 || k >= n)
		return fail(EXIT_INPUT, "--points %s: expected K/N with 0 <= K < N", s->points_arg);
	s->part_k = k;
	s->part_n = n;
	return 0;
}

/* Whether point p is this run's to simulate: its share, not kept, not
 * taken yet. */
static bool open_point(const struct sweep *s, size_t p)
{
	return mine(s, p) && !point_kept(s, p) && !s->taken[p];
}

/*
 * The next point to run, with the other points of its group when one
 * axis runs in one pass (those still open): *n of them into pts.
 * SIZE_MAX when none is left.
 */
static size_t take_task(struct sweep *s, size_t *pts, size_t *n)
{
	size_t p;

	*n = 0;
	pthread_mutex_lock(&s->lock);
	while (s->next < s->n_points && !open_point(s, s->next))
		s->next++;
	p = s->next;
	if (p < s->n_points) {
		if (s->lane_axis < 0) {
			pts[(*n)++] = p;
			s->taken[p] = 1;
		} else {
			const struct axis *ax = s->axes->pdata[s->lane_axis];
			size_t stride = axis_stride(s, (guint)s->lane_axis);
			size_t base = p - (p / stride % ax->values->len) * stride;

			for (guint v = 0; v < ax->values->len; v++) {
				size_t q = base + v * stride;

				if (q == p || (q > p && open_point(s, q))) {
					pts[(*n)++] = q;
					s->taken[q] = 1;
				}
			}
		}
	}
	pthread_mutex_unlock(&s->lock);
	return *n ? p : SIZE_MAX;
}

static void *worker(void *data)
{
	struct sweep *s = data;
	size_t len = s->lane_axis < 0 ? 1 :
		     ((struct axis *)s->axes->pdata[s->lane_axis])->values->len;
	size_t *pts = g_new(size_t, len), n;

	while (take_task(s, pts, &n) != SIZE_MAX)
		run_points_of(s, pts, n);
	g_free(pts);
	return NULL;
}

/* Whether a component of point 0 takes axis a's values as lanes (a
 * build, no run). */
/*
 * Build (not run) the configuration with overrides o, and with lanes when
 * lane_key is given: whether it built and the lanes were claimed
 * (*claimed), or *err.  False too when it does not load.
 */
static bool probe_build(const struct sweep *s, char **o, char *lane_key,
			char **lanes, bool *claimed, GError **err)
{
	struct ss_registry *reg = new_registry(NULL);
	GPtrArray *errors = NULL;
	struct ss_sim *sim = reg ? ss_sim_load(reg, s->config, (const char *const *)o,
					       s->input ? s->input : s->trace, &errors)
				 : NULL;
	bool ok = false;

	*claimed = false;
	if (sim) {
		struct ss_run_options run = {
			.quiet = TRUE, .threads = 1, .raw_stats_unread = TRUE,
			.lane_key = lane_key, .lane_values = lanes,
		};

		ss_sim_set_run_options(sim, &run);
		ok = ss_sim_build(sim, err);
		*claimed = ok && ss_engine_lanes_claimed(ss_sim_engine(sim));
		ss_sim_free(sim);
	} else if (errors) {
		g_ptr_array_free(errors, TRUE);
	}
	if (reg)
		ss_registry_free(reg);
	return ok;
}

static bool takes_lanes(struct sweep *s, guint a)
{
	const struct axis *ax = s->axes->pdata[a];
	char **o = point_overrides(s, 0);
	char **lanes = g_new0(char *, ax->values->len + 1);
	GError *err = NULL;
	bool taken, alone;

	for (guint v = 0; v < ax->values->len; v++)
		lanes[v] = g_strdup(ax->values->pdata[v]);
	probe_build(s, o, ax->key, lanes, &taken, &err);
	/* one that builds alone but not with lanes says why; one that does
	 * not build at all is the point's own error, said with it */
	if (err && !s->alone_why && probe_build(s, o, NULL, NULL, &alone, NULL))
		s->alone_why = g_strdup(err->message);
	g_clear_error(&err);
	g_strfreev(lanes);
	g_strfreev(o);
	return taken;
}

/*
 * The axis whose points run in one pass: an associativity (KEY ending in
 * ".assoc") whose component takes its values as lanes, the last such;
 * or -1.  *asked: an associativity axis there was, none taken.
 */
static int pick_lane_axis(struct sweep *s, bool *asked)
{
	*asked = false;
	for (guint a = s->axes->len; a-- > 0;) {
		const struct axis *ax = s->axes->pdata[a];

		if (ax->values->len < 2 || !g_str_has_suffix(ax->key, ".assoc"))
			continue;
		*asked = true;
		if (takes_lanes(s, a))
			return (int)a;
	}
	return -1;
}

/* Run the points not kept yet; 0 once every one of this run is. */
static int run_points(struct sweep *s)
{
	unsigned threads = s->threads > 0 ? (unsigned)s->threads : g_get_num_processors();
	pthread_t *tid;
	unsigned started = 0;
	int status = 0;

	if (g_mkdir_with_parents(s->keep, 0777) != 0)
		return fail(EXIT_INPUT, "%s: %s", s->keep, g_strerror(errno));
	if (s->ranks == 1 && (status = kept_points(s)))
		return status;
	s->total = s->done = 0;
	for (size_t p = 0; p < s->n_points; p++) {
		if (!mine(s, p))
			continue;
		s->total++;
		if (point_kept(s, p))
			s->done++;
	}
	s->next = 0;
	s->taken = g_new0(uint8_t, s->n_points);
	s->t0 = g_get_monotonic_time();
	s->progress = isatty(2) && !s->quiet;
	threads = MAX(1u, MIN(threads, (unsigned)MIN(s->total, 4096)));
	tid = g_new(pthread_t, threads);
	for (unsigned t = 0; t < threads; t++) {
		int e = pthread_create(&tid[t], NULL, worker, s);

		if (e) {
			status = fail(EXIT_INTERNAL, "a thread for the points: %s", g_strerror(e));
			/* the started ones find no point left */
			pthread_mutex_lock(&s->lock);
			s->next = s->n_points;
			pthread_mutex_unlock(&s->lock);
			break;
		}
		started++;
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	g_free(tid);
	g_clear_pointer(&s->taken, g_free);
	if (s->progress)
		fputs("\r\033[K", stderr);
	/* which method the points took */
	if (!s->quiet && s->rank == 0) {
		const char *key = s->lane_axis >= 0
			? ((struct axis *)s->axes->pdata[s->lane_axis])->key : NULL;

		if (s->one_pass_runs)
			fprintf(stderr, "sectorsim sweep: %s: %zu points in %zu runs of one LRU stack pass each\n",
				key, s->one_pass_points, s->one_pass_runs);
		/* the reason one pass failed, unless the points failed alone
		 * too: then it was theirs, said with them */
		if (s->alone_why && !s->first_error) {
			const char *why = s->alone_why;

			if (g_str_has_prefix(why, "sectorsim sweep: "))
				why += strlen("sectorsim sweep: ");
			fprintf(stderr, "sectorsim sweep: the associativities were run point by point, since one pass failed: %s\n",
				why);
		}
		else if (!s->first_error && (s->alone_groups || (s->lane_asked && !key)))
			fprintf(stderr, "sectorsim sweep: the associativities were run point by point: one pass takes an l2_slice_set with LRU, a write_miss that allocates (lazy_fetch with 32-byte sectors), no protect_dirty_pct, sets given and not size, up to 64 distinct ways written in decimal, and the dram_counter right below it\n");
	}
	if (status)
		return status;
	if (s->first_error) {
		fprintf(stderr, "%s\n", s->first_error);
		return s->first_status;
	}
	if (ss_interrupted()) {
		fprintf(stderr, "sectorsim sweep: interrupted: %zu of %zu points finished, kept in %s; --resume runs the rest\n",
			s->done, s->total, s->keep);
		return EXIT_INTERRUPTED;
	}
	return 0;
}

int sectorsim_sweep_main(int argc, char **argv)
{
	struct sweep s = { .lane_axis = -1 };
	char **sets = NULL;
	GOptionEntry entries[] = {
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Sweep a parameter: KEY=V1,V2,... with KEY as -p takes it (repeatable: a grid; values with commas of their own: separate them with '|'); replaces the values a [sweep] section gives KEY", "KEY=VALUES" },
		{ "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &s.fixed, "Override a parameter in every point: SECTION.KEY=VALUE (repeatable)", "KEY=VALUE" },
		{ "json", 0, 0, G_OPTION_ARG_FILENAME, &s.json, "Write the results as JSON: the sweep, then per point its values and the kernels `sectorsim --json` writes", "FILE" },
		{ "csv", 0, 0, G_OPTION_ARG_FILENAME, &s.csv, "Write the results as CSV: one row per point and kernel", "FILE" },
		{ "threads", 0, 0, G_OPTION_ARG_INT, &s.threads, "Points run at once (default: one per online core)", "N" },
		{ "points", 0, 0, G_OPTION_ARG_STRING, &s.points_arg, "Run only the points whose index is K mod N, into partial files for --merge", "K/N" },
		{ "merge", 0, 0, G_OPTION_ARG_FILENAME, &s.merge, "Join the partial files given as arguments (of every --points K/N) into OUT", "OUT" },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &s.plot, "Write SVG charts into DIR: each main metric against each swept key, a line per value of the other keys", "DIR" },
		{ "slurm", 0, 0, G_OPTION_ARG_FILENAME, &s.slurm, "Write a Slurm job array for the sweep into DIR (sweep.sbatch, merge.sbatch, submit.sh) instead of running it", "DIR" },
		{ "tasks", 0, 0, G_OPTION_ARG_INT, &s.tasks, "--slurm: tasks of the job array (default: one per point, or per group of an associativity axis's points, at most 1000)", "N" },
		{ "resume", 0, 0, G_OPTION_ARG_NONE, &s.resume, "Keep the points an interrupted sweep finished, and run the rest", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &s.quiet, "Nothing on standard error but warnings and errors", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionContext *ctx;
	GError *err = NULL;
	int status = 0;

	pthread_mutex_init(&s.lock, NULL);
	s.axes = g_ptr_array_new_with_free_func(axis_free);
	s.ranks = 1;
	g_set_prgname("sectorsim sweep");
#ifdef HAVE_MPI
	if (under_mpi()) {
		int provided;

		/* only this thread calls MPI; the points run on others */
		MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
		MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
		MPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
		quiet_rank = s.rank > 0;
	}
#endif
	ctx = g_option_context_new("CONFIG.ini [TRACE] -s KEY=V1,V2,... [-s ...]");
	g_option_context_set_summary(ctx,
		"Run CONFIG.ini for every point of a grid of parameter values and\n"
		"collate the results: per point and kernel, what `sectorsim --json`\n"
		"and `--csv` write.  A text TRACE is decoded once (into the native\n"
		"format) for all the points, which run at once on --threads threads.\n"
		"Finished points are kept in OUT.points/ until the results are whole.\n"
		"`sectorsim sweep --merge OUT PARTIAL...` joins --points K/N runs."
#ifdef HAVE_MPI
		"\nBuilt with MPI: under `mpirun -np N`, the ranks share the points\n"
		"(rank R runs those of index R mod N) and rank 0 writes the results."
#endif
		);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		status = fail(EXIT_INPUT, "%s (see --help)", err->message);
		g_error_free(err);
		goto out;
	}
	if (s.merge) {
		status = merge(s.merge, argv + 1, argc - 1);
		goto out;
	}
	if (argc < 2 || argc > 3) {
		status = fail(EXIT_INPUT, "%d argument%s; expected CONFIG.ini [TRACE] (see --help)",
			      argc - 1, argc == 2 ? "" : "s");
		goto out;
	}
	if (strcmp(argv[1], SS_CONFIG_STDIN) == 0) {
		status = fail(EXIT_INPUT, "CONFIG %s (standard input): a sweep names its configuration to every point, process and Slurm task; expected a file",
			      argv[1]);
		goto out;
	}
	s.config = config_find(argv[1]);
	s.trace = argc == 3 ? g_strdup(argv[2]) : NULL;
	{
		guint n_ini;
		bool *replaced;

		status = ini_axes(&s, &n_ini);
		replaced = g_new0(bool, n_ini + 1);
		for (char **a = sets; a && *a && !status; a++)
			status = parse_axis(&s, *a, n_ini, replaced);
		g_free(replaced);
	}
	if (status)
		goto out;
	if (!s.axes->len) {
		status = fail(EXIT_INPUT, "nothing to sweep; expected -s KEY=V1,V2,... or a [sweep] section in %s", s.config);
		goto out;
	}
	if (s.threads < 0) {
		status = fail(EXIT_INPUT, "--threads %d: expected 1 or more (0: one per online core)", s.threads);
		goto out;
	}
	s.n_points = 1;
	for (guint a = 0; a < s.axes->len; a++) {
		s.n_points *= ((struct axis *)s.axes->pdata[a])->values->len;
		if (s.n_points > SWEEP_MAX_POINTS) {
			status = fail(EXIT_INPUT, "the grid has more than %d points; expected fewer (split it into several sweeps)",
				      SWEEP_MAX_POINTS);
			goto out;
		}
	}
	if ((status = parse_points(&s)))
		goto out;
	if (s.ranks > 1 && (s.points_arg || s.slurm)) {
		status = fail(EXIT_INPUT, "%s under mpirun: the ranks split the points themselves; expected one or the other",
			      s.points_arg ? "--points" : "--slurm");
		goto out;
	}
	if (s.ranks > 1) {
		/* each rank runs the points of its index mod the ranks */
		s.part_k = (unsigned)s.rank;
		s.part_n = (unsigned)s.ranks;
		s.quiet |= s.rank > 0;
	}
	if (s.json && s.csv && !strcmp(s.json, s.csv)) {
		status = fail(EXIT_INPUT, "--json and --csv are both %s; expected two files", s.json);
		goto out;
	}
	if ((s.json && !strcmp(s.json, "-")) || (s.csv && !strcmp(s.csv, "-"))) {
		status = fail(EXIT_INPUT, "a sweep's results go to files; expected --json FILE and --csv FILE");
		goto out;
	}
	if (!s.json && !s.csv && !s.slurm) {
		status = fail(EXIT_INPUT, "no output; expected --json FILE, --csv FILE or both");
		goto out;
	}
	if (s.plot && g_mkdir_with_parents(s.plot, 0777) != 0) {
		status = fail(EXIT_INPUT, "--plot %s: %s", s.plot, g_strerror(errno));
		goto out;
	}
	/* which axis runs in one pass decides which points go together */
	s.lane_axis = pick_lane_axis(&s, &s.lane_asked);
	status = mpi_agree(&s, check_grid(&s));
	if (status)
		goto out;
	if (s.slurm) {
		/* the tasks run this very program, wherever it is installed */
		char *self = g_file_read_link("/proc/self/exe", NULL);

		status = write_slurm(&s, self ? self : "sectorsim");
		g_free(self);
		goto out;
	}
	s.keep = g_strconcat(s.json ? s.json : s.csv, ".points", NULL);
	if (s.rank > 0) {
		/* its points' files until rank 0 has them (mpi_prepare) */
	} else if (!s.resume && g_file_test(s.keep, G_FILE_TEST_EXISTS)) {
		status = fail(EXIT_INPUT, "%s is there: an interrupted sweep's finished points; expected --resume to finish it, or that folder removed",
			      s.keep);
	} else if (s.resume && !g_file_test(s.keep, G_FILE_TEST_IS_DIR)) {
		status = fail(EXIT_INPUT, "--resume: %s is not there; expected the folder of an interrupted sweep with the same outputs",
			      s.keep);
	}
	if ((status = mpi_agree(&s, status)))
		goto out;
	if (s.ranks > 1 && (status = mpi_prepare(&s)))
		goto out;
	/* from here Ctrl-C ends the sweep cleanly, keeping finished points */
	ss_catch_interrupt();
	status = mpi_agree(&s, decode_once(&s));
	if (status)
		goto out;
	if (ss_interrupted()) {
		status = EXIT_INTERRUPTED;
		goto out;
	}
	status = run_points(&s);
	if (s.ranks > 1) {
		status = mpi_finish_run(&s, status);
		if (s.rank > 0)
			goto out;
	}
	if (!status)
		status = write_outputs(&s);
	if (!status && s.plot)
		status = write_plots(&s);
	if (!status)
		remove_kept(&s);
	else
		g_rmdir(s.keep);	/* only when no point finished */
out:
	remove_tmpdir(&s);
#ifdef HAVE_MPI
	if (s.ranks > 1 || under_mpi()) {
		int flag = 0;

		MPI_Initialized(&flag);
		if (flag)
			MPI_Finalize();
	}
#endif
	g_free(s.kept0);
	g_option_context_free(ctx);
	g_strfreev(sets);
	g_strfreev(s.fixed);
	g_ptr_array_free(s.axes, TRUE);
	g_free(s.alone_why);
	g_free(s.config);
	g_free(s.trace);
	g_free(s.json);
	g_free(s.csv);
	g_free(s.merge);
	g_free(s.slurm);
	g_free(s.plot);
	g_free(s.points_arg);
	g_free(s.input);
	g_free(s.tmpdir);
	g_free(s.keep);
	g_free(s.first_error);
	pthread_mutex_destroy(&s.lock);
	return status;
}
