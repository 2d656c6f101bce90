/* cg-window.h: the workbench's main window.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-application.h"

G_BEGIN_DECLS

#define CG_TYPE_WINDOW (cg_window_get_type ())
G_DECLARE_FINAL_TYPE (CgWindow, cg_window, CG, WINDOW, AdwApplicationWindow)

CgWindow *cg_window_new           (CgApplication *application);
void      cg_window_open_project  (CgWindow      *self,
                                   GFile         *folder);
/* Serves the demo site and opens its project, exploring it if new. The
 * first time, the server starts in a thread and the project opens once it
 * listens, from the main loop. */
void      cg_window_try_demo      (CgWindow      *self);
void      cg_window_show_toast    (CgWindow      *self,
                                   const char    *message);
/* Whether a crawl, an exploration or a harvest runs on its project. */
gboolean  cg_window_is_busy       (CgWindow      *self);
/* Quits the application, once the user agrees to stop what runs on the
 * window's project, if anything does. */
void      cg_window_quit          (CgWindow      *self);

/* Shows an error that stopped what the user asked for, whole, in a dialog
 * that stays until it is closed; also the action win.error, "(ss)". */
void      cg_window_show_error    (CgWindow      *self,
                                   const char    *heading,
                                   const char    *body);
/* The page of the open project (also while the start page is shown). */
GtkWidget *cg_window_get_project_page (CgWindow  *self);
/* The address of the demo site once Try the Demo started it, or NULL. */
char     *cg_window_get_demo_url  (CgWindow      *self);

G_END_DECLS
