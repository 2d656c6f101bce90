/* test-record-store.c: records and wrappers kept in the project's store.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cg-record-store.h"
#include "cg-site-model.h"
#include "cg-test-files.h"

typedef struct {
  char    *dir;
  char    *path;
  CgStore *store;
  gint64   model_id;
  gint64   page_a;
  gint64   page_b;
} Fixture;

static gint64
insert_url (CgStore *store, const char *url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                   "INSERT INTO urls (crawl_id, host_id, url, depth, discovered_at) "
                                                   "VALUES (1, 1, ?1, 0, 0)",
                                                   &error);
  g_assert_no_error (error);
  sqlite3_bind_text (stmt, 1, url, -1, SQLITE_STATIC);
  g_assert_true (cg_store_step_done (store, stmt, &error));
  g_assert_no_error (error);
  return sqlite3_last_insert_rowid (cg_store_get_db (store));
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = cg_site_model_new ("http://127.0.0.1/");

  f->dir = cg_test_folder_new ("cg-record-store-XXXXXX");
  f->path = g_build_filename (f->dir, "test.db", NULL);
  f->store = cg_store_create (f->path, &error);
  g_assert_no_error (error);

  g_assert_true (cg_store_exec (f->store,
                                "INSERT INTO crawls (id, kind, seed_url, created_at) VALUES (1, 'crawl', 'http://127.0.0.1/', 0);"
                                "INSERT INTO hosts (id, crawl_id, host_key) VALUES (1, 1, '127.0.0.1');",
                                &error));
  g_assert_no_error (error);
  f->page_b = insert_url (f->store, "http://127.0.0.1/list?page=2");
  f->page_a = insert_url (f->store, "http://127.0.0.1/list");

  cg_site_model_add_class (model, "list", "List");
  cg_site_model_set_entry_class (model, "list");
  g_assert_true (cg_site_model_save (model, f->store, &error));
  g_assert_no_error (error);
  f->model_id = cg_site_model_get_id (model);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->store);
  cg_test_folder_remove (f->dir);
  g_free (f->path);
}

static GPtrArray *
make_records (const char *first_title, guint n)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  const char *columns[] = { "title", "price", "link", NULL };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_strdup_printf ("%s %u", first_title, i);
      g_autofree char *price = g_strdup_printf ("£%u.99", i + 3);
      const char *values[] = { title, price, i % 2 == 0 ? "" : "/book/x", NULL };

      g_ptr_array_add (records, cg_record_new ("/html/body/main/ul", i, columns, values));
    }
  return records;
}

static void
test_replace_and_list (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) first = make_records ("Alpha", 3);
  g_autoptr(GPtrArray) second = make_records ("Beta", 2);
  g_autoptr(GPtrArray) again = make_records ("Gamma", 1);
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GHashTable) counts = NULL;
  CgRecord *record;

  g_assert_true (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_b, second, &error));
  g_assert_no_error (error);
  g_assert_true (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_a, first, &error));
  g_assert_no_error (error);

  listed = cg_record_store_list (f->store, f->model_id, "list", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 5);
  /* Ordered by page URL, then position. */
  record = g_ptr_array_index (listed, 0);
  g_assert_cmpstr (record->url, ==, "http://127.0.0.1/list");
  g_assert_cmpstr (record->class_name, ==, "list");
  g_assert_cmpstr (record->region, ==, "/html/body/main/ul");
  g_assert_cmpuint (record->position, ==, 0);
  g_assert_cmpstr (cg_record_get (record, "title"), ==, "Alpha 0");
  g_assert_cmpstr (cg_record_get (record, "link"), ==, "");
  g_assert_null (cg_record_get (record, "author"));
  /* Columns come back in the order they were stored. */
  g_assert_cmpstr (record->columns[0], ==, "title");
  g_assert_cmpstr (record->columns[1], ==, "price");
  g_assert_cmpstr (record->columns[2], ==, "link");
  record = g_ptr_array_index (listed, 4);
  g_assert_cmpstr (record->url, ==, "http://127.0.0.1/list?page=2");
  g_assert_cmpstr (cg_record_get (record, "price"), ==, "£4.99");

  /* Replacing a page's records drops its old ones only. */
  g_assert_true (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_a, again, &error));
  g_assert_no_error (error);
  counts = cg_record_store_count_by_class (f->store, f->model_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "list")), ==, 3);

  g_assert_true (cg_record_store_clear (f->store, f->model_id, "other", &error));
  g_assert_no_error (error);
  g_clear_pointer (&listed, g_ptr_array_unref);
  listed = cg_record_store_list (f->store, f->model_id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 3);
  /* All classes together: what is left once "other" is cleared. */
  g_assert_cmpint (cg_record_store_count (f->store, f->model_id, &error), ==, 3);
  g_assert_no_error (error);
  g_assert_cmpint (cg_record_store_count (f->store, f->model_id + 1, &error), ==, 0);
  g_assert_no_error (error);

  g_assert_true (cg_record_store_clear (f->store, f->model_id, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&listed, g_ptr_array_unref);
  listed = cg_record_store_list (f->store, f->model_id, "list", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 0);
}

static void
test_bad_records_keep_old (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) good = make_records ("Alpha", 2);
  g_autoptr(GPtrArray) bad = make_records ("Beta", 2);
  g_autoptr(GPtrArray) listed = NULL;
  CgRecord *broken;

  g_assert_true (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_a, good, &error));
  g_assert_no_error (error);

  /* A column given twice is refused and names the column. */
  broken = g_ptr_array_index (bad, 1);
  g_free (broken->columns[1]);
  broken->columns[1] = g_strdup ("title");
  g_assert_false (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_a, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "title"));
  g_clear_error (&error);

  /* As is a record with more columns than values. */
  g_free (broken->columns[1]);
  broken->columns[1] = g_strdup ("price");
  g_free (broken->values[2]);
  broken->values[2] = NULL;
  g_assert_false (cg_record_store_replace_page (f->store, f->model_id, "list", f->page_a, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  listed = cg_record_store_list (f->store, f->model_id, "list", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 2);
  g_assert_cmpstr (cg_record_get (g_ptr_array_index (listed, 1), "title"), ==, "Alpha 1");
}

static void
test_wrappers (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgStoredWrapper) wrapper = NULL;
  g_autoptr(GPtrArray) wrappers = NULL;

  wrapper = cg_record_store_load_wrapper (f->store, f->model_id, "list", &error);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND);
  g_assert_null (wrapper);
  g_clear_error (&error);

  g_assert_true (cg_record_store_save_wrapper (f->store, f->model_id, "list", CG_WRAPPER_LIST,
                                               "{\"region\":\"/html/body/ul\"}", 4, &error));
  g_assert_no_error (error);
  /* Saving again replaces. */
  g_assert_true (cg_record_store_save_wrapper (f->store, f->model_id, "list", CG_WRAPPER_DETAIL,
                                               "{\"fields\":[]}", 5, &error));
  g_assert_no_error (error);
  /* Not JSON: refused, and the stored one stays. */
  g_assert_false (cg_record_store_save_wrapper (f->store, f->model_id, "list", CG_WRAPPER_LIST,
                                                "{\"region\":", 5, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "list"));
  g_clear_error (&error);

  wrapper = cg_record_store_load_wrapper (f->store, f->model_id, "list", &error);
  g_assert_no_error (error);
  g_assert_cmpint (wrapper->kind, ==, CG_WRAPPER_DETAIL);
  g_assert_cmpstr (wrapper->definition, ==, "{\"fields\":[]}");
  g_assert_cmpuint (wrapper->n_pages, ==, 5);
  g_assert_cmpint (wrapper->created_at, >, 0);

  wrappers = cg_record_store_list_wrappers (f->store, f->model_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wrappers->len, ==, 1);
}

static void
test_kind_names (void)
{
  CgWrapperKind kind;

  g_assert_true (cg_wrapper_kind_from_string ("detail", &kind));
  g_assert_cmpint (kind, ==, CG_WRAPPER_DETAIL);
  g_assert_cmpstr (cg_wrapper_kind_to_string (CG_WRAPPER_LIST), ==, "list");
  g_assert_false (cg_wrapper_kind_from_string ("table", &kind));
  g_assert_false (cg_wrapper_kind_from_string (NULL, &kind));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/record-store/replace-and-list", Fixture, NULL,
              fixture_set_up, test_replace_and_list, fixture_tear_down);
  g_test_add ("/record-store/bad-records-keep-old", Fixture, NULL,
              fixture_set_up, test_bad_records_keep_old, fixture_tear_down);
  g_test_add ("/record-store/wrappers", Fixture, NULL,
              fixture_set_up, test_wrappers, fixture_tear_down);
  g_test_add_func ("/record-store/kind-names", test_kind_names);

  return g_test_run ();
}
