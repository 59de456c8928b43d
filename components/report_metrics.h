/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The metrics of a kernel report and the Nsight Compute metrics they stand
 * for, in one place: kernel_report computes and writes them (its table,
 * --json and --csv), and `sectorsim compare` reads our keys back and
 * computes the hardware's values from the Nsight names.
 */
#ifndef SS_REPORT_METRICS_H
#define SS_REPORT_METRICS_H

#include <stdbool.h>

/* ---- Nsight Compute metrics ----------------------------------------------- */

/* What a value counts; our values times ncu_metrics[].factor give it. */
enum ncu_unit {
	NCU_COUNT,	/* requests, sectors, or a ratio of them: as ours */
	NCU_PCT,	/* a percentage: our rate x 100 */
	NCU_BYTES,	/* bytes: our 32-byte sectors x 32 */
};

/* X(ID, name, unit) */
#define NCU_METRICS(X) \
	X(L1_HIT_RATE, "l1tex__t_sector_hit_rate.pct", NCU_PCT) \
	X(L2_HIT_RATE, "lts__t_sector_hit_rate.pct", NCU_PCT) \
	X(L2_READ_HIT_RATE, "lts__t_sector_op_read_hit_rate.pct", NCU_PCT) \
	X(L2_WRITE_HIT_RATE, "lts__t_sector_op_write_hit_rate.pct", NCU_PCT) \
	X(L1_REQS_LD, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", NCU_COUNT) \
	X(L1_REQS_ST, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", NCU_COUNT) \
	X(L1_SECTORS_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", NCU_COUNT) \
	X(L1_SECTORS_ST, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", NCU_COUNT) \
	X(L1_SECTORS_ATOM, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", NCU_COUNT) \
	X(L1_SECTORS_RED, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", NCU_COUNT) \
	X(L1_HITS_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", NCU_COUNT) \
	X(L1_HITS_ST, "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", NCU_COUNT) \
	X(L1_HITS_ATOM, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom_lookup_hit.sum", NCU_COUNT) \
	X(L1_HITS_RED, "l1tex__t_sectors_pipe_lsu_mem_global_op_red_lookup_hit.sum", NCU_COUNT) \
	X(L1_LOCAL_SECTORS_LD, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", NCU_COUNT) \
	X(L1_LOCAL_SECTORS_ST, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", NCU_COUNT) \
	X(L1_SECTORS_PER_REQ_LD, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", NCU_COUNT) \
	X(LTS_READ, "lts__t_sectors_op_read.sum", NCU_COUNT) \
	X(LTS_WRITE, "lts__t_sectors_op_write.sum", NCU_COUNT) \
	X(LTS_ATOM, "lts__t_sectors_op_atom.sum", NCU_COUNT) \
	X(LTS_RED, "lts__t_sectors_op_red.sum", NCU_COUNT) \
	X(LTS_TEX_READ, "lts__t_sectors_srcunit_tex_op_read.sum", NCU_COUNT) \
	X(LTS_TEX_WRITE, "lts__t_sectors_srcunit_tex_op_write.sum", NCU_COUNT) \
	X(LTS_TEX_RED, "lts__t_sectors_srcunit_tex_op_red.sum", NCU_COUNT) \
	X(DRAM_SECTORS_READ, "dram__sectors_read.sum", NCU_COUNT) \
	X(DRAM_SECTORS_WRITE, "dram__sectors_write.sum", NCU_COUNT) \
	X(DRAM_BYTES_READ, "dram__bytes_read.sum", NCU_BYTES) \
	X(DRAM_BYTES_WRITE, "dram__bytes_write.sum", NCU_BYTES)

/* NCU_NONE (0): no Nsight metric; it ends a list of terms, too */
enum ncu_metric {
	NCU_NONE,
#define NCU_METRIC_ENUM(id, name, unit) NCU_##id,
	NCU_METRICS(NCU_METRIC_ENUM)
#undef NCU_METRIC_ENUM
	N_NCU_METRICS
};

struct ncu_metric_desc {
	const char *name;	/* as ncu names its column; NULL for NCU_NONE */
	enum ncu_unit unit;
	double factor;		/* Nsight value = ours x factor */
};

extern const struct ncu_metric_desc ncu_metrics[N_NCU_METRICS];

/* ---- the report's metrics ---------------------------------------------------- */

/* The modes of kernel_report that compute a metric, as bits. */
#define REPORT_REF 1	/* the reference's formulas, scaled doubles */
#define REPORT_HW 2	/* integer counts over every SM, slice and channel */
#define REPORT_BOTH (REPORT_REF | REPORT_HW)
#define REPORT_TIMING 4	/* hw in timing mode: a report shows these only then */
#define REPORT_NUG 8	/* nugteren: Nugteren et al.'s model's numbers */

/*
 * How a metric's app total is made of its kernels' values.  A rate is
 * recomputed from the sums of its numerator and denominator, never
 * averaged: the total's L2 hit rate is the app's hits over the app's
 * accesses.
 */
enum report_total {
	REPORT_TOTAL_SUM,	/* a count: the sum */
	REPORT_TOTAL_RATIO,	/* sum of numerators / sum of denominators */
	REPORT_TOTAL_MIN,	/* the least of the kernels' */
	REPORT_TOTAL_MAX,	/* the greatest: a peak */
	/* C-AMAT, from the level's other metrics as totals: the same
	 * formula (models/camat.h) over the app's counts */
	REPORT_TOTAL_CAMAT,
	/* no total: a setting or a state at a kernel's end (the L1's size,
	 * the scale, the lines dirty when the kernel ended), or a mean per
	 * active SM (the SMs active differ from kernel to kernel, and the
	 * app has no count of its own of them) */
	REPORT_TOTAL_NONE,
};

/*
 * X(key, is_int, modes, ncu, ncu_modes, total), in the order of the reference's
 * results files, with the keys only hw computes among them.  is_int: a
 * count written as an integer; modes: the modes that compute it (REF, HW,
 * BOTH: REPORT_ without the prefix); ncu: the Nsight metric (NCU_ without
 * the prefix) that is the same number in ncu_modes (hw's l2_ld_trans adds
 * atomics and reductions to op_read, so there op_read is
 * l2_read_sectors); total: how the app's total over its kernels is made
 * of the kernels' values (enum report_total, REPORT_TOTAL_ without the
 * prefix).
 */
#define REPORT_METRICS(X) \
	X(l1_cache_size, 1, BOTH, NONE, 0, NONE) \
	X(scale, 0, BOTH, NONE, 0, NONE) \
	X(l1_hit_rate, 0, BOTH, L1_HIT_RATE, BOTH, RATIO) \
	X(l1_hit_rate_ld, 0, BOTH, NONE, 0, RATIO) \
	X(l1_hit_rate_st, 0, BOTH, NONE, 0, RATIO) \
	X(l1_hit_rate_g, 0, BOTH, NONE, 0, RATIO) \
	X(l1_hit_rate_ldg, 0, BOTH, NONE, 0, RATIO) \
	X(l1_hit_rate_stg, 0, BOTH, NONE, 0, RATIO) \
	X(l2_hit_rate, 0, BOTH, L2_HIT_RATE, BOTH, RATIO) \
	X(l2_hit_rate_ld, 0, BOTH, L2_READ_HIT_RATE, BOTH, RATIO) \
	X(l2_hit_rate_st, 0, BOTH, L2_WRITE_HIT_RATE, BOTH, RATIO) \
	X(gmem_ld_reqs, 0, BOTH, L1_REQS_LD, BOTH, SUM) \
	X(gmem_st_reqs, 0, BOTH, L1_REQS_ST, BOTH, SUM) \
	X(gmem_tot_reqs, 0, BOTH, NONE, 0, SUM) \
	X(gmem_ld_sectors, 0, BOTH, L1_SECTORS_LD, BOTH, SUM) \
	X(gmem_st_sectors, 0, BOTH, L1_SECTORS_ST, BOTH, SUM) \
	X(gmem_tot_sectors, 0, BOTH, NONE, 0, SUM) \
	X(gmem_ld_diverg, 0, BOTH, NONE, 0, RATIO) \
	X(gmem_st_diverg, 0, BOTH, NONE, 0, RATIO) \
	X(gmem_tot_diverg, 0, BOTH, NONE, 0, RATIO) \
	X(gmem_tot_sectors_per_sm, 0, BOTH, NONE, 0, NONE) \
	X(gmem_ld_sectors_hit, 1, HW, L1_HITS_LD, HW, SUM) \
	X(gmem_st_sectors_hit, 1, HW, L1_HITS_ST, HW, SUM) \
	X(lmem_ld_reqs, 0, BOTH, NONE, 0, SUM) \
	X(lmem_st_reqs, 0, BOTH, NONE, 0, SUM) \
	X(lmem_ld_sectors, 1, HW, L1_LOCAL_SECTORS_LD, HW, SUM) \
	X(lmem_st_sectors, 1, HW, L1_LOCAL_SECTORS_ST, HW, SUM) \
	X(umem_ld_reqs, 0, BOTH, NONE, 0, SUM) \
	X(umem_st_reqs, 0, BOTH, NONE, 0, SUM) \
	X(umem_ld_sectors, 0, BOTH, NONE, 0, SUM) \
	X(umem_st_sectors, 0, BOTH, NONE, 0, SUM) \
	X(umem_tot_sectors, 0, BOTH, NONE, 0, SUM) \
	X(l2_ld_trans, 0, BOTH, LTS_READ, REF, SUM) \
	X(l2_st_trans, 0, BOTH, LTS_WRITE, REF, SUM) \
	X(l2_tot_trans, 0, BOTH, NONE, 0, SUM) \
	X(l2_read_sectors, 1, HW, LTS_READ, HW, SUM) \
	X(l2_write_sectors, 1, HW, LTS_WRITE, HW, SUM) \
	X(l2_atom_sectors, 1, HW, LTS_ATOM, HW, SUM) \
	X(l2_red_sectors, 1, HW, LTS_RED, HW, SUM) \
	X(dram_ld_trans, 0, BOTH, DRAM_SECTORS_READ, BOTH, SUM) \
	X(dram_st_trans, 0, BOTH, DRAM_SECTORS_WRITE, BOTH, SUM) \
	X(dram_tot_trans, 0, BOTH, NONE, 0, SUM) \
	X(l2_dirty_at_kernel_end, 1, HW, NONE, 0, NONE) \
	X(cache_capacity_bytes, 1, HW, NONE, 0, NONE) \
	X(write_evict, 1, BOTH, NONE, 0, SUM) \
	X(write_flush, 1, BOTH, NONE, 0, SUM) \
	X(atom_reqs, 1, HW, NONE, 0, SUM) \
	X(red_reqs, 1, HW, NONE, 0, SUM) \
	X(atom_sectors, 1, HW, L1_SECTORS_ATOM, HW, SUM) \
	X(red_sectors, 1, HW, L1_SECTORS_RED, HW, SUM) \
	X(atom_tot_reqs, 0, BOTH, NONE, 0, NONE) \
	X(red_tot_reqs, 0, BOTH, NONE, 0, NONE) \
	X(atom_red_tot_trans, 0, BOTH, NONE, 0, NONE) \
	REPORT_TIMING_METRICS(X) \
	REPORT_NUG_METRICS(X)

/*
 * mode = nugteren only: what Nugteren et al.'s cache model prints for a
 * kernel from its four simulations (normal, fully associative, no latency,
 * no MSHR limit; models/nugteren.h): the normal case's accesses (its
 * misses plus hits), hits, misses and their split, the miss rate in
 * percent as the model rounds it (single precision), and the other cases'
 * misses.
 */
#define REPORT_NUG_METRICS(X) \
	X(accesses, 1, NUG, NONE, 0, SUM) \
	X(hits, 1, NUG, NONE, 0, SUM) \
	X(misses, 1, NUG, NONE, 0, SUM) \
	X(misses_compulsory, 1, NUG, NONE, 0, SUM) \
	X(misses_capacity, 1, NUG, NONE, 0, SUM) \
	X(misses_associativity, 1, NUG, NONE, 0, SUM) \
	X(misses_latency, 1, NUG, NONE, 0, SUM) \
	X(misses_mshr, 1, NUG, NONE, 0, SUM) \
	X(miss_rate_pct, 0, NUG, NONE, 0, RATIO) \
	X(misses_full_assoc, 1, NUG, NONE, 0, SUM) \
	X(misses_no_latency, 1, NUG, NONE, 0, SUM) \
	X(misses_no_mshr_limit, 1, NUG, NONE, 0, SUM)

/*
 * Timing mode only (mode = hw, REPORT_TIMING): the kernel's memory time, from its first issue to
 * its last answer, and the same per SM (the shortest and longest of the
 * SMs that issued); per level the mean cycles from a read's arrival to its
 * answer, latency misses, MSHR merges, refusals and the most entries any
 * one cache had in use; the SMs' refused requests; DRAM's mean latency and,
 * with a bandwidth, the mean cycles a transaction queued.  Then per level
 * the concurrent memory-access time of its loads (models/camat.h): their
 * counts, hit and pure-miss concurrency (C_h, C_m), pure miss rate and
 * penalty (pMR, pAMP), the mean hit phase, C-AMAT (PC-AMAT for a cache
 * that looks up tag and data in parallel, SC-AMAT in series: the hit
 * phases say which) and plain AMAT beside it; the counts sum a level's
 * caches (the L1s, the L2's slices), each swept on its own.
 */
#define REPORT_TIMING_METRICS(X) \
	X(mem_cycles, 1, TIMING, NONE, 0, SUM) \
	X(sm_mem_cycles_min, 1, TIMING, NONE, 0, MIN) \
	X(sm_mem_cycles_max, 1, TIMING, NONE, 0, MAX) \
	X(sm_refused, 1, TIMING, NONE, 0, SUM) \
	X(l1_mean_load_latency, 0, TIMING, NONE, 0, RATIO) \
	X(l1_latency_misses, 1, TIMING, NONE, 0, SUM) \
	X(l1_mshr_merges, 1, TIMING, NONE, 0, SUM) \
	X(l1_mshr_refused_entries, 1, TIMING, NONE, 0, SUM) \
	X(l1_mshr_refused_targets, 1, TIMING, NONE, 0, SUM) \
	X(l1_mshr_peak, 1, TIMING, NONE, 0, MAX) \
	X(l2_mean_load_latency, 0, TIMING, NONE, 0, RATIO) \
	X(l2_latency_misses, 1, TIMING, NONE, 0, SUM) \
	X(l2_mshr_merges, 1, TIMING, NONE, 0, SUM) \
	X(l2_mshr_refused_entries, 1, TIMING, NONE, 0, SUM) \
	X(l2_mshr_refused_targets, 1, TIMING, NONE, 0, SUM) \
	X(l2_mshr_peak, 1, TIMING, NONE, 0, MAX) \
	X(dram_mean_latency, 0, TIMING, NONE, 0, RATIO) \
	X(dram_mean_queue_delay, 0, TIMING, NONE, 0, RATIO) \
	X(l1_camat_accesses, 1, TIMING, NONE, 0, SUM) \
	X(l1_camat_hits, 1, TIMING, NONE, 0, SUM) \
	X(l1_camat_misses, 1, TIMING, NONE, 0, SUM) \
	X(l1_overlap_hit_time, 1, TIMING, NONE, 0, SUM) \
	X(l1_pure_misses, 1, TIMING, NONE, 0, SUM) \
	X(l1_pure_miss_time, 1, TIMING, NONE, 0, SUM) \
	X(l1_pure_miss_overlap_time, 1, TIMING, NONE, 0, SUM) \
	X(l1_active_cycles, 1, TIMING, NONE, 0, SUM) \
	X(l1_C_h, 0, TIMING, NONE, 0, RATIO) \
	X(l1_C_m, 0, TIMING, NONE, 0, RATIO) \
	X(l1_pMR, 0, TIMING, NONE, 0, RATIO) \
	X(l1_pAMP, 0, TIMING, NONE, 0, RATIO) \
	X(l1_mean_hit_time, 0, TIMING, NONE, 0, RATIO) \
	X(l1_camat, 0, TIMING, NONE, 0, CAMAT) \
	X(l1_amat, 0, TIMING, NONE, 0, RATIO) \
	X(l2_camat_accesses, 1, TIMING, NONE, 0, SUM) \
	X(l2_camat_hits, 1, TIMING, NONE, 0, SUM) \
	X(l2_camat_misses, 1, TIMING, NONE, 0, SUM) \
	X(l2_overlap_hit_time, 1, TIMING, NONE, 0, SUM) \
	X(l2_pure_misses, 1, TIMING, NONE, 0, SUM) \
	X(l2_pure_miss_time, 1, TIMING, NONE, 0, SUM) \
	X(l2_pure_miss_overlap_time, 1, TIMING, NONE, 0, SUM) \
	X(l2_active_cycles, 1, TIMING, NONE, 0, SUM) \
	X(l2_C_h, 0, TIMING, NONE, 0, RATIO) \
	X(l2_C_m, 0, TIMING, NONE, 0, RATIO) \
	X(l2_pMR, 0, TIMING, NONE, 0, RATIO) \
	X(l2_pAMP, 0, TIMING, NONE, 0, RATIO) \
	X(l2_mean_hit_time, 0, TIMING, NONE, 0, RATIO) \
	X(l2_camat, 0, TIMING, NONE, 0, CAMAT) \
	X(l2_amat, 0, TIMING, NONE, 0, RATIO)

/*
 * Every other cache level a configuration declares (an L1.5 the SMs share
 * by pairs, an L3), by its component's name: X(key, is_int, total), each
 * summed over the level's caches.  lookups: sector accesses; hits: those
 * that did not miss; the hit rates over lookups, loads and stores;
 * reads_down, writes_down: sectors sent to the next level to be read and
 * written (write-backs included); capacity_bytes: every cache together.
 * In mode = ref the counts are scaled, as the reference's are.
 */
#define REPORT_LEVEL_METRICS(X) \
	X(lookups, 1, SUM) \
	X(hits, 1, SUM) \
	X(hit_rate, 0, RATIO) \
	X(hit_rate_ld, 0, RATIO) \
	X(hit_rate_st, 0, RATIO) \
	X(reads_down, 1, SUM) \
	X(writes_down, 1, SUM) \
	X(capacity_bytes, 1, NONE)

enum report_level_metric {
#define REPORT_LEVEL_ENUM(key, is_int, total) RL_##key,
	REPORT_LEVEL_METRICS(REPORT_LEVEL_ENUM)
#undef REPORT_LEVEL_ENUM
	N_REPORT_LEVEL_METRICS
};

struct report_level_metric_desc {
	const char *key;	/* LEVEL.key in the table and --csv, under "levels" in --json */
	bool is_int;		/* in mode = hw */
	enum report_total total;
};

extern const struct report_level_metric_desc report_level_metrics[N_REPORT_LEVEL_METRICS];

enum report_metric {
#define REPORT_METRIC_ENUM(key, is_int, modes, ncu, ncu_modes, total) RM_##key,
	REPORT_METRICS(REPORT_METRIC_ENUM)
#undef REPORT_METRIC_ENUM
	N_REPORT_METRICS
};

struct report_metric_desc {
	const char *key;	/* in the --json "metrics", the --csv header, the table */
	bool is_int;
	unsigned modes;		/* REPORT_REF, REPORT_HW */
	enum ncu_metric ncu;	/* or NCU_NONE */
	unsigned ncu_modes;	/* the modes in which `ncu` is the same number */
	enum report_total total;
};

extern const struct report_metric_desc report_metrics[N_REPORT_METRICS];

/*
 * Nsight metrics that are a report metric under another name or unit,
 * written after the others in the --json "ncu" object, where the metric's
 * own Nsight name is: every modelled L2 sector comes from the L1s
 * (srcunit tex), and a DRAM sector is 32 bytes.
 */
struct report_ncu_alias {
	enum report_metric m;
	enum ncu_metric ncu;
};

extern const struct report_ncu_alias report_ncu_aliases[];
extern const unsigned n_report_ncu_aliases;

/* The Nsight metric of metric k in `mode` (REPORT_REF or REPORT_HW), or NULL. */
const char *report_ncu_name(enum report_metric k, unsigned mode);

#endif
