/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stack-distance cache model's building blocks (sdcm.h): reuse
 * distances, their histograms, the hit probability of a distance and
 * CPython's Mersenne Twister.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib.h>
#include "sdcm.h"

/* ---- a uint64 -> uint32 open-addressing map --------------------------------- */

/*
 * Linear probing over 16-byte slots, so that a lookup costs one cache line
 * in the common case.  A slot is live iff its gen equals the map's: a reset
 * bumps gen instead of clearing megabytes of slots, which keeps the reset of
 * a tracker that has seen a large stream cheap.
 */
struct u64slot {
	uint64_t key;
	uint32_t val;
	uint32_t gen;
};

struct u64map {
	struct u64slot *slot;
	size_t mask;		/* capacity - 1, capacity a power of two */
	unsigned shift;		/* 64 - log2(capacity) */
	size_t count;
	uint32_t gen;
};

/* False, with m untouched, when the slots cannot be allocated. */
static bool map_init(struct u64map *m, unsigned log2cap)
{
	struct u64slot *slot = g_try_new0(struct u64slot, (size_t)1 << log2cap);

	if (!slot)
		return false;
	m->slot = slot;
	m->mask = ((size_t)1 << log2cap) - 1;
	m->shift = 64 - log2cap;
	m->count = 0;
	m->gen = 1;	/* g_try_new0's slots carry gen 0: empty */
	return true;
}

static void map_reset(struct u64map *m)
{
	m->count = 0;
	if (++m->gen == 0) {
		memset(m->slot, 0, (m->mask + 1) * sizeof(*m->slot));
		m->gen = 1;
	}
}

/*
 * Fibonacci hashing: bit i of the key reaches every bit of the product from
 * i up, so its top bits depend on the whole key, and strided keys (sector
 * addresses are multiples of 32) land evenly spread.
 */
static inline size_t map_home(const struct u64map *m, uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> m->shift);
}

/*
 * Twice the slots; false, with the map as it was, beyond 2^32 keys (the
 * values are 32-bit positions) or when memory runs out: a stream too big
 * for the machine is the caller's to report, not an abort.
 */
static bool map_grow(struct u64map *m)
{
	struct u64slot *old = m->slot;
	size_t oldcap = m->mask + 1;
	uint32_t oldgen = m->gen;
	unsigned log2cap = 64 - m->shift + 1;

	if (log2cap > 33 || (size_t)1 << log2cap > SIZE_MAX / sizeof(*old) ||
	    !map_init(m, log2cap))
		return false;
	for (size_t i = 0; i < oldcap; i++) {
		if (old[i].gen != oldgen)
			continue;
		size_t h = map_home(m, old[i].key);

		while (m->slot[h].gen == m->gen)
			h = (h + 1) & m->mask;
		m->slot[h] = old[i];
		m->slot[h].gen = m->gen;
		m->count++;
	}
	g_free(old);
	return true;
}

/*
 * The slot of `key`, or a new one (val to be set by the caller, *fresh set)
 * when it is not in the map; NULL when the map cannot grow to take it.  Load factor at most 1/2: linear probing's
 * probe chains stay short, and the slots are small.
 */
static inline struct u64slot *map_get(struct u64map *m, uint64_t key, bool *fresh)
{
	size_t h = map_home(m, key);

	for (;;) {
		struct u64slot *s = &m->slot[h];

		if (s->gen != m->gen)
			break;
		if (s->key == key) {
			*fresh = false;
			return s;
		}
		h = (h + 1) & m->mask;
	}
	if ((m->count + 1) * 2 > m->mask + 1) {
		if (!map_grow(m))
			return NULL;
		h = map_home(m, key);
		while (m->slot[h].gen == m->gen)
			h = (h + 1) & m->mask;
	}
	m->count++;
	m->slot[h].key = key;
	m->slot[h].gen = m->gen;
	*fresh = true;
	return &m->slot[h];
}

/* ---- reuse distance --------------------------------------------------------- */

/*
 * Positions are numbered from 0 as the stream goes, and bits[] holds a 1 at
 * the latest position of every address seen.  The reuse distance of an
 * access whose address was last seen at p is the number of ones after p.
 *
 * Counting them is laid out for the cache, because the map's slot is
 * already a miss to main memory, and whatever follows it in the chain of
 * dependent loads adds its own latency: a group is 8 words of bits[] (512
 * positions, one cache line), cnt[] holds the popcount of every word in a
 * byte, and the Fenwick tree counts ones per group.  With a million live
 * addresses bits[] takes at most 512 KiB, cnt[] 64 KiB and the tree 32 KiB,
 * and the ones before p are the tree's prefix up to p's group, a sum of up
 * to 7 bytes of cnt[] and one popcount.  The group being filled (the frontier) joins the tree
 * only when it is full: the access that sets its bit needs no tree update.
 *
 * When the positions run out, the live ones are renumbered 0..live-1 in
 * their order, which preserves every distance, and the arrays double while
 * fewer than (1 - 1/RD_SPARE) of the positions would be free.  So memory
 * follows the number of distinct addresses, not the stream's length, and a
 * renumbering (O(positions + map slots)) comes at most once every
 * (1 - 1/RD_SPARE) * positions accesses: amortized O(1).
 */
#define RD_MIN_WORDS 64
#define RD_SPARE 4	/* positions >= RD_SPARE * live after a renumbering */
#define GROUP_SHIFT 9	/* 512 positions */

struct rd_tracker {
	struct u64map map;	/* address -> its latest position */
	uint64_t *bits;
	uint8_t *cnt;		/* popcount of each word of bits[] */
	uint32_t *fen;		/* 1-based: fen[k] sums groups (k - lowbit(k), k] */
	size_t nwords, ngroups;
	size_t n;		/* the next position */
	size_t live;		/* ones in bits[]: distinct addresses seen */
};

/* Ones in groups [0, g), all of them full. */
static inline uint64_t fen_prefix(const struct rd_tracker *t, size_t g)
{
	uint64_t s = 0;

	for (size_t k = g; k; k &= k - 1)
		s += t->fen[k];
	return s;
}

static inline void fen_add(struct rd_tracker *t, size_t g, uint32_t delta)
{
	for (size_t k = g + 1; k <= t->ngroups; k += k & -k)
		t->fen[k] += delta;
}

/* cnt[8g] + .. + cnt[w - 1]: the ones in the words of w's group before w. */
static inline unsigned cnt_before(const struct rd_tracker *t, size_t w)
{
	const uint8_t *c = t->cnt + (w & ~(size_t)7);
	unsigned k = w & 7;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;

	memcpy(&x, c, sizeof(x));
	x &= (UINT64_C(1) << (8 * k)) - 1;
	/* bytes are <= 64: pairs fit in a byte, the total in 16 bits */
	x = (x & UINT64_C(0x00ff00ff00ff00ff)) + ((x >> 8) & UINT64_C(0x00ff00ff00ff00ff));
	return (unsigned)((x * UINT64_C(0x0001000100010001)) >> 48);
#else
	unsigned s = 0;

	for (unsigned i = 0; i < k; i++)
		s += c[i];
	return s;
#endif
}

/*
 * Without the popcnt instruction (not in the x86-64 baseline), GCC calls
 * libgcc for __builtin_popcountll: the same bit trick, plus a call.
 */
/* One instruction in rd_access's popcnt clone (below), libgcc's otherwise. */
static inline unsigned popcount64(uint64_t x)
{
	return (unsigned)__builtin_popcountll(x);
}

/* Ones at positions < p. */
static inline uint64_t ones_before(const struct rd_tracker *t, size_t p)
{
	size_t w = p >> 6;

	return fen_prefix(t, p >> GROUP_SHIFT) + cnt_before(t, w) +
		popcount64(t->bits[w] & ((UINT64_C(1) << (p & 63)) - 1));
}

/* The tree of the full groups, in O(ngroups): each node hands its sum to its parent. */
static void fen_build(struct rd_tracker *t)
{
	size_t full = t->n >> GROUP_SHIFT;

	memset(t->fen, 0, (t->ngroups + 1) * sizeof(*t->fen));
	for (size_t k = 1; k <= t->ngroups; k++) {
		size_t parent = k + (k & -k);

		if (k <= full)
			t->fen[k] += cnt_before(t, k * 8 - 1) + t->cnt[k * 8 - 1];
		if (parent <= t->ngroups)
			t->fen[parent] += t->fen[k];
	}
}

/* Arrays of nwords words: all three or none, the old ones kept. */
struct rd_arrays {
	uint64_t *bits;
	uint8_t *cnt;
	uint32_t *fen;
};

static bool rd_arrays_new(struct rd_arrays *a, size_t nwords)
{
	a->bits = g_try_new0(uint64_t, nwords);
	a->cnt = g_try_new0(uint8_t, nwords);
	a->fen = g_try_new0(uint32_t, nwords / 8 + 1);
	if (a->bits && a->cnt && a->fen)
		return true;
	g_free(a->bits);
	g_free(a->cnt);
	g_free(a->fen);
	return false;
}

static void rd_install(struct rd_tracker *t, const struct rd_arrays *a,
		       size_t nwords)
{
	g_free(t->bits);
	g_free(t->cnt);
	g_free(t->fen);
	t->nwords = nwords;
	t->ngroups = nwords / 8;
	t->bits = a->bits;
	t->cnt = a->cnt;
	t->fen = a->fen;
}

/*
 * Positions 0..live-1 again, in the arrays grown if need be; false, with
 * nothing changed, when the positions would not fit in 32 bits or the
 * arrays cannot be allocated.
 */
static bool rd_renumber(struct rd_tracker *t)
{
	struct u64map *m = &t->map;
	size_t nwords = t->nwords;
	struct rd_arrays grown = { 0 };

	while (t->live > nwords * 64 / RD_SPARE)
		nwords *= 2;
	if (nwords > ((size_t)1 << 26))	/* positions must fit in val */
		return false;
	if (nwords != t->nwords && !rd_arrays_new(&grown, nwords))
		return false;

	/* fen[] becomes the plain prefix sums of the groups, rebuilt below */
	t->fen[0] = 0;
	for (size_t g = 0; g < t->ngroups; g++)
		t->fen[g + 1] = t->fen[g] + cnt_before(t, g * 8 + 7) + t->cnt[g * 8 + 7];
	/*
	 * Through the map rather than bits[]: going from positions to their
	 * addresses would need a position -> slot array, kept up to date when
	 * the map grows, and would visit the slots in random order.  The new
	 * position is the number of ones before the old one.
	 */
	for (size_t i = 0; i <= m->mask; i++) {
		struct u64slot *s = &m->slot[i];

		if (s->gen != m->gen)
			continue;
		size_t w = s->val >> 6;

		s->val = t->fen[s->val >> GROUP_SHIFT] + cnt_before(t, w) +
			popcount64(t->bits[w] & ((UINT64_C(1) << (s->val & 63)) - 1));
	}
	if (nwords != t->nwords)
		rd_install(t, &grown, nwords);
	size_t whole = t->live / 64;

	memset(t->bits, 0xff, whole * sizeof(*t->bits));
	memset(t->bits + whole, 0, (nwords - whole) * sizeof(*t->bits));
	memset(t->cnt, 64, whole);
	memset(t->cnt + whole, 0, nwords - whole);
	if (t->live % 64) {
		t->bits[whole] = (UINT64_C(1) << (t->live % 64)) - 1;
		t->cnt[whole] = t->live % 64;
	}
	t->n = t->live;
	fen_build(t);
	return true;
}

struct rd_tracker *rd_new(void)
{
	struct rd_tracker *t = g_new0(struct rd_tracker, 1);
	struct rd_arrays a;

	if (!map_init(&t->map, 10) || !rd_arrays_new(&a, RD_MIN_WORDS))
		g_error("rd_tracker: out of memory");	/* a few KiB */
	rd_install(t, &a, RD_MIN_WORDS);
	return t;
}

void rd_free(struct rd_tracker *t)
{
	if (!t)
		return;
	g_free(t->map.slot);
	g_free(t->bits);
	g_free(t->cnt);
	g_free(t->fen);
	g_free(t);
}

void rd_reset(struct rd_tracker *t)
{
	size_t used = (t->n + 63) / 64;	/* only these words hold ones */

	memset(t->bits, 0, used * sizeof(*t->bits));
	memset(t->cnt, 0, used);
	memset(t->fen, 0, (t->ngroups + 1) * sizeof(*t->fen));
	map_reset(&t->map);
	t->n = 0;
	t->live = 0;
}

/*
 * Compiled twice, with and without the popcnt instruction, and the CPU's
 * version picked when the program loads: the count of ones before a
 * position is most of the work, and the baseline x86-64 build has no
 * popcnt.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int64_t rd_access(struct rd_tracker *t, uint64_t addr)
{
	/* first: a renumbering moves the position of the slot found below */
	if (t->n == t->nwords * 64 && !rd_renumber(t))
		return RD_FULL;

	bool fresh;
	struct u64slot *s = map_get(&t->map, addr, &fresh);
	size_t n = t->n, nw = n >> 6;
	int64_t sd;

	if (!s)
		return RD_FULL;
	if (fresh) {
		t->live++;
		sd = -1;
	} else {
		size_t p = s->val, w = p >> 6;

		/* the ones after p: all but those before p and p's own */
		sd = (int64_t)(t->live - 1 - ones_before(t, p));
		t->bits[w] &= ~(UINT64_C(1) << (p & 63));
		t->cnt[w]--;
		if ((p >> GROUP_SHIFT) != (n >> GROUP_SHIFT))	/* else the frontier */
			fen_add(t, p >> GROUP_SHIFT, UINT32_MAX);	/* -1 */
	}
	t->bits[nw] |= UINT64_C(1) << (n & 63);
	t->cnt[nw]++;
	s->val = (uint32_t)n++;
	t->n = n;
	if (!(n & ((1u << GROUP_SHIFT) - 1))) {	/* the frontier group is full */
		size_t last = nw | 7;

		fen_add(t, (n >> GROUP_SHIFT) - 1, cnt_before(t, last) + t->cnt[last]);
	}
	return sd;
}

bool rd_forget(struct rd_tracker *t, uint64_t addr)
{
	struct u64map *m = &t->map;
	size_t h = map_home(m, addr), hole;

	for (;; h = (h + 1) & m->mask) {
		if (m->slot[h].gen != m->gen)
			return false;
		if (m->slot[h].key == addr)
			break;
	}

	/* its position no longer counts: a distance across it is one less */
	size_t p = m->slot[h].val, w = p >> 6;

	t->bits[w] &= ~(UINT64_C(1) << (p & 63));
	t->cnt[w]--;
	if ((p >> GROUP_SHIFT) != (t->n >> GROUP_SHIFT))
		fen_add(t, p >> GROUP_SHIFT, UINT32_MAX);	/* -1 */
	t->live--;
	/* out of the map: the run after the hole moves back where a search
	 * from its home would still reach it (no tombstones) */
	m->slot[h].gen = m->gen - 1;
	m->count--;
	hole = h;
	for (size_t j = (hole + 1) & m->mask; m->slot[j].gen == m->gen; j = (j + 1) & m->mask) {
		size_t home = map_home(m, m->slot[j].key);

		if (((j - home) & m->mask) < ((j - hole) & m->mask))
			continue;
		m->slot[hole] = m->slot[j];
		m->slot[j].gen = m->gen - 1;
		hole = j;
	}
	return true;
}

int64_t rd_distance(const struct rd_tracker *t, uint64_t addr)
{
	const struct u64map *m = &t->map;

	for (size_t h = map_home(m, addr);; h = (h + 1) & m->mask) {
		const struct u64slot *s = &m->slot[h];

		if (s->gen != m->gen)
			return -1;
		if (s->key == addr)
			return (int64_t)(t->live - 1 - ones_before(t, s->val));
	}
}

/* ---- histograms ------------------------------------------------------------- */

struct sd_hist {
	struct u64map index;	/* distance -> its entry */
	int64_t *sd;
	uint64_t *count;
	size_t len, cap;
	uint64_t total;
};

struct sd_hist *sd_hist_new(void)
{
	struct sd_hist *h = g_new0(struct sd_hist, 1);

	if (!map_init(&h->index, 6))
		g_error("sd_hist: out of memory");	/* a KiB */
	h->cap = 16;
	h->sd = g_new(int64_t, h->cap);
	h->count = g_new(uint64_t, h->cap);
	return h;
}

void sd_hist_free(struct sd_hist *h)
{
	if (!h)
		return;
	g_free(h->index.slot);
	g_free(h->sd);
	g_free(h->count);
	g_free(h);
}

void sd_hist_reset(struct sd_hist *h)
{
	map_reset(&h->index);
	h->len = 0;
	h->total = 0;
}

void sd_hist_add(struct sd_hist *h, int64_t sd)
{
	bool fresh;
	struct u64slot *s = map_get(&h->index, (uint64_t)sd, &fresh);

	/* distinct distances are fewer than the tracker's addresses, whose
	 * map is larger: only memory running out, as for any g_new, ends here */
	if (!s)
		g_error("sd_hist: out of memory");
	h->total++;
	if (!fresh) {
		h->count[s->val]++;
		return;
	}
	if (h->len == h->cap) {
		h->cap *= 2;
		h->sd = g_renew(int64_t, h->sd, h->cap);
		h->count = g_renew(uint64_t, h->count, h->cap);
	}
	s->val = (uint32_t)h->len;
	h->sd[h->len] = sd;
	h->count[h->len++] = 1;
}

uint64_t sd_hist_total(const struct sd_hist *h)
{
	return h->total;
}

size_t sd_hist_len(const struct sd_hist *h)
{
	return h->len;
}

void sd_hist_entry(const struct sd_hist *h, size_t i, int64_t *sd, uint64_t *count)
{
	g_return_if_fail(i < h->len);
	*sd = h->sd[i];
	*count = h->count[i];
}

/* ---- hit probability ---------------------------------------------------------- */

/*
 * C(d, a) for the reference is a Python integer, converted to double with
 * correct rounding when multiplied by a float.  128 bits hold it for A = 4
 * only: C(10^6, 31) has 500 bits.  So it is kept exactly in 64-bit limbs,
 * up to where a double could no longer hold it (there the reference's
 * conversion raises OverflowError).
 */
#define BIG_LIMBS 20	/* 1280 bits: C < 2^1024 times a factor < 2^64 */

struct big {
	uint64_t l[BIG_LIMBS];	/* little-endian */
	int n;			/* limbs in use, the top one nonzero */
};

static void big_mul(struct big *b, uint64_t m)
{
	unsigned __int128 carry = 0;

	for (int i = 0; i < b->n; i++) {
		carry += (unsigned __int128)b->l[i] * m;
		b->l[i] = (uint64_t)carry;
		carry >>= 64;
	}
	if (carry)
		b->l[b->n++] = (uint64_t)carry;
}

/* Exact when d divides b, as a does in C(d, a - 1) * (d - a + 1) / a. */
static void big_div(struct big *b, uint64_t d)
{
	unsigned __int128 rem = 0;

	for (int i = b->n - 1; i >= 0; i--) {
		unsigned __int128 cur = rem << 64 | b->l[i];

		b->l[i] = (uint64_t)(cur / d);
		rem = cur % d;
	}
	while (b->n > 1 && !b->l[b->n - 1])
		b->n--;
}

static int big_bits(const struct big *b)
{
	return (b->n - 1) * 64 + 64 - __builtin_clzll(b->l[b->n - 1]);
}

/* Bits [pos, pos + 64) of b. */
static uint64_t big_get64(const struct big *b, int pos)
{
	int i = pos / 64, s = pos % 64;
	uint64_t lo = i < b->n ? b->l[i] >> s : 0;
	uint64_t hi = s && i + 1 < b->n ? b->l[i + 1] << (64 - s) : 0;

	return lo | hi;
}

/* Any bit below pos set. */
static bool big_sticky(const struct big *b, int pos)
{
	int i = pos / 64, s = pos % 64;

	for (int k = 0; k < i && k < b->n; k++)
		if (b->l[k])
			return true;
	return s && i < b->n && (b->l[i] & ((UINT64_C(1) << s) - 1));
}

/* Round to nearest, ties to even, as Python's int.__float__; inf past 2^1024. */
static double big_to_double(const struct big *b)
{
	int nbits = big_bits(b);

	if (nbits <= 53)
		return (double)b->l[0];
	int shift = nbits - 53;
	uint64_t mant = big_get64(b, shift) & ((UINT64_C(1) << 53) - 1);
	bool half = big_get64(b, shift - 1) & 1;

	if (half && ((mant & 1) || big_sticky(b, shift - 1)))
		mant++;		/* may carry to 2^53: still exact */
	return ldexp((double)mant, shift);
}

static double xlogy(double x, double y)
{
	return x == 0 ? 0 : x * log(y);
}

static double p_exact(int64_t d, uint32_t assoc, uint64_t blocks)
{
	double ab = (double)assoc / (double)blocks;
	double rest = (double)((int64_t)blocks - (int64_t)assoc) / (double)blocks;
	/*
	 * Terms with a > d are the reference's 0 * pow(rest, negative): 0,
	 * unless the pow overflows, where Python raises; leave them out.
	 */
	int64_t last = (int64_t)assoc - 1 < d ? (int64_t)assoc - 1 : d;
	struct big c = { .l = { 1 }, .n = 1 };
	bool exact = true;
	double logc = 0, p = 0.0;

	for (int64_t a = 0; a <= last; a++) {
		if (exact) {
			if (a) {
				big_mul(&c, (uint64_t)(d - a + 1));
				big_div(&c, (uint64_t)a);
			}
			double cd = big_bits(&c) <= 1024 ? big_to_double(&c) : INFINITY;

			if (!isinf(cd)) {
				p += (cd * pow(ab, (double)a)) * pow(rest, (double)(d - a));
				continue;
			}
			/*
			 * C(d, a) beyond the doubles, where the reference
			 * raises OverflowError: from here on, the terms in
			 * logarithms.  Up to 32 ways, they are about 0 for
			 * any cache under 2^30 sectors; with 64 ways or more,
			 * real cache sizes get here.  The sum of the
			 * logarithms of the factors keeps more digits than
			 * lgamma's difference of two huge numbers.
			 */
			exact = false;
			for (int64_t k = 1; k < a; k++)
				logc += log((double)(d - k + 1) / (double)k);
		}
		logc += log((double)(d - a + 1) / (double)a);
		p += exp(logc + xlogy((double)a, ab) + xlogy((double)(d - a), rest));
	}
	return p;
}

/*
 * The reference's normal approximation (quirk: the |..|), operation by
 * operation, so that the doubles match: 1.41421, not M_SQRT2.  A/B and
 * (B-A)/B are Python's int / int, which for integers below 2^53 is the
 * division of their doubles.
 */
static double p_approx(int64_t d, uint32_t assoc, uint64_t blocks, bool quirk)
{
	double ab = (double)assoc / (double)blocks;
	double rest = (double)((int64_t)blocks - (int64_t)assoc) / (double)blocks;
	double mean = (double)d * ab;
	double var = mean * rest;
	double y = (double)((int64_t)assoc - 1) - mean;
	double x = (quirk ? fabs(y) : y) / sqrt(var);

	return 1 - (0.5 - 0.5 * erf(x / 1.41421));
}

double sdcm_p_hit(enum sdcm_p_hit form, int64_t d, uint32_t assoc, uint64_t blocks)
{
	if (d == 0)
		return 1.0;
	if (d < 0)
		return 0.0;
	switch (form) {
	case SDCM_EXACT:
		return p_exact(d, assoc, blocks);
	case SDCM_APPROX_REF:
		return p_approx(d, assoc, blocks, true);
	case SDCM_APPROX_FIXED:
		return p_approx(d, assoc, blocks, false);
	}
	g_return_val_if_reached(0.0);
}

/* ---- CPython's random ----------------------------------------------------------- */

/* MT19937 (Matsumoto and Nishimura), as CPython's _randommodule.c uses it. */
#define MT_N 624
#define MT_M 397

static void mt_init(struct py_random *r, uint32_t s)
{
	r->mt[0] = s;
	for (int i = 1; i < MT_N; i++)
		r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
	r->index = MT_N;
}

static void mt_init_by_array(struct py_random *r, const uint32_t *key, int len)
{
	int i = 1, j = 0;

	mt_init(r, 19650218u);
	for (int k = MT_N > len ? MT_N : len; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) +
			key[j] + (uint32_t)j;
		if (++i >= MT_N) {
			r->mt[0] = r->mt[MT_N - 1];
			i = 1;
		}
		if (++j >= len)
			j = 0;
	}
	for (int k = MT_N - 1; k; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) -
			(uint32_t)i;
		if (++i >= MT_N) {
			r->mt[0] = r->mt[MT_N - 1];
			i = 1;
		}
	}
	r->mt[0] = 0x80000000u;	/* the state is never all zero */
}

static uint32_t mt_next(struct py_random *r)
{
	if (r->index >= MT_N) {
		for (int k = 0; k < MT_N; k++) {
			uint32_t y = (r->mt[k] & 0x80000000u) | (r->mt[(k + 1) % MT_N] & 0x7fffffffu);

			r->mt[k] = r->mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
		}
		r->index = 0;
	}
	uint32_t y = r->mt[r->index++];

	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* random.seed(n): the key is n's 32-bit words, least significant first; 0 is {0}. */
void py_random_seed(struct py_random *r, uint64_t n)
{
	uint32_t key[2] = { (uint32_t)n, (uint32_t)(n >> 32) };

	mt_init_by_array(r, key, key[1] ? 2 : 1);
}

double py_random(struct py_random *r)
{
	uint32_t a = mt_next(r) >> 5;	/* drawn first: C leaves the order of operands open */
	uint32_t b = mt_next(r) >> 6;

	return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}
