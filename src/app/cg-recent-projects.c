/* cg-recent-projects.c: the projects the window opened last.
 *
 * The list lives in GSettings, newest first, without duplicates and capped
 * at CG_RECENT_PROJECTS_MAX. Folders that are no longer projects (moved or
 * deleted since) are left out when the list is read.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-project.h"
#include "cg-recent-projects.h"

#define KEY "recent-projects"

void
cg_recent_projects_add (GSettings  *settings,
                        const char *folder)
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
