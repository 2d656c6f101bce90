/* cg-test-demo.h: demo-site pages made in process, for the tests that read them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <libxml/HTMLparser.h>

#include "cg-demo-site.h"

G_BEGIN_DECLS

/* The page at @path_and_query ("/author/x?page=2") as the demo site makes
 * it for @base_url, parsed as the crawler parses fetched pages. No request
 * is made. Fails the test when the page is not a 200 or does not parse. */
htmlDocPtr  cg_test_demo_parse_page  (CgDemoSite *site,
                                      const char *base_url,
                                      const char *path_and_query);

/* The truth objects (owned by @site) of the pages of @klass, in site order. */
GPtrArray  *cg_test_demo_class_pages (CgDemoSite *site,
                                      const char *klass);

G_END_DECLS
