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
		return set_index_ipoly(line & (nsets - 1), line >> set_shift, nsets);
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
		return set_index_fib_double(line, nsets);
	}
}

#endif
