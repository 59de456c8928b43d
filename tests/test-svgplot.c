/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SVG charts (components/svgplot.h): the files are parsed back (GMarkup, so
 * every check runs everywhere) to count the marks, read their tooltips and
 * positions; xmllint and rsvg-convert, when installed, check that outside
 * tools accept and draw them.
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "svgplot.h"

static char *tmpdir;

/* ---- reading a chart back ----------------------------------------------- */

struct mark {
	char *element;		/* "circle" or "rect" */
	double x, y, w, h;	/* cx, cy (w = h = 0) or the rect */
	char *fill;
	char *title;		/* its <title> text, entities resolved */
};

struct chart {
	GPtrArray *marks;	/* struct mark */
	GPtrArray *swatches;	/* fill colours of the legend, char * */
	GPtrArray *texts;	/* every <text>, entities resolved, char * */
	double frame[4];	/* x, y, width, height of class="frame" */
	bool has_frame;
	/* parser state */
	struct mark *open_mark;
	bool in_title, in_text;
	GString *buf;
};

static void mark_free(gpointer p)
{
	struct mark *m = p;

	g_free(m->element);
	g_free(m->fill);
	g_free(m->title);
	g_free(m);
}

static const char *attr(const char **names, const char **values, const char *want)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], want))
			return values[i];
	return NULL;
}

static double num_attr(const char **names, const char **values, const char *want)
{
	const char *v = attr(names, values, want);
	char *end;
	double d;

	g_assert_nonnull(v);
	d = g_ascii_strtod(v, &end);
	/* the whole value is one number written with a point */
	g_assert_cmpstr(end, ==, "");
	return d;
}

static void on_start(GMarkupParseContext *ctx, const char *name, const char **names,
		     const char **values, gpointer data, GError **err)
{
	struct chart *c = data;
	const char *cls = attr(names, values, "class");

	if (cls && !strcmp(cls, "mark")) {
		struct mark *m = g_new0(struct mark, 1);
		bool circle = !strcmp(name, "circle");

		m->element = g_strdup(name);
		m->x = num_attr(names, values, circle ? "cx" : "x");
		m->y = num_attr(names, values, circle ? "cy" : "y");
		if (!circle) {
			m->w = num_attr(names, values, "width");
			m->h = num_attr(names, values, "height");
		}
		m->fill = g_strdup(attr(names, values, "fill"));
		g_ptr_array_add(c->marks, m);
		c->open_mark = m;
	} else if (cls && !strcmp(cls, "swatch")) {
		g_ptr_array_add(c->swatches, g_strdup(attr(names, values, "fill")));
	} else if (cls && !strcmp(cls, "frame")) {
		c->frame[0] = num_attr(names, values, "x");
		c->frame[1] = num_attr(names, values, "y");
		c->frame[2] = num_attr(names, values, "width");
		c->frame[3] = num_attr(names, values, "height");
		c->has_frame = true;
	} else if (!strcmp(name, "title") && c->open_mark) {
		c->in_title = true;
		g_string_truncate(c->buf, 0);
	} else if (!strcmp(name, "text")) {
		c->in_text = true;
		g_string_truncate(c->buf, 0);
	}
}

static void on_end(GMarkupParseContext *ctx, const char *name, gpointer data, GError **err)
{
	struct chart *c = data;

	if (c->in_title && !strcmp(name, "title")) {
		c->open_mark->title = g_strdup(c->buf->str);
		c->in_title = false;
	} else if (c->in_text && !strcmp(name, "text")) {
		g_ptr_array_add(c->texts, g_strdup(c->buf->str));
		c->in_text = false;
	} else if (c->open_mark && !strcmp(name, c->open_mark->element)) {
		c->open_mark = NULL;
	}
}

static void on_text(GMarkupParseContext *ctx, const char *text, gsize len,
		    gpointer data, GError **err)
{
	struct chart *c = data;

	if (c->in_title || c->in_text)
		g_string_append_len(c->buf, text, (gssize)len);
}

/* The chart in PATH, which must be well-formed XML with an <svg> root. */
static struct chart *chart_read(const char *path)
{
	static const GMarkupParser parser = { on_start, on_end, on_text, NULL, NULL };
	struct chart *c = g_new0(struct chart, 1);
	GMarkupParseContext *ctx;
	GError *err = NULL;
	char *doc;
	gsize len;

	g_assert_true(g_file_get_contents(path, &doc, &len, &err));
	g_assert_no_error(err);
	g_assert_true(g_str_has_prefix(doc, "<?xml version=\"1.0\""));
	g_assert_nonnull(strstr(doc, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""));
	c->marks = g_ptr_array_new_with_free_func(mark_free);
	c->swatches = g_ptr_array_new_with_free_func(g_free);
	c->texts = g_ptr_array_new_with_free_func(g_free);
	c->buf = g_string_new(NULL);
	ctx = g_markup_parse_context_new(&parser, G_MARKUP_PREFIX_ERROR_POSITION, c, NULL);
	g_markup_parse_context_parse(ctx, doc, (gssize)len, &err);
	g_assert_no_error(err);
	g_markup_parse_context_end_parse(ctx, &err);
	g_assert_no_error(err);
	g_markup_parse_context_free(ctx);
	g_free(doc);
	return c;
}

static void chart_free(struct chart *c)
{
	g_ptr_array_unref(c->marks);
	g_ptr_array_unref(c->swatches);
	g_ptr_array_unref(c->texts);
	g_string_free(c->buf, TRUE);
	g_free(c);
}

static bool has_text(const struct chart *c, const char *want)
{
	for (guint i = 0; i < c->texts->len; i++)
		if (!strcmp(g_ptr_array_index(c->texts, i), want))
			return true;
	return false;
}

static char *out_path(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

/* ---- the figures every test shares --------------------------------------- */

static const double sc_x[] = { 1200, 35e3, 0, 8.8e5, 4e6, 150, NAN, 2e7, 77 };
static const double sc_y[] = { 1000, 41e3, 12, 9e5, -1, 190, 5, 1.1e7, 0 };
static const char *const sc_labels[] = {
	"vectoradd", "bfs", "zero x", "hotspot", "negative y", "nw", "nan x",
	"b+tree <k&v>", "zero y",
};
#define SC_N G_N_ELEMENTS(sc_x)
#define SC_SHOWN 5

static char *write_scatter(const char *name)
{
	char *path = out_path(name), *why = NULL;
	size_t skipped = 99;

	g_assert_true(svgplot_scatter_loglog(path, "DRAM sectors: model vs. hardware",
					     "measured", "predicted", sc_x, sc_y,
					     sc_labels, SC_N, &skipped, &why));
	g_assert_null(why);
	g_assert_cmpuint(skipped, ==, SC_N - SC_SHOWN);
	return path;
}

static const char *const bar_cats[] = {
	"vectoradd", "bfs", "hotspot", "nw", "srad_v1", "backprop",
};
static const char *const bar_series[] = { "model", "hardware" };
static const double bar_vals[] = {
	0.5, 0.52, 0.91, 0.87, 0.33, 0.40, 0.0, 0.02, 0.75, 0.71, 1.0, 0.98,
};
#define BAR_NC G_N_ELEMENTS(bar_cats)
#define BAR_NS G_N_ELEMENTS(bar_series)

static char *write_bars(const char *name)
{
	char *path = out_path(name), *why = NULL;

	g_assert_true(svgplot_bars(path, "L2 hit rate", "hit rate", bar_cats, BAR_NC,
				   bar_series, BAR_NS, bar_vals, &why));
	g_assert_null(why);
	return path;
}

/* many long categories and three series: tilted labels, a wider canvas */
static char *write_bars_many(const char *name)
{
	enum { NC = 30, NS = 3 };
	const char *series[NS] = { "model", "hardware", "\"quoted\" & <tagged>" };
	char *cats[NC];
	double vals[NC * NS];
	char *path = out_path(name), *why = NULL;

	for (int c = 0; c < NC; c++) {
		cats[c] = g_strdup_printf("kernel_%d_with_a_rather_long_name_&_more", c);
		for (int s = 0; s < NS; s++)
			vals[c * NS + s] = 37.5 * (c + 1) + 400 * s;
	}
	g_assert_true(svgplot_bars(path, "L1 requests", "requests", (const char *const *)cats,
				   NC, series, NS, vals, &why));
	g_assert_null(why);
	for (int c = 0; c < NC; c++)
		g_free(cats[c]);
	return path;
}

/* ---- scatter -------------------------------------------------------------- */

static void test_scatter_marks(void)
{
	char *path = write_scatter("scatter.svg");
	struct chart *c = chart_read(path);
	size_t j = 0;

	g_assert_cmpuint(c->marks->len, ==, SC_SHOWN);
	g_assert_true(c->has_frame);
	/* marks in data order, each titled with its label and both values */
	for (size_t i = 0; i < SC_N; i++) {
		struct mark *m;
		char *want;

		if (!(isfinite(sc_x[i]) && sc_x[i] > 0 && sc_y[i] > 0))
			continue;
		m = g_ptr_array_index(c->marks, j++);
		g_assert_cmpstr(m->element, ==, "circle");
		want = g_strdup_printf("%s\nmeasured: %g\npredicted: %g",
				       sc_labels[i], sc_x[i], sc_y[i]);
		g_assert_cmpstr(m->title, ==, want);
		g_free(want);
		/* inside the frame, clear of its border by more than the radius */
		g_assert_cmpfloat(m->x, >, c->frame[0] + 5);
		g_assert_cmpfloat(m->x, <, c->frame[0] + c->frame[2] - 5);
		g_assert_cmpfloat(m->y, >, c->frame[1] + 5);
		g_assert_cmpfloat(m->y, <, c->frame[1] + c->frame[3] - 5);
	}
	/* larger x further right, larger y further up */
	{
		struct mark *small = g_ptr_array_index(c->marks, 0);
		struct mark *big = g_ptr_array_index(c->marks, 4);

		g_assert_cmpfloat(big->x, >, small->x);
		g_assert_cmpfloat(big->y, <, small->y);
	}
	/* decade labels over the data's range, axis titles, the chart title */
	g_assert_true(has_text(c, "100"));
	g_assert_true(has_text(c, "1k"));
	g_assert_true(has_text(c, "1M"));
	g_assert_true(has_text(c, "10M"));
	g_assert_true(has_text(c, "measured"));
	g_assert_true(has_text(c, "predicted"));
	g_assert_true(has_text(c, "DRAM sectors: model vs. hardware"));
	chart_free(c);
	g_free(path);
}

static void test_scatter_escaped(void)
{
	const double x[] = { 10, 20 }, y[] = { 11, 19 };
	const char *const labels[] = { "a & b <c> \"d\" 'e'", NULL };
	char *path = out_path("escaped.svg"), *why = NULL, *doc;
	struct chart *c;

	g_assert_true(svgplot_scatter_loglog(path, "<T&itle>", "x & \"y\"", "y < 'z'",
					     x, y, labels, 2, NULL, &why));
	g_assert_true(g_file_get_contents(path, &doc, NULL, NULL));
	g_assert_nonnull(strstr(doc, "a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;"));
	g_assert_nonnull(strstr(doc, "&lt;T&amp;itle&gt;"));
	g_assert_null(strstr(doc, "a & b"));
	g_assert_null(strstr(doc, "<T&"));
	g_free(doc);

	c = chart_read(path);
	g_assert_cmpuint(c->marks->len, ==, 2);
	g_assert_cmpstr(((struct mark *)g_ptr_array_index(c->marks, 0))->title, ==,
			"a & b <c> \"d\" 'e'\nx & \"y\": 10\ny < 'z': 11");
	/* no label: just the values */
	g_assert_cmpstr(((struct mark *)g_ptr_array_index(c->marks, 1))->title, ==,
			"x & \"y\": 20\ny < 'z': 19");
	g_assert_true(has_text(c, "<T&itle>"));
	chart_free(c);
	g_free(path);
}

/* one point, or equal values: still a decade on the axes and a diagonal */
static void test_scatter_degenerate(void)
{
	const double one[] = { 5 }, same[] = { 100, 100, 100 };
	char *path = out_path("single.svg"), *why = NULL;
	size_t skipped = 99;
	struct chart *c;

	g_assert_true(svgplot_scatter_loglog(path, NULL, NULL, NULL, one, one, NULL, 1,
					     &skipped, &why));
	g_assert_cmpuint(skipped, ==, 0);
	c = chart_read(path);
	g_assert_cmpuint(c->marks->len, ==, 1);
	/* one decade on the axis: 2, 3 and 5 labelled as well */
	g_assert_true(has_text(c, "10"));
	g_assert_true(has_text(c, "5"));
	g_assert_true(has_text(c, "3"));
	chart_free(c);
	g_free(path);

	path = out_path("same.svg");
	g_assert_true(svgplot_scatter_loglog(path, "same", "x", "y", same, same, NULL, 3,
					     NULL, &why));
	c = chart_read(path);
	g_assert_cmpuint(c->marks->len, ==, 3);
	g_assert_true(has_text(c, "100"));
	g_assert_true(has_text(c, "50"));
	g_assert_true(has_text(c, "200"));
	/* the point sits in the middle of the square */
	{
		struct mark *m = g_ptr_array_index(c->marks, 0);

		g_assert_cmpfloat(fabs(m->x - (c->frame[0] + c->frame[2] / 2)), <, 1);
		g_assert_cmpfloat(fabs(m->y - (c->frame[1] + c->frame[3] / 2)), <, 1);
	}
	chart_free(c);
	g_free(path);

	/* tiny and huge values: exponent labels, still inside the frame */
	{
		const double x[] = { 1e-9, 3e14 }, y[] = { 2e-9, 1e15 };

		path = out_path("wide.svg");
		g_assert_true(svgplot_scatter_loglog(path, "wide", "x", "y", x, y, NULL, 2,
						     NULL, &why));
		c = chart_read(path);
		g_assert_cmpuint(c->marks->len, ==, 2);
		g_assert_true(has_text(c, "1e-9"));
		g_assert_true(has_text(c, "0.001"));
		g_assert_true(has_text(c, "1"));
		g_assert_true(has_text(c, "1k"));
		g_assert_true(has_text(c, "1P"));
		g_assert_false(has_text(c, "10"));
		chart_free(c);
		g_free(path);
	}
}

static void test_scatter_nothing(void)
{
	const double x[] = { 0, -3, 5, NAN }, y[] = { 1, 2, 0, 4 };
	char *path = out_path("nothing.svg"), *why = NULL;
	size_t skipped = 99;

	g_assert_false(svgplot_scatter_loglog(path, "t", "x", "y", x, y, NULL, 4,
					      &skipped, &why));
	g_assert_cmpuint(skipped, ==, 4);
	g_assert_nonnull(why);
	g_assert_true(g_str_has_prefix(why, path));
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	g_free(why);
	why = NULL;

	g_assert_false(svgplot_scatter_loglog(path, "t", "x", "y", NULL, NULL, NULL, 0,
					      &skipped, &why));
	g_assert_cmpuint(skipped, ==, 0);
	g_assert_nonnull(why);
	g_free(why);
	g_free(path);
}

static void test_unwritable(void)
{
	const double v[] = { 1, 2 };
	const char *const cat[] = { "a" }, *const ser[] = { "s" };
	char *path = g_build_filename(tmpdir, "no-such-dir", "x.svg", NULL);
	char *why = NULL, *want = g_strdup_printf("%s.part: cannot write the chart: ", path);

	g_assert_false(svgplot_scatter_loglog(path, "t", "x", "y", v, v, NULL, 2, NULL, &why));
	g_assert_nonnull(why);
	g_assert_true(g_str_has_prefix(why, want));
	g_free(why);
	why = NULL;
	g_assert_false(svgplot_bars(path, "t", "y", cat, 1, ser, 1, v, &why));
	g_assert_nonnull(why);
	g_assert_true(g_str_has_prefix(why, want));
	g_free(why);
	g_free(want);
	g_free(path);
}

/* ---- bars ----------------------------------------------------------------- */

static void test_bars_marks(void)
{
	char *path = write_bars("bars.svg");
	struct chart *c = chart_read(path);
	double base = -1;

	g_assert_cmpuint(c->marks->len, ==, BAR_NC * BAR_NS);
	g_assert_cmpuint(c->swatches->len, ==, BAR_NS);
	g_assert_cmpstr(g_ptr_array_index(c->swatches, 0), !=, g_ptr_array_index(c->swatches, 1));
	for (size_t i = 0; i < BAR_NC * BAR_NS; i++) {
		struct mark *m = g_ptr_array_index(c->marks, i);
		char *want = g_strdup_printf("%s\n%s: %g", bar_cats[i / BAR_NS],
					     bar_series[i % BAR_NS], bar_vals[i]);

		g_assert_cmpstr(m->element, ==, "rect");
		g_assert_cmpstr(m->title, ==, want);
		/* the series' colour, the legend's */
		g_assert_cmpstr(m->fill, ==, g_ptr_array_index(c->swatches, i % BAR_NS));
		/* all bars stand on one baseline */
		if (base < 0)
			base = m->y + m->h;
		g_assert_cmpfloat(fabs(m->y + m->h - base), <, 0.02);
		g_free(want);
	}
	/* hit rates: the axis runs to 1, and a value of 1 is the full height */
	g_assert_true(has_text(c, "0"));
	g_assert_true(has_text(c, "1"));
	g_assert_false(has_text(c, "1.2"));
	{
		struct mark *full = g_ptr_array_index(c->marks, 10);
		struct mark *half = g_ptr_array_index(c->marks, 0);

		g_assert_cmpfloat(fabs(full->h - 2 * half->h), <, 0.02);
		g_assert_cmpfloat(((struct mark *)g_ptr_array_index(c->marks, 6))->h, ==, 0);
	}
	for (size_t i = 0; i < BAR_NC; i++)
		g_assert_true(has_text(c, bar_cats[i]));
	g_assert_true(has_text(c, "model"));
	g_assert_true(has_text(c, "hardware"));
	chart_free(c);
	g_free(path);
}

static void test_bars_many(void)
{
	char *path = write_bars_many("bars-many.svg"), *doc;
	struct chart *c = chart_read(path);
	double top = 0;

	g_assert_cmpuint(c->marks->len, ==, 90);
	g_assert_cmpuint(c->swatches->len, ==, 3);
	g_assert_cmpstr(g_ptr_array_index(c->swatches, 0), !=, g_ptr_array_index(c->swatches, 2));
	g_assert_cmpstr(g_ptr_array_index(c->swatches, 1), !=, g_ptr_array_index(c->swatches, 2));
	g_assert_true(has_text(c, "\"quoted\" & <tagged>"));
	/* largest value 37.5 * 30 + 800 = 1925: a nice top of 2000 */
	g_assert_true(has_text(c, "2000"));
	for (guint i = 0; i < c->marks->len; i++) {
		struct mark *m = g_ptr_array_index(c->marks, i);

		g_assert_cmpfloat(m->y, >, 0);
		g_assert_cmpfloat(m->x, >, 0);
		top = fmax(top, m->h);
	}
	/* the largest bar is 1925 / 2000 of the axis, not cut off */
	g_assert_cmpfloat(top, >, 0);
	g_assert_true(g_file_get_contents(path, &doc, NULL, NULL));
	/* tilted category labels, cut short with an ellipsis */
	g_assert_nonnull(strstr(doc, "rotate(-45"));
	g_assert_nonnull(strstr(doc, "\u2026"));
	g_assert_nonnull(strstr(doc, "kernel_7_with_a_rather_long_name_&amp;_more"));
	g_free(doc);
	chart_free(c);
	g_free(path);
}

static void test_bars_values(void)
{
	const char *const cat[] = { "a", "b" }, *const ser[] = { "s" };
	const double vals[] = { 1234, NAN };
	char *path = out_path("bars-values.svg"), *why = NULL;
	struct chart *c;

	g_assert_true(svgplot_bars(path, NULL, NULL, cat, 2, ser, 1, vals, &why));
	c = chart_read(path);
	/* a rect for every value, the one that cannot be drawn zero-high */
	g_assert_cmpuint(c->marks->len, ==, 2);
	g_assert_cmpfloat(((struct mark *)g_ptr_array_index(c->marks, 1))->h, ==, 0);
	/* step 250, top 1250 */
	g_assert_true(has_text(c, "1250"));
	g_assert_true(has_text(c, "250"));
	g_assert_false(has_text(c, "1500"));
	chart_free(c);

	g_assert_false(svgplot_bars(path, "t", "y", cat, 0, ser, 1, vals, &why));
	g_assert_nonnull(why);
	g_assert_true(g_str_has_prefix(why, path));
	g_free(why);
	g_free(path);
}

/* ---- outside tools ---------------------------------------------------------- */

/* Runs ARGV; true when it exits 0, its stderr in the test log otherwise. */
static bool run(const char *const *argv)
{
	char *err_out = NULL;
	int status = 0;
	GError *err = NULL;
	bool ok;

	ok = g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
			  NULL, &err_out, &status, &err) &&
	     g_spawn_check_wait_status(status, &err);
	if (!ok)
		g_test_message("%s: %s\n%s", argv[0], err ? err->message : "", err_out ? err_out : "");
	g_clear_error(&err);
	g_free(err_out);
	return ok;
}

static char **all_figures(void)
{
	char **paths = g_new0(char *, 5);

	paths[0] = write_scatter("tool-scatter.svg");
	paths[1] = write_bars("tool-bars.svg");
	paths[2] = write_bars_many("tool-bars-many.svg");
	paths[3] = out_path("tool-escaped.svg");
	{
		const double x[] = { 3, 4e4 };
		const char *const labels[] = { "<&>\"'", "\x01 control" };

		g_assert_true(svgplot_scatter_loglog(paths[3], "&<>\"'", "&", "<", x, x,
						     labels, 2, NULL, NULL));
	}
	return paths;
}

static void test_xmllint(void)
{
	char *lint = g_find_program_in_path("xmllint");
	char **paths;

	if (!lint) {
		g_test_skip("xmllint is not on PATH");
		return;
	}
	paths = all_figures();
	for (char **p = paths; *p; p++) {
		const char *argv[] = { lint, "--noout", *p, NULL };

		if (!run(argv))
			g_test_fail_printf("xmllint rejects %s", *p);
	}
	g_strfreev(paths);
	g_free(lint);
}

static void test_render(void)
{
	static const guchar sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	char *rsvg = g_find_program_in_path("rsvg-convert");
	char **paths;

	if (!rsvg) {
		g_test_skip("rsvg-convert is not on PATH");
		return;
	}
	paths = all_figures();
	for (char **p = paths; *p; p++) {
		char *png = g_strconcat(*p, ".png", NULL);
		const char *argv[] = { rsvg, "-o", png, *p, NULL };
		char *data = NULL;
		gsize len = 0;

		if (!run(argv)) {
			g_test_fail_printf("rsvg-convert cannot draw %s", *p);
		} else {
			guint32 w, h;

			g_assert_true(g_file_get_contents(png, &data, &len, NULL));
			g_assert_cmpuint(len, >, 2000);
			g_assert_cmpmem(data, 8, sig, 8);
			/* IHDR's width and height, big-endian, after its type */
			g_assert_cmpmem(data + 12, 4, "IHDR", 4);
			memcpy(&w, data + 16, 4);
			memcpy(&h, data + 20, 4);
			g_assert_cmpuint(GUINT32_FROM_BE(w), >=, 400);
			g_assert_cmpuint(GUINT32_FROM_BE(h), >=, 300);
		}
		g_free(data);
		g_free(png);
	}
	g_strfreev(paths);
	g_free(rsvg);
}

/* a decimal-comma locale must not leak into the numbers */
static void test_locale(void)
{
	static const char *const try[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8",
	};
	char *old = g_strdup(setlocale(LC_NUMERIC, NULL));
	const char *got = NULL;
	char *scatter, *bars, *doc;
	GRegex *re;

	for (size_t i = 0; i < G_N_ELEMENTS(try) && !got; i++)
		got = setlocale(LC_NUMERIC, try[i]);
	if (!got) {
		g_test_skip("no decimal-comma locale installed");
		g_free(old);
		return;
	}
	scatter = write_scatter("locale-scatter.svg");
	bars = write_bars("locale-bars.svg");
	setlocale(LC_NUMERIC, old);
	re = g_regex_new("=\"[-0-9.]*,", 0, 0, NULL);
	g_assert_true(g_file_get_contents(scatter, &doc, NULL, NULL));
	g_assert_false(g_regex_match(re, doc, 0, NULL));
	g_free(doc);
	g_assert_true(g_file_get_contents(bars, &doc, NULL, NULL));
	g_assert_false(g_regex_match(re, doc, 0, NULL));
	g_free(doc);
	chart_free(chart_read(scatter));
	chart_free(chart_read(bars));
	g_regex_unref(re);
	g_free(scatter);
	g_free(bars);
	g_free(old);
}

static void rm_tree(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
		g_free(p);
	}
	g_dir_close(d);
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	GError *err = NULL;
	int rc;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("test-svgplot-XXXXXX", &err);
	g_assert_no_error(err);
	g_test_add_func("/svgplot/scatter/marks", test_scatter_marks);
	g_test_add_func("/svgplot/scatter/escaped", test_scatter_escaped);
	g_test_add_func("/svgplot/scatter/degenerate", test_scatter_degenerate);
	g_test_add_func("/svgplot/scatter/nothing", test_scatter_nothing);
	g_test_add_func("/svgplot/unwritable", test_unwritable);
	g_test_add_func("/svgplot/bars/marks", test_bars_marks);
	g_test_add_func("/svgplot/bars/many", test_bars_many);
	g_test_add_func("/svgplot/bars/values", test_bars_values);
	g_test_add_func("/svgplot/locale", test_locale);
	g_test_add_func("/svgplot/xmllint", test_xmllint);
	g_test_add_func("/svgplot/render", test_render);
	rc = g_test_run();
	/* SVGPLOT_KEEP=1 keeps the figures to look at */
	if (g_getenv("SVGPLOT_KEEP"))
		g_printerr("# figures kept in %s\n", tmpdir);
	else
		rm_tree(tmpdir);
	g_free(tmpdir);
	return rc;
}
