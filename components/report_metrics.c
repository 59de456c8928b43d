/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables of report_metrics.h. */
#include "config.h"

#include <glib.h>
#include <sectorsim/protocols/mem.h>
#include "report_metrics.h"

#define NCU_FACTOR(unit) \
	((unit) == NCU_PCT ? 100.0 : (unit) == NCU_BYTES ? (double)MEM_ATOM : 1.0)

const struct ncu_metric_desc ncu_metrics[N_NCU_METRICS] = {
	[NCU_NONE] = { NULL, NCU_COUNT, 0 },
#define NCU_METRIC_ROW(id, name, unit) [NCU_##id] = { name, unit, NCU_FACTOR(unit) },
	NCU_METRICS(NCU_METRIC_ROW)
#undef NCU_METRIC_ROW
};

#define REF REPORT_REF
#define HW REPORT_HW
#define BOTH REPORT_BOTH
#define TIMING REPORT_TIMING
#define NUG REPORT_NUG

const struct report_metric_desc report_metrics[N_REPORT_METRICS] = {
#define REPORT_METRIC_ROW(key, is_int, modes, ncu, ncu_modes, total) \
	[RM_##key] = { #key, is_int, modes, NCU_##ncu, ncu_modes, REPORT_TOTAL_##total },
	REPORT_METRICS(REPORT_METRIC_ROW)
#undef REPORT_METRIC_ROW
};

const struct report_level_metric_desc report_level_metrics[N_REPORT_LEVEL_METRICS] = {
#define REPORT_LEVEL_ROW(key, is_int, total) \
	[RL_##key] = { #key, is_int, REPORT_TOTAL_##total },
	REPORT_LEVEL_METRICS(REPORT_LEVEL_ROW)
#undef REPORT_LEVEL_ROW
};

const struct report_ncu_alias report_ncu_aliases[] = {
	{ RM_l2_ld_trans, NCU_LTS_TEX_READ },
	{ RM_l2_st_trans, NCU_LTS_TEX_WRITE },
	{ RM_l2_read_sectors, NCU_LTS_TEX_READ },
	{ RM_l2_write_sectors, NCU_LTS_TEX_WRITE },
	{ RM_dram_ld_trans, NCU_DRAM_BYTES_READ },
	{ RM_dram_st_trans, NCU_DRAM_BYTES_WRITE },
};
const unsigned n_report_ncu_aliases = G_N_ELEMENTS(report_ncu_aliases);

const char *report_ncu_name(enum report_metric k, unsigned mode)
{
	const struct report_metric_desc *d = &report_metrics[k];

	return d->ncu_modes & mode ? ncu_metrics[d->ncu].name : NULL;
}
