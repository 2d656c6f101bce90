/* test-site-explorer.c: explorations of the demo bookshop, served in
 * process: the model saved off the owner's thread, snapshots of the model
 * under way, a second exploration making the next version, and
 * explorations that cannot make a model.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>

#include "cg-demo-server.h"
#include "cg-site-explorer.h"
#include "cg-test-files.h"
#include "cg-test-server.h"

/* Few pages keep the test short; the demo has hundreds. */
#define MAX_PAGES 60

static CgDemoServer *demo_server;

typedef struct {
  GMainLoop   *loop;
  GThread     *owner;
  gboolean     finished;
  GError      *error;
  GPtrArray   *snapshots;        /* CgSiteModel, in the order received */
  guint        after_finished;   /* snapshots received after "finished" */
} Run;

static void
finished_cb (CgSiteExplorer *explorer,
             const GError   *error,
             Run            *run)
{
  g_assert_true (g_thread_self () == run->owner);
  g_assert_false (run->finished);
  run->finished = TRUE;
  run->error = error != NULL ? g_error_copy (error) : NULL;
  g_main_loop_quit (run->loop);
}

static void
model_updated_cb (CgSiteExplorer *explorer,
                  CgSiteModel    *snapshot,
                  Run            *run)
{
  g_assert_true (g_thread_self () == run->owner);
  g_assert_true (CG_IS_SITE_MODEL (snapshot));
  if (run->finished)
    run->after_finished++;
  g_ptr_array_add (run->snapshots, g_object_ref (snapshot));
}

static void
run_init (Run *run)
{
  run->loop = g_main_loop_new (NULL, FALSE);
  run->owner = g_thread_self ();
  run->snapshots = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
run_clear (Run *run)
{
  g_main_loop_unref (run->loop);
  g_clear_error (&run->error);
  g_ptr_array_unref (run->snapshots);
}

static CgCrawlConfig *
demo_config (void)
{
  CgCrawlConfig *config = cg_crawl_config_new ();

  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = cg_demo_server_get_url (demo_server);
  cg_crawl_config_disable_politeness (config);
  return config;
}

static CgSiteExplorer *
explore (CgProject *project,
         Run       *run,
         guint      snapshot_pages)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlConfig) config = demo_config ();
  CgLearnerParams params;
  CgSiteExplorer *explorer;

  cg_learner_params_init (&params);
  params.max_pages = MAX_PAGES;
  explorer = cg_site_explorer_new (project, config, &params, &error);
  g_assert_no_error (error);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), run);
  if (snapshot_pages > 0)
    {
      cg_site_explorer_set_snapshot_interval (explorer, snapshot_pages, 0);
      g_signal_connect (explorer, "model-updated", G_CALLBACK (model_updated_cb), run);
    }
  cg_site_explorer_start (explorer);
  g_main_loop_run (run->loop);
  return explorer;
}

static guint
total_pages (CgSiteModel *model)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  guint n = 0;

  for (guint i = 0; i < classes->len; i++)
    n += ((CgPageClass *) g_ptr_array_index (classes, i))->n_pages;
  return n;
}

static gint64
count_labels (CgStore *store,
              gint64   model_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, "SELECT count(*) FROM page_labels WHERE model_id = ?1", &error);

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, model_id);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return sqlite3_column_int64 (stmt, 0);
}

/* The model is saved (read back through another connection) with labels
 * for the sample, "finished" comes on the owner's thread, and snapshots
 * of the growing model came before it. */
static void
test_explore (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgProject) reader = NULL;
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autoptr(CgSiteModel) loaded = NULL;
  g_autofree char *site = cg_demo_server_get_url (demo_server);
  CgSiteModel *model;
  CgSiteModel *last;
  Run run = { 0 };

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  run_init (&run);
  explorer = explore (project, &run, 5);

  g_assert_true (run.finished);
  g_assert_no_error (run.error);
  model = cg_site_explorer_get_model (explorer);
  g_assert_nonnull (model);
  g_assert_cmpint (cg_site_model_get_id (model), >, 0);
  g_assert_cmpint (cg_site_model_get_version (model), ==, 1);
  g_assert_cmpuint (cg_site_explorer_get_n_pages (explorer), >=, 20);

  reader = cg_project_open (dir, &error);
  g_assert_no_error (error);
  loaded = cg_site_model_load_latest (cg_project_get_store (reader), site, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_site_model_get_id (loaded), ==, cg_site_model_get_id (model));
  g_assert_cmpuint (cg_site_model_get_classes (loaded)->len, ==, cg_site_model_get_classes (model)->len);
  g_assert_cmpuint (cg_site_model_get_classes (loaded)->len, >=, 2);
  /* Every sampled page is labelled, the entry page at least. */
  g_assert_cmpint (count_labels (cg_project_get_store (reader), cg_site_model_get_id (model)), >=, 1);
  g_assert_cmpint (count_labels (cg_project_get_store (reader), cg_site_model_get_id (model)), <=,
                   cg_site_explorer_get_n_pages (explorer));

  /* Snapshots: one per 5 pages at most, none after the end, each
   * unsaved, growing, and the last one no bigger than the saved model. */
  g_assert_cmpuint (run.snapshots->len, >=, 2);
  g_assert_cmpuint (run.snapshots->len, <=, cg_site_explorer_get_n_pages (explorer) / 5);
  g_assert_cmpuint (run.after_finished, ==, 0);
  for (guint i = 0; i < run.snapshots->len; i++)
    {
      CgSiteModel *snapshot = g_ptr_array_index (run.snapshots, i);

      g_assert_cmpint (cg_site_model_get_id (snapshot), ==, 0);
      g_assert_cmpstr (cg_site_model_get_site (snapshot), ==, site);
      /* Pages join classes as the learner clusters them, so a snapshot
       * may have no more than the one before, never fewer. */
      if (i > 0)
        g_assert_cmpuint (total_pages (snapshot), >=, total_pages (g_ptr_array_index (run.snapshots, i - 1)));
    }
  last = g_ptr_array_index (run.snapshots, run.snapshots->len - 1);
  g_assert_cmpuint (total_pages (last), >, total_pages (g_ptr_array_index (run.snapshots, 0)));
  g_assert_cmpuint (cg_site_model_get_classes (last)->len, >=, 1);
  g_assert_cmpuint (total_pages (last), <=, total_pages (model));

  g_clear_object (&explorer);
  g_clear_object (&reader);
  g_clear_object (&project);
  run_clear (&run);
}

/* Exploring the same site again makes its next version; without a
 * listener there are no snapshots to build. */
static void
test_explore_again (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  Run first = { 0 };
  Run second = { 0 };
  g_autoptr(CgSiteExplorer) one = NULL;
  g_autoptr(CgSiteExplorer) two = NULL;

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  run_init (&first);
  run_init (&second);
  one = explore (project, &first, 0);
  g_assert_no_error (first.error);
  two = explore (project, &second, 0);
  g_assert_no_error (second.error);

  g_assert_cmpint (cg_site_model_get_version (cg_site_explorer_get_model (one)), ==, 1);
  g_assert_cmpint (cg_site_model_get_version (cg_site_explorer_get_model (two)), ==, 2);
  g_assert_cmpint (cg_site_model_get_crawl_id (cg_site_explorer_get_model (two)), >,
                   cg_site_model_get_crawl_id (cg_site_explorer_get_model (one)));
  g_assert_cmpuint (first.snapshots->len, ==, 0);

  g_clear_object (&one);
  g_clear_object (&two);
  g_clear_object (&project);
  run_clear (&first);
  run_clear (&second);
}

/* With no interval (no pages is taken as one page), every page fetched
 * gives one snapshot, and only after it. */
static void
test_snapshot_every_page (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = demo_config ();
  g_autoptr(CgSiteExplorer) explorer = NULL;
  CgLearnerParams params;
  Run run = { 0 };

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  run_init (&run);
  cg_learner_params_init (&params);
  params.max_pages = 20;
  explorer = cg_site_explorer_new (project, config, &params, &error);
  g_assert_no_error (error);
  cg_site_explorer_set_snapshot_interval (explorer, 0, 0);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), &run);
  g_signal_connect (explorer, "model-updated", G_CALLBACK (model_updated_cb), &run);
  cg_site_explorer_start (explorer);
  g_main_loop_run (run.loop);

  g_assert_no_error (run.error);
  g_assert_cmpuint (cg_site_explorer_get_n_pages (explorer), >=, 2);
  g_assert_cmpuint (run.snapshots->len, ==, cg_site_explorer_get_n_pages (explorer));
  g_assert_cmpuint (run.after_finished, ==, 0);

  g_clear_object (&explorer);
  g_clear_object (&project);
  run_clear (&run);
}

/* Stopped at once, the exploration ends with an error and no model, and
 * the store has no model for the site. */
static void
test_stopped (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = demo_config ();
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autoptr(CgSiteModel) loaded = NULL;
  Run run = { 0 };

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  run_init (&run);
  explorer = cg_site_explorer_new (project, config, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), &run);
  cg_site_explorer_start (explorer);
  cg_site_explorer_stop (explorer);
  g_main_loop_run (run.loop);

  g_assert_true (run.finished);
  g_assert_nonnull (run.error);
  g_assert_null (cg_site_explorer_get_model (explorer));
  loaded = cg_site_model_load_latest (cg_project_get_store (project), config->seeds[0], &error);
  g_assert_null (loaded);
  g_assert_nonnull (error);

  g_clear_object (&explorer);
  g_clear_object (&project);
  run_clear (&run);
}

/* A configuration without a seed is refused, naming what is missing. */
static void
test_no_seed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgSiteExplorer) explorer = NULL;

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&config->seeds, g_strfreev);
  explorer = cg_site_explorer_new (project, config, NULL, &error);
  g_assert_null (explorer);
  g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "seed"));

  g_clear_object (&project);
}

/* A small site: a page that holds nothing but a comment under /empty/, and
 * under /shop/ a home page and products whose template has a Latin-1
 * byte although it says it is UTF-8. */
static void
small_site_handler (SoupServer        *server,
                    SoupServerMessage *msg,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           user_data)
{
  g_autoptr(GString) body = g_string_new ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Shop</title></head>"
                                          "<body><nav><a href=\"/shop/\">Caf\xe9 home</a></nav>");

  if (g_str_has_prefix (path, "/empty/"))
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, "<!-- nothing -->", 16);
      return;
    }
  if (g_str_equal (path, "/shop/"))
    for (guint i = 0; i < 8; i++)
      g_string_append_printf (body, "<p><a href=\"/shop/p%u\">Product %u</a></p>", i, i);
  else if (g_str_has_prefix (path, "/shop/p"))
    g_string_append_printf (body, "<h1>Product %s</h1><p class=\"price\">%s.99 \xe2\x82\xac</p>", path + 7, path + 7);
  else
    {
      soup_server_message_set_status (msg, 404, NULL);
      return;
    }
  g_string_append (body, "</body></html>");
  soup_server_message_set_status (msg, 200, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_COPY, body->str, body->len);
}

/* Explores the small site from @path. */
static CgSiteExplorer *
explore_small_site (CgProject   *project,
                    Run         *run,
                    const char  *path)
{
  g_autofree char *base = NULL;
  g_autoptr(SoupServer) server = cg_test_server_new (small_site_handler, NULL, &base);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  CgSiteExplorer *explorer;

  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_strconcat (base, path + 1, NULL);
  cg_crawl_config_disable_politeness (config);
  explorer = cg_site_explorer_new (project, config, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), run);
  cg_site_explorer_start (explorer);
  g_main_loop_run (run->loop);
  return explorer;
}

/* Pages none of which can be read make no model: the exploration says
 * why instead of saving a model of no classes. */
static void
test_unreadable_pages (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteExplorer) one = NULL;
  g_auto(GStrv) sites = NULL;
  Run run = { 0 };

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);

  run_init (&run);
  one = explore_small_site (project, &run, "/empty/a");
  g_assert_true (run.finished);
  g_assert_error (run.error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED);
  g_assert_true (g_str_has_prefix (run.error->message, "No HTML page of http://127.0.0.1:"));
  g_assert_nonnull (strstr (run.error->message, "/empty/a could be read (1 fetched), so there is nothing to learn a "
                                                "model from; the first: "));
  g_assert_nonnull (strstr (run.error->message, "holds no HTML element"));
  g_assert_null (cg_site_explorer_get_model (one));
  run_clear (&run);

  sites = cg_site_model_list_sites (cg_project_get_store (project), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (sites), ==, 0);
  g_clear_object (&project);
}

/* A template with a byte that is not valid in its character set (a
 * Latin-1 "é" in a page that says it is UTF-8) is learned from: its
 * pages were once all refused, and the model had no class. */
static void
test_stray_bytes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-site-explorer-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteExplorer) explorer = NULL;
  CgSiteModel *model;
  Run run = { 0 };

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  run_init (&run);
  explorer = explore_small_site (project, &run, "/shop/");
  g_assert_no_error (run.error);
  model = cg_site_explorer_get_model (explorer);
  g_assert_nonnull (model);
  g_assert_cmpuint (cg_site_model_get_classes (model)->len, >=, 2);
  g_assert_cmpuint (total_pages (model), >=, 3);
  run_clear (&run);

  g_clear_object (&explorer);
  g_clear_object (&project);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  demo_server = cg_demo_server_new ();
  if (!cg_demo_server_start (demo_server, 0, &error))
    g_error ("Demo server: %s", error->message);

  g_test_add_func ("/site-explorer/explore", test_explore);
  g_test_add_func ("/site-explorer/explore-again", test_explore_again);
  g_test_add_func ("/site-explorer/snapshot-every-page", test_snapshot_every_page);
  g_test_add_func ("/site-explorer/stopped", test_stopped);
  g_test_add_func ("/site-explorer/no-seed", test_no_seed);
  g_test_add_func ("/site-explorer/unreadable-pages", test_unreadable_pages);
  g_test_add_func ("/site-explorer/stray-bytes", test_stray_bytes);
  status = g_test_run ();

  cg_demo_server_stop (demo_server);
  g_clear_object (&demo_server);
  return status;
}
