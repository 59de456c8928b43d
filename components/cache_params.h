/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parameter and statistic rows of the components built on the models
 * of models/sector_cache.h and models/addrdec.h (sector_cache,
 * l2_slice_set, slice_router), and the functions that turn a
 * component's parameters into the models' configurations.  The models
 * know nothing of parameters; this is where the two meet.
 */
#ifndef SS_CACHE_PARAMS_H
#define SS_CACHE_PARAMS_H

#include <sectorsim/sectorsim.h>
#include <sectorsim/protocols/cache_stats.h>
#include "sector_cache.h"
#include "addrdec.h"
#include "sc_timepar.h"

/* ---- sector caches -------------------------------------------------------- */

/* The `index` parameter's choices and doc, made from the table of set-index
 * functions (models/setindex.c) when the program loads. */
extern const char *sc_index_names[SET_INDEX_N + 1];
extern char sc_index_doc[];

extern const char *const sc_index_on_names[],
	*const sc_replacement_names[], *const sc_write_hit_names[],
	*const sc_write_miss_names[], *const sc_final_writeback_names[],
	*const sc_at_kernel_end_names[];

/* The parameter rows of one cache, for the table of any component built on
 * sector caches (sector_cache, l2_slice_set); sc_config_from_params() reads
 * them. */
#define SC_PARAM_ROWS \
	{ "size", SS_P_SIZE, "0", "capacity; give two of size, sets and assoc: sets = size / assoc / line_bytes or assoc = size / sets / line_bytes, rounded down", NULL, 0, 0, 0 }, \
	{ "sets", SS_P_UINT, "0", "number of sets (give two of size, sets and assoc); a new size from a kernel then changes the ways, not the sets", NULL, 0, 0, 0 }, \
	{ "assoc", SS_P_UINT, "0", "ways per set; 0: derived from size and sets, or from each kernel's size (sets with size_from_kernel = true)", NULL, 0, SC_MAX_ASSOC, 0 }, \
	{ "line_bytes", SS_P_SIZE, "128B", "line size: the unit of tags, allocation and replacement", NULL, 32, 65536, SS_PF_POW2 }, \
	{ "sector_bytes", SS_P_SIZE, "32B", "sector size: the unit of valid and dirty bits; = line_bytes for a non-sectored cache", NULL, 32, 65536, SS_PF_POW2 }, \
	{ "index", SS_P_ENUM, "linear", sc_index_doc, sc_index_names, 0, 0, 0 }, \
	{ "index_on", SS_P_ENUM, "address", "hash the request's address, or the partition address an L2 router attaches", sc_index_on_names, 0, 0, 0 }, \
	{ "replacement", SS_P_ENUM, "lru", "victim: least recently touched line, or oldest allocation", sc_replacement_names, 0, 0, 0 }, \
	{ "write_hit", SS_P_ENUM, "write_back", "write_back keeps dirty sectors until eviction or flush; write_through forwards every write", sc_write_hit_names, 0, 0, 0 }, \
	{ "write_miss", SS_P_ENUM, "allocate", "allocate (valid without fetch), no_allocate (forward), lazy_fetch (write-validate with byte masks), fetch (read then merge)", sc_write_miss_names, 0, 0, 0 }, \
	{ "count_write_misses", SS_P_BOOL, "true", "false: store misses are not counted as misses (the reference's fix_l2)", NULL, 0, 0, 0 }, \
	{ "final_writeback", SS_P_ENUM, "count", "at a kernel's end, dirty sectors are written back (count: traffic to the next level), only counted as dirty_at_kernel_end (report), or neither (none)", sc_final_writeback_names, 0, 0, 0 }, \
	{ "at_kernel_end", SS_P_ENUM, "invalidate", "after a kernel's end the cache is invalidated (the next kernel starts cold) or keeps its lines", sc_at_kernel_end_names, 0, 0, 0 }, \
	{ "protect_dirty_pct", SS_P_UINT, "0", "lines holding a modified sector are not evicted while they are fewer than this percentage of all lines (GPGPU-Sim's write ratio; a set holding only such lines evicts its LRU line and counts protect_overrides); 0: off", NULL, 0, 100, 0 }

/*
 * The statistic rows, in the layout of enum sc_stat.  The ones a report
 * reads are named by <sectorsim/protocols/cache_stats.h>.
 */
#define SC_KIND_STATS(sp, op, what) \
	{ CACHE_STAT(sp, op, CACHE_STAT_ACCESSES), SS_STAT_COUNTER, "sector accesses by " what, NULL, NULL }, \
	{ sp "_" op "_hits", SS_STAT_COUNTER, "hits by " what, NULL, NULL }, \
	{ CACHE_STAT(sp, op, CACHE_STAT_SECTOR_MISSES), SS_STAT_COUNTER, "sector misses (line present) by " what, NULL, NULL }, \
	{ CACHE_STAT(sp, op, CACHE_STAT_LINE_MISSES), SS_STAT_COUNTER, "line misses by " what, NULL, NULL }, \
	{ sp "_" op "_reads_down", SS_STAT_COUNTER, "sector reads sent to the next level for " what " (fetches, and bypassing requests other than writes)", NULL, NULL }, \
	{ sp "_" op "_writes_down", SS_STAT_COUNTER, "sector writes sent to the next level for " what " (write-through, no-allocate, bypassing writes)", NULL, NULL }
#define SC_STAT_ROWS \
	SC_KIND_STATS(CACHE_STAT_GLOBAL, CACHE_STAT_LOAD, "global loads"), \
	SC_KIND_STATS(CACHE_STAT_GLOBAL, CACHE_STAT_STORE, "global stores"), \
	SC_KIND_STATS(CACHE_STAT_GLOBAL, CACHE_STAT_ATOMIC, "global atomics"), \
	SC_KIND_STATS(CACHE_STAT_GLOBAL, CACHE_STAT_REDUCTION, "global reductions"), \
	SC_KIND_STATS(CACHE_STAT_LOCAL, CACHE_STAT_LOAD, "local loads"), \
	SC_KIND_STATS(CACHE_STAT_LOCAL, CACHE_STAT_STORE, "local stores"), \
	SC_KIND_STATS(CACHE_STAT_LOCAL, CACHE_STAT_ATOMIC, "local atomics"), \
	SC_KIND_STATS(CACHE_STAT_LOCAL, CACHE_STAT_REDUCTION, "local reductions"), \
	{ "accesses", SS_STAT_SUM, "sector accesses", "*_" CACHE_STAT_ACCESSES, NULL }, \
	{ "hits", SS_STAT_SUM, "hits", "*_hits", NULL }, \
	{ "sector_misses", SS_STAT_SUM, "sector misses (line present, sector not readable)", "*_" CACHE_STAT_SECTOR_MISSES, NULL }, \
	{ "line_misses", SS_STAT_SUM, "line misses", "*_" CACHE_STAT_LINE_MISSES, NULL }, \
	{ "reads_down", SS_STAT_SUM, "sector reads sent to the next level", "*_reads_down", NULL }, \
	{ "writes_down", SS_STAT_SUM, "sector writes sent to the next level, write-backs included", "*_writes_down " CACHE_STAT_WB_EVICT " " CACHE_STAT_WB_FLUSH, NULL }, \
	{ "evictions", SS_STAT_COUNTER, "lines evicted to make room", NULL, NULL }, \
	{ CACHE_STAT_WB_EVICT, SS_STAT_COUNTER, "dirty sectors written back on eviction", NULL, NULL }, \
	{ CACHE_STAT_WB_FLUSH, SS_STAT_COUNTER, "dirty sectors written back by a flush or a kernel's end", NULL, NULL }, \
	{ CACHE_STAT_DIRTY_AT_KERNEL_END, SS_STAT_COUNTER, "dirty sectors left at a kernel's end (final_writeback = report; none in a write-through cache)", NULL, NULL }, \
	{ "protect_overrides", SS_STAT_COUNTER, "line misses whose set held only lines protected by protect_dirty_pct: the LRU line went all the same", NULL, NULL }, \
	{ "hit_rate", SS_STAT_RATIO, "hits / accesses", "hits", "accesses" }

struct ss_params;
/* The configuration from the SC_PARAM_ROWS of `p`, its tables drawn on
 * the run's memory account (ss_engine_claim_memory). */
bool sc_config_from_params(const struct ss_params *p, struct ss_engine *e,
			   struct sc_config *cfg, struct sc_kernel_end *end,
			   GError **err);

/* ---- time-parallel simulation (models/sc_timepar.h) ------------------------ */

extern const char *const sc_parallel_names[];

/* The rows of a functional cache that may be simulated by segments. */
#define SC_TIMEPAR_PARAM_ROWS \
	{ "parallel", SS_P_ENUM, "none", "none: requests are simulated as they come; time: each cache's requests are held (up to time_batch, or to the kernel's end, a flush or an invalidation), cut into `segments` equal runs simulated at once on threads, each from a cache warmed up on the requests before it, then corrected in order from the state the run before left: the same counters, lines and requests down, in the same order, as sequential simulation (functional only; not with protect_dirty_pct).  The requests down leave when a batch is done: a level below that serves several inputs in arrival order (merge = arrival) may interleave them otherwise; the last cache level, or one above merge = rr, gives every number exactly", sc_parallel_names, 0, 0, 0 }, \
	{ "segments", SS_P_UINT, "2", "parallel = time: runs simulated at once, one thread each", NULL, 2, SC_TIMEPAR_MAX_SEGMENTS, 0 }, \
	{ "time_batch", SS_P_UINT, "4194304", "parallel = time: requests a cache holds before it simulates them (about 60 bytes each, held as they come); larger batches spread the corrections, which cost about each set's first accesses in each segment, over more requests", NULL, 64, 1u << 30, 0 }

/*
 * Segments for cache c, which sends down through emit(ctx), when `p` says
 * parallel = time; else NULL with no error.  NULL with *err when the
 * cache cannot be so simulated.
 */
struct sc_timepar *cache_timepar_new(const struct ss_params *p, struct sc_cache *c,
				     sc_emit_fn emit, void *ctx, GError **err);
/* The name of the counter of requests simulated again. */
#define CACHE_STAT_TIMEPAR_REPLAYED "time_parallel_replayed"
/* Simulate what tp holds; the requests simulated again since the count
 * *seen (this run's and those of the batches that filled up) add to
 * *replayed. */
void cache_timepar_run(struct sc_timepar *tp, uint64_t *replayed, uint64_t *seen);

/* ---- address decoding and slice maps --------------------------------------- */

extern const char *const addrdec_indexing_names[], *const slice_mapping_names[];

/*
 * The parameter rows of the decoder, for every component that maps
 * addresses to slices this way (l2_slice_set, slice_router); they matter
 * with mapping = gpgpusim only.  addrdec_config_from_params() reads them.
 */
#define ADDRDEC_PARAM_ROWS \
	{ "n_channels", SS_P_UINT, "1", "mapping = gpgpusim (required there): DRAM channels, GPGPU-Sim's -gpgpu_n_mem", NULL, 1, 4096, 0 }, \
	{ "n_sub", SS_P_UINT, "1", "mapping = gpgpusim: slices (sub-partitions) per channel, a power of two; slices = n_channels x n_sub", NULL, 1, 64, SS_PF_POW2 }, \
	{ "chip_shift", SS_P_UINT, "8", "mapping = gpgpusim: the lowest address bit of the channel (dramid@S of -gpgpu_mem_addr_mapping)", NULL, 0, 56, 0 }, \
	{ "bank_mask", SS_P_UINT, "0", "mapping = gpgpusim: the bank bits (B) of the address map as written; its lowest log2(n_sub) set bits pick the slice within the channel", NULL, 0, 0, 0 }, \
	{ "subpart_indexing", SS_P_ENUM, "consecutive", "mapping = gpgpusim: slice = channel x n_sub + bank bits (consecutive), or that hashed with IPOLY (ipoly: 16, 32 or 64 hashed sub-partitions)", addrdec_indexing_names, 0, 0, 0 }

/*
 * The decoder of a component's parameters.  `used` says whether the
 * component maps with it (mapping = gpgpusim): then n_channels must be
 * given; otherwise none of the rows may be, since they would do nothing.
 * With used false, *d is left alone and true is returned.
 */
bool addrdec_from_params(const struct ss_params *p, bool used,
			 struct addrdec *d, GError **err);

/* The `mapping` row and the decoder's, for the components that route. */
#define SLICE_MAP_PARAM_ROWS \
	{ "mapping", SS_P_ENUM, "single", "slice of an address: single (one slice), line (line number modulo slices), gpgpusim (GPGPU-Sim's address decoding, which also gives the partition address)", slice_mapping_names, 0, 0, 0 }, \
	ADDRDEC_PARAM_ROWS

/*
 * The map of a component with `n_slices` slices, which `slices_given`
 * describes for messages ("slices = 48", "48 mem_side outputs"); lines
 * of `line_bytes` for mapping = line.
 */
bool slice_map_from_params(const struct ss_params *p, uint32_t n_slices,
			   const char *slices_given, uint32_t line_bytes,
			   struct slice_map *m, GError **err);

#endif
