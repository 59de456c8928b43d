/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Nugteren et al.'s small examples of what time does to a GPU cache,
 * through the stock components in timing mode: a trace of one block of
 * four one-thread warps, one SM issuing with issue = latency_queue, a tap
 * that logs every request and answer between the SM and its L1 with its
 * tick, the L1, and an L2 that answers each of its misses after the
 * examples' miss latency, hit or miss (its own lookup takes that long, and
 * DRAM none).  Elements are 32 bytes (a sector) and lines 128 bytes (four
 * elements, the examples' line), the L1 non-sectored as theirs is: x[i]
 * is at BASE + 32 i, in line i / 4.
 *
 * What each example expects is worked out in its comments from the rules
 * of warp_interleaver.c (the queue) and cache_timing.c (hits at once,
 * misses take effect when their data comes, reads of a line in flight
 * are latency misses, a full MSHR refuses).
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sectorsim/protocols/mem.h>
#include "internal.h"
#include "registry.h"
#include "sim.h"
#include "builtin.h"
#include "camat.h"
#include "simrun.h"
#include "timing_tap.h"

#define BASE UINT64_C(0x7f0000000000)
#define X(i) (BASE + 32 * (uint64_t)(i))

static char *tmpdir;

/* ---- the trace and the hierarchy ------------------------------------------ */

/*
 * One block of `warps` warps of one thread each; warp w's instruction k
 * loads the elements loads[w][k] (up to 4 lanes, -1 ends), -1 ending the
 * warp's instructions.
 */
static void write_trace(int warps, const int loads[][4][4])
{
	GString *t = g_string_new(NULL);
	char *path;

	g_string_append_printf(t, "-kernel name = example\n-kernel id = 1\n-grid dim = (1,1,1)\n"
			       "-block dim = (%d,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
			       "-accelsim tracer version = 5\n\n#BEGIN_TB\nthread block = 0,0,0\n",
			       32 * warps);
	for (int w = 0; w < warps; w++) {
		int n = 0;

		while (n < 4 && loads[w][n][0] >= 0)
			n++;
		g_string_append_printf(t, "warp = %d\ninsts = %d\n", w, n);
		for (int k = 0; k < n; k++) {
			int lanes = 0;

			while (lanes < 4 && loads[w][k][lanes] >= 0)
				lanes++;
			g_string_append_printf(t, "%04x %08x 1 R2 LDG.E 1 R4 4 0", k * 16,
					       (1u << lanes) - 1);
			for (int l = 0; l < lanes; l++)
				g_string_append_printf(t, " 0x%" G_GINT64_MODIFIER "x", X(loads[w][k][l]));
			g_string_append(t, " 0\n");
		}
	}
	g_string_append(t, "#END_TB\n");
	path = g_build_filename(tmpdir, "kernel-1.traceg", NULL);
	g_assert_true(g_file_set_contents(path, t->str, -1, NULL));
	g_free(path);
	path = g_build_filename(tmpdir, "kernelslist.g", NULL);
	g_assert_true(g_file_set_contents(path, "kernel-1.traceg\n", -1, NULL));
	g_free(path);
	g_string_free(t, TRUE);
}

/* The hierarchy: an L1 of `ways` lines of 128 bytes in one set, MSHR
 * `entries` (0: unlimited), its misses answered after `latency` cycles. */
static const char *const hierarchy =
	"[simulation]\n"
	"[component trace]\ntype = trace_source\npath = .\n"
	"[component sched]\ntype = block_scheduler\npolicy = dynamic\nunified_bytes = 128KiB\n"
	"carveouts = 0\ncarveout_rule = eq7\n"
	"[component sm]\ntype = warp_interleaver\ncount = 1\ntiming = true\nclassify = hw\n"
	"issue = latency_queue\nsector_order = first_touch\n"
	"[component tap]\ntype = timing_tap\n"
	"[component l1]\ntype = sector_cache\ncount = 1\ntiming = true\nsize = %uB\nassoc = %u\n"
	"line_bytes = 128B\nsector_bytes = 128B\nwrite_hit = write_through\nwrite_miss = allocate\n"
	"final_writeback = none\nmshr_entries = %u\ntag_latency = %u\n"
	"[component l2]\ntype = l2_slice_set\nmerge = arrival\ntiming = true\nsize = 1MiB\nassoc = 16\nsector_bytes = 128B\n"
	"final_writeback = none\ntag_latency = %u\n"
	"[component dram]\ntype = dram_counter\ntiming = true\n"
	"[component report]\ntype = kernel_report\nmode = hw\n"
	"[link a]\nfrom = trace.kernels\nto = sched.kernels\n"
	"[link b]\nfrom = sched.dispatch[*]\nto = sm[*].tb_in\n"
	"[link c]\nfrom = sm[*].done\nto = sched.done[*]\n"
	"[link d]\nfrom = sched.plan\nto = report.plan\n"
	"[link e]\nfrom = sm[0].mem\nto = tap.in\n"
	"[link f]\nfrom = tap.out\nto = l1[0].cpu_side\n"
	"[link g]\nfrom = l1[*].mem_side\nto = l2.cpu_side[*]\n"
	"[link h]\nfrom = l2.mem_side[0]\nto = dram.req[0]\n"
	"[link i]\nfrom = dram.done\nto = report.done[0]\n"
	"[link j]\nfrom = report.next\nto = trace.done\n";

struct result {
	char *log;		/* the tap's, ticks counted from the first request */
	double hits, misses, latency_misses, refused, accesses;
	struct camat_counts l1;	/* the L1's C-AMAT counts */
};

static const char *const camat_names[] = {
	"l1.camat_accesses", "l1.camat_hits", "l1.camat_misses", "l1.camat_hit_cycles",
	"l1.camat_miss_cycles", "l1.camat_overlap_hit_time", "l1.camat_pure_misses",
	"l1.camat_pure_miss_time", "l1.camat_pure_miss_overlap_time", "l1.camat_active_cycles",
};

/* Runs the hierarchy; the log's ticks are made relative to the first. */
static struct result run_example_tag(unsigned ways, unsigned entries, unsigned latency,
				     unsigned l1_tag)
{
	static const struct ss_component_type *const types[] = { &timing_tap_type, NULL };
	const struct ss_run_options opts = { .quiet = TRUE, .table_off = TRUE, .threads = 1 };
	char *ini = g_strdup_printf(hierarchy, 128 * ways, ways, entries, l1_tag, latency);
	struct sim_run sr;
	struct ss_engine *e;
	struct result res = { 0 };
	double v;

	timing_tap_start(BASE, 32, "x");
	sr = sim_run_with(tmpdir, ini, types, NULL, &opts, true);
	if (sim_run_error(&sr))
		g_error("%s", sim_run_error(&sr));
	e = ss_sim_engine(sr.sim);
#define PHASE0(name, field) \
	g_assert_true(ss_stats_lookup_phase(e, 0, name, &v)); res.field = v
	PHASE0("l1.hits", hits);
	PHASE0("l1.accesses", accesses);
	PHASE0("l1.latency_misses", latency_misses);
	PHASE0("sm.refused", refused);
	{
		double s, l;

		g_assert_true(ss_stats_lookup_phase(e, 0, "l1.sector_misses", &s));
		g_assert_true(ss_stats_lookup_phase(e, 0, "l1.line_misses", &l));
		res.misses = s + l;
	}
	{
		uint64_t *c = &res.l1.accesses;	/* struct camat_counts, in order */

		for (size_t k = 0; k < G_N_ELEMENTS(camat_names); k++) {
			g_assert_true(ss_stats_lookup_phase(e, 0, camat_names[k], &v));
			c[k] = (uint64_t)v;
		}
	}
#undef PHASE0
	res.log = timing_tap_log();
	sim_run_free(&sr);
	g_free(ini);
	return res;
}

static struct result run_example(unsigned ways, unsigned entries, unsigned latency)
{
	return run_example_tag(ways, entries, latency, 0);
}

/* ---- the examples ------------------------------------------------------------ */

/* four warps of one thread, loading x[2t] then x[2t + 1] */
static const int two_loads[4][4][4] = {
	{ { 0, -1 }, { 1, -1 }, { -1 } },
	{ { 2, -1 }, { 3, -1 }, { -1 } },
	{ { 4, -1 }, { 5, -1 }, { -1 } },
	{ { 6, -1 }, { 7, -1 }, { -1 } },
};

/*
 * Execution order.  With no latency every warp is ready again right after
 * its issue, behind the others: warps 0-3 issue instruction 0, then
 * instruction 1, one a tick.  Through an L1 of one line that order is
 * what decides the hits: x0 misses, x2 hits, x4 misses (line 1 replaces
 * line 0), x6 hits, x1 misses again, x3 hits, x5 misses, x7 hits.  (Warp
 * by warp would miss only twice.)
 */
static void test_execution_order(void)
{
	struct result r;

	write_trace(4, two_loads);
	r = run_example(1, 0, 0);
	g_assert_cmpstr(r.log, ==,
			"0:R x0 0:A x0 1:R x2 1:A x2 2:R x4 2:A x4 3:R x6 3:A x6 "
			"4:R x1 4:A x1 5:R x3 5:A x3 6:R x5 6:A x5 7:R x7 7:A x7");
	g_assert_cmpfloat(r.hits, ==, 4);
	g_assert_cmpfloat(r.misses, ==, 4);
	g_assert_cmpfloat(r.latency_misses, ==, 0);
	g_free(r.log);
}

/*
 * Fixed latency: a miss issued at t is answered, and takes effect, at
 * t + 2.  x0 misses at 0; x2 at 1 finds line 0 in flight: a latency miss,
 * answered with x0 at 2.  Warps 0 and 1 are then ready at 2, behind 2 and
 * 3, which issue x4 (a miss) at 2 and x6 (a latency miss) at 3.  At 4 line
 * 1 arrives, warps 2 and 3 join the queue behind 0 and 1, and x1, x3, x5,
 * x7 hit, one a tick.
 */
static void test_fixed_latency(void)
{
	struct result r;

	write_trace(4, two_loads);
	r = run_example(4, 0, 2);
	g_assert_cmpstr(r.log, ==,
			"0:R x0 1:R x2 2:A x0 2:A x2 2:R x4 3:R x6 4:A x4 4:A x6 "
			"4:R x1 4:A x1 5:R x3 5:A x3 6:R x5 6:A x5 7:R x7 7:A x7");
	g_assert_cmpfloat(r.misses, ==, 2);
	g_assert_cmpfloat(r.latency_misses, ==, 2);
	g_assert_cmpfloat(r.hits, ==, 4);
	g_assert_cmpfloat(r.accesses, ==, r.hits + r.misses + r.latency_misses);
	/*
	 * C-AMAT of the L1, whose lookups take no time: x0 waits [0, 2), x2
	 * [1, 2), x4 [2, 4), x6 [3, 4), every cycle of them pure, and the
	 * four hits take none.  8 loads, 4 pure misses of 6 cycles in all,
	 * over 4 cycles: C-AMAT = 0.5 x 1.5 / 1.5 = 4 / 8.
	 */
	g_assert_cmpuint(r.l1.accesses, ==, 8);
	g_assert_cmpuint(r.l1.hits, ==, 4);
	g_assert_cmpuint(r.l1.misses, ==, 4);
	g_assert_cmpuint(r.l1.hit_cycles, ==, 0);
	g_assert_cmpuint(r.l1.overlap_hit_time, ==, 0);
	g_assert_cmpuint(r.l1.pure_misses, ==, 4);
	g_assert_cmpuint(r.l1.pure_miss_time, ==, 6);
	g_assert_cmpuint(r.l1.pure_miss_overlap_time, ==, 4);
	g_assert_cmpuint(r.l1.active_cycles, ==, 4);
	g_free(r.log);
}

/*
 * C-AMAT with lookups that take time: the L1 looks up in 1 cycle, the L2
 * answers its misses after 2.  The phases come from the tap's log: each
 * load's hit phase is the cycle of its arrival, and a load answered later
 * than that waited from then to its answer.  The L1's own sweep must give
 * what a count cycle by cycle of those phases gives.
 */
static void check_camat_from_log(unsigned l1_tag, unsigned latency, size_t loads,
				 const char *log)
{
	struct result r;
	char **parts;
	uint64_t start[64], hit[64], miss[64], t_of[64];
	bool open[64] = { false };
	size_t n = 0;
	struct camat_counts want;
	struct camat_ratios q;

	r = run_example_tag(4, 0, latency, l1_tag);
	if (log)
		g_assert_cmpstr(r.log, ==, log);
	parts = g_strsplit(r.log, " ", -1);
	for (int i = 0; parts[i] && parts[i + 1]; i += 2) {
		uint64_t t = g_ascii_strtoull(parts[i], NULL, 10);
		char kind = strchr(parts[i], ':')[1];
		unsigned x = (unsigned)g_ascii_strtoull(parts[i + 1] + 1, NULL, 10);

		g_assert_cmpuint(x, <, 64);
		if (kind == 'R') {
			g_assert_false(open[x]);
			open[x] = true;
			t_of[x] = n;
			start[n] = t;
			hit[n] = l1_tag;
			miss[n] = 0;
			n++;
		} else if (kind == 'A') {
			size_t k = t_of[x];

			g_assert_true(open[x]);
			open[x] = false;
			/* never before its own lookup is over */
			g_assert_cmpuint(t, >=, start[k] + l1_tag);
			miss[k] = t - (start[k] + l1_tag);
		}
	}
	g_strfreev(parts);
	g_assert_cmpuint(n, ==, loads);
	camat_compute(start, hit, miss, n, &want);
	/* some waited, and some waits met other lookups */
	g_assert_cmpuint(want.misses, >, 0);
	g_assert_cmpuint(want.pure_miss_time, <, want.miss_cycles);
	/* the phases' cycles; a read whose data came as its lookup ended
	 * is a miss with no miss cycle to the run, a hit to the log */
	g_assert_cmpuint(r.l1.accesses, ==, want.accesses);
	g_assert_cmpuint(r.l1.hit_cycles, ==, want.hit_cycles);
	g_assert_cmpuint(r.l1.miss_cycles, ==, want.miss_cycles);
	g_assert_cmpuint(r.l1.overlap_hit_time, ==, want.overlap_hit_time);
	g_assert_cmpuint(r.l1.pure_misses, ==, want.pure_misses);
	g_assert_cmpuint(r.l1.pure_miss_time, ==, want.pure_miss_time);
	g_assert_cmpuint(r.l1.pure_miss_overlap_time, ==, want.pure_miss_overlap_time);
	g_assert_cmpuint(r.l1.active_cycles, ==, want.active_cycles);
	camat_ratios(&r.l1, &q);
	g_assert_cmpfloat_with_epsilon(q.camat * (double)r.l1.accesses,
				       (double)r.l1.active_cycles, 1e-9);
	g_free(r.log);
}

static void test_camat_from_log(void)
{
	/* four one-thread warps reading x0-x3, one line: x0 misses at 0,
	 * its fetch leaves after the 4-cycle lookup and returns at 6; x1-x3
	 * join it, and each is answered at 6 or when its own lookup ends */
	static const int one_line[4][4][4] = {
		{ { 0, -1 }, { -1 } }, { { 1, -1 }, { -1 } },
		{ { 2, -1 }, { -1 } }, { { 3, -1 }, { -1 } },
	};

	write_trace(4, two_loads);
	check_camat_from_log(1, 2, 8, NULL);
	write_trace(4, one_line);
	check_camat_from_log(4, 2, 4, "0:R x0 1:R x1 2:R x2 3:R x3 6:A x0 6:A x1 6:A x2 7:A x3");
}

/*
 * Conditional latency (hit 0, miss 2): effects follow answers, not issues.
 * In an L1 of two lines, warp 0 misses x0 (line 0) at 0 and warp 1 misses
 * x4 (line 1) at 1; they are filled at 2 and 3.  Warp 0 then misses x8
 * (line 2) at 2, whose effect comes at 4, and warp 1 hits x1 at 3, which
 * makes line 0 the newest at once, after line 1's fill in the same tick
 * (answers come before issues).  So the fill of line 2 at 4 evicts line
 * 1, not line 0, though x8 was issued before x1 (in issue order, x1 would
 * have missed): warp 1, ready since its hit at 3, misses x5 at 4, and
 * warp 0, ready at 4, hits x2 at 5.
 * Two effects in one tick apply in issue order: x8 and x12 (lines 2 and 3,
 * two lanes of one instruction) miss together in an L1 of one line and
 * are filled together at 2, line 3 last, so that x13 hits.
 */
static void test_conditional_latency(void)
{
	static const int reorder[2][4][4] = {
		{ { 0, -1 }, { 8, -1 }, { 2, -1 }, { -1 } },
		{ { 4, -1 }, { 1, -1 }, { 5, -1 }, { -1 } },
	};
	static const int same_tick[1][4][4] = {
		{ { 8, 12, -1 }, { 13, -1 }, { -1 } },
	};
	struct result r;

	write_trace(2, reorder);
	r = run_example(2, 0, 2);
	g_assert_cmpstr(r.log, ==,
			"0:R x0 1:R x4 2:A x0 2:R x8 3:A x4 3:R x1 3:A x1 4:A x8 "
			"4:R x5 5:R x2 5:A x2 6:A x5");
	g_assert_cmpfloat(r.misses, ==, 4);
	g_assert_cmpfloat(r.hits, ==, 2);
	g_free(r.log);

	write_trace(1, same_tick);
	r = run_example(1, 0, 2);
	g_assert_cmpstr(r.log, ==, "0:R x8 0:R x12 2:A x8 2:A x12 2:R x13 2:A x13");
	g_assert_cmpfloat(r.misses, ==, 2);
	g_assert_cmpfloat(r.hits, ==, 1);
	g_free(r.log);
}

/*
 * MSHR: one entry, a miss latency of 3.  Warp 0 misses x0 (line 0) at 0
 * and takes the entry; warp 1's x4 (line 1) at 1 is refused, and the warp
 * waits for the L1's retry; warp 2's x1, also line 0, merges at 2 into the
 * full table's entry as a latency miss.  Line 0 arrives at 3, answers x0
 * and x1 and frees the entry: the retry puts warp 1 in the queue behind
 * warp 0, which hits x2 at 3; warp 1 sends x4 again at 4, a miss now.
 * Four accesses, each counted once: the refusal is not one.
 */
static void test_mshr(void)
{
	static const int loads[3][4][4] = {
		{ { 0, -1 }, { 2, -1 }, { -1 } },
		{ { 4, -1 }, { -1 } },
		{ { 1, -1 }, { -1 } },
	};
	struct result r;

	write_trace(3, loads);
	r = run_example(4, 1, 3);
	g_assert_cmpstr(r.log, ==,
			"0:R x0 1:R x4 1:X x4 2:R x1 3:A x0 3:A x1 3:R x2 3:A x2 "
			"4:R x4 7:A x4");
	g_assert_cmpfloat(r.refused, ==, 1);
	g_assert_cmpfloat(r.latency_misses, ==, 1);
	g_assert_cmpfloat(r.misses, ==, 2);
	g_assert_cmpfloat(r.hits, ==, 1);
	g_assert_cmpfloat(r.accesses, ==, 4);
	g_free(r.log);
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("sectorsim-timing-XXXXXX", NULL);
	g_test_add_func("/timing/nugteren/execution-order", test_execution_order);
	g_test_add_func("/timing/nugteren/fixed-latency", test_fixed_latency);
	g_test_add_func("/timing/nugteren/conditional-latency", test_conditional_latency);
	g_test_add_func("/timing/nugteren/mshr", test_mshr);
	g_test_add_func("/timing/camat/from-log", test_camat_from_log);
	ret = g_test_run();
	for (const char *f = "kernel-1.traceg"; f; f = strcmp(f, "kernelslist.g") ? "kernelslist.g" : NULL) {
		char *p = g_build_filename(tmpdir, f, NULL);

		g_unlink(p);
		g_free(p);
	}
	g_rmdir(tmpdir);
	g_free(tmpdir);
	timing_tap_free();
	return ret;
}
