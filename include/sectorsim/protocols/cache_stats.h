/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The statistics a report reads from other components, by name: a
 * kernel_report finds "INSTANCE.NAME" with ss_stats_counter() at init.
 * The components that count (sector_cache and l2_slice_set through
 * SC_STAT_ROWS, sdcm_cache, dram_counter) name those statistics with
 * these constants, and the report reads them with the same ones, so a
 * rename changes both; a test checks that every name below is in the
 * statistics table of the types that should have it.  A component that
 * takes the place of one of these, in a plugin, offers the same names.
 *
 * Each list is in the order a reader indexes it.
 */
#ifndef SECTORSIM_PROTOCOLS_CACHE_STATS_H
#define SECTORSIM_PROTOCOLS_CACHE_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a sector cache (sector_cache, l2_slice_set) --------------------------- */

/*
 * Per memory space and operation, three counts:
 * CACHE_STAT(SPACE, OP, COUNT), e.g. "global_load_accesses".  An access
 * that is neither kind of miss did not miss (a hit, or with
 * count_write_misses = false a store miss not counted as one).
 */
#define CACHE_STAT_GLOBAL	"global"
#define CACHE_STAT_LOCAL	"local"
#define CACHE_STAT_SPACES	CACHE_STAT_GLOBAL, CACHE_STAT_LOCAL

#define CACHE_STAT_LOAD		"load"
#define CACHE_STAT_STORE	"store"
#define CACHE_STAT_ATOMIC	"atomic"
#define CACHE_STAT_REDUCTION	"reduction"
#define CACHE_STAT_OPS \
	CACHE_STAT_LOAD, CACHE_STAT_STORE, CACHE_STAT_ATOMIC, CACHE_STAT_REDUCTION

#define CACHE_STAT_ACCESSES	"accesses"	/* sector accesses */
#define CACHE_STAT_SECTOR_MISSES "sector_misses"	/* line present, sector not */
#define CACHE_STAT_LINE_MISSES	"line_misses"
#define CACHE_STAT_COUNTS \
	CACHE_STAT_ACCESSES, CACHE_STAT_SECTOR_MISSES, CACHE_STAT_LINE_MISSES

#define CACHE_STAT(space, op, count)	space "_" op "_" count

/* Per memory space and operation too: the sectors it sent down to be
 * read, and written (write-backs are CACHE_STAT_WB_*). */
#define CACHE_STAT_READS_DOWN	"reads_down"
#define CACHE_STAT_WRITES_DOWN	"writes_down"

/* Dirty sectors written back on eviction, by a flush or a kernel's end,
 * and left dirty at a kernel's end. */
#define CACHE_STAT_WB_EVICT	"wb_evict"
#define CACHE_STAT_WB_FLUSH	"wb_flush"
#define CACHE_STAT_DIRTY_AT_KERNEL_END "dirty_at_kernel_end"
/* Bytes the cache holds during the kernel: sets x ways x line, every
 * slice of an L2 together (an L1 sized by the carveout: this kernel's). */
#define CACHE_STAT_CAPACITY "capacity_bytes"

/* ---- an SDCM cache (sdcm_cache) -------------------------------------------- */

/* Sector accesses per category, in the reference's order. */
#define SDCM_STAT_LDL_ACCESSES	"ldl_accesses"
#define SDCM_STAT_LDG_ACCESSES	"ldg_accesses"
#define SDCM_STAT_STL_ACCESSES	"stl_accesses"
#define SDCM_STAT_STG_ACCESSES	"stg_accesses"
#define SDCM_STAT_CATEGORIES \
	SDCM_STAT_LDL_ACCESSES, SDCM_STAT_LDG_ACCESSES, \
	SDCM_STAT_STL_ACCESSES, SDCM_STAT_STG_ACCESSES

/* Hit rates the model computed (real-valued statistics). */
#define SDCM_STAT_HIT_TOT	"hit_tot"
#define SDCM_STAT_HIT_LD	"hit_ld"
#define SDCM_STAT_HIT_ST	"hit_st"
#define SDCM_STAT_HIT_LDG	"hit_ldg"
#define SDCM_STAT_HIT_STG	"hit_stg"

/* In timing mode, the reads' distances in their sets: never completed,
 * finite up to the associativity (itself included), finite above it. */
#define SDCM_STAT_RD_COLD	"rd_cold"
#define SDCM_STAT_RD_WITHIN	"rd_within"
#define SDCM_STAT_RD_BEYOND	"rd_beyond"

/* ---- a cache in timing mode (counters it adds to those above) --------------- */

#define TIMING_STAT_LATENCY_MISSES	"latency_misses"
#define TIMING_STAT_MERGES		"mshr_merges"
#define TIMING_STAT_REFUSED_ENTRIES	"mshr_refused_entries"
#define TIMING_STAT_REFUSED_TARGETS	"mshr_refused_targets"
#define TIMING_STAT_PEAK		"mshr_peak"	/* entries in use at once */
#define TIMING_STAT_LOAD_CYCLES		"load_cycles"	/* arrival to answer, summed */
#define TIMING_STAT_LOADS		"loads_answered"
/*
 * C-AMAT's counts of the loads answered (models/camat.h): each a hit
 * phase (its lookup) and, when it was not a hit, a miss phase (until its
 * data came).
 */
#define TIMING_STAT_CAMAT_ACCESSES	"camat_accesses"
#define TIMING_STAT_CAMAT_HITS		"camat_hits"
#define TIMING_STAT_CAMAT_MISSES	"camat_misses"
#define TIMING_STAT_CAMAT_HIT_CYCLES	"camat_hit_cycles"
#define TIMING_STAT_CAMAT_MISS_CYCLES	"camat_miss_cycles"
#define TIMING_STAT_CAMAT_OVERLAP_HIT	"camat_overlap_hit_time"
#define TIMING_STAT_CAMAT_PURE_MISSES	"camat_pure_misses"
#define TIMING_STAT_CAMAT_PURE_TIME	"camat_pure_miss_time"
#define TIMING_STAT_CAMAT_PURE_OVERLAP	"camat_pure_miss_overlap_time"
#define TIMING_STAT_CAMAT_ACTIVE	"camat_active_cycles"

/* ---- a DRAM counter (dram_counter) ------------------------------------------ */

/* 32-byte transactions that reached DRAM. */
#define DRAM_STAT_READS		"reads"
#define DRAM_STAT_WRITES	"writes"
/* timing mode: answers and their cycles; with a bandwidth, queueing */
#define DRAM_STAT_ANSWERED	"answered"
#define DRAM_STAT_LATENCY_CYCLES "latency_cycles"
#define DRAM_STAT_QUEUED	"queued"
#define DRAM_STAT_QUEUE_CYCLES	"queue_cycles"

/* ---- an SM (warp_interleaver) ----------------------------------------------- */

/*
 * The counts one SM contributes; the first SM_STAT_N_REF every report
 * reads, the rest only mode = hw.  SM_STAT_LINES (instructions issued)
 * also tells the SMs of an array apart from the end of it.
 */
#define SM_STAT_LINES		"lines"
#define SM_STAT_GMEM_LD_REQS	"gmem_ld_reqs"
#define SM_STAT_GMEM_ST_REQS	"gmem_st_reqs"
#define SM_STAT_GMEM_LD_SECTORS	"gmem_ld_sectors"
#define SM_STAT_GMEM_ST_SECTORS	"gmem_st_sectors"
#define SM_STAT_LMEM_LD_REQS	"lmem_ld_reqs"
#define SM_STAT_LMEM_ST_REQS	"lmem_st_reqs"
#define SM_STAT_ATOM_REQS	"atom_reqs"
#define SM_STAT_RED_REQS	"red_reqs"
#define SM_STAT_ATOM_RED_TRANS	"atom_red_trans"
#define SM_STAT_UMEM_LD_SECTORS	"umem_ld_sectors"
#define SM_STAT_UMEM_ST_SECTORS	"umem_st_sectors"
#define SM_STAT_LMEM_LD_SECTORS	"lmem_ld_sectors"
#define SM_STAT_LMEM_ST_SECTORS	"lmem_st_sectors"
#define SM_STAT_ATOM_SECTORS	"atom_sectors"
#define SM_STAT_RED_SECTORS	"red_sectors"
#define SM_STAT_NAMES \
	SM_STAT_GMEM_LD_REQS, SM_STAT_GMEM_ST_REQS, SM_STAT_GMEM_LD_SECTORS, \
	SM_STAT_GMEM_ST_SECTORS, SM_STAT_LMEM_LD_REQS, SM_STAT_LMEM_ST_REQS, \
	SM_STAT_ATOM_REQS, SM_STAT_RED_REQS, SM_STAT_ATOM_RED_TRANS, \
	SM_STAT_UMEM_LD_SECTORS, SM_STAT_UMEM_ST_SECTORS, \
	SM_STAT_LMEM_LD_SECTORS, SM_STAT_LMEM_ST_SECTORS, \
	SM_STAT_ATOM_SECTORS, SM_STAT_RED_SECTORS, SM_STAT_LINES
#define SM_STAT_N_REF		11

/* timing mode: requests its L1 refused; the ticks (+ 1; 0: none) of the
 * kernel's first issue and last answer on this SM */
#define SM_STAT_REFUSED		"refused"
#define SM_STAT_FIRST_ISSUE	"first_issue"
#define SM_STAT_LAST_ANSWER	"last_answer"

#ifdef __cplusplus
}
#endif

#endif
