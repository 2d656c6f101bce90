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
  gint64    max_pages;      /* < 0: not given */
  gint64    max_duration;   /* < 0: not given */
  gboolean  no_requisites;
  gboolean  ignore_robots;
  char     *user_agent;
  char     *contact;
  /* The delays as given, read by cg_cli_fetch_options_check(). */
  char     *delay_text;
  char     *delay_factor_text;
  char     *max_delay_text;
  double    delay;          /* < 0: not given */
  double    delay_factor;   /* < 0: not given */
  double    max_delay;      /* < 0: not given */
  int       per_host;       /* < 0: not given */
  int       connections;    /* < 0: not given */
  gboolean  no_politeness;
  char     *bandwidth;
  int       timeout;        /* < 0: not given */
} CgCliFetchOptions;

/* Nothing given: declare with g_auto(CgCliFetchOptions) o = CG_CLI_FETCH_OPTIONS_INIT.
 * The "not given" marks are the smallest values, so that a negative
 * value the user typed is refused instead of taken for "not given". */
#define CG_CLI_FETCH_OPTIONS_INIT { .max_pages = G_MININT64, .max_duration = G_MININT64, \
                                    .delay = -1, .delay_factor = -1, .max_delay = -1, \
                                    .per_host = G_MININT, .connections = G_MININT, .timeout = G_MININT }

void     cg_cli_fetch_options_clear (CgCliFetchOptions *self);

/* Adds the options to @context's main group, after the subcommand's own. */
void     cg_cli_fetch_options_add   (CgCliFetchOptions *self,
                                     GOptionContext    *context);

/* Reads the delays and checks that every limit and count given is at
 * least 1 (delays: 0 or more); prints the usage error naming the option
 * if one is not. */
gboolean cg_cli_fetch_options_check (CgCliFetchOptions *self);

/* Sets in @config what the user gave. */
void     cg_cli_fetch_options_apply (CgCliFetchOptions *self,
                                     CgCrawlConfig     *config);

/* The options a resumed crawl may change (its limits and politeness; see
 * cg_crawl_config_check_resume_change()), and what they set in @config. */
extern const char * const cg_cli_fetch_options_resumable[];
void     cg_cli_fetch_options_apply_resumable (CgCliFetchOptions *self,
                                               CgCrawlConfig     *config);
/* The first option of the command line @given that a resume refuses: one
 * neither among @own (the command's options a resume takes) nor
 * resumable; NULL when there is none. */
char    *cg_cli_fetch_options_refused_on_resume (char               **given,
                                                 const char * const  *own);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CgCliFetchOptions, cg_cli_fetch_options_clear)

G_END_DECLS
