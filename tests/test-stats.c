/* SPDX-License-Identifier: BSD-3-Clause */
/* Statistics: table and dynamic counters, ratios, array sums, phases, dumps. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "registry.h"

enum { HITS, MISSES, RATE };

static const struct ss_stat_desc cache_stats[] = {
	[HITS] = { "hits", SS_STAT_COUNTER, "accesses that hit", NULL, NULL },
	[MISSES] = { "misses", SS_STAT_COUNTER, "accesses that missed", NULL, NULL },
	[RATE] = { "hit_rate", SS_STAT_RATIO, "hits / (hits + misses)", "hits", "accesses" },
	{ "accesses", SS_STAT_COUNTER, "all accesses", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
static const struct ss_component_ops ops = { 0 };
static const struct ss_component_type cache_type = {
	SS_ABI_VERSION, "cache", "", NULL, NULL, cache_stats, &ops,
	sizeof(struct ss_component), 0,
};

static double get(struct ss_engine *e, const char *name)
{
	double v = -1;

	if (!ss_stats_lookup(e, name, &v))
		g_error("no statistic '%s'", name);
	return v;
}

/* l1[0..2] with hits 1,2,3 and misses 3,2,1; one scalar "l2". */
static struct ss_engine *make_engine(struct ss_component **l1)
{
	struct ss_engine *e = ss_engine_new();

	for (int i = 0; i < 3; i++) {
		l1[i] = ss_engine_add_component(e, &cache_type, "l1", i, 3);
		l1[i]->stats[HITS] = i + 1;
		l1[i]->stats[MISSES] = 3 - i;
		l1[i]->stats[3] = 4;
	}
	ss_engine_add_component(e, &cache_type, "l2", -1, 1)->stats[HITS] = 10;
	return e;
}

static void test_sums_and_ratios(void)
{
	struct ss_component *l1[3];
	struct ss_engine *e = make_engine(l1);
	double v;

	g_assert_cmpfloat(get(e, "l1[1].hits"), ==, 2);
	g_assert_cmpfloat(get(e, "l1.hits"), ==, 6);
	g_assert_cmpfloat(get(e, "l1.misses"), ==, 6);
	g_assert_cmpfloat(get(e, "l1[2].hit_rate"), ==, 0.75);
	/* the aggregate ratio is the ratio of the sums, not a mean of ratios */
	g_assert_cmpfloat(get(e, "l1.hit_rate"), ==, 0.5);
	g_assert_cmpfloat(get(e, "l2.hits"), ==, 10);
	/* a ratio over zero is 0, as the reference's div0 gives it */
	g_assert_cmpfloat(get(e, "l2.hit_rate"), ==, 0);
	g_assert_false(ss_stats_lookup(e, "l1.nothing", &v));
	g_assert_false(ss_stats_lookup(e, "l3.hits", &v));
	/* a counter's live slot; ratios and unknown names have none */
	g_assert_true(ss_stats_counter(e, "l1[2].hits") == &l1[2]->stats[HITS]);
	g_assert_null(ss_stats_counter(e, "l1[2].hit_rate"));
	g_assert_null(ss_stats_counter(e, "l1.hits"));
	ss_engine_free(e);
}

/* Sums: totals derived from per-kind counters, as a cache keeps them. */
static const struct ss_stat_desc kind_stats[] = {
	{ "load_hits", SS_STAT_COUNTER, "", NULL, NULL },
	{ "load_misses", SS_STAT_COUNTER, "", NULL, NULL },
	{ "store_hits", SS_STAT_COUNTER, "", NULL, NULL },
	{ "store_misses", SS_STAT_COUNTER, "", NULL, NULL },
	{ "wb", SS_STAT_COUNTER, "", NULL, NULL },
	{ "hits", SS_STAT_SUM, "", "*_hits", NULL },
	{ "accesses", SS_STAT_SUM, "", "*_hits *_misses", NULL },
	{ "hit_rate", SS_STAT_RATIO, "", "hits", "accesses" },
	{ NULL, 0, NULL, NULL, NULL },
};
static const struct ss_component_type kind_type = {
	SS_ABI_VERSION, "kcache", "", NULL, NULL, kind_stats, &ops,
	sizeof(struct ss_component), 0,
};

static void test_sum_stats(void)
{
	struct ss_engine *e = ss_engine_new();
	struct ss_component *c[2];
	double v;

	for (int i = 0; i < 2; i++) {
		c[i] = ss_engine_add_component(e, &kind_type, "l1", i, 2);
		c[i]->stats[0] = 1 + i;		/* load hits */
		c[i]->stats[1] = 2;		/* load misses */
		c[i]->stats[2] = 3;		/* store hits */
		c[i]->stats[3] = 4;		/* store misses */
		c[i]->stats[4] = 100;		/* matched by no glob */
	}
	g_assert_cmpfloat(get(e, "l1[0].hits"), ==, 4);
	g_assert_cmpfloat(get(e, "l1[1].accesses"), ==, 11);
	g_assert_cmpfloat(get(e, "l1.accesses"), ==, 21);
	g_assert_cmpfloat(get(e, "l1.hit_rate"), ==, 9.0 / 21);
	ss_stats_end_phase(e, "k0");
	g_assert_cmpfloat(get(e, "l1.accesses"), ==, 0);
	g_assert_true(ss_stats_lookup_phase(e, 0, "l1[1].hits", &v));
	g_assert_cmpfloat(v, ==, 5);
	ss_engine_free(e);

	/* a sum whose globs match no counter is a broken table */
	static const struct ss_stat_desc bad[] = {
		{ "misses", SS_STAT_COUNTER, "", NULL, NULL },
		{ "hits", SS_STAT_SUM, "", "*_hits", NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};
	static const struct ss_component_type bad_type = {
		SS_ABI_VERSION, "badsum", "", NULL, NULL, bad, &ops,
		sizeof(struct ss_component), 0,
	};
	struct ss_registry *r = ss_registry_new();
	GError *err = NULL;

	g_assert_false(ss_registry_add(r, &bad_type, &err));
	g_assert_nonnull(strstr(err->message, "sum 'hits': no counter of the table matches '*_hits'"));
	g_error_free(err);
	ss_registry_free(r);
}

/* Reals: doubles set by the component, kept bit for bit, averaged over
 * an array, zeroed with the counters at a phase's end. */
static const struct ss_stat_desc real_stats[] = {
	{ "rate", SS_STAT_REAL, "a probability", NULL, NULL },
	{ "n", SS_STAT_COUNTER, "", NULL, NULL },
	{ NULL, 0, NULL, NULL, NULL },
};
static const struct ss_component_type real_type = {
	SS_ABI_VERSION, "rcache", "", NULL, NULL, real_stats, &ops,
	sizeof(struct ss_component), 0,
};

static void test_real_stats(void)
{
	struct ss_engine *e = ss_engine_new();
	struct ss_component *c[2];
	double v;

	for (int i = 0; i < 2; i++)
		c[i] = ss_engine_add_component(e, &real_type, "l1", i, 2);
	ss_stat_set_real(&c[0]->stats[0], 0.1);
	ss_stat_set_real(&c[1]->stats[0], 0.6000000000000001);
	g_assert_cmpfloat(ss_stat_real(ss_stats_counter(e, "l1[1].rate")), ==, 0.6000000000000001);
	g_assert_cmpfloat(get(e, "l1[0].rate"), ==, 0.1);
	g_assert_cmpfloat(get(e, "l1.rate"), ==, 0.1 / 2 + 0.6000000000000001 / 2);
	ss_stats_end_phase(e, "k0");
	g_assert_cmpfloat(get(e, "l1[0].rate"), ==, 0);
	g_assert_true(ss_stats_lookup_phase(e, 0, "l1[1].rate", &v));
	g_assert_cmpfloat(v, ==, 0.6000000000000001);
	ss_engine_free(e);
}

static void test_dynamic(void)
{
	struct ss_engine *e = ss_engine_new();
	struct ss_component *l2 = ss_engine_add_component(e, &cache_type, "l2", -1, 1);
	uint64_t *slot[4];

	for (int s = 0; s < 4; s++) {
		char *name = g_strdup_printf("slice[%d].wb_evict", s);

		slot[s] = ss_stat_add_counter(l2, name, "dirty sectors written back");
		*slot[s] = 10 * (s + 1);
		g_free(name);
	}
	ss_stat_add_ratio(l2, "evict_share", "slice 0 of all", "slice[0].wb_evict", "hits");
	l2->stats[HITS] = 40;
	g_assert_cmpfloat(get(e, "l2.slice[3].wb_evict"), ==, 40);
	g_assert_cmpfloat(get(e, "l2.slice.wb_evict"), ==, 100);
	g_assert_cmpfloat(get(e, "l2.evict_share"), ==, 0.25);
	ss_engine_free(e);
}

static void test_phases(void)
{
	struct ss_component *l1[3];
	struct ss_engine *e = make_engine(l1);
	double v;

	ss_stats_end_phase(e, "kernel 0");
	g_assert_cmpuint(ss_stats_n_phases(e), ==, 1);
	g_assert_cmpfloat(get(e, "l1.hits"), ==, 0);	/* reset */
	l1[0]->stats[HITS] = 5;
	ss_stats_end_phase(e, "kernel 1");
	g_assert_true(ss_stats_lookup_phase(e, 0, "l1.hits", &v));
	g_assert_cmpfloat(v, ==, 6);
	g_assert_true(ss_stats_lookup_phase(e, 1, "l1.hits", &v));
	g_assert_cmpfloat(v, ==, 5);
	g_assert_true(ss_stats_lookup_phase(e, 0, "l1.hit_rate", &v));
	g_assert_cmpfloat(v, ==, 0.5);
	g_assert_false(ss_stats_lookup_phase(e, 2, "l1.hits", &v));
	ss_engine_free(e);
}

/* not inlined: gcc 12 then mistakes the memstream buffer for a dangling pointer */
__attribute__((noinline)) static char *dump(struct ss_engine *e, enum ss_stats_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ss_stats_write(e, f, m, NULL);
	fclose(m);
	return buf;
}

static void test_dumps(void)
{
	struct ss_component *l1[3];
	struct ss_engine *e = make_engine(l1);
	char *text = dump(e, SS_STATS_TEXT), *csv = dump(e, SS_STATS_CSV);
	char *json = dump(e, SS_STATS_JSON);

	g_assert_nonnull(strstr(text, "---------- run ----------"));
	g_assert_true(g_regex_match_simple("^l1.hits +6  # accesses that hit$", text, G_REGEX_MULTILINE, 0));
	g_assert_true(g_regex_match_simple("^l1\\[2\\].hits +3$", text, G_REGEX_MULTILINE, 0));
	g_assert_true(g_regex_match_simple("^l1.hit_rate +0.500000", text, G_REGEX_MULTILINE, 0));
	/* the sum comes before its members */
	g_assert_true(strstr(text, "l1.hits ") < strstr(text, "l1[0].hits "));
	g_assert_true(g_str_has_prefix(csv, "phase,stat,value\n"));
	g_assert_nonnull(strstr(csv, "\nrun,l1.hits,6\n"));
	g_assert_nonnull(strstr(csv, "\nrun,l1[0].hit_rate,0.250000\n"));
	g_assert_nonnull(strstr(json, "\"phase\": \"run\""));
	g_assert_nonnull(strstr(json, "\"l1.hits\": 6,"));
	g_assert_nonnull(strstr(json, "\"l2.accesses\": 0\n"));
	g_free(text);
	g_free(csv);
	g_free(json);

	/* after phases, the rest is shown only when something happened */
	ss_stats_end_phase(e, "k0");
	text = dump(e, SS_STATS_TEXT);
	g_assert_nonnull(strstr(text, "---------- k0 ----------"));
	g_assert_null(strstr(text, "---------- end ----------"));
	g_free(text);
	l1[1]->stats[MISSES] = 1;
	text = dump(e, SS_STATS_TEXT);
	g_assert_nonnull(strstr(text, "---------- end ----------"));
	g_free(text);
	ss_engine_free(e);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/stats/sums-and-ratios", test_sums_and_ratios);
	g_test_add_func("/stats/sum-statistics", test_sum_stats);
	g_test_add_func("/stats/real-statistics", test_real_stats);
	g_test_add_func("/stats/dynamic-counters", test_dynamic);
	g_test_add_func("/stats/phases", test_phases);
	g_test_add_func("/stats/dumps", test_dumps);
	return g_test_run();
}
