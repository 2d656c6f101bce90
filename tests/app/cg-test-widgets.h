/* cg-test-widgets.h: widget-tree walkers and main-loop helpers the app
 * tests share.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Generous: CI machines are slow and shared. Nothing waits this long when
 * things work. */
#define CG_TEST_WAIT_TIMEOUT_S 120

typedef gboolean (*CgTestCondition)   (gpointer   user_data);
typedef gboolean (*CgTestWidgetMatch) (GtkWidget *widget,
                                       gpointer   user_data);

void                cg_test_iterate          (void);
void                cg_test_wait_for         (CgTestCondition  condition,
                                              gpointer         user_data,
                                              const char      *what);
void                cg_test_wait_for_flag    (const gboolean  *flag,
                                              const char      *what);

GtkWidget          *cg_test_find_matching    (GtkWidget        *root,
                                              CgTestWidgetMatch match,
                                              gpointer          user_data);
const char         *cg_test_widget_text      (GtkWidget        *widget);
GtkWidget          *cg_test_find_widget      (GtkWidget        *root,
                                              GType             type,
                                              const char       *text);
GtkWidget          *cg_test_find_button      (GtkWidget        *root,
                                              const char       *label);
GtkWidget          *cg_test_find_row         (GtkWidget        *root,
                                              const char       *title);
GtkWidget          *cg_test_find_actionable  (GtkWidget        *root,
                                              const char       *action);
GtkWidget          *cg_test_find_with_css_class (GtkWidget     *root,
                                              GType             type,
                                              const char       *css_class);
guint               cg_test_count_children   (GtkWidget        *widget);
GtkEventController *cg_test_find_controller  (GtkWidget        *widget,
                                              GType             type);
GtkWindow          *cg_test_show_in_window   (GtkWidget        *child,
                                              int               width,
                                              int               height);

G_END_DECLS
