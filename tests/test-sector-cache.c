/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sector cache state machine, one case per transition: model.md 7.4's
 * unit vector for the four reference policies, 7.5's write-validate example,
 * atomics, FIFO against LRU, flush and invalidate, larger sectors, requests
 * spanning sectors, and the geometries it must refuse.
 */
#include "config.h"

#include <string.h>
#include "sector_cache.h"

struct log {
	GString *s;
};

static void record(void *ctx, const struct mem_req *r)
{
	struct log *l = ctx;

	g_string_append_printf(l->s, "%s%c0x%" G_GINT64_MODIFIER "x",
			       l->s->len ? " " : "",
			       r->hdr.kind == MEM_READ ? 'r' : 'w', r->addr);
	if (r->size != MEM_ATOM)
		g_string_append_printf(l->s, "/%u", r->size);
	if (r->hdr.kind == MEM_WRITE && r->size == MEM_ATOM && r->mask != UINT32_MAX)
		g_string_append_printf(l->s, "&%x", r->mask);
}

struct rig {
	struct sc_cache *c;
	struct log log;
};

static void rig_init(struct rig *g, struct sc_config cfg)
{
	char *why = NULL;

	g->log.s = g_string_new(NULL);
	g->c = sc_new(&cfg, NULL, record, &g->log, &why);
	if (!g->c)
		g_error("%s", why);
}

static void rig_free(struct rig *g)
{
	sc_free(g->c);
	g_string_free(g->log.s, TRUE);
}

/* One access: "H", "S" (sector miss) or "M", then the traffic it caused. */
static char *step(struct rig *g, enum mem_op op, uint64_t addr, uint32_t size,
		  uint32_t mask)
{
	struct mem_req r;

	mem_req_init(&r, op, addr, size);
	r.mask = mask;
	g_string_truncate(g->log.s, 0);
	enum sc_probe p = sc_access(g->c, &r);

	return g_strdup_printf("%c%s%s", "HSM"[p], g->log.s->len ? " " : "", g->log.s->str);
}

/* want: "H", "S", "M" and traffic; "m" matches either kind of miss (the
 * spec's unit vector writes M for both) */
static void expect(struct rig *g, enum mem_op op, uint64_t addr, const char *want)
{
	char *got = step(g, op, addr, MEM_ATOM, UINT32_MAX);

	if (want[0] == 'm' && got[0] != 'H')
		got[0] = 'm';

	if (strcmp(got, want))
		g_error("%c 0x%" G_GINT64_MODIFIER "x: got '%s', want '%s'",
			op == MEM_READ ? 'R' : 'W', addr, got, want);
	g_free(got);
}

static uint64_t load(const struct rig *g, enum sc_metric m)
{
	return sc_stats(g->c)[sc_stat_index(MEM_GLOBAL, MEM_READ, m)];
}

static uint64_t store(const struct rig *g, enum sc_metric m)
{
	return sc_stats(g->c)[sc_stat_index(MEM_GLOBAL, MEM_WRITE, m)];
}

/*
 * Every counter at once: `want` lists "name=value" pairs (load.hits,
 * store.line_misses, total.reads_down, evictions, wb_evict, ...) and every
 * counter it does not name must be 0.
 */
static void check_counters(const struct rig *g, const char *want)
{
	static const char *const ops[] = { "load", "store", "atomic", "reduction" };
	static const char *const metrics[] = {
		"accesses", "hits", "sector_misses", "line_misses", "reads_down", "writes_down",
	};
	uint64_t expect[SC_N_STATS] = { 0 };
	char **pairs = g_strsplit(want, " ", -1);

	for (char **p = pairs; *p; p++) {
		char *eq = strchr(*p, '=');
		bool found = false;

		g_assert_nonnull(eq);
		*eq = '\0';
		for (unsigned i = 0; i < SC_N_STATS && !found; i++) {
			char *name;

			if (i < SC_S_TOTAL)
				name = g_strdup_printf("%s%s.%s", i / (SC_N_OPS * SC_N_METRICS) ? "local_" : "",
						       ops[i / SC_N_METRICS % SC_N_OPS], metrics[i % SC_N_METRICS]);
			else if (i < SC_S_EVICTIONS)
				name = g_strdup_printf("total.%s", metrics[i - SC_S_TOTAL]);
			else
				name = g_strdup(i == SC_S_EVICTIONS ? "evictions" : i == SC_S_WB_EVICT ? "wb_evict"
						: i == SC_S_WB_FLUSH ? "wb_flush" : "hit_rate");
			if (!strcmp(name, *p)) {
				expect[i] = g_ascii_strtoull(eq + 1, NULL, 10);
				found = true;
			}
			g_free(name);
		}
		if (!found)
			g_error("no counter '%s'", *p);
	}
	g_strfreev(pairs);
	for (unsigned i = 0; i < SC_N_STATS; i++)
		if (sc_stats(g->c)[i] != expect[i])
			g_error("counter %u: %" G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT,
				i, sc_stats(g->c)[i], expect[i]);
}

/* ---- model.md 7.4: 512 B, 2-way, fib_double (lines 0,2,4,5 -> set 0) ---- */

static const struct { enum mem_op op; uint64_t a; } unit_stream[12] = {
	{ MEM_READ, 0x0 }, { MEM_READ, 0x20 }, { MEM_READ, 0x0 }, { MEM_WRITE, 0x40 },
	{ MEM_WRITE, 0x0 }, { MEM_READ, 0x100 }, { MEM_WRITE, 0x160 }, { MEM_READ, 0x220 },
	{ MEM_WRITE, 0x2e0 }, { MEM_READ, 0x40 }, { MEM_WRITE, 0x220 }, { MEM_READ, 0x2e0 },
};

static void run_unit(enum sc_write_hit wh, enum sc_write_miss wm,
		     const char *const want[12], const char *flush,
		     const char *counters)
{
	struct rig g;
	struct sc_config cfg = {
		.size = 512, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_FIB_DOUBLE, .write_hit = wh, .write_miss = wm,
		.count_write_misses = true,
	};

	rig_init(&g, cfg);
	g_assert_cmpuint(sc_sets(g.c), ==, 2);
	for (int i = 0; i < 12; i++) {
		char *w = g_strdup(want[i]);

		if (w[0] == 'M')
			w[0] = 'm';
		expect(&g, unit_stream[i].op, unit_stream[i].a, w);
		g_free(w);
	}
	g_string_truncate(g.log.s, 0);
	sc_flush(g.c);
	g_assert_cmpstr(g.log.s->str, ==, flush);
	/* counters every policy shares */
	g_assert_cmpuint(load(&g, SC_M_ACCESSES), ==, 7);
	g_assert_cmpuint(load(&g, SC_M_SECTOR_MISSES) + load(&g, SC_M_LINE_MISSES), ==, 6);
	g_assert_cmpuint(load(&g, SC_M_LINE_MISSES), ==, 5);
	g_assert_cmpuint(load(&g, SC_M_READS_DOWN), ==, 6);
	g_assert_cmpuint(store(&g, SC_M_ACCESSES), ==, 5);
	if (counters)
		check_counters(&g, counters);
	rig_free(&g);
}

static void test_unit_wb_allocate(void)
{
	static const char *const want[12] = {
		"M r0x0", "M r0x20", "H", "M", "H", "M r0x100", "M",
		"M r0x220 w0x0 w0x40", "M w0x160", "M r0x40", "M w0x2e0", "M r0x2e0",
	};
	/* worked out by hand from the stream; model.md gives the load totals,
	 * the 4 store misses, the 4 write-backs and the flush */
	run_unit(SC_WRITE_BACK, SC_ALLOCATE, want, "w0x220",
		 "load.accesses=7 load.hits=1 load.sector_misses=1 load.line_misses=5 "
		 "load.reads_down=6 store.accesses=5 store.hits=1 store.sector_misses=2 "
		 "store.line_misses=2 total.accesses=12 total.hits=2 total.sector_misses=3 "
		 "total.line_misses=7 total.reads_down=6 total.writes_down=5 evictions=5 "
		 "wb_evict=4 wb_flush=1");
}

static void test_unit_wb_no_allocate(void)
{
	static const char *const want[12] = {
		"M r0x0", "M r0x20", "H", "M w0x40", "H", "M r0x100", "M w0x160",
		"M r0x220 w0x0", "M w0x2e0", "M r0x40", "H", "M r0x2e0",
	};
	/* by hand: the store at 11 hits line 4, filled by the read at 8;
	 * reads evict at 8 (line 0, dirty from the hit at 5), 10 and 12 */
	run_unit(SC_WRITE_BACK, SC_NO_ALLOCATE, want, "w0x220",
		 "load.accesses=7 load.hits=1 load.sector_misses=1 load.line_misses=5 "
		 "load.reads_down=6 store.accesses=5 store.hits=2 store.sector_misses=2 "
		 "store.line_misses=1 store.writes_down=3 total.accesses=12 total.hits=3 "
		 "total.sector_misses=3 total.line_misses=6 total.reads_down=6 "
		 "total.writes_down=5 evictions=3 wb_evict=1 wb_flush=1");
}

static void test_unit_wt_allocate(void)
{
	static const char *const want[12] = {
		"M r0x0", "M r0x20", "H", "M w0x40", "H w0x0", "M r0x100", "M w0x160",
		"M r0x220", "M w0x2e0", "M r0x40", "M w0x220", "M r0x2e0",
	};
	/* by hand: every line miss from 8 on evicts, and nothing is written
	 * back by a write-through cache */
	run_unit(SC_WRITE_THROUGH, SC_ALLOCATE, want, "",
		 "load.accesses=7 load.hits=1 load.sector_misses=1 load.line_misses=5 "
		 "load.reads_down=6 store.accesses=5 store.hits=1 store.sector_misses=2 "
		 "store.line_misses=2 store.writes_down=5 total.accesses=12 total.hits=2 "
		 "total.sector_misses=3 total.line_misses=7 total.reads_down=6 "
		 "total.writes_down=5 evictions=5");
}

static void test_unit_wt_no_allocate(void)
{
	static const char *const want[12] = {
		"M r0x0", "M r0x20", "H", "M w0x40", "H w0x0", "M r0x100", "M w0x160",
		"M r0x220", "M w0x2e0", "M r0x40", "H w0x220", "M r0x2e0",
	};
	/* by hand: stores hit at 5 and 11, sector-miss at 4 and 7, line-miss
	 * at 9; reads evict at 8, 10 and 12; a write-through cache writes
	 * nothing back */
	run_unit(SC_WRITE_THROUGH, SC_NO_ALLOCATE, want, "",
		 "load.accesses=7 load.hits=1 load.sector_misses=1 load.line_misses=5 "
		 "load.reads_down=6 store.accesses=5 store.hits=2 store.sector_misses=2 "
		 "store.line_misses=1 store.writes_down=5 total.accesses=12 total.hits=3 "
		 "total.sector_misses=3 total.line_misses=6 total.reads_down=6 "
		 "total.writes_down=5 evictions=3");
}

/* The counters model.md lists for each policy, on the same stream. */
static void test_unit_counters(void)
{
	static const struct {
		enum sc_write_hit wh;
		enum sc_write_miss wm;
		uint64_t write_miss, writes_down, wb_evict, wb_flush;
	} want[] = {
		{ SC_WRITE_BACK, SC_ALLOCATE, 4, 0, 4, 1 },
		{ SC_WRITE_BACK, SC_NO_ALLOCATE, 3, 3, 1, 1 },
		{ SC_WRITE_THROUGH, SC_ALLOCATE, 4, 5, 0, 0 },
		{ SC_WRITE_THROUGH, SC_NO_ALLOCATE, 3, 5, 0, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		struct rig g;
		struct sc_config cfg = {
			.size = 512, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
			.index = SET_INDEX_FIB_DOUBLE, .write_hit = want[i].wh,
			.write_miss = want[i].wm, .count_write_misses = true,
		};

		rig_init(&g, cfg);
		for (int k = 0; k < 12; k++) {
			char *s = step(&g, unit_stream[k].op, unit_stream[k].a, MEM_ATOM, UINT32_MAX);

			g_free(s);
		}
		sc_flush(g.c);
		g_assert_cmpuint(store(&g, SC_M_SECTOR_MISSES) + store(&g, SC_M_LINE_MISSES), ==, want[i].write_miss);
		g_assert_cmpuint(store(&g, SC_M_WRITES_DOWN), ==, want[i].writes_down);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_WB_EVICT], ==, want[i].wb_evict);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_WB_FLUSH], ==, want[i].wb_flush);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_TOTAL + SC_M_WRITES_DOWN], ==,
				 want[i].writes_down + want[i].wb_evict + want[i].wb_flush);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_TOTAL + SC_M_ACCESSES], ==, 12);
		rig_free(&g);
	}
}

static void test_count_write_misses_off(void)
{
	struct rig g;
	struct sc_config cfg = {
		.size = 512, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_ALLOCATE, .count_write_misses = false,
	};

	rig_init(&g, cfg);
	expect(&g, MEM_WRITE, 0x0, "M");
	expect(&g, MEM_READ, 0x20, "S r0x20");
	g_assert_cmpuint(store(&g, SC_M_LINE_MISSES) + store(&g, SC_M_SECTOR_MISSES), ==, 0);
	g_assert_cmpuint(load(&g, SC_M_SECTOR_MISSES), ==, 1);
	g_assert_cmpuint(sc_stats(g.c)[SC_S_TOTAL + SC_M_LINE_MISSES], ==, 0);
	rig_free(&g);
}

/* ---- model.md 7.5: write-validate (lazy fetch on read), write-back L2 ---- */

static struct sc_config lazy_cfg(enum sc_write_hit wh)
{
	return (struct sc_config){
		.sets = 1, .assoc = 1, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_LINEAR, .write_hit = wh,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
	};
}

static void test_lazy_fetch_worked_example(void)
{
	struct rig g;
	char *s;

	rig_init(&g, lazy_cfg(SC_WRITE_BACK));
	s = step(&g, MEM_WRITE, 0x1000, MEM_ATOM, 0xf);	/* 4 bytes: MISS, nothing down */
	g_assert_cmpstr(s, ==, "M");
	g_free(s);
	expect(&g, MEM_READ, 0x1000, "S r0x1000");	/* partial: fetch */
	expect(&g, MEM_READ, 0x1000, "H");		/* now readable */
	expect(&g, MEM_WRITE, 0x1020, "S");		/* full 32 B: readable, no fetch */
	expect(&g, MEM_READ, 0x1020, "H");
	/* both sectors are modified: evicting the line writes 2 sectors */
	expect(&g, MEM_READ, 0x2000, "M r0x2000 w0x1000 w0x1020");
	check_counters(&g, "store.accesses=2 store.sector_misses=1 store.line_misses=1 "
		       "load.accesses=4 load.hits=2 load.sector_misses=1 load.line_misses=1 "
		       "load.reads_down=2 total.accesses=6 total.hits=2 total.sector_misses=2 "
		       "total.line_misses=2 total.reads_down=2 total.writes_down=2 "
		       "evictions=1 wb_evict=2");
	rig_free(&g);
}

static void test_lazy_fetch_masks_add_up(void)
{
	struct rig g;
	char *s;

	rig_init(&g, lazy_cfg(SC_WRITE_BACK));
	s = step(&g, MEM_WRITE, 0x40, MEM_ATOM, 0x0000ffff);
	g_assert_cmpstr(s, ==, "M");
	g_free(s);
	/* a write to a present but unreadable sector is a write hit */
	s = step(&g, MEM_WRITE, 0x40, MEM_ATOM, 0xffff0000);
	g_assert_cmpstr(s, ==, "H");
	g_free(s);
	expect(&g, MEM_READ, 0x40, "H");	/* the two halves cover it */
	rig_free(&g);
}

static void test_lazy_fetch_write_through(void)
{
	struct rig g;
	char *s;

	rig_init(&g, lazy_cfg(SC_WRITE_THROUGH));
	s = step(&g, MEM_WRITE, 0x80, MEM_ATOM, 0xff);	/* forwarded with its mask */
	g_assert_cmpstr(s, ==, "M w0x80&ff");
	g_free(s);
	expect(&g, MEM_READ, 0x80, "S r0x80");
	/* a write-through line is never written back, modified or not */
	expect(&g, MEM_READ, 0x1000, "M r0x1000");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_WB_EVICT], ==, 0);
	rig_free(&g);
}

static void test_fetch_on_write(void)
{
	struct rig g;
	struct sc_config cfg = lazy_cfg(SC_WRITE_BACK);

	cfg.write_miss = SC_FETCH;
	rig_init(&g, cfg);
	expect(&g, MEM_WRITE, 0x20, "M r0x20");
	expect(&g, MEM_READ, 0x20, "H");
	expect(&g, MEM_WRITE, 0x1000, "M r0x1000 w0x20");
	check_counters(&g, "store.accesses=2 store.line_misses=2 store.reads_down=2 "
		       "load.accesses=1 load.hits=1 total.accesses=3 total.hits=1 "
		       "total.line_misses=2 total.reads_down=2 total.writes_down=1 "
		       "evictions=1 wb_evict=1");
	rig_free(&g);
}

static void test_atomics(void)
{
	struct rig g;

	rig_init(&g, lazy_cfg(SC_WRITE_BACK));
	expect(&g, MEM_ATOMIC, 0x0, "M r0x0");	/* fetched, then modified */
	expect(&g, MEM_READ, 0x0, "H");
	expect(&g, MEM_REDUCTION, 0x20, "S r0x20");
	expect(&g, MEM_ATOMIC, 0x20, "H");
	expect(&g, MEM_READ, 0x1000, "M r0x1000 w0x0 w0x20");
	check_counters(&g, "atomic.accesses=2 atomic.hits=1 atomic.line_misses=1 "
		       "atomic.reads_down=1 reduction.accesses=1 reduction.sector_misses=1 "
		       "reduction.reads_down=1 load.accesses=2 load.hits=1 load.line_misses=1 "
		       "load.reads_down=1 total.accesses=5 total.hits=2 total.sector_misses=1 "
		       "total.line_misses=2 total.reads_down=3 total.writes_down=2 "
		       "evictions=1 wb_evict=2");
	rig_free(&g);
}

/* ---- replacement, control, geometry --------------------------------------- */

static void test_lru_and_fifo(void)
{
	for (int fifo = 0; fifo < 2; fifo++) {
		struct rig g;
		struct sc_config cfg = {
			.sets = 1, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
			.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
			.write_miss = SC_ALLOCATE, .count_write_misses = true,
			.replacement = fifo ? SC_FIFO : SC_LRU,
		};

		rig_init(&g, cfg);
		expect(&g, MEM_READ, 0x000, "M r0x0");	/* A */
		expect(&g, MEM_READ, 0x080, "M r0x80");	/* B */
		expect(&g, MEM_READ, 0x000, "H");	/* A again */
		expect(&g, MEM_READ, 0x100, "M r0x100");	/* C evicts B (LRU) or A (FIFO) */
		expect(&g, MEM_READ, fifo ? 0x080 : 0x000, "H");
		expect(&g, MEM_READ, fifo ? 0x000 : 0x080, fifo ? "M r0x0" : "M r0x80");
		rig_free(&g);
	}
}

static void test_flush_and_invalidate(void)
{
	struct rig g;
	struct sc_config cfg = lazy_cfg(SC_WRITE_BACK);

	cfg.write_miss = SC_ALLOCATE;
	cfg.sets = 4;
	rig_init(&g, cfg);
	expect(&g, MEM_WRITE, 0x0, "M");
	expect(&g, MEM_WRITE, 0x60, "S");
	expect(&g, MEM_WRITE, 0x80, "M");
	sc_invalidate(g.c);	/* drops dirty data without writing it */
	g_assert_cmpstr(g.log.s->str, ==, "");
	expect(&g, MEM_READ, 0x0, "M r0x0");
	expect(&g, MEM_WRITE, 0x0, "H");
	expect(&g, MEM_WRITE, 0x20, "S");
	expect(&g, MEM_WRITE, 0x180, "M");
	g_string_truncate(g.log.s, 0);
	sc_flush(g.c);
	g_assert_cmpstr(g.log.s->str, ==, "w0x0 w0x20 w0x180");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_WB_FLUSH], ==, 3);
	expect(&g, MEM_READ, 0x20, "M r0x20");	/* flushed means invalidated */
	rig_free(&g);
}

static void test_larger_sectors(void)
{
	struct rig g;
	struct sc_config cfg = {	/* non-sectored: one 128 B sector per line */
		.sets = 2, .assoc = 1, .line_bytes = 128, .sector_bytes = 128,
		.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
	};
	char *s;

	rig_init(&g, cfg);
	expect(&g, MEM_READ, 0x40, "M r0x0/128");
	expect(&g, MEM_READ, 0x60, "H");
	expect(&g, MEM_WRITE, 0x100, "M");
	expect(&g, MEM_READ, 0x120, "S r0x100/128");	/* 32 of 128 bytes written */
	/* a 128 B write request covers the whole sector at once */
	s = step(&g, MEM_WRITE, 0x300, 128, UINT32_MAX);
	g_assert_cmpstr(s, ==, "M w0x100/128");
	g_free(s);
	expect(&g, MEM_READ, 0x360, "H");
	rig_free(&g);
}

static void test_request_spans_sectors(void)
{
	struct rig g;
	char *s;

	rig_init(&g, lazy_cfg(SC_WRITE_BACK));
	s = step(&g, MEM_READ, 0x40, 64, UINT32_MAX);	/* two 32 B sectors */
	g_assert_cmpstr(s, ==, "M r0x40 r0x60");
	g_free(s);
	g_assert_cmpuint(load(&g, SC_M_ACCESSES), ==, 2);
	g_assert_cmpuint(load(&g, SC_M_LINE_MISSES), ==, 1);
	g_assert_cmpuint(load(&g, SC_M_SECTOR_MISSES), ==, 1);
	rig_free(&g);
}

static void test_local_space_counts_apart(void)
{
	struct rig g;
	struct mem_req r;

	rig_init(&g, lazy_cfg(SC_WRITE_BACK));
	mem_req_init(&r, MEM_READ, 0x0, MEM_ATOM);
	r.space = MEM_LOCAL;
	sc_access(g.c, &r);
	sc_access(g.c, &r);
	g_assert_cmpuint(sc_stats(g.c)[sc_stat_index(MEM_LOCAL, MEM_READ, SC_M_HITS)], ==, 1);
	g_assert_cmpuint(load(&g, SC_M_ACCESSES), ==, 0);
	g_assert_cmpuint(sc_stats(g.c)[SC_S_TOTAL + SC_M_HITS], ==, 1);
	rig_free(&g);
}

static void test_geometry(void)
{
	struct sc_config ok = {
		.size = 4718592, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_FIB_DOUBLE,
	};
	char *why = NULL;
	struct sc_cache *c = sc_new(&ok, NULL, record, NULL, &why);

	g_assert_nonnull(c);
	g_assert_cmpuint(sc_sets(c), ==, 1152);	/* integer division, as the reference */
	g_assert_true(sc_resize(c, 65536, &why));
	g_assert_cmpuint(sc_sets(c), ==, 16);
	sc_free(c);

#define REFUSED(field_change, text) do {			\
		struct sc_config x = ok;			\
		field_change;					\
		g_assert_null(sc_new(&x, NULL, record, NULL, &why));	\
		if (!strstr(why, text))				\
			g_error("%s: '%s' lacks '%s'", #field_change, why, text); \
		g_free(why);					\
	} while (0)
	REFUSED(x.assoc = 0, "assoc is not given and cannot be derived");
	REFUSED(x.sector_bytes = 48, "power of two");
	REFUSED(x.sector_bytes = 256, "divides line_bytes");
	REFUSED(x.sector_bytes = 16, "at least 32");
	REFUSED((x.line_bytes = 2048, x.sector_bytes = 32), "at most 32");
	REFUSED((x.size = 1024, x.assoc = 16), "larger than the 8 lines");
	REFUSED(x.sets = 16, "not all three");
	REFUSED(x.size = 0, "give either size or sets as well as assoc 32");
	REFUSED(x.index = SET_INDEX_LINEAR, "power-of-two");
	REFUSED((x.size = 128 * 128 * 4, x.assoc = 4, x.index = SET_INDEX_IPOLY), "16, 32 or 64");
#undef REFUSED
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sector-cache/unit/wb-allocate", test_unit_wb_allocate);
	g_test_add_func("/sector-cache/unit/wb-no-allocate", test_unit_wb_no_allocate);
	g_test_add_func("/sector-cache/unit/wt-allocate", test_unit_wt_allocate);
	g_test_add_func("/sector-cache/unit/wt-no-allocate", test_unit_wt_no_allocate);
	g_test_add_func("/sector-cache/unit/counters", test_unit_counters);
	g_test_add_func("/sector-cache/count-write-misses-off", test_count_write_misses_off);
	g_test_add_func("/sector-cache/lazy-fetch/worked-example", test_lazy_fetch_worked_example);
	g_test_add_func("/sector-cache/lazy-fetch/masks-add-up", test_lazy_fetch_masks_add_up);
	g_test_add_func("/sector-cache/lazy-fetch/write-through", test_lazy_fetch_write_through);
	g_test_add_func("/sector-cache/fetch-on-write", test_fetch_on_write);
	g_test_add_func("/sector-cache/atomics", test_atomics);
	g_test_add_func("/sector-cache/lru-and-fifo", test_lru_and_fifo);
	g_test_add_func("/sector-cache/flush-and-invalidate", test_flush_and_invalidate);
	g_test_add_func("/sector-cache/larger-sectors", test_larger_sectors);
	g_test_add_func("/sector-cache/request-spans-sectors", test_request_spans_sectors);
	g_test_add_func("/sector-cache/local-space", test_local_space_counts_apart);
	g_test_add_func("/sector-cache/geometry", test_geometry);
	return g_test_run();
}
