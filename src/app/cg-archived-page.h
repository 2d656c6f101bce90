/* cg-archived-page.h: an archived page, replayed from the project's WARC files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>
#include <webkit/webkit.h>

#include "cg-project.h"

G_BEGIN_DECLS

/* A WebKit view whose every request is answered by the project's archive
 * (cg_web_context_new_for_archive()) and never by the network, under a
 * bar with a back button and the address of the page shown. Links on the
 * page lead to the archived copies of their targets; a target the archive
 * lacks gets the archive's "not found" answer.
 *
 * Signals:
 *   "back": the back button was pressed (or Escape, or Alt+Left). */
#define CG_TYPE_ARCHIVED_PAGE (cg_archived_page_get_type ())
G_DECLARE_FINAL_TYPE (CgArchivedPage, cg_archived_page, CG, ARCHIVED_PAGE, AdwBin)

GtkWidget     *cg_archived_page_new          (void);

/* Starts loading the archived capture of @url from @project. Fails, and
 * shows nothing new, when the project has no archive or the archive has no
 * capture of @url (CG_ARCHIVE_ERROR_NOT_FOUND). */
gboolean       cg_archived_page_load         (CgArchivedPage  *self,
                                              CgProject       *project,
                                              const char      *url,
                                              GError         **error);
/* The address of the page shown (it follows links clicked on it), or NULL. */
const char    *cg_archived_page_get_url      (CgArchivedPage  *self);
CgProject     *cg_archived_page_get_project  (CgArchivedPage  *self);
/* NULL until a page was loaded. */
WebKitWebView *cg_archived_page_get_web_view (CgArchivedPage  *self);

G_END_DECLS
