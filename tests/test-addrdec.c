/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPGPU-Sim's address decoding (models/addrdec.h) against test vectors
 * taken from GPGPU-Sim's own code for both GPUs, the slice's set on the
 * partition address, the power-of-two channel path, the gather and the
 * division it is built on, and the configurations it refuses.
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include <sectorsim/sectorsim.h>
#include "addrdec.h"
#include "setindex.h"

static const struct addrdec_config titanv = {
	.n_channels = 24, .n_sub = 2, .chip_shift = 8, .bank_mask = 0x7100,
	.indexing = ADDRDEC_IPOLY,
};

static const struct addrdec_config a100 = {
	.n_channels = 40, .n_sub = 4, .chip_shift = 8, .bank_mask = 0x7080,
	.indexing = ADDRDEC_CONSECUTIVE,
};

struct vector {
	uint64_t addr;
	uint32_t slice, channel;
	uint64_t part_addr;
	uint32_t set;
};

static void check_rows(const struct addrdec_config *cfg,
		       const struct vector *rows, size_t n,
		       enum set_index_fn fn, uint32_t nsets)
{
	struct addrdec d;
	char *why = NULL;

	g_assert_true(addrdec_init(&d, cfg, &why));
	g_assert_null(why);
	for (size_t i = 0; i < n; i++) {
		struct addrdec_result r;
		/* the set of the request's sector (the last row is not aligned) */
		uint64_t sector_pa;
		uint32_t set;

		addrdec_map(&d, rows[i].addr, &r);
		sector_pa = r.part_addr & ~UINT64_C(31);
		set = set_index(fn, sector_pa, 7, nsets, __builtin_ctz(nsets));
		if (r.slice != rows[i].slice || r.channel != rows[i].channel ||
		    r.part_addr != rows[i].part_addr || set != rows[i].set)
			g_error("%#" G_GINT64_MODIFIER "x: slice %u channel %u part_addr %#"
				G_GINT64_MODIFIER "x set %u; want %u %u %#" G_GINT64_MODIFIER "x %u",
				rows[i].addr, r.slice, r.channel, r.part_addr, set,
				rows[i].slice, rows[i].channel, rows[i].part_addr, rows[i].set);
	}
}

/* TITAN V (GPGPU-Sim's vectors): IPOLY64 over 48 slices, IPOLY32 sets. */
static void test_titanv_vectors(void)
{
	static const struct vector rows[] = {
		{ 0x0, 0, 0, 0x0, 0 },
		{ 0x80, 0, 0, 0x80, 1 },
		{ 0x100, 2, 1, 0x0, 0 },
		{ 0x1000, 32, 16, 0x0, 0 },
		{ 0x12345680, 18, 9, 0x611780, 18 },
		{ 0x7fd165500000, 1, 0, 0x2a9b21c5500, 13 },
		{ 0x7fd165500080, 1, 0, 0x2a9b21c5580, 12 },
		{ 0x7fd165500100, 3, 1, 0x2a9b21c5500, 13 },
		{ 0x7fd165500200, 5, 2, 0x2a9b21c5500, 13 },
		{ 0x7f6233c00600, 29, 14, 0x2a761140000, 8 },
		{ 0x7fb0fc430e00, 37, 18, 0x2a905416500, 4 },
		{ 0x7f1269c00108, 15, 7, 0x2a5b7895508, 2 },
	};

	check_rows(&titanv, rows, G_N_ELEMENTS(rows), SET_INDEX_IPOLY, 32);
}

/* A100 (GPGPU-Sim's vectors): consecutive over 160 slices, XOR 128 sets. */
static void test_a100_vectors(void)
{
	static const struct vector rows[] = {
		{ 0x0, 0, 0, 0x0, 0 },
		{ 0x80, 1, 0, 0x0, 0 },
		{ 0x100, 4, 1, 0x0, 0 },
		{ 0x1000, 64, 16, 0x0, 0 },
		{ 0x12345680, 25, 6, 0x1d2100, 54 },
		{ 0x7fd165500000, 128, 32, 0xcc823bb600, 2 },
		{ 0x7fd165500080, 129, 32, 0xcc823bb600, 2 },
		{ 0x7fd165500100, 132, 33, 0xcc823bb600, 2 },
		{ 0x7fd165500200, 136, 34, 0xcc823bb600, 2 },
		{ 0x7f6233c00600, 58, 14, 0xcbd052c980, 88 },
		{ 0x7fb0fc430e00, 24, 6, 0xcc4e606e80, 92 },
		{ 0x7f1269c00108, 132, 33, 0xcb50a93608, 72 },
	};

	check_rows(&a100, rows, G_N_ELEMENTS(rows), SET_INDEX_XOR, 128);
}

/* GPGPU-Sim's decoding for a channel count that is not a power of two,
 * written out the slow way, bit by bit: the bits above bit 8 divided by the
 * channel count, the bank bits gathered into the slice, the sub-partition
 * bit(s) squeezed out of the partition address. */
static uint64_t pext_slow(uint64_t x, uint64_t m)
{
	uint64_t v = 0;
	unsigned k = 0;

	for (unsigned b = 0; b < 64; b++)
		if (m >> b & 1)
			v |= (x >> b & 1) << k++;
	return v;
}

static void map_slow(const struct addrdec_config *c, uint64_t a,
		     struct addrdec_result *out)
{
	unsigned s = c->chip_shift, sub_bits = __builtin_ctz(c->n_sub);
	uint32_t n = c->n_channels, np2 = 1;
	uint64_t hi, chip, rest, spm = 0, bank = c->bank_mask, chip_mask = 0;
	uint32_t sub;

	while (np2 < n)
		np2 *= 2;
	if (np2 == n) {
		unsigned cb = __builtin_ctz(n);
		uint64_t low = (UINT64_C(1) << s) - 1;

		bank = (bank & low) | ((bank & ~low) << cb);
		chip_mask = (uint64_t)(n - 1) << s;
	}
	for (unsigned b = 0, k = 0; b < 64 && k < sub_bits; b++)
		if (bank >> b & 1) {
			spm |= UINT64_C(1) << b;
			k++;
		}
	if (np2 == n) {
		chip = pext_slow(a, chip_mask);
		hi = a >> (s + __builtin_ctz(n) + sub_bits);
		rest = a;
	} else {
		hi = (a >> s) / n;
		chip = (a >> s) % n;
		rest = (hi << s) | (a & ((UINT64_C(1) << s) - 1));
	}
	sub = chip * c->n_sub + (pext_slow(rest, bank) & (c->n_sub - 1));
	if (c->indexing == ADDRDEC_IPOLY)
		sub = set_index_ipoly(sub, hi, np2 * c->n_sub) % (n * c->n_sub);
	out->slice = sub;
	out->channel = sub / c->n_sub;
	out->part_addr = pext_slow(rest, ~(spm | chip_mask));
}

/* Random addresses: the precomputed decoder equals the plain algorithm,
 * for both GPUs and for power-of-two channel counts. */
static void test_against_slow(void)
{
	static const struct addrdec_config cfgs[] = {
		{ 24, 2, 8, 0x7100, ADDRDEC_IPOLY },
		{ 40, 4, 8, 0x7080, ADDRDEC_CONSECUTIVE },
		/* QV100: 32 channels, the bank bits move up by 5 */
		{ 32, 2, 8, 0x7100, ADDRDEC_IPOLY },
		{ 32, 2, 8, 0x7100, ADDRDEC_CONSECUTIVE },
		{ 8, 4, 8, 0x7080, ADDRDEC_CONSECUTIVE },
		{ 12, 4, 10, 0x30c00, ADDRDEC_CONSECUTIVE },
		{ 3, 1, 0, 0, ADDRDEC_CONSECUTIVE },
		{ 1, 1, 8, 0, ADDRDEC_CONSECUTIVE },
	};
	GRand *rng = g_rand_new_with_seed(5);

	for (size_t k = 0; k < G_N_ELEMENTS(cfgs); k++) {
		struct addrdec d;

		g_assert_true(addrdec_init(&d, &cfgs[k], NULL));
		for (int i = 0; i < 20000; i++) {
			uint64_t a = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);
			struct addrdec_result fast, slow;

			if (i & 1)
				a &= UINT64_C(0xffffffffffff);	/* device-like */
			addrdec_map(&d, a, &fast);
			map_slow(&cfgs[k], a, &slow);
			if (fast.slice != slow.slice || fast.channel != slow.channel ||
			    fast.part_addr != slow.part_addr)
				g_error("config %zu, %#" G_GINT64_MODIFIER "x: %u %u %#"
					G_GINT64_MODIFIER "x, want %u %u %#" G_GINT64_MODIFIER "x",
					k, a, fast.slice, fast.channel, fast.part_addr,
					slow.slice, slow.channel, slow.part_addr);
			g_assert_cmpuint(fast.slice, <, d.n_slices);
		}
	}
	g_rand_free(rng);
}

/* The power-of-two path by hand: 4 channels x 2 at bit 8, bank bits
 * 12 and 9 (9 moves up to 11): slice = 2 x bits 9..8 + bit 11. */
static void test_pow2_by_hand(void)
{
	struct addrdec_config c = { 4, 2, 8, 0x1200, ADDRDEC_CONSECUTIVE };
	struct addrdec d;
	struct addrdec_result r;

	g_assert_true(addrdec_init(&d, &c, NULL));
	g_assert_cmphex(d.spm, ==, 0x800);
	g_assert_cmphex(d.chip_mask, ==, 0x300);
	addrdec_map(&d, 0x300, &r);
	g_assert_cmpuint(r.slice, ==, 6);
	g_assert_cmpuint(r.channel, ==, 3);
	g_assert_cmphex(r.part_addr, ==, 0x0);
	addrdec_map(&d, 0x1880, &r);	/* bits 12, 11, 7 */
	g_assert_cmpuint(r.slice, ==, 1);
	g_assert_cmpuint(r.channel, ==, 0);
	g_assert_cmphex(r.part_addr, ==, 0x280);	/* bit 12 -> 9, bit 7 stays */
}

static void test_pext(void)
{
	static const uint64_t masks[] = {
		0, 1, UINT64_MAX, ~UINT64_C(0x100), ~UINT64_C(0x1080), 0x7100,
		UINT64_C(0x8000000000000001), UINT64_C(0xaaaaaaaaaaaaaaaa),
		UINT64_C(0xf0f0f0f0f0f0f0f0), ~UINT64_C(0x1f00 | 0x2000),
	};
	GRand *rng = g_rand_new_with_seed(11);

	for (size_t k = 0; k < G_N_ELEMENTS(masks); k++) {
		struct addrdec_pext p;

		addrdec_pext_plan(&p, masks[k]);
		for (int i = 0; i < 2000; i++) {
			uint64_t x = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);

			g_assert_cmphex(addrdec_pext(&p, x), ==, pext_slow(x, masks[k]));
		}
	}
	g_rand_free(rng);
}

/* The division by a reciprocal is exact up to 2^64 - 1. */
static void test_division(void)
{
	static const uint32_t divisors[] = { 3, 5, 7, 24, 40, 641, 4095 };
	GRand *rng = g_rand_new_with_seed(3);

	for (size_t k = 0; k < G_N_ELEMENTS(divisors); k++) {
		struct addrdec_config c = { divisors[k], 1, 0, 0, ADDRDEC_CONSECUTIVE };
		struct addrdec d;
		static const uint64_t edges[] = {
			0, 1, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63,
			(UINT64_C(1) << 63) - 1,
		};

		g_assert_true(addrdec_init(&d, &c, NULL));
		for (size_t e = 0; e < G_N_ELEMENTS(edges); e++)
			g_assert_cmpuint(addrdec_div(&d, edges[e]), ==, edges[e] / divisors[k]);
		for (uint64_t m = 1; m < 50; m++) {
			/* around the multiples, where a rounding error shows */
			uint64_t x = UINT64_MAX / divisors[k] / m * divisors[k];

			g_assert_cmpuint(addrdec_div(&d, x), ==, x / divisors[k]);
			g_assert_cmpuint(addrdec_div(&d, x - 1), ==, (x - 1) / divisors[k]);
		}
		for (int i = 0; i < 20000; i++) {
			uint64_t x = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);

			g_assert_cmpuint(addrdec_div(&d, x), ==, x / divisors[k]);
		}
	}
	g_rand_free(rng);
}

static void expect_error(struct addrdec_config c, const char *needle)
{
	struct addrdec d;
	char *why = NULL;

	g_assert_false(addrdec_init(&d, &c, &why));
	g_assert_nonnull(why);
	if (!strstr(why, needle))
		g_error("'%s' does not mention '%s'", why, needle);
	g_assert_null(strchr(why, '\n'));
	g_free(why);
}

static void test_errors(void)
{
	expect_error((struct addrdec_config){ 24, 3, 8, 0x7100, 0 }, "n_sub = 3");
	expect_error((struct addrdec_config){ 24, 0, 8, 0x7100, 0 }, "n_sub = 0");
	expect_error((struct addrdec_config){ 0, 2, 8, 0x7100, 0 }, "n_channels = 0");
	/* two slice bits wanted, one bank bit given */
	expect_error((struct addrdec_config){ 40, 4, 8, 0x100, 0 }, "bank_mask = 0x100");
	expect_error((struct addrdec_config){ 24, 2, 8, 0, 0 }, "bank_mask");
	/* A100 with IPOLY: 64 x 4 = 256 hashed sub-partitions */
	expect_error((struct addrdec_config){ 40, 4, 8, 0x7080, ADDRDEC_IPOLY }, "subpart_indexing = ipoly");
	expect_error((struct addrdec_config){ 2, 2, 8, 0x100, ADDRDEC_IPOLY }, "16, 32 or 64");
	expect_error((struct addrdec_config){ 24, 2, 60, 0x7100, 0 }, "chip_shift = 60");
	/* power of two: the top bank bit would move out of the address */
	expect_error((struct addrdec_config){ 32, 2, 8, UINT64_C(1) << 62, 0 }, "bank_mask");
	/* n_sub = 1 needs no bank bit */
	struct addrdec d;
	struct addrdec_config ok = { 24, 1, 8, 0, ADDRDEC_CONSECUTIVE };

	g_assert_true(addrdec_init(&d, &ok, NULL));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/addrdec/titanv-vectors", test_titanv_vectors);
	g_test_add_func("/addrdec/a100-vectors", test_a100_vectors);
	g_test_add_func("/addrdec/against-slow", test_against_slow);
	g_test_add_func("/addrdec/pow2-by-hand", test_pow2_by_hand);
	g_test_add_func("/addrdec/pext", test_pext);
	g_test_add_func("/addrdec/division", test_division);
	g_test_add_func("/addrdec/errors", test_errors);
	return g_test_run();
}
