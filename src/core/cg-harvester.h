/* cg-harvester.h: the structure-driven harvest of a site, after its model.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-crawler.h"
#include "cg-harvest-report.h"
#include "cg-project.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

#define CG_HARVESTER_ERROR (cg_harvester_error_quark ())

typedef enum {
  CG_HARVESTER_ERROR_INVALID,     /* options that cannot work (no --like URL, a bad threshold) */
  CG_HARVESTER_ERROR_MODEL,       /* the model cannot drive this strategy (no entry class, no patterns) */
  CG_HARVESTER_ERROR_NO_HARVEST,  /* no harvest to resume, or no such harvest */
  CG_HARVESTER_ERROR_SAMPLE,      /* the sample page of a by-example harvest cannot be had */
} CgHarvesterError;

/* What the harvest follows. */
typedef enum {
  CG_HARVEST_STRATEGY_CLASSES,   /* the model's class links (seed 000's intensive crawl) */
  CG_HARVEST_STRATEGY_PATTERNS,  /* the model's navigation patterns (seed 004's ACEBot) */
  CG_HARVEST_STRATEGY_LIKE,      /* every page like a sample page (seed 001's GoGetIt!) */
} CgHarvestStrategy;

/* Bounds and defaults, stated once. */
#define CG_HARVEST_DEFAULT_MAX_REPEATS       1000   /* rounds of one `+` step of a pattern */
#define CG_HARVEST_DEFAULT_LIKE_MAP_PAGES    3000   /* pages mapped breadth-first by a by-example harvest */
#define CG_HARVEST_DEFAULT_LIKE_SIMILARITY   0.8    /* RTDM similarity that makes a page "like" the sample */
#define CG_HARVEST_MAX_CLASS_WAIT_MS         (10 * 60 * 1000)
/* Patterns, pruned: a pattern is dropped once its last this many pages
 * brought fewer new distinct 2-grams, on the mean, than this share of the
 * harvest's mean per page (see cg-harvester.c). */
#define CG_HARVEST_PRUNE_PAGES               8
#define CG_HARVEST_PRUNE_MIN_YIELD           0.2

typedef struct {
  CgHarvestStrategy  strategy;
  char              *like_url;             /* CG_HARVEST_STRATEGY_LIKE: the sample page */
  gboolean           everything_in_scope;  /* also fetch what no class link reaches (classes) */
  guint              class_wait_ms;        /* between two pages of one class, on top of host politeness */
  guint              max_repeats;          /* 0: CG_HARVEST_DEFAULT_MAX_REPEATS */
  guint              like_map_pages;       /* 0: CG_HARVEST_DEFAULT_LIKE_MAP_PAGES */
  double             like_similarity;      /* 0: CG_HARVEST_DEFAULT_LIKE_SIMILARITY */
  gboolean           conditional;          /* re-harvest: requests conditional on earlier harvests' copies (default TRUE) */
  CgCrawlConfig     *crawl;                /* fetching, scope, politeness, limits; NULL seeds: the model's site */
  gboolean           reuse_sample;         /* a first harvest starts from the learning crawl's pages (default TRUE) */
  gboolean           prune_patterns;       /* patterns: drop a pattern whose pages bring nothing new (default TRUE) */
} CgHarvestOptions;

CgHarvestOptions *cg_harvest_options_new        (void);
CgHarvestOptions *cg_harvest_options_copy       (const CgHarvestOptions *options);
void              cg_harvest_options_free       (CgHarvestOptions       *options);
gboolean          cg_harvest_options_validate   (const CgHarvestOptions *options,
                                                 GError                **error);
char             *cg_harvest_options_to_json    (const CgHarvestOptions *options);
CgHarvestOptions *cg_harvest_options_from_json  (const char             *json,
                                                 GError                **error);

/* "classes", "patterns", "like". */
const char       *cg_harvest_strategy_to_string   (CgHarvestStrategy   strategy);
gboolean          cg_harvest_strategy_from_string (const char         *text,
                                                   CgHarvestStrategy  *out_strategy);

#define CG_TYPE_HARVESTER (cg_harvester_get_type ())
G_DECLARE_FINAL_TYPE (CgHarvester, cg_harvester, CG, HARVESTER, GObject)

GQuark            cg_harvester_error_quark      (void);

/* Signals, all emitted in the thread-default main context of the thread
 * that created the harvester (which must also be the one that calls
 * cg_harvester_start(), as for CgCrawler):
 *   "class-progress" (const char *class_name, guint pages, guint records):
 *     the pages of a class harvested so far and the records extracted
 *     from them ("unclassified" for pages of no class);
 *   "coverage" (guint64 requests, guint64 distinct_bigrams): distinct word
 *     2-grams of the harvested HTML pages against HTML requests;
 *   "finished" (CgCrawlEnd end, const GError *error): the harvest ended;
 *     @error is set for CG_CRAWL_END_FAILED. */

/* A new harvest of @model's site, recorded as a crawl of kind "harvest". */
CgHarvester      *cg_harvester_new              (CgProject               *project,
                                                 CgSiteModel             *model,
                                                 const CgHarvestOptions  *options,
                                                 GError                 **error);
/* Opens an interrupted harvest to resume it with its own options and
 * model; it fetches nothing twice. */
CgHarvester      *cg_harvester_new_for_crawl    (CgProject               *project,
                                                 gint64                   crawl_id,
                                                 GError                 **error);
/* The same, with new limits and politeness in @config (the harvest's
 * crawl settings, from cg_crawler_load_config(), changed where
 * cg_crawl_config_check_resume_change() allows): they are kept with the
 * harvest for its later runs. */
CgHarvester      *cg_harvester_new_for_crawl_with_config (CgProject      *project,
                                                 gint64                   crawl_id,
                                                 const CgCrawlConfig     *config,
                                                 GError                 **error);
/* The newest harvest of @project that did not reach its end, or 0 with
 * @error set when there is none. */
gint64            cg_harvester_find_resumable   (CgProject               *project,
                                                 GError                 **error);
/* The newest finished harvest before @crawl_id (0: the newest of all),
 * or 0 when there is none; 0 with @error set when the store cannot be
 * read. */
gint64            cg_harvester_find_previous    (CgProject               *project,
                                                 gint64                   crawl_id,
                                                 GError                 **error);

void              cg_harvester_start            (CgHarvester             *self);
void              cg_harvester_stop             (CgHarvester             *self);
void              cg_harvester_pause            (CgHarvester             *self);
void              cg_harvester_unpause          (CgHarvester             *self);
gboolean          cg_harvester_is_running       (CgHarvester             *self);

/* For the crawl's own "progress", "event" and "finished" signals, stats,
 * bandwidth. */
CgCrawler        *cg_harvester_get_crawler      (CgHarvester             *self);
CgSiteModel      *cg_harvester_get_model        (CgHarvester             *self);
const CgHarvestOptions *cg_harvester_get_options (CgHarvester            *self);
gint64            cg_harvester_get_crawl_id     (CgHarvester             *self);
/* The last earlier harvest, which this one reports its changes against
 * (its requests are conditional on every earlier harvest), or 0. */
gint64            cg_harvester_get_previous_crawl_id (CgHarvester        *self);
/* A first harvest: the learning crawl's pages read back instead of
 * fetched again (CgHarvestOptions.reuse_sample); 0 before the harvest
 * starts and for later harvests. */
guint             cg_harvester_get_n_reused     (CgHarvester             *self);
/* A harvest by example: the pages found like the sample so far. */
guint             cg_harvester_get_n_targets    (CgHarvester             *self);
/* The classes seen so far (names, "unclassified" included, sorted) and
 * the counts of one of them, for a view that opens mid-harvest. */
GStrv             cg_harvester_list_classes     (CgHarvester             *self);
void              cg_harvester_get_class_counts (CgHarvester             *self,
                                                 const char              *class_name,
                                                 guint                   *out_pages,
                                                 guint                   *out_records);
/* The report of what changed since the previous harvest; call after
 * "finished". */
CgHarvestReport  *cg_harvester_get_report       (CgHarvester             *self,
                                                 GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgHarvestOptions, cg_harvest_options_free)

G_END_DECLS
