/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LRU stack simulation of a sector cache's lanes (sc_stack.h).
 *
 * When every access allocates its line and the victim is the least
 * recent, a cache of A ways holds, in each set, the A most recent lines
 * of that set: every lane's content is the top of one recency stack per
 * set, as deep as the largest lane.  An access finds its line at depth d
 * (or not at all): it hits the line in every lane of more than d ways and
 * misses it in the others, where the victim is the line at depth A - 1,
 * the one the access pushes out of the lane's top A.  The line then goes
 * to the top.  Lines that fall below the deepest lane are dropped.
 *
 * What a line holds besides its tag (valid, dirty, readable sectors and
 * written bytes) depends on when the lane last brought it in, so each
 * line keeps it per lane; a lane's copy is cleared when the line leaves
 * the lane.  Each lane's sector logic is sector_cache.c's line_hit() and
 * line_miss(), with its counts and its requests down, in its order.
 *
 * A set is an array of slot numbers in order of recency; a slot holds a
 * tag and, per lane, the line's sectors.  An access moves slot numbers,
 * not lines.  Nothing is allocated per access.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "sc_stack.h"
#include "sc_req.h"
#include "setindex.h"

struct sc_stack {
	struct sc_config cfg;
	unsigned lanes;
	uint32_t ways[SC_STACK_MAX_LANES];	/* ascending */
	uint64_t *st[SC_STACK_MAX_LANES];	/* lane k's counters */
	/* the caller's lane k is lane order_of[k] here, ascending in ways;
	 * lane j here is the caller's given_as[j] */
	unsigned order_of[SC_STACK_MAX_LANES], given_as[SC_STACK_MAX_LANES];
	uint32_t depth;			/* the deepest lane's ways */
	uint32_t nsets;
	unsigned line_shift, sector_shift, set_shift;
	uint32_t sectors, mask_words;
	bool lazy;
	sc_stack_emit_fn emit;
	void *ctx;
	/* per set: lines in the stack, and their slots by recency */
	uint32_t *count;
	uint16_t *order;		/* nsets x depth */
	uint64_t *tag;			/* per slot (nsets x depth) */
	/* per slot and lane (record slot * lanes + k, of rec_bytes): valid,
	 * dirty and readable sectors, then (lazy_fetch) the written bytes;
	 * together, so that a lane's victim is one CPU line */
	uint8_t *state;
	size_t rec_bytes;
	struct mem_req down;
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
	return NULL;
}

void sc_stack_free(struct sc_stack *s)
{
	if (!s)
		return;
	g_free(s->count);
	g_free(s->order);
	g_free(s->tag);
	g_free(s->state);
	g_free(s);
}

struct sc_stack *sc_stack_new(const struct sc_config *cfg, const uint32_t *ways,
			      unsigned lanes, uint64_t *const *stats,
			      sc_stack_emit_fn emit, void *ctx, char **why)
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
	s->cfg.memory = NULL;
	s->lanes = lanes;
	/* each lane as sc_new() would check it; lanes in ascending ways */
	for (unsigned k = 0; k < lanes; k++) {
		struct sc_config one = s->cfg;
		struct sc_cache *c;
		unsigned at = 0;

		one.assoc = ways[k];
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
		s->st[at] = stats[k];
		s->order_of[k] = at;
		s->given_as[at] = k;
	}
	s->depth = s->ways[lanes - 1];
	s->nsets = cfg->sets;
	s->line_shift = __builtin_ctz(cfg->line_bytes);
	s->sector_shift = __builtin_ctz(cfg->sector_bytes);
	s->set_shift = !(s->nsets & (s->nsets - 1)) ? __builtin_ctz(s->nsets) : 0;
	s->sectors = cfg->line_bytes / cfg->sector_bytes;
	s->mask_words = (cfg->line_bytes + 63) / 64;
	s->lazy = cfg->write_miss == SC_LAZY_FETCH;
	s->emit = emit;
	s->ctx = ctx;
	slots = (size_t)s->nsets * s->depth;
	s->count = g_try_new0(uint32_t, s->nsets);
	s->order = g_try_new0(uint16_t, slots);
	s->tag = g_try_new0(uint64_t, slots);
	s->rec_bytes = s->lazy ? 4 * sizeof(uint32_t) + s->mask_words * sizeof(uint64_t)
			       : 2 * sizeof(uint32_t);
	s->state = g_try_malloc0(slots * lanes * s->rec_bytes);
	if (!s->count || !s->order || !s->tag || !s->state) {
		*why = g_strdup_printf("%u sets of up to %u ways in %u lanes: out of memory",
				       s->nsets, s->depth, lanes);
		sc_stack_free(s);
		return NULL;
	}
	return s;
}

/* ---- one lane's line: sector_cache.c's logic ------------------------------- */

struct lane_line {
	uint32_t *valid, *dirty, *readable;
	uint64_t *bytes;
};

static struct lane_line lane_line(struct sc_stack *s, size_t slot, unsigned k)
{
	uint8_t *rec = s->state + (slot * s->lanes + k) * s->rec_bytes;
	uint32_t *w = (uint32_t *)(void *)rec;

	return (struct lane_line){
		&w[0], &w[1], s->lazy ? &w[2] : NULL,
		s->lazy ? (uint64_t *)(void *)(rec + 4 * sizeof(uint32_t)) : NULL,
	};
}

static void clear_line(struct sc_stack *s, const struct lane_line *l)
{
	*l->valid = *l->dirty = 0;
	if (s->lazy) {
		*l->readable = 0;
		memset(l->bytes, 0, s->mask_words * sizeof(uint64_t));
	}
}

/* sector_cache.c's write_bytes(): true when the sector is then whole. */
static bool write_bytes(struct sc_stack *s, uint64_t *m, uint64_t addr,
			uint32_t len, uint32_t mask)
{
	unsigned off = addr & (s->cfg.line_bytes - 1);
	unsigned first = off & ~(s->cfg.sector_bytes - 1);

	for (unsigned b = off; b < off + len; b += MEM_ATOM)
		m[b / 64] |= (uint64_t)(len == MEM_ATOM ? mask : UINT32_MAX) << (b % 64);
	for (unsigned b = first; b < first + s->cfg.sector_bytes; b += MEM_ATOM)
		if (((m[b / 64] >> (b % 64)) & 0xffffffffu) != 0xffffffffu)
			return false;
	return true;
}

static void count_probe(struct sc_stack *s, uint64_t *sk, enum sc_probe p,
			bool is_write)
{
	sk[SC_M_ACCESSES]++;
	if (p == SC_HIT || !is_write || s->cfg.count_write_misses)
		sk[SC_M_HITS + p]++;
}

static void send(struct sc_stack *s, unsigned k, const struct mem_req *r)
{
	s->emit(s->ctx, s->given_as[k], r);
}

static void write_down(struct sc_stack *s, unsigned k, uint64_t *sk,
		       const struct mem_req *r, uint64_t addr, uint32_t len,
		       uint32_t mask)
{
	sk[SC_M_WRITES_DOWN]++;
	send(s, k, down_req(&s->down, MEM_WRITE, addr, len, mask, r));
}

static void fetch_down(struct sc_stack *s, unsigned k, uint64_t *sk,
		       const struct mem_req *r, uint64_t addr)
{
	sk[SC_M_READS_DOWN]++;
	send(s, k, down_req(&s->down, MEM_READ, addr & ~(uint64_t)(s->cfg.sector_bytes - 1),
			    s->cfg.sector_bytes, UINT32_MAX, r));
}

/* Write back the `dirty` sectors of line `tag` (write-back lanes). */
static void write_back(struct sc_stack *s, unsigned k, uint64_t tag,
		       uint32_t dirty, enum sc_stat counter)
{
	uint64_t base = tag << s->line_shift;

	if (s->cfg.write_hit != SC_WRITE_BACK)
		return;
	while (dirty) {
		unsigned b = __builtin_ctz(dirty);
		struct mem_req w;

		dirty &= dirty - 1;
		s->st[k][counter]++;
		make_req(&w, MEM_WRITE, base + ((uint64_t)b << s->sector_shift),
			 s->cfg.sector_bytes, UINT32_MAX, NULL);
		send(s, k, &w);
	}
}

/* line_hit(): the line is in lane k. */
static void lane_hit(struct sc_stack *s, unsigned k, const struct lane_line *l,
		     const struct mem_req *r, uint64_t addr, uint32_t len, uint32_t mask)
{
	enum mem_op op = r->hdr.kind;
	bool is_write = op == MEM_WRITE, wb = s->cfg.write_hit == SC_WRITE_BACK;
	enum sc_write_miss wm = s->cfg.write_miss;
	uint64_t *sk = s->st[k] + sc_stat_index(r->space, op, 0);
	uint32_t sbit = 1u << ((addr >> s->sector_shift) & (s->sectors - 1));
	enum sc_probe p = ((s->lazy && !is_write ? *l->readable : *l->valid) & sbit)
			  ? SC_HIT : SC_SECTOR_MISS;

	if (!is_write) {
		if (p != SC_HIT) {
			*l->valid |= sbit;
			if (s->lazy)
				*l->readable |= sbit;
		}
		if (op != MEM_READ && wb) {
			*l->dirty |= sbit;
			if (s->lazy)
				write_bytes(s, l->bytes, addr, len, mask);
		}
	} else if (wm == SC_ALLOCATE) {
		*l->valid |= sbit;
		if (wb)
			*l->dirty |= sbit;
		else
			*l->dirty &= ~sbit;
	} else if (wm == SC_LAZY_FETCH) {
		bool full = write_bytes(s, l->bytes, addr, len, mask);

		*l->valid |= sbit;
		*l->dirty |= sbit;
		if (full)
			*l->readable |= sbit;
	} else {	/* SC_FETCH */
		if (p != SC_HIT)
			*l->valid |= sbit;
		if (wb)
			*l->dirty |= sbit;
	}
	count_probe(s, sk, p, is_write);
	if (is_write && !wb)
		write_down(s, k, sk, r, addr, len, mask);
	if (p != SC_HIT && (!is_write || wm == SC_FETCH))
		fetch_down(s, k, sk, r, addr);
}

/* line_miss(): the line comes into lane k, the victim's (tag, dirty
 * sectors) having left it; `evicted`: there was one. */
static void lane_miss(struct sc_stack *s, unsigned k, const struct lane_line *l,
		      const struct mem_req *r, uint64_t addr, uint32_t len,
		      uint32_t mask, bool evicted, uint64_t vtag, uint32_t vdirty)
{
	enum mem_op op = r->hdr.kind;
	bool is_write = op == MEM_WRITE, wb = s->cfg.write_hit == SC_WRITE_BACK;
	enum sc_write_miss wm = s->cfg.write_miss;
	uint64_t *sk = s->st[k] + sc_stat_index(r->space, op, 0);
	uint32_t sbit = 1u << ((addr >> s->sector_shift) & (s->sectors - 1));
	bool write = is_write && !wb, fetch = !is_write || wm == SC_FETCH;

	count_probe(s, sk, SC_MISS, is_write);
	s->st[k][SC_S_EVICTIONS] += evicted;
	clear_line(s, l);
	*l->valid = sbit;
	if (!is_write) {
		if (s->lazy)
			*l->readable = sbit;
		if (op != MEM_READ && wb) {
			*l->dirty |= sbit;
			if (s->lazy)
				write_bytes(s, l->bytes, addr, len, mask);
		}
	} else if (wm == SC_LAZY_FETCH) {
		*l->dirty |= sbit;
		if (write_bytes(s, l->bytes, addr, len, mask))
			*l->readable = sbit;
	} else if (wb) {
		*l->dirty |= sbit;
	}
	/* the write, the read of the sector, then the victim's write-backs */
	if (write)
		write_down(s, k, sk, r, addr, len, mask);
	if (fetch)
		fetch_down(s, k, sk, r, addr);
	if (evicted && vdirty)
		write_back(s, k, vtag, vdirty, SC_S_WB_EVICT);
}

/* ---- the stack --------------------------------------------------------------- */

static void access_sector(struct sc_stack *s, const struct mem_req *r,
			  uint64_t addr, uint32_t len, uint32_t mask)
{
	uint64_t line = addr >> s->line_shift;
	uint64_t index_addr = s->cfg.index_on_partition ? r->part_addr + (addr - r->addr) : addr;
	uint32_t set = set_index(s->cfg.index, index_addr, s->line_shift, s->nsets, s->set_shift);
	uint16_t *order = s->order + (size_t)set * s->depth;
	size_t base = (size_t)set * s->depth;
	uint32_t n = s->count[set], d = 0, slot;

	while (d < n && s->tag[base + order[d]] != line)
		d++;
	bool found = d < n;
	/* the line's slot: its own, a free one, or the one falling out */
	slot = found ? order[d] : n < s->depth ? n : order[s->depth - 1];
	for (unsigned k = 0; k < s->lanes; k++) {
		struct lane_line l = lane_line(s, base + slot, k);
		uint32_t a = s->ways[k];

		if (found && d < a) {
			lane_hit(s, k, &l, r, addr, len, mask);
			continue;
		}
		/* the victim: the line at depth a - 1, which leaves the lane */
		bool evicted = n >= a;
		uint64_t vtag = 0;
		uint32_t vdirty = 0;

		if (evicted) {
			size_t v = base + order[a - 1];
			struct lane_line vl = lane_line(s, v, k);

			vtag = s->tag[v];
			vdirty = *vl.valid & *vl.dirty;
			clear_line(s, &vl);
		}
		lane_miss(s, k, &l, r, addr, len, mask, evicted, vtag, vdirty);
	}
	/* to the top: the lines above it (all, but one that falls out) move
	 * down one */
	uint32_t above = found ? d : MIN(n, s->depth - 1);

	if (!found && n < s->depth)
		s->count[set] = n + 1;
	memmove(order + 1, order, above * sizeof(*order));
	order[0] = (uint16_t)slot;
	s->tag[base + slot] = line;
}

/* sector_cache.c's bypass(): a line miss of its kind in every lane,
 * sent down as it came, the cache unchanged. */
static void bypass(struct sc_stack *s, const struct mem_req *r)
{
	bool is_write = r->hdr.kind == MEM_WRITE;
	uint64_t first = r->addr & ~(uint64_t)(s->cfg.sector_bytes - 1);
	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint64_t n = (end - first + s->cfg.sector_bytes - 1) >> s->sector_shift;

	for (unsigned k = 0; k < s->lanes; k++) {
		uint64_t *sk = s->st[k] + sc_stat_index(r->space, r->hdr.kind, 0);

		sk[SC_M_ACCESSES] += n;
		if (!is_write || s->cfg.count_write_misses)
			sk[SC_M_LINE_MISSES] += n;
		sk[is_write ? SC_M_WRITES_DOWN : SC_M_READS_DOWN] += n;
		send(s, k, r);
	}
}

void sc_stack_access(struct sc_stack *s, const struct mem_req *r)
{
	if (s->cfg.bypass == SC_BYPASS_FLAGGED && (r->flags & MEM_F_BYPASS)) {
		bypass(s, r);
		return;
	}
	/* sector_cache.c's access_sectors(): one access per sector */
	if (r->size == MEM_ATOM) {
		access_sector(s, r, r->addr, MEM_ATOM, r->mask);
		return;
	}

	uint64_t end = r->addr + (r->size ? r->size : MEM_ATOM);
	uint32_t mask = r->size <= MEM_ATOM ? r->mask : UINT32_MAX;
	uint64_t next = (r->addr | (s->cfg.sector_bytes - 1)) + 1;

	access_sector(s, r, r->addr, MIN(next, end) - r->addr, mask);
	for (uint64_t a = next; a < end; a += s->cfg.sector_bytes)
		access_sector(s, r, a, MIN(a + s->cfg.sector_bytes, end) - a, mask);
}

/* ---- kernels ------------------------------------------------------------------ */

void sc_stack_invalidate(struct sc_stack *s)
{
	size_t slots = (size_t)s->nsets * s->depth;

	memset(s->count, 0, s->nsets * sizeof(*s->count));
	memset(s->state, 0, slots * s->lanes * s->rec_bytes);
}

/* Each lane's dirty sectors written back (count) or counted (report),
 * set by set, from the most recent line. */
static void each_dirty(struct sc_stack *s, bool write)
{
	for (uint32_t set = 0; set < s->nsets; set++) {
		size_t base = (size_t)set * s->depth;
		const uint16_t *order = s->order + base;

		for (unsigned k = 0; k < s->lanes; k++)
			for (uint32_t d = 0; d < MIN(s->count[set], s->ways[k]); d++) {
				struct lane_line l = lane_line(s, base + order[d], k);
				uint32_t dirty = *l.valid & *l.dirty;

				if (!dirty)
					continue;
				if (write) {
					write_back(s, k, s->tag[base + order[d]], dirty, SC_S_WB_FLUSH);
					*l.dirty = 0;
				} else {
					s->st[k][SC_S_DIRTY_AT_END] += __builtin_popcount(dirty);
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
	else if (end->final == SC_FINAL_REPORT && s->cfg.write_hit == SC_WRITE_BACK)
		each_dirty(s, false);
	if (end->invalidate)
		sc_stack_invalidate(s);
}

const uint64_t *sc_stack_stats(struct sc_stack *s, unsigned lane)
{
	uint64_t *st = s->st[s->order_of[lane]];

	sc_sum_totals(st);
	return st;
}
