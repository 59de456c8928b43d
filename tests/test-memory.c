/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory does not grow with the trace: the largest golden app (bfs, 16
 * kernels, 7 MB of trace) must run in under 200 MiB, and the same trace
 * listed ten times over (160 kernels) in about the same.  Peak resident
 * memory of each sectorsim run is what wait4() reports for it.
 */
#include "config.h"

#include "sanitized.h"
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <string.h>
#include "accelsim_grid.h"

static char *bfs;		/* ../shared/golden/real/bfs-a100-v3, or NULL */

/* Peak RSS in KiB of `sectorsim --quiet --threads N CONFIG trace`, CONFIG
 * under configs/; -1 if it failed. */
static long peak_kib_threads(const char *config, const char *trace, unsigned threads)
{
	char *cfg = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "configs",
				     config, NULL);
	char *n = g_strdup_printf("--threads=%u", threads);
	const char *argv[] = { g_getenv("SECTORSIM"), "--quiet", cfg, trace, n, NULL };
	GError *err = NULL;
	GPid pid;
	int status;
	struct rusage ru;

	if (!g_spawn_async(NULL, (char **)argv, NULL,
			   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
			   NULL, NULL, &pid, &err))
		g_error("%s", err->message);
	g_free(cfg);
	g_free(n);
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return ru.ru_maxrss;
}

/* mode 1 (base and stride 4): the block's own 128 bytes per instruction */
static void grid_inst(FILE *f, unsigned b, unsigned i)
{
	fprintf(f, "ffffffff 1 R2 LDG.E 1 R4 4 1 0x%llx 4 0\n",
		0x7f0000000000ULL + ((unsigned long long)b * 16 + i) * 128);
}

/*
 * An Accel-Sim trace of one kernel: `blocks` thread blocks of one warp,
 * each with 16 loads of its own 128 bytes (mode 1, stride 4), in `dir`.
 */
static void write_grid(const char *dir, unsigned blocks)
{
	write_accelsim_grid_in(dir, blocks, grid_inst);
}

static void remove_grid(char *dir)
{
	const char *names[] = { "kernel-1.traceg", "kernelslist.g" };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		char *p = g_build_filename(dir, names[i], NULL);

		g_unlink(p);
		g_free(p);
	}
	g_rmdir(dir);
	g_free(dir);
}

/*
 * Dynamic dispatch (the hw titanv.ini) runs every block of a kernel; a
 * finished block's lines are released, so a grid of 20 waves needs about
 * the memory of a grid of 2, where keeping them would take ~200 MiB more.
 * On several threads the messages between partitions add their bounded
 * queues (4 MiB a sender in time order), which a grid of 2 waves does not
 * fill: 20 waves may take up to 32 MiB more there, and 80 no more than 20.
 */
static void test_flat_grid(void)
{
	char *small = g_dir_make_tmp("sectorsim-grid-XXXXXX", NULL);
	char *large = g_dir_make_tmp("sectorsim-grid-XXXXXX", NULL);
	char *huge = g_dir_make_tmp("sectorsim-grid-XXXXXX", NULL);
	long one, many, one2, many2, most2;

#ifdef SS_SANITIZED
	g_test_skip("sanitizer build: resident memory says nothing here");
	remove_grid(small);
	remove_grid(large);
	remove_grid(huge);
	return;
#endif
	/* TITAN V: 80 SMs x 32 resident one-warp blocks = 2560 per wave */
	write_grid(small, 5120);
	write_grid(large, 51200);
	write_grid(huge, 204800);
	one = peak_kib_threads("titanv.ini", small, 1);
	many = peak_kib_threads("titanv.ini", large, 1);
	one2 = peak_kib_threads("titanv.ini", small, 2);
	many2 = peak_kib_threads("titanv.ini", large, 2);
	most2 = peak_kib_threads("titanv.ini", huge, 2);
	g_test_message("peak resident memory, 1 thread: %ld KiB for 2 waves, %ld KiB for 20 waves", one, many);
	g_test_message("peak resident memory, 2 threads: %ld KiB for 2 waves, %ld KiB for 20, %ld KiB for 80",
		       one2, many2, most2);
	g_assert_cmpint(one, >, 0);
	g_assert_cmpint(many, >, 0);
	g_assert_cmpint(one2, >, 0);
	g_assert_cmpint(many2, >, 0);
	g_assert_cmpint(most2, >, 0);
	g_assert_cmpint(many, <=, one + 16 * 1024);
	g_assert_cmpint(many2, <=, one2 + 32 * 1024);
	g_assert_cmpint(most2, <=, many2 + 16 * 1024);
	remove_grid(small);
	remove_grid(large);
	remove_grid(huge);
}

/*
 * `sectorsim --quiet ARGS...` with at most `cpu_s` seconds of CPU: its exit
 * status (128 + signal when killed), peak RSS in KiB and standard error.
 */
static void limit_cpu(gpointer data)
{
	struct rlimit rl = { GPOINTER_TO_UINT(data), GPOINTER_TO_UINT(data) };

	setrlimit(RLIMIT_CPU, &rl);
}

static int run_args(const char *const *args, unsigned cpu_s, long *kib,
		    char **errtext)
{
	GPtrArray *argv = g_ptr_array_new();
	GError *err = NULL;
	GPid pid;
	int status, fd;
	struct rusage ru;
	GString *text = g_string_new(NULL);
	char buf[4096];
	ssize_t n;

	g_ptr_array_add(argv, (char *)g_getenv("SECTORSIM"));
	/* the run's option; a command (convert) takes its own */
	if (strcmp(args[0], "convert") != 0)
		g_ptr_array_add(argv, "--quiet");
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_async_with_pipes(NULL, (char **)argv->pdata, NULL,
				      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
				      limit_cpu, GUINT_TO_POINTER(cpu_s), &pid,
				      NULL, NULL, &fd, &err))
		g_error("%s", err->message);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		g_string_append_len(text, buf, n);
	close(fd);
	g_assert_cmpint(wait4(pid, &status, 0, &ru), ==, pid);
	g_ptr_array_free(argv, TRUE);
	*kib = ru.ru_maxrss;
	*errtext = g_string_free(text, FALSE);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *src_path(const char *rel)
{
	return g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", rel, NULL);
}

/*
 * A cache larger than the machine's memory is the user's error, found
 * when the configuration is built: exit 2 and a message naming the
 * section's FILE:LINE and the size, not an abort from the allocator.
 */
static void test_size_beyond_memory(void)
{
	char *cfg = src_path("configs/validation/titanv-ref.ini");
	char *trace = src_path("traces/vectoradd-a100");
	const char *args[] = { "-p", "l2.size=256GiB", cfg, trace, NULL };
	char *text;
	long kib;
	int rc = run_args(args, 20, &kib, &text);

	g_test_message("exit %d: %s", rc, text);
	g_assert_cmpint(rc, ==, 2);
	g_assert_nonnull(strstr(text, "titanv-ref.ini:45: l2 (type l2_slice_set): create: "));
	g_assert_nonnull(strstr(text, " (274877906944 bytes): the cache's tables need "));
	g_assert_null(strstr(text, "ERROR **"));
	g_assert_cmpuint(strlen(text), ==, strcspn(text, "\n") + 1);
	g_free(text);
	g_free(cfg);
	g_free(trace);
}

/*
 * Caches that each fit but whose per-set records (walked at every
 * kernel's end, so touched whatever the trace) add up to more than the
 * machine's memory: refused when built, naming the sum.  48 one-way L2
 * slices of S sets, S the power of two above memory / (48 x 8 bytes): the
 * records take 8 bytes a set, a slice's whole tables under 100, so each
 * slice alone stays under memory / 2.
 */
static void test_sum_beyond_memory(void)
{
#ifdef SS_SANITIZED
	/* ASan's allocator maps and poisons the half of the machine's memory
	 * the caches before the refused one take, which takes minutes */
	g_test_skip("sanitizer build: tables of gigabytes are too slow to map");
#else
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	guint64 phys = (guint64)pages * (guint64)page, sets = 1;
	char *cfg, *trace, *opt, *text;
	long kib;
	int rc;

	if (pages <= 0 || page <= 0) {
		g_test_skip("the system does not say how much memory it has");
		return;
	}
	cfg = src_path("configs/titanv.ini");
	trace = src_path("traces/vectoradd-a100");
	while (sets * 48 * 8 <= phys)
		sets *= 2;
	opt = g_strdup_printf("l2.sets=%" G_GUINT64_FORMAT, sets);
	{
		const char *args[] = { "-p", opt, "-p", "l2.assoc=1", "-p",
				       "l2.index=linear", cfg, trace, NULL };

		rc = run_args(args, 20, &kib, &text);
	}
	g_test_message("exit %d: %s", rc, text);
	g_assert_cmpint(rc, ==, 2);
	g_assert_nonnull(strstr(text, "l2 (type l2_slice_set): create: "));
	g_assert_nonnull(strstr(text, "bytes of per-set records, walked at every kernel's end, would bring those of the run's caches to "));
	g_assert_cmpuint(strlen(text), ==, strcspn(text, "\n") + 1);
	g_assert_cmpint(kib, <, 256 * 1024);
	g_free(text);
	g_free(opt);
	g_free(cfg);
	g_free(trace);
#endif
}

/*
 * A paper-format kernel of 10^10 blocks and no block file (or a few):
 * under dynamic dispatch every block "runs", but the absent ones carry
 * nothing, so the kernel ends at once, in a few MiB, as it does under the
 * reference's first-wave dispatch, with the whole grid counted.
 */
static void test_huge_grid(void)
{
	char *dir = g_dir_make_tmp("sectorsim-huge-XXXXXX", NULL);
	char *traces = g_build_filename(dir, "memory_traces", NULL);
	char *app = g_build_filename(dir, "app_config.py", NULL);
	char *mem = g_build_filename(traces, "kernel_1_block_9999999999.mem", NULL);
	char *stats = g_build_filename(dir, "stats.txt", NULL);
	char *cfg = src_path("configs/titanv.ini");
	const char *args[] = { "-o", stats, cfg, dir, NULL };
	char *text, *out;
	long kib;
	int rc;

	g_assert_true(g_file_set_contents(app,
		"kernel_1 = {\"kernel_name\": \"k\", \"num_registers\": 32,\n"
		" \"shared_mem_bytes\": 0, \"grid_size\": 10000000000,\n"
		" \"block_size\": 256, \"cuda_stream_id\": 0}\n"
		"app_kernels_id = [1]\n", -1, NULL));
	/* no file at all */
	rc = run_args(args, 10, &kib, &text);
	g_test_message("no block file: exit %d, %ld KiB: %s", rc, kib, text);
	g_assert_cmpint(rc, ==, 0);
#ifndef SS_SANITIZED
	g_assert_cmpint(kib, <, 64 * 1024);
#endif
	g_assert_true(g_file_get_contents(stats, &out, NULL, NULL));
	g_assert_true(g_regex_match_simple("sched.blocks +10000000000 ", out, 0, 0));
	g_assert_true(g_regex_match_simple("sched.empty_blocks +10000000000 ", out, 0, 0));
	g_free(out);
	g_free(text);
	/* first_wave keeping every block (granularity = avg): refused with
	 * one line, not an allocation of 10^10 pointers that aborts */
	{
		char *ref = src_path("configs/validation/titanv-ref.ini");
		const char *avg[] = { "-p", "sched.granularity=avg", ref, dir, NULL };

		rc = run_args(avg, 10, &kib, &text);
		g_test_message("granularity = avg: exit %d, %ld KiB: %s", rc, kib, text);
		g_assert_cmpint(rc, ==, 2);
		g_assert_true(g_regex_match_simple(
			"^sched: kernel 1 \\(k\\): its first wave of 10000000000 blocks needs about [0-9]+ bytes at once, [0-9]+ with what the run holds already, more than the run's memory \\([0-9]+ bytes\\); expected granularity = max_active or one, or policy = dynamic\n$",
			text, 0, 0));
		g_free(text);
		g_free(ref);
	}
	/* the last block only: one run of 10^10 - 1 absent blocks */
	g_assert_cmpint(g_mkdir(traces, 0755), ==, 0);
	g_assert_true(g_file_set_contents(mem, "LDG 0x1000 0x1004\n", -1, NULL));
	rc = run_args(args, 10, &kib, &text);
	g_test_message("one block file: exit %d, %ld KiB: %s", rc, kib, text);
	g_assert_cmpint(rc, ==, 0);
#ifndef SS_SANITIZED
	g_assert_cmpint(kib, <, 64 * 1024);
#endif
	g_assert_true(g_file_get_contents(stats, &out, NULL, NULL));
	g_assert_true(g_regex_match_simple("sched.blocks +10000000000 ", out, 0, 0));
	g_assert_true(g_regex_match_simple("sched.empty_blocks +9999999999 ", out, 0, 0));
	g_assert_true(g_regex_match_simple("sched.blocks_done +1 ", out, 0, 0));
	g_free(out);
	g_free(text);
	g_unlink(mem);
	g_rmdir(traces);
	g_unlink(app);
	g_unlink(stats);
	g_rmdir(dir);
	g_free(mem);
	g_free(traces);
	g_free(app);
	g_free(stats);
	g_free(cfg);
	g_free(dir);
}

/*
 * The same in Accel-Sim's format, where the reader knows which blocks the
 * kernel's file holds only once it has read it to the end: the first
 * batch reads it, and the scheduler passes over the rest of the grid
 * instead of dispatching it block by block (time and memory grew with
 * the grid).  Both the simulation and `convert`.
 */
static void test_huge_grid_accelsim(void)
{
	char *dir = g_dir_make_tmp("sectorsim-hugeas-XXXXXX", NULL);
	char *list = g_build_filename(dir, "kernelslist.g", NULL);
	char *kernel = g_build_filename(dir, "kernel-1.traceg", NULL);
	char *stats = g_build_filename(dir, "stats.txt", NULL);
	char *sst = g_build_filename(dir, "t.sst", NULL);
	char *cfg = src_path("configs/a100.ini");
	const char *args[] = { "-o", stats, cfg, dir, NULL };
	const char *conv[] = { "convert", dir, sst, NULL };
	const char *native[] = { "-o", stats, cfg, sst, NULL };
	char *text, *out;
	long kib;
	int rc;

	g_assert_true(g_file_set_contents(list, "kernel-1.traceg\n", -1, NULL));
	g_assert_true(g_file_set_contents(kernel,
		"-kernel name = k\n-kernel id = 1\n-grid dim = (100000,100000,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
		"-accelsim tracer version = 5\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
		"#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
		"0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0000000000 4 0\n"
		"#END_TB\n", -1, NULL));
	for (int pass = 0; pass < 2; pass++) {
		rc = run_args(pass ? native : args, 10, &kib, &text);
		g_test_message("%s: exit %d, %ld KiB: %s", pass ? "native" : "accelsim",
			       rc, kib, text);
		g_assert_cmpint(rc, ==, 0);
#ifndef SS_SANITIZED
		g_assert_cmpint(kib, <, 64 * 1024);
#endif
		g_assert_true(g_file_get_contents(stats, &out, NULL, NULL));
		g_assert_true(g_regex_match_simple("sched.blocks +10000000000 ", out, 0, 0));
		g_assert_true(g_regex_match_simple("sched.empty_blocks +9999999999 ", out, 0, 0));
		g_assert_true(g_regex_match_simple("sm.blocks +1 ", out, 0, 0));
		g_free(out);
		g_free(text);
		if (!pass) {
			rc = run_args(conv, 10, &kib, &text);
			g_test_message("convert: exit %d, %ld KiB: %s", rc, kib, text);
			g_assert_cmpint(rc, ==, 0);
			g_free(text);
		}
	}
	g_unlink(sst);
	g_unlink(stats);
	g_unlink(kernel);
	g_unlink(list);
	g_rmdir(dir);
	g_free(sst);
	g_free(stats);
	g_free(kernel);
	g_free(list);
	g_free(cfg);
	g_free(dir);
}

static void test_flat(void)
{
	char *dir, *list;
	GString *ten;
	GDir *d;
	const char *name;
	char *text;
	long one, many, one2, many2;

	if (!bfs) {
		g_test_skip("../shared/golden is not there (set SECTORSIM_SHARED)");
		return;
	}
#ifdef SS_SANITIZED
	/* its quarantine keeps freed memory resident on purpose */
	g_test_skip("sanitizer build: resident memory says nothing here");
	return;
#endif
	/* the app ten times: its kernel files linked, its list repeated */
	ten = g_string_new(NULL);
	dir = g_dir_make_tmp("sectorsim-bfs10-XXXXXX", NULL);
	d = g_dir_open(bfs, 0, NULL);
	while ((name = g_dir_read_name(d))) {
		char *from = g_build_filename(bfs, name, NULL);
		char *to = g_build_filename(dir, name, NULL);

		if (g_str_has_prefix(name, "kernel-"))
			g_assert_cmpint(symlink(from, to), ==, 0);
		g_free(from);
		g_free(to);
	}
	g_dir_close(d);
	list = g_build_filename(bfs, "kernelslist.g", NULL);
	g_assert_true(g_file_get_contents(list, &text, NULL, NULL));
	for (int i = 0; i < 10; i++)
		g_string_append(ten, text);
	g_free(list);
	list = g_build_filename(dir, "kernelslist.g", NULL);
	g_assert_true(g_file_set_contents(list, ten->str, -1, NULL));

	one = peak_kib_threads("validation/a100-ref.ini", bfs, 1);
	many = peak_kib_threads("validation/a100-ref.ini", dir, 1);
	one2 = peak_kib_threads("validation/a100-ref.ini", bfs, 2);
	many2 = peak_kib_threads("validation/a100-ref.ini", dir, 2);
	g_test_message("peak resident memory: %ld KiB for bfs, %ld KiB for bfs ten times; on 2 threads %ld and %ld KiB",
		       one, many, one2, many2);
	g_assert_cmpint(one, >, 0);
	g_assert_cmpint(many, >, 0);
	g_assert_cmpint(one2, >, 0);
	g_assert_cmpint(many2, >, 0);
	g_assert_cmpint(one, <, 200 * 1024);
	/* flat: what one more kernel keeps is a line of results at most */
	g_assert_cmpint(many, <=, one + one / 10);
	/*
	 * On two threads the peak also has the message batches in flight,
	 * which vary from run to run (by up to 15 % of bfs's here) but do
	 * not grow with the kernels.
	 */
	g_assert_cmpint(many2, <=, one2 + one2 / 4);

	/* clean up the links and the list */
	d = g_dir_open(dir, 0, NULL);
	while ((name = g_dir_read_name(d))) {
		char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
		g_free(p);
	}
	g_dir_close(d);
	g_rmdir(dir);
	g_free(dir);
	g_free(list);
	g_free(text);
	g_string_free(ten, TRUE);
}

int main(int argc, char **argv)
{
	const char *env = g_getenv("SECTORSIM_SHARED");
	char *p;

	g_test_init(&argc, &argv, NULL);
	p = env ? g_build_filename(env, "golden", "real", "bfs-a100-v3", NULL)
		: g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "..", "shared",
				   "golden", "real", "bfs-a100-v3", NULL);
	if (g_file_test(p, G_FILE_TEST_IS_DIR))
		bfs = p;
	else
		g_free(p);
	g_test_add_func("/memory/flat-in-trace-length", test_flat);
	g_test_add_func("/memory/flat-in-grid-size", test_flat_grid);
	g_test_add_func("/memory/size-beyond-memory", test_size_beyond_memory);
	g_test_add_func("/memory/sum-beyond-memory", test_sum_beyond_memory);
	g_test_add_func("/memory/huge-grid-without-blocks", test_huge_grid);
	g_test_add_func("/memory/huge-grid-accelsim", test_huge_grid_accelsim);
	return g_test_run();
}
