/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The table of set-index functions (setindex.h), the functions the
 * address decoder and the tests call out of line, and the ipoly tables.
 */
#include "config.h"

#include <stddef.h>
#include <glib.h>
#include "setindex.h"

uint32_t set_index_fib_double(uint64_t line, uint32_t nsets)
{
	return set_index_fib(line, nsets);
}

uint32_t set_index_ipoly(uint64_t idx, uint64_t h, uint32_t nsets)
{
	return set_index_ipoly_inline(idx, h, nsets);
}

const uint8_t (*set_index_ipoly_tables(uint32_t nsets))[128]
{
	static uint8_t tables[3][3][128];	/* 16, 32, 64 sets */
	static gsize made[3];			/* g_once: 1 + whether usable */
	unsigned i = nsets == 16 ? 0 : nsets == 32 ? 1 : 2;

	/* the sizes the hash has rows for (ipoly_sets refuses others) */
	if (nsets != 16 && nsets != 32 && nsets != 64)
		return NULL;
	if (g_once_init_enter(&made[i])) {
		gsize usable = 2;

		for (unsigned b = 21; b < 64; b++)
			if (set_index_ipoly(0, UINT64_C(1) << b, nsets))
				usable = 1;
		for (unsigned k = 0; k < 3; k++)
			for (unsigned v = 0; v < 128; v++)
				tables[i][k][v] = (uint8_t)set_index_ipoly(0, (uint64_t)v << (7 * k),
									   nsets);
		g_once_init_leave(&made[i], usable);
	}
	return made[i] == 2 ? (const uint8_t (*)[128])tables[i] : NULL;
}

/* ---- the geometries each function takes ---------------------------------- */

static const char *any_sets(uint32_t nsets, uint32_t line_bytes)
{
	return nsets ? NULL : "needs at least one set";
}

/* a mask of the line number: a power of two */
static const char *pow2_sets(uint32_t nsets, uint32_t line_bytes)
{
	return nsets && !(nsets & (nsets - 1)) ? NULL
		: "needs a power-of-two number of sets (fib_double takes any count)";
}

/* the polynomials are tabulated for 4, 5 and 6 set bits */
static const char *ipoly_sets(uint32_t nsets, uint32_t line_bytes)
{
	return nsets == 16 || nsets == 32 || nsets == 64 ? NULL
		: "needs 16, 32 or 64 sets";
}

/* fixed address bits: 7..11 (12 with 64 sets) are the line's */
static const char *fermi_sets(uint32_t nsets, uint32_t line_bytes)
{
	if (line_bytes != 128)
		return "needs 128-byte lines";
	return nsets == 32 || nsets == 64 ? NULL : "needs 32 or 64 sets";
}

/* ---- the table ---------------------------------------------------------- */

const struct set_index_desc set_index_fns[SET_INDEX_N] = {
	[SET_INDEX_FIB_DOUBLE] = { "fib_double", "the reference's float hash", any_sets },
	[SET_INDEX_LINEAR] = { "linear", NULL, pow2_sets },
	[SET_INDEX_XOR] = { "xor", NULL, pow2_sets },
	[SET_INDEX_IPOLY] = { "ipoly", "16/32/64 sets", ipoly_sets },
	[SET_INDEX_FERMI] = { "fermi", NULL, fermi_sets },
	[SET_INDEX_NUGTEREN] = { "nugteren", "Nugteren et al.'s model's hash, any set count", any_sets },
};

const char *set_index_check(enum set_index_fn fn, uint32_t nsets,
			    uint32_t line_bytes)
{
	if ((unsigned)fn >= SET_INDEX_N || !set_index_fns[fn].check)
		return "unknown index function";
	return set_index_fns[fn].check(nsets, line_bytes);
}
