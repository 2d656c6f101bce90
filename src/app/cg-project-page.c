/* cg-project-page.c: the view of one open project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-project-page.h"

struct _CgProjectPage
{
  AdwBin      parent_instance;

  CgProject  *project;
  char       *site_url;

  AdwPreferencesGroup *site_group;
  AdwActionRow        *site_row;
  AdwActionRow        *name_row;
  AdwActionRow        *folder_row;
  GtkListBox          *crawl_list;
};

G_DEFINE_FINAL_TYPE (CgProjectPage, cg_project_page, ADW_TYPE_BIN)

static const char *
describe_kind (const char *kind)
{
  if (g_strcmp0 (kind, "explore") == 0)
    return _("Exploration");
  if (g_strcmp0 (kind, "harvest") == 0)
    return _("Harvest");
  return _("Crawl");
}

static const char *
describe_state (const char *state)
{
  if (g_strcmp0 (state, "created") == 0)
    return _("Not started");
  if (g_strcmp0 (state, "running") == 0)
    return _("Running");
  if (g_strcmp0 (state, "paused") == 0)
    return _("Paused");
  if (g_strcmp0 (state, "finished") == 0)
    return _("Finished");
  if (g_strcmp0 (state, "stopped") == 0)
    return _("Stopped");
  if (g_strcmp0 (state, "failed") == 0)
    return _("Failed");
  return state;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

void
cg_project_page_reload (CgProjectPage *self)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  guint rows = 0;

  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  clear_list (self->crawl_list);
  if (self->project == NULL)
    return;

  adw_action_row_set_subtitle (self->name_row, cg_project_get_name (self->project));
  adw_action_row_set_subtitle (self->folder_row, cg_project_get_folder (self->project));

  stmt = cg_store_prepare (cg_project_get_store (self->project),
                           "SELECT kind, seed_url, state, created_at FROM crawls ORDER BY id DESC",
                           &error);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *kind = (const char *) sqlite3_column_text (stmt, 0);
      const char *seed = (const char *) sqlite3_column_text (stmt, 1);
      const char *state = (const char *) sqlite3_column_text (stmt, 2);
      g_autoptr(GDateTime) created = g_date_time_new_from_unix_local (sqlite3_column_int64 (stmt, 3));
      g_autofree char *when = created != NULL ? g_date_time_format (created, "%x %X") : g_strdup ("");
      /* Translators: a crawl's kind, its state and when it was created. */
      g_autofree char *subtitle = g_strdup_printf (_("%s · %s · %s"),
                                                   describe_kind (kind), describe_state (state), when);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), seed);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_list_box_append (self->crawl_list, row);
      rows++;
    }
  if (error != NULL)
    g_warning ("Could not list the crawls of %s: %s", cg_project_get_folder (self->project), error->message);

  if (rows == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No crawls yet"));
      gtk_list_box_append (self->crawl_list, row);
    }
}

void
cg_project_page_set_project (CgProjectPage *self,
                             CgProject     *project)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  if (g_set_object (&self->project, project))
    cg_project_page_reload (self);
}

CgProject *
cg_project_page_get_project (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->project;
}

void
cg_project_page_set_site_url (CgProjectPage *self,
                              const char    *url)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  g_free (self->site_url);
  self->site_url = g_strdup (url);
  gtk_widget_set_visible (GTK_WIDGET (self->site_group), url != NULL);
  adw_action_row_set_subtitle (self->site_row, url != NULL ? url : "");
}

static void
open_site_clicked_cb (CgProjectPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->site_url != NULL)
    gtk_show_uri (GTK_WINDOW (root), self->site_url, GDK_CURRENT_TIME);
}

static void
open_folder_clicked_cb (CgProjectPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (self->project == NULL)
    return;
  folder = g_file_new_for_path (cg_project_get_folder (self->project));
  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (root), uri, GDK_CURRENT_TIME);
}

static void
cg_project_page_dispose (GObject *object)
{
  CgProjectPage *self = CG_PROJECT_PAGE (object);

  g_clear_object (&self->project);
  g_clear_pointer (&self->site_url, g_free);

  G_OBJECT_CLASS (cg_project_page_parent_class)->dispose (object);
}

static void
cg_project_page_class_init (CgProjectPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_project_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-project-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, site_group);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, site_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, folder_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, crawl_list);
  gtk_widget_class_bind_template_callback (widget_class, open_site_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_folder_clicked_cb);
}

static void
cg_project_page_init (CgProjectPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
