/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trace reader's public side (trace.h): picking the format, the kernel
 * sequence, the blocks of the current kernel and their storage; plus what
 * both formats use: number parsing and error messages.  The formats
 * themselves are trace_ppt.c and trace_accelsim.c; they read lines with
 * linereader.c and build blocks with block_builder.c.
 *
 * Storage: a block is one allocation (block_builder.c), kept by its id
 * until the next kernel starts, when all blocks of the kernel are freed.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "trace_internal.h"

/* ---- errors ------------------------------------------------------------- */

void trace_error(GError **err, const char *file, uint64_t line,
		 const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line)
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
			    "%s:%" G_GUINT64_FORMAT ": %s", file, line, msg);
	else
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT, "%s: %s", file, msg);
	g_free(msg);
}

const char *trace_show(struct shown *buf, const char *tok, size_t len)
{
	size_t n = len > SHOWN_MAX ? SHOWN_MAX : len, i;

	/* one line of ASCII whatever the input holds */
	for (i = 0; i < n; i++) {
		unsigned char c = tok[i];

		buf->s[i] = c < 0x20 || c >= 0x7f ? '?' : c;
	}
	if (n < len) {
		memcpy(buf->s + n, "...", 3);
		n += 3;
	}
	buf->s[n] = '\0';
	return buf->s;
}

/* ---- numbers ------------------------------------------------------------ */

const int8_t trace_hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* ---- blocks of the current kernel -------------------------------------- */

const char *trace_intern(struct trace_reader *t, const char *s)
{
	return g_string_chunk_insert_const(t->strings, s);
}

bool trace_finish_block(struct trace_reader *t, uint64_t id, bool sort,
			GError **err)
{
	struct gpu_block *b = builder_finish(&t->build, id, sort, err);

	if (!b)
		return false;
	g_hash_table_replace(t->loaded, &b->id, b);
	return true;
}

const struct gpu_block *trace_find_block(struct trace_reader *t, uint64_t id)
{
	return g_hash_table_lookup(t->loaded, &id);
}

/* ---- the public API ----------------------------------------------------- */

static bool source_load(struct gpu_block_source *s, const uint64_t *ids,
			size_t n, const struct gpu_block **out, GError **err)
{
	struct trace_reader *t = (struct trace_reader *)
		((char *)s - offsetof(struct trace_reader, source));

	return trace_load_blocks(t, ids, n, out, err);
}

static void source_release(struct gpu_block_source *s, const struct gpu_block *b)
{
	struct trace_reader *t = (struct trace_reader *)
		((char *)s - offsetof(struct trace_reader, source));

	g_hash_table_remove(t->loaded, &b->id);
}

static const struct gpu_block_source_ops source_ops = {
	.load = source_load,
	.release = source_release,
};

static struct trace_reader *reader_new(enum trace_format fmt, const char *dir)
{
	struct trace_reader *t = g_new0(struct trace_reader, 1);

	t->source.ops = &source_ops;
	t->fmt = fmt;
	t->dir = g_strdup(dir);
	t->strings = g_string_chunk_new(4096);
	t->loaded = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
					  g_free);
	return t;
}

static bool is_file(const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);
	bool yes = g_file_test(p, G_FILE_TEST_IS_REGULAR);

	g_free(p);
	return yes;
}

struct trace_reader *trace_open(const char *path, enum trace_format fmt,
				GError **err)
{
	struct trace_reader *t = NULL;
	char *dir = NULL, *list = NULL, *base = NULL;
	bool ok;

	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		bool ppt = is_file(path, "app_config.py");
		bool as = is_file(path, "kernelslist.g");

		dir = g_strdup(path);
		/*
		 * A directory holding both is taken as the reference format:
		 * it is what the golden converter writes next to an Accel-Sim
		 * trace, and what the reference itself would read.  Ask for
		 * TRACE_ACCELSIM to read the other one.
		 */
		if (fmt == TRACE_AUTO)
			fmt = ppt ? TRACE_PPT : as ? TRACE_ACCELSIM : TRACE_AUTO;
		if (fmt == TRACE_AUTO) {
			g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
				    "%s: neither app_config.py nor kernelslist.g found; expected a trace directory",
				    path);
			goto out;
		}
		if (fmt == TRACE_PPT && !ppt) {
			trace_error(err, "app_config.py", 0, "no such file in '%s'",
				    path);
			goto out;
		}
		if (fmt == TRACE_ACCELSIM) {
			if (!as) {
				trace_error(err, "kernelslist.g", 0,
					    "no such file in '%s'", path);
				goto out;
			}
			list = g_build_filename(path, "kernelslist.g", NULL);
		}
	} else if (g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		dir = g_path_get_dirname(path);
		base = g_path_get_basename(path);
		if (fmt == TRACE_AUTO)
			fmt = strcmp(base, "app_config.py") ? TRACE_ACCELSIM
				: TRACE_PPT;
		if (fmt == TRACE_PPT && strcmp(base, "app_config.py")) {
			g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
				    "%s: a file; expected a directory with app_config.py",
				    path);
			goto out;
		}
		if (fmt == TRACE_ACCELSIM)
			list = g_strdup(path);
	} else {
		g_set_error(err, SS_ERROR, SS_ERROR_INPUT,
			    "%s: no such file or directory", path);
		goto out;
	}
	t = reader_new(fmt, dir);
	ok = fmt == TRACE_PPT ? ppt_open(t, err) : as_open(t, list, err);
	if (!ok)
		g_clear_pointer(&t, trace_close);
out:
	g_free(dir);
	g_free(list);
	g_free(base);
	return t;
}

static void drop_kernel(struct trace_reader *t)
{
	g_hash_table_remove_all(t->loaded);
	g_string_chunk_clear(t->strings);
	g_clear_error(&t->failed);
	memset(&t->kernel, 0, sizeof(t->kernel));
	t->in_kernel = false;
}

void trace_close(struct trace_reader *t)
{
	if (!t)
		return;
	if (t->fmt == TRACE_PPT)
		ppt_free(t);
	else
		as_free(t);
	drop_kernel(t);
	g_hash_table_destroy(t->loaded);
	g_string_chunk_free(t->strings);
	builder_free(&t->build);
	g_free(t->kernel_bytes);
	g_free(t->dir);
	g_free(t);
}

enum trace_format trace_format_of(const struct trace_reader *t)
{
	return t->fmt;
}

const struct gpu_kernel *trace_next_kernel(struct trace_reader *t,
					   GError **err)
{
	bool end = false, ok;

	drop_kernel(t);
	ok = t->fmt == TRACE_PPT ? ppt_next_kernel(t, &end, err)
		: as_next_kernel(t, &end, err);
	if (!ok || end)
		return NULL;
	t->in_kernel = true;
	t->kernel.ordinal = ++t->n_read;
	t->kernel.n_kernels = t->fmt == TRACE_PPT ? ppt_kernel_count(t)
						   : as_kernel_count(t);
	/* sizes for the progress line, measured once */
	if (!t->kernel_bytes) {
		t->kernel_bytes = g_new0(uint64_t, t->kernel.n_kernels + 1);
		for (size_t i = 0; i < t->kernel.n_kernels; i++)
			t->kernel_bytes[i] = t->fmt == TRACE_PPT ? ppt_kernel_bytes(t, i)
								  : as_kernel_bytes(t, i);
	}
	for (size_t i = 0; i < t->kernel.n_kernels; i++) {
		if (i + 1 < t->kernel.ordinal)
			t->kernel.trace_bytes_before += t->kernel_bytes[i];
		if (i + 1 == t->kernel.ordinal)
			t->kernel.trace_bytes = t->kernel_bytes[i];
		t->kernel.trace_bytes_total += t->kernel_bytes[i];
	}
	return &t->kernel;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

bool trace_load_blocks(struct trace_reader *t, const uint64_t *ids, size_t n,
		       const struct gpu_block **out, GError **err)
{
	uint64_t *want;
	size_t n_want = 0;
	bool sorted = true;

	if (!t->in_kernel) {
		g_set_error(err, SS_ERROR, SS_ERROR_INTERNAL,
			    "trace: blocks asked for with no current kernel");
		return false;
	}
	if (t->failed) {
		g_propagate_error(err, g_error_copy(t->failed));
		return false;
	}
	want = g_new(uint64_t, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		if (ids[i] >= t->kernel.grid_size) {
			g_set_error(err, SS_ERROR, SS_ERROR_INTERNAL,
				    "trace: block %" G_GUINT64_FORMAT " asked for, but kernel %u has %" G_GUINT64_FORMAT " blocks",
				    ids[i], t->kernel.id, t->kernel.grid_size);
			g_free(want);
			return false;
		}
		if (trace_find_block(t, ids[i]))
			continue;
		if (n_want && ids[i] <= want[n_want - 1])
			sorted = false;
		want[n_want++] = ids[i];
	}
	if (!sorted) {
		size_t k = 0;

		qsort(want, n_want, sizeof(*want), cmp_u64);
		for (size_t i = 0; i < n_want; i++)
			if (!k || want[i] != want[k - 1])
				want[k++] = want[i];
		n_want = k;
	}
	if (n_want) {
		GError *e = NULL;
		bool ok = t->fmt == TRACE_PPT ? ppt_load(t, want, n_want, &e)
			: as_load(t, want, n_want, &e);

		if (!ok) {
			t->failed = e;
			g_propagate_error(err, g_error_copy(e));
			g_free(want);
			return false;
		}
		/* what the trace lacks is an empty block */
		for (size_t i = 0; i < n_want; i++) {
			if (trace_find_block(t, want[i]))
				continue;
			builder_reset(&t->build);
			trace_finish_block(t, want[i], false, NULL);
		}
	}
	g_free(want);
	for (size_t i = 0; i < n; i++)
		out[i] = trace_find_block(t, ids[i]);
	return true;
}

struct gpu_block_source *trace_block_source(struct trace_reader *t)
{
	return &t->source;
}
