/* cg-screenshot.h: what the screenshot programs (take-screenshots,
 * screenshot-class-view) share: letting the window settle, and saving a
 * widget as GTK draws it to a PNG file.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Runs the main context for @ms milliseconds: animations end, pictures
 * load and the layout settles before a picture is taken. */
void cg_screenshot_settle (guint       ms);

/* Draws @widget as it is on screen into the PNG file @path and prints the
 * path; exits when the file cannot be written. */
void cg_screenshot_save   (GtkWidget  *widget,
                           const char *path);

G_END_DECLS
