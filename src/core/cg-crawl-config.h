/* cg-crawl-config.h: the settings of one archival crawl.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "cg-scope.h"
#include "cg-warc.h"

G_BEGIN_DECLS

#define CG_CRAWL_CONFIG_ERROR (cg_crawl_config_error_quark ())

typedef enum {
  CG_CRAWL_CONFIG_ERROR_INVALID,
} CgCrawlConfigError;

/* Politeness defaults after Heritrix's frontier (seed 002, §3.8): wait at
 * least min_delay, and delay_factor times the last fetch's duration, at
 * most max_delay, between two requests to one host. min_delay is lower
 * than Heritrix's 3 s because Cartograph crawls one site at a time. */
#define CG_CRAWL_DEFAULT_MIN_DELAY        1.0    /* s */
#define CG_CRAWL_DEFAULT_DELAY_FACTOR     5.0
#define CG_CRAWL_DEFAULT_MAX_DELAY        30.0   /* s */
#define CG_CRAWL_DEFAULT_MAX_PER_HOST     1
#define CG_CRAWL_DEFAULT_MAX_CONNECTIONS  8
#define CG_CRAWL_MAX_CONNECTIONS_LIMIT    5000   /* seed 002's cap */
#define CG_CRAWL_DEFAULT_WARC_PREFIX      "cartograph"

typedef struct {
  GStrv                  seeds;
  CgScopeMode            scope_mode;
  GStrv                  include_regexes;
  GStrv                  exclude_regexes;
  GStrv                  surt_prefixes;
  guint                  max_depth;
  guint64                max_pages;       /* 0: no limit */
  guint64                max_bytes;       /* 0: no limit */
  guint64                max_duration;    /* seconds, 0: no limit */
  gboolean               requisites;
  gboolean               obey_robots;
  gboolean               cookies;
  char                  *user_agent;      /* NULL: built from contact */
  char                  *contact;
  double                 min_delay;
  double                 delay_factor;
  double                 max_delay;
  guint                  max_per_host;
  guint                  max_connections;
  char                  *bandwidth;       /* see cg-bandwidth.c; "" for none */
  guint                  timeout;         /* s, total per fetch; 0 default */
  guint64                max_body_size;   /* 0: the fetcher's default */
  char                  *warc_prefix;
  guint64                warc_max_size;   /* 0: the writer's default */
  CgWarcDigestAlgorithm  digest;
  int                    compression_level;
} CgCrawlConfig;

#define CG_TYPE_CRAWL_CONFIG (cg_crawl_config_get_type ())
GType          cg_crawl_config_get_type   (void) G_GNUC_CONST;
GQuark         cg_crawl_config_error_quark (void);

CgCrawlConfig *cg_crawl_config_new        (void);
CgCrawlConfig *cg_crawl_config_copy       (const CgCrawlConfig *config);
void           cg_crawl_config_free       (CgCrawlConfig       *config);
CgScope       *cg_crawl_config_build_scope (const CgCrawlConfig *config,
                                           GError             **error);
gboolean       cg_crawl_config_validate   (const CgCrawlConfig *config,
                                           GError             **error);
gboolean       cg_crawl_config_check_resume_change (const CgCrawlConfig *stored,
                                                   const CgCrawlConfig *changed,
                                                   GError             **error);
char          *cg_crawl_config_to_json    (const CgCrawlConfig *config);
JsonNode      *cg_crawl_config_to_json_node (const CgCrawlConfig *config);
CgCrawlConfig *cg_crawl_config_from_json  (const char          *json,
                                           GError             **error);
CgCrawlConfig *cg_crawl_config_from_json_object (JsonObject    *object,
                                                 GError       **error);
/* The settings a crawl was recorded with (cg_project_add_crawl() keeps
 * its seed apart from its settings), with @seed as their only seed. */
CgCrawlConfig *cg_crawl_config_from_json_with_seed (const char     *json,
                                                   const char     *seed,
                                                   GError        **error);
char          *cg_crawl_config_to_warcinfo (const CgCrawlConfig *config);
void           cg_crawl_config_disable_politeness (CgCrawlConfig *config);

const char    *cg_scope_mode_to_string    (CgScopeMode          mode);
gboolean       cg_scope_mode_from_string  (const char          *text,
                                           CgScopeMode         *out_mode);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCrawlConfig, cg_crawl_config_free)

G_END_DECLS
