/* cg-main.c: the entry point of the Cartograph workbench.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "cg-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(CgApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = cg_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
