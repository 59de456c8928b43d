/* SPDX-License-Identifier: BSD-3-Clause */
/* The one list of the program's commands. */
#include "config.h"

#include "camat_tool.h"
#include "commands.h"
#include "compare.h"
#include "convert.h"
#include "sweep.h"

static const struct ss_command commands[] = {
	{ "camat", "concurrent average memory-access time (C-AMAT) per level of a timeline in CSV", sectorsim_camat_main },
	{ "compare", "score results against Nsight Compute measurements: MAPE, Pearson r, NRMSE, charts", sectorsim_compare_main },
	{ "convert", "write a trace in sectorsim's native format: binary, zstd-compressed, read with no option", sectorsim_convert_main },
	{ "sweep", "run a configuration over a grid of parameter values, the trace decoded once; collate, split over machines", sectorsim_sweep_main },
};

gboolean ss_tools_register(struct ss_registry *r, GError **error)
{
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		if (!ss_registry_add_command(r, &commands[i], error))
			return FALSE;
	return TRUE;
}
