/* test-class-view.c: the class view, its records table and archived pages, in process.
 *
 * The project is real: the bundled demo site is served on 127.0.0.1 and a
 * few of its category, book and author pages are crawled into a project's
 * WARC files; the model, records and wrappers are stored through the
 * store's own APIs, the category records being the demo site's ground
 * truth for those pages, the author records those a wrapper learned on
 * the author pages finds in two regions (books and biography).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cg-archive.h"
#include "cg-archived-page.h"
#include "cg-class-view.h"
#include "cg-crawler.h"
#include "cg-demo-server.h"
#include "cg-links.h"
#include "cg-record-store.h"
#include "cg-records-table.h"
#include "cg-test-widgets.h"
#include "core/cg-test-files.h"
#include "cg-wrapper.h"

#define N_CATEGORY_PAGES 4
#define N_BOOK_PAGES     2
#define N_AUTHOR_PAGES   4
#define N_THUMBNAILS     3

static const char * const fields[] = { "title", "author", "format", "year", "price", "was_price", "badge", NULL };
static const char *region_xpath = "/html/body/main/ol[1]";

typedef struct {
  char         *dir;
  CgDemoServer *server;
  CgProject    *project;
  CgSiteModel  *model;
  GPtrArray    *category_urls;   /* char *, crawled, in the model's samples order */
  GPtrArray    *book_urls;
  GPtrArray    *author_urls;
  GPtrArray    *records;         /* CgRecord, as stored, with url */
} Site;

static Site site;

static void
crawl_finished_cb (CgCrawler    *crawler,
                   int           end,
                   const GError *error,
                   gboolean     *finished)
{
  g_assert_no_error (error);
  g_assert_cmpint (end, ==, CG_CRAWL_END_DONE);
  *finished = TRUE;
}

static gint64
lookup_url_id (const char *url)
{
  CgStore *store = cg_project_get_store (site.project);
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, "SELECT id FROM urls WHERE url = ?1", &error);

  g_assert_no_error (error);
  sqlite3_bind_text (stmt, 1, url, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return sqlite3_column_int64 (stmt, 0);
}

static void
write_thumbnail (const char *path,
                 guint       shade)
{
  const int width = 320, height = 200;
  g_autofree guchar *pixels = g_malloc (width * height * 4);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  for (int i = 0; i < width * height; i++)
    {
      pixels[i * 4] = (guchar) (shade * 60);
      pixels[i * 4 + 1] = (guchar) (i % width);
      pixels[i * 4 + 2] = (guchar) (i / width);
      pixels[i * 4 + 3] = 255;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&pixels), width * height * 4);
  texture = gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8, bytes, width * 4);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static char *
thumbnail_path (const char *class_name,
                guint       number)
{
  g_autofree char *thumbnails = cg_project_get_thumbnails_dir (site.project);
  g_autofree char *folder = g_strdup_printf ("model-%d", cg_site_model_get_version (site.model));
  g_autofree char *name = g_strdup_printf ("%s-%u.png", class_name, number);

  return g_build_filename (thumbnails, folder, name, NULL);
}

static char *
make_wrapper_json (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, "list");
  json_builder_set_member_name (builder, "regions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "xpath");
  json_builder_add_string_value (builder, region_xpath);
  json_builder_set_member_name (builder, "record");
  json_builder_add_string_value (builder, "li");
  json_builder_set_member_name (builder, "columns");
  json_builder_begin_array (builder);
  for (guint i = 0; fields[i] != NULL; i++)
    {
      g_autofree char *xpath = g_strdup_printf ("div/span[%u]", i + 1);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, fields[i]);
      json_builder_set_member_name (builder, "xpath");
      json_builder_add_string_value (builder, xpath);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, g_str_equal (fields[i], "price") ? "price" : "text");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, TRUE);
}

static void
free_doc (gpointer doc)
{
  xmlFreeDoc (doc);
}

/* The records of the author pages as the extractor finds them: a wrapper
 * learned on the pages (made in process by the demo site, as the server
 * served them to the crawl) and applied to each; both stored. */
static void
extract_authors (const char *base)
{
  CgDemoSite *demo = cg_demo_server_get_site (site.server);
  CgStore *store = cg_project_get_store (site.project);
  gint64 model_id = cg_site_model_get_id (site.model);
  g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func (free_doc);
  g_autoptr(GPtrArray) urls = g_ptr_array_new ();
  g_autoptr(CgWrapper) wrapper = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *definition = NULL;

  for (guint i = 0; i < site.author_urls->len; i++)
    {
      const char *url = g_ptr_array_index (site.author_urls, i);
      g_autoptr(CgDemoResponse) response = cg_demo_site_respond (demo, base, url + strlen (base), NULL, NULL, NULL);
      gsize length;
      const char *data;

      g_assert_cmpuint (response->status, ==, 200);
      data = g_bytes_get_data (response->body, &length);
      g_ptr_array_add (docs, cg_html_parse (data, length, url, response->content_type, &error));
      g_assert_no_error (error);
      g_ptr_array_add (urls, (gpointer) url);
    }
  wrapper = cg_wrapper_learn ("author", docs, urls, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < docs->len; i++)
    {
      g_autoptr(GPtrArray) records = cg_wrapper_apply (wrapper, g_ptr_array_index (docs, i), urls->pdata[i], &error);

      g_assert_no_error (error);
      g_assert_true (cg_record_store_replace_page (store, model_id, "author", lookup_url_id (urls->pdata[i]),
                                                   records, &error));
      g_assert_no_error (error);
    }
  definition = cg_wrapper_to_json (wrapper);
  g_assert_true (cg_record_store_save_wrapper (store, model_id, "author", cg_wrapper_get_kind (wrapper),
                                               definition, docs->len, &error));
  g_assert_no_error (error);
}

/* Serves the demo site, crawls some of its pages into a project and
 * stores a model, records and a wrapper of its "category" class. */
static void
site_set_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GStrvBuilder) seeds = g_strv_builder_new ();
  g_autofree char *folder = NULL;
  g_autofree char *base = NULL;
  g_autofree char *pattern = NULL;
  g_autofree char *wrapper = NULL;
  g_autofree char *thumbnail_folder = NULL;
  CgDemoSite *demo;
  CgPageClass *klass;
  gboolean finished = FALSE;
  guint n_categories = 0, n_books = 0, n_authors = 0;

  site.dir = cg_test_folder_new ("cg-class-view-XXXXXX");
  site.server = cg_demo_server_new ();
  g_assert_true (cg_demo_server_start (site.server, 0, &error));
  g_assert_no_error (error);
  base = g_strdup_printf ("http://127.0.0.1:%u", cg_demo_server_get_port (site.server));
  demo = cg_demo_server_get_site (site.server);

  site.category_urls = g_ptr_array_new_with_free_func (g_free);
  site.book_urls = g_ptr_array_new_with_free_func (g_free);
  site.author_urls = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < cg_demo_site_get_n_pages (demo); i++)
    {
      JsonObject *page = cg_demo_site_get_page (demo, i);
      const char *klass_name = json_object_get_string_member (page, "class");
      const char *path = json_object_get_string_member (page, "path");

      if (g_str_equal (klass_name, "category") && n_categories < N_CATEGORY_PAGES)
        {
          g_ptr_array_add (site.category_urls, g_strconcat (base, path, NULL));
          n_categories++;
        }
      else if (g_str_equal (klass_name, "book") && n_books < N_BOOK_PAGES)
        {
          g_ptr_array_add (site.book_urls, g_strconcat (base, path, NULL));
          n_books++;
        }
      else if (g_str_equal (klass_name, "author") && n_authors < N_AUTHOR_PAGES)
        {
          g_ptr_array_add (site.author_urls, g_strconcat (base, path, NULL));
          n_authors++;
        }
    }
  g_assert_cmpuint (n_categories, ==, N_CATEGORY_PAGES);
  g_assert_cmpuint (n_books, ==, N_BOOK_PAGES);

  /* The seeds only (and their stylesheets), so that the archive holds
   * exactly these pages. */
  folder = g_build_filename (site.dir, "project", NULL);
  site.project = cg_project_create (folder, "Class view test", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < site.category_urls->len; i++)
    g_strv_builder_add (seeds, g_ptr_array_index (site.category_urls, i));
  for (guint i = 0; i < site.book_urls->len; i++)
    g_strv_builder_add (seeds, g_ptr_array_index (site.book_urls, i));
  for (guint i = 0; i < site.author_urls->len; i++)
    g_strv_builder_add (seeds, g_ptr_array_index (site.author_urls, i));
  g_strfreev (config->seeds);
  config->seeds = g_strv_builder_end (seeds);
  config->max_depth = 0;
  config->requisites = TRUE;
  cg_crawl_config_disable_politeness (config);
  crawler = cg_crawler_new (site.project, config, &error);
  g_assert_no_error (error);
  g_signal_connect (crawler, "finished", G_CALLBACK (crawl_finished_cb), &finished);
  cg_crawler_start (crawler);
  cg_test_wait_for_flag (&finished, "the crawl of the sample pages");

  /* The model: the "category" class with all its pages as samples, and a
   * "book" class with no records. */
  site.model = cg_site_model_new (base);
  klass = cg_site_model_add_class (site.model, "category", "Category");
  pattern = g_strdup_printf ("^%s/category/[^/]+/(\\?page=[0-9]+)?$", base);
  klass->url_pattern = g_strdup (pattern);
  g_strfreev (klass->samples);
  klass->samples = g_new0 (char *, site.category_urls->len + 1);
  for (guint i = 0; i < site.category_urls->len; i++)
    klass->samples[i] = g_strdup (g_ptr_array_index (site.category_urls, i));
  klass->n_pages = site.category_urls->len;
  klass = cg_site_model_add_class (site.model, "book", "Book");
  g_strfreev (klass->samples);
  klass->samples = g_new0 (char *, site.book_urls->len + 1);
  for (guint i = 0; i < site.book_urls->len; i++)
    klass->samples[i] = g_strdup (g_ptr_array_index (site.book_urls, i));
  klass->n_pages = site.book_urls->len;
  klass = cg_site_model_add_class (site.model, "author", "Author");
  g_strfreev (klass->samples);
  klass->samples = g_new0 (char *, site.author_urls->len + 1);
  for (guint i = 0; i < site.author_urls->len; i++)
    klass->samples[i] = g_strdup (g_ptr_array_index (site.author_urls, i));
  klass->n_pages = site.author_urls->len;
  cg_site_model_add_link (site.model, "category", "book", CG_CLASS_LINK_LIST, "/html/body/main/ol/li/h3/a");
  cg_site_model_set_entry_class (site.model, "category");
  cg_site_model_compute_depths (site.model);
  g_assert_true (cg_site_model_save (site.model, cg_project_get_store (site.project), &error));
  g_assert_no_error (error);

  /* The ground truth's records of each category page, as the extractor
   * would store them. */
  site.records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  for (guint i = 0; i < site.category_urls->len; i++)
    {
      const char *url = g_ptr_array_index (site.category_urls, i);
      JsonObject *page = cg_demo_site_lookup_page (demo, url + strlen (base));
      JsonArray *truth;
      g_autoptr(GPtrArray) page_records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
      gint64 url_id = lookup_url_id (url);

      g_assert_nonnull (page);
      truth = json_object_get_array_member (page, "records");
      for (guint j = 0; j < json_array_get_length (truth); j++)
        {
          JsonObject *object = json_array_get_object_element (truth, j);
          const char *values[G_N_ELEMENTS (fields)] = { NULL };
          CgRecord *record;

          for (guint k = 0; fields[k] != NULL; k++)
            values[k] = json_object_has_member (object, fields[k]) ? json_object_get_string_member (object, fields[k]) : "";
          record = cg_record_new (region_xpath, j, fields, values);
          g_ptr_array_add (page_records, cg_record_copy (record));
          record->url = g_strdup (url);
          g_ptr_array_add (site.records, record);
        }
      g_assert_true (cg_record_store_replace_page (cg_project_get_store (site.project), cg_site_model_get_id (site.model),
                                                   "category", url_id, page_records, &error));
      g_assert_no_error (error);
    }
  extract_authors (base);

  wrapper = make_wrapper_json ();
  g_assert_true (cg_record_store_save_wrapper (cg_project_get_store (site.project), cg_site_model_get_id (site.model),
                                               "category", CG_WRAPPER_LIST, wrapper, N_CATEGORY_PAGES, &error));
  g_assert_no_error (error);

  /* Thumbnails of the first samples of "category", where the class
   * sampler writes them; none of "book". */
  {
    g_autofree char *first = thumbnail_path ("category", 1);

    thumbnail_folder = g_path_get_dirname (first);
  }
  g_assert_cmpint (g_mkdir_with_parents (thumbnail_folder, 0755), ==, 0);
  for (guint i = 1; i <= N_THUMBNAILS; i++)
    {
      g_autofree char *path = thumbnail_path ("category", i);

      write_thumbnail (path, i);
    }
}

static void
site_tear_down (void)
{
  g_clear_object (&site.model);
  g_clear_object (&site.project);
  g_clear_object (&site.server);
  g_clear_pointer (&site.category_urls, g_ptr_array_unref);
  g_clear_pointer (&site.book_urls, g_ptr_array_unref);
  g_clear_pointer (&site.author_urls, g_ptr_array_unref);
  g_clear_pointer (&site.records, g_ptr_array_unref);
  cg_test_folder_remove (site.dir);
}

/* A view in a window, showing @class_name. */
static CgClassView *
show_view (GtkWindow  **out_window,
           const char  *class_name)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  CgClassView *view = CG_CLASS_VIEW (cg_class_view_new ());

  gtk_window_set_default_size (window, 1000, 700);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);
  cg_class_view_set_class (view, site.project, site.model, class_name);
  cg_test_iterate ();
  *out_window = window;
  return view;
}

static const char *
visible_child_name_of (GtkWidget *widget)
{
  GtkWidget *parent = gtk_widget_get_parent (widget);

  while (parent != NULL && !GTK_IS_STACK (parent))
    parent = gtk_widget_get_parent (parent);
  g_assert_nonnull (parent);
  return gtk_stack_get_visible_child_name (GTK_STACK (parent));
}

static const CgRecord *
row_record (GListModel *rows,
            guint       position)
{
  g_autoptr(CgRecordRow) row = g_list_model_get_item (rows, position);

  return cg_record_row_get_record (row);
}

static GtkColumnViewColumn *
find_column (GtkColumnView *view,
             const char    *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  return NULL;
}

static void
test_records (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GtkColumnView *column_view = cg_records_table_get_column_view (table);
  GListModel *columns = gtk_column_view_get_columns (column_view);
  GListModel *rows = cg_records_table_get_rows (table);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_fields = g_strv_length ((char **) fields);

  g_assert_cmpuint (site.records->len, >, 2 * N_CATEGORY_PAGES);
  g_assert_cmpuint (cg_records_table_get_n_records (table), ==, site.records->len);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, site.records->len);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (column_view))), ==, site.records->len);
  g_assert_cmpstr (visible_child_name_of (GTK_WIDGET (column_view)), ==, "table");

  /* One column per wrapper column, in its order, then the page and the
   * position. */
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, n_fields + 2);
  for (guint i = 0; i < n_fields + 2; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *expected = i < n_fields ? fields[i] : i == n_fields ? "Page" : "Position";

      g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, expected);
      g_assert_nonnull (gtk_column_view_column_get_sorter (column));
    }

  /* Every stored record is a row, once. */
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      const CgRecord *record = row_record (rows, i);
      char *key = g_strdup_printf ("%s#%u", record->url, record->position);

      g_assert_cmpstr (record->region, ==, region_xpath);
      g_assert_true (g_hash_table_add (seen, key));
    }
  for (guint i = 0; i < site.records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (site.records, i);
      g_autofree char *key = g_strdup_printf ("%s#%u", record->url, record->position);

      g_assert_true (g_hash_table_contains (seen, key));
    }

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* "£12.99" → 12.99, read independently of the table's collation. */
static double
parse_price (const char *text)
{
  while (*text != '\0' && !g_ascii_isdigit (*text))
    text++;
  return g_ascii_strtod (text, NULL);
}

static void
test_sort (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GtkColumnView *column_view = cg_records_table_get_column_view (table);
  GListModel *rows = cg_records_table_get_rows (table);
  guint n = g_list_model_get_n_items (rows);
  gboolean prices_differ = FALSE;

  gtk_column_view_sort_by_column (column_view, find_column (column_view, "price"), GTK_SORT_ASCENDING);
  cg_test_iterate ();
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  for (guint i = 1; i < n; i++)
    {
      double before = parse_price (cg_record_get (row_record (rows, i - 1), "price"));
      double after = parse_price (cg_record_get (row_record (rows, i), "price"));

      g_assert_cmpfloat (before, <=, after);
      prices_differ |= before < after;
    }
  /* A table sorted by a column whose values are all the same would show
   * nothing. */
  g_assert_true (prices_differ);

  gtk_column_view_sort_by_column (column_view, find_column (column_view, "price"), GTK_SORT_DESCENDING);
  cg_test_iterate ();
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (parse_price (cg_record_get (row_record (rows, i - 1), "price")), >=,
                       parse_price (cg_record_get (row_record (rows, i), "price")));

  gtk_column_view_sort_by_column (column_view, find_column (column_view, "year"), GTK_SORT_ASCENDING);
  cg_test_iterate ();
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (atoi (cg_record_get (row_record (rows, i - 1), "year")), <=,
                     atoi (cg_record_get (row_record (rows, i), "year")));

  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Position"), GTK_SORT_DESCENDING);
  cg_test_iterate ();
  g_assert_cmpuint (row_record (rows, 0)->position, >, row_record (rows, n - 1)->position);
  for (guint i = 1; i < n; i++)
    g_assert_cmpuint (row_record (rows, i - 1)->position, >=, row_record (rows, i)->position);

  /* Pages sort naturally: "?page=2" before "?page=10" is not in this
   * sample, but every page's rows stay together. */
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "Page"), GTK_SORT_ASCENDING);
  cg_test_iterate ();
  {
    g_autoptr(GHashTable) finished_pages = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 1; i < n; i++)
      {
        const char *before = row_record (rows, i - 1)->url;
        const char *url = row_record (rows, i)->url;

        if (!g_str_equal (before, url))
          {
            g_assert_false (g_hash_table_contains (finished_pages, url));
            g_hash_table_add (finished_pages, (gpointer) before);
          }
      }
    g_assert_cmpuint (g_hash_table_size (finished_pages), ==, N_CATEGORY_PAGES - 1);
  }

  gtk_window_destroy (window);
  cg_test_iterate ();
}

typedef struct {
  const char *text;
  gboolean    changed;
} Search;

static void
search_changed_cb (GtkSearchEntry *entry,
                   Search         *search)
{
  /* Replacing the text empties the entry first, which the entry reports
   * at once; the search for the new text follows. */
  if (g_str_equal (gtk_editable_get_text (GTK_EDITABLE (entry)), search->text))
    search->changed = TRUE;
}

/* Types @text into the search entry as a person does, and waits for the
 * entry to take it (it waits for a pause in typing). */
static void
type_search (CgRecordsTable *table,
             const char     *text)
{
  GtkWidget *entry = cg_test_find_widget (GTK_WIDGET (table), GTK_TYPE_SEARCH_ENTRY, NULL);
  Search search = { text, FALSE };
  gulong id = g_signal_connect (entry, "search-changed", G_CALLBACK (search_changed_cb), &search);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  cg_test_wait_for_flag (&search.changed, "the search entry to take the text");
  g_signal_handler_disconnect (entry, id);
  cg_test_iterate ();
}

static guint
count_matches (const char *needle)
{
  g_autofree char *folded = g_utf8_casefold (needle, -1);
  guint n = 0;

  for (guint i = 0; i < site.records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (site.records, i);
      gboolean match = FALSE;

      for (guint k = 0; record->values[k] != NULL && !match; k++)
        {
          g_autofree char *value = g_utf8_casefold (record->values[k], -1);

          match = strstr (value, folded) != NULL;
        }
      n += match;
    }
  return n;
}

static void
test_search (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GListModel *rows = cg_records_table_get_rows (table);
  const CgRecord *first = g_ptr_array_index (site.records, 0);
  const char *author = cg_record_get (first, "author");
  g_autofree char *upper = g_utf8_strup (author, -1);
  guint expected = count_matches (author);

  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, site.records->len);

  type_search (table, author);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, expected);
  for (guint i = 0; i < expected; i++)
    g_assert_nonnull (strstr (cg_record_get (row_record (rows, i), "author"), author));

  /* Case does not matter. */
  type_search (table, upper);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, expected);

  /* The page's address is searched too. */
  type_search (table, "page=2");
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    g_assert_nonnull (strstr (row_record (rows, i)->url, "page=2"));

  type_search (table, "no book has this in any field");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  g_assert_cmpstr (visible_child_name_of (GTK_WIDGET (cg_records_table_get_column_view (table))), ==, "no-match");
  /* Nothing to export. */
  g_assert_false (gtk_widget_is_sensitive (cg_test_find_widget (GTK_WIDGET (table), GTK_TYPE_MENU_BUTTON, NULL)));

  type_search (table, "");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, site.records->len);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static guint
export (CgRecordsTable  *table,
        const char      *path,
        CgExportFormat   format,
        GCancellable    *cancellable,
        GError         **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;

  cg_records_table_export_async (table, file, format, cancellable, cg_test_store_result, &result);
  cg_test_wait_for_result (&result, "the export to finish");
  return cg_records_table_export_finish (table, result, error);
}

/* The shown rows, as "url#position". */
static GPtrArray *
shown_keys (CgRecordsTable *table)
{
  GListModel *rows = cg_records_table_get_rows (table);
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      const CgRecord *record = row_record (rows, i);

      g_ptr_array_add (keys, g_strdup_printf ("%s#%u", record->url, record->position));
    }
  return keys;
}

static const CgRecord *
find_record (const char *url,
             guint       position)
{
  for (guint i = 0; i < site.records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (site.records, i);

      if (g_str_equal (record->url, url) && record->position == position)
        return record;
    }
  return NULL;
}

/* A CSV line split on commas, honouring RFC 4180 quotes. */
static GPtrArray *
split_csv (const char *line)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  GString *cell = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (cell, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (cells, g_string_free (cell, FALSE));
          cell = g_string_new (NULL);
        }
      else
        g_string_append_c (cell, *p);
    }
  g_ptr_array_add (cells, g_string_free (cell, FALSE));
  return cells;
}

static void
test_export (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GtkColumnView *column_view = cg_records_table_get_column_view (table);
  g_autofree char *csv_path = g_build_filename (site.dir, "records.csv", NULL);
  g_autofree char *jsonl_path = g_build_filename (site.dir, "records.jsonl", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *jsonl = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GError) error = NULL;
  guint written;

  /* What is shown is what is written: a search and a sort. */
  type_search (table, "Paperback");
  gtk_column_view_sort_by_column (column_view, find_column (column_view, "price"), GTK_SORT_DESCENDING);
  cg_test_iterate ();
  keys = shown_keys (table);
  g_assert_cmpuint (keys->len, ==, count_matches ("Paperback"));
  g_assert_cmpuint (keys->len, <, site.records->len);

  written = export (table, csv_path, CG_EXPORT_CSV, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, keys->len);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "url,region,position,title,author,format,year,price,was_price,badge");
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr(GPtrArray) cells = split_csv (lines[i + 1]);
      g_autofree char *key = NULL;
      const CgRecord *record;

      g_assert_cmpuint (cells->len, ==, 10);
      key = g_strdup_printf ("%s#%s", (char *) cells->pdata[0], (char *) cells->pdata[2]);
      g_assert_cmpstr (key, ==, keys->pdata[i]);
      g_assert_cmpstr (cells->pdata[1], ==, region_xpath);
      record = find_record (cells->pdata[0], (guint) atoi (cells->pdata[2]));
      g_assert_nonnull (record);
      for (guint k = 0; fields[k] != NULL; k++)
        g_assert_cmpstr (cells->pdata[3 + k], ==, cg_record_get (record, fields[k]));
    }
  g_assert_cmpstr (lines[keys->len + 1], ==, "");
  g_assert_null (lines[keys->len + 2]);
  g_clear_pointer (&lines, g_strfreev);

  written = export (table, jsonl_path, CG_EXPORT_JSONL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, keys->len);
  g_assert_true (g_file_get_contents (jsonl_path, &jsonl, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (jsonl, "\n", -1);
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;
      const CgRecord *record;
      g_autofree char *key = NULL;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      g_assert_no_error (error);
      object = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpuint (json_object_get_size (object), ==, 10);
      /* The position is a number, the rest strings. */
      g_assert_cmpint (json_node_get_value_type (json_object_get_member (object, "position")), ==, G_TYPE_INT64);
      key = g_strdup_printf ("%s#%" G_GINT64_FORMAT, json_object_get_string_member (object, "url"),
                             json_object_get_int_member (object, "position"));
      g_assert_cmpstr (key, ==, keys->pdata[i]);
      g_assert_cmpstr (json_object_get_string_member (object, "region"), ==, region_xpath);
      record = find_record (json_object_get_string_member (object, "url"),
                            (guint) json_object_get_int_member (object, "position"));
      for (guint k = 0; fields[k] != NULL; k++)
        g_assert_cmpstr (json_object_get_string_member (object, fields[k]), ==, cg_record_get (record, fields[k]));
    }
  g_assert_cmpstr (lines[keys->len], ==, "");

  /* A cancelled export leaves the file it would have replaced as it was. */
  {
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autofree char *after = NULL;

    g_cancellable_cancel (cancellable);
    written = export (table, csv_path, CG_EXPORT_JSONL, cancellable, &error);
    g_assert_cmpuint (written, ==, 0);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_true (g_file_get_contents (csv_path, &after, NULL, NULL));
    g_assert_cmpstr (after, ==, csv);
  }

  /* A folder that does not exist: the error names the file. */
  {
    g_autofree char *bad = g_build_filename (site.dir, "no-such-folder", "records.csv", NULL);

    written = export (table, bad, CG_EXPORT_CSV, NULL, &error);
    g_assert_cmpuint (written, ==, 0);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "records.csv"));
    g_assert_true (g_str_has_prefix (error->message, "Could not export the records to"));
    g_clear_error (&error);
  }

  /* Formats a table cannot be written as, and nothing to write. */
  written = export (table, csv_path, CG_EXPORT_GRAPHML, NULL, &error);
  g_assert_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT);
  g_clear_error (&error);
  type_search (table, "no book has this in any field");
  written = export (table, csv_path, CG_EXPORT_CSV, NULL, &error);
  g_assert_cmpuint (written, ==, 0);
  g_assert_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY);
  g_clear_error (&error);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* Fields named like the export's own columns get a prefix, so that no
 * value is lost in a JSON object. */
static void
test_export_names (void)
{
  CgRecordsTable *table = CG_RECORDS_TABLE (g_object_ref_sink (cg_records_table_new ()));
  const char *columns[] = { "url", "position", "field_url", NULL };
  const char *values[] = { "http://127.0.0.1/linked", "third", "taken", NULL };
  g_autoptr(CgRecord) record = cg_record_new ("/html/body/ul", 7, columns, values);
  g_autoptr(GPtrArray) records = g_ptr_array_new ();
  g_autofree char *path = g_build_filename (site.dir, "names.jsonl", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  record->url = g_strdup ("http://127.0.0.1/page");
  g_ptr_array_add (records, record);
  cg_records_table_set_records (table, NULL, records);
  g_assert_cmpuint (export (table, path, CG_EXPORT_JSONL, NULL, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_object_get_size (object), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==, "http://127.0.0.1/page");
  g_assert_cmpint (json_object_get_int_member (object, "position"), ==, 7);
  g_assert_cmpstr (json_object_get_string_member (object, "field_url"), ==, "http://127.0.0.1/linked");
  g_assert_cmpstr (json_object_get_string_member (object, "field_position"), ==, "third");
  g_assert_cmpstr (json_object_get_string_member (object, "field_field_url"), ==, "taken");
  g_object_unref (table);
}

static void
class_renamed_cb (CgClassView *view,
                  const char  *name,
                  const char  *label,
                  GPtrArray   *calls)
{
  g_ptr_array_add (calls, g_strdup_printf ("%s=%s", name, label));
}

static gboolean
toast_cb (CgClassView *view,
          const char  *message,
          GPtrArray   *toasts)
{
  g_ptr_array_add (toasts, g_strdup (message));
  return TRUE;
}

static void
test_rename (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) toasts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CgSiteModel) stored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *long_label = NULL;
  GtkWidget *button = cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_MENU_BUTTON, NULL);
  GtkWidget *entry;

  g_signal_connect (view, "class-renamed", G_CALLBACK (class_renamed_cb), calls);
  g_signal_connect (view, "toast", G_CALLBACK (toast_cb), toasts);

  /* As a person does it: open the popover, type, press Rename. */
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  cg_test_iterate ();
  entry = cg_test_find_widget (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))), GTK_TYPE_ENTRY, NULL);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "Category");
  gtk_editable_set_text (GTK_EDITABLE (entry), "  Book lists ");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (entry), "class.rename", NULL));
  cg_test_iterate ();

  g_assert_cmpuint (calls->len, ==, 1);
  g_assert_cmpstr (calls->pdata[0], ==, "category=Book lists");
  g_assert_cmpuint (toasts->len, ==, 0);
  g_assert_cmpstr (cg_site_model_get_class (site.model, "category")->label, ==, "Book lists");
  stored = cg_site_model_load (cg_project_get_store (site.project), cg_site_model_get_site (site.model),
                               cg_site_model_get_version (site.model), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_class (stored, "category")->label, ==, "Book lists");
  g_clear_object (&stored);

  /* Bad names: an error for the user, nothing changed. */
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  cg_test_iterate ();
  gtk_editable_set_text (GTK_EDITABLE (entry), "   ");
  gtk_widget_activate_action (GTK_WIDGET (entry), "class.rename", NULL);
  g_assert_cmpuint (toasts->len, ==, 1);
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  long_label = g_strnfill (CG_CLASS_VIEW_MAX_LABEL_LENGTH + 1, 'x');
  g_assert_false (cg_class_view_rename (view, long_label, &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpuint (calls->len, ==, 1);
  stored = cg_site_model_load (cg_project_get_store (site.project), cg_site_model_get_site (site.model),
                               cg_site_model_get_version (site.model), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_class (stored, "category")->label, ==, "Book lists");

  /* Back to the name the other tests expect. */
  g_assert_true (cg_class_view_rename (view, "Category", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (calls->len, ==, 2);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_thumbnails (void)
{
  GtkWindow *window;
  CgClassView *view;
  GtkFlowBox *samples;
  g_autofree char *missing = thumbnail_path ("category", N_THUMBNAILS + 1);
  g_autofree char *garbage = thumbnail_path ("category", 2);
  g_autofree char *saved = NULL;
  gsize saved_length;

  /* One child per sample file, with its picture and the page's address. */
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  view = show_view (&window, "category");
  samples = cg_class_view_get_samples (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (samples)));
  g_assert_cmpuint (cg_test_count_children (GTK_WIDGET (samples)), ==, N_CATEGORY_PAGES);
  for (guint i = 0; i < N_CATEGORY_PAGES; i++)
    {
      GtkWidget *child = GTK_WIDGET (gtk_flow_box_get_child_at_index (samples, i));
      GtkWidget *picture = cg_test_find_widget (child, GTK_TYPE_PICTURE, NULL);

      g_assert_true (gtk_widget_get_focusable (child));
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (child), g_ptr_array_index (site.category_urls, i)));
      if (i < N_THUMBNAILS)
        {
          g_assert_nonnull (picture);
          GdkPaintable *paintable = gtk_picture_get_paintable (GTK_PICTURE (picture));

          /* Scaled to the strip's width, its proportions kept. */
          g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, CG_CLASS_VIEW_THUMBNAIL_WIDTH);
          g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, CG_CLASS_VIEW_THUMBNAIL_WIDTH * 200 / 320);
        }
      else
        /* The last sample has no file: a placeholder, not a crash. */
        g_assert_null (picture);
    }
  /* The strip scrolls: the view can be narrow (a window on half a small
   * screen). The hidden "no sample" label once held it as wide as its
   * whole text on one line, over 900 pixels. */
  {
    int minimum;

    gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
    g_assert_cmpint (minimum, <=, 360);
  }
  gtk_window_destroy (window);
  cg_test_iterate ();

  /* A file that is not an image. */
  g_assert_true (g_file_get_contents (garbage, &saved, &saved_length, NULL));
  g_assert_true (g_file_set_contents (garbage, "not a PNG", -1, NULL));
  view = show_view (&window, "category");
  samples = cg_class_view_get_samples (view);
  g_assert_cmpuint (cg_test_count_children (GTK_WIDGET (samples)), ==, N_CATEGORY_PAGES);
  g_assert_null (cg_test_find_widget (GTK_WIDGET (gtk_flow_box_get_child_at_index (samples, 1)), GTK_TYPE_PICTURE, NULL));
  g_assert_nonnull (cg_test_find_widget (GTK_WIDGET (gtk_flow_box_get_child_at_index (samples, 0)), GTK_TYPE_PICTURE, NULL));
  gtk_window_destroy (window);
  cg_test_iterate ();
  g_assert_true (g_file_set_contents (garbage, saved, saved_length, NULL));

  /* A class none of whose thumbnails were rendered. */
  view = show_view (&window, "book");
  samples = cg_class_view_get_samples (view);
  g_assert_cmpuint (cg_test_count_children (GTK_WIDGET (samples)), ==, N_BOOK_PAGES);
  g_assert_null (cg_test_find_widget (GTK_WIDGET (samples), GTK_TYPE_PICTURE, NULL));
  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_empty (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "book");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GtkWidget *status;

  /* No records: the empty state says how to get some. */
  g_assert_cmpuint (cg_records_table_get_n_records (table), ==, 0);
  g_assert_cmpstr (visible_child_name_of (GTK_WIDGET (cg_records_table_get_column_view (table))), ==, "empty");
  status = gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (cg_records_table_get_column_view (table))))));
  g_assert_true (ADW_IS_STATUS_PAGE (status));
  /* … with the window's own action, not a command line. */
  g_assert_null (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), "cartograph-cli"));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (adw_status_page_get_child (ADW_STATUS_PAGE (status)))),
                   ==, "project.extract-records");
  g_assert_false (gtk_widget_is_sensitive (cg_test_find_widget (GTK_WIDGET (table), GTK_TYPE_SEARCH_ENTRY, NULL)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (cg_records_table_get_column_view (table))), ==, 2);

  /* From a class with records to one with none, and back. */
  cg_class_view_set_class (view, site.project, site.model, "category");
  g_assert_cmpuint (cg_records_table_get_n_records (table), ==, site.records->len);
  cg_class_view_set_class (view, site.project, site.model, "book");
  g_assert_cmpuint (cg_records_table_get_n_records (table), ==, 0);

  /* A class the model lacks, and none. */
  cg_class_view_set_class (view, site.project, site.model, "no-such-class");
  g_assert_true (ADW_IS_STATUS_PAGE (gtk_stack_get_visible_child (GTK_STACK (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_STACK, NULL)))));
  cg_class_view_set_class (view, NULL, NULL, NULL);
  g_assert_null (cg_class_view_get_project (view));
  g_assert_true (ADW_IS_STATUS_PAGE (gtk_stack_get_visible_child (GTK_STACK (cg_test_find_widget (GTK_WIDGET (view), GTK_TYPE_STACK, NULL)))));

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* A damaged wrapper definition is reported, and the records still show. */
static void
test_bad_wrapper (void)
{
  /* The store refuses what is not JSON at all; these are JSON of the
   * wrong shape. */
  const char *bad[] = {
    "[1, 2]",
    "{\"kind\": \"list\"}",
    "{\"kind\": \"list\", \"regions\": [{\"xpath\": \"/html\", \"record\": \"li\", \"columns\": [{\"name\": 3}]}]}",
    /* Well-formed, but its region's XPath does not compile. */
    "{\"kind\": \"list\", \"regions\": [{\"xpath\": \"/html[\", \"record\": \"li\", "
    "\"columns\": [{\"name\": \"a\", \"xpath\": \"span\", \"kind\": \"text\"}]}]}",
  };
  g_autofree char *good = make_wrapper_json ();
  CgStore *store = cg_project_get_store (site.project);
  gint64 model_id = cg_site_model_get_id (site.model);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GtkWindow *window;
      CgClassView *view;
      CgRecordsTable *table;
      GtkWidget *label;

      g_assert_true (cg_record_store_save_wrapper (store, model_id, "category", CG_WRAPPER_LIST, bad[i], 1, &error));
      g_assert_no_error (error);
      view = show_view (&window, "category");
      table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
      g_assert_cmpuint (cg_records_table_get_n_records (table), ==, site.records->len);
      /* The error is in the wrapper's page, as a label with the error
       * style. */
      label = cg_test_find_with_css_class (GTK_WIDGET (view), GTK_TYPE_LABEL, "error");
      g_assert_nonnull (label);
      g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (label)), "cannot be read"));
      gtk_window_destroy (window);
      cg_test_iterate ();
    }
  g_assert_true (cg_record_store_save_wrapper (store, model_id, "category", CG_WRAPPER_LIST, good, N_CATEGORY_PAGES, &error));
  g_assert_no_error (error);
}

/* The wrapper's page shows what its definition says: each region's
 * XPaths, and each column's XPath and kind. */
static void
test_wrapper_page (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  GtkWidget *row;

  g_assert_null (cg_test_find_with_css_class (GTK_WIDGET (view), GTK_TYPE_LABEL, "error"));
  row = cg_test_find_row (GTK_WIDGET (view), "Region");
  g_assert_nonnull (row);
  g_assert_nonnull (cg_test_find_widget (row, GTK_TYPE_LABEL, region_xpath));
  row = cg_test_find_row (GTK_WIDGET (view), "Record");
  g_assert_nonnull (row);
  g_assert_nonnull (cg_test_find_widget (row, GTK_TYPE_LABEL, "li"));
  for (guint i = 0; fields[i] != NULL; i++)
    {
      g_autofree char *xpath = g_strdup_printf ("div/span[%u]", i + 1);

      row = cg_test_find_row (GTK_WIDGET (view), fields[i]);
      g_assert_nonnull (row);
      g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                       g_str_equal (fields[i], "price") ? "Price" : "Text");
      g_assert_nonnull (cg_test_find_widget (row, GTK_TYPE_LABEL, xpath));
    }
  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* Whether the archived page @user_data shows its error page. */
static gboolean
shows_error (gpointer user_data)
{
  GtkWidget *stack = cg_test_find_widget (user_data, GTK_TYPE_STACK, NULL);

  return g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (stack)), "error") == 0;
}

static void
load_changed_cb (WebKitWebView   *web_view,
                 WebKitLoadEvent  event,
                 gboolean        *finished)
{
  if (event == WEBKIT_LOAD_FINISHED)
    *finished = TRUE;
}

/* The page's own title, from the demo site's answer for it. */
static char *
expected_title (const char *url)
{
  const char *path = strchr (url + strlen ("http://"), '/');
  g_autofree char *query_path = g_strdup (path);
  char *query = strchr (query_path, '?');
  g_autoptr(CgDemoResponse) response = NULL;
  g_autoptr(GRegex) regex = g_regex_new ("<title>([^<]*)</title>", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *html = NULL;

  g_autofree char *title = NULL;
  const char *entities[][2] = { { "&amp;", "&" }, { "&#39;", "'" }, { "&quot;", "\"" }, { "&lt;", "<" }, { "&gt;", ">" } };

  if (query != NULL)
    *query++ = '\0';
  response = cg_demo_site_respond (cg_demo_server_get_site (site.server), "http://127.0.0.1", query_path, query, NULL, NULL);
  html = g_strndup (g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body));
  g_assert_true (g_regex_match (regex, html, 0, &match));
  title = g_match_info_fetch (match, 1);
  /* The entities the demo site's pages use; "&amp;" last. */
  for (int i = G_N_ELEMENTS (entities) - 1; i >= 0; i--)
    {
      g_auto(GStrv) parts = g_strsplit (title, entities[i][0], -1);

      g_free (title);
      title = g_strjoinv (entities[i][1], parts);
    }
  return g_steal_pointer (&title);
}

/* The books' titles of an author page, from the demo site's truth. */
static GPtrArray *
author_titles (const char *url)
{
  CgDemoSite *demo = cg_demo_server_get_site (site.server);
  g_autofree char *base = g_strdup_printf ("http://127.0.0.1:%u", cg_demo_server_get_port (site.server));
  JsonObject *page = cg_demo_site_lookup_page (demo, url + strlen (base));
  JsonArray *truth;
  GPtrArray *titles = g_ptr_array_new ();

  g_assert_nonnull (page);
  truth = json_object_get_array_member (page, "records");
  for (guint i = 0; i < json_array_get_length (truth); i++)
    g_ptr_array_add (titles, (gpointer) json_object_get_string_member (json_array_get_object_element (truth, i), "title"));
  return titles;
}

static gboolean
has_column (CgRecordsTable *table,
            const char     *name)
{
  return g_strv_contains (cg_records_table_get_columns (table), name);
}

/* The demo's author pages hold two regions of records: the author's books
 * and, below them, the paragraphs of the biography. The table shows the
 * books, with their columns, until the biography is chosen. */
static void
test_regions (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "author");
  CgRecordsTable *table = CG_RECORDS_TABLE (cg_class_view_get_records_table (view));
  GtkDropDown *chooser = cg_records_table_get_region_chooser (table);
  GListModel *rows = cg_records_table_get_rows (table);
  CgRecordRegions *regions = cg_records_table_get_regions (table);
  g_autoptr(GHashTable) all_titles = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *csv_path = g_build_filename (site.dir, "biography.csv", NULL);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *entries;
  guint n_books = 0, n_paragraphs;
  g_autofree char *main_tail = NULL;

  /* The books first: each page's, in its order, and nothing else. */
  g_assert_nonnull (regions);
  g_assert_cmpint (cg_records_table_get_region (table), ==, 0);
  g_assert_cmpint (cg_record_regions_get_main (regions), ==, 0);
  for (guint i = 0; i < site.author_urls->len; i++)
    {
      const char *url = g_ptr_array_index (site.author_urls, i);
      g_autoptr(GPtrArray) titles = author_titles (url);
      guint found = 0;

      for (guint j = 0; j < titles->len; j++)
        g_hash_table_add (all_titles, g_ptr_array_index (titles, j));
      for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
        {
          const CgRecord *record = row_record (rows, r);

          if (!g_str_equal (record->url, url))
            continue;
          g_assert_cmpuint (found, <, titles->len);
          g_assert_cmpstr (cg_record_get (record, "title"), ==, g_ptr_array_index (titles, found));
          found++;
        }
      g_assert_cmpuint (found, ==, titles->len);
      n_books += titles->len;
    }
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_books);
  g_assert_true (has_column (table, "title"));
  g_assert_false (has_column (table, "text"));

  /* The chooser shows, names each region by its XPath's end and its count. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chooser)));
  entries = gtk_drop_down_get_model (chooser);
  g_assert_cmpuint (g_list_model_get_n_items (entries), >=, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 0);
  main_tail = cg_record_regions_describe (regions, 0);
  {
    const char *first = gtk_string_list_get_string (GTK_STRING_LIST (entries), 0);
    g_autofree char *count = g_strdup_printf ("(%u records)", n_books);

    g_assert_true (g_str_has_prefix (first, main_tail));
    g_assert_nonnull (strstr (first, count));
    g_assert_true (g_str_has_suffix (cg_record_regions_get_region (regions, 0)->xpath, main_tail));
  }

  /* Choosing the biography: its paragraphs, with its own column only. */
  gtk_drop_down_set_selected (chooser, 1);
  cg_test_iterate ();
  g_assert_cmpint (cg_records_table_get_region (table), ==, 1);
  n_paragraphs = g_list_model_get_n_items (rows);
  g_assert_cmpuint (n_paragraphs, ==, cg_record_regions_get_region (regions, 1)->n_records);
  g_assert_cmpuint (n_paragraphs, >=, site.author_urls->len);
  g_assert_cmpuint (cg_records_table_get_n_records (table), ==, n_paragraphs);
  g_assert_true (has_column (table, "text"));
  g_assert_false (has_column (table, "title"));
  for (guint r = 0; r < n_paragraphs; r++)
    {
      const CgRecord *record = row_record (rows, r);
      const char *text = cg_record_get (record, "text");

      g_assert_nonnull (text);
      g_assert_cmpstr (text, !=, "");
      g_assert_false (g_hash_table_contains (all_titles, text));
      g_assert_null (cg_record_get (record, "title"));
    }

  /* Export writes the region shown. */
  g_assert_cmpuint (export (table, csv_path, CG_EXPORT_CSV, NULL, &error), ==, n_paragraphs);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "url,region,position,text");
  g_assert_cmpuint (g_strv_length (lines), ==, n_paragraphs + 2);  /* the header, the rows, "" */

  /* Reading the records again keeps the region; another class and back
   * starts at the main one. */
  cg_class_view_reload_records (view);
  g_assert_cmpint (cg_records_table_get_region (table), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_paragraphs);
  cg_class_view_set_class (view, site.project, site.model, "category");
  /* One region: no chooser. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (chooser)));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, site.records->len);
  cg_class_view_set_class (view, site.project, site.model, "author");
  g_assert_cmpint (cg_records_table_get_region (table), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_books);
  g_assert_false (cg_records_table_set_region (table, 1000));
  g_assert_cmpint (cg_records_table_get_region (table), ==, 0);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* Activating a thumbnail shows the page from the WARC files: the demo
 * server is stopped first, so nothing can come from it. */
static void
test_archived_page (void)
{
  GtkWindow *window;
  CgClassView *view = show_view (&window, "category");
  CgArchivedPage *page = CG_ARCHIVED_PAGE (cg_class_view_get_archived_page (view));
  GtkFlowBox *samples = cg_class_view_get_samples (view);
  const char *url = g_ptr_array_index (site.category_urls, 1);
  g_autofree char *title = expected_title (url);
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JSCValue) value = NULL;
  g_autofree char *text = NULL;
  gboolean finished = FALSE;
  WebKitWebView *web_view;

  cg_demo_server_stop (site.server);
  g_assert_false (cg_demo_server_is_running (site.server));

  g_signal_emit_by_name (samples, "child-activated", gtk_flow_box_get_child_at_index (samples, 1));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (page)));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page)))), ==, "archived");
  g_assert_cmpstr (cg_archived_page_get_url (page), ==, url);
  web_view = cg_archived_page_get_web_view (page);
  g_assert_nonnull (web_view);
  g_signal_connect (web_view, "load-changed", G_CALLBACK (load_changed_cb), &finished);
  cg_test_wait_for_flag (&finished, "the archived page to load");

  g_assert_cmpstr (webkit_web_view_get_uri (web_view), ==, url);
  g_assert_cmpstr (webkit_web_view_get_title (web_view), ==, title);
  /* The records are on it: the first record's title is in its text. */
  webkit_web_view_evaluate_javascript (web_view, "document.body.innerText", -1, NULL, NULL, NULL, cg_test_store_result, &result);
  cg_test_wait_for_result (&result, "the archived page's text");
  value = webkit_web_view_evaluate_javascript_finish (web_view, result, &error);
  g_assert_no_error (error);
  text = jsc_value_to_string (value);
  for (guint i = 0; i < site.records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (site.records, i);

      if (g_str_equal (record->url, url))
        g_assert_nonnull (strstr (text, cg_record_get (record, "title")));
    }

  /* Back to the class. */
  g_signal_emit_by_name (page, "back");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page)))), ==, "class");

  /* A page the archive lacks is refused, and the view stays. */
  g_assert_false (cg_archived_page_load (page, site.project, "http://127.0.0.1:1/never-crawled", &error));
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_cmpstr (cg_archived_page_get_url (page), ==, url);

  /* A page whose WARC file is gone is in the index, but the archive
   * cannot supply it: the error page says so, and why, instead of the
   * archive's plain answer. */
  {
    g_autofree char *warc_dir = cg_project_get_warc_dir (site.project);
    g_autofree char *aside = g_strconcat (warc_dir, "-aside", NULL);
    const char *other = g_ptr_array_index (site.category_urls, 2);
    GtkWidget *status = cg_test_find_widget (GTK_WIDGET (page), ADW_TYPE_STATUS_PAGE, NULL);
    const char *description;

    /* Opened again, the project gets an archive of its own, which has not
     * opened the WARC files yet. */
    g_autoptr(CgProject) again = cg_project_open (cg_project_get_folder (site.project), &error);

    g_assert_no_error (error);
    g_assert_nonnull (status);
    g_assert_cmpint (g_rename (warc_dir, aside), ==, 0);
    g_assert_true (cg_archived_page_load (page, again, other, &error));
    g_assert_no_error (error);
    cg_test_wait_for (shows_error, page, "the archived page's error");
    description = adw_status_page_get_description (ADW_STATUS_PAGE (status));
    g_assert_nonnull (strstr (description, other));
    g_assert_nonnull (strstr (description, "could not be shown from the archive"));
    g_assert_nonnull (strstr (description, "WARC"));
    g_assert_cmpint (g_rename (aside, warc_dir), ==, 0);
  }

  gtk_window_destroy (window);
  cg_test_iterate ();
}

int
main (int argc, char **argv)
{
  g_autoptr(CgTestFolder) home = cg_test_init_app (&argc, &argv, FALSE);
  int status;

  site_set_up ();

  g_test_add_func ("/class-view/records", test_records);
  g_test_add_func ("/class-view/sort", test_sort);
  g_test_add_func ("/class-view/search", test_search);
  g_test_add_func ("/class-view/export", test_export);
  g_test_add_func ("/class-view/export-names", test_export_names);
  g_test_add_func ("/class-view/rename", test_rename);
  g_test_add_func ("/class-view/thumbnails", test_thumbnails);
  g_test_add_func ("/class-view/empty", test_empty);
  g_test_add_func ("/class-view/bad-wrapper", test_bad_wrapper);
  g_test_add_func ("/class-view/wrapper-page", test_wrapper_page);
  g_test_add_func ("/class-view/regions", test_regions);
  /* Last: it stops the demo server. */
  g_test_add_func ("/class-view/archived-page", test_archived_page);

  status = g_test_run ();
  site_tear_down ();
  return status;
}
