/* cg-cli-import.c: `cartograph-cli import` and `compare`: models as files and versions.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-project.h"
#include "cg-site-model.h"
#include "cg-url.h"

/* The largest file import reads. Exported models of large sites are a
 * few megabytes; the cap keeps a wrong path (a device, a pipe, a huge
 * WARC) from filling the memory, or, for /dev/zero, from never ending. */
#define CG_CLI_IMPORT_MAX_SIZE (64 * 1024 * 1024)

/* Whether @a and @b are one site, however each was spelt. */
static gboolean
same_site (const char *a,
           const char *b)
{
  g_autofree char *normal_a = cg_url_normalize (a, CG_URL_NORMALIZE_SYNTAX, NULL);
  g_autofree char *normal_b = cg_url_normalize (b, CG_URL_NORMALIZE_SYNTAX, NULL);

  return normal_a != NULL && normal_b != NULL ? g_str_equal (normal_a, normal_b) : g_str_equal (a, b);
}

/* Saves a crawl spec (seed 000's TSV, written by hand or exported) or a
 * JSON model as the next version of a site's model. */
int
cg_cli_import (int    argc,
               char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *site = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) error = NULL;
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder"), N_("DIR") },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("The site the file describes, if it does not say"), N_("URL") },
    { NULL }
  };

  context = g_option_context_new (_("FILE"));
  g_option_context_set_summary (context, _("Save a crawl spec (.tsv) or a model (.json) as the next version of a site’s model."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;
  if (folder == NULL || argc != 2)
    {
      cg_cli_print_error (_("import needs one FILE and --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }

  if (site != NULL)
    {
      g_autoptr(GUri) uri = cg_url_parse (site, CG_URL_NORMALIZE_SYNTAX, &error);

      if (uri == NULL)
        {
          cg_cli_print_error (_("--site must be the http or https address of a site: %s"), error->message);
          return CG_CLI_EXIT_USAGE;
        }
    }

  if (!cg_cli_read_file (argv[1], CG_CLI_IMPORT_MAX_SIZE, &contents, NULL, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  /* --site names the site for either kind of file: an archivist who
   * gives it with a JSON model that has no site means that site, as with
   * a crawl spec, and refusing it would only make them edit the file. */
  if (strlen (argv[1]) >= 5 && g_ascii_strcasecmp (argv[1] + strlen (argv[1]) - 5, ".json") == 0)
    model = cg_site_model_from_json_with_site (site, contents, &error);
  else
    model = cg_site_model_from_spec (site, contents, &error);
  if (model == NULL)
    {
      cg_cli_print_error ("%s: %s", argv[1], error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (*cg_site_model_get_site (model) == '\0')
    {
      cg_cli_print_error (_("%s does not say which site it describes: give --site URL"), argv[1]);
      return CG_CLI_EXIT_USAGE;
    }
  /* When the file names a site too, the two must agree: saving under
   * the file's site would ignore what was asked, and under --site would
   * file the model under a site it does not describe. */
  if (site != NULL && !same_site (site, cg_site_model_get_site (model)))
    {
      cg_cli_print_error (_("%s describes the site %s, not %s given with --site"), argv[1],
                          cg_site_model_get_site (model), site);
      return CG_CLI_EXIT_USAGE;
    }
  cg_site_model_compute_depths (model);

  project = cg_project_open (folder, &error);
  if (project == NULL || !cg_site_model_save (model, cg_project_get_store (project), &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  printf (_("Saved as version %d of the model of %s\n"), cg_site_model_get_version (model),
          cg_site_model_get_site (model));
  return CG_CLI_EXIT_OK;
}

static void
print_names (const char *title,
             GStrv       names)
{
  for (guint i = 0; names[i] != NULL; i++)
    printf ("%s %s\n", title, names[i]);
}

/* Prints what changed between two versions of a site's model. */
int
cg_cli_compare (int    argc,
                char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *site = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) old_model = NULL;
  g_autoptr(CgSiteModel) new_model = NULL;
  g_autoptr(CgSiteModelDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  gint64 old_version = 0, new_version = 0;
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder"), N_("DIR") },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("The site whose model versions to compare"), N_("URL") },
    { NULL }
  };

  context = g_option_context_new (_("OLD_VERSION NEW_VERSION"));
  g_option_context_set_summary (context, _("Show the classes and class links added, removed or changed between two model versions."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;
  if (folder == NULL || site == NULL || argc != 3)
    {
      cg_cli_print_error (_("compare needs --project DIR, --site URL and two version numbers"));
      return CG_CLI_EXIT_USAGE;
    }
  for (int i = 1; i <= 2; i++)
    {
      if (!g_ascii_string_to_signed (argv[i], 10, 1, G_MAXINT, i == 1 ? &old_version : &new_version, NULL))
        {
          g_autofree char *shown = g_utf8_make_valid (argv[i], -1);

          cg_cli_print_error (_("“%s” is not a model version number (1 or more)"), shown);
          return CG_CLI_EXIT_USAGE;
        }
    }

  project = cg_project_open (folder, &error);
  if (project != NULL)
    old_model = cg_site_model_load (cg_project_get_store (project), site, (int) old_version, &error);
  if (old_model != NULL)
    new_model = cg_site_model_load (cg_project_get_store (project), site, (int) new_version, &error);
  if (new_model == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  diff = cg_site_model_compare (old_model, new_model);
  if (cg_site_model_diff_is_empty (diff))
    {
      printf (_("Versions %d and %d have the same classes and class links\n"), (int) old_version, (int) new_version);
      return CG_CLI_EXIT_OK;
    }
  print_names ("+ class", diff->added_classes);
  print_names ("- class", diff->removed_classes);
  print_names ("~ class", diff->changed_classes);
  print_names ("+ link", diff->added_links);
  print_names ("- link", diff->removed_links);
  return CG_CLI_EXIT_OK;
}
