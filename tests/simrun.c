/* SPDX-License-Identifier: BSD-3-Clause */
/* Running a configuration written in a test (simrun.h). */
#include "config.h"

#include <glib/gstdio.h>
#include "simrun.h"

struct sim_run sim_run(const char *dir, const char *ini,
		       const struct ss_component_type *const *extra,
		       const char *const *overrides, bool run)
{
	return sim_run_with(dir, ini, extra, overrides, NULL, run);
}

struct sim_run sim_run_with(const char *dir, const char *ini,
			    const struct ss_component_type *const *extra,
			    const char *const *overrides,
			    const struct ss_run_options *opts, bool run)
{
	struct sim_run r = { ss_registry_new(), NULL, NULL, NULL };
	char *path = g_build_filename(dir, "t.ini", NULL);
	GPtrArray *errors = NULL;
	GError *err = NULL;

	g_assert_true(ss_components_register(r.reg, &err));
	for (; extra && *extra; extra++)
		g_assert_true(ss_registry_add(r.reg, *extra, &err));
	g_assert_true(g_file_set_contents(path, ini, -1, NULL));
	r.sim = ss_sim_load(r.reg, path, overrides, NULL, &errors);
	if (!r.sim) {
		r.load_error = g_strdup(errors->pdata[0]);
		g_ptr_array_unref(errors);
	} else {
		if (opts)
			ss_sim_set_run_options(r.sim, opts);
		if (ss_sim_build(r.sim, &r.err) && run)
			ss_sim_run(r.sim, &r.err);
	}
	g_unlink(path);
	g_free(path);
	return r;
}

const char *sim_run_error(const struct sim_run *r)
{
	return r->load_error ? r->load_error : r->err ? r->err->message : NULL;
}

void sim_run_free(struct sim_run *r)
{
	ss_sim_free(r->sim);
	ss_registry_free(r->reg);
	g_free(r->load_error);
	g_clear_error(&r->err);
}
