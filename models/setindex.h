/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-index functions of a sector cache: which set a line goes to.
 *
 * Each function is an inline set_index_of_NAME() below, named in
 * SET_INDEX_FUNCTIONS (which makes its selector, enum set_index_fn, and
 * its case in set_index()), and described by its row of set_index_fns[]
 * in setindex.c: its name in configurations, a note for the cache's
 * `index` parameter, and which geometries it takes.  The caches, their
 * parameter (choices and doc) and the tests all read that table; adding
 * a function is the function, its entry here, its row there and a test.
 */
#ifndef SS_SETINDEX_H
#define SS_SETINDEX_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(SELECTOR, name): the functions, in the order of the `index` choices. */
#define SET_INDEX_FUNCTIONS(X) \
	X(FIB_DOUBLE, fib_double)	/* the reference's float Fibonacci hash, any set count */ \
	X(LINEAR, linear)		/* line mod sets */ \
	X(XOR, xor)			/* GPGPU-Sim X */ \
	X(IPOLY, ipoly)			/* GPGPU-Sim P: 16, 32 or 64 sets */ \
	X(FERMI, fermi)			/* GPGPU-Sim H: 32 or 64 sets, 128 B lines */ \
	X(NUGTEREN, nugteren)		/* Nugteren et al.'s model's: any count */

enum set_index_fn {
#define SET_INDEX_ENUM(sel, name) SET_INDEX_##sel,
	SET_INDEX_FUNCTIONS(SET_INDEX_ENUM)
#undef SET_INDEX_ENUM
	SET_INDEX_N
};

/* A row of the table: what is known of one function besides its code. */
struct set_index_desc {
	const char *name;	/* the value of a cache's `index` parameter */
	const char *note;	/* said after the name in the parameter's doc, or NULL */
	/* why `nsets` sets of `line_bytes` lines do not suit it (NULL when
	 * they do): the function computes a set below nsets only if they do */
	const char *(*check)(uint32_t nsets, uint32_t line_bytes);
};

/* Indexed by enum set_index_fn. */
extern const struct set_index_desc set_index_fns[SET_INDEX_N];

/* Why `nsets` does not suit `fn` (NULL when it does). */
const char *set_index_check(enum set_index_fn fn, uint32_t nsets,
			    uint32_t line_bytes);

uint32_t set_index_fib_double(uint64_t line, uint32_t nsets);
uint32_t set_index_ipoly(uint64_t idx, uint64_t h, uint32_t nsets);

/*
 * The ipoly index of `nsets` sets as three table lookups, for a cache
 * that computes it on every new line and an address decoder that hashes
 * every request to its slice: the hash is linear in the bits
 * above the set's, so entry [k][v] is the set set_index_ipoly() makes of
 * the bits v at 7k above them, from a line whose own set bits are 0, and
 * the set of any line is its set bits XOR one entry per piece.  The rows
 * use bits 0 to 18 above the set's, which the pieces cover.  Made once
 * per size and shared (thread-safe); NULL for a size ipoly does not take,
 * or if a row ever used a bit above 20.
 */
const uint8_t (*set_index_ipoly_tables(uint32_t nsets))[128];

/* What the ipoly hash XORs into the index for the bits h above it, by
 * the tables of set_index_ipoly_tables(). */
static inline uint32_t set_index_ipoly_xor(const uint8_t (*t)[128], uint64_t h)
{
	return (uint32_t)(t[0][h & 127] ^ t[1][(h >> 7) & 127] ^ t[2][(h >> 14) & 127]);
}

/* set_index_of_ipoly() of `line` by the tables of its nsets. */
static inline uint32_t set_index_ipoly_tabled(const uint8_t (*t)[128], uint64_t line,
					      uint32_t nsets, unsigned set_shift)
{
	return (uint32_t)(line & (nsets - 1)) ^ set_index_ipoly_xor(t, line >> set_shift);
}

/*
 * The functions are inline and call nothing, so that a cache's lookup,
 * which computes one on every new line, keeps its registers.
 */

/*
 * The reference's hash, exactly in IEEE doubles (the project builds with
 * -ffp-contract=off, so the multiply is never fused into something more
 * precise).
 */
static inline uint32_t set_index_fib(uint64_t line, uint32_t nsets)
{
	double x, f;

	/* = fmod(x, 1.0), which is exact, and so is x - trunc(x) for
	 * 0 <= x < 2^63: the fractional part always fits a double.  The
	 * truncating conversion is one instruction where fmod is a loop. */
	if (line < UINT64_C(1) << 62) {
		/* the usual case: both conversions are signed ones */
		x = (double)(int64_t)line * 0.61803398875;
		f = x - (double)(int64_t)x;
	} else {
		x = (double)line * 0.61803398875;
		/* from 2^52 up every double is an integer: fmod gives 0 */
		f = x < 9223372036854775808.0 ? x - (double)(int64_t)x : 0.0;
	}
	/* 0 <= f < 1, so the product is below 2^32: a signed conversion
	 * does, without the unsigned one's range test */
	uint64_t v = (uint64_t)(int64_t)(f * (double)nsets);

	/* f * nsets can round up to nsets, which the reference's % nsets
	 * brings back to 0; v never exceeds nsets, so no division is needed */
	return v == nsets ? 0 : (uint32_t)v;
}

/* IPOLY(5), IPOLY(37), IPOLY(67) (Rau, ISCA'91): for set bit j, the bits
 * of h XORed into idx bit j, as GPGPU-Sim tabulates them. */
static inline uint32_t set_index_ipoly_inline(uint64_t idx, uint64_t h,
					      uint32_t nsets)
{
	static const uint32_t ipoly16[4] = {
		(1u << 11) | (1u << 10) | (1u << 9) | (1u << 8) | (1u << 6) | (1u << 4) | (1u << 3) | (1u << 0),
		(1u << 12) | (1u << 8) | (1u << 7) | (1u << 6) | (1u << 5) | (1u << 3) | (1u << 1) | (1u << 0),
		(1u << 9) | (1u << 8) | (1u << 7) | (1u << 6) | (1u << 4) | (1u << 2) | (1u << 1),
		(1u << 10) | (1u << 9) | (1u << 8) | (1u << 7) | (1u << 5) | (1u << 3) | (1u << 2),
	};
	static const uint32_t ipoly32[5] = {
		(1u << 13) | (1u << 12) | (1u << 11) | (1u << 10) | (1u << 9) | (1u << 6) | (1u << 5) | (1u << 3) | (1u << 0),
		(1u << 14) | (1u << 13) | (1u << 12) | (1u << 11) | (1u << 10) | (1u << 7) | (1u << 6) | (1u << 4) | (1u << 1),
		(1u << 14) | (1u << 10) | (1u << 9) | (1u << 8) | (1u << 7) | (1u << 6) | (1u << 3) | (1u << 2) | (1u << 0),
		(1u << 11) | (1u << 10) | (1u << 9) | (1u << 8) | (1u << 7) | (1u << 4) | (1u << 3) | (1u << 1),
		(1u << 12) | (1u << 11) | (1u << 10) | (1u << 9) | (1u << 8) | (1u << 5) | (1u << 4) | (1u << 2),
	};
	static const uint32_t ipoly64[6] = {
		(1u << 18) | (1u << 17) | (1u << 16) | (1u << 15) | (1u << 12) | (1u << 10) | (1u << 6) | (1u << 5) | (1u << 0),
		(1u << 15) | (1u << 13) | (1u << 12) | (1u << 11) | (1u << 10) | (1u << 7) | (1u << 5) | (1u << 1) | (1u << 0),
		(1u << 16) | (1u << 14) | (1u << 13) | (1u << 12) | (1u << 11) | (1u << 8) | (1u << 6) | (1u << 2) | (1u << 1),
		(1u << 17) | (1u << 15) | (1u << 14) | (1u << 13) | (1u << 12) | (1u << 9) | (1u << 7) | (1u << 3) | (1u << 2),
		(1u << 18) | (1u << 16) | (1u << 15) | (1u << 14) | (1u << 13) | (1u << 10) | (1u << 8) | (1u << 4) | (1u << 3),
		(1u << 17) | (1u << 16) | (1u << 15) | (1u << 14) | (1u << 11) | (1u << 9) | (1u << 5) | (1u << 4),
	};
	const uint32_t *rows = nsets == 16 ? ipoly16 : nsets == 32 ? ipoly32 : ipoly64;
	unsigned bits = nsets == 16 ? 4 : nsets == 32 ? 5 : 6;
	uint32_t set = 0;

	for (unsigned j = 0; j < bits; j++)
		set |= (uint32_t)(((idx >> j) ^ __builtin_parityll(h & rows[j])) & 1) << j;
	return set;
}

/*
 * The functions of the table, all of one signature: `addr` is a byte
 * address, line_shift = log2(line bytes), set_shift = log2(nsets) when
 * nsets is a power of two.
 */
static inline uint32_t set_index_of_fib_double(uint64_t addr, unsigned line_shift,
					       uint32_t nsets, unsigned set_shift)
{
	return set_index_fib(addr >> line_shift, nsets);
}

static inline uint32_t set_index_of_linear(uint64_t addr, unsigned line_shift,
					   uint32_t nsets, unsigned set_shift)
{
	return (addr >> line_shift) & (nsets - 1);
}

static inline uint32_t set_index_of_xor(uint64_t addr, unsigned line_shift,
					uint32_t nsets, unsigned set_shift)
{
	uint64_t line = addr >> line_shift;

	return (line ^ (line >> set_shift)) & (nsets - 1);
}

static inline uint32_t set_index_of_ipoly(uint64_t addr, unsigned line_shift,
					  uint32_t nsets, unsigned set_shift)
{
	uint64_t line = addr >> line_shift;

	return set_index_ipoly_inline(line & (nsets - 1), line >> set_shift, nsets);
}

/* lines of 128 bytes: set bits from address bits 7..11, XORed with bits
 * 13..15, 17 and 19; with 64 sets, bit 12 is the top one */
static inline uint32_t set_index_of_fermi(uint64_t addr, unsigned line_shift,
					  uint32_t nsets, unsigned set_shift)
{
	uint32_t lower = (addr >> 7) & 0x1f;
	uint32_t upper = ((addr & 0xe000) >> 13) | ((addr & 0x20000) >> 14) |
			 ((addr & 0x80000) >> 15);
	uint32_t set = lower ^ upper;

	if (nsets == 64)
		set |= (addr & 0x1000) >> 7;
	return set;
}

/*
 * Nugteren et al.'s cache model's hash of line number a, for any set
 * count: its low five bits XOR a6 + 2 a7 + 4 a8 + 8 a10 + 16 a12, plus
 * 32 a5, modulo the sets.  For 32 and 64 sets of 128-byte lines it is
 * fermi's.
 */
static inline uint32_t set_index_of_nugteren(uint64_t addr, unsigned line_shift,
					     uint32_t nsets, unsigned set_shift)
{
	uint64_t a = addr >> line_shift;
	uint32_t lo = (uint32_t)(a & 0x1f);
	uint32_t hi = (uint32_t)(((a >> 6) & 1) | ((a >> 7) & 1) << 1 | ((a >> 8) & 1) << 2 |
				 ((a >> 10) & 1) << 3 | ((a >> 12) & 1) << 4);

	(void)set_shift;
	return ((lo ^ hi) + 32 * (uint32_t)((a >> 5) & 1)) % nsets;
}

/* The set of byte address `addr` under function `fn`. */
static inline uint32_t set_index(enum set_index_fn fn, uint64_t addr,
				 unsigned line_shift, uint32_t nsets,
				 unsigned set_shift)
{
	switch (fn) {
#define SET_INDEX_CASE(sel, name) \
	case SET_INDEX_##sel: \
		return set_index_of_##name(addr, line_shift, nsets, set_shift);
	SET_INDEX_FUNCTIONS(SET_INDEX_CASE)
#undef SET_INDEX_CASE
	default:
		return set_index_of_fib_double(addr, line_shift, nsets, set_shift);
	}
}

#ifdef __cplusplus
}
#endif

#endif
