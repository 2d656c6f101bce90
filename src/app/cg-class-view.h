/* cg-class-view.h: one page class of a site model: samples, records, wrapper.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-project.h"
#include "cg-site-model.h"

/* At most this many sample pages of a class are shown, and a thumbnail
 * file larger than this is not read. */
#define CG_CLASS_VIEW_MAX_SAMPLES         64
#define CG_CLASS_VIEW_MAX_THUMBNAIL_SIZE  (16 * 1024 * 1024)
/* Thumbnails are shown this wide, in pixels. */
#define CG_CLASS_VIEW_THUMBNAIL_WIDTH     208
/* The longest class label accepted, in characters. */
#define CG_CLASS_VIEW_MAX_LABEL_LENGTH    200

G_BEGIN_DECLS

/* The view shows the class's label (renamable), URL pattern, depth and page
 * count, its sample pages as thumbnails (activating one shows the archived
 * page, replayed from the project's WARC files), its records table (sortable,
 * searchable, exported as CSV or JSON Lines; one region of the pages at a
 * time, the main one first, with a chooser when the wrapper found records
 * in several) and its wrapper's XPaths.
 *
 * Signals:
 *   "class-renamed" (const char *name, const char *label): the class was
 *     renamed in the model and in the store.
 *   "toast" (const char *message) → gboolean: something the user should
 *     hear about (an export done, a rename or load that failed); return
 *     TRUE when it was shown. When no handler returns TRUE, the view
 *     activates "win.toast" with the message as a string parameter, if the
 *     window it is in has that action, so a window need not connect. */
#define CG_TYPE_CLASS_VIEW (cg_class_view_get_type ())
G_DECLARE_FINAL_TYPE (CgClassView, cg_class_view, CG, CLASS_VIEW, AdwBin)

GtkWidget   *cg_class_view_new            (void);

/* Shows @class_name of @model (a saved model of @project). The view keeps
 * references to @project and @model; NULL arguments clear it. */
void         cg_class_view_set_class      (CgClassView *self,
                                           CgProject   *project,
                                           CgSiteModel *model,
                                           const char  *class_name);
const char  *cg_class_view_get_class_name (CgClassView *self);
CgProject   *cg_class_view_get_project    (CgClassView *self);
CgSiteModel *cg_class_view_get_model      (CgClassView *self);

/* Reads the class's records and wrapper from the store again, for when an
 * extraction or a harvest has added some. */
void         cg_class_view_reload_records (CgClassView *self);

/* Reads the sample thumbnails from the project folder again, for when the
 * class sampler has rendered more of them. */
void         cg_class_view_reload_samples (CgClassView *self);

/* What the rename button does: gives the class the label @label in the
 * model and the store, and emits "class-renamed". */
gboolean     cg_class_view_rename         (CgClassView *self,
                                           const char  *label,
                                           GError     **error);

/* Shows the archived copy of the class's sample page @index (what
 * activating its thumbnail does). */
gboolean     cg_class_view_open_sample    (CgClassView *self,
                                           guint        index,
                                           GError     **error);
/* Back from the archived page to the class. */
void         cg_class_view_show_class     (CgClassView *self);
gboolean     cg_class_view_go_back        (CgClassView *self);

/* The parts, for the window and the tests. */
GtkWidget   *cg_class_view_get_records_table (CgClassView *self);  /* CgRecordsTable */
GtkFlowBox  *cg_class_view_get_samples       (CgClassView *self);
GtkWidget   *cg_class_view_get_archived_page (CgClassView *self);  /* CgArchivedPage */

G_END_DECLS
