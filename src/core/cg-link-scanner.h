/* cg-link-scanner.h: the link extractor's reader of plain HTML pages.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the link extractor reads of a page, as libxml2's HTML parser
 * reports it through SAX: every start tag, with its attributes (names in
 * lower case, values with references decoded; NULL @atts for none, a
 * NULL value for an attribute without one), the text within <a> elements
 * and <style> blocks, and the end tags of both. */
typedef struct {
  void (*start_element) (gpointer     user_data,
                         const char  *name,
                         const char **atts);
  void (*end_element)   (gpointer     user_data,
                         const char  *name);
  void (*characters)    (gpointer     user_data,
                         const char  *text,
                         gsize        length);
} CgLinkScannerEvents;

const char * const *cg_link_scanner_get_link_content (void);

gboolean cg_link_scanner_read (const char                *data,
                               gsize                      length,
                               const char                *declared_encoding,
                               const CgLinkScannerEvents *events,
                               gpointer                   user_data);

G_END_DECLS
