/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Miss-ratio curves (models/mrc.c) against plain models: the exact curve
 * against fully associative LRU caches simulated one by one at each of its
 * capacities; the tracker's forgetting (rd_forget) against a list; and
 * the sampled curve (SHARDS) within a small error of the exact one, in
 * memory that stays under its bound.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib.h>
#include "mrc.h"
#include "sdcm.h"

/* The tests' random numbers: xorshift64, fixed seeds. */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A skewed stream: block b with probability ~ 1 / (b + 1), over n blocks. */
static uint64_t *make_stream(size_t len, uint64_t n, uint64_t seed)
{
	uint64_t *s = g_new(uint64_t, len), x = seed;

	for (size_t i = 0; i < len; i++) {
		/* log-uniform: small blocks far more often */
		double u = (double)(next_rand(&x) >> 11) / 9007199254740992.0;

		s[i] = ((uint64_t)floor(pow((double)n, u)) - 1) * 128 + 0x1000;
	}
	return s;
}

/* Misses of a fully associative LRU cache of c blocks: a list, newest
 * first. */
static uint64_t lru_misses(const uint64_t *s, size_t len, uint64_t c)
{
	uint64_t *stack = g_new(uint64_t, c), misses = 0;
	size_t used = 0;

	for (size_t i = 0; i < len; i++) {
		size_t j = 0;

		while (j < used && stack[j] != s[i])
			j++;
		if (j == used) {
			misses++;
			if (used < c)
				used++;
			j = used - 1;
		}
		memmove(stack + 1, stack, j * sizeof(*stack));
		stack[0] = s[i];
	}
	g_free(stack);
	return misses;
}

static void test_exact(void)
{
	size_t len = 20000;
	uint64_t *s = make_stream(len, 3000, 88172645463325252u);
	struct mrc *m = mrc_new(1, 0);
	uint64_t cap[600];
	double mr[600];
	size_t n;

	for (size_t i = 0; i < len; i++)
		g_assert_true(mrc_access(m, s[i]));
	n = mrc_curve(m, cap, mr, G_N_ELEMENTS(cap));
	g_assert_cmpuint(n, >, 40);
	g_assert_cmpuint(cap[0], ==, 1);
	for (size_t k = 0; k < n; k += 3) {
		double want = (double)lru_misses(s, len, cap[k]) / (double)len;

		g_assert_cmpfloat_with_epsilon(mr[k], want, 1e-12);
		g_assert_cmpfloat_with_epsilon(mrc_miss_ratio(m, cap[k]), want, 1e-12);
	}
	/* past every distance only the cold misses are left, and the curve
	 * never rises */
	for (size_t k = 1; k < n; k++)
		g_assert_cmpfloat(mr[k], <=, mr[k - 1]);
	/* a new kernel starts cold */
	mrc_reset(m);
	g_assert_true(mrc_access(m, 1));
	g_assert_cmpfloat(mrc_miss_ratio(m, 1), ==, 1);
	mrc_free(m);
	g_free(s);
}

/* rd_forget: later distances no longer count the forgotten block, which
 * is cold again. */
static void test_forget(void)
{
	struct rd_tracker *t = rd_new();
	GArray *list = g_array_new(FALSE, FALSE, sizeof(uint64_t));	/* oldest first */
	uint64_t x = 2463534242u;

	for (int i = 0; i < 200000; i++) {
		uint64_t b = next_rand(&x) % 700;
		guint at = 0;

		while (at < list->len && g_array_index(list, uint64_t, at) != b)
			at++;
		if (x % 11 == 0) {
			/* forget b */
			g_assert_cmpint(rd_forget(t, b), ==, at < list->len);
			if (at < list->len)
				g_array_remove_index(list, at);
			continue;
		}
		int64_t want = at < list->len ? (int64_t)(list->len - 1 - at) : -1;

		g_assert_cmpint(rd_access(t, b), ==, want);
		if (at < list->len)
			g_array_remove_index(list, at);
		g_array_append_val(list, b);
	}
	rd_free(t);
	g_array_free(list, TRUE);
}

/* Mean absolute error of sampled against exact at the exact curve's
 * capacities from `from` blocks up. */
static double mae(struct mrc *exact, struct mrc *sampled, uint64_t from)
{
	uint64_t cap[600];
	double mr[600], sum = 0;
	size_t n = mrc_curve(exact, cap, mr, G_N_ELEMENTS(cap)), used = 0;

	for (size_t k = 0; k < n; k++) {
		if (cap[k] < from)
			continue;
		sum += fabs(mrc_miss_ratio(sampled, cap[k]) - mr[k]);
		used++;
	}
	return used ? sum / (double)used : 0;
}

/*
 * A stream whose blocks are equally likely: a sample of them has the
 * stream's distances, scaled (a skewed one, where a few hot blocks make
 * most accesses, has more variance: which hot blocks the hash samples
 * decides much; the note of issue 15 measures real traces).
 */
static uint64_t *make_uniform(size_t len, uint64_t n, uint64_t seed)
{
	uint64_t *s = g_new(uint64_t, len), x = seed;

	for (size_t i = 0; i < len; i++)
		s[i] = (next_rand(&x) % n) * 128 + 0x1000;
	return s;
}

static void test_sampled(void)
{
	size_t len = 3000000;
	uint64_t *s = make_uniform(len, 100000, 1181783497276652981u);
	struct mrc *exact = mrc_new(1, 0);
	struct mrc *fixed = mrc_new(0.1, 0);
	struct mrc *bounded = mrc_new(0.1, 5000);
	uint64_t most = 0;
	double e1, e2;

	for (size_t i = 0; i < len; i++) {
		g_assert_true(mrc_access(exact, s[i]));
		g_assert_true(mrc_access(fixed, s[i]));
		g_assert_true(mrc_access(bounded, s[i]));
		most = MAX(most, mrc_tracked(bounded));
	}
	e1 = mae(exact, fixed, 1);
	e2 = mae(exact, bounded, 1);
	g_test_message("rate 0.1: MAE %.4f; at most 5000 blocks: MAE %.4f at rate %.5f",
		       e1, e2, mrc_rate(bounded));
	g_assert_cmpfloat(e1, <, 0.005);
	g_assert_cmpfloat(e2, <, 0.02);
	/* the bound held, and it lowered the rate to keep it */
	g_assert_cmpuint(most, <=, 5000);
	g_assert_cmpfloat(mrc_rate(bounded), <, 0.1);
	g_assert_cmpuint(mrc_accesses(bounded), ==, len);
	mrc_free(exact);
	mrc_free(fixed);
	mrc_free(bounded);
	g_free(s);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mrc/exact-is-lru", test_exact);
	g_test_add_func("/mrc/rd-forget", test_forget);
	g_test_add_func("/mrc/sampled-close", test_sampled);
	return g_test_run();
}
