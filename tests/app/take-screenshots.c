/* take-screenshots.c: PNG screenshots of the workbench's main views.
 *
 * Renders the real widgets, in process, the way GTK draws them on screen,
 * so the pictures in the README and the AppStream metainfo are of the app
 * as it is. Run under a display (Xvfb in CI): tests/app/screenshots.sh.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>

#include "cg-new-crawl-dialog.h"
#include "cg-window.h"

static void
settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static void
save_widget (GtkWidget  *widget,
             const char *path)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    g_error ("Could not write %s", path);
  g_print ("%s\n", path);
}

static GtkWidget *
find_entry_row (GtkWidget *root)
{
  if (ADW_IS_ENTRY_ROW (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_entry_row (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *out_dir = argc > 1 ? argv[1] : ".";
  g_autofree char *start = g_build_filename (out_dir, "start.png", NULL);
  g_autofree char *new_crawl = g_build_filename (out_dir, "new-crawl.png", NULL);
  g_autofree char *project = g_build_filename (out_dir, "project.png", NULL);
  g_autofree char *home = g_dir_make_tmp ("cg-screenshots-XXXXXX", NULL);
  CgWindow *window;
  CgNewCrawlDialog *dialog;

  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  adw_init ();
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/io/github/cartograph/Cartograph/icons");

  window = g_object_new (CG_TYPE_WINDOW, "default-width", 1000, "default-height", 700, NULL);
  gtk_window_present (GTK_WINDOW (window));
  settle (1500);
  save_widget (GTK_WIDGET (window), start);

  dialog = cg_new_crawl_dialog_new (GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_editable_set_text (GTK_EDITABLE (find_entry_row (GTK_WIDGET (dialog))), "https://archive.example.org/collections/");
  settle (1000);
  save_widget (GTK_WIDGET (dialog), new_crawl);
  gtk_window_destroy (GTK_WINDOW (dialog));

  cg_window_try_demo (window);
  settle (1500);
  save_widget (GTK_WIDGET (window), project);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
