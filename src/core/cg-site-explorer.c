/* cg-site-explorer.c: the learning crawl that makes a site's model.
 *
 * Seed 000's learner decides which pages to fetch; a driven crawl fetches
 * them, so that every sampled page goes through the archival crawler
 * (WARC, robots.txt, politeness) like any other. The sampled pages also
 * make the graph on which seed 004's navigation patterns are chosen.
 * When the crawl ends, the model is saved as the next version for the
 * site, with its patterns, and each sampled page is labelled with its
 * class.
 *
 * The learner and the pattern graph are used from the crawl's thread
 * while it runs and from a worker thread once it has ended, never from
 * both at once. The worker builds and saves the model, which takes tens
 * of milliseconds on a real sample: on the owner's thread that would
 * stall a window's main loop. While the crawl runs, the crawl's thread
 * builds a snapshot of the model under way now and then for the owner to
 * show; the owner never touches the learner.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "cg-dispatch.h"
#include "cg-links.h"
#include "cg-link-label.h"
#include "cg-nav-patterns.h"
#include "cg-site-explorer.h"

struct _CgSiteExplorer
{
  GObject          parent_instance;

  CgProject       *project;
  CgCrawler       *crawler;
  CgSiteLearner   *learner;
  CgNavGraph      *graph;
  CgLearnerParams  params;
  CgSiteModel     *model;
  gint             n_pages;   /* atomic */
  gint             n_html_pages;   /* atomic: HTML pages fetched whole, the learner's material */
  /* HTML pages the learner could not read, and why the first could not
   * (the crawl's thread writes them; they are read once it has ended). */
  guint            n_unreadable_pages;
  char            *first_unreadable;
  guint64          n_requests;
  GMainContext    *owner_context;

  /* Snapshots: how often (atomic, so that the owner may change them
   * while the crawl runs), and when the last one was (the crawl's thread
   * alone uses these). */
  gint             snapshot_pages;
  gint             snapshot_interval_ms;
  guint            pages_at_snapshot;
  gint64           snapshot_at_us;
};

G_DEFINE_FINAL_TYPE (CgSiteExplorer, cg_site_explorer, G_TYPE_OBJECT)

enum {
  SIGNAL_FINISHED,
  SIGNAL_COVERAGE,
  SIGNAL_MODEL_UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  CgSiteExplorer *explorer;
  guint64         requests;
  guint64         bigrams;
} CoverageData;

static gboolean
emit_coverage_cb (gpointer user_data)
{
  CoverageData *data = user_data;

  g_signal_emit (data->explorer, signals[SIGNAL_COVERAGE], 0, data->requests, data->bigrams);
  return G_SOURCE_REMOVE;
}

static void
coverage_data_free (gpointer user_data)
{
  CoverageData *data = user_data;

  g_object_unref (data->explorer);
  g_free (data);
}

typedef struct {
  CgSiteExplorer *explorer;
  CgSiteModel    *model;
} SnapshotData;

static gboolean
emit_model_updated_cb (gpointer user_data)
{
  SnapshotData *data = user_data;

  g_signal_emit (data->explorer, signals[SIGNAL_MODEL_UPDATED], 0, data->model);
  return G_SOURCE_REMOVE;
}

static void
snapshot_data_free (gpointer user_data)
{
  SnapshotData *data = user_data;

  g_object_unref (data->explorer);
  g_object_unref (data->model);
  g_free (data);
}

/* In the crawl's thread, after a page: builds the model of the pages so
 * far and hands it to the owner, when enough pages and time have passed
 * since the last one and somebody listens. The model is the learner's
 * alone, without navigation patterns, and is never saved. */
static void
maybe_publish_snapshot (CgSiteExplorer *self)
{
  guint n_pages = (guint) g_atomic_int_get (&self->n_pages);
  guint min_pages = (guint) g_atomic_int_get (&self->snapshot_pages);
  gint64 interval_us = (gint64) g_atomic_int_get (&self->snapshot_interval_ms) * G_TIME_SPAN_MILLISECOND;
  gint64 now = g_get_monotonic_time ();
  SnapshotData *data;

  if (n_pages - self->pages_at_snapshot < min_pages ||
      (self->snapshot_at_us != 0 && now - self->snapshot_at_us < interval_us))
    return;
  /* Building the model is the costly part, and only worth it for a
   * listener. GSignal's handler lists are safe to read from any thread. */
  if (!g_signal_has_handler_pending (self, signals[SIGNAL_MODEL_UPDATED], 0, FALSE))
    return;

  self->pages_at_snapshot = n_pages;
  self->snapshot_at_us = now;
  data = g_new0 (SnapshotData, 1);
  data->explorer = g_object_ref (self);
  data->model = cg_site_learner_build_model (self->learner);
  cg_dispatch_to_context (self->owner_context, emit_model_updated_cb, data, snapshot_data_free);
}

static GPtrArray *
next_urls (gpointer user_data)
{
  CgSiteExplorer *self = user_data;

  return cg_site_learner_next_requests (self->learner);
}

static gboolean
is_html (const char *content_type)
{
  return g_strcmp0 (content_type, "text/html") == 0 || g_strcmp0 (content_type, "application/xhtml+xml") == 0;
}

static void
page (gpointer    user_data,
      const char *requested_url,
      const char *final_url,
      guint       status,
      const char *content_type,
      GBytes     *body,
      gint64      url_id)
{
  CgSiteExplorer *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!cg_site_learner_add_page (self->learner, requested_url, final_url, status, content_type, body, &error))
    {
      g_debug ("Learning from %s: %s", requested_url, error->message);
      if (final_url != NULL && status / 100 == 2 && is_html (content_type) && self->n_unreadable_pages++ == 0)
        self->first_unreadable = g_strdup (error->message);
    }
  g_atomic_int_inc (&self->n_pages);

  /* The same pages make the graph navigation patterns are chosen on. */
  if (final_url != NULL && status / 100 == 2 && body != NULL && is_html (content_type))
    {
      g_autoptr(GError) graph_error = NULL;
      htmlDocPtr doc = cg_html_parse (g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                                      final_url, content_type, &graph_error);

      if (doc != NULL)
        {
          if (!cg_nav_graph_add_document (self->graph, final_url, doc, CG_LINK_LABEL_DEFAULT_ATTRIBUTES, NULL, &graph_error))
            g_debug ("Navigation graph, %s: %s", final_url, graph_error->message);
          xmlFreeDoc (doc);
        }
    }

  /* The sample's distinct 2-grams against its HTML pages, as the harvest
   * reports them. */
  if (final_url != NULL && status / 100 == 2 && is_html (content_type))
    {
      CoverageData *data = g_new0 (CoverageData, 1);

      g_atomic_int_inc (&self->n_html_pages);

      data->explorer = g_object_ref (self);
      data->requests = ++self->n_requests;
      data->bigrams = cg_nav_graph_get_n_bigrams (self->graph);
      cg_dispatch_to_context (self->owner_context, emit_coverage_cb, data, coverage_data_free);
    }

  maybe_publish_snapshot (self);
}

static char *
parameters_json (const CgLearnerParams *params,
                 gint64                 crawl_id)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "max_pages");
  json_builder_add_int_value (builder, params->max_pages);
  json_builder_set_member_name (builder, "merge_threshold");
  json_builder_add_double_value (builder, params->merge_threshold);
  json_builder_set_member_name (builder, "samples_per_collection");
  json_builder_add_int_value (builder, params->samples_per_collection);
  json_builder_set_member_name (builder, "c_index");
  json_builder_add_double_value (builder, params->c_index);
  json_builder_set_member_name (builder, "c_miss");
  json_builder_add_double_value (builder, params->c_miss);
  json_builder_set_member_name (builder, "navigation");
  json_builder_add_string_value (builder, params->navigation == CG_LEARNER_NAVIGATION_DENSE ? "dense" : "sparse");
  json_builder_set_member_name (builder, "crawl");
  json_builder_add_int_value (builder, crawl_id);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

/* Labels each sampled page with the class @model gives it. */
static gboolean
label_pages (CgSiteExplorer  *self,
             CgStore         *store,
             CgSiteModel     *model,
             gint64           crawl_id,
             GError         **error)
{
  g_auto(GStrv) pages = cg_site_learner_list_pages (self->learner);

  if (!cg_store_begin (store, error))
    return FALSE;
  for (guint i = 0; pages[i] != NULL; i++)
    {
      g_autoptr(sqlite3_stmt) stmt = NULL;

      stmt = cg_store_prepare (store,
                               "INSERT OR REPLACE INTO page_labels (url_id, model_id, class, method) "
                               "SELECT id, ?2, ?3, 'sample' FROM urls WHERE crawl_id = ?1 AND url = ?4",
                               error);
      if (stmt == NULL)
        {
          cg_store_rollback (store);
          return FALSE;
        }
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      sqlite3_bind_int64 (stmt, 2, cg_site_model_get_id (model));
      sqlite3_bind_text (stmt, 3, cg_site_learner_get_page_class (self->learner, pages[i]), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, pages[i], -1, SQLITE_STATIC);
      if (!cg_store_step_done (store, stmt, error))
        {
          cg_store_rollback (store);
          return FALSE;
        }
    }
  return cg_store_commit (store, error);
}

typedef struct {
  char   *db_path;
  gint64  crawl_id;
} FinishJob;

static void
finish_job_free (gpointer user_data)
{
  FinishJob *job = user_data;

  g_free (job->db_path);
  g_free (job);
}

/* In a worker thread, once the crawl has ended: builds the model with its
 * navigation patterns, saves it as the site's next version and labels the
 * sample with it, on a connection of its own to the project's store (a
 * connection is used by one thread at a time; WAL mode lets the owner's
 * keep reading meanwhile). */
static void
finish_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CgSiteExplorer *self = source;
  FinishJob *job = task_data;
  g_autoptr(CgStore) store = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GPtrArray) choices = NULL;
  g_autofree char *parameters = NULL;
  GError *error = NULL;

  store = cg_store_open (job->db_path, &error);
  if (store == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  model = cg_site_learner_build_model (self->learner);
  choices = cg_nav_graph_select (self->graph, NULL, NULL, &error);
  if (choices != NULL)
    cg_nav_choices_add_to_model (choices, model);
  else
    {
      /* A model without patterns is still a model: the patterns only add
       * a way to harvest it. */
      g_debug ("No navigation patterns: %s", error->message);
      g_clear_error (&error);
    }
  cg_site_model_set_crawl_id (model, job->crawl_id);
  parameters = parameters_json (&self->params, job->crawl_id);
  cg_site_model_set_parameters (model, parameters);

  if (!cg_site_model_save (model, store, &error) ||
      !label_pages (self, store, model, job->crawl_id, &error))
    g_clear_object (&model);
  /* Closed before the owner hears of the end: the last connection to
   * close removes the store's -wal and -shm files, which the owner may
   * by then be copying or opening. */
  g_clear_object (&store);
  if (model == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&model), g_object_unref);
}

static void
model_saved_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  CgSiteExplorer *self = CG_SITE_EXPLORER (source);
  g_autoptr(GError) error = NULL;

  self->model = g_task_propagate_pointer (G_TASK (result), &error);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
}

static void
crawl_finished_cb (CgCrawler      *crawler,
                   int             end,
                   const GError   *crawl_error,
                   CgSiteExplorer *self)
{
  g_autoptr(GTask) task = NULL;
  FinishJob *job;

  /* A crawl that fetched nothing is the case of no HTML page, below. */
  if ((end == CG_CRAWL_END_FAILED &&
       !g_error_matches (crawl_error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NOTHING_FETCHED)) ||
      end == CG_CRAWL_END_STOPPED)
    {
      g_autoptr(GError) error = NULL;

      error = crawl_error != NULL ? g_error_copy (crawl_error)
                                  : g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED,
                                                 _("The exploration was stopped before it could learn a model"));
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
      return;
    }

  /* A site that gave no HTML page (unreachable, refused by robots.txt,
   * all errors) leaves nothing to learn from: saving an empty model as
   * its next version would only hide the previous one. */
  if (g_atomic_int_get (&self->n_html_pages) == 0)
    {
      g_autoptr(GError) error = g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED,
                                             _("No HTML page of %s could be fetched, so there is nothing to learn a model from: see the crawl log in the project’s logs folder"),
                                             cg_crawler_get_config (crawler)->seeds[0]);

      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
      return;
    }

  /* HTML pages that could none of them be read (no element in any, say)
   * would give a model of no classes. */
  if (self->n_unreadable_pages == (guint) g_atomic_int_get (&self->n_html_pages))
    {
      g_autoptr(GError) error = g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED,
                                             _("No HTML page of %s could be read (%u fetched), so there is nothing "
                                               "to learn a model from; the first: %s"),
                                             cg_crawler_get_config (crawler)->seeds[0], self->n_unreadable_pages,
                                             self->first_unreadable);

      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
      return;
    }

  job = g_new0 (FinishJob, 1);
  job->db_path = g_strdup (cg_store_get_path (cg_project_get_store (self->project)));
  job->crawl_id = cg_crawler_get_crawl_id (crawler);

  /* The task reports to the thread-default context it was made in:
   * "finished" belongs in the owner's, whoever iterates it. */
  g_main_context_push_thread_default (self->owner_context);
  task = g_task_new (self, NULL, model_saved_cb, NULL);
  g_main_context_pop_thread_default (self->owner_context);
  g_task_set_source_tag (task, crawl_finished_cb);
  g_task_set_name (task, "cg-site-explorer-save");
  g_task_set_task_data (task, job, finish_job_free);
  g_task_run_in_thread (task, finish_thread);
}

static void
cg_site_explorer_finalize (GObject *object)
{
  CgSiteExplorer *self = CG_SITE_EXPLORER (object);

  g_clear_object (&self->crawler);
  g_clear_object (&self->learner);
  g_clear_pointer (&self->graph, cg_nav_graph_free);
  g_clear_object (&self->model);
  g_clear_object (&self->project);
  g_clear_pointer (&self->owner_context, g_main_context_unref);
  g_free (self->first_unreadable);

  G_OBJECT_CLASS (cg_site_explorer_parent_class)->finalize (object);
}

static void
cg_site_explorer_class_init (CgSiteExplorerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_site_explorer_finalize;

  /* Emitted when the exploration ends: with NULL once the model is saved,
   * or with the error that kept it from being made. */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  /* After each HTML page that was fetched, in the main context of the
   * thread that made the explorer: the HTML pages fetched (guint64) and
   * their distinct word 2-grams (guint64), as the harvester's "coverage"
   * signal. */
  signals[SIGNAL_COVERAGE] = g_signal_new ("coverage", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);
  /* Now and then during the crawl, in the same context: a snapshot of the
   * model under way (CgSiteModel, unsaved, without navigation patterns),
   * built in the crawl's thread and the receiver's to keep. See
   * cg_site_explorer_set_snapshot_interval(). */
  signals[SIGNAL_MODEL_UPDATED] = g_signal_new ("model-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                0, NULL, NULL, NULL, G_TYPE_NONE, 1, CG_TYPE_SITE_MODEL);
}

static void
cg_site_explorer_init (CgSiteExplorer *self)
{
  self->owner_context = g_main_context_ref_thread_default ();
  self->snapshot_pages = CG_SITE_EXPLORER_SNAPSHOT_PAGES;
  self->snapshot_interval_ms = CG_SITE_EXPLORER_SNAPSHOT_INTERVAL_MS;
}

/* Explorations are never resumed: one whose process was killed stays
 * recorded as running, its last WARC file unfinished and unindexed. Each
 * is ended before a new one starts (cg_crawler_close_interrupted()); one
 * that another process runs is left to it. */
static gboolean
close_interrupted_explorations (CgProject  *project,
                                GError    **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  CgStore *store = cg_project_get_store (project);
  int rc;

  {
    g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                     "SELECT id FROM crawls WHERE kind = 'explore' AND state = 'running'",
                                                     error);

    if (stmt == NULL)
      return FALSE;
    while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
      {
        gint64 id = sqlite3_column_int64 (stmt, 0);

        g_array_append_val (ids, id);
      }
    if (rc != SQLITE_DONE)
      return cg_store_set_error (store, rc, error);
  }
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (!cg_crawler_close_interrupted (project, g_array_index (ids, gint64, i), &local_error) &&
          !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_BUSY))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * cg_site_explorer_new:
 * @config: how pages are fetched; its first seed is the entry page
 * @params: (nullable): the learner's parameters
 */
CgSiteExplorer *
cg_site_explorer_new (CgProject              *project,
                      const CgCrawlConfig    *config,
                      const CgLearnerParams  *params,
                      GError                **error)
{
  g_autoptr(CgSiteExplorer) self = g_object_new (CG_TYPE_SITE_EXPLORER, NULL);
  CgCrawlDriver driver = { next_urls, page, NULL };

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  if (params != NULL)
    self->params = *params;
  else
    cg_learner_params_init (&self->params);
  if (config->seeds == NULL || config->seeds[0] == NULL)
    {
      g_set_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID, _("The crawl has no seed URL"));
      return NULL;
    }
  if (!close_interrupted_explorations (project, error))
    return NULL;
  self->project = g_object_ref (project);
  self->learner = cg_site_learner_new (config->seeds[0], &self->params, error);
  if (self->learner == NULL)
    return NULL;
  self->graph = cg_nav_graph_new (config->seeds[0]);
  driver.user_data = self;
  self->crawler = cg_crawler_new_driven (project, config, "explore", &driver, error);
  if (self->crawler == NULL)
    return NULL;
  g_signal_connect_object (self->crawler, "finished", G_CALLBACK (crawl_finished_cb), self, 0);
  return g_steal_pointer (&self);
}

CgCrawler *
cg_site_explorer_get_crawler (CgSiteExplorer *self)
{
  return self->crawler;
}

/**
 * cg_site_explorer_set_snapshot_interval:
 * @min_pages: pages fetched between two snapshots, at least 1
 * @min_interval_ms: time between two snapshots
 *
 * How often "model-updated" is emitted: after a page, once both @min_pages
 * pages and @min_interval_ms have passed since the last snapshot (the
 * first one waits for the pages only). It may be called while the crawl
 * runs.
 */
void
cg_site_explorer_set_snapshot_interval (CgSiteExplorer *self,
                                        guint           min_pages,
                                        guint           min_interval_ms)
{
  g_return_if_fail (CG_IS_SITE_EXPLORER (self));

  g_atomic_int_set (&self->snapshot_pages, (gint) CLAMP (min_pages, 1, G_MAXINT));
  g_atomic_int_set (&self->snapshot_interval_ms, (gint) MIN (min_interval_ms, G_MAXINT));
}

void
cg_site_explorer_start (CgSiteExplorer *self)
{
  cg_crawler_start (self->crawler);
}

void
cg_site_explorer_stop (CgSiteExplorer *self)
{
  cg_crawler_stop (self->crawler);
}

/* The saved model, once "finished" was emitted without an error. */
CgSiteModel *
cg_site_explorer_get_model (CgSiteExplorer *self)
{
  return self->model;
}

guint
cg_site_explorer_get_n_pages (CgSiteExplorer *self)
{
  return (guint) g_atomic_int_get (&self->n_pages);
}
