/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SVG charts written by hand (components/svgplot.h).  The two figures are
 * simple enough that a plotting library would cost more than it saves, and
 * hand-written SVG keeps sectorsim free of a graphics dependency.
 *
 * Layout is in pixels of a fixed-size canvas; text widths are estimated
 * from the character count (there is no font metrics source here), with a
 * generous per-character width so that estimates err on the side of room.
 * Every number goes through g_ascii_formatd: printf's %f and %g follow
 * LC_NUMERIC and would write "1,5" in some locales, which is not SVG.
 * Presentation attributes are used rather than CSS so that every SVG 1.1
 * renderer, however small, draws the same picture.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib.h>
#include "outfile.h"
#include "svgplot.h"

#define FONT "font-family=\"sans-serif\""
#define FONT_SIZE 12.0
#define TITLE_SIZE 16.0
/* estimated width of one character at size 1; sans-serif averages ~0.55 */
#define CHAR_W 0.6
/* longest category label drawn in full (the bar's tooltip has the rest) */
#define MAX_LABEL_CHARS 28

typedef char numbuf[G_ASCII_DTOSTR_BUF_SIZE];

/* a coordinate: two decimals are far below a pixel */
static const char *co(numbuf b, double v)
{
	/* no "-0.00" for tiny negatives */
	if (fabs(v) < 0.005)
		v = 0;
	return g_ascii_formatd(b, sizeof(numbuf), "%.2f", v);
}

/* a data value, as a reader would want it in a tooltip */
static const char *val(numbuf b, double v)
{
	return g_ascii_formatd(b, sizeof(numbuf), "%.6g", v);
}

/*
 * Appends TEXT escaped for XML character data and attribute values.  The
 * five special characters become entities; control characters other than
 * tab and newline become '?' since XML 1.0 forbids them even as character
 * references; invalid UTF-8 is repaired first, since one bad byte would
 * make the whole file unparsable.
 */
static void put_text(GString *s, const char *text)
{
	char *ok;

	if (!text)
		return;
	ok = g_utf8_make_valid(text, -1);
	for (const char *p = ok; *p; p++) {
		switch (*p) {
		case '&': g_string_append(s, "&amp;"); break;
		case '<': g_string_append(s, "&lt;"); break;
		case '>': g_string_append(s, "&gt;"); break;
		case '"': g_string_append(s, "&quot;"); break;
		case '\'': g_string_append(s, "&apos;"); break;
		default:
			if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')
				g_string_append_c(s, '?');
			else
				g_string_append_c(s, *p);
		}
	}
	g_free(ok);
}

/* characters of TEXT as they will be drawn (UTF-8 aware, for layout) */
static size_t text_chars(const char *text)
{
	if (!text)
		return 0;
	if (!g_utf8_validate(text, -1, NULL))
		return strlen(text);
	return (size_t)g_utf8_strlen(text, -1);
}

static double text_width(const char *text, double size)
{
	return (double)text_chars(text) * size * CHAR_W;
}

/*
 * TEXT cut to at most MAX characters with an ellipsis, so that one long
 * name cannot push the plot off the canvas.  Returns a new string.
 */
static char *shorten(const char *text, size_t max)
{
	char *ok = g_utf8_make_valid(text ? text : "", -1);
	char *cut;

	if ((size_t)g_utf8_strlen(ok, -1) <= max)
		return ok;
	cut = g_utf8_substring(ok, 0, (glong)max - 1);
	g_free(ok);
	ok = g_strconcat(cut, "\u2026", NULL);
	g_free(cut);
	return ok;
}

/* <text x y [anchor] [rotate]>TEXT</text> in the default font */
static void put_label(GString *s, double x, double y, double size,
		      const char *anchor, double rotate, const char *extra,
		      const char *text)
{
	numbuf bx, by, bs;

	g_string_append_printf(s, "<text x=\"%s\" y=\"%s\" " FONT " font-size=\"%s\"",
			       co(bx, x), co(by, y), co(bs, size));
	if (anchor)
		g_string_append_printf(s, " text-anchor=\"%s\"", anchor);
	if (rotate != 0) {
		numbuf br;

		g_string_append_printf(s, " transform=\"rotate(%s %s %s)\"",
				       co(br, rotate), bx, by);
	}
	if (extra)
		g_string_append_printf(s, " %s", extra);
	g_string_append_c(s, '>');
	put_text(s, text);
	g_string_append(s, "</text>\n");
}

static void put_line(GString *s, double x1, double y1, double x2, double y2,
		     const char *stroke, const char *extra)
{
	numbuf a, b, c, d;

	g_string_append_printf(s, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\"%s%s/>\n",
			       co(a, x1), co(b, y1), co(c, x2), co(d, y2), stroke,
			       extra ? " " : "", extra ? extra : "");
}

static void put_header(GString *s, double w, double h, const char *title)
{
	numbuf bw, bh;

	co(bw, w);
	co(bh, h);
	g_string_append_printf(s,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\">\n", bw, bh, bw, bh);
	if (title) {
		g_string_append(s, "<title>");
		put_text(s, title);
		g_string_append(s, "</title>\n");
	}
	/* an opaque background: viewers differ on what transparent means */
	g_string_append(s, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
	if (title)
		put_label(s, w / 2, 28, TITLE_SIZE, "middle", 0, "font-weight=\"bold\"", title);
}

/* writes the document whole, so a reader never sees half a chart */
static bool finish(GString *s, const char *path, char **why)
{
	char *no = NULL;
	bool ok;

	g_string_append(s, "</svg>\n");
	ok = tool_write_file(path, "chart", s->str, s->len, &no) == 0;
	if (why)
		*why = no;
	else
		g_free(no);
	g_string_free(s, TRUE);
	return ok;
}

/* ---- log-log scatter ---------------------------------------------------- */

/*
 * The label of M * 10^K (M in 1..9): SI suffixes for large counts (sectors
 * and requests run to the billions), plain decimals for small fractions,
 * and exponent notation beyond both.
 */
static char *tick_label(int m, int k)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T", "P" };

	if (k >= 0 && k < 3 * (int)G_N_ELEMENTS(suffix)) {
		static const char *const zeros[] = { "", "0", "00" };

		return g_strdup_printf("%d%s%s", m, zeros[k % 3], suffix[k / 3]);
	}
	if (k < 0 && k >= -4) {
		/* "0.1", "0.05", ...: the zeros, then the digit */
		GString *s = g_string_new("0.");

		for (int i = 1; i < -k; i++)
			g_string_append_c(s, '0');
		g_string_append_printf(s, "%d", m);
		return g_string_free(s, FALSE);
	}
	return g_strdup_printf("%de%d", m, k);
}

static bool shown(double x, double y)
{
	return isfinite(x) && isfinite(y) && x > 0 && y > 0;
}

bool svgplot_scatter_loglog(const char *path, const char *title,
			    const char *xlabel, const char *ylabel,
			    const double *x, const double *y,
			    const char *const *labels, size_t n,
			    size_t *skipped, char **why)
{
	/* a square plot, so that y = x is the diagonal at 45 degrees */
	const double side = 440, left = 80, right = 30, bottom = 64;
	const double top = title ? 50 : 24;
	double w = left + side + right, h = top + side + bottom;
	double lo = INFINITY, hi = -INFINITY, span, pad, a, b, px_per;
	size_t n_shown = 0, n_skip = 0;
	int step, k0, k1;
	GString *s;

	if (why)
		*why = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!shown(x[i], y[i])) {
			n_skip++;
			continue;
		}
		n_shown++;
		lo = fmin(lo, fmin(x[i], y[i]));
		hi = fmax(hi, fmax(x[i], y[i]));
	}
	if (skipped)
		*skipped = n_skip;
	if (!n_shown) {
		if (why)
			*why = g_strdup_printf("%s: no point with x > 0 and y > 0 to plot (%zu left out)",
					       path, n_skip);
		return false;
	}

	/*
	 * One range for both axes (predicted and measured are the same
	 * quantity).  At least one decade, centred on the data, so that a
	 * single point or equal values still get a decade tick and a
	 * diagonal; then 6% on each side so no mark sits on the frame.
	 */
	a = log10(lo);
	b = log10(hi);
	span = b - a;
	if (span < 1) {
		double mid = (a + b) / 2;

		a = mid - 0.5;
		b = mid + 0.5;
		span = 1;
	}
	pad = 0.06 * span;
	a -= pad;
	b += pad;
	px_per = side / (b - a);
	k0 = (int)ceil(a);
	k1 = (int)floor(b);
	/*
	 * About ten labelled decades at most, on multiples of the step so
	 * that a wide axis reads 1, 1k, 1M rather than 10, 10k, 10M; every
	 * decade still gets a tick and a grid line.
	 */
	step = (k1 - k0) / 10 + 1;
	if (step > 1)
		step = (step + 2) / 3 * 3;

	if (title)
		w = fmax(w, text_width(title, TITLE_SIZE) + 40);
	s = g_string_new(NULL);
	put_header(s, w, h, title);

#define PX(v) (left + (log10(v) - a) * px_per)
#define PY(v) (top + side - (log10(v) - a) * px_per)
#define LX(l) (left + ((l) - a) * px_per)
#define LY(l) (top + side - ((l) - a) * px_per)

	/* grid: decades, and 2..9 when a decade is wide enough to show them */
	for (int k = (int)floor(a); k <= k1; k++) {
		for (int m = 1; m <= 9; m++) {
			double l = k + log10(m);
			const char *col = m == 1 ? "#d0d0d0" : "#eeeeee";

			if (l < a || l > b || (m > 1 && px_per < 60))
				continue;
			put_line(s, LX(l), top, LX(l), top + side, col, NULL);
			put_line(s, left, LY(l), left + side, LY(l), col, NULL);
		}
	}
	/* the frame, then decade ticks with their labels */
	{
		numbuf bx, by, bw;

		g_string_append_printf(s, "<rect class=\"frame\" x=\"%s\" y=\"%s\" width=\"%s\" "
				       "height=\"%s\" fill=\"none\" stroke=\"black\"/>\n",
				       co(bx, left), co(by, top), co(bw, side), bw);
	}
	for (int k = (int)floor(a); k <= k1; k++) {
		for (int m = 1; m <= 9; m++) {
			double l = k + log10(m);
			char *lab;

			if (l < a || l > b)
				continue;
			if (m == 1) {
				put_line(s, LX(l), top + side, LX(l), top + side + 5, "black", NULL);
				put_line(s, left - 5, LY(l), left, LY(l), "black", NULL);
				if (k % step)
					continue;
			} else if (k1 > k0 || (m != 2 && m != 3 && m != 5)) {
				/*
				 * Under two decades on the axis, one
				 * label would leave the reader guessing
				 * the scale: 2, 3 and 5 get one too
				 * (a decade is then over 200 px wide).
				 */
				continue;
			} else {
				put_line(s, LX(l), top + side, LX(l), top + side + 3, "black", NULL);
				put_line(s, left - 3, LY(l), left, LY(l), "black", NULL);
			}
			lab = tick_label(m, k);
			put_label(s, LX(l), top + side + 19, FONT_SIZE, "middle", 0, NULL, lab);
			put_label(s, left - 8, LY(l) + 4, FONT_SIZE, "end", 0, NULL, lab);
			g_free(lab);
		}
	}
	if (xlabel)
		put_label(s, left + side / 2, top + side + 46, FONT_SIZE + 1, "middle", 0, NULL, xlabel);
	if (ylabel)
		put_label(s, 24, top + side / 2, FONT_SIZE + 1, "middle", -90, NULL, ylabel);

	/* y = x, corner to corner since both axes span [a, b] */
	put_line(s, LX(a), LY(a), LX(b), LY(b), "#888888",
		 "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");

	for (size_t i = 0; i < n; i++) {
		numbuf bx, by, vx, vy;

		if (!shown(x[i], y[i]))
			continue;
		g_string_append_printf(s, "<circle class=\"mark\" cx=\"%s\" cy=\"%s\" r=\"4\" "
				       "fill=\"#1f77b4\" fill-opacity=\"0.7\" stroke=\"#0b3c61\" "
				       "stroke-width=\"0.8\"><title>",
				       co(bx, PX(x[i])), co(by, PY(y[i])));
		if (labels && labels[i]) {
			put_text(s, labels[i]);
			g_string_append_c(s, '\n');
		}
		put_text(s, xlabel ? xlabel : "x");
		g_string_append_printf(s, ": %s\n", val(vx, x[i]));
		put_text(s, ylabel ? ylabel : "y");
		g_string_append_printf(s, ": %s</title></circle>\n", val(vy, y[i]));
	}
#undef PX
#undef PY
#undef LX
#undef LY
	return finish(s, path, why);
}

/* ---- grouped bars ------------------------------------------------------- */

/*
 * Colour of series I: Okabe-Ito's colour-blind-safe palette first, then
 * hues a golden angle apart (SVG 1.1 has no hsl(), so converted here).
 */
static void series_colour(size_t i, char out[8])
{
	static const char *const pal[] = {
		"#0072b2", "#e69f00", "#009e73", "#cc79a7",
		"#56b4e9", "#d55e00", "#f0e442", "#000000",
	};
	double hue, f, r, g, b, v = 0.8, sat = 0.65, p, q, t;

	if (i < G_N_ELEMENTS(pal)) {
		g_strlcpy(out, pal[i], 8);
		return;
	}
	hue = fmod((double)i * 137.508, 360) / 60;
	f = hue - floor(hue);
	p = v * (1 - sat);
	q = v * (1 - sat * f);
	t = v * (1 - sat * (1 - f));
	switch ((int)hue) {
	case 0: r = v; g = t; b = p; break;
	case 1: r = q; g = v; b = p; break;
	case 2: r = p; g = v; b = t; break;
	case 3: r = p; g = q; b = v; break;
	case 4: r = t; g = p; b = v; break;
	default: r = v; g = p; b = q; break;
	}
	g_snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround(r * 255),
		   (unsigned)lround(g * 255), (unsigned)lround(b * 255));
}

/* The widest tick label of a y axis from 0 to ytop by ystep. */
static double y_tick_width(double ytop, double ystep)
{
	double w = 0;

	for (int k = 0; k * ystep <= ytop * (1 + 1e-9); k++) {
		numbuf bv;

		w = fmax(w, text_width(val(bv, k * ystep), FONT_SIZE));
	}
	return w;
}

/* A y axis from 0 to ytop by ystep: grid lines, ticks, their labels, and
 * the axis title (NULL: none) left of labels tick_w wide. */
static void put_y_axis(GString *s, double left, double top, double plot_w,
		       double plot_h, double ytop, double ystep, double tick_w,
		       const char *ylabel)
{
	for (int k = 0; k * ystep <= ytop * (1 + 1e-9); k++) {
		double v = k * ystep, py = top + plot_h - v / ytop * plot_h;
		numbuf bv;

		if (k)
			put_line(s, left, py, left + plot_w, py, "#e0e0e0", NULL);
		put_line(s, left - 5, py, left, py, "black", NULL);
		put_label(s, left - 8, py + 4, FONT_SIZE, "end", 0, NULL, val(bv, v));
	}
	if (ylabel)
		put_label(s, left - tick_w - 26, top + plot_h / 2, FONT_SIZE + 1, "middle", -90,
			  NULL, ylabel);
}

/* The legend: a swatch and a name per series, per_row to a row of
 * legend_w each, from (x, y). */
static void put_legend(GString *s, const char *const *series, size_t n,
		       double x, double y, double legend_w, size_t per_row)
{
	for (size_t j = 0; j < n; j++) {
		double lx = x + (double)(j % per_row) * legend_w;
		double ly = y + (double)(j / per_row) * 20;
		numbuf bx, by;
		char col[8];

		series_colour(j, col);
		g_string_append_printf(s, "<rect class=\"swatch\" x=\"%s\" y=\"%s\" width=\"14\" "
				       "height=\"14\" fill=\"%s\"/>\n", co(bx, lx), co(by, ly), col);
		put_label(s, lx + 20, ly + 12, FONT_SIZE, NULL, 0, NULL, series[j] ? series[j] : "");
	}
}

/*
 * The axis maximum and tick step for data up to VMAX: values that all lie
 * in [0, 1] are rates and get the full [0, 1] axis so that figures compare;
 * otherwise the smallest multiple of a 1-2-2.5-5 step above VMAX with about
 * five ticks.
 */
static void nice_axis(double vmax, double *top, double *step)
{
	static const double mult[] = { 1, 2, 2.5, 5, 10 };
	double raw, mag;

	if (!(vmax > 0) || vmax <= 1) {
		*top = 1;
		*step = 0.2;
		return;
	}
	raw = vmax / 5;
	mag = pow(10, floor(log10(raw)));
	*step = 10 * mag;
	for (size_t i = 0; i < G_N_ELEMENTS(mult); i++)
		if (mult[i] * mag >= raw) {
			*step = mult[i] * mag;
			break;
		}
	*top = ceil(vmax / *step - 1e-9) * *step;
}

bool svgplot_bars(const char *path, const char *title, const char *ylabel,
		  const char *const *categories, size_t n_cat,
		  const char *const *series, size_t n_series,
		  const double *values, char **why)
{
	const double right = 24, plot_h = 320;
	double left, tick_w = 0, vmax = 0, ytop, ystep, plot_w, group_w, bar_w, w, h, top, bottom;
	double label_w = 0, legend_w = 0, legend_h, x_legend, y_legend;
	bool rotate;
	char **cats;
	GString *s;

	if (why)
		*why = NULL;
	if (!n_cat || !n_series) {
		if (why)
			*why = g_strdup_printf("%s: no value to plot (%zu categories, %zu series)",
					       path, n_cat, n_series);
		return false;
	}
	for (size_t i = 0; i < n_cat * n_series; i++)
		if (isfinite(values[i]))
			vmax = fmax(vmax, values[i]);
	nice_axis(vmax, &ytop, &ystep);
	tick_w = y_tick_width(ytop, ystep);

	/* bars at least 10 px wide, groups at least 48 px, plot at least 420 */
	group_w = fmax(48, (double)n_series * 10 / 0.75);
	plot_w = fmax(420, group_w * (double)n_cat);
	group_w = plot_w / (double)n_cat;
	bar_w = group_w * 0.75 / (double)n_series;

	cats = g_new0(char *, n_cat);
	for (size_t c = 0; c < n_cat; c++) {
		cats[c] = shorten(categories[c], MAX_LABEL_CHARS);
		label_w = fmax(label_w, text_width(cats[c], FONT_SIZE));
	}
	/* tilted labels once they would run into their neighbours */
	rotate = label_w > group_w - 6;
	bottom = rotate ? 24 + label_w * M_SQRT1_2 + 12 : 40;
	/*
	 * Room for the axis title and the tick labels, and for the first
	 * tilted label, which hangs to the left of its group.
	 */
	left = (ylabel ? 36 : 8) + tick_w + 12;
	if (rotate)
		left = fmax(left, label_w * M_SQRT1_2 - group_w / 2 + 12);

	/*
	 * The legend is a row of swatches between the title and the plot, so
	 * it never hides a bar; it wraps onto more rows when it is wider than
	 * the plot.
	 */
	for (size_t j = 0; j < n_series; j++)
		legend_w = fmax(legend_w, 22 + text_width(series[j], FONT_SIZE) + 18);
	{
		size_t per_row = (size_t)fmax(1, floor(plot_w / legend_w));
		size_t rows = (n_series + per_row - 1) / per_row;

		legend_h = (double)rows * 20;
		per_row = n_series < per_row ? n_series : per_row;
		x_legend = left + (plot_w - (double)per_row * legend_w) / 2;
		x_legend = fmax(x_legend, 8);
	}
	top = (title ? 46 : 16) + legend_h + 14;
	y_legend = top - legend_h - 10;
	/*
	 * Tilted labels end at their group and hang left, so only the left
	 * margin grows for them; a legend entry wider than the plot widens
	 * the canvas.
	 */
	w = left + plot_w + right;
	w = fmax(w, x_legend + legend_w + right);
	if (title)
		w = fmax(w, text_width(title, TITLE_SIZE) + 40);
	h = top + plot_h + bottom;

	s = g_string_new(NULL);
	put_header(s, w, h, title);

	put_legend(s, series, n_series, x_legend, y_legend, legend_w,
		   (size_t)fmax(1, floor(plot_w / legend_w)));

	/* y grid, ticks and labels */
	put_y_axis(s, left, top, plot_w, plot_h, ytop, ystep, tick_w, ylabel);

	/* bars */
	for (size_t c = 0; c < n_cat; c++) {
		double gx = left + (double)c * group_w + group_w * 0.125;

		for (size_t j = 0; j < n_series; j++) {
			double v = values[c * n_series + j];
			/* a bar for every value, zero-high when it cannot be drawn */
			double hgt = isfinite(v) && v > 0 ? fmin(v, ytop) / ytop * plot_h : 0;
			numbuf bx, by, bw, bh, bv;
			char col[8];

			series_colour(j, col);
			g_string_append_printf(s, "<rect class=\"mark\" x=\"%s\" y=\"%s\" width=\"%s\" "
					       "height=\"%s\" fill=\"%s\"><title>",
					       co(bx, gx + (double)j * bar_w),
					       co(by, top + plot_h - hgt), co(bw, bar_w),
					       co(bh, hgt), col);
			put_text(s, categories[c]);
			g_string_append_c(s, '\n');
			put_text(s, series[j]);
			g_string_append_printf(s, ": %s</title></rect>\n", val(bv, v));
		}
		if (rotate)
			put_label(s, left + ((double)c + 0.5) * group_w + 4, top + plot_h + 16,
				  FONT_SIZE, "end", -45, NULL, cats[c]);
		else
			put_label(s, left + ((double)c + 0.5) * group_w, top + plot_h + 20,
				  FONT_SIZE, "middle", 0, NULL, cats[c]);
	}
	/* the axes last, over the bars' bottom edges */
	put_line(s, left, top, left, top + plot_h, "black", NULL);
	put_line(s, left, top + plot_h, left + plot_w, top + plot_h, "black", NULL);

	for (size_t c = 0; c < n_cat; c++)
		g_free(cats[c]);
	g_free(cats);
	return finish(s, path, why);
}

#define TL_ROW 6.0		/* height of an access's row */
#define TL_LEFT 60.0
#define TL_WIDTH 900.0

static void put_phase(GString *s, double x0, double scale, double y, uint64_t lo,
		      uint64_t hi, uint64_t first, const char *cls, const char *fill)
{
	numbuf a, b, c, d;

	if (hi <= lo)
		return;
	g_string_append_printf(s, "<rect class=\"mark %s\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>\n",
			       cls, co(a, x0 + (double)(lo - first) * scale), co(b, y),
			       co(c, MAX((double)(hi - lo) * scale, 0.5)), co(d, TL_ROW - 1), fill);
}

bool svgplot_timeline(const char *path, const char *title, const char *caption,
		      const uint64_t *start, const uint64_t *hit, const uint64_t *miss,
		      size_t n, const size_t *pure_row, const uint64_t *pure_lo,
		      const uint64_t *pure_hi, size_t n_pure, char **why)
{
	uint64_t first = UINT64_MAX, last = 0;
	double top = 50, h, scale;
	GString *s = g_string_new(NULL);
	numbuf nb;

	for (size_t i = 0; i < n; i++) {
		first = MIN(first, start[i]);
		last = MAX(last, start[i] + hit[i] + miss[i]);
	}
	if (!n)
		first = last = 0;
	scale = TL_WIDTH / (double)MAX(last - first, 1);
	h = top + (double)n * TL_ROW + 70;
	put_header(s, TL_LEFT + TL_WIDTH + 40, h, title);
	for (size_t i = 0; i < n; i++) {
		double y = top + (double)i * TL_ROW;

		put_phase(s, TL_LEFT, scale, y, start[i], start[i] + hit[i], first, "hit", "#4477aa");
		put_phase(s, TL_LEFT, scale, y, start[i] + hit[i], start[i] + hit[i] + miss[i],
			  first, "miss", "#ccbb44");
	}
	for (size_t k = 0; k < n_pure; k++)
		put_phase(s, TL_LEFT, scale, top + (double)pure_row[k] * TL_ROW, pure_lo[k],
			  pure_hi[k], first, "pure", "#ee6677");
	/* the cycle axis: the first and the last cycle shown */
	put_line(s, TL_LEFT, top + (double)n * TL_ROW + 4, TL_LEFT + TL_WIDTH,
		 top + (double)n * TL_ROW + 4, "black", NULL);
	g_string_append_printf(s, "<!-- cycles %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT " -->\n",
			       first, last);
	put_label(s, TL_LEFT, top + (double)n * TL_ROW + 20, FONT_SIZE, "start", 0, NULL,
		  val(nb, (double)first));
	put_label(s, TL_LEFT + TL_WIDTH, top + (double)n * TL_ROW + 20, FONT_SIZE, "end", 0, NULL,
		  val(nb, (double)last));
	put_label(s, TL_LEFT + TL_WIDTH / 2, top + (double)n * TL_ROW + 20, FONT_SIZE, "middle", 0,
		  NULL, "cycle (blue: hit phase; yellow: miss phase; red: pure miss cycles)");
	put_label(s, TL_LEFT + TL_WIDTH / 2, top + (double)n * TL_ROW + 44, FONT_SIZE, "middle", 0,
		  NULL, caption);
	put_label(s, 20, top + (double)n * TL_ROW / 2, FONT_SIZE, "middle", -90, NULL, "access");
	return finish(s, path, why);
}

/*
 * Lines over categorical x positions (a swept parameter's values, in the
 * order given): series j's value at x[i] is y[j * n_x + i]; a NaN leaves a
 * gap.  Each value is a circle of class "mark" with its tooltip; the
 * legend (series names) sits between the title and the plot.
 */
bool svgplot_lines(const char *path, const char *title, const char *xlabel,
		   const char *ylabel, const char *const *xs, size_t n_x,
		   const char *const *series, size_t n_series,
		   const double *y, char **why)
{
	const double right = 24, plot_h = 320;
	double left, tick_w = 0, vmax = 0, ytop, ystep, plot_w, step, w, h, top, bottom;
	double legend_w = 0, legend_h = 0, x_legend = 0, y_legend, label_w = 0;
	size_t per_row = 1;
	bool rotate;
	GString *s;

	if (why)
		*why = NULL;
	if (!n_x || !n_series) {
		if (why)
			*why = g_strdup_printf("%s: no value to plot (%zu x values, %zu series)",
					       path, n_x, n_series);
		return false;
	}
	for (size_t i = 0; i < n_x * n_series; i++)
		if (isfinite(y[i]))
			vmax = fmax(vmax, y[i]);
	nice_axis(vmax, &ytop, &ystep);
	tick_w = y_tick_width(ytop, ystep);
	step = fmax(60, 420 / (double)n_x);
	plot_w = step * (double)n_x;
	for (size_t i = 0; i < n_x; i++)
		label_w = fmax(label_w, text_width(xs[i], FONT_SIZE));
	rotate = label_w > step - 6;
	bottom = (rotate ? 24 + label_w * M_SQRT1_2 : 30) + (xlabel ? 24 : 8);
	left = (ylabel ? 36 : 8) + tick_w + 12;
	if (n_series > 1) {
		for (size_t j = 0; j < n_series; j++)
			legend_w = fmax(legend_w, 22 + text_width(series[j], FONT_SIZE) + 18);
		per_row = (size_t)fmax(1, floor(plot_w / legend_w));
		legend_h = (double)((n_series + per_row - 1) / per_row) * 20;
		x_legend = fmax(8, left + (plot_w - (double)MIN(per_row, n_series) * legend_w) / 2);
	}
	top = (title ? 46 : 16) + legend_h + 14;
	y_legend = top - legend_h - 10;
	w = fmax(left + plot_w + right, x_legend + legend_w + right);
	if (title)
		w = fmax(w, text_width(title, TITLE_SIZE) + 40);
	h = top + plot_h + bottom;

	s = g_string_new(NULL);
	put_header(s, w, h, title);
	if (n_series > 1)
		put_legend(s, series, n_series, x_legend, y_legend, legend_w, per_row);
	put_y_axis(s, left, top, plot_w, plot_h, ytop, ystep, tick_w, ylabel);
	for (size_t i = 0; i < n_x; i++) {
		double px = left + ((double)i + 0.5) * step;

		put_line(s, px, top + plot_h, px, top + plot_h + 5, "black", NULL);
		if (rotate)
			put_label(s, px + 4, top + plot_h + 16, FONT_SIZE, "end", -45, NULL, xs[i]);
		else
			put_label(s, px, top + plot_h + 20, FONT_SIZE, "middle", 0, NULL, xs[i]);
	}
	if (xlabel)
		put_label(s, left + plot_w / 2, h - 10, FONT_SIZE + 1, "middle", 0, NULL, xlabel);
	for (size_t j = 0; j < n_series; j++) {
		GString *pts = g_string_new(NULL);
		char col[8];

		series_colour(j, col);
		/* one polyline per run of values without a gap */
		for (size_t i = 0; i <= n_x; i++) {
			double v = i < n_x ? y[j * n_x + i] : NAN;

			if (isfinite(v)) {
				numbuf bx, by;
				double px = left + ((double)i + 0.5) * step;
				double py = top + plot_h - fmin(fmax(v, 0), ytop) / ytop * plot_h;

				g_string_append_printf(pts, "%s%s,%s", pts->len ? " " : "",
						       co(bx, px), co(by, py));
			} else if (pts->len) {
				g_string_append_printf(s, "<polyline fill=\"none\" stroke=\"%s\" "
						       "stroke-width=\"2\" points=\"%s\"/>\n", col, pts->str);
				g_string_truncate(pts, 0);
			}
		}
		g_string_free(pts, TRUE);
		for (size_t i = 0; i < n_x; i++) {
			double v = y[j * n_x + i];
			numbuf bx, by, bv;

			if (!isfinite(v))
				continue;
			g_string_append_printf(s, "<circle class=\"mark\" cx=\"%s\" cy=\"%s\" r=\"3.5\" "
					       "fill=\"%s\"><title>",
					       co(bx, left + ((double)i + 0.5) * step),
					       co(by, top + plot_h - fmin(fmax(v, 0), ytop) / ytop * plot_h),
					       col);
			if (n_series > 1) {
				put_text(s, series[j]);
				g_string_append(s, ", ");
			}
			put_text(s, xs[i]);
			g_string_append_printf(s, ": %s</title></circle>\n", val(bv, v));
		}
	}
	put_line(s, left, top, left, top + plot_h, "black", NULL);
	put_line(s, left, top + plot_h, left + plot_w, top + plot_h, "black", NULL);
	return finish(s, path, why);
}

/*
 * A Pareto chart: one circle per point (x[i], y[i]) on linear axes from 0,
 * titled labels[i]; the points no other beats in both (none has x and y
 * as small, one of them smaller) are filled and joined by a step line,
 * the frontier.  The frontier's circles have class "mark front", the
 * others "mark".
 */
bool svgplot_pareto(const char *path, const char *title, const char *xlabel,
		    const char *ylabel, const double *x, const double *y,
		    const char *const *labels, size_t n, char **why)
{
	const double plot_w = 480, plot_h = 320, right = 24;
	double xtop, xstep, ytop, ystep, xmax = 0, ymax = 0, tick_w = 0, left, top, w, h;
	bool *front;
	size_t *order, nf = 0;
	GString *s;

	if (why)
		*why = NULL;
	if (!n) {
		if (why)
			*why = g_strdup_printf("%s: no point to plot", path);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		xmax = fmax(xmax, isfinite(x[i]) ? x[i] : 0);
		ymax = fmax(ymax, isfinite(y[i]) ? y[i] : 0);
	}
	/* counts, not rates: an axis from 0 to a round number above them */
	nice_axis(fmax(xmax, 1.5), &xtop, &xstep);
	nice_axis(fmax(ymax, 1.5), &ytop, &ystep);
	tick_w = y_tick_width(ytop, ystep);
	left = (ylabel ? 36 : 8) + tick_w + 12;
	top = title ? 46 : 16;
	w = fmax(left + plot_w + right, title ? text_width(title, TITLE_SIZE) + 40 : 0);
	h = top + plot_h + 30 + (xlabel ? 24 : 8);

	front = g_new0(bool, n);
	order = g_new(size_t, n);
	for (size_t i = 0; i < n; i++) {
		bool beaten = !isfinite(x[i]) || !isfinite(y[i]);

		for (size_t j = 0; j < n && !beaten; j++)
			beaten = j != i && isfinite(x[j]) && isfinite(y[j]) &&
				 x[j] <= x[i] && y[j] <= y[i] && (x[j] < x[i] || y[j] < y[i]);
		front[i] = !beaten;
	}

	s = g_string_new(NULL);
	put_header(s, w, h, title);
	put_y_axis(s, left, top, plot_w, plot_h, ytop, ystep, tick_w, ylabel);
	for (int k = 0; k * xstep <= xtop * (1 + 1e-9); k++) {
		double v = k * xstep, px = left + v / xtop * plot_w;
		numbuf bv;

		put_line(s, px, top + plot_h, px, top + plot_h + 5, "black", NULL);
		put_label(s, px, top + plot_h + 20, FONT_SIZE, "middle", 0, NULL, val(bv, v));
	}
	if (xlabel)
		put_label(s, left + plot_w / 2, h - 10, FONT_SIZE + 1, "middle", 0, NULL, xlabel);
#define PX(v) (left + (v) / xtop * plot_w)
#define PY(v) (top + plot_h - (v) / ytop * plot_h)
	/* the frontier, by capacity: a step down at each of its points */
	for (size_t i = 0; i < n; i++)
		if (front[i])
			order[nf++] = i;
	for (size_t a = 1; a < nf; a++)
		for (size_t b = a; b > 0 && x[order[b - 1]] > x[order[b]]; b--) {
			size_t t = order[b];

			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	if (nf > 1) {
		GString *pts = g_string_new(NULL);

		for (size_t a = 0; a < nf; a++) {
			numbuf bx, by, by2;
			size_t i = order[a];

			g_string_append_printf(pts, "%s%s,%s", a ? " " : "", co(bx, PX(x[i])),
					       co(by, PY(y[i])));
			if (a + 1 < nf)
				g_string_append_printf(pts, " %s,%s", co(bx, PX(x[order[a + 1]])),
						       co(by2, PY(y[i])));
		}
		g_string_append_printf(s, "<polyline fill=\"none\" stroke=\"#d55e00\" "
				       "stroke-width=\"1.5\" points=\"%s\"/>\n", pts->str);
		g_string_free(pts, TRUE);
	}
	for (size_t i = 0; i < n; i++) {
		numbuf bx, by, bxv, byv;

		if (!isfinite(x[i]) || !isfinite(y[i]))
			continue;
		g_string_append_printf(s, "<circle class=\"mark%s\" cx=\"%s\" cy=\"%s\" r=\"4\" "
				       "fill=\"%s\" stroke=\"#0072b2\"><title>",
				       front[i] ? " front" : "", co(bx, PX(x[i])), co(by, PY(y[i])),
				       front[i] ? "#0072b2" : "white");
		if (labels && labels[i]) {
			put_text(s, labels[i]);
			g_string_append(s, "\n");
		}
		g_string_append_printf(s, "%s, %s</title></circle>\n", val(bxv, x[i]), val(byv, y[i]));
	}
#undef PX
#undef PY
	put_line(s, left, top, left, top + plot_h, "black", NULL);
	put_line(s, left, top + plot_h, left + plot_w, top + plot_h, "black", NULL);
	g_free(front);
	g_free(order);
	return finish(s, path, why);
}
