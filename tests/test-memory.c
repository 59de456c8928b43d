/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory does not grow with the trace: the largest golden app (bfs, 16
 * kernels, 7 MB of trace) must run in under 200 MiB, and the same trace
 * listed ten times over (160 kernels) in about the same.  Peak resident
 * memory of each sectorsim run is what wait4() reports for it.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

static char *bfs;		/* ../shared/golden/real/bfs-a100-v3, or NULL */

/* Peak RSS in KiB of `sectorsim --quiet CONFIG trace`, CONFIG under
 * configs/; -1 if it failed. */
static long peak_kib_with(const char *config, const char *trace)
{
	char *cfg = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "configs",
				     config, NULL);
	const char *argv[] = { g_getenv("SECTORSIM"), "--quiet", cfg, trace, NULL };
	GError *err = NULL;
	GPid pid;
	int status;
	struct rusage ru;

	if (!g_spawn_async(NULL, (char **)argv, NULL,
			   G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
			   NULL, NULL, &pid, &err))
		g_error("%s", err->message);
	g_free(cfg);
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return ru.ru_maxrss;
}

static long peak_kib(const char *trace)
{
	return peak_kib_with("validation/a100-ref.ini", trace);
}

/*
 * An Accel-Sim trace of one kernel: `blocks` thread blocks of one warp,
 * each with 16 loads of its own 128 bytes (mode 1, stride 4), in `dir`.
 */
static void write_grid(const char *dir, unsigned blocks)
{
	char *path = g_build_filename(dir, "kernel-1.traceg", NULL);
	FILE *f = fopen(path, "w");

	g_assert_nonnull(f);
	fprintf(f, "-kernel name = grid\n-kernel id = 1\n-grid dim = (%u,1,1)\n"
		"-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-cuda stream id = 0\n"
		"-accelsim tracer version = 5\n\n"
		"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n",
		blocks);
	for (unsigned b = 0; b < blocks; b++) {
		fprintf(f, "#BEGIN_TB\nthread block = %u,0,0\nwarp = 0\ninsts = 16\n", b);
		for (unsigned i = 0; i < 16; i++)
			fprintf(f, "%04x ffffffff 1 R2 LDG.E 1 R4 4 1 0x%llx 4 0\n", i * 16,
				0x7f0000000000ULL + ((unsigned long long)b * 16 + i) * 128);
		fprintf(f, "#END_TB\n");
	}
	g_assert_cmpint(fclose(f), ==, 0);
	g_free(path);
	path = g_build_filename(dir, "kernelslist.g", NULL);
	g_assert_true(g_file_set_contents(path, "kernel-1.traceg\n", -1, NULL));
	g_free(path);
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
 */
static void test_flat_grid(void)
{
	char *small = g_dir_make_tmp("sectorsim-grid-XXXXXX", NULL);
	char *large = g_dir_make_tmp("sectorsim-grid-XXXXXX", NULL);
	long one, many;

#ifdef __SANITIZE_ADDRESS__
	g_test_skip("AddressSanitizer build: resident memory says nothing here");
	remove_grid(small);
	remove_grid(large);
	return;
#endif
	/* TITAN V: 80 SMs x 32 resident one-warp blocks = 2560 per wave */
	write_grid(small, 5120);
	write_grid(large, 51200);
	one = peak_kib_with("titanv.ini", small);
	many = peak_kib_with("titanv.ini", large);
	g_test_message("peak resident memory: %ld KiB for 2 waves, %ld KiB for 20 waves", one, many);
	g_assert_cmpint(one, >, 0);
	g_assert_cmpint(many, >, 0);
	g_assert_cmpint(many, <=, one + 16 * 1024);
	remove_grid(small);
	remove_grid(large);
}

static void test_flat(void)
{
	char *dir, *list;
	GString *ten;
	GDir *d;
	const char *name;
	char *text;
	long one, many;

	if (!bfs) {
		g_test_skip("../shared/golden is not there (set SECTORSIM_SHARED)");
		return;
	}
#ifdef __SANITIZE_ADDRESS__
	/* its quarantine keeps freed memory resident on purpose */
	g_test_skip("AddressSanitizer build: resident memory says nothing here");
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

	one = peak_kib(bfs);
	many = peak_kib(dir);
	g_test_message("peak resident memory: %ld KiB for bfs, %ld KiB for bfs ten times", one, many);
	g_assert_cmpint(one, >, 0);
	g_assert_cmpint(many, >, 0);
	g_assert_cmpint(one, <, 200 * 1024);
	/* flat: what one more kernel keeps is a line of results at most */
	g_assert_cmpint(many, <=, one + one / 10);

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
	return g_test_run();
}
