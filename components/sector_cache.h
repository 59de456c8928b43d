/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sector cache model without the framework around it, so that unit
 * tests, golden streams and benchmarks drive it directly.  The
 * `sector_cache` component (sector_cache.c) wraps it behind two ports.
 */
#ifndef SS_SECTOR_CACHE_H
#define SS_SECTOR_CACHE_H

#include <glib.h>
#include <sectorsim/mem.h>
#include <sectorsim/component.h>
#include "setindex.h"

enum sc_write_hit { SC_WRITE_BACK, SC_WRITE_THROUGH };
enum sc_write_miss {
	SC_ALLOCATE,		/* the sector becomes valid without a fetch (ref) */
	SC_NO_ALLOCATE,		/* the write goes down, nothing is allocated */
	SC_LAZY_FETCH,		/* write-validate: byte masks, fetch on a partial read */
	SC_FETCH,		/* read the sector, then merge the write */
};
enum sc_replacement { SC_LRU, SC_FIFO };
enum sc_bypass {
	SC_BYPASS_NONE,		/* every request goes through the cache */
	SC_BYPASS_FLAGGED,	/* requests with MEM_F_BYPASS pass by (an SM's L1) */
};

/* Associativity beyond the largest adaptive L1 (A100: 384 ways of 4 sets). */
#define SC_MAX_ASSOC 1024

enum sc_probe {
	SC_HIT = 0,
	SC_SECTOR_MISS,		/* the line is there, the sector is not readable */
	SC_MISS,		/* the line is not there */
};

/*
 * Geometry: two of size, sets and assoc (0: not given), the third follows:
 * sets = size / assoc / line_bytes or assoc = size / sets / line_bytes,
 * rounded down.  A new size (sc_resize) keeps sets when they were given,
 * else assoc.  With size_from_kernel, sets alone will do: the cache has no
 * lines until the first sc_resize.
 */
struct sc_config {
	uint64_t size;		/* bytes */
	uint32_t sets;
	uint32_t assoc;		/* ways per set, at most SC_MAX_ASSOC */
	bool size_from_kernel;	/* each kernel's capacity comes by sc_resize */
	uint32_t line_bytes, sector_bytes;
	enum set_index_fn index;
	bool index_on_partition;
	enum sc_replacement replacement;
	enum sc_write_hit write_hit;
	enum sc_write_miss write_miss;
	bool count_write_misses;	/* false: the reference's fix_l2 */
	/* GPGPU-Sim's write ratio: while fewer than this percentage of the
	 * lines hold a modified sector, those lines are not victims */
	uint32_t protect_dirty_pct;
	enum sc_bypass bypass;
};

/* Statistics: per kind (space x op) six counters, then the totals. */
enum sc_metric {
	SC_M_ACCESSES, SC_M_HITS, SC_M_SECTOR_MISSES, SC_M_LINE_MISSES,
	SC_M_READS_DOWN, SC_M_WRITES_DOWN, SC_N_METRICS,
};
#define SC_N_OPS 4		/* load, store, atomic, reduction */
#define SC_N_KINDS (2 * SC_N_OPS)
enum sc_stat {
	SC_S_TOTAL = SC_N_KINDS * SC_N_METRICS,	/* six totals follow, sums of the kinds */
	SC_S_EVICTIONS = SC_S_TOTAL + SC_N_METRICS,
	SC_S_WB_EVICT,
	SC_S_WB_FLUSH,
	SC_S_DIRTY_AT_END,	/* dirty sectors a kernel left (final_writeback = report) */
	SC_S_PROTECT_OVERRIDES,	/* misses whose set held only protected lines */
	SC_S_HIT_RATE,		/* a ratio slot of the component's table */
	SC_N_STATS,
};

static inline unsigned sc_stat_index(enum mem_space space, enum mem_op op,
				     enum sc_metric m)
{
	return ((space * SC_N_OPS) + (op - MEM_READ)) * SC_N_METRICS + m;
}

struct sc_cache;

/* Where the cache sends what goes to the next level. */
typedef void (*sc_emit_fn)(void *ctx, const struct mem_req *r);

/* NULL with *why when the geometry or the policies do not fit together. */
struct sc_cache *sc_new(const struct sc_config *cfg, uint64_t *stats,
			sc_emit_fn emit, void *ctx, char **why);
void sc_free(struct sc_cache *c);

/* A new capacity, keeping every other parameter and the sets when the
 * configuration gave them (else the ways); the cache is invalidated. */
bool sc_resize(struct sc_cache *c, uint64_t size, char **why);

/* The start of every cache: enough for sc_access() to be inline, so that an
 * access is one indirect call to the path compiled for the policies. */
struct sc_cache_head {
	void (*access)(struct sc_cache *c, const struct mem_req *r);
	enum sc_probe probe;	/* of the first sector of the last access */
};

/*
 * One request from above.  Returns the probe of its first sector, before
 * the access changed anything.
 */
static inline enum sc_probe sc_access(struct sc_cache *c, const struct mem_req *r)
{
	struct sc_cache_head *h = (struct sc_cache_head *)c;

	h->access(c, r);
	return h->probe;
}

/* Write back every dirty sector (write-back caches), then drop everything. */
void sc_flush(struct sc_cache *c);
void sc_invalidate(struct sc_cache *c);
/* Write back every dirty sector and keep it, clean (counted as wb_flush). */
void sc_write_back_dirty(struct sc_cache *c);
/* Valid dirty sectors in the cache. */
uint64_t sc_dirty_sectors(const struct sc_cache *c);

/* The geometry of the moment; 0 before a sized-by-kernel cache's first size. */
uint32_t sc_sets(const struct sc_cache *c);
uint32_t sc_ways(const struct sc_cache *c);
uint32_t sc_set_of(const struct sc_cache *c, uint64_t addr, uint64_t part_addr);
/* The counters, with the totals (SC_S_TOTAL...) summed from the kinds. */
const uint64_t *sc_stats(struct sc_cache *c);

/* ---- what every component built on a sector cache shares ------------------ */

enum sc_final_writeback {
	SC_FINAL_COUNT,		/* write back the dirty sectors: traffic down */
	SC_FINAL_REPORT,	/* only count them (dirty_at_kernel_end) */
	SC_FINAL_NONE,
};

/* What a kernel's end does to a cache. */
struct sc_kernel_end {
	enum sc_final_writeback final;
	bool invalidate;	/* at_kernel_end = invalidate: the next kernel starts cold */
};

void sc_end_kernel(struct sc_cache *c, const struct sc_kernel_end *end);

extern const char *const sc_index_names[], *const sc_index_on_names[],
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
	{ "index", SS_P_ENUM, "linear", "set-index function: fib_double (the reference's float hash), linear, xor, ipoly (16/32/64 sets), fermi", sc_index_names, 0, 0, 0 }, \
	{ "index_on", SS_P_ENUM, "address", "hash the request's address, or the partition address an L2 router attaches", sc_index_on_names, 0, 0, 0 }, \
	{ "replacement", SS_P_ENUM, "lru", "victim: least recently touched line, or oldest allocation", sc_replacement_names, 0, 0, 0 }, \
	{ "write_hit", SS_P_ENUM, "write_back", "write_back keeps dirty sectors until eviction or flush; write_through forwards every write", sc_write_hit_names, 0, 0, 0 }, \
	{ "write_miss", SS_P_ENUM, "allocate", "allocate (valid without fetch), no_allocate (forward), lazy_fetch (write-validate with byte masks), fetch (read then merge)", sc_write_miss_names, 0, 0, 0 }, \
	{ "count_write_misses", SS_P_BOOL, "true", "false: store misses are not counted as misses (the reference's fix_l2)", NULL, 0, 0, 0 }, \
	{ "final_writeback", SS_P_ENUM, "count", "at a kernel's end, dirty sectors are written back (count: traffic to the next level), only counted as dirty_at_kernel_end (report), or neither (none)", sc_final_writeback_names, 0, 0, 0 }, \
	{ "at_kernel_end", SS_P_ENUM, "invalidate", "after a kernel's end the cache is invalidated (the next kernel starts cold) or keeps its lines", sc_at_kernel_end_names, 0, 0, 0 }, \
	{ "protect_dirty_pct", SS_P_UINT, "0", "lines holding a modified sector are not evicted while they are fewer than this percentage of all lines (GPGPU-Sim's write ratio; a set holding only such lines evicts its LRU line and counts protect_overrides); 0: off", NULL, 0, 100, 0 }

/* The statistic rows, in the layout of enum sc_stat. */
#define SC_KIND_STATS(k, what) \
	{ k "_accesses", SS_STAT_COUNTER, "sector accesses by " what, NULL, NULL }, \
	{ k "_hits", SS_STAT_COUNTER, "hits by " what, NULL, NULL }, \
	{ k "_sector_misses", SS_STAT_COUNTER, "sector misses (line present) by " what, NULL, NULL }, \
	{ k "_line_misses", SS_STAT_COUNTER, "line misses by " what, NULL, NULL }, \
	{ k "_reads_down", SS_STAT_COUNTER, "sector reads sent to the next level for " what " (fetches, and bypassing requests other than writes)", NULL, NULL }, \
	{ k "_writes_down", SS_STAT_COUNTER, "sector writes sent to the next level for " what " (write-through, no-allocate, bypassing writes)", NULL, NULL }
#define SC_STAT_ROWS \
	SC_KIND_STATS("global_load", "global loads"), \
	SC_KIND_STATS("global_store", "global stores"), \
	SC_KIND_STATS("global_atomic", "global atomics"), \
	SC_KIND_STATS("global_reduction", "global reductions"), \
	SC_KIND_STATS("local_load", "local loads"), \
	SC_KIND_STATS("local_store", "local stores"), \
	SC_KIND_STATS("local_atomic", "local atomics"), \
	SC_KIND_STATS("local_reduction", "local reductions"), \
	{ "accesses", SS_STAT_SUM, "sector accesses", "*_accesses", NULL }, \
	{ "hits", SS_STAT_SUM, "hits", "*_hits", NULL }, \
	{ "sector_misses", SS_STAT_SUM, "sector misses (line present, sector not readable)", "*_sector_misses", NULL }, \
	{ "line_misses", SS_STAT_SUM, "line misses", "*_line_misses", NULL }, \
	{ "reads_down", SS_STAT_SUM, "sector reads sent to the next level", "*_reads_down", NULL }, \
	{ "writes_down", SS_STAT_SUM, "sector writes sent to the next level, write-backs included", "*_writes_down wb_evict wb_flush", NULL }, \
	{ "evictions", SS_STAT_COUNTER, "lines evicted to make room", NULL, NULL }, \
	{ "wb_evict", SS_STAT_COUNTER, "dirty sectors written back on eviction", NULL, NULL }, \
	{ "wb_flush", SS_STAT_COUNTER, "dirty sectors written back by a flush or a kernel's end", NULL, NULL }, \
	{ "dirty_at_kernel_end", SS_STAT_COUNTER, "dirty sectors left at a kernel's end (final_writeback = report; none in a write-through cache)", NULL, NULL }, \
	{ "protect_overrides", SS_STAT_COUNTER, "line misses whose set held only lines protected by protect_dirty_pct: the LRU line went all the same", NULL, NULL }, \
	{ "hit_rate", SS_STAT_RATIO, "hits / accesses", "hits", "accesses" }

struct ss_params;
bool sc_config_from_params(const struct ss_params *p, struct sc_config *cfg,
			   struct sc_kernel_end *end, GError **err);

#endif
