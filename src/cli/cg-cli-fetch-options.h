/* cg-cli-fetch-options.h: the command-line options every crawling
 * subcommand shares (limits, robots.txt, identity and politeness).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-crawl-config.h"

G_BEGIN_DECLS

/* What the options read; each field keeps "not given" apart from a value
 * so that only what the user gave overrides the crawl's defaults. */
typedef struct {
  gint64    max_pages;
  gint64    max_duration;
  gboolean  no_requisites;
  gboolean  ignore_robots;
  char     *user_agent;
  char     *contact;
  double    delay;          /* < 0: not given */
  double    delay_factor;   /* < 0: not given */
  double    max_delay;      /* < 0: not given */
  int       per_host;       /* 0: not given */
  int       connections;    /* 0: not given */
  gboolean  no_politeness;
  char     *bandwidth;
  int       timeout;        /* 0: not given */
} CgCliFetchOptions;

/* Nothing given: declare with g_auto(CgCliFetchOptions) o = CG_CLI_FETCH_OPTIONS_INIT. */
#define CG_CLI_FETCH_OPTIONS_INIT { .delay = -1, .delay_factor = -1, .max_delay = -1 }

void     cg_cli_fetch_options_clear (CgCliFetchOptions *self);

/* Adds the options to @context's main group, after the subcommand's own. */
void     cg_cli_fetch_options_add   (CgCliFetchOptions *self,
                                     GOptionContext    *context);

/* Whether no limit or count is negative; prints the usage error if one is. */
gboolean cg_cli_fetch_options_check (const CgCliFetchOptions *self);

/* Sets in @config what the user gave. */
void     cg_cli_fetch_options_apply (CgCliFetchOptions *self,
                                     CgCrawlConfig     *config);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CgCliFetchOptions, cg_cli_fetch_options_clear)

G_END_DECLS
