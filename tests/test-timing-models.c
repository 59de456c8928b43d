/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The timing mode's pure models: the MSHR table (models/mshr.h) and the
 * latency draws (models/latency.h).  The normal draws are checked against
 * values printed by GCC 12's libstdc++ (std::mt19937 seeded with the same
 * number, std::normal_distribution<double>), the generator Nugteren et
 * al.'s published model draws its latencies from.
 */
#include "config.h"

#include <glib.h>
#include "mshr.h"
#include "latency.h"

static uint64_t counters[MSHR_N_STATS];
static uint64_t *const stats[MSHR_N_STATS] = {
	&counters[0], &counters[1], &counters[2], &counters[3],
};

struct arrived {
	GArray *addr;		/* uint64_t, in the order fn heard them */
	GArray *first;		/* gboolean */
	struct mshr *m;
	gboolean add_in_fn;	/* fn adds the same line again */
};

static void on_target(void *ctx, const struct mshr_wait *w, bool first)
{
	struct arrived *a = ctx;
	gboolean f = first;
	uint8_t reason;

	g_array_append_val(a->addr, w->req.addr);
	g_array_append_val(a->first, f);
	g_assert_cmpuint(w->input, ==, (uint32_t)(w->req.addr & 7));
	if (a->add_in_fn) {
		struct mshr_wait again = *w;

		a->add_in_fn = FALSE;
		again.req.addr = 0x1000 + 99;
		g_assert_true(mshr_add(a->m, 0x1000 >> 7, 1, true, false, &again, &reason));
	}
}

static struct mshr_wait wait_for(uint64_t addr)
{
	struct mshr_wait w = { .at = 5, .input = (uint32_t)(addr & 7) };

	mem_req_init(&w.req, MEM_READ, addr, 32);
	return w;
}

static void test_mshr_merge_and_refuse(void)
{
	struct mshr *m;
	struct arrived a = { g_array_new(FALSE, FALSE, sizeof(uint64_t)),
			     g_array_new(FALSE, FALSE, sizeof(gboolean)), NULL, FALSE };
	struct mshr_wait w;
	uint8_t reason = 0;

	memset(counters, 0, sizeof(counters));
	m = a.m = mshr_new(2, 3, stats);
	g_assert_cmpint(mshr_state(m, 10, 1), ==, MSHR_ABSENT);
	w = wait_for(0x501);
	g_assert_true(mshr_add(m, 10, 1, true, false, &w, &reason));
	g_assert_cmpint(mshr_state(m, 10, 1), ==, MSHR_PENDING);
	g_assert_cmpint(mshr_state(m, 10, 2), ==, MSHR_LINE);
	w = wait_for(0x502);
	g_assert_true(mshr_add(m, 10, 1, false, false, &w, &reason));	/* merge */
	w = wait_for(0x503);
	g_assert_true(mshr_add(m, 10, 2, true, false, &w, &reason));	/* another sector */
	/* the entry holds 3 targets: a fourth is refused, for targets */
	g_assert_false(mshr_can_add(m, 10));
	g_assert_true(mshr_can_add(m, 11));	/* a new line: an entry is free */
	w = wait_for(0x504);
	g_assert_false(mshr_add(m, 10, 1, false, false, &w, &reason));
	g_assert_cmpuint(reason, ==, MEM_REFUSED_TARGETS);
	w = wait_for(0x605);
	g_assert_true(mshr_add(m, 11, 1, true, false, &w, &reason));
	g_assert_false(mshr_has_room(m));
	g_assert_false(mshr_can_add(m, 12));
	g_assert_true(mshr_can_add(m, 11));	/* its entry has targets left */
	/* a third line has no entry, unless forced */
	w = wait_for(0x706);
	g_assert_false(mshr_add(m, 12, 1, true, false, &w, &reason));
	g_assert_cmpuint(reason, ==, MEM_REFUSED_ENTRIES);
	w = wait_for(0x707);
	g_assert_true(mshr_add(m, 13, 1, true, true, &w, &reason));
	g_assert_cmpuint(mshr_arrive(m, 13, 1, on_target, &a), ==, 1);
	g_array_set_size(a.addr, 0);
	g_array_set_size(a.first, 0);
	g_assert_cmpuint(counters[MSHR_S_MERGES], ==, 1);
	/* mshr_can_add counts nothing */
	g_assert_cmpuint(counters[MSHR_S_REFUSED_TARGETS], ==, 1);
	g_assert_cmpuint(counters[MSHR_S_REFUSED_ENTRIES], ==, 1);
	/* the forced line went beyond the two entries */
	g_assert_cmpuint(counters[MSHR_S_PEAK], ==, 3);
	g_assert_cmpuint(mshr_waiting(m), ==, 4);

	/* sector 1 of line 10 arrives: its two requests, the fetcher first;
	 * the entry stays for sector 2 */
	g_assert_cmpuint(mshr_arrive(m, 10, 1, on_target, &a), ==, 2);
	g_assert_cmpuint(a.addr->len, ==, 2);
	g_assert_cmpuint(g_array_index(a.addr, uint64_t, 0), ==, 0x501);
	g_assert_true(g_array_index(a.first, gboolean, 0));
	g_assert_cmpuint(g_array_index(a.addr, uint64_t, 1), ==, 0x502);
	g_assert_false(g_array_index(a.first, gboolean, 1));
	g_assert_cmpint(mshr_state(m, 10, 1), ==, MSHR_LINE);
	g_assert_cmpuint(mshr_used(m), ==, 2);
	/* a sector not pending: nothing */
	g_assert_cmpuint(mshr_arrive(m, 10, 1, on_target, &a), ==, 0);
	g_assert_cmpuint(mshr_arrive(m, 10, 2, on_target, &a), ==, 1);
	g_assert_cmpint(mshr_state(m, 10, 2), ==, MSHR_ABSENT);
	g_assert_true(mshr_has_room(m));
	/* fn may add while the table is being emptied */
	a.add_in_fn = TRUE;
	g_assert_cmpuint(mshr_arrive(m, 11, 1, on_target, &a), ==, 1);
	g_assert_cmpint(mshr_state(m, 0x1000 >> 7, 1), ==, MSHR_PENDING);
	g_assert_cmpuint(mshr_used(m), ==, 1);
	g_assert_cmpuint(mshr_waiting(m), ==, 1);
	mshr_free(m);
	g_array_free(a.addr, TRUE);
	g_array_free(a.first, TRUE);
}

/* Entries and targets are reused: many lines through a table of one. */
static void test_mshr_reuse(void)
{
	struct arrived a = { g_array_new(FALSE, FALSE, sizeof(uint64_t)),
			     g_array_new(FALSE, FALSE, sizeof(gboolean)), NULL, FALSE };
	struct mshr *m = mshr_new(1, 0, stats);
	uint8_t reason;

	memset(counters, 0, sizeof(counters));
	for (uint64_t line = 0; line < 1000; line++) {
		for (unsigned k = 0; k < 40; k++) {
			struct mshr_wait w = wait_for(line << 7 | k);

			g_assert_true(mshr_add(m, line, 1, k == 0, false, &w, &reason));
		}
		g_assert_cmpuint(mshr_arrive(m, line, 1, on_target, &a), ==, 40);
	}
	g_assert_cmpuint(a.addr->len, ==, 40000);
	for (guint i = 0; i < a.addr->len; i++)
		g_assert_cmpuint(g_array_index(a.addr, uint64_t, i), ==,
				 (uint64_t)(i / 40) << 7 | i % 40);
	g_assert_cmpuint(counters[MSHR_S_PEAK], ==, 1);
	g_assert_cmpuint(counters[MSHR_S_MERGES], ==, 39000);
	mshr_free(m);
	g_array_free(a.addr, TRUE);
	g_array_free(a.first, TRUE);
}

/* What an arrival handed over: each target's id (its `at`), in order,
 * and whether only the first was called first. */
struct arrived_ids {
	GArray *ids;
	bool first_ok;
};

static void note_arrival(void *ctx, const struct mshr_wait *w, bool first)
{
	struct arrived_ids *a = ctx;

	a->first_ok &= first == (a->ids->len == 0);
	g_array_append_val(a->ids, w->at);
}

/*
 * Random adds and arrivals on lines of 8 sectors (some with a list of
 * their own in an entry, some sharing one) against a plain list of the
 * targets of each (line, sector): the table finds what is there, and only
 * that, through its growth and the backward shifts of its deletions, and
 * an arrival hands over exactly its sector's targets, in the order added,
 * the one that fetched first.
 */
static void test_mshr_against_plain(void)
{
	enum { LINES = 300, SECTORS = 8 };
	struct mshr *m = mshr_new(0, 0, stats);
	static GArray *plain[LINES * SECTORS];	/* ids waiting; NULL: not pending */
	GRand *rng = g_rand_new_with_seed(13);
	struct arrived_ids a = { g_array_new(FALSE, FALSE, sizeof(uint64_t)), true };
	uint8_t reason;

	for (int step = 0; step < 200000; step++) {
		uint32_t li = g_rand_int_range(rng, 0, LINES);
		uint64_t line = li * UINT64_C(1000003);
		uint32_t s = g_rand_int_range(rng, 0, SECTORS), sbit = 1u << s;
		GArray **want = &plain[li * SECTORS + s];
		struct mshr_wait w = wait_for(line);

		g_assert_cmpint(mshr_state(m, line, sbit) == MSHR_PENDING, ==, *want != NULL);
		if (g_rand_boolean(rng)) {
			uint64_t id = (uint64_t)step;

			w.at = id;
			g_assert_true(mshr_add(m, line, sbit, !*want, false, &w, &reason));
			if (!*want)
				*want = g_array_new(FALSE, FALSE, sizeof(uint64_t));
			g_array_append_val(*want, id);
		} else {
			uint32_t n;

			g_array_set_size(a.ids, 0);
			a.first_ok = true;
			n = mshr_arrive(m, line, sbit, note_arrival, &a);
			g_assert_true(a.first_ok);
			g_assert_cmpuint(n, ==, a.ids->len);
			g_assert_cmpuint(n, ==, *want ? (*want)->len : 0);
			for (guint k = 0; k < n; k++)
				g_assert_cmpuint(g_array_index(a.ids, uint64_t, k), ==,
						 g_array_index(*want, uint64_t, k));
			if (*want)
				g_array_free(*want, TRUE);
			*want = NULL;
		}
	}
	for (size_t k = 0; k < G_N_ELEMENTS(plain); k++)
		if (plain[k])
			g_array_free(plain[k], TRUE);
	g_array_free(a.ids, TRUE);
	g_rand_free(rng);
	mshr_free(m);
}

/* ---- latencies ------------------------------------------------------------ */

static void test_normal_is_libstdcxx(void)
{
	struct latency_model *l = latency_new(0, 1.0, 20261127u);
	static const struct {
		int index;
		double value;
	} want[] = {
		{ 0, 0.5763988054171475 }, { 1, 0.32527961512564274 },
		{ 2, 0.82988393859551457 }, { 3, 0.57610993673897559 },
		{ 500, 1.0587483051304862 }, { 999, -0.22846256932576692 },
	};
	size_t k = 0;

	for (int i = 0; i < 1000; i++) {
		double v = latency_normal(l);

		if (k < G_N_ELEMENTS(want) && want[k].index == i)
			g_assert_cmpfloat(v, ==, want[k++].value);
	}
	g_assert_cmpuint(k, ==, G_N_ELEMENTS(want));
	latency_free(l);
}

static void test_half_normal(void)
{
	struct latency_model *l = latency_new(300, 40.0, 7u), *same = latency_new(300, 40.0, 7u);
	struct latency_model *fixed = latency_new(300, 0.0, 7u);
	uint64_t sum = 0;

	/* 300 + |round(40 z)| summed over 1000 draws, as libstdc++ gives */
	for (int i = 0; i < 1000; i++) {
		uint64_t v = latency_draw(l);

		g_assert_cmpuint(v, >=, 300);
		g_assert_cmpuint(v, ==, latency_draw(same));
		g_assert_cmpuint(latency_draw(fixed), ==, 300);
		sum += v;
	}
	g_assert_cmpuint(sum, ==, 331812);
	latency_free(l);
	latency_free(same);
	latency_free(fixed);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mshr/merge-and-refuse", test_mshr_merge_and_refuse);
	g_test_add_func("/mshr/reuse", test_mshr_reuse);
	g_test_add_func("/mshr/against-plain", test_mshr_against_plain);
	g_test_add_func("/latency/normal-is-libstdc++", test_normal_is_libstdcxx);
	g_test_add_func("/latency/half-normal", test_half_normal);
	return g_test_run();
}
