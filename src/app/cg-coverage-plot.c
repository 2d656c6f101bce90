/* cg-coverage-plot.c: distinct 2-grams against requests, as a crawl goes.
 *
 * GTK has no chart widget and libadwaita none either; a line with two
 * labelled axes is little enough to draw here with cairo, and a charting
 * library would be a large dependency for it.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n.h>

#include "cg-coverage-plot.h"

#define MAX_TICKS      5
#define TICK_LENGTH    4.0
#define LABEL_SPACING  4.0
#define PADDING        8.0

typedef struct {
  guint64 requests;
  guint64 bigrams;
} Point;

struct _CgCoveragePlot
{
  GtkWidget  parent_instance;
  GArray    *points;   /* Point */
};

G_DEFINE_FINAL_TYPE (CgCoveragePlot, cg_coverage_plot, GTK_TYPE_WIDGET)

double
cg_coverage_plot_nice_step (double max,
                            guint  max_ticks)
{
  double raw, magnitude, fraction;

  if (!(max > 0) || max_ticks == 0)
    return 1;
  raw = max / max_ticks;
  magnitude = pow (10, floor (log10 (raw)));
  fraction = raw / magnitude;
  if (fraction <= 1)
    return magnitude;
  if (fraction <= 2)
    return 2 * magnitude;
  if (fraction <= 5)
    return 5 * magnitude;
  return 10 * magnitude;
}

/* Axes start at 0 and end on a tick; an empty axis still shows 0 to 10 so
 * that it has ticks to label. Counts below 10 keep integer ticks. */
static double
axis_end (double max_value)
{
  double step;

  if (max_value < 10)
    return 10;
  step = cg_coverage_plot_nice_step (max_value, MAX_TICKS);
  return ceil (max_value / step) * step;
}

void
cg_coverage_plot_get_axis_ranges (CgCoveragePlot *self,
                                  double         *out_max_requests,
                                  double         *out_max_bigrams)
{
  guint64 max_x = 0, max_y = 0;

  g_return_if_fail (CG_IS_COVERAGE_PLOT (self));

  for (guint i = 0; i < self->points->len; i++)
    {
      Point *p = &g_array_index (self->points, Point, i);

      max_x = MAX (max_x, p->requests);
      max_y = MAX (max_y, p->bigrams);
    }
  if (out_max_requests != NULL)
    *out_max_requests = axis_end ((double) max_x);
  if (out_max_bigrams != NULL)
    *out_max_bigrams = axis_end ((double) max_y);
}

static void
update_description (CgCoveragePlot *self)
{
  g_autofree char *description = NULL;

  if (self->points->len == 0)
    description = g_strdup (_("No requests yet"));
  else
    {
      Point *last = &g_array_index (self->points, Point, self->points->len - 1);

      /* Translators: the state of the coverage plot, for screen readers. */
      description = g_strdup_printf (_("%" PRIu64 " distinct 2-grams after %" PRIu64 " requests"),
                                     last->bigrams, last->requests);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

/* Halves the points in place, keeping the first and the last. */
static void
decimate (GArray *points)
{
  guint kept = 1;

  for (guint i = 2; i + 1 < points->len; i += 2)
    g_array_index (points, Point, kept++) = g_array_index (points, Point, i);
  g_array_index (points, Point, kept++) = g_array_index (points, Point, points->len - 1);
  g_array_set_size (points, kept);
}

void
cg_coverage_plot_add_point (CgCoveragePlot *self,
                            guint64         requests,
                            guint64         distinct_bigrams)
{
  Point point = { requests, distinct_bigrams };

  g_return_if_fail (CG_IS_COVERAGE_PLOT (self));

  if (self->points->len > 0)
    {
      Point *last = &g_array_index (self->points, Point, self->points->len - 1);

      if (requests < last->requests)
        g_array_set_size (self->points, 0);
      else if (requests == last->requests)
        {
          /* The same request count again is an update, not a new point. */
          last->bigrams = distinct_bigrams;
          update_description (self);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          return;
        }
    }
  if (self->points->len >= CG_COVERAGE_PLOT_MAX_POINTS)
    decimate (self->points);
  g_array_append_val (self->points, point);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cg_coverage_plot_clear (CgCoveragePlot *self)
{
  g_return_if_fail (CG_IS_COVERAGE_PLOT (self));

  g_array_set_size (self->points, 0);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
cg_coverage_plot_get_n_points (CgCoveragePlot *self)
{
  g_return_val_if_fail (CG_IS_COVERAGE_PLOT (self), 0);
  return self->points->len;
}

gboolean
cg_coverage_plot_get_point (CgCoveragePlot *self,
                            guint           index,
                            guint64        *out_requests,
                            guint64        *out_distinct_bigrams)
{
  Point *p;

  g_return_val_if_fail (CG_IS_COVERAGE_PLOT (self), FALSE);

  if (index >= self->points->len)
    return FALSE;
  p = &g_array_index (self->points, Point, index);
  if (out_requests != NULL)
    *out_requests = p->requests;
  if (out_distinct_bigrams != NULL)
    *out_distinct_bigrams = p->bigrams;
  return TRUE;
}

static PangoLayout *
make_label (CgCoveragePlot *self,
            const char     *text,
            int            *out_width,
            int            *out_height)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);

  pango_layout_get_pixel_size (layout, out_width, out_height);
  return layout;
}

static char *
format_tick (double value)
{
  if (value >= 1e6)
    return g_strdup_printf ("%gM", value / 1e6);
  if (value >= 1e4)
    return g_strdup_printf ("%gk", value / 1e3);
  return g_strdup_printf ("%.0f", value);
}

static void
append_label (GtkSnapshot   *snapshot,
              PangoLayout   *layout,
              double         x,
              double         y,
              const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x, (float) y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
cg_coverage_plot_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  CgCoveragePlot *self = CG_COVERAGE_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA fg, accent, dim, grid;
  double max_x, max_y, step_x, step_y;
  double left, right, top, bottom;
  int label_w, label_h, widest = 0, line_h = 0;
  g_autoptr(PangoLayout) x_title = NULL;
  g_autoptr(PangoLayout) y_title = NULL;
  int x_title_w, x_title_h, y_title_w, y_title_h;
  cairo_t *cr;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  {
    GtkStyleContext *style = gtk_widget_get_style_context (widget);

    gtk_style_context_get_color (style, &fg);
    if (!gtk_style_context_lookup_color (style, "accent_color", &accent))
      accent = (GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.0f };
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  dim = fg;
  dim.alpha *= 0.55f;
  grid = fg;
  grid.alpha *= 0.12f;

  cg_coverage_plot_get_axis_ranges (self, &max_x, &max_y);
  step_x = cg_coverage_plot_nice_step (max_x, MAX_TICKS);
  step_y = cg_coverage_plot_nice_step (max_y, MAX_TICKS);

  /* The left margin fits the widest tick label of the y axis. */
  for (double v = 0; v <= max_y + step_y / 2; v += step_y)
    {
      g_autofree char *text = format_tick (v);
      g_autoptr(PangoLayout) layout = make_label (self, text, &label_w, &label_h);

      widest = MAX (widest, label_w);
      line_h = MAX (line_h, label_h);
    }
  y_title = make_label (self, _("Distinct 2-grams"), &y_title_w, &y_title_h);
  x_title = make_label (self, _("Requests"), &x_title_w, &x_title_h);

  left = PADDING + widest + LABEL_SPACING + TICK_LENGTH;
  right = width - PADDING - MAX (x_title_w / 2.0, 12);
  /* The top tick's label is centred on the axis's end: half of it rises
   * above, under the axis title. */
  top = PADDING + y_title_h + LABEL_SPACING + line_h / 2.0;
  bottom = height - PADDING - line_h - LABEL_SPACING - TICK_LENGTH - x_title_h;
  if (right - left < 20 || bottom - top < 20)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1);

  /* Grid lines at the ticks, then the axes over them. */
  gdk_cairo_set_source_rgba (cr, &grid);
  for (double v = step_y; v <= max_y + step_y / 2; v += step_y)
    {
      double y = round (bottom - (bottom - top) * v / max_y) + 0.5;

      cairo_move_to (cr, left, y);
      cairo_line_to (cr, right, y);
    }
  for (double v = step_x; v <= max_x + step_x / 2; v += step_x)
    {
      double x = round (left + (right - left) * v / max_x) + 0.5;

      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom);
    }
  cairo_stroke (cr);

  gdk_cairo_set_source_rgba (cr, &dim);
  cairo_move_to (cr, round (left) + 0.5, top);
  cairo_line_to (cr, round (left) + 0.5, bottom + 0.5);
  cairo_line_to (cr, right, bottom + 0.5);
  for (double v = 0; v <= max_y + step_y / 2; v += step_y)
    {
      double y = round (bottom - (bottom - top) * v / max_y) + 0.5;

      cairo_move_to (cr, left - TICK_LENGTH, y);
      cairo_line_to (cr, left, y);
    }
  for (double v = 0; v <= max_x + step_x / 2; v += step_x)
    {
      double x = round (left + (right - left) * v / max_x) + 0.5;

      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + TICK_LENGTH);
    }
  cairo_stroke (cr);

  if (self->points->len > 0)
    {
      cairo_set_line_width (cr, 2);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      gdk_cairo_set_source_rgba (cr, &accent);
      for (guint i = 0; i < self->points->len; i++)
        {
          Point *p = &g_array_index (self->points, Point, i);
          double x = left + (right - left) * (double) p->requests / max_x;
          double y = bottom - (bottom - top) * (double) p->bigrams / max_y;

          if (i == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      if (self->points->len == 1)
        {
          double x, y;

          cairo_get_current_point (cr, &x, &y);
          cairo_new_path (cr);
          cairo_arc (cr, x, y, 2.5, 0, 2 * G_PI);
          cairo_fill (cr);
        }
      else
        cairo_stroke (cr);
    }
  cairo_destroy (cr);

  /* Tick labels, right-aligned left of the y axis and centred below the
   * x axis, then the axis titles. */
  for (double v = 0; v <= max_y + step_y / 2; v += step_y)
    {
      g_autofree char *text = format_tick (v);
      g_autoptr(PangoLayout) layout = make_label (self, text, &label_w, &label_h);
      double y = bottom - (bottom - top) * v / max_y;

      append_label (snapshot, layout, left - TICK_LENGTH - LABEL_SPACING - label_w, y - label_h / 2.0, &dim);
    }
  for (double v = 0; v <= max_x + step_x / 2; v += step_x)
    {
      g_autofree char *text = format_tick (v);
      g_autoptr(PangoLayout) layout = make_label (self, text, &label_w, &label_h);
      double x = left + (right - left) * v / max_x;

      append_label (snapshot, layout, x - label_w / 2.0, bottom + TICK_LENGTH + LABEL_SPACING, &dim);
    }
  append_label (snapshot, y_title, PADDING, PADDING, &fg);
  append_label (snapshot, x_title, right - x_title_w, height - PADDING - x_title_h, &fg);

  if (self->points->len == 0)
    {
      g_autoptr(PangoLayout) empty = make_label (self, _("No requests yet"), &label_w, &label_h);

      append_label (snapshot, empty, (left + right - label_w) / 2, (top + bottom - label_h) / 2, &dim);
    }
}

static void
cg_coverage_plot_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200;
      *natural = 480;
    }
  else
    {
      *minimum = 160;
      *natural = 220;
    }
}

static void
cg_coverage_plot_finalize (GObject *object)
{
  CgCoveragePlot *self = CG_COVERAGE_PLOT (object);

  g_array_unref (self->points);

  G_OBJECT_CLASS (cg_coverage_plot_parent_class)->finalize (object);
}

static void
cg_coverage_plot_class_init (CgCoveragePlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = cg_coverage_plot_finalize;
  widget_class->snapshot = cg_coverage_plot_snapshot;
  widget_class->measure = cg_coverage_plot_measure;

  gtk_widget_class_set_css_name (widget_class, "coverageplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cg_coverage_plot_init (CgCoveragePlot *self)
{
  self->points = g_array_new (FALSE, FALSE, sizeof (Point));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Distinct 2-grams against requests"),
                                  -1);
  update_description (self);
}

GtkWidget *
cg_coverage_plot_new (void)
{
  return g_object_new (CG_TYPE_COVERAGE_PLOT, NULL);
}
