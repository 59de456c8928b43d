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

/* Peak RSS in KiB of `sectorsim --quiet CONFIG trace`; -1 if it failed. */
static long peak_kib(const char *trace)
{
	char *cfg = g_build_filename(g_getenv("G_TEST_SRCDIR"), "..", "configs",
				     "validation", "a100-ref.ini", NULL);
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
	return g_test_run();
}
