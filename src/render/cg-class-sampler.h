/* cg-class-sampler.h: renders the sample pages of a model's classes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-project.h"
#include "cg-renderer-pool.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

/* The sample pages of each class of a saved model, rendered from the
 * archive the learning crawl wrote (nothing is fetched live): a thumbnail
 * and the decorated DOM (boxes, visibility, fontdata; see cg-renderer.h),
 * kept in the project as
 *
 *   PROJECT/thumbnails/model-VERSION/CLASS-N.png and CLASS-N.html
 *
 * N counting from 1 in the order of the class's samples in the model.
 * Record extraction learns its wrappers on these pages, and the window
 * shows the thumbnails.
 *
 * GTK must be initialised on a display first (cg_display_open() does it
 * for programs without a window). Used from the main thread only; the
 * renders run in WebKit's web processes, so the main loop stays free.
 *
 * Signals:
 *   "progress" (guint done, guint total): after each sample, rendered or
 *     failed;
 *   "sample-failed" (const char *url, const GError *error): one sample
 *     could not be rendered or saved; the others go on. */

#define CG_CLASS_SAMPLER_ERROR (cg_class_sampler_error_quark ())

typedef enum {
  CG_CLASS_SAMPLER_ERROR_NOT_SAVED,   /* the model has no version in a store */
  CG_CLASS_SAMPLER_ERROR_TOO_MANY,    /* more samples than CG_CLASS_SAMPLER_MAX_SAMPLES */
  CG_CLASS_SAMPLER_ERROR_FOLDER,      /* the thumbnails folder cannot be made */
} CgClassSamplerError;

/* A model has a handful of samples per class (CG_LEARNER_MODEL_SAMPLES);
 * a hand-made or imported one may have more, and rendering is slow, so
 * the samples rendered per class and in all are bounded. */
#define CG_CLASS_SAMPLER_MAX_PER_CLASS  20
#define CG_CLASS_SAMPLER_MAX_SAMPLES    2000

#define CG_TYPE_CLASS_SAMPLER (cg_class_sampler_get_type ())
G_DECLARE_FINAL_TYPE (CgClassSampler, cg_class_sampler, CG, CLASS_SAMPLER, GObject)

GQuark          cg_class_sampler_error_quark    (void);

/* @options may be NULL for the renderer's defaults; @pool_size 0 means
 * CG_RENDERER_POOL_DEFAULT_SIZE. */
CgClassSampler *cg_class_sampler_new            (CgProject             *project,
                                                 CgSiteModel           *model,
                                                 gboolean               javascript,
                                                 guint                  pool_size,
                                                 const CgRenderOptions *options);

/* The folder of a model's renders, and the path of one sample's render
 * without its extension (add ".png" or ".html"); @index counts from 0.
 * Both are where the files go, whether or not they exist yet. */
char           *cg_class_sampler_get_folder     (CgProject             *project,
                                                 CgSiteModel           *model);
char           *cg_class_sampler_get_sample_base (CgProject            *project,
                                                 CgSiteModel           *model,
                                                 const char            *class_name,
                                                 guint                  index);

/* Renders every sample; one run per sampler. Cancelling stops the renders
 * that have not finished (those done stay on disk) and the run fails with
 * G_IO_ERROR_CANCELLED. A run where single samples failed still succeeds:
 * see "sample-failed" and cg_class_sampler_get_n_failed(). */
void            cg_class_sampler_run_async      (CgClassSampler        *self,
                                                 GCancellable          *cancellable,
                                                 GAsyncReadyCallback    callback,
                                                 gpointer               user_data);
gboolean        cg_class_sampler_run_finish     (CgClassSampler        *self,
                                                 GAsyncResult          *result,
                                                 GError               **error);

guint           cg_class_sampler_get_n_total    (CgClassSampler        *self);
guint           cg_class_sampler_get_n_rendered (CgClassSampler        *self);
guint           cg_class_sampler_get_n_failed   (CgClassSampler        *self);

G_END_DECLS
