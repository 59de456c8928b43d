/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The component tests' way to run a configuration written in the test:
 * the text goes to a file in the test's temporary folder and is loaded
 * with the built-in types and the test's own, then built and run.
 */
#ifndef SS_TEST_SIMRUN_H
#define SS_TEST_SIMRUN_H

#include <stdbool.h>
#include <sectorsim/sectorsim.h>
#include "registry.h"
#include "sim.h"
#include "builtin.h"

struct sim_run {
	struct ss_registry *reg;
	struct ss_sim *sim;	/* NULL when the file did not load */
	char *load_error;	/* then its first message */
	GError *err;		/* of building or running */
};

/*
 * Load `ini` as DIR/t.ini with the built-in types, `extra` (NULL-terminated,
 * or NULL) and the -p overrides (likewise), build it, and run it when `run`.
 * Every failure is in the result; sim_run_free() releases it.
 */
struct sim_run sim_run(const char *dir, const char *ini,
		       const struct ss_component_type *const *extra,
		       const char *const *overrides, bool run);

/* sim_run() with the run's options (NULL: the engine's defaults). */
struct sim_run sim_run_with(const char *dir, const char *ini,
			    const struct ss_component_type *const *extra,
			    const char *const *overrides,
			    const struct ss_run_options *opts, bool run);

/* The first failure's message, or NULL when all went well. */
const char *sim_run_error(const struct sim_run *r);

void sim_run_free(struct sim_run *r);

#endif
