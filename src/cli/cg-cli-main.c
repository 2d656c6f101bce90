/* cg-cli-main.c: cartograph-cli, everything the window does, headless.
 *
 * The commands that render pages in WebKit (model, render) are a program
 * of their own, cartograph-cli-web, which this one runs in its place:
 * loading WebKitGTK and GTK, some 180 libraries, took 0.14 s of CPU at
 * every start, a fortieth of a 20,000-page crawl in the crawl throughput
 * benchmark (tests/bench) and most of what a quick command such as info
 * takes. The commands without a table entry's run function are its.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "cg-cli.h"

static const CgCliCommand commands[] = {
  { "compare",    N_("Compare two versions of a site’s model"),             cg_cli_compare },
  { "clustvx",    N_("Find the data records of a saved list page (ClustVX)"), cg_cli_clustvx },
  { "crawl",      N_("Archive a site in WARC: a polite, resumable crawl"), cg_cli_crawl },
  { "export",     N_("Export a project’s model, pages or records"),         cg_cli_export },
  { "extract",    N_("Extract the data records of a model’s page classes"), cg_cli_extract },
  { "harvest",    N_("Archive a site by its model: by class, pattern or example"), cg_cli_harvest },
  { "import",     N_("Save a crawl spec or model file as a model version"), cg_cli_import },
  { "info",       N_("Show what a project folder holds"),                  cg_cli_info },
  { "model",      N_("Learn how a site is built: page classes and their links"), NULL },
  { "render",     N_("Render pages headless and capture every element’s box and font"), NULL },
  { "serve-demo", N_("Serve the bundled demo site on 127.0.0.1"),          cg_cli_serve_demo },
};

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

/* cartograph-cli-web beside this program (a build folder), else where it
 * is installed. */
static char *
find_web_helper (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (self != NULL)
    {
      g_autofree char *folder = g_path_get_dirname (self);
      g_autofree char *beside = g_build_filename (folder, "cartograph-cli-web", NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&beside);
    }
  return g_strdup (CG_CLI_WEB_HELPER);
}

/* Runs @argv (this program's, argv[1] the command) in cartograph-cli-web,
 * which takes this process's place; returns only if it could not. */
static int
run_in_web_helper (int    argc,
                   char **argv)
{
  g_autofree char *helper = find_web_helper ();
  int saved_errno;

  argv[0] = helper;
  execv (helper, argv);
  saved_errno = errno;
  cg_cli_print_error (_("cannot run “%s”: its WebKit helper %s could not be started: %s"),
                      argv[1], helper, g_strerror (saved_errno));
  return CG_CLI_EXIT_FAILED;
}

int
main (int    argc,
      char **argv)
{
  const CgCliCommand *command;
  const char *name;

  cg_cli_init ();

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

  command = cg_cli_find_command (commands, G_N_ELEMENTS (commands), name);
  if (command != NULL && command->run == NULL)
    return run_in_web_helper (argc, argv);
  if (command != NULL)
    return cg_cli_run_command (command, argc, argv);

  if (name[0] == '-')
    cg_cli_print_error (_("unknown option “%s”"), name);
  else
    cg_cli_print_error (_("unknown command “%s”"), name);
  g_printerr (_("Run “cartograph-cli --help” to see the commands.\n"));
  return CG_CLI_EXIT_USAGE;
}
