/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sector cache state machine, one case per transition: the reference's
 * 12-access unit vector (a 512 B 2-way cache) for its four write policies,
 * a worked example of GPGPU-Sim's write-validate (lazy fetch) policy
 * (on a TITAN V L2 slice), atomics and reductions at the L2, bypass at a
 * write-through L1, dirty-line protection, kernel ends, FIFO against LRU,
 * flush and invalidate, larger sectors, requests spanning sectors, the
 * adaptive L1 (ways from each kernel's size, up to 384 and beyond), and
 * the geometries it must refuse; then the component's parameters.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include "rr_merge.h"
#include "sector_cache.h"
#include "internal.h"
#include "simrun.h"

struct log {
	GString *s;
	const struct mem_req *last;	/* the last request sent down */
};

/* What went down: r (read), w (write), a (atomic), d (reduction), the
 * address, /size when not 32 B, &mask for a partial write, ! when it
 * carries MEM_F_BYPASS. */
static void record(void *ctx, const struct mem_req *r)
{
	struct log *l = ctx;

	if (!l)
		return;
	g_string_append_printf(l->s, "%s%c0x%" G_GINT64_MODIFIER "x",
			       l->s->len ? " " : "",
			       "?rwad"[MIN(r->hdr.kind, (uint32_t)MEM_REDUCTION)], r->addr);
	if (r->size != MEM_ATOM)
		g_string_append_printf(l->s, "/%u", r->size);
	if (r->hdr.kind == MEM_WRITE && r->size == MEM_ATOM && r->mask != UINT32_MAX)
		g_string_append_printf(l->s, "&%x", r->mask);
	if (r->flags & MEM_F_BYPASS)
		g_string_append_c(l->s, '!');
	l->last = r;
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

/* One access of request r: "H", "S" (sector miss) or "M", then the
 * traffic it caused. */
static char *step_req(struct rig *g, const struct mem_req *r)
{
	g_string_truncate(g->log.s, 0);
	g->log.last = NULL;

	enum sc_probe p = sc_access(g->c, r);

	return g_strdup_printf("%c%s%s", "HSM"[p], g->log.s->len ? " " : "", g->log.s->str);
}

static char *step(struct rig *g, enum mem_op op, uint64_t addr, uint32_t size,
		  uint32_t mask)
{
	struct mem_req r;

	mem_req_init(&r, op, addr, size);
	r.mask = mask;
	return step_req(g, &r);
}

/* One access with a byte mask (a partial write), checked against want. */
static void expect_masked(struct rig *g, enum mem_op op, uint64_t addr,
			  uint32_t mask, const char *want)
{
	char *got = step(g, op, addr, MEM_ATOM, mask);

	if (strcmp(got, want))
		g_error("op %d 0x%" G_GINT64_MODIFIER "x &%x: got '%s', want '%s'",
			op, addr, mask, got, want);
	g_free(got);
}

/* want: "H", "S", "M" and traffic; "m" matches either kind of miss (the
 * reference's unit vector writes M for both).  A request of SM sm. */
static void expect_sm(struct rig *g, uint16_t sm, enum mem_op op, uint64_t addr,
		      const char *want)
{
	struct mem_req r;
	char *got;

	mem_req_init(&r, op, addr, MEM_ATOM);
	r.sm = sm;
	got = step_req(g, &r);
	if (want[0] == 'm' && got[0] != 'H')
		got[0] = 'm';
	if (strcmp(got, want))
		g_error("SM %u %c 0x%" G_GINT64_MODIFIER "x: got '%s', want '%s'", sm,
			"?RWAD"[MIN(op, MEM_REDUCTION)], addr, got, want);
	g_free(got);
}

static void expect(struct rig *g, enum mem_op op, uint64_t addr, const char *want)
{
	expect_sm(g, 0, op, addr, want);
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
						: i == SC_S_WB_FLUSH ? "wb_flush"
						: i == SC_S_DIRTY_AT_END ? "dirty_at_kernel_end"
						: i == SC_S_PROTECT_OVERRIDES ? "protect_overrides" : "hit_rate");
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

/* ---- reference policies: 512 B, 2-way, fib_double (lines 0,2,4,5 -> set 0) */

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
	/* worked out by hand from the stream, and agreeing with the totals the
	 * reference's cache gives: 7 reads with 6 misses, 4 store misses, 4
	 * write-backs and 1 flushed sector */
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

/* The reference cache's counters for each policy, on the same stream. */
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

/* ---- write-validate (lazy fetch on read), write-back L2 ------------------ */

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

/* ---- write-validate at the hardware-faithful geometries ------------------- */

/* A TITAN V L2 slice (GPGPU-Sim's SM7_TITANV): 32 sets x 24 ways, ipoly on the
 * partition address (= the address here), write-back, lazy fetch. */
static struct sc_config titanv_l2_slice(void)
{
	return (struct sc_config){
		.sets = 32, .assoc = 24, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_IPOLY, .index_on_partition = true,
		.write_hit = SC_WRITE_BACK, .write_miss = SC_LAZY_FETCH,
		.count_write_misses = true,
	};
}

/* A TITAN V L1 (GPGPU-Sim's SM7_TITANV): 4 sets whose ways each kernel's
 * size gives, linear index, write-through, lazy fetch. */
static struct sc_config titanv_l1(void)
{
	return (struct sc_config){
		.sets = 4, .size_from_kernel = true, .line_bytes = 128,
		.sector_bytes = 32, .index = SET_INDEX_LINEAR,
		.write_hit = SC_WRITE_THROUGH, .write_miss = SC_LAZY_FETCH,
		.count_write_misses = true,
	};
}

/* The L1 a kernel without shared memory gets: 128 KiB, 256 ways. */
static void rig_init_l1(struct rig *g, struct sc_config cfg)
{
	char *why = NULL;

	rig_init(g, cfg);
	if (!sc_resize(g->c, 128 * 1024, &why))
		g_error("%s", why);
	g_assert_cmpuint(sc_ways(g->c), ==, 256);
}

/* n line addresses after `addr` that share its set. */
static void lines_in_set_of(const struct sc_cache *c, uint64_t addr,
			    uint64_t *out, unsigned n)
{
	uint32_t set = sc_set_of(c, addr, addr);
	uint64_t a = addr;

	for (unsigned i = 0; i < n; i++) {
		do
			a += 128;
		while (sc_set_of(c, a, a) != set);
		out[i] = a;
	}
}

/* expect() with a printf-made answer. */
static void G_GNUC_PRINTF(4, 5) expectf(struct rig *g, enum mem_op op,
					uint64_t addr, const char *fmt, ...)
{
	va_list ap;
	char *want;

	va_start(ap, fmt);
	want = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	expect(g, op, addr, want);
	g_free(want);
}

/*
 * The write-validate worked example, step by step: W 4 bytes (MISS, nothing
 * to DRAM), R (SECTOR_MISS, 1 DRAM read), W 32 bytes (SECTOR_MISS, readable
 * at once), R (HIT); evicting the line then writes its 2 sectors to DRAM.
 */
static void test_hw_l2_worked_example(void)
{
	const uint64_t a = UINT64_C(0x7f2a40001000);
	uint64_t other[24];
	struct rig g;

	rig_init(&g, titanv_l2_slice());
	lines_in_set_of(g.c, a, other, 24);
	expect_masked(&g, MEM_WRITE, a, 0xf, "M");
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 1);
	expectf(&g, MEM_READ, a, "S r0x%" G_GINT64_MODIFIER "x", a);
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 1);	/* still modified */
	expect(&g, MEM_WRITE, a + 0x20, "S");
	expect(&g, MEM_READ, a + 0x20, "H");
	expect(&g, MEM_READ, a, "H");
	/* 23 more lines fill the set; the 24th evicts the LRU line, a's */
	for (int i = 0; i < 23; i++)
		expectf(&g, MEM_READ, other[i], "M r0x%" G_GINT64_MODIFIER "x", other[i]);
	expectf(&g, MEM_READ, other[23], "M r0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x",
		other[23], a, a + 0x20);
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 0);
	check_counters(&g, "store.accesses=2 store.sector_misses=1 store.line_misses=1 "
		       "load.accesses=27 load.hits=2 load.sector_misses=1 load.line_misses=24 "
		       "load.reads_down=25 total.accesses=29 total.hits=2 total.sector_misses=2 "
		       "total.line_misses=25 total.reads_down=25 total.writes_down=2 "
		       "evictions=1 wb_evict=2");
	rig_free(&g);
}

/* Write-validate: a partial write leaves the sector unreadable, so the
 * next read is a sector miss with one fetch, and the one after it a hit;
 * at the write-through L1 and the write-back L2 alike. */
static void test_hw_partial_write_then_read(void)
{
	const uint64_t x = UINT64_C(0x7f2a40003040);

	for (int wt = 0; wt < 2; wt++) {
		struct rig g;

		if (wt)
			rig_init_l1(&g, titanv_l1());
		else
			rig_init(&g, titanv_l2_slice());
		expect_masked(&g, MEM_WRITE, x, 0x00ff00ff,
			      wt ? "M w0x7f2a40003040&ff00ff" : "M");
		expect_masked(&g, MEM_WRITE, x, 0xff00ff00,	/* the rest: not a fetch */
			      wt ? "H w0x7f2a40003040&ff00ff00" : "H");
		expect(&g, MEM_READ, x, "H");		/* the two halves cover it */
		expect_masked(&g, MEM_WRITE, x + 0x20, 0x0000fff0,
			      wt ? "S w0x7f2a40003060&fff0" : "S");
		expect(&g, MEM_READ, x + 0x20, "S r0x7f2a40003060");
		expect(&g, MEM_READ, x + 0x20, "H");
		g_assert_cmpuint(load(&g, SC_M_SECTOR_MISSES), ==, 1);
		g_assert_cmpuint(load(&g, SC_M_READS_DOWN), ==, 1);
		g_assert_cmpuint(load(&g, SC_M_HITS), ==, 2);
		g_assert_cmpuint(store(&g, SC_M_WRITES_DOWN), ==, wt ? 3 : 0);
		rig_free(&g);
	}
}

/* A write of the whole sector makes it readable at once: no fetch. */
static void test_hw_full_write_then_read(void)
{
	const uint64_t y = UINT64_C(0x7f2a40004080);

	for (int wt = 0; wt < 2; wt++) {
		struct rig g;

		if (wt)
			rig_init_l1(&g, titanv_l1());
		else
			rig_init(&g, titanv_l2_slice());
		expect(&g, MEM_WRITE, y, wt ? "M w0x7f2a40004080" : "M");
		expect(&g, MEM_READ, y, "H");
		expect(&g, MEM_WRITE, y + 0x20, wt ? "S w0x7f2a400040a0" : "S");
		expect(&g, MEM_READ, y + 0x20, "H");
		check_counters(&g, wt ?
			       "store.accesses=2 store.sector_misses=1 store.line_misses=1 "
			       "store.writes_down=2 load.accesses=2 load.hits=2 total.accesses=4 "
			       "total.hits=2 total.sector_misses=1 total.line_misses=1 "
			       "total.writes_down=2" :
			       "store.accesses=2 store.sector_misses=1 store.line_misses=1 "
			       "load.accesses=2 load.hits=2 total.accesses=4 total.hits=2 "
			       "total.sector_misses=1 total.line_misses=1");
		rig_free(&g);
	}
}

/*
 * An atomic or a reduction at the L2 (data: the op) is a read-modify-write
 * probed as a read: a MISS or SECTOR_MISS fetches the sector; every case
 * leaves it modified and readable.  Its counters are its kind's, never the
 * loads'; evicting the line writes the modified sectors back.
 */
static void test_hw_l2_read_modify_write(gconstpointer data)
{
	enum mem_op op = GPOINTER_TO_UINT(data);
	const char *k = op == MEM_ATOMIC ? "atomic" : "reduction";
	const uint64_t a = UINT64_C(0x7f2a40002000);
	uint64_t other[24];
	struct rig g;
	char *want;

	rig_init(&g, titanv_l2_slice());
	lines_in_set_of(g.c, a, other, 24);
	expectf(&g, op, a, "M r0x%" G_GINT64_MODIFIER "x", a);	/* MISS */
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 1);
	expect(&g, MEM_READ, a, "H");				/* readable */
	expectf(&g, MEM_READ, a + 0x20, "S r0x%" G_GINT64_MODIFIER "x", a + 0x20);
	expect(&g, op, a + 0x20, "H");				/* HIT: nothing down */
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 2);
	expect_masked(&g, MEM_WRITE, a + 0x40, 0xf, "S");	/* modified, not readable */
	expectf(&g, op, a + 0x40, "S r0x%" G_GINT64_MODIFIER "x", a + 0x40);
	expect(&g, MEM_READ, a + 0x40, "H");
	expectf(&g, op, a + 0x60, "S r0x%" G_GINT64_MODIFIER "x", a + 0x60);	/* invalid sector */
	g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 4);
	for (int i = 0; i < 23; i++)
		expectf(&g, MEM_READ, other[i], "M r0x%" G_GINT64_MODIFIER "x", other[i]);
	expectf(&g, MEM_READ, other[23],
		"M r0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x w0x%" G_GINT64_MODIFIER "x",
		other[23], a, a + 0x20, a + 0x40, a + 0x60);
	want = g_strdup_printf("%s.accesses=4 %s.hits=1 %s.sector_misses=2 %s.line_misses=1 "
			       "%s.reads_down=3 load.accesses=27 load.hits=2 load.sector_misses=1 "
			       "load.line_misses=24 load.reads_down=25 store.accesses=1 "
			       "store.sector_misses=1 total.accesses=32 total.hits=3 "
			       "total.sector_misses=4 total.line_misses=25 total.reads_down=28 "
			       "total.writes_down=4 evictions=1 wb_evict=4", k, k, k, k, k);
	check_counters(&g, want);
	g_free(want);
	rig_free(&g);
}

/*
 * bypass = flagged at the write-through L1: a flagged load, atomic or
 * reduction is a line miss of its kind even when the line is there, goes
 * down as the very request that came, and changes nothing: a later load of
 * the same sector still misses.
 */
static void test_hw_l1_bypass(void)
{
	const uint64_t x = UINT64_C(0x7f2a40005000);
	struct sc_config cfg = titanv_l1();
	struct mem_req ld, at, red;
	struct rig g;
	char *s;

	cfg.bypass = SC_BYPASS_FLAGGED;
	rig_init_l1(&g, cfg);
	mem_req_init(&ld, MEM_READ, x, MEM_ATOM);
	ld.flags = MEM_F_BYPASS;
	at = ld;
	at.hdr.kind = MEM_ATOMIC;
	at.mask = 0xf;
	red = at;
	red.hdr.kind = MEM_REDUCTION;

	s = step_req(&g, &ld);
	g_assert_cmpstr(s, ==, "M r0x7f2a40005000!");
	g_assert_true(g.log.last == &ld);	/* forwarded unchanged */
	g_free(s);
	expect(&g, MEM_READ, x, "M r0x7f2a40005000");	/* nothing was allocated */
	s = step_req(&g, &ld);			/* the line is there: a miss all the same */
	g_assert_cmpstr(s, ==, "M r0x7f2a40005000!");
	g_free(s);
	s = step_req(&g, &at);
	g_assert_cmpstr(s, ==, "M a0x7f2a40005000!");
	g_assert_true(g.log.last == &at);
	g_free(s);
	s = step_req(&g, &red);
	g_assert_cmpstr(s, ==, "M d0x7f2a40005000!");
	g_free(s);
	expect(&g, MEM_READ, x, "H");		/* the load's line, untouched */
	s = step_req(&g, &ld);
	g_assert_cmpstr(s, ==, "M r0x7f2a40005000!");
	g_free(s);
	expect(&g, MEM_READ, x + 0x20, "S r0x7f2a40005020");
	check_counters(&g, "load.accesses=6 load.hits=1 load.sector_misses=1 load.line_misses=4 "
		       "load.reads_down=5 atomic.accesses=1 atomic.line_misses=1 "
		       "atomic.reads_down=1 reduction.accesses=1 reduction.line_misses=1 "
		       "reduction.reads_down=1 total.accesses=8 total.hits=1 "
		       "total.sector_misses=1 total.line_misses=6 total.reads_down=7");
	rig_free(&g);
}

/* The recency order is state too: a bypassing load of the LRU line leaves
 * it the LRU line; with bypass = none the same request is an ordinary
 * hit that makes it the most recent. */
static void test_hw_bypass_keeps_lru(void)
{
	for (int flagged = 0; flagged < 2; flagged++) {
		struct sc_config cfg = titanv_l1();
		struct mem_req r;
		struct rig g;
		char *s;

		cfg.sets = 1;
		cfg.assoc = 2;
		cfg.size_from_kernel = false;
		cfg.bypass = flagged ? SC_BYPASS_FLAGGED : SC_BYPASS_NONE;
		rig_init(&g, cfg);
		expect(&g, MEM_READ, 0x000, "M r0x0");	/* A */
		expect(&g, MEM_READ, 0x080, "M r0x80");	/* B; A is the LRU line */
		mem_req_init(&r, MEM_READ, 0x000, MEM_ATOM);
		r.flags = MEM_F_BYPASS;
		s = step_req(&g, &r);
		g_assert_cmpstr(s, ==, flagged ? "M r0x0!" : "H");
		g_free(s);
		expect(&g, MEM_READ, 0x100, "M r0x100");	/* C evicts A, or B */
		expect(&g, MEM_READ, flagged ? 0x080 : 0x000, "H");
		expect(&g, MEM_READ, flagged ? 0x000 : 0x080, flagged ? "M r0x0" : "M r0x80");
		rig_free(&g);
	}
}

/* A kernel's end with final_writeback = report counts the dirty sectors
 * (dirty_at_kernel_end) and sends nothing down; count writes them back;
 * a write-through cache has nothing dirty to report. */
static void test_hw_dirty_at_kernel_end(void)
{
	static const struct {
		bool l1;
		enum sc_final_writeback final;
		const char *log;
		uint64_t dirty, flushed;
	} cases[] = {
		{ false, SC_FINAL_REPORT, "", 2, 0 },
		{ false, SC_FINAL_COUNT, "w0x7f2a40006000 w0x7f2a40006020", 0, 2 },
		{ false, SC_FINAL_NONE, "", 0, 0 },
		{ true, SC_FINAL_REPORT, "", 0, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const uint64_t a = UINT64_C(0x7f2a40006000);
		struct sc_kernel_end end = { cases[i].final, true };
		struct rig g;

		if (cases[i].l1)
			rig_init_l1(&g, titanv_l1());
		else
			rig_init(&g, titanv_l2_slice());
		g_free(step(&g, MEM_WRITE, a, MEM_ATOM, UINT32_MAX));
		g_free(step(&g, MEM_WRITE, a + 0x20, MEM_ATOM, 0xf));
		g_free(step(&g, MEM_READ, a + 0x1000, MEM_ATOM, UINT32_MAX));
		g_string_truncate(g.log.s, 0);
		sc_end_kernel(g.c, &end);
		g_assert_cmpstr(g.log.s->str, ==, cases[i].log);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_DIRTY_AT_END], ==, cases[i].dirty);
		g_assert_cmpuint(sc_stats(g.c)[SC_S_WB_FLUSH], ==, cases[i].flushed);
		/* invalidated: the next kernel starts cold, nothing left dirty */
		expectf(&g, MEM_READ, a, "M r0x%" G_GINT64_MODIFIER "x", a);
		g_assert_cmpuint(sc_dirty_sectors(g.c), ==, 0);
		rig_free(&g);
	}
}

/* 2 sets x 2 ways, linear index (even lines in set 0), write-back with
 * lazy fetch unless wt, and protect_dirty_pct = pct. */
static void rig_init_protect(struct rig *g, uint32_t pct, bool wt)
{
	rig_init(g, (struct sc_config){
		.sets = 2, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_LINEAR,
		.write_hit = wt ? SC_WRITE_THROUGH : SC_WRITE_BACK,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		.protect_dirty_pct = pct,
	});
}

/*
 * protect_dirty_pct: while 100 x (lines with a modified sector) / lines is
 * below it, such lines are no victims; above, plain LRU; a set of nothing
 * but protected lines evicts its LRU line and counts protect_overrides.
 */
static void test_hw_protect_dirty(void)
{
	struct rig g;

	/* 0: plain LRU, the dirty line goes */
	rig_init_protect(&g, 0, false);
	expect(&g, MEM_WRITE, 0x000, "M");
	expect(&g, MEM_READ, 0x100, "M r0x100");
	expect(&g, MEM_READ, 0x200, "M r0x200 w0x0");
	rig_free(&g);

	/* 50 % of 4 lines: protected while fewer than 2 lines are modified */
	rig_init_protect(&g, 50, false);
	expect(&g, MEM_WRITE, 0x000, "M");		/* line 0 modified: 1 of 4 */
	expect(&g, MEM_READ, 0x100, "M r0x100");
	expect(&g, MEM_READ, 0x200, "M r0x200");	/* line 0 the LRU, kept: line 2 goes */
	expect(&g, MEM_READ, 0x100, "M r0x100");	/* and again: line 4 goes */
	expect(&g, MEM_READ, 0x000, "H");
	expect(&g, MEM_READ, 0x100, "H");		/* line 0 the LRU line again */
	expect(&g, MEM_WRITE, 0x080, "M");		/* 2 of 4 modified: 50 %, no protection */
	expect(&g, MEM_READ, 0x200, "M r0x200 w0x0");
	/* line 0 gone, 1 of 4 modified: line 1 is protected again */
	expect(&g, MEM_READ, 0x180, "M r0x180");
	expect(&g, MEM_READ, 0x280, "M r0x280");	/* line 3 goes, not line 1 */
	expect(&g, MEM_READ, 0x080, "H");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_PROTECT_OVERRIDES], ==, 0);
	rig_free(&g);

	/* a write-back of everything or an invalidation leaves no line
	 * modified: one line modified afterwards is 1 of 4, protected */
	for (int inval = 0; inval < 2; inval++) {
		rig_init_protect(&g, 50, false);
		expect(&g, MEM_WRITE, 0x000, "M");
		expect(&g, MEM_WRITE, 0x080, "M");
		if (inval)
			sc_invalidate(g.c);
		else
			sc_write_back_dirty(g.c);
		expect(&g, MEM_WRITE, 0x000, inval ? "M" : "H");
		expect(&g, MEM_READ, 0x100, "M r0x100");
		expect(&g, MEM_READ, 0x200, "M r0x200");
		rig_free(&g);
	}

	/* 100 %: every modified line is protected; a set of two of them
	 * evicts its LRU line all the same, counted */
	rig_init_protect(&g, 100, false);
	expect(&g, MEM_WRITE, 0x000, "M");
	expect(&g, MEM_WRITE, 0x100, "M");
	expect(&g, MEM_READ, 0x200, "M r0x200 w0x0");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_PROTECT_OVERRIDES], ==, 1);
	/* line 2 (LRU) modified, line 4 not: line 4 goes, no override */
	expect(&g, MEM_READ, 0x000, "M r0x0");
	expect(&g, MEM_READ, 0x100, "H");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_PROTECT_OVERRIDES], ==, 1);
	rig_free(&g);

	/* the only eligible victim is the most recent line: it goes, and
	 * the set's recency order stays whole (1 set of 3 ways, 100 %) */
	rig_init(&g, (struct sc_config){
		.sets = 1, .assoc = 3, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		.protect_dirty_pct = 100,
	});
	expect(&g, MEM_WRITE, 0x000, "M");		/* A modified */
	expect(&g, MEM_WRITE, 0x080, "M");		/* B modified */
	expect(&g, MEM_READ, 0x100, "M r0x100");	/* C clean, the most recent */
	expect(&g, MEM_READ, 0x180, "M r0x180");	/* C is the one victim */
	expect(&g, MEM_READ, 0x000, "H");		/* LRU to MRU: B D A */
	expect(&g, MEM_WRITE, 0x180, "H");		/* all 3 modified: no protection */
	expect(&g, MEM_READ, 0x200, "M r0x200 w0x80");	/* B, the LRU line, goes */
	expect(&g, MEM_READ, 0x000, "H");
	expect(&g, MEM_READ, 0x180, "H");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_PROTECT_OVERRIDES], ==, 0);
	rig_free(&g);

	/*
	 * The walk past protected lines resumes after the victim it found
	 * last, the lines before all being modified; a flush that leaves the
	 * lines (the model's final_writeback = count without invalidation)
	 * makes them clean, and the next walk starts from the oldest line.
	 * FIFO, so that a write hit leaves a line where it is (1 set of 4
	 * ways, 100 %).
	 */
	rig_init(&g, (struct sc_config){
		.sets = 1, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		.protect_dirty_pct = 100, .replacement = SC_FIFO,
	});
	expect(&g, MEM_WRITE, 0x000, "M");		/* A modified */
	expect(&g, MEM_WRITE, 0x080, "M");		/* B modified */
	expect(&g, MEM_READ, 0x100, "M r0x100");	/* C */
	expect(&g, MEM_READ, 0x180, "M r0x180");	/* D: oldest to newest A B C D */
	expect(&g, MEM_READ, 0x200, "M r0x200");	/* C goes: A B D E */
	{
		struct sc_kernel_end keep = { SC_FINAL_COUNT, false };

		sc_end_kernel(g.c, &keep);		/* A and B written back, clean */
	}
	g_string_truncate(g.log.s, 0);
	expect(&g, MEM_WRITE, 0x000, "H");		/* A modified again, in place */
	expect(&g, MEM_READ, 0x280, "M r0x280");	/* B, the oldest clean line, goes */
	expect(&g, MEM_READ, 0x180, "H");		/* D stays */
	expect(&g, MEM_READ, 0x080, "M r0x80");
	rig_free(&g);

	/* a write-through L1's modified (never written back) lines count
	 * and are protected the same way: the partial line survives */
	rig_init_protect(&g, 50, true);
	expect_masked(&g, MEM_WRITE, 0x000, 0xf, "M w0x0&f");
	expect(&g, MEM_READ, 0x100, "M r0x100");
	expect(&g, MEM_READ, 0x200, "M r0x200");
	expect(&g, MEM_READ, 0x000, "S r0x0");		/* still there, unreadable */
	expect(&g, MEM_READ, 0x100, "M r0x100");
	rig_free(&g);
}

/*
 * The adaptive L1 (unified storage less the carveout): with sets = 4 and
 * size_from_kernel, each
 * kernel's size gives the ways: 192 KiB (A100, no shared memory) is 384
 * ways, beyond the 256 a byte can link.  True LRU over all of them, then
 * other sizes, each starting cold.
 */
static void test_hw_adaptive_ways(void)
{
	struct rig g;
	char *why = NULL;
	uint64_t a;

	rig_init(&g, titanv_l1());
	g_assert_cmpuint(sc_ways(g.c), ==, 0);	/* no size before a kernel's */
	g_assert_true(sc_resize(g.c, 192 * 1024, &why));
	g_assert_cmpuint(sc_sets(g.c), ==, 4);
	g_assert_cmpuint(sc_ways(g.c), ==, 384);
	/* set 0: lines 0, 4, 8, ... (addresses 512 apart) */
	for (a = 0; a < 384 * 512; a += 512)
		expectf(&g, MEM_READ, a, "M r0x%" G_GINT64_MODIFIER "x", a);
	for (a = 384 * 512; a > 0; a -= 512)	/* newest first: line 0 ends the MRU */
		expect(&g, MEM_READ, a - 512, "H");
	/* the LRU line is now the last one filled */
	expect(&g, MEM_READ, 384 * 512, "M r0x30000");
	expect(&g, MEM_READ, 0, "H");
	expect(&g, MEM_READ, 383 * 512, "M r0x2fe00");	/* evicts the 382nd */
	expect(&g, MEM_READ, 512, "H");
	expect(&g, MEM_READ, 382 * 512, "M r0x2fc00");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_EVICTIONS], ==, 3);

	/* the same size again: an invalidation */
	g_assert_true(sc_resize(g.c, 192 * 1024, &why));
	expect(&g, MEM_READ, 0, "M r0x0");
	/* 28 KiB (A100, 164 KiB of shared memory): 56 ways */
	g_assert_true(sc_resize(g.c, 28 * 1024, &why));
	g_assert_cmpuint(sc_ways(g.c), ==, 56);
	for (a = 0; a < 57 * 512; a += 512)
		expectf(&g, MEM_READ, a, "M r0x%" G_GINT64_MODIFIER "x", a);
	expect(&g, MEM_READ, 512, "H");
	expect(&g, MEM_READ, 0, "M r0x0");		/* the 57th line evicted it */
	/* 128 KiB: 256 ways, the last that byte links reach */
	g_assert_true(sc_resize(g.c, 128 * 1024, &why));
	g_assert_cmpuint(sc_ways(g.c), ==, 256);
	for (a = 0; a < 257 * 512; a += 512)
		expectf(&g, MEM_READ, a, "M r0x%" G_GINT64_MODIFIER "x", a);
	expect(&g, MEM_READ, 0, "M r0x0");
	/* 512 KiB: 1024 ways, the most */
	g_assert_true(sc_resize(g.c, 512 * 1024, &why));
	g_assert_cmpuint(sc_ways(g.c), ==, 1024);
	for (a = 0; a < 1025 * 512; a += 512)
		g_free(step(&g, MEM_READ, a, MEM_ATOM, UINT32_MAX));
	expect(&g, MEM_READ, 512, "H");
	expect(&g, MEM_READ, 0, "M r0x0");
	/* beyond, or less than a way per set: refused, the cache kept */
	g_assert_false(sc_resize(g.c, 513 * 1024, &why));
	g_assert_nonnull(strstr(why, "1026 ways; expected 1 to 1024"));
	g_free(why);
	g_assert_false(sc_resize(g.c, 256, &why));
	g_assert_nonnull(strstr(why, "0 ways"));
	g_free(why);
	g_assert_cmpuint(sc_ways(g.c), ==, 1024);
	expect(&g, MEM_READ, 0, "H");
	rig_free(&g);
}

/* Dirty-line protection over 384 ways: the walk to the least recent
 * clean line follows 16-bit links. */
static void test_hw_protect_wide(void)
{
	struct sc_config cfg = titanv_l1();
	struct rig g;
	char *why = NULL;
	uint64_t a;

	cfg.protect_dirty_pct = 25;
	rig_init(&g, cfg);
	g_assert_true(sc_resize(g.c, 192 * 1024, &why));
	/* set 0 full: the 300 oldest lines modified (300 of 1536 lines is
	 * below 25 %), then 84 clean ones */
	for (a = 0; a < 384 * 512; a += 512)
		g_free(step(&g, a < 300 * 512 ? MEM_WRITE : MEM_READ, a, MEM_ATOM, 0xf));
	/* the victims are the clean lines, oldest first */
	expect(&g, MEM_READ, 384 * 512, "M r0x30000");
	expect(&g, MEM_READ, 300 * 512, "M r0x25800");
	expect(&g, MEM_READ, 0, "S r0x0");		/* the LRU line, protected */
	expect(&g, MEM_READ, 302 * 512, "H");
	g_assert_cmpuint(sc_stats(g.c)[SC_S_PROTECT_OVERRIDES], ==, 0);
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

/*
 * sm_memos: each SM's last line is remembered, and a request of that line
 * takes the way remembered.  What it answers must be what a lookup would
 * have: the line moves to the front of the set, and a line that left the
 * set (evicted, invalidated, or another set's state loaded over it) is
 * looked up again.  Line 0 is the one whose tag an empty way has too.
 */
static void test_sm_memos(void)
{
	struct rig g;
	struct sc_config cfg = {
		.sets = 1, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		.index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		.write_miss = SC_ALLOCATE, .count_write_misses = false,
		.replacement = SC_LRU, .sm_memos = 4,
	};
	void *empty;

	rig_init(&g, cfg);
	empty = g_malloc(sc_set_state_bytes(g.c));
	sc_set_save(g.c, 0, empty);
	/* a line an SM asked for, then another's: the first moves to the
	 * front again when its SM comes back, so the next miss evicts the
	 * second */
	expect_sm(&g, 0, MEM_READ, 0x080, "M r0x80");	/* A */
	expect_sm(&g, 1, MEM_READ, 0x100, "M r0x100");	/* B */
	expect_sm(&g, 0, MEM_READ, 0x0a0, "S r0xa0");	/* A, from SM 0's memo */
	expect_sm(&g, 2, MEM_READ, 0x180, "M r0x180");	/* C evicts B */
	expect_sm(&g, 0, MEM_READ, 0x0a0, "H");
	expect_sm(&g, 1, MEM_READ, 0x100, "M r0x100");	/* B left: evicts C */
	/* SM 1's line was evicted by SM 2's while SM 1 was away */
	expect_sm(&g, 2, MEM_READ, 0x200, "M r0x200");	/* D evicts A */
	expect_sm(&g, 0, MEM_READ, 0x080, "M r0x80");	/* A evicts B */
	expect_sm(&g, 1, MEM_READ, 0x100, "M r0x100");
	/* an invalidation forgets every line */
	expect_sm(&g, 3, MEM_WRITE, 0x300, "M");
	sc_invalidate(g.c);
	expect_sm(&g, 3, MEM_WRITE, 0x320, "M");
	/* an SM beyond sm_memos is served as ever */
	expect_sm(&g, 7, MEM_READ, 0x300, "S r0x300");
	/* line 0, then the empty set loaded over it: ways of tag 0 */
	expect_sm(&g, 2, MEM_READ, 0x000, "M r0x0");
	expect_sm(&g, 2, MEM_READ, 0x020, "S r0x20");
	sc_set_load(g.c, 0, empty);
	expect_sm(&g, 2, MEM_READ, 0x020, "M r0x20");
	g_free(empty);
	rig_free(&g);
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
	g_assert_cmpuint(sc_sets(c), ==, 16);	/* size and assoc given: the sets follow */
	g_assert_cmpuint(sc_ways(c), ==, 32);
	sc_free(c);

	/* any two of size, sets and assoc: a TITAN V L2 slice */
	struct sc_config slice = { .size = 96 * 1024, .sets = 32, .line_bytes = 128,
				   .sector_bytes = 32, .index = SET_INDEX_IPOLY };

	c = sc_new(&slice, NULL, record, NULL, &why);
	g_assert_nonnull(c);
	g_assert_cmpuint(sc_ways(c), ==, 24);
	g_assert_true(sc_resize(c, 48 * 1024, &why));	/* sets given: the ways follow */
	g_assert_cmpuint(sc_sets(c), ==, 32);
	g_assert_cmpuint(sc_ways(c), ==, 12);
	sc_free(c);
	slice.size = 0;
	slice.assoc = 24;
	c = sc_new(&slice, NULL, record, NULL, &why);
	g_assert_nonnull(c);
	g_assert_cmpuint(sc_sets(c) * sc_ways(c), ==, 768);
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
	REFUSED((x.assoc = 0, x.size = 0, x.sets = 4), "cannot be derived from sets 4 alone");
	REFUSED(x.line_bytes = 0, "must not be zero");
	REFUSED(x.assoc = 1025, "at most 1024 ways");
	REFUSED((x.size = 0, x.sets = 4, x.assoc = 1025), "at most 1024 ways");
	REFUSED((x.sets = 4, x.assoc = 0, x.size = 4 * 128 * 1025), "1025 ways; expected 1 to 1024");
	REFUSED(x.protect_dirty_pct = 101, "a percentage from 0 to 100");
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

/* ---- the component: parameters, kernel sizes ------------------------------ */

static char *tmpdir;

/* Build and run `ini` (the test plugin's scripts drive it); NULL when it
 * ran, else its first error.  *value: the statistic `stat` afterwards. */
static char *run_ini(const char *ini, const char *stat, double *value)
{
	struct sim_run r = sim_run(tmpdir, ini, NULL, NULL, true);
	char *fail = g_strdup(sim_run_error(&r));

	if (!fail && stat && !ss_stats_lookup(ss_sim_engine(r.sim), stat, value))
		g_error("no statistic %s", stat);
	sim_run_free(&r);
	return fail;
}

#define L1_INI(l1, script)						\
	"[simulation]\nplugins = token_plugin\n"			\
	"[component a]\ntype = mem_script\nrequests = " script "\n"	\
	"[component l1]\ntype = sector_cache\n" l1			\
	"[component n]\ntype = mem_counter\n"				\
	"[link la]\nfrom = a.out\nto = l1.cpu_side\n"			\
	"[link ld]\nfrom = l1.mem_side\nto = n.in[0]\n"

#define HW_L1 "sets = 4\nsize_from_kernel = true\nindex = linear\n"	\
	"write_hit = write_through\nwrite_miss = lazy_fetch\n"		\
	"protect_dirty_pct = 25\nbypass = flagged\n"

/* The hardware-faithful L1 (configs/parts/titanv-l1.ini) needs no assoc: each
 * kernel's size gives it; whatever cannot be sized is refused clearly. */
static void test_component_ways_from_kernel(void)
{
	static const struct {
		const char *ini, *stat;
		double value;
		const char *error;
	} cases[] = {
		/* 192 KiB: 384 ways; then 4 KiB: 8 ways, cold */
		{ L1_INI(HW_L1, "B196608 R0x0 R0x0 R0x200 E B4096 R0x0 E"),
		  "l1.hits", 1, NULL },
		{ L1_INI(HW_L1, "B196608 R0x0 R0x0 R0x200 E B4096 R0x0 E"),
		  "l1.line_misses", 3, NULL },
		{ L1_INI(HW_L1, "B196608 R0x0 E"), "l1.protect_overrides", 0, NULL },
		{ L1_INI("sets = 4\nassoc = 64\nsize_from_kernel = true\n",
			 "R0x0 R0x0 E"), "l1.hits", 1, NULL },
		{ L1_INI("sets = 4\nsize = 32KiB\n", "R0x0 R0x0 E"), "l1.hits", 1, NULL },
		{ L1_INI("sets = 4\nindex = linear\n", "B4096 R0x0 E"), NULL, 0,
		  "assoc is not given and cannot be derived from sets 4 alone: expected assoc, size (assoc = size / sets / line_bytes) or size_from_kernel = true" },
		{ L1_INI(HW_L1, "R0x0 E"), NULL, 0,
		  "l1: a request arrives before any kernel gave the cache its size" },
		{ L1_INI(HW_L1, "B0 R0x0 E"), NULL, 0,
		  "l1: a kernel without an L1 size begins before any kernel gave the cache its size" },
		{ L1_INI(HW_L1, "B1048576 R0x0 E"), NULL, 0,
		  "l1: the kernel's L1 of 1048576 bytes: 1048576 bytes in 4 sets of 128-byte lines make 2048 ways; expected 1 to 1024" },
		{ L1_INI("sets = 4\nsize_from_kernel = true\nassoc = 2000\n", "E"), NULL, 0,
		  "assoc = 2000: expected a value from 0 to 1024" },
		{ L1_INI("sets = 4\nassoc = 4\nprotect_dirty_pct = 101\n", "E"), NULL, 0,
		  "protect_dirty_pct = 101: expected a value from 0 to 100" },
		{ L1_INI("sets = 4\nassoc = 4\nbypass = all\n", "E"), NULL, 0,
		  "bypass = all: expected one of none, flagged" },
		/* the L2 shares the rows, not size_from_kernel */
		{ "[simulation]\nplugins = token_plugin\n"
		  "[component a]\ntype = mem_script\nrequests = R0x0 E\n"
		  "[component l2]\ntype = l2_slice_set\nsets = 32\n"
		  "[component n]\ntype = mem_counter\n"
		  "[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
		  "[link ld]\nfrom = l2.mem_side[0]\nto = n.in[0]\n", NULL, 0,
		  "cannot be derived from sets 32 alone" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		double v = -1;
		char *fail = run_ini(cases[i].ini, cases[i].stat, &v);

		if (cases[i].error) {
			if (!fail || !strstr(fail, cases[i].error))
				g_error("case %zu: got '%s', want '%s'", i,
					fail ? fail : "success", cases[i].error);
		} else {
			if (fail)
				g_error("case %zu: %s", i, fail);
			g_assert_cmpfloat(v, ==, cases[i].value);
		}
		g_free(fail);
	}
}

/*
 * The set each access takes (sc_set_of, by the access path's own code,
 * which tabulates ipoly) is the set index function's, for every function
 * and the geometries each takes, on the address and on the partition
 * address, over random addresses of the whole 64 bits and of the usual
 * 40.
 */
static void test_set_index(void)
{
	static const enum set_index_fn fns[] = {
		SET_INDEX_LINEAR, SET_INDEX_FIB_DOUBLE, SET_INDEX_IPOLY, SET_INDEX_XOR,
	};
	static const uint32_t sets[] = { 1, 4, 16, 32, 64, 128 };
	GRand *rng = g_rand_new_with_seed(7);
	unsigned tried = 0;

	for (size_t f = 0; f < G_N_ELEMENTS(fns); f++)
		for (size_t n = 0; n < G_N_ELEMENTS(sets); n++)
			for (int on_part = 0; on_part <= 1; on_part++) {
				struct sc_config cfg = {
					.sets = sets[n], .assoc = 4, .line_bytes = 128,
					.sector_bytes = 32, .index = fns[f],
					.index_on_partition = on_part,
					.write_hit = SC_WRITE_BACK, .write_miss = SC_ALLOCATE,
					.count_write_misses = true,
				};
				struct sc_cache *c;
				char *why = NULL;

				if (set_index_fns[fns[f]].check &&
				    set_index_fns[fns[f]].check(sets[n], 128))
					continue;	/* not for this geometry */
				c = sc_new(&cfg, NULL, record, NULL, &why);
				g_assert_null(why);
				g_assert_nonnull(c);
				for (int i = 0; i < 4000; i++) {
					uint64_t a = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);
					uint64_t pa = (uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng);

					if (i % 2) {
						a &= (UINT64_C(1) << 40) - 1;
						pa &= (UINT64_C(1) << 40) - 1;
					}
					g_assert_cmpuint(sc_set_of(c, a, pa), ==,
							 set_index(fns[f], on_part ? pa : a, 7, sets[n],
								   sets[n] > 1 ? (unsigned)__builtin_ctz(sets[n]) : 0));
				}
				tried++;
				sc_free(c);
			}
	g_assert_cmpuint(tried, >=, 12);
	g_rand_free(rng);
}

/* ---- sc_access_run against sc_access, request by request ------------------ */

/*
 * What a cache sent down, request by request, every field: the order
 * and content of a level's input.  The component's side of
 * sc_access_run's contract is played by run_emit: what the model emits
 * joins the run going down, which is sent (logged, entry by entry) when
 * it is full or holds requests of another shape.
 */
struct run_rig {
	struct sc_cache *c;
	GArray *down;		/* struct mem_req, as sent */
	struct mem_run run;	/* the run going down, held */
	unsigned emits;		/* calls of run_emit */
};

static void run_rig_send(struct run_rig *g)
{
	/* a run as a level below reads it: its header says what it holds */
	if (g->run.n) {
		g_assert_cmpuint(g->run.hdr.kind, ==, MEM_RUN);
		g_assert_cmpuint(g->run.hdr.size, ==, mem_run_bytes(g->run.n));
	}
	for (unsigned k = 0; k < g->run.n; k++) {
		struct mem_req r;

		mem_run_request(&g->run, k, &r);
		g_array_append_val(g->down, r);
	}
	g->run.n = 0;
}

static void one_emit(void *ctx, const struct mem_req *r)
{
	struct run_rig *g = ctx;

	g_array_append_val(g->down, *r);
}

static void run_emit(void *ctx, const struct mem_req *r)
{
	struct run_rig *g = ctx;

	g->emits++;
	if (mem_run_add(&g->run, r))
		return;
	run_rig_send(g);
	if (mem_run_add(&g->run, r))
		return;
	g_array_append_val(g->down, *r);
}

static void run_rig_init(struct run_rig *g, const struct sc_config *cfg, bool runs)
{
	char *why = NULL;

	memset(g, 0, sizeof(*g));
	g->down = g_array_new(FALSE, FALSE, sizeof(struct mem_req));
	g->c = sc_new(cfg, NULL, runs ? run_emit : one_emit, g, &why);
	if (!g->c)
		g_error("%s", why);
}

static void run_rig_free(struct run_rig *g)
{
	sc_free(g->c);
	g_array_free(g->down, TRUE);
}

static bool same_req(const struct mem_req *a, const struct mem_req *b)
{
	/* what a run keeps of a request: everything it may carry */
	return a->hdr.kind == b->hdr.kind && a->addr == b->addr &&
	       a->part_addr == b->part_addr && a->size == b->size &&
	       a->mask == b->mask && a->space == b->space && a->sm == b->sm &&
	       a->warp == b->warp && a->flags == b->flags;
}

/* The same requests down from both rigs, in order, and the same counters. */
static void assert_same_rigs(struct run_rig *a, struct run_rig *b, guint32 seed)
{
	g_assert_cmpuint(a->down->len, ==, b->down->len);
	for (guint i = 0; i < a->down->len; i++)
		if (!same_req(&g_array_index(a->down, struct mem_req, i),
			      &g_array_index(b->down, struct mem_req, i)))
			g_error("seed %u: request %u down differs", seed, i);
	for (unsigned i = 0; i < SC_N_STATS; i++)
		g_assert_cmpuint(sc_stats(a->c)[i], ==, sc_stats(b->c)[i]);
}

/*
 * A random run of 1 to MEM_RUN_MAX entries into *run (one of three SMs;
 * 32 bytes, or the cache's sector when it is larger; kinds and spaces
 * mixed, partial writes; lines from a pool a little larger than the
 * cache); half are one instruction's, their entries of one kind, space
 * and warp (the run loops' uniform case).  Returns the entries.
 */
static unsigned random_run(GRand *rand, const struct sc_config *cfg, struct mem_run *run)
{
	uint32_t lines = (uint32_t)(cfg->size / cfg->line_bytes) * 5 / 4 + 3;
	unsigned n = (unsigned)g_rand_int_range(rand, 1, MEM_RUN_MAX + 1);
	uint32_t size = g_rand_boolean(rand) ? cfg->sector_bytes : MEM_ATOM;
	bool uniform = g_rand_boolean(rand);
	uint64_t low = 0;
	uint32_t warp = 0;

	*run = (struct mem_run){ .hdr = { mem_run_bytes(n), MEM_RUN } };
	run->sm = (uint16_t)g_rand_int_range(rand, 0, 3);
	run->size = size;
	for (unsigned k = 0; k < n; k++) {
		uint64_t line = (uint64_t)g_rand_int_range(rand, 0, (gint32)lines);
		uint64_t addr = UINT64_C(0x7f0000000000) + line * cfg->line_bytes +
				(uint64_t)g_rand_int_range(rand, 0, (gint32)(cfg->line_bytes / size)) * size;
		uint32_t kind = (uint32_t)g_rand_int_range(rand, 0, 10);

		kind = kind < 5 ? MEM_READ : kind < 8 ? MEM_WRITE :
		       kind == 8 ? MEM_ATOMIC : MEM_REDUCTION;
		if (!uniform || k == 0) {
			low = kind | (uint64_t)g_rand_int_range(rand, 0, 2) << 4;
			warp = (uint32_t)g_rand_int_range(rand, 0, 64);
		}
		run->req[k].addr = addr | low;
		run->req[k].mask = size > MEM_ATOM || g_rand_boolean(rand) ? UINT32_MAX : g_rand_int(rand);
		run->req[k].warp = warp;
	}
	run->n = (uint16_t)n;
	return n;
}

/*
 * Random runs (random_run) through sc_access_run and, on a second cache,
 * the same requests through sc_access one by one: the same requests down
 * in the same order, the same counters.  Runs alternate between SMs and
 * sizes, so that the run going down holds requests of another SM or size
 * at times (no entry joins it then); some are served with no run going
 * down (out NULL); and between runs both caches get single requests
 * through sc_access and, now and then, a flush, which must find nothing
 * of a run served before.
 */
static void access_run_trial(const struct sc_config *cfg, guint32 seed)
{
	GRand *rand = g_rand_new_with_seed(seed);
	struct run_rig a, b;

	run_rig_init(&a, cfg, false);
	run_rig_init(&b, cfg, true);
	for (unsigned n_runs = 0; n_runs < 4000; n_runs++) {
		struct mem_run run;
		bool with_out = g_rand_int_range(rand, 0, 8) != 0;
		unsigned n = random_run(rand, cfg, &run);

		for (unsigned k = 0; k < n; k++) {
			struct mem_req r;

			mem_run_request(&run, k, &r);
			sc_access(a.c, &r);
		}
		sc_access_run(b.c, &run, with_out ? &b.run : NULL);
		if (g_rand_int_range(rand, 0, 4) == 0) {
			/* a single request: it reaches b's emit whatever it is */
			struct mem_req r;

			mem_run_request(&run, (unsigned)g_rand_int_range(rand, 0, (gint32)n), &r);
			r.warp ^= 1;
			sc_access(a.c, &r);
			sc_access(b.c, &r);
		}
		if (g_rand_int_range(rand, 0, 200) == 0) {
			sc_flush(a.c);
			sc_flush(b.c);
		}
	}
	run_rig_send(&b);
	assert_same_rigs(&a, &b, seed);
	/* the comparison compared something: requests joined the run as
	 * the entries they were, without emit, and others went by emit */
	g_assert_cmpuint(a.down->len, >, 1000);
	g_assert_cmpuint(b.emits, >, 0);
	g_assert_cmpuint(b.emits, <, b.down->len - 500);
	run_rig_free(&a);
	run_rig_free(&b);
	g_rand_free(rand);
}

static void test_access_run(void)
{
	/* the reference's L1 and L2, GPGPU-Sim's write-validate L2, the
	 * other write policies, and sectors of 64 bytes (requests of 32 and
	 * 64: both pass down as they came where they are written through,
	 * so that a run going down may hold either size) */
	const struct sc_config cfgs[] = {
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_ALLOCATE, .count_write_misses = true },
		{ .size = 8192, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE, .sm_memos = 2 },
		{ .size = 8192, .assoc = 8, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		  .protect_dirty_pct = 50, .bypass = SC_BYPASS_FLAGGED },
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_FETCH, .count_write_misses = true },
		{ .size = 4096, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_NO_ALLOCATE, .replacement = SC_FIFO },
		{ .size = 16384, .assoc = 4, .line_bytes = 128, .sector_bytes = 64,
		  .index = SET_INDEX_IPOLY, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE },
		{ .size = 8192, .assoc = 4, .line_bytes = 128, .sector_bytes = 64,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_ALLOCATE, .count_write_misses = true },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cfgs); i++)
		for (guint32 seed = 1; seed <= 4; seed++)
			access_run_trial(&cfgs[i], seed * 7919 + i);
}

/* A cache fed by a round-robin merge of its own: sc_access() for what the
 * merge serves one by one, sc_access_merged() for a drain when `merged`. */
struct merged_rig {
	struct run_rig *rig;
	struct rr_merge *m;
	struct mem_tally *tally;	/* the drain's, or NULL */
};

static void merged_serve(void *ctx, const struct mem_req *r)
{
	struct merged_rig *g = ctx;

	sc_access(g->rig->c, r);
}

static void merged_drain(void *ctx)
{
	struct merged_rig *g = ctx;

	sc_access_merged(g->rig->c, g->m, g->tally);
}

/* Per kind from MEM_READ, the 32-byte units of the requests in `down`. */
static void tally_of(const GArray *down, uint64_t atoms[MEM_REDUCTION - MEM_READ + 1])
{
	for (guint i = 0; i < down->len; i++) {
		const struct mem_req *r = &g_array_index(down, struct mem_req, i);

		g_assert_cmpuint(r->hdr.kind - MEM_READ, <=, MEM_REDUCTION - MEM_READ);
		atoms[r->hdr.kind - MEM_READ] += (r->size + MEM_ATOM - 1) / MEM_ATOM;
	}
}

/*
 * A random request into *r, as an SM of four sends it to an L2: 32 bytes
 * mostly, some larger, kinds and spaces mixed, partial writes, a few
 * flagged to pass by; lines from a pool a little larger than the cache,
 * and a third of the time the line of *last (the request before's
 * address, UINT64_MAX before the first), by the same SM or another.
 * *last becomes its address.
 */
static void random_request(GRand *rand, const struct sc_config *cfg, uint64_t *last,
			   struct mem_req *r)
{
	uint32_t lines = (uint32_t)(cfg->size / cfg->line_bytes) * 5 / 4 + 3;
	uint64_t line = (uint64_t)g_rand_int_range(rand, 0, (gint32)lines);
	uint32_t size = g_rand_int_range(rand, 0, 20) ? MEM_ATOM :
			g_rand_boolean(rand) ? 64 : 128;
	uint64_t addr = UINT64_C(0x7f0000000000) + line * cfg->line_bytes +
			(uint64_t)g_rand_int_range(rand, 0, (gint32)(cfg->line_bytes / size)) * size;
	uint32_t kind = (uint32_t)g_rand_int_range(rand, 0, 10);

	kind = kind < 5 ? MEM_READ : kind < 8 ? MEM_WRITE :
	       kind == 8 ? MEM_ATOMIC : MEM_REDUCTION;
	if (*last != UINT64_MAX && g_rand_int_range(rand, 0, 3) == 0)
		addr = (*last & ~(uint64_t)(cfg->line_bytes - 1)) +
		       (addr & (cfg->line_bytes - 1));
	*last = addr;
	mem_req_init(r, kind, addr, size);
	r->space = (uint8_t)g_rand_int_range(rand, 0, 2);
	r->sm = (uint16_t)g_rand_int_range(rand, 0, 4);
	r->warp = (uint32_t)g_rand_int_range(rand, 0, 64);
	r->mask = size > MEM_ATOM || g_rand_boolean(rand) ? UINT32_MAX : g_rand_int(rand);
	if (g_rand_int_range(rand, 0, 30) == 0)
		r->flags = MEM_F_BYPASS;
}

/* run into each merge as its SM's, then empty */
static void push_run_to(struct mem_run *run, struct rr_merge *a, struct rr_merge *b,
			struct rr_merge *c)
{
	rr_merge_push_run(a, run->sm, run);
	rr_merge_push_run(b, run->sm, run);
	rr_merge_push_run(c, run->sm, run);
	run->n = 0;
}

/*
 * Random requests (random_request) of four SMs in bursts, in runs
 * where they fit one (so that a drain finds whole rounds waiting), each
 * SM an input of a round-robin merge, into two merges: one drained by
 * sc_access_merged, the other serving one by one through sc_access.  The
 * merges serve the same order at the same moments (test-rr-merge), so
 * the two caches must send the same requests down in the same order and
 * count the same.  A flush now and then between pushes must find the same
 * state in both.  A third cache drained with a tally counts, per kind,
 * the units the first sends during its drains (the flushes' write-backs
 * still go through emit), and the same counters.
 */
static void access_merged_trial(const struct sc_config *cfg, guint32 seed)
{
	GRand *rand = g_rand_new_with_seed(seed);
	struct run_rig a, b, t;
	struct mem_tally tally = { 0 };
	struct merged_rig ga = { &a, NULL, NULL }, gb = { &b, NULL, NULL },
			  gt = { &t, NULL, &tally };
	uint64_t last_addr = UINT64_MAX, want[MEM_REDUCTION - MEM_READ + 1] = { 0 };

	run_rig_init(&a, cfg, false);
	run_rig_init(&b, cfg, false);
	run_rig_init(&t, cfg, false);
	ga.m = rr_merge_new(4, false, merged_serve, &ga);
	gb.m = rr_merge_new(4, false, merged_serve, &gb);
	gt.m = rr_merge_new(4, false, merged_serve, &gt);
	rr_merge_set_drain(gb.m, merged_drain);
	rr_merge_set_drain(gt.m, merged_drain);
	for (unsigned i = 0; i < 40000; ) {
		/* a burst of one SM's, in runs where its requests fit them */
		uint16_t sm = (uint16_t)g_rand_int_range(rand, 0, 4);
		struct mem_run run = { .n = 0 };

		for (int b = g_rand_int_range(rand, 1, 13); b > 0 && i < 40000; b--, i++) {
			struct mem_req r;

			random_request(rand, cfg, &last_addr, &r);
			r.sm = sm;
			if (g_rand_int_range(rand, 0, 4))
				r.part_addr = r.addr;
			if (mem_run_add(&run, &r))
				continue;
			if (run.n)
				push_run_to(&run, ga.m, gb.m, gt.m);
			if (mem_run_add(&run, &r))
				continue;
			rr_merge_push(ga.m, r.sm, &r);
			rr_merge_push(gb.m, r.sm, &r);
			rr_merge_push(gt.m, r.sm, &r);
		}
		if (run.n)
			push_run_to(&run, ga.m, gb.m, gt.m);
		if (g_rand_int_range(rand, 0, 300) == 0) {
			sc_flush(a.c);
			sc_flush(b.c);
			sc_flush(t.c);
		}
	}
	for (unsigned i = 0; i < 4; i++) {
		g_assert_true(rr_merge_end(ga.m, i) == (i == 3));
		g_assert_true(rr_merge_end(gb.m, i) == (i == 3));
		g_assert_true(rr_merge_end(gt.m, i) == (i == 3));
	}
	assert_same_rigs(&a, &b, seed);
	g_assert_cmpuint(a.down->len, >, 1000);
	/* what t sent (the flushes') and tallied is what a sent */
	tally_of(a.down, want);
	tally_of(t.down, tally.atoms);
	for (unsigned k = 0; k < G_N_ELEMENTS(want); k++)
		g_assert_cmpuint(tally.atoms[k], ==, want[k]);
	g_assert_cmpuint(tally.n + t.down->len, ==, a.down->len);
	g_assert_cmpuint(tally.n, >, a.down->len / 2);
	for (unsigned i = 0; i < SC_N_STATS; i++)
		g_assert_cmpuint(sc_stats(a.c)[i], ==, sc_stats(t.c)[i]);
	rr_merge_free(ga.m);
	rr_merge_free(gb.m);
	rr_merge_free(gt.m);
	run_rig_free(&a);
	run_rig_free(&b);
	run_rig_free(&t);
	g_rand_free(rand);
}

static void test_access_merged(void)
{
	/* the reference's L2 (SM memos) and L1, the other write policies,
	 * FIFO, 64-byte sectors under ipoly, and caches that take the
	 * access path per request: write-validate with protection, a bypass */
	const struct sc_config cfgs[] = {
		{ .size = 8192, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE, .sm_memos = 4 },
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_ALLOCATE, .count_write_misses = true },
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_FETCH, .count_write_misses = true, .sm_memos = 2 },
		{ .size = 4096, .assoc = 2, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_NO_ALLOCATE, .replacement = SC_FIFO, .sm_memos = 4 },
		{ .size = 16384, .assoc = 4, .line_bytes = 128, .sector_bytes = 64,
		  .index = SET_INDEX_IPOLY, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE, .sm_memos = 3 },
		{ .size = 8192, .assoc = 8, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_LINEAR, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_LAZY_FETCH, .count_write_misses = true,
		  .protect_dirty_pct = 50 },
		{ .size = 8192, .assoc = 16, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE, .bypass = SC_BYPASS_FLAGGED, .sm_memos = 4 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cfgs); i++)
		for (guint32 seed = 1; seed <= 3; seed++)
			access_merged_trial(&cfgs[i], seed * 6151 + i);
}

/*
 * The loops compiled for the reference's geometries (4 and 32 ways of
 * 128-byte lines, 32-byte sectors, fib_double of the address) against
 * the loops of any geometry, which the same configuration indexed on the
 * partition address takes: every request here has its address there, so
 * the sets are the same.  Random runs with single requests between them
 * (sc_access_run, sc_access) and flushes now and then, then random
 * requests drained from a merge (sc_access_merged): the same requests
 * down in the same order, the same counters.
 */
static void geometry_trial(const struct sc_config *cfg, guint32 seed)
{
	GRand *rand = g_rand_new_with_seed(seed);
	struct sc_config any_cfg = *cfg;
	struct run_rig any, geo;
	struct merged_rig ma = { &any, NULL, NULL }, mg = { &geo, NULL, NULL };
	uint64_t last_addr = UINT64_MAX;

	any_cfg.index_on_partition = true;
	run_rig_init(&any, &any_cfg, true);
	run_rig_init(&geo, cfg, true);
	g_assert_false(sc_geometry_compiled(any.c));
	g_assert_true(sc_geometry_compiled(geo.c));
	for (unsigned i = 0; i < 3000; i++) {
		struct mem_run run;
		unsigned n = random_run(rand, cfg, &run);

		sc_access_run(any.c, &run, &any.run);
		sc_access_run(geo.c, &run, &geo.run);
		if (g_rand_int_range(rand, 0, 4) == 0) {
			struct mem_req r;

			mem_run_request(&run, (unsigned)g_rand_int_range(rand, 0, (gint32)n), &r);
			r.warp ^= 1;
			sc_access(any.c, &r);
			sc_access(geo.c, &r);
		}
		if (g_rand_int_range(rand, 0, 200) == 0) {
			sc_flush(any.c);
			sc_flush(geo.c);
		}
	}
	ma.m = rr_merge_new(4, false, merged_serve, &ma);
	mg.m = rr_merge_new(4, false, merged_serve, &mg);
	rr_merge_set_drain(ma.m, merged_drain);
	rr_merge_set_drain(mg.m, merged_drain);
	for (unsigned i = 0; i < 20000; i++) {
		struct mem_req r;

		random_request(rand, cfg, &last_addr, &r);
		rr_merge_push(ma.m, r.sm, &r);
		rr_merge_push(mg.m, r.sm, &r);
	}
	for (unsigned i = 0; i < 4; i++) {
		rr_merge_end(ma.m, i);
		rr_merge_end(mg.m, i);
	}
	run_rig_send(&any);
	run_rig_send(&geo);
	assert_same_rigs(&any, &geo, seed);
	g_assert_cmpuint(any.down->len, >, 5000);
	rr_merge_free(ma.m);
	rr_merge_free(mg.m);
	run_rig_free(&any);
	run_rig_free(&geo);
	g_rand_free(rand);
}

static void test_compiled_geometries(void)
{
	/* the reference's L1 and L2, and each geometry under the other
	 * write policies and FIFO */
	const struct sc_config cfgs[] = {
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_ALLOCATE, .count_write_misses = true },
		{ .size = 32768, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_ALLOCATE, .sm_memos = 4 },
		{ .size = 6144, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_FETCH, .replacement = SC_FIFO },
		{ .size = 4096, .assoc = 4, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_BACK,
		  .write_miss = SC_LAZY_FETCH, .count_write_misses = true },
		{ .size = 32768, .assoc = 32, .line_bytes = 128, .sector_bytes = 32,
		  .index = SET_INDEX_FIB_DOUBLE, .write_hit = SC_WRITE_THROUGH,
		  .write_miss = SC_NO_ALLOCATE, .sm_memos = 4 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cfgs); i++)
		for (guint32 seed = 1; seed <= 3; seed++)
			geometry_trial(&cfgs[i], seed * 4099 + i);
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
	g_test_add_func("/sector-cache/sm-memos", test_sm_memos);
	g_test_add_func("/sector-cache/access-run", test_access_run);
	g_test_add_func("/sector-cache/access-merged", test_access_merged);
	g_test_add_func("/sector-cache/compiled-geometries", test_compiled_geometries);
	g_test_add_func("/sector-cache/larger-sectors", test_larger_sectors);
	g_test_add_func("/sector-cache/request-spans-sectors", test_request_spans_sectors);
	g_test_add_func("/sector-cache/local-space", test_local_space_counts_apart);
	g_test_add_func("/sector-cache/geometry", test_geometry);
	g_test_add_func("/sector-cache/set-index", test_set_index);
	g_test_add_func("/sector-cache/hw/l2-worked-example", test_hw_l2_worked_example);
	g_test_add_func("/sector-cache/hw/partial-write-then-read", test_hw_partial_write_then_read);
	g_test_add_func("/sector-cache/hw/full-write-then-read", test_hw_full_write_then_read);
	g_test_add_data_func("/sector-cache/hw/l2-atomic", GUINT_TO_POINTER(MEM_ATOMIC),
			     test_hw_l2_read_modify_write);
	g_test_add_data_func("/sector-cache/hw/l2-reduction", GUINT_TO_POINTER(MEM_REDUCTION),
			     test_hw_l2_read_modify_write);
	g_test_add_func("/sector-cache/hw/l1-bypass", test_hw_l1_bypass);
	g_test_add_func("/sector-cache/hw/bypass-keeps-lru", test_hw_bypass_keeps_lru);
	g_test_add_func("/sector-cache/hw/dirty-at-kernel-end", test_hw_dirty_at_kernel_end);
	g_test_add_func("/sector-cache/hw/protect-dirty", test_hw_protect_dirty);
	g_test_add_func("/sector-cache/hw/protect-dirty-384-ways", test_hw_protect_wide);
	g_test_add_func("/sector-cache/hw/adaptive-ways", test_hw_adaptive_ways);
	g_test_add_func("/sector-cache/component/ways-from-kernel", test_component_ways_from_kernel);

	tmpdir = g_dir_make_tmp("sectorsim-cache-XXXXXX", NULL);

	int status = g_test_run();

	g_rmdir(tmpdir);
	g_free(tmpdir);
	return status;
}
