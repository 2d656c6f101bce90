/* cg-cli-main.c: cartograph-cli, everything the window does, headless.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "cg-cli.h"

typedef struct {
  const char       *name;
  const char       *summary;
  CgCliCommandFunc  run;
} CgCliCommand;

static const CgCliCommand commands[] = {
  { "compare",    N_("Compare two versions of a site’s model"),             cg_cli_compare },
  { "clustvx",    N_("Find the data records of a saved list page (ClustVX)"), cg_cli_clustvx },
  { "crawl",      N_("Archive a site in WARC: a polite, resumable crawl"), cg_cli_crawl },
  { "export",     N_("Export a project’s model, pages or records"),         cg_cli_export },
  { "extract",    N_("Extract the data records of a model’s page classes"), cg_cli_extract },
  { "harvest",    N_("Archive a site by its model: by class, pattern or example"), cg_cli_harvest },
  { "import",     N_("Save a crawl spec or model file as a model version"), cg_cli_import },
  { "info",       N_("Show what a project folder holds"),                  cg_cli_info },
  { "model",      N_("Learn how a site is built: page classes and their links"), cg_cli_model },
  { "render",     N_("Render pages headless and capture every element’s box and font"), cg_cli_render },
  { "serve-demo", N_("Serve the bundled demo site on 127.0.0.1"),          cg_cli_serve_demo },
};

void
cg_cli_print_error (const char *format,
                    ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: the prefix of every error cartograph-cli prints. */
  g_printerr (_("cartograph-cli: %s\n"), message);
}

gboolean
cg_cli_parse_options (GOptionContext  *context,
                      int             *argc,
                      char          ***argv,
                      int             *exit_code)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      cg_cli_print_error ("%s", error->message);
      g_printerr (_("Run “%s --help” to see its options.\n"), (*argv)[0]);
      *exit_code = CG_CLI_EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: cartograph-cli [--help] [--version] COMMAND [OPTIONS…]"));
  fprintf (stream, "\n%s\n", _("Learn a website’s structure, extract its records and archive it in WARC."));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-12s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “cartograph-cli COMMAND --help” for the options of a command."));
}

int
main (int    argc,
      char **argv)
{
  const char *name;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("cartograph-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return CG_CLI_EXIT_USAGE;
    }

  name = argv[1];
  if (g_str_equal (name, "--help") || g_str_equal (name, "-h") || g_str_equal (name, "help"))
    {
      print_usage (stdout);
      return CG_CLI_EXIT_OK;
    }
  if (g_str_equal (name, "--version"))
    {
      printf ("cartograph-cli %s\n", PACKAGE_VERSION);
      return CG_CLI_EXIT_OK;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (g_str_equal (name, commands[i].name))
        {
          g_autofree char *prgname = g_strdup_printf ("cartograph-cli %s", name);

          argv[1] = prgname;
          return commands[i].run (argc - 1, argv + 1);
        }
    }

  if (name[0] == '-')
    cg_cli_print_error (_("unknown option “%s”"), name);
  else
    cg_cli_print_error (_("unknown command “%s”"), name);
  g_printerr (_("Run “cartograph-cli --help” to see the commands.\n"));
  return CG_CLI_EXIT_USAGE;
}
