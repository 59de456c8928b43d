/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LRU stack simulation of a sector cache's lanes (sc_stack.h).
 *
 * When every access allocates its line and the victim is the least
 * recent, a cache of A ways holds, in each set, the A most recent lines
 * of that set: every lane is the top of one recency stack per set, as
 * deep as the largest lane.  An access finds its line at depth d (or not
 * at all): it hits the line in every lane of more than d ways and misses
 * it in the others, where the victim is the line at depth A - 1, the one
 * the access pushes out of the lane's top A.  The line then goes to the
 * top.  Lines that fall below the deepest lane are dropped.
 *
 * A line's sectors differ from lane to lane only by when each lane last
 * brought the line in, which is the last time the line was at least as
 * deep as the lane's ways.  So each sector keeps, for each kind of event
 * that sets one of its bits in every lane at once (made valid, made dirty,
 * fetched and so readable), the greatest depth its line has been at since
 * that event: the bit is set in exactly the lanes of more ways.  A line
 * only sinks between its accesses, so the depth it is at when next
 * accessed is the greatest since the last; the values are brought up to
 * date then.  A flush's cleaning and write-through's clearing of a dirty
 * bit, which hold in every lane at once, are "never" (FAR).
 *
 * lazy_fetch's written bytes accumulate per lane since the line came in:
 * lane A's mask is the OR of the writes since which the line stayed
 * above depth A.  Each sector keeps a chain of (greatest depth since,
 * OR of the writes since then), newest first, the ORs growing; lane A's
 * mask is that of the oldest link whose depth is below A.  Links between
 * which no lane's ways fall, or of equal masks, are merged, so a chain
 * has at most one link per lane.
 *
 * Every outcome is then a range of lanes (ascending in ways): those that
 * miss the line, those that miss the sector, those that hit.  Counters
 * are difference arrays over the lanes, added up when read, so an access
 * costs its lookup, its sectors, and one victim per lane that evicts.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "sc_stack.h"
#include "setindex.h"

#define FAR UINT16_MAX		/* never, or below every lane */

/* Counters of a lane: sc_stats()'s, then what it sent. */
#define N_COUNTERS (SC_N_STATS + SC_N_SENT)

/* What a sector keeps: the greatest depth its line has been at since it
 * was last made valid, dirty and readable (fetched), and its chain's
 * length (lazy_fetch). */
struct sector {
	uint16_t valid, dirty, fetched, links;
};

struct link {
	uint16_t depth;
	uint32_t mask;
};

struct sc_stack {
	struct sc_config cfg;
	unsigned lanes;
	uint32_t ways[SC_STACK_MAX_LANES];	/* ascending */
	/* the caller's lane k is lane order_of[k] here */
	unsigned order_of[SC_STACK_MAX_LANES];
	uint32_t depth;			/* the deepest lane's ways */
	/* above[x]: the first lane of more than x ways (x up to depth;
	 * beyond, every lane has fewer: lanes) */
	uint8_t *above;
	uint32_t nsets, sectors;
	uint32_t sector_atoms;		/* 32-byte units of a sector */
	unsigned line_shift, sector_shift, set_shift;
	bool lazy, write_back;
	/* per set: lines in the stack, and their slots by recency */
	uint32_t *count;
	uint16_t *order;		/* nsets x depth */
	uint64_t *tag;			/* per slot */
	struct sector *sector;		/* per slot, `sectors` each */
	struct link *links;		/* per sector, `lanes` each */
	/* counters: per counter, a difference array over the lanes */
	int64_t *diff;			/* N_COUNTERS x (lanes + 1) */
	uint64_t *total;		/* N_COUNTERS per lane, added up */
	uint64_t bytes;			/* of the tables, on the run's account */
};

const char *sc_stack_unsupported(const struct sc_config *cfg)
{
	if (cfg->replacement != SC_LRU)
		return "replacement = fifo: the victim must be the least recently used line";
	if (cfg->write_miss == SC_NO_ALLOCATE)
		return "write_miss = no_allocate: a write miss allocates nothing, so a smaller cache's lines are not those of a larger one";
	if (cfg->protect_dirty_pct)
		return "protect_dirty_pct: the victim must be the least recently used line";
	if (cfg->size_from_kernel)
		return "size_from_kernel: each kernel sets the ways";
	if (!cfg->sets)
		return "sets not given: the lanes must share their sets";
	if (cfg->write_miss == SC_LAZY_FETCH && cfg->sector_bytes != MEM_ATOM)
		return "lazy_fetch with sectors over 32 bytes: a sector's written bytes must be one mask";
	return NULL;
}

void sc_stack_free(struct sc_stack *s)
{
	if (!s)
		return;
	if (s->bytes && s->cfg.memory) {
		char *ignored = NULL;

		s->cfg.memory(s->cfg.memory_ctx, 0, 0, 0, &ignored);
		g_free(ignored);
	}
	g_free(s->above);
	g_free(s->count);
	g_free(s->order);
	g_free(s->tag);
	g_free(s->sector);
	g_free(s->links);
	g_free(s->diff);
	g_free(s->total);
	g_free(s);
}

struct sc_stack *sc_stack_new(const struct sc_config *cfg, const uint32_t *ways,
			      unsigned lanes, char **why)
{
	const char *no = sc_stack_unsupported(cfg);
	struct sc_stack *s;
	size_t slots;

	*why = NULL;
	if (no) {
		*why = g_strdup(no);
		return NULL;
	}
	if (!lanes || lanes > SC_STACK_MAX_LANES) {
		*why = g_strdup_printf("%u lanes: expected 1 to %u", lanes, SC_STACK_MAX_LANES);
		return NULL;
	}
	s = g_new0(struct sc_stack, 1);
	s->cfg = *cfg;
	s->cfg.size = 0;
	s->lanes = lanes;
	/* each lane as sc_new() would check it; lanes in ascending ways */
	for (unsigned k = 0; k < lanes; k++) {
		struct sc_config one = s->cfg;
		struct sc_cache *c;
		unsigned at = 0;

		one.assoc = ways[k];
		one.memory = NULL;	/* a check, not a cache */
		c = sc_new(&one, NULL, NULL, NULL, why);
		if (!c) {
			sc_stack_free(s);
			return NULL;
		}
		sc_free(c);
		for (unsigned j = 0; j < lanes; j++) {
			if (j != k && ways[j] == ways[k]) {
				*why = g_strdup_printf("%u ways twice: expected distinct lanes", ways[k]);
				sc_stack_free(s);
				return NULL;
			}
			at += ways[j] < ways[k];
		}
		s->ways[at] = ways[k];
		s->order_of[k] = at;
	}
	s->depth = s->ways[lanes - 1];
	s->above = g_new(uint8_t, s->depth + 1);
	for (uint32_t x = 0, k = 0; x <= s->depth; x++) {
		while (k < lanes && s->ways[k] <= x)
			k++;
		s->above[x] = (uint8_t)k;
	}
	s->nsets = cfg->sets;
	s->sectors = cfg->line_bytes / cfg->sector_bytes;
	s->sector_atoms = cfg->sector_bytes / MEM_ATOM;
	s->line_shift = __builtin_ctz(cfg->line_bytes);
	s->sector_shift = __builtin_ctz(cfg->sector_bytes);
	s->set_shift = !(s->nsets & (s->nsets - 1)) ? __builtin_ctz(s->nsets) : 0;
	s->lazy = cfg->write_miss == SC_LAZY_FETCH;
	s->write_back = cfg->write_hit == SC_WRITE_BACK;
	slots = (size_t)s->nsets * s->depth;
	/* on the run's account, as a cache's tables */
	s->bytes = (uint64_t)s->nsets * (sizeof(uint32_t) + s->depth * (sizeof(uint16_t) + sizeof(uint64_t))) +
		   (uint64_t)slots * s->sectors * (sizeof(struct sector) +
						   (s->lazy ? lanes * sizeof(struct link) : 0)) +
		   (uint64_t)N_COUNTERS * (2 * lanes + 1) * sizeof(uint64_t);
	if (cfg->memory) {
		char *refused = NULL;

		if (!cfg->memory(cfg->memory_ctx, 0, 0, s->bytes, &refused)) {
			*why = g_strdup_printf("%u lanes of up to %u ways: %s", lanes, s->depth,
					       refused ? refused : "their tables are refused");
			g_free(refused);
			s->bytes = 0;
			sc_stack_free(s);
			return NULL;
		}
	}
	s->count = g_try_new0(uint32_t, s->nsets);
	s->order = g_try_new0(uint16_t, slots);
	s->tag = g_try_new0(uint64_t, slots);
	s->sector = g_try_new0(struct sector, slots * s->sectors);
	if (s->lazy)
		s->links = g_try_new0(struct link, slots * s->sectors * lanes);
	s->diff = g_try_new0(int64_t, (size_t)N_COUNTERS * (lanes + 1));
	s->total = g_try_new0(uint64_t, (size_t)N_COUNTERS * lanes);
	if (!s->count || !s->order || !s->tag || !s->sector || (s->lazy && !s->links) ||
	    !s->diff || !s->total) {
		*why = g_strdup_printf("%u sets of up to %u ways in %u lanes: out of memory",
				       s->nsets, s->depth, lanes);
		sc_stack_free(s);
		return NULL;
	}
	return s;
}

/* ---- counters -------------------------------------------------------------------- */

/* Counter c of the lanes from `from` up gains v. */
static inline void add_from(struct sc_stack *s, unsigned c, unsigned from, int64_t v)
{
	s->diff[(size_t)c * (s->lanes + 1) + from] += v;
}

/* Counter c of the lanes from `from` to `to` (excluded) gains v. */
static inline void add_range(struct sc_stack *s, unsigned c, unsigned from,
			     unsigned to, int64_t v)
{
	if (from >= to)
		return;
	s->diff[(size_t)c * (s->lanes + 1) + from] += v;
	s->diff[(size_t)c * (s->lanes + 1) + to] -= v;
}

static void add_up(struct sc_stack *s)
{
	for (unsigned c = 0; c < N_COUNTERS; c++) {
		int64_t *d = s->diff + (size_t)c * (s->lanes + 1), run = 0;

		for (unsigned k = 0; k < s->lanes; k++) {
			run += d[k];
			s->total[(size_t)k * N_COUNTERS + c] += (uint64_t)run;
		}
		memset(d, 0, (s->lanes + 1) * sizeof(*d));
	}
}

const uint64_t *sc_stack_stats(struct sc_stack *s, unsigned lane)
{
	uint64_t *t;

	add_up(s);
	t = s->total + (size_t)s->order_of[lane] * N_COUNTERS;
	sc_sum_totals(t);
	return t;
}

const uint64_t *sc_stack_sent(struct sc_stack *s, unsigned lane)
{
	add_up(s);
	return s->total + (size_t)s->order_of[lane] * N_COUNTERS + SC_N_STATS;
}

void sc_stack_zero(struct sc_stack *s)
{
	memset(s->diff, 0, (size_t)N_COUNTERS * (s->lanes + 1) * sizeof(*s->diff));
	memset(s->total, 0, (size_t)N_COUNTERS * s->lanes * sizeof(*s->total));
}

/* ---- a sector's chain of written bytes (lazy_fetch) ------------------------------- */

static unsigned lanes_above(const struct sc_stack *s, uint32_t depth)
{
	return depth >= s->depth ? s->lanes : s->above[depth];
}

/*
 * Link x after `prev`, the newest kept so far, in a chain being rebuilt
 * newest first: links that every lane sees both or neither of (no lane's
 * ways between their depths) are the older, whose bytes include the
 * newer's; of two with the same bytes the newer, which more lanes see,
 * stands for both.  True when x takes prev's place or is dropped.
 */
static bool merged(const struct sc_stack *s, struct link *prev, struct link x)
{
	if (lanes_above(s, prev->depth) == lanes_above(s, x.depth)) {
		*prev = x;
		return true;
	}
	return prev->mask == x.mask;
}

/*
 * The chain brought up to a line that is now at `depth` (each link's
 * depth at least that), merged, and without the links below every lane.
 */
static void age_links(const struct sc_stack *s, struct link *l, uint16_t *n, uint32_t depth)
{
	unsigned out = 0;

	for (unsigned i = 0; i < *n; i++) {
		struct link x = l[i];

		if (x.depth < depth)
			x.depth = (uint16_t)depth;
		if (lanes_above(s, x.depth) == s->lanes)
			break;	/* this one and the older: in no lane */
		if (!out || !merged(s, &l[out - 1], x))
			l[out++] = x;
	}
	*n = (uint16_t)out;
}

/* A write of `mask` to the sector, in every lane (the chain aged). */
static void add_link(const struct sc_stack *s, struct link *l, uint16_t *n, uint32_t mask)
{
	struct link chain[SC_STACK_MAX_LANES + 1];
	unsigned out = 1;

	/* newest first: the new link, then the others with its bytes */
	chain[0] = (struct link){ 0, mask };
	for (unsigned i = 0; i < *n; i++) {
		struct link x = l[i];

		x.mask |= mask;
		if (!merged(s, &chain[out - 1], x))
			chain[out++] = x;
	}
	memcpy(l, chain, out * sizeof(*l));
	*n = (uint16_t)out;
}

/* The first lane whose mask is whole: the newest whole link's depth. */
static uint32_t whole_from(const struct link *l, uint16_t n)
{
	for (unsigned i = 0; i < n; i++)
		if (l[i].mask == UINT32_MAX)
			return l[i].depth;
	return FAR;
}

/* ---- the stack ------------------------------------------------------------------- */

static inline uint16_t deeper(uint16_t v, uint32_t d)
{
	return v < d ? (uint16_t)d : v;
}

static inline unsigned stat_of(const struct mem_req *r, enum sc_metric m)
{
	return sc_stat_index(r->space, r->hdr.kind, m);
}

/* The dirty sectors of the line in `slot` that lane k (a ways) holds
 * (the line is above depth a). */
static unsigned dirty_in(const struct sc_stack *s, size_t slot, uint32_t a)
{
	const struct sector *sec = s->sector + slot * s->sectors;
	unsigned n = 0;

	for (uint32_t t = 0; t < s->sectors; t++)
		n += sec[t].valid < a && sec[t].dirty < a;
	return n;
}

static void access_sector(struct sc_stack *s, const struct mem_req *r,
			  uint64_t addr, uint32_t len, uint32_t mask)
{
	enum mem_op op = r->hdr.kind;
	bool is_write = op == MEM_WRITE;
	enum sc_write_miss wm = s->cfg.write_miss;
	uint64_t line = addr >> s->line_shift;
	uint64_t index_addr = s->cfg.index_on_partition ? r->part_addr + (addr - r->addr) : addr;
	uint32_t set = set_index(s->cfg.index, index_addr, s->line_shift, s->nsets, s->set_shift);
	uint16_t *order = s->order + (size_t)set * s->depth;
	size_t base = (size_t)set * s->depth;
	uint32_t n = s->count[set], d = 0, slot, t = (addr >> s->sector_shift) & (s->sectors - 1);
	bool count_miss = !is_write || s->cfg.count_write_misses;
	bool fetches = !is_write || wm == SC_FETCH;

	while (d < n && s->tag[base + order[d]] != line)
		d++;
	bool found = d < n;
	uint32_t at = found ? d : FAR;
	/* the line's slot: its own, a free one, or the one falling out */
	slot = found ? order[d] : n < s->depth ? n : order[s->depth - 1];

	struct sector *sec = s->sector + (size_t)(base + slot) * s->sectors;
	struct link *links = s->lazy ? s->links + ((size_t)(base + slot) * s->sectors) * s->lanes : NULL;
	/* the lanes that hold the line, and those that can serve the sector */
	unsigned line_in = lanes_above(s, at), serve_in;

	if (!found) {
		serve_in = s->lanes;
	} else {
		uint32_t v = deeper(sec[t].valid, d);

		if (s->lazy && !is_write) {
			struct link *l = links + (size_t)t * s->lanes;
			uint32_t w = whole_from(l, sec[t].links);

			v = MIN(deeper(sec[t].fetched, d), w == FAR ? FAR : deeper((uint16_t)w, d));
		}
		serve_in = MAX(lanes_above(s, v), line_in);
	}

	/* counts: line misses, sector misses, hits, and what goes down */
	add_from(s, stat_of(r, SC_M_ACCESSES), 0, 1);
	if (count_miss) {
		add_range(s, stat_of(r, SC_M_LINE_MISSES), 0, line_in, 1);
		add_range(s, stat_of(r, SC_M_SECTOR_MISSES), line_in, serve_in, 1);
	}
	add_from(s, stat_of(r, SC_M_HITS), serve_in, 1);
	if (is_write && !s->write_back) {
		add_from(s, stat_of(r, SC_M_WRITES_DOWN), 0, 1);
		add_from(s, SC_N_STATS + SC_SENT_WRITES, 0, mem_atoms(len));
	}
	if (fetches) {
		add_range(s, stat_of(r, SC_M_READS_DOWN), 0, serve_in, 1);
		add_range(s, SC_N_STATS + SC_SENT_READS, 0, serve_in, s->sector_atoms);
	}
	/* the lanes that miss the line and are full evict the line at
	 * depth ways - 1 */
	unsigned evict = lanes_above(s, MIN(at, n));

	add_range(s, SC_S_EVICTIONS, 0, evict, 1);
	if (s->write_back)
		for (unsigned k = 0; k < evict; k++) {
			unsigned wb = dirty_in(s, base + order[s->ways[k] - 1], s->ways[k]);

			add_range(s, SC_S_WB_EVICT, k, k + 1, wb);
			add_range(s, SC_N_STATS + SC_SENT_WRITES, k, k + 1,
				  (int64_t)wb * s->sector_atoms);
		}

	/* the line, brought up to date: in no lane, or aged to depth d */
	for (uint32_t u = 0; u < s->sectors; u++) {
		if (!found) {
			sec[u] = (struct sector){ FAR, FAR, FAR, 0 };
			continue;
		}
		sec[u].valid = deeper(sec[u].valid, d);
		sec[u].dirty = deeper(sec[u].dirty, d);
		sec[u].fetched = deeper(sec[u].fetched, d);
		if (s->lazy)
			age_links(s, links + (size_t)u * s->lanes, &sec[u].links, d);
	}
	/* then the sector, in every lane */
	struct sector *x = &sec[t];

	x->valid = 0;
	if (!is_write) {
		x->fetched = 0;
		if (op != MEM_READ && s->write_back) {
			x->dirty = 0;
			if (s->lazy)
				add_link(s, links + (size_t)t * s->lanes, &x->links, mask);
		}
	} else if (wm == SC_LAZY_FETCH) {
		add_link(s, links + (size_t)t * s->lanes, &x->links, mask);
		x->dirty = 0;
	} else if (s->write_back) {
		x->dirty = 0;
	} else if (wm == SC_ALLOCATE) {
		x->dirty = FAR;	/* a write-through write leaves it clean */
	}

	/* to the top: the lines above it (all, but one that falls out) move
	 * down one */
	uint32_t move = found ? d : MIN(n, s->depth - 1);

	if (!found && n < s->depth)
		s->count[set] = n + 1;
	memmove(order + 1, order, move * sizeof(*order));
	order[0] = (uint16_t)slot;
	s->tag[base + slot] = line;
}

/* sector_cache.c's bypass(): a line miss of its kind in every lane, sent
 * down as it came, the cache unchanged. */
static void bypass(struct sc_stack *s, const struct mem_req *r)
{
	bool is_write = r->hdr.kind == MEM_WRITE;
	uint64_t first = r->addr & ~(uint64_t)(s->cfg.sector_bytes - 1);
	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	int64_t n = (int64_t)((end - first + s->cfg.sector_bytes - 1) >> s->sector_shift);

	add_from(s, stat_of(r, SC_M_ACCESSES), 0, n);
	if (!is_write || s->cfg.count_write_misses)
		add_from(s, stat_of(r, SC_M_LINE_MISSES), 0, n);
	add_from(s, stat_of(r, is_write ? SC_M_WRITES_DOWN : SC_M_READS_DOWN), 0, n);
	add_from(s, SC_N_STATS + (r->hdr.kind == MEM_READ ? SC_SENT_READS :
				   is_write ? SC_SENT_WRITES : SC_SENT_OTHER), 0,
		 mem_atoms(r->size));
}

void sc_stack_access(struct sc_stack *s, const struct mem_req *r)
{
	if (s->cfg.bypass == SC_BYPASS_FLAGGED && (r->flags & MEM_F_BYPASS)) {
		bypass(s, r);
		return;
	}
	/*
	 * sector_cache.c's access_sectors(): one access per sector.  Only
	 * lazy_fetch reads the written bytes, and its sectors are 32 bytes:
	 * as its write_bytes(), a whole 32-byte access writes the mask's
	 * bytes, any other the whole sector (requests are 32-byte aligned,
	 * mem.h).
	 */
	if (r->size == MEM_ATOM) {
		access_sector(s, r, r->addr, MEM_ATOM, r->mask);
		return;
	}

	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint32_t mask = r->size <= MEM_ATOM ? r->mask : UINT32_MAX;

	for (uint64_t a = r->addr, next; a < end; a = next) {
		uint32_t len;

		next = (a | (s->cfg.sector_bytes - 1)) + 1;
		len = (uint32_t)(MIN(next, end) - a);
		access_sector(s, r, a, len, len == MEM_ATOM ? mask : UINT32_MAX);
	}
}

/* ---- kernels ------------------------------------------------------------------ */

void sc_stack_invalidate(struct sc_stack *s)
{
	memset(s->count, 0, s->nsets * sizeof(*s->count));
}

/* Each lane's dirty sectors written back (count) or counted (report). */
static void each_dirty(struct sc_stack *s, bool write)
{
	for (uint32_t set = 0; set < s->nsets; set++) {
		size_t base = (size_t)set * s->depth;

		for (uint32_t d = 0; d < s->count[set]; d++) {
			struct sector *sec = s->sector + (size_t)(base + s->order[base + d]) * s->sectors;

			for (uint32_t t = 0; t < s->sectors; t++) {
				/* dirty and valid in the lanes of more ways than
				 * all three */
				uint32_t deep = MAX(d, MAX(sec[t].valid, sec[t].dirty));
				unsigned from = lanes_above(s, deep);

				if (write) {
					if (s->write_back) {
						add_from(s, SC_S_WB_FLUSH, from, 1);
						add_from(s, SC_N_STATS + SC_SENT_WRITES, from,
							 s->sector_atoms);
					}
					sec[t].dirty = FAR;
				} else {
					add_from(s, SC_S_DIRTY_AT_END, from, 1);
				}
			}
		}
	}
}

void sc_stack_flush(struct sc_stack *s)
{
	each_dirty(s, true);
	sc_stack_invalidate(s);
}

void sc_stack_end_kernel(struct sc_stack *s, const struct sc_kernel_end *end)
{
	if (end->final == SC_FINAL_COUNT)
		each_dirty(s, true);
	else if (end->final == SC_FINAL_REPORT && s->write_back)
		each_dirty(s, false);
	if (end->invalidate)
		sc_stack_invalidate(s);
}
