/* SPDX-License-Identifier: BSD-3-Clause */
/* C-AMAT of one cache level by a sweep over merged phases (camat.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "camat.h"

/*
 * Intervals are half-open, [lo, hi), in cycles.  The hit phases' union
 * is a run of disjoint intervals in order, each with the cycles the union
 * covers before it (cum), so that the cycles it covers below any x are
 * one binary search away; intervals no miss can reach any more are
 * dropped from the front.
 */
struct hit_iv {
	uint64_t lo, hi, cum;
};

/* A miss phase [a, e) not yet swept; e is known once ended. */
struct pending {
	uint64_t a, e;
	bool ended;
};

struct camat {
	struct hit_iv *hit;
	size_t hit_head, hit_len, hit_cap;	/* live: [hit_head, hit_len) */
	size_t cur;		/* where the last miss's start was found (they only grow) */
	size_t cur_end;		/* ... and its end */
	struct pending *pend;			/* a ring */
	size_t pend_head, pend_len, pend_cap;	/* pend_cap: 0 or a power of 2 */
	uint64_t ticket_base;			/* ticket of pend[pend_head] */
	uint64_t last_start, last_miss_start;
	bool have_union;			/* the pure-miss sweep's open interval */
	uint64_t ua, ue;
	struct camat_counts c;
};

struct camat *camat_new(void)
{
	return g_new0(struct camat, 1);
}

void camat_free(struct camat *a)
{
	if (!a)
		return;
	g_free(a->hit);
	g_free(a->pend);
	g_free(a);
}

void camat_reset(struct camat *a)
{
	a->hit_head = a->hit_len = a->cur = a->cur_end = 0;
	a->pend_head = a->pend_len = 0;
	a->ticket_base = 0;
	a->last_start = a->last_miss_start = 0;
	a->have_union = false;
	memset(&a->c, 0, sizeof(a->c));
}

static uint64_t hit_covered(const struct camat *a)
{
	const struct hit_iv *h;

	if (a->hit_len == a->hit_head)
		return a->hit_head ? a->hit[a->hit_head - 1].cum +
			a->hit[a->hit_head - 1].hi - a->hit[a->hit_head - 1].lo : 0;
	h = &a->hit[a->hit_len - 1];
	return h->cum + (h->hi - h->lo);
}

/* A hit phase [lo, hi), lo at or after every earlier one's. */
static inline void hit_push(struct camat *a, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	if (a->hit_len > a->hit_head && lo <= a->hit[a->hit_len - 1].hi) {
		struct hit_iv *h = &a->hit[a->hit_len - 1];

		h->hi = MAX(h->hi, hi);
		return;
	}

	uint64_t cum = hit_covered(a);

	if (a->hit_len == a->hit_cap) {
		/* slide the live ones down before growing */
		if (a->hit_head >= a->hit_len / 2 && a->hit_head) {
			memmove(a->hit, a->hit + a->hit_head,
				(a->hit_len - a->hit_head) * sizeof(*a->hit));
			a->hit_len -= a->hit_head;
			a->cur = a->cur > a->hit_head ? a->cur - a->hit_head : 0;
			a->cur_end = a->cur_end > a->hit_head ? a->cur_end - a->hit_head : 0;
			a->hit_head = 0;
		} else {
			a->hit_cap = MAX(64, 2 * a->hit_cap);
			a->hit = g_renew(struct hit_iv, a->hit, a->hit_cap);
		}
	}
	a->hit[a->hit_len++] = (struct hit_iv){ lo, hi, cum };
}

/*
 * Cycles below x the hit phases cover, looked for from *hint, where the
 * last interval starting below x is left: misses are swept in order of
 * start, and their ends come nearly in order too, so a search from the
 * last one's place (each end has its own hint) takes a step or two, in
 * either direction, galloping when it is further.
 */
static inline uint64_t covered_below(const struct camat *a, uint64_t x, size_t *hint)
{
	size_t head = a->hit_head, len = a->hit_len, lo, hi, step = 1;

	if (head == len)
		return hit_covered(a);
	lo = MIN(MAX(*hint, head), len - 1);
	if (a->hit[lo].lo < x) {
		/* forward, to an interval starting at or after x */
		while (lo + step < len && a->hit[lo + step].lo < x) {
			lo += step;
			step *= 2;
		}
		/* hit[lo + step], if any, starts at or after x */
		hi = MIN(len, lo + step);
	} else {
		/* back, to an interval starting below x, if there is one */
		hi = lo;
		for (;;) {
			if (hi - head < step) {
				lo = head;
				break;
			}
			lo = hi - step;
			if (a->hit[lo].lo < x)
				break;
			hi = lo;
			step *= 2;
		}
		if (a->hit[lo].lo >= x) {
			*hint = lo;
			return a->hit[lo].cum;
		}
	}
	/* the last interval starting below x, in [lo, hi): hit[lo] starts
	 * below x, hit[hi] (if any) at or after it */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->hit[mid].lo < x)
			lo = mid;
		else
			hi = mid;
	}
	*hint = lo;
	return a->hit[lo].cum + (MIN(a->hit[lo].hi, x) - a->hit[lo].lo);
}

/* Cycles of [lo, hi) in no hit phase. */
static uint64_t uncovered(struct camat *a, uint64_t lo, uint64_t hi)
{
	uint64_t below_lo = covered_below(a, lo, &a->cur);
	size_t h = MAX(a->cur_end, a->cur);
	uint64_t below_hi = covered_below(a, hi, &h);

	a->cur_end = h;
	return (hi - lo) - (below_hi - below_lo);
}

static void close_union(struct camat *a)
{
	if (a->have_union)
		a->c.pure_miss_overlap_time += uncovered(a, a->ua, a->ue);
	a->have_union = false;
}

/* The miss phase [s, e), every hit phase that can meet it known, and the
 * misses before it in order of start swept. */
static void sweep_miss(struct camat *a, uint64_t s, uint64_t e)
{
	uint64_t pure;

	if (e <= s)
		return;
	pure = uncovered(a, s, e);
	a->c.pure_miss_time += pure;
	a->c.pure_misses += pure > 0;
	if (a->have_union && s <= a->ue) {
		a->ue = MAX(a->ue, e);
		return;
	}
	close_union(a);
	a->have_union = true;
	a->ua = s;
	a->ue = e;
}

/* Sweep the ended misses no hit phase from `now` on can meet. */
static inline void drain(struct camat *a, uint64_t now, bool all)
{
	/* the usual call: nothing ended in time, nothing to drop */
	if (!all && a->hit_len - a->hit_head <= 1 &&
	    (!a->pend_len || !a->pend[a->pend_head].ended || a->pend[a->pend_head].e > now))
		return;
	while (a->pend_len) {
		struct pending *p = &a->pend[a->pend_head];

		if (!all && (!p->ended || p->e > now))
			break;
		sweep_miss(a, p->a, p->ended ? p->e : p->a);
		a->pend_head = (a->pend_head + 1) & (a->pend_cap - 1);
		a->pend_len--;
		a->ticket_base++;
	}
	/* the hit phases below what is still to sweep are done with */
	uint64_t keep = a->pend_len ? a->pend[a->pend_head].a : now;

	if (a->have_union)
		keep = MIN(keep, a->ua);
	while (a->hit_len - a->hit_head > 1 && a->hit[a->hit_head].hi <= keep)
		a->hit_head++;
}

bool camat_begin(struct camat *a, uint64_t start, uint64_t hit_cycles, bool miss,
		 uint64_t *ticket)
{
	if (start < a->last_start || hit_cycles > UINT64_MAX - start ||
	    (miss && start + hit_cycles < a->last_miss_start))
		return false;
	a->last_start = start;
	a->c.accesses++;
	a->c.hit_cycles += hit_cycles;
	hit_push(a, start, start + hit_cycles);
	if (miss) {
		a->c.misses++;
		a->last_miss_start = start + hit_cycles;
		if (a->pend_len == a->pend_cap) {
			size_t cap = MAX(64, 2 * a->pend_cap);
			struct pending *p = g_new(struct pending, cap);

			for (size_t i = 0; i < a->pend_len; i++)
				p[i] = a->pend[(a->pend_head + i) & (a->pend_cap - 1)];
			g_free(a->pend);
			a->pend = p;
			a->pend_cap = cap;
			a->pend_head = 0;
		}
		a->pend[(a->pend_head + a->pend_len) & (a->pend_cap - 1)] =
			(struct pending){ start + hit_cycles, 0, false };
		if (ticket)
			*ticket = a->ticket_base + a->pend_len;
		a->pend_len++;
	} else {
		a->c.hits++;
	}
	drain(a, start, false);
	return true;
}

uint64_t camat_next_ticket(const struct camat *a)
{
	return a->ticket_base + a->pend_len;
}

void camat_end(struct camat *a, uint64_t ticket, uint64_t end)
{
	struct pending *p;

	/* modulo 2^32: a ticket kept in 32 bits names the same miss */
	uint32_t k = (uint32_t)ticket - (uint32_t)a->ticket_base;

	if (k >= a->pend_len)
		return;
	p = &a->pend[(a->pend_head + k) & (a->pend_cap - 1)];
	p->e = MAX(end, p->a);
	p->ended = true;
	a->c.miss_cycles += p->e - p->a;
}

bool camat_add(struct camat *a, uint64_t start, uint64_t hit_cycles, uint64_t miss_cycles)
{
	uint64_t t;

	if (hit_cycles > UINT64_MAX - start || miss_cycles > UINT64_MAX - start - hit_cycles)
		return false;
	if (!camat_begin(a, start, hit_cycles, miss_cycles > 0, &t))
		return false;
	if (miss_cycles)
		camat_end(a, t, start + hit_cycles + miss_cycles);
	return true;
}

void camat_counts(struct camat *a, struct camat_counts *c)
{
	drain(a, UINT64_MAX, true);
	close_union(a);
	a->c.overlap_hit_time = hit_covered(a);
	a->c.active_cycles = a->c.overlap_hit_time + a->c.pure_miss_overlap_time;
	*c = a->c;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

void camat_ratios(const struct camat_counts *c, struct camat_ratios *r)
{
	double n = (double)c->accesses;

	r->C_h = ratio((double)c->hit_cycles, (double)c->overlap_hit_time);
	r->C_m = ratio((double)c->pure_miss_time, (double)c->pure_miss_overlap_time);
	r->pMR = ratio((double)c->pure_misses, n);
	r->pAMP = ratio((double)c->pure_miss_time, (double)c->pure_misses);
	r->mean_hit_time = ratio((double)c->hit_cycles, n);
	r->amat = ratio((double)(c->hit_cycles + c->miss_cycles), n);
	if (!c->accesses) {
		r->camat = NAN;
		return;
	}
	/* a term with nothing in it (no hit cycle, no pure miss) is 0 */
	r->camat = (c->hit_cycles ? r->mean_hit_time / r->C_h : 0) +
		(c->pure_misses ? r->pMR * r->pAMP / r->C_m : 0);
}

/*
 * (key, index) pairs in order of key, ties in the order given: an LSD
 * radix sort, 16 bits a pass, skipping the passes whose digit never
 * varies (O(n); qsort took over a second for 10 M rows).
 */
struct by_key {
	uint64_t key;
	size_t i;
};

static void radix_sort(struct by_key *k, size_t n)
{
	struct by_key *tmp = g_new(struct by_key, MAX(n, 1)), *src = k, *dst = tmp;
	size_t *count = g_new(size_t, 1u << 16);

	for (unsigned shift = 0; shift < 64; shift += 16) {
		uint64_t first = (src[0].key >> shift) & 0xffff;
		bool varies = false;
		size_t sum = 0;

		memset(count, 0, sizeof(size_t) << 16);
		for (size_t i = 0; i < n; i++) {
			uint64_t d = (src[i].key >> shift) & 0xffff;

			count[d]++;
			varies |= d != first;
		}
		if (!varies)
			continue;
		for (size_t d = 0; d < (1u << 16); d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xffff]++] = src[i];
		struct by_key *t = src;

		src = dst;
		dst = t;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
	g_free(tmp);
	g_free(count);
}

/*
 * The indices of the accesses (of the misses only: misses_only) in order
 * of their hit phase's start (of their miss phase's: by_miss), or NULL
 * when they are in that order already.  *m: how many.
 */
static struct by_key *order(const uint64_t *start, const uint64_t *hit, const uint64_t *miss,
			    size_t n, bool misses_only, size_t *m)
{
	uint64_t last = 0;
	bool in_order = true;
	struct by_key *k;
	size_t j = 0;

	for (size_t i = 0; i < n && in_order; i++) {
		uint64_t key = start[i] + (misses_only ? hit[i] : 0);

		if (misses_only && !miss[i])
			continue;
		in_order = key >= last;
		last = key;
	}
	if (in_order)
		return NULL;
	k = g_new(struct by_key, MAX(n, 1));
	for (size_t i = 0; i < n; i++)
		if (!misses_only || miss[i])
			k[j++] = (struct by_key){ start[i] + (misses_only ? hit[i] : 0), i };
	radix_sort(k, j);
	*m = j;
	return k;
}

void camat_compute(const uint64_t *start, const uint64_t *hit, const uint64_t *miss,
		   size_t n, struct camat_counts *c)
{
	struct camat *a = camat_new();
	size_t nh = n, nm = n;
	struct by_key *hs = order(start, hit, miss, n, false, &nh);
	struct by_key *ms = order(start, hit, miss, n, true, &nm);

	/* every hit phase first, then the misses in order of their start */
	for (size_t k = 0; k < nh; k++) {
		size_t i = hs ? hs[k].i : k;

		a->c.accesses++;
		a->c.hit_cycles += hit[i];
		if (miss[i]) {
			a->c.misses++;
			a->c.miss_cycles += miss[i];
		} else {
			a->c.hits++;
		}
		hit_push(a, start[i], start[i] + hit[i]);
	}
	for (size_t k = 0; k < nm; k++) {
		size_t i = ms ? ms[k].i : k;

		if (miss[i])
			sweep_miss(a, start[i] + hit[i], start[i] + hit[i] + miss[i]);
	}
	camat_counts(a, c);
	g_free(hs);
	g_free(ms);
	camat_free(a);
}
