/* cg-new-crawl-dialog.c: the settings of a new crawl.
 *
 * The dialog creates the project folder and records the crawl with its
 * settings; the window then opens the project. Defaults come from
 * GSettings, and the values chosen become the next defaults.
 *
 * The core is the judge of the settings: the dialog asks it as the user
 * types, and once more before Create makes anything, so that a project
 * whose crawl the core would refuse is never left on disk.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cg-crawl-config.h"
#include "cg-fetcher.h"
#include "cg-new-crawl-dialog.h"
#include "cg-project.h"
#include "cg-url.h"

struct _CgNewCrawlDialog
{
  AdwWindow      parent_instance;

  GSettings     *settings;
  char          *folder;
  gboolean       folder_chosen;

  AdwPreferencesGroup *site_group;
  AdwEntryRow         *url_row;
  AdwComboRow         *scope_row;
  GtkSpinButton       *sample_spin;
  GtkSpinButton       *delay_spin;
  AdwActionRow        *folder_row;
  AdwActionRow        *robots_row;
  GtkSwitch           *robots_switch;
  GtkSwitch           *javascript_switch;
  AdwExpanderRow      *advanced_row;
  AdwEntryRow         *contact_row;
  GtkLabel            *contact_problem_label;
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

/* Returns NULL when @text is an address the crawl accepts as its seed, or
 * a message saying what is wrong with it. @out_host, when not NULL, is set
 * to the host, as people write it, to name the project and its folder. */
char *
cg_new_crawl_dialog_validate_url (const char  *text,
                                  char       **out_host)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autofree char *normal = NULL;
  g_autofree char *host = NULL;
  g_autoptr(GError) error = NULL;

  if (*stripped == '\0')
    return g_strdup (_("Enter the address of the site’s first page"));

  /* cg_crawl_config_validate() checks its seeds so: asking the same
   * function means that the row refuses exactly what the crawl would. */
  normal = cg_url_normalize (stripped, CG_URL_NORMALIZE_CRAWL, &error);
  if (normal == NULL)
    {
      /* "example.org" is the usual slip, and the core's words for it
       * (a URL that is not absolute) do not say what to type. */
      if (g_error_matches (error, CG_URL_ERROR, CG_URL_ERROR_INVALID) && g_uri_peek_scheme (stripped) == NULL)
        return g_strdup_printf (_("“%s” is not a web address: it must start with https:// or http://"), stripped);
      return g_strdup (error->message);
    }

  if (out_host != NULL)
    {
      /* The normal form has an internationalised host in punycode; the
       * project is named as the user wrote it. */
      host = cg_url_get_host (normal, NULL);
      *out_host = host != NULL ? g_hostname_to_unicode (host) : NULL;
      if (*out_host == NULL)
        *out_host = g_steal_pointer (&host);
    }
  return NULL;
}

/* Returns NULL when @text is empty (no contact) or a contact the crawl
 * accepts in its User-Agent, or a message saying what is wrong with it.
 * White space around it is not part of it. */
char *
cg_new_crawl_dialog_validate_contact (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autoptr(GError) error = NULL;

  /* The check every crawl makes of its settings (cg_crawl_config_validate()). */
  if (cg_fetcher_check_identity (NULL, stripped, &error))
    return NULL;
  /* An e-mail address alone is the usual slip: say how to write it. */
  if (strchr (stripped, '@') != NULL && g_uri_peek_scheme (stripped) == NULL)
    /* Translators: the first %s is a message that names the contact
     * address, the second the address itself. */
    return g_strdup_printf (_("%s: write it as mailto:%s"), error->message, stripped);
  return g_strdup (error->message);
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
get_contact (CgNewCrawlDialog *self)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->contact_row))));
}

/* The settings as they are stored with the crawl, where the window reads
 * them back to start the exploration. */
static char *
build_config_json (CgNewCrawlDialog *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint scope = adw_combo_row_get_selected (self->scope_row);
  g_autofree char *contact = get_contact (self);

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

/* Checks the settings as the exploration will run with them: read back
 * from @config_json with @url as the seed, as
 * cg_project_page_explore_stored() does with what Create stores. */
static gboolean
check_stored_settings (const char  *url,
                       const char  *config_json,
                       GError     **error)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_from_json_with_seed (config_json, url, error);

  return config != NULL && cg_crawl_config_validate (config, error);
}

/* Marks @row as refused, or no longer, for the eye (the error style) and
 * for screen readers: the description of the text being edited is what
 * they read with it, and its invalid state is announced. The visible
 * explanation is shown beside the row by the caller. */
static void
show_row_problem (AdwEntryRow *row,
                  const char  *problem)
{
  GtkAccessible *accessibles[] = {
    GTK_ACCESSIBLE (row),
    GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (row))),
  };

  if (problem != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
  for (guint i = 0; i < G_N_ELEMENTS (accessibles); i++)
    {
      if (accessibles[i] == NULL)
        continue;
      if (problem != NULL)
        {
          gtk_accessible_update_property (accessibles[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, problem, -1);
          gtk_accessible_update_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
        }
      else
        {
          gtk_accessible_reset_property (accessibles[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
          gtk_accessible_reset_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID);
        }
    }
}

/* Runs on every change of a value the crawl's settings are made of, so
 * that Create is sensitive exactly when the core accepts them. */
static void
settings_changed_cb (CgNewCrawlDialog *self)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  g_autofree char *url_problem = cg_new_crawl_dialog_validate_url (url, NULL);
  g_autofree char *contact_problem = cg_new_crawl_dialog_validate_contact (gtk_editable_get_text (GTK_EDITABLE (self->contact_row)));
  g_autoptr(GError) error = NULL;
  const char *site_problem = url_problem;

  /* The rows cover what the user can get wrong; the whole check catches
   * whatever else the core would refuse, so that no Create fails on it. */
  if (url_problem == NULL && contact_problem == NULL)
    {
      g_autofree char *config_json = build_config_json (self);

      if (!check_stored_settings (url, config_json, &error))
        site_problem = error->message;
    }

  /* An empty address is no mistake yet, only not enough to create. */
  show_row_problem (self->url_row, *url != '\0' ? url_problem : NULL);
  adw_preferences_group_set_description (self->site_group, *url != '\0' ? site_problem : NULL);
  show_row_problem (self->contact_row, contact_problem);
  gtk_label_set_text (self->contact_problem_label, contact_problem != NULL ? contact_problem : "");
  gtk_widget_set_visible (GTK_WIDGET (self->contact_problem_label), contact_problem != NULL);
  /* A refused contact may come from the defaults, in a collapsed row:
   * it is shown, or Create would be insensitive for no visible reason. */
  if (contact_problem != NULL)
    adw_expander_row_set_expanded (self->advanced_row, TRUE);

  gtk_widget_set_sensitive (self->create_button,
                            site_problem == NULL && contact_problem == NULL && self->folder != NULL);
}

static void
url_changed_cb (CgNewCrawlDialog *self)
{
  g_autofree char *host = NULL;

  /* Only the host is wanted here; settings_changed_cb() shows the problem. */
  g_free (cg_new_crawl_dialog_validate_url (gtk_editable_get_text (GTK_EDITABLE (self->url_row)), &host));
  if (host != NULL && !self->folder_chosen)
    {
      g_free (self->folder);
      self->folder = default_folder_for_host (host);
      update_folder_row (self);
    }
  settings_changed_cb (self);
}

static void
remember_choices (CgNewCrawlDialog *self)
{
  guint scope = adw_combo_row_get_selected (self->scope_row);
  g_autofree char *contact = get_contact (self);

  g_settings_set_uint (self->settings, "sample-size", gtk_spin_button_get_value_as_int (self->sample_spin));
  g_settings_set_double (self->settings, "politeness-delay", gtk_spin_button_get_value (self->delay_spin));
  g_settings_set_boolean (self->settings, "respect-robots", gtk_switch_get_active (self->robots_switch));
  g_settings_set_boolean (self->settings, "javascript", gtk_switch_get_active (self->javascript_switch));
  g_settings_set_string (self->settings, "scope", scope_ids[MIN (scope, G_N_ELEMENTS (scope_ids) - 1)]);
  g_settings_set_string (self->settings, "user-agent-contact", contact);
}

/* Errors at Create are shown whole, in a dialog of their own: a toast
 * cuts a message that names a folder, and this one the user must read to
 * act on it. */
static void
show_create_error (CgNewCrawlDialog *self,
                   const char       *message)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Cannot Create the Project"), message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
create_clicked_cb (CgNewCrawlDialog *self)
{
  g_autofree char *host = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *url = NULL;
  g_autofree char *config = NULL;
  g_autofree char *made_from = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;

  /* Create is insensitive while a value is refused; this is checked
   * again because nothing may be made before the core has accepted the
   * settings the exploration will run with. */
  url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  problem = cg_new_crawl_dialog_validate_url (url, &host);
  if (problem == NULL)
    problem = cg_new_crawl_dialog_validate_contact (gtk_editable_get_text (GTK_EDITABLE (self->contact_row)));
  if (problem != NULL)
    {
      show_create_error (self, problem);
      return;
    }
  if (self->folder == NULL)
    return;
  config = build_config_json (self);
  if (!check_stored_settings (url, config, &error))
    {
      show_create_error (self, error->message);
      return;
    }

  made_from = cg_project_first_missing_folder (self->folder);
  /* A creation that fails removes what it made itself. */
  project = cg_project_create (self->folder, host, &error);
  if (project == NULL)
    {
      show_create_error (self, error->message);
      return;
    }

  if (cg_project_add_crawl (project, "explore", url, config, &error) < 0)
    {
      /* A project without its exploration could not start, and its
       * folder would make the next Create fail as "already a project".
       * The database is closed before its files are removed. */
      g_clear_object (&project);
      cg_project_remove_unfinished (self->folder, made_from);
      show_create_error (self, error->message);
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

static gboolean
focus_refused_contact_cb (GtkWidget     *widget,
                          GdkFrameClock *frame_clock,
                          gpointer       user_data)
{
  CgNewCrawlDialog *self = CG_NEW_CRAWL_DIALOG (widget);
  GtkWidget *scrolled;
  GtkAdjustment *adjustment;

  /* The page can scroll only once it has been laid out. */
  if (gtk_widget_get_height (GTK_WIDGET (self->contact_problem_label)) == 0)
    return G_SOURCE_CONTINUE;
  gtk_widget_grab_focus (GTK_WIDGET (self->contact_row));
  /* Focus brings the row into view; the problem under it, the last thing
   * on the page, is brought too. */
  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self->contact_row), GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL)
    {
      adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
    }
  return G_SOURCE_REMOVE;
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
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, site_group);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, scope_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, sample_spin);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, delay_spin);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, robots_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, robots_switch);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, javascript_switch);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, advanced_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, contact_row);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, contact_problem_label);
  gtk_widget_class_bind_template_child (widget_class, CgNewCrawlDialog, create_button);
  gtk_widget_class_bind_template_callback (widget_class, url_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, settings_changed_cb);
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
  /* A refused contact in the defaults (stored by an older version) is at
   * the bottom of the page: it is where the user starts, scrolled into
   * view, or Create stays insensitive for a reason out of sight. */
  if (gtk_widget_get_visible (GTK_WIDGET (self->contact_problem_label)))
    gtk_widget_add_tick_callback (GTK_WIDGET (self), focus_refused_contact_cb, NULL, NULL);
  else
    /* Otherwise the site's address, the one field to fill, is where
     * typing goes. */
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->url_row));
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
