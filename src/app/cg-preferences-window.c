/* cg-preferences-window.c: the workbench's preferences.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-preferences-window.h"

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

static void
cg_preferences_window_dispose (GObject *object)
{
  CgPreferencesWindow *self = CG_PREFERENCES_WINDOW (object);

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
  g_settings_bind (self->settings, "user-agent-contact", self->contact_row, "text", G_SETTINGS_BIND_DEFAULT);
  robots_toggled_cb (self);
}

CgPreferencesWindow *
cg_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (CG_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       NULL);
}
