/* cg-cli-serve-demo.c: `cartograph-cli serve-demo`, the bundled demo site.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gio/gunixoutputstream.h>

#include "cg-cli.h"
#include "cg-demo-server.h"

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

static int
print_truth (void)
{
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  g_autoptr(GOutputStream) fd_stream = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(GOutputStream) out = g_buffered_output_stream_new_sized (fd_stream, 64 * 1024);
  g_autoptr(GError) error = NULL;

  if (!cg_demo_site_write_truth (site, out, &error)
      || !g_output_stream_close (out, NULL, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  return CG_CLI_EXIT_OK;
}

int
cg_cli_serve_demo (int    argc,
                   char **argv)
{
  gint port = 0;
  gboolean truth = FALSE;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgDemoServer) server = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "port", 0, 0, G_OPTION_ARG_INT, &port,
      N_("The port to listen on, from 1 to 65535 (default: any free port)"), N_("N") },
    { "print-truth", 0, 0, G_OPTION_ARG_NONE, &truth,
      N_("Print the site’s ground truth as JSON Lines and exit"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context,
                                _("Serve the bundled demo bookshop on 127.0.0.1 until interrupted."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (argc > 1)
    {
      cg_cli_print_error (_("serve-demo takes no arguments, but was given “%s”"), argv[1]);
      return CG_CLI_EXIT_USAGE;
    }
  if (port < 0 || port > G_MAXUINT16)
    {
      cg_cli_print_error (_("--port must be a port from 1 to 65535, or 0 for any free port, not %d"), port);
      return CG_CLI_EXIT_USAGE;
    }

  if (truth)
    return print_truth ();

  server = cg_demo_server_new ();
  if (!cg_demo_server_start (server, (guint) port, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  url = cg_demo_server_get_url (server);
  /* Scripts read the port from this line, so it goes out at once. */
  g_print (_("Serving the demo site at %s\n"), url);
  fflush (stdout);

  loop = g_main_loop_new (NULL, FALSE);
  /* The handlers stay until the process ends: removing the last one
   * gives the signal its default action back, and a second SIGTERM while
   * the server stops (timeout(1) sends one to the command, then one to
   * its whole process group) would then kill the command instead of
   * letting it end with status 0. */
  g_unix_signal_add (SIGINT, quit_cb, loop);
  g_unix_signal_add (SIGTERM, quit_cb, loop);
  g_main_loop_run (loop);

  cg_demo_server_stop (server);
  return CG_CLI_EXIT_OK;
}
