/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sector cache model without the framework around it, so that unit
 * tests, golden streams and benchmarks drive it directly.  The
 * `sector_cache` component (sector_cache.c) wraps it behind two ports.
 */
#ifndef SS_SECTOR_CACHE_H
#define SS_SECTOR_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <sectorsim/protocols/mem.h>
#include "setindex.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/*
 * Asked before a cache's tables are allocated or replaced (sc_new,
 * sc_resize): `tables` is what they all take (the lines' records are
 * touched only as lines are used), `new_resident` what the cache touches
 * whatever its accesses (a record per set, walked at every kernel's end),
 * `old_resident` that of the tables it has now (0: none).  False, with
 * *why, refuses them, and the cache stays as it was.  Told too when tables
 * go (tables and new_resident 0; the answer is ignored).  So a caller can
 * bound each cache and keep one account of the resident bytes of many.
 */
typedef bool (*sc_memory_fn)(void *ctx, uint64_t old_resident,
			     uint64_t new_resident, uint64_t tables, char **why);

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
	/*
	 * Requests of this many SMs (r->sm below it) come interleaved, as
	 * to an L2 after a round-robin merge: the cache remembers each one's
	 * last line and where it was, which spares most lookups when an SM
	 * asks for the sectors of one line in turn.  0: not remembered.
	 */
	uint32_t sm_memos;
	sc_memory_fn memory;	/* optional: NULL, no account */
	void *memory_ctx;
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

/*
 * The requests of a run (mem.h), in order, as sc_access() one by one.
 * What the cache sends down as it came, the very request unchanged (a
 * write written through, a read that misses a sector of its size, a
 * request that passes by), joins `out` directly as the entry it was,
 * when out already holds requests of the run's SM and size and has
 * room; everything else goes to the cache's emit, which must add it to
 * `out` or send out before anything else, so that the order down stays
 * the order sent.  out: NULL, everything through emit.
 */
void sc_access_run(struct sc_cache *c, const struct mem_run *run,
		   struct mem_run *out);

/*
 * The requests the round-robin merge m gives (rr_merge_next), in order,
 * until it gives none, each served as sc_access() would serve it, in one
 * loop compiled for the cache's policies that takes them from the merge
 * inline (a plain cache; any other takes sc_access() per request): the
 * drain (rr_merge_set_drain) of an L2 fed by a merge.  What the cache
 * sends down may lead, through a loop in the graph, to more sc_access()
 * calls meanwhile.  With `tally` (not NULL), what it sends down is
 * counted there instead (mem.h; for a level below that only counts),
 * the reads, writes, atomics and reductions; anything else still goes
 * to emit, which must send the tally first.  With a tally nothing it
 * sends may come back to m during the call (the level below counts and
 * answers nothing), so the loop takes whole rounds (rr_merge_impl.h).
 */
struct rr_merge;
void sc_access_merged(struct sc_cache *c, struct rr_merge *m,
		      struct mem_tally *tally);

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
/* Whether c's access loops are compiled for its geometry (the reference's
 * L1 and L2 ones, with the numbers as constants), else they read them. */
bool sc_geometry_compiled(const struct sc_cache *c);
/* The counters, with the totals (SC_S_TOTAL...) summed from the kinds. */
const uint64_t *sc_stats(struct sc_cache *c);
/* Those totals of a table of counters (SC_N_STATS), summed in place. */
void sc_sum_totals(uint64_t *st);

/* ---- timing mode: an access split into its look-up and its effect ---------- */

/*
 * A cache in timing mode decides hit or miss when a request arrives, but
 * a miss changes the cache only when its data comes back.  These split
 * sc_access() accordingly; the functional path does not use them.  They
 * take requests that lie within one sector of this cache.
 */

/* What the request would find (its sector), changing nothing. */
enum sc_probe sc_probe(struct sc_cache *c, const struct mem_req *r);
/* Count r as sc_access() would have, given its probe; `fetch`: a read of
 * the sector is sent down for it. */
void sc_count_issue(struct sc_cache *c, const struct mem_req *r,
		    enum sc_probe p, bool fetch);
/* Count r as an access only (a latency miss, which the caller counts). */
void sc_count_access(struct sc_cache *c, const struct mem_req *r);
/*
 * The effect of r now that its data is there: what sc_access() would do
 * to the lines (allocation, victim, valid, dirty and recency bits, the
 * victim's write-backs, sent and counted), with nothing else counted and
 * no read sent down.
 */
void sc_apply(struct sc_cache *c, const struct mem_req *r);
/* Start loading what an access of r will read (the set of its line). */
void sc_prefetch(const struct sc_cache *c, const struct mem_req *r);
/* The read this cache sends down for r's sector: r itself or *out. */
const struct mem_req *sc_fetch_of(struct sc_cache *c, const struct mem_req *r,
				  struct mem_req *out);
/* The line number of addr, and the bit of its sector in the line. */
uint64_t sc_line_of(const struct sc_cache *c, uint64_t addr);
uint32_t sc_sector_bit(const struct sc_cache *c, uint64_t addr);
/* The bytes of a sector of this cache. */
uint32_t sc_sector_bytes(const struct sc_cache *c);
/* Whether requests flagged MEM_F_BYPASS pass by (bypass = flagged). */
bool sc_bypasses(const struct sc_cache *c);

/* ---- one set's state (time-parallel simulation, models/sc_timepar.h) ----- */

/*
 * A set's whole state as bytes: its lines, their sectors, their order of
 * recency (or age) and which way holds which line.  Sets are independent
 * unless protect_dirty_pct counts modified lines over the whole cache.
 */
size_t sc_set_state_bytes(const struct sc_cache *c);
void sc_set_save(struct sc_cache *c, uint32_t set, void *state);
void sc_set_load(struct sc_cache *c, uint32_t set, const void *state);
/*
 * Whether a and b hold the same lines with the same sectors in the same
 * order, whatever ways hold them; then map[w] is the way of b holding
 * what way w of a holds.  Two such sets answer every access alike, and
 * stay alike, with their ways so renumbered.  (The bytes written to a
 * sector already readable, which nothing reads, are not compared.)
 */
bool sc_set_state_match(const struct sc_cache *c, const void *a, const void *b,
			uint16_t *map);
/* sc_set_state_match() of set `set` of two caches of one geometry, as
 * they are. */
bool sc_sets_match(struct sc_cache *a, struct sc_cache *b, uint32_t set,
		   uint16_t *map);
/* `from` with way w renumbered map[w], into `to`. */
void sc_set_state_renumber(const struct sc_cache *c, const void *from,
			   const uint16_t *map, void *to);
const struct sc_config *sc_config_of(const struct sc_cache *c);
/* Add the counts of `add` and take those of `sub` (NULL: none) from c's
 * counters, the totals aside: counts another cache made for c. */
void sc_add_counts(struct sc_cache *c, const uint64_t *add, const uint64_t *sub);

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

#ifdef __cplusplus
}
#endif

#endif
