/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The INI loader and the planner: the input is a configuration, loaded
 * with the stock component types registered, printed back (--dump-config,
 * --dot) and built (create, bind, init; never run, so no trace is read and
 * no result written).  Inputs that name plugins (they would dlopen files of
 * the machine) or /dev, /proc, /sys (an include of /dev/stdin would block)
 * are skipped.  The run may plan for 1 GiB ([simulation] memory, as -p
 * sets it): caches beyond that are refused when built, where the
 * machine's memory would let a table of many GiB be allocated, more than
 * the fuzzer allows a process (its -malloc_limit_mb).
 */
#include "config.h"

#include "fuzz_common.h"
#include "sim.h"
#include "builtin.h"

static const char *const memory_override[] = { "simulation.memory=1GiB", NULL };
static FILE *devnull;
static struct ss_registry *reg;
static size_t n_types;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	GError *err = NULL;

	(void)argc, (void)argv;
	/* not on tmpfs: an include may name "../../stdin" */
	fuzz_setup_in(false);
	/* no plugin folder: the plugins' search path holds nothing */
	setenv("SECTORSIM_PLUGIN_PATH", fuzz_dir, 1);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	/*
	 * The stock types, once: loading and building read the registry and
	 * change it only by loading a plugin, which no input here can ask for
	 * (checked after each input all the same).
	 */
	reg = ss_registry_new();
	if (!ss_components_register(reg, &err))
		abort();
	g_free(ss_registry_names(reg, &n_types));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_sim *sim;
	GPtrArray *errors = NULL;
	GError *err = NULL;
	char *path;
	size_t n;

	if (fuzz_mentions(data, size, "plugin") || fuzz_mentions(data, size, "/dev") ||
	    fuzz_mentions(data, size, "/proc") || fuzz_mentions(data, size, "/sys"))
		return -1;
	fuzz_write("t.ini", data, size);
	path = g_build_filename(fuzz_dir, "t.ini", NULL);
	sim = ss_sim_load(reg, path, memory_override, NULL, &errors);
	if (sim) {
		ss_sim_dump_config(sim, devnull);
		ss_sim_dot(sim, devnull, false);
		ss_sim_dot(sim, devnull, true);
		if (!ss_sim_build(sim, &err))
			g_clear_error(&err);
		ss_sim_free(sim);
	} else {
		g_ptr_array_unref(errors);
	}
	g_free(ss_registry_names(reg, &n));
	if (n != n_types)
		abort();	/* the registry was changed: it cannot be shared */
	g_free(path);
	return 0;
}
