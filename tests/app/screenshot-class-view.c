/* screenshot-class-view.c: a PNG screenshot of the class view on a real project.
 *
 * Usage: screenshot-class-view PROJECT CLASS OUT.png [ARCHIVED.png]
 *
 * PROJECT is a folder that `cartograph-cli model` has explored and whose
 * sample pages it has rendered, for instance:
 *
 *   cartograph-cli serve-demo --port 8642 &
 *   cartograph-cli model http://127.0.0.1:8642/ --project /tmp/demo --no-politeness
 *   screenshot-class-view /tmp/demo category data/screenshots/class-view.png
 *
 * When the class has no wrapper yet, the program learns it and extracts
 * the class's records from the archive first, with the record extractor
 * the app uses. ARCHIVED.png, when given, is a screenshot of the first
 * sample page replayed from the archive. Run it under a display (Xvfb).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "cg-archived-page.h"
#include "cg-class-view.h"
#include "cg-record-extractor.h"
#include "cg-record-store.h"
#include "cg-screenshot.h"

static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  event,
                 gboolean        *finished)
{
  if (event == WEBKIT_LOAD_FINISHED)
    *finished = TRUE;
}

static gboolean
toast_cb (CgClassView     *view,
          const char      *message,
          AdwToastOverlay *overlay)
{
  adw_toast_overlay_add_toast (overlay, adw_toast_new (message));
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(CgStoredWrapper) wrapper = NULL;
  g_auto(GStrv) sites = NULL;
  AdwWindow *window;
  GtkWidget *box, *header, *overlay;
  CgClassView *view;
  const char *class_name;

  if (argc < 4)
    {
      g_printerr ("Usage: %s PROJECT CLASS OUT.png [ARCHIVED.png]\n", argv[0]);
      return 2;
    }
  class_name = argv[2];
  gtk_init ();
  adw_init ();

  project = cg_project_open (argv[1], &error);
  if (project == NULL)
    g_error ("%s", error->message);
  sites = cg_site_model_list_sites (cg_project_get_store (project), &error);
  if (sites == NULL)
    g_error ("%s", error->message);
  if (sites[0] == NULL)
    g_error ("The project %s has no model", argv[1]);
  model = cg_site_model_load_latest (cg_project_get_store (project), sites[0], &error);
  if (model == NULL)
    g_error ("%s", error->message);

  wrapper = cg_record_store_load_wrapper (cg_project_get_store (project), cg_site_model_get_id (model), class_name, NULL);
  if (wrapper == NULL)
    {
      if (!cg_record_extractor_learn (project, model, class_name, &error) ||
          !cg_record_extractor_run (project, model, class_name, NULL, NULL, NULL, NULL, &error))
        g_error ("%s", error->message);
    }

  window = ADW_WINDOW (adw_window_new ());
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 800);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header),
                                   adw_window_title_new (cg_project_get_name (project), cg_site_model_get_site (model)));
  gtk_box_append (GTK_BOX (box), header);
  overlay = adw_toast_overlay_new ();
  view = CG_CLASS_VIEW (cg_class_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (view), TRUE);
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), GTK_WIDGET (view));
  gtk_box_append (GTK_BOX (box), overlay);
  adw_window_set_content (window, box);
  g_signal_connect (view, "toast", G_CALLBACK (toast_cb), overlay);

  cg_class_view_set_class (view, project, model, class_name);
  gtk_window_present (GTK_WINDOW (window));
  cg_screenshot_settle (1500);
  cg_screenshot_save (GTK_WIDGET (window), argv[3]);

  if (argc > 4)
    {
      CgArchivedPage *page = CG_ARCHIVED_PAGE (cg_class_view_get_archived_page (view));
      gboolean finished = FALSE;

      if (!cg_class_view_open_sample (view, 0, &error))
        g_error ("%s", error->message);
      g_signal_connect (cg_archived_page_get_web_view (page), "load-changed", G_CALLBACK (load_changed_cb), &finished);
      while (!finished)
        g_main_context_iteration (NULL, TRUE);
      cg_screenshot_settle (1500);
      cg_screenshot_save (GTK_WIDGET (window), argv[4]);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
