/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * configs/validation/fermi-nugteren.ini and fermi48-nugteren.ini against
 * the numbers of Nugteren et al.'s own cache model (tests/data/nugteren,
 * expected-*.json, written by build-aux/nugteren-expected from the
 * model's output): every kernel of every benchmark there, under default16,
 * default48 and default16 with 8 MSHRs.  Every number the model prints is
 * compared -- accesses, hits, the five-way miss split, the miss rate as it
 * prints it, the other three cases' misses, the blocks it runs at a time
 * -- and the reuse-distance histogram of each of its four cases, from
 * --rd-profile.  The data are in the tree: nothing here needs ../shared
 * or the model.
 *
 * With ../shared (SECTORSIM_SHARED), the same for its golden/nugteren:
 * traces its gen_trace.py writes (python3), the model's numbers for them
 * under default16, default48, a small cache (4 KiB, 2 ways of 16 sets,
 * 8 MSHRs, latency 40) and default16 with its latency deviation of 5 and
 * the generator seeded with 1, in that set's own keys.
 *
 * Each case runs the sectorsim program as a user would.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "json.h"

static char *tmpdir;

struct setting {
	const char *name;	/* of the test */
	const char *expected;	/* under tests/data/nugteren, or golden/nugteren */
	const char *config;	/* under configs/validation */
	const char *const *overrides;	/* -p KEY=VALUE, NULL-terminated */
	bool shared;		/* ../shared's golden/nugteren, in its keys */
};

static const char *const mshr8[] = {
	"l1.mshr_lines=8", "l1_full.mshr_lines=8", "l1_nolat.mshr_lines=8", NULL,
};

/* 4 KiB, 2 ways of 16 sets, 8 MSHRs, latency 40 */
static const char *const small[] = {
	"l1.size=4KiB", "l1_full.size=4KiB", "l1_nolat.size=4KiB", "l1_nomshr.size=4KiB",
	"l1.assoc=2", "l1_full.assoc=32", "l1_nolat.assoc=2", "l1_nomshr.assoc=2",
	"l1.mshr_lines=8", "l1_full.mshr_lines=8", "l1_nolat.mshr_lines=8",
	"l1.miss_latency=40", "l1_full.miss_latency=40", "l1_nomshr.miss_latency=40",
	"sched.fixed_l1_bytes=4KiB", "sched_full.fixed_l1_bytes=4KiB",
	"sched_nolat.fixed_l1_bytes=4KiB", "sched_nomshr.fixed_l1_bytes=4KiB", NULL,
};

/* default16 with its deviation 5, the generator seeded with 1 */
static const char *const sigma5[] = {
	"l1.miss_latency_sigma=5", "l1_full.miss_latency_sigma=5", "l1_nomshr.miss_latency_sigma=5",
	"l1.seed=1", "l1_full.seed=1", "l1_nomshr.seed=1", NULL,
};

static const struct setting settings[] = {
	{ "fermi16", "expected-fermi16.json", "fermi-nugteren.ini", NULL, false },
	{ "fermi48", "expected-fermi48.json", "fermi48-nugteren.ini", NULL, false },
	{ "fermi16-mshr8", "expected-fermi16-mshr8.json", "fermi-nugteren.ini", mshr8, false },
	{ "shared-fermi16", "fermi16_s0.json", "fermi-nugteren.ini", NULL, true },
	{ "shared-fermi48", "fermi48_s0.json", "fermi48-nugteren.ini", NULL, true },
	{ "shared-small", "small_s0.json", "fermi-nugteren.ini", small, true },
	{ "shared-fermi16-sigma5", "fermi16_s5_seed1.json", "fermi-nugteren.ini", sigma5, true },
};

static char *shared_dir;	/* ../shared/golden/nugteren, or NULL */
static char *shared_traces;	/* where its gen_trace.py wrote, or NULL */

/* The four cases' caches, in the order of the model's histograms. */
static const char *const case_caches[] = { "l1", "l1_full", "l1_nolat", "l1_nomshr" };

/* The model's never-used distance, as our data and ../shared key it. */
#define NUG_INFINITE "99999999"
#define NUG_INFINITE_SHARED "inf"

struct run_case {
	const struct setting *s;
	char *bench;
	const struct json *kernels;	/* the model's, in order */
};

static GPtrArray *cases;
static struct json *expected[G_N_ELEMENTS(settings)];

static void free_case(gpointer p)
{
	struct run_case *c = p;

	g_free(c->bench);
	g_free(c);
}

static char *data_path(const char *name)
{
	return g_build_filename(g_getenv("G_TEST_SRCDIR"), "data", "nugteren", name, NULL);
}

/* Run sectorsim; its --json output parsed and its --rd-profile text. */
static struct json *run_sectorsim(const struct run_case *c, char **profile)
{
	const char *bin = g_getenv("SECTORSIM");
	char *cfg = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "configs",
				     "validation", c->s->config, NULL);
	char *trace = c->s->shared ? g_build_filename(shared_traces, c->bench, NULL)
				   : data_path(c->bench);
	char *out = g_build_filename(tmpdir, "nug.json", NULL);
	char *prof = g_build_filename(tmpdir, "nug.csv", NULL);
	GPtrArray *argv = g_ptr_array_new();
	char *so = NULL, *se = NULL, *why = NULL;
	int status = 0;
	GError *err = NULL;
	struct json *v = NULL;

	g_ptr_array_add(argv, (char *)bin);
	g_ptr_array_add(argv, "--quiet");
	g_ptr_array_add(argv, "--json");
	g_ptr_array_add(argv, out);
	g_ptr_array_add(argv, "--rd-profile");
	g_ptr_array_add(argv, prof);
	for (size_t i = 0; c->s->overrides && c->s->overrides[i]; i++) {
		g_ptr_array_add(argv, "-p");
		g_ptr_array_add(argv, (char *)c->s->overrides[i]);
	}
	g_ptr_array_add(argv, cfg);
	g_ptr_array_add(argv, trace);
	g_ptr_array_add(argv, NULL);
	*profile = NULL;
	if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL,
			  NULL, &so, &se, &status, &err)) {
		g_test_message("cannot run %s: %s", bin, err->message);
		g_error_free(err);
	} else if (!g_spawn_check_wait_status(status, &err)) {
		g_test_message("%s %s %s: %s\n%s", bin, c->s->config, trace, err->message, se);
		g_error_free(err);
	} else if (!(v = json_parse_file(out, &why))) {
		g_test_message("%s: %s", out, why);
		g_free(why);
	} else if (!g_file_get_contents(prof, profile, NULL, &err)) {
		g_test_message("%s: %s", prof, err->message);
		g_error_free(err);
	}
	g_unlink(out);
	g_unlink(prof);
	g_ptr_array_free(argv, TRUE);
	g_free(so);
	g_free(se);
	g_free(cfg);
	g_free(trace);
	g_free(out);
	g_free(prof);
	return v;
}

static double num(const struct json *o, const char *key)
{
	const struct json *v = json_get(o, key);

	return v && v->type == JSON_NUMBER ? v->num : -1;
}

/* One number: the model's (want) and ours. */
static unsigned check(const char *where, const char *what, double want, double got)
{
	if (want == got)
		return 0;
	g_test_message("%s %s: the model has %.17g, sectorsim %.17g", where, what, want, got);
	return 1;
}

/*
 * The profile's rows of cache `cache`, kernel `id` against the model's
 * histogram: distances as they are, the never-used accesses in the row
 * the profile puts after the largest distance.
 */
static unsigned check_histogram(const char *where, const char *profile,
				const char *cache, unsigned id,
				const struct json *want, const char *inf)
{
	char **lines = g_strsplit(profile, "\n", -1);
	GHashTable *got = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	char *last = NULL;
	unsigned bad = 0;

	for (char **l = lines + 1; *l && **l; l++) {
		char **f = g_strsplit(*l, ",", -1);

		if (g_strv_length(f) == 5 && !strcmp(f[0], cache) &&
		    strtoul(f[1], NULL, 10) == id) {
			g_free(last);
			last = g_strdup(f[2]);
			g_hash_table_insert(got, g_strdup(f[2]),
					    GSIZE_TO_POINTER(strtoull(f[3], NULL, 10)));
		}
		g_strfreev(f);
	}
	/* the last row is the cold one: every kernel starts empty */
	if (last) {
		gpointer cold = g_hash_table_lookup(got, last);

		g_hash_table_remove(got, last);
		g_hash_table_insert(got, g_strdup(inf), cold);
	}
	for (guint i = 0; i < want->keys->len; i++) {
		const char *d = want->keys->pdata[i];
		const struct json *n = want->items->pdata[i];
		char *what = g_strdup_printf("%s distance %s", cache, d);

		bad += check(where, what, n->num,
			     (double)GPOINTER_TO_SIZE(g_hash_table_lookup(got, d)));
		g_hash_table_remove(got, d);
		g_free(what);
	}
	if (g_hash_table_size(got)) {
		g_test_message("%s %s: %u distances the model does not have", where,
			       cache, g_hash_table_size(got));
		bad++;
	}
	g_hash_table_destroy(got);
	g_strfreev(lines);
	g_free(last);
	return bad;
}

/* A number of ../shared's kernel entry: KEY, or OBJ's KEY. */
static double snum(const struct json *k, const char *obj, const char *key)
{
	return num(obj ? json_get(k, obj) : k, key);
}

static void test_bench(gconstpointer data)
{
	const struct run_case *c = data;
	static const char *const pairs[][2] = {	/* ours, the model's */
		{ "accesses", "accesses" },
		{ "hits", "hits" },
		{ "misses_compulsory", "misses_compulsory" },
		{ "misses_capacity", "misses_capacity" },
		{ "misses_associativity", "misses_associativity" },
		{ "misses_latency", "misses_latency" },
		{ "misses_mshr", "misses_mshr" },
		{ "misses_full_assoc", "misses_case_full_assoc" },
		{ "misses_no_latency", "misses_case_no_latency" },
		{ "misses_no_mshr_limit", "misses_case_no_mshr_limit" },
	};
	/* ../shared's keys for the same numbers */
	static const char *const spairs[][3] = {	/* ours, object, key */
		{ "accesses", NULL, "total_accesses" },
		{ "hits", NULL, "hits" },
		{ "misses", "misses_breakdown", "total" },
		{ "misses_compulsory", "misses_breakdown", "compulsory" },
		{ "misses_capacity", "misses_breakdown", "capacity" },
		{ "misses_associativity", "misses_breakdown", "associativity" },
		{ "misses_latency", "misses_breakdown", "latency" },
		{ "misses_mshr", "misses_breakdown", "mshr" },
		{ "misses_full_assoc", "out_file", "misses(tot_associativity)" },
		{ "misses_no_latency", "out_file", "misses(tot_latency)" },
		{ "misses_no_mshr_limit", "out_file", "misses(tot_mshr)" },
	};
	char *profile = NULL;
	struct json *got;

	if (c->s->shared && !shared_traces) {
		g_test_skip(shared_dir ? "python3 could not write ../shared's traces (gen_trace.py)"
				       : "../shared/golden/nugteren is not there (set SECTORSIM_SHARED)");
		return;
	}
	got = run_sectorsim(c, &profile);
	const struct json *gk;
	unsigned bad = 0, n = 0;

	g_assert_nonnull(got);
	g_assert_nonnull(profile);
	gk = json_get(got, "kernels");
	g_assert_nonnull(gk);
	g_assert_cmpuint(gk->items->len, ==, c->kernels->items->len);
	for (guint i = 0; i < gk->items->len; i++) {
		const struct json *ours = gk->items->pdata[i];
		const struct json *model = c->kernels->items->pdata[i];
		const struct json *m = json_get(ours, "metrics");
		const struct json *hist = json_get(model, "histograms");
		const char *name = json_get(model, "kernel")->str;
		unsigned id = (unsigned)num(ours, "kernel_id");
		char rate[32];

		g_assert_nonnull(m);
		g_assert_cmpstr(json_get(ours, "kernel_name")->str, ==, name);
		if (c->s->shared) {
			for (size_t k = 0; k < G_N_ELEMENTS(spairs); k++, n++)
				bad += check(name, spairs[k][0],
					     snum(model, spairs[k][1], spairs[k][2]),
					     num(m, spairs[k][0]));
		} else {
			for (size_t k = 0; k < G_N_ELEMENTS(pairs); k++, n++)
				bad += check(name, pairs[k][0], num(model, pairs[k][1]),
					     num(m, pairs[k][0]));
			bad += check(name, "misses", num(model, "accesses") - num(model, "hits"),
				     num(m, "misses"));
		}
		bad += check(name, "blocks at a time", num(model, "active_blocks"),
			     num(json_get(ours, "occupancy"), "max_active_block_per_sm"));
		/* the model prints it as C++ streams print a float: %g */
		g_snprintf(rate, sizeof(rate), "%g", num(m, "miss_rate_pct"));
		if (strcmp(rate, json_get(model, "miss_rate_printed")->str)) {
			g_test_message("%s miss rate: the model prints %s, sectorsim %s", name,
				       json_get(model, "miss_rate_printed")->str, rate);
			bad++;
		}
		g_assert_cmpuint(hist->items->len, ==, G_N_ELEMENTS(case_caches));
		for (size_t k = 0; k < G_N_ELEMENTS(case_caches); k++)
			bad += check_histogram(name, profile, case_caches[k], id,
					       hist->items->pdata[k],
					       c->s->shared ? NUG_INFINITE_SHARED : NUG_INFINITE);
		n += 3;
	}
	g_test_message("%u kernels, %u mismatches", gk->items->len, bad);
	g_assert_cmpuint(bad, ==, 0);
	g_assert_cmpuint(n, >, 0);
	json_free(got);
	g_free(profile);
}

int main(int argc, char **argv)
{
	const char *env = g_getenv("SECTORSIM_SHARED");

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("sectorsim-nugteren-XXXXXX", NULL);
	cases = g_ptr_array_new_with_free_func(free_case);
	shared_dir = env ? g_build_filename(env, "golden", "nugteren", NULL)
			 : g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "..", "shared",
					    "golden", "nugteren", NULL);
	if (!g_file_test(shared_dir, G_FILE_TEST_IS_DIR)) {
		g_clear_pointer(&shared_dir, g_free);
	} else {
		char *gen = g_build_filename(shared_dir, "gen_trace.py", NULL);
		char *out = g_build_filename(tmpdir, "shared", NULL);
		const char *argv2[] = { "python3", gen, out, NULL };
		int st = 0;

		if (g_spawn_sync(NULL, (char **)argv2, NULL, G_SPAWN_SEARCH_PATH |
				 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
				 NULL, NULL, NULL, NULL, &st, NULL) &&
		    g_spawn_check_wait_status(st, NULL))
			shared_traces = out;
		else
			g_free(out);
		g_free(gen);
	}
	for (size_t s = 0; s < G_N_ELEMENTS(settings); s++) {
		char *path, *why = NULL;
		const struct json *benches;

		if (settings[s].shared && !shared_dir) {
			/* one case that says why */
			struct run_case *c = g_new0(struct run_case, 1);
			char *name = g_strdup_printf("/nugteren/%s", settings[s].name);

			c->s = &settings[s];
			g_ptr_array_add(cases, c);
			g_test_add_data_func(name, c, test_bench);
			g_free(name);
			continue;
		}
		path = settings[s].shared ? g_build_filename(shared_dir, settings[s].expected, NULL)
					  : data_path(settings[s].expected);
		expected[s] = json_parse_file(path, &why);
		if (!expected[s])
			g_error("%s: %s", path, why);
		g_free(path);
		benches = json_get(expected[s], "benches");
		for (guint b = 0; b < benches->keys->len; b++) {
			struct run_case *c = g_new0(struct run_case, 1);
			char *name;

			c->s = &settings[s];
			c->bench = g_strdup(benches->keys->pdata[b]);
			c->kernels = benches->items->pdata[b];
			g_ptr_array_add(cases, c);
			name = g_strdup_printf("/nugteren/%s/%s", settings[s].name, c->bench);
			g_test_add_data_func(name, c, test_bench);
			g_free(name);
		}
	}
	int status = g_test_run();

	if (shared_traces) {
		/* gen_trace.py's folders of .trc files */
		GDir *d = g_dir_open(shared_traces, 0, NULL);
		const char *b;

		while (d && (b = g_dir_read_name(d))) {
			char *sub = g_build_filename(shared_traces, b, NULL);
			GDir *e = g_dir_open(sub, 0, NULL);
			const char *f;

			while (e && (f = g_dir_read_name(e))) {
				char *file = g_build_filename(sub, f, NULL);

				g_unlink(file);
				g_free(file);
			}
			if (e)
				g_dir_close(e);
			g_rmdir(sub);
			g_free(sub);
		}
		if (d)
			g_dir_close(d);
		g_rmdir(shared_traces);
	}
	g_rmdir(tmpdir);
	g_free(tmpdir);
	g_free(shared_dir);
	g_free(shared_traces);
	g_ptr_array_free(cases, TRUE);
	for (size_t s = 0; s < G_N_ELEMENTS(settings); s++)
		if (expected[s])
			json_free(expected[s]);
	return status;
}
