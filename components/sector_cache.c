/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sector_cache: a functional (hit/miss exact, no timing) set-associative
 * cache whose lines are split into sectors with their own valid, dirty and
 * readable bits.  One type serves as the L1 of an SM and as an L2 slice;
 * only parameters and wiring differ.  The state machine is model.md 7.4
 * (write_miss = allocate / no_allocate: the reference's LRUCache) and 7.5
 * (write_miss = lazy_fetch: GPGPU-Sim's sector cache made functional).
 *
 * Layout, chosen by the benchmark: every per-way array is indexed by
 * set * assoc + way.  A lookup first compares 16-bit fingerprints of the
 * line number, 8 ways per SSE2 instruction (a 32-way set's fingerprints are
 * one 64-byte CPU line), and reads a full tag only on a fingerprint match.
 * Each set keeps its ways in a doubly linked recency list (the paper's O(1)
 * LRU), so the victim is the tail, found without a scan; FIFO keeps the
 * list in allocation order instead.
 * Ways fill in order and are only emptied all at once (invalidate), so a
 * count per set tells which are in use.  The last line looked up is
 * remembered, so the 4 sectors of a line cost one lookup.  Nothing is
 * allocated per access.
 */
#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "sector_cache.h"

#define FP_PAD 8	/* fingerprints read past a set's end by the 8-wide compare */

/* What a lookup or a fill touches of one way, in one place. */
struct sc_way {
	uint64_t tag;			/* the line number */
	uint32_t valid, dirty, readable;	/* sector bit masks */
	uint8_t prev, next;		/* recency list of the set, in-set indices */
};

struct sc_set {
	uint16_t used;			/* ways 0..used-1 hold lines */
	uint8_t head, tail;		/* most and least recent (or newest, oldest) */
};

struct sc_cache {
	struct sc_config cfg;
	uint32_t nsets, assoc, sectors;	/* sectors per line */
	unsigned line_shift, sector_shift, set_shift;
	uint64_t sector_addr_mask;	/* clears the offset within a sector */
	uint32_t sector_idx_mask;	/* sectors per line - 1 */
	uint16_t *fp;			/* fingerprint per way */
	struct sc_set *sets;
	struct sc_way *ways;
	uint64_t *bytes;		/* lazy_fetch: written bytes, line_bytes bits per way */
	unsigned mask_words;		/* 64-bit words of `bytes` per way */
	uint64_t memo_line;		/* the last line found, UINT64_MAX: none */
	size_t memo_way, memo_set;
	uint64_t *st;
	uint64_t own_stats[SC_N_STATS];
	sc_emit_fn emit;
	void *ctx;
};

static inline uint16_t fingerprint(uint64_t line)
{
	/* never 0, so a fingerprint compare cannot match a zeroed pad */
	return (uint16_t)((line * UINT64_C(0x9e3779b97f4a7c15)) >> 48) | 1;
}

static unsigned log2u(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void free_arrays(struct sc_cache *c)
{
	g_free(c->fp);
	g_free(c->sets);
	g_free(c->ways);
	g_free(c->bytes);
}

void sc_invalidate(struct sc_cache *c)
{
	size_t n = (size_t)c->nsets * c->assoc;

	/* state of a way is reset when it is allocated: emptying the sets
	 * is enough */
	memset(c->sets, 0, c->nsets * sizeof(*c->sets));
	memset(c->fp, 0, (n + FP_PAD) * sizeof(*c->fp));
	c->memo_line = UINT64_MAX;
}

/* Check the geometry of cfg and size the arrays. */
static bool configure(struct sc_cache *c, const struct sc_config *cfg,
		      char **why)
{
	uint64_t lines;
	const char *bad;

	*why = NULL;
	if (!cfg->assoc || !cfg->line_bytes || !cfg->sector_bytes) {
		*why = g_strdup("assoc, line_bytes and sector_bytes must not be zero");
		return false;
	}
	if (cfg->assoc > 256) {
		*why = g_strdup_printf("assoc %u: at most 256 ways", cfg->assoc);
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
	if ((cfg->size != 0) == (cfg->sets != 0)) {
		*why = g_strdup("give either size or sets (not both, not neither)");
		return false;
	}
	if (cfg->size) {
		lines = cfg->size / cfg->line_bytes;
		if (cfg->assoc > lines) {
			*why = g_strdup_printf("assoc %u is larger than the %" G_GUINT64_FORMAT " lines of %" G_GUINT64_FORMAT " bytes",
					       cfg->assoc, lines, cfg->size);
			return false;
		}
		/* integer division, as the reference: 4.5 MiB / 32 / 128 = 1152 */
		c->nsets = cfg->size / cfg->assoc / cfg->line_bytes;
	} else {
		c->nsets = cfg->sets;
	}
	if ((uint64_t)c->nsets * cfg->assoc > (UINT64_C(1) << 32)) {
		*why = g_strdup("more than 2^32 lines");
		return false;
	}
	bad = set_index_check(cfg->index, c->nsets, cfg->line_bytes);
	if (bad) {
		*why = g_strdup_printf("%u sets: this index function %s", c->nsets, bad);
		return false;
	}
	c->cfg = *cfg;
	c->assoc = cfg->assoc;
	c->sectors = cfg->line_bytes / cfg->sector_bytes;
	c->line_shift = log2u(cfg->line_bytes);
	c->sector_shift = log2u(cfg->sector_bytes);
	c->sector_addr_mask = ~(uint64_t)(cfg->sector_bytes - 1);
	c->sector_idx_mask = c->sectors - 1;
	c->set_shift = pow2(c->nsets) ? log2u(c->nsets) : 0;
	c->mask_words = (cfg->line_bytes + 63) / 64;

	size_t n = (size_t)c->nsets * c->assoc;

	free_arrays(c);
	c->fp = g_new(uint16_t, n + FP_PAD);
	c->sets = g_new0(struct sc_set, c->nsets);
	c->ways = g_new0(struct sc_way, n);
	c->bytes = cfg->write_miss == SC_LAZY_FETCH ? g_new0(uint64_t, n * c->mask_words) : NULL;
	sc_invalidate(c);
	return true;
}

struct sc_cache *sc_new(const struct sc_config *cfg, uint64_t *stats,
			sc_emit_fn emit, void *ctx, char **why)
{
	struct sc_cache *c = g_new0(struct sc_cache, 1);

	if (!configure(c, cfg, why)) {
		sc_free(c);
		return NULL;
	}
	c->st = stats ? stats : c->own_stats;
	c->emit = emit;
	c->ctx = ctx;
	return c;
}

void sc_free(struct sc_cache *c)
{
	if (!c)
		return;
	free_arrays(c);
	g_free(c);
}

bool sc_resize(struct sc_cache *c, uint64_t size, char **why)
{
	struct sc_config cfg = c->cfg;

	cfg.size = size;
	cfg.sets = 0;
	return configure(c, &cfg, why);
}

uint32_t sc_sets(const struct sc_cache *c)
{
	return c->nsets;
}

const uint64_t *sc_stats(const struct sc_cache *c)
{
	return c->st;
}

uint32_t sc_set_of(const struct sc_cache *c, uint64_t addr, uint64_t part_addr)
{
	return set_index(c->cfg.index, c->cfg.index_on_partition ? part_addr : addr,
			 c->line_shift, c->nsets, c->set_shift);
}

/* ---- traffic to the next level ------------------------------------------- */

/* A request to the next level, made from the one being served (so it keeps
 * its space, SM and warp) or, for a write-back, from nothing. */
static void send(struct sc_cache *c, enum mem_op op, uint64_t addr,
		 uint32_t size, uint32_t mask, const struct mem_req *from)
{
	static const struct mem_req blank = { .hdr = { sizeof(blank), 0 } };
	struct mem_req r = from ? *from : blank;

	r.hdr.kind = op;
	r.part_addr = from ? from->part_addr + (addr - from->addr) : addr;
	r.addr = addr;
	r.size = size;
	r.mask = mask;
	r.ctl = 0;
	c->emit(c->ctx, &r);
}

static void write_back_line(struct sc_cache *c, size_t way, enum sc_stat counter)
{
	uint32_t dirty = c->ways[way].valid & c->ways[way].dirty;
	uint64_t base = c->ways[way].tag << c->line_shift;

	if (c->cfg.write_hit != SC_WRITE_BACK)
		return;		/* a write-through cache has nothing to write back */
	while (dirty) {
		unsigned s = __builtin_ctz(dirty);

		dirty &= dirty - 1;
		c->st[counter]++;
		c->st[SC_S_TOTAL + SC_M_WRITES_DOWN]++;
		send(c, MEM_WRITE, base + ((uint64_t)s << c->sector_shift),
		     c->cfg.sector_bytes, UINT32_MAX, NULL);
	}
}

/* ---- the state machine ---------------------------------------------------- */

/* Put in-set way w at the head of its set's recency list. */
static inline void push_front(struct sc_cache *c, size_t set, size_t base,
			      uint16_t w)
{
	c->ways[base + w].next = c->sets[set].head;
	c->ways[base + c->sets[set].head].prev = w;
	c->sets[set].head = w;
}

/* Make `way` the most recent of its set (LRU only): the paper's O(1) LRU,
 * a doubly linked list per set. */
static inline void touch(struct sc_cache *c, size_t set, size_t base,
			 size_t way)
{
	uint16_t w = way - base;

	if (c->cfg.replacement != SC_LRU || c->sets[set].head == w)
		return;
	uint16_t p = c->ways[way].prev, n = c->ways[way].next;

	c->ways[base + p].next = n;
	if (c->sets[set].tail == w)
		c->sets[set].tail = p;
	else
		c->ways[base + n].prev = p;
	push_front(c, set, base, w);
}

/* A way for `line` in `set`: a free one, else the victim (least recent,
 * or oldest for FIFO), whose dirty sectors are written back first.  The
 * new line is the most recent of its set. */
static size_t allocate(struct sc_cache *c, size_t set, uint64_t line)
{
	size_t base = set * c->assoc;
	size_t way;

	if (c->sets[set].used < c->assoc) {
		uint16_t w = c->sets[set].used++;

		way = base + w;
		if (w == 0)
			c->sets[set].head = c->sets[set].tail = 0;
		else
			push_front(c, set, base, w);
	} else {
		uint16_t w = c->sets[set].tail;

		way = base + w;
		c->st[SC_S_EVICTIONS]++;
		if (c->ways[way].dirty & c->ways[way].valid)
			write_back_line(c, way, SC_S_WB_EVICT);
		if (c->memo_line == c->ways[way].tag)
			c->memo_line = UINT64_MAX;
		if (c->sets[set].head != w) {
			c->sets[set].tail = c->ways[way].prev;
			push_front(c, set, base, w);
		}
	}
	c->ways[way].tag = line;
	c->fp[way] = fingerprint(line);
	c->ways[way].valid = c->ways[way].dirty = c->ways[way].readable = 0;
	if (c->bytes)
		memset(c->bytes + way * c->mask_words, 0,
		       c->mask_words * sizeof(*c->bytes));
	return way;
}

/* The way holding `line` in `set`, or SIZE_MAX. */
static inline size_t lookup(const struct sc_cache *c, size_t set,
			    uint64_t line)
{
	size_t base = set * c->assoc;
	uint32_t used = c->sets[set].used;
	uint16_t fp = fingerprint(line);
	const uint16_t *f = c->fp + base;

#ifdef __SSE2__
	const __m128i needle = _mm_set1_epi16((short)fp);

	for (uint32_t i = 0; i < used; i += 8) {
		__m128i v = _mm_loadu_si128((const __m128i *)(f + i));
		uint32_t m = _mm_movemask_epi8(_mm_cmpeq_epi16(v, needle));

		if (used - i < 8)
			m &= (1u << (2 * (used - i))) - 1;
		while (m) {
			uint32_t w = i + __builtin_ctz(m) / 2;

			if (c->ways[base + w].tag == line)
				return base + w;
			m &= m - 1;
			m &= m - 1;	/* two mask bits per 16-bit lane */
		}
	}
#else
	for (uint32_t w = 0; w < used; w++)
		if (f[w] == fp && c->ways[base + w].tag == line)
			return base + w;
#endif
	return SIZE_MAX;
}

/* Mark `len` written bytes from `addr` (`mask` selects them when len is one
 * 32 B atom); true when the sector holding them is then fully written. */
static bool write_bytes(struct sc_cache *c, size_t way, uint64_t addr,
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

/* The part of request r that falls in one sector: `len` bytes from `addr`. */
static inline __attribute__((always_inline)) enum sc_probe
access_sector(struct sc_cache *c, const struct mem_req *r, uint64_t addr,
	      uint32_t len, uint32_t mask)
{
	enum mem_op op = r->hdr.kind;
	unsigned k = sc_stat_index(r->space, op, 0);
	uint64_t *st = c->st;
	uint64_t line = addr >> c->line_shift;
	uint64_t sector_addr = addr & c->sector_addr_mask;
	uint32_t sbit = 1u << ((addr >> c->sector_shift) & c->sector_idx_mask);
	size_t set, base, way;
	enum sc_probe p;
	bool is_write = op == MEM_WRITE;

	if (line == c->memo_line) {
		way = c->memo_way;
		set = c->memo_set;
	} else {
		uint64_t index_addr = c->cfg.index_on_partition
			? r->part_addr + (addr - r->addr) : addr;

		set = set_index(c->cfg.index, index_addr, c->line_shift,
				c->nsets, c->set_shift);
		way = lookup(c, set, line);
	}
	base = set * c->assoc;
	if (way == SIZE_MAX)
		p = SC_MISS;
	else if (!(c->ways[way].valid & sbit) ||
		 (!is_write && !(c->ways[way].readable & sbit)))
		p = SC_SECTOR_MISS;
	else
		p = SC_HIT;

	st[k + SC_M_ACCESSES]++;
	st[SC_S_TOTAL + SC_M_ACCESSES]++;
	if (p == SC_HIT) {
		st[k + SC_M_HITS]++;
		st[SC_S_TOTAL + SC_M_HITS]++;
	} else if (!is_write || c->cfg.count_write_misses) {
		unsigned m = p == SC_MISS ? SC_M_LINE_MISSES : SC_M_SECTOR_MISSES;

		st[k + m]++;
		st[SC_S_TOTAL + m]++;
	}

	if (!is_write) {
		/* read, atomic, reduction: fetch what is not readable */
		if (p != SC_HIT) {
			st[k + SC_M_READS_DOWN]++;
			st[SC_S_TOTAL + SC_M_READS_DOWN]++;
			send(c, MEM_READ, sector_addr, c->cfg.sector_bytes, UINT32_MAX, r);
			if (p == SC_MISS)
				way = allocate(c, set, line);
			c->ways[way].valid |= sbit;
			c->ways[way].readable |= sbit;
		}
		if (op != MEM_READ && c->cfg.write_hit == SC_WRITE_BACK) {
			/* a read-modify-write leaves the sector modified */
			c->ways[way].dirty |= sbit;
			if (c->bytes)
				write_bytes(c, way, addr, len, mask);
		}
		touch(c, set, base, way);
		c->memo_line = line;
		c->memo_way = way;
		c->memo_set = set;
		return p;
	}

	if (c->cfg.write_hit == SC_WRITE_THROUGH) {
		st[k + SC_M_WRITES_DOWN]++;
		st[SC_S_TOTAL + SC_M_WRITES_DOWN]++;
		send(c, MEM_WRITE, addr, len, mask, r);
	}
	switch (c->cfg.write_miss) {
	case SC_ALLOCATE:
		if (p == SC_MISS)
			way = allocate(c, set, line);
		c->ways[way].valid |= sbit;
		c->ways[way].readable |= sbit;
		/* the reference overwrites the dirty bit: a write-through
		 * write leaves the sector clean */
		if (c->cfg.write_hit == SC_WRITE_BACK)
			c->ways[way].dirty |= sbit;
		else
			c->ways[way].dirty &= ~sbit;
		touch(c, set, base, way);
		break;
	case SC_NO_ALLOCATE:
		if (p == SC_HIT) {
			if (c->cfg.write_hit == SC_WRITE_BACK)
				c->ways[way].dirty |= sbit;
			touch(c, set, base, way);
		} else if (c->cfg.write_hit == SC_WRITE_BACK) {
			st[k + SC_M_WRITES_DOWN]++;
			st[SC_S_TOTAL + SC_M_WRITES_DOWN]++;
			send(c, MEM_WRITE, addr, len, mask, r);
		}
		break;
	case SC_LAZY_FETCH: {
		if (p == SC_MISS)
			way = allocate(c, set, line);
		bool full = write_bytes(c, way, addr, len, mask);

		c->ways[way].valid |= sbit;
		c->ways[way].dirty |= sbit;
		if (full)
			c->ways[way].readable |= sbit;
		touch(c, set, base, way);
		break;
	}
	case SC_FETCH:
		if (p != SC_HIT) {
			st[k + SC_M_READS_DOWN]++;
			st[SC_S_TOTAL + SC_M_READS_DOWN]++;
			send(c, MEM_READ, sector_addr, c->cfg.sector_bytes, UINT32_MAX, r);
			if (p == SC_MISS)
				way = allocate(c, set, line);
			c->ways[way].valid |= sbit;
			c->ways[way].readable |= sbit;
		}
		if (c->cfg.write_hit == SC_WRITE_BACK)
			c->ways[way].dirty |= sbit;
		touch(c, set, base, way);
		break;
	}
	if (way != SIZE_MAX) {
		c->memo_line = line;
		c->memo_way = way;
		c->memo_set = set;
	}
	return p;
}

enum sc_probe sc_access(struct sc_cache *c, const struct mem_req *r)
{
	/* what a coalescer sends: one 32 B atom, within one sector */
	if (G_LIKELY(r->size == MEM_ATOM))
		return access_sector(c, r, r->addr, MEM_ATOM, r->mask);

	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint32_t mask = r->size <= MEM_ATOM ? r->mask : UINT32_MAX;
	uint64_t next = (r->addr | (c->cfg.sector_bytes - 1)) + 1;
	enum sc_probe first;

	/* one sector access per sector of this cache the request touches */
	first = access_sector(c, r, r->addr, MIN(next, end) - r->addr, mask);
	for (uint64_t a = next; a < end; a += c->cfg.sector_bytes)
		access_sector(c, r, a, MIN(a + c->cfg.sector_bytes, end) - a, mask);
	return first;
}

void sc_flush(struct sc_cache *c)
{
	for (size_t set = 0; set < c->nsets; set++)
		for (size_t w = set * c->assoc; w < set * c->assoc + c->sets[set].used; w++)
			write_back_line(c, w, SC_S_WB_FLUSH);
	sc_invalidate(c);
}

/* ---- the component -------------------------------------------------------- */

static const char *const index_names[] = {
	[SET_INDEX_FIB_DOUBLE] = "fib_double", [SET_INDEX_LINEAR] = "linear",
	[SET_INDEX_XOR] = "xor", [SET_INDEX_IPOLY] = "ipoly",
	[SET_INDEX_FERMI] = "fermi", NULL,
};
static const char *const index_on_names[] = { "address", "partition", NULL };
static const char *const replacement_names[] = { "lru", "fifo", NULL };
static const char *const write_hit_names[] = { "write_back", "write_through", NULL };
static const char *const write_miss_names[] = {
	"allocate", "no_allocate", "lazy_fetch", "fetch", NULL,
};

static const struct ss_param_desc params[] = {
	{ "size", SS_P_SIZE, "0", "capacity (give size or sets); sets = size / assoc / line_bytes, rounded down", NULL, 0, 0, 0 },
	{ "sets", SS_P_UINT, "0", "number of sets (give size or sets)", NULL, 0, 0, 0 },
	{ "assoc", SS_P_UINT, NULL, "ways per set", NULL, 1, 256, 0 },
	{ "line_bytes", SS_P_SIZE, "128B", "line size: the unit of tags, allocation and replacement", NULL, 32, 65536, SS_PF_POW2 },
	{ "sector_bytes", SS_P_SIZE, "32B", "sector size: the unit of valid and dirty bits; = line_bytes for a non-sectored cache", NULL, 32, 65536, SS_PF_POW2 },
	{ "index", SS_P_ENUM, "linear", "set-index function: fib_double (the reference's float hash), linear, xor, ipoly (16/32/64 sets), fermi", index_names, 0, 0, 0 },
	{ "index_on", SS_P_ENUM, "address", "hash the request's address, or the partition address an L2 router attaches", index_on_names, 0, 0, 0 },
	{ "replacement", SS_P_ENUM, "lru", "victim: least recently touched line, or oldest allocation", replacement_names, 0, 0, 0 },
	{ "write_hit", SS_P_ENUM, "write_back", "write_back keeps dirty sectors until eviction or flush; write_through forwards every write", write_hit_names, 0, 0, 0 },
	{ "write_miss", SS_P_ENUM, "allocate", "allocate (valid without fetch), no_allocate (forward), lazy_fetch (write-validate with byte masks), fetch (read then merge)", write_miss_names, 0, 0, 0 },
	{ "count_write_misses", SS_P_BOOL, "true", "false: store misses are not counted as misses (the reference's fix_l2)", NULL, 0, 0, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0, 0 },
};

static const struct ss_port_desc ports[] = {
	{ "cpu_side", SS_PORT_IN, MEM_PROTOCOL, false, true, "requests and control from the level above" },
	{ "mem_side", SS_PORT_OUT, MEM_PROTOCOL, false, true, "fetches, write-throughs, write-backs and control to the next level" },
	{ NULL, 0, NULL, false, false, NULL },
};

#define KIND_STATS(k, what) \
	{ k "_accesses", SS_STAT_COUNTER, "sector accesses by " what, NULL, NULL }, \
	{ k "_hits", SS_STAT_COUNTER, "hits by " what, NULL, NULL }, \
	{ k "_sector_misses", SS_STAT_COUNTER, "sector misses (line present) by " what, NULL, NULL }, \
	{ k "_line_misses", SS_STAT_COUNTER, "line misses by " what, NULL, NULL }, \
	{ k "_reads_down", SS_STAT_COUNTER, "sector reads sent to the next level for " what, NULL, NULL }, \
	{ k "_writes_down", SS_STAT_COUNTER, "sector writes sent to the next level for " what " (write-through, no-allocate)", NULL, NULL }

/* The order is the layout of enum sc_stat: kinds by sc_stat_index, then totals. */
static const struct ss_stat_desc stats[] = {
	KIND_STATS("global_load", "global loads"),
	KIND_STATS("global_store", "global stores"),
	KIND_STATS("global_atomic", "global atomics"),
	KIND_STATS("global_reduction", "global reductions"),
	KIND_STATS("local_load", "local loads"),
	KIND_STATS("local_store", "local stores"),
	KIND_STATS("local_atomic", "local atomics"),
	KIND_STATS("local_reduction", "local reductions"),
	{ "accesses", SS_STAT_COUNTER, "sector accesses", NULL, NULL },
	{ "hits", SS_STAT_COUNTER, "hits", NULL, NULL },
	{ "sector_misses", SS_STAT_COUNTER, "sector misses (line present, sector not readable)", NULL, NULL },
	{ "line_misses", SS_STAT_COUNTER, "line misses", NULL, NULL },
	{ "reads_down", SS_STAT_COUNTER, "sector reads sent to the next level", NULL, NULL },
	{ "writes_down", SS_STAT_COUNTER, "sector writes sent to the next level, write-backs included", NULL, NULL },
	{ "evictions", SS_STAT_COUNTER, "lines evicted to make room", NULL, NULL },
	{ "wb_evict", SS_STAT_COUNTER, "dirty sectors written back on eviction", NULL, NULL },
	{ "wb_flush", SS_STAT_COUNTER, "dirty sectors written back by a flush", NULL, NULL },
	{ "hit_rate", SS_STAT_RATIO, "hits / accesses", "hits", "accesses" },
	{ NULL, 0, NULL, NULL, NULL },
};

G_STATIC_ASSERT(G_N_ELEMENTS(stats) == SC_N_STATS + 1);

struct sector_cache {
	struct ss_component c;
	struct sc_cache *cache;
	struct ss_port *cpu_side, *mem_side;
};

static void emit_down(void *ctx, const struct mem_req *r)
{
	struct sector_cache *sc = ctx;

	ss_port_send(sc->mem_side, &r->hdr);
}

static int sector_cache_create(struct ss_component *c, const struct ss_params *p,
			       GError **err)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);
	struct sc_config cfg = {
		.size = ss_param_uint(p, "size"),
		.sets = ss_param_uint(p, "sets"),
		.assoc = ss_param_uint(p, "assoc"),
		.line_bytes = ss_param_uint(p, "line_bytes"),
		.sector_bytes = ss_param_uint(p, "sector_bytes"),
		.index = ss_param_enum(p, "index"),
		.index_on_partition = ss_param_enum(p, "index_on") == 1,
		.replacement = ss_param_enum(p, "replacement"),
		.write_hit = ss_param_enum(p, "write_hit"),
		.write_miss = ss_param_enum(p, "write_miss"),
		.count_write_misses = ss_param_bool(p, "count_write_misses"),
	};
	char *why = NULL;

	if (cfg.sets > UINT32_MAX) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "sets: at most %u", UINT32_MAX);
		return -1;
	}
	sc->cpu_side = ss_component_port(c, "cpu_side", 0);
	sc->mem_side = ss_component_port(c, "mem_side", 0);
	sc->cache = sc_new(&cfg, c->stats, emit_down, sc, &why);
	if (!sc->cache) {
		g_set_error(err, SS_ERROR, SS_ERROR_CONFIG, "%s", why);
		g_free(why);
		return -1;
	}
	return 0;
}

static void sector_cache_recv(struct ss_component *c, struct ss_port *in,
			      const struct ss_msg *m)
{
	struct sector_cache *sc = SS_COMPONENT(c, struct sector_cache, c);
	const struct mem_req *r = (const struct mem_req *)m;

	if (G_UNLIKELY(in != sc->cpu_side))
		g_error("%s: a functional cache expects no replies, got kind %u on %s",
			c->name, m->kind, in->desc->name);
	if (G_LIKELY(m->kind != MEM_CONTROL)) {
		sc_access(sc->cache, r);
		return;
	}
	if (r->ctl == MEM_CTL_FLUSH)
		sc_flush(sc->cache);
	else if (r->ctl == MEM_CTL_INVALIDATE)
		sc_invalidate(sc->cache);
	/* the levels below act on it too, after this one's write-backs */
	ss_port_send(sc->mem_side, m);
}

static void sector_cache_destroy(struct ss_component *c)
{
	sc_free(SS_COMPONENT(c, struct sector_cache, c)->cache);
}

static const struct ss_component_ops ops = {
	.xcreate = sector_cache_create,
	.xrecv = sector_cache_recv,
	.xdestroy = sector_cache_destroy,
};

static const struct ss_component_type sector_cache_type = {
	.abi_version = SS_ABI_VERSION,
	.name = "sector_cache",
	.summary = "Functional set-associative sector cache: an L1 or an L2 slice",
	.params = params,
	.ports = ports,
	.stats = stats,
	.ops = &ops,
	.instance_size = sizeof(struct sector_cache),
};

SS_PLUGIN_ENTRY(sector_cache)
{
	return ss_registry_add(r, &sector_cache_type, error);
}
