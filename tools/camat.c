/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `sectorsim camat`: C-AMAT (models/camat.h) of timelines from elsewhere,
 * another simulator's log or a hardware trace, as CSV: a header naming the
 * columns start, hit_cycles and miss_cycles (non-negative integers; the
 * miss phase follows the hit phase; miss_cycles 0 for a hit) and
 * optionally level, which groups the rows; other columns are ignored.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "camat.h"
#include "camat_tool.h"
#include "outfile.h"
#include "json.h"
#include "svgplot.h"



enum { COL_START, COL_HIT, COL_MISS, COL_LEVEL, N_COLS };

static const char *const col_names[N_COLS] = { "start", "hit_cycles", "miss_cycles", "level" };

struct level {
	char *name;
	uint64_t *start, *hit, *miss;
	size_t n, cap;
	struct camat_counts c;
};

static struct level *level_new(const char *name, size_t len)
{
	struct level *l = g_new0(struct level, 1);

	l->name = g_strndup(name, len);
	return l;
}

static void level_free(gpointer p)
{
	struct level *l = p;

	g_free(l->name);
	g_free(l->start);
	g_free(l->hit);
	g_free(l->miss);
	g_free(l);
}

static inline void level_add(struct level *l, const uint64_t v[3])
{
	if (G_UNLIKELY(l->n == l->cap)) {
		l->cap = MAX(1024, 2 * l->cap);
		l->start = g_renew(uint64_t, l->start, l->cap);
		l->hit = g_renew(uint64_t, l->hit, l->cap);
		l->miss = g_renew(uint64_t, l->miss, l->cap);
	}
	l->start[l->n] = v[0];
	l->hit[l->n] = v[1];
	l->miss[l->n] = v[2];
	l->n++;
}

/*
 * The usual row, fast: the numeric fields are digits alone, and the
 * level has no spaces around it.  Returns the end of the line (its '\n'
 * or end), or NULL when the row needs the careful path (and its message).
 */
static inline const char *fast_row(const char *p, const char *end, const int col_of[], int need,
				   uint64_t v[3], const char **lb, const char **le)
{
	for (int k = 0; k < need; k++) {
		int c = col_of[k];

		if (c >= 0 && c < COL_LEVEL) {
			uint64_t x = 0;
			const char *b = p;

			while (p < end && (unsigned)(*p - '0') <= 9) {
				if (p - b >= 19)
					return NULL;	/* may not fit: the careful path */
				x = x * 10 + (uint64_t)(*p - '0');
				p++;
			}
			if (p == b)
				return NULL;
			v[c] = x;
		} else {
			const char *b = p;

			while (p < end && *p != ',' && *p != '\n' && *p != '\r')
				p++;
			if (p < end && *p == '\r' && p + 1 < end && p[1] != '\n')
				return NULL;	/* a CR inside the line */
			if (c == COL_LEVEL) {
				if (p == b || *b == ' ' || p[-1] == ' ' || *b == '\t' || p[-1] == '\t')
					return NULL;
				*lb = b;
				*le = p;
			}
		}
		if (k + 1 < need) {
			if (p == end || *p != ',')
				return NULL;
			p++;
		} else if (p < end && *p != ',' && *p != '\n' &&
			   !(*p == '\r' && (p + 1 == end || p[1] == '\n'))) {
			return NULL;	/* more in the field: the careful path says what */
		}
	}
	/* the rest of the line: fields the tool does not read */
	while (p < end && *p != '\n')
		p++;
	if (v[1] > UINT64_MAX - v[0] || v[2] > UINT64_MAX - v[0] - v[1])
		return NULL;
	return p;
}

/* A field without the spaces around it. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && (**b == ' ' || **b == '\t'))
		(*b)++;
	while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/* Text as a message quotes it: at most 40 bytes, controls as '?'. */
static char *shown(const char *b, const char *e)
{
	size_t n = MIN((size_t)(e - b), 40);
	char *s = g_strndup(b, n);

	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	return s;
}

static bool number(const char *path, uint64_t line, int col, const char *b, const char *e,
		   uint64_t *v, char **why)
{
	uint64_t x = 0;

	trim(&b, &e);
	if (b == e) {
		errf(why, "%s:%" G_GUINT64_FORMAT ": column %s is empty; expected a non-negative integer",
		     path, line, col_names[col]);
		return false;
	}
	for (const char *p = b; p < e; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (d > 9 || x > (UINT64_MAX - d) / 10) {
			char *t = shown(b, e);

			errf(why, "%s:%" G_GUINT64_FORMAT ": column %s is '%s'; expected a non-negative integer%s",
			     path, line, col_names[col], t, d > 9 ? "" : " below 2^64");
			g_free(t);
			return false;
		}
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* The header: where each column is; false with *why when one is missing. */
static bool header(const char *path, const char *b, const char *e, int where[N_COLS],
		   int *n_fields, char **why)
{
	int k = 0;

	for (int c = 0; c < N_COLS; c++)
		where[c] = -1;
	for (const char *f = b;; k++) {
		const char *fe = memchr(f, ',', (size_t)(e - f));
		const char *ne = fe ? fe : e, *nb = f;

		trim(&nb, &ne);
		for (int c = 0; c < N_COLS; c++)
			if ((size_t)(ne - nb) == strlen(col_names[c]) &&
			    !memcmp(nb, col_names[c], (size_t)(ne - nb))) {
				if (where[c] >= 0) {
					errf(why, "%s:1: column %s appears twice in the header",
					     path, col_names[c]);
					return false;
				}
				where[c] = k;
			}
		if (!fe)
			break;
		f = fe + 1;
	}
	*n_fields = k + 1;
	for (int c = 0; c < COL_LEVEL; c++)
		if (where[c] < 0) {
			errf(why, "%s:1: the header has no column %s; expected a header naming start, hit_cycles and miss_cycles (and optionally level)",
			     path, col_names[c]);
			return false;
		}
	return true;
}

/*
 * The level named [b, e): `last` when it is that one (rows of one level
 * come together, mostly), else the one of that name, made when new.
 */
static struct level *level_of(GPtrArray *levels, GHashTable *by_name, struct level *last,
			      const char *b, const char *e)
{
	size_t len = (size_t)(e - b);
	char *name;

	if (last && strlen(last->name) == len && !memcmp(last->name, b, len))
		return last;
	name = g_strndup(b, len);
	last = g_hash_table_lookup(by_name, name);
	if (!last) {
		last = level_new(b, len);
		g_ptr_array_add(levels, last);
		g_hash_table_insert(by_name, last->name, last);
	}
	g_free(name);
	return last;
}

/* Every row of the file into its level's arrays. */
static bool read_timeline(const char *path, GPtrArray *levels, bool *grouped, char **why)
{
	GError *err = NULL;
	GMappedFile *mf = g_mapped_file_new(path, FALSE, &err);
	GHashTable *by_name = g_hash_table_new(g_str_hash, g_str_equal);
	const char *p, *end;
	int where[N_COLS], n_fields, need = 0, *col_of = NULL;
	struct level *last = NULL;
	uint64_t line = 1;
	bool ok = false;

	if (!mf) {
		errf(why, "%s: %s", path, err->message);
		g_error_free(err);
		g_hash_table_destroy(by_name);
		return false;
	}
	p = g_mapped_file_get_contents(mf);
	end = p + g_mapped_file_get_length(mf);
	/* a UTF-8 byte order mark, as spreadsheets write */
	if (p && end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	if (!p || p == end) {
		errf(why, "%s:1: the file is empty; expected a header naming start, hit_cycles and miss_cycles",
		     path);
		goto out;
	}
	{
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *he = nl ? nl : end;

		if (he > p && he[-1] == '\r')
			he--;	/* a CRLF line end */
		if (!header(path, p, he, where, &n_fields, why))
			goto out;
		p = nl ? nl + 1 : end;
	}
	col_of = g_new(int, n_fields);
	*grouped = where[COL_LEVEL] >= 0;
	for (int c = 0; c < N_COLS; c++)
		need = MAX(need, where[c] + 1);
	for (int k = 0; k < need; k++)
		col_of[k] = -1;
	for (int c = 0; c < N_COLS; c++)
		if (where[c] >= 0)
			col_of[where[c]] = c;
	if (!*grouped) {
		last = level_new("all", 3);
		g_ptr_array_add(levels, last);
	}
	while (p < end) {
		const char *lb = NULL, *lev_e = NULL, *fast;
		uint64_t fv[3];

		fast = fast_row(p, end, col_of, need, fv, &lb, &lev_e);
		if (G_LIKELY(fast)) {
			line++;
			if (*grouped)
				last = level_of(levels, by_name, last, lb, lev_e);
			level_add(last, fv);
			p = fast < end ? fast + 1 : end;
			continue;
		}

		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *fb[N_COLS] = { 0 }, *fe[N_COLS] = { 0 };
		const char *blank = p;
		uint64_t v[3];
		int k = 0;

		line++;
		if (le > p && le[-1] == '\r')
			le--;	/* a CRLF line end */
		while (blank < le && (*blank == ' ' || *blank == '\t'))
			blank++;
		if (blank == le) {
			p = nl ? nl + 1 : end;
			continue;	/* a blank line */
		}
		for (const char *f = p; k < need; k++) {
			const char *c = memchr(f, ',', (size_t)(le - f));
			const char *ce = c ? c : le;

			for (int col = 0; col < N_COLS; col++)
				if (where[col] == k) {
					fb[col] = f;
					fe[col] = ce;
				}
			if (!c) {
				k++;
				break;
			}
			f = c + 1;
		}
		if (k < need) {
			errf(why, "%s:%" G_GUINT64_FORMAT ": %d field%s; expected at least %d (the header's %d columns, up to the last one read)",
			     path, line, k, k == 1 ? "" : "s", need, n_fields);
			goto out;
		}
		for (int col = 0; col < 3; col++)
			if (!number(path, line, col, fb[col], fe[col], &v[col], why))
				goto out;
		if (v[1] > UINT64_MAX - v[0] || v[2] > UINT64_MAX - v[0] - v[1]) {
			errf(why, "%s:%" G_GUINT64_FORMAT ": start + hit_cycles + miss_cycles is above 2^64",
			     path, line);
			goto out;
		}
		if (*grouped) {
			const char *b = fb[COL_LEVEL], *e = fe[COL_LEVEL];

			trim(&b, &e);
			if (b == e) {
				errf(why, "%s:%" G_GUINT64_FORMAT ": column level is empty; expected a level's name",
				     path, line);
				goto out;
			}
			last = level_of(levels, by_name, last, b, e);
		}
		level_add(last, v);
		p = nl ? nl + 1 : end;
	}
	ok = true;
out:
	g_free(col_of);
	g_hash_table_destroy(by_name);
	g_mapped_file_unref(mf);
	return ok;
}

/* The metrics of a level, in the order the table and JSON give them. */
#define CAMAT_COUNTS(X) \
	X(accesses) X(hits) X(misses) X(overlap_hit_time) X(pure_misses) \
	X(pure_miss_time) X(pure_miss_overlap_time) X(active_cycles)
#define CAMAT_RATIOS(X) \
	X(C_h) X(C_m) X(pMR) X(pAMP) X(mean_hit_time) X(camat) X(amat)

static void put_level_text(GString *s, const struct level *l)
{
	struct camat_ratios q;

	camat_ratios(&l->c, &q);
	g_string_append_printf(s, "level %s\n", l->name);
#define PUT_COUNT(k) g_string_append_printf(s, "  %-24s %20" G_GUINT64_FORMAT "\n", #k, l->c.k);
#define PUT_RATIO(k) \
	if (isnan(q.k)) \
		g_string_append_printf(s, "  %-24s %20s\n", #k, "-"); \
	else \
		g_string_append_printf(s, "  %-24s %20.6f\n", #k, q.k);
	CAMAT_COUNTS(PUT_COUNT)
	CAMAT_RATIOS(PUT_RATIO)
#undef PUT_COUNT
#undef PUT_RATIO
}

static void put_level_json(GString *s, const struct level *l)
{
	struct camat_ratios q;
	const char *sep = "";

	camat_ratios(&l->c, &q);
	json_put_string(s, l->name);
	g_string_append(s, ": {");
#define PUT_COUNT(k) \
	g_string_append_printf(s, "%s\"" #k "\": %" G_GUINT64_FORMAT, sep, l->c.k); \
	sep = ", ";
#define PUT_RATIO(k) \
	g_string_append_printf(s, "%s\"" #k "\": ", sep); \
	json_put_number(s, q.k);
	CAMAT_COUNTS(PUT_COUNT)
	CAMAT_RATIOS(PUT_RATIO)
#undef PUT_COUNT
#undef PUT_RATIO
	g_string_append(s, "}");
}

/* The chart shows this many accesses at most, the totals of all. */
#define PLOT_ROWS 300

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The pure miss cycles of the first n accesses: their miss phases less
 * the union of every access's hit phase, as segments.
 */
static void pure_segments(const struct level *l, size_t n, GArray *row, GArray *lo, GArray *hi)
{
	size_t m = l->n, u = 0;
	uint64_t *iv = g_new(uint64_t, 2 * MAX(m, 1));	/* (start, end) pairs */
	const uint64_t *st = l->start;
	const uint64_t *ht = l->hit;
	const uint64_t *ms = l->miss;

	for (size_t i = 0; i < m; i++) {
		iv[2 * i] = st[i];
		iv[2 * i + 1] = st[i] + ht[i];
	}
	qsort(iv, m, 2 * sizeof(uint64_t), cmp_u64);	/* by start */
	for (size_t i = 0; i < m; i++) {
		if (iv[2 * i + 1] <= iv[2 * i])
			continue;
		if (u && iv[2 * i] <= iv[2 * u - 1]) {
			iv[2 * u - 1] = MAX(iv[2 * u - 1], iv[2 * i + 1]);
		} else {
			iv[2 * u] = iv[2 * i];
			iv[2 * u + 1] = iv[2 * i + 1];
			u++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t a = st[i] + ht[i], e = a + ms[i];
		size_t k = 0, top = u;

		/* the first union interval ending after a */
		while (k < top) {
			size_t mid = (k + top) / 2;

			if (iv[2 * mid + 1] <= a)
				k = mid + 1;
			else
				top = mid;
		}
		while (a < e) {
			uint64_t b = k < u ? MIN(iv[2 * k], e) : e;

			if (b > a) {
				g_array_append_val(row, i);
				g_array_append_val(lo, a);
				g_array_append_val(hi, b);
			}
			if (k >= u)
				break;
			a = MAX(a, iv[2 * k + 1]);
			k++;
		}
	}
	g_free(iv);
}

static bool write_plot(const char *plot, const GPtrArray *levels, char **why)
{
	const struct level *l = levels->pdata[0];
	size_t n = MIN(l->n, (size_t)PLOT_ROWS);
	struct camat_ratios q;
	char *title, *caption;
	bool ok;

	camat_ratios(&l->c, &q);
	title = g_strdup_printf("C-AMAT timeline, level %s%s", l->name,
				levels->len > 1 ? " (the first level of the file)" : "");
	caption = g_strdup_printf("%" G_GUINT64_FORMAT " accesses%s: %" G_GUINT64_FORMAT
				  " hit-phase cycles, %" G_GUINT64_FORMAT " pure-miss cycles, "
				  "%" G_GUINT64_FORMAT " active; C-AMAT %.4g, AMAT %.4g",
				  l->c.accesses, n < l->n ? " (the first shown)" : "",
				  l->c.overlap_hit_time, l->c.pure_miss_overlap_time,
				  l->c.active_cycles, q.camat, q.amat);
	{
		GArray *row = g_array_new(FALSE, FALSE, sizeof(size_t));
		GArray *lo = g_array_new(FALSE, FALSE, sizeof(uint64_t));
		GArray *hi = g_array_new(FALSE, FALSE, sizeof(uint64_t));

		pure_segments(l, n, row, lo, hi);
		ok = svgplot_timeline(plot, title, caption,
				      l->start,
				      l->hit,
				      l->miss, n,
				      (const size_t *)(void *)row->data,
				      (const uint64_t *)(void *)lo->data,
				      (const uint64_t *)(void *)hi->data, row->len, why);
		g_array_free(row, TRUE);
		g_array_free(lo, TRUE);
		g_array_free(hi, TRUE);
	}
	g_free(title);
	g_free(caption);
	return ok;
}

int sectorsim_camat_main(int argc, char **argv)
{
	char *json = NULL, *plot = NULL, *why = NULL;
	GOptionEntry entries[] = {
		{ "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Also write the metrics as JSON to FILE (- for standard output): {\"levels\": {\"LEVEL\": {...}}}", "FILE" },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, "Draw the timeline of the first level as SVG into FILE: a row per access (the first 300), hit and miss phases, pure miss cycles marked", "FILE.svg" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GPtrArray *levels = g_ptr_array_new_with_free_func(level_free);
	GOptionContext *ctx;
	GError *err = NULL;
	GString *out = NULL;
	bool grouped = false;
	int status = EXIT_INPUT;

	if (!g_get_prgname())
		g_set_prgname("sectorsim camat");
	ctx = g_option_context_new("TIMELINE.csv");
	g_option_context_set_summary(ctx,
		"Concurrent average memory-access time of a timeline: per level, the\n"
		"accesses, hit-phase overlap, pure misses and C-AMAT (with each row's\n"
		"own hit time: PC-AMAT for a parallel lookup, SC-AMAT for a serial one)\n"
		"beside plain AMAT.  TIMELINE.csv has a header naming the columns start,\n"
		"hit_cycles and miss_cycles (non-negative integers; the miss phase starts\n"
		"right after the hit phase; miss_cycles 0 for a hit) and optionally\n"
		"level, which groups the rows (without it, one level: all).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "sectorsim camat: %s (see --help)\n", err->message);
		g_error_free(err);
		g_option_context_free(ctx);
		goto out;
	}
	g_option_context_free(ctx);
	if (argc != 2) {
		fprintf(stderr, "sectorsim camat: %d files; expected one TIMELINE.csv (see --help)\n",
			argc - 1);
		goto out;
	}
	if (!read_timeline(argv[1], levels, &grouped, &why))
		goto out;
	if (!levels->len)	/* a level column but no row: nothing, as level all */
		g_ptr_array_add(levels, level_new("all", 3));
	for (guint i = 0; i < levels->len; i++) {
		struct level *l = levels->pdata[i];

		camat_compute(l->start,
			      l->hit,
			      l->miss, l->n, &l->c);
	}
	if (plot && !write_plot(plot, levels, &why))
		goto out;
	out = g_string_new(NULL);
	for (guint i = 0; i < levels->len; i++)
		put_level_text(out, levels->pdata[i]);
	errno = 0;
	if (fputs(out->str, stdout) == EOF || fflush(stdout) != 0) {
		errf(&why, "sectorsim camat: write error on standard output: %s",
		     g_strerror(errno ? errno : EIO));
		status = 1;
		goto out;
	}
	status = 0;
	if (json) {
		g_string_truncate(out, 0);
		g_string_append(out, "{\"levels\": {");
		for (guint i = 0; i < levels->len; i++) {
			if (i)
				g_string_append(out, ", ");
			put_level_json(out, levels->pdata[i]);
		}
		g_string_append(out, "}}\n");
		status = tool_write_file(json, "metrics", out->str, out->len, &why);
	}
out:
	if (why) {
		fprintf(stderr, "%s\n", why);
		g_free(why);
	}
	if (out)
		g_string_free(out, TRUE);
	g_ptr_array_free(levels, TRUE);
	g_free(json);
	g_free(plot);
	return status;
}
