/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts of the Nugteren-compatible configuration one rule at a time:
 * warp_interleaver's issue = nugteren and sdcm_cache's timing mode, with a
 * tap between them that logs every request and answer with its tick, over
 * a memory of fixed latency (5 cycles).  Each test writes a small .trc
 * kernel; what it expects is worked out in its comment from the rules of
 * doc/nugteren-model.md.  (test-golden-nugteren checks the whole against
 * the model's own numbers; here each rule is seen alone.)
 *
 * Lines are 128 bytes, line k at BASE + 128 k; the log writes "t:R Lk" for
 * a read of line k at tick t (from the first entry), "A" an answer, "X" a
 * refusal.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sectorsim/protocols/mem.h>
#include "internal.h"
#include "registry.h"
#include "sim.h"
#include "builtin.h"
#include "simrun.h"
#include "timing_tap.h"

#define BASE UINT64_C(0x10000000)
#define LATENCY 5

static char *tmpdir;

/* ---- a run --------------------------------------------------------------------- */

/* One SM of the model's issue, an L1 of `ways` ways in `sets` sets (linear
 * index) and `mshr` MSHRs (0: no limit), memory after LATENCY cycles. */
static const char *const hierarchy =
	"[simulation]\n"
	"[component trace]\ntype = trace_source\npath = k\nloads_only = true\n"
	"[component sched]\ntype = block_scheduler\npolicy = batch\nunified_bytes = 64KiB\n"
	"carveouts = 48\ncarveout_rule = off\nfixed_l1_bytes = 16KiB\nmax_warps = 48\n"
	"max_blocks = 8\nregs = 1048576\nsmem_unit = 1B\n"
	"[component sm]\ntype = warp_interleaver\ntiming = true\nclassify = hw\nissue = nugteren\n"
	"line_bytes = 128B\n"
	"[component tap]\ntype = timing_tap\n"
	"[component l1]\ntype = sdcm_cache\ntiming = true\nsize = %uB\nassoc = %u\n"
	"sector_bytes = 128B\nindex = linear\nmshr_lines = %u\nmiss_latency = %u\n"
	"[component mem]\ntype = dram_counter\ntiming = true\nlatency = %u\n"
	"[component report]\ntype = kernel_report\nmode = nugteren\n"
	"cases = l1, l1, l1, l1\n"
	"[link a]\nfrom = trace.kernels\nto = sched.kernels\n"
	"[link b]\nfrom = sched.dispatch[0]\nto = sm.tb_in\n"
	"[link c]\nfrom = sm.done\nto = sched.done[0]\n"
	"[link d]\nfrom = sched.plan\nto = report.plan\n"
	"[link e]\nfrom = sm.mem\nto = tap.in\n"
	"[link f]\nfrom = tap.out\nto = l1.cpu_side[0]\n"
	"[link g]\nfrom = l1.mem_side\nto = mem.req[0]\n"
	"[link h]\nfrom = mem.done\nto = report.done[0]\n"
	"[link i]\nfrom = report.next\nto = trace.done\n";

struct result {
	char *log;		/* ticks from the first entry */
	double cold, within, beyond, misses, refused, sm_refused, dram_reads;
};

/* One access of the kernel: thread, line, byte offset in it, bytes. */
struct acc {
	unsigned tid, line, offset, bytes;
};

static void write_kernel(unsigned block, const struct acc *a, size_t n)
{
	GString *t = g_string_new(NULL);
	char *dir = g_build_filename(tmpdir, "k", NULL);
	char *path = g_build_filename(dir, "k_00.trc", NULL);

	g_mkdir_with_parents(dir, 0700);
	g_string_append_printf(t, "blocksize: %u 1 1\n", block);
	for (size_t i = 0; i < n; i++)
		g_string_append_printf(t, "%u 0 %" G_GUINT64_FORMAT " %u\n", a[i].tid,
				       BASE + 128 * (uint64_t)a[i].line + a[i].offset, a[i].bytes);
	g_assert_true(g_file_set_contents(path, t->str, -1, NULL));
	g_string_free(t, TRUE);
	g_free(path);
	g_free(dir);
}

/* at_l1: the L1 draws the latency (miss_latency), the memory answers at
 * once; else the memory takes it. */
static struct result run_at(unsigned sets, unsigned ways, unsigned mshr, bool at_l1)
{
	static const struct ss_component_type *const types[] = { &timing_tap_type, NULL };
	const struct ss_run_options opts = { .quiet = TRUE, .table_off = TRUE, .threads = 1 };
	char *ini = g_strdup_printf(hierarchy, 128 * sets * ways, ways, mshr,
				    at_l1 ? LATENCY : 0, at_l1 ? 0 : LATENCY);
	struct sim_run sr;
	struct ss_engine *e;
	struct result res = { 0 };
	double v;

	timing_tap_start(BASE, 128, "L");
	sr = sim_run_with(tmpdir, ini, types, NULL, &opts, true);
	if (sim_run_error(&sr))
		g_error("%s", sim_run_error(&sr));
	e = ss_sim_engine(sr.sim);
#define PHASE0(name, field) \
	g_assert_true(ss_stats_lookup_phase(e, 0, name, &v)); res.field = v
	PHASE0("l1.rd_cold", cold);
	PHASE0("l1.rd_within", within);
	PHASE0("l1.rd_beyond", beyond);
	PHASE0("l1.misses", misses);
	PHASE0("l1.refused", refused);
	PHASE0("sm.refused", sm_refused);
	PHASE0("mem.reads", dram_reads);
#undef PHASE0
	res.log = timing_tap_log();
	sim_run_free(&sr);
	g_free(ini);
	return res;
}

static struct result run(unsigned sets, unsigned ways, unsigned mshr)
{
	return run_at(sets, ways, mshr, false);
}

/* ---- the rules ------------------------------------------------------------------ */

/*
 * Nothing merges, and the stack changes at completion: warp 0 reads L0 at
 * 0 and waits; warp 1 reads L0 at 1, which has not completed, so it is a
 * cold miss again and goes down too.  The answers come at 5 and 6; each
 * warp's finishing visit is the tick after its answer.
 */
static void test_no_merging(void)
{
	static const struct acc a[] = { { 0, 0, 0, 4 }, { 32, 0, 0, 4 } };
	struct result r;

	write_kernel(64, a, G_N_ELEMENTS(a));
	r = run(1, 4, 0);
	g_assert_cmpstr(r.log, ==, "0:R L0 1:R L0 5:A L0 6:A L0");
	g_assert_cmpfloat(r.cold, ==, 2);
	g_assert_cmpfloat(r.misses, ==, 2);
	g_assert_cmpfloat(r.dram_reads, ==, 2 * 128 / 32);
	g_free(r.log);
}

/*
 * Hits complete at the end of their portion, and a distance equal to the
 * ways is a miss for the simulation but counts with those within: one
 * way, thread 0 loads L0, L0, L1, L0.  L0 misses (cold, answered at 5);
 * at 6 it hits, answered in its own tick; L1 misses at 7 (answered at
 * 12); at 13 L0 has distance 1 = the ways: a miss, answered at 18.
 */
static void test_completion_and_boundary(void)
{
	static const struct acc a[] = {
		{ 0, 0, 0, 4 }, { 0, 0, 0, 4 }, { 0, 1, 0, 4 }, { 0, 0, 0, 4 },
	};
	struct result r;

	write_kernel(32, a, G_N_ELEMENTS(a));
	r = run(1, 1, 0);
	g_assert_cmpstr(r.log, ==, "0:R L0 5:A L0 6:R L0 6:A L0 7:R L1 12:A L1 13:R L0 18:A L0");
	g_assert_cmpfloat(r.cold, ==, 2);
	g_assert_cmpfloat(r.within, ==, 2);
	g_assert_cmpfloat(r.beyond, ==, 0);
	g_assert_cmpfloat(r.misses, ==, 3);
	g_free(r.log);
}

/*
 * One MSHR: warp 0 reads L0 at 0.  From 1, warp 1's lane 0 finds the
 * MSHRs full as the tick starts and is refused, nothing recorded; the
 * warp goes to the back of the queue and tries each tick.  At 5 the
 * answer to L0 comes after warp 1's visit, so L0 is still in flight when
 * warp 1 tries; at 6 the MSHR is free and L1 goes down.  Warp 1 was
 * queued at the end of its visit at 5, warp 0 only after the tick of its
 * answer, so warp 1 goes first.
 */
static void test_lead_lane_waits(void)
{
	static const struct acc a[] = { { 0, 0, 0, 4 }, { 32, 1, 0, 4 } };
	struct result r;

	write_kernel(64, a, G_N_ELEMENTS(a));
	r = run(1, 4, 1);
	g_assert_cmpstr(r.log, ==,
			"0:R L0 1:R L1 1:X L1 2:R L1 2:X L1 3:R L1 3:X L1 4:R L1 4:X L1 "
			"5:R L1 5:X L1 5:A L0 6:R L1 11:A L1");
	g_assert_cmpfloat(r.refused, ==, 5);
	g_assert_cmpfloat(r.sm_refused, ==, 5);
	g_assert_cmpfloat(r.cold, ==, 2);
	g_assert_cmpfloat(r.misses, ==, 2);
	g_free(r.log);
}

/*
 * The same with the latency drawn by the L1 when a miss is looked up (the
 * model's place for it) and a memory that answers at once: the same log.
 */
static void test_latency_at_l1(void)
{
	static const struct acc a[] = { { 0, 0, 0, 4 }, { 32, 1, 0, 4 } };
	struct result r;

	write_kernel(64, a, G_N_ELEMENTS(a));
	r = run_at(1, 4, 1, true);
	g_assert_cmpstr(r.log, ==,
			"0:R L0 1:R L1 1:X L1 2:R L1 2:X L1 3:R L1 3:X L1 4:R L1 4:X L1 "
			"5:R L1 5:X L1 5:A L0 6:R L1 11:A L1");
	g_assert_cmpfloat(r.refused, ==, 5);
	g_free(r.log);
}

/*
 * Only lane 0 ever waits: with one MSHR, lanes 0 and 1 of one warp miss
 * two lines in the same visit, and both go down.
 */
static void test_other_lanes_never_wait(void)
{
	static const struct acc a[] = { { 0, 0, 0, 4 }, { 1, 1, 0, 4 } };
	struct result r;

	write_kernel(32, a, G_N_ELEMENTS(a));
	r = run(1, 4, 1);
	g_assert_cmpstr(r.log, ==, "0:R L0 0:R L1 5:A L0 5:A L1");
	g_assert_cmpfloat(r.refused, ==, 0);
	g_assert_cmpfloat(r.misses, ==, 2);
	g_free(r.log);
}

/*
 * Coalescing in lane groups by width: all 32 lanes read within L0.  With
 * 4-byte loads the warp is one group and one request; with 8-byte ones
 * lanes 0-15 and 16-31 are two groups in two portions, each with a
 * request for L0, and the second misses too (the first has not
 * completed).
 */
static void test_lane_groups(void)
{
	struct acc a[32];
	struct result r;

	for (unsigned t = 0; t < 32; t++)
		a[t] = (struct acc){ t, 0, 4 * (t % 16), 4 };
	write_kernel(32, a, 32);
	r = run(1, 4, 0);
	g_assert_cmpstr(r.log, ==, "0:R L0 5:A L0");
	g_free(r.log);
	for (unsigned t = 0; t < 32; t++)
		a[t] = (struct acc){ t, 0, 8 * (t % 16), 8 };
	write_kernel(32, a, 32);
	r = run(1, 4, 0);
	g_assert_cmpstr(r.log, ==, "0:R L0 0:R L0 5:A L0 5:A L0");
	g_assert_cmpfloat(r.cold, ==, 2);
	g_free(r.log);
}

int main(int argc, char **argv)
{
	int ret;
	char *dir, *file;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("sectorsim-nugparts-XXXXXX", NULL);
	g_test_add_func("/nugteren-parts/no-merging", test_no_merging);
	g_test_add_func("/nugteren-parts/completion-and-boundary", test_completion_and_boundary);
	g_test_add_func("/nugteren-parts/lead-lane-waits", test_lead_lane_waits);
	g_test_add_func("/nugteren-parts/latency-at-l1", test_latency_at_l1);
	g_test_add_func("/nugteren-parts/other-lanes-never-wait", test_other_lanes_never_wait);
	g_test_add_func("/nugteren-parts/lane-groups", test_lane_groups);
	ret = g_test_run();
	dir = g_build_filename(tmpdir, "k", NULL);
	file = g_build_filename(dir, "k_00.trc", NULL);
	g_unlink(file);
	g_rmdir(dir);
	g_rmdir(tmpdir);
	g_free(file);
	g_free(dir);
	g_free(tmpdir);
	timing_tap_free();
	return ret;
}
