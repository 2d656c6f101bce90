/* cg-progress-view.h: the live progress of a crawl and of the work after it.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-coverage-plot.h"
#include "cg-crawler.h"
#include "cg-harvester.h"

G_BEGIN_DECLS

/* The view shows the counters of a crawl (queued, fetched, failed, bytes,
 * pages per second) from CgCrawler's "progress", the pages and records of
 * each class as the harvest finds them ("class-progress"), the plot of
 * distinct 2-grams against requests ("coverage"), and the notable events
 * (robots.txt blocks, failures: CgCrawler's "event"), newest first and at
 * most CG_PROGRESS_VIEW_MAX_EVENTS of them. A task without a crawl, such
 * as rendering or extraction, shows a progress bar instead of counters.
 *
 * Its Pause, Resume, Stop and Cancel buttons activate the actions
 * "crawl.pause", "crawl.resume" and "crawl.stop", which a parent widget
 * provides (and enables when they apply).
 *
 * The cg_progress_view_update_*() and _add_*() functions are what the
 * signal handlers call; tests call them directly. */
#define CG_PROGRESS_VIEW_MAX_EVENTS  200
#define CG_PROGRESS_VIEW_MAX_CLASSES 500

typedef enum {
  CG_PROGRESS_COUNTER_QUEUED,
  CG_PROGRESS_COUNTER_FETCHED,
  CG_PROGRESS_COUNTER_FAILED,
  CG_PROGRESS_COUNTER_BYTES,
  CG_PROGRESS_COUNTER_RATE,
  CG_PROGRESS_N_COUNTERS,
} CgProgressCounter;

#define CG_TYPE_PROGRESS_VIEW (cg_progress_view_get_type ())
G_DECLARE_FINAL_TYPE (CgProgressView, cg_progress_view, CG, PROGRESS_VIEW, AdwBin)

GtkWidget      *cg_progress_view_new                (void);

/* Follows @crawler's "progress" and "event" signals until another crawler
 * (or NULL) is set. The counters, classes, events and plot are kept: call
 * cg_progress_view_reset() to start afresh. */
void            cg_progress_view_set_crawler        (CgProgressView     *self,
                                                     CgCrawler          *crawler);
/* Follows @harvester's crawler, "class-progress" and "coverage". */
void            cg_progress_view_set_harvester      (CgProgressView     *self,
                                                     CgHarvester        *harvester);
/* Follows "coverage" (guint64, guint64) of any object that has it, such
 * as a site explorer; nothing when it has no such signal. */
void            cg_progress_view_follow_coverage    (CgProgressView     *self,
                                                     GObject            *source);
void            cg_progress_view_reset              (CgProgressView     *self);
/* The model the crawl follows, for the classes' readable labels; NULL
 * shows class names. */
void            cg_progress_view_set_model          (CgProgressView     *self,
                                                     CgSiteModel        *model);

/* What is running, e.g. "Exploring http://127.0.0.1:8642/", and whether
 * it is (paused, finished); @subtitle may be NULL. */
void            cg_progress_view_set_title          (CgProgressView     *self,
                                                     const char         *title,
                                                     const char         *subtitle);
/* Gives the keyboard focus to Pause (or Resume), or to Stop when what
 * runs cannot pause. */
void            cg_progress_view_focus_controls     (CgProgressView     *self);
/* Shows Resume instead of Pause while the crawl is paused. */
void            cg_progress_view_set_paused         (CgProgressView     *self,
                                                     gboolean            paused);
/* A task without counters: @fraction from 0 to 1, or negative when its
 * size is not known; @text says what is done. NULL @text hides the bar. */
void            cg_progress_view_set_task_progress  (CgProgressView     *self,
                                                     const char         *text,
                                                     double              fraction);

void            cg_progress_view_update_stats       (CgProgressView     *self,
                                                     const CgCrawlStats *stats);
void            cg_progress_view_add_event          (CgProgressView     *self,
                                                     CgCrawlEventKind    kind,
                                                     const char         *url,
                                                     const char         *message);
void            cg_progress_view_update_class       (CgProgressView     *self,
                                                     const char         *class_name,
                                                     guint               pages,
                                                     guint               records);
void            cg_progress_view_add_coverage       (CgProgressView     *self,
                                                     guint64             requests,
                                                     guint64             distinct_bigrams);

/* What the view shows, for tests and screen readers. */
const char     *cg_progress_view_get_counter_text   (CgProgressView     *self,
                                                     CgProgressCounter   counter);
guint           cg_progress_view_get_n_events       (CgProgressView     *self);
/* The newest event first; NULL past the end. */
const char     *cg_progress_view_get_event_text     (CgProgressView     *self,
                                                     guint               index);
guint           cg_progress_view_get_n_classes      (CgProgressView     *self);
gboolean        cg_progress_view_get_class_counts   (CgProgressView     *self,
                                                     const char         *class_name,
                                                     guint              *out_pages,
                                                     guint              *out_records);
CgCoveragePlot *cg_progress_view_get_plot           (CgProgressView     *self);

G_END_DECLS
