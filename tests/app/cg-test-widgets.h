/* cg-test-widgets.h: widget-tree walkers and main-loop helpers the app
 * tests share.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "core/cg-test-files.h"

G_BEGIN_DECLS

/* Generous: CI machines are slow and shared. Nothing waits this long when
 * things work. Well under the app tests' own time limit in
 * tests/meson.build, so that a stuck wait fails naming what it waited for
 * instead of being killed without a word. */
#define CG_TEST_WAIT_TIMEOUT_S 60

/* How an app test starts: in a throw-away home (HOME and the XDG data,
 * config and cache folders), so that nothing the window writes lands in
 * the user's; with GTK and libadwaita set up (in the C locale when
 * @c_locale, for checks of numbers as C writes them); owning the default
 * main context for the whole test, so that what crawls report from their
 * threads stays on this thread between the iterations tests run by hand.
 * Returns the home folder, for a g_autoptr(CgTestFolder) in main(): it is
 * removed, with all the tests wrote in it, when main() returns. */
CgTestFolder       *cg_test_init_app         (int             *argc,
                                              char          ***argv,
                                              gboolean         c_locale);

typedef gboolean (*CgTestCondition)   (gpointer   user_data);
typedef gboolean (*CgTestWidgetMatch) (GtkWidget *widget,
                                       gpointer   user_data);

void                cg_test_iterate          (void);
void                cg_test_wait_for         (CgTestCondition  condition,
                                              gpointer         user_data,
                                              const char      *what);
void                cg_test_wait_for_flag    (const gboolean  *flag,
                                              const char      *what);
void                cg_test_store_result     (GObject         *source,
                                              GAsyncResult    *result,
                                              gpointer         user_data);
void                cg_test_wait_for_result  (GAsyncResult   **result,
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

AdwMessageDialog   *cg_test_find_message_dialog (GtkWindow     *parent);
AdwMessageDialog   *cg_test_find_dialog_headed  (GtkWindow     *parent,
                                                 const char    *heading);
void                cg_test_click_response   (AdwMessageDialog *dialog,
                                              const char       *label);

G_END_DECLS
