/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Set-index functions, out of line; they are inline in setindex.h.
 */
#include "config.h"

#include <stddef.h>
#include "setindex.h"

uint32_t set_index_fib_double(uint64_t line, uint32_t nsets)
{
	return set_index_fib(line, nsets);
}

uint32_t set_index_ipoly(uint64_t idx, uint64_t h, uint32_t nsets)
{
	return set_index_ipoly_inline(idx, h, nsets);
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
