/* cg-project-page.h: the view of one open project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-class-graph.h"
#include "cg-class-view.h"
#include "cg-pipeline.h"
#include "cg-progress-view.h"
#include "cg-project.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

/* The page has three views in an AdwViewStack, which the window puts a
 * switcher on: "model" (the page-class graph of the latest model, with
 * zoom controls and a comparison with an earlier version), "classes"
 * (the classes with their page and record counts, and one class at a time
 * in a CgClassView) and "crawl" (starting a harvest, the live progress
 * and the project's crawls).
 *
 * It owns the project's CgPipeline: explorations, sample rendering,
 * record extraction and harvests run from here, in the background.
 * Messages for the user go to the window: brief ones to its "win.toast"
 * action, and errors (work that cannot start or failed, a project that
 * cannot be read) to its "win.error" action, of parameter type "(ss)":
 * a heading and the whole explanation. When the store cannot be read, the
 * views keep what they showed. */
#define CG_TYPE_PROJECT_PAGE (cg_project_page_get_type ())
G_DECLARE_FINAL_TYPE (CgProjectPage, cg_project_page, CG, PROJECT_PAGE, AdwBin)

/* Shows @project and its latest model; stops whatever ran on the project
 * shown before. */
void            cg_project_page_set_project       (CgProjectPage         *self,
                                                   CgProject             *project);
CgProject      *cg_project_page_get_project       (CgProjectPage         *self);
void            cg_project_page_set_site_url      (CgProjectPage         *self,
                                                   const char            *url);
/* Reads the crawls, the model and the counts from the store again. */
void            cg_project_page_reload            (CgProjectPage         *self);

/* Starts an exploration with these settings (remembered for "Explore
 * Again"), then renders the new model's samples and extracts its records. */
gboolean        cg_project_page_explore           (CgProjectPage         *self,
                                                   const CgCrawlConfig   *config,
                                                   const CgLearnerParams *params,
                                                   gboolean               javascript,
                                                   GError               **error);
/* Starts an exploration with the seed and settings of the project's
 * newest stored exploration (such as the one the New Crawl dialog
 * recorded), or, in a project that has none (one made by
 * `cartograph-cli crawl`), of its newest crawl of any kind. Fails with
 * G_IO_ERROR_NOT_FOUND, saying what to do instead, when the project has
 * no crawl at all, and with the store's error when it cannot be read. */
gboolean        cg_project_page_explore_stored    (CgProjectPage         *self,
                                                   GError               **error);
/* Renders the shown model's samples and extracts its records again, to
 * finish an extraction a stop or a quit cut off (Extract Records). */
gboolean        cg_project_page_extract_records   (CgProjectPage         *self,
                                                   GError               **error);
/* Harvests the shown model, with the settings of the exploration that
 * made it (the defaults for a model no crawl made); fails, starting
 * nothing, when those settings cannot be read. @like_url is the sample
 * page of CG_HARVEST_STRATEGY_LIKE, NULL otherwise. */
gboolean        cg_project_page_start_harvest     (CgProjectPage         *self,
                                                   CgHarvestStrategy      strategy,
                                                   const char            *like_url,
                                                   GError               **error);
/* Resumes the project's newest harvest where it stopped (after a stop, a
 * quit, a failure or a killed process), as the crawls list offers. */
gboolean        cg_project_page_resume_harvest    (CgProjectPage         *self,
                                                   GError               **error);
gboolean        cg_project_page_go_back           (CgProjectPage         *self);
void            cg_project_page_toggle_pause      (CgProjectPage         *self);
void            cg_project_page_stop              (CgProjectPage         *self);

/* "model", "classes" or "crawl". */
void            cg_project_page_show_view         (CgProjectPage         *self,
                                                   const char            *name);
const char     *cg_project_page_get_visible_view  (CgProjectPage         *self);
/* Shows @class_name of the shown model in the Classes view. */
gboolean        cg_project_page_open_class        (CgProjectPage         *self,
                                                   const char            *class_name);
/* The class the Classes view shows, or NULL when it shows the list. */
const char     *cg_project_page_get_open_class    (CgProjectPage         *self);

AdwViewStack   *cg_project_page_get_view_stack    (CgProjectPage         *self);
CgPipeline     *cg_project_page_get_pipeline      (CgProjectPage         *self);
CgSiteModel    *cg_project_page_get_model         (CgProjectPage         *self);
CgClassGraph   *cg_project_page_get_graph         (CgProjectPage         *self);
CgClassView    *cg_project_page_get_class_view    (CgProjectPage         *self);
CgProgressView *cg_project_page_get_progress_view (CgProjectPage         *self);
/* Rows in the Classes list. */
guint           cg_project_page_get_n_listed_classes (CgProjectPage      *self);

G_END_DECLS
