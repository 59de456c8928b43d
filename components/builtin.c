/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The component types compiled into sectorsim: the one list of them.  Each
 * component file defines SS_PLUGIN_ENTRY(id), which with SS_BUILTIN becomes
 * ss_builtin_register_<id>; list it here and it registers exactly as a
 * plugin would.
 */
#include "config.h"

#include "builtin.h"

#define BUILTIN(id) gboolean ss_builtin_register_##id(struct ss_registry *r, GError **error);
BUILTIN(sector_cache)
BUILTIN(l2_slice_set)
BUILTIN(slice_router)
BUILTIN(dram_counter)
BUILTIN(block_scheduler)
BUILTIN(warp_interleaver)
BUILTIN(trace_source)
BUILTIN(kernel_report)
BUILTIN(sdcm_cache)
#undef BUILTIN

static const ss_plugin_register_fn builtins[] = {
	ss_builtin_register_sector_cache,
	ss_builtin_register_l2_slice_set,
	ss_builtin_register_slice_router,
	ss_builtin_register_dram_counter,
	ss_builtin_register_block_scheduler,
	ss_builtin_register_warp_interleaver,
	ss_builtin_register_trace_source,
	ss_builtin_register_kernel_report,
	ss_builtin_register_sdcm_cache,
	NULL
};

gboolean ss_components_register(struct ss_registry *r, GError **error)
{
	for (size_t i = 0; builtins[i]; i++)
		if (!builtins[i](r, error))
			return FALSE;
	return TRUE;
}
