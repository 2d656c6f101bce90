/* test-pipeline.c: the window's background work, where it runs the
 * renderer command: what the command prints reaches the window, what it
 * says when it fails becomes the warning, and Stop ends it; and record
 * extraction from an archive whose WARC files are gone.
 *
 * The command is a shell script standing in for `cartograph-cli model
 * --render-only` (CARTOGRAPH_CLI names it), so that these tests check the
 * pipeline's side of the conversation with a command whose every line is
 * known.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <glib/gstdio.h>

#include "cg-demo-server.h"
#include "cg-pipeline.h"
#include "cg-record-store.h"
#include "cg-test-widgets.h"
#include "core/cg-test-files.h"

typedef struct {
  char        *folder;
  CgProject   *project;
  CgSiteModel *model;
  CgPipeline  *pipeline;
  GPtrArray   *progress;    /* "DONE/TOTAL" of each task-progress */
  GPtrArray   *warnings;
  gboolean     rendered;
  gboolean     finished;
  gboolean     cancelled;
  gboolean     rendering_started;
} Fixture;

static void
progress_cb (CgPipeline *pipeline,
             const char *what,
             guint       done,
             guint       total,
             Fixture    *fixture)
{
  /* Extraction's progress names a class; rendering's names none. */
  if (what == NULL)
    g_ptr_array_add (fixture->progress, g_strdup_printf ("%u/%u", done, total));
}

static void
warning_cb (CgPipeline *pipeline,
            const char *message,
            Fixture    *fixture)
{
  g_ptr_array_add (fixture->warnings, g_strdup (message));
}

static void
rendered_cb (CgPipeline  *pipeline,
             CgSiteModel *model,
             Fixture     *fixture)
{
  fixture->rendered = TRUE;
}

static void
stage_changed_cb (CgPipeline      *pipeline,
                  CgPipelineStage  stage,
                  Fixture         *fixture)
{
  if (stage == CG_PIPELINE_RENDERING)
    fixture->rendering_started = TRUE;
}

static void
finished_cb (CgPipeline      *pipeline,
             CgPipelineStage  stage,
             gboolean         cancelled,
             const GError    *error,
             Fixture         *fixture)
{
  fixture->finished = TRUE;
  fixture->cancelled = cancelled;
  if (error != NULL)
    g_test_message ("The pipeline ended with: %s", error->message);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  CgPageClass *home;

  fixture->folder = cg_test_folder_new ("cg-pipeline-XXXXXX");
  fixture->project = cg_project_create (fixture->folder, "pipeline", &error);
  g_assert_no_error (error);
  fixture->model = cg_site_model_new ("http://127.0.0.1:9/");
  home = cg_site_model_add_class (fixture->model, "home", "Home");
  home->url_pattern = g_strdup ("^/$");
  cg_site_model_set_entry_class (fixture->model, "home");
  cg_site_model_save (fixture->model, cg_project_get_store (fixture->project), &error);
  g_assert_no_error (error);

  fixture->pipeline = cg_pipeline_new (fixture->project);
  fixture->progress = g_ptr_array_new_with_free_func (g_free);
  fixture->warnings = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (fixture->pipeline, "task-progress", G_CALLBACK (progress_cb), fixture);
  g_signal_connect (fixture->pipeline, "warning", G_CALLBACK (warning_cb), fixture);
  g_signal_connect (fixture->pipeline, "samples-rendered", G_CALLBACK (rendered_cb), fixture);
  g_signal_connect (fixture->pipeline, "stage-changed", G_CALLBACK (stage_changed_cb), fixture);
  g_signal_connect (fixture->pipeline, "finished", G_CALLBACK (finished_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->pipeline);
  g_clear_object (&fixture->model);
  g_clear_object (&fixture->project);
  g_ptr_array_unref (fixture->progress);
  g_ptr_array_unref (fixture->warnings);
  /* Let the pipeline's releases in the background run before the folder goes. */
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  cg_test_folder_remove (fixture->folder);
}

/* Writes @body as an executable shell script in the fixture's folder and
 * has the pipeline run it as its renderer command. */
static char *
use_renderer_script (Fixture    *fixture,
                     const char *body)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *script = g_strconcat ("#!/bin/sh\n", body, NULL);
  char *path = g_build_filename (fixture->folder, "renderer.sh", NULL);

  g_file_set_contents (path, script, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  cg_pipeline_set_renderer (fixture->pipeline, path);
  return path;
}

static gboolean
strv_ptr_array_contains (GPtrArray  *array,
                         const char *text)
{
  for (guint i = 0; i < array->len; i++)
    if (g_str_equal (g_ptr_array_index (array, i), text))
      return TRUE;
  return FALSE;
}

static void
test_renderer_output (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *arguments_path = g_build_filename (fixture->folder, "arguments", NULL);
  g_autofree char *body = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *expected_arguments = NULL;
  g_autofree char *script = NULL;

  /* Progress and a failed page on standard output, then the reason for
   * failing on standard error, and a failing exit status. */
  body = g_strdup_printf ("echo \"$@\" > '%s'\n"
                          "echo 'progress 1 2'\n"
                          "printf 'failed http://127.0.0.1:9/a\\tno such page\\n'\n"
                          "echo 'progress 2 2'\n"
                          "echo 'the web engine went away' >&2\n"
                          "exit 3\n", arguments_path);
  script = use_renderer_script (fixture, body);

  g_assert_true (cg_pipeline_prepare_model (fixture->pipeline, fixture->model, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cg_pipeline_get_stage (fixture->pipeline), ==, CG_PIPELINE_RENDERING);
  cg_test_wait_for_flag (&fixture->finished, "the pipeline to finish");

  /* The command was asked for this model's renders. */
  g_file_get_contents (arguments_path, &arguments, NULL, &error);
  g_assert_no_error (error);
  expected_arguments = g_strdup_printf ("model --render-only --machine-progress --project %s "
                                        "--site http://127.0.0.1:9/ --version %d --no-javascript\n",
                                        fixture->folder, cg_site_model_get_version (fixture->model));
  g_assert_cmpstr (arguments, ==, expected_arguments);

  /* Its standard output reached the window in order... */
  g_assert_cmpuint (fixture->progress->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (fixture->progress, 0), ==, "1/2");
  g_assert_cmpstr (g_ptr_array_index (fixture->progress, 1), ==, "2/2");
  g_assert_true (strv_ptr_array_contains (fixture->warnings,
                                          "The sample http://127.0.0.1:9/a could not be rendered: no such page"));
  /* Counted, for the end of the work to say. */
  g_assert_cmpuint (cg_pipeline_get_n_unrendered_samples (fixture->pipeline), ==, 1);
  g_assert_cmpuint (cg_pipeline_get_n_unreadable_pages (fixture->pipeline), ==, 0);
  /* ...and its standard error is what the window says of the failure. */
  g_assert_true (strv_ptr_array_contains (fixture->warnings,
                                          "The sample pages could not be rendered: the web engine went away"));
  /* A failed rendering does not stop the work: extraction can learn from
   * the archived pages. */
  g_assert_true (fixture->rendered);
  g_assert_false (fixture->cancelled);
  g_assert_cmpint (cg_pipeline_get_stage (fixture->pipeline), ==, CG_PIPELINE_IDLE);
}

static gboolean
has_progress (gpointer user_data)
{
  Fixture *fixture = user_data;

  return fixture->progress->len > 0;
}

static void
test_renderer_stop (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *script = NULL;

  /* A command that would render for ten minutes. */
  script = use_renderer_script (fixture, "echo 'progress 0 3'\nexec sleep 600\n");

  g_assert_true (cg_pipeline_prepare_model (fixture->pipeline, fixture->model, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (fixture->rendering_started);
  cg_test_wait_for (has_progress, fixture, "the command's first progress line");
  g_assert_cmpstr (g_ptr_array_index (fixture->progress, 0), ==, "0/3");

  /* Stop ends the command: the pipeline finishes, cancelled, long before
   * the command would have, and nothing follows the rendering. */
  cg_pipeline_stop (fixture->pipeline);
  cg_test_wait_for_flag (&fixture->finished, "the stopped pipeline to finish");
  g_assert_true (fixture->cancelled);
  g_assert_false (fixture->rendered);
  g_assert_cmpuint (fixture->warnings->len, ==, 0);
  g_assert_cmpint (cg_pipeline_get_stage (fixture->pipeline), ==, CG_PIPELINE_IDLE);
}

static guint
count_records (Fixture     *fixture,
               CgSiteModel *model)
{
  g_autoptr(GError) error = NULL;
  gint64 total = cg_record_store_count (cg_project_get_store (fixture->project), cg_site_model_get_id (model), &error);

  g_assert_no_error (error);
  return (guint) total;
}

/* Explores @url with a sample of 30 pages, and waits for the extraction
 * that follows to end. */
static CgSiteModel *
explore (Fixture    *fixture,
         const char *url)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) error = NULL;
  CgLearnerParams params;

  g_strfreev (config->seeds);
  config->seeds = g_strsplit (url, " ", -1);
  cg_crawl_config_disable_politeness (config);
  cg_learner_params_init (&params);
  params.max_pages = 30;
  fixture->finished = FALSE;
  g_assert_true (cg_pipeline_explore (fixture->pipeline, config, &params, FALSE, &error));
  g_assert_no_error (error);
  cg_test_wait_for_flag (&fixture->finished, "the exploration and its extraction");
  g_assert_false (fixture->cancelled);
  return g_object_ref (cg_pipeline_get_model (fixture->pipeline));
}

/* Pages whose WARC file is gone are skipped by extraction and keep their
 * records; the pipeline counts each page once, keeps the first reason, and
 * starts counting again with the next piece of work. */
static void
test_extract_unreadable_pages (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(CgDemoServer) server = cg_demo_server_new ();
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *warc_dir = NULL;
  g_autofree char *script = NULL;
  g_autofree char *expected = NULL;
  guint n_records, n_unreadable;

  /* No renders: extraction learns from the archived pages. */
  script = use_renderer_script (fixture, "exit 0\n");
  g_assert_true (cg_demo_server_start (server, 0, &error));
  g_assert_no_error (error);
  url = cg_demo_server_get_url (server);

  model = explore (fixture, url);
  n_records = count_records (fixture, model);
  g_assert_cmpuint (n_records, >, 0);
  g_assert_cmpuint (cg_pipeline_get_n_unreadable_pages (fixture->pipeline), ==, 0);
  g_assert_null (cg_pipeline_get_unreadable_reason (fixture->pipeline));
  g_assert_cmpuint (fixture->warnings->len, ==, 0);

  warc_dir = cg_project_get_warc_dir (fixture->project);
  cg_test_remove_tree (warc_dir);
  fixture->finished = FALSE;
  g_assert_true (cg_pipeline_extract (fixture->pipeline, model, &error));
  g_assert_no_error (error);
  cg_test_wait_for_flag (&fixture->finished, "the extraction");
  g_assert_false (fixture->cancelled);

  /* Every page of the sample was archived in the files removed; none is
   * counted twice, though learning and extraction may both have tried it. */
  n_unreadable = cg_pipeline_get_n_unreadable_pages (fixture->pipeline);
  g_assert_cmpuint (n_unreadable, >, 1);
  g_assert_cmpuint (n_unreadable, <=, 30);
  g_assert_nonnull (strstr (cg_pipeline_get_unreadable_reason (fixture->pipeline), "WARC"));
  expected = g_strdup_printf ("%u archived pages could not be read and kept their earlier records; the first: %s",
                              n_unreadable, cg_pipeline_get_unreadable_reason (fixture->pipeline));
  g_assert_true (strv_ptr_array_contains (fixture->warnings, expected));
  g_assert_cmpuint (count_records (fixture, model), ==, n_records);

  /* The next piece of work counts its own: extracting the records of the
   * fixture's model, which has no archived page, leaves none unread. */
  fixture->finished = FALSE;
  g_assert_true (cg_pipeline_extract (fixture->pipeline, fixture->model, &error));
  g_assert_no_error (error);
  cg_test_wait_for_flag (&fixture->finished, "the extraction of a model without pages");
  g_assert_cmpuint (cg_pipeline_get_n_unreadable_pages (fixture->pipeline), ==, 0);
  g_assert_null (cg_pipeline_get_unreadable_reason (fixture->pipeline));
  cg_demo_server_stop (server);
}

typedef struct {
  CgPipeline *pipeline;
  gboolean    crawl_ended;
} PauseCheck;

/* Connected after the explorer's own handler, which goes on to learn and
 * save the model: the exploration runs on, its crawl over. */
static void
exploration_crawl_finished_cb (CgCrawler    *crawler,
                               int           end,
                               const GError *error,
                               PauseCheck   *check)
{
  check->crawl_ended = TRUE;
  g_assert_cmpint (cg_pipeline_get_stage (check->pipeline), ==, CG_PIPELINE_EXPLORING);
  g_assert_false (cg_pipeline_can_pause (check->pipeline));
  cg_pipeline_pause (check->pipeline);
  g_assert_false (cg_pipeline_is_paused (check->pipeline));
}

/* An exploration can pause while its crawl runs, and not once the crawl
 * is over and the model is being learned: a pause then would hold nothing
 * and would be shown through all the rendering and extraction after. */
static void
test_no_pause_after_crawl (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(CgDemoServer) server = cg_demo_server_new ();
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *script = use_renderer_script (fixture, "exit 0\n");
  PauseCheck check = { fixture->pipeline, FALSE };
  CgLearnerParams params;
  CgCrawler *crawler;

  g_assert_true (cg_demo_server_start (server, 0, &error));
  g_assert_no_error (error);
  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = cg_demo_server_get_url (server);
  cg_crawl_config_disable_politeness (config);
  cg_learner_params_init (&params);
  params.max_pages = 30;
  g_assert_true (cg_pipeline_explore (fixture->pipeline, config, &params, FALSE, &error));
  g_assert_no_error (error);

  g_assert_true (cg_pipeline_can_pause (fixture->pipeline));
  crawler = cg_pipeline_get_crawler (fixture->pipeline);
  g_assert_nonnull (crawler);
  g_signal_connect (crawler, "finished", G_CALLBACK (exploration_crawl_finished_cb), &check);
  cg_test_wait_for_flag (&fixture->finished, "the exploration and its extraction");
  g_assert_true (check.crawl_ended);
  g_assert_false (fixture->cancelled);
  g_assert_false (cg_pipeline_is_paused (fixture->pipeline));
  cg_demo_server_stop (server);
}

int
main (int argc, char **argv)
{
  g_autoptr(CgTestFolder) home = cg_test_init_app (&argc, &argv, FALSE);

  g_test_add ("/pipeline/renderer/output", Fixture, NULL,
              fixture_set_up, test_renderer_output, fixture_tear_down);
  g_test_add ("/pipeline/renderer/stop", Fixture, NULL,
              fixture_set_up, test_renderer_stop, fixture_tear_down);
  g_test_add ("/pipeline/explore/no-pause-after-crawl", Fixture, NULL,
              fixture_set_up, test_no_pause_after_crawl, fixture_tear_down);
  g_test_add ("/pipeline/extract/unreadable-pages", Fixture, NULL,
              fixture_set_up, test_extract_unreadable_pages, fixture_tear_down);

  return g_test_run ();
}
