/* cg-crawl-report.h: what a crawl fetched, in figures.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-project.h"

G_BEGIN_DECLS

char *cg_crawl_report_build (CgProject  *project,
                             gint64      crawl_id,
                             GError    **error);

G_END_DECLS
