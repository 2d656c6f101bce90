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
 * while it runs and from the owner's thread once it has ended, never from
 * both at once.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

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
  guint64          n_requests;
  GMainContext    *owner_context;
};

G_DEFINE_FINAL_TYPE (CgSiteExplorer, cg_site_explorer, G_TYPE_OBJECT)

enum {
  SIGNAL_FINISHED,
  SIGNAL_COVERAGE,
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
    g_debug ("Learning from %s: %s", requested_url, error->message);
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

      data->explorer = g_object_ref (self);
      data->requests = ++self->n_requests;
      data->bigrams = cg_nav_graph_get_n_bigrams (self->graph);
      g_main_context_invoke_full (self->owner_context, G_PRIORITY_DEFAULT, emit_coverage_cb, data, coverage_data_free);
    }
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

/* Labels each sampled page with the class the model gives it. */
static gboolean
label_pages (CgSiteExplorer  *self,
             GError         **error)
{
  CgStore *store = cg_project_get_store (self->project);
  g_auto(GStrv) pages = cg_site_learner_list_pages (self->learner);
  gint64 crawl_id = cg_crawler_get_crawl_id (self->crawler);

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
      sqlite3_bind_int64 (stmt, 2, cg_site_model_get_id (self->model));
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

static void
crawl_finished_cb (CgCrawler      *crawler,
                   int             end,
                   const GError   *crawl_error,
                   CgSiteExplorer *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) choices = NULL;
  g_autofree char *parameters = NULL;

  if (end == CG_CRAWL_END_FAILED || end == CG_CRAWL_END_STOPPED)
    {
      error = crawl_error != NULL ? g_error_copy (crawl_error)
                                  : g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED,
                                                 _("The exploration was stopped before it could learn a model"));
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
      return;
    }

  self->model = cg_site_learner_build_model (self->learner);
  choices = cg_nav_graph_select (self->graph, NULL, NULL, &error);
  if (choices != NULL)
    cg_nav_choices_add_to_model (choices, self->model);
  else
    {
      /* A model without patterns is still a model: the patterns only add
       * a way to harvest it. */
      g_debug ("No navigation patterns: %s", error->message);
      g_clear_error (&error);
    }
  cg_site_model_set_crawl_id (self->model, cg_crawler_get_crawl_id (crawler));
  parameters = parameters_json (&self->params, cg_crawler_get_crawl_id (crawler));
  cg_site_model_set_parameters (self->model, parameters);

  if (!cg_site_model_save (self->model, cg_project_get_store (self->project), &error) ||
      !label_pages (self, &error))
    {
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, error);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, NULL);
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
}

static void
cg_site_explorer_init (CgSiteExplorer *self)
{
  self->owner_context = g_main_context_ref_thread_default ();
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
