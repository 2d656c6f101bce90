/* cg-crawl-lock.h: one process at a time runs a crawl.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-project.h"

G_BEGIN_DECLS

typedef struct _CgCrawlLock CgCrawlLock;

CgCrawlLock *cg_crawl_lock_acquire (CgProject    *project,
                                    gint64        crawl_id,
                                    GError      **error);
CgCrawlLock *cg_crawl_lock_acquire_unused (CgProject *project,
                                           gint64     crawl_id,
                                           GError   **error);
void         cg_crawl_lock_release (CgCrawlLock  *lock);
gboolean     cg_crawl_lock_is_held (CgProject    *project,
                                    gint64        crawl_id);
gboolean     cg_crawl_lock_check_none_running (CgProject *project,
                                               GError   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCrawlLock, cg_crawl_lock_release)

G_END_DECLS
