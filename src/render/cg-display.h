/* cg-display.h: a display for headless rendering.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* WebKitGTK renders only in views that GTK shows, so headless rendering
 * needs a display. cg_display_open() uses the one the environment names
 * (DISPLAY or WAYLAND_DISPLAY); when there is none, it starts Xvfb on a
 * free display number (Xvfb picks it itself, -displayfd), points DISPLAY
 * at it and stops it again when the CgDisplay is finalised, or when this
 * process dies. GTK is initialised on the display. */
#define CG_TYPE_DISPLAY (cg_display_get_type ())
G_DECLARE_FINAL_TYPE (CgDisplay, cg_display, CG, DISPLAY, GObject)

/* The screen of a started Xvfb; larger than any viewport the renderer
 * uses by default. */
#define CG_DISPLAY_XVFB_SCREEN "1280x1024x24"

CgDisplay  *cg_display_open        (GError    **error);
/* TRUE when the display is an Xvfb this object started. */
gboolean    cg_display_is_virtual  (CgDisplay  *self);
/* ":99", "wayland-0"… */
const char *cg_display_get_name    (CgDisplay  *self);

G_END_DECLS
