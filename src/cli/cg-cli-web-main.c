/* cg-cli-web-main.c: cartograph-cli-web, the commands of cartograph-cli
 * that render pages in WebKit (see cg-cli-main.c). cartograph-cli runs it
 * in its own place, with its own command line.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-cli.h"

static const CgCliCommand commands[] = {
  { "model",  NULL, cg_cli_model },
  { "render", NULL, cg_cli_render },
};

int
main (int    argc,
      char **argv)
{
  const CgCliCommand *command;

  cg_cli_init ();

  command = argc >= 2 ? cg_cli_find_command (commands, G_N_ELEMENTS (commands), argv[1]) : NULL;
  if (command == NULL)
    {
      cg_cli_print_error (_("cartograph-cli-web runs the model and render commands of cartograph-cli; "
                            "run “cartograph-cli --help” to see them"));
      return CG_CLI_EXIT_USAGE;
    }
  return cg_cli_run_command (command, argc, argv);
}
