/* cg-cli-info.c: `cartograph-cli info`, what a project folder holds.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-project.h"

int
cg_cli_info (int    argc,
             char **argv)
{
  g_autofree char *folder = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Show what a project folder holds."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL || argc > 1)
    {
      cg_cli_print_error (folder == NULL ? _("info needs --project DIR")
                                         : _("info takes no arguments"));
      return CG_CLI_EXIT_USAGE;
    }

  project = cg_project_open (folder, &error);
  if (project == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  g_print ("%s: %s\n", _("Name"), cg_project_get_name (project));
  g_print ("%s: %s\n", _("Folder"), cg_project_get_folder (project));
  g_print ("%s: %d\n", _("Schema version"),
           cg_store_get_schema_version (cg_project_get_store (project)));
  g_print ("%s: %u\n", _("Crawls"), cg_project_count_crawls (project));
  return CG_CLI_EXIT_OK;
}
