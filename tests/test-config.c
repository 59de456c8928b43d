/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * INI wiring end to end with the test plugin: loading it from an INI,
 * arrays and link pairing with fan-in, parameter precedence, latency,
 * replies, phases, and the binding failures only the wiring can detect.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include "internal.h"
#include "registry.h"
#include "sim.h"

static char *tmpdir;

static char *write_ini(const char *name, const char *text)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* Load, build and run; fails the test on any error. */
static struct ss_sim *run_ini(struct ss_registry *r, const char *name,
			      const char *text, const char *const *overrides)
{
	char *path = write_ini(name, text);
	GPtrArray *errors = NULL;
	GError *err = NULL;
	struct ss_sim *s = ss_sim_load(r, path, overrides, NULL, &errors);

	if (!s)
		g_error("%s", (char *)errors->pdata[0]);
	g_assert_no_error(err);
	if (!ss_sim_build(s, &err) || !ss_sim_run(s, &err))
		g_error("%s", err->message);
	g_free(path);
	return s;
}

static double stat_of(struct ss_sim *s, const char *name)
{
	double v;

	if (!ss_stats_lookup(ss_sim_engine(s), name, &v))
		g_error("no statistic %s", name);
	return v;
}

/* sum of tokens values first, first+step, ... */
static double series(double tokens, double first, double step)
{
	return tokens * first + step * tokens * (tokens - 1) / 2;
}

#define PLUGIN "[simulation]\nplugins = token_plugin\n"

static void test_fan_in(void)
{
	struct ss_registry *r = ss_registry_new();
	struct ss_sim *s = run_ini(r, "fanin.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 3\n"
		"tokens = 4\ntokens[1] = 5\ntokens[2] = 6\nfirst[2] = 100\n"
		"[component sink]\ntype = token_sink\n"
		"[link feed]\nfrom = src[*].out\nto = sink.in[*]\n", NULL);

	g_assert_cmpfloat(stat_of(s, "src.sent"), ==, 15);
	g_assert_cmpfloat(stat_of(s, "sink.tokens"), ==, 15);
	g_assert_cmpfloat(stat_of(s, "sink.value_sum"), ==,
			  series(4, 1, 1) + series(5, 1, 1) + series(6, 100, 1));
	g_assert_cmpfloat(stat_of(s, "sink.mean_value"), ==,
			  (series(4, 1, 1) + series(5, 1, 1) + series(6, 100, 1)) / 15);
	/* src[i] lands on in[i] */
	g_assert_cmpfloat(stat_of(s, "sink.from[0].tokens"), ==, 4);
	g_assert_cmpfloat(stat_of(s, "sink.from[1].tokens"), ==, 5);
	g_assert_cmpfloat(stat_of(s, "sink.from[2].tokens"), ==, 6);
	g_assert_cmpfloat(stat_of(s, "sink.from.tokens"), ==, 15);
	g_assert_cmpfloat(stat_of(s, "sink.latency_sum"), ==, 0);
	g_assert_cmpuint(ss_component_port_count(ss_engine_component(ss_sim_engine(s), "sink"), "in"), ==, 3);
	/* the last token of src[2] leaves at tick 5 */
	g_assert_cmpuint(ss_engine_now(ss_sim_engine(s)), ==, 5);
	ss_sim_free(s);
	ss_registry_free(r);
}

/* A vector port written bare is its element 0, as if scalar: per
 * instance of an array, one. */
static void test_vector_bare(void)
{
	struct ss_registry *r = ss_registry_new();
	struct ss_sim *s = run_ini(r, "bare.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 3\n"
		"tokens = 4\ntokens[1] = 5\n"
		"[component sink]\ntype = token_sink\ncount = 3\n"
		"[link feed]\nfrom = src[*].out\nto = sink[*].in\n", NULL);

	g_assert_cmpuint(ss_component_port_count(ss_engine_component(ss_sim_engine(s), "sink[1]"), "in"), ==, 1);
	g_assert_cmpfloat(stat_of(s, "sink[1].from[0].tokens"), ==, 5);
	g_assert_cmpfloat(stat_of(s, "sink.tokens"), ==, 13);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_ranges_pairing(void)
{
	struct ss_registry *r = ss_registry_new();
	/* two links fill one vector port: src[0..1] -> in[2..3], src[2..3] -> in[0..1] */
	struct ss_sim *s = run_ini(r, "ranges.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 4\n"
		"tokens[0] = 1\ntokens[1] = 2\ntokens[2] = 3\ntokens[3] = 4\n"
		"[component sink]\ntype = token_sink\nin_count = 4\n"
		"[link high]\nfrom = src[0..1].out\nto = sink.in[2..3]\n"
		"[link low]\nfrom = src[2..3].out\nto = sink.in[0..1]\n", NULL);

	g_assert_cmpfloat(stat_of(s, "sink.from[0].tokens"), ==, 3);
	g_assert_cmpfloat(stat_of(s, "sink.from[1].tokens"), ==, 4);
	g_assert_cmpfloat(stat_of(s, "sink.from[2].tokens"), ==, 1);
	g_assert_cmpfloat(stat_of(s, "sink.from[3].tokens"), ==, 2);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_array_to_array(void)
{
	struct ss_registry *r = ss_registry_new();
	/* row-major expansion: src[0..3] -> sink[0].in[0..1], sink[1].in[0..1] */
	struct ss_sim *s = run_ini(r, "rows.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 4\ntokens = 2\n"
		"first[0] = 1\nfirst[1] = 10\nfirst[2] = 100\nfirst[3] = 1000\nstep = 0\n"
		"[component sink]\ntype = token_sink\ncount = 2\n"
		"[link feed]\nfrom = src[*].out\nto = sink[*].in[*]\n", NULL);

	g_assert_cmpfloat(stat_of(s, "sink[0].value_sum"), ==, 22);
	g_assert_cmpfloat(stat_of(s, "sink[1].value_sum"), ==, 2200);
	g_assert_cmpfloat(stat_of(s, "sink[1].from[0].tokens"), ==, 2);
	g_assert_cmpfloat(stat_of(s, "sink.value_sum"), ==, 2222);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_precedence(void)
{
	struct ss_registry *r = ss_registry_new();
	const char *const over[] = { "src[3].first=50", "src.period=2", NULL };
	/* first: default 1 < base 10 < mid 20 < section 30 < [2] 40 < -p 50 */
	struct ss_sim *s = run_ini(r, "prec.ini", PLUGIN
		"[template base]\nfirst = 10\nstep = 2\nperiod = 7\n"
		"[template mid]\nextends = base\nfirst = 20\ntokens = 3\n"
		"[component src]\ntype = token_source\ncount = 4\nextends = mid\n"
		"first = 30\nfirst[2] = 40\nfirst[3] = 45\n"
		"[component sink]\ntype = token_sink\n"
		"[link feed]\nfrom = src[*].out\nto = sink.in[*]\n", over);

	g_assert_cmpfloat(stat_of(s, "src[0].value_sum"), ==, series(3, 30, 2));
	g_assert_cmpfloat(stat_of(s, "src[1].value_sum"), ==, series(3, 30, 2));
	g_assert_cmpfloat(stat_of(s, "src[2].value_sum"), ==, series(3, 40, 2));
	g_assert_cmpfloat(stat_of(s, "src[3].value_sum"), ==, series(3, 50, 2));
	/* -p beat the template's period = 7: last token at tick 2 * 2 */
	g_assert_cmpuint(ss_engine_now(ss_sim_engine(s)), ==, 4);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_include_later_wins(void)
{
	struct ss_registry *r = ss_registry_new();
	char *common = write_ini("common.ini", PLUGIN
		"[component src]\ntype = token_source\ntokens = 8\nfirst = 3\n"
		"[component sink]\ntype = token_sink\n"
		"[link feed]\nfrom = src.out\nto = sink.in[0]\n");
	struct ss_sim *s = run_ini(r, "top.ini",
		"[simulation]\ninclude = common.ini\n[component src]\ntokens = 2\n", NULL);

	g_assert_cmpfloat(stat_of(s, "sink.value_sum"), ==, series(2, 3, 1));
	g_free(common);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_latency_and_replies(void)
{
	struct ss_registry *r = ss_registry_new();
	struct ss_sim *s = run_ini(r, "lat.ini", PLUGIN
		"[component src]\ntype = token_source\ntokens = 6\nperiod = 2\n"
		"[component sink]\ntype = token_sink\nmode = ack\n"
		"[link feed]\nfrom = src.out\nto = sink.in[0]\nlatency = 5\n"
		"[link done]\nfrom = src.ctl\nto = sink.ctl[0]\n", NULL);

	g_assert_cmpfloat(stat_of(s, "sink.latency_sum"), ==, 6 * 5);
	/* each ack travels back over the same 5-tick link */
	g_assert_cmpfloat(stat_of(s, "src.acks"), ==, 6);
	g_assert_cmpfloat(stat_of(s, "sink.done"), ==, 1);
	/* last token sent at 10, arrives at 15, its ack at 20 */
	g_assert_cmpuint(ss_engine_now(ss_sim_engine(s)), ==, 20);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_relay_chain(void)
{
	struct ss_registry *r = ss_registry_new();
	/* src -> x3 -> x5 -> sink, acks all the way back; payload and enabled */
	struct ss_sim *s = run_ini(r, "chain.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 2\ntokens = 4\npayload = 1KiB\n"
		"enabled[1] = no\n"
		"[component a]\ntype = token_scale\nfactor = 3\n"
		"[component b]\ntype = token_scale\nfactor = 5\n"
		"[component sink]\ntype = token_sink\nmode = ack\nin_count = 2\n"
		"[link l0]\nfrom = src[0].out\nto = a.in\n"
		"[link l1]\nfrom = a.out\nto = b.in\n"
		"[link l2]\nfrom = b.out\nto = sink.in[0]\n"
		"[link l3]\nfrom = src[1].out\nto = sink.in[1]\n", NULL);

	g_assert_cmpfloat(stat_of(s, "sink.value_sum"), ==, 15 * series(4, 1, 1));
	g_assert_cmpfloat(stat_of(s, "sink.bytes"), ==, 4 * 1024);
	g_assert_cmpfloat(stat_of(s, "src[0].acks"), ==, 4);
	g_assert_cmpfloat(stat_of(s, "src[1].sent"), ==, 0);
	ss_sim_free(s);
	ss_registry_free(r);
}

/* The command line's TRACE sets the parameters flagged SS_PF_INPUT,
 * relative to the working directory; a configuration without one says so. */
static void test_run_input(void)
{
	struct ss_registry *r = ss_registry_new();
	char *path = write_ini("input.ini", PLUGIN
		"[component play]\ntype = mem_script\nrequests = R0x0\n"
		"[component count]\ntype = mem_counter\n"
		"[link a]\nfrom = play.out\nto = count.in[0]\n");
	char *reqs = g_build_filename(tmpdir, "reqs.txt", NULL);
	GPtrArray *errors = NULL;
	GError *err = NULL;
	struct ss_sim *s;
	double v;

	g_assert_true(g_file_set_contents(reqs, "R0x40 W0x80\nR0xc0\n", -1, NULL));
	s = ss_sim_load(r, path, NULL, reqs, &errors);
	g_assert_nonnull(s);
	g_assert_true(ss_sim_build(s, &err) && ss_sim_run(s, &err));
	g_assert_true(ss_stats_lookup(ss_sim_engine(s), "count.reads", &v));
	g_assert_cmpfloat(v, ==, 2);
	g_assert_true(ss_stats_lookup(ss_sim_engine(s), "count.writes", &v));
	g_assert_cmpfloat(v, ==, 1);
	ss_sim_free(s);
	g_free(path);

	path = write_ini("noinput.ini", PLUGIN
		"[component src]\ntype = token_source\n"
		"[component sink]\ntype = token_sink\n"
		"[link a]\nfrom = src.out\nto = sink.in[0]\n");
	g_assert_null(ss_sim_load(r, path, NULL, "trace", &errors));
	g_assert_cmpuint(errors->len, ==, 1);
	g_assert_cmpstr(errors->pdata[0], ==, "command line TRACE trace: no component of this configuration reads an input; expected a component with an input parameter, such as trace_source's path");
	g_ptr_array_free(errors, TRUE);
	g_free(path);
	g_free(reqs);
	ss_registry_free(r);
}

static int echo_cmd(int argc, char **argv)
{
	return argc + (int)strlen(argv[0]);
}

/* Commands: registered once by name, refused with a bad name or twice. */
static void test_commands(void)
{
	static const struct ss_command echo = { "echo-2", "test", echo_cmd };
	static const struct ss_command bad = { "Echo", "test", echo_cmd };
	struct ss_registry *r = ss_registry_new();
	GError *err = NULL;
	char *argv[] = { "echo-2", "x", NULL };

	g_assert_true(ss_registry_add_command(r, &echo, &err));
	g_assert_true(ss_registry_command(r, "echo-2") == &echo);
	g_assert_cmpint(ss_registry_command(r, "echo-2")->fn(2, argv), ==, 8);
	g_assert_null(ss_registry_command(r, "echo"));
	g_assert_false(ss_registry_add_command(r, &echo, &err));
	g_assert_nonnull(strstr(err->message, "command 'echo-2' is registered twice"));
	g_clear_error(&err);
	g_assert_false(ss_registry_add_command(r, &bad, &err));
	g_assert_nonnull(strstr(err->message, "command 'Echo': expected a name of [a-z][a-z0-9-]*"));
	g_clear_error(&err);
	ss_registry_free(r);
}

static void test_phases(void)
{
	struct ss_registry *r = ss_registry_new();
	struct ss_sim *s = run_ini(r, "phases.ini", PLUGIN
		"[component src]\ntype = token_source\ntokens = 12\n"
		"[component sink]\ntype = token_sink\nphase_every = 5\nlabel = chunk\n"
		"[link feed]\nfrom = src.out\nto = sink.in[0]\n", NULL);
	struct ss_engine *e = ss_sim_engine(s);
	double v;

	g_assert_cmpuint(ss_stats_n_phases(e), ==, 2);
	g_assert_true(ss_stats_lookup_phase(e, 0, "sink.value_sum", &v));
	g_assert_cmpfloat(v, ==, 1 + 2 + 3 + 4 + 5);
	g_assert_true(ss_stats_lookup_phase(e, 1, "sink.value_sum", &v));
	g_assert_cmpfloat(v, ==, 6 + 7 + 8 + 9 + 10);
	g_assert_cmpfloat(stat_of(s, "sink.value_sum"), ==, 11 + 12);
	ss_sim_free(s);
	ss_registry_free(r);
}

static void test_create_refuses(void)
{
	struct ss_registry *r = ss_registry_new();
	char *path = write_ini("refuse.ini", PLUGIN
		"[component src]\ntype = token_source\n"
		"[component sink]\ntype = token_sink\nphase_every = 2\nlabel =\n"
		"[link feed]\nfrom = src.out\nto = sink.in[0]\n");
	GPtrArray *errors = NULL;
	GError *err = NULL;
	struct ss_sim *s = ss_sim_load(r, path, NULL, NULL, &errors);

	g_assert_nonnull(s);
	g_assert_false(ss_sim_build(s, &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_CONFIG);
	g_assert_nonnull(strstr(err->message, "refuse.ini:5: sink (type token_sink): create: label must not be empty"));
	g_error_free(err);
	ss_sim_free(s);
	g_free(path);
	ss_registry_free(r);
}

/* ---- how load errors are said ---------------------------------------------- */

/* The errors of loading `text` (NULL-terminated lines, in `out`). */
static GPtrArray *load_errors(const char *name, const char *text, gssize len)
{
	struct ss_registry *r = ss_registry_new();
	char *path = g_build_filename(tmpdir, name, NULL);
	GPtrArray *errors = NULL;

	g_assert_true(g_file_set_contents(path, text, len, NULL));
	g_assert_null(ss_sim_load(r, path, NULL, NULL, &errors));
	g_assert_nonnull(errors);
	for (guint i = 0; i < errors->len; i++) {
		g_test_message("%s", (char *)errors->pdata[i]);
		g_assert_null(strchr(errors->pdata[i], '\n'));
	}
	g_free(path);
	ss_registry_free(r);
	return errors;
}

/* A file with a NUL byte is not an INI file: one error, where it is. */
static void test_not_text(void)
{
	GPtrArray *e = load_errors("nul.ini", "\0[simulation]\n", 15);

	g_assert_cmpuint(e->len, ==, 1);
	g_assert_true(g_str_has_suffix(e->pdata[0], "nul.ini:1: byte 0 (at byte 0): not a text file; expected an INI configuration"));
	g_ptr_array_free(e, TRUE);
	e = load_errors("nul2.ini", "[simulation]\n\n# \0\n", 17);
	g_assert_cmpuint(e->len, ==, 1);
	g_assert_true(g_str_has_suffix(e->pdata[0], "nul2.ini:3: byte 0 (at byte 16): not a text file; expected an INI configuration"));
	g_ptr_array_free(e, TRUE);
}

/* A control character the file holds is shown escaped. */
static void test_error_escapes(void)
{
	GPtrArray *e = load_errors("ctl.ini", "[component a\001b]\ntype = x\n", -1);

	g_assert_cmpuint(e->len, >=, 1);
	g_assert_true(g_str_has_suffix(e->pdata[0], "ctl.ini:1: section name 'a\\x01b' is not valid; expected lower-case letters, digits and '_', starting with a letter"));
	g_ptr_array_free(e, TRUE);
}

/* Thousands of errors (a trace given as the configuration): the first
 * 20, then how many more. */
static void test_error_cap(void)
{
	GString *text = g_string_new(NULL);
	GPtrArray *e;

	for (int i = 0; i < 1000; i++)
		g_string_append_printf(text, "\"field_%d\" : %d,\n", i, i);
	e = load_errors("many.ini", text->str, -1);
	g_assert_cmpuint(e->len, ==, 21);
	g_assert_true(g_str_has_suffix(e->pdata[19], "many.ini:20: '\"field_19\" : 19,' is neither a section header nor a key; expected key = value"));
	g_assert_cmpstr(e->pdata[20], ==, "... and 980 more errors");
	g_ptr_array_free(e, TRUE);
	g_string_free(text, TRUE);
}

/* The same error of every element of an array is said once. */
static void test_error_ranges(void)
{
	GPtrArray *e = load_errors("unlinked.ini", PLUGIN
		"[component src]\ntype = token_source\ncount = 80\n"
		"[component sink]\ntype = token_sink\n", -1);

	g_assert_cmpuint(e->len, <=, 3);
	g_assert_nonnull(strstr(e->pdata[0], "src[0..79].out"));
	g_ptr_array_free(e, TRUE);
}

/* ---- what the wiring refuses, one case per binding reason ----------------- */

struct bad_case {
	const char *what;	/* the reason, for the test name */
	const char *body;	/* after PLUGIN and two components */
	int line;
	const char *message;
};

#define COMPONENTS PLUGIN "[component src]\ntype = token_source\ncount = 2\n" \
	"[component sink]\ntype = token_sink\n"	/* lines 1-7 */

static const struct bad_case bad_cases[] = {
	{ "no-component", "[link a]\nfrom = scr[*].out\nto = sink.in[*]\n", 9,
	  "no component 'scr'; did you mean 'src'?" },
	{ "no-component-index", "[link a]\nfrom = src[0..2].out\nto = sink.in[*]\n", 9,
	  "instance index 2 out of range; 'src' has 2 instances (0..1)" },
	{ "no-port", "[link a]\nfrom = src[*].otu\nto = sink.in[*]\n", 9,
	  "component 'src' (type token_source) has no port 'otu'; ports: out (out, test.token), ctl (out, test.ctl); did you mean 'out'?" },
	{ "wrong-dir", "[link a]\nfrom = sink.in[0..1]\nto = src[*].out\n", 9,
	  "port 'in' of 'sink' is an in port; expected links from an out port to an in port (swap from and to)" },
	{ "protocol", "[link a]\nfrom = src[*].ctl\nto = sink.in[*]\n", 10,
	  "protocol mismatch: src.ctl speaks test.ctl, sink.in speaks test.token" },
	{ "was-linked", "[link a]\nfrom = src[*].out\nto = sink.in[*]\n[link b]\nfrom = src[1].out\nto = sink.in[5]\n", 12,
	  "src[1].out is already linked at" },
	{ "index", "in_count = 2\n[link a]\nfrom = src[*].out\nto = sink.in[1..2]\n", 11,
	  "index 2 out of range; in_count = 2 in [component sink]" },
	{ "cardinality", "[link a]\nfrom = src[*].out\nto = sink.in[0..2]\n", 9,
	  "from = src[*].out expands to 2 endpoints but to = sink.in[0..2] expands to 3" },
	{ "unbound", "", 3,
	  "src[0..1].out (out, test.token) is required but not linked" },
	{ "unbound-element", "[link a]\nfrom = src[*].out\nto = sink.in[1..2]\n", 6,
	  "sink.in[0] is not linked, but the vector port has 3 elements" },
	{ "index-not-array", "[link a]\nfrom = src[*].out\nto = sink[0].in[*]\n", 10,
	  "[link a] to = sink[0].in[*]: 'sink' is not an array (no count =); expected sink.PORT" },
	{ "vector-bare-is-one", "[link a]\nfrom = src[*].out\nto = sink.in\n", 9,
	  "from = src[*].out expands to 2 endpoints but to = sink.in expands to 1" },
	{ "cardinality-spread", "[component many]\ntype = token_sink\ncount = 2\n"
	  "[link a]\nfrom = src[0].out\nto = many[*].in[*]\n", 13,
	  "[link a] to: cannot spread 1 endpoints over 2 instances; expected a multiple of 2" },
	{ "bad-endpoint", "[link a]\nfrom = src[*]out\nto = sink.in[*]\n", 9,
	  "[link a] from = src[*]out: bad endpoint; expected COMPONENT[SEL].PORT[SEL] with SEL one of N, A..B, *" },
};

static void test_bad_wiring(gconstpointer data)
{
	const struct bad_case *c = data;
	struct ss_registry *r = ss_registry_new();
	char *name = g_strdup_printf("bad-%s.ini", c->what);
	char *text = g_strconcat(COMPONENTS, c->body, NULL);
	char *path = write_ini(name, text);
	GPtrArray *errors = NULL;
	char *where = g_strdup_printf("%s:%d: ", path, c->line);
	bool found = false;

	g_assert_null(ss_sim_load(r, path, NULL, NULL, &errors));
	for (guint i = 0; i < errors->len; i++) {
		const char *e = errors->pdata[i];

		if (g_str_has_prefix(e, where) && strstr(e, c->message))
			found = true;
	}
	if (!found) {
		for (guint i = 0; i < errors->len; i++)
			g_printerr("got: %s\n", (char *)errors->pdata[i]);
		g_error("expected '%s...%s'", where, c->message);
	}
	g_ptr_array_free(errors, TRUE);
	g_free(where);
	g_free(path);
	g_free(text);
	g_free(name);
	ss_registry_free(r);
}

/* ---- plugins ---------------------------------------------------------------- */

static void test_plugin_abi(void)
{
	struct ss_registry *r = ss_registry_new();
	char **search = ss_plugin_search_path(NULL);
	GError *err = NULL;

	g_assert_false(ss_registry_load_plugin(r, "old_abi_plugin",
					       (const char *const *)search, &err));
	g_assert_error(err, SS_ERROR, SS_ERROR_PLUGIN);
	char *want = g_strdup_printf("^plugin .*old_abi_plugin.so was built for ABI %u, this sectorsim has ABI %u",
				     SS_ABI_VERSION - 1, SS_ABI_VERSION);
	g_assert_true(g_regex_match_simple(want, err->message, 0, 0));
	g_free(want);
	g_assert_null(ss_registry_lookup(r, "old_component"));
	g_clear_error(&err);
	/* the same file twice is one load, and its types stay registered once */
	g_assert_true(ss_registry_load_plugin(r, "token_plugin", (const char *const *)search, &err));
	g_assert_true(ss_registry_load_plugin(r, "token_plugin", (const char *const *)search, &err));
	g_assert_nonnull(ss_registry_lookup(r, "token_sink"));
	g_strfreev(search);
	ss_registry_free(r);
}

static void test_plugin_not_from_cwd(void)
{
	struct ss_registry *r = ss_registry_new();
	const char *dirs[] = { NULL };
	char *here = g_get_current_dir();
	const char *plugdir = g_getenv("SECTORSIM_PLUGIN_PATH");
	GError *err = NULL;

	/* standing in the folder that has the plugin, with no search path */
	g_assert_cmpint(g_chdir(plugdir), ==, 0);
	g_assert_true(g_file_test("token_plugin.so", G_FILE_TEST_EXISTS));
	g_assert_false(ss_registry_load_plugin(r, "token_plugin", dirs, &err));
	g_assert_nonnull(strstr(err->message, "plugin 'token_plugin' not found"));
	g_clear_error(&err);
	g_assert_cmpint(g_chdir(here), ==, 0);
	g_free(here);
	ss_registry_free(r);
}

static void test_registry_refuses_bad_tables(void)
{
	static const struct ss_param_desc bad_default[] = {
		{ "size", SS_P_SIZE, "32KB", "", NULL, 0, 0, 0 },
		{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
	};
	static const struct ss_component_ops ops = { 0 };
	struct ss_component_type t = {
		SS_ABI_VERSION, "bad", "x", bad_default, NULL, NULL, &ops,
		sizeof(struct ss_component), 0,
	};
	struct ss_registry *r = ss_registry_new();
	GError *err = NULL;

	g_assert_false(ss_registry_add(r, &t, &err));
	g_assert_nonnull(strstr(err->message, "default of 'size' is '32KB'"));
	g_clear_error(&err);
	t.params = NULL;
	t.name = "Bad";
	g_assert_false(ss_registry_add(r, &t, &err));
	g_clear_error(&err);
	t.name = "good";
	g_assert_true(ss_registry_add(r, &t, &err));
	g_assert_false(ss_registry_add(r, &t, &err));
	g_assert_nonnull(strstr(err->message, "already registered by built-in"));
	g_clear_error(&err);
	ss_registry_free(r);
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	if (!g_getenv("SECTORSIM_PLUGIN_PATH")) {
		char *d = g_build_filename(g_test_get_dir(G_TEST_BUILT), ".libs", NULL);

		g_setenv("SECTORSIM_PLUGIN_PATH", d, TRUE);
		g_free(d);
	}
	tmpdir = g_dir_make_tmp("sectorsim-test-XXXXXX", NULL);
	g_test_add_func("/config/fan-in", test_fan_in);
	g_test_add_func("/config/vector-bare", test_vector_bare);
	g_test_add_func("/config/ranges-pairing", test_ranges_pairing);
	g_test_add_func("/config/array-to-array", test_array_to_array);
	g_test_add_func("/config/precedence", test_precedence);
	g_test_add_func("/config/include-later-wins", test_include_later_wins);
	g_test_add_func("/config/latency-and-replies", test_latency_and_replies);
	g_test_add_func("/config/relay-chain", test_relay_chain);
	g_test_add_func("/config/phases", test_phases);
	g_test_add_func("/config/run-input", test_run_input);
	g_test_add_func("/config/commands", test_commands);
	g_test_add_func("/config/create-refuses", test_create_refuses);
	g_test_add_func("/config/errors/not-text", test_not_text);
	g_test_add_func("/config/errors/escaped", test_error_escapes);
	g_test_add_func("/config/errors/at-most-20", test_error_cap);
	g_test_add_func("/config/errors/array-ranges", test_error_ranges);
	for (size_t i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		char *name = g_strdup_printf("/config/bad-wiring/%s", bad_cases[i].what);

		g_test_add_data_func(name, &bad_cases[i], test_bad_wiring);
		g_free(name);
	}
	g_test_add_func("/config/plugin-abi", test_plugin_abi);
	g_test_add_func("/config/plugin-not-from-cwd", test_plugin_not_from_cwd);
	g_test_add_func("/config/registry-refuses-bad-tables", test_registry_refuses_bad_tables);
	status = g_test_run();
	/* remove what the tests wrote */
	GDir *d = g_dir_open(tmpdir, 0, NULL);
	const char *f;

	while (d && (f = g_dir_read_name(d))) {
		char *p = g_build_filename(tmpdir, f, NULL);

		g_unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return status;
}
