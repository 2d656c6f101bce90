/* cg-preferences-window.c: the workbench's preferences.
 *
 * Most rows are bound to their GSettings key. The contact row is not: the
 * core refuses crawls whose contact is not an http, https or mailto URL,
 * so the row stores only what the core accepts, and shows what is wrong
 * with anything else until it is fixed.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-new-crawl-dialog.h"
#include "cg-preferences-window.h"

#define CONTACT_KEY "user-agent-contact"

struct _CgPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings     *settings;

  AdwComboRow   *style_row;
  GtkSpinButton *sample_spin;
  GtkSpinButton *delay_spin;
  AdwActionRow  *robots_row;
  GtkSwitch     *robots_switch;
  GtkSwitch     *javascript_switch;
  AdwEntryRow   *contact_row;
  GtkLabel      *contact_note;

  guint          store_contact_source;
};

G_DEFINE_FINAL_TYPE (CgPreferencesWindow, cg_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The order of the style combo row's items. */
static const char * const color_schemes[] = { "default", "light", "dark" };

static gboolean
scheme_to_index (GValue   *value,
                 GVariant *variant,
                 gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (color_schemes); i++)
    if (g_str_equal (scheme, color_schemes[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
index_to_scheme (const GValue       *value,
                 const GVariantType *expected_type,
                 gpointer            user_data)
{
  guint index = g_value_get_uint (value);

  return g_variant_new_string (color_schemes[MIN (index, G_N_ELEMENTS (color_schemes) - 1)]);
}

static void
robots_toggled_cb (CgPreferencesWindow *self)
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

/* The note under the contact row says what the contact is for, or what
 * is wrong with the text. Screen readers get the same words as the
 * description of the text being edited, and are told that it is invalid. */
static void
show_contact_problem (CgPreferencesWindow *self,
                      const char          *problem)
{
  const char *note = problem != NULL ? problem : _("Sent with every request, so that site owners can reach you: "
                                                     "for example mailto:you@example.org or https://example.org/contact");
  GtkAccessible *accessibles[] = {
    GTK_ACCESSIBLE (self->contact_row),
    GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (self->contact_row))),
  };

  gtk_label_set_text (self->contact_note, note);
  if (problem != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->contact_row), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->contact_note), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->contact_note), "dim-label");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->contact_row), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->contact_note), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->contact_note), "dim-label");
    }
  for (guint i = 0; i < G_N_ELEMENTS (accessibles); i++)
    {
      if (accessibles[i] == NULL)
        continue;
      gtk_accessible_update_property (accessibles[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, note, -1);
      if (problem != NULL)
        gtk_accessible_update_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
      else
        gtk_accessible_reset_state (accessibles[i], GTK_ACCESSIBLE_STATE_INVALID);
    }
}

static void
store_contact (CgPreferencesWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->contact_row));
  g_autofree char *problem = cg_new_crawl_dialog_validate_contact (text);
  g_autofree char *contact = g_strstrip (g_strdup (text));
  g_autofree char *stored = g_settings_get_string (self->settings, CONTACT_KEY);

  /* A refused contact stays in the row for the user to fix but is never
   * stored: every crawl started with it would be refused. */
  if (problem == NULL && !g_str_equal (contact, stored))
    g_settings_set_string (self->settings, CONTACT_KEY, contact);
}

static gboolean
store_contact_cb (gpointer user_data)
{
  CgPreferencesWindow *self = user_data;

  self->store_contact_source = 0;
  store_contact (self);
  return G_SOURCE_REMOVE;
}

static void
contact_changed_cb (CgPreferencesWindow *self)
{
  g_autofree char *problem = cg_new_crawl_dialog_validate_contact (gtk_editable_get_text (GTK_EDITABLE (self->contact_row)));

  show_contact_problem (self, problem);
  /* Replacing the text passes through an empty one (GtkEditable deletes,
   * then inserts), which is a valid contact: stored at once, it would
   * replace the one kept while a refused text is typed. The text is
   * stored once it has settled. */
  if (self->store_contact_source == 0)
    self->store_contact_source = g_idle_add (store_contact_cb, self);
}

/* The key can change elsewhere (New Crawl stores the contact it was
 * given); the row follows, as a bound row would. */
static void
contact_setting_changed_cb (CgPreferencesWindow *self)
{
  g_autofree char *stored = g_settings_get_string (self->settings, CONTACT_KEY);
  g_autofree char *shown = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->contact_row))));

  /* What the row stored itself is shown already, as it was typed. */
  if (!g_str_equal (stored, shown))
    gtk_editable_set_text (GTK_EDITABLE (self->contact_row), stored);
}

static void
cg_preferences_window_dispose (GObject *object)
{
  CgPreferencesWindow *self = CG_PREFERENCES_WINDOW (object);

  /* A change made just before the window closed is kept. */
  if (self->store_contact_source != 0)
    {
      g_clear_handle_id (&self->store_contact_source, g_source_remove);
      store_contact (self);
    }
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cg_preferences_window_parent_class)->dispose (object);
}

static void
cg_preferences_window_class_init (CgPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, sample_spin);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, delay_spin);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, robots_row);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, robots_switch);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, javascript_switch);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, contact_row);
  gtk_widget_class_bind_template_child (widget_class, CgPreferencesWindow, contact_note);
  gtk_widget_class_bind_template_callback (widget_class, robots_toggled_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cg_preferences_window_init (CgPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  g_settings_bind_with_mapping (self->settings, "color-scheme", self->style_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL, NULL);
  g_settings_bind (self->settings, "sample-size", self->sample_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "politeness-delay", self->delay_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "respect-robots", self->robots_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "javascript", self->javascript_switch, "active", G_SETTINGS_BIND_DEFAULT);
  robots_toggled_cb (self);

  /* A contact stored before it was checked is shown with its problem. */
  g_signal_connect_object (self->contact_row, "changed", G_CALLBACK (contact_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::" CONTACT_KEY, G_CALLBACK (contact_setting_changed_cb),
                           self, G_CONNECT_SWAPPED);
  contact_setting_changed_cb (self);
  contact_changed_cb (self);
}

CgPreferencesWindow *
cg_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (CG_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       NULL);
}
