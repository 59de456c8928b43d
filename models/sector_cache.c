/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sector_cache: a functional (hit/miss exact, no timing) set-associative
 * cache whose lines are split into sectors with their own valid, dirty and
 * readable bits.  One type serves as the L1 of an SM and as an L2 slice;
 * only parameters and wiring differ.  Two state machines: write_miss =
 * allocate / no_allocate is the reference's LRUCache (a probe does not
 * touch the LRU order on a sector miss; an allocation overwrites the
 * sector's dirty bit, so a write-through write leaves it clean; a write
 * miss under allocate fetches nothing); write_miss = lazy_fetch is
 * GPGPU-Sim's sector cache made functional (a write miss fetches nothing
 * and the sector is readable only once written bytes cover it, a later
 * read of it fetching the sector), with its dirty-line protection,
 * read-modify-writes for atomics and reductions, and the L1's bypass of
 * flagged requests.  doc/INTERNALS.md, section 9, walks through the code.
 *
 * Layout, chosen by the benchmark: ways are numbered set * assoc + way.
 * Each set has one block of its own: 16-bit fingerprints of the line
 * numbers of its ways, then its recency list.  A lookup compares the
 * fingerprints 16 ways per pair of SSE2 compares (a 32-way set's
 * fingerprints are one 64-byte CPU line, its list the next one) and reads
 * a way's record (tag, valid and dirty bits) only on a fingerprint match.
 * The recency list is circular and doubly linked (the paper's O(1) LRU):
 * the victim is the one before the head, and making it the newest line is
 * a move of the head.  FIFO keeps the list in allocation order instead.
 * Its links are bytes up to 256 ways and 16-bit words beyond (an adaptive
 * L1 of 4 sets has up to 384 ways), chosen when the geometry is set, so
 * that the common caches keep a 32-way set's links in one CPU line.
 * An empty set is a full list of empty ways (no valid sector,
 * fingerprint 0, which no line has), so an allocation always takes the
 * way before the head with no test of whether the set is full: empty ways
 * stay behind every line until they are taken.  Invalidation starts a new
 * epoch, and a set of an old epoch is emptied when next looked up, so a
 * kernel boundary costs nothing for the sets nobody touches.  The last line looked up
 * is remembered, so the 4 sectors of a line cost one lookup.  A cache that
 * serves SMs in turn (sm_memos: an L2 behind a round-robin merge) also
 * remembers each SM's last line and its way: with titanv-ref's L2, 29 % of
 * lookups take that way instead.  That saves no instructions (every
 * lookup pays the check) but 5 % of the run's time on two threads, the
 * set's fingerprints and index unread.  Nothing is
 * allocated per access.
 *
 * The access path of a 32-byte request is compiled once per combination
 * of write_hit and write_miss, per direction and per extension (line_hit()
 * and line_miss() with constant policies, see SC_ACCESS_FN), and sc_new()
 * picks one, so the policies cost no branch per access.  The extended
 * paths count the lines holding a modified sector (protect_dirty_pct) and
 * take links of either width; the plain ones, which every reference
 * cache uses, do neither.  The state changes
 * of an access come before its requests down, so that little is live
 * across the calls; what is emitted, and in which order, is the reference's.
 * Requests of other sizes take the same functions with the policies read
 * at run time.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "prefetch.h"
#include "rr_merge_impl.h"
#include "sector_cache.h"
#include "sc_req.h"

#define CPU_LINE 64

#define noinline __attribute__((noinline))
#define always_inline inline __attribute__((always_inline))

/*
 * What a hit or an eviction reads of one way: 16 bytes, so a record never
 * straddles CPU lines.  The readable bits are only kept apart from the
 * valid ones by lazy_fetch (c->readable); every other policy makes a valid
 * sector readable at once.
 */
struct sc_way {
	uint64_t tag;			/* the line number */
	uint32_t valid, dirty;		/* sector bit masks */
};

struct sc_set {
	uint32_t epoch;			/* the set is valid in this epoch only */
	uint16_t head;			/* most recent (LRU) or newest (FIFO) */
	/*
	 * protect_dirty_pct: 1 + a way where protected_victim()'s walk may
	 * start, every way from the least recent one up to it holding a
	 * modified sector; 0: none, the walk starts at the least recent.
	 * Those ways only leave the run (moved to the front, evicted), so
	 * it holds until the way itself moves or a way in it becomes clean.
	 */
	uint16_t walk_from;
};

typedef void (*sc_access_fn)(struct sc_cache *c, const struct mem_req *r);
/* A run's entries (sc_access_run), q holding its first request. */
typedef void (*sc_run_fn)(struct sc_cache *c, const struct mem_run *run,
			  struct mem_req *q);
/* sc_access_merged() of the policies. */
typedef void (*sc_merged_fn)(struct sc_cache *c, struct rr_merge *m);

/*
 * An SM's last line (cfg.sm_memos): the way that held it, good while
 * that way still holds it and nothing rewrote the ways wholesale since
 * (gen).  Within a generation a way's tag changes only when a line takes
 * the way, with its fingerprint, so a way whose tag is the line is where
 * a lookup would find it.
 */
struct sc_sm_memo {
	uint64_t line;
	uint32_t set, way;	/* way: of the whole cache */
	uint32_t gen;
};

/* The geometries the access loops are compiled for (sc_geoms[] below). */
enum sc_geo { SC_GEO_ANY, SC_GEO_4WAY, SC_GEO_32WAY, SC_N_GEOS };

struct sc_cache {
	/* what every access reads, together */
	struct sc_cache_head head;	/* first: sc_access() reads it */
	uint64_t *st;
	uint64_t memo_line;		/* the last line found, UINT64_MAX: none */
	size_t memo_way;
	unsigned line_shift, sector_shift;
	uint32_t sector_idx_mask;	/* sectors per line - 1 */
	uint32_t nsets, assoc;
	uint64_t sector_addr_mask;	/* clears the offset within a sector */
	bool fib_on_addr;		/* index fib_double of the address */
	bool atom_sectors;		/* sector_bytes = MEM_ATOM */
	uint8_t *blocks;		/* per set: fingerprints, next, prev */
	size_t block_bytes;
	uint32_t fp_lanes;		/* fingerprints per block: 8 or 16k */
	enum sc_geo geo;		/* what the loops are compiled for */
	bool wide_links;		/* next and prev are uint16_t, else uint8_t */
	/* the access path counts modified lines (protect_dirty_pct) and
	 * reads links of either width; without these (every reference
	 * cache) it is as short as before they existed */
	bool extended;
	struct sc_set *sets;
	struct sc_way *ways;
	uint32_t epoch;			/* sets of older epochs are empty */
	sc_emit_fn emit;
	void *ctx;
	/* sc_access_merged() with a tally: what goes down is counted there
	 * instead of emitted (NULL: emitted) */
	struct mem_tally *tally;
	/*
	 * sc_access_run(): the request being served (`pass`), the run's
	 * entry it came as, and the run what goes down joins (NULL: none).
	 * What the cache sends down as it came is that request, which joins
	 * `pass_out` as the entry it was (see emit_req()).  Beside emit,
	 * which every request down reads with them.
	 */
	const struct mem_req *pass;
	const struct mem_run_entry *pass_entry;
	struct mem_run *pass_out;
	/* pass_out holds requests of pass's SM and size, one at least: true
	 * once seen so, false once anything goes down through emit, which
	 * may send that run and start another (emit_req()'s short test) */
	bool pass_fits;
	struct sc_config cfg;

	uint32_t *readable;		/* lazy_fetch: readable sectors per way */
	uint64_t *bytes;		/* lazy_fetch: written bytes, line_bytes bits per way */
	unsigned mask_words;		/* 64-bit words of `bytes` per way */
	uint32_t sectors;		/* per line */
	unsigned set_shift;
	/* lines holding a modified sector, for protect_dirty_pct */
	uint64_t modified_lines;
	/* protect_dirty_pct x lines: a modified line is no victim while
	 * 100 x modified_lines is below it (0: never) */
	uint64_t protect_limit;
	/* the access path of the policies, behind a bypass or a missing size */
	sc_access_fn policy_access;
	/* sc_access_run()'s loop of the policies for runs of 32-byte
	 * requests, NULL where it takes the access path per request */
	sc_run_fn run_access;
	/* sc_access_merged()'s loop of the policies, NULL where it takes
	 * the access path per request */
	sc_merged_fn merged_access;
	uint64_t own_stats[SC_N_STATS];
	/* what goes down when the request being served cannot: here rather
	 * than on the stack, so that sending it can end an access (a tail
	 * call); the next level is done with it when emit returns */
	struct mem_req down;
	uint64_t resident_bytes;	/* of sets[]: sc_memory_fn's new_resident */
	/* sc_apply(): the emit and ctx the access's write-backs go to, and
	 * where its counts go (only the kept ones are read, then zeroed) */
	sc_emit_fn applying_emit;
	void *applying_ctx;
	uint64_t applying_st[SC_N_STATS];
	/*
	 * index = ipoly: set_index_ipoly_tables(), three lookups instead of
	 * a parity per set bit (shared by every cache of its size: a copy
	 * per cache made the 48 slices of a TITAN V's L2 slower on a thread
	 * of their own); NULL: not used
	 */
	const uint8_t (*ipoly_xor)[128];
	/* cfg.sm_memos of them when the set of a line is its address's;
	 * NULL: none.  sm_memo_gen counts the wholesale rewrites. */
	struct sc_sm_memo *sm_memo;
	uint32_t sm_memo_gen;
};

G_STATIC_ASSERT(offsetof(struct sc_cache, head) == 0);

/*
 * The geometries whose access loops are compiled with their numbers as
 * constants: 128-byte lines of four 32-byte sectors, the reference's
 * index of the address, and 4 ways (an L1) or 32 (an L2), each set's
 * block of fingerprints and byte links as configure() lays it out.
 * Shifts, masks and multiplies by constants instead of loads from the
 * cache, and the set index without its choice of function, take 7.7 %
 * and 8.0 % of the instructions away from titanv-ref's streaming and
 * gathering kernels of the full benchmark app (each run alone, one
 * thread).  SC_GEO_ANY reads them from the cache, for every other
 * geometry.  The helpers of the access path take the geometry as a
 * constant G, and GEO() is the field.
 */
static const struct sc_geom {
	unsigned line_shift, sector_shift;
	uint32_t sector_idx_mask, assoc, fp_lanes;
	size_t block_bytes;
} sc_geoms[SC_N_GEOS] = {
	[SC_GEO_4WAY] = { 7, 5, 3, 4, 8, 32 },
	[SC_GEO_32WAY] = { 7, 5, 3, 32, 32, 128 },
};

#define GEO(c, G, field) ((G) == SC_GEO_ANY ? (c)->field : sc_geoms[G].field)

/* The geometry c's loops are compiled for (after configure()). */
static enum sc_geo geo_of(const struct sc_cache *c)
{
	if (!c->fib_on_addr || c->ipoly_xor || c->extended || !c->atom_sectors)
		return SC_GEO_ANY;
	for (int g = SC_GEO_ANY + 1; g < SC_N_GEOS; g++)
		if (c->line_shift == sc_geoms[g].line_shift &&
		    c->sector_shift == sc_geoms[g].sector_shift &&
		    c->sector_idx_mask == sc_geoms[g].sector_idx_mask &&
		    c->assoc == sc_geoms[g].assoc &&
		    c->fp_lanes == sc_geoms[g].fp_lanes &&
		    c->block_bytes == sc_geoms[g].block_bytes)
			return (enum sc_geo)g;
	return SC_GEO_ANY;
}

static inline uint16_t fingerprint(uint64_t line)
{
	/*
	 * Not the golden ratio: fib_double puts lines whose products with
	 * it have the same leading bits in the same set, so those bits would
	 * tell nothing apart in a set and every lookup would read tags.
	 * Never 0, so a fingerprint compare cannot match an unused way.
	 */
	return (uint16_t)((line * UINT64_C(0xff51afd7ed558ccd)) >> 48) | 1;
}

/* The block of a set: fp_lanes fingerprints, then assoc `next` and assoc
 * `prev` in-set indices (links, of 1 or 2 bytes). */
static always_inline uint16_t *set_fp_g(const struct sc_cache *c, size_t set,
					enum sc_geo G)
{
	return (uint16_t *)(c->blocks + set * GEO(c, G, block_bytes));
}

static always_inline uint8_t *set_next_g(const struct sc_cache *c, size_t set,
					 enum sc_geo G)
{
	return c->blocks + set * GEO(c, G, block_bytes) + 2 * GEO(c, G, fp_lanes);
}

static always_inline uint8_t *set_prev_g(const struct sc_cache *c, size_t set,
					 bool wide, enum sc_geo G)
{
	return set_next_g(c, set, G) + ((size_t)GEO(c, G, assoc) << wide);
}

static inline uint16_t *set_fp(const struct sc_cache *c, size_t set)
{
	return set_fp_g(c, set, SC_GEO_ANY);
}

static inline uint8_t *set_next(const struct sc_cache *c, size_t set)
{
	return set_next_g(c, set, SC_GEO_ANY);
}

static inline uint8_t *set_prev(const struct sc_cache *c, size_t set, bool wide)
{
	return set_prev_g(c, set, wide, SC_GEO_ANY);
}

/* Link i of a next or prev array; `wide` is a constant where it matters. */
static always_inline unsigned link_get(const uint8_t *links, unsigned i,
				       bool wide)
{
	return wide ? ((const uint16_t *)links)[i] : links[i];
}

static always_inline void link_set(uint8_t *links, unsigned i, unsigned to,
				   bool wide)
{
	if (wide)
		((uint16_t *)links)[i] = to;
	else
		links[i] = to;
}

static unsigned log2u(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

static void free_arrays(struct sc_cache *c)
{
	free(c->blocks);
	g_free(c->sets);
	g_free(c->ways);
	g_free(c->readable);
	g_free(c->bytes);
	g_free(c->sm_memo);
	c->sm_memo = NULL;
}

/* Every SM's remembered line is stale: a new generation. */
static void sm_memo_forget(struct sc_cache *c)
{
	if (c->sm_memo && ++c->sm_memo_gen == 0) {
		/* after 2^32 generations, no entry may look current */
		memset(c->sm_memo, 0, c->cfg.sm_memos * sizeof(*c->sm_memo));
		c->sm_memo_gen = 1;
	}
}

/*
 * Invalidation is a new epoch: a set is emptied when it is next looked up
 * (empty_set()), so that a kernel boundary costs nothing for the sets no
 * kernel touches, which with 80 L1s and a 40 MiB L2 is most of them.
 */
void sc_invalidate(struct sc_cache *c)
{
	if (++c->epoch == 0) {
		/* after 2^32 invalidations, make every set's epoch old again */
		for (size_t set = 0; set < c->nsets; set++)
			c->sets[set].epoch = 0;
		c->epoch = 1;
	}
	c->memo_line = UINT64_MAX;
	c->modified_lines = 0;
	sm_memo_forget(c);
}

/* An empty set of this epoch: every way empty (no valid sector, fingerprint
 * 0), in a circle, head 0. */
static noinline void empty_set(struct sc_cache *c, size_t set)
{
	uint32_t a = c->assoc;
	bool wide = c->wide_links;
	uint8_t *next = set_next(c, set), *prev = set_prev(c, set, wide);

	memset(set_fp(c, set), 0, 2 * c->fp_lanes);
	memset(&c->ways[set * a], 0, a * sizeof(*c->ways));
	for (uint32_t w = 0; w < a; w++) {
		link_set(next, w, w + 1 == a ? 0 : w + 1, wide);
		link_set(prev, w, w == 0 ? a - 1 : w - 1, wide);
	}
	c->sets[set].head = 0;
	c->sets[set].walk_from = 0;
	c->sets[set].epoch = c->epoch;
}

static inline bool set_live(const struct sc_cache *c, size_t set)
{
	return c->sets[set].epoch == c->epoch;
}

static sc_access_fn pick_access(const struct sc_config *cfg, bool extended,
				enum sc_geo geo);
static void pick_loops(const struct sc_config *cfg, bool extended, enum sc_geo geo,
		       sc_run_fn *run, sc_merged_fn *merged);
static void access_flagged(struct sc_cache *c, const struct mem_req *r);
static void access_unsized(struct sc_cache *c, const struct mem_req *r);

/*
 * Sets and ways for a capacity of `size` bytes (0: sets x assoc as the
 * configuration gave them): the sets stay when the configuration gave
 * them, else the ways.  Rounded down, as the reference: 4.5 MiB / 32 /
 * 128 = 1152 sets.
 */
static bool derive_geometry(const struct sc_config *cfg, uint64_t size,
			    uint32_t *nsets, uint32_t *assoc, char **why)
{
	uint64_t lines = size / cfg->line_bytes, n;

	if (!size) {
		*nsets = cfg->sets;
		*assoc = cfg->assoc;
		return true;
	}
	if (cfg->sets) {
		n = lines / cfg->sets;
		if (!n || n > SC_MAX_ASSOC) {
			*why = g_strdup_printf("%" G_GUINT64_FORMAT " bytes in %u sets of %u-byte lines make %" G_GUINT64_FORMAT " ways; expected 1 to %u",
					       size, cfg->sets, cfg->line_bytes, n, SC_MAX_ASSOC);
			return false;
		}
		*nsets = cfg->sets;
		*assoc = n;
		return true;
	}
	if (cfg->assoc > lines) {
		*why = g_strdup_printf("assoc %u is larger than the %" G_GUINT64_FORMAT " lines of %" G_GUINT64_FORMAT " bytes",
				       cfg->assoc, lines, size);
		return false;
	}
	n = lines / cfg->assoc;
	if (n > UINT32_MAX) {
		*why = g_strdup_printf("%" G_GUINT64_FORMAT " sets; at most %u", n, UINT32_MAX);
		return false;
	}
	*nsets = n;
	*assoc = cfg->assoc;
	return true;
}

/* Which of size, sets and assoc the configuration gave: two of them, or
 * sets alone when each kernel brings the size. */
static bool check_dimensions(const struct sc_config *cfg, char **why)
{
	if (cfg->size && cfg->sets && cfg->assoc)
		*why = g_strdup("size, sets and assoc: give two of them, not all three (the third follows)");
	else if (cfg->assoc && !cfg->size && !cfg->sets)
		*why = g_strdup_printf("give either size or sets as well as assoc %u", cfg->assoc);
	else if (!cfg->assoc && !cfg->sets)
		*why = g_strdup("assoc is not given and cannot be derived: expected two of size, sets and assoc");
	else if (!cfg->assoc && !cfg->size && !cfg->size_from_kernel)
		*why = g_strdup_printf("assoc is not given and cannot be derived from sets %u alone: expected assoc, size (assoc = size / sets / line_bytes) or size_from_kernel = true",
				       cfg->sets);
	return !*why;
}

/* Whether the lines, sectors and percentages of cfg make sense. */
static bool check_lines(const struct sc_config *cfg, char **why)
{
	if (!cfg->line_bytes || !cfg->sector_bytes) {
		*why = g_strdup("line_bytes and sector_bytes must not be zero");
		return false;
	}
	if (!pow2(cfg->line_bytes) || !pow2(cfg->sector_bytes) ||
	    cfg->sector_bytes < MEM_ATOM || cfg->line_bytes % cfg->sector_bytes) {
		*why = g_strdup_printf("sector_bytes %u must be a power of two of at least %u bytes that divides line_bytes %u (a power of two)",
				       cfg->sector_bytes, MEM_ATOM, cfg->line_bytes);
		return false;
	}
	if (cfg->line_bytes / cfg->sector_bytes > 32) {
		*why = g_strdup_printf("%u sectors per line; at most 32",
				       cfg->line_bytes / cfg->sector_bytes);
		return false;
	}
	if (cfg->protect_dirty_pct > 100) {
		*why = g_strdup_printf("protect_dirty_pct %u: expected a percentage from 0 to 100",
				       cfg->protect_dirty_pct);
		return false;
	}
	return true;
}

/* Whether nsets x assoc make a cache of cfg's lines and index. */
static bool check_geometry(const struct sc_config *cfg, uint32_t nsets,
			   uint32_t assoc, char **why)
{
	const char *bad;

	if (!assoc || !nsets) {
		*why = g_strdup_printf("%u sets of %u ways: neither must be zero", nsets, assoc);
		return false;
	}
	if (assoc > SC_MAX_ASSOC) {
		*why = g_strdup_printf("assoc %u: at most %u ways", assoc, SC_MAX_ASSOC);
		return false;
	}
	if ((uint64_t)nsets * assoc > (UINT64_C(1) << 32)) {
		*why = g_strdup("more than 2^32 lines");
		return false;
	}
	bad = set_index_check(cfg->index, nsets, cfg->line_bytes);
	if (bad) {
		*why = g_strdup_printf("%u sets: this index function %s", nsets, bad);
		return false;
	}
	return true;
}

/*
 * The tables of a geometry, allocated whole or not at all.  A size comes
 * from the user (a parameter, or a kernel's L1), so running out of memory
 * here is an error to report, not an abort: the config's memory account
 * (sc_memory_fn) may refuse the bytes first, and an allocation that fails
 * anyway is refused with the bytes asked for.
 */
struct sc_tables {
	void *blocks;
	struct sc_set *sets;
	struct sc_way *ways;
	uint32_t *readable;
	uint64_t *bytes;
	struct sc_sm_memo *sm_memo;	/* NULL unless sm_memos applies */
};

/* Whether the cache keeps cfg->sm_memos: an SM's line is looked up in the
 * set of its address only when the index reads nothing else
 * (index_on_partition reads part_addr). */
static bool keeps_sm_memos(const struct sc_config *cfg)
{
	return cfg->sm_memos && !cfg->index_on_partition;
}

static bool alloc_tables(struct sc_tables *t, const struct sc_config *cfg,
			 uint32_t nsets, uint32_t assoc, size_t block_bytes,
			 uint32_t mask_words, uint64_t old_resident, char **why)
{
	uint64_t n = (uint64_t)nsets * assoc;
	bool lazy = cfg->write_miss == SC_LAZY_FETCH;
	/* at most 2^32 lines (check_geometry), so no product overflows */
	uint64_t total = (uint64_t)nsets * block_bytes +
			 (uint64_t)nsets * sizeof(struct sc_set) +
			 n * sizeof(struct sc_way) +
			 (lazy ? n * sizeof(uint32_t) + n * mask_words * sizeof(uint64_t) : 0) +
			 (keeps_sm_memos(cfg) ? cfg->sm_memos * sizeof(struct sc_sm_memo) : 0);
	uint64_t resident = (uint64_t)nsets * sizeof(struct sc_set);

	memset(t, 0, sizeof(*t));
	if (cfg->memory) {
		char *no = NULL;

		if (!cfg->memory(cfg->memory_ctx, old_resident, resident, total, &no)) {
			*why = g_strdup_printf("%u sets of %u ways (%" G_GUINT64_FORMAT " bytes): %s",
					       nsets, assoc, n * cfg->line_bytes,
					       no ? no : "its tables are refused");
			g_free(no);
			return false;
		}
	}
	if (total > SIZE_MAX || posix_memalign(&t->blocks, CPU_LINE, (size_t)nsets * block_bytes))
		t->blocks = NULL;
	if (t->blocks) {
		t->sets = g_try_new0(struct sc_set, nsets);
		t->ways = g_try_new(struct sc_way, n);
		if (lazy) {
			t->readable = g_try_new0(uint32_t, n);
			t->bytes = g_try_new0(uint64_t, n * mask_words);
		}
		if (keeps_sm_memos(cfg))
			t->sm_memo = g_try_new0(struct sc_sm_memo, cfg->sm_memos);
	}
	if (!t->blocks || !t->sets || !t->ways ||
	    (lazy && (!t->readable || !t->bytes)) ||
	    (keeps_sm_memos(cfg) && !t->sm_memo)) {
		free(t->blocks);
		g_free(t->sets);
		g_free(t->ways);
		g_free(t->readable);
		g_free(t->bytes);
		g_free(t->sm_memo);
		memset(t, 0, sizeof(*t));
		if (cfg->memory) {
			char *ignored = NULL;

			/* back to the tables the cache keeps */
			cfg->memory(cfg->memory_ctx, resident, old_resident, 0, &ignored);
			g_free(ignored);
		}
		*why = g_strdup_printf("%u sets of %u ways (%" G_GUINT64_FORMAT " bytes): out of memory allocating the cache's %" G_GUINT64_FORMAT " bytes of tables",
				       nsets, assoc, n * cfg->line_bytes, total);
		return false;
	}
	return true;
}

/* Check the geometry of cfg at `size` bytes (see derive_geometry()) and
 * size the arrays; on failure the cache is left as it was. */
static bool configure(struct sc_cache *c, const struct sc_config *cfg,
		      uint64_t size, char **why)
{
	uint32_t nsets, assoc, lanes;
	size_t block_bytes;
	struct sc_tables t;

	*why = NULL;
	if (!derive_geometry(cfg, size, &nsets, &assoc, why) ||
	    !check_geometry(cfg, nsets, assoc, why))
		return false;
	/* the compares take 16 fingerprints, or 8 for a small set; a set's
	 * block holds its fingerprints and its links (16-bit above 256 ways) */
	lanes = assoc <= 8 ? 8 : round_up(assoc, 16);
	block_bytes = round_up(2 * lanes + ((2 * assoc) << (assoc > 256)), 16);
	if (!alloc_tables(&t, cfg, nsets, assoc, block_bytes,
			  (cfg->line_bytes + 63) / 64, c->resident_bytes, why))
		return false;
	c->resident_bytes = (uint64_t)nsets * sizeof(struct sc_set);
	c->cfg = *cfg;
	c->nsets = nsets;
	c->assoc = assoc;
	c->wide_links = assoc > 256;
	c->protect_limit = (uint64_t)cfg->protect_dirty_pct * nsets * assoc;
	c->extended = c->wide_links || c->protect_limit;
	c->sectors = cfg->line_bytes / cfg->sector_bytes;
	c->line_shift = log2u(cfg->line_bytes);
	c->sector_shift = log2u(cfg->sector_bytes);
	c->sector_addr_mask = ~(uint64_t)(cfg->sector_bytes - 1);
	c->sector_idx_mask = c->sectors - 1;
	c->set_shift = pow2(c->nsets) ? log2u(c->nsets) : 0;
	c->fib_on_addr = cfg->index == SET_INDEX_FIB_DOUBLE && !cfg->index_on_partition;
	c->ipoly_xor = cfg->index == SET_INDEX_IPOLY ? set_index_ipoly_tables(c->nsets) : NULL;
	c->atom_sectors = cfg->sector_bytes == MEM_ATOM;
	c->mask_words = (cfg->line_bytes + 63) / 64;
	c->fp_lanes = lanes;
	c->block_bytes = block_bytes;
	c->geo = geo_of(c);
	c->policy_access = pick_access(cfg, c->extended, c->geo);
	pick_loops(cfg, c->extended, c->geo, &c->run_access, &c->merged_access);
	c->head.access = cfg->bypass == SC_BYPASS_FLAGGED ? access_flagged
							   : c->policy_access;

	free_arrays(c);
	/* a 32-way set's fingerprints fill one CPU line, not two;
	 * epoch 0 everywhere: every set is emptied on first use */
	c->blocks = t.blocks;
	c->sets = t.sets;
	c->ways = t.ways;
	c->readable = t.readable;
	c->bytes = t.bytes;
	c->epoch = 0;
	c->sm_memo = t.sm_memo;
	c->sm_memo_gen = 1;
	sc_invalidate(c);
	return true;
}

struct sc_cache *sc_new(const struct sc_config *cfg, uint64_t *stats,
			sc_emit_fn emit, void *ctx, char **why)
{
	struct sc_cache *c = g_new0(struct sc_cache, 1);

	*why = NULL;
	c->st = stats ? stats : c->own_stats;
	c->emit = emit;
	c->ctx = ctx;
	if (!check_dimensions(cfg, why) || !check_lines(cfg, why)) {
		sc_free(c);
		return NULL;
	}
	if (!cfg->assoc && !cfg->size) {
		/* sets, and a size from each kernel: no lines until the
		 * first; what can be checked is, with one way per set */
		if (!check_geometry(cfg, cfg->sets, 1, why)) {
			sc_free(c);
			return NULL;
		}
		/* the per-set records are known now (the sets are): on the
		 * account from the start, so that the build sees every cache */
		if (cfg->memory) {
			uint64_t resident = (uint64_t)cfg->sets * sizeof(struct sc_set);
			char *no = NULL;

			if (!cfg->memory(cfg->memory_ctx, 0, resident, resident, &no)) {
				*why = g_strdup_printf("%u sets: %s", cfg->sets,
						       no ? no : "its tables are refused");
				g_free(no);
				sc_free(c);
				return NULL;
			}
			c->resident_bytes = resident;
		}
		c->cfg = *cfg;
		c->head.access = access_unsized;
		return c;
	}
	if (!configure(c, cfg, cfg->size, why)) {
		sc_free(c);
		return NULL;
	}
	return c;
}

void sc_free(struct sc_cache *c)
{
	if (!c)
		return;
	if (c->resident_bytes && c->cfg.memory) {
		char *ignored = NULL;

		c->cfg.memory(c->cfg.memory_ctx, c->resident_bytes, 0, 0, &ignored);
		g_free(ignored);
	}
	free_arrays(c);
	g_free(c);
}

bool sc_resize(struct sc_cache *c, uint64_t size, char **why)
{
	uint32_t nsets, assoc;

	*why = NULL;
	if (!derive_geometry(&c->cfg, size, &nsets, &assoc, why))
		return false;
	/* the same geometry (most kernels of an app): an invalidation */
	if (c->blocks && nsets == c->nsets && assoc == c->assoc) {
		sc_invalidate(c);
		return true;
	}
	return configure(c, &c->cfg, size, why);
}

uint32_t sc_sets(const struct sc_cache *c)
{
	return c->nsets;
}

uint32_t sc_ways(const struct sc_cache *c)
{
	return c->assoc;
}

void sc_sum_totals(uint64_t *st)
{
	for (unsigned m = 0; m < SC_N_METRICS; m++) {
		st[SC_S_TOTAL + m] = 0;
		for (unsigned k = 0; k < SC_N_KINDS; k++)
			st[SC_S_TOTAL + m] += st[k * SC_N_METRICS + m];
	}
	/* write-backs have no kind */
	st[SC_S_TOTAL + SC_M_WRITES_DOWN] += st[SC_S_WB_EVICT] + st[SC_S_WB_FLUSH];
}

const uint64_t *sc_stats(struct sc_cache *c)
{
	sc_sum_totals(c->st);
	return c->st;
}

/* ---- traffic to the next level ------------------------------------------- */

/*
 * The same for the two requests an access sends, when `atom` (a constant
 * of the 32-byte access path) says r is a 32-byte request at addr: its
 * write goes down as it is, and so does a read when sectors are 32 bytes.
 */
static always_inline const struct mem_req *
write_down(struct mem_req *o, uint64_t addr, uint32_t len, uint32_t mask,
	   const struct mem_req *r, bool atom)
{
	return atom ? r : down_req(o, MEM_WRITE, addr, len, mask, r);
}

static always_inline const struct mem_req *
fetch_down_g(const struct sc_cache *c, struct mem_req *o, uint64_t addr,
	     const struct mem_req *r, bool atom, enum sc_geo G)
{
	/* (every compiled geometry has 32-byte sectors) */
	if (atom && (G != SC_GEO_ANY || c->atom_sectors) && r->hdr.kind == MEM_READ)
		return r;
	return down_req(o, MEM_READ, addr & c->sector_addr_mask,
			c->cfg.sector_bytes, UINT32_MAX, r);
}

static always_inline const struct mem_req *
fetch_down(const struct sc_cache *c, struct mem_req *o, uint64_t addr,
	   const struct mem_req *r, bool atom)
{
	return fetch_down_g(c, o, addr, r, atom, SC_GEO_ANY);
}

static always_inline void send(struct sc_cache *c, enum mem_op op,
			       uint64_t addr, uint32_t size, uint32_t mask,
			       const struct mem_req *from)
{
	if (c->tally && mem_tally_count(c->tally, op, size))
		return;
	c->pass_fits = false;
	c->emit(c->ctx, down_req(&c->down, op, addr, size, mask, from));
}

/*
 * What goes down, d: through emit, or, when it is the very request of a
 * run being served (sc_access_run), unchanged, into the run going down
 * as the entry it was, if that run holds requests of its SM and size and
 * has room.  Either way it comes after what went down before it: emit
 * adds to that same run or sends it first (sc_access_run's contract).
 */
static always_inline void emit_req(struct sc_cache *c, const struct mem_req *d)
{
	struct mem_run *o = c->pass_out;

	/* pass's SM and size are its run's: once the run going down was
	 * seen to share them, or was empty and took them, only a send
	 * through emit can change that */
	if (d == c->pass && o) {
		if (!c->pass_fits && !o->n) {
			/* as mem_run_add() starts a run, here, not through emit:
			 * the first request an L1 sends down of each run it is
			 * served (titanv-ref, native benchmark app, one thread:
			 * 82 M fewer instructions) */
			o->sm = d->sm;
			o->size = d->size;
			o->hdr = (struct ss_msg){ mem_run_bytes(0), MEM_RUN };
			c->pass_fits = true;
		}
		if (c->pass_fits ? o->n < MEM_RUN_MAX
				 : o->n < MEM_RUN_MAX && o->sm == d->sm && o->size == d->size) {
			o->req[o->n++] = *c->pass_entry;
			o->hdr.size += (uint32_t)sizeof(o->req[0]);
			c->pass_fits = true;
			return;
		}
	}
	if (c->tally && mem_tally_add(c->tally, d))
		return;
	c->pass_fits = false;
	c->emit(c->ctx, d);
}

/* Write back the `dirty` sectors of line `tag` (write-back caches). */
static noinline void write_back(struct sc_cache *c, uint64_t tag,
				uint32_t dirty, enum sc_stat counter)
{
	uint64_t base = tag << c->line_shift;

	if (c->cfg.write_hit != SC_WRITE_BACK)
		return;		/* a write-through cache has nothing to write back */
	if (c->tally) {
		/* counted, not sent: the sectors together */
		uint32_t n = (uint32_t)__builtin_popcount(dirty);

		c->st[counter] += n;
		mem_tally_count_n(c->tally, MEM_WRITE, c->cfg.sector_bytes, n);
		return;
	}
	while (dirty) {
		unsigned s = __builtin_ctz(dirty);

		dirty &= dirty - 1;
		c->st[counter]++;
		send(c, MEM_WRITE, base + ((uint64_t)s << c->sector_shift),
		     c->cfg.sector_bytes, UINT32_MAX, NULL);
	}
}

/* ---- the state machine ---------------------------------------------------- */

/*
 * Make in-set way w the most recent of its set (LRU only) when it is not
 * already.  In the circular list the least recent way is the one before
 * the head: when w is that one, moving the head is enough.
 */
static always_inline void move_to_front(struct sc_cache *c, size_t set,
					unsigned w, bool wide, enum sc_geo G)
{
	unsigned h = c->sets[set].head;
	uint8_t *next = set_next_g(c, set, G), *prev = set_prev_g(c, set, wide, G);
	unsigned t = link_get(prev, h, wide);

	if (t != w) {
		unsigned p = link_get(prev, w, wide), n = link_get(next, w, wide);

		link_set(next, p, n, wide);
		link_set(prev, n, p, wide);
		link_set(prev, w, t, wide);
		link_set(next, w, h, wide);
		link_set(next, t, w, wide);
		link_set(prev, h, w, wide);
	}
	c->sets[set].head = w;
}

static noinline void move_to_front_wide(struct sc_cache *c, size_t set,
					unsigned w)
{
	move_to_front(c, set, w, true, SC_GEO_ANY);
}

static always_inline void touch(struct sc_cache *c, size_t set, unsigned w,
				bool ext, enum sc_geo G)
{
	/* the common case: the line touched before, or a new line */
	if (c->sets[set].head == w)
		return;
	if (ext && c->sets[set].walk_from == w + 1)
		c->sets[set].walk_from = 0;
	if (ext && c->wide_links)
		move_to_front_wide(c, set, w);
	else
		move_to_front(c, set, w, false, G);
}

/*
 * The victim when the least recent line `lru` holds a modified sector and
 * protect_dirty_pct protects such lines: the least recent line without
 * one (the set has no empty way, or lru would be one), or, when every line
 * has one, lru all the same, counted (GPGPU-Sim would retry the access
 * later, which a functional model cannot).  The victim becomes the head
 * (allocate() expects the way it takes to be linked there).
 */
static noinline unsigned protected_victim(struct sc_cache *c, size_t set,
					  unsigned lru)
{
	size_t base = set * c->assoc;
	const uint8_t *prev = set_prev(c, set, c->wide_links);
	struct sc_set *s = &c->sets[set];
	unsigned w = s->walk_from ? s->walk_from - 1u : lru;

	/* from the least recent line towards the most recent, which ends it */
	while (c->ways[base + w].dirty && w != s->head)
		w = link_get(prev, w, c->wide_links);
	if (c->ways[base + w].dirty) {
		c->st[SC_S_PROTECT_OVERRIDES]++;
		s->walk_from = 0;
		return lru;
	}
	/* the only eligible line may be the most recent: already the head,
	 * and move_to_front() moves only a way that is not */
	if (w == s->head) {
		s->walk_from = 0;
		return w;
	}
	/* the lines before w were all modified: the next walk starts after it */
	s->walk_from = 1 + link_get(prev, w, c->wide_links);
	if (c->wide_links)
		move_to_front(c, set, w, true, SC_GEO_ANY);
	else
		move_to_front(c, set, w, false, SC_GEO_ANY);
	return w;
}

/* The modified sectors of a way become `dirty`, keeping the count of
 * lines with one where it is used (ext). */
static always_inline void set_dirty(struct sc_cache *c, struct sc_way *rec,
				    uint32_t dirty, bool ext)
{
	if (ext) {
		c->modified_lines += (uint64_t)(dirty != 0) - (rec->dirty != 0);
		/* a clean line where the walk would pass only modified ones */
		if (rec->dirty && !dirty)
			c->sets[(size_t)(rec - c->ways) / c->assoc].walk_from = 0;
	}
	rec->dirty = dirty;
}

/* A sector of a way becomes modified (the common case of set_dirty()). */
static always_inline void mark_dirty(struct sc_cache *c, struct sc_way *rec,
				     uint32_t sbit, bool ext)
{
	if (ext)
		c->modified_lines += rec->dirty == 0;
	rec->dirty |= sbit;
}

/* What an eviction leaves to write back. */
struct victim {
	uint64_t tag;
	uint32_t dirty;		/* valid and dirty sectors */
};

/*
 * A way for `line` in `set`: a free one, else the victim (least recent, or
 * oldest for FIFO), whose dirty sectors are left in *v for the caller to
 * write back once the requests of the access itself are out.  The new
 * line is the most recent of its set; its index in the set is returned.
 */
static always_inline unsigned allocate(struct sc_cache *c, size_t set,
				       uint64_t line, struct victim *v,
				       bool lazy, bool ext, enum sc_geo G)
{
	size_t base = set * GEO(c, G, assoc);
	struct sc_set *s = &c->sets[set];
	uint8_t *blk = c->blocks + set * GEO(c, G, block_bytes);
	const uint8_t *prev = blk + 2 * GEO(c, G, fp_lanes) + GEO(c, G, assoc);
	struct sc_way *rec;
	unsigned w;

	/* the least recent (or oldest) way; an empty one while there is one */
	if (ext && c->wide_links)
		w = ((const uint16_t *)(prev + c->assoc))[s->head];
	else
		w = prev[s->head];
	rec = &c->ways[base + w];
	/* protect_limit is 0 unless protect_dirty_pct protects lines */
	if (ext && rec->dirty && c->modified_lines * 100 < c->protect_limit) {
		w = protected_victim(c, set, w);
		rec = &c->ways[base + w];
	} else if (ext && s->walk_from == w + 1) {
		s->walk_from = 0;	/* it moves to the front */
	}
	/* a line always has a valid sector: an empty way is no eviction */
	c->st[SC_S_EVICTIONS] += rec->valid != 0;
	v->dirty = rec->dirty & rec->valid;
	v->tag = rec->tag;
	/* an empty way's tag may equal it: forgetting it then costs a lookup */
	if (c->memo_line == rec->tag)
		c->memo_line = UINT64_MAX;
	if (ext)
		c->modified_lines -= rec->dirty != 0;
	/* the new line is the most recent (LRU) or newest (FIFO) */
	s->head = w;
	rec->tag = line;
	rec->valid = rec->dirty = 0;
	((uint16_t *)blk)[w] = fingerprint(line);
	if (lazy) {
		c->readable[base + w] = 0;
		memset(c->bytes + (base + w) * c->mask_words, 0,
		       c->mask_words * sizeof(*c->bytes));
	}
	return w;
}

#ifdef __SSE2__
/* Bit i set when fingerprint i of the 16 at f is fp. */
static inline uint32_t match16(const uint16_t *f, __m128i fp)
{
	__m128i a = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)f), fp);
	__m128i b = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)(f + 8)), fp);

	return _mm_movemask_epi8(_mm_packs_epi16(a, b));
}

static inline uint32_t match8(const uint16_t *f, __m128i fp)
{
	__m128i a = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)f), fp);

	return _mm_movemask_epi8(_mm_packs_epi16(a, a)) & 0xff;
}
#endif

/* The way among those whose fingerprints matched (bits of m, ways from
 * `first`) that holds `line`, or SIZE_MAX. */
static inline size_t pick_match(const struct sc_cache *c, size_t first,
				uint32_t m, uint64_t line)
{
	while (m) {
		size_t way = first + __builtin_ctz(m);

		if (c->ways[way].tag == line)
			return way;
		m &= m - 1;
	}
	return SIZE_MAX;
}

/* The way holding `line` in `set`, or SIZE_MAX. */
static always_inline size_t lookup_g(struct sc_cache *c, size_t set, uint64_t line,
				     enum sc_geo G)
{
	if (G_UNLIKELY(!set_live(c, set)))
		empty_set(c, set);

	size_t base = set * GEO(c, G, assoc);
	uint16_t fp = fingerprint(line);
	const uint16_t *f = set_fp_g(c, set, G);

#ifdef __SSE2__
	const __m128i needle = _mm_set1_epi16((short)fp);

	/* unused ways and the padding have fingerprint 0: no bound needed */
	if (GEO(c, G, fp_lanes) == 8)
		return pick_match(c, base, match8(f, needle), line);
	for (uint32_t i = 0; i < GEO(c, G, fp_lanes); i += 16) {
		size_t way = pick_match(c, base + i, match16(f + i, needle), line);

		if (way != SIZE_MAX)
			return way;
	}
#else
	for (uint32_t w = 0; w < c->assoc; w++)
		if (f[w] == fp && c->ways[base + w].tag == line)
			return base + w;
#endif
	return SIZE_MAX;
}

static inline size_t lookup(struct sc_cache *c, size_t set, uint64_t line)
{
	return lookup_g(c, set, line, SC_GEO_ANY);
}

static always_inline size_t set_of_g(const struct sc_cache *c, const struct mem_req *r,
				     uint64_t addr, enum sc_geo G)
{
	/* every compiled geometry takes the reference's index of the address */
	if (G != SC_GEO_ANY)
		return set_index_fib(addr >> GEO(c, G, line_shift), c->nsets);
	if (c->ipoly_xor)
		return set_index_ipoly_tabled(c->ipoly_xor,
					      (c->cfg.index_on_partition
					       ? r->part_addr + (addr - r->addr) : addr) >> c->line_shift,
					      c->nsets, c->set_shift);
	/* the reference's index of the address, inline */
	if (G_LIKELY(c->fib_on_addr)) {
		uint64_t line = addr >> c->line_shift;

		/* lines are 32 bytes or more, which set_index_fib() can use */
		if (line >> 59)
			__builtin_unreachable();
		return set_index_fib(line, c->nsets);
	}

	uint64_t index_addr = c->cfg.index_on_partition
		? r->part_addr + (addr - r->addr) : addr;

	return set_index(c->cfg.index, index_addr, c->line_shift, c->nsets,
			 c->set_shift);
}

static inline size_t set_of(const struct sc_cache *c, const struct mem_req *r,
			    uint64_t addr)
{
	return set_of_g(c, r, addr, SC_GEO_ANY);
}

uint32_t sc_set_of(const struct sc_cache *c, uint64_t addr, uint64_t part_addr)
{
	/* the set an access takes, by the access path's own computation */
	struct mem_req r = { .addr = addr, .part_addr = part_addr };

	return (uint32_t)set_of(c, &r, addr);
}

bool sc_geometry_compiled(const struct sc_cache *c)
{
	return c->geo != SC_GEO_ANY;
}

/* write_bytes() for any length and sector size. */
static noinline bool write_bytes_any(struct sc_cache *c, size_t way, uint64_t addr,
				     uint32_t len, uint32_t mask)
{
	uint64_t *m = c->bytes + way * c->mask_words;
	unsigned off = addr & (c->cfg.line_bytes - 1);
	unsigned first = off & ~(c->cfg.sector_bytes - 1);

	for (unsigned b = off; b < off + len; b += MEM_ATOM)
		m[b / 64] |= (uint64_t)(len == MEM_ATOM ? mask : UINT32_MAX) << (b % 64);
	for (unsigned b = first; b < first + c->cfg.sector_bytes; b += MEM_ATOM)
		if (((m[b / 64] >> (b % 64)) & 0xffffffffu) != 0xffffffffu)
			return false;
	return true;
}

/*
 * Mark `len` written bytes from `addr` (`mask` selects them when len is one
 * 32 B atom); true when the sector holding them is then fully written.
 * The usual case inline: one 32 B aligned atom into a sector of one
 * atom, whose 32 mask bits sit at bit 0 or 32 of a word (on titanv.ini
 * the loops of the general case took 4.6 % of all instructions).
 */
static always_inline bool write_bytes(struct sc_cache *c, size_t way, uint64_t addr,
				      uint32_t len, uint32_t mask)
{
	/* (an unaligned atom, which the protocol forbids, goes the long way) */
	if (G_LIKELY(len == MEM_ATOM && c->atom_sectors && !(addr & (MEM_ATOM - 1)))) {
		unsigned off = addr & (c->cfg.line_bytes - 1);
		uint64_t *w = &c->bytes[way * c->mask_words + off / 64];

		*w |= (uint64_t)mask << (off % 64);
		return (uint32_t)(*w >> (off % 64)) == UINT32_MAX;
	}
	return write_bytes_any(c, way, addr, len, mask);
}

static always_inline uint32_t sector_bit_g(const struct sc_cache *c,
					   uint64_t addr, enum sc_geo G)
{
	return 1u << ((addr >> GEO(c, G, sector_shift)) & GEO(c, G, sector_idx_mask));
}

static always_inline uint32_t sector_bit(const struct sc_cache *c,
					 uint64_t addr)
{
	return sector_bit_g(c, addr, SC_GEO_ANY);
}

/* The six counters of the kind (space x op) of r. */
static always_inline uint64_t *kind_stats(uint64_t *st, const struct mem_req *r)
{
	return st + sc_stat_index(r->space, r->hdr.kind, 0);
}

/* Count what a sector access found, in the counters of its kind (sk):
 * the metrics follow the probes (hits, sector misses, line misses).  The
 * totals are sums of the kinds, made when read (sc_stats(), SS_STAT_SUM). */
static always_inline void count_probe(struct sc_cache *c, uint64_t *sk,
				      enum sc_probe p, bool is_write)
{
	sk[SC_M_ACCESSES]++;
	if (p == SC_HIT || !is_write || c->cfg.count_write_misses)
		sk[SC_M_HITS + p]++;
}

static always_inline void count(uint64_t *sk, enum sc_metric m)
{
	sk[m]++;
}

/*
 * Remember the line an access found or allocated, once it is the most
 * recent of its set: the next access to it needs no lookup and no touch.
 * Only an allocation in the same set changes that, and it remembers the
 * new line (or forgets an evicted one).
 */
static always_inline void remember(struct sc_cache *c, uint64_t line,
				   size_t way)
{
	c->memo_line = line;
	c->memo_way = way;
}

/* The request down that ends an access, then the victim's write-backs. */
static noinline void emit_then_write_back(struct sc_cache *c,
					  const struct mem_req *down,
					  uint64_t tag, uint32_t dirty)
{
	if (down)
		emit_req(c, down);
	write_back(c, tag, dirty, SC_S_WB_EVICT);
}

/*
 * The sector access of `len` bytes from `addr` of request r, whose line is
 * not in the cache: it goes to `set`.  is_write, wh and wm are constants
 * in the specialized copies of the access path.
 *
 * The state changes come first and the requests down last, so that little
 * is live across the calls.  Their order is the reference's: the write
 * (write-through, or no_allocate's), the read of the sector, then the
 * write-backs of a victim (a read goes down before the eviction its
 * allocation causes).
 */
static always_inline void
line_miss(struct sc_cache *c, const struct mem_req *r, uint64_t *sk,
	  uint64_t addr, uint32_t len, uint32_t mask, size_t set, bool atom,
	  bool is_write, enum sc_write_hit wh, enum sc_write_miss wm, bool ext,
	  enum sc_geo G)
{
	enum mem_op op = r->hdr.kind;
	bool lazy = wm == SC_LAZY_FETCH;
	uint64_t line = addr >> GEO(c, G, line_shift);
	uint32_t sbit = sector_bit_g(c, addr, G);
	bool write = is_write && (wh == SC_WRITE_THROUGH || wm == SC_NO_ALLOCATE);
	bool fetch = !is_write || wm == SC_FETCH;
	const struct mem_req *d = NULL;	/* what goes down, if anything */
	struct victim v;
	struct sc_way *rec;
	size_t way;

	c->head.probe = SC_MISS;
	count_probe(c, sk, SC_MISS, is_write);
	if (is_write && wm == SC_NO_ALLOCATE) {
		/* the write goes down (write-through or not), nothing else */
		count(sk, SC_M_WRITES_DOWN);
		emit_req(c, write_down(&c->down, addr, len, mask, r, atom));
		return;
	}

	unsigned w = allocate(c, set, line, &v, lazy, ext, G);

	way = set * GEO(c, G, assoc) + w;
	rec = &c->ways[way];
	if (!is_write) {
		/* read, atomic, reduction: the sector is fetched */
		rec->valid = sbit;
		if (lazy)
			c->readable[way] = sbit;
		if (op != MEM_READ && wh == SC_WRITE_BACK) {
			/* a read-modify-write leaves the sector modified */
			mark_dirty(c, rec, sbit, ext);
			if (lazy)
				write_bytes(c, way, addr, len, mask);
		}
	} else if (wm == SC_LAZY_FETCH) {
		bool full = write_bytes(c, way, addr, len, mask);

		rec->valid = sbit;
		/* modified, even in a write-through cache, which never
		 * writes it back: the state serves readability and
		 * protect_dirty_pct */
		mark_dirty(c, rec, sbit, ext);
		if (full)
			c->readable[way] = sbit;
	} else {
		/* allocate: valid without a fetch; fetch: read, then merge.
		 * A write-through write leaves the sector clean. */
		rec->valid = sbit;
		if (wh == SC_WRITE_BACK)
			mark_dirty(c, rec, sbit, ext);
	}
	/* a new line is the most recent of its set: no touch */
	remember(c, line, way);

	if (write) {
		count(sk, SC_M_WRITES_DOWN);
		d = write_down(&c->down, addr, len, mask, r, atom);
		if (fetch)	/* write-through fetch: two requests */
			emit_req(c, d);
	}
	if (fetch) {
		count(sk, SC_M_READS_DOWN);
		d = fetch_down_g(c, &c->down, addr, r, atom, G);
	}
	if (wh == SC_WRITE_BACK && v.dirty)
		emit_then_write_back(c, d, v.tag, v.dirty);
	else if (d)
		emit_req(c, d);
}

/*
 * The same for a line that is there, in way `w` of `set` (`way` overall;
 * set and w are read only when fresh).
 * `fresh`: it was just looked up.  Else it is the line of the access
 * before, which is the most recent of its set already (see remember()).
 */
static always_inline void
line_hit(struct sc_cache *c, const struct mem_req *r, uint64_t *sk,
	 uint64_t addr, uint32_t len, uint32_t mask, size_t set, size_t way,
	 unsigned w, bool fresh, bool atom, bool is_write, enum sc_write_hit wh,
	 enum sc_write_miss wm, enum sc_replacement rp, bool ext, enum sc_geo G)
{
	enum mem_op op = r->hdr.kind;
	bool lazy = wm == SC_LAZY_FETCH;
	uint32_t sbit = sector_bit_g(c, addr, G);
	struct sc_way *rec = &c->ways[way];
	enum sc_probe p;

	/* readable sectors are valid ones; without lazy_fetch, all of them */
	if ((lazy && !is_write ? c->readable[way] : rec->valid) & sbit)
		p = SC_HIT;
	else
		p = SC_SECTOR_MISS;

	if (!is_write) {
		/* read, atomic, reduction: fetch what is not readable */
		if (p != SC_HIT) {
			rec->valid |= sbit;
			if (lazy)
				c->readable[way] |= sbit;
		}
		if (op != MEM_READ && wh == SC_WRITE_BACK) {
			/* a read-modify-write leaves the sector modified */
			mark_dirty(c, rec, sbit, ext);
			if (lazy)
				write_bytes(c, way, addr, len, mask);
		}
	} else {
		switch (wm) {
		case SC_ALLOCATE:
			rec->valid |= sbit;
			/* the reference overwrites the dirty bit: a
			 * write-through write leaves the sector clean */
			if (wh == SC_WRITE_BACK)
				mark_dirty(c, rec, sbit, ext);
			else
				set_dirty(c, rec, rec->dirty & ~sbit, ext);
			break;
		case SC_NO_ALLOCATE:
		default:
			/* a sector miss writes down, not into the line */
			if (p == SC_HIT && wh == SC_WRITE_BACK)
				mark_dirty(c, rec, sbit, ext);
			break;
		case SC_LAZY_FETCH: {
			bool full = write_bytes(c, way, addr, len, mask);

			rec->valid |= sbit;
			mark_dirty(c, rec, sbit, ext);
			if (full)
				c->readable[way] |= sbit;
			break;
		}
		case SC_FETCH:
			if (p != SC_HIT)
				rec->valid |= sbit;
			if (wh == SC_WRITE_BACK)
				mark_dirty(c, rec, sbit, ext);
			break;
		}
	}
	/* no_allocate leaves a sector miss where it is in the list, so
	 * that line is not remembered: it may not be the most recent */
	if (fresh && (!is_write || wm != SC_NO_ALLOCATE || p == SC_HIT)) {
		if (rp == SC_LRU)
			touch(c, set, w, ext, G);
		remember(c, addr >> GEO(c, G, line_shift), way);
	}
	c->head.probe = p;
	count_probe(c, sk, p, is_write);

	bool write = is_write && (wh == SC_WRITE_THROUGH ||
				  (wm == SC_NO_ALLOCATE && p != SC_HIT));
	bool fetch = p != SC_HIT && (!is_write || wm == SC_FETCH);

	if (write) {
		count(sk, SC_M_WRITES_DOWN);
		emit_req(c, write_down(&c->down, addr, len, mask, r, atom));
	}
	if (fetch) {
		count(sk, SC_M_READS_DOWN);
		emit_req(c, fetch_down_g(c, &c->down, addr, r, atom, G));
	}
}

/* r's SM's memo, NULL if none is kept for it. */
static always_inline struct sc_sm_memo *sm_memo_of(struct sc_cache *c,
						   const struct mem_req *r)
{
	return c->sm_memo && r->sm < c->cfg.sm_memos ? &c->sm_memo[r->sm] : NULL;
}

/* Whether mm says where `line` is (see struct sc_sm_memo). */
static always_inline bool sm_memo_holds(const struct sc_cache *c,
					const struct sc_sm_memo *mm, uint64_t line)
{
	return mm->line == line && mm->gen == c->sm_memo_gen &&
	       c->ways[mm->way].tag == line;
}

/* One sector access, the policies read from the configuration: requests of
 * any size. */
static noinline void access_sector(struct sc_cache *c,
					    const struct mem_req *r,
					    uint64_t addr, uint32_t len,
					    uint32_t mask)
{
	bool is_write = r->hdr.kind == MEM_WRITE;
	enum sc_write_hit wh = c->cfg.write_hit;
	enum sc_write_miss wm = c->cfg.write_miss;
	enum sc_replacement rp = c->cfg.replacement;
	uint64_t line = addr >> c->line_shift;
	uint64_t *sk = kind_stats(c->st, r);
	size_t set, way;

	if (line == c->memo_line) {
		/* set and w matter only to a touch, which it needs not */
		line_hit(c, r, sk, addr, len, mask, 0, c->memo_way, 0, false,
			 false, is_write, wh, wm, rp, c->extended, SC_GEO_ANY);
		return;
	}
	set = set_of(c, r, addr);
	way = lookup(c, set, line);
	if (way == SIZE_MAX)
		line_miss(c, r, sk, addr, len, mask, set, false, is_write, wh, wm,
			  c->extended, SC_GEO_ANY);
	else
		line_hit(c, r, sk, addr, len, mask, set, way, way - set * c->assoc,
			 true, false, is_write, wh, wm, rp, c->extended, SC_GEO_ANY);
}

/* A request of any size: one sector access per sector of this cache it
 * touches. */
static noinline void access_sectors(struct sc_cache *c,
				    const struct mem_req *r)
{
	/* what a coalescer sends: one 32 B atom, within one sector */
	if (r->size == MEM_ATOM) {
		access_sector(c, r, r->addr, MEM_ATOM, r->mask);
		return;
	}

	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint32_t mask = r->size <= MEM_ATOM ? r->mask : UINT32_MAX;
	uint64_t next = (r->addr | (c->cfg.sector_bytes - 1)) + 1;

	access_sector(c, r, r->addr, MIN(next, end) - r->addr, mask);

	enum sc_probe first = c->head.probe;

	for (uint64_t a = next; a < end; a += c->cfg.sector_bytes)
		access_sector(c, r, a, MIN(a + c->cfg.sector_bytes, end) - a,
			      mask);
	c->head.probe = first;
}

/*
 * One 32-byte request (what a coalescer sends, within one sector): the
 * line of the access before (a sequential stream), an SM's last line, or
 * a lookup.  is_write, wh, wm and ext are constants in each copy, one per
 * combination of the write policies, direction and extension (`plain`, or
 * `ext`: modified lines counted for protect_dirty_pct, links of either
 * width); the replacement policy is a branch.  `set`: the set of q's line
 * when the caller computed it, else SIZE_MAX.
 */
static always_inline void serve_atom(struct sc_cache *c, const struct mem_req *q,
				     uint64_t *sk, size_t set, bool is_write,
				     enum sc_write_hit wh, enum sc_write_miss wm,
				     bool ext, enum sc_geo G)
{
	uint64_t line = q->addr >> GEO(c, G, line_shift);
	struct sc_sm_memo *mm;
	size_t way;
	uint32_t gen;

	if (line == c->memo_line) {
		line_hit(c, q, sk, q->addr, MEM_ATOM, q->mask, 0, c->memo_way, 0,
			 false, true, is_write, wh, wm, c->cfg.replacement, ext, G);
		return;
	}
	mm = sm_memo_of(c, q);
	if (mm && sm_memo_holds(c, mm, line)) {
		line_hit(c, q, sk, q->addr, MEM_ATOM, q->mask, mm->set, mm->way,
			 mm->way - mm->set * GEO(c, G, assoc), true, true, is_write, wh,
			 wm, c->cfg.replacement, ext, G);
		return;
	}
	if (set == SIZE_MAX)
		set = set_of_g(c, q, q->addr, G);
	way = lookup_g(c, set, line, G);
	gen = c->sm_memo_gen;
	if (way != SIZE_MAX) {
		if (mm)
			*mm = (struct sc_sm_memo){ line, (uint32_t)set, (uint32_t)way, gen };
		line_hit(c, q, sk, q->addr, MEM_ATOM, q->mask, set, way,
			 way - set * GEO(c, G, assoc), true, true, is_write, wh, wm,
			 c->cfg.replacement, ext, G);
		return;
	}
	line_miss(c, q, sk, q->addr, MEM_ATOM, q->mask, set, true, is_write,
		  wh, wm, ext, G);
	/* the line took a way unless a write went around the cache */
	if (mm && c->memo_line == line)
		*mm = (struct sc_sm_memo){ line, (uint32_t)set, (uint32_t)c->memo_way, gen };
}

/* What a look-up of `set` reads first, asked of the memory: its block
 * (fingerprints, links), its record, its first ways. */
static always_inline void prefetch_set_g(const struct sc_cache *c, size_t set,
					 enum sc_geo G)
{
	ss_prefetch(c->blocks + set * GEO(c, G, block_bytes));
	ss_prefetch(&c->sets[set]);
	ss_prefetch(&c->ways[set * GEO(c, G, assoc)]);
}

static inline void prefetch_set(const struct sc_cache *c, size_t set)
{
	prefetch_set_g(c, set, SC_GEO_ANY);
}

/*
 * The sets of a run's lines, asked of the memory together before the
 * run is served: an SM's L1 is served a run (an instruction's sectors)
 * and then none while the other SMs of its thread are, so its sets have
 * left the processor's first-level cache by then, and a lookup that
 * waits for each in turn waits once per line (titanv-ref, two threads,
 * full app: 0.97 of the CPU time, though the set indices cost 5 % more
 * instructions).  Consecutive entries of one line ask once.  set[k]:
 * entry k's set, which the run's loop (run_*) takes instead of its own.
 * Returns whether the entries are of one kind, space and warp (the run
 * loops' `uniform`), which the same pass over them tells.
 */
static always_inline bool prefetch_sets_g(const struct sc_cache *c,
					  const struct mem_req *r,
					  const struct mem_run *run, uint32_t *set,
					  enum sc_geo G)
{
	const uint64_t low = run->req[0].addr & (MEM_ATOM - 1);
	const uint32_t warp = run->req[0].warp;
	const unsigned line_shift = GEO(c, G, line_shift);
	uint64_t last = UINT64_MAX, differ = 0;
	uint32_t s = 0;

	for (unsigned k = 0; k < run->n; k++) {
		uint64_t addr = run->req[k].addr & ~(uint64_t)(MEM_ATOM - 1);

		differ |= ((run->req[k].addr & (MEM_ATOM - 1)) ^ low) |
			  (run->req[k].warp ^ warp);
		if (addr >> line_shift != last) {
			last = addr >> line_shift;
			s = (uint32_t)set_of_g(c, r, addr, G);
			prefetch_set_g(c, s, G);
		}
		set[k] = s;
	}
	return !differ;
}

static noinline bool prefetch_sets(const struct sc_cache *c, const struct mem_req *r,
				   const struct mem_run *run, uint32_t *set)
{
	return prefetch_sets_g(c, r, run, set, SC_GEO_ANY);
}

/* The access path of a request, per write policy combination, extension
 * and geometry: a 32-byte one inline, any other by its sectors. */
/* Request *r served: a 32-byte one inline, any other by its sectors. */
#define SC_SERVE(r, wh, wm, ext, geo)						\
	do {									\
		if (G_UNLIKELY((r)->size != MEM_ATOM))				\
			access_sectors(c, (r));					\
		else if ((r)->hdr.kind == MEM_WRITE)				\
			serve_atom(c, (r), kind_stats(c->st, (r)), SIZE_MAX, true,	\
				   SC_##wh, SC_##wm, ext, geo);			\
		else								\
			serve_atom(c, (r), kind_stats(c->st, (r)), SIZE_MAX, false,	\
				   SC_##wh, SC_##wm, ext, geo);			\
	} while (0)

#define SC_ACCESS_FN_X(wh, wm, x, ext, geo)					\
static void access_##wh##_##wm##_##x(struct sc_cache *c,			\
				     const struct mem_req *r)			\
{										\
	SC_SERVE(r, wh, wm, ext, geo);						\
}

#define SC_ACCESS_FN(wh, wm)							\
SC_ACCESS_FN_X(wh, wm, plain, false, SC_GEO_ANY)				\
SC_ACCESS_FN_X(wh, wm, ext, true, SC_GEO_ANY)					\
SC_ACCESS_FN_X(wh, wm, geo4, false, SC_GEO_4WAY)				\
SC_ACCESS_FN_X(wh, wm, geo32, false, SC_GEO_32WAY)

SC_ACCESS_FN(WRITE_BACK, ALLOCATE)
SC_ACCESS_FN(WRITE_BACK, NO_ALLOCATE)
SC_ACCESS_FN(WRITE_BACK, LAZY_FETCH)
SC_ACCESS_FN(WRITE_BACK, FETCH)
SC_ACCESS_FN(WRITE_THROUGH, ALLOCATE)
SC_ACCESS_FN(WRITE_THROUGH, NO_ALLOCATE)
SC_ACCESS_FN(WRITE_THROUGH, LAZY_FETCH)
SC_ACCESS_FN(WRITE_THROUGH, FETCH)

/*
 * sc_access_run()'s loop over a run of 32-byte requests, and
 * sc_access_merged()'s over what a merge gives, one copy per write policy
 * combination and geometry (plain caches only): the access path inline
 * (serve_atom), with no call and no dispatch per request, and in a run
 * the set of each line as the run's prefetch computed it.  An L1 is
 * served most of its accesses so: titanv-ref on two threads, against a
 * call of the access path per request, runs 3.7 % fewer instructions in
 * all (1/10 benchmark app) and takes 0.97 of the CPU time (full app).
 *
 * A run whose entries are of one kind, space and warp (`uniform`: one
 * warp instruction's sectors, as an SM sends them) has them in q from
 * its first entry: per entry only the address and the byte mask change,
 * the direction is decided once and so are the counters of the kind.
 */
#define SC_RUN_UNIFORM_LOOP(wh, wm, is_write, geo)				\
	for (unsigned k = 0; k < n; k++) {					\
		const struct mem_run_entry e = run->req[k];			\
										\
		q->addr = q->part_addr = e.addr & ~(uint64_t)(MEM_ATOM - 1);	\
		q->mask = e.mask;						\
		c->pass_entry = &run->req[k];					\
		serve_atom(c, q, sk, set[k], is_write, SC_##wh, SC_##wm, false,	\
			   geo);						\
	}

#define SC_RUN_FN_G(wh, wm, x, geo)						\
static noinline void run_##wh##_##wm##_##x(struct sc_cache *c,			\
					   const struct mem_run *run,		\
					   struct mem_req *q)			\
{										\
	const unsigned n = run->n;						\
	uint32_t set[MEM_RUN_MAX];						\
	const bool uniform = prefetch_sets_g(c, q, run, set, geo);		\
										\
	if (uniform) {								\
		uint64_t *const sk = kind_stats(c->st, q);			\
										\
		if (q->hdr.kind == MEM_WRITE)					\
			SC_RUN_UNIFORM_LOOP(wh, wm, true, geo)			\
		else								\
			SC_RUN_UNIFORM_LOOP(wh, wm, false, geo)			\
		return;								\
	}									\
	for (unsigned k = 0; k < n; k++) {					\
		mem_run_next(run, k, q);					\
		c->pass_entry = &run->req[k];					\
		if (q->hdr.kind == MEM_WRITE)					\
			serve_atom(c, q, kind_stats(c->st, q), set[k], true,	\
				   SC_##wh, SC_##wm, false, geo);		\
		else								\
			serve_atom(c, q, kind_stats(c->st, q), set[k], false,	\
				   SC_##wh, SC_##wm, false, geo);		\
	}									\
}									\
									\
static noinline void merged_##wh##_##wm##_##x(struct sc_cache *c,		\
					      struct rr_merge *m)		\
{										\
	struct mem_req q;							\
	size_t rounds;								\
										\
	/* with a tally nothing served can come back (sc_access_merged()) */	\
	while (c->tally && (rounds = rr_merge_rounds(m))) {			\
		unsigned n_in;							\
		struct rr_round_input *in = rr_merge_round_inputs(m, &n_in);	\
										\
		for (size_t r = 0; r < rounds; r++)				\
			for (unsigned i = 0; i < n_in; i++) {			\
				const struct mem_req *t = rr_round_take(&in[i], r);	\
										\
				SC_SERVE(t, wh, wm, false, geo);		\
			}							\
		rr_merge_rounds_done(m, rounds);				\
	}									\
	while (rr_merge_take(m, &q))						\
		SC_SERVE(&q, wh, wm, false, geo);				\
}

#define SC_RUN_FN(wh, wm)							\
SC_RUN_FN_G(wh, wm, any, SC_GEO_ANY)						\
SC_RUN_FN_G(wh, wm, geo4, SC_GEO_4WAY)						\
SC_RUN_FN_G(wh, wm, geo32, SC_GEO_32WAY)

SC_RUN_FN(WRITE_BACK, ALLOCATE)
SC_RUN_FN(WRITE_BACK, NO_ALLOCATE)
SC_RUN_FN(WRITE_BACK, LAZY_FETCH)
SC_RUN_FN(WRITE_BACK, FETCH)
SC_RUN_FN(WRITE_THROUGH, ALLOCATE)
SC_RUN_FN(WRITE_THROUGH, NO_ALLOCATE)
SC_RUN_FN(WRITE_THROUGH, LAZY_FETCH)
SC_RUN_FN(WRITE_THROUGH, FETCH)

/* The loops above of cfg's policies and geo, for a plain cache; else NULL. */
static void pick_loops(const struct sc_config *cfg, bool extended, enum sc_geo geo,
		       sc_run_fn *run, sc_merged_fn *merged)
{
	/* [geometry][write_hit][write_miss] */
	static const struct { sc_run_fn run; sc_merged_fn merged; } fns[SC_N_GEOS][2][4] = {
#define SC_LOOPS(wh, wm, x) { run_##wh##_##wm##_##x, merged_##wh##_##wm##_##x }
#define SC_LOOPS_G(x) {								\
		{								\
			SC_LOOPS(WRITE_BACK, ALLOCATE, x), SC_LOOPS(WRITE_BACK, NO_ALLOCATE, x),	\
			SC_LOOPS(WRITE_BACK, LAZY_FETCH, x), SC_LOOPS(WRITE_BACK, FETCH, x),	\
		}, {								\
			SC_LOOPS(WRITE_THROUGH, ALLOCATE, x), SC_LOOPS(WRITE_THROUGH, NO_ALLOCATE, x),	\
			SC_LOOPS(WRITE_THROUGH, LAZY_FETCH, x), SC_LOOPS(WRITE_THROUGH, FETCH, x),	\
		},								\
	}
		[SC_GEO_ANY] = SC_LOOPS_G(any),
		[SC_GEO_4WAY] = SC_LOOPS_G(geo4),
		[SC_GEO_32WAY] = SC_LOOPS_G(geo32),
#undef SC_LOOPS_G
#undef SC_LOOPS
	};

	*run = NULL;
	*merged = NULL;
	if (extended || (unsigned)cfg->write_hit > SC_WRITE_THROUGH ||
	    (unsigned)cfg->write_miss > SC_FETCH ||
	    (unsigned)cfg->replacement > SC_FIFO)
		return;
	*run = fns[geo][cfg->write_hit][cfg->write_miss].run;
	*merged = fns[geo][cfg->write_hit][cfg->write_miss].merged;
}

static sc_access_fn pick_access(const struct sc_config *cfg, bool extended,
				enum sc_geo geo)
{
#define SC_ACCESS_FNS(x) {							\
		{								\
			access_WRITE_BACK_ALLOCATE_##x,				\
			access_WRITE_BACK_NO_ALLOCATE_##x,			\
			access_WRITE_BACK_LAZY_FETCH_##x,			\
			access_WRITE_BACK_FETCH_##x,				\
		}, {								\
			access_WRITE_THROUGH_ALLOCATE_##x,			\
			access_WRITE_THROUGH_NO_ALLOCATE_##x,			\
			access_WRITE_THROUGH_LAZY_FETCH_##x,			\
			access_WRITE_THROUGH_FETCH_##x,				\
		},								\
	}
	/* [extended][write_hit][write_miss], then [geometry][...] */
	static const sc_access_fn fns[2][2][4] = {
		SC_ACCESS_FNS(plain), SC_ACCESS_FNS(ext),
	};
	static const sc_access_fn geo_fns[SC_N_GEOS][2][4] = {
		[SC_GEO_4WAY] = SC_ACCESS_FNS(geo4),
		[SC_GEO_32WAY] = SC_ACCESS_FNS(geo32),
	};
#undef SC_ACCESS_FNS

	if ((unsigned)cfg->write_hit > SC_WRITE_THROUGH ||
	    (unsigned)cfg->write_miss > SC_FETCH ||
	    (unsigned)cfg->replacement > SC_FIFO)
		return access_sectors;	/* what no parameter can give */
	if (geo != SC_GEO_ANY && !extended)
		return geo_fns[geo][cfg->write_hit][cfg->write_miss];
	return fns[extended][cfg->write_hit][cfg->write_miss];
}

/*
 * A request that passes by (bypass = flagged, MEM_F_BYPASS: an SM's
 * atomics, reductions and .STRONG.GPU loads): a lookup of its kind that
 * misses the line for every sector of this cache it covers, sent down as
 * it came.  Nothing in the cache changes, not even the recency order.
 */
static noinline void bypass(struct sc_cache *c, const struct mem_req *r)
{
	uint64_t *sk = kind_stats(c->st, r);
	bool is_write = r->hdr.kind == MEM_WRITE;
	uint64_t first = r->addr & c->sector_addr_mask;
	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint64_t n = (end - first + c->cfg.sector_bytes - 1) >> c->sector_shift;

	sk[SC_M_ACCESSES] += n;
	if (!is_write || c->cfg.count_write_misses)
		sk[SC_M_LINE_MISSES] += n;
	sk[is_write ? SC_M_WRITES_DOWN : SC_M_READS_DOWN] += n;
	c->head.probe = SC_MISS;
	emit_req(c, r);
}

/* bypass = flagged: the flag, then the access path of the policies. */
static void access_flagged(struct sc_cache *c, const struct mem_req *r)
{
	if (G_UNLIKELY(r->flags & MEM_F_BYPASS))
		bypass(c, r);
	else
		c->policy_access(c, r);
}

/* A cache sized by each kernel, before the first: whoever drives it must
 * size it first (the component refuses a kernel without a size). */
static void access_unsized(struct sc_cache *c, const struct mem_req *r)
{
	g_error("sector_cache: an access to 0x%" G_GINT64_MODIFIER "x before any kernel gave the cache its size (sets %u, no assoc)",
		r->addr, c->cfg.sets);
}

/* ---- timing mode ------------------------------------------------------------ */

enum sc_probe sc_probe(struct sc_cache *c, const struct mem_req *r)
{
	uint64_t line = r->addr >> c->line_shift;
	size_t set, way;
	uint32_t have;

	if (!c->assoc)
		return SC_MISS;
	set = set_of(c, r, r->addr);
	way = lookup(c, set, line);
	if (way == SIZE_MAX)
		return SC_MISS;
	have = c->cfg.write_miss == SC_LAZY_FETCH && r->hdr.kind != MEM_WRITE
		? c->readable[way] : c->ways[way].valid;
	return have & sector_bit(c, r->addr) ? SC_HIT : SC_SECTOR_MISS;
}

void sc_count_issue(struct sc_cache *c, const struct mem_req *r,
		    enum sc_probe p, bool fetch)
{
	uint64_t *sk = kind_stats(c->st, r);

	count_probe(c, sk, p, r->hdr.kind == MEM_WRITE);
	if (fetch)
		count(sk, SC_M_READS_DOWN);
}

void sc_access_run(struct sc_cache *c, const struct mem_run *run,
		   struct mem_run *out)
{
	const unsigned n = run->n;
	uint32_t set[MEM_RUN_MAX];
	struct mem_req q;

	if (G_UNLIKELY(!n))
		return;
	if (G_UNLIKELY(n > MEM_RUN_MAX))
		g_error("sc_access_run: a run of %u entries (at most %u)", n, MEM_RUN_MAX);
	mem_run_request(run, 0, &q);
	c->pass = &q;
	c->pass_out = out;
	c->pass_fits = false;	/* out may hold another SM's or size's */
	/* sized: a cache no kernel sized has no sets (and fails the access) */
	if (c->sets && c->run_access && run->size == MEM_ATOM) {
		c->run_access(c, run, &q);
	} else {
		if (c->sets)
			prefetch_sets(c, &q, run, set);
		for (unsigned k = 0; k < n; k++) {
			mem_run_next(run, k, &q);
			c->pass_entry = &run->req[k];
			c->head.access(c, &q);
		}
	}
	c->pass = NULL;
	c->pass_out = NULL;
}

void sc_access_merged(struct sc_cache *c, struct rr_merge *m,
		      struct mem_tally *tally)
{
	struct mem_req q;

	c->tally = tally;
	/* the policies' loop, unless a bypass or a missing size comes first */
	if (c->merged_access && c->head.access == c->policy_access)
		c->merged_access(c, m);
	else
		while (rr_merge_next(m, &q))
			c->head.access(c, &q);
	c->tally = NULL;
}

void sc_count_access(struct sc_cache *c, const struct mem_req *r)
{
	count(kind_stats(c->st, r), SC_M_ACCESSES);
}

/* sc_apply()'s emit: the victim's write-backs go on, the read does not. */
static void emit_unless_read(void *ctx, const struct mem_req *r)
{
	struct sc_cache *c = ctx;

	if (r->hdr.kind != MEM_READ)
		c->applying_emit(c->applying_ctx, r);
}

/*
 * The access itself, with its counts going to a scratch table and its
 * read dropped; of the counts, only what the victim caused is kept, since
 * the look-up was counted when the request came (sc_count_issue).  This
 * reuses the policies' access paths rather than a copy of them.
 */
void sc_apply(struct sc_cache *c, const struct mem_req *r)
{
	static const enum sc_stat kept[] = {
		SC_S_EVICTIONS, SC_S_WB_EVICT, SC_S_PROTECT_OVERRIDES,
	};
	uint64_t *scratch = c->applying_st, *st = c->st;
	sc_emit_fn emit = c->emit;
	void *ctx = c->ctx;

	c->st = scratch;
	c->applying_emit = emit;
	c->applying_ctx = ctx;
	c->emit = emit_unless_read;
	c->ctx = c;
	c->head.access(c, r);
	c->emit = emit;
	c->ctx = ctx;
	c->st = st;
	for (size_t i = 0; i < G_N_ELEMENTS(kept); i++) {
		st[kept[i]] += scratch[kept[i]];
		scratch[kept[i]] = 0;
	}
}

void sc_prefetch(const struct sc_cache *c, const struct mem_req *r)
{
	size_t set = set_of(c, r, r->addr);

	prefetch_set(c, set);
	ss_prefetch((const char *)&c->ways[set * c->assoc] + CPU_LINE);
}

const struct mem_req *sc_fetch_of(struct sc_cache *c, const struct mem_req *r,
				  struct mem_req *out)
{
	return fetch_down(c, out, r->addr, r, false);
}

uint64_t sc_line_of(const struct sc_cache *c, uint64_t addr)
{
	return addr >> c->line_shift;
}

uint32_t sc_sector_bit(const struct sc_cache *c, uint64_t addr)
{
	return sector_bit(c, addr);
}

uint32_t sc_sector_bytes(const struct sc_cache *c)
{
	return c->cfg.sector_bytes;
}

bool sc_bypasses(const struct sc_cache *c)
{
	return c->cfg.bypass == SC_BYPASS_FLAGGED;
}

/* ---- one set's state, whole (time-parallel simulation) -------------------- */

/*
 * A set's state is its block (fingerprints and links), its head, its
 * ways' records and (lazy_fetch) their readable bits and written bytes,
 * laid end to end: what the next accesses to the set can
 * tell apart, the way numbers included (a flush writes a set's lines
 * back in way order).
 */
struct set_state_layout {
	size_t head, block, ways, readable, bytes, total;
};

static struct set_state_layout state_layout(const struct sc_cache *c)
{
	struct set_state_layout l;
	bool lazy = c->readable != NULL;

	l.head = 0;
	l.block = sizeof(uint32_t);
	l.ways = l.block + round_up(c->block_bytes, sizeof(uint64_t));
	l.readable = l.ways + (size_t)c->assoc * sizeof(struct sc_way);
	l.bytes = l.readable + (lazy ? round_up((size_t)c->assoc * sizeof(uint32_t), sizeof(uint64_t)) : 0);
	l.total = l.bytes + (lazy ? (size_t)c->assoc * c->mask_words * sizeof(uint64_t) : 0);
	return l;
}

size_t sc_set_state_bytes(const struct sc_cache *c)
{
	return state_layout(c).total;
}

void sc_set_save(struct sc_cache *c, uint32_t set, void *state)
{
	struct set_state_layout l = state_layout(c);
	uint8_t *b = state;
	uint32_t head;

	if (!set_live(c, set))
		empty_set(c, set);
	head = c->sets[set].head;
	memcpy(b + l.head, &head, sizeof(head));
	memcpy(b + l.block, c->blocks + set * c->block_bytes, c->block_bytes);
	memcpy(b + l.ways, &c->ways[(size_t)set * c->assoc], (size_t)c->assoc * sizeof(struct sc_way));
	if (c->readable) {
		memcpy(b + l.readable, &c->readable[(size_t)set * c->assoc],
		       (size_t)c->assoc * sizeof(uint32_t));
		memcpy(b + l.bytes, &c->bytes[(size_t)set * c->assoc * c->mask_words],
		       (size_t)c->assoc * c->mask_words * sizeof(uint64_t));
	}
}

/* Lines of a set holding a modified sector (protect_dirty_pct's count). */
static uint64_t modified_in_set(const struct sc_cache *c, uint32_t set)
{
	uint64_t n = 0;

	for (size_t w = (size_t)set * c->assoc; w < ((size_t)set + 1) * c->assoc; w++)
		n += c->ways[w].dirty != 0;
	return n;
}

void sc_set_load(struct sc_cache *c, uint32_t set, const void *state)
{
	struct set_state_layout l = state_layout(c);
	const uint8_t *b = state;
	uint32_t head;

	if (set_live(c, set))
		c->modified_lines -= modified_in_set(c, set);
	memcpy(&head, b + l.head, sizeof(head));
	c->sets[set].head = (uint16_t)head;
	c->sets[set].walk_from = 0;
	c->sets[set].epoch = c->epoch;
	memcpy(c->blocks + set * c->block_bytes, b + l.block, c->block_bytes);
	memcpy(&c->ways[(size_t)set * c->assoc], b + l.ways, (size_t)c->assoc * sizeof(struct sc_way));
	if (c->readable) {
		memcpy(&c->readable[(size_t)set * c->assoc], b + l.readable,
		       (size_t)c->assoc * sizeof(uint32_t));
		memcpy(&c->bytes[(size_t)set * c->assoc * c->mask_words], b + l.bytes,
		       (size_t)c->assoc * c->mask_words * sizeof(uint64_t));
	}
	c->modified_lines += modified_in_set(c, set);
	/* the remembered lines may have been this set's */
	c->memo_line = UINT64_MAX;
	sm_memo_forget(c);
}

/*
 * Whether two written-byte masks of a line (lazy_fetch) tell the same,
 * given its readable sectors: a readable sector's written bytes are never
 * read again (they only decide when a sector becomes readable), so only
 * the other sectors' count.
 */
static bool same_written(const struct sc_cache *c, const uint64_t *a,
			 const uint64_t *b, uint32_t readable)
{
	for (unsigned k = 0; k < c->cfg.line_bytes / MEM_ATOM; k++) {
		unsigned sector = k * MEM_ATOM / c->cfg.sector_bytes;
		unsigned shift = (k % 2) * 32;

		if (!(readable >> sector & 1) &&
		    (uint32_t)(a[k / 2] >> shift) != (uint32_t)(b[k / 2] >> shift))
			return false;
	}
	return true;
}

/* Way w's record and sector state in a saved set. */
static bool same_way(const struct sc_cache *c, const struct set_state_layout *l,
		     const uint8_t *a, unsigned wa, const uint8_t *b, unsigned wb)
{
	struct sc_way ra, rb;

	memcpy(&ra, a + l->ways + wa * sizeof(ra), sizeof(ra));
	memcpy(&rb, b + l->ways + wb * sizeof(rb), sizeof(rb));
	/* an empty way's other fields are whatever it held before: unread */
	if (ra.valid != rb.valid)
		return false;
	if (!ra.valid)
		return true;
	if (ra.tag != rb.tag || ra.dirty != rb.dirty)
		return false;
	if (!c->readable)
		return true;
	size_t mw = c->mask_words * sizeof(uint64_t);
	uint32_t xa, xb;
	uint64_t *ma = g_alloca(mw), *mb = g_alloca(mw);

	memcpy(&xa, a + l->readable + wa * sizeof(uint32_t), sizeof(xa));
	memcpy(&xb, b + l->readable + wb * sizeof(uint32_t), sizeof(xb));
	memcpy(ma, a + l->bytes + wa * mw, mw);
	memcpy(mb, b + l->bytes + wb * mw, mw);
	return xa == xb && same_written(c, ma, mb, xa);
}

bool sc_set_state_match(const struct sc_cache *c, const void *a, const void *b,
			uint16_t *map)
{
	struct set_state_layout l = state_layout(c);
	const uint8_t *sa = a, *sb = b;
	bool wide = c->wide_links;
	const uint8_t *na = sa + l.block + 2 * c->fp_lanes;
	const uint8_t *nb = sb + l.block + 2 * c->fp_lanes;
	uint32_t wa, wb;

	memcpy(&wa, sa + l.head, sizeof(wa));
	memcpy(&wb, sb + l.head, sizeof(wb));
	/* the same lines in the same order of recency (or age) */
	for (uint32_t i = 0; i < c->assoc; i++) {
		if (!same_way(c, &l, sa, wa, sb, wb))
			return false;
		map[wa] = (uint16_t)wb;
		wa = link_get(na, wa, wide);
		wb = link_get(nb, wb, wide);
	}
	return true;
}

bool sc_sets_match(struct sc_cache *a, struct sc_cache *b, uint32_t set,
		   uint16_t *map)
{
	bool wide = a->wide_links;
	const uint8_t *pa, *pb;
	size_t ba = (size_t)set * a->assoc;
	uint32_t wa, wb;

	if (!set_live(a, set))
		empty_set(a, set);
	if (!set_live(b, set))
		empty_set(b, set);
	pa = set_prev(a, set, wide);
	pb = set_prev(b, set, wide);
	wa = link_get(pa, a->sets[set].head, wide);
	wb = link_get(pb, b->sets[set].head, wide);
	/* from the least recent line: where two runs differ, mostly */
	for (uint32_t i = 0; i < a->assoc; i++) {
		const struct sc_way *ra = &a->ways[ba + wa], *rb = &b->ways[ba + wb];

		if (ra->valid != rb->valid)
			return false;
		if (ra->valid) {
			if (ra->tag != rb->tag || ra->dirty != rb->dirty)
				return false;
			if (a->readable &&
			    (a->readable[ba + wa] != b->readable[ba + wb] ||
			     !same_written(a, &a->bytes[(ba + wa) * a->mask_words],
					   &b->bytes[(ba + wb) * a->mask_words],
					   a->readable[ba + wa])))
				return false;
		}
		map[wa] = (uint16_t)wb;
		wa = link_get(pa, wa, wide);
		wb = link_get(pb, wb, wide);
	}
	return true;
}

void sc_set_state_renumber(const struct sc_cache *c, const void *from,
			   const uint16_t *map, void *to)
{
	struct set_state_layout l = state_layout(c);
	const uint8_t *f = from;
	uint8_t *t = to;
	bool wide = c->wide_links;
	const uint16_t *ffp = (const uint16_t *)(f + l.block);
	uint16_t *tfp = (uint16_t *)(t + l.block);
	const uint8_t *fnext = f + l.block + 2 * c->fp_lanes;
	const uint8_t *fprev = fnext + ((size_t)c->assoc << wide);
	uint8_t *tnext = t + l.block + 2 * c->fp_lanes;
	uint8_t *tprev = tnext + ((size_t)c->assoc << wide);
	size_t mw = c->mask_words * sizeof(uint64_t);
	uint32_t head;

	memcpy(t, f, l.total);	/* the padding of the fingerprints, among others */
	memcpy(&head, f + l.head, sizeof(head));
	head = map[head];
	memcpy(t + l.head, &head, sizeof(head));
	for (uint32_t w = 0; w < c->assoc; w++) {
		unsigned m = map[w];

		tfp[m] = ffp[w];
		link_set(tnext, m, map[link_get(fnext, w, wide)], wide);
		link_set(tprev, m, map[link_get(fprev, w, wide)], wide);
		memcpy(t + l.ways + m * sizeof(struct sc_way),
		       f + l.ways + w * sizeof(struct sc_way), sizeof(struct sc_way));
		if (c->readable) {
			memcpy(t + l.readable + m * sizeof(uint32_t),
			       f + l.readable + w * sizeof(uint32_t), sizeof(uint32_t));
			memcpy(t + l.bytes + m * mw, f + l.bytes + w * mw, mw);
		}
	}
}

void sc_add_counts(struct sc_cache *c, const uint64_t *add, const uint64_t *sub)
{
	for (unsigned i = 0; i < SC_S_HIT_RATE; i++) {
		if (i >= SC_S_TOTAL && i < SC_S_TOTAL + SC_N_METRICS)
			continue;	/* sums, made when read */
		c->st[i] += add[i] - (sub ? sub[i] : 0);
	}
}

const struct sc_config *sc_config_of(const struct sc_cache *c)
{
	return &c->cfg;
}

void sc_write_back_dirty(struct sc_cache *c)
{
	for (size_t set = 0; set < c->nsets; set++) {
		if (!set_live(c, set))
			continue;
		for (size_t w = set * c->assoc; w < (set + 1) * c->assoc; w++) {
			struct sc_way *rec = &c->ways[w];

			if (rec->valid & rec->dirty) {
				write_back(c, rec->tag, rec->valid & rec->dirty,
					   SC_S_WB_FLUSH);
				rec->dirty = 0;
			}
		}
		c->sets[set].walk_from = 0;
	}
	/* the sets of older epochs hold no lines: none is modified now */
	c->modified_lines = 0;
}

uint64_t sc_dirty_sectors(const struct sc_cache *c)
{
	uint64_t n = 0;

	for (size_t set = 0; set < c->nsets; set++)
		for (size_t w = set * c->assoc; set_live(c, set) &&
		     w < (set + 1) * c->assoc; w++)
			n += __builtin_popcount(c->ways[w].valid & c->ways[w].dirty);
	return n;
}

void sc_flush(struct sc_cache *c)
{
	sc_write_back_dirty(c);
	sc_invalidate(c);
}

void sc_end_kernel(struct sc_cache *c, const struct sc_kernel_end *end)
{
	if (end->final == SC_FINAL_COUNT)
		sc_write_back_dirty(c);
	else if (end->final == SC_FINAL_REPORT && c->cfg.write_hit == SC_WRITE_BACK)
		/* a write-through cache's modified sectors are below already */
		c->st[SC_S_DIRTY_AT_END] += sc_dirty_sectors(c);
	if (end->invalidate)
		sc_invalidate(c);
}
