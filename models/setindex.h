/* SPDX-License-Identifier: BSD-3-Clause */
/* Set-index functions of a sector cache (model.md 7.3, gpus.md 4-5). */
#ifndef SS_SETINDEX_H
#define SS_SETINDEX_H

#include <stdbool.h>
#include <stdint.h>

enum set_index_fn {
	SET_INDEX_FIB_DOUBLE,	/* the reference's float Fibonacci hash, any set count */
	SET_INDEX_LINEAR,	/* line mod sets */
	SET_INDEX_XOR,		/* GPGPU-Sim X */
	SET_INDEX_IPOLY,	/* GPGPU-Sim P: 16, 32 or 64 sets */
	SET_INDEX_FERMI,	/* GPGPU-Sim H: 32 or 64 sets, 128 B lines */
};

/* Why `nsets` does not suit `fn` (NULL when it does). */
const char *set_index_check(enum set_index_fn fn, uint32_t nsets,
			    uint32_t line_bytes);

uint32_t set_index_fib_double(uint64_t line, uint32_t nsets);
uint32_t set_index_ipoly(uint64_t idx, uint64_t h, uint32_t nsets);

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

/* `addr` is a byte address; line_shift = log2(line bytes). */
static inline uint32_t set_index(enum set_index_fn fn, uint64_t addr,
				 unsigned line_shift, uint32_t nsets,
				 unsigned set_shift)
{
	uint64_t line = addr >> line_shift;

	switch (fn) {
	case SET_INDEX_LINEAR:
		return line & (nsets - 1);
	case SET_INDEX_XOR:
		return (line ^ (line >> set_shift)) & (nsets - 1);
	case SET_INDEX_IPOLY:
		return set_index_ipoly_inline(line & (nsets - 1), line >> set_shift,
					      nsets);
	case SET_INDEX_FERMI: {
		uint32_t lower = (addr >> 7) & 0x1f;
		uint32_t upper = ((addr & 0xe000) >> 13) | ((addr & 0x20000) >> 14) |
				 ((addr & 0x80000) >> 15);
		uint32_t set = lower ^ upper;

		if (nsets == 64)
			set |= (addr & 0x1000) >> 7;
		return set;
	}
	case SET_INDEX_FIB_DOUBLE:
	default:
		return set_index_fib(line, nsets);
	}
}

#endif
