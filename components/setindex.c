/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-index functions.  fib_double must be computed exactly as the reference
 * does it, in IEEE doubles: the project builds with -ffp-contract=off so the
 * multiply is never fused into something more precise.
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include "setindex.h"

uint32_t set_index_fib_double(uint64_t line, uint32_t nsets)
{
	double x = (double)line * 0.61803398875;
	/* = fmod(x, 1.0), which is exact, and so is x - trunc(x) for
	 * 0 <= x < 2^63: the fractional part always fits a double.  The
	 * truncating conversion is one instruction where fmod is a loop. */
	double f = x < 9223372036854775808.0 ? x - (double)(int64_t)x : fmod(x, 1.0);

	uint64_t v = (uint64_t)(f * (double)nsets);

	/* f * nsets can round up to nsets, which the reference's % nsets
	 * brings back to 0; v never exceeds nsets, so no division is needed */
	return v == nsets ? 0 : (uint32_t)v;
}

/* IPOLY(5), IPOLY(37), IPOLY(67) (Rau, ISCA'91): for set bit j, the bits
 * of h XORed into idx bit j, as GPGPU-Sim tabulates them. */
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

uint32_t set_index_ipoly(uint64_t idx, uint64_t h, uint32_t nsets)
{
	const uint32_t *rows = nsets == 16 ? ipoly16 : nsets == 32 ? ipoly32 : ipoly64;
	unsigned bits = nsets == 16 ? 4 : nsets == 32 ? 5 : 6;
	uint32_t set = 0;

	for (unsigned j = 0; j < bits; j++)
		set |= (uint32_t)(((idx >> j) ^ __builtin_parityll(h & rows[j])) & 1) << j;
	return set;
}

const char *set_index_check(enum set_index_fn fn, uint32_t nsets,
			    uint32_t line_bytes)
{
	bool pow2 = nsets && !(nsets & (nsets - 1));

	switch (fn) {
	case SET_INDEX_FIB_DOUBLE:
		return nsets ? NULL : "needs at least one set";
	case SET_INDEX_LINEAR:
	case SET_INDEX_XOR:
		return pow2 ? NULL : "needs a power-of-two number of sets (fib_double takes any count)";
	case SET_INDEX_IPOLY:
		return nsets == 16 || nsets == 32 || nsets == 64 ? NULL
			: "needs 16, 32 or 64 sets";
	case SET_INDEX_FERMI:
		if (line_bytes != 128)
			return "needs 128-byte lines";
		return nsets == 32 || nsets == 64 ? NULL : "needs 32 or 64 sets";
	}
	return "unknown index function";
}
