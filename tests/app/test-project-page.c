/* test-project-page.c: the project page's views, driven in process on
 * projects made here, and an exploration of a site served in process.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "cg-class-sampler.h"
#include "cg-crawl-lock.h"
#include "cg-project-page.h"
#include "cg-record-store.h"
#include "cg-test-widgets.h"
#include "core/cg-test-damage.h"
#include "core/cg-test-files.h"

static char *tmp_home;

/* GTK 4.8 has no getter for a widget action's state, but the buttons
 * bound to an action are sensitive exactly when it is enabled, which is
 * also what the user sees. */
static gboolean
action_enabled (CgProjectPage *page,
                const char    *action)
{
  GtkWidget *button = cg_test_find_actionable (GTK_WIDGET (page), action);

  g_assert_nonnull (button);
  cg_test_iterate ();
  return gtk_widget_get_sensitive (button);
}

typedef struct {
  GtkWindow     *window;
  CgProjectPage *page;
  CgProject     *project;
  char          *folder;
  /* What the page asked the window to show: "HEADING\nBODY" of each
   * "win.error", the text of each "win.toast". */
  GPtrArray     *errors;
  GPtrArray     *toasts;
} Fixture;

static void
error_activated_cb (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  Fixture *f = user_data;
  const char *heading, *body;

  g_variant_get (parameter, "(&s&s)", &heading, &body);
  g_test_message ("win.error: %s: %s", heading, body);
  g_ptr_array_add (f->errors, g_strdup_printf ("%s\n%s", heading, body));
}

static void
toast_activated_cb (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  Fixture *f = user_data;

  g_ptr_array_add (f->toasts, g_variant_dup_string (parameter, NULL));
}

/* The window's actions the page uses to speak to the user, as the real
 * window installs them (cg-window.c), but recording what they are given. */
static void
install_window_actions (Fixture *f)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) error = g_simple_action_new ("error", G_VARIANT_TYPE ("(ss)"));
  g_autoptr(GSimpleAction) toast = g_simple_action_new ("toast", G_VARIANT_TYPE_STRING);

  g_signal_connect (error, "activate", G_CALLBACK (error_activated_cb), f);
  g_signal_connect (toast, "activate", G_CALLBACK (toast_activated_cb), f);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (error));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (toast));
  gtk_widget_insert_action_group (GTK_WIDGET (f->window), "win", G_ACTION_GROUP (group));
}

static gint64
insert_url (CgStore    *store,
            const char *url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                   "INSERT INTO urls (crawl_id, host_id, url, depth, discovered_at) "
                                                   "VALUES (1, 1, ?1, 0, 0)",
                                                   &error);

  g_assert_no_error (error);
  sqlite3_bind_text (stmt, 1, url, -1, SQLITE_STATIC);
  g_assert_true (cg_store_step_done (store, stmt, &error));
  return sqlite3_last_insert_rowid (cg_store_get_db (store));
}

static void
label_page (CgStore    *store,
            gint64      url_id,
            gint64      model_id,
            const char *class_name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                   "INSERT INTO page_labels (url_id, model_id, class, method) "
                                                   "VALUES (?1, ?2, ?3, 'sample')",
                                                   &error);

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, url_id);
  sqlite3_bind_int64 (stmt, 2, model_id);
  sqlite3_bind_text (stmt, 3, class_name, -1, SQLITE_STATIC);
  g_assert_true (cg_store_step_done (store, stmt, &error));
}

static CgSiteModel *
make_model (gboolean with_author)
{
  CgSiteModel *model = cg_site_model_new ("http://shop.example/");
  CgPageClass *klass;

  klass = cg_site_model_add_class (model, "home", "Home");
  g_free (klass->url_pattern);
  klass->url_pattern = g_strdup ("^/$");
  klass->n_pages = 1;
  g_strfreev (klass->samples);
  klass->samples = g_strsplit ("http://shop.example/", " ", -1);
  klass = cg_site_model_add_class (model, "category", "Category");
  klass->n_pages = 2;
  g_strfreev (klass->samples);
  klass->samples = g_strsplit ("http://shop.example/c/1 http://shop.example/c/2", " ", -1);
  klass = cg_site_model_add_class (model, "book", "Book");
  klass->n_pages = 3;
  g_strfreev (klass->samples);
  klass->samples = g_strsplit ("http://shop.example/b/1", " ", -1);
  cg_site_model_add_link (model, "home", "category", CG_CLASS_LINK_MENU, "/html/body/nav/a");
  cg_site_model_add_link (model, "category", "book", CG_CLASS_LINK_LIST, "//h3/a");
  if (with_author)
    {
      cg_site_model_add_class (model, "author", "Author");
      cg_site_model_add_link (model, "book", "author", CG_CLASS_LINK_SINGLETON, "//p[@class='by']/a");
    }
  cg_site_model_set_entry_class (model, "home");
  cg_site_model_compute_depths (model);
  return model;
}

static GPtrArray *
make_records (guint n)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  const char *columns[] = { "title", "price", NULL };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_strdup_printf ("Book %u", i);
      const char *values[] = { title, "9.99", NULL };

      g_ptr_array_add (records, cg_record_new ("/html/body/main/ul[1]", i, columns, values));
    }
  return records;
}

/* A project with two versions of a model (the second adds a class),
 * labelled pages and records. */
static void
fill_project (CgProject *project)
{
  CgStore *store = cg_project_get_store (project);
  g_autoptr(CgSiteModel) first = make_model (FALSE);
  g_autoptr(CgSiteModel) second = make_model (TRUE);
  g_autoptr(GPtrArray) records = make_records (3);
  g_autoptr(GError) error = NULL;
  gint64 book;

  g_assert_cmpint (cg_project_add_crawl (project, "explore", "http://shop.example/", "{}", &error), ==, 1);
  g_assert_true (cg_store_exec (store, "INSERT INTO hosts (id, crawl_id, host_key) VALUES (1, 1, 'shop.example');", &error));
  g_assert_true (cg_site_model_save (first, store, &error));
  g_assert_true (cg_site_model_save (second, store, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cg_site_model_get_version (second), ==, 2);

  label_page (store, insert_url (store, "http://shop.example/"), cg_site_model_get_id (second), "home");
  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://shop.example/b/%u", i);

      book = insert_url (store, url);
      label_page (store, book, cg_site_model_get_id (second), "book");
    }
  g_assert_true (cg_record_store_replace_page (store, cg_site_model_get_id (second), "category",
                                               insert_url (store, "http://shop.example/c/1"), records, &error));
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  static guint counter;

  f->folder = g_strdup_printf ("%s/project-%u", tmp_home, counter++);
  f->project = cg_project_create (f->folder, "Shop", &error);
  g_assert_no_error (error);
  if (GPOINTER_TO_INT (data))
    fill_project (f->project);

  f->errors = g_ptr_array_new_with_free_func (g_free);
  f->toasts = g_ptr_array_new_with_free_func (g_free);
  f->window = GTK_WINDOW (adw_window_new ());
  install_window_actions (f);
  gtk_window_set_default_size (f->window, 1000, 700);
  f->page = g_object_new (CG_TYPE_PROJECT_PAGE, NULL);
  adw_window_set_content (ADW_WINDOW (f->window), GTK_WIDGET (f->page));
  gtk_window_present (f->window);
  cg_project_page_set_project (f->page, f->project);
  cg_test_iterate ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (f->window);
  cg_test_iterate ();
  g_clear_object (&f->project);
  g_free (f->folder);
  g_ptr_array_unref (f->errors);
  g_ptr_array_unref (f->toasts);
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *no_model = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE, "No Model Yet");
  GtkWidget *no_classes = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE, "No Classes Yet");
  g_autoptr(GError) error = NULL;

  g_assert_null (cg_project_page_get_model (f->page));
  /* Without a model there is nothing to show but the crawls. */
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "crawl");

  cg_project_page_show_view (f->page, "model");
  cg_test_iterate ();
  g_assert_nonnull (no_model);
  g_assert_true (gtk_widget_get_mapped (no_model));
  cg_project_page_show_view (f->page, "classes");
  cg_test_iterate ();
  g_assert_true (gtk_widget_get_mapped (no_classes));
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), ==, 0);

  g_assert_true (action_enabled (f->page, "project.explore"));
  g_assert_false (action_enabled (f->page, "project.harvest"));
  g_assert_false (action_enabled (f->page, "crawl.stop"));
  g_assert_false (action_enabled (f->page, "crawl.pause"));

  /* With no crawl recorded there is nothing to explore from, and the
   * message says what to do instead, with this project's folder. */
  g_assert_false (cg_project_page_explore_stored (f->page, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“Shop”"));
  g_assert_nonnull (strstr (error->message, "cartograph-cli model URL --project"));
  g_assert_nonnull (strstr (error->message, f->folder));
  g_clear_error (&error);
  /* Explore the Site shows all of it in the window's dialog. */
  g_assert_cmpuint (f->errors->len, ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.explore", NULL));
  g_assert_cmpuint (f->errors->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->errors, 0), "Cannot Explore the Site\nThe project “Shop” has no crawl"));
  g_assert_nonnull (strstr (g_ptr_array_index (f->errors, 0), f->folder));
  g_assert_false (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)));
  g_assert_false (cg_project_page_start_harvest (f->page, CG_HARVEST_STRATEGY_CLASSES, NULL, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL);
  g_assert_false (cg_project_page_open_class (f->page, "book"));
}

static void
test_bad_stored_exploration (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 id = cg_project_add_crawl (f->project, "explore", "http://shop.example/", "{\"delay\": \"slow\"}", &error);

  g_assert_no_error (error);
  g_assert_false (cg_project_page_explore_stored (f->page, &error));
  g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);
  /* The message names the crawl and the setting. */
  g_assert_nonnull (strstr (error->message, "Exploration"));
  g_assert_nonnull (strstr (error->message, "“delay”"));
  g_assert_cmpint (id, >, 0);
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, 1);
  g_assert_false (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)));
}

static gboolean
book_has_thumbnail (gpointer user_data)
{
  return cg_class_graph_get_thumbnail (user_data, "book") != NULL;
}

static gboolean
book_row_listed (gpointer user_data)
{
  return cg_test_find_widget (user_data, ADW_TYPE_ACTION_ROW, "Book") != NULL;
}

static void
test_model_view (Fixture       *f,
                 gconstpointer  data)
{
  CgSiteModel *model = cg_project_page_get_model (f->page);
  CgClassGraph *graph = cg_project_page_get_graph (f->page);
  GtkWidget *dropdown = NULL;
  GtkWidget *all_links;
  GListModel *versions;
  GtkWidget *row;

  g_assert_nonnull (model);
  g_assert_cmpint (cg_site_model_get_version (model), ==, 2);
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "model");
  g_assert_true (cg_class_graph_get_model (graph) == model);
  g_assert_null (cg_class_graph_get_diff (graph));
  g_assert_true (action_enabled (f->page, "project.harvest"));
  g_assert_true (action_enabled (f->page, "graph.zoom-in"));

  /* The dropdown offers the other version; choosing it shows the
   * differences, and "No Comparison" hides them again. */
  for (GtkWidget *w = GTK_WIDGET (graph); w != NULL && dropdown == NULL; w = gtk_widget_get_parent (w))
    for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL && dropdown == NULL; c = gtk_widget_get_next_sibling (c))
      for (GtkWidget *d = gtk_widget_get_first_child (c); d != NULL; d = gtk_widget_get_next_sibling (d))
        if (GTK_IS_DROP_DOWN (d))
          dropdown = d;
  g_assert_nonnull (dropdown);
  versions = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  g_assert_cmpuint (g_list_model_get_n_items (versions), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (versions), 1), ==, "Version 1");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 1);
  g_assert_nonnull (cg_class_graph_get_diff (graph));
  g_assert_cmpint (cg_site_model_get_version (cg_class_graph_get_diff (graph)), ==, 1);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 0);
  g_assert_null (cg_class_graph_get_diff (graph));

  /* All Links switches the graph between menus drawn once and every
   * link, both ways. */
  all_links = cg_test_find_widget (GTK_WIDGET (f->page), GTK_TYPE_TOGGLE_BUTTON, "All _Links");
  g_assert_nonnull (all_links);
  g_assert_false (cg_class_graph_get_show_all_links (graph));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (all_links), TRUE);
  g_assert_true (cg_class_graph_get_show_all_links (graph));
  /* The choice is remembered in the settings. */
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.cartograph.Cartograph");

    g_assert_true (g_settings_get_boolean (settings, "graph-show-all-links"));
    cg_class_graph_set_show_all_links (graph, FALSE);
    g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (all_links)));
    g_assert_false (g_settings_get_boolean (settings, "graph-show-all-links"));
  }

  /* The rows of a shown model are made after the frame that shows it,
   * by themselves: nothing here asks for them first. */
  cg_test_wait_for (book_row_listed, f->page, "the classes list's rows");

  /* Classes: one row each, with the pages labelled and the records
   * stored (the sample's count when no page is labelled). */
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), ==, 4);
  row = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "Book");
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "7 pages · 0 records"));
  row = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "Category");
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "2 pages · 3 records"));
  row = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "Home");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "1 page · 0 records\n^/$");

  /* Reloading keeps the rows rather than making them afresh, in the
   * model's order, with the same texts. */
  cg_project_page_reload (f->page);
  cg_test_iterate ();
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), ==, 4);
  g_assert_true (cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "Home") == row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "1 page · 0 records\n^/$");

  /* A sample rendered for a class becomes its thumbnail in the graph,
   * decoded in a thread; classes without one get none. */
  {
    CgSiteModel *shown = cg_project_page_get_model (f->page);
    g_autofree char *book_base = cg_class_sampler_get_sample_base (f->project, shown, "book", 0);
    g_autofree char *book_png = g_strconcat (book_base, ".png", NULL);
    g_autofree char *folder = g_path_get_dirname (book_png);
    guchar pixels[4 * 4 * 4];
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GdkTexture) texture = NULL;

    memset (pixels, 0x80, sizeof pixels);
    bytes = g_bytes_new (pixels, sizeof pixels);
    texture = gdk_memory_texture_new (4, 4, GDK_MEMORY_R8G8B8A8, bytes, 16);
    g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
    g_assert_true (gdk_texture_save_to_png (texture, book_png));
    g_assert_null (cg_class_graph_get_thumbnail (graph, "book"));

    cg_project_page_reload (f->page);
    cg_test_wait_for (book_has_thumbnail, graph, "the thumbnail");
    g_assert_cmpint (gdk_texture_get_width (cg_class_graph_get_thumbnail (graph, "book")), ==, 4);
    g_assert_null (cg_class_graph_get_thumbnail (graph, "home"));
  }
}

static void
test_open_class (Fixture       *f,
                 gconstpointer  data)
{
  CgClassView *view = cg_project_page_get_class_view (f->page);
  GtkWidget *row;
  GtkWidget *list;
  GtkWidget *archived;

  /* From the graph: activating a node opens its class. */
  g_signal_emit_by_name (cg_project_page_get_graph (f->page), "class-activated", "category");
  cg_test_iterate ();
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "classes");
  g_assert_cmpstr (cg_project_page_get_open_class (f->page), ==, "category");
  g_assert_cmpstr (cg_class_view_get_class_name (view), ==, "category");
  g_assert_true (cg_class_view_get_model (view) == cg_project_page_get_model (f->page));
  g_assert_true (action_enabled (f->page, "classes.back"));

  /* Back to the list. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "classes.back", NULL));
  cg_test_iterate ();
  g_assert_null (cg_project_page_get_open_class (f->page));
  g_assert_false (action_enabled (f->page, "classes.back"));

  /* Alt+Left (the window's, wherever the focus is) takes a step back to
   * where the class was opened: the graph, with the focus on it. */
  g_signal_emit_by_name (cg_project_page_get_graph (f->page), "class-activated", "category");
  cg_test_iterate ();
  g_assert_true (cg_project_page_go_back (f->page));
  cg_test_iterate ();
  g_assert_null (cg_project_page_get_open_class (f->page));
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "model");
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (cg_project_page_get_graph (f->page))));
  g_assert_false (cg_project_page_go_back (f->page));

  /* From the list: activating a row opens its class, and Alt+Left goes
   * back to the list, then says when the page has no step left. */
  cg_project_page_show_view (f->page, "classes");
  row = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "Book");
  list = gtk_widget_get_parent (row);
  g_assert_true (GTK_IS_LIST_BOX (list));
  g_signal_emit_by_name (list, "row-activated", row);
  cg_test_iterate ();
  g_assert_cmpstr (cg_project_page_get_open_class (f->page), ==, "book");
  /* The class itself is shown, not one of its archived pages (which
   * going back would leave first). */
  archived = cg_class_view_get_archived_page (view);
  g_assert_false (gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (archived))) == archived);
  g_assert_true (cg_project_page_go_back (f->page));
  cg_test_iterate ();
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "classes");
  g_assert_null (cg_project_page_get_open_class (f->page));
  g_assert_false (cg_project_page_go_back (f->page));
  g_signal_emit_by_name (list, "row-activated", row);
  cg_test_iterate ();
  g_assert_cmpstr (cg_project_page_get_open_class (f->page), ==, "book");
  g_assert_cmpstr (cg_class_graph_get_selected_class (cg_project_page_get_graph (f->page)), ==, "book");

  /* A class the model lacks opens nothing and changes nothing. */
  g_assert_false (cg_project_page_open_class (f->page, "no-such-class"));
  g_assert_cmpstr (cg_project_page_get_open_class (f->page), ==, "book");

  /* Switching views keeps the open class. */
  cg_project_page_show_view (f->page, "crawl");
  cg_project_page_show_view (f->page, "classes");
  g_assert_cmpstr (cg_project_page_get_open_class (f->page), ==, "book");
}

static void
test_unreadable_database (Fixture       *f,
                          gconstpointer  data)
{
  CgSiteModel *model = cg_project_page_get_model (f->page);
  g_autoptr(GError) error = NULL;
  g_autofree char *book_subtitle = NULL;
  GtkWidget *crawl_row;
  GtkWidget *book_row;
  const char *reported;

  cg_test_wait_for (book_row_listed, f->page, "the classes list's rows");
  crawl_row = cg_test_find_row (GTK_WIDGET (f->page), "http://shop.example/");
  g_assert_nonnull (crawl_row);
  book_row = cg_test_find_row (GTK_WIDGET (f->page), "Book");
  book_subtitle = g_strdup (adw_action_row_get_subtitle (ADW_ACTION_ROW (book_row)));
  g_assert_cmpuint (f->errors->len, ==, 0);

  cg_test_damage_database (f->project);
  cg_project_page_reload (f->page);
  cg_test_iterate ();

  /* The user is told, with the whole reason... */
  g_assert_cmpuint (f->errors->len, ==, 1);
  reported = g_ptr_array_index (f->errors, 0);
  g_assert_true (g_str_has_prefix (reported, "Cannot Read the Project\nThe project’s database cannot be read: "));
  g_assert_nonnull (strstr (reported, "is damaged"));
  g_assert_nonnull (strstr (reported, CG_PROJECT_DATABASE_NAME));
  /* ...and the page keeps what it showed instead of an empty project. */
  g_assert_true (cg_test_find_row (GTK_WIDGET (f->page), "http://shop.example/") == crawl_row);
  g_assert_null (cg_test_find_row (GTK_WIDGET (f->page), "No crawls yet"));
  g_assert_true (cg_project_page_get_model (f->page) == model);
  g_assert_true (cg_class_graph_get_model (cg_project_page_get_graph (f->page)) == model);
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), ==, 4);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (book_row)), ==, book_subtitle);

  /* New records reload the classes list: the counts cannot be read, so
   * the rows stay as they were, and the user is not told again. */
  g_signal_emit_by_name (cg_project_page_get_pipeline (f->page), "records-changed", model);
  cg_test_iterate ();
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), ==, 4);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (book_row)), ==, book_subtitle);
  g_assert_cmpuint (f->errors->len, ==, 1);

  /* Explore the Site says what went wrong, not that there is no
   * exploration to start from. */
  g_assert_false (cg_project_page_explore_stored (f->page, &error));
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_assert_null (strstr (error->message, "no crawl"));
  g_clear_error (&error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.explore", NULL));
  g_assert_cmpuint (f->errors->len, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->errors, 1), "Cannot Explore the Site\nThe project database"));
  g_assert_false (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)));
}

/* Saves @model as made by an exploration of the site whose settings were
 * @config_json; gives the exploration's id. */
static gint64
save_explored_model (Fixture     *f,
                     CgSiteModel *model,
                     const char  *config_json)
{
  g_autoptr(GError) error = NULL;
  gint64 crawl_id = cg_project_add_crawl (f->project, "explore", "http://shop.example/", config_json, &error);

  g_assert_no_error (error);
  cg_site_model_set_crawl_id (model, crawl_id);
  g_assert_true (cg_site_model_save (model, cg_project_get_store (f->project), &error));
  g_assert_no_error (error);
  return crawl_id;
}

/* A harvest fetches with the settings of the exploration that made the
 * model; when those cannot be read it does not start with the defaults,
 * which could ignore the robots.txt policy and politeness chosen. */
static void
test_harvest_bad_settings (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(CgSiteModel) model = make_model (FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  gint64 crawl_id;

  crawl_id = save_explored_model (f, model, "{\"robots\": \"sometimes\"}");
  cg_project_page_reload (f->page);
  g_assert_nonnull (cg_project_page_get_model (f->page));
  g_assert_true (action_enabled (f->page, "project.harvest"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.harvest", NULL));
  cg_test_iterate ();
  g_assert_cmpuint (f->errors->len, ==, 1);
  expected = g_strdup_printf ("Cannot Start the Harvest\nThe settings of exploration %" G_GINT64_FORMAT " cannot be read: ",
                              crawl_id);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->errors, 0), expected));
  g_assert_nonnull (strstr (g_ptr_array_index (f->errors, 0), "“sometimes”"));
  /* Nothing started, and no crawl was recorded. */
  g_assert_false (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)));
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, 1);

  g_assert_false (cg_project_page_start_harvest (f->page, CG_HARVEST_STRATEGY_PATTERNS, NULL, &error));
  g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, 1);
}

/* While another process crawls the project (cartograph-cli), nothing
 * starts here: each would lock the other out of the database half way
 * through. Once it has ended, the project is free again. */
static void
test_crawl_elsewhere (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(CgSiteModel) model = make_model (FALSE);
  g_autoptr(GError) error = NULL;
  CgCrawlLock *lock;
  gint64 crawl_id;
  guint n_crawls;

  save_explored_model (f, model, "{\"delay\": 0}");
  crawl_id = cg_project_add_crawl (f->project, "crawl", "http://shop.example/", "{}", &error);
  g_assert_no_error (error);
  g_assert_true (cg_store_exec (cg_project_get_store (f->project), "UPDATE crawls SET state = 'running' WHERE kind = 'crawl'",
                                &error));
  g_assert_no_error (error);
  lock = cg_crawl_lock_acquire (f->project, crawl_id, &error);
  g_assert_no_error (error);
  cg_project_page_reload (f->page);
  n_crawls = cg_project_count_crawls (f->project);

  g_assert_false (cg_project_page_start_harvest (f->page, CG_HARVEST_STRATEGY_CLASSES, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "is running in another process"));
  g_clear_error (&error);
  g_assert_false (cg_project_page_extract_records (f->page, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);

  /* From the button: the window says why. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.harvest", NULL));
  cg_test_iterate ();
  g_assert_cmpuint (f->errors->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->errors, 0), "Cannot Start the Harvest\nCrawl "));
  g_assert_false (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)));
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, n_crawls);

  /* It ended (here: its process was killed). */
  cg_crawl_lock_release (lock);
  g_assert_true (cg_crawl_lock_check_none_running (f->project, &error));
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------ */
/* An exploration of a small site served here                          */

/* While the test looks at the exploration under way, the site holds its
 * answers back, so that the exploration cannot end before. */
typedef struct {
  gboolean   hold;
  GPtrArray *held;   /* SoupServerMessage */
} Site;

static void
release_site (Site *site)
{
  site->hold = FALSE;
  for (guint i = 0; i < site->held->len; i++)
    soup_server_message_unpause (g_ptr_array_index (site->held, i));
  g_ptr_array_set_size (site->held, 0);
}

static void
site_handler (SoupServer        *server,
              SoupServerMessage *msg,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  Site *site = user_data;
  g_autoptr(GString) body = g_string_new ("<!DOCTYPE html><html><head><title>Shop</title></head><body>"
                                          "<nav><a href=\"/c/1\">One</a> <a href=\"/c/2\">Two</a></nav><main>");

  if (g_str_equal (path, "/robots.txt"))
    {
      soup_server_message_set_status (msg, 404, NULL);
      return;
    }
  if (g_str_has_prefix (path, "/c/"))
    {
      g_string_append (body, "<ul>");
      for (guint i = 0; i < 6; i++)
        g_string_append_printf (body, "<li><h3><a href=\"/b/%s-%u\">Book %u</a></h3><p>%u.99</p></li>",
                                path + 3, i, i, i + 3);
      g_string_append (body, "</ul>");
    }
  else if (g_str_has_prefix (path, "/b/"))
    g_string_append_printf (body, "<article><h1>Book %s</h1><p class=\"price\">9.99</p>"
                            "<p>A book about %s and other things.</p></article>", path + 3, path + 3);
  else if (!g_str_equal (path, "/"))
    {
      soup_server_message_set_status (msg, 404, NULL);
      return;
    }
  g_string_append (body, "</main></body></html>");
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_COPY, body->str, body->len);
  if (site->hold)
    {
      soup_server_message_pause (msg);
      g_ptr_array_add (site->held, msg);
    }
}

typedef struct {
  CgProjectPage *page;
  gboolean       model_saved;
  gboolean       finished;
  gboolean       cancelled;
  int            finished_stage;
  guint          updates;         /* "model-updated" before the model was saved */
  guint          max_classes;     /* in the biggest snapshot */
} Exploration;

static void
model_saved_cb (CgPipeline  *pipeline,
                CgSiteModel *model,
                Exploration *e)
{
  e->model_saved = TRUE;
}

static gboolean
is_model_stack (GtkWidget *widget,
                gpointer   user_data)
{
  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "graph") != NULL;
}

static gboolean
label_says_exploring (GtkWidget *widget,
                      gpointer   user_data)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), "Exploring ·");
}

/* Connected after the page's own handler: what the page made of the
 * snapshot is in view. */
static void
model_updated_cb (CgPipeline  *pipeline,
                  CgSiteModel *snapshot,
                  Exploration *e)
{
  CgClassGraph *graph = cg_project_page_get_graph (e->page);
  GtkWidget *summary = cg_test_find_matching (GTK_WIDGET (e->page), label_says_exploring, NULL);
  GtkWidget *stack = cg_test_find_matching (GTK_WIDGET (e->page), is_model_stack, NULL);

  g_assert_false (e->model_saved);
  g_assert_cmpint (cg_site_model_get_id (snapshot), ==, 0);
  /* A model of no classes yet is not worth a graph. */
  if (cg_site_model_get_classes (snapshot)->len == 0)
    {
      g_assert_true (cg_class_graph_get_model (graph) != snapshot);
      return;
    }
  e->updates++;
  e->max_classes = MAX (e->max_classes, cg_site_model_get_classes (snapshot)->len);
  /* The graph shows the growing model; the page's model is still the
   * saved one, if any, which the classes list keeps showing. */
  g_assert_true (cg_class_graph_get_model (graph) == snapshot);
  g_assert_true (cg_project_page_get_model (e->page) == NULL ||
                 cg_site_model_get_id (cg_project_page_get_model (e->page)) > 0);
  g_assert_nonnull (stack);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "graph");
  g_assert_nonnull (summary);
}

static void
finished_cb (CgPipeline   *pipeline,
             int           stage,
             gboolean      cancelled,
             const GError *error,
             Exploration  *e)
{
  e->finished = TRUE;
  e->cancelled = cancelled;
  e->finished_stage = stage;
  if (error != NULL && !cancelled)
    g_test_message ("The pipeline ended with: %s", error->message);
}

static gboolean
model_is_saved (gpointer user_data)
{
  return ((Exploration *) user_data)->model_saved;
}

static gboolean
is_finished (gpointer user_data)
{
  return ((Exploration *) user_data)->finished;
}

static void
test_explore (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *url = NULL;
  g_autofree char *config = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };
  Site site = { TRUE, g_ptr_array_new () };
  GtkWidget *working;

  soup_server_add_handler (server, NULL, site_handler, &site, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server);
  url = g_uri_to_string (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);

  /* What the New Crawl dialog records: the exploration's settings. */
  config = g_strdup ("{\"sample_size\": 30, \"delay\": 0, \"max_delay\": 0, \"delay_factor\": 0, \"javascript\": false}");
  g_assert_cmpint (cg_project_add_crawl (f->project, "explore", url, config, &error), >, 0);
  g_assert_no_error (error);

  g_signal_connect (pipeline, "model-saved", G_CALLBACK (model_saved_cb), &e);
  g_signal_connect (pipeline, "model-updated", G_CALLBACK (model_updated_cb), &e);
  g_signal_connect (pipeline, "finished", G_CALLBACK (finished_cb), &e);
  g_assert_true (cg_project_page_explore_stored (f->page, &error));
  g_assert_no_error (error);
  /* A snapshot after every page, however fast this small site answers:
   * the default waits a second between two. */
  cg_site_explorer_set_snapshot_interval (cg_pipeline_get_explorer (pipeline), 1, 0);

  /* Exploring: the progress is in view, the model view says it is coming,
   * and nothing else can start. */
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_EXPLORING);
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "crawl");
  g_assert_true (action_enabled (f->page, "crawl.stop"));
  g_assert_true (action_enabled (f->page, "crawl.pause"));
  g_assert_false (action_enabled (f->page, "project.explore"));
  g_assert_false (cg_project_page_explore_stored (f->page, &error));
  g_assert_error (error, CG_PIPELINE_ERROR, CG_PIPELINE_ERROR_BUSY);
  g_clear_error (&error);
  working = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_STATUS_PAGE, "Exploring the Site…");
  cg_project_page_show_view (f->page, "model");
  cg_test_iterate ();
  g_assert_true (gtk_widget_get_mapped (working));
  cg_project_page_show_view (f->page, "crawl");

  /* The dialog's placeholder made way for the exploration's own crawl. */
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, 1);
  release_site (&site);

  cg_test_wait_for (model_is_saved, &e, "the model");
  /* The graph grew while the site was explored. */
  g_assert_cmpuint (e.updates, >=, 2);
  g_assert_cmpuint (e.max_classes, >=, 2);
  g_assert_null (cg_test_find_matching (GTK_WIDGET (f->page), label_says_exploring, NULL));
  g_assert_nonnull (cg_project_page_get_model (f->page));
  g_assert_cmpuint (cg_project_page_get_n_listed_classes (f->page), >=, 2);
  /* The new model comes into view by itself. */
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "model");
  g_assert_true (cg_class_graph_get_model (cg_project_page_get_graph (f->page)) == cg_project_page_get_model (f->page));

  /* The progress view counted the exploration's pages. */
  g_assert_cmpstr (cg_progress_view_get_counter_text (cg_project_page_get_progress_view (f->page),
                                                     CG_PROGRESS_COUNTER_FETCHED), !=, "—");

  /* Stopping what follows (rendering, extraction) keeps the model. */
  if (!e.finished)
    {
      cg_project_page_stop (f->page);
      cg_test_wait_for (is_finished, &e, "the pipeline to stop");
    }
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_IDLE);
  g_assert_true (e.cancelled || e.finished_stage == CG_PIPELINE_EXTRACTING);
  g_assert_nonnull (cg_project_page_get_model (f->page));
  g_assert_true (action_enabled (f->page, "project.explore"));
  g_assert_true (action_enabled (f->page, "project.harvest"));
  g_assert_false (action_enabled (f->page, "crawl.stop"));

  /* Explore Again, with the same settings: the graph grows again, and the
   * new version, once saved, is compared with the one shown before. */
  {
    GtkWidget *again = cg_test_find_button (GTK_WIDGET (f->page), "Explore _Again");
    CgClassGraph *graph = cg_project_page_get_graph (f->page);
    int first = cg_site_model_get_version (cg_project_page_get_model (f->page));
    CgSiteModel *second;

    g_assert_nonnull (again);
    g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (again)), ==, "project.explore");
    g_assert_true (gtk_widget_get_sensitive (again));
    g_assert_null (cg_class_graph_get_diff (graph));
    e.model_saved = e.finished = FALSE;
    e.updates = 0;
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.explore", NULL));
    g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_EXPLORING);
    cg_site_explorer_set_snapshot_interval (cg_pipeline_get_explorer (pipeline), 1, 0);
    cg_test_iterate ();
    g_assert_false (gtk_widget_get_sensitive (again));

    cg_test_wait_for (model_is_saved, &e, "the second model");
    g_assert_cmpuint (e.updates, >=, 1);
    second = cg_project_page_get_model (f->page);
    g_assert_cmpint (cg_site_model_get_version (second), ==, first + 1);
    g_assert_true (cg_class_graph_get_model (graph) == second);
    g_assert_nonnull (cg_class_graph_get_diff (graph));
    g_assert_cmpint (cg_site_model_get_version (cg_class_graph_get_diff (graph)), ==, first);
    if (!e.finished)
      {
        cg_project_page_stop (f->page);
        cg_test_wait_for (is_finished, &e, "the pipeline to stop");
      }
    g_assert_true (gtk_widget_get_sensitive (again));
  }
  g_signal_handlers_disconnect_by_data (pipeline, &e);
  g_ptr_array_unref (site.held);
}

/* A server that never answers, so that an exploration of it cannot end
 * by itself before it is stopped. */
static void
silent_handler (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  soup_server_message_pause (msg);
}

static void
test_stop_exploration (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };

  soup_server_add_handler (server, NULL, silent_handler, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server);
  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_uri_to_string (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  /* Should the stop wait for the fetch under way, it does not wait long. */
  config->timeout = 10;
  g_signal_connect (pipeline, "finished", G_CALLBACK (finished_cb), &e);
  g_assert_true (cg_project_page_explore (f->page, config, NULL, FALSE, &error));
  g_assert_no_error (error);
  cg_project_page_stop (f->page);
  cg_test_wait_for (is_finished, &e, "the exploration to stop");
  g_assert_true (e.cancelled || e.finished_stage == CG_PIPELINE_EXPLORING);
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_IDLE);
  g_assert_null (cg_project_page_get_model (f->page));
  g_assert_false (action_enabled (f->page, "crawl.stop"));
  g_signal_handlers_disconnect_by_data (pipeline, &e);
}

static char *
serve_site (SoupServer  *server,
            Site        *site)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;
  char *url;

  soup_server_add_handler (server, NULL, site_handler, site, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  url = g_uri_to_string (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  return url;
}

/* A project made by a plain crawl (`cartograph-cli crawl`) has no
 * exploration; Explore the Site explores from that crawl's seed, with its
 * settings, in a crawl of its own. */
static void
test_explore_from_crawl (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgCrawlConfig) explored = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *url = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };
  Site site = { FALSE, g_ptr_array_new () };
  gint64 crawl_id;

  url = serve_site (server, &site);
  g_strfreev (config->seeds);
  config->seeds = g_strsplit (url, " ", -1);
  cg_crawl_config_disable_politeness (config);
  config->contact = g_strdup ("mailto:archivist@example.org");
  json = cg_crawl_config_to_json (config);
  crawl_id = cg_project_add_crawl (f->project, "crawl", url, json, &error);
  g_assert_no_error (error);
  cg_project_page_reload (f->page);
  g_assert_nonnull (cg_test_find_row (GTK_WIDGET (f->page), url));

  g_signal_connect (pipeline, "model-saved", G_CALLBACK (model_saved_cb), &e);
  g_signal_connect (pipeline, "finished", G_CALLBACK (finished_cb), &e);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.explore", NULL));
  g_assert_cmpuint (f->errors->len, ==, 0);
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_EXPLORING);
  g_assert_cmpstr (cg_pipeline_get_site_url (pipeline), ==, url);

  /* The exploration is a crawl of its own, from the crawl's seed and with
   * its settings; the plain crawl stays as it was. */
  g_assert_cmpuint (cg_project_count_crawls (f->project), ==, 2);
  stmt = cg_store_prepare (cg_project_get_store (f->project),
                           "SELECT id, kind, seed_url, config FROM crawls ORDER BY id DESC LIMIT 1", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 0), >, crawl_id);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 1), ==, "explore");
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 2), ==, url);
  explored = cg_crawl_config_from_json ((const char *) sqlite3_column_text (stmt, 3), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (explored->contact, ==, "mailto:archivist@example.org");
  g_assert_cmpfloat (explored->min_delay, ==, 0);
  g_clear_pointer (&stmt, sqlite3_finalize);

  cg_test_wait_for (model_is_saved, &e, "the model");
  g_assert_nonnull (cg_project_page_get_model (f->page));
  g_assert_cmpstr (cg_site_model_get_site (cg_project_page_get_model (f->page)), ==, url);
  if (!e.finished)
    {
      cg_project_page_stop (f->page);
      cg_test_wait_for (is_finished, &e, "the pipeline to stop");
    }
  g_signal_handlers_disconnect_by_data (pipeline, &e);
  g_ptr_array_unref (site.held);
}

static guint
count_records (CgProject   *project,
               CgSiteModel *model)
{
  g_autoptr(GError) error = NULL;
  gint64 total = cg_record_store_count (cg_project_get_store (project), cg_site_model_get_id (model), &error);

  g_assert_no_error (error);
  return (guint) total;
}

/* Explores the test site served by @server with a sample of 30 pages and
 * no renders (extraction learns from the archived pages, and WebKit is
 * not needed), and waits for the extraction that follows to end; @e hears
 * the pipeline's "finished". Returns the model the page shows. */
static CgSiteModel *
explore_without_renders (Fixture     *f,
                         SoupServer  *server,
                         Site        *site,
                         Exploration *e)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *url = serve_site (server, site);
  g_autofree char *no_renderer = g_find_program_in_path ("true");
  CgLearnerParams params;
  CgSiteModel *model;

  g_assert_nonnull (no_renderer);
  cg_pipeline_set_renderer (cg_project_page_get_pipeline (f->page), no_renderer);
  g_strfreev (config->seeds);
  config->seeds = g_strsplit (url, " ", -1);
  cg_crawl_config_disable_politeness (config);
  cg_learner_params_init (&params);
  params.max_pages = 30;
  g_signal_connect (cg_project_page_get_pipeline (f->page), "finished", G_CALLBACK (finished_cb), e);

  g_assert_true (cg_project_page_explore (f->page, config, &params, FALSE, &error));
  g_assert_no_error (error);
  cg_test_wait_for (is_finished, e, "the exploration and its extraction");
  g_assert_false (e->cancelled);
  g_assert_cmpint (e->finished_stage, ==, CG_PIPELINE_EXTRACTING);
  model = cg_project_page_get_model (f->page);
  g_assert_nonnull (model);
  g_assert_cmpuint (count_records (f->project, model), >, 0);
  return model;
}

/* Extraction that could not read some archived pages (their WARC files
 * are gone) ends with a warning that says so, not with "The model is
 * ready". */
static void
test_unreadable_pages (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *warc_dir = NULL;
  g_autofree char *expected = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };
  Site site = { FALSE, g_ptr_array_new () };
  CgSiteModel *model;
  guint n_records, n_toasts, n_unreadable;
  const char *reported;

  /* Extraction learns from the archived pages, which is what this test
   * is about. */
  model = explore_without_renders (f, server, &site, &e);
  n_records = count_records (f->project, model);
  g_assert_cmpuint (cg_pipeline_get_n_unreadable_pages (pipeline), ==, 0);
  g_assert_cmpuint (f->errors->len, ==, 0);
  g_assert_cmpuint (f->toasts->len, >, 0);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->toasts, f->toasts->len - 1), "The model is ready: "));

  /* The archive is gone: extraction again reads none of the pages. */
  warc_dir = cg_project_get_warc_dir (f->project);
  cg_test_remove_tree (warc_dir);
  n_toasts = f->toasts->len;
  e.finished = FALSE;
  g_assert_true (cg_pipeline_extract (pipeline, model, &error));
  g_assert_no_error (error);
  cg_test_wait_for (is_finished, &e, "the extraction");
  g_assert_false (e.cancelled);
  g_assert_cmpint (e.finished_stage, ==, CG_PIPELINE_EXTRACTING);
  n_unreadable = cg_pipeline_get_n_unreadable_pages (pipeline);
  g_assert_cmpuint (n_unreadable, >, 1);

  /* The end says how many pages were not read and that their records
   * were kept, in the window's dialog and above the progress; the
   * records are indeed those of before. */
  g_assert_cmpuint (f->errors->len, ==, 1);
  reported = g_ptr_array_index (f->errors, 0);
  expected = g_strdup_printf ("Some Archived Pages Could Not Be Read\n"
                              "%u archived pages could not be read and kept their earlier records; the first: ",
                              n_unreadable);
  g_assert_true (g_str_has_prefix (reported, expected));
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (f->page), GTK_TYPE_LABEL, "Some Archived Pages Could Not Be Read"));
  for (guint i = n_toasts; i < f->toasts->len; i++)
    g_assert_false (g_str_has_prefix (g_ptr_array_index (f->toasts, i), "The model is ready"));
  g_assert_null (cg_test_find_widget (GTK_WIDGET (f->page), GTK_TYPE_LABEL, "The Model Is Ready"));
  g_assert_cmpuint (count_records (f->project, model), ==, n_records);

  g_signal_handlers_disconnect_by_data (pipeline, &e);
  g_ptr_array_unref (site.held);
}

static gboolean
label_says_not_extracted (GtkWidget *widget,
                          gpointer   user_data)
{
  return GTK_IS_LABEL (widget) && g_str_has_suffix (gtk_label_get_label (GTK_LABEL (widget)),
                                                    " · records not all extracted");
}

/* Whether the page offers to finish the shown model's records: the
 * Extract Records button, and the model summary's words, which stay while
 * the extraction runs again. */
static gboolean
offers_extraction (Fixture *f)
{
  GtkWidget *button = cg_test_find_button (GTK_WIDGET (f->page), "_Extract Records");
  gboolean said = cg_test_find_matching (GTK_WIDGET (f->page), label_says_not_extracted, NULL) != NULL;

  g_assert_nonnull (button);
  if (cg_pipeline_is_busy (cg_project_page_get_pipeline (f->page)))
    {
      g_assert_false (gtk_widget_get_visible (button));
      return said;
    }
  g_assert_true (gtk_widget_get_visible (button) == said);
  return said;
}

/* Whether the row titled @title of the page starts its subtitle with
 * @prefix. */
static gboolean
row_subtitle_starts (Fixture    *f,
                     const char *title,
                     const char *prefix)
{
  GtkWidget *row = cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, title);
  const char *subtitle;

  g_assert_nonnull (row);
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  if (!g_str_has_prefix (subtitle, prefix))
    g_test_message ("the row “%s” says “%s”", title, subtitle);
  return g_str_has_prefix (subtitle, prefix);
}

/* Whether @widget is a button showing the icon @user_data. */
static gboolean
is_icon_button (GtkWidget *widget,
                gpointer   user_data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), user_data) == 0;
}

/* Whether the project page, on each of its views, can be made as narrow
 * as a phone (360 pixels for the window, its borders included) with all
 * of the model toolbar's controls there: the labelled ones give way to
 * icons, the version list's name ellipsizes and the progress counters
 * wrap. */
static void
assert_fits_narrow_window (Fixture *f)
{
  const char *views[] = { "model", "classes", "crawl" };
  g_autofree char *shown = g_strdup (cg_project_page_get_visible_view (f->page));

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      int minimum;

      cg_project_page_show_view (f->page, views[i]);
      gtk_widget_measure (GTK_WIDGET (f->page), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      if (minimum > 340)
        g_test_message ("the view “%s” needs %d pixels", views[i], minimum);
      g_assert_cmpint (minimum, <=, 340);
    }
  cg_project_page_show_view (f->page, shown);

  /* The toolbar's short forms: an icon button for each labelled one, doing
   * the same, shown with it and named for screen readers. */
  {
    const char *labels[] = { "All _Links", "_Extract Records", "Explore _Again" };
    const char *icons[] = { "insert-link-symbolic", "document-save-symbolic", "view-refresh-symbolic" };
    const char *names[] = { "All Links", "Extract Records", "Explore Again" };

    for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
      {
        GtkWidget *labelled = cg_test_find_button (GTK_WIDGET (f->page), labels[i]);
        GtkWidget *icon = cg_test_find_matching (GTK_WIDGET (f->page), is_icon_button, (gpointer) icons[i]);

        g_assert_nonnull (labelled);
        g_assert_nonnull (icon);
        g_assert_true (G_OBJECT_TYPE (icon) == G_OBJECT_TYPE (labelled));
        g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (icon)), ==,
                         gtk_actionable_get_action_name (GTK_ACTIONABLE (labelled)));
        g_assert_true (gtk_widget_get_visible (icon) == gtk_widget_get_visible (labelled));
        g_assert_cmpstr (gtk_widget_get_tooltip_text (icon), ==, gtk_widget_get_tooltip_text (labelled));
        gtk_test_accessible_assert_property (icon, GTK_ACCESSIBLE_PROPERTY_LABEL, names[i]);
      }
  }
}

/* An extraction cut off (here by Stop; a quit does the same) leaves the
 * model's records half done: the page says so, and Extract Records, there
 * again once the project is reopened, finishes them. */
static void
test_extract_records (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) reopened = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };
  Site site = { FALSE, g_ptr_array_new () };
  CgSiteModel *model;
  guint n_records;

  model = explore_without_renders (f, server, &site, &e);
  n_records = count_records (f->project, model);
  g_assert_false (offers_extraction (f));

  /* Extracting again, stopped at once. */
  e.finished = FALSE;
  g_assert_true (cg_pipeline_extract (pipeline, model, &error));
  g_assert_no_error (error);
  g_assert_false (offers_extraction (f));
  cg_project_page_stop (f->page);
  cg_test_wait_for (is_finished, &e, "the stopped extraction");
  g_assert_true (e.cancelled);
  g_assert_true (offers_extraction (f));
  g_assert_true (action_enabled (f->page, "project.extract-records"));

  /* So it is when the project is opened again. */
  reopened = cg_project_open (f->folder, &error);
  g_assert_no_error (error);
  cg_project_page_set_project (f->page, reopened);
  cg_test_iterate ();
  pipeline = cg_project_page_get_pipeline (f->page);
  g_signal_connect (pipeline, "finished", G_CALLBACK (finished_cb), &e);
  g_assert_true (offers_extraction (f));
  assert_fits_narrow_window (f);

  /* Extract Records renders and extracts again, to the end. */
  e.finished = FALSE;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "project.extract-records", NULL));
  g_assert_true (cg_pipeline_is_busy (pipeline));
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "crawl");
  g_assert_true (offers_extraction (f));
  cg_test_wait_for (is_finished, &e, "the extraction asked for");
  g_assert_false (e.cancelled);
  g_assert_cmpint (e.finished_stage, ==, CG_PIPELINE_EXTRACTING);
  g_assert_false (offers_extraction (f));
  g_assert_cmpuint (count_records (reopened, cg_project_page_get_model (f->page)), ==, n_records);

  g_signal_handlers_disconnect_by_data (pipeline, &e);
  g_ptr_array_unref (site.held);
}

/* A crawl recorded as running that no process runs (its process was
 * killed) is listed as interrupted; one a process runs, as running. */
static void
test_interrupted_crawl (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) reopened = NULL;
  CgCrawlLock *lock;
  gint64 crawl_id;

  crawl_id = cg_project_add_crawl (f->project, "crawl", "http://killed.example/", "{}", &error);
  g_assert_no_error (error);
  g_assert_true (cg_store_exec (cg_project_get_store (f->project), "UPDATE crawls SET state = 'running'", &error));
  g_assert_no_error (error);

  reopened = cg_project_open (f->folder, &error);
  g_assert_no_error (error);
  cg_project_page_set_project (f->page, reopened);
  cg_test_iterate ();
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, "http://killed.example/"));
  g_assert_true (row_subtitle_starts (f, "http://killed.example/", "Crawl · Interrupted · "));

  /* Run by a process: running. */
  lock = cg_crawl_lock_acquire (f->project, crawl_id, &error);
  g_assert_no_error (error);
  g_clear_object (&reopened);
  reopened = cg_project_open (f->folder, &error);
  g_assert_no_error (error);
  cg_project_page_set_project (f->page, reopened);
  cg_test_iterate ();
  g_assert_true (row_subtitle_starts (f, "http://killed.example/", "Crawl · Running · "));
  cg_crawl_lock_release (lock);
}

/* The state of crawl @crawl_id, as stored. */
static char *
crawl_state (CgProject *project,
             gint64     crawl_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (project),
                                                   "SELECT state FROM crawls WHERE id = ?1", &error);

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

/* One harvest run to its end; the pipeline's "finished" handler of @e is
 * connected already. */
static gint64
harvest_to_end (Fixture     *f,
                Exploration *e)
{
  g_autoptr(GError) error = NULL;
  gint64 crawl_id;

  e->finished = FALSE;
  g_assert_true (cg_project_page_start_harvest (f->page, CG_HARVEST_STRATEGY_CLASSES, NULL, &error));
  g_assert_no_error (error);
  crawl_id = cg_harvester_get_crawl_id (cg_pipeline_get_harvester (cg_project_page_get_pipeline (f->page)));
  cg_test_wait_for (is_finished, e, "the harvest");
  g_assert_false (e->cancelled);
  return crawl_id;
}

static gboolean
site_holds_a_request (gpointer user_data)
{
  return ((Site *) user_data)->held->len > 0;
}

/* A harvest that was stopped (or cut off by a quit, or killed) goes on
 * from the crawls list where it stopped, and fetches no page twice. */
static gboolean
is_shown_resume_button (GtkWidget *widget,
                        gpointer   user_data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "project.resume-harvest") == 0 &&
         gtk_widget_is_visible (widget);
}

static gboolean
is_row_resume_button (GtkWidget *widget,
                      gpointer   user_data)
{
  /* The crawls list's, not the Harvest group's "Resume Harvest". */
  return is_shown_resume_button (widget, NULL) && GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), "_Resume") == 0;
}

/* Whether the page shows a way to resume a harvest. */
static gboolean
offers_resume (Fixture *f)
{
  return cg_test_find_matching (GTK_WIDGET (f->page), is_shown_resume_button, NULL) != NULL;
}

typedef struct {
  GtkWindow *window;
  GtkWidget *widget;
} FocusWanted;

static gboolean
has_focus_on (gpointer user_data)
{
  FocusWanted *wanted = user_data;

  return gtk_root_get_focus (GTK_ROOT (wanted->window)) == wanted->widget;
}

static gboolean
pipeline_runs_unpaused (gpointer pipeline)
{
  return cg_pipeline_is_busy (pipeline) && !cg_pipeline_is_paused (pipeline);
}

static void
test_resume_harvest (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) twice = NULL;
  g_autoptr(sqlite3_stmt) fetched = NULL;
  g_autofree char *state = NULL;
  CgPipeline *pipeline = cg_project_page_get_pipeline (f->page);
  Exploration e = { f->page };
  Site site = { FALSE, g_ptr_array_new () };
  GtkWidget *resume;
  GtkWidget *row;
  GtkWidget *start;
  GtkWidget *pause;
  FocusWanted focused = { 0 };
  gint64 first, second;

  explore_without_renders (f, server, &site, &e);
  g_assert_false (offers_resume (f));
  g_assert_false (cg_project_page_resume_harvest (f->page, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_clear_error (&error);

  /* A harvest that ends has nothing to resume. The first reads the
   * exploration's pages back; the second fetches every page again. */
  first = harvest_to_end (f, &e);
  state = crawl_state (f->project, first);
  g_assert_cmpstr (state, ==, "finished");
  g_assert_false (offers_resume (f));

  /* The second, started from the keyboard, is stopped while the site
   * holds its first request. */
  site.hold = TRUE;
  e.finished = FALSE;
  cg_project_page_show_view (f->page, "crawl");
  cg_test_iterate ();
  start = cg_test_find_button (GTK_WIDGET (f->page), "Start _Harvest");
  g_assert_nonnull (start);
  g_assert_true (gtk_widget_grab_focus (start));
  /* A button activated from the keyboard is clicked a moment later. */
  g_assert_true (gtk_widget_activate (start));
  cg_test_wait_for ((CgTestCondition) cg_pipeline_is_busy, pipeline, "the harvest to start");
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_HARVESTING);
  second = cg_harvester_get_crawl_id (cg_pipeline_get_harvester (pipeline));
  g_assert_cmpint (second, >, first);
  cg_test_wait_for (site_holds_a_request, &site, "a request of the harvest");
  /* Start Harvest is disabled while it runs: the keyboard is on Pause,
   * then on Resume once paused, then on Pause again, each taking the
   * place of the other. */
  cg_test_iterate ();
  g_assert_false (gtk_widget_is_sensitive (start));
  pause = cg_test_find_button (GTK_WIDGET (f->page), "_Pause");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (f->window)) == pause);
  g_assert_true (gtk_widget_activate (pause));
  cg_test_wait_for ((CgTestCondition) cg_pipeline_is_paused, pipeline, "the harvest to pause");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (f->window)) == cg_test_find_button (GTK_WIDGET (f->page), "_Resume"));
  g_assert_true (gtk_widget_activate (gtk_root_get_focus (GTK_ROOT (f->window))));
  cg_test_wait_for (pipeline_runs_unpaused, pipeline, "the harvest to resume");
  /* The buttons swap when the page hears of it, a turn of the loop later
   * on a loaded machine. */
  focused.window = f->window;
  focused.widget = pause;
  cg_test_wait_for (has_focus_on, &focused, "the focus to go back to Pause");
  g_assert_false (offers_resume (f));
  cg_project_page_stop (f->page);
  cg_test_wait_for (is_finished, &e, "the harvest to stop");
  g_assert_true (e.cancelled);
  g_clear_pointer (&state, g_free);
  state = crawl_state (f->project, second);
  g_assert_cmpstr (state, ==, "stopped");
  release_site (&site);

  /* Its row, and only its row, offers Resume. */
  resume = cg_test_find_matching (GTK_WIDGET (f->page), is_row_resume_button, NULL);
  g_assert_nonnull (resume);
  row = gtk_widget_get_ancestor (resume, ADW_TYPE_ACTION_ROW);
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Harvest · Stopped · "));
  g_assert_true (gtk_widget_get_prev_sibling (row) == NULL);
  g_assert_true (action_enabled (f->page, "project.resume-harvest"));
  /* So does a row of the Harvest group, and the progress
   * view says so. */
  {
    GtkWidget *beside = cg_test_find_button (GTK_WIDGET (f->page), "Res_ume Harvest");

    g_assert_nonnull (beside);
    g_assert_true (gtk_widget_get_visible (beside));
    g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (beside)), ==, "project.resume-harvest");
    g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (f->page), GTK_TYPE_LABEL,
                                           "What was archived is kept: Resume Harvest goes on from there"));
  }

  /* Resumed, it is the same harvest, and it ends. */
  e.finished = FALSE;
  g_assert_true (gtk_widget_activate_action (resume, "project.resume-harvest", NULL));
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_HARVESTING);
  g_assert_cmpint (cg_harvester_get_crawl_id (cg_pipeline_get_harvester (pipeline)), ==, second);
  g_assert_cmpstr (cg_project_page_get_visible_view (f->page), ==, "crawl");
  cg_test_iterate ();
  g_assert_false (offers_resume (f));
  cg_test_wait_for (is_finished, &e, "the resumed harvest");
  g_assert_false (e.cancelled);
  g_clear_pointer (&state, g_free);
  state = crawl_state (f->project, second);
  g_assert_cmpstr (state, ==, "finished");
  g_assert_false (offers_resume (f));
  g_assert_cmpuint (f->errors->len, ==, 0);

  /* Every page of the site (home, two categories, twelve books) was
   * fetched by it, none twice. */
  fetched = cg_store_prepare (cg_project_get_store (f->project),
                              "SELECT count(DISTINCT url_id) FROM fetches WHERE crawl_id = ?1 AND status = 200", &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (fetched, 1, second);
  g_assert_cmpint (sqlite3_step (fetched), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (fetched, 0), >=, 15);
  twice = cg_store_prepare (cg_project_get_store (f->project),
                            "SELECT url_id FROM fetches WHERE crawl_id = ?1 AND status = 200 "
                            "GROUP BY url_id HAVING count(*) > 1",
                            &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (twice, 1, second);
  g_assert_cmpint (sqlite3_step (twice), ==, SQLITE_DONE);

  g_signal_handlers_disconnect_by_data (pipeline, &e);
  g_ptr_array_unref (site.held);
}

int
main (int argc, char **argv)
{
  int status;

  /* Counts are checked as the C locale writes them. */
  tmp_home = cg_test_init_app (&argc, &argv, TRUE);

  g_test_add ("/project-page/empty", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up, test_empty, fixture_tear_down);
  g_test_add ("/project-page/bad-stored-exploration", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_bad_stored_exploration, fixture_tear_down);
  g_test_add ("/project-page/model-view", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up, test_model_view, fixture_tear_down);
  g_test_add ("/project-page/open-class", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up, test_open_class, fixture_tear_down);
  g_test_add ("/project-page/unreadable-database", Fixture, GINT_TO_POINTER (TRUE),
              fixture_set_up, test_unreadable_database, fixture_tear_down);
  g_test_add ("/project-page/harvest-bad-settings", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_harvest_bad_settings, fixture_tear_down);
  g_test_add ("/project-page/explore", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up, test_explore, fixture_tear_down);
  g_test_add ("/project-page/stop-exploration", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_stop_exploration, fixture_tear_down);
  g_test_add ("/project-page/explore-from-crawl", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_explore_from_crawl, fixture_tear_down);
  g_test_add ("/project-page/crawl-elsewhere", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_crawl_elsewhere, fixture_tear_down);
  g_test_add ("/project-page/resume-harvest", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_resume_harvest, fixture_tear_down);
  g_test_add ("/project-page/interrupted-crawl", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_interrupted_crawl, fixture_tear_down);
  g_test_add ("/project-page/extract-records", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_extract_records, fixture_tear_down);
  g_test_add ("/project-page/unreadable-pages", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_unreadable_pages, fixture_tear_down);

  status = g_test_run ();
  cg_test_folder_remove (tmp_home);
  return status;
}
