/* cg-coverage-plot.h: distinct 2-grams against requests, as a crawl goes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Seed 004's measure of how much new text a crawl finds: the number of
 * distinct word 2-grams seen so far against the number of requests made.
 * A curve that flattens says the crawl has stopped finding new content.
 *
 * The plot keeps at most CG_COVERAGE_PLOT_MAX_POINTS points: when full,
 * every other point is dropped (the first and the latest stay), so a long
 * crawl keeps its shape at half the resolution. Points whose request
 * count goes back (a new crawl) start the curve again. */
#define CG_COVERAGE_PLOT_MAX_POINTS 2048

#define CG_TYPE_COVERAGE_PLOT (cg_coverage_plot_get_type ())
G_DECLARE_FINAL_TYPE (CgCoveragePlot, cg_coverage_plot, CG, COVERAGE_PLOT, GtkWidget)

GtkWidget *cg_coverage_plot_new             (void);

void       cg_coverage_plot_add_point       (CgCoveragePlot *self,
                                             guint64         requests,
                                             guint64         distinct_bigrams);
void       cg_coverage_plot_clear           (CgCoveragePlot *self);

guint      cg_coverage_plot_get_n_points    (CgCoveragePlot *self);
gboolean   cg_coverage_plot_get_point       (CgCoveragePlot *self,
                                             guint           index,
                                             guint64        *out_requests,
                                             guint64        *out_distinct_bigrams);
/* The upper ends of the axes: round numbers at or above the largest
 * values, so that the axes have round tick labels. */
void       cg_coverage_plot_get_axis_ranges (CgCoveragePlot *self,
                                             double         *out_max_requests,
                                             double         *out_max_bigrams);

/* A round step for ticks on an axis from 0 to @max, with at most
 * @max_ticks steps: 1, 2 or 5 times a power of ten. */
double     cg_coverage_plot_nice_step       (double          max,
                                             guint           max_ticks);

G_END_DECLS
