/* cg-new-crawl-dialog.c: the settings of a new crawl.
 *
 * The dialog creates the project folder and records the crawl with its
 * settings; the window then opens the project. Defaults come from
 * GSettings, and the values chosen become the next defaults.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "cg-new-crawl-dialog.h"
#include "cg-project.h"

struct _CgNewCrawlDialog
{
  AdwWindow      parent_instance;

  GSettings     *settings;
  char          *folder;
  gboolean       folder_chosen;

  AdwToastOverlay     *toast_overlay;
  AdwPreferencesGroup *site_group;
  AdwEntryRow         *url_row;
  AdwComboRow         *scope_row;
  GtkSpinButton       *sample_spin;
  GtkSpinButton       *delay_spin;
  AdwActionRow        *folder_row;
  AdwActionRow        *robots_row;
  GtkSwitch           *robots_switch;
  GtkSwitch           *javascript_switch;
  AdwEntryRow         *contact_row;
  GtkWidget           *create_button;
};

G_DEFINE_FINAL_TYPE (CgNewCrawlDialog, cg_new_crawl_dialog, ADW_TYPE_WINDOW)

enum {
  PROJECT_CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The order of the scope combo row's items. */
static const char * const scope_ids[] = { "host", "domain", "prefix" };

/* Returns NULL when @text is a crawlable address, or a message saying what
 * is wrong with it. */
char *
cg_new_crawl_dialog_validate_url (const char  *text,
                                  char       **out_host)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  const char *scheme;

  if (*stripped == '\0')
    return g_strdup (_("Enter the address of the site’s first page"));

  uri = g_uri_parse (stripped, G_URI_FLAGS_ENCODED, &error);
  if (uri == NULL)
    return g_strdup_printf (_("“%s” is not a web address"), stripped);

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return g_strdup_printf (_("Only http and https addresses can be crawled, not “%s”"), scheme);

  if (g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return g_strdup (_("The address has no host name"));

  if (out_host != NULL)
    *out_host = g_ascii_strdown (g_uri_get_host (uri), -1);
  return NULL;
}

static char *
default_folder_for_host (const char *host)
{
  g_autofree char *base = g_build_filename (g_get_home_dir (), "Cartograph", NULL);
  char *folder = g_build_filename (base, host, NULL);

  /* Never propose a folder that already holds something. */
  for (guint i = 2; g_file_test (folder, G_FILE_TEST_EXISTS) && i < 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", host, i);

      g_free (folder);
      folder = g_build_filename (base, name, NULL);
    }
  return folder;
}

/* Folders in the home folder are shown from "~", as GNOME's file chooser
 * and Files show them: shorter, and the part the user knows. */
static void
update_folder_row (CgNewCrawlDialog *self)
{
  const char *home = g_get_home_dir ();
  gsize home_length = strlen (home);
  g_autofree char *shown = NULL;

  if (self->folder != NULL && home_length > 1 && g_str_has_prefix (self->folder, home) &&
      self->folder[home_length] == G_DIR_SEPARATOR)
    shown = g_strconcat ("~", self->folder + home_length, NULL);
  adw_action_row_set_subtitle (self->folder_row, shown != NULL ? shown : self->folder != NULL ? self->folder : "");
}

static void
url_changed_cb (CgNewCrawlDialog *self)
{
  g_autofree char *host = NULL;
  g_autofree char *problem = cg_new_crawl_dialog_validate_url (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), &host);
  gboolean empty = *gtk_editable_get_text (GTK_EDITABLE (self->url_row)) == '\0';

  gtk_widget_set_sensitive (self->create_button, problem == NULL);
  if (problem != NULL && !empty)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
      adw_preferences_group_set_description (self->site_group, problem);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->url_row), "error");
      adw_preferences_group_set_description (self->site_group, NULL);
    }

  if (host != NULL && !self->folder_chosen)
    {
      g_free (self->folder);
      self->folder = default_folder_for_host (host);
      update_folder_row (self);
    }
}

static void
robots_toggled_cb (CgNewCrawlDialog *self)
{
  if (gtk_switch_get_active (self->robots_switch))
    {
      adw_action_row_set_subtitle (self->robots_row, _("Skip what the site asks crawlers not to fetch"));
      gtk_widget_remove_css_class (GTK_WIDGET (self->robots_row), "warning");
    }
  else
    {
      adw_action_row_set_subtitle (self->robots_row,
                                   _("Only for sites you have permission to archive in full. "
                                     "The archive records that robots.txt was ignored."));
      gtk_widget_add_css_class (GTK_WIDGET (self->robots_row), "warning");
    }
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
folder_chosen_cb (GtkNativeDialog  *chooser,
                  int               response,
                  CgNewCrawlDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      g_free (self->folder);
      self->folder = g_file_get_path (file);
      self->folder_chosen = TRUE;
      update_folder_row (self);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

/* GtkFileDialog arrives in GTK 4.10; Debian 12 has 4.8, so the native
 * chooser is used and its deprecation in newer GTK is silenced. */
static void
choose_folder_clicked_cb (CgNewCrawlDialog *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Choose the Project Folder"),
                                         GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (folder_chosen_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
G_GNUC_END_IGNORE_DEPRECATIONS

static char *
build_config_json (CgNewCrawlDialog *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint scope = adw_combo_row_get_selected (self->scope_row);
  const char *contact = gtk_editable_get_text (GTK_EDITABLE (self->contact_row));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "scope");
  json_builder_add_string_value (builder, scope_ids[MIN (scope, G_N_ELEMENTS (scope_ids) - 1)]);
  json_builder_set_member_name (builder, "sample_size");
  json_builder_add_int_value (builder, gtk_spin_button_get_value_as_int (self->sample_spin));
  json_builder_set_member_name (builder, "delay");
  json_builder_add_double_value (builder, gtk_spin_button_get_value (self->delay_spin));
  json_builder_set_member_name (builder, "robots");
  json_builder_add_string_value (builder, gtk_switch_get_active (self->robots_switch) ? "obey" : "ignore");
  json_builder_set_member_name (builder, "javascript");
  json_builder_add_boolean_value (builder, gtk_switch_get_active (self->javascript_switch));
  if (*contact != '\0')
    {
      json_builder_set_member_name (builder, "contact");
      json_builder_add_string_value (builder, contact);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

static void
remember_choices (CgNewCrawlDialog *self)
{
  guint scope = adw_combo_row_get_selected (self->scope_row);

  g_settings_set_uint (self->settings, "sample-size", gtk_spin_button_get_value_as_int (self->sample_spin));
  g_settings_set_double (self->settings, "politeness-delay", gtk_spin_button_get_value (self->delay_spin));
  g_settings_set_boolean (self->settings, "respect-robots", gtk_switch_get_active (self->robots_switch));
  g_settings_set_boolean (self->settings, "javascript", gtk_switch_get_active (self->javascript_switch));
  g_settings_set_string (self->settings, "scope", scope_ids[MIN (scope, G_N_ELEMENTS (scope_ids) - 1)]);
  g_settings_set_string (self->settings, "user-agent-contact",
                         gtk_editable_get_text (GTK_EDITABLE (self->contact_row)));
}

static void
create_clicked_cb (CgNewCrawlDialog *self)
{
  g_autofree char *host = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *url = NULL;
  g_autofree char *config = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;

  url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  problem = cg_new_crawl_dialog_validate_url (url, &host);
  if (problem != NULL || self->folder == NULL)
    return;

  project = cg_project_create (self->folder, host, &error);
  if (project == NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  config = build_config_json (self);
  if (cg_project_add_crawl (project, "explore", url, config, &error) < 0)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  remember_choices (self);
  g_signal_emit (self, signals[PROJECT_CREATED], 0, project);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
load_defaults (CgNewCrawlDialog *self)
{
  g_autofree char *scope = g_settings_get_string (self->settings, "scope");
  g_autofree char *contact = g_settings_get_string (self->settings, "user-agent-contact");

  gtk_spin_button_set_value (self->sample_spin, g_settings_get_uint (self->settings, "sample-size"));
  gtk_spin_button_set_value (self->delay_spin, g_settings_get_double (self->settings, "politeness-delay"));
  gtk_switch_set_active (self->robots_switch, g_settings_get_boolean (self->settings, "respect-robots"));
  gtk_switch_set_active (self->javascript_switch, g_settings_get_boolean (self->settings, "javascript"));
  gtk_editable_set_text (GTK_EDITABLE (self->contact_row), contact);
  for (guint i = 0; i < G_N_ELEMENTS (scope_ids); i++)
    if (g_str_equal (scope, scope_ids[i]))
      adw_combo_row_set_selected (self->scope_row, i);
  robots_toggled_cb (self);
}

static void
cg_new_crawl_dialog_dispose (GObject *object)
{
  CgNewCrawlDialog *self = CG_NEW_CRAWL_DIALOG (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->folder, g_free);

  G_OBJECT_CLASS (cg_new_crawl_dialog_parent_class)->dispose (object);
}

static void
cg_new_crawl_dialog_class_init (CgNewCrawlDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_new_crawl_dialog_dispose;

  /* Emitted with the new CgProject once its folder and crawl are stored. */
  signals[PROJECT_CREATED] = g_signal_new ("project-created",
                                           G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_OBJECT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-new-crawl-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, site_group);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, scope_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, sample_spin);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, delay_spin);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, robots_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, robots_switch);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, javascript_switch);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, contact_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, create_button);
  gtk_widget_class_bind_template_callback (widget_class, url_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, robots_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_folder_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cg_new_crawl_dialog_init (CgNewCrawlDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  load_defaults (self);
  gtk_window_set_default_widget (GTK_WINDOW (self), self->create_button);
}

CgNewCrawlDialog *
cg_new_crawl_dialog_new (GtkWindow *parent)
{
  return g_object_new (CG_TYPE_NEW_CRAWL_DIALOG,
                       "transient-for", parent,
                       NULL);
}

void
cg_new_crawl_dialog_set_url (CgNewCrawlDialog *self,
                             const char       *url)
{
  g_return_if_fail (CG_IS_NEW_CRAWL_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
}
