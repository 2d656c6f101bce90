/* cg-cli-info.c: `cartograph-cli info`, what a project folder holds.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-project.h"
#include "cg-site-model.h"

int
cg_cli_info (int    argc,
             char **argv)
{
  g_autofree char *folder = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) crawls = NULL;
  g_auto(GStrv) sites = NULL;
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
  crawls = cg_project_list_crawls (project, &error);
  sites = crawls != NULL ? cg_site_model_list_sites (cg_project_get_store (project), &error) : NULL;
  if (sites == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  g_print ("%s: %u\n", _("Crawls"), crawls->len);
  for (guint i = 0; i < crawls->len; i++)
    {
      const CgCrawlSummary *crawl = g_ptr_array_index (crawls, i);
      g_autofree char *size = g_format_size (crawl->bytes);

      /* Translators: a crawl: its number, kind (crawl, explore, harvest),
       * state (finished, stopped…), first URL, URLs fetched and their size. */
      g_print (g_dngettext (GETTEXT_PACKAGE, "  %" PRId64 "  %-8s %-9s %s  (%u URL fetched, %s)\n",
                            "  %" PRId64 "  %-8s %-9s %s  (%u URLs fetched, %s)\n", crawl->n_fetched),
               crawl->id, crawl->kind, crawl->state, crawl->seed_url, crawl->n_fetched, size);
    }
  g_print ("%s: %u\n", _("Sites with a model"), g_strv_length (sites));
  for (guint i = 0; sites[i] != NULL; i++)
    {
      g_autoptr(GArray) versions = cg_site_model_list_versions (cg_project_get_store (project), sites[i], &error);
      g_autoptr(GString) numbers = g_string_new (NULL);

      if (versions == NULL)
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_FAILED;
        }
      for (guint v = 0; v < versions->len; v++)
        g_string_append_printf (numbers, "%s%d", v > 0 ? ", " : "", g_array_index (versions, int, v));
      /* Translators: a site and the version numbers of its model ("1, 2, 3"). */
      g_print (g_dngettext (GETTEXT_PACKAGE, "  %s  (model version %s)\n", "  %s  (model versions %s)\n",
                            versions->len),
               sites[i], numbers->str);
    }
  return CG_CLI_EXIT_OK;
}
