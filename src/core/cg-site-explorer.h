/* cg-site-explorer.h: the learning crawl that makes a site's model.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-crawler.h"
#include "cg-site-learner.h"

G_BEGIN_DECLS

/* By default, "model-updated" is emitted at most once a second, and only
 * after 10 new pages: a snapshot costs milliseconds of the crawl's
 * thread on a real sample. */
#define CG_SITE_EXPLORER_SNAPSHOT_PAGES        10
#define CG_SITE_EXPLORER_SNAPSHOT_INTERVAL_MS  1000

#define CG_TYPE_SITE_EXPLORER (cg_site_explorer_get_type ())
G_DECLARE_FINAL_TYPE (CgSiteExplorer, cg_site_explorer, CG, SITE_EXPLORER, GObject)

CgSiteExplorer *cg_site_explorer_new         (CgProject             *project,
                                              const CgCrawlConfig   *config,
                                              const CgLearnerParams *params,
                                              GError               **error);
CgCrawler      *cg_site_explorer_get_crawler (CgSiteExplorer        *self);
void            cg_site_explorer_set_snapshot_interval (CgSiteExplorer *self,
                                              guint                  min_pages,
                                              guint                  min_interval_ms);
void            cg_site_explorer_start       (CgSiteExplorer        *self);
void            cg_site_explorer_stop        (CgSiteExplorer        *self);
CgSiteModel    *cg_site_explorer_get_model   (CgSiteExplorer        *self);
guint           cg_site_explorer_get_n_pages (CgSiteExplorer        *self);

G_END_DECLS
