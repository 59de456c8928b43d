/* SPDX-License-Identifier: BSD-3-Clause */
/* GPGPU-Sim's address → slice decoding (addrdec.h): the set-up. */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include "addrdec.h"

void addrdec_pext_plan(struct addrdec_pext *p, uint64_t mask)
{
	unsigned pos = 0;	/* where the next run lands in the result */

	/* the runs not used gather nothing (addrdec_pext reads two) */
	memset(p, 0, sizeof(*p));
	while (mask) {
		unsigned lo = __builtin_ctzll(mask);
		uint64_t from_lo = mask >> lo;
		/* the run's length: its ones up to the next zero */
		unsigned len = ~from_lo ? (unsigned)__builtin_ctzll(~from_lo) : 64 - lo;
		uint64_t ones = len == 64 ? UINT64_MAX : (UINT64_C(1) << len) - 1;

		p->run[p->n_runs].shift = lo - pos;
		p->run[p->n_runs].mask = ones << pos;
		p->n_runs++;
		pos += len;
		mask = lo + len == 64 ? 0 : mask & ~(ones << lo);
	}
}

/* The lowest `n` set bits of `mask`. */
static uint64_t lowest_bits(uint64_t mask, unsigned n)
{
	uint64_t out = 0;

	for (unsigned i = 0; i < n && mask; i++) {
		uint64_t bit = mask & -mask;

		out |= bit;
		mask &= ~bit;
	}
	return out;
}

static unsigned log2_ceil(uint32_t n)
{
	return n <= 1 ? 0 : 32 - __builtin_clz(n - 1);
}

static bool fail(char **why, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static bool fail(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (why)
		*why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return false;
}

bool addrdec_init(struct addrdec *d, const struct addrdec_config *cfg,
		  char **why)
{
	uint32_t n = cfg->n_channels;
	unsigned chip_bits = log2_ceil(n), sub_bits;
	uint64_t bank = cfg->bank_mask;

	*d = (struct addrdec){ .cfg = *cfg };
	if (n == 0 || n > 4096)
		return fail(why, "n_channels = %u: expected 1 to 4096", n);
	if (cfg->n_sub == 0 || cfg->n_sub > 64 || (cfg->n_sub & (cfg->n_sub - 1)))
		return fail(why, "n_sub = %u: expected a power of two from 1 to 64",
			    cfg->n_sub);
	sub_bits = __builtin_ctz(cfg->n_sub);
	d->sub_shift = sub_bits;
	if (cfg->chip_shift + chip_bits + sub_bits >= 64)
		return fail(why, "chip_shift = %u: expected at most %u, so that the channel and slice bits of %u x %u slices fit in an address",
			    cfg->chip_shift, 63 - chip_bits - sub_bits, n, cfg->n_sub);
	d->n_slices = n * cfg->n_sub;
	d->pow2 = !(n & (n - 1));
	d->low_mask = (UINT64_C(1) << cfg->chip_shift) - 1;
	if (d->pow2 && chip_bits) {
		/* GPGPU-Sim inserts the channel bits at chip_shift: the mask
		 * bits from there up move above them */
		uint64_t above = bank & ~d->low_mask;

		bank = (bank & d->low_mask) | (above << chip_bits);
		if (__builtin_popcountll(above << chip_bits) != __builtin_popcountll(above))
			return fail(why, "bank_mask = %#" G_GINT64_MODIFIER "x: its top bits leave the address once %u channel bits are inserted at bit %u",
				    cfg->bank_mask, chip_bits, cfg->chip_shift);
		d->chip_mask = (uint64_t)(n - 1) << cfg->chip_shift;
	}
	if ((unsigned)__builtin_popcountll(bank) < sub_bits)
		return fail(why, "bank_mask = %#" G_GINT64_MODIFIER "x: has %d bits set; n_sub = %u takes its lowest %u as the slice bits",
			    cfg->bank_mask, __builtin_popcountll(bank), cfg->n_sub, sub_bits);
	d->spm = lowest_bits(bank, sub_bits);
	d->hi_shift = cfg->chip_shift + chip_bits + sub_bits;
	if (cfg->indexing == ADDRDEC_IPOLY) {
		/* the hash covers the next power of two of channels; the
		 * non-power-of-two path then folds it back with a modulo */
		d->hash_sets = (UINT32_C(1) << chip_bits) * cfg->n_sub;
		if (set_index_check(SET_INDEX_IPOLY, d->hash_sets, 128))
			return fail(why, "subpart_indexing = ipoly: hashes next_pow2(n_channels) x n_sub = %u x %u = %u sub-partitions; expected 16, 32 or 64",
				    1u << chip_bits, cfg->n_sub, d->hash_sets);
		const uint8_t (*t)[128] = set_index_ipoly_tables(d->hash_sets);

		if (!t)
			return fail(why, "subpart_indexing = ipoly: no hash tables for %u sub-partitions",
				    d->hash_sets);
		memcpy(d->ipoly_xor, t, sizeof(d->ipoly_xor));
	}
	if (!d->pow2) {
		/* ceil(2^128 / n) = floor((2^128 - 1) / n) + 1 when n is no
		 * power of two */
		unsigned __int128 c = ~(unsigned __int128)0 / n + 1;

		d->div_hi = (uint64_t)(c >> 64);
		d->div_lo = (uint64_t)c;
	}
	addrdec_pext_plan(&d->sub_bits, d->spm);
	addrdec_pext_plan(&d->part_bits, ~(d->spm | d->chip_mask));
	return true;
}
