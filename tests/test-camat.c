/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * models/camat.c: the two worked examples of C-AMAT (PC-AMAT and SC-AMAT),
 * every count exact and every ratio as a fraction; then random timelines,
 * streamed in order and computed in any order, against a plain count
 * cycle by cycle, with the identity camat x accesses = active cycles.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib.h>
#include "camat.h"

/* num / den, as a ratio of counts must be, exactly (cross-multiplied) */
#define assert_frac(x, num, den) \
	g_assert_cmpfloat_with_epsilon((x), (double)(num) / (double)(den), 1e-12)

struct row {
	uint64_t start, hit, miss;
};

static void counts_of(const struct row *r, size_t n, struct camat_counts *c)
{
	uint64_t *s = g_new(uint64_t, n), *h = g_new(uint64_t, n), *m = g_new(uint64_t, n);
	struct camat *a = camat_new();
	struct camat_counts streamed;

	for (size_t i = 0; i < n; i++) {
		s[i] = r[i].start;
		h[i] = r[i].hit;
		m[i] = r[i].miss;
	}
	camat_compute(s, h, m, n, c);
	/* in order, the stream gives the same */
	for (size_t i = 0; i < n; i++)
		g_assert_true(camat_add(a, s[i], h[i], m[i]));
	camat_counts(a, &streamed);
	g_assert_cmpmem(&streamed, sizeof(streamed), c, sizeof(*c));
	camat_free(a);
	g_free(s);
	g_free(h);
	g_free(m);
}

/* Tag 2, data 3, looked up in parallel: every hit phase 3 cycles. */
static void test_pc_example(void)
{
	static const struct row r[] = {
		{ 1, 3, 0 }, { 2, 3, 0 }, { 3, 3, 4 }, { 4, 3, 1 }, { 5, 3, 0 },
	};
	struct camat_counts c;
	struct camat_ratios q;

	counts_of(r, G_N_ELEMENTS(r), &c);
	g_assert_cmpuint(c.accesses, ==, 5);
	g_assert_cmpuint(c.hits, ==, 3);
	g_assert_cmpuint(c.misses, ==, 2);
	g_assert_cmpuint(c.overlap_hit_time, ==, 7);
	g_assert_cmpuint(c.pure_misses, ==, 1);
	g_assert_cmpuint(c.pure_miss_time, ==, 2);
	g_assert_cmpuint(c.pure_miss_overlap_time, ==, 2);
	g_assert_cmpuint(c.active_cycles, ==, 9);
	camat_ratios(&c, &q);
	assert_frac(q.C_h, 15, 7);
	assert_frac(q.pMR, 1, 5);
	assert_frac(q.pAMP, 2, 1);
	assert_frac(q.C_m, 1, 1);
	assert_frac(q.mean_hit_time, 3, 1);
	assert_frac(q.camat, 9, 5);
	assert_frac(q.amat, 15 + 5, 5);
}

/* Tag 3, data 3, in series: a hit's phase 6 cycles, a miss's 3. */
static void test_sc_example(void)
{
	static const struct row r[] = {
		{ 1, 6, 0 }, { 2, 6, 0 }, { 2, 3, 8 }, { 4, 3, 5 }, { 4, 6, 0 },
	};
	struct camat_counts c;
	struct camat_ratios q;

	counts_of(r, G_N_ELEMENTS(r), &c);
	g_assert_cmpuint(c.overlap_hit_time, ==, 9);
	g_assert_cmpuint(c.hit_cycles, ==, 24);
	g_assert_cmpuint(c.pure_misses, ==, 2);
	g_assert_cmpuint(c.pure_miss_time, ==, 5);
	g_assert_cmpuint(c.pure_miss_overlap_time, ==, 3);
	g_assert_cmpuint(c.active_cycles, ==, 12);
	camat_ratios(&c, &q);
	assert_frac(q.C_h, 8, 3);
	assert_frac(q.mean_hit_time, 24, 5);
	assert_frac(q.pMR, 2, 5);
	assert_frac(q.pAMP, 5, 2);
	assert_frac(q.C_m, 5, 3);
	assert_frac(q.camat, 12, 5);
}

/* Nothing, and hits only: no pure miss, ratios of nothing are NAN. */
static void test_edges(void)
{
	struct camat_counts c;
	struct camat_ratios q;
	struct camat *a = camat_new();

	camat_counts(a, &c);
	g_assert_cmpuint(c.accesses, ==, 0);
	camat_ratios(&c, &q);
	g_assert_true(isnan(q.camat) && isnan(q.C_h) && isnan(q.pAMP));
	g_assert_true(camat_add(a, 10, 4, 0));
	g_assert_true(camat_add(a, 12, 4, 0));
	/* starts may not go back */
	g_assert_false(camat_add(a, 11, 4, 0));
	camat_counts(a, &c);
	camat_ratios(&c, &q);
	g_assert_cmpuint(c.overlap_hit_time, ==, 6);
	g_assert_true(isnan(q.C_m) && isnan(q.pAMP));
	assert_frac(q.camat, 6, 2);
	/* reset: a new kernel */
	camat_reset(a);
	g_assert_true(camat_add(a, 0, 1, 0));
	camat_counts(a, &c);
	g_assert_cmpuint(c.accesses, ==, 1);
	g_assert_cmpuint(c.active_cycles, ==, 1);
	camat_free(a);
}

/* The plain count: a map of cycles. */
static void brute(const struct row *r, size_t n, struct camat_counts *c)
{
	uint64_t end = 0;
	uint8_t *hitc, *missc;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++)
		end = MAX(end, r[i].start + r[i].hit + r[i].miss);
	hitc = g_new0(uint8_t, end + 1);
	missc = g_new0(uint8_t, end + 1);
	for (size_t i = 0; i < n; i++)
		for (uint64_t t = r[i].start; t < r[i].start + r[i].hit; t++)
			hitc[t] = 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t pure = 0, a = r[i].start + r[i].hit;

		c->accesses++;
		c->hit_cycles += r[i].hit;
		c->miss_cycles += r[i].miss;
		if (r[i].miss)
			c->misses++;
		else
			c->hits++;
		for (uint64_t t = a; t < a + r[i].miss; t++)
			if (!hitc[t]) {
				pure++;
				missc[t] = 1;
			}
		c->pure_miss_time += pure;
		c->pure_misses += pure > 0;
	}
	for (uint64_t t = 0; t <= end; t++) {
		c->overlap_hit_time += hitc[t];
		c->pure_miss_overlap_time += missc[t];
		c->active_cycles += hitc[t] || missc[t];
	}
	g_free(hitc);
	g_free(missc);
}

/*
 * Random timelines: sorted by start for the stream, with a fixed miss
 * hit phase per timeline so misses start in order too; or shuffled, with
 * any hit phases, for camat_compute.  Some have long overlapping misses,
 * some none, some nothing at all.
 */
static void test_random(void)
{
	GRand *rng = g_rand_new_with_seed(20261127);

	for (int k = 0; k < 10000; k++) {
		size_t n = k % 50 == 0 ? 0 : (size_t)g_rand_int_range(rng, 1, 60);
		int kind = k % 4;	/* 0: hits only; 1: short misses; 2: long; 3: any */
		uint64_t t = (uint64_t)g_rand_int_range(rng, 0, 5);
		uint64_t miss_h = (uint64_t)g_rand_int_range(rng, 0, 6);
		struct row *r = g_new(struct row, MAX(n, 1));
		struct camat_counts want, got, streamed;
		struct camat_ratios q;
		struct camat *a = camat_new();
		uint64_t *tickets = g_new(uint64_t, MAX(n, 1));

		for (size_t i = 0; i < n; i++) {
			bool miss = kind && g_rand_boolean(rng);

			t += (uint64_t)g_rand_int_range(rng, 0, 4);
			r[i].start = t;
			r[i].hit = miss && kind != 3 ? miss_h : (uint64_t)g_rand_int_range(rng, 0, 7);
			r[i].miss = !miss ? 0 : kind == 2 ? (uint64_t)g_rand_int_range(rng, 20, 200)
				: (uint64_t)g_rand_int_range(rng, 1, 8);
		}
		brute(r, n, &want);
		/* in order, misses ending in any order (begin, then end later) */
		if (kind != 3) {
			for (size_t i = 0; i < n; i++) {
				g_assert_true(camat_begin(a, r[i].start, r[i].hit, r[i].miss > 0,
							  &tickets[i]));
				/* end the misses whose time has come, oldest last */
				for (size_t j = i + 1; j-- > 0;)
					if (r[j].miss && r[j].start + r[j].hit + r[j].miss <= r[i].start &&
					    tickets[j] != UINT64_MAX) {
						camat_end(a, tickets[j], r[j].start + r[j].hit + r[j].miss);
						tickets[j] = UINT64_MAX;
					}
			}
			for (size_t j = 0; j < n; j++)
				if (r[j].miss && tickets[j] != UINT64_MAX)
					camat_end(a, tickets[j], r[j].start + r[j].hit + r[j].miss);
			camat_counts(a, &streamed);
			g_assert_cmpmem(&streamed, sizeof(streamed), &want, sizeof(want));
			/* each miss's end known at once */
			camat_reset(a);
			for (size_t i = 0; i < n; i++)
				g_assert_true(camat_add(a, r[i].start, r[i].hit, r[i].miss));
			camat_counts(a, &streamed);
			g_assert_cmpmem(&streamed, sizeof(streamed), &want, sizeof(want));
		}
		/* shuffled, for the batch */
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)g_rand_int_range(rng, 0, (gint32)i);
			struct row x = r[i - 1];

			r[i - 1] = r[j];
			r[j] = x;
		}
		{
			uint64_t *s = g_new(uint64_t, MAX(n, 1)), *h = g_new(uint64_t, MAX(n, 1)),
				 *m = g_new(uint64_t, MAX(n, 1));

			for (size_t i = 0; i < n; i++) {
				s[i] = r[i].start;
				h[i] = r[i].hit;
				m[i] = r[i].miss;
			}
			camat_compute(s, h, m, n, &got);
			g_free(s);
			g_free(h);
			g_free(m);
		}
		g_assert_cmpmem(&got, sizeof(got), &want, sizeof(want));
		camat_ratios(&got, &q);
		if (n)
			g_assert_cmpfloat_with_epsilon(q.camat * (double)n,
						       (double)(got.overlap_hit_time + got.pure_miss_overlap_time),
						       1e-9 * (double)MAX(got.active_cycles, 1));
		g_free(tickets);
		g_free(r);
		camat_free(a);
	}
	g_rand_free(rng);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/camat/pc-example", test_pc_example);
	g_test_add_func("/camat/sc-example", test_sc_example);
	g_test_add_func("/camat/edges", test_edges);
	g_test_add_func("/camat/random", test_random);
	return g_test_run();
}
