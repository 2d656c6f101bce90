/* take-screenshots.c: PNG screenshots of the workbench's main views.
 *
 * Renders the real widgets, in process, the way GTK draws them on screen,
 * so the pictures in the README and the AppStream metainfo are of the app
 * as it is: the start page, the New Crawl dialog, and then, on the demo
 * site really explored (so it takes a minute or two), the model graph, a
 * class with its records and a harvest's progress. Run under a display
 * (Xvfb in CI): tests/app/screenshots.sh.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "cg-new-crawl-dialog.h"
#include "cg-project-page.h"
#include "cg-record-store.h"
#include "cg-screenshot.h"
#include "cg-test-widgets.h"
#include "cg-window.h"

#define WAIT_TIMEOUT_S 600

typedef struct {
  gboolean finished;
  int      stage;
} Wait;

static void
finished_cb (CgPipeline   *pipeline,
             int           stage,
             gboolean      cancelled,
             const GError *error,
             Wait         *wait)
{
  if (error != NULL)
    g_error ("The demo's %s stage failed: %s", stage == CG_PIPELINE_HARVESTING ? "harvest" : "exploration",
             error->message);
  wait->finished = TRUE;
  wait->stage = stage;
}

static void
wait_finished (Wait *wait)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_TIMEOUT_S * G_USEC_PER_SEC;

  while (!wait->finished)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("The demo took more than %d s", WAIT_TIMEOUT_S);
      g_main_context_iteration (NULL, TRUE);
    }
}

/* The class with the most records, which shows the records table best. */
static char *
richest_class (CgProjectPage *page)
{
  CgSiteModel *model = cg_project_page_get_model (page);
  g_autoptr(GHashTable) counts = NULL;
  GHashTableIter iter;
  gpointer key, value;
  const char *best = NULL;
  guint most = 0;

  counts = cg_record_store_count_by_class (cg_project_get_store (cg_project_page_get_project (page)),
                                           cg_site_model_get_id (model), NULL);
  if (counts == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) > most || (GPOINTER_TO_UINT (value) == most && g_strcmp0 (key, best) < 0))
      {
        most = GPOINTER_TO_UINT (value);
        best = key;
      }
  return g_strdup (best);
}

int
main (int argc, char **argv)
{
  const char *out_dir = argc > 1 ? argv[1] : ".";
  g_autofree char *start = g_build_filename (out_dir, "start.png", NULL);
  g_autofree char *new_crawl = g_build_filename (out_dir, "new-crawl.png", NULL);
  g_autofree char *model = g_build_filename (out_dir, "model.png", NULL);
  g_autofree char *class_view = g_build_filename (out_dir, "class.png", NULL);
  g_autofree char *crawl = g_build_filename (out_dir, "crawl.png", NULL);
  g_autoptr(CgTestFolder) home = cg_test_folder_new ("cg-screenshots-XXXXXX");
  g_autofree char *class_name = NULL;
  g_autoptr(GError) error = NULL;
  CgWindow *window;
  CgNewCrawlDialog *dialog;
  CgProjectPage *page;
  Wait wait = { 0 };

  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  adw_init ();
  /* Crawls report to the main context from their threads; owning it keeps
   * their reports on this thread. */
  g_main_context_acquire (g_main_context_default ());
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/io/github/cartograph/Cartograph/icons");

  window = g_object_new (CG_TYPE_WINDOW, "default-width", 1100, "default-height", 720, NULL);
  page = CG_PROJECT_PAGE (cg_window_get_project_page (window));
  gtk_window_present (GTK_WINDOW (window));
  cg_screenshot_settle (1500);
  cg_screenshot_save (GTK_WIDGET (window), start);

  dialog = cg_new_crawl_dialog_new (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_editable_set_text (GTK_EDITABLE (cg_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, NULL)), "https://archive.example.org/collections/");
  cg_screenshot_settle (1000);
  cg_screenshot_save (GTK_WIDGET (dialog), new_crawl);
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* The demo, explored, rendered and extracted for real. */
  cg_window_try_demo (window);
  /* The project opens once the demo server, started in a thread, listens. */
  while (cg_project_page_get_pipeline (page) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (cg_project_page_get_pipeline (page), "finished", G_CALLBACK (finished_cb), &wait);
  wait_finished (&wait);

  /* Long enough for the toast saying the model is ready to go. */
  cg_project_page_show_view (page, "model");
  cg_screenshot_settle (6500);
  cg_class_graph_zoom_fit (cg_project_page_get_graph (page));
  cg_screenshot_settle (1000);
  cg_screenshot_save (GTK_WIDGET (window), model);

  class_name = richest_class (page);
  if (class_name == NULL || !cg_project_page_open_class (page, class_name))
    g_error ("The demo's model has no class with records");
  cg_screenshot_settle (2500);
  cg_screenshot_save (GTK_WIDGET (window), class_view);

  /* A harvest a little way in. */
  wait.finished = FALSE;
  if (!cg_project_page_start_harvest (page, CG_HARVEST_STRATEGY_CLASSES, NULL, &error))
    g_error ("Cannot harvest the demo: %s", error->message);
  cg_screenshot_settle (12000);
  cg_screenshot_save (GTK_WIDGET (window), crawl);
  cg_project_page_stop (page);
  wait_finished (&wait);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
