/* cg-cli-common.c: what cartograph-cli and its WebKit helper,
 * cartograph-cli-web, both do: set up the locale, report errors, parse a
 * command's options and run a command of a table.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "cg-cli.h"

void
cg_cli_init (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("cartograph-cli");
}

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

const CgCliCommand *
cg_cli_find_command (const CgCliCommand *commands,
                     gsize               n_commands,
                     const char         *name)
{
  for (gsize i = 0; i < n_commands; i++)
    if (g_str_equal (name, commands[i].name))
      return &commands[i];
  return NULL;
}

int
cg_cli_run_command (const CgCliCommand  *command,
                    int                  argc,
                    char               **argv)
{
  g_autofree char *prgname = g_strdup_printf ("cartograph-cli %s", command->name);

  /* The command sees itself as argv[0], named as the user typed it. */
  argv[1] = prgname;
  return command->run (argc - 1, argv + 1);
}
