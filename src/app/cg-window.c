/* cg-window.c: the workbench's main window.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-demo-server.h"
#include "cg-new-crawl-dialog.h"
#include "cg-project.h"
#include "cg-project-page.h"
#include "cg-recent-projects.h"
#include "cg-window.h"

/* The demo server prefers a fixed port so that the demo project's stored
 * addresses stay valid from one run to the next; another free port is
 * taken when this one is busy. */
#define DEMO_PREFERRED_PORT 8642

struct _CgWindow
{
  AdwApplicationWindow parent_instance;

  GSettings     *settings;
  CgDemoServer  *demo_server;

  AdwToastOverlay *toast_overlay;
  AdwWindowTitle  *window_title;
  GtkWidget       *back_button;
  GtkStack        *stack;
  AdwPreferencesGroup *recent_group;
  GtkListBox      *recent_list;
  CgProjectPage   *project_page;
};

G_DEFINE_FINAL_TYPE (CgWindow, cg_window, ADW_TYPE_APPLICATION_WINDOW)

void
cg_window_show_toast (CgWindow   *self,
                      const char *message)
{
  g_return_if_fail (CG_IS_WINDOW (self));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

static void
show_start (CgWindow *self)
{
  gtk_stack_set_visible_child_name (self->stack, "start");
  gtk_widget_set_visible (self->back_button, FALSE);
  adw_window_title_set_title (self->window_title, _("Cartograph"));
  adw_window_title_set_subtitle (self->window_title, NULL);
}

static void
reload_recent_projects (CgWindow *self)
{
  g_auto(GStrv) folders = cg_recent_projects_list (self->settings);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  for (guint i = 0; folders[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *name = g_path_get_basename (folders[i]);

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folders[i]);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "folder", g_strdup (folders[i]), g_free);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), folders[0] != NULL);
}

static void
show_project (CgWindow   *self,
              CgProject  *project,
              const char *site_url)
{
  cg_project_page_set_project (self->project_page, project);
  cg_project_page_set_site_url (self->project_page, site_url);
  gtk_stack_set_visible_child_name (self->stack, "project");
  gtk_widget_set_visible (self->back_button, TRUE);
  adw_window_title_set_title (self->window_title, cg_project_get_name (project));
  adw_window_title_set_subtitle (self->window_title, cg_project_get_folder (project));

  cg_recent_projects_add (self->settings, cg_project_get_folder (project));
  reload_recent_projects (self);
}

void
cg_window_open_project (CgWindow *self,
                        GFile    *folder)
{
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CG_IS_WINDOW (self));

  if (path == NULL)
    {
      cg_window_show_toast (self, _("Projects must be local folders"));
      return;
    }

  project = cg_project_open (path, &error);
  if (project == NULL)
    {
      cg_window_show_toast (self, error->message);
      return;
    }
  show_project (self, project, NULL);
}

static gboolean
project_has_seed (CgProject  *project,
                  const char *seed_url)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (project),
                                                   "SELECT 1 FROM crawls WHERE seed_url = ?1",
                                                   NULL);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, seed_url, -1, SQLITE_TRANSIENT);
  return sqlite3_step (stmt) == SQLITE_ROW;
}

static gboolean
start_demo_server (CgWindow  *self,
                   GError   **error)
{
  if (self->demo_server != NULL)
    return TRUE;

  self->demo_server = cg_demo_server_new ();
  if (cg_demo_server_start (self->demo_server, DEMO_PREFERRED_PORT, NULL))
    return TRUE;
  if (cg_demo_server_start (self->demo_server, 0, error))
    return TRUE;
  g_clear_object (&self->demo_server);
  return FALSE;
}

void
cg_window_try_demo (CgWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autofree char *url = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *message = NULL;

  g_return_if_fail (CG_IS_WINDOW (self));

  if (!start_demo_server (self, &error))
    {
      cg_window_show_toast (self, error->message);
      return;
    }
  url = cg_demo_server_get_url (self->demo_server);

  folder = g_build_filename (g_get_user_data_dir (), "cartograph", "demo", NULL);
  project = cg_project_is_project_folder (folder)
            ? cg_project_open (folder, &error)
            : cg_project_create (folder, _("Demo Bookshop"), &error);
  if (project == NULL)
    {
      cg_window_show_toast (self, error->message);
      return;
    }

  if (!project_has_seed (project, url) &&
      cg_project_add_crawl (project, "explore", url, "{\"sample_size\":200,\"robots\":\"obey\"}", &error) < 0)
    {
      cg_window_show_toast (self, error->message);
      return;
    }

  show_project (self, project, url);
  /* Translators: %s is the address of the demo site, such as http://127.0.0.1:8642/. */
  message = g_strdup_printf (_("The demo site is running at %s"), url);
  cg_window_show_toast (self, message);
}

static void
recent_row_activated_cb (CgWindow      *self,
                         GtkListBoxRow *row)
{
  const char *folder = g_object_get_data (G_OBJECT (row), "folder");
  g_autoptr(GFile) file = NULL;

  if (folder == NULL)
    return;
  file = g_file_new_for_path (folder);
  cg_window_open_project (self, file);
}

static void
project_created_cb (CgNewCrawlDialog *dialog,
                    CgProject        *project,
                    CgWindow         *self)
{
  show_project (self, project, NULL);
  cg_window_show_toast (self, _("Project created"));
}

static void
new_crawl_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);
  CgNewCrawlDialog *dialog = cg_new_crawl_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "project-created", G_CALLBACK (project_created_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
open_project_response_cb (GtkNativeDialog *chooser,
                          int              response,
                          CgWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      cg_window_open_project (self, folder);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

/* GtkFileDialog arrives in GTK 4.10 and Debian 12 has 4.8. */
static void
open_project_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open Project"),
                                         GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_project_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
G_GNUC_END_IGNORE_DEPRECATIONS

static void
try_demo_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  cg_window_try_demo (CG_WINDOW (widget));
}

static void
show_start_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  show_start (CG_WINDOW (widget));
}

static gboolean
cg_window_close_request (GtkWindow *window)
{
  CgWindow *self = CG_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  return GTK_WINDOW_CLASS (cg_window_parent_class)->close_request (window);
}

static void
cg_window_dispose (GObject *object)
{
  CgWindow *self = CG_WINDOW (object);

  if (self->demo_server != NULL)
    cg_demo_server_stop (self->demo_server);
  g_clear_object (&self->demo_server);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cg_window_parent_class)->dispose (object);
}

static void
cg_window_class_init (CgWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cg_window_dispose;
  window_class->close_request = cg_window_close_request;

  g_type_ensure (CG_TYPE_PROJECT_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CgWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, project_page);
  gtk_widget_class_bind_template_callback (widget_class, recent_row_activated_cb);

  gtk_widget_class_install_action (widget_class, "win.new-crawl", NULL, new_crawl_activated);
  gtk_widget_class_install_action (widget_class, "win.open-project", NULL, open_project_activated);
  gtk_widget_class_install_action (widget_class, "win.try-demo", NULL, try_demo_activated);
  gtk_widget_class_install_action (widget_class, "win.show-start", NULL, show_start_activated);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-crawl", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-project", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.show-start", NULL);
}

static void
cg_window_init (CgWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  reload_recent_projects (self);
  show_start (self);
}

CgWindow *
cg_window_new (CgApplication *application)
{
  return g_object_new (CG_TYPE_WINDOW, "application", application, NULL);
}
