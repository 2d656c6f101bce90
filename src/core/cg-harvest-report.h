/* cg-harvest-report.h: what changed in each class between two harvests.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-project.h"

G_BEGIN_DECLS

/* What changed in each class between two harvests of a project. The pages
 * of a harvest are the HTML pages it archived (a 2xx answer, or a 304
 * that stands for the copy archived before). A page is new when the
 * earlier harvest did not archive it, changed when its payload differs,
 * unchanged when the server answered 304 or the payload has the same
 * digest, gone when the earlier harvest archived it and this one did not
 * (not reached, or an error status). Pages are counted in the class this
 * harvest gave them, gone pages in the class the earlier one gave them;
 * CG_HARVEST_UNCLASSIFIED holds pages of no class. */
#define CG_HARVEST_UNCLASSIFIED "unclassified"

typedef struct {
  char  *class_name;
  guint  n_new;
  guint  n_changed;
  guint  n_unchanged;
  guint  n_gone;
} CgHarvestClassChanges;

typedef struct {
  gint64     crawl_id;
  gint64     previous_crawl_id;   /* 0 when this is the first harvest */
  guint      n_pages;             /* pages of this harvest */
  guint      n_conditional;       /* requests sent with If-None-Match or If-Modified-Since */
  guint      n_not_modified;      /* 304 answers */
  guint      n_revisits;          /* revisit records written */
  GPtrArray *classes;             /* CgHarvestClassChanges, sorted by class name */
} CgHarvestReport;

/* Compares the harvest @crawl_id with @previous_crawl_id (0: no earlier
 * harvest, every page is new). Fails when a crawl is not in the project. */
CgHarvestReport  *cg_harvest_report_compute     (CgProject        *project,
                                                 gint64            crawl_id,
                                                 gint64            previous_crawl_id,
                                                 GError          **error);
/* The learning crawl whose pages the harvest @crawl_id read back instead
 * of fetching them (cg-harvester.c), or 0. Its pages count as the
 * harvest's in the report, where the harvest did not fetch them itself. */
gint64            cg_harvest_get_reused_crawl   (CgProject        *project,
                                                 gint64            crawl_id);
/* The totals of all classes (class_name NULL). */
void              cg_harvest_report_get_totals  (const CgHarvestReport *report,
                                                 CgHarvestClassChanges *out_totals);
char             *cg_harvest_report_to_json     (const CgHarvestReport *report);
void              cg_harvest_report_free        (CgHarvestReport  *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgHarvestReport, cg_harvest_report_free)

G_END_DECLS
