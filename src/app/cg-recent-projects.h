/* cg-recent-projects.h: the projects the window opened last.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CG_RECENT_PROJECTS_MAX 10

/* @name: the project's name, kept to be shown; NULL keeps none. */
void    cg_recent_projects_add    (GSettings  *settings,
                                   const char *folder,
                                   const char *name);
void    cg_recent_projects_remove (GSettings  *settings,
                                   const char *folder);
GStrv   cg_recent_projects_list   (GSettings  *settings);
/* The name @folder's project had when last opened, or NULL. */
char   *cg_recent_projects_get_name (GSettings *settings,
                                     const char *folder);

G_END_DECLS
