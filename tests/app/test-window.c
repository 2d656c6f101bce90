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
#include "core/cg-test-damage.h"

static char *tmp_home;

/* The contact row's title, in New Crawl and Preferences. */
#define CONTACT_ROW_TITLE "Contact for Site Owners (mailto: or https://)"

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
    /* The project is named after the host as it was written, not its
     * punycode. */
    { "https://bücher.example/", "bücher.example", NULL },
    { "", NULL, "Enter the address" },
    { "ftp://example.org/", NULL, "scheme “ftp”" },
    { "mailto:someone@example.org", NULL, "scheme “mailto”" },
    { "example.org", NULL, "must start with https:// or http://" },
    { "http:///path", NULL, "no host" },
    /* What the core refuses as a seed, though GLib parses it. */
    { "http://a..b/", NULL, "invalid host name “a..b”" },
    { "http://ex ample.com/", NULL, "invalid host name “ex ample.com”" },
    { "http://example.com:0/", NULL, "port 0" },
    { "http://exa%20mple.com/", NULL, "invalid host name “exa mple.com”" },
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
          g_assert_null (host);
          if (strstr (problem, cases[i].problem) == NULL)
            g_error ("“%s” gave “%s”", cases[i].text, problem);
        }
    }
}

static void
test_validate_contact (void)
{
  struct { const char *text; const char *problem; } cases[] = {
    { "", NULL },
    { "mailto:me@example.org", NULL },
    { "https://example.org/contact", NULL },
    { "  mailto:me@example.org  ", NULL },
    /* An e-mail address alone is refused by every crawl; the message says
     * how to write it. */
    { "me@example.org", "write it as mailto:me@example.org" },
    { "javascript:alert(1)", "not an http, https or mailto URL" },
    { "example.org/contact", "not an http, https or mailto URL" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *problem = cg_new_crawl_dialog_validate_contact (cases[i].text);

      if (cases[i].problem == NULL)
        {
          if (problem != NULL)
            g_error ("“%s” was refused: %s", cases[i].text, problem);
        }
      else if (problem == NULL || strstr (problem, cases[i].problem) == NULL)
        g_error ("“%s” gave “%s”", cases[i].text, problem != NULL ? problem : "no problem");
    }
}

typedef struct {
  CgWindow   *window;
  const char *folder;
} ShownProject;

static gboolean
shows_project (gpointer user_data)
{
  ShownProject *wanted = user_data;
  GtkWidget *page = visible_page (wanted->window);

  return CG_IS_PROJECT_PAGE (page) && cg_project_page_get_project (CG_PROJECT_PAGE (page)) != NULL &&
         g_str_equal (cg_project_get_folder (cg_project_page_get_project (CG_PROJECT_PAGE (page))), wanted->folder);
}

static void
test_recent_projects (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  g_autoptr(GError) error = NULL;
  g_autofree char *gone = g_build_filename (tmp_home, "gone", NULL);
  g_auto(GStrv) list = NULL;
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);
  ShownProject opened = { 0 };

  g_settings_reset (settings, "recent-projects");
  g_settings_reset (settings, "recent-project-names");
  for (guint i = 0; i < CG_RECENT_PROJECTS_MAX + 2; i++)
    {
      char *folder = g_strdup_printf ("%s/recent-%u", tmp_home, i);
      g_autofree char *name = g_strdup_printf ("Recent Site %u", i);
      g_autoptr(CgProject) project = cg_project_create (folder, name, &error);

      g_assert_no_error (error);
      g_ptr_array_add (folders, folder);
      cg_recent_projects_add (settings, folder, cg_project_get_name (project));
    }
  /* Opening an old one again moves it to the top without a duplicate. */
  cg_recent_projects_add (settings, g_ptr_array_index (folders, 5), "Recent Site 5");
  cg_recent_projects_add (settings, gone, "Gone");

  list = cg_recent_projects_list (settings);
  g_assert_cmpuint (g_strv_length (list), ==, CG_RECENT_PROJECTS_MAX - 1);
  g_assert_cmpstr (list[0], ==, g_ptr_array_index (folders, 5));
  g_assert_cmpstr (list[1], ==, g_ptr_array_index (folders, CG_RECENT_PROJECTS_MAX + 1));
  for (guint i = 0; list[i] != NULL; i++)
    g_assert_cmpstr (list[i], !=, gone);

  /* Each keeps its name; the names of folders that fell off the list
   * are not kept. */
  {
    g_autofree char *name = cg_recent_projects_get_name (settings, g_ptr_array_index (folders, 5));
    g_autofree char *dropped = cg_recent_projects_get_name (settings, g_ptr_array_index (folders, 0));
    g_autoptr(GVariant) names = g_settings_get_value (settings, "recent-project-names");

    g_assert_cmpstr (name, ==, "Recent Site 5");
    g_assert_null (dropped);
    g_assert_cmpuint (g_variant_n_children (names), <=, CG_RECENT_PROJECTS_MAX);
  }
  cg_recent_projects_remove (settings, g_ptr_array_index (folders, 5));
  {
    g_autofree char *removed = cg_recent_projects_get_name (settings, g_ptr_array_index (folders, 5));

    g_assert_null (removed);
  }

  /* The start page names the projects by their names, with their folders
   * beneath. */
  {
    CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
    GtkWidget *row;

    gtk_window_present (GTK_WINDOW (window));
    cg_test_iterate ();
    row = cg_test_find_row (GTK_WIDGET (window), "Recent Site 7");
    g_assert_nonnull (row);
    g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, g_ptr_array_index (folders, 7));

    /* Activated (Return, or a click), the row opens its project. */
    opened.folder = g_ptr_array_index (folders, 7);
    opened.window = window;
    g_assert_true (gtk_widget_activate (row));
    cg_test_wait_for (shows_project, &opened, "the recent project to open");
    gtk_window_destroy (GTK_WINDOW (window));
    cg_test_iterate ();
  }
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

/* The visible explanation beside a row: its group's description, NULL
 * when there is none. */
static const char *
row_problem (GtkWidget *row)
{
  GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);
  const char *description;

  g_assert_nonnull (group);
  description = adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (group));
  return description != NULL && *description != '\0' ? description : NULL;
}

/* The note a row's group shows under its rows (a label, not a row), or
 * NULL when it is hidden. */
static const char *
note_under_rows (GtkWidget *row)
{
  GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);
  GtkWidget *rows = NULL;

  g_assert_nonnull (group);
  /* The group's own list, which may hold the list of an expander row. */
  for (GtkWidget *list = gtk_widget_get_ancestor (row, GTK_TYPE_LIST_BOX);
       list != NULL && gtk_widget_is_ancestor (list, group);
       list = gtk_widget_get_ancestor (gtk_widget_get_parent (list), GTK_TYPE_LIST_BOX))
    rows = list;
  g_assert_nonnull (rows);
  for (GtkWidget *child = gtk_widget_get_next_sibling (rows); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      return gtk_widget_get_visible (child) ? gtk_label_get_label (GTK_LABEL (child)) : NULL;
  g_assert_not_reached ();
}

static gboolean
folder_is_empty (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);

  g_assert_nonnull (dir);
  return g_dir_read_name (dir) == NULL;
}

typedef struct {
  CgNewCrawlDialog *dialog;
  CgProject        *created;
  GtkWidget        *url_row;
  GtkWidget        *contact_row;
  GtkWidget        *create;
} DialogFixture;

static void
dialog_fixture_open (DialogFixture *f)
{
  f->dialog = cg_new_crawl_dialog_new (NULL);
  f->created = NULL;
  g_object_ref_sink (f->dialog);
  g_signal_connect (f->dialog, "project-created", G_CALLBACK (project_created_cb), &f->created);
  gtk_window_present (GTK_WINDOW (f->dialog));
  cg_test_iterate ();

  f->url_row = cg_test_find_widget (GTK_WIDGET (f->dialog), ADW_TYPE_ENTRY_ROW, "Site Address");
  f->contact_row = cg_test_find_widget (GTK_WIDGET (f->dialog), ADW_TYPE_ENTRY_ROW, CONTACT_ROW_TITLE);
  f->create = cg_test_find_widget (GTK_WIDGET (f->dialog), GTK_TYPE_BUTTON, "C_reate");
  g_assert_nonnull (f->url_row);
  g_assert_nonnull (f->contact_row);
  g_assert_nonnull (f->create);
}

static void
dialog_fixture_close (DialogFixture *f)
{
  AdwMessageDialog *message = cg_test_find_message_dialog (GTK_WINDOW (f->dialog));

  if (message != NULL)
    gtk_window_destroy (GTK_WINDOW (message));
  gtk_window_destroy (GTK_WINDOW (f->dialog));
  cg_test_iterate ();
  g_clear_object (&f->dialog);
  g_clear_object (&f->created);
}

static void
test_new_crawl_dialog (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  DialogFixture f;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *expected_folder = g_build_filename (tmp_home, "Cartograph", "archive.example.org", NULL);
  const char *refused_urls[] = {
    "mailto:someone@example.org",
    "http://a..b/",
    "http://ex ample.com/",
    "http://example.com:0/",
    "http://exa%20mple.com/",
  };
  const char *config;

  g_settings_reset (settings, "user-agent-contact");
  dialog_fixture_open (&f);
  g_assert_false (gtk_widget_is_sensitive (f.create));
  /* Typing goes to the address at once. */
  g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (f.dialog)));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (f.dialog)), f.url_row));
  /* An empty address is not a mistake yet. */
  g_assert_false (gtk_widget_has_css_class (f.url_row, "error"));
  g_assert_null (row_problem (f.url_row));

  /* Every address the core would refuse as a seed is refused as it is
   * typed, with the core's reason in view. */
  for (guint i = 0; i < G_N_ELEMENTS (refused_urls); i++)
    {
      g_autofree char *expected = cg_new_crawl_dialog_validate_url (refused_urls[i], NULL);
      GtkWidget *label;

      gtk_editable_set_text (GTK_EDITABLE (f.url_row), refused_urls[i]);
      g_assert_false (gtk_widget_is_sensitive (f.create));
      g_assert_true (gtk_widget_has_css_class (f.url_row, "error"));
      g_assert_nonnull (expected);
      g_assert_cmpstr (row_problem (f.url_row), ==, expected);
      label = cg_test_find_widget (GTK_WIDGET (f.dialog), GTK_TYPE_LABEL, expected);
      g_assert_nonnull (label);
      g_assert_true (gtk_widget_get_visible (label));
    }

  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "https://archive.example.org/collections/");
  g_assert_true (gtk_widget_is_sensitive (f.create));
  g_assert_false (gtk_widget_has_css_class (f.url_row, "error"));
  g_assert_null (row_problem (f.url_row));

  /* A contact the core refuses keeps Create insensitive, with a good
   * address too, until it is written as a URL. */
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "me@example.org");
  g_assert_false (gtk_widget_is_sensitive (f.create));
  g_assert_true (gtk_widget_has_css_class (f.contact_row, "error"));
  g_assert_nonnull (strstr (note_under_rows (f.contact_row), "write it as mailto:me@example.org"));
  g_assert_false (gtk_widget_has_css_class (f.url_row, "error"));
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "mailto:me@example.org");
  g_assert_true (gtk_widget_is_sensitive (f.create));
  g_assert_false (gtk_widget_has_css_class (f.contact_row, "error"));
  g_assert_null (note_under_rows (f.contact_row));

  g_signal_emit_by_name (f.create, "clicked");
  cg_test_iterate ();

  g_assert_null (cg_test_find_message_dialog (GTK_WINDOW (f.dialog)));
  g_assert_nonnull (f.created);
  g_assert_cmpstr (cg_project_get_folder (f.created), ==, expected_folder);
  g_assert_cmpstr (cg_project_get_name (f.created), ==, "archive.example.org");
  stmt = cg_store_prepare (cg_project_get_store (f.created), "SELECT kind, seed_url, config FROM crawls", NULL);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "explore");
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 1), ==, "https://archive.example.org/collections/");
  config = (const char *) sqlite3_column_text (stmt, 2);
  g_assert_nonnull (strstr (config, "\"sample_size\":200"));
  g_assert_nonnull (strstr (config, "\"robots\":\"obey\""));
  g_assert_nonnull (strstr (config, "\"contact\":\"mailto:me@example.org\""));
  g_clear_pointer (&stmt, sqlite3_finalize);
  /* The contact given becomes the next default. */
  {
    g_autofree char *contact = g_settings_get_string (settings, "user-agent-contact");

    g_assert_cmpstr (contact, ==, "mailto:me@example.org");
  }
  g_settings_reset (settings, "user-agent-contact");
  dialog_fixture_close (&f);
}

/* Create is insensitive while a value is refused, but if it runs anyway
 * (it is also the default widget), nothing is made: no folder, no project,
 * and the problem is shown whole. */
static void
test_new_crawl_dialog_refused_create (void)
{
  DialogFixture f;
  g_autofree char *folder = g_build_filename (tmp_home, "Cartograph", "refused.example.org", NULL);
  const char *refused_urls[] = {
    "http://a..b/",
    "http://ex ample.com/",
    "http://example.com:0/",
    "http://exa%20mple.com/",
  };
  AdwMessageDialog *message;

  dialog_fixture_open (&f);
  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "https://refused.example.org/");
  g_assert_true (gtk_widget_is_sensitive (f.create));

  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "me@example.org");
  g_assert_false (gtk_widget_is_sensitive (f.create));
  g_signal_emit_by_name (f.create, "clicked");
  cg_test_iterate ();
  g_assert_null (f.created);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  message = cg_test_find_message_dialog (GTK_WINDOW (f.dialog));
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (message), "“me@example.org”"));
  gtk_window_destroy (GTK_WINDOW (message));

  /* The folder proposed for the last good address is kept while the
   * address is being fixed; it is not made for a refused one. */
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "");
  for (guint i = 0; i < G_N_ELEMENTS (refused_urls); i++)
    {
      g_autofree char *expected = cg_new_crawl_dialog_validate_url (refused_urls[i], NULL);

      gtk_editable_set_text (GTK_EDITABLE (f.url_row), refused_urls[i]);
      g_assert_false (gtk_widget_is_sensitive (f.create));
      g_signal_emit_by_name (f.create, "clicked");
      cg_test_iterate ();
      g_assert_null (f.created);
      g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
      message = cg_test_find_message_dialog (GTK_WINDOW (f.dialog));
      g_assert_nonnull (message);
      g_assert_cmpstr (adw_message_dialog_get_body (message), ==, expected);
      gtk_window_destroy (GTK_WINDOW (message));
    }

  dialog_fixture_close (&f);
}

/* A contact stored before it was checked (by an older version) is shown
 * with its problem when the dialog opens, in the Advanced rows opened for
 * it, and keeps Create insensitive. */
static void
test_new_crawl_dialog_stored_contact (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  DialogFixture f;
  GtkWidget *advanced;

  g_settings_set_string (settings, "user-agent-contact", "me@example.org");
  dialog_fixture_open (&f);
  advanced = cg_test_find_widget (GTK_WIDGET (f.dialog), ADW_TYPE_EXPANDER_ROW, "Advanced");
  g_assert_nonnull (advanced);
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (advanced)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (f.contact_row)), ==, "me@example.org");
  g_assert_true (gtk_widget_has_css_class (f.contact_row, "error"));
  g_assert_nonnull (note_under_rows (f.contact_row));

  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "https://archive.example.org/");
  g_assert_false (gtk_widget_is_sensitive (f.create));
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "https://example.org/contact");
  g_assert_true (gtk_widget_is_sensitive (f.create));

  g_settings_reset (settings, "user-agent-contact");
  dialog_fixture_close (&f);
}

/* When the crawl cannot be recorded after the project was made, what
 * Create made goes again: no half-made project is left, and Create can be
 * tried again. A folder that was there before stays. */
static void
test_new_crawl_dialog_failed_record (void)
{
  DialogFixture f;
  g_autofree char *folder = g_build_filename (tmp_home, "Cartograph", "disk-full.example.org", NULL);
  AdwMessageDialog *message;
  g_autofree char *first_error = NULL;

  cg_test_full_disk_install ();
  dialog_fixture_open (&f);
  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "https://disk-full.example.org/");
  g_assert_true (gtk_widget_is_sensitive (f.create));
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));

  /* The seed is stored with the crawl only: the disk fills up there. */
  cg_test_full_disk_set_marker ("https://disk-full.example.org/");

  /* The folder proposed was made meanwhile, empty, by the user: the
   * project is made in it, then undone, and the folder stays. */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_signal_emit_by_name (f.create, "clicked");
  cg_test_iterate ();
  g_assert_null (f.created);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
  g_assert_true (folder_is_empty (folder));
  message = cg_test_find_message_dialog (GTK_WINDOW (f.dialog));
  g_assert_nonnull (message);
  first_error = g_strdup (adw_message_dialog_get_body (message));
  g_test_message ("Create on a full disk: %s", first_error);
  g_assert_nonnull (strstr (first_error, "full"));
  gtk_window_destroy (GTK_WINDOW (message));
  g_assert_cmpint (g_rmdir (folder), ==, 0);

  /* The folder Create made itself goes with the project. */
  g_signal_emit_by_name (f.create, "clicked");
  cg_test_iterate ();
  g_assert_null (f.created);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  message = cg_test_find_message_dialog (GTK_WINDOW (f.dialog));
  g_assert_nonnull (message);
  /* The whole message, in a dialog: nothing cut off. */
  g_assert_cmpstr (adw_message_dialog_get_body (message), ==, first_error);
  gtk_window_destroy (GTK_WINDOW (message));

  /* With room on the disk again, the same Create works: nothing of the
   * failed one is in its way. */
  cg_test_full_disk_set_marker (NULL);
  g_signal_emit_by_name (f.create, "clicked");
  cg_test_iterate ();
  g_assert_nonnull (f.created);
  g_assert_cmpstr (cg_project_get_folder (f.created), ==, folder);
  g_assert_cmpuint (cg_project_count_crawls (f.created), ==, 1);

  dialog_fixture_close (&f);
  cg_test_full_disk_uninstall ();
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

static GtkWidget *
open_preferences (CgWindow *window)
{
  GtkWidget *preferences = NULL;
  g_autoptr(GList) toplevels = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL));
  cg_test_iterate ();
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_PREFERENCES_WINDOW (l->data))
      preferences = l->data;
  g_assert_nonnull (preferences);
  return preferences;
}

/* Types @text into the contact @row of Preferences: it is @refused (the
 * row has the error style) or not, and the key then holds @expected. */
static void
type_contact (GtkWidget  *row,
              GSettings  *settings,
              const char *text,
              gboolean    refused,
              const char *expected)
{
  g_autofree char *stored = NULL;

  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_assert_cmpint (gtk_widget_has_css_class (row, "error"), ==, refused);
  cg_test_iterate ();
  stored = g_settings_get_string (settings, "user-agent-contact");
  g_assert_cmpstr (stored, ==, expected);
}

/* The contact is stored only when every crawl would accept it. */
static void
test_preferences_contact (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");
  GtkWidget *preferences;
  GtkWidget *contact_row;
  g_autofree char *stored = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_settings_set_string (settings, "user-agent-contact", "https://example.org/earlier");
  preferences = open_preferences (window);
  contact_row = cg_test_find_widget (preferences, ADW_TYPE_ENTRY_ROW, CONTACT_ROW_TITLE);
  g_assert_nonnull (contact_row);
  g_assert_cmpint (adw_entry_row_get_input_purpose (ADW_ENTRY_ROW (contact_row)), ==, GTK_INPUT_PURPOSE_URL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (contact_row)), ==, "https://example.org/earlier");
  g_assert_false (gtk_widget_has_css_class (contact_row, "error"));
  g_assert_nonnull (strstr (note_under_rows (contact_row), "mailto:you@example.org"));

  /* An e-mail address alone is refused as it is typed; the earlier
   * contact stays the default. */
  type_contact (contact_row, settings, "me@example.org", TRUE, "https://example.org/earlier");
  g_assert_nonnull (strstr (note_under_rows (contact_row), "write it as mailto:me@example.org"));

  type_contact (contact_row, settings, "mailto:me@example.org", FALSE, "mailto:me@example.org");
  g_assert_null (strstr (note_under_rows (contact_row), "write it as"));
  type_contact (contact_row, settings, "https://example.org/contact", FALSE, "https://example.org/contact");
  /* No contact at all is allowed. */
  type_contact (contact_row, settings, "", FALSE, "");

  /* The row follows the key when it changes elsewhere (New Crawl). */
  g_settings_set_string (settings, "user-agent-contact", "mailto:other@example.org");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (contact_row)), ==, "mailto:other@example.org");

  /* A good contact typed just before the window closes is kept. */
  gtk_editable_set_text (GTK_EDITABLE (contact_row), "mailto:last@example.org");
  gtk_window_destroy (GTK_WINDOW (preferences));
  cg_test_iterate ();
  stored = g_settings_get_string (settings, "user-agent-contact");
  g_assert_cmpstr (stored, ==, "mailto:last@example.org");
  g_clear_pointer (&stored, g_free);

  /* A refused contact stored by an older version is shown with its
   * problem when Preferences opens, and is not rewritten. */
  g_settings_set_string (settings, "user-agent-contact", "me@example.org");
  preferences = open_preferences (window);
  contact_row = cg_test_find_widget (preferences, ADW_TYPE_ENTRY_ROW, CONTACT_ROW_TITLE);
  g_assert_nonnull (contact_row);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (contact_row)), ==, "me@example.org");
  g_assert_true (gtk_widget_has_css_class (contact_row, "error"));
  g_assert_nonnull (strstr (note_under_rows (contact_row), "“me@example.org”"));
  cg_test_iterate ();
  stored = g_settings_get_string (settings, "user-agent-contact");
  g_assert_cmpstr (stored, ==, "me@example.org");

  g_settings_reset (settings, "user-agent-contact");
  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

/* Checks, with GTK's test accessibility backend, that @row and the text
 * in it (what a screen reader is on while the user types) are described
 * by @description and marked invalid, or neither when @description is
 * NULL. */
static void
assert_accessible_problem (GtkWidget  *row,
                           const char *description)
{
  GtkAccessible *accessibles[] = {
    GTK_ACCESSIBLE (row),
    GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (row))),
  };

  for (guint i = 0; i < G_N_ELEMENTS (accessibles); i++)
    {
      g_assert_nonnull (accessibles[i]);
      if (description != NULL)
        {
          gtk_test_accessible_assert_property (accessibles[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description);
          gtk_test_accessible_assert_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE);
        }
      else
        g_assert_false (gtk_test_accessible_has_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID));
    }
}

/* Screen readers are told of a refused value, as GTK's test backend
 * (which cg_test_init_app() sets for every app test) shows it. */
/* Every entry of the shortcuts window shows its keys: an accelerator
 * GTK can read, or an action the application gives accelerators. Keys
 * bound in a widget class (gtk_widget_class_add_binding_action()) are no
 * accelerators of an action, and would show none. */
static void
test_shortcuts_window (void)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/cartograph/Cartograph/gtk/help-overlay.ui");
  GSList *objects = gtk_builder_get_objects (builder);
  guint shortcuts = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *title = NULL;
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      shortcuts++;
      g_object_get (l->data, "title", &title, "accelerator", &accelerator, "action-name", &action, NULL);
      if (action != NULL)
        {
          g_assert_true (g_str_equal (action, "app.quit") || g_str_equal (action, "win.show-help-overlay"));
          continue;
        }
      if (accelerator == NULL || *accelerator == '\0')
        g_error ("The shortcut “%s” shows no keys", title);
      {
        g_auto(GStrv) keys = g_strsplit (accelerator, " ", -1);

        for (guint i = 0; keys[i] != NULL; i++)
          if (!gtk_accelerator_parse (keys[i], NULL, NULL))
            g_error ("The shortcut “%s” has keys GTK cannot read: %s", title, keys[i]);
      }
    }
  g_slist_free (objects);
  g_assert_cmpuint (shortcuts, >=, 18);
}

static void
test_problems_are_accessible (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  DialogFixture f;
  GtkWidget *preferences;
  GtkWidget *contact_row;
  g_autofree char *url_problem = cg_new_crawl_dialog_validate_url ("http://a..b/", NULL);
  g_autofree char *contact_problem = cg_new_crawl_dialog_validate_contact ("me@example.org");

  dialog_fixture_open (&f);
  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "http://a..b/");
  assert_accessible_problem (f.url_row, url_problem);
  gtk_editable_set_text (GTK_EDITABLE (f.url_row), "https://example.org/");
  assert_accessible_problem (f.url_row, NULL);
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "me@example.org");
  assert_accessible_problem (f.contact_row, contact_problem);
  gtk_editable_set_text (GTK_EDITABLE (f.contact_row), "mailto:me@example.org");
  assert_accessible_problem (f.contact_row, NULL);
  dialog_fixture_close (&f);

  gtk_window_present (GTK_WINDOW (window));
  preferences = open_preferences (window);
  contact_row = cg_test_find_widget (preferences, ADW_TYPE_ENTRY_ROW, CONTACT_ROW_TITLE);
  gtk_editable_set_text (GTK_EDITABLE (contact_row), "me@example.org");
  assert_accessible_problem (contact_row, contact_problem);
  gtk_editable_set_text (GTK_EDITABLE (contact_row), "mailto:me@example.org");
  assert_accessible_problem (contact_row, NULL);
  /* The accepted forms are read out when there is no problem. */
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (contact_row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       note_under_rows (contact_row));
  gtk_window_destroy (GTK_WINDOW (preferences));
  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

static gboolean
open_error_shown (gpointer user_data)
{
  return cg_test_find_dialog_headed (GTK_WINDOW (user_data), "Cannot Open the Project") != NULL;
}

static gboolean
open_error_gone (gpointer user_data)
{
  return !open_error_shown (user_data);
}

/* Lets the main loop run for @ms milliseconds. */
static void
run_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
}

/* A project opens in a worker thread (opening checks its whole database):
 * the window says so and can go back before it is done; a folder that is
 * no project is refused in a dialog that keeps the whole message. */
static void
test_open_project (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  g_autofree char *folder = g_build_filename (tmp_home, "opened", NULL);
  g_autofree char *not_project = g_build_filename (tmp_home, "not-a-project", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  g_autoptr(GFile) not_project_file = g_file_new_for_path (not_project);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) created = cg_project_create (folder, NULL, &error);
  ShownProject wanted = { window, folder };
  CgProjectPage *project_page = CG_PROJECT_PAGE (cg_window_get_project_page (window));
  AdwMessageDialog *dialog;
  GtkWidget *page;

  g_assert_no_error (error);
  g_clear_object (&created);
  gtk_window_present (GTK_WINDOW (window));
  cg_test_iterate ();

  cg_window_open_project (window, file);
  page = visible_page (window);
  g_assert_true (ADW_IS_STATUS_PAGE (page));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==, "Opening the Project…");
  g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), ==, folder);
  g_assert_nonnull (cg_test_find_widget (page, GTK_TYPE_BUTTON, "_Cancel"));

  /* Cancelled, the window is back on the start page, and stays there
   * once the worker is done. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-open", NULL));
  page = visible_page (window);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==, "Map and Archive a Website");
  run_for (500);
  g_assert_true (visible_page (window) == page);
  g_assert_null (cg_project_page_get_project (project_page));

  cg_window_open_project (window, file);
  cg_test_wait_for (shows_project, &wanted, "the project to open");

  /* Alt+Left with nothing to go back to in the project: the start page,
   * which is as narrow as its own content wants, not as the project's
   * toolbar (a GtkStack sized to all its pages). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL));
  page = visible_page (window);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==, "Map and Archive a Website");
  {
    int minimum;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
    g_assert_cmpint (minimum, <=, 400);
  }
  cg_window_open_project (window, file);
  cg_test_wait_for (shows_project, &wanted, "the project to open again");

  /* Not a project: the dialog names the folder and the reason, and the
   * project shown before is still shown. */
  g_assert_cmpint (g_mkdir_with_parents (not_project, 0755), ==, 0);
  cg_window_open_project (window, not_project_file);
  cg_test_wait_for (open_error_shown, window, "the error dialog");
  dialog = cg_test_find_dialog_headed (GTK_WINDOW (window), "Cannot Open the Project");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), not_project));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "is not a Cartograph project"));
  g_assert_true (shows_project (&wanted));
  cg_test_click_response (dialog, "_Close");
  cg_test_wait_for (open_error_gone, window, "the error dialog to close");

  gtk_window_destroy (GTK_WINDOW (window));
  cg_test_iterate ();
}

static gboolean
window_is_gone (gpointer user_data)
{
  return *(CgWindow **) user_data == NULL;
}

/* Leaving a project where a crawl runs (opening another, closing the
 * window) asks first, and does nothing when the user keeps the crawl. */
static void
test_leave_busy_project (void)
{
  CgWindow *window = g_object_new (CG_TYPE_WINDOW, NULL);
  g_autofree char *other = g_build_filename (tmp_home, "other", NULL);
  g_autoptr(GFile) other_file = g_file_new_for_path (other);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) created = cg_project_create (other, NULL, &error);
  ShownProject wanted = { window, other };
  g_autofree char *demo_folder = NULL;
  ShownProject demo_shown = { window, NULL };
  CgProjectPage *page = CG_PROJECT_PAGE (cg_window_get_project_page (window));
  AdwMessageDialog *dialog;
  CgProject *demo;

  g_assert_no_error (error);
  g_clear_object (&created);
  gtk_window_present (GTK_WINDOW (window));
  cg_window_try_demo (window);
  cg_test_wait_for (demo_is_open, window, "the demo project");
  demo = cg_project_page_get_project (page);
  demo_folder = g_strdup (cg_project_get_folder (demo));
  demo_shown.folder = demo_folder;
  g_assert_true (cg_window_is_busy (window));

  /* Keep the crawl: nothing changes. */
  cg_window_open_project (window, other_file);
  dialog = cg_test_find_dialog_headed (GTK_WINDOW (window), "Stop the Running Crawl?");
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), cg_project_get_name (demo)));
  cg_test_click_response (dialog, "_Cancel");
  cg_test_iterate ();
  g_assert_true (cg_project_page_get_project (page) == demo);
  g_assert_true (cg_window_is_busy (window));

  /* Closing the window asks too. */
  gtk_window_close (GTK_WINDOW (window));
  cg_test_iterate ();
  dialog = cg_test_find_dialog_headed (GTK_WINDOW (window), "Stop the Running Crawl?");
  g_assert_nonnull (dialog);
  cg_test_click_response (dialog, "_Cancel");
  cg_test_iterate ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_true (cg_window_is_busy (window));

  /* Agreeing stops the crawl and opens the other project. */
  cg_window_open_project (window, other_file);
  dialog = cg_test_find_dialog_headed (GTK_WINDOW (window), "Stop the Running Crawl?");
  g_assert_nonnull (dialog);
  cg_test_click_response (dialog, "_Stop Crawl");
  cg_test_wait_for (shows_project, &wanted, "the other project to open");
  g_assert_false (cg_window_is_busy (window));

  /* Agreeing to close while a crawl runs closes the window. The demo
   * explores again, unless its first exploration ended before the stop
   * (a loaded machine) and saved a model, which the demo then opens on:
   * that one is explored again from the page. */
  cg_window_try_demo (window);
  cg_test_wait_for (shows_project, &demo_shown, "the demo project to open again");
  if (!cg_window_is_busy (window))
    {
      g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();

      g_strfreev (config->seeds);
      config->seeds = g_new0 (char *, 2);
      config->seeds[0] = cg_window_get_demo_url (window);
      g_assert_nonnull (config->seeds[0]);
      g_assert_true (cg_project_page_explore (page, config, NULL, FALSE, &error));
      g_assert_no_error (error);
    }
  cg_test_wait_for ((CgTestCondition) cg_window_is_busy, window, "the demo to explore again");
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  cg_test_iterate ();
  dialog = cg_test_find_dialog_headed (GTK_WINDOW (window), "Stop the Running Crawl?");
  g_assert_nonnull (dialog);
  cg_test_click_response (dialog, "_Stop Crawl");
  cg_test_wait_for (window_is_gone, &window, "the window to close");
}

int
main (int argc, char **argv)
{
  int status;

  tmp_home = cg_test_init_app (&argc, &argv, FALSE);

  g_test_add_func ("/window/start-page", test_start_page);
  g_test_add_func ("/window/validate-url", test_validate_url);
  g_test_add_func ("/window/validate-contact", test_validate_contact);
  g_test_add_func ("/window/recent-projects", test_recent_projects);
  g_test_add_func ("/window/try-demo", test_try_demo);
  g_test_add_func ("/window/new-crawl-dialog", test_new_crawl_dialog);
  g_test_add_func ("/window/new-crawl-dialog/refused-create", test_new_crawl_dialog_refused_create);
  g_test_add_func ("/window/new-crawl-dialog/stored-contact", test_new_crawl_dialog_stored_contact);
  g_test_add_func ("/window/new-crawl-dialog/failed-record", test_new_crawl_dialog_failed_record);
  g_test_add_func ("/window/preferences", test_preferences);
  g_test_add_func ("/window/preferences/contact", test_preferences_contact);
  g_test_add_func ("/window/problems-are-accessible", test_problems_are_accessible);
  g_test_add_func ("/window/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/window/open-project", test_open_project);
  g_test_add_func ("/window/leave-busy-project", test_leave_busy_project);

  status = g_test_run ();
  cg_test_folder_remove (tmp_home);
  return status;
}
