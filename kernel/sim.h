/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A simulation set up from an INI file: the whole configuration is checked
 * against the registered types before any component exists, and every
 * problem is reported at once with the file and line it comes from.
 */
#ifndef SS_KERNEL_SIM_H
#define SS_KERNEL_SIM_H

#include <stdio.h>
#include <sectorsim/sectorsim.h>
#include "registry.h"

struct ss_sim;

/* The configuration named "-" is standard input, read once per process;
 * messages call it this, and its paths are relative to the working
 * directory. */
#define SS_CONFIG_STDIN "-"
#define SS_CONFIG_STDIN_NAME "<stdin>"

/*
 * Load `ini` (with includes), apply `overrides` ("l1.assoc=8",
 * "l1[5].assoc=8", "simulation.max_ticks=10") and `input` (the command
 * line's TRACE, or NULL: it sets every parameter flagged SS_PF_INPUT),
 * load the plugins it names
 * into `r` and validate everything.  Returns NULL with *errors holding one
 * "file:line: ..." line per problem; the caller exits with status 2.
 */
struct ss_sim *ss_sim_load(struct ss_registry *r, const char *ini,
			   const char *const *overrides, const char *input,
			   GPtrArray **errors);
void ss_sim_free(struct ss_sim *s);

/* The configuration with includes, templates, defaults and -p applied. */
void ss_sim_dump_config(struct ss_sim *s, FILE *out);
/* The component graph for Graphviz: an array one node (full: every
 * instance and connection). */
void ss_sim_dot(struct ss_sim *s, FILE *out, bool full);
/*
 * The configuration's [sweep] section: its entries (struct ini_entry *,
 * key as -p names a parameter, value the values to sweep), for `sectorsim
 * sweep`; NULL when there is none.  A run ignores it.
 */
const GPtrArray *ss_sim_sweep_entries(struct ss_sim *s);

/*
 * The run's options, for the components to see from their creation on
 * (what they promise about their ports may depend on them); `o` is
 * copied by ss_sim_build, so it must live until then.
 */
void ss_sim_set_run_options(struct ss_sim *s, const struct ss_run_options *o);
/* Create, bind and initialise every component. */
gboolean ss_sim_build(struct ss_sim *s, GError **error);
/* Start, run to the end or to max_ticks, finish. */
gboolean ss_sim_run(struct ss_sim *s, GError **error);
struct ss_engine *ss_sim_engine(struct ss_sim *s);

#endif
