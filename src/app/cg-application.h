/* cg-application.h: the Cartograph application.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CG_TYPE_APPLICATION (cg_application_get_type ())
G_DECLARE_FINAL_TYPE (CgApplication, cg_application, CG, APPLICATION, AdwApplication)

CgApplication *cg_application_new (void);

G_END_DECLS
