/* cg-class-sampler.c: renders the sample pages of a model's classes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-archive.h"
#include "cg-class-sampler.h"

struct _CgClassSampler
{
  GObject          parent_instance;

  CgProject       *project;
  CgSiteModel     *model;
  gboolean         javascript;
  guint            pool_size;
  CgRenderOptions  options;

  CgRendererPool  *pool;
  char            *folder;
  GTask           *task;       /* while running */
  gboolean         started;
  guint            total;
  guint            pending;
  guint            rendered;
  guint            failed;
};

G_DEFINE_FINAL_TYPE (CgClassSampler, cg_class_sampler, G_TYPE_OBJECT)

G_DEFINE_QUARK (cg-class-sampler-error-quark, cg_class_sampler_error)

enum {
  SIGNAL_PROGRESS,
  SIGNAL_SAMPLE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  CgClassSampler *sampler;   /* strong */
  char           *url;
  char           *base;      /* the path without its extension */
} SampleJob;

static void
sample_job_free (SampleJob *job)
{
  g_object_unref (job->sampler);
  g_free (job->url);
  g_free (job->base);
  g_free (job);
}

char *
cg_class_sampler_get_folder (CgProject   *project,
                             CgSiteModel *model)
{
  g_autofree char *thumbnails = cg_project_get_thumbnails_dir (project);
  g_autofree char *subfolder = g_strdup_printf ("model-%d", cg_site_model_get_version (model));

  return g_build_filename (thumbnails, subfolder, NULL);
}

/* Class names come from the learner, but also from imported specs, so a
 * name may hold a slash; escaping it keeps every render inside the folder.
 * The names the learner makes are left as they are, since they hold only
 * characters that need no escaping. */
char *
cg_class_sampler_get_sample_base (CgProject   *project,
                                  CgSiteModel *model,
                                  const char  *class_name,
                                  guint        index)
{
  g_autofree char *folder = cg_class_sampler_get_folder (project, model);
  g_autofree char *escaped = g_uri_escape_string (class_name, NULL, TRUE);
  g_autofree char *name = g_strdup_printf ("%s-%u", escaped, index + 1);

  return g_build_filename (folder, name, NULL);
}

static void
finish_if_done (CgClassSampler *self)
{
  g_autoptr(GTask) task = NULL;
  GCancellable *cancellable;

  if (self->pending > 0 || self->task == NULL)
    return;
  task = g_steal_pointer (&self->task);
  cancellable = g_task_get_cancellable (task);
  /* The web processes are not needed any more; a window keeps running
   * long after its samples are rendered. */
  g_clear_object (&self->pool);
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("Rendering the sample pages was cancelled"));
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean
save_result (const char      *base,
             CgRenderResult  *result,
             GError         **error)
{
  g_autofree char *html_path = g_strconcat (base, ".html", NULL);
  g_autofree char *png_path = g_strconcat (base, ".png", NULL);

  /* Consistent but not durable: a render lost in a power cut is made
   * again, and an fsync per sample would stall the main loop. */
  if (!g_file_set_contents_full (html_path, result->html, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error))
    return FALSE;
  if (result->thumbnail != NULL &&
      !g_file_set_contents_full (png_path, g_bytes_get_data (result->thumbnail, NULL),
                                 (gssize) g_bytes_get_size (result->thumbnail),
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0644, error))
    return FALSE;
  return TRUE;
}

static void
sample_rendered_cb (GObject      *source,
                    GAsyncResult *res,
                    gpointer      user_data)
{
  SampleJob *job = user_data;
  CgClassSampler *self = job->sampler;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = cg_renderer_pool_render_finish (CG_RENDERER_POOL (source), res, &error);
  if (result != NULL && save_result (job->base, result, &error))
    self->rendered++;
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->failed++;
      g_signal_emit (self, signals[SIGNAL_SAMPLE_FAILED], 0, job->url, error);
    }

  self->pending--;
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, self->rendered + self->failed, self->total);
  finish_if_done (self);
  sample_job_free (job);
}

void
cg_class_sampler_run_async (CgClassSampler      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(CgWebContext) context = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  GPtrArray *classes;
  GError *error = NULL;

  g_return_if_fail (CG_IS_CLASS_SAMPLER (self));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_class_sampler_run_async);

  if (cg_site_model_get_id (self->model) <= 0)
    {
      g_task_return_new_error (task, CG_CLASS_SAMPLER_ERROR, CG_CLASS_SAMPLER_ERROR_NOT_SAVED,
                               _("The model of %s is not saved, so its samples have no folder"),
                               cg_site_model_get_site (self->model));
      return;
    }

  /* Every job is made before anything starts, so that the total is known
   * when the first progress is reported. */
  jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) sample_job_free);
  classes = cg_site_model_get_classes (self->model);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);

      for (guint j = 0; klass->samples != NULL && klass->samples[j] != NULL && j < CG_CLASS_SAMPLER_MAX_PER_CLASS; j++)
        {
          SampleJob *job;

          if (jobs->len >= CG_CLASS_SAMPLER_MAX_SAMPLES)
            {
              g_task_return_new_error (task, CG_CLASS_SAMPLER_ERROR, CG_CLASS_SAMPLER_ERROR_TOO_MANY,
                                       _("The model of %s has more than %u sample pages to render"),
                                       cg_site_model_get_site (self->model), CG_CLASS_SAMPLER_MAX_SAMPLES);
              return;
            }
          job = g_new0 (SampleJob, 1);
          job->sampler = g_object_ref (self);
          job->url = g_strdup (klass->samples[j]);
          job->base = cg_class_sampler_get_sample_base (self->project, self->model, klass->name, j);
          g_ptr_array_add (jobs, job);
        }
    }
  self->total = jobs->len;
  if (jobs->len == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  self->folder = cg_class_sampler_get_folder (self->project, self->model);
  if (g_mkdir_with_parents (self->folder, 0755) != 0)
    {
      int saved_errno = errno;

      g_task_return_new_error (task, CG_CLASS_SAMPLER_ERROR, CG_CLASS_SAMPLER_ERROR_FOLDER,
                               _("Cannot create the folder “%s”: %s"), self->folder, g_strerror (saved_errno));
      return;
    }

  archive = cg_archive_new_for_project (cg_project_get_folder (self->project),
                                        cg_site_model_get_crawl_id (self->model), &error);
  if (archive != NULL)
    context = cg_web_context_new_for_archive (archive, self->javascript, &error);
  if (context == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  self->pool = cg_renderer_pool_new (context, self->pool_size, &self->options);
  self->task = g_steal_pointer (&task);

  /* In the model's order, so that a class's first sample comes first. */
  while (jobs->len > 0)
    {
      SampleJob *job = g_ptr_array_steal_index (jobs, 0);

      self->pending++;
      cg_renderer_pool_render_async (self->pool, job->url, cancellable, sample_rendered_cb, job);
    }
}

gboolean
cg_class_sampler_run_finish (CgClassSampler  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
cg_class_sampler_get_n_total (CgClassSampler *self)
{
  g_return_val_if_fail (CG_IS_CLASS_SAMPLER (self), 0);
  return self->total;
}

guint
cg_class_sampler_get_n_rendered (CgClassSampler *self)
{
  g_return_val_if_fail (CG_IS_CLASS_SAMPLER (self), 0);
  return self->rendered;
}

guint
cg_class_sampler_get_n_failed (CgClassSampler *self)
{
  g_return_val_if_fail (CG_IS_CLASS_SAMPLER (self), 0);
  return self->failed;
}

static void
cg_class_sampler_dispose (GObject *object)
{
  CgClassSampler *self = CG_CLASS_SAMPLER (object);

  g_clear_object (&self->pool);

  G_OBJECT_CLASS (cg_class_sampler_parent_class)->dispose (object);
}

static void
cg_class_sampler_finalize (GObject *object)
{
  CgClassSampler *self = CG_CLASS_SAMPLER (object);

  g_clear_object (&self->project);
  g_clear_object (&self->model);
  g_free (self->folder);

  G_OBJECT_CLASS (cg_class_sampler_parent_class)->finalize (object);
}

static void
cg_class_sampler_class_init (CgClassSamplerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cg_class_sampler_dispose;
  object_class->finalize = cg_class_sampler_finalize;

  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                           G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_SAMPLE_FAILED] = g_signal_new ("sample-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                                G_TYPE_STRING, G_TYPE_ERROR);
}

static void
cg_class_sampler_init (CgClassSampler *self)
{
}

CgClassSampler *
cg_class_sampler_new (CgProject             *project,
                      CgSiteModel           *model,
                      gboolean               javascript,
                      guint                  pool_size,
                      const CgRenderOptions *options)
{
  CgClassSampler *self;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), NULL);

  self = g_object_new (CG_TYPE_CLASS_SAMPLER, NULL);
  self->project = g_object_ref (project);
  self->model = g_object_ref (model);
  self->javascript = javascript;
  self->pool_size = MIN (pool_size, CG_RENDERER_POOL_MAX_SIZE);
  if (options != NULL)
    self->options = *options;
  else
    cg_render_options_init (&self->options);
  return self;
}
