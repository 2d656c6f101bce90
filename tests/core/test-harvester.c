/* test-harvester.c: structure-driven harvests of the demo bookshop, served in process.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>
#include <libxml/xpath.h>

#include "cg-demo-server.h"
#include "cg-harvester.h"
#include "cg-links.h"
#include "cg-nav-patterns.h"
#include "cg-site-explorer.h"
#include "cg-target-map.h"
#include "cg-test-files.h"
#include "cg-test-server.h"
#include "cg-url.h"
#include "cg-warc-reader.h"
#include "cg-warc-writer.h"

/* The demo site is served once for all the tests, and its model learned
 * once, in a template project that each test copies: learning is the
 * same every time, and the model's URLs name the server's port. */
static CgDemoServer *demo_server;
static char         *template_dir;

/* A learned model of the demo site in a project of its own, with the
 * server that serves the site. */
typedef struct {
  CgDemoServer *server;
  char         *base;      /* "http://127.0.0.1:PORT/" */
  char         *origin;    /* "http://127.0.0.1:PORT" */
  char         *dir;
  CgProject    *project;
  CgSiteModel  *model;
  GHashTable   *class_truth;   /* model class → truth class (majority of its samples) */
} Demo;

typedef struct {
  GMainLoop   *loop;
  CgCrawlEnd   end;
  GError      *error;
  guint        progress;      /* class-progress signals */
  guint        coverage;      /* coverage signals */
  guint64      last_requests;
  guint64      last_bigrams;
  guint        stop_after;    /* stop the harvest after this many pages, 0: never */
  CgHarvester *harvester;
} Run;

static void
explorer_finished_cb (CgSiteExplorer *explorer,
                      const GError   *error,
                      GMainLoop      *loop)
{
  g_assert_no_error ((GError *) error);
  g_main_loop_quit (loop);
}

static void
explorer_coverage_cb (CgSiteExplorer *explorer,
                      guint64         requests,
                      guint64         bigrams,
                      guint64        *last)
{
  /* Requests only grow, one at a time, and the 2-grams never fall. */
  g_assert_cmpuint (requests, ==, last[0] + 1);
  g_assert_cmpuint (bigrams, >=, last[1]);
  last[0] = requests;
  last[1] = bigrams;
}

static const char *
truth_class (Demo       *demo,
             const char *url)
{
  JsonObject *page;

  if (!g_str_has_prefix (url, demo->origin))
    return NULL;
  page = cg_demo_site_lookup_page (cg_demo_server_get_site (demo->server), url + strlen (demo->origin));
  return page != NULL ? json_object_get_string_member (page, "class") : NULL;
}

static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        copy_tree (source, target);
      else
        {
          g_autoptr(GFile) a = g_file_new_for_path (source);
          g_autoptr(GFile) b = g_file_new_for_path (target);
          g_autoptr(GError) error = NULL;

          g_file_copy (a, b, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
          g_assert_no_error (error);
        }
    }
}

/* Learns the model of the demo site into the template project. */
static void
learn_template (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(CgProject) project = NULL;
  g_autofree char *base = NULL;
  guint64 coverage[2] = { 0, 0 };

  demo_server = cg_demo_server_new ();
  g_assert_true (cg_demo_server_start (demo_server, 0, &error));
  g_assert_no_error (error);
  base = cg_demo_server_get_url (demo_server);
  template_dir = cg_test_folder_new ("cg-harvester-template-XXXXXX");
  project = cg_project_create (template_dir, NULL, &error);
  g_assert_no_error (error);

  g_strfreev (config->seeds);
  config->seeds = g_strsplit (base, " ", -1);
  cg_crawl_config_disable_politeness (config);
  explorer = cg_site_explorer_new (project, config, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (explorer, "finished", G_CALLBACK (explorer_finished_cb), loop);
  g_signal_connect (explorer, "coverage", G_CALLBACK (explorer_coverage_cb), coverage);
  cg_site_explorer_start (explorer);
  g_main_loop_run (loop);
  g_assert_nonnull (cg_site_explorer_get_model (explorer));
  /* The explorer reported its coverage: as many requests as it fetched
   * pages, and some text. */
  g_assert_cmpuint (coverage[0], >, 100);
  g_assert_cmpuint (coverage[1], >, 1000);
}

static Demo *
demo_new (void)
{
  Demo *demo = g_new0 (Demo, 1);
  g_autoptr(GError) error = NULL;
  GPtrArray *classes;

  demo->server = g_object_ref (demo_server);
  demo->base = cg_demo_server_get_url (demo->server);
  demo->origin = g_strndup (demo->base, strlen (demo->base) - 1);
  demo->dir = cg_test_folder_new ("cg-harvester-XXXXXX");
  copy_tree (template_dir, demo->dir);
  demo->project = cg_project_open (demo->dir, &error);
  g_assert_no_error (error);
  demo->model = cg_site_model_load_latest (cg_project_get_store (demo->project), demo->base, &error);
  g_assert_no_error (error);

  /* Which truth class each model class stands for: the one most of its
   * samples have. */
  demo->class_truth = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  classes = cg_site_model_get_classes (demo->model);
  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      g_autoptr(GHashTable) votes = g_hash_table_new (g_str_hash, g_str_equal);
      const char *best = NULL;
      guint best_votes = 0;

      for (guint s = 0; klass->samples[s] != NULL; s++)
        {
          const char *truth = truth_class (demo, klass->samples[s]);
          guint n;

          if (truth == NULL)
            continue;
          n = GPOINTER_TO_UINT (g_hash_table_lookup (votes, truth)) + 1;
          g_hash_table_insert (votes, (gpointer) truth, GUINT_TO_POINTER (n));
          if (n > best_votes)
            {
              best = truth;
              best_votes = n;
            }
        }
      if (best != NULL)
        g_hash_table_insert (demo->class_truth, g_strdup (klass->name), g_strdup (best));
    }
  cg_demo_server_clear_requests (demo->server);
  return demo;
}

static void
demo_free (Demo *demo)
{
  g_object_unref (demo->model);
  g_object_unref (demo->project);
  g_object_unref (demo->server);
  g_hash_table_unref (demo->class_truth);
  if (g_getenv ("CG_TEST_KEEP") == NULL)
    cg_test_remove_tree (demo->dir);
  else
    g_printerr ("kept %s\n", demo->dir);
  g_free (demo->dir);
  g_free (demo->base);
  g_free (demo->origin);
  g_free (demo);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Demo, demo_free)

static void
class_progress_cb (CgHarvester *harvester,
                   const char  *class_name,
                   guint        pages,
                   guint        records,
                   Run         *run)
{
  g_assert_nonnull (class_name);
  g_assert_cmpuint (pages, >, 0);
  run->progress++;
  if (run->stop_after > 0 && run->progress == run->stop_after)
    cg_harvester_stop (harvester);
}

static void
coverage_cb (CgHarvester *harvester,
             guint64      requests,
             guint64      bigrams,
             Run         *run)
{
  g_assert_cmpuint (requests, >=, run->last_requests);
  g_assert_cmpuint (bigrams, >=, run->last_bigrams);
  run->last_requests = requests;
  run->last_bigrams = bigrams;
  run->coverage++;
}

static void
harvest_finished_cb (CgHarvester  *harvester,
                     int           end,
                     const GError *error,
                     Run          *run)
{
  run->end = end;
  if (error != NULL)
    run->error = g_error_copy (error);
  g_main_loop_quit (run->loop);
}

/* Runs @harvester to its end, which it returns, with the error it ended
 * with in @error. */
static CgCrawlEnd
run_harvest_to_end (CgHarvester  *harvester,
                    Run          *run,
                    GError      **error)
{
  run->loop = g_main_loop_new (NULL, FALSE);
  run->harvester = harvester;
  g_signal_connect (harvester, "class-progress", G_CALLBACK (class_progress_cb), run);
  g_signal_connect (harvester, "coverage", G_CALLBACK (coverage_cb), run);
  g_signal_connect (harvester, "finished", G_CALLBACK (harvest_finished_cb), run);
  cg_harvester_start (harvester);
  g_main_loop_run (run->loop);
  g_signal_handlers_disconnect_by_data (harvester, run);
  g_main_loop_unref (run->loop);
  if (run->error != NULL)
    g_propagate_error (error, g_steal_pointer (&run->error));
  return run->end;
}

/* Runs @harvester to its end, which must come with no error. */
static CgCrawlEnd
run_harvest (CgHarvester *harvester,
             guint        stop_after)
{
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  run.stop_after = stop_after;
  run_harvest_to_end (harvester, &run, &error);
  g_assert_no_error (error);
  if (stop_after == 0)
    {
      g_assert_cmpuint (run.progress, >, 0);
      g_assert_cmpuint (run.coverage, ==, run.progress);
      g_assert_cmpuint (run.last_bigrams, >, 1000);
    }
  return run.end;
}

static CgHarvestOptions *
options_new (Demo              *demo,
             CgHarvestStrategy  strategy)
{
  CgHarvestOptions *options = cg_harvest_options_new ();

  options->strategy = strategy;
  cg_crawl_config_disable_politeness (options->crawl);
  /* The tests of what a strategy reaches count the pages of the harvest's
   * own crawl, and every page its patterns reach; test_reuse() checks
   * that reading the learning crawl's pages back reaches the same, and
   * test_prune() what pruning the patterns leaves out. */
  options->reuse_sample = FALSE;
  options->prune_patterns = FALSE;
  return options;
}

static CgHarvester *
harvester_new (Demo                   *demo,
               const CgHarvestOptions *options)
{
  g_autoptr(GError) error = NULL;
  CgHarvester *harvester = cg_harvester_new (demo->project, demo->model, options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (harvester);
  return harvester;
}

/* ---- what the store says of a harvest ------------------------------------------ */

typedef struct {
  char  *class_name;   /* NULL: unclassified */
  char  *method;
  guint  status;
  guint  n_fetches;
} HarvestedPage;

static void
harvested_page_free (HarvestedPage *page)
{
  g_free (page->class_name);
  g_free (page->method);
  g_free (page);
}

/* URL → HarvestedPage for the HTML pages of a crawl. */
static GHashTable *
harvested_pages (Demo   *demo,
                 gint64  crawl_id)
{
  GHashTable *pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) harvested_page_free);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  stmt = cg_store_prepare (cg_project_get_store (demo->project),
                           "SELECT u.url, l.class, l.method, f.status, "
                           "  (SELECT count(*) FROM fetches g WHERE g.url_id = u.id) "
                           "FROM fetches f JOIN urls u ON u.id = f.url_id "
                           "LEFT JOIN page_labels l ON l.url_id = u.id AND l.model_id = ?2 "
                           "WHERE f.crawl_id = ?1 AND f.mime = 'text/html'",
                           &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_int64 (stmt, 2, cg_site_model_get_id (demo->model));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      HarvestedPage *page = g_new0 (HarvestedPage, 1);

      page->class_name = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      page->method = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      page->status = (guint) sqlite3_column_int (stmt, 3);
      page->n_fetches = (guint) sqlite3_column_int (stmt, 4);
      g_hash_table_insert (pages, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), page);
    }
  return pages;
}

/* The share of the labelled pages whose class stands for their truth
 * class. */
static double
label_accuracy (Demo       *demo,
                GHashTable *pages,
                guint      *out_labelled)
{
  GHashTableIter iter;
  gpointer key, value;
  guint right = 0, labelled = 0;

  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      HarvestedPage *page = value;
      const char *truth = truth_class (demo, key);

      if (truth == NULL || page->status != 200)
        continue;
      g_assert_nonnull (page->method);
      labelled++;
      if (page->class_name != NULL && g_strcmp0 (g_hash_table_lookup (demo->class_truth, page->class_name), truth) == 0)
        right++;
    }
  *out_labelled = labelled;
  return labelled > 0 ? (double) right / labelled : 0;
}

/* ---- the pages the model's class links reach, computed here ---------------------- */

static htmlDocPtr
demo_fetch (Demo        *demo,
            const char  *url,
            char       **out_final)
{
  g_autofree char *current = g_strdup (url);

  for (guint hops = 0; hops < 5; hops++)
    {
      g_autoptr(GUri) uri = g_uri_parse (current, G_URI_FLAGS_ENCODED, NULL);
      g_autoptr(CgDemoResponse) response = NULL;

      if (uri == NULL || !g_str_has_prefix (current, demo->origin))
        return NULL;
      response = cg_demo_site_respond (cg_demo_server_get_site (demo->server), demo->origin,
                                       g_uri_get_path (uri), g_uri_get_query (uri), NULL, NULL);
      if (response->location != NULL)
        {
          g_autofree char *next = g_strconcat (demo->origin, response->location, NULL);

          g_free (current);
          current = g_steal_pointer (&next);
          continue;
        }
      if (response->status != 200 || !g_str_has_prefix (response->content_type, "text/html"))
        return NULL;
      *out_final = g_steal_pointer (&current);
      return cg_html_parse (g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body),
                            *out_final, response->content_type, NULL);
    }
  return NULL;
}

typedef struct {
  GHashTable *by_node;
} NodeUrls;

static void
node_url_cb (const CgLink *link,
             xmlNodePtr    node,
             gpointer      user_data)
{
  NodeUrls *urls = user_data;

  if (link->hop == CG_HOP_NAVLINK && !g_hash_table_contains (urls->by_node, node))
    g_hash_table_insert (urls->by_node, node, g_strdup (link->url));
}

/* The target the class links that found @url give it: the one target,
 * or the one whose URL pattern matches. */
static const char *
link_target (Demo       *demo,
             GPtrArray  *targets,
             const char *url)
{
  const char *found = NULL;

  if (targets->len == 1)
    return g_ptr_array_index (targets, 0);
  for (guint i = 0; i < targets->len; i++)
    {
      CgPageClass *klass = cg_site_model_get_class (demo->model, g_ptr_array_index (targets, i));

      if (klass->url_pattern != NULL && g_regex_match_simple (klass->url_pattern, url, 0, 0))
        {
          if (found != NULL)
            return NULL;
          found = klass->name;
        }
    }
  return found;
}

/* Seed 000's intensive crawl over the site, here and without a network:
 * the final URLs of the pages that the class links reach from the home
 * page. */
static GHashTable *
class_reachable (Demo *demo)
{
  GHashTable *reached = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GQueue) queue = g_queue_new ();
  GPtrArray *links = cg_site_model_get_links (demo->model);

  g_queue_push_tail (queue, g_strdup (demo->base));
  g_queue_push_tail (queue, g_strdup (cg_site_model_get_entry_class (demo->model)));
  g_hash_table_add (seen, g_strdup (demo->base));
  while (!g_queue_is_empty (queue))
    {
      g_autofree char *url = g_queue_pop_head (queue);
      g_autofree char *class_name = g_queue_pop_head (queue);
      g_autofree char *final = NULL;
      g_autoptr(GHashTable) xpaths = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
      NodeUrls urls = { g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free) };
      htmlDocPtr doc = demo_fetch (demo, url, &final);
      xmlXPathContextPtr context;
      GHashTableIter iter;
      gpointer key, value;

      if (doc == NULL)
        {
          g_hash_table_unref (urls.by_node);
          continue;
        }
      /* A page the links did not give one class to is classified when
       * it arrives; here it takes the class that stands for its truth. */
      if (class_name[0] == '\0')
        {
          const char *truth = truth_class (demo, final);
          GHashTableIter classes;
          gpointer name, stands_for;

          g_hash_table_iter_init (&classes, demo->class_truth);
          while (truth != NULL && g_hash_table_iter_next (&classes, &name, &stands_for))
            if (g_str_equal (stands_for, truth))
              {
                g_free (class_name);
                class_name = g_strdup (name);
                break;
              }
        }
      g_hash_table_insert (reached, g_strdup (final), g_strdup (class_name));
      cg_links_foreach_in_document (doc, final, node_url_cb, &urls, NULL);
      for (guint l = 0; l < links->len && class_name[0] != '\0'; l++)
        {
          CgClassLink *link = g_ptr_array_index (links, l);
          GPtrArray *targets;

          if (!g_str_equal (link->source, class_name))
            continue;
          targets = g_hash_table_lookup (xpaths, link->xpath);
          if (targets == NULL)
            {
              targets = g_ptr_array_new ();
              g_hash_table_insert (xpaths, link->xpath, targets);
            }
          if (!g_ptr_array_find_with_equal_func (targets, link->target, g_str_equal, NULL))
            g_ptr_array_add (targets, link->target);
        }
      /* Every link's targets, then one class for each URL. */
      context = xmlXPathNewContext (doc);
      g_hash_table_iter_init (&iter, xpaths);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          xmlXPathObjectPtr result = xmlXPathEvalExpression ((const xmlChar *) key, context);

          for (int n = 0; result != NULL && result->nodesetval != NULL && n < result->nodesetval->nodeNr; n++)
            {
              const char *to = g_hash_table_lookup (urls.by_node, result->nodesetval->nodeTab[n]);
              GPtrArray *targets;

              if (to == NULL || g_hash_table_contains (seen, to))
                continue;
              targets = g_hash_table_lookup (found, to);
              if (targets == NULL)
                {
                  targets = g_ptr_array_new ();
                  g_hash_table_insert (found, g_strdup (to), targets);
                }
              for (guint t = 0; t < ((GPtrArray *) value)->len; t++)
                {
                  char *target = g_ptr_array_index ((GPtrArray *) value, t);

                  if (!g_ptr_array_find_with_equal_func (targets, target, g_str_equal, NULL))
                    g_ptr_array_add (targets, target);
                }
            }
          if (result != NULL)
            xmlXPathFreeObject (result);
        }
      g_hash_table_iter_init (&iter, found);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *target = link_target (demo, value, key);

          /* robots.txt keeps the basket out. */
          if (g_str_has_prefix ((const char *) key + strlen (demo->origin), "/cart/"))
            continue;
          g_hash_table_add (seen, g_strdup (key));
          g_queue_push_tail (queue, g_strdup (key));
          g_queue_push_tail (queue, g_strdup (target != NULL ? target : ""));
        }
      xmlXPathFreeContext (context);
      g_hash_table_unref (urls.by_node);
      xmlFreeDoc (doc);
    }
  return reached;
}

static gboolean
is_requisite (const char *request)
{
  return g_str_has_prefix (request, "GET /static/") || g_str_has_prefix (request, "GET /cover/") ||
         g_str_equal (request, "GET /robots.txt");
}

/* ---- the WARC files of a crawl ---------------------------------------------------- */

typedef struct {
  GHashTable *page_class;   /* target URI → page-class of its metadata record */
  GHashTable *responses;    /* target URI → response and revisit records */
  guint       not_modified; /* revisits of the server-not-modified profile */
  guint       identical;    /* revisits of the identical-payload-digest profile */
} WarcContents;

static void
warc_contents_clear (WarcContents *contents)
{
  g_clear_pointer (&contents->page_class, g_hash_table_unref);
  g_clear_pointer (&contents->responses, g_hash_table_unref);
}

typedef void (*RecordFunc) (CgWarcRecord *record,
                            gpointer      user_data);

/* Calls @func on every record of the project's WARC files whose names
 * start with @prefix; fails the test on a file that does not read. */
static void
foreach_warc_record (Demo       *demo,
                     const char *prefix,
                     RecordFunc  func,
                     gpointer    user_data)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (demo->project);
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(CgWarcReader) reader = NULL;
      g_autoptr(GError) error = NULL;
      CgWarcRecord *record;

      if (!g_str_has_prefix (name, prefix) || !g_str_has_suffix (name, ".warc.gz"))
        continue;
      path = g_build_filename (warc_dir, name, NULL);
      reader = cg_warc_reader_new (path, &error);
      g_assert_no_error (error);
      while ((record = cg_warc_reader_next (reader, &error)) != NULL)
        {
          func (record, user_data);
          cg_warc_record_unref (record);
        }
      g_assert_no_error (error);
    }
}

/* The page class a metadata record gives its page; NULL if it gives none. */
static char *
metadata_page_class (CgWarcRecord *record)
{
  GBytes *block = cg_warc_record_get_block (record);
  g_autofree char *text = g_strndup (g_bytes_get_data (block, NULL), g_bytes_get_size (block));
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  char *page_class = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "page-class: "))
      {
        g_free (page_class);
        page_class = g_strdup (lines[i] + 12);
      }
  return page_class;
}

static void
count_record_cb (CgWarcRecord *record,
                 gpointer      user_data)
{
  WarcContents *contents = user_data;
  const char *uri = cg_warc_record_get_target_uri (record);
  CgWarcRecordType type = cg_warc_record_get_record_type (record);

  if (type == CG_WARC_RECORD_RESPONSE || type == CG_WARC_RECORD_REVISIT)
    g_hash_table_insert (contents->responses, g_strdup (uri),
                         GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (contents->responses, uri)) + 1));
  if (type == CG_WARC_RECORD_REVISIT)
    {
      const char *profile = cg_warc_record_get_header (record, "WARC-Profile");

      if (g_strcmp0 (profile, CG_WARC_REVISIT_PROFILE_NOT_MODIFIED) == 0)
        contents->not_modified++;
      else if (g_strcmp0 (profile, CG_WARC_REVISIT_PROFILE_IDENTICAL_PAYLOAD) == 0)
        contents->identical++;
    }
  if (type == CG_WARC_RECORD_METADATA)
    {
      char *page_class = metadata_page_class (record);

      if (page_class != NULL)
        g_hash_table_insert (contents->page_class, g_strdup (uri), page_class);
    }
}

static void
read_warcs (Demo         *demo,
            gint64        crawl_id,
            WarcContents *contents)
{
  g_autofree char *prefix = g_strdup_printf ("cartograph-%" G_GINT64_FORMAT "-", crawl_id);

  contents->page_class = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  contents->responses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  foreach_warc_record (demo, prefix, count_record_cb, contents);
}

/* ---- tests ---------------------------------------------------------------------- */

/* Seed 000's intensive crawl: every page the class links reach and no
 * other, each fetched once, labelled with its class in the store and in
 * the WARC files. */
static void
test_classes (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = harvester_new (demo, options);
  g_autoptr(GHashTable) expected = class_reachable (demo);
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) requested = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *requests;
  WarcContents warc = { 0 };
  GHashTableIter iter;
  gpointer key, value;
  guint labelled = 0, link_labels = 0;
  double accuracy;

  g_assert_cmpint (run_harvest (harvester, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, cg_harvester_get_crawl_id (harvester));

  /* The class links reach most of the site, but not all of it: pages
   * only the search box or pagination the model did not learn lead to
   * stay out. */
  g_assert_cmpuint (g_hash_table_size (expected), >, 400);
  g_assert_cmpuint (g_hash_table_size (expected), <, cg_demo_site_get_n_pages (cg_demo_server_get_site (demo->server)));

  /* Every page they reach was harvested, once, and nothing else. */
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      HarvestedPage *page = g_hash_table_lookup (pages, key);

      if (page == NULL)
        {
          demo_free (g_steal_pointer (&demo));
          g_error ("%s, reached by class links, was not harvested", (char *) key);
        }
      g_assert_cmpuint (page->n_fetches, ==, 1);
    }
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((HarvestedPage *) value)->status == 200 && !g_hash_table_contains (expected, key))
      g_error ("%s was harvested, but no class link reaches it", (char *) key);

  /* The server saw each of those pages once and, besides them, only
   * their requisites and robots.txt. */
  requests = cg_demo_server_get_requests (demo->server);
  for (guint i = 0; i < requests->len; i++)
    {
      const char *request = g_ptr_array_index (requests, i);
      g_autofree char *url = g_strconcat (demo->origin, request + 4, NULL);

      if (is_requisite (request))
        continue;
      if (!g_hash_table_add (requested, (gpointer) request))
        g_error ("%s was asked for twice", request);
      if (!g_hash_table_contains (expected, url) && !g_hash_table_contains (pages, url))
        g_error ("the harvest asked for %s, which no class link reaches", request);
    }

  /* Labels: the truth class nearly always, mostly from the class link
   * that found the page. */
  accuracy = label_accuracy (demo, pages, &labelled);
  g_test_message ("%u pages labelled, %.4f right", labelled, accuracy);
  g_assert_cmpuint (labelled, ==, g_hash_table_size (expected));
  g_assert_cmpfloat (accuracy, >=, 0.99);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    link_labels += g_strcmp0 (((HarvestedPage *) value)->method, "link") == 0;
  g_assert_cmpuint (link_labels, >, labelled * 9 / 10);

  /* Each page's metadata record in the WARC file carries the same class. */
  read_warcs (demo, cg_harvester_get_crawl_id (harvester), &warc);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      HarvestedPage *page = value;
      const char *recorded = g_hash_table_lookup (warc.page_class, key);

      if (page->status != 200)
        continue;
      g_assert_nonnull (recorded);
      g_assert_cmpstr (recorded, ==, page->class_name != NULL ? page->class_name : CG_HARVEST_UNCLASSIFIED);
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (warc.responses, key)), ==, 1);
    }
  warc_contents_clear (&warc);

  /* The counts per class add up to the pages. */
  {
    g_auto(GStrv) classes = cg_harvester_list_classes (harvester);
    guint total = 0;

    for (guint i = 0; classes[i] != NULL; i++)
      {
        guint n = 0;

        cg_harvester_get_class_counts (harvester, classes[i], &n, NULL);
        total += n;
      }
    g_assert_cmpuint (total, ==, labelled);
  }
}

/* A wait per class on top of politeness: pages of one class are handed
 * out at least that far apart, so a harvest of a few classes takes at
 * least (pages of its largest class − 1) waits. The timing itself is
 * not asserted; the order is: the entry page's class comes first. */
static void
test_class_wait (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) expected = class_reachable (demo);
  GPtrArray *requests;

  options->class_wait_ms = 1;
  options->crawl->max_pages = 60;
  options->crawl->requisites = FALSE;
  harvester = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (harvester, 0), ==, CG_CRAWL_END_LIMIT);
  pages = harvested_pages (demo, cg_harvester_get_crawl_id (harvester));
  g_assert_cmpuint (g_hash_table_size (pages), >=, 60);
  requests = cg_demo_server_get_requests (demo->server);
  g_assert_cmpstr (g_ptr_array_index (requests, 0), ==, "GET /robots.txt");
  g_assert_cmpstr (g_ptr_array_index (requests, 1), ==, "GET /");
  /* Shallow classes first: everything harvested is reachable, and the
   * limit stopped it before the deepest pages. */
  for (guint i = 0; i < requests->len; i++)
    {
      const char *request = g_ptr_array_index (requests, i);
      g_autofree char *url = g_strconcat (demo->origin, request + 4, NULL);

      if (!is_requisite (request))
        g_assert_true (g_hash_table_contains (expected, url) || g_hash_table_contains (pages, url));
    }
}

/* Seed 004's online phase: the selected patterns run from the entry
 * page reach what they reach on the site, computed here with the same
 * patterns over pages fetched without a network, and nothing else. */
static void
test_patterns (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_PATTERNS);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GQueue) queue = g_queue_new ();
  GPtrArray *patterns = cg_site_model_get_patterns (demo->model);
  GHashTableIter iter;
  gpointer key, value;
  guint labelled = 0;

  g_assert_cmpuint (patterns->len, >, 0);
  options->crawl->requisites = FALSE;
  harvester = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (harvester, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, cg_harvester_get_crawl_id (harvester));

  /* Breadth-first over (URL, pattern, step), as seed 004 runs a pattern. */
  for (guint p = 0; p < patterns->len; p++)
    {
      g_queue_push_tail (queue, g_strdup (demo->base));
      g_queue_push_tail (queue, GUINT_TO_POINTER (p));
      g_queue_push_tail (queue, GINT_TO_POINTER (-1));
    }
  while (!g_queue_is_empty (queue))
    {
      g_autofree char *url = g_queue_pop_head (queue);
      guint p = GPOINTER_TO_UINT (g_queue_pop_head (queue));
      int step = GPOINTER_TO_INT (g_queue_pop_head (queue));
      g_autoptr(CgNavExpression) expression = NULL;
      g_autoptr(GPtrArray) links = NULL;
      g_autoptr(GPtrArray) follows = NULL;
      g_autofree char *final = NULL;
      g_autofree char *state = g_strdup_printf ("%u %d %s", p, step, url);
      htmlDocPtr doc;

      if (!g_hash_table_add (seen, g_steal_pointer (&state)))
        continue;
      doc = demo_fetch (demo, url, &final);
      if (doc == NULL)
        continue;
      g_hash_table_add (expected, g_strdup (final));
      expression = cg_nav_expression_new_from_string (((CgNavPattern *) g_ptr_array_index (patterns, p))->pattern, NULL);
      links = cg_nav_links_for_document (doc, final, CG_LINK_LABEL_DEFAULT_ATTRIBUTES, NULL);
      follows = cg_nav_expression_follow (expression, step, links);
      for (guint f = 0; f < follows->len; f++)
        {
          CgNavFollow *follow = g_ptr_array_index (follows, f);

          g_queue_push_tail (queue, g_strdup (follow->url));
          g_queue_push_tail (queue, GUINT_TO_POINTER (p));
          g_queue_push_tail (queue, GINT_TO_POINTER ((int) follow->step));
        }
      xmlFreeDoc (doc);
    }

  g_assert_cmpuint (g_hash_table_size (expected), >, 10);
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (pages, key))
      g_error ("%s, reached by the patterns, was not harvested", (char *) key);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (((HarvestedPage *) value)->status == 200 && !g_hash_table_contains (expected, key))
        g_error ("%s was harvested, but no pattern reaches it", (char *) key);
      g_assert_cmpuint (((HarvestedPage *) value)->n_fetches, ==, 1);
    }
  /* Pages a pattern reached are labelled by the classifier, or by the
   * class links of the pages that led to them. */
  g_assert_cmpfloat (label_accuracy (demo, pages, &labelled), >=, 0.99);
}

/* Seed 001: from one book page, every book page and no other page of the
 * site is harvested as a page like it. The mapping is kept below the
 * site's size, so that some books can only be found by the navigation
 * pattern it generates. */
/* The path of a book page that is not among the model's samples: the
 * last of the site's. */
static const char *
unsampled_book_path (Demo *demo)
{
  CgDemoSite *site = cg_demo_server_get_site (demo->server);

  for (guint i = cg_demo_site_get_n_pages (site); i-- > 0;)
    {
      JsonObject *page = cg_demo_site_get_page (site, i);

      if (g_str_equal (json_object_get_string_member (page, "class"), CG_DEMO_CLASS_BOOK))
        return json_object_get_string_member (page, "path");
    }
  g_assert_not_reached ();
}

static void
test_like (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_LIKE);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(GHashTable) pages = NULL;
  CgDemoSite *site = cg_demo_server_get_site (demo->server);
  const char *sample = unsampled_book_path (demo);
  const char *sample_class = NULL;
  guint n_books = cg_demo_site_count_class (site, CG_DEMO_CLASS_BOOK);
  guint found = 0, wrong = 0;
  GHashTableIter iter;
  gpointer key, value;

  options->like_url = g_strconcat (demo->origin, sample, NULL);
  options->like_map_pages = 450;
  options->crawl->requisites = FALSE;
  harvester = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (harvester, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, cg_harvester_get_crawl_id (harvester));

  sample_class = ((HarvestedPage *) g_hash_table_lookup (pages, options->like_url))->class_name;
  g_assert_nonnull (sample_class);
  g_assert_cmpstr (g_hash_table_lookup (demo->class_truth, sample_class), ==, CG_DEMO_CLASS_BOOK);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      HarvestedPage *page = value;

      if (g_strcmp0 (page->class_name, sample_class) != 0)
        continue;
      if (g_strcmp0 (truth_class (demo, key), CG_DEMO_CLASS_BOOK) == 0)
        found++;
      else
        wrong++;
    }
  g_test_message ("like: %u of %u books, %u other pages, %u targets, %u pages",
                  found, n_books, wrong, cg_harvester_get_n_targets (harvester), g_hash_table_size (pages));
  /* Precision 100 %, recall at least 99 %. */
  g_assert_cmpuint (wrong, ==, 0);
  g_assert_cmpuint (found * 100, >=, n_books * 99);
  g_assert_cmpuint (cg_harvester_get_n_targets (harvester), >=, found);
  /* The mapping fetched at most its budget, with pages that are not
   * books among them: the navigation pattern found the other books. */
  g_assert_cmpuint (found, >, options->like_map_pages + 1);
}

/* A re-harvest asks with the validators of the earlier one, gets 304s,
 * archives revisits, and reports no change; once pages change, it
 * reports them changed in their class. */
static void
test_reharvest (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) first = harvester_new (demo, options);
  g_autoptr(CgHarvester) second = NULL;
  g_autoptr(CgHarvester) third = NULL;
  g_autoptr(CgHarvestReport) report = NULL;
  g_autoptr(GHashTable) first_pages = NULL;
  g_autoptr(GHashTable) third_pages = NULL;
  g_autoptr(GError) error = NULL;
  CgHarvestClassChanges totals;
  WarcContents warc = { 0 };
  const char *changed[] = { NULL, NULL, NULL };
  g_autofree char *book_class = NULL;
  guint n_changed_books = 0;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpint (run_harvest (first, 0), ==, CG_CRAWL_END_DONE);
  first_pages = harvested_pages (demo, cg_harvester_get_crawl_id (first));
  report = cg_harvester_get_report (first, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report->previous_crawl_id, ==, 0);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (totals.n_new, ==, report->n_pages);
  g_assert_cmpuint (totals.n_changed + totals.n_unchanged + totals.n_gone, ==, 0);
  g_clear_pointer (&report, cg_harvest_report_free);

  /* Nothing changed. */
  cg_demo_server_clear_requests (demo->server);
  second = harvester_new (demo, options);
  g_assert_cmpint (cg_harvester_get_previous_crawl_id (second), ==, cg_harvester_get_crawl_id (first));
  g_assert_cmpint (run_harvest (second, 0), ==, CG_CRAWL_END_DONE);
  g_assert_cmpuint (cg_demo_server_get_n_conditional (demo->server), >=, g_hash_table_size (first_pages));
  g_assert_cmpuint (cg_demo_server_get_n_not_modified (demo->server), >=, g_hash_table_size (first_pages));
  report = cg_harvester_get_report (second, &error);
  g_assert_no_error (error);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (report->n_pages, ==, g_hash_table_size (first_pages));
  g_assert_cmpuint (totals.n_unchanged, ==, report->n_pages);
  g_assert_cmpuint (totals.n_new + totals.n_changed + totals.n_gone, ==, 0);
  g_assert_cmpuint (report->n_not_modified, >=, report->n_pages);
  g_assert_cmpuint (report->n_revisits, ==, report->n_not_modified);
  g_assert_cmpuint (report->n_conditional, >=, report->n_not_modified);
  g_assert_cmpuint (report->n_conditional, ==, cg_demo_server_get_n_conditional (demo->server));
  /* A harvest recorded before the store kept which requests were
   * conditional: the count is inferred from the validators it had, and
   * here, where all were sent, comes to the same. */
  {
    g_autofree char *forget = g_strdup_printf ("UPDATE fetches SET conditional = NULL WHERE crawl_id = %" G_GINT64_FORMAT,
                                               cg_harvester_get_crawl_id (second));
    g_autoptr(CgHarvestReport) inferred = NULL;

    g_assert_true (cg_store_exec (cg_project_get_store (demo->project), forget, &error));
    g_assert_no_error (error);
    inferred = cg_harvest_report_compute (demo->project, cg_harvester_get_crawl_id (second),
                                          cg_harvester_get_crawl_id (first), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (inferred->n_conditional, ==, report->n_conditional);
  }
  read_warcs (demo, cg_harvester_get_crawl_id (second), &warc);
  g_assert_cmpuint (warc.not_modified, ==, report->n_not_modified);
  /* The pages read from their earlier copies were labelled as before. */
  g_assert_cmpuint (g_hash_table_size (warc.page_class), ==, report->n_pages);
  warc_contents_clear (&warc);
  g_clear_pointer (&report, cg_harvest_report_free);

  /* Two books and a category page change. */
  g_hash_table_iter_init (&iter, first_pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *truth = truth_class (demo, key);
      const char *path = (const char *) key + strlen (demo->origin);

      if (g_strcmp0 (truth, CG_DEMO_CLASS_BOOK) == 0 && changed[1] == NULL)
        {
          changed[changed[0] == NULL ? 0 : 1] = path;
          if (book_class == NULL)
            book_class = g_strdup (((HarvestedPage *) value)->class_name);
        }
      else if (g_strcmp0 (truth, CG_DEMO_CLASS_CATEGORY) == 0 && changed[2] == NULL && strchr (path, '?') == NULL)
        changed[2] = path;
    }
  g_assert_nonnull (changed[0]);
  g_assert_nonnull (changed[1]);
  g_assert_nonnull (changed[2]);
  for (guint i = 0; i < G_N_ELEMENTS (changed); i++)
    cg_demo_site_set_revision (cg_demo_server_get_site (demo->server), changed[i], 1);

  third = harvester_new (demo, options);
  g_assert_cmpint (cg_harvester_get_previous_crawl_id (third), ==, cg_harvester_get_crawl_id (second));
  g_assert_cmpint (run_harvest (third, 0), ==, CG_CRAWL_END_DONE);
  report = cg_harvester_get_report (third, &error);
  g_assert_no_error (error);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (totals.n_changed, ==, 3);
  g_assert_cmpuint (totals.n_new + totals.n_gone, ==, 0);
  g_assert_cmpuint (totals.n_unchanged, ==, report->n_pages - 3);
  for (guint i = 0; i < report->classes->len; i++)
    {
      CgHarvestClassChanges *changes = g_ptr_array_index (report->classes, i);

      if (g_strcmp0 (changes->class_name, book_class) == 0)
        n_changed_books = changes->n_changed;
    }
  g_assert_cmpuint (n_changed_books, ==, 2);
  /* The JSON form says the same. */
  {
    g_autofree char *json = cg_harvest_report_to_json (report);
    g_autoptr(JsonNode) node = json_from_string (json, &error);
    JsonObject *total;

    g_assert_no_error (error);
    total = json_object_get_object_member (json_node_get_object (node), "total");
    g_assert_cmpint (json_object_get_int_member (total, "changed"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (total, "unchanged"), ==, report->n_pages - 3);
  }
  third_pages = harvested_pages (demo, cg_harvester_get_crawl_id (third));
  g_assert_cmpuint (g_hash_table_size (third_pages), ==, g_hash_table_size (first_pages));
  for (guint i = 0; i < G_N_ELEMENTS (changed); i++)
    cg_demo_site_set_revision (cg_demo_server_get_site (demo->server), changed[i], 0);
}

/* A harvest stopped midway and resumed ends with each page archived
 * once, and with the same pages as a harvest that ran through. */
/* The payload digests of the response records, and those the revisit
 * records refer to. */
typedef struct {
  GHashTable *responses;
  GPtrArray  *revisits;
} PayloadDigests;

static void
collect_digests_cb (CgWarcRecord *record,
                    gpointer      user_data)
{
  PayloadDigests *digests = user_data;
  CgWarcRecordType type = cg_warc_record_get_record_type (record);
  const char *digest = cg_warc_record_get_header (record, "WARC-Payload-Digest");

  if (type != CG_WARC_RECORD_RESPONSE && type != CG_WARC_RECORD_REVISIT)
    return;
  g_assert_nonnull (digest);
  if (type == CG_WARC_RECORD_RESPONSE)
    g_hash_table_add (digests->responses, g_strdup (digest));
  else
    g_ptr_array_add (digests->revisits, g_strdup (digest));
}

static void
collect_warning_cb (CgCrawler  *crawler,
                    int         kind,
                    const char *url,
                    const char *message,
                    GPtrArray  *warnings)
{
  if (kind == CG_CRAWL_EVENT_WARNING)
    g_ptr_array_add (warnings, g_strdup (message));
}

/* Deletes the WARC files of crawl @crawl_id; returns how many. */
static guint
remove_warc_files (Demo   *demo,
                   gint64  crawl_id)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (demo->project);
  g_autofree char *prefix = g_strdup_printf ("cartograph-%" G_GINT64_FORMAT "-", crawl_id);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, &error);
  const char *name;
  guint removed = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".warc.gz"))
      {
        g_autofree char *path = g_build_filename (warc_dir, name, NULL);

        g_assert_cmpint (g_unlink (path), ==, 0);
        removed++;
      }
  return removed;
}

/* An earlier harvest whose WARC files are gone: the pages archived only
 * there are fetched again in full, not conditionally, since after a 304
 * there would be no copy to read their links from, and all below them
 * would be reported gone. Pages the learning crawl archived too are
 * still asked for conditionally: their copies are there. */
static void
test_reharvest_missing_warc (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) first = NULL;
  g_autoptr(CgHarvester) second = NULL;
  g_autoptr(CgHarvestReport) report = NULL;
  g_autoptr(GHashTable) first_pages = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) responses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) revisits = g_ptr_array_new_with_free_func (g_free);
  PayloadDigests digests = { responses, revisits };
  CgHarvestClassChanges totals;
  guint removed = 0;

  /* All the pages are the first harvest's, none read back from the
   * learning crawl. */
  options->reuse_sample = FALSE;
  first = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (first, 0), ==, CG_CRAWL_END_DONE);
  first_pages = harvested_pages (demo, cg_harvester_get_crawl_id (first));
  removed = remove_warc_files (demo, cg_harvester_get_crawl_id (first));
  g_assert_cmpuint (removed, >, 0);

  cg_demo_server_clear_requests (demo->server);
  second = harvester_new (demo, options);
  g_signal_connect (cg_harvester_get_crawler (second), "event", G_CALLBACK (collect_warning_cb), warnings);
  g_assert_cmpint (run_harvest (second, 0), ==, CG_CRAWL_END_DONE);
  report = cg_harvester_get_report (second, &error);
  g_assert_no_error (error);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (report->n_pages, ==, g_hash_table_size (first_pages));
  g_assert_cmpuint (totals.n_gone, ==, 0);
  g_assert_cmpuint (totals.n_unchanged, ==, report->n_pages);
  g_assert_cmpuint (report->n_not_modified, ==, cg_demo_server_get_n_not_modified (demo->server));
  g_assert_cmpuint (report->n_not_modified, >, 0);
  g_assert_cmpuint (report->n_not_modified, <, report->n_pages);
  /* The report counts the requests that were conditional, not the URLs
   * that had validators: the pages asked for in full are not among them. */
  g_assert_cmpuint (report->n_conditional, ==, cg_demo_server_get_n_conditional (demo->server));
  g_assert_cmpuint (report->n_conditional, <, report->n_pages);
  /* The crawl says which files it missed, and archived in full what was
   * only in them: every revisit of the harvest refers to a record that
   * is still there. */
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_true (g_pattern_match_simple (removed == 1 ? "1 WARC file of crawl * is missing (*/warc/cartograph-*.warc.gz): *"
                                                      : "* WARC files of crawl * are missing (*/warc/cartograph-*.warc.gz, …): *",
                                         g_ptr_array_index (warnings, 0)));
  foreach_warc_record (demo, "cartograph-", collect_digests_cb, &digests);
  g_assert_cmpuint (digests.revisits->len, >, 0);
  for (guint i = 0; i < digests.revisits->len; i++)
    if (!g_hash_table_contains (digests.responses, g_ptr_array_index (digests.revisits, i)))
      g_error ("A revisit refers to the payload %s, which no WARC file holds",
               (char *) g_ptr_array_index (digests.revisits, i));
}

/* The learning crawl's WARC files gone: the classifier cannot read the
 * sample pages it tells classes apart by, and the harvest says so,
 * naming how many and whose, instead of labelling fewer pages silently. */
static void
test_samples_missing (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *classes = cg_site_model_get_classes (demo->model);
  g_autoptr(GString) class_list = g_string_new (NULL);
  guint n_samples = 0;
  gboolean found = FALSE;

  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      guint n = klass->samples != NULL ? g_strv_length (klass->samples) : 0;

      if (n == 0)
        continue;
      n_samples += n;
      g_string_append_printf (class_list, "%s%s", class_list->len > 0 ? ", " : "", klass->name);
    }
  g_assert_cmpuint (n_samples, >, 1);

  g_assert_cmpuint (remove_warc_files (demo, cg_site_model_get_crawl_id (demo->model)), >, 0);

  options->reuse_sample = FALSE;
  harvester = harvester_new (demo, options);
  g_signal_connect (cg_harvester_get_crawler (harvester), "event", G_CALLBACK (collect_warning_cb), warnings);
  g_assert_cmpint (run_harvest (harvester, 0), ==, CG_CRAWL_END_DONE);

  expected = g_strdup_printf ("%u of the %u sample pages the model was learnt from are not in the archive "
                              "(of %s): pages like them may go unlabelled",
                              n_samples, n_samples, class_list->str);
  for (guint i = 0; i < warnings->len; i++)
    found |= g_strcmp0 (g_ptr_array_index (warnings, i), expected) == 0;
  if (!found)
    {
      for (guint i = 0; i < warnings->len; i++)
        g_printerr ("warning: %s\n", (char *) g_ptr_array_index (warnings, i));
      g_error ("No warning “%s”", expected);
    }
}

static void
test_resume (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = harvester_new (demo, options);
  g_autoptr(CgHarvester) resumed = NULL;
  g_autoptr(GHashTable) expected = class_reachable (demo);
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GError) error = NULL;
  WarcContents warc = { 0 };
  GHashTableIter iter;
  gpointer key, value;
  gint64 crawl_id = cg_harvester_get_crawl_id (harvester);
  guint labelled = 0;

  g_assert_cmpint (run_harvest (harvester, 150), ==, CG_CRAWL_END_STOPPED);
  pages = harvested_pages (demo, crawl_id);
  g_assert_cmpuint (g_hash_table_size (pages), <, g_hash_table_size (expected));
  g_clear_pointer (&pages, g_hash_table_unref);
  g_clear_object (&harvester);

  g_assert_cmpint (cg_harvester_find_resumable (demo->project, &error), ==, crawl_id);
  g_assert_no_error (error);
  resumed = cg_harvester_new_for_crawl (demo->project, crawl_id, &error);
  g_assert_no_error (error);
  /* What the first run harvested is counted again from the archive. */
  {
    g_auto(GStrv) classes = cg_harvester_list_classes (resumed);

    g_assert_cmpuint (g_strv_length (classes), >, 0);
  }
  g_assert_cmpint (run_harvest (resumed, 0), ==, CG_CRAWL_END_DONE);
  g_assert_cmpint (cg_harvester_get_crawl_id (resumed), ==, crawl_id);

  pages = harvested_pages (demo, crawl_id);
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (pages, key))
      g_error ("%s, reached by class links, was not harvested after the resume", (char *) key);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_cmpuint (((HarvestedPage *) value)->n_fetches, ==, 1);
      if (((HarvestedPage *) value)->status == 200)
        g_assert_true (g_hash_table_contains (expected, key));
    }
  g_assert_cmpfloat (label_accuracy (demo, pages, &labelled), >=, 0.99);

  read_warcs (demo, crawl_id, &warc);
  g_hash_table_iter_init (&iter, warc.responses);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) != 1)
      g_error ("%s is archived %u times", (char *) key, GPOINTER_TO_UINT (value));
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((HarvestedPage *) value)->status == 200)
      g_assert_nonnull (g_hash_table_lookup (warc.page_class, key));
  warc_contents_clear (&warc);

  /* Nothing is left to resume. */
  g_assert_cmpint (cg_harvester_find_resumable (demo->project, &error), ==, 0);
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
}

/* A harvest by example whose sample page is missing fails, is recorded
 * as failed, not finished, and is not the harvest the next one compares
 * with. */
static void
test_like_missing_sample (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_LIKE);
  g_autoptr(CgHarvestOptions) classes = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) failed = NULL;
  g_autoptr(CgHarvester) next = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  options->like_url = g_strconcat (demo->origin, "/book/no-such-book", NULL);
  failed = harvester_new (demo, options);
  g_assert_cmpint (run_harvest_to_end (failed, &run, &error), ==, CG_CRAWL_END_FAILED);
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_SAMPLE);
  g_assert_nonnull (strstr (error->message, options->like_url));
  g_clear_error (&error);
  stmt = cg_store_prepare (cg_project_get_store (demo->project), "SELECT state FROM crawls WHERE id = ?1", &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, cg_harvester_get_crawl_id (failed));
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "failed");

  next = harvester_new (demo, classes);
  g_assert_cmpint (cg_harvester_get_previous_crawl_id (next), ==, 0);
}

/* A re-harvest stopped midway and resumed reaches every page, as one that
 * ran through does: the pages the first run found unchanged (304) are
 * replayed from their earlier copies too, so that their links are
 * followed. */
static void
test_reharvest_resume (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) first = harvester_new (demo, options);
  g_autoptr(CgHarvester) second = NULL;
  g_autoptr(CgHarvester) resumed = NULL;
  g_autoptr(GHashTable) first_pages = NULL;
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;
  gint64 crawl_id;

  g_assert_cmpint (run_harvest (first, 0), ==, CG_CRAWL_END_DONE);
  first_pages = harvested_pages (demo, cg_harvester_get_crawl_id (first));

  cg_demo_server_clear_requests (demo->server);
  second = harvester_new (demo, options);
  crawl_id = cg_harvester_get_crawl_id (second);
  g_assert_cmpint (run_harvest (second, 150), ==, CG_CRAWL_END_STOPPED);
  g_assert_cmpuint (cg_demo_server_get_n_not_modified (demo->server), >, 0);
  g_clear_object (&second);

  resumed = cg_harvester_new_for_crawl (demo->project, crawl_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_harvest (resumed, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, crawl_id);
  g_hash_table_iter_init (&iter, first_pages);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (pages, key))
      g_error ("%s, harvested the first time, was not reached by the resumed re-harvest", (char *) key);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (((HarvestedPage *) value)->n_fetches, ==, 1);
  g_assert_cmpuint (g_hash_table_size (pages), ==, g_hash_table_size (first_pages));
}

/* URL → class label ("" for none) of the HTML pages the learning crawl
 * of the model archived. */
static GHashTable *
learning_pages (Demo *demo)
{
  GHashTable *pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  stmt = cg_store_prepare (cg_project_get_store (demo->project),
                           "SELECT u.url, l.class FROM fetches f JOIN urls u ON u.id = f.url_id "
                           "LEFT JOIN page_labels l ON l.url_id = u.id AND l.model_id = ?2 "
                           "WHERE f.crawl_id = ?1 AND f.mime = 'text/html' AND f.status = 200",
                           &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, cg_site_model_get_crawl_id (demo->model));
  sqlite3_bind_int64 (stmt, 2, cg_site_model_get_id (demo->model));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_hash_table_insert (pages, g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         g_strdup (sqlite3_column_text (stmt, 1) != NULL ? (const char *) sqlite3_column_text (stmt, 1) : ""));
  return pages;
}

static void
reused_record_cb (CgWarcRecord *record,
                  gpointer      user_data)
{
  GHashTable *classes = user_data;
  const char *uri = cg_warc_record_get_target_uri (record);
  char *page_class;

  if (cg_warc_record_get_record_type (record) != CG_WARC_RECORD_METADATA)
    return;
  /* It is about the learning crawl's record of the page. */
  g_assert_nonnull (cg_warc_record_get_header (record, "WARC-Concurrent-To"));
  if (g_hash_table_contains (classes, uri))
    g_error ("the reused page %s has two metadata records", uri);
  page_class = metadata_page_class (record);
  if (page_class != NULL)
    g_hash_table_insert (classes, g_strdup (uri), page_class);
}

/* URL → page-class of the metadata records of the reused pages of the
 * harvest @crawl_id; fails on a page recorded twice. */
static GHashTable *
reused_metadata (Demo   *demo,
                 gint64  crawl_id)
{
  g_autofree char *prefix = g_strdup_printf ("cartograph-reused-%" G_GINT64_FORMAT "-", crawl_id);
  GHashTable *classes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  foreach_warc_record (demo, prefix, reused_record_cb, classes);
  return classes;
}

/* The HTML page requests the demo server saw (requisites and robots.txt
 * left out), as URLs. */
static GHashTable *
page_requests (Demo *demo)
{
  GPtrArray *requests = cg_demo_server_get_requests (demo->server);
  GHashTable *urls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < requests->len; i++)
    {
      const char *request = g_ptr_array_index (requests, i);

      if (!is_requisite (request))
        g_hash_table_add (urls, g_strconcat (demo->origin, request + 4, NULL));
    }
  return urls;
}

/* A first harvest reads the learning crawl's pages back instead of
 * fetching them again: it asks the server for none of them, reaches the
 * same pages as a harvest that fetches everything, with fewer requests,
 * and each reused page gets one metadata record with its class, and
 * counts in the report. A re-harvest then asks for them again,
 * conditionally, and finds them unchanged (checked with the classes). */
static void
test_reuse (gconstpointer data)
{
  CgHarvestStrategy strategy = GPOINTER_TO_INT (data);
  g_autoptr(Demo) plain = demo_new ();
  g_autoptr(Demo) demo = NULL;
  g_autoptr(CgHarvestOptions) options = options_new (plain, strategy);
  g_autoptr(CgHarvester) fetching = NULL;
  g_autoptr(CgHarvester) reusing = NULL;
  g_autoptr(CgHarvester) again = NULL;
  g_autoptr(GHashTable) plain_pages = NULL;
  g_autoptr(GHashTable) plain_requests = NULL;
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) requests = NULL;
  g_autoptr(GHashTable) learning = learning_pages (plain);
  g_autoptr(GHashTable) metadata = NULL;
  g_autoptr(CgHarvestReport) report = NULL;
  g_autoptr(GError) error = NULL;
  CgHarvestClassChanges totals;
  GHashTableIter iter;
  gpointer key, value;
  guint n_reused = 0, n_reached = 0;

  options->crawl->requisites = FALSE;
  g_assert_cmpuint (g_hash_table_size (learning), >, 100);

  /* Everything fetched, as a reference. */
  fetching = harvester_new (plain, options);
  g_assert_cmpint (run_harvest (fetching, 0), ==, CG_CRAWL_END_DONE);
  plain_pages = harvested_pages (plain, cg_harvester_get_crawl_id (fetching));
  plain_requests = page_requests (plain);
  g_clear_pointer (&plain, demo_free);

  demo = demo_new ();
  options->reuse_sample = TRUE;
  reusing = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (reusing, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, cg_harvester_get_crawl_id (reusing));
  requests = page_requests (demo);
  metadata = reused_metadata (demo, cg_harvester_get_crawl_id (reusing));

  /* No page of the learning crawl was asked for again. */
  g_hash_table_iter_init (&iter, requests);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_hash_table_contains (learning, key))
      g_error ("the harvest fetched %s again, which the learning crawl archived", (char *) key);
  /* The same pages were reached, some read back rather than fetched. */
  g_hash_table_iter_init (&iter, plain_pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (((HarvestedPage *) value)->status != 200)
        continue;
      n_reached++;
      if (g_hash_table_contains (learning, key))
        {
          n_reused++;
          /* Its metadata record carries the class the learner gave it. */
          if (g_hash_table_lookup (metadata, key) == NULL)
            g_error ("%s was reused without a metadata record", (char *) key);
          if (((char *) g_hash_table_lookup (learning, key))[0] != '\0')
            g_assert_cmpstr (g_hash_table_lookup (metadata, key), ==, g_hash_table_lookup (learning, key));
        }
      else if (g_hash_table_lookup (pages, key) == NULL)
        g_error ("%s, harvested when everything is fetched, was not reached with the learning crawl's pages",
                 (char *) key);
    }
  g_test_message ("%s: %u pages, %u of them read back; %u requests instead of %u", cg_harvest_strategy_to_string (strategy),
                  n_reached, n_reused, g_hash_table_size (requests), g_hash_table_size (plain_requests));
  g_assert_cmpuint (n_reused, >, 20);
  g_assert_cmpuint (g_hash_table_size (requests) + n_reused, <=, g_hash_table_size (plain_requests));
  /* Nothing reached beyond what the plain harvest reached. */
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (((HarvestedPage *) value)->status == 200 && !g_hash_table_contains (plain_pages, key))
      g_error ("%s was harvested, but the harvest that fetches everything did not reach it", (char *) key);

  /* The report counts the pages read back as the harvest's. */
  report = cg_harvester_get_report (reusing, &error);
  g_assert_no_error (error);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (report->n_pages, >=, n_reached);
  g_assert_cmpuint (totals.n_new, ==, report->n_pages);
  g_clear_pointer (&report, cg_harvest_report_free);

  /* A re-harvest reuses nothing: it asks for every page, conditionally,
   * and finds nothing changed, those read back included. The learning
   * crawl's pages that the strategy does not reach were the first
   * harvest's, read back, and are gone from the second. What follows
   * does not depend on the strategy: it runs once. */
  if (strategy != CG_HARVEST_STRATEGY_CLASSES)
    return;
  cg_demo_server_clear_requests (demo->server);
  again = harvester_new (demo, options);
  g_assert_cmpint (run_harvest (again, 0), ==, CG_CRAWL_END_DONE);
  g_clear_pointer (&requests, g_hash_table_unref);
  requests = page_requests (demo);
  g_hash_table_iter_init (&iter, metadata);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_hash_table_contains (plain_pages, key) && !g_hash_table_contains (requests, key))
      g_error ("the re-harvest did not ask for %s", (char *) key);
  report = cg_harvester_get_report (again, &error);
  g_assert_no_error (error);
  cg_harvest_report_get_totals (report, &totals);
  g_assert_cmpuint (totals.n_new, ==, 0);
  g_assert_cmpuint (totals.n_changed, ==, 0);
  g_assert_cmpuint (totals.n_gone, ==, g_hash_table_size (learning) - n_reused);
  g_assert_cmpuint (totals.n_unchanged, ==, report->n_pages);
  g_assert_cmpuint (report->n_not_modified, >=, n_reached);
}

/* A harvest stopped while it reads the learning crawl's pages back, then
 * resumed, reaches every page with each reused page recorded once. */
static void
test_reuse_resume (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(CgHarvester) resumed = NULL;
  g_autoptr(GHashTable) expected = class_reachable (demo);
  g_autoptr(GHashTable) learning = learning_pages (demo);
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) metadata = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key;
  gint64 crawl_id;

  options->reuse_sample = TRUE;
  options->crawl->requisites = FALSE;
  harvester = harvester_new (demo, options);
  crawl_id = cg_harvester_get_crawl_id (harvester);
  g_assert_cmpint (run_harvest (harvester, 20), ==, CG_CRAWL_END_STOPPED);
  g_clear_object (&harvester);

  resumed = cg_harvester_new_for_crawl (demo->project, crawl_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_harvest (resumed, 0), ==, CG_CRAWL_END_DONE);
  pages = harvested_pages (demo, crawl_id);
  metadata = reused_metadata (demo, crawl_id);
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (pages, key) && !g_hash_table_contains (metadata, key))
      g_error ("%s, reached by class links, was neither harvested nor reused after the resume", (char *) key);
  g_hash_table_iter_init (&iter, pages);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_false (g_hash_table_contains (learning, key));
}

/* ---- pruning the patterns, on a small blog served here -------------------------- */

#define BLOG_POSTS  40
#define BLOG_TAGS   30
#define BLOG_TOPICS 12

/* A post's text: words of its own. */
static void
append_post_words (GString *html,
                   guint    post,
                   guint    n_words)
{
  for (guint w = 0; w < n_words; w++)
    g_string_append_printf (html, "p%uw%u ", post, w);
}

/* The blog: the home page links to the newest post and to every tag and
 * topic; each post has a text of its own and links to the one before it;
 * a tag page only repeats the opening words of two posts (excerpts); a
 * topic page has a text of its own. */
static void
blog_cb (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  g_autoptr(GString) html = g_string_new ("<!DOCTYPE html><html><head><title>Blog</title></head><body>");
  GHashTable *requests = user_data;
  guint n = 0;

  g_hash_table_insert (requests, g_strdup (path), GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (requests, path)) + 1));
  if (g_str_equal (path, "/"))
    {
      g_string_append_printf (html, "<nav id=\"recent\"><a href=\"/post/%u\">Newest</a></nav><nav id=\"tags\">",
                              BLOG_POSTS);
      for (guint t = 1; t <= BLOG_TAGS; t++)
        g_string_append_printf (html, "<a href=\"/tag/%u\">tag</a> ", t);
      g_string_append (html, "</nav><nav id=\"topics\">");
      for (guint t = 1; t <= BLOG_TOPICS; t++)
        g_string_append_printf (html, "<a href=\"/topic/%u\">topic</a> ", t);
      g_string_append (html, "</nav>");
    }
  else if (sscanf (path, "/post/%u", &n) == 1 && n >= 1 && n <= BLOG_POSTS)
    {
      g_string_append (html, "<article><p>");
      append_post_words (html, n, 60);
      g_string_append (html, "</p></article>");
      if (n > 1)
        g_string_append_printf (html, "<nav id=\"older\"><a href=\"/post/%u\">Older</a></nav>", n - 1);
    }
  else if (sscanf (path, "/tag/%u", &n) == 1 && n >= 1 && n <= BLOG_TAGS)
    {
      for (guint k = 0; k < 2; k++)
        {
          g_string_append (html, "<p>");
          append_post_words (html, (n + k * 7) % BLOG_POSTS + 1, 12);
          g_string_append (html, "</p>");
        }
    }
  else if (sscanf (path, "/topic/%u", &n) == 1 && n >= 1 && n <= BLOG_TOPICS)
    {
      g_string_append (html, "<p>");
      for (guint w = 0; w < 40; w++)
        g_string_append_printf (html, "t%uw%u ", n, w);
      g_string_append (html, "</p>");
    }
  else
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  g_string_append (html, "</body></html>");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_COPY, html->str, html->len);
}

/* The label the harvest sees on the link to @href of the blog page @html. */
static char *
blog_label (const char *base,
            const char *html,
            const char *href)
{
  g_autofree char *url = g_strconcat (base, href + 1, NULL);
  htmlDocPtr doc = cg_html_parse (html, strlen (html), base, "text/html", NULL);
  g_autoptr(GPtrArray) links = cg_nav_links_for_document (doc, base, CG_LINK_LABEL_DEFAULT_ATTRIBUTES, NULL);
  char *label = NULL;

  for (guint i = 0; links != NULL && i < links->len && label == NULL; i++)
    if (g_str_equal (((CgNavLink *) g_ptr_array_index (links, i))->url, url))
      label = g_strdup (((CgNavLink *) g_ptr_array_index (links, i))->label);
  xmlFreeDoc (doc);
  g_assert_nonnull (label);
  return label;
}

typedef struct {
  guint    posts;
  guint    tags;
  guint    topics;
  guint64  bigrams;
} BlogHarvest;

static void
blog_coverage_cb (CgHarvester *harvester,
                  guint64      requests,
                  guint64      bigrams,
                  BlogHarvest *result)
{
  result->bigrams = bigrams;
}

/* Harvests the blog at @base with its patterns, into a new project. */
static void
harvest_blog (const char  *base,
              GHashTable  *requests,
              gboolean     prune,
              BlogHarvest *result)
{
  const char *home = "<html><body><nav id=\"recent\"><a href=\"/post/9\">n</a></nav>"
                     "<nav id=\"tags\"><a href=\"/tag/1\">t</a></nav>"
                     "<nav id=\"topics\"><a href=\"/topic/1\">t</a></nav></body></html>";
  const char *post = "<html><body><article><p>w</p></article>"
                     "<nav id=\"older\"><a href=\"/post/8\">o</a></nav></body></html>";
  g_autofree char *recent = blog_label (base, home, "/post/9");
  g_autofree char *tags = blog_label (base, home, "/tag/1");
  g_autofree char *topics = blog_label (base, home, "/topic/1");
  g_autofree char *older = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *pattern = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = cg_site_model_new (base);
  g_autoptr(CgHarvestOptions) options = cg_harvest_options_new ();
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Run run = { 0 };
  GHashTableIter iter;
  gpointer key, value;

  {
    g_autofree char *post_url = g_strconcat (base, "post/9", NULL);
    g_autofree char *older_url = g_strconcat (base, "post/8", NULL);
    htmlDocPtr doc = cg_html_parse (post, strlen (post), post_url, "text/html", NULL);
    g_autoptr(GPtrArray) links = cg_nav_links_for_document (doc, post_url, CG_LINK_LABEL_DEFAULT_ATTRIBUTES, NULL);

    for (guint i = 0; i < links->len; i++)
      if (g_str_equal (((CgNavLink *) g_ptr_array_index (links, i))->url, older_url))
        older = g_strdup (((CgNavLink *) g_ptr_array_index (links, i))->label);
    xmlFreeDoc (doc);
    g_assert_nonnull (older);
  }

  /* The patterns in the order seed 004 would select them: the posts, the
   * tags, the topics. */
  pattern = g_strdup_printf ("L(%s) L+(%s)", recent, older);
  cg_site_model_add_pattern (model, pattern, 3, 3);
  g_clear_pointer (&pattern, g_free);
  pattern = g_strdup_printf ("L(%s)", tags);
  cg_site_model_add_pattern (model, pattern, 2, 2);
  g_clear_pointer (&pattern, g_free);
  pattern = g_strdup_printf ("L(%s)", topics);
  cg_site_model_add_pattern (model, pattern, 1, 1);

  dir = cg_test_folder_new ("cg-harvester-blog-XXXXXX");
  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cg_site_model_save (model, cg_project_get_store (project), &error));
  g_assert_no_error (error);

  options->strategy = CG_HARVEST_STRATEGY_PATTERNS;
  options->prune_patterns = prune;
  options->crawl->requisites = FALSE;
  cg_crawl_config_disable_politeness (options->crawl);
  g_hash_table_remove_all (requests);
  harvester = cg_harvester_new (project, model, options, &error);
  g_assert_no_error (error);
  run.loop = loop;
  g_signal_connect (harvester, "finished", G_CALLBACK (harvest_finished_cb), &run);
  g_signal_connect (harvester, "coverage", G_CALLBACK (blog_coverage_cb), result);
  cg_harvester_start (harvester);
  g_main_loop_run (loop);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);

  memset (result, 0, G_STRUCT_OFFSET (BlogHarvest, bigrams));
  g_hash_table_iter_init (&iter, requests);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_cmpuint (GPOINTER_TO_UINT (value), ==, 1);
      result->posts += g_str_has_prefix (key, "/post/");
      result->tags += g_str_has_prefix (key, "/tag/");
      result->topics += g_str_has_prefix (key, "/topic/");
    }
  g_clear_object (&harvester);
  g_clear_object (&project);
  if (g_getenv ("CG_TEST_KEEP") == NULL)
    cg_test_remove_tree (dir);
}

/* A pattern whose pages only repeat what the others reached (tag pages
 * of excerpts, once the posts are in) is dropped after a few pages; one
 * whose pages bring text of their own (topics) runs to its end, and so
 * does every pattern when pruning is off. The text lost is a sliver. */
static void
test_prune (void)
{
  g_autoptr(GHashTable) requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *base = NULL;
  g_autoptr(SoupServer) server = cg_test_server_new (blog_cb, requests, &base);
  BlogHarvest pruned = { 0 }, whole = { 0 };

  harvest_blog (base, requests, FALSE, &whole);
  g_assert_cmpuint (whole.posts, ==, BLOG_POSTS);
  g_assert_cmpuint (whole.tags, ==, BLOG_TAGS);
  g_assert_cmpuint (whole.topics, ==, BLOG_TOPICS);

  harvest_blog (base, requests, TRUE, &pruned);
  g_test_message ("pruned: %u posts, %u tags, %u topics, %" G_GUINT64_FORMAT " 2-grams of %" G_GUINT64_FORMAT,
                  pruned.posts, pruned.tags, pruned.topics, pruned.bigrams, whole.bigrams);
  g_assert_cmpuint (pruned.posts, ==, BLOG_POSTS);
  g_assert_cmpuint (pruned.tags, ==, CG_HARVEST_PRUNE_PAGES);
  g_assert_cmpuint (pruned.topics, ==, BLOG_TOPICS);
  g_assert_cmpuint (pruned.bigrams * 100, >=, whole.bigrams * 98);
  g_assert_cmpuint (pruned.bigrams, <, whole.bigrams);
}

/* Seed 001's Group on a map made by hand: list pages and their next
 * pages become one repeating node, the items under them one node. */
static void
test_target_map (void)
{
  g_autoptr(CgTargetMap) map = cg_target_map_new ("http://shop.test/");
  g_autoptr(CgUrlNavNode) nav = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GPtrArray) reached = NULL;
  g_autoptr(GError) error = NULL;
  CgUrlNavNode *list = NULL;

  g_assert_null (cg_target_map_generate (map, &error));
  g_assert_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_NO_TARGET);
  g_clear_error (&error);

  g_assert_true (cg_target_map_add_page (map, "http://shop.test/list/a", "http://shop.test/", FALSE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/list/b", "http://shop.test/", FALSE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/about", "http://shop.test/", FALSE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/item/1", "http://shop.test/list/a", TRUE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/item/2", "http://shop.test/list/a", TRUE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/list/a2", "http://shop.test/list/a", FALSE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/item/3", "http://shop.test/list/a2", TRUE, &error));
  g_assert_true (cg_target_map_add_page (map, "http://shop.test/item/4", "http://shop.test/list/b", TRUE, &error));
  g_assert_no_error (error);
  /* Bad input: a page twice, an unknown parent, no URL. */
  g_assert_false (cg_target_map_add_page (map, "http://shop.test/item/4", "http://shop.test/", TRUE, &error));
  g_assert_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (cg_target_map_add_page (map, "http://shop.test/x", "http://shop.test/nowhere", TRUE, &error));
  g_assert_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (cg_target_map_add_page (map, "", "http://shop.test/", TRUE, &error));
  g_assert_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_cmpuint (cg_target_map_get_n_targets (map), ==, 4);

  nav = cg_target_map_generate (map, &error);
  g_assert_no_error (error);
  /* The entry, one list node (the next page folded in, so it repeats)
   * and one item node under it; the about page led to no target. */
  nodes = cg_url_nav_node_flatten (nav);
  g_assert_cmpuint (nodes->len, ==, 3);
  g_assert_cmpuint (nav->children->len, ==, 1);
  list = g_ptr_array_index (nav->children, 0);
  g_assert_true (list->repeats);
  g_assert_cmpuint (list->children->len, ==, 1);
  g_assert_cmpuint (((CgUrlNavNode *) g_ptr_array_index (list->children, 0))->n_targets, ==, 4);
  reached = cg_url_nav_node_follow (nav, "http://shop.test/list/zz");
  g_assert_cmpuint (reached->len, ==, 1);
  g_clear_pointer (&reached, g_ptr_array_unref);
  reached = cg_url_nav_node_follow (nav, "http://shop.test/about");
  g_assert_cmpuint (reached->len, ==, 0);
  g_clear_pointer (&reached, g_ptr_array_unref);
  reached = cg_url_nav_node_follow (list, "http://shop.test/item/77");
  g_assert_cmpuint (reached->len, ==, 1);
}

/* Bad options, models and states get errors that say what is wrong. */
/* A harvest that cannot keep its state file (a full disk, "harvests"
 * taken by a file) fails at once, naming the file, instead of running
 * to an end it could neither resume nor be compared with. */
static void
test_state_not_kept (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_CLASSES);
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *state_dir = g_build_filename (demo->dir, "harvests", NULL);
  g_autofree char *state = NULL;
  gint64 crawl_id;
  Run run = { 0 };

  g_assert_true (g_file_set_contents (state_dir, "not a folder", -1, NULL));
  g_assert_null (cg_harvester_new (demo->project, demo->model, options, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR);
  g_assert_nonnull (strstr (error->message, state_dir));
  g_clear_error (&error);
  /* The crawl it had opened is recorded failed: no later harvest takes
   * it for the one to compare with, and resuming it says why it cannot. */
  g_assert_cmpint (cg_harvester_find_previous (demo->project, 0, &error), ==, 0);
  g_assert_no_error (error);
  crawl_id = cg_harvester_find_resumable (demo->project, &error);
  g_assert_no_error (error);
  g_assert_null (cg_harvester_new_for_crawl (demo->project, crawl_id, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_assert_nonnull (strstr (error->message, state_dir));
  g_clear_error (&error);
  g_assert_cmpint (g_unlink (state_dir), ==, 0);

  /* A harvest by example keeps its state again once its map is made: a
   * folder where the file should be makes it fail then, naming it. */
  options->strategy = CG_HARVEST_STRATEGY_LIKE;
  options->like_url = g_strconcat (demo->origin, unsampled_book_path (demo), NULL);
  options->like_map_pages = 40;
  options->crawl->requisites = FALSE;
  harvester = harvester_new (demo, options);
  crawl_id = cg_harvester_get_crawl_id (harvester);
  state = g_strdup_printf ("%s/crawl-%" G_GINT64_FORMAT ".json", state_dir, crawl_id);
  g_assert_true (g_file_test (state, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (g_unlink (state), ==, 0);
  g_assert_cmpint (g_mkdir (state, 0755), ==, 0);
  g_assert_cmpint (run_harvest_to_end (harvester, &run, &error), ==, CG_CRAWL_END_FAILED);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, state));
  g_clear_error (&error);
  g_assert_cmpint (cg_harvester_find_previous (demo->project, 0, &error), ==, 0);
  g_assert_no_error (error);
}

static void
test_bad_input (void)
{
  g_autoptr(Demo) demo = demo_new ();
  g_autoptr(CgHarvestOptions) options = options_new (demo, CG_HARVEST_STRATEGY_LIKE);
  g_autoptr(CgHarvestOptions) parsed = NULL;
  g_autoptr(CgSiteModel) unsaved = cg_site_model_new (demo->base);
  g_autoptr(CgSiteModel) broken = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *state_dir = g_build_filename (demo->dir, "harvests", NULL);
  g_autofree char *state = g_build_filename (state_dir, "crawl-1.json", NULL);
  gint64 explore_id = cg_site_model_get_crawl_id (demo->model);

  /* A harvest by example needs its sample. */
  g_assert_null (cg_harvester_new (demo->project, demo->model, options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_clear_error (&error);
  options->like_url = g_strdup ("ftp://127.0.0.1/x");
  g_assert_false (cg_harvest_options_validate (options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "ftp://127.0.0.1/x"));
  g_clear_error (&error);
  g_free (options->like_url);
  options->like_url = g_strconcat (demo->base, "book/x", NULL);
  options->like_similarity = 1.5;
  g_assert_false (cg_harvest_options_validate (options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_clear_error (&error);
  options->like_similarity = 0;
  options->class_wait_ms = CG_HARVEST_MAX_CLASS_WAIT_MS + 1;
  g_assert_false (cg_harvest_options_validate (options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_clear_error (&error);
  options->class_wait_ms = 0;
  g_assert_true (cg_harvest_options_validate (options, &error));

  /* Options go through JSON and back; bad JSON is refused. */
  json = cg_harvest_options_to_json (options);
  parsed = cg_harvest_options_from_json (json, &error);
  g_assert_no_error (error);
  g_assert_cmpint (parsed->strategy, ==, CG_HARVEST_STRATEGY_LIKE);
  g_assert_cmpstr (parsed->like_url, ==, options->like_url);
  g_assert_null (cg_harvest_options_from_json ("{\"strategy\": \"everything\"}", &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "everything"));
  g_clear_error (&error);
  g_assert_null (cg_harvest_options_from_json ("{\"class_wait_ms\": -4}", &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "class_wait_ms"));
  g_clear_error (&error);
  g_assert_null (cg_harvest_options_from_json ("[1, 2", &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
  g_clear_error (&error);
  /* Members of the wrong type are named, with no critical from json-glib. */
  {
    const char *wrong[][2] = {
      { "{\"everything\": \"yes\"}", "“everything” should be true or false, not a string" },
      { "{\"strategy\": []}", "“strategy” should be a string, not an array" },
      { "{\"like_similarity\": {}}", "“like_similarity” should be a number, not an object" },
      { "{\"crawl\": 3}", "“crawl” should be an object, not a number" },
      { "{\"max_repeats\": 1.5}", "“max_repeats” should be a whole number" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
      {
        g_assert_null (cg_harvest_options_from_json (wrong[i][0], &error));
        g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID);
        if (strstr (error->message, wrong[i][1]) == NULL)
          g_error ("options %s gave “%s”, expected “%s”", wrong[i][0], error->message, wrong[i][1]);
        g_clear_error (&error);
      }
  }

  /* A model that is not saved, a model without patterns for a
   * pattern-driven harvest. */
  options->strategy = CG_HARVEST_STRATEGY_CLASSES;
  g_assert_null (cg_harvester_new (demo->project, unsaved, options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL);
  g_clear_error (&error);
  {
    g_autofree char *model_json = cg_site_model_to_json (demo->model);
    g_autoptr(JsonNode) node = json_from_string (model_json, &error);
    g_autofree char *without = NULL;

    g_assert_no_error (error);
    json_object_remove_member (json_node_get_object (node), "patterns");
    without = json_to_string (node, FALSE);
    broken = cg_site_model_from_json (without, &error);
    g_assert_no_error (error);
  }
  g_assert_true (cg_site_model_save (broken, cg_project_get_store (demo->project), &error));
  g_assert_no_error (error);
  options->strategy = CG_HARVEST_STRATEGY_PATTERNS;
  g_assert_null (cg_harvester_new (demo->project, broken, options, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "no navigation patterns"));
  g_clear_error (&error);

  /* Nothing to resume, no such harvest, a crawl that is no harvest, a
   * state that is not JSON. */
  g_assert_cmpint (cg_harvester_find_resumable (demo->project, &error), ==, 0);
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_clear_error (&error);
  g_assert_null (cg_harvester_new_for_crawl (demo->project, 4242, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_assert_nonnull (strstr (error->message, "4242"));
  g_clear_error (&error);
  g_assert_null (cg_harvester_new_for_crawl (demo->project, explore_id, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_clear_error (&error);
  g_assert_cmpint (g_mkdir_with_parents (state_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (state, "{\"options\": {\"strategy\": \"classes\"}, \"site\": 3", -1, NULL));
  g_assert_null (cg_harvester_new_for_crawl (demo->project, 1, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_assert_nonnull (strstr (error->message, "is not a harvest"));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (state, "{\"options\": {\"strategy\": \"classes\"}, \"site\": 3}", -1, NULL));
  g_assert_null (cg_harvester_new_for_crawl (demo->project, 1, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_assert_nonnull (strstr (error->message, "“site” should be a string, not a number"));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (state, "{\"options\": [], \"site\": \"http://127.0.0.1/\"}", -1, NULL));
  g_assert_null (cg_harvester_new_for_crawl (demo->project, 1, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_assert_nonnull (strstr (error->message, "“options” should be an object, not an array"));
  g_clear_error (&error);

  /* A report of crawls the project does not have. */
  g_assert_null (cg_harvest_report_compute (demo->project, 999, 0, &error));
  g_assert_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST);
  g_clear_error (&error);
}

/* A model with one class, of @site, made by crawl @crawl_id (0: none). */
static CgSiteModel *
one_class_model (CgProject  *project,
                 const char *site,
                 gint64      crawl_id)
{
  g_autoptr(GError) error = NULL;
  CgSiteModel *model = cg_site_model_new (site);
  CgPageClass *klass = cg_site_model_add_class (model, "home", "Home");

  klass->n_pages = 1;
  g_strfreev (klass->samples);
  klass->samples = g_new0 (char *, 2);
  klass->samples[0] = g_strdup (site);
  cg_site_model_set_entry_class (model, "home");
  cg_site_model_compute_depths (model);
  cg_site_model_set_crawl_id (model, crawl_id);
  g_assert_true (cg_site_model_save (model, cg_project_get_store (project), &error));
  g_assert_no_error (error);
  return model;
}

/* The entry URL of @model's harvest, made with @seed as its first seed
 * (NULL: none). */
static char *
harvest_entry (CgProject   *project,
               CgSiteModel *model,
               const char  *seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgHarvestOptions) options = cg_harvest_options_new ();
  g_autoptr(CgHarvester) harvester = NULL;

  if (seed != NULL)
    {
      g_strfreev (options->crawl->seeds);
      options->crawl->seeds = g_new0 (char *, 2);
      options->crawl->seeds[0] = g_strdup (seed);
    }
  harvester = cg_harvester_new (project, model, options, &error);
  g_assert_no_error (error);
  return g_strdup (cg_harvester_get_options (harvester)->crawl->seeds[0]);
}

/* A model learned from under a path of its site is harvested from where
 * its exploration started: the site's root may be no page of it at all
 * (an error page, another application). A harvest once began there. */
static void
test_entry (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-harvester-entry-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) explored = NULL;
  g_autoptr(CgSiteModel) elsewhere = NULL;
  g_autoptr(CgSiteModel) imported = NULL;
  g_autofree char *entry = NULL;
  gint64 crawl_id;

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);

  crawl_id = cg_project_add_crawl (project, "explore", "http://shop.example/catalogue/", "{}", &error);
  g_assert_no_error (error);
  explored = one_class_model (project, "http://shop.example/", crawl_id);
  entry = harvest_entry (project, explored, NULL);
  g_assert_cmpstr (entry, ==, "http://shop.example/catalogue/");
  g_clear_pointer (&entry, g_free);
  /* A seed given wins. */
  entry = harvest_entry (project, explored, "http://shop.example/other/");
  g_assert_cmpstr (entry, ==, "http://shop.example/other/");
  g_clear_pointer (&entry, g_free);

  /* An exploration whose seed is off the model's site (it was
   * redirected), and a model no exploration made: the site. */
  crawl_id = cg_project_add_crawl (project, "explore", "http://old.example/", "{}", &error);
  g_assert_no_error (error);
  elsewhere = one_class_model (project, "http://new.example/", crawl_id);
  entry = harvest_entry (project, elsewhere, NULL);
  g_assert_cmpstr (entry, ==, "http://new.example/");
  g_clear_pointer (&entry, g_free);
  imported = one_class_model (project, "http://imported.example/", 0);
  entry = harvest_entry (project, imported, NULL);
  g_assert_cmpstr (entry, ==, "http://imported.example/");

  g_clear_object (&project);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  learn_template ();

  g_test_add_func ("/harvester/target-map", test_target_map);
  g_test_add_func ("/harvester/bad-input", test_bad_input);
  g_test_add_func ("/harvester/state-not-kept", test_state_not_kept);
  g_test_add_func ("/harvester/entry", test_entry);
  g_test_add_func ("/harvester/classes", test_classes);
  g_test_add_data_func ("/harvester/reuse/classes", GINT_TO_POINTER (CG_HARVEST_STRATEGY_CLASSES), test_reuse);
  g_test_add_data_func ("/harvester/reuse/patterns", GINT_TO_POINTER (CG_HARVEST_STRATEGY_PATTERNS), test_reuse);
  g_test_add_func ("/harvester/reuse/resume", test_reuse_resume);
  g_test_add_func ("/harvester/prune", test_prune);
  g_test_add_func ("/harvester/class-wait", test_class_wait);
  g_test_add_func ("/harvester/patterns", test_patterns);
  g_test_add_func ("/harvester/like", test_like);
  g_test_add_func ("/harvester/like-missing-sample", test_like_missing_sample);
  g_test_add_func ("/harvester/reharvest", test_reharvest);
  g_test_add_func ("/harvester/reharvest-missing-warc", test_reharvest_missing_warc);
  g_test_add_func ("/harvester/samples-missing", test_samples_missing);
  g_test_add_func ("/harvester/resume", test_resume);
  g_test_add_func ("/harvester/reharvest-resume", test_reharvest_resume);

  status = g_test_run ();
  g_clear_object (&demo_server);
  cg_test_remove_tree (template_dir);
  g_free (template_dir);
  return status;
}
