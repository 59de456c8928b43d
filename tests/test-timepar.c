/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Time-parallel simulation of a sector cache (models/sc_timepar.h) against
 * the cache itself, request by request: random caches (every write policy,
 * LRU and FIFO, bypass, several set-index functions, ways that each
 * kernel may change (size_from_kernel), lines of one to
 * eight sectors), random streams with write-backs, requests over several
 * lines, kernels ending with and without flushes, 2 to 7 segments and
 * batches from a handful of requests to the whole stream.  Everything
 * must be equal: the requests sent down (byte for byte, in order), every
 * counter, and the state of every set, down to which way holds which
 * line.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "sector_cache.h"
#include "sc_timepar.h"
#include "cache_streams.h"

struct trial {
	guint32 seed;
	struct sc_config cfg;
	struct sc_kernel_end end;
	unsigned segments;
	size_t batch;
	uint64_t lines;		/* the footprint, in lines */
	/* what a router adds to an address: a function of the address, as
	 * the cache expects (it remembers the last line by its address) */
	uint64_t part_offset;
	unsigned kernels, requests;
};

static void record(void *ctx, const struct mem_req *r)
{
	g_array_append_vals(ctx, r, 1);
}

static struct trial random_trial(guint32 seed, GRand *rng)
{
	struct trial t = { .seed = seed };
	struct sc_config *c = &t.cfg;

	cs_random_geometry(c, rng);
	t.part_offset = cs_random_part_offset(rng);
	c->assoc = g_rand_int_range(rng, 0, 4) ? g_rand_int_range(rng, 1, 33)
					       : g_rand_int_range(rng, 250, 300);
	/* now and then each kernel gives the ways (an adaptive L1) */
	if (!g_rand_int_range(rng, 0, 5)) {
		c->size_from_kernel = true;
		c->assoc = 0;
	}
	c->replacement = g_rand_int_range(rng, 0, 4) ? SC_LRU : SC_FIFO;
	c->write_hit = g_rand_boolean(rng) ? SC_WRITE_BACK : SC_WRITE_THROUGH;
	c->write_miss = g_rand_int_range(rng, SC_ALLOCATE, SC_FETCH + 1);
	c->count_write_misses = g_rand_boolean(rng);
	c->bypass = g_rand_boolean(rng) ? SC_BYPASS_FLAGGED : SC_BYPASS_NONE;
	t.end.final = g_rand_int_range(rng, SC_FINAL_COUNT, SC_FINAL_NONE + 1);
	t.end.invalidate = g_rand_boolean(rng);
	t.segments = g_rand_int_range(rng, 2, 8);
	switch (g_rand_int_range(rng, 0, 3)) {
	case 0:
		t.batch = g_rand_int_range(rng, t.segments, 64);
		break;
	case 1:
		t.batch = g_rand_int_range(rng, 64, 4096);
		break;
	default:
		t.batch = 1u << 16;	/* the whole stream */
		break;
	}
	/* from a footprint that fits to one eight times the cache */
	t.lines = (uint64_t)c->sets * (c->assoc ? c->assoc : 20) * g_rand_int_range(rng, 1, 9) / 2 + 1;
	t.kernels = g_rand_int_range(rng, 1, 4);
	if (g_getenv("TIMEPAR_SEGMENTS"))
		t.segments = atoi(g_getenv("TIMEPAR_SEGMENTS"));
	if (g_getenv("TIMEPAR_BATCH"))
		t.batch = atoi(g_getenv("TIMEPAR_BATCH"));
	if (g_getenv("TIMEPAR_KERNELS"))
		t.kernels = atoi(g_getenv("TIMEPAR_KERNELS"));
	t.requests = g_rand_int_range(rng, 100, 6000);
	return t;
}

static char *trial_name(const struct trial *t)
{
	static const char *const wm[] = { "allocate", "no_allocate", "lazy_fetch", "fetch" };

	return g_strdup_printf("seed %u: %u sets x %u ways, %u/%u B, index %d%s, %s, %s, %s%s, %u segments, batch %zu, %u kernels",
			       t->seed, t->cfg.sets, t->cfg.assoc, t->cfg.line_bytes,
			       t->cfg.sector_bytes, t->cfg.index,
			       t->cfg.index_on_partition ? " (partition)" : "",
			       t->cfg.replacement == SC_LRU ? "lru" : "fifo",
			       t->cfg.write_hit == SC_WRITE_BACK ? "write_back" : "write_through",
			       wm[t->cfg.write_miss],
			       t->cfg.bypass ? ", bypass" : "", t->segments, t->batch,
			       t->kernels);
}

/* Every set alike, the same ways holding the same lines. */
static bool same_sets(struct sc_cache *a, struct sc_cache *b, char **what)
{
	size_t n = sc_set_state_bytes(a);
	uint8_t *sa = g_malloc(n), *sb = g_malloc(n);
	uint16_t *map = g_new(uint16_t, sc_ways(a));
	bool same = true;

	for (uint32_t set = 0; set < sc_sets(a) && same; set++) {
		sc_set_save(a, set, sa);
		sc_set_save(b, set, sb);
		same = sc_set_state_match(a, sa, sb, map);
		for (uint32_t w = 0; w < sc_ways(a) && same; w++)
			same = map[w] == w;
		if (!same)
			*what = g_strdup_printf("set %u differs", set);
	}
	g_free(sa);
	g_free(sb);
	g_free(map);
	return same;
}

static bool same_counts(struct sc_cache *a, struct sc_cache *b, char **what)
{
	const uint64_t *x = sc_stats(a), *y = sc_stats(b);

	for (unsigned i = 0; i < SC_S_HIT_RATE; i++)
		if (x[i] != y[i]) {
			*what = g_strdup_printf("counter %u is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
						i, x[i], y[i]);
			return false;
		}
	return true;
}

static void run_trial(guint32 seed, uint64_t *replayed, uint64_t *requests)
{
	GRand *rng = g_rand_new_with_seed(seed);
	struct trial t = random_trial(seed, rng);
	GArray *want = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	GArray *got = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	char *why = NULL, *what = NULL;
	struct sc_cache *seq = sc_new(&t.cfg, NULL, record, want, &why);
	struct sc_cache *par = seq ? sc_new(&t.cfg, NULL, record, got, &why) : NULL;
	struct sc_timepar *tp = par ? sc_timepar_new(par, record, got, t.segments, t.batch, &why) : NULL;
	char *name = trial_name(&t);
	bool ok = true;

	if (!tp)
		g_error("%s: %s", name, why);
	for (unsigned k = 0; k < t.kernels && ok; k++) {
		if (t.cfg.size_from_kernel) {
			uint64_t size = (uint64_t)t.cfg.sets * g_rand_int_range(rng, 1, 40) *
					t.cfg.line_bytes;

			if (!sc_resize(seq, size, &why) || !sc_resize(par, size, &why))
				g_error("%s: sc_resize: %s", name, why);
		}
		for (unsigned i = 0; i < t.requests; i++) {
			struct mem_req r = cs_random_request(rng, &t.cfg, t.lines, t.part_offset);

			sc_access(seq, &r);
			sc_timepar_add(tp, &r);
		}
		sc_timepar_run(tp);
		if (g_getenv("TIMEPAR_SEED"))
			ok = same_sets(par, seq, &what) && same_counts(par, seq, &what);
		ok = ok && cs_same_requests(got, want, true, &what) && same_counts(par, seq, &what) &&
		     same_sets(par, seq, &what);
		sc_end_kernel(seq, &t.end);
		sc_end_kernel(par, &t.end);
		ok = ok && cs_same_requests(got, want, true, &what) && same_counts(par, seq, &what);
	}
	if (!ok) {
		g_printerr("%s: %s\n", name, what);
		g_test_fail();
	}
	*replayed += sc_timepar_counts(tp)->replayed;
	*requests += sc_timepar_counts(tp)->requests;
	g_free(what);
	g_free(name);
	sc_timepar_free(tp);
	sc_free(par);
	sc_free(seq);
	g_array_free(want, TRUE);
	g_array_free(got, TRUE);
	g_rand_free(rng);
}

static void test_random_trials(void)
{
	uint64_t replayed = 0, requests = 0;
	unsigned n = g_test_slow() ? 3000 : 400;
	const char *only = g_getenv("TIMEPAR_SEED");	/* one trial, to debug it */

	for (guint32 seed = only ? atoi(only) : 1; seed <= (only ? (guint32)atoi(only) : n); seed++)
		run_trial(seed, &replayed, &requests);
	g_test_message("%u trials: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " requests simulated again",
		       n, replayed, requests);
	/* the test must correct something, and not everything */
	g_assert_cmpuint(replayed, >, 0);
	g_assert_cmpuint(replayed, <, requests);
}

/* A cache whose sets depend on one another is refused. */
static void test_refused(void)
{
	struct sc_config cfg = {
		.sets = 4, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		.write_hit = SC_WRITE_BACK, .write_miss = SC_LAZY_FETCH,
		.protect_dirty_pct = 25,
	};
	char *why = NULL;
	struct sc_cache *c = sc_new(&cfg, NULL, record, NULL, &why);

	g_assert_nonnull(c);
	g_assert_null(sc_timepar_new(c, record, NULL, 2, 100, &why));
	g_assert_nonnull(strstr(why, "protect_dirty_pct"));
	g_free(why);
	cfg.protect_dirty_pct = 0;
	sc_free(c);
	c = sc_new(&cfg, NULL, record, NULL, &why);
	g_assert_null(sc_timepar_new(c, record, NULL, 1, 100, &why));
	g_assert_nonnull(strstr(why, "segments"));
	g_free(why);
	sc_free(c);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/timepar/random-trials", test_random_trials);
	g_test_add_func("/timepar/refused", test_refused);
	return g_test_run();
}
