/* cg-pipeline.h: the window's background work on a project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-crawler.h"
#include "cg-harvester.h"
#include "cg-project.h"
#include "cg-site-explorer.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

/* One thing at a time runs on a project from the window, each stage off
 * the main loop: the exploration's crawl in the crawler's thread, sample
 * rendering in WebKit's web processes, record extraction in a worker
 * thread with its own connection to the store, the harvest in the
 * crawler's thread. An exploration goes on by itself to rendering and
 * extraction, so that a new project ends with a model, thumbnails and
 * records.
 *
 * Signals (all on the main context of the thread that made the pipeline):
 *   "stage-changed" (CgPipelineStage stage): a stage began, or the
 *     pipeline is idle again; the crawler, explorer and harvester getters
 *     answer for the new stage;
 *   "task-progress" (const char *what, guint done, guint total): pages
 *     rendered (@what NULL) or pages of class @what extracted, in the
 *     current stage;
 *   "warning" (const char *message): something went wrong that does not
 *     stop the work, such as a class whose samples could not be rendered;
 *   "model-updated" (CgSiteModel *snapshot): the model an exploration is
 *     learning, as it stands (unsaved; see CgSiteExplorer's signal of that
 *     name), now and then while it runs;
 *   "model-saved" (CgSiteModel *model): an exploration saved a model;
 *   "samples-rendered" (CgSiteModel *model): its sample pages are rendered;
 *   "records-changed" (CgSiteModel *model): extraction stored records;
 *   "finished" (CgPipelineStage stage, gboolean cancelled, const GError *error):
 *     the work ended in @stage, by itself (FALSE, NULL), stopped by the
 *     user (TRUE) or failed (@error). The pipeline is idle already, so a
 *     handler may start the next thing; when none does, "stage-changed"
 *     to IDLE follows. */
typedef enum {
  CG_PIPELINE_IDLE,
  CG_PIPELINE_EXPLORING,
  CG_PIPELINE_RENDERING,
  CG_PIPELINE_EXTRACTING,
  CG_PIPELINE_HARVESTING,
} CgPipelineStage;

#define CG_PIPELINE_ERROR (cg_pipeline_error_quark ())

typedef enum {
  CG_PIPELINE_ERROR_BUSY,   /* something is running already */
} CgPipelineError;

/* Extraction reports its progress at most this often, so that a fast
 * extraction does not flood the main loop. */
#define CG_PIPELINE_PROGRESS_INTERVAL_MS 100

#define CG_TYPE_PIPELINE (cg_pipeline_get_type ())
G_DECLARE_FINAL_TYPE (CgPipeline, cg_pipeline, CG, PIPELINE, GObject)

GQuark           cg_pipeline_error_quark    (void);

CgPipeline      *cg_pipeline_new            (CgProject             *project);
CgProject       *cg_pipeline_get_project    (CgPipeline            *self);

/* Explores (learning crawl of @config's first seed), then renders the new
 * model's sample pages (with pages' JavaScript when @javascript) and
 * extracts its records. */
gboolean         cg_pipeline_explore        (CgPipeline            *self,
                                             const CgCrawlConfig   *config,
                                             const CgLearnerParams *params,
                                             gboolean               javascript,
                                             GError               **error);
/* Renders the samples of a saved model and extracts its records. */
gboolean         cg_pipeline_prepare_model  (CgPipeline            *self,
                                             CgSiteModel           *model,
                                             gboolean               javascript,
                                             GError               **error);
/* Extracts the records of a saved model, learning its wrappers first. */
gboolean         cg_pipeline_extract        (CgPipeline            *self,
                                             CgSiteModel           *model,
                                             GError               **error);
gboolean         cg_pipeline_harvest        (CgPipeline            *self,
                                             CgSiteModel           *model,
                                             const CgHarvestOptions *options,
                                             GError               **error);
/* Resumes harvest @crawl_id of the project where its last run stopped,
 * with its own options and model. */
gboolean         cg_pipeline_resume_harvest (CgPipeline            *self,
                                             gint64                 crawl_id,
                                             GError               **error);

void             cg_pipeline_pause          (CgPipeline            *self);
void             cg_pipeline_resume         (CgPipeline            *self);
/* Stops the crawl, or cancels the rendering or extraction, under way. */
void             cg_pipeline_stop           (CgPipeline            *self);

CgPipelineStage  cg_pipeline_get_stage      (CgPipeline            *self);
gboolean         cg_pipeline_is_busy        (CgPipeline            *self);
/* The command that renders a model's samples (`cartograph-cli`, run as
 * `model --render-only`), instead of the one beside the window's
 * executable or in CARTOGRAPH_CLI; NULL finds it again. A command that is
 * not executable renders nothing, as when none is found. Unlike the
 * environment, it can be set while threads run. */
void             cg_pipeline_set_renderer   (CgPipeline            *self,
                                             const char            *command);
/* Only crawls can pause. */
gboolean         cg_pipeline_can_pause      (CgPipeline            *self);
gboolean         cg_pipeline_is_paused      (CgPipeline            *self);
/* The crawl under way (exploring or harvesting), or NULL. */
CgCrawler       *cg_pipeline_get_crawler    (CgPipeline            *self);
CgSiteExplorer  *cg_pipeline_get_explorer   (CgPipeline            *self);
CgHarvester     *cg_pipeline_get_harvester  (CgPipeline            *self);
/* The model the current or last stage worked on, or NULL. */
CgSiteModel     *cg_pipeline_get_model      (CgPipeline            *self);
/* The site being explored or harvested, or NULL. */
const char      *cg_pipeline_get_site_url   (CgPipeline            *self);
/* What the work under way, or the last (from an exploration to the end
 * of its extraction), could not do, for the "finished" handler to say:
 * archived pages extraction could not read (a WARC file gone or damaged),
 * which kept their earlier records, and why the first could not (NULL
 * when none); sample pages that could not be rendered. Each "warning"
 * said so already, page by page or in one message. */
guint            cg_pipeline_get_n_unreadable_pages   (CgPipeline  *self);
const char      *cg_pipeline_get_unreadable_reason    (CgPipeline  *self);
guint            cg_pipeline_get_n_unrendered_samples (CgPipeline  *self);

guint            cg_pipeline_count_releasing          (void);

G_END_DECLS
