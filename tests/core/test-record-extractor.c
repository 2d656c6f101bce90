/* test-record-extractor.c: wrappers learned and records extracted for a project crawled from the demo site.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>

#include "cg-demo-server.h"
#include "cg-links.h"
#include "cg-record-extractor.h"
#include "cg-record-metrics.h"
#include "cg-record-store.h"
#include "cg-site-explorer.h"
#include "cg-test-files.h"

typedef struct {
  char           *dir;
  CgDemoServer   *server;
  char           *base;
  CgProject      *project;
  CgSiteModel    *model;
  GMainLoop      *loop;
  GError         *crawl_error;
} Fixture;

static void
finished_cb (CgSiteExplorer *explorer,
             const GError   *error,
             Fixture        *f)
{
  if (error != NULL)
    f->crawl_error = g_error_copy (error);
  g_main_loop_quit (f->loop);
}

/* A project explored from the demo site served in process, with the real
 * crawler, as `cartograph-cli model` does (without renders: learning
 * falls back to the archived samples). */
static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autofree char *folder = NULL;
  CgLearnerParams params;

  f->dir = cg_test_folder_new ("cg-record-extractor-XXXXXX");
  f->server = cg_demo_server_new ();
  g_assert_true (cg_demo_server_start (f->server, 0, &error));
  g_assert_no_error (error);
  f->base = cg_demo_server_get_url (f->server);

  folder = g_build_filename (f->dir, "project", NULL);
  f->project = cg_project_create (folder, "demo", &error);
  g_assert_no_error (error);
  g_strfreev (config->seeds);
  config->seeds = g_strdupv ((char *[]) { f->base, NULL });
  cg_crawl_config_disable_politeness (config);
  cg_learner_params_init (&params);
  params.max_pages = 150;
  explorer = cg_site_explorer_new (f->project, config, &params, &error);
  g_assert_no_error (error);
  f->loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), f);
  cg_site_explorer_start (explorer);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->crawl_error);
  f->model = g_object_ref (cg_site_explorer_get_model (explorer));
  g_assert_cmpint (cg_site_model_get_id (f->model), >, 0);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->model);
  g_clear_object (&f->project);
  cg_demo_server_stop (f->server);
  g_clear_object (&f->server);
  g_clear_pointer (&f->loop, g_main_loop_unref);
  g_free (f->base);
  cg_test_folder_remove (f->dir);
}

/* The demo site's class of a model class, from its first sample. */
static const char *
truth_class (Fixture     *f,
             CgPageClass *klass)
{
  JsonObject *page;

  g_assert_nonnull (klass->samples[0]);
  g_assert_true (g_str_has_prefix (klass->samples[0], f->base));
  page = cg_demo_site_lookup_page (cg_demo_server_get_site (f->server), klass->samples[0] + strlen (f->base) - 1);
  g_assert_nonnull (page);
  return json_object_get_string_member (page, "class");
}

typedef struct {
  GHashTable *done;    /* class → pages done */
  GHashTable *total;   /* class → pages */
  guint       calls;
} Progress;

static void
progress_cb (const char *class_name,
             guint       pages_done,
             guint       pages_total,
             guint       n_records,
             gpointer    user_data)
{
  Progress *progress = user_data;

  g_assert_cmpuint (pages_done, <=, pages_total);
  g_hash_table_replace (progress->done, g_strdup (class_name), GUINT_TO_POINTER (pages_done));
  g_hash_table_replace (progress->total, g_strdup (class_name), GUINT_TO_POINTER (pages_total));
  progress->calls++;
}

static guint
count_labelled (Fixture    *f,
                const char *class_name)
{
  CgStore *store = cg_project_get_store (f->project);
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                   "SELECT count(*) FROM page_labels WHERE model_id = ?1 AND class = ?2",
                                                   &error);

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, cg_site_model_get_id (f->model));
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return (guint) sqlite3_column_int (stmt, 0);
}

static int
compare_positions_cb (gconstpointer a,
                      gconstpointer b)
{
  const CgRecord *ra = *(CgRecord * const *) a;
  const CgRecord *rb = *(CgRecord * const *) b;

  return (int) ra->position - (int) rb->position;
}

/* The records of one page, grouped by URL, in position order. */
static GHashTable *
records_by_page (GPtrArray *records)
{
  GHashTable *pages = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < records->len; i++)
    {
      CgRecord *record = g_ptr_array_index (records, i);
      GPtrArray *page = g_hash_table_lookup (pages, record->url);

      if (page == NULL)
        {
          page = g_ptr_array_new ();
          g_hash_table_insert (pages, record->url, page);
        }
      g_ptr_array_add (page, record);
    }
  {
    GHashTableIter iter;
    gpointer page;

    g_hash_table_iter_init (&iter, pages);
    while (g_hash_table_iter_next (&iter, NULL, &page))
      g_ptr_array_sort (page, compare_positions_cb);
  }
  return pages;
}

static void
test_extract_all (Fixture       *f,
                  gconstpointer  data)
{
  CgStore *store = cg_project_get_store (f->project);
  gint64 model_id = cg_site_model_get_id (f->model);
  GPtrArray *classes = cg_site_model_get_classes (f->model);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) counts = NULL;
  Progress progress = { 0 };
  CgDemoSite *site = cg_demo_server_get_site (f->server);
  gboolean saw_list = FALSE, saw_detail = FALSE;

  progress.done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  progress.total = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_assert_true (cg_record_extractor_run (f->project, f->model, NULL, NULL, progress_cb, NULL, &progress, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (progress.calls, >, 0);
  counts = cg_record_store_count_by_class (store, model_id, &error);
  g_assert_no_error (error);

  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      const char *truth = truth_class (f, klass);
      g_autoptr(CgStoredWrapper) wrapper = cg_record_store_load_wrapper (store, model_id, klass->name, NULL);
      g_autoptr(GPtrArray) records = NULL;
      g_autoptr(GHashTable) pages = NULL;
      GHashTableIter iter;
      gpointer url, page_records;
      CgRecordScore total;
      guint labelled = count_labelled (f, klass->name);

      if (g_str_equal (truth, CG_DEMO_CLASS_STATIC))
        continue;
      g_assert_nonnull (wrapper);
      g_assert_cmpuint (wrapper->n_pages, ==, MIN (g_strv_length (klass->samples), CG_WRAPPER_DEFAULT_PAGES));
      /* Every labelled page of the class was visited. */
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (progress.total, klass->name)), ==, labelled);
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (progress.done, klass->name)), ==, labelled);

      records = cg_record_store_list (store, model_id, klass->name, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (records->len, ==, GPOINTER_TO_UINT (g_hash_table_lookup (counts, klass->name)));
      pages = records_by_page (records);
      g_assert_cmpuint (g_hash_table_size (pages), ==, labelled);

      cg_record_score_init (&total);
      g_hash_table_iter_init (&iter, pages);
      while (g_hash_table_iter_next (&iter, &url, &page_records))
        {
          GPtrArray *list = page_records;
          JsonObject *page;
          const char *main_region = ((CgRecord *) g_ptr_array_index (list, 0))->region;

          g_assert_true (g_str_has_prefix (url, f->base));
          page = cg_demo_site_lookup_page (site, (const char *) url + strlen (f->base) - 1);
          g_assert_nonnull (page);
          g_assert_cmpstr (json_object_get_string_member (page, "class"), ==, truth);
          for (guint i = 0; i < list->len; i++)
            {
              CgRecord *record = g_ptr_array_index (list, i);

              g_assert_cmpstr (record->class_name, ==, klass->name);
              g_assert_true (g_str_has_prefix (record->region, "/html[1]"));
              g_assert_cmpuint (record->position, ==, i);
              g_assert_cmpint (record->url_id, >, 0);
            }

          if (wrapper->kind == CG_WRAPPER_DETAIL)
            {
              JsonObject *item = json_object_get_object_member (page, "item");
              CgRecord *record = g_ptr_array_index (list, 0);

              g_assert_cmpuint (list->len, ==, 1);
              g_assert_cmpstr (cg_record_get (record, "title"), ==, json_object_get_string_member (item, "title"));
              g_assert_cmpstr (cg_record_get (record, "publisher"), ==, json_object_get_string_member (item, "publisher"));
            }
          else
            {
              JsonArray *truth_records = json_object_get_array_member (page, "records");
              g_autoptr(GPtrArray) actual = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
              g_autoptr(GPtrArray) extracted = g_ptr_array_new ();
              g_autoptr(GArray) matches = NULL;
              CgRecordScore score;

              for (guint r = 0; r < json_array_get_length (truth_records); r++)
                {
                  JsonObject *record = json_array_get_object_element (truth_records, r);
                  g_autoptr(GList) members = json_object_get_members (record);
                  GStrvBuilder *builder = g_strv_builder_new ();

                  for (GList *m = members; m != NULL; m = m->next)
                    g_strv_builder_add (builder, json_object_get_string_member (record, m->data));
                  g_ptr_array_add (actual, g_strv_builder_end (builder));
                  g_strv_builder_unref (builder);
                }
              /* The wrapper's top-ranked region comes first in the page. */
              for (guint i = 0; i < list->len; i++)
                if (g_str_equal (((CgRecord *) g_ptr_array_index (list, i))->region, main_region))
                  g_ptr_array_add (extracted, ((CgRecord *) g_ptr_array_index (list, i))->values);
              matches = cg_record_metrics_align (actual, extracted, NULL, &score);
              cg_record_score_add (&total, &score);
            }
        }
      if (wrapper->kind == CG_WRAPPER_DETAIL)
        {
          g_assert_cmpstr (truth, ==, CG_DEMO_CLASS_BOOK);
          saw_detail = TRUE;
        }
      else
        {
          g_test_message ("%s (%s): %u pages, %u records, F1 %.4f", klass->name, truth,
                          labelled, total.n_actual, total.f1_correct);
          g_assert_cmpstr (truth, !=, CG_DEMO_CLASS_BOOK);
          g_assert_cmpfloat (total.f1_correct, >=, 0.99);
          saw_list = TRUE;
        }
    }
  g_assert_true (saw_list);
  g_assert_true (saw_detail);
  g_hash_table_unref (progress.done);
  g_hash_table_unref (progress.total);
}

/* One page at a time, as the harvester does with the pages it fetches. */
static void
test_extract_page (Fixture       *f,
                   gconstpointer  data)
{
  CgStore *store = cg_project_get_store (f->project);
  gint64 model_id = cg_site_model_get_id (f->model);
  GPtrArray *classes = cg_site_model_get_classes (f->model);
  g_autoptr(GError) error = NULL;
  gboolean replaced = FALSE;

  g_assert_true (cg_record_extractor_learn (f->project, f->model, NULL, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      g_autoptr(CgDemoResponse) response = NULL;
      g_autoptr(GPtrArray) stored = NULL;
      g_autofree char *path = NULL;
      char *query;
      htmlDocPtr doc;
      gint64 url_id;
      guint n = G_MAXUINT;
      g_autoptr(sqlite3_stmt) stmt = NULL;

      if (klass->samples == NULL || klass->samples[0] == NULL ||
          g_str_equal (truth_class (f, klass), CG_DEMO_CLASS_STATIC))
        continue;
      path = g_strdup (klass->samples[0] + strlen (f->base) - 1);
      query = strchr (path, '?');
      if (query != NULL)
        *query++ = '\0';
      response = cg_demo_site_respond (cg_demo_server_get_site (f->server), f->base, path, query, NULL, NULL);
      doc = cg_html_parse (g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body),
                           klass->samples[0], response->content_type, &error);
      g_assert_no_error (error);
      stmt = cg_store_prepare (store, "SELECT id FROM urls WHERE url = ?1", &error);
      sqlite3_bind_text (stmt, 1, klass->samples[0], -1, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      url_id = sqlite3_column_int64 (stmt, 0);

      g_assert_true (cg_record_extractor_extract_page (f->project, f->model, klass->name, url_id, doc,
                                                       klass->samples[0], &n, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (n, >, 0);
      stored = cg_record_store_list (store, model_id, klass->name, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (stored->len, ==, n);
      g_assert_cmpstr (((CgRecord *) g_ptr_array_index (stored, 0))->url, ==, klass->samples[0]);
      /* Again: the page's records are replaced, not added. */
      g_assert_true (cg_record_extractor_extract_page (f->project, f->model, klass->name, url_id, doc,
                                                       klass->samples[0], &n, &error));
      g_clear_pointer (&stored, g_ptr_array_unref);
      stored = cg_record_store_list (store, model_id, klass->name, &error);
      g_assert_cmpuint (stored->len, ==, n);

      /* The extractor keeps the wrapper it parsed; a wrapper stored anew
       * (learned again, here written by hand) is the one the next page
       * gets. */
      if (!replaced)
        {
          static const char json[] =
            "{\"kind\": \"detail\", \"regions\": [{\"xpath\": \"/html\", \"record\": \".\", \"columns\": "
            "[{\"name\": \"heading\", \"xpath\": \"body//h1\", \"kind\": \"text\"}]}]}";
          CgRecord *record;

          g_assert_true (cg_record_store_save_wrapper (store, model_id, klass->name, CG_WRAPPER_DETAIL,
                                                       json, 1, &error));
          g_assert_no_error (error);
          g_assert_true (cg_record_extractor_extract_page (f->project, f->model, klass->name, url_id, doc,
                                                           klass->samples[0], &n, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (n, ==, 1);
          g_clear_pointer (&stored, g_ptr_array_unref);
          stored = cg_record_store_list (store, model_id, klass->name, &error);
          g_assert_cmpuint (stored->len, ==, 1);
          record = g_ptr_array_index (stored, 0);
          g_assert_cmpuint (g_strv_length (record->columns), ==, 1);
          g_assert_cmpstr (record->columns[0], ==, "heading");
          g_assert_cmpstr (record->values[0], !=, "");
          replaced = TRUE;
        }
      xmlFreeDoc (doc);
    }
  g_assert_true (replaced);
}

static void
test_bad_requests (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(CgSiteModel) other = cg_site_model_new (f->base);
  g_autoptr(CgSiteModel) unsaved = cg_site_model_new (f->base);
  htmlDocPtr doc = cg_html_parse ("<p>x</p>", 8, NULL, NULL, &error);
  guint n = 7;

  g_assert_no_error (error);
  /* A class the model does not have. */
  g_assert_false (cg_record_extractor_run (f->project, f->model, "no-such-class", NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_CLASS);
  g_assert_nonnull (strstr (error->message, "no-such-class"));
  g_clear_error (&error);
  g_assert_false (cg_record_extractor_learn (f->project, f->model, "no-such-class", &error));
  g_assert_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_CLASS);
  g_clear_error (&error);

  /* A class with no sample and no wrapper. */
  cg_site_model_add_class (other, "lonely", "Lonely");
  cg_site_model_set_entry_class (other, "lonely");
  g_assert_true (cg_site_model_save (other, cg_project_get_store (f->project), &error));
  g_assert_no_error (error);
  g_assert_false (cg_record_extractor_extract_page (f->project, other, "lonely", 1, doc, NULL, &n, &error));
  g_assert_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER);
  g_assert_cmpuint (n, ==, 0);
  g_clear_error (&error);
  g_assert_false (cg_record_extractor_learn (f->project, other, "lonely", &error));
  g_assert_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_PAGES);
  g_clear_error (&error);
  /* Learning every class skips it. */
  g_assert_true (cg_record_extractor_learn (f->project, other, NULL, &error));
  g_assert_no_error (error);

  /* A model that is not in the store. */
  cg_site_model_add_class (unsaved, "x", "X");
  g_assert_false (cg_record_extractor_run (f->project, unsaved, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Cancelled: learning stores no wrapper, extracting writes no record. */
  g_cancellable_cancel (cancellable);
  g_assert_false (cg_record_extractor_learn_cancellable (f->project, f->model, NULL, cancellable, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  {
    g_autoptr(GPtrArray) wrappers = cg_record_store_list_wrappers (cg_project_get_store (f->project),
                                                                   cg_site_model_get_id (f->model), &error);

    g_assert_no_error (error);
    g_assert_cmpuint (wrappers->len, ==, 0);
  }
  g_assert_false (cg_record_extractor_run (f->project, f->model, NULL, cancellable, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  {
    g_autoptr(GHashTable) counts = cg_record_store_count_by_class (cg_project_get_store (f->project),
                                                                   cg_site_model_get_id (f->model), NULL);

    g_assert_cmpuint (g_hash_table_size (counts), ==, 0);
  }
  xmlFreeDoc (doc);
}

typedef struct {
  guint       calls;
  GHashTable *urls;   /* URL → reason */
} Skipped;

static void
skipped_cb (const char   *class_name,
            const char   *url,
            const GError *reason,
            gpointer      user_data)
{
  Skipped *skipped = user_data;

  skipped->calls++;
  g_assert_nonnull (class_name);
  g_hash_table_replace (skipped->urls, g_strdup (url), g_strdup (reason->message));
}

/* With the project's WARC files gone, every archived page is reported to
 * the skipped function (not logged as a GLib warning, which the test
 * would take as a failure), with a reason naming it, and the records
 * extracted before stay. */
static void
test_archive_gone (Fixture       *f,
                   gconstpointer  data)
{
  CgStore *store = cg_project_get_store (f->project);
  gint64 model_id = cg_site_model_get_id (f->model);
  g_autofree char *warc_dir = cg_project_get_warc_dir (f->project);
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GHashTable) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  Skipped skipped = { 0 };
  GHashTableIter iter;
  gpointer url, reason;
  const char *name;
  guint n_labelled = 0;

  g_assert_true (cg_record_extractor_run (f->project, f->model, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  before = cg_record_store_count_by_class (store, model_id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (before), >, 0);

  dir = g_dir_open (warc_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (warc_dir, name, NULL);

      if (g_str_has_suffix (name, ".warc.gz"))
        g_assert_cmpint (g_remove (path), ==, 0);
    }

  skipped.urls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_assert_true (cg_record_extractor_run (f->project, f->model, NULL, NULL, NULL, skipped_cb, &skipped, &error));
  g_assert_no_error (error);

  for (guint c = 0; c < cg_site_model_get_classes (f->model)->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (cg_site_model_get_classes (f->model), c);
      g_autoptr(CgStoredWrapper) wrapper = cg_record_store_load_wrapper (store, model_id, klass->name, NULL);

      if (wrapper != NULL)
        n_labelled += count_labelled (f, klass->name);
    }
  g_assert_cmpuint (n_labelled, >, 0);
  /* Every page of a class with a wrapper, once. */
  g_assert_cmpuint (skipped.calls, ==, n_labelled);
  g_assert_cmpuint (g_hash_table_size (skipped.urls), ==, n_labelled);
  g_hash_table_iter_init (&iter, skipped.urls);
  while (g_hash_table_iter_next (&iter, &url, &reason))
    g_assert_nonnull (strstr (reason, url));

  after = cg_record_store_count_by_class (store, model_id, &error);
  g_assert_no_error (error);
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &url, &reason))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (after, url)), ==, GPOINTER_TO_UINT (reason));
  g_hash_table_unref (skipped.urls);
}

static void
cancel_on_progress_cb (const char *class_name,
                       guint       pages_done,
                       guint       pages_total,
                       guint       n_records,
                       gpointer    user_data)
{
  g_cancellable_cancel (user_data);
}

static gboolean
is_extracted (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  gboolean extracted = TRUE;

  g_assert_true (cg_record_store_is_extracted (cg_project_get_store (f->project), cg_site_model_get_id (f->model),
                                               &extracted, &error));
  g_assert_no_error (error);
  return extracted;
}

/* A model's records are marked extracted only by a run over every class
 * that ends: one cut off, as by a stop or a quit, leaves the mark off, so
 * that the window can offer to finish. */
static void
test_marks_extracted (Fixture       *f,
                      gconstpointer  data)
{
  CgStore *store = cg_project_get_store (f->project);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CgPageClass *first = g_ptr_array_index (cg_site_model_get_classes (f->model), 0);
  gboolean extracted;

  g_assert_false (is_extracted (f));

  /* Cut off after its first page. */
  g_assert_false (cg_record_extractor_run (f->project, f->model, NULL, cancellable, cancel_on_progress_cb, NULL,
                                           cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_false (is_extracted (f));

  g_assert_true (cg_record_extractor_run (f->project, f->model, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (is_extracted (f));

  /* One class again leaves the mark as it was. */
  g_assert_true (cg_record_extractor_run (f->project, f->model, first->name, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (is_extracted (f));

  /* Every class again, cut off: no longer all extracted. */
  g_cancellable_reset (cancellable);
  g_assert_false (cg_record_extractor_run (f->project, f->model, NULL, cancellable, cancel_on_progress_cb, NULL,
                                           cancellable, &error));
  g_clear_error (&error);
  g_assert_false (is_extracted (f));

  /* A model the project does not have is named. */
  g_assert_false (cg_record_store_is_extracted (store, 4242, &extracted, &error));
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "4242"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/record-extractor/extract-all", Fixture, NULL, fixture_set_up, test_extract_all, fixture_tear_down);
  g_test_add ("/record-extractor/extract-page", Fixture, NULL, fixture_set_up, test_extract_page, fixture_tear_down);
  g_test_add ("/record-extractor/bad-requests", Fixture, NULL, fixture_set_up, test_bad_requests, fixture_tear_down);
  g_test_add ("/record-extractor/archive-gone", Fixture, NULL, fixture_set_up, test_archive_gone, fixture_tear_down);
  g_test_add ("/record-extractor/marks-extracted", Fixture, NULL, fixture_set_up, test_marks_extracted,
              fixture_tear_down);
  return g_test_run ();
}
