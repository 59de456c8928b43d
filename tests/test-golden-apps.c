/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The whole pipeline against the numbers of the paper's own implementation:
 * every app of ../shared/golden through configs/validation/titanv-ref.ini,
 * a100-ref.ini and titanv-sdcm-ref.ini (the SDCM baseline), compared with
 * expected/{titanv,a100}_simulator.json and titanv_sdcm.json
 * (every integer equal, every other value within 1e-9 relative, the
 * occupancy too), and the apps given in both formats compared with
 * themselves.  The bundled sample (traces/vectoradd-a100, with its expected
 * numbers in tests/data/golden) runs without ../shared.
 *
 * Each case runs the sectorsim program as a user would (--json FILE).
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <glib/gstdio.h>
#include "json.h"

static char *shared;		/* ../shared/golden, or NULL */
static char *tmpdir;

struct app {
	const char *trace;	/* under golden/ */
	const char *expected;	/* folder of the expected JSON files */
};

static const struct app apps[] = {
	{ "synth/app", "synth/expected" },
	{ "accelsim_features/accelsim", "accelsim_features/expected" },
	{ "accelsim_features/ppt", "accelsim_features/expected" },
	{ "real/atax-h100-v5", "real/atax-h100-v5/expected" },
	{ "real/atax-h100-v6", "real/atax-h100-v6/expected" },
	{ "real/backprop-h100-v5", "real/backprop-h100-v5/expected" },
	{ "real/bfs-a100-v3", "real/bfs-a100-v3/expected" },
	{ "real/btree-h100-v5", "real/btree-h100-v5/expected" },
	{ "real/matrixmul-pascal-v4", "real/matrixmul-pascal-v4/expected" },
	{ "real/vectoradd-a100-v5", "real/vectoradd-a100-v5/expected" },
	{ "real/vectoradd-pascal-v4", "real/vectoradd-pascal-v4/expected" },
};

struct gpu {
	const char *config;	/* under configs/validation */
	const char *expected;	/* file name */
};

static const struct gpu gpus[] = {
	{ "titanv-ref.ini", "titanv_simulator.json" },
	{ "a100-ref.ini", "a100_simulator.json" },
	{ "titanv-sdcm-ref.ini", "titanv_sdcm.json" },	/* the paper's baseline */
};

struct run_case {
	char *trace, *expected;		/* full paths */
	const struct gpu *gpu;
	char *other;			/* the same app in the other format */
};

static GPtrArray *cases;		/* every struct run_case, to free */

static struct run_case *new_case(void)
{
	struct run_case *c = g_new0(struct run_case, 1);

	g_ptr_array_add(cases, c);
	return c;
}

static void free_case(gpointer p)
{
	struct run_case *c = p;

	g_free(c->trace);
	g_free(c->expected);
	g_free(c->other);
	g_free(c);
}

/* Run sectorsim on trace with config; the parsed --json output, or NULL. */
static struct json *run_sectorsim(const char *config, const char *trace,
				const char *tag)
{
	const char *bin = g_getenv("SECTORSIM");
	char *cfg = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "configs",
				     "validation", config, NULL);
	char *out = g_build_filename(tmpdir, tag, NULL);
	const char *argv[] = { bin, "--quiet", "--json", out, cfg, trace, NULL };
	char *so = NULL, *se = NULL, *why = NULL;
	int status = 0;
	GError *err = NULL;
	struct json *v = NULL;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
			  &so, &se, &status, &err)) {
		g_test_message("cannot run %s: %s", bin, err->message);
		g_error_free(err);
	} else if (!g_spawn_check_wait_status(status, &err)) {
		g_test_message("%s %s %s: %s\n%s", bin, config, trace, err->message, se);
		g_error_free(err);
	} else if (!(v = json_parse_file(out, &why))) {
		g_test_message("%s: %s", out, why);
		g_free(why);
	}
	g_unlink(out);
	g_free(so);
	g_free(se);
	g_free(cfg);
	g_free(out);
	return v;
}

static const struct json *kernel_by_id(const struct json *doc, double id)
{
	const struct json *ks = json_get(doc, "kernels");

	for (guint i = 0; ks && i < ks->items->len; i++) {
		const struct json *k = ks->items->pdata[i];
		const struct json *kid = json_get(k, "kernel_id");

		if (kid && kid->num == id)
			return k;
	}
	return NULL;
}

/* An integral expected value must be met exactly; others within 1e-9. */
static bool close_enough(double want, double got)
{
	if (want == got)
		return true;
	if (floor(want) == want && fabs(want) < 9007199254740992.0)
		return false;
	return fabs(want - got) <= 1e-9 * fmax(fabs(want), fabs(got));
}

/* Compare every member of object `want` with `got`; count mismatches. */
static unsigned compare_object(const struct json *want, const struct json *got,
			       const char *where)
{
	unsigned bad = 0;

	for (guint i = 0; want && i < want->keys->len; i++) {
		const char *key = want->keys->pdata[i];
		const struct json *w = want->items->pdata[i];
		const struct json *g = json_get(got, key);

		if (w->type != JSON_NUMBER)
			continue;
		if (!g || g->type != JSON_NUMBER) {
			g_test_message("%s %s: missing", where, key);
			bad++;
		} else if (!close_enough(w->num, g->num)) {
			g_test_message("%s %s: expected %.17g, got %.17g", where,
				       key, w->num, g->num);
			bad++;
		}
	}
	return bad;
}

static void test_golden(gconstpointer data)
{
	const struct run_case *c = data;
	char *why = NULL;
	struct json *want, *got;
	unsigned bad = 0, n = 0;

	if (!shared && !g_str_has_prefix(c->trace, g_getenv("G_TEST_SRCDIR"))) {
		g_test_skip("../shared/golden is not there (set SECTORSIM_SHARED)");
		return;
	}
	want = json_parse_file(c->expected, &why);
	if (!want)
		g_error("%s: %s", c->expected, why);
	got = run_sectorsim(c->gpu->config, c->trace, "golden.json");
	g_assert_nonnull(got);

	const struct json *ks = json_get(want, "kernels");

	for (guint i = 0; i < ks->items->len; i++) {
		const struct json *wk = ks->items->pdata[i];
		double id = json_get(wk, "kernel_id")->num;
		const struct json *gk = kernel_by_id(got, id);
		char *where = g_strdup_printf("kernel %.0f", id);

		n++;
		if (!gk) {
			g_test_message("%s: not in sectorsim's output", where);
			bad++;
		} else {
			bad += compare_object(json_get(wk, "metrics"), json_get(gk, "metrics"), where);
			bad += compare_object(json_get(wk, "occupancy"), json_get(gk, "occupancy"), where);
		}
		g_free(where);
	}
	/* where the reference crashed, sectorsim still runs the kernel */
	const struct json *om = json_get(want, "omitted_kernels");

	for (guint i = 0; om && i < om->items->len; i++) {
		double id = json_get(om->items->pdata[i], "kernel_id")->num;

		if (!json_get(kernel_by_id(got, id), "metrics")) {
			g_test_message("omitted kernel %.0f: no metrics from sectorsim", id);
			bad++;
		}
	}
	g_test_message("%u kernels compared, %u mismatches", n, bad);
	g_assert_cmpuint(bad, ==, 0);
	json_free(want);
	json_free(got);
}

/* The same app in the paper tracer's format and Accel-Sim's: the same
 * numbers, every one of them. */
static void test_formats_agree(gconstpointer data)
{
	const struct run_case *c = data;
	struct json *a, *b;
	unsigned bad = 0;

	if (!shared) {
		g_test_skip("../shared/golden is not there (set SECTORSIM_SHARED)");
		return;
	}
	a = run_sectorsim(c->gpu->config, c->trace, "fmt-a.json");
	b = run_sectorsim(c->gpu->config, c->other, "fmt-b.json");
	g_assert_nonnull(a);
	g_assert_nonnull(b);

	const struct json *ka = json_get(a, "kernels"), *kb = json_get(b, "kernels");

	g_assert_cmpuint(ka->items->len, ==, kb->items->len);
	for (guint i = 0; i < ka->items->len; i++) {
		const struct json *x = ka->items->pdata[i], *y = kb->items->pdata[i];
		char *where = g_strdup_printf("kernel %.0f", json_get(x, "kernel_id")->num);
		const struct json *mx = json_get(x, "metrics"), *my = json_get(y, "metrics");

		g_assert_cmpfloat(json_get(x, "kernel_id")->num, ==, json_get(y, "kernel_id")->num);
		for (guint k = 0; mx && k < mx->keys->len; k++) {
			const struct json *vx = mx->items->pdata[k];
			const struct json *vy = json_get(my, mx->keys->pdata[k]);

			if (!vy || vx->num != vy->num) {
				g_test_message("%s %s: %.17g in one format, %.17g in the other",
					       where, (char *)mx->keys->pdata[k], vx->num,
					       vy ? vy->num : NAN);
				bad++;
			}
		}
		g_assert_true((mx == NULL) == (my == NULL));
		g_free(where);
	}
	g_assert_cmpuint(bad, ==, 0);
	json_free(a);
	json_free(b);
}

int main(int argc, char **argv)
{
	const char *env = g_getenv("SECTORSIM_SHARED");
	char *root;

	g_test_init(&argc, &argv, NULL);
	root = env ? g_build_filename(env, "golden", NULL)
		   : g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "..", "shared", "golden", NULL);
	if (g_file_test(root, G_FILE_TEST_IS_DIR))
		shared = root;
	else
		g_free(root);
	tmpdir = g_dir_make_tmp("sectorsim-golden-XXXXXX", NULL);
	cases = g_ptr_array_new_with_free_func(free_case);

	for (size_t g = 0; g < G_N_ELEMENTS(gpus); g++) {
		struct run_case *c = new_case();
		char *name = g_strdup_printf("/golden/bundled-vectoradd-a100/%s", gpus[g].config);

		c->trace = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "traces",
					    "vectoradd-a100", NULL);
		c->expected = g_build_filename(g_getenv("G_TEST_SRCDIR"), "data", "golden",
					       "vectoradd-a100", gpus[g].expected, NULL);
		c->gpu = &gpus[g];
		g_test_add_data_func(name, c, test_golden);
		g_free(name);
		for (size_t a = 0; a < G_N_ELEMENTS(apps); a++) {
			const char *base = shared ? shared : "/nonexistent";

			c = new_case();
			c->trace = g_build_filename(base, apps[a].trace, NULL);
			c->expected = g_build_filename(base, apps[a].expected, gpus[g].expected, NULL);
			c->gpu = &gpus[g];
			name = g_strdup_printf("/golden/%s/%s", apps[a].trace, gpus[g].config);
			g_test_add_data_func(name, c, test_golden);
			g_free(name);
		}
		static const char *const pairs[][2] = {
			{ "accelsim_features/accelsim", "accelsim_features/ppt" },
			{ "conversion_example/accelsim", "conversion_example/ppt" },
		};

		for (size_t p = 0; p < G_N_ELEMENTS(pairs); p++) {
			const char *base = shared ? shared : "/nonexistent";

			c = new_case();
			c->trace = g_build_filename(base, pairs[p][0], NULL);
			c->other = g_build_filename(base, pairs[p][1], NULL);
			c->gpu = &gpus[g];
			name = g_strdup_printf("/formats-agree/%s/%s", pairs[p][0], gpus[g].config);
			g_test_add_data_func(name, c, test_formats_agree);
			g_free(name);
		}
	}
	int status = g_test_run();

	g_rmdir(tmpdir);
	g_free(tmpdir);
	g_ptr_array_free(cases, TRUE);
	g_free(shared);
	return status;
}
