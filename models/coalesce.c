/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coalescer: a lane's address contributes its 32-byte sector, and a
 * warp instruction becomes one request per distinct sector.
 *
 * Every order starts from the lanes' distinct sectors in first-touch
 * order.  Most lanes touch the sector of the lane before, so runs of them
 * are skipped four lanes to a compare; and while the sectors only go up,
 * as they mostly do, a sector cannot repeat an earlier one and no set is
 * needed.  Once one goes down, a hash set keyed by line, whose value is
 * the mask of the line's sectors seen so far, deduplicates and counts the
 * lines in one lookup.
 *
 * pyset then replays CPython's setobject.c (3.7 to 3.13 agree) for those
 * distinct keys in that order, which is the set the reference builds: an
 * add() of a key already present changes nothing.  Only the hash of an
 * int has to be reproduced (the value modulo 2^61 - 1), and since every
 * key is known to be new, an insert never compares keys: it takes the
 * first free slot on the key's probe path, and a bitmap of the taken slots
 * answers a probe round, the 10 slots of a linear probe at once.  The keys
 * are read only at a resize (in old slot order) and at the end (the
 * iteration order).  Up to 76 keys the bitmap is a register.
 *
 * descending is ascending reversed.  Byte masks (bit i: byte i of the
 * sector, set by a lane whose access covers it) come after
 * the order: the dedup set's slots, free by then, map each sector to its
 * place in the output, and each lane ORs its bytes in.
 *
 * Scratch is sized for the largest n seen and grows geometrically, so
 * that a steady stream of warp instructions allocates nothing.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "coalesce.h"

#define always_inline inline __attribute__((always_inline))

/* setobject.c */
#define PY_LINEAR_PROBES 9
#define PY_PERTURB_SHIFT 5
#define PY_MINSIZE 8
#define PY_HASH_MODULUS ((UINT64_C(1) << 61) - 1)
/* the slots a probe round looks at, from its first, when the table has them */
#define PY_ROUND_MASK ((1u << (PY_LINEAR_PROBES + 1)) - 1)

/* Slots of the deduplicating hash set, at least: one bitmap word. */
#define SEEN_MINSIZE 64

struct coalescer {
	enum coalesce_order order;
	uint64_t sector_mask;	/* clears the offset within a sector */
	unsigned sector_shift, line_shift;
	/*
	 * The dedup set's key: the line when a line has at most 64 sectors,
	 * else a group of 64 sectors, and the lines are counted apart.
	 */
	unsigned group_shift;
	bool group_is_line;
	uint32_t cap_n;		/* the scratch holds n addresses up to this */
	uint64_t *mem;		/* all scratch, one block */
	uint64_t *seen_key, *seen_val, *seen_bm;
	uint64_t *py_key[2], *py_bm[2];
	uint64_t *prog;		/* a progression's addresses, when needed */
	uint32_t cap_prog;
};

static inline bool bit_test(const uint64_t *bm, uint64_t i)
{
	return bm[i >> 6] >> (i & 63) & 1;
}

static inline void bit_set(uint64_t *bm, uint64_t i)
{
	bm[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline size_t bm_words(uint64_t slots)
{
	return (slots + 63) / 64;
}

/* The smallest power of two above x, at least min. */
static uint64_t pow2_above(uint64_t x, uint64_t min)
{
	uint64_t p = min;

	while (p <= x)
		p <<= 1;
	return p;
}

/* At most half full, so that probing stays short. */
static uint64_t seen_slots(uint32_t n)
{
	return pow2_above((uint64_t)n * 2 - 1, SEEN_MINSIZE);
}

/*
 * The largest table CPython builds from n keys: a resize with u keys gives
 * the smallest power of two above 4u (above 2u once u > 50000), and u never
 * exceeds n.
 */
static uint64_t py_slots(uint32_t n)
{
	return pow2_above((uint64_t)n * 4, PY_MINSIZE);
}

static void scratch_grow(struct coalescer *c, uint32_t n)
{
	uint32_t want = c->cap_n ? c->cap_n : n;

	while (want < n)
		want = want > UINT32_MAX / 2 ? UINT32_MAX : want * 2;

	uint64_t ss = seen_slots(want), ps = c->order == COALESCE_PYSET ? py_slots(want) : 0;
	uint64_t *p;

	g_free(c->mem);
	c->mem = p = g_new(uint64_t, 2 * ss + bm_words(ss) + 2 * (ps + bm_words(ps)));
	c->cap_n = want;
	c->seen_key = p;
	c->seen_val = p += ss;
	c->seen_bm = p += ss;
	p += bm_words(ss);
	for (int t = 0; t < 2; t++) {
		c->py_key[t] = p;
		c->py_bm[t] = p += ps;
		p += bm_words(ps);
	}
}

/* ---- first touch ---------------------------------------------------------- */

/*
 * The first lane from p on whose sector is not prev, end if none.  Most
 * lanes share the sector of the lane before: 4 of them cost one branch.
 */
static always_inline const uint64_t *next_change(const uint64_t *p, const uint64_t *end,
						 uint64_t prev, uint64_t smask)
{
	for (; end - p >= 4; p += 4)
		if (((p[0] ^ prev) | (p[1] ^ prev) | (p[2] ^ prev) | (p[3] ^ prev)) & smask)
			break;
	while (p < end && !((*p ^ prev) & smask))
		p++;
	return p;
}

/*
 * Lines of the distinct sectors sec[0..m-1] when a line holds more than 64
 * sectors: the dedup set again, keyed by line, for a count.
 */
static uint32_t count_lines(struct coalescer *c, const uint64_t *sec, uint32_t m)
{
	const unsigned line_shift = c->line_shift;
	const uint64_t slots = seen_slots(m), mask = slots - 1;
	const unsigned hshift = 64 - __builtin_ctzll(slots);
	uint64_t *key = c->seen_key, *bm = c->seen_bm;
	uint32_t lines = 0;

	memset(bm, 0, bm_words(slots) * sizeof(uint64_t));
	for (uint32_t s = 0; s < m; s++) {
		uint64_t l = sec[s] >> line_shift;
		uint64_t i = (l * UINT64_C(0x9e3779b97f4a7c15)) >> hshift;

		while (bit_test(bm, i) && key[i] != l)
			i = (i + 1) & mask;
		if (!bit_test(bm, i)) {
			bit_set(bm, i);
			key[i] = l;
			lines++;
		}
	}
	return lines;
}

/*
 * The dedup set, in locals: its fields are uint64_t like its slots, and a
 * store to a slot must not force them to be reloaded.
 */
struct seen {
	uint64_t *key, *val, *bm;
	uint64_t mask;
	unsigned hshift, gshift, sshift;
	uint32_t groups;
};

/* Sector k into the set; true when it was not there. */
static always_inline bool seen_add(struct seen *h, uint64_t k)
{
	uint64_t g = k >> h->gshift, bit = UINT64_C(1) << ((k >> h->sshift) & 63);
	uint64_t i = (g * UINT64_C(0x9e3779b97f4a7c15)) >> h->hshift;

	for (;;) {
		if (!bit_test(h->bm, i)) {
			bit_set(h->bm, i);
			h->key[i] = g;
			h->val[i] = bit;
			h->groups++;
			return true;
		}
		if (h->key[i] == g) {
			if (h->val[i] & bit)
				return false;
			h->val[i] |= bit;
			return true;
		}
		i = (i + 1) & h->mask;
	}
}

/*
 * The rest of first_touch() once a sector went down: the m sectors found
 * so far into the set, then the lanes left, addr[0..n-1], the first of
 * them the one that went down.  total: all the lanes, to size the set.
 */
static uint32_t first_touch_hashed(struct coalescer *c, const uint64_t *addr, uint32_t n,
				   uint32_t total, uint64_t *out, uint32_t m, uint32_t *lines)
{
	const uint64_t smask = c->sector_mask, slots = seen_slots(total);
	struct seen h = {
		.key = c->seen_key, .val = c->seen_val, .bm = c->seen_bm,
		.mask = slots - 1, .hshift = 64 - __builtin_ctzll(slots),
		.gshift = c->group_shift, .sshift = c->sector_shift,
	};
	uint64_t prev = out[m - 1];

	memset(h.bm, 0, bm_words(slots) * sizeof(uint64_t));
	for (uint32_t s = 0; s < m; s++)
		seen_add(&h, out[s]);
	for (const uint64_t *p = addr, *end = addr + n; p < end;
	     p = next_change(p + 1, end, prev, smask)) {
		uint64_t k = *p & smask;

		if (seen_add(&h, k))
			out[m++] = k;
		prev = k;
	}
	*lines = c->group_is_line ? h.groups : count_lines(c, out, m);
	return m;
}

/* Strides of more than this many bytes take the general path: a
 * progression of up to 2^32 lanes then spans less than 2^64 bytes, so it
 * wraps around the address space exactly when its last lane is on the
 * wrong side of its first. */
#define STRIDE_MAX (UINT64_C(1) << 31)

/*
 * first_touch() of n >= 2 lanes in arithmetic progression, address i =
 * a0 + i * d, which is what most warp instructions are (base + lane *
 * width): their sectors are monotone, each lane's a new one or its
 * neighbour's, so nothing needs finding.  With |d| of a sector or less
 * every sector from the first lane's to the last's is touched, in that
 * order; with a longer stride each lane touches its own, and the lines
 * are the changes of line.  False, with nothing written, for a stride
 * past STRIDE_MAX or a progression that wraps around the address space.
 */
static always_inline bool progression_touch(struct coalescer *c, uint64_t a0,
					    uint64_t d, uint32_t n, uint64_t *out,
					    uint32_t *m, uint32_t *lines, bool *sorted)
{
	const uint64_t smask = c->sector_mask, sbytes = ~smask + 1;
	const unsigned sshift = c->sector_shift, lshift = c->line_shift;
	const bool up = d < STRIDE_MAX;
	const uint64_t an = a0 + (uint64_t)(n - 1) * d;

	if (!up && -d > STRIDE_MAX)
		return false;
	if (up ? an < a0 : an > a0)
		return false;	/* wraps around */

	uint64_t first = a0 & smask, last = an & smask;

	if ((up ? d : -d) <= sbytes) {
		uint64_t k = (up ? last - first : first - last) >> sshift;
		const uint64_t step = up ? sbytes : -sbytes;
		uint64_t sec = first;

		*m = (uint32_t)k + 1;
		/* one add a sector: no choice of direction in the loop */
		for (uint32_t j = 0; j <= k; j++, sec += step)
			out[j] = sec;
		*lines = (uint32_t)(up ? (last >> lshift) - (first >> lshift)
				       : (first >> lshift) - (last >> lshift)) + 1;
		*sorted = up || k == 0;
		return true;
	}

	uint32_t nl = 1;
	uint64_t a = a0 + d;

	out[0] = first;
	for (uint32_t i = 1; i < n; i++, a += d) {
		out[i] = a & smask;
		nl += out[i] >> lshift != out[i - 1] >> lshift;
	}
	*m = n;
	*lines = nl;
	*sorted = up;
	return true;
}

/* progression_touch() of addr[0..n-1] (n >= 2), when it is a progression. */
static always_inline bool first_touch_strided(struct coalescer *c, const uint64_t *addr,
					      uint32_t n, uint64_t *out, uint32_t *m,
					      uint32_t *lines, bool *sorted)
{
	const uint64_t d = addr[1] - addr[0];

	if (d >= STRIDE_MAX && -d > STRIDE_MAX)
		return false;
	for (uint32_t i = 2; i < n; i++)
		if (addr[i] - addr[i - 1] != d)
			return false;
	return progression_touch(c, addr[0], d, n, out, m, lines, sorted);
}

/*
 * The distinct sectors of addr[0..n-1] (n > 0) into out[], in the order
 * lanes first touch them; returns how many, their lines in *lines, and in
 * *sorted whether they came ascending.  Until a sector goes down, the
 * lines are the changes of line.
 */
static uint32_t first_touch(struct coalescer *c, const uint64_t *addr, uint32_t n,
			    uint64_t *out, uint32_t *lines, bool *sorted)
{
	const uint64_t smask = c->sector_mask;
	const unsigned lshift = c->line_shift;
	uint64_t prev = addr[0] & smask;
	uint32_t m = 1, nl = 1;

	if (n >= 2 && first_touch_strided(c, addr, n, out, &m, lines, sorted))
		return m;
	out[0] = prev;
	for (const uint64_t *p = next_change(addr + 1, addr + n, prev, smask), *end = addr + n;
	     p < end; p = next_change(p + 1, end, prev, smask)) {
		uint64_t k = *p & smask;

		if (k < prev) {
			*sorted = false;
			return first_touch_hashed(c, p, end - p, n, out, m, lines);
		}
		nl += k >> lshift != prev >> lshift;
		out[m++] = prev = k;
	}
	*lines = nl;
	*sorted = true;
	return m;
}

/* ---- CPython's set --------------------------------------------------------- */

/*
 * CPython's hash of a non-negative int: its value modulo 2^61 - 1.  A
 * 64-bit x is (x >> 61) * 2^61 + (x & M), and 2^61 = 1 modulo M, so one
 * conditional subtraction finishes the reduction.
 */
static always_inline uint64_t py_hash(uint64_t x)
{
	if (__builtin_expect(x < PY_HASH_MODULUS, 1))
		return x;

	uint64_t h = (x & PY_HASH_MODULUS) + (x >> 61);

	return h >= PY_HASH_MODULUS ? h - PY_HASH_MODULUS : h;
}

/*
 * The slot a new key takes: the first free one on its probe path, which
 * is where set_add_entry() puts a key it does not find, and where
 * set_insert_clean() puts a key at a resize.  A round looks at slot i and,
 * when the table goes on for 9 more slots, at those as well.
 */
static always_inline uint64_t py_slot(const uint64_t *bm, uint64_t mask, uint64_t h)
{
	uint64_t perturb = h, i = h & mask;

	for (;;) {
		unsigned o = i & 63;
		uint64_t w = bm[i >> 6] >> o;

		/* the 10 slots at i lie in the table: they may cross a word */
		if (i + PY_LINEAR_PROBES <= mask) {
			if (o > 63 - PY_LINEAR_PROBES)
				w |= bm[(i >> 6) + 1] << (64 - o);
			w = ~w & PY_ROUND_MASK;
		} else {
			w = ~w & 1;
		}
		if (w)
			return i + __builtin_ctzll(w);
		perturb >>= PY_PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

/*
 * The distinct keys u[0..m-1], added in that order, and then the set's
 * iteration order (slot 0 to mask, the free ones skipped) into out[],
 * which may be u.
 */
static void pyset_order(struct coalescer *c, const uint64_t *u, uint32_t m,
			uint64_t *out)
{
	uint64_t *key = c->py_key[0], *bm = c->py_bm[0];
	uint64_t *key2 = c->py_key[1], *bm2 = c->py_bm[1];
	uint64_t mask = PY_MINSIZE - 1;
	uint32_t o = 0;

	bm[0] = 0;
	for (uint32_t fill = 1; fill <= m; fill++) {
		uint64_t k = u[fill - 1], j = py_slot(bm, mask, py_hash(k));

		bit_set(bm, j);
		key[j] = k;
		/* the threshold compares with the mask before the insert */
		if (fill * (uint64_t)5 < mask * 3)
			continue;

		/* set_table_resize(): the keys in the order of their old slots */
		uint64_t minused = fill > 50000 ? fill * (uint64_t)2 : fill * (uint64_t)4;
		uint64_t nmask = pow2_above(minused, PY_MINSIZE) - 1, *t;

		memset(bm2, 0, bm_words(nmask + 1) * sizeof(uint64_t));
		for (size_t w = 0; w < bm_words(mask + 1); w++)
			for (uint64_t b = bm[w]; b; b &= b - 1) {
				uint64_t x = key[w * 64 + __builtin_ctzll(b)];

				j = py_slot(bm2, nmask, py_hash(x));
				bit_set(bm2, j);
				key2[j] = x;
			}
		mask = nmask;
		t = key, key = key2, key2 = t;
		t = bm, bm = bm2, bm2 = t;
	}
	for (size_t w = 0; w < bm_words(mask + 1); w++)
		for (uint64_t b = bm[w]; b; b &= b - 1)
			out[o++] = key[w * 64 + __builtin_ctzll(b)];
}

#ifdef __SIZEOF_INT128__
/*
 * Up to 76 keys the table never outgrows 128 slots (8, 32 at the 5th key,
 * 128 at the 19th), and its bitmap is a register: no store to reload in
 * the next probe, and a probe round takes no branch but its end.  While
 * the table has 8 or 32 slots, as for every instruction of up to 18
 * sectors, the register is 64 bits wide; only the 128-slot table needs
 * 128-bit shifts.
 */
#define PY_SMALL_KEYS 76

typedef unsigned __int128 u128;

/* py_slot() on a table of at most 64 slots, from the round after the one
 * at slot i, which found nothing free; perturb: the hash. */
static always_inline uint64_t py_slot64_after(uint64_t bm, uint64_t mask,
					      uint64_t perturb, uint64_t i)
{
	for (;;) {
		perturb >>= PY_PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;

		uint64_t w = ~(bm >> i) & (i + PY_LINEAR_PROBES <= mask ? PY_ROUND_MASK : 1);

		if (w)
			return i + __builtin_ctzll(w);
	}
}

/* py_slot() on a table of at most 64 slots. */
static always_inline uint64_t py_slot64(uint64_t bm, uint64_t mask, uint64_t h)
{
	uint64_t i = h & mask;
	uint64_t w = ~(bm >> i) & (i + PY_LINEAR_PROBES <= mask ? PY_ROUND_MASK : 1);

	if (w)
		return i + __builtin_ctzll(w);
	return py_slot64_after(bm, mask, h, i);
}

static always_inline uint64_t py_slot128(u128 bm, uint64_t mask, uint64_t h)
{
	uint64_t perturb = h, i = h & mask;

	for (;;) {
		uint64_t w = ~(uint64_t)(bm >> i) &
			     (i + PY_LINEAR_PROBES <= mask ? PY_ROUND_MASK : 1);

		if (w)
			return i + __builtin_ctzll(w);
		perturb >>= PY_PERTURB_SHIFT;
		i = (i * 5 + 1 + perturb) & mask;
	}
}

/*
 * The rest of pyset_order_small() from the resize at the 19th key: the
 * 32-slot table bm/key, into 128 slots, then the keys after it.
 */
static void pyset_order_wide(uint64_t *key, uint64_t *key2, uint64_t bm,
			     const uint64_t *u, uint32_t m, uint64_t *out)
{
	const uint64_t mask = 127;
	uint32_t o = 0, fill;
	u128 wide = 0;
	uint64_t j, *t;

	for (uint64_t b = bm; b; b &= b - 1) {
		uint64_t x = key[__builtin_ctzll(b)];

		j = py_slot128(wide, mask, py_hash(x));
		wide |= (u128)1 << j;
		key2[j] = x;
	}
	t = key, key = key2, key2 = t;
	for (fill = 20; fill <= m; fill++) {
		uint64_t k = u[fill - 1];

		j = py_slot128(wide, mask, py_hash(k));
		wide |= (u128)1 << j;
		key[j] = k;
		/* a 128-slot table takes 76 keys before its next resize */
	}
	for (int half = 0; half < 2; half++)
		for (uint64_t b = (uint64_t)(wide >> (64 * half)); b; b &= b - 1)
			out[o++] = key[64 * half + __builtin_ctzll(b)];
}

/*
 * pyset_order_small() of keys that are multiples of 32 below 2^61, as
 * addresses of sectors of 32 bytes or more are: each hashes to itself,
 * whose index is slot 0 in the tables of 8 and 32 slots.  So in the
 * 8-slot table every key but the first meets slot 0 taken, and its
 * probe starts at the next round.  The resize at the 5th key puts the
 * five, in the order of their slots, in slots 0 to 4 of the 32-slot
 * table: slot 0 and the 9 after it are the first round of every key
 * there, all free.  The keys up to the 10th take the rest of those in
 * turn, and the keys after them start at the next round too.  Only
 * those probes are simulated.
 */
static void pyset_order_aligned(struct coalescer *c, const uint64_t *u, uint32_t m,
				uint64_t *out)
{
	uint64_t *key = c->py_key[0], *key2 = c->py_key[1];
	uint64_t bm = 1, j;
	uint32_t o = 0, fill, n;

	key[0] = u[0];
	for (fill = 2, n = MIN(m, 5); fill <= n; fill++) {
		j = py_slot64_after(bm, PY_MINSIZE - 1, u[fill - 1], 0);
		bm |= UINT64_C(1) << j;
		key[j] = u[fill - 1];
	}
	if (m <= 4) {
		for (uint64_t b = bm; b; b &= b - 1)
			out[o++] = key[__builtin_ctzll(b)];
		return;
	}
	for (uint64_t b = bm; b; b &= b - 1)
		key2[o++] = key[__builtin_ctzll(b)];
	for (n = MIN(m, 10); o < n; o++)
		key2[o] = u[o];
	bm = (UINT64_C(1) << n) - 1;
	for (fill = 11, n = MIN(m, 19); fill <= n; fill++) {
		j = py_slot64_after(bm, 31, u[fill - 1], 0);
		bm |= UINT64_C(1) << j;
		key2[j] = u[fill - 1];
	}
	if (m >= 19) {
		pyset_order_wide(key2, key, bm, u, m, out);
		return;
	}
	o = 0;
	for (uint64_t b = bm; b; b &= b - 1)
		out[o++] = key2[__builtin_ctzll(b)];
}

/* pyset_order() for m <= PY_SMALL_KEYS. */
static void pyset_order_small(struct coalescer *c, const uint64_t *u, uint32_t m,
			      uint64_t *out)
{
	uint64_t *key = c->py_key[0], *key2 = c->py_key[1], *t;
	uint64_t mask = PY_MINSIZE - 1, bm = 0, j;
	uint32_t o = 0, fill;
	uint64_t any = 0;

	for (fill = 0; fill < m; fill++)
		any |= u[fill];
	if (!(any & 31) && !(any >> 61)) {
		pyset_order_aligned(c, u, m, out);
		return;
	}
	for (fill = 1; fill <= m; fill++) {
		uint64_t k = u[fill - 1];

		j = py_slot64(bm, mask, py_hash(k));
		bm |= UINT64_C(1) << j;
		key[j] = k;
		if (fill * 5 < mask * 3)
			continue;

		uint64_t nmask = pow2_above(fill * 4, PY_MINSIZE) - 1, nbm = 0;

		if (nmask > 63) {
			pyset_order_wide(key, key2, bm, u, m, out);
			return;
		}
		for (uint64_t b = bm; b; b &= b - 1) {
			uint64_t x = key[__builtin_ctzll(b)];

			j = py_slot64(nbm, nmask, py_hash(x));
			nbm |= UINT64_C(1) << j;
			key2[j] = x;
		}
		mask = nmask;
		bm = nbm;
		t = key, key = key2, key2 = t;
	}
	for (uint64_t b = bm; b; b &= b - 1)
		out[o++] = key[__builtin_ctzll(b)];
}
#else
/* no 128-bit integers: every table takes the general path */
#define PY_SMALL_KEYS 0
#define pyset_order_small pyset_order
#endif

/* ---- ascending -------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Sectors that went down only here and there are nearly sorted, where
 * insertion sort is about one pass; qsort bounds the large scrambled case.
 */
static void sort_u64(uint64_t *v, uint32_t m)
{
	if (m > 64) {
		qsort(v, m, sizeof(*v), cmp_u64);
		return;
	}
	for (uint32_t i = 1; i < m; i++) {
		uint64_t k = v[i];
		uint32_t j = i;

		for (; j > 0 && v[j - 1] > k; j--)
			v[j] = v[j - 1];
		v[j] = k;
	}
}

/* ---- byte masks ------------------------------------------------------------ */

/* Bytes [off, off + width) of a 32-byte sector, clipped at its end. */
/* The bits of `width` bytes from byte 0, widened so that a shift by the
 * lane's offset in its sector (< 32) cannot overflow; the bits past the
 * sector end fall off when the result is cut to 32 bits. */
static always_inline uint64_t width_bits(uint32_t width)
{
	return width >= 32 ? UINT32_MAX : (UINT64_C(1) << width) - 1;
}

/*
 * sector_masks() when the lanes meet the sectors in out[]'s order, each
 * once (a lane's sector is its predecessor's or the next of out[]): no
 * set, a walk.  False, with mask[] partly written, otherwise.
 */
static bool sector_masks_in_order(const uint64_t *addr, uint32_t n, uint64_t smask,
				  uint64_t wb, const uint64_t *out, uint32_t m,
				  uint32_t *mask)
{
	uint64_t prev = out[0];
	uint32_t at = 0, bits = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = addr[i] & smask;

		if (s != prev) {
			if (++at == m || out[at] != s)
				return false;
			mask[at - 1] = bits;
			bits = 0;
			prev = s;
		}
		bits |= (uint32_t)(wb << (addr[i] & ~smask));
	}
	mask[at] = bits;
	return at == m - 1;
}

/*
 * mask[i] for the m sectors out[] of addr[0..n-1]: the dedup set's slots,
 * free once coalesce() is done, map a sector to its place in out[].  Lanes
 * mostly share the sector of the lane before: their bits gather in a
 * register, and the lookup and the store happen when the sector changes.
 */
static void sector_masks(struct coalescer *c, const uint64_t *addr, uint32_t n,
			 uint32_t width, const uint64_t *out, uint32_t m, uint32_t *mask)
{
	const uint64_t smask = c->sector_mask, slots = seen_slots(n), hmask = slots - 1;
	const unsigned hshift = 64 - __builtin_ctzll(slots), sshift = c->sector_shift;
	const uint64_t wb = width_bits(width);
	uint64_t *key = c->seen_key, *val = c->seen_val, *bm = c->seen_bm;
	uint64_t prev = out[0];
	uint32_t at = 0, bits = 0;

	/* the usual: lanes in out[]'s order (first touch, or ascending lanes) */
	if ((addr[0] & smask) == out[0] &&
	    sector_masks_in_order(addr, n, smask, wb, out, m, mask))
		return;
	memset(mask, 0, m * sizeof(*mask));
	if (m == 1) {
		for (uint32_t i = 0; i < n; i++)
			bits |= (uint32_t)(wb << (addr[i] & ~smask));
		mask[0] = bits;
		return;
	}
	memset(bm, 0, bm_words(slots) * sizeof(uint64_t));
	for (uint32_t i = 0; i < m; i++) {
		uint64_t h = ((out[i] >> sshift) * UINT64_C(0x9e3779b97f4a7c15)) >> hshift;

		while (bit_test(bm, h))
			h = (h + 1) & hmask;
		bit_set(bm, h);
		key[h] = out[i];
		val[h] = i;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = addr[i] & smask;

		if (s != prev) {
			uint64_t h = ((s >> sshift) * UINT64_C(0x9e3779b97f4a7c15)) >> hshift;

			mask[at] |= bits;
			bits = 0;
			while (key[h] != s)
				h = (h + 1) & hmask;
			at = (uint32_t)val[h];
			prev = s;
		}
		bits |= (uint32_t)(wb << (addr[i] & ~smask));
	}
	mask[at] |= bits;
}

/* ---- the interface ------------------------------------------------------- */

struct coalescer *coalescer_new(enum coalesce_order order, uint32_t sector_bytes,
				uint32_t line_bytes)
{
	g_return_val_if_fail(order == COALESCE_PYSET || order == COALESCE_ASCENDING ||
			     order == COALESCE_FIRST_TOUCH || order == COALESCE_DESCENDING,
			     NULL);
	g_return_val_if_fail(sector_bytes && !(sector_bytes & (sector_bytes - 1)), NULL);
	g_return_val_if_fail(line_bytes && !(line_bytes & (line_bytes - 1)), NULL);
	g_return_val_if_fail(sector_bytes <= line_bytes, NULL);

	struct coalescer *c = g_new0(struct coalescer, 1);

	c->order = order;
	c->sector_mask = ~(uint64_t)(sector_bytes - 1);
	c->sector_shift = __builtin_ctz(sector_bytes);
	c->line_shift = __builtin_ctz(line_bytes);
	c->group_is_line = c->line_shift - c->sector_shift <= 6;
	c->group_shift = c->group_is_line ? c->line_shift : c->sector_shift + 6;
	scratch_grow(c, 64);
	return c;
}

void coalescer_free(struct coalescer *c)
{
	if (!c)
		return;
	g_free(c->mem);
	g_free(c->prog);
	g_free(c);
}

static uint32_t put_in_order(struct coalescer *c, uint64_t *out, uint32_t m,
			     bool sorted);

uint32_t coalesce(struct coalescer *c, const uint64_t *addr, uint32_t n,
		  uint64_t *out, uint32_t *lines)
{
	uint32_t m;
	bool sorted;

	if (n == 0) {
		*lines = 0;
		return 0;
	}
	if (n > c->cap_n)
		scratch_grow(c, n);
	m = first_touch(c, addr, n, out, lines, &sorted);
	return put_in_order(c, out, m, sorted);
}

uint32_t coalesce_progression(struct coalescer *c, uint64_t first, uint64_t step,
			      uint32_t n, uint64_t *out, uint32_t *lines)
{
	uint32_t m;
	bool sorted;

	if (n > c->cap_n)
		scratch_grow(c, n);
	if (n < 2 || !progression_touch(c, first, step, n, out, &m, lines, &sorted)) {
		/* what first_touch() makes of the addresses themselves */
		if (n > c->cap_prog) {
			c->cap_prog = MAX(n, 2 * c->cap_prog);
			c->prog = g_renew(uint64_t, c->prog, c->cap_prog);
		}
		for (uint32_t k = 0; k < n; k++)
			c->prog[k] = first + k * step;
		return coalesce(c, c->prog, n, out, lines);
	}
	return put_in_order(c, out, m, sorted);
}

/* The m sectors of out[] (sorted: ascending) in the coalescer's order. */
static uint32_t put_in_order(struct coalescer *c, uint64_t *out, uint32_t m,
			     bool sorted)
{
	if (c->order == COALESCE_PYSET && m > 1) {
		if (m <= PY_SMALL_KEYS)
			pyset_order_small(c, out, m, out);
		else
			pyset_order(c, out, m, out);
	} else if (c->order == COALESCE_ASCENDING && !sorted) {
		sort_u64(out, m);
	} else if (c->order == COALESCE_DESCENDING) {
		if (!sorted)
			sort_u64(out, m);
		for (uint32_t i = 0, j = m - 1; i < j; i++, j--) {
			uint64_t t = out[i];

			out[i] = out[j];
			out[j] = t;
		}
	}
	return m;
}

uint32_t coalesce_lane_groups(const uint64_t *addr, uint32_t n, uint32_t lanes,
			      uint32_t width, uint32_t line_bytes,
			      uint64_t *out, uint8_t *lane)
{
	uint32_t group = width == 8 ? 16 : width == 16 ? 8 : 32;
	uint32_t m = 0, first = 0, cur = UINT32_MAX;	/* out[first..m): group cur's */
	uint64_t line_mask = ~(uint64_t)(line_bytes - 1);

	g_return_val_if_fail(line_bytes && !(line_bytes & (line_bytes - 1)) && n <= 32 &&
			     (!lanes || (uint32_t)__builtin_popcount(lanes) == n), 0);
	for (uint32_t i = 0, rest = lanes; i < n; i++) {
		uint32_t l = lanes ? (uint32_t)__builtin_ctz(rest) : i;
		uint64_t line = addr[i] & line_mask;
		bool found = false;

		rest &= rest - 1;
		if (l / group != cur) {
			cur = l / group;
			first = m;
		}
		/* the group's requests so far are its earlier lanes' lines */
		for (uint32_t j = first; j < m && !found; j++)
			found = out[j] == line;
		if (found)
			continue;
		out[m] = line;
		lane[m++] = (uint8_t)l;
	}
	return m;
}

uint32_t coalesce_masked(struct coalescer *c, const uint64_t *addr, uint32_t n,
			 uint32_t width, uint64_t *out, uint32_t *mask,
			 uint32_t *lines)
{
	uint32_t m;

	g_return_val_if_fail(c->sector_shift == 5 && width > 0, 0);
	m = coalesce(c, addr, n, out, lines);
	if (m)
		sector_masks(c, addr, n, width, out, m, mask);
	return m;
}
