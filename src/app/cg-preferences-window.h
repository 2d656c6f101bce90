/* cg-preferences-window.h: the workbench's preferences.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Every row applies its change to its GSettings key at once, so there is
 * nothing to save; a contact the crawls would refuse is not stored. */
#define CG_TYPE_PREFERENCES_WINDOW (cg_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (CgPreferencesWindow, cg_preferences_window, CG, PREFERENCES_WINDOW, AdwPreferencesWindow)

CgPreferencesWindow *cg_preferences_window_new (GtkWindow *parent);

G_END_DECLS
