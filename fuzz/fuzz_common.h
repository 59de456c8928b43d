/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the fuzz targets share: one temporary folder per process, removed
 * at exit, into which each input is written where its parser expects it,
 * and a walk over a trace that reads every kernel and a few blocks of each.
 * Header-only: each target is one program.
 */
#ifndef SS_FUZZ_COMMON_H
#define SS_FUZZ_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *fuzz_dir;

/* Harness code that libFuzzer need not see (clang >= 13). */
#if defined(__clang__) && __clang_major__ >= 13
#define FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FUZZ_NO_COVERAGE
#endif

static void fuzz_rm_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *n;

	if (d) {
		while ((n = g_dir_read_name(d))) {
			char *p = g_build_filename(path, n, NULL);

			fuzz_rm_tree(p);
			g_free(p);
		}
		g_dir_close(d);
	}
	g_remove(path);
}

static void fuzz_cleanup(void)
{
	if (fuzz_dir)
		fuzz_rm_tree(fuzz_dir);
	g_clear_pointer(&fuzz_dir, g_free);
}

/*
 * Once per process: GLib's slice allocator off (it hides blocks from ASan,
 * as for make check), and the temporary folder.  Every input is written
 * there, and on a disk file system rewriting a file can cost more than
 * parsing it (ext4 frees the old blocks on truncation, with a discard when
 * mounted so): with `tmpfs`, the folder is in /dev/shm when there is one,
 * else in TMPDIR.  A target whose input names files (the INI's includes)
 * passes false: from /dev/shm/FOLDER, "../../stdin" is /dev/stdin.
 */
static void fuzz_setup_in(bool tmpfs)
{
	GError *err = NULL;

	setenv("G_SLICE", "always-malloc", 1);
	if (tmpfs && g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) &&
	    access("/dev/shm", W_OK | X_OK) == 0) {
		fuzz_dir = g_build_filename("/dev/shm", "sectorsim-fuzz-XXXXXX", NULL);
		if (!g_mkdtemp_full(fuzz_dir, 0700))
			g_clear_pointer(&fuzz_dir, g_free);
	}
	if (!fuzz_dir)
		fuzz_dir = g_dir_make_tmp("sectorsim-fuzz-XXXXXX", &err);
	if (!fuzz_dir) {
		fprintf(stderr, "fuzz: %s\n", err->message);
		abort();
	}
	atexit(fuzz_cleanup);
}

/* The folder on tmpfs when there is one: inputs that name no file. */
G_GNUC_UNUSED static void fuzz_setup(void)
{
	fuzz_setup_in(true);
}

/*
 * FUZZ_DIR/NAME (NAME may hold one folder, made on demand), written whole:
 * a new file each time, not the old one truncated, which on ext4 (outside
 * tmpfs) would write the old text out at close (auto_da_alloc) and free
 * its blocks at the next truncation; an unlinked file's text that never
 * reached the disk is merely dropped.
 */
static void fuzz_write(const char *name, const void *data, size_t size)
{
	char *path = g_build_filename(fuzz_dir, name, NULL);
	char *dir = g_path_get_dirname(path);
	FILE *f;

	g_mkdir_with_parents(dir, 0700);
	g_unlink(path);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		perror(path);
		abort();
	}
	g_free(dir);
	g_free(path);
}

G_GNUC_UNUSED static void fuzz_write_str(const char *name, const char *text)
{
	fuzz_write(name, text, strlen(text));
}

/* A file of the source tree (FUZZ_SRCDIR/SRC) copied to FUZZ_DIR/NAME. */
G_GNUC_UNUSED static void fuzz_copy(const char *src, const char *name)
{
	char *path = g_build_filename(FUZZ_SRCDIR, src, NULL);
	char *text;
	gsize len;

	if (!g_file_get_contents(path, &text, &len, NULL)) {
		fprintf(stderr, "fuzz: cannot read %s\n", path);
		abort();
	}
	fuzz_write(name, text, len);
	g_free(text);
	g_free(path);
}

/*
 * Does `data`, with whitespace and backslashes dropped, hold `word`
 * (ignoring case)?  Joined lines and spaces cannot hide it.  Not
 * instrumented for coverage: a scan of the input that is no parser's would
 * cost time at every byte and feed libFuzzer features of its own.
 */
FUZZ_NO_COVERAGE G_GNUC_UNUSED static bool fuzz_mentions(const uint8_t *data, size_t size, const char *word)
{
	size_t n = strlen(word), k = 0;

	for (size_t i = 0; i < size; i++) {
		char c = (char)data[i];

		if (c == '\\' || g_ascii_isspace(c))
			continue;
		if (g_ascii_tolower(c) == word[k]) {
			if (++k == n)
				return true;
		} else {
			/* restart; words used here have no repeated prefix */
			k = g_ascii_tolower(c) == word[0];
		}
	}
	return false;
}

#ifdef SS_FUZZ_TRACE
#include "trace.h"

/* Every kernel of the trace in FUZZ_DIR, and blocks 0..6 and the last one
 * of each (their lines, addresses and pyset sectors read through; with
 * `stream`, a native trace's blocks streamed, as a run reads them), with
 * the block source's count of the blocks it holds (as the report asks it
 * when a kernel ends; before the loads on every other kernel, so that the
 * loads then find the blocks again in a file read to its end), until an
 * error. */
static void fuzz_walk_trace_at(const char *path, enum trace_format_id fmt,
			       bool stream)
{
	GError *err = NULL;
	struct trace_reader *t = trace_open(path, fmt, &err);
	const struct gpu_kernel *k;
	struct gpu_block_gathered g = { 0 };
	volatile uint64_t sink = 0;

	if (!t) {
		g_clear_error(&err);
		return;
	}
	/* a native trace's sectors are parsed too (PYSET chunks) */
	trace_keep_pyset_sectors(t);
	if (stream)
		trace_stream_lines(t);
	for (int nk = 0; nk < 256 && (k = trace_next_kernel(t, &err)); nk++) {
		uint64_t ids[8];
		const struct gpu_block *out[8];
		size_t n = 0;

		sink += strlen(k->name ? k->name : "");
		for (uint64_t i = 0; i < 7 && i < k->grid_size; i++)
			ids[n++] = i;
		if (k->grid_size > 7)
			ids[n++] = k->grid_size - 1;
		struct gpu_block_source *src = trace_block_source(t);
		uint64_t held;

		sink += src->ops->next_held(src, 0);
		if (nk % 2 && !src->ops->count_held(src, &held, &err))
			break;
		if (!trace_load_blocks(t, ids, n, out, &err))
			break;
		if (!(nk % 2) && !src->ops->count_held(src, &held, &err))
			break;
		sink += held;
		for (size_t b = 0; b < n; b++) {
			const struct gpu_block *blk = gpu_block_gather(out[b], &g, &err);

			if (!blk)
				break;
			for (uint32_t l = 0; l < blk->n_lines; l++) {
				const struct gpu_line *ln = &blk->lines[l];

				sink += strlen(ln->opcode) + ln->warp + ln->lanes;
				for (uint32_t a = 0; a < ln->n_addr; a++)
					sink += gpu_line_addr(ln, a);
				for (uint32_t s = 0; ln->pyset_sectors && s < ln->n_pyset_sectors; s++)
					sink += (uint64_t)ln->pyset_sectors[s];
			}
		}
		if (err)
			break;
	}
	(void)sink;
	g_clear_error(&err);
	gpu_block_gathered_free(&g);
	trace_close(t);
}

/* The trace in the temporary folder (a folder format's marker is there). */
static inline void fuzz_walk_trace(enum trace_format_id fmt)
{
	fuzz_walk_trace_at(fuzz_dir, fmt, false);
}
#endif

#endif
