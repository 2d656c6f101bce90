/* cg-new-crawl-dialog.h: the settings of a new crawl.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CG_TYPE_NEW_CRAWL_DIALOG (cg_new_crawl_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CgNewCrawlDialog, cg_new_crawl_dialog, CG, NEW_CRAWL_DIALOG, AdwWindow)

CgNewCrawlDialog *cg_new_crawl_dialog_new          (GtkWindow        *parent);
void              cg_new_crawl_dialog_set_url      (CgNewCrawlDialog *self,
                                                    const char       *url);
char             *cg_new_crawl_dialog_validate_url (const char       *text,
                                                    char            **out_host);
char             *cg_new_crawl_dialog_validate_contact (const char   *text);

G_END_DECLS
