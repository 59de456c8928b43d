/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SVG charts written by sectorsim itself (no plotting dependency): the two
 * figures of the paper's evaluation, for `sectorsim compare --plot DIR`,
 * and the line charts of `sectorsim sweep --plot DIR`.
 * Every data mark is an element with class="mark" (a circle or a rect), so
 * tests can count them; the files are standalone SVG 1.1.
 */
#ifndef SS_SVGPLOT_H
#define SS_SVGPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Predicted (y) against measured (x) on log-log axes, with the y = x line
 * (the paper's Fig. 8): one circle per point with x > 0 and y > 0, titled
 * with labels[i] (may be NULL); points that log axes cannot show are left
 * out and counted in *skipped (may be NULL).  False with *why (g_free it)
 * when the file cannot be written or no point can be shown.
 */
bool svgplot_scatter_loglog(const char *path, const char *title,
			    const char *xlabel, const char *ylabel,
			    const double *x, const double *y,
			    const char *const *labels, size_t n,
			    size_t *skipped, char **why);

/*
 * Grouped bars (the paper's Fig. 7): for each category (an app), one bar
 * per series (say "model", "hardware"); values[c * n_series + s], >= 0.
 * One rect per value, a legend for the series.
 */
bool svgplot_bars(const char *path, const char *title, const char *ylabel,
		  const char *const *categories, size_t n_cat,
		  const char *const *series, size_t n_series,
		  const double *values, char **why);

/*
 * A C-AMAT timeline: one row per access (start[i], hit[i] cycles of hit
 * phase, then miss[i] of miss phase), for the first n of them, with the
 * pure miss cycles (n_pure segments [pure_lo, pure_hi) of row pure_row)
 * marked over the miss phases, and `caption` under the chart.  A rect of
 * class "mark hit", "mark miss" or "mark pure" per phase and segment.
 */
bool svgplot_timeline(const char *path, const char *title, const char *caption,
		      const uint64_t *start, const uint64_t *hit, const uint64_t *miss,
		      size_t n, const size_t *pure_row, const uint64_t *pure_lo,
		      const uint64_t *pure_hi, size_t n_pure, char **why);

/*
 * Lines over categorical x positions (`sectorsim sweep --plot`): series j's
 * value at xs[i] is y[j * n_x + i], NaN for none (a gap).  One circle of
 * class "mark" per value, a legend when there are several series.
 */
bool svgplot_lines(const char *path, const char *title, const char *xlabel,
		   const char *ylabel, const char *const *xs, size_t n_x,
		   const char *const *series, size_t n_series,
		   const double *y, char **why);

/*
 * A Pareto chart (`sectorsim sweep --plot`): a circle per point (x[i],
 * y[i]), titled labels[i] (may be NULL), on linear axes from 0; the points
 * no other beats in both (smaller is better) are filled, class "mark
 * front", and joined by a step line.
 */
bool svgplot_pareto(const char *path, const char *title, const char *xlabel,
		    const char *ylabel, const double *x, const double *y,
		    const char *const *labels, size_t n, char **why);

#endif
