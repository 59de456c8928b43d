/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One-pass simulation of several associativities (models/sc_stack.h)
 * against one sc_cache per associativity: random caches (every write
 * policy that allocates, write-back and write-through, bypass, several
 * set-index functions, lines of one to eight sectors, 1 to 40 lanes of 1
 * to 64 ways), random streams with write-backs, atomics, partial writes
 * and requests over several sectors and lines, kernels ending with every
 * final write-back and with or without invalidation, flushes.  Each lane
 * must count what its cache counts, every counter, and what its cache
 * sends down, by kind, after every stretch of requests.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "sector_cache.h"
#include "sc_stack.h"
#include "setindex.h"
#include "cache_streams.h"

#define MAX_LANES 40

struct trial {
	guint32 seed;
	struct sc_config cfg;
	struct sc_kernel_end end;
	unsigned lanes;
	uint32_t ways[MAX_LANES];
	uint64_t lines;
	unsigned kernels, requests;
	uint64_t part_offset;
};

/* What a cache sent, by kind (enum sc_sent), in 32-byte transactions as
 * a dram_counter counts them. */
static void count_sent(void *ctx, const struct mem_req *r)
{
	uint64_t *sent = ctx;

	sent[r->hdr.kind == MEM_READ ? SC_SENT_READS :
	     r->hdr.kind == MEM_WRITE ? SC_SENT_WRITES : SC_SENT_OTHER] +=
		(r->size + MEM_ATOM - 1) / MEM_ATOM;
}

static struct trial random_trial(guint32 seed, GRand *rng)
{
	static const enum sc_write_miss wms[] = { SC_ALLOCATE, SC_LAZY_FETCH, SC_FETCH };
	struct trial t = { .seed = seed };
	struct sc_config *c = &t.cfg;
	uint32_t max = g_rand_int_range(rng, 0, 4) ? 33 : 65;

	cs_random_geometry(c, rng);
	t.part_offset = cs_random_part_offset(rng);
	c->replacement = SC_LRU;
	c->write_hit = g_rand_boolean(rng) ? SC_WRITE_BACK : SC_WRITE_THROUGH;
	c->write_miss = wms[g_rand_int_range(rng, 0, G_N_ELEMENTS(wms))];
	if (c->write_miss == SC_LAZY_FETCH)
		c->sector_bytes = 32;	/* what one pass takes of it */
	c->count_write_misses = g_rand_boolean(rng);
	c->bypass = g_rand_boolean(rng) ? SC_BYPASS_FLAGGED : SC_BYPASS_NONE;
	t.end.final = g_rand_int_range(rng, SC_FINAL_COUNT, SC_FINAL_NONE + 1);
	t.end.invalidate = g_rand_boolean(rng);
	/* distinct ways, in no order: every one up to max, or some */
	for (uint32_t w = 1; w < max && t.lanes < MAX_LANES; w++)
		if (g_rand_int_range(rng, 0, 3))
			t.ways[t.lanes++] = w;
	if (!t.lanes)
		t.ways[t.lanes++] = g_rand_int_range(rng, 1, max);
	for (unsigned i = t.lanes - 1; i > 0; i--) {
		unsigned j = g_rand_int_range(rng, 0, i + 1);
		uint32_t x = t.ways[i];

		t.ways[i] = t.ways[j];
		t.ways[j] = x;
	}
	t.lines = (uint64_t)c->sets * g_rand_int_range(rng, 1, 2 * max) + 1;
	t.kernels = g_rand_int_range(rng, 1, 4);
	t.requests = g_rand_int_range(rng, 100, 4000);
	return t;
}

static char *trial_name(const struct trial *t)
{
	static const char *const wm[] = { "allocate", "no_allocate", "lazy_fetch", "fetch" };

	return g_strdup_printf("seed %u: %u sets, %u lanes, %u/%u B, index %d%s, %s, %s%s, final %d%s",
			       t->seed, t->cfg.sets, t->lanes, t->cfg.line_bytes,
			       t->cfg.sector_bytes, t->cfg.index,
			       t->cfg.index_on_partition ? " (partition)" : "",
			       t->cfg.write_hit == SC_WRITE_BACK ? "write_back" : "write_through",
			       wm[t->cfg.write_miss], t->cfg.bypass ? ", bypass" : "",
			       t->end.final, t->end.invalidate ? ", invalidate" : "");
}

static bool same_lanes(const struct trial *t, struct sc_stack *s, struct sc_cache **c,
		       uint64_t (*sent)[SC_N_SENT], char **what)
{
	for (unsigned k = 0; k < t->lanes; k++) {
		const uint64_t *x = sc_stack_stats(s, k), *y = sc_stats(c[k]);
		const uint64_t *z = sc_stack_sent(s, k);

		for (unsigned i = 0; i < SC_S_HIT_RATE; i++)
			if (x[i] != y[i]) {
				*what = g_strdup_printf("%u ways: counter %u is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
							t->ways[k], i, x[i], y[i]);
				return false;
			}
		for (unsigned i = 0; i < SC_N_SENT; i++)
			if (z[i] != sent[k][i]) {
				*what = g_strdup_printf("%u ways: sent %" G_GUINT64_FORMAT " of kind %u, expected %" G_GUINT64_FORMAT,
							t->ways[k], z[i], i, sent[k][i]);
				return false;
			}
	}
	return true;
}

static void run_trial(guint32 seed)
{
	GRand *rng = g_rand_new_with_seed(seed);
	struct trial t = random_trial(seed, rng);
	uint64_t sent[MAX_LANES][SC_N_SENT] = { { 0 } };
	struct sc_cache *c[MAX_LANES];
	char *why = NULL, *what = NULL, *name = trial_name(&t);
	struct sc_stack *s;
	bool ok = true;

	for (unsigned k = 0; k < t.lanes; k++) {
		struct sc_config one = t.cfg;

		one.assoc = t.ways[k];
		c[k] = sc_new(&one, NULL, count_sent, sent[k], &why);
		if (!c[k])
			g_error("%s: sc_new: %s", name, why);
	}
	s = sc_stack_new(&t.cfg, t.ways, t.lanes, &why);
	if (!s)
		g_error("%s: sc_stack_new: %s", name, why);
	for (unsigned kn = 0; kn < t.kernels && ok; kn++) {
		for (unsigned i = 0; i < t.requests && ok; i++) {
			struct mem_req r = cs_random_request(rng, &t.cfg, t.lines, t.part_offset);

			sc_stack_access(s, &r);
			for (unsigned k = 0; k < t.lanes; k++)
				sc_access(c[k], &r);
			if (i % 97 == 0)
				ok = same_lanes(&t, s, c, sent, &what);
			/* now and then a flush or an invalidation */
			if (!g_rand_int_range(rng, 0, 1500)) {
				bool flush = g_rand_boolean(rng);

				if (flush)
					sc_stack_flush(s);
				else
					sc_stack_invalidate(s);
				for (unsigned k = 0; k < t.lanes; k++)
					flush ? sc_flush(c[k]) : sc_invalidate(c[k]);
				ok = ok && same_lanes(&t, s, c, sent, &what);
			}
		}
		ok = ok && same_lanes(&t, s, c, sent, &what);
		sc_stack_end_kernel(s, &t.end);
		for (unsigned k = 0; k < t.lanes; k++)
			sc_end_kernel(c[k], &t.end);
		ok = ok && same_lanes(&t, s, c, sent, &what);
	}
	if (!ok) {
		g_printerr("%s: %s\n", name, what);
		g_test_fail();
	}
	sc_stack_free(s);
	for (unsigned k = 0; k < t.lanes; k++)
		sc_free(c[k]);
	g_free(what);
	g_free(name);
	g_rand_free(rng);
}

static void test_random_trials(void)
{
	unsigned n = g_test_slow() ? 2000 : 300;
	const char *only = g_getenv("STACK_SEED");	/* one trial, to debug it */

	if (only) {
		run_trial(atoi(only));
		return;
	}
	for (guint32 seed = 1; seed <= n; seed++)
		run_trial(seed);
}

/* What one pass cannot simulate is refused, saying why. */
static void test_refused(void)
{
	static const struct {
		const char *change, *expect;
	} cases[] = {
		{ "fifo", "replacement = fifo" },
		{ "no_allocate", "no_allocate" },
		{ "protect", "protect_dirty_pct" },
		{ "no sets", "sets not given" },
		{ "twice", "8 ways twice" },
		{ "ipoly", "16, 32 or 64 sets" },
		{ "lazy 64", "lazy_fetch with sectors over 32 bytes" },
	};
	uint32_t ways[] = { 4, 8 }, twice[] = { 8, 8 };

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct sc_config cfg = {
			.sets = 4, .line_bytes = 128, .sector_bytes = 32,
			.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
			.write_miss = SC_LAZY_FETCH,
		};
		const uint32_t *w = ways;
		char *why = NULL;

		switch (i) {
		case 0: cfg.replacement = SC_FIFO; break;
		case 1: cfg.write_miss = SC_NO_ALLOCATE; break;
		case 2: cfg.protect_dirty_pct = 10; break;
		case 3: cfg.sets = 0; cfg.size = 4096; break;
		case 4: w = twice; break;
		case 5: cfg.index = SET_INDEX_IPOLY; break;	/* 4 sets: no */
		case 6: cfg.sector_bytes = 64; break;
		}
		g_assert_null(sc_stack_new(&cfg, w, 2, &why));
		if (!strstr(why, cases[i].expect))
			g_test_fail_printf("%s: '%s' does not say '%s'", cases[i].change, why,
					   cases[i].expect);
		g_free(why);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/stack/random-trials", test_random_trials);
	g_test_add_func("/stack/refused", test_refused);
	return g_test_run();
}
