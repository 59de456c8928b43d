/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Golden per-access streams of the paper's implementation: every CSV in
 * ../shared/golden/access/<set>/dumps.tar.gz (and the small subset bundled
 * in tests/data/golden-access.tar.gz) fed row by row through a sector cache
 * configured as the reference was must give the same `hit` and `idx` on
 * every row.  One test per stream; without ../shared only the bundled
 * subset runs, and the shared sets are reported as skipped.
 */
#include "config.h"

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sector_cache.h"

struct stream {
	char *set;	/* synth_titanv, stress_k3_smallcache */
	char *file;	/* K1_L1_SM0.csv */
	GBytes *csv;
};

static void stream_free(gpointer p)
{
	struct stream *s = p;

	g_free(s->set);
	g_free(s->file);
	g_bytes_unref(s->csv);
	g_free(s);
}

static GBytes *gunzip_file(const char *path, GError **err)
{
	GFile *f = g_file_new_for_path(path);
	GFileInputStream *in = g_file_read(f, NULL, err);
	GBytes *out = NULL;

	if (in) {
		GZlibDecompressor *z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
		GInputStream *dz = g_converter_input_stream_new(G_INPUT_STREAM(in), G_CONVERTER(z));
		GOutputStream *mem = g_memory_output_stream_new_resizable();

		if (g_output_stream_splice(mem, dz, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
					   G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, err) >= 0)
			out = g_memory_output_stream_steal_as_bytes(G_MEMORY_OUTPUT_STREAM(mem));
		g_object_unref(mem);
		g_object_unref(dz);
		g_object_unref(z);
		g_object_unref(in);
	}
	g_object_unref(f);
	return out;
}

/* The regular files of a ustar archive whose names end in .csv. */
static void read_tar(const char *path, const char *default_set, GPtrArray *out)
{
	GError *err = NULL;
	GBytes *tar = gunzip_file(path, &err);
	gsize len;
	const unsigned char *p;

	if (!tar)
		g_error("%s: %s", path, err->message);
	p = g_bytes_get_data(tar, &len);
	for (gsize off = 0; off + 512 <= len;) {
		const char *h = (const char *)p + off;
		char name[256] = "", sizebuf[13] = "";

		if (!h[0])
			break;		/* the two zero blocks at the end */
		if (h[345])
			g_snprintf(name, sizeof(name), "%.155s/%.100s", h + 345, h);
		else
			g_snprintf(name, sizeof(name), "%.100s", h);
		memcpy(sizebuf, h + 124, 12);
		gsize size = strtoull(sizebuf, NULL, 8);

		off += 512;
		if (off + size > len)
			g_error("%s: truncated archive at %s", path, name);
		if ((h[156] == '0' || h[156] == '\0') && g_str_has_suffix(name, ".csv")) {
			struct stream *s = g_new0(struct stream, 1);
			char *slash = strrchr(name, '/');

			s->file = g_strdup(slash ? slash + 1 : name);
			if (slash) {
				*slash = '\0';
				slash = strrchr(name, '/');
				s->set = g_strdup(slash ? slash + 1 : name);
			} else {
				s->set = g_strdup(default_set);
			}
			s->csv = g_bytes_new_from_bytes(tar, off, size);
			g_ptr_array_add(out, s);
		}
		off += (size + 511) / 512 * 512;
	}
	g_bytes_unref(tar);
}

/* The configurations of shared/golden/access/README.md. */
static bool config_for(const struct stream *s, struct sc_config *cfg)
{
	int kernel, sm;
	bool l1 = sscanf(s->file, "K%d_L1_SM%d.csv", &kernel, &sm) == 2;
	bool l2 = !l1 && sscanf(s->file, "K%d_L2.csv", &kernel) == 1;

	if (!l1 && !l2)
		return false;
	*cfg = (struct sc_config){
		.line_bytes = 128, .sector_bytes = 32, .index = SET_INDEX_FIB_DOUBLE,
		.replacement = SC_LRU, .write_miss = SC_ALLOCATE,
		.write_hit = l1 ? SC_WRITE_THROUGH : SC_WRITE_BACK,
		.assoc = l1 ? 4 : 32, .count_write_misses = l1,
	};
	if (!strcmp(s->set, "synth_titanv"))
		cfg->size = l2 ? 4718592 : kernel == 1 ? 131072 : 65536;
	else if (!strcmp(s->set, "stress_k3_smallcache"))
		cfg->size = l2 ? 65536 : 4096;
	else
		return false;
	return true;
}

static void discard(void *ctx, const struct mem_req *r)
{
	(*(uint64_t *)ctx)++;
}

/* The next line of a CSV held in [*p, end): NUL-terminated in `buf`. */
static bool next_line(const char **p, const char *end, char *buf, size_t size)
{
	const char *nl;
	size_t len;

	if (*p >= end)
		return false;
	/* memchr, not strstr or g_strsplit over the whole text: sanitizers
	 * make those scan to the end on every call */
	nl = memchr(*p, '\n', end - *p);
	len = (nl ? nl : end) - *p;
	if (len >= size)
		g_error("CSV line of %zu characters", len);
	memcpy(buf, *p, len);
	buf[len] = '\0';
	*p = nl ? nl + 1 : end;
	return true;
}

static void test_stream(gconstpointer data)
{
	const struct stream *s = data;
	struct sc_config cfg;
	uint64_t sent = 0, rows = 0, hit_bad = 0, idx_bad = 0;
	char *why = NULL, line[512];
	gsize len;
	const char *p = g_bytes_get_data(s->csv, &len), *end = p + len;

	if (!config_for(s, &cfg))
		g_error("%s/%s: no known configuration", s->set, s->file);
	struct sc_cache *c = sc_new(&cfg, NULL, discard, &sent, &why);

	g_assert_nonnull(c);
	g_assert_true(next_line(&p, end, line, sizeof(line)));
	g_assert_true(g_str_has_prefix(line, "id,is_store,is_local,warp_id,address,hit,idx,"));
	while (next_line(&p, end, line, sizeof(line)) && line[0]) {
		char *f[9], *q = line;
		struct mem_req r;
		int n = 0;

		while (n < 9 && q) {
			f[n++] = q;
			q = strchr(q, ',');
			if (q)
				*q++ = '\0';
		}
		if (n < 9)
			g_error("%s/%s row %" G_GUINT64_FORMAT ": expected 9 columns", s->set, s->file, rows + 1);
		mem_req_init(&r, f[1][0] == '1' ? MEM_WRITE : MEM_READ,
			     g_ascii_strtoull(f[4], NULL, 10), MEM_ATOM);
		r.space = f[2][0] == '1' ? MEM_LOCAL : MEM_GLOBAL;
		uint32_t set = sc_set_of(c, r.addr, r.addr);
		bool hit = sc_access(c, &r) == SC_HIT;
		bool want_hit = !strcmp(f[5], "True");

		if (hit != want_hit && hit_bad++ < 5)
			g_printerr("# %s/%s row %s: hit %d, reference %d\n", s->set, s->file, f[0], hit, want_hit);
		if (set != g_ascii_strtoull(f[6], NULL, 10) && idx_bad++ < 5)
			g_printerr("# %s/%s row %s: set %u, reference %s\n", s->set, s->file, f[0], set, f[6]);
		rows++;
	}
	g_test_message("%s/%s: %" G_GUINT64_FORMAT " rows, %" G_GUINT64_FORMAT
		       " hit and %" G_GUINT64_FORMAT " idx mismatches",
		       s->set, s->file, rows, hit_bad, idx_bad);
	g_assert_cmpuint(rows, >, 0);
	g_assert_cmpuint(hit_bad, ==, 0);
	g_assert_cmpuint(idx_bad, ==, 0);
	sc_free(c);
}

static void skip_shared(void)
{
	g_test_skip("../shared/golden/access not found (set SECTORSIM_SHARED to the shared folder)");
}

int main(int argc, char **argv)
{
	GPtrArray *streams = g_ptr_array_new_with_free_func(stream_free);
	const char *shared_env = g_getenv("SECTORSIM_SHARED");
	char *shared = shared_env ? g_strdup(shared_env)
		: g_build_filename(g_getenv("G_TEST_SRCDIR") ? g_getenv("G_TEST_SRCDIR") : "tests",
				   "..", "..", "shared", NULL);
	char *access = g_build_filename(shared, "golden", "access", NULL);
	char *bundled;
	int status;

	g_test_init(&argc, &argv, NULL);
	bundled = g_test_build_filename(G_TEST_DIST, "data", "golden-access.tar.gz", NULL);
	read_tar(bundled, NULL, streams);
	guint n_bundled = streams->len;
	GDir *d = g_dir_open(access, 0, NULL);
	const char *set;

	while (d && (set = g_dir_read_name(d))) {
		char *tgz = g_build_filename(access, set, "dumps.tar.gz", NULL);

		if (g_file_test(tgz, G_FILE_TEST_IS_REGULAR))
			read_tar(tgz, set, streams);
		g_free(tgz);
	}
	if (d)
		g_dir_close(d);
	for (guint i = 0; i < streams->len; i++) {
		struct stream *s = streams->pdata[i];
		char *name = g_strdup_printf("/golden-access/%s/%s/%s",
					     i < n_bundled ? "bundled" : "shared", s->set, s->file);

		g_test_add_data_func(name, s, test_stream);
		g_free(name);
	}
	if (!d)
		g_test_add_func("/golden-access/shared", skip_shared);
	status = g_test_run();
	g_ptr_array_free(streams, TRUE);
	g_free(bundled);
	g_free(access);
	g_free(shared);
	return status;
}
