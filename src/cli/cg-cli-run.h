/* cg-cli-run.h: what the subcommands that run a crawl to its end share
 * (crawl, harvest, model): the main loop, Ctrl+C, the pace of plain progress
 * lines, the crawl's events on stderr, and the exit code of its end.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-crawler.h"

G_BEGIN_DECLS

/* Asks the work under way to stop; it then ends with CG_CRAWL_END_STOPPED. */
typedef void (*CgCliStopFunc) (gpointer user_data);

/* One run of a subcommand; the subcommand's own state embeds it. */
typedef struct {
  GMainLoop     *loop;
  gboolean       terminal;         /* stderr is a terminal: progress is redrawn in place */
  gboolean       quiet;
  gint64         last_plain_line;
  guint          interrupts;
  guint          sigint;
  guint          sigterm;
  CgCliStopFunc  stop;
  gpointer       stop_data;
  CgCrawlEnd     end;
  GError        *error;
} CgCliRun;

/* Makes the main loop and takes over SIGINT and SIGTERM: the first one
 * calls @stop, the second quits at once. */
void     cg_cli_run_init           (CgCliRun      *self,
                                    gboolean       quiet,
                                    CgCliStopFunc  stop,
                                    gpointer       stop_data);

/* Runs the main loop until cg_cli_run_finish(), then gives the signals
 * back. */
void     cg_cli_run_wait           (CgCliRun      *self);

/* For the "finished" handler: keeps how the work ended and ends the wait. */
void     cg_cli_run_finish         (CgCliRun      *self,
                                    int            end,
                                    const GError  *error);

/* Without a terminal, whether the next plain progress line is due; when
 * it is, the time of this one is kept. */
gboolean cg_cli_run_plain_line_due (CgCliRun      *self);

/* For the crawl's "event" handler: prints the events that change the
 * work as a whole, not blocked or failed URLs (the crawl log has those).
 * Returns whether it printed a line, which on a terminal replaced the
 * progress line. */
gboolean cg_cli_run_print_event    (CgCliRun      *self,
                                    int            kind,
                                    const char    *url,
                                    const char    *message);

/* The exit code of how the work ended; prints @stopped_message (how to
 * resume) if it was stopped, the error or @failed_message if it failed. */
int      cg_cli_run_exit_code      (CgCliRun      *self,
                                    const char    *stopped_message,
                                    const char    *failed_message);

void     cg_cli_run_clear          (CgCliRun      *self);

G_END_DECLS
