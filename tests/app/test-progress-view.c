/* test-progress-view.c: the crawl progress view and its coverage plot, fed
 * the signals a crawl emits.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>

#include "cg-coverage-plot.h"
#include "cg-progress-view.h"
#include "cg-test-widgets.h"

static void
test_counters (void)
{
  CgProgressView *view = CG_PROGRESS_VIEW (cg_progress_view_new ());
  GtkWindow *window = cg_test_show_in_window (GTK_WIDGET (view), 900, 800);
  CgCrawlStats stats = { 0 };
  g_autofree char *two_mb = g_format_size (2 * 1000 * 1000);

  for (guint i = 0; i < CG_PROGRESS_N_COUNTERS; i++)
    g_assert_cmpstr (cg_progress_view_get_counter_text (view, i), ==, "—");

  stats.queued = 12;
  stats.done = 1234567;
  stats.failed = 3;
  stats.bytes = 2 * 1000 * 1000;
  stats.documents_per_second = 7.26;
  cg_progress_view_update_stats (view, &stats);
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_QUEUED), ==, "12");
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_FETCHED), ==, "1234567");
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_FAILED), ==, "3");
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_BYTES), ==, two_mb);
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_RATE), ==, "7.3");

  /* A paused crawl offers Resume rather than Pause, says it is paused
   * where it said what it does, and has no rate: once, only the button
   * changed, and the rate of before stayed. */
  cg_progress_view_set_title (view, "Harvesting", "Following the model");
  g_assert_true (gtk_widget_get_visible (cg_test_find_button (GTK_WIDGET (view), "_Pause")));
  g_assert_false (gtk_widget_get_visible (cg_test_find_button (GTK_WIDGET (view), "_Resume")));
  stats.paused = TRUE;
  cg_progress_view_update_stats (view, &stats);
  g_assert_false (gtk_widget_get_visible (cg_test_find_button (GTK_WIDGET (view), "_Pause")));
  g_assert_true (gtk_widget_get_visible (cg_test_find_button (GTK_WIDGET (view), "_Resume")));
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_RATE), ==, "—");
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_LABEL, "Paused: nothing is fetched until it resumes"));
  g_assert_null (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_LABEL, "Following the model"));
  /* A new title while paused keeps saying so. */
  cg_progress_view_set_title (view, "Harvesting", "Following the model and writing WARC files");
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_LABEL, "Paused: nothing is fetched until it resumes"));
  stats.paused = FALSE;
  cg_progress_view_update_stats (view, &stats);
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_RATE), ==, "7.3");
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_LABEL, "Following the model and writing WARC files"));
  stats.paused = TRUE;
  cg_progress_view_update_stats (view, &stats);

  /* Without a parent providing the crawl actions, the buttons do nothing. */
  g_assert_false (gtk_widget_is_sensitive (cg_test_find_button (GTK_WIDGET (view), "_Stop")));

  cg_progress_view_reset (view);
  g_assert_cmpstr (cg_progress_view_get_counter_text (view, CG_PROGRESS_COUNTER_FETCHED), ==, "—");
  g_assert_true (gtk_widget_get_visible (cg_test_find_button (GTK_WIDGET (view), "_Pause")));

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_events (void)
{
  CgProgressView *view = CG_PROGRESS_VIEW (cg_progress_view_new ());
  GtkWindow *window = cg_test_show_in_window (GTK_WIDGET (view), 900, 800);

  g_assert_cmpuint (cg_progress_view_get_n_events (view), ==, 0);
  g_assert_null (cg_progress_view_get_event_text (view, 0));

  cg_progress_view_add_event (view, CG_CRAWL_EVENT_ROBOTS, "http://127.0.0.1/private/", "Kept out by robots.txt");
  cg_progress_view_add_event (view, CG_CRAWL_EVENT_FETCH_FAILED, "http://127.0.0.1/gone", "404 Not Found");
  /* An event without a message still says what kind it is. */
  cg_progress_view_add_event (view, CG_CRAWL_EVENT_LIMIT, NULL, NULL);
  g_assert_cmpuint (cg_progress_view_get_n_events (view), ==, 3);
  g_assert_cmpstr (cg_progress_view_get_event_text (view, 0), ==, "Limit reached");
  g_assert_cmpstr (cg_progress_view_get_event_text (view, 1), ==, "404 Not Found");
  g_assert_cmpstr (cg_progress_view_get_event_text (view, 2), ==, "Kept out by robots.txt");

  /* The list keeps the newest events only. */
  for (guint i = 0; i < CG_PROGRESS_VIEW_MAX_EVENTS + 50; i++)
    {
      g_autofree char *message = g_strdup_printf ("failure %u", i);

      cg_progress_view_add_event (view, CG_CRAWL_EVENT_FETCH_FAILED, NULL, message);
    }
  g_assert_cmpuint (cg_progress_view_get_n_events (view), ==, CG_PROGRESS_VIEW_MAX_EVENTS);
  g_assert_cmpstr (cg_progress_view_get_event_text (view, 0), ==, "failure 249");
  g_assert_cmpstr (cg_progress_view_get_event_text (view, CG_PROGRESS_VIEW_MAX_EVENTS - 1), ==, "failure 50");

  cg_progress_view_reset (view);
  g_assert_cmpuint (cg_progress_view_get_n_events (view), ==, 0);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_classes (void)
{
  CgProgressView *view = CG_PROGRESS_VIEW (cg_progress_view_new ());
  GtkWindow *window = cg_test_show_in_window (GTK_WIDGET (view), 900, 800);
  guint pages = 0, records = 0;

  g_assert_cmpuint (cg_progress_view_get_n_classes (view), ==, 0);
  g_assert_false (cg_progress_view_get_class_counts (view, "book", NULL, NULL));

  /* Classes appear as the harvest finds them, and their counts grow. */
  cg_progress_view_update_class (view, "category", 1, 20);
  cg_progress_view_update_class (view, "book", 1, 1);
  cg_progress_view_update_class (view, "book", 5, 5);
  g_assert_cmpuint (cg_progress_view_get_n_classes (view), ==, 2);
  g_assert_true (cg_progress_view_get_class_counts (view, "book", &pages, &records));
  g_assert_cmpuint (pages, ==, 5);
  g_assert_cmpuint (records, ==, 5);
  g_assert_true (cg_progress_view_get_class_counts (view, "category", &pages, &records));
  g_assert_cmpuint (pages, ==, 1);
  g_assert_cmpuint (records, ==, 20);

  /* With the model, rows show the classes' labels. */
  {
    g_autoptr(CgSiteModel) model = cg_site_model_new ("http://127.0.0.1/");

    cg_site_model_add_class (model, "author", "Writer");
    cg_progress_view_set_model (view, model);
    cg_progress_view_update_class (view, "author", 2, 0);
    g_assert_nonnull (cg_test_find_row (GTK_WIDGET (view), "Writer"));
    g_assert_null (cg_test_find_row (GTK_WIDGET (view), "author"));
    g_assert_nonnull (cg_test_find_row (GTK_WIDGET (view), "book"));
    g_assert_true (cg_progress_view_get_class_counts (view, "author", &pages, NULL));
    g_assert_cmpuint (pages, ==, 2);
    cg_progress_view_set_model (view, NULL);
  }

  /* Their number is bounded. */
  for (guint i = 0; i < CG_PROGRESS_VIEW_MAX_CLASSES + 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("class-%u", i);

      cg_progress_view_update_class (view, name, i, 0);
    }
  g_assert_cmpuint (cg_progress_view_get_n_classes (view), ==, CG_PROGRESS_VIEW_MAX_CLASSES);

  cg_progress_view_reset (view);
  g_assert_cmpuint (cg_progress_view_get_n_classes (view), ==, 0);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_plot (void)
{
  CgProgressView *view = CG_PROGRESS_VIEW (cg_progress_view_new ());
  GtkWindow *window = cg_test_show_in_window (GTK_WIDGET (view), 900, 800);
  CgCoveragePlot *plot = cg_progress_view_get_plot (view);
  guint64 requests = 0, bigrams = 0;
  double max_x = 0, max_y = 0;

  g_assert_cmpuint (cg_coverage_plot_get_n_points (plot), ==, 0);
  cg_coverage_plot_get_axis_ranges (plot, &max_x, &max_y);
  g_assert_cmpfloat (max_x, ==, 10);
  g_assert_cmpfloat (max_y, ==, 10);

  cg_progress_view_add_coverage (view, 1, 150);
  cg_progress_view_add_coverage (view, 2, 260);
  /* The same request count again updates the last point. */
  cg_progress_view_add_coverage (view, 2, 270);
  cg_progress_view_add_coverage (view, 37, 2049);
  g_assert_cmpuint (cg_coverage_plot_get_n_points (plot), ==, 3);
  g_assert_true (cg_coverage_plot_get_point (plot, 1, &requests, &bigrams));
  g_assert_cmpuint (requests, ==, 2);
  g_assert_cmpuint (bigrams, ==, 270);
  g_assert_false (cg_coverage_plot_get_point (plot, 3, NULL, NULL));

  /* The axes end on round numbers above the largest values. */
  cg_coverage_plot_get_axis_ranges (plot, &max_x, &max_y);
  g_assert_cmpfloat (max_x, ==, 40);
  g_assert_cmpfloat (max_y, ==, 2500);

  /* Drawing the plot with points must work (and not warn). */
  gtk_widget_queue_draw (GTK_WIDGET (plot));
  cg_test_iterate ();

  /* Fewer requests than before is a new crawl: the curve starts again. */
  cg_progress_view_add_coverage (view, 1, 10);
  g_assert_cmpuint (cg_coverage_plot_get_n_points (plot), ==, 1);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_plot_bounded (void)
{
  CgCoveragePlot *plot = g_object_ref_sink (CG_COVERAGE_PLOT (cg_coverage_plot_new ()));
  guint64 requests = 0, bigrams = 0;
  guint total = CG_COVERAGE_PLOT_MAX_POINTS * 3;

  for (guint i = 1; i <= total; i++)
    cg_coverage_plot_add_point (plot, i, i * 10);
  g_assert_cmpuint (cg_coverage_plot_get_n_points (plot), <=, CG_COVERAGE_PLOT_MAX_POINTS);
  g_assert_cmpuint (cg_coverage_plot_get_n_points (plot), >=, CG_COVERAGE_PLOT_MAX_POINTS / 2);

  /* The first and the latest points stay, in order. */
  g_assert_true (cg_coverage_plot_get_point (plot, 0, &requests, &bigrams));
  g_assert_cmpuint (requests, ==, 1);
  g_assert_true (cg_coverage_plot_get_point (plot, cg_coverage_plot_get_n_points (plot) - 1, &requests, &bigrams));
  g_assert_cmpuint (requests, ==, total);
  g_assert_cmpuint (bigrams, ==, total * 10);
  for (guint i = 1; i < cg_coverage_plot_get_n_points (plot); i++)
    {
      guint64 previous = 0;

      cg_coverage_plot_get_point (plot, i - 1, &previous, NULL);
      cg_coverage_plot_get_point (plot, i, &requests, NULL);
      g_assert_cmpuint (previous, <, requests);
    }
  g_object_unref (plot);
}

static void
test_nice_step (void)
{
  struct { double max; guint ticks; double step; } cases[] = {
    { 10, 5, 2 },
    { 37, 5, 10 },
    { 40, 5, 10 },
    { 2049, 5, 500 },
    { 0.3, 5, 0.1 },
    { 1e6, 5, 2e5 },
    /* Degenerate axes still give a usable step. */
    { 0, 5, 1 },
    { -3, 5, 1 },
    { 10, 0, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpfloat_with_epsilon (cg_coverage_plot_nice_step (cases[i].max, cases[i].ticks), cases[i].step, 1e-9);
}

int
main (int argc, char **argv)
{
  /* Numbers are checked as the C locale writes them. */
  g_autoptr(CgTestFolder) home = cg_test_init_app (&argc, &argv, TRUE);

  g_test_add_func ("/progress-view/counters", test_counters);
  g_test_add_func ("/progress-view/events", test_events);
  g_test_add_func ("/progress-view/classes", test_classes);
  g_test_add_func ("/progress-view/plot", test_plot);
  g_test_add_func ("/coverage-plot/bounded", test_plot_bounded);
  g_test_add_func ("/coverage-plot/nice-step", test_nice_step);

  return g_test_run ();
}
