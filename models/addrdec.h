/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPGPU-Sim's address decoding (addrdec.cc) as far as the L2 needs it:
 * which slice (sub-partition) an address belongs to, that slice's DRAM
 * channel, and the partition address the slice's set index hashes: the
 * address within its channel with the sub-partition bit(s) squeezed out,
 * while the tag stays the original line number.  Both paths of the
 * original: a channel count that is not a power of two (TITAN V 24,
 * A100 40: the bits above chip_shift are divided by the channel count)
 * and a power-of-two one (the channel bits are inserted at chip_shift).  Everything that depends only on the
 * configuration is worked out once, so a lookup, which every L2 access
 * makes, is a few shifts, masks and multiplies.
 */
#ifndef SS_ADDRDEC_H
#define SS_ADDRDEC_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <sectorsim/protocols/mem.h>
#include "setindex.h"

#ifdef __cplusplus
extern "C" {
#endif

enum addrdec_indexing {
	ADDRDEC_CONSECUTIVE,	/* channel * n_sub + bank bits (-gpgpu_memory_partition_indexing 0) */
	ADDRDEC_IPOLY,		/* that, hashed with IPOLY (2) */
};

struct addrdec_config {
	uint32_t n_channels;	/* -gpgpu_n_mem */
	uint32_t n_sub;		/* -gpgpu_n_sub_partition_per_mchannel */
	unsigned chip_shift;	/* S of dramid@S */
	uint64_t bank_mask;	/* the B bits of the address map, as written */
	enum addrdec_indexing indexing;
};

/*
 * A bit gather (x86 pext) for one fixed mask, as the runs of consecutive
 * ones of the mask: each run is one shift and one and.  The masks at hand
 * (all but one or two bits) have one to three runs.
 */
struct addrdec_pext {
	unsigned n_runs;
	struct {
		uint64_t mask;	/* the run's bits at their place in the result */
		unsigned shift;	/* how far down the run moves */
	} run[32];
};

struct addrdec {
	struct addrdec_config cfg;
	uint32_t n_slices;	/* n_channels * n_sub */
	bool pow2;		/* power-of-two channel count: the other path */
	unsigned hi_shift;	/* power-of-two path: the hash's high bits start here */
	uint32_t hash_sets;	/* ipoly: next_pow2(n_channels) * n_sub */
	uint64_t low_mask;	/* the bits below chip_shift */
	uint64_t spm;		/* the sub-partition bit(s) (GPGPU-Sim's sub_partition_id_mask) */
	uint64_t chip_mask;	/* power-of-two path: the channel bits */
	uint64_t div_hi, div_lo;	/* ceil(2^128 / n_channels), for the division */
	unsigned sub_shift;	/* log2(n_sub) */
	/*
	 * ipoly: set_index_ipoly_tables() of hash_sets, what the hash XORs
	 * into the slice for each 7-bit piece of the high bits.  The hash is
	 * linear, so three lookups replace a parity per slice bit.  A copy
	 * beside the decoder's other fields: reading the shared tables made
	 * titanv.ini 7 % slower on two threads (alternating pairs).
	 */
	uint8_t ipoly_xor[3][128];
	struct addrdec_pext sub_bits;	/* gathers the spm bits */
	struct addrdec_pext part_bits;	/* gathers everything but spm (and the channel) */
};

/* Where an address goes. */
struct addrdec_result {
	uint32_t slice;		/* GPGPU-Sim's sub-partition id */
	uint32_t channel;	/* slice / n_sub */
	uint64_t part_addr;	/* the address inside the slice, for its set index */
};

/* false with *why (one line naming the parameter; free with g_free) when
 * the configuration does not describe a decoder. */
bool addrdec_init(struct addrdec *d, const struct addrdec_config *cfg,
		  char **why);

/* The plan of a gather; pext(x, 0) is 0. */
void addrdec_pext_plan(struct addrdec_pext *p, uint64_t mask);

static inline uint64_t addrdec_pext(const struct addrdec_pext *p, uint64_t x)
{
	uint64_t v;

	/* the usual masks, without a loop (a missing second run has mask 0) */
	v = ((x >> p->run[0].shift) & p->run[0].mask) |
	    ((x >> p->run[1].shift) & p->run[1].mask);
	if (G_UNLIKELY(p->n_runs > 2))
		for (unsigned i = 2; i < p->n_runs; i++)
			v |= (x >> p->run[i].shift) & p->run[i].mask;
	return v;
}

/* x / n_channels, exact for every 64-bit x (Lemire, Kaser and Kurz,
 * "Faster remainder by direct computation", 2019: with a 128-bit
 * reciprocal rounded up, floor(x * c / 2^128) is the quotient). */
static inline uint64_t addrdec_div(const struct addrdec *d, uint64_t x)
{
	unsigned __int128 lo = (unsigned __int128)x * d->div_lo;
	unsigned __int128 hi = (unsigned __int128)x * d->div_hi;

	return (uint64_t)((hi + (lo >> 64)) >> 64);
}

static inline void addrdec_map(const struct addrdec *d, uint64_t addr,
			       struct addrdec_result *out)
{
	unsigned s = d->cfg.chip_shift;
	uint64_t hi, chip, rest;
	uint32_t sub;

	if (d->pow2) {
		/* the channel's bits sit at chip_shift; the bank bits above
		 * them were moved up to make room (addrdec_init) */
		chip = (addr & d->chip_mask) >> s;
		hi = addr >> d->hi_shift;
		rest = addr;
	} else {
		/* the bits above S split into channel (remainder) and the
		 * address inside the channel (quotient): no bit is lost */
		uint64_t above = addr >> s;

		hi = addrdec_div(d, above);
		chip = above - hi * d->cfg.n_channels;
		rest = (hi << s) | (addr & d->low_mask);
	}
	sub = (uint32_t)chip * d->cfg.n_sub + (uint32_t)addrdec_pext(&d->sub_bits, rest);
	if (d->cfg.indexing == ADDRDEC_IPOLY) {
		sub ^= set_index_ipoly_xor(d->ipoly_xor, hi);
		/* hashed over next_pow2(channels) x n_sub < 2 x slices, the
		 * modulo of the non-power-of-two path is one subtraction */
		if (sub >= d->n_slices)
			sub -= d->n_slices;
	}
	out->slice = sub;
	out->channel = sub >> d->sub_shift;
	out->part_addr = addrdec_pext(&d->part_bits, rest);
}

/* ---- which slice a request goes to: shared by l2_slice_set and slice_router */

enum slice_mapping {
	SLICE_MAP_SINGLE,	/* one slice */
	SLICE_MAP_LINE,		/* line number modulo slices */
	SLICE_MAP_GPGPUSIM,	/* addrdec, with the partition address */
};

struct slice_map {
	enum slice_mapping mapping;
	uint32_t n_slices;
	unsigned line_shift;	/* SLICE_MAP_LINE */
	struct addrdec dec;	/* SLICE_MAP_GPGPUSIM */
};

/*
 * The slice of request r, and the partition address its slice's set index
 * takes (index_on = partition): addrdec's with gpgpusim, the request's own
 * otherwise.
 */
static inline uint32_t slice_map_route(const struct slice_map *m,
				       const struct mem_req *r,
				       uint64_t *part_addr)
{
	struct addrdec_result where;

	switch (m->mapping) {
	case SLICE_MAP_GPGPUSIM:
		addrdec_map(&m->dec, r->addr, &where);
		*part_addr = where.part_addr;
		return where.slice;
	case SLICE_MAP_LINE:
		*part_addr = r->part_addr;
		return (r->addr >> m->line_shift) % m->n_slices;
	case SLICE_MAP_SINGLE:
	default:
		*part_addr = r->part_addr;
		return 0;
	}
}

#ifdef __cplusplus
}
#endif

#endif
