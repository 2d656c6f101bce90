/* cg-pipeline.c: the window's background work on a project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>

#include "cg-class-sampler.h"
#include "cg-crawl-lock.h"
#include "cg-dispatch.h"
#include "cg-pipeline.h"
#include "cg-record-extractor.h"

struct _CgPipeline
{
  GObject          parent_instance;

  CgProject       *project;
  CgPipelineStage  stage;
  gboolean         stopping;
  gboolean         paused;
  gboolean         exploration_crawl_ended;
  gboolean         javascript;
  char            *site_url;
  char            *renderer;        /* cg_pipeline_set_renderer(), or NULL */

  CgSiteExplorer  *explorer;
  CgHarvester     *harvester;
  CgClassSampler  *sampler;
  GSubprocess     *render_process;
  GQueue           render_messages;   /* char *: the last lines it wrote that were not progress */
  GCancellable    *cancellable;
  CgSiteModel     *model;

  /* What the work under way, or the last, could not read or render. */
  guint            n_unreadable_pages;
  char            *unreadable_reason;
  guint            n_unrendered_samples;

  /* Extraction progress, written by the worker thread. */
  GMutex           progress_lock;
  char            *progress_class;
  guint            progress_done;
  guint            progress_total;
  gint64           progress_sent_us;
  gboolean         progress_pending;
};

G_DEFINE_FINAL_TYPE (CgPipeline, cg_pipeline, G_TYPE_OBJECT)

G_DEFINE_QUARK (cg-pipeline-error-quark, cg_pipeline_error)

enum {
  SIGNAL_STAGE_CHANGED,
  SIGNAL_TASK_PROGRESS,
  SIGNAL_WARNING,
  SIGNAL_MODEL_SAVED,
  SIGNAL_MODEL_UPDATED,
  SIGNAL_SAMPLES_RENDERED,
  SIGNAL_RECORDS_CHANGED,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_rendering  (CgPipeline  *self,
                              CgSiteModel *model);
static void start_extracting (CgPipeline  *self,
                              CgSiteModel *model);

static void
set_stage (CgPipeline      *self,
           CgPipelineStage  stage)
{
  self->stage = stage;
  g_signal_emit (self, signals[SIGNAL_STAGE_CHANGED], 0, stage);
}

/* Objects handed to release_in_background() whose last reference is not
 * dropped yet, in all pipelines. */
static gint releasing;

static void
release_now (gpointer object)
{
  g_object_unref (object);
  g_atomic_int_add (&releasing, -1);
  /* The application's shutdown waits in the main loop for the count to
   * reach nothing (see cg_pipeline_count_releasing()). */
  g_main_context_wakeup (NULL);
}

static gpointer
release_thread (gpointer data)
{
  release_now (data);
  return NULL;
}

static gboolean
release_idle_cb (gpointer data)
{
  GThread *thread = g_thread_try_new ("cg-release", release_thread, data, NULL);

  if (thread != NULL)
    g_thread_unref (thread);
  else
    release_now (data);
  return G_SOURCE_REMOVE;
}

/* An explorer keeps its whole sample (pages, DOM paths, the navigation
 * graph) until it is finalized, and freeing it all took a fifth of a
 * second of the main loop on the demo; so the last reference is dropped
 * in a thread of its own, once the emission under way (which holds a
 * reference too) is over. A harvester is released the same way. */
static void
release_in_background (gpointer object)
{
  if (object == NULL)
    return;
  g_atomic_int_inc (&releasing);
  g_idle_add (release_idle_cb, object);
}

/**
 * cg_pipeline_count_releasing:
 *
 * How many explorers and harvesters of finished work, in all pipelines,
 * are still being released in the background. Each holds its project's
 * database open until it is, so the application waits for none to be
 * left before it exits: the databases are then closed in order (their
 * write-ahead logs copied back) instead of left to the exit.
 */
guint
cg_pipeline_count_releasing (void)
{
  return (guint) g_atomic_int_get (&releasing);
}

/* Ends the work: "finished", then back to idle with nothing running. */
static void
finish (CgPipeline   *self,
        gboolean      cancelled,
        const GError *error)
{
  CgPipelineStage stage = self->stage;

  if (self->explorer != NULL)
    g_signal_handlers_disconnect_by_data (self->explorer, self);
  if (self->harvester != NULL)
    g_signal_handlers_disconnect_by_data (self->harvester, self);
  if (self->sampler != NULL)
    g_signal_handlers_disconnect_by_data (self->sampler, self);
  release_in_background (g_steal_pointer (&self->explorer));
  release_in_background (g_steal_pointer (&self->harvester));
  g_clear_object (&self->sampler);
  g_clear_object (&self->render_process);
  g_queue_clear_full (&self->render_messages, g_free);
  g_clear_object (&self->cancellable);
  self->paused = FALSE;
  self->stopping = FALSE;

  /* Idle before "finished", so that its handlers may start what comes
   * next; then "stage-changed" only if none did. */
  self->stage = CG_PIPELINE_IDLE;
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, stage, cancelled, error);
  if (self->stage == CG_PIPELINE_IDLE)
    g_signal_emit (self, signals[SIGNAL_STAGE_CHANGED], 0, CG_PIPELINE_IDLE);
}

static gboolean
check_idle (CgPipeline  *self,
            GError     **error)
{
  if (self->stage != CG_PIPELINE_IDLE)
    {
      g_set_error_literal (error, CG_PIPELINE_ERROR, CG_PIPELINE_ERROR_BUSY,
                           _("Something is running already: stop it first"));
      return FALSE;
    }
  /* Nor while another process crawls the project (cartograph-cli): each
   * would lock the other out of the database half way through. */
  return cg_crawl_lock_check_none_running (self->project, error);
}

/* The counts of pages not read or not rendered are those of one piece of
 * work, from the exploration to the end of its extraction. */
static void
reset_counts (CgPipeline *self)
{
  self->n_unreadable_pages = 0;
  g_clear_pointer (&self->unreadable_reason, g_free);
  self->n_unrendered_samples = 0;
}

/* ------------------------------------------------------------------ */
/* Exploration                                                         */

static void
explorer_finished_cb (CgSiteExplorer *explorer,
                      const GError   *error,
                      CgPipeline     *self)
{
  CgSiteModel *model;

  if (error != NULL)
    {
      gboolean cancelled = self->stopping;

      finish (self, cancelled, cancelled ? NULL : error);
      return;
    }

  model = cg_site_explorer_get_model (explorer);
  g_set_object (&self->model, model);
  g_signal_emit (self, signals[SIGNAL_MODEL_SAVED], 0, model);
  g_signal_handlers_disconnect_by_data (self->explorer, self);
  release_in_background (g_steal_pointer (&self->explorer));

  if (self->stopping)
    {
      /* The model was saved before the stop was heard; it is kept, and
       * what would have followed is not started. */
      finish (self, TRUE, NULL);
      return;
    }
  start_rendering (self, self->model);
}

/* The exploration's crawl is over; the explorer goes on to learn and
 * save the model. */
static void
exploration_crawl_finished_cb (CgCrawler    *crawler,
                               int           end,
                               const GError *error,
                               CgPipeline   *self)
{
  self->exploration_crawl_ended = TRUE;
  /* A pause asked for as the crawl ended holds nothing. */
  self->paused = FALSE;
}

static void
explorer_model_updated_cb (CgSiteExplorer *explorer,
                           CgSiteModel    *snapshot,
                           CgPipeline     *self)
{
  g_signal_emit (self, signals[SIGNAL_MODEL_UPDATED], 0, snapshot);
}

static char *
site_of (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *origin = NULL;

  if (uri == NULL)
    return g_strdup (url);
  origin = g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                       g_uri_get_port (uri), "/", NULL, NULL);
  return g_steal_pointer (&origin);
}

gboolean
cg_pipeline_explore (CgPipeline             *self,
                     const CgCrawlConfig    *config,
                     const CgLearnerParams  *params,
                     gboolean                javascript,
                     GError                **error)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_idle (self, error))
    return FALSE;
  self->explorer = cg_site_explorer_new (self->project, config, params, error);
  if (self->explorer == NULL)
    return FALSE;
  reset_counts (self);
  self->javascript = javascript;
  g_clear_object (&self->model);
  g_free (self->site_url);
  g_free (self->renderer);
  self->site_url = site_of (config->seeds[0]);
  self->exploration_crawl_ended = FALSE;
  g_signal_connect_object (cg_site_explorer_get_crawler (self->explorer), "finished",
                           G_CALLBACK (exploration_crawl_finished_cb), self, 0);
  g_signal_connect_object (self->explorer, "finished", G_CALLBACK (explorer_finished_cb), self, 0);
  g_signal_connect_object (self->explorer, "model-updated", G_CALLBACK (explorer_model_updated_cb), self, 0);
  set_stage (self, CG_PIPELINE_EXPLORING);
  cg_site_explorer_start (self->explorer);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Sample rendering                                                    */

static void
sampler_progress_cb (CgClassSampler *sampler,
                     guint           done,
                     guint           total,
                     CgPipeline     *self)
{
  g_signal_emit (self, signals[SIGNAL_TASK_PROGRESS], 0, NULL, done, total);
}

static void
sampler_failed_cb (CgClassSampler *sampler,
                   const char     *url,
                   const GError   *error,
                   CgPipeline     *self)
{
  g_autofree char *message = NULL;

  self->n_unrendered_samples++;
  /* Translators: %s is a page's address, the second %s why it could not be rendered. */
  message = g_strdup_printf (_("The sample %s could not be rendered: %s"), url, error->message);
  g_signal_emit (self, signals[SIGNAL_WARNING], 0, message);
}

/* Rendering is over: on to extraction, unless it was stopped. A failed
 * rendering does not stop the work, since extraction can learn from the
 * archived pages instead of the renders. */
static void
rendering_done (CgPipeline   *self,
                gboolean      cancelled,
                const GError *error)
{
  g_autoptr(CgSiteModel) model = g_object_ref (self->model);

  if (self->sampler != NULL)
    g_signal_handlers_disconnect_by_data (self->sampler, self);
  g_clear_object (&self->sampler);
  g_clear_object (&self->render_process);
  g_queue_clear_full (&self->render_messages, g_free);
  g_clear_object (&self->cancellable);
  if (cancelled || self->stopping)
    {
      finish (self, TRUE, NULL);
      return;
    }
  if (error != NULL)
    g_signal_emit (self, signals[SIGNAL_WARNING], 0, error->message);
  g_signal_emit (self, signals[SIGNAL_SAMPLES_RENDERED], 0, model);
  if (self->stopping)
    {
      finish (self, TRUE, NULL);
      return;
    }
  start_extracting (self, model);
}

static void
samples_rendered_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(CgPipeline) self = user_data;
  g_autoptr(GError) error = NULL;

  if (cg_class_sampler_run_finish (CG_CLASS_SAMPLER (source), result, &error))
    rendering_done (self, FALSE, NULL);
  else
    rendering_done (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED), error);
}

/* The renders are made by `cartograph-cli model --render-only` in a
 * process of its own when the command is there: WebKit's views, their
 * snapshots and thumbnails then cost the window's main loop nothing, a
 * crash of the web engine cannot take the window down, and the views
 * render on a virtual display of their own instead of showing up on the
 * user's screen. The command is found beside the window's executable
 * (installed, or in the build tree), or where CARTOGRAPH_CLI or
 * cg_pipeline_set_renderer() says. */
static char *
find_cli (CgPipeline *self)
{
  const char *from_env = self->renderer != NULL ? self->renderer : g_getenv ("CARTOGRAPH_CLI");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  const char * const candidates[] = { "cartograph-cli", "../cli/cartograph-cli", "../src/cli/cartograph-cli" };

  if (from_env != NULL && *from_env != '\0')
    return g_file_test (from_env, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (from_env) : NULL;
  for (guint i = 0; dir != NULL && i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);

      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_canonicalize_filename (path, NULL);
    }
  return NULL;
}

/* What the renderer said last, for the error when it fails: a few
 * lines, each of bounded length. */
#define MAX_RENDER_MESSAGES       5
#define MAX_RENDER_MESSAGE_LENGTH 500

static void
render_process_exited_cb (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(CgPipeline) self = user_data;
  g_autoptr(GError) error = NULL;

  if (g_subprocess_wait_check_finish (G_SUBPROCESS (source), result, &error))
    {
      rendering_done (self, FALSE, NULL);
      return;
    }
  if (self->stopping)
    {
      rendering_done (self, TRUE, NULL);
      return;
    }
  if (!g_queue_is_empty (&self->render_messages))
    {
      g_autoptr(GString) said = g_string_new (NULL);

      for (GList *l = self->render_messages.head; l != NULL; l = l->next)
        g_string_append_printf (said, "%s%s", said->len > 0 ? " " : "", (char *) l->data);
      g_clear_error (&error);
      /* Translators: %s is what the renderer said when it failed. */
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("The sample pages could not be rendered: %s"), said->str);
    }
  rendering_done (self, FALSE, error);
}

static void
render_line_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(CgPipeline) self = user_data;
  GDataInputStream *output = G_DATA_INPUT_STREAM (source);
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (output, result, NULL, NULL);
  guint done, total;
  char *tab;

  if (line == NULL)
    {
      /* End of output (or unreadable output): the exit status tells. */
      if (self->render_process != NULL)
        g_subprocess_wait_check_async (self->render_process, NULL, render_process_exited_cb, g_object_ref (self));
      g_object_unref (output);
      return;
    }
  if (sscanf (line, "progress %u %u", &done, &total) == 2 && done <= total)
    g_signal_emit (self, signals[SIGNAL_TASK_PROGRESS], 0, NULL, done, total);
  else if (g_str_has_prefix (line, "failed ") && (tab = strchr (line, '\t')) != NULL)
    {
      g_autofree char *message = NULL;

      *tab = '\0';
      self->n_unrendered_samples++;
      /* Translators: %s is a page's address, the second %s why it could not be rendered. */
      message = g_strdup_printf (_("The sample %s could not be rendered: %s"), line + strlen ("failed "), tab + 1);
      g_signal_emit (self, signals[SIGNAL_WARNING], 0, message);
    }
  else if (*line != '\0')
    {
      if (strlen (line) > MAX_RENDER_MESSAGE_LENGTH)
        line[MAX_RENDER_MESSAGE_LENGTH] = '\0';
      g_queue_push_tail (&self->render_messages, g_steal_pointer (&line));
      if (g_queue_get_length (&self->render_messages) > MAX_RENDER_MESSAGES)
        g_free (g_queue_pop_head (&self->render_messages));
    }
  g_data_input_stream_read_line_async (output, G_PRIORITY_DEFAULT, NULL, render_line_cb, g_object_ref (self));
}

static gboolean
start_render_process (CgPipeline   *self,
                      CgSiteModel  *model,
                      GError      **error)
{
  g_autofree char *cli = find_cli (self);
  g_autofree char *version = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = NULL;
  g_autofree char *xvfb = NULL;
  g_autoptr(GInputStream) output_stream = NULL;
  int output_pipe[2], output_fd;
  GDataInputStream *output;

  if (cli == NULL)
    return FALSE;
  version = g_strdup_printf ("%d", cg_site_model_get_version (model));
  argv = g_ptr_array_new ();
  g_ptr_array_add (argv, cli);
  g_ptr_array_add (argv, (char *) "model");
  g_ptr_array_add (argv, (char *) "--render-only");
  g_ptr_array_add (argv, (char *) "--machine-progress");
  g_ptr_array_add (argv, (char *) "--project");
  g_ptr_array_add (argv, (char *) cg_project_get_folder (self->project));
  g_ptr_array_add (argv, (char *) "--site");
  g_ptr_array_add (argv, (char *) cg_site_model_get_site (model));
  g_ptr_array_add (argv, (char *) "--version");
  g_ptr_array_add (argv, version);
  if (!self->javascript)
    g_ptr_array_add (argv, (char *) "--no-javascript");
  g_ptr_array_add (argv, NULL);

  /* Inheriting descriptors lets GLib start the command with posix_spawn
   * (a vfork) instead of fork: a fork copies the window's page tables,
   * 20 to 40 ms of the main loop in the very turn the model page first
   * draws, while a vfork takes under a millisecond. Every descriptor
   * GLib, GTK and the store open is close-on-exec, so the command gets
   * its standard streams and only what the window was itself given open
   * by whoever started it. Its output and errors go to one pipe of
   * our own: GLib's own merging of standard error into a standard output
   * pipe leaves standard output unwritable on that path. */
  if (!g_unix_open_pipe (output_pipe, FD_CLOEXEC, error))
    return FALSE;
  output_fd = fcntl (output_pipe[1], F_DUPFD_CLOEXEC, 0);
  if (output_fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s", g_strerror (saved_errno));
      close (output_pipe[0]);
      close (output_pipe[1]);
      return FALSE;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_INHERIT_FDS);
  g_subprocess_launcher_take_stdout_fd (launcher, output_fd);
  g_subprocess_launcher_take_stderr_fd (launcher, output_pipe[1]);
  /* Without a display named, the command starts Xvfb for itself (see
   * cg-display.h); without Xvfb, it renders on the window's display. */
  xvfb = g_find_program_in_path ("Xvfb");
  if (xvfb != NULL)
    {
      g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
      g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
    }
  self->render_process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, error);
  /* The launcher holds the pipe's writing ends: they close with it, so
   * that the output ends when the command does. */
  g_clear_object (&launcher);
  output_stream = g_unix_input_stream_new (output_pipe[0], TRUE);
  if (self->render_process == NULL)
    return FALSE;
  output = g_data_input_stream_new (output_stream);
  g_data_input_stream_read_line_async (output, G_PRIORITY_DEFAULT, NULL, render_line_cb, g_object_ref (self));
  return TRUE;
}

static void
start_rendering (CgPipeline  *self,
                 CgSiteModel *model)
{
  g_autoptr(GError) error = NULL;

  self->cancellable = g_cancellable_new ();
  set_stage (self, CG_PIPELINE_RENDERING);
  if (start_render_process (self, model, &error))
    return;
  if (error != NULL)
    g_debug ("Rendering in process: cannot start cartograph-cli: %s", error->message);

  /* No command to run: the renders are made here. */
  self->sampler = cg_class_sampler_new (self->project, model, self->javascript, 0, NULL);
  g_signal_connect_object (self->sampler, "progress", G_CALLBACK (sampler_progress_cb), self, 0);
  g_signal_connect_object (self->sampler, "sample-failed", G_CALLBACK (sampler_failed_cb), self, 0);
  cg_class_sampler_run_async (self->sampler, self->cancellable, samples_rendered_cb, g_object_ref (self));
}

gboolean
cg_pipeline_prepare_model (CgPipeline   *self,
                           CgSiteModel  *model,
                           gboolean      javascript,
                           GError      **error)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), FALSE);

  if (!check_idle (self, error))
    return FALSE;
  reset_counts (self);
  self->javascript = javascript;
  g_set_object (&self->model, model);
  g_free (self->site_url);
  self->site_url = g_strdup (cg_site_model_get_site (model));
  start_rendering (self, model);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Record extraction, in a worker thread                               */

typedef struct {
  char       *folder;
  char       *site;
  int           version;
  CgPipeline   *pipeline;   /* for progress only; the task keeps it alive */
  GMainContext *context;    /* where progress is reported */
  /* Written by the worker thread only, read once its task is over. */
  GHashTable   *skipped_urls;   /* char * set */
  char         *first_skip;
} ExtractJob;

static void
extract_job_free (ExtractJob *job)
{
  g_hash_table_unref (job->skipped_urls);
  g_free (job->first_skip);
  g_free (job->folder);
  g_free (job->site);
  g_main_context_unref (job->context);
  g_free (job);
}

static gboolean
emit_progress_cb (gpointer user_data)
{
  CgPipeline *self = user_data;
  g_autofree char *what = NULL;
  guint done, total;

  g_mutex_lock (&self->progress_lock);
  what = g_strdup (self->progress_class);
  done = self->progress_done;
  total = self->progress_total;
  self->progress_pending = FALSE;
  g_mutex_unlock (&self->progress_lock);

  if (self->stage == CG_PIPELINE_EXTRACTING)
    g_signal_emit (self, signals[SIGNAL_TASK_PROGRESS], 0, what, done, total);
  return G_SOURCE_REMOVE;
}

/* Called in the worker thread after each page. */
static void
extract_progress (const char *class_name,
                  guint       pages_done,
                  guint       pages_total,
                  guint       n_records,
                  gpointer    user_data)
{
  ExtractJob *job = user_data;
  CgPipeline *self = job->pipeline;
  gint64 now = g_get_monotonic_time ();
  gboolean send = FALSE;

  g_mutex_lock (&self->progress_lock);
  if (g_strcmp0 (self->progress_class, class_name) != 0)
    {
      g_free (self->progress_class);
      self->progress_class = g_strdup (class_name);
    }
  self->progress_done = pages_done;
  self->progress_total = pages_total;
  if (!self->progress_pending &&
      (now - self->progress_sent_us >= CG_PIPELINE_PROGRESS_INTERVAL_MS * 1000 || pages_done == pages_total))
    {
      self->progress_pending = TRUE;
      self->progress_sent_us = now;
      send = TRUE;
    }
  g_mutex_unlock (&self->progress_lock);

  if (send)
    cg_dispatch_to_context (job->context, emit_progress_cb, g_object_ref (self), g_object_unref);
}

/* Called in the worker thread for a page that cannot be read: the pages
 * are counted and the first reason kept, for one warning at the end (a
 * missing WARC file makes every page of it unreadable). A page is counted
 * once, though learning a wrapper and extracting may both have tried it. */
static void
extract_skipped (const char   *class_name,
                 const char   *url,
                 const GError *reason,
                 gpointer      user_data)
{
  ExtractJob *job = user_data;

  if (job->first_skip == NULL)
    job->first_skip = g_strdup (reason->message);
  g_hash_table_add (job->skipped_urls, g_strdup (url));
}

static void
extract_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ExtractJob *job = task_data;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  GError *error = NULL;

  /* A connection of its own: the main thread keeps reading the store
   * while the records are written, and WAL mode lets it. */
  project = cg_project_open (job->folder, &error);
  if (project != NULL)
    model = cg_site_model_load (cg_project_get_store (project), job->site, job->version, &error);
  if (model == NULL ||
      !cg_record_extractor_run (project, model, NULL, cancellable, extract_progress, extract_skipped, job, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
extracted_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  CgPipeline *self = CG_PIPELINE (source);
  ExtractJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = g_object_ref (self->model);
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  self->n_unreadable_pages = g_hash_table_size (job->skipped_urls);
  g_free (self->unreadable_reason);
  self->unreadable_reason = g_strdup (job->first_skip);
  if (self->n_unreadable_pages > 0)
    {
      g_autofree char *message = NULL;

      /* Translators: the first %u is a number of pages, the %s the reason the first one could not be read. */
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u archived page could not be read and kept its earlier records: %s",
                                              "%u archived pages could not be read and kept their earlier records; the first: %s",
                                              self->n_unreadable_pages),
                                 self->n_unreadable_pages, job->first_skip);
      g_signal_emit (self, signals[SIGNAL_WARNING], 0, message);
    }

  /* Records of the pages done are kept even when the rest was not. */
  g_signal_emit (self, signals[SIGNAL_RECORDS_CHANGED], 0, model);
  if (ok)
    finish (self, FALSE, NULL);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    finish (self, TRUE, NULL);
  else
    finish (self, FALSE, error);
}

static void
start_extracting (CgPipeline  *self,
                  CgSiteModel *model)
{
  g_autoptr(GTask) task = NULL;
  ExtractJob *job = g_new0 (ExtractJob, 1);

  job->folder = g_strdup (cg_project_get_folder (self->project));
  job->site = g_strdup (cg_site_model_get_site (model));
  job->version = cg_site_model_get_version (model);
  job->pipeline = self;
  job->context = g_main_context_ref_thread_default ();
  job->skipped_urls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_set_object (&self->model, model);
  self->cancellable = g_cancellable_new ();
  self->progress_sent_us = 0;

  task = g_task_new (self, self->cancellable, extracted_cb, NULL);
  g_task_set_source_tag (task, start_extracting);
  g_task_set_task_data (task, job, (GDestroyNotify) extract_job_free);
  set_stage (self, CG_PIPELINE_EXTRACTING);
  g_task_run_in_thread (task, extract_thread);
}

gboolean
cg_pipeline_extract (CgPipeline   *self,
                     CgSiteModel  *model,
                     GError      **error)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), FALSE);

  if (!check_idle (self, error))
    return FALSE;
  reset_counts (self);
  g_free (self->site_url);
  self->site_url = g_strdup (cg_site_model_get_site (model));
  start_extracting (self, model);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Harvest                                                             */

static void
harvester_finished_cb (CgHarvester  *harvester,
                       int           end,
                       const GError *error,
                       CgPipeline   *self)
{
  g_autoptr(CgSiteModel) model = g_object_ref (self->model);

  /* The harvest extracts records as it goes. */
  g_signal_emit (self, signals[SIGNAL_RECORDS_CHANGED], 0, model);
  if (end == CG_CRAWL_END_FAILED)
    finish (self, FALSE, error);
  else
    finish (self, end == CG_CRAWL_END_STOPPED, NULL);
}

/* Runs the harvester made for a new or a resumed harvest. */
static void
start_harvester (CgPipeline *self)
{
  CgSiteModel *model = cg_harvester_get_model (self->harvester);

  reset_counts (self);
  g_set_object (&self->model, model);
  g_free (self->site_url);
  self->site_url = g_strdup (cg_site_model_get_site (model));
  g_signal_connect_object (self->harvester, "finished", G_CALLBACK (harvester_finished_cb), self, 0);
  set_stage (self, CG_PIPELINE_HARVESTING);
  cg_harvester_start (self->harvester);
}

gboolean
cg_pipeline_harvest (CgPipeline              *self,
                     CgSiteModel             *model,
                     const CgHarvestOptions  *options,
                     GError                 **error)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), FALSE);

  if (!check_idle (self, error))
    return FALSE;
  self->harvester = cg_harvester_new (self->project, model, options, error);
  if (self->harvester == NULL)
    return FALSE;
  start_harvester (self);
  return TRUE;
}

gboolean
cg_pipeline_resume_harvest (CgPipeline  *self,
                            gint64       crawl_id,
                            GError     **error)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);

  if (!check_idle (self, error))
    return FALSE;
  self->harvester = cg_harvester_new_for_crawl (self->project, crawl_id, error);
  if (self->harvester == NULL)
    return FALSE;
  start_harvester (self);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Control                                                             */

void
cg_pipeline_pause (CgPipeline *self)
{
  g_return_if_fail (CG_IS_PIPELINE (self));

  if (!cg_pipeline_can_pause (self) || self->paused)
    return;
  if (self->harvester != NULL)
    cg_harvester_pause (self->harvester);
  else
    cg_crawler_pause (cg_site_explorer_get_crawler (self->explorer));
  self->paused = TRUE;
}

void
cg_pipeline_resume (CgPipeline *self)
{
  g_return_if_fail (CG_IS_PIPELINE (self));

  if (!cg_pipeline_can_pause (self) || !self->paused)
    return;
  if (self->harvester != NULL)
    cg_harvester_unpause (self->harvester);
  else
    cg_crawler_unpause (cg_site_explorer_get_crawler (self->explorer));
  self->paused = FALSE;
}

void
cg_pipeline_stop (CgPipeline *self)
{
  g_return_if_fail (CG_IS_PIPELINE (self));

  if (self->stage == CG_PIPELINE_IDLE)
    return;
  self->stopping = TRUE;
  /* A paused crawl has to run again to hear that it is stopped. */
  if (self->paused)
    cg_pipeline_resume (self);
  if (self->explorer != NULL)
    cg_site_explorer_stop (self->explorer);
  if (self->harvester != NULL)
    cg_harvester_stop (self->harvester);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->render_process != NULL)
    g_subprocess_send_signal (self->render_process, SIGTERM);
}

CgPipelineStage
cg_pipeline_get_stage (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), CG_PIPELINE_IDLE);
  return self->stage;
}

void
cg_pipeline_set_renderer (CgPipeline *self,
                          const char *command)
{
  g_return_if_fail (CG_IS_PIPELINE (self));
  g_free (self->renderer);
  self->renderer = g_strdup (command);
}

gboolean
cg_pipeline_is_busy (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  return self->stage != CG_PIPELINE_IDLE;
}

gboolean
cg_pipeline_can_pause (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);

  if (self->stopping)
    return FALSE;
  if (self->harvester != NULL)
    return TRUE;
  /* Once its crawl has ended, an exploration still learns and saves its
   * model, which cannot pause: a pause then would hold nothing, and would
   * be shown through the rendering and extraction that follow. */
  return self->explorer != NULL && !self->exploration_crawl_ended;
}

gboolean
cg_pipeline_is_paused (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), FALSE);
  return self->paused;
}

CgCrawler *
cg_pipeline_get_crawler (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);

  if (self->harvester != NULL)
    return cg_harvester_get_crawler (self->harvester);
  if (self->explorer != NULL)
    return cg_site_explorer_get_crawler (self->explorer);
  return NULL;
}

CgSiteExplorer *
cg_pipeline_get_explorer (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->explorer;
}

CgHarvester *
cg_pipeline_get_harvester (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->harvester;
}

CgSiteModel *
cg_pipeline_get_model (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->model;
}

const char *
cg_pipeline_get_site_url (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->site_url;
}

guint
cg_pipeline_get_n_unreadable_pages (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), 0);
  return self->n_unreadable_pages;
}

const char *
cg_pipeline_get_unreadable_reason (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->unreadable_reason;
}

guint
cg_pipeline_get_n_unrendered_samples (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), 0);
  return self->n_unrendered_samples;
}

CgProject *
cg_pipeline_get_project (CgPipeline *self)
{
  g_return_val_if_fail (CG_IS_PIPELINE (self), NULL);
  return self->project;
}

static void
cg_pipeline_dispose (GObject *object)
{
  CgPipeline *self = CG_PIPELINE (object);

  /* Nothing may outlive the pipeline unstopped: a crawl left running
   * would go on writing to a project nobody shows. */
  cg_pipeline_stop (self);
  if (self->explorer != NULL)
    g_signal_handlers_disconnect_by_data (self->explorer, self);
  if (self->harvester != NULL)
    g_signal_handlers_disconnect_by_data (self->harvester, self);
  if (self->sampler != NULL)
    g_signal_handlers_disconnect_by_data (self->sampler, self);
  g_clear_object (&self->explorer);
  g_clear_object (&self->harvester);
  g_clear_object (&self->sampler);
  g_clear_object (&self->render_process);
  g_queue_clear_full (&self->render_messages, g_free);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (cg_pipeline_parent_class)->dispose (object);
}

static void
cg_pipeline_finalize (GObject *object)
{
  CgPipeline *self = CG_PIPELINE (object);

  g_clear_object (&self->model);
  g_clear_object (&self->project);
  g_free (self->site_url);
  g_free (self->unreadable_reason);
  g_free (self->progress_class);
  g_mutex_clear (&self->progress_lock);

  G_OBJECT_CLASS (cg_pipeline_parent_class)->finalize (object);
}

static void
cg_pipeline_class_init (CgPipelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cg_pipeline_dispose;
  object_class->finalize = cg_pipeline_finalize;

  signals[SIGNAL_STAGE_CHANGED] =
    g_signal_new ("stage-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[SIGNAL_TASK_PROGRESS] =
    g_signal_new ("task-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_MODEL_SAVED] =
    g_signal_new ("model-saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CG_TYPE_SITE_MODEL);
  signals[SIGNAL_MODEL_UPDATED] =
    g_signal_new ("model-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CG_TYPE_SITE_MODEL);
  signals[SIGNAL_SAMPLES_RENDERED] =
    g_signal_new ("samples-rendered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CG_TYPE_SITE_MODEL);
  signals[SIGNAL_RECORDS_CHANGED] =
    g_signal_new ("records-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CG_TYPE_SITE_MODEL);
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_BOOLEAN, G_TYPE_ERROR);
}

static void
cg_pipeline_init (CgPipeline *self)
{
  g_mutex_init (&self->progress_lock);
  g_queue_init (&self->render_messages);
}

CgPipeline *
cg_pipeline_new (CgProject *project)
{
  CgPipeline *self;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  self = g_object_new (CG_TYPE_PIPELINE, NULL);
  self->project = g_object_ref (project);
  return self;
}
