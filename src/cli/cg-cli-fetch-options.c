/* cg-cli-fetch-options.c: the command-line options every crawling
 * subcommand shares (limits, robots.txt, identity and politeness).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-cli-fetch-options.h"

void
cg_cli_fetch_options_clear (CgCliFetchOptions *self)
{
  g_clear_pointer (&self->user_agent, g_free);
  g_clear_pointer (&self->contact, g_free);
  g_clear_pointer (&self->bandwidth, g_free);
  g_clear_pointer (&self->delay_text, g_free);
  g_clear_pointer (&self->delay_factor_text, g_free);
  g_clear_pointer (&self->max_delay_text, g_free);
}

void
cg_cli_fetch_options_add (CgCliFetchOptions *self,
                          GOptionContext    *context)
{
  const GOptionEntry entries[] = {
    { "max-pages", 0, 0, G_OPTION_ARG_INT64, &self->max_pages, N_("Stop after this many HTML pages"), N_("N") },
    { "max-duration", 0, 0, G_OPTION_ARG_INT64, &self->max_duration, N_("Stop after this many seconds"), N_("SECONDS") },
    { "no-requisites", 0, 0, G_OPTION_ARG_NONE, &self->no_requisites, N_("Do not fetch the CSS, scripts and images pages need"), NULL },
    { "ignore-robots", 0, 0, G_OPTION_ARG_NONE, &self->ignore_robots, N_("Ignore robots.txt (recorded in the WARC files)"), NULL },
    { "user-agent", 0, 0, G_OPTION_ARG_STRING, &self->user_agent, N_("The whole User-Agent header"), N_("TEXT") },
    { "contact", 0, 0, G_OPTION_ARG_STRING, &self->contact, N_("A page saying who runs the crawl, put in the User-Agent"), N_("URL") },
    { "delay", 0, 0, G_OPTION_ARG_STRING, &self->delay_text, N_("Least wait between two requests to one host (default 1)"), N_("SECONDS") },
    { "delay-factor", 0, 0, G_OPTION_ARG_STRING, &self->delay_factor_text, N_("Wait this many times the last fetch’s duration (default 5)"), N_("F") },
    { "max-delay", 0, 0, G_OPTION_ARG_STRING, &self->max_delay_text, N_("Longest politeness wait (default 30)"), N_("SECONDS") },
    { "per-host", 0, 0, G_OPTION_ARG_INT, &self->per_host, N_("Requests to one host at once (default 1)"), N_("N") },
    { "connections", 0, 0, G_OPTION_ARG_INT, &self->connections, N_("Open connections at most (default 8)"), N_("N") },
    { "no-politeness", 0, 0, G_OPTION_ARG_NONE, &self->no_politeness, N_("No delays, all connections on one host: only for your own servers"), NULL },
    { "bandwidth", 0, 0, G_OPTION_ARG_STRING, &self->bandwidth, N_("Bandwidth caps by time, e.g. “mon-fri 08:00-19:00 = 200K; * = 1M”"), N_("SCHEDULE") },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &self->timeout, N_("Longest time for one fetch"), N_("SECONDS") },
    { NULL }
  };

  /* GOption copies the entries, so the array may live on the stack. */
  cg_cli_add_options (context, entries);
}

gboolean
cg_cli_fetch_options_check (CgCliFetchOptions *self)
{
  const struct {
    const char *option;
    gint64      value;
    gint64      not_given;
  } counts[] = {
    { "--max-pages", self->max_pages, G_MININT64 },
    { "--max-duration", self->max_duration, G_MININT64 },
    { "--per-host", self->per_host, G_MININT },
    { "--connections", self->connections, G_MININT },
    { "--timeout", self->timeout, G_MININT },
  };
  const struct {
    const char  *option;
    const char  *text;
    double      *value;
  } delays[] = {
    { "--delay", self->delay_text, &self->delay },
    { "--delay-factor", self->delay_factor_text, &self->delay_factor },
    { "--max-delay", self->max_delay_text, &self->max_delay },
  };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (!cg_cli_check_count (counts[i].option, counts[i].value, counts[i].not_given))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (delays); i++)
    {
      if (delays[i].text != NULL && !cg_cli_parse_seconds (delays[i].option, delays[i].text, delays[i].value))
        return FALSE;
    }
  return TRUE;
}

/* The options cg_cli_fetch_options_apply_resumable() reads. */
const char * const cg_cli_fetch_options_resumable[] = {
  "--max-pages", "--max-duration", "--delay", "--delay-factor", "--max-delay", "--per-host",
  "--connections", "--no-politeness", "--bandwidth", "--timeout", NULL
};

char *
cg_cli_fetch_options_refused_on_resume (char               **given,
                                        const char * const  *own)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) allowed = NULL;

  g_strv_builder_addv (builder, (const char **) own);
  g_strv_builder_addv (builder, (const char **) cg_cli_fetch_options_resumable);
  allowed = g_strv_builder_end (builder);
  return cg_cli_find_option_besides (given, (const char * const *) allowed);
}

void
cg_cli_fetch_options_apply_resumable (CgCliFetchOptions *self,
                                      CgCrawlConfig     *config)
{
  if (self->max_pages > 0)
    config->max_pages = (guint64) self->max_pages;
  if (self->max_duration > 0)
    config->max_duration = (guint64) self->max_duration;
  if (self->bandwidth != NULL)
    {
      g_free (config->bandwidth);
      config->bandwidth = g_steal_pointer (&self->bandwidth);
    }
  if (self->connections > 0)
    config->max_connections = (guint) self->connections;
  if (self->no_politeness)
    cg_crawl_config_disable_politeness (config);
  if (self->delay >= 0)
    config->min_delay = self->delay;
  if (self->delay_factor >= 0)
    config->delay_factor = self->delay_factor;
  if (self->max_delay >= 0)
    config->max_delay = self->max_delay;
  else if (config->max_delay < config->min_delay)
    config->max_delay = config->min_delay;
  if (self->per_host > 0)
    config->max_per_host = (guint) self->per_host;
  if (self->timeout > 0)
    config->timeout = (guint) self->timeout;
}

void
cg_cli_fetch_options_apply (CgCliFetchOptions *self,
                            CgCrawlConfig     *config)
{
  config->requisites = !self->no_requisites;
  config->obey_robots = !self->ignore_robots;
  if (self->user_agent != NULL)
    {
      g_free (config->user_agent);
      config->user_agent = g_steal_pointer (&self->user_agent);
    }
  if (self->contact != NULL)
    {
      g_free (config->contact);
      config->contact = g_steal_pointer (&self->contact);
    }
  cg_cli_fetch_options_apply_resumable (self, config);
}
