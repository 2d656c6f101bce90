/* cg-project-page.h: the view of one open project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-project.h"

G_BEGIN_DECLS

#define CG_TYPE_PROJECT_PAGE (cg_project_page_get_type ())
G_DECLARE_FINAL_TYPE (CgProjectPage, cg_project_page, CG, PROJECT_PAGE, AdwBin)

void        cg_project_page_set_project  (CgProjectPage *self,
                                          CgProject     *project);
CgProject  *cg_project_page_get_project  (CgProjectPage *self);
void        cg_project_page_set_site_url (CgProjectPage *self,
                                          const char    *url);
void        cg_project_page_reload       (CgProjectPage *self);

G_END_DECLS
