/* test-window.c: the workbench window, driven in process.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "cg-new-crawl-dialog.h"
#include "cg-project.h"
#include "cg-project-page.h"
#include "cg-recent-projects.h"
#include "cg-test-widgets.h"
#include "cg-window.h"

static char *tmp_home;

static GtkWidget *
find_main_stack (GtkWidget *root)
{
  if (GTK_IS_STACK (root) && gtk_stack_get_child_by_name (GTK_STACK (root), "start") != NULL)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_main_stack (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
visible_page (CgWindow *window)
{
  GtkWidget *stack = find_main_stack (GTK_WIDGET (window));

  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child (GTK_STACK (stack));
}

static void
test_start_page (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  const char *labels[] = { "_New Crawl…", "_Open Project…", "_Try the Demo" };
  GtkWidget *page;

  gtk_window_present (GTK_WINDOW (window));
  cg_test_iterate ();
  page = visible_page (window);
  g_assert_true (ADW_IS_STATUS_PAGE (page));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      GtkWidget *button = cg_test_find_widget (page, GTK_TYPE_BUTTON, labels[i]);

      g_assert_nonnull (button);
      g_assert_true (gtk_widget_get_visible (button));
      g_assert_true (gtk_widget_is_sensitive (button));
    }
  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

static void
test_validate_url (void)
{
  struct { const char *text; const char *host; const char *problem; } cases[] = {
    { "http://Example.org/start", "example.org", NULL },
    { "  https://127.0.0.1:8642/  ", "127.0.0.1", NULL },
    { "", NULL, "Enter the address" },
    { "ftp://example.org/", NULL, "not “ftp”" },
    { "example.org", NULL, "not a web address" },
    { "http:///path", NULL, "no host" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *host = NULL;
      g_autofree char *problem = cg_new_crawl_dialog_validate_url (cases[i].text, &host);

      if (cases[i].problem == NULL)
        {
          g_assert_null (problem);
          g_assert_cmpstr (host, ==, cases[i].host);
        }
      else
        {
          g_assert_nonnull (problem);
          if (strstr (problem, cases[i].problem) == NULL)
            g_error ("“%s” gave “%s”", cases[i].text, problem);
        }
    }
}

static void
test_recent_projects (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  g_autoptr(GError) error = NULL;
  g_autofree char *gone = g_build_filename (tmp_home, "gone", NULL);
  g_auto(GStrv) list = NULL;
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);

  g_settings_reset (settings, "recent-projects");
  for (guint i = 0; i < CG_RECENT_PROJECTS_MAX + 2; i++)
    {
      char *folder = g_strdup_printf ("%s/recent-%u", tmp_home, i);
      g_autoptr(CgProject) project = cg_project_create (folder, NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (folders, folder);
      cg_recent_projects_add (settings, folder);
    }
  /* Opening an old one again moves it to the top without a duplicate. */
  cg_recent_projects_add (settings, g_ptr_array_index (folders, 5));
  cg_recent_projects_add (settings, gone);

  list = cg_recent_projects_list (settings);
  g_assert_cmpuint (g_strv_length (list), ==, CG_RECENT_PROJECTS_MAX - 1);
  g_assert_cmpstr (list[0], ==, g_ptr_array_index (folders, 5));
  g_assert_cmpstr (list[1], ==, g_ptr_array_index (folders, CG_RECENT_PROJECTS_MAX + 1));
  for (guint i = 0; list[i] != NULL; i++)
    g_assert_cmpstr (list[i], !=, gone);
}

static gboolean
demo_is_open (gpointer user_data)
{
  CgWindow *window = user_data;
  CgProjectPage *page = CG_PROJECT_PAGE (cg_window_get_project_page (window));

  return CG_IS_PROJECT_PAGE (visible_page (window)) && cg_project_page_get_pipeline (page) != NULL;
}

static void
test_try_demo (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  GtkWidget *page;
  GtkWidget *site_row;
  const char *url;

  gtk_window_present (GTK_WINDOW (window));
  cg_window_try_demo (window);
  /* The demo server starts in a thread; the project opens when it listens. */
  cg_test_wait_for (demo_is_open, window, "the demo project");

  page = visible_page (window);
  g_assert_true (CG_IS_PROJECT_PAGE (page));
  g_assert_nonnull (cg_project_page_get_project (CG_PROJECT_PAGE (page)));
  site_row = cg_test_find_widget (page, ADW_TYPE_ACTION_ROW, "Demo Site");
  g_assert_nonnull (site_row);
  url = adw_action_row_get_subtitle (ADW_ACTION_ROW (site_row));
  g_assert_true (g_str_has_prefix (url, "http://127.0.0.1:"));

  /* The demo site answers at the address the window shows. Its server runs
   * on this thread's main context, so the request must not block it. */
  message = soup_message_new ("GET", url);
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, cg_test_store_result, &result);
  cg_test_wait_for_result (&result, "the demo site to answer");
  body = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  g_assert_cmpuint (g_bytes_get_size (body), >, 0);

  /* Trying the demo starts exploring it at once. */
  g_assert_cmpint (cg_pipeline_get_stage (cg_project_page_get_pipeline (CG_PROJECT_PAGE (page))), ==,
                   CG_PIPELINE_EXPLORING);
  g_assert_cmpuint (cg_project_count_crawls (cg_project_page_get_project (CG_PROJECT_PAGE (page))), ==, 1);

  /* A second try reuses the demo project and leaves its exploration be. */
  cg_window_try_demo (window);
  cg_test_iterate ();
  g_assert_cmpuint (cg_project_count_crawls (cg_project_page_get_project (CG_PROJECT_PAGE (page))), ==, 1);
  g_assert_cmpint (cg_pipeline_get_stage (cg_project_page_get_pipeline (CG_PROJECT_PAGE (page))), ==,
                   CG_PIPELINE_EXPLORING);

  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

static void
project_created_cb (CgNewCrawlDialog *dialog,
                    CgProject        *project,
                    CgProject       **out)
{
  *out = g_object_ref (project);
}

static void
test_new_crawl_dialog (void)
{
  CgNewCrawlDialog *dialog = cg_new_crawl_dialog_new (NULL);
  g_autoptr(CgProject) created = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GtkWidget *url_row;
  GtkWidget *create;
  g_autofree char *expected_folder = g_build_filename (tmp_home, "Cartograph", "archive.example.org", NULL);

  g_object_ref_sink (dialog);
  g_signal_connect (dialog, "project-created", G_CALLBACK (project_created_cb), &created);
  gtk_window_present (GTK_WINDOW (dialog));
  cg_test_iterate ();

  url_row = cg_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, "Site Address");
  create = cg_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "C_reate");
  g_assert_nonnull (url_row);
  g_assert_nonnull (create);
  g_assert_false (gtk_widget_is_sensitive (create));

  gtk_editable_set_text (GTK_EDITABLE (url_row), "mailto:someone@example.org");
  g_assert_false (gtk_widget_is_sensitive (create));
  g_assert_true (gtk_widget_has_css_class (url_row, "error"));

  gtk_editable_set_text (GTK_EDITABLE (url_row), "https://archive.example.org/collections/");
  g_assert_true (gtk_widget_is_sensitive (create));
  g_assert_false (gtk_widget_has_css_class (url_row, "error"));

  g_signal_emit_by_name (create, "clicked");
  cg_test_iterate ();

  g_assert_nonnull (created);
  g_assert_cmpstr (cg_project_get_folder (created), ==, expected_folder);
  g_assert_cmpstr (cg_project_get_name (created), ==, "archive.example.org");
  stmt = cg_store_prepare (cg_project_get_store (created), "SELECT kind, seed_url, config FROM crawls", NULL);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "explore");
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 1), ==, "https://archive.example.org/collections/");
  g_assert_nonnull (strstr ((const char *) sqlite3_column_text (stmt, 2), "\"sample_size\":200"));
  g_assert_nonnull (strstr ((const char *) sqlite3_column_text (stmt, 2), "\"robots\":\"obey\""));
  g_object_unref (dialog);
}

static void
test_preferences (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkWidget *preferences = NULL;
  GtkWidget *style_row;
  GList *toplevels;

  gtk_window_present (GTK_WINDOW (window));
  cg_test_iterate ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL));
  cg_test_iterate ();
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_PREFERENCES_WINDOW (l->data))
      preferences = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (preferences);

  /* The style row follows the setting, and the window follows both. */
  style_row = cg_test_find_widget (preferences, ADW_TYPE_COMBO_ROW, "_Style");
  g_assert_nonnull (style_row);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (style_row)), ==, 0);
  adw_combo_row_set_selected (ADW_COMBO_ROW (style_row), 2);
  g_assert_cmpstr (g_settings_get_string (settings, "color-scheme"), ==, "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (style_row)), ==, 1);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_settings_reset (settings, "color-scheme");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_DEFAULT);

  /* Crawl defaults are bound too: what is set here is what New Crawl offers. */
  g_settings_set_uint (settings, "sample-size", 350);
  {
    GtkWidget *sample_row = cg_test_find_widget (preferences, ADW_TYPE_ACTION_ROW, "Sample _Size");
    GtkWidget *spin = sample_row != NULL ? cg_test_find_widget (sample_row, GTK_TYPE_SPIN_BUTTON, NULL) : NULL;

    g_assert_nonnull (spin);
    g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 350);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 120);
    g_assert_cmpuint (g_settings_get_uint (settings, "sample-size"), ==, 120);
  }
  g_settings_reset (settings, "sample-size");

  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

int
main (int argc, char **argv)
{
  tmp_home = cg_test_init_app (&argc, &argv, FALSE);

  g_test_add_func ("/window/start-page", test_start_page);
  g_test_add_func ("/window/validate-url", test_validate_url);
  g_test_add_func ("/window/recent-projects", test_recent_projects);
  g_test_add_func ("/window/try-demo", test_try_demo);
  g_test_add_func ("/window/new-crawl-dialog", test_new_crawl_dialog);
  g_test_add_func ("/window/preferences", test_preferences);

  return g_test_run ();
}
