/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory-side components wired as a user would: scripted requests
 * (token_plugin's mem_script) into sector_cache, l2_slice_set and
 * dram_counter, what comes out logged in order (mem_log).  Kernel
 * boundaries (begin with an L1 size, end), the L2's round-robin merge, and
 * each kernel-end policy.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include "internal.h"
#include "simrun.h"

static char *tmpdir;

/* Build and run `ini` (the log file is LOG in it). */
static struct sim_run run_ini(const char *ini)
{
	char *logpath = g_build_filename(tmpdir, "log.txt", NULL);
	char **parts = g_strsplit(ini, "LOG", -1);
	char *text = g_strjoinv(logpath, parts);
	struct sim_run out = sim_run(tmpdir, text, NULL, NULL, true);

	if (sim_run_error(&out))
		g_error("%s", sim_run_error(&out));
	g_strfreev(parts);
	g_free(text);
	g_free(logpath);
	return out;
}

/* The log's text: complete once mem_log is destroyed (statistics first). */
static char *finish(struct sim_run *rn)
{
	char *logpath = g_build_filename(tmpdir, "log.txt", NULL);
	char *text = NULL;

	sim_run_free(rn);
	g_assert_true(g_file_get_contents(logpath, &text, NULL, NULL));
	g_free(logpath);
	return g_strstrip(text);
}

static double stat_of(struct sim_run *rn, const char *name)
{
	double v;

	if (!ss_stats_lookup(ss_sim_engine(rn->sim), name, &v))
		g_error("no statistic %s", name);
	return v;
}

#define PLUGIN "[simulation]\nplugins = token_plugin\n"

#define L2(extra) \
	"[component l2]\ntype = l2_slice_set\nsize = 64KiB\nassoc = 4\n" \
	"index = linear\nwrite_hit = write_back\nwrite_miss = allocate\n" extra

/* Two inputs that deliver whole streams one after the other still merge
 * one request at a time, and the kernel ends once, after both. */
static void test_l2_round_robin(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = B0 R0x0 R0x1000 R0x2000 E\n"
		"[component b]\ntype = mem_script\nrequests = B0 R0x3000 E\n"
		L2("")
		"[component log]\ntype = mem_log\nfile = LOG\n"
		"[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
		"[link lb]\nfrom = b.out\nto = l2.cpu_side[1]\n"
		"[link ld]\nfrom = l2.mem_side[0]\nto = log.in[0]\n");

	char *log = finish(&rn);

	g_assert_cmpstr(log, ==, "0:begin0 0:R0 0:R0x3000 0:R0x1000 0:R0x2000 0:end");
	g_free(log);
}

/* merge = arrival serves requests as they come. */
static void test_l2_arrival(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = R0x0 R0x1000 E\n"
		"[component b]\ntype = mem_script\nrequests = R0x3000 E\n"
		L2("merge = arrival\n")
		"[component log]\ntype = mem_log\nfile = LOG\n"
		"[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
		"[link lb]\nfrom = b.out\nto = l2.cpu_side[1]\n"
		"[link ld]\nfrom = l2.mem_side[0]\nto = log.in[0]\n");
	char *log = finish(&rn);

	g_assert_cmpstr(log, ==, "0:R0 0:R0x1000 0:R0x3000 0:end");
	g_free(log);
}

/* The three kernel-end policies for dirty data, then a cold or warm cache. */
static void test_final_writeback(void)
{
	/* kernel 1 dirties two sectors; kernel 2 reads one of them, dirties
	 * another line and flushes (F), which writes back and passes down */
	static const struct {
		const char *params, *log;
		double wb_flush, dirty, hits;
	} cases[] = {
		{ "final_writeback = count\n",
		  "0:W0 0:W0x20 0:end 0:R0x20 0:W0x1000 0:flush 0:end", 3, 0, 0 },
		{ "final_writeback = report\n",
		  "0:end 0:R0x20 0:W0x1000 0:flush 0:end", 1, 2, 0 },
		{ "final_writeback = none\n",
		  "0:end 0:R0x20 0:W0x1000 0:flush 0:end", 1, 0, 0 },
		/* kept: the second kernel's read of 0x20 hits */
		{ "final_writeback = count\nat_kernel_end = keep\n",
		  "0:W0 0:W0x20 0:end 0:W0x1000 0:flush 0:end", 3, 0, 1 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *ini = g_strconcat(PLUGIN
			"[component a]\ntype = mem_script\nrequests = W0x0 W0x20 E R0x20 W0x1000 F E\n",
			L2(""), cases[i].params,
			"[component log]\ntype = mem_log\nfile = LOG\n"
			"[link la]\nfrom = a.out\nto = l2.cpu_side[0]\n"
			"[link ld]\nfrom = l2.mem_side[0]\nto = log.in[0]\n", NULL);
		struct sim_run rn = run_ini(ini);
		double wb = stat_of(&rn, "l2.wb_flush"), dirty = stat_of(&rn, "l2.dirty_at_kernel_end");
		double hits = stat_of(&rn, "l2.hits");
		char *log = finish(&rn);

		g_test_message("case %zu", i);
		g_assert_cmpstr(log, ==, cases[i].log);
		g_assert_cmpfloat(wb, ==, cases[i].wb_flush);
		g_assert_cmpfloat(dirty, ==, cases[i].dirty);
		g_assert_cmpfloat(hits, ==, cases[i].hits);
		g_free(log);
		g_free(ini);
	}
}

/* size_from_kernel: a kernel's begin sets the capacity, here 4 KiB of 4
 * ways (8 sets): 40 lines cannot all stay, which 128 KiB holds. */
static void test_size_from_kernel(void)
{
	GString *reqs = g_string_new(NULL);

	for (int k = 0; k < 2; k++) {
		g_string_append_printf(reqs, "B%u ", k ? 131072 : 4096);
		for (int i = 0; i < 40; i++)
			g_string_append_printf(reqs, "R%#x ", i * 128);
		for (int i = 0; i < 40; i++)
			g_string_append_printf(reqs, "R%#x ", i * 128);
		g_string_append(reqs, "E ");
	}
	char *reqfile = g_build_filename(tmpdir, "reqs.txt", NULL);

	/* too long for one INI line: the script reads it from a file */
	g_assert_true(g_file_set_contents(reqfile, reqs->str, -1, NULL));

	char *ini = g_strdup_printf(PLUGIN
		"[component a]\ntype = mem_script\nfile = %s\n"
		"[component l1]\ntype = sector_cache\nsize = 128KiB\nassoc = 4\n"
		"size_from_kernel = true\nwrite_hit = write_through\n"
		"[component n]\ntype = mem_counter\n"
		"[link la]\nfrom = a.out\nto = l1.cpu_side\n"
		"[link ld]\nfrom = l1.mem_side\nto = n.in[0]\n", reqfile);
	struct sim_run rn = run_ini(ini);

	/* kernel 1: 4 KiB holds 32 lines, so every second-pass read misses
	 * (LRU over a cyclic pass); kernel 2 (cold, 128 KiB): 40 hits */
	g_assert_cmpfloat(stat_of(&rn, "l1.hits"), ==, 40);
	g_assert_cmpfloat(stat_of(&rn, "l1.evictions"), ==, 8 + 40);
	sim_run_free(&rn);
	g_unlink(reqfile);
	g_free(reqfile);
	g_free(ini);
	g_string_free(reqs, TRUE);
}

/* forward = all: the next level sees every request, not the misses. */
static void test_forward_all(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = R0x0 R0x0 W0x40 E\n"
		"[component l1]\ntype = sector_cache\nsize = 4KiB\nassoc = 4\n"
		"forward = all\nwrite_hit = write_through\n"
		"[component log]\ntype = mem_log\nfile = LOG\n"
		"[link la]\nfrom = a.out\nto = l1.cpu_side\n"
		"[link ld]\nfrom = l1.mem_side\nto = log.in[0]\n");
	double hits = stat_of(&rn, "l1.hits");
	char *log = finish(&rn);

	g_assert_cmpfloat(hits, ==, 1);
	g_assert_cmpstr(log, ==, "0:R0 0:R0 0:W0x40 0:end");
	g_free(log);
}

/* dram_counter: transactions per channel, and the end passed on once. */
static void test_dram_counter(void)
{
	struct sim_run rn = run_ini(PLUGIN
		"[component a]\ntype = mem_script\nrequests = B0 R0x0 W0x20 E\n"
		"[component b]\ntype = mem_script\nrequests = B0 R0x40 R0x60 E\n"
		"[component dram]\ntype = dram_counter\n"
		"[component log]\ntype = mem_log\nfile = LOG\n"
		"[link la]\nfrom = a.out\nto = dram.req[0]\n"
		"[link lb]\nfrom = b.out\nto = dram.req[1]\n"
		"[link ld]\nfrom = dram.done\nto = log.in[0]\n");
	double reads = stat_of(&rn, "dram.reads"), writes = stat_of(&rn, "dram.writes");
	double ch1 = stat_of(&rn, "dram.channel[1].reads");
	char *log = finish(&rn);

	g_assert_cmpfloat(reads, ==, 3);
	g_assert_cmpfloat(writes, ==, 1);
	g_assert_cmpfloat(ch1, ==, 2);
	g_assert_cmpstr(log, ==, "0:begin0 0:end");
	g_free(log);
}

/*
 * A single-slice L2 in front of a dram_counter tallies what it sends in
 * a drain (SS_PORT_COUNTS): DRAM counts, per channel, what the same L2
 * sends a log one request at a time.  Input a's write-back of a dirty
 * line (five lines in a set of four) and b's reads; each L2 its own
 * channel.  Each L2 has a second input that sends nothing, and the
 * merge serves the first's requests in a drain once it has ended.
 */
static void test_dram_tally(void)
{
	static const char scripts[] =
		"[component a]\ntype = mem_script\nrequests = B0 W0x0 R0x4000 R0x8000 R0xc000 R0x10000 R0x20 E\n"
		"[component b]\ntype = mem_script\nrequests = B0 R0x40 R0x60 R0x80 R0x40 E\n"
		"[component quiet]\ntype = mem_script\nrequests = B0 E\n"
		"[component quiet2]\ntype = mem_script\nrequests = B0 E\n"
		"[component la]\ntype = l2_slice_set\nsize = 64KiB\nassoc = 4\nindex = linear\n"
		"write_hit = write_back\nwrite_miss = allocate\n"
		"[component lb]\ntype = l2_slice_set\nsize = 64KiB\nassoc = 4\nindex = linear\n"
		"write_hit = write_back\nwrite_miss = allocate\n"
		"[link a_la]\nfrom = a.out\nto = la.cpu_side[0]\n"
		"[link b_lb]\nfrom = b.out\nto = lb.cpu_side[0]\n"
		"[link q_la]\nfrom = quiet.out\nto = la.cpu_side[1]\n"
		"[link q_lb]\nfrom = quiet2.out\nto = lb.cpu_side[1]\n";
	char *ini = g_strconcat(PLUGIN "[component dram]\ntype = dram_counter\n"
		"[link da]\nfrom = la.mem_side[0]\nto = dram.req[0]\n"
		"[link db]\nfrom = lb.mem_side[0]\nto = dram.req[1]\n", scripts, NULL);
	struct sim_run rn = run_ini(ini);
	double reads = stat_of(&rn, "dram.reads"), writes = stat_of(&rn, "dram.writes");
	double r0 = stat_of(&rn, "dram.channel[0].reads"), w0 = stat_of(&rn, "dram.channel[0].writes");
	double r1 = stat_of(&rn, "dram.channel[1].reads"), w1 = stat_of(&rn, "dram.channel[1].writes");

	sim_run_free(&rn);
	g_free(ini);
	ini = g_strconcat(PLUGIN "[component log]\ntype = mem_log\nfile = LOG\n"
		"[link da]\nfrom = la.mem_side[0]\nto = log.in[0]\n"
		"[link db]\nfrom = lb.mem_side[0]\nto = log.in[1]\n", scripts, NULL);
	rn = run_ini(ini);
	g_free(ini);

	char *log = finish(&rn);

	g_assert_cmpstr(log, ==, "0:begin0 1:begin0 1:R0x40 0:R0x4000 0:R0x8000 0:R0xc000 "
			"0:R0x10000 0:W0 0:R0x20 1:R0x60 1:R0x80 0:end 1:end");
	g_assert_cmpfloat(r0, ==, 5);
	g_assert_cmpfloat(w0, ==, 1);
	g_assert_cmpfloat(r1, ==, 3);
	g_assert_cmpfloat(w1, ==, 0);
	g_assert_cmpfloat(reads, ==, 8);
	g_assert_cmpfloat(writes, ==, 1);
	g_free(log);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("sectorsim-mem-XXXXXX", NULL);
	g_test_add_func("/mem/l2-round-robin", test_l2_round_robin);
	g_test_add_func("/mem/l2-arrival", test_l2_arrival);
	g_test_add_func("/mem/final-writeback", test_final_writeback);
	g_test_add_func("/mem/size-from-kernel", test_size_from_kernel);
	g_test_add_func("/mem/forward-all", test_forward_all);
	g_test_add_func("/mem/dram-counter", test_dram_counter);
	g_test_add_func("/mem/dram-tally", test_dram_tally);

	int status = g_test_run();
	char *log = g_build_filename(tmpdir, "log.txt", NULL);
	char *ini = g_build_filename(tmpdir, "t.ini", NULL);

	g_unlink(log);
	g_unlink(ini);
	g_rmdir(tmpdir);
	g_free(log);
	g_free(ini);
	return status;
}
