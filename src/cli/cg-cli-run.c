/* cg-cli-run.c: the main loop, Ctrl+C and end of a crawling subcommand.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "cg-cli.h"
#include "cg-cli-run.h"

/* Without a terminal, progress is one plain line this often. */
#define PLAIN_PROGRESS_INTERVAL_US (5 * G_USEC_PER_SEC)

static gboolean
interrupt_cb (gpointer user_data)
{
  CgCliRun *self = user_data;

  if (++self->interrupts == 1)
    {
      fprintf (stderr, "\n%s\n", _("Stopping: finishing the records under way (press Ctrl+C again to quit at once)…"));
      self->stop (self->stop_data);
      return G_SOURCE_CONTINUE;
    }
  /* Quitting at once is safe too: what was not committed is redone when
   * the work resumes. */
  _exit (CG_CLI_EXIT_STOPPED);
}

void
cg_cli_run_init (CgCliRun      *self,
                 gboolean       quiet,
                 CgCliStopFunc  stop,
                 gpointer       stop_data)
{
  g_return_if_fail (stop != NULL);

  *self = (CgCliRun) { 0 };
  self->loop = g_main_loop_new (NULL, FALSE);
  self->terminal = isatty (STDERR_FILENO);
  self->quiet = quiet;
  self->stop = stop;
  self->stop_data = stop_data;
  self->sigint = g_unix_signal_add (SIGINT, interrupt_cb, self);
  self->sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, self);
}

void
cg_cli_run_wait (CgCliRun *self)
{
  g_main_loop_run (self->loop);
  g_clear_handle_id (&self->sigint, g_source_remove);
  g_clear_handle_id (&self->sigterm, g_source_remove);
  g_clear_pointer (&self->loop, g_main_loop_unref);
}

void
cg_cli_run_finish (CgCliRun     *self,
                   int           end,
                   const GError *error)
{
  self->end = end;
  if (error != NULL)
    {
      g_clear_error (&self->error);
      self->error = g_error_copy (error);
    }
  g_main_loop_quit (self->loop);
}

gboolean
cg_cli_run_plain_line_due (CgCliRun *self)
{
  gint64 now = g_get_monotonic_time ();

  if (now - self->last_plain_line < PLAIN_PROGRESS_INTERVAL_US)
    return FALSE;
  self->last_plain_line = now;
  return TRUE;
}

gboolean
cg_cli_run_print_event (CgCliRun   *self,
                        int         kind,
                        const char *url,
                        const char *message)
{
  /* The error that ends a run is printed once, with the exit
   * (cg_cli_run_exit_code()). */
  if (kind == CG_CRAWL_EVENT_ROBOTS || kind == CG_CRAWL_EVENT_FETCH_FAILED || kind == CG_CRAWL_EVENT_ERROR)
    return FALSE;
  if (self->terminal)
    fprintf (stderr, "\r\033[K");
  fprintf (stderr, "%s%s%s\n", message, url != NULL ? ": " : "", url != NULL ? url : "");
  return TRUE;
}

int
cg_cli_run_exit_code (CgCliRun   *self,
                      const char *stopped_message,
                      const char *failed_message)
{
  switch (self->end)
    {
    case CG_CRAWL_END_DONE:
    case CG_CRAWL_END_LIMIT:
      return CG_CLI_EXIT_OK;
    case CG_CRAWL_END_STOPPED:
      fputs (stopped_message, stderr);
      return CG_CLI_EXIT_STOPPED;
    case CG_CRAWL_END_FAILED:
    default:
      cg_cli_print_error ("%s", self->error != NULL ? self->error->message : failed_message);
      return CG_CLI_EXIT_FAILED;
    }
}

void
cg_cli_run_clear (CgCliRun *self)
{
  g_clear_handle_id (&self->sigint, g_source_remove);
  g_clear_handle_id (&self->sigterm, g_source_remove);
  g_clear_pointer (&self->loop, g_main_loop_unref);
  g_clear_error (&self->error);
}
