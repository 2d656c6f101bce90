/* cg-recent-projects.h: the projects the window opened last.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CG_RECENT_PROJECTS_MAX 10

void    cg_recent_projects_add    (GSettings  *settings,
                                   const char *folder);
void    cg_recent_projects_remove (GSettings  *settings,
                                   const char *folder);
GStrv   cg_recent_projects_list   (GSettings  *settings);

G_END_DECLS
