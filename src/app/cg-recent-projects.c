/* cg-recent-projects.c: the projects the window opened last.
 *
 * The list lives in GSettings, newest first, without duplicates and capped
 * at CG_RECENT_PROJECTS_MAX. Folders that are no longer projects (moved or
 * deleted since) are left out when the list is read. Each project's name
 * is kept beside, by folder, so that the list can name the projects
 * without opening their databases.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-project.h"
#include "cg-recent-projects.h"

#define KEY "recent-projects"
#define NAMES_KEY "recent-project-names"

/* Keeps the names of @folders only, with @name for @folder. */
static void
store_names (GSettings          *settings,
             const char * const *folders,
             const char         *folder,
             const char         *name)
{
  g_autoptr(GVariant) old = g_settings_get_value (settings, NAMES_KEY);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; folders[i] != NULL; i++)
    {
      const char *kept = NULL;

      if (folder != NULL && g_str_equal (folders[i], folder))
        kept = name;
      else
        g_variant_lookup (old, folders[i], "&s", &kept);
      if (kept != NULL)
        g_variant_builder_add (&builder, "{ss}", folders[i], kept);
    }
  g_settings_set_value (settings, NAMES_KEY, g_variant_builder_end (&builder));
}

void
cg_recent_projects_add (GSettings  *settings,
                        const char *folder,
                        const char *name)
{
  g_auto(GStrv) old = g_settings_get_strv (settings, KEY);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;
  guint count = 1;

  g_strv_builder_add (builder, folder);
  for (guint i = 0; old[i] != NULL && count < CG_RECENT_PROJECTS_MAX; i++)
    {
      if (g_str_equal (old[i], folder))
        continue;
      g_strv_builder_add (builder, old[i]);
      count++;
    }
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (settings, KEY, (const char * const *) updated);
  store_names (settings, (const char * const *) updated, folder, name);
}

void
cg_recent_projects_remove (GSettings  *settings,
                           const char *folder)
{
  g_auto(GStrv) old = g_settings_get_strv (settings, KEY);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;

  for (guint i = 0; old[i] != NULL; i++)
    if (!g_str_equal (old[i], folder))
      g_strv_builder_add (builder, old[i]);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (settings, KEY, (const char * const *) updated);
  store_names (settings, (const char * const *) updated, NULL, NULL);
}

char *
cg_recent_projects_get_name (GSettings  *settings,
                             const char *folder)
{
  g_autoptr(GVariant) names = g_settings_get_value (settings, NAMES_KEY);
  char *name = NULL;

  g_variant_lookup (names, folder, "s", &name);
  return name;
}

GStrv
cg_recent_projects_list (GSettings *settings)
{
  g_auto(GStrv) stored = g_settings_get_strv (settings, KEY);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; stored[i] != NULL; i++)
    if (cg_project_is_project_folder (stored[i]))
      g_strv_builder_add (builder, stored[i]);
  return g_strv_builder_end (builder);
}
